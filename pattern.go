package reshape

import (
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/shape"
)

// Pattern is Reshape's second input, the target shape: a tensor of integers, -1 marking the
// inferred dimension and 0 a special zero or a literal 0 (static rules 1-3 of the package
// documentation). Its values may be static, intervals of possible values (the bounds of a computed
// shape; see Partial shapes in the package documentation), or unknown altogether with only the
// pattern tensor's shape known (DynamicReshape before run time). The zero Pattern is the empty 1-D
// pattern, whose output is a scalar.
//
// A Pattern keeps the slice it is built from; do not modify it while the Pattern is in use.
type Pattern struct {
	values []shape.Dim
	// tensor is the shape of the pattern tensor when it is not the plain 1-D [len(values)].
	tensor    shape.Shape
	notVector bool
	unknown   bool
}

// PatternOf returns the 1-D pattern with the given values. A value with Lo == Hi is static (-1 is the
// inferred marker); Lo < Hi is an interval of possible values. It keeps values, it does not copy them.
func PatternOf(values ...shape.Dim) Pattern { return Pattern{values: values} }

// IntPattern returns the 1-D pattern with the given static values, in a new slice.
func IntPattern(values ...int64) Pattern {
	p := Pattern{values: make([]shape.Dim, len(values))}
	for i, v := range values {
		p.values[i] = shape.Static(v)
	}
	return p
}

// ScalarPattern returns a scalar (rank-0) pattern holding v. OpenVINO accepts it when v is 1 and
// gives a scalar output (static rule 6); the other dialects reject it with ErrPatternRank.
func ScalarPattern(v shape.Dim) Pattern {
	return Pattern{values: []shape.Dim{v}, notVector: true}
}

// UnknownPattern returns a pattern whose values are unknown and whose tensor has the shape
// tensorShape: [n] for n unknown values, [2..4] for a length known only as an interval, [] for a
// scalar, [...] when nothing is known.
func UnknownPattern(tensorShape shape.Shape) Pattern {
	return Pattern{tensor: tensorShape, notVector: true, unknown: true}
}

// NewPattern returns the pattern tensor of shape tensorShape holding values in row-major order, or
// the pattern of unknown values when values is nil. The tensor shape must be static and its volume
// must equal len(values), else the error wraps ErrSyntax; a rank of 2 or more is accepted here and
// rejected by inference with ErrPatternRank.
func NewPattern(tensorShape shape.Shape, values []shape.Dim) (Pattern, error) {
	if values == nil {
		return UnknownPattern(tensorShape), nil
	}
	if !tensorShape.IsStatic() {
		return Pattern{}, newError(ErrSyntax, -1, "pattern shape "+tensorShape.String()+" is not static, but the pattern has known values")
	}
	n, err := tensorShape.Volume()
	if err != nil {
		return Pattern{}, err
	}
	if n.Lo != int64(len(values)) {
		return Pattern{}, newError(ErrSyntax, -1, "pattern shape "+tensorShape.String()+" holds "+itoa(n.Lo)+
			" values, but "+strconv.Itoa(len(values))+" are given")
	}
	if len(tensorShape.Dims) == 1 {
		return PatternOf(values...), nil
	}
	return Pattern{values: values, tensor: tensorShape, notVector: true}, nil
}

// Values returns the pattern's values, in row-major order; ok is false when they are unknown.
// The slice is the pattern's own.
func (p Pattern) Values() (values []shape.Dim, ok bool) { return p.values, !p.unknown }

// TensorShape returns the shape of the pattern tensor: [n] for a 1-D pattern of n values.
func (p Pattern) TensorShape() shape.Shape {
	if p.notVector {
		return p.tensor
	}
	return shape.Of(shape.Static(int64(len(p.values))))
}

// IsScalar reports whether the pattern tensor has rank 0.
func (p Pattern) IsScalar() bool {
	return p.notVector && !p.tensor.RankDynamic && len(p.tensor.Dims) == 0
}

// String returns the pattern's values in the notation ParsePattern reads, in brackets:
// "[0,-1,4]", "[]" for the empty pattern, "[1..8,-1]" with intervals. A scalar pattern is its value
// without brackets ("1"), and unknown values are "-".
func (p Pattern) String() string {
	switch {
	case p.unknown:
		return "-"
	case p.IsScalar():
		return valueString(p.values[0])
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range p.values {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(valueString(v))
	}
	b.WriteByte(']')
	return b.String()
}

// valueString prints a pattern value: static values as numbers (so -1 stays -1, where the shape
// notation would read it as "?"), intervals in the shape notation.
func valueString(v shape.Dim) string {
	if v.IsStatic() {
		return itoa(v.Lo)
	}
	return v.String()
}

// ParsePattern parses a 1-D pattern: comma-separated values, optionally in brackets. A value is an
// integer (-1 is the inferred marker; values below -1 parse, and inference rejects them with
// ErrInvalidDim), an interval of possible values "1..8", "2..", "..8", or "?" for a value known only
// to be a dimension (>= 0). "" and "[]" are the empty pattern. Errors wrap ErrSyntax, or
// ErrOverflow for a number that does not fit in an int64, and name the offending value.
func ParsePattern(s string) (Pattern, error) {
	inner := strings.TrimSpace(s)
	if strings.HasPrefix(inner, "[") && strings.HasSuffix(inner, "]") {
		inner = strings.TrimSpace(inner[1 : len(inner)-1])
	}
	if inner == "" {
		return Pattern{values: []shape.Dim{}}, nil
	}
	values := make([]shape.Dim, 0, strings.Count(inner, ",")+1)
	for i := 0; ; i++ {
		field, rest, more := strings.Cut(inner, ",")
		v, err := parseValue(strings.TrimSpace(field))
		if err != nil {
			err.Index = i
			err.Msg = "pattern " + strconv.Quote(s) + ": " + at(i, strconv.Quote(strings.TrimSpace(field))) + ": " + err.Msg
			return Pattern{}, err
		}
		values = append(values, v)
		if !more {
			break
		}
		inner = rest
	}
	return Pattern{values: values}, nil
}

// parseValue parses one pattern value: an integer, "?", or an interval whose bounds may be
// negative (the bounds of a computed value, which OpenVINO reads as "?" when only the lower one is).
// The error's Index is for the caller to set.
func parseValue(f string) (shape.Dim, *Error) {
	if f == "?" {
		return shape.Dynamic, nil
	}
	lo, hi, isInterval := strings.Cut(f, "..")
	if !isInterval {
		n, err := parseInt(f)
		return shape.Static(n), err
	}
	d := shape.Dynamic
	var err *Error
	if lo != "" {
		if d.Lo, err = parseInt(lo); err != nil {
			return d, err
		}
	}
	if hi != "" {
		if d.Hi, err = parseInt(hi); err != nil {
			return d, err
		}
	}
	if d.Lo > d.Hi {
		return d, newError(ErrSyntax, -1, "empty interval, lower bound above upper bound")
	}
	return d, nil
}

func parseInt(f string) (int64, *Error) {
	n, err := strconv.ParseInt(f, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, newError(ErrOverflow, -1, "value does not fit in an int64")
		}
		return 0, newError(ErrSyntax, -1, "not an integer, an interval lo..hi, or ?")
	}
	return n, nil
}

// MarshalText implements encoding.TextMarshaler with the notation of String.
func (p Pattern) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// MarshalJSON implements json.Marshaler: the values in row-major order as an array, static values
// as numbers (-1 included) and intervals as strings of the notation ([0,-1,"1..8"]), or null when
// they are unknown. The array does not tell a scalar pattern from a 1-D one of one value: the
// pattern tensor's shape (TensorShape) does.
func (p Pattern) MarshalJSON() ([]byte, error) {
	if p.unknown {
		return []byte("null"), nil
	}
	return shape.AppendJSON(nil, p.values), nil
}
