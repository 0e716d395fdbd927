package tensor_test

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/tensor"
)

// viewCases are dense f32 tensors reshaped into views: rank 1 to rank 2 at two sizes (the cost must
// not depend on the size), and the rank-4 example 2 of the OpenVINO specification.
var viewCases = []struct {
	name    string
	dims    []int64
	pattern []int64
	opt     reshape.Options
	want    []int64
}{
	{"rank1-1KiB", []int64{1 << 8}, []int64{16, -1}, reshape.Options{}, []int64{16, 1 << 4}},
	{"rank1-1GiB", []int64{1 << 28}, []int64{16, -1}, reshape.Options{}, []int64{16, 1 << 24}},
	{"rank4", []int64{2, 5, 5, 24}, []int64{0, -1, 4}, reshape.Options{SpecialZero: true}, []int64{2, 150, 4}},
}

// BenchmarkReshapeView reshapes dense tensors with Apply, the pattern kept from one call to the
// next as a runtime keeps it: a view, whose one allocation is its shape and strides. Each case
// starts from a collected heap, so that the garbage of the ones before does not change its cost;
// the live heap is then the input alone, and the garbage collector runs each time the results
// fill as much again (GOGC=100): often for the small inputs, hardly ever for the 1 GiB one.
func BenchmarkReshapeView(b *testing.B) {
	for _, bc := range viewCases {
		b.Run(bc.name, func(b *testing.B) {
			x, err := tensor.New(element.F32, bc.dims...)
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			pattern := reshape.IntPattern(bc.pattern...)
			var out tensor.Tensor
			b.ReportAllocs()
			for b.Loop() {
				var how tensor.Method
				if out, how, err = reshape.Apply(x, pattern, bc.opt); err != nil || !how.View {
					b.Fatal(how, err)
				}
			}
			if !slices.Equal(out.Shape(), bc.want) {
				b.Fatalf("shape %v, want %v", out.Shape(), bc.want)
			}
		})
	}
}

// BenchmarkReshapeViewInto is BenchmarkReshapeView with ApplyInto reusing the output tensor: no
// allocation at all.
func BenchmarkReshapeViewInto(b *testing.B) {
	for _, bc := range viewCases {
		b.Run(bc.name, func(b *testing.B) {
			x, err := tensor.New(element.F32, bc.dims...)
			if err != nil {
				b.Fatal(err)
			}
			var out tensor.Tensor
			b.ReportAllocs()
			for b.Loop() {
				if how, err := reshape.ApplyInto(&out, x, bc.pattern, bc.opt); err != nil || !how.View {
					b.Fatal(how, err)
				}
			}
			if !slices.Equal(out.Shape(), bc.want) {
				b.Fatalf("shape %v, want %v", out.Shape(), bc.want)
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
	transposed := func(t element.Type, rows, cols int64) tensor.Tensor {
		xt, _ := filled(b, t, rows, cols).Transpose()
		return xt
	}
	// 128 MiB, the first half of each row kept.
	sliced, _ := filled(b, element.F16, 4096, 2*8192).Slice(1, 0, 8192, 1)
	return []struct {
		name string
		in   tensor.Tensor
	}{
		{"transposed-f32-64MiB", transposed(element.F32, 4096, 4096)},
		{"transposed-u8-64MiB", transposed(element.U8, 8192, 8192)},
		{"transposed-f16-64MiB", transposed(element.F16, 4096, 8192)},
		{"transposed-f64-64MiB", transposed(element.F64, 2048, 4096)},
		{"sliced-f16-64MiB", sliced},
	}
}

// BenchmarkReshapeCopy reshapes tensors whose layout forces a copy, into a destination reused from
// one call to the next (ReshapeInto), as a runtime with its own memory does; bytes/s are those of
// the output. BenchmarkMemcpy is the yardstick.
func BenchmarkReshapeCopy(b *testing.B) {
	for _, bc := range copyCases(b) {
		b.Run(bc.name, func(b *testing.B) {
			// Reused: its shape, strides and data, allocated and touched before the timing starts.
			var out tensor.Tensor
			if _, err := reshape.ApplyInto(&out, bc.in, []int64{-1}, reshape.Options{}); err != nil {
				b.Fatal(err)
			}
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

// BenchmarkReshapeCopyKernels is BenchmarkReshapeCopy of the transposed cases with each set of
// transposing kernels this CPU runs, and with the portable kernel alone.
func BenchmarkReshapeCopyKernels(b *testing.B) {
	for _, k := range tensor.KernelSetNames() {
		for _, bc := range copyCases(b) {
			if !strings.HasPrefix(bc.name, "transposed") {
				continue
			}
			b.Run(k+"/"+bc.name, func(b *testing.B) {
				defer tensor.UseKernels(k)()
				var out tensor.Tensor
				if _, err := reshape.ApplyInto(&out, bc.in, []int64{-1}, reshape.Options{}); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(bc.in.ByteSize())
				for b.Loop() {
					if _, err := reshape.ApplyInto(&out, bc.in, []int64{-1}, reshape.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
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
