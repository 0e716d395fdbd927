package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/fix"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
	"github.com/reshape-go/reshape/tensor"
)

func TestFixCommand(t *testing.T) {
	models := filepath.Join("..", "..", "testdata", "models")
	tests := []struct {
		name  string
		args  []string // the model is models/ARGS[len-1]+".onnx", OUT a file of a temporary directory
		code  int
		lines []string // lines stdout holds, in order
		// pattern is the values the first Reshape of the written model reads, when it is a
		// Constant; "none" says nothing is written (nothing is rewritten: OUT would be the model's
		// bytes).
		pattern string
	}{
		{"batch", []string{"const_reshape_batch"}, 0, []string{
			"flatten: [1,12] -> [0,12]",
			"  pattern[0] = 1 is input dim 0, N: 0 copies it",
			"export binding: N == 1 (at N=1 the fixed model computes what the model computes)",
			"after, runs at every binding",
			"1 Reshape rewritten, 0 left as they are"}, "[0 12]"},
		{"grid", []string{"yolo_head"}, 0, []string{
			"/Reshape: [1,3,7,8,8] -> [0,3,7,-1,(W+1)//2]",
			"  pattern[3] = 8 is input dim 2, (H+1)//2: -1 infers it",
			"  pattern[4] = 8 is input dim 3, (W+1)//2: read from the input's shape",
			"/Reshape_2: [1,-1,7] -> [0,-1,7], following /Reshape",
			"export binding: N == 1 && H in 15..16 && W in 15..16 (at N=1, H=15, W=15 the fixed model computes what the model computes)",
			"after, runs only when:",
			"  H in 13..16  /Concat_1 (Concat): input 1 dim 2",
			"  W in 13..16  /Concat_1 (Concat): input 1 dim 3",
			"2 Reshapes rewritten, 0 left as they are"}, ""},
		{"left", []string{"swin_window"}, 1, []string{
			"/Reshape_1: left as it is: its pattern has a -1, which adapts to the volume",
			"  B*(H//4)*(W//4) % 16 == 0  /Reshape_1 (Reshape): the -1 of pattern[0]: the input's volume a multiple of the other output dims; remains",
			"0 Reshapes rewritten, 1 left as they are, so nothing is written; 1 condition remains that fix cannot remove"}, "none"},
		// The equations of symbols the others pin (S*B == 20, B*T == 14) are left out.
		{"attention", []string{"mha_encdec"}, 0, []string{
			"export binding: S == 10 && B == 2 && T == 7 (at S=10, B=2, T=7 the fixed model computes what the model computes)",
			"after, runs at every binding"}, ""},
		{"export", []string{"--export", "N=1", "const_reshape_batch"}, 0, []string{"flatten: [1,12] -> [0,12]"}, "[0 12]"},
		{"export that no value fits", []string{"--export", "N=2", "const_reshape_batch"}, 1, []string{
			"flatten: left as it is: its pattern's values are sizes of no binding at which the model runs: N == 1 cannot hold with the model's other conditions and the export's values",
			"0 Reshapes rewritten, 1 left as they are, so nothing is written"}, "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "fixed.onnx")
			args := append([]string{"fix"}, tt.args[:len(tt.args)-1]...)
			model := filepath.Join(models, tt.args[len(tt.args)-1]+".onnx")
			code, stdout, stderr := cli("", append(args, model, out)...)
			if code != tt.code || stderr != "" {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, stdout, stderr)
			}
			inOrder(t, stdout, tt.lines)
			written, err := os.ReadFile(out)
			if tt.pattern == "none" {
				if !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("nothing rewritten, and OUT is there: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			orig, _ := os.ReadFile(model)
			if bytes.Equal(written, orig) {
				t.Errorf("the written model is the model's bytes")
			}
			m, err := onnx.DecodeModel(written)
			if err != nil {
				t.Fatalf("the written model does not decode: %v", err)
			}
			if tt.pattern != "" && tt.pattern != "same" {
				for _, n := range m.Graph.Nodes {
					if n.OpType == "Constant" && len(n.Attrs) == 1 && n.Attrs[0].T != nil {
						if ints, err := n.Attrs[0].T.Ints(); err != nil || fmt.Sprint(ints) != tt.pattern {
							t.Errorf("the new pattern %v, %v; want %s", ints, err, tt.pattern)
						}
					}
				}
			}
		})
	}
}

// inOrder fails the test unless stdout holds the lines, in order.
func inOrder(t *testing.T, stdout string, lines []string) {
	t.Helper()
	rest := stdout
	for _, line := range lines {
		i := strings.Index(rest, line)
		if i < 0 {
			t.Fatalf("stdout lacks %q after what came before:\n%s", line, stdout)
		}
		rest = rest[i+len(line):]
	}
}

// TestFixJSON: the records of fix --json, for ONNX and IR alike.
func TestFixJSON(t *testing.T) {
	tests := []struct {
		model   string // of testdata
		records []string
		want    []string
	}{
		{"models/channel_shuffle.onnx", []string{"rewrite", "rewrite", "summary"}, []string{
			`"node":"/Reshape","input":["N",8,"H","W"],"before":[1,2,4,"H","W"],"after":[0,2,4,"H","W"],"changes":[{"index":0,"value":1,"dims":[0,1],"dim":"N","how":"copy"}],"removes":[{"holds":"N == 1","node":"/Reshape","op":"Reshape","why":"the volume: [N,8,H,W] to [1,2,4,H,W]"}]`,
			`"node":"/Reshape_1","input":["N",4,2,"H","W"],"before":[1,-1,"H","W"],"after":[0,-1,"H","W"],"changes":[{"index":0,"value":1,"dims":[0,1],"dim":"N","how":"copy"}],"follows":["/Reshape"],"removes":[]`,
			`"rewrites":2,"left":0,"export":[{"holds":"N == 1","node":"/Reshape","op":"Reshape","why":"the export binding"}],"binding":{"N":1},"before":[{"holds":"N == 1","node":"/Reshape","op":"Reshape","why":"the volume: [N,8,H,W] to [1,2,4,H,W]"}],"after":[],"remaining":[],"written":true}`,
		}},
		{"ir/baked_flatten.xml", []string{"rewrite", "summary"}, []string{
			`{"record":"rewrite","node":"flatten","input":["N",4,8,8],"before":[1,256],"after":[0,256],"changes":[{"index":0,"value":1,"dims":[0,1],"dim":"N","how":"copy"}],"removes":[{"holds":"N == 1","node":"flatten","op":"Reshape","why":"the volume: [N,4,8,8] to [1,256]"}]}`,
			`"rewrites":1,"left":0,"export":[{"holds":"N == 1","node":"flatten","op":"Reshape","why":"the export binding"}],"binding":{"N":1},`,
		}},
	}
	for _, tt := range tests {
		model := filepath.Join("..", "..", "testdata", filepath.FromSlash(tt.model))
		out := filepath.Join(t.TempDir(), "fixed"+filepath.Ext(model))
		code, stdout, stderr := cli("", "fix", "--json", model, out)
		if code != 0 || stderr != "" {
			t.Fatalf("%s: exit %d\n%s%s", tt.model, code, stdout, stderr)
		}
		var records []string
		for line := range strings.Lines(stdout) {
			var r map[string]any
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%s: %q: %v", tt.model, line, err)
			}
			records = append(records, fmt.Sprint(r["record"]))
		}
		if strings.Join(records, " ") != strings.Join(tt.records, " ") {
			t.Fatalf("%s: records %v, want %v", tt.model, records, tt.records)
		}
		for _, w := range tt.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s: --json lacks %s\n%s", tt.model, w, stdout)
			}
		}
	}
}

func TestFixRefuses(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join("..", "..", "testdata", "models", "const_reshape_batch.onnx")
	garbage := filepath.Join(dir, "garbage.onnx")
	if err := os.WriteFile(garbage, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.onnx")
	nodir := filepath.Join(dir, "no", "out.onnx")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"one argument", []string{model}, "want MODEL.onnx and OUT.onnx, or MODEL.xml and OUT.xml, got 1 arguments"},
		{"stdout", []string{model, "-"}, "OUT must be a file: the model is proven from the file written"},
		{"bad --export", []string{"--export", "N=x", model, out}, "--export N=x: want a positive integer, the size at the export"},
		{"four bad --export: the least name's error", []string{"--export", "N=x", "--export", "M=0", "--export", "Q=-1", "--export", "K=y", model, out},
			"--export K=y: want a positive integer, the size at the export"},
		{"unknown --export", []string{"--export", "Q=1", model, out}, "a binding of Q: the model has no dim of that name (its symbols: N)"},
		{"missing model", []string{filepath.Join(dir, "none.onnx"), out}, "no such file or directory"},
		{"not a model", []string{garbage, out}, "reshape: syntax: " + garbage},
		{"missing directory", []string{model, nodir}, "reshape: io: " + nodir + ": no such file or directory"},
		{"OUT of another kind", []string{model, filepath.Join(dir, "x.npy")}, "OUT " + filepath.Join(dir, "x.npy") + ": writes an ONNX model, and the name does not end in .onnx"},
		{"OUT is the model", []string{model, filepath.Join(".", model)}, ": is the model read, which the output would replace: write it to another file"},
		{"model at stdin", []string{"-", out}, "MODEL -: fix reads a model file, not stdin"},
	}
	for _, tt := range tests {
		code, stdout, stderr := cli("", append([]string{"fix"}, tt.args...)...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%s: exit %d, %q, %q; want 2 and %q", tt.name, code, stdout, stderr, tt.stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s was written", tt.name, out)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("%s: %d files in the directory, a temporary file left", tt.name, len(entries))
		}
	}
	// A model whose external data OUT's directory would not hold is no error when nothing is
	// rewritten: nothing is written.
	code, stdout, stderr := cli("", "fix", filepath.Join("..", "..", "testdata", "external", "model.onnx"), out)
	if code != 0 || stderr != "" || !strings.HasSuffix(stdout, "0 Reshapes rewritten, 0 left as they are, so nothing is written\n") {
		t.Errorf("external data elsewhere, nothing rewritten: exit %d, %q, %q", code, stdout, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("external data elsewhere, nothing rewritten: %d files in the directory, want the one there", len(entries))
	}
}

// TestFixAmbiguousHint: a pattern whose values could stand for its input dims in several ways is
// left as it is, and the command names the flag that tells them apart (package fix does not).
func TestFixAmbiguousHint(t *testing.T) {
	v, err := tensor.FromSlice([]int64{1, 1, 3})
	if err != nil {
		t.Fatal(err)
	}
	p, err := onnx.NewTensor("p", v)
	if err != nil {
		t.Fatal(err)
	}
	m := onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 14}}, Graph: onnx.Graph{
		Inputs:       []onnx.ValueInfo{{Name: "x", ElemType: onnx.Float, Shape: shape.Of(shape.Dynamic, shape.Static(3)), DimParams: []string{"N", ""}}},
		Initializers: []onnx.Tensor{p},
		Nodes:        []onnx.Node{{Name: "r", OpType: "Reshape", Inputs: []string{"x", "p"}, Outputs: []string{"y"}}},
		Outputs:      []onnx.ValueInfo{{Name: "y", Shape: shape.DynamicRank()}},
	}}
	b, err := onnx.EncodeModel(&m)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "m.onnx")
	if err := os.WriteFile(in, b, 0o666); err != nil {
		t.Fatal(err)
	}
	const want = "r: left as it is: its values could stand for its input dims in 2 ways (pattern[0] = 1 is N; or pattern[1] = 1 is N): " +
		"the sizes of the export tell which (reshape fix --export)\n"
	for _, args := range [][]string{{"fix"}, {"fix", "--json"}} {
		code, stdout, stderr := cli("", append(args, in, filepath.Join(dir, "out.onnx"))...)
		if code != 1 || !strings.Contains(stdout, want) && !strings.Contains(stdout, `"why":"`+strings.TrimSuffix(strings.TrimPrefix(want, "r: left as it is: "), "\n")+`"`) {
			t.Errorf("%q: exit %d\n%s%s\nwant exit 1 and %q", args, code, stdout, stderr, want)
		}
	}
}

// TestFixIR fixes the IR fixtures: OUT.xml and OUT.bin are written, and check --batch-size runs
// the fixed model at the batches the baked pattern blocked.
func TestFixIR(t *testing.T) {
	models := filepath.Join("..", "..", "testdata", "ir")
	tests := []struct {
		model string
		code  int
		lines []string
	}{
		{"baked_flatten", 0, []string{
			"flatten: [1,256] -> [0,256]",
			"  pattern[0] = 1 is input dim 0, N: 0 copies it",
			"export binding: N == 1 (at N=1 the fixed model computes what the model computes)",
			"before, runs only when:",
			"  N == 1  flatten (Reshape): the volume: [N,4,8,8] to [1,256]",
			"after, runs at every binding",
			"1 Reshape rewritten, 0 left as they are"}},
		{"baked_merge", 0, []string{
			"merge: [1,3,16,5,16] -> [0,3,-1,5,x:5*x:6]",
			"  pattern[2] = 16 is input dims 2 to 3, x:2*x:3: -1 infers it",
			"  pattern[4] = 16 is input dims 5 to 6, x:5*x:6: read from the input's shape",
			"1 Reshape rewritten, 0 left as they are"}},
		{"absorb_batch", 0, []string{"0 Reshapes rewritten, 0 left as they are, so nothing is written"}},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			dir := t.TempDir()
			model, out := filepath.Join(models, tt.model+".xml"), filepath.Join(dir, "fixed.xml")
			code, stdout, stderr := cli("", "fix", model, out)
			if code != tt.code || stderr != "" {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, stdout, stderr)
			}
			inOrder(t, stdout, tt.lines)
			want := 2 // fixed.xml and fixed.bin
			if tt.model == "absorb_batch" {
				want, out = 0, model // nothing rewritten, nothing written
			}
			if entries, _ := os.ReadDir(dir); len(entries) != want {
				t.Fatalf("%d files written, want %d", len(entries), want)
			}
			for _, batch := range []string{"2", "8"} {
				code, stdout, stderr := cli("", "check", "--batch-size", batch, out)
				if tt.model == "absorb_batch" { // its -1 absorbs the batch: runs, and the outputs are wrong
					if code != 1 || !strings.Contains(stdout, "absorbs the batch N") {
						t.Errorf("check --batch-size %s of the unfixed absorption: exit %d\n%s%s", batch, code, stdout, stderr)
					}
					continue
				}
				if code != 0 || stderr != "" || strings.Contains(stdout, "error") && !strings.Contains(stdout, " 0 error") {
					t.Errorf("check --batch-size %s of the fixed model: exit %d\n%s%s", batch, code, stdout, stderr)
				}
			}
		})
	}
}

// TestFixIRRefuses: OUT must be an .xml, and a Reshape's Const pattern needs the .bin; on a
// refusal nothing is left.
func TestFixIRRefuses(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join("..", "..", "testdata", "ir", "baked_flatten.xml")
	code, stdout, stderr := cli("", "fix", model, filepath.Join(dir, "fixed.onnx"))
	if code != 2 || stdout != "" || !strings.Contains(stderr, "OUT "+filepath.Join(dir, "fixed.onnx")+": writes an IR network (its .bin beside it), and the name does not end in .xml") {
		t.Errorf("OUT.onnx: exit %d, %q, %q", code, stdout, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d files left", len(entries))
	}
	// Without the .bin the pattern's values are not known: nothing is written, and the error names
	// the .bin.
	src, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(dir, "alone.xml")
	if err := os.WriteFile(alone, src, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = cli("", "fix", alone, filepath.Join(dir, "out.xml"))
	want := "reshape: io: " + alone + ": " + filepath.Join(dir, "alone.bin") + `: not found: Reshape layer "5" ("flatten", line 40) reads its pattern from Const layer "4"`
	if code != 2 || stdout != "" || !strings.Contains(stderr, want) {
		t.Errorf("without the .bin: exit %d, %q, %q; want 2 and %q", code, stdout, stderr, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("without the .bin: %d files in the directory, want the model alone", len(entries))
	}
}

// TestFixExportBinding checks that the export binding reads as the fewest equations that say it:
// each Reshape of a ShuffleNet exported at 224x224 bakes the range of H and W its own stride
// leaves (H in 217..224 after a stride of 8, H in 209..224 after one of 16), which the narrowest
// implies, and Reshapes that bake the same batch give the same N == 1.
func TestFixExportBinding(t *testing.T) {
	tab := sym.NewTable()
	var export []sym.Constraint
	for i, p := range []string{"N == 1", "H in 217..224", "W in 217..224", "N == 1", "H in 209..224", "W in 209..224", "H in 193..224"} {
		pred, err := sym.ParsePred(p, tab)
		if err != nil {
			t.Fatal(err)
		}
		export = append(export, sym.Constraint{Pred: pred, Origin: sym.Origin{Node: fmt.Sprintf("Reshape_%d", i), Op: "Reshape", Why: "the export binding"}})
	}
	var out bytes.Buffer
	printFix(&out, &fix.Fix{Export: export, Binding: map[string]int64{"N": 1, "H": 217, "W": 217}}, nil, true)
	want := "export binding: N == 1 && H in 217..224 && W in 217..224 (at N=1, H=217, W=217 the fixed model computes what the model computes)\n"
	if got, _, _ := strings.Cut(out.String(), "before,"); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
