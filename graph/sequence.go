package graph

// What inference knows of the values that are not tensors (Info.Seq, Info.Map): their
// declarations, their joins (an If's branches), their widening (a Loop's carried values) and the
// elements a rule takes out of a sequence. The rules of the operators on them are in
// onnx_sequence.go and onnxml.go.

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/sym"
)

// declValue returns the Info of a sequence or a map as the declaration d gives it (d.Seq or d.Map
// set): its elements' or values' declarations, their unnamed dynamic dims anonymous symbols named
// after hint, and a length no declaration gives (an anonymous dim, equal to itself only). A map's
// values of a tensor type declared without a shape are scalars, as onnxruntime holds every map.
func (e *engine) declValue(d Decl, hint string) *Info {
	in := &Info{Shape: sym.DynamicRank(), Optional: d.Optional}
	switch {
	case d.Seq != nil:
		in.Seq = &Seq{Len: sym.Of(e.tab.Anon(hint+":len", 0, Inf)), Elem: e.declElem(*d.Seq, hint+"[]")}
	case d.Map != nil:
		in.Map = &Map{Key: d.Key, Value: e.declElem(*d.Map, hint+"{}")}
		if v := in.Map.Value; v.IsTensor() && v.Shape.RankDynamic {
			v.Shape = sym.ShapeOf() // onnxruntime's maps hold one value a key: map(i64,f32) of float scalars
		}
	}
	return in
}

// declElem returns the Info of the elements of a sequence, or the values of a map, that d
// declares: a tensor's with anonymous symbols for its unnamed dynamic dims, or a sequence's or a
// map's (declValue).
func (e *engine) declElem(d Decl, hint string) *Info {
	if d.Seq != nil || d.Map != nil {
		return e.declValue(d, hint)
	}
	return &Info{Type: d.Type, Shape: e.anonShape(e.declShape(d, ""), hint), Optional: d.Optional}
}

// currentNested applies the substitutions unification has found to what in holds of a sequence's
// length and elements, or of a map's values (engine.current does the rest).
func (e *engine) currentNested(in *Info) {
	if s := in.Seq; s != nil {
		s.Len = e.solver.Dim(s.Len)
		e.current(s.Elem)
		for _, a := range s.At {
			e.current(a)
		}
		if s.even != nil {
			s.even.size, s.even.total = e.solver.Dim(s.even.size), e.solver.Dim(s.even.total)
		}
	}
	if in.Map != nil {
		e.current(in.Map.Value)
	}
}

// newSeq returns the Info of a sequence of length n whose elements are elem (their join) and, when
// each is known, at (nil otherwise).
func newSeq(n sym.Dim, elem *Info, at []*Info) *Info {
	return &Info{Shape: sym.DynamicRank(), Seq: &Seq{Len: n, Elem: elem, At: at}}
}

// empty reports whether the sequence s is known to hold no element.
func (s *Seq) empty() bool {
	n, ok := s.Len.Static()
	return ok && n == 0
}

// determined reports whether what in holds is known exactly, each dim an expression in the
// symbols: a tensor's shape, a sequence's length and its elements' shapes (each one's when they are
// known one by one; none for an empty sequence), a map's values'.
func (in *Info) determined() bool {
	switch s := in.Seq; {
	case s != nil:
		switch {
		case !s.Len.Determined():
			return false
		case s.empty():
			return true
		case s.At != nil:
			for _, a := range s.At {
				if !a.determined() {
					return false
				}
			}
			return true
		case s.even != nil:
			return s.even.determined(s.Elem)
		}
		return s.Elem.determined()
	case in.Map != nil:
		return in.Map.Value.determined()
	}
	return in.Shape.Determined()
}

// describe returns what in holds in a few words, for a loss: a tensor's shape ("[N,?]"), a
// sequence's type and length ("seq(f32[N,?]) len 3"), a map's type ("map(i64,f32)").
func (in *Info) describe() string {
	switch {
	case in.Seq != nil:
		return in.TypeString() + " len " + in.Seq.Len.String()
	case in.Map != nil:
		return in.TypeString()
	}
	return in.Shape.String()
}

// elemType returns the element type of the tensors of a sequence of elements elem, and whether it
// is one: a sequence of tensors, whose type is known.
func elemType(elem *Info) (element.Type, bool) {
	return elem.Type, elem.IsTensor() && elem.Type != element.Undefined
}

// seqOf returns what in holds of a sequence, and whether it is one (an optional sequence
// included).
func seqOf(in *Info) (*Seq, bool) {
	if in == nil || in.Seq == nil {
		return nil, false
	}
	return in.Seq, true
}

// joinSeqs returns the join of the elements of a sequence (elems, its elements one by one), as
// Seq.Elem holds it: the first's type and shape when all agree, else their join (ctx.join).
func (c *ctx) joinSeqs(elems []*Info, hint string) *Info {
	if len(elems) == 0 {
		return unknownInfo()
	}
	out := elems[0]
	for _, x := range elems[1:] {
		if !sameInfo(out, x) {
			out = c.join(out, x, hint)
		}
	}
	return out
}

// addElem returns the join of a sequence's elements elem, of the sequence s, with one more element
// x: x itself when s is empty (whose Elem holds a type alone).
func (c *ctx) addElem(s *Seq, x *Info, hint string) *Info {
	if s.empty() {
		return x
	}
	if sameInfo(s.Elem, x) {
		return s.Elem
	}
	return c.join(s.Elem, x, hint)
}

// element returns what is known of one element of the sequence s: element k when the elements are
// known one by one, or cut evenly (Seq.even), and k is a known index (negative from the end), else
// their join with a new anonymous dim for each dim that stands for the elements' own sizes
// (freshen).
func (c *ctx) element(s *Seq, k sym.Dim, hint string) *Info {
	if i, ok := k.Static(); ok && s.At != nil {
		if i < 0 {
			i += int64(len(s.At))
		}
		if i >= 0 && i < int64(len(s.At)) {
			return s.At[i]
		}
	}
	if i, ok := k.Static(); ok && s.even != nil {
		j := sym.Const(i)
		if i < 0 {
			j = sym.AddDims(s.Len, j)
		}
		return s.even.piece(c, s.Elem, j)
	}
	return c.freshen(s.Elem, hint)
}

// piece returns element j of the sequence the split e cut, whose elements' join is elem: elem with
// the size of piece j, min(size, total-size*j), along the axis.
func (e *evenSplit) piece(c *ctx, elem *Info, j sym.Dim) *Info {
	dims := c.clone(elem.Shape.Dims)
	dims[e.axis] = sym.MinDims(e.size, sym.SubDims(e.total, sym.MulDims(e.size, j)))
	out := copyInfo(elem)
	out.Shape = sym.ShapeOf(dims...)
	return out
}

// determined reports whether every element of the sequence the split e cut, whose elements' join
// is elem, is known exactly: the size and the dim cut, and elem's dims off the axis.
func (e *evenSplit) determined(elem *Info) bool {
	if !e.size.Determined() || !e.total.Determined() {
		return false
	}
	for i, d := range elem.Shape.Dims {
		if i != e.axis && !d.Determined() {
			return false
		}
	}
	return true
}

// freshen returns in with a new anonymous dim, of the same bounds, for each dim that depends on an
// anonymous one: the join of a sequence's elements stands for each element's own size, which an
// element taken out does not share with another, nor with a second one taken out.
func (c *ctx) freshen(in *Info, hint string) *Info {
	if !in.IsTensor() || in.Shape.RankDynamic {
		return in
	}
	var dims []sym.Dim
	for i, d := range in.Shape.Dims {
		if e, ok := d.Expr(); !ok || !e.DependsOnAnon() {
			continue
		}
		if dims == nil {
			dims = c.clone(in.Shape.Dims)
		}
		lo, hi := d.Bounds()
		dims[i] = c.Fresh(hint+":"+itoa(i), lo, hi)
	}
	if dims == nil {
		return in
	}
	out := copyInfo(in)
	out.Shape = sym.ShapeOf(dims...)
	return out
}

// sameInfo reports whether a and b are known to be the same value's Info: of one kind, the same
// element type and shape, the same values, and of sequences the same length and elements, of maps
// the same keys and values.
func sameInfo(a, b *Info) bool {
	if a == b {
		return true
	}
	if a.Type != b.Type || a.Optional != b.Optional || !a.Shape.Identical(b.Shape) || !sameValues(a, b) ||
		(a.Seq == nil) != (b.Seq == nil) || (a.Map == nil) != (b.Map == nil) {
		return false
	}
	if a.Seq != nil {
		if !a.Seq.Len.Identical(b.Seq.Len) || !sameInfo(a.Seq.Elem, b.Seq.Elem) || len(a.Seq.At) != len(b.Seq.At) {
			return false
		}
		for i, x := range a.Seq.At {
			if !sameInfo(x, b.Seq.At[i]) {
				return false
			}
		}
	}
	return a.Map == nil || a.Map.Key == b.Map.Key && sameInfo(a.Map.Value, b.Map.Value)
}

// joinValue returns what is known of a value that is either a or b, one of them a sequence or a
// map (ctx.join does tensors): a sequence of the joined lengths and elements (an empty one's
// elements are the other's), a map of the common key type and joined values; a value of unknown
// kind when a and b are not of one kind.
func (c *ctx) joinValue(a, b *Info, hint string) *Info {
	opt, t := a.Optional || b.Optional, a.taint|b.taint
	switch {
	case a.Seq != nil && b.Seq != nil:
		x, y := a.Seq, b.Seq
		var elem *Info
		switch {
		case x.empty():
			elem = y.Elem
		case y.empty():
			elem = x.Elem
		default:
			elem = c.join(x.Elem, y.Elem, hint+"[]")
		}
		var at []*Info
		if len(x.At) == len(y.At) && x.At != nil {
			at = make([]*Info, len(x.At))
			for i, e := range x.At {
				at[i] = c.join(e, y.At[i], hint+"["+itoa(i)+"]")
			}
		}
		out := newSeq(c.joinDim(x.Len, y.Len, hint+":len"), elem, at)
		out.Optional, out.taint = opt, t
		return out
	case a.Map != nil && b.Map != nil:
		key := a.Map.Key
		if b.Map.Key != key {
			key = element.Undefined
		}
		return &Info{Shape: sym.DynamicRank(), Optional: opt, taint: t, Map: &Map{Key: key, Value: c.join(a.Map.Value, b.Map.Value, hint+"{}")}}
	}
	return &Info{Shape: sym.DynamicRank(), Optional: opt, taint: t}
}

// widenValue is ctx.widen of a loop-carried value that is a sequence or a map when it enters (in)
// or leaves (out) the body: a sequence's length widens as a dim does, its elements as a tensor
// does (those of an empty one are the other's); a map's values widen; values of other kinds give
// one of unknown kind.
func (c *ctx) widenValue(in, out *Info, hint string, final bool) *Info {
	opt := in.Optional || out.Optional
	switch {
	case in.Seq != nil && out.Seq != nil:
		x, y := in.Seq, out.Seq
		var elem *Info
		switch {
		case x.empty():
			elem = y.Elem
		case y.empty() || sameInfo(x.Elem, y.Elem):
			elem = x.Elem
		default:
			elem = c.widen(x.Elem, y.Elem, hint+"[]", final)
		}
		n := x.Len
		if !n.Equal(y.Len) {
			n = c.widenDim(x.Len, y.Len, hint+":len")
		}
		v := newSeq(n, elem, nil)
		v.Optional = opt
		return v
	case in.Map != nil && out.Map != nil && in.Map.Key == out.Map.Key:
		return &Info{Shape: sym.DynamicRank(), Optional: opt, Map: &Map{Key: in.Map.Key, Value: c.widen(in.Map.Value, out.Map.Value, hint+"{}", final)}}
	}
	return &Info{Shape: sym.DynamicRank(), Optional: opt}
}

// coversValue is covers for a loop-carried sequence or map: in, already widened, covers out when
// both are of its kind, its length covers out's (covers's test of a dim), and its elements (or
// values) cover out's; an empty out's elements are covered by any.
func coversValue(in, out *Info) bool {
	switch {
	case in.Seq != nil && out.Seq != nil:
		return coversDim(in.Seq.Len, out.Seq.Len) && (out.Seq.empty() || sameInfo(in.Seq.Elem, out.Seq.Elem) || covers(in.Seq.Elem, out.Seq.Elem))
	case in.Map != nil && out.Map != nil:
		return in.Map.Key == out.Map.Key && (sameInfo(in.Map.Value, out.Map.Value) || covers(in.Map.Value, out.Map.Value))
	}
	return false
}
