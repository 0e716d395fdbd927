package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// The conditions on dims that rules require (Ctx.Require): a dim known as an integer is checked
// at once, one in the symbols is required as a constraint of the node, and one known only by its
// bounds is left to a run unless they decide it.

// requireAtLeast requires d >= least, why saying what needs it, where d is an expression in the
// symbols (Ctx.Require); a d known only by its bounds is left to a run unless they decide it. The
// error wraps errcode.ErrInvalidShape when it can never hold.
func requireAtLeast(c *ctx, d sym.Dim, least int64, why string) error {
	lo, hi := d.Bounds()
	switch {
	case lo >= least:
		return nil
	case hi < least:
		return c.Errorf(errcode.ErrInvalidShape, "%s: %v is less than %d", why, d, least)
	}
	x, ok := d.Expr()
	if !ok {
		return nil
	}
	return c.Require(sym.Ge(x, sym.Int(least)), why)
}

// requireNotEmptyUnless requires d >= 1 || e == 0, why saying what needs it: an axis d that
// onnxruntime refuses empty unless e, the count of what the node would compute (its output's
// volume, or its batch), is 0. Where e cannot be 0 that is requireAtLeast(d, 1); the error wraps
// errcode.ErrInvalidShape when it can never hold.
func requireNotEmptyUnless(c *ctx, d, e sym.Dim, why string) error {
	if lo, _ := d.Bounds(); lo >= 1 {
		return nil
	}
	switch lo, hi := e.Bounds(); {
	case lo >= 1:
		return requireAtLeast(c, d, 1, why)
	case hi < 1:
		return nil
	}
	x, ok1 := d.Expr()
	y, ok2 := e.Expr()
	if !ok1 || !ok2 {
		return nil
	}
	return c.Require(sym.Or(sym.Ge(x, sym.Int(1)), sym.Eq(y, sym.Int(0))), why)
}

// requireNonNegative returns d narrowed to [0, Inf], requiring d >= 0 where d, an expression in the
// symbols, may be negative (a computed split size, a TopK k from Shape arithmetic: onnxruntime
// refuses a negative one at run time); name says what d is ("split[2]", "k"). The error wraps
// errcode.ErrInvalidShape when d is negative at every binding.
func requireNonNegative(c *ctx, d sym.Dim, name string) (sym.Dim, error) {
	return requireSize(c, d, 0, name)
}

// requireSize returns d narrowed to [least, Inf], a size the node reads from a tensor's values
// (a OneHot's depth, a DFT's length: 1 and up), requiring d >= least where d, an expression in the
// symbols, may be less; name says what d is. A d that may be less and is no expression is left to
// a run (its output is not exact, a loss the engine records), and where its bounds narrow to one
// integer, which the engine would take for exact, the loss is recorded here (Ctx.Lost). The error
// wraps errcode.ErrInvalidShape when d is less than least at every binding.
func requireSize(c *ctx, d sym.Dim, least int64, name string) (sym.Dim, error) {
	nd, ok := d.Narrow(least, sym.Inf)
	switch {
	case !ok && least == 0:
		return d, c.Errorf(errcode.ErrInvalidShape, "%s = %v is negative", name, d)
	case !ok:
		return d, c.Errorf(errcode.ErrInvalidShape, "%s = %v is less than %d", name, d, least)
	}
	why := name + " = " + d.String() + " not negative"
	if least != 0 {
		why = name + " = " + d.String() + " at least " + itoa(int(least))
	}
	if err := requireAtLeast(c, d, least, why); err != nil {
		return d, err
	}
	if _, static := nd.Static(); static && !d.Determined() {
		c.Lost(why + ": " + d.String() + " is no expression in the symbols")
	}
	return nd, nil
}

// requireAtMost requires a <= b, why saying what needs it (a TopK's k no greater than its axis).
// The error wraps errcode.ErrInvalidShape when it can never hold.
func requireAtMost(c *ctx, a, b sym.Dim, why string) error {
	alo, ahi := a.Bounds()
	blo, bhi := b.Bounds()
	switch {
	case ahi <= blo:
		return nil
	case alo > bhi:
		return c.Errorf(errcode.ErrInvalidShape, "%s: %v is greater than %v", why, a, b)
	}
	xa, oka := a.Expr()
	xb, okb := b.Expr()
	if !oka || !okb {
		return nil
	}
	return c.Require(sym.Le(xa, xb), why)
}

// requireMultiple requires d to be a multiple of n >= 1, why saying what needs it (a DepthToSpace's
// channels of a multiple of blocksize²). The error wraps errcode.ErrInvalidShape when it can
// never hold.
func requireMultiple(c *ctx, d sym.Dim, n int64, why string) error {
	if v, ok := d.Static(); ok {
		if v%n != 0 {
			return c.Errorf(errcode.ErrInvalidShape, "%s: %d is not a multiple of %d", why, v, n)
		}
		return nil
	}
	x, ok := d.Expr()
	if !ok {
		return nil
	}
	p, ok := sym.Divisible(x, sym.Int(n))
	if !ok {
		return nil
	}
	return c.Require(p, why)
}

// requireMultipleOf requires d to be a multiple of f >= 1, why saying what needs it, where f is an
// integer (requireMultiple) or an expression in the symbols (a Col2Im's block volume K*K); a
// condition that cannot be stated, of an f known only by its bounds or a remainder the symbols
// cannot keep, is a loss of precision (Ctx.Lost). The error wraps errcode.ErrInvalidShape when it
// can never hold.
func requireMultipleOf(c *ctx, d, f sym.Dim, why string) error {
	if n, ok := f.Static(); ok {
		return requireMultiple(c, d, n, why)
	}
	x, okx := d.Expr()
	if !okx {
		return nil
	}
	y, oky := f.Expr()
	p, ok := sym.Divisible(x, y)
	if !oky || !ok {
		c.Lost(why + ": not stated in the symbols")
		return nil
	}
	return c.Require(p, why)
}

// requireCount requires the tensor of shape s to hold n elements where the symbols decide its
// count (scales of shape [C] for 3 axes need C == 3), why saying what needs it; a static count is
// the caller's to check. The error wraps errcode.ErrInvalidShape when it can never hold.
func requireCount(c *ctx, s sym.Shape, n int64, why string) error {
	if s.RankDynamic {
		return nil
	}
	v := s.Volume()
	if _, ok := v.Static(); ok {
		return nil
	}
	x, ok := v.Expr()
	if !ok {
		return nil
	}
	return c.Require(sym.Eq(x, sym.Int(n)), why)
}
