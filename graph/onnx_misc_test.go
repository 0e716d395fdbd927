package graph_test

import (
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
)

func TestSelections(t *testing.T) {
	a := map[string]string{"a": "[B,T,6]"}
	i64 := func(names ...string) map[string]element.Type {
		m := map[string]element.Type{}
		for _, n := range names {
			m[n] = element.I64
		}
		return m
	}
	checkNode(t, []nodeCase{
		{name: "topk", node: node("TopK", []string{"a", "k"}, []string{"v", "i"}), inputs: a,
			consts: map[string][]int64{"k": {2}}, want: []string{"[B,T,2]", "[B,T,2]"}},
		{name: "topk axis", node: node("TopK", []string{"a", "k"}, []string{"v", "i"}, attrInt("axis", 1), attrInt("largest", 0)),
			inputs: a, consts: map[string][]int64{"k": {3}}, want: []string{"[B,3,6]", "[B,3,6]"}},
		{name: "topk 1", node: at(1, node("TopK", []string{"a"}, []string{"v", "i"}, attrInt("k", 4))), inputs: a,
			want: []string{"[B,T,4]", "[B,T,4]"}},
		{name: "topk 1 without k", node: at(1, node("TopK", []string{"a"}, []string{"v", "i"})), inputs: a, wantErr: errcode.ErrSyntax},
		{name: "topk k unknown", node: node("TopK", []string{"a", "k"}, []string{"v", "i"}),
			inputs: map[string]string{"a": "[B,T,6]", "k": "[1]"}, types: i64("k"), want: []string{"[B,T,..6]", "[B,T,..6]"}},
		{name: "topk k too large", node: node("TopK", []string{"a", "k"}, []string{"v", "i"}), inputs: a,
			consts: map[string][]int64{"k": {7}}, wantErr: errInvalidShape},
		{name: "nonzero", node: node("NonZero", []string{"x"}, []string{"y"}), inputs: map[string]string{"x": "[N,C]"}, want: []string{"[2,?]"}},
		{name: "nonzero static", node: node("NonZero", []string{"x"}, []string{"y"}), inputs: map[string]string{"x": "[2,3]"}, want: []string{"[2,..6]"}},
		{name: "nonzero values", node: node("NonZero", []string{"v"}, []string{"y"}), consts: map[string][]int64{"v": {0, 3, 0, 5}},
			want: []string{"[1,2]"}, values: []string{"[1,3]"}},
		{name: "nonzero values 2-D", node: node("NonZero", []string{"v"}, []string{"y"}),
			tensors: map[string]*graph.Const{"v": ints([]int64{2, 2}, 1, 0, 0, 2)}, want: []string{"[2,2]"}, values: []string{"[0,1,0,1]"}},
		// onnxruntime 1.20: NonZero of a scalar 3 is [[0]], of shape [1,1].
		{name: "nonzero scalar", node: node("NonZero", []string{"v"}, []string{"y"}), consts: map[string][]int64{"s:v": {3}},
			want: []string{"[1,1]"}, values: []string{"[0]"}},
		{name: "compress axis", node: node("Compress", []string{"x", "c"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[N,3]"}, consts: map[string][]int64{"c": {1, 0, 1}}, want: []string{"[N,2]"}},
		// onnxruntime 1.20: a condition longer than the axis is cut to it ([1,0,1,1,1] on 3 selects 2).
		{name: "compress long condition", node: node("Compress", []string{"x", "c"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[N,3]"}, consts: map[string][]int64{"c": {1, 0, 1, 1, 1}}, want: []string{"[N,2]"}},
		{name: "compress flat", node: node("Compress", []string{"x", "c"}, []string{"y"}),
			inputs: map[string]string{"x": "[2,2]"}, consts: map[string][]int64{"c": {1, 0, 1, 1}}, want: []string{"[3]"}},
		{name: "compress condition unknown", node: node("Compress", []string{"x", "c"}, []string{"y"}, attrInt("axis", 0)),
			inputs: map[string]string{"x": "[N,3]", "c": "[4]"}, types: map[string]element.Type{"c": element.Boolean}, want: []string{"[..4,3]"}},
		{name: "compress condition rank", node: node("Compress", []string{"x", "c"}, []string{"y"}),
			inputs: map[string]string{"x": "[N,3]", "c": "[2,2]"}, wantErr: errInvalidShape},
		{name: "nms", node: node("NonMaxSuppression", []string{"b", "s", "m"}, []string{"y"}),
			inputs: map[string]string{"b": "[1,10,4]", "s": "[1,2,10]"}, consts: map[string][]int64{"s:m": {3}}, want: []string{"[..6,3]"}},
		{name: "nms symbolic", node: node("NonMaxSuppression", []string{"b", "s", "m"}, []string{"y"}),
			inputs: map[string]string{"b": "[B,S,4]", "s": "[B,C,S]"}, consts: map[string][]int64{"s:m": {3}}, want: []string{"[?,3]"}},
		{name: "nms without max", node: node("NonMaxSuppression", []string{"b", "s"}, []string{"y"}),
			inputs: map[string]string{"b": "[B,S,4]", "s": "[B,C,S]"}, want: []string{"[0,3]"}},
		{name: "unique", node: node("Unique", []string{"x"}, []string{"y", "i", "v", "c"}), inputs: map[string]string{"x": "[N,C]"},
			want: []string{"[1..]", "[1..]", "[N*C]", "[1..]"}},
		{name: "unique axis", node: node("Unique", []string{"x"}, []string{"y", "i", "v", "c"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[N,5]"}, want: []string{"[N,1..5]", "[1..5]", "[5]", "[1..5]"}},
		{name: "unique empty", node: node("Unique", []string{"x"}, []string{"y", "i", "v", "c"}), inputs: map[string]string{"x": "[0,3]"},
			want: []string{"[0]", "[0]", "[0]", "[0]"}},
	})
}

// TestSharedUnknowns checks that an unknown size two outputs have in common is one anonymous dim.
func TestSharedUnknowns(t *testing.T) {
	for _, tc := range []nodeCase{
		{node: node("TopK", []string{"a", "k"}, []string{"v", "i"}), inputs: map[string]string{"a": "[B,T]", "k": "[1]"},
			types: map[string]element.Type{"k": element.I64}},
		{node: node("Unique", []string{"x"}, []string{"y", "i", "v", "c"}), inputs: map[string]string{"x": "[N]"}},
	} {
		r := runNode(t, tc).Nodes[0]
		first := r.Outputs[0].Shape.Dims
		second := r.Outputs[len(r.Outputs)-1].Shape.Dims
		if a, b := first[len(first)-1], second[len(second)-1]; !a.Equal(b) || a.Determined() {
			t.Errorf("%s: %v and %v, want one anonymous dim", tc.node.Op, r.Outputs[0].Shape, r.Outputs[len(r.Outputs)-1].Shape)
		}
	}
}

func TestMiscShapes(t *testing.T) {
	checkNode(t, []nodeCase{
		{name: "cumsum", node: node("CumSum", []string{"a", "x"}, []string{"y"}), inputs: map[string]string{"a": "[B,T,6]"},
			consts: map[string][]int64{"s:x": {1}}, want: []string{"[B,T,6]"}},
		{name: "cumsum values", node: node("CumSum", []string{"v", "x"}, []string{"y"}), consts: map[string][]int64{"v": {1, 2, 3}, "s:x": {0}},
			want: []string{"[3]"}, values: []string{"[1,3,6]"}},
		{name: "cumsum exclusive reverse", node: node("CumSum", []string{"v", "x"}, []string{"y"}, attrInt("exclusive", 1), attrInt("reverse", 1)),
			consts: map[string][]int64{"v": {1, 2, 3}, "s:x": {-1}}, want: []string{"[3]"}, values: []string{"[5,3,0]"}},
		{name: "cumsum values 2-D", node: node("CumSum", []string{"v", "x"}, []string{"y"}),
			tensors: map[string]*graph.Const{"v": ints([]int64{2, 3}, 1, 2, 3, 4, 5, 6)}, consts: map[string][]int64{"s:x": {0}},
			want: []string{"[2,3]"}, values: []string{"[1,2,3,5,7,9]"}},
		{name: "trilu", node: at(14, node("Trilu", []string{"a", "k"}, []string{"y"})), inputs: map[string]string{"a": "[B,T,T]"},
			consts: map[string][]int64{"s:k": {-1}}, want: []string{"[B,T,T]"}},
		{name: "onehot", node: node("OneHot", []string{"i", "d", "v"}, []string{"y"}), inputs: map[string]string{"i": "[B,T]"},
			consts: map[string][]int64{"s:d": {10}, "v": {0, 1}}, want: []string{"[B,T,10]"}},
		{name: "onehot axis", node: node("OneHot", []string{"i", "d", "v"}, []string{"y"}, attrInt("axis", 0)), inputs: map[string]string{"i": "[B,T]"},
			consts: map[string][]int64{"s:d": {10}, "v": {0, 1}}, want: []string{"[10,B,T]"}},
		{name: "onehot float depth", node: node("OneHot", []string{"i", "d", "v"}, []string{"y"}, attrInt("axis", 1)), inputs: map[string]string{"i": "[B,T]"},
			tensors: map[string]*graph.Const{"d": floats(4.5)}, consts: map[string][]int64{"v": {0, 1}}, want: []string{"[B,4,T]"}},
		{name: "onehot depth unknown", node: node("OneHot", []string{"i", "d", "v"}, []string{"y"}), inputs: map[string]string{"i": "[B]", "d": "[1]"},
			consts: map[string][]int64{"v": {0, 1}}, want: []string{"[B,1..]"}},
		{name: "onehot depth 0", node: node("OneHot", []string{"i", "d", "v"}, []string{"y"}), inputs: map[string]string{"i": "[B]"},
			consts: map[string][]int64{"s:d": {0}, "v": {0, 1}}, wantErr: errInvalidShape},
		{name: "eyelike", node: node("EyeLike", []string{"x"}, []string{"y"}), inputs: map[string]string{"x": "[N,M]"}, want: []string{"[N,M]"}},
		{name: "eyelike rank", node: node("EyeLike", []string{"x"}, []string{"y"}), inputs: map[string]string{"x": "[N,M,2]"}, wantErr: errInvalidShape},
		{name: "random normal", node: node("RandomNormal", nil, []string{"y"}, attrInts("shape", 2, 3)), want: []string{"[2,3]"}},
		{name: "random uniform without shape", node: node("RandomUniform", nil, []string{"y"}), wantErr: errcode.ErrSyntax},
		{name: "random uniform like", node: node("RandomUniformLike", []string{"x"}, []string{"y"}), inputs: map[string]string{"x": "[N,C]"},
			want: []string{"[N,C]"}},
		{name: "bernoulli", node: at(15, node("Bernoulli", []string{"x"}, []string{"y"})), inputs: map[string]string{"x": "[N,C]"},
			want: []string{"[N,C]"}},
		{name: "multinomial", node: node("Multinomial", []string{"x"}, []string{"y"}, attrInt("sample_size", 5)), inputs: map[string]string{"x": "[B,K]"},
			want: []string{"[B,5]"}},
		{name: "multinomial negative", node: node("Multinomial", []string{"x"}, []string{"y"}, attrInt("sample_size", -1)), inputs: map[string]string{"x": "[B,K]"},
			wantErr: errInvalidShape},
		{name: "det", node: node("Det", []string{"x"}, []string{"y"}), inputs: map[string]string{"x": "[B,M,M]"}, want: []string{"[B]"}},
		{name: "det unifies", node: node("Det", []string{"x"}, []string{"y"}), inputs: map[string]string{"x": "[M,3,K]"}, want: []string{"[M]"}},
		{name: "det not square", node: node("Det", []string{"x"}, []string{"y"}), inputs: map[string]string{"x": "[B,3,4]"}, wantErr: errInvalidShape},
		{name: "grid sample", node: at(16, node("GridSample", []string{"x", "g"}, []string{"y"})),
			inputs: map[string]string{"x": "[N,C,H,W]", "g": "[N,P,Q,2]"}, want: []string{"[N,C,P,Q]"}},
		{name: "grid sample 20 volumetric", node: at(20, node("GridSample", []string{"x", "g"}, []string{"y"})),
			inputs: map[string]string{"x": "[N,C,D,H,W]", "g": "[N,4,5,6,3]"}, want: []string{"[N,C,4,5,6]"}},
		{name: "grid sample 16 volumetric", node: at(16, node("GridSample", []string{"x", "g"}, []string{"y"})),
			inputs: map[string]string{"x": "[N,C,D,H,W]", "g": "[N,4,5,6,3]"}, wantErr: errInvalidShape},
		{name: "grid sample last dim", node: at(16, node("GridSample", []string{"x", "g"}, []string{"y"})),
			inputs: map[string]string{"x": "[N,C,H,W]", "g": "[N,P,Q,3]"}, wantErr: errInvalidShape},
		{name: "roi align", node: node("RoiAlign", []string{"x", "r", "b"}, []string{"y"}, attrInt("output_height", 7), attrInt("output_width", 5)),
			inputs: map[string]string{"x": "[N,C,H,W]", "r": "[R,4]", "b": "[R]"}, want: []string{"[R,C,7,5]"}},
		{name: "roi align zero size", node: node("RoiAlign", []string{"x", "r", "b"}, []string{"y"}, attrInt("output_height", 0)),
			inputs: map[string]string{"x": "[N,C,H,W]", "r": "[R,4]", "b": "[R]"}, wantErr: errInvalidShape},
		{name: "roi align defaults", node: node("RoiAlign", []string{"x", "r", "b"}, []string{"y"}),
			inputs: map[string]string{"x": "[N,C,H,W]", "r": "[R,4]", "b": "[S]"}, want: []string{"[R,C,1,1]"}},
	})
}

func TestMiscTypes(t *testing.T) {
	f := map[string]string{"x": "[N,C]"}
	checkTypes(t, []typeCase{
		{nodeCase{node: node("TopK", []string{"x", "k"}, []string{"v", "i"}), inputs: f, consts: map[string][]int64{"k": {1}},
			types: map[string]element.Type{"x": element.F16}}, []element.Type{element.F16, element.I64}},
		{nodeCase{node: node("NonZero", []string{"x"}, []string{"y"}), inputs: f}, []element.Type{element.I64}},
		{nodeCase{node: node("Multinomial", []string{"x"}, []string{"y"}), inputs: f}, []element.Type{element.I32}},
		{nodeCase{node: node("RandomNormal", nil, []string{"y"}, attrInts("shape", 2), attrInt("dtype", 11))}, []element.Type{element.F64}},
		{nodeCase{node: node("RandomNormalLike", []string{"x"}, []string{"y"}), inputs: f, types: map[string]element.Type{"x": element.F16}},
			[]element.Type{element.F16}},
		{nodeCase{node: node("EyeLike", []string{"x"}, []string{"y"}, attrInt("dtype", 7)), inputs: f}, []element.Type{element.I64}},
		{nodeCase{node: node("OneHot", []string{"x", "d", "v"}, []string{"y"}), inputs: f, consts: map[string][]int64{"s:d": {3}},
			tensors: map[string]*graph.Const{"v": floats(0, 1)}}, []element.Type{element.F32}},
		{nodeCase{node: node("Unique", []string{"x"}, []string{"y", "i", "v", "c"}), inputs: f},
			[]element.Type{element.F32, element.I64, element.I64, element.I64}},
	})
}

// fuzzOps are the operators FuzzMovementRules builds nodes of: movement, reductions, selections,
// and the losses, signal, string, optional and image operators.
var fuzzOps = []string{"Split", "Pad", "Tile", "Resize", "Upsample", "DepthToSpace", "SpaceToDepth", "GatherElements",
	"GatherND", "Scatter", "ScatterElements", "ScatterND", "CenterCropPad", "Col2Im", "ReduceSum", "ReduceMean", "ReduceMax",
	"ReduceMin", "ReduceProd", "ReduceL2", "ArgMax", "ArgMin", "TopK", "CumSum", "Trilu", "OneHot", "EyeLike", "NonZero",
	"Compress", "NonMaxSuppression", "Unique", "RandomNormal", "RandomUniformLike", "Bernoulli", "Multinomial", "Det",
	"GridSample", "RoiAlign", "NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss", "DFT", "STFT", "HannWindow",
	"MelWeightMatrix", "TfIdfVectorizer", "StringNormalizer", "StringSplit", "AffineGrid", "ReverseSequence", "Crop",
	"DynamicSlice", "MaxRoiPool", "DeformConv", "Optional", "OptionalHasElement", "OptionalGetElement", "ImageDecoder"}

// fuzzReader hands out the bytes of a fuzz input as small signed numbers, 0 past the end.
type fuzzReader struct{ b []byte }

func (r *fuzzReader) next() int64 {
	if len(r.b) == 0 {
		return 0
	}
	v := int8(r.b[0])
	r.b = r.b[1:]
	return int64(v)
}

// dims returns a static shape of rank at most 4, dims at most 6.
func (r *fuzzReader) dims() []int64 {
	d := make([]int64, abs(r.next())%5)
	for i := range d {
		d[i] = abs(r.next()) % 7
	}
	return d
}

// decl returns the declaration of an f32 graph input of rank at most maxRank whose dims are the
// symbols A, B, C (for negative numbers) or integers at most maxDim.
func (r *fuzzReader) decl(maxRank, maxDim int64) graph.Decl {
	d := graph.Decl{Type: element.F32, Rank: int(abs(r.next()) % (maxRank + 1))}
	for range d.Rank {
		if v := r.next(); v < 0 {
			d.Dims = append(d.Dims, graph.NamedDim(string(rune('A'-v%3))))
		} else {
			d.Dims = append(d.Dims, graph.StaticDim(v%(maxDim+1)))
		}
	}
	return d
}

func abs(n int64) int64 { return max(n, -n) }

// FuzzMovementRules runs the rules of the movement, reduction and selection operators (and the
// others of fuzzOps) on nodes built from fuzzed bytes (operator, version, inputs that are graph
// inputs with symbols or constants with values, attributes, a binding of the symbols), and checks
// that none panics, that every dim of an output is a size (never below 0), that values match their
// shapes, and that the symbolic answer agrees with the bound one (checkSymbolicBound).
func FuzzMovementRules(f *testing.F) {
	f.Add(uint8(0), uint8(17), []byte{2, 3, 4, 2, 1, 2, 1, 0, 2, 1})
	f.Add(uint8(1), uint8(18), []byte{1, 4, 0, 1, 6, 1, 1, 2, 1, 3, 0, 1, 0, 2})
	f.Add(uint8(3), uint8(12), []byte{2, 4, 0, 1, 5, 5, 2, 1, 4, 4, 4, 8, 8})
	f.Add(uint8(27), uint8(13), []byte{1, 2, 2, 2, 3, 0, 5, 0})
	f.Fuzz(func(t *testing.T, op, version uint8, data []byte) {
		r := &fuzzReader{b: data}
		n := graph.Node{Name: "n", Op: fuzzOps[int(op)%len(fuzzOps)], Version: 1 + int64(version)%22}
		g := &graph.Graph{Consts: map[string]*graph.Const{}, Declared: map[string]graph.Decl{}}
		for i := range abs(r.next()) % 5 {
			name := "in" + string(rune('0'+i))
			switch abs(r.next()) % 4 {
			case 0: // left out
				name = ""
			case 1: // a graph input; a negative dim is a symbol
				g.Inputs = append(g.Inputs, graph.Input{Name: name, Decl: r.decl(4, 6)})
			case 2: // an int64 constant
				dims := r.dims()
				v := make([]int64, 1)
				for _, d := range dims {
					v = make([]int64, int64(len(v))*d)
				}
				for i := range v {
					v[i] = r.next()
				}
				g.Consts[name] = ints(dims, v...)
			case 3: // a float constant
				v := make([]float64, abs(r.next())%5)
				for i := range v {
					v[i] = float64(r.next()) / 4
				}
				g.Consts[name] = floats(v...)
			}
			n.Inputs = append(n.Inputs, name)
		}
		for i := range 1 + abs(r.next())%4 {
			n.Outputs = append(n.Outputs, "out"+string(rune('0'+i)))
		}
		for _, name := range []string{"axis", "keepdims", "blocksize", "num_outputs", "batch_dims", "k", "sample_size",
			"output_height", "exclusive", "noop_with_empty_axes", "dtype", "onesided", "batch_axis", "maxsplit"} {
			if v := r.next(); v%2 != 0 {
				n.Attrs = append(n.Attrs, attrInt(name, v/2))
			}
		}
		for _, name := range []string{"axes", "split", "pads", "shape", "ngram_indexes", "border", "pooled_shape"} {
			if v := r.next(); v%2 != 0 {
				a := attrInts(name)
				for range abs(v) % 5 {
					a.Ints = append(a.Ints, r.next()%8)
				}
				n.Attrs = append(n.Attrs, a)
			}
		}
		if v := r.next(); v%2 != 0 {
			n.Attrs = append(n.Attrs, attrFloats("scales", float64(v)/4, float64(r.next())/4))
		}
		modes := []string{"constant", "reflect", "edge", "wrap", "not_larger", "not_smaller"}
		if v := abs(r.next()); v%2 != 0 {
			n.Attrs = append(n.Attrs, attrString("mode", modes[v%6]), attrString("keep_aspect_ratio_policy", modes[(v/2)%6]))
		}
		g.Nodes = []graph.Node{n}
		checkSymbolicBound(t, g, map[string]int64{"A": 1 + abs(r.next())%6, "B": 1 + abs(r.next())%6, "C": 1 + abs(r.next())%6})
		res, err := graph.Infer(g, graph.Options{})
		if err != nil {
			t.Fatalf("Infer: %v", err)
		}
		nr := res.Nodes[0]
		for i, out := range nr.Outputs {
			if out == nil || out.Shape.RankDynamic {
				continue
			}
			for _, d := range out.Shape.Dims {
				if lo, _ := d.Bounds(); lo < 0 {
					t.Fatalf("%s-%d: output %d = %v, a dim below 0 (error %v)", n.Op, n.Version, i, out.Shape, nr.Err)
				}
			}
			if out.Value != nil {
				if vol, ok := out.Volume(); !ok || vol != int64(len(out.Value)) {
					t.Fatalf("%s-%d: output %d = %v with %d values", n.Op, n.Version, i, out.Shape, len(out.Value))
				}
			}
		}
	})
}
