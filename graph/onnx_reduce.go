package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// The rules of ONNX's reductions and of ArgMax and ArgMin. ReduceSum, ReduceProd, ReduceMax and
// ReduceMin also compute the values of small integer tensors: shape subgraphs compute volumes with
// ReduceProd.
func init() {
	rs := map[string]Rule{"ArgMax": argReduce, "ArgMin": argReduce}
	for _, op := range []string{"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
		"ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"} {
		rs[op] = reduce
	}
	register("", rs)
}

// reduce: ReduceSum-1, -11 (axes attribute), -13 (axes input, noop_with_empty_axes); ReduceMean,
// ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp and
// ReduceSumSquare -1, -11, -13 (axes attribute), -18 (axes input, noop_with_empty_axes), and
// ReduceMax, ReduceMin -20. The axes (every axis when there are none, unless noop_with_empty_axes
// makes the node an identity; an axis given twice counts once) become 1 with keepdims (the
// default) and go without. Values: ReduceSum adds, ReduceProd multiplies (the product of no
// element is 1), ReduceMax and ReduceMin take the largest and smallest (of at least one element).
func reduce(c *Ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
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
	r, ok := in.Rank()
	if !ok {
		c.Out(0, in.Type, sym.DynamicRank())
		return nil
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
	out := c.Out(0, in.Type, sym.ShapeOf(dims...))
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
func unknownReduce(c *Ctx, in *Info, keep bool) sym.Shape {
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

// reduceValues reduces the values v of a tensor of static shape dims along the reduced axes with
// f; nil when an output element reduces no element and empty is false, unit otherwise.
func reduceValues(dims []int64, v []sym.Dim, reduced []bool, f func(a, b sym.Dim) sym.Dim, empty bool, unit sym.Dim) []sym.Dim {
	r := len(dims)
	outStride := make([]int64, r) // the stride in the output of each input axis, 0 when reduced
	size := int64(1)
	for d := r - 1; d >= 0; d-- {
		if !reduced[d] {
			outStride[d] = size
			size *= dims[d]
		}
	}
	if len(v) == 0 {
		if !empty || size > MaxValue {
			return nil
		}
		out := make([]sym.Dim, size)
		for i := range out {
			out[i] = unit
		}
		return out
	}
	acc := make([]sym.Dim, size)
	set := make([]bool, size)
	coord := make([]int64, r)
	for _, e := range v {
		at := int64(0)
		for d, x := range coord {
			at += x * outStride[d]
		}
		if set[at] {
			acc[at] = f(acc[at], e)
		} else {
			acc[at], set[at] = e, true
		}
		nextCoord(coord, dims)
	}
	return acc
}

// argReduce: ArgMax and ArgMin -1, -11, -12 (select_last_index), -13: int64 indices of the
// input's shape with the axis (default 0) made 1 (keepdims, the default) or removed.
func argReduce(c *Ctx) error {
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
	if d, ok := in.Shape.Dims[a].Static(); ok && d == 0 {
		return c.Errorf(errcode.ErrInvalidShape, "axis %d has size 0: %s of no element", a, c.n.Op)
	}
	dims := append([]sym.Dim(nil), in.Shape.Dims...)
	if keep != 0 {
		dims[a] = sym.Const(1)
	} else {
		dims = append(dims[:a], dims[a+1:]...)
	}
	c.Out(0, element.I64, sym.ShapeOf(dims...))
	return nil
}
