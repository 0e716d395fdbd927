package onnx_test

import (
	"fmt"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/tensor"
)

// A Reshape pattern written as ONNX writes the input_1.pb of its backend tests, decoded, and run by
// the project's ONNX Reshape.
func ExampleDecodeTensor() {
	pattern, _ := tensor.FromSlice([]int64{0, -1, 4})
	b, err := onnx.EncodeTensor(pattern, "shape")
	if err != nil {
		panic(err)
	}
	t, err := onnx.DecodeTensor(b)
	if err != nil {
		panic(err)
	}
	p, err := t.Ints()
	if err != nil {
		panic(err)
	}
	out, err := reshape.Infer([]int64{2, 5, 5, 24}, p, reshape.Options{Dialect: reshape.ONNX})
	fmt.Println(t.Name, t.DataType, t.Dims, p, out, err)
	// Output: shape INT64 [3] [0 -1 4] [2 150 4] <nil>
}
