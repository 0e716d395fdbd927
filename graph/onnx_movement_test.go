package graph_test

import (
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
)

// tensorOf returns a constant of type t and shape dims holding ints (integer types) or floats.
func tensorOf(t element.Type, dims []int64, ints []int64, floats []float64) *graph.Const {
	return &graph.Const{Type: t, Dims: dims, Load: func(int64) ([]int64, []float64, error) { return ints, floats, nil }}
}

// floats returns a 1-D float32 constant.
func floats(v ...float64) *graph.Const {
	return tensorOf(element.F32, []int64{int64(len(v))}, nil, v)
}

// ints returns an int64 constant of shape dims.
func ints(dims []int64, v ...int64) *graph.Const { return tensorOf(element.I64, dims, v, nil) }

func attrFloats(name string, v ...float64) graph.Attr {
	return graph.Attr{Name: name, Kind: graph.AttrFloats, Floats: v}
}

func attrString(name, v string) graph.Attr {
	return graph.Attr{Name: name, Kind: graph.AttrString, String: v}
}

// at returns n bound to the opset version v.
func at(v int64, n graph.Node) graph.Node {
	n.Version = v
	return n
}

func TestSplit(t *testing.T) {
	x4 := map[string]string{"x": "[N,C,H,W]"}
	checkNode(t, []nodeCase{
		{name: "13 sizes", node: node("Split", []string{"x", "s"}, []string{"a", "b"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[N,6,H]"}, consts: map[string][]int64{"s": {2, 4}}, want: []string{"[N,2,H]", "[N,4,H]"}},
		{name: "13 sizes unify the axis", node: node("Split", []string{"x", "s"}, []string{"a", "b"}, attrInt("axis", -1)),
			inputs: map[string]string{"x": "[N,W]"}, consts: map[string][]int64{"s": {1, 3}}, want: []string{"[N,1]", "[N,3]"}},
		{name: "13 sizes do not sum", node: node("Split", []string{"x", "s"}, []string{"a", "b"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[N,6]"}, consts: map[string][]int64{"s": {2, 3}}, wantErr: errInvalidShape},
		{name: "13 sizes unknown", node: node("Split", []string{"x", "s"}, []string{"a", "b"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[N,6]", "s": "[2]"}, types: map[string]element.Type{"s": element.I64},
			want: []string{"[N,..6]", "[N,..6]"}},
		{name: "13 empty sizes", node: node("Split", []string{"x", "s"}, []string{"a", "b"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[N,C]"}, consts: map[string][]int64{"s": {}}, want: []string{"[N,C/2]", "[N,C/2]"}},
		{name: "13 equal", node: node("Split", []string{"x"}, []string{"a", "b"}, attrInt("axis", 3)),
			inputs: x4, want: []string{"[N,C,H,W/2]", "[N,C,H,W/2]"}},
		{name: "13 equal not divisible", node: node("Split", []string{"x"}, []string{"a", "b"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[N,5]"}, wantErr: errInvalidShape},
		{name: "2 attribute", node: at(2, node("Split", []string{"x"}, []string{"a", "b"}, attrInt("axis", 1), attrInts("split", 1, 2))),
			inputs: map[string]string{"x": "[N,3]"}, want: []string{"[N,1]", "[N,2]"}},
		{name: "11 equal", node: at(11, node("Split", []string{"x"}, []string{"a", "b", "c"}, attrInt("axis", 1))),
			inputs: map[string]string{"x": "[N,12]"}, want: []string{"[N,4]", "[N,4]", "[N,4]"}},
		{name: "18 num_outputs uneven", node: at(18, node("Split", []string{"x"}, []string{"a", "b", "c"}, attrInt("axis", 1), attrInt("num_outputs", 3))),
			inputs: map[string]string{"x": "[N,7]"}, want: []string{"[N,3]", "[N,3]", "[N,1]"}},
		{name: "18 num_outputs symbolic", node: at(18, node("Split", []string{"x"}, []string{"a", "b", "c"}, attrInt("axis", 1), attrInt("num_outputs", 3))),
			inputs: map[string]string{"x": "[N,W]"}, want: []string{"[N,(W+2)//3]", "[N,(W+2)//3]", "[N,W-2*((W+2)//3)]"}}, // ceil(W/3), ceil(W/3), W-2*ceil(W/3)
		{name: "18 num_outputs even", node: at(18, node("Split", []string{"x"}, []string{"a", "b", "c"}, attrInt("axis", 1), attrInt("num_outputs", 3))),
			inputs: map[string]string{"x": "[N,6]"}, want: []string{"[N,2]", "[N,2]", "[N,2]"}},
		{name: "18 num_outputs no last part", node: at(18, node("Split", []string{"x"}, []string{"a", "b", "c", "d"}, attrInt("num_outputs", 4))),
			inputs: map[string]string{"x": "[6]"}, wantErr: errInvalidShape},
		{name: "18 num_outputs and outputs differ", node: at(18, node("Split", []string{"x"}, []string{"a", "b"}, attrInt("num_outputs", 3))),
			inputs: map[string]string{"x": "[6]"}, wantErr: errcode.ErrSyntax},
		{name: "values", node: node("Split", []string{"v", "s"}, []string{"a", "b"}),
			consts: map[string][]int64{"v": {2, 3, 5, 7}, "s": {1, 3}}, want: []string{"[1]", "[3]"}, values: []string{"[2]", "[3,5,7]"}},
		{name: "values of columns", node: node("Split", []string{"v"}, []string{"a", "b"}, attrInt("axis", 1)),
			tensors: map[string]*graph.Const{"v": ints([]int64{2, 4}, 1, 2, 3, 4, 5, 6, 7, 8)},
			want:    []string{"[2,2]", "[2,2]"}, values: []string{"[1,2,5,6]", "[3,4,7,8]"}},
		{name: "dynamic rank", node: node("Split", []string{"x"}, []string{"a", "b"}), inputs: map[string]string{"x": "[...]"},
			want: []string{"[...]", "[...]"}},
	})
}

func TestPad(t *testing.T) {
	i64 := map[string]element.Type{"p": element.I64}
	checkNode(t, []nodeCase{
		{name: "13 negative pads", node: node("Pad", []string{"x", "p"}, []string{"y"}), inputs: map[string]string{"x": "[N,C,H,W]"},
			consts: map[string][]int64{"p": {0, 0, 1, 2, 0, 0, 3, -1}}, want: []string{"[N,C,H+4,W+1]"}},
		{name: "2 attribute", node: at(2, node("Pad", []string{"x"}, []string{"y"}, attrInts("pads", 1, 0, 1, 2))),
			inputs: map[string]string{"x": "[2,3]"}, want: []string{"[4,5]"}},
		{name: "1 paddings", node: at(1, node("Pad", []string{"x"}, []string{"y"}, attrInts("paddings", 0, 2, 0, 2))),
			inputs: map[string]string{"x": "[2,T]"}, want: []string{"[2,T+4]"}},
		{name: "18 axes", node: at(18, node("Pad", []string{"x", "p", "", "a"}, []string{"y"})), inputs: map[string]string{"x": "[N,C,H,W]"},
			consts: map[string][]int64{"p": {1, 1, 2, 2}, "a": {-1, 2}}, want: []string{"[N,C,H+3,W+3]"}},
		{name: "pads unknown", node: node("Pad", []string{"x", "p"}, []string{"y"}, attrString("mode", "reflect")),
			inputs: map[string]string{"x": "[N,C]", "p": "[4]"}, types: i64, want: []string{"[?,?]"}},
		{name: "negative result", node: node("Pad", []string{"x", "p"}, []string{"y"}), inputs: map[string]string{"x": "[2]"},
			consts: map[string][]int64{"p": {-2, -1}}, wantErr: errInvalidShape},
		{name: "no pads", node: at(2, node("Pad", []string{"x"}, []string{"y"})), inputs: map[string]string{"x": "[2]"}, wantErr: errcode.ErrSyntax},
		{name: "constant values", node: node("Pad", []string{"v", "p", "c"}, []string{"y"}),
			consts: map[string][]int64{"v": {1, 2, 3}, "p": {2, 1}, "s:c": {9}}, want: []string{"[6]"}, values: []string{"[9,9,1,2,3,9]"}},
		{name: "constant values 2-D", node: node("Pad", []string{"v", "p"}, []string{"y"}),
			tensors: map[string]*graph.Const{"v": ints([]int64{2, 2}, 1, 2, 3, 4)}, consts: map[string][]int64{"p": {1, -1, 0, 0}},
			want: []string{"[3,1]"}, values: []string{"[0,2,4]"}},
		{name: "reflect values", node: node("Pad", []string{"v", "p"}, []string{"y"}, attrString("mode", "reflect")),
			consts: map[string][]int64{"v": {1, 2, 3}, "p": {2, 1}}, want: []string{"[6]"}, values: []string{"[3,2,1,2,3,2]"}},
		{name: "edge values", node: node("Pad", []string{"v", "p"}, []string{"y"}, attrString("mode", "edge")),
			consts: map[string][]int64{"v": {1, 2, 3}, "p": {2, 1}}, want: []string{"[6]"}, values: []string{"[1,1,1,2,3,3]"}},
		// onnxruntime 1.20: Pad-19 wrap of [0,1,2,3] by [-1,3] is [1,2,3,1,2,3] (the crop, then the wrap).
		{name: "19 wrap values", node: at(19, node("Pad", []string{"v", "p"}, []string{"y"}, attrString("mode", "wrap"))),
			consts: map[string][]int64{"v": {0, 1, 2, 3}, "p": {-1, 3}}, want: []string{"[6]"}, values: []string{"[1,2,3,1,2,3]"}},
	})
}

// TestPadUndefinedValues checks that Pad gives no values where onnxruntime's are not a padding
// (1.20: reflecting [0,1,2,3] by [0,4] ends 2,1,0,0; wrapping it by [6,0] starts 0,0,0,1).
func TestPadUndefinedValues(t *testing.T) {
	for _, tc := range []nodeCase{
		{name: "reflect", node: node("Pad", []string{"v", "p"}, []string{"y"}, attrString("mode", "reflect")),
			consts: map[string][]int64{"v": {0, 1, 2, 3}, "p": {0, 4}}},
		{name: "wrap", node: at(19, node("Pad", []string{"v", "p"}, []string{"y"}, attrString("mode", "wrap"))),
			consts: map[string][]int64{"v": {0, 1, 2, 3}, "p": {6, 0}}},
	} {
		res := runNode(t, tc)
		if out := res.Nodes[0].Outputs[0]; out.Value != nil || out.Shape.String() == "[...]" {
			t.Errorf("%s: %v with values %v, want a shape and no values", tc.name, out.Shape, out.Value)
		}
	}
}

func TestTile(t *testing.T) {
	checkNode(t, []nodeCase{
		{name: "repeats", node: node("Tile", []string{"x", "r"}, []string{"y"}), inputs: map[string]string{"x": "[N,3]"},
			consts: map[string][]int64{"r": {2, 3}}, want: []string{"[2*N,9]"}},
		{name: "repeats unknown", node: node("Tile", []string{"x", "r"}, []string{"y"}), inputs: map[string]string{"x": "[N,3]", "r": "[2]"},
			types: map[string]element.Type{"r": element.I64}, want: []string{"[?,?]"}},
		{name: "repeats of another rank", node: node("Tile", []string{"x", "r"}, []string{"y"}), inputs: map[string]string{"x": "[N,3]"},
			consts: map[string][]int64{"r": {2}}, wantErr: errInvalidShape},
		{name: "negative repeats", node: node("Tile", []string{"x", "r"}, []string{"y"}), inputs: map[string]string{"x": "[N,3]"},
			consts: map[string][]int64{"r": {2, -1}}, wantErr: errInvalidShape},
		{name: "values", node: node("Tile", []string{"v", "r"}, []string{"y"}), consts: map[string][]int64{"v": {1, 2}, "r": {3}},
			want: []string{"[6]"}, values: []string{"[1,2,1,2,1,2]"}},
		{name: "values 2-D", node: node("Tile", []string{"v", "r"}, []string{"y"}), tensors: map[string]*graph.Const{"v": ints([]int64{2, 2}, 1, 2, 3, 4)},
			consts: map[string][]int64{"r": {2, 2}}, want: []string{"[4,4]"}, values: []string{"[1,2,1,2,3,4,3,4,1,2,1,2,3,4,3,4]"}},
		{name: "1 tiles and axis", node: at(1, node("Tile", []string{"x", "t", "a"}, []string{"y"})), inputs: map[string]string{"x": "[N,3]"},
			consts: map[string][]int64{"s:t": {4}, "s:a": {1}}, want: []string{"[N,12]"}},
	})
}

func TestResize(t *testing.T) {
	x4 := map[string]string{"x": "[N,C,H,W]"}
	checkNode(t, []nodeCase{
		{name: "10 scales", node: at(10, node("Resize", []string{"x", "s"}, []string{"y"})), inputs: x4,
			tensors: map[string]*graph.Const{"s": floats(1, 1, 2, 2)}, want: []string{"[N,C,2*H,2*W]"}},
		{name: "13 dyadic scales", node: at(13, node("Resize", []string{"x", "", "s"}, []string{"y"})), inputs: x4,
			tensors: map[string]*graph.Const{"s": floats(1, 1, 0.5, 1.5)}, want: []string{"[N,C,H//2,W+W//2]"}},
		// onnxruntime 1.20 computes 10·0.7f in float32: 7, where floor(10·0.699999988) is 6.
		{name: "13 static scale in float32", node: at(13, node("Resize", []string{"x", "", "s"}, []string{"y"})),
			inputs: map[string]string{"x": "[1,1,10,7]"}, tensors: map[string]*graph.Const{"s": floats(1, 1, 0.7, 0.5)}, want: []string{"[1,1,7,3]"}},
		{name: "13 other scale of a symbol", node: at(13, node("Resize", []string{"x", "", "s"}, []string{"y"})),
			inputs: x4, tensors: map[string]*graph.Const{"s": floats(1, 1, 0.7, 1)}, want: []string{"[N,C,?,W]"}},
		{name: "11 sizes, empty scales", node: at(11, node("Resize", []string{"x", "r", "s", "z"}, []string{"y"})), inputs: x4,
			tensors: map[string]*graph.Const{"r": floats(), "s": floats()}, consts: map[string][]int64{"z": {1, 3, 8, 8}}, want: []string{"[1,3,8,8]"}},
		{name: "13 scales unknown", node: at(13, node("Resize", []string{"x", "", "s"}, []string{"y"})),
			inputs: map[string]string{"x": "[N,C,H,W]", "s": "[4]"}, want: []string{"[?,?,?,?]"}},
		{name: "13 scales and sizes", node: at(13, node("Resize", []string{"x", "", "s", "z"}, []string{"y"})), inputs: x4,
			tensors: map[string]*graph.Const{"s": floats(1, 1, 2, 2)}, consts: map[string][]int64{"z": {1, 3, 8, 8}}, wantErr: errcode.ErrSyntax},
		{name: "13 neither", node: at(13, node("Resize", []string{"x"}, []string{"y"})), inputs: x4, wantErr: errcode.ErrSyntax},
		{name: "13 zero scale", node: at(13, node("Resize", []string{"x", "", "s"}, []string{"y"})), inputs: x4,
			tensors: map[string]*graph.Const{"s": floats(1, 1, 0, 2)}, wantErr: errInvalidShape},
		{name: "18 scales on axes", node: at(18, node("Resize", []string{"x", "", "s"}, []string{"y"}, attrInts("axes", 3, 1))), inputs: x4,
			tensors: map[string]*graph.Const{"s": floats(2, 4)}, want: []string{"[N,4*C,H,2*W]"}},
		{name: "18 sizes on axes", node: at(18, node("Resize", []string{"x", "", "", "z"}, []string{"y"}, attrInts("axes", 2, 3))), inputs: x4,
			consts: map[string][]int64{"z": {7, 9}}, want: []string{"[N,C,7,9]"}},
		// onnxruntime 1.20: [1,1,4,6] to at most [7,7] is [1,1,5,7]; to at least [7,7], [1,1,7,11].
		{name: "18 not_larger", node: at(18, node("Resize", []string{"x", "", "", "z"}, []string{"y"}, attrInts("axes", 2, 3),
			attrString("keep_aspect_ratio_policy", "not_larger"))), inputs: map[string]string{"x": "[1,1,4,6]"},
			consts: map[string][]int64{"z": {7, 7}}, want: []string{"[1,1,5,7]"}},
		{name: "18 not_smaller", node: at(18, node("Resize", []string{"x", "", "", "z"}, []string{"y"}, attrInts("axes", 2, 3),
			attrString("keep_aspect_ratio_policy", "not_smaller"))), inputs: map[string]string{"x": "[1,1,4,6]"},
			consts: map[string][]int64{"z": {7, 7}}, want: []string{"[1,1,7,11]"}},
		// onnxruntime 1.20.1: [1,1,2,2] to at least [-2,5] is [1,1,5,5]; to at most [-2,5], refused
		// ("Scale value should be greater than 0"), as to at most [0,5].
		{name: "18 not_smaller of a negative size", node: at(18, node("Resize", []string{"x", "", "", "z"}, []string{"y"}, attrInts("axes", 2, 3),
			attrString("keep_aspect_ratio_policy", "not_smaller"))), inputs: map[string]string{"x": "[1,1,2,2]"},
			consts: map[string][]int64{"z": {-2, 5}}, want: []string{"[1,1,5,5]"}},
		{name: "18 not_larger of a negative size", node: at(18, node("Resize", []string{"x", "", "", "z"}, []string{"y"}, attrInts("axes", 2, 3),
			attrString("keep_aspect_ratio_policy", "not_larger"))), inputs: map[string]string{"x": "[1,1,2,2]"},
			consts: map[string][]int64{"z": {-2, 5}}, wantErr: errInvalidShape},
		{name: "18 not_larger of a zero size", node: at(18, node("Resize", []string{"x", "", "", "z"}, []string{"y"}, attrInts("axes", 2, 3),
			attrString("keep_aspect_ratio_policy", "not_larger"))), inputs: map[string]string{"x": "[1,1,2,2]"},
			consts: map[string][]int64{"z": {0, 5}}, wantErr: errInvalidShape},
		{name: "18 not_larger of symbols", node: at(18, node("Resize", []string{"x", "", "", "z"}, []string{"y"}, attrInts("axes", 2, 3),
			attrString("keep_aspect_ratio_policy", "not_larger"))), inputs: x4,
			consts: map[string][]int64{"z": {7, 7}}, want: []string{"[N,C,?,?]"}},
		// onnxruntime's linear and cubic kernels need the outer scales to be 1: ISNet as imgly ships it
		// resizes to sizes baked at the export, [1,32,32,32], and refuses a batch of 2 at this node.
		{name: "13 linear sizes of the export's batch", node: at(13, node("Resize", []string{"x", "", "", "z"}, []string{"y"}, attrString("mode", "linear"))),
			inputs: map[string]string{"x": "[N,32,H,W]"}, consts: map[string][]int64{"z": {1, 32, 32, 32}}, want: []string{"[1,32,32,32]"},
			constraints: []string{"N == 1 (Resize_0 (Resize): onnxruntime's linear mode: the scales of axes 0 and 1 are 1, or of axes 0 and 3)"}},
		// onnxruntime 1.20.1 divides each size by its input dim: a scale of 0 ("Scale value should be
		// greater than 0") and a size of an empty axis are refused; 0 of an empty axis runs.
		{name: "13 sizes of half the height", pre: []graph.Node{node("Shape", []string{"x"}, []string{"s"}), node("Div", []string{"s", "d"}, []string{"z"})},
			node: at(13, node("Resize", []string{"x", "", "", "z"}, []string{"y"})), inputs: x4, consts: map[string][]int64{"d": {1, 1, 2, 1}},
			want: []string{"[N,C,H//2,W]"}, constraints: []string{"H >= 2 (Resize_0 (Resize): onnxruntime's Resize: output axis 2 is 0 exactly where the input's is)"}},
		{name: "13 size 0 of an axis not empty", node: at(13, node("Resize", []string{"x", "", "", "z"}, []string{"y"})), inputs: x4,
			consts: map[string][]int64{"z": {1, 3, 0, 8}}, wantErr: errInvalidShape},
		{name: "13 size 0 of an empty axis", node: at(13, node("Resize", []string{"x", "", "", "z"}, []string{"y"})),
			inputs: map[string]string{"x": "[N,C,0,W]"}, consts: map[string][]int64{"z": {1, 3, 0, 8}}, want: []string{"[1,3,0,8]"}},
		{name: "13 size 2 of an empty axis", node: at(13, node("Resize", []string{"x", "", "", "z"}, []string{"y"})),
			inputs: map[string]string{"x": "[N,C,0,W]"}, consts: map[string][]int64{"z": {1, 3, 2, 8}}, wantErr: errInvalidShape},
		{name: "13 linear sizes of the input's batch", node: at(13, node("Resize", []string{"x", "", "", "z"}, []string{"y"}, attrString("mode", "linear"))),
			inputs: map[string]string{"x": "[2,32,H,W]"}, consts: map[string][]int64{"z": {2, 32, 32, 32}}, want: []string{"[2,32,32,32]"}},
		{name: "13 linear scale of the batch", node: at(13, node("Resize", []string{"x", "", "s"}, []string{"y"}, attrString("mode", "linear"))), inputs: x4,
			tensors: map[string]*graph.Const{"s": floats(2, 1, 2, 2)}, wantErr: errInvalidShape},
		{name: "13 linear NHWC", node: at(13, node("Resize", []string{"x", "", "s"}, []string{"y"}, attrString("mode", "linear"))), inputs: x4,
			tensors: map[string]*graph.Const{"s": floats(1, 2, 2, 1)}, want: []string{"[N,2*C,2*H,W]"}},
		{name: "13 linear 1-D", node: at(13, node("Resize", []string{"x", "", "s"}, []string{"y"}, attrString("mode", "linear"))),
			inputs: map[string]string{"x": "[N]"}, tensors: map[string]*graph.Const{"s": floats(2)}, wantErr: errInvalidShape},
		{name: "13 cubic NHWC", node: at(13, node("Resize", []string{"x", "", "s"}, []string{"y"}, attrString("mode", "cubic"))), inputs: x4,
			tensors: map[string]*graph.Const{"s": floats(1, 2, 2, 1)}, wantErr: errInvalidShape},
		{name: "18 cubic NHWC antialias", node: at(18, node("Resize", []string{"x", "", "s"}, []string{"y"}, attrString("mode", "cubic"), attrInt("antialias", 1))),
			inputs: x4, tensors: map[string]*graph.Const{"s": floats(1, 2, 2, 1)}, want: []string{"[N,2*C,2*H,W]"}},
		{name: "13 nearest scale of the batch", node: at(13, node("Resize", []string{"x", "", "s"}, []string{"y"})), inputs: x4,
			tensors: map[string]*graph.Const{"s": floats(2, 1, 1, 1)}, want: []string{"[2*N,C,H,W]"}},
		{name: "upsample 7", node: at(7, node("Upsample", []string{"x"}, []string{"y"}, attrFloats("scales", 1, 1, 2, 3))), inputs: x4,
			want: []string{"[N,C,2*H,3*W]"}},
		{name: "upsample 9", node: at(9, node("Upsample", []string{"x", "s"}, []string{"y"})), inputs: map[string]string{"x": "[2,3,5,5]"},
			tensors: map[string]*graph.Const{"s": floats(1, 1, 1.5, 2)}, want: []string{"[2,3,7,10]"}},
		{name: "upsample below 1", node: at(9, node("Upsample", []string{"x", "s"}, []string{"y"})), inputs: x4,
			tensors: map[string]*graph.Const{"s": floats(1, 1, 0.5, 2)}, wantErr: errInvalidShape},
	})
}

func TestBlocks(t *testing.T) {
	checkNode(t, []nodeCase{
		{name: "depth to space", node: node("DepthToSpace", []string{"x"}, []string{"y"}, attrInt("blocksize", 2), attrString("mode", "CRD")),
			inputs: map[string]string{"x": "[N,C,H,W]"}, want: []string{"[N,C/4,2*H,2*W]"}},
		{name: "depth to space static", node: node("DepthToSpace", []string{"x"}, []string{"y"}, attrInt("blocksize", 3)),
			inputs: map[string]string{"x": "[N,18,H,W]"}, want: []string{"[N,2,3*H,3*W]"}},
		{name: "depth to space bad channels", node: node("DepthToSpace", []string{"x"}, []string{"y"}, attrInt("blocksize", 2)),
			inputs: map[string]string{"x": "[N,6,H,W]"}, wantErr: errInvalidShape},
		{name: "depth to space rank", node: node("DepthToSpace", []string{"x"}, []string{"y"}, attrInt("blocksize", 2)),
			inputs: map[string]string{"x": "[N,8,H]"}, wantErr: errInvalidShape},
		{name: "blocksize too large", node: node("DepthToSpace", []string{"x"}, []string{"y"}, attrInt("blocksize", 1<<32)),
			inputs: map[string]string{"x": "[N,8,H,W]"}, wantErr: errInvalidShape},
		{name: "no blocksize", node: node("DepthToSpace", []string{"x"}, []string{"y"}),
			inputs: map[string]string{"x": "[N,8,H,W]"}, wantErr: errcode.ErrSyntax},
		{name: "space to depth", node: node("SpaceToDepth", []string{"x"}, []string{"y"}, attrInt("blocksize", 2)),
			inputs: map[string]string{"x": "[N,C,H,W]"}, want: []string{"[N,4*C,H/2,W/2]"}},
		{name: "space to depth bad", node: node("SpaceToDepth", []string{"x"}, []string{"y"}, attrInt("blocksize", 2)),
			inputs: map[string]string{"x": "[N,3,5,4]"}, wantErr: errInvalidShape},
	})
}

func TestGatherScatter(t *testing.T) {
	i64 := map[string]element.Type{"i": element.I64}
	checkNode(t, []nodeCase{
		{name: "gather elements", node: node("GatherElements", []string{"x", "i"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[B,T,6]", "i": "[B,1,6]"}, types: i64, want: []string{"[B,1,6]"}},
		{name: "gather elements ranks", node: node("GatherElements", []string{"x", "i"}, []string{"y"}),
			inputs: map[string]string{"x": "[B,T,6]", "i": "[B,1]"}, types: i64, wantErr: errInvalidShape},
		{name: "gather elements axis", node: node("GatherElements", []string{"x", "i"}, []string{"y"}, attrInt("axis", 3)),
			inputs: map[string]string{"x": "[B,T,6]", "i": "[B,1,6]"}, types: i64, wantErr: errInvalidShape},
		// onnxruntime 1.20.1 checks at run time that the indices' dims but the axis's are at most
		// data's, and each index within the axis: [[2],[0]] along axis 1 of [A,B] runs at A=2, B=3
		// and is refused at A=1 and at B=2.
		{name: "gather elements of constant indices", node: node("GatherElements", []string{"x", "i"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[A,B]"}, tensors: map[string]*graph.Const{"i": ints([]int64{2, 1}, 2, 0)}, want: []string{"[2,1]"},
			constraints: []string{
				"A >= 2 (GatherElements_0 (GatherElements): indices' dim 0, at most data's)",
				"B >= 3 (GatherElements_0 (GatherElements): index 2 (element 0 of the indices) within axis 1)",
			}},
		{name: "gather elements of empty indices", node: node("GatherElements", []string{"x", "i"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[A,B]"}, tensors: map[string]*graph.Const{"i": ints([]int64{0, 1})}, want: []string{"[0,1]"},
			constraints: []string{}},
		{name: "gather elements of indices too long", node: node("GatherElements", []string{"x", "i"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[2,B]", "i": "[3,1]"}, types: i64, wantErr: errInvalidShape},
		{name: "scatter elements of constant indices", node: node("ScatterElements", []string{"x", "i", "u"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[A,B]", "u": "[2,1]"}, tensors: map[string]*graph.Const{"i": ints([]int64{2, 1}, 2, 0)}, want: []string{"[A,B]"},
			constraints: []string{
				"A >= 2 (ScatterElements_0 (ScatterElements): indices' dim 0, at most data's)",
				"B >= 3 (ScatterElements_0 (ScatterElements): index 2 (element 0 of the indices) within axis 1)",
			}},
		{name: "gather nd", node: node("GatherND", []string{"x", "i"}, []string{"y"}),
			inputs: map[string]string{"x": "[4,5,6]", "i": "[M,2]"}, types: i64, want: []string{"[M,6]"}},
		{name: "gather nd batch dims", node: node("GatherND", []string{"x", "i"}, []string{"y"}, attrInt("batch_dims", 1)),
			inputs: map[string]string{"x": "[B,T,6]", "i": "[A,5,1]"}, types: i64, want: []string{"[B,5,6]"}},
		{name: "gather nd full", node: node("GatherND", []string{"x", "i"}, []string{"y"}),
			inputs: map[string]string{"x": "[A,B]", "i": "[M,K,2]"}, types: i64, want: []string{"[M,K]"}},
		{name: "gather nd too deep", node: node("GatherND", []string{"x", "i"}, []string{"y"}),
			inputs: map[string]string{"x": "[A,B]", "i": "[M,3]"}, types: i64, wantErr: errInvalidShape},
		{name: "gather nd last dim unknown", node: node("GatherND", []string{"x", "i"}, []string{"y"}),
			inputs: map[string]string{"x": "[A,B]", "i": "[M,K]"}, types: i64, want: []string{"[...]"},
			constraints: []string{"K <= 2 (GatherND_0 (GatherND): indices' last dim, at most data's rank 2 less batch_dims 0)"}},
		// FuzzInferGraph: indices of last dim C for data of rank 3, refused at C=4 where no
		// constraint said so.
		{name: "gather nd last dim a symbol", node: node("GatherND", []string{"x", "i"}, []string{"y"}),
			inputs: map[string]string{"x": "[A,B,C]", "i": "[A,B,C]"}, types: i64, want: []string{"[...]"},
			constraints: []string{"C <= 3 (GatherND_0 (GatherND): indices' last dim, at most data's rank 3 less batch_dims 0)"}},
		{name: "gather nd last dim a symbol, batch dims", node: node("GatherND", []string{"x", "i"}, []string{"y"}, attrInt("batch_dims", 1)),
			inputs: map[string]string{"x": "[B,T,6]", "i": "[N,K]"}, types: i64, want: []string{"[...]"},
			constraints: []string{
				"B == N (GatherND_0 (GatherND): batch dim 0)",
				"K <= 2 (GatherND_0 (GatherND): indices' last dim, at most data's rank 3 less batch_dims 1)",
			}},
		{name: "gather nd last dim too large", node: node("GatherND", []string{"x", "i"}, []string{"y"}, attrInt("batch_dims", 1)),
			inputs: map[string]string{"x": "[B,T]", "i": "[B,3..5]"}, types: i64, wantErr: errInvalidShape},
		{name: "gather nd batch dims unify", node: node("GatherND", []string{"x", "i"}, []string{"y"}, attrInt("batch_dims", 1)),
			inputs: map[string]string{"x": "[3,T,6]", "i": "[4,K]"}, types: i64, wantErr: errInvalidShape},
		{name: "gather nd batch dims of data of unknown rank", node: node("GatherND", []string{"x", "i"}, []string{"y"}, attrInt("batch_dims", 2)),
			inputs: map[string]string{"x": "[...]", "i": "[M,2]"}, types: i64, wantErr: errInvalidShape},
		{name: "gather nd negative batch dims", node: node("GatherND", []string{"x", "i"}, []string{"y"}, attrInt("batch_dims", -1)),
			inputs: map[string]string{"x": "[...]", "i": "[...]"}, types: i64, wantErr: errInvalidShape},
		{name: "scatter elements", node: node("ScatterElements", []string{"x", "i", "u"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[N,C]", "i": "[N,K]", "u": "[M,3]"}, types: i64, want: []string{"[N,C]"}},
		{name: "scatter elements shapes", node: node("ScatterElements", []string{"x", "i", "u"}, []string{"y"}),
			inputs: map[string]string{"x": "[N,C]", "i": "[N,2]", "u": "[N,3]"}, types: i64, wantErr: errInvalidShape},
		{name: "scatter 9", node: at(9, node("Scatter", []string{"x", "i", "u"}, []string{"y"})),
			inputs: map[string]string{"x": "[N,C]", "i": "[1,2]", "u": "[1,2]"}, types: i64, want: []string{"[N,C]"}},
		{name: "scatter nd", node: node("ScatterND", []string{"x", "i", "u"}, []string{"y"}),
			inputs: map[string]string{"x": "[N,C,4]", "i": "[K,2]", "u": "[K,4]"}, types: i64, want: []string{"[N,C,4]"}},
		{name: "scatter nd updates", node: node("ScatterND", []string{"x", "i", "u"}, []string{"y"}),
			inputs: map[string]string{"x": "[N,C,4]", "i": "[K,2]", "u": "[K,5]"}, types: i64, wantErr: errInvalidShape},
		// FuzzInferGraph: indices of last dim C for data of rank 1, refused at C=6 where no
		// constraint said so.
		{name: "scatter nd last dim a symbol", node: node("ScatterND", []string{"x", "i", "u"}, []string{"y"}),
			inputs: map[string]string{"x": "[N]", "i": "[C]", "u": "[...]"}, types: i64, want: []string{"[N]"},
			constraints: []string{"C == 1 (ScatterND_0 (ScatterND): indices' last dim, at most data's rank 1)"}},
		{name: "scatter nd last dim a symbol, rank 2", node: node("ScatterND", []string{"x", "i", "u"}, []string{"y"}),
			inputs: map[string]string{"x": "[N,4]", "i": "[M,C]", "u": "[...]"}, types: i64, want: []string{"[N,4]"},
			constraints: []string{"C <= 2 (ScatterND_0 (ScatterND): indices' last dim, at most data's rank 2)"}},
		{name: "scatter nd last dim from the updates' rank", node: node("ScatterND", []string{"x", "i", "u"}, []string{"y"}),
			inputs: map[string]string{"x": "[N,C,4]", "i": "[M,K]", "u": "[M,4]"}, types: i64, want: []string{"[N,C,4]"},
			constraints: []string{"K == 2 (ScatterND_0 (ScatterND): indices' last dim, as updates of rank 2 give it)"}},
		{name: "scatter nd updates' rank too large", node: node("ScatterND", []string{"x", "i", "u"}, []string{"y"}),
			inputs: map[string]string{"x": "[N,C,4]", "i": "[M,K]", "u": "[M,N,C,4]"}, types: i64, wantErr: errInvalidShape},
		{name: "scatter nd scalar indices", node: node("ScatterND", []string{"x", "i", "u"}, []string{"y"}),
			inputs: map[string]string{"x": "[N,C,4]", "i": "[]", "u": "[N,C,4]"}, types: i64, wantErr: errInvalidShape},
	})
}

func TestCropCol2Im(t *testing.T) {
	checkNode(t, []nodeCase{
		{name: "center crop pad", node: at(18, node("CenterCropPad", []string{"x", "s"}, []string{"y"}, attrInts("axes", 2, -1))),
			inputs: map[string]string{"x": "[N,C,H,W]"}, consts: map[string][]int64{"s": {5, 6}}, want: []string{"[N,C,5,6]"}},
		{name: "center crop pad every axis", node: at(18, node("CenterCropPad", []string{"x", "s"}, []string{"y"})),
			inputs: map[string]string{"x": "[H,W,3]"}, consts: map[string][]int64{"s": {5, 6, 3}}, want: []string{"[5,6,3]"}},
		{name: "center crop pad length", node: at(18, node("CenterCropPad", []string{"x", "s"}, []string{"y"})),
			inputs: map[string]string{"x": "[H,W,3]"}, consts: map[string][]int64{"s": {5, 6}}, wantErr: errInvalidShape},
		{name: "col2im", node: at(18, node("Col2Im", []string{"x", "i", "b"}, []string{"y"})),
			inputs: map[string]string{"x": "[N,12,L]"}, consts: map[string][]int64{"i": {5, 5}, "b": {2, 2}}, want: []string{"[N,3,5,5]"}},
		{name: "col2im symbolic", node: at(18, node("Col2Im", []string{"x", "i", "b"}, []string{"y"})),
			inputs: map[string]string{"x": "[N,K,L]"}, consts: map[string][]int64{"i": {5, 7, 9}, "b": {1, 2, 3}}, want: []string{"[N,K/6,5,7,9]"},
			constraints: []string{"K % 6 == 0 (Col2Im_0 (Col2Im): dim 1 a multiple of the block volume 6)"}},
		{name: "col2im block volume in the symbols", node: at(18, node("Col2Im", []string{"x", "i", "b"}, []string{"y"})),
			pre:    []graph.Node{node("Shape", []string{"k"}, []string{"b"})},
			inputs: map[string]string{"x": "[N,C,L]", "k": "[K,K]"}, consts: map[string][]int64{"i": {5, 5}}, want: []string{"[N,C/(K*K),5,5]"},
			constraints: []string{"C % (K*K) == 0 (Col2Im_0 (Col2Im): dim 1 a multiple of the block volume K*K)"}},
		{name: "col2im negative block", node: at(18, node("Col2Im", []string{"x", "i", "b"}, []string{"y"})),
			inputs: map[string]string{"x": "[N,4,L]"}, consts: map[string][]int64{"i": {5, 5}, "b": {-2, -2}}, wantErr: errInvalidShape},
		{name: "col2im bad channels", node: at(18, node("Col2Im", []string{"x", "i", "b"}, []string{"y"})),
			inputs: map[string]string{"x": "[N,10,L]"}, consts: map[string][]int64{"i": {5, 5}, "b": {2, 2}}, wantErr: errInvalidShape},
	})
}
