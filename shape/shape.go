package shape

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/errcode"
)

// Shape is an OpenVINO partial shape: a list of dimension intervals, or a shape whose rank itself is
// unknown (RankDynamic). The zero Shape is the scalar shape "[]" (rank 0, volume 1).
// When RankDynamic is true, Dims is ignored.
type Shape struct {
	Dims        []Dim
	RankDynamic bool
}

// DynamicRank returns the shape of dynamic rank, "[...]".
func DynamicRank() Shape { return Shape{RankDynamic: true} }

// Of returns the shape with the given dimensions. It keeps dims, it does not copy them.
func Of(dims ...Dim) Shape { return Shape{Dims: dims} }

// OfInts returns the static shape with the given dimensions (in elements), in a new slice.
func OfInts(dims ...int64) Shape {
	s := Shape{Dims: make([]Dim, len(dims))}
	for i, d := range dims {
		s.Dims[i] = Static(d)
	}
	return s
}

// Rank returns the number of dimensions of s; ok is false when the rank is dynamic.
func (s Shape) Rank() (rank int, ok bool) {
	if s.RankDynamic {
		return 0, false
	}
	return len(s.Dims), true
}

// IsStatic reports whether the rank and every dimension of s are static.
func (s Shape) IsStatic() bool {
	if s.RankDynamic {
		return false
	}
	for _, d := range s.Dims {
		if !d.IsStatic() {
			return false
		}
	}
	return true
}

// AppendStatic appends the dimensions of a static shape, in elements, to dst and returns the
// extended slice; ok is false, and dst is returned unchanged, when s is not static.
func (s Shape) AppendStatic(dst []int64) (dims []int64, ok bool) {
	if !s.IsStatic() {
		return dst, false
	}
	for _, d := range s.Dims {
		dst = append(dst, d.Lo)
	}
	return dst, true
}

// Volume returns the interval of possible volumes (products of the dimensions) of s, in elements.
// The upper bound saturates at Inf; a dynamic rank gives [0, Inf]. It returns an error wrapping
// errcode.ErrOverflow when even the lower bound does not fit in an int64.
func (s Shape) Volume() (Dim, error) {
	if s.RankDynamic {
		return Dynamic, nil
	}
	var p Product
	for _, d := range s.Dims {
		p.Mul(d)
	}
	v, ok := p.Result()
	if !ok {
		return Dim{}, errcode.New(errcode.ErrOverflow, -1, "the volume of "+s.String()+" overflows int64")
	}
	return v, nil
}

// Compatible reports whether some static shape lies in both s and t: a dynamic rank is compatible
// with every shape; otherwise the ranks are equal and every pair of dimensions is compatible.
func (s Shape) Compatible(t Shape) bool {
	if s.RankDynamic || t.RankDynamic {
		return true
	}
	if len(s.Dims) != len(t.Dims) {
		return false
	}
	for i, d := range s.Dims {
		if !d.Compatible(t.Dims[i]) {
			return false
		}
	}
	return true
}

// Equal reports whether s and t are the same partial shape.
func (s Shape) Equal(t Shape) bool {
	if s.RankDynamic || t.RankDynamic {
		return s.RankDynamic == t.RankDynamic
	}
	if len(s.Dims) != len(t.Dims) {
		return false
	}
	for i, d := range s.Dims {
		if d != t.Dims[i] {
			return false
		}
	}
	return true
}

// String returns s in OpenVINO's notation: "[2,?,1..8]", "[]" for a scalar, "[...]" for a dynamic
// rank.
func (s Shape) String() string { return string(s.appendTo(nil)) }

// AppendText implements encoding.TextAppender with the notation of String. It does not allocate
// when b has room, and never fails.
func (s Shape) AppendText(b []byte) ([]byte, error) { return s.appendTo(b), nil }

// MarshalText implements encoding.TextMarshaler with the notation of String.
func (s Shape) MarshalText() ([]byte, error) { return s.appendTo(nil), nil }

// UnmarshalText implements encoding.TextUnmarshaler with the notation of Parse.
func (s *Shape) UnmarshalText(text []byte) error {
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

func (s Shape) appendTo(b []byte) []byte {
	if s.RankDynamic {
		return append(b, "[...]"...)
	}
	b = append(b, '[')
	for i, d := range s.Dims {
		if i > 0 {
			b = append(b, ',')
		}
		b = d.appendTo(b)
	}
	return append(b, ']')
}

// Parse parses a partial shape in the notation of the package documentation: "[2,?,1..8,..5,3..]",
// "[]" (scalar), "[...]" (dynamic rank). The brackets may be left out ("2,?,3", as IR files write
// shapes; "" is then the scalar), spaces around dimensions are ignored, and -1 is read as "?".
// Errors wrap errcode.ErrSyntax, or errcode.ErrOverflow for a number that does not fit in an int64, and name the
// offending dimension.
func Parse(s string) (Shape, error) {
	inner := strings.TrimSpace(s)
	if strings.HasPrefix(inner, "[") || strings.HasSuffix(inner, "]") {
		if len(inner) < 2 || inner[0] != '[' || inner[len(inner)-1] != ']' {
			return Shape{}, errcode.New(errcode.ErrSyntax, -1, "shape "+strconv.Quote(s)+": unbalanced brackets")
		}
		inner = strings.TrimSpace(inner[1 : len(inner)-1])
	}
	switch inner {
	case "":
		return Shape{}, nil
	case "...":
		return DynamicRank(), nil
	}
	dims := make([]Dim, 0, strings.Count(inner, ",")+1)
	for i := 0; ; i++ {
		field, rest, more := strings.Cut(inner, ",")
		d, err := ParseDim(field)
		if err != nil {
			return Shape{}, fmt.Errorf("shape %q: dim[%d]: %w", s, i, err)
		}
		dims = append(dims, d)
		if !more {
			break
		}
		inner = rest
	}
	return Shape{Dims: dims}, nil
}

// ParseDim parses one dimension: "3", "?" or "-1" (dynamic), "2..5", "2..", "..5" or "..".
// Errors wrap errcode.ErrSyntax, or errcode.ErrOverflow for a bound that does not fit in an int64.
// "9223372036854775807" (math.MaxInt64) is the static dimension Dim{Inf, Inf}.
func ParseDim(s string) (Dim, error) {
	t := strings.TrimSpace(s)
	switch t {
	case "?", "-1":
		return Dynamic, nil
	}
	lo, hi, isInterval := strings.Cut(t, "..")
	if !isInterval {
		n, err := parseBound(t, s)
		return Dim{n, n}, err
	}
	d := Dim{0, Inf}
	var err error
	if lo != "" {
		if d.Lo, err = parseBound(lo, s); err != nil {
			return Dim{}, err
		}
	}
	if hi != "" {
		if d.Hi, err = parseBound(hi, s); err != nil {
			return Dim{}, err
		}
	}
	if d.Lo > d.Hi {
		return Dim{}, errcode.New(errcode.ErrSyntax, -1, strconv.Quote(s)+": empty interval, lower bound above upper bound")
	}
	return d, nil
}

// parseBound parses a non-negative decimal dimension value t, quoting whole in errors.
func parseBound(t, whole string) (int64, error) {
	if t == "" || t[0] < '0' || t[0] > '9' {
		if t != "" && t[0] == '-' {
			if _, err := strconv.ParseInt(t, 10, 64); err == nil {
				return 0, errcode.New(errcode.ErrSyntax, -1, strconv.Quote(whole)+": a dimension cannot be negative")
			}
		}
		return 0, errcode.New(errcode.ErrSyntax, -1, strconv.Quote(whole)+": not a dimension (want a number, ?, or an interval lo..hi)")
	}
	n, err := strconv.ParseInt(t, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, errcode.New(errcode.ErrOverflow, -1, strconv.Quote(whole)+": dimension does not fit in an int64")
	case err != nil:
		return 0, errcode.New(errcode.ErrSyntax, -1, strconv.Quote(whole)+": not a dimension (want a number, ?, or an interval lo..hi)")
	}
	return n, nil
}
