package graph

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// ctx is what a shape rule sees of the node it infers: the Infos of its inputs, its attributes,
// the outputs it sets, and the engine's symbols and subgraph runs.
//
// What a rule holds from ctx is current: after a ctx method that may unify (Unify, Require,
// Broadcast, the subgraph runs) returns, the Infos of the node's inputs and outputs, the outputs
// of its subgraphs and the dims that dims and clone gave the rule hold the substitutions
// unification has found (refresh), so that a rule never computes with a symbol its own
// unification replaced. A dim the rule copied elsewhere (a local variable, a slice of its own)
// is as it was when copied.
type ctx struct {
	e     *engine
	gen   int // the engine's substitution generation when the rule started
	fresh int // the generation what the rule holds is at (refresh)
	s     *scope
	n     *Node
	index int
	path  string
	in    []*Info
	out   []*Info
	// held holds the outputs of the subgraphs the rule ran, and work the dims that dims and clone
	// gave it: with in and out, what refresh keeps current.
	held []*Info
	work [][]sym.Dim
	// branching reports a rule inferring the branches of a node that runs one of them once
	// (Branches), not a body run per iteration.
	branching bool
	// lost is the loss the rule recorded (Lost, RunTime), "" for none; runTime reports one that
	// only a run decides.
	lost    string
	runTime bool
	// typeErr is an element-type error the rule found beside the type signature (a tensor inserted
	// into a sequence of another element type), which a runtime refuses at load: the node's
	// NodeResult.TypeErr, while the rule infers on.
	typeErr error
	// runs holds, by attribute, where the nodes of the subgraph's last recorded run start in
	// Result.Nodes: a run of it again replaces them.
	runs map[string]int
}

// refresh applies the substitutions unification has found since the last refresh (or the rule's
// start) to what the rule holds: the Infos of the node's inputs and outputs and of its subgraphs'
// outputs, in place (engine.current), and the dims of work. It costs a comparison when nothing was
// substituted.
func (c *ctx) refresh() {
	if gen := c.e.solver.Gen(); gen != c.fresh {
		c.refreshTo(gen)
	}
}

// refreshTo is refresh when the generation has changed to gen.
func (c *ctx) refreshTo(gen int) {
	c.fresh = gen
	for _, infos := range [...][]*Info{c.in, c.out, c.held} {
		for _, in := range infos {
			c.e.current(in)
		}
	}
	for _, dims := range c.work {
		for i, d := range dims {
			dims[i] = c.e.solver.Dim(d)
		}
	}
}

// Node returns the node.
func (c *ctx) Node() *Node { return c.n }

// Siblings returns the nodes of the graph that holds the node, and of the graphs that hold that
// one: what a rule that pairs nodes reads (OpenVINO's Assign-3 and the ReadValue-3 of its
// variable). The slices are the graphs' own: a rule reads them.
func (c *ctx) Siblings() iter.Seq[*Node] {
	return func(yield func(*Node) bool) {
		for s := c.s; s != nil; s = s.parent {
			for i := range s.g.Nodes {
				if !yield(&s.g.Nodes[i]) {
					return
				}
			}
		}
	}
}

// Version returns the opset version the node is bound to.
func (c *ctx) Version() int64 { return c.n.Version }

// NumIn returns the number of inputs the node names, left-out optional ones included.
func (c *ctx) NumIn() int { return len(c.in) }

// NumOut returns the number of outputs the node names.
func (c *ctx) NumOut() int { return len(c.out) }

// In returns the Info of input i, or nil when the node has no input i or leaves it out.
func (c *ctx) In(i int) *Info {
	if i < 0 || i >= len(c.in) {
		return nil
	}
	return c.in[i]
}

// Bound reports whether the model is inferred at a binding (Options.Dims, Inputs or BatchSize),
// where an integer of a shape may come from the binding rather than the file.
func (c *ctx) Bound() bool { return c.e.rebinds() }

// RefusedAtLoad reports whether a runtime refuses the node when it loads the model, whatever the
// bindings: Result.AtLoad of the node in the model inferred without the bindings (made once per
// inference, on first use). A rule inferring at a binding (Bound) asks it where onnx's shape
// inference at load sees integers of the file that the binding cannot tell apart from its own. A
// node that inference does not reach, or an inference that fails, is not refused; without a
// binding it is false.
func (c *ctx) RefusedAtLoad() bool {
	if !c.Bound() {
		return false
	}
	r := c.e.fileResult(c.s)
	if r == nil {
		return false
	}
	i, ok := r.NodeIndex(c.path)
	return ok && r.AtLoad(i)
}

// FromInput reports whether input i of the node is an input of its graph or of a graph around
// it (an IR Parameter, an ONNX graph input, a body's formal parameter): a value that is never a
// constant of the model, whatever inference knows of it.
func (c *ctx) FromInput(i int) bool {
	_, ok := c.Declared(i)
	return ok
}

// Declared returns the declaration of input i of the node when it is an input of its graph or of
// a graph around it (FromInput): the type and shape the model declares, whatever a binding gives.
func (c *ctx) Declared(i int) (Decl, bool) {
	if i < 0 || i >= len(c.n.Inputs) || c.n.Inputs[i] == "" {
		return Decl{}, false
	}
	for s := c.s; s != nil; s = s.parent {
		for _, in := range s.g.Inputs {
			if in.Name == c.n.Inputs[i] {
				return in.Decl, true
			}
		}
	}
	return Decl{}, false
}

// Input returns the Info of input i, which the node must give: a missing one is an error wrapping
// errcode.ErrSyntax.
func (c *ctx) Input(i int) (*Info, error) {
	if in := c.In(i); in != nil {
		return in, nil
	}
	return nil, c.Errorf(errcode.ErrSyntax, "input %d is missing: %s takes it", i, c.n.Op)
}

// Inputs returns the Infos of inputs 0..n-1, which the node must give: a missing one is an error
// wrapping errcode.ErrSyntax. (The engine has checked the node's input count against the
// operator's signature before the rule runs.) The slice is the node's own: a rule reads it.
func (c *ctx) Inputs(n int) ([]*Info, error) {
	for i := range n {
		if _, err := c.Input(i); err != nil {
			return nil, err
		}
	}
	return c.in[:n:n], nil
}

// dims returns n dims for a rule's shape or values, zeroed: a slice of capacity n cut from the
// engine's blocks, which the rule fills, and which refresh keeps current (within its capacity).
func (c *ctx) dims(n int) []sym.Dim {
	d := c.e.dims.Make(n)
	c.work = append(c.work, d)
	return d
}

// clone returns a copy of dims as dims gives one, nil for none (as append to nil).
func (c *ctx) clone(dims []sym.Dim) []sym.Dim {
	if len(dims) == 0 {
		return nil
	}
	return append(c.dims(len(dims))[:0], dims...)
}

// Set sets output i to info; an output the node does not name is ignored.
func (c *ctx) Set(i int, info *Info) {
	if i >= 0 && i < len(c.out) && c.n.Outputs[i] != "" {
		// The output may hold dims the rule copied before its last unification: it takes the
		// substitutions found since the rule started at the next refresh, or when it is read.
		info.gen = c.gen
		c.out[i] = info
	}
}

// Out sets output i to a tensor of type t and shape s, and returns its Info (to which the rule may
// add a Value).
func (c *ctx) Out(i int, t element.Type, s sym.Shape) *Info {
	info := c.e.newInfo(t, s)
	c.Set(i, info)
	return info
}

// Errorf returns an error wrapping code with the message; the engine prefixes it with the node's
// path.
func (c *ctx) Errorf(code error, format string, args ...any) error {
	return errcode.Errorf(code, format, args...)
}

// wrap prefixes err with the node's path and operator, keeping its code (errcode.ErrSyntax for an
// error without one).
func (c *ctx) wrap(err error) error {
	where := c.path + " (" + c.n.Op + ")"
	if errcode.Code(err) == "" {
		return errcode.Errorf(errcode.ErrSyntax, "%s: %v", where, err)
	}
	return fmt.Errorf("%s: %w", where, err)
}

// attr returns the attribute named name, and an error when it is not of one of the kinds given
// (an IR attribute, text, is always accepted: the caller parses it).
func (c *ctx) attr(name string, kinds ...AttrKind) (*Attr, bool, error) {
	a, ok := c.n.Attr(name)
	if !ok {
		return nil, false, nil
	}
	if a.Kind == AttrText {
		return a, true, nil
	}
	for _, k := range kinds {
		if a.Kind == k {
			return a, true, nil
		}
	}
	want := make([]string, len(kinds))
	for i, k := range kinds {
		want[i] = k.String()
	}
	return nil, false, c.Errorf(errcode.ErrSyntax, "attribute %s is %v, want %s", name, a.Kind, strings.Join(want, " or "))
}

// Int returns the integer attribute name, def when the node does not have it.
func (c *ctx) Int(name string, def int64) (int64, error) {
	a, ok, err := c.attr(name, AttrInt)
	if err != nil || !ok {
		return def, err
	}
	if a.Kind == AttrText {
		v, err := strconv.ParseInt(strings.TrimSpace(a.Text), 10, 64)
		if err != nil {
			return def, c.Errorf(errcode.ErrSyntax, "attribute %s=%q is not an integer", name, a.Text)
		}
		return v, nil
	}
	return a.Int, nil
}

// Ints returns the integer list attribute name; ok is false when the node does not have it.
func (c *ctx) Ints(name string) (v []int64, ok bool, err error) {
	a, ok, err := c.attr(name, AttrInts)
	if err != nil || !ok {
		return nil, false, err
	}
	if a.Kind != AttrText {
		return a.Ints, true, nil
	}
	if strings.TrimSpace(a.Text) == "" {
		return []int64{}, true, nil
	}
	for f := range strings.SplitSeq(a.Text, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, false, c.Errorf(errcode.ErrSyntax, "attribute %s=%q is not a list of integers", name, a.Text)
		}
		v = append(v, n)
	}
	return v, true, nil
}

// Float returns the floating-point attribute name, def when the node does not have it.
func (c *ctx) Float(name string, def float64) (float64, error) {
	a, ok, err := c.attr(name, AttrFloat)
	if err != nil || !ok {
		return def, err
	}
	if a.Kind == AttrText {
		v, err := strconv.ParseFloat(strings.TrimSpace(a.Text), 64)
		if err != nil {
			return def, c.Errorf(errcode.ErrSyntax, "attribute %s=%q is not a number", name, a.Text)
		}
		return v, nil
	}
	return a.Float, nil
}

// Floats returns the floating-point list attribute name; ok is false when the node does not have
// it.
func (c *ctx) Floats(name string) (v []float64, ok bool, err error) {
	a, ok, err := c.attr(name, AttrFloats)
	if err != nil || !ok {
		return nil, false, err
	}
	if a.Kind != AttrText {
		return a.Floats, true, nil
	}
	if strings.TrimSpace(a.Text) == "" {
		return []float64{}, true, nil
	}
	for f := range strings.SplitSeq(a.Text, ",") {
		n, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, false, c.Errorf(errcode.ErrSyntax, "attribute %s=%q is not a list of numbers", name, a.Text)
		}
		v = append(v, n)
	}
	return v, true, nil
}

// String returns the string attribute name, def when the node does not have it.
func (c *ctx) String(name, def string) (string, error) {
	a, ok, err := c.attr(name, AttrString)
	if err != nil || !ok {
		return def, err
	}
	if a.Kind == AttrText {
		return a.Text, nil
	}
	return a.String, nil
}

// Strings returns the string list attribute name (an IR attribute: its text split at commas); ok
// is false when the node does not have it.
func (c *ctx) Strings(name string) (v []string, ok bool, err error) {
	a, ok, err := c.attr(name, AttrStrings)
	if err != nil || !ok {
		return nil, false, err
	}
	if a.Kind == AttrText {
		return strings.Split(a.Text, ","), true, nil
	}
	return a.Strings, true, nil
}

// Tensor returns the tensor attribute name; ok is false when the node does not have it.
func (c *ctx) Tensor(name string) (t *Const, ok bool, err error) {
	a, ok, err := c.attr(name, AttrTensor)
	if err != nil || !ok {
		return nil, false, err
	}
	if a.Kind == AttrText || a.Tensor == nil {
		return nil, false, c.Errorf(errcode.ErrSyntax, "attribute %s holds no tensor", name)
	}
	return a.Tensor, true, nil
}

// Graph returns the subgraph attribute name, which the node must have.
func (c *ctx) Graph(name string) (*Graph, error) {
	a, ok, err := c.attr(name, AttrGraph)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, c.Errorf(errcode.ErrSyntax, "attribute %s is missing: %s takes it", name, c.n.Op)
	case a.Kind == AttrText || a.Graph == nil:
		return nil, c.Errorf(errcode.ErrSyntax, "attribute %s holds no graph", name)
	}
	return a.Graph, nil
}

// Value returns the known values of input i (Info.Value).
func (c *ctx) Value(i int) ([]sym.Dim, bool) {
	in := c.In(i)
	if in == nil || in.Value == nil {
		return nil, false
	}
	return in.Value, true
}

// IntsIn returns the values of input i when each is a known integer.
func (c *ctx) IntsIn(i int) ([]int64, bool) { return c.In(i).Ints() }

// Unify records that the dims a and b must be equal for the node to run (the inner dims of a
// MatMul, the non-axis dims of Concat), and returns the dim that stands for both: where one is a
// symbol, it is replaced by the other everywhere (sym.Solver.Unify). The equality is recorded as a
// constraint of the node, what saying why. It returns an error wrapping errcode.ErrInvalidShape
// when the two cannot be equal (bounds that do not meet, 2*N and 3, or a contradiction of the
// constraints recorded before); what names them in the message.
func (c *ctx) Unify(a, b sym.Dim, what string) (sym.Dim, error) {
	d, err := c.unify(a, b, what)
	c.refresh()
	if err != nil {
		return a, c.Errorf(errcode.ErrInvalidShape, "%s: %v and %v cannot be equal%s", what, a, b, conflict(err))
	}
	return d, nil
}

// unify is Unify without its message and without refresh: sym.Solver.Unify with the node's
// origin.
func (c *ctx) unify(a, b sym.Dim, why string) (sym.Dim, error) {
	return c.e.solver.Unify(a, b, sym.Origin{Node: c.path, Op: c.n.Op, Why: why})
}

// Require records that p must hold for the node to run, as a constraint of the node whose why
// says what needs it ("the volume", "kernel axis 0"): sym.Solver.Require, with the node's path and
// operator as the constraint's sym.Origin. It returns an error wrapping errcode.ErrInvalidShape,
// a *sym.ConstraintError, when p can never hold, alone or with the constraints recorded before
// (the message names them): "the volume: 2*N == 3 never holds".
func (c *ctx) Require(p sym.Pred, why string) error {
	err := c.require(p, why)
	c.refresh()
	return err
}

// require is Require without refresh.
func (c *ctx) require(p sym.Pred, why string) error {
	err := c.e.solver.Require(p, sym.Origin{Node: c.path, Op: c.n.Op, Why: why})
	var ce *sym.ConstraintError
	if errors.As(err, &ce) {
		return nodeConstraint{ce}
	}
	return err
}

// When returns the condition under which p holds at the bindings that satisfy the conditions
// recorded so far (sym.Solver.When): true, false, or p simplified under them.
func (c *ctx) When(p sym.Pred) sym.Pred { return c.e.solver.When(p) }

// Never reports whether p is proven to hold at no binding that satisfies the conditions recorded
// so far (sym.Solver.Never).
func (c *ctx) Never(p sym.Pred) bool { return c.e.solver.Never(p) }

// witnessEvals is the most bindings Witness evaluates.
const witnessEvals = 4096

// Witness reports whether a binding of the symbols of p, each from its least value on (as many
// values each as witnessEvals allows in all), satisfies p and the conditions recorded so far that
// bind no other symbol: p holds somewhere, where Never could not prove the contrary.
func (c *ctx) Witness(p sym.Pred) bool {
	q := c.When(p)
	names := q.SymbolNames()
	if q.IsFalse() || len(names) == 0 {
		return q.IsTrue()
	}
	span := max(int64(math.Pow(witnessEvals, 1/float64(len(names)))), 1)
	lo, hi := make([]int64, len(names)), make([]int64, len(names))
	b := make(map[string]int64, len(names))
	for i, n := range names {
		l, h, _ := c.e.tab.Bounds(n)
		lo[i], hi[i] = max(l, 0), min(h, max(l, 0)+span-1)
		b[n] = lo[i]
	}
	for {
		if ok, err := q.Eval(b); err == nil && ok {
			var ue *sym.UnboundError
			if err := c.e.solver.Check(b); err == nil || errors.As(err, &ue) {
				return true
			}
		}
		i := len(names) - 1
		for ; i >= 0 && b[names[i]] >= hi[i]; i-- {
			b[names[i]] = lo[i]
		}
		if i < 0 {
			return false
		}
		b[names[i]]++
	}
}

// Warn records p, a relation that the spec of the node's operator implies and that onnxruntime
// does not check, as a warning of the node whose why says what the node reads ("reads its 12
// coefficients as [3,F]": its outputs are meaningful only when F == 4): the runtime runs the node
// where p fails, on parameters read at the wrong stride, so p is no condition of the model. Nothing is unified nor required, no error comes of
// it, and the rule gives the outputs the runtime gives (Result.Warnings). A p that is true, a node
// of a branch the model does not take, and a second warning of the node with the same why (a
// subgraph inferred again) record nothing.
func (c *ctx) Warn(p sym.Pred, why string) {
	if !p.IsTrue() && !c.s.notTaken {
		c.e.warn(sym.Constraint{Pred: p, Origin: sym.Origin{Node: c.path, Op: c.n.Op, Why: why}})
	}
}

// warn appends w to the warnings, unless one of the same node and why is there.
func (e *engine) warn(w sym.Constraint) {
	if !slices.ContainsFunc(e.warnings, func(o sym.Constraint) bool { return o.Origin.Node == w.Origin.Node && o.Origin.Why == w.Origin.Why }) {
		e.warnings = append(e.warnings, w)
	}
}

// nodeConstraint is the *sym.ConstraintError of a rule's own condition: it prints without the
// node's path and operator, which the engine puts before every error of a rule.
type nodeConstraint struct{ *sym.ConstraintError }

func (e nodeConstraint) Error() string {
	ce := *e.ConstraintError
	ce.Constraint.Origin.Node, ce.Constraint.Origin.Op = "", ""
	return ce.Error()
}

func (e nodeConstraint) Unwrap() error { return e.ConstraintError }

// conflict returns ": it contradicts C" for the constraints C that a unification contradicts,
// or "".
func conflict(err error) string {
	var ce *sym.ConstraintError
	if !errors.As(err, &ce) || len(ce.Conflict) == 0 {
		return ""
	}
	cs := make([]string, len(ce.Conflict))
	for i, c := range ce.Conflict {
		cs[i] = c.String()
	}
	return ": it contradicts " + strings.Join(cs, ", ")
}

// Fresh returns a new anonymous dim of bounds [lo, hi]: one whose value a rule cannot express (a
// broadcast of two symbols either of which may be 1). It equals itself only, and prints as its
// bounds.
func (c *ctx) Fresh(hint string, lo, hi int64) sym.Dim {
	return sym.Of(c.e.tab.Anon(c.path+":"+hint, lo, hi))
}

// MaxRank returns the bound on ranks the caller set, Options.MaxRank as given: 0 for
// reshape.DefaultMaxRank, a negative value for none, as reshape.Options.MaxRank reads it (the
// Reshape rules pass it on).
func (c *ctx) MaxRank() int { return c.e.opt.MaxRank }

// ConstInfo returns the Info of the constant t (a tensor attribute, Constant's value): its element
// type and static shape, and its values when it is a small integer tensor (Floats for a small
// floating-point one), as the engine reads a graph's constants. An error of Const.Load (a
// malformed tensor, missing external data) is returned with the Info.
func (c *ctx) ConstInfo(t *Const) (*Info, error) { return c.e.constInfo(t) }

// Symbols returns the engine's symbol table.
func (c *ctx) Symbols() *sym.Table { return c.e.tab }
