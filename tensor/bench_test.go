package tensor_test

import (
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/tensor"
)

// BenchmarkReshapeView reshapes a dense f32 tensor: a view whose cost must not depend on the size.
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
				out, how, err := tensor.Reshape(x, pattern, reshape.Options{})
				if err != nil || !how.View || out.Shape()[1] != bc.n/16 {
					b.Fatal(err)
				}
			}
		})
	}
}

const size64MiB = 64 << 20

// BenchmarkReshapeCopy reshapes tensors whose layout forces a copy; bytes/s are those of the output.
func BenchmarkReshapeCopy(b *testing.B) {
	transposed := func(t element.Type, n int64) tensor.Tensor {
		x, err := tensor.New(t, n, n)
		if err != nil {
			b.Fatal(err)
		}
		xt, _ := x.Transpose()
		return xt
	}
	sliced := func() tensor.Tensor {
		x, err := tensor.New(element.F16, 4096, 2*8192) // 128 MiB, the first half of each row kept
		if err != nil {
			b.Fatal(err)
		}
		s, _ := x.Slice(1, 0, 8192, 1)
		return s
	}
	for _, bc := range []struct {
		name string
		in   func() tensor.Tensor
	}{
		{"transposed-f32-64MiB", func() tensor.Tensor { return transposed(element.F32, 4096) }},
		{"transposed-u8-64MiB", func() tensor.Tensor { return transposed(element.U8, 8192) }},
		{"sliced-f16-64MiB", sliced},
	} {
		b.Run(bc.name, func(b *testing.B) {
			x := bc.in()
			b.SetBytes(x.ByteSize())
			b.ReportAllocs()
			for b.Loop() {
				_, how, err := tensor.Reshape(x, []int64{-1}, reshape.Options{})
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
		src, dst := make([]byte, size64MiB), make([]byte, size64MiB)
		b.SetBytes(size64MiB)
		for b.Loop() {
			copy(dst, src)
		}
	})
}
