package check_test

import (
	"cmp"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/check"
)

// TestBatchStudy: an IR network exported at a static batch is inferred again with its batch the
// symbol N, and what that needs is apart from the model's own conditions, each with the OpenVINO
// blocker that causes it; bindings of the inputs, and an ONNX model, have no study.
func TestBatchStudy(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		opt        check.Options
		// want is the study's constraints ("PRED at NODE [BLOCKER]"), "-" for no study; own
		// the model's own constraints.
		want, own string
		valid     check.Validity
	}{
		// The pattern [1,256] bakes the batch: 256*N == 256.
		{"baked flatten", "../testdata/ir/baked_flatten.xml", check.Options{},
			"N == 1 at flatten [hard-coded-reshape]", "", check.ValidWhen},
		// [1,-1] keeps the Reshape valid at every batch; the MatMul's [8,5] weight fixes 8*N == 8.
		{"constant matmul", "../testdata/ir/global_pool_fc.xml", check.Options{},
			"N == 1 at fc [constant-matmul]", "", check.ValidWhen},
		{"runs at every batch", "../testdata/ir/absorb_batch.xml", check.Options{}, "", "", check.ValidAlways},
		// Spatial dims freed by --input: the 7x7 kernel is a global pool at 7x7 only, and both the
		// pool's condition and the MatMul's downstream of it name it; no batch study.
		{"global pool", "../testdata/ir/global_pool_fc.xml", check.Options{Inputs: map[string]string{"image": "[1,3,H,W]"}},
			"-", "W >= 7 at pool [global-pool]; (H-6)*(W-6) == 1 at fc [global-pool at pool]", ""},
		{"batch asked for", "../testdata/ir/baked_flatten.xml", check.Options{BatchSize: 2}, "-", "", ""},
		{"onnx", "../testdata/models/absorb.onnx", check.Options{}, "-", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := check.File(tc.file, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := constraintList(rep.Constraints); got != tc.own {
				t.Errorf("own constraints %q, want %q", got, tc.own)
			}
			b := rep.Batch
			if tc.want == "-" {
				if b != nil {
					t.Errorf("a study: %+v", b)
				}
				return
			}
			if b == nil {
				t.Fatal("no study")
			}
			if got := constraintList(b.Constraints); got != tc.want {
				t.Errorf("study constraints %q, want %q", got, tc.want)
			}
			if b.Symbol != "N" || b.Valid() != tc.valid || !b.Complete || len(b.Failed) > 0 {
				t.Errorf("study %s over %v: valid %q, complete %v, failed %q; want %q", b.Symbol, b.Inputs, b.Valid(), b.Complete, b.Failed, tc.valid)
			}
			if want := map[string]string{"absorb_batch.xml": "x"}[filepath.Base(tc.file)]; strings.Join(b.Inputs, ",") != cmp.Or(want, "image") {
				t.Errorf("inputs %q, want %s", b.Inputs, cmp.Or(want, "image"))
			}
		})
	}
}

// constraintList writes constraints as "PRED at NODE [BLOCKER at BLOCKER_NODE]", joined by "; ".
func constraintList(cs []check.Constraint) string {
	var out []string
	for _, c := range cs {
		s := c.Holds.String() + " at " + c.Node
		switch {
		case c.BlockerNode != "":
			s += " [" + c.Blocker + " at " + c.BlockerNode + "]"
		case c.Blocker != "":
			s += " [" + c.Blocker + "]"
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}
