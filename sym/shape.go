package sym

import (
	"github.com/reshape-go/reshape/shape"
)

// Shape is a partial shape whose dimensions are Dims: integers, expressions in symbols, or
// intervals; or a shape of dynamic rank (RankDynamic, Dims ignored). The zero Shape is the scalar
// "[]".
type Shape struct {
	Dims        []Dim
	RankDynamic bool
}

// DynamicRank returns the shape of unknown rank, "[...]".
func DynamicRank() Shape { return Shape{RankDynamic: true} }

// ShapeOf returns the shape with the given dims; it keeps dims.
func ShapeOf(dims ...Dim) Shape { return Shape{Dims: dims} }

// Ints returns the static shape dims, in a new slice.
func Ints(dims ...int64) Shape {
	s := Shape{Dims: make([]Dim, len(dims))}
	for i, d := range dims {
		s.Dims[i] = Const(d)
	}
	return s
}

// FromShapes returns the shape of a partial shape of package shape: its intervals, no expressions.
func FromShapes(s shape.Shape) Shape {
	if s.RankDynamic {
		return DynamicRank()
	}
	out := Shape{Dims: make([]Dim, len(s.Dims))}
	for i, d := range s.Dims {
		out.Dims[i] = FromShape(d)
	}
	return out
}

// Rank returns the rank; ok is false for a dynamic rank.
func (s Shape) Rank() (int, bool) { return len(s.Dims), !s.RankDynamic }

// Partial returns s as a partial shape of package shape: each dim's bounds.
func (s Shape) Partial() shape.Shape {
	if s.RankDynamic {
		return shape.DynamicRank()
	}
	out := shape.Shape{Dims: make([]shape.Dim, len(s.Dims))}
	for i, d := range s.Dims {
		out.Dims[i] = d.Shape()
	}
	return out
}

// Determined reports whether s is known exactly: its rank known, and every dim an integer or an
// expression in named symbols (Dim.Determined), which a binding of them turns into integers.
func (s Shape) Determined() bool {
	if s.RankDynamic {
		return false
	}
	for _, d := range s.Dims {
		if !d.Determined() {
			return false
		}
	}
	return true
}

// Static returns the dims of a static shape; ok is false when s is not static.
func (s Shape) Static() ([]int64, bool) {
	if s.RankDynamic {
		return nil, false
	}
	out := make([]int64, len(s.Dims))
	for i, d := range s.Dims {
		n, ok := d.Static()
		if !ok {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// Volume returns the product of the dims; Unknown for a dynamic rank.
func (s Shape) Volume() Dim {
	if s.RankDynamic {
		return Unknown()
	}
	v := Const(1)
	for _, d := range s.Dims {
		v = MulDims(v, d)
	}
	return v
}

// Equal reports whether s and t are known to be the same shape: the same rank and equal dims
// (Dim.Equal); two dynamic ranks are not known to be equal.
func (s Shape) Equal(t Shape) bool {
	if s.RankDynamic || t.RankDynamic || len(s.Dims) != len(t.Dims) {
		return false
	}
	for i, d := range s.Dims {
		if !d.Equal(t.Dims[i]) {
			return false
		}
	}
	return true
}

// Identical reports whether s and t are the same Shape, dim for dim (Dim.Identical).
func (s Shape) Identical(t Shape) bool {
	if s.RankDynamic || t.RankDynamic {
		return s.RankDynamic == t.RankDynamic
	}
	if len(s.Dims) != len(t.Dims) {
		return false
	}
	for i, d := range s.Dims {
		if !d.Identical(t.Dims[i]) {
			return false
		}
	}
	return true
}

// String returns s in the notation: "[N,3,(H+1)//2,?]", "[]" for a scalar, "[...]" for a dynamic
// rank.
func (s Shape) String() string { return string(s.AppendText(nil)) }

// AppendText appends s in the notation of String to b.
func (s Shape) AppendText(b []byte) []byte {
	if s.RankDynamic {
		return append(b, "[...]"...)
	}
	b = append(b, '[')
	for i, d := range s.Dims {
		if i > 0 {
			b = append(b, ',')
		}
		b = d.AppendText(b)
	}
	return append(b, ']')
}

// MarshalText implements encoding.TextMarshaler with the notation of String.
func (s Shape) MarshalText() ([]byte, error) { return s.AppendText(nil), nil }
