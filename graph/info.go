package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/sym"
)

// Info is what inference knows of one value: of a tensor, its element type, its shape, and for a
// small integer tensor (a shape, a Reshape pattern, indices, a constant) the values of its
// elements; of an ONNX sequence or map (Seq, Map), what is known of its elements; of an ONNX
// optional (Optional), what is known of the value it may hold.
//
// The kinds of value are ONNX's types, each Info one of:
//   - a tensor: Seq and Map nil, Type and Shape its own ("tensor(float)" is Type element.F32);
//   - a sequence: Seq not nil, of elements Seq.Elem ("seq(tensor(float))" is Seq.Elem.Type
//     element.F32, with Seq.Elem.Seq and Seq.Elem.Map nil);
//   - a map: Map not nil, of keys Map.Key and values Map.Value ("map(int64, tensor(float))");
//   - an optional of any of them: Optional set ("optional(seq(tensor(float)))").
//
// TypeString writes them in the notation of the README: f32, seq(f32[N,4]), map(i64,f32),
// optional(seq(f32[N,4])).
type Info struct {
	// Type is the element type; element.Undefined when it is not known or the value is not a
	// tensor (an ONNX sequence or map). An optional's is the type of the tensor it may hold.
	Type element.Type
	// Shape is the tensor's shape; a dynamic rank when nothing is known of it, or when the value
	// is not a tensor.
	Shape sym.Shape
	// Value holds the elements of an integer or boolean tensor of static shape and at most
	// MaxValue elements, in row-major order, when inference knows them (each exactly, as an
	// expression, or by its bounds); nil otherwise. Booleans are 0 and 1. The values of a
	// constant are kept up to 4096 elements: larger integer constants are weights.
	Value []sym.Dim
	// Floats holds the elements of a small floating-point tensor whose values are constants of the
	// model (Resize's scales), nil otherwise.
	Floats []float64
	// FromDecl reports that the shape is the model's declaration, taken for the output of a node
	// that has no shape rule.
	FromDecl bool
	// Optional reports that the value is an ONNX optional: empty, or the value the other fields
	// describe (a tensor of Type and Shape, a sequence, a map).
	Optional bool
	// taint says where what is not known of it comes from (lost.go); beside the booleans, in
	// their word of the struct.
	taint taint
	// Seq, when not nil, makes the value an ONNX sequence and says what is known of its length and
	// elements. Type is then element.Undefined and Shape a dynamic rank: what a rule of a tensor
	// operator reads of a value that is not a tensor.
	Seq *Seq
	// Map, when not nil, makes the value an ONNX map and says what is known of its keys and values.
	// Type is then element.Undefined and Shape a dynamic rank.
	Map *Map
	// FailedAt, when not "", is the path of the node whose error leaves this tensor unknown: the
	// node whose inputs broke its rule, or the first such node upstream. Nothing is inferred
	// downstream of it (NodeResult.Blocked).
	FailedAt string

	// elems bounds the elements of an integer tensor whose values are not known one by one (the
	// Range of a symbolic limit holds 0..T-1): each lies in [elems[0], elems[1]]. nil when nothing
	// is known. Operators that move elements keep it (keepValues).
	elems *[2]sym.Dim

	// fracs holds the values of a float tensor of static shape and at most MaxValue elements
	// computed from the model's shapes, when each is known exactly (fracs.go); nil otherwise. A
	// pointer: most Infos have none.
	fracs *[]frac

	gen int // the generation of the engine's substitutions this Info reflects
}

// Seq is what inference knows of an ONNX sequence (Info.Seq): its length and its elements, which
// are tensors of one element type (seq(tensor(float))), or sequences or maps.
type Seq struct {
	// Len is the number of elements: an integer, an expression in the model's symbols (ZipMap's N
	// rows), or an interval.
	Len sym.Dim
	// Elem is what is known of every element: their element type and shape when all the elements
	// agree, else their join (their common rank, and at each axis their common dim or an anonymous
	// dim bounded by all of theirs, which stands for each element's own size: a rule that takes
	// one element out gives it a new anonymous dim). Of a sequence known to be empty (Len 0) it
	// holds the element type alone (SequenceEmpty's dtype), which a sequence that grows from it
	// does not join. Never nil.
	Elem *Info
	// At holds what is known of each element in order, when Len is an integer and the elements
	// are known one by one (a SequenceConstruct, a SplitToSequence of sizes known, an insertion
	// into such a sequence); nil otherwise.
	At []*Info

	// even is set where At is nil because SplitToSequence cut a tensor into pieces of one size
	// without knowing how many: element j is the piece of size min(size, total-size*j).
	even *evenSplit
}

// evenSplit is what is known of the elements of a sequence that SplitToSequence cut from a
// tensor along axis into pieces of size size, the last one the rest of the axis dim total.
type evenSplit struct {
	axis        int
	size, total sym.Dim
}

// Map is what inference knows of an ONNX map (Info.Map): the element type of its keys (an integer
// type or element.String) and what is known of its values (ZipMap's: f32 tensors).
type Map struct {
	Key   element.Type
	Value *Info
}

// IsTensor reports whether the value is a tensor (or an optional tensor): neither a sequence nor
// a map.
func (in *Info) IsTensor() bool { return in.Seq == nil && in.Map == nil }

// Tensors returns the Info of the tensors the value holds: in itself for a tensor, a sequence's
// elements' (their join), a map's values'; of a sequence of maps, the maps' values'.
func (in *Info) Tensors() *Info {
	for {
		switch {
		case in.Seq != nil:
			in = in.Seq.Elem
		case in.Map != nil:
			in = in.Map.Value
		default:
			return in
		}
	}
}

// TypeString returns the value's type in the notation of the README, the shapes of the tensors it
// holds included but the value's own: a tensor's element type ("f32"; its shape is Shape), a
// sequence as seq(ELEMENT) ("seq(f32[N,4])", "seq(map(i64,f32))"), a map as map(KEY,VALUE)
// ("map(i64,f32)": a value of unknown or scalar shape is its element type alone), an optional as
// optional(VALUE) ("optional(seq(f32[N,4]))"; an optional tensor "optional(f32)"). An element
// type not known is "undefined". A sequence's length is Seq.Len.
func (in *Info) TypeString() string { return string(in.appendType(nil, false)) }

// appendType appends the notation of TypeString to b; with shaped, a tensor's shape follows its
// element type (as the elements of a sequence print; a map's values only when their rank is
// known and not 0).
func (in *Info) appendType(b []byte, shaped bool) []byte {
	if in.Optional {
		b = append(b, "optional("...)
	}
	switch {
	case in.Seq != nil:
		b = append(b, "seq("...)
		b = in.Seq.Elem.appendType(b, true)
		b = append(b, ')')
	case in.Map != nil:
		b = append(b, "map("...)
		b = append(b, in.Map.Key.String()...)
		b = append(b, ',')
		v := in.Map.Value
		b = v.appendType(b, v.Seq != nil || v.Map != nil || len(v.Shape.Dims) > 0)
		b = append(b, ')')
	default:
		b = append(b, in.Type.String()...)
		if shaped {
			b = in.Shape.AppendText(b)
		}
	}
	if in.Optional {
		b = append(b, ')')
	}
	return b
}

// MaxValue bounds the number of elements whose values inference keeps for one tensor.
const MaxValue = 1 << 16

// unknownInfo returns the Info of a tensor of which nothing is known.
func unknownInfo() *Info { return &Info{Shape: sym.DynamicRank()} }

// Rank returns the rank of the tensor; ok is false when it is not known.
func (in *Info) Rank() (int, bool) { return in.Shape.Rank() }

// rank is Rank for an Info that may be nil (a left-out input): ok is false then.
func (in *Info) rank() (int, bool) {
	if in == nil {
		return 0, false
	}
	return in.Shape.Rank()
}

// Ints returns the values of the tensor when every one is a known integer.
func (in *Info) Ints() ([]int64, bool) {
	if in == nil || in.Value == nil {
		return nil, false
	}
	out := make([]int64, len(in.Value))
	for i, v := range in.Value {
		n, ok := v.Static()
		if !ok {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// Volume returns the number of elements of a tensor of static shape; ok is false otherwise.
func (in *Info) Volume() (int64, bool) {
	if in.Shape.RankDynamic {
		return 0, false
	}
	for _, d := range in.Shape.Dims {
		if _, ok := d.Static(); !ok {
			return 0, false
		}
	}
	n := int64(1)
	for _, dim := range in.Shape.Dims {
		d, _ := dim.Static()
		if d == 0 {
			return 0, true
		}
		if n > MaxValue*16 {
			return n, true // large enough to say "too many": callers compare with MaxValue
		}
		n *= d
	}
	return n, true
}

// isIntegral reports whether t holds integers or booleans, whose values inference may track.
func isIntegral(t element.Type) bool { return t.IsInteger() || t == element.Boolean }
