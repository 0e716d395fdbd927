package check_test

import (
	"strings"
	"testing"

	"github.com/reshape-go/reshape/check"
)

// TestAvoidable: an error in a branch of an If on a data input is the model's only when the other
// branch fails too. testdata/models/if_data_branch.onnx reshapes x [B,T] to [B,-1,8] when sr ==
// 16000 (then_branch) and to [B,-1,6] otherwise; onnxruntime runs it at T when 8 or 6 divides T
// (testdata/grid/if_data_branch.json).
func TestAvoidable(t *testing.T) {
	const model = "../testdata/models/if_data_branch.onnx"
	then, els := "if_sr/then_branch/if_sr/then/Reshape_0", "if_sr/else_branch/if_sr/else/Reshape_0"
	tests := []struct {
		t         int64
		verdicts  map[string]check.Verdict // by row name
		avoidable int
		errors    int
		valid     check.Validity
		message   string // in the avoidable row's message
	}{
		{6, map[string]check.Verdict{then: check.Avoidable, els: check.Inferred}, 1, 0, "always",
			"avoided when if_sr takes else_branch, which runs at these bindings (its condition is known at run time only); not-divisible: "},
		{8, map[string]check.Verdict{then: check.Inferred, els: check.Avoidable}, 1, 0, "always",
			"avoided when if_sr takes then_branch, which runs at these bindings"},
		{24, map[string]check.Verdict{then: check.Inferred, els: check.Inferred}, 0, 0, "always", ""},
		// Both fail: the errors stand, and the If's condition names the binding.
		{7, map[string]check.Verdict{then: "not-divisible", els: "not-divisible", "if_sr": "invalid-shape"}, 0, 3, "never", ""},
	}
	for _, tt := range tests {
		rep, err := check.File(model, check.Options{Dims: map[string]int64{"B": 2, "T": tt.t}})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]check.Verdict{}
		for _, r := range rep.Rows {
			got[r.Name] = r.Verdict
			if r.Verdict == check.Avoidable && !strings.Contains(r.Message, tt.message) {
				t.Errorf("T=%d: %s: message %q, want it to hold %q", tt.t, r.Name, r.Message, tt.message)
			}
		}
		if len(got) != len(tt.verdicts) {
			t.Errorf("T=%d: rows %v, want %v", tt.t, got, tt.verdicts)
		}
		for name, v := range tt.verdicts {
			if got[name] != v {
				t.Errorf("T=%d: %s: verdict %q, want %q", tt.t, name, got[name], v)
			}
		}
		s := check.Summarize([]*check.Report{rep})
		if s.Avoidable != tt.avoidable || s.Error != tt.errors || s.Valid != tt.valid || rep.Valid() != tt.valid {
			t.Errorf("T=%d: %d avoidable, %d error, valid %q (report %q); want %d, %d, %q", tt.t, s.Avoidable, s.Error, s.Valid, rep.Valid(), tt.avoidable, tt.errors, tt.valid)
		}
		if s.AllOK() != (tt.errors == 0) {
			t.Errorf("T=%d: AllOK %v with %d errors", tt.t, s.AllOK(), tt.errors)
		}
		sh, err := check.InferShapes(model, check.Options{Dims: map[string]int64{"B": 2, "T": tt.t}})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, x := range sh.Tensors {
			if x.Verdict == check.Avoidable {
				n++
			}
		}
		if n != tt.avoidable || sh.Valid() != tt.valid {
			t.Errorf("T=%d: shapes: %d avoidable tensors, valid %q; want %d, %q", tt.t, n, sh.Valid(), tt.avoidable, tt.valid)
		}
	}
}

// TestAvoidableNodeRow: the row of a node other than a Reshape whose error a run avoids counts as
// avoidable, not as a failing node.
func TestAvoidableNodeRow(t *testing.T) {
	rep := &check.Report{File: "m.onnx", Rows: []check.Row{
		{Name: "r", Op: "Reshape", Verdict: check.OK},
		{Name: "if/then_branch/add", Op: "Add", Verdict: check.Avoidable},
	}}
	s := check.Summarize([]*check.Report{rep})
	if s.Nodes != 0 || s.Avoidable != 1 || s.Error != 0 || strings.Contains(s.String(), "failing") {
		t.Errorf("%d failing nodes, %d avoidable, %d error: %s", s.Nodes, s.Avoidable, s.Error, s)
	}
}
