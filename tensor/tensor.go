package tensor

import (
	"io"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// Tensor is a strided view of bytes as an array of one element type. The zero Tensor is invalid.
type Tensor struct {
	typ     element.Type
	shape   []int64
	strides []int64 // in bytes; for packed types the dense strides are implied
	offset  int64
	data    []byte
}

// Type returns the element type.
func (t Tensor) Type() element.Type { return t.typ }

// Shape returns the shape, in elements. The slice is the tensor's own: do not modify it.
func (t Tensor) Shape() []int64 { return t.shape }

// Strides returns the stride of each axis in bytes (nil for packed sub-byte types, which are dense).
// The slice is the tensor's own: do not modify it.
func (t Tensor) Strides() []int64 { return t.strides }

// Offset returns the byte offset of the first element in Data.
func (t Tensor) Offset() int64 { return t.offset }

// Data returns the backing bytes, which views share.
func (t Tensor) Data() []byte { return t.data }

// Rank returns the number of axes.
func (t Tensor) Rank() int { return len(t.shape) }

// Len returns the number of elements.
func (t Tensor) Len() int64 {
	n, _ := shape.Volume(t.shape) // checked by the constructors
	return n
}

// ByteSize returns the size of the elements in dense row-major form, in bytes.
func (t Tensor) ByteSize() int64 {
	n, _ := t.typ.Size(t.Len()) // checked by the constructors
	return n
}

func (t Tensor) elemSize() int64 { return int64(t.typ.Bits() / 8) }

// denseStrides returns the row-major strides of shape for elements of size bytes, or nil for a
// packed type (size 0).
func denseStrides(dims []int64, size int64) []int64 {
	if size == 0 {
		return nil
	}
	s := make([]int64, len(dims))
	shape.FillStrides(s, dims, size)
	return s
}

// checkShape validates the element type and shape, and returns the dense byte size.
func checkShape(t element.Type, dims []int64) (int64, error) {
	if t.Bits() == 0 {
		return 0, errcode.Errorf(errcode.ErrDataType, "element type %v has no size", t)
	}
	n, err := shape.Volume(dims)
	if err != nil {
		return 0, err
	}
	size, ok := t.Size(n)
	if !ok {
		return 0, errcode.Errorf(errcode.ErrOverflow, "%d elements of %v: the byte size overflows int64", n, t)
	}
	return size, nil
}

// New returns a dense tensor of zeros. Errors wrap errcode.ErrDataType (Undefined type),
// errcode.ErrSyntax (a negative dimension) or errcode.ErrOverflow (a size beyond int64).
func New(t element.Type, dims ...int64) (Tensor, error) {
	size, err := checkShape(t, dims)
	if err != nil {
		return Tensor{}, err
	}
	if size > maxAlloc {
		return Tensor{}, errcode.Errorf(errcode.ErrLimit, "a tensor of %d bytes exceeds the %d bytes this platform can allocate", size, maxAlloc)
	}
	return FromBytes(t, dims, make([]byte, size))
}

// maxAlloc is the largest slice this platform allows.
const maxAlloc = int64(^uint(0) >> 1)

// FromBytes returns the dense row-major tensor of element type t and shape dims held by data, which
// it shares: len(data) must be the dense byte size. Errors as New, and errcode.ErrSyntax when
// len(data) does not match.
func FromBytes(t element.Type, dims []int64, data []byte) (Tensor, error) {
	size, err := checkShape(t, dims)
	if err != nil {
		return Tensor{}, err
	}
	if int64(len(data)) != size {
		return Tensor{}, errcode.Errorf(errcode.ErrSyntax, "%d bytes for %s of %v, which takes %d", len(data), shape.FormatInts(dims), t, size)
	}
	return Tensor{typ: t, shape: dims, strides: denseStrides(dims, int64(t.Bits()/8)), data: data}, nil
}

// Strided returns the view of data as a tensor of element type t and shape dims whose element
// (i0, i1, ...) lies at byte offset + Σ ik·strides[k]. Every byte the view can reach must lie in data.
// Packed sub-byte types cannot be strided: strides must be nil for them. Errors wrap
// errcode.ErrSyntax (mismatched lengths, out of bounds), or those of New.
func Strided(t element.Type, dims, strides []int64, offset int64, data []byte) (Tensor, error) {
	if _, err := checkShape(t, dims); err != nil {
		return Tensor{}, err
	}
	if t.IsPacked() {
		if strides != nil {
			return Tensor{}, errcode.Errorf(errcode.ErrSyntax, "%v elements are packed and always dense: strides must be nil", t)
		}
		size, _ := t.Size(mustVolume(dims))
		if offset < 0 || offset > int64(len(data)) || size > int64(len(data))-offset {
			return Tensor{}, errcode.Errorf(errcode.ErrSyntax, "offset %d + %d bytes is beyond the %d bytes of data", offset, size, len(data))
		}
		return Tensor{typ: t, shape: dims, offset: offset, data: data}, nil
	}
	if len(strides) != len(dims) {
		return Tensor{}, errcode.Errorf(errcode.ErrSyntax, "%d strides for %d axes", len(strides), len(dims))
	}
	lo, hi, err := extent(dims, strides, offset, int64(t.Bits()/8))
	if err != nil {
		return Tensor{}, err
	}
	if lo < 0 || hi > int64(len(data)) {
		return Tensor{}, errcode.Errorf(errcode.ErrSyntax, "shape %s with strides %v at offset %d reaches bytes %d..%d, beyond the %d bytes of data",
			shape.FormatInts(dims), strides, offset, lo, hi, len(data))
	}
	return Tensor{typ: t, shape: dims, strides: strides, offset: offset, data: data}, nil
}

// extent returns the byte range [lo, hi) a strided view reaches; empty views reach nothing.
func extent(dims, strides []int64, offset, size int64) (lo, hi int64, err error) {
	lo, hi = offset, offset+size
	for i, d := range dims {
		if d == 0 {
			return 0, 0, nil
		}
		span, ok := shape.Mul(d-1, abs(strides[i]))
		if !ok || span > maxAlloc {
			return 0, 0, errcode.Errorf(errcode.ErrOverflow, "axis %d: %d elements of stride %d overflow", i, d, strides[i])
		}
		if strides[i] < 0 {
			lo -= span
		} else {
			hi += span
		}
	}
	return lo, hi, nil
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func mustVolume(dims []int64) int64 {
	n, _ := shape.Volume(dims)
	return n
}

// IsContiguous reports whether the elements lie dense in row-major order (axes of size 1, and
// tensors without elements, may have any stride). Packed types always are.
func (t Tensor) IsContiguous() bool {
	if t.typ.IsPacked() || t.Len() == 0 {
		return true
	}
	want := t.elemSize()
	for i := len(t.shape) - 1; i >= 0; i-- {
		if t.shape[i] == 1 {
			continue
		}
		if t.strides[i] != want {
			return false
		}
		want *= t.shape[i]
	}
	return true
}

// Bytes returns the elements as dense row-major bytes, sharing the tensor's memory; ok is false
// when the tensor is not contiguous (use Contiguous first).
func (t Tensor) Bytes() (b []byte, ok bool) {
	if !t.IsContiguous() {
		return nil, false
	}
	size := t.ByteSize()
	if size == 0 {
		return []byte{}, true
	}
	return t.data[t.offset : t.offset+size], true
}

// Contiguous returns t itself when it is contiguous, and otherwise a dense row-major copy of its
// elements in logical order.
func (t Tensor) Contiguous() Tensor {
	if t.IsContiguous() {
		return t
	}
	out := Tensor{typ: t.typ, shape: t.shape, strides: denseStrides(t.shape, t.elemSize()), data: make([]byte, t.ByteSize())}
	copyDense(out.data, t)
	return out
}

// WriteTo writes the elements in logical row-major order, dense, little-endian, to w. It writes a
// contiguous tensor in pieces of at most 4 MiB, and copies a strided one through a buffer of at most
// 32 MiB, a block of whole sub-tensors at a time, rather than whole. It implements io.WriterTo.
func (t Tensor) WriteTo(w io.Writer) (int64, error) {
	const piece, block = 4 << 20, 32 << 20
	if b, ok := t.Bytes(); ok {
		var n int64
		for len(b) > 0 {
			k, err := w.Write(b[:min(len(b), piece)])
			n += int64(k)
			if err != nil {
				return n, err
			}
			b = b[k:]
		}
		return n, nil
	}
	// Strided: copy blocks of whole sub-tensors along the first axis that has more than one of them.
	axis := 0
	for axis < len(t.shape)-1 && t.shape[axis] == 1 {
		axis++
	}
	sub := t.ByteSize() / t.shape[axis] // bytes of one index along axis
	step := max(1, block/max(sub, 1))
	buf := make([]byte, min(step, t.shape[axis])*sub)
	var n int64
	for i := int64(0); i < t.shape[axis]; i += step {
		block, err := t.Slice(axis, i, min(i+step, t.shape[axis]), 1)
		if err != nil {
			return n, err
		}
		out := buf[:block.ByteSize()]
		copyDense(out, block)
		k, err := w.Write(out)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
