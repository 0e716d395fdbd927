package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/sym"
)

// openvinoNN holds the rules of OpenVINO IR layers of networks whose outputs have shapes only:
// MatMul, the normalizations and softmax-like layers (whose output has the
// type and shape of input 0: ovUnary), and the SSD layers PriorBoxClustered and DetectionOutput.
var openvinoNN = table{DomainOpenVINO, []opDef{
	{"MatMul", since(1), fixed(2), fixed(1), 0, ovMatMul},
	{"Softmax", since(1, 8), fixed(1), fixed(1), 0, ovUnary},
	{"LogSoftmax", since(5), fixed(1), fixed(1), 0, ovUnary},
	{"MVN", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"MVN", since(6), fixed(2), fixed(1), 0, ovUnary},
	{"NormalizeL2", since(1), fixed(2), fixed(1), 0, ovUnary},
	{"LRN", since(1), fixed(2), fixed(1), 0, ovUnary},
	{"GRN", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"PriorBoxClustered", since(1), fixed(2), fixed(1), reads(0), ovPriorBoxClustered},
	{"DetectionOutput", since(1, 8), span(3, 5), fixed(1), 0, ovDetectionOutput},
}}

// ovMatMul: MatMul-1: the last two dims of each input (transposed by transpose_a, transpose_b)
// multiply, their inner dims unifying; a 1-D input is a row (the first) or a column (the second)
// whose added dim leaves the output; the other dims broadcast.
func ovMatMul(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	ta, err := ovBool(c, "transpose_a", false)
	if err != nil {
		return err
	}
	tb, err := ovBool(c, "transpose_b", false)
	if err != nil {
		return err
	}
	dims, ok, err := matMulDims(c, ins[0], ins[1], ta, tb)
	if err != nil || !ok {
		return err
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(dims...))
	return nil
}

// ovPriorBoxClustered: PriorBoxClustered-1: [2, 4·H·W·P] for the output size [H,W] (input 0's
// values) and the P priors of the width attribute, f32.
func ovPriorBoxClustered(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	w, given, err := c.Floats("width")
	if err != nil || !given {
		return err
	}
	hw := ins[0].Value
	if len(hw) != 2 {
		return nil
	}
	n := sym.MulDims(sym.MulDims(sym.Const(int64(4*len(w))), hw[0]), hw[1])
	c.Out(0, element.F32, sym.ShapeOf(sym.Const(2), n))
	return nil
}

// ovDetectionOutput: DetectionOutput-1, -8: [1, 1, N·keep_top_k[0], 7] for the batch N of the box
// logits (input 0) when keep_top_k[0] is positive; otherwise the declared shape.
func ovDetectionOutput(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	k, given, err := c.Ints("keep_top_k")
	if err != nil || !given || len(k) == 0 || k[0] <= 0 {
		return err
	}
	if r, ok := in.Rank(); !ok || r == 0 {
		return nil
	}
	n := sym.MulDims(in.Shape.Dims[0], sym.Const(k[0]))
	c.Out(0, in.Type, sym.ShapeOf(sym.Const(1), sym.Const(1), n, sym.Const(7)))
	return nil
}
