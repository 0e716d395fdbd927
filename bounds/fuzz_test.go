package bounds_test

import (
	"errors"
	"math/big"
	"testing"

	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// exact computes a∘b in unbounded integers; ok is false for a division by zero.
func exact(op bounds.Op, a, b int64) (r *big.Int, ok bool) {
	x, y := big.NewInt(a), big.NewInt(b)
	r = new(big.Int)
	switch op {
	case bounds.Add:
		return r.Add(x, y), true
	case bounds.Subtract:
		return r.Sub(x, y), true
	case bounds.Multiply:
		return r.Mul(x, y), true
	}
	if b == 0 {
		return nil, false
	}
	m := new(big.Int)
	r.QuoRem(x, y, m) // truncated
	if op == bounds.DivideFloor && m.Sign() != 0 && (a < 0) != (b < 0) {
		r.Sub(r, big.NewInt(1))
	}
	return r, true
}

// FuzzBinary: Binary never panics; on static inputs its result is static and equal to the exact
// result, or an error (overflow when the exact result is beyond int64, syntax for a division by
// zero); on the intervals spanned by the inputs, its result holds the exact result of every pair of
// corners and midpoints that fits int64.
func FuzzBinary(f *testing.F) {
	f.Add(uint8(0), int64(1), int64(8), int64(2), int64(3))
	f.Add(uint8(1), int64(32), int64(48), int64(0), int64(-1))
	f.Add(uint8(2), int64(-3), int64(2), int64(-5), int64(4))
	f.Add(uint8(3), int64(-7), int64(7), int64(2), int64(-2))
	f.Add(uint8(4), int64(-7), int64(7), int64(0), int64(3))
	f.Add(uint8(0), int64(maxI), int64(maxI), int64(1), int64(0))
	f.Add(uint8(2), int64(minI), int64(0), int64(-1), int64(-1))
	f.Add(uint8(3), int64(minI), int64(minI), int64(-1), int64(1))
	f.Add(uint8(2), int64(1<<32), int64(1<<33), int64(1<<30), int64(1<<31))
	f.Fuzz(func(t *testing.T, opb uint8, a1, a2, b1, b2 int64) {
		op := bounds.Op(opb % 6) // 5 is not an operation
		one := func(d shape.Dim) bounds.Value { return bounds.Value{Shape: []int64{1}, Elems: []shape.Dim{d}} }

		// Static inputs.
		got, err := bounds.Binary(op, one(shape.Static(a1)), one(shape.Static(b1)))
		if op == 5 {
			if !errors.Is(err, errcode.ErrSyntax) {
				t.Fatalf("Binary(Op(5)) = %v, %v; want a syntax error", got, err)
			}
			return
		}
		want, ok := exact(op, a1, b1)
		switch {
		case !ok:
			if !errors.Is(err, errcode.ErrSyntax) {
				t.Fatalf("Binary(%v, %d, %d) = %v, %v; want a syntax error", op, a1, b1, got, err)
			}
		case !want.IsInt64():
			if !errors.Is(err, errcode.ErrOverflow) {
				t.Fatalf("Binary(%v, %d, %d) = %v, %v; want an overflow error (exact %v)", op, a1, b1, got, err, want)
			}
		default:
			if err != nil || len(got.Elems) != 1 || got.Elems[0] != shape.Static(want.Int64()) {
				t.Fatalf("Binary(%v, %d, %d) = %v, %v; want %v", op, a1, b1, got, err, want)
			}
		}

		// Intervals: [min(a1,a2), max(a1,a2)] and the same for b. A bound math.MinInt64 or
		// math.MaxInt64 of a non-static interval reads as unbounded, a superset: still sound.
		a := shape.Dim{Lo: min(a1, a2), Hi: max(a1, a2)}
		b := shape.Dim{Lo: min(b1, b2), Hi: max(b1, b2)}
		res, err := bounds.Binary(op, one(a), one(b))
		if err == nil && (len(res.Elems) != 1 || res.Elems[0].Lo > res.Elems[0].Hi) {
			t.Fatalf("Binary(%v, %v, %v) = %v: not one valid element", op, a, b, res)
		}
		for _, x := range []int64{a.Lo, a.Hi, midpoint(a.Lo, a.Hi), a.Lo + 1, a.Hi - 1} {
			for _, y := range []int64{b.Lo, b.Hi, midpoint(b.Lo, b.Hi), b.Lo + 1, b.Hi - 1} {
				w, ok := exact(op, x, y)
				if !ok || !w.IsInt64() || !a.Contains(x) || !b.Contains(y) {
					continue
				}
				if err != nil {
					t.Fatalf("Binary(%v, %v, %v) = error %v, but %d∘%d = %v", op, a, b, err, x, y, w)
				}
				if !res.Elems[0].Contains(w.Int64()) {
					t.Fatalf("Binary(%v, %v, %v) = %v does not hold %d∘%d = %v", op, a, b, res, x, y, w)
				}
			}
		}
	})
}

// midpoint returns a value between lo and hi, lo <= hi, without overflow.
func midpoint(lo, hi int64) int64 { return int64(uint64(lo) + (uint64(hi)-uint64(lo))/2) }
