package tensor_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/x448/float16"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/bfloat16"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/tensor"
)

// naive returns the elements of t in logical row-major order, one element's bytes after another,
// by walking every index and computing its byte offset: the reference the copy kernels must match.
func naive(t tensor.Tensor) []byte {
	es := int64(t.Type().Bits() / 8)
	dims := t.Shape()
	var out []byte
	idx := make([]int64, len(dims))
	for range t.Len() {
		off := t.Offset()
		for k, i := range idx {
			off += i * t.Strides()[k]
		}
		out = append(out, t.Data()[off:off+es]...)
		for k := len(idx) - 1; k >= 0; k-- {
			idx[k]++
			if idx[k] < dims[k] {
				break
			}
			idx[k] = 0
		}
	}
	return out
}

// viewAllowed is the view rule of the package documentation written independently of the package:
// split both shapes (without axes of size 1) into the shortest groups of equal product; every group
// of several input axes must be contiguous within itself.
func viewAllowed(dims, strides, newDims []int64) bool {
	var od, os []int64
	n := int64(1)
	for i, d := range dims {
		n *= d
		if d != 1 {
			od, os = append(od, d), append(os, strides[i])
		}
	}
	if n == 0 {
		return true
	}
	var nd []int64
	for _, d := range newDims {
		if d != 1 {
			nd = append(nd, d)
		}
	}
	i, j := 0, 0
	for i < len(od) {
		start, po, pn := i, od[i], nd[j]
		i, j = i+1, j+1
		for po != pn {
			if po < pn {
				po *= od[i]
				i++
			} else {
				pn *= nd[j]
				j++
			}
		}
		for k := start; k < i-1; k++ {
			if os[k] != od[k+1]*os[k+1] {
				return false
			}
		}
	}
	return true
}

func iota(t element.Type, dims ...int64) tensor.Tensor {
	x, err := tensor.New(t, dims...)
	if err != nil {
		panic(err)
	}
	for i := range x.Data() {
		x.Data()[i] = byte(i*7 + 3)
	}
	return x
}

func TestReshapeViewsAndCopies(t *testing.T) {
	base := iota(element.F32, 4, 6, 10)
	transposed, _ := base.Transpose(2, 0, 1) // [10,4,6]
	sliced, _ := base.Slice(2, 1, 9, 2)      // [4,6,4], last axis step 2
	outer, _ := base.Slice(0, 1, 3, 1)       // [2,6,10], outer axis cut
	reversed, _ := base.Slice(1, 5, -1, -1)  // [4,6,10], axis 1 reversed
	tests := []struct {
		name    string
		in      tensor.Tensor
		pattern []int64
		view    bool
	}{
		{"dense flatten", base, []int64{-1}, true},
		{"dense split", base, []int64{2, 2, 60}, true},
		{"transposed flatten", transposed, []int64{-1}, false},
		{"transposed split first axis", transposed, []int64{2, 5, 4, 6}, true},
		{"transposed merge last two", transposed, []int64{10, 24}, true},
		{"transposed merge first two", transposed, []int64{40, 6}, false},
		{"transposed add ones", transposed, []int64{1, 10, 1, 4, 6, 1}, true},
		{"sliced step merge inner", sliced, []int64{4, 24}, false},
		{"sliced step split last", sliced, []int64{4, 6, 2, 2}, true},
		{"sliced step merge outer", sliced, []int64{24, 4}, true},
		{"outer cut merge all", outer, []int64{-1}, true},
		{"reversed merge inner", reversed, []int64{4, 60}, false},
		{"reversed merge first two", reversed, []int64{24, 10}, false},
		{"reversed split", reversed, []int64{4, 2, 3, 10}, true},
		{"special zero keeps axis", transposed, []int64{0, -1}, true},
	}
	for _, tt := range tests {
		out, how, err := reshape.Apply(tt.in, reshape.IntPattern(tt.pattern...), reshape.Options{SpecialZero: true})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if how.View != tt.view || how.View != viewAllowed(tt.in.Shape(), tt.in.Strides(), out.Shape()) {
			t.Errorf("%s: view %v (%s), want %v", tt.name, how.View, how.Reason(), tt.view)
		}
		if how.View && &out.Data()[0] != &tt.in.Data()[0] {
			t.Errorf("%s: a view that does not share memory", tt.name)
		}
		if !how.View && !out.IsContiguous() {
			t.Errorf("%s: a copy that is not dense", tt.name)
		}
		if !bytes.Equal(naive(out), naive(tt.in)) {
			t.Errorf("%s: elements out of order", tt.name)
		}
	}
}

// TestReshapeRandom reshapes random strided views of random shapes into random shapes of the same
// volume: the view-or-copy decision must follow the rule, and the elements keep their order.
func TestReshapeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 3000 {
		rank := 1 + rng.IntN(4)
		dims := make([]int64, rank)
		for i := range dims {
			dims[i] = int64(1 + rng.IntN(5))
		}
		types := []element.Type{element.U8, element.F16, element.F32, element.I64}
		x := iota(types[rng.IntN(len(types))], dims...)
		// A random permutation and a random slice.
		perm := rng.Perm(rank)
		x, _ = x.Transpose(perm...)
		ax := rng.IntN(rank)
		if d := x.Shape()[ax]; d > 1 {
			step := int64(1 + rng.IntN(2))
			if rng.IntN(2) == 0 {
				x, _ = x.Slice(ax, d-1, -1, -step)
			} else {
				x, _ = x.Slice(ax, 0, d, step)
			}
		}
		// A random target shape: factor the volume.
		n := x.Len()
		var target []int64
		for n > 1 {
			f := int64(2 + rng.IntN(4))
			for n%f != 0 {
				f = n
			}
			target = append(target, f)
			n /= f
			if rng.IntN(4) == 0 {
				target = append(target, 1)
			}
		}
		out, how, err := reshape.Apply(x, reshape.IntPattern(target...), reshape.Options{})
		if err != nil {
			t.Fatalf("iteration %d: Reshape(%v strides %v, %v): %v", iter, x.Shape(), x.Strides(), target, err)
		}
		if want := viewAllowed(x.Shape(), x.Strides(), out.Shape()); how.View != want {
			t.Fatalf("iteration %d: %v strides %v -> %v: view %v (%s), the rule says %v", iter, x.Shape(), x.Strides(), target, how.View, how.Reason(), want)
		}
		if !bytes.Equal(naive(out), naive(x)) {
			t.Fatalf("iteration %d: %v strides %v -> %v: elements out of order", iter, x.Shape(), x.Strides(), target)
		}
	}
}

func TestReshapeErrors(t *testing.T) {
	x := iota(element.I8, 2, 3)
	if _, _, err := reshape.Apply(x, reshape.IntPattern(4, -1), reshape.Options{}); !errors.Is(err, errcode.ErrNotDivisible) {
		t.Errorf("not divisible: %v", err)
	}
	if _, _, err := reshape.Apply(x, reshape.IntPattern(6), reshape.Options{Dialect: reshape.OneDNNStatic}); !errors.Is(err, errcode.ErrDataType) {
		t.Errorf("i8 data in oneDNN: %v", err)
	}
	if _, _, err := x.View(7); !errors.Is(err, errcode.ErrVolumeMismatch) {
		t.Errorf("View of another volume: %v", err)
	}
}

func TestPacked(t *testing.T) {
	// u4, low nibble first: elements 0..5 of a [2,3] tensor.
	x, err := tensor.FromBytes(element.U4, []int64{2, 3}, []byte{0x10, 0x32, 0x54})
	if err != nil {
		t.Fatal(err)
	}
	out, how, err := reshape.Apply(x, reshape.IntPattern(3, 2), reshape.Options{})
	if err != nil || !how.View || !slices.Equal(out.Shape(), []int64{3, 2}) {
		t.Fatalf("Reshape u4 = %v, %+v, %v", out.Shape(), how, err)
	}
	tr, err := x.Transpose()
	if err != nil {
		t.Fatal(err)
	}
	// [[0,1,2],[3,4,5]] transposed is [[0,3],[1,4],[2,5]]: packed again, densely.
	if b, _ := tr.Bytes(); !bytes.Equal(b, []byte{0x30, 0x41, 0x52}) || tr.Strides() != nil {
		t.Errorf("u4 transpose = % x", b)
	}
	if got := tensor.Float64s(tr); !slices.Equal(got, []float64{0, 3, 1, 4, 2, 5}) {
		t.Errorf("u4 values %v", got)
	}
	u1, _ := tensor.FromBytes(element.U1, []int64{9}, []byte{0b1010_0000, 0b1000_0000})
	sl, err := u1.Slice(0, 0, 9, 2)
	if got := tensor.Float64s(sl); err != nil || !slices.Equal(got, []float64{1, 1, 0, 0, 1}) {
		t.Errorf("u1 slice = %v, %v", got, err)
	}
	i4, _ := tensor.FromBytes(element.I4, []int64{2}, []byte{0x8f})
	if got := tensor.Float64s(i4); !slices.Equal(got, []float64{-1, -8}) {
		t.Errorf("i4 values %v", got)
	}
	if _, err := tensor.Strided(element.U4, []int64{2}, []int64{1}, 0, []byte{0}); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("strided u4: %v", err)
	}
}

func TestFromSliceValues(t *testing.T) {
	x, err := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := x.Transpose()
	got, err := tensor.Values[float32](tr)
	if err != nil || !slices.Equal(got, []float32{1, 4, 2, 5, 3, 6}) {
		t.Errorf("Values of the transpose = %v, %v", got, err)
	}
	if _, err := tensor.Values[int32](x); !errors.Is(err, errcode.ErrDataType) {
		t.Errorf("Values of the wrong type: %v", err)
	}
	if _, err := tensor.FromSlice([]int8{1, 2, 3}, 2, 2); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("FromSlice with a wrong shape: %v", err)
	}
	h, _ := tensor.FromSlice([]float16.Float16{float16.Fromfloat32(1.5), float16.Fromfloat32(-2)})
	b, _ := tensor.FromSlice([]bfloat16.BFloat16{bfloat16.FromFloat32(0.5)})
	bo, _ := tensor.FromSlice([]bool{true, false})
	if got := append(append(tensor.Float64s(h), tensor.Float64s(b)...), tensor.Float64s(bo)...); !slices.Equal(got, []float64{1.5, -2, 0.5, 1, 0}) {
		t.Errorf("Float64s = %v", got)
	}
	for _, tt := range []struct {
		t    element.Type
		b    byte
		want float64
	}{
		{element.F8E4M3, 0x38, 1}, {element.F8E4M3, 0x7e, 448}, {element.F8E4M3, 0x01, math.Ldexp(1, -9)},
		{element.F8E5M2, 0x3c, 1}, {element.F8E5M2, 0x7c, math.Inf(1)}, {element.F8E5M2, 0xc0, -2},
		// FNUZ (ONNX 1.14): biases 8 and 16, largest 240 and 57344, smallest 2^-10 and 2^-17.
		{element.F8E4M3FNUZ, 0x40, 1}, {element.F8E4M3FNUZ, 0x7f, 240}, {element.F8E4M3FNUZ, 0x01, math.Ldexp(1, -10)},
		{element.F8E4M3FNUZ, 0xc0, -1}, {element.F8E4M3FNUZ, 0x00, 0},
		{element.F8E5M2FNUZ, 0x40, 1}, {element.F8E5M2FNUZ, 0x7f, 57344}, {element.F8E5M2FNUZ, 0x01, math.Ldexp(1, -17)},
		{element.F8E5M2FNUZ, 0xbc, -0.5},
	} {
		x, _ := tensor.FromBytes(tt.t, []int64{1}, []byte{tt.b})
		if got := tensor.Float64s(x)[0]; got != tt.want {
			t.Errorf("%v %#02x = %v, want %v", tt.t, tt.b, got, tt.want)
		}
	}
	nan, _ := tensor.FromBytes(element.F8E4M3, []int64{1}, []byte{0x7f})
	if !math.IsNaN(tensor.Float64s(nan)[0]) {
		t.Error("f8e4m3 0x7f is not NaN")
	}
	for _, typ := range []element.Type{element.F8E4M3FNUZ, element.F8E5M2FNUZ} {
		nan, _ := tensor.FromBytes(typ, []int64{1}, []byte{0x80})
		if !math.IsNaN(tensor.Float64s(nan)[0]) {
			t.Errorf("%v 0x80 is not NaN", typ)
		}
	}
}

func TestConstructorErrors(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"negative dim", second(tensor.New(element.F32, 2, -1)), errcode.ErrSyntax},
		{"overflow", second(tensor.New(element.F64, 1<<40, 1<<40)), errcode.ErrOverflow},
		{"undefined type", second(tensor.New(element.Undefined, 2)), errcode.ErrDataType},
		{"short data", second(tensor.FromBytes(element.F32, []int64{2}, make([]byte, 7))), errcode.ErrSyntax},
		{"strided out of bounds", second(tensor.Strided(element.F32, []int64{2, 2}, []int64{8, 4}, 4, make([]byte, 16))), errcode.ErrSyntax},
		{"strided below 0", second(tensor.Strided(element.F32, []int64{2}, []int64{-4}, 0, make([]byte, 16))), errcode.ErrSyntax},
		{"strided rank", second(tensor.Strided(element.F32, []int64{2}, []int64{4, 4}, 0, make([]byte, 16))), errcode.ErrSyntax},
		{"bad permutation", second(iota(element.U8, 2, 3).Transpose(0, 0)), errcode.ErrSyntax},
		{"slice step 0", second(iota(element.U8, 2, 3).Slice(1, 0, 3, 0)), errcode.ErrSyntax},
		{"slice start", second(iota(element.U8, 2, 3).Slice(1, 3, 4, 1)), errcode.ErrSyntax},
		{"slice axis", second(iota(element.U8, 2, 3).Slice(2, 0, 1, 1)), errcode.ErrSyntax},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, tt.err, tt.want)
		}
	}
	x, err := tensor.Strided(element.F32, []int64{2}, []int64{-4}, 4, make([]byte, 8))
	if err != nil || x.Len() != 2 {
		t.Errorf("negative stride inside the data: %v", err)
	}
}

func second[T any](_ T, err error) error { return err }

func TestWriteTo(t *testing.T) {
	x := iota(element.I16, 300, 7, 3)
	tr, _ := x.Transpose(2, 1, 0)
	var buf bytes.Buffer
	n, err := tr.WriteTo(&buf)
	if err != nil || n != tr.ByteSize() || !bytes.Equal(buf.Bytes(), naive(tr)) {
		t.Fatalf("WriteTo = %d, %v", n, err)
	}
}

func ExampleTensor_ReshapedTo() {
	x, _ := tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	xt, _ := x.Transpose() // [3,2]: a view with strides [4,12]
	out, how, _ := xt.ReshapedTo(6)
	v, _ := tensor.Values[int32](out)
	fmt.Println(out.Shape(), v, how.View)
	out, how, _ = xt.ReshapedTo(3, 1, 2)
	fmt.Println(out.Shape(), how.View)
	// Output:
	// [6] [1 4 2 5 3 6] false
	// [3 1 2] true
}
