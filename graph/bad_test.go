package graph

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/sym"
)

var update = flag.Bool("update", false, "write the bad-input models of badCases to ../testdata/bad, and the golden files of TestNodeTests, TestORTCases, TestTypeprop and TestTruth")

// badDir is the repository's bad-input corpus, which cmd/reshape's TestBadInput runs through
// reshape check; the models of badCases that inference refuses are there as onnx_graph_NAME.onnx.
var badDir = filepath.Join("..", "testdata", "bad")

// badPrefix starts the names of the files of badCases in badDir.
const badPrefix = "onnx_graph_"

// badCase is a hostile graph and what inference must answer: an error of DecodeModel or of Infer
// (the graph's: a cycle, an undefined name), or an error on one node's result, or a result that
// check accepts. The message must name the place.
type badCase struct {
	name  string
	build func() *model
	file  bool // kept in the bad-input corpus, as onnx_graph_NAME.onnx

	decode error  // the code of DecodeModel's error
	infer  error  // the code of Infer's error
	node   string // the path of the node whose result carries the error
	code   error  // that error's code
	where  string // a substring of the error message
	check  func(t *testing.T, res *Result)
}

// chain returns a model of n Relu nodes in a chain from x [N,3], listed in reverse order when
// reversed (so that Infer sorts them).
func chain(n int, reversed bool) *model {
	b := newModel(17).input("x", "N", 3)
	prev := "x"
	nodes := make([]onnx.Node, n)
	for i := range nodes {
		out := "t" + strconv.Itoa(i)
		nodes[i] = onnx.Node{Name: "relu" + strconv.Itoa(i), OpType: "Relu", Inputs: []string{prev}, Outputs: []string{out}}
		prev = out
	}
	if reversed {
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			nodes[i], nodes[j] = nodes[j], nodes[i]
		}
	}
	b.m.Graph.Nodes = nodes
	return b.output(prev)
}

// unifyChain returns a model that concatenates n inputs, each [S_k,1] of its own symbol, along
// axis 1 in a chain: every Concat unifies the new symbol with the first.
func unifyChain(n int) *model {
	b := newModel(17).input("x0", "S0", 1)
	prev := "x0"
	for i := 1; i < n; i++ {
		x, out := "x"+strconv.Itoa(i), "t"+strconv.Itoa(i)
		b.input(x, "S"+strconv.Itoa(i), 1).node("concat"+strconv.Itoa(i), "Concat", []string{prev, x}, []string{out}, attrInt("axis", 1))
		prev = out
	}
	return b.output(prev)
}

// unifyChainReversed returns unifyChain's graph with the inputs concatenated from the last: every
// Concat unifies the symbol of the previous step with an earlier one, a chain of substitutions
// S_n-1 → S_n-2 → ... → S0 that is resolved only at the end.
func unifyChainReversed(n int) *model {
	b := newModel(17)
	for i := range n {
		b.input("x"+strconv.Itoa(i), "S"+strconv.Itoa(i), 1)
	}
	prev := "x" + strconv.Itoa(n-1)
	for i := n - 2; i >= 0; i-- {
		out := "t" + strconv.Itoa(i)
		b.node("concat"+strconv.Itoa(i), "Concat", []string{prev, "x" + strconv.Itoa(i)}, []string{out}, attrInt("axis", 1))
		prev = out
	}
	return b.output(prev)
}

// nestedIf returns a model whose If nodes nest depth levels deep in their then_branch; the innermost
// branch holds a Relu of the outer x, every else_branch an Identity of it.
func nestedIf(depth int) *model {
	leaf := onnx.Graph{Name: "leaf", Nodes: []onnx.Node{{Name: "relu", OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"y0"}}},
		Outputs: []onnx.ValueInfo{valueInfo("y0", onnx.Float, -1)}}
	g := leaf
	for i := 1; i <= depth; i++ {
		out := "y" + strconv.Itoa(i)
		inner := g
		els := onnx.Graph{Name: "else", Nodes: []onnx.Node{{Name: "id", OpType: "Identity", Inputs: []string{"x"}, Outputs: []string{"e" + strconv.Itoa(i)}}},
			Outputs: []onnx.ValueInfo{valueInfo("e"+strconv.Itoa(i), onnx.Float, -1)}}
		g = onnx.Graph{Name: "level" + strconv.Itoa(i), Nodes: []onnx.Node{{Name: "if" + strconv.Itoa(i), OpType: "If", Inputs: []string{"c"},
			Outputs: []string{out}, Attrs: []onnx.Attribute{attrGraph("then_branch", inner), attrGraph("else_branch", els)}}},
			Outputs: []onnx.ValueInfo{valueInfo(out, onnx.Float, -1)}}
	}
	b := newModel(17).input("x", "N", 3).typedInput("c", onnx.Bool)
	b.m.Graph.Nodes = g.Nodes
	b.m.Graph.Name = "main"
	return b.output("y" + strconv.Itoa(depth))
}

// nestedLoop returns a model of Loops nested depth deep, each body a Loop of the next, carrying a
// value that the innermost body doubles by a Concat: every level infers its body twice, until the
// shapes settle.
func nestedLoop(depth int) *model {
	body := onnx.Graph{Inputs: []onnx.ValueInfo{valueInfo("i0", onnx.Int64), valueInfo("c0", onnx.Bool), valueInfo("v0", onnx.Float, -1)},
		Nodes: []onnx.Node{{Name: "cat", OpType: "Concat", Inputs: []string{"v0", "v0"}, Outputs: []string{"w0"}, Attrs: []onnx.Attribute{attrInt("axis", 0)}},
			{Name: "cid", OpType: "Identity", Inputs: []string{"c0"}, Outputs: []string{"co0"}}},
		Outputs: []onnx.ValueInfo{valueInfo("co0", onnx.Bool), valueInfo("w0", onnx.Float, -1)}}
	for l := 1; l <= depth; l++ {
		s := strconv.Itoa(l)
		inner := body
		body = onnx.Graph{Inputs: []onnx.ValueInfo{valueInfo("i"+s, onnx.Int64), valueInfo("c"+s, onnx.Bool), valueInfo("v"+s, onnx.Float, -1)},
			Nodes: []onnx.Node{{Name: "loop" + s, OpType: "Loop", Inputs: []string{"m", "", "v" + s}, Outputs: []string{"w" + s}, Attrs: []onnx.Attribute{attrGraph("body", inner)}},
				{Name: "cid" + s, OpType: "Identity", Inputs: []string{"c" + s}, Outputs: []string{"co" + s}}},
			Outputs: []onnx.ValueInfo{valueInfo("co"+s, onnx.Bool), valueInfo("w"+s, onnx.Float, -1)}}
	}
	b := newModel(17).input("x", "N", 3).ints("m", []int64{}, 3)
	b.node("top", "Loop", []string{"m", "", "x"}, []string{"y"}, attrGraph("body", body))
	return b.output("y")
}

// doubling returns a model of n Concat nodes, each concatenating the previous output with itself,
// from x [N]: the dim doubles at each node, 2^n·N.
func doubling(n int) *model {
	b := newModel(17).input("x", "N")
	prev := "x"
	for i := range n {
		out := "c" + strconv.Itoa(i)
		b.node("concat"+strconv.Itoa(i), "Concat", []string{prev, prev}, []string{out}, attrInt("axis", 0))
		prev = out
	}
	return b.output(prev)
}

// symbolSum returns a model that concatenates n inputs [S_k] of distinct symbols in a chain: the dim
// is the sum of n symbols.
func symbolSum(n int) *model {
	b := newModel(17).input("x0", "S0")
	prev := "x0"
	for i := 1; i < n; i++ {
		x, out := "x"+strconv.Itoa(i), "c"+strconv.Itoa(i)
		b.input(x, "S"+strconv.Itoa(i)).node("concat"+strconv.Itoa(i), "Concat", []string{prev, x}, []string{out}, attrInt("axis", 0))
		prev = out
	}
	return b.output(prev)
}

// squaring returns a model that takes the shape [N] of x and multiplies it by itself n times:
// N^(2^n).
func squaring(n int) *model {
	b := newModel(17).input("x", "N").node("shape", "Shape", []string{"x"}, []string{"m0"})
	prev := "m0"
	for i := 1; i <= n; i++ {
		out := "m" + strconv.Itoa(i)
		b.node("mul"+strconv.Itoa(i), "Mul", []string{prev, prev}, []string{out})
		prev = out
	}
	return b.output(prev)
}

// symbolProduct returns a model that multiplies the shapes [S_k] of n inputs in a chain: the value
// is the product of n symbols.
func symbolProduct(n int) *model {
	b := newModel(17).input("x0", "S0").node("shape0", "Shape", []string{"x0"}, []string{"p0"})
	prev := "p0"
	for i := 1; i < n; i++ {
		x, s, out := "x"+strconv.Itoa(i), "s"+strconv.Itoa(i), "p"+strconv.Itoa(i)
		b.input(x, "S"+strconv.Itoa(i)).node("shape"+strconv.Itoa(i), "Shape", []string{x}, []string{s}).
			node("mul"+strconv.Itoa(i), "Mul", []string{prev, s}, []string{out})
		prev = out
	}
	return b.output(prev)
}

// valueGraph returns a model that computes Range(0, 65536) (MaxValue values) and then n Adds of 1
// in a chain, or with fanout n Adds of 1 to the Range.
func valueGraph(n int, fanout bool) *model {
	b := newModel(17).ints("a", []int64{}, 0).ints("b", []int64{}, MaxValue).ints("d", []int64{}, 1).ints("one", []int64{}, 1).
		node("range", "Range", []string{"a", "b", "d"}, []string{"r0"})
	for i := 1; i <= n; i++ {
		in := "r0"
		if !fanout {
			in = "r" + strconv.Itoa(i-1)
		}
		b.node("add"+strconv.Itoa(i), "Add", []string{in, "one"}, []string{"r" + strconv.Itoa(i)})
	}
	return b.output("r" + strconv.Itoa(n))
}

// checkValues checks that the tensor first has values, that last has the shape want without
// values, and that the tensors of the result hold at most the values the engine's budget allows.
func checkValues(t *testing.T, res *Result, first, last, want string) {
	t.Helper()
	if res.Tensor(first).Value == nil {
		t.Errorf("%s: no values", first)
	}
	tensorShape(t, res, last, want)
	if res.Tensor(last).Value != nil {
		t.Errorf("%s: values past the budget", last)
	}
	n := 0
	for _, in := range res.Tensors() {
		n += len(in.Value)
	}
	if n > minMaxValues+MaxValue {
		t.Errorf("the tensors hold %d values, more than the budget of %d", n, minMaxValues)
	}
}

// nodeResult returns the result of the node at path.
func nodeResult(t *testing.T, res *Result, path string) NodeResult {
	t.Helper()
	for _, r := range res.Nodes {
		if r.Path == path {
			return r
		}
	}
	t.Fatalf("no node %q in the result", path)
	return NodeResult{}
}

// tensorShape checks the shape of the main graph's tensor name.
func tensorShape(t *testing.T, res *Result, name, want string) {
	t.Helper()
	in := res.Tensor(name)
	if in == nil {
		t.Fatalf("no tensor %q", name)
	}
	if got := in.Shape.String(); got != want {
		t.Errorf("%s: shape %s, want %s", name, got, want)
	}
}

// checkInterval fails when d is exact or has a lower bound below lo: a dim whose expression grew past
// the cap must be an interval, and one that overflowed must not wrap around.
func checkInterval(t *testing.T, what string, d sym.Dim, lo int64) {
	t.Helper()
	if _, exact := d.Expr(); exact {
		t.Errorf("%s = %v: an expression, want an interval", what, d)
	}
	if l, _ := d.Bounds(); l < lo {
		t.Errorf("%s = %v: lower bound %d, want at least %d", what, d, l, lo)
	}
}

func badCases() []badCase {
	return []badCase{
		// The graph's errors: Infer fails.
		{name: "cycle", file: true, build: func() *model {
			return newModel(17).input("x", 2, 3).node("a", "Relu", []string{"b"}, []string{"a"}).
				node("b", "Add", []string{"x", "a"}, []string{"b"}).output("b")
		}, infer: errcode.ErrSyntax, where: `graph: node 0 ("a", Relu) is on a cycle`},
		{name: "cycle_self", file: true, build: func() *model {
			return newModel(17).input("x", 2, 3).node("a", "Add", []string{"x", "a"}, []string{"a"}).output("a")
		}, infer: errcode.ErrSyntax, where: `node 0 ("a", Add) is on a cycle`},
		{name: "cycle_through_subgraph", file: true, build: func() *model {
			then := onnx.Graph{Nodes: []onnx.Node{{Name: "t", OpType: "Identity", Inputs: []string{"y"}, Outputs: []string{"z"}}},
				Outputs: []onnx.ValueInfo{valueInfo("z", onnx.Float, -1)}}
			return newModel(17).input("x", 2).typedInput("c", onnx.Bool).
				node("if", "If", []string{"c"}, []string{"y"}, attrGraph("then_branch", then), attrGraph("else_branch", then)).output("y")
		}, infer: errcode.ErrSyntax, where: `node 0 ("if", If) is on a cycle`},
		{name: "undefined_input", file: true, build: func() *model {
			return newModel(17).input("x", 2, 3).node("relu", "Relu", []string{"x"}, []string{"y"}).
				node("add", "Add", []string{"y", "nowhere"}, []string{"z"}).output("z")
		}, infer: errcode.ErrSyntax, where: `node 1 ("add", Add): input 1 reads "nowhere", which nothing defines`},
		{name: "undefined_in_subgraph", file: true, build: func() *model {
			then := onnx.Graph{Nodes: []onnx.Node{{Name: "t", OpType: "Relu", Inputs: []string{"nowhere"}, Outputs: []string{"z"}}},
				Outputs: []onnx.ValueInfo{valueInfo("z", onnx.Float, -1)}}
			return newModel(17).input("x", 2).typedInput("c", onnx.Bool).
				node("if", "If", []string{"c"}, []string{"y"}, attrGraph("then_branch", then), attrGraph("else_branch", then)).output("y")
		}, infer: errcode.ErrSyntax, where: `node 0 ("if", If): a subgraph reads "nowhere", which nothing defines`},
		{name: "undefined_output", file: true, build: func() *model {
			return newModel(17).input("x", 2, 3).node("relu", "Relu", []string{"x"}, []string{"y"}).output("y", "nowhere")
		}, infer: errcode.ErrSyntax, where: `graph: output "nowhere": nothing defines it`},
		{name: "two_producers", file: true, build: func() *model {
			return newModel(17).input("x", 2, 3).node("relu", "Relu", []string{"x"}, []string{"y"}).
				node("abs", "Abs", []string{"x"}, []string{"y"}).output("y")
		}, infer: errcode.ErrSyntax, where: `node 1 ("abs", Abs) outputs "y", which node 0 ("relu") outputs already`},
		{name: "output_is_input", file: true, build: func() *model {
			return newModel(17).input("x", 2, 3).node("relu", "Relu", []string{"x"}, []string{"x"}).output("x")
		}, infer: errcode.ErrSyntax, where: `node 0 ("relu", Relu) outputs "x", which is an input or constant of the graph`},
		{name: "output_is_initializer", file: true, build: func() *model {
			return newModel(17).input("x", 2, 3).ints("p", nil, 6).node("relu", "Relu", []string{"x"}, []string{"p"}).output("p")
		}, infer: errcode.ErrSyntax, where: `node 0 ("relu", Relu) outputs "p", which is an input or constant of the graph`},

		// Malformed nodes: the node's result carries the error, inference goes on.
		{name: "reshape_one_input", build: func() *model {
			return newModel(13).input("x", 2, 3).node("reshape", "Reshape", []string{"x"}, []string{"y"}).
				node("relu", "Relu", []string{"y"}, []string{"z"}).output("z")
		}, node: "reshape", code: errcode.ErrSyntax, where: "reshape (Reshape): input 1 is missing", check: func(t *testing.T, res *Result) {
			tensorShape(t, res, "z", "[...]")
		}},
		{name: "reshape1_no_shape", build: func() *model {
			return newModel(1).input("x", 2, 3).node("reshape", "Reshape", []string{"x"}, []string{"y"}).output("y")
		}, node: "reshape", code: errcode.ErrSyntax, where: "reshape (Reshape): Reshape-1 has no shape attribute"},
		{name: "concat_no_inputs", file: true, build: func() *model {
			return newModel(17).input("x", 2).node("concat", "Concat", nil, []string{"y"}, attrInt("axis", 0)).output("y")
		}, node: "concat", code: errcode.ErrSyntax, where: "concat (Concat): Concat has no inputs"},
		{name: "gather_three_inputs", file: true, build: func() *model {
			return newModel(17).input("x", 2, 3).ints("i", nil, 1).node("gather", "Gather", []string{"x", "i", "i"}, []string{"y"}).output("y")
		}, node: "gather", code: errcode.ErrSyntax, where: "gather (Gather): 3 inputs, and Gather takes at most 2"},
		{name: "gather_one_input", file: true, build: func() *model {
			return newModel(17).input("x", 2, 3).node("gather", "Gather", []string{"x"}, []string{"y"}).output("y")
		}, node: "gather", code: errcode.ErrSyntax, where: "gather (Gather): input 1 is missing"},
		{name: "shape_no_input", file: true, build: func() *model {
			return newModel(17).node("shape", "Shape", nil, []string{"y"}).output("y")
		}, node: "shape", code: errcode.ErrSyntax, where: "shape (Shape): input 0 is missing"},
		{name: "range_two_inputs", file: true, build: func() *model {
			return newModel(17).ints("a", []int64{}, 0).node("range", "Range", []string{"a", "a"}, []string{"y"}).output("y")
		}, node: "range", code: errcode.ErrSyntax, where: "range (Range): input 2 is missing"},
		{name: "add_one_input", file: true, build: func() *model {
			return newModel(17).input("x", 2).node("add", "Add", []string{"x"}, []string{"y"}).output("y")
		}, node: "add", code: errcode.ErrSyntax, where: "add (Add)"},
		{name: "maxpool_three_outputs", file: true, build: func() *model {
			return newModel(17).input("x", 1, 2, 8, 8).node("pool", "MaxPool", []string{"x"}, []string{"y", "i", "z"}, attrInts("kernel_shape", 2, 2)).output("y")
		}, node: "pool", code: errcode.ErrSyntax, where: "pool (MaxPool): 3 outputs, and MaxPool has at most 2"},
		{name: "lstm_four_outputs", file: true, build: func() *model {
			return newModel(17).input("x", "T", "B", 4).input("w", 1, 32, 4).input("r", 1, 32, 8).
				node("lstm", "LSTM", []string{"x", "w", "r"}, []string{"y", "h", "c", "extra"}, attrInt("hidden_size", 8)).output("y")
		}, node: "lstm", code: errcode.ErrSyntax, where: "lstm (LSTM): 4 outputs, and LSTM has at most 3"},
		{name: "concat_axis_floats", file: true, build: func() *model {
			return newModel(17).input("x", 2, 3).node("concat", "Concat", []string{"x", "x"}, []string{"y"}, attrFloats("axis", 1)).output("y")
		}, node: "concat", code: errcode.ErrSyntax, where: "concat (Concat): attribute axis is FLOATS, want INT"},
		{name: "transpose_perm_string", file: true, build: func() *model {
			return newModel(17).input("x", 2, 3).node("transpose", "Transpose", []string{"x"}, []string{"y"}, attrString("perm", "1,0")).output("y")
		}, node: "transpose", code: errcode.ErrSyntax, where: "transpose (Transpose): attribute perm is STRING, want INTS"},
		{name: "unsqueeze_axes_int", file: true, build: func() *model {
			return newModel(11).input("x", 2, 3).node("unsqueeze", "Unsqueeze", []string{"x"}, []string{"y"}, attrInt("axes", 0)).output("y")
		}, node: "unsqueeze", code: errcode.ErrSyntax, where: "unsqueeze (Unsqueeze): attribute axes is INT, want INTS"},
		{name: "cast_to_string", file: true, build: func() *model {
			return newModel(17).input("x", 2).node("cast", "Cast", []string{"x"}, []string{"y"}, attrString("to", "int64")).output("y")
		}, node: "cast", code: errcode.ErrSyntax, where: "cast (Cast): attribute to is STRING, want INT"},
		{name: "constant_value_graph", file: true, build: func() *model {
			return newModel(17).node("const", "Constant", nil, []string{"y"}, attrGraph("value", onnx.Graph{})).output("y")
		}, node: "const", code: errcode.ErrSyntax, where: "const (Constant): attribute value is GRAPH, want TENSOR"},

		// Nesting: the decoder's bound, and a depth that must infer.
		{name: "nested_if_100", file: true, build: func() *model { return nestedIf(100) },
			decode: errcode.ErrLimit, where: "GraphProto.node[0]: NodeProto.attribute[0]: AttributeProto.g"},
		{name: "nested_if_30", build: func() *model { return nestedIf(30) }, check: func(t *testing.T, res *Result) {
			if !Supported("", "If") {
				return
			}
			path := "if30/then_branch/"
			for i := 29; i >= 1; i-- {
				path += "if" + strconv.Itoa(i) + "/then_branch/"
			}
			r := nodeResult(t, res, path+"relu")
			if r.Err != nil || r.Outputs[0].Shape.String() != "[N,3]" {
				t.Errorf("%s: %v, %v; want [N,3]", r.Path, r.Outputs[0].Shape, r.Err)
			}
		}},

		{name: "nested_loop_20", file: true, build: func() *model { return nestedLoop(20) },
			infer: errcode.ErrLimit, where: "top/body/loop20/body/loop19/body/loop18/body/"},
		{name: "nested_loop_8", build: func() *model { return nestedLoop(8) }, check: func(t *testing.T, res *Result) {
			tensorShape(t, res, "y", "[1..,3]")
		}},

		// Size: a long chain, in order and reversed, and one that unifies at every node.
		{name: "chain_1e5", build: func() *model { return chain(100_000, false) }, check: func(t *testing.T, res *Result) {
			tensorShape(t, res, "t99999", "[N,3]")
		}},
		{name: "chain_1e5_reversed", build: func() *model { return chain(100_000, true) }, check: func(t *testing.T, res *Result) {
			tensorShape(t, res, "t99999", "[N,3]")
		}},
		{name: "unify_chain_1e4", build: func() *model { return unifyChain(10_000) }, check: func(t *testing.T, res *Result) {
			tensorShape(t, res, "t9999", "[S0,10000]")
			tensorShape(t, res, "x9999", "[S0,1]")
		}},
		{name: "unify_chain_reversed_1e4", build: func() *model { return unifyChainReversed(10_000) }, check: func(t *testing.T, res *Result) {
			tensorShape(t, res, "t0", "[S0,10000]")
			tensorShape(t, res, "x9999", "[S0,1]")
		}},

		// Expressions that grow: past the size cap a dim is its interval.
		{name: "concat_doubling", file: true, build: func() *model { return doubling(70) },
			node: "concat62", code: errcode.ErrOverflow, where: "concat62 (Concat): input 1: the dims along axis 0 add up past int64",
			check: func(t *testing.T, res *Result) {
				tensorShape(t, res, "c40", "[2199023255552*N]")
				tensorShape(t, res, "c61", "[4611686018427387904*N]")
				tensorShape(t, res, "c69", "[...]")
			}},
		{name: "symbol_sum", build: func() *model { return symbolSum(100) }, check: func(t *testing.T, res *Result) {
			tensorShape(t, res, "c3", "[S0+S1+S2+S3]")
			checkInterval(t, "c99", res.Tensor("c99").Shape.Dims[0], 100)
		}},
		{name: "squaring", build: func() *model { return squaring(70) }, check: func(t *testing.T, res *Result) {
			if got := sym.ShapeOf(res.Tensor("m3").Value...).String(); got != "[N*N*N*N*N*N*N*N]" {
				t.Errorf("m3 = %s, want [N*N*N*N*N*N*N*N]", got)
			}
			checkInterval(t, "m6", res.Tensor("m6").Value[0], 1)
			checkInterval(t, "m70", res.Tensor("m70").Value[0], 1)
		}},
		{name: "symbol_product", build: func() *model { return symbolProduct(100) }, check: func(t *testing.T, res *Result) {
			if got := sym.ShapeOf(res.Tensor("p3").Value...).String(); got != "[S0*S1*S2*S3]" {
				t.Errorf("p3 = %s, want [S0*S1*S2*S3]", got)
			}
			checkInterval(t, "p99", res.Tensor("p99").Value[0], 1)
		}},

		// Huge static dims: an overflow is an error or an interval, never a wrapped number.
		{name: "flatten_overflow", file: true, build: func() *model {
			return newModel(17).input("x", int64(1)<<62, 8).node("flatten", "Flatten", []string{"x"}, []string{"y"}, attrInt("axis", 0)).output("y")
		}, node: "flatten", code: errcode.ErrOverflow, where: "flatten (Flatten): the product of dims 0 to 1 of [4611686018427387904,8] overflows int64"},
		{name: "reshape_overflow", file: true, build: func() *model {
			return newModel(17).input("x", int64(1)<<62, 8).ints("p", nil, -1).node("reshape", "Reshape", []string{"x", "p"}, []string{"y"}).output("y")
		}, node: "reshape", code: errcode.ErrOverflow, where: "reshape (Reshape): the volume of [4611686018427387904,8] overflows int64"},
		{name: "shape_mul_overflow", file: true, build: func() *model {
			return newModel(17).input("x", int64(math.MaxInt64), 2).node("shape", "Shape", []string{"x"}, []string{"s"}).
				ints("two", []int64{}, 2).node("mul", "Mul", []string{"s", "two"}, []string{"m"}).output("m")
		}, node: "mul", code: errcode.ErrOverflow, where: "mul (Mul): 9223372036854775807 Mul 2 overflows int64"},
		{name: "size_overflow", build: func() *model {
			return newModel(17).input("x", int64(math.MaxInt64), 2).node("size", "Size", []string{"x"}, []string{"n"}).output("n")
		}, check: func(t *testing.T, res *Result) {
			checkOverflow(t, res, "n", 0, true)
		}},
		{name: "concat_sum_overflow", file: true, build: func() *model {
			return newModel(17).input("x", int64(1)<<62).node("concat", "Concat", []string{"x", "x", "x", "x"}, []string{"y"}, attrInt("axis", 0)).output("y")
		}, node: "concat", code: errcode.ErrOverflow, where: "concat (Concat): input 1: the dims along axis 0 add up past int64"},

		// Large values: kept up to MaxValue elements.
		{name: "reshape_pattern_1e6", file: true, build: func() *model {
			return newModel(17).input("x", 2, 3).ints("n", nil, 1_000_000).
				node("pattern", "ConstantOfShape", []string{"n"}, []string{"p"}, attrTensor("value", intTensor("one", nil, 1))).
				node("reshape", "Reshape", []string{"x", "p"}, []string{"y"}).output("y")
		}, node: "reshape", code: errcode.ErrLimit, where: "reshape (Reshape)", check: func(t *testing.T, res *Result) {
			p := res.Tensor("p")
			if p.Shape.String() != "[1000000]" || p.Value != nil {
				t.Errorf("p: %v with %d values, want [1000000] without", p.Shape, len(p.Value))
			}
		}},
		{name: "range_1e6", file: true, build: func() *model {
			return newModel(17).ints("a", []int64{}, 0).ints("b", []int64{}, 1_000_000).ints("d", []int64{}, 1).
				node("range", "Range", []string{"a", "b", "d"}, []string{"r"}).
				node("reshape", "Reshape", []string{"r", "r"}, []string{"y"}).output("y")
		}, node: "reshape", code: errcode.ErrLimit, where: "reshape (Reshape)", check: func(t *testing.T, res *Result) {
			r := res.Tensor("r")
			if r.Shape.String() != "[1000000]" || r.Value != nil {
				t.Errorf("r: %v with %d values, want [1000000] without", r.Shape, len(r.Value))
			}
		}},

		// Large values computed over and over: the rules stop reading values past a budget.
		{name: "value_chain", build: func() *model { return valueGraph(400, false) }, check: func(t *testing.T, res *Result) {
			checkValues(t, res, "r1", "r400", "[65536]")
		}},
		{name: "value_fanout", build: func() *model { return valueGraph(400, true) }, check: func(t *testing.T, res *Result) {
			checkValues(t, res, "r1", "r400", "[65536]")
		}},

		// Control flow.
		{name: "if_branch_ranks", build: func() *model {
			then := onnx.Graph{Nodes: []onnx.Node{{Name: "t", OpType: "Shape", Inputs: []string{"x"}, Outputs: []string{"a"}}},
				Outputs: []onnx.ValueInfo{valueInfo("a", onnx.Int64, -1)}}
			els := onnx.Graph{Nodes: []onnx.Node{{Name: "e", OpType: "Unsqueeze", Inputs: []string{"x", "axes"}, Outputs: []string{"b"}}},
				Outputs: []onnx.ValueInfo{valueInfo("b", onnx.Float, -1)}}
			return newModel(17).input("x", "N", 3).typedInput("c", onnx.Bool).ints("axes", nil, 0).
				node("if", "If", []string{"c"}, []string{"y"}, attrGraph("then_branch", then), attrGraph("else_branch", els)).output("y")
		}, check: func(t *testing.T, res *Result) {
			if y := res.Tensor("y"); !y.Shape.RankDynamic {
				t.Errorf("y = %v, want a dynamic rank: the branches give ranks 1 and 3", y.Shape)
			}
		}},
		{name: "if_branch_outputs", file: true, build: func() *model {
			then := onnx.Graph{Nodes: []onnx.Node{{Name: "t", OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"a"}}},
				Outputs: []onnx.ValueInfo{valueInfo("a", onnx.Float, -1)}}
			els := onnx.Graph{Nodes: []onnx.Node{{Name: "e", OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"b"}}},
				Outputs: []onnx.ValueInfo{valueInfo("b", onnx.Float, -1), valueInfo("x", onnx.Float, -1)}}
			return newModel(17).input("x", "N", 3).typedInput("c", onnx.Bool).
				node("if", "If", []string{"c"}, []string{"y"}, attrGraph("then_branch", then), attrGraph("else_branch", els)).output("y")
		}, node: "if", code: errcode.ErrSyntax, where: "if (If)"},
		{name: "loop_body_outputs", file: true, build: func() *model {
			// The body takes (i, cond, v) and must give (cond, v); it gives cond only.
			body := onnx.Graph{Inputs: []onnx.ValueInfo{valueInfo("i", onnx.Int64), valueInfo("cin", onnx.Bool), valueInfo("v", onnx.Float, -1)},
				Nodes:   []onnx.Node{{Name: "id", OpType: "Identity", Inputs: []string{"cin"}, Outputs: []string{"cout"}}},
				Outputs: []onnx.ValueInfo{valueInfo("cout", onnx.Bool)}}
			return newModel(17).input("x", "N", 3).ints("m", []int64{}, 3).
				node("loop", "Loop", []string{"m", "", "x"}, []string{"y"}, attrGraph("body", body)).output("y")
		}, node: "loop", code: errcode.ErrSyntax, where: "loop (Loop)"},
		{name: "loop_body_inputs", file: true, build: func() *model {
			// The body must take (i, cond, v); it takes i and v.
			body := onnx.Graph{Inputs: []onnx.ValueInfo{valueInfo("i", onnx.Int64), valueInfo("v", onnx.Float, -1)},
				Nodes:   []onnx.Node{{Name: "id", OpType: "Identity", Inputs: []string{"v"}, Outputs: []string{"w"}}},
				Outputs: []onnx.ValueInfo{valueInfo("c", onnx.Bool), valueInfo("w", onnx.Float, -1)}}
			return newModel(17).input("x", "N", 3).ints("m", []int64{}, 3).typedInput("c", onnx.Bool).
				node("loop", "Loop", []string{"m", "", "x"}, []string{"y"}, attrGraph("body", body)).output("y")
		}, node: "loop", code: errcode.ErrSyntax, where: "loop (Loop)"},
	}
}

// checkOverflow fails unless the dim (or value) at index i of the named tensor is an interval
// without an upper bound: a dim or value past int64 is not known, never a wrapped-around number.
func checkOverflow(t *testing.T, res *Result, name string, i int, value bool) {
	t.Helper()
	in := res.Tensor(name)
	dims := in.Shape.Dims
	if value {
		dims = in.Value
	}
	if i >= len(dims) {
		t.Fatalf("%s: shape %v, values %v: no element %d", name, in.Shape, in.Value, i)
	}
	d := dims[i]
	if _, exact := d.Expr(); exact {
		t.Errorf("%s[%d] = %v: a number past int64 kept exact", name, i, d)
	}
	if _, hi := d.Bounds(); hi != sym.Inf {
		t.Errorf("%s[%d] = %v: a number past int64 bounded", name, i, d)
	}
}

// runBad runs one case on model bytes: decode, build, infer, and the checks.
func runBad(t *testing.T, tc badCase, data []byte) {
	t.Helper()
	m, err := onnx.DecodeModel(data)
	if tc.decode != nil || err != nil {
		checkErr(t, "DecodeModel", err, tc.decode, tc.where)
		return
	}
	g, err := FromONNX(m, "")
	if err != nil {
		t.Fatalf("FromONNX: %v", err)
	}
	res, err := Infer(g, Options{})
	if tc.infer != nil || err != nil {
		checkErr(t, "Infer", err, tc.infer, tc.where)
		return
	}
	for _, r := range res.Nodes {
		switch {
		case r.Path == tc.node:
			checkErr(t, "node "+r.Path, r.Err, tc.code, tc.where)
		case r.Err != nil:
			t.Errorf("node %s: %v", r.Path, r.Err)
		}
	}
	if tc.node != "" {
		nodeResult(t, res, tc.node)
	}
	if tc.check != nil {
		tc.check(t, res)
	}
}

// checkErr checks that err wraps code and that its message holds where.
func checkErr(t *testing.T, what string, err, code error, where string) {
	t.Helper()
	switch {
	case code == nil:
		t.Fatalf("%s: %v", what, err)
	case err == nil:
		t.Fatalf("%s: no error, want %v", what, code)
	case !errors.Is(err, code):
		t.Fatalf("%s: %v, want code %v", what, err, code)
	case errcode.Code(err) != code.Error():
		t.Fatalf("%s: %v: code %q, want %q", what, err, errcode.Code(err), code)
	case !strings.Contains(err.Error(), where):
		t.Fatalf("%s: %v, want the place %q", what, err, where)
	}
}

// TestBadGraphs runs inference on hostile graphs: a clear error that names the node or the place,
// never a panic or a hang.
func TestBadGraphs(t *testing.T) {
	for _, tc := range badCases() {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.file == false {
				t.Skip("a large graph")
			}
			runBad(t, tc, tc.build().encode())
		})
	}
}

// nestedIfGraph returns a graph of If nodes nested depth deep in their then_branch, built in Go
// (past the depth the decoder reads); with shared, both branches of every If are the same graph, so
// that inferring both branches at every level is 2^depth runs of a graph of depth+1 nodes.
func nestedIfGraph(depth int, shared bool) *Graph {
	g := &Graph{Name: "leaf", Nodes: []Node{{Name: "relu", Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y0"}}}, Outputs: []string{"y0"}}
	for i := 1; i <= depth; i++ {
		out := "y" + strconv.Itoa(i)
		els := &Graph{Name: "else", Nodes: []Node{{Name: "id", Op: "Identity", Inputs: []string{"x"}, Outputs: []string{"e"}}}, Outputs: []string{"e"}}
		if shared {
			els = g
		}
		g = &Graph{Name: "level" + strconv.Itoa(i), Outputs: []string{out}, Nodes: []Node{{Name: "if" + strconv.Itoa(i), Op: "If", Version: 17,
			Inputs: []string{"c"}, Outputs: []string{out},
			Attrs: []Attr{{Name: "then_branch", Kind: AttrGraph, Graph: g}, {Name: "else_branch", Kind: AttrGraph, Graph: els}}}}}
	}
	g.Name = "main"
	g.Inputs = []Input{{Name: "x", Decl: Decl{Type: element.F32, Rank: 2, Dims: []DeclDim{NamedDim("N"), StaticDim(3)}}},
		{Name: "c", Decl: Decl{Type: element.Boolean}}}
	return g
}

// TestSubgraphBounds checks the engine's bounds on subgraphs that the decoder cannot produce:
// nesting past 64, and a graph shared by both branches of nested Ifs (2^40 runs), refused after a
// number of runs proportional to the graph's size.
func TestSubgraphBounds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		g     *Graph
		where string
	}{
		{"nested 70", nestedIfGraph(70, false), "if70/then_branch/if69/then_branch/"},
		{"shared 40", nestedIfGraph(40, true), "more than 65536 nodes to infer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Infer(tc.g, Options{})
			checkErr(t, "Infer", err, errcode.ErrLimit, tc.where)
		})
	}
	res, err := Infer(nestedIfGraph(60, false), Options{})
	if err != nil {
		t.Fatalf("60 levels: %v", err)
	}
	tensorShape(t, res, "y60", "[N,3]")
}

// TestBadFiles runs the cases kept as files in the bad-input corpus: each file is what its case
// builds (go test -run TestBadFiles -update writes them), and fails as the case says.
func TestBadFiles(t *testing.T) {
	cases := map[string]badCase{}
	for _, tc := range badCases() {
		if !tc.file {
			continue
		}
		name := badPrefix + tc.name + ".onnx"
		cases[name] = tc
		if *update {
			if err := os.WriteFile(filepath.Join(badDir, name), tc.build().encode(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	paths, err := filepath.Glob(filepath.Join(badDir, badPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, path := range paths {
		name := filepath.Base(path)
		tc, ok := cases[name]
		if !ok {
			t.Errorf("%s: a file without a case in badCases", path)
			continue
		}
		seen[name] = true
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, tc.build().encode()) {
				t.Errorf("%s is not what the case builds: run go test -run TestBadFiles -update", path)
			}
			runBad(t, tc, data)
		})
	}
	for name := range cases {
		if !seen[name] {
			t.Errorf("%s: no such file in %s (go test -run TestBadFiles -update writes it)", name, badDir)
		}
	}
}

// reshapeChain returns a model of n Reshapes in a chain from x [N,3,4], each by the shape of its
// input computed in the graph (Shape → Reshape), 2n nodes.
func reshapeChain(n int) *model {
	b := newModel(17).input("x", "N", 3, 4)
	prev := "x"
	for i := range n {
		s, out := "s"+strconv.Itoa(i), "r"+strconv.Itoa(i)
		b.node("shape"+strconv.Itoa(i), "Shape", []string{prev}, []string{s}).
			node("reshape"+strconv.Itoa(i), "Reshape", []string{prev, s}, []string{out})
		prev = out
	}
	return b.output(prev)
}

// chains are the long graphs whose cost per node must not grow with their length.
var chains = []struct {
	name  string
	build func(n int) *model
}{
	{"relu", func(n int) *model { return chain(n, false) }},
	{"relu reversed", func(n int) *model { return chain(n, true) }},
	{"unify", unifyChain},
	{"unify reversed", unifyChainReversed},
	{"reshape", func(n int) *model { return reshapeChain(n / 2) }},
}

// inferCost returns the allocations and bytes one Infer of g allocates.
func inferCost(t *testing.T, g *Graph) (allocs, bytes float64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := Infer(g, Options{}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs - before.Mallocs), float64(after.TotalAlloc - before.TotalAlloc)
}

// TestChainLinear checks that the memory Infer allocates per node does not grow with the length
// of a chain: 10 times the nodes take at most 1.5 times the allocations and bytes per node. (Time
// per node is reported by BenchmarkChain.)
func TestChainLinear(t *testing.T) {
	for _, c := range chains {
		t.Run(c.name, func(t *testing.T) {
			small := decodeGraph(t, c.build(2_000).encode())
			large := decodeGraph(t, c.build(20_000).encode())
			a1, b1 := inferCost(t, small)
			a2, b2 := inferCost(t, large)
			t.Logf("per node: %.1f allocs, %.0f bytes at 2000 nodes; %.1f allocs, %.0f bytes at 20000", a1/2000, b1/2000, a2/20000, b2/20000)
			if a2/20_000 > 1.5*a1/2_000 {
				t.Errorf("allocations per node grow with the chain: %.1f at 2000 nodes, %.1f at 20000", a1/2000, a2/20000)
			}
			if b2/20_000 > 1.5*b1/2_000 {
				t.Errorf("bytes per node grow with the chain: %.0f at 2000 nodes, %.0f at 20000", b1/2000, b2/20000)
			}
		})
	}
}
