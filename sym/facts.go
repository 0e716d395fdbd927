package sym

import (
	"math"
	"slices"
)

// boundKind is the kind of a comparison on one expression l.
type boundKind uint8

const (
	lower boundKind = iota // l >= v
	upper                  // l <= v
	equal                  // l == v
	other                  // l != v
)

// bound is a comparison of an expression with an integer v.
type bound struct {
	kind boundKind
	v    int64
}

// atomOf returns the comparison p as a bound on its variable part l, whose first coefficient is
// positive: N-1 == 0 is N == 1, -A+8 >= 0 is A <= 8. ok is false for a predicate that is not
// a comparison in canonical form.
func atomOf(p Pred) (l Expr, b bound, ok bool) {
	if p.kind() != pCmp || p.n.raw {
		return Expr{}, bound{}, false
	}
	v, c := split(p.n.e)
	if c == math.MinInt64 || len(v.t) == 0 {
		return Expr{}, bound{}, false
	}
	switch {
	case p.n.op == OpEq:
		return v, bound{equal, -c}, true
	case p.n.op == OpNe:
		return v, bound{other, -c}, true
	case v.t[0].c.num > 0:
		return v, bound{lower, -c}, true
	}
	nv, ok := Neg(v)
	return nv, bound{upper, c}, ok
}

// sameAtomRun returns the expression args[i] compares (atomOf) and the end of the run of args from
// i that compare the same one; ok is false when args[i] compares none.
func sameAtomRun(args []Pred, i int) (l Expr, end int, ok bool) {
	if l, _, ok = atomOf(args[i]); !ok {
		return Expr{}, i, false
	}
	end = i + 1
	for end < len(args) {
		if m, _, ok := atomOf(args[end]); !ok || !m.Equal(l) {
			break
		}
		end++
	}
	return l, end, true
}

// fact is what a conjunction of comparisons says of one expression l: its values lie in [lo, hi]
// and are none of ne, each inside (lo, hi). lo > hi when no value is left.
type fact struct {
	l      Expr
	lo, hi xint
	ne     []int64
}

// facts is the conjunction of comparisons, by the expression each bounds.
type facts struct{ fs []*fact }

// factSource tells what a conjunction of comparisons says of an expression: the fact of l (nil
// when nothing), and the value of a remainder that another remainder fixes.
type factSource interface {
	find(l Expr) *fact
	knownRemainder(l Expr) (int64, bool)
}

func newFact(l Expr) *fact {
	b := l.ival()
	return &fact{l: l, lo: b.lo, hi: b.hi}
}

func (fs *facts) find(l Expr) *fact {
	for _, f := range fs.fs {
		if f.l.Equal(l) {
			return f
		}
	}
	return nil
}

// clone returns a copy of fs that adding to either leaves the other as it is.
func (fs *facts) clone() *facts {
	out := &facts{fs: make([]*fact, len(fs.fs))}
	for i, f := range fs.fs {
		out.fs[i] = &fact{l: f.l, lo: f.lo, hi: f.hi, ne: slices.Clone(f.ne)}
	}
	return out
}

// add adds the comparison p; it reports false for a predicate that is not one.
func (fs *facts) add(p Pred) bool {
	l, b, ok := atomOf(p)
	if !ok {
		return false
	}
	f := fs.find(l)
	if f == nil {
		f = newFact(l)
		fs.fs = append(fs.fs, f)
	}
	f.apply(b)
	return true
}

func (f *fact) apply(b bound) {
	v := fin(b.v)
	switch b.kind {
	case lower:
		f.lo = maxX(f.lo, v)
	case upper:
		f.hi = minX(f.hi, v)
	case equal:
		f.lo, f.hi = maxX(f.lo, v), minX(f.hi, v)
	case other:
		f.ne = append(f.ne, b.v)
	}
	f.normalize()
}

func (f *fact) empty() bool { return cmpX(f.lo, f.hi) > 0 }

// with returns a copy of f with b applied.
func (f *fact) with(b bound) *fact {
	g := &fact{l: f.l, lo: f.lo, hi: f.hi, ne: slices.Clone(f.ne)}
	g.apply(b)
	return g
}

// meet returns the intersection of f and g, facts of one expression, in a new fact.
func (f *fact) meet(g *fact) *fact {
	h := &fact{l: f.l, lo: maxX(f.lo, g.lo), hi: minX(f.hi, g.hi), ne: append(slices.Clone(f.ne), g.ne...)}
	h.normalize()
	return h
}

// normalize moves the bounds past excluded values and keeps the excluded values inside them.
func (f *fact) normalize() {
	for f.lo.inf == 0 && slices.Contains(f.ne, f.lo.v) && !f.empty() {
		f.lo = addX(f.lo, fin(1))
	}
	for f.hi.inf == 0 && slices.Contains(f.ne, f.hi.v) && !f.empty() {
		f.hi = addX(f.hi, fin(-1))
	}
	f.ne = slices.DeleteFunc(f.ne, func(v int64) bool { return cmpX(fin(v), f.lo) <= 0 || cmpX(fin(v), f.hi) >= 0 })
	slices.Sort(f.ne)
	f.ne = slices.Compact(f.ne)
}

// has reports whether v is among the values f allows.
func (f *fact) has(v int64) bool {
	return cmpX(f.lo, fin(v)) <= 0 && cmpX(fin(v), f.hi) <= 0 && !slices.Contains(f.ne, v)
}

// implies reports whether every value f allows satisfies b.
func (f *fact) implies(b bound) bool {
	if f.empty() {
		return true
	}
	switch b.kind {
	case lower:
		return cmpX(f.lo, fin(b.v)) >= 0
	case upper:
		return cmpX(f.hi, fin(b.v)) <= 0
	case equal:
		return f.lo == fin(b.v) && f.hi == fin(b.v)
	}
	return !f.has(b.v)
}

// excludes reports whether no value f allows satisfies b.
func (f *fact) excludes(b bound) bool {
	if f.empty() {
		return true
	}
	switch b.kind {
	case lower:
		return cmpX(f.hi, fin(b.v)) < 0
	case upper:
		return cmpX(f.lo, fin(b.v)) > 0
	case equal:
		return !f.has(b.v)
	}
	return f.lo == fin(b.v) && f.hi == fin(b.v)
}

// satisfies reports whether the value v satisfies b.
func (b bound) satisfies(v int64) bool {
	switch b.kind {
	case lower:
		return v >= b.v
	case upper:
		return v <= b.v
	case equal:
		return v == b.v
	}
	return v != b.v
}

// remainder returns x and m when l is the remainder x % m by a positive integer m.
func remainder(l Expr) (x Expr, m int64, ok bool) {
	a, ok := l.lone()
	if !ok || a.kind != modAtom {
		return Expr{}, 0, false
	}
	m, ok = a.den.Const()
	return a.num, m, ok && m > 0
}

// knownRemainder returns the value of x % n that another fact tells: a remainder x % m fixed to
// one value, for a multiple m of n.
func (fs *facts) knownRemainder(l Expr) (int64, bool) {
	x, n, ok := remainder(l)
	if !ok {
		return 0, false
	}
	for _, f := range fs.fs {
		y, m, ok := remainder(f.l)
		if ok && m != n && m%n == 0 && f.lo.inf == 0 && f.lo == f.hi && y.Equal(x) {
			return pyMod(f.lo.v, n), true
		}
	}
	return 0, false
}

// contradiction returns false when the facts leave no value to some expression.
func (fs *facts) contradiction() (Pred, bool) {
	for _, f := range fs.fs {
		if f.empty() {
			return False(), true
		}
		if r, ok := fs.knownRemainder(f.l); ok && !f.has(r) {
			return False(), true
		}
	}
	return Pred{}, false
}

// fix returns args with each symbol that the facts fix to one value replaced by it, in the terms
// other than the comparisons of the symbol itself; ok is false when no term changes.
func (fs *facts) fix(args []Pred) ([]Pred, bool) {
	values := map[string]int64{}
	for _, f := range fs.fs {
		if name, _, ok := f.l.Symbol(); ok && f.lo.inf == 0 && f.lo == f.hi {
			values[name] = f.lo.v
		}
	}
	if len(values) == 0 {
		return args, false
	}
	sub := func(name string) (Expr, bool) {
		v, ok := values[name]
		return Int(v), ok
	}
	changed := false
	out := make([]Pred, 0, len(args))
	for _, a := range args {
		if l, _, ok := atomOf(a); ok && loneSymbol(l) || !anySymbol(a.symbols, func(x *atom) bool { _, ok := values[x.name]; return ok }) {
			out = append(out, a)
			continue
		}
		b := substLoose(a, sub)
		out = append(out, b.Terms()...)
		if b.IsFalse() {
			out = append(out, b)
		}
		changed = changed || !b.Equal(a)
	}
	return out, changed
}

// substLoose returns p with the substitution applied to each comparison where it can be kept
// (Pred.Subst), the others left as they are.
func substLoose(p Pred, sub func(string) (Expr, bool)) Pred {
	return mapCmps(p, func(c Pred) Pred {
		if q, ok := c.Subst(sub); ok {
			return q
		}
		return c
	})
}

// preds returns the facts as the fewest comparisons in canonical form: an equation where one
// value is left, else a lower bound above the expression's own, an upper bound below its own,
// and the excluded values between. A remainder that another fixes is left out.
func (fs *facts) preds() []Pred {
	var out []Pred
	for _, f := range fs.fs {
		if _, ok := fs.knownRemainder(f.l); ok {
			continue
		}
		own := f.l.ival()
		if f.lo == f.hi && f.lo.inf == 0 {
			out = append(out, Cmp(f.l, OpEq, Int(f.lo.v)))
			continue
		}
		if cmpX(f.lo, own.lo) > 0 {
			out = append(out, Cmp(f.l, OpGe, Int(f.lo.v)))
		}
		if cmpX(f.hi, own.hi) < 0 {
			out = append(out, Cmp(f.l, OpLe, Int(f.hi.v)))
		}
		for _, v := range f.ne {
			out = append(out, Cmp(f.l, OpNe, Int(v)))
		}
	}
	var flat []Pred
	for _, p := range out {
		flat = append(flat, p.Terms()...)
	}
	return flat
}

// decide returns the comparison q under the facts: true when they imply it, false when they
// exclude it, q otherwise.
func decide(fs factSource, q Pred) Pred {
	l, b, ok := atomOf(q)
	if !ok {
		return q
	}
	if r, ok := fs.knownRemainder(l); ok {
		return decided(b.satisfies(r), q.String())
	}
	f := fs.find(l)
	if f == nil {
		return q
	}
	switch {
	case f.implies(b):
		return True()
	case f.excludes(b):
		return decided(false, q.String())
	}
	return q
}

// under returns p simplified under the facts: comparisons they decide replaced by their value.
func under(fs factSource, p Pred) Pred {
	return mapCmps(p, func(c Pred) Pred { return decide(fs, c) })
}
