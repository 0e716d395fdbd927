// Package element names tensor element types as OpenVINO does (f32, i64, u4, ...) and knows their
// bit widths, and reads the spellings other formats use for them (IR precisions, oneDNN dtypes).
package element

import (
	"errors"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/shape"
)

// Type is a tensor element type. The zero Type is Undefined.
type Type uint8

// The element types of OpenVINO, with their OpenVINO names, and ONNX's two FNUZ float8 types
// (FLOAT8E4M3FNUZ, FLOAT8E5M2FNUZ), which OpenVINO lacks, under names in its style. u1, u4, i4 and
// nf4 are packed: several elements share a byte. A string element (ONNX's STRING, OpenVINO's string) has no fixed width:
// its Bits are 0 and Size does not apply.
const (
	Undefined  Type = iota
	Boolean         // boolean: one byte per element, 0 is false
	U1              // u1: 1-bit unsigned, 8 per byte
	U4              // u4: 4-bit unsigned, 2 per byte
	I4              // i4: 4-bit signed, 2 per byte
	NF4             // nf4: 4-bit NormalFloat, 2 per byte
	U8              // u8
	I8              // i8
	U16             // u16
	I16             // i16
	U32             // u32
	I32             // i32
	U64             // u64
	I64             // i64
	F8E4M3          // f8e4m3: 8-bit float, 4 exponent and 3 mantissa bits
	F8E5M2          // f8e5m2: 8-bit float, 5 exponent and 2 mantissa bits
	F8E4M3FNUZ      // f8e4m3fnuz: as f8e4m3 with bias 8, no negative zero, NaN 0x80 (ONNX only)
	F8E5M2FNUZ      // f8e5m2fnuz: as f8e5m2 with bias 16, no infinities or negative zero, NaN 0x80 (ONNX only)
	F16             // f16: IEEE 754 binary16
	BF16            // bf16: bfloat16, the upper half of a float32
	F32             // f32
	F64             // f64
	String          // string: a byte string of any length
	numTypes
)

var info = [numTypes]struct {
	name string
	bits int
}{
	Undefined:  {"undefined", 0},
	Boolean:    {"boolean", 8},
	U1:         {"u1", 1},
	U4:         {"u4", 4},
	I4:         {"i4", 4},
	NF4:        {"nf4", 4},
	U8:         {"u8", 8},
	I8:         {"i8", 8},
	U16:        {"u16", 16},
	I16:        {"i16", 16},
	U32:        {"u32", 32},
	I32:        {"i32", 32},
	U64:        {"u64", 64},
	I64:        {"i64", 64},
	F8E4M3:     {"f8e4m3", 8},
	F8E5M2:     {"f8e5m2", 8},
	F8E4M3FNUZ: {"f8e4m3fnuz", 8},
	F8E5M2FNUZ: {"f8e5m2fnuz", 8},
	F16:        {"f16", 16},
	BF16:       {"bf16", 16},
	F32:        {"f32", 32},
	F64:        {"f64", 64},
	String:     {"string", 0},
}

// Types returns every defined element type, in the order of the constants.
func Types() []Type {
	ts := make([]Type, 0, numTypes-1)
	for t := Boolean; t < numTypes; t++ {
		ts = append(ts, t)
	}
	return ts
}

// String returns OpenVINO's name of t ("f32", "boolean", "u4").
func (t Type) String() string {
	if t >= numTypes {
		return "element.Type(" + strconv.Itoa(int(t)) + ")"
	}
	return info[t].name
}

// Bits returns the width of one element of t in bits (1 for u1, 4 for u4, 32 for f32), or 0 for
// Undefined and String, whose elements have no fixed width.
func (t Type) Bits() int {
	if t >= numTypes {
		return 0
	}
	return info[t].bits
}

// IsInteger reports whether t is an integer type (signed or unsigned, packed or not; boolean is not).
func (t Type) IsInteger() bool {
	switch t {
	case U1, U4, I4, U8, I8, U16, I16, U32, I32, U64, I64:
		return true
	}
	return false
}

// IsSigned reports whether t can hold negative values.
func (t Type) IsSigned() bool {
	switch t {
	case I4, I8, I16, I32, I64, F8E4M3, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ, F16, BF16, F32, F64, NF4:
		return true
	}
	return false
}

// IsFloat reports whether t is a floating-point type (nf4 included).
func (t Type) IsFloat() bool {
	switch t {
	case NF4, F8E4M3, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ, F16, BF16, F32, F64:
		return true
	}
	return false
}

// IsPacked reports whether elements of t are narrower than a byte.
func (t Type) IsPacked() bool { return t.Bits() > 0 && t.Bits() < 8 }

// Size returns the number of bytes that n elements of t occupy, packed elements rounded up to whole
// bytes; ok is false when the byte count does not fit in an int64, and for Undefined and String.
func (t Type) Size(n int64) (bytes int64, ok bool) {
	bits := int64(t.Bits())
	if n < 0 || bits == 0 {
		return 0, false
	}
	if bits < 8 {
		per := 8 / bits
		return n/per + min(n%per, 1), true
	}
	return shape.Mul(n, bits/8)
}

// MarshalText implements encoding.TextMarshaler with OpenVINO's name.
func (t Type) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with the spellings Parse accepts.
func (t *Type) UnmarshalText(text []byte) error {
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// ErrUnknown is the sentinel of a name Parse does not know; the error also wraps errcode.ErrSyntax.
var ErrUnknown = errors.New("unknown element type")

// aliases are the other spellings Parse reads, in the order its error lists them.
var aliases = []struct {
	name string
	t    Type
}{
	// OpenVINO IR port precisions and older names.
	{"bool", Boolean}, {"fp16", F16}, {"fp32", F32}, {"fp64", F64},
	// oneDNN Graph data types, and the signed names of the oneDNN specifications (T_SHAPE = s64).
	{"s4", I4}, {"s8", I8}, {"s16", I16}, {"s32", I32}, {"s64", I64}, {"f8_e4m3", F8E4M3}, {"f8_e5m2", F8E5M2},
	// numpy's dtype names and ONNX's TensorProto data types, lower case ("float", float32 in ONNX
	// and float64 in numpy, is neither).
	{"int4", I4}, {"int8", I8}, {"int16", I16}, {"int32", I32}, {"int64", I64},
	{"uint4", U4}, {"uint8", U8}, {"uint16", U16}, {"uint32", U32}, {"uint64", U64},
	{"float16", F16}, {"bfloat16", BF16}, {"float32", F32}, {"float64", F64}, {"double", F64},
	{"float8e4m3fn", F8E4M3}, {"float8e5m2", F8E5M2}, {"float8e4m3fnuz", F8E4M3FNUZ}, {"float8e5m2fnuz", F8E5M2FNUZ},
}

// Names returns every name Parse reads, lower case: OpenVINO's names in the order of the
// constants, then the other spellings.
func Names() []string {
	names := make([]string, 0, int(numTypes)-1+len(aliases))
	for t := Boolean; t < numTypes; t++ {
		names = append(names, info[t].name)
	}
	for _, a := range aliases {
		names = append(names, a.name)
	}
	return names
}

// Parse returns the element type named s: OpenVINO's names ("f32", "i64", "boolean", "u4"), IR port
// precisions ("FP32", "I64", "BOOL"), oneDNN Graph's data types ("s32", "f8_e5m2"), the signed
// names of the oneDNN specifications ("s64"), numpy's dtype names ("float32", "int8") and ONNX's
// data types ("FLOAT16", "DOUBLE"). Case is ignored. It returns an error wrapping
// ErrUnknown and errcode.ErrSyntax for any other name, which lists the names it reads.
func Parse(s string) (Type, error) {
	name := strings.ToLower(s)
	for t := Boolean; t < numTypes; t++ {
		if info[t].name == name {
			return t, nil
		}
	}
	for _, a := range aliases {
		if a.name == name {
			return a.t, nil
		}
	}
	return Undefined, &decodeError{ErrUnknown, "unknown element type " + strconv.Quote(s) + ": want one of " + strings.Join(Names(), ", ")}
}

// SwapBytes reverses, in place, the bytes of each element of type t in b: it turns little-endian
// data into big-endian and back. It does nothing for types of one byte or less.
func (t Type) SwapBytes(b []byte) {
	size := t.Bits() / 8
	if size < 2 {
		return
	}
	for i := 0; i+size <= len(b); i += size {
		for j, k := i, i+size-1; j < k; j, k = j+1, k-1 {
			b[j], b[k] = b[k], b[j]
		}
	}
}
