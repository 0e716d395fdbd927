package reshape_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

func TestApply(t *testing.T) {
	x, _ := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	scalar, _ := tensor.FromSlice([]float32{7}, 1, 1)
	tests := []struct {
		name string
		in   tensor.Tensor
		p    reshape.Pattern
		opt  reshape.Options
		want []int64
		err  error
	}{
		{"special zero", x, reshape.IntPattern(0, -1), reshape.Options{SpecialZero: true}, []int64{2, 3}, nil},
		{"flatten", x, reshape.IntPattern(-1), reshape.Options{}, []int64{6}, nil},
		// A scalar pattern keeps its rank: the output is a scalar, not [1].
		{"scalar pattern", scalar, reshape.ScalarPattern(shape.Static(1)), reshape.Options{}, []int64{}, nil},
		{"empty pattern", scalar, reshape.IntPattern(), reshape.Options{}, []int64{}, nil},
		{"scalar pattern outside openvino", scalar, reshape.ScalarPattern(shape.Static(1)), reshape.Options{Dialect: reshape.ONNX}, nil, reshape.ErrPatternRank},
		{"not divisible", x, reshape.IntPattern(4, -1), reshape.Options{}, nil, reshape.ErrNotDivisible},
		{"interval value", x, reshape.PatternOf(shape.Interval(1, 6), shape.Static(-1)), reshape.Options{}, nil, reshape.ErrSyntax},
		{"unknown values", x, reshape.UnknownPattern(shape.OfInts(2)), reshape.Options{}, nil, reshape.ErrSyntax},
		{"data type", x, reshape.IntPattern(6), reshape.Options{Dialect: reshape.OneDNNStatic}, []int64{6}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := reshape.Apply(tt.in, tt.p, tt.opt)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Apply = %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil || !slices.Equal(out.Shape(), tt.want) {
				t.Fatalf("Apply = %v, %v, want %v", out.Shape(), err, tt.want)
			}
		})
	}
	u8, _ := tensor.FromSlice([]uint8{1, 2}, 2)
	if _, _, err := reshape.Apply(u8, reshape.IntPattern(2), reshape.Options{Dialect: reshape.OneDNNStatic}); !errors.Is(err, reshape.ErrDataType) {
		t.Errorf("Apply of u8 data in onednn-static = %v, want data-type", err)
	}
}

func TestApplyIntoNoAlloc(t *testing.T) {
	x, _ := tensor.New(tensor.TypeOf[float32](), 2, 5, 5, 24)
	var out tensor.Tensor
	pattern := []int64{0, -1, 4}
	opt := reshape.Options{SpecialZero: true}
	if _, err := reshape.ApplyInto(&out, x, pattern, opt); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = reshape.ApplyInto(&out, x, pattern, opt) }); n != 0 {
		t.Errorf("ApplyInto with capacity allocates %v times, want 0", n)
	}
	if !slices.Equal(out.Shape(), []int64{2, 150, 4}) {
		t.Errorf("ApplyInto shape = %v", out.Shape())
	}
}

func ExampleApply() {
	x, _ := tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	xt, _ := x.Transpose() // [3,2]: a strided view, strides [4,12] bytes
	out, how, _ := reshape.Apply(xt, reshape.IntPattern(-1), reshape.Options{})
	v, _ := tensor.Values[int32](out)
	fmt.Println(out.Shape(), v, how.View, how.Reason())
	out, how, _ = reshape.Apply(x, reshape.IntPattern(0, 1, -1), reshape.Options{SpecialZero: true})
	fmt.Println(out.Shape(), how.View)
	// Output:
	// [6] [1 4 2 5 3 6] false input axes 0..1 merge into output axes 0..0, but stride[0] = 4 != dim[1]·stride[1] = 24: not contiguous
	// [2 1 3] true
}

func TestPatternFromTensor(t *testing.T) {
	vec, _ := tensor.FromSlice([]int32{0, -1, 4})
	scalar, _ := tensor.FromSlice([]int64{1}, []int64{}...)
	matrix, _ := tensor.FromSlice([]int64{1, 2}, 1, 2)
	floats, _ := tensor.FromSlice([]float32{1})
	big, _ := tensor.FromSlice([]uint64{1, 1 << 63})
	tests := []struct {
		t       tensor.Tensor
		pattern string
		shape   string
		err     error
	}{
		{vec, "[0,-1,4]", "[3]", nil},
		{scalar, "1", "[]", nil},
		{matrix, "[1,2]", "[1,2]", nil},
		{floats, "", "", reshape.ErrPatternType},
		{big, "", "", reshape.ErrOverflow},
	}
	for _, tt := range tests {
		p, typ, err := reshape.PatternFromTensor(tt.t)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("PatternFromTensor(%v) = %v, want %v", tt.t.Type(), err, tt.err)
			}
			continue
		}
		if err != nil || p.String() != tt.pattern || p.TensorShape().String() != tt.shape || typ != tt.t.Type() {
			t.Errorf("PatternFromTensor(%v) = %v %v %v, %v; want %s of shape %s", tt.t.Type(), p, p.TensorShape(), typ, err, tt.pattern, tt.shape)
		}
	}
	// A scalar pattern from a tensor gives a scalar; inferring refuses the rank-2 pattern.
	p, _, _ := reshape.PatternFromTensor(scalar)
	if out, err := reshape.ApplyShape([]int64{1, 1}, p, reshape.Options{}); err != nil || len(out) != 0 || out == nil {
		t.Errorf("ApplyShape by a scalar pattern = %v, %v", out, err)
	}
	p, _, _ = reshape.PatternFromTensor(matrix)
	if _, err := reshape.ApplyShape([]int64{2}, p, reshape.Options{}); !errors.Is(err, reshape.ErrPatternRank) {
		t.Errorf("ApplyShape by a rank-2 pattern: %v", err)
	}
}
