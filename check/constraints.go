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

// Validity says at which bindings of its free symbols a model runs (Report.Valid, Shapes.Valid,
// Summary.Valid); it is written as its string, in text and in JSON.
type Validity string

// The validities.
const (
	ValidAlways Validity = "always"                // at every binding
	ValidWhen   Validity = "when constraints hold" // at the bindings that satisfy its constraints
	ValidNever  Validity = "never"                 // at none: a node fails
)

// Valid says at which bindings of its free symbols the model runs: ValidNever when a row is an
// error (a node whose rule no binding satisfies, or that the bindings given break), ValidWhen when
// it states constraints, and ValidAlways otherwise.
func (r *Report) Valid() Validity {
	return validity(slices.ContainsFunc(r.Rows, func(row Row) bool { return row.Verdict.IsError() }), len(r.Constraints))
}

// validity is ValidNever when something failed, ValidWhen when there are constraints, and
// ValidAlways otherwise.
func validity(failed bool, constraints int) Validity {
	switch {
	case failed:
		return ValidNever
	case constraints > 0:
		return ValidWhen
	}
	return ValidAlways
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
	at := func(node string) int {
		if i, ok := res.NodeIndex(node); ok {
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
// decides every condition and records none, and the index in res.Nodes of the node that imposes it
// (graph.Result.NodeIndex), -1 when res does not hold it. A broken condition is an error of its node
// in res too, so only a result with an error a run cannot avoid is inferred again. It returns nil
// when nothing is bound, or when every constraint holds or needs a symbol left free.
func brokenConstraint(g *graph.Graph, res *graph.Result, opt Options) (*sym.ConstraintError, int) {
	if len(opt.Dims) == 0 || !slices.ContainsFunc(res.Nodes, func(r graph.NodeResult) bool { return r.Err != nil && !r.Avoidable }) {
		return nil, -1
	}
	o := opt.graphOptions()
	o.Dims = nil
	free, err := graph.Infer(g, o)
	if err != nil {
		return nil, -1
	}
	var ce *sym.ConstraintError
	if !errors.As(free.Check(opt.Dims), &ce) {
		return nil, -1
	}
	if i, ok := res.NodeIndex(ce.Constraint.Origin.Node); ok {
		return ce, i
	}
	return ce, -1
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
