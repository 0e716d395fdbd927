package graph

import (
	"slices"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxControl holds the rules of ONNX's control-flow operators, which infer the subgraphs they hold
// (reading the enclosing graphs' tensors by name): If reads its condition's values, Loop and Scan
// those of every input, which their bodies receive.
var onnxControl = table{"", []opDef{
	{"If", since(1, 11, 13, 16, 19, 21), fixed(1), span(1, many), reads(0), ifOp},
	{"Loop", since(1), span(3, many), span(1, many), allValues, loop},
	{"Loop", since(11, 13, 16, 19, 21), span(2, many), span(1, many), allValues, loop},
	{"Scan", since(8), span(2, many), span(1, many), allValues, scan},
	{"Scan", since(9, 11, 16, 19, 21), span(1, many), span(1, many), allValues, scan},
}}

// ifOp: If-1, -11, -13, -16, -19, -21. The condition must have exactly one element (onnxruntime
// refuses others): a condition of shape [N] requires N == 1. A condition known before run time
// selects the branch that is inferred; otherwise both are, each in a mark of the solver's record
// (Ctx.branch), and the model runs when either branch can:
//   - neither fails: the node requires the disjunction of what each branch needs (the conditions
//     both need, each with its own node), and each output joins the two branches' (join);
//   - one fails (a node of it breaks its rule): a run must take the other, whose conditions are
//     required with their own nodes and whose outputs are the If's; the failing branch's node
//     errors are NodeResult.Avoidable;
//   - both fail: their node errors stand.
func ifOp(c *ctx) error {
	cond, err := c.Input(0)
	if err != nil {
		return err
	}
	thenG, err := c.Graph("then_branch")
	if err != nil {
		return err
	}
	elseG, err := c.Graph("else_branch")
	if err != nil {
		return err
	}
	if len(thenG.Outputs) != len(elseG.Outputs) || len(thenG.Outputs) < c.NumOut() {
		return c.Errorf(errcode.ErrSyntax, "then_branch has %d outputs, else_branch %d, and the node %d", len(thenG.Outputs), len(elseG.Outputs), c.NumOut())
	}
	if !cond.Shape.RankDynamic {
		n := cond.Shape.Volume()
		if err := requireAtLeast(c, n, 1, "the condition, of shape "+cond.Shape.String()+", has exactly one element"); err != nil {
			return err
		}
		if err := requireAtMost(c, n, sym.Const(1), "the condition, of shape "+cond.Shape.String()+", has exactly one element"); err != nil {
			return err
		}
	}
	if v, ok := cond.Ints(); ok && len(v) == 1 {
		g, attr, other, otherAttr := thenG, "then_branch", elseG, "else_branch"
		if v[0] == 0 {
			g, attr, other, otherAttr = elseG, "else_branch", thenG, "then_branch"
		}
		outs, err := c.Subgraph(g, attr, nil, true)
		if err != nil {
			return err
		}
		// The branch not taken needs nothing of the symbols: what it records is taken back.
		m := c.e.solver.Mark()
		err = c.SubgraphNotTaken(other, otherAttr)
		c.e.solver.Cut(m)
		if err != nil {
			return err
		}
		for i := range c.NumOut() {
			c.Set(i, copyInfo(outs[i]))
		}
		return nil
	}
	then, err := c.branch(thenG, "then_branch")
	if err != nil {
		return err
	}
	els, err := c.branch(elseG, "else_branch")
	if err != nil {
		return err
	}
	switch {
	case then.fails && els.fails:
		for i := range c.NumOut() {
			c.Set(i, c.join(then.outs[i], els.outs[i], "output"+itoa(i)))
		}
		return nil
	case then.fails || els.fails:
		taken, avoided := els, then
		if els.fails {
			taken, avoided = then, els
		}
		c.avoid(avoided)
		for _, k := range taken.cs {
			if err := c.e.solver.Require(k.Pred, k.Origin); err != nil {
				return err
			}
		}
		for i := range c.NumOut() {
			c.Set(i, copyInfo(taken.outs[i]))
		}
		return nil
	}
	var a, b []sym.Pred
	for _, k := range then.cs {
		if slices.ContainsFunc(els.cs, func(x sym.Constraint) bool { return x.Pred.Equal(k.Pred) }) {
			if err := c.e.solver.Require(k.Pred, k.Origin); err != nil {
				return err
			}
			continue
		}
		a = append(a, k.Pred)
	}
	for _, k := range els.cs {
		if !slices.ContainsFunc(then.cs, func(x sym.Constraint) bool { return x.Pred.Equal(k.Pred) }) {
			b = append(b, k.Pred)
		}
	}
	if err := c.Require(sym.Or(sym.And(a...), sym.And(b...)), "what then_branch needs, or what else_branch needs"); err != nil {
		return err
	}
	for i := range c.NumOut() {
		c.Set(i, c.join(then.outs[i], els.outs[i], "output"+itoa(i)))
	}
	return nil
}

// branchRun is the inference of one branch of an If: its outputs, the constraints its nodes
// recorded, whether a node of it failed, its nodes' results (Result.Nodes[first:end]) and the
// count of the model's errors before and after it.
type branchRun struct {
	outs             []*Info
	cs               []sym.Constraint
	fails            bool
	first, end       int
	errsBefore, errs int
}

// branch infers the subgraph g, held by the attribute attr, as one branch of an If: in a mark of
// the solver's record, so that what its nodes require is taken back (sym.Solver.Cut) for the If to
// join, and unifications in it substitute nothing outside it.
func (c *ctx) branch(g *Graph, attr string) (*branchRun, error) {
	r := &branchRun{first: len(c.e.res.Nodes), errsBefore: c.e.errs}
	m := c.e.solver.Mark()
	outs, err := c.Subgraph(g, attr, nil, true)
	r.cs = c.e.solver.Cut(m)
	if err != nil {
		return nil, err
	}
	r.outs, r.end, r.errs = outs, len(c.e.res.Nodes), c.e.errs
	r.fails = r.errs > r.errsBefore
	return r, nil
}

// avoid makes the node errors of a branch that a run of the model need not take avoidable: they
// no longer count as the model's (engine.errs), and their results say so.
func (c *ctx) avoid(r *branchRun) {
	c.e.errs -= r.errs - r.errsBefore
	for i := r.first; i < r.end; i++ {
		if c.e.res.Nodes[i].Err != nil {
			c.e.res.Nodes[i].Avoidable = true
		}
	}
}

// copyInfo returns a new Info with in's type, shape and values, for an output that is a subgraph's.
func copyInfo(in *Info) *Info {
	return &Info{Type: in.Type, Shape: in.Shape, Value: in.Value, Floats: in.Floats, Optional: in.Optional, elems: in.elems}
}

// join returns what is known of a tensor that is either a or b: their common rank, and at each
// axis the common dim, or a new anonymous dim bounded by both.
func (c *ctx) join(a, b *Info, hint string) *Info {
	t := a.Type
	if b.Type != t {
		t = element.Undefined
	}
	ra, oka := a.Rank()
	rb, okb := b.Rank()
	if !oka || !okb || ra != rb {
		return &Info{Type: t, Shape: sym.DynamicRank(), Optional: a.Optional || b.Optional}
	}
	dims := make([]sym.Dim, ra)
	for i, d := range a.Shape.Dims {
		dims[i] = c.joinDim(d, b.Shape.Dims[i], hint+":"+itoa(i))
	}
	out := &Info{Type: t, Shape: sym.ShapeOf(dims...), Optional: a.Optional || b.Optional}
	if a.Value != nil && b.Value != nil && len(a.Value) == len(b.Value) {
		v := make([]sym.Dim, len(a.Value))
		for i, d := range a.Value {
			if d.Equal(b.Value[i]) {
				v[i] = d
				continue
			}
			lo1, hi1 := d.Bounds()
			lo2, hi2 := b.Value[i].Bounds()
			v[i] = sym.Interval(min(lo1, lo2), max(hi1, hi2))
		}
		setValue(out, v)
	}
	return out
}

func (c *ctx) joinDim(a, b sym.Dim, hint string) sym.Dim {
	if a.Equal(b) {
		return a
	}
	lo1, hi1 := a.Bounds()
	lo2, hi2 := b.Bounds()
	return c.Fresh(hint, min(lo1, lo2), max(hi1, hi2))
}

// maxLoopRuns bounds how many times the body of a Loop is inferred while the shapes of its
// loop-carried values settle.
const maxLoopRuns = 4

// loop: Loop-1, -11, -13, -16, -19, -21. The body is inferred with the loop-carried values as they
// enter; where a value leaves with another shape, the dims that differ become unknown (a new
// anonymous dim bounded by both, or by the growth seen) and the body is inferred again, until the
// shapes settle. Each run is in a mark of the solver's record, so that its unifications
// substitute nothing outside the body: the conditions of the first run (the first iteration) and
// of the last (every iteration, with the values widened) are required once the runs are done. A
// scan output gains a leading dim, the number of iterations: the trip count M when it is known and
// the loop cannot stop early, else unknown (at most M).
func loop(c *ctx) error {
	body, err := c.Graph("body")
	if err != nil {
		return err
	}
	nCarried := max(c.NumIn()-2, 0)
	if len(body.Inputs) != nCarried+2 {
		return c.Errorf(errcode.ErrSyntax, "the body has %d inputs, want %d: the iteration number, the condition and %d loop-carried values",
			len(body.Inputs), nCarried+2, nCarried)
	}
	if len(body.Outputs) < nCarried+1 {
		return c.Errorf(errcode.ErrSyntax, "the body has %d outputs, want at least %d: the condition and %d loop-carried values",
			len(body.Outputs), nCarried+1, nCarried)
	}
	nScan := len(body.Outputs) - 1 - nCarried
	if c.NumOut() > nCarried+nScan {
		return c.Errorf(errcode.ErrSyntax, "%d outputs, and the body gives %d loop-carried values and %d scan outputs", c.NumOut(), nCarried, nScan)
	}
	// The number of iterations.
	iters := sym.Unknown()
	tripKnown := false
	if m := c.In(0); m != nil && len(m.Value) == 1 {
		if n, ok := m.Value[0].Static(); ok {
			iters, tripKnown = sym.Interval(0, max(n, 0)), true
		}
	}
	iterNum := &Info{Type: element.I64, Shape: sym.Shape{}}
	if tripKnown {
		_, hi := iters.Bounds()
		// One anonymous dim: the body's expressions in it (iter+1 - iter) stay exact.
		iterNum.Value = []sym.Dim{c.Fresh("iter", 0, max(hi-1, 0))}
	}
	// The condition the body reads: the node's condition input first, then the body's own output.
	// A Loop without a condition input ignores the body's (ONNX's "for" form).
	condGiven := c.In(1) != nil
	condIn := &Info{Type: element.Boolean, Shape: sym.Shape{}}
	if condGiven && isTrue(c.In(1)) {
		condIn.Value = []sym.Dim{sym.Const(1)}
	}
	carried := make([]*Info, nCarried)
	for k := range carried {
		in, err := c.Input(k + 2)
		if err != nil {
			return err
		}
		carried[k] = in
	}
	var outs []*Info
	var first, last []sym.Constraint
	for run := 0; ; run++ {
		inputs := append([]*Info{iterNum, condIn}, carried...)
		final := run == maxLoopRuns-1
		m := c.e.solver.Mark()
		outs, err = c.Subgraph(body, "body", inputs, true)
		last = c.e.solver.Cut(m)
		if err != nil {
			return err
		}
		if run == 0 {
			first = last
		}
		settled := true
		next := make([]*Info, nCarried)
		for k := range carried {
			o := outs[1+k]
			if o.Shape.Identical(carried[k].Shape) && sameValues(o, carried[k]) || run > 0 && covers(carried[k], o) {
				next[k] = carried[k]
				continue
			}
			settled = false
			next[k] = c.widen(carried[k], o, "carried"+itoa(k), final)
		}
		if settled || final {
			carried = next
			break
		}
		carried = next
	}
	// What the body needs: at the first iteration, whose loop-carried values are those that
	// enter, and at every one, as the last run (with the values widened) found it.
	for _, k := range append(first, last...) {
		if err := c.e.solver.Require(k.Pred, k.Origin); err != nil {
			return err
		}
	}
	// The loop runs M times when no condition can stop it: there is no condition input, or it is
	// true and the body keeps it true (the body infers with the condition true, the only value it
	// then ever reads).
	if tripKnown && (!condGiven || condIn.Value != nil && isTrue(outs[0])) {
		_, hi := iters.Bounds()
		iters = sym.Const(hi)
	}
	for k := 0; k < nCarried && k < c.NumOut(); k++ {
		c.Set(k, copyInfo(carried[k]))
	}
	for k := 0; k < nScan && nCarried+k < c.NumOut(); k++ {
		o := outs[1+nCarried+k]
		if o.Shape.RankDynamic {
			c.Out(nCarried+k, o.Type, sym.DynamicRank())
			continue
		}
		c.Out(nCarried+k, o.Type, sym.ShapeOf(append([]sym.Dim{iters}, o.Shape.Dims...)...))
	}
	return nil
}

// covers reports whether the loop-carried value in, already widened, covers out: optional if out
// is, the same rank and type, and every dim of out equal to in's or within the bounds of an
// anonymous dim of in (which stands for any value in its bounds).
func covers(in, out *Info) bool {
	if out.Optional && !in.Optional {
		return false
	}
	if in.Shape.RankDynamic {
		return out.Type == in.Type
	}
	ro, ok := out.Rank()
	if !ok || len(in.Shape.Dims) != ro || in.Type != out.Type || in.Value != nil {
		return false
	}
	for i, d := range in.Shape.Dims {
		o := out.Shape.Dims[i]
		if d.Equal(o) {
			continue
		}
		if e, ok := d.Expr(); !ok || !e.DependsOnAnon() {
			return false
		}
		lo, hi := d.Bounds()
		olo, ohi := o.Bounds()
		if olo < lo || ohi > hi {
			return false
		}
	}
	return true
}

// isTrue reports whether a boolean tensor is known to hold true.
func isTrue(in *Info) bool {
	v, ok := in.Ints()
	return ok && len(v) == 1 && v[0] != 0
}

func sameValues(a, b *Info) bool {
	if (a.Value == nil) != (b.Value == nil) || len(a.Value) != len(b.Value) {
		return false
	}
	for i, d := range a.Value {
		if !d.Identical(b.Value[i]) {
			return false
		}
	}
	return true
}

// widen returns what is known of a loop-carried value that enters as in and leaves as out (an
// optional if either is): the dims that agree are kept, the others become anonymous dims whose
// bounds cover both and, for a dim that grows, every later iteration; with final, a rank that
// differs is given up.
func (c *ctx) widen(in, out *Info, hint string, final bool) *Info {
	t := in.Type
	if out.Type != t {
		t = element.Undefined
	}
	opt := in.Optional || out.Optional
	ri, oki := in.Rank()
	ro, oko := out.Rank()
	if !oki || !oko || ri != ro || final {
		return &Info{Type: t, Shape: sym.DynamicRank(), Optional: opt}
	}
	dims := make([]sym.Dim, ri)
	for i, d := range in.Shape.Dims {
		o := out.Shape.Dims[i]
		if d.Equal(o) {
			dims[i] = d
			continue
		}
		lo1, hi1 := d.Bounds()
		lo2, hi2 := o.Bounds()
		lo, hi := min(lo1, lo2), max(hi1, hi2)
		if hi2 > hi1 || lo2 < lo1 {
			// It moves: later iterations may move it further in the same direction.
			if hi2 > hi1 {
				hi = Inf
			}
			if lo2 < lo1 {
				lo = 0
			}
		}
		dims[i] = c.Fresh(hint+":"+itoa(i), lo, hi)
	}
	return &Info{Type: t, Shape: sym.ShapeOf(dims...), Optional: opt}
}

// scan: Scan-8 (with a batch axis and sequence_lens), -9, -11, -16, -19, -21. The body takes the
// state values and one slice of each scanned input (its scan axis removed), and gives the new state
// values and one slice of each scan output; a scan output stacks the slices along its scan axis, as
// many as the scanned inputs' length. A state value is the next iteration's input, and the final
// one takes the initial one's place: the body's state outputs unify with its state inputs
// (onnxruntime allocates each final state of its initial shape).
func scan(c *ctx) error {
	body, err := c.Graph("body")
	if err != nil {
		return err
	}
	nScanIn, err := c.Int("num_scan_inputs", -1)
	if err != nil {
		return err
	}
	first := 0
	if c.Version() < 9 {
		first = 1 // sequence_lens
	}
	nIn := c.NumIn() - first
	if nScanIn < 1 || int(nScanIn) > nIn {
		return c.Errorf(errcode.ErrSyntax, "num_scan_inputs = %d, and the node has %d inputs", nScanIn, nIn)
	}
	nState := nIn - int(nScanIn)
	if len(body.Inputs) != nIn {
		return c.Errorf(errcode.ErrSyntax, "the body has %d inputs, want %d", len(body.Inputs), nIn)
	}
	nScanOut := len(body.Outputs) - nState
	if nScanOut < 0 || c.NumOut() > len(body.Outputs) {
		return c.Errorf(errcode.ErrSyntax, "the body has %d outputs for %d state values and the node %d outputs", len(body.Outputs), nState, c.NumOut())
	}
	inAxes, _, err := c.Ints("scan_input_axes")
	if err != nil {
		return err
	}
	outAxes, _, err := c.Ints("scan_output_axes")
	if err != nil {
		return err
	}
	batch := c.Version() < 9
	inputs := make([]*Info, nIn)
	length := sym.Unknown()
	lengthSet := false
	var batchDim sym.Dim
	for k := range nIn {
		in, err := c.Input(first + k)
		if err != nil {
			return err
		}
		if k < nState {
			inputs[k] = in
			if batch {
				inputs[k] = dropAxis(in, 0)
			}
			continue
		}
		r, ok := in.Rank()
		if !ok {
			inputs[k] = &Info{Type: in.Type, Shape: sym.DynamicRank()}
			continue
		}
		axis := int64(0)
		if batch {
			axis = 1
		}
		if j := k - nState; j < len(inAxes) {
			axis = inAxes[j]
		}
		a, err := c.NormAxis(axis, r)
		if err != nil {
			return err
		}
		d := in.Shape.Dims[a]
		if !lengthSet {
			length, lengthSet = d, true
		} else if length, err = c.Unify(length, d, "scan input "+itoa(k-nState)+" length"); err != nil {
			return err
		}
		if batch {
			batchDim = in.Shape.Dims[0]
			sliced := dropAxis(in, a)
			inputs[k] = dropAxis(sliced, 0)
		} else {
			inputs[k] = dropAxis(in, a)
		}
	}
	outs, err := c.Subgraph(body, "body", inputs, true)
	if err != nil {
		return err
	}
	// A state's dims as they leave the body stand for those that enter it: where unification
	// keeps the entering one (a state S broadcast to max(S,D), with D <= S recorded), so do the
	// body's other outputs of that dim.
	var from, to []sym.Dim
	for k := range nState {
		s, err := unifyShape(c, inputs[k].Shape, outs[k].Shape, "state "+itoa(k)+" in and out of the body")
		if err != nil {
			return err
		}
		if outs[k].Shape.RankDynamic {
			continue
		}
		for i, d := range outs[k].Shape.Dims {
			if !d.Equal(s.Dims[i]) {
				from, to = append(from, d), append(to, s.Dims[i])
			}
		}
	}
	for k, o := range outs {
		if o.Shape.RankDynamic || len(from) == 0 {
			continue
		}
		dims := slices.Clone(o.Shape.Dims)
		for i, d := range dims {
			if j := slices.IndexFunc(from, d.Equal); j >= 0 {
				dims[i] = to[j]
			}
		}
		cp := copyInfo(o)
		cp.Shape = sym.ShapeOf(dims...)
		outs[k] = cp
	}
	for k := range outs {
		outs[k] = c.e.current(outs[k])
	}
	length, batchDim = settle(c, []sym.Dim{length})[0], settle(c, []sym.Dim{batchDim})[0]
	for k := 0; k < nState && k < c.NumOut(); k++ {
		o := copyInfo(outs[k])
		if batch && !o.Shape.RankDynamic {
			o.Shape = sym.ShapeOf(append([]sym.Dim{batchDim}, o.Shape.Dims...)...)
			o.Value = nil
		}
		c.Set(k, o)
	}
	for j := 0; j < nScanOut && nState+j < c.NumOut(); j++ {
		o := outs[nState+j]
		r, ok := o.Rank()
		if !ok {
			c.Out(nState+j, o.Type, sym.DynamicRank())
			continue
		}
		axis := int64(0)
		if j < len(outAxes) {
			axis = outAxes[j]
		}
		a, err := c.NormAxis(axis, r+1)
		if err != nil {
			return err
		}
		dims := make([]sym.Dim, 0, r+2)
		dims = append(dims, o.Shape.Dims[:a]...)
		dims = append(dims, length)
		dims = append(dims, o.Shape.Dims[a:]...)
		if batch {
			dims = append([]sym.Dim{batchDim}, dims...)
		}
		c.Out(nState+j, o.Type, sym.ShapeOf(dims...))
	}
	return nil
}

// dropAxis returns in without axis a (one slice along it).
func dropAxis(in *Info, a int) *Info {
	if in.Shape.RankDynamic || a >= len(in.Shape.Dims) {
		return &Info{Type: in.Type, Shape: in.Shape}
	}
	dims := append(append([]sym.Dim(nil), in.Shape.Dims[:a]...), in.Shape.Dims[a+1:]...)
	return &Info{Type: in.Type, Shape: sym.ShapeOf(dims...)}
}
