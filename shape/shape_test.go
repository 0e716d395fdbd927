package shape_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want string // String of the result, or "" when err is expected
		err  error
	}{
		{"[2,5,5,24]", "[2,5,5,24]", nil},
		{"[]", "[]", nil},
		{"", "[]", nil},
		{"[...]", "[...]", nil},
		{"...", "[...]", nil},
		{"[?,3]", "[?,3]", nil},
		{"[-1,3]", "[?,3]", nil},
		{"[1..8, 2.., ..5, ..]", "[1..8,2..,..5,?]", nil},
		{"[0..0]", "[0]", nil},
		{"[3..3]", "[3]", nil},
		{" 1,3,1..8,224 ", "[1,3,1..8,224]", nil},
		{"[0]", "[0]", nil},
		{"[9223372036854775806]", "[9223372036854775806]", nil},
		{"[9223372036854775807]", "[9223372036854775807]", nil},
		{"[9223372036854775808]", "", errcode.ErrOverflow},
		{"[99999999999999999999]", "", errcode.ErrOverflow},
		{"[1..99999999999999999999]", "", errcode.ErrOverflow},
		{"[2,x]", "", errcode.ErrSyntax},
		{"[2,]", "", errcode.ErrSyntax},
		{"[,2]", "", errcode.ErrSyntax},
		{"[2", "", errcode.ErrSyntax},
		{"2]", "", errcode.ErrSyntax},
		{"[[2]]", "", errcode.ErrSyntax},
		{"[-2]", "", errcode.ErrSyntax},
		{"[5..2]", "", errcode.ErrSyntax},
		{"[1...3]", "", errcode.ErrSyntax},
		{"[+3]", "", errcode.ErrSyntax},
		{"[0x10]", "", errcode.ErrSyntax},
		{"[1_000]", "", errcode.ErrSyntax},
		{"[-1..3]", "", errcode.ErrSyntax},
	}
	for _, tt := range tests {
		s, err := shape.Parse(tt.in)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("Parse(%q) = %v, %v; want error %v", tt.in, s, err, tt.err)
			}
			continue
		}
		if err != nil || s.String() != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %s", tt.in, s, err, tt.want)
		}
	}
}

func TestParseErrorNamesDim(t *testing.T) {
	_, err := shape.Parse("[2,3,x]")
	want := `shape "[2,3,x]": dim[2]: "x": not a dimension (want a number, ?, or an interval lo..hi)`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

func TestDimString(t *testing.T) {
	tests := []struct {
		d    shape.Dim
		want string
	}{
		{shape.Static(0), "0"},
		{shape.Static(7), "7"},
		{shape.Dynamic, "?"},
		{shape.Interval(2, 5), "2..5"},
		{shape.Interval(2, shape.Inf), "2.."},
		{shape.Interval(0, 5), "..5"},
	}
	for _, tt := range tests {
		if got := tt.d.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestProduct(t *testing.T) {
	const big = int64(1) << 62
	tests := []struct {
		dims []shape.Dim
		want shape.Dim
		ok   bool
	}{
		{nil, shape.Static(1), true},
		{[]shape.Dim{shape.Static(2), shape.Static(3)}, shape.Static(6), true},
		{[]shape.Dim{shape.Interval(1, 3), shape.Interval(2, 4)}, shape.Interval(2, 12), true},
		{[]shape.Dim{shape.Interval(2, shape.Inf), shape.Static(3)}, shape.Interval(6, shape.Inf), true},
		{[]shape.Dim{shape.Static(big), shape.Static(4), shape.Static(0)}, shape.Static(0), true},
		{[]shape.Dim{shape.Static(big), shape.Static(4)}, shape.Dim{}, false},
		{[]shape.Dim{shape.Interval(1, big), shape.Interval(1, 4)}, shape.Interval(1, shape.Inf), true},
		{[]shape.Dim{shape.Static(big), shape.Static(4), shape.Interval(0, 2)}, shape.Interval(0, shape.Inf), true},
		{[]shape.Dim{shape.Dynamic, shape.Static(0)}, shape.Static(0), true},
		{[]shape.Dim{shape.Dynamic, shape.Static(5)}, shape.Dynamic, true},
	}
	for _, tt := range tests {
		var p shape.Product
		for _, d := range tt.dims {
			p.Mul(d)
		}
		got, ok := p.Result()
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("product of %v = %v, %v; want %v, %v", tt.dims, got, ok, tt.want, tt.ok)
		}
	}
}

func TestVolume(t *testing.T) {
	tests := []struct {
		dims []int64
		want int64
		err  error
	}{
		{nil, 1, nil},
		{[]int64{2, 3, 4}, 24, nil},
		{[]int64{1 << 40, 1 << 40, 0}, 0, nil},
		{[]int64{1 << 40, 1 << 40}, 0, errcode.ErrOverflow},
		{[]int64{math.MaxInt64, 1}, math.MaxInt64, nil},
		{[]int64{2, -1}, 0, errcode.ErrSyntax},
	}
	for _, tt := range tests {
		got, err := shape.Volume(tt.dims)
		if !errors.Is(err, tt.err) || got != tt.want {
			t.Errorf("Volume(%v) = %d, %v; want %d, %v", tt.dims, got, err, tt.want, tt.err)
		}
	}
}

func TestCompatible(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"[2,3]", "[2,3]", true},
		{"[2,3]", "[2,4]", false},
		{"[?,3]", "[2,3]", true},
		{"[1..3,3]", "[4..,3]", false},
		{"[1..3]", "[3..5]", true},
		{"[...]", "[2,3,4]", true},
		{"[2,3]", "[2,3,1]", false},
		{"[]", "[]", true},
	}
	for _, tt := range tests {
		a, b := must(shape.Parse(tt.a)), must(shape.Parse(tt.b))
		if got := a.Compatible(b); got != tt.want {
			t.Errorf("%s.Compatible(%s) = %v, want %v", a, b, got, tt.want)
		}
		if got := b.Compatible(a); got != tt.want {
			t.Errorf("%s.Compatible(%s) = %v, want %v", b, a, got, tt.want)
		}
	}
}

func TestTextRoundTrip(t *testing.T) {
	s := must(shape.Parse("[1..8,?,3,..4,5..]"))
	text, err := s.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	var back shape.Shape
	if err := back.UnmarshalText(text); err != nil || !back.Equal(s) {
		t.Fatalf("round trip of %s gave %s, %v", s, back, err)
	}
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf, _ = s.AppendText(buf[:0]) }); n != 0 {
		t.Errorf("AppendText allocates %v times", n)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// FuzzParse checks that the notation parser never panics, and that what it accepts prints back to
// text it parses to the same shape.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"[2,5,5,24]", "[]", "[...]", "[?,1..8,2..,..5]", "-1,3", "[9223372036854775807]", "[5..2]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := shape.Parse(text)
		if err != nil {
			if !errors.Is(err, errcode.ErrSyntax) && !errors.Is(err, errcode.ErrOverflow) {
				t.Fatalf("Parse(%q): error %v wraps neither ErrSyntax nor ErrOverflow", text, err)
			}
			return
		}
		for _, d := range s.Dims {
			if !d.Valid() {
				t.Fatalf("Parse(%q) gave the invalid dim %#v", text, d)
			}
		}
		back, err := shape.Parse(s.String())
		if err != nil || !back.Equal(s) {
			t.Fatalf("Parse(%q) = %s, which parses back to %s, %v", text, s, back, err)
		}
	})
}

func ExampleParse() {
	s, err := shape.Parse("[1..8,?,3,224]")
	if err != nil {
		panic(err)
	}
	rank, _ := s.Rank()
	v, _ := s.Volume()
	fmt.Println(s, rank, s.IsStatic(), v)
	// Output: [1..8,?,3,224] 4 false ?
}

func ExampleShape_Compatible() {
	declared, _ := shape.Parse("[1,8,?,?,1]")
	inferred, _ := shape.Parse("[1,8,32..48,32..48,1]")
	fmt.Println(declared.Compatible(inferred))
	// Output: true
}

func TestFillStrides(t *testing.T) {
	tests := []struct {
		dims []int64
		size int64
		want []int64
	}{
		{[]int64{2, 3, 4}, 4, []int64{48, 16, 4}},
		{[]int64{2, 0, 3}, 4, []int64{12, 12, 4}},
		{[]int64{5}, 1, []int64{1}},
		{[]int64{}, 8, []int64{}},
	}
	for _, tt := range tests {
		got := make([]int64, len(tt.dims))
		shape.FillStrides(got, tt.dims, tt.size)
		if !slices.Equal(got, tt.want) {
			t.Errorf("FillStrides(%v, %d) = %v, want %v", tt.dims, tt.size, got, tt.want)
		}
	}
}

func TestJSON(t *testing.T) {
	tests := []struct{ notation, json string }{
		{"[2,5,5,24]", "[2,5,5,24]"},
		{"[?,3,1..8,2..,..5]", `[\"?\",3,\"1..8\",\"2..\",\"..5\"]`},
		{"[]", "[]"},
		{"[...]", "null"},
		{"[9223372036854775807]", "[9223372036854775807]"},
	}
	for _, tt := range tests {
		want := strings.ReplaceAll(tt.json, `\"`, `"`)
		s, _ := shape.Parse(tt.notation)
		b, err := json.Marshal(s)
		if err != nil || string(b) != want {
			t.Errorf("Marshal(%s) = %s, %v; want %s", tt.notation, b, err, want)
		}
		var back shape.Shape
		if err := json.Unmarshal(b, &back); err != nil || !back.Equal(s) {
			t.Errorf("Unmarshal(%s) = %v, %v; want %s", b, back, err, tt.notation)
		}
	}
	var s shape.Shape
	for _, bad := range []string{`[-2]`, `["x"]`, `[1.5]`, `{}`, `[99999999999999999999]`} {
		if err := json.Unmarshal([]byte(bad), &s); errcode.Code(err) == "" {
			t.Errorf("Unmarshal(%s) = %v, want an error with a code", bad, err)
		}
	}
	// A dimension of another kind joins through JSONDim.
	if got := string(shape.AppendJSON(nil, []shape.Dim{shape.Static(3), shape.Dynamic})); got != `[3,"?"]` {
		t.Errorf("AppendJSON = %s", got)
	}
}
