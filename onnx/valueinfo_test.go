package onnx

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

func TestSetShapes(t *testing.T) {
	x := ValueInfo{Name: "x", ElemType: Float, Shape: shape.Of(shape.Dynamic, shape.Static(3)), DimParams: []string{"N", ""}}
	branch := Graph{Name: "then", Nodes: []Node{{OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"t"}}},
		Outputs: []ValueInfo{{Name: "t", Shape: shape.DynamicRank()}}}
	m := &Model{IRVersion: 8, OpsetImports: []OpsetID{{Version: 17}}, Graph: Graph{Name: "g", Inputs: []ValueInfo{x},
		Nodes: []Node{
			{Name: "r", OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}},
			{OpType: "If", Inputs: []string{"c"}, Outputs: []string{"z"}, Attrs: []Attribute{{Name: "then_branch", Type: AttrGraph, G: &branch}}},
		},
		Outputs:   []ValueInfo{{Name: "z", Shape: shape.DynamicRank()}},
		ValueInfo: []ValueInfo{{Name: "y", ElemType: Float, Shape: shape.OfInts(3, 2)}},
	}}
	b, err := EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, 0x92, 0x01, 0x00) // an unknown field (18, bytes, empty): kept as it is
	set := func(name string, dims []shape.Dim, params ...string) ValueInfo {
		return ValueInfo{Name: name, ElemType: Float, Shape: shape.Of(dims...), DimParams: params}
	}
	graphs := map[string]GraphShapes{
		"": {
			Set: map[string]ValueInfo{
				"x": set("x", []shape.Dim{shape.Static(2), shape.Static(3)}, "", ""),
				"y": set("y", []shape.Dim{shape.Dynamic, shape.Static(3)}, "N", ""),
				"z": set("z", []shape.Dim{shape.Dynamic, shape.Static(3)}, "N", ""),
			},
			Add: []ValueInfo{set("w", []shape.Dim{shape.Dynamic}, "(H+1)//2")},
		},
		"If#1/then_branch": {Add: []ValueInfo{set("t", []shape.Dim{shape.Dynamic, shape.Static(3)}, "N", "")},
			Set: map[string]ValueInfo{"t": set("t", []shape.Dim{shape.Dynamic, shape.Static(3)}, "N", "")}},
	}
	out, err := SetShapes(b, graphs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeModel(out)
	if err != nil {
		t.Fatal(err)
	}
	g := got.Graph
	str := func(vi ValueInfo) string {
		s := vi.Shape.String()
		for _, p := range vi.DimParams {
			s += " " + p
		}
		return s
	}
	for _, c := range []struct {
		vi   ValueInfo
		want string
	}{
		{g.Inputs[0], "[2,3]"},
		{g.ValueInfo[0], "[?,3] N "},
		{g.ValueInfo[1], "[?] (H+1)//2"},
		{g.Outputs[0], "[?,3] N "},
		{g.Nodes[1].Attrs[0].G.Outputs[0], "[?,3] N "},
		{g.Nodes[1].Attrs[0].G.ValueInfo[0], "[?,3] N "},
	} {
		if str(c.vi) != c.want || c.vi.ElemType != Float {
			t.Errorf("%s = %q (type %v), want %q", c.vi.Name, str(c.vi), c.vi.ElemType, c.want)
		}
	}
	if len(g.ValueInfo) != 2 || g.Name != "g" || len(g.Nodes) != 2 || !slices.Equal(out[len(out)-3:], []byte{0x92, 0x01, 0x00}) {
		t.Errorf("the rest of the model changed: %+v", g)
	}
	// Nothing to set: the model as it was, byte for byte.
	if same, err := SetShapes(b, nil); err != nil || !bytes.Equal(same, b) {
		t.Errorf("SetShapes with nothing to write changed the model: %v", err)
	}
	if _, err := SetShapes([]byte{0x08, 0x01}, graphs); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("no graph: %v", err)
	}
	if _, err := SetShapes([]byte{0x3a, 0x09, 0x01}, graphs); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("truncated: %v", err)
	}
}
