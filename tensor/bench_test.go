package tensor_test

import (
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/tensor"
)

// BenchmarkReshapeView reshapes a dense f32 tensor with Reshape: a view whose cost must not depend
// on the size, and one allocation (its shape and strides).
func BenchmarkReshapeView(b *testing.B) {
	for _, bc := range []struct {
		name string
		n    int64
	}{{"1KiB", 1 << 8}, {"1GiB", 1 << 28}} {
		b.Run(bc.name, func(b *testing.B) {
			x, err := tensor.New(element.F32, bc.n)
			if err != nil {
				b.Fatal(err)
			}
			pattern := []int64{16, -1}
			b.ReportAllocs()
			for b.Loop() {
				out, how, err := reshape.Apply(x, reshape.IntPattern(pattern...), reshape.Options{})
				if err != nil || !how.View || out.Shape()[1] != bc.n/16 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReshapeViewInto is BenchmarkReshapeView with ReshapeInto reusing the output tensor: no
// allocation at all.
func BenchmarkReshapeViewInto(b *testing.B) {
	for _, bc := range []struct {
		name string
		n    int64
	}{{"1KiB", 1 << 8}, {"1GiB", 1 << 28}} {
		b.Run(bc.name, func(b *testing.B) {
			x, err := tensor.New(element.F32, bc.n)
			if err != nil {
				b.Fatal(err)
			}
			pattern := []int64{16, -1}
			var out tensor.Tensor
			b.ReportAllocs()
			for b.Loop() {
				how, err := reshape.ApplyInto(&out, x, pattern, reshape.Options{})
				if err != nil || !how.View || out.Shape()[1] != bc.n/16 {
					b.Fatal(err)
				}
			}
		})
	}
}

const size64MiB = 64 << 20

// copyCases are tensors whose layout forces a copy when flattened, 64 MiB of elements each.
func copyCases(b *testing.B) []struct {
	name string
	in   tensor.Tensor
} {
	transposed := func(t element.Type, n int64) tensor.Tensor {
		xt, _ := filled(b, t, n, n).Transpose()
		return xt
	}
	// 128 MiB, the first half of each row kept.
	sliced, _ := filled(b, element.F16, 4096, 2*8192).Slice(1, 0, 8192, 1)
	return []struct {
		name string
		in   tensor.Tensor
	}{
		{"transposed-f32-64MiB", transposed(element.F32, 4096)},
		{"transposed-u8-64MiB", transposed(element.U8, 8192)},
		{"sliced-f16-64MiB", sliced},
	}
}

// BenchmarkReshapeCopy reshapes tensors whose layout forces a copy, into a destination reused from
// one call to the next (ReshapeInto), as a runtime with its own memory does; bytes/s are those of
// the output. BenchmarkMemcpy is the yardstick.
func BenchmarkReshapeCopy(b *testing.B) {
	for _, bc := range copyCases(b) {
		b.Run(bc.name, func(b *testing.B) {
			var out tensor.Tensor // reused: its shape, strides and data
			b.SetBytes(bc.in.ByteSize())
			b.ReportAllocs()
			for b.Loop() {
				how, err := reshape.ApplyInto(&out, bc.in, []int64{-1}, reshape.Options{})
				if err != nil || how.View {
					b.Fatal(how, err)
				}
			}
		})
	}
}

// BenchmarkReshapeCopyAlloc is BenchmarkReshapeCopy with Reshape, which allocates the output each
// time: the allocator's zeroing of 64 MiB is part of the cost.
func BenchmarkReshapeCopyAlloc(b *testing.B) {
	for _, bc := range copyCases(b) {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(bc.in.ByteSize())
			b.ReportAllocs()
			for b.Loop() {
				_, how, err := reshape.Apply(bc.in, reshape.IntPattern(-1), reshape.Options{})
				if err != nil || how.View {
					b.Fatal(how, err)
				}
			}
		})
	}
}

// BenchmarkMemcpy is the yardstick of the copies: a plain copy of 64 MiB.
func BenchmarkMemcpy(b *testing.B) {
	b.Run("64MiB", func(b *testing.B) {
		src, dst := filled(b, element.U8, size64MiB).Data(), make([]byte, size64MiB)
		b.SetBytes(size64MiB)
		for b.Loop() {
			copy(dst, src)
		}
	})
}

// filled returns a dense tensor whose every byte is written, so that reads hit real memory rather
// than the kernel's shared zero page of a fresh allocation.
func filled(b *testing.B, t element.Type, dims ...int64) tensor.Tensor {
	x, err := tensor.New(t, dims...)
	if err != nil {
		b.Fatal(err)
	}
	for i := range x.Data() {
		x.Data()[i] = byte(i*31 + 7)
	}
	return x
}
