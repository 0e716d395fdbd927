package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoNN holds the rules of OpenVINO IR's matrix and image-sampling layers: MatMul, Inverse,
// GridSample.
var openvinoNN = table{DomainOpenVINO, []opDef{
	{"MatMul", since(1), fixed(2), fixed(1), 0, ovMatMul},
	{"Inverse", since(14), fixed(1), fixed(1), 0, ovInverse},
	{"GridSample", since(9), fixed(2), fixed(1), 0, ovGridSample},
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

// ovInverse: Inverse-14: the data's type and shape, [..., M, M] of rank 2 or more; the two last
// dims unify.
func ovInverse(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, err := ovBool(c, "adjoint", false); err != nil {
		return err
	}
	r, ok, err := c.RequireRank(in, 0, 2, -1)
	if err != nil || !ok {
		c.SameAs(0, in)
		return err
	}
	m, err := c.Unify(in.Shape.Dims[r-2], in.Shape.Dims[r-1], "the matrix dims")
	if err != nil {
		return err
	}
	dims := c.clone(in.Shape.Dims)
	dims[r-2], dims[r-1] = m, m
	c.Out(0, in.Type, sym.ShapeOf(dims...))
	return nil
}

// ovGridSample: GridSample-9: data [N, C, H, W] sampled at grid [N, H_out, W_out, 2] gives
// [N, C, H_out, W_out], of the data's type.
func ovGridSample(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	for k, a := range [...]struct{ name, def string }{{"mode", "bilinear"}, {"padding_mode", "zeros"}} {
		v, err := c.String(a.name, a.def)
		if err != nil {
			return err
		}
		if ok := k == 0 && (v == "bilinear" || v == "bicubic" || v == "nearest") || k == 1 && (v == "zeros" || v == "border" || v == "reflection"); !ok {
			return c.Errorf(errcode.ErrSyntax, "%s %q: GridSample samples bilinear, bicubic or nearest, padded with zeros, border or reflection", a.name, v)
		}
	}
	for i := range 2 {
		if _, _, err := c.RequireRank(ins[i], i, 4, 4); err != nil {
			return err
		}
	}
	data, grid := dimsOrUnknown(ins[0], 4), dimsOrUnknown(ins[1], 4)
	n, err := c.Unify(data[0], grid[0], "the batch of the data and the grid")
	if err != nil {
		return err
	}
	if _, err := c.Unify(grid[3], sym.Const(2), "the grid's last dim"); err != nil {
		return err
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(n, data[1], grid[1], grid[2]))
	return nil
}
