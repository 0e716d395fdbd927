package bounds_test

import (
	"errors"
	"math"
	"testing"

	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

const (
	maxI = math.MaxInt64
	minI = math.MinInt64
)

func TestConst(t *testing.T) {
	tests := []struct {
		values []int64
		dims   []int64
		want   string // String of the result
		shape  string
		err    error
	}{
		{[]int64{-1}, nil, "[-1]", "[1]", nil},
		{[]int64{1, -1, 3}, nil, "[1,-1,3]", "[3]", nil},
		{[]int64{}, nil, "[]", "[0]", nil},
		{nil, nil, "[]", "[0]", nil},
		{[]int64{7}, []int64{}, "7", "[]", nil},
		{[]int64{1, 2, 3, 4, 5, 6}, []int64{2, 3}, "[[1,2,3],[4,5,6]]", "[2,3]", nil},
		{[]int64{1, 2, 3, 4, 5, 6}, []int64{3, 2}, "[[1,2],[3,4],[5,6]]", "[3,2]", nil},
		{[]int64{1, 2}, []int64{2, 1, 1}, "[[[1]],[[2]]]", "[2,1,1]", nil},
		{[]int64{}, []int64{2, 0}, "[[],[]]", "[2,0]", nil},
		{[]int64{minI, maxI}, nil, "[-9223372036854775808,9223372036854775807]", "[2]", nil},
		{[]int64{1, 2, 3}, []int64{2}, "", "", errcode.ErrSyntax},
		{[]int64{1}, []int64{}, "1", "[]", nil},
		{[]int64{1, 2}, []int64{}, "", "", errcode.ErrSyntax},
		{[]int64{}, []int64{-1}, "", "", errcode.ErrSyntax},
		{[]int64{1}, []int64{1 << 21}, "", "", errcode.ErrLimit},
	}
	for _, tt := range tests {
		v, err := bounds.Const(tt.values, tt.dims...)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("Const(%v, %v) = %s, %v; want error %v", tt.values, tt.dims, show(v), err, tt.err)
			}
			continue
		}
		if err != nil || v.String() != tt.want || shape.FormatInts(v.Shape) != tt.shape {
			t.Errorf("Const(%v, %v) = %s, %v; want %s %s", tt.values, tt.dims, show(v), err, tt.shape, tt.want)
		}
	}
}

func TestConstCopies(t *testing.T) {
	in := []int64{1, 2}
	dims := []int64{2}
	v, err := bounds.Const(in, dims...)
	if err != nil {
		t.Fatal(err)
	}
	in[0], dims[0] = 9, 9
	if v.String() != "[1,2]" || v.Shape[0] != 2 {
		t.Errorf("Const kept its arguments: %s", show(v))
	}
}

func TestShapeOf(t *testing.T) {
	tests := []struct {
		in   string
		want string
		err  error
	}{
		{"[1,16,16,16]", "[1,16,16,16]", nil},
		{"[1,8,32..48,32..48]", "[1,8,32..48,32..48]", nil},
		{"[?,3,..5,2..]", "[?,3,..5,2..]", nil},
		{"[0]", "[0]", nil},
		{"[]", "[]", nil},
		{"[...]", "", bounds.ErrUnknown},
	}
	for _, tt := range tests {
		s, err := shape.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		v, err := bounds.ShapeOf(s)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("ShapeOf(%s) = %s, %v; want error %v", tt.in, show(v), err, tt.err)
			}
			continue
		}
		if err != nil || v.String() != tt.want || len(v.Shape) != 1 || v.Shape[0] != int64(len(s.Dims)) {
			t.Errorf("ShapeOf(%s) = %s, %v; want %s", tt.in, show(v), err, tt.want)
		}
	}
	if _, err := bounds.ShapeOf(shape.Of(shape.Dim{Lo: 5, Hi: 2})); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("ShapeOf of an empty interval: %v; want syntax", err)
	}
	if _, err := bounds.ShapeOf(shape.Of(shape.Dim{Lo: -1, Hi: 2})); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("ShapeOf of a negative dim: %v; want syntax", err)
	}
}

func TestInts(t *testing.T) {
	tests := []struct {
		in   string
		want []int64
		ok   bool
	}{
		{"[1,-1,3]", []int64{1, -1, 3}, true},
		{"[[1,2],[3,4]]", []int64{1, 2, 3, 4}, true},
		{"5", []int64{5}, true},
		{"[]", []int64{}, true},
		{"[1,2..3]", nil, false},
		{"[?]", nil, false},
	}
	for _, tt := range tests {
		got, ok := val(t, tt.in).Ints()
		if ok != tt.ok || len(got) != len(tt.want) {
			t.Errorf("%s.Ints() = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s.Ints() = %v; want %v", tt.in, got, tt.want)
			}
		}
	}
}

func TestString(t *testing.T) {
	d := func(lo, hi int64) shape.Dim { return shape.Dim{Lo: lo, Hi: hi} }
	tests := []struct {
		elems []shape.Dim
		want  string
	}{
		{[]shape.Dim{d(2, 2), d(1, 8), shape.Dynamic}, "[2,1..8,?]"},
		{[]shape.Dim{d(-1, -1), d(0, 0), d(minI, minI), d(maxI, maxI)}, "[-1,0,-9223372036854775808,9223372036854775807]"},
		{[]shape.Dim{d(bounds.NegInf, -1), d(-5, 3), d(-5, shape.Inf), d(0, 5), d(3, shape.Inf)}, "[..-1,-5..3,-5..,..5,3..]"},
		{[]shape.Dim{d(bounds.NegInf, 5), d(bounds.NegInf, 0), d(bounds.NegInf, shape.Inf), d(-3, -1)}, "[-inf..5,-inf..0,-inf..,-3..-1]"},
	}
	for _, tt := range tests {
		v := bounds.Value{Shape: []int64{int64(len(tt.elems))}, Elems: tt.elems}
		if got := v.String(); got != tt.want {
			t.Errorf("String() = %s; want %s", got, tt.want)
		}
		// The test parser reads the notation back.
		if back, err := parseValue(tt.want); err != nil || !same(back, v) {
			t.Errorf("parseValue(%s) = %s, %v; want the value back", tt.want, show(back), err)
		}
	}
	more := []struct {
		v    bounds.Value
		want string
	}{
		{bounds.Value{Elems: []shape.Dim{d(-7, -7)}}, "-7"},
		{bounds.Value{Shape: []int64{}, Elems: []shape.Dim{d(1, 4)}}, "1..4"},
		{bounds.Value{Shape: []int64{2, 2}, Elems: []shape.Dim{d(1, 1), d(2, 3), shape.Dynamic, d(-1, -1)}}, "[[1,2..3],[?,-1]]"},
		{bounds.Value{Shape: []int64{2, 0}}, "[[],[]]"},
		{bounds.Value{Shape: []int64{0, 2}}, "[]"},
		{bounds.Value{Shape: []int64{3}, Elems: []shape.Dim{d(1, 1)}}, "<invalid value>"},
		{bounds.Value{}, "<invalid value>"},
	}
	for _, tt := range more {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("%v.String() = %s; want %s", tt.v, got, tt.want)
		}
	}
}

// TestInvalidValues: every function checks its Value arguments.
func TestInvalidValues(t *testing.T) {
	bad := []bounds.Value{
		{Shape: []int64{3}, Elems: []shape.Dim{shape.Static(1)}},
		{Shape: []int64{-1}},
		{Shape: []int64{1}, Elems: []shape.Dim{{Lo: 3, Hi: 2}}},
	}
	ok := val(t, "[1,2,3]")
	for _, b := range bad {
		calls := map[string]func() error{
			"Gather data":    func() error { _, err := bounds.Gather(b, val(t, "[0]"), 0, 0); return err },
			"Gather indices": func() error { _, err := bounds.Gather(ok, b, 0, 0); return err },
			"Concat":         func() error { _, err := bounds.Concat([]bounds.Value{ok, b}, 0); return err },
			"Unsqueeze":      func() error { _, err := bounds.Unsqueeze(b, []int64{0}); return err },
			"Squeeze":        func() error { _, err := bounds.Squeeze(b, nil); return err },
			"Slice":          func() error { _, err := bounds.Slice(b, nil, nil, nil, nil); return err },
			"StridedSlice": func() error {
				_, err := bounds.StridedSlice(b, nil, nil, nil, nil, nil, nil, nil, nil)
				return err
			},
			"Binary a":   func() error { _, err := bounds.Binary(bounds.Add, b, ok); return err },
			"Binary b":   func() error { _, err := bounds.Binary(bounds.Add, ok, b); return err },
			"ReduceProd": func() error { _, err := bounds.ReduceProd(b, nil, false); return err },
			"Convert":    func() error { _, err := bounds.Convert(b, element.I64); return err },
		}
		for name, f := range calls {
			if err := f(); !errors.Is(err, errcode.ErrSyntax) {
				t.Errorf("%s(%v) = %v; want syntax", name, b, err)
			}
		}
	}
}
