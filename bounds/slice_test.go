package bounds_test

import (
	"fmt"
	"testing"

	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

func TestSlice(t *testing.T) {
	const data2 = "[[1,2,3,4],[5,6,7,8]]"
	tests := []struct {
		in                        string
		starts, ends, axes, steps []int64
		want                      string
		shape                     []int64 // the result's shape when want's notation cannot give it
		err                       error
	}{
		// The examples of ONNX's Slice specification.
		{data2, []int64{1, 0}, []int64{2, 3}, []int64{0, 1}, []int64{1, 2}, "[[5,7]]", nil, nil},
		{data2, []int64{0, 1}, []int64{-1, 1000}, nil, nil, "[[2,3,4]]", nil, nil},
		{data2, []int64{1}, []int64{3}, []int64{-1}, nil, "[[2,3],[6,7]]", nil, nil},
		{data2, []int64{1, -1}, []int64{minI, maxI}, []int64{0, 1}, []int64{-1, 1}, "[[8],[4]]", nil, nil},
		{data2, nil, nil, nil, nil, data2, nil, nil},
		// ShapeOf([1,16,16,16])[1:]
		{"[1,16,16,16]", []int64{1}, []int64{maxI}, nil, nil, "[16,16,16]", nil, nil},
		{"[1,2,3,4]", []int64{0}, []int64{maxI}, nil, nil, "[1,2,3,4]", nil, nil},
		{"[1,2,3,4]", []int64{-1}, []int64{minI}, nil, []int64{-1}, "[4,3,2,1]", nil, nil},
		{"[1,2,3,4]", []int64{10}, []int64{-10}, nil, []int64{-1}, "[4,3,2,1]", nil, nil},
		{"[1,2,3,4]", []int64{3}, []int64{0}, nil, []int64{-2}, "[4,2]", nil, nil},
		{"[1,2,3,4]", []int64{-2}, []int64{-1}, []int64{0}, nil, "[3]", nil, nil},
		{"[1,2,3,4]", []int64{1}, []int64{1}, nil, nil, "[]", nil, nil},
		{"[1,2,3,4]", []int64{3}, []int64{1}, nil, nil, "[]", nil, nil},
		{"[1,2,3,4]", []int64{1}, []int64{3}, nil, []int64{-1}, "[]", nil, nil},
		{"[1,2,3,4]", []int64{-100}, []int64{2}, nil, nil, "[1,2]", nil, nil},
		{"[1,2,3,4]", []int64{0}, []int64{4}, nil, []int64{3}, "[1,4]", nil, nil},
		{"[1,2,3,4]", []int64{3}, []int64{minI}, nil, []int64{minI}, "[4]", nil, nil},
		{"[1,2,3,4]", []int64{0}, []int64{maxI}, nil, []int64{maxI}, "[1]", nil, nil},
		{"[1,2,3,4]", []int64{maxI}, []int64{minI}, nil, []int64{-3}, "[4,1]", nil, nil},
		{"[]", []int64{0}, []int64{1}, nil, nil, "[]", nil, nil},
		{"[]", []int64{-1}, []int64{minI}, nil, []int64{-1}, "[]", nil, nil},
		{data2, []int64{0}, []int64{0}, []int64{1}, nil, "[[],[]]", []int64{2, 0}, nil},
		{"[1,8,32..48,?]", []int64{2}, []int64{4}, nil, nil, "[32..48,?]", nil, nil},
		{"7", nil, nil, nil, nil, "7", nil, nil},
		// Errors.
		{"[1,2,3,4]", []int64{0}, []int64{}, nil, nil, "", nil, errcode.ErrSyntax},
		{"[1,2,3,4]", []int64{0}, []int64{1}, []int64{0, 1}, nil, "", nil, errcode.ErrSyntax},
		{"[1,2,3,4]", []int64{0}, []int64{1}, nil, []int64{1, 1}, "", nil, errcode.ErrSyntax},
		{"[1,2,3,4]", []int64{0}, []int64{1}, nil, []int64{0}, "", nil, errcode.ErrSyntax},
		{"[1,2,3,4]", []int64{0}, []int64{1}, []int64{1}, nil, "", nil, errcode.ErrSyntax},
		{"[1,2,3,4]", []int64{0}, []int64{1}, []int64{-2}, nil, "", nil, errcode.ErrSyntax},
		{data2, []int64{0, 0}, []int64{1, 1}, []int64{0, -2}, nil, "", nil, errcode.ErrSyntax},
		{"7", []int64{0}, []int64{1}, nil, nil, "", nil, errcode.ErrSyntax},
	}
	for _, tt := range tests {
		got, err := bounds.Slice(val(t, tt.in), tt.starts, tt.ends, tt.axes, tt.steps)
		var want bounds.Value
		if tt.err == nil {
			want = val(t, tt.want)
			if tt.shape != nil {
				want = withShape(want, tt.shape...)
			}
		}
		checkResult(t, fmt.Sprintf("Slice(%s, starts %v, ends %v, axes %v, steps %v)", tt.in, tt.starts, tt.ends, tt.axes, tt.steps),
			got, err, want, tt.err)
	}
}

// iota returns the static value of shape dims holding 0, 1, 2, ... in row-major order.
func iota(t testing.TB, dims ...int64) bounds.Value {
	n, _ := shape.Volume(dims)
	values := make([]int64, n)
	for i := range values {
		values[i] = int64(i)
	}
	v, err := bounds.Const(values, dims...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestStridedSlice(t *testing.T) {
	const s3 = "[1,1126,3]" // ShapeOf([1,1126,3]), from a hand detector
	const m23 = "[[1,2,3],[4,5,6]]"
	type masks struct{ begin, end, newAxis, shrink, ellipsis []int64 }
	tests := []struct {
		in                 bounds.Value
		begin, end, stride []int64
		m                  masks
		want               string
		shape              []int64 // the result's shape when want's notation cannot give it
		err                error
	}{
		{val(t, s3), []int64{0}, []int64{1}, []int64{1}, masks{[]int64{0}, []int64{0}, []int64{0}, []int64{0}, []int64{0}}, "[1]", nil, nil},
		{val(t, s3), []int64{0}, []int64{1}, nil, masks{}, "[1]", nil, nil},
		{val(t, s3), []int64{1}, []int64{0}, []int64{1}, masks{end: []int64{1}}, "[1126,3]", nil, nil},
		{val(t, s3), []int64{7}, []int64{-7}, []int64{1}, masks{begin: []int64{1}, end: []int64{1}}, s3, nil, nil},
		{val(t, s3), []int64{-2}, []int64{0}, []int64{1}, masks{end: []int64{1}}, "[1126,3]", nil, nil},
		{val(t, s3), []int64{0}, []int64{-1}, []int64{1}, masks{}, "[1,1126]", nil, nil},
		{val(t, s3), []int64{-1}, []int64{0}, []int64{1}, masks{shrink: []int64{1}}, "3", nil, nil},
		{val(t, s3), []int64{1}, []int64{2}, []int64{1}, masks{shrink: []int64{1}}, "1126", nil, nil},
		{val(t, s3), []int64{0}, []int64{0}, []int64{-1}, masks{begin: []int64{1}, end: []int64{1}}, "[3,1126,1]", nil, nil},
		{val(t, s3), []int64{-1}, []int64{0}, []int64{-1}, masks{}, "[3,1126]", nil, nil},
		{val(t, s3), []int64{100}, []int64{-100}, []int64{-2}, masks{}, "[3,1]", nil, nil},
		{val(t, s3), []int64{0}, []int64{3}, []int64{2}, masks{}, "[1,3]", nil, nil},
		{val(t, s3), []int64{0}, []int64{2}, []int64{1}, masks{newAxis: []int64{1}}, "[[1,1126,3]]", nil, nil},
		{val(t, s3), []int64{0, 0}, []int64{2, 0}, []int64{1, 1}, masks{newAxis: []int64{0, 1}}, "[[1],[1126]]", nil, nil},
		// Only a 1 sets a bit; entries past the steps are ignored.
		{val(t, s3), []int64{1}, []int64{2}, []int64{1}, masks{begin: []int64{2}, end: []int64{0, 1, 1}}, "[1126]", nil, nil},
		// Ellipsis.
		{val(t, s3), []int64{0, 0}, []int64{0, 1}, []int64{1, 1}, masks{ellipsis: []int64{1, 0}}, "[1]", nil, nil},
		{val(t, m23), []int64{0, 1}, []int64{0, 2}, []int64{1, 1}, masks{ellipsis: []int64{1, 0}}, "[[2],[5]]", nil, nil},
		{val(t, m23), []int64{0, -1}, []int64{0, 0}, []int64{1, 1}, masks{ellipsis: []int64{1}, shrink: []int64{0, 1}}, "[3,6]", nil, nil},
		{val(t, m23), []int64{1, 0}, []int64{2, 0}, []int64{1, 1}, masks{ellipsis: []int64{0, 1}}, "[[4,5,6]]", nil, nil},
		{val(t, m23), []int64{0, 0}, []int64{0, 0}, []int64{1, 1}, masks{ellipsis: []int64{1}, newAxis: []int64{0, 1}}, "[[[1],[2],[3]],[[4],[5],[6]]]", nil, nil},
		{val(t, m23), []int64{0}, []int64{0}, []int64{1}, masks{ellipsis: []int64{1}, newAxis: []int64{1}}, m23, nil, nil},
		// 2-D.
		{val(t, m23), []int64{1}, []int64{2}, []int64{1}, masks{}, "[[4,5,6]]", nil, nil},
		{val(t, m23), []int64{0, 2}, []int64{0, 0}, []int64{1, -1}, masks{begin: []int64{1}, end: []int64{1, 0}}, "[[3,2],[6,5]]", nil, nil},
		{val(t, m23), []int64{0, 1}, []int64{0, 0}, []int64{1, 1}, masks{shrink: []int64{0, 1}, begin: []int64{1}, end: []int64{1, 1}}, "[2,5]", nil, nil},
		// The specification's example of begin_mask and end_mask, array[1:, :, ::-1] on a [2,3,4]
		// array: OpenVINO's shape inference and reference give [1,3,4], as numpy does; the
		// comment of the specification's example says [1,3,3].
		{iota(t, 2, 3, 4), []int64{1, 1, 123}, []int64{0, 0, 2}, []int64{1, 1, -1},
			masks{begin: []int64{0, 1, 1}, end: []int64{1, 1, 1}, newAxis: []int64{0, 0, 0, 0, 0}, shrink: []int64{0, 0}, ellipsis: []int64{0}},
			"[[[15,14,13,12],[19,18,17,16],[23,22,21,20]]]", nil, nil},
		// The specification's clamping example, array[2:3, 2:1:-1] on a [2,2] array: empty.
		{iota(t, 2, 2), []int64{1234, 2}, []int64{1234, 4321}, []int64{1, -1}, masks{}, "[]", []int64{0, 0}, nil},
		// The specification's example of negative indices, array[0:2, 0:2, 0:-1] on [2,3,4].
		{iota(t, 2, 3, 4), []int64{0, 0, 0}, []int64{2, 2, -1}, []int64{1, 1, 1}, masks{},
			"[[[0,1,2],[4,5,6]],[[12,13,14],[16,17,18]]]", nil, nil},
		// The specification's new_axis_mask example, array[np.newaxis, 0:2, np.newaxis, 0:4] on [2,4].
		{iota(t, 2, 4), []int64{0, 0, 0, 0}, []int64{0, 2, 0, 4}, []int64{1, 1, 1, 1}, masks{newAxis: []int64{1, 0, 1, 0}},
			"[[[[0,1,2,3]],[[4,5,6,7]]]]", nil, nil},
		{val(t, "[]"), []int64{0}, []int64{1}, []int64{-1}, masks{begin: []int64{1}, end: []int64{1}}, "[]", nil, nil},
		{val(t, "7"), nil, nil, nil, masks{}, "7", nil, nil},
		{val(t, "7"), []int64{0}, []int64{0}, nil, masks{newAxis: []int64{1}}, "[7]", nil, nil},
		{val(t, "[1,8,32..48,?]"), []int64{2}, []int64{4}, nil, masks{}, "[32..48,?]", nil, nil},
		// Errors.
		{val(t, s3), []int64{0}, []int64{1}, []int64{0}, masks{}, "", nil, errcode.ErrSyntax},
		{val(t, s3), []int64{0}, []int64{1, 2}, nil, masks{}, "", nil, errcode.ErrSyntax},
		{val(t, s3), []int64{0}, []int64{1}, []int64{1, 1}, masks{}, "", nil, errcode.ErrSyntax},
		{val(t, s3), []int64{0, 0}, []int64{1, 1}, nil, masks{}, "", nil, errcode.ErrSyntax},
		{val(t, s3), []int64{3}, []int64{0}, nil, masks{shrink: []int64{1}}, "", nil, errcode.ErrSyntax},
		{val(t, s3), []int64{-4}, []int64{0}, nil, masks{shrink: []int64{1}}, "", nil, errcode.ErrSyntax},
		{val(t, m23), []int64{0, 0}, []int64{0, 0}, nil, masks{ellipsis: []int64{1, 1}}, "", nil, errcode.ErrSyntax},
		{val(t, "[]"), []int64{0}, []int64{0}, nil, masks{shrink: []int64{1}}, "", nil, errcode.ErrSyntax},
	}
	for _, tt := range tests {
		m := tt.m
		got, err := bounds.StridedSlice(tt.in, tt.begin, tt.end, tt.stride, m.begin, m.end, m.newAxis, m.shrink, m.ellipsis)
		var want bounds.Value
		if tt.err == nil {
			want = val(t, tt.want)
			if tt.shape != nil {
				want = withShape(want, tt.shape...)
			}
		}
		checkResult(t, fmt.Sprintf("StridedSlice(%s, %v, %v, %v, %+v)", tt.in, tt.begin, tt.end, tt.stride, m), got, err, want, tt.err)
	}
}

func TestStridedSliceRankLimit(t *testing.T) {
	n := 64
	begin, newAxis := make([]int64, n), make([]int64, n)
	for i := range newAxis {
		newAxis[i] = 1
	}
	v := val(t, "[1,2]")
	got, err := bounds.StridedSlice(v, begin[:63], begin[:63], nil, nil, nil, newAxis, nil, nil)
	if err != nil || len(got.Shape) != 64 {
		t.Errorf("StridedSlice with 63 new axes: shape %v, %v; want rank 64", got.Shape, err)
	}
	if _, err := bounds.StridedSlice(v, begin, begin, nil, nil, nil, newAxis, nil, nil); errcode.Code(err) != "limit" {
		t.Errorf("StridedSlice with 64 new axes: %v; want a limit error", err)
	}
}

// TestStridedSliceSpecShape: the first example of the specification, array[0:4, 1:4, 0:4:2,
// 1:4:2, 3:0:-1, 3:0:-2] on a [4,4,4,4,4,4] array. Its output port says [4,3,2,2,4,2], with
// element ids [3,2,1,0] for 3:0:-1; OpenVINO's reference (make_slice_plan), its shape inference and
// numpy give 3 elements there, [3,2,1]: the end is exclusive.
func TestStridedSliceSpecShape(t *testing.T) {
	v := iota(t, 4, 4, 4, 4, 4, 4)
	got, err := bounds.StridedSlice(v, []int64{0, 1, 0, 1, 3, 3}, []int64{4, 4, 4, 4, 0, 0}, []int64{1, 1, 2, 2, -1, -2},
		[]int64{0, 0, 0, 0, 0, 0}, []int64{0, 0, 0, 0, 0, 0}, nil, nil, nil)
	if err != nil || shape.FormatInts(got.Shape) != "[4,3,2,2,3,2]" {
		t.Fatalf("StridedSlice = %v, %v; want shape [4,3,2,2,3,2]", got.Shape, err)
	}
	// Element [0,0,0,0,0,0] is input [0,1,0,1,3,3]; element [3,2,1,1,2,1] is input [3,3,2,3,1,1].
	at := func(c ...int64) int64 {
		n := int64(0)
		for _, x := range c {
			n = n*4 + x
		}
		return n
	}
	if got.Elems[0] != shape.Static(at(0, 1, 0, 1, 3, 3)) || got.Elems[len(got.Elems)-1] != shape.Static(at(3, 3, 2, 3, 1, 1)) {
		t.Errorf("StridedSlice elements: first %v, last %v", got.Elems[0], got.Elems[len(got.Elems)-1])
	}
}
