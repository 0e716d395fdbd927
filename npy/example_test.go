package npy_test

import (
	"bytes"
	"fmt"

	"github.com/reshape-go/reshape/npy"
	"github.com/reshape-go/reshape/tensor"
)

// Reading a Fortran-order file gives a strided view whose logical order is C order, as numpy sees
// the array. testdata/fortran.npy is what
// np.save("fortran.npy", np.asfortranarray(np.arange(6, dtype="<i4").reshape(2, 3))) writes.
func ExampleReadFile() {
	t, h, err := npy.ReadFile("testdata/fortran.npy")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s fortran_order=%v shape=%v data at byte %d\n", h.Descr, h.FortranOrder, h.Shape, h.DataOffset)
	fmt.Println("strides in bytes:", t.Strides(), "contiguous:", t.IsContiguous())
	v, _ := tensor.Values[int32](t)
	fmt.Println(v)
	// Output:
	// <i4 fortran_order=true shape=[2 3] data at byte 128
	// strides in bytes: [4 8] contiguous: false
	// [0 1 2 3 4 5]
}

// Write always writes C order, with the header numpy writes; Read reads it back.
func ExampleWrite() {
	t, _ := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 3, 2)
	var buf bytes.Buffer
	if err := npy.Write(&buf, t, npy.WriteOptions{BigEndian: true}); err != nil {
		fmt.Println(err)
		return
	}
	back, h, err := npy.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.Values[float32](back)
	fmt.Println(buf.Len(), "bytes:", h.Descr, h.Shape, v)
	// Output:
	// 152 bytes: >f4 [3 2] [1 2 3 4 5 6]
}
