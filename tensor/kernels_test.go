package tensor

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// kernelCase is one transposing block: rows × cols elements of es bytes, the source column stride
// sc (either sign, any size, so that columns may overlap), the offsets of the source and
// destination in their buffers (for every alignment), the destination row stride cols·es + pad,
// and whether the copy is large enough to store around the cache.
type kernelCase struct {
	es, rows, cols, sc, srcOff, dstOff, pad int64
	nt                                      bool
}

func (c kernelCase) String() string {
	return fmt.Sprintf("es %d, %d×%d, sc %d, src offset %d, dst offset %d, pad %d, nt %v", c.es, c.rows, c.cols, c.sc, c.srcOff, c.dstOff, c.pad, c.nt)
}

// source returns the case's source bytes and the offset of element (0, 0) in them: column j at
// base + j·sc, rows contiguous.
func (c kernelCase) source() (src []byte, base int64) {
	span := max(c.cols-1, 0) * c.sc
	base = c.srcOff + max(-span, 0)
	src = make([]byte, base+max(span, 0)+c.rows*c.es+64)
	for i := range src {
		src[i] = byte(i*131 + i>>8)
	}
	return src, base
}

// run copies the case's block with the kernel set k (nil: the portable kernel) and returns the
// whole destination buffer, bytes around the block included.
func (c kernelCase) run(k *kernelSet) []byte {
	src, base := c.source()
	dr := c.cols*c.es + c.pad
	dst := make([]byte, c.dstOff+c.rows*dr+64)
	// Align the destination buffer to 64 bytes before the offset, so that dstOff sets the alignment.
	full := make([]byte, len(dst)+64)
	dst = full[(64-uintptr(unsafe.Pointer(&full[0]))%64)%64:][:len(dst)]
	for i := range dst {
		dst[i] = 0xA5
	}
	if c.rows > 0 && c.cols > 0 {
		block(k, unsafe.Pointer(&dst[c.dstOff]), unsafe.Pointer(&src[base]), c.rows, c.cols, c.es, c.sc, dr, c.es, c.nt)
	}
	return dst
}

// want is the block copied element by element.
func (c kernelCase) want() []byte {
	dst := c.run(nil)
	src, base := c.source()
	dr := c.cols*c.es + c.pad
	for r := range c.rows {
		for col := range c.cols {
			s := base + r*c.es + col*c.sc
			copy(dst[c.dstOff+r*dr+col*c.es:][:c.es], src[s:s+c.es])
		}
	}
	return dst
}

// check compares every kernel set of this CPU, and the portable kernel, with the element-by-element
// copy.
func (c kernelCase) check(t *testing.T) {
	want := c.want()
	if got := c.run(nil); !bytes.Equal(got, want) {
		t.Fatalf("portable kernel, %v: wrong bytes", c)
	}
	for _, k := range kernelSets {
		if got := c.run(k); !bytes.Equal(got, want) {
			t.Fatalf("%s kernels, %v: wrong bytes at %d", k.name, c, firstDiff(got, want))
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// decodeKernelCase reads a case from fuzz input: sizes up to a few panels, strides of either sign,
// every alignment.
func decodeKernelCase(data []byte) (kernelCase, bool) {
	if len(data) < 9 {
		return kernelCase{}, false
	}
	es := int64(1) << (data[0] % 4)
	c := kernelCase{
		es:     es,
		rows:   int64(data[1]) + int64(data[2]%2)*64,
		cols:   int64(data[3]) + int64(data[4]%2)*64,
		srcOff: int64(data[5] % 64),
		dstOff: int64(data[6] % 64),
		pad:    int64(data[7]%5) * es * int64(1+data[7]/5%8),
		nt:     data[8]%2 == 1,
	}
	// Half the cases: a destination whose rows all start at a multiple of 64 bytes, as
	// non-temporal stores need.
	if data[6] >= 128 {
		c.dstOff = 0
		c.pad = (64 - c.cols*es%64) % 64
	}
	// The column stride: past the rows (as a transpose has it), or shorter, in either direction.
	sc := c.rows*es + int64(binary.LittleEndian.Uint16(append(data[9:min(len(data), 11)], 0, 0)))%128
	if data[8]&2 != 0 {
		sc = es * int64(data[8]>>2)
	}
	if data[8]&4 != 0 {
		sc = -sc
	}
	c.sc = sc
	return c, true
}

// FuzzKernels checks every transposing kernel set of this CPU, and the portable kernel, against an
// element-by-element copy on random blocks: sizes below, at and between whole panels, column strides
// of either sign that may overlap, every alignment of source and destination, padded destination
// rows, with and without non-temporal stores. Nothing outside the block may be written.
func FuzzKernels(f *testing.F) {
	f.Add([]byte{2, 64, 0, 64, 0, 0, 0, 0, 1, 0, 0})
	f.Add([]byte{0, 200, 1, 100, 0, 3, 5, 7, 5, 9, 1})
	f.Add([]byte{1, 33, 0, 97, 1, 17, 32, 12, 0, 0, 0})
	f.Add([]byte{3, 17, 0, 9, 0, 8, 8, 0, 4, 3, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, ok := decodeKernelCase(data)
		if !ok {
			return
		}
		c.check(t)
	})
}

// TestKernels is FuzzKernels on random cases, so that every test run checks the kernels.
func TestKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 11)
	for range 400 {
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		c, _ := decodeKernelCase(data)
		c.check(t)
	}
}
