package reshape_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/shape"
)

// TestErrorMessages checks that errors name the index and value at fault.
func TestErrorMessages(t *testing.T) {
	tests := []struct {
		in, pattern []int64
		opt         reshape.Options
		code        error
		index       int
		msg         string
	}{
		{[]int64{2, 3}, []int64{1, 6, -3}, reshape.Options{}, reshape.ErrInvalidDim, 2,
			"pattern[2] = -3: dimension cannot be less than -1"},
		{[]int64{2, 3}, []int64{-1, 2, -1}, reshape.Options{}, reshape.ErrMultipleInferred, 2,
			"pattern[2] = -1: only one dimension can be -1, and pattern[0] is -1 already"},
		{[]int64{2, 3}, []int64{0, 3, 0}, reshape.Options{SpecialZero: true}, reshape.ErrZeroOutOfRange, 2,
			"pattern[2] = 0: special zero copies input dimension 2, but the input has rank 2"},
		{[]int64{2, 5, 4}, []int64{5, 0, -1}, reshape.Options{}, reshape.ErrAmbiguousInferred, 2,
			"pattern[2] = -1: cannot infer the dimension: the other output dimensions multiply to 0"},
		{[]int64{2, 5, 4}, []int64{10, -1, 3}, reshape.Options{}, reshape.ErrNotDivisible, 1,
			"pattern[1] = -1: input volume 40 is not divisible by 30, the product of the other output dimensions"},
		{[]int64{3, 4, 5}, []int64{3, 3, 3}, reshape.Options{}, reshape.ErrVolumeMismatch, -1,
			"output shape [3,3,3] has volume 27, input shape [3,4,5] has volume 60"},
		{[]int64{1 << 40, 1 << 40}, []int64{-1}, reshape.Options{}, reshape.ErrOverflow, -1,
			"the volume of input shape [1099511627776,1099511627776] overflows int64"},
		{[]int64{2, 3}, []int64{6}, reshape.Options{Dialect: reshape.OneDNNStatic, DataType: element.I8}, reshape.ErrDataType, -1,
			"data element type s8: onednn-static takes f32, f16 or bf16"},
		{[]int64{2, 3}, []int64{6}, reshape.Options{Dialect: reshape.ONNX, PatternType: element.I32}, reshape.ErrPatternType, -1,
			"pattern element type i32: onnx takes i64"},
		{[]int64{2, 8, 6}, []int64{0, 0, -1, 5}, reshape.Options{SpecialZero: true}, reshape.ErrNotDivisible, 2,
			"pattern[2] = -1: input [2,8,6] without the dimensions special zeros copy has volume 6, which is not divisible by 5, the product of the other output dimensions"},
		{[]int64{2, 3}, []int64{6}, reshape.Options{Dialect: reshape.OneDNNDynamic, PatternType: element.I64}, reshape.ErrPatternType, -1,
			"pattern element type s64: onednn-dynamic takes s32"},
		{[]int64{2, 3}, []int64{6}, reshape.Options{Dialect: reshape.OneDNNStatic, DataType: element.I32}, reshape.ErrDataType, -1,
			"data element type s32: onednn-static takes f32, f16 or bf16"},
		{[]int64{2, 3}, []int64{6}, reshape.Options{MaxRank: 1}, reshape.ErrLimit, -1,
			"input rank 2 exceeds the limit of 1"},
		{[]int64{2, -3}, []int64{6}, reshape.Options{}, reshape.ErrInvalidDim, -1,
			"input[1] = -3: not a valid dimension"},
	}
	for _, tt := range tests {
		_, err := reshape.Infer(tt.in, tt.pattern, tt.opt)
		var re *reshape.Error
		if !errors.Is(err, tt.code) || !errors.As(err, &re) || re.Index != tt.index || err.Error() != tt.msg {
			t.Errorf("Infer(%v, %v, %+v) = %v (%#v)\nwant %v, index %d, %q", tt.in, tt.pattern, tt.opt, err, re, tt.code, tt.index, tt.msg)
		}
		if got := reshape.Code(err); got != tt.code.Error() {
			t.Errorf("Code(%v) = %q, want %q", err, got, tt.code)
		}
	}
}

func TestAppendInferReusesDst(t *testing.T) {
	in, pattern := []int64{2, 5, 5, 24}, []int64{0, -1, 4}
	opt := reshape.Options{SpecialZero: true}
	dst := make([]int64, 1, 8)
	dst[0] = 7
	out, err := reshape.AppendInfer(dst, in, pattern, opt)
	if err != nil || !slices.Equal(out, []int64{7, 2, 150, 4}) || &out[0] != &dst[0] {
		t.Fatalf("AppendInfer = %v, %v", out, err)
	}
	if n := testing.AllocsPerRun(100, func() { out, _ = reshape.AppendInfer(dst[:0], in, pattern, opt) }); n != 0 {
		t.Errorf("AppendInfer allocates %v times with room in dst", n)
	}
	if n := testing.AllocsPerRun(100, func() { out, _ = reshape.Infer(in, pattern, opt) }); n != 1 {
		t.Errorf("Infer allocates %v times, want 1 (the result)", n)
	}
	out, err = reshape.AppendInfer(dst[:1], in, []int64{7, -1}, opt)
	if err == nil || len(out) != 1 {
		t.Errorf("AppendInfer on error = %v, %v; want dst unchanged", out, err)
	}
	pdst := make([]shape.Dim, 0, 8)
	pin := shape.Of(shape.Interval(1, 8), shape.Interval(16, 64), shape.Static(6), shape.Interval(200, 400))
	p := reshape.PatternOf(shape.Interval(16, 64), shape.Static(0), shape.Static(-1))
	if n := testing.AllocsPerRun(100, func() { _, _ = reshape.AppendInferPartial(pdst[:0], pin, p, opt) }); n != 0 {
		t.Errorf("AppendInferPartial allocates %v times with room in dst", n)
	}
}

func TestParsePattern(t *testing.T) {
	tests := []struct {
		in   string
		want string
		err  error
	}{
		{"0,-1,4", "[0,-1,4]", nil},
		{"[0, -1, 4]", "[0,-1,4]", nil},
		{"", "[]", nil},
		{"[]", "[]", nil},
		{"1..8,-1", "[1..8,-1]", nil},
		{"?,2..", "[?,2..]", nil},
		{"-5..3", "[-5..3]", nil},
		{"-3", "[-3]", nil},
		{"1,,2", "", reshape.ErrSyntax},
		{"1.5", "", reshape.ErrSyntax},
		{"5..2", "", reshape.ErrSyntax},
		{"99999999999999999999", "", reshape.ErrOverflow},
	}
	for _, tt := range tests {
		p, err := reshape.ParsePattern(tt.in)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("ParsePattern(%q) = %v, %v; want %v", tt.in, p, err, tt.err)
			}
			continue
		}
		if err != nil || p.String() != tt.want {
			t.Errorf("ParsePattern(%q) = %v, %v; want %s", tt.in, p, err, tt.want)
		}
	}
}

func TestExplain(t *testing.T) {
	in := shape.OfInts(2, 5, 5, 24)
	ex, err := reshape.Explain(in, reshape.IntPattern(0, -1, 4), reshape.Options{SpecialZero: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []reshape.Source{
		{Origin: reshape.Copied, Input: 0},
		{Origin: reshape.Inferred, W: shape.Static(600), R: shape.Static(4)},
		{Origin: reshape.Given},
	}
	if ex.Output.String() != "[2,150,4]" || !slices.Equal(ex.Sources, want) {
		t.Fatalf("Explain = %v %+v", ex.Output, ex.Sources)
	}
	ex, err = reshape.Explain(shape.Of(shape.Interval(2, 4), shape.Static(6)), reshape.IntPattern(3, -1), reshape.Options{})
	if err != nil || ex.Output.String() != "[3,4..8]" || !ex.Sources[1].Cancelled || ex.Sources[1].W != shape.Interval(12, 24) {
		t.Fatalf("Explain = %v %+v, %v", ex.Output, ex.Sources, err)
	}
}

// FuzzInfer checks inference on arbitrary inputs: no panic; Infer agrees with referenceInfer; a
// static success keeps the volume;
// InferPartial agrees with Infer on static shapes; and for partial input shapes, every static shape
// inside the input intervals that Infer accepts gives an output inside the inferred intervals, and
// none is accepted when InferPartial fails.
func FuzzInfer(f *testing.F) {
	f.Add([]byte{0, 4, 2, 0, 5, 0, 5, 0, 24, 0, 3, 3, 2, 7})
	f.Add([]byte{1, 3, 1, 2, 8, 0, 2, 3, 2, 1, 0})
	f.Add([]byte{6, 2, 0, 0, 3, 0, 2, 3, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		in, pattern, opt, ok := decodeCase(data)
		if !ok {
			return
		}
		p := reshape.PatternOf(pattern...)
		out, perr := reshape.InferPartial(in, p, opt)
		if in.RankDynamic {
			return
		}
		ints, static := staticPattern(pattern)
		if !static {
			return
		}
		forEachInstance(in.Dims, func(dims []int64) {
			got, err := reshape.Infer(dims, ints, opt)
			if want, code := referenceInfer(dims, ints, opt.Dialect, opt.CopiesZeros()); reshape.Code(err) != code || code == "" && !slices.Equal(got, want) {
				t.Fatalf("Infer(%v, %v, %+v) = %v, %v; the reference gives %v, %q", dims, ints, opt, got, err, want, code)
			}
			if err == nil {
				vin, e1 := shape.Volume(dims)
				vout, e2 := shape.Volume(got)
				if e1 != nil || e2 != nil || vin != vout {
					t.Fatalf("Infer(%v, %v, %+v) = %v: volume %d, input volume %d (%v, %v)", dims, ints, opt, got, vout, vin, e1, e2)
				}
			}
			switch {
			case perr != nil && err == nil:
				t.Fatalf("InferPartial(%v, %v, %+v) failed with %v, but Infer on %v gives %v", in, pattern, opt, perr, dims, got)
			case perr != nil && in.IsStatic() && reshape.Code(err) != reshape.Code(perr):
				t.Fatalf("InferPartial(%v, %v, %+v) failed with %v, but Infer fails with %v", in, pattern, opt, perr, err)
			case perr == nil && err == nil && !shape.OfInts(got...).Compatible(out):
				t.Fatalf("InferPartial(%v, %v, %+v) = %v, but Infer on %v gives %v", in, pattern, opt, out, dims, got)
			case perr == nil && in.IsStatic() && err != nil:
				t.Fatalf("InferPartial(%v, %v, %+v) = %v, but Infer fails: %v", in, pattern, opt, out, err)
			case perr == nil && in.IsStatic() && shape.OfInts(got...).String() != out.String():
				t.Fatalf("InferPartial(%v, %v, %+v) = %v, but Infer gives %v", in, pattern, opt, out, got)
			}
		})
	})
}

// referenceInfer is the package documentation's static rules written as plainly as possible, as the
// differential reference of Infer: exact products in math/big, the rules in the order each dialect
// checks them. It returns the output shape, or the error code.
func referenceInfer(in, p []int64, d reshape.Dialect, sz bool) ([]int64, string) {
	for _, v := range in {
		if v < 0 {
			return nil, "invalid-dim"
		}
	}
	seen := false
	for i, v := range p {
		switch {
		case v < -1:
			return nil, "invalid-dim"
		case v == -1 && seen:
			return nil, "multiple-inferred"
		case v == -1:
			seen = true
		case v == 0 && sz && i >= len(in) && d != reshape.OpenVINO:
			return nil, "zero-out-of-range"
		}
	}
	for i, v := range p {
		if v == 0 && sz && i >= len(in) {
			return nil, "zero-out-of-range"
		}
	}
	limit := big.NewInt(math.MaxInt64)
	product := func(dims []int64, skip func(int) bool) *big.Int {
		r := big.NewInt(1)
		for i, v := range dims {
			if !skip(i) {
				r.Mul(r, big.NewInt(v))
			}
		}
		return r
	}
	none := func(int) bool { return false }
	volume := product(in, none)
	if volume.Cmp(limit) > 0 {
		return nil, "overflow"
	}
	out := slices.Clone(p)
	minus := slices.Index(p, -1)
	copied := func(i int) bool { return sz && i < len(p) && p[i] == 0 }
	for i := range out {
		if copied(i) {
			out[i] = in[i]
		}
	}
	if minus < 0 {
		v := product(out, none)
		switch {
		case v.Cmp(limit) > 0:
			return nil, "overflow"
		case v.Cmp(volume) != 0:
			return nil, "volume-mismatch"
		}
		return out, ""
	}
	w, r := volume, product(out, func(i int) bool { return i == minus })
	if d == reshape.OpenVINO {
		w = product(in, copied)
		r = product(out, func(i int) bool { return i == minus || copied(i) })
	}
	switch {
	case r.Cmp(limit) > 0:
		return nil, "overflow"
	case r.Sign() == 0:
		return nil, "ambiguous-inferred"
	case w.Cmp(limit) > 0:
		return nil, "overflow"
	}
	q, m := new(big.Int).QuoRem(w, r, new(big.Int))
	if m.Sign() != 0 {
		return nil, "not-divisible"
	}
	out[minus] = q.Int64()
	return out, ""
}

// decodeCase turns fuzz bytes into a case: a flags byte (dialect, special_zero), the input rank
// and one (lo, width) pair per dimension (width 255 = unbounded), the pattern length and values
// (value-3, so -3..252; a value byte >= 240 is an interval lo..lo+2 of 1..). Dims and values grow
// large through a scale bit.
func decodeCase(data []byte) (in shape.Shape, pattern []shape.Dim, opt reshape.Options, ok bool) {
	if len(data) < 2 {
		return in, nil, opt, false
	}
	flags := data[0]
	opt.Dialect = reshape.Dialects()[flags&3]
	opt = opt.WithSpecialZero(flags&4 != 0)
	scale := int64(1)
	if flags&8 != 0 {
		scale = 1 << 31
	}
	data = data[1:]
	rank := int(data[0])
	data = data[1:]
	if rank == 255 {
		in = shape.DynamicRank()
	} else {
		rank %= 8
		if len(data) < 2*rank {
			return in, nil, opt, false
		}
		for i := range rank {
			lo, w := int64(data[2*i]), int64(data[2*i+1])
			d := shape.Interval(lo, lo+w%4)
			if w == 255 {
				d.Hi = shape.Inf
			}
			if lo == 255 {
				d = shape.Static(scale)
			}
			in.Dims = append(in.Dims, d)
		}
		data = data[2*rank:]
	}
	if len(data) < 1 {
		return in, nil, opt, false
	}
	n := int(data[0]) % 8
	data = data[1:]
	if len(data) < n {
		return in, nil, opt, false
	}
	for _, b := range data[:n] {
		v := shape.Static(int64(b) - 3)
		switch {
		case b >= 240:
			v = shape.Interval(int64(b)-239, int64(b)-237)
		case b == 200:
			v = shape.Static(scale)
		}
		pattern = append(pattern, v)
	}
	return in, pattern, opt, true
}

func staticPattern(p []shape.Dim) ([]int64, bool) {
	ints := make([]int64, len(p))
	for i, v := range p {
		if !v.IsStatic() {
			return nil, false
		}
		ints[i] = v.Lo
	}
	return ints, true
}

// forEachInstance calls fn with static shapes inside the intervals dims: every value of bounded
// intervals, and a few of unbounded ones.
func forEachInstance(dims []shape.Dim, fn func([]int64)) {
	cur := make([]int64, len(dims))
	var rec func(i int)
	rec = func(i int) {
		if i == len(dims) {
			fn(slices.Clone(cur))
			return
		}
		d := dims[i]
		if d.Hi == shape.Inf {
			for _, v := range []int64{d.Lo, d.Lo + 1, d.Lo + 5, d.Lo + 1000} {
				cur[i] = v
				rec(i + 1)
			}
			return
		}
		for v := d.Lo; v <= d.Hi; v++ {
			cur[i] = v
			rec(i + 1)
		}
	}
	rec(0)
}

func ExampleInfer() {
	// OpenVINO Reshape-1, example 2: keep the first dim, infer the second, fix the third.
	out, err := reshape.Infer([]int64{2, 5, 5, 24}, []int64{0, -1, 4}, reshape.Options{SpecialZero: true})
	fmt.Println(out, err)
	// Output: [2 150 4] <nil>
}

func ExampleInfer_error() {
	_, err := reshape.Infer([]int64{2, 5, 4}, []int64{10, -1, 3}, reshape.Options{})
	fmt.Println(reshape.Code(err), errors.Is(err, reshape.ErrNotDivisible))
	fmt.Println(err)
	// Output:
	// not-divisible true
	// pattern[1] = -1: input volume 40 is not divisible by 30, the product of the other output dimensions
}

func ExampleInferPartial() {
	in, _ := shape.Parse("[1..8,16..64,6,200..400]")
	p, _ := reshape.ParsePattern("16..64,0,-1")
	out, err := reshape.InferPartial(in, p, reshape.Options{SpecialZero: true})
	fmt.Println(out, err)
	// Output: [16..64,16..64,19..1200] <nil>
}

func ExampleInferPartial_dialects() {
	// A special zero that copies 0 beside a -1: OpenVINO counts copied dims on neither side,
	// oneDNN and ONNX find the -1 undetermined.
	in := shape.OfInts(0, 3)
	p := reshape.IntPattern(0, -1)
	for _, d := range reshape.Dialects() {
		out, err := reshape.InferPartial(in, p, reshape.Options{Dialect: d, SpecialZero: true})
		if err != nil {
			fmt.Println(d, reshape.Code(err))
			continue
		}
		fmt.Println(d, out)
	}
	// Output:
	// openvino [0,3]
	// onednn-static ambiguous-inferred
	// onednn-dynamic ambiguous-inferred
	// onnx ambiguous-inferred
}

func ExampleAppendInfer() {
	dst := make([]int64, 0, 8) // reused across calls: no allocation
	for _, pattern := range [][]int64{{-1}, {0, -1}, {4, 0, -1}} {
		out, err := reshape.AppendInfer(dst[:0], []int64{2, 3, 4}, pattern, reshape.Options{SpecialZero: true})
		fmt.Println(out, err)
	}
	// Output:
	// [24] <nil>
	// [2 12] <nil>
	// [4 3 2] <nil>
}

func ExampleExplain() {
	ex, _ := reshape.Explain(shape.OfInts(2, 5, 5, 24), reshape.IntPattern(0, -1, 4), reshape.Options{SpecialZero: true})
	for i, s := range ex.Sources {
		fmt.Println(i, ex.Output.Dims[i], s.Origin, s.W, s.R)
	}
	// Output:
	// 0 2 copied 0 0
	// 1 150 inferred 600 4
	// 2 4 given 0 0
}

func TestPatternJSON(t *testing.T) {
	tests := []struct {
		p    reshape.Pattern
		want string
	}{
		{reshape.IntPattern(0, -1, 4), "[0,-1,4]"},
		{reshape.IntPattern(), "[]"},
		{reshape.PatternOf(shape.Interval(1, 8), shape.Static(-1), shape.Dynamic), `[\"1..8\",-1,\"?\"]`},
		{reshape.ScalarPattern(shape.Static(1)), "[1]"},
		{reshape.UnknownPattern(shape.OfInts(3)), "null"},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.p)
		if want := strings.ReplaceAll(tt.want, `\"`, `"`); err != nil || string(b) != want {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tt.p, b, err, want)
		}
	}
}

// TestZeroAttribute pins what the zero attribute of each dialect means, the zero value of Options
// included: Options{Dialect: ONNX} is a Reshape-14 without attributes (allowzero=0: zeros copy).
func TestZeroAttribute(t *testing.T) {
	tests := []struct {
		name    string
		in, p   []int64
		opt     reshape.Options
		want    []int64
		wantErr error
		copies  bool
	}{
		{"onnx zero value copies zeros", []int64{2, 3}, []int64{0, -1}, reshape.Options{Dialect: reshape.ONNX}, []int64{2, 3}, nil, true},
		{"onnx allowzero=1 keeps a literal 0", []int64{0, 3}, []int64{0, 3}, reshape.Options{Dialect: reshape.ONNX, AllowZero: true}, []int64{0, 3}, nil, false},
		{"onnx allowzero=1 beside -1", []int64{2, 3}, []int64{0, -1}, reshape.Options{Dialect: reshape.ONNX, AllowZero: true}, nil, reshape.ErrAmbiguousInferred, false},
		{"onnx special_zero=true agrees with allowzero=0", []int64{2, 3}, []int64{0, -1}, reshape.Options{Dialect: reshape.ONNX, SpecialZero: true}, []int64{2, 3}, nil, true},
		{"onnx special_zero=true contradicts allowzero=1", []int64{2, 3}, []int64{0, -1}, reshape.Options{Dialect: reshape.ONNX, SpecialZero: true, AllowZero: true}, nil, reshape.ErrSyntax, false},
		{"openvino zero value keeps a literal 0", []int64{2, 3}, []int64{0, -1}, reshape.Options{}, nil, reshape.ErrAmbiguousInferred, false},
		{"openvino takes no allowzero", []int64{2, 3}, []int64{6}, reshape.Options{AllowZero: true}, nil, reshape.ErrSyntax, false},
		{"onednn-static takes no allowzero", []int64{2, 3}, []int64{6}, reshape.Options{Dialect: reshape.OneDNNStatic, AllowZero: true}, nil, reshape.ErrSyntax, false},
	}
	for _, tt := range tests {
		got, err := reshape.Infer(tt.in, tt.p, tt.opt)
		if !errors.Is(err, tt.wantErr) || err == nil && tt.wantErr != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%s: Infer = %v, %v; want %v, %v", tt.name, got, err, tt.want, tt.wantErr)
		}
		ps, perr := reshape.InferPartial(shape.OfInts(tt.in...), reshape.IntPattern(tt.p...), tt.opt)
		if reshape.Code(perr) != reshape.Code(err) || err == nil && ps.String() != shape.OfInts(got...).String() {
			t.Errorf("%s: InferPartial = %v, %v; Infer gives %v, %v", tt.name, ps, perr, got, err)
		}
		if tt.wantErr != reshape.ErrSyntax && tt.opt.CopiesZeros() != tt.copies {
			t.Errorf("%s: CopiesZeros = %v, want %v", tt.name, tt.opt.CopiesZeros(), tt.copies)
		}
		w := reshape.Options{Dialect: tt.opt.Dialect}.WithSpecialZero(tt.copies)
		if w.CopiesZeros() != tt.copies || w.AllowZero && w.SpecialZero {
			t.Errorf("%s: WithSpecialZero(%v) = %+v", tt.name, tt.copies, w)
		}
	}
}
