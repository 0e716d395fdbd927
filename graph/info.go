package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/sym"
)

// Info is what inference knows of one tensor: its element type, its shape, and for a small integer
// tensor (a shape, a Reshape pattern, indices, a constant) the values of its elements.
type Info struct {
	// Type is the element type; element.Undefined when it is not known or the value is not a
	// tensor (an ONNX sequence). An optional's is the type of the tensor it may hold.
	Type element.Type
	// Shape is the tensor's shape; a dynamic rank when nothing is known of it.
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
	// Optional reports that the value is an ONNX optional: empty, or a tensor of Type and Shape.
	Optional bool
	// FailedAt, when not "", is the path of the node whose error leaves this tensor unknown: the
	// node whose inputs broke its rule, or the first such node upstream. Nothing is inferred
	// downstream of it (NodeResult.Blocked).
	FailedAt string

	// elems bounds the elements of an integer tensor whose values are not known one by one (the
	// Range of a symbolic limit holds 0..T-1): each lies in [elems[0], elems[1]]. nil when nothing
	// is known. Operators that move elements keep it (keepValues).
	elems *[2]sym.Dim

	gen   int   // the generation of the engine's substitutions this Info reflects
	taint taint // where what is not known of it comes from (lost.go)
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
