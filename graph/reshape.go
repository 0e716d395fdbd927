package graph

import (
	"github.com/reshape-go/reshape/sym"
)

// The condition of the Reshapes of ONNX (Reshape) and OpenVINO (Reshape-1), beside what package
// reshape infers: the volume of the input is that of the output.

// requireVolume requires what a Reshape of in to out, by a pattern of values v, needs of the
// symbols: without a -1, equal volumes (a Reshape of [N,3,4] to [1,12] needs 12*N == 12, which is
// N == 1); with one at pattern[m], an exact quotient, the input volume a multiple of the product of
// the other output dims ([T] to [-1,4] needs T % 4 == 0). Dims known only by their bounds leave
// the condition to a run: nothing is required of them. The error wraps errcode.ErrInvalidShape
// when the condition can never hold.
func requireVolume(c *ctx, in, out sym.Shape, v []sym.Dim) error {
	if in.RankDynamic || out.RankDynamic || v == nil {
		return nil
	}
	minus := -1
	for i, d := range v {
		if n, ok := d.Static(); ok && n == -1 {
			minus = i
		}
	}
	w, ok := product(in.Dims).Expr()
	if !ok {
		return nil
	}
	others := out.Dims
	if minus >= 0 {
		others = append(append([]sym.Dim{}, out.Dims[:minus]...), out.Dims[minus+1:]...)
	}
	r, ok := product(others).Expr()
	if !ok {
		return nil
	}
	if minus < 0 {
		return c.Require(sym.Eq(w, r), "the volume: "+in.String()+" to "+out.String())
	}
	p, ok := sym.Divisible(w, r)
	if !ok {
		return nil
	}
	return c.Require(p, "the -1 of pattern["+itoa(minus)+"]: the input's volume a multiple of the other output dims")
}
