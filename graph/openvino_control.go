package graph

import (
	"strconv"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoControl holds the rules of OpenVINO's operations that run bodies: TensorIterator and Loop
// iterate one (ctx.Iterate), If runs one of two (ctx.Branches). FromIR reads each body into a
// graph attribute of the node ("body", "then_body", "else_body") whose Ports map the node's inputs
// and outputs to the body's: the rules follow them, and compute what only their operation knows
// (the parts a sliced input gives, the iterations a concatenated output stacks).
var openvinoControl = table{DomainOpenVINO, []opDef{
	{"TensorIterator", since(1), span(0, many), span(0, many), allValues, ovTensorIterator},
	{"Loop", since(5), span(2, many), span(0, many), allValues, ovLoop},
	{"If", since(8), span(1, many), span(1, many), allValues, ovIf},
}}

// ovBody returns the body the node holds in attribute name and its port map, which FromIR gives
// every body of an IR layer.
func ovBody(c *ctx, name string) (*Graph, *PortMap, error) {
	g, err := c.Graph(name)
	if err != nil {
		return nil, nil, err
	}
	if g.Ports == nil {
		return nil, nil, c.Errorf(errcode.ErrSyntax, "<%s> has no port map", name)
	}
	for _, l := range append(append([]PortLink(nil), g.Ports.Inputs...), g.Ports.Outputs...) {
		if l.Body < 0 || l.Port < 0 {
			return nil, nil, c.Errorf(errcode.ErrSyntax, "<%s>'s port map links port %d with body port %d", name, l.Port, l.Body)
		}
	}
	return g, g.Ports, nil
}

// ovBodyOutputs returns, by output of the node, the index of the body output that gives it (-1:
// none), as ifBranch.Outputs wants it.
func ovBodyOutputs(c *ctx, pm *PortMap) []int {
	outs := make([]int, c.NumOut())
	for i := range outs {
		outs[i] = -1
	}
	for _, l := range pm.Outputs {
		if l.Port < len(outs) {
			outs[l.Port] = l.Body
		}
	}
	return outs
}

// ovIf: If-8. The condition, a scalar or a tensor of one element, selects then_body or else_body;
// each body's port map says which inputs of the If its Parameters take and which of its Results
// the If's outputs are. A condition known before run time selects the body that is inferred (the
// other for its tensors' shapes only); otherwise both are, and the model runs when either can
// (ctx.Branches).
func ovIf(c *ctx) error {
	cond, err := c.Input(0)
	if err != nil {
		return err
	}
	if err := ovOneElement(c, cond, 0, "condition"); err != nil {
		return err
	}
	var branches [2]ifBranch
	for k, name := range [...]string{"then_body", "else_body"} {
		g, pm, err := ovBody(c, name)
		if err != nil {
			return err
		}
		ins := make([]*Info, len(g.Inputs))
		for _, l := range pm.Inputs {
			if l.Body < len(ins) {
				ins[l.Body] = c.In(l.Port)
			}
		}
		branches[k] = ifBranch{Attr: name, Graph: g, Inputs: ins, Outputs: ovBodyOutputs(c, pm)}
	}
	return c.Branches(cond, branches[0], branches[1])
}

// ovSliced returns what a TensorIterator or Loop gives its body of the input in at each iteration
// when its port map slices it (l.Sliced): the input with PartSize elements along the axis; and the
// number of iterations the slicing makes, as OpenVINO's TensorIterator counts them: start and end
// (counted from the end of the axis when negative) are both included, (|end - start| + 1) //
// PartSize. It requires both within the axis. ok is false when the input's rank is not known (the
// part is then of unknown rank, and the count unknown).
func ovSliced(c *ctx, in *Info, l PortLink) (part *Info, iters sym.Dim, ok bool, err error) {
	r, known := in.Rank()
	if !known {
		return &Info{Type: in.Type, Shape: sym.DynamicRank()}, sym.Unknown(), false, nil
	}
	axis, err := c.NormAxis(l.Axis, r)
	if err != nil {
		return nil, sym.Dim{}, false, err
	}
	if l.PartSize < 1 {
		return nil, sym.Dim{}, false, c.Errorf(errcode.ErrSyntax, "part_size=%d for input %d: want at least 1", l.PartSize, l.Port)
	}
	dims := c.clone(in.Shape.Dims)
	n := dims[axis]
	dims[axis] = sym.Const(l.PartSize)
	part = &Info{Type: in.Type, Shape: sym.ShapeOf(dims...)}
	// The indices start and end stand for, and the count between them.
	at := func(v int64) sym.Dim {
		if v < 0 {
			return sym.AddDims(n, sym.Const(v))
		}
		return sym.Const(v)
	}
	start, end := at(l.Start), at(l.End)
	what := "input " + itoa(l.Port) + " sliced along axis " + itoa(axis)
	last := sym.AddDims(n, sym.Const(-1))
	for _, b := range [...]struct {
		v    int64
		d    sym.Dim
		name string
	}{{l.Start, start, "start"}, {l.End, end, "end"}} {
		why := what + ": " + b.name + " = " + strconv.FormatInt(b.v, 10) + " within the axis"
		if err := requireAtLeast(c, b.d, 0, why); err != nil {
			return nil, sym.Dim{}, false, err
		}
		if err := requireAtMost(c, b.d, last, why); err != nil {
			return nil, sym.Dim{}, false, err
		}
	}
	// |end - start|: static when both count from the same end of the axis; else the one counted
	// from the end is required to come after the other.
	span := sym.Const(abs64(l.End - l.Start))
	if (l.Start < 0) != (l.End < 0) {
		span = sym.SubDims(end, start)
		if l.Start < 0 {
			span = sym.SubDims(start, end)
		}
		why := what + ": start = " + strconv.FormatInt(l.Start, 10) + " and end = " + strconv.FormatInt(l.End, 10) + " in the order of their signs"
		if err := requireAtLeast(c, span, 0, why); err != nil {
			return nil, sym.Dim{}, false, err
		}
	}
	iters = sym.FloorDivDims(sym.AddDims(span, sym.Const(1)), sym.Const(l.PartSize))
	return part, iters, true, nil
}

// ovConcatOutput sets output k to the parts o of every iteration concatenated along the axis of
// the link l: iters parts of the body's, as OpenVINO gives it (a scalar part is a tensor of one
// element); ok is false for iters unknown, which leaves the axis unknown.
func ovConcatOutput(c *ctx, k int, o *Info, l PortLink, iters sym.Dim) error {
	r, known := o.Rank()
	if !known {
		c.Out(k, o.Type, sym.DynamicRank())
		return nil
	}
	dims := c.clone(o.Shape.Dims)
	if r == 0 {
		if l.Axis != 0 {
			return c.Errorf(errcode.ErrInvalidShape, "output %d concatenates scalars along axis %d: want 0", k, l.Axis)
		}
		dims, r = []sym.Dim{sym.Const(1)}, 1
	}
	axis, err := c.NormAxis(l.Axis, r)
	if err != nil {
		return err
	}
	dims[axis] = sym.MulDims(dims[axis], iters)
	c.Out(k, o.Type, sym.ShapeOf(dims...))
	return nil
}

// ovIterInputs returns the Infos of the body's inputs as they enter the first iteration: the inputs
// the port map links (a sliced one as its part, with the number of iterations its slicing makes),
// and the back edges as carries. It unifies the iterations of the sliced inputs: known is false
// when none gives one.
func ovIterInputs(c *ctx, body *Graph, pm *PortMap) (ins []*Info, carried []carry, iters sym.Dim, known bool, err error) {
	ins = make([]*Info, len(body.Inputs))
	for _, l := range pm.Inputs {
		if l.Body >= len(ins) {
			continue
		}
		in, err := c.Input(l.Port)
		if err != nil {
			return nil, nil, sym.Dim{}, false, err
		}
		if !l.Sliced {
			ins[l.Body] = in
			continue
		}
		part, n, ok, err := ovSliced(c, in, l)
		if err != nil {
			return nil, nil, sym.Dim{}, false, err
		}
		ins[l.Body] = part
		switch {
		case !ok:
		case !known:
			iters, known = n, true
		default:
			if iters, err = c.Unify(iters, n, "the numbers of iterations of the sliced inputs"); err != nil {
				return nil, nil, sym.Dim{}, false, err
			}
		}
	}
	for _, e := range pm.BackEdges {
		if e.From < 0 || e.From >= len(body.Outputs) || e.To < 0 || e.To >= len(body.Inputs) {
			return nil, nil, sym.Dim{}, false, c.Errorf(errcode.ErrSyntax, "a back edge from body output %d to body input %d", e.From, e.To)
		}
		carried = append(carried, carry{Out: e.From, In: e.To})
	}
	return ins, carried, iters, known, nil
}

// ovIterOutputs sets the node's outputs from the body's last run, outside the body (without the
// iteration number iter, when it has one): a concatenated output stacks iters parts
// (ovConcatOutput), each other one is its body output's last value, which for the source of a
// back edge is the carried value after iters iterations (ctx.carriedOut, from the value that
// entered, first, and the one that settled, ins, from ctx.Iterate). With none (a Loop that runs
// no iteration), such a value's first dim is 0, as OpenVINO gives it.
func ovIterOutputs(c *ctx, pm *PortMap, outs, first, ins []*Info, iters sym.Dim, iter *sym.Dim, none bool) error {
	for _, l := range pm.Outputs {
		if l.Body >= len(outs) || l.Port >= c.NumOut() {
			continue
		}
		o := c.outsideIter(outs[l.Body], iter)
		if l.Sliced {
			if err := ovConcatOutput(c, l.Port, o, l, iters); err != nil {
				return err
			}
			continue
		}
		for _, e := range pm.BackEdges {
			switch {
			case e.From != l.Body:
			case first[e.To] == nil:
				o = c.outsideIter(ins[e.To], iter)
			default:
				var err error
				if o, err = c.carriedOut(first[e.To], ins[e.To], outs[l.Body], iters, iter, "carried"+itoa(e.To)); err != nil {
					return err
				}
			}
		}
		if r, ok := o.Rank(); none && ok && r > 0 {
			dims := c.clone(o.Shape.Dims)
			dims[0] = sym.Const(0)
			c.Out(l.Port, o.Type, sym.ShapeOf(dims...))
			continue
		}
		c.Set(l.Port, copyInfo(o))
	}
	return nil
}

// ovTensorIterator: TensorIterator-1. Its body runs once per part of its sliced inputs (the port
// map's entries with an axis: ovSliced, every sliced input giving the same number of parts); the
// other inputs enter the first iteration, and a back edge passes a body output to a body input at
// the next. An output with an axis concatenates the parts of every iteration: the number of
// iterations times part_size along the axis, the body's part unified with part_size; without,
// it is the value of the last iteration. Without sliced inputs, the number of iterations is that
// OpenVINO gives: |end - start| // part_size of the first concatenated output. With sliced inputs,
// the body is inferred with the number i of the part they give (a symbol below the number of
// iterations, iteration.go): a value that each iteration grows by the same amount (a Concat onto a
// back edge) ends as its initial value plus that amount times the number of iterations.
func ovTensorIterator(c *ctx) error {
	body, pm, err := ovBody(c, "body")
	if err != nil {
		return err
	}
	ins, carried, iters, known, err := ovIterInputs(c, body, pm)
	if err != nil {
		return err
	}
	if !known {
		iters = sym.Unknown()
		sliced := false
		for _, l := range pm.Inputs {
			sliced = sliced || l.Sliced
		}
		for _, l := range pm.Outputs {
			if l.Sliced && !sliced && l.PartSize > 0 {
				iters = sym.Const(abs64(l.End-l.Start) / l.PartSize)
				break
			}
		}
	}
	var iter *sym.Dim
	if known {
		iter = c.iterSymbol("i", iters) // the number of the part the sliced inputs give
	}
	outs, settled, err := c.Iterate(loopBody{Attr: "body", Graph: body, Inputs: ins, Carried: carried, Iter: iter})
	if err != nil {
		return err
	}
	for _, l := range pm.Outputs {
		if !l.Sliced || l.Body >= len(outs) {
			continue
		}
		o := outs[l.Body]
		r, ok := o.Rank()
		if !ok || r == 0 {
			continue
		}
		axis, err := c.NormAxis(l.Axis, r)
		if err != nil {
			return err
		}
		part, err := c.Unify(o.Shape.Dims[axis], sym.Const(l.PartSize), "output "+itoa(l.Port)+"'s part along axis "+itoa(axis)+" (part_size)")
		if err != nil {
			return err
		}
		dims := c.clone(o.Shape.Dims)
		dims[axis] = part
		outs[l.Body] = copyInfo(o)
		outs[l.Body].Shape = sym.ShapeOf(dims...)
	}
	return ovIterOutputs(c, pm, outs, ins, settled, iters, iter, false)
}

// ovLoop: Loop-5. Input 0 is the trip count and input 1 the execution condition (scalars or
// tensors of one element); the port map links the other inputs (and may link these two) to the
// body's Parameters, a sliced input giving a part of part_size along its axis per iteration, and
// names the body's current_iteration input and its execution_condition output. The body is
// inferred until the shapes its back edges carry settle (ctx.Iterate), current_iteration a symbol
// below a trip count known as an integer or an expression in the symbols (iteration.go), as ONNX
// Loop's iteration number: what the body needs holds at every iteration where it holds for every
// value of it, and only at the iterations a run takes where the conditions may stop it early (a
// loss of precision where no condition on the symbols says which). As OpenVINO counts them,
// the iterations are the trip count when the body's condition is always true (a constant, or the
// body input of a true execution condition that it passes on), none when the execution condition
// is false, and otherwise unknown, at most the trip count; a trip count computed from shapes stays
// an expression. A concatenated output stacks the body's output along its axis once per
// iteration; every other output is the last iteration's value (with no iteration, OpenVINO gives
// its first dim 0).
func ovLoop(c *ctx) error {
	body, pm, err := ovBody(c, "body")
	if err != nil {
		return err
	}
	for i, what := range [...]string{"trip count", "execution condition"} {
		in, err := c.Input(i)
		if err != nil {
			return err
		}
		if err := ovOneElement(c, in, i, what); err != nil {
			return err
		}
	}
	ins, carried, _, _, err := ovIterInputs(c, body, pm)
	if err != nil {
		return err
	}
	trip, tripKnown := ovTripCount(c.In(0))
	var iter *sym.Dim
	if tripKnown {
		name := "i"
		if k := pm.CurrentIteration; k >= 0 && k < len(body.Inputs) {
			name = body.Inputs[k].Name
		}
		iter = c.iterSymbol(name, trip)
	}
	if k := pm.CurrentIteration; k >= 0 && k < len(ins) {
		d := body.Inputs[k].Decl
		t := d.Type
		if t != element.I32 {
			t = element.I64
		}
		it := &Info{Type: t, Shape: sym.Shape{}}
		if d.Rank == 1 {
			it.Shape = sym.Ints(1)
		}
		if iter != nil {
			setValue(it, []sym.Dim{*iter})
		}
		ins[k] = it
	}
	outs, settled, err := c.Iterate(loopBody{Attr: "body", Graph: body, Inputs: ins, Carried: carried, Iter: iter,
		Stop: &loopStop{Entry: c.In(1), Out: pm.ExecutionCondition}})
	if err != nil {
		return err
	}
	iters := ovIterations(c, pm, outs, trip, tripKnown)
	n, none := iters.Static()
	return ovIterOutputs(c, pm, outs, ins, settled, iters, iter, none && n == 0)
}

// ovIterations returns the number of iterations of a Loop whose body gave outs at its last run
// and whose trip count is trip when tripKnown: none when its execution condition is false; once
// when it is true and the body's condition is false (do-while); the trip count when both are
// true; otherwise unknown, bounded by the trip count (or by once) when it is known. (OpenVINO
// takes a body condition that is true for the trip count whatever the execution condition: that
// is what a run gives when the execution condition turns out true.)
func ovIterations(c *ctx, pm *PortMap, outs []*Info, trip sym.Dim, tripKnown bool) sym.Dim {
	known := func(in *Info) int { // 0 false, 1 true, -1 unknown
		if v, ok := in.Ints(); ok && len(v) == 1 {
			return int(min(v[0], 1))
		}
		return -1
	}
	cond, body := known(c.In(1)), -1
	if k := pm.ExecutionCondition; k >= 0 && k < len(outs) {
		body = known(outs[k])
	}
	_, hi := trip.Bounds()
	switch {
	case cond == 0:
		return sym.Const(0)
	case body == 0 && cond == 1:
		return sym.Const(1)
	case body == 0:
		return c.Fresh("iterations", 0, 1)
	case body == 1 && cond == 1 && tripKnown:
		return trip
	case tripKnown:
		return c.Fresh("iterations", 0, hi)
	}
	return sym.Unknown()
}

// ovOneElement checks that input i, the what of a Loop or If, is a scalar or a tensor of one
// element, requiring it where the symbols decide its count.
func ovOneElement(c *ctx, in *Info, i int, what string) error {
	if in.Shape.RankDynamic {
		return nil
	}
	if n, ok := in.Shape.Volume().Static(); ok && n != 1 {
		return c.Errorf(errcode.ErrInvalidShape, "the %s (input %d) has %d elements, want 1", what, i, n)
	}
	return requireCount(c, in.Shape, 1, "the "+what+" (input "+itoa(i)+") of one element")
}

// ovTripCount returns a Loop's trip count when its value is known and not negative (-1 means no
// bound): an integer, or an expression in the symbols (a length read from a shape).
func ovTripCount(in *Info) (sym.Dim, bool) {
	if in == nil || len(in.Value) != 1 {
		return sym.Dim{}, false
	}
	d := in.Value[0]
	if lo, _ := d.Bounds(); lo < 0 || !d.Determined() {
		return sym.Dim{}, false
	}
	return d, true
}
