package graph

import (
	"maps"
	"slices"

	"github.com/reshape-go/reshape/sym"
)

// An If whose condition the symbols decide (Equal(Gather(Shape(x), -1), 1): the last dim is 1)
// and whose branches give other shapes (a Squeeze of that dim, or not) cannot join its outputs
// without losing what follows. The engine infers the model once per branch of such an If instead:
// each run forces the branch, under its condition (engine.forced), and the two runs merge into one
// result whose conditions are those of each case under its own condition ("F == 1 && ... ||
// F != 1 && ..."), or those of the one case that runs when the other fails at every binding.
//
// A comparison of values in the symbols is a boolean value that stands for its predicate
// (ctx.Cond): an anonymous dim of bounds [0, 1], which Not, And, Cast and the operators that move
// values carry as any dim, and which an If reads back as the predicate of its condition (condOf).

// maxForks bounds how many Ifs, nested one in the runs of the other, the model is inferred once
// per branch of: 2^maxForks runs at most. Past it, an If joins its branches and loses precision.
const maxForks = 3

// A condAtom is a boolean value that stands for a predicate in the symbols (ctx.Cond): the name of
// its anonymous symbol, and the predicate.
type condAtom struct {
	name string
	pred sym.Pred
}

// A forkSite is an If inferred once per branch: its path, and its condition.
type forkSite struct {
	path string
	p    sym.Pred
}

// Cond returns the boolean value (0 or 1) of p, a comparison of dims that only a binding decides
// (of the model's symbols, or of anonymous dims too, which only a run decides): an anonymous dim
// of bounds [0, 1] that stands for p, the same for the same predicate, so that an If whose
// condition it is infers each branch under it (Branches). A p that always or never holds is 1 or 0.
func (c *ctx) Cond(p sym.Pred) sym.Dim {
	switch {
	case p.IsTrue():
		return sym.Const(1)
	case p.IsFalse():
		return sym.Const(0)
	}
	for _, a := range c.e.conds {
		if a.pred.Equal(p) {
			x, _ := c.e.tab.Lookup(a.name)
			return sym.Of(x)
		}
	}
	d := c.Fresh("cond", 0, 1)
	x, _ := d.Expr()
	name, _, _ := x.Symbol()
	c.e.conds = append(c.e.conds, condAtom{name, p})
	return d
}

// condOf returns the predicate under which the condition in, a tensor of one element, holds: its
// value is an expression in the boolean values of ctx.Cond alone, and ok is false otherwise.
func (e *engine) condOf(in *Info) (p sym.Pred, ok bool) {
	if len(in.Value) != 1 {
		return sym.Pred{}, false
	}
	x, ok := in.Value[0].Expr()
	if !ok {
		return sym.Pred{}, false
	}
	var atoms []condAtom
	for _, a := range e.conds {
		if x.Mentions(a.name) {
			atoms = append(atoms, a)
		}
	}
	if len(atoms) == 0 || len(atoms) > maxForks {
		return sym.Pred{}, false
	}
	// The truth table of the value over its atoms, as a disjunction of the rows where it holds.
	var rows []sym.Pred
	for m := range 1 << len(atoms) {
		y, ok := x.Subst(func(name string) (sym.Expr, bool) {
			i := slices.IndexFunc(atoms, func(a condAtom) bool { return a.name == name })
			return sym.Int(int64(m >> i & 1)), i >= 0
		})
		if !ok {
			return sym.Pred{}, false
		}
		v, ok := y.Const()
		if !ok {
			return sym.Pred{}, false // another symbol: not the condition of comparisons alone
		}
		if v == 0 {
			continue
		}
		row := make([]sym.Pred, len(atoms))
		for i, a := range atoms {
			row[i] = a.pred
			if m>>i&1 == 0 {
				row[i] = sym.Not(a.pred)
			}
		}
		rows = append(rows, sym.And(row...))
	}
	return sym.Or(rows...), true
}

// ofModel reports whether p is a predicate in the model's symbols alone: not in an anonymous dim
// (a count only a run decides, a join of branches) nor in an iteration number, which no binding
// of the model decides.
func (e *engine) ofModel(p sym.Pred) bool {
	return !p.DependsOnAnon() && !slices.ContainsFunc(p.SymbolNames(), func(n string) bool { _, ok := e.tab.Lookup(n); return !ok })
}

// caseWhy is the why of the condition a run that forces the If's branch k (0 for then, 1 for else)
// assumes at the If.
func caseWhy(k int) string {
	return [2]string{"the case inferred: its condition holds", "the case inferred: its condition does not hold"}[k]
}

// fork infers g again once per branch of the If at site, and merges the two runs (merge). A run
// that cannot infer g at all (a limit it reaches) leaves the result of this run, joined.
func (e *engine) fork(g *Graph, site forkSite) (*Result, error) {
	var runs [2]*Result
	for k := range runs {
		forced := maps.Clone(e.forced)
		if forced == nil {
			forced = map[string]int{}
		}
		forced[site.path] = k
		r, err := infer(g, e.opt, e.tab, forced, e.plan)
		if err != nil {
			return e.res, nil
		}
		runs[k] = r
	}
	return merge(site, runs[0], runs[1]), nil
}

// merge returns the result of a model inferred once per branch of the If at site: r1 where its
// condition holds, r2 where it does not. A run with an error a run of the model cannot avoid fails
// at every binding of its case: the other case's run is the result, under its condition, which the
// failing node imposes (the first a binding breaks names it). When both cases run, the result is
// r1's, with the conditions both need, and the disjunction of each case's others under its
// condition, at the If; its tensors of other shapes in the two cases are joined. When neither
// runs, r1 is the result, with its errors.
func merge(site forkSite, r1, r2 *Result) *Result {
	ok1, ok2 := r1.e.errs == 0, r2.e.errs == 0
	switch {
	case ok1 && !ok2:
		return assume(r1, site, site.p, r2)
	case !ok1 && ok2:
		return assume(r2, site, sym.Not(site.p), r1)
	case !ok1:
		return r1
	}
	c1, c2 := unforced(r1, site), unforced(r2, site)
	var common, a, b []sym.Constraint
	for _, k := range c1 {
		if slices.ContainsFunc(c2, func(x sym.Constraint) bool { return x.Pred.Equal(k.Pred) }) {
			common = append(common, k)
		} else {
			a = append(a, k)
		}
	}
	for _, k := range c2 {
		if !slices.ContainsFunc(c1, func(x sym.Constraint) bool { return x.Pred.Equal(k.Pred) }) {
			b = append(b, k)
		}
	}
	// The disjunction is imposed by the first node of either case that imposes a part of it, so
	// that a binding that breaks it names where a run stops, or a node that holds it.
	either := sym.Or(sym.And(site.p, sym.All(a)), sym.And(sym.Not(site.p), sym.All(b)))
	o := sym.Origin{Node: site.path, Op: "If"}
	if first := r1.e.inOrder(append(slices.Clone(a), b...)); len(first) > 0 {
		o = first[0].Origin
	}
	o.Why = "what the branch of " + site.path + " that its condition takes needs"
	r1.e.require(append(common, sym.Constraint{Pred: either, Origin: o}))
	r1.lost = union(r1.lost, r2.lost)
	for _, w := range r2.e.warnings {
		r1.e.warn(w)
	}
	joinRuns(r1, r2)
	return r1
}

// assume returns r, the run of the case of the If at site where p holds, with p among its
// conditions in place of the case's assumption, imposed by the node where failed, the run of the
// other case, fails first.
func assume(r *Result, site forkSite, p sym.Pred, failed *Result) *Result {
	o := sym.Origin{Node: site.path, Op: "If", Why: "the other branch fails"}
	if i := slices.IndexFunc(failed.Nodes, func(n NodeResult) bool { return n.Err != nil && !n.Avoidable }); i >= 0 {
		n := &failed.Nodes[i]
		o = sym.Origin{Node: n.Path, Op: n.Node.Op, Why: "where it does not hold, " + site.path + " takes its other branch, and this node fails"}
	}
	r.e.require(append(unforced(r, site), sym.Constraint{Pred: p, Origin: o}))
	return r
}

// unforced returns the constraints of r less the assumption of its case at site.
func unforced(r *Result, site forkSite) []sym.Constraint {
	return slices.DeleteFunc(slices.Clone(r.constraints), func(c sym.Constraint) bool {
		return c.Origin.Node == site.path && (c.Origin.Why == caseWhy(0) || c.Origin.Why == caseWhy(1))
	})
}

// require makes cs the constraints of the result: a new solver records them in the order of their
// nodes, so that Check finds the first a binding breaks where a run stops.
func (e *engine) require(cs []sym.Constraint) {
	cs = e.inOrder(cs)
	s := sym.NewSolver(e.tab)
	for _, c := range cs {
		s.Require(c.Pred, c.Origin) // they held together in the run: none contradicts the others
	}
	e.solver = s
	e.res.constraints = e.inOrder(s.Constraints())
}

// union returns the losses of a, and those of b that a does not hold (by node and why).
func union(a, b []Loss) []Loss {
	out := slices.Clone(a)
	for _, l := range b {
		if !slices.ContainsFunc(out, func(o Loss) bool { return o.Node == l.Node && o.Why == l.Why }) {
			out = append(out, l)
		}
	}
	return out
}

// joinRuns joins each tensor of r1 with the tensor of its path in r2, where they differ: their
// common rank, and at each axis the common dim or a new anonymous dim bounded by both.
func joinRuns(r1, r2 *Result) {
	for name, in := range r1.Tensors() {
		if other := r2.Tensor(name); other != nil {
			joinInto(r1.e.tab, name, in, other)
		}
	}
}

// joinInto sets in to the join of in and other (ctx.join), where their shapes or values differ. A
// tensor that an error leaves unknown in one case (Info.FailedAt: in a branch the case avoids) is
// what the other case gives.
func joinInto(tab *sym.Table, hint string, in, other *Info) {
	switch {
	case other.FailedAt != "":
		return
	case in.FailedAt != "":
		in.Type, in.Shape, in.Value, in.FailedAt = other.Type, other.Shape, other.Value, ""
		return
	case in.Shape.Identical(other.Shape) && sameValues(in, other):
		return
	}
	if !sameValues(in, other) {
		in.Value = nil
	}
	in.Shape = joinShape(tab, in.Shape, other.Shape, hint)
}
