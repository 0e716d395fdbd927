package check_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

func ints(t *testing.T, name string, values ...int64) onnx.Tensor {
	t.Helper()
	x, err := tensor.FromSlice(values)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := onnx.NewTensor(name, x)
	if err != nil {
		t.Fatal(err)
	}
	return pb
}

func vi(name string, s string) onnx.ValueInfo {
	p, err := shape.Parse(s)
	if err != nil {
		panic(err)
	}
	return onnx.ValueInfo{Name: name, ElemType: onnx.Float, Shape: p}
}

func writeModel(t *testing.T, m *onnx.Model) string {
	t.Helper()
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func reshapeNode(inputs []string, attrs ...onnx.Attribute) onnx.Node {
	return onnx.Node{Name: "r", OpType: "Reshape", Inputs: inputs, Outputs: []string{"y"}, Attrs: attrs}
}

func TestONNXFixtures(t *testing.T) {
	allowZero := onnx.Attribute{Name: "allowzero", Type: onnx.AttrInt, I: 1}
	model := func(opset int64, g onnx.Graph) *onnx.Model {
		return &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: opset}}, Graph: g}
	}
	tests := []struct {
		name               string
		m                  *onnx.Model
		op, input, pattern string
		source             check.PatternSource
		out                string
		verdict            check.Verdict
	}{
		{"Reshape-1 shape attribute", model(1, onnx.Graph{
			Nodes:   []onnx.Node{{Name: "r", OpType: "Reshape", Inputs: []string{"x"}, Outputs: []string{"y"}, Attrs: []onnx.Attribute{{Name: "shape", Type: onnx.AttrInts, Ints: []int64{0, -1}}}}},
			Inputs:  []onnx.ValueInfo{vi("x", "[2,3,4]")},
			Outputs: []onnx.ValueInfo{vi("y", "[2,12]")},
		}), "Reshape-1", "[2,3,4]", "[0,-1]", check.PatternConst, "[2,12]", check.OK},
		{"Reshape-5 initializer", model(5, onnx.Graph{
			Nodes: []onnx.Node{reshapeNode([]string{"x", "s"})}, Initializers: []onnx.Tensor{ints(t, "s", 4, -1)},
			Inputs: []onnx.ValueInfo{vi("x", "[2,3,4]")}, Outputs: []onnx.ValueInfo{vi("y", "[4,6]")},
		}), "Reshape-5", "[2,3,4]", "[4,-1]", check.PatternConst, "[4,6]", check.OK},
		{"Reshape-13 symbolic dims", model(13, onnx.Graph{
			Nodes: []onnx.Node{reshapeNode([]string{"x", "s"})}, Initializers: []onnx.Tensor{ints(t, "s", 0, -1)},
			Inputs: []onnx.ValueInfo{vi("x", "[?,3,4]")}, Outputs: []onnx.ValueInfo{vi("y", "[?,12]")},
		}), "Reshape-13", "[x:0,3,4]", "[0,-1]", check.PatternConst, "[x:0,12]", check.OK},
		{"Reshape-14 allowzero=1", model(14, onnx.Graph{
			Nodes: []onnx.Node{reshapeNode([]string{"x", "s"}, allowZero)}, Initializers: []onnx.Tensor{ints(t, "s", 3, 4, 0)},
			Inputs: []onnx.ValueInfo{vi("x", "[0,3,4]")}, Outputs: []onnx.ValueInfo{vi("y", "[3,4,0]")},
		}), "Reshape-14", "[0,3,4]", "[3,4,0]", check.PatternConst, "[3,4,0]", check.OK},
		{"Reshape-14 allowzero=0 mismatch", model(14, onnx.Graph{
			Nodes: []onnx.Node{reshapeNode([]string{"x", "s"})}, Initializers: []onnx.Tensor{ints(t, "s", 2, 0, 4)},
			Inputs: []onnx.ValueInfo{vi("x", "[2,3,4]")}, Outputs: []onnx.ValueInfo{vi("y", "[2,0,4]")},
		}), "Reshape-14", "[2,3,4]", "[2,0,4]", check.PatternConst, "[2,3,4]", check.Mismatch},
		{"Reshape-14 allowzero=1 zero and -1", model(14, onnx.Graph{
			Nodes: []onnx.Node{reshapeNode([]string{"x", "s"}, allowZero)}, Initializers: []onnx.Tensor{ints(t, "s", 0, -1)},
			Inputs: []onnx.ValueInfo{vi("x", "[0,3]")},
		}), "Reshape-14", "[0,3]", "[0,-1]", check.PatternConst, "", "ambiguous-inferred"},
		{"Constant node pattern", model(14, onnx.Graph{
			Nodes: []onnx.Node{
				{Name: "c", OpType: "Constant", Outputs: []string{"s"}, Attrs: []onnx.Attribute{{Name: "value_ints", Type: onnx.AttrInts, Ints: []int64{-1}}}},
				reshapeNode([]string{"x", "s"}),
			},
			Inputs: []onnx.ValueInfo{vi("x", "[2,3,4]")}, Outputs: []onnx.ValueInfo{vi("y", "[24]")},
		}), "Reshape-14", "[2,3,4]", "[-1]", check.PatternConst, "[24]", check.OK},
		{"Shape Gather Unsqueeze Concat idiom", model(13, onnx.Graph{
			Nodes: []onnx.Node{
				{Name: "shape", OpType: "Shape", Inputs: []string{"x"}, Outputs: []string{"sx"}},
				{Name: "gather", OpType: "Gather", Inputs: []string{"sx", "zero"}, Outputs: []string{"n"}, Attrs: []onnx.Attribute{{Name: "axis", Type: onnx.AttrInt, I: 0}}},
				{Name: "unsqueeze", OpType: "Unsqueeze", Inputs: []string{"n", "axes"}, Outputs: []string{"n1"}},
				{Name: "concat", OpType: "Concat", Inputs: []string{"n1", "minus1"}, Outputs: []string{"s"}, Attrs: []onnx.Attribute{{Name: "axis", Type: onnx.AttrInt, I: 0}}},
				reshapeNode([]string{"x", "s"}),
			},
			Initializers: []onnx.Tensor{scalarInt(t, "zero", 0), ints(t, "axes", 0), ints(t, "minus1", -1)},
			Inputs:       []onnx.ValueInfo{vi("x", "[?,3,224,224]")}, Outputs: []onnx.ValueInfo{vi("y", "[?,150528]")},
		}), "Reshape-13", "[x:0,3,224,224]", "[x:0,-1]", check.PatternComputed, "[x:0,150528]", check.OK},
		{"static Shape idiom", model(13, onnx.Graph{
			Nodes: []onnx.Node{
				{Name: "shape", OpType: "Shape", Inputs: []string{"x"}, Outputs: []string{"sx"}},
				{Name: "slice", OpType: "Slice", Inputs: []string{"sx", "start", "end"}, Outputs: []string{"head"}},
				{Name: "concat", OpType: "Concat", Inputs: []string{"head", "minus1"}, Outputs: []string{"s"}, Attrs: []onnx.Attribute{{Name: "axis", Type: onnx.AttrInt, I: 0}}},
				reshapeNode([]string{"x", "s"}),
			},
			Initializers: []onnx.Tensor{ints(t, "start", 0), ints(t, "end", 1), ints(t, "minus1", -1)},
			Inputs:       []onnx.ValueInfo{vi("x", "[8,3,4]")}, Outputs: []onnx.ValueInfo{vi("y", "[8,12]")},
		}), "Reshape-13", "[8,3,4]", "[8,-1]", check.PatternComputed, "[8,12]", check.OK},
		{"pattern from a graph input", model(14, onnx.Graph{
			Nodes:  []onnx.Node{reshapeNode([]string{"x", "s"})},
			Inputs: []onnx.ValueInfo{vi("x", "[2,3,4]"), {Name: "s", ElemType: onnx.Int64, Shape: shape.OfInts(3)}},
		}), "Reshape-14", "[2,3,4]", "-", check.PatternUnknown, "[?,?,?]", check.Inferred},
		{"pattern of unknown length: nothing to compare", model(14, onnx.Graph{
			Nodes:   []onnx.Node{reshapeNode([]string{"x", "s"})},
			Inputs:  []onnx.ValueInfo{vi("x", "[2,3,4]"), {Name: "s", ElemType: onnx.Int64, Shape: shape.Of(shape.Dynamic)}},
			Outputs: []onnx.ValueInfo{vi("y", "[2,12]")},
		}), "Reshape-14", "[2,3,4]", "-", check.PatternUnknown, "[...]", check.Inferred},
		{"pattern from a graph input, declared volume differs", model(14, onnx.Graph{
			Nodes:   []onnx.Node{reshapeNode([]string{"x", "s"})},
			Inputs:  []onnx.ValueInfo{vi("x", "[2,3,4]"), {Name: "s", ElemType: onnx.Int64, Shape: shape.OfInts(2)}},
			Outputs: []onnx.ValueInfo{vi("y", "[5,5]")},
		}), "Reshape-14", "[2,3,4]", "-", check.PatternUnknown, "[?,?]", check.Mismatch},
	}
	for _, tt := range tests {
		rep, err := check.File(writeModel(t, tt.m), check.Options{})
		rows := rowsOf(rep)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if len(rows) != 1 {
			t.Errorf("%s: %d rows", tt.name, len(rows))
			continue
		}
		r := rows[0]
		inferred := ""
		if r.Inferred != nil {
			inferred = r.Inferred.String()
		}
		if r.Op != tt.op || r.Dialect.String() != "onnx" || r.Input.String() != tt.input || r.Pattern.String() != tt.pattern ||
			r.PatternSource != tt.source || inferred != tt.out || r.Verdict != tt.verdict {
			t.Errorf("%s: row %s %s %s %s %s %s %s (%s)\nwant %s %s %s %s %s %s", tt.name, r.Op, r.Input, r.Pattern, r.PatternSource, inferred, r.Verdict, r.Message, r.Dialect,
				tt.op, tt.input, tt.pattern, tt.source, tt.out, tt.verdict)
		}
		if m := r.Message; strings.HasSuffix(m, ";") || strings.HasSuffix(m, " ") || strings.HasPrefix(m, ";") || strings.Contains(m, "; ;") {
			t.Errorf("%s: message %q: a part of it is empty", tt.name, m)
		}
	}
}

func scalarInt(t *testing.T, name string, v int64) onnx.Tensor {
	x, _ := tensor.FromSlice([]int64{v}, []int64{}...)
	pb, err := onnx.NewTensor(name, x)
	if err != nil {
		t.Fatal(err)
	}
	return pb
}

func TestONNXErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.onnx")
	os.WriteFile(path, []byte{0x08, 0x80}, 0o644)
	if _, err := check.File(path, check.Options{}); err == nil || !strings.Contains(err.Error(), "truncated varint") {
		t.Errorf("truncated model: %v", err)
	}
	noOpset := writeModel(t, &onnx.Model{IRVersion: 8, Graph: onnx.Graph{Nodes: []onnx.Node{reshapeNode([]string{"x", "s"})}}})
	if _, err := check.File(noOpset, check.Options{}); err == nil || !strings.Contains(err.Error(), "imports no opset") {
		t.Errorf("no opset: %v", err)
	}
	inputs := []onnx.ValueInfo{{Name: "x", Shape: shape.DynamicRank()}, {Name: "s", Shape: shape.DynamicRank()}}
	old := writeModel(t, &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 13}}, Graph: onnx.Graph{Inputs: inputs,
		Nodes: []onnx.Node{reshapeNode([]string{"x", "s"}, onnx.Attribute{Name: "allowzero", Type: onnx.AttrInt, I: 1})}}})
	if _, err := check.File(old, check.Options{}); err == nil || !strings.Contains(err.Error(), `node 0 ("r", Reshape): allowzero is an attribute of Reshape-14`) {
		t.Errorf("allowzero in opset 13: %v", err)
	}
	two := writeModel(t, &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 14}}, Graph: onnx.Graph{Inputs: inputs,
		Nodes: []onnx.Node{reshapeNode([]string{"x", "s"}, onnx.Attribute{Name: "allowzero", Type: onnx.AttrInt, I: 2})}}})
	if _, err := check.File(two, check.Options{}); err == nil || !strings.Contains(err.Error(), `node 0 ("r", Reshape): allowzero=2: want 0 or 1`) {
		t.Errorf("allowzero=2: %v", err)
	}
}

// TestONNXBackendModels checks the model.onnx of the ONNX backend Reshape tests.
func TestONNXBackendModels(t *testing.T) {
	dir := testenv.Shared(t, "conformance/onnx")
	dirs, _ := filepath.Glob(filepath.Join(dir, "test_reshape_*"))
	if len(dirs) == 0 {
		t.Fatalf("no ONNX backend test of Reshape in %s", dir)
	}
	for _, d := range dirs {
		rep, err := check.File(filepath.Join(d, "model.onnx"), check.Options{})
		rows := rowsOf(rep)
		if err != nil || len(rows) != 1 || rows[0].Verdict != check.OK || rows[0].PatternSource != check.PatternUnknown {
			t.Errorf("%s: %v %+v", d, err, rows)
		}
	}
}

// TestONNXExternalData checks a model whose shape constant is stored as external data beside it,
// and whose weights file is missing: the constant is read, the weights are not.
func TestONNXExternalData(t *testing.T) {
	rep, err := check.File("../testdata/external/model.onnx", check.Options{})
	rows := rowsOf(rep)
	if err != nil || len(rows) != 1 || rows[0].Verdict != check.OK || rows[0].Pattern.String() != "[4,-1]" || rows[0].PatternSource != check.PatternConst {
		t.Fatalf("model.onnx: %v %+v", err, rows)
	}
	if _, err := check.File("../testdata/external/escape.onnx", check.Options{}); err == nil || !strings.Contains(err.Error(), `constant "shape": tensor "shape": external data location "../shape.bin" is outside the model's directory`) {
		t.Errorf("escape.onnx: %v", err)
	}
}

// rowsOf returns the rows of a report, none for a nil one.
func rowsOf(rep *check.Report) []check.Row {
	if rep == nil {
		return nil
	}
	return rep.Rows
}

// TestTypeErrorRows checks the rows of nodes whose input types their operator does not take
// (graph.NodeResult.TypeErr): an error row at the node, with its code, where the node is in the
// branch of an If a constant condition leaves out and in a Loop body too (onnxruntime refuses such
// a model at load), and none on the twins that load. The models are bench/types/fixtures.py's.
func TestTypeErrorRows(t *testing.T) {
	for _, tt := range []struct {
		file, name string
		verdict    check.Verdict
		message    string
	}{
		{"sqrt_i64", "sqrt", "data-type", `input 0 ("c") is i64: Sqrt-13 takes f16, bf16, f32 or f64 for X (type constraint T)`},
		{"if_not_taken", "branch/else_branch/e_sigmoid", "data-type", `input 0 ("ec") is i64: Sigmoid-13 takes`},
		{"loop_erf", "loop/body/erf", "no-kernel", `which Erf-13 allows for input, and onnxruntime 1.20.1 has no CPU kernel for it`},
		{"concat_mixed", "concat", "data-type", `input 0 ("x") is f32 and input 1 ("xh") is f16: Concat-13 takes one type (type constraint T) for every one of inputs`},
		{"neg_i16_twin", "", "", ""},
		{"if_not_taken_twin", "", "", ""},
	} {
		rep, err := check.File(filepath.Join("..", "graph", "testdata", "types", tt.file+".onnx"), check.Options{})
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		var errs []check.Row
		for _, r := range rowsOf(rep) {
			if r.Verdict != check.OK && r.Verdict != check.Inferred {
				errs = append(errs, r)
			}
		}
		switch {
		case tt.name == "" && len(errs) > 0:
			t.Errorf("%s: loads, and has the row %s %s: %s", tt.file, errs[0].Name, errs[0].Verdict, errs[0].Message)
		case tt.name != "" && (len(errs) != 1 || errs[0].Name != tt.name || errs[0].Verdict != tt.verdict ||
			!strings.Contains(errs[0].Message, tt.message)):
			t.Errorf("%s: rows %+v, want one %s row at %s saying %q", tt.file, errs, tt.verdict, tt.name, tt.message)
		}
	}
}
