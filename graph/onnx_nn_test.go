package graph_test

import (
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
)

// nodeV returns a node bound to opset version v.
func nodeV(op string, v int64, inputs, outputs []string, attrs ...graph.Attr) graph.Node {
	n := node(op, inputs, outputs, attrs...)
	n.Version = v
	return n
}

func shapes1(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

var (
	errSyntax = errcode.ErrSyntax

	xw  = []string{"x", "w"}
	xwb = []string{"x", "w", "b"}
	y   = []string{"y"}
)

// The static cases were checked against onnxruntime 1.20.1 (bench/truth's runner on one-node
// models); those with symbols agree with it at every binding of testdata/truth/ops_conv.*.
func TestConvRules(t *testing.T) {
	checkNode(t, []nodeCase{
		{name: "stride 2 pad 1", node: nodeV("Conv", 11, xwb, y, attrInts("pads", 1, 1, 1, 1), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[N,3,H,W]", "w", "[8,3,3,3]", "b", "[8]"), want: []string{"[N,8,(H+1)//2,(W+1)//2]"}},
		{name: "static", node: nodeV("Conv", 11, xw, y, attrInts("pads", 1, 1, 1, 1), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[2,3,9,7]", "w", "[4,3,3,3]"), want: []string{"[2,4,5,4]"}},
		{name: "dilations group asymmetric pads", node: nodeV("Conv", 11, xw, y, attrInts("dilations", 2, 1), attrInt("group", 3), attrInts("pads", 2, 0, 2, 1)),
			inputs: shapes1("x", "[N,3,H,W]", "w", "[6,1,3,3]"), want: []string{"[N,6,H,W-1]"}},
		{name: "SAME_UPPER", node: nodeV("Conv", 11, xw, y, attrString("auto_pad", "SAME_UPPER"), attrInts("strides", 2, 3)),
			inputs: shapes1("x", "[N,3,H,W]", "w", "[4,3,3,2]"), want: []string{"[N,4,(H+1)//2,(W+2)//3]"}},
		{name: "SAME_LOWER static", node: nodeV("Conv", 1, xw, y, attrString("auto_pad", "SAME_LOWER"), attrInts("strides", 2, 3)),
			inputs: shapes1("x", "[1,1,4,5]", "w", "[2,1,3,3]"), want: []string{"[1,2,2,2]"}},
		{name: "VALID", node: nodeV("Conv", 11, xw, y, attrString("auto_pad", "VALID"), attrInts("strides", 1, 2)),
			inputs: shapes1("x", "[N,3,H,W]", "w", "[2,3,2,2]"), want: []string{"[N,2,H-1,W//2]"}},
		{name: "1-D", node: nodeV("Conv", 22, xw, y), inputs: shapes1("x", "[N,4,L]", "w", "[8,4,5]"), want: []string{"[N,8,L-4]"}},
		{name: "3-D", node: nodeV("Conv", 11, xw, y, attrInts("strides", 2, 2, 2), attrInts("pads", 1, 1, 1, 1, 1, 1)),
			inputs: shapes1("x", "[1,2,5,6,7]", "w", "[3,2,3,3,3]"), want: []string{"[1,3,3,3,4]"}},
		{name: "kernel_shape", node: nodeV("Conv", 11, xw, y, attrInts("kernel_shape", 3, 3)),
			inputs: shapes1("x", "[N,3,H,W]", "w", "[8,3,?,?]"), want: []string{"[N,8,H-2,W-2]"}},
		{name: "channels unify", node: nodeV("Conv", 11, xw, y),
			inputs: shapes1("x", "[N,C,H,W]", "w", "[M,3,1,1]"), want: []string{"[N,M,H,W]"}},
		{name: "kernel unified with the channels", node: nodeV("Conv", 11, xw, y),
			inputs: shapes1("x", "[N,4,H]", "w", "[2,K,K]"), want: []string{"[N,2,H-3]"}},
		{name: "kernel that may be empty", node: nodeV("Conv", 11, xw, y),
			pre:    []graph.Node{node("Pad", []string{"k", "p"}, []string{"w"})},
			inputs: shapes1("x", "[N,3,H]", "k", "[8,3,K]"), consts: map[string][]int64{"p": {0, 0, 0, 0, 0, -2}}, want: []string{"[N,8,-K+H+3]"},
			constraints: []string{"K >= 3 (Conv_0 (Conv): kernel size along spatial axis 0)",
				"H >= K-2 (Conv_0 (Conv): spatial axis 0 (axis 2): the output size -K+H+3 of input size H at least 1)"}},
		{name: "kernel unified with the channels too large", node: nodeV("Conv", 11, xw, y),
			inputs: shapes1("x", "[9,4,1]", "w", "[9,K,K]"), wantErr: errInvalidShape},
		{name: "dynamic rank", node: nodeV("Conv", 11, xw, y, attrInts("strides", 2)),
			inputs: shapes1("x", "[...]", "w", "[8,3,3]"), want: []string{"[?,8,1..]"}},
		{name: "bias mismatch", node: nodeV("Conv", 11, xwb, y),
			inputs: shapes1("x", "[1,3,5,5]", "w", "[8,3,3,3]", "b", "[7]"), wantErr: errInvalidShape},
		{name: "channels mismatch", node: nodeV("Conv", 11, xw, y),
			inputs: shapes1("x", "[1,4,5,5]", "w", "[8,3,3,3]"), wantErr: errInvalidShape},
		{name: "group does not divide M", node: nodeV("Conv", 11, xw, y, attrInt("group", 2)),
			inputs: shapes1("x", "[1,2,5,5]", "w", "[5,1,3,3]"), wantErr: errInvalidShape},
		{name: "input smaller than kernel", node: nodeV("Conv", 11, xw, y),
			inputs: shapes1("x", "[1,1,2,5]", "w", "[2,1,3,3]"), wantErr: errInvalidShape},
		{name: "kernel_shape mismatch", node: nodeV("Conv", 11, xw, y, attrInts("kernel_shape", 2, 2)),
			inputs: shapes1("x", "[1,1,4,5]", "w", "[2,1,3,3]"), wantErr: errInvalidShape},
		{name: "auto_pad and pads", node: nodeV("Conv", 11, xw, y, attrString("auto_pad", "VALID"), attrInts("pads", 0, 0, 0, 0)),
			inputs: shapes1("x", "[1,1,4,5]", "w", "[2,1,3,3]"), wantErr: errSyntax},
		{name: "bad auto_pad", node: nodeV("Conv", 11, xw, y, attrString("auto_pad", "SAME")),
			inputs: shapes1("x", "[1,1,4,5]", "w", "[2,1,3,3]"), wantErr: errSyntax},
		{name: "strides length", node: nodeV("Conv", 11, xw, y, attrInts("strides", 2)),
			inputs: shapes1("x", "[1,1,4,5]", "w", "[2,1,3,3]"), wantErr: errInvalidShape},
		{name: "rank 2", node: nodeV("Conv", 11, xw, y), inputs: shapes1("x", "[1,5]", "w", "[2,5]"), wantErr: errInvalidShape},
		{name: "ConvInteger", node: nodeV("ConvInteger", 10, []string{"x", "w", "xz"}, y, attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[N,3,H,W]", "w", "[8,3,3,3]", "xz", "[]"), want: []string{"[N,8,(H+1)//2-1,(W+1)//2-1]"}},
		{name: "QLinearConv", node: nodeV("QLinearConv", 10, []string{"x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"}, y, attrInts("pads", 1, 1, 1, 1)),
			inputs: shapes1("x", "[N,3,H,W]", "xs", "[]", "xz", "[]", "w", "[8,3,3,3]", "ws", "[8]", "wz", "[8]", "ys", "[]", "yz", "[]", "b", "[8]"),
			want:   []string{"[N,8,H,W]"}},
	})
}

func TestConvTransposeRules(t *testing.T) {
	checkNode(t, []nodeCase{
		{name: "output_padding", node: nodeV("ConvTranspose", 11, xw, y, attrInts("output_padding", 1, 0), attrInts("pads", 1, 1, 1, 1), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[N,3,H,W]", "w", "[3,2,3,3]"), want: []string{"[N,2,2*H,2*W-1]"}},
		{name: "dilations group", node: nodeV("ConvTranspose", 11, xw, y, attrInts("dilations", 2, 2), attrInt("group", 3), attrInts("strides", 1, 3)),
			inputs: shapes1("x", "[N,3,H,W]", "w", "[3,1,3,2]"), want: []string{"[N,3,H+4,3*W]"}},
		{name: "SAME_UPPER", node: nodeV("ConvTranspose", 11, xwb, y, attrString("auto_pad", "SAME_UPPER"), attrInts("strides", 2, 2), attrInts("output_padding", 1, 1)),
			inputs: shapes1("x", "[N,3,H,W]", "w", "[3,2,4,4]", "b", "[2]"), want: []string{"[N,2,2*H,2*W]"}},
		{name: "SAME_LOWER kernel shorter than stride", node: nodeV("ConvTranspose", 11, xw, y, attrString("auto_pad", "SAME_LOWER"), attrInts("strides", 2, 3)),
			inputs: shapes1("x", "[N,2,H,3]", "w", "[2,3,1,1]"), want: []string{"[N,3,2*H-1,7]"}},
		{name: "VALID", node: nodeV("ConvTranspose", 1, xw, y, attrString("auto_pad", "VALID"), attrInts("strides", 2, 2), attrInts("output_padding", 1, 1)),
			inputs: shapes1("x", "[1,1,5,4]", "w", "[1,2,3,3]"), want: []string{"[1,2,12,10]"}},
		{name: "output_shape", node: nodeV("ConvTranspose", 11, xw, y, attrInts("output_shape", 12, 9), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[N,1,H,W]", "w", "[1,2,3,3]"), want: []string{"[N,2,12,9]"}},
		{name: "output_shape with N and C", node: nodeV("ConvTranspose", 22, xw, y, attrInts("output_shape", 1, 2, 12, 9), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[1,1,5,4]", "w", "[1,2,3,3]"), want: []string{"[1,2,12,9]"}},
		{name: "output_shape length", node: nodeV("ConvTranspose", 11, xw, y, attrInts("output_shape", 12, 9, 1)),
			inputs: shapes1("x", "[1,1,5,4]", "w", "[1,2,3,3]"), wantErr: errInvalidShape},
		{name: "negative size", node: nodeV("ConvTranspose", 11, xw, y, attrInts("pads", 3, 3, 3, 3)),
			inputs: shapes1("x", "[1,1,2,2]", "w", "[1,2,3,3]"), wantErr: errInvalidShape},
		{name: "channels mismatch", node: nodeV("ConvTranspose", 11, xw, y),
			inputs: shapes1("x", "[1,2,2,2]", "w", "[1,2,3,3]"), wantErr: errInvalidShape},
	})
}

func TestPoolRules(t *testing.T) {
	x, two := []string{"x"}, []string{"y", "i"}
	k := func(v ...int64) graph.Attr { return attrInts("kernel_shape", v...) }
	checkNode(t, []nodeCase{
		{name: "MaxPool ceil", node: nodeV("MaxPool", 12, x, y, attrInt("ceil_mode", 1), k(3, 3), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[N,3,H,W]"), want: []string{"[N,3,H//2,W//2]"}},
		{name: "MaxPool ceil dilations", node: nodeV("MaxPool", 10, x, y, attrInt("ceil_mode", 1), attrInts("dilations", 2, 2), k(2, 2), attrInts("strides", 2, 1)),
			inputs: shapes1("x", "[N,3,H,W]"), want: []string{"[N,3,H//2,W-2]"}},
		{name: "MaxPool indices", node: nodeV("MaxPool", 8, x, two, k(2, 2), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[N,3,H,W]"), want: []string{"[N,3,H//2,W//2]", "[N,3,H//2,W//2]"}},
		{name: "MaxPool SAME_LOWER", node: nodeV("MaxPool", 12, x, y, attrString("auto_pad", "SAME_LOWER"), k(3, 2), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[N,3,H,W]"), want: []string{"[N,3,(H+1)//2,(W+1)//2]"}},
		{name: "MaxPool VALID ceil", node: nodeV("MaxPool", 12, x, y, attrString("auto_pad", "VALID"), attrInt("ceil_mode", 1), k(3), attrInts("strides", 2)),
			inputs: shapes1("x", "[1,1,6]"), want: []string{"[1,1,3]"}},
		{name: "MaxPool-8 has no ceil_mode", node: nodeV("MaxPool", 8, x, y, attrInt("ceil_mode", 1), k(3), attrInts("strides", 2)),
			inputs: shapes1("x", "[1,1,6]"), wantErr: errSyntax},
		{name: "MaxPool-8", node: nodeV("MaxPool", 8, x, y, k(3), attrInts("strides", 2)),
			inputs: shapes1("x", "[1,1,6]"), want: []string{"[1,1,2]"}},
		{name: "MaxPool-10 ceil", node: nodeV("MaxPool", 10, x, y, attrInt("ceil_mode", 1), k(3), attrInts("strides", 2)),
			inputs: shapes1("x", "[1,1,6]"), want: []string{"[1,1,3]"}},
		// ONNX drops a last window that starts in the end padding (3), onnxruntime 1.20 keeps it (4).
		{name: "MaxPool ceil last window static", node: nodeV("MaxPool", 12, x, y, attrInt("ceil_mode", 1), k(2), attrInts("strides", 2), attrInts("pads", 1, 1)),
			inputs: shapes1("x", "[1,1,5]"), want: []string{"[1,1,3..4]"}},
		{name: "MaxPool ceil last window agrees", node: nodeV("MaxPool", 12, x, y, attrInt("ceil_mode", 1), k(2), attrInts("strides", 2), attrInts("pads", 1, 1)),
			inputs: shapes1("x", "[1,1,6]"), want: []string{"[1,1,4]"}},
		{name: "MaxPool ceil last window symbolic", node: nodeV("MaxPool", 12, x, y, attrInt("ceil_mode", 1), k(1), attrInts("strides", 2)),
			inputs: shapes1("x", "[N,1,L]"), want: []string{"[N,1,1..]"}},
		{name: "MaxPool SAME dilated", node: nodeV("MaxPool", 12, x, y, attrString("auto_pad", "SAME_UPPER"), attrInts("dilations", 3), k(3)),
			inputs: shapes1("x", "[1,1,6]"), want: []string{"[1,1,2..6]"}},
		{name: "MaxPool size 0", node: nodeV("MaxPool", 9, x, y, k(2, 2), attrInts("strides", 2, 2), attrInts("pads", 0, 0, 0, 0)),
			inputs: shapes1("x", "[2,200,1,96]"), want: []string{"[2,200,0,48]"}},
		{name: "MaxPool size 0 truncated", node: nodeV("MaxPool", 9, x, y, k(4), attrInts("strides", 2)),
			inputs: shapes1("x", "[2,200,1]"), want: []string{"[2,200,0]"}},
		{name: "MaxPool size 0 truncated symbolic", node: nodeV("MaxPool", 9, x, y, k(4), attrInts("strides", 2)),
			inputs: shapes1("x", "[2,200,L]"), want: []string{"[2,200,max(0,L//2-1)]"}},
		{name: "MaxPool negative size", node: nodeV("MaxPool", 9, x, y, k(4), attrInts("strides", 1)),
			inputs: shapes1("x", "[2,200,2]"), wantErr: errInvalidShape},
		{name: "MaxPool empty input", node: nodeV("MaxPool", 9, x, y, k(1)),
			inputs: shapes1("x", "[2,0,2]"), wantErr: errInvalidShape},
		{name: "MaxPool below 1 symbolic", node: nodeV("MaxPool", 9, x, y, k(2, 2), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[N,200,H,96]"), want: []string{"[N,200,H//2,48]"}},
		{name: "MaxPool-1 one output", node: nodeV("MaxPool", 1, x, two, k(2)), inputs: shapes1("x", "[1,1,6]"), wantErr: errSyntax},
		{name: "MaxPool no kernel", node: nodeV("MaxPool", 12, x, y), inputs: shapes1("x", "[1,1,6]"), wantErr: errSyntax},
		{name: "MaxPool rank", node: nodeV("MaxPool", 12, x, y, k(2, 2)), inputs: shapes1("x", "[1,1,6]"), wantErr: errInvalidShape},
		{name: "MaxPool negative pads", node: nodeV("MaxPool", 12, x, y, k(2), attrInts("pads", -1, 0)), inputs: shapes1("x", "[1,1,6]"), wantErr: errInvalidShape},
		{name: "AveragePool ceil pads", node: nodeV("AveragePool", 11, x, y, attrInt("ceil_mode", 1), attrInt("count_include_pad", 0), k(3, 3), attrInts("pads", 1, 1, 1, 1), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[N,3,H,W]"), want: []string{"[N,3,H//2+1,W//2+1]"}},
		{name: "AveragePool", node: nodeV("AveragePool", 7, x, y, attrInt("count_include_pad", 1), k(2, 3), attrInts("pads", 0, 1, 0, 1), attrInts("strides", 3, 2)),
			inputs: shapes1("x", "[N,3,H,W]"), want: []string{"[N,3,(H+1)//3,(W+1)//2]"}},
		{name: "AveragePool-11 has no dilations", node: nodeV("AveragePool", 11, x, y, attrInts("dilations", 2), k(2)),
			inputs: shapes1("x", "[1,1,6]"), wantErr: errSyntax},
		{name: "AveragePool-19 dilations", node: nodeV("AveragePool", 19, x, y, attrInts("dilations", 2), k(2)),
			inputs: shapes1("x", "[1,1,6]"), want: []string{"[1,1,4]"}},
		{name: "LpPool", node: nodeV("LpPool", 11, x, y, attrInt("p", 2), k(2, 2), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[N,3,H,W]"), want: []string{"[N,3,H//2,W//2]"}},
		{name: "LpPool-18 ceil", node: nodeV("LpPool", 18, x, y, attrInt("ceil_mode", 1), k(2), attrInts("strides", 2)),
			inputs: shapes1("x", "[N,3,L]"), want: []string{"[N,3,(L+1)//2]"}},
		{name: "GlobalAveragePool", node: nodeV("GlobalAveragePool", 1, x, y), inputs: shapes1("x", "[N,C,H,W]"), want: []string{"[N,C,1,1]"}},
		{name: "GlobalMaxPool 1-D", node: nodeV("GlobalMaxPool", 22, x, y), inputs: shapes1("x", "[N,C,L]"), want: []string{"[N,C,1]"}},
		{name: "GlobalLpPool 3-D", node: nodeV("GlobalLpPool", 2, x, y), inputs: shapes1("x", "[2,3,4,5,6]"), want: []string{"[2,3,1,1,1]"}},
		{name: "GlobalAveragePool empty", node: nodeV("GlobalAveragePool", 1, x, y), inputs: shapes1("x", "[2,200,0,48]"), wantErr: errInvalidShape},
		{name: "GlobalAveragePool rank 2", node: nodeV("GlobalAveragePool", 1, x, y), inputs: shapes1("x", "[1,5]"), wantErr: errInvalidShape},
		{name: "MaxUnpool", node: nodeV("MaxUnpool", 11, []string{"x", "i"}, y, k(2, 2), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[N,C,H,W]", "i", "[N,C,H,W]"), want: []string{"[N,C,2*H,2*W]"}},
		{name: "MaxUnpool pads", node: nodeV("MaxUnpool", 9, []string{"x", "i"}, y, k(3), attrInts("strides", 2), attrInts("pads", 1, 0)),
			inputs: shapes1("x", "[1,2,4]", "i", "[1,2,4]"), want: []string{"[1,2,8]"}},
		{name: "MaxUnpool empty", node: nodeV("MaxUnpool", 11, []string{"x", "i"}, y, k(2), attrInts("strides", 2)),
			inputs: shapes1("x", "[1,1,0]", "i", "[1,1,0]"), want: []string{"[1,1,0]"}},
		{name: "MaxUnpool empty to negative", node: nodeV("MaxUnpool", 11, []string{"x", "i"}, y, k(3), attrInts("strides", 4)),
			inputs: shapes1("x", "[1,1,0]", "i", "[1,1,0]"), wantErr: errInvalidShape},
		{name: "MaxUnpool output_shape", node: nodeV("MaxUnpool", 11, []string{"x", "i", "s"}, y, k(2, 2), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[1,3,5,5]", "i", "[1,3,5,5]"), consts: map[string][]int64{"s": {1, 3, 11, 10}}, want: []string{"[1,3,11,10]"}},
		{name: "MaxUnpool indices mismatch", node: nodeV("MaxUnpool", 11, []string{"x", "i"}, y, k(2, 2)),
			inputs: shapes1("x", "[1,3,5,5]", "i", "[1,3,5,4]"), wantErr: errInvalidShape},
	})
}

func TestConvPoolTypes(t *testing.T) {
	checkTypes(t, []typeCase{
		{nodeCase{node: nodeV("ConvInteger", 10, xw, y), inputs: shapes1("x", "[1,1,3,3]", "w", "[1,1,2,2]"),
			types: map[string]element.Type{"x": element.U8, "w": element.U8}}, []element.Type{element.I32}},
		{nodeCase{node: nodeV("QLinearConv", 10, []string{"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"}, y),
			inputs: shapes1("x", "[1,1,3,3]", "xs", "[]", "xz", "[]", "w", "[1,1,2,2]", "ws", "[]", "wz", "[]", "ys", "[]", "yz", "[]"),
			types:  map[string]element.Type{"x": element.U8, "xz": element.U8, "w": element.I8, "wz": element.I8, "yz": element.I8}},
			[]element.Type{element.I8}},
		{nodeCase{node: nodeV("MaxPool", 12, []string{"x"}, []string{"y", "i"}, attrInts("kernel_shape", 2)), inputs: shapes1("x", "[1,1,3]")},
			[]element.Type{element.F32, element.I64}},
	})
}

// TestGroupMultiples checks the channels that a group count divides: a count in the symbols is
// required a multiple as a constraint of the node, a static one that is not is an error. Found by
// reading the rules for the class of FuzzInferGraph's GatherND finding: a Conv of W [M,2,1,1] and
// group 3 was inferred without a word, and refused at M=4.
func TestGroupMultiples(t *testing.T) {
	y := []string{"y"}
	checkNode(t, []nodeCase{
		{name: "Conv", node: nodeV("Conv", 11, []string{"x", "w"}, y, attrInt("group", 3)),
			inputs: shapes1("x", "[N,6,H,W]", "w", "[M,2,1,1]"), want: []string{"[N,M,H,W]"},
			constraints: []string{"M % 3 == 0 (Conv_0 (Conv): W's output channels (dim 0) a multiple of group 3)"}},
		{name: "Conv static", node: nodeV("Conv", 11, []string{"x", "w"}, y, attrInt("group", 3)),
			inputs: shapes1("x", "[N,6,H,W]", "w", "[8,2,3,3]"), wantErr: errInvalidShape},
		{name: "ConvTranspose", node: nodeV("ConvTranspose", 11, []string{"x", "w"}, y, attrInt("group", 2)),
			inputs: shapes1("x", "[N,C,H,W]", "w", "[C,3,3,3]"), want: []string{"[N,6,H+2,W+2]"},
			constraints: []string{"C % 2 == 0 (ConvTranspose_0 (ConvTranspose): W's input channels (dim 0) a multiple of group 2)"}},
		{name: "ConvTranspose static", node: nodeV("ConvTranspose", 11, []string{"x", "w"}, y, attrInt("group", 2)),
			inputs: shapes1("x", "[N,5,H,W]", "w", "[5,3,3,3]"), wantErr: errInvalidShape},
		{name: "GroupNormalization", node: nodeV("GroupNormalization", 21, []string{"x", "s", "b"}, y, attrInt("num_groups", 4)),
			inputs: shapes1("x", "[N,C,H,W]", "s", "[C]", "b", "[C]"), want: []string{"[N,C,H,W]"},
			constraints: []string{"C % 4 == 0 (GroupNormalization_0 (GroupNormalization): the channels a multiple of num_groups 4)"}},
	})
}
