package sym

// Where a condition of one symbol whose comparisons are quasi-polynomial in it may change its
// value (see polyPoints): along each residue class of a period L, x = r+L*k, each floor division,
// remainder, minimum and maximum of polynomials is a polynomial in k between the points where the
// arguments of a minimum or maximum change order, and a polynomial of degree d changes sign at
// most d times, at points found exactly with integer arithmetic (signPoints).

import (
	"maps"
	"math/big"
	"slices"
)

// The bounds of polyPoints: the degree of a polynomial it follows, and the polynomials it finds
// the sign changes of, residues and pieces together.
const (
	maxPolyDegree = 8
	polySteps     = 1 << 12
)

// polyPoints returns, for p, a condition of the symbol x alone, from lo on, a period per and the
// points bs, lo the first, sorted, from each of which p keeps its value along each residue modulo
// per up to the next (see affineSet): the points where the polynomial in k, x = v0+per*k, of a
// comparison of p, or of the difference of two arguments of a minimum or maximum of p, changes
// sign. ok is false where p has a coefficient that is not an integer, an atom other than x, floor
// divisions, remainders, minima and maxima (of positive integer divisors, and integral
// numerators), a power past maxPolyDegree, a period past maxSplit, or where the search passes
// polySteps.
func polyPoints(p Pred, x *atom, lo int64) (bs []int64, per int64, ok bool) {
	cmps, ok := comparisons(p)
	if !ok {
		return nil, 0, false
	}
	per = 1
	for _, e := range cmps {
		m, fine := polyPeriod(e, x.name)
		if !fine {
			return nil, 0, false
		}
		if per = lcm(per, m); per > maxSplit {
			return nil, 0, false
		}
	}
	w := polyWalk{x: x.name, per: per, cmps: cmps, steps: polySteps}
	bs = []int64{lo}
	for i := range per {
		if i > Inf-lo {
			break
		}
		w.v0 = lo + i
		pts, fine := w.points(0, (Inf-w.v0)/per, map[string]int{})
		if !fine {
			return nil, 0, false
		}
		for _, k := range pts {
			bs = append(bs, w.v0+per*k)
		}
	}
	slices.Sort(bs)
	return slices.Compact(bs), per, true
}

// polyPeriod returns a period m of the floor divisions and remainders of e in the symbol x: the
// product of a divisor and the period of its numerator, of each, their least common multiple
// over e; ok is false for a divisor that is not a positive integer or a period past maxSplit.
func polyPeriod(e Expr, x string) (m int64, ok bool) {
	m = 1
	for _, t := range e.t {
		for _, f := range t.m {
			a := f.a
			var q int64 = 1
			switch a.kind {
			case symbolAtom:
			case floorAtom, modAtom:
				d, isConst := a.den.Const()
				n, fine := polyPeriod(a.num, x)
				if !isConst || d <= 0 || !fine {
					return 0, false
				}
				if q, fine = mul64(d, n); !fine {
					return 0, false
				}
			case minAtom, maxAtom:
				for _, y := range a.args {
					n, fine := polyPeriod(y, x)
					if !fine {
						return 0, false
					}
					q = lcm(q, n)
				}
			default:
				return 0, false
			}
			if m = lcm(m, q); m > maxSplit {
				return 0, false
			}
		}
	}
	return m, true
}

// polyWalk follows the comparisons cmps along the residue v0 modulo per of the symbol x.
type polyWalk struct {
	x       string
	per, v0 int64
	cmps    []Expr
	steps   int
}

// points returns the k in (ka, kz] at which a comparison's polynomial in k, x = v0+per*k, or a
// minimum's or maximum's order of its arguments, may differ from what it is at k-1, where each
// minimum and maximum of chosen is the argument of that index (by key); ok is false where an
// expression is no polynomial (see poly) or the steps are spent.
func (w *polyWalk) points(ka, kz int64, chosen map[string]int) ([]int64, bool) {
	if w.steps--; w.steps < 0 {
		return nil, false
	}
	// The first minimum or maximum not chosen whose arguments are polynomials: split there.
	var ext *atom
	var args [][]*big.Rat
	for _, e := range w.cmps {
		e.walkAtoms(func(a *atom) {
			if ext != nil || a.kind != minAtom && a.kind != maxAtom {
				return
			}
			if _, ok := chosen[a.key]; ok {
				return
			}
			var ps [][]*big.Rat
			for _, y := range a.args {
				q, ok := w.poly(y, chosen)
				if !ok {
					return
				}
				ps = append(ps, q)
			}
			ext, args = a, ps
		})
	}
	if ext == nil {
		var out []int64
		for _, e := range w.cmps {
			q, ok := w.poly(e, chosen)
			if !ok {
				return nil, false
			}
			pts, ok := signPoints(integral(q), ka, kz)
			if !ok {
				return nil, false
			}
			out = append(out, pts...)
		}
		return out, true
	}
	// The points where two arguments change order: between them each keeps its place.
	cuts := []int64{ka}
	for i := range args {
		for j := range i {
			pts, ok := signPoints(integral(polySub(args[i], args[j])), ka, kz)
			if !ok {
				return nil, false
			}
			cuts = append(cuts, pts...)
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var out []int64
	for c, s := range cuts {
		e := kz
		if c+1 < len(cuts) {
			e = cuts[c+1] - 1
		}
		best := 0
		for i := range args {
			d := polyAt(args[i], s).Cmp(polyAt(args[best], s))
			if ext.kind == minAtom && d < 0 || ext.kind == maxAtom && d > 0 {
				best = i
			}
		}
		next := maps.Clone(chosen)
		next[ext.key] = best
		pts, ok := w.points(s, e, next)
		if !ok {
			return nil, false
		}
		if c > 0 {
			out = append(out, s)
		}
		out = append(out, pts...)
	}
	return out, true
}

// poly returns e as a polynomial in k (coefficients of k^0, k^1, ...), x = v0+per*k, where each
// minimum and maximum of chosen is its argument of that index; ok is false for a coefficient that
// is not an integer, another atom, a minimum or maximum not chosen, a power past maxPolyDegree, and
// a floor division or remainder whose numerator is not an integer at every k or whose remainder is
// not one constant along k (a period per that does not fit it).
func (w *polyWalk) poly(e Expr, chosen map[string]int) ([]*big.Rat, bool) {
	sum := []*big.Rat{new(big.Rat)}
	for _, t := range e.t {
		if !t.c.isInt() { // an exact quotient, which has no value at some k
			return nil, false
		}
		q := []*big.Rat{new(big.Rat).SetInt64(t.c.num)}
		for _, f := range t.m {
			if f.e < 1 || f.e > maxPolyDegree {
				return nil, false
			}
			a, ok := w.atomPoly(f.a, chosen)
			if !ok {
				return nil, false
			}
			for range f.e {
				if q = polyMul(q, a); len(q) > maxPolyDegree+1 {
					return nil, false
				}
			}
		}
		sum = polyAdd(sum, q)
	}
	return trimPoly(sum), true
}

// atomPoly returns the atom a as a polynomial in k (see poly).
func (w *polyWalk) atomPoly(a *atom, chosen map[string]int) ([]*big.Rat, bool) {
	switch a.kind {
	case symbolAtom:
		if a.name != w.x {
			return nil, false
		}
		return []*big.Rat{new(big.Rat).SetInt64(w.v0), new(big.Rat).SetInt64(w.per)}, true
	case minAtom, maxAtom:
		i, ok := chosen[a.key]
		if !ok {
			return nil, false
		}
		return w.poly(a.args[i], chosen)
	case floorAtom, modAtom:
		d, ok := a.den.Const()
		if !ok || d <= 0 {
			return nil, false
		}
		n, ok := w.poly(a.num, chosen)
		if !ok || !multiplesAt(n, big.NewInt(1)) {
			return nil, false
		}
		// num = d*q + c along k, c = num(0) mod d, q an integral polynomial: floor is q, the
		// remainder c.
		n0 := polyAt(n, 0)
		c := new(big.Int).Mod(n0.Num(), big.NewInt(d)) // n0 is an integer: multiplesAt
		q := polySub(n, []*big.Rat{new(big.Rat).SetInt(c)})
		if !multiplesAt(q, big.NewInt(d)) {
			return nil, false
		}
		if a.kind == modAtom {
			return []*big.Rat{new(big.Rat).SetInt(c)}, true
		}
		inv := new(big.Rat).SetFrac64(1, d)
		for _, v := range q {
			v.Mul(v, inv)
		}
		return trimPoly(q), true
	}
	return nil, false
}

// multiplesAt reports whether the polynomial q takes values that are multiples of m at every
// integer k: at deg+1 consecutive integers, which makes it so at all (its forward differences).
func multiplesAt(q []*big.Rat, m *big.Int) bool {
	for k := range int64(len(q)) {
		v := polyAt(q, k)
		if !v.IsInt() || new(big.Int).Mod(v.Num(), m).Sign() != 0 {
			return false
		}
	}
	return true
}

// polyAt returns the value of q at k.
func polyAt(q []*big.Rat, k int64) *big.Rat {
	v, bk := new(big.Rat), new(big.Rat).SetInt64(k)
	for i := len(q) - 1; i >= 0; i-- {
		v.Mul(v, bk).Add(v, q[i])
	}
	return v
}

// polyAdd returns a+b.
func polyAdd(a, b []*big.Rat) []*big.Rat {
	out := make([]*big.Rat, max(len(a), len(b)))
	for i := range out {
		out[i] = new(big.Rat)
		if i < len(a) {
			out[i].Add(out[i], a[i])
		}
		if i < len(b) {
			out[i].Add(out[i], b[i])
		}
	}
	return out
}

// polySub returns a-b.
func polySub(a, b []*big.Rat) []*big.Rat {
	neg := make([]*big.Rat, len(b))
	for i, v := range b {
		neg[i] = new(big.Rat).Neg(v)
	}
	return polyAdd(a, neg)
}

// polyMul returns a*b.
func polyMul(a, b []*big.Rat) []*big.Rat {
	out := make([]*big.Rat, len(a)+len(b)-1)
	for i := range out {
		out[i] = new(big.Rat)
	}
	for i, u := range a {
		for j, v := range b {
			out[i+j].Add(out[i+j], new(big.Rat).Mul(u, v))
		}
	}
	return out
}

// trimPoly returns q without its zero coefficients of the highest degrees (one at least).
func trimPoly(q []*big.Rat) []*big.Rat {
	for len(q) > 1 && q[len(q)-1].Sign() == 0 {
		q = q[:len(q)-1]
	}
	return q
}

// integral returns q times the least common multiple of its denominators: integer coefficients,
// of the same sign as q at every k.
func integral(q []*big.Rat) []*big.Int {
	l := big.NewInt(1)
	for _, v := range q {
		g := new(big.Int).GCD(nil, nil, l, v.Denom())
		l.Mul(l, new(big.Int).Quo(v.Denom(), g))
	}
	out := make([]*big.Int, len(q))
	for i, v := range q {
		out[i] = new(big.Int).Mul(v.Num(), new(big.Int).Quo(l, v.Denom()))
	}
	return out
}

// signPoints returns the k in (a, z] at which the sign of the polynomial of integer coefficients
// c differs from its sign at k-1, sorted: the polynomial is monotone (on the integers) wherever
// its forward difference P(k+1)-P(k), of a degree less, keeps its sign, which the points of that
// difference delimit, and within each such stretch it changes sign at most twice (to 0, past
// it), where a binary search finds it. ok is false past maxPolyDegree.
func signPoints(c []*big.Int, a, z int64) ([]int64, bool) {
	for len(c) > 1 && c[len(c)-1].Sign() == 0 {
		c = c[:len(c)-1]
	}
	switch {
	case len(c) > maxPolyDegree+1:
		return nil, false
	case len(c) <= 1 || a >= z:
		return nil, true
	}
	d := forwardDiff(c)
	turns, ok := signPoints(d, a, z)
	if !ok {
		return nil, false
	}
	starts := append([]int64{a}, turns...)
	var out []int64
	for i, s := range starts {
		e := z // monotone on [s, e]: the difference keeps its sign on [s, e-1]
		if i+1 < len(starts) {
			e = starts[i+1]
		}
		dir := evalSign(d, s)
		if dir == 0 {
			continue
		}
		// The first value at which the sign reaches 0, then passes it, in the direction dir.
		for _, reach := range []func(int) bool{
			func(v int) bool { return v*dir >= 0 },
			func(v int) bool { return v*dir > 0 },
		} {
			if k, ok := (piece{s, e, true}).first(c, reach); ok && k > s {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out), true
}

// forwardDiff returns the coefficients of P(k+1)-P(k), of P of coefficients c.
func forwardDiff(c []*big.Int) []*big.Int {
	out := make([]*big.Int, len(c)-1)
	for j := range out {
		out[j] = new(big.Int)
		for i := j + 1; i < len(c); i++ {
			out[j].Add(out[j], new(big.Int).Mul(c[i], new(big.Int).Binomial(int64(i), int64(j))))
		}
	}
	return out
}
