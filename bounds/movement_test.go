package bounds_test

import (
	"fmt"
	"testing"

	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/errcode"
)

func TestGather(t *testing.T) {
	tests := []struct {
		data, indices string
		axis, batch   int64
		want          string
		err           error
	}{
		// ShapeOf([1,16,16,16]) → Gather(indices [0], axis 0), the SampLeNet subgraph.
		{"[1,16,16,16]", "[0]", 0, 0, "[1]", nil},
		{"[10,20,30,40]", "2", 0, 0, "30", nil},
		{"[10,20,30,40]", "[-1,0]", 0, 0, "[40,10]", nil},
		{"[10,20,30,40]", "[3,3,1]", -1, 0, "[40,40,20]", nil},
		{"[10,20,30,40]", "[]", 0, 0, "[]", nil},
		{"[[1,2,3],[4,5,6]]", "[2,0]", 1, 0, "[[3,1],[6,4]]", nil},
		{"[[1,2,3],[4,5,6]]", "[2,0]", -1, 0, "[[3,1],[6,4]]", nil},
		{"[[1,2,3],[4,5,6]]", "[1]", 0, 0, "[[4,5,6]]", nil},
		{"[[1,2,3],[4,5,6]]", "1", 1, 0, "[2,5]", nil},
		{"[[1,2,3],[4,5,6]]", "-2", 0, 0, "[1,2,3]", nil},
		{"[7,8]", "[[0,1],[1,0]]", 0, 0, "[[7,8],[8,7]]", nil},
		{"[[1,2,3],[4,5,6]]", "[[2],[0]]", 1, 1, "[[3],[4]]", nil},
		{"[[1,2,3],[4,5,6]]", "[[2],[0]]", 1, -1, "[[3],[4]]", nil},
		{"[[1,2,3],[4,5,6]]", "[[2,1],[0,0]]", 1, 1, "[[3,2],[4,4]]", nil},
		{"[[[1,2],[3,4]],[[5,6],[7,8]]]", "[[1],[0]]", 1, 1, "[[[3,4]],[[5,6]]]", nil},
		// Intervals are copied.
		{"[1,8,32..48,?]", "[2,3]", 0, 0, "[32..48,?]", nil},
		{"[-inf..5,..-1,-5..3]", "[2,1,0]", 0, 0, "[-5..3,..-1,-inf..5]", nil},
		// Errors.
		{"[1,2,3]", "[0..1]", 0, 0, "", bounds.ErrUnknown},
		{"[1,2,3]", "[0,?]", 0, 0, "", bounds.ErrUnknown},
		{"[1,2,3]", "[3]", 0, 0, "", errcode.ErrSyntax},
		{"[1,2,3]", "[-4]", 0, 0, "", errcode.ErrSyntax},
		{"[]", "[0]", 0, 0, "", errcode.ErrSyntax},
		{"[1,2,3]", "[0]", 1, 0, "", errcode.ErrSyntax},
		{"[1,2,3]", "[0]", -2, 0, "", errcode.ErrSyntax},
		{"5", "0", 0, 0, "", errcode.ErrSyntax},
		{"[[1,2,3],[4,5,6]]", "[[2],[0]]", 0, 1, "", errcode.ErrSyntax},
		{"[[1,2,3],[4,5,6]]", "[[2],[0]]", 1, 3, "", errcode.ErrSyntax},
		{"[[1,2,3],[4,5,6]]", "[[2],[0]]", 1, -3, "", errcode.ErrSyntax},
		{"[[1,2,3],[4,5,6]]", "[[0],[1],[2]]", 1, 1, "", errcode.ErrSyntax},
	}
	for _, tt := range tests {
		got, err := bounds.Gather(val(t, tt.data), val(t, tt.indices), tt.axis, tt.batch)
		var want bounds.Value
		if tt.err == nil {
			want = val(t, tt.want)
		}
		checkResult(t, fmt.Sprintf("Gather(%s, %s, axis %d, batch %d)", tt.data, tt.indices, tt.axis, tt.batch), got, err, want, tt.err)
	}
}

func TestGatherLimit(t *testing.T) {
	data, _ := bounds.Const(make([]int64, 1024))
	idx, _ := bounds.Const(make([]int64, 2048))
	one, _ := bounds.Unsqueeze(data, []int64{1}) // [1024,1]
	if _, err := bounds.Gather(one, idx, 1, 0); errcode.Code(err) != "limit" {
		t.Errorf("Gather to [1024,2048]: %v; want a limit error", err)
	}
}

func TestConcat(t *testing.T) {
	tests := []struct {
		in   []string
		axis int64
		want string
		err  error
	}{
		{[]string{"[1]", "[-1]"}, 0, "[1,-1]", nil},
		{[]string{"[1,8,32..48,32..48]", "[1]"}, 0, "[1,8,32..48,32..48,1]", nil},
		{[]string{"[-1]", "[1]", "[3]"}, 0, "[-1,1,3]", nil},
		{[]string{"[-1]", "[1]", "[3]"}, -1, "[-1,1,3]", nil},
		{[]string{"[]", "[5]", "[]"}, 0, "[5]", nil},
		{[]string{"[?,2..]"}, 0, "[?,2..]", nil},
		{[]string{"[[1,2]]", "[[3,4],[5,6]]"}, 0, "[[1,2],[3,4],[5,6]]", nil},
		{[]string{"[[1],[2]]", "[[3,4],[5,6]]"}, 1, "[[1,3,4],[2,5,6]]", nil},
		{[]string{"[[1],[2]]", "[[3,4],[5,6]]"}, -1, "[[1,3,4],[2,5,6]]", nil},
		{[]string{"[[1],[2]]", "[[3,4],[5,6]]"}, 0, "", errcode.ErrSyntax},
		{[]string{}, 0, "", errcode.ErrSyntax},
		{[]string{"1", "2"}, 0, "", errcode.ErrSyntax},
		{[]string{"[1]", "[[2]]"}, 0, "", errcode.ErrSyntax},
		{[]string{"[1]", "[2]"}, 1, "", errcode.ErrSyntax},
		{[]string{"[1]", "[2]"}, -2, "", errcode.ErrSyntax},
	}
	for _, tt := range tests {
		vs := make([]bounds.Value, len(tt.in))
		for i, s := range tt.in {
			vs[i] = val(t, s)
		}
		got, err := bounds.Concat(vs, tt.axis)
		var want bounds.Value
		if tt.err == nil {
			want = val(t, tt.want)
		}
		checkResult(t, fmt.Sprintf("Concat(%v, %d)", tt.in, tt.axis), got, err, want, tt.err)
	}
	big := bounds.Value{Shape: []int64{0, 1 << 20}}
	if _, err := bounds.Concat([]bounds.Value{big, big}, 1); errcode.Code(err) != "limit" {
		t.Errorf("Concat of two [0,2^20] on axis 1: %v; want a limit error", err)
	}
	if _, err := bounds.Concat([]bounds.Value{iota(t, 2048, 1), iota(t, 2048, 512)}, 1); errcode.Code(err) != "limit" {
		t.Errorf("Concat of [2048,1] and [2048,512]: %v; want a limit error", err)
	}
}

func TestUnsqueeze(t *testing.T) {
	tests := []struct {
		in    string
		axes  []int64
		want  bounds.Value
		shape []int64 // the result's shape when want's notation cannot give it
		err   error
	}{
		{"5", []int64{0}, val(t, "[5]"), nil, nil},
		{"5", []int64{-1}, val(t, "[5]"), nil, nil},
		{"5", []int64{0, 1}, val(t, "[[5]]"), nil, nil},
		{"[1,2..3]", []int64{0}, val(t, "[[1,2..3]]"), nil, nil},
		{"[1,2..3]", []int64{1}, val(t, "[[1],[2..3]]"), nil, nil},
		{"[1,2..3]", []int64{-1}, val(t, "[[1],[2..3]]"), nil, nil},
		{"[1,2]", []int64{2, 0}, val(t, "[[[1],[2]]]"), nil, nil},
		{"[1,2]", []int64{}, val(t, "[1,2]"), nil, nil},
		{"[]", []int64{0}, val(t, "[[]]"), []int64{1, 0}, nil},
		{"[]", []int64{1}, val(t, "[]"), []int64{0, 1}, nil},
		{"[1,2]", []int64{0, 0}, bounds.Value{}, nil, errcode.ErrSyntax},
		{"[1,2]", []int64{0, -3}, bounds.Value{}, nil, errcode.ErrSyntax},
		{"[1,2]", []int64{2}, bounds.Value{}, nil, errcode.ErrSyntax},
		{"[1,2]", []int64{-3}, bounds.Value{}, nil, errcode.ErrSyntax},
	}
	for _, tt := range tests {
		got, err := bounds.Unsqueeze(val(t, tt.in), tt.axes)
		want := tt.want
		if tt.shape != nil {
			want = withShape(want, tt.shape...)
		}
		checkResult(t, fmt.Sprintf("Unsqueeze(%s, %v)", tt.in, tt.axes), got, err, want, tt.err)
	}
}

func TestSqueeze(t *testing.T) {
	tests := []struct {
		in   string
		axes []int64
		want string
		err  error
	}{
		{"[[1,2]]", nil, "[1,2]", nil},
		{"[[1,2]]", []int64{}, "[1,2]", nil},
		{"[[1,2]]", []int64{0}, "[1,2]", nil},
		{"[[1,2]]", []int64{-2}, "[1,2]", nil},
		{"[[1,2]]", []int64{0, -2}, "[1,2]", nil},
		{"[[1],[2..3]]", nil, "[1,2..3]", nil},
		{"[[[7]]]", nil, "7", nil},
		{"[[[7]]]", []int64{0, 2}, "[7]", nil},
		{"[5]", nil, "5", nil},
		{"5", nil, "5", nil},
		{"[1,2]", nil, "[1,2]", nil},
		{"[[1,2]]", []int64{1}, "", errcode.ErrSyntax},
		{"[[1,2]]", []int64{2}, "", errcode.ErrSyntax},
		{"[[1,2]]", []int64{-3}, "", errcode.ErrSyntax},
		{"5", []int64{0}, "", errcode.ErrSyntax},
	}
	for _, tt := range tests {
		got, err := bounds.Squeeze(val(t, tt.in), tt.axes)
		var want bounds.Value
		if tt.err == nil {
			want = val(t, tt.want)
		}
		checkResult(t, fmt.Sprintf("Squeeze(%s, %v)", tt.in, tt.axes), got, err, want, tt.err)
	}
}
