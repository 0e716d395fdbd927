package onnx_test

import (
	"reflect"
	"testing"

	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

func TestEncodeModelRoundTrip(t *testing.T) {
	pattern, _ := tensor.FromSlice([]int64{0, -1})
	init, err := onnx.NewTensor("shape", pattern)
	if err != nil {
		t.Fatal(err)
	}
	scalar, _ := tensor.FromSlice([]int64{3}, []int64{}...)
	c, _ := onnx.NewTensor("", scalar)
	m := &onnx.Model{
		IRVersion:    8,
		OpsetImports: []onnx.OpsetID{{Domain: "", Version: 13}, {Domain: "com.example", Version: 1}},
		Graph: onnx.Graph{
			Name: "g",
			Nodes: []onnx.Node{
				{Name: "c", OpType: "Constant", Outputs: []string{"k"}, Attrs: []onnx.Attribute{{Name: "value", Type: onnx.AttrTensor, T: &c}}},
				{Name: "r", OpType: "Reshape", Inputs: []string{"x", "shape"}, Outputs: []string{"y"},
					Attrs: []onnx.Attribute{{Name: "allowzero", Type: onnx.AttrInt, I: 1}, {Name: "axes", Type: onnx.AttrInts, Ints: []int64{-1, 2}},
						{Name: "f", Type: onnx.AttrFloat, F: 1.5}, {Name: "s", Type: onnx.AttrString, S: []byte("hi")}}},
			},
			Initializers: []onnx.Tensor{init},
			Inputs:       []onnx.ValueInfo{{Name: "x", ElemType: onnx.Float, Shape: shape.Of(shape.Static(2), shape.Dynamic)}},
			Outputs:      []onnx.ValueInfo{{Name: "y", ElemType: onnx.Float, Shape: shape.DynamicRank()}},
			ValueInfo:    []onnx.ValueInfo{{Name: "k", ElemType: onnx.Int64, Shape: shape.Shape{}}},
		},
	}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := onnx.DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := back.Opset("ai.onnx"); v != 13 || back.IRVersion != 8 || back.Graph.Name != "g" || len(back.Graph.Nodes) != 2 {
		t.Fatalf("decoded %+v", back)
	}
	r := back.Graph.Nodes[1]
	if !reflect.DeepEqual(r.Inputs, []string{"x", "shape"}) || r.Attrs[0].I != 1 || !reflect.DeepEqual(r.Attrs[1].Ints, []int64{-1, 2}) ||
		r.Attrs[2].F != 1.5 || string(r.Attrs[3].S) != "hi" {
		t.Errorf("Reshape node %+v", r)
	}
	if ints, err := back.Graph.Initializers[0].Ints(); err != nil || !reflect.DeepEqual(ints, []int64{0, -1}) {
		t.Errorf("initializer %v, %v", ints, err)
	}
	if k := back.Graph.Nodes[0].Attrs[0].T; k == nil || len(k.Dims) != 0 {
		t.Errorf("Constant value %+v", k)
	} else if ints, _ := k.Ints(); !reflect.DeepEqual(ints, []int64{3}) {
		t.Errorf("Constant value %v", ints)
	}
	for _, want := range []struct{ name, shape string }{{"x", "[2,?]"}, {"y", "[...]"}, {"k", "[]"}} {
		if vi, ok := back.Graph.ValueInfoOf(want.name); !ok || vi.Shape.String() != want.shape {
			t.Errorf("value info %s: %+v", want.name, vi)
		}
	}
}
