package graph_test

import (
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/graph"
)

// inDomain returns n of the domain d.
func inDomain(d string, n graph.Node) graph.Node {
	n.Domain = d
	return n
}

func attrStrings(name string, v ...string) graph.Attr {
	return graph.Attr{Name: name, Kind: graph.AttrStrings, Strings: v}
}

func TestLossRules(t *testing.T) {
	nll := []string{"x", "t"}
	checkNode(t, []nodeCase{
		{name: "NLL none", node: nodeV("NegativeLogLikelihoodLoss", 13, nll, y, attrString("reduction", "none")),
			inputs: shapes1("x", "[N,C,D]", "t", "[N,D]"), want: []string{"[N,D]"}},
		{name: "NLL none, target of unknown rank", node: nodeV("NegativeLogLikelihoodLoss", 13, nll, y, attrString("reduction", "none")),
			inputs: shapes1("x", "[N,C,D,E]", "t", "[...]"), want: []string{"[N,D,E]"}},
		{name: "NLL mean", node: nodeV("NegativeLogLikelihoodLoss", 12, nll, y),
			inputs: shapes1("x", "[N,C]", "t", "[N]"), want: []string{"[]"}},
		{name: "NLL sum, weight unifies with C", node: nodeV("NegativeLogLikelihoodLoss", 13, []string{"x", "t", "w"}, y, attrString("reduction", "sum")),
			inputs: shapes1("x", "[N,C]", "t", "[N]", "w", "[5]"), want: []string{"[]"}},
		{name: "NLL target dims unify", node: nodeV("NegativeLogLikelihoodLoss", 13, nll, y, attrString("reduction", "none")),
			inputs: shapes1("x", "[N,C,8]", "t", "[4,D]"), want: []string{"[4,8]"}},
		{name: "NLL reduction", node: nodeV("NegativeLogLikelihoodLoss", 13, nll, y, attrString("reduction", "max")),
			inputs: shapes1("x", "[N,C]", "t", "[N]"), wantErr: errSyntax},
		{name: "NLL target rank", node: nodeV("NegativeLogLikelihoodLoss", 13, nll, y),
			inputs: shapes1("x", "[N,C,D]", "t", "[N]"), wantErr: errInvalidShape},
		{name: "NLL input rank", node: nodeV("NegativeLogLikelihoodLoss", 13, nll, y),
			inputs: shapes1("x", "[N]", "t", "[N]"), wantErr: errInvalidShape},
		{name: "NLL weight", node: nodeV("NegativeLogLikelihoodLoss", 13, []string{"x", "t", "w"}, y),
			inputs: shapes1("x", "[N,3]", "t", "[N]", "w", "[4]"), wantErr: errInvalidShape},
		{name: "SCE log_prob", node: nodeV("SoftmaxCrossEntropyLoss", 13, nll, []string{"y", "p"}, attrString("reduction", "none")),
			inputs: shapes1("x", "[N,C,D]", "t", "[N,D]"), want: []string{"[N,D]", "[N,C,D]"}},
		{name: "SCE mean", node: nodeV("SoftmaxCrossEntropyLoss", 12, nll, []string{"y", "p"}),
			inputs: shapes1("x", "[N,C]", "t", "[N]"), want: []string{"[]", "[N,C]"}},
		{name: "SCE target", node: nodeV("SoftmaxCrossEntropyLoss", 13, nll, y),
			inputs: shapes1("x", "[2,C]", "t", "[3]"), wantErr: errInvalidShape},
	})
	checkTypes(t, []typeCase{
		{nodeCase{node: nodeV("SoftmaxCrossEntropyLoss", 13, nll, []string{"y", "p"}), inputs: shapes1("x", "[2,3]", "t", "[2]"),
			types: map[string]element.Type{"x": element.F16, "t": element.I64}}, []element.Type{element.F16, element.F16}},
	})
}

func TestSignalRules(t *testing.T) {
	checkNode(t, []nodeCase{
		{name: "DFT-17 default axis 1", node: nodeV("DFT", 17, []string{"x"}, y), inputs: shapes1("x", "[B,S,1]"), want: []string{"[B,S,2]"}},
		{name: "DFT-17 onesided", node: nodeV("DFT", 17, []string{"x"}, y, attrInt("onesided", 1)),
			inputs: shapes1("x", "[B,S,2]"), want: []string{"[B,S//2+1,2]"}},
		{name: "DFT-17 dft_length", node: nodeV("DFT", 17, []string{"x", "n"}, y, attrInt("axis", 2)),
			inputs: shapes1("x", "[B,S,T,1]"), consts: map[string][]int64{"s:n": {16}}, want: []string{"[B,S,16,2]"}},
		{name: "DFT-20 default axis -2", node: nodeV("DFT", 20, []string{"x"}, y, attrInt("onesided", 1)),
			inputs: shapes1("x", "[B,S,T,1]"), want: []string{"[B,S,T//2+1,2]"}},
		{name: "DFT-20 axis input", node: nodeV("DFT", 20, []string{"x", "", "a"}, y),
			inputs: shapes1("x", "[B,S,T,2]"), consts: map[string][]int64{"s:a": {1}}, want: []string{"[B,S,T,2]"}},
		{name: "DFT-20 axis unknown", node: nodeV("DFT", 20, []string{"x", "n", "a"}, y),
			inputs: shapes1("x", "[B,S,T,2]", "a", "[]"), consts: map[string][]int64{"s:n": {8}}, want: []string{"[B,?,?,2]"}},
		{name: "DFT-20 axis unknown, length kept", node: nodeV("DFT", 20, []string{"x", "", "a"}, y),
			inputs: shapes1("x", "[B,S,T,2]", "a", "[]"), want: []string{"[B,S,T,2]"}},
		{name: "DFT axis on the batch", node: nodeV("DFT", 17, []string{"x"}, y, attrInt("axis", 0)),
			inputs: shapes1("x", "[B,S,1]"), wantErr: errInvalidShape},
		{name: "DFT last dim", node: nodeV("DFT", 17, []string{"x"}, y), inputs: shapes1("x", "[B,S,3]"), wantErr: errInvalidShape},
		// FuzzInferGraph: a DFT of input [...,C] inferred without a word, refused at C=7.
		{name: "DFT last dim a symbol", node: nodeV("DFT", 17, []string{"x"}, y), inputs: shapes1("x", "[B,S,C]"), want: []string{"[B,S,2]"},
			constraints: []string{"C <= 2 (DFT_0 (DFT): input 0's last dim 1 (real) or 2 (complex))"}},
		{name: "STFT last dim a symbol", node: nodeV("STFT", 17, []string{"x", "s", "w"}, y),
			inputs: shapes1("x", "[B,S,C]", "w", "[16]"), consts: map[string][]int64{"s:s": {8}}, want: []string{"[B,S//8-1,9,2]"},
			constraints: []string{"S >= 16 (STFT_0 (STFT): frame_length at most the signal's length)",
				"C <= 2 (STFT_0 (STFT): input 0's last dim 1 (real) or 2 (complex))"}},
		{name: "STFT signal shorter than the window", node: nodeV("STFT", 17, []string{"x", "s", "w"}, y),
			inputs: shapes1("x", "[B,8,1]", "w", "[16]"), consts: map[string][]int64{"s:s": {8}}, wantErr: errInvalidShape},
		{name: "DFT rank", node: nodeV("DFT", 17, []string{"x"}, y), inputs: shapes1("x", "[B,2]"), wantErr: errInvalidShape},
		{name: "STFT window", node: nodeV("STFT", 17, []string{"x", "s", "w"}, y),
			inputs: shapes1("x", "[B,S,1]", "w", "[16]"), consts: map[string][]int64{"s:s": {8}}, want: []string{"[B,S//8-1,9,2]"}},
		{name: "STFT frame_length, two-sided", node: nodeV("STFT", 17, []string{"x", "s", "", "l"}, y, attrInt("onesided", 0)),
			inputs: shapes1("x", "[1,128,2]"), consts: map[string][]int64{"s:s": {8}, "s:l": {16}}, want: []string{"[1,15,16,2]"}},
		{name: "STFT step unknown", node: nodeV("STFT", 17, []string{"x", "s", "", "l"}, y),
			inputs: shapes1("x", "[1,128,2]", "s", "[]"), consts: map[string][]int64{"s:l": {16}}, want: []string{"[1,?,9,2]"}},
		{name: "STFT window and frame_length", node: nodeV("STFT", 17, []string{"x", "s", "w", "l"}, y),
			inputs: shapes1("x", "[1,128,1]", "w", "[8]"), consts: map[string][]int64{"s:s": {8}, "s:l": {16}}, wantErr: errInvalidShape},
		{name: "STFT no frame", node: nodeV("STFT", 17, []string{"x", "s"}, y),
			inputs: shapes1("x", "[1,128,1]"), consts: map[string][]int64{"s:s": {8}}, wantErr: errSyntax},
		{name: "STFT frame longer than the signal", node: nodeV("STFT", 17, []string{"x", "s", "", "l"}, y),
			inputs: shapes1("x", "[1,8,1]"), consts: map[string][]int64{"s:s": {8}, "s:l": {16}}, wantErr: errInvalidShape},
		{name: "HannWindow", node: nodeV("HannWindow", 17, []string{"n"}, y), consts: map[string][]int64{"s:n": {10}}, want: []string{"[10]"}},
		{name: "HammingWindow of an input", node: nodeV("HammingWindow", 17, []string{"n"}, y), inputs: shapes1("n", "[]"), want: []string{"[?]"}},
		{name: "BlackmanWindow negative", node: nodeV("BlackmanWindow", 17, []string{"n"}, y), consts: map[string][]int64{"s:n": {-1}}, wantErr: errInvalidShape},
		{name: "BlackmanWindow 1-D size", node: nodeV("BlackmanWindow", 17, []string{"n"}, y), consts: map[string][]int64{"n": {4}}, wantErr: errInvalidShape},
		{name: "MelWeightMatrix", node: nodeV("MelWeightMatrix", 17, []string{"b", "n", "r", "lo", "hi"}, y),
			inputs: shapes1("r", "[]", "lo", "[]", "hi", "[]"), consts: map[string][]int64{"s:b": {8}, "s:n": {16}}, want: []string{"[9,8]"}},
	})
	checkTypes(t, []typeCase{
		{nodeCase{node: nodeV("HannWindow", 17, []string{"n"}, y, attrInt("output_datatype", 11)), consts: map[string][]int64{"s:n": {10}}},
			[]element.Type{element.F64}},
		{nodeCase{node: nodeV("DFT", 20, []string{"x"}, y), inputs: shapes1("x", "[2,3,1]"), types: map[string]element.Type{"x": element.F64}},
			[]element.Type{element.F64}},
	})
}

// TestStringCast checks that a Cast of strings of the model's data to numbers records that only a
// run decides whether they read as numbers (onnxruntime refuses "abc" as it runs), and that a Cast of
// constant strings records nothing.
func TestStringCast(t *testing.T) {
	for _, tc := range []struct {
		name string
		tc   nodeCase
		lost bool
	}{
		{"input", nodeCase{node: nodeV("Cast", 13, []string{"x"}, []string{"y"}, attrInt("to", 1)), inputs: shapes1("x", "[N]"),
			types: map[string]element.Type{"x": element.String}}, true},
		{"to string", nodeCase{node: nodeV("Cast", 13, []string{"x"}, []string{"y"}, attrInt("to", 8)), inputs: shapes1("x", "[N]")}, false},
		{"constant", nodeCase{node: nodeV("Cast", 13, []string{"c"}, []string{"y"}, attrInt("to", 7)),
			tensors: map[string]*graph.Const{"c": {Type: element.String, Dims: []int64{2}}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runNode(t, tc.tc)
			lost := res.Lost()
			if got := len(lost) == 1 && lost[0].RunTime && lost[0].Node == "Cast_0"; got != tc.lost {
				t.Errorf("lost = %v, want a run-time loss at Cast_0: %v", lost, tc.lost)
			}
		})
	}
}

func TestTextRules(t *testing.T) {
	s := map[string]element.Type{"x": element.String, "z": element.String}
	checkNode(t, []nodeCase{
		{name: "TfIdfVectorizer 1-D", node: nodeV("TfIdfVectorizer", 9, []string{"x"}, y, attrInts("ngram_indexes", 0, 4, 2)),
			inputs: shapes1("x", "[C]"), types: s, want: []string{"[5]"}},
		{name: "TfIdfVectorizer 2-D", node: nodeV("TfIdfVectorizer", 9, []string{"x"}, y, attrInts("ngram_indexes", 0, 1)),
			inputs: shapes1("x", "[N,C]"), want: []string{"[N,2]"}},
		{name: "TfIdfVectorizer rank", node: nodeV("TfIdfVectorizer", 9, []string{"x"}, y, attrInts("ngram_indexes", 0, 1)),
			inputs: shapes1("x", "[N,C,D]"), wantErr: errInvalidShape},
		{name: "TfIdfVectorizer no indexes", node: nodeV("TfIdfVectorizer", 9, []string{"x"}, y), inputs: shapes1("x", "[C]"), wantErr: errSyntax},
		{name: "StringNormalizer", node: nodeV("StringNormalizer", 10, []string{"x"}, y, attrString("case_change_action", "LOWER")),
			inputs: shapes1("x", "[1,C]"), types: s, want: []string{"[1,C]"}},
		{name: "StringNormalizer stopwords", node: nodeV("StringNormalizer", 10, []string{"x"}, y, attrStrings("stopwords", "a")),
			inputs: shapes1("x", "[4]"), types: s, want: []string{"[1..4]"}},
		{name: "StringNormalizer first dim", node: nodeV("StringNormalizer", 10, []string{"x"}, y),
			inputs: shapes1("x", "[2,4]"), types: s, wantErr: errInvalidShape},
		// onnx's shape inference refuses a first dim not known to be 1 when onnxruntime loads the model.
		{name: "StringNormalizer symbolic first dim", node: nodeV("StringNormalizer", 10, []string{"x"}, y),
			inputs: shapes1("x", "[R,4]"), types: s, wantErr: errInvalidShape},
		{name: "StringNormalizer first dim computed 1", node: nodeV("StringNormalizer", 10, []string{"u"}, y),
			pre:    []graph.Node{nodeV("Unsqueeze", 13, []string{"x", "axes"}, []string{"u"})},
			inputs: shapes1("x", "[C]"), consts: map[string][]int64{"axes": {0}}, types: s, want: []string{"[1,C]"}},
		{name: "StringConcat", node: nodeV("StringConcat", 20, []string{"x", "z"}, y),
			inputs: shapes1("x", "[B,1]", "z", "[3]"), types: s, want: []string{"[B,3]"}},
		{name: "StringSplit", node: nodeV("StringSplit", 20, []string{"x"}, []string{"y", "n"}),
			inputs: shapes1("x", "[B,T]"), types: s, want: []string{"[B,T,?]", "[B,T]"}},
		{name: "StringSplit maxsplit", node: nodeV("StringSplit", 20, []string{"x"}, []string{"y", "n"}, attrInt("maxsplit", 2)),
			inputs: shapes1("x", "[B]"), types: s, want: []string{"[B,..3]", "[B]"}},
		{name: "RegexFullMatch", node: nodeV("RegexFullMatch", 20, []string{"x"}, y, attrString("pattern", "a+")),
			inputs: shapes1("x", "[B,3]"), types: s, want: []string{"[B,3]"}},
	})
	checkTypes(t, []typeCase{
		{nodeCase{node: nodeV("StringSplit", 20, []string{"x"}, []string{"y", "n"}), inputs: shapes1("x", "[2]"), types: s},
			[]element.Type{element.String, element.I64}},
		{nodeCase{node: nodeV("RegexFullMatch", 20, []string{"x"}, y), inputs: shapes1("x", "[2]"), types: s}, []element.Type{element.Boolean}},
		{nodeCase{node: nodeV("TfIdfVectorizer", 9, []string{"x"}, y, attrInts("ngram_indexes", 0)), inputs: shapes1("x", "[2]"),
			types: map[string]element.Type{"x": element.I64}}, []element.Type{element.F32}},
		{nodeCase{node: nodeV("Cast", 13, []string{"x"}, y, attrInt("to", 8)), inputs: shapes1("x", "[2]")}, []element.Type{element.String}},
	})
}

func TestOptionalRules(t *testing.T) {
	checkNode(t, []nodeCase{
		{name: "OptionalHasElement-18 of nothing", node: nodeV("OptionalHasElement", 18, nil, y), want: []string{"[]"}, values: []string{"[0]"}},
		{name: "OptionalHasElement-18 of a tensor", node: nodeV("OptionalHasElement", 18, []string{"x"}, y),
			inputs: shapes1("x", "[B]"), want: []string{"[]"}, values: []string{"[1]"}},
		{name: "OptionalGetElement-18 of a tensor", node: nodeV("OptionalGetElement", 18, []string{"x"}, y),
			inputs: shapes1("x", "[B,3]"), want: []string{"[B,3]"}},
		{name: "Optional", node: nodeV("Optional", 15, []string{"x"}, y), inputs: shapes1("x", "[B,3]"), want: []string{"[B,3]"}},
		{name: "Optional empty", node: nodeV("Optional", 15, nil, y), want: []string{"[...]"}},
	})
	// Optional then OptionalHasElement: an optional input's element is not known to be there.
	g := &graph.Graph{Inputs: []graph.Input{{Name: "x", Decl: graph.Decl{Type: element.F32, Rank: 1, Dims: []graph.DeclDim{graph.NamedDim("B")}, Optional: true}}},
		Nodes: []graph.Node{
			at(18, node("OptionalHasElement", []string{"x"}, []string{"h"})),
			at(18, node("OptionalGetElement", []string{"x"}, []string{"e"})),
			at(15, node("Optional", []string{"e"}, []string{"o"})),
		}}
	res, err := graph.Infer(g, graph.Options{Dims: map[string]int64{"B": 4}})
	if err != nil {
		t.Fatal(err)
	}
	if h := res.Tensor("h"); h.Value != nil || h.Type != element.Boolean {
		t.Errorf("OptionalHasElement of an optional input: %v %v, values %v", h.Type, h.Shape, h.Value)
	}
	if e := res.Tensor("e"); e.Optional || e.Shape.String() != "[4]" || e.Type != element.F32 {
		t.Errorf("OptionalGetElement of an optional input bound B=4: %v %v optional %v", e.Type, e.Shape, e.Optional)
	}
	if o := res.Tensor("o"); !o.Optional || o.Shape.String() != "[4]" {
		t.Errorf("Optional: %v optional %v", o.Shape, o.Optional)
	}
}

func TestTrainingRules(t *testing.T) {
	const d = "ai.onnx.preview.training"
	checkNode(t, []nodeCase{
		{name: "Adagrad", node: inDomain(d, nodeV("Adagrad", 1, []string{"r", "t", "x", "g", "h"}, []string{"x1", "h1"})),
			inputs: shapes1("r", "[]", "t", "[]", "x", "[A,3]", "g", "[A,3]", "h", "[A,3]"), want: []string{"[A,3]", "[A,3]"}},
		{name: "Adam of two tensors", node: inDomain(d, nodeV("Adam", 1, []string{"r", "t", "x", "z", "gx", "gz", "vx", "vz", "hx", "hz"},
			[]string{"x1", "z1", "vx1", "vz1", "hx1", "hz1"})),
			inputs: shapes1("r", "[]", "t", "[]", "x", "[A]", "z", "[2,B]", "gx", "[4]", "gz", "[2,B]", "vx", "[A]", "vz", "[2,B]", "hx", "[A]", "hz", "[2,B]"),
			want:   []string{"[4]", "[2,B]", "[4]", "[2,B]", "[4]", "[2,B]"}},
		{name: "Momentum", node: inDomain(d, nodeV("Momentum", 1, []string{"r", "t", "x", "g", "v"}, []string{"x1", "v1"})),
			inputs: shapes1("r", "[]", "t", "[]", "x", "[A]", "g", "[A]", "v", "[A]"), want: []string{"[A]", "[A]"}},
		{name: "Momentum outputs", node: inDomain(d, nodeV("Momentum", 1, []string{"r", "t", "x", "g", "v"}, []string{"x1"})),
			inputs: shapes1("r", "[]", "t", "[]", "x", "[A]", "g", "[A]", "v", "[A]"), wantErr: errSyntax},
		{name: "Adagrad inputs", node: inDomain(d, nodeV("Adagrad", 1, []string{"r", "t", "x", "g"}, []string{"x1", "h1"})),
			inputs: shapes1("r", "[]", "t", "[]", "x", "[A]", "g", "[A]"), wantErr: errSyntax},
		{name: "Adagrad shapes", node: inDomain(d, nodeV("Adagrad", 1, []string{"r", "t", "x", "g", "h"}, []string{"x1", "h1"})),
			inputs: shapes1("r", "[]", "t", "[]", "x", "[2]", "g", "[3]", "h", "[2]"), wantErr: errInvalidShape},
		{name: "Adagrad R", node: inDomain(d, nodeV("Adagrad", 1, []string{"r", "t", "x", "g", "h"}, []string{"x1", "h1"})),
			inputs: shapes1("r", "[1]", "t", "[]", "x", "[2]", "g", "[2]", "h", "[2]"), wantErr: errInvalidShape},
		{name: "Gradient", node: inDomain(d, nodeV("Gradient", 1, []string{"a", "b"}, []string{"da", "db"}, attrStrings("xs", "a", "b"), attrString("y", "c"))),
			inputs: shapes1("a", "[B,S]", "b", "[S]"), want: []string{"[B,S]", "[S]"}},
		{name: "Gradient xs", node: inDomain(d, nodeV("Gradient", 1, []string{"a"}, []string{"da", "db"}, attrStrings("xs", "a"), attrString("y", "c"))),
			inputs: shapes1("a", "[B,S]"), wantErr: errSyntax},
	})
}

func TestImageRules(t *testing.T) {
	checkNode(t, []nodeCase{
		{name: "AffineGrid 2-D", node: nodeV("AffineGrid", 20, []string{"t", "s"}, y),
			inputs: shapes1("t", "[N,2,3]"), consts: map[string][]int64{"s": {4, 3, 5, 6}}, want: []string{"[4,5,6,2]"}},
		{name: "AffineGrid 3-D of unknown size", node: nodeV("AffineGrid", 20, []string{"t", "s"}, y),
			inputs: shapes1("t", "[N,3,4]", "s", "[5]"), want: []string{"[N,?,?,?,3]"}},
		{name: "AffineGrid theta", node: nodeV("AffineGrid", 20, []string{"t", "s"}, y),
			inputs: shapes1("t", "[N,2,3]"), consts: map[string][]int64{"s": {4, 3, 2, 5, 6}}, wantErr: errInvalidShape},
		{name: "AffineGrid size", node: nodeV("AffineGrid", 20, []string{"t", "s"}, y),
			inputs: shapes1("t", "[N,2,3]"), consts: map[string][]int64{"s": {4, 3, 5}}, wantErr: errInvalidShape},
		{name: "AffineGrid size of one value", node: nodeV("AffineGrid", 20, []string{"t", "s"}, y),
			inputs: shapes1("t", "[N,2,3]"), consts: map[string][]int64{"s": {4}}, wantErr: errInvalidShape},
		{name: "ImageDecoder", node: nodeV("ImageDecoder", 20, []string{"x"}, y, attrString("pixel_format", "Grayscale")),
			inputs: shapes1("x", "[L]"), want: []string{"[?,?,1]"}},
		{name: "ImageDecoder format", node: nodeV("ImageDecoder", 20, []string{"x"}, y, attrString("pixel_format", "CMYK")),
			inputs: shapes1("x", "[L]"), wantErr: errSyntax},
		{name: "DeformConv", node: nodeV("DeformConv", 19, []string{"x", "w", "o", "b", "m"}, y, attrInts("pads", 1, 1, 1, 1)),
			inputs: shapes1("x", "[N,4,H,W]", "w", "[8,4,3,3]", "o", "[N,18,OH,OW]", "b", "[M]", "m", "[N,9,OH,OW]"), want: []string{"[N,8,H,W]"}},
		{name: "DeformConv offset", node: nodeV("DeformConv", 19, []string{"x", "w", "o"}, y),
			inputs: shapes1("x", "[N,4,5,5]", "w", "[8,4,3,3]", "o", "[N,18,4,3]"), wantErr: errInvalidShape},
		{name: "MaxRoiPool", node: nodeV("MaxRoiPool", 1, []string{"x", "r"}, y, attrInts("pooled_shape", 2, 3)),
			inputs: shapes1("x", "[N,C,H,W]", "r", "[R,5]"), want: []string{"[R,C,2,3]"}},
		{name: "MaxRoiPool rois", node: nodeV("MaxRoiPool", 1, []string{"x", "r"}, y, attrInts("pooled_shape", 2, 3)),
			inputs: shapes1("x", "[N,C,H,W]", "r", "[R,4]"), wantErr: errInvalidShape},
		{name: "MaxRoiPool pooled_shape", node: nodeV("MaxRoiPool", 1, []string{"x", "r"}, y),
			inputs: shapes1("x", "[N,C,H,W]", "r", "[R,5]"), wantErr: errSyntax},
		{name: "ReverseSequence", node: nodeV("ReverseSequence", 10, []string{"x", "l"}, y, attrInt("batch_axis", 0), attrInt("time_axis", 1)),
			inputs: shapes1("x", "[B,T,4]", "l", "[3]"), want: []string{"[3,T,4]"}},
		{name: "ReverseSequence axes", node: nodeV("ReverseSequence", 10, []string{"x", "l"}, y, attrInt("batch_axis", 0)),
			inputs: shapes1("x", "[B,T,4]", "l", "[B]"), wantErr: errInvalidShape},
		{name: "SimplifiedLayerNormalization", node: nodeV("SimplifiedLayerNormalization", 1, []string{"x", "s"}, []string{"y", "r"}, attrInt("axis", 1)),
			inputs: shapes1("x", "[B,T,64]", "s", "[T,64]"), want: []string{"[B,T,64]", "[B,1,1]"}},
		{name: "ConvTranspose SAME_UPPER", node: nodeV("ConvTranspose", 11, []string{"x", "w"}, y, attrString("auto_pad", "SAME_UPPER"), attrInts("strides", 2, 2)),
			inputs: shapes1("x", "[N,C,H,W]", "w", "[C,2,3,3]"), want: []string{"[N,2,2*H,2*W]"}},
		{name: "ConvTranspose SAME_LOWER, kernel below the stride", node: nodeV("ConvTranspose", 11, []string{"x", "w"}, y, attrString("auto_pad", "SAME_LOWER"), attrInts("strides", 3)),
			inputs: shapes1("x", "[N,C,H]", "w", "[C,2,2]"), want: []string{"[N,2,3*H-1]"}},
	})
}

func TestVersionForms(t *testing.T) {
	ab := []string{"a", "b"}
	checkNode(t, []nodeCase{
		{name: "Concat-1 axis 1 by default", node: nodeV("Concat", 1, ab, y), inputs: shapes1("a", "[2,3]", "b", "[2,4]"), want: []string{"[2,7]"}},
		{name: "Concat-4 axis required", node: nodeV("Concat", 4, ab, y), inputs: shapes1("a", "[2,3]", "b", "[2,4]"), wantErr: errSyntax},
		{name: "Upsample-1", node: nodeV("Upsample", 1, []string{"x"}, y, graph.Attr{Name: "height_scale", Kind: graph.AttrFloat, Float: 2},
			graph.Attr{Name: "width_scale", Kind: graph.AttrFloat, Float: 3}), inputs: shapes1("x", "[N,C,4,5]"), want: []string{"[N,C,8,15]"}},
		{name: "Upsample-1 width_scale", node: nodeV("Upsample", 1, []string{"x"}, y, graph.Attr{Name: "height_scale", Kind: graph.AttrFloat, Float: 2}),
			inputs: shapes1("x", "[N,C,4,5]"), wantErr: errSyntax},
		{name: "Upsample-1 rank", node: nodeV("Upsample", 1, []string{"x"}, y, graph.Attr{Name: "height_scale", Kind: graph.AttrFloat, Float: 2},
			graph.Attr{Name: "width_scale", Kind: graph.AttrFloat, Float: 3}), inputs: shapes1("x", "[N,4,5]"), wantErr: errInvalidShape},
		{name: "Sum-6 unifies", node: nodeV("Sum", 6, []string{"a", "b", "c"}, y), inputs: shapes1("a", "[A,3]", "b", "[2,B]", "c", "[...]"), want: []string{"[2,3]"}},
		{name: "Max-1 does not broadcast", node: nodeV("Max", 1, ab, y), inputs: shapes1("a", "[2,3]", "b", "[3]"), wantErr: errInvalidShape},
		{name: "Mean-6 does not broadcast", node: nodeV("Mean", 6, ab, y), inputs: shapes1("a", "[2,3]", "b", "[1,3]"), wantErr: errInvalidShape},
		{name: "Min-8 broadcasts", node: nodeV("Min", 8, ab, y), inputs: shapes1("a", "[2,3]", "b", "[1,3]"), want: []string{"[2,3]"}},
	})
}

// TestExperimental: the experimental operators of opset 1 that onnxruntime 1.20.1 still runs.
func TestExperimental(t *testing.T) {
	x := []string{"x"}
	checkNode(t, []nodeCase{
		{name: "Affine", node: nodeV("Affine", 1, x, y), inputs: shapes1("x", "[N,3]"), want: []string{"[N,3]"}},
		{name: "ScaledTanh", node: nodeV("ScaledTanh", 17, x, y), inputs: shapes1("x", "[N,3]"), want: []string{"[N,3]"}},
		{name: "Crop border", node: nodeV("Crop", 1, x, y, attrInts("border", 1, 2, 3, 4)), inputs: shapes1("x", "[N,C,H,W]"),
			want: []string{"[N,C,H-6,W-4]"}},
		{name: "Crop scale", node: nodeV("Crop", 1, x, y, attrInts("border", 1, 2, 3, 4), attrInts("scale", 5, 6)), inputs: shapes1("x", "[N,C,H,W]"),
			want: []string{"[N,C,5,6]"}},
		{name: "Crop past the dim", node: nodeV("Crop", 1, x, y, attrInts("border", 1, 2, 3, 4)), inputs: shapes1("x", "[N,C,5,5]"), wantErr: errInvalidShape},
		{name: "Crop border length", node: nodeV("Crop", 1, x, y, attrInts("border", 1, 2)), inputs: shapes1("x", "[N,C,H,W]"), wantErr: errInvalidShape},
		{name: "ImageScaler", node: nodeV("ImageScaler", 1, x, y, attrFloats("bias", 1, 2, 3)), inputs: shapes1("x", "[N,C,H,W]"), want: []string{"[N,3,H,W]"}},
		{name: "ImageScaler bias", node: nodeV("ImageScaler", 1, x, y, attrFloats("bias", 1, 2)), inputs: shapes1("x", "[N,3,H,W]"), wantErr: errInvalidShape},
		{name: "DynamicSlice", node: nodeV("DynamicSlice", 1, []string{"x", "s", "e", "a"}, y), inputs: shapes1("x", "[N,10]"),
			consts: map[string][]int64{"s": {2}, "e": {-1}, "a": {1}}, want: []string{"[N,7]"}},
	})
}
