package graph

import (
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// The condition of the Reshapes of ONNX (Reshape) and OpenVINO (Reshape-1), beside what package
// reshape infers: the volume of the input is that of the output.

// requireVolume requires what a Reshape of in to out, by a pattern of values v, needs of the
// symbols: without a -1, equal volumes (a Reshape of [N,3,4] to [1,12] needs 12*N == 12, which is
// N == 1); with one at pattern[m], an exact quotient, the input volume a multiple of the product of
// the other output dims ([T] to [-1,4] needs T % 4 == 0). Dims known only by their bounds leave
// the condition to a run: nothing is required of them. The error wraps errcode.ErrInvalidShape
// when the condition can never hold. Equal dims of both sides cancel first (those at least 1), and
// integers multiply apart, so that the common Reshapes of a model ([B,T,64] to [B,T,4,16]) build
// no expression.
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
	used := make([]bool, len(out.Dims))
	var wx, rx []sym.Dim // the symbolic dims of each side that do not cancel
	ws, rs := int64(1), int64(1)
	for _, d := range in.Dims {
		if n, ok := d.Static(); ok {
			if ws, ok = shape.Mul(ws, n); !ok {
				return nil
			}
			continue
		}
		if !d.Determined() {
			return nil
		}
		j := -1
		for k, e := range out.Dims {
			// A dim that may be 0 does not cancel: both volumes are then 0.
			if lo, _ := d.Bounds(); lo >= 1 && k != minus && !used[k] && e.Equal(d) {
				j = k
				break
			}
		}
		if j >= 0 {
			used[j] = true
			continue
		}
		wx = append(wx, d)
	}
	for k, d := range out.Dims {
		if k == minus || used[k] {
			continue
		}
		if n, ok := d.Static(); ok {
			if rs, ok = shape.Mul(rs, n); !ok {
				return nil
			}
			continue
		}
		if !d.Determined() {
			return nil
		}
		rx = append(rx, d)
	}
	switch {
	case len(wx) == 0 && len(rx) == 0: // integers, which package reshape checks
		return nil
	case minus >= 0 && len(rx) == 0 && rs != 0 && ws%rs == 0:
		return nil
	}
	w, ok1 := sym.MulDims(sym.Const(ws), product(wx)).Expr()
	r, ok2 := sym.MulDims(sym.Const(rs), product(rx)).Expr()
	if !ok1 || !ok2 {
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
