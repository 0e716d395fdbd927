package sym

// Readable forms of conditions of several symbols (see simplify): a case split on a symbol's bound
// folded where its cases agree, a product equal to 0 as its factors, and each part of one symbol in
// its simplest form.

import "slices"

// severalSymbols returns p, a total condition of several symbols, in the simplest form (simpler)
// of those this file finds that are proven equal to it wherever the conditions before hold.
func severalSymbols(p Pred, before []Pred, prove func([]Pred, Pred) bool) Pred {
	best := p
	q := p
	if r := underSiblings(p, before, prove); simpler(r, best) {
		best, q = r, r
	}
	for range 2 {
		if r := oneSymbolParts(zeroProducts(q), before, prove); simpler(r, best) {
			best = r
		}
		if best.kind() != pOr {
			break
		}
		q = foldCases(best, before, prove)
		if !simpler(q, best) {
			break
		}
		best = q
	}
	if q := cofactors(best, before, prove); simpler(q, best) {
		best = q
	}
	// A part now of one symbol may imply a sibling it did not before (W in {1, 3, 6}, of W == 1
	// || W % 3 == 0 beside W <= 7, implies it).
	if q := underSiblings(best, before, prove); simpler(q, best) {
		best = q
	}
	if best.kind() == pConst {
		return p // never or always with those before: Minimize tells which, and with which
	}
	return best
}

// underSiblings returns p with each term of a conjunction that the others imply (with the
// conditions before) left out, and each case of a disjunction among them that they contradict:
// EQ && H >= 4 && (W <= 3 || H % 4 <= 1) is EQ && H >= 4 && H % 4 <= 1 where EQ and H >= 4 leave
// W no value up to 3, and H % 4 <= 1 && W % 4 <= 1 may imply EQ. Equal to p wherever the
// conditions before hold.
func underSiblings(p Pred, before []Pred, prove func([]Pred, Pred) bool) Pred {
	switch p.kind() {
	case pOr:
		args := make([]Pred, len(p.n.args))
		for i, a := range p.n.args {
			args[i] = underSiblings(a, before, prove)
		}
		return Or(args...)
	case pAnd:
	default:
		return p
	}
	args := slices.Clone(p.n.args)
	others := func(i int) []Pred {
		return append(append(slices.Clip(before), args[:i]...), args[i+1:]...)
	}
	for i, a := range args {
		if a.kind() != pOr {
			continue
		}
		sib := others(i)
		var kept []Pred
		for _, d := range a.n.args {
			if !prove(sib, Not(d)) {
				kept = append(kept, underSiblings(d, sib, prove))
			}
		}
		args[i] = Or(kept...)
	}
	// The hardest to read first: implied by the others, it goes.
	order := make([]Pred, len(args))
	copy(order, args)
	slices.SortStableFunc(order, func(a, b Pred) int { return predSize(b) - predSize(a) })
	for _, t := range order {
		i := slices.IndexFunc(args, t.Equal)
		if i >= 0 && prove(others(i), t) {
			args = slices.Delete(args, i, i+1)
		}
	}
	return And(args...)
}

// cofactors returns p in the simplest form (simpler) of t || B, !t || A, !t && B and t && A, for a
// comparison t of one symbol among p's terms, where A is p with t true, B with t false, each in its
// simplest form under t or !t (oneSymbolParts), and the other of them is always true or never
// (H <= 6 && (H == 3 || W == 2) || (H == 3 || H >= 7) && (W == 2 || H % 9 in {3, 7, 8}) is W == 2
// || H % 9 in {3, 7, 8}: with W == 2 it holds at every H). p as it is when none is simpler.
func cofactors(p Pred, before []Pred, prove func([]Pred, Pred) bool) Pred {
	if p.kind() != pAnd && p.kind() != pOr {
		return p
	}
	var lits []Pred
	var walk func(q Pred)
	walk = func(q Pred) {
		switch q.kind() {
		case pConst:
		case pCmp:
			if oneSymbolCmp(q) && !slices.ContainsFunc(lits, q.Equal) {
				lits = append(lits, q)
			}
		default:
			for _, a := range q.n.args {
				walk(a)
			}
		}
	}
	walk(p)
	best := p
	for _, t := range lits {
		nt := Not(t)
		a := oneSymbolParts(withTerm(p, t, True()), append(slices.Clip(before), t), prove)
		b := oneSymbolParts(withTerm(p, t, False()), append(slices.Clip(before), nt), prove)
		for _, c := range []struct {
			q  Pred
			ok bool
		}{{Or(t, b), a.IsTrue()}, {Or(nt, a), b.IsTrue()}, {And(nt, b), a.IsFalse()}, {And(t, a), b.IsFalse()}} {
			if c.ok && simpler(c.q, best) {
				best = c.q
			}
		}
	}
	return best
}

// withTerm returns p with each of its comparisons equal to t replaced by v.
func withTerm(p Pred, t, v Pred) Pred {
	return mapCmps(p, func(c Pred) Pred {
		if c.Equal(t) {
			return v
		}
		return c
	})
}

// foldCases returns p, a disjunction of two cases, g && A || !g && B (the zero-copy and broadcast
// rules split on a size that may be 0: A && H >= 5 || H <= 4 && B), in the simplest form (simpler)
// proven equal to it wherever the conditions before hold: A where B is A under !g, B where A is B
// under g, A || !g where B always holds under !g, A && g where it never does (and the same of B
// under g). p as it is when none is proven simpler.
func foldCases(p Pred, before []Pred, prove func([]Pred, Pred) bool) Pred {
	if len(p.n.args) != 2 {
		return p
	}
	x, y := p.n.args[0].Terms(), p.n.args[1].Terms()
	for i, g := range x {
		j := slices.IndexFunc(y, Not(g).Equal)
		if j < 0 || !total(g) {
			continue
		}
		a := And(slices.Delete(slices.Clone(x), i, i+1)...)
		b := And(slices.Delete(slices.Clone(y), j, j+1)...)
		ng := y[j]
		under := func(c Pred, ps ...Pred) []Pred { return append(append(slices.Clip(before), c), ps...) }
		best := p
		try := func(q Pred, ok func() bool) {
			if simpler(q, best) && ok() {
				best = q
			}
		}
		try(a, func() bool { return prove(under(ng, b), a) && prove(under(ng, a), b) })
		try(b, func() bool { return prove(under(g, a), b) && prove(under(g, b), a) })
		try(Or(a, ng), func() bool { return prove(under(ng), b) })
		try(Or(b, g), func() bool { return prove(under(g), a) })
		try(And(a, g), func() bool { return prove(under(ng), Not(b)) })
		try(And(b, ng), func() bool { return prove(under(g), Not(a)) })
		return best
	}
	return p
}

// oneSymbolParts returns p with each of its terms (of a conjunction or disjunction, at any depth)
// that is a total condition of one symbol in its simplest form under the conditions before
// (readable), and each other total term of a conjunction narrowed under the comparisons of one
// symbol beside it (narrowUnder: H >= 4 && W*min(H,4) == 8 is H >= 4 && W == 2), as eachPart
// rewrites them in turn: equal to p wherever they hold.
func oneSymbolParts(p Pred, before []Pred, prove func([]Pred, Pred) bool) Pred {
	if p.kind() == pConst {
		return p
	}
	if names := p.SymbolNames(); len(names) == 1 && total(p) {
		return readable(p, before, prove)
	}
	if p.kind() == pCmp {
		return p
	}
	return eachPart(p, before, prove)
}

// eachPart returns p, a conjunction or disjunction, with each of its terms rewritten by
// oneSymbolParts in turn, under the conditions before and, in a conjunction, the comparisons of
// one symbol beside it as they stand once the terms before it are rewritten: equal to p wherever
// the conditions before hold. A term is never rewritten under itself: (T+55)//72 >= (T+1)//18-
// 536870911 beside T >= 35 and 3*((T+1)//18) % 4 == 0 is not the remainders at which the three
// hold, which drop its bound (T of about 1.3e10). A term that is not total keeps its symbols'
// bounds: N == 1 && 2*N != N/(N+3) fails at N == 1, where N/(N+3) has no value, and its second
// term narrowed to N == 1 would read 2 != 1/4, true.
func eachPart(p Pred, before []Pred, prove func([]Pred, Pred) bool) Pred {
	args := slices.Clone(p.n.args)
	for i, a := range args {
		var beside []Pred
		if p.n.kind == pAnd {
			for j, b := range args {
				if j != i && oneSymbolCmp(b) {
					beside = append(beside, b)
				}
			}
		}
		if len(beside) > 0 && total(a) && !oneSymbolCmp(a) {
			if q, ok := narrowUnder(And(beside...), a); ok {
				a = q
			}
		}
		args[i] = oneSymbolParts(a, append(slices.Clip(before), beside...), prove)
	}
	if p.n.kind == pAnd {
		return And(args...)
	}
	return Or(args...)
}

// oneSymbolCmp reports whether p is a comparison of one symbol that has a value wherever the
// symbol has one (total): H >= 4, T % 8 == 0.
func oneSymbolCmp(p Pred) bool {
	return p.kind() == pCmp && len(p.SymbolNames()) == 1 && total(p)
}

// zeroProducts returns p with each equation or inequation of a product with 0 as those of its
// factors: (H//2)*(W//2-2*(W//4)) == 0 is H//2 == 0 || W//2 % 2 == 0, which read as H <= 1 ||
// W//2 % 2 == 0.
func zeroProducts(p Pred) Pred {
	return mapCmps(p, func(c Pred) Pred {
		n := c.n
		if n.raw || n.op == OpGe {
			return c
		}
		fs := productFactors(n.e, 4)
		if len(fs) < 2 {
			if e, ok := expandRemainders(n.e); ok {
				fs = productFactors(e, 4)
			}
		}
		if len(fs) < 2 {
			return c
		}
		ps := make([]Pred, len(fs))
		for i, f := range fs {
			ps[i] = Cmp(f, n.op, Expr{})
		}
		if n.op == OpEq {
			return Or(ps...)
		}
		return And(ps...)
	})
}

// expandRemainders returns e with each remainder by a positive integer, x % c, written x -
// c*(x//c), where that floor division may be an atom of e's other terms: the canonical floor of a
// floor, ((2*H+1)//3+1)//3, is (2*H+4)//9, which the remainder ((2*H+1)//3+1) % 3 hides. ok is
// false when e holds no such remainder.
func expandRemainders(e Expr) (Expr, bool) {
	found := false
	out, ok := mapExpr(e, func(a *atom) (Expr, bool) {
		c, isConst := a.den.Const()
		if a.kind != modAtom || !isConst || c <= 0 {
			return Expr{}, false
		}
		f, ok1 := FloorDiv(a.num, a.den)
		cf, ok2 := Mul(Int(c), f)
		if !ok1 || !ok2 {
			return Expr{}, false
		}
		v, ok := Sub(a.num, cf)
		found = found || ok
		return v, ok
	})
	return out, ok && found
}

// productFactors returns factors of e, an integral polynomial, whose product is e up to a constant
// not 0: the atoms of the monomial common to its terms, and of what is left, (x+R)·A for an atom
// x of degree 1 where e = x·A + R·A (u·X+3·v·Y-u·Y-3·v·X is (u-3·v)·(X-Y); H·(W-2·(W//2)) - W % 2
// is (H-1)·(W % 2)), each factored again to depth. e alone when it is no such product.
func productFactors(e Expr, depth int) []Expr {
	if depth == 0 || len(e.t) < 2 || !e.integral() {
		return []Expr{e}
	}
	if _, m, q, ok := commonPart(e); ok {
		if len(m) == 0 {
			return productFactors(q, depth-1)
		}
		var out []Expr
		for _, f := range m {
			if f.e < 0 {
				return []Expr{e}
			}
			out = append(out, fromAtom(f.a))
		}
		return append(out, productFactors(q, depth-1)...)
	}
	for _, x := range atomsOf(e) {
		var in, out []term
		linear := true
		for _, t := range e.t {
			switch power(t.m, x) {
			case 0:
				out = append(out, t)
			case 1:
				in = append(in, term{c: t.c, m: mulMono(t.m, []factor{{x, -1}})})
			default:
				linear = false
			}
		}
		if !linear || len(out) == 0 {
			continue
		}
		a, ok1 := normalize(in)
		b, ok2 := normalize(out)
		if !ok1 || !ok2 || len(a.t) < 2 {
			continue // a monomial a is commonPart's
		}
		a = remainders(a) // W-2*(W//2) is W % 2, which b may hold
		r, ok := polyQuo(b, a)
		if !ok {
			continue
		}
		xr, ok := Add(fromAtom(x), r)
		if !ok {
			continue
		}
		return append(productFactors(xr, depth-1), productFactors(a, depth-1)...)
	}
	return []Expr{e}
}

// polyQuo returns b/a for polynomials a and b where a divides b, by long division on the leading
// terms: b = q·a exactly, each step keeping that; ok is false where a leading term does not divide
// (the quotient may still exist), or past a few steps.
func polyQuo(b, a Expr) (Expr, bool) {
	var q Expr
	lead := a.t[0]
	inv := make([]factor, len(lead.m))
	for i, f := range lead.m {
		inv[i] = factor{f.a, -f.e}
	}
	for range 8 {
		if len(b.t) == 0 {
			return q, true
		}
		t := b.t[0]
		c, ok := t.c.mul(mustInv(lead.c))
		m := mulMono(t.m, inv)
		if !ok || !c.isInt() || slices.ContainsFunc(m, func(f factor) bool { return f.e < 0 }) {
			return Expr{}, false
		}
		qt := Expr{t: []term{{c: c, m: m}}}
		qa, ok1 := Mul(qt, a)
		nb, ok2 := Sub(b, qa)
		nq, ok3 := Add(q, qt)
		if !ok1 || !ok2 || !ok3 {
			return Expr{}, false
		}
		b, q = nb, nq
	}
	return Expr{}, false
}
