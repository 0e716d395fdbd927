package graph_test

import (
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
)

// mlNode returns a node of ai.onnx.ml at version v.
func mlNode(op string, v int64, inputs, outputs []string, attrs ...graph.Attr) graph.Node {
	return graph.Node{Name: op + "_0", Op: op, Domain: "ai.onnx.ml", Version: v, Inputs: inputs, Outputs: outputs, Attrs: attrs}
}

// mlCase is a node of ai.onnx.ml, its inputs (a shape, and an element type where not f32), and
// what its outputs are (type and shape in the notation of Info.TypeString, "i64[N]", or a
// sequence's "seq(map(i64,f32)) len N"), the constraints it records and its warnings
// (Result.Warnings, "PRED (ORIGIN)"), or its error.
type mlCase struct {
	name        string
	node        graph.Node
	inputs      map[string]string
	types       map[string]element.Type
	consts      map[string][]int64
	want        []string
	constraints []string
	warnings    []string
	wantErr     error
}

// valueString prints an output as mlCase.want does.
func valueString(in *graph.Info) string {
	if in.Seq != nil {
		return in.TypeString() + " len " + in.Seq.Len.String()
	}
	return in.TypeString() + in.Shape.String()
}

func checkML(t *testing.T, cases []mlCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := runNode(t, nodeCase{node: tc.node, inputs: tc.inputs, types: tc.types, consts: tc.consts})
			r := res.Nodes[len(res.Nodes)-1]
			if tc.wantErr != nil {
				if r.Err == nil || !errorsIs(r.Err, tc.wantErr) {
					t.Fatalf("error = %v, want %v", r.Err, tc.wantErr)
				}
				return
			}
			if r.Err != nil {
				t.Fatalf("error: %v", r.Err)
			}
			for i, want := range tc.want {
				if got := valueString(r.Outputs[i]); got != want {
					t.Errorf("output %d = %s, want %s", i, got, want)
				}
			}
			got, warned := []string{}, []string{}
			for _, c := range res.Constraints() {
				got = append(got, c.String())
			}
			for _, c := range res.Warnings() {
				warned = append(warned, c.Pred.Stated()+" ("+c.Origin.String()+")")
			}
			if strings.Join(got, "\n") != strings.Join(tc.constraints, "\n") {
				t.Errorf("constraints:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.constraints, "\n"))
			}
			if strings.Join(warned, "\n") != strings.Join(tc.warnings, "\n") {
				t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(warned, "\n"), strings.Join(tc.warnings, "\n"))
			}
		})
	}
}

func zeros(n int) []float64 { return make([]float64, n) }

// tree is a tree of two leaves whose root reads feature 2, in the attributes of ai.onnx.ml's
// TreeEnsembleClassifier and TreeEnsembleRegressor.
func tree(more ...graph.Attr) []graph.Attr {
	return append([]graph.Attr{attrInts("nodes_treeids", 0, 0, 0), attrInts("nodes_nodeids", 0, 1, 2), attrInts("nodes_featureids", 2, 0, 0),
		attrFloats("nodes_values", 0.5, 0, 0), attrStrings("nodes_modes", "BRANCH_LEQ", "LEAF", "LEAF"),
		attrInts("nodes_truenodeids", 1, 0, 0), attrInts("nodes_falsenodeids", 2, 0, 0)}, more...)
}

func TestMLRules(t *testing.T) {
	x, yz, y := []string{"x"}, []string{"y", "z"}, []string{"y"}
	nf := map[string]string{"x": "[N,F]"}
	checkML(t, []mlCase{
		{name: "LinearClassifier: 12 coefficients of 3 classes read 4 features",
			node: mlNode("LinearClassifier", 1, x, yz, attrFloats("coefficients", zeros(12)...), attrFloats("intercepts", 0, 0, 0),
				attrInts("classlabels_ints", 0, 1, 2)),
			inputs: nf, want: []string{"i64[N]", "f32[N,3]"},
			warnings: []string{"F == 4 (LinearClassifier_0 (LinearClassifier): reads its 12 coefficients as [3,F])"}},
		{name: "LinearClassifier: binary, string labels, one row",
			node: mlNode("LinearClassifier", 1, x, yz, attrFloats("coefficients", zeros(4)...), attrFloats("intercepts", 0),
				attrStrings("classlabels_strings", "no", "yes")),
			inputs: map[string]string{"x": "[4]"}, want: []string{"string[1]", "f32[1,2]"}},
		{name: "LinearClassifier: another feature count runs, with a warning",
			node:   mlNode("LinearClassifier", 1, x, yz, attrFloats("coefficients", zeros(12)...), attrFloats("intercepts", 0, 0, 0)),
			inputs: map[string]string{"x": "[N,5]"}, want: []string{"i64[N]", "f32[N,3]"},
			warnings: []string{"5 == 4 (LinearClassifier_0 (LinearClassifier): reads its 12 coefficients as [3,5])"}},
		{name: "LinearClassifier: 4 features, no warning",
			node:   mlNode("LinearClassifier", 1, x, yz, attrFloats("coefficients", zeros(12)...), attrFloats("intercepts", 0, 0, 0)),
			inputs: map[string]string{"x": "[N,4]"}, want: []string{"i64[N]", "f32[N,3]"}},
		{name: "LinearRegressor: 2 targets",
			node:   mlNode("LinearRegressor", 1, x, y, attrFloats("coefficients", zeros(8)...), attrInt("targets", 2)),
			inputs: nf, want: []string{"f32[N,2]"},
			warnings: []string{"F == 4 (LinearRegressor_0 (LinearRegressor): reads its 8 coefficients as [2,F])"}},
		{name: "Scaler: a scale for each feature",
			node:   mlNode("Scaler", 1, x, y, attrFloats("offset", 0, 0, 0, 0), attrFloats("scale", 1, 1, 1, 1)),
			inputs: nf, want: []string{"f32[N,4]"},
			constraints: []string{"F == 4 (Scaler_0 (Scaler): the features, one for each of the 4 offsets)"}},
		{name: "Scaler: one scale for all", node: mlNode("Scaler", 1, x, y, attrFloats("scale", 2)),
			inputs: map[string]string{"x": "[N,F,K]"}, types: map[string]element.Type{"x": element.I64}, want: []string{"f32[N,F,K]"}},
		{name: "Imputer", node: mlNode("Imputer", 1, x, y, attrFloats("imputed_value_floats", 1, 2, 3)),
			inputs: nf, want: []string{"f32[N,F]"},
			warnings: []string{"F == 3 (Imputer_0 (Imputer): imputes its 3 values, one a column, in the F columns of X)"}},
		{name: "Normalizer of rank 3", node: mlNode("Normalizer", 1, x, y), inputs: map[string]string{"x": "[2,3,4]"}, wantErr: errcode.ErrInvalidShape},
		{name: "Binarizer", node: mlNode("Binarizer", 1, x, y), inputs: nf, types: map[string]element.Type{"x": element.I32}, want: []string{"i32[N,F]"}},
		{name: "OneHotEncoder", node: mlNode("OneHotEncoder", 1, x, y, attrInts("cats_int64s", 1, 2, 3)),
			inputs: map[string]string{"x": "[N,1]"}, types: map[string]element.Type{"x": element.I64}, want: []string{"f32[N,1,3]"}},
		{name: "OneHotEncoder without categories", node: mlNode("OneHotEncoder", 1, x, y), inputs: nf, wantErr: errcode.ErrSyntax},
		{name: "LabelEncoder-2 strings to int64", node: mlNode("LabelEncoder", 2, x, y, attrStrings("keys_strings", "a", "b"), attrInts("values_int64s", 1, 2)),
			inputs: map[string]string{"x": "[N]"}, types: map[string]element.Type{"x": element.String}, want: []string{"i64[N]"}},
		{name: "LabelEncoder-2 string keys of int64", node: mlNode("LabelEncoder", 2, x, y, attrStrings("keys_strings", "a", "b"), attrInts("values_int64s", 1, 2)),
			inputs: map[string]string{"x": "[N]"}, types: map[string]element.Type{"x": element.I64}, wantErr: errcode.ErrDataType},
		{name: "LabelEncoder-2 int64 keys to strings", node: mlNode("LabelEncoder", 2, x, y, attrInts("keys_int64s", 1, 2), attrStrings("values_strings", "a", "b")),
			inputs: map[string]string{"x": "[N,2]"}, types: map[string]element.Type{"x": element.I64}, want: []string{"string[N,2]"}},
		{name: "LabelEncoder-1 int64 to strings", node: mlNode("LabelEncoder", 1, x, y, attrStrings("classes_strings", "a", "b")),
			inputs: map[string]string{"x": "[N]"}, types: map[string]element.Type{"x": element.I64}, want: []string{"string[N]"}},
		{name: "CategoryMapper", node: mlNode("CategoryMapper", 1, x, y, attrInts("cats_int64s", 1), attrStrings("cats_strings", "a")),
			inputs: map[string]string{"x": "[N,2]"}, types: map[string]element.Type{"x": element.String}, want: []string{"i64[N,2]"}},
		{name: "ArrayFeatureExtractor: columns within the features",
			node: mlNode("ArrayFeatureExtractor", 1, []string{"x", "i"}, y), inputs: nf, consts: map[string][]int64{"i": {0, 3}},
			want:        []string{"f32[N,2]"},
			constraints: []string{"F >= 4 (ArrayFeatureExtractor_0 (ArrayFeatureExtractor): the indices, at most 3, within the last axis)"}},
		{name: "ArrayFeatureExtractor of a row", node: mlNode("ArrayFeatureExtractor", 1, []string{"x", "i"}, y),
			inputs: map[string]string{"x": "[4]"}, consts: map[string][]int64{"i": {1}}, want: []string{"f32[1,1]"}},
		{name: "ArrayFeatureExtractor past the features", node: mlNode("ArrayFeatureExtractor", 1, []string{"x", "i"}, y),
			inputs: map[string]string{"x": "[N,4]"}, consts: map[string][]int64{"i": {4}}, wantErr: errcode.ErrInvalidShape},
		{name: "FeatureVectorizer", node: mlNode("FeatureVectorizer", 1, []string{"a", "b"}, y, attrInts("inputdimensions", 4, 2)),
			inputs: map[string]string{"a": "[N,4]", "b": "[M,3]"}, want: []string{"f32[N,6]"},
			constraints: []string{"N >= M (FeatureVectorizer_0 (FeatureVectorizer): input 1's rows, M, within the N rows of the output)"},
			warnings:    []string{"N == M (FeatureVectorizer_0 (FeatureVectorizer): copies the rows of input 1 (M) beside those of input 0 (N), zeros below)"}},
		{name: "FeatureVectorizer: more rows than input 0's overrun the output",
			node:   mlNode("FeatureVectorizer", 1, []string{"a", "b"}, y, attrInts("inputdimensions", 4, 2)),
			inputs: map[string]string{"a": "[2,4]", "b": "[3,3]"}, wantErr: errcode.ErrInvalidShape},
		{name: "ZipMap: a map a row", node: mlNode("ZipMap", 1, x, y, attrInts("classlabels_int64s", 0, 1, 2)),
			inputs: nf, want: []string{"seq(map(i64,f32)) len N"},
			constraints: []string{"F == 3 (ZipMap_0 (ZipMap): the scores, one for each of the 3 class labels)"}},
		{name: "ZipMap: string labels, one row", node: mlNode("ZipMap", 1, x, y, attrStrings("classlabels_strings", "a", "b")),
			inputs: map[string]string{"x": "[2]"}, want: []string{"seq(map(string,f32)) len 1"}},
		{name: "ZipMap of rank 3", node: mlNode("ZipMap", 1, x, y, attrInts("classlabels_int64s", 0)), inputs: map[string]string{"x": "[1,1,1]"},
			wantErr: errcode.ErrInvalidShape},
		{name: "SVMClassifier: 3 classes of 2 support vectors of 4 features",
			node: mlNode("SVMClassifier", 1, x, yz, attrInts("classlabels_ints", 0, 1, 2), attrFloats("coefficients", zeros(12)...),
				attrFloats("support_vectors", zeros(24)...), attrInts("vectors_per_class", 2, 2, 2), attrString("kernel_type", "RBF")),
			inputs: nf, want: []string{"i64[N]", "f32[N,3]"},
			warnings: []string{"F == 4 (SVMClassifier_0 (SVMClassifier): reads its 24 support_vectors as [6,F])"}},
		{name: "SVMClassifier: 4 classes give their 6 pairwise votes",
			node: mlNode("SVMClassifier", 1, x, yz, attrInts("classlabels_ints", 0, 1, 2, 3), attrFloats("coefficients", zeros(12)...),
				attrFloats("support_vectors", zeros(16)...), attrInts("vectors_per_class", 1, 1, 1, 1), attrString("kernel_type", "RBF")),
			inputs: nf, want: []string{"i64[N]", "f32[N,6]"},
			warnings: []string{"F == 4 (SVMClassifier_0 (SVMClassifier): reads its 16 support_vectors as [4,F])"}},
		{name: "SVMClassifier: 4 classes with probabilities",
			node: mlNode("SVMClassifier", 1, x, yz, attrInts("classlabels_ints", 0, 1, 2, 3), attrFloats("coefficients", zeros(12)...),
				attrFloats("support_vectors", zeros(16)...), attrInts("vectors_per_class", 1, 1, 1, 1), attrString("kernel_type", "RBF"),
				attrFloats("prob_a", zeros(6)...), attrFloats("prob_b", zeros(6)...)),
			inputs: nf, want: []string{"i64[N]", "f32[N,4]"},
			warnings: []string{"F == 4 (SVMClassifier_0 (SVMClassifier): reads its 16 support_vectors as [4,F])"}},
		{name: "SVMClassifier: two classes give two scores",
			node: mlNode("SVMClassifier", 1, x, yz, attrInts("classlabels_ints", 0, 1), attrFloats("coefficients", zeros(3)...),
				attrFloats("support_vectors", zeros(6)...), attrInts("vectors_per_class", 2, 1), attrString("kernel_type", "RBF")),
			inputs: nf, want: []string{"i64[N]", "f32[N,2]"},
			warnings: []string{"F == 2 (SVMClassifier_0 (SVMClassifier): reads its 6 support_vectors as [3,F])"}},
		{name: "SVMRegressor: linear", node: mlNode("SVMRegressor", 1, x, y, attrFloats("coefficients", zeros(5)...), attrString("kernel_type", "LINEAR")),
			inputs: nf, want: []string{"f32[N,1]"},
			constraints: []string{"F == 5 (SVMRegressor_0 (SVMRegressor): the features, 5 by the 5 coefficients)"}},
		{name: "TreeEnsembleClassifier-3: branches read feature 2",
			node: mlNode("TreeEnsembleClassifier", 3, x, yz, tree(attrInts("classlabels_int64s", 0, 1, 2), attrInts("class_treeids", 0, 0),
				attrInts("class_nodeids", 1, 2), attrInts("class_ids", 0, 2), attrFloats("class_weights", 1, 2))...),
			inputs: nf, want: []string{"i64[N]", "f32[N,3]"},
			constraints: []string{"F >= 3 (TreeEnsembleClassifier_0 (TreeEnsembleClassifier): feature 2, the largest a branch reads, within the features)"}},
		{name: "TreeEnsembleClassifier: a vote for a class it does not have",
			node: mlNode("TreeEnsembleClassifier", 1, x, yz, tree(attrInts("classlabels_int64s", 0, 1), attrInts("class_treeids", 0, 0),
				attrInts("class_nodeids", 1, 2), attrInts("class_ids", 0, 2), attrFloats("class_weights", 1, 2))...),
			inputs: nf, wantErr: errcode.ErrSyntax},
		{name: "TreeEnsembleClassifier-5 is deprecated", node: mlNode("TreeEnsembleClassifier", 5, x, yz, tree(attrInts("classlabels_int64s", 0))...),
			inputs: nf, wantErr: errcode.ErrSyntax},
		{name: "TreeEnsembleRegressor: a 1-D input is one feature a row",
			node: mlNode("TreeEnsembleRegressor", 1, x, y, tree(attrInt("n_targets", 2), attrInts("target_treeids", 0, 0),
				attrInts("target_nodeids", 1, 2), attrInts("target_ids", 0, 1), attrFloats("target_weights", 1, 2))...),
			inputs: map[string]string{"x": "[N]"}, wantErr: errcode.ErrInvalidShape},
		{name: "TreeEnsembleRegressor: a branch to no node",
			node: mlNode("TreeEnsembleRegressor", 1, x, y, append(tree(attrInt("n_targets", 1))[:5], attrInts("nodes_truenodeids", 5, 0, 0),
				attrInts("nodes_falsenodeids", 2, 0, 0))...),
			inputs: nf, wantErr: errcode.ErrSyntax},
		// FuzzInferONNX 283ae9b9213e09dd: nodes_treeids left out indexed an empty list.
		{name: "TreeEnsembleRegressor: no nodes_treeids",
			node:   mlNode("TreeEnsembleRegressor", 1, x, y, tree(attrInt("n_targets", 1))[1:]...),
			inputs: nf, wantErr: errcode.ErrSyntax},
		{name: "TreeEnsemble-5",
			node: mlNode("TreeEnsemble", 5, x, y, attrInt("n_targets", 2), attrInts("tree_roots", 0), attrInts("nodes_featureids", 3),
				attrInts("nodes_truenodeids", 0), attrInts("nodes_trueleafs", 1), attrInts("nodes_falsenodeids", 1), attrInts("nodes_falseleafs", 1),
				attrInts("leaf_targetids", 0, 1)),
			inputs: map[string]string{"x": "[N,F]"}, types: map[string]element.Type{"x": element.F64}, want: []string{"f64[N,2]"},
			constraints: []string{"F >= 4 (TreeEnsemble_0 (TreeEnsemble): feature 3, the largest a branch reads, within the features)"}},
		{name: "TreeEnsemble-5: a leaf for a target it does not have",
			node: mlNode("TreeEnsemble", 5, x, y, attrInt("n_targets", 1), attrInts("tree_roots", 0), attrInts("nodes_featureids", 0),
				attrInts("nodes_truenodeids", 0), attrInts("nodes_trueleafs", 1), attrInts("nodes_falsenodeids", 1), attrInts("nodes_falseleafs", 1),
				attrInts("leaf_targetids", 0, 1)),
			inputs: nf, wantErr: errcode.ErrSyntax},
		{name: "CastMap sparse", node: mlNode("CastMap", 1, x, y, attrString("map_form", "SPARSE"), attrInt("max_map", 7), attrString("cast_to", "TO_INT64")),
			inputs: map[string]string{"x": "[...]"}, want: []string{"i64[1,7]"}},
		{name: "DictVectorizer", node: mlNode("DictVectorizer", 1, x, y, attrStrings("string_vocabulary", "a", "b", "c")),
			inputs: map[string]string{"x": "[...]"}, want: []string{"undefined[1,3]"}},
	})
}

// TestMLMaps infers maps as onnxruntime holds them: ZipMap's rows and a declared map input have
// scalar values, so that a model of maps is complete; a sequence operator refuses ZipMap's sequence
// of maps at load (every sequence operator takes sequences of tensors), as onnxruntime does.
func TestMLMaps(t *testing.T) {
	x := graph.Input{Name: "x", Decl: graph.Decl{Type: element.F32, Rank: 2, Dims: []graph.DeclDim{graph.NamedDim("N"), graph.StaticDim(3)}}}
	m := graph.Input{Name: "m", Decl: graph.Decl{Rank: -1, Key: element.I64, Map: &graph.Decl{Type: element.F32, Rank: -1}}}
	zip := mlNode("ZipMap", 1, []string{"x"}, []string{"z"}, attrInts("classlabels_int64s", 1, 2, 3))
	at := graph.Node{Name: "at", Op: "SequenceAt", Version: 17, Inputs: []string{"z", "i"}, Outputs: []string{"row"}}
	dv := mlNode("DictVectorizer", 1, []string{"m"}, []string{"y"}, attrInts("int64_vocabulary", 1, 2, 3, 4))
	cm := graph.Node{Name: "cast", Op: "CastMap", Domain: "ai.onnx.ml", Version: 1, Inputs: []string{"m"}, Outputs: []string{"c"},
		Attrs: []graph.Attr{attrString("map_form", "SPARSE"), attrInt("max_map", 5)}}
	for _, tc := range []struct {
		name     string
		inputs   []graph.Input
		nodes    []graph.Node
		want     map[string]string
		typeErr  string
		complete bool
	}{
		{"ZipMap's rows", []graph.Input{x}, []graph.Node{zip}, map[string]string{"z": "seq(map(i64,f32)) len N"}, "", true},
		{"a map input vectorized and cast", []graph.Input{m}, []graph.Node{dv, cm}, map[string]string{"y": "f32[1,4]", "c": "f32[1,5]"}, "", true},
		{"SequenceAt of ZipMap's rows", []graph.Input{x}, []graph.Node{zip, at}, nil, "at", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &graph.Graph{Inputs: tc.inputs, Nodes: tc.nodes, Declared: map[string]graph.Decl{},
				Consts: map[string]*graph.Const{"i": {Name: "i", Type: element.I64, Dims: []int64{},
					Load: func(int64) ([]int64, []float64, error) { return []int64{0}, nil, nil }}}}
			res, err := graph.Infer(g, graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range tc.want {
				if got := valueString(res.Tensor(name)); got != want {
					t.Errorf("%s = %s, want %s", name, got, want)
				}
			}
			typeErr := ""
			for _, r := range res.Nodes {
				if r.TypeErr != nil && typeErr == "" {
					typeErr = r.Path
					if !errorsIs(r.TypeErr, errcode.ErrDataType) {
						t.Errorf("%s: %v, want a data-type error", r.Path, r.TypeErr)
					}
				}
			}
			if typeErr != tc.typeErr {
				t.Errorf("the first type error is at %q, want %q", typeErr, tc.typeErr)
			}
			if res.Complete() != tc.complete {
				t.Errorf("Complete() = %v, want %v (lost %v)", res.Complete(), tc.complete, res.Lost())
			}
		})
	}
}
