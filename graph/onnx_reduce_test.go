package graph_test

import (
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/sym"
)

func TestReduce(t *testing.T) {
	a := map[string]string{"a": "[B,T,6]"}
	m23 := map[string]*graph.Const{"v": ints([]int64{2, 3}, 1, 2, 3, 4, 5, 6)}
	checkNode(t, []nodeCase{
		{name: "sum 13 axes input", node: at(13, node("ReduceSum", []string{"a", "x"}, []string{"y"})), inputs: a,
			consts: map[string][]int64{"x": {1}}, want: []string{"[B,1,6]"}},
		{name: "sum 13 empty axes", node: at(13, node("ReduceSum", []string{"a", "x"}, []string{"y"}, attrInt("keepdims", 0))), inputs: a,
			consts: map[string][]int64{"x": {}}, want: []string{"[]"}},
		{name: "sum 13 noop", node: at(13, node("ReduceSum", []string{"a", "x"}, []string{"y"}, attrInt("noop_with_empty_axes", 1))), inputs: a,
			consts: map[string][]int64{"x": {}}, want: []string{"[B,T,6]"}},
		{name: "sum 13 no axes", node: at(13, node("ReduceSum", []string{"a"}, []string{"y"})), inputs: a, want: []string{"[1,1,1]"}},
		{name: "sum 11 axes attribute", node: at(11, node("ReduceSum", []string{"a"}, []string{"y"}, attrInts("axes", 2, 0))), inputs: a,
			want: []string{"[1,T,1]"}},
		{name: "mean 13 axes attribute", node: at(13, node("ReduceMean", []string{"a"}, []string{"y"}, attrInts("axes", -1), attrInt("keepdims", 0))),
			inputs: a, want: []string{"[B,T]"}},
		{name: "mean 18 axes input", node: at(18, node("ReduceMean", []string{"a", "x"}, []string{"y"})), inputs: a,
			consts: map[string][]int64{"x": {0, 2}}, want: []string{"[1,T,1]"}},
		{name: "mean 18 noop without axes", node: at(18, node("ReduceMean", []string{"a"}, []string{"y"}, attrInt("noop_with_empty_axes", 1))),
			inputs: a, want: []string{"[B,T,6]"}},
		{name: "max axes twice", node: at(13, node("ReduceMax", []string{"a"}, []string{"y"}, attrInts("axes", 1, -2), attrInt("keepdims", 0))),
			inputs: a, want: []string{"[B,6]"}},
		{name: "l2 axis out of range", node: at(13, node("ReduceL2", []string{"a"}, []string{"y"}, attrInts("axes", 3))), inputs: a,
			wantErr: errInvalidShape},
		{name: "axes unknown", node: at(18, node("ReduceLogSumExp", []string{"a", "x"}, []string{"y"})),
			inputs: map[string]string{"a": "[B,T,6]", "x": "[1]"}, types: map[string]element.Type{"x": element.I64}, want: []string{"[1..,1..,1..6]"}},
		{name: "axes unknown without keepdims", node: at(18, node("ReduceSumSquare", []string{"a", "x"}, []string{"y"}, attrInt("keepdims", 0))),
			inputs: map[string]string{"a": "[B,T,6]", "x": "[2]"}, types: map[string]element.Type{"x": element.I64}, want: []string{"[?]"}},
		{name: "sum values", node: node("ReduceSum", []string{"v", "x"}, []string{"y"}), tensors: m23,
			consts: map[string][]int64{"x": {0}}, want: []string{"[1,3]"}, values: []string{"[5,7,9]"}},
		{name: "prod values", node: node("ReduceProd", []string{"v"}, []string{"y"}, attrInts("axes", 1), attrInt("keepdims", 0)),
			tensors: m23, want: []string{"[2]"}, values: []string{"[6,120]"}},
		{name: "prod 18 values", node: at(18, node("ReduceProd", []string{"v"}, []string{"y"}, attrInt("keepdims", 0))),
			consts: map[string][]int64{"v": {2, 3, 4}}, want: []string{"[]"}, values: []string{"[24]"}},
		{name: "max values", node: node("ReduceMax", []string{"v"}, []string{"y"}, attrInts("axes", 1)), tensors: m23,
			want: []string{"[2,1]"}, values: []string{"[3,6]"}},
		{name: "min values", node: node("ReduceMin", []string{"v"}, []string{"y"}, attrInt("keepdims", 0)), tensors: m23,
			want: []string{"[]"}, values: []string{"[1]"}},
		{name: "prod of nothing", node: node("ReduceProd", []string{"v"}, []string{"y"}, attrInt("keepdims", 0)),
			consts: map[string][]int64{"v": {}}, want: []string{"[]"}, values: []string{"[1]"}},
		{name: "sum of nothing", node: node("ReduceSum", []string{"v", "x"}, []string{"y"}),
			tensors: map[string]*graph.Const{"v": ints([]int64{2, 0})}, consts: map[string][]int64{"x": {1}}, want: []string{"[2,1]"}, values: []string{"[0,0]"}},
		{name: "argmax", node: node("ArgMax", []string{"a"}, []string{"y"}, attrInt("axis", 1)), inputs: a, want: []string{"[B,1,6]"}},
		{name: "argmax without keepdims", node: node("ArgMax", []string{"a"}, []string{"y"}, attrInt("axis", 1), attrInt("keepdims", 0)),
			inputs: a, want: []string{"[B,6]"}},
		{name: "argmin last index", node: node("ArgMin", []string{"a"}, []string{"y"}, attrInt("axis", -1), attrInt("select_last_index", 1)),
			inputs: a, want: []string{"[B,T,1]"}},
		{name: "argmin default axis", node: node("ArgMin", []string{"a"}, []string{"y"}), inputs: a, want: []string{"[1,T,6]"}},
		{name: "argmax axis out of range", node: node("ArgMax", []string{"a"}, []string{"y"}, attrInt("axis", 3)), inputs: a,
			wantErr: errInvalidShape},
		{name: "argmax of nothing", node: node("ArgMax", []string{"a"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"a": "[B,0]"}, wantErr: errInvalidShape},
		// An empty output computes nothing: onnxruntime runs it.
		{name: "argmax of nothing to an empty output", node: node("ArgMax", []string{"a"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"a": "[0,0]"}, want: []string{"[0,1]"}},
	})
}

// TestReduceProdOfShape checks the volume a shape subgraph computes: ReduceProd(Shape(x)).
func TestReduceProdOfShape(t *testing.T) {
	tab := sym.NewTable()
	s, err := sym.ParseShape("[N,3,H,W]", tab)
	if err != nil {
		t.Fatal(err)
	}
	g := &graph.Graph{Consts: map[string]*graph.Const{}, Declared: map[string]graph.Decl{},
		Inputs: []graph.Input{{Name: "x", Decl: declOf(s, element.F32)}},
		Nodes: []graph.Node{
			at(13, node("Shape", []string{"x"}, []string{"s"})),
			at(13, node("ReduceProd", []string{"s"}, []string{"v"}, attrInt("keepdims", 0))),
			at(13, node("ReduceMax", []string{"s"}, []string{"m"}, attrInt("keepdims", 1))),
		}}
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"v": "[3*N*H*W]", "m": "[max(N,max(H,max(W,3)))]"} {
		info := res.Tensor(name)
		if got := sym.ShapeOf(info.Value...).String(); info.Value == nil || got != want {
			t.Errorf("%s: values %s, want %s", name, got, want)
		}
	}
}

func TestReduceTypes(t *testing.T) {
	checkTypes(t, []typeCase{
		{nodeCase{node: node("ArgMax", []string{"a"}, []string{"y"}), inputs: map[string]string{"a": "[B,T]"}}, []element.Type{element.I64}},
		{nodeCase{node: node("ReduceMean", []string{"a"}, []string{"y"}), inputs: map[string]string{"a": "[B,T]"},
			types: map[string]element.Type{"a": element.F16}}, []element.Type{element.F16}},
	})
}

// typeCase is a node and the element types of its outputs.
type typeCase struct {
	nodeCase
	types []element.Type
}

// checkTypes infers the nodes and compares the element types of their outputs.
func checkTypes(t *testing.T, cases []typeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.node.Op, func(t *testing.T) {
			res := runNode(t, tc.nodeCase)
			r := res.Nodes[len(res.Nodes)-1]
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			for i, want := range tc.types {
				if got := r.Outputs[i].Type; got != want {
					t.Errorf("output %d type = %v, want %v", i, got, want)
				}
			}
		})
	}
}
