package graph_test

import (
	"os"
	"testing"

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
