package sym

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// Mod returns e mod f with the sign of f (Python's %, ONNX Mod with fmod=0 on integers), printed
// e % f. When f is a non-zero integer n it keeps one canonical form: the terms of e whose
// coefficients are multiples of n leave the remainder, the others' coefficients are reduced modulo
// n (into [0, n) for n > 0), a remainder c·(x % m) inside is c·x when n divides c·m, and a common
// factor of the coefficients and n comes out: (4*T) % 16 is 4*(T % 4), (T+5) % 4 is (T+1) % 4,
// (T % 8) % 4 is T % 4. A remainder whose bounds already lie in [0, n) is itself: (T % 4) % 8 is
// T % 4. A divisor that divides every term of e exactly gives 0: (N*T) % T is 0, and so does one
// of which e is a multiple: (9*A*B+9*C) % (A*B+C) is 0. ok is false when f
// is 0 or the result cannot be kept (see maxSize).
func Mod(e, f Expr) (Expr, bool) {
	if len(f.t) == 0 {
		return Expr{}, false
	}
	if q, ok := f.Const(); ok {
		if q > 0 {
			return modByConst(e, q)
		}
		// e % -n = -((-e) % n)
		ne, ok := Neg(e)
		if !ok || q == math.MinInt64 {
			return Expr{}, false
		}
		r, ok := modByConst(ne, -q)
		if !ok {
			return Expr{}, false
		}
		return Neg(r)
	}
	if _, ok := f.constRat(); ok {
		return modByFloor(e, f)
	}
	if len(f.t) == 1 && f.t[0].c.isInt() && f.t[0].c.num > 0 {
		if r, ok := Quo(e, f); ok && r.integral() {
			return Expr{}, true // f divides e: N*T % T
		}
	}
	if k, ok := ratio(e, f); ok {
		// e = k·f: the remainder e - f·floor(k) is (k - floor(k))·f.
		m := k.num % k.den
		if m < 0 {
			m += k.den
		}
		if m == 0 {
			return Expr{}, true
		}
		return scaleTerms(f, rat{m, k.den})
	}
	return compound(modAtom, e, f)
}

// modByFloor returns e - f·(e//f), the remainder by a divisor that is not an integer.
func modByFloor(e, f Expr) (Expr, bool) {
	q, ok := FloorDiv(e, f)
	if !ok {
		return Expr{}, false
	}
	fq, ok := Mul(f, q)
	if !ok {
		return Expr{}, false
	}
	return Sub(e, fq)
}

// pyMod returns a mod n for n > 0, in [0, n).
func pyMod(a, n int64) int64 {
	r := a % n
	if r < 0 {
		r += n
	}
	return r
}

// modByConst returns e % n for an integer n > 0.
func modByConst(e Expr, n int64) (Expr, bool) {
	if c, ok := e.Const(); ok {
		return Int(pyMod(c, n)), true
	}
	// A remainder c·(x % m) with n | c·m is congruent to c·x modulo n.
	var ts []term
	expanded := false
	for _, t := range e.t {
		if x, ok := modTerm(t); ok && t.c.isInt() && x.a.num.integral() {
			if cm, ok := mul64(t.c.num, x.m); ok && cm%n == 0 {
				cx, ok := scale(x.a.num, t.c)
				if !ok {
					return Expr{}, false
				}
				ts = append(ts, cx.t...)
				expanded = true
				continue
			}
		}
		ts = append(ts, t)
	}
	if expanded {
		var ok bool
		if e, ok = normalize(ts); !ok {
			return Expr{}, false
		}
	}
	var rest []term
	for _, t := range e.t {
		if !t.c.isInt() || !integerValued(t.m) {
			rest = append(rest, t)
			continue
		}
		if r := pyMod(t.c.num, n); r != 0 {
			rest = append(rest, term{ratInt(r), t.m})
		}
	}
	r, ok := normalize(rest)
	if !ok {
		return Expr{}, false
	}
	if c, ok := r.Const(); ok {
		return Int(pyMod(c, n)), true
	}
	if s, ok := residueOfProducts(r, n); ok {
		return modByConst(s, n)
	}
	// Coefficients reduced modulo n may make a remainder inside expand, as above: (x % 6) % 3 is
	// x % 3, which for x = 5*(N % 3) is 2*(N % 3) % 3, that is (2*N) % 3.
	for _, t := range r.t {
		if x, ok := modTerm(t); ok && t.c.isInt() && x.a.num.integral() {
			if cm, ok := mul64(t.c.num, x.m); ok && cm%n == 0 && !r.Equal(e) {
				return modByConst(r, n)
			}
		}
	}
	if b := r.ival(); b.lo.sign() >= 0 && cmpX(b.hi, fin(n)) < 0 {
		return r, true
	}
	if r.integral() {
		g := uint64(n)
		for _, t := range r.t {
			g = gcd(g, abs64(t.c.num))
		}
		if g > 1 {
			if int64(g) == n {
				return Expr{}, true
			}
			inner, ok := scale(r, rat{1, int64(g)})
			if !ok {
				return Expr{}, false
			}
			m, ok := modByConst(inner, n/int64(g))
			if !ok {
				return Expr{}, false
			}
			return scale(m, ratInt(int64(g)))
		}
	}
	return compound(modAtom, r, Int(n))
}

// Bounds of residueOfProducts: the atoms of the products it weighs, and the bindings of their
// remainders it tries.
const (
	maxResidueAtoms    = 3
	maxResidueBindings = 1 << 12
)

// residueOfProducts returns r with the terms of its products, and the terms of degree 1 of
// their atoms, replaced by the one remainder by n they take, where they take one whatever the
// values of their atoms: a product of k consecutive integers is a multiple of k! (T*T+T, that is
// T*(T+1), is even; T*(T+1)*(T+2) a multiple of 6; T*T*T-T of 6 too). The terms' sum P is a
// polynomial of those atoms with coefficients of common denominator D, so that D·P modulo n·D,
// and so P modulo n, depends only on the atoms' remainders by n·D: each binding of them is tried.
// ok is false where r has no product, they take several remainders, or there are too many
// bindings to try.
func residueOfProducts(r Expr, n int64) (Expr, bool) {
	var atoms [maxResidueAtoms]*atom
	k := 0
	// index returns the place of b among the atoms found so far, -1 where it is not.
	index := func(b *atom) int {
		return slices.IndexFunc(atoms[:k], func(a *atom) bool { return cmpAtom(a, b) == 0 })
	}
	for _, t := range r.t {
		if degree(t.m) < 2 {
			continue
		}
		for _, f := range t.m {
			if f.e < 0 {
				return Expr{}, false
			}
			if index(f.a) >= 0 {
				continue
			}
			if k == len(atoms) {
				return Expr{}, false
			}
			atoms[k] = f.a
			k++
		}
	}
	if k == 0 {
		return Expr{}, false
	}
	// P: the products and the terms of degree 1 of their atoms; the others stay.
	inP := func(t term) bool {
		return degree(t.m) >= 2 || len(t.m) == 1 && index(t.m[0].a) >= 0
	}
	d := int64(1)
	for _, t := range r.t {
		if inP(t) {
			d = lcm(d, t.c.den)
		}
	}
	m, ok := mul64(n, d)
	bindings := int64(1)
	for range k {
		if ok {
			bindings, ok = mul64(bindings, m)
		}
	}
	if !ok || bindings > maxResidueBindings {
		return Expr{}, false
	}
	// D·P's coefficients modulo m, and each term's exponent of each atom.
	type scaled struct {
		c int64
		e [maxResidueAtoms]int
	}
	var ts []scaled
	var rest []term
	for _, t := range r.t {
		if !inP(t) {
			rest = append(rest, t)
			continue
		}
		c, ok := mul64(t.c.num, d/t.c.den)
		if !ok {
			return Expr{}, false
		}
		s := scaled{c: pyMod(c, m)}
		for _, f := range t.m {
			s.e[index(f.a)] = f.e
		}
		ts = append(ts, s)
	}
	var x [maxResidueAtoms]int64 // the atoms' remainders, an odometer
	first := int64(-1)
	for {
		v := int64(0)
		for _, s := range ts {
			p := s.c
			for i := range k {
				for range s.e[i] {
					p = p * x[i] % m
				}
			}
			v = (v + p) % m
		}
		if first < 0 {
			first = v
		} else if v != first {
			return Expr{}, false
		}
		i := 0
		for ; i < k; i++ {
			if x[i]++; x[i] < m {
				break
			}
			x[i] = 0
		}
		if i == k {
			break
		}
	}
	// P is first/D plus a multiple of n.
	c, ok := makeRat(first, d)
	if !ok || first == 0 {
		return Expr{t: rest}, ok
	}
	return Add(Expr{t: rest}, Expr{t: []term{{c: c}}})
}

// modFactor is a remainder by a positive integer m standing alone in a term.
type modFactor struct {
	a *atom
	m int64
}

// modTerm returns the remainder atom of a term that is c·(x % m), m a positive integer.
func modTerm(t term) (modFactor, bool) {
	if len(t.m) != 1 || t.m[0].e != 1 || t.m[0].a.kind != modAtom {
		return modFactor{}, false
	}
	m, ok := t.m[0].a.den.Const()
	if !ok || m <= 0 {
		return modFactor{}, false
	}
	return modFactor{t.m[0].a, m}, true
}

// roundedUp returns e with a sum c·v + c·(y % m), where y ≡ r - v modulo m for an integer r (the
// remainder that pads v up to a multiple of m: torch's (7 - W % 7) % 7, which is 6*W % 7), written
// as the multiple it is, c·(m·((v-r+m-1)//m) + r), where that makes e smaller: W + 6*W % 7 is
// 7*((W+6)//7). v is made of the terms of e on the monomials of y, whatever else e holds, so that
// the form does not depend on the order of the additions that made e.
func roundedUp(e Expr) Expr {
	if len(e.t) < 2 {
		return e
	}
	for i, t := range e.t {
		x, ok := modTerm(t)
		if !ok || x.m < 2 || !t.c.isInt() || !x.a.num.integral() {
			continue
		}
		// v: the terms of e on y's monomials, over c; the others stay.
		var v, others []term
		for j, u := range e.t {
			switch {
			case j == i:
			case len(u.m) > 0 && slices.ContainsFunc(x.a.num.t, func(w term) bool { return cmpMono(w.m, u.m) == 0 }):
				v = append(v, u)
			default:
				others = append(others, u)
			}
		}
		if len(v) == 0 {
			continue
		}
		cv, ok := scale(Expr{t: v}, mustInv(t.c))
		if !ok || !cv.integral() {
			continue
		}
		r, ok := padded(cv, x)
		if !ok {
			continue
		}
		if r, ok = scale(r, t.c); !ok {
			continue
		}
		if out, ok := merge(append(slices.Clone(r.t), others...)); ok && out.Size() < e.Size() {
			return roundedUp(out)
		}
	}
	return e
}

// padded returns v + (y % m), for the remainder x of y by m, as m·((v-r+m-1)//m) + r when v + y
// is r modulo m for an integer r (each of its other coefficients divisible by m).
func padded(v Expr, x modFactor) (Expr, bool) {
	sum, ok := merge(append(slices.Clone(v.t), x.a.num.t...))
	if !ok {
		return Expr{}, false
	}
	vars, c := split(sum)
	for _, t := range vars.t {
		if !t.c.isInt() || t.c.num%x.m != 0 {
			return Expr{}, false
		}
	}
	r := pyMod(c, x.m)
	up, ok := Add(v, Int(x.m-1-r))
	if !ok {
		return Expr{}, false
	}
	q, ok := FloorDiv(up, Int(x.m))
	if !ok {
		return Expr{}, false
	}
	if q, ok = scale(q, ratInt(x.m)); !ok {
		return Expr{}, false
	}
	return Add(q, Int(r))
}

// Max returns the greater of e and f, printed max(e,f), in one canonical form: nested maxima
// flatten, an argument that another is known to be at least (from bounds, or max(A,B) >= A) is
// dropped, terms common to every argument come out, and so does a positive common factor of the
// coefficients, and a minus sign of every argument, which makes it a min: max(A,1) is A for a
// symbol A >= 1, max(A,A) is A, max(B,A) is max(A,B), max(A+1,B+1) is max(A,B)+1, max(2*A,2*B) is
// 2*max(A,B), max(-A,-B) is -min(A,B). ok is false when the result cannot be kept (see maxSize).
func Max(e, f Expr) (Expr, bool) { return extremum(maxAtom, e, f) }

// Min returns the lesser of e and f, printed min(e,f), in the canonical form of Max: min(A,1) is 1
// for a symbol A >= 1, min(A,B+A) is A for B >= 0.
func Min(e, f Expr) (Expr, bool) { return extremum(minAtom, e, f) }

func extremum(kind atomKind, e, f Expr) (Expr, bool) {
	return extremumOf(kind, []Expr{e, f})
}

// appendArgs appends to args the arguments x stands for in an extremum of kind: x itself, or
// when x is s + c·m for an extremum m of kind and c > 0 (or of the other kind and c < 0), each
// s + c·y for the arguments y of m, so that nested extrema flatten whichever way they were
// built: max(max(A,B)+1,C) is max(A+1,B+1,C).
func appendArgs(args []Expr, kind atomKind, x Expr) []Expr {
	for i, t := range x.t {
		a, ok := (Expr{t: []term{{c: ratInt(1), m: t.m}}}).lone()
		if !ok || !(a.kind == kind && t.c.num > 0 || a.kind == otherExtremum(kind) && t.c.num < 0) {
			continue
		}
		s := Expr{t: slices.Delete(slices.Clone(x.t), i, i+1)}
		leaves := make([]Expr, len(a.args))
		for k, y := range a.args {
			cy, ok := scale(y, t.c)
			if ok {
				leaves[k], ok = Add(s, cy)
			}
			if !ok {
				return append(args, x)
			}
		}
		for _, y := range leaves {
			args = appendArgs(args, kind, y)
		}
		return args
	}
	return append(args, x)
}

func otherExtremum(kind atomKind) atomKind {
	switch kind {
	case minAtom:
		return maxAtom
	case maxAtom:
		return minAtom
	}
	return kind
}

// lone returns the atom e is, when e is one atom with coefficient 1.
func (e Expr) lone() (*atom, bool) {
	if len(e.t) != 1 || e.t[0].c != ratInt(1) || len(e.t[0].m) != 1 || e.t[0].m[0].e != 1 {
		return nil, false
	}
	return e.t[0].m[0].a, true
}

func extremumOf(kind atomKind, args []Expr) (Expr, bool) {
	var flat []Expr
	for _, x := range args {
		flat = appendArgs(flat, kind, x)
	}
	args = flat
	slices.SortFunc(args, cmpExpr)
	args = slices.CompactFunc(args, Expr.Equal)
	dropped := make([]bool, len(args))
	for i := range args {
		for j := range args {
			if j == i || dropped[j] {
				continue
			}
			// max drops an argument another is at least; min one another is at most.
			if kind == maxAtom && le(args[i], args[j]) || kind == minAtom && le(args[j], args[i]) {
				dropped[i] = true
				break
			}
		}
	}
	kept := args[:0]
	for i, x := range args {
		if !dropped[i] {
			kept = append(kept, x)
		}
	}
	if len(kept) == 1 {
		return kept[0], true
	}
	// Terms common to every argument come out: max(A+1,B+1) = max(A,B)+1.
	var common []term
	for _, t := range kept[0].t {
		if !slices.ContainsFunc(kept[1:], func(x Expr) bool { return !hasTerm(x, t) }) {
			common = append(common, t)
		}
	}
	if len(common) > 0 {
		s := Expr{t: common}
		rest := make([]Expr, len(kept))
		for i, x := range kept {
			var ok bool
			if rest[i], ok = Sub(x, s); !ok {
				return Expr{}, false
			}
		}
		inner, ok := extremumOf(kind, rest)
		if !ok {
			return Expr{}, false
		}
		return Add(s, inner)
	}
	// A common denominator comes out, so that each argument is an integer where the extremum is
	// one and prints so: max(A/2,(B+1)/3) = max(3*A,2*B+2)/6. (Built from the sizes of a model,
	// min(((H+4)//6)/2-1/2, ...) holds arguments that need not be integers wherever the sum of
	// their terms is one, and the notation's / must divide.)
	l := int64(1)
	for _, x := range kept {
		for _, t := range x.t {
			g := int64(gcd(uint64(l), uint64(t.c.den)))
			var ok bool
			if l, ok = mul64(l/g, t.c.den); !ok {
				return Expr{}, false
			}
		}
	}
	if l > 1 {
		whole := make([]Expr, len(kept))
		for i, x := range kept {
			var ok bool
			if whole[i], ok = scale(x, ratInt(l)); !ok {
				return Expr{}, false
			}
		}
		m, ok := extremumOf(kind, whole)
		if !ok {
			return Expr{}, false
		}
		return scale(m, rat{1, l})
	}
	// A positive common factor comes out: max(2*A,4*B) = 2*max(A,2*B).
	var g uint64
	for _, x := range kept {
		if !x.integral() {
			g = 1
			break
		}
		for _, t := range x.t {
			g = gcd(g, abs64(t.c.num))
		}
	}
	if g > 1 {
		inner := make([]Expr, len(kept))
		for i, x := range kept {
			var ok bool
			if inner[i], ok = scale(x, rat{1, int64(g)}); !ok {
				return Expr{}, false
			}
		}
		m, ok := extremumOf(kind, inner)
		if !ok {
			return Expr{}, false
		}
		return scale(m, ratInt(int64(g)))
	}
	// A minus sign of every argument comes out, turning min into max: min(-A,-B) = -max(A,B), so
	// that the two ways to write one extremum are one.
	if !slices.ContainsFunc(kept, func(x Expr) bool {
		i := slices.IndexFunc(x.t, func(t term) bool { return len(t.m) > 0 })
		return i < 0 || x.t[i].c.num > 0
	}) {
		neg := make([]Expr, len(kept))
		for i, x := range kept {
			var ok bool
			if neg[i], ok = Neg(x); !ok {
				return Expr{}, false
			}
		}
		m, ok := extremumOf(otherExtremum(kind), neg)
		if !ok {
			return Expr{}, false
		}
		return Neg(m)
	}
	if m, ok := extremumOfMultiple(kind, kept); ok {
		return m, true
	}
	a := &atom{kind: kind, args: slices.Clone(kept)}
	a.key = string(appendAtom(nil, a, true))
	a.size = 1
	for _, x := range kept {
		a.size += x.Size()
	}
	if !fitsAtom(a) {
		return Expr{}, false
	}
	return fromAtom(a), true
}

// extremumOfMultiple returns the extremum of two arguments of which one is a multiple g·f of the
// other, f a term not negative and g an integer-valued polynomial not negative, as f times the
// extremum of g and 1 (an indicator for min): min(A*B,B) is B*min(A,1), 0 where A is 0 and B
// elsewhere (a broadcast of A*B with B), and max(A*B,B) is B*max(A,1).
func extremumOfMultiple(kind atomKind, args []Expr) (Expr, bool) {
	if len(args) != 2 {
		return Expr{}, false
	}
	for i := range 2 {
		f, e := args[i], args[1-i]
		if len(f.t) != 1 || len(f.t[0].m) == 0 || f.ival().lo.sign() < 0 || !integerValued(f.t[0].m) {
			continue // an exact quotient, 1/N, is no such term: min(T,1/N) stays
		}
		g, ok := Quo(e, f)
		if !ok || !g.integral() || g.ival().lo.sign() < 0 {
			continue
		}
		if gf, ok := Mul(g, f); !ok || !gf.Equal(e) {
			continue // a quotient by an indicator, min(N,1), is no such multiple
		}
		if _, ok := g.Const(); ok {
			continue
		}
		x, ok := extremumOf(kind, []Expr{g, Int(1)})
		if !ok {
			return Expr{}, false
		}
		return Mul(f, x)
	}
	return Expr{}, false
}

// hasTerm reports whether x holds the term t, coefficient included.
func hasTerm(x Expr, t term) bool {
	return slices.ContainsFunc(x.t, func(u term) bool { return u.c == t.c && cmpMono(u.m, t.m) == 0 })
}

// compound returns the expression that is the atom num op den, for a remainder or a floor
// division.
func compound(kind atomKind, num, den Expr) (Expr, bool) {
	a := &atom{kind: kind, num: num, den: den}
	a.size = num.Size() + den.Size()
	if a.size > maxTreeSize {
		return Expr{}, false
	}
	a.key = string(appendAtom(nil, a, true))
	if !fitsAtom(a) {
		return Expr{}, false
	}
	return fromAtom(a), true
}

// le reports whether a <= b is known for every value of the symbols: from the bounds of b-a (of
// a symbol of Table.Below, its bound below an expression: leBelow), or
// through an extremum in a or b. Writing x = s + c·m for an extremum m with c > 0, and c·max for
// c < 0 as the min of its scaled arguments: a <= s + c·max(...) when a-s is at most one argument,
// a <= s + c·min(...) when a-s is at most every argument, s + c·min(...) <= b when one argument
// is at most b-s, s + c·max(...) <= b when every argument is.
func le(a, b Expr) bool {
	if d, ok := Sub(b, a); ok {
		if d.ival().lo.sign() >= 0 || leBelow(d) {
			return true
		}
	}
	right := func(rest, y Expr) bool { return le(rest, y) }
	left := func(rest, y Expr) bool { return le(y, rest) }
	return viaExtremum(b, a, maxAtom, false, right) || viaExtremum(b, a, minAtom, true, right) ||
		viaExtremum(a, b, minAtom, false, left) || viaExtremum(a, b, maxAtom, true, left)
}

// viaExtremum reports whether x = s + c·m for an extremum m that is of kind for c > 0 (or of the
// other kind for c < 0) with ok(other - s, c·y) for one argument y of m, or for all when every.
func viaExtremum(x, other Expr, kind atomKind, every bool, ok func(rest, y Expr) bool) bool {
	for i, t := range x.t {
		a, lone := (Expr{t: []term{{c: ratInt(1), m: t.m}}}).lone()
		if !lone || !(a.kind == kind && t.c.num > 0 || a.kind == otherExtremum(kind) && t.c.num < 0) {
			continue
		}
		rest, fine := Sub(other, Expr{t: slices.Delete(slices.Clone(x.t), i, i+1)})
		if !fine {
			return false
		}
		for _, y := range a.args {
			cy, fine := scale(y, t.c)
			switch holds := fine && ok(rest, cy); {
			case holds && !every:
				return true
			case !holds && every:
				return false
			}
		}
		return every
	}
	return false
}

// cmpExpr orders expressions: term by term, by monomial (cmpMono) and then coefficient, a prefix
// first.
func cmpExpr(a, b Expr) int {
	for i := 0; i < len(a.t) && i < len(b.t); i++ {
		if c := cmpMono(a.t[i].m, b.t[i].m); c != 0 {
			return c
		}
		if c := cmpRat(a.t[i].c, b.t[i].c); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a.t), len(b.t))
}

// cmpRat compares two rationals exactly.
func cmpRat(a, b rat) int {
	if a.den == b.den {
		return cmp.Compare(a.num, b.num)
	}
	sa, sb := cmp.Compare(a.num, 0), cmp.Compare(b.num, 0)
	if sa != sb || sa == 0 {
		return cmp.Compare(sa, sb)
	}
	h1, l1 := bits.Mul64(abs64(a.num), uint64(b.den))
	h2, l2 := bits.Mul64(abs64(b.num), uint64(a.den))
	c := cmp.Compare(h1, h2)
	if c == 0 {
		c = cmp.Compare(l1, l2)
	}
	return sa * c
}

// modI returns the interval of a mod b for a in x and b in y (Python's %): [0, y.hi-1] for a
// positive divisor, narrowed to x when x lies in [0, y.lo), [y.lo+1, 0] for a negative one.
func modI(x, y ival) ival {
	switch {
	case y.empty() || y.containsZero():
		return whole
	case y.lo.sign() > 0:
		if x.lo.sign() >= 0 && cmpX(x.hi, y.lo) < 0 {
			return x
		}
		hi := addX(y.hi, fin(-1))
		if x.lo.sign() >= 0 {
			hi = minX(hi, x.hi)
		}
		return ival{fin(0), hi}
	}
	return ival{addX(y.lo, fin(1)), fin(0)}
}
