package graph

import (
	"math"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

func init() { register("", singleOutput(map[string]Rule{"Slice": slice})) }

// slice: Slice-1 (starts, ends, axes attributes), -10, -11, -13 (inputs, with steps): each sliced
// axis keeps the elements start, start+step, ... before end, start and end clamped to the axis as
// ONNX clamps them; values sliced when known.
func slice(c *Ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	var starts, ends, axes, steps []int64
	known := true
	if c.Version() < 10 {
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
	r, ok := in.Rank()
	if !ok {
		c.Out(0, in.Type, sym.DynamicRank())
		return nil
	}
	if !known {
		// Which axes, and how much of them: known at run time only; the rank stays, and no dim grows.
		dims := append([]sym.Dim(nil), in.Shape.Dims...)
		for i := range dims {
			_, hi := dims[i].Bounds()
			dims[i] = sym.Interval(0, hi)
		}
		c.Out(0, in.Type, sym.ShapeOf(dims...))
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
	type cut struct{ start, step, n sym.Dim }
	cuts := make([]*cut, r)
	for k, a := range ax {
		if steps[k] == 0 {
			return c.Errorf(errcode.ErrInvalidShape, "steps[%d] is 0", k)
		}
		s, n := sliceAxis(dims[a], starts[k], ends[k], steps[k])
		dims[a] = n
		cuts[a] = &cut{s, sym.Const(steps[k]), n}
	}
	out := c.Out(0, in.Type, sym.ShapeOf(dims...))
	sd, v, ok := values(in)
	if !ok {
		return nil
	}
	od, ok := out.Shape.Static()
	if !ok {
		return nil
	}
	// Gather the sliced elements: every output coordinate maps to start + i·step on sliced axes.
	strides := make([]int64, r)
	acc := int64(1)
	for i := r - 1; i >= 0; i-- {
		strides[i] = acc
		acc *= sd[i]
	}
	total := int64(1)
	for _, d := range od {
		total *= d
	}
	res := make([]sym.Dim, 0, total)
	coord := make([]int64, r)
	for range total {
		j := int64(0)
		for i, x := range coord {
			if cu := cuts[i]; cu != nil {
				s, _ := cu.start.Static()
				st, _ := cu.step.Static()
				x = s + x*st
			}
			j += x * strides[i]
		}
		res = append(res, v[j])
		for i := r - 1; i >= 0; i-- {
			coord[i]++
			if coord[i] < od[i] {
				break
			}
			coord[i] = 0
		}
	}
	setValue(out, res)
	return nil
}

func errOr(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}

// sliceAxis returns the first index and the number of elements ONNX's Slice takes from an axis of
// size d: start and end count from the end when negative; start is clamped to [0, d] for a
// positive step and [0, d-1] for a negative one, end to [0, d] and [-1, d-1]; the count is
// ceil((end-start)/step), at least 0.
func sliceAxis(d sym.Dim, start, end, step int64) (first, n sym.Dim) {
	norm := func(x int64, lo, hi sym.Dim) sym.Dim {
		var v sym.Dim
		switch {
		case x == math.MaxInt64 || x == math.MinInt64:
			v = sym.Const(x)
		case x < 0:
			v = sym.AddDims(sym.Const(x), d)
		default:
			v = sym.Const(x)
		}
		return sym.MinDims(sym.MaxDims(v, lo), hi)
	}
	var s, e sym.Dim
	if step > 0 {
		s = norm(start, sym.Const(0), d)
		e = norm(end, sym.Const(0), d)
	} else {
		dm1 := sym.SubDims(d, sym.Const(1))
		s = norm(start, sym.Const(0), dm1)
		e = norm(end, sym.Const(-1), dm1)
	}
	n = sym.MaxDims(sym.CeilDivDims(sym.SubDims(e, s), sym.Const(step)), sym.Const(0))
	if nn, ok := n.NonNegative(); ok {
		n = nn
	}
	return s, n
}
