package graph

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPlannerInplace holds the planner's operator lists against onnxruntime-node 1.20.1's own plan
// (testdata/planner_inplace.json, bench/truth/planner_inplace.py): an operator writes its output
// in its input's buffer there exactly when inplaceOps or aliasOps lists it.
func TestPlannerInplace(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "planner_inplace.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Cases []struct {
			Op      string `json:"op"`
			Inplace bool   `json:"inplace"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx.Cases) < 50 {
		t.Fatalf("%d operators probed, want the 57 of bench/truth/planner_inplace.py", len(fx.Cases))
	}
	for _, c := range fx.Cases {
		if listed := slices.Contains(inplaceOps, c.Op) || slices.Contains(aliasOps, c.Op); listed != c.Inplace {
			t.Errorf("%s: listed %v, onnxruntime writes in place %v", c.Op, listed, c.Inplace)
		}
	}
}
