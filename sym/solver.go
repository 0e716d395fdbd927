package sym

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/errcode"
)

// Origin is where a constraint comes from: the node of a model that imposes it, its operator, and
// why, in a few words.
type Origin struct {
	Node string // the node's path, as graph.NodeResult.Path writes it ("MatMul_3", "If_1/then_branch/Add_2")
	Op   string // the node's operator ("MatMul")
	Why  string // what the node needs ("the inner dims", "input 1 dim 2", "the volume of the pattern")
	// Seq is the node's position in the order a run of the model meets it (graph.Result.RunSeq:
	// onnxruntime's order for an ONNX model), where package graph gives one; 0 otherwise.
	Seq int
	// Other is, on a condition that a substitution rewrote (Solver.Recorded: the volume B*T == 10
	// of one Reshape reads T == 5 once another fixes B == 2), the same condition at the other of
	// its two nodes, the one that imposed it and the one whose substitution rewrote it: a run that
	// breaks it where the other node's condition holds stops at whichever of the two runs later,
	// which package graph puts in Origin once it knows the order. Nil on other conditions.
	Other *Origin
}

// String returns "Node (Op): Why", leaving out what is empty.
func (o Origin) String() string {
	var b strings.Builder
	b.WriteString(o.Node)
	if o.Op != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("(" + o.Op + ")")
	}
	if o.Why != "" {
		if b.Len() > 0 {
			b.WriteString(": ")
		}
		b.WriteString(o.Why)
	}
	return b.String()
}

// Constraint is a condition a model imposes on its symbols, and the node that imposes it.
type Constraint struct {
	Pred   Pred
	Origin Origin
	// Also lists the other nodes that impose the same condition (sibling branches of an Inception
	// block), or a part of it (Merged), in the order they were met after Origin's. Each origin's
	// Why is what its own node needs; Origin's is the condition's.
	Also []Origin
	// Merged reports that the condition is several nodes' conditions as one (Minimize: H % 6 ==
	// 0 of a Split's H % 2 == 0 and a Reshape's H % 3 == 0): each node imposes a part of it, its
	// own condition, which Minimal.Implied holds at its node. A run that breaks it stops at the
	// node of the first of those it breaks, by Seq; Origin is the first of its nodes.
	Merged bool
}

// Origins returns Origin and then Also, in a new slice.
func (c Constraint) Origins() []Origin { return append([]Origin{c.Origin}, c.Also...) }

// String returns "PRED (ORIGIN)": "N == 1 (Reshape_2 (Reshape): the volume)".
func (c Constraint) String() string { return c.Pred.String() + " (" + c.Origin.String() + ")" }

// All returns the conjunction of the constraints' predicates: true for none.
func All(cs []Constraint) Pred {
	ps := make([]Pred, len(cs))
	for i, c := range cs {
		ps[i] = c.Pred
	}
	return And(ps...)
}

// ConstraintError is the error of a constraint that does not hold: one that can never hold (alone,
// or with the constraints recorded before it: Solver.Require, Solver.Unify), or one that a binding
// breaks (Solver.Check). It wraps errcode.ErrInvalidShape: the model does not run there.
type ConstraintError struct {
	// Constraint is the condition that fails and the node that imposes it. A condition decided
	// false when it was made prints as it was stated (2*N == 3).
	Constraint Constraint
	// Binding holds the values of the symbols the condition depends on at the binding that breaks
	// it, those that substitutions give included; nil when it can never hold.
	Binding map[string]int64
	// Conflict holds the constraints recorded before with which the condition cannot hold: none
	// when it cannot hold alone, or when no single one of them excludes it. Each excludes it
	// alone, unless Joint: then they exclude it only together (Minimal.Never).
	Conflict []Constraint
	Joint    bool
	// Err is the error of evaluating the condition at Binding, when it is not defined there (an
	// exact quotient that does not divide: errcode.ErrNotDivisible).
	Err error
	// order lists the names of Binding in table order, for the message.
	order []string
}

// Error returns the origin and what fails: "Reshape_2 (Reshape): the volume: N == 1 does not hold
// at N=2", "...: 2*N == 3 never holds", "...: N == 2 cannot hold with N == 1 (MatMul_3 (MatMul):
// the inner dims)", and for a Joint conflict "...: X cannot hold with W >= 2 (A) and H >= 2 (B)".
func (e *ConstraintError) Error() string {
	var b strings.Builder
	if o := e.Constraint.Origin.String(); o != "" {
		b.WriteString(o + ": ")
	}
	b.WriteString(e.Constraint.Pred.text())
	switch {
	case e.Binding != nil:
		b.WriteString(" does not hold at ")
		for i, name := range e.order {
			if i > 0 {
				b.WriteString(", ")
			}
			b.Write(appendName(nil, name))
			b.WriteString("=" + strconv.FormatInt(e.Binding[name], 10))
		}
		if e.Err != nil {
			b.WriteString(": " + e.Err.Error())
		}
	case len(e.Conflict) > 0:
		b.WriteString(" cannot hold with ")
		for i, c := range e.Conflict {
			switch {
			case i > 0 && e.Joint:
				b.WriteString(" and ")
			case i > 0:
				b.WriteString(", nor with ")
			}
			b.WriteString(c.String())
		}
	default:
		b.WriteString(" never holds")
	}
	return b.String()
}

// Unwrap returns errcode.ErrInvalidShape.
func (e *ConstraintError) Unwrap() error { return errcode.ErrInvalidShape }

// Mark is a point in the record of a Solver's constraints (Solver.Mark).
type Mark struct{ n, open int }

// Solver holds what a model's nodes require of its symbols: the equalities that unification
// finds, applied as substitutions (a symbol replaced by what it equals, everywhere), and the other
// constraints (bounds, divisibility, disjunctions), each with the node that imposes it. It is
// what graph inference records conditions in, instead of assuming them silently.
//
// A rule records a condition with Require and an Origin naming its node:
//
//	s.Require(sym.Ge(h, sym.Int(11)), o)              // a window of 11 needs H >= 11
//	p, ok := sym.Divisible(v, r)                      // an exact quotient v/r (a Reshape's -1)
//	if ok { s.Require(p, o) }                         // needs v % r == 0
//	s.Require(sym.Le(n, sym.Int(1500)), o)            // a Gather from a table of 1500 rows
//	s.Require(sym.Or(sym.Eq(a, b), sym.Eq(a, one), sym.Eq(b, one)), o) // a broadcast of A and B
//
// and dims that must be equal with Unify, which records the equality and returns the dim that
// stands for both. The constraints of the branches of an If join with ||: the rule marks the
// record before each branch, takes the branch's constraints back with Cut, and requires the
// disjunction of their conjunctions (All):
//
//	m := s.Mark(); ...then branch...; c1 := s.Cut(m)
//	m = s.Mark(); ...else branch...; c2 := s.Cut(m)
//	s.Require(sym.Or(sym.All(c1), sym.All(c2)), o)
//
// While a mark is open, equalities are recorded but not substituted, since they hold on one branch
// only.
//
// Substitutions are numbered by Gen, so that a caller can tell whether a dim it holds may be
// stale; Dim and Expr apply them. A Solver is not safe for concurrent use.
type Solver struct {
	tab   *Table
	subst map[string]Expr
	gen   int
	log   []entry
	open  int
	conds int // entries that are not substitutions
	// The conditions by their form with the substitutions applied: comparisons by the text of
	// the expression compared, comparisons of remainders also by the text of the dividend, the
	// others (disjunctions) apart, and all by the symbols they mention.
	onExpr, onRem, bySym map[string][]int
	others               []int
	// facts caches what the comparisons of onExpr say of each expression.
	facts map[string]*fact
}

// entry is one recorded constraint: a substitution of the symbol defines, or a condition whose
// form with the substitutions applied is cur. Its constraint's Also collects the nodes that
// required it again.
type entry struct {
	c       Constraint
	defines string
	cur     Pred
}

// NewSolver returns a solver of the symbols of t, with no constraints.
func NewSolver(t *Table) *Solver { return &Solver{tab: t, subst: map[string]Expr{}} }

// Gen returns the number of substitutions made so far: a dim made when Gen was g needs Dim only
// when Gen has changed since.
func (s *Solver) Gen() int { return s.gen }

// substOf returns what the symbol name was found equal to, with the substitutions found since
// applied, and keeps that result, so that a chain of substitutions is followed once.
func (s *Solver) substOf(name string) (Expr, bool) {
	x, ok := s.subst[name]
	if !ok {
		return x, false
	}
	if y, ok := substExpr(x, s.substOf); ok {
		s.subst[name] = y
		x = y
	}
	return x, true
}

// Dim returns d with the substitutions applied (Dim.Subst): the dim as the model's equalities
// make it.
func (s *Solver) Dim(d Dim) Dim {
	if len(s.subst) == 0 {
		return d
	}
	return d.Subst(s.substOf)
}

// Expr returns e with the substitutions applied; e itself when the result cannot be kept.
func (s *Solver) Expr(e Expr) Expr {
	if len(s.subst) == 0 {
		return e
	}
	if y, ok := substExpr(e, s.substOf); ok {
		return y
	}
	return e
}

// Float returns f with the substitutions applied; f itself when the result cannot be kept.
func (s *Solver) Float(f Float) Float {
	if len(s.subst) == 0 {
		return f
	}
	if g, ok := f.Subst(s.substOf); ok {
		return g
	}
	return f
}

// current returns p with the substitutions applied; p itself when the result cannot be kept,
// which the recorded equalities still make right.
func (s *Solver) current(p Pred) Pred {
	if len(s.subst) == 0 {
		return p
	}
	if q, ok := p.Subst(s.substOf); ok {
		return q
	}
	return p
}

// keys returns the keys of a condition in onExpr and onRem ("" for none).
func keys(p Pred) (expr, rem string) {
	l, _, ok := atomOf(p)
	if !ok {
		return "", ""
	}
	if x, _, ok := remainder(l); ok {
		rem = x.String()
	}
	return l.String(), rem
}

// index adds the condition of entry i to the indexes, or removes it. The indexes are made with
// the first condition, so that a solver that records none (every Infer makes one) costs one map.
func (s *Solver) index(i int, add bool) {
	if s.onExpr == nil {
		s.onExpr, s.onRem, s.bySym, s.facts = map[string][]int{}, map[string][]int{}, map[string][]int{}, map[string]*fact{}
	}
	edit := func(m map[string][]int, k string) {
		switch {
		case k == "":
		case add:
			m[k] = append(m[k], i)
		default:
			if m[k] = slices.DeleteFunc(m[k], func(j int) bool { return j == i }); len(m[k]) == 0 {
				delete(m, k)
			}
		}
	}
	p := s.log[i].cur
	e, r := keys(p)
	edit(s.onExpr, e)
	if f := s.facts[e]; f != nil && add {
		_, b, _ := atomOf(p)
		f.apply(b)
	} else {
		delete(s.facts, e)
	}
	edit(s.onRem, r)
	if e == "" {
		if add {
			s.others = append(s.others, i)
		} else {
			s.others = slices.DeleteFunc(s.others, func(j int) bool { return j == i })
		}
	}
	var names []string
	p.symbols(func(a *atom) {
		if !slices.Contains(names, a.name) {
			names = append(names, a.name)
		}
	})
	for _, n := range names {
		edit(s.bySym, n)
	}
}

// reindex makes the indexes again from the record.
func (s *Solver) reindex() {
	s.onExpr, s.onRem, s.bySym, s.facts, s.others = nil, nil, nil, nil, nil
	s.conds = 0
	for i, e := range s.log {
		if e.defines == "" {
			s.index(i, true)
			s.conds++
		}
	}
}

// find returns what the conditions say of the expression l, nil when none bounds it.
func (s *Solver) find(l Expr) *fact {
	k := l.String()
	if f := s.facts[k]; f != nil {
		return f
	}
	is := s.onExpr[k]
	if len(is) == 0 {
		return nil
	}
	f := newFact(l)
	for _, i := range is {
		if _, b, ok := atomOf(s.log[i].cur); ok {
			f.apply(b)
		}
	}
	s.facts[k] = f
	return f
}

// knownRemainder returns the value of x % n when the conditions fix x % m for a multiple m of n.
func (s *Solver) knownRemainder(l Expr) (int64, bool) {
	x, n, ok := remainder(l)
	if !ok {
		return 0, false
	}
	for _, i := range s.onRem[x.String()] {
		k, _, _ := atomOf(s.log[i].cur)
		_, m, _ := remainder(k)
		if m == n || m%n != 0 {
			continue
		}
		if f := s.find(k); f.lo.inf == 0 && f.lo == f.hi {
			return pyMod(f.lo.v, n), true
		}
	}
	return 0, false
}

// under returns p, with the substitutions applied, simplified under the recorded constraints.
func (s *Solver) under(p Pred) Pred {
	if s.conds == 0 {
		return p
	}
	r := under(s, p)
	for _, i := range s.others {
		if implies(s.log[i].cur, r) {
			return True()
		}
	}
	return r
}

// When returns the condition under which p holds at the bindings that satisfy the recorded
// constraints: true when they imply it (always), false when it cannot hold with them (never), and
// otherwise p simplified under them (only when): with N >= 2 recorded, When(N >= 1) is true,
// When(N == 1) false and When(N == 10) is N == 10.
func (s *Solver) When(p Pred) Pred { return s.under(s.current(p)) }

// Never reports whether p is proven to hold at no binding that satisfies the recorded
// constraints: When(p) is false, or a proof within a budget of steps finds none, from the
// constraints defined at every binding (no divisor that may be 0). False when p may hold, or
// when no proof was found: a torch view's pattern [1,H//4,2,W//4,2,1] of [1,H//2,W//2,1], whose 0
// at index 1 copies H//2, never has the volume of its input, which When alone does not see.
func (s *Solver) Never(p Pred) bool {
	q := s.When(p)
	switch {
	case q.IsFalse():
		return true
	case q.IsTrue() || !total(q):
		return false
	}
	args := []Pred{q}
	for _, e := range s.log {
		if e.defines == "" && total(e.cur) {
			args = append(args, e.cur)
		}
	}
	pv := &prover{steps: proofSteps}
	return pv.unsat(And(args...), 0)
}

// EqualWhen returns the condition under which a and b are equal (When of a == b): true, false, or
// the condition, as a declared [N,N,4] and an inferred [N,10,4] are equal only when N == 10. ok is
// false when a dim known only by its bounds leaves it open.
func (s *Solver) EqualWhen(a, b Dim) (when Pred, ok bool) {
	switch {
	case a.Equal(b):
		return True(), true
	case !a.Compatible(b):
		return False(), true
	}
	xa, oka := a.Expr()
	xb, okb := b.Expr()
	if !oka || !okb {
		return Pred{}, false
	}
	return s.When(Eq(xa, xb)), true
}

// Require records that p must hold for the model to run, imposed by the node o names. p is taken
// with the substitutions applied and simplified under the constraints recorded before: what they
// imply is not recorded again, and an equation that fixes a symbol (N == 1, B == A+1, solved for
// the symbol met last) becomes a substitution, kept as its constraint, unless a mark is open.
// A condition that can never hold, alone or with those recorded, is a *ConstraintError (which
// wraps errcode.ErrInvalidShape) naming the constraints it contradicts, and nothing of it is
// recorded.
func (s *Solver) Require(p Pred, o Origin) error {
	if p.IsTrue() {
		return nil
	}
	if p.IsFalse() {
		return &ConstraintError{Constraint: Constraint{Pred: p, Origin: o}}
	}
	q := s.current(p)
	r := s.under(q)
	if r.IsFalse() {
		return &ConstraintError{Constraint: Constraint{Pred: p, Origin: o}, Conflict: s.conflicts(p, q)}
	}
	if r.IsTrue() {
		s.again(q, o)
		return nil
	}
	n, gen := len(s.log), s.gen
	for _, t := range r.Terms() {
		if s.gen != gen {
			// A term solved before: the others in terms of what remains, under what is recorded.
			if t = s.under(s.current(t)); t.IsTrue() {
				continue
			}
		}
		if t.IsFalse() {
			s.rollback(n)
			return &ConstraintError{Constraint: Constraint{Pred: p, Origin: o}, Conflict: s.conflicts(p, q)}
		}
		if name, val, ok := s.solve(t); ok {
			if c, ok := s.substitute(name, val, Constraint{Pred: t, Origin: o}); !ok {
				s.rollback(n)
				return &ConstraintError{Constraint: Constraint{Pred: p, Origin: o}, Conflict: c}
			}
			continue
		}
		s.record(t, o)
	}
	return nil
}

// again notes that the node o requires q again: each term of q that a recorded condition is
// (in its form with the substitutions applied) names o among the nodes that impose it.
func (s *Solver) again(q Pred, o Origin) {
	if s.conds == 0 {
		return
	}
	for _, t := range q.Terms() {
		var is []int
		if k, _ := keys(t); k != "" {
			is = s.onExpr[k]
		} else {
			is = s.others
		}
		for _, i := range is {
			e := &s.log[i]
			if e.c.Origin.Node != o.Node && e.cur.Equal(t) && !slices.ContainsFunc(e.c.Also, func(x Origin) bool { return x.Node == o.Node }) {
				e.c.Also = append(e.c.Also, o)
				break
			}
		}
	}
}

// rollback removes what was recorded from entry n on, substitutions included.
func (s *Solver) rollback(n int) {
	undone := false
	for _, e := range s.log[n:] {
		if e.defines != "" {
			delete(s.subst, e.defines)
			undone = true
		}
	}
	s.log = s.log[:n]
	if undone {
		s.gen++ // dims made meanwhile may hold the substitutions undone
		for i := range s.log {
			if s.log[i].defines == "" {
				s.log[i].cur = s.current(s.log[i].c.Pred)
			}
		}
	}
	s.reindex()
}

// solve returns the symbol an equation fixes and what it equals, when no mark is open: a symbol
// with coefficient ±1 that no other term of the polynomial holds, anonymous symbols first, then
// the one met last.
func (s *Solver) solve(p Pred) (name string, val Expr, ok bool) {
	if s.open > 0 || p.kind() != pCmp || p.n.raw || p.n.op != OpEq || !p.n.e.integral() {
		return "", Expr{}, false
	}
	e := p.n.e
	best := -1
	for i, t := range e.t {
		if len(t.m) != 1 || t.m[0].e != 1 || t.m[0].a.kind != symbolAtom || abs64(t.c.num) != 1 {
			continue
		}
		a := t.m[0].a
		if _, done := s.subst[a.name]; done {
			continue
		}
		rest := Expr{t: slices.Delete(slices.Clone(e.t), i, i+1)}
		if rest.Mentions(a.name) || s.stale(rest) {
			continue
		}
		if best >= 0 {
			b := e.t[best].m[0].a
			if b.anon && !a.anon || b.anon == a.anon && b.order > a.order {
				continue
			}
		}
		best = i
		// a = -rest/c for c = ±1
		if t.c.num > 0 {
			if val, ok = Neg(rest); !ok {
				return "", Expr{}, false
			}
		} else {
			val = rest
		}
		name = a.name
	}
	return name, val, best >= 0
}

// stale reports whether e holds a symbol substituted already (when the substitution could not be
// kept): substituting another by e could make a cycle.
func (s *Solver) stale(e Expr) bool {
	return anySymbol(e.symbols, func(a *atom) bool {
		_, ok := s.subst[a.name]
		return ok
	})
}

// substitute records the equation c, which says that the symbol name is val, and replaces name by
// val from now on, in the conditions recorded too. The bounds of name become conditions on val
// where val's own do not imply them, so that they are not lost with name. When the substitution
// contradicts the conditions, nothing changes, and it returns those it contradicts and false.
func (s *Solver) substitute(name string, val Expr, c Constraint) ([]Constraint, bool) {
	lo, hi, _ := s.tab.Bounds(name)
	var ps []Pred
	if lo != NegInf {
		ps = append(ps, Ge(val, Int(lo)))
	}
	if hi != Inf {
		ps = append(ps, Le(val, Int(hi)))
	}
	bounds := s.under(And(ps...))
	if bounds.IsFalse() {
		return s.conflicts(c.Pred, bounds), false
	}
	s.subst[name] = val
	s.gen++
	affected := slices.Clone(s.bySym[name])
	old := make([]Pred, len(affected))
	for k, i := range affected {
		old[k] = s.log[i].cur
		s.index(i, false)
		s.log[i].cur = s.current(old[k])
		s.index(i, true)
	}
	for k, i := range affected {
		if !s.contradicted(i) {
			continue
		}
		for k, i := range affected {
			s.index(i, false)
			s.log[i].cur = old[k]
			s.index(i, true)
		}
		delete(s.subst, name)
		s.gen++
		return []Constraint{s.log[affected[k]].c}, false
	}
	s.log = append(s.log, entry{c: c, defines: name})
	for _, t := range bounds.Terms() {
		s.record(t, c.Origin)
	}
	return nil, true
}

// contradicted reports whether the condition of entry i can no longer hold with the others.
func (s *Solver) contradicted(i int) bool {
	p := s.log[i].cur
	if p.IsFalse() {
		return true
	}
	l, b, ok := atomOf(p)
	if !ok {
		return !p.IsTrue() && under(s, p).IsFalse()
	}
	if r, ok := s.knownRemainder(l); ok && !b.satisfies(r) {
		return true
	}
	return s.find(l).empty()
}

// record adds the condition t, not a substitution, to the record.
func (s *Solver) record(t Pred, o Origin) {
	s.log = append(s.log, entry{c: Constraint{Pred: t, Origin: o}, cur: t})
	s.index(len(s.log)-1, true)
	s.conds++
}

// conflicts returns the recorded constraints with which p (q with the substitutions applied)
// cannot hold.
func (s *Solver) conflicts(p, q Pred) []Constraint {
	var out []Constraint
	for _, e := range s.log {
		if And(e.c.Pred, p).IsFalse() {
			out = append(out, e.c)
		}
	}
	if len(out) > 0 || q.IsFalse() {
		if len(out) == 0 { // the substitutions of p's symbols make it false
			names := p.SymbolNames()
			for _, e := range s.log {
				if slices.Contains(names, e.defines) {
					out = append(out, e.c)
				}
			}
		}
		return out
	}
	for _, e := range s.log {
		if e.defines == "" && And(e.cur, q).IsFalse() {
			out = append(out, e.c)
		}
	}
	return out
}

// Unify records that the dims a and b must be equal for the node o names to run (the inner dims of
// a MatMul, the non-axis dims of Concat, broadcast dims that cannot be 1), and returns the dim that
// stands for both, narrowed to the bounds of both. Where one side is a symbol it is replaced by
// the other from now on (an anonymous symbol first, else the one met last), unless a mark is
// open; an equation of two expressions is required (12*N == 12 is N == 1, which substitutes N :=
// 1); a dim known only by its bounds requires the other to lie within them. The equality is
// recorded with o. Two dims that cannot be equal (bounds that do not meet, 2*N and 3, or a
// contradiction of the constraints recorded) give a *ConstraintError, and a.
func (s *Solver) Unify(a, b Dim, o Origin) (Dim, error) {
	if a.Equal(b) {
		return a, nil
	}
	if !a.Compatible(b) {
		return a, &ConstraintError{Constraint: Constraint{Pred: decided(false, a.String()+" == "+b.String()), Origin: o}}
	}
	lo1, hi1 := a.Bounds()
	lo2, hi2 := b.Bounds()
	lo, hi := max(lo1, lo2), min(hi1, hi2)
	xa, oka := a.Expr()
	xb, okb := b.Expr()
	if !oka || !okb {
		keep, x, blo, bhi := a, xa, lo2, hi2
		if okb && !oka {
			keep, x, blo, bhi = b, xb, lo1, hi1
		}
		d, _ := keep.Narrow(lo, hi)
		if (oka || okb) && !x.DependsOnAnon() {
			var ps []Pred
			if blo != NegInf {
				ps = append(ps, Ge(x, Int(blo)))
			}
			if bhi != Inf {
				ps = append(ps, Le(x, Int(bhi)))
			}
			if err := s.Require(And(ps...), o); err != nil {
				return a, err
			}
		}
		return d, nil
	}
	// Both sides as unification knows them now: a rule may hold dims it read before its own last
	// unification.
	xa, xb = s.Expr(xa), s.Expr(xb)
	if xa.Equal(xb) {
		d, _ := Of(xa).Narrow(lo, hi)
		return d, nil
	}
	// Replace a symbol by the other side: an anonymous symbol first, then the later one.
	na, anonA, symA := xa.Symbol()
	nb, anonB, symB := xb.Symbol()
	var name string
	var with Expr
	switch {
	case symA && (!symB || anonA && !anonB || anonA == anonB && xa.order() > xb.order()):
		name, with = na, xb
	case symB:
		name, with = nb, xa
	}
	_, done := s.subst[name]
	if name != "" && !done && !with.Mentions(name) && !s.stale(with) && s.open == 0 {
		p := Eq(xa, xb)
		if r := s.under(p); r.IsFalse() {
			return a, &ConstraintError{Constraint: Constraint{Pred: p, Origin: o}, Conflict: s.conflicts(p, p)}
		}
		if c, ok := s.substitute(name, with, Constraint{Pred: p, Origin: o}); !ok {
			return a, &ConstraintError{Constraint: Constraint{Pred: p, Origin: o}, Conflict: c}
		}
		d, _ := Of(with).Narrow(lo, hi)
		return d, nil
	}
	if err := s.Require(Eq(xa, xb), o); err != nil {
		return a, err
	}
	// Equal wherever the model runs: the smaller of the two stands for both (a state S and the
	// max(S,D) it broadcasts to are S, where D <= S is recorded).
	if xb.Size() < xa.Size() {
		xa = xb
	}
	d, _ := Of(s.Expr(xa)).Narrow(lo, hi)
	return d, nil
}

// Mark opens a mark of the record, for Cut to take back what is recorded after it. Marks nest;
// while one is open, equalities are not substituted.
func (s *Solver) Mark() Mark {
	m := Mark{n: len(s.log), open: s.open}
	s.open++
	return m
}

// Cut removes the constraints recorded since m and returns them, in the order they were
// recorded, and closes m and the marks opened after it.
func (s *Solver) Cut(m Mark) []Constraint {
	if m.n > len(s.log) {
		return nil
	}
	out := make([]Constraint, 0, len(s.log)-m.n)
	for _, e := range s.log[m.n:] {
		out = append(out, e.c)
	}
	s.log = s.log[:m.n]
	s.open = m.open
	s.reindex()
	return out
}

// Constraints returns the constraints recorded, with the substitutions applied, in canonical
// order (of their predicates): each substitution as the equation of its symbol and what it
// equals (N == 1, A == B), and the others, less those implied by the ones recorded before them or
// at the same node (N >= 5 goes where N >= 11 was recorded first, or at the same node; of two that
// say the same, the first recorded stays) and less what those imply of them (A == B || A == 1 ||
// B == 1 is A == B || B == 1 where A >= 2 was recorded before it). A condition recorded before a
// stronger one at another node stays (H >= 3 at the first Conv of a stack, H >= 11 at the last),
// so that the first listed condition a binding breaks, in the order of recording, is the first
// that Check finds: where a run of the model stops, never downstream of it. Conditions on
// anonymous symbols, dims the model does not name (a count only a run tells), are left out: no
// binding of the model's symbols decides them. They still count for Require, When and Unify.
func (s *Solver) Constraints() []Constraint {
	var eqs []Constraint
	var cmps, ors []Constraint
	var seen facts      // the comparisons recorded so far, for remainders and disjunctions
	var before []*facts // of each disjunction, the comparisons recorded before it
	cs, eq := s.recorded(false)
	for i, c := range cs {
		switch {
		case eq[i]:
			eqs = append(eqs, c)
		case seen.add(c.Pred):
			cmps = append(cmps, c)
		default:
			ors = append(ors, c)
			before = append(before, seen.clone())
		}
	}
	out := append(eqs, mergeChains(strongest(cmps))...)
	// Disjunctions: what the comparisons before each leave of it, less those that one before it,
	// or one of the same node, implies (of two equal ones the first stays).
	var kept []Constraint
	for i, c := range ors {
		p := under(before[i], c.Pred)
		implied := func(o Constraint) bool { return implies(o.Pred, p) }
		if p.IsTrue() || slices.ContainsFunc(kept, implied) ||
			slices.ContainsFunc(ors[i+1:], func(o Constraint) bool {
				return o.Origin.Node == c.Origin.Node && !o.Pred.Equal(c.Pred) && implied(o)
			}) {
			continue
		}
		kept = append(kept, Constraint{Pred: p, Origin: c.Origin, Also: c.Also})
	}
	out = append(out, kept...)
	slices.SortStableFunc(out, func(a, b Constraint) int { return cmpPred(a.Pred, b.Pred) })
	return out
}

// Recorded returns the constraints recorded, in the order they were recorded, with the
// substitutions applied: each substitution as the equation of its symbol and what it equals
// (N == 1, A == B), and the other conditions as the substitutions made since leave them, each
// with the nodes that required it again (Constraint.Also). A condition that a substitution made
// since makes true is there as its node imposed it: B in {1, 2} at an Expand before a GRU that
// fixes B == 2 is where a run stops at B = 3. Conditions on anonymous symbols are left out, as
// Constraints leaves them out. It is the list that Minimize takes.
func (s *Solver) Recorded() []Constraint {
	cs, _ := s.recorded(true)
	return cs
}

// Replaced returns the conditions recorded that a substitution made since changed, each as its
// node required it, in the order they were recorded: the volume B*T == 199 of a first Reshape,
// which is T == 199 in Recorded once a later node fixes B == 1, is B*T == 199 here, the form a
// binding B = 2, T = 199 breaks at that node. Recorded and the substitutions imply each of them;
// Minimal.Imply takes them.
func (s *Solver) Replaced() []Constraint {
	var out []Constraint
	for _, e := range s.log {
		if e.defines == "" && !e.cur.IsTrue() && !e.cur.Equal(e.c.Pred) && !e.c.Pred.DependsOnAnon() {
			out = append(out, Constraint{Pred: e.c.Pred, Origin: e.c.Origin, Also: e.c.Also})
		}
	}
	return out
}

// recorded returns Recorded's list, and of each whether it is a substitution's equation; the
// conditions the substitutions make true only when all is set.
func (s *Solver) recorded(all bool) (out []Constraint, eq []bool) {
	for i, e := range s.log {
		if e.defines != "" {
			sym, ok := s.tab.Lookup(e.defines)
			val, _ := s.substOf(e.defines)
			if ok {
				out = append(out, Constraint{Pred: Eq(sym, val), Origin: e.c.Origin, Also: e.c.Also})
				eq = append(eq, true)
			}
			continue
		}
		p := e.cur
		if p.IsTrue() && all {
			p = e.c.Pred
		}
		if !p.IsTrue() && !p.DependsOnAnon() {
			c := Constraint{Pred: p, Origin: e.c.Origin, Also: e.c.Also}
			if all {
				c = s.movedBy(i, c)
			}
			out = append(out, c)
			eq = append(eq, false)
		}
	}
	return out, eq
}

// movedBy returns c, the form of the condition of entry i with the substitutions applied, at the
// node of the last substitution made since that changed it, where it holds as written: the volume
// B*T == 6 of a Reshape is T == 6 at the node that fixes B == 1 afterwards ("the volume: ...
// (r1) with B == 1"), as a binding B = 6, T = 1 runs the Reshape and stops there. Origin.Other
// is the condition at the Reshape ("the volume: ... with B == 1 (r2)"), where a run that meets
// the substituting node first stops. c as it is when none changed it.
func (s *Solver) movedBy(i int, c Constraint) Constraint {
	e := s.log[i]
	if c.Pred.Equal(e.c.Pred) {
		return c
	}
	names := e.c.Pred.SymbolNames()
	for j := len(s.log) - 1; j > i; j-- {
		d := s.log[j]
		if d.defines == "" || !slices.Contains(names, d.defines) {
			continue
		}
		o, own := d.c.Origin, e.c.Origin
		with := " with " + d.c.Pred.String()
		other := &Origin{Node: own.Node, Op: own.Op, Why: own.Why + with + " (" + o.Node + ")"}
		return Constraint{Pred: c.Pred, Origin: Origin{Node: o.Node, Op: o.Op, Why: own.Why + " (" + own.Node + ")" + with,
			Other: other}}
	}
	return c
}

// mergeChains returns the comparisons cs, in the order they were recorded, with each remainder
// (x//m) % k == 0 or x % m == 0 recorded after the other as x % (m·k) == 0 (chainRemainders),
// which says the same under the one before it, at its own origin, whose why names the other's
// node; the one before stays as it is. The skips of a U-Net's levels, H % 2 == 0, H//2 % 2 == 0,
// ..., end in H % 32 == 0 at the last level recorded. A merged remainder that one before it
// states already goes.
func mergeChains(cs []Constraint) []Constraint {
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(cs) && !changed; i++ {
			for j := 0; j < len(cs) && !changed; j++ {
				m, ok := chainRemainders(cs[i].Pred, cs[j].Pred)
				if !ok || i == j {
					continue
				}
				first, later := min(i, j), max(i, j)
				o := cs[later].Origin
				if strings.Contains(o.Why, ", with ") {
					o.Why += ", " + cs[first].Origin.Node
				} else {
					o.Why += ", with " + cs[first].Origin.Node
				}
				if slices.ContainsFunc(cs[:later], func(c Constraint) bool { return c.Pred.Equal(m) }) {
					cs = slices.Delete(cs, later, later+1)
				} else {
					cs[later] = Constraint{Pred: m, Origin: o, Also: cs[later].Also}
				}
				changed = true
			}
		}
	}
	return cs
}

// strongest returns the comparisons cs, in the order they were recorded, less those implied by
// the ones before them and the ones kept after them at the same node: of two that say the same
// the first stays, and a remainder that one before it fixes (x % 8 == 0 fixes x % 4) goes.
// Comparisons of different expressions imply nothing of each other, so each expression's are
// taken apart, in one pass from the last.
func strongest(cs []Constraint) []Constraint {
	groups := map[string][]int{}
	var order []string
	var seen facts
	drop := make([]bool, len(cs))
	for i, c := range cs {
		l, _, _ := atomOf(c.Pred)
		if _, ok := seen.knownRemainder(l); ok {
			drop[i] = true
		}
		seen.add(c.Pred)
		k := l.String()
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		idx := groups[k]
		l, _, _ := atomOf(cs[idx[0]].Pred)
		before := make([]*fact, len(idx)+1)
		before[0] = newFact(l)
		for n, i := range idx {
			_, b, _ := atomOf(cs[i].Pred)
			before[n+1] = before[n].with(b)
		}
		after := map[string]*fact{} // of each node, the comparisons kept after
		for n := len(idx) - 1; n >= 0; n-- {
			i := idx[n]
			if drop[i] {
				continue
			}
			_, b, _ := atomOf(cs[i].Pred)
			node := cs[i].Origin.Node
			f := before[n]
			if a, ok := after[node]; ok {
				f = f.meet(a)
			}
			if f.implies(b) {
				drop[i] = true
				continue
			}
			if after[node] == nil {
				after[node] = newFact(l)
			}
			after[node].apply(b)
		}
	}
	var out []Constraint
	for i, c := range cs {
		if !drop[i] {
			out = append(out, c)
		}
	}
	return out
}

// Check evaluates the recorded constraints at the binding b of symbols to integers, in the order
// they were recorded, and returns the first that does not hold as a *ConstraintError, with the
// values of its symbols: "N == 1 does not hold at N=2". A symbol that b leaves out takes the value
// a substitution gives it, when its symbols are bound. A condition on anonymous symbols is not
// checked (see Constraints). A constraint whose symbols b does not all bind is skipped, and Check
// then returns an *UnboundError naming the first such symbol when no constraint fails; nil when
// all hold.
func (s *Solver) Check(b map[string]int64) error { return s.CheckBy(b, nil) }

// CheckBy is Check, the constraint it returns the first that does not hold by seq of the nodes
// that impose it (the least of its Origin's and Also's; of equal ones the first recorded), and
// named at that node: where a run of the model that meets the nodes in the order of seq stops
// (graph.Result.RunSeq). A nil seq is Check's order.
func (s *Solver) CheckBy(b map[string]int64, seq func(Origin) int) error {
	var value func(string) (int64, bool)
	value = func(name string) (int64, bool) {
		if v, ok := b[name]; ok {
			return v, true
		}
		x, ok := s.substOf(name)
		if !ok {
			return 0, false
		}
		v, err := x.Eval(value)
		return v, err == nil
	}
	var unbound error
	var first *ConstraintError
	least := 0
	for _, e := range s.log {
		if e.defines == "" && e.cur.DependsOnAnon() {
			continue
		}
		ok, err := e.c.Pred.eval(value)
		var ue *UnboundError
		switch {
		case errors.As(err, &ue):
			if unbound == nil {
				unbound = err
			}
			continue
		case err == nil && ok:
			continue
		}
		c := e.c
		if seq != nil {
			at := slices.MinFunc(c.Origins(), func(x, y Origin) int { return cmp.Compare(seq(x), seq(y)) })
			if first != nil && seq(at) >= least {
				continue
			}
			if at.Node != c.Origin.Node {
				c.Also = slices.DeleteFunc(c.Origins(), func(x Origin) bool { return x.Node == at.Node })
				c.Origin = at
			}
			least = seq(at)
		}
		first = &ConstraintError{Constraint: c, Binding: map[string]int64{}, Err: err}
		for _, name := range c.Pred.SymbolNames() {
			if v, ok := value(name); ok {
				first.Binding[name] = v
				first.order = append(first.order, name)
			}
		}
		if seq == nil {
			break
		}
	}
	if first != nil {
		return first
	}
	return unbound
}
