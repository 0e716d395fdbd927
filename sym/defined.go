package sym

// Where a comparison has a value: the divisors and exact quotients of its operands that its
// canonical form no longer holds, kept as conditions beside it (see defined).

import "slices"

// defined returns p, the canonical form of a comparison of the operands xs by op, where the
// comparison as stated has a value, and is false elsewhere as Eval finds it there: each divisor
// of xs that may be 0 (of a floor division, a remainder, an exact quotient, a negative power) and
// that p no longer divides by is kept not 0 ((H*W)//W == H is W != 0, min(4+T,T) >= -16/(4//T)
// is T in 1..4, not true), and each operand with a term that need not be an integer, which p
// no longer holds, is kept whole (N/2 != 3 is N % 2 == 0 && N != 6; not for an equation of it and
// an operand of integer terms, which says so). The divisors of guards, which the comparison as
// stated no longer holds (the parser's, see parser.guards), are kept not 0 as those of xs are.
// ok is false when that cannot be kept (see maxSize).
func defined(p Pred, op Op, guards []Expr, xs ...Expr) (Pred, bool) {
	if len(guards) == 0 && allTotal(xs) {
		return p, true
	}
	// The operands of atoms, which have a value only where they are whole (see Expr.operand), and
	// the exact quotients by sums, only where they divide, are kept where p no longer holds them:
	// the canonical H >= 3 || H/T >= 3 of max(H,H/T) >= 3 holds at H = 3, T = 4, where H/T has
	// no value, and takes H % T == 0 beside it.
	whole := keeps(p, fractionalExpr)
	var gs []Pred
	for _, n := range needs(guards, operandsOf(xs)) {
		if n.kind == needWhole && n.at < len(xs) {
			if whole || op == OpEq && len(xs) == 2 && xs[1-n.at].integral() && !slices.ContainsFunc(n.x.t, negativePower) {
				continue
			}
		} else if keeps(p, n.heldBy) {
			continue
		}
		c, ok := n.condition()
		if !ok {
			return Pred{}, false
		}
		gs = append(gs, c)
	}
	if len(gs) == 0 {
		return p, true
	}
	return And(append(gs, p)...), true
}

// allTotal reports whether each expression of xs has a value at every binding (Expr.total: no
// divisor but positive integers, no fraction), the case of most comparisons, which need nothing
// kept beside them.
func allTotal(xs []Expr) bool {
	return !slices.ContainsFunc(xs, func(x Expr) bool { return !x.total() })
}

// quotientsOf returns the exact quotients by sums in the expressions ops, operands as operandsOf
// gives them.
func quotientsOf(ops []Expr) []*atom {
	var out []*atom
	for _, x := range ops {
		for _, t := range x.t {
			for _, f := range t.m {
				if isQuotient(f) {
					out = append(out, f.a)
				}
			}
		}
	}
	return out
}

// zeroFactors returns the factors of the divisor f that the bounds of their symbols do not prove
// non-zero (nonZero), whose every one is 0 where f is: each atom of a single term (W and H of
// 2*W*H), or f itself, a sum.
func zeroFactors(f Expr) []Expr {
	if len(f.t) != 1 {
		if nonZero(f) {
			return nil
		}
		return []Expr{f}
	}
	var out []Expr
	for _, x := range f.t[0].m {
		if g := fromAtom(x.a); x.e > 0 && !nonZero(g) {
			out = append(out, g)
		}
	}
	return out
}

// cancelled returns the factors of the divisor f (zeroFactors) that may be 0 and that r, the floor
// division, remainder or exact quotient of some operand by f, no longer divides by: (189*W-189) %
// (W-1) is 0, which has a value at W = 1 where the remainder has none, and N/(T*N) is 1/T, which
// has one at N = 0; a comparison of r keeps them not 0.
func cancelled(r, f Expr) []Expr {
	var out []Expr
	for _, g := range zeroFactors(f) {
		if !dividesBy(r, g) {
			out = append(out, g)
		}
	}
	return out
}

// partial reports whether a comparison of p may have no value at some binding its symbols'
// bounds allow: a divisor that may be 0, an operand with a term that need not be an integer, an
// exact quotient by a sum; but not one in a conjunction whose other terms keep each of its
// divisors not 0 (H >= 3 && H*W % (H//3) == 0).
func partial(p Pred) bool {
	switch p.kind() {
	case pConst:
		return false
	case pOr:
		return slices.ContainsFunc(p.n.args, partial)
	case pAnd:
		for _, a := range p.n.args {
			if partial(a) && !keptNonZero(a, p.n.args) {
				return true
			}
		}
		return false
	}
	if total(p) {
		return false
	}
	ops := operandsOf(operands(p))
	return len(divisorsOf(ops)) > 0 || fractionIn(ops)
}

// keptNonZero reports whether c is a comparison that may have no value only where a divisor is
// 0, and some other term of args implies each such divisor not 0.
func keptNonZero(c Pred, args []Pred) bool {
	if c.kind() != pCmp {
		return false
	}
	ops := operandsOf(operands(c))
	if fractionIn(ops) {
		return false
	}
	for _, g := range divisorsOf(ops) {
		ne := Ne(g, Expr{})
		if !slices.ContainsFunc(args, func(o Pred) bool { return !o.Equal(c) && implies(o, ne) }) {
			return false
		}
	}
	return true
}

// operands returns the expressions of the comparison c: its difference, or its sides as stated.
func operands(c Pred) []Expr {
	if c.n.raw {
		return []Expr{c.n.e, c.n.rhs}
	}
	return []Expr{c.n.e}
}

// isQuotient reports whether f is a power of an exact quotient by a sum.
func isQuotient(f factor) bool { return f.a.kind == quotAtom }

// fractionIn reports whether an expression of ops, operands as operandsOf gives them, has a term
// that need not be an integer or an exact quotient by a sum.
func fractionIn(ops []Expr) bool {
	return slices.ContainsFunc(ops, func(x Expr) bool {
		return slices.ContainsFunc(x.t, func(t term) bool {
			return fractional(t) || slices.ContainsFunc(t.m, isQuotient)
		})
	})
}

// negativePower reports whether t has an atom to a negative power.
func negativePower(t term) bool { return !integerValued(t.m) }

// fractionalExpr reports whether e has a term with an atom to a negative power, which Eval finds
// not an integer where it does not divide.
func fractionalExpr(e Expr) bool { return slices.ContainsFunc(e.t, negativePower) }

// keeps reports whether p has no value, and is false, wherever one of its expressions has the
// property has: a comparison of such an expression, or kept as stated (of the operands as given),
// a conjunction with such a term, a disjunction of such terms; false, which holds nowhere.
func keeps(p Pred, has func(Expr) bool) bool {
	switch p.kind() {
	case pConst:
		return !p.IsTrue()
	case pCmp:
		return p.n.raw || has(p.n.e)
	case pAnd:
		return slices.ContainsFunc(p.n.args, func(a Pred) bool { return keeps(a, has) })
	}
	return !slices.ContainsFunc(p.n.args, func(a Pred) bool { return !keeps(a, has) })
}

// divisorsOf returns the divisors in the expressions ops, operands as operandsOf gives them, that
// the bounds of their symbols do not prove non-zero, as zeroFactors gives them: of the divisor of
// a floor division, a remainder or an exact quotient, and an atom to a negative power.
func divisorsOf(ops []Expr) []Expr {
	var out []Expr
	for _, x := range ops {
		for _, t := range x.t {
			for _, f := range t.m {
				if f.e < 0 {
					out = append(out, zeroFactors(fromAtom(f.a))...)
				}
				switch f.a.kind {
				case symbolAtom, minAtom, maxAtom, floatAtom:
				default:
					out = append(out, zeroFactors(f.a.den)...)
				}
			}
		}
	}
	return out
}

// integerOf returns the condition that x is an integer: its terms that need not be one, times
// their common denominator (the least common multiple of their coefficients' denominators, times
// each atom to its deepest negative power), are a multiple of it (Divisible), the content that a
// constant denominator does not share left out (2*H/3 is an integer when H % 3 == 0). ok is
// false when that cannot be kept (see maxSize).
func integerOf(x Expr) (Pred, bool) {
	x = Expr{t: slices.DeleteFunc(slices.Clone(x.t), func(t term) bool { return !fractional(t) })}
	if len(x.t) == 0 {
		return True(), true
	}
	if x.t[0].c.num < 0 {
		var ok bool
		if x, ok = Neg(x); !ok {
			return Pred{}, false
		}
	}
	l, ok := denominatorOf(x.t)
	if !ok {
		return Pred{}, false
	}
	deep := negativePowers(x.t)
	num, ok := Mul(x, Int(l))
	if !ok {
		return Pred{}, false
	}
	if len(deep) == 0 && num.integral() {
		// c*y is a multiple of l where y is one of l/gcd(c, l).
		c := commonContent(num, num)
		if num, ok = scale(num, rat{1, c}); !ok {
			return Pred{}, false
		}
		return Divisible(num, Int(l/int64(gcd(uint64(c), uint64(l)))))
	}
	den := Int(l)
	for _, d := range deep {
		for range d.e {
			if num, ok = Mul(num, fromAtom(d.a)); !ok {
				return Pred{}, false
			}
			if den, ok = Mul(den, fromAtom(d.a)); !ok {
				return Pred{}, false
			}
		}
	}
	return Divisible(num, den)
}

// Complement returns the predicate that holds exactly where p does not: where Not(p) holds, and
// where a comparison of p has no value (a divisor 0, an exact quotient or an operand that does
// not divide), at which p and Not(p) are both false (see Pred.Eval). H % (W-1) == 0 has the
// complement W == 1 || H % (W-1) != 0, and H/W >= 2 the complement W == 0 || H % W != 0 ||
// H/W <= 1. Conditions imply p exactly when they and Complement(p) hold together at no binding,
// which Not(p) does not tell for a p that may have no value: W <= 2 and H % (W-1) != 0 hold at
// no binding, but W <= 2 does not imply H % (W-1) == 0, false at W = 1. Where that cannot be
// kept (see maxSize), the complement is true, which no condition implies.
func Complement(p Pred) Pred {
	switch p.kind() {
	case pConst:
		return Not(p)
	case pAnd, pOr:
		args := make([]Pred, len(p.n.args))
		for i, a := range p.n.args {
			args[i] = Complement(a)
		}
		if p.n.kind == pAnd {
			return Or(args...)
		}
		return And(args...)
	}
	args := []Pred{Not(p)}
	if total(p) {
		return args[0]
	}
	// A divisor is 0, an operand is not whole, or an exact quotient by a sum does not divide.
	for _, n := range needs(nil, operandsOf(operands(p))) {
		if n.kind == needNonZero {
			args = append(args, Eq(n.x, Expr{}))
			continue
		}
		c, ok := n.condition()
		if !ok {
			return True()
		}
		args = append(args, Complement(c))
	}
	return Or(args...)
}

// need is one thing a comparison needs to have a value (see needs).
type need struct {
	kind needKind
	x    Expr  // the divisor not 0, or the operand whole
	at   int   // the index of the operand whole in the operands
	q    *atom // the exact quotient by a sum that divides
}

// needKind is what a need asks.
type needKind int

const (
	needNonZero needKind = iota // a divisor not 0
	needWhole                   // an operand an integer
	needDivides                 // an exact quotient by a sum divides
)

// needs returns what a comparison of the operands ops (as operandsOf gives them) needs to have a
// value, as defined keeps it and Complement denies it: each divisor of guards and of ops that may
// be 0 (divisorsOf) not 0, each operand with a term that need not be an integer whole, and each
// exact quotient by a sum dividing, in that order.
func needs(guards, ops []Expr) []need {
	var out []need
	for _, g := range slices.Concat(guards, divisorsOf(ops)) {
		out = append(out, need{kind: needNonZero, x: g})
	}
	for i, x := range ops {
		if slices.ContainsFunc(x.t, fractional) {
			out = append(out, need{kind: needWhole, x: x, at: i})
		}
	}
	for _, a := range quotientsOf(ops) {
		out = append(out, need{kind: needDivides, q: a})
	}
	return out
}

// heldBy reports whether e holds what n is of, so that a comparison of e keeps n: a division by
// the divisor (dividesBy), the operand as an atom's operand, the exact quotient.
func (n need) heldBy(e Expr) bool {
	switch n.kind {
	case needNonZero:
		return dividesBy(e, n.x)
	case needWhole:
		return slices.ContainsFunc(operandsOf([]Expr{e})[1:], n.x.Equal)
	}
	return containsAtom(quotientsOf(operandsOf([]Expr{e})), n.q)
}

// condition returns the condition n asks: the divisor not 0, the operand whole (integerOf), the
// quotient dividing (Divisible); ok is false when it cannot be kept (see maxSize).
func (n need) condition() (Pred, bool) {
	switch n.kind {
	case needNonZero:
		return Ne(n.x, Expr{}), true
	case needWhole:
		return integerOf(n.x)
	}
	return Divisible(n.q.num, n.q.den)
}

// operandsOf returns the expressions xs and the operands of their atoms, and theirs, each of which
// has a value only where it is an integer.
func operandsOf(xs []Expr) []Expr {
	out := slices.Clone(xs)
	for i := 0; i < len(out); i++ {
		for _, t := range out[i].t {
			for _, f := range t.m {
				switch a := f.a; a.kind {
				case symbolAtom:
				case minAtom, maxAtom, floatAtom:
					out = append(out, a.args...)
				default:
					out = append(out, a.num, a.den)
				}
			}
		}
	}
	return out
}
