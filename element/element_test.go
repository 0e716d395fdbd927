package element_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		want element.Type
	}{
		{"f32", element.F32}, {"FP32", element.F32}, {"fp16", element.F16}, {"BF16", element.BF16},
		{"i64", element.I64}, {"I64", element.I64}, {"s32", element.I32}, {"s8", element.I8},
		{"boolean", element.Boolean}, {"BOOL", element.Boolean}, {"u1", element.U1}, {"u4", element.U4},
		{"i4", element.I4}, {"nf4", element.NF4}, {"f8e4m3", element.F8E4M3}, {"f8_e5m2", element.F8E5M2},
		{"u64", element.U64}, {"f64", element.F64}, {"s64", element.I64}, {"S16", element.I16},
		// numpy and ONNX names.
		{"float32", element.F32}, {"int8", element.I8}, {"uint8", element.U8}, {"float16", element.F16},
		{"FLOAT16", element.F16}, {"DOUBLE", element.F64}, {"INT64", element.I64}, {"BFLOAT16", element.BF16},
		{"float8e4m3fn", element.F8E4M3}, {"UINT4", element.U4}, {"FLOAT8E4M3FNUZ", element.F8E4M3FNUZ},
		{"float8e5m2fnuz", element.F8E5M2FNUZ}, {"f8e4m3fnuz", element.F8E4M3FNUZ}, {"f8e5m2fnuz", element.F8E5M2FNUZ},
		{"string", element.String}, {"STRING", element.String},
	}
	for _, tt := range tests {
		if got, err := element.Parse(tt.name); err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "f33", "float", "undefined", "i128"} {
		if _, err := element.Parse(bad); !errors.Is(err, element.ErrUnknown) || !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), "want one of boolean, u1, u4,") ||
			!strings.Contains(err.Error(), ", s64, ") {
			t.Errorf("Parse(%q): error %v, want ErrUnknown listing the names", bad, err)
		}
	}
	for _, name := range element.Names() {
		if _, err := element.Parse(name); err != nil {
			t.Errorf("Parse(%q) of Names: %v", name, err)
		}
	}
	for _, typ := range element.Types() {
		if got, err := element.Parse(typ.String()); err != nil || got != typ {
			t.Errorf("Parse(%v.String()) = %v, %v", typ, got, err)
		}
	}
}

func TestSize(t *testing.T) {
	tests := []struct {
		t    element.Type
		n    int64
		want int64
		ok   bool
	}{
		{element.F32, 3, 12, true},
		{element.U1, 9, 2, true},
		{element.U1, 8, 1, true},
		{element.U4, 3, 2, true},
		{element.I4, 0, 0, true},
		{element.I64, 1 << 60, 0, false},
		{element.Undefined, 1, 0, false},
		{element.String, 1, 0, false},
		{element.F16, -1, 0, false},
	}
	for _, tt := range tests {
		got, ok := tt.t.Size(tt.n)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%v.Size(%d) = %d, %v; want %d, %v", tt.t, tt.n, got, ok, tt.want, tt.ok)
		}
	}
}

func TestDecodeInts(t *testing.T) {
	tests := []struct {
		t    element.Type
		data []byte
		n    int
		want []int64
		err  error
	}{
		{element.I64, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 4, 0, 0, 0, 0, 0, 0, 0}, 2, []int64{-1, 4}, nil},
		{element.I32, []byte{0xff, 0xff, 0xff, 0xff, 0, 1, 0, 0}, 2, []int64{-1, 256}, nil},
		{element.U32, []byte{0xff, 0xff, 0xff, 0xff}, 1, []int64{1<<32 - 1}, nil},
		{element.I16, []byte{0xfe, 0xff}, 1, []int64{-2}, nil},
		{element.U16, []byte{0xfe, 0xff}, 1, []int64{65534}, nil},
		{element.I8, []byte{0x80, 0x7f}, 2, []int64{-128, 127}, nil},
		{element.U8, []byte{0x80}, 1, []int64{128}, nil},
		// u4 and i4: element 0 in the low nibble.
		{element.U4, []byte{0x21, 0x0f}, 3, []int64{1, 2, 15}, nil},
		{element.I4, []byte{0x8f, 0x07}, 3, []int64{-1, -8, 7}, nil},
		// u1: element 0 in the most significant bit.
		{element.U1, []byte{0b1010_0000, 0b1000_0000}, 9, []int64{1, 0, 1, 0, 0, 0, 0, 0, 1}, nil},
		{element.U64, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 1, nil, element.ErrRange},
		{element.I64, make([]byte, 15), 2, nil, element.ErrShort},
		{element.U4, []byte{0x21}, 3, nil, element.ErrShort},
		{element.F32, make([]byte, 4), 1, nil, element.ErrNotInteger},
		{element.Boolean, make([]byte, 1), 1, nil, element.ErrNotInteger},
	}
	for _, tt := range tests {
		got, err := tt.t.DecodeInts(nil, tt.data, tt.n)
		if !errors.Is(err, tt.err) || !slices.Equal(got, tt.want) {
			t.Errorf("%v.DecodeInts(% x, %d) = %v, %v; want %v, %v", tt.t, tt.data, tt.n, got, err, tt.want, tt.err)
		}
		// Each error also carries the module's code.
		if code := map[error]string{element.ErrRange: "overflow", element.ErrShort: "syntax", element.ErrNotInteger: "data-type"}[tt.err]; errcode.Code(err) != code {
			t.Errorf("%v.DecodeInts(% x, %d): code %q, want %q", tt.t, tt.data, tt.n, errcode.Code(err), code)
		}
	}
}
