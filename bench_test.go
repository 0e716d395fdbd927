package reshape_test

import (
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// BenchmarkInferStatic is the rank-4 example 2 of the OpenVINO specification, the destination reused.
func BenchmarkInferStatic(b *testing.B) {
	in, pattern := []int64{2, 5, 5, 24}, []int64{0, -1, 4}
	opt := reshape.Options{SpecialZero: true}
	dst := make([]int64, 0, 8)
	b.ReportAllocs()
	for b.Loop() {
		out, err := reshape.AppendInfer(dst[:0], in, pattern, opt)
		if err != nil || out[1] != 150 {
			b.Fatal(out, err)
		}
	}
}

// BenchmarkInferPartial infers a rank-4 interval input with an interval pattern, the destination
// reused.
func BenchmarkInferPartial(b *testing.B) {
	in := shape.Of(shape.Interval(1, 8), shape.Interval(16, 64), shape.Static(6), shape.Interval(200, 400))
	p := reshape.PatternOf(shape.Interval(16, 64), shape.Static(0), shape.Static(-1))
	opt := reshape.Options{SpecialZero: true}
	dst := make([]shape.Dim, 0, 8)
	b.ReportAllocs()
	for b.Loop() {
		out, err := reshape.AppendInferPartial(dst[:0], in, p, opt)
		if err != nil || out.Dims[2] != shape.Interval(19, 1200) {
			b.Fatal(out, err)
		}
	}
}

// BenchmarkInferPartialRank5 infers a rank-5 interval input with two special zeros and an interval
// pattern value (OpenVINO type_prop reshape_interval_propagation, reduced), the destination reused.
func BenchmarkInferPartialRank5(b *testing.B) {
	in := shape.Of(shape.Interval(1, 2), shape.Interval(2, 4), shape.Static(6), shape.Interval(2, 4), shape.Static(8))
	p := reshape.PatternOf(shape.Interval(3, 5), shape.Static(0), shape.Static(1), shape.Static(0), shape.Static(-1))
	opt := reshape.Options{SpecialZero: true}
	dst := make([]shape.Dim, 0, 8)
	b.ReportAllocs()
	for b.Loop() {
		out, err := reshape.AppendInferPartial(dst[:0], in, p, opt)
		if err != nil || out.Dims[4] != shape.Interval(10, 32) {
			b.Fatal(out, err)
		}
	}
}

// BenchmarkInferSymbolic flattens a symbolic [N,64,8,8] by the pattern [0,64,-1], the Reshape of
// each block of bench/gen's wide graph: the -1 divides the input dims the other output dims do not
// share (8·8), no product of N.
func BenchmarkInferSymbolic(b *testing.B) {
	tab := sym.NewTable()
	in, err := sym.ParseShape("[N,64,8,8]", tab)
	if err != nil {
		b.Fatal(err)
	}
	values := []sym.Dim{sym.Const(0), sym.Const(64), sym.Const(-1)}
	want, err := sym.ParseShape("[N,64,64]", tab)
	if err != nil {
		b.Fatal(err)
	}
	opt := reshape.Options{Dialect: reshape.ONNX}.WithSpecialZero(true) // Reshape-14 without allowzero
	b.ReportAllocs()
	for b.Loop() {
		out, err := reshape.InferSymbolic(in, shape.OfInts(3), values, opt)
		if err != nil || !out.Equal(want) {
			b.Fatal(out, err)
		}
	}
}
