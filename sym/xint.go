package sym

import (
	"math"
	"math/bits"
	"strconv"
)

// NegInf is the lower bound of an interval that has none: an element of a shape value (an integer,
// which may be negative) is unbounded below when its Lo is NegInf and Lo < Hi.
const NegInf = math.MinInt64

// Inf is the upper bound of an interval that has none, as shape.Inf.
const Inf = math.MaxInt64

// xint is an extended integer: a finite int64 v (inf == 0), or -∞ (inf == -1) or +∞ (inf == +1).
// Arithmetic on xint is exact: a result beyond int64 becomes the infinity of its sign. The
// infinities are bounds, limits of finite values, never values: 0·∞ is 0.
type xint struct {
	v   int64
	inf int8
}

var (
	minusInf = xint{inf: -1}
	plusInf  = xint{inf: +1}
)

func fin(v int64) xint { return xint{v: v} }

func (a xint) sign() int {
	switch {
	case a.inf != 0:
		return int(a.inf)
	case a.v < 0:
		return -1
	case a.v > 0:
		return 1
	}
	return 0
}

func cmpX(a, b xint) int {
	switch {
	case a.inf != b.inf:
		if a.inf < b.inf {
			return -1
		}
		return 1
	case a.inf != 0 || a.v == b.v:
		return 0
	case a.v < b.v:
		return -1
	}
	return 1
}

func minX(a, b xint) xint {
	if cmpX(a, b) <= 0 {
		return a
	}
	return b
}

func maxX(a, b xint) xint {
	if cmpX(a, b) >= 0 {
		return a
	}
	return b
}

// fit128 returns the two's complement 128-bit integer hi:lo as an xint, the infinity of its sign
// when it does not fit in an int64.
func fit128(hi, lo uint64) xint {
	switch {
	case hi == uint64(int64(lo)>>63):
		return fin(int64(lo))
	case int64(hi) < 0:
		return minusInf
	}
	return plusInf
}

// addX returns a+b; the callers never add infinities of opposite signs.
func addX(a, b xint) xint {
	switch {
	case a.inf != 0:
		return a
	case b.inf != 0:
		return b
	}
	lo, carry := bits.Add64(uint64(a.v), uint64(b.v), 0)
	hi, _ := bits.Add64(uint64(a.v>>63), uint64(b.v>>63), carry)
	return fit128(hi, lo)
}

func negX(a xint) xint {
	if a.inf != 0 {
		return xint{inf: -a.inf}
	}
	if a.v == math.MinInt64 {
		return plusInf
	}
	return fin(-a.v)
}

func abs64(a int64) uint64 {
	if a < 0 {
		return -uint64(a)
	}
	return uint64(a)
}

// mulX returns a·b; a zero factor gives 0 whatever the other is.
func mulX(a, b xint) xint {
	sa, sb := a.sign(), b.sign()
	switch {
	case sa == 0 || sb == 0:
		return fin(0)
	case a.inf != 0 || b.inf != 0:
		return xint{inf: int8(sa * sb)}
	}
	hi, lo := bits.Mul64(abs64(a.v), abs64(b.v))
	switch {
	case sa != sb && hi == 0 && lo <= 1<<63:
		return fin(int64(-lo))
	case sa == sb && hi == 0 && lo <= math.MaxInt64:
		return fin(int64(lo))
	}
	return xint{inf: int8(sa * sb)}
}

// divX returns a/b for b != 0 rounded toward -∞ (floor) or toward +∞ (ceil). An infinite operand
// is the limit: finite/±∞ is 0 (or -1 for a floor, +1 for a ceil, of a quotient of magnitude below
// 1 and of that sign); ±∞/b is the infinity of the quotient's sign.
func divX(a, b xint, ceil bool) xint {
	sa, sb := a.sign(), b.sign()
	switch {
	case b.inf != 0:
		switch {
		case sa == 0:
			return fin(0)
		case sa != sb && !ceil:
			return fin(-1)
		case sa == sb && ceil:
			return fin(1)
		}
		return fin(0)
	case a.inf != 0:
		return xint{inf: int8(sa * sb)}
	case a.v == math.MinInt64 && b.v == -1:
		return plusInf
	}
	q, r := a.v/b.v, a.v%b.v
	if r != 0 {
		if (sa == sb) == ceil { // positive quotient rounded up, or negative rounded down
			if ceil {
				q++
			} else {
				q--
			}
		}
	}
	return fin(q)
}

func (a xint) String() string {
	switch a.inf {
	case -1:
		return "-inf"
	case 1:
		return "+inf"
	}
	return strconv.FormatInt(a.v, 10)
}

// ival is an interval of extended integers, lo <= hi.
type ival struct{ lo, hi xint }

func point(v int64) ival { return ival{fin(v), fin(v)} }

var whole = ival{minusInf, plusInf}

// ivalOf reads the bounds of a Dim: NegInf and Inf are -∞ and +∞ unless lo == hi.
func ivalOf(lo, hi int64) ival {
	if lo == hi {
		return point(lo)
	}
	x := ival{fin(lo), fin(hi)}
	if lo == NegInf {
		x.lo = minusInf
	}
	if hi == Inf {
		x.hi = plusInf
	}
	return x
}

// bounds returns x as int64 bounds, NegInf and Inf for the infinities. An interval whose bounds
// would read as a static value though it is not one is widened by one; ok is false when every
// value of x is beyond int64.
func (x ival) bounds() (lo, hi int64, ok bool) {
	if x.lo.inf > 0 || x.hi.inf < 0 {
		return 0, 0, false
	}
	lo, hi = NegInf, Inf
	if x.lo.inf == 0 {
		lo = x.lo.v
	}
	if x.hi.inf == 0 {
		hi = x.hi.v
	}
	if lo == hi && (x.lo.inf != 0 || x.hi.inf != 0) {
		if lo == Inf {
			lo--
		} else {
			hi++
		}
	}
	return lo, hi, true
}

func addI(x, y ival) ival { return ival{addX(x.lo, y.lo), addX(x.hi, y.hi)} }

func negI(x ival) ival { return ival{negX(x.hi), negX(x.lo)} }

func corners(f func(a, b xint) xint, x, y ival) ival {
	p1, p2, p3, p4 := f(x.lo, y.lo), f(x.lo, y.hi), f(x.hi, y.lo), f(x.hi, y.hi)
	return ival{minX(minX(p1, p2), minX(p3, p4)), maxX(maxX(p1, p2), maxX(p3, p4))}
}

func mulI(x, y ival) ival { return corners(mulX, x, y) }

// divI returns the interval of a/b for a in x and b in y, rounded outward; y must not contain 0.
func divI(x, y ival) ival {
	lo := corners(func(a, b xint) xint { return divX(a, b, false) }, x, y).lo
	hi := corners(func(a, b xint) xint { return divX(a, b, true) }, x, y).hi
	return ival{lo, hi}
}

// floorDivI returns the interval of floor(a/b) for a in x and b in y; y must not contain 0.
func floorDivI(x, y ival) ival {
	return corners(func(a, b xint) xint { return divX(a, b, false) }, x, y)
}

func (x ival) containsZero() bool { return x.lo.sign() <= 0 && x.hi.sign() >= 0 }

func (x ival) empty() bool { return cmpX(x.lo, x.hi) > 0 }

// floorDiv returns floor(a/b) for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
