package reshape_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/internal/testenv"
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

// checkQuick compares the quick path of Apply and ApplyInto with AppendInfer and InferPartial on
// one case: whenever it takes the case, both give its shape without error. On a small input it
// also runs ApplyInto on a real tensor of type typ, whose result and error must be those of
// AppendInfer (the error message included) followed by ReshapedInto. It returns whether the quick
// path took the case and whether AppendInfer failed.
func checkQuick(t *testing.T, in, pattern []int64, opt reshape.Options, typ element.Type) (taken, failed bool) {
	t.Helper()
	opt.DataType = typ
	got, ok := reshape.QuickInfer(in, pattern, opt)
	want, err := reshape.AppendInfer(nil, in, pattern, opt)
	if ok {
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("quick path on %v by %v, %+v: %v; AppendInfer gives %v, %v", in, pattern, opt, got, want, err)
		}
		out, perr := reshape.InferPartial(shape.OfInts(in...), reshape.IntPattern(pattern...), opt)
		if perr != nil || out.String() != shape.OfInts(got...).String() {
			t.Fatalf("quick path on %v by %v, %+v: %v; InferPartial gives %v, %v", in, pattern, opt, got, out, perr)
		}
	}
	if v, verr := shape.Volume(in); verr == nil && v <= 1<<12 && !slices.ContainsFunc(in, func(d int64) bool { return d < 0 }) {
		x, xerr := tensor.New(typ, in...)
		if xerr != nil {
			t.Fatal(xerr)
		}
		var dst, ref tensor.Tensor
		_, aerr := reshape.ApplyInto(&dst, x, pattern, opt)
		if (aerr == nil) != (err == nil) || err != nil && (aerr.Error() != err.Error() || reshape.Code(aerr) != reshape.Code(err)) {
			t.Fatalf("ApplyInto on %v by %v, %+v: error %v; AppendInfer gives %v", in, pattern, opt, aerr, err)
		}
		if err == nil {
			if _, rerr := x.ReshapedInto(&ref, want); rerr != nil || !slices.Equal(dst.Shape(), ref.Shape()) || !slices.Equal(dst.Strides(), ref.Strides()) {
				t.Fatalf("ApplyInto on %v by %v, %+v: shape %v strides %v; ReshapedInto gives %v %v, %v", in, pattern, opt,
					dst.Shape(), dst.Strides(), ref.Shape(), ref.Strides(), rerr)
			}
		}
	}
	return ok, err != nil
}

// randomQuickCase returns an input shape, a pattern and options: the pattern is usually a
// regrouping of the input volume with a -1 or special zeros in it, and often spoilt (a value
// changed, a -2, a second -1, a 0 past the input rank); dimensions run from 0 to beyond 2^31.
func randomQuickCase(rng *rand.Rand) ([]int64, []int64, reshape.Options, element.Type) {
	dimsOf := []int64{1, 2, 3, 4, 5, 6, 8, 12, 24, 1 << 20, 1 << 31, 3 << 40}
	in := make([]int64, rng.IntN(6))
	for i := range in {
		in[i] = dimsOf[rng.IntN(8)]
		switch rng.IntN(40) {
		case 0:
			in[i] = 0
		case 1:
			in[i] = dimsOf[8+rng.IntN(4)]
		case 2:
			in[i] = -1
		}
	}
	// A regrouping: merge neighbours, split off small factors.
	var pattern []int64
	for _, d := range in {
		switch n := len(pattern); {
		case n > 0 && rng.IntN(3) == 0:
			pattern[n-1] *= d
		case d%2 == 0 && rng.IntN(3) == 0:
			pattern = append(pattern, 2, d/2)
		default:
			pattern = append(pattern, d)
		}
	}
	opt := reshape.Options{Dialect: reshape.Dialect(rng.IntN(4))}.WithSpecialZero(rng.IntN(2) == 0)
	if len(pattern) > 0 && rng.IntN(4) != 0 {
		pattern[rng.IntN(len(pattern))] = -1
	}
	for i := range pattern {
		if i < len(in) && pattern[i] == in[i] && rng.IntN(3) == 0 {
			pattern[i] = 0
		}
	}
	switch rng.IntN(12) {
	case 0:
		if len(pattern) > 0 {
			pattern[rng.IntN(len(pattern))] += int64(rng.IntN(5) - 2)
		}
	case 1:
		pattern = append(pattern, -1)
	case 2:
		pattern = append(pattern, 0)
	case 3:
		pattern = append(pattern, 1)
	case 4:
		pattern = append(pattern, 1, 1, 1, 1, 1, 1, 1)
	case 5:
		opt.Dialect = reshape.Dialect(4 + rng.IntN(2))
	case 6:
		opt.MaxRank = []int{-1, 1, 2, 3, 100}[rng.IntN(5)]
	case 7:
		opt.PatternType = []element.Type{element.I32, element.I64, element.F32}[rng.IntN(3)]
	case 8:
		if len(pattern) > 0 {
			pattern[rng.IntN(len(pattern))] = []int64{-2, math.MaxInt64, math.MinInt64, 1 << 62}[rng.IntN(4)]
		}
	}
	types := []element.Type{element.F32, element.F16, element.U8, element.I64}
	return in, pattern, opt, types[rng.IntN(len(types))]
}

// TestQuickInfer checks the quick path of Apply and ApplyInto on 20,000 random cases (checkQuick),
// 200,000 in the long tier (testenv.Count): it must take a good share of them and leave every
// failing one to AppendInfer.
func TestQuickInfer(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := testenv.Count(t, 20_000, 200_000)
	var taken, failed int
	for range n {
		in, pattern, opt, typ := randomQuickCase(rng)
		tk, f := checkQuick(t, in, pattern, opt, typ)
		if tk {
			taken++
		}
		if f {
			failed++
		}
	}
	t.Logf("of %d cases the quick path took %d; %d failed", n, taken, failed)
	if taken < n/4 || failed < n/10 {
		t.Errorf("of %d cases the quick path took %d and %d failed: the mix no longer tests both sides", n, taken, failed)
	}
}

// FuzzQuickInfer is TestQuickInfer on fuzzed cases: byte 0 the dialect (4 and up invalid), special
// zero and element type; byte 1 the input rank, then one byte per dimension; then the pattern
// length and one byte per value (value = byte - 3; 250..255 give large or extreme values).
func FuzzQuickInfer(f *testing.F) {
	f.Add([]byte{4, 4, 2, 5, 5, 24, 3, 3, 2, 7})
	f.Add([]byte{1, 2, 6, 4, 2, 2, 9})
	f.Add([]byte{0x14, 1, 255, 1, 250})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		opt := reshape.Options{Dialect: reshape.Dialect(data[0] % 6)}.WithSpecialZero(data[0]&8 != 0)
		typ := []element.Type{element.F32, element.U8, element.BF16, element.I64}[data[0]>>4%4]
		big := []int64{1 << 20, 1 << 31, 3 << 40, math.MaxInt64, -2, math.MinInt64}
		value := func(b byte) int64 {
			if b >= 250 {
				return big[b-250]
			}
			return int64(b) - 3
		}
		rank := int(data[1] % 8)
		data = data[2:]
		if len(data) < rank+1 {
			return
		}
		in := make([]int64, rank)
		for i := range in {
			in[i] = value(data[i]) + 3
		}
		n := int(data[rank] % 10)
		data = data[rank+1:]
		if len(data) < n {
			return
		}
		pattern := make([]int64, n)
		for i := range pattern {
			pattern[i] = value(data[i])
		}
		checkQuick(t, in, pattern, opt, typ)
	})
}
