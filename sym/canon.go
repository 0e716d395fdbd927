package sym

// The canonical form of comparisons (see Pred): canon and the rewritings it applies to a
// comparison of min, max, floor divisions and remainders.

import (
	"iter"
	"math"
	"math/big"
	"slices"
)

// canon returns the canonical form of d op 0, op one of OpEq, OpNe, OpGe; note tells the
// comparison as stated, should it be decided.
func canon(op Op, d Expr, note func() string) Pred {
	if c, ok := d.constRat(); ok {
		// A difference that is not an integer is that of sides that have no value together
		// (0 != 7/3, an exact quotient of constants that does not divide): false, as Eval finds
		// the comparison there.
		return decided(c.isInt() && holds(op, c), note())
	}
	// Integer coefficients, then the content divided out.
	l := int64(1)
	for _, t := range d.t {
		g := int64(gcd(uint64(l), uint64(t.c.den)))
		var ok bool
		if l, ok = mul64(l/g, t.c.den); !ok {
			return rawCmp(d, op, Expr{})
		}
	}
	if l != 1 {
		var ok bool
		if d, ok = scale(d, ratInt(l)); !ok {
			return rawCmp(d, op, Expr{})
		}
	}
	if m, ok := positiveFactor(d); ok {
		if q, ok := Quo(d, m); ok {
			d = q
		}
	}
	if d.integral() {
		d = remainders(d)
	}
	// A common factor or a remainder may leave a constant: the two sides were equal.
	if c, ok := d.constRat(); ok {
		return decided(holds(op, c), note())
	}
	v, c := split(d)
	var g uint64
	integral := true
	for _, t := range v.t {
		g = gcd(g, abs64(t.c.num))
		integral = integral && integerValued(t.m)
	}
	// The content divides out of a polynomial, whose terms are integers: a term with a negative
	// power (N/T) may not be one once divided.
	if g > 1 && g <= math.MaxInt64 && integral {
		inv := rat{1, int64(g)}
		switch {
		case op == OpGe:
			// v + c >= 0 is v/g >= -c/g, and v/g is an integer: v/g + floor(c/g) >= 0.
			sv, ok := scale(v, inv)
			if ok {
				sv, ok = Add(sv, Int(floorDiv(c, int64(g))))
			}
			if !ok {
				return rawCmp(d, op, Expr{})
			}
			d = sv
		case c%int64(g) == 0:
			var ok bool
			if d, ok = scale(d, inv); !ok {
				return rawCmp(d, op, Expr{})
			}
		default: // an integer multiple of g is never -c
			return decided(op == OpNe, note())
		}
	}
	if v, _ := split(d); op != OpGe && v.t[0].c.num < 0 {
		nd, ok := Neg(d)
		if !ok {
			return rawCmp(d, op, Expr{})
		}
		d = nd
	}
	v, c = split(d)
	if p, ok := shiftedRemainder(op, v, c); ok {
		return p
	}
	if p, ok := exactFactors(op, d, note); ok {
		return p
	}
	if p, ok := divisorCase(op, v, c); ok {
		return p
	}
	if p, ok := extremumOfArg(op, d); ok {
		return p
	}
	if p, ok := expandExtremum(op, v, c); ok {
		return p
	}
	if p, ok := expandFloor(op, v, c); ok {
		return p
	}
	if p, ok := monotoneBound(op, d); ok {
		return p
	}
	b := d.ival()
	switch op {
	case OpEq, OpNe:
		if !b.containsZero() || b.lo.sign() == 0 && b.hi.sign() == 0 {
			return decided(b.containsZero() == (op == OpEq), note())
		}
	case OpGe:
		if b.lo.sign() >= 0 || b.hi.sign() < 0 {
			return decided(b.lo.sign() >= 0, note())
		}
	}
	vb := v.ival()
	remainder := false
	if x, ok := (Expr{t: []term{{c: ratInt(1), m: v.t[0].m}}}).lone(); ok && len(v.t) == 1 && abs64(v.t[0].c.num) == 1 {
		remainder = x.kind == modAtom
	}
	switch {
	case op == OpGe && vb.hi.inf == 0 && c != math.MinInt64 && vb.hi.v == -c:
		// v >= its greatest value: v == that value.
		return canon(OpEq, d, note)
	case op == OpGe && remainder && vb.lo.inf == 0 && c != math.MinInt64 && vb.lo.v+1 == -c:
		// A remainder above its least value: not that value.
		if d1, ok := Add(d, Int(1)); ok {
			return canon(OpNe, d1, note)
		}
	case op == OpNe && remainder && c != math.MinInt64 && vb.lo.inf == 0 && vb.hi.inf == 0 && vb.hi.v-vb.lo.v == 1 &&
		(vb.lo.v == -c || vb.hi.v == -c):
		// A remainder of two values, not one of them: the other (T % 2 != 1 is T % 2 == 0).
		if d1, ok := Add(d, Int(-c-(vb.lo.v+vb.hi.v+c))); ok {
			return canon(OpEq, d1, note)
		}
	case op == OpNe && !remainder && c != math.MinInt64 && (vb.lo.inf == 0 && vb.lo.v == -c || vb.hi.inf == 0 && vb.hi.v == -c):
		// Not the least value: above it; not the greatest: below it.
		var nd Expr
		ok := false
		if vb.lo.inf == 0 && vb.lo.v == -c {
			nd, ok = Add(d, Int(-1))
		} else if n, ok1 := Neg(d); ok1 {
			nd, ok = Add(n, Int(-1))
		}
		if ok {
			return canon(OpGe, nd, note)
		}
	}
	return Pred{&pnode{kind: pCmp, op: op, e: d}}
}

// extremumOfArg returns the comparison d op 0, d = ±(E - a) + c for E the max or min of arguments
// of which a is one and an integer c, as comparisons of the other arguments with a: max(A,B) == A
// is B <= A, min(T,1500) == T is T <= 1500, max(A,B) >= A is true, A > max(A,B) false, max(A,B) >=
// A+2 is B >= A+2 (a Slice of a table of 1500 rows by the input's length T gives min(T,1500),
// which a broadcast with T needs equal to T). ok is false for another d, and for an equation of
// E and an argument other than a plus c.
func extremumOfArg(op Op, d Expr) (Pred, bool) {
	for i, t := range d.t {
		if !t.c.isInt() || abs64(t.c.num) != 1 {
			continue
		}
		x, ok := (Expr{t: []term{{c: ratInt(1), m: t.m}}}).lone()
		if !ok || x.kind != minAtom && x.kind != maxAtom {
			continue
		}
		s := t.c.num
		rest := Expr{t: slices.Delete(slices.Clone(d.t), i, i+1)}
		for k, a := range x.args {
			// d = s·(E - a) + c
			sa, ok1 := scale(a, ratInt(s))
			diff, ok2 := Add(rest, sa)
			c, ok3 := diff.Const()
			if !ok1 || !ok2 || !ok3 {
				continue
			}
			return extremumCmp(op, x, k, s, c)
		}
	}
	return Pred{}, false
}

// extremumCmp returns s·(E - a) + c op 0 for E the max or min x and a its argument k: D = E - a
// is at least 0 for a max and at most 0 for a min, and the other arguments tell by how much.
func extremumCmp(op Op, x *atom, k int, s, c int64) (Pred, bool) {
	a := x.args[k]
	isMax := x.kind == maxAtom
	// others returns the comparisons of the other arguments y with a+off, of the op cmp, joined
	// by And (all) or Or (some).
	others := func(cmp Op, off int64, all bool) (Pred, bool) {
		ao, ok := Add(a, Int(off))
		if !ok {
			return Pred{}, false
		}
		var ps []Pred
		for j, y := range x.args {
			if j != k {
				ps = append(ps, Cmp(y, cmp, ao))
			}
		}
		if all {
			return And(ps...), true
		}
		return Or(ps...), true
	}
	zero := func() (Pred, bool) { // D == 0
		if isMax {
			return others(OpLe, 0, true)
		}
		return others(OpGe, 0, true)
	}
	if c == math.MinInt64 {
		return Pred{}, false
	}
	switch op {
	case OpEq, OpNe: // D == -s·c
		w := -s * c
		var p Pred
		switch {
		case isMax && w < 0, !isMax && w > 0:
			p = False()
		case w == 0:
			var ok bool
			if p, ok = zero(); !ok {
				return Pred{}, false
			}
		default:
			return Pred{}, false
		}
		if op == OpNe {
			return Not(p), true
		}
		return p, true
	}
	if s > 0 { // D >= -c
		w := -c
		switch {
		case isMax && w <= 0:
			return True(), true
		case isMax: // max at least a+w > a: some other argument is
			return others(OpGe, w, false)
		case w > 0:
			return False(), true
		case w == 0:
			return zero()
		}
		return others(OpGe, w, true) // min at least a+w < a: every other argument is
	}
	// D <= c
	switch {
	case isMax && c < 0:
		return False(), true
	case isMax && c == 0:
		return zero()
	case isMax: // max at most a+c: every other argument is
		return others(OpLe, c, true)
	case c >= 0:
		return True(), true
	}
	return others(OpLe, c, false) // min at most a+c < a: some other argument is
}

// expandExtremum returns the comparison v + c op 0 on ±max or ±min of arguments as a conjunction
// or disjunction of comparisons of the arguments: max(A,B) <= 8 is A <= 8 && B <= 8, max(A,B) >=
// 8 is A >= 8 || B >= 8, max(A,B,1) == 1 is A <= 1 && B <= 1 (and one of them 1: the 1 is).
func expandExtremum(op Op, v Expr, c int64) (Pred, bool) {
	if len(v.t) != 1 || abs64(v.t[0].c.num) != 1 || !v.t[0].c.isInt() || c == math.MinInt64 {
		return Pred{}, false
	}
	x, ok := (Expr{t: []term{{c: ratInt(1), m: v.t[0].m}}}).lone()
	if !ok || x.kind != minAtom && x.kind != maxAtom {
		return Pred{}, false
	}
	upper := v.t[0].c.num < 0 // -x + c >= 0: x <= c
	k := -c
	if upper {
		k = c
	}
	bound, one := make([]Pred, len(x.args)), make([]Pred, len(x.args))
	for i, a := range x.args {
		switch {
		case op != OpGe && x.kind == maxAtom, op == OpGe && upper:
			bound[i] = Le(a, Int(k))
		default:
			bound[i] = Ge(a, Int(k))
		}
		one[i] = Eq(a, Int(k))
	}
	switch {
	case op == OpEq: // all on the one side of k, one at k
		return And(And(bound...), Or(one...)), true
	case op == OpNe:
		return Not(And(And(bound...), Or(one...))), true
	case (x.kind == maxAtom) != upper: // max >= k and min <= k: one argument is
		return Or(bound...), true
	}
	return And(bound...), true // max <= k and min >= k: all arguments are
}

// exactFactors returns d op 0, op OpEq or OpNe, d = c·u1·u2·…·un - c·k1·k2·…·kn·(u1//k1)·(u2//k2)·…·(un//kn)
// for factors ui of least value 1 and integers ki > 0, as the remainders it says: each ki·(ui//ki)
// is in [0, ui], so that the product of them equals that of the ui exactly when each does, when
// each ui % ki == 0 (the volume of a window partition: H*W == 4*(H//2)*(W//2) is H % 2 == 0 &&
// W % 2 == 0). Of OpGe, d >= 0 always holds, and -d >= 0 is d == 0. ok is false for another d.
func exactFactors(op Op, d Expr, note func() string) (Pred, bool) {
	if len(d.t) != 2 {
		return Pred{}, false
	}
	each := OpEq // each remainder 0, or of OpNe one not
	if op == OpNe {
		each = OpNe
	}
	for i := range 2 {
		a, b := d.t[i], d.t[1-i]
		if !a.c.isInt() || !b.c.isInt() || len(a.m) != len(b.m) {
			continue
		}
		k := int64(1)
		used := make([]bool, len(a.m))
		var exact []Pred
		for _, f := range b.m {
			q, ok := f.a.den.Const()
			if f.a.kind != floorAtom || f.e != 1 || !ok || q <= 0 {
				break
			}
			j := slices.IndexFunc(a.m, func(g factor) bool { return g.e == 1 && f.a.num.Equal(fromAtom(g.a)) })
			if j < 0 || used[j] || a.m[j].a.ival().lo.sign() <= 0 {
				break
			}
			used[j] = true
			var ok1 bool
			if k, ok1 = mul64(k, q); !ok1 {
				break
			}
			r, ok2 := Mod(f.a.num, Int(q))
			if !ok2 {
				break
			}
			exact = append(exact, Cmp(r, each, Int(0)))
		}
		if ck, ok := mul64(a.c.num, k); len(exact) == len(b.m) && ok && ck == -b.c.num {
			switch {
			case op == OpGe && a.c.num > 0:
				return decided(true, note()), true
			case op == OpNe:
				return Or(exact...), true
			}
			return And(exact...), true
		}
	}
	return Pred{}, false
}

// The bounds of divisorCase: the constant whose divisors it tries, and how many of them.
const (
	maxDivided  = 1 << 24
	maxDivisors = 8
)

// divisorCase returns v + c op 0, op OpEq or OpNe, for v = x·R, a product of a symbol x >= 0 and
// a polynomial R with integer coefficients (x a factor of every term of v, one of which has
// another), and c not 0, as the one case that its divisors leave: x·R == -c holds only where x is
// a divisor u of -c and R, with u for x, is -c/u; where every divisor but u makes that false, it
// is x == u && R == -c/u (B*max(B*(L//10)+B,L//10+1) == 401, a prime, is B == 1 && L//10 == 400:
// at B == 401 the max is at least 401; B*(B+1) == 12 is B == 3), false where none is left, and of
// OpNe the negation. ok is false for another v, and where several divisors, or more than
// maxDivisors of them within x's bounds, are left.
func divisorCase(op Op, v Expr, c int64) (Pred, bool) {
	if op == OpGe || c == 0 || c == math.MinInt64 || !slices.ContainsFunc(v.t, func(t term) bool { return degree(t.m) >= 2 }) {
		return Pred{}, false
	}
	// x: a symbol >= 0 of every term.
	var x *atom
	for _, f := range v.t[0].m {
		every := func(t term) bool {
			return t.c.isInt() && integerValued(t.m) && slices.ContainsFunc(t.m, func(g factor) bool { return cmpAtom(g.a, f.a) == 0 && g.e >= 1 })
		}
		if f.a.kind == symbolAtom && f.a.lo >= 0 && !slices.ContainsFunc(v.t, func(t term) bool { return !every(t) }) {
			x = f.a
			break
		}
	}
	n := abs64(c)
	if x == nil || n > maxDivided {
		return Pred{}, false
	}
	var divs []int64
	for u := range divisors(int64(n)) {
		if u < x.lo || u > x.hi {
			continue
		}
		if divs = append(divs, u); len(divs) > maxDivisors {
			return Pred{}, false
		}
	}
	d, ok := Add(v, Int(c))
	if !ok {
		return Pred{}, false
	}
	found := Pred{}
	left := 0
	for _, u := range divs {
		q, ok := d.Subst(func(name string) (Expr, bool) { return Int(u), name == x.name })
		if !ok {
			return Pred{}, false
		}
		if p := Eq(q, Expr{}); !p.IsFalse() {
			if left++; left > 1 {
				return Pred{}, false
			}
			found = And(Eq(fromAtom(x), Int(u)), p)
		}
	}
	if left == 0 {
		found = False()
	}
	if op == OpNe {
		return Not(found), true
	}
	return found, true
}

// remainders returns d, a polynomial, with each pair of terms k·x//m and -k·(q/m)·(x//q), for m
// dividing q, written k·((x//m) % (q/m)), where that makes d smaller: H-2*(H//2) is H % 2, and
// H//16-2*(H//32) is H//16 % 2. A term k·x stands for k·(x//1).
func remainders(d Expr) Expr {
	for again := true; again; {
		again = false
		for _, t := range d.t {
			f, ok := (Expr{t: []term{{c: ratInt(1), m: t.m}}}).lone()
			if !ok || f.kind != floorAtom || !t.c.isInt() {
				continue
			}
			q, ok := f.den.Const()
			if !ok || q <= 1 {
				continue
			}
			for _, r := range commonDivisors(q, t.c.num) {
				m := q / r
				k := -t.c.num / r
				x := f.num
				if m > 1 {
					if x, ok = FloorDiv(f.num, Int(m)); !ok {
						continue
					}
				}
				if r, ok := rewrite(d, t, x, k, q/m); ok {
					d, again = r, true
					break
				}
			}
			if again {
				break
			}
		}
	}
	return d
}

// commonDivisors returns the divisors greater than 1 of both q, positive, and c, greatest first:
// the r of remainders' k·((x//(q/r)) % r).
func commonDivisors(q, c int64) []int64 {
	var out []int64
	for r := range divisors(int64(gcd(uint64(q), uint64(max(c, -c))))) {
		if r > 1 {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out
}

// divisors yields the positive divisors of n >= 1, each once, by pairs: r and n/r for each r up
// to n's square root, in as many steps (a floor by 2147483647 is not 2147483647 of them).
func divisors(n int64) iter.Seq[int64] {
	return func(yield func(int64) bool) {
		for r := int64(1); r <= n/r; r++ {
			if n%r == 0 && (!yield(r) || r != n/r && !yield(n/r)) {
				return
			}
		}
	}
}

// rewrite returns d - t - k·x + k·(x % r), when that is smaller than d.
func rewrite(d Expr, t term, x Expr, k, r int64) (Expr, bool) {
	kx, ok1 := scale(x, ratInt(k))
	rest, ok2 := Sub(d, Expr{t: []term{t}})
	rest, ok3 := Sub(rest, kx)
	m, ok4 := Mod(x, Int(r))
	km, ok5 := scale(m, ratInt(k))
	out, ok6 := Add(rest, km)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || out.Size() >= d.Size() {
		return Expr{}, false
	}
	return out, true
}

// expandFloor returns the comparison of v + c with 0, v being ±x//q for an integer q > 1 and a
// polynomial x, as bounds on x: (H-11)//2 >= 0 is H >= 11, (H+3)//4 == 4 is H >= 13 && H <= 16.
// An inequation stays as it is.
func expandFloor(op Op, v Expr, c int64) (Pred, bool) {
	if len(v.t) != 1 || abs64(v.t[0].c.num) != 1 || !v.t[0].c.isInt() {
		return Pred{}, false
	}
	f, ok := (Expr{t: []term{{c: ratInt(1), m: v.t[0].m}}}).lone()
	if !ok || f.kind != floorAtom || !f.num.integral() {
		return Pred{}, false
	}
	q, ok := f.den.Const()
	if !ok || q <= 1 {
		return Pred{}, false
	}
	// x//q is w exactly when q·w <= x <= q·w + q-1.
	w := -c
	if v.t[0].c.num < 0 {
		w = c
	}
	lo, ok1 := mul64(w, q)
	hi, ok2 := add64(lo, q-1)
	if !ok1 || !ok2 {
		return Pred{}, false
	}
	x := f.num
	switch {
	case op == OpEq:
		return And(Ge(x, Int(lo)), Le(x, Int(hi))), true
	case op == OpNe: // a disjunction would say it at greater length
		return Pred{}, false
	case v.t[0].c.num > 0: // x//q >= w
		return Ge(x, Int(lo)), true
	}
	return Le(x, Int(hi)), true // x//q <= w
}

// maxSearch bounds the values monotoneBound tries of a symbol without an upper bound.
const maxSearch = 1 << 40

// monotoneBound returns d op 0 as bounds on the one symbol x of d when d
// is a sum of multiples of x and of floor divisions (p·x+c)//q (p, q > 0) that is monotone in x:
// each step of x changes every floor by floor(p/q) or ceil(p/q), so the least change of d tells.
// Its values are found by a search at the integers: T - T//2 >= 0 is true, T - (T+1)//2 >= 1 is
// T >= 2, (H+1)//4 + H//4 <= 4 is H <= 10; d != 0 is the negation of d == 0's bounds, so that a
// comparison and its negation take one form. ok is false for another d, one that is not
// monotone (W - 2*((W+2)//3) >= 1 holds at 3 and from 5 on), or one whose bound the search does
// not reach.
func monotoneBound(op Op, d Expr) (Pred, bool) {
	if op == OpNe { // the negation of the equation's bounds
		p, ok := monotoneBound(OpEq, d)
		if !ok {
			return Pred{}, false
		}
		return Not(p), true
	}
	if !d.integral() {
		return Pred{}, false
	}
	var x *atom
	floors := 0
	incLo, incHi := int64(0), int64(0)
	for _, t := range d.t {
		if len(t.m) == 0 {
			continue
		}
		if len(t.m) != 1 || t.m[0].e != 1 {
			return Pred{}, false
		}
		a, b := t.m[0].a, t.c.num
		var step0, step1 int64 // the least and greatest change of the atom when x grows by 1
		switch a.kind {
		case symbolAtom:
			if x != nil && x != a {
				return Pred{}, false
			}
			x, step0, step1 = a, 1, 1
		case floorAtom:
			q, ok := a.den.Const()
			if !ok || q <= 0 || len(a.num.t) == 0 {
				return Pred{}, false
			}
			var p int64
			for _, u := range a.num.t {
				switch {
				case len(u.m) == 0:
				case len(u.m) == 1 && u.m[0].e == 1 && u.m[0].a.kind == symbolAtom && (x == nil || x == u.m[0].a) && u.c.isInt() && u.c.num > 0:
					x, p = u.m[0].a, u.c.num
				default:
					return Pred{}, false
				}
			}
			if p == 0 {
				return Pred{}, false
			}
			floors++
			step0, step1 = p/q, (p+q-1)/q
		default:
			return Pred{}, false
		}
		lo, hi := b*step0, b*step1
		if b < 0 {
			lo, hi = hi, lo
		}
		incLo, incHi = incLo+lo, incHi+hi
	}
	vars := 0 // the terms that vary: a lone floor division is expandFloor's
	for _, t := range d.t {
		if len(t.m) > 0 {
			vars++
		}
	}
	if x == nil || floors == 0 || vars < 2 || x.lo == NegInf || abs64(incLo) > 1<<20 || abs64(incHi) > 1<<20 {
		return Pred{}, false
	}
	f := d // nondecreasing in x
	switch {
	case incLo >= 0:
	case incHi <= 0:
		var ok bool
		if f, ok = Neg(d); !ok {
			return Pred{}, false
		}
	default:
		return Pred{}, false
	}
	at := func(v int64) (*big.Int, bool) {
		r, err := evalInt(f, func(string) (int64, bool) { return v, true })
		return r, err == nil
	}
	// first returns the least value of x from x.lo at which f >= k, whether there is one, and
	// whether the search could tell.
	first := func(k int64) (v int64, found, ok bool) {
		hi := x.hi
		if hi == Inf {
			hi = maxSearch
		}
		top, ok := at(hi)
		if !ok {
			return 0, false, false
		}
		if top.Cmp(big.NewInt(k)) < 0 {
			return 0, false, x.hi != Inf
		}
		lo := x.lo
		for lo < hi {
			mid := lo + (hi-lo)/2
			m, ok := at(mid)
			if !ok {
				return 0, false, false
			}
			if m.Cmp(big.NewInt(k)) >= 0 {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return lo, true, true
	}
	sym := Expr{t: []term{{c: ratInt(1), m: []factor{{x, 1}}}}}
	from, found, ok := first(0)
	if !ok {
		return Pred{}, false
	}
	switch {
	case op == OpGe && incLo >= 0: // d >= 0 from the first x where it holds
		if !found {
			return False(), true
		}
		return Ge(sym, Int(from)), true
	case op == OpGe: // d >= 0 is -d < 1: before the first x where -d >= 1
		next, found, ok := first(1)
		switch {
		case !ok:
			return Pred{}, false
		case !found:
			return True(), true
		}
		return Le(sym, Int(next-1)), true
	case !found: // f == 0: f >= 0 and f < 1
		return False(), true
	}
	next, found, ok := first(1)
	switch {
	case !ok:
		return Pred{}, false
	case !found:
		return Ge(sym, Int(from)), true
	}
	return And(Ge(sym, Int(from)), Le(sym, Int(next-1))), true
}

// shiftedRemainder returns the comparison v + c op 0, v being ±(x+a) % m for a polynomial x
// without a constant term, an integer a not 0 and an integer m > 1, as the remainders of x it
// holds at, which do not depend on the form a condition took: (x+a) % m == r is x % m == (r-a)
// mod m ((W//2+2) % 3 == 2 is W//2 % 3 == 0, (H+1) % 2 == 1 is H % 2 == 0), and (x+a) % m >= r
// holds at a run of remainders of x that may wrap past m-1 ((H+3) % 32 >= 3 is H % 32 <= 28 and
// (H+3) % 32 <= 2 is H % 32 >= 29). ok is false for another v.
func shiftedRemainder(op Op, v Expr, c int64) (Pred, bool) {
	if len(v.t) != 1 || !v.t[0].c.isInt() || abs64(v.t[0].c.num) != 1 {
		return Pred{}, false
	}
	x, ok := (Expr{t: []term{{c: ratInt(1), m: v.t[0].m}}}).lone()
	if !ok || x.kind != modAtom {
		return Pred{}, false
	}
	m, ok := x.den.Const()
	rest, a := split(x.num)
	if !ok || m <= 1 || a == 0 || len(rest.t) == 0 || !rest.integral() {
		return Pred{}, false
	}
	y, ok := Mod(rest, Int(m))
	if !ok {
		return Pred{}, false
	}
	if z, ok := y.lone(); ok && z.kind == modAtom {
		if _, a := split(z.num); a != 0 { // no end to the rewriting
			return Pred{}, false
		}
	}
	// The values t of (x+a) % m that satisfy the comparison, lo <= t <= hi, within [0, m-1].
	s := v.t[0].c.num
	lo, hi := int64(0), m-1
	switch {
	case c == math.MinInt64 || c == math.MaxInt64:
		return Pred{}, false
	case op != OpGe && (-s*c < 0 || -s*c >= m):
		return Pred{}, false // decided by the bounds of v
	case op != OpGe:
		lo, hi = -s*c, -s*c
	case s > 0: // t >= -c
		lo = max(lo, -c)
	default: // t <= c
		hi = min(hi, c)
	}
	if lo > hi || lo == 0 && hi == m-1 {
		return Pred{}, false
	}
	// Those of x % m: t - a modulo m, a run that wraps past m-1 when from > to.
	from, to := pyMod(lo-pyMod(a, m), m), pyMod(hi-pyMod(a, m), m)
	if op != OpGe {
		return Cmp(y, op, Int(from)), true
	}
	ge, le := Ge(y, Int(from)), Le(y, Int(to))
	if from <= to {
		return And(ge, le), true
	}
	return Or(ge, le), true
}

// nonZero reports whether the bounds of its symbols prove f is not 0, so that a quotient or a
// remainder by f has a value wherever its operands have.
func nonZero(f Expr) bool { return !f.ival().containsZero() }

// hasFactor reports whether d is f, or a single term with a positive power of f, an atom.
func hasFactor(d, f Expr) bool {
	if d.Equal(f) {
		return true
	}
	a, ok := f.lone()
	return ok && len(d.t) == 1 && power(d.t[0].m, a) > 0
}

// dividesBy reports whether e holds a floor division, remainder or exact quotient by f or by a
// multiple of f (T*N of N), or a negative power of an atom of f, a single term.
func dividesBy(e, f Expr) bool {
	for _, t := range e.t {
		for _, x := range t.m {
			if x.e < 0 && len(f.t) == 1 && indexAtom(f.t[0].m, x.a) >= 0 {
				return true
			}
			switch x.a.kind {
			case symbolAtom:
			case minAtom, maxAtom, floatAtom:
				if slices.ContainsFunc(x.a.args, func(arg Expr) bool { return dividesBy(arg, f) }) {
					return true
				}
			default:
				if hasFactor(x.a.den, f) || dividesBy(x.a.num, f) || dividesBy(x.a.den, f) {
					return true
				}
			}
		}
	}
	return false
}

// guarded returns p where each divisor of gs is not 0, and p: a comparison whose divisors were
// cancelled has no value where one of them is 0, and does not hold there, nor does its negation.
func guarded(gs []Expr, p Pred) Pred {
	if len(gs) == 0 {
		return p
	}
	ps := make([]Pred, 0, len(gs)+1)
	for _, g := range gs {
		ps = append(ps, Ne(g, Expr{}))
	}
	return And(append(ps, p)...)
}
