package tensor

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/x448/float16"

	"github.com/reshape-go/reshape/bfloat16"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
)

// Elem is the Go types a tensor can be built from and read into, one per element type:
// bool (boolean), int8..int64 (i8..i64), uint8..uint64 (u8..u64), float32 (f32), float64 (f64),
// float16.Float16 (f16, github.com/x448/float16) and bfloat16.BFloat16 (bf16).
type Elem interface {
	bool | int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64 | float32 | float64 |
		float16.Float16 | bfloat16.BFloat16
}

// TypeOf returns the element type of the Go type T.
func TypeOf[T Elem]() element.Type {
	var zero T
	switch any(zero).(type) {
	case bool:
		return element.Boolean
	case int8:
		return element.I8
	case uint8:
		return element.U8
	case int16:
		return element.I16
	case uint16:
		return element.U16
	case int32:
		return element.I32
	case uint32:
		return element.U32
	case int64:
		return element.I64
	case uint64:
		return element.U64
	case float32:
		return element.F32
	case float64:
		return element.F64
	case float16.Float16:
		return element.F16
	case bfloat16.BFloat16:
		return element.BF16
	}
	panic("unreachable: Elem has no other types")
}

// littleEndian reports whether this machine stores integers little-endian, as tensors do.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// FromSlice returns a dense tensor of shape dims holding a copy of values (dims defaults to
// [len(values)]). The volume of dims must be len(values). Errors wrap errcode.ErrSyntax.
func FromSlice[T Elem](values []T, dims ...int64) (Tensor, error) {
	if dims == nil {
		dims = []int64{int64(len(values))}
	}
	if _, err := checkShape(TypeOf[T](), dims); err != nil {
		return Tensor{}, err
	}
	if mustVolume(dims) != int64(len(values)) {
		return Tensor{}, errcode.Errorf(errcode.ErrSyntax, "%d values for shape %v", len(values), dims)
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	data := make([]byte, len(values)*size)
	if len(values) > 0 {
		src := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(values))), len(data))
		copy(data, src)
		if !littleEndian {
			TypeOf[T]().SwapBytes(data)
		}
	}
	return FromBytes(TypeOf[T](), dims, data)
}

// Values returns the elements of t in logical row-major order, in a new slice. T must be the Go type
// of t's element type (TypeOf); the error wraps errcode.ErrDataType otherwise.
func Values[T Elem](t Tensor) ([]T, error) {
	if want := TypeOf[T](); t.typ != want {
		return nil, errcode.Errorf(errcode.ErrDataType, "the tensor holds %v, not %v", t.typ, want)
	}
	b, ok := t.Bytes()
	if !ok {
		b = t.Contiguous().data
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	out := make([]T, len(b)/size)
	if len(out) > 0 {
		dst := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), len(b))
		copy(dst, b)
		if !littleEndian {
			TypeOf[T]().SwapBytes(dst)
		}
	}
	return out, nil
}

// Float64s returns the elements of t in logical row-major order, converted to float64: integers and
// booleans by value, f16 (IEEE binary16), bf16, f8e4m3 (OCP E4M3FN), f8e5m2, f8e4m3fnuz, f8e5m2fnuz
// and nf4 (the NormalFloat4 code book) exactly. Integers beyond 2^53 lose precision.
func Float64s(t Tensor) []float64 {
	n := t.Len()
	out := make([]float64, 0, n)
	if t.typ.IsPacked() {
		u, _ := t.unpack()
		for _, c := range u.data[u.offset : u.offset+n] {
			out = append(out, packedValue(t.typ, c))
		}
		return out
	}
	b, ok := t.Bytes()
	if !ok {
		b = t.Contiguous().data
	}
	le := binary.LittleEndian
	for i := int64(0); i < n; i++ {
		var v float64
		switch t.typ {
		case element.Boolean:
			v = float64(min(b[i], 1))
		case element.U8:
			v = float64(b[i])
		case element.I8:
			v = float64(int8(b[i]))
		case element.F8E4M3:
			v = f8e4m3(b[i])
		case element.F8E5M2:
			v = f8e5m2(b[i])
		case element.F8E4M3FNUZ:
			v = f8fnuz(b[i], 3, 8)
		case element.F8E5M2FNUZ:
			v = f8fnuz(b[i], 2, 16)
		case element.U16:
			v = float64(le.Uint16(b[2*i:]))
		case element.I16:
			v = float64(int16(le.Uint16(b[2*i:])))
		case element.F16:
			v = float64(float16.Frombits(le.Uint16(b[2*i:])).Float32())
		case element.BF16:
			v = float64(bfloat16.FromBits(le.Uint16(b[2*i:])).Float32())
		case element.U32:
			v = float64(le.Uint32(b[4*i:]))
		case element.I32:
			v = float64(int32(le.Uint32(b[4*i:])))
		case element.F32:
			v = float64(math.Float32frombits(le.Uint32(b[4*i:])))
		case element.U64:
			v = float64(le.Uint64(b[8*i:]))
		case element.I64:
			v = float64(int64(le.Uint64(b[8*i:])))
		case element.F64:
			v = math.Float64frombits(le.Uint64(b[8*i:]))
		}
		out = append(out, v)
	}
	return out
}

// nf4Values is the NormalFloat4 code book (QLoRA), which OpenVINO's nf4 uses.
var nf4Values = [16]float64{
	-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
	-0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,
	0.24611230194568634, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941,
	0.7229568362236023, 1.0,
}

func packedValue(t element.Type, c byte) float64 {
	switch t {
	case element.I4:
		return float64(int8(c<<4) >> 4)
	case element.NF4:
		return nf4Values[c&0xF]
	}
	return float64(c)
}

// f8e4m3 decodes an OCP FP8 E4M3FN value: bias 7, no infinities, NaN at S.1111.111.
func f8e4m3(c byte) float64 {
	sign := 1.0
	if c&0x80 != 0 {
		sign = -1
	}
	e, m := int(c>>3&0xF), float64(c&7)
	switch {
	case e == 15 && m == 7:
		return math.NaN()
	case e == 0:
		return sign * math.Ldexp(m/8, -6)
	}
	return sign * math.Ldexp(1+m/8, e-7)
}

// f8e5m2 decodes an FP8 E5M2 value: bias 15, IEEE infinities and NaNs.
func f8e5m2(c byte) float64 {
	sign := 1.0
	if c&0x80 != 0 {
		sign = -1
	}
	e, m := int(c>>2&0x1F), float64(c&3)
	switch {
	case e == 31 && m == 0:
		return sign * math.Inf(1)
	case e == 31:
		return math.NaN()
	case e == 0:
		return sign * math.Ldexp(m/4, -14)
	}
	return sign * math.Ldexp(1+m/4, e-15)
}

// f8fnuz decodes an FNUZ float8 value (ONNX's FLOAT8E4M3FNUZ, mbits 3 and bias 8, and
// FLOAT8E5M2FNUZ, mbits 2 and bias 16): no infinities, no negative zero, NaN at 0x80 only.
func f8fnuz(c byte, mbits, bias int) float64 {
	if c == 0x80 {
		return math.NaN()
	}
	sign := 1.0
	if c&0x80 != 0 {
		sign = -1
	}
	e := int(c&0x7F) >> mbits
	m := math.Ldexp(float64(int(c)&(1<<mbits-1)), -mbits)
	if e == 0 {
		return sign * math.Ldexp(m, 1-bias)
	}
	return sign * math.Ldexp(1+m, e-bias)
}

// unpack returns a dense u8 tensor with one packed element per byte (raw bits, unsigned).
func (t Tensor) unpack() (Tensor, error) {
	n := t.Len()
	vals, err := unpackBits(t.typ, t.data[t.offset:], n)
	if err != nil {
		return Tensor{}, err
	}
	return FromBytes(element.U8, t.shape, vals)
}

func unpackBits(t element.Type, data []byte, n int64) ([]byte, error) {
	out := make([]byte, n)
	for i := range n {
		switch t.Bits() {
		case 1:
			out[i] = data[i/8] >> (7 - i%8) & 1
		case 4:
			out[i] = data[i/2] >> (4 * (i % 2)) & 0xF
		default:
			return nil, errcode.Errorf(errcode.ErrDataType, "%v is not a packed type", t)
		}
	}
	return out, nil
}

// pack packs the dense u8 tensor u, one element per byte, into a dense tensor of the packed type t.
func pack(u Tensor, t element.Type) Tensor {
	n := u.Len()
	size, _ := t.Size(n)
	data := make([]byte, size)
	src := u.data[u.offset : u.offset+n]
	for i, c := range src {
		switch t.Bits() {
		case 1:
			data[i/8] |= (c & 1) << (7 - i%8)
		case 4:
			data[i/2] |= (c & 0xF) << (4 * (i % 2))
		}
	}
	return Tensor{typ: t, shape: u.shape, data: data}
}
