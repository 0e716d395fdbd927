package check_test

import (
	"path/filepath"
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/onnx"
)

// TestWithValueInfo writes the inferred shapes of idioms.onnx as value_info and reads them back:
// every undeclared tensor of the main graph gets one, expressions as dim_param.
func TestWithValueInfo(t *testing.T) {
	s, err := check.InferShapes(filepath.Join("..", "testdata", "models", "idioms.onnx"), check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.WithValueInfo()
	if err != nil {
		t.Fatal(err)
	}
	m, err := onnx.DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, vi := range m.Graph.ValueInfo {
		text := "["
		for i, d := range vi.Shape.Dims {
			if i > 0 {
				text += ","
			}
			switch {
			case d.IsStatic():
				text += d.String()
			case i < len(vi.DimParams) && vi.DimParams[i] != "":
				text += vi.DimParams[i]
			default:
				text += "?"
			}
		}
		got[vi.Name] = text + "]"
	}
	want := map[string]string{"shape": "[4]", "n": "[]", "n1": "[1]", "pattern": "[2]", "rows": "[N,3,(H+1)//2,W]",
		"rows_shape": "[4]", "head": "[2]", "pattern2": "[3]"}
	if len(got) != len(want) {
		t.Errorf("value_info = %v, want %v", got, want)
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("value_info %s = %s, want %s", name, got[name], w)
		}
	}
}
