package graph

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/reshape-go/reshape/sym"
)

// minimal is the minimal form of a result's conditions, and the sizes they leave its symbols, each
// made by the first method that needs it.
type minimal struct {
	once sync.Once
	m    sym.Minimal
	// limits is the number of limits at the end of m.Constraints (Limits), which m.Implied's By
	// index with the conditions before them.
	limits    int
	sizesOnce sync.Once
	sizes     sym.Sizes
}

// conditions returns the minimal form of the conditions the nodes recorded (sym.Minimize), each
// origin's Seq its node's position in the order a runtime runs them (RunSeq), in that order, those
// of onnxruntime's memory planner weighed last. The limits among them (sym.IsLimit) are split off
// first, so that none merges into a condition of real sizes, and minimized under the others
// (sym.Minimal.AddLimits), after them in Constraints; where they may contradict the others, all
// are minimized together, and none is a limit.
func (r *Result) conditions() *sym.Minimal {
	r.minimal.once.Do(func() {
		cs := r.e.solver.Recorded()
		for i := range cs {
			r.runFirst(&cs[i])
		}
		slices.SortStableFunc(cs, func(a, b sym.Constraint) int { return cmp.Compare(a.Origin.Seq, b.Origin.Seq) })
		var own, limits []sym.Constraint
		for _, c := range cs {
			if sym.IsLimit(c.Pred) {
				limits = append(limits, c)
			} else {
				own = append(own, c)
			}
		}
		m := minimizePlanned(own)
		n, ok := m.AddLimits(limits)
		if !ok {
			m, n = minimizePlanned(cs), 0
		}
		r.minimal.limits = n
		m.Imply(r.e.solver.Replaced())
		for i := range m.Constraints {
			r.runFirst(&m.Constraints[i])
		}
		for i := range m.Implied {
			r.runFirst(&m.Implied[i].Constraint)
		}
		if m.Never != nil {
			r.runFirst(&m.Never.Constraint)
		}
		r.minimal.m = m
	})
	return &r.minimal.m
}

// minimizePlanned is sym.Minimize, the conditions of onnxruntime's memory planner (memoryPlan)
// weighed after the others: one that the others imply (with its complement, sym.Complement, they
// hold at no binding) is in Implied, by all of them, and the others' minimal form is kept (their
// dims read better than the planner's volumes); when one is not implied, all are minimized
// together.
func minimizePlanned(cs []sym.Constraint) sym.Minimal {
	isPlanned := func(c sym.Constraint) bool { return strings.HasPrefix(c.Origin.Why, planWhy) }
	own := slices.DeleteFunc(slices.Clone(cs), isPlanned)
	if len(own) == len(cs) {
		return sym.Minimize(cs)
	}
	m := sym.Minimize(own)
	by := make([]int, len(m.Constraints))
	for i := range by {
		by[i] = i
	}
	var implied []sym.Implied
	for _, c := range cs {
		if !isPlanned(c) {
			continue
		}
		complement := sym.Constraint{Pred: sym.Complement(c.Pred), Origin: c.Origin}
		if m.Never != nil || sym.Minimize(append(slices.Clone(m.Constraints), complement)).Never == nil {
			return sym.Minimize(cs)
		}
		implied = append(implied, sym.Implied{Constraint: c, By: by})
	}
	m.Implied = append(m.Implied, implied...)
	return m
}

// seqOf sets the Seq of the origin o: the position of its node in the order a runtime runs the
// nodes (RunSeq), after every node for one the result does not hold.
func (r *Result) seqOf(o *sym.Origin) {
	o.Seq = len(r.Nodes)
	if i, ok := r.NodeIndex(o.Node); ok {
		o.Seq = r.RunSeq(i)
	}
}

// runFirst sets the Seq of the origins of c (seqOf) and orders them as a run meets their nodes:
// Origin is the node where a run that breaks c stops (of a merged c, the first of its nodes), Also
// the others in the order they run. An origin of a condition a substitution rewrote is the later
// of its two nodes (laterOf).
func (r *Result) runFirst(c *sym.Constraint) {
	os := c.Origins()
	for k := range os {
		r.seqOf(&os[k])
		r.laterOf(&os[k])
	}
	slices.SortStableFunc(os, func(a, b sym.Origin) int { return cmp.Compare(a.Seq, b.Seq) })
	c.Origin, c.Also = os[0], nil
	if len(os) > 1 {
		c.Also = os[1:]
	}
}

// laterOf sets o, the origin of a condition a substitution rewrote (sym.Origin.Other: the node
// that imposed it and the node of the substitution), at whichever of the two nodes runs later: a
// run that breaks the condition where the other node's holds stops there, and one that breaks the
// other's stops at the other's own condition. Other is then the earlier one.
func (r *Result) laterOf(o *sym.Origin) {
	if o.Other == nil {
		return
	}
	w := *o.Other
	r.seqOf(&w)
	if w.Seq > o.Seq {
		here := *o
		here.Other = nil
		w.Other = &here
		*o = w
	}
}

// Constraints returns the conditions the model's nodes impose on its symbols for it to run, as the
// fewest that say what they all say (sym.Minimize): none holds always given the symbols' bounds
// and the conditions before it, none follows from the others, and a condition of one symbol reads
// in its simplest form (H % 8 == 0, H <= 4 || H % 32 in {0, 29, 30, 31}). Each names the node that
// imposes it (sym.Constraint: the predicate and its sym.Origin, the node's Path, operator, why, and
// Seq, its position in the order a runtime runs the nodes, RunSeq), and the other nodes that
// impose it too (Also, in the order they run: Origin is the node where a run that breaks it
// stops), or a part of it (sym.Constraint.Merged: several nodes' conditions as one, Origin the
// first of them, each node's own in Implied). They are in the order a run meets their first
// nodes, as the command lists them. The shapes of the result hold at every binding of the
// symbols that satisfies them and Limits. None when the model imposes none, or when
// Options.Dims binds every symbol it meets (the conditions are then decided: a node error where
// one fails). Conditions on dims the model does not name (counts only a run tells) are left out,
// and so are limits (Limits). The first call minimizes them. The slice is the caller's.
func (r *Result) Constraints() []sym.Constraint {
	cs := r.conditions().Constraints
	return slices.Clone(cs[:len(cs)-r.minimal.limits])
}

// Limits returns the limits of the model's nodes: conditions that hold wherever each symbol is at
// most sym.MaxSize (sym.IsLimit), so that only a size of 2^31 or more breaks them, as the bound
// of a dim a Cast converts to int32 (N <= 2147483647 at a Cast of N; H <= 17179869180 at a Cast
// of (H+3)//8). They are conditions as Constraints are, kept apart and minimized under them: none
// that Constraints imply (N <= 2147483647 beside N == 1, in Implied), none merged into one of
// them. The model runs at a binding that satisfies both lists, and the promise of Complete covers
// both; Sizes and Never are of both. In the order a run meets their first nodes; the slice is
// the caller's.
func (r *Result) Limits() []sym.Constraint {
	cs := r.conditions().Constraints
	return slices.Clone(cs[len(cs)-r.minimal.limits:])
}

// Conditions returns all the model needs of its symbols to run: Constraints, then Limits. The
// model runs at every binding that satisfies them, and the promise of Complete covers them all.
// The slice is the caller's.
func (r *Result) Conditions() []sym.Constraint { return slices.Clone(r.conditions().Constraints) }

// Implied returns the conditions of the model's nodes that Constraints and Limits imply, each at
// its own node with what implies it (sym.Implied.By, indices in Constraints followed by Limits:
// len(Constraints)+k is Limits()[k]): a weaker bound upstream of a stronger one (H >= 3 at a first
// Conv, H >= 11 at a later one), and the own condition of each node of a merged constraint. The
// first condition a binding breaks among the three lists, by the Seq of their origins, merged
// constraints left out, is at the node where a run of the model stops (Check says the same). The
// slice is the caller's.
func (r *Result) Implied() []sym.Implied { return slices.Clone(r.conditions().Implied) }

// Never returns, when no binding of the model's symbols satisfies the conditions its nodes impose,
// limits among them (sym.Minimal.Never: one that its canonical form makes 0 == 1, as a volume of
// W elements viewed [3,W//3,3] needs W == 9*(W//3); or one that those of the nodes before it
// leave no value), the first of them in the order a runtime runs their nodes that cannot hold with
// those before it, as a *sym.ConstraintError wrapping errcode.ErrInvalidShape, naming its node and
// the condition as the node states it ("Reshape_17 (Reshape): the volume: [N,1,1,W] to
// [N,1,1,3,W//3,3]: W == 9*(W//3) never holds", "...: H >= 8 cannot hold with H <= 4 (Conv_2
// (Conv): ...)"). The model then runs at no binding: Constraints lists the others (limits among
// them), and Sizes leaves every symbol no value. Nil when some binding may satisfy them.
func (r *Result) Never() error {
	if n := r.conditions().Never; n != nil {
		return n
	}
	return nil
}

// Sizes returns what Constraints and Limits leave each of the model's symbols (Symbols), and the
// smallest binding at which they all hold (sym.SizesOf): "N: any", "H, W: multiples of 32 from
// 32", "T: 10 only", "N: 1..2147483647" (a limit), proven where the conditions are of one symbol,
// and where conditions tie symbols found by evaluating them (sym.Size.Proven and Checked say
// which); none of any symbol, and no smallest binding, when no binding satisfies them (Never).
// The first call computes them.
func (r *Result) Sizes() sym.Sizes {
	r.minimal.sizesOnce.Do(func() {
		cs := r.Conditions()
		if r.conditions().Never != nil {
			cs = append(cs, sym.Constraint{Pred: sym.False()})
		}
		r.minimal.sizes = sym.SizesOf(r.e.tab, cs)
	})
	s := r.minimal.sizes
	s.Symbols, s.Smallest = slices.Clone(s.Symbols), maps.Clone(s.Smallest)
	return s
}

// NodeConstraints returns the conditions as the model's nodes impose them, before Constraints
// makes them the fewest (sym.Solver.Constraints: less those that the conditions of nodes before
// them, or of their own node, imply), in the order of their nodes (a node the result does not hold
// last), and within a node in canonical order: what a tool that reasons about one node's own
// conditions reads (package fix). The slice is the caller's.
func (r *Result) NodeConstraints() []sym.Constraint { return slices.Clone(r.constraints) }

// Warnings returns the relations that the specs of the model's operators imply and that
// onnxruntime does not check, each at its node (sym.Constraint: the predicate, and its origin,
// the node's path, operator, why and Seq): a LinearClassifier of 12 coefficients for 3 classes
// reads X [N,F] as 4 features, F == 4, and onnxruntime runs it at any F, reading the coefficients
// at another stride. Where the predicate fails the model still runs, with the shapes of the
// result, but its outputs are not what its parameters mean. None is among Constraints: none
// changes a shape, Check and Eval ignore them. Each predicate is in the symbols as the model's
// conditions leave them: one they make true is left out (F == 4 where a Scaler of 4 offsets
// requires it), one that cannot hold is kept as it was stated (sym.Pred.Stated: "3 == 4" at a
// binding of F to 3). In the order a runtime runs their nodes (RunSeq); the slice is the caller's.
func (r *Result) Warnings() []sym.Constraint {
	var out []sym.Constraint
	for _, w := range r.e.warnings {
		switch p := r.e.solver.When(w.Pred); {
		case p.IsTrue():
			continue
		case !p.IsFalse():
			w.Pred = p
		}
		r.seqOf(&w.Origin)
		out = append(out, w)
	}
	slices.SortStableFunc(out, func(a, b sym.Constraint) int { return cmp.Compare(a.Origin.Seq, b.Origin.Seq) })
	return out
}
