package graph

// The engine's side of the rules of control flow (ONNX's If, Loop and Scan; OpenVINO's If, Loop
// and TensorIterator): a subgraph run in its own scope, the two branches of a node that runs one
// of them (ctx.Branches), and a body run until the shapes of its loop-carried values settle
// (ctx.Iterate). A rule maps the node's inputs and outputs to the subgraph's (its dialect's port
// maps) and computes what only its operator knows (the trip count, a scan output's stacked
// axis); what the solver records, which errors count and which nodes are reported is decided
// here.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// Subgraph infers the subgraph g, held by the node's attribute attr, with its formal inputs set to
// inputs (a nil entry, or a missing one, takes the subgraph's declaration), and returns the Infos
// of its outputs. Names it does not define are read from the enclosing graphs. With record, its
// nodes are reported in the Result; a rule that runs a subgraph several times (Loop, until its
// shapes settle) records the last run only. Errors of the subgraph's structure (a cycle, an
// undefined name) stop the whole inference.
func (c *ctx) Subgraph(g *Graph, attr string, inputs []*Info, record bool) ([]*Info, error) {
	return c.subgraph(g, attr, inputs, record, c.s.notTaken)
}

// subgraph is Subgraph; with notTaken, g is a subgraph the node does not run at this binding (the
// branch of an If whose condition is a constant), inferred for the shapes of its tensors only, as
// onnx's shape inference infers both branches: its nodes are recorded with NodeResult.NotTaken,
// those that are inferred (not one whose inputs break its rule, nor one downstream of it).
func (c *ctx) subgraph(g *Graph, attr string, inputs []*Info, record, notTaken bool) ([]*Info, error) {
	child := &scope{parent: c.s, g: g, infos: map[string]*Info{}, path: c.path + "/" + attr + "/",
		depth: c.s.depth + 1, record: c.s.record && record, notTaken: notTaken, repeated: c.s.repeated || !c.branching}
	if child.record {
		c.forget(attr, child.path)
		c.e.subs[child.path] = child.infos
	}
	for k, in := range g.Inputs {
		var info *Info
		given := k < len(inputs) && inputs[k] != nil
		if given {
			info = inputs[k]
		} else {
			info = c.declaredInput(g, attr, k)
		}
		if info.taint&taintLost == 0 && !info.determined() {
			// What the rule gives the subgraph, or its declaration, is not known exactly: its
			// nodes' conditions on it cannot be stated.
			info.taint |= taintLost
			why := "the input " + in.Name + " of " + attr + " is " + info.describe()
			if !given {
				why = "the input " + in.Name + " of " + attr + " is as it declares it, " + info.describe()
			}
			if !notTaken {
				// A value the run's data make so (a loop-carried value of a count only a run
				// decides, Iterate's) is so only at run time.
				c.e.lose(c, child.path+in.Name, why, given && info.taint&taintData != 0)
			}
		}
		child.infos[in.Name] = info
	}
	if err := c.e.run(child); err != nil {
		return nil, &fatalError{err}
	}
	outs := make([]*Info, len(g.Outputs))
	for k, name := range g.Outputs {
		in, ok := child.lookup(name)
		if !ok {
			return nil, &fatalError{errcode.Errorf(errcode.ErrSyntax, "%s: output %q: nothing defines it", strings.TrimSuffix(child.path, "/"), name)}
		}
		outs[k] = c.e.current(in)
	}
	c.held = append(c.held, outs...)
	c.refresh()
	return outs, nil
}

// declaredInput returns the Info of input k of the subgraph g, held by the attribute attr, as the
// subgraph declares it: each dynamic dim an anonymous symbol (a sequence's or a map's, declElem).
func (c *ctx) declaredInput(g *Graph, attr string, k int) *Info {
	in := g.Inputs[k]
	info := c.e.declElem(in.Decl, c.path+"/"+attr+"/"+in.Name)
	info.taint = taintData
	return info
}

// forget takes back what the last recorded run of the node's subgraph attr, whose nodes' paths
// start with prefix, recorded: its nodes in Result.Nodes and its tensors (those of the subgraphs
// it holds included), so that a subgraph run again (a Loop body, until its shapes settle) is
// recorded once, from its last run.
func (c *ctx) forget(attr, prefix string) {
	if c.runs == nil {
		c.runs = map[string]int{}
	}
	if start, ok := c.runs[attr]; ok {
		c.e.res.Nodes = c.e.res.Nodes[:start]
		for p := range c.e.subs {
			if strings.HasPrefix(p, prefix) {
				delete(c.e.subs, p)
			}
		}
	}
	c.runs[attr] = len(c.e.res.Nodes)
}

// anonShape gives the unnamed dynamic dims of s anonymous symbols.
func (e *engine) anonShape(s sym.Shape, hint string) sym.Shape {
	for i, d := range s.Dims {
		if _, exact := d.Expr(); !exact {
			lo, hi := d.Bounds()
			s.Dims[i] = sym.Of(e.tab.Anon(hint+":"+strconv.Itoa(i), lo, hi))
		}
	}
	return s
}

// An ifBranch is a subgraph that a node runs on a condition (ONNX If's then_branch, OpenVINO If's
// then_body), as ctx.Branches infers it: the attribute that holds it, its graph, the Infos of its
// formal inputs (nil, a nil entry or a missing one: as the subgraph declares the input), and the
// map of its outputs to the node's: Outputs[k] is the index of the subgraph output that gives the
// node's output k, -1 for none (nil Outputs: output k is the subgraph's output k).
type ifBranch struct {
	Attr    string
	Graph   *Graph
	Inputs  []*Info
	Outputs []int
}

// out returns the output of the branch, of outputs outs, that gives the node's output k; nil for
// none.
func (b *ifBranch) out(outs []*Info, k int) *Info {
	j := k
	if b.Outputs != nil {
		if k >= len(b.Outputs) {
			return nil
		}
		j = b.Outputs[k]
	}
	if j < 0 || j >= len(outs) {
		return nil
	}
	return outs[j]
}

// Branches infers the two branches of a node that runs one of them, then when its condition cond
// (a tensor of one element) holds and els otherwise, and sets the node's outputs from theirs. When
// the condition's value is known before run time, the node takes the branch it selects.
//
// A branch taken is inferred as a subgraph of the node (ctx.Subgraph), and the other for the
// shapes of its tensors only: its nodes are reported with NodeResult.NotTaken, and what they
// record of the symbols is taken back. Otherwise each branch is inferred in a mark of the solver's
// record (sym.Solver.Mark: what its nodes require is taken back, and unifications in it substitute
// nothing outside it), and the model runs when either branch can:
//   - neither fails: the node requires the conditions both branches need, each with its own node,
//     and the disjunction of the others; each output joins the two branches' (the common rank, and
//     at each axis the common dim or a new anonymous dim bounded by both);
//   - one fails (a node of it breaks its rule): a run must take the other, whose conditions are
//     required with their own nodes and whose outputs are the node's; the failing branch's node
//     errors are NodeResult.Avoidable, and do not count as the model's;
//   - both fail: their node errors stand, and the outputs join.
//
// An output that a branch does not give (ifBranch.Outputs) is left to the model's declaration. An
// output the branches give of other shapes, which a join cannot express, is a loss of precision
// of the node (Result.Lost; one only a run decides when the condition depends on the model's data).
// The
// error is one of the solver's, for conditions that cannot hold, or one that stops inference (a
// subgraph that cannot be run).
func (c *ctx) Branches(cond *Info, then, els ifBranch) error {
	err := c.branches(cond, then, els)
	c.refresh()
	return err
}

// branches is Branches without refresh.
func (c *ctx) branches(cond *Info, then, els ifBranch) error {
	c.branching = true
	defer func() { c.branching = false }()
	taken := -1 // the branch taken when the condition is known: 0 for then, 1 for els
	constant := false
	if v, ok := boolValue(cond); ok {
		taken, constant = 1, true
		if v {
			taken = 0
		}
	}
	// The condition in the symbols, when a binding of them decides it: the branch a run of the
	// model per branch forces (fork.go), or what each branch needs under it.
	var p sym.Pred
	known := false
	if taken < 0 {
		if p, known = c.e.condOf(cond); known {
			if k, ok := c.e.forced[c.path]; ok {
				taken = k
				q := p
				if k == 1 {
					q = sym.Not(p)
				}
				if err := c.require(q, caseWhy(k)); err != nil {
					return err
				}
			}
		}
	}
	if taken >= 0 {
		run, other := then, els
		if taken == 1 {
			run, other = els, then
		}
		outs, err := c.Subgraph(run.Graph, run.Attr, run.Inputs, true)
		if err != nil {
			return err
		}
		// The branch not taken needs nothing of the symbols: what it records is taken back.
		m := c.e.solver.Mark()
		_, err = c.subgraph(other.Graph, other.Attr, other.Inputs, true, true)
		c.e.solver.Cut(m)
		if err != nil {
			return err
		}
		for i := range c.NumOut() {
			if o := run.out(outs, i); o != nil {
				cp := copyInfo(o)
				if constant {
					// Unknown by an error: so is the node's output, and nothing is lost here. (A
					// case of a fork that fails is the merge's to leave out: fork.go.)
					cp.FailedAt = o.FailedAt
				}
				c.Set(i, cp)
			}
		}
		return nil
	}
	t, err := c.branch(then)
	if err != nil {
		return err
	}
	e, err := c.branch(els)
	if err != nil {
		return err
	}
	switch {
	case t.fails && e.fails:
		c.joinOutputs(cond, then, els, t.outs, e.outs, nil)
		return nil
	case t.fails || e.fails:
		taken, avoided, b, q := e, t, els, sym.Not(p)
		if e.fails {
			taken, avoided, b, q = t, e, then, p
		}
		if known {
			// A run takes the failing branch where its condition sends it: the model runs only
			// where it does not, which the failing node imposes.
			if err := c.e.solver.Require(q, c.avoidedAt(avoided, b.Attr)); err != nil {
				return err
			}
		}
		c.avoid(avoided)
		for _, k := range taken.cs {
			if err := c.e.solver.Require(k.Pred, k.Origin); err != nil {
				return err
			}
		}
		for i := range c.NumOut() {
			if o := b.out(taken.outs, i); o != nil {
				c.Set(i, copyInfo(o))
			}
		}
		return nil
	}
	var a, b []sym.Pred
	for _, k := range t.cs {
		if j := slices.IndexFunc(e.cs, func(x sym.Constraint) bool { return x.Pred.Equal(k.Pred) }); j >= 0 {
			// Both branches impose it: a run stops at the node of the branch it takes, so
			// both nodes are named (Constraint.Also), then's first.
			for _, x := range []sym.Constraint{k, e.cs[j]} {
				if err := c.e.solver.Require(x.Pred, x.Origin); err != nil {
					return err
				}
			}
			continue
		}
		a = append(a, k.Pred)
	}
	for _, k := range e.cs {
		if !slices.ContainsFunc(t.cs, func(x sym.Constraint) bool { return x.Pred.Equal(k.Pred) }) {
			b = append(b, k.Pred)
		}
	}
	either, why := sym.Or(sym.And(a...), sym.And(b...)), "what "+then.Attr+" needs, or what "+els.Attr+" needs"
	if known {
		either = sym.Or(sym.And(append([]sym.Pred{p}, a...)...), sym.And(append([]sym.Pred{sym.Not(p)}, b...)...))
		why = "what the branch its condition takes needs"
	}
	// A condition in anonymous dims (a count only a run decides) is no condition on the model's
	// symbols: what either needs under it is not stated, unless the conditions recorded make it
	// hold.
	model := known && c.e.ofModel(p)
	vague := known && !model && !c.When(either).IsTrue()
	if err := c.Require(either, why); err != nil {
		return err
	}
	var site *forkSite
	if model && !c.s.repeated && !c.s.notTaken {
		site = &forkSite{c.path, p}
	}
	c.joinOutputs(cond, then, els, t.outs, e.outs, site)
	if vague || !known && len(a)+len(b) > 0 && !c.e.solver.When(sym.And(append(a, b...)...)).IsTrue() {
		// Either is what a run needs of the branch it takes, which no condition on the symbols
		// names: at a binding that meets one branch's conditions, the other may be taken. Each
		// branch's need is stated, under what the model needs already.
		why := then.Attr + " needs " + needOf(c, a) + " and " + els.Attr + " needs " + needOf(c, b) +
			": the condition decides which a run takes"
		if cond.taint&taintData != 0 {
			c.RunTime(why)
		} else {
			c.Lost(why)
		}
	}
	return nil
}

// needOf returns what a branch needs, the conditions ps, as it reads where the conditions recorded
// so far hold: "nothing more" where they imply it.
func needOf(c *ctx, ps []sym.Pred) string {
	if p := c.When(sym.And(ps...)); !p.IsTrue() {
		return p.String()
	}
	return "nothing more"
}

// avoidedAt returns the origin of the condition under which a run avoids the branch r, which fails
// and which the node runs instead of the branch other: the first node of r that fails.
func (c *ctx) avoidedAt(r *branchRun, other string) sym.Origin {
	for i := r.first; i < r.end; i++ {
		if n := &c.e.res.Nodes[i]; n.Err != nil {
			return sym.Origin{Node: n.Path, Op: n.Node.Op, Why: "where it does not hold, " + c.path + " takes the branch of this node, which fails"}
		}
	}
	return sym.Origin{Node: c.path, Op: c.n.Op, Why: "the branch it takes where it does not hold fails, " + other + " runs"}
}

// joinOutputs sets each output of the node to the join of the branches' (join), from the outputs
// a of then and b of els, on the condition cond: where the join of two shapes known exactly is not,
// the node loses precision (ctx.Lost), or a run decides (ctx.RunTime) when cond depends on the
// model's data. At a site, an If whose condition the symbols decide, the model is inferred again
// once per branch (fork.go) instead.
func (c *ctx) joinOutputs(cond *Info, then, els ifBranch, a, b []*Info, site *forkSite) {
	for i := range c.NumOut() {
		x, y := then.out(a, i), els.out(b, i)
		if x == nil || y == nil {
			continue
		}
		j := c.join(x, y, "output"+itoa(i))
		if x.FailedAt != "" && y.FailedAt != "" {
			// Both branches leave it unknown by an error (of their own nodes, or upstream of the
			// node): so does the node, and nothing is lost here.
			j.FailedAt = x.FailedAt
		}
		c.Set(i, j)
		if j.determined() || !x.determined() || !y.determined() {
			continue
		}
		why := "output " + itoa(i) + " is " + x.describe() + " from " + then.Attr + " and " + y.describe() + " from " + els.Attr +
			": the condition decides which"
		if site != nil && !slices.ContainsFunc(c.e.forks, func(f forkSite) bool { return f.path == site.path }) {
			c.e.forks = append(c.e.forks, *site)
		}
		if cond.taint&taintData != 0 {
			c.RunTime(why)
		} else {
			c.Lost(why)
		}
	}
}

// branchRun is the inference of one branch: its outputs, the constraints its nodes recorded,
// whether a node of it failed, its nodes' results (Result.Nodes[first:end]) and the count of the
// model's errors before and after it.
type branchRun struct {
	outs             []*Info
	cs               []sym.Constraint
	fails            bool
	first, end       int
	errsBefore, errs int
	// lost and lostEnd bound the losses its nodes recorded in engine.lost.
	lost, lostEnd int
}

// branch infers b as one branch of a node that runs one of them: in a mark of the solver's record,
// so that what its nodes require is taken back (sym.Solver.Cut) for Branches to join, and
// unifications in it substitute nothing outside it.
func (c *ctx) branch(b ifBranch) (*branchRun, error) {
	r := &branchRun{first: len(c.e.res.Nodes), errsBefore: c.e.errs, lost: len(c.e.lost)}
	m := c.e.solver.Mark()
	outs, err := c.Subgraph(b.Graph, b.Attr, b.Inputs, true)
	r.cs = c.e.solver.Cut(m)
	if err != nil {
		return nil, err
	}
	r.outs, r.end, r.errs, r.lostEnd = outs, len(c.e.res.Nodes), c.e.errs, len(c.e.lost)
	r.fails = r.errs > r.errsBefore
	return r, nil
}

// avoid makes the node errors of a branch that a run of the model need not take avoidable: they
// no longer count as the model's (engine.errs), and their results say so. What its nodes lost
// is not the model's either.
func (c *ctx) avoid(r *branchRun) {
	c.e.errs -= r.errs - r.errsBefore
	c.e.lost = slices.Delete(c.e.lost, r.lost, r.lostEnd)
	for i := r.first; i < r.end; i++ {
		if c.e.res.Nodes[i].Err != nil {
			c.e.res.Nodes[i].Avoidable = true
		}
	}
}

// copyInfo returns a new Info with in's type, shape and values (a sequence's or a map's), for an
// output that is a subgraph's.
func copyInfo(in *Info) *Info {
	return &Info{Type: in.Type, Shape: in.Shape, Value: in.Value, Floats: in.Floats, fracs: in.fracs, Optional: in.Optional, elems: in.elems,
		taint: in.taint, Seq: in.Seq, Map: in.Map}
}

// join returns what is known of a value that is either a or b: of tensors, their common rank, and
// at each axis the common dim, or a new anonymous dim bounded by both; of sequences and maps,
// joinValue's.
func (c *ctx) join(a, b *Info, hint string) *Info {
	if !a.IsTensor() || !b.IsTensor() {
		return c.joinValue(a, b, hint)
	}
	t := a.Type
	if b.Type != t {
		t = element.Undefined
	}
	out := &Info{Type: t, Shape: joinShape(c.e.tab, a.Shape, b.Shape, c.path+":"+hint), Optional: a.Optional || b.Optional, taint: a.taint | b.taint}
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

// joinShape returns the join of the shapes a and b: a dynamic rank where their ranks differ or
// are not known, else at each axis their common dim, or a new anonymous dim of tab, named from
// hint and the axis, bounded by both.
func joinShape(tab *sym.Table, a, b sym.Shape, hint string) sym.Shape {
	ra, oka := a.Rank()
	rb, okb := b.Rank()
	if !oka || !okb || ra != rb {
		return sym.DynamicRank()
	}
	dims := make([]sym.Dim, ra)
	for i, d := range a.Dims {
		dims[i] = joinDimIn(tab, d, b.Dims[i], hint+":"+itoa(i))
	}
	return sym.ShapeOf(dims...)
}

// joinDim returns the join of the dims a and b at the node of c (joinDimIn), its anonymous dim
// named from the node's path and hint.
func (c *ctx) joinDim(a, b sym.Dim, hint string) sym.Dim {
	return joinDimIn(c.e.tab, a, b, c.path+":"+hint)
}

// joinDimIn returns the join of the dims a and b: a when they are equal, else a new anonymous dim
// of tab, named hint, bounded by both.
func joinDimIn(tab *sym.Table, a, b sym.Dim, hint string) sym.Dim {
	if a.Equal(b) {
		return a
	}
	lo1, hi1 := a.Bounds()
	lo2, hi2 := b.Bounds()
	return sym.Of(tab.Anon(hint, min(lo1, lo2), max(hi1, hi2)))
}

// maxLoopRuns bounds how many times ctx.Iterate infers a body while the shapes of its
// loop-carried values settle.
const maxLoopRuns = 4

// A loopBody is the subgraph a node runs once per iteration (ONNX Loop's body, OpenVINO Loop's and
// TensorIterator's), as ctx.Iterate infers it: the attribute that holds it, its graph, the Infos of
// its formal inputs as they enter the first iteration (a nil entry, or a missing one: as the
// subgraph declares the input), and its loop-carried values: Carried[k] says which body output
// becomes which body input at the next iteration (ONNX's loop-carried dependencies, OpenVINO's
// back edges); a carried input not given enters as the subgraph declares it.
type loopBody struct {
	Attr    string
	Graph   *Graph
	Inputs  []*Info
	Carried []carry
	// Iter, when not nil, is the iteration number the body reads, a symbol of sym.Table.Below
	// (iteration.go): the conditions of the body hold for every iteration where they hold for
	// every value of it, and a loop-carried value that each iteration changes by the same amount
	// enters iteration Iter as a dim in it.
	Iter *sym.Dim
	// Stop, when not nil, says how a run of the loop may end before its trip count (ONNX Loop's
	// condition, OpenVINO Loop's execution condition); nil for a loop that always runs its trip
	// count (TensorIterator, a Loop without a condition input).
	Stop *loopStop
	// Never says that the node runs no iteration at this binding (ONNX Loop's trip count is 0,
	// or the condition it enters with is false): the body is inferred for the shapes of its
	// tensors only, as a branch not taken (NodeResult.NotTaken), and requires nothing.
	Never bool
	// Count is the taint of what decides the number of iterations when Iter is nil (the trip
	// count's values): a loop-carried value that each iteration changes by an amount in the
	// symbols (a list appended to once per iteration) enters the body widened, not known
	// exactly only because the count is not, and carries the count's taint: a loss recorded where
	// the count is (a NonMaxSuppression's boxes), or the values of the model's data, which only a
	// run decides.
	Count taint
}

// A loopStop is what decides, at run time, whether a loop takes its next iteration: Entry, the
// condition the first iteration runs on (nil: none, it runs), and Out, the index of the body output
// that the next iteration's condition is (-1: none, every iteration runs while the trip count
// lasts).
type loopStop struct {
	Entry *Info
	Out   int
}

// A carry pairs a body output with the body input it becomes at the next iteration, by index.
type carry struct{ Out, In int }

// Iterate infers the body b with its loop-carried values as they enter; where one leaves with
// another shape, the dims that differ become unknown (a new anonymous dim bounded by both, or by
// the growth seen: widen) and the body is inferred again, until the shapes settle or
// maxLoopRuns runs (the last gives up a rank that still differs). Each run is in a mark of the
// solver's record, so that its unifications substitute nothing outside the body; the conditions
// of the first run (the first iteration) and of the last (every iteration, with the values
// widened) are required once the runs are done. The body's nodes are reported from the last run.
// With an iteration number (loopBody.Iter), a value that the first iteration changes by an amount
// in the symbols enters iteration Iter as its initial value plus Iter times that amount where the
// next run confirms it (induct), the first run's conditions are required at iteration 0 and the
// last run's for every iteration (ctx.forEveryIter).
//
// It returns the body's outputs at the last run and its inputs at that run: the loop-carried ones
// as they settled, which stand for the values at every iteration (a rule's final loop-carried
// outputs). The error is one of the solver's, for conditions that cannot hold, or one that stops
// inference (a subgraph that cannot be run).
func (c *ctx) Iterate(b loopBody) (outs, ins []*Info, err error) {
	outs, ins, err = c.iterate(b)
	c.held = append(c.held, ins...)
	c.refresh()
	return outs, ins, err
}

// iterate is Iterate without refresh.
func (c *ctx) iterate(b loopBody) (outs, ins []*Info, err error) {
	ins = make([]*Info, len(b.Graph.Inputs))
	copy(ins, b.Inputs)
	for _, p := range b.Carried {
		if ins[p.In] == nil {
			ins[p.In] = c.declaredInput(b.Graph, b.Attr, p.In)
		}
	}
	var first, last []sym.Constraint
	inducted := make([]bool, len(b.Carried))
	run := 0
	for ; ; run++ {
		final := run == maxLoopRuns-1
		m := c.e.solver.Mark()
		outs, err = c.subgraph(b.Graph, b.Attr, ins, true, c.s.notTaken || b.Never)
		last = c.e.solver.Cut(m)
		if err != nil {
			return nil, nil, err
		}
		if b.Never {
			return outs, ins, nil
		}
		if run == 0 {
			first = last
		}
		if b.Iter != nil && b.Iter.Equal(sym.Const(0)) {
			break // one iteration at most: its values are those that enter
		}
		settled := true
		next := slices.Clone(ins)
		for k, p := range b.Carried {
			in, o := ins[p.In], outs[p.Out]
			switch {
			case inducted[k] && sameInfo(o, nextIter(in, *b.Iter)):
				continue
			case inducted[k]:
				inducted[k] = false
			case sameInfo(o, in) || run > 0 && covers(in, o):
				continue
			}
			settled = false
			if run == 0 && b.Iter != nil {
				if v, ok := induct(in, o, *b.Iter); ok {
					next[p.In], inducted[k] = v, true
					continue
				}
			}
			next[p.In] = c.widen(in, o, "carried"+itoa(k), final)
			next[p.In].taint |= carriedTaint(in, o)
			if b.Count != 0 && b.Iter == nil {
				if _, ok := induct(in, o, sym.Const(1)); ok {
					next[p.In].taint |= b.Count
				}
			}
		}
		ins = next
		if settled || final {
			break
		}
	}
	return outs, ins, c.requireIters(b, outs, first, last, run > 0)
}

// covers reports whether the loop-carried value in, already widened, covers out: optional if out
// is, the same rank and type, and every dim of out equal to in's or within the bounds of an
// anonymous dim of in (which stands for any value in its bounds); of sequences and maps,
// coversValue's.
func covers(in, out *Info) bool {
	if out.Optional && !in.Optional {
		return false
	}
	if !in.IsTensor() || !out.IsTensor() {
		return coversValue(in, out)
	}
	if in.Shape.RankDynamic {
		return out.Type == in.Type
	}
	ro, ok := out.Rank()
	if !ok || len(in.Shape.Dims) != ro || in.Type != out.Type || in.Value != nil {
		return false
	}
	for i, d := range in.Shape.Dims {
		if !coversDim(d, out.Shape.Dims[i]) {
			return false
		}
	}
	return true
}

// coversDim reports whether the dim d of a widened loop-carried value covers o: equal, or d an
// anonymous dim whose bounds hold o's.
func coversDim(d, o sym.Dim) bool {
	if d.Equal(o) {
		return true
	}
	if e, ok := d.Expr(); !ok || !e.DependsOnAnon() {
		return false
	}
	lo, hi := d.Bounds()
	olo, ohi := o.Bounds()
	return olo >= lo && ohi <= hi
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

// carriedTaint returns the taint of a loop-carried value widened from in and out (the value it
// enters an iteration with and the one it leaves with): taintData where either's values depend on
// the model's data, and taintLost where either's shape is not known exactly because of a loss
// recorded upstream (mask R-CNN's pasted masks, of sizes from boxes only a run decides), so that
// the body's input is no new loss; one whose dims move by an amount of no expression is.
func carriedTaint(in, out *Info) taint {
	t := (in.taint | out.taint) & taintData
	for _, v := range []*Info{in, out} {
		if v.taint&taintLost != 0 && !v.determined() {
			t |= taintLost
		}
	}
	return t
}

// widen returns what is known of a loop-carried value that enters as in and leaves as out (an
// optional if either is): the dims that agree are kept, the others become anonymous dims whose
// bounds cover both and, for a dim that grows, every later iteration; with final, a rank that
// differs is given up.
func (c *ctx) widen(in, out *Info, hint string, final bool) *Info {
	if !in.IsTensor() || !out.IsTensor() {
		return c.widenValue(in, out, hint, final)
	}
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
		if o := out.Shape.Dims[i]; d.Equal(o) {
			dims[i] = d
		} else {
			dims[i] = c.widenDim(d, o, hint+":"+itoa(i))
		}
	}
	return &Info{Type: t, Shape: sym.ShapeOf(dims...), Optional: opt}
}

// widenDim returns the anonymous dim that stands for a loop-carried dim that enters as d and
// leaves as o: bounded by both and, where it moves, by every later iteration's.
func (c *ctx) widenDim(d, o sym.Dim, hint string) sym.Dim {
	lo1, hi1 := d.Bounds()
	lo2, hi2 := o.Bounds()
	lo, hi := min(lo1, lo2), max(hi1, hi2)
	// It moves: later iterations may move it further in the same direction.
	if hi2 > hi1 {
		hi = Inf
	}
	if lo2 < lo1 {
		lo = 0
	}
	return c.Fresh(hint, lo, hi)
}

// A guard is what decides whether a run of a loop takes some of its iterations (the first, or
// every later one): always, never, when the predicate When holds, or unknown when no condition
// on the symbols states it (RunTime: the values of the model's data decide it).
type guard struct {
	Kind    guardKind
	When    sym.Pred
	RunTime bool
}

type guardKind uint8

const (
	always guardKind = iota
	never
	when
	unknownGuard
)

// guardOf returns the guard a boolean tensor of one element is, for the iterations that run where
// it holds: nil is always; an expression in the model's symbols alone (not in an iteration number
// nor in an anonymous dim, which stand for no one iteration) is when, unless the conditions
// recorded decide it.
func (c *ctx) guardOf(cond *Info) guard {
	if cond == nil {
		return guard{Kind: always}
	}
	if v, ok := boolValue(cond); ok {
		if v {
			return guard{Kind: always}
		}
		return guard{Kind: never}
	}
	if p, ok := c.e.condOf(cond); ok && c.e.ofModel(p) {
		switch w := c.e.solver.When(p); {
		case w.IsTrue():
			return guard{Kind: always}
		case w.IsFalse():
			return guard{Kind: never}
		}
		return guard{Kind: when, When: p}
	}
	return guard{Kind: unknownGuard, RunTime: cond.taint&taintData != 0}
}

// and returns the guard of the iterations both g and h let a run take. Unknown only a run
// decides when each unknown part does.
func (g guard) and(h guard) guard {
	switch {
	case g.Kind == never || h.Kind == never:
		return guard{Kind: never}
	case g.Kind == always:
		return h
	case h.Kind == always:
		return g
	case g.Kind == when && h.Kind == when:
		return guard{Kind: when, When: sym.And(g.When, h.When)}
	}
	return guard{Kind: unknownGuard, RunTime: (g.Kind != unknownGuard || g.RunTime) && (h.Kind != unknownGuard || h.RunTime)}
}

// requireIters requires what the body b needs of the symbols, from the conditions first of its
// first run (the first iteration, whose loop-carried values are those that enter) and last of its
// last run (every iteration, with the values widened, or in the iteration number b.Iter): with
// an iteration number, first at iteration 0 (when the body ran again, or a run may stop early)
// and last for every iteration (sym.Forall); without, both as they are. Each holds where a run
// takes the iterations that need it (b.Stop): the first iteration where the loop's entry
// condition holds, a later one where the body's condition holds too. A condition needed where a
// guard in the symbols holds is required as its consequence; one needed where no condition on
// the symbols says whether a run gets there is not required, and is a loss of precision of the
// node (one only a run decides, when the model's data decide it) unless the conditions recorded
// imply it: a torch `for` with a `break` on the data needs at iteration i only what the
// iterations before did not stop. The error is the solver's, for conditions that cannot hold.
func (c *ctx) requireIters(b loopBody, outs []*Info, first, last []sym.Constraint, again bool) error {
	enter, next := guard{Kind: always}, guard{Kind: always}
	if b.Stop != nil {
		enter = c.guardOf(b.Stop.Entry)
		if k := b.Stop.Out; k >= 0 && k < len(outs) {
			next = c.guardOf(outs[k])
		}
	}
	later := enter.and(next)
	if b.Iter == nil {
		same := func(p sym.Pred) (sym.Pred, bool) { return p, true }
		if err := c.guarded(first, enter, same, "", ""); err != nil {
			return err
		}
		return c.guarded(last, later, same, "", "")
	}
	x, _ := b.Iter.Expr()
	if again || later.Kind != always {
		sub := substIter(*b.Iter, sym.Int(0))
		at0 := func(p sym.Pred) (sym.Pred, bool) { return p.Subst(sub) }
		if err := c.guarded(first, enter, at0, " at the first iteration", ""); err != nil {
			return err
		}
	}
	every := func(p sym.Pred) (sym.Pred, bool) { return sym.Forall(p, x) }
	return c.guarded(last, later, every, " at iteration "+x.String(), " for every iteration")
}

// guarded requires each condition of cs, as at gives it (over the iterations scope says), where
// the guard g lets a run take the iterations that need it (where saying which): always as it is,
// when as the consequence of g's predicate, never not at all; unknown not at all, a loss of
// precision unless the conditions recorded imply it. A condition at cannot state is a loss of
// precision.
func (c *ctx) guarded(cs []sym.Constraint, g guard, at func(sym.Pred) (sym.Pred, bool), where, scope string) error {
	if g.Kind == never {
		return nil
	}
	for _, k := range cs {
		needs := k.Origin.Node + " (" + k.Origin.Op + ") needs " + k.Pred.String() + where
		p, ok := at(k.Pred)
		switch {
		case !ok:
			c.Lost(needs + ", which no condition on the symbols states" + scope)
			continue
		case g.Kind == when:
			p = sym.Or(sym.Not(g.When), p)
		case g.Kind == unknownGuard:
			if c.e.solver.When(p).IsTrue() {
				continue
			}
			if why := needs + ", which a run takes only where the loop's condition lets it"; g.RunTime {
				c.RunTime(why)
			} else {
				c.Lost(why)
			}
			continue
		}
		if err := c.e.solver.Require(p, k.Origin); err != nil {
			return err
		}
	}
	return nil
}
