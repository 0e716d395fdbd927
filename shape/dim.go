package shape

import (
	"math"
	"math/bits"
	"strconv"

	"github.com/reshape-go/reshape/errcode"
)

// Inf is the upper bound of a dimension interval that has none: a Dim with Lo < Hi == Inf is
// unbounded. Dim{Inf, Inf} is the static dimension math.MaxInt64, the largest an int64 holds: the
// two readings agree, since no larger value is representable.
const Inf = math.MaxInt64

// Dim is one dimension of a partial shape: the interval [Lo, Hi] of the values it may take, in
// elements. A valid Dim has 0 <= Lo <= Hi; Hi == Inf means no upper bound.
type Dim struct {
	Lo, Hi int64
}

// Dynamic is the fully dynamic dimension "?", the interval [0, Inf].
var Dynamic = Dim{0, Inf}

// Static returns the static dimension n, the interval [n, n].
func Static(n int64) Dim { return Dim{n, n} }

// Interval returns the dimension interval [lo, hi]; hi may be Inf.
func Interval(lo, hi int64) Dim { return Dim{lo, hi} }

// IsStatic reports whether d holds a single value.
func (d Dim) IsStatic() bool { return d.Lo == d.Hi }

// IsDynamic reports whether d is the fully dynamic dimension "?".
func (d Dim) IsDynamic() bool { return d.Lo == 0 && d.Hi == Inf }

// Valid reports whether 0 <= d.Lo <= d.Hi.
func (d Dim) Valid() bool { return 0 <= d.Lo && d.Lo <= d.Hi }

// Contains reports whether the value n lies in d.
func (d Dim) Contains(n int64) bool { return d.Lo <= n && n <= d.Hi }

// Compatible reports whether d and e have a value in common, as OpenVINO's Dimension::compatible.
func (d Dim) Compatible(e Dim) bool { return d.Lo <= e.Hi && e.Lo <= d.Hi }

// Mul returns the interval product d·e of two valid dimensions. The upper bound saturates at Inf;
// ok is false when the lower bound overflows int64 (every value of the product would).
func (d Dim) Mul(e Dim) (p Dim, ok bool) {
	var acc Product
	acc.Mul(d)
	acc.Mul(e)
	return acc.Result()
}

// Product accumulates the interval product of dimensions exactly: a zero bound anywhere makes that
// bound of the product 0, whatever the other factors are; an upper bound that overflows saturates at
// Inf; a lower bound that overflows makes the product unrepresentable. The zero Product is the empty
// product, 1.
type Product struct {
	lo, hi                 int64
	started                bool
	loZero, hiZero, loOver bool
}

// Mul multiplies the product by the valid dimension d.
func (p *Product) Mul(d Dim) {
	if !p.started {
		p.lo, p.hi, p.started = 1, 1, true
	}
	if d.Lo == 0 {
		p.loZero = true
	} else if !p.loOver {
		var ok bool
		p.lo, ok = Mul(p.lo, d.Lo)
		p.loOver = !ok
	}
	switch {
	case d.Hi == 0:
		p.hiZero = true
	case p.hi == Inf:
	case d.Hi == Inf:
		p.hi = Inf
	default:
		h, ok := Mul(p.hi, d.Hi)
		if !ok {
			h = Inf
		}
		p.hi = h
	}
}

// Result returns the product; ok is false when its lower bound overflows int64.
func (p *Product) Result() (d Dim, ok bool) {
	switch {
	case !p.started:
		return Static(1), true
	case p.hiZero:
		return Static(0), true
	case p.loZero:
		return Dim{0, p.hi}, true
	case p.loOver:
		return Dim{}, false
	}
	return Dim{p.lo, p.hi}, true
}

// String returns d in OpenVINO's notation: "3", "?", "2..5", "2..", "..5".
func (d Dim) String() string { return string(d.appendTo(nil)) }

// AppendText implements encoding.TextAppender: it appends d in OpenVINO's notation to b.
// It does not allocate when b has room, and never fails.
func (d Dim) AppendText(b []byte) ([]byte, error) { return d.appendTo(b), nil }

// MarshalText implements encoding.TextMarshaler with the notation of String.
func (d Dim) MarshalText() ([]byte, error) { return d.appendTo(nil), nil }

// UnmarshalText implements encoding.TextUnmarshaler with the notation of ParseDim.
func (d *Dim) UnmarshalText(text []byte) error {
	v, err := ParseDim(string(text))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

func (d Dim) appendTo(b []byte) []byte {
	switch {
	case d.Lo == d.Hi:
		return strconv.AppendInt(b, d.Lo, 10)
	case d.Lo == 0 && d.Hi == Inf:
		return append(b, '?')
	}
	if d.Lo != 0 {
		b = strconv.AppendInt(b, d.Lo, 10)
	}
	b = append(b, '.', '.')
	if d.Hi != Inf {
		b = strconv.AppendInt(b, d.Hi, 10)
	}
	return b
}

// Mul returns a·b for non-negative a and b; ok is false when the product does not fit in an int64.
// A zero factor always gives 0.
func Mul(a, b int64) (p int64, ok bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

// Volume returns the product of the static dimensions dims, in elements; the volume of a scalar
// (no dims) is 1. A zero dimension makes the volume 0 whatever the others are. It returns an error
// wrapping errcode.ErrOverflow when the product does not fit in an int64, and one wrapping
// errcode.ErrSyntax when a
// dimension is negative.
func Volume(dims []int64) (int64, error) {
	v, zero, overflow := int64(1), false, false
	for i, d := range dims {
		switch {
		case d < 0:
			return 0, errcode.New(errcode.ErrSyntax, -1, "dim["+strconv.Itoa(i)+"] = "+strconv.FormatInt(d, 10)+": a dimension cannot be negative")
		case d == 0:
			zero = true
		case !overflow:
			var ok bool
			v, ok = Mul(v, d)
			overflow = !ok
		}
	}
	switch {
	case zero:
		return 0, nil
	case overflow:
		return 0, errcode.New(errcode.ErrOverflow, -1, "the volume of "+FormatInts(dims)+" overflows int64")
	}
	return v, nil
}

// FillStrides writes into strides[:len(dims)] the dense row-major (C-order) strides of the static
// shape dims for elements of size units each (bytes, or 1 to count elements): the last axis has
// stride size, and every other axis the stride of the next times the next's dimension, a dimension
// of 0 counting as 1 (so that a shape without elements has the strides of one with). strides must
// hold len(dims) values.
func FillStrides(strides, dims []int64, size int64) {
	for i := len(dims) - 1; i >= 0; i-- {
		strides[i] = size
		size *= max(dims[i], 1)
	}
}

// FormatInts returns the static shape dims in the notation, "[2,3,4]".
func FormatInts(dims []int64) string { return string(appendInts(nil, dims)) }

// appendInts appends the static shape dims in the notation to b and returns the extended buffer.
func appendInts(b []byte, dims []int64) []byte {
	b = append(b, '[')
	for i, d := range dims {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, d, 10)
	}
	return append(b, ']')
}
