package sym

import (
	"math/big"

	"github.com/reshape-go/reshape/errcode"
)

// Eval returns the value of e when each symbol takes the value value(name) gives, computed exactly
// (intermediate terms may exceed int64). The error wraps errcode.ErrSyntax for a symbol value does
// not give, errcode.ErrOverflow for a result beyond int64, errcode.ErrNotDivisible for an exact
// quotient that does not divide, and errcode.ErrInvalidShape for a division by zero: the model
// would fail at that binding.
func (e Expr) Eval(value func(name string) (int64, bool)) (int64, error) {
	r, err := e.evalRat(value)
	if err != nil {
		return 0, err
	}
	if !r.IsInt() {
		return 0, errcode.Errorf(errcode.ErrNotDivisible, "%s is %s, not an integer, at this binding", e, r.RatString())
	}
	if !r.Num().IsInt64() {
		return 0, errcode.Errorf(errcode.ErrOverflow, "%s is %s at this binding, beyond int64", e, r.RatString())
	}
	return r.Num().Int64(), nil
}

func (e Expr) evalRat(value func(string) (int64, bool)) (*big.Rat, error) {
	sum := new(big.Rat)
	for _, t := range e.t {
		p := big.NewRat(t.c.num, t.c.den)
		for _, f := range t.m {
			v, err := f.a.eval(value)
			if err != nil {
				return nil, err
			}
			if f.e < 0 {
				if v.Sign() == 0 {
					return nil, errcode.Errorf(errcode.ErrInvalidShape, "%s divides by %s = 0 at this binding", e, f.a.key)
				}
				v.Inv(v)
			}
			for range abs(f.e) {
				p.Mul(p, v)
			}
		}
		sum.Add(sum, p)
	}
	return sum, nil
}

func (a *atom) eval(value func(string) (int64, bool)) (*big.Rat, error) {
	if a.kind == symbolAtom {
		v, ok := value(a.name)
		if !ok {
			return nil, errcode.Errorf(errcode.ErrSyntax, "symbol %s has no value", a.name)
		}
		return new(big.Rat).SetInt64(v), nil
	}
	n, err := a.num.evalRat(value)
	if err != nil {
		return nil, err
	}
	d, err := a.den.evalRat(value)
	if err != nil {
		return nil, err
	}
	if d.Sign() == 0 {
		return nil, errcode.Errorf(errcode.ErrInvalidShape, "%s divides by zero at this binding", a.key)
	}
	q := n.Quo(n, d)
	if a.kind == quotAtom {
		if !q.IsInt() {
			return nil, errcode.Errorf(errcode.ErrNotDivisible, "%s does not divide at this binding", a.key)
		}
		return q, nil
	}
	// floor(num/den) of the reduced fraction: big.Int.Div rounds toward -inf for a positive
	// divisor (Euclidean division), and the denominator of a big.Rat is positive.
	return new(big.Rat).SetInt(new(big.Int).Div(q.Num(), q.Denom())), nil
}

// Subst returns e with each symbol s replaced by sub(name of s) where it gives one, simplified
// again; ok is false when the result cannot be kept (see maxSize) or divides by zero.
func (e Expr) Subst(sub func(name string) (Expr, bool)) (Expr, bool) {
	sum := Expr{}
	for _, t := range e.t {
		p := Expr{t: []term{{c: t.c}}}
		for _, f := range t.m {
			v, ok := f.a.subst(sub)
			if !ok {
				return Expr{}, false
			}
			for range abs(f.e) {
				if f.e > 0 {
					p, ok = Mul(p, v)
				} else {
					p, ok = Quo(p, v)
				}
				if !ok {
					return Expr{}, false
				}
			}
		}
		var ok bool
		if sum, ok = Add(sum, p); !ok {
			return Expr{}, false
		}
	}
	return sum, true
}

func (a *atom) subst(sub func(string) (Expr, bool)) (Expr, bool) {
	if a.kind == symbolAtom {
		if v, ok := sub(a.name); ok {
			return v, true
		}
		return fromAtom(a), true
	}
	n, ok1 := a.num.Subst(sub)
	d, ok2 := a.den.Subst(sub)
	if !ok1 || !ok2 {
		return Expr{}, false
	}
	if a.kind == floorAtom {
		return FloorDiv(n, d)
	}
	return Quo(n, d)
}
