package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxReduce holds the rules of ONNX's reductions and of ArgMax and ArgMin. ReduceSum, ReduceProd,
// ReduceMax and ReduceMin also compute the values of small integer tensors: shape subgraphs
// compute volumes with ReduceProd. The axes are an attribute until ReduceSum-13 and the others'
// -18, and an input from then on.
var onnxReduce = table{"", []opDef{
	{"ArgMax", since(1, 11, 12, 13), fixed(1), fixed(1), 0, argReduce},
	{"ArgMin", since(1, 11, 12, 13), fixed(1), fixed(1), 0, argReduce},
	{"ReduceSum", since(1, 11), fixed(1), fixed(1), reads(0), reduce},
	{"ReduceSum", since(13), span(1, 2), fixed(1), reads(0, 1), reduce},
	{"ReduceProd", since(1, 11, 13), fixed(1), fixed(1), reads(0), reduce},
	{"ReduceProd", since(18), span(1, 2), fixed(1), reads(0, 1), reduce},
	{"ReduceMax", since(1, 11, 12, 13), fixed(1), fixed(1), reads(0), reduce},
	{"ReduceMax", since(18, 20), span(1, 2), fixed(1), reads(0, 1), reduce},
	{"ReduceMin", since(1, 11, 12, 13), fixed(1), fixed(1), reads(0), reduce},
	{"ReduceMin", since(18, 20), span(1, 2), fixed(1), reads(0, 1), reduce},
	{"ReduceMean", since(1, 11, 13), fixed(1), fixed(1), 0, reduce},
	{"ReduceMean", since(18), span(1, 2), fixed(1), reads(1), reduce},
	{"ReduceL1", since(1, 11, 13), fixed(1), fixed(1), 0, reduce},
	{"ReduceL1", since(18), span(1, 2), fixed(1), reads(1), reduce},
	{"ReduceL2", since(1, 11, 13), fixed(1), fixed(1), 0, reduce},
	{"ReduceL2", since(18), span(1, 2), fixed(1), reads(1), reduce},
	{"ReduceLogSum", since(1, 11, 13), fixed(1), fixed(1), 0, reduce},
	{"ReduceLogSum", since(18), span(1, 2), fixed(1), reads(1), reduce},
	{"ReduceLogSumExp", since(1, 11, 13), fixed(1), fixed(1), 0, reduce},
	{"ReduceLogSumExp", since(18), span(1, 2), fixed(1), reads(1), reduce},
	{"ReduceSumSquare", since(1, 11, 13), fixed(1), fixed(1), 0, reduce},
	{"ReduceSumSquare", since(18), span(1, 2), fixed(1), reads(1), reduce},
}}

// reduce: ReduceSum-1, -11 (axes attribute), -13 (axes input, noop_with_empty_axes); ReduceMean,
// ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp and
// ReduceSumSquare -1, -11, -13 (axes attribute), -18 (axes input, noop_with_empty_axes), and
// ReduceMax, ReduceMin -20. The axes (every axis when there are none, unless noop_with_empty_axes
// makes the node an identity; an axis given twice counts once) become 1 with keepdims (the
// default) and go without. Values: ReduceSum adds, ReduceProd multiplies (the product of no
// element is 1), ReduceMax and ReduceMin take the largest and smallest (of at least one element).
func reduce(c *ctx) error {
	since := int64(18)
	if c.n.Op == "ReduceSum" {
		since = 13
	}
	axes, given, known, err := c.IntsArg("axes", 1, since)
	if err != nil {
		return err
	}
	keep, err := c.Int("keepdims", 1)
	if err != nil {
		return err
	}
	noop := int64(0)
	if c.Version() >= since {
		if noop, err = c.Int("noop_with_empty_axes", 0); err != nil {
			return err
		}
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if given && !known {
		c.Out(0, in.Type, unknownReduce(c, in, keep != 0))
		return nil
	}
	reduced := make([]bool, r)
	if len(axes) == 0 {
		if noop != 0 {
			setValue(c.SameAs(0, in), in.Value)
			return nil
		}
		for i := range reduced {
			reduced[i] = true
		}
	}
	for _, a := range axes {
		k, err := c.NormAxis(a, r)
		if err != nil {
			return err
		}
		reduced[k] = true
	}
	var dims []sym.Dim
	for i, d := range in.Shape.Dims {
		switch {
		case !reduced[i]:
			dims = append(dims, d)
		case keep != 0:
			dims = append(dims, sym.Const(1))
		}
	}
	if c.n.Op == "ReduceMax" {
		var red []sym.Dim
		for i, d := range in.Shape.Dims {
			if reduced[i] {
				red = append(red, d)
			}
		}
		if err := requireReducedNotEmpty(c, sym.ShapeOf(red...).Volume(), dims); err != nil {
			return err
		}
	}
	out := c.Out(0, in.Type, sym.ShapeOf(dims...))
	keepFracs(out, in)
	var f func(a, b sym.Dim) sym.Dim
	empty := false // whether the reduction of no element is defined, as unit
	unit := sym.Const(0)
	switch c.n.Op {
	case "ReduceSum":
		f, empty = sym.AddDims, true
	case "ReduceProd":
		f, empty, unit = sym.MulDims, true, sym.Const(1)
	case "ReduceMax":
		f = sym.MaxDims
	case "ReduceMin":
		f = sym.MinDims
	default:
		return nil
	}
	if sd, v, ok := values(in); ok {
		setValue(out, reduceValues(sd, v, reduced, f, empty, unit))
	}
	return nil
}

// unknownReduce returns the output shape of a reduction over axes that are not known: with keepdims
// each dim is itself or 1; without, the rank is known when the number of axes is.
func unknownReduce(c *ctx, in *Info, keep bool) sym.Shape {
	if keep {
		dims := make([]sym.Dim, len(in.Shape.Dims))
		for i, d := range in.Shape.Dims {
			lo, hi := d.Bounds()
			dims[i] = sym.Interval(min(lo, 1), max(hi, 1))
			if isOne(d) {
				dims[i] = d
			}
		}
		return sym.ShapeOf(dims...)
	}
	if ax := c.In(1); ax != nil {
		if n, ok := ax.Volume(); ok && n > 0 && int(n) <= len(in.Shape.Dims) {
			return unknownDims(len(in.Shape.Dims) - int(n))
		}
	}
	return sym.DynamicRank()
}

// requireReducedNotEmpty requires that a ReduceMax, ArgMax or ArgMin reduces n > 0 elements to each
// of its output's, of dims out, unless that output is empty: onnxruntime 1.20.1 refuses those three
// over an axis of size 0 with an empty message, and runs ReduceMin and the other reductions there
// (probed at [1,3,0] over axis 2; [0,3,0] and [1,0,2] run: an empty output computes nothing).
func requireReducedNotEmpty(c *ctx, n sym.Dim, out []sym.Dim) error {
	return requireNotEmptyUnless(c, n, sym.ShapeOf(out...).Volume(), "the reduced axes of "+c.n.Op+" not empty where its output is not: onnxruntime has no value for them")
}

// argReduce: ArgMax and ArgMin -1, -11, -12 (select_last_index), -13: int64 indices of the
// input's shape with the axis (default 0) made 1 (keepdims, the default) or removed.
func argReduce(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	keep, err := c.Int("keepdims", 1)
	if err != nil {
		return err
	}
	r, ok := in.Rank()
	if !ok {
		c.Out(0, element.I64, sym.DynamicRank())
		return nil
	}
	a, err := axisOf(c, in)
	if err != nil {
		return err
	}
	if r == 0 {
		return c.Errorf(errcode.ErrInvalidShape, "the input is a scalar")
	}
	d := in.Shape.Dims[a]
	dims := append([]sym.Dim(nil), in.Shape.Dims...)
	if keep != 0 {
		dims[a] = sym.Const(1)
	} else {
		dims = append(dims[:a], dims[a+1:]...)
	}
	if err := requireReducedNotEmpty(c, d, dims); err != nil {
		return err
	}
	out := c.Out(0, element.I64, sym.ShapeOf(dims...))
	// Each index is within the axis: an ArrayFeatureExtractor or Gather of it stays within.
	out.elems = &[2]sym.Dim{sym.Const(0), sym.SubDims(d, sym.Const(1))}
	return nil
}
