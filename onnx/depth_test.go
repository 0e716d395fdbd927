package onnx

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// nested returns a model whose graph holds an If node whose then_branch holds an If node, depth
// levels deep, the innermost branch a Reshape.
func nested(depth int) *Model {
	g := Graph{Name: "leaf", Nodes: []Node{{Name: "r", OpType: "Reshape", Inputs: []string{"x", "p"}, Outputs: []string{"y"}}}}
	for i := 0; i < depth; i++ {
		inner := g
		attrs := []Attribute{{Name: "then_branch", Type: AttrGraph, G: &inner}}
		if i == 0 {
			attrs = append(attrs, Attribute{Name: "else_branches", Type: AttrGraphs, Graphs: []Graph{inner, inner}})
		}
		g = Graph{Name: "level", Nodes: []Node{{Name: "if", OpType: "If", Inputs: []string{"c"}, Outputs: []string{"y"}, Attrs: attrs}}}
	}
	return &Model{IRVersion: 8, OpsetImports: []OpsetID{{Version: 17}}, Graph: g}
}

func TestSubgraphs(t *testing.T) {
	b, err := EncodeModel(nested(3))
	if err != nil {
		t.Fatal(err)
	}
	m, err := DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	g := &m.Graph
	for level := 0; level < 3; level++ {
		a, ok := g.Nodes[0].Attr("then_branch")
		if !ok || a.G == nil {
			t.Fatalf("level %d: no then_branch graph", level)
		}
		if e, ok := g.Nodes[0].Attr("else_branches"); ok != (level == 2) || ok && len(e.Graphs) != 2 {
			t.Fatalf("level %d: else_branches %v", level, e)
		}
		g = a.G
	}
	if g.Name != "leaf" || g.Nodes[0].OpType != "Reshape" {
		t.Errorf("innermost graph = %q %v", g.Name, g.Nodes)
	}
}

// TestDepthBound checks the bound on nesting: subgraphs nested 100 deep are refused with a limit
// error that says where, and 30 deep are read.
func TestDepthBound(t *testing.T) {
	b, _ := EncodeModel(nested(100))
	_, err := DecodeModel(b)
	if !errors.Is(err, errcode.ErrLimit) || !strings.Contains(err.Error(), "GraphProto.node[0]: NodeProto.attribute[0]: AttributeProto.g") ||
		!strings.Contains(err.Error(), "nest deeper than 128") {
		t.Errorf("100 levels: %v", err)
	}
	b, _ = EncodeModel(nested(30))
	if _, err := DecodeModel(b); err != nil {
		t.Errorf("30 levels: %v", err)
	}
}

func TestDimParams(t *testing.T) {
	vi := ValueInfo{Name: "x", ElemType: 1, Shape: shape.Of(shape.Dynamic, shape.Static(3), shape.Dynamic, shape.Dynamic), DimParams: []string{"N", "", "", "W"},
		Denotations: []string{"DATA_BATCH", "DATA_CHANNEL", "", ""}}
	m := &Model{IRVersion: 8, OpsetImports: []OpsetID{{Version: 17}}, Graph: Graph{Inputs: []ValueInfo{vi}}}
	b, _ := EncodeModel(m)
	got, err := DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	in := got.Graph.Inputs[0]
	if in.Shape.String() != "[?,3,?,?]" || !slices.Equal(in.DimParams, vi.DimParams) || !slices.Equal(in.Denotations, vi.Denotations) {
		t.Errorf("decoded %v %q %q, want [?,3,?,?] %q %q", in.Shape, in.DimParams, in.Denotations, vi.DimParams, vi.Denotations)
	}
	vi.DimParams, vi.Denotations = nil, nil
	m.Graph.Inputs[0] = vi
	b, _ = EncodeModel(m)
	if got, _ = DecodeModel(b); got.Graph.Inputs[0].DimParams != nil || got.Graph.Inputs[0].Denotations != nil {
		t.Errorf("no dim_param: DimParams = %q, Denotations %q, want nil", got.Graph.Inputs[0].DimParams, got.Graph.Inputs[0].Denotations)
	}
}
