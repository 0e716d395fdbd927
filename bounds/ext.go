package bounds

import (
	"math"
	"math/bits"
	"strconv"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// ext is an extended integer: a finite int64 v (inf == 0), or -∞ (inf == -1) or +∞ (inf == +1).
// Arithmetic on ext is exact: a result beyond int64 becomes the infinity of its sign. The
// infinities are bounds, limits of finite values, never values: 0·∞ is 0.
type ext struct {
	v   int64
	inf int8
}

var (
	minusInf = ext{inf: -1}
	plusInf  = ext{inf: +1}
)

func fin(v int64) ext { return ext{v: v} }

// sign returns -1, 0 or +1.
func (a ext) sign() int {
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

// cmp returns -1, 0 or +1 as a < b, a == b, a > b.
func cmp(a, b ext) int {
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

func minExt(a, b ext) ext {
	if cmp(a, b) <= 0 {
		return a
	}
	return b
}

func maxExt(a, b ext) ext {
	if cmp(a, b) >= 0 {
		return a
	}
	return b
}

// fit128 returns the two's complement 128-bit integer hi:lo as an ext, the infinity of its sign
// when it does not fit in an int64.
func fit128(hi, lo uint64) ext {
	switch {
	case hi == uint64(int64(lo)>>63):
		return fin(int64(lo))
	case int64(hi) < 0:
		return minusInf
	}
	return plusInf
}

// add returns a+b. The callers never add infinities of opposite signs (a lower bound is never +∞,
// an upper bound never -∞); a+b then takes the infinity of the infinite operand.
func add(a, b ext) ext {
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

// sub returns a-b, under the same condition as add (a and b are not infinities of the same sign).
func sub(a, b ext) ext {
	switch {
	case a.inf != 0:
		return a
	case b.inf != 0:
		return ext{inf: -b.inf}
	}
	lo, borrow := bits.Sub64(uint64(a.v), uint64(b.v), 0)
	hi, _ := bits.Sub64(uint64(a.v>>63), uint64(b.v>>63), borrow)
	return fit128(hi, lo)
}

// abs64 returns |a| as a uint64, exact for math.MinInt64 too.
func abs64(a int64) uint64 {
	if a < 0 {
		return -uint64(a)
	}
	return uint64(a)
}

// mul returns a·b; a zero factor gives 0 whatever the other is.
func mul(a, b ext) ext {
	sa, sb := a.sign(), b.sign()
	switch {
	case sa == 0 || sb == 0:
		return fin(0)
	case a.inf != 0 || b.inf != 0:
		return ext{inf: int8(sa * sb)}
	}
	hi, lo := bits.Mul64(abs64(a.v), abs64(b.v))
	switch {
	case sa != sb && hi == 0 && lo <= 1<<63:
		return fin(int64(-lo)) // -2^63 included: -lo wraps to it
	case sa == sb && hi == 0 && lo <= math.MaxInt64:
		return fin(int64(lo))
	}
	return ext{inf: int8(sa * sb)}
}

// div returns a/b for b != 0, rounded toward -∞ when floor is set and toward 0 otherwise. An
// infinite operand is the limit: x/±∞ is 0, or -1 for a floor division whose exact quotient is a
// negative number of magnitude below 1 (x and b of opposite signs, x != 0); ±∞/b is the infinity of
// the quotient's sign. With these limits the extremes of a/b over a box of intervals whose divisor
// excludes 0 are at its corners.
func div(a, b ext, floor bool) ext {
	sa, sb := a.sign(), b.sign()
	switch {
	case b.inf != 0:
		if floor && sa != 0 && sa != sb {
			return fin(-1)
		}
		return fin(0)
	case a.inf != 0:
		return ext{inf: int8(sa * sb)}
	case a.v == math.MinInt64 && b.v == -1:
		return plusInf // 2^63
	}
	q := a.v / b.v
	if floor && a.v%b.v != 0 && sa != sb {
		q--
	}
	return fin(q)
}

// iv is an element interval in extended integers, lo <= hi.
type iv struct{ lo, hi ext }

// toIv reads an element: a static element is exact, whatever its value; the bounds NegInf and
// shape.Inf of an interval are -∞ and +∞.
func toIv(d shape.Dim) iv {
	if d.Lo == d.Hi {
		return iv{fin(d.Lo), fin(d.Lo)}
	}
	x := iv{fin(d.Lo), fin(d.Hi)}
	if d.Lo == NegInf {
		x.lo = minusInf
	}
	if d.Hi == shape.Inf {
		x.hi = plusInf
	}
	return x
}

// dim writes x as an element. An interval that int64 cannot hold exactly is widened: an infinite
// bound becomes NegInf or shape.Inf; a non-static interval whose bounds would read as a static
// value (the lower bound math.MaxInt64 below an infinite upper bound) is widened by one. It returns
// an error wrapping errcode.ErrOverflow when every value of x is beyond int64.
func (x iv) dim(op string) (shape.Dim, error) {
	if x.lo.inf > 0 || x.hi.inf < 0 {
		return shape.Dim{}, errorf(errcode.ErrOverflow, "%s: the result %s overflows int64", op, x)
	}
	if x.lo.inf == 0 && x.hi.inf == 0 {
		return shape.Dim{Lo: x.lo.v, Hi: x.hi.v}, nil
	}
	d := shape.Dim{Lo: NegInf, Hi: shape.Inf}
	if x.lo.inf == 0 {
		d.Lo = x.lo.v
	}
	if x.hi.inf == 0 {
		d.Hi = x.hi.v
	}
	switch {
	case d.Lo == shape.Inf: // [MaxInt64, +∞]
		d.Lo--
	case d.Hi == NegInf: // [-∞, MinInt64]
		d.Hi++
	}
	return d, nil
}

func (a ext) String() string {
	switch a.inf {
	case -1:
		return "-inf"
	case 1:
		return "+inf"
	}
	return strconv.FormatInt(a.v, 10)
}

func (x iv) String() string { return "[" + x.lo.String() + ", " + x.hi.String() + "]" }

// The interval operations: each gives the smallest interval holding a∘b for a in x and b in y.

func addIv(x, y iv) iv { return iv{add(x.lo, y.lo), add(x.hi, y.hi)} }

func subIv(x, y iv) iv { return iv{sub(x.lo, y.hi), sub(x.hi, y.lo)} }

func corners(f func(a, b ext) ext, x, y iv) iv {
	p1, p2, p3, p4 := f(x.lo, y.lo), f(x.lo, y.hi), f(x.hi, y.lo), f(x.hi, y.hi)
	return iv{minExt(minExt(p1, p2), minExt(p3, p4)), maxExt(maxExt(p1, p2), maxExt(p3, p4))}
}

func mulIv(x, y iv) iv { return corners(mul, x, y) }

// divIv divides x by y, which must not contain 0.
func divIv(x, y iv, floor bool) iv {
	return corners(func(a, b ext) ext { return div(a, b, floor) }, x, y)
}

// containsZero reports whether 0 lies in y.
func (x iv) containsZero() bool { return x.lo.sign() <= 0 && x.hi.sign() >= 0 }

// wide is an integer of magnitude below 2^64 in sign and magnitude, or an infinity (inf, of the
// sign neg). ReduceProd multiplies in it: the magnitude of a product of non-zero integers never
// decreases, so a product that ends in int64 never leaves [-2^64, 2^64] on the way, but it may pass
// through +2^63 (2^32·2^31·(-1)), which an ext cannot hold.
type wide struct {
	neg, inf bool
	mag      uint64
}

func wideOf(a ext) wide {
	switch {
	case a.inf != 0:
		return wide{neg: a.inf < 0, inf: true}
	}
	return wide{neg: a.v < 0, mag: abs64(a.v)}
}

func (w wide) sign() int {
	switch {
	case !w.inf && w.mag == 0:
		return 0
	case w.neg:
		return -1
	}
	return 1
}

// ext returns w, the infinity of its sign when it is beyond int64.
func (w wide) ext() ext {
	switch {
	case w.inf, !w.neg && w.mag > math.MaxInt64, w.neg && w.mag > 1<<63:
		return ext{inf: int8(w.sign())}
	case w.neg:
		return fin(int64(-w.mag))
	}
	return fin(int64(w.mag))
}

// mulWide returns a·b; a zero factor gives 0 whatever the other is.
func mulWide(a, b wide) wide {
	sa, sb := a.sign(), b.sign()
	switch {
	case sa == 0 || sb == 0:
		return wide{}
	case a.inf || b.inf:
		return wide{neg: sa != sb, inf: true}
	}
	hi, lo := bits.Mul64(a.mag, b.mag)
	return wide{neg: sa != sb, inf: hi != 0, mag: lo}
}

// cmpWide returns -1, 0 or +1 as a < b, a == b, a > b.
func cmpWide(a, b wide) int {
	sa, sb := a.sign(), b.sign()
	switch {
	case sa != sb:
		if sa < sb {
			return -1
		}
		return 1
	case sa == 0, a.inf && b.inf:
		return 0
	}
	c := 0 // the comparison of the magnitudes
	switch {
	case a.inf, !b.inf && a.mag > b.mag:
		c = 1
	case b.inf, a.mag < b.mag:
		c = -1
	}
	return c * sa
}

// wideIv is an interval of wide integers, lo <= hi.
type wideIv struct{ lo, hi wide }

func mulWideIv(x, y wideIv) wideIv {
	p := [4]wide{mulWide(x.lo, y.lo), mulWide(x.lo, y.hi), mulWide(x.hi, y.lo), mulWide(x.hi, y.hi)}
	r := wideIv{p[0], p[0]}
	for _, q := range p[1:] {
		if cmpWide(q, r.lo) < 0 {
			r.lo = q
		}
		if cmpWide(q, r.hi) > 0 {
			r.hi = q
		}
	}
	return r
}
