package graph

import (
	"errors"
	"fmt"
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/sym"
)

// factsOf returns a line per node of res: its path, what Result.Reshape gives of a Reshape
// (version, dialect, zero attribute, input, pattern and its source, or the error), and the paths of
// the producers of its inputs (Result.Producer, "-" for none).
func factsOf(res *Result) map[string]string {
	out := map[string]string{}
	for i := range res.Nodes {
		n := &res.Nodes[i]
		line := ""
		if f, ok := res.Reshape(n); ok {
			switch {
			case f.Err != nil:
				line = fmt.Sprintf("v%d %s error %s: %v; ", f.Version, f.Options.Dialect, errcode.Code(f.Err), f.Err)
			default:
				line = fmt.Sprintf("v%d %s sz=%v az=%v %s by %v %s; ", f.Version, f.Options.Dialect, f.Options.SpecialZero, f.Options.AllowZero,
					f.Input, f.Pattern, f.Source)
			}
		}
		line += "from"
		for k := range n.Node.Inputs {
			p := "-"
			if src := res.Producer(n, k); src != nil {
				p = src.Path
			}
			line += " " + p
		}
		out[n.Path] = line
		if j, ok := res.NodeIndex(n.Path); !ok || j != i {
			out[n.Path] += fmt.Sprintf("; NodeIndex %d, %v", j, ok)
		}
	}
	return out
}

// TestReshapeFacts: Result.Reshape reads each Reshape once as its rule does, also one downstream of
// an error (not inferred) and one whose options its rule refuses, and says where its pattern comes
// from; Producer finds the node that outputs an input, in the node's graph or the graphs around a
// subgraph.
func TestReshapeFacts(t *testing.T) {
	branch := func(name string) onnx.Graph {
		return onnx.Graph{Name: name,
			Nodes:   []onnx.Node{{Name: "r", OpType: "Reshape", Inputs: []string{"a", "s"}, Outputs: []string{name + "_y"}}},
			Outputs: []onnx.ValueInfo{valueInfo(name+"_y", onnx.Float, -1)}}
	}
	m := newModel(14).input("x", "N", 3, 4).typedInput("p", onnx.Int64, 2).typedInput("c", onnx.Bool).input("z", 5).
		ints("flat", nil, 0, -1).
		node("const", "Reshape", []string{"x", "flat"}, []string{"a"}).
		node("shape", "Shape", []string{"x"}, []string{"s"}).
		node("computed", "Reshape", []string{"x", "s"}, []string{"b"}).
		node("unknown", "Reshape", []string{"x", "p"}, []string{"u"}, attrInt("allowzero", 1)).
		node("add", "Add", []string{"x", "z"}, []string{"bad"}).
		node("blocked", "Reshape", []string{"bad", "flat"}, []string{"d"}).
		node("if", "If", []string{"c"}, []string{"y"}, attrGraph("then_branch", branch("then")), attrGraph("else_branch", branch("else"))).
		output("b", "u", "d", "y")
	res, err := Infer(decodeGraph(t, m.encode()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"const":            "v14 onnx sz=true az=false [N,3,4] by [0 -1] const; from - -",
		"shape":            "from -",
		"computed":         "v14 onnx sz=true az=false [N,3,4] by [N 3 4] computed; from - shape",
		"unknown":          "v14 onnx sz=false az=true [N,3,4] by [] unknown; from - -",
		"add":              "from - -",
		"blocked":          "v14 onnx sz=true az=false [...] by [0 -1] const; from add -",
		"if/then_branch/r": "v14 onnx sz=true az=false [N,12] by [N 3 4] computed; from const shape",
		"if/else_branch/r": "v14 onnx sz=true az=false [N,12] by [N 3 4] computed; from const shape",
		"if":               "from -",
	}
	got := factsOf(res)
	for path, w := range want {
		if got[path] != w {
			t.Errorf("%s: %s\nwant %s", path, got[path], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d nodes, want %d: %v", len(got), len(want), got)
	}
	if n := &res.Nodes[2]; n.Err != nil || n.Node.Name != "computed" {
		t.Fatalf("node 2: %s, %v", n.Path, n.Err)
	}

	// Reshape-1 reads its pattern from its shape attribute; allowzero before Reshape-14 is refused
	// by ReadReshape as by the rule.
	m = newModel(13).input("x", 2, 6).
		node("r1", "Reshape", []string{"x"}, []string{"y"}, attrInts("shape", 3, 4)).
		node("r13", "Reshape", []string{"x", "p"}, []string{"z"}, attrInt("allowzero", 0)).
		ints("p", nil, 12).output("y", "z")
	m.m.OpsetImports[0].Version = 1
	g := decodeGraph(t, m.encode())
	g.Nodes[1].Version = 13
	if res, err = Infer(g, Options{}); err != nil {
		t.Fatal(err)
	}
	got = factsOf(res)
	if w := "v1 onnx sz=true az=false [2,6] by [3 4] const; from -"; got["r1"] != w {
		t.Errorf("r1: %s\nwant %s", got["r1"], w)
	}
	if w := "v13 onnx error syntax: allowzero is an attribute of Reshape-14 and later, and the model imports opset 13; from - -"; got["r13"] != w ||
		!errors.Is(res.Nodes[1].Err, errcode.ErrSyntax) {
		t.Errorf("r13: %s, the rule: %v\nwant %s", got["r13"], res.Nodes[1].Err, w)
	}
}

// TestReshapeFactsIR: an OpenVINO Reshape's special_zero, a pattern its shape subgraph computes,
// and a Const pattern whose values inference could not keep, read again within the rank bound.
func TestReshapeFactsIR(t *testing.T) {
	for _, c := range []struct {
		path    string
		source  PatternSource
		pattern string
		code    error
	}{
		{"testdata/ir/batch_flatten.xml", PatternComputed, "[x:0 -1]", nil},
		// u64 2^63 reads as int64's minimum, as OpenVINO casts it: a dim below -1, not a load error
		{"../testdata/bad/ir_pattern_u64_overflow.xml", PatternConst, "[0 -9223372036854775808]", nil},
	} {
		g, err := Open(c.path, OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Infer(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var f Reshape
		for i := range res.Nodes {
			if r, ok := res.Reshape(&res.Nodes[i]); ok {
				f = r
			}
		}
		g.Close()
		if f.Options.Dialect != reshape.OpenVINO || f.Version != 1 || f.Source != c.source || fmt.Sprint(f.Pattern) != c.pattern ||
			!errors.Is(f.PatternErr, c.code) || (c.code == nil) != (f.PatternErr == nil) {
			t.Errorf("%s: %+v\nwant %v, pattern %s, error %v", c.path, f, c.source, c.pattern, c.code)
		}
	}
}

// TestAvoidedBy: the Reshape of if_data_branch.onnx's then_branch fails at T=6, where the
// else_branch runs: the If avoids it by its else_branch.
func TestAvoidedBy(t *testing.T) {
	g, err := Open("../testdata/models/if_data_branch.onnx", OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	res, err := Infer(g, Options{Dims: map[string]int64{"B": 2, "T": 6}})
	if err != nil {
		t.Fatal(err)
	}
	avoided := 0
	for i := range res.Nodes {
		n := &res.Nodes[i]
		in, takes, ok := res.AvoidedBy(n)
		if !n.Avoidable {
			continue
		}
		avoided++
		if !ok || in.Path != "if_sr" || takes != "else_branch" || n.Path != "if_sr/then_branch/if_sr/then/Reshape_0" {
			t.Errorf("%s: avoided by %v %q %v", n.Path, in, takes, ok)
		}
	}
	if avoided != 1 {
		t.Errorf("%d nodes avoidable, want 1", avoided)
	}
}

// TestEvalValue evaluates the values of tensors at bindings: a pattern the model computes, a -1
// kept, and the typed errors of a binding the model refuses, of one that leaves out a symbol, of a
// tensor whose values are not known and of a path of no tensor.
func TestEvalValue(t *testing.T) {
	g, err := Open("../testdata/models/bert_tiny.onnx", OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	res, err := Infer(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var cerr *sym.ConstraintError
	var uerr *sym.UnboundError
	for _, c := range []struct {
		path    string
		binding map[string]int64
		want    string
		code    error
		as      any
	}{
		{"/layers.0/att/Concat_output_0", map[string]int64{"B": 3, "T": 5}, "[3 5 2 8]", nil, nil},
		{"/Concat_output_0", map[string]int64{"B": 3, "T": 5}, "[-1 16]", nil, nil},
		{"/layers.0/att/Concat_output_0", map[string]int64{"B": 3, "T": 65}, "", errcode.ErrInvalidShape, &cerr},
		{"/layers.0/att/Concat_output_0", map[string]int64{"T": 5}, "", errcode.ErrSyntax, &uerr},
		{"input_ids", map[string]int64{"B": 3, "T": 5}, "", errcode.ErrSyntax, nil},
		{"nothing", map[string]int64{"B": 3, "T": 5}, "", errcode.ErrSyntax, nil},
	} {
		v, err := res.EvalValue(c.path, c.binding)
		if c.code == nil {
			if err != nil || fmt.Sprint(v) != c.want {
				t.Errorf("EvalValue(%s, %v) = %v, %v; want %s", c.path, c.binding, v, err, c.want)
			}
			continue
		}
		if !errors.Is(err, c.code) || v != nil {
			t.Errorf("EvalValue(%s, %v) = %v, %v; want an error wrapping %v", c.path, c.binding, v, err, c.code)
		}
		if c.as != nil && !errors.As(err, c.as) {
			t.Errorf("EvalValue(%s, %v): %v is not a %T", c.path, c.binding, err, c.as)
		}
	}
}

// TestProducerShadowed: a subgraph's own constant, or its own input, of the name of a tensor of
// the graph around it is what its nodes read: Producer gives no node for it, where it gave the
// node of the outer graph that outputs the name.
func TestProducerShadowed(t *testing.T) {
	then := onnx.Graph{Name: "then",
		Nodes:        []onnx.Node{{Name: "r", OpType: "Reshape", Inputs: []string{"x", "s"}, Outputs: []string{"then_y"}}},
		Initializers: []onnx.Tensor{intTensor("s", nil, -1)},
		Outputs:      []onnx.ValueInfo{valueInfo("then_y", onnx.Float, -1)}}
	els := onnx.Graph{Name: "else",
		Nodes:   []onnx.Node{{Name: "r", OpType: "Reshape", Inputs: []string{"x", "s"}, Outputs: []string{"else_y"}}},
		Outputs: []onnx.ValueInfo{valueInfo("else_y", onnx.Float, -1)}}
	m := newModel(14).input("x", "N", 3, 4).typedInput("c", onnx.Bool).
		node("shape", "Shape", []string{"x"}, []string{"s"}).
		node("if", "If", []string{"c"}, []string{"y"}, attrGraph("then_branch", then), attrGraph("else_branch", els)).
		output("y")
	res, err := Infer(decodeGraph(t, m.encode()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := factsOf(res)
	for path, w := range map[string]string{
		"if/then_branch/r": "v14 onnx sz=true az=false [N,3,4] by [-1] const; from - -",
		"if/else_branch/r": "v14 onnx sz=true az=false [N,3,4] by [N 3 4] computed; from - shape",
	} {
		if got[path] != w {
			t.Errorf("%s: %s\nwant %s", path, got[path], w)
		}
	}
}
