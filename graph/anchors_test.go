package graph_test

import (
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/reshape-go/reshape/graph"
)

// TestAnchorSums infers testdata/models/rcnn_anchors.onnx (bench/truth/gen_onnx.py), the anchor
// bookkeeping of torchvision's retinanet and RPN after the float32 resize of their transform: the
// anchors per location (the head's total over the sum of the levels' sizes) are 9, and every
// level's slice of the head and the concatenated top-k indices have lengths in the symbols, with
// nothing lost. The lengths at two bindings are onnxruntime's (testdata/truth/rcnn_anchors.*.json).
func TestAnchorSums(t *testing.T) {
	res, err := graph.Infer(loadONNX(t, filepath.Join("..", "testdata", "models", "rcnn_anchors.onnx")), graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete() {
		t.Errorf("incomplete: %v", res.Lost())
	}
	if v, ok := res.Tensor("Div_2_out").Ints(); !ok || !slices.Equal(v, []int64{9}) {
		t.Errorf("anchors per location: %v, want [9]", res.Tensor("Div_2_out").Value)
	}
	tests := []struct {
		h, w   int64
		levels []int64 // the lengths of Slice_2_out … Slice_6_out
		topk   int64   // the length of Concat_9_out
	}{
		{640, 480, []int64{20160, 5040, 1260, 315, 108}, 3423},
		{1000, 10, []int64{2880, 720, 180, 90, 45}, 2035},
	}
	for _, tt := range tests {
		b := map[string]int64{"H": tt.h, "W": tt.w}
		for i, want := range tt.levels {
			name := "Slice_" + strconv.Itoa(2+i) + "_out"
			if got, err := res.Eval(name, b); err != nil || !slices.Equal(got, []int64{1, want, 2}) {
				t.Errorf("%s %v at %v: %v, %v; want [1 %d 2]", name, res.Tensor(name).Shape, b, got, err, want)
			}
		}
		if got, err := res.Eval("Concat_9_out", b); err != nil || !slices.Equal(got, []int64{1, tt.topk}) {
			t.Errorf("Concat_9_out %v at %v: %v, %v; want [1 %d]", res.Tensor("Concat_9_out").Shape, b, got, err, tt.topk)
		}
	}
}
