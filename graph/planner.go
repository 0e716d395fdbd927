package graph

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/sym"
)

// onnxruntime 1.20.1 plans the memory of a run before it runs (allocation_planner.cc, sequential
// execution): in the order it runs the nodes (RunSeq), an output that is no graph output takes the
// buffer of an input its kernel may write in place (the activations) when this is the input's last
// use, else the buffer most recently freed whose shape, as the model declares it, is the output's
// (the same rank, each dim the same value or the same dim_param, elements of the same width). The
// shapes it plans with are the model's declarations, where it declares a tensor (a value_info, a
// graph output), and what onnx's shape inference derives from them elsewhere. At run time an output
// that needs more elements than the buffer it was planned to take fails ("Shape mismatch attempting
// to re-use buffer"); one that needs fewer runs. Where the declarations hold, shapes the planner
// deems equal are equal and no run fails so; a binding that contradicts a declared static shape may
// fail at the first node whose output takes a buffer smaller than itself (an ISNet exported at
// 1024x1024, its value_info kept, input renamed [N,3,H,W]: at H = 512 its first Resize, whose sizes
// are baked, takes the buffer of a tensor declared [1,32,32,32] that holds [1,32,16,16]).
//
// memoryPlan states that condition: for each output planned to take a buffer, its volume at most the
// buffer's, at the output's node. It runs only for an ONNX main graph without subgraphs that declares
// a static dim of an intermediate tensor that inference does not prove.

// planWhy begins the why of each condition memoryPlan states: Result.conditions weighs them after
// the others, so that a condition of the nodes' own rules that says as much is the one kept.
const planWhy = "onnxruntime's memory planner: "

// inplaceOps are the operators whose onnxruntime CPU kernels may write output 0 in input 0's
// buffer (MayInplace(0, 0)); aliasOps those whose output 0 is input 0's buffer (Alias(0, 0)).
// Each operator that keeps its input's shape is held against onnxruntime-node 1.20.1's own plan
// (bench/truth/planner_inplace.py, testdata/planner_inplace.json: 57 operators, of which Abs, Neg,
// Exp, Add and Mul with a constant, Dropout, Gelu, HardSwish, Mish take a buffer of their own).
var (
	inplaceOps = []string{"Cast", "Celu", "Clip", "Elu", "HardSigmoid", "LeakyRelu", "LogSoftmax", "Relu", "Selu", "Shrink", "Sigmoid",
		"Softmax", "Softplus", "Softsign", "Tanh", "ThresholdedRelu"}
	aliasOps = []string{"Flatten", "Identity", "Reshape", "Squeeze", "Unsqueeze"}
)

// viewDim is a dim as onnxruntime's planner sees it: a value, a dim_param, or unknown.
type viewDim struct {
	value int64
	param string
	known bool
}

// planner holds the state of one simulation of onnxruntime's memory planner over a main graph.
type planner struct {
	e         *engine
	g         *Graph
	base, at  *Result           // the graph inferred without bindings, and at the binding of its declarations
	uses      map[string]int    // the use count of each buffer, by tensor name
	buffer    map[string]string // the tensor whose buffer each tensor takes
	free      []string          // the freed buffers, most recent first
	views     map[string][]viewDim
	viewKnown map[string]bool
	// fromInput holds the tensors onnx's shape inference reaches from a graph input through
	// tensors the graph does not declare: their dims that depend on symbols are the input's
	// dim_params or unknown, where those downstream of a declaration take its values.
	fromInput map[string]bool
}

// memoryPlan states onnxruntime's memory planner's conditions for the main graph g (see above).
func (e *engine) memoryPlan(s *scope) {
	g := s.g
	if !e.planDeclared(g) {
		return
	}
	base := e.res
	if e.rebinds() {
		if base = e.fileResult(s); base == nil {
			return
		}
	}
	b0, ok := base.e.declaredBinding(g, base)
	if !ok {
		return
	}
	opt := Options{Dims: b0, MaxRank: e.opt.MaxRank, MaxNodes: e.opt.MaxNodes}
	at, err := infer(g, opt, sym.NewTable(), nil, false)
	if err != nil {
		return
	}
	p := &planner{e: e, g: g, base: base, at: at, uses: map[string]int{}, buffer: map[string]string{},
		views: map[string][]viewDim{}, viewKnown: map[string]bool{}, fromInput: map[string]bool{}}
	p.run()
}

// planDeclared reports whether memoryPlan has anything to state for g: an ONNX main graph without
// subgraphs that declares a static dim of a tensor other than a graph output whose inferred dim is
// not that value.
func (e *engine) planDeclared(g *Graph) bool {
	if !e.plan || len(g.Declared) == len(g.Outputs) {
		return false
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if n.Domain == DomainOpenVINO || n.Domain == DomainOneDNN {
			return false
		}
		for _, a := range n.Attrs {
			if a.Graph != nil || len(a.Graphs) > 0 {
				return false
			}
		}
	}
	for name, d := range g.Declared {
		info := e.res.tensors[name]
		if slices.Contains(g.Outputs, name) || !sameRank(d, info) {
			continue
		}
		for i, dd := range d.Dims {
			if v, ok := info.Shape.Dims[i].Static(); dd.Name == "" && dd.Lo == dd.Hi && (!ok || v != dd.Lo) {
				return true
			}
		}
	}
	return false
}

// sameRank reports whether d declares a tensor (not a sequence or a map) of the rank that info,
// inferred, holds: their dims compare one by one.
func sameRank(d Decl, info *Info) bool {
	return info != nil && d.Seq == nil && d.Map == nil && !info.Shape.RankDynamic && len(info.Shape.Dims) == len(d.Dims)
}

// declaredBinding returns the smallest binding of the symbols at which the conditions recorded hold
// and every static dim that g declares is the inferred one (sym.SizesOf), res being g inferred
// without bindings; false when none is known.
func (e *engine) declaredBinding(g *Graph, res *Result) (map[string]int64, bool) {
	seen := map[string]bool{}
	cs := e.solver.Recorded()
	for _, name := range slices.Sorted(maps.Keys(g.Declared)) {
		d, info := g.Declared[name], res.tensors[name]
		if !sameRank(d, info) {
			continue
		}
		for i, dd := range d.Dims {
			if dd.Name != "" || dd.Lo != dd.Hi {
				continue
			}
			when, ok := e.solver.EqualWhen(info.Shape.Dims[i], sym.Const(dd.Lo))
			if !ok || when.IsTrue() {
				continue
			}
			if when.IsFalse() {
				return nil, false
			}
			if k := when.String(); !seen[k] {
				seen[k] = true
				cs = append(cs, sym.Constraint{Pred: when})
			}
		}
	}
	sizes := sym.SizesOf(e.tab, cs)
	if sizes.Smallest == nil {
		return nil, false
	}
	return sizes.Smallest, true
}

// run simulates the planner over the main graph's nodes in the order onnxruntime runs them, and
// states the condition of each buffer an output takes.
func (p *planner) run() {
	r := p.e.res
	var order []int
	for i := range r.Nodes {
		if r.Nodes[i].Scope == "" {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return r.RunSeq(a) - r.RunSeq(b) })
	outputs := map[string]bool{}
	for _, in := range p.g.Inputs {
		p.uses[in.Name]++
	}
	for name := range p.g.Consts {
		p.uses[name]++
	}
	for _, i := range order {
		n := r.Nodes[i].Node
		if isConstantNode(n) {
			for _, out := range n.Outputs {
				p.uses[out]++
			}
			continue
		}
		for _, in := range n.Inputs {
			if in != "" {
				p.uses[in]++
			}
		}
		for _, out := range n.Outputs {
			if out != "" {
				p.uses[out]++
			}
		}
	}
	for _, out := range p.g.Outputs {
		p.uses[out]++
		outputs[out] = true
	}
	for _, in := range p.g.Inputs {
		p.fromInput[in.Name] = true
	}
	for _, i := range order {
		n := r.Nodes[i].Node
		reached := slices.ContainsFunc(n.Inputs, func(in string) bool {
			_, declared := p.g.Declared[in]
			return p.fromInput[in] && !declared
		})
		for _, out := range n.Outputs {
			p.fromInput[out] = reached
		}
	}
	for _, i := range order {
		nr := &r.Nodes[i]
		n := nr.Node
		if isConstantNode(n) {
			continue
		}
		for k, out := range n.Outputs {
			if out == "" || outputs[out] {
				continue
			}
			onnx := n.Domain == "" || n.Domain == "ai.onnx"
			switch {
			case k == 0 && onnx && slices.Contains(aliasOps, n.Op) && len(n.Inputs) > 0 && n.Inputs[0] != "":
				p.reuse(n.Inputs[0], out)
			case k == 0 && onnx && slices.Contains(inplaceOps, n.Op) && len(n.Inputs) > 0 && n.Inputs[0] != "" &&
				p.uses[p.root(n.Inputs[0])] == 1 && p.sameSize(n.Inputs[0], out):
				p.take(nr, n.Inputs[0], out)
			default:
				if j := p.findFree(out); j >= 0 {
					b := p.free[j]
					p.free = slices.Delete(p.free, j, j+1)
					p.take(nr, b, out)
				}
			}
		}
		for _, in := range n.Inputs {
			if in != "" {
				p.release(in)
			}
		}
		for _, out := range n.Outputs {
			if out != "" {
				p.release(out)
			}
		}
	}
}

// root returns the tensor whose buffer name takes.
func (p *planner) root(name string) string {
	if b, ok := p.buffer[name]; ok {
		return b
	}
	return name
}

// reuse makes out take the buffer of reused.
func (p *planner) reuse(reused, out string) {
	b := p.root(reused)
	p.buffer[out] = b
	p.uses[b] += p.uses[out]
}

// take makes the output out of the node nr take the buffer of reused, and states that its volume
// is at most the buffer's.
func (p *planner) take(nr *NodeResult, reused, out string) {
	p.reuse(reused, out)
	b := p.root(reused)
	cur := p.e.res.tensors
	o, bi := cur[out], cur[b]
	if o == nil || bi == nil || nr.Err != nil || nr.Blocked != "" {
		return
	}
	vo, ok1 := o.Shape.Volume().Expr()
	vb, ok2 := bi.Shape.Volume().Expr()
	if !ok1 || !ok2 {
		return
	}
	pred := sym.Ge(vb, vo)
	if pred.IsTrue() {
		return
	}
	why := planWhy + "output " + out + " takes the buffer of " + b + ", planned by their declared shapes " +
		p.describe(b) + ": at most its " + vb.String() + " elements"
	err := p.e.solver.Require(pred, sym.Origin{Node: nr.Path, Op: nr.Node.Op, Why: why})
	var ce *sym.ConstraintError
	if errors.As(err, &ce) {
		nr.Err = fmt.Errorf("%s (%s): %w", nr.Path, nr.Node.Op, nodeConstraint{ce})
	}
}

// release counts one use of name's buffer less, and frees the buffer at its last use.
func (p *planner) release(name string) {
	b := p.root(name)
	if p.uses[b]--; p.uses[b] == 0 {
		p.free = slices.Insert(p.free, 0, b)
	}
}

// findFree returns the index in the free list of the first buffer that the planner deems of
// out's size, -1 for none. Like onnxruntime, it reuses no buffer for a scalar.
func (p *planner) findFree(out string) int {
	if v, ok := p.view(out); !ok || len(v) == 0 {
		return -1
	}
	return slices.IndexFunc(p.free, func(b string) bool { return p.sameSize(b, out) })
}

// sameSize reports whether the planner deems the tensors a and b of one size: elements of one
// width (not strings), the same rank, each dim the same value or the same dim_param.
func (p *planner) sameSize(a, b string) bool {
	wa, wb := p.width(a), p.width(b)
	if wa == 0 || wa != wb {
		return false
	}
	va, oka := p.view(a)
	vb, okb := p.view(b)
	if !oka || !okb || len(va) != len(vb) {
		return false
	}
	for i := range va {
		x, y := va[i], vb[i]
		if !x.known || !y.known || x != y {
			return false
		}
	}
	return true
}

// width returns the width in bits of an element of name, 0 for one unknown or a string.
func (p *planner) width(name string) int {
	if d, ok := p.g.Declared[name]; ok && d.Type != element.Undefined {
		return d.Type.Bits()
	}
	if in := p.base.tensors[name]; in != nil {
		return in.Type.Bits()
	}
	return 0
}

// view returns the shape of name as onnxruntime's planner sees it: the declared dims where the
// graph declares it (a static dim that inference at the declarations' binding contradicts is
// unknown, as onnxruntime's lenient merge makes it), else the inferred dims, a symbol that names
// an input dim as its dim_param, and a dim that depends on symbols as inference at the
// declarations' binding gives it; false when the rank is not known.
func (p *planner) view(name string) ([]viewDim, bool) {
	if v, ok := p.views[name]; ok || p.viewKnown[name] {
		return v, ok
	}
	v, ok := p.makeView(name)
	p.viewKnown[name] = true
	if ok {
		p.views[name] = v
	}
	return v, ok
}

func (p *planner) makeView(name string) ([]viewDim, bool) {
	bi, ai := p.base.tensors[name], p.at.tensors[name]
	static := func(in *Info, i int) (int64, bool) {
		if in == nil || in.Shape.RankDynamic || i >= len(in.Shape.Dims) {
			return 0, false
		}
		return in.Shape.Dims[i].Static()
	}
	if d, ok := p.g.Declared[name]; ok && d.Seq == nil && d.Map == nil && d.Rank >= 0 && len(d.Dims) == d.Rank {
		v := make([]viewDim, len(d.Dims))
		for i, dd := range d.Dims {
			switch {
			case dd.Name != "":
				v[i] = viewDim{param: dd.Name, known: true}
			case dd.Lo == dd.Hi:
				if x, ok := static(ai, i); !ok || x == dd.Lo {
					v[i] = viewDim{value: dd.Lo, known: true}
				}
			}
		}
		return v, true
	}
	if bi == nil || bi.Seq != nil || bi.Map != nil || bi.Shape.RankDynamic {
		return nil, false
	}
	v := make([]viewDim, len(bi.Shape.Dims))
	for i, d := range bi.Shape.Dims {
		if x, ok := d.Static(); ok {
			v[i] = viewDim{value: x, known: true}
			continue
		}
		if !p.fromInput[name] {
			if x, ok := static(ai, i); ok {
				v[i] = viewDim{value: x, known: true}
			}
			continue
		}
		if x, ok := d.Expr(); ok {
			if sname, anon, isSym := x.Symbol(); isSym && !anon {
				v[i] = viewDim{param: sname, known: true}
			}
		}
	}
	return v, true
}

// describe writes the planner's view of name's shape: [1,32,32,32].
func (p *planner) describe(name string) string {
	v, _ := p.view(name)
	parts := make([]string, len(v))
	for i, d := range v {
		switch {
		case d.param != "":
			parts[i] = d.param
		case d.known:
			parts[i] = itoa(int(d.value))
		default:
			parts[i] = "?"
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}
