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
// start, start+step, ... before end, start and end clamped to the axis as ONNX clamps them
// (sliceAxis); values sliced when known. Starts and ends computed by the model
// are expressions in its symbols; those of unknown values leave the count of their axis unknown
// (at most the axis), and axes or steps not known before run time that of every axis.
func slice(c *ctx) error {
	var starts, ends []sym.Dim // nil when not known
	var axes, steps []int64    // nil when not given
	n := -1                    // the number of axes sliced, -1 until known
	axesKnown, stepsKnown := true, true
	counted := true // every count of starts, ends, axes and steps known, or of an unknown rank
	if c.Version() < 10 && c.n.Op == "Slice" {
		s, ok, err := c.Ints("starts")
		if err != nil || !ok {
			return errOr(err, c.Errorf(errcode.ErrSyntax, "Slice-1 has no starts"))
		}
		e, ok, err := c.Ints("ends")
		if err != nil || !ok {
			return errOr(err, c.Errorf(errcode.ErrSyntax, "Slice-1 has no ends"))
		}
		if len(e) != len(s) {
			return c.Errorf(errcode.ErrInvalidShape, "%d starts and %d ends", len(s), len(e))
		}
		if axes, _, err = c.Ints("axes"); err != nil {
			return err
		}
		starts, ends, n = constDims(s), constDims(e), len(s)
	} else {
		for k := 1; k <= 2; k++ {
			if c.In(k) == nil {
				return c.Errorf(errcode.ErrSyntax, "input %d is missing: Slice takes starts and ends", k)
			}
		}
		for k, what := range sliceInputs {
			in := c.In(k + 1)
			if in == nil {
				continue
			}
			if r, ok := in.Shape.Rank(); ok && r != 1 {
				return c.Errorf(errcode.ErrInvalidShape, "input %d (%s) has rank %d: it must be 1-D", k+1, what, r)
			}
			if m, ok := in.Volume(); ok {
				if n >= 0 && int(m) != n {
					return c.Errorf(errcode.ErrInvalidShape, "%d starts and %d %s", n, m, what)
				}
				n = int(m)
			} else if !in.Shape.RankDynamic {
				counted = false
			}
		}
		starts, ends = c.In(1).Value, c.In(2).Value
		if a := c.In(3); a != nil {
			axes, axesKnown = a.Ints()
		}
		if a := c.In(4); a != nil {
			steps, stepsKnown = a.Ints()
		}
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil {
		return err
	}
	if !ok {
		r = -1
	}
	if !counted {
		if err := requireSliceCounts(c, r); err != nil {
			return err
		}
	}
	if !ok {
		return nil
	}
	switch {
	case n < 0 && axes != nil:
		n = len(axes)
	case n < 0 && steps != nil:
		n = len(steps)
	}
	if n > r {
		return c.Errorf(errcode.ErrInvalidShape, "%d starts for an input of rank %d: each names an axis, and no axis twice", n, r)
	}
	if !axesKnown || n < 0 {
		// Which axes, and how much of them: known at run time only; the rank stays, and no dim grows.
		c.Out(0, in.Type, sym.ShapeOf(upToAll(in.Shape.Dims)...))
		return nil
	}
	if axes == nil {
		axes = make([]int64, n)
		for i := range axes {
			axes[i] = int64(i)
		}
	}
	if steps == nil {
		steps = filled(n, 1)
	}
	if len(axes) != n || len(steps) != n {
		return c.Errorf(errcode.ErrInvalidShape, "%d starts, %d axes and %d steps", n, len(axes), len(steps))
	}
	ax, err := c.NormAxes(axes, r)
	if err != nil {
		return err
	}
	known := starts != nil && ends != nil && stepsKnown
	dims := append([]sym.Dim(nil), in.Shape.Dims...)
	cuts := make([]*cut, r)
	for k, a := range ax {
		if !known {
			dims[a] = upTo(dims[a])
			continue
		}
		if steps[k] == 0 {
			return c.Errorf(errcode.ErrInvalidShape, "steps[%d] is 0", k)
		}
		s, m, _ := sliceAxis(dims[a], starts[k], ends[k], steps[k])
		dims[a] = m
		cuts[a] = &cut{s, sym.Const(steps[k]), m}
	}
	out := c.Out(0, in.Type, sym.ShapeOf(dims...))
	if known {
		cutValues(out, in, cuts)
	}
	return nil
}

// sliceInputs names Slice's inputs 1 to 4, each a 1-D tensor of one value per sliced axis.
var sliceInputs = [...]string{"starts", "ends", "axes", "steps"}

// requireSliceCounts requires, where the symbols decide them, what onnxruntime checks of a Slice of
// an input of rank r (-1 when not known) whose counts of starts, ends, axes and steps are not all
// known: as many of each as of starts, and no more than r (each names an axis, and no axis twice).
func requireSliceCounts(c *ctx, r int) error {
	var count sym.Dim
	first := ""
	for k, what := range sliceInputs {
		in := c.In(k + 1)
		if in == nil || in.Shape.RankDynamic {
			continue
		}
		if first == "" {
			count, first = in.Shape.Dims[0], what
			continue
		}
		if _, err := c.Unify(in.Shape.Dims[0], count, "the count of "+what+" that of "+first); err != nil {
			return err
		}
	}
	if first == "" || r < 0 {
		return nil
	}
	return requireAtMost(c, count, sym.Const(int64(r)), "the count of "+first+" at most the rank")
}

// upToAll returns each of dims as upTo does: parts of unknown size.
func upToAll(dims []sym.Dim) []sym.Dim {
	out := make([]sym.Dim, len(dims))
	for i, d := range dims {
		out[i] = upTo(d)
	}
	return out
}
