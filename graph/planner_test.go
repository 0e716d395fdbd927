package graph_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/graph"
)

// TestMemoryPlan checks the conditions of onnxruntime's memory planner against onnxruntime-node
// 1.20.1 (graph optimizations off) on bench/truth's plan_reuse: value_info declared at the export's
// L = 8, input renamed [1,4,L]. onnxruntime plans the baked Resize rs into the buffer of a, declared
// [1,4,8] too, and fails there below L = 8 ("Shape mismatch attempting to re-use buffer. {1,4,7} !=
// {1,4,8}"), runs at and above it. The truth harness exposes every tensor as a graph output, which
// changes the plan, so the runs were recorded on the model itself: refused at L = 1, 4, 7, run at
// L = 8, 9, 16. The same graph without its value_info plans by the inferred shapes: no condition.
func TestMemoryPlan(t *testing.T) {
	path := "../testdata/models/plan_reuse.onnx"
	for _, tc := range []struct {
		name     string
		declared bool
		refused  map[int64]bool
	}{
		{"declared", true, map[int64]bool{1: true, 4: true, 7: true, 8: false, 9: false, 16: false}},
		{"undeclared", false, map[int64]bool{1: false, 7: false, 8: false}},
	} {
		g := loadONNX(t, path)
		if !tc.declared {
			maps.DeleteFunc(g.Declared, func(name string, _ graph.Decl) bool { return name == "a_out" || name == "b_out" })
		}
		res, err := graph.Infer(g, graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		planned := 0
		for _, c := range res.NodeConstraints() {
			if !strings.HasPrefix(c.Origin.Why, "onnxruntime's memory planner") {
				continue
			}
			planned++
			if c.Origin.Node != "rs" || c.Pred.String() != "L >= 8" {
				t.Errorf("%s: %v, want L >= 8 at rs", tc.name, c)
			}
		}
		if want := map[bool]int{true: 1, false: 0}[tc.declared]; planned != want {
			t.Errorf("%s: %d conditions of the planner, want %d", tc.name, planned, want)
		}
		for l, refused := range tc.refused {
			b := map[string]int64{"L": l}
			if err := res.Check(b); (err != nil) != refused {
				t.Errorf("%s: L = %d: Check gives %v, onnxruntime refuses %v", tc.name, l, err, refused)
			}
			bound, err := graph.Infer(g, graph.Options{Dims: b})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range bound.Nodes {
				if (r.Err != nil) != (refused && r.Path == "rs") {
					t.Errorf("%s: L = %d: %s: error %v, onnxruntime refuses rs %v", tc.name, l, r.Path, r.Err, refused)
				}
			}
		}
	}
}
