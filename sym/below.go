package sym

import "strconv"

// Symbols bounded by an expression: the iteration number of a loop, which lies in [0, n-1] for
// the loop's trip count n, an expression in the model's symbols. A rule inferred once with such a
// symbol holds for every value of it; what the symbol's bound proves (min(i+1, T) is i+1 for i
// below T) is proven for all of them, and a condition on it is required for all of them (Forall).

// Below returns a new symbol whose values lie in [0, n-1] for the value of n, an expression in
// other symbols of t: the iteration number of a loop of n iterations, which the loop's body reads.
// Its integer bounds are [0, hi-1] for n's upper bound hi (unbounded when n is); the comparisons
// of Min and Max, and Forall, use the bound n-1 itself. It prints as name (a plain name, made
// unique in t by a suffix _K), and like an anonymous symbol (Table.Anon) it is not among the
// model's symbols (Names, Lookup); unlike one, an expression in it is exact (DependsOnAnon is
// false of it): inside the body it stands for one iteration's number, exactly.
func (t *Table) Below(name string, n Expr) Expr {
	_, hi := n.Bounds()
	if hi != Inf {
		hi = max(hi-1, 0)
	}
	if !plainName(name) {
		name = "i"
	}
	if _, taken := t.byName[name]; taken {
		name += "_" + strconv.Itoa(t.n)
	}
	a := &atom{kind: symbolAtom, name: name, order: t.n, lo: 0, hi: hi, anon: true}
	if ub, ok := Add(n, Int(-1)); ok {
		a.below = &ub
	}
	t.n++
	t.byName[name] = a
	return fromAtom(a)
}

// Forall returns the condition on the other symbols under which p holds for every value of x, a
// symbol of Table.Below, in [0, n-1]: a comparison linear in x at the value of x where its
// expression is least, a conjunction term by term, a disjunction whose other terms do not depend
// on x through the one that does. ok is false when p depends on x otherwise (an equation in x, x
// in a product, a floor division or an extremum, or in several terms of a disjunction): no such
// condition is stated. p itself is returned when it does not depend on x.
func Forall(p Pred, x Expr) (Pred, bool) {
	a, ok := x.lone()
	if !ok || a.kind != symbolAtom || a.below == nil {
		return p, !mentionsAtom(p, a)
	}
	return forall(p, a)
}

func forall(p Pred, a *atom) (Pred, bool) {
	if !mentionsAtom(p, a) {
		return p, true
	}
	switch p.kind() {
	case pCmp:
		if p.n.raw || p.n.op != OpGe {
			return Pred{}, false
		}
		least, ok := atExtreme(p.n.e, a, false)
		if !ok {
			return Pred{}, false
		}
		return Cmp(least, OpGe, Int(0)), true
	case pAnd:
		args := make([]Pred, len(p.n.args))
		for i, q := range p.n.args {
			var ok bool
			if args[i], ok = forall(q, a); !ok {
				return Pred{}, false
			}
		}
		return And(args...), true
	}
	args := make([]Pred, len(p.n.args))
	seen := false
	for i, q := range p.n.args {
		args[i] = q
		if !mentionsAtom(q, a) {
			continue
		}
		if seen {
			return Pred{}, false
		}
		seen = true
		var ok bool
		if args[i], ok = forall(q, a); !ok {
			return Pred{}, false
		}
	}
	return Or(args...), true
}

// mentionsAtom reports whether p depends on the symbol a.
func mentionsAtom(p Pred, a *atom) bool {
	return a != nil && anySymbol(p.symbols, func(b *atom) bool { return b == a })
}

// atExtreme returns e, linear in the symbol a of Table.Below (a term c·a, and a nowhere else), at
// the value of a where e is greatest (high) or least: a's lower bound or a.below, by the sign of
// c. ok is false when e is not linear in a.
func atExtreme(e Expr, a *atom, high bool) (Expr, bool) {
	var c rat
	found := false
	for _, t := range e.t {
		if len(t.m) == 1 && t.m[0].a == a && t.m[0].e == 1 {
			c, found = t.c, true
			continue
		}
		for _, f := range t.m {
			if f.a == a || f.a.kind != symbolAtom && f.a.mentions(a.name) {
				return Expr{}, false
			}
		}
	}
	if !found {
		return e, true
	}
	v := *a.below
	if (c.num > 0) != high {
		v = Int(a.lo)
	}
	return e.Subst(func(name string) (Expr, bool) {
		if name == a.name {
			return v, true
		}
		return Expr{}, false
	})
}

// leBelow reports whether d >= 0 follows from the bound of a symbol of Table.Below that d is
// linear in: d at the value of the symbol where it is least is at least 0 (by its bounds, or
// again by another such symbol).
func leBelow(d Expr) bool {
	for _, t := range d.t {
		for _, f := range t.m {
			if f.a.kind == symbolAtom && f.a.below != nil {
				least, ok := atExtreme(d, f.a, false)
				return ok && (least.ival().lo.sign() >= 0 || leBelow(least))
			}
		}
	}
	return false
}
