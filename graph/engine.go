package graph

import (
	"cmp"
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/internal/slab"
	"github.com/reshape-go/reshape/sym"
)

// Options configure Infer.
type Options struct {
	// Dims binds symbols to values by name, like onnxruntime's free-dimension overrides: a named
	// dimension N of the model (or INPUT:AXIS) becomes the integer Dims["N"] wherever it appears.
	Dims map[string]int64
	// Inputs sets the shapes of graph inputs by name, in the notation of sym.ParseShape
	// ("[1,3,32,100]", "[N,3,H,W]"), in place of what the model declares.
	Inputs map[string]string
	// MaxNodes bounds the number of nodes inferred, subgraphs and their repeated runs included. 0
	// means 64 runs per node of the graph and its subgraphs, at least 65536 and at most 2^22
	// (4,194,304), so that the time Infer takes stays linear in the size of the graph however
	// deeply Loops nest (each infers its body until its shapes settle). Past it, Infer fails with
	// an error wrapping errcode.ErrLimit that names the node it reached.
	MaxNodes int
	// MaxRank bounds the rank of every tensor: a node that reads or gives a tensor of a larger rank
	// gets an error wrapping errcode.ErrLimit, and it is the bound of the Reshape rules
	// (reshape.Options.MaxRank). 0 means reshape.DefaultMaxRank (64), a negative value no bound.
	MaxRank int
	// BatchSize, when positive, binds the batch dim of every graph input (Input.BatchAxis), as
	// OpenVINO's set_batch does: the dim the model marks as the batch (DeclDim.Batch: ONNX's
	// denotation DATA_BATCH; the N of an IR Parameter's layout, else its leading dim when it has
	// no layout), static or not, else the leading dim when it is dynamic. A named
	// batch dim (N, or INPUT:AXIS) is bound wherever it appears, as Dims binds it; a name Dims
	// binds keeps Dims' value.
	BatchSize int64
	// SharedDims makes Dims, Inputs and BatchSize bindings meant for several models (a directory of
	// them): a name the model does not have, a batch size where no input has a batch dim, is left
	// unused rather than an error (Result.UnboundDims lists the names of Dims).
	SharedDims bool
}

// defaultMaxNodes is the largest default bound on the nodes Infer runs (Options.MaxNodes).
const defaultMaxNodes = 1 << 22

// The default bound on the nodes Infer runs (Options.MaxNodes) is nodesPerNode runs per node of the
// graph, subgraphs included, and at least minMaxNodes.
const (
	nodesPerNode = 64
	minMaxNodes  = 1 << 16
)

// The rules of one Infer read and compute the values of at most valuesPerNode value elements per
// node of the graph (subgraphs included), and at least minMaxValues.
const (
	valuesPerNode = 64
	minMaxValues  = 1 << 20
)

// maxDepth bounds how deeply subgraphs nest.
const maxDepth = 64

// Result is what Infer found: the element type and shape of every tensor, subgraphs included
// (Tensor, Tensors), the model's symbols (Symbols) and the conditions its nodes impose on them
// (Constraints, Check), and the result of every node.
//
// A tensor is addressed by its path: its name for a tensor of the main graph, and for a tensor
// of a subgraph the path of the node that holds the subgraph, the attribute, and its name
// ("If_3/then_branch/x"), as the reports of check and the command name it. The Infos a Result
// gives are its own: read them, do not change them.
type Result struct {
	// Nodes holds one NodeResult per node inferred, in the order they were inferred; a subgraph's
	// nodes come in the run of the node that holds it (once per subgraph, from its last run).
	Nodes []NodeResult
	// Unsupported counts, by operator ("Conv", "com.microsoft:Attention"), the nodes that have no
	// shape rule and whose outputs are therefore unknown or as declared.
	Unsupported map[string]int

	e           *engine
	constraints []sym.Constraint // as the nodes impose them (NodeConstraints)
	lost        []Loss
	minimal     minimal                     // the conditions, minimized on demand
	inputs      []string                    // the main graph's inputs, in order
	unboundDims []string                    // the names of Options.Dims no dim has (UnboundDims)
	tensors     map[string]*Info            // the tensors of the main graph by name
	subs        map[string]map[string]*Info // the tensors of each subgraph by name (engine.subs)
	pathsOnce   sync.Once
	paths       map[string]*Info // the tensors of the subgraphs by path: made by the first Tensor that needs it
	facts       facts            // the nesting of the subgraphs and the producers, made on first use
}

// UnboundDims returns the names of Options.Dims that no dim of the model has, in sorted order:
// with Options.SharedDims, which leaves them unused (without it, Infer fails on them).
func (r *Result) UnboundDims() []string { return r.unboundDims }

// Tensor returns what inference found of the tensor at path (its element type, its shape, and for a
// small integer tensor its values), or nil when the model has no such tensor. path is a tensor's
// name in the main graph, or for a tensor of a subgraph the path of its node's subgraph and its
// name ("If_3/then_branch/x", "Loop_0/body/i"): every input, constant and node output of the
// main graph and of every subgraph inferred, those of a branch the model does not take at this
// binding (NodeResult.NotTaken) included. A tensor downstream of a node whose inputs break its
// rule has an unknown shape and Info.FailedAt names that node.
func (r *Result) Tensor(path string) *Info {
	if in, ok := r.tensors[path]; ok {
		return in // a name of the main graph over a path of a subgraph that spells it
	}
	r.pathsOnce.Do(func() {
		for prefix, infos := range r.subs {
			if r.paths == nil {
				r.paths = map[string]*Info{}
			}
			for name, in := range infos {
				r.paths[prefix+name] = in
			}
		}
	})
	return r.paths[path]
}

// Tensors returns an iterator over the paths and Infos of the model's tensors in order: the main
// graph's inputs, then the outputs of every node in the order of Nodes (each subgraph's after the
// node that holds it, and before the node's own), as `reshape shapes` lists them. Constants and
// a subgraph's inputs are not listed; Tensor finds them.
func (r *Result) Tensors() iter.Seq2[string, *Info] {
	return func(yield func(string, *Info) bool) {
		for _, name := range r.inputs {
			if !yield(name, r.tensors[name]) {
				return
			}
		}
		for i := range r.Nodes {
			n := &r.Nodes[i]
			for k, name := range n.Node.Outputs {
				if name == "" || k >= len(n.Outputs) || n.Outputs[k] == nil {
					continue
				}
				if n.Scope != "" {
					name = n.Scope + "/" + name
				}
				if !yield(name, n.Outputs[k]) {
					return
				}
			}
		}
	}
}

// Symbols returns the model's symbols with their bounds, in the order inference met them: its
// named dims (ONNX dim_param) and INPUT:AXIS for each unnamed dynamic dim of a graph input, less
// those Options.Dims or Options.BatchSize bind. Dims the model gives no name (a count only a run
// tells, an output whose branches disagree) are not symbols: they print as their interval. The
// slice is the caller's.
func (r *Result) Symbols() []sym.Symbol { return r.e.tab.Symbols() }

// Table returns the table of the model's symbols: the one to parse expressions, shapes and
// predicates in them with (sym.ParseShape("[B,T*2]", r.Table()) is comparable with the result's
// shapes), or to build a sym.Solver over them. It also holds the anonymous dims of the model,
// which Symbols and the table's own String leave out.
func (r *Result) Table() *sym.Table { return r.e.tab }

// Complete reports whether Constraints are all the model needs to run: inference lost precision
// nowhere (Lost is empty), so that at every binding of the symbols that satisfies them the model
// runs, and every shape of the result holds. True is that promise; false promises nothing either
// way: Lost says where a condition may be missing, and whether only a run decides it
// (Loss.RunTime). At a binding where a node fails, what the error leaves unknown after it is no
// loss (the error says it).
func (r *Result) Complete() bool { return len(r.lost) == 0 }

// Lost returns the places where inference lost precision, in the order it met them: each a node
// (or a graph input) where a rule could not state what it needs, because a dim or value is not an
// expression in the symbols, a rank is not known, the operator has no shape rule, or an If joins
// branches of other shapes on a condition it cannot tell apart; Loss.RunTime marks those that only
// a run decides (a size that depends on the values of the data). Downstream of a loss, what
// depends on it is not listed again. None when the result is complete (Complete). The slice is the
// caller's.
func (r *Result) Lost() []Loss { return slices.Clone(r.lost) }

// Check evaluates the constraints the nodes recorded at the binding b of the model's symbols
// (map[string]int64{"N": 2}), and returns the one that stops a run, the first that does not hold
// in the order a runtime runs the nodes that impose it (RunSeq), as a *sym.ConstraintError naming
// that node and the values: "Reshape_2 (Reshape): the volume: N == 1 does not hold at N=2"; it
// wraps errcode.ErrInvalidShape. A symbol that a recorded equality fixes takes its value from the
// others. When none fails but b leaves out a symbol that one needs, the error is a
// *sym.UnboundError naming it (errcode.ErrSyntax); nil when all hold. Before the constraints, a
// node whose element types a runtime refuses at load (NodeResult.TypeErr) fails every binding: the
// first such node's error in the same order, wrapping errcode.ErrDataType or errcode.ErrNoKernel
// and naming the node and its input ("/Sqrt (Sqrt): input 0 ("x") is i64: Sqrt-13 takes f16, f32,
// f64 or bf16 for X (type constraint T)").
func (r *Result) Check(b map[string]int64) error {
	first := -1
	for i := range r.Nodes {
		if r.Nodes[i].TypeErr != nil && (first < 0 || r.RunSeq(i) < r.RunSeq(first)) {
			first = i
		}
	}
	if first >= 0 {
		return r.Nodes[first].TypeErr
	}
	return r.e.solver.CheckBy(b, func(o sym.Origin) int {
		r.seqOf(&o)
		return o.Seq
	})
}

// Eval returns the dims of the tensor at path (as Tensor finds it) at the binding b of the model's
// symbols (map[string]int64{"N": 8}), in elements, as a runtime that allocates a request's outputs
// needs them: it checks b against the model's conditions first (Check), so that a binding the
// model refuses is an error naming the condition and its node, a *sym.ConstraintError wrapping
// errcode.ErrInvalidShape, and never a shape (a negative size, or one the model does not give),
// and a model a runtime refuses to load for an element type is its node's error (wrapping
// errcode.ErrDataType or errcode.ErrNoKernel) at every binding;
// then the tensor's shape is evaluated (sym.Shape.Eval: a *sym.UnboundError for a symbol b leaves
// out, an error wrapping errcode.ErrInvalidShape for a dim the model gives no name or a rank not
// known). A path of no tensor is an error wrapping errcode.ErrSyntax. Where the result is not
// Complete, a binding that satisfies the conditions may break one that inference lost (Lost).
func (r *Result) Eval(path string, b map[string]int64) ([]int64, error) {
	t := r.Tensor(path)
	if t == nil {
		return nil, errcode.Errorf(errcode.ErrSyntax, "the model has no tensor %q", path)
	}
	if err := r.Check(b); err != nil {
		return nil, err
	}
	dims, err := t.Shape.Eval(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return dims, nil
}

// EvalValue returns the values of the tensor at path (Info.Value: a shape, a Reshape pattern,
// indices, in row-major order) at the binding b of the model's symbols, as a runtime that feeds a
// pattern to reshape.Apply needs them. Like Eval it checks b against the model's conditions first
// (Check): a binding the model refuses is a *sym.ConstraintError wrapping errcode.ErrInvalidShape,
// one that leaves out a symbol the conditions need a *sym.UnboundError. Then each value is
// evaluated (sym.Dim.Eval), its error naming its index ("pattern: value[1]: symbol T has no value"): a
// *sym.UnboundError for a symbol b leaves out, an error wrapping errcode.ErrInvalidShape for a
// value known only by its bounds. A value may be below 0 (a pattern's -1). A path of no tensor, or
// of one whose values inference does not know (Value nil), is an error wrapping errcode.ErrSyntax.
func (r *Result) EvalValue(path string, b map[string]int64) ([]int64, error) {
	t := r.Tensor(path)
	switch {
	case t == nil:
		return nil, errcode.Errorf(errcode.ErrSyntax, "the model has no tensor %q", path)
	case t.Value == nil:
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: its values are not known before a run", path)
	}
	if err := r.Check(b); err != nil {
		return nil, err
	}
	out := make([]int64, len(t.Value))
	for i, d := range t.Value {
		v, err := d.Eval(b)
		if err != nil {
			return nil, fmt.Errorf("%s: value[%d]: %w", path, i, err)
		}
		out[i] = v
	}
	return out, nil
}

// EqualWhen returns the condition under which the dims a and b, in the result's symbols (those of
// a shape Declared gives included), are equal at the bindings that satisfy Constraints
// (sym.Solver.EqualWhen): true, false, or the condition, as a declared [N,N,4] and an inferred
// [N,10,4] are equal only when N == 10. ok is false when a dim known only by its bounds leaves it
// open. Package check judges declarations with it.
func (r *Result) EqualWhen(a, b sym.Dim) (when sym.Pred, ok bool) { return r.e.solver.EqualWhen(a, b) }

// Declared returns the shape and element type graph g (the main graph or one of its subgraphs)
// declares for the tensor name, in the symbols of the result: a named dim is the symbol of its
// name (or its bound value), an unnamed dynamic dim its interval. Of a sequence or a map, they are
// those of the tensors it holds (a sequence's elements, a map's values), as g.Declared[name]
// says. ok is false when g declares nothing of name (a graph input's declaration is its Input, not
// a Declared entry).
func (r *Result) Declared(g *Graph, name string) (s sym.Shape, t element.Type, ok bool) {
	d, ok := g.Declared[name]
	if !ok {
		return sym.Shape{}, element.Undefined, false
	}
	d = d.Tensors()
	return r.e.declShape(d, ""), d.Type, true
}

// NodeResult is the inference of one node.
type NodeResult struct {
	// Path locates the node: its name, preceded for a node of a subgraph by the path of the node
	// that holds it and the attribute ("If_3/then_branch/Reshape_1"). A node without a name is
	// named by its operator and index in its graph ("Reshape#12").
	Path string
	// Scope is the path of the subgraph the node belongs to ("If_3/then_branch"), "" for the main
	// graph: Path is Scope, a slash when Scope is not empty, and the node's name.
	Scope string
	// Node is the node, Index its index in Graph.Nodes.
	Node  *Node
	Index int
	// Graph is the graph the node belongs to.
	Graph *Graph
	// Inputs and Outputs are the Infos of the node's inputs and outputs, nil for one left out.
	Inputs, Outputs []*Info
	// TypeErr, when not nil, says that the element type of an input is one the node's operator
	// does not take at its version, as its specification says (ONNX's type constraints, which
	// onnx.checker applies; OpenVINO's operation specifications): an error wrapping
	// errcode.ErrDataType that names the input, its type and the types allowed, or two inputs of
	// one type constraint of two types. For a node the ONNX specification allows, it wraps
	// errcode.ErrNoKernel when onnxruntime 1.20.1's CPU provider has no kernel for the type:
	// onnxruntime refuses to load the model. An output whose type an attribute sets (Cast's to,
	// ConstantOfShape's value) is checked alike. For an ONNX node whose inputs are accepted, it wraps
	// errcode.ErrDataType when the rule gives an output another element type than the graph
	// declares for it (a value_info, a graph output), which onnxruntime refuses at load too.
	// Either way a runtime refuses the model when it loads it, whatever the bindings and whichever
	// branch of an If holds the node (NotTaken and Avoidable do not apply); the rule runs all the
	// same, and Err says what it found.
	TypeErr error
	// Err, when not nil, says why the node's inputs break its rules (errcode.ErrInvalidShape, the
	// Reshape codes, errcode.ErrSyntax for a node that breaks its format, errcode.ErrLimit for a
	// rank over Options.MaxRank); its outputs are then unknown, and so is every tensor downstream.
	Err error
	// Unsupported reports a node without a shape rule.
	Unsupported bool
	// Blocked, when not "", is the path of the node whose error leaves an input of this node
	// unknown (Info.FailedAt): the node was not inferred, and its outputs are unknown too.
	Blocked string
	// NotTaken reports a node of a subgraph that its node does not run at this binding (the branch
	// of an If whose condition is a constant), inferred for the shapes of its tensors only: such a
	// node is recorded only when it is inferred, since its inputs breaking its rule says nothing of
	// the model as it runs.
	NotTaken bool
	// Avoidable reports an Err that a run of the model may avoid: the node is in a branch of an If
	// whose condition only a run tells, and the other branch can run. The model fails at this node
	// only when the If takes its branch; Result.Constraints hold what the other branch needs.
	Avoidable bool
}

// ruleFunc infers a node's outputs from its inputs and attributes through c.
type ruleFunc func(c *ctx) error

// engine is one run of Infer.
type engine struct {
	opt      Options
	plan     bool // state onnxruntime's memory planner's conditions (memoryPlan)
	tab      *sym.Table
	res      *Result
	nodes    int
	maxNodes int
	// values counts the value elements the rules have read and computed, up to maxValues.
	values, maxValues int
	// solver holds the equalities unification finds, applied as substitutions, and the other
	// constraints the rules record.
	solver *sym.Solver
	free   map[*Graph][]string
	// errs counts the nodes whose inputs broke their rule, so far, less those a run may avoid
	// (NodeResult.Avoidable).
	errs int
	// lost holds the losses of precision recorded so far (lost.go).
	lost []Loss
	// warnings holds the relations the rules found that the runtime does not check (ctx.Warn).
	warnings []sym.Constraint
	// conds holds the conditions that boolean values stand for (ctx.Cond); forced the branch each
	// If takes by its path, in a run of the model per branch of an If whose condition only the
	// symbols decide, and forks those Ifs whose branches give other shapes (fork.go).
	conds  []condAtom
	forced map[string]int
	forks  []forkSite
	// bound holds the names of Options.Dims that named a dim of the model.
	bound map[string]bool
	// batch holds the names of the batch dims Options.BatchSize binds.
	batch map[string]bool
	// maxRank is the bound of Options.MaxRank.
	maxRank int
	// file is the model inferred without the bindings, once a rule asked (refusedAtLoad), nil
	// when that inference failed; fileDone reports that it was made.
	file     *Result
	fileDone bool
	// subs holds the tensors of each subgraph run whose nodes are recorded, by the path prefix of
	// its nodes ("If_3/then_branch/"): of a subgraph run several times, the last run.
	subs map[string]map[string]*Info
	// ctxs holds the ctx of the node being inferred at each depth of subgraphs: a rule that runs a
	// subgraph keeps its own while the subgraph's nodes use the next.
	ctxs []*ctx
	// infos, ptrs and dims are where the Infos of the result, the nodes' lists of Infos and the
	// dims of shapes and values are cut from.
	infos slab.Slab[Info]
	ptrs  slab.Slab[*Info]
	dims  slab.Slab[sym.Dim]
}

// ctx returns the ctx of the nodes at depth, zeroed.
func (e *engine) ctx(depth int) *ctx {
	for len(e.ctxs) <= depth {
		e.ctxs = append(e.ctxs, new(ctx))
	}
	c := e.ctxs[depth]
	held, work := c.held[:0], c.work[:0] // kept for the next node, as the slabs are
	*c = ctx{held: held, work: work}
	return c
}

// ints returns the static shape dims.
func (e *engine) ints(dims []int64) sym.Shape {
	s := sym.Shape{Dims: e.dims.Make(len(dims))}
	for i, d := range dims {
		s.Dims[i] = sym.Const(d)
	}
	return s
}

// newInfo returns a new Info of type t and shape s.
func (e *engine) newInfo(t element.Type, s sym.Shape) *Info {
	in := &e.infos.Make(1)[0]
	in.Type, in.Shape = t, s
	return in
}

// scope holds the Infos of the tensors of one graph run, and sees those of the enclosing graphs.
type scope struct {
	parent *scope
	g      *Graph
	infos  map[string]*Info
	path   string // the path prefix of the graph's nodes
	depth  int
	record bool
	// notTaken reports a subgraph its node does not run at this binding (ctx.Branches).
	notTaken bool
	// repeated reports a subgraph run once per iteration (a Loop's body, a Scan's), or held by one.
	repeated bool
}

func (s *scope) lookup(name string) (*Info, bool) {
	for ; s != nil; s = s.parent {
		if in, ok := s.infos[name]; ok {
			return in, true
		}
	}
	return nil, false
}

// Infer infers the element type and shape of every tensor of g, and the values of its small
// integer tensors, from g's inputs (as declared, or as Options.Inputs sets them) and constants,
// node by node in topological order, subgraphs included.
//
// Dimensions are symbolic (package sym): a named dimension of the model is a symbol of its name, an
// unnamed dynamic dimension of a graph input the symbol INPUT:AXIS, and dims computed from them
// are expressions. Dims that the rules require to be equal (broadcasting dims that cannot be 1, the
// inner dims of MatMul, the non-axis dims of Concat) unify: the later symbol is replaced by the
// other everywhere, an equation of expressions that fixes a symbol (12*N == 12) substitutes it, and
// each equality is recorded with its node as a constraint (sym.Solver). A node without a shape rule, or whose rule depends on data (NonZero), gives
// outputs of unknown shape, or the shape its declaration gives, never a guess. A node whose inputs
// break its rule (dims that cannot broadcast, an invalid Reshape) gets an error in its NodeResult,
// and its outputs are unknown; inference goes on.
//
// Infer returns an error only for a graph it cannot run at all, naming the node: a cycle, a node
// that reads a tensor nothing defines, a graph output nothing defines, two producers of one tensor
// (errcode.ErrSyntax); subgraphs nested deeper than 64 or more nodes to run than Options.MaxNodes
// (errcode.ErrLimit); an Options.Inputs shape that does not parse (errcode.ErrSyntax); and unless
// Options.SharedDims, a binding that binds nothing (errcode.ErrBinding): an Options.Inputs name
// that no input has, an Options.Dims name that no dim of the model has, an Options.BatchSize
// where no input has a batch dim (Input.BatchAxis) that Options.Inputs leaves. Time and memory are linear in the size of the
// graph: the rules read and compute the values of at most 2^20 elements (64 per node in larger
// graphs), and past that see the values of no tensor.
func Infer(g *Graph, opt Options) (*Result, error) {
	return infer(g, opt, sym.NewTable(), nil, true)
}

// infer is Infer with the table of symbols tab, which the runs of a model share, and the branches
// forced of Ifs whose conditions only the symbols decide (fork.go): it infers g, and again once per
// branch of the first If whose branches give other shapes on such a condition (forks). plan says
// whether it states the conditions of onnxruntime's memory planner (memoryPlan), which infer
// g again at the binding of its declarations, without them.
func infer(g *Graph, opt Options, tab *sym.Table, forced map[string]int, plan bool) (*Result, error) {
	e := &engine{opt: opt, plan: plan, tab: tab, free: map[*Graph][]string{}, maxNodes: opt.MaxNodes, bound: map[string]bool{},
		batch: batchDims(g, opt), maxRank: opt.MaxRank, subs: map[string]map[string]*Info{}, forced: forced}
	e.solver = sym.NewSolver(e.tab)
	switch {
	case e.maxRank == 0:
		e.maxRank = reshape.DefaultMaxRank
	case e.maxRank < 0:
		e.maxRank = math.MaxInt
	}
	nodes := countNodes(g)
	if e.maxNodes <= 0 {
		e.maxNodes = min(defaultMaxNodes, max(minMaxNodes, nodesPerNode*nodes))
	}
	e.maxValues = max(minMaxValues, valuesPerNode*nodes)
	e.res = &Result{Nodes: make([]NodeResult, 0, nodes), tensors: make(map[string]*Info, tensorCount(g)), Unsupported: map[string]int{}, e: e}
	for _, name := range slices.Sorted(maps.Keys(opt.Inputs)) {
		if !opt.SharedDims && !slices.ContainsFunc(g.Inputs, func(in Input) bool { return in.Name == name }) {
			return nil, errcode.Errorf(errcode.ErrBinding, "input %q: the graph has no such input (it has %s)", name, inputNames(g))
		}
	}
	if opt.BatchSize > 0 && len(e.batch) == 0 && !opt.SharedDims {
		return nil, errcode.Errorf(errcode.ErrBinding, "a batch size of %d binds no dim: no input has a batch dim "+
			"(a dim the model marks as its batch, or a dynamic leading dim) of a shape not set (inputs: %s)", opt.BatchSize, inputNames(g))
	}
	s := &scope{g: g, infos: e.res.tensors, record: true}
	for _, in := range g.Inputs {
		info, err := e.inputInfo(in)
		if err != nil {
			return nil, err
		}
		info.taint = taintData
		if !info.determined() {
			info.taint |= taintLost
			e.addLoss(Loss{Node: in.Name, Op: "input", Tensor: in.Name, Why: "its shape " + info.describe() + " is not in symbols: a condition on it cannot be stated"})
		}
		s.infos[in.Name] = info
		e.res.inputs = append(e.res.inputs, in.Name)
	}
	if err := e.run(s); err != nil {
		return nil, err
	}
	for _, name := range g.Outputs {
		if _, ok := s.infos[name]; !ok {
			return nil, errcode.Errorf(errcode.ErrSyntax, "%s: output %q: nothing defines it", e.where(s), name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(opt.Dims)) {
		switch {
		case e.bound[name]:
		case opt.SharedDims:
			e.res.unboundDims = append(e.res.unboundDims, name)
		default:
			symbols := strings.Join(e.tab.Names(), ", ")
			if symbols == "" {
				symbols = "none"
			}
			return nil, errcode.Errorf(errcode.ErrBinding, "a binding of %s: the model has no dim of that name (its symbols: %s)", name, symbols)
		}
	}
	e.memoryPlan(s)
	e.final()
	e.res.constraints = e.inOrder(e.solver.Constraints())
	e.res.lost = e.lost
	if len(e.forks) > 0 && len(forced) < maxForks {
		return e.fork(g, e.forks[0])
	}
	return e.res, nil
}

// inOrder sorts the constraints cs, stably, by the position of their nodes in Result.Nodes (a node
// it does not hold last), and returns them.
func (e *engine) inOrder(cs []sym.Constraint) []sym.Constraint {
	if len(cs) < 2 {
		return cs
	}
	order := make(map[string]int, len(e.res.Nodes))
	for i := range e.res.Nodes {
		order[e.res.Nodes[i].Path] = i
	}
	at := func(c sym.Constraint) int {
		if i, ok := order[c.Origin.Node]; ok {
			return i
		}
		return len(e.res.Nodes)
	}
	slices.SortStableFunc(cs, func(a, b sym.Constraint) int { return cmp.Compare(at(a), at(b)) })
	return cs
}

// countNodes returns the number of nodes of g and of its subgraphs, each graph counted once
// however many attributes hold it.
func countNodes(g *Graph) int {
	seen := map[*Graph]bool{g: true}
	stack := []*Graph{g}
	push := func(sg *Graph) {
		if sg != nil && !seen[sg] {
			seen[sg] = true
			stack = append(stack, sg)
		}
	}
	n := 0
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n += len(g.Nodes)
		for i := range g.Nodes {
			for _, a := range g.Nodes[i].Attrs {
				push(a.Graph)
				for _, sg := range a.Graphs {
					push(sg)
				}
			}
		}
	}
	return n
}

// tensorCount returns the number of tensors of g: its inputs, constants and nodes' outputs.
func tensorCount(g *Graph) int {
	n := len(g.Inputs) + len(g.Consts)
	for i := range g.Nodes {
		n += len(g.Nodes[i].Outputs)
	}
	return n
}

func inputNames(g *Graph) string {
	names := make([]string, len(g.Inputs))
	for i, in := range g.Inputs {
		names[i] = strconv.Quote(in.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// batchDims returns the names of the batch dims of g's inputs that Options.BatchSize binds: of each
// input whose declared batch dim (the marked one, else the leading one) is dynamic, the dim's name,
// or INPUT:AXIS when it has none. Inputs that Options.Inputs sets keep the shape it gives.
func batchDims(g *Graph, opt Options) map[string]bool {
	if opt.BatchSize <= 0 {
		return nil
	}
	names := map[string]bool{}
	for _, in := range g.Inputs {
		axis := in.BatchAxis()
		if _, set := opt.Inputs[in.Name]; set || axis < 0 {
			continue
		}
		if d := in.Decl.Dims[axis]; d.Name != "" && d.Lo != d.Hi {
			names[d.Name] = true
		} else {
			names[in.Name+":"+strconv.Itoa(axis)] = true // a static one too: declShape binds it
		}
	}
	return names
}

// BatchAxis returns the axis of the input's batch dim, which Options.BatchSize binds: the dim the
// model marks (DeclDim.Batch), static or not, else the leading dim when it is dynamic; -1 when the
// input has none (a scalar, an unknown rank, a static leading dim the model does not mark).
func (in Input) BatchAxis() int {
	if in.Decl.Rank < 1 || in.Decl.Seq != nil || in.Decl.Map != nil {
		return -1
	}
	if i := slices.IndexFunc(in.Decl.Dims, func(d DeclDim) bool { return d.Batch }); i >= 0 {
		return i
	}
	if d := in.Decl.Dims[0]; d.Lo == d.Hi {
		return -1
	}
	return 0
}

// FreeBatch returns the shapes, in the notation of Options.Inputs, that make the static batch dim
// of every graph input (BatchAxis) the symbol N, the input's other dims as declared (a static dim
// its size, a named one its name, an unnamed one NAME:AXIS): with Options.SharedDims, an IR network
// exported at batch 1 is inferred at every batch, as OpenVINO's set_batch would reshape it. It
// returns nil when no input has a static batch dim.
func (g *Graph) FreeBatch() map[string]string {
	var inputs map[string]string
	for _, in := range g.Inputs {
		axis := in.BatchAxis()
		if axis < 0 || in.Decl.Dims[axis].Lo != in.Decl.Dims[axis].Hi {
			continue
		}
		dims := make([]string, len(in.Decl.Dims))
		for i, d := range in.Decl.Dims {
			switch {
			case i == axis:
				dims[i] = "N"
			case d.Lo == d.Hi:
				dims[i] = strconv.FormatInt(d.Lo, 10)
			case d.Name != "":
				dims[i] = d.Name
			default:
				dims[i] = in.Name + ":" + strconv.Itoa(i)
			}
		}
		if inputs == nil {
			inputs = map[string]string{}
		}
		inputs[in.Name] = "[" + strings.Join(dims, ",") + "]"
	}
	return inputs
}

// inputInfo returns the Info of a graph input: its declaration with symbols, or Options.Inputs.
func (e *engine) inputInfo(in Input) (*Info, error) {
	if in.Decl.Seq != nil || in.Decl.Map != nil {
		return e.declValue(in.Decl, in.Name), nil
	}
	if text, ok := e.opt.Inputs[in.Name]; ok {
		s, err := sym.ParseShape(text, e.tab)
		if err != nil {
			return nil, fmt.Errorf("input %q: %w", in.Name, err)
		}
		return &Info{Type: in.Decl.Type, Shape: e.bind(s), Optional: in.Decl.Optional}, nil
	}
	return &Info{Type: in.Decl.Type, Shape: e.declShape(in.Decl, in.Name), Optional: in.Decl.Optional}, nil
}

// declShape returns the shape a declaration gives: named dims are symbols (or their bound value),
// static dims integers, and unnamed dynamic dims the symbol owner:axis when owner is not "" (a
// graph input), an anonymous symbol when hint is set, or their interval.
func (e *engine) declShape(d Decl, owner string) sym.Shape {
	if d.Rank < 0 {
		return sym.DynamicRank()
	}
	dims := make([]sym.Dim, len(d.Dims))
	for i, dd := range d.Dims {
		name := dd.Name
		if name == "" && owner != "" && dd.Lo != dd.Hi {
			name = owner + ":" + strconv.Itoa(i)
		}
		switch {
		case dd.Lo == dd.Hi && dd.Batch && owner != "" && e.batch[owner+":"+strconv.Itoa(i)]:
			dims[i] = sym.Const(e.opt.BatchSize) // a static batch, as set_batch changes it
		case dd.Lo == dd.Hi:
			dims[i] = sym.Const(dd.Lo)
		case name != "":
			if v, ok := e.opt.Dims[name]; ok {
				dims[i] = sym.Const(v)
				e.bound[name] = true
			} else if e.batch[name] {
				dims[i] = sym.Const(e.opt.BatchSize)
			} else {
				// A symbol stands for a positive size (sym.Table.Symbol).
				dims[i] = sym.Of(e.tab.Symbol(name, max(dd.Lo, min(1, dd.Hi)), dd.Hi))
			}
		default:
			dims[i] = sym.Interval(dd.Lo, dd.Hi)
		}
	}
	return sym.ShapeOf(dims...)
}

// bind applies Options.Dims, and the batch dims Options.BatchSize binds, to a shape parsed from
// Options.Inputs.
func (e *engine) bind(s sym.Shape) sym.Shape {
	if len(e.opt.Dims) == 0 && len(e.batch) == 0 || s.RankDynamic {
		return s
	}
	out := make([]sym.Dim, len(s.Dims))
	for i, d := range s.Dims {
		out[i] = d.Subst(func(name string) (sym.Expr, bool) {
			v, ok := e.opt.Dims[name]
			if ok {
				e.bound[name] = true
			} else if e.batch[name] {
				v, ok = e.opt.BatchSize, true
			}
			return sym.Int(v), ok
		})
	}
	return sym.ShapeOf(out...)
}

// run infers the nodes of the graph of s.
func (e *engine) run(s *scope) error {
	if s.depth > maxDepth {
		return errcode.Errorf(errcode.ErrLimit, "%s: subgraphs nest deeper than %d", strings.TrimSuffix(s.path, "/"), maxDepth)
	}
	g := s.g
	for _, name := range slices.Sorted(maps.Keys(g.Consts)) {
		if _, ok := s.infos[name]; ok {
			continue
		}
		info, err := e.constInfo(g.Consts[name])
		if err != nil {
			return fmt.Errorf("%s: constant %q: %w", e.where(s), name, err)
		}
		s.infos[name] = info
	}
	order, err := e.order(s)
	if err != nil {
		return err
	}
	for _, i := range order {
		if e.nodes++; e.nodes > e.maxNodes {
			return errcode.Errorf(errcode.ErrLimit, "%s: more than %d nodes to infer, subgraphs and their repeated runs included",
				s.path+nodeName(g, i), e.maxNodes)
		}
		if err := e.node(s, i); err != nil {
			return err
		}
	}
	return nil
}

// nodeName names node i of g for paths and messages.
func nodeName(g *Graph, i int) string {
	n := &g.Nodes[i]
	if n.Name != "" {
		return n.Name
	}
	return n.Op + "#" + strconv.Itoa(i)
}

// order returns the indices of g's nodes in topological order. It fails on two producers of one
// tensor, a tensor nothing defines, and a cycle, naming a node.
func (e *engine) order(s *scope) ([]int, error) {
	g := s.g
	producer := make(map[string]int, len(g.Nodes))
	for i := range g.Nodes {
		for _, out := range g.Nodes[i].Outputs {
			if out == "" {
				continue
			}
			if j, dup := producer[out]; dup {
				return nil, errcode.Errorf(errcode.ErrSyntax, "%s: node %d (%q, %s) outputs %q, which node %d (%q) outputs already",
					e.where(s), i, g.Nodes[i].Name, g.Nodes[i].Op, out, j, g.Nodes[j].Name)
			}
			if _, isInput := s.infos[out]; isInput {
				return nil, errcode.Errorf(errcode.ErrSyntax, "%s: node %d (%q, %s) outputs %q, which is an input or constant of the graph",
					e.where(s), i, g.Nodes[i].Name, g.Nodes[i].Op, out)
			}
			producer[out] = i
		}
	}
	// deps returns the names node i reads: its inputs, and what its subgraphs read from g's scope.
	deps := func(i int) []string {
		n := &g.Nodes[i]
		if free := e.freeOfNode(n); len(free) > 0 {
			return append(slices.Clip(n.Inputs), free...)
		}
		return n.Inputs
	}
	sorted := true // the model's own order is topological
	for i := range g.Nodes {
		for k, name := range deps(i) {
			if name == "" {
				continue
			}
			if j, ok := producer[name]; ok {
				sorted = sorted && j < i
				continue
			}
			if _, ok := s.lookup(name); !ok {
				n := &g.Nodes[i]
				what := "input " + strconv.Itoa(k)
				if k >= len(n.Inputs) {
					what = "a subgraph"
				}
				return nil, errcode.Errorf(errcode.ErrSyntax, "%s: node %d (%q, %s): %s reads %q, which nothing defines",
					e.where(s), i, n.Name, n.Op, what, name)
			}
		}
	}
	order := make([]int, 0, len(g.Nodes))
	if sorted {
		for i := range g.Nodes {
			order = append(order, i)
		}
		return order, nil
	}
	indegree := make([]int, len(g.Nodes))
	users := make([][]int, len(g.Nodes))
	for i := range g.Nodes {
		for _, name := range deps(i) {
			if j, ok := producer[name]; ok && name != "" {
				indegree[i]++
				users[j] = append(users[j], i)
			}
		}
	}
	for i, d := range indegree {
		if d == 0 {
			order = append(order, i)
		}
	}
	for k := 0; k < len(order); k++ {
		for _, u := range users[order[k]] {
			if indegree[u]--; indegree[u] == 0 {
				order = append(order, u)
			}
		}
	}
	if len(order) < len(g.Nodes) {
		i := slices.IndexFunc(indegree, func(d int) bool { return d > 0 })
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: node %d (%q, %s) is on a cycle: its inputs depend on its outputs",
			e.where(s), i, g.Nodes[i].Name, g.Nodes[i].Op)
	}
	return order, nil
}

func (e *engine) where(s *scope) string {
	if s.path == "" {
		name := s.g.Name
		if name == "" {
			return "graph"
		}
		return "graph " + strconv.Quote(name)
	}
	return strings.TrimSuffix(s.path, "/")
}

// freeOfNode returns the names the node's subgraphs read from enclosing graphs.
func (e *engine) freeOfNode(n *Node) []string {
	var free []string
	for i := range n.Attrs {
		a := &n.Attrs[i]
		if a.Graph != nil {
			free = append(free, e.freeOf(a.Graph)...)
		}
		for _, sg := range a.Graphs {
			free = append(free, e.freeOf(sg)...)
		}
	}
	return free
}

// freeOf returns the names a graph reads without defining them (outer-scope names), its nested
// subgraphs included.
func (e *engine) freeOf(g *Graph) []string {
	if f, ok := e.free[g]; ok {
		return f
	}
	e.free[g] = nil // a graph that holds itself reads nothing more through itself
	defined := map[string]bool{}
	for _, in := range g.Inputs {
		defined[in.Name] = true
	}
	for name := range g.Consts {
		defined[name] = true
	}
	for i := range g.Nodes {
		for _, out := range g.Nodes[i].Outputs {
			defined[out] = true
		}
	}
	seen := map[string]bool{}
	var free []string
	add := func(name string) {
		if name != "" && !defined[name] && !seen[name] {
			seen[name] = true
			free = append(free, name)
		}
	}
	for i := range g.Nodes {
		for _, in := range g.Nodes[i].Inputs {
			add(in)
		}
		for _, name := range e.freeOfNode(&g.Nodes[i]) {
			add(name)
		}
	}
	for _, out := range g.Outputs {
		add(out)
	}
	e.free[g] = free
	return free
}

// node infers node i of the graph of s: it finds the node's rule in the registry, checks the node
// against its signature, reads the inputs (the values of those the rule reads) and runs the rule.
func (e *engine) node(s *scope, i int) error {
	n := &s.g.Nodes[i]
	c := e.ctx(s.depth)
	c.e, c.gen, c.s, c.n, c.index, c.path = e, e.solver.Gen(), s, n, i, s.path+nodeName(s.g, i)
	c.fresh = c.gen
	domain := n.Domain
	if domain == "ai.onnx" {
		domain = ""
	}
	def, err := lookup(domain, n.Op, n.Version)
	if def != nil {
		err = def.check(len(n.Inputs), len(n.Outputs))
		if def.name != n.Op { // an OpenVINO type in another case: the rule reads the name it knows
			cp := *n
			cp.Op = def.name
			c.n = &cp
		}
	}
	c.in = e.ptrs.Make(len(n.Inputs))
	hidden := false   // an input holds values the rule does not read
	unsupported := "" // the operator, as Result.Unsupported counts it, of a node without a rule
	for k, name := range n.Inputs {
		if name == "" {
			continue
		}
		in, _ := s.lookup(name)
		if def != nil && err == nil && def.values.has(k) {
			in = e.readValues(in)
		} else if in != nil && in.Value != nil {
			hidden = true
		}
		c.in[k] = e.current(in)
	}
	c.out = e.ptrs.Make(len(n.Outputs))
	r := NodeResult{Path: c.path, Scope: strings.TrimSuffix(s.path, "/"), Node: n, Index: i, Graph: s.g, Inputs: c.in, NotTaken: s.notTaken}
	if err == nil {
		r.TypeErr = e.checkTypes(c, def, domain, false)
	}
	for _, in := range c.in {
		if in != nil && in.FailedAt != "" && r.Blocked == "" {
			r.Blocked = in.FailedAt
		}
	}
	switch {
	case err != nil:
		r.Blocked = ""
	case r.Blocked != "":
	case def == nil:
		r.Unsupported = true
		unsupported = n.Op
		if d := dialects[domain]; d == nil || d.qualify {
			unsupported = domain + ":" + n.Op
		}
		e.res.Unsupported[unsupported]++
	default:
		if hidden {
			c.in = withoutValues(c.in, def.values)
		}
		if err = e.overRank(c.in, "input", n.Inputs); err == nil {
			if err = def.rule(c); err == nil {
				err = e.overRank(c.out, "output", n.Outputs)
			}
		}
	}
	if c.typeErr != nil && r.TypeErr == nil {
		r.TypeErr = c.wrap(c.typeErr)
	}
	if err != nil {
		if fatal, ok := errors.AsType[*fatalError](err); ok {
			return fatal.err
		}
		r.Err = c.wrap(err)
		clear(c.out)
		if !s.notTaken {
			e.errs++
		}
	}
	for k, name := range n.Outputs {
		if name == "" {
			continue
		}
		switch {
		case r.Err != nil: // its type, where its signature gives it whatever the shapes
			t := element.Undefined
			if sig := e.signature(c, def, domain); sig != nil {
				t = sig.outType(k, c.in)
			}
			if t == element.Undefined && dialectOf(domain).typesDeclared() {
				t = s.g.Declared[name].Type
			}
			c.out[k] = e.newInfo(t, sym.DynamicRank())
			c.out[k].FailedAt = r.Path
		case r.Blocked != "":
			c.out[k] = e.newInfo(element.Undefined, sym.DynamicRank())
			c.out[k].FailedAt = r.Blocked
		case c.out[k] == nil:
			c.out[k] = e.fallback(s, name, dialectOf(domain).declaresRun() && e.rebinds())
		case c.out[k].Type == element.Undefined && dialectOf(domain).typesDeclared():
			c.out[k].Type = s.g.Declared[name].Type
		}
		if out := c.out[k]; out.Value != nil {
			if e.values += len(out.Value); e.values > e.maxValues {
				cp := *out
				cp.Value = nil
				c.out[k] = &cp
			}
		}
		s.infos[name] = c.out[k]
	}
	if r.Err == nil && r.Blocked == "" {
		e.account(c, def, unsupported)
	}
	r.Outputs = c.out
	if r.TypeErr == nil && r.Err == nil && r.Blocked == "" && def != nil && domain != DomainOpenVINO && domain != DomainOneDNN {
		if r.TypeErr = e.checkTypes(c, def, domain, true); r.TypeErr == nil {
			if err := declaredTypes(s.g, n.Outputs, c.out); err != nil {
				r.TypeErr = c.wrap(err)
			}
		}
	}
	if s.record && !(s.notTaken && (r.Err != nil || r.Blocked != "")) {
		e.res.Nodes = append(e.res.Nodes, r)
	}
	return nil
}

// checkTypes returns the error, wrapped with the node's path, of a node whose input element types
// its operator does not accept at its version (typeSig.check), or, with outputs set, whose rule
// gives an output of a type that an attribute sets (Cast's to) and that its operator does not take
// at its version or onnxruntime has no kernel for (typeSig.checkOutputs); nil when they are
// accepted or its operator's types are not known. def is the node's op, nil for an operator
// without a rule.
func (e *engine) checkTypes(c *ctx, def *opDef, domain string, outputs bool) error {
	s := e.signature(c, def, domain)
	var err error
	switch {
	case s == nil:
	case outputs:
		err = s.checkOutputs(c.n.Op, c.out, c.n.Outputs)
	default:
		err = s.check(c.n.Op, c.in, c.n.Inputs)
	}
	if err != nil {
		return c.wrap(err)
	}
	return nil
}

// signature returns the type signature of the node of c at its version, nil when its operator's
// types are not known. def is the node's op, nil for an operator without a rule.
func (e *engine) signature(c *ctx, def *opDef, domain string) *typeSig {
	var sigs []typeSig
	if def != nil {
		sigs = def.versions.types
	} else {
		sigs = typeIndex[typeKey(domain, c.n.Op)]
	}
	return typeSigAt(sigs, c.n.Version)
}

// withoutValues returns ins with the values (Info.Value) of the inputs m does not hold left out, in
// copies: what a rule that reads the values of those in m sees.
func withoutValues(ins []*Info, m valueMask) []*Info {
	out := slices.Clone(ins)
	for k, in := range out {
		if in != nil && !m.has(k) && in.Value != nil {
			cp := *in
			cp.Value = nil
			out[k] = &cp
		}
	}
	return out
}

// overRank returns an error wrapping errcode.ErrLimit when a tensor of infos (the inputs or the
// outputs of a node, what says which, names their names) has a rank over Options.MaxRank.
func (e *engine) overRank(infos []*Info, what string, names []string) error {
	for k, in := range infos {
		if r, ok := in.rank(); ok && r > e.maxRank {
			return errcode.Errorf(errcode.ErrLimit, "%s %d (%q) has rank %d, more than the limit of %d", what, k, names[k], r, e.maxRank)
		}
	}
	return nil
}

// readValues returns in as a rule reads it: with its values while the rules have read and computed
// fewer than maxValues value elements, without them (unknown) past that, so that a graph that
// computes large values over and over takes time and memory linear in its size.
func (e *engine) readValues(in *Info) *Info {
	if in == nil || in.Value == nil {
		return in
	}
	if e.values < e.maxValues {
		e.values += len(in.Value)
		return in
	}
	cp := *in
	cp.Value = nil
	return &cp
}

// fallback returns the Info of an output no rule gave: the model's declaration, with anonymous
// symbols for its unnamed dynamic dims, or nothing. A stale declaration (the dims of an IR port
// under other input shapes) gives its element type and rank alone.
func (e *engine) fallback(s *scope, name string, stale bool) *Info {
	d, ok := s.g.Declared[name]
	switch {
	case !ok:
		return unknownInfo()
	case d.Seq != nil || d.Map != nil:
		in := e.declValue(d, name)
		in.FromDecl, in.gen = true, e.solver.Gen()
		return in
	case stale && d.Rank >= 0: // the declared dims are those of the old inputs
		return &Info{Type: d.Type, Shape: unknownDims(d.Rank), Optional: d.Optional, gen: e.solver.Gen()}
	}
	return &Info{Type: d.Type, Shape: e.anonShape(e.declShape(d, ""), name), FromDecl: d.Rank >= 0, Optional: d.Optional, gen: e.solver.Gen()}
}

// rebinds reports whether the options set input shapes other than those the model was exported at
// (Options.Inputs, BatchSize, Dims): the dims an IR network or a oneDNN Graph declares, numbers of
// the one set of input shapes it was written for, are then stale.
func (e *engine) rebinds() bool {
	return len(e.opt.Inputs) > 0 || e.opt.BatchSize > 0 || len(e.opt.Dims) > 0
}

// fatalError is an error of a rule that stops inference (a subgraph that cannot be run).
type fatalError struct{ err error }

func (f *fatalError) Error() string { return f.err.Error() }
func (f *fatalError) Unwrap() error { return f.err }

// current returns in with the substitutions unification has found applied.
func (e *engine) current(in *Info) *Info {
	gen := e.solver.Gen()
	if in == nil || in.gen == gen {
		return in
	}
	if !in.Shape.RankDynamic {
		for i, d := range in.Shape.Dims {
			in.Shape.Dims[i] = e.solver.Dim(d)
		}
	}
	for i, d := range in.Value {
		in.Value[i] = e.solver.Dim(d)
	}
	if in.fracs != nil {
		for i, f := range *in.fracs {
			(*in.fracs)[i].num, (*in.fracs)[i].fl = e.solver.Dim(f.num), e.solver.Float(f.fl)
		}
	}
	if in.elems != nil {
		in.elems = &[2]sym.Dim{e.solver.Dim(in.elems[0]), e.solver.Dim(in.elems[1])}
	}
	in.gen = gen
	if in.Seq != nil || in.Map != nil {
		e.currentNested(in)
	}
	return in
}

// final applies the substitutions to every Info of the result.
func (e *engine) final() {
	e.res.subs = e.subs
	if e.solver.Gen() == 0 {
		return
	}
	for _, infos := range e.subs {
		for _, in := range infos {
			e.current(in)
		}
	}
	for _, in := range e.res.tensors {
		e.current(in)
	}
	for _, r := range e.res.Nodes {
		for _, in := range r.Inputs {
			e.current(in)
		}
		for _, in := range r.Outputs {
			e.current(in)
		}
	}
}

// fileResult returns the model of the scope s inferred without Options.Dims, Inputs and
// BatchSize (ctx.RefusedAtLoad), made once, on first use; nil when that inference fails.
func (e *engine) fileResult(s *scope) *Result {
	if !e.fileDone {
		e.fileDone = true
		for s.parent != nil {
			s = s.parent
		}
		opt := e.opt
		opt.Dims, opt.Inputs, opt.BatchSize = nil, nil, 0
		e.file, _ = Infer(s.g, opt)
	}
	return e.file
}
