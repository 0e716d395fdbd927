package bounds

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// Convert converts the elements of v to the element type to: OpenVINO's Convert-1 and ONNX's
// Cast-13 applied to an integer tensor. The shape is unchanged; the result still holds integers.
//
// Integer targets (i4, i8, i16, i32, i64, u1, u4, u8, u16, u32, u64): values that fit the target
// type pass unchanged. A static value that does not fit wraps as the conversion would, by two's
// complement truncation to the width of the type, sign-extended for a signed type (300 → u8 is 44,
// 200 → i8 is -56, 3 → u1 is 1, 2 → u1 is 0), as C's and numpy's integer conversions in OpenVINO's
// reference and ONNX's runtimes do (for u1, the OpenVINO reference of 2023 set the bit for any value
// whose low byte is not zero, 2 → 1; this function keeps the lowest bit). An interval that does not fit becomes the target type's full
// range ([0, 255] for u8, [-128, 127] for i8). For u64, whose values above math.MaxInt64 a Value
// cannot hold, an interval reaching below 0 becomes [0, shape.Inf] and a static negative value is an
// error wrapping ErrUnknown.
//
// Floating targets: a value passes unchanged when the type holds it exactly (every integer of
// magnitude up to 2^53 for f64, 2^24 for f32, 2^11 for f16, 2^8 for bf16, 2^4 for f8e4m3, 2^3 for
// f8e5m2). For f64 and f32 another value is rounded to the nearest value of the type, ties to even,
// as C's and numpy's conversions from int64 do in both runtimes. f16, bf16 and the f8 types are
// reached through f32 (rounded so) in OpenVINO's element types and in ONNX's reference, but the last
// rounding differs between implementations (OpenVINO's bf16 rounds to nearest, ties up, when the
// truncated result is odd and truncates when it is even; some f16 and f8 conversions saturate at the
// largest finite value): a value they do not hold becomes the interval of its two neighbours in the type, which
// holds the result of any monotone rounding (2049 → f16 is [2048, 2050]); above the largest finite
// value (65504 for f16, 448 for f8e4m3, 57344 for f8e5m2) the interval is [that value, shape.Inf],
// since the result is that value or an infinity, and symmetrically below. Every rounding is
// monotone, so an interval maps to the interval from its lower bound's lowest result to its upper
// bound's highest. A static value whose result is exactly a number beyond int64 (math.MaxInt64 → f64
// is 2^63) is an error wrapping ErrUnknown; an interval bound beyond it becomes NegInf or shape.Inf.
// nf4 is not an integer encoding: ErrUnknown.
//
// Boolean: 0 gives 0 and a non-zero value 1; an interval holding 0 and non-zero values gives
// [0, 1].
//
// An undefined or unknown element type, or an invalid Value, is an error wrapping errcode.ErrSyntax.
func Convert(v Value, to element.Type) (Value, error) {
	const op = "convert"
	if err := v.check(op, "the input"); err != nil {
		return Value{}, err
	}
	var conv func(d shape.Dim) (shape.Dim, error)
	switch {
	case to == element.Boolean:
		conv = toBoolean
	case to == element.I64:
		conv = func(d shape.Dim) (shape.Dim, error) { return d, nil }
	case to == element.U64:
		conv = toU64
	case to.IsInteger():
		conv = integerConv(to.Bits(), to.IsSigned())
	case to == element.NF4:
		return Value{}, fmt.Errorf("%s: nf4 does not hold integers: %w", op, ErrUnknown)
	case to.IsFloat():
		conv = floatConv(to)
	default:
		return Value{}, errorf(errcode.ErrSyntax, "%s: %s is not an element type to convert to", op, to)
	}
	res := Value{Shape: append([]int64{}, v.Shape...), Elems: make([]shape.Dim, len(v.Elems))}
	for i, d := range v.Elems {
		e, err := conv(d)
		if err != nil {
			return Value{}, fmt.Errorf("%s to %s: element %d: %w", op, to, i, err)
		}
		res.Elems[i] = e
	}
	return res, nil
}

func toBoolean(d shape.Dim) (shape.Dim, error) {
	switch {
	case d.Lo == 0 && d.Hi == 0:
		return shape.Static(0), nil
	case d.Lo <= 0 && d.Hi >= 0:
		return shape.Interval(0, 1), nil
	}
	return shape.Static(1), nil
}

func toU64(d shape.Dim) (shape.Dim, error) {
	switch {
	case d.Lo >= 0:
		return d, nil
	case d.Lo == d.Hi:
		return shape.Dim{}, fmt.Errorf("%d wraps to %d, above the int64 range: %w", d.Lo, uint64(d.Lo), ErrUnknown)
	}
	return shape.Interval(0, shape.Inf), nil
}

// integerConv returns the conversion to an integer type of n < 64 bits.
func integerConv(n int, signed bool) func(d shape.Dim) (shape.Dim, error) {
	lo, hi := int64(0), int64(1)<<n-1
	wrap := func(x int64) int64 { return x & hi }
	if signed {
		lo, hi = -int64(1)<<(n-1), int64(1)<<(n-1)-1
		wrap = func(x int64) int64 { return x << (64 - n) >> (64 - n) }
	}
	return func(d shape.Dim) (shape.Dim, error) {
		switch {
		case d.Lo >= lo && d.Hi <= hi:
			return d, nil
		case d.Lo == d.Hi:
			return shape.Static(wrap(d.Lo)), nil
		}
		return shape.Interval(lo, hi), nil
	}
}

// floatFormat is the precision of a floating type (its significant bits, the implicit one
// included) and its largest finite value, 0 when it is beyond int64; exact says that integers are
// rounded to it directly, to nearest even, rather than through f32 and a rounding that varies.
type floatFormat struct {
	precision int
	max       int64
	exact     bool
}

var floatFormats = map[element.Type]floatFormat{
	element.F64:    {53, 0, true},
	element.F32:    {24, 0, true},
	element.BF16:   {8, 0, false},
	element.F16:    {11, 65504, false},
	element.F8E4M3: {4, 448, false},
	element.F8E5M2: {3, 57344, false},
}

// floatConv returns the conversion to the floating type t.
func floatConv(t element.Type) func(d shape.Dim) (shape.Dim, error) {
	f := floatFormats[t]
	// results returns the lowest and the highest result of converting x.
	results := func(x ext) (lo, hi ext) {
		if x.inf != 0 {
			return x, x
		}
		if f.exact {
			r := roundTo(x, f.precision)
			return r, r
		}
		r := roundTo(x, 24)
		switch {
		case f.max > 0 && cmp(r, fin(f.max)) > 0:
			return fin(f.max), plusInf
		case f.max > 0 && cmp(r, fin(-f.max)) < 0:
			return minusInf, fin(-f.max)
		}
		// Within the finite range the neighbours are too: the largest finite value has p bits.
		return neighbours(r, f.precision)
	}
	return func(d shape.Dim) (shape.Dim, error) {
		x := toIv(d)
		lo, _ := results(x.lo)
		_, hi := results(x.hi)
		y := iv{lo, hi}
		if y.lo.inf > 0 || y.hi.inf < 0 {
			return shape.Dim{}, fmt.Errorf("%s converts to values beyond int64: %w", x, ErrUnknown)
		}
		return y.dim("convert")
	}
}

// roundTo rounds the finite x to the nearest number of p significant bits, ties to even; a result
// beyond int64 (only 2^63) becomes +∞.
func roundTo(x ext, p int) ext {
	m := abs64(x.v)
	if n := bits.Len64(m); n > p {
		shift := uint(n - p)
		q, rem, half := m>>shift, m&(1<<shift-1), uint64(1)<<(shift-1)
		if rem > half || rem == half && q&1 == 1 {
			q++
		}
		m = q << shift // at most 2^63: m <= 2^63, and 2^63 is exact
	}
	return signed(x.v < 0, m)
}

// neighbours returns the largest number of p significant bits at most x and the smallest at least
// x: both x when it has p significant bits.
func neighbours(x ext, p int) (lo, hi ext) {
	if x.inf != 0 {
		return x, x
	}
	m := abs64(x.v)
	n := bits.Len64(m)
	if n <= p {
		return x, x
	}
	shift := uint(n - p)
	down := m >> shift << shift
	if down == m {
		return x, x
	}
	up := down + 1<<shift // at most 2^63
	if x.v < 0 {
		return signed(true, up), signed(true, down)
	}
	return signed(false, down), signed(false, up)
}

// signed returns the integer of sign neg and magnitude m <= 2^63, +∞ for +2^63.
func signed(neg bool, m uint64) ext {
	switch {
	case neg:
		return fin(int64(-m))
	case m > math.MaxInt64:
		return plusInf
	}
	return fin(int64(m))
}
