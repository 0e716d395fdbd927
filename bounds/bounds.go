// Package bounds evaluates the shape subgraphs that compute Reshape patterns — constants and shapes
// through Gather, Concat, Slice, arithmetic and ReduceProd — as values, or as interval bounds where
// shapes are partial, as OpenVINO's bounds evaluation does.
//
// A model file often computes the pattern of a Reshape with a small subgraph, ShapeOf → Gather →
// Concat, rather than storing it as a constant. When the input shape is static, every value of the
// subgraph is known; when it is partial ("[1,8,32..48,?]"), each value is known only as an interval
// [Lo, Hi]. The functions of this package evaluate such a subgraph operation by operation on
// [Value]s, small integer tensors whose elements are intervals, the way OpenVINO's evaluate_lower and
// evaluate_upper (its "bounds evaluation") propagate them, except that each function returns one
// interval per element, computed exactly, rather than a pair of tensors.
//
// The interval arithmetic is exact and never wraps around: the result of each element is the
// smallest interval holding every value the operation gives for values taken inside the input
// intervals, widened only where int64 cannot express it (an upper bound beyond int64 becomes
// [shape.Inf], unbounded; a lower bound below it [NegInf]). An element whose every value overflows
// int64 is an error wrapping errcode.ErrOverflow.
//
// Each function follows an operation of OpenVINO's opset or of ONNX, named in its documentation;
// most follow both, where the two agree. Invalid arguments (an axis out of range, shapes that do not
// match, an index out of range, a division by a static zero) are errors wrapping errcode.ErrSyntax;
// a result that cannot be bounded (Gather with indices that are not static) is an error wrapping
// [ErrUnknown]. Values are small: a result of more than 1<<20 elements is an error wrapping
// errcode.ErrLimit. Every function leaves its arguments unchanged and returns new slices.
package bounds

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// Value is a small integer tensor: its static shape and its elements in row-major order, each a
// static value (Lo == Hi) or an interval [Lo, Hi]; Lo may be NegInf and Hi shape.Inf (unbounded).
//
// Shape holds the dimensions of the tensor in elements (nil or empty for a scalar); Elems holds
// exactly the product of Shape elements. An element with Lo == Hi is the static value Lo, whatever
// it is (math.MinInt64 and math.MaxInt64 included); in an element with Lo < Hi, Lo == NegInf means
// no lower bound and Hi == shape.Inf no upper bound. A valid Value has Lo <= Hi in every element.
// Unlike a shape.Dim, an element may be negative.
type Value struct {
	Shape []int64
	Elems []shape.Dim
}

// NegInf is the lower bound of an element interval that has none, the counterpart of shape.Inf.
// An element with Lo == NegInf < Hi is unbounded below; the element with Lo == Hi == NegInf is the
// static value math.MinInt64.
const NegInf = math.MinInt64

// ErrUnknown is returned when the result cannot be bounded (e.g. Gather with non-static indices);
// callers then treat the value as unknown. It is not one of the reshape package's error codes: it
// says that the evaluation stopped, not that the model is invalid.
var ErrUnknown = errors.New("value unknown")

// maxElems bounds the number of elements of any Value a function of the package builds.
const maxElems = 1 << 20

// Const returns the static value with the given elements (row-major) and shape dims, in elements.
// Without dims the value is 1-D, of shape [len(values)]; an empty, non-nil dims (Const(v,
// []int64{}...)) makes a scalar. It returns an error wrapping errcode.ErrSyntax when a dimension is
// negative or the volume of dims differs from len(values), errcode.ErrLimit when the volume is
// above 1<<20. The constant of OpenVINO's Constant-1 and of ONNX's Constant-13 and initializers.
func Const(values []int64, dims ...int64) (Value, error) {
	if dims == nil {
		dims = []int64{int64(len(values))}
	}
	n, err := volume("const", dims)
	if err != nil {
		return Value{}, err
	}
	if n != len(values) {
		return Value{}, errorf(errcode.ErrSyntax, "const: %d values for shape %s of volume %d", len(values), shape.FormatInts(dims), n)
	}
	v := Value{Shape: append([]int64{}, dims...), Elems: make([]shape.Dim, n)}
	for i, x := range values {
		v.Elems[i] = shape.Static(x)
	}
	return v, nil
}

// ShapeOf returns the 1-D value of the dims of s (intervals as given), of shape [rank of s]: the
// output of OpenVINO's ShapeOf-3 (and ShapeOf-1) and of ONNX's Shape-15 without start and end. A
// dimension [Lo, shape.Inf] keeps its meaning, unbounded above. It returns an error wrapping
// ErrUnknown for a dynamic rank (the length of the value is unknown), and one wrapping
// errcode.ErrSyntax for a dimension that is not valid (negative, or Lo > Hi).
func ShapeOf(s shape.Shape) (Value, error) {
	if s.RankDynamic {
		return Value{}, fmt.Errorf("shapeof: the shape %s has a dynamic rank: %w", s, ErrUnknown)
	}
	v := Value{Shape: []int64{int64(len(s.Dims))}, Elems: make([]shape.Dim, len(s.Dims))}
	for i, d := range s.Dims {
		if !d.Valid() {
			return Value{}, errorf(errcode.ErrSyntax, "shapeof: dim[%d] = [%d, %d] is not a valid dimension", i, d.Lo, d.Hi)
		}
		v.Elems[i] = d
	}
	return v, nil
}

// Ints returns the elements of v in row-major order when all are static; ok is false otherwise.
// The slice is new; a value with no elements gives an empty slice and true.
func (v Value) Ints() (values []int64, ok bool) {
	values = make([]int64, len(v.Elems))
	for i, e := range v.Elems {
		if e.Lo != e.Hi {
			return nil, false
		}
		values[i] = e.Lo
	}
	return values, true
}

// String returns v in the notation of shape.Dim extended to negative numbers: "[2,1..8,?]" for a
// 1-D value, nested brackets "[[1,2],[3,4]]" for higher ranks, and the bare element for a scalar.
// A static element is its number ("-1"); an interval is "lo..hi", the lower bound left out when it
// is 0 ("..5", "?" for [0, Inf]) or when it is NegInf and the upper bound is negative ("..-1"); it
// is written "-inf" otherwise ("-inf..5"); the upper bound is left out when it is shape.Inf ("2..",
// "-5.."). A value whose Elems do not match its Shape is written "<invalid value>".
func (v Value) String() string {
	n, err := shape.Volume(v.Shape)
	if err != nil || n != int64(len(v.Elems)) {
		return "<invalid value>"
	}
	if len(v.Shape) == 0 {
		return string(appendElem(nil, v.Elems[0]))
	}
	b, _ := appendNested(nil, v.Shape, v.Elems)
	return string(b)
}

// appendNested appends the elements of a value of shape dims (rank >= 1) and returns the elements
// that were not used.
func appendNested(b []byte, dims []int64, elems []shape.Dim) ([]byte, []shape.Dim) {
	b = append(b, '[')
	for i := int64(0); i < dims[0]; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		if len(dims) == 1 {
			b = appendElem(b, elems[0])
			elems = elems[1:]
		} else {
			b, elems = appendNested(b, dims[1:], elems)
		}
	}
	return append(b, ']'), elems
}

func appendElem(b []byte, d shape.Dim) []byte {
	switch {
	case d.Lo == d.Hi:
		return strconv.AppendInt(b, d.Lo, 10)
	case d.Lo == 0 && d.Hi == shape.Inf:
		return append(b, '?')
	}
	switch {
	case d.Lo == 0, d.Lo == NegInf && d.Hi < 0:
	case d.Lo == NegInf:
		b = append(b, "-inf"...)
	default:
		b = strconv.AppendInt(b, d.Lo, 10)
	}
	b = append(b, '.', '.')
	if d.Hi != shape.Inf {
		b = strconv.AppendInt(b, d.Hi, 10)
	}
	return b
}

// check returns an error wrapping errcode.ErrSyntax when v is not a valid Value: a negative
// dimension, a volume that differs from len(Elems), an element with Lo > Hi.
func (v Value) check(op, name string) error {
	n, err := volume(op, v.Shape)
	if err != nil {
		return err
	}
	if n != len(v.Elems) {
		return errorf(errcode.ErrSyntax, "%s: %s has %d elements for shape %s", op, name, len(v.Elems), shape.FormatInts(v.Shape))
	}
	for i, e := range v.Elems {
		if e.Lo > e.Hi {
			return errorf(errcode.ErrSyntax, "%s: %s element %d is the empty interval [%d, %d]", op, name, i, e.Lo, e.Hi)
		}
	}
	return nil
}

// volume returns the product of the static dimensions dims, checked: an error wraps
// errcode.ErrSyntax for a negative dimension, errcode.ErrLimit for a volume above maxElems.
func volume(op string, dims []int64) (int, error) {
	n := int64(1)
	zero := false
	for i, d := range dims {
		switch {
		case d < 0:
			return 0, errorf(errcode.ErrSyntax, "%s: dim[%d] = %d: a dimension cannot be negative", op, i, d)
		case d == 0:
			zero = true
		case n <= maxElems:
			n, _ = shape.Mul(n, min(d, maxElems+1))
		}
	}
	switch {
	case zero:
		return 0, nil
	case n > maxElems:
		return 0, errorf(errcode.ErrLimit, "%s: shape %s has more than %d elements", op, shape.FormatInts(dims), maxElems)
	}
	return int(n), nil
}

// prod returns the product of dims, which the caller knows is at most maxElems.
func prod(dims []int64) int {
	n := 1
	for _, d := range dims {
		n *= int(d)
	}
	return n
}

// normAxis returns axis counted from the front of rank dimensions: an axis in [-rank, rank-1],
// negative ones counting from the end. It returns an error wrapping errcode.ErrSyntax otherwise.
func normAxis(op string, axis int64, rank int) (int, error) {
	r := int64(rank)
	if axis < -r || axis >= r {
		return 0, errorf(errcode.ErrSyntax, "%s: axis %d is out of range for rank %d", op, axis, rank)
	}
	if axis < 0 {
		axis += r
	}
	return int(axis), nil
}

func errorf(sentinel error, format string, args ...any) error {
	return errcode.Errorf(sentinel, format, args...)
}
