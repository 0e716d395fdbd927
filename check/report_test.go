package check_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/tensor"
)

var models = filepath.Join("..", "testdata", "models")

// TestReportConstraints: a report states the model's constraints with their nodes, says at which
// bindings it runs, and a binding that breaks a constraint is an error at the node that imposes it.
func TestReportConstraints(t *testing.T) {
	tests := []struct {
		model       string
		dims        map[string]int64
		constraints string // "PRED @ NODE (OP): WHY [FIXES]; ..."
		valid       check.Validity
		symbols     string
		errors      string // "NAME VERDICT: MESSAGE" of each error row
	}{
		{"flat_matmul.onnx", nil, "N == 1 @ /MatMul (MatMul): the inner dims (A's last, B's second to last) [N]",
			"when constraints hold", "N", ""},
		{"flat_matmul.onnx", map[string]int64{"N": 1}, "", "always", "", ""},
		{"flat_matmul.onnx", map[string]int64{"N": 2}, "", "never", "",
			"/MatMul invalid-shape: the inner dims (A's last, B's second to last): N == 1 does not hold at N=2 (96 and 48 cannot be equal)"},
		{"idioms.onnx", nil, "", "always", "N H W", ""},
		{"idioms.onnx", map[string]int64{"N": 2}, "", "always", "H W", ""},
	}
	for _, tt := range tests {
		rep, err := check.File(filepath.Join(models, tt.model), check.Options{Dims: tt.dims})
		if err != nil {
			t.Errorf("%s %v: %v", tt.model, tt.dims, err)
			continue
		}
		var cs, errs []string
		for _, c := range rep.Constraints {
			cs = append(cs, fmt.Sprintf("%s @ %s (%s): %s %v", c.Holds, c.Node, c.Op, c.Why, c.Fixes))
		}
		for _, r := range rep.Rows {
			if r.Verdict.IsError() {
				errs = append(errs, r.Name+" "+string(r.Verdict)+": "+r.Message)
			}
		}
		if got := strings.Join(cs, "; "); got != tt.constraints || rep.Valid() != tt.valid || strings.Join(rep.Symbols, " ") != tt.symbols || strings.Join(errs, "; ") != tt.errors {
			t.Errorf("%s %v:\nconstraints %q\nvalid %q, symbols %v\nerrors %q\nwant %q, %q, %q, %q", tt.model, tt.dims, got, rep.Valid(), rep.Symbols, errs,
				tt.constraints, tt.valid, tt.symbols, tt.errors)
		}
	}
}

// TestHonestVerdicts: a declaration is ok only when it is the inferred shape at every binding that
// satisfies the constraints; otherwise the message says when the two are equal.
func TestHonestVerdicts(t *testing.T) {
	rep, err := check.File(filepath.Join(models, "detr_queries.onnx"), check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(rep.Rows, func(r check.Row) bool { return r.Name == "/Reshape_2" })
	if i < 0 || rep.Rows[i].Verdict != check.Mismatch ||
		!strings.HasPrefix(rep.Rows[i].Message, "the model declares [N,N,Reshapeboxes_dim_2], the rules give [N,10,4]: equal only when N == 10;") {
		t.Errorf("DETR's pred_boxes: %+v", rep.Rows)
	}
	// At N = 10 the declaration is the inferred shape.
	if rep, err := check.File(filepath.Join(models, "detr_queries.onnx"), check.Options{Dims: map[string]int64{"N": 10}}); err != nil ||
		check.Summarize([]*check.Report{rep}).Mismatch != 0 {
		t.Errorf("DETR at N=10: %v %+v", err, rep)
	}
	tests := []struct {
		model, tensor string
		verdict       check.Verdict
		message       string
	}{
		{"baked.onnx", "y", check.OK, ""}, // [N,10] is [1,10] wherever it runs: its flatten's volume needs N == 1
		{"detr_queries.onnx", "boxes", check.Mismatch, "the model declares [N,N,Reshapeboxes_dim_2], the rules give [N,10,4]: equal only when N == 10"},
		{"flat_matmul.onnx", "y", check.OK, ""}, // [MatMuly_dim_0,5]: a name only the declaration uses
		{"idioms.onnx", "rows_flat", check.OK, ""},
		// [T,B,16] is [10,2,16] wherever it runs: its conditions together fix T and B (T == 10, and
		// B == 2 from the volume of a Reshape), which no one of them does on the solver's own.
		{"mha_enc.onnx", "y", check.OK, ""},
	}
	for _, tt := range tests {
		s, err := check.InferShapes(filepath.Join(models, tt.model), check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(s.Tensors, func(x check.Tensor) bool { return x.Name == tt.tensor })
		if i < 0 {
			t.Fatalf("%s: no tensor %s", tt.model, tt.tensor)
		}
		if s.Tensors[i].Verdict != tt.verdict || s.Tensors[i].Message != tt.message {
			t.Errorf("%s: %s: %+v; want %s %q", tt.model, tt.tensor, s.Tensors[i], tt.verdict, tt.message)
		}
		s.Close()
	}
}

// TestFixedDeclaration: a model whose constraint fixes N declares [N,3] for an output inference
// gives as [1,3]: ok, since the two are equal wherever the model runs (N == 1).
func TestFixedDeclaration(t *testing.T) {
	x, z := vi("x", "[?,4]"), vi("z", "[?,3]")
	x.DimParams, z.DimParams = []string{"N", ""}, []string{"N", ""}
	path := writeModel(t, &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 14}}, Graph: onnx.Graph{
		Nodes:        []onnx.Node{reshapeNode([]string{"x", "s"}), {Name: "m", OpType: "MatMul", Inputs: []string{"y", "w"}, Outputs: []string{"z"}}},
		Initializers: []onnx.Tensor{ints(t, "s", 1, -1)},
		Inputs:       []onnx.ValueInfo{x, vi("w", "[4,3]")},
		Outputs:      []onnx.ValueInfo{z},
	}})
	s, err := check.InferShapes(path, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(s.Constraints) != 1 || s.Constraints[0].Holds.String() != "N == 1" || s.Constraints[0].Node != "m" || s.Valid() != "when constraints hold" {
		t.Fatalf("constraints %+v, valid %q", s.Constraints, s.Valid())
	}
	if z := s.Tensors[len(s.Tensors)-1]; z.Name != "z" || z.Shape.String() != "[1,3]" || z.Verdict != check.OK {
		t.Errorf("z: %+v", z)
	}
	b, err := json.Marshal(s.Constraints[0])
	if err != nil || string(b) != `{"holds":"N == 1","node":"m","op":"MatMul","why":"the inner dims (A's last, B's second to last)","fixes":["N"],"seq":1,"file":"`+path+`"}` {
		t.Errorf("JSON %s, %v", b, err)
	}
}

// TestSummarizeConstraints: the summary gathers the constraints of every report, counts those that
// fix a symbol, and says at which bindings the models run: never over when, when over always.
func TestSummarizeConstraints(t *testing.T) {
	open := func(model string, dims map[string]int64) *check.Report {
		rep, err := check.File(filepath.Join(models, model), check.Options{Dims: dims, SharedBindings: true})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	idioms, fixed, broken := open("idioms.onnx", nil), open("flat_matmul.onnx", nil), open("flat_matmul.onnx", map[string]int64{"N": 3})
	tests := []struct {
		reports     []*check.Report
		valid       check.Validity
		constraints int
		fixed       int
		text        string
	}{
		{nil, "always", 0, 0, "0 reshapes: 0 ok, 0 mismatch, 0 inferred, 0 error"},
		{[]*check.Report{idioms}, "always", 0, 0, "2 reshapes in 1 file: 2 ok, 0 mismatch, 0 inferred, 0 error"},
		{[]*check.Report{idioms, fixed}, "when constraints hold", 1, 1, "3 reshapes in 2 files: 2 ok, 0 mismatch, 1 inferred, 0 error; 1 constraint, which fixes N"},
		{[]*check.Report{fixed, idioms, broken}, "never", 1, 1, "4 reshapes and 1 failing node in 3 files: 2 ok, 0 mismatch, 2 inferred, 1 error (1 invalid-shape); 1 constraint, which fixes N"},
	}
	for _, tt := range tests {
		s := check.Summarize(tt.reports)
		if s.Valid != tt.valid || len(s.Constraints) != tt.constraints || s.Constraints == nil || s.Fixed != tt.fixed || s.String() != tt.text {
			t.Errorf("%d reports: valid %q, %d constraints, %d fixed, %q; want %q, %d, %d, %q", len(tt.reports), s.Valid, len(s.Constraints), s.Fixed, s, tt.valid, tt.constraints, tt.fixed, tt.text)
		}
	}
}

// TestErrorRowType: the tensor of a node whose inputs break its rule has the element type its
// operator's signature gives whatever the shapes (a Reshape's is its data's), not undefined; one
// downstream of it is not inferred.
func TestErrorRowType(t *testing.T) {
	s, err := check.InferShapes(filepath.Join(models, "baked.onnx"), check.Options{Dims: map[string]int64{"N": 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []string
	for _, x := range s.Tensors {
		got = append(got, fmt.Sprintf("%s %s %s %s", x.Name, x.Type, x.Shape, x.Verdict))
	}
	want := []string{"x f32 [2,3,4,4] inferred", "flat f32 [...] volume-mismatch", "y undefined [...] unknown"}
	if !slices.Equal(got, want) {
		t.Errorf("tensors:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestImpliedDeclaration: RAFT declares its flow [N,1,H] where inference gives [N,1,8*(H//8)], a
// map pooled by 8 and resized back; its Concat with the input needs H <= 7 || H % 8 == 0 (an empty
// input is left out), and a Gather of the input's eighth row H >= 8: together H % 8 == 0, so that
// the two are equal wherever the model runs: ok, and no mismatch row.
func TestImpliedDeclaration(t *testing.T) {
	x, r := vi("x", "[?,1,?]"), vi("r", "[?,1,?]")
	x.DimParams, r.DimParams = []string{"N", "", "H"}, []string{"N", "", "H"}
	scales, err := tensor.FromSlice([]float32{1, 1, 8})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := onnx.NewTensor("scales", scales)
	if err != nil {
		t.Fatal(err)
	}
	path := writeModel(t, &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 13}}, Graph: onnx.Graph{
		Nodes: []onnx.Node{
			{Name: "pool", OpType: "MaxPool", Inputs: []string{"x"}, Outputs: []string{"p"}, Attrs: []onnx.Attribute{
				{Name: "kernel_shape", Type: onnx.AttrInts, Ints: []int64{8}}, {Name: "strides", Type: onnx.AttrInts, Ints: []int64{8}}}},
			{Name: "up", OpType: "Resize", Inputs: []string{"p", "", "scales"}, Outputs: []string{"r"}},
			{Name: "cat", OpType: "Concat", Inputs: []string{"r", "x"}, Outputs: []string{"c"}, Attrs: []onnx.Attribute{{Name: "axis", Type: onnx.AttrInt, I: 1}}},
			{Name: "eighth", OpType: "Gather", Inputs: []string{"x", "seven"}, Outputs: []string{"g"}, Attrs: []onnx.Attribute{{Name: "axis", Type: onnx.AttrInt, I: 2}}},
		},
		Initializers: []onnx.Tensor{sc, ints(t, "seven", 7)},
		Inputs:       []onnx.ValueInfo{x},
		Outputs:      []onnx.ValueInfo{r, vi("c", "[?,2,?]"), vi("g", "[?,1,1]")},
	}})
	s, err := check.InferShapes(path, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var holds []string
	for _, c := range s.Constraints {
		holds = append(holds, c.Holds.String())
	}
	if strings.Join(holds, "; ") != "H % 8 == 0" {
		t.Fatalf("constraints %q", holds)
	}
	i := slices.IndexFunc(s.Tensors, func(x check.Tensor) bool { return x.Name == "r" })
	if i < 0 || s.Tensors[i].Shape.String() != "[N,1,8*(H//8)]" || s.Tensors[i].Verdict != check.OK {
		t.Errorf("r: %+v", s.Tensors[i])
	}
	rep, err := check.File(path, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum := check.Summarize([]*check.Report{rep}); sum.Mismatch != 0 {
		t.Errorf("check: %d mismatch rows, want 0: %+v", sum.Mismatch, rep.Rows)
	}
}

// TestSummarizeLimits: a model that casts T and (T+3)//8 to int32 has one limit, T <= 2147483647,
// which implies the other's T <= 17179869180 (ByLimits, not By); its condition of real sizes, T %
// 4 == 0, stays among Constraints. The summary of two such reports indexes each one's limits.
func TestSummarizeLimits(t *testing.T) {
	x := vi("x", "[?,?]")
	x.DimParams = []string{"N", "T"}
	to := onnx.Attribute{Name: "to", Type: onnx.AttrInt, I: int64(onnx.Int32)}
	y, z := vi("y", "[1]"), vi("z", "[1]")
	y.ElemType, z.ElemType = onnx.Int32, onnx.Int32
	path := writeModel(t, &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 17}}, Graph: onnx.Graph{
		Nodes: []onnx.Node{
			{Name: "shape", OpType: "Shape", Inputs: []string{"x"}, Outputs: []string{"s"}},
			{Name: "t", OpType: "Gather", Inputs: []string{"s", "one"}, Outputs: []string{"t"}},
			{Name: "add", OpType: "Add", Inputs: []string{"t", "three"}, Outputs: []string{"t3"}},
			{Name: "div", OpType: "Div", Inputs: []string{"t3", "eight"}, Outputs: []string{"q"}},
			{Name: "cast_q", OpType: "Cast", Inputs: []string{"q"}, Outputs: []string{"y"}, Attrs: []onnx.Attribute{to}},
			{Name: "cast_t", OpType: "Cast", Inputs: []string{"t"}, Outputs: []string{"z"}, Attrs: []onnx.Attribute{to}},
			{Name: "reshape", OpType: "Reshape", Inputs: []string{"x", "pattern"}, Outputs: []string{"r"}},
		},
		Initializers: []onnx.Tensor{ints(t, "one", 1), ints(t, "three", 3), ints(t, "eight", 8), ints(t, "pattern", 0, -1, 4)},
		Inputs:       []onnx.ValueInfo{x},
		Outputs:      []onnx.ValueInfo{y, z, vi("r", "[?,?,4]")},
	}})
	rep, err := check.File(path, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := check.Summarize([]*check.Report{rep, rep})
	var got []string
	for _, c := range s.Constraints {
		got = append(got, "constraint "+c.Holds.String())
	}
	for _, c := range s.Limits {
		got = append(got, "limit "+c.Holds.String())
	}
	for _, im := range s.Implied {
		if strings.HasPrefix(im.Node, "cast") {
			got = append(got, fmt.Sprintf("implied %s by %v limits %v", im.Holds, im.By, im.ByLimits))
		}
	}
	want := []string{"constraint T % 4 == 0", "constraint T % 4 == 0", "limit T <= 2147483647", "limit T <= 2147483647",
		"implied T <= 17179869180 by [] limits [0]", "implied T <= 17179869180 by [] limits [1]"}
	if !slices.Equal(got, want) || s.Valid != check.ValidWhen || !strings.HasSuffix(s.String(), "; 2 constraints; 2 limits") {
		t.Errorf("summary %q, %q:\n%s\nwant\n%s", s.Valid, s, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
