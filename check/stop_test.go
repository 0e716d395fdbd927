package check_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/check"
)

// TestWhereRunStops checks, against onnxruntime's truth (bench/truth: gen_onnx.py's run_order and
// load_first, testdata/truth), that check names where onnxruntime stops at a binding that several
// nodes refuse: with the binding, its error rows come in the order onnxruntime meets the nodes
// (every node it refuses, in its order: run_order's last output first, of two sibling Convs the
// later in the file); without it, the first condition the binding breaks by seq names the same
// node, and a sibling that imposes the same condition is among its nodes. A model onnxruntime
// refuses at load (an Unsqueeze out of range) has that node's error first, before a Reshape that
// a run meets first and a Split whose error only a run meets (after a sequence). A model whose
// conditions no binding satisfies (never_holds) has, without a binding, an error row where
// onnxruntime stops at each.
func TestWhereRunStops(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "truth", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	loadNode := regexp.MustCompile(`failed:Node \(([^)]*)\)`)
	seen := 0
	for _, p := range paths {
		base := filepath.Base(p)
		if !strings.HasPrefix(base, "run_order.") && !strings.HasPrefix(base, "load_first.") && !strings.HasPrefix(base, "never_holds.") {
			continue
		}
		seen++
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var tr struct {
			Model       string                  `json:"model"`
			Binding     map[string]int64        `json:"binding"`
			OK          bool                    `json:"ok"`
			Error       string                  `json:"error"`
			FailedNodes []struct{ Name string } `json:"failed_nodes"`
		}
		if err := json.Unmarshal(b, &tr); err != nil {
			t.Fatal(err)
		}
		model := filepath.Join("..", "testdata", "models", filepath.Base(tr.Model))
		var want []string // the nodes onnxruntime refuses, in its order
		for _, f := range tr.FailedNodes {
			want = append(want, f.Name)
		}
		if m := loadNode.FindStringSubmatch(tr.Error); m != nil {
			want = []string{m[1]}
		}
		bound, err := check.File(model, check.Options{Dims: tr.Binding})
		if err != nil {
			t.Fatal(err)
		}
		var errs []string
		for _, r := range bound.Rows {
			if r.Verdict.IsError() {
				errs = append(errs, r.Name)
			}
		}
		switch {
		case tr.OK && len(errs) > 0:
			t.Errorf("%s: onnxruntime runs, check --dim has errors at %v", base, errs)
		case tr.FailedNodes != nil && strings.Join(errs, " ") != strings.Join(want, " "):
			t.Errorf("%s: check --dim errors at %v, onnxruntime refuses at %v, in that order", base, errs, want)
		case !tr.OK && (len(errs) == 0 || errs[0] != want[0]):
			t.Errorf("%s: check --dim errors at %v, onnxruntime refuses at load at %s", base, errs, want[0])
		}
		free, err := check.File(model, check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := firstStop(free, tr.Binding)
		switch {
		case tr.OK && got != nil:
			t.Errorf("%s: onnxruntime runs, check names %v", base, got)
		case !tr.OK && (len(got) == 0 || got[0] != want[0]):
			t.Errorf("%s: check names %v, onnxruntime refuses at %v", base, got, want)
		case len(want) > 1 && tr.FailedNodes[1].Name == "c1" && (len(got) < 2 || got[1] != "c1"):
			t.Errorf("%s: check names %v, without the sibling c1 that imposes the same condition", base, got)
		}
	}
	if seen != 13 {
		t.Errorf("%d fixtures of run_order, load_first and never_holds, want 13", seen)
	}
}

// firstStop returns the nodes of the first error row of the report without bindings (the model
// runs nowhere), else of the condition that the binding b breaks first by seq, among the
// constraints and the conditions they imply; nil when none breaks.
func firstStop(rep *check.Report, b map[string]int64) []string {
	for _, r := range rep.Rows {
		if r.Verdict.IsError() {
			return []string{r.Name}
		}
	}
	cs := rep.Constraints
	for _, im := range rep.Implied {
		cs = append(cs, im.Constraint)
	}
	var first *check.Constraint
	for i, c := range cs {
		if ok, _ := c.Holds.Eval(b); !ok && (first == nil || c.Seq < first.Seq) {
			first = &cs[i]
		}
	}
	if first == nil {
		return nil
	}
	if first.Nodes != nil {
		return first.Nodes
	}
	return []string{first.Node}
}

// TestNeverHolds: a condition that no binding satisfies, found once the conditions are minimized
// (bench/truth gen_onnx.py's never_holds: x [N,1,1,W] viewed [N,1,1,3,W//3,3] needs W == 9*(W//3);
// onnxruntime refuses every binding of testdata/truth at that Reshape, TestWhereRunStops) is an
// error row at its node, naming the condition as the node states it, not a condition: the model
// runs at no binding, and no symbol has a valid size.
func TestNeverHolds(t *testing.T) {
	rep, err := check.File("../testdata/models/never_holds.onnx", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	for _, r := range rep.Rows {
		if r.Verdict.IsError() {
			errs = append(errs, r.Name+" "+string(r.Verdict)+": "+r.Message)
		}
	}
	want := "windows invalid-shape: the volume: [N,1,1,W] to [N,1,1,3,W//3,3]: W == 9*(W//3) never holds"
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("error rows %q, want [%q]", errs, want)
	}
	if v := rep.Valid(); v != check.ValidNever {
		t.Errorf("valid %q, want %q", v, check.ValidNever)
	}
	var holds []string
	for _, c := range rep.Constraints {
		holds = append(holds, c.Holds.String())
	}
	if strings.Join(holds, "; ") != "W >= 3" {
		t.Errorf("constraints %q, want [W >= 3]", holds)
	}
	if got := rep.Sizes.String(); got != "N, W: none" {
		t.Errorf("sizes %q, want %q", got, "N, W: none")
	}
	if s := check.Summarize([]*check.Report{rep}); s.Valid != check.ValidNever || s.AllOK() {
		t.Errorf("summary valid %q, all ok %v; want %q, false", s.Valid, s.AllOK(), check.ValidNever)
	}
}

// TestTypeErrorRunsNowhere: a model a type error stops at every binding (raft_small's Sqrt of
// int64, here a Conv of int64 over [N,3,H,W]) runs at no binding, and its sizes say so: each free
// symbol "none" and no smallest binding, in Report and in Shapes, whatever the conditions of its
// other nodes leave.
func TestTypeErrorRunsNowhere(t *testing.T) {
	const file = "../graph/testdata/types/conv_i64.onnx"
	rep, err := check.File(file, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sh, err := check.InferShapes(file, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	for _, tc := range []struct {
		what  string
		valid check.Validity
		c     check.Conditions
	}{{"report", rep.Valid(), rep.Conditions}, {"shapes", sh.Valid(), sh.Conditions}} {
		if got := tc.c.Sizes.String(); tc.valid != check.ValidNever || got != "N, H, W: none" || tc.c.Sizes.Smallest != nil {
			t.Errorf("%s: valid %q, sizes %q, smallest %v; want never, \"N, H, W: none\", none", tc.what, tc.valid, got, tc.c.Sizes.Smallest)
		}
	}
}
