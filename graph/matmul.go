package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// The kernel of the matrix products of ONNX (MatMul, MatMulInteger, QLinearMatMul) and OpenVINO
// (MatMul-1).

// matMulDims returns the dims of numpy's matmul of a and b, ONNX MatMul-13's and OpenVINO
// MatMul-1's rule: ta and tb swap the last two dims of an operand of rank 2 or more; a 1-D operand
// is a row (a) or a column (b) whose added dim the result drops; the inner dims unify; the batch
// dims (all but the last two) broadcast. ok is false when a rank is not known; a scalar operand is
// an error wrapping errcode.ErrInvalidShape.
func matMulDims(c *ctx, a, b *Info, ta, tb bool) (dims []sym.Dim, ok bool, err error) {
	ra, oka := a.Rank()
	rb, okb := b.Rank()
	if oka && ra == 0 || okb && rb == 0 {
		return nil, false, c.Errorf(errcode.ErrInvalidShape, "an operand is a scalar: MatMul takes tensors of rank 1 or more")
	}
	if !oka || !okb {
		return nil, false, nil
	}
	ad, bd := c.clone(a.Shape.Dims), c.clone(b.Shape.Dims)
	switch {
	case ra == 1:
		ad = []sym.Dim{sym.Const(1), ad[0]}
	case ta:
		ad[ra-1], ad[ra-2] = ad[ra-2], ad[ra-1]
	}
	switch {
	case rb == 1:
		bd = []sym.Dim{bd[0], sym.Const(1)}
	case tb:
		bd[rb-1], bd[rb-2] = bd[rb-2], bd[rb-1]
	}
	if _, err := c.Unify(ad[len(ad)-1], bd[len(bd)-2], "the inner dims (A's last, B's second to last)"); err != nil {
		return nil, false, err
	}
	batch, err := c.Broadcast(sym.ShapeOf(ad[:len(ad)-2]...), sym.ShapeOf(bd[:len(bd)-2]...))
	if err != nil {
		return nil, false, err
	}
	dims = append(c.dims(len(batch.Dims) + 2)[:0], batch.Dims...)
	if ra > 1 {
		dims = append(dims, ad[len(ad)-2])
	}
	if rb > 1 {
		dims = append(dims, bd[len(bd)-1])
	}
	return dims, true, nil
}
