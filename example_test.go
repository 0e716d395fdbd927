package reshape_test

// README.md shows this file from its import declaration to its end, and cmd/reshape's
// TestREADMEExample fails when the two differ.

import (
	"errors"
	"fmt"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// The library in one page: static and partial shape inference, a reshape of data, and the errors.
func Example() {
	// Static shapes: []int64 in, []int64 out.
	out, err := reshape.Infer([]int64{2, 5, 5, 24}, []int64{0, -1, 4}, reshape.Options{SpecialZero: true})
	fmt.Println(out, err)

	// The hot path: reuse the destination; no allocation.
	dst := make([]int64, 0, 8)
	dst, err = reshape.AppendInfer(dst[:0], []int64{6, 4}, []int64{-1, 2, 3}, reshape.Options{})
	fmt.Println(dst, err)

	// Partial shapes, any dialect; an ONNX Reshape without attributes copies zeros (allowzero=0).
	in, _ := shape.Parse("[1..8,?,6]")
	p, _ := reshape.ParsePattern("0,-1,3")
	ps, err := reshape.InferPartial(in, p, reshape.Options{Dialect: reshape.ONNX})
	fmt.Println(ps, err)

	// Data: a view when the layout allows, one dense copy otherwise.
	x, _ := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	xt, _ := x.Transpose() // [3,2], a strided view
	flat, how, err := reshape.Apply(xt, reshape.IntPattern(-1), reshape.Options{})
	values, _ := tensor.Values[float32](flat)
	fmt.Println(flat.Shape(), how.View, values, err)

	// Errors: one sentinel per code, and the index at fault.
	_, err = reshape.Infer([]int64{2, 3}, []int64{1, -3}, reshape.Options{})
	fmt.Println(errors.Is(err, reshape.ErrInvalidDim), reshape.Code(err))
	fmt.Println(err)
	// Output:
	// [2 150 4] <nil>
	// [4 2 3] <nil>
	// [1..8,?,3] <nil>
	// [6] false [1 4 2 5 3 6] <nil>
	// true invalid-dim
	// pattern[1] = -3: dimension cannot be less than -1
}
