// Package bfloat16 converts between float32 and bfloat16 (bf16), the upper 16 bits of an IEEE 754
// binary32: 1 sign, 8 exponent and 7 mantissa bits.
package bfloat16

import "math"

// BFloat16 is a bfloat16 value, stored as its 16 bits.
type BFloat16 uint16

// FromFloat32 returns f rounded to the nearest bfloat16, ties to even (IEEE 754 roundTiesToEven).
// Values beyond the largest finite bfloat16 round to ±Inf. A NaN stays a NaN, with its sign and the
// upper bits of its payload, made quiet.
func FromFloat32(f float32) BFloat16 {
	b := math.Float32bits(f)
	if b&0x7fff_ffff > 0x7f80_0000 { // NaN: truncation could leave an Inf, so set the quiet bit
		return BFloat16(b>>16 | 0x0040)
	}
	b += 0x7fff + (b>>16)&1
	return BFloat16(b >> 16)
}

// FromBits returns the bfloat16 with the given bits.
func FromBits(bits uint16) BFloat16 { return BFloat16(bits) }

// Bits returns the 16 bits of b.
func (b BFloat16) Bits() uint16 { return uint16(b) }

// Float32 returns b as a float32, exactly.
func (b BFloat16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// IsNaN reports whether b is a NaN.
func (b BFloat16) IsNaN() bool { return b&0x7fff > 0x7f80 }
