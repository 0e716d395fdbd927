package onnx

import (
	"errors"
	"slices"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

func TestAddValueInfo(t *testing.T) {
	in := ValueInfo{Name: "x", ElemType: Float, Shape: shape.Of(shape.Dynamic, shape.Static(3)), DimParams: []string{"N", ""}}
	m := &Model{IRVersion: 8, OpsetImports: []OpsetID{{Version: 17}}, Graph: Graph{Name: "g", Inputs: []ValueInfo{in},
		Nodes: []Node{{Name: "r", OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}}}}}
	b, err := EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, 0x92, 0x01, 0x00) // an unknown field (18, bytes, empty): kept as it is
	vis := []ValueInfo{{Name: "y", ElemType: Float, Shape: shape.Of(shape.Dynamic, shape.Static(3), shape.Dynamic),
		DimParams: []string{"N", "", "(H+1)//2"}}}
	out, err := AddValueInfo(b, vis)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeModel(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Graph.ValueInfo) != 1 || got.Graph.ValueInfo[0].Name != "y" || got.Graph.ValueInfo[0].Shape.String() != "[?,3,?]" ||
		!slices.Equal(got.Graph.ValueInfo[0].DimParams, vis[0].DimParams) {
		t.Errorf("value_info = %+v", got.Graph.ValueInfo)
	}
	if len(got.Graph.Nodes) != 1 || got.Graph.Name != "g" || !slices.Equal(out[len(out)-3:], []byte{0x92, 0x01, 0x00}) {
		t.Errorf("the rest of the model changed: %+v", got.Graph)
	}
	if _, err := AddValueInfo([]byte{0x08, 0x01}, vis); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("no graph: %v", err)
	}
	if _, err := AddValueInfo([]byte{0x3a, 0x09, 0x01}, vis); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("truncated: %v", err)
	}
}
