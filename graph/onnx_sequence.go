package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxSequence holds the rules of ONNX's sequence operators (Info.Seq): a sequence's length is a
// dim, and its elements are known as their join, and one by one where a rule knows them. Where
// an operator needs an index within the length, or elements of equal ranks, the rule requires it.
var onnxSequence = table{"", []opDef{
	{"SequenceEmpty", since(11), fixed(0), fixed(1), 0, sequenceEmpty},
	{"SequenceConstruct", since(11), span(1, many), fixed(1), allValues, sequenceConstruct},
	{"SequenceInsert", since(11), span(2, 3), fixed(1), reads(1, 2), sequenceInsert},
	{"SequenceAt", since(11), fixed(2), fixed(1), reads(1), sequenceAt},
	{"SequenceErase", since(11), span(1, 2), fixed(1), reads(1), sequenceErase},
	{"SequenceLength", since(11), fixed(1), fixed(1), 0, sequenceLength},
	{"SplitToSequence", since(11), span(1, 2), fixed(1), reads(0, 1), splitToSequence},
	{"ConcatFromSequence", since(11), fixed(1), fixed(1), 0, concatFromSequence},
	{"SequenceMap", since(17), span(1, many), span(1, many), 0, sequenceMap},
}}

// maxAt bounds the length of a sequence whose elements inference keeps one by one (Seq.At).
const maxAt = 64

// sequenceInput returns the sequence of input i, which the node must give; an input that is known
// not to be a sequence (a tensor of known type) is an error wrapping errcode.ErrInvalidShape. ok is
// false when nothing is known of the input's kind (the output of a node without a rule). A
// sequence of maps or of sequences (ZipMap's) is the node's TypeErr, wrapping errcode.ErrDataType:
// every sequence operator takes sequences of tensors, and onnxruntime refuses others at load.
func sequenceInput(c *ctx, i int) (s *Seq, ok bool, err error) {
	in, err := c.Input(i)
	if err != nil {
		return nil, false, err
	}
	if s, ok := seqOf(in); ok {
		if !s.Elem.IsTensor() && c.typeErr == nil {
			c.typeErr = errcode.Errorf(errcode.ErrDataType, "%s is %s: %s takes a sequence of tensors", inputName(i, c.n.Inputs),
				in.TypeString(), c.n.Op)
		}
		return s, true, nil
	}
	if in.Map != nil || in.Type != element.Undefined || !in.Shape.RankDynamic {
		return nil, false, c.Errorf(errcode.ErrInvalidShape, "input %d is %s, want a sequence", i, in.TypeString())
	}
	return nil, false, nil
}

// sequenceEmpty: SequenceEmpty-11: an empty sequence of tensors of the dtype attribute (float by
// default).
func sequenceEmpty(c *ctx) error {
	dtype, err := c.Int("dtype", 1)
	if err != nil {
		return err
	}
	c.Set(0, newSeq(sym.Const(0), &Info{Type: elemTypeOf(dtype), Shape: sym.DynamicRank()}, []*Info{}))
	return nil
}

// sequenceConstruct: SequenceConstruct-11: the sequence of the inputs, tensors of one element
// type (which the type signature checks: inputs of two types are a type error), known one by one.
func sequenceConstruct(c *ctx) error {
	ins, err := c.Inputs(c.NumIn())
	if err != nil {
		return err
	}
	at := append([]*Info(nil), ins...)
	c.Set(0, newSeq(sym.Const(int64(len(at))), c.joinSeqs(at, "elem"), at))
	return nil
}

// position returns the index input i holds (a scalar, or a tensor of one element: onnxruntime
// 1.20.1 reads the first element, as a Loop body whose iteration number is declared [1] gets it),
// and whether it is given; an index whose value is not known is sym.UnknownValue.
func position(c *ctx, i int) (sym.Dim, bool, error) {
	p := c.In(i)
	if p == nil {
		return sym.Dim{}, false, nil
	}
	r, ok, err := c.RequireRank(p, i, 0, 1)
	if err != nil {
		return sym.Dim{}, true, err
	}
	if ok && r == 1 {
		if x, exact := p.Shape.Dims[0].Expr(); exact {
			if err := c.Require(sym.Eq(x, sym.Int(1)), "input "+itoa(i)+", the position, of one element"); err != nil {
				return sym.Dim{}, true, err
			}
		}
	}
	if len(p.Value) == 1 {
		return p.Value[0], true, nil
	}
	return sym.UnknownValue(), true, nil
}

// requireIndex requires the index k to be within a sequence of length n: in [-n, n-1], or with
// end (an insertion's position) in [-n, n]. An index known only by its bounds is left to a run
// unless they decide it; one that can never be within is an error wrapping
// errcode.ErrInvalidShape.
func requireIndex(c *ctx, k, n sym.Dim, end bool, what string) error {
	top := sym.SubDims(n, sym.Const(1))
	if end {
		top = n
	}
	if err := requireAtMost(c, k, top, what+" within the sequence's length"); err != nil {
		return err
	}
	return requireAtMost(c, sym.SubDims(sym.Const(0), n), k, what+" within the sequence's length")
}

// seqIndex returns the index k of a sequence of known length n counted from the front, and
// whether it is a known integer within [0, n) (or [0, n] with end).
func seqIndex(k sym.Dim, n int, end bool) (int, bool) {
	i, ok := k.Static()
	if !ok {
		return 0, false
	}
	if i < 0 {
		i += int64(n)
	}
	top := int64(n)
	if end {
		top++
	}
	return int(i), i >= 0 && i < top
}

// sequenceInsert: SequenceInsert-11: the input sequence with the tensor inserted at the position
// (a scalar in [-n, n] for a sequence of n elements; at the end without one), one longer; its
// elements stay known one by one when they were and the position is known. A tensor of another
// element type than the sequence's is a type error wrapping errcode.ErrDataType (onnxruntime
// refuses the model at load: "Input Sequence and Tensor are expected to have the same elem type").
func sequenceInsert(c *ctx) error {
	s, ok, err := sequenceInput(c, 0)
	if err != nil || !ok {
		return err
	}
	x, err := c.Input(1)
	if err != nil {
		return err
	}
	t, typed := elemType(s.Elem)
	if typed && x.Type != element.Undefined && x.Type != t {
		c.typeErr = errcode.Errorf(errcode.ErrDataType, "%s is %v, and the elements of %s are %v: SequenceInsert takes a tensor of the sequence's element type",
			inputName(1, c.n.Inputs), x.Type, inputName(0, c.n.Inputs), t)
	}
	k, given, err := position(c, 2)
	if err != nil {
		return err
	}
	if given {
		if err := requireIndex(c, k, s.Len, true, "the position"); err != nil {
			return err
		}
	}
	var at []*Info
	if s.At != nil && len(s.At) < maxAt {
		i, ok := len(s.At), true
		if given {
			i, ok = seqIndex(k, len(s.At), true)
		}
		if ok {
			at = make([]*Info, 0, len(s.At)+1)
			at = append(append(append(at, s.At[:i]...), x), s.At[i:]...)
		}
	}
	elem := c.addElem(s, x, "elem")
	if typed && elem.Type != t || elem.Type == element.Undefined && s.empty() {
		// The sequence's element type stays: a tensor of another is a type error.
		elem = copyInfo(elem)
		elem.Type = s.Elem.Type
	}
	c.Set(0, newSeq(sym.AddDims(s.Len, sym.Const(1)), elem, at))
	return nil
}

// sequenceAt: SequenceAt-11: the element at the position, a scalar in [-n, n-1] for a sequence of
// n elements (required): the element itself when the elements are known one by one and the
// position is known, else their join (Seq.Elem, each dim that stands for the elements' own sizes
// a new anonymous dim).
func sequenceAt(c *ctx) error {
	s, ok, err := sequenceInput(c, 0)
	if err != nil || !ok {
		return err
	}
	k, _, err := position(c, 1)
	if err != nil {
		return err
	}
	if err := requireIndex(c, k, s.Len, false, "the position"); err != nil {
		return err
	}
	c.Set(0, copyInfo(c.element(s, k, "elem")))
	return nil
}

// sequenceErase: SequenceErase-11: the input sequence without the element at the position (a
// scalar in [-n, n-1]; the last element without one), one shorter: the sequence must not be
// empty.
func sequenceErase(c *ctx) error {
	s, ok, err := sequenceInput(c, 0)
	if err != nil || !ok {
		return err
	}
	k, given, err := position(c, 1)
	if err != nil {
		return err
	}
	if !given {
		k = sym.Const(-1)
	}
	if err := requireIndex(c, k, s.Len, false, "the position"); err != nil {
		return err
	}
	elem := s.Elem
	var at []*Info
	if s.At != nil {
		if i, ok := seqIndex(k, len(s.At), false); ok {
			at = append(append(make([]*Info, 0, len(s.At)-1), s.At[:i]...), s.At[i+1:]...)
			if len(at) > 0 {
				elem = c.joinSeqs(at, "elem")
			}
		}
	}
	c.Set(0, newSeq(sym.SubDims(s.Len, sym.Const(1)), elem, at))
	return nil
}

// sequenceLength: SequenceLength-11: an int64 scalar, the sequence's length (its value).
func sequenceLength(c *ctx) error {
	s, ok, err := sequenceInput(c, 0)
	out := c.Out(0, element.I64, sym.Shape{})
	if err != nil || !ok {
		return err
	}
	out.Value = []sym.Dim{s.Len}
	return nil
}

// splitToSequence: SplitToSequence-11: the input split along axis into a sequence: without split,
// into its slices of size 1 (the axis kept with keepdims, the default, else removed); by a scalar
// split s, into pieces of size s, the last one smaller when s does not divide the axis dim (a
// split of 0 or less is an error wrapping errcode.ErrInvalidShape); by a 1-D split, into pieces
// of those sizes, which must add up to the axis dim (a constraint when they are symbols). The
// pieces are known one by one where their count is a known integer up to 64.
func splitToSequence(c *ctx) error {
	axis, err := c.Int("axis", 0)
	if err != nil {
		return err
	}
	keep, err := c.Int("keepdims", 1)
	if err != nil {
		return err
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil {
		return err
	}
	if !ok {
		c.Set(0, newSeq(sym.Unknown(), &Info{Type: in.Type, Shape: sym.DynamicRank()}, nil))
		return nil
	}
	a, err := c.NormAxis(axis, r)
	if err != nil {
		return err
	}
	d := in.Shape.Dims[a]
	split := c.In(1)
	if split == nil {
		elem := piece(c, in, a, sym.Const(1), sym.Unknown())
		if keep == 0 {
			elem = dropAxis(in, a)
		}
		c.Set(0, newSeq(d, elem, nil))
		return nil
	}
	sr, ok, err := c.RequireRank(split, 1, 0, 1)
	if err != nil {
		return err
	}
	switch {
	case !ok:
		c.Set(0, newSeq(sym.Unknown(), piece(c, in, a, upTo(d), sym.Unknown()), nil))
		return nil
	case sr == 0:
		return splitEvenly(c, in, a)
	}
	return splitBySizes(c, in, a)
}

// piece returns the part of in along axis a of size n that starts at off, with its values when
// in has values and off is known.
func piece(c *ctx, in *Info, a int, n, off sym.Dim) *Info {
	dims := c.clone(in.Shape.Dims)
	dims[a] = n
	out := &Info{Type: in.Type, Shape: sym.ShapeOf(dims...)}
	splitValues(out, in, a, off)
	if out.Value == nil {
		// A piece of a tensor whose elements are all one integer (an Expand of a scalar) holds it.
		out.elems = in.elems
		if in.Value != nil {
			out.elems = valueBounds(in.Value)
		}
		valuesFromBounds(out)
	}
	return out
}

// splitEvenly is SplitToSequence by a scalar split s of the axis a of in (of dim d): pieces of size
// s, ceil(d/s) of them, the last one d - s*(ceil(d/s)-1).
func splitEvenly(c *ctx, in *Info, a int) error {
	d := in.Shape.Dims[a]
	split := c.In(1)
	if len(split.Value) != 1 {
		c.Set(0, newSeq(sym.Unknown(), piece(c, in, a, upTo(d), sym.Unknown()), nil))
		return nil
	}
	s := split.Value[0]
	if err := requireAtLeast(c, s, 1, "split"); err != nil {
		return err
	}
	n := sym.CeilDivDims(d, s)
	last := sym.SubDims(d, sym.MulDims(s, sym.SubDims(n, sym.Const(1))))
	if k, ok := n.Static(); ok && k <= maxAt {
		at := make([]*Info, k)
		for i := range at {
			size := s
			if i == len(at)-1 {
				size = last
			}
			at[i] = piece(c, in, a, size, sym.MulDims(s, sym.Const(int64(i))))
		}
		c.Set(0, newSeq(n, c.joinSeqs(at, "elem"), at))
		return nil
	}
	size := s
	if !last.Equal(s) {
		lo, hi := s.Bounds()
		size = c.Fresh("elem", min(1, lo), hi)
	}
	out := newSeq(n, piece(c, in, a, size, sym.Unknown()), nil)
	out.Seq.even = &evenSplit{axis: a, size: s, total: d}
	c.Set(0, out)
	return nil
}

// splitBySizes is SplitToSequence by a 1-D split of the axis a of in: one piece per size, the
// sizes adding up to the axis dim (unified with it when they are known). Sizes not known but
// bounded alike (a ConstantOfShape of ones) give pieces of that size, as many as the split's
// length.
func splitBySizes(c *ctx, in *Info, a int) error {
	d := in.Shape.Dims[a]
	split := c.In(1)
	k := split.Shape.Dims[0]
	if split.Value != nil {
		// The sizes are checked against the axis dim before the pieces are cut: a piece of
		// known values past the end has none to cut.
		sum := sym.Const(0)
		for i, s := range split.Value {
			p, ok := s.NonNegative()
			if !ok {
				return c.Errorf(errcode.ErrInvalidShape, "split[%d] = %v is negative", i, s)
			}
			if err := requireAtLeast(c, s, 0, "split["+itoa(i)+"] = "+s.String()+" is not negative"); err != nil {
				return err
			}
			sum = sym.AddDims(sum, p)
		}
		if _, err := c.Unify(d, sum, "the axis dim and the sum of split "+sym.ShapeOf(split.Value...).String()); err != nil {
			return err
		}
		at := make([]*Info, len(split.Value))
		off := sym.Const(0)
		for i, s := range split.Value {
			p, _ := s.NonNegative()
			at[i] = piece(c, in, a, p, off)
			off = sym.AddDims(off, p)
		}
		if len(at) > maxAt {
			at = nil
		}
		c.Set(0, newSeq(k, c.joinSeqs(at, "elem"), at))
		return nil
	}
	if e := split.elems; e != nil && e[0].Equal(e[1]) {
		size, err := requireNonNegative(c, e[0], "split's every value")
		if err != nil {
			return err
		}
		if _, err := c.Unify(d, sym.MulDims(k, size), "the axis dim and the sum of split, "+k.String()+" sizes of "+size.String()); err != nil {
			return err
		}
		c.Set(0, newSeq(k, piece(c, in, a, size, sym.Unknown()), nil))
		return nil
	}
	c.Set(0, newSeq(k, piece(c, in, a, upTo(d), sym.Unknown()), nil))
	return nil
}

// concatFromSequence: ConcatFromSequence-11: the elements of the sequence concatenated along axis
// (required), or with new_axis = 1 stacked along a new axis; the sequence must not be empty. Its
// elements have one rank, and the same dims but along the axis (stacked: all of them), which
// unify where the elements are known one by one. The concatenated dim is the sum of the
// elements' dims: n times their common dim when the elements agree, the sum of each one's when
// they are known one by one, else only its bounds.
func concatFromSequence(c *ctx) error {
	s, ok, err := sequenceInput(c, 0)
	if err != nil || !ok {
		if err == nil {
			c.Out(0, element.Undefined, sym.DynamicRank())
		}
		return err
	}
	if _, ok := c.n.Attr("axis"); !ok {
		return c.Errorf(errcode.ErrSyntax, "attribute axis is missing: %s takes it", c.n.Op)
	}
	axis, err := c.Int("axis", 0)
	if err != nil {
		return err
	}
	stack, err := c.Int("new_axis", 0)
	if err != nil {
		return err
	}
	if err := requireAtLeast(c, s.Len, 1, "the sequence is not empty"); err != nil {
		return err
	}
	t, _ := elemType(s.Elem)
	if s.At != nil {
		if err := sameRanks(c, s.At); err != nil {
			return err
		}
		if stack != 0 {
			return stackAlong(c, s.At, axis)
		}
		return concatAlong(c, s.At, nil, axis, t)
	}
	r, ok := s.Elem.Rank()
	if !ok {
		c.Out(0, t, sym.DynamicRank())
		return nil
	}
	if stack != 0 {
		a, err := c.NormAxis(axis, r+1)
		if err != nil {
			return err
		}
		dims := make([]sym.Dim, 0, r+1)
		dims = append(append(append(dims, s.Elem.Shape.Dims[:a]...), s.Len), s.Elem.Shape.Dims[a:]...)
		c.Out(0, t, sym.ShapeOf(dims...))
		return nil
	}
	a, err := c.NormAxis(axis, r)
	if err != nil {
		return err
	}
	dims := c.clone(s.Elem.Shape.Dims)
	dims[a] = timesDim(s.Len, dims[a])
	if s.even != nil && s.even.axis == a {
		// The pieces of an even split, joined again along their axis.
		dims[a] = s.even.total
	}
	c.Out(0, t, sym.ShapeOf(dims...))
	return nil
}

// sameRanks returns an error wrapping errcode.ErrInvalidShape when two of elems have known ranks
// that differ, as the elements ConcatFromSequence concatenates may not.
func sameRanks(c *ctx, elems []*Info) error {
	rank := -1
	for k, e := range elems {
		if r, ok := e.Rank(); ok {
			if rank >= 0 && r != rank {
				return c.Errorf(errcode.ErrInvalidShape, "element %d has rank %d, and an element before it %d", k, r, rank)
			}
			rank = r
		}
	}
	return nil
}

// stackAlong sets output 0 to the tensors elems stacked along a new axis (in [-r-1, r] for rank
// r): their dims unify.
func stackAlong(c *ctx, elems []*Info, axis int64) error {
	var dims []sym.Dim
	t := element.Undefined
	for k, e := range elems {
		t = e.Type
		if e.Shape.RankDynamic {
			continue
		}
		if dims == nil {
			dims = c.clone(e.Shape.Dims)
			continue
		}
		for i, d := range e.Shape.Dims {
			u, err := c.Unify(dims[i], d, "element "+itoa(k)+" dim "+itoa(i))
			if err != nil {
				return err
			}
			dims[i] = u
		}
	}
	if dims == nil && len(elems) > 0 {
		c.Out(0, t, sym.DynamicRank())
		return nil
	}
	a, err := c.NormAxis(axis, len(dims)+1)
	if err != nil {
		return err
	}
	out := make([]sym.Dim, 0, len(dims)+1)
	out = append(append(append(out, dims[:a]...), sym.Const(int64(len(elems)))), dims[a:]...)
	c.Out(0, t, sym.ShapeOf(out...))
	return nil
}

// timesDim returns n times d, the sum of n dims that are all d: the product when d is an integer
// or an expression in named symbols, else (d stands for each element's own size) only its
// bounds.
func timesDim(n, d sym.Dim) sym.Dim {
	if d.Determined() {
		return sym.MulDims(n, d)
	}
	nlo, nhi := n.Bounds()
	lo, hi := d.Bounds()
	return sym.MulDims(sym.Interval(nlo, nhi), sym.Interval(lo, hi))
}

// sequenceMap: SequenceMap-17: the body runs on each element of the input sequence, with the
// element of the same index of each additional sequence input (of the same length, unified) and
// each additional tensor input; each output is the sequence of the body's outputs, of the input
// sequence's length. The body is inferred once per element when the elements are known one by one
// (up to 64), else once on the elements' join.
func sequenceMap(c *ctx) error {
	body, err := c.Graph("body")
	if err != nil {
		return err
	}
	if len(body.Inputs) != c.NumIn() || len(body.Outputs) != c.NumOut() {
		return c.Errorf(errcode.ErrSyntax, "the body has %d inputs and %d outputs, and the node %d and %d",
			len(body.Inputs), len(body.Outputs), c.NumIn(), c.NumOut())
	}
	s, ok, err := sequenceInput(c, 0)
	if err != nil {
		return err
	}
	if !ok {
		s = &Seq{Len: sym.Unknown(), Elem: unknownInfo()}
	}
	n := s.Len
	seqs := []*Seq{s}
	ins := make([]*Info, c.NumIn())
	for k := 1; k < c.NumIn(); k++ {
		in, err := c.Input(k)
		if err != nil {
			return err
		}
		ins[k] = in
		if x, ok := seqOf(in); ok {
			if n, err = c.Unify(n, x.Len, "the length of input "+itoa(k)); err != nil {
				return err
			}
			seqs = append(seqs, x)
			continue
		}
		seqs = append(seqs, nil)
	}
	// run infers the body on element i of each sequence input (i < 0: their joins).
	run := func(i int) ([]*Info, error) {
		args := make([]*Info, len(ins))
		for k, x := range seqs {
			switch {
			case x == nil:
				args[k] = ins[k]
			case i >= 0:
				args[k] = c.element(x, sym.Const(int64(i)), "elem")
			default:
				args[k] = c.freshen(x.Elem, "elem")
			}
		}
		return c.Subgraph(body, "body", args, true)
	}
	count := -1
	if k, ok := n.Static(); ok && k <= maxAt {
		count = int(k)
		for _, x := range seqs {
			if x != nil && x.At == nil {
				count = -1
			}
		}
	}
	if count < 0 {
		outs, err := run(-1)
		if err != nil {
			return err
		}
		for j, o := range outs {
			c.Set(j, newSeq(n, copyInfo(o), nil))
		}
		return nil
	}
	at := make([][]*Info, c.NumOut())
	for i := range count {
		outs, err := run(i)
		if err != nil {
			return err
		}
		for j, o := range outs {
			at[j] = append(at[j], copyInfo(o))
		}
	}
	for j := range at {
		elem := &Info{Type: element.Undefined, Shape: sym.DynamicRank()}
		if count > 0 {
			elem = c.joinSeqs(at[j], "elem")
		}
		c.Set(j, newSeq(n, elem, at[j]))
	}
	return nil
}
