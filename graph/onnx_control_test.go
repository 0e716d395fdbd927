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
			if got := res.Tensor("y").Shape.String(); got != tc.want {
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
	if got := res.Tensor("final").Shape.String(); got != "[2..,C]" {
		t.Errorf("final = %s, want [2..,C]", got)
	}
	if got := res.Tensor("rows").Shape.String(); got != "[5,C]" {
		t.Errorf("rows = %s, want [5,C]", got)
	}
}

// TestScanState: the body's state output is the next iteration's state input, so the dims of the
// two unify: a state that Add broadcasts with a scanned slice keeps the state's dim.
func TestScanState(t *testing.T) {
	f32 := func(dims ...graph.DeclDim) graph.Decl {
		return graph.Decl{Type: element.F32, Rank: len(dims), Dims: dims}
	}
	body := &graph.Graph{
		Inputs:  []graph.Input{{Name: "s", Decl: f32(graph.DeclDim{Hi: graph.Inf})}, {Name: "e", Decl: f32(graph.DeclDim{Hi: graph.Inf})}},
		Outputs: []string{"s1", "o"},
		Nodes: []graph.Node{
			{Name: "Add_1", Op: "Add", Version: 17, Inputs: []string{"s", "e"}, Outputs: []string{"s1"}},
			{Name: "Id_1", Op: "Identity", Version: 17, Inputs: []string{"s1"}, Outputs: []string{"o"}},
		},
	}
	for _, tc := range []struct {
		name, state, x string
		want           []string
		err            bool
	}{
		{"two symbols", "S", "D", []string{"[S]", "[T,S]"}, false},
		{"a state of 1 and a slice of 4", "1", "4", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dim := func(s string) graph.DeclDim {
				if s == "1" || s == "4" {
					return graph.StaticDim(int64(s[0] - '0'))
				}
				return graph.NamedDim(s)
			}
			g := &graph.Graph{
				Inputs: []graph.Input{{Name: "init", Decl: f32(dim(tc.state))}, {Name: "x", Decl: f32(graph.NamedDim("T"), dim(tc.x))}},
				Nodes: []graph.Node{{Name: "Scan_0", Op: "Scan", Version: 16, Inputs: []string{"init", "x"}, Outputs: []string{"final", "stacked"},
					Attrs: []graph.Attr{{Name: "body", Kind: graph.AttrGraph, Graph: body}, attrInt("num_scan_inputs", 1)}}},
			}
			res, err := graph.Infer(g, graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r := res.Nodes[len(res.Nodes)-1]; (r.Err != nil) != tc.err {
				t.Fatalf("Scan's error: %v", r.Err)
			}
			for i, name := range []string{"final", "stacked"} {
				if i < len(tc.want) && res.Tensor(name).Shape.String() != tc.want[i] {
					t.Errorf("%s = %v, want %s", name, res.Tensor(name).Shape, tc.want[i])
				}
			}
		})
	}
}

// TestLoopIterationSlice: the body slices a constant [5] from its iteration number i to i+1, i
// one anonymous dim in [0, M-1] for the constant trip count M = 5, so the slice is [1] exactly; a
// graph input condition leaves the number of iterations at most 5. A slice whose end may pass the
// axis stays an interval.
func TestLoopIterationSlice(t *testing.T) {
	for _, tc := range []struct {
		name       string
		step       int64 // the end is i+step
		want, scan string
	}{
		{"i to i+1", 1, "[1]", "[..5,1]"},
		{"i to i+2, past the end at i = 4", 2, "[..5]", "[..5,..5]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := &graph.Graph{
				Inputs: []graph.Input{
					{Name: "i", Decl: graph.Decl{Type: element.I64, Rank: 0}},
					{Name: "c", Decl: graph.Decl{Type: element.Boolean, Rank: 0}},
				},
				Outputs: []string{"c", "part"},
				Consts: map[string]*graph.Const{"step": intConst("step", []int64{tc.step}, []int64{}), "zero": intConst("zero", []int64{0}, []int64{1}),
					"data": {Name: "data", Type: element.F32, Dims: []int64{5}}},
				Nodes: []graph.Node{
					{Name: "Add_1", Op: "Add", Version: 17, Inputs: []string{"i", "step"}, Outputs: []string{"end"}},
					{Name: "Unsqueeze_1", Op: "Unsqueeze", Version: 17, Inputs: []string{"i", "zero"}, Outputs: []string{"s"}},
					{Name: "Unsqueeze_2", Op: "Unsqueeze", Version: 17, Inputs: []string{"end", "zero"}, Outputs: []string{"e"}},
					{Name: "Slice_1", Op: "Slice", Version: 17, Inputs: []string{"data", "s", "e"}, Outputs: []string{"part"}},
				},
			}
			g := &graph.Graph{
				Inputs: []graph.Input{{Name: "cond", Decl: graph.Decl{Type: element.Boolean, Rank: 0}}},
				Consts: map[string]*graph.Const{"m": intConst("m", []int64{5}, []int64{})},
				Nodes: []graph.Node{{Name: "Loop_0", Op: "Loop", Version: 17, Inputs: []string{"m", "cond"}, Outputs: []string{"parts"},
					Attrs: []graph.Attr{{Name: "body", Kind: graph.AttrGraph, Graph: body}}}},
			}
			res, err := graph.Infer(g, graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Nodes {
				if r.Node.Op == "Slice" {
					if got := r.Outputs[0].Shape.String(); got != tc.want {
						t.Errorf("the body's slice = %s, want %s", got, tc.want)
					}
				}
			}
			if got := res.Tensor("parts").Shape.String(); got != tc.scan {
				t.Errorf("the scan output = %s, want %s", got, tc.scan)
			}
		})
	}
}

// TestLoopCarriedOptional: a loop-carried optional stays optional when the body empties it, so that
// OptionalHasElement after the loop does not claim an element.
func TestLoopCarriedOptional(t *testing.T) {
	body := &graph.Graph{
		Inputs: []graph.Input{
			{Name: "i", Decl: graph.Decl{Type: element.I64, Rank: 0}},
			{Name: "c", Decl: graph.Decl{Type: element.Boolean, Rank: 0}},
			{Name: "v", Decl: graph.Unknown},
		},
		Outputs: []string{"c", "v2"},
		Nodes:   []graph.Node{{Name: "Optional_1", Op: "Optional", Version: 18, Outputs: []string{"v2"}}},
	}
	for _, init := range []graph.Decl{
		{Type: element.F32, Rank: 1, Dims: []graph.DeclDim{graph.StaticDim(2)}, Optional: true},
		{Type: element.F32, Rank: 1, Dims: []graph.DeclDim{graph.StaticDim(2)}},
	} {
		g := &graph.Graph{
			Inputs: []graph.Input{{Name: "x", Decl: init}},
			Consts: map[string]*graph.Const{"m": intConst("m", []int64{3}, []int64{})},
			Nodes: []graph.Node{
				{Name: "Loop_0", Op: "Loop", Version: 18, Inputs: []string{"m", "", "x"}, Outputs: []string{"final"},
					Attrs: []graph.Attr{{Name: "body", Kind: graph.AttrGraph, Graph: body}}},
				{Name: "Has_0", Op: "OptionalHasElement", Version: 18, Inputs: []string{"final"}, Outputs: []string{"has"}},
			},
		}
		res, err := graph.Infer(g, graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if f := res.Tensor("final"); !f.Optional {
			t.Errorf("initial optional %v: the loop's output is not optional: %v %v", init.Optional, f.Type, f.Shape)
		}
		if h := res.Tensor("has"); h.Value != nil {
			t.Errorf("initial optional %v: OptionalHasElement after the loop = %v", init.Optional, h.Value)
		}
	}
}
