package check_test

import (
	"slices"
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/graph"
)

// TestShapesPaths requires InferShapes, which `reshape shapes` prints, to list the tensors that
// graph.Result.Tensors lists, by the same paths, in the same order, with the same shapes: the
// command and the library agree.
func TestShapesPaths(t *testing.T) {
	for _, c := range []struct {
		path string
		dims map[string]int64
	}{
		{"../testdata/models/control_flow.onnx", nil},
		{"../testdata/models/control_flow.onnx", map[string]int64{"N": 2, "C": 3}},
		{"../testdata/models/idioms.onnx", nil},
		{"../testdata/models/ops_conv.onnx", map[string]int64{"N": 1}},
	} {
		s, err := check.InferShapes(c.path, check.Options{Dims: c.dims})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tensor := range s.Tensors {
			p := tensor.Name
			if tensor.Graph != "" {
				p = tensor.Graph + "/" + p
			}
			got = append(got, p+" "+tensor.Shape.String())
		}
		s.Close()
		g, err := graph.Open(c.path, graph.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := graph.Infer(g, graph.Options{Dims: c.dims})
		g.Close()
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for p, info := range res.Tensors() {
			want = append(want, p+" "+info.Shape.String())
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s %v: InferShapes lists\n%q\ngraph.Result.Tensors\n%q", c.path, c.dims, got, want)
		}
	}
}
