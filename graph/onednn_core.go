package graph

import (
	"strings"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// onednnCore holds the rules of oneDNN Graph's operations that move data (StaticReshape,
// DynamicReshape, StaticTranspose, Concat), the reductions, and the ops of no computation (End,
// Wildcard), following the pages of oneDNN's doc/graph_api/operations, except DynamicReshape-1,
// which oneDNN has dropped and which follows this project's own page of it (the dialect
// onednn-dynamic of package reshape).
var onednnCore = table{DomainOneDNN, []opDef{
	{"StaticReshape", since(1), fixed(1), fixed(1), 0, dnnlReshape},
	{"DynamicReshape", since(1), fixed(2), fixed(1), 0, dnnlReshape},
	{"StaticTranspose", since(1), fixed(1), fixed(1), 0, needs(dnnlTranspose, "order")},
	{"Concat", since(1), span(1, 64), fixed(1), 0, concat},
	{"ReduceL1", since(1), span(1, 2), fixed(1), 0, dnnlReduce},
	{"ReduceL2", since(1), span(1, 2), fixed(1), 0, dnnlReduce},
	{"ReduceMax", since(1), span(1, 2), fixed(1), 0, dnnlReduce},
	{"ReduceMean", since(1), span(1, 2), fixed(1), 0, dnnlReduce},
	{"ReduceMin", since(1), span(1, 2), fixed(1), 0, dnnlReduce},
	{"ReduceProd", since(1), span(1, 2), fixed(1), 0, dnnlReduce},
	{"ReduceSum", since(1), span(1, 2), fixed(1), 0, dnnlReduce},
	{"End", since(1), fixed(1), fixed(0), 0, dnnlEnd},
	{"Wildcard", since(1), span(0, many), span(0, many), 0, dnnlWildcard},
}}

// needs returns rule run after a check that the node has the attributes the operation requires
// (Clamp's min and max, Elu's alpha): a missing one is an error wrapping errcode.ErrSyntax.
func needs(rule ruleFunc, attrs ...string) ruleFunc {
	return func(c *ctx) error {
		for _, a := range attrs {
			if _, ok := c.n.Attr(a); !ok {
				return c.Errorf(errcode.ErrSyntax, "attribute %s is missing: %s takes it", a, c.n.Op)
			}
		}
		return rule(c)
	}
}

// dnnlBool returns the bool attribute name (0 or 1, as FromOneDNN reads it), def when the node
// does not have it.
func dnnlBool(c *ctx, name string, def bool) (bool, error) {
	d := int64(0)
	if def {
		d = 1
	}
	v, err := c.Int(name, d)
	if err != nil {
		return def, err
	}
	if v != 0 && v != 1 {
		return def, c.Errorf(errcode.ErrSyntax, "attribute %s = %d: want a bool, 0 or 1", name, v)
	}
	return v == 1, nil
}

// dnnlChoice returns the string attribute name, def when the node does not have it, matched
// ignoring case against the values the operation takes (auto_pad's None, SAME_UPPER, which the
// documentation writes none, same_upper): the value as want spells it. Another value is an error
// wrapping errcode.ErrSyntax.
func dnnlChoice(c *ctx, name, def string, want ...string) (string, error) {
	v, err := c.String(name, def)
	if err != nil {
		return def, err
	}
	for _, w := range want {
		if strings.EqualFold(v, w) {
			return w, nil
		}
	}
	return def, c.Errorf(errcode.ErrSyntax, "attribute %s = %q: want %s", name, v, strings.Join(want, ", "))
}

// readOneDNNReshape reads a oneDNN StaticReshape-1 or DynamicReshape-1 node: its options, the
// dialect onednn-static or onednn-dynamic with the required special_zero, and StaticReshape's
// required shape attribute, the pattern. The error wraps errcode.ErrSyntax for a node without
// one output and one input (StaticReshape) or two (DynamicReshape), or without the attributes it
// requires.
func readOneDNNReshape(n *Node) (opt reshape.Options, pattern []int64, err error) {
	opt.Dialect = reshape.OneDNNStatic
	inputs := 1
	if n.Op == "DynamicReshape" {
		opt.Dialect, inputs = reshape.OneDNNDynamic, 2
	}
	if len(n.Inputs) != inputs || len(n.Outputs) != 1 {
		return opt, nil, errcode.Errorf(errcode.ErrSyntax, "%d inputs and %d outputs, want %d and 1", len(n.Inputs), len(n.Outputs), inputs)
	}
	a, ok := n.Attr("special_zero")
	switch {
	case !ok:
		return opt, nil, errcode.Errorf(errcode.ErrSyntax, "no special_zero attribute (required by %s-1)", n.Op)
	case a.Kind != AttrInt || a.Int != 0 && a.Int != 1:
		return opt, nil, errcode.Errorf(errcode.ErrSyntax, "attribute special_zero is not a bool")
	}
	opt.SpecialZero = a.Int == 1
	if opt.Dialect == reshape.OneDNNDynamic {
		return opt, nil, nil
	}
	a, ok = n.Attr("shape")
	switch {
	case !ok:
		return opt, nil, errcode.Errorf(errcode.ErrSyntax, "no shape attribute (required by StaticReshape-1)")
	case a.Kind != AttrInts:
		return opt, nil, errcode.Errorf(errcode.ErrSyntax, "attribute shape is %v, want an s64[]", a.Kind)
	case a.Ints == nil:
		return opt, []int64{}, nil
	}
	return opt, a.Ints, nil
}

// dnnlReshape: StaticReshape-1 (the pattern is the shape attribute) and DynamicReshape-1 (the
// pattern is input 1, whose values are known at run time only: its shape gives the output's rank),
// with the rules of package reshape in the dialects onednn-static and onednn-dynamic, their data
// types (f32, f16, bf16) and DynamicReshape's pattern type (s32) included, over symbolic dims.
func dnnlReshape(c *ctx) error {
	data, err := c.Input(0)
	if err != nil {
		return err
	}
	opt, attr, err := readOneDNNReshape(c.n)
	if err != nil {
		return err
	}
	opt.MaxRank, opt.DataType = c.MaxRank(), data.Type
	values, ps := constDims(attr), shape.OfInts(int64(len(attr)))
	if opt.Dialect == reshape.OneDNNDynamic {
		p := c.In(1)
		values, ps, opt.PatternType = nil, p.Shape.Partial(), p.Type
	}
	out, err := reshape.InferSymbolic(data.Shape, ps, values, opt)
	if err != nil {
		return err
	}
	if err := requireVolume(c, data.Shape, out, values); err != nil {
		return err
	}
	c.Out(0, data.Type, out)
	return nil
}

// dnnlTranspose: StaticTranspose-1: the dims permuted by order, whose values may count from the
// last axis (-1); an empty order reverses them, as oneDNN does.
func dnnlTranspose(c *ctx) error {
	in, _, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	order, _, err := c.Ints("order")
	if err != nil {
		return err
	}
	if len(order) == 0 {
		order = nil
	}
	return transposeBy(c, in, order)
}

// dnnlReduce: ReduceL1-1, ReduceL2-1, ReduceMax-1, ReduceMean-1, ReduceMin-1, ReduceProd-1 and
// ReduceSum-1: the dims of the axes (the axes attribute, or input 1, exactly one of them) become 1
// with keep_dims, and leave the output without (the default). An empty axes attribute reduces
// nothing. Axes that input 1 holds are known at run time only: the output has the input's rank
// less their count without keep_dims, and each dim the input's or 1.
func dnnlReduce(c *ctx) error {
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	keep, err := dnnlBool(c, "keep_dims", false)
	if err != nil {
		return err
	}
	axes, given, err := c.Ints("axes")
	if err != nil {
		return err
	}
	if given == (c.In(1) != nil) {
		return c.Errorf(errcode.ErrSyntax, "%s takes its axes from the axes attribute or input 1, one of them", c.n.Op)
	}
	if !given {
		return dnnlReduceUnknown(c, in, r, keep)
	}
	ax, err := c.NormAxes(axes, r)
	if err != nil {
		return err
	}
	reduced := make([]bool, r)
	for _, a := range ax {
		reduced[a] = true
	}
	c.Out(0, fileType, sym.ShapeOf(reducedDims(c.dims(r)[:0], in.Shape.Dims, reduced, keep)...))
	return nil
}

// dnnlReduceUnknown sets the output of a reduction over the axes of input 1, whose values are not
// known: with keep_dims each dim the input's or 1, their hull; without, the input's rank less the
// count of axes when input 1's length is known, each dim unknown.
func dnnlReduceUnknown(c *ctx, in *Info, r int, keep bool) error {
	if keep {
		dims := c.dims(r)
		for i, d := range in.Shape.Dims {
			dims[i] = d
			if !isOne(d) {
				lo, hi := d.Bounds()
				dims[i] = sym.Interval(min(lo, 1), max(hi, 1))
			}
		}
		c.Out(0, fileType, sym.ShapeOf(dims...))
		return nil
	}
	axes := c.In(1)
	if ar, ok := axes.Rank(); !ok || ar != 1 {
		return nil
	}
	n, ok := axes.Shape.Dims[0].Static()
	if !ok {
		return nil
	}
	if n > int64(r) {
		return c.Errorf(errcode.ErrInvalidShape, "%d axes for an input of rank %d", n, r)
	}
	c.Out(0, fileType, unknownDims(r-int(n)))
	return nil
}

// dnnlEnd: End-1, which marks a tensor as an output of the graph: it has no output.
func dnnlEnd(*ctx) error { return nil }

// dnnlWildcard: Wildcard-1, an op whose computation oneDNN does not know: its outputs are what the
// file declares.
func dnnlWildcard(*ctx) error { return nil }
