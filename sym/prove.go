package sym

// The proofs behind minimal conditions (Minimize): that a conjunction of predicates holds at no
// binding (unsat), by a sound procedure for the forms a model's conditions take (floor divisions
// and remainders by integers, min and max, products of symbols with bounds):
//
//   - the canonical form of the conjunction (And), with each symbol's bounds narrowed to what the
//     comparisons of it say, so that the canonical form decides what the bounds decide (H >= 16
//     makes (H//16)*(W//16) == 0 false), a polynomial of it among them (6*k*k-10*k+5 <= 0 holds
//     at no integer k, see polyBounds);
//   - a split on the residues of a symbol modulo the period of the floor divisions and remainders
//     that hold it: H = 8*q+r for r = 0..7, where (H+7)//8 is q+(r+7)//8, an expression in q without
//     a floor;
//   - a split on the values of a symbol that has no more of them than a split on residues has
//     cases (H in 1..6, where (H-1)//3 in (2*T+1)*((H-1)//3) == 8*T*W is 0 or 1);
//   - a split on the terms of a disjunction;
//   - every binding of a box of at most enumLimit bindings, evaluated.
//
// What the procedure cannot prove within its budget is not proven: a condition stays.

import (
	"cmp"
	"math"
	"slices"
)

// The budget of one proof: unsat calls and bindings evaluated (one step per 64 bindings).
const (
	proofSteps = 4000
	enumLimit  = 1 << 12
	maxSplit   = 1 << 10
	proofDepth = 6
	maxValues  = 16
)

// prover proves conjunctions unsatisfiable within a budget of steps.
type prover struct {
	steps int
	fresh int // the fresh symbols made, for their names
}

// total reports whether p has a value at every binding: its expressions are polynomials with
// integer coefficients of symbols, floor divisions and remainders by positive integers, min and
// max, so that Not(p) holds exactly where p does not.
func total(p Pred) bool {
	switch p.kind() {
	case pConst:
		return true
	case pCmp:
		return p.n.e.total() && p.n.rhs.total()
	}
	for _, a := range p.n.args {
		if !total(a) {
			return false
		}
	}
	return true
}

func (e Expr) total() bool { return e.integerTerms((*atom).total) }

// integerTerms reports whether every term of e has an integer coefficient, no negative power, and
// only atoms that ok accepts: the walk total and whole share.
func (e Expr) integerTerms(ok func(*atom) bool) bool {
	for _, t := range e.t {
		if !t.c.isInt() {
			return false
		}
		for _, f := range t.m {
			if f.e < 0 || !ok(f.a) {
				return false
			}
		}
	}
	return true
}

func (a *atom) total() bool {
	switch a.kind {
	case symbolAtom:
		return true
	case floorAtom, modAtom:
		m, ok := a.den.Const()
		return ok && m > 0 && a.num.total()
	case minAtom, maxAtom:
		for _, x := range a.args {
			if !x.total() {
				return false
			}
		}
		return true
	}
	return false
}

// implied reports whether the conjunction of ps is proven to imply q: q is total (see total), and
// the premises that are total, with the negation of q, hold at no binding; or q is one of ps.
func (pv *prover) implied(ps []Pred, q Pred) bool {
	if q.IsTrue() {
		return true
	}
	if !total(q) {
		// Where q has no value (a division by zero, an exact quotient that does not divide), it
		// fails: only an equal premise is sure to fail there too, unless the premises' residues
		// make q total (see impliedPartial).
		return slices.ContainsFunc(ps, q.Equal) || pv.impliedPartial(ps, q)
	}
	args := make([]Pred, 0, len(ps)+1)
	partial := false
	for _, p := range ps {
		if total(p) {
			args = append(args, p)
		} else {
			partial = true
		}
	}
	return pv.unsat(And(append(args, Not(q))...), 0) || impliedByPeriod(ps, q) || partial && pv.impliedPartial(ps, q)
}

// impliedPartial reports whether the conjunction of ps is proven to imply q where q or some
// of ps are not total, for an exact quotient or a remainder by symbols that the premises make
// polynomials. Under the bounds the premises give each symbol (T >= 3 makes T+T//4-2 a divisor
// from 1), each symbol x of a premise x % m == r is m*u+r for a fresh symbol u, which makes
// 49*N*(H//7)*(W//7) % (H*W) == 0 the true 0 == 0 under H % 7 == 0 and W % 7 == 0; then the
// dividend of each floor division and remainder by a divisor that is not an integer is reduced
// (see reduced): 9*N*C*D % (A*B) is N*A*B % (A*B), 0, where A*B == 9*C*D. Where a premise holds,
// it has a value, the same as its substitution's, and no divisor of it is 0 (divisorsNotZero);
// q needs a value at every binding the premises leave (definedUnder), and what it becomes
// total.
func (pv *prover) impliedPartial(ps []Pred, q Pred) bool {
	var totals []Pred
	for _, p := range ps {
		if total(p) {
			totals = append(totals, p)
		}
	}
	vals, empty := narrowing(And(totals...))
	if empty {
		return true
	}
	if vals == nil {
		vals = map[string]Expr{}
	}
	sub := func(name string) (Expr, bool) { v, ok := vals[name]; return v, ok }
	narrowed := make([]Pred, 0, len(ps))
	for _, p := range ps {
		if np, ok := p.Subst(sub); ok {
			narrowed = append(narrowed, np)
		}
	}
	// The residues x % m == r of the premises, the greatest modulus of a symbol first (H % 6 == 0
	// says more than H % 3 == 0 beside it).
	type residue struct {
		a    *atom
		m, r int64
	}
	var rs []residue
	for _, p := range narrowed {
		if !total(p) {
			continue
		}
		for _, t := range p.Terms() {
			l, b, ok := atomOf(t)
			if !ok || b.kind != equal {
				continue
			}
			x, m, ok := remainder(l)
			if !ok {
				continue
			}
			a, ok := x.lone()
			if !ok || a.kind != symbolAtom || b.v < 0 || b.v >= m {
				continue
			}
			rs = append(rs, residue{a, m, b.v})
		}
	}
	// The residues of one symbol as one, by the Chinese remainder theorem: H % 2 == 0 and
	// H % 3 == 0 are H % 6 == 0.
	for i := 0; i < len(rs); i++ {
		for j := len(rs) - 1; j > i; j-- {
			x, y := rs[i], rs[j]
			if x.a != y.a {
				continue
			}
			l := lcm(x.m, y.m)
			if l > maxSplit {
				continue
			}
			r := x.r
			for r < l && r%y.m != y.r {
				r += x.m
			}
			if r >= l {
				return true // no value of the symbol has both residues: no binding satisfies ps
			}
			rs[i] = residue{x.a, l, r}
			rs = slices.Delete(rs, j, j+1)
		}
	}
	slices.SortStableFunc(rs, func(x, y residue) int { return cmp.Compare(y.m, x.m) })
	residues := false
	for _, rr := range rs {
		a := rr.a
		if v, ok := vals[a.name]; ok && !v.Equal(fromAtom(a)) {
			continue // a residue already, or bounds that the atom of p does not have
		}
		u := pv.quotientSymbol(a, rr.m, rr.r)
		if u == nil {
			return true // no value of x has the residue: no binding satisfies ps
		}
		v, ok := Add(Expr{t: []term{{c: ratInt(rr.m), m: []factor{{u, 1}}}}}, Int(rr.r))
		if !ok {
			return false
		}
		vals[a.name], residues = v, true
	}
	var facts []Pred
	for _, p := range narrowed {
		if !total(p) {
			facts = append(facts, divisorsNotZero(p)...)
		}
	}
	if !residues && len(facts) == 0 && total(q) {
		return false
	}
	args := make([]Pred, 0, len(ps)+len(facts)+1)
	var eqs []Expr
	for _, p := range append(ps, facts...) {
		np, ok := p.Subst(sub)
		if !ok || !total(np) {
			continue
		}
		args = append(args, np)
		for _, t := range np.Terms() {
			if t.kind() == pCmp && t.n.op == OpEq && !t.n.raw {
				eqs = append(eqs, t.n.e)
			}
		}
	}
	// A divisor is not 0 by its bounds, or, total, where the premises hold ((W+3)//6+W//3-1 is -1
	// or at least 1).
	notZero := func(d Expr) bool {
		return !d.ival().containsZero() || total(Eq(d, Expr{})) && pv.unsat(And(append(slices.Clone(args), Eq(d, Expr{}))...), 0)
	}
	if !definedUnder(q, sub, notZero) {
		return false
	}
	nq, ok := q.Subst(sub)
	if !ok {
		return false
	}
	if !total(nq) {
		if nq, ok = reduced(nq, eqs); !ok || !total(nq) {
			return false
		}
	}
	return pv.unsat(And(append(args, Not(nq))...), 0)
}

// reduced returns p with the dividend n of each floor division and remainder by a divisor d that
// is not an integer replaced by n - g*e, for e the divisor or an equation e == 0 of eqs and a
// monomial g that makes g*e hold a term of n, where that makes the atom total: the same value
// wherever the equations hold and d is not 0 ((4*B*T-8*B) % (T-2) is 0); and each exact quotient
// of a whole multiple g*d by d replaced by g. ok is false when no atom is so replaced.
func reduced(p Pred, eqs []Expr) (Pred, bool) {
	done := false
	out, ok := mapPred(p, func(a *atom) (Expr, bool) {
		if a.kind == quotAtom {
			g, ok := multipleOf(a.num, a.den)
			done = done || ok
			return g, ok
		}
		if a.kind != floorAtom && a.kind != modAtom || a.total() {
			return Expr{}, false
		}
		if a.num.IsZero() {
			done = true
			return Expr{}, true // 0 % d and 0 // d
		}
		// The divisor itself reduces by whole multiples: n % d is (n - g*d) % d, and n // d is
		// (n - g*d) // d + g, for a monomial g with an integer coefficient.
		for k, e := range append([]Expr{a.den}, eqs...) {
			for _, t := range a.num.t {
				for _, s := range e.t {
					g, ok := Quo(Expr{t: []term{t}}, Expr{t: []term{s}})
					if !ok || k == 0 && !g.integral() || slices.ContainsFunc(g.t[0].m, func(f factor) bool { return f.e < 0 }) {
						continue
					}
					ge, ok1 := Mul(g, e)
					n, ok2 := Sub(a.num, ge)
					if !ok1 || !ok2 {
						continue
					}
					var v Expr
					switch {
					case n.IsZero() && k == 0 && a.kind == floorAtom:
						v = g
					case n.IsZero():
						v = Expr{} // 0 % d, and 0 // d of an equation's multiple
					case a.kind == modAtom:
						v, ok = Mod(n, a.den)
					default:
						if v, ok = FloorDiv(n, a.den); ok && k == 0 {
							v, ok = Add(v, g)
						}
					}
					if ok && v.total() {
						done = true
						return v, true
					}
				}
			}
		}
		return Expr{}, false
	})
	return out, ok && done
}

// multipleOf returns g, a monomial with an integer coefficient, when n is g*d: 4*B*T+4*B*(T//4)-8*B
// is 4*B times T+T//4-2.
func multipleOf(n, d Expr) (Expr, bool) {
	if len(n.t) == 0 || len(d.t) == 0 {
		return Expr{}, len(n.t) == 0 && len(d.t) > 0
	}
	for _, s := range d.t {
		g, ok := Quo(Expr{t: n.t[:1]}, Expr{t: []term{s}})
		if !ok || !g.integral() {
			continue
		}
		if gd, ok := Mul(g, d); ok && gd.Equal(n) {
			return g, true
		}
	}
	return Expr{}, false
}

// divisorsNotZero returns, for p, a premise, the divisors of its comparisons outside a disjunction
// that are total, each not 0: where p holds, each has a value, so none of its divisors is 0
// ((X) % (4*(H-2)*(W-(2*W+2)//3)) == 0 gives W >= 3).
func divisorsNotZero(p Pred) []Pred {
	var out []Pred
	add := func(d Expr) {
		if d.total() {
			out = append(out, Ne(d, Expr{}))
		}
	}
	for _, t := range p.Terms() {
		if t.kind() != pCmp {
			continue
		}
		for _, e := range []Expr{t.n.e, t.n.rhs} {
			for _, tm := range e.t {
				for _, f := range tm.m {
					if f.e < 0 {
						add(fromAtom(f.a))
					}
				}
			}
		}
		walkAtoms(t, func(a *atom) {
			switch a.kind {
			case floorAtom, modAtom, quotAtom:
				if _, isConst := a.den.Const(); !isConst {
					add(a.den)
				}
			}
		})
	}
	return out
}

// definedUnder reports whether p has a value at every binding of its symbols that sub gives
// (each symbol within bounds, or m*u+r): each divisor of p (a symbol's negative power, the
// divisor of a floor division or a remainder) is not 0 there (nonZero of its substitution), and
// each side of a comparison has an integer value there (see whole: H/3 becomes u where H is
// 3*u), as has each exact quotient by a sum: there, its dividend a whole multiple of its divisor.
func definedUnder(p Pred, sub func(string) (Expr, bool), nonZero func(Expr) bool) bool {
	ok := true
	notZero := func(d Expr) {
		if v, fine := d.Subst(sub); !fine || !nonZero(v) {
			ok = false
		}
	}
	divisors := func(e Expr) {
		for _, t := range e.t {
			for _, f := range t.m {
				if f.e < 0 {
					notZero(fromAtom(f.a))
				}
			}
		}
	}
	var walk func(q Pred)
	walk = func(q Pred) {
		switch q.kind() {
		case pConst:
		case pCmp:
			for _, e := range []Expr{q.n.e, q.n.rhs} {
				divisors(e)
				if v, fine := e.Subst(sub); !fine || !v.whole() {
					ok = false
				}
			}
		default:
			for _, a := range q.n.args {
				walk(a)
			}
		}
	}
	walk(p)
	walkAtoms(p, func(a *atom) {
		switch a.kind {
		case quotAtom:
			// A value where its dividend is a whole multiple of its divisor.
			notZero(a.den)
			n, ok1 := a.num.Subst(sub)
			d, ok2 := a.den.Subst(sub)
			if g, fine := multipleOf(n, d); !ok1 || !ok2 || !fine || !g.whole() {
				ok = false
			}
			divisors(a.num)
		case floorAtom, modAtom:
			if _, isConst := a.den.Const(); !isConst {
				notZero(a.den)
			}
			divisors(a.num)
			divisors(a.den)
		case minAtom, maxAtom, floatAtom:
			for _, x := range a.args {
				divisors(x)
			}
		}
	})
	return ok
}

// whole reports whether e has an integer value wherever it has one: a polynomial with integer
// coefficients of symbols, floor divisions, exact quotients, values computed in floating point,
// and remainders and extrema of such.
func (e Expr) whole() bool { return e.integerTerms((*atom).whole) }

func (a *atom) whole() bool {
	switch a.kind {
	case modAtom:
		return a.num.whole() && a.den.whole()
	case minAtom, maxAtom:
		for _, x := range a.args {
			if !x.whole() {
				return false
			}
		}
	}
	return true // a symbol, a floor division, a value computed in floating point, an exact quotient
}

// unsat reports whether p, a canonical predicate, is proven to hold at no binding of its symbols
// within their bounds.
func (pv *prover) unsat(p Pred, depth int) bool {
	if pv.steps--; pv.steps < 0 {
		return false
	}
	if q, ok := congruent(p); ok {
		p = q
	}
	for range 4 {
		if p.IsFalse() {
			return true
		}
		q, changed := narrowed(p)
		if !changed {
			break
		}
		p = q
	}
	switch {
	case p.IsFalse():
		return true
	case p.IsTrue():
		return false
	}
	if done, empty := pv.enumerate(p); done {
		return empty
	}
	if depth >= proofDepth {
		return false
	}
	x, m := splitSymbol(p)
	if v := fewValues(p); v != nil && (x == nil || v.hi-v.lo < m) {
		// Each value of a symbol of no more values than a split on residues has cases.
		for c := v.lo; c <= v.hi; c++ {
			q, ok := p.Subst(func(name string) (Expr, bool) { return Int(c), name == v.name })
			if !ok || !pv.unsat(q, depth+1) {
				return false
			}
		}
		return true
	}
	if x != nil {
		for r := range m {
			q, ok := pv.residue(p, x, m, r)
			if !ok || !pv.unsat(q, depth+1) {
				return false
			}
		}
		return true
	}
	if a := extremumAtom(p); a != nil {
		// Each argument the least (for min) or the greatest (max), and the atom that argument.
		for i, x := range a.args {
			cases := []Pred{}
			for j, y := range a.args {
				switch {
				case j == i:
				case a.kind == minAtom:
					cases = append(cases, Le(x, y))
				default:
					cases = append(cases, Ge(x, y))
				}
			}
			q, ok := replaceAtom(p, a, x)
			if !ok {
				// The argument put in leaves int64 (3*min(T-3,2^62) is 3*T-9 or 3*2^62). A
				// constant c is a fresh symbol of bounds [c, c], whose multiples stay terms and
				// whose value enumerate computes exactly; otherwise, where the case holds, the
				// symbols it bounds from far above 0 are their least value plus a fresh symbol
				// from 0, in which the argument's terms are small.
				if c, isConst := x.Const(); isConst {
					pv.fresh++
					s := &atom{kind: symbolAtom, name: "\x00" + itoa(int64(pv.fresh)), order: -1, lo: c, hi: c, anon: true}
					q, ok = replaceAtom(p, a, fromAtom(s))
				} else {
					q, ok = pv.shifted(And(append(cases, p)...))
					cases = nil
				}
				if !ok {
					return false
				}
			}
			if !pv.unsat(And(append(cases, q)...), depth+1) {
				return false
			}
		}
		return true
	}
	if p.kind() == pOr || p.kind() == pAnd {
		// The disjunction of fewest terms: each of its terms with the rest.
		or, rest := p, []Pred(nil)
		if p.kind() == pAnd {
			i := -1
			for k, a := range p.n.args {
				if a.kind() == pOr && (i < 0 || len(a.n.args) < len(p.n.args[i].n.args)) {
					i = k
				}
			}
			if i < 0 {
				return false
			}
			or = p.n.args[i]
			rest = slices.Delete(slices.Clone(p.n.args), i, i+1)
		}
		for _, t := range or.n.args {
			if !pv.unsat(And(append(slices.Clone(rest), t)...), depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// shiftFrom is the least value from which shifted moves a symbol to 0.
const shiftFrom = 1 << 31

// shifted returns p, a conjunction, with each symbol x whose least value lo, within the bounds
// the comparisons of p give it (narrowing), is at least shiftFrom replaced by lo + u, for a fresh
// symbol u of x's order in [0, hi-lo]: the same values, with the constants lo brings in folded
// into the others. ok is false when no symbol is so bounded or the result cannot be kept.
func (pv *prover) shifted(p Pred) (Pred, bool) {
	sub, empty := narrowing(p)
	if empty {
		return False(), true
	}
	vals := map[string]Expr{}
	for name, a := range symbolAtoms(p) {
		if x, ok := sub[name]; ok {
			a = x.t[0].m[0].a
		}
		if a.lo == NegInf || a.lo < shiftFrom {
			continue
		}
		pv.fresh++
		u := &atom{kind: symbolAtom, name: a.name + "\x00" + itoa(int64(pv.fresh)), order: a.order, lo: 0, hi: Inf, anon: a.anon}
		if a.hi != Inf {
			u.hi = a.hi - a.lo
		}
		v, ok := Add(fromAtom(u), Int(a.lo))
		if !ok {
			return p, false
		}
		vals[name] = v
	}
	if len(vals) == 0 {
		return p, false
	}
	return p.Subst(func(name string) (Expr, bool) { v, ok := vals[name]; return v, ok })
}

// symbolAtoms returns the symbols of p by name, each once.
func symbolAtoms(p Pred) map[string]*atom {
	out := map[string]*atom{}
	p.symbols(func(a *atom) { out[a.name] = a })
	return out
}

// enumerate evaluates p at every binding of its symbols within their bounds when they are at most
// enumLimit: done reports whether it did, empty whether p held at none.
func (pv *prover) enumerate(p Pred) (done, empty bool) {
	syms := symbolAtoms(p)
	as := make([]*atom, 0, len(syms))
	n := int64(1)
	for _, a := range syms {
		if a.lo == NegInf || a.hi == Inf {
			return false, false
		}
		w := a.hi - a.lo + 1
		if w <= 0 || w > enumLimit || n*w > enumLimit {
			return false, false
		}
		n *= w
		as = append(as, a)
	}
	pv.steps -= int(n / 64)
	vals := make(map[string]int64, len(as))
	for _, a := range as {
		vals[a.name] = a.lo
	}
	value := func(name string) (int64, bool) { v, ok := vals[name]; return v, ok }
	for {
		if v, err := p.eval(value); err != nil || v {
			return true, false
		}
		k := 0
		for ; k < len(as); k++ {
			if vals[as[k].name] < as[k].hi {
				vals[as[k].name]++
				break
			}
			vals[as[k].name] = as[k].lo
		}
		if k == len(as) {
			return true, true
		}
	}
}

// narrowed returns p with each symbol whose bounds the comparisons of the conjunction p narrow
// replaced by a symbol of the same name and order with those bounds (narrowing), in canonical
// form again; changed is false when no bound narrows.
func narrowed(p Pred) (Pred, bool) {
	sub, empty := narrowing(p)
	switch {
	case empty:
		return False(), true
	case len(sub) == 0:
		return p, false
	}
	q, ok := p.Subst(func(name string) (Expr, bool) { x, ok := sub[name]; return x, ok })
	if !ok {
		return p, false
	}
	return q, true
}

// narrowing returns the symbols of p whose bounds the comparisons of the conjunction p narrow, as
// symbols of the same name and order with those bounds, by name; empty reports bounds that leave
// a symbol no value. The comparisons are those of a symbol alone (H >= 16), of a polynomial of
// one symbol (H*H <= 401 gives H <= 20, see polyBounds), and of a product of symbols and floor
// divisions whose other factors are positive (B*T == 20 with B <= 2 gives T >= 10 and T <= 20).
func narrowing(p Pred) (sub map[string]Expr, empty bool) {
	syms := symbolAtoms(p)
	if len(syms) == 0 {
		return nil, false
	}
	lo, hi := map[string]xint{}, map[string]xint{}
	for name, a := range syms {
		b := ivalOf(a.lo, a.hi)
		lo[name], hi[name] = b.lo, b.hi
	}
	none := false // a bound derived is false: p holds nowhere
	var bound func(q Pred, depth int)
	bound = func(q Pred, depth int) {
		if q.IsFalse() {
			none = true
			return
		}
		for _, t := range q.Terms() {
			l, b, ok := atomOf(t)
			if !ok {
				continue
			}
			if name, _, ok := l.Symbol(); ok {
				if _, known := syms[name]; !known {
					continue
				}
				f := &fact{l: l, lo: lo[name], hi: hi[name]}
				f.apply(b)
				lo[name], hi[name] = f.lo, f.hi
				continue
			}
			if x, from, to, ok := polyBounds(l, b, func(x string) (xint, xint) { return lo[x], hi[x] }); ok {
				lo[x], hi[x] = maxX(lo[x], from), minX(hi[x], to)
				continue
			}
			if depth < 4 {
				for _, c := range slices.Concat(productBounds(l, b), bilinearBounds(l, b), factorBounds(l, b), linearFactorBounds(l, b)) {
					bound(c, depth+1)
				}
			}
		}
	}
	bound(p, 0)
	if none {
		return nil, true
	}
	sub = map[string]Expr{}
	for name, a := range syms {
		l, h := lo[name], hi[name]
		if cmpX(l, h) > 0 {
			return nil, true
		}
		own := ivalOf(a.lo, a.hi)
		if cmpX(l, own.lo) == 0 && cmpX(h, own.hi) == 0 {
			continue
		}
		na := &atom{kind: symbolAtom, name: a.name, order: a.order, lo: NegInf, hi: Inf, anon: a.anon}
		if l.inf == 0 {
			na.lo = l.v
		}
		if h.inf == 0 {
			na.hi = h.v
		}
		sub[name] = fromAtom(na)
	}
	return sub, false
}

// productBounds returns the bounds that the comparison b of l, a product c*x^e*y*.../(u*v*...) of
// atoms with positive coefficient c = n/d, gives each atom x of positive power e whose co-factors
// are at least 1: x^e is in [d*lo(u*v*...)*lo/(n*hi(y*...)), d*hi(u*v*...)*hi/(n*lo(y*...))],
// and x within the e-th roots of those bounds (an even power bounds the size of x from above, and
// from below where x is not negative: B*B == 401 leaves no B from 1, B*B*T == 400 gives B in
// 10..20 where T <= 4), as comparisons of the atom (which for a floor division are bounds on its
// dividend). An exact quotient's divisor widens the bounds: T/N <= 4 gives T <= 4*hi(N), not
// T <= 4.
func productBounds(l Expr, b bound) []Pred {
	if len(l.t) != 1 || l.t[0].c.num <= 0 || len(l.t[0].m) < 1 || b.kind == other {
		return nil
	}
	t := l.t[0]
	if len(t.m) == 1 && t.c.num == 1 && t.c.den == 1 && t.m[0].e == 1 {
		return nil // the comparison of the atom itself
	}
	blo, bhi := minusInf, plusInf
	switch b.kind {
	case lower:
		blo = fin(b.v)
	case upper:
		bhi = fin(b.v)
	case equal:
		blo, bhi = fin(b.v), fin(b.v)
	}
	// A positive product of factors none of which is negative has every factor at least 1.
	positive := blo.sign() > 0 && !slices.ContainsFunc(t.m, func(f factor) bool { return f.a.ival().lo.sign() < 0 })
	var out []Pred
	for j, f := range t.m {
		if f.e < 1 {
			continue
		}
		if positive && f.a.ival().lo.sign() <= 0 {
			out = append(out, Ge(fromAtom(f.a), Int(1)))
		}
		// The co-factors of positive powers, with the numerator of c, in [plo, phi]; those of
		// negative powers, with its denominator, in [qlo, qhi].
		plo, phi := fin(t.c.num), fin(t.c.num)
		qlo, qhi := fin(t.c.den), fin(t.c.den)
		ok := true
		for k, g := range t.m {
			if k == j {
				continue
			}
			gb := g.a.ival()
			if positive {
				gb.lo = maxX(gb.lo, fin(1))
			}
			if cmpX(gb.lo, fin(1)) < 0 || cmpX(gb.hi, gb.lo) < 0 {
				ok = false // a co-factor that may be less than 1, or none at least 1 (H in 0..0)
				break
			}
			for range g.e {
				plo, phi = mulX(plo, gb.lo), mulX(phi, gb.hi)
			}
			for range -g.e {
				qlo, qhi = mulX(qlo, gb.lo), mulX(qhi, gb.hi)
			}
		}
		if !ok {
			continue
		}
		x := fromAtom(f.a)
		// x^e at least 1 is x at least 1 where e is odd or x is not negative.
		rootBelow := f.e%2 == 1 || f.a.ival().lo.sign() >= 0
		if blo.inf == 0 && phi.inf == 0 && blo.sign() > 0 && rootBelow {
			if v := rootX(divX(mulX(blo, qlo), phi, true), f.e, true); v.inf == 0 {
				out = append(out, Ge(x, Int(v.v)))
			}
		}
		if bhi.inf == 0 && bhi.sign() >= 0 {
			if v := rootX(divX(mulX(bhi, qhi), plo, false), f.e, false); v.inf == 0 {
				out = append(out, Le(x, Int(v.v)))
				if f.e%2 == 0 {
					out = append(out, Ge(x, Int(-v.v))) // |x| at most v
				}
			}
		}
	}
	return out
}

// factorBounds returns the bounds that the comparison b of l = g·Q gives Q and g, for g the
// product of the atoms of least value 1 common to every term of l (positiveFactor): where g·Q is
// at least v >= 1, Q is at least 1; where it equals such a v, g is at most v and Q at most v over
// g's least value (N*((W+2)//3)*(H//2-2) == 180 of a MatMul after a flatten: H//2-2 >= 1, so a
// Conv's H >= 6 is implied).
func factorBounds(l Expr, b bound) []Pred {
	if (b.kind != lower && b.kind != equal) || b.v < 1 {
		return nil
	}
	g, ok := positiveFactor(l)
	if !ok {
		return nil
	}
	q, ok := Quo(l, g)
	if !ok || len(q.t) < 2 {
		return nil
	}
	out := []Pred{Ge(q, Int(1))}
	if b.kind == equal {
		out = append(out, Le(g, Int(b.v)))
		if lo, _ := g.Bounds(); lo >= 1 {
			out = append(out, Le(q, Int(b.v/lo)))
		}
	}
	return out
}

// bilinearBounds returns the bounds that an equation l == v gives the atoms x and y of
// l = c*x*y + p*x + q*y (integers c > 0, p, q): c*l + p*q = (c*x + q)*(c*y + p), a product of two
// factors that, where it is positive and they cannot both be negative, are each at least 1 and at
// most it ((a-2)*(b-2) == 25 of a Gemm after a flatten of valid convolutions: a, b in 3..27).
func bilinearBounds(l Expr, b bound) []Pred {
	if b.kind != equal || len(l.t) < 2 || len(l.t) > 3 || len(l.t[0].m) != 2 || l.t[0].m[0].e != 1 || l.t[0].m[1].e != 1 || !l.t[0].c.isInt() {
		return nil
	}
	x, y := l.t[0].m[0].a, l.t[0].m[1].a
	c := l.t[0].c.num
	var p, q int64
	for _, t := range l.t[1:] {
		if len(t.m) != 1 || t.m[0].e != 1 || !t.c.isInt() {
			return nil
		}
		switch a := t.m[0].a; {
		case cmpAtom(a, x) == 0:
			p = t.c.num
		case cmpAtom(a, y) == 0:
			q = t.c.num
		default:
			return nil
		}
	}
	cv, ok1 := mul64(c, b.v)
	pq, ok2 := mul64(p, q)
	k, ok3 := add64(cv, pq)
	if !ok1 || !ok2 || !ok3 || k <= 0 {
		return nil
	}
	// X = c*x + q and Y = c*y + p: of one sign, since their product k is positive, and positive
	// unless both can be negative with a product that reaches k.
	bx := addI(mulI(point(c), x.ival()), point(q))
	by := addI(mulI(point(c), y.ival()), point(p))
	if bx.lo.sign() < 0 && by.lo.sign() < 0 && cmpX(mulX(bx.lo, by.lo), fin(k)) >= 0 {
		return nil
	}
	bx.lo, by.lo = maxX(bx.lo, fin(1)), maxX(by.lo, fin(1))
	var out []Pred
	for _, f := range []struct {
		a       *atom
		off     int64
		partner ival
	}{{x, q, by}, {y, p, bx}} {
		least := maxX(f.partner.lo, fin(1))
		top := divX(fin(k), least, false) // the factor is at most k over the least of its partner
		bottom := fin(1)
		if f.partner.hi.inf == 0 && f.partner.hi.v > 0 {
			bottom = maxX(bottom, divX(fin(k), f.partner.hi, true))
		}
		// c*a + off in [bottom, top]
		if top.inf == 0 {
			out = append(out, Le(fromAtom(f.a), Int(floorDiv(top.v-f.off, c))))
		}
		if bottom.inf == 0 {
			out = append(out, Ge(fromAtom(f.a), Int(-floorDiv(-(bottom.v-f.off), c))))
		}
	}
	return out
}

// fewValues returns the symbol of p of fewest values, at least 2 and at most maxValues, within its
// bounds: where enumerate cannot try every binding, one of its values at a time makes the others
// simpler (B in 0..1 makes (2*T+1)*B == 8*T*W an equation of T and W); nil when none has so few.
func fewValues(p Pred) *atom {
	var best *atom
	for _, x := range symbolAtoms(p) {
		if x.lo == NegInf || x.hi == Inf || x.hi-x.lo < 1 || x.hi-x.lo >= maxValues {
			continue
		}
		if best == nil || x.hi-x.lo < best.hi-best.lo || x.hi-x.lo == best.hi-best.lo && x.order < best.order {
			best = x
		}
	}
	return best
}

// splitSymbol returns the symbol of p to split on residues, and the modulus: the symbol of least
// modulus above 1, the period of the floor divisions and remainders of p that hold it (see
// period); nil when none has one up to maxSplit.
func splitSymbol(p Pred) (*atom, int64) {
	var best *atom
	var bestM int64
	for _, x := range symbolAtoms(p) {
		m := int64(1)
		ok := true
		walkAtoms(p, func(a *atom) {
			if !ok || a.kind != floorAtom && a.kind != modAtom || !a.num.Mentions(x.name) {
				return
			}
			q, _, fine := atomPeriod(a, x.name)
			if !fine {
				return
			}
			if m = lcm(m, q); m > maxSplit {
				ok = false
			}
		})
		if ok && m > 1 && (best == nil || m < bestM || m == bestM && x.order < best.order) {
			best, bestM = x, m
		}
	}
	return best, bestM
}

func lcm(a, b int64) int64 {
	g := int64(gcd(uint64(a), uint64(b)))
	if l, ok := mul64(a/g, b); ok {
		return l
	}
	return maxSplit + 1
}

// walkAtoms calls f for every compound atom of p, nested ones included.
func walkAtoms(p Pred, f func(*atom)) {
	switch p.kind() {
	case pConst:
	case pCmp:
		p.n.e.walkAtoms(f)
		p.n.rhs.walkAtoms(f)
	default:
		for _, a := range p.n.args {
			walkAtoms(a, f)
		}
	}
}

func (e Expr) walkAtoms(f func(*atom)) {
	for _, t := range e.t {
		for _, x := range t.m {
			a := x.a
			switch a.kind {
			case symbolAtom:
				continue
			case minAtom, maxAtom, floatAtom:
				for _, y := range a.args {
					y.walkAtoms(f)
				}
			default:
				a.num.walkAtoms(f)
				a.den.walkAtoms(f)
			}
			f(a)
		}
	}
}

// period returns the least p > 0 for which e(x+p) - e(x) is a constant inc at every x, e
// quasi-affine in the symbol named x: a sum of multiples of x (integer ones, or rational ones of
// an exact quotient, H/3), of floor divisions and remainders
// by positive integers of quasi-affine dividends, and of terms without x. ok is false for another
// e, or a period past maxSplit.
func period(e Expr, x string) (p, inc int64, ok bool) {
	p = 1
	type part struct{ c, p, inc int64 }
	var parts []part
	for _, t := range e.t {
		dep := false
		for _, f := range t.m {
			dep = dep || f.a.mentions(x)
		}
		if !dep {
			continue
		}
		if len(t.m) != 1 || t.m[0].e != 1 || t.c.den <= 0 {
			return 0, 0, false
		}
		q, d, ok := atomPeriod(t.m[0].a, x)
		if !ok {
			return 0, 0, false
		}
		// A coefficient n/den (an exact quotient, H/3) changes by whole steps every den/g
		// periods of its atom, g = gcd(n*d, den): (1/3)*H has period 3, increment 1.
		c := t.c.num
		if t.c.den != 1 {
			nd, ok := mul64(t.c.num, d)
			if !ok {
				return 0, 0, false
			}
			k := t.c.den / int64(gcd(abs64(nd), uint64(t.c.den)))
			if q, ok = mul64(q, k); !ok || q > maxSplit {
				return 0, 0, false
			}
			c, d = 1, nd*k/t.c.den
		}
		parts = append(parts, part{c, q, d})
		if p = lcm(p, q); p > maxSplit {
			return 0, 0, false
		}
	}
	for _, pt := range parts {
		k, ok1 := mul64(pt.c, pt.inc)
		k, ok2 := mul64(k, p/pt.p)
		s, ok3 := add64(inc, k)
		if !ok1 || !ok2 || !ok3 {
			return 0, 0, false
		}
		inc = s
	}
	return p, inc, true
}

// atomPeriod returns the period and increment (see period) of the atom a in the symbol x.
func atomPeriod(a *atom, x string) (p, inc int64, ok bool) {
	switch a.kind {
	case symbolAtom:
		if a.name == x {
			return 1, 1, true
		}
		return 1, 0, true
	case floorAtom, modAtom:
		m, ok := a.den.Const()
		if !ok || m <= 0 {
			return 0, 0, false
		}
		p0, d, ok := period(a.num, x)
		if !ok {
			return 0, 0, false
		}
		k := m / int64(gcd(abs64(d), uint64(m)))
		if p, ok = mul64(p0, k); !ok || p > maxSplit {
			return 0, 0, false
		}
		if a.kind == modAtom {
			return p, 0, true
		}
		dk, ok := mul64(d, k)
		return p, dk / m, ok
	}
	return 0, 0, false
}

// mentions reports whether the atom depends on the symbol named x.
func (a *atom) mentions(x string) bool {
	if a.kind == symbolAtom {
		return a.name == x
	}
	return fromAtom(a).Mentions(x)
}

// residue returns p with the symbol x replaced by m*q+r, for a fresh symbol q whose bounds keep
// m*q+r within x's; ok is false when no value of x has that residue, or the result cannot be kept.
func (pv *prover) residue(p Pred, x *atom, m, r int64) (Pred, bool) {
	q := pv.quotientSymbol(x, m, r)
	if q == nil {
		return False(), true
	}
	val, ok := Add(Expr{t: []term{{c: ratInt(m), m: []factor{{q, 1}}}}}, Int(r))
	if !ok {
		return Pred{}, false
	}
	out, ok := p.Subst(func(name string) (Expr, bool) {
		if name == x.name {
			return val, true
		}
		return Expr{}, false
	})
	return out, ok
}

// quotientSymbol returns a fresh symbol q with the bounds of (x-r)/m for the values x of residue r
// modulo m, of x's order; nil when x has no such value.
func (pv *prover) quotientSymbol(x *atom, m, r int64) *atom {
	lo, hi := int64(NegInf), int64(Inf)
	if x.lo != NegInf {
		lo = -floorDiv(-(x.lo - r), m) // ceil((x.lo-r)/m)
	}
	if x.hi != Inf {
		hi = floorDiv(x.hi-r, m)
	}
	if lo > hi {
		return nil
	}
	pv.fresh++
	return &atom{kind: symbolAtom, name: x.name + "\x00" + itoa(int64(pv.fresh)), order: x.order, lo: lo, hi: hi, anon: x.anon}
}

// extremumAtom returns a min or max atom of p whose arguments hold no other, nil when p has none.
func extremumAtom(p Pred) *atom {
	var found *atom
	walkAtoms(p, func(a *atom) {
		if found == nil && (a.kind == minAtom || a.kind == maxAtom) {
			found = a
		}
	})
	return found
}

// replaceAtom returns p with the atom a, a minimum or maximum, replaced by x (see mapPred).
func replaceAtom(p Pred, a *atom, x Expr) (Pred, bool) {
	return mapPred(p, func(b *atom) (Expr, bool) {
		if b.kind == a.kind && b.key == a.key {
			return x, true
		}
		return Expr{}, false
	})
}

// mapPred returns p with each atom that f replaces replaced (the outermost first), its
// expressions and comparisons made again in canonical form, and a comparison the replacement
// leaves with no value false (see mapExpr); ok is false when an expression cannot be kept.
func mapPred(p Pred, f func(*atom) (Expr, bool)) (Pred, bool) {
	switch p.kind() {
	case pConst:
		return p, true
	case pCmp:
		if !p.n.raw {
			e, frac, ok := mapSum(p.n.e, f)
			switch {
			case !ok:
				return Pred{}, false
			case frac:
				// Where the atoms are what replaces them, a whole sum and a constant that is not
				// an integer (N-1/3, of N-1/max(N,3) where max(N,3) is 3) has no value: p fails.
				// Another sum is refused, as mapExpr refuses it.
				if i := slices.IndexFunc(e.t, func(t term) bool { return len(t.m) == 0 }); i >= 0 &&
					!e.t[i].c.isInt() && (Expr{t: slices.Delete(slices.Clone(e.t), i, i+1)}).whole() {
					return False(), true
				}
				return Pred{}, false
			}
			return canon(p.n.op, e, func() string { return cmpText(e, p.n.op, Expr{}) }), true
		}
		e, ok := mapExpr(p.n.e, f)
		if !ok {
			return Pred{}, false
		}
		r, ok := mapExpr(p.n.rhs, f)
		if !ok {
			return Pred{}, false
		}
		return Cmp(e, p.n.op, r), true
	}
	args := make([]Pred, len(p.n.args))
	for i, a := range p.n.args {
		var ok bool
		if args[i], ok = mapPred(a, f); !ok {
			return Pred{}, false
		}
	}
	if p.n.kind == pAnd {
		return And(args...), true
	}
	return Or(args...), true
}

// mapExpr returns e with each atom that f replaces replaced, the others made again of their
// replaced parts. ok is false where a coefficient that is not an integer appears: e, a side of a
// comparison or an operand, is an integer wherever it has a value, and a negative power or an
// exact quotient that becomes a constant (1/max(N,3) with 3 for max(N,3)) would leave a sum
// (N-1/3) whose canonical form (3*N-1) has a value where e has none (N == 1, where 1/3 does not
// divide).
func mapExpr(e Expr, f func(*atom) (Expr, bool)) (Expr, bool) {
	v, frac, ok := mapSum(e, f)
	if !ok || frac {
		return Expr{}, false
	}
	return v, true
}

// mapSum returns e with each atom that f replaces replaced, the others made again of their
// replaced parts, and frac, whether a coefficient that is not an integer appears where e has
// none (which mapExpr refuses); ok is false where v cannot be kept.
func mapSum(e Expr, f func(*atom) (Expr, bool)) (v Expr, frac, ok bool) {
	v, _, ok = e.rebuild(func(a *atom) (Expr, bool) { return mapAtom(a, f) })
	return v, ok && e.intCoefficients() && !v.intCoefficients(), ok
}

// intCoefficients reports whether every term of e has an integer coefficient.
func (e Expr) intCoefficients() bool {
	return !slices.ContainsFunc(e.t, func(t term) bool { return !t.c.isInt() })
}

func mapAtom(a *atom, f func(*atom) (Expr, bool)) (Expr, bool) {
	if v, ok := f(a); ok {
		return v, true
	}
	switch a.kind {
	case symbolAtom:
		return fromAtom(a), true
	case floatAtom:
		return a.refloat(func(e Expr) (Expr, bool) { return mapExpr(e, f) })
	case minAtom, maxAtom:
		args := make([]Expr, 0, len(a.args))
		for _, x := range a.args {
			v, ok := mapExpr(x, f)
			if !ok {
				return Expr{}, false
			}
			args = appendArgs(args, a.kind, v)
		}
		return extremumOf(a.kind, args)
	}
	n, ok1 := mapExpr(a.num, f)
	d, ok2 := mapExpr(a.den, f)
	if !ok1 || !ok2 {
		return Expr{}, false
	}
	switch a.kind {
	case floorAtom:
		return FloorDiv(n, d)
	case modAtom:
		return Mod(n, d)
	}
	return Quo(n, d)
}

// linearFactorBounds returns the bounds that the comparison b of l gives the two factors of l
// when l, linear in one of its atoms x, is a product plus a constant: l = U·x + V with V = w·U +
// k (w rational, k an integer) is U·(x+w) + k, so that q·l - q·k = U·(q·x + p) for w = p/q, which
// l >= v or l == v compares with P = q·(v-k). A factor whose least value lo is at least 1 leaves
// the other the sign of P (at least 1, 0 or -1 where P is), and, where l == v, at most |P|/lo in
// size: N*(2*W-1)*((H+1)//2-1) == 153 gives (H+1)//2-1 >= 1, H >= 3, where 2*W-1 >= 1; T*W+T ==
// W+1, (T-1)*(W+1) == 0, gives T == 1. A factor of least value 0 where P >= 1 leaves both at
// least 1: A*B*C+A == A*B+A*C+2, A*(C-1)*(B-1) == 2, gives B >= 2 where B >= 1.
func linearFactorBounds(l Expr, b bound) []Pred {
	if (b.kind != lower && b.kind != equal) || len(l.t) < 2 || !l.total() {
		return nil
	}
	var out []Pred
	var tried []*atom
	for _, t := range l.t {
		for _, f := range t.m {
			if f.e != 1 || slices.ContainsFunc(tried, func(a *atom) bool { return cmpAtom(a, f.a) == 0 }) {
				continue
			}
			tried = append(tried, f.a)
			out = append(out, factorPair(l, b, f.a)...)
		}
	}
	return out
}

// factorPair returns linearFactorBounds' bounds of l = U·(x+w) + k for the atom x.
func factorPair(l Expr, b bound, x *atom) []Pred {
	var with, rest []term
	for _, t := range l.t {
		i := slices.IndexFunc(t.m, func(f factor) bool { return cmpAtom(f.a, x) == 0 })
		switch {
		case i < 0:
			rest = append(rest, t)
		case t.m[i].e != 1:
			return nil
		default:
			with = append(with, term{c: t.c, m: slices.Delete(slices.Clone(t.m), i, i+1)})
		}
	}
	u, ok1 := normalize(with)
	v, ok2 := normalize(rest)
	if !ok1 || !ok2 || len(u.t) < 2 {
		return nil
	}
	uv, _ := split(u)
	vv, _ := split(v)
	w := rat{0, 1}
	if len(vv.t) > 0 {
		var ok bool
		if w, ok = ratio(vv, uv); !ok {
			return nil
		}
	}
	wu, ok := scaleTerms(u, w)
	if w.num == 0 {
		wu, ok = Expr{}, true
	}
	if !ok {
		return nil
	}
	kx, ok := Sub(v, wu)
	if !ok {
		return nil
	}
	k, ok := kx.Const()
	if !ok {
		return nil
	}
	// q·l - q·k = U·h for h = q·x + p.
	h, ok := Add(Expr{t: []term{{c: ratInt(w.den), m: []factor{{x, 1}}}}}, Int(w.num))
	if !ok {
		return nil
	}
	d, ok1 := add64(b.v, -k)
	prod, ok2 := mul64(d, w.den)
	if !ok1 || !ok2 || prod == math.MinInt64 {
		return nil
	}
	if uh, ok := Mul(u, h); !ok || func() bool {
		ql, ok1 := scaleTerms(l, ratInt(w.den))
		qk, ok2 := Sub(ql, Int(k*w.den))
		return !ok1 || !ok2 || !qk.Equal(uh)
	}() {
		return nil
	}
	var out []Pred
	for _, f := range [2][2]Expr{{u, h}, {h, u}} {
		lo, _ := f[0].Bounds()
		if lo == 0 && prod >= 1 {
			// Neither factor 0 where their product is positive: both at least 1.
			out = append(out, Ge(f[0], Int(1)), Ge(f[1], Int(1)))
		}
		if lo < 1 {
			continue
		}
		// f[0] >= 1 leaves f[1] the sign of the product, and at most its size over lo.
		switch eq := b.kind == equal; {
		case prod >= 1:
			out = append(out, Ge(f[1], Int(1)))
			if eq {
				out = append(out, Le(f[1], Int(prod/lo)))
			}
		case prod == 0 && eq:
			out = append(out, Eq(f[1], Int(0)))
		case prod == 0:
			out = append(out, Ge(f[1], Int(0)))
		default:
			out = append(out, Ge(f[1], Int(-(-prod/lo))))
			if eq {
				out = append(out, Le(f[1], Int(-1)))
			}
		}
	}
	return out
}

// congruent returns p, a conjunction, with each remainder X % m (m a constant) that an equation
// l == v of it, of other atoms, decides replaced by its value: where X - c·l, for some c in 1..m-1, has every term
// but its constant an integer multiple of m (and an integer value), X % m is (c·v + that
// constant) % m wherever l == v ((N*H*W+N*H) % 2 under N*H*W+3*N*H == 432 is 0).
func congruent(p Pred) (Pred, bool) {
	var eqs [][2]Expr
	for _, t := range p.Terms() {
		if l, b, ok := atomOf(t); ok && b.kind == equal && l.total() {
			eqs = append(eqs, [2]Expr{l, Int(b.v)})
		}
	}
	if len(eqs) == 0 {
		return p, false
	}
	vals := map[string]int64{}
	walkAtoms(p, func(a *atom) {
		m, ok := a.den.Const()
		if a.kind != modAtom || !ok || m < 2 || m > 64 || !a.num.total() {
			return
		}
		if _, done := vals[a.key]; done {
			return
		}
		for _, eq := range eqs {
			own := false // the equation of the remainder itself, which replacing it would lose
			eq[0].walkAtoms(func(b *atom) { own = own || b.key == a.key })
			if own {
				continue
			}
			if r, ok := congruence(a.num, m, eq[0], eq[1]); ok {
				vals[a.key] = r
				return
			}
		}
	})
	if len(vals) == 0 {
		return p, false
	}
	q, ok := mapPred(p, func(a *atom) (Expr, bool) {
		if r, ok := vals[a.key]; ok && a.kind == modAtom {
			return Int(r), true
		}
		return Expr{}, false
	})
	return q, ok
}

// congruence returns X % m where l == v (see congruent).
func congruence(x Expr, m int64, l, v Expr) (int64, bool) {
	for c := int64(1); c < m; c++ {
		cl, ok1 := scaleTerms(l, ratInt(c))
		d, ok2 := Sub(x, cl)
		if !ok1 || !ok2 {
			return 0, false
		}
		dv, k := split(d)
		if slices.ContainsFunc(dv.t, func(t term) bool { return !t.c.isInt() || t.c.num%m != 0 }) {
			continue
		}
		cv, ok1 := Mul(v, Int(c))
		s, ok2 := cv.Const()
		s, ok3 := add64(s, k)
		if !ok1 || !ok2 || !ok3 {
			return 0, false
		}
		return s - m*floorDiv(s, m), true
	}
	return 0, false
}
