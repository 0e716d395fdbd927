package graph_test

import (
	"path/filepath"
	"testing"

	"github.com/reshape-go/reshape/graph"
)

// TestConstraintClasses checks the conditions each class of rule records, with its node and why,
// through graph.Infer of one node: what the node needs of the symbols for the model to run.
func TestConstraintClasses(t *testing.T) {
	r := func(name, x string, p []int64, want string, cs ...string) nodeCase {
		return nodeCase{name: name, node: node("Reshape", []string{"x", "p"}, []string{"y"}), inputs: map[string]string{"x": x},
			consts: map[string][]int64{"p": p}, want: []string{want}, constraints: cs}
	}
	conv := func(name, x string, want string, cs []string, attrs ...graph.Attr) nodeCase {
		return nodeCase{name: name, node: nodeV("Conv", 11, []string{"x", "w"}, []string{"y"}, attrs...),
			inputs: map[string]string{"x": x, "w": "[4,1,3,3]"}, want: []string{want}, constraints: cs}
	}
	pool := func(name, op, x string, want string, cs []string, attrs ...graph.Attr) nodeCase {
		return nodeCase{name: name, node: nodeV(op, 12, []string{"x"}, []string{"y"}, attrs...),
			inputs: map[string]string{"x": x}, want: []string{want}, constraints: cs}
	}
	add := func(name, a, b, want string, cs ...string) nodeCase {
		return nodeCase{name: name, node: node("Add", []string{"a", "b"}, []string{"y"}), inputs: map[string]string{"a": a, "b": b},
			want: []string{want}, constraints: cs}
	}
	one := func(name string, n graph.Node, x, want string, cs ...string) nodeCase {
		return nodeCase{name: name, node: n, inputs: map[string]string{"x": x}, want: []string{want}, constraints: cs}
	}
	checkNode(t, []nodeCase{
		// Divisibility: blocks, equal parts.
		one("depth to space", node("DepthToSpace", []string{"x"}, []string{"y"}, attrInt("blocksize", 2)), "[N,C,H,W]", "[N,C/4,2*H,2*W]",
			"C % 4 == 0 (DepthToSpace_0 (DepthToSpace): the channels a multiple of blocksize² = 4)"),
		one("space to depth", node("SpaceToDepth", []string{"x"}, []string{"y"}, attrInt("blocksize", 2)), "[N,C,H,8]", "[N,4*C,H/2,4]",
			"H % 2 == 0 (SpaceToDepth_0 (SpaceToDepth): dim 2 a multiple of blocksize 2)"),
		one("split equally", node("Split", []string{"x"}, []string{"y", "z"}, attrInt("axis", 1)), "[N,T]", "[N,T/2]",
			"T % 2 == 0 (Split_0 (Split): axis 1 split into 2 equal parts)"),
		one("split into num_outputs", nodeV("Split", 18, []string{"x"}, []string{"y", "z"}, attrInt("num_outputs", 2)), "[T]", "[(T+1)//2]",
			"T >= 2 (Split_0 (Split): axis 0 of size T split into 2 parts of (T+1)//2 and a last one of at least 1)"),
		// Upper bounds: TopK's k.
		{name: "topk", node: node("TopK", []string{"x", "k"}, []string{"v", "i"}, attrInt("axis", -1)), inputs: map[string]string{"x": "[N,W]"},
			consts: map[string][]int64{"k": {3}}, want: []string{"[N,3]"},
			constraints: []string{"W >= 3 (TopK_0 (TopK): k no greater than axis 1)"}},
		// Lower bounds: negative pads crop.
		{name: "pad crop", node: node("Pad", []string{"x", "p"}, []string{"y"}), inputs: map[string]string{"x": "[N,H]"},
			consts: map[string][]int64{"p": {0, -1, 0, -2}}, want: []string{"[N,H-3]"},
			constraints: []string{"H >= 3 (Pad_0 (Pad): axis 1 of size H padded by -1 and -2 not negative)"}},
		// Broadcasting: two dims either of which may be 1 are equal or one of them is 1, and the
		// result is the other, or max(A,B).
		add("broadcast of two symbols", "[A,3]", "[B,3]", "[max(A,B),3]",
			"A == 1 || A == B || B == 1 (Add_0 (Add): input 1 dim 0 broadcast at output axis 0)"),
		add("broadcast with a constant", "[N,T,8]", "[1,17,8]", "[N,17,8]",
			"T in {1, 17} (Add_0 (Add): input 1 dim 1 broadcast at output axis 1)"),
		// Reshape: equal volumes, or an exact quotient for the -1.
		r("reshape volume", "[N,3,4]", []int64{1, 12}, "[1,12]", "N == 1 (Reshape_0 (Reshape): the volume: [N,3,4] to [1,12])"),
		r("reshape of a constant volume", "[N,8,5,7]", []int64{1, 2, 4, 35}, "[1,2,4,35]",
			"N == 1 (Reshape_0 (Reshape): the volume: [N,8,5,7] to [1,2,4,35])"),
		r("reshape -1", "[B,T]", []int64{0, -1, 4}, "[B,T/4,4]",
			"T % 4 == 0 (Reshape_0 (Reshape): the -1 of pattern[1]: the input's volume a multiple of the other output dims)"),
		r("reshape -1 of a product", "[B,T,3]", []int64{-1, 2}, "[3*B*T/2,2]",
			"B*T % 2 == 0 (Reshape_0 (Reshape): the -1 of pattern[0]: the input's volume a multiple of the other output dims)"),
		r("reshape exact", "[N,3,224,224]", []int64{0, -1}, "[N,150528]"),
		{name: "reshape never", node: node("Reshape", []string{"x", "p"}, []string{"y"}), inputs: map[string]string{"x": "[N,2]"},
			consts: map[string][]int64{"p": {3}}, wantErr: errInvalidShape},
		// Windows: at least one output element for a convolution; a pooling output may be empty,
		// never negative, and its input has no empty dim but N.
		conv("conv window", "[N,1,H,W]", "[N,4,H-2,W-2]", []string{
			"H >= 3 (Conv_0 (Conv): spatial axis 0 (axis 2): the output size H-2 of input size H at least 1)",
			"W >= 3 (Conv_0 (Conv): spatial axis 1 (axis 3): the output size W-2 of input size W at least 1)"}),
		conv("conv strided", "[N,1,T,5]", "[N,4,(T+1)//2-1,5]", []string{
			"T >= 3 (Conv_0 (Conv): spatial axis 0 (axis 2): the output size (T+1)//2-1 of input size T at least 1)"},
			attrInts("strides", 2, 1), attrInts("pads", 0, 1, 0, 1)),
		conv("conv padded", "[N,1,H,W]", "[N,4,H,W]", []string{}, attrInts("pads", 1, 1, 1, 1)),
		pool("maxpool may be empty", "MaxPool", "[N,C,H,W]", "[N,C,H-2,(W+1)//2-1]", []string{
			"H >= 2 (MaxPool_0 (MaxPool): spatial axis 0 (axis 2): the output size of input size H not negative)"},
			attrInts("kernel_shape", 3, 3), attrInts("strides", 1, 2)),
		// onnxruntime 1.20.1 at L = 1..8: an error at 1, [1,1,0] from 2 to 6, [1,1,1] at 7 and 8; in
		// ceil_mode an error at 1, 0 from 2 to 4, 1 from 5 to 7 and 2 at 8.
		pool("maxpool ceil_mode", "MaxPool", "[N,C,L]", "[N,C,(L+1)//3-1]", []string{
			"L >= 2 (MaxPool_0 (MaxPool): spatial axis 0 (axis 2): the output size of input size L not negative)"},
			attrInts("kernel_shape", 7), attrInts("strides", 3), attrInt("ceil_mode", 1)),
		pool("maxpool truncates toward 0", "MaxPool", "[N,C,L]", "[N,C,max(0,(L+2)//3-2)]", []string{
			"L >= 2 (MaxPool_0 (MaxPool): spatial axis 0 (axis 2): the output size of input size L not negative)"},
			attrInts("kernel_shape", 7), attrInts("strides", 3)),
	})
}

// TestComputedPads infers testdata/models/unet_pad.onnx (bench/grid/gen_torch.py): a UNet step
// that pads its upsampled map back to the skip's size with pads computed from both shapes,
// F.pad(u, [dx // 2, dx - dx // 2, ...]) for dx = W - 2*((W+1)//2), 0 or -1. The output is
// [N,8,H,W] at every binding (onnxruntime 1.20.1 at 1x1, 8x7, 9x11, 16x5:
// testdata/grid/unet_pad.json), the padded map [N,4,H,W] (it was [N,4,?,?]: the sign of dx, and
// so its truncated half, was not known), and nothing is required of the symbols.
func TestComputedPads(t *testing.T) {
	g := loadONNX(t, filepath.Join("..", "testdata", "models", "unet_pad.onnx"))
	for _, dims := range []map[string]int64{nil, {"N": 2, "H": 8, "W": 7}} {
		res, err := graph.Infer(g, graph.Options{Dims: dims})
		if err != nil {
			t.Fatal(err)
		}
		want := "[N,8,H,W] [N,4,H,W]"
		if dims != nil {
			want = "[2,8,8,7] [2,4,8,7]"
		}
		got := res.Tensor("y").Shape.String() + " " + res.Tensor("/Pad_output_0").Shape.String()
		if got != want || len(res.Constraints()) > 0 {
			t.Errorf("at %v: y and the padded map = %s, constraints %v; want %s and none", dims, got, res.Constraints(), want)
		}
	}
}
