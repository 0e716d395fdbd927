package check_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
)

// written returns what a model's graph and subgraphs declare, by "PATH KIND NAME" (PATH "" for
// the main graph, KIND in, out or vi): the notation of each shape, dim_params by name.
func written(t *testing.T, b []byte) map[string]string {
	t.Helper()
	m, err := onnx.DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var walk func(g *onnx.Graph, path string)
	walk = func(g *onnx.Graph, path string) {
		for kind, vis := range map[string][]onnx.ValueInfo{"in": g.Inputs, "out": g.Outputs, "vi": g.ValueInfo} {
			for _, vi := range vis {
				got[path+" "+kind+" "+vi.Name] = notation(vi)
			}
		}
		for i, n := range g.Nodes {
			name := n.Name
			if name == "" {
				name = n.OpType + "#" + string(rune('0'+i))
			}
			for _, a := range n.Attrs {
				if a.G != nil {
					walk(a.G, strings.TrimPrefix(path+"/"+name+"/"+a.Name, "/"))
				}
			}
		}
	}
	walk(&m.Graph, "")
	return got
}

// notation writes a value info's shape, a dim_param by its name.
func notation(vi onnx.ValueInfo) string {
	if vi.ElemType == onnx.Undefined {
		return "untyped"
	}
	if vi.Shape.RankDynamic {
		return "[...]"
	}
	dims := make([]string, len(vi.Shape.Dims))
	for i, d := range vi.Shape.Dims {
		switch {
		case d.IsStatic():
			dims[i] = d.String()
		case i < len(vi.DimParams) && vi.DimParams[i] != "":
			dims[i] = vi.DimParams[i]
		default:
			dims[i] = "?"
		}
	}
	return "[" + strings.Join(dims, ",") + "]"
}

// TestWithValueInfo writes the inferred shapes into models and reads them back: undeclared
// tensors are added to value_info, in subgraphs too; declared ones get the more precise dims; a
// wrong declaration gets the inferred shape; a graph output without a shape gets one; with
// bindings, the graph inputs get their bound shapes.
func TestWithValueInfo(t *testing.T) {
	models := filepath.Join("..", "testdata", "models")
	tests := []struct {
		model string
		opt   check.Options
		want  map[string]string // entries that must be written so
		count int               // entries in all, subgraphs included
	}{
		{"idioms.onnx", check.Options{}, map[string]string{
			" in x": "[N,3,H,W]", " vi shape": "[4]", " vi n": "[]", " vi rows": "[N,3,(H+1)//2,W]", " vi pattern2": "[3]",
			" out flat": "[N,3*H*W]", " out rows_flat": "[N,3,W*((H+1)//2)]",
		}, 11},
		{"idioms.onnx", check.Options{Dims: map[string]int64{"N": 2, "H": 5}}, map[string]string{
			" in x": "[2,3,5,W]", " vi rows": "[2,3,3,W]", " out flat": "[2,15*W]",
		}, 11},
		{"stale.onnx", check.Options{}, map[string]string{" vi r": "[N,2,3]", " out y": "[N,3,2]", " in x": "[N,2,3]"}, 3},
		{"seqfirst.onnx", check.Options{BatchSize: 4}, map[string]string{" in x": "[T,4,16]", " in s": "[4,8]", " out flat": "[4,16*T]"}, 9},
		{"control_flow.onnx", check.Options{}, map[string]string{"if_const/else_branch out if_const/else/Reshape_0_out": "[4*N*C]", "loop/body vi loop/Unsqueeze_0_out": "[1,4*C]"}, 110},
	}
	for _, tt := range tests {
		s, err := check.InferShapes(filepath.Join(models, tt.model), tt.opt)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.WithValueInfo(models)
		if err != nil {
			t.Fatalf("%s: %v", tt.model, err)
		}
		got := written(t, b)
		for k, w := range tt.want {
			if got[k] != w {
				t.Errorf("%s %+v: %q = %s, want %s", tt.model, tt.opt, k, got[k], w)
			}
		}
		sub := 0
		for k, v := range got {
			if v == "untyped" {
				t.Errorf("%s: %q written without a type", tt.model, k)
			}
			if !strings.HasPrefix(k, " ") {
				sub++
			}
		}
		if len(got) != tt.count || tt.model == "control_flow.onnx" && sub == 0 {
			t.Errorf("%s %+v: %d entries (%d in subgraphs), want %d: %v", tt.model, tt.opt, len(got), sub, tt.count, got)
		}
	}
}

// TestWithValueInfoExternal: a model whose tensors keep their values in a file beside it is
// written beside it, and refused elsewhere, where the file it names is not.
func TestWithValueInfoExternal(t *testing.T) {
	ext := filepath.Join("..", "testdata", "external")
	s, err := check.InferShapes(filepath.Join(ext, "model.onnx"), check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.WithValueInfo(ext); err != nil {
		t.Errorf("beside the model: %v", err)
	}
	_, err = s.WithValueInfo(t.TempDir())
	if !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), "the model keeps tensor values in the external data file shape.bin, named relative to its directory") {
		t.Errorf("elsewhere: %v", err)
	}
	// The data file beside the output, as a link to the same file: the references hold.
	dir := t.TempDir()
	abs, _ := filepath.Abs(filepath.Join(ext, "shape.bin"))
	if err := os.Symlink(abs, filepath.Join(dir, "shape.bin")); err != nil {
		t.Skip(err)
	}
	if _, err := s.WithValueInfo(dir); err != nil {
		t.Errorf("with the data file linked beside the output: %v", err)
	}
}

// TestWithValueInfoOptional: the value_info of an optional (Optional's output) is an optional of
// the tensor it may hold, and that of the strings StringConcat gives has the STRING type.
func TestWithValueInfoOptional(t *testing.T) {
	x := onnx.ValueInfo{Name: "x", ElemType: onnx.String, Shape: shape.Of(shape.Static(2))}
	path := writeModel(t, &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 20}}, Graph: onnx.Graph{
		Inputs: []onnx.ValueInfo{x},
		Nodes: []onnx.Node{
			{Name: "c", OpType: "StringConcat", Inputs: []string{"x", "x"}, Outputs: []string{"s"}},
			{Name: "o", OpType: "Optional", Inputs: []string{"s"}, Outputs: []string{"opt"}},
			{Name: "g", OpType: "OptionalGetElement", Inputs: []string{"opt"}, Outputs: []string{"y"}},
		},
		Outputs: []onnx.ValueInfo{{Name: "y", Shape: shape.DynamicRank()}},
	}})
	s, err := check.InferShapes(path, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.WithValueInfo(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	m, err := onnx.DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"s": false, "opt": true}
	for _, vi := range m.Graph.ValueInfo {
		if opt, ok := want[vi.Name]; !ok || vi.Optional != opt || vi.ElemType != onnx.String || vi.Shape.String() != "[2]" {
			t.Errorf("value_info %s: %v %v optional %v", vi.Name, vi.ElemType, vi.Shape, vi.Optional)
		}
		delete(want, vi.Name)
	}
	if len(want) != 0 {
		t.Errorf("no value_info for %v", want)
	}
}

// TestStaleMessage: a declaration for the input shapes the model was exported with is Stale under
// bindings that give other inputs, and its message says so without naming the command's flags.
func TestStaleMessage(t *testing.T) {
	s, err := check.InferShapes("../testdata/models/stale.onnx", check.Options{Inputs: map[string]string{"x": "[5,2,3]"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const want = "the model declares [N,3,2] for the input shapes it was exported with; with the bindings given the rules give [5,2,3], so the two are not compared"
	i := slices.IndexFunc(s.Tensors, func(x check.Tensor) bool { return x.Name == "r" })
	if i < 0 || s.Tensors[i].Verdict != check.Stale || s.Tensors[i].Message != want {
		t.Errorf("tensor r: %+v\nwant stale: %q", s.Tensors, want)
	}
}
