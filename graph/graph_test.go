package graph_test

import (
	"os"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/onnx"
)

func loadONNX(t testing.TB, path string) *graph.Graph {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := onnx.DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.FromONNX(m, "")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestTensorPaths looks tensors up by path: a tensor of the main graph by its name, one of a
// subgraph by its node's subgraph and its name, a subgraph's constant, and a tensor of the main graph
// whose name spells the path of a subgraph's tensor, which the main graph's wins.
func TestTensorPaths(t *testing.T) {
	g := &graph.Graph{
		Inputs: []graph.Input{
			{Name: "x", Decl: graph.Decl{Type: element.F32, Rank: 3, Dims: []graph.DeclDim{graph.NamedDim("N"), graph.StaticDim(3), graph.StaticDim(4)}}},
			{Name: "c", Decl: graph.Decl{Type: element.Boolean, Rank: 0}},
		},
		Outputs: []string{"y", "If_0/else_branch/else_y"},
		Nodes: []graph.Node{
			{Name: "If_0", Op: "If", Version: 17, Inputs: []string{"c"}, Outputs: []string{"y"}, Attrs: []graph.Attr{
				{Name: "then_branch", Kind: graph.AttrGraph, Graph: branch("then", []int64{0, -1})},
				{Name: "else_branch", Kind: graph.AttrGraph, Graph: branch("else", []int64{-1, 6})},
			}},
			{Name: "spells", Op: "Relu", Version: 14, Inputs: []string{"x"}, Outputs: []string{"If_0/else_branch/else_y"}},
		},
	}
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{"x", "[N,3,4]"},
		{"y", "[1..,6..12]"},
		{"If_0/then_branch/then_y", "[N,12]"},
		{"If_0/then_branch/then_p", "[2]"},
		{"If_0/else_branch/else_y", "[N,3,4]"}, // the main graph's Relu, not the branch's [2*N,6]
		{"If_0/then_branch/else_y", ""},
		{"then_y", ""},
	} {
		got := ""
		if in := res.Tensor(tc.path); in != nil {
			got = in.Shape.String()
		}
		if got != tc.want {
			t.Errorf("Tensor(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
