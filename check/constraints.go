package check

import (
	"cmp"
	"errors"
	"slices"
	"strings"

	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/sym"
)

// Report is what checking one model finds: a row per Reshape (and per other node whose inputs
// break its rule), and the conditions the model imposes on its symbols for it to run.
type Report struct {
	// File is the model file's name, as the rows carry it.
	File string
	Rows []Row
	// Symbols lists the model's symbols that the bindings leave free, in the order inference met
	// them; none for a model whose shapes are all static.
	Symbols []string
	// Constraints lists the conditions the nodes impose on the symbols for the model to run
	// (graph.Result.Constraints), in the order inference met their nodes, and in canonical order
	// within a node: what the report says holds at every binding that satisfies them, and the first
	// a binding breaks names the node where a run stops (graph.Result.Check's). None for a oneDNN
	// Graph file, whose shapes are numbers.
	Constraints []Constraint
	// Unsupported counts the nodes without a shape rule by operator (graph.Result.Unsupported):
	// whatever they need of the symbols is not among the constraints.
	Unsupported map[string]int
}

// newReport returns the report of an inferred model without its rows. It is made before any
// declaration is read, which adds to the symbols the names only declarations use.
func newReport(res *graph.Result, file string) *Report {
	return &Report{File: file, Symbols: res.Table().Names(), Constraints: constraintsOf(res, file), Unsupported: res.Unsupported}
}

// The values of Report.Valid and Summary.Valid.
const (
	validAlways = "always"
	validWhen   = "when constraints hold"
	validNever  = "never"
)

// Valid says at which bindings of its free symbols the model runs: "never" when a row is an error
// (a node whose rule no binding satisfies, or that the bindings given break), "when constraints
// hold" when it states constraints, and "always" otherwise.
func (r *Report) Valid() string {
	return validity(slices.ContainsFunc(r.Rows, func(row Row) bool { return row.Verdict.IsError() }), len(r.Constraints))
}

// validity is "never" when something failed, "when constraints hold" when there are constraints,
// and "always" otherwise.
func validity(failed bool, constraints int) string {
	switch {
	case failed:
		return validNever
	case constraints > 0:
		return validWhen
	}
	return validAlways
}

// Constraint is a condition a model imposes on its symbols for it to run, and the node that
// imposes it (sym.Constraint, as graph.Result.Constraints lists them).
type Constraint struct {
	// Holds is the predicate, in the notation of sym.ParsePred (a JSON string: "N == 1",
	// "T % 4 == 0", "H >= 11", "A == B || B == 1").
	Holds sym.Pred `json:"holds"`
	// Node is the path of the node that imposes it ("MatMul_3", "If_1/then_branch/Add_2"), Op its
	// operator, and Why what the node needs, in a few words ("the inner dims").
	Node string `json:"node"`
	Op   string `json:"op"`
	Why  string `json:"why"`
	// Fixes names the symbols the condition forces to one value (N == 1): dims the model declares
	// dynamic that it can only run at one size. check exits 1 on such a condition unless told to
	// allow it.
	Fixes []string `json:"fixes,omitempty"`
	// File is the model file that states the constraint (Report.File).
	File string `json:"file"`
}

// constraintsOf returns the constraints of an inferred model, each with the symbols it fixes, in
// the order inference met their nodes (a node the result does not hold last), so that the first
// a binding breaks is where a run of the model stops.
func constraintsOf(res *graph.Result, file string) []Constraint {
	cs := res.Constraints()
	if len(cs) == 0 {
		return nil
	}
	order := make(map[string]int, len(res.Nodes))
	for i := range res.Nodes {
		order[res.Nodes[i].Path] = i
	}
	at := func(node string) int {
		if i, ok := order[node]; ok {
			return i
		}
		return len(res.Nodes)
	}
	out := make([]Constraint, len(cs))
	for i, c := range cs {
		out[i] = Constraint{Holds: c.Pred, Node: c.Origin.Node, Op: c.Origin.Op, Why: c.Origin.Why, File: file,
			Fixes: fixes(res.Table(), c.Pred)}
	}
	slices.SortStableFunc(out, func(a, b Constraint) int { return cmp.Compare(at(a.Node), at(b.Node)) })
	return out
}

// fixes returns the symbols of t that p forces to one value: those that a solver holding p alone
// substitutes by an integer (N == 1; H >= 16 && H <= 16 is H == 16).
func fixes(t *sym.Table, p sym.Pred) []string {
	s := sym.NewSolver(t)
	if s.Require(p, sym.Origin{}) != nil {
		return nil
	}
	var out []string
	for _, name := range p.SymbolNames() {
		x, ok := t.Lookup(name)
		if !ok {
			continue
		}
		if _, static := s.Dim(sym.Of(x)).Static(); static {
			out = append(out, name)
		}
	}
	return out
}

// brokenConstraint returns the first constraint of the model g that the bindings opt.Dims break
// (graph.Result.Check), inferring it again without them, since inference with the bindings, res,
// decides every condition and records none. A broken condition is an error of its node in res too,
// so only a result with an error a run cannot avoid is inferred again. It returns nil when nothing
// is bound, or when every constraint holds or needs a symbol left free.
func brokenConstraint(g *graph.Graph, res *graph.Result, opt Options) *sym.ConstraintError {
	if len(opt.Dims) == 0 || !slices.ContainsFunc(res.Nodes, func(r graph.NodeResult) bool { return r.Err != nil && !r.Avoidable }) {
		return nil
	}
	o := opt.graphOptions()
	o.Dims = nil
	free, err := graph.Infer(g, o)
	if err != nil {
		return nil
	}
	var ce *sym.ConstraintError
	if errors.As(free.Check(opt.Dims), &ce) {
		return ce
	}
	return nil
}

// breaks makes the row of the node that imposes a constraint the bindings break an error, with the
// condition in its message (brokenMessage). A row downstream of an error stays Unknown: the first
// error is where the model stops.
func (row *Row) breaks(ce *sym.ConstraintError) {
	if row.Verdict == Unknown {
		return
	}
	if !row.Verdict.IsError() {
		row.Verdict, row.Inferred = verdictOf(ce), nil
	}
	row.Message = brokenMessage(ce, row.Message)
}

// brokenMessage is the message of the node that imposes a constraint the bindings break, without
// the node's path and operator, which rows name apart: the condition and its values, then msg, the
// node's own message, if any ("the inner dims: N == 1 does not hold at N=2 (96 and 48 cannot be
// equal)", "the volume: N == 1 does not hold at N=2; output shape [1,12] has volume 12, ...").
func brokenMessage(ce *sym.ConstraintError, msg string) string {
	c := *ce
	o := c.Constraint.Origin
	c.Constraint.Origin.Node, c.Constraint.Origin.Op = "", ""
	text := c.Error()
	msg = strings.TrimPrefix(msg, o.Node+" ("+o.Op+"): ")
	if rest, ok := strings.CutPrefix(msg, o.Why+": "); ok && o.Why != "" && !strings.Contains(text, rest) {
		return text + " (" + rest + ")"
	}
	if strings.Contains(text, msg) {
		return text
	}
	return notes(text, msg)
}

// declarations compares the shapes a model declares with those inference gives, under the
// constraints of the result.
type declarations struct {
	// equal is the result's EqualWhen.
	equal func(a, b sym.Dim) (sym.Pred, bool)
	// model holds the symbols inference met; a name that only declarations use (an exporter's
	// "Reshapeboxes_dim_2" for a dim it could not compute) names whatever the dim is.
	model map[string]bool
}

// newDeclarations returns the comparison of the declarations of the model res inferred; it is
// made before any declaration is read (graph.Result.Declared adds the names only they use). A nil
// res compares shapes of integers and intervals.
func newDeclarations(res *graph.Result) *declarations {
	if res == nil {
		return &declarations{equal: sym.NewSolver(sym.NewTable()).EqualWhen}
	}
	d := &declarations{equal: res.EqualWhen, model: map[string]bool{}}
	for _, name := range res.Table().Names() {
		d.model[name] = true
	}
	return d
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
