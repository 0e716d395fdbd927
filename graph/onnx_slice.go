package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxSlice holds the rule of ONNX's Slice, and of the experimental DynamicSlice of opset 1 that
// onnxruntime still runs.
var onnxSlice = table{"", []opDef{
	{"Slice", since(1), fixed(1), fixed(1), reads(0), slice},
	{"Slice", since(10, 11, 13), span(3, 5), fixed(1), reads(0, 1, 2, 3, 4), slice},
	{"DynamicSlice", since(1), span(3, 4), fixed(1), reads(0, 1, 2, 3), slice},
}}

// slice: Slice-1 (starts, ends, axes attributes), -10, -11, -13 (inputs, with steps), and
// DynamicSlice-1 (the inputs of Slice-10 without steps): each sliced axis keeps the elements
// start, start+step, ... before end, start and end clamped to the axis as ONNX clamps them; values
// sliced when known.
func slice(c *ctx) error {
	var starts, ends, axes, steps []int64
	var err error
	known := true
	if c.Version() < 10 && c.n.Op == "Slice" {
		var ok bool
		if starts, ok, err = c.Ints("starts"); err != nil || !ok {
			return errOr(err, c.Errorf(errcode.ErrSyntax, "Slice-1 has no starts"))
		}
		if ends, ok, err = c.Ints("ends"); err != nil || !ok {
			return errOr(err, c.Errorf(errcode.ErrSyntax, "Slice-1 has no ends"))
		}
		if axes, _, err = c.Ints("axes"); err != nil {
			return err
		}
	} else {
		args := [4]*[]int64{&starts, &ends, &axes, &steps}
		for k, p := range args {
			a := c.In(k + 1)
			if a == nil {
				if k < 2 {
					return c.Errorf(errcode.ErrSyntax, "input %d is missing: Slice takes starts and ends", k+1)
				}
				continue
			}
			v, ok := a.Ints()
			if !ok {
				known = false
				continue
			}
			*p = v
		}
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if !known {
		c.Out(0, in.Type, sliceUnknown(c, in))
		return nil
	}
	if len(starts) != len(ends) {
		return c.Errorf(errcode.ErrInvalidShape, "%d starts and %d ends", len(starts), len(ends))
	}
	if axes == nil {
		axes = make([]int64, len(starts))
		for i := range axes {
			axes[i] = int64(i)
		}
	}
	if steps == nil {
		steps = make([]int64, len(starts))
		for i := range steps {
			steps[i] = 1
		}
	}
	if len(axes) != len(starts) || len(steps) != len(starts) {
		return c.Errorf(errcode.ErrInvalidShape, "%d starts, %d axes and %d steps", len(starts), len(axes), len(steps))
	}
	ax, err := c.NormAxes(axes, r)
	if err != nil {
		return err
	}
	dims := append([]sym.Dim(nil), in.Shape.Dims...)
	cuts := make([]*cut, r)
	for k, a := range ax {
		if steps[k] == 0 {
			return c.Errorf(errcode.ErrInvalidShape, "steps[%d] is 0", k)
		}
		s, n := sliceAxis(dims[a], starts[k], ends[k], steps[k])
		dims[a] = n
		cuts[a] = &cut{s, sym.Const(steps[k]), n}
	}
	cutValues(c.Out(0, in.Type, sym.ShapeOf(dims...)), in, cuts)
	return nil
}

// sliceUnknown returns the shape Slice-10 and later give of in when its starts, ends, axes or
// steps are not all known integers: the rank stays, and no dim grows. An axis that the known axes
// do not name keeps its dim; one the slice takes by step 1 from start to end, computed dims that
// need no clamping (0 <= start <= end <= the axis dim, whatever their values: a Loop's iteration
// number and the next), keeps end-start; another is [0, its dim].
func sliceUnknown(c *ctx, in *Info) sym.Shape {
	dims := append([]sym.Dim(nil), in.Shape.Dims...)
	starts, ends := c.In(1).Value, c.In(2).Value
	axes, axesOK := []int64(nil), c.In(3) == nil
	if !axesOK {
		axes, axesOK = c.In(3).Ints()
	}
	steps, stepsOK := []int64(nil), c.In(4) == nil
	if !stepsOK {
		steps, stepsOK = c.In(4).Ints()
	}
	if starts == nil || ends == nil || len(starts) != len(ends) || !axesOK || axes != nil && len(axes) != len(starts) ||
		!stepsOK || steps != nil && len(steps) != len(starts) {
		for i := range dims {
			_, hi := dims[i].Bounds()
			dims[i] = sym.Interval(0, hi)
		}
		return sym.ShapeOf(dims...)
	}
	for k := range starts {
		a := int64(k)
		if axes != nil {
			a = axes[k]
		}
		if a < 0 {
			a += int64(len(dims))
		}
		if a < 0 || a >= int64(len(dims)) {
			continue // refused once the values are known; the shape stays as sound as it is
		}
		n := sym.SubDims(ends[k], starts[k])
		slo, _ := starts[k].Bounds()
		_, ehi := ends[k].Bounds()
		dlo, _ := dims[a].Bounds()
		if nlo, _ := n.Bounds(); slo >= 0 && ehi <= dlo && nlo >= 0 && (steps == nil || steps[k] == 1) {
			dims[a] = n
			continue
		}
		_, hi := dims[a].Bounds()
		dims[a] = sym.Interval(0, hi)
	}
	return sym.ShapeOf(dims...)
}

func errOr(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}
