package graph_test

import (
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/graph"
)

// branch returns a subgraph of no inputs whose one output reshapes the outer tensor x by the
// constant pattern p.
func branch(name string, p []int64) *graph.Graph {
	return &graph.Graph{
		Name:    name,
		Outputs: []string{name + "_y"},
		Consts:  map[string]*graph.Const{name + "_p": intConst(name+"_p", p, []int64{int64(len(p))})},
		Nodes:   []graph.Node{{Name: "Reshape_1", Op: "Reshape", Version: 17, Inputs: []string{"x", name + "_p"}, Outputs: []string{name + "_y"}}},
	}
}

func TestIf(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cond     []int64 // nil: a graph input
		want     string
		paths    []string
		notTaken string // the Reshape of the branch a constant condition does not take, with its shape
	}{
		{"unknown condition: both branches, joined", nil, "[1..,6..12]", []string{"If_0/then_branch/Reshape_1", "If_0/else_branch/Reshape_1"}, ""},
		{"true", []int64{1}, "[N,12]", []string{"If_0/then_branch/Reshape_1"}, "If_0/else_branch/Reshape_1 [2*N,6]"},
		{"false", []int64{0}, "[2*N,6]", []string{"If_0/else_branch/Reshape_1"}, "If_0/then_branch/Reshape_1 [N,12]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &graph.Graph{
				Inputs:  []graph.Input{{Name: "x", Decl: graph.Decl{Type: element.F32, Rank: 3, Dims: []graph.DeclDim{graph.NamedDim("N"), graph.StaticDim(3), graph.StaticDim(4)}}}},
				Consts:  map[string]*graph.Const{},
				Outputs: []string{"y"},
				Nodes: []graph.Node{{Name: "If_0", Op: "If", Version: 17, Inputs: []string{"c"}, Outputs: []string{"y"}, Attrs: []graph.Attr{
					{Name: "then_branch", Kind: graph.AttrGraph, Graph: branch("then", []int64{0, -1})},
					{Name: "else_branch", Kind: graph.AttrGraph, Graph: branch("else", []int64{-1, 6})},
				}}},
			}
			if tc.cond == nil {
				g.Inputs = append(g.Inputs, graph.Input{Name: "c", Decl: graph.Decl{Type: element.Boolean, Rank: 0}})
			} else {
				g.Consts["c"] = &graph.Const{Name: "c", Type: element.Boolean, Dims: []int64{}, Load: func(int64) ([]int64, []float64, error) { return tc.cond, nil, nil }}
			}
			res, err := graph.Infer(g, graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Tensors["y"].Shape.String(); got != tc.want {
				t.Errorf("y = %s, want %s", got, tc.want)
			}
			var paths []string
			notTaken := ""
			for _, r := range res.Nodes {
				switch {
				case r.Node.Op != "Reshape":
				case r.NotTaken:
					notTaken = r.Path + " " + r.Outputs[0].Shape.String()
				default:
					paths = append(paths, r.Path)
				}
			}
			if strings.Join(paths, " ") != strings.Join(tc.paths, " ") || notTaken != tc.notTaken {
				t.Errorf("Reshapes at %q, and %q not taken; want %q and %q", paths, notTaken, tc.paths, tc.notTaken)
			}
		})
	}
}

func TestLoopCarriedGrows(t *testing.T) {
	// A loop that concatenates a [1,C] row to its carried [K,C] value M times, and scans out each
	// [C] row: the carried value leaves with an unknown number of rows, the scan output is [M',C].
	body := &graph.Graph{
		Inputs: []graph.Input{
			{Name: "i", Decl: graph.Decl{Type: element.I64, Rank: 0}},
			{Name: "cond", Decl: graph.Decl{Type: element.Boolean, Rank: 0}},
			{Name: "acc", Decl: graph.Unknown},
		},
		Outputs: []string{"cond", "acc2", "row"},
		Consts:  map[string]*graph.Const{"zero": intConst("zero", []int64{0}, []int64{1})},
		Nodes: []graph.Node{
			{Name: "Concat_1", Op: "Concat", Version: 17, Inputs: []string{"acc", "x"}, Outputs: []string{"acc2"}, Attrs: []graph.Attr{attrInt("axis", 0)}},
			{Name: "Squeeze_1", Op: "Squeeze", Version: 17, Inputs: []string{"x", "zero"}, Outputs: []string{"row"}},
		},
	}
	g := &graph.Graph{
		Inputs: []graph.Input{
			{Name: "x", Decl: graph.Decl{Type: element.F32, Rank: 2, Dims: []graph.DeclDim{graph.StaticDim(1), graph.NamedDim("C")}}},
			{Name: "init", Decl: graph.Decl{Type: element.F32, Rank: 2, Dims: []graph.DeclDim{graph.StaticDim(2), graph.NamedDim("C")}}},
		},
		Consts: map[string]*graph.Const{"m": intConst("m", []int64{5}, []int64{})},
		Nodes: []graph.Node{{Name: "Loop_0", Op: "Loop", Version: 17, Inputs: []string{"m", "", "init"}, Outputs: []string{"final", "rows"},
			Attrs: []graph.Attr{{Name: "body", Kind: graph.AttrGraph, Graph: body}}}},
	}
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Tensors["final"].Shape.String(); got != "[2..,C]" {
		t.Errorf("final = %s, want [2..,C]", got)
	}
	if got := res.Tensors["rows"].Shape.String(); got != "[5,C]" {
		t.Errorf("rows = %s, want [5,C]", got)
	}
}
