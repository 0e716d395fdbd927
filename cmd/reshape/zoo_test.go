package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

const models = "../../testdata/models"

// copyModels copies models of testdata/models into a new directory.
func copyModels(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(models, n))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, n), b, 0o644)
	}
	return dir
}

// TestCheckDirectoryGate checks a directory as a CI gate does: files with a model's extension that
// are not models are skipped with a note, --dim names that a model does not have are fine, a
// directory without a model is an error, and the rows come in the order of the files whatever
// order the cores finish them in.
func TestCheckDirectoryGate(t *testing.T) {
	dir := copyModels(t, "idioms.onnx", "seqfirst.onnx", "convnet.onnx")
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name": "zoo", "version": "1.0.0"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "pom.xml"), []byte(`<?xml version="1.0"?><project><modelVersion>4.0.0</modelVersion></project>`), 0o644)
	code, stdout, stderr := cli("", "check", "--dim", "N=2", dir)
	wantErr := "reshape: note: " + filepath.Join(dir, "package.json") + `: not a model, skipped: a JSON object without the key "graph" of oneDNN Graph's models` + "\n" +
		"reshape: note: " + filepath.Join(dir, "pom.xml") + ": not a model, skipped: an XML file whose root element is <project>, not an OpenVINO IR <net>\n"
	if code != 0 || stderr != wantErr || !strings.HasSuffix(stdout, "3 reshapes in 3 files: 3 ok, 0 mismatch, 0 inferred, 0 error; 1 constraint; 2 files skipped: not models\n") ||
		!strings.Contains(stdout, filepath.Join(dir, "idioms.onnx")+" runs at every binding of H, W\n") {
		t.Errorf("a directory with package.json and pom.xml: exit %d\n%s%s", code, stdout, stderr)
	}
	// Rows in the order of the files: idioms (2 rows), seqfirst (1), whatever finishes first.
	lines := strings.Split(stdout, "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[1], filepath.Join(dir, "idioms.onnx")) || !strings.HasPrefix(lines[3], filepath.Join(dir, "seqfirst.onnx")) {
		t.Errorf("rows out of order:\n%s", stdout)
	}
	for range 5 {
		if _, again, _ := cli("", "check", "--dim", "N=2", dir); again != stdout {
			t.Fatalf("a second run prints otherwise:\n%s\nthen\n%s", stdout, again)
		}
	}
	// One file: a --dim it does not have is still an error.
	if code, _, stderr := cli("", "check", "--dim", "T=3", filepath.Join(dir, "idioms.onnx")); code != 2 || !strings.Contains(stderr, "a binding of T: the model has no dim of that name") {
		t.Errorf("one file with a foreign --dim: exit %d, %s", code, stderr)
	}
	code, stdout, stderr = cli("", "check", "--json", dir)
	if code != 0 || stderr != "" || !strings.Contains(stdout, `{"record":"skipped","file":"`+filepath.Join(dir, "package.json")+`","reason":"a JSON object without the key \"graph\" of oneDNN Graph's models"}`) ||
		!strings.HasSuffix(stdout, `"files":3,"unreadable":0,"skipped":2}`+"\n") {
		t.Errorf("--json: exit %d\n%s%s", code, stdout, stderr)
	}
	// No model at all: an error, whatever else the directory holds.
	os.Remove(filepath.Join(dir, "idioms.onnx"))
	os.Remove(filepath.Join(dir, "seqfirst.onnx"))
	os.Remove(filepath.Join(dir, "convnet.onnx"))
	if code, _, stderr := cli("", "check", dir); code != 2 || !strings.Contains(stderr, "reshape: syntax: "+dir+": no model in its tree (.onnx, .xml of OpenVINO IR, .json of oneDNN Graph): the 2 files with their extensions are not models\n") {
		t.Errorf("no model: exit %d, %s", code, stderr)
	}
	empty := t.TempDir()
	if code, stdout, stderr := cli("", "check", empty); code != 2 || !strings.Contains(stderr, "no model in its tree") || !strings.Contains(stdout, "1 file could not be read") {
		t.Errorf("an empty directory: exit %d, %s%s", code, stdout, stderr)
	}
}

// TestDownstreamRows: downstream of a node whose inputs break its rule, tensors and Reshapes are
// unknown, and say why; the declaration is never shown as what inference gives.
func TestDownstreamRows(t *testing.T) {
	code, stdout, _ := cli("", "shapes", "--dim", "H=7", "--dim", "W=7", filepath.Join(models, "convnet.onnx"))
	for _, want := range []string{
		"c2      Conv     f32        [...]      -         invalid-shape\n",
		"f       Flatten  undefined  [...]      -         unknown\n",
		"y       Gemm     undefined  [...]      [N,10]    unknown\n",
		"y: not inferred: an input is unknown, downstream of the error at conv2\n",
		"7 tensors: 0 ok, 0 mismatch, 3 inferred, 1 error, 3 unknown; symbols: N\n",
	} {
		if code != 1 || !strings.Contains(stdout, want) {
			t.Errorf("convnet at H=7: exit %d, want %q in\n%s", code, want, stdout)
		}
	}
	code, stdout, _ = cli("", "shapes", "--dim", "N=2", filepath.Join(models, "baked.onnx"))
	if code != 1 || !strings.Contains(stdout, "y       Gemm     undefined  [...]      [2,10]    unknown\n") || !strings.Contains(stdout, "flat    Reshape  f32        [...]      -         volume-mismatch\n") {
		t.Errorf("baked at N=2: exit %d\n%s", code, stdout)
	}
}

// TestMaxRankFlag: --max-rank bounds the ranks of ONNX graphs too, both ways.
func TestMaxRankFlag(t *testing.T) {
	idioms := filepath.Join(models, "idioms.onnx")
	code, stdout, _ := cli("", "check", "--max-rank", "2", idioms)
	if code != 1 || !strings.Contains(stdout, `input 0 ("x") has rank 4, more than the limit of 2`) || !strings.Contains(stdout, "(2 limit), 2 unknown") {
		t.Errorf("--max-rank 2 on a rank-4 model: exit %d\n%s", code, stdout)
	}
	if code, stdout, _ := cli("", "shapes", "--max-rank", "3", idioms); code != 1 || !strings.Contains(stdout, "limit") {
		t.Errorf("shapes --max-rank 3: exit %d\n%s", code, stdout)
	}
	// A Reshape to rank 70: over the default 64, within --max-rank 200.
	x, _ := tensor.FromSlice(make([]int64, 70), 70)
	for i := range 70 {
		x.Data()[8*i] = 1
	}
	pattern, _ := onnx.NewTensor("p", x)
	m := &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 17}}, Graph: onnx.Graph{
		Inputs:       []onnx.ValueInfo{{Name: "x", ElemType: onnx.Float, Shape: shape.OfInts(1, 1)}},
		Initializers: []onnx.Tensor{pattern},
		Nodes:        []onnx.Node{{Name: "up", OpType: "Reshape", Inputs: []string{"x", "p"}, Outputs: []string{"y"}}},
		Outputs:      []onnx.ValueInfo{{Name: "y", Shape: shape.DynamicRank()}},
	}}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rank70.onnx")
	os.WriteFile(path, b, 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 1, "(1 limit)"},
		{[]string{"--max-rank", "200"}, 0, "1 reshape in 1 file: 1 ok, 0 mismatch, 0 inferred, 0 error\n"},
	} {
		code, stdout, _ := cli("", append(append([]string{"check"}, c.args...), path)...)
		if code != c.code || !strings.Contains(stdout, c.want) {
			t.Errorf("check %q rank70.onnx: exit %d, want %d and %q:\n%s", c.args, code, c.code, c.want, stdout)
		}
	}
}

// TestBatchSizeFlag: --batch-size binds the batch dim of every input whose batch dim is dynamic,
// the one the model marks (seqfirst.onnx: DATA_BATCH on axis 1), else the leading one, across a
// directory of models that name their batches differently.
func TestBatchSizeFlag(t *testing.T) {
	code, stdout, _ := cli("", "shapes", "--batch-size", "4", filepath.Join(models, "seqfirst.onnx"))
	for _, want := range []string{"x        -          f32   [T,4,16]", "s        -          f32   [4,8]", "flat     Reshape    f32   [4,16*T]  [4,?]     ok"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("shapes --batch-size 4 seqfirst.onnx: exit %d, want %q in\n%s", code, want, stdout)
		}
	}
	dir := copyModels(t, "idioms.onnx", "seqfirst.onnx")
	code, stdout, _ = cli("", "check", "--batch-size", "8", dir)
	for _, want := range []string{"[8,3,H,W]", "[8,T,16]", "[8,16*T]", "3 reshapes in 2 files: 3 ok"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("check --batch-size 8 DIR: exit %d, want %q in\n%s", code, want, stdout)
		}
	}
	if code, _, stderr := cli("", "check", "--batch-size", "0", dir); code != 2 || !strings.Contains(stderr, "--batch-size 0: want a positive integer") {
		t.Errorf("--batch-size 0: exit %d, %s", code, stderr)
	}
}

// TestStaleDeclarations: with input shapes the user sets, the shapes a model declares for the rest
// of its graph are those of its old inputs: a disagreement is not a mismatch (face-detection-0200
// declared [1,4096] after its batch became 2: 8 mismatches).
func TestStaleDeclarations(t *testing.T) {
	stale := filepath.Join(models, "stale.onnx")
	if code, stdout, _ := cli("", "shapes", stale); code != 1 || !strings.Contains(stdout, "r       Relu       f32   [N,2,3]  [N,3,2]   mismatch") {
		t.Errorf("stale.onnx: exit %d\n%s", code, stdout)
	}
	code, stdout, _ := cli("", "shapes", "--input", "x=[5,2,3]", stale)
	if code != 0 || !strings.Contains(stdout, "r       Relu       f32   [5,2,3]  [N,3,2]   stale") || !strings.Contains(stdout, "3 tensors: 1 ok, 0 mismatch, 1 inferred, 0 error, 1 stale\n") ||
		!strings.Contains(stdout, "the model declares [N,3,2] for the input shapes it was exported with; with the bindings given (--input, --dim, --batch-size) the rules give [5,2,3], so the two are not compared") {
		t.Errorf("stale.onnx --input: exit %d\n%s", code, stdout)
	}
	t.Run("face-detection-0200", func(t *testing.T) {
		fd := testenv.Shared(t, "realdata/openvinotoolkit__datumaro/datumaro/plugins/openvino/models/face-detection-0200.xml")
		code, stdout, _ := cli("", "check", "--input", "image=[2,3,256,256]", fd)
		if code != 0 || !strings.HasSuffix(stdout, "29 reshapes in 1 file: 21 ok, 0 mismatch, 0 inferred, 0 error, 8 stale\n") ||
			!strings.Contains(stdout, "(Reshape_202): the model declares [1,4096] for the input shapes it was exported with") {
			t.Errorf("face-detection-0200 at batch 2: exit %d\n%s", code, stdout)
		}
		if code, stdout, _ := cli("", "check", fd); code != 0 || !strings.HasSuffix(stdout, "29 reshapes in 1 file: 29 ok, 0 mismatch, 0 inferred, 0 error\n") {
			t.Errorf("face-detection-0200: exit %d\n%s", code, stdout)
		}
	})
}

// TestOutputForPeople: --quiet shows only what is wrong; a table on a terminal keeps to its width,
// shortening long names in the middle.
func TestOutputForPeople(t *testing.T) {
	code, stdout, stderr := cli("", "check", "--quiet", "--dim", "N=2", filepath.Join(models, "baked.onnx"), filepath.Join(models, "idioms.onnx"))
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != 1 || stderr != "" || len(lines) != 4 || !strings.Contains(lines[1], "volume-mismatch") ||
		lines[3] != "3 reshapes in 2 files: 2 ok, 0 mismatch, 0 inferred, 1 error (1 volume-mismatch)" {
		t.Errorf("--quiet: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, _ := cli("", "check", "--quiet", filepath.Join(models, "idioms.onnx")); code != 0 || stdout != "2 reshapes in 1 file: 2 ok, 0 mismatch, 0 inferred, 0 error\n" {
		t.Errorf("--quiet, all ok: exit %d\n%s", code, stdout)
	}
	// Nothing wrong, nothing to say: the table, the one constraint the model states (its 64
	// positions), the sizes it leaves T, and the summary, no line per computed pattern (the PATTERN column says
	// "(computed)"; ShuffleNet printed 32 such lines).
	code, stdout, _ = cli("", "check", filepath.Join(models, "bert_tiny.onnx"))
	if lines := strings.Count(stdout, "\n"); code != 0 || lines != 1+9+2+3+1 || !strings.HasSuffix(stdout, " runs only when:\n  T <= 64  /pos/Gather (Gather): the indices, 0 to T-1, within axis 0 of size 64\n"+
		filepath.Join(models, "bert_tiny.onnx")+" valid sizes:\n  T: 1..64\n  smallest binding that runs: B=1, T=1\n9 reshapes in 1 file: 1 ok, 0 mismatch, 8 inferred, 0 error; 1 constraint\n") {
		t.Errorf("bert_tiny.onnx: exit %d, %d lines\n%s", code, lines, stdout)
	}
	// A long name in a 60-column terminal.
	rows := [][]string{{"TENSOR", "OP", "SHAPE"}, {"If_3/then_branch/Loop_7/body/" + strings.Repeat("x", 60) + "/Reshape_1", "Reshape", "[N,3]"}, {"y", "Relu", "[2]"}}
	fitColumns(rows, []bool{true, false, false}, 60, minShortened)
	if got := rows[1][0]; got != "If_3/then_branch/Loop_…xxxxxxxxxxx/Reshape_1" || len([]rune(got))+2+7+2+5 != 60 {
		t.Errorf("shortened name %q (%d characters)", got, len([]rune(got)))
	}
	if rows[2][0] != "y" {
		t.Errorf("a short name changed: %q", rows[2][0])
	}
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"abcdefghij", 10, "abcdefghij"}, {"abcdefghij", 7, "abc…hij"}, {"abcdefghij", 6, "abc…ij"}, {"ab", 1, "ab"},
	} {
		if got := shortenMiddle(c.s, c.n); got != c.want {
			t.Errorf("shortenMiddle(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
	var b strings.Builder
	printTensors(&b, nil, nil, false, 40, nil)
	if b.String() != "TENSOR  OP  TYPE  SHAPE  DECLARED  VERDICT\n" {
		t.Errorf("empty table: %q", b.String())
	}
}

// TestWriteModel: --write writes what inference finds over a wrong declaration (the mismatch is
// reported, and the model written), and refuses to write a model with external data where its
// data files are not.
func TestWriteModel(t *testing.T) {
	out := filepath.Join(t.TempDir(), "stale.onnx")
	code, stdout, _ := cli("", "shapes", "--write", out, filepath.Join(models, "stale.onnx"))
	b, _ := os.ReadFile(out)
	m, err := onnx.DecodeModel(b)
	if code != 1 || !strings.Contains(stdout, "mismatch") || err != nil || len(m.Graph.ValueInfo) != 1 || m.Graph.ValueInfo[0].Shape.String() != "[?,2,3]" ||
		m.Graph.Outputs[0].Shape.String() != "[?,3,2]" {
		t.Errorf("stale.onnx --write: exit %d, %v\n%s", code, err, stdout)
	}
	ext := filepath.Join("..", "..", "testdata", "external", "model.onnx")
	elsewhere := filepath.Join(t.TempDir(), "model.onnx")
	code, stdout, stderr := cli("", "shapes", "--write", elsewhere, ext)
	if _, err := os.Stat(elsewhere); code != 2 || stdout != "" || err == nil ||
		!strings.HasPrefix(stderr, "reshape: syntax: --write "+elsewhere+": the model keeps tensor values in the external data file shape.bin") {
		t.Errorf("external data written elsewhere: exit %d, %q, %q", code, stdout, stderr)
	}
}

// TestConstraintsOutput: check and shapes state the constraints a model imposes on its symbols,
// exit 1 on one that fixes a dim the model declares dynamic unless --allow-fixed-dims, show them
// with --quiet only then, and report a binding that breaks one at the node that imposes it.
func TestConstraintsOutput(t *testing.T) {
	flat, unet := filepath.Join(models, "flat_matmul.onnx"), filepath.Join(models, "unet_skip.onnx")
	section := " runs only when:\n  N == 1  /MatMul (MatMul): the inner dims (A's last, B's second to last); fixes N\n" +
		flat + " valid sizes:\n  N: 1 only\n  smallest binding that runs: N=1\n"
	const summary = "1 reshape in 1 file: 0 ok, 0 mismatch, 1 inferred, 0 error; 1 constraint, which fixes N\n"
	tests := []struct {
		args []string
		code int
		want []string // in the output, in order; "=TEXT" for what it starts with
	}{
		{[]string{"check", flat}, 1, []string{flat + section, summary}},
		{[]string{"check", "--allow-fixed-dims", flat}, 0, []string{flat + section, summary}},
		{[]string{"check", "--quiet", flat}, 1, []string{"=" + flat + section + summary}},
		{[]string{"check", "--quiet", "--allow-fixed-dims", flat}, 0, []string{"=" + summary}},
		{[]string{"check", "--dim", "N=1", flat}, 0, []string{"1 reshape in 1 file: 0 ok, 0 mismatch, 1 inferred, 0 error\n"}},
		{[]string{"check", "--dim", "N=3", flat}, 1, []string{
			"(/MatMul): the inner dims (A's last, B's second to last): N == 1 does not hold at N=3 (144 and 48 cannot be equal)\n",
			"1 reshape and 1 failing node in 1 file: 0 ok, 0 mismatch, 1 inferred, 1 error (1 invalid-shape)\n"}},
		{[]string{"check", "--json", "--quiet", flat}, 1, []string{`"constraints":[{"holds":"N == 1","node":"/MatMul","op":"MatMul",` +
			`"why":"the inner dims (A's last, B's second to last)","fixes":["N"],"seq":2,"file":"` + flat + `"}],"limits":[],"valid":"when constraints hold","fixed":1,"fixes":["N"],` +
			`"sizes":{"N":{"text":"1 only","min":1,"max":1,"ranges":[[1,1]],"fixed":true,"proven":true,"file":"` + flat + `"}},"smallest":{"N":1},`}},
		{[]string{"check", "--json", "--dim", "N=2", flat}, 1, []string{`"constraints":[],"limits":[],"valid":"never","fixed":0,`}},
		{[]string{"shapes", flat}, 1, []string{"\nruns only when:\n  N == 1  /MatMul", "; symbols: N; 1 constraint, which fixes N\n"}},
		{[]string{"shapes", "--allow-fixed-dims", flat}, 0, []string{"\nruns only when:\n"}},
		{[]string{"shapes", "--dim", "N=2", flat}, 1, []string{
			"y: /MatMul (MatMul): the inner dims (A's last, B's second to last): N == 1 does not hold at N=2 (96 and 48 cannot be equal)\n"}},
		{[]string{"shapes", "--json", flat}, 1, []string{`"constraints":[{"holds":"N == 1","node":"/MatMul","op":"MatMul",`, `"valid":"when constraints hold","fixed":1,"fixes":["N"],"sizes":{"N":{"text":"1 only",`}},
		// Constraints that fix no dim: stated, exit 0, and not with --quiet.
		{[]string{"check", unet}, 0, []string{unet + " runs only when:\n  "}},
		{[]string{"check", "--quiet", unet}, 0, []string{"=0 reshapes in 1 file: 0 ok, 0 mismatch, 0 inferred, 0 error; "}},
	}
	for _, tt := range tests {
		code, stdout, stderr := cli("", tt.args...)
		if !(code == tt.code && stderr == "" && holdsInOrder(stdout, tt.want)) {
			t.Errorf("reshape %s: exit %d, want %d and %q in\n%s%s", strings.Join(tt.args, " "), code, tt.code, tt.want, stdout, stderr)
		}
	}
}

// holdsInOrder reports whether out holds each of want, in order; "=TEXT" is what out starts with.
func holdsInOrder(out string, want []string) bool {
	rest := out
	for _, w := range want {
		if whole, isWhole := strings.CutPrefix(w, "="); isWhole {
			if !strings.HasPrefix(out, whole) {
				return false
			}
			continue
		}
		i := strings.Index(rest, w)
		if i < 0 {
			return false
		}
		rest = rest[i+len(w):]
	}
	return true
}

// TestWarnings checks the warnings of a relation the ONNX-ML spec implies and onnxruntime does not
// check: a line after the conditions (check and shapes), a "warnings" record of JSON, at a binding
// where the relation fails too, and never an error row nor exit status 1.
func TestWarnings(t *testing.T) {
	model := filepath.Join(models, "zoo_logreg_linear.onnx")
	warning := model + " warning: LinearClassifier_0 (LinearClassifier) reads its 12 coefficients as [3,F]: its outputs are meaningful " +
		"only when F == 4; onnxruntime does not check\n"
	if code, stdout, stderr := cli("", "check", model); code != 0 || stderr != "" || !strings.Contains(stdout, model+" runs at every binding of N, F\n"+warning) {
		t.Errorf("check: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := cli("", "check", "--dim", "N=2", "--dim", "F=3", model)
	if code != 0 || stderr != "" || strings.Contains(stdout, "LinearClassifier_0  ") ||
		!strings.Contains(stdout, "reads its 12 coefficients as [3,3]: its outputs are meaningful only when 3 == 4; onnxruntime does not check\n") {
		t.Errorf("check --dim F=3: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, _ := cli("", "check", "--dim", "N=2", "--dim", "F=4", model); code != 0 || strings.Contains(stdout, "warning") {
		t.Errorf("check --dim F=4: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = cli("", "shapes", "--json", "--dim", "F=5", model)
	if code != 0 || !strings.Contains(stdout, `"warnings":[{"holds":"5 == 4","node":"LinearClassifier_0","op":"LinearClassifier",`+
		`"why":"reads its 12 coefficients as [3,5]","seq":0,"file":"`+model+`"}]`) ||
		!strings.Contains(stdout, `{"record":"tensor","name":"X","type":"f32","shape":["N",5],"verdict":"inferred"}`) {
		t.Errorf("shapes --json --dim F=5: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = cli("", "check", "--json", model)
	if code != 0 || !strings.Contains(stdout, `"valid":"always"`) || !strings.Contains(stdout, `"warnings":[{"holds":"F == 4",`) {
		t.Errorf("check --json: exit %d\n%s", code, stdout)
	}
}

// TestLimitsOutput: PaddleOCR's classifier casts its batch to int32, a limit that only a batch of
// 2^31 or more breaks: check states it after the conditions under its own heading, and in JSON's
// "limits", with the sizes it leaves; the exit status is that of the conditions; a binding past it
// is an error at the Cast. A model whose only conditions are limits runs at every binding below
// 2^31, and exits 0.
func TestLimitsOutput(t *testing.T) {
	m := &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 17}}, Graph: onnx.Graph{
		Inputs: []onnx.ValueInfo{{Name: "x", ElemType: onnx.Float, Shape: shape.Shape{Dims: []shape.Dim{shape.Dynamic, shape.Static(4)}},
			DimParams: []string{"N", ""}}},
		Nodes: []onnx.Node{{Name: "shape", OpType: "Shape", Inputs: []string{"x"}, Outputs: []string{"s"}},
			{Name: "cast", OpType: "Cast", Inputs: []string{"s"}, Outputs: []string{"y"},
				Attrs: []onnx.Attribute{{Name: "to", Type: onnx.AttrInt, I: int64(onnx.Int32)}}}},
		Outputs: []onnx.ValueInfo{{Name: "y", Shape: shape.DynamicRank()}},
	}}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	only := filepath.Join(t.TempDir(), "cast.onnx")
	if err := os.WriteFile(only, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := cli("", "check", only); code != 0 || stderr != "" || !holdsInOrder(stdout, []string{
		only + " runs at every binding of N below 2^31, and at sizes of 2^31 or more only when:\n" +
			"  N <= 2147483647  cast (Cast): the value N converted to i32 within its range\n",
		"  N: 1..2147483647\n", "; 1 limit\n"}) {
		t.Errorf("check %s: exit %d\n%s%s", only, code, stdout, stderr)
	}
	model := filepath.Join(testenv.Shared(t, "realdata"), "onnx", "ppocr_mobile_v2_cls.onnx")
	const cast = "p2o.Cast.0 (Cast): the value p2o.DynamicDimension.0 converted to i32 within its range"
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"check", model}, 0, []string{
			" runs only when:\n  p2o.DynamicDimension.1 >= 33  ",
			" and, at sizes of 2^31 or more, only when:\n  p2o.DynamicDimension.0 <= 2147483647  " + cast + "\n",
			"  p2o.DynamicDimension.0: 1..2147483647\n",
			"; 2 constraints; 1 limit\n"}},
		{[]string{"check", "--json", model}, 0, []string{
			`"limits":[{"holds":"p2o.DynamicDimension.0 <= 2147483647","node":"p2o.Cast.0","op":"Cast",`,
			`"valid":"when constraints hold"`, `"p2o.DynamicDimension.0":{"text":"1..2147483647","min":1,"max":2147483647,`}},
		{[]string{"shapes", model}, 0, []string{"\nand, at sizes of 2^31 or more, only when:\n", "; 2 constraints; 1 limit\n"}},
		{[]string{"check", "--dim", "p2o.DynamicDimension.0=2147483648", "--dim", "p2o.DynamicDimension.1=48", "--dim", "p2o.DynamicDimension.2=192", model}, 1,
			[]string{"p2o.Cast.0", "p2o.DynamicDimension.0 <= 2147483647 does not hold at p2o.DynamicDimension.0=2147483648"}},
	} {
		code, stdout, stderr := cli("", tc.args...)
		if !(code == tc.code && stderr == "" && holdsInOrder(stdout, tc.want)) {
			t.Errorf("reshape %s: exit %d, want %d and %q in\n%s%s", strings.Join(tc.args, " "), code, tc.code, tc.want, stdout, stderr)
		}
	}
}
