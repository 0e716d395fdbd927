package fix_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/fix"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
	"github.com/reshape-go/reshape/tensor"
)

// The models of the tests are built from their parts: inputs whose dims are ints (static) or
// strings (named), constants, nodes.

func input(name string, dims ...any) onnx.ValueInfo {
	vi := onnx.ValueInfo{Name: name, ElemType: onnx.Float, Shape: shape.Of(), DimParams: make([]string, len(dims))}
	for _, d := range dims {
		switch d := d.(type) {
		case int:
			vi.Shape.Dims = append(vi.Shape.Dims, shape.Static(int64(d)))
		case string:
			vi.Shape.Dims = append(vi.Shape.Dims, shape.Dynamic)
			vi.DimParams[len(vi.Shape.Dims)-1] = d
		}
	}
	return vi
}

func ints(t *testing.T, name string, values ...int64) onnx.Tensor {
	t.Helper()
	v, err := tensor.FromSlice(values)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := onnx.NewTensor(name, v)
	if err != nil {
		t.Fatal(err)
	}
	return pb
}

func constant(t *testing.T, out string, values ...int64) onnx.Node {
	c := ints(t, "", values...)
	return onnx.Node{Name: out + "_const", OpType: "Constant", Outputs: []string{out}, Attrs: []onnx.Attribute{{Name: "value", Type: onnx.AttrTensor, T: &c}}}
}

func node(op, name string, inputs []string, outputs []string, attrs ...onnx.Attribute) onnx.Node {
	return onnx.Node{Name: name, OpType: op, Inputs: inputs, Outputs: outputs, Attrs: attrs}
}

func reshapeNode(name, data, pattern, out string) onnx.Node {
	return node("Reshape", name, []string{data, pattern}, []string{out})
}

func intAttr(name string, v int64) onnx.Attribute {
	return onnx.Attribute{Name: name, Type: onnx.AttrInt, I: v}
}

// spec is a model to build: opset, inputs, initializers, nodes, outputs (float, of dynamic rank
// unless declared).
type spec struct {
	opset        int64
	inputs       []onnx.ValueInfo
	initializers []onnx.Tensor
	nodes        []onnx.Node
	outputs      []string
	declared     []onnx.ValueInfo // value_info
}

func (s spec) bytes(t *testing.T) []byte {
	t.Helper()
	m := &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: s.opset}},
		Graph: onnx.Graph{Name: "g", Nodes: s.nodes, Initializers: s.initializers, Inputs: s.inputs, ValueInfo: s.declared}}
	for _, n := range s.nodes {
		if n.Domain != "" && !slices.ContainsFunc(m.OpsetImports, func(o onnx.OpsetID) bool { return o.Domain == n.Domain }) {
			m.OpsetImports = append(m.OpsetImports, onnx.OpsetID{Domain: n.Domain, Version: 1})
		}
	}
	for _, o := range s.outputs {
		m.Graph.Outputs = append(m.Graph.Outputs, onnx.ValueInfo{Name: o, ElemType: onnx.Float, Shape: shape.DynamicRank()})
	}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// report returns what a Fix says, a line each: "REWRITE: BEFORE -> AFTER (follows ...)",
// "left NODE: WHY", "export PRED && ...", "binding N=1", "after PRED; PRED".
func report(f *fix.Fix) string {
	var lines []string
	for _, r := range f.Rewrites {
		line := r.Node + ": " + sym.ShapeOf(r.Before...).String() + " -> " + sym.ShapeOf(r.After...).String()
		for _, c := range r.Changes {
			line += fmt.Sprintf(" %d:%s", c.Index, c.How)
		}
		if len(r.Follows) > 0 {
			line += " follows " + strings.Join(r.Follows, ",")
		}
		lines = append(lines, line)
	}
	for _, l := range f.Left {
		lines = append(lines, "left "+l.Node+": "+l.Why)
	}
	var export []string
	for _, c := range f.Export {
		export = append(export, c.Pred.String())
	}
	if len(export) > 0 {
		lines = append(lines, "export "+strings.Join(export, " && "))
	}
	if f.Binding != nil {
		var b []string
		for _, k := range slices.Sorted(mapsKeys(f.Binding)) {
			b = append(b, fmt.Sprintf("%s=%d", k, f.Binding[k]))
		}
		lines = append(lines, "binding "+strings.Join(b, ","))
	}
	var after []string
	for _, c := range f.After {
		after = append(after, c.Pred.String()+" ("+c.Origin.Node+")")
	}
	lines = append(lines, "after "+strings.Join(after, "; "))
	return strings.Join(lines, "\n")
}

func mapsKeys(m map[string]int64) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// written writes the fixed model, decodes it, and proves it (Fix.Verify).
func written(t *testing.T, f *fix.Fix) *onnx.Model {
	t.Helper()
	var out bytes.Buffer
	n, err := f.WriteTo(&out)
	if err != nil || n != int64(out.Len()) {
		t.Fatalf("WriteTo: %d bytes, says %d, %v", out.Len(), n, err)
	}
	m, err := onnx.DecodeModel(out.Bytes())
	if err != nil {
		t.Fatalf("the written model does not decode: %v", err)
	}
	if err := f.Verify(m); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return m
}

func TestFind(t *testing.T) {
	x := input("x", "N", 3, 4)
	tests := []struct {
		name string
		spec func(t *testing.T) spec
		opt  fix.Options
		want string
		// nodes lists the op types of the written model's nodes, when the test says.
		nodes string
	}{
		{"batch", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{x}, nil, []onnx.Node{constant(t, "p", 1, 12), reshapeNode("r", "x", "p", "y")}, []string{"y"}, nil}
		}, fix.Options{}, "r: [1,12] -> [0,12] 0:copy\nexport N == 1\nbinding N=1\nafter ", "Constant Reshape"},
		{"an operator without a shape rule downstream", func(t *testing.T) spec {
			foo := onnx.Node{Name: "foo", OpType: "Foo", Domain: "com.example", Inputs: []string{"y"}, Outputs: []string{"z"}}
			return spec{14, []onnx.ValueInfo{x}, nil, []onnx.Node{constant(t, "p", 1, 12), reshapeNode("r", "x", "p", "y"), foo}, []string{"z"}, nil}
		}, fix.Options{}, "r: [1,12] -> [0,12] 0:copy\nexport N == 1\nbinding N=1\nafter ", "Constant Reshape Foo"},
		{"allowzero", func(t *testing.T) spec {
			r := reshapeNode("r", "x", "p", "y")
			r.Attrs = []onnx.Attribute{intAttr("allowzero", 1)}
			return spec{14, []onnx.ValueInfo{x}, nil, []onnx.Node{constant(t, "p", 1, 12), r}, []string{"y"}, nil}
		}, fix.Options{}, "r: [1,12] -> [-1,12] 0:infer\nexport N == 1\nbinding N=1\nafter ", ""},
		{"grid", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "N", 21, "H", "W")}, nil,
				[]onnx.Node{constant(t, "p", 1, 3, 7, 8, 8), reshapeNode("r", "x", "p", "y")}, []string{"y"}, nil}
		}, fix.Options{}, "r: [1,3,7,8,8] -> [0,3,7,-1,W] 0:copy 3:infer 4:compute\nexport N == 1 && H == 8 && W == 8\nbinding H=8,N=1,W=8\nafter ",
			"Constant Shape Constant Gather Concat Reshape"},
		{"merged dims", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "N", "H", "W", 2, "A", "B")}, nil,
				[]onnx.Node{constant(t, "p", 1, 64, 2, 12), reshapeNode("r", "x", "p", "y")}, []string{"y"}, nil}
		}, fix.Options{Export: map[string]int64{"N": 1, "H": 8, "W": 8, "A": 3, "B": 4}}, "r: [1,64,2,12] -> [0,-1,2,A*B] 0:copy 1:infer 3:compute\nexport N == 1 && H*W == 64 && A*B == 12\nbinding A=3,B=4,H=8,N=1,W=8\nafter ",
			"Constant Shape Constant Gather ReduceProd Concat Reshape"},
		{"ambiguous unit axis", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "N", 3)}, nil, []onnx.Node{constant(t, "p", 1, 1, 3), reshapeNode("r", "x", "p", "y")}, []string{"y"}, nil}
		}, fix.Options{Export: map[string]int64{"N": 1}}, "left r: its values could stand for its input dims in 2 ways (pattern[0] = 1 is N; or pattern[1] = 1 is N): the sizes of the export tell which\nafter N == 1 (r)", ""},
		{"ambiguous merge", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "N", "H", "W", 8)}, nil, []onnx.Node{constant(t, "p", 1, 64, 8), reshapeNode("r", "x", "p", "y")}, []string{"y"}, nil}
		}, fix.Options{}, "left r: its values could stand for its input dims in 2 ways (pattern[0] = 1 is N, pattern[1] = 64 is H*W; or pattern[0] = 1 is N*H, pattern[1] = 64 is W): the sizes of the export tell which\nafter N*H*W == 64 (r)", ""},
		{"merge told by the export", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "N", "H", "W", 8)}, nil, []onnx.Node{constant(t, "p", 1, 64, 8), reshapeNode("r", "x", "p", "y")}, []string{"y"}, nil}
		}, fix.Options{Export: map[string]int64{"N": 1, "H": 8, "W": 8}}, "r: [1,64,8] -> [0,-1,8] 0:copy 1:infer\nexport N == 1 && H*W == 64\nbinding H=8,N=1,W=8\nafter ", ""},
		{"export that no value fits", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{x}, nil, []onnx.Node{constant(t, "p", 1, 12), reshapeNode("r", "x", "p", "y")}, []string{"y"}, nil}
		}, fix.Options{Export: map[string]int64{"N": 2}}, "left r: its pattern's values are sizes of no binding at which the model runs: N == 1 cannot hold with the model's other conditions and the export's values\nafter N == 1 (r)", ""},
		{"the condition comes back", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "N", 4), input("z", 1, 5)}, nil,
				[]onnx.Node{constant(t, "p", 1, 4), reshapeNode("r", "x", "p", "y"), node("Concat", "cat", []string{"y", "z"}, []string{"c"}, intAttr("axis", 1))}, []string{"c"}, nil}
		}, fix.Options{}, "left r: its condition N == 1 would come back from the fixed model (cat (Concat): input 1 dim 0): a rewrite does not help, left as it is\nafter N == 1 (r)", ""},
		{"follows", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "N", 8)}, nil, []onnx.Node{
				constant(t, "p", 1, 2, 4), reshapeNode("r", "x", "p", "y"),
				node("Transpose", "t", []string{"y"}, []string{"yt"}, onnx.Attribute{Name: "perm", Type: onnx.AttrInts, Ints: []int64{0, 2, 1}}),
				constant(t, "p2", 1, -1), reshapeNode("r2", "yt", "p2", "z")}, []string{"z"}, nil}
		}, fix.Options{}, "r: [1,2,4] -> [0,2,4] 0:copy\nr2: [1,-1] -> [0,-1] 0:copy follows r\nexport N == 1\nbinding N=1\nafter ", ""},
		{"two in a row", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "N", 12)}, nil, []onnx.Node{
				constant(t, "p", 1, 3, 4), reshapeNode("r", "x", "p", "y"), constant(t, "p2", 1, 12), reshapeNode("r2", "y", "p2", "z")}, []string{"z"}, nil}
		}, fix.Options{}, "r: [1,3,4] -> [0,3,4] 0:copy\nr2: [1,12] -> [0,12] 0:copy\nexport N == 1 && N == 1\nbinding N=1\nafter ", ""},
		{"computed pattern", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "N", 3, "H")}, nil, []onnx.Node{
				constant(t, "one", 1), constant(t, "three", 3), node("Shape", "s", []string{"x"}, []string{"sx"}),
				constant(t, "i2", 2), node("Gather", "g", []string{"sx", "i2"}, []string{"h"}),
				node("Concat", "cat", []string{"one", "three", "h"}, []string{"p"}, intAttr("axis", 0)),
				reshapeNode("r", "x", "p", "y")}, []string{"y"}, nil}
		}, fix.Options{}, "r: [1,3,H] -> [0,3,H] 0:copy\nexport N == 1\nbinding N=1\nafter ", "Constant Constant Shape Constant Gather Concat Constant Constant Gather Concat Reshape"},
		{"shared initializer", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{x, input("x2", "M", 12)}, []onnx.Tensor{ints(t, "p", 1, 12)}, []onnx.Node{
				reshapeNode("r", "x", "p", "y"), reshapeNode("r2", "x2", "p", "y2")}, []string{"y", "y2"}, nil}
		}, fix.Options{}, "r: [1,12] -> [0,12] 0:copy\nr2: [1,12] -> [0,12] 0:copy\nexport N == 1 && M == 1\nbinding M=1,N=1\nafter ", "Constant Reshape Constant Reshape"},
		{"a -1 is the model's", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "N", "C")}, nil, []onnx.Node{constant(t, "p", -1, 2), reshapeNode("r", "x", "p", "y")}, []string{"y"}, nil}
		}, fix.Options{}, "left r: its pattern has a -1, which adapts to the volume: what it needs, that the other values divide the volume, is the model's own (a window, a group of channels), not a size of the export\nafter N*C % 2 == 0 (r)", ""},
		{"split", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "T", 4)}, nil, []onnx.Node{constant(t, "p", 3, 8), reshapeNode("r", "x", "p", "y")}, []string{"y"}, nil}
		}, fix.Options{}, "left r: its values split and merge its input's symbolic dims: T: its factors fit no cut of the values at the export binding\nafter T == 6 (r)", ""},
		{"reshape-1", func(t *testing.T) spec {
			return spec{4, []onnx.ValueInfo{x}, nil, []onnx.Node{node("Reshape", "r", []string{"x"}, []string{"y"},
				onnx.Attribute{Name: "shape", Type: onnx.AttrInts, Ints: []int64{1, 12}})}, []string{"y"}, nil}
		}, fix.Options{}, "left r: Reshape-1 (opset 4) holds its pattern in an attribute, which fix does not rewrite\nafter N == 1 (r)", ""},
		{"static", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", 2, 3, 4)}, nil, []onnx.Node{constant(t, "p", 1, 24), reshapeNode("r", "x", "p", "y")}, []string{"y"}, nil}
		}, fix.Options{}, "after ", "Constant Reshape"},
		{"absorbs the batch", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "N", "H")}, nil, []onnx.Node{constant(t, "p", 8), reshapeNode("r", "x", "p", "y"),
				node("Softmax", "sm", []string{"y"}, []string{"z"}, intAttr("axis", 0))}, []string{"z"}, nil}
		}, fix.Options{}, "left r: rewritten, it would absorb the batch N into axis 0 (N*H), and sm (Softmax) normalizes over axis 0: the samples would mix\nafter N*H == 8 (r)", ""},
		{"merges the batch", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{input("x", "N", "H")}, nil, []onnx.Node{constant(t, "p", 8), reshapeNode("r", "x", "p", "y"),
				node("Relu", "relu", []string{"y"}, []string{"z"})}, []string{"z"}, nil}
		}, fix.Options{}, "r: [8] -> [-1] 0:infer\nexport N*H == 8\nbinding H=8,N=1\nafter ", ""},
		{"declaration", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{x}, nil, []onnx.Node{constant(t, "p", 1, 12), reshapeNode("r", "x", "p", "y"), node("Relu", "relu", []string{"y"}, []string{"z"})},
				[]string{"z"}, []onnx.ValueInfo{{Name: "y", ElemType: onnx.Float, Shape: shape.Of(shape.Static(1), shape.Static(12))}}}
		}, fix.Options{}, "r: [1,12] -> [0,12] 0:copy\nexport N == 1\nbinding N=1\nafter ", ""},
		{"wrong declaration", func(t *testing.T) spec {
			return spec{14, []onnx.ValueInfo{x}, nil, []onnx.Node{constant(t, "p", 1, 12), reshapeNode("r", "x", "p", "y"), node("Relu", "relu", []string{"y"}, []string{"z"})},
				[]string{"z"}, []onnx.ValueInfo{{Name: "y", ElemType: onnx.Float, Shape: shape.Of(shape.Static(5), shape.Static(12))}}}
		}, fix.Options{}, "r: [1,12] -> [0,12] 0:copy\nexport N == 1\nbinding N=1\nafter ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := onnx.DecodeModel(tt.spec(t).bytes(t))
			if err != nil {
				t.Fatal(err)
			}
			f, err := fix.Find(m, "", tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := report(f); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			w := written(t, f)
			if tt.nodes != "" {
				var ops []string
				for _, n := range w.Graph.Nodes {
					ops = append(ops, n.OpType)
				}
				if got := strings.Join(ops, " "); got != tt.nodes {
					t.Errorf("written nodes %s, want %s", got, tt.nodes)
				}
			}
			// A declaration the rewrite makes wrong is written again; one that was wrong stays.
			want := map[string]string{"declaration": "[?,12] N", "wrong declaration": "[5,12] "}[tt.name]
			if vi, _ := w.Graph.ValueInfoOf("y"); want != "" && vi.Shape.String()+" "+strings.Join(vi.DimParams, "") != want {
				t.Errorf("y is declared %s %q, want %s", vi.Shape, vi.DimParams, want)
			}
		})
	}
}

// TestFindModels runs Find on the models of testdata/models made for the grids: the rewrites and
// what remains.
func TestFindModels(t *testing.T) {
	tests := []struct {
		model string
		want  string
	}{
		{"const_reshape_batch", "flatten: [1,12] -> [0,12] 0:copy\nexport N == 1\nbinding N=1\nafter "},
		{"channel_shuffle", "/Reshape: [1,2,4,H,W] -> [0,2,4,H,W] 0:copy\n/Reshape_1: [1,-1,H,W] -> [0,-1,H,W] 0:copy follows /Reshape\nexport N == 1\nbinding N=1\nafter "},
		{"yolo_head", "/Reshape: [1,3,7,8,8] -> [0,3,7,-1,(W+1)//2] 0:copy 3:infer 4:compute\n/Reshape_2: [1,-1,7] -> [0,-1,7] 0:copy follows /Reshape\n" +
			"export N == 1 && H in 15..16 && W in 15..16\nbinding H=15,N=1,W=15\n" +
			"after H in 13..16 (/Concat_1); W in 13..16 (/Concat_1)"},
		{"flat_matmul", "after N == 1 (/MatMul)"},
		{"attn_baked", "/Reshape: [1,T,2,4] -> [0,T,2,4] 0:copy\n/Reshape_1: [1,T,2,4] -> [0,T,2,4] 0:copy\n/Reshape_2: [1,T,2,4] -> [0,T,2,4] 0:copy\n" +
			"/Reshape_3: [1,T,8] -> [0,T,8] 0:copy\nexport B == 1 && B == 1 && B == 1 && B == 1\nbinding B=1\nafter "},
		{"speech_fold4", "left /Reshape: no value of the pattern stands for whole input dims: it splits or merges symbolic dims\nafter T % 4 == 0 (/Reshape)"},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			f, _ := findModel(t, tt.model)
			if got := report(f); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			written(t, f)
		})
	}
}

// TestRemaining: what fix cannot remove is a Reshape's condition or one that fixes a symbol.
func TestRemaining(t *testing.T) {
	tests := []struct {
		model, want string
	}{
		{"const_reshape_batch", ""},
		{"yolo_head", ""},
		{"flat_matmul", "N == 1 (/MatMul (MatMul): the inner dims (A's last, B's second to last))"},
		{"swin_window", "B*(H//4)*(W//4) % 16 == 0 (/Reshape_1 (Reshape): the -1 of pattern[0]: the input's volume a multiple of the other output dims)"},
		{"vit_posemb", ""},
	}
	for _, tt := range tests {
		f, _ := findModel(t, tt.model)
		var got []string
		for _, c := range f.Remaining() {
			got = append(got, c.String())
		}
		if strings.Join(got, "; ") != tt.want {
			t.Errorf("%s: remaining %q, want %q", tt.model, got, tt.want)
		}
	}
}

func TestFindErrors(t *testing.T) {
	noOpset := &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Domain: "com.example", Version: 1}}, Graph: onnx.Graph{
		Nodes: []onnx.Node{node("Relu", "r", []string{"x"}, []string{"y"})}}}
	cycle := &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 14}}, Graph: onnx.Graph{
		Nodes: []onnx.Node{node("Relu", "a", []string{"b"}, []string{"a"}), node("Relu", "b", []string{"a"}, []string{"b"})}}}
	for _, tt := range []struct {
		name string
		m    *onnx.Model
		want string
	}{
		{"no default opset", noOpset, "of which the model imports no opset"},
		{"cycle", cycle, "is on a cycle"},
	} {
		_, err := fix.Find(tt.m, "", fix.Options{})
		if !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want a syntax error with %q", tt.name, err, tt.want)
		}
	}
}

// TestFindTypeError: a model whose node a runtime refuses at load for its input types (torch
// 1.13's Sqrt of i64 in RAFT) is an error with the node's code, not a model fix can make run.
func TestFindTypeError(t *testing.T) {
	m, err := onnx.Open(filepath.Join("..", "testdata", "models", "type_error.onnx"), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	_, err = fix.Find(m, "", fix.Options{})
	if !errors.Is(err, errcode.ErrDataType) || !strings.Contains(err.Error(), `the model does not load: sqrt (Sqrt): input 0 ("c") is i64`) {
		t.Errorf("got %v, want the data-type error of sqrt", err)
	}
}

// TestVerifyRefuses: Verify refuses a model other than the one WriteTo wrote.
func TestVerifyRefuses(t *testing.T) {
	f, m := findModel(t, "const_reshape_batch")
	if err := f.Verify(m); !errors.Is(err, errcode.ErrNoEquivalent) || !strings.Contains(err.Error(), `constraints are "N == 1`) {
		t.Errorf("Verify of the model itself: %v", err)
	}
}

// findModel runs Find on the model name of testdata/models, and returns the model too, which stays
// open until the test ends.
func findModel(t *testing.T, name string) (*fix.Fix, *onnx.Model) {
	t.Helper()
	return findFile(t, filepath.Join("..", "testdata", "models", name+".onnx"))
}

// findFile runs Find on the model file at path, mapped as the command maps it (its external data
// beside it), and returns the model too, which stays open until the test ends.
func findFile(t *testing.T, path string) (*fix.Fix, *onnx.Model) {
	t.Helper()
	m, err := onnx.Open(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	f, err := fix.Find(m, filepath.Dir(path), fix.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f, m
}

// TestFindMapped: a mapped model's weights are copied to the fixed model as they are, never read
// as values: Find and WriteTo read its structure only.
func TestFindMapped(t *testing.T) {
	w := make([]float32, 12*1<<16) // 3 MiB of weights
	for i := range w {
		w[i] = float32(i % 251)
	}
	wt, err := tensor.FromSlice(w, 12, 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	weights, err := onnx.NewTensor("w", wt)
	if err != nil {
		t.Fatal(err)
	}
	s := spec{14, []onnx.ValueInfo{input("x", "N", 3, 4)}, []onnx.Tensor{weights}, []onnx.Node{
		constant(t, "p", 1, 12), reshapeNode("r", "x", "p", "y"), node("MatMul", "mm", []string{"y", "w"}, []string{"z"})}, []string{"z"}, nil}
	b := s.bytes(t)
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f, m := findFile(t, path)
	if got := report(f); got != "r: [1,12] -> [0,12] 0:copy\nexport N == 1\nbinding N=1\nafter " {
		t.Errorf("got\n%s", got)
	}
	var out bytes.Buffer
	if _, err := f.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	if read := m.BytesRead(); read > int64(len(b))/100 {
		t.Errorf("%d of %d bytes read as the model's structure and values", read, len(b))
	}
	raw, _ := onnx.EncodeTensor(wt, "w")
	if !bytes.Contains(out.Bytes(), raw) || out.Len() > len(b)+256 {
		t.Errorf("the fixed model (%d bytes, the model %d) does not hold the weights' bytes as they were", out.Len(), len(b))
	}
}
