package fix_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/fix"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/sym"
)

// verified is a fixture of bench/fix/verify.py: what reshape fix made of a model of the grids, and
// what onnx's checker and onnxruntime made of the fixed model.
type verified struct {
	Model       string `json:"model"`
	ModelSHA256 string `json:"model_sha256"`
	FixedSHA256 string `json:"fixed_sha256"`
	Rewrites    []struct {
		Node    string   `json:"node"`
		Before  string   `json:"before"`
		After   string   `json:"after"`
		Follows []string `json:"follows"`
	} `json:"rewrites"`
	Before    []string          `json:"before"`
	Remaining []string          `json:"remaining"`
	Checker   map[string]string `json:"checker"`
	Figures   map[string]int    `json:"figures"`
	Bindings  []struct {
		Dims   map[string]int64 `json:"dims"`
		Export bool             `json:"export"`
		Model  bool             `json:"model"`
		Fixed  bool             `json:"fixed"`
		Equal  *bool            `json:"equal"`
	} `json:"bindings"`
}

// TestVerified holds fix to what bench/fix/verify.py recorded with onnx 1.12 and onnxruntime
// 1.20.1 for every model of the grids (testdata/fix/*.json):
//   - Find still rewrites the same Reshapes into the same patterns, and leaves the same conditions;
//   - onnx's checker accepts the fixed model wherever it accepts the model;
//   - at every export binding onnxruntime ran, the fixed model's outputs were the model's, bit for
//     bit, and the fixed model runs wherever the model runs;
//   - the fixed model's constraints (Fix.After) predict where onnxruntime runs it: at every binding,
//     it runs exactly when they all hold;
//   - a model whose every condition comes from a Reshape that fix rewrites runs at every binding of
//     its grid once fixed (const_reshape_batch, channel_shuffle, attn_baked).
func TestVerified(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "fix", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in testdata/fix: %v", err)
	}
	everywhere := 0
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var v verified
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			path := testenv.Resolve(t, v.Model)
			// A model onnxruntime loads at no binding (a kernel it lacks): Find refuses it too, with
			// the node's load error, and there is nothing to fix.
			if v.Figures["model_runs"] == 0 {
				if m, err := onnx.Open(path, 0); err == nil {
					_, err = fix.Find(m, filepath.Dir(path), fix.Options{})
					m.Close()
					if errors.Is(err, errcode.ErrNoKernel) || errors.Is(err, errcode.ErrDataType) {
						return
					}
				}
			}
			f, _ := findFile(t, path)
			var got, want []string
			for _, r := range f.Rewrites {
				got = append(got, r.Node+" "+patternText(r.Before)+" -> "+patternText(r.After)+" "+strings.Join(r.Follows, ","))
			}
			for _, r := range v.Rewrites {
				want = append(want, r.Node+" "+r.Before+" -> "+r.After+" "+strings.Join(r.Follows, ","))
			}
			if !slices.Equal(got, want) {
				t.Errorf("rewrites\n%s\nwant (%s)\n%s", strings.Join(got, "\n"), file, strings.Join(want, "\n"))
			}
			got = nil
			for _, c := range f.Remaining() {
				got = append(got, c.Pred.String()+" ("+c.Origin.Node+")")
			}
			// The conditions as a set: their order is the result's (graph.Result.Constraints), which
			// verify.py did not check.
			slices.Sort(got)
			if !slices.Equal(got, slices.Sorted(slices.Values(v.Remaining))) {
				t.Errorf("remaining %q, want %q", got, v.Remaining)
			}
			if v.Checker["model"] == "ok" && v.Checker["fixed"] != "ok" {
				t.Errorf("onnx's checker accepts the model and refuses the fixed one: %s", v.Checker["fixed"])
			}
			if (len(v.Rewrites) == 0) != (v.FixedSHA256 == v.ModelSHA256) {
				t.Errorf("%d rewrites, and the fixed model's bytes %s the model's", len(v.Rewrites), map[bool]string{true: "are", false: "are not"}[v.FixedSHA256 == v.ModelSHA256])
			}
			if v.Figures["lost"] != 0 {
				t.Errorf("the fixed model is refused at %d bindings where the model runs", v.Figures["lost"])
			}
			onlyFixed := len(v.Before) > 0
			for _, c := range f.Before {
				onlyFixed = onlyFixed && slices.ContainsFunc(f.Rewrites, func(r fix.Rewrite) bool { return r.Node == c.Origin.Node })
			}
			table := sym.NewTable()
			var after []sym.Pred
			for _, c := range f.After {
				p, err := sym.ParsePred(c.Pred.String(), table)
				if err != nil {
					t.Fatal(err)
				}
				after = append(after, p)
			}
			for _, bd := range v.Bindings {
				if bd.Export && (bd.Equal == nil || !*bd.Equal) {
					t.Errorf("at the export binding %v the outputs are not the model's", bd.Dims)
				}
				if onlyFixed && !bd.Fixed {
					t.Errorf("every condition of the model comes from a Reshape fix rewrites, and the fixed model is refused at %v", bd.Dims)
				}
				holds := true
				for _, p := range after {
					ok, err := p.Eval(bd.Dims)
					holds = holds && err == nil && ok
				}
				if len(v.Rewrites) > 0 && holds != bd.Fixed {
					t.Errorf("at %v the fixed model's constraints say %v, onnxruntime %v", bd.Dims, holds, bd.Fixed)
				}
			}
			if onlyFixed {
				everywhere++
			}
		})
	}
	if everywhere < 3 {
		t.Errorf("%d models whose conditions all come from Reshapes fix rewrites, want const_reshape_batch, channel_shuffle and attn_baked", everywhere)
	}
}

// patternText returns the values of a pattern as verify.py writes them: "[0,3,7,-1,(W+1)//2]".
func patternText(v []sym.Dim) string {
	parts := make([]string, len(v))
	for i, d := range v {
		parts[i] = d.String()
	}
	return "[" + strings.Join(parts, ",") + "]"
}
