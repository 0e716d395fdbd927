// Package report gathers what checking a model finds (its verdict, inputs, symbols, conditions,
// the rows of check, every tensor, its graph and a size map) and writes it as one HTML file.
package report

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/sizemap"
	"github.com/reshape-go/reshape/sym"
)

// Model is what a report shows of one model file, as the page reads it (JSON). Rows, Summary and
// Tensors are the records of check --json and shapes --json.
type Model struct {
	File string `json:"file"`
	// Name is the file's base name, the page's title; Version the engine's (Version).
	Name    string   `json:"name"`
	Version string   `json:"version"`
	Verdict Verdict  `json:"verdict"`
	Inputs  []Input  `json:"inputs"`
	Symbols []Symbol `json:"symbols"`
	// Conditions are the model's constraints in check's order, each with its node's index in Nodes
	// (-1 when the graph does not hold it), and Limits its limits (check.Conditions.Limits:
	// conditions that only sizes of 2^31 or more break), so.
	Conditions []Condition `json:"conditions"`
	Limits     []Condition `json:"limits"`
	// Complete says whether the conditions are all the model needs to run (graph.Result.Complete):
	// true is a promise, false says where precision was lost (Lost), and null that no inference
	// states either (a oneDNN Graph file, whose shapes are numbers).
	Complete *bool        `json:"complete"`
	Lost     []check.Loss `json:"lost"`
	// Sizes holds, by symbol, the values the conditions leave it (check.Conditions.Sizes, as check
	// prints them: "1 only", "13..16", ">= 11", with "(checked A..B)" where they were found by
	// evaluating the conditions over A..B rather than proven); null when the model states none.
	Sizes   map[string]string `json:"sizes"`
	Summary check.Summary     `json:"summary"`
	Rows    []check.Row       `json:"rows"`
	Tensors []check.Tensor    `json:"tensors"`
	Nodes   []Node            `json:"nodes"`
	Map     *Map              `json:"map"`
	// Notes say what the report could not show, and why ("oneDNN Graph JSON: no tensors"); the
	// command adds its notes on Bindings.
	Notes []string `json:"notes"`
	// Bindings says where the bindings of Options.Check do less than they ask, what a runtime
	// refuses, and whether an IR network's weights were read (check.Report.Bindings).
	Bindings check.Bindings `json:"-"`

	facts *sizemap.Facts
	// conds holds, per condition of facts, its index in Conditions (-1 for none).
	conds []int
	// least holds, by symbol, the least value the conditions leave it (sym.Size.Min).
	least map[string]int64
}

// Verdict is the model's verdict in one sentence, and its kind: "runs" (at every binding),
// "when" (when the conditions hold; or none is stated, and they may be incomplete), "never" (a node fails at every binding, or at the bindings
// given) or "disagrees" (it runs, but declares shapes it does not have).
type Verdict struct {
	Text string `json:"text"`
	Kind string `json:"kind"`
}

// Input is a graph input: its inferred element type and shape (with the bindings given).
type Input struct {
	Name  string    `json:"name"`
	Type  string    `json:"type"`
	Shape sym.Shape `json:"shape"`
}

// Symbol is a free symbol of the model with its bounds, inclusive (hi null for none), and the value
// the map gives it when it is not an axis.
type Symbol struct {
	Name  string `json:"name"`
	Lo    int64  `json:"lo"`
	Hi    *int64 `json:"hi"`
	Value *int64 `json:"value,omitempty"`
}

// Condition is a constraint of the model (check.Constraint) with the index of its node in
// Model.Nodes, -1 when the graph does not hold it.
type Condition struct {
	check.Constraint
	NodeIndex int `json:"node_index"`
}

// Node is a node of the graph, subgraphs' included: its path, operator and the subgraph it is in
// ("" for the main graph), its inputs and outputs as indices in Model.Tensors (-1 for a constant or
// a tensor the table does not list), and its mark: "error" (its inputs break its rule), "unknown"
// (not inferred, downstream of an error), "lost" (no shape rule), "condition" (it imposes a
// condition), or "".
type Node struct {
	Path    string `json:"path"`
	Op      string `json:"op"`
	Scope   string `json:"scope,omitempty"`
	Inputs  []int  `json:"in"`
	Outputs []int  `json:"out"`
	Mark    string `json:"mark,omitempty"`
	Message string `json:"message,omitempty"`
}

// Map is the size map of a report: the picture, and the axes and values it was drawn at.
type Map struct {
	SVG     string           `json:"svg"`
	X       string           `json:"x"`
	Y       string           `json:"y"`
	Binding map[string]int64 `json:"binding"`
	Text    string           `json:"text"`
	// Conditions are the conditions the map evaluates, in the order of the SVG's legend and of
	// its cells' data-cond: the constraints and the conditions they imply, by Seq.
	Conditions []MapCondition `json:"conditions"`
}

// MapCondition is a condition of a map's legend: a constraint of the model (Cond its index in
// Model.Conditions), a condition the constraints imply, or a node whose element types a runtime
// refuses at load (Cond -1 for these two).
type MapCondition struct {
	Holds string `json:"holds"`
	Node  string `json:"node"`
	Op    string `json:"op"`
	Why   string `json:"why"`
	Cond  int    `json:"cond"`
}

// Options say what a report checks and shows.
type Options struct {
	// Check are the options of checking the model (bindings, limits).
	Check check.Options
	// Axes are the symbols and ranges of the map; the zero value chooses them.
	Axes MapAxes
	// Name is the model's name in the report and its rows, for a file read by another path (the
	// model at stdin, which the command names "-"); "" means the path Load reads.
	Name string
}

// MapAxes are the symbols of a map's axes and their ranges. An empty X or Y takes the default
// (DefaultAxes), a zero range its default (DefaultRange).
type MapAxes struct {
	X, Y   string
	Lo, Hi int64 // the range of both axes; 0, 0 for each its default
	Strip  bool  // one axis, X: a strip
	NoMap  bool  // Load draws no map
	// Dims binds the other symbols; those it leaves free take their smallest valid values.
	Dims map[string]int64
}

// Load opens the model file at path once (graph.Open), checks it as check and shapes do
// (check.Graph, check.GraphShapes), infers its graph (graph.Infer), and gathers what a report
// shows. The errors are those of check.File: the file cannot be read or does not follow its
// format. A oneDNN Graph JSON file has rows only: its report says so in Notes.
func Load(path string, opt Options) (*Model, error) {
	g, err := graph.Open(path, opt.Check.OpenOptions())
	if err != nil {
		return nil, err
	}
	defer g.Close()
	name := cmp.Or(opt.Name, path)
	rep, err := check.Graph(g, name, opt.Check)
	if err != nil {
		return nil, err
	}
	m := &Model{File: name, Name: filepath.Base(name), Version: Version(), Rows: rep.Rows, Summary: check.Summarize([]*check.Report{rep})}
	m.Summary.Files = 1
	m.Bindings = rep.Bindings
	m.Conditions, m.Limits = conditionRows(rep.Constraints), conditionRows(rep.Limits)
	m.Sizes = sizesOf(rep.Sizes)
	m.least = map[string]int64{}
	for _, z := range rep.Sizes.Symbols {
		m.least[z.Symbol] = z.Min
	}
	shapes, err := check.GraphShapes(g, name, opt.Check)
	if err != nil {
		m.Notes = append(m.Notes, "no tensors nor graph: "+err.Error())
		m.facts = &sizemap.Facts{}
		m.Verdict = m.verdict()
		return m, nil
	}
	m.Tensors = shapes.Tensors
	res, err := graph.Infer(g, graph.Options{Dims: opt.Check.Dims, Inputs: opt.Check.Inputs, BatchSize: opt.Check.BatchSize, MaxRank: opt.Check.MaxRank})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m.gather(g, res, rep)
	m.Verdict = m.verdict()
	if !opt.Axes.NoMap {
		if err := m.drawMap(opt.Axes); err != nil && !errors.Is(err, ErrNoSymbols) {
			return nil, err
		}
	}
	return m, nil
}

// sizesOf returns the values each symbol of s may take, by name; nil for none.
func sizesOf(s sym.Sizes) map[string]string {
	var out map[string]string
	for _, z := range s.Symbols {
		if out == nil {
			out = map[string]string{}
		}
		out[z.Symbol] = z.Text
		if c := z.Caveat(); c != "" {
			out[z.Symbol] += " (" + c + ")"
		}
	}
	return out
}

// gather fills the inputs, symbols, nodes and the facts of the map from the inferred graph and
// check's report of it.
func (m *Model) gather(g *graph.Graph, res *graph.Result, rep *check.Report) {
	for _, in := range g.Inputs {
		info := res.Tensor(in.Name)
		if info == nil {
			continue
		}
		m.Inputs = append(m.Inputs, Input{Name: in.Name, Type: info.Type.String(), Shape: info.Shape})
	}
	facts := &sizemap.Facts{}
	for _, name := range rep.Symbols {
		lo, hi, ok := res.Table().Bounds(name)
		if !ok {
			continue
		}
		s := Symbol{Name: name, Lo: lo}
		if hi != sym.Inf {
			s.Hi = &hi
		}
		m.Symbols = append(m.Symbols, s)
		facts.Symbols = append(facts.Symbols, sizemap.Symbol{Name: name, Lo: lo, Hi: hi})
	}
	// A node whose element types a runtime refuses at load, else the first node check finds in
	// error (the verdict's), fails at every binding: the map draws no cell as running.
	failed := false
	for i := range res.Nodes {
		if r := &res.Nodes[i]; r.TypeErr != nil {
			facts.Conditions = append(facts.Conditions, sizemap.Condition{Holds: sym.False(), Node: r.Path, Op: r.Node.Op,
				Why: "the model does not load: " + errcode.Code(r.TypeErr)})
			failed = true
			break
		}
	}
	if i := slices.IndexFunc(rep.Rows, func(r check.Row) bool { return r.Verdict.IsError() }); !failed && i >= 0 {
		r := rep.Rows[i]
		facts.Conditions = append(facts.Conditions, sizemap.Condition{Holds: sym.False(), Node: r.Name, Op: r.Op,
			Why: fmt.Sprintf("fails with %s at every binding", r.Verdict)})
		failed = true
	}
	if failed {
		m.conds = append(m.conds, -1)
	}
	conds, index := mapConditions(rep.Conditions)
	facts.Conditions = append(facts.Conditions, conds...)
	m.conds = append(m.conds, index...)
	m.completeness(rep, facts)
	m.nodes(res)
	m.facts = facts
}

// conditionRows returns the conditions cs, their nodes not yet found (NodeIndex -1); never nil,
// so that JSON writes none as [].
func conditionRows(cs []check.Constraint) []Condition {
	out := make([]Condition, len(cs))
	for i, c := range cs {
		out[i] = Condition{c, -1}
	}
	return out
}

// mapConditions returns the conditions a map evaluates, each with its index in c.Constraints (-1
// for a limit or an implied one): the constraints, the limits and the conditions they imply, by
// Seq (stable), a merged constraint (check.Constraint.Merged) after them all. A binding that
// breaks a constraint may break first an implied condition of a node met before it (H >= 3 at a
// first Conv before H >= 11 at a later one), or one of a merged constraint's nodes, which are all
// in Implied, and the first it breaks names the node where a run stops (check.Constraint.Seq):
// the cell's node.
func mapConditions(c check.Conditions) ([]sizemap.Condition, []int) {
	type cond struct {
		check.Constraint
		index int
	}
	all := make([]cond, 0, len(c.Constraints)+len(c.Limits)+len(c.Implied))
	for i, k := range c.Constraints {
		all = append(all, cond{k, i})
	}
	for _, k := range c.Limits {
		all = append(all, cond{k, -1})
	}
	for _, im := range c.Implied {
		all = append(all, cond{im.Constraint, -1})
	}
	slices.SortStableFunc(all, func(a, b cond) int {
		switch {
		case a.Merged && !b.Merged:
			return 1
		case b.Merged && !a.Merged:
			return -1
		}
		return cmp.Compare(a.Seq, b.Seq)
	})
	out, index := make([]sizemap.Condition, len(all)), make([]int, len(all))
	for i, k := range all {
		out[i], index[i] = sizemap.Condition{Holds: k.Holds, Node: k.Node, Op: k.Op, Why: k.Why}, k.index
	}
	return out, index
}

// completeness fills Complete and Lost, and the facts' completeness, from the report's
// (check.Report.Complete, check.Report.Lost, which graph.Result gives): the one place that reads
// them.
func (m *Model) completeness(rep *check.Report, facts *sizemap.Facts) {
	complete := rep.Complete
	m.Complete = &complete
	if complete {
		facts.Complete = sizemap.Complete
		return
	}
	facts.Complete = sizemap.Incomplete
	m.Lost = rep.Lost
	for _, l := range rep.Lost {
		why := l.Why
		if l.RunTime {
			why += " (only a run decides)"
		}
		facts.Lost = append(facts.Lost, sizemap.Loss{Node: l.Node, Op: l.Op, Why: why})
	}
}

// nodes fills Nodes from the inferred graph, with each node's tensors as indices in Tensors, and
// the conditions' node indices.
func (m *Model) nodes(res *graph.Result) {
	// A node's outputs are the tensors shapes lists for it, in order (an IR port is named by its
	// names attribute, not by the graph's name of it); a graph input is listed by its name.
	byName := make(map[[2]string]int, len(m.Tensors))
	byNode := make(map[string][]int, len(res.Nodes))
	for i, t := range m.Tensors {
		if t.Node == "" {
			byName[[2]string{t.Graph, t.Name}] = i
		} else {
			byNode[t.Node] = append(byNode[t.Node], i)
		}
	}
	m.Nodes = make([]Node, len(res.Nodes))
	at := make(map[string]int, len(res.Nodes))
	lost := make(map[string]string, len(m.Lost))
	for _, l := range m.Lost {
		lost[l.Node] = l.Why
	}
	for i := range res.Nodes {
		r := &res.Nodes[i]
		n := &m.Nodes[i]
		*n = Node{Path: r.Path, Op: r.Node.Op, Scope: r.Scope, Inputs: make([]int, 0, len(r.Node.Inputs)), Outputs: make([]int, 0, len(r.Node.Outputs))}
		listed := byNode[r.Path]
		for k, out := range r.Node.Outputs {
			if out == "" || r.Outputs[k] == nil || len(listed) == 0 {
				continue
			}
			byName[[2]string{r.Scope, out}] = listed[0]
			n.Outputs = append(n.Outputs, listed[0])
			listed = listed[1:]
		}
		switch {
		case r.Err != nil && !r.Avoidable:
			n.Mark, n.Message = "error", r.Err.Error()
		case r.Blocked != "":
			n.Mark, n.Message = "unknown", "not inferred: downstream of the error at "+r.Blocked
		case lost[r.Path] != "":
			n.Mark, n.Message = "lost", "precision is lost: "+lost[r.Path]
		}
		at[r.Path] = i
	}
	// A subgraph reads the tensors of the graphs around it: look in its own, then outward.
	find := func(scope, name string) int {
		for {
			if i, ok := byName[[2]string{scope, name}]; ok {
				return i
			}
			if scope == "" {
				return -1
			}
			k, ok := at[scope[:max(strings.LastIndexByte(scope, '/'), 0)]]
			if !ok {
				return -1
			}
			scope = res.Nodes[k].Scope
		}
	}
	for i := range res.Nodes {
		for _, in := range res.Nodes[i].Node.Inputs {
			if in != "" {
				m.Nodes[i].Inputs = append(m.Nodes[i].Inputs, find(res.Nodes[i].Scope, in))
			}
		}
	}
	for _, cs := range [][]Condition{m.Conditions, m.Limits} {
		for i := range cs {
			if k, ok := at[cs[i].Node]; ok {
				cs[i].NodeIndex = k
				if m.Nodes[k].Mark == "" {
					m.Nodes[k].Mark = "condition"
				}
			}
		}
	}
}

// Facts returns what the model's size map is computed from.
func (m *Model) Facts() *sizemap.Facts { return m.facts }

// ErrNoSymbols is the error of a map of a model whose shapes are all static: there is nothing to
// draw. It wraps errcode.ErrSyntax.
var ErrNoSymbols = errcode.Errorf(errcode.ErrSyntax, "the model has no symbols left free: it runs at one size")

// SizeMap computes the model's size map over the axes a (DefaultAxes and DefaultRange where a
// leaves them out). The errors are ErrNoSymbols, and those of sizemap.Compute.
func (m *Model) SizeMap(a MapAxes) (*sizemap.Map, error) {
	if len(m.facts.Symbols) == 0 {
		return nil, ErrNoSymbols
	}
	x, y := a.X, a.Y
	if x == "" {
		x, y = m.DefaultAxes()
		if a.Y != "" {
			y = a.Y
		}
		if y == x {
			y = ""
		}
	}
	if a.Strip {
		y = ""
	}
	opt := sizemap.Options{X: m.axis(x, a), Dims: a.Dims}
	if y != "" {
		opt.Y = m.axis(y, a)
	}
	return sizemap.Compute(m.facts, opt)
}

// drawMap computes the default map and draws it.
func (m *Model) drawMap(a MapAxes) error {
	sm, err := m.SizeMap(a)
	if err != nil {
		return err
	}
	var b strings.Builder
	if err := sm.WriteSVG(&b, m.Name); err != nil {
		return err
	}
	m.Map = &Map{SVG: b.String(), X: sm.X.Symbol, Y: sm.Y.Symbol, Binding: sm.Binding, Text: sm.String()}
	for i, c := range sm.Facts.Conditions {
		m.Map.Conditions = append(m.Map.Conditions, MapCondition{Holds: c.Holds.String(), Node: c.Node, Op: c.Op, Why: c.Why, Cond: m.conds[i]})
	}
	for i := range m.Symbols {
		if v, ok := sm.Binding[m.Symbols[i].Name]; ok {
			m.Symbols[i].Value = &v
		}
	}
	return nil
}

// axis returns the axis of symbol name: the range of a, or DefaultRange.
func (m *Model) axis(name string, a MapAxes) sizemap.Axis {
	if a.Lo != 0 || a.Hi != 0 {
		return sizemap.Axis{Symbol: name, Lo: a.Lo, Hi: a.Hi}
	}
	lo, hi := m.DefaultRange(name)
	return sizemap.Axis{Symbol: name, Lo: lo, Hi: hi}
}

// DefaultAxes returns the symbols a map shows when none are given: the last two symbolic dims, past
// the batch (dim 0), of the first graph input that has any (the spatial dims of an image [N,C,H,W],
// the sequence of [B,T,C]: then y is ""), else the first symbol of any input, else the first
// symbol of the model.
func (m *Model) DefaultAxes() (x, y string) {
	var firsts []string
	for _, in := range m.Inputs {
		var names []string
		for k, d := range in.Shape.Dims {
			e, ok := d.Expr()
			if !ok {
				continue
			}
			name, anon, isSym := e.Symbol()
			if !isSym || anon || slices.Contains(names, name) || !m.hasSymbol(name) {
				continue
			}
			if k == 0 {
				firsts = append(firsts, name)
				continue
			}
			names = append(names, name)
		}
		switch {
		case len(names) >= 2:
			return names[len(names)-2], names[len(names)-1]
		case len(names) == 1:
			return names[0], ""
		}
	}
	if len(firsts) > 0 {
		return firsts[0], ""
	}
	if len(m.Symbols) > 0 {
		return m.Symbols[0].Name, ""
	}
	return "", ""
}

func (m *Model) hasSymbol(name string) bool {
	return slices.ContainsFunc(m.Symbols, func(s Symbol) bool { return s.Name == name })
}

// number is an integer as conditions print it.
var number = regexp.MustCompile(`\b[0-9]+\b`)

// DefaultRange returns the range of a map's axis for the symbol name when none is given: from its
// lower bound (at least 1) to twice the largest number up to 256 the conditions on it mention, at
// least 64 and at most 512 values, within its upper bound. Where that range holds none of the values
// the conditions leave the symbol (ISNet exported at 1024 runs at H in 1023..1024), the same number
// of values is centred on the least of them instead, so that the map shows where the model runs.
func (m *Model) DefaultRange(name string) (lo, hi int64) {
	lo, hi = 1, sym.Inf
	if i := slices.IndexFunc(m.facts.Symbols, func(s sizemap.Symbol) bool { return s.Name == name }); i >= 0 {
		lo, hi = max(m.facts.Symbols[i].Lo, 1), m.facts.Symbols[i].Hi
	}
	most := int64(64)
	for _, c := range m.facts.Conditions {
		if !slices.Contains(c.Holds.SymbolNames(), name) {
			continue
		}
		for _, s := range number.FindAllString(c.Holds.String(), -1) {
			if v, err := strconv.ParseInt(s, 10, 64); err == nil && v <= 256 {
				most = max(most, v)
			}
		}
	}
	if least := m.least[name]; least > lo+2*most-1 && least <= hi {
		lo = max(lo, least-most)
	}
	return lo, min(hi, lo+2*most-1)
}
