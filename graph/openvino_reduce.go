package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/sym"
)

// openvinoReduce holds the rules of OpenVINO IR's reductions; those that compute values read the
// data's, the others only the axes.
var openvinoReduce = table{DomainOpenVINO, []opDef{
	{"ReduceProd", since(1), fixed(2), fixed(1), reads(0, 1), ovReduce},
	{"ReduceSum", since(1), fixed(2), fixed(1), reads(0, 1), ovReduce},
	{"ReduceMax", since(1), fixed(2), fixed(1), reads(0, 1), ovReduce},
	{"ReduceMin", since(1), fixed(2), fixed(1), reads(0, 1), ovReduce},
	{"ReduceLogicalAnd", since(1), fixed(2), fixed(1), reads(0, 1), ovReduce},
	{"ReduceLogicalOr", since(1), fixed(2), fixed(1), reads(0, 1), ovReduce},
	{"ReduceMean", since(1), fixed(2), fixed(1), reads(1), ovReduce},
	{"ReduceL1", since(4), fixed(2), fixed(1), reads(1), ovReduce},
	{"ReduceL2", since(4), fixed(2), fixed(1), reads(1), ovReduce},
}}

// ovReduce: ReduceProd-1, ReduceSum-1, ReduceMax-1, ReduceMin-1, ReduceMean-1, ReduceL1-4,
// ReduceL2-4, ReduceLogicalAnd-1, ReduceLogicalOr-1: the axes (input 1, a scalar or 1-D; repeats
// count once, none reduces nothing) removed, or kept as 1 with keep_dims. Values for ReduceProd, ReduceSum,
// ReduceMax, ReduceMin and the logical ones when the input's are known (ReduceProd and ReduceSum of
// no elements are 1 and 0).
func ovReduce(c *ctx) error {
	keep, err := ovBool(c, "keep_dims", false)
	if err != nil {
		return err
	}
	axes, err := c.Input(1)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(axes, 1, 0, 1); err != nil {
		return err
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	ax, known := axes.Ints()
	if !known {
		return nil
	}
	reduced, err := ovAxes(c, ax, r)
	if err != nil {
		return err
	}
	dims := reducedDims(nil, in.Shape.Dims, reduced, keep)
	t := in.Type
	if c.n.Op == "ReduceLogicalAnd" || c.n.Op == "ReduceLogicalOr" {
		t = element.Boolean
	}
	out := c.Out(0, t, sym.ShapeOf(dims...))
	var f func(a, b sym.Dim) sym.Dim
	empty, unit := true, sym.Const(0) // the reduction of no elements
	switch c.n.Op {
	case "ReduceProd", "ReduceLogicalAnd":
		f, unit = sym.MulDims, sym.Const(1)
	case "ReduceSum":
		f = sym.AddDims
	case "ReduceLogicalOr":
		f = sym.MaxDims
	case "ReduceMax":
		f, empty = sym.MaxDims, false
	case "ReduceMin":
		f, empty = sym.MinDims, false
	default:
		return nil
	}
	if sd, v, ok := values(in); ok {
		setValue(out, reduceValues(sd, v, reduced, f, empty, unit))
	}
	return nil
}
