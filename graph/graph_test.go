package graph_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/onnx"
)

// sharedDir returns ../shared of the repository, or skips the test when it is missing.
func sharedDir(t testing.TB) string {
	dir := filepath.Join("..", "..", "shared")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no shared data at %s: %v", dir, err)
	}
	return dir
}

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
	g, err := graph.FromONNX(m)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestDebugShared(t *testing.T) {
	dir := sharedDir(t)
	for _, name := range []string{"gpt2_block.onnx"} {
		g := loadONNX(t, filepath.Join(dir, "realdata", "onnx", name))
		res, err := graph.Infer(g, graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Nodes {
			if r.Node.Op == "Reshape" || r.Err != nil {
				t.Logf("%s %s in=%v out=%v err=%v", r.Path, r.Node.Op, r.Inputs[0].Shape, r.Outputs[0].Shape, r.Err)
			}
		}
		t.Logf("unsupported: %v", res.Unsupported)
	}
}

func TestDebugSilero(t *testing.T) {
	dir := sharedDir(t)
	g := loadONNX(t, filepath.Join(dir, "realdata", "onnx", "silero_vad_v5.onnx"))
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Nodes[:3] {
		for _, in := range r.Inputs {
			t.Logf("%s in %v", r.Path, in.Shape)
		}
		t.Logf("%s out %v", r.Path, r.Outputs[0].Shape)
	}
}
