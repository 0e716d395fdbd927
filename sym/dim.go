package sym

import (
	"strconv"

	"github.com/reshape-go/reshape/shape"
)

// Dim is what is known of one dimension, or of one element of an integer tensor such as a shape
// or a Reshape pattern (which may be negative): its value as an expression when one is known, and
// always its interval bounds [Lo, Hi], which may be tighter than the expression's own. Lo may be
// NegInf and Hi Inf (no bound). The zero Dim is the constant 0.
type Dim struct {
	e      Expr
	exact  bool
	lo, hi int64
}

// Const returns the Dim holding the integer n. It does not allocate: the expression of a static
// Dim is made when Expr asks for it.
func Const(n int64) Dim { return Dim{lo: n, hi: n} }

// Of returns the Dim whose value is e, with e's bounds.
func Of(e Expr) Dim {
	if n, ok := e.Const(); ok {
		return Const(n)
	}
	lo, hi := e.Bounds()
	return Dim{e: e, exact: true, lo: lo, hi: hi}
}

// Interval returns a Dim known only by its bounds [lo, hi] (hi may be Inf, lo NegInf); lo == hi is
// the constant.
func Interval(lo, hi int64) Dim {
	if lo == hi {
		return Const(lo)
	}
	return Dim{lo: lo, hi: hi}
}

// Unknown returns the dimension known only to be non-negative, "?": the interval [0, Inf].
func Unknown() Dim { return Dim{lo: 0, hi: Inf} }

// UnknownValue returns the integer known not at all, of bounds [NegInf, Inf].
func UnknownValue() Dim { return Dim{lo: NegInf, hi: Inf} }

// FromShape returns the Dim of an interval dimension of package shape.
func FromShape(d shape.Dim) Dim { return Interval(d.Lo, d.Hi) }

// Expr returns d's value as an expression; ok is false when only its bounds are known.
func (d Dim) Expr() (e Expr, ok bool) {
	if d.lo == d.hi {
		return Int(d.lo), true
	}
	return d.e, d.exact
}

// Bounds returns d's interval bounds.
func (d Dim) Bounds() (lo, hi int64) { return d.lo, d.hi }

// Static returns d's value when it is a single integer.
func (d Dim) Static() (n int64, ok bool) {
	if d.lo == d.hi {
		return d.lo, true
	}
	return 0, false
}

// Determined reports whether d's value is known as an integer or an expression in named symbols:
// what a binding of the model's symbols turns into an integer.
func (d Dim) Determined() bool {
	if d.lo == d.hi {
		return true
	}
	return d.exact && !d.e.DependsOnAnon()
}

// Equal reports whether d and e are known to be equal: the same expression, or the same integer.
func (d Dim) Equal(e Dim) bool {
	if d.lo == d.hi && e.lo == e.hi {
		return d.lo == e.lo
	}
	return d.exact && e.exact && d.e.Equal(e.e)
}

// Identical reports whether d and e are the same Dim: the same expression or none, and the same
// bounds.
func (d Dim) Identical(e Dim) bool {
	if d.lo == d.hi || e.lo == e.hi {
		return d.lo == e.lo && d.hi == e.hi
	}
	return d.exact == e.exact && d.lo == e.lo && d.hi == e.hi && (!d.exact || d.e.Equal(e.e))
}

// Compatible reports whether d and e may take a value in common: their intervals meet.
func (d Dim) Compatible(e Dim) bool { return d.lo <= e.hi && e.lo <= d.hi }

// Narrow returns d with its bounds intersected with [lo, hi]; ok is false when they do not meet.
// A Dim narrowed to one value becomes that constant.
func (d Dim) Narrow(lo, hi int64) (Dim, bool) {
	nlo, nhi := max(d.lo, lo), min(d.hi, hi)
	if nlo > nhi {
		return d, false
	}
	if nlo == nhi {
		return Const(nlo), true
	}
	d.lo, d.hi = nlo, nhi
	return d, true
}

// NonNegative returns d narrowed to [0, Inf], as a dimension; ok is false when d is negative.
func (d Dim) NonNegative() (Dim, bool) { return d.Narrow(0, Inf) }

// Shape returns d's bounds as a dimension interval of package shape, clamped at 0.
func (d Dim) Shape() shape.Dim { return shape.Dim{Lo: max(d.lo, 0), Hi: max(d.hi, 0)} }

// String returns d in the notation of the package documentation: an integer, an expression in
// named symbols ("B*T", "(H+1)//2"), or the interval of its values ("?", "2..5", "1..", "..8",
// "-inf..-1") when no such expression is known.
func (d Dim) String() string { return string(d.AppendText(nil)) }

// AppendText appends d in the notation of String to b.
func (d Dim) AppendText(b []byte) []byte {
	switch {
	case d.lo == d.hi:
		return strconv.AppendInt(b, d.lo, 10)
	case d.exact && !d.e.DependsOnAnon():
		return d.e.AppendText(b)
	case (d.lo == 0 || d.lo == NegInf) && d.hi == Inf:
		return append(b, '?')
	}
	switch {
	case d.lo == 0, d.lo == NegInf && d.hi < 0:
	case d.lo == NegInf:
		b = append(b, "-inf"...)
	default:
		b = strconv.AppendInt(b, d.lo, 10)
	}
	b = append(b, '.', '.')
	if d.hi != Inf {
		b = strconv.AppendInt(b, d.hi, 10)
	}
	return b
}

// MarshalText implements encoding.TextMarshaler with the notation of String.
func (d Dim) MarshalText() ([]byte, error) { return d.AppendText(nil), nil }

func (d Dim) ival() ival {
	return ivalOf(d.lo, d.hi)
}

// op applies an expression operation and its interval counterpart to two Dims.
func op(a, b Dim, f func(x, y Expr) (Expr, bool), g func(x, y ival) ival) Dim {
	v := g(a.ival(), b.ival())
	lo, hi, ok := v.bounds()
	if !ok {
		lo, hi = NegInf, Inf
	}
	if lo == hi {
		// The expression's value, when there is one, is this constant too: the usual case of
		// static dims, without making expressions of them.
		return Const(lo)
	}
	ea, oka := a.Expr()
	eb, okb := b.Expr()
	if oka && okb {
		if e, ok := f(ea, eb); ok {
			d, ok := Of(e).Narrow(lo, hi)
			if ok {
				return d
			}
		}
	}
	return Interval(lo, hi)
}

// AddDims returns a+b.
func AddDims(a, b Dim) Dim { return op(a, b, Add, addI) }

// SubDims returns a-b.
func SubDims(a, b Dim) Dim {
	return op(a, b, Sub, func(x, y ival) ival { return addI(x, negI(y)) })
}

// MulDims returns a·b.
func MulDims(a, b Dim) Dim {
	if b.lo == b.hi {
		a, b = b, a
	}
	if a.lo != a.hi || a.lo == 0 || b.lo == b.hi || !b.exact {
		return op(a, b, Mul, mulI)
	}
	// A constant other than 0 times an expression (a volume, a flattened dim): its terms scaled,
	// without making an expression of the constant.
	v := mulI(a.ival(), b.ival())
	lo, hi, ok := v.bounds()
	if !ok {
		lo, hi = NegInf, Inf
	}
	if e, ok := scaleTerms(b.e, ratInt(a.lo)); ok {
		if d, ok := Of(e).Narrow(lo, hi); ok {
			return d
		}
	}
	return Interval(lo, hi)
}

// FloorDivDims returns floor(a/b) (Python's a//b). A divisor that may be 0 leaves the result
// unbounded unless both are exact; b must not be the constant 0.
func FloorDivDims(a, b Dim) Dim {
	return op(a, b, FloorDiv, func(x, y ival) ival {
		if y.containsZero() {
			return whole
		}
		return floorDivI(x, y)
	})
}

// CeilDivDims returns ceil(a/b).
func CeilDivDims(a, b Dim) Dim {
	return op(a, b, CeilDiv, func(x, y ival) ival {
		if y.containsZero() {
			return whole
		}
		return negI(floorDivI(negI(x), y))
	})
}

// QuoDims returns the exact quotient a/b, for operands known to divide (a run fails otherwise).
func QuoDims(a, b Dim) Dim {
	return op(a, b, Quo, func(x, y ival) ival {
		y = divisor(y)
		if y.containsZero() {
			return whole
		}
		return divI(x, y)
	})
}

// TruncDivDims returns a/b rounded toward zero (ONNX Div and C on integers): floor for operands of
// the same sign, ceil otherwise, and the hull of both when the signs are not known.
func TruncDivDims(a, b Dim) Dim {
	switch {
	case a.lo >= 0 && b.lo > 0, a.hi <= 0 && b.hi < 0:
		return FloorDivDims(a, b)
	case a.lo >= 0 && b.hi < 0, a.hi <= 0 && b.lo > 0:
		return CeilDivDims(a, b)
	}
	f, c := FloorDivDims(a, b), CeilDivDims(a, b)
	return Interval(min(f.lo, c.lo), max(f.hi, c.hi))
}

// ModDims returns a mod b with the sign of b (Python's %).
func ModDims(a, b Dim) Dim {
	return op(a, b, Mod, func(x, y ival) ival {
		if y.containsZero() {
			return whole
		}
		return modI(x, y)
	})
}

// MinDims returns the lesser of a and b: one of them when their bounds or their difference tell
// which, min(a,b) (Min) when both are expressions, the interval of the minimum otherwise.
func MinDims(a, b Dim) Dim {
	if c, ok := compare(a, b); ok {
		if c <= 0 {
			return a
		}
		return b
	}
	return op(a, b, Min, func(x, y ival) ival { return ival{minX(x.lo, y.lo), minX(x.hi, y.hi)} })
}

// MaxDims returns the greater of a and b, as MinDims: max(A,B) for two symbols either of which may
// be the greater, the size of a broadcast of A and B under A == B || A == 1 || B == 1.
func MaxDims(a, b Dim) Dim {
	if c, ok := compare(a, b); ok {
		if c >= 0 {
			return a
		}
		return b
	}
	return op(a, b, Max, func(x, y ival) ival { return ival{maxX(x.lo, y.lo), maxX(x.hi, y.hi)} })
}

// compare returns the sign of a-b (-1, 0 or +1) when it is the same for every value of the symbols
// (bounds and expressions decide); ok is false otherwise.
func compare(a, b Dim) (int, bool) {
	switch {
	case a.Equal(b):
		return 0, true
	case a.hi <= b.lo: // a <= b
		return -1, true
	case b.hi <= a.lo:
		return 1, true
	}
	ea, oka := a.Expr()
	eb, okb := b.Expr()
	switch {
	case oka && okb && le(ea, eb):
		return -1, true
	case oka && okb && le(eb, ea):
		return 1, true
	}
	return 0, false
}
