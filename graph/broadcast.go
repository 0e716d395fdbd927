package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// Broadcast returns the shape of the multidirectional (numpy) broadcast of shapes, ONNX's rule for
// element-wise operators and OpenVINO's auto_broadcast "numpy": shapes aligned at their last dims,
// each dim of the result the common value of the dims that are not 1. Dims that cannot broadcast
// (two different integers, neither 1) are an error wrapping errcode.ErrInvalidShape. Two dims in
// the symbols neither of which can be 1 must be equal, and unify; where one may be 1, the node
// requires A == B || A == 1 || B == 1 (a constraint naming the input and axis), and the result is
// the one that cannot be 1 at the bindings that satisfy the conditions recorded (so that 1 with
// 2*(T//2), which may be 0, gives 2*(T//2): numpy's 1 with 0 is 0), or max(A,B), or where either
// may be 0, min(max(A,B), A*B) (T//2 with (T+1)//2 is 0 at T == 1). Dims known only
// by their bounds give a new anonymous dim bounded by both. A dynamic rank gives a dynamic rank.
func (c *ctx) Broadcast(shapes ...sym.Shape) (sym.Shape, error) {
	rank := 0
	for _, s := range shapes {
		if s.RankDynamic {
			return sym.DynamicRank(), nil
		}
		rank = max(rank, len(s.Dims))
	}
	out := c.dims(rank)
	for i := range out {
		out[i] = sym.Const(1)
	}
	for k, s := range shapes {
		off := rank - len(s.Dims)
		for i, d := range s.Dims {
			r, err := c.broadcastDim(out[off+i], d, bplace{k, i, off + i, 0})
			if err != nil {
				c.refresh()
				return sym.Shape{}, err
			}
			out[off+i] = r
		}
	}
	c.refresh()
	return sym.ShapeOf(out...), nil
}

// maybeOne reports whether d may be 1.
func maybeOne(d sym.Dim) bool {
	lo, hi := d.Bounds()
	return lo <= 1 && hi >= 1
}

// bplace is where a dim broadcasts: dim i of input k at output axis axis, or the letter label
// of an Einsum term when it is not 0.
type bplace struct {
	k, i, axis int
	label      rune
}

// at names the place in the output: "output axis 2", "label b".
func (p bplace) at() string {
	if p.label != 0 {
		return "label " + string(p.label)
	}
	return "output axis " + itoa(p.axis)
}

// why names the dim and the place: "input 1 dim 0 broadcast at output axis 2".
func (p bplace) why() string {
	if p.label != 0 {
		return "input " + itoa(p.k) + " " + p.at()
	}
	return "input " + itoa(p.k) + " dim " + itoa(p.i) + " broadcast at " + p.at()
}

// broadcastDim broadcasts b with a, the broadcast of the dims before it, at the place p. It does
// not refresh: the dims of the shapes Broadcast reads stay as they were until it returns.
func (c *ctx) broadcastDim(a, b sym.Dim, p bplace) (sym.Dim, error) {
	switch {
	case a.Equal(b):
		return a, nil
	case isOne(a):
		return b, nil
	case isOne(b):
		return a, nil
	}
	_, sa := a.Static()
	_, sb := b.Static()
	if sa && sb {
		return a, c.Errorf(errcode.ErrInvalidShape, "input %d: dim %v does not broadcast with %v at %s", p.k, b, a, p.at())
	}
	xa, oka := a.Expr()
	xb, okb := b.Expr()
	switch {
	case !maybeOne(a) && !maybeOne(b):
		d, err := c.unify(a, b, p.why()+": neither can be 1")
		if err != nil {
			return a, c.Errorf(errcode.ErrInvalidShape, "input %d: dim %v does not broadcast with %v at %s%s", p.k, b, a, p.at(), conflict(err))
		}
		return d, nil
	case oka && okb:
		one := sym.Int(1)
		if err := c.require(sym.Or(sym.Eq(xa, xb), sym.Eq(xa, one), sym.Eq(xb, one)), p.why()); err != nil {
			return a, err
		}
		switch {
		case !c.mayBeOne(a, xa):
			return a, nil
		case !c.mayBeOne(b, xb):
			return b, nil
		case c.mayBeZero(a, xa) || c.mayBeZero(b, xb):
			// numpy's 1 with 0 is 0, where max(A,B) is 1: min(max(A,B), A*B) is 0 there, and
			// max(A,B) where neither is 0.
			return sym.MinDims(sym.MaxDims(a, b), sym.MulDims(a, b)), nil
		}
		return sym.MaxDims(a, b), nil
	case sa: // b is 1 or a
		return a, nil
	case sb:
		return b, nil
	}
	lo1, hi1 := a.Bounds()
	lo2, hi2 := b.Bounds()
	return c.Fresh("broadcast", min(lo1, lo2), max(hi1, hi2)), nil
}

// mayBeOne reports whether d, whose expression is x, may be 1 at a binding that satisfies the
// conditions recorded: 2*(T//2)-4 never is.
func (c *ctx) mayBeOne(d sym.Dim, x sym.Expr) bool {
	return maybeOne(d) && !c.When(sym.Eq(x, sym.Int(1))).IsFalse()
}

// mayBeZero reports whether d, whose expression is x, may be 0 at a binding that satisfies the
// conditions recorded.
func (c *ctx) mayBeZero(d sym.Dim, x sym.Expr) bool {
	lo, _ := d.Bounds()
	return lo <= 0 && !c.When(sym.Eq(x, sym.Int(0))).IsFalse()
}

func isOne(d sym.Dim) bool {
	n, ok := d.Static()
	return ok && n == 1
}

// broadcastIndex returns, for each element of the static shape out in row-major order, the index
// of the element of a tensor of shape in (broadcast to out) it reads.
func broadcastIndex(in, out []int64) []int {
	n := 1
	for _, d := range out {
		n *= int(d)
	}
	idx := make([]int, n)
	off := len(out) - len(in)
	// strides of in, 0 on broadcast axes
	strides := make([]int, len(out))
	acc := 1
	for i := len(in) - 1; i >= 0; i-- {
		if in[i] != 1 {
			strides[off+i] = acc
		}
		acc *= int(in[i])
	}
	coord := make([]int64, len(out))
	for k := range idx {
		j := 0
		for i, c := range coord {
			j += int(c) * strides[i]
		}
		idx[k] = j
		for i := len(out) - 1; i >= 0; i-- {
			coord[i]++
			if coord[i] < out[i] {
				break
			}
			coord[i] = 0
		}
	}
	return idx
}

// broadcastValues sets the values of out, of static shape, from those of in, whose static dims
// aligned to out's axes are aligned.
func broadcastValues(out, in *Info, aligned []int64) {
	od, ok := out.Shape.Static()
	if !ok || in.Value == nil {
		return
	}
	if n, ok := out.Volume(); !ok || n > MaxValue {
		return
	}
	idx := broadcastIndex(aligned, od)
	v := make([]sym.Dim, len(idx))
	for i, j := range idx {
		v[i] = in.Value[j]
	}
	setValue(out, v)
}

// expandTo sets output 0 to in broadcast with the shape the 1-D input 1 holds (ONNX's Expand,
// OpenVINO's Broadcast-3 bidirectional): the multidirectional broadcast of both shapes, a target
// dim 1 keeping in's; values broadcast. Dims that do not broadcast, and a value of the shape that
// is negative, are an error wrapping errcode.ErrInvalidShape; one that may be negative is a
// condition of the node (shapeFromValue); a rank that is not known gives a dynamic rank.
func expandTo(c *ctx, in *Info) error {
	target, err := shapeFromValue(c, 1)
	if err != nil {
		return err
	}
	if !target.RankDynamic && !in.Shape.RankDynamic {
		// A target dim 1 keeps the input's dim; broadcasting covers it.
		s, err := c.Broadcast(in.Shape, target)
		if err != nil {
			return err
		}
		out := c.Out(0, in.Type, s)
		out.elems = in.elems
		if in.Value != nil {
			out.elems = valueBounds(in.Value)
		}
		if sd, v, ok := values(in); ok {
			if od, ok := s.Static(); ok && len(sd) <= len(od) {
				if n, ok := out.Volume(); ok && n <= MaxValue {
					idx := broadcastIndex(sd, od)
					ev := make([]sym.Dim, len(idx))
					for i, j := range idx {
						ev[i] = v[j]
					}
					out.Value = ev
				}
			}
		}
		return nil
	}
	c.Out(0, in.Type, sym.DynamicRank())
	return nil
}

// unidirectional checks that the shape s of input i broadcasts to the dims out (ONNX's
// unidirectional broadcasting) and unifies the dims it must equal: an integer other than 1, or a
// dim that cannot be 1; one that may be 1 is required 1 or out's dim (C == 1 || C == N). Without
// bcast, s must be out itself.
func unidirectional(c *ctx, s sym.Shape, out []sym.Dim, i int, bcast bool) error {
	if len(s.Dims) > len(out) || !bcast && len(s.Dims) != len(out) {
		return c.Errorf(errcode.ErrInvalidShape, "input %d of shape %v does not broadcast to %v", i, s, sym.ShapeOf(out...))
	}
	off := len(out) - len(s.Dims)
	for k, d := range s.Dims {
		if bcast && (isOne(d) || d.Equal(out[off+k])) {
			continue
		}
		if bcast && maybeOne(d) && !isStatic(d) {
			// 1 or the output's dim: required where both are expressions in the symbols.
			xd, ok1 := d.Expr()
			xo, ok2 := out[off+k].Expr()
			if ok1 && ok2 && d.Determined() && out[off+k].Determined() {
				if err := c.Require(sym.Or(sym.Eq(xd, sym.Int(1)), sym.Eq(xd, xo)), "input "+itoa(i)+" dim "+itoa(k)+" 1 or the output's"); err != nil {
					return err
				}
			}
			continue
		}
		u, err := c.Unify(out[off+k], d, "input "+itoa(i)+" dim "+itoa(k)+" and the output's")
		if err != nil {
			return err
		}
		out[off+k] = u
	}
	return nil
}

// isStatic reports whether d is an integer.
func isStatic(d sym.Dim) bool {
	_, ok := d.Static()
	return ok
}
