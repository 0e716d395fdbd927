package sym

// Where a comparison of a polynomial of one symbol holds (see narrowing): 6*k*k+4 <= 10*k-1 at no
// integer k, H*H <= 401 at H up to 20. The values of the symbol split into pieces on which the
// polynomial does not decrease, or does not increase, and on each such piece the values where the
// comparison holds are an interval, which a binary search over int64 finds exactly.

import (
	"math"
	"math/big"
)

// polyBounds returns the least and greatest value in [lo, hi] (bounds of x, by name) at which l
// compares to b.v as b says (lower: l >= v, upper: l <= v, equal), for l a polynomial of degree 2
// or more in the one symbol x, with integer coefficients; from > to when no value does. ok is
// false for another l or comparison, or a polynomial of degree past 2 that is not monotone from
// lo nor up to hi (see pieces). The bounds are exact: values at which the comparison holds.
func polyBounds(l Expr, b bound, bounds func(x string) (lo, hi xint)) (x string, from, to xint, ok bool) {
	if b.kind == other {
		return "", xint{}, xint{}, false
	}
	s, c, ok := univariate(l)
	if !ok || len(c) < 3 {
		return "", xint{}, xint{}, false
	}
	x = s.name
	lo, hi := bounds(x)
	c[0].Sub(c[0], big.NewInt(b.v)) // l - v: at least 0, at most 0, or 0
	a, z := int64(math.MinInt64), int64(math.MaxInt64)
	if lo.inf > 0 || hi.inf < 0 {
		return x, plusInf, minusInf, true
	}
	if lo.inf == 0 {
		a = lo.v
	}
	if hi.inf == 0 {
		z = hi.v
	}
	if a > z {
		return x, plusInf, minusInf, true
	}
	ps, ok := pieces(c, a, z)
	if !ok {
		return "", xint{}, xint{}, false
	}
	from, to = plusInf, minusInf
	for _, p := range ps {
		s, e, ok := p.where(c, b.kind)
		if !ok {
			continue
		}
		from, to = minX(from, fromInt64(s, true)), maxX(to, fromInt64(e, false))
	}
	return x, from, to, true
}

// fromInt64 returns v as a bound: the end of int64 is no bound (see NegInf and Inf).
func fromInt64(v int64, lower bool) xint {
	switch {
	case lower && v == math.MinInt64:
		return minusInf
	case !lower && v == math.MaxInt64:
		return plusInf
	}
	return fin(v)
}

// univariate returns the symbol of l and l's coefficients, c[i] that of x^i, when l is a
// polynomial with integer coefficients in the one symbol x.
func univariate(l Expr) (*atom, []*big.Int, bool) {
	var x *atom
	deg := 0
	for _, t := range l.t {
		if !t.c.isInt() || len(t.m) > 1 {
			return nil, nil, false
		}
		if len(t.m) == 1 {
			f := t.m[0]
			if f.a.kind != symbolAtom || f.e < 1 || x != nil && f.a.name != x.name {
				return nil, nil, false
			}
			x, deg = f.a, max(deg, f.e)
		}
	}
	if x == nil {
		return nil, nil, false
	}
	c := make([]*big.Int, deg+1)
	for i := range c {
		c[i] = new(big.Int)
	}
	for _, t := range l.t {
		i := 0
		if len(t.m) == 1 {
			i = t.m[0].e
		}
		c[i].Add(c[i], big.NewInt(t.c.num))
	}
	return x, c, true
}

// piece is an interval [a, z] of values on which a polynomial does not decrease (up) or does not
// increase.
type piece struct {
	a, z int64
	up   bool
}

// pieces returns [a, z] as pieces on which the polynomial of coefficients c is monotone: of degree
// 2, the values up to its vertex and those from it; of a greater degree, all of [a, z] where the
// polynomial shifted to a finite end has coefficients of one sign (a sufficient test), else the
// values below 0 and those from it where the test at 0 holds for each; ok is false when the tests
// fail.
func pieces(c []*big.Int, a, z int64) ([]piece, bool) {
	if len(c) == 3 {
		// a2*x^2 + a1*x + a0 turns at -a1/(2*a2).
		two := new(big.Int).Lsh(c[2], 1)
		num := new(big.Int).Neg(c[1])
		lo, hi := new(big.Int), new(big.Int)
		lo.Div(num, two) // Euclidean: the floor for a positive divisor
		if two.Sign() < 0 {
			lo.Neg(num).Div(lo, new(big.Int).Neg(two))
		}
		hi.Set(lo)
		if new(big.Int).Mul(lo, two).Cmp(num) != 0 {
			hi.Add(hi, big.NewInt(1))
		}
		down := c[2].Sign() > 0 // decreasing up to the vertex
		var out []piece
		if v := clamp(lo); a <= v {
			out = append(out, piece{a, min(v, z), !down})
		}
		if v := clamp(hi); v <= z {
			out = append(out, piece{max(v, a), z, down})
		}
		return out, true
	}
	if a != math.MinInt64 {
		if s := shiftSign(c, a, 1); s != 0 {
			return []piece{{a, z, s > 0}}, true
		}
	}
	if z != math.MaxInt64 {
		// p(z - y) of coefficients of one sign: as y grows, x falls.
		if s := shiftSign(c, z, -1); s != 0 {
			return []piece{{a, z, s < 0}}, true
		}
	}
	// The values below 0 and those from it, each monotone by the test at 0 (Z*Z*Z == -27 of a
	// symbol unbounded both ways).
	var out []piece
	if a < 0 {
		s := shiftSign(c, min(z, 0), -1)
		if s == 0 {
			return nil, false
		}
		out = append(out, piece{a, min(z, 0), s < 0})
	}
	if z >= 0 {
		s := shiftSign(c, max(a, 0), 1)
		if s == 0 {
			return nil, false
		}
		out = append(out, piece{max(a, 0), z, s > 0})
	}
	return out, true
}

// clamp returns v within int64.
func clamp(v *big.Int) int64 {
	switch {
	case v.IsInt64():
		return v.Int64()
	case v.Sign() < 0:
		return math.MinInt64
	}
	return math.MaxInt64
}

// shiftSign returns 1 when the polynomial of coefficients c, of x = s + d*y, has every
// coefficient in y (past the constant) at least 0 and one above, -1 when every one is at most 0
// and one below, and 0 otherwise.
func shiftSign(c []*big.Int, s, d int64) int {
	// Horner's scheme on polynomials in y: q = q*(s + d*y) + c[i].
	q := []*big.Int{new(big.Int)}
	bs, bd := big.NewInt(s), big.NewInt(d)
	for i := len(c) - 1; i >= 0; i-- {
		next := make([]*big.Int, len(q)+1)
		for k := range next {
			next[k] = new(big.Int)
		}
		for k, v := range q {
			next[k].Add(next[k], new(big.Int).Mul(v, bs))
			next[k+1].Add(next[k+1], new(big.Int).Mul(v, bd))
		}
		next[0].Add(next[0], c[i])
		q = next
	}
	sign := 0
	for _, v := range q[1:] {
		switch s := v.Sign(); {
		case s == 0:
		case sign == 0:
			sign = s
		case s != sign:
			return 0
		}
	}
	return sign
}

// where returns the values of the piece at which the polynomial of coefficients c is at least 0
// (lower), at most 0 (upper) or 0 (equal): an interval, [s, e]; ok is false when it holds at none.
func (p piece) where(c []*big.Int, kind boundKind) (s, e int64, ok bool) {
	s, e = p.a, p.z
	if kind != upper { // at least 0: from the first value so, or up to the last
		if p.up {
			s, ok = p.first(c, func(v int) bool { return v >= 0 })
		} else {
			e, ok = p.last(c, func(v int) bool { return v >= 0 })
		}
		if !ok {
			return 0, 0, false
		}
	}
	if kind != lower { // at most 0
		if p.up {
			e, ok = piece{s, e, true}.last(c, func(v int) bool { return v <= 0 })
		} else {
			s, ok = piece{s, e, false}.first(c, func(v int) bool { return v <= 0 })
		}
		if !ok {
			return 0, 0, false
		}
	}
	return s, e, s <= e
}

// first returns the least value of the piece at which f holds of the sign of the polynomial,
// where f holds from some value on; ok is false when it holds at none.
func (p piece) first(c []*big.Int, f func(int) bool) (int64, bool) {
	if !f(evalSign(c, p.z)) {
		return 0, false
	}
	lo, hi := p.a, p.z // f holds at hi
	for lo < hi {
		mid := lo + int64((uint64(hi)-uint64(lo))/2)
		if f(evalSign(c, mid)) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return hi, true
}

// last returns the greatest value of the piece at which f holds of the sign of the polynomial,
// where f holds up to some value; ok is false when it holds at none.
func (p piece) last(c []*big.Int, f func(int) bool) (int64, bool) {
	if !f(evalSign(c, p.a)) {
		return 0, false
	}
	lo, hi := p.a, p.z // f holds at lo
	for lo < hi {
		mid := hi - int64((uint64(hi)-uint64(lo))/2)
		if f(evalSign(c, mid)) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, true
}

// evalSign returns the sign of the polynomial of coefficients c at x.
func evalSign(c []*big.Int, x int64) int {
	v, bx := new(big.Int), big.NewInt(x)
	for i := len(c) - 1; i >= 0; i-- {
		v.Mul(v, bx).Add(v, c[i])
	}
	return v.Sign()
}

// rootX returns the e-th root of v >= 0, rounded up (ceil) or down: the least r >= 0 with r^e >= v,
// or the greatest with r^e <= v; +∞ for +∞.
func rootX(v xint, e int, ceil bool) xint {
	if v.inf != 0 || e == 1 {
		return v
	}
	bv := big.NewInt(v.v)
	at := func(r int64) int { // the sign of r^e - v
		p := new(big.Int).Exp(big.NewInt(r), big.NewInt(int64(e)), nil)
		return p.Cmp(bv)
	}
	// The least r with r^e >= v, in [0, v] (v >= 1) by bisection.
	lo, hi := int64(0), max(v.v, 1)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if at(mid) >= 0 {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if !ceil && at(lo) > 0 {
		lo--
	}
	return fin(lo)
}
