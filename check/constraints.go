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
	// Conditions are what the model needs of its symbols to run. None for a oneDNN Graph file,
	// whose shapes are numbers.
	Conditions
	// Unsupported counts the nodes without a shape rule by operator (graph.Result.Unsupported):
	// whatever they need of the symbols is not among the constraints.
	Unsupported map[string]int
	// Bindings says where the bindings of Options do less than they ask, or what a runtime
	// refuses.
	Bindings
	// Absorbed lists the Reshapes that multiply the batch into an axis a later node mixes across
	// (silent corruption at another batch); for an IR network exported at a static batch, as
	// inferred with the batch the symbol N.
	Absorbed []Absorbed
	// Batch is, for an IR network whose Parameters declare a static batch, what it needs of
	// another batch (BatchStudy); nil for other models, and when the options bind inputs.
	Batch *BatchStudy
	// Complete reports whether the constraints are all the model needs (graph.Result.Complete):
	// at every binding that satisfies them the model runs, and every OK row holds. Lost lists
	// where inference lost precision when it is not.
	Complete bool
	Lost     []Loss
}

// newReport returns the report of an inferred model without its rows. It is made before any
// declaration is read, which adds to the symbols the names only declarations use.
func newReport(res *graph.Result, file string) *Report {
	return &Report{File: file, Symbols: res.Table().Names(), Conditions: conditionsOf(res, file), Unsupported: res.Unsupported,
		Complete: res.Complete(), Lost: lossesOf(res, file)}
}

// Conditions is what a model needs of its symbols to run (graph.Result.Constraints, Limits,
// Implied and Sizes).
type Conditions struct {
	// Constraints lists the conditions the nodes impose on the symbols for the model to run, as the
	// fewest that say what they all say, in the order a runtime runs their first nodes
	// (graph.Result.RunSeq): what the report says holds at every binding that satisfies them and
	// Limits.
	Constraints []Constraint
	// Limits lists the conditions that only sizes of 2^31 or more break (graph.Result.Limits: N <=
	// 2147483647 at a Cast of N to int32), minimized under Constraints, in the same order:
	// conditions as those are, kept apart.
	Limits []Constraint
	// Implied lists the conditions of nodes that Constraints and Limits imply, each with what
	// implies it: of the three lists, the first a binding breaks by Seq names the node where a run
	// stops (graph.Result.Check's).
	Implied []Implied
	// Sizes is what the constraints and limits leave each symbol, and the smallest binding at
	// which they all hold; of a model that runs at no binding (Valid ValidNever), each free symbol
	// "none" and no smallest binding. Fixes names the symbols they leave one value (proven), in
	// table order.
	Sizes sym.Sizes
	Fixes []string
	// Warnings lists the relations the specs of the model's operators imply and that onnxruntime
	// does not check (graph.Result.Warnings): the model runs where they fail, but the outputs of
	// their nodes are then not what the model's parameters mean. None is a condition: they change
	// no row, no validity and no exit status.
	Warnings []Warning
}

// conditionsOf returns the conditions of an inferred model; its records name file.
func conditionsOf(res *graph.Result, file string) Conditions {
	var c Conditions
	c.Constraints, c.Limits, c.Implied = constraintsOf(res, file)
	for _, w := range res.Warnings() {
		c.Warnings = append(c.Warnings, Warning{Holds: w.Pred.Stated(), Node: w.Origin.Node, Op: w.Origin.Op, Why: w.Origin.Why,
			Seq: w.Origin.Seq, File: file})
	}
	if c.Stated() {
		c.Sizes = res.Sizes()
		for _, z := range c.Sizes.Symbols {
			if z.Fixed && z.Proven {
				c.Fixes = append(c.Fixes, z.Symbol)
			}
		}
	}
	return c
}

// Stated reports whether c states a condition: a constraint or a limit.
func (c *Conditions) Stated() bool { return len(c.Constraints)+len(c.Limits) > 0 }

// runsNowhere leaves c the conditions of a model that runs at no binding of its free symbols
// (ValidNever): each of them, symbols, takes no value ("none"), and no binding is the smallest
// that runs. The constraints stay: what the nodes that do not fail need.
func (c *Conditions) runsNowhere(symbols []string) {
	c.Sizes.Symbols = nil // a new list: the result's is shared
	for _, name := range symbols {
		c.Sizes.Symbols = append(c.Sizes.Symbols, sym.Size{Symbol: name, Text: "none", Max: sym.Inf, Proven: true})
	}
	c.Sizes.Smallest = nil
}

// Validity says at which bindings of its free symbols a model runs (Report.Valid, Shapes.Valid,
// Summary.Valid); it is written as its string, in text and in JSON.
type Validity string

// The validities.
const (
	ValidAlways Validity = "always"                // at every binding
	ValidWhen   Validity = "when constraints hold" // at the bindings that satisfy its constraints
	ValidNever  Validity = "never"                 // at none: a node fails
	// ValidUnknown is a Summary's when a file could not be read (Summary.Unreadable): of that
	// model nothing is known.
	ValidUnknown Validity = "unknown"
)

// Valid says at which bindings of its free symbols the model runs: ValidNever when a row is an
// error (a node whose rule no binding satisfies, or that the bindings given break), ValidWhen when
// it states constraints or limits, and ValidAlways otherwise.
func (r *Report) Valid() Validity {
	return validity(slices.ContainsFunc(r.Rows, func(row Row) bool { return row.Verdict.IsError() }), r.Stated())
}

// validity is ValidNever when something failed, ValidWhen when conditions are stated
// (Conditions.Stated: constraints or limits), and ValidAlways otherwise.
func validity(failed, stated bool) Validity {
	switch {
	case failed:
		return ValidNever
	case stated:
		return ValidWhen
	}
	return ValidAlways
}

// Constraint is a condition a model imposes on its symbols for it to run, and the node that
// imposes it (sym.Constraint, as graph.Result.Constraints lists them).
type Constraint struct {
	// Holds is the predicate, in the notation of sym.ParsePred (a JSON string: "N == 1",
	// "T % 4 == 0", "H >= 11", "A == B || B == 1", "H % 32 in {0, 29, 30, 31}", "H in 217..224").
	Holds sym.Pred `json:"holds"`
	// Node is the path of the node that imposes it ("MatMul_3", "If_1/then_branch/Add_2"), Op its
	// operator, and Why what the node needs, in a few words ("the inner dims"). Nodes lists every
	// node that imposes it (sibling branches of an Inception block), or a part of it (Merged), when
	// there are several, in the order a runtime runs them: Node, first, is where a run that breaks
	// the condition stops, unless Merged.
	Node  string   `json:"node"`
	Nodes []string `json:"nodes,omitempty"`
	Op    string   `json:"op"`
	Why   string   `json:"why"`
	// Merged says that the condition is several nodes' conditions as one (sym.Constraint.Merged:
	// "H % 6 == 0" of a Split's "H % 2 == 0" and a Reshape's "H % 3 == 0"): Nodes names them, Node
	// and Why are the first's, and each node's own condition is in Implied, where the first that
	// a binding breaks, by Seq, is at the node where a run stops.
	Merged bool `json:"merged,omitempty"`
	// Fixes names the symbols the condition forces to one value (N == 1): dims the model declares
	// dynamic that it can only run at one size. check exits 1 on such a condition unless told to
	// allow it.
	Fixes []string `json:"fixes,omitempty"`
	// Blocker names, in an IR network, the OpenVINO blocker that causes the condition, one of
	// BlockerReshape, BlockerMatMul and BlockerGlobalPool, "" for another cause; BlockerNode is
	// the path of the blocker when it is not Node (a global pool upstream of it).
	Blocker     string `json:"blocker,omitempty"`
	BlockerNode string `json:"blocker_node,omitempty"`
	// Seq is Node's position in the order a runtime runs the nodes (graph.Result.RunSeq: for an
	// ONNX model onnxruntime's): of the conditions a binding breaks, in Constraints, Limits and
	// Implied, Merged ones left out, the one of least Seq is where a run of the model stops.
	Seq int `json:"seq"`
	// File is the model file that states the constraint (Report.File).
	File string `json:"file"`
}

// Warning is a relation that the spec of a node's operator implies and that onnxruntime does not
// check (graph.Result.Warnings): a LinearClassifier of 12 coefficients for 3 classes reads its
// input [N,F] as 4 features, and onnxruntime runs it at any F. The model runs where it fails, with
// the shapes reported, but the node's outputs are then not what its parameters mean.
type Warning struct {
	// Holds is the predicate under which the node's outputs are meaningful, in the notation of
	// Constraint.Holds ("F == 4"), or as it was stated when it cannot hold ("3 == 4", at a binding
	// of F to 3).
	Holds string `json:"holds"`
	// Node is the path of the node, Op its operator, and Why what it reads ("reads its 12
	// coefficients as [3,F]").
	Node string `json:"node"`
	Op   string `json:"op"`
	Why  string `json:"why"`
	// Seq is Node's position in the order a runtime runs the nodes (graph.Result.RunSeq).
	Seq int `json:"seq"`
	// File is the model file (Report.File).
	File string `json:"file"`
}

// String returns "NODE (OP) WHY: its outputs are meaningful only when HOLDS; onnxruntime does not
// check".
func (w Warning) String() string {
	return w.Node + " (" + w.Op + ") " + w.Why + ": its outputs are meaningful only when " + w.Holds + "; onnxruntime does not check"
}

// Implied is a condition of a node that the model's Constraints and Limits imply
// (graph.Result.Implied): a weaker bound upstream of a stronger one (H >= 3 at a first Conv, H >=
// 11 at a later one), a limit that a condition implies (N <= 2147483647 beside N == 1).
type Implied struct {
	Constraint
	// By holds the indices in Constraints (in Summary.Constraints, in the summary) of the
	// conditions that together imply it, and ByLimits those in Limits (Summary.Limits) of the
	// limits among them; none of either for one that holds at every binding.
	By       []int `json:"by"`
	ByLimits []int `json:"by_limits,omitempty"`
}

// constraintsOf returns the constraints and the limits of an inferred model, each with the symbols
// it fixes, in the order a runtime runs their nodes (graph.Result.Constraints, Limits), and the
// conditions they imply.
func constraintsOf(res *graph.Result, file string) ([]Constraint, []Constraint, []Implied) {
	record := func(c sym.Constraint) Constraint {
		out := Constraint{Holds: c.Pred, Node: c.Origin.Node, Op: c.Origin.Op, Why: c.Origin.Why, Merged: c.Merged, Seq: c.Origin.Seq,
			File: file, Fixes: fixes(res.Table(), c.Pred)}
		if len(c.Also) > 0 {
			os := c.Origins()
			slices.SortStableFunc(os, func(a, b sym.Origin) int { return cmp.Compare(a.Seq, b.Seq) })
			out.Node, out.Op, out.Why, out.Seq = os[0].Node, os[0].Op, os[0].Why, os[0].Seq
			for _, o := range os {
				out.Nodes = append(out.Nodes, o.Node)
			}
		}
		return out
	}
	var cs, ls []Constraint
	for _, c := range res.Constraints() {
		cs = append(cs, record(c))
	}
	for _, c := range res.Limits() {
		ls = append(ls, record(c))
	}
	var im []Implied
	for _, c := range res.Implied() {
		out := Implied{Constraint: record(c.Constraint), By: []int{}}
		for _, k := range c.By {
			if k < len(cs) {
				out.By = append(out.By, k)
			} else {
				out.ByLimits = append(out.ByLimits, k-len(cs))
			}
		}
		im = append(im, out)
	}
	return cs, ls, im
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

// brokenConstraint returns the condition of the model g that makes its node an error, and the index
// in res.Nodes of that node (graph.Result.NodeIndex), -1 when res does not hold it: the first that
// the bindings opt.Dims break (boundBroken), or else, when no binding satisfies the conditions, the
// one that cannot hold with those before it (graph.Result.Never); nil when there is none. free is
// the model inferred without the bindings, nil when it was not.
func brokenConstraint(g *graph.Graph, res *graph.Result, opt Options) (ce *sym.ConstraintError, at int, free *graph.Result) {
	ce, at, free = boundBroken(g, res, opt)
	if ce == nil && errors.As(res.Never(), &ce) {
		at = -1
		if i, ok := res.NodeIndex(ce.Constraint.Origin.Node); ok {
			at = i
		}
	}
	return ce, at, free
}

// boundBroken returns the first constraint of the model g that the bindings opt.Dims break
// (graph.Result.Check), inferring it again without them, since inference with the bindings, res,
// decides every condition and records none, and the index in res.Nodes of the node that imposes it
// (graph.Result.NodeIndex), -1 when res does not hold it. A broken condition is an error of its node
// in res too, so only a result with an error a run cannot avoid is inferred again. It returns nil
// when nothing is bound, or when every constraint holds or needs a symbol left free. free is the
// model inferred without the bindings, nil when it was not.
func boundBroken(g *graph.Graph, res *graph.Result, opt Options) (ce *sym.ConstraintError, at int, free *graph.Result) {
	if len(opt.Dims) == 0 || !slices.ContainsFunc(res.Nodes, func(r graph.NodeResult) bool { return r.Err != nil && !r.Avoidable }) {
		return nil, -1, nil
	}
	o := opt.graphOptions()
	o.Dims = nil
	free, err := graph.Infer(g, o)
	if err != nil {
		return nil, -1, nil
	}
	if !errors.As(free.Check(opt.Dims), &ce) {
		return nil, -1, free
	}
	if i, ok := res.NodeIndex(ce.Constraint.Origin.Node); ok {
		return ce, i, free
	}
	return ce, -1, free
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

// Size is what a model's constraints leave one of its symbols (sym.Size), as JSON gives it: the
// values Ranges holds, and from From on, when Mod is not 0, those whose remainder modulo Mod is in
// Residues, up to Max (null: no greatest).
type Size struct {
	Text     string     `json:"text"`
	Min      int64      `json:"min"`
	Max      *int64     `json:"max"`
	Ranges   [][2]int64 `json:"ranges"`
	From     int64      `json:"from,omitempty"`
	Mod      int64      `json:"mod,omitempty"`
	Residues []int64    `json:"residues,omitempty"`
	// Fixed reports a single value; Proven that the values are exactly these, else Checked gives
	// the values tried, and Undecided the ranges of them that no search decided (they are among
	// the values, as a guess); With the symbols the constraints tie it to.
	Fixed     bool       `json:"fixed,omitempty"`
	Proven    bool       `json:"proven"`
	Checked   *[2]int64  `json:"checked,omitempty"`
	Undecided [][2]int64 `json:"undecided,omitempty"`
	With      []string   `json:"with,omitempty"`
	File      string     `json:"file"`
}

// SizeRecords returns the sizes of c's symbols by name, as JSON gives them, of the model file;
// nil when c has no sizes (no constraints, and a model that runs at some binding).
func (c Conditions) SizeRecords(file string) map[string]Size {
	var out map[string]Size
	for _, z := range c.Sizes.Symbols {
		if out == nil {
			out = map[string]Size{}
		}
		out[z.Symbol] = sizeRecord(z, file)
	}
	return out
}

// sizeRecord returns z as a Size of file.
func sizeRecord(z sym.Size, file string) Size {
	out := Size{Text: z.Text, Min: z.Min, Ranges: append([][2]int64{}, z.Ranges...), From: z.From, Mod: z.Mod,
		Residues: z.Residues, Fixed: z.Fixed, Proven: z.Proven, Undecided: z.Undecided, With: z.With, File: file}
	if z.Max != sym.Inf {
		m := z.Max
		out.Max = &m
	}
	if !z.Proven {
		c := z.Checked
		out.Checked = &c
	}
	return out
}

// addConditions adds the conditions of the model file to the summary: its constraints and limits,
// the conditions they imply (By indexing the summary's constraints, ByLimits its limits), the
// symbols they fix, their sizes and smallest binding.
func (s *Summary) addConditions(file string, c Conditions) {
	base, limits := len(s.Constraints), len(s.Limits)
	s.Constraints = append(s.Constraints, c.Constraints...)
	s.Limits = append(s.Limits, c.Limits...)
	s.Warnings = append(s.Warnings, c.Warnings...)
	for _, im := range c.Implied {
		im.By, im.ByLimits = shifted(im.By, base), shifted(im.ByLimits, limits)
		s.Implied = append(s.Implied, im)
	}
	for _, f := range c.Fixes {
		if !slices.Contains(s.Fixes, f) {
			s.Fixes = append(s.Fixes, f)
		}
	}
	for name, z := range c.SizeRecords(file) {
		if s.Sizes == nil {
			s.Sizes = map[string]Size{}
		}
		if _, ok := s.Sizes[name]; ok {
			name = file + ":" + name
		}
		s.Sizes[name] = z
	}
	for k, v := range c.Sizes.Smallest {
		if s.Smallest == nil {
			s.Smallest = map[string]int64{}
		}
		if _, ok := s.Smallest[k]; ok {
			k = file + ":" + k
		}
		s.Smallest[k] = v
	}
}

// shifted returns the indices ks, each plus base, in a new slice.
func shifted(ks []int, base int) []int {
	out := make([]int, len(ks))
	for i, k := range ks {
		out[i] = base + k
	}
	return out
}
