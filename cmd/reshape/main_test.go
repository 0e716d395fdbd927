package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/conformance"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/onnx"
)

// cli runs the command line and returns its exit status and output.
func cli(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestInfer(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stdout string
		stderr string // a substring of stderr
	}{
		{[]string{"infer", "--special-zero=true", "[2,5,5,24]", "0,-1,4"}, 0, "[2,150,4]\n", ""},
		{[]string{"infer", "[2,5,5,24]", "0,-1,4", "--special-zero=true"}, 0, "[2,150,4]\n", ""},
		{[]string{"infer", "--special-zero", "true", "[3,1,1]", "-1,0"}, 0, "[3,1]\n", ""},
		{[]string{"infer", "--special-zero=false", "--", "[3,1,1]", "-1"}, 0, "[3]\n", ""},
		{[]string{"infer", "--dialect", "onnx", "--allowzero=1", "[0,3,4]", "3,4,0"}, 0, "[3,4,0]\n", ""},
		{[]string{"infer", "--dialect=onnx", "[2,3,4]", "2,0,-1"}, 0, "[2,3,4]\n", ""},
		{[]string{"infer", "--special-zero=true", "[1..8,16..64,6,200..400]", "16..64,0,-1"}, 0, "[16..64,16..64,19..1200]\n", ""},
		{[]string{"infer", "--special-zero=false", "[3,4]", "-", "--pattern-shape", "[3]"}, 0, "[?,?,?]\n", ""},
		{[]string{"infer", "--special-zero=false", "[1,1]", "1", "--pattern-shape", "[]"}, 0, "[]\n", ""},
		{[]string{"infer", "--special-zero=false", "[2]", ""}, 1, "", "reshape: volume-mismatch: output shape [] has volume 1, input shape [2] has volume 2\n"},
		{[]string{"infer", "--special-zero=false", "[...]", "2,-1"}, 0, "[2,?]\n", ""},
		{[]string{"infer", "--special-zero=false", "[2,5,4]", "10,-1,3"}, 1, "",
			"reshape: not-divisible: pattern[1] = -1: input volume 40 is not divisible by 30, the product of the other output dimensions\n"},
		{[]string{"infer", "--special-zero=true", "[2,3]", "1,-3"}, 1, "", "reshape: invalid-dim: pattern[1] = -3: dimension cannot be less than -1\n"},
		{[]string{"infer", "--dialect", "onednn-static", "--special-zero=false", "--element-type", "i8", "[6]", "6"}, 1, "", "reshape: data-type: "},
		{[]string{"infer", "--dialect", "onnx", "--pattern-type", "i32", "[6]", "6"}, 1, "", "reshape: pattern-type: "},
		{[]string{"infer", "--dialect", "onnx", "--element-type", "float32", "--pattern-type", "int64", "[6]", "6"}, 0, "[6]\n", ""},
		{[]string{"infer", "--dialect", "onednn-static", "--special-zero=false", "--element-type", "int8", "[6]", "6"}, 1, "", "reshape: data-type: data element type s8: onednn-static takes f32, f16 or bf16\n"},
		{[]string{"infer", "--dialect", "onednn-dynamic", "--special-zero=false", "--pattern-type", "INT64", "[6]", "6"}, 1, "", "reshape: pattern-type: pattern element type s64: onednn-dynamic takes s32\n"},
		{[]string{"infer", "--special-zero=false", "[2,x!]", "6"}, 2, "", `reshape: syntax: INPUT: shape "[2,x!]": dim[1]: expression "x!"`},
		{[]string{"infer", "--special-zero=false", "[2,3]", "6,1.5"}, 2, "", "reshape: syntax: pattern"},
		// Symbols, as reshape.InferSymbolic takes them, and what they must satisfy.
		{[]string{"infer", "--special-zero=true", "[N,3,H,W]", "0,-1"}, 0, "[N,3*H*W]\n", ""},
		{[]string{"infer", "--dialect", "onnx", "[B,T,64]", "T,B,4,-1"}, 0, "[T,B,4,16]\n", ""},
		{[]string{"infer", "--special-zero=false", "[2,x]", "6"}, 0, "[6]\n  when x == 3: the input's volume is the output's\n", ""},
		{[]string{"infer", "--special-zero=false", "[N,T]", "2,-1"}, 0,
			"[2,N*T/2]\n  when N*T % 2 == 0: the -1 of pattern[1]: the input's volume a multiple of the other output dims\n", ""},
		{[]string{"infer", "--special-zero=false", "--json", "[2,3]", "6,y"}, 0,
			`{"input":[2,3],"pattern":[6,"y"],"pattern_shape":[2],"dialect":"openvino","special_zero":false,"output":[6,"y"],"when":"y == 1"}` + "\n", ""},
		{[]string{"infer", "--special-zero=false", "[N,6]", "N,4"}, 1, "", "reshape: volume-mismatch: output shape [N,4] has volume 4*N, input shape [N,6] has volume 6*N\n"},
		{[]string{"infer", "--special-zero=false", "[N,6]", "N,-1", "--explain"}, 2, "", "--explain takes an INPUT and a PATTERN of numbers"},
		{[]string{"infer", "--special-zero=false", "[99999999999999999999]", "-1"}, 2, "", "reshape: overflow: INPUT: "},
		{[]string{"infer", "--special-zero=false", "[2,3]", "-", "--pattern-shape", "[x]"}, 2, "", "reshape: syntax: --pattern-shape: "},
		{[]string{"infer", "--special-zero=false", "[9223372036854775807]", "-1"}, 0, "[9223372036854775807]\n", ""},
		{[]string{"infer", "--special-zero=false", "[9223372036854775807,2]", "-1"}, 1, "", "reshape: overflow: the volume of [9223372036854775807,2] overflows int64"},
		{[]string{"infer", "[2,3]", "6"}, 2, "", "special_zero is required by openvino"},
		{[]string{"infer", "--special-zero=maybe", "[2,3]", "6"}, 2, "", "want true or false"},
		{[]string{"infer", "--special-zero=true", "[2,3]"}, 2, "", "want INPUT and PATTERN, got 1 arguments"},
		{[]string{"infer", "--bogus", "[2,3]", "6"}, 2, "", "flag provided but not defined: -bogus"},
		{[]string{"infer", "--dialect", "tf", "--special-zero=true", "[2,3]", "6"}, 2, "", `unknown dialect "tf"`},
		{[]string{"infer", "--dialect", "ONNX", "[2,3]", "6"}, 0, "[6]\n", ""},
		{[]string{"infer", "--allowzero=1", "--special-zero=true", "[2,3]", "6"}, 2, "", "allowzero is an attribute of onnx: openvino takes special_zero"},
		{[]string{"infer", "--dialect=onnx", "--allowzero=1", "--special-zero=true", "[2,3]", "6"}, 2, "", "contradicts"},
		{[]string{"infer", "--dialect=onnx", "--allowzero=0", "--special-zero=false", "[2,3]", "6"}, 2, "", "allowzero=0 contradicts special_zero=false"},
		{[]string{"infer", "--dialect=onnx", "--allowzero=2", "[2,3]", "6"}, 2, "", `invalid value "2" for flag -allowzero: want 0 or 1, got "2"`},
		{[]string{"infer", "--dialect=onnx", "--pattern-type", "s64", "[2,3]", "6"}, 0, "[6]\n", ""},
		{[]string{"infer", "--dialect=onnx", "--allowzero=1", "--special-zero=false", "[2,3]", "6"}, 0, "[6]\n", ""},
		{[]string{"infer", "--special-zero=true", "[2,3]", "-"}, 2, "", "needs --pattern-shape"},
		{[]string{"infer", "--special-zero=true", "--element-type", "q9", "[2,3]", "6"}, 2, "", `unknown element type "q9"`},
		{[]string{"infer", "--help"}, 0, "Usage:\n  reshape infer", ""},
		{[]string{"nonsense"}, 2, "", `unknown command "nonsense"`},
		{[]string{}, 2, "", "Commands:"},
		{[]string{"help"}, 0, "Commands:", ""},
		{[]string{"help", "check"}, 0, "Usage:\n  reshape check", ""},
	}
	for _, tt := range tests {
		code, stdout, stderr := cli("", tt.args...)
		// Shapes and empty output are compared whole, help texts by their start.
		okOut := stdout == tt.stdout
		if strings.HasPrefix(tt.stdout, "Usage") || strings.HasPrefix(tt.stdout, "Commands") {
			okOut = strings.Contains(stdout, tt.stdout)
		}
		if code != tt.code || !okOut || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("reshape %q: exit %d\nstdout %q\nstderr %q\nwant exit %d, stdout %q, stderr containing %q", tt.args, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
		}
		if strings.HasPrefix(stderr, "reshape infer:") && !strings.Contains(stderr, `Run "reshape infer --help"`) {
			t.Errorf("reshape %q: a usage error that does not say where the usage is", tt.args)
		}
	}
}

func TestInferExplain(t *testing.T) {
	code, stdout, _ := cli("", "infer", "--special-zero=true", "--explain", "[2,5,5,24]", "0,-1,4")
	want := `[2,150,4]
  out[0] = 2: copied from input[0] (special zero)
  out[1] = 150: inferred from -1: the input volume without the dimensions special zeros copy 600 / 4, the product of the other output dimensions
  out[2] = 4: given by pattern[2]
`
	if code != 0 || stdout != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s", code, stdout, want)
	}
}

// TestBatch answers the project's own cases and the shared conformance cases (a subtest each)
// through "reshape infer --batch", and checks every answer.
func TestBatch(t *testing.T) {
	for _, name := range []string{"testdata/cases.jsonl", "../shared/conformance/cases.jsonl"} {
		t.Run(filepath.Base(filepath.Dir(name)), func(t *testing.T) {
			path := testenv.Resolve(t, name)
			in, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var cases []conformance.Case
			err = conformance.Read(bytes.NewReader(in), func(_ int, c *conformance.Case, err error) error {
				if err != nil {
					return err
				}
				cases = append(cases, *c)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := cli(string(in), "infer", "--batch", "-")
			errs := 0
			for _, c := range cases {
				if c.Error != "" {
					errs++
				}
			}
			// Exit 1 when a line is answered with an error, and stderr says how many.
			if want := fmt.Sprintf("%d of %d lines answered with an error", errs, len(cases)); errs > 0 && (code != 1 || !strings.Contains(stderr, want)) || errs == 0 && code != 0 {
				t.Fatalf("%s: exit %d: %s; want %d errors", path, code, stderr, errs)
			}
			answers := decodeLines(t, stdout)
			if len(answers) != len(cases) {
				t.Fatalf("%s: %d answers for %d cases", path, len(answers), len(cases))
			}
			for i, c := range cases {
				a := answers[i]
				if a.Name != c.Name || a.Output != c.Output || a.Error != c.Error || (a.Error != "" && a.Message == "") {
					t.Errorf("%s: case %s: answer %+v, want output %q error %q", path, c.Name, a, c.Output, c.Error)
				}
			}
		})
	}
}

func TestBatchMalformed(t *testing.T) {
	in := `{"name": "a", "input": "[2,3]", "pattern": "6", "special_zero": false}
not json
{"name": "b", "input": "[2,3]", "pattern": "-1"}

{"name": "c", "input": "[2,3]", "pattern": "6", "special_zero": "yes"}
{"name": "d", "dialect": "onnx", "input": "[2,3]", "pattern": "0,-1"}
{"name": "e", "input": "[2,3]", "pattern": null, "special_zero": true}
{"name": "f", "input": [2,5,5,24], "pattern": [0,-1,4], "special_zero": true}
{"name": "g", "input": null, "pattern": ["1..8",-1], "special_zero": true}
{"name": "h", "input": [2,"?"], "pattern": [0,-1], "pattern_shape": [2], "element_type": "float32", "pattern_type": "int64", "dialect": "onnx"}
{"name": "i", "input": "[2,3]", "pattern": 6, "special_zero": true}
[1]
`
	code, stdout, stderr := cli(in, "infer", "--batch", "-")
	if code != 1 || stderr != "reshape: infer --batch: 7 of 12 lines answered with an error\n" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := decodeLines(t, stdout)
	want := []conformance.Result{
		{Name: "a", Output: "[6]"},
		{Error: "syntax"},
		{Name: "b", Error: "syntax"},
		{Error: "syntax"},
		{Name: "c", Error: "syntax"},
		{Name: "d", Output: "[2,3]"},
		{Name: "e", Error: "syntax"},
		{Name: "f", Output: "[2,150,4]"},
		{Name: "g", Output: "[1..8,?]"},
		{Name: "h", Output: "[2,?]"},
		{Name: "i", Error: "syntax"},
		{Error: "syntax"},
	}
	if len(got) != len(want) {
		t.Fatalf("answers:\n%s", stdout)
	}
	for i := range want {
		if got[i].Name != want[i].Name || got[i].Output != want[i].Output || got[i].Error != want[i].Error {
			t.Errorf("answer %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if !strings.Contains(got[1].Message, "line 2") {
		t.Errorf("malformed line answer does not name its line: %+v", got[1])
	}
	if !strings.Contains(got[3].Message, "line 4: a blank line") {
		t.Errorf("blank line answer: %+v", got[3])
	}
	// Messages speak JSON, not Go.
	for i, msg := range map[int]string{
		4:  "line 5: not a case: special_zero: want true or false, got a string",
		10: "line 11: not a case: pattern: want a string of the notation or an array of dims, got a number",
		11: "line 12: not a case: want a JSON object, got an array",
	} {
		if got[i].Message != msg {
			t.Errorf("answer %d: message %q, want %q", i, got[i].Message, msg)
		}
	}
	// A line over 1 MiB is answered with limit, and the batch goes on.
	long := `{"name": "` + strings.Repeat("x", 1<<20) + `"}` + "\n" + `{"name": "z", "input": "[2,3]", "pattern": "6", "special_zero": false}` + "\n"
	code, stdout, stderr = cli(long, "infer", "--batch", "-")
	if got := decodeLines(t, stdout); code != 1 || len(got) != 2 || got[0].Error != "limit" || got[1].Output != "[6]" {
		t.Errorf("long line: exit %d, %s\n%s", code, stdout, stderr)
	}
	// Every line with an output: exit 0, nothing on stderr.
	if code, stdout, stderr := cli(`{"name": "z", "input": "[2,3]", "pattern": "6", "special_zero": false}`+"\n", "infer", "--batch", "-"); code != 0 || stderr != "" || !strings.Contains(stdout, `"output":"[6]"`) {
		t.Errorf("a batch without errors: exit %d, %s\n%s", code, stdout, stderr)
	}
	if code, _, stderr := cli("", "infer", "--batch", "/nonexistent/cases.jsonl"); code != 2 || !strings.Contains(stderr, "no such file") {
		t.Errorf("missing batch file: exit %d, %s", code, stderr)
	}
}

func decodeLines(t *testing.T, s string) []conformance.Result {
	t.Helper()
	var res []conformance.Result
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		var r conformance.Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("answer %q: %v", sc.Text(), err)
		}
		res = append(res, r)
	}
	return res
}

func TestCheckBuiltin(t *testing.T) {
	code, stdout, stderr := cli("", "check")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 8 || !strings.HasPrefix(lines[0], "FILE") || lines[6] != "spec_examples.xml at a free batch N: runs at every binding of N" ||
		lines[7] != "5 reshapes in 1 file: 5 ok, 0 mismatch, 0 inferred, 0 error" {
		t.Fatalf("stdout:\n%s", stdout)
	}
	for _, l := range lines[1:6] {
		if !strings.HasSuffix(l, " ok") {
			t.Errorf("row %q is not ok", l)
		}
	}
	code, stdout, _ = cli("", "check", "--json")
	if code != 0 || strings.Count(stdout, "\n") != 7 || !strings.Contains(stdout, `{"record":"batch","file":"spec_examples.xml","symbol":"N",`) || strings.Count(stdout, `{"record":"reshape","file":"spec_examples.xml",`) != 5 ||
		!strings.Contains(stdout, `"input":[2,5,5,24],"pattern":[0,-1,4],"pattern_shape":[3],"pattern_source":"const","special_zero":true,"inferred":[2,150,4],"declared":[2,150,4],"verdict":"ok"}`) ||
		!strings.HasSuffix(stdout, `{"record":"summary","reshapes":5,"nodes":0,"ok":5,"mismatch":0,"inferred":0,"error":0,"unknown":0,"stale":0,"run":0,"run_ok":0,"constraints":[],"limits":[],"valid":"always","fixed":0,"complete":true,"lost":[],"incomplete":0,"warnings":[],"files":1,"unreadable":0,"skipped":0}`+"\n") {
		t.Fatalf("--json: exit %d\n%s", code, stdout)
	}
}

func TestCheckFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.xml")
	os.WriteFile(bad, []byte(`<net version="11"><layers>`), 0o644)
	mismatch := filepath.Join(dir, "m.json")
	os.WriteFile(mismatch, []byte(`{"graph": [{"id": 1, "name": "r", "kind": "StaticReshape",
		"attrs": {"special_zero": {"type": "bool", "value": 0}, "shape": {"type": "s64[]", "value": [6]}},
		"inputs": [{"id": 0, "dtype": "f32", "shape": [2, 3]}], "outputs": [{"id": 2, "dtype": "f32", "shape": [5]}]}]}`), 0o644)

	code, stdout, stderr := cli("", "check", mismatch)
	if code != 1 || !strings.Contains(stdout, "mismatch") || !strings.Contains(stdout, "1 reshape in 1 file: 0 ok, 1 mismatch, 0 inferred, 0 error\n") ||
		!strings.Contains(stdout, "the model declares [5], the rules give [6]") || stderr != "" {
		t.Errorf("mismatch: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = cli("", "check", bad, mismatch)
	if code != 2 || !strings.Contains(stderr, "reshape: syntax: "+bad+": line 1: unexpected EOF") ||
		!strings.Contains(stdout, "1 reshape in 1 file: 0 ok, 1 mismatch, 0 inferred, 0 error; 1 file could not be read\n") {
		t.Errorf("unreadable: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, _, stderr := cli("", "check", "--bin", "x.bin", bad, mismatch); code != 2 || !strings.Contains(stderr, "--bin names the weights of one IR file") {
		t.Errorf("--bin with two files: exit %d, %s", code, stderr)
	}
	xml, b := check.BuiltinFiles()
	ir := filepath.Join(dir, "ir.xml")
	os.WriteFile(ir, xml, 0o644)
	missing := filepath.Join(dir, "missing.bin")
	if code, _, stderr := cli("", "check", "--bin", missing, ir); code != 2 || !strings.Contains(stderr, "reshape: io: "+ir+": the weights: open "+missing+": no such file or directory\n") {
		t.Errorf("--bin of a missing file: exit %d, %s", code, stderr)
	}
	// Without a .bin, the Reshapes' Const patterns have no values.
	if code, stdout, stderr := cli("", "check", "--quiet", ir); code != 0 || stderr != "" ||
		!strings.HasSuffix(stdout, "5 reshapes in 1 file: 5 ok, 0 mismatch, 0 inferred, 0 error; the conditions may be incomplete: precision lost at 5 places; undetermined dims stop at Const (5)\n") {
		t.Errorf("no .bin: exit %d, %q, %q", code, stdout, stderr)
	}
	for _, name := range []string{"ir.bin", "notes.md"} {
		os.WriteFile(filepath.Join(dir, name), []byte("# not a model\n"), 0o644)
	}
	for _, c := range []struct{ file, want string }{
		{"ir.bin", ": not a model file: the weights of an OpenVINO IR model: check its .xml\n"},
		{"notes.md", ": not a model file: want OpenVINO IR .xml, oneDNN Graph JSON .json or ONNX .onnx\n"},
	} {
		path := filepath.Join(dir, c.file)
		if code, stdout, stderr := cli("", "check", path); code != 2 || stderr != "reshape: syntax: "+path+c.want ||
			stdout != "0 reshapes in 0 files: 0 ok, 0 mismatch, 0 inferred, 0 error; 1 file could not be read\n" {
			t.Errorf("check %s: exit %d\n%s%s", c.file, code, stdout, stderr)
		}
	}
	// A directory: every model file in it, .bin and .md left out, with one summary line.
	code, stdout, stderr = cli("", "check", dir)
	if code != 2 || strings.Count(stderr, "reshape: ") != 2 || !strings.Contains(stderr, "bad.xml: line 1") || !strings.Contains(stderr, `ir.xml: Const layer "1" ("example1_pattern", line 17)`) ||
		!strings.HasSuffix(stdout, "1 reshape in 1 file: 0 ok, 1 mismatch, 0 inferred, 0 error; 2 files could not be read\n") {
		t.Errorf("check DIR: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = cli("", "check", "--json", dir)
	if code != 2 || stderr != "" || !strings.Contains(stdout, `{"record":"file","file":"`+bad+`","error":"syntax","message":"`+bad+`: line 1: unexpected EOF"}`) ||
		!strings.Contains(stdout, `{"record":"reshape","file":"`+mismatch+`","id":"1"`) ||
		!strings.HasSuffix(stdout, `{"record":"summary","reshapes":1,"nodes":0,"ok":0,"mismatch":1,"inferred":0,"error":0,"unknown":0,"stale":0,"run":0,"run_ok":0,"constraints":[],"limits":[],"valid":"unknown","fixed":0,"complete":true,"lost":[],"incomplete":0,"warnings":[],"files":1,"unreadable":2,"skipped":0}`+"\n") {
		t.Errorf("check --json DIR: exit %d\n%s%s", code, stdout, stderr)
	}
	os.Remove(bad)
	os.WriteFile(filepath.Join(dir, "ir.bin"), b, 0o644)
	os.Mkdir(filepath.Join(dir, ".hidden"), 0o755)
	os.WriteFile(filepath.Join(dir, ".hidden", "x.xml"), []byte("<"), 0o644)
	code, stdout, stderr = cli("", "check", dir)
	if code != 1 || stderr != "" || !strings.HasSuffix(stdout, "6 reshapes in 2 files: 5 ok, 1 mismatch, 0 inferred, 0 error\n") {
		t.Errorf("check DIR: exit %d\n%s%s", code, stdout, stderr)
	}
	// The real models of ../shared/realdata (its SOURCES.md): the IR and oneDNN files, 136 Reshapes
	// of 384 files, all ok; the 11 failing nodes are the ops of benchdnn graphs that declare what
	// oneDNN's rules do not give (check's TestRealData lists them); the 4 constraints are the
	// broadcasts of two Multiply nodes of the two postproc_model.xml (input_image against
	// input_mask, axes 1 and 2).
	t.Run("realdata", func(t *testing.T) {
		realData := testenv.Shared(t, "realdata")
		var files []string
		filepath.WalkDir(realData, func(p string, d os.DirEntry, err error) error {
			if err == nil && (filepath.Ext(p) == ".xml" || filepath.Ext(p) == ".json") {
				files = append(files, p)
			}
			return err
		})
		code, stdout, stderr := cli("", append([]string{"check"}, files...)...)
		if code != 1 || stderr != "" || !strings.HasSuffix(stdout, "136 reshapes and 11 failing nodes in 384 files: 136 ok, 5 mismatch, 0 inferred, 6 error (6 invalid-shape); 4 constraints; the conditions of 1 of 384 files may be incomplete: precision lost at 12 places\n") {
			t.Errorf("real data: exit %d\n%s\n%s", code, stdout[max(0, len(stdout)-300):], stderr)
		}
		// The directory holds these files and the ONNX models: one run, one summary line.
		onnxModels, _ := filepath.Glob(filepath.Join(realData, "onnx", "*.onnx"))
		code, byFiles, _ := cli("", append(append([]string{"check"}, files...), onnxModels...)...)
		code2, byDir, _ := cli("", "check", realData)
		if code != code2 || lastLine(byDir) != lastLine(byFiles) || !strings.Contains(lastLine(byDir), fmt.Sprintf(" in %d files: ", len(files)+len(onnxModels))) {
			t.Errorf("check DIR: exit %d\n%s\nby files: exit %d\n%s", code2, lastLine(byDir), code, lastLine(byFiles))
		}
	})
}

// lastLine returns the last line of s, with its newline.
func lastLine(s string) string {
	lines := strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
	return lines[len(lines)-1] + "\n"
}

func TestTranslateCommand(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"--from", "onnx", "--allowzero=1", "--to", "openvino", "3,4,0"}, 0, "openvino [3,4,0] special_zero=false\n", ""},
		{[]string{"--from", "openvino", "--special-zero=true", "--to", "onnx", "0,-1", "--input", "[2..8,3]"}, 0, "onnx [0,-1] allowzero=0\n", ""},
		{[]string{"--from", "openvino", "--special-zero=true", "--to", "onednn-static", "0,-1"}, 1, "", "reshape: no-equivalent: special zeros beside -1 copy input dimensions that may be 0"},
		{[]string{"--from", "openvino", "--special-zero=false", "--to", "onnx", "1", "--pattern-shape", "[]"}, 0, "onnx [] allowzero=1\n", ""},
		{[]string{"--from", "openvino", "--special-zero=true", "--to", "openvino", "1", "--pattern-shape", "[]"}, 0, "openvino 1 special_zero=true pattern_shape=[]\n", ""},
		{[]string{"--from", "onnx", "--to", "onednn-dynamic", "-", "--pattern-shape", "[3]"}, 0, "onednn-dynamic - special_zero=true pattern_shape=[3]\n", ""},
		{[]string{"--from", "onnx", "--to", "openvino", "2,-1"}, 0, "openvino [2,-1] special_zero=true\n", ""},
		{[]string{"--from", "onnx", "--to", "openvino", "2,0,-1"}, 1, "", "reshape: no-equivalent: special zeros beside -1 copy input dimensions that may be 0"},
		{[]string{"--from", "openvino", "--to", "onnx", "1"}, 2, "", "special_zero is required by openvino"},
		{[]string{"--to", "onnx", "1"}, 2, "", "--from and --to are required"},
	}
	for _, tt := range tests {
		code, stdout, stderr := cli("", append([]string{"translate"}, tt.args...)...)
		if code != tt.code || stdout != tt.stdout || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("translate %q: exit %d, %q, %q; want %d, %q, %q", tt.args, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
		}
	}
}

// TestJSON checks the --json records of infer and translate.
func TestJSON(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stdout string
	}{
		{[]string{"infer", "--special-zero=true", "--json", "[2,5,5,24]", "0,-1,4"}, 0,
			`{"input":[2,5,5,24],"pattern":[0,-1,4],"pattern_shape":[3],"dialect":"openvino","special_zero":true,"output":[2,150,4]}`},
		{[]string{"infer", "--special-zero=true", "--json", "--explain", "[2,5,5,24]", "0,-1,4"}, 0,
			`{"input":[2,5,5,24],"pattern":[0,-1,4],"pattern_shape":[3],"dialect":"openvino","special_zero":true,"output":[2,150,4],` +
				`"explain":[{"origin":"copied","input":0},{"origin":"inferred","dividend":600,"divisor":4},{"origin":"given"}]}`},
		{[]string{"infer", "--special-zero=false", "--json", "[1..8,?]", "-", "--pattern-shape", "[2]"}, 0,
			`{"input":["1..8","?"],"pattern":null,"pattern_shape":[2],"dialect":"openvino","special_zero":false,"output":["?","?"]}`},
		{[]string{"infer", "--special-zero=false", "--json", "[...]", "1", "--pattern-shape", "[]"}, 0,
			`{"input":null,"pattern":[1],"pattern_shape":[],"dialect":"openvino","special_zero":false,"output":[]}`},
		{[]string{"infer", "--special-zero=false", "--json", "[2,5,4]", "10,-1,3"}, 1,
			`{"input":[2,5,4],"pattern":[10,-1,3],"pattern_shape":[3],"dialect":"openvino","special_zero":false,"error":"not-divisible",` +
				`"message":"pattern[1] = -1: input volume 40 is not divisible by 30, the product of the other output dimensions"}`},
		{[]string{"infer", "--special-zero=false", "--json", "[2,x!]", "6"}, 2,
			`{"dialect":"openvino","special_zero":false,"error":"syntax","message":"INPUT: shape \"[2,x!]\": dim[1]: expression \"x!\": offset 1: unexpected \"!\""}`},
		{[]string{"translate", "--json", "--from", "onnx", "--allowzero=1", "--to", "openvino", "3,4,0"}, 0,
			`{"dialect":"openvino","pattern":[3,4,0],"pattern_shape":[3],"special_zero":false}`},
		{[]string{"translate", "--json", "--from", "openvino", "--special-zero=true", "--to", "onnx", "--input", "[2..8,3]", "0,-1"}, 0,
			`{"dialect":"onnx","pattern":[0,-1],"pattern_shape":[2],"special_zero":true,"allowzero":0}`},
		{[]string{"translate", "--json", "--from", "openvino", "--special-zero=true", "--to", "openvino", "1", "--pattern-shape", "[]"}, 0,
			`{"dialect":"openvino","pattern":[1],"pattern_shape":[],"special_zero":true}`},
		{[]string{"translate", "--json", "--from", "openvino", "--special-zero=true", "--to", "onednn-static", "0,-1"}, 1,
			`{"error":"no-equivalent","message":"special zeros beside -1 copy input dimensions that may be 0 at run time: openvino and onednn-static differ when they are"}`},
	}
	for _, tt := range tests {
		code, stdout, stderr := cli("", tt.args...)
		if code != tt.code || stdout != tt.stdout+"\n" || stderr != "" {
			t.Errorf("reshape %q: exit %d\n%s%s\nwant exit %d\n%s", tt.args, code, stdout, stderr, tt.code, tt.stdout)
		}
		if !json.Valid([]byte(stdout)) {
			t.Errorf("reshape %q: not JSON: %s", tt.args, stdout)
		}
	}
}

// TestSuggestionsAndRefusals checks that mistyped names get the closest one, and that flags a
// command would ignore are refused.
func TestSuggestionsAndRefusals(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"inferr"}, `reshape: unknown command "inferr"; did you mean "infer"?`},
		{[]string{"chekc"}, `did you mean "check"?`},
		{[]string{"translte"}, `did you mean "translate"?`},
		{[]string{"frobnicate"}, `reshape: unknown command "frobnicate"` + "\n"},
		{[]string{"infer", "--speical-zero=true", "[2]", "2"}, `flag provided but not defined: -speical-zero; did you mean "--special-zero"?`},
		{[]string{"check", "--jsno"}, `did you mean "--json"?`},
		{[]string{"infer", "--dialect", "onx", "[2]", "2"}, `unknown dialect "onx": want one of openvino, onednn-static, onednn-dynamic, onnx; did you mean "onnx"?`},
		{[]string{"translate", "--from", "onnx", "--to", "openvno", "2"}, `--to: unknown dialect "openvno": want one of openvino, onednn-static, onednn-dynamic, onnx; did you mean "openvino"?`},
		{[]string{"infer", "--special-zero=true", "--element-type", "fp33", "[2]", "2"}, `did you mean "fp32"?`},
		{[]string{"infer", "--explain", "--batch", "-"}, "--explain does not apply to --batch"},
		{[]string{"infer", "--special-zero=true", "--batch", "-"}, "--special-zero does not apply to --batch"},
		{[]string{"infer", "--json", "--batch", "-"}, "--json does not apply to --batch"},
		{[]string{"infer", "--max-bytes", "1GiB", "--special-zero=true", "[2]", "2"}, "flag provided but not defined: -max-bytes"},
		{[]string{"check", "--bin", "w.bin", "m.onnx"}, "--bin names the weights of an IR file, and m.onnx is not one: it would be ignored"},
		{[]string{"check", "--run", "m.xml", "g.json"}, "--run runs the constants of IR files, and g.json is not one: it would be ignored"},
		{[]string{"check", "--bin", "w.bin", "."}, "--bin names the weights of one IR file, and . is a directory"},
	}
	for _, tt := range tests {
		code, stdout, stderr := cli("", tt.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("reshape %q: exit %d\n%s%s\nwant exit 2 and stderr containing %q", tt.args, code, stdout, stderr, tt.stderr)
		}
	}
}

// TestHelp checks what the usage texts promise: every shape quoted for the shell, and check's
// text telling of every format and flag it takes.
func TestHelp(t *testing.T) {
	for _, c := range commands {
		code, stdout, _ := cli("", c.name, "--help")
		if code != 0 || !strings.HasPrefix(stdout, "Usage:\n  reshape "+c.name) {
			t.Errorf("%s --help: exit %d\n%s", c.name, code, stdout)
		}
		// In the example command lines, a shape is quoted: unquoted, the shell reads it as a glob.
		for line := range strings.Lines(stdout) {
			cmd, _, _ := strings.Cut(strings.TrimSpace(line), "#") // what follows # is the output
			if !strings.HasPrefix(cmd, "reshape ") {
				continue
			}
			for _, f := range strings.Fields(cmd) {
				if strings.HasPrefix(f, "[") && strings.ContainsAny(f, "0123456789?,") || f == "[...]" || f == "[]" {
					t.Errorf("%s --help: an unquoted shape %s in %q", c.name, f, line)
				}
			}
		}
	}
	// And where the text tells what to type, however the text is wrapped.
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, want := range []struct{ command, text string }{
		{"infer", `INPUT is a partial shape: '[2,5,5,24]', '[?,3]', '[1..8,?]', '[...]' (dynamic rank), '[]' (scalar).`},
		{"infer", `--pattern-shape S   the shape of the pattern tensor: '[]' for a scalar pattern, '[n]' for n`},
		{"translate", `--input SHAPE       what is known of the input shape, as a partial shape: '[2,?,3]', '[...]'`},
	} {
		if _, usage, _ := cli("", want.command, "--help"); !strings.Contains(words(usage), words(want.text)) {
			t.Errorf("%s --help lacks %q", want.command, want.text)
		}
	}
	_, usage, _ := cli("", "check", "--help")
	for _, want := range []string{".onnx", "--run", "--bin", "--json", "DIR"} {
		if !strings.Contains(usage, want) {
			t.Errorf("check --help does not mention %s", want)
		}
	}
	if strings.Contains(usage, "computed by a shape subgraph, or a DynamicReshape input) is\ninferred with its values unknown") {
		t.Error("check --help says computed patterns stay unknown")
	}
}

func TestColorAndVersion(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	terminal := func(io.Writer) bool { return true }
	notTerminal := func(io.Writer) bool { return false }
	tests := []struct {
		vars     map[string]string
		terminal func(io.Writer) bool
		want     bool
	}{
		{map[string]string{"TERM": "xterm"}, terminal, true},
		{map[string]string{"TERM": "xterm", "NO_COLOR": "1"}, terminal, false},
		{map[string]string{"TERM": "xterm", "NO_COLOR": ""}, terminal, true},
		{map[string]string{"TERM": "dumb"}, terminal, false},
		{map[string]string{"TERM": "xterm"}, notTerminal, false},
	}
	for _, tt := range tests {
		if got := useColor(nil, env(tt.vars), tt.terminal); got != tt.want {
			t.Errorf("useColor(%v) = %v, want %v", tt.vars, got, tt.want)
		}
	}
	var b strings.Builder
	rep, _ := check.Builtin()
	rows := rep.Rows
	printRows(&b, rows[:1], nil, true, 0, nil)
	if !strings.Contains(b.String(), green+"ok"+reset) || !strings.Contains(b.String(), bold+"VERDICT"+reset) {
		t.Errorf("coloured table:\n%q", b.String())
	}
	b.Reset()
	printRows(&b, rows[:1], nil, false, 0, nil)
	if strings.Contains(b.String(), "\x1b") {
		t.Errorf("colour without a terminal: %q", b.String())
	}
	code, stdout, _ := cli("", "--version")
	if code != 0 || !strings.HasPrefix(stdout, "reshape ") || !strings.Contains(stdout, "go1.") {
		t.Errorf("--version: %d %q", code, stdout)
	}
}

// scalarPatternIR is an IR model whose one Reshape takes a rank-0 Const pattern holding 1 and a
// Const data input of shape [1], and declares the scalar output []: OpenVINO's scalar pattern.
const scalarPatternIR = `<?xml version="1.0"?>
<net name="scalar_pattern" version="11">
	<layers>
		<layer id="0" name="data" type="Const" version="opset1">
			<data element_type="f32" shape="1" offset="8" size="4"/>
			<output><port id="0" precision="FP32"><dim>1</dim></port></output>
		</layer>
		<layer id="1" name="pattern" type="Const" version="opset1">
			<data element_type="i64" shape="" offset="0" size="8"/>
			<output><port id="0" precision="I64"/></output>
		</layer>
		<layer id="2" name="reshape" type="Reshape" version="opset1">
			<data special_zero="false"/>
			<input>
				<port id="0" precision="FP32"><dim>1</dim></port>
				<port id="1" precision="I64"/>
			</input>
			<output><port id="2" precision="FP32"/></output>
		</layer>
		<layer id="3" name="result" type="Result" version="opset1">
			<input><port id="0" precision="FP32"/></input>
		</layer>
	</layers>
	<edges>
		<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
		<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
		<edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
	</edges>
</net>
`

// TestCheckRunScalarPattern runs a Reshape by a scalar pattern: the result keeps the scalar rank
// the rules give, so the row is ok both as inferred and as run.
func TestCheckRunScalarPattern(t *testing.T) {
	dir := t.TempDir()
	xml := filepath.Join(dir, "scalar.xml")
	os.WriteFile(xml, []byte(scalarPatternIR), 0o644)
	os.WriteFile(filepath.Join(dir, "scalar.bin"), []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f}, 0o644)
	code, stdout, stderr := cli("", "check", "--run", "--json", xml)
	if code != 0 || stderr != "" || !strings.Contains(stdout, `"pattern":[1],"pattern_shape":[]`) || !strings.Contains(stdout, `"inferred":[]`) || !strings.Contains(stdout, `"verdict":"ok"`) || !strings.Contains(stdout, `"run":"ok"`) {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestShapesCommandIR: shapes reads an IR network, its .bin beside it or from --bin, prints JSON
// records of the form ONNX's have, and refuses --write on it before anything is printed or written.
func TestShapesCommandIR(t *testing.T) {
	model := filepath.Join("..", "..", "testdata", "ir", "flatten_head.xml")
	code, stdout, stderr := cli("", "shapes", "--json", "--dim", "image:0=2", model)
	if code != 0 || stderr != "" ||
		!strings.Contains(stdout, `{"record":"tensor","name":"logits,flat","node":"flatten","op":"Reshape","type":"f32","shape":[2,256],"declared":["?",256],"verdict":"ok"}`) ||
		!strings.HasSuffix(stdout, `{"record":"summary","file":"`+model+`","tensors":7,"verdicts":{"inferred":1,"ok":6},"symbols":[],"unsupported":{},"constraints":[],"limits":[],"valid":"always","fixed":0,"complete":true,"lost":[],"warnings":[]}`+"\n") {
		t.Errorf("shapes --json: exit %d\n%s%s", code, stdout, stderr)
	}
	dir := t.TempDir()
	x, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	lone := filepath.Join(dir, "lone.xml")
	if err := os.WriteFile(lone, x, 0o644); err != nil {
		t.Fatal(err)
	}
	// Without the .bin, the Reshape's pattern, computed from Const layers, is unknown.
	if code, stdout, stderr := cli("", "shapes", lone); code != 0 || stderr != "" || !strings.Contains(stdout, "\nlogits,flat  Reshape      f32   [?,?]            [?,256]    ok\n") {
		t.Errorf("without the .bin: exit %d, %q, %q", code, stdout, stderr)
	}
	bin := strings.TrimSuffix(model, ".xml") + ".bin"
	if code, stdout, stderr := cli("", "shapes", "--quiet", "--bin", bin, lone); code != 0 || stderr != "" || stdout != "7 tensors: 6 ok, 0 mismatch, 1 inferred, 0 error; symbols: image:0\n" {
		t.Errorf("--bin: exit %d, %q, %q", code, stdout, stderr)
	}
	out := filepath.Join(dir, "out.onnx")
	code, stdout, stderr = cli("", "shapes", "--write", out, model)
	if _, err := os.Stat(out); code != 2 || stdout != "" || !errors.Is(err, fs.ErrNotExist) ||
		!strings.HasPrefix(stderr, "reshape shapes: --write "+out+": "+model+" is an OpenVINO IR network, and --write writes ONNX models only") {
		t.Errorf("--write on IR: exit %d, %v, %q, %q", code, err, stdout, stderr)
	}
}

func TestShapesCommand(t *testing.T) {
	model := filepath.Join("..", "..", "testdata", "models", "idioms.onnx")
	code, stdout, stderr := cli("", "shapes", "--dim", "N=2", "--dim", "H=5", "--dim", "W=4", model)
	if code != 0 || stderr != "" || !strings.Contains(stdout, "rows_flat   Reshape    f32   [2,3,12]") ||
		!strings.HasSuffix(stdout, "11 tensors: 2 ok, 0 mismatch, 9 inferred, 0 error\n") {
		t.Errorf("shapes --dim: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = cli("", "shapes", "--json", model)
	if code != 0 || !strings.Contains(stdout, `{"record":"tensor","name":"rows","node":"every_other_row","op":"Slice","type":"f32","shape":["N",3,"(H+1)//2","W"],"verdict":"inferred"}`) ||
		!strings.HasSuffix(stdout, `"symbols":["N","H","W"],"unsupported":{},"constraints":[],"limits":[],"valid":"always","fixed":0,"complete":true,"lost":[],"warnings":[]}`+"\n") {
		t.Errorf("shapes --json: exit %d\n%s", code, stdout)
	}
	out := filepath.Join(t.TempDir(), "out.onnx")
	if code, _, stderr := cli("", "shapes", "--write", out, model); code != 0 || stderr != "" {
		t.Fatalf("shapes --write: exit %d, %s", code, stderr)
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.Contains(b, []byte("(H+1)//2")) {
		t.Errorf("shapes --write wrote %d bytes without the dim_param (H+1)//2, %v", len(b), err)
	}
	for _, args := range [][]string{
		{"shapes", "--dim", "Q=3", model},
		{"shapes", "--dim", "N", model},
		{"shapes", "--input", "y=[1]", model},
	} {
		if code, _, stderr := cli("", args...); code != 2 || stderr == "" {
			t.Errorf("%q: exit %d, %s", args, code, stderr)
		}
	}
	// --quiet gives the tensors downstream of one error one line.
	mha := filepath.Join("..", "..", "testdata", "models", "mha_enc.onnx")
	if code, stdout, _ := cli("", "shapes", "--quiet", "--input", "x=[10,2,16,1]", mha); code != 1 ||
		!strings.HasSuffix(stdout, "\n50 tensors not inferred: an input is unknown, downstream of the error at /attn/MatMul\n"+
			"note: --input x=[10,2,16,1] gives x the rank 4, where the model declares [T,B,16]: onnxruntime refuses such an input (\"Invalid rank for input\"), "+
			"where OpenVINO's reshape accepts it and infers the model again, as here\n"+
			"72 tensors: 0 ok, 0 mismatch, 21 inferred, 1 error, 50 unknown\n") || strings.Count(stdout, "\n") != 6 {
		t.Errorf("shapes --quiet downstream of an error: exit %d\n%s", code, stdout)
	}
	// An output path that is a directory, or not an ONNX model's name, fails before the work.
	dir := filepath.Join(t.TempDir(), "out.onnx")
	os.Mkdir(dir, 0o755)
	for path, want := range map[string]string{dir: "reshape: io: " + dir + ": is a directory\n", "x.npy": "reshape shapes: --write x.npy: writes an ONNX model, and the name does not end in .onnx\n"} {
		if code, stdout, stderr := cli("", "shapes", "--write", path, model); code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) {
			t.Errorf("--write %s: exit %d, %q, %q", path, code, stdout, stderr)
		}
	}
	// An output that cannot be written fails before anything is printed, naming its path once.
	nodir := filepath.Join(t.TempDir(), "no", "dir.onnx")
	if code, stdout, stderr := cli("", "shapes", "--write", nodir, model); code != 2 || stdout != "" || stderr != "reshape: io: "+nodir+": no such file or directory\n" {
		t.Errorf("--write into a missing directory: exit %d, %q, %q", code, stdout, stderr)
	}
}

// TestUsageAligned: in every command's usage, the descriptions of the flags start at one column;
// a flag too long for it stands on its own line, its description at that column on the next.
func TestUsageAligned(t *testing.T) {
	for _, c := range commands {
		_, flags, ok := strings.Cut(c.usage, "\nFlags:\n")
		if !ok {
			continue
		}
		flags, _, _ = strings.Cut(flags, "\n\n")
		lines := strings.Split(flags, "\n")
		cols := map[int][]string{}
		for i, l := range lines {
			if !strings.HasPrefix(l, "  -") {
				continue
			}
			gap := strings.Index(l[2:], "  ")
			if gap < 0 { // the flag alone: its description on the next line
				if i+1 < len(lines) {
					next := lines[i+1]
					col := len(next) - len(strings.TrimLeft(next, " "))
					cols[col] = append(cols[col], strings.Fields(l)[0])
				}
				continue
			}
			col := 2 + gap + len(l[2+gap:]) - len(strings.TrimLeft(l[2+gap:], " "))
			cols[col] = append(cols[col], strings.Fields(l)[0])
		}
		if len(cols) > 1 {
			t.Errorf("reshape %s --help: the flags' descriptions start at several columns: %v", c.name, cols)
		}
	}
}

// TestUsageWidth: every line of the main usage and of every command's usage fits helpWidth
// columns, an 80-column terminal.
func TestUsageWidth(t *testing.T) {
	var main strings.Builder
	printMainUsage(&main)
	texts := map[string]string{"reshape --help": main.String()}
	for _, c := range commands {
		texts["reshape "+c.name+" --help"] = c.usage
	}
	for name, text := range texts {
		for i, l := range strings.Split(text, "\n") {
			if n := utf8.RuneCountInString(l); n > helpWidth {
				t.Errorf("%s: line %d is %d columns, over %d: %q", name, i+1, n, helpWidth, l)
			}
		}
	}
}

// TestModelAtStdin: "-" is the model at stdin for check, shapes, map and report, a file redirected or a pipe,
// its format told by its first bytes; rows name it "-".
func TestModelAtStdin(t *testing.T) {
	onnxModel, ir := filepath.Join(models, "const_reshape_batch.onnx"), filepath.Join("..", "..", "testdata", "ir", "flatten_head.xml")
	run := func(path string, pipe bool, args ...string) (int, string, string) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		stdin := f
		if pipe {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			go func() { io.Copy(w, f); w.Close() }()
			stdin = r
		}
		var out, errOut bytes.Buffer
		code := run(args, stdin, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	for _, tt := range []struct {
		model string
		pipe  bool
		args  []string
		code  int
		want  string // in stdout
	}{
		{onnxModel, false, []string{"check", "-"}, 1, "-     2   flatten  [1,3,4]  [1,12]"},
		{onnxModel, true, []string{"check", "--quiet", "-"}, 1, "- runs only when:\n  N == 1  flatten (Reshape)"},
		{onnxModel, true, []string{"shapes", "--dim", "N=1", "-"}, 0, "flatten_out     Reshape   f32   [1,12]   [1,12]    ok"},
		{ir, true, []string{"check", "-", "--json"}, 0, `{"record":"reshape","file":"-","id":"10","name":"flatten"`},
		{ir, false, []string{"check", "-", onnxModel}, 1, "2 reshapes in 2 files"},
		{onnxModel, true, []string{"map", "-o", "-", "-"}, 0, `data-x-symbol="N"`},
		{onnxModel, true, []string{"report", "-o", "-", "-"}, 0, "<title>-: reshape report"},
	} {
		code, stdout, stderr := run(tt.model, tt.pipe, tt.args...)
		if code != tt.code || stderr != "" || !strings.Contains(stdout, tt.want) {
			t.Errorf("reshape %s < %s (pipe %v): exit %d, want %d and %q in\n%s%s", strings.Join(tt.args, " "), tt.model, tt.pipe, code, tt.code, tt.want, stdout, stderr)
		}
	}
	if code, _, stderr := run(onnxModel, false, "check", "-", "-"); code != 2 || !strings.Contains(stderr, "- (the model at stdin) is given twice") {
		t.Errorf("- twice: exit %d, %s", code, stderr)
	}
	if code, _, stderr := cli("model bytes", "shapes", "-"); code != 2 || !strings.Contains(stderr, "stdin is not a file or a pipe") {
		t.Errorf("stdin not a file: exit %d, %s", code, stderr)
	}
}

// TestOutputKind: every command that writes a file checks it before the work: a name of another
// kind than the file written, and the model itself, which the output would replace, are usage
// errors (exit 2), and the model is left as it was.
func TestOutputKind(t *testing.T) {
	dir := t.TempDir()
	model := copyFile(t, filepath.Join(models, "idioms.onnx"), filepath.Join(dir, "idioms.onnx"))
	src, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"map", "-o", model, model}, "reshape map: -o " + model + ": writes an SVG picture, and the name does not end in .svg\n"},
		{[]string{"map", "-o", "map.png", model}, "reshape map: -o map.png: writes an SVG picture, and the name does not end in .svg\n"},
		{[]string{"report", "-o", model, model}, "reshape report: -o " + model + ": writes an HTML page, and the name does not end in .html\n"},
		{[]string{"report", "--out", "page.svg", model}, "reshape report: -o page.svg: writes an HTML page, and the name does not end in .html\n"},
		{[]string{"shapes", "--write", model, model}, "reshape shapes: --write " + model + ": is the model read, which the output would replace: write it to another file\n"},
		{[]string{"fix", model, filepath.Join(dir, ".", "idioms.onnx")}, "reshape fix: OUT " + filepath.Join(dir, "idioms.onnx") + ": is the model read, which the output would replace: write it to another file\n"},
		{[]string{"fix", model, filepath.Join(dir, "fixed.svg")}, "reshape fix: OUT " + filepath.Join(dir, "fixed.svg") + ": writes an ONNX model, and the name does not end in .onnx\n"},
	}
	for _, tt := range tests {
		code, stdout, stderr := cli("", tt.args...)
		if first, _, _ := strings.Cut(stderr, "\n"); code != 2 || stdout != "" || first+"\n" != tt.stderr {
			t.Errorf("%s: exit %d, %q, %q; want 2 and %q", strings.Join(tt.args, " "), code, stdout, stderr, tt.stderr)
		}
	}
	if got, _ := os.ReadFile(model); !bytes.Equal(got, src) {
		t.Errorf("the model was changed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want the model alone", len(entries))
	}
}

// TestShapesWriteStdout: --write - gives stdout to the model alone, whole; the table and the
// summary go to stderr.
func TestShapesWriteStdout(t *testing.T) {
	model := filepath.Join(models, "idioms.onnx")
	code, stdout, stderr := cli("", "shapes", "--write", "-", model)
	if code != 0 || !strings.HasPrefix(stderr, "TENSOR ") || !strings.Contains(stderr, "\n11 tensors: ") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	m, err := onnx.DecodeModel([]byte(stdout))
	if err != nil {
		t.Fatalf("stdout is not an ONNX model: %v", err)
	}
	if len(m.Graph.ValueInfo) == 0 {
		t.Error("the model written has no value_info")
	}
}

// TestMisnamed: a model whose bytes are of another format than its extension's says which, in
// every command that reads a model.
func TestMisnamed(t *testing.T) {
	dir := t.TempDir()
	onnxAsXML := copyFile(t, filepath.Join(models, "idioms.onnx"), filepath.Join(dir, "idioms.xml"))
	irAsONNX := copyFile(t, filepath.Join("..", "..", "testdata", "ir", "flatten_head.xml"), filepath.Join(dir, "flatten_head.onnx"))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"check", onnxAsXML}, "(its first bytes are an ONNX model's: is it misnamed? name it .onnx)\n"},
		{[]string{"shapes", irAsONNX}, "(it starts with '<', as an OpenVINO IR .xml does: is it misnamed? name it .xml)\n"},
		{[]string{"map", "-o", filepath.Join(dir, "m.svg"), onnxAsXML}, "is it misnamed? name it .onnx)\n"},
		{[]string{"report", "-o", filepath.Join(dir, "r.html"), irAsONNX}, "is it misnamed? name it .xml)\n"},
	} {
		code, _, stderr := cli("", tt.args...)
		if first, _, _ := strings.Cut(stderr, "\n"); code != 2 || !strings.HasPrefix(stderr, "reshape: syntax: ") || !strings.HasSuffix(first+"\n", tt.want) {
			t.Errorf("%s: exit %d, %q; want 2 and a line ending in %q", strings.Join(tt.args, " "), code, stderr, tt.want)
		}
	}
}

// copyFile copies the file src to dst, and returns dst.
func copyFile(t *testing.T, src, dst string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestRunsNowhere: a model that runs at no binding (a type error, a condition no binding
// satisfies) says so, and names no binding that runs: the text has no "runs only when" nor
// "smallest binding that runs", and JSON gives "valid": "never", each symbol's sizes "none" and no
// "smallest" (raft_small, whose Sqrt of int64 onnxruntime refuses at load, named the binding
// N=1, H=32, W=32).
func TestRunsNowhere(t *testing.T) {
	for _, tc := range []struct {
		file, line string
		symbols    []string
	}{
		{"../../graph/testdata/types/conv_i64.onnx", "runs at no binding of N, H, W: a node above fails at every one\n", []string{"N", "H", "W"}},
		{"../../testdata/models/never_holds.onnx", "runs at no binding of N, W: a node above fails at every one; the other nodes need:\n", []string{"N", "W"}},
	} {
		for _, cmd := range []string{"check", "shapes"} {
			code, stdout, stderr := cli("", cmd, tc.file)
			if code != 1 || stderr != "" || !strings.Contains(stdout, tc.line) || strings.Contains(stdout, "runs only when") || strings.Contains(stdout, "that runs") {
				t.Errorf("%s %s: exit %d\n%s%s", cmd, tc.file, code, stdout, stderr)
			}
			code, stdout, _ = cli("", cmd, "--json", tc.file)
			var sum struct {
				Record   string
				Valid    string
				Sizes    map[string]check.Size
				Smallest map[string]int64
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || code != 1 {
				t.Fatalf("%s --json %s: exit %d, %v\n%s", cmd, tc.file, code, err, stdout)
			}
			if sum.Record != "summary" || sum.Valid != "never" || sum.Smallest != nil || len(sum.Sizes) != len(tc.symbols) {
				t.Errorf("%s --json %s: %+v, want valid never, no smallest, sizes of %v", cmd, tc.file, sum, tc.symbols)
			}
			for _, name := range tc.symbols {
				if z := sum.Sizes[name]; z.Text != "none" || !z.Proven {
					t.Errorf("%s --json %s: %s %+v, want none, proven", cmd, tc.file, name, z)
				}
			}
		}
	}
}
