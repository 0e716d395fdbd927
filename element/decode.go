package element

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"

	"github.com/reshape-go/reshape/errcode"
)

// ErrNotInteger is returned by DecodeInts for an element type that is not an integer type; the
// error also wraps errcode.ErrDataType.
var ErrNotInteger = errors.New("not an integer element type")

// ErrShort is returned by DecodeInts when the data holds fewer than the requested elements; the
// error also wraps errcode.ErrSyntax.
var ErrShort = errors.New("data too short")

// ErrRange is returned by DecodeInts for a u64 value above math.MaxInt64; the error also wraps
// errcode.ErrOverflow.
var ErrRange = errors.New("value out of the int64 range")

// DecodeInts decodes n elements of the integer type t from data, little-endian and packed as OpenVINO
// packs sub-byte types (u4 and i4 low nibble first; u1 most significant bit first), and appends
// them to dst. It returns an error wrapping ErrNotInteger, ErrShort (data holds fewer than n
// elements) or ErrRange (a u64 value above math.MaxInt64); the returned slice is then dst unchanged.
func (t Type) DecodeInts(dst []int64, data []byte, n int) ([]int64, error) {
	if !t.IsInteger() {
		return dst, &decodeError{ErrNotInteger, t.String() + " is " + ErrNotInteger.Error()}
	}
	if need, ok := t.Size(int64(n)); !ok || need > int64(len(data)) {
		return dst, &decodeError{ErrShort, strconv.Itoa(n) + " elements of " + t.String() + " need " +
			strconv.FormatInt(need, 10) + " bytes, " + strconv.Itoa(len(data)) + " are there"}
	}
	start := len(dst)
	for i := range n {
		var v int64
		switch t {
		case U1:
			v = int64(data[i/8]>>(7-i%8)) & 1
		case U4:
			v = int64(data[i/2]>>(4*(i%2))) & 0xF
		case I4:
			v = int64(int8(data[i/2]<<(4*(1-i%2))) >> 4)
		case U8:
			v = int64(data[i])
		case I8:
			v = int64(int8(data[i]))
		case U16:
			v = int64(binary.LittleEndian.Uint16(data[2*i:]))
		case I16:
			v = int64(int16(binary.LittleEndian.Uint16(data[2*i:])))
		case U32:
			v = int64(binary.LittleEndian.Uint32(data[4*i:]))
		case I32:
			v = int64(int32(binary.LittleEndian.Uint32(data[4*i:])))
		case U64:
			u := binary.LittleEndian.Uint64(data[8*i:])
			if u > math.MaxInt64 {
				return dst[:start], &decodeError{ErrRange, "element " + strconv.Itoa(i) + " = " +
					strconv.FormatUint(u, 10) + ": " + ErrRange.Error()}
			}
			v = int64(u)
		case I64:
			v = int64(binary.LittleEndian.Uint64(data[8*i:]))
		}
		dst = append(dst, v)
	}
	return dst, nil
}

type decodeError struct {
	err error
	msg string
}

// codes gives the code of the module (package errcode) that each error of this package wraps.
var codes = map[error]error{
	ErrNotInteger: errcode.ErrDataType, ErrShort: errcode.ErrSyntax, ErrRange: errcode.ErrOverflow,
	ErrUnknown: errcode.ErrSyntax,
}

func (e *decodeError) Error() string   { return e.msg }
func (e *decodeError) Unwrap() []error { return []error{e.err, codes[e.err]} }
