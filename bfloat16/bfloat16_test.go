package bfloat16_test

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/reshape-go/reshape/bfloat16"
	"github.com/reshape-go/reshape/internal/testenv"
)

// reference rounds f to bfloat16 by another route: it takes the two bfloat16 values around f and
// picks the nearer in float64 arithmetic, the one with an even mantissa on a tie. Beyond the largest
// finite bfloat16 the next value up is Inf, which IEEE 754 places at 2^128 for rounding.
func reference(f float32) uint16 {
	b := math.Float32bits(f)
	if f != f {
		return uint16(b>>16) | 0x0040
	}
	lo := uint16(b >> 16) // truncation: toward zero
	if b&0xffff == 0 {
		return lo
	}
	hi := lo + 1 // the next bfloat16 away from zero
	mag := func(v uint16) float64 {
		if v&0x7fff == 0x7f80 {
			return math.Ldexp(1, 128)
		}
		return math.Abs(float64(math.Float32frombits(uint32(v) << 16)))
	}
	x := math.Abs(float64(f))
	dlo, dhi := x-mag(lo), mag(hi)-x
	if dlo < dhi || dlo == dhi && lo&1 == 0 {
		return lo
	}
	return hi
}

func check(t *testing.T, from, to uint64, step uint64) {
	for i := from; i < to; i += step {
		f := math.Float32frombits(uint32(i))
		got, want := bfloat16.FromFloat32(f).Bits(), reference(f)
		if got != want {
			t.Fatalf("FromFloat32(%#08x = %g) = %#04x, want %#04x", i, f, got, want)
		}
		if f == f && bfloat16.FromFloat32(f).IsNaN() || f != f && !bfloat16.FromFloat32(f).IsNaN() {
			t.Fatalf("FromFloat32(%#08x): NaN-ness changed", i)
		}
	}
}

// TestFromFloat32 compares the conversion with the reference. The long tier (RESHAPE_LONG=1, but
// not under the race detector, which makes it too slow) takes all 2^32 float32 bit patterns; the
// sample takes every 65521st pattern (a prime: the sample walks through every low-bit pattern class)
// and, for each of the 2^16 upper halves (every sign, exponent and bfloat16 mantissa), the lower
// halves where rounding turns: none, the least (a NaN from an Inf), just below, at and just above
// the tie, and all ones.
func TestFromFloat32(t *testing.T) {
	if !testenv.Long(t) || raceEnabled {
		check(t, 0, 1<<32, 65521)
		for hi := range uint64(1 << 16) {
			for _, lo := range []uint64{0, 1, 0x7fff, 0x8000, 0x8001, 0xffff} {
				check(t, hi<<16|lo, hi<<16|lo+1, 1)
			}
		}
		return
	}
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	chunk := (uint64(1) << 32) / uint64(workers)
	for w := range workers {
		wg.Go(func() { check(t, uint64(w)*chunk, uint64(w+1)*chunk, 1) })
	}
	wg.Wait()
}

func TestEdgeCases(t *testing.T) {
	tests := []struct {
		in   uint32
		want uint16
	}{
		{0x3f800000, 0x3f80},                   // 1
		{0x3f808000, 0x3f80},                   // tie, even stays
		{0x3f818000, 0x3f82},                   // tie, odd rounds up
		{0x3f808001, 0x3f81},                   // above the tie
		{0x7f7fffff, 0x7f80},                   // max float32 rounds to Inf
		{0x7f800000, 0x7f80},                   // Inf
		{0xff800000, 0xff80},                   // -Inf
		{0x7f800001, 0x7fc0},                   // NaN with a low payload stays NaN
		{0xffc00000, 0xffc0},                   // negative quiet NaN
		{0x00000001, 0x0000},                   // smallest subnormal rounds to 0
		{0x80000000, 0x8000},                   // -0
		{0x00008000, 0x0000},                   // subnormal tie to even (0)
		{0x00018000, 0x0002},                   // subnormal tie to even (2)
		{math.Float32bits(3.14159265), 0x4049}, // pi
		{math.Float32bits(-65504), 0xc780},     // -65504 rounds to -65536
		{math.Float32bits(1.0 / 3.0), 0x3eab},  // 1/3
		{math.Float32bits(float32(math.Inf(1))), 0x7f80},
	}
	for _, tt := range tests {
		if got := bfloat16.FromFloat32(math.Float32frombits(tt.in)).Bits(); got != tt.want {
			t.Errorf("FromFloat32(%#08x) = %#04x, want %#04x", tt.in, got, tt.want)
		}
	}
	for b := range 1 << 16 {
		v := bfloat16.FromBits(uint16(b))
		if back := bfloat16.FromFloat32(v.Float32()); back != v && !v.IsNaN() {
			t.Fatalf("round trip of %#04x gave %#04x", b, back)
		}
	}
}

func ExampleFromFloat32() {
	b := bfloat16.FromFloat32(3.14159265)
	fmt.Printf("%#04x %v\n", b.Bits(), b.Float32())
	// Output: 0x4049 3.140625
}
