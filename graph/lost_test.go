package graph

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/sym"
)

// ifModel returns a model whose If, on cond, runs then or els, with the graph inputs x [N,F] and c
// (a boolean scalar, which cond may name), and the nodes after it, built by rest.
func ifModel(cond string, then, els onnx.Graph, rest func(*model) *model) *model {
	b := newModel(17).input("x", "N", "F").typedInput("c", onnx.Bool).ints("one", nil, 1).ints("last", []int64{}, -1).
		node("shape", "Shape", []string{"x"}, []string{"s"}).
		node("f", "Gather", []string{"s", "last"}, []string{"fd"}).
		node("is1", "Equal", []string{"fd", "one"}, []string{"f1"}).
		node("if", "If", []string{cond}, []string{"y"}, attrGraph("then_branch", then), attrGraph("else_branch", els))
	return rest(b)
}

// squeezeLast returns a branch that squeezes the last axis of x, and keep one that gives x as it is.
func squeezeLast() (squeeze, keep onnx.Graph) {
	squeeze = onnx.Graph{Name: "then", Initializers: []onnx.Tensor{intTensor("ax", nil, 1)},
		Nodes:   []onnx.Node{{Name: "sq", OpType: "Squeeze", Inputs: []string{"x", "ax"}, Outputs: []string{"t"}}},
		Outputs: []onnx.ValueInfo{{Name: "t"}}}
	keep = onnx.Graph{Name: "else", Nodes: []onnx.Node{{Name: "id", OpType: "Identity", Inputs: []string{"x"}, Outputs: []string{"e"}}},
		Outputs: []onnx.ValueInfo{{Name: "e"}}}
	return squeeze, keep
}

// concatOfMany returns a model that concatenates n int64 graph inputs x0 [A0] ... (values of the
// data) into y: for n of 40, the sum of the lengths is over the expression size bound, as the
// proposals per level of a five-level RPN are (maskrcnn's /m/rpn/Concat_38).
func concatOfMany(n int) *model {
	b := newModel(17)
	var xs []string
	for i := range n {
		x := "x" + strconv.Itoa(i)
		b.typedInput(x, onnx.Int64, "A"+strconv.Itoa(i))
		xs = append(xs, x)
	}
	return b.node("cat", "Concat", xs, []string{"y"}, attrInt("axis", 0)).output("y")
}

// emptyOrNot returns a model whose If runs then where the count of non-zero elements of v [N] is 0
// (torchvision's batched_nms: boxes.numel() == 0, of the boxes a NonZero keeps) and els otherwise,
// both reading x, the NonZero's [1,count].
func emptyOrNot(then, els onnx.Graph) *model {
	return newModel(17).input("v", "N").ints("zero", nil, 0).
		node("nz", "NonZero", []string{"v"}, []string{"x"}).node("shape", "Shape", []string{"x"}, []string{"s"}).
		node("numel", "ReduceProd", []string{"s"}, []string{"n"}, attrInt("keepdims", 0)).
		node("empty", "Equal", []string{"n", "zero"}, []string{"e"}).
		node("if", "If", []string{"e"}, []string{"y"}, attrGraph("then_branch", then), attrGraph("else_branch", els)).output("y")
}

// TestLost checks where inference records a loss of precision (Result.Lost), and that a result
// without one is complete: its conditions are all the model needs, those of an If whose condition
// the symbols decide included, inferred once per branch.
func TestLost(t *testing.T) {
	squeeze, keep := squeezeLast()
	threeRows := onnx.Graph{Name: "bad", Initializers: []onnx.Tensor{intTensor("r", nil, 1, 2, 3)},
		Nodes:   []onnx.Node{{Name: "cat", OpType: "Concat", Inputs: []string{"x", "r"}, Outputs: []string{"t"}, Attrs: []onnx.Attribute{attrInt("axis", 0)}}},
		Outputs: []onnx.ValueInfo{{Name: "t"}}}
	for _, tc := range []struct {
		name        string
		b           *model
		opt         Options
		lost        []string // "NODE (OP): WHY [TENSOR]", with " (only a run decides)"
		constraints []string
		tensors     map[string]string
	}{
		{name: "complete", b: newModel(17).input("x", "N", 3, "H", "W").
			node("conv", "Conv", []string{"x", "w"}, []string{"y"}).output("y"),
			constraints: []string{"H >= 3 (conv (Conv): spatial axis 0 (axis 2): the output size H-2 of input size H at least 1)",
				"W >= 3 (conv (Conv): spatial axis 1 (axis 3): the output size W-2 of input size W at least 1)"},
			tensors: map[string]string{"y": "[N,8,H-2,W-2]"}},
		{name: "no shape rule, once", b: newModel(17).input("x", "B", "T").
			node("m", "Mystery", []string{"x"}, []string{"y"}).node("r", "Relu", []string{"y"}, []string{"z"}).output("z"),
			lost: []string{"m (Mystery): no shape rule for Mystery [y]"}},
		{name: "a count only a run decides", b: newModel(17).input("x", "N").node("nz", "NonZero", []string{"x"}, []string{"y"}).output("y"),
			lost: []string{"nz (NonZero): the count of non-zero elements of input 0 (only a run decides) [y]"}},
		{name: "a pattern of the data", b: newModel(17).input("x", "N", 6).typedInput("p", onnx.Int64, 2).
			node("r", "Reshape", []string{"x", "p"}, []string{"y"}).output("y"),
			lost: []string{"r (Reshape): the values of input 1 (p) are not known (only a run decides) [p]"}},
		// maskrcnn's paste of a mask: a Resize to the box's height and width, sizes of the data
		// beside the input's own leading dims, whose values the Concat does not keep.
		{name: "a Resize to sizes of the data", b: newModel(17).input("x", 1, 1, "H", "W").typedInput("hw", onnx.Int64, 2).
			ints("ones", nil, 1, 1).node("cat", "Concat", []string{"ones", "hw"}, []string{"sizes"}, attrInt("axis", 0)).
			node("r", "Resize", []string{"x", "", "", "sizes"}, []string{"y"}, attrString("mode", "linear")).output("y"),
			lost: []string{"r (Resize): the values of input 3 (sizes) are not known (only a run decides) [sizes]"}},
		{name: "a length over the expression size, of data values", b: concatOfMany(40),
			lost: []string{"cat (Concat): output 0 is [40..]: dim 0 is no expression in the symbols [y]"}},
		{name: "a pattern computed in floating point", b: newModel(17).input("x", "N", 6).
			node("s", "Shape", []string{"x"}, []string{"s"}).node("f", "Cast", []string{"s"}, []string{"sf"}, attrInt("to", int64(onnx.Float))).
			node("q", "Exp", []string{"sf"}, []string{"q"}).node("i", "Cast", []string{"q"}, []string{"p"}, attrInt("to", int64(onnx.Int64))).
			node("r", "Reshape", []string{"x", "p"}, []string{"y"}).output("y"),
			lost: []string{"r (Reshape): the values of input 1 (p) are not known [p]"}},
		{name: "an input of an interval", b: newModel(17).input("x", "N", 6).node("r", "Relu", []string{"x"}, []string{"y"}).output("y"),
			opt:  Options{Inputs: map[string]string{"x": "[1..4,6]"}},
			lost: []string{"x (input): its shape [1..4,6] is not in symbols: a condition on it cannot be stated [x]"}},
		{name: "an If on data joins", b: ifModel("c", squeeze, keep, func(b *model) *model { return b.output("y") }),
			lost: []string{"if (If): output 0 is [N] from then_branch and [N,F] from else_branch: the condition decides which (only a run decides) [y]"}},
		{name: "an If whose branch reads a count only a run decides", b: newModel(17).input("v", "N").ints("zero", nil, 0).ints("n", nil, 5).
			node("nz", "NonZero", []string{"v"}, []string{"x"}).
			node("shape", "Shape", []string{"v"}, []string{"s"}).node("f", "Gather", []string{"s", "zero"}, []string{"fd"}).
			node("is5", "Equal", []string{"fd", "n"}, []string{"f1"}).
			node("if", "If", []string{"f1"}, []string{"y"}, attrGraph("then_branch", keep), attrGraph("else_branch", keep)).output("y"),
			lost: []string{"nz (NonZero): the count of non-zero elements of input 0 (only a run decides) [x]"}},
		// fasterrcnn's If_1131: where the count is 0 a run takes then, which needs nothing; else
		// needs the count at least 1 (a ReduceMax of every axis), which its condition gives.
		{name: "an If on the emptiness of a count only a run decides", b: emptyOrNot(
			onnx.Graph{Name: "then", Initializers: []onnx.Tensor{intTensor("none", []int64{0})},
				Nodes:   []onnx.Node{{Name: "id", OpType: "Identity", Inputs: []string{"none"}, Outputs: []string{"t"}}},
				Outputs: []onnx.ValueInfo{{Name: "t"}}},
			onnx.Graph{Name: "else", Initializers: []onnx.Tensor{intTensor("ax", nil, 0)},
				Nodes: []onnx.Node{{Name: "max", OpType: "ReduceMax", Inputs: []string{"x"}, Outputs: []string{"m"}, Attrs: []onnx.Attribute{attrInt("keepdims", 0)}},
					{Name: "sq", OpType: "Squeeze", Inputs: []string{"x", "ax"}, Outputs: []string{"sq"}},
					{Name: "add", OpType: "Add", Inputs: []string{"sq", "m"}, Outputs: []string{"t"}}},
				Outputs: []onnx.ValueInfo{{Name: "t"}}}),
			lost: []string{"nz (NonZero): the count of non-zero elements of input 0 (only a run decides) [x]"}},
		// Where the count is not 0, else needs N even: no condition on N alone states it.
		{name: "an If on a count only a run decides, whose branch needs the symbols", b: emptyOrNot(
			onnx.Graph{Name: "then", Nodes: []onnx.Node{{Name: "id", OpType: "Identity", Inputs: []string{"v"}, Outputs: []string{"t"}}},
				Outputs: []onnx.ValueInfo{{Name: "t"}}},
			onnx.Graph{Name: "else", Initializers: []onnx.Tensor{intTensor("p", nil, 2, -1), intTensor("flat", nil, -1)},
				Nodes: []onnx.Node{{Name: "r", OpType: "Reshape", Inputs: []string{"v", "p"}, Outputs: []string{"r"}},
					{Name: "f", OpType: "Reshape", Inputs: []string{"r", "flat"}, Outputs: []string{"t"}}},
				Outputs: []onnx.ValueInfo{{Name: "t"}}}),
			lost: []string{"nz (NonZero): the count of non-zero elements of input 0 (only a run decides) [x]",
				"if (If): then_branch needs nothing more and else_branch needs N % 2 == 0: the condition decides which a run takes [y]"}},
		// silero v6's If on its input sr == 16000: each branch's need is stated, under the one the
		// model needs of either (then's conditions imply else's here).
		{name: "an If on an input's value, whose branches need the symbols", b: newModel(17).input("v", "N").typedInput("sr", onnx.Int64).
			ints("rate", nil, 16000).ints("rows6", nil, 6, -1).ints("rows3", nil, 3, -1).ints("flat", nil, -1).
			node("is16k", "Equal", []string{"sr", "rate"}, []string{"c"}).
			node("if", "If", []string{"c"}, []string{"y"},
				attrGraph("then_branch", onnx.Graph{Name: "then", Nodes: []onnx.Node{
					{Name: "r6", OpType: "Reshape", Inputs: []string{"v", "rows6"}, Outputs: []string{"r"}},
					{Name: "f6", OpType: "Reshape", Inputs: []string{"r", "flat"}, Outputs: []string{"t"}}},
					Outputs: []onnx.ValueInfo{{Name: "t"}}}),
				attrGraph("else_branch", onnx.Graph{Name: "else", Nodes: []onnx.Node{
					{Name: "r3", OpType: "Reshape", Inputs: []string{"v", "rows3"}, Outputs: []string{"r"}},
					{Name: "f3", OpType: "Reshape", Inputs: []string{"r", "flat"}, Outputs: []string{"t"}}},
					Outputs: []onnx.ValueInfo{{Name: "t"}}})).output("y"),
			lost:        []string{"if (If): then_branch needs N % 6 == 0 and else_branch needs nothing more: the condition decides which a run takes (only a run decides) [y]"},
			constraints: []string{"N % 3 == 0 (if (If): what then_branch needs, or what else_branch needs)"},
			tensors:     map[string]string{"y": "[N]"}},
		{name: "an If on the symbols, once per branch: the other fails", b: ifModel("f1", squeeze, keep, func(b *model) *model {
			return b.ints("three", nil, 7, 8, 9).node("float", "Cast", []string{"three"}, []string{"f3"}, attrInt("to", 1)).
				node("cat", "Concat", []string{"y", "f3"}, []string{"z"}, attrInt("axis", 0)).output("z")
		}),
			constraints: []string{"F == 1 (cat (Concat): where it does not hold, if takes its other branch, and this node fails)"},
			tensors:     map[string]string{"y": "[N]", "z": "[N+3]"}},
		{name: "an If on the symbols, once per branch: both run", b: ifModel("f1", squeeze, keep, func(b *model) *model {
			return b.ints("flat", nil, -1).input("v", "N").node("r", "Reshape", []string{"y", "flat"}, []string{"yf"}).
				node("add", "Add", []string{"yf", "v"}, []string{"z"}).output("z")
		}),
			constraints: []string{"N == 1 || F == 1 (add (Add): what the branch of if that its condition takes needs)"},
			tensors:     map[string]string{"yf": "[1..]", "z": "[1..]"}},
		{name: "an If on the symbols whose branch fails", b: ifModel("f1", threeRows, keep, func(b *model) *model { return b.output("y") }),
			constraints: []string{"F >= 2 (if/then_branch/cat (Concat): where it does not hold, if takes the branch of this node, which fails)"},
			tensors:     map[string]string{"y": "[N,F]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "complete" {
				tc.b.m.Graph.Initializers = append(tc.b.m.Graph.Initializers, floatTensor("w", 8, 3, 3, 3))
			}
			res, err := Infer(decodeGraph(t, tc.b.encode()), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			var lost []string
			for _, l := range res.Lost() {
				lost = append(lost, l.String()+" ["+l.Tensor+"]")
			}
			if strings.Join(lost, "\n") != strings.Join(tc.lost, "\n") {
				t.Errorf("lost:\n%s\nwant\n%s", strings.Join(lost, "\n"), strings.Join(tc.lost, "\n"))
			}
			if res.Complete() != (len(tc.lost) == 0) {
				t.Errorf("Complete() = %v with %d losses", res.Complete(), len(tc.lost))
			}
			var cs []string
			for _, c := range res.Constraints() {
				cs = append(cs, c.String())
			}
			if strings.Join(cs, "\n") != strings.Join(tc.constraints, "\n") {
				t.Errorf("constraints:\n%s\nwant\n%s", strings.Join(cs, "\n"), strings.Join(tc.constraints, "\n"))
			}
			for name, want := range tc.tensors {
				if got := res.Tensor(name).Shape.String(); got != want {
					t.Errorf("%s: %s, want %s", name, got, want)
				}
			}
		})
	}
}

// TestForkCheck checks a model inferred once per branch of an If at bindings: where the condition
// sends a run to the branch after which the model fails, Check names the failing node, and Eval
// refuses the binding.
func TestForkCheck(t *testing.T) {
	squeeze, keep := squeezeLast()
	b := ifModel("f1", squeeze, keep, func(b *model) *model {
		return b.ints("three", nil, 7, 8, 9).node("float", "Cast", []string{"three"}, []string{"f3"}, attrInt("to", 1)).
			node("cat", "Concat", []string{"y", "f3"}, []string{"z"}, attrInt("axis", 0)).output("z")
	})
	res, err := Infer(decodeGraph(t, b.encode()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if dims, err := res.Eval("z", map[string]int64{"N": 5, "F": 1}); err != nil || len(dims) != 1 || dims[0] != 8 {
		t.Errorf("Eval(z) at N=5, F=1: %v, %v; want [8]", dims, err)
	}
	var ce *sym.ConstraintError
	if _, err := res.Eval("z", map[string]int64{"N": 5, "F": 2}); !errors.As(err, &ce) || ce.Constraint.Origin.Node != "cat" {
		t.Errorf("Eval(z) at N=5, F=2: %v; want F == 1 broken at cat", err)
	}
	bound, err := Infer(decodeGraph(t, b.encode()), Options{Dims: map[string]int64{"N": 5, "F": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if f := firstFailed(bound); f == nil || f.Path != "cat" {
		t.Errorf("the bound run at F=2 fails at %v, want cat", f)
	}
}

// TestNoLossDownstreamOfAnError checks that an If whose branches read a tensor left unknown by an
// error upstream (silero_vad_legacy's If_177 behind Conv_132, at sequence=100) records no loss of
// precision: its outputs are unknown because of the error, which the error row already says, and
// they block the nodes after it as the error's other tensors do.
func TestNoLossDownstreamOfAnError(t *testing.T) {
	reads := func(name string) onnx.Graph {
		return onnx.Graph{Name: name, Nodes: []onnx.Node{{Name: "id", OpType: "Identity", Inputs: []string{"z"}, Outputs: []string{name + "_t"}}},
			Outputs: []onnx.ValueInfo{{Name: name + "_t"}}}
	}
	for _, cond := range []string{"c", "one"} { // of the data (both branches joined), a constant (one taken)
		b := newModel(17).input("x", "N", "F").typedInput("c", onnx.Bool).ints("one", nil, 1).
			node("rows", "ConstantOfShape", []string{"three"}, []string{"r"}).ints("three", nil, 1, 3).
			node("cat", "Concat", []string{"x", "r"}, []string{"z"}, attrInt("axis", 0)).
			node("truth", "Cast", []string{"one"}, []string{"t"}, attrInt("to", int64(onnx.Bool))).
			node("if", "If", []string{map[string]string{"c": "c", "one": "t"}[cond]}, []string{"y"},
				attrGraph("then_branch", reads("then")), attrGraph("else_branch", reads("else"))).
			node("after", "Relu", []string{"y"}, []string{"w"}).output("w")
		g := decodeGraph(t, b.encode())
		for _, tc := range []struct {
			dims   map[string]int64
			failed string // the node whose error leaves w unknown
		}{
			{map[string]int64{"F": 3}, ""},
			{map[string]int64{"F": 2}, "cat"},
		} {
			res, err := Infer(g, Options{Dims: tc.dims})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Complete() {
				t.Errorf("condition %s, at %v: lost %v, want none", cond, tc.dims, res.Lost())
			}
			if got := res.Tensor("w").FailedAt; got != tc.failed {
				t.Errorf("condition %s, at %v: w failed at %q, want %q", cond, tc.dims, got, tc.failed)
			}
		}
	}
}

// TestIfBranchesImposeAlike checks that a condition both branches of an If on data impose names
// both nodes, then's first: silero_vad_legacy's sequence >= 192, which onnxruntime reports at
// then_branch/Conv_132 for sr=16000 and at else_branch/Conv_606 for sr=8000.
func TestIfBranchesImposeAlike(t *testing.T) {
	halves := func(name string) onnx.Graph {
		return onnx.Graph{Name: name, Initializers: []onnx.Tensor{intTensor("p", nil, 2, -1)},
			Nodes:   []onnx.Node{{Name: "r", OpType: "Reshape", Inputs: []string{"x", "p"}, Outputs: []string{name + "_t"}}},
			Outputs: []onnx.ValueInfo{{Name: name + "_t"}}}
	}
	b := ifModel("c", halves("then"), halves("else"), func(b *model) *model { return b.output("y") })
	res, err := Infer(decodeGraph(t, b.encode()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Constraints() {
		s := c.Pred.String() + " @"
		for _, o := range c.Origins() {
			s += " " + o.Node
		}
		got = append(got, s)
	}
	want := "N*F % 2 == 0 @ if/then_branch/r if/else_branch/r"
	if strings.Join(got, "\n") != want {
		t.Errorf("constraints:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	if !res.Complete() {
		t.Errorf("incomplete: %v", res.Lost())
	}
}
