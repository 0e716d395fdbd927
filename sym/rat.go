package sym

import (
	"math"
	"math/bits"
	"strconv"
)

// rat is a rational coefficient num/den in lowest terms, den > 0. Its arithmetic reports overflow
// instead of wrapping: an expression whose coefficients leave int64 is not kept (the dim becomes an
// interval).
type rat struct{ num, den int64 }

func ratInt(n int64) rat { return rat{n, 1} }

func (r rat) isInt() bool { return r.den == 1 }

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// mul64 returns a·b, ok false on overflow.
func mul64(a, b int64) (int64, bool) {
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(abs64(a), abs64(b))
	if hi != 0 {
		return 0, false
	}
	if neg {
		if lo > 1<<63 {
			return 0, false
		}
		return int64(-lo), true
	}
	if lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

func add64(a, b int64) (int64, bool) {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, false
	}
	return s, true
}

// makeRat returns n/d reduced, d != 0; ok is false when it cannot be held (MinInt64 negated).
func makeRat(n, d int64) (rat, bool) {
	if d < 0 {
		if n == math.MinInt64 || d == math.MinInt64 {
			return rat{}, false
		}
		n, d = -n, -d
	}
	g := int64(gcd(abs64(n), uint64(d)))
	if g > 1 {
		n, d = n/g, d/g
	}
	return rat{n, d}, true
}

func (r rat) add(s rat) (rat, bool) {
	if r.den == 1 && s.den == 1 {
		n, ok := add64(r.num, s.num)
		return rat{n, 1}, ok
	}
	g := int64(gcd(uint64(r.den), uint64(s.den)))
	d, ok1 := mul64(r.den/g, s.den)
	a, ok2 := mul64(r.num, s.den/g)
	b, ok3 := mul64(s.num, r.den/g)
	n, ok4 := add64(a, b)
	if !(ok1 && ok2 && ok3 && ok4) {
		return rat{}, false
	}
	return makeRat(n, d)
}

func (r rat) mul(s rat) (rat, bool) {
	g1 := int64(gcd(abs64(r.num), uint64(s.den)))
	g2 := int64(gcd(abs64(s.num), uint64(r.den)))
	if g1 == 0 || g2 == 0 { // a zero numerator
		return rat{0, 1}, true
	}
	n, ok1 := mul64(r.num/g1, s.num/g2)
	d, ok2 := mul64(r.den/g2, s.den/g1)
	return rat{n, d}, ok1 && ok2
}

func (r rat) neg() (rat, bool) {
	if r.num == math.MinInt64 {
		return rat{}, false
	}
	return rat{-r.num, r.den}, true
}

// inv returns 1/r for r != 0.
func (r rat) inv() (rat, bool) { return makeRat(r.den, r.num) }

func (r rat) String() string {
	if r.den == 1 {
		return strconv.FormatInt(r.num, 10)
	}
	return strconv.FormatInt(r.num, 10) + "/" + strconv.FormatInt(r.den, 10)
}
