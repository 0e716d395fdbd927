package check

import (
	"cmp"
	"slices"
	"sync"

	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/sym"
)

// declarations compares the shapes a model declares with those inference gives, under the
// constraints of the result.
type declarations struct {
	// equal is the result's EqualWhen.
	equal func(a, b sym.Dim) (sym.Pred, bool)
	// model holds the symbols inference met; a name that only declarations use (an exporter's
	// "Reshapeboxes_dim_2" for a dim it could not compute) names whatever the dim is.
	model map[string]bool
	// fixed returns the values of the symbols that the constraints together leave one value
	// (graph.Result.Sizes, proven), computed on the first call; nil without a result.
	fixed func() map[string]int64
	// constraints returns the model's constraints and limits (graph.Result.Constraints, Limits),
	// in the order of their nodes, computed on the first call; nil without a result.
	constraints func() []sym.Constraint
}

// newDeclarations returns the comparison of the declarations of the model res inferred; it is
// made before any declaration is read (graph.Result.Declared adds the names only they use). A nil
// res compares shapes of integers and intervals.
func newDeclarations(res *graph.Result) *declarations {
	if res == nil {
		return &declarations{equal: sym.NewSolver(sym.NewTable()).EqualWhen}
	}
	d := &declarations{equal: res.EqualWhen, model: map[string]bool{}, fixed: sync.OnceValue(func() map[string]int64 {
		fixed := map[string]int64{}
		for _, z := range res.Sizes().Symbols {
			if z.Fixed && z.Proven {
				fixed[z.Symbol] = z.Min
			}
		}
		return fixed
	}), constraints: sync.OnceValue(func() []sym.Constraint {
		cs := res.Conditions()
		slices.SortStableFunc(cs, func(a, b sym.Constraint) int { return cmp.Compare(a.Origin.Seq, b.Origin.Seq) })
		return cs
	})}
	for _, name := range res.Table().Names() {
		d.model[name] = true
	}
	return d
}

// underConstraints returns when as it reads at the bindings that satisfy the model's constraints
// (its limits among them): with the symbols they fix replaced by their values (true for a
// declared [B,T,64] and an inferred [2,10,64] where B*T == 20, B <= 2 and T in {1, 10} leave only
// B=2, T=10, a TransformerEncoder exported at that size), and true when they imply it (RAFT's
// declared [N,2,H,W] for an inferred [N,2,8*(H//8),8*(W//8)] where the model runs only when
// H % 8 == 0 and W % 8 == 0): the proof of sym.Minimize, where when joins them last and leaves no
// condition of its own (one equal to an earlier condition is that condition, at its node first).
func (d *declarations) underConstraints(when sym.Pred) sym.Pred {
	if d.fixed == nil || when.IsTrue() || when.IsFalse() {
		return when
	}
	if fixed := d.fixed(); len(fixed) > 0 {
		if p, ok := when.Subst(func(name string) (sym.Expr, bool) {
			v, ok := fixed[name]
			return sym.Int(v), ok
		}); ok {
			when = p
		}
	}
	cs := d.constraints()
	if when.IsTrue() || when.IsFalse() || len(cs) == 0 {
		return when
	}
	mark := sym.Origin{Node: "\x00declared", Seq: cs[len(cs)-1].Origin.Seq + 1}
	m := sym.Minimize(append(slices.Clone(cs), sym.Constraint{Pred: when, Origin: mark}))
	if m.Never == nil && !slices.ContainsFunc(m.Constraints, func(c sym.Constraint) bool { return c.Origin.Node == mark.Node }) {
		return sym.True()
	}
	return when
}

// equalWhen returns the condition under which the declared shape is the inferred one at every
// binding that satisfies the constraints: true, false, or the condition (a declared [N,N,4] and
// an inferred [N,10,4] are equal only when N == 10; a declared [N,12] and an inferred [1,12] when
// N == 1, which is true where the model's constraints say N == 1). A dynamic rank on either side is
// true. A name that only declarations use stands for the inferred dim it is declared for (the first,
// within the shape). A pair of dims whose condition cannot be stated in the model's symbols (a dim
// known only by its bounds, an anonymous symbol) counts as equal when their bounds meet: nothing
// proves them different.
func (d *declarations) equalWhen(inferred, declared sym.Shape) sym.Pred {
	if inferred.RankDynamic || declared.RankDynamic {
		return sym.True()
	}
	if len(inferred.Dims) != len(declared.Dims) {
		return sym.False()
	}
	named := map[string]sym.Expr{}
	lookup := func(name string) (sym.Expr, bool) {
		x, ok := named[name]
		return x, ok
	}
	var conds []sym.Pred
	for i, a := range inferred.Dims {
		b := declared.Dims[i].Subst(lookup)
		xa, oka := a.Expr()
		if xb, ok := b.Expr(); ok {
			if name, anon, isSym := xb.Symbol(); isSym && !anon && d.declaredOnly(name) {
				if oka && !xa.DependsOnAnon() {
					named[name] = xa
				}
				continue
			}
		}
		when, ok := d.equal(a, b)
		switch {
		case ok && (when.IsTrue() || when.IsFalse()):
		case !ok || d.unstated(when) || oka && xa.DependsOnAnon():
			when = sym.True()
			if !a.Compatible(b) {
				when = sym.False()
			}
		}
		if when.IsFalse() {
			return when
		}
		conds = append(conds, when)
	}
	return sym.And(conds...)
}

// declaredOnly reports whether name is a symbol only declarations use.
func (d *declarations) declaredOnly(name string) bool { return d.model != nil && !d.model[name] }

// unstated reports whether the condition p names a symbol only declarations use.
func (d *declarations) unstated(p sym.Pred) bool {
	return slices.ContainsFunc(p.SymbolNames(), d.declaredOnly)
}

// verdict returns the verdict of the output k of the node r, inferred without error, against
// decl, the shape the model declares for it (res.Declared: ONNX value_info or graph output, an IR
// output port's dims): Inferred when the output is the declaration itself (no shape rule) or of
// unknown rank; Mismatch when it is of another kind (a tensor, a sequence, a map); OK when they are equal at every binding that satisfies the constraints; else
// Mismatch, or Stale when the bindings rebind the model's inputs.
func (d *declarations) verdict(r *graph.NodeResult, k int, decl sym.Shape, rebinds bool) (Verdict, string) {
	out := r.Outputs[k]
	switch d := r.Graph.Declared[r.Node.Outputs[k]]; {
	case out.FromDecl:
		return Inferred, "no shape rule for " + r.Node.Op + ": the shape is the model's declaration"
	case !sameKind(out, d):
		return Mismatch, "the model declares " + kindOf(d) + ", and the rules give " + infoKind(out)
	case out.Shape.RankDynamic:
		return Inferred, "the rules give a shape of unknown rank: nothing to compare the declaration with"
	}
	switch when := d.underConstraints(d.equalWhen(out.Shape, decl)); {
	case when.IsTrue():
		return OK, ""
	case rebinds:
		return Stale, staleDeclaration(decl, out.Shape)
	default:
		return Mismatch, disagreement(decl, out.Shape, when)
	}
}

// disagreement is the message of a declared shape that is not the inferred one: "the model
// declares [N,N,4], the rules give [N,10,4]", and ": equal only when N == 10" when they can be
// equal.
func disagreement(declared, inferred sym.Shape, when sym.Pred) string {
	msg := "the model declares " + declared.String() + ", the rules give " + inferred.String()
	if !when.IsFalse() {
		msg += ": equal only when " + when.String()
	}
	return msg
}
