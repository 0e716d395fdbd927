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
// selects the branch that is inferred; otherwise both are, and the model runs when either branch
// can (ctx.Branches).
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
	return c.Branches(cond, ifBranch{Attr: "then_branch", Graph: thenG}, ifBranch{Attr: "else_branch", Graph: elseG})
}

// loop: Loop-1, -11, -13, -16, -19, -21. The body takes the iteration number, the condition and the
// loop-carried values, and gives the condition, the loop-carried values and the scan outputs; it
// is inferred until the shapes of the loop-carried values settle (ctx.Iterate), which the node's
// first outputs then have. A scan output gains a leading dim, the number of iterations: the trip
// count M when it is known (an integer, or an expression in the symbols, as torch exports a loop
// over a dim) and the loop cannot stop early, else unknown (at most M). A loop-carried dim, or
// sequence length, that every iteration grows by the same amount (a list appended to once per
// iteration) ends as its initial value plus that amount times the number of iterations. What the
// body needs holds at the iterations a run takes (ctx.Iterate): where the conditions may stop the
// loop early (torch's `break`, a while loop), not at every iteration below the trip count; nothing
// where it takes none (a trip count of 0, a condition false on entry: loopBody.Never).
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
	// The number of iterations: the trip count M when the loop cannot stop early, at most M.
	iters := sym.Unknown()
	trip, tripKnown := sym.Dim{}, false
	if m := c.In(0); m != nil && len(m.Value) == 1 {
		if lo, _ := m.Value[0].Bounds(); lo >= 0 && m.Value[0].Determined() {
			trip, tripKnown = m.Value[0], true
			_, hi := trip.Bounds()
			iters = sym.Interval(0, hi)
		}
	}
	iterNum := &Info{Type: element.I64, Shape: loopScalar(body.Inputs[0].Decl)}
	var iter *sym.Dim
	if tripKnown {
		// A symbol below the trip count (iteration.go): the body's expressions in it stay exact,
		// and what they need holds at every iteration where it holds for every value of it.
		if iter = c.iterSymbol(body.Inputs[0].Name, trip); iter != nil {
			iterNum.Value = []sym.Dim{*iter}
		}
	}
	// The condition the body reads: the node's condition input first, then the body's own output.
	// A Loop without a condition input ignores the body's (ONNX's "for" form).
	condGiven := c.In(1) != nil
	entry, entryKnown := boolValue(c.In(1))
	condIn := &Info{Type: element.Boolean, Shape: loopScalar(body.Inputs[1].Decl)}
	if entry {
		condIn.Value = []sym.Dim{sym.Const(1)}
	}
	carried := make([]*Info, nCarried)
	for k := range carried {
		in, err := c.Input(k + 2)
		if err != nil {
			return err
		}
		carried[k] = in
		if t, d := in.Tensors().Type, body.Inputs[2+k].Decl.Tensors().Type; t != element.Undefined && d != element.Undefined && t != d && c.typeErr == nil {
			c.typeErr = errcode.Errorf(errcode.ErrDataType, "loop-carried value %d (input %d) holds %v, and the body declares its input %q of %v",
				k, k+2, t, body.Inputs[2+k].Name, d)
		}
	}
	links := make([]carry, nCarried)
	for k := range links {
		links[k] = carry{Out: 1 + k, In: 2 + k}
	}
	lb := loopBody{Attr: "body", Graph: body, Inputs: append([]*Info{iterNum, condIn}, carried...), Carried: links, Iter: iter,
		Never: tripKnown && trip.Equal(sym.Const(0)) || entryKnown && !entry}
	if m := c.In(0); m != nil && !tripKnown {
		lb.Count = m.taint & (taintLost | taintData)
	}
	if condGiven {
		lb.Stop = &loopStop{Entry: c.In(1), Out: 0}
	}
	outs, ins, err := c.Iterate(lb)
	if err != nil {
		return err
	}
	for k := range carried {
		// onnxruntime refuses at load a body that changes a carried value's element type (a list
		// of f32 that a body fills with a Cast to i64): the next iteration would read another.
		if t, o := carried[k].Tensors().Type, outs[1+k].Tensors().Type; t != element.Undefined && o != element.Undefined && t != o && c.typeErr == nil {
			c.typeErr = errcode.Errorf(errcode.ErrDataType, "loop-carried value %d (input %d) enters the body holding %v and leaves it holding %v (body output %d)",
				k, k+2, t, o, 1+k)
		}
	}
	// The loop runs M times when no condition can stop it: there is no condition input, or it is
	// true and the body keeps it true (the body infers with the condition true, the only value it
	// then ever reads).
	allRun := tripKnown && !condGiven
	if tripKnown && entry {
		allRun, _ = boolValue(outs[0])
	}
	switch {
	case lb.Never:
		iters = sym.Const(0)
	case allRun:
		iters = trip
	}
	for k := 0; k < nCarried && k < c.NumOut(); k++ {
		v, err := c.carriedOut(carried[k], ins[2+k], outs[1+k], iters, iter, "carried"+itoa(k))
		if err != nil {
			return err
		}
		c.Set(k, v)
	}
	// A trip count that may be 0 (d//2 at d == 1) leaves the scan outputs as onnxruntime makes them
	// after no iteration; an inexact count is a loss the engine records itself.
	noIter := false
	if x, ok := iters.Expr(); ok {
		noIter = c.mayBeZero(iters, x)
	}
	for k := 0; k < nScan && nCarried+k < c.NumOut(); k++ {
		o := outs[1+nCarried+k]
		if allRun && iter != nil {
			if o, err = c.scanSlices(o, *iter, trip, k); err != nil {
				return err
			}
		}
		o = c.outsideIter(o, iter)
		if o.Shape.RankDynamic {
			c.Out(nCarried+k, o.Type, sym.DynamicRank())
			continue
		}
		if noIter && !emptyScanKnown(body.Declared[body.Outputs[1+nCarried+k]], o.Shape) {
			c.Lost("scan output " + itoa(k) + " if no iteration runs: onnxruntime makes it [0] and the dims it infers of the body output (rank 1 if none)")
		}
		c.Out(nCarried+k, o.Type, sym.ShapeOf(append([]sym.Dim{iters}, o.Shape.Dims...)...))
	}
	return nil
}

// scanSlices requires each dim of v, scan output k of a body whose iteration number is x and
// which runs m times, to be the same at every iteration: onnxruntime stacks the slices only when
// their shapes agree ("Inconsistent shape in loop output", probed with onnxruntime-node 1.20.1: a
// body slicing x[:, :i+1] of x [N,L] runs twice only where L == 1). A dim d(x) needs m <= 1 or
// d(0) == d(m-1), which no running binding breaks; where d is monotone in x (proven d(x+1) >= d(x)
// or <= d(x) throughout) that is all it needs, and the dim is d(0) at every iteration. A dim not
// proven monotone keeps x, which the caller turns into a new dim, a loss of precision.
func (c *ctx) scanSlices(v *Info, x, m sym.Dim, k int) (*Info, error) {
	if v.Shape.RankDynamic || !slices.ContainsFunc(v.Shape.Dims, func(d sym.Dim) bool { return mentions(d, x) }) {
		return v, nil
	}
	me, _ := m.Expr()
	xe, _ := x.Expr()
	last, ok1 := sym.Sub(me, sym.Int(1))
	next, ok2 := sym.Add(xe, sym.Int(1))
	if !ok1 || !ok2 {
		return v, nil
	}
	out := copyInfo(v)
	out.Shape = sym.ShapeOf(slices.Clone(v.Shape.Dims)...)
	for j, d := range v.Shape.Dims {
		e, ok := d.Expr()
		if !ok || !mentions(d, x) {
			continue
		}
		d0, ok1 := e.Subst(substIter(x, sym.Int(0)))
		dm, ok2 := e.Subst(substIter(x, last))
		d1, ok3 := e.Subst(substIter(x, next))
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		why := "scan output " + itoa(k) + " dim " + itoa(j) + ": " + d.String() + " the same at every iteration, " + sym.Of(d0).String() + " at the first"
		if err := c.Require(sym.Or(sym.Le(me, sym.Int(1)), sym.Eq(d0, dm)), why); err != nil {
			return nil, err
		}
		if c.Never(sym.Lt(d1, e)) || c.Never(sym.Gt(d1, e)) {
			out.Shape.Dims[j] = sym.Of(d0)
		}
	}
	return out, nil
}

// loopScalar returns the shape of the iteration number or condition that onnxruntime 1.20.1 gives a
// Loop body whose input d declares it (loop.cc): [1] where d's rank is not 0 (torch's exporter
// declares the iteration number so), a scalar's where it is 0 or not declared.
func loopScalar(d Decl) sym.Shape {
	if d.Rank > 0 {
		return sym.Ints(1)
	}
	return sym.Shape{}
}

// emptyScanKnown reports whether onnxruntime's scan output of a Loop that runs zero iterations,
// [0] followed by the dims its own inference finds of the body's output (0 for a dim it does not
// know; [0] alone when it finds no shape), is [0] followed by shape, the rules' shape of one
// iteration's output: shape is a scalar's, or the body declares its output with shape's static dims.
func emptyScanKnown(decl Decl, shape sym.Shape) bool {
	if len(shape.Dims) == 0 {
		return true
	}
	if decl.Rank != len(shape.Dims) {
		return false
	}
	for i, d := range decl.Dims {
		if n, ok := shape.Dims[i].Static(); !ok || d.Lo != d.Hi || d.Lo != n {
			return false
		}
	}
	return true
}

// grown returns the final value of a loop-carried value that enters the loop as first, stands for
// every iteration's as in (ctx.Iterate's, widened) and leaves an iteration as out, after iters
// iterations: in, but for each dim (and a sequence's length) that every iteration grows by the
// same amount, an integer or an expression in the symbols (out's dim less in's), which ends as
// first's plus that amount times iters. The error is grownDim's.
func (c *ctx) grown(first, in, out *Info, iters sym.Dim) (*Info, error) {
	v := copyInfo(in)
	switch {
	case in.Seq != nil && first.Seq != nil && out.Seq != nil:
		n, ok, err := c.grownDim(first.Seq.Len, in.Seq.Len, out.Seq.Len, iters, "the sequence's length")
		if ok {
			v.Seq = &Seq{Len: n, Elem: in.Seq.Elem}
		}
		return v, err
	case in.IsTensor() && first.IsTensor() && out.IsTensor():
		r, ok := in.Rank()
		if !ok || first.Shape.RankDynamic || len(first.Shape.Dims) != r || len(out.Shape.Dims) != r || out.Shape.RankDynamic {
			return v, nil
		}
		var dims []sym.Dim
		for i, d := range in.Shape.Dims {
			g, ok, err := c.grownDim(first.Shape.Dims[i], d, out.Shape.Dims[i], iters, "dim "+itoa(i))
			if err != nil {
				return v, err
			}
			if ok {
				if dims == nil {
					dims = append([]sym.Dim(nil), in.Shape.Dims...)
				}
				dims[i] = g
			}
		}
		if dims != nil {
			v.Shape, v.Value = sym.ShapeOf(dims...), nil
		}
	}
	return v, nil
}

// grownDim returns the final value of a loop-carried dim (what names it: "dim 1") that enters as
// first, stands for every iteration's as d and leaves an iteration as o, when d is not first and
// o - d is an integer or an expression in the symbols: first + (o-d)*iters. ok is false otherwise.
// Where that may be negative, a loop that shrinks the dim, it is required not negative
// (requireNonNegative): no iteration gives a negative size, and the dim moves by the same step at
// each, so the last one's is the least. The error is the requirement's, wrapping
// errcode.ErrInvalidShape where it is negative at every binding.
func (c *ctx) grownDim(first, d, o, iters sym.Dim, what string) (sym.Dim, bool, error) {
	if d.Equal(first) {
		return d, false, nil
	}
	step := sym.SubDims(o, d)
	if !step.Determined() {
		return d, false, nil
	}
	g, err := requireNonNegative(c, sym.AddDims(first, sym.MulDims(step, iters)), "the loop-carried "+what+" after "+iters.String()+" iterations")
	return g, err == nil, err
}

// boolValue returns the value a boolean tensor of one element is known to hold; known is false
// where inference does not know it (or in is nil).
func boolValue(in *Info) (v, known bool) {
	x, ok := in.Ints()
	if !ok || len(x) != 1 {
		return false, false
	}
	return x[0] != 0, true
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
