package graph_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
)

// TestReshapeOptionsAgree reads ONNX Reshape nodes both ways, as the rule of graph.Infer does and as
// Result.Reshape gives them to check, fix and conformance (the one reading of reshape.ONNXOptions):
// an allowzero before Reshape-14, or one other than 0 or 1, is refused by both with the same
// message; an allowzero both accept gives the same special_zero, which the inferred shape shows.
func TestReshapeOptionsAgree(t *testing.T) {
	for _, tc := range []struct {
		name      string
		opset     int64
		allowzero *int64
		want      string // the inferred output shape (reshapeGraph)
		wantErr   string // or the error both readings give
	}{
		{name: "opset 13 allowzero 0", opset: 13, allowzero: ptr(0), wantErr: "allowzero is an attribute of Reshape-14 and later, and the model imports opset 13"},
		{name: "opset 13 allowzero 1", opset: 13, allowzero: ptr(1), wantErr: "allowzero is an attribute of Reshape-14 and later, and the model imports opset 13"},
		{name: "opset 14 allowzero 2", opset: 14, allowzero: ptr(2), wantErr: "allowzero=2: want 0 or 1"},
		{name: "opset 21 allowzero -1", opset: 21, allowzero: ptr(-1), wantErr: "allowzero=-1: want 0 or 1"},
		{name: "opset 13 none", opset: 13, want: "[2,6]"},
		{name: "opset 14 none", opset: 14, want: "[2,6]"},
		{name: "opset 14 allowzero 0", opset: 14, allowzero: ptr(0), want: "[2,6]"},
		{name: "opset 19 allowzero 1", opset: 19, allowzero: ptr(1), want: "[0,3]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := graph.Node{Name: "r", Op: "Reshape", Version: tc.opset, Inputs: []string{"x", "p"}, Outputs: []string{"y"}}
			if tc.allowzero != nil {
				n.Attrs = []graph.Attr{{Name: "allowzero", Kind: graph.AttrInt, Int: *tc.allowzero}}
			}
			res, err := graph.Infer(reshapeGraph(n, tc.allowzero != nil && *tc.allowzero == 1), graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			node, ok := res.Reshape(&res.Nodes[0])
			if !ok {
				t.Fatal("Result.Reshape: not a Reshape")
			}
			cerr, gerr := node.Err, res.Nodes[0].Err
			if tc.wantErr != "" {
				for who, e := range map[string]error{"Result.Reshape": cerr, "the rule": gerr} {
					if !errors.Is(e, errcode.ErrSyntax) || !strings.Contains(e.Error(), tc.wantErr) {
						t.Errorf("%s: %v, want an error wrapping ErrSyntax with %q", who, e, tc.wantErr)
					}
				}
				return
			}
			if cerr != nil || gerr != nil {
				t.Fatalf("Result.Reshape: %v, the rule: %v", cerr, gerr)
			}
			if sz := tc.allowzero == nil || *tc.allowzero == 0; node.Options.SpecialZero != sz || node.Options.AllowZero == sz {
				t.Errorf("Result.Reshape: special_zero %v, allowzero %v, want special_zero %v", node.Options.SpecialZero, node.Options.AllowZero, sz)
			}
			if got := res.Nodes[0].Outputs[0].Shape.String(); got != tc.want {
				t.Errorf("graph: %s, want %s", got, tc.want)
			}
		})
	}
}

func ptr(v int64) *int64 { return &v }

// reshapeGraph returns a graph of the Reshape node n: with literal, data [0,3] reshaped by [0,3]
// (allowzero=1: a literal 0); otherwise data [2,2,3] by [0,-1] (the 0 copies 2).
func reshapeGraph(n graph.Node, literal bool) *graph.Graph {
	dims, pattern := []int64{2, 2, 3}, []int64{0, -1}
	if literal {
		dims, pattern = []int64{0, 3}, []int64{0, 3}
	}
	decl := graph.Decl{Type: element.F32, Rank: len(dims)}
	for _, d := range dims {
		decl.Dims = append(decl.Dims, graph.StaticDim(d))
	}
	p := pattern
	return &graph.Graph{
		Inputs: []graph.Input{{Name: "x", Decl: decl}},
		Consts: map[string]*graph.Const{"p": {Name: "p", Type: element.I64, Dims: []int64{int64(len(p))},
			Load: func(int64) ([]int64, []float64, error) { return p, nil, nil }}},
		Declared: map[string]graph.Decl{},
		Nodes:    []graph.Node{n},
		Outputs:  []string{"y"},
	}
}
