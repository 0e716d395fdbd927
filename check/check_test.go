package check_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/onednn"
)

func TestBuiltin(t *testing.T) {
	rep, err := check.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	rows := rep.Rows
	want := []struct{ input, pattern, out string }{
		{"[2,5,5,0]", "[0,4]", "[0,4]"},
		{"[2,5,5,24]", "[0,-1,4]", "[2,150,4]"},
		{"[2,2,3]", "[0,0,1,-1]", "[2,2,1,3]"},
		{"[3,1,1]", "[-1,0]", "[3,1]"},
		{"[3,1,1]", "[0,-1]", "[3,1]"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, r := range rows {
		w := want[i]
		if r.Verdict != check.OK || r.Input.String() != w.input || r.Pattern.String() != w.pattern ||
			r.Inferred == nil || r.Inferred.String() != w.out || r.PatternSource != check.PatternConst {
			t.Errorf("row %d = %+v, want %+v", i, r, w)
		}
	}
	if s := check.Summarize([]*check.Report{rep}); s.String() != "5 reshapes in 1 file: 5 ok, 0 mismatch, 0 inferred, 0 error" ||
		s.Valid != "always" || s.Constraints == nil || len(rep.Symbols) != 0 {
		t.Errorf("summary %q, valid %q, constraints %v, symbols %v", s, s.Valid, s.Constraints, rep.Symbols)
	}
}

func TestRowJSON(t *testing.T) {
	rep, err := check.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	rows := rep.Rows
	b, err := json.Marshal(rows[1])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"file":"spec_examples.xml","id":"6","name":"example2_reshape","op":"Reshape","dialect":"openvino",` +
		`"input":[2,5,5,24],"pattern":[0,-1,4],"pattern_shape":[3],"pattern_source":"const","special_zero":true,"inferred":[2,150,4],` +
		`"declared":[2,150,4],"verdict":"ok"}`
	if string(b) != want {
		t.Errorf("JSON:\n%s\nwant\n%s", b, want)
	}
}

// realData reads testdata/realdata.txt: for every model file of ../shared/realdata (its path below
// it, in slash form), how many Reshapes it holds and how many have a pattern that a shape subgraph
// computes.
func realData(t *testing.T) map[string][2]int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "realdata.txt"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][2]int{}
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		var counts [2]int
		var path string
		if n, err := fmt.Sscanf(line, "%d %d %s", &counts[0], &counts[1], &path); n != 3 || err != nil {
			t.Fatalf("testdata/realdata.txt:%d: %q: want RESHAPES COMPUTED PATH", i+1, line)
		}
		files[path] = counts
	}
	return files
}

// TestRealData checks every model file of ../shared/realdata (.xml and .json) against
// testdata/realdata.txt: read without an error, its Reshapes as many as listed, as many with a
// computed pattern, none with an unknown one, every row ok; and no file listed that is not there.
func TestRealData(t *testing.T) {
	dir := testenv.Shared(t, "realdata")
	const hist = "uxlfoundation__oneDNN/_history/"
	inconsistent := map[string]int{ // the rows of benchdnn graphs that declare what the rules do not give
		"uxlfoundation__oneDNN/tests/benchdnn/inputs/graph/pattern/int8/int8_maxpool_add_mul_fusion.json":         1,
		hist + "218064840ca1/tests/benchdnn/inputs/graph/pattern/int8/int8_maxpool_add_mul_fusion.json":           1,
		hist + "2e4c27d4dbd9/tests/benchdnn/inputs/graph/pattern/f32/matmul_select.json":                          1,
		hist + "354dbb64e1ea/tests/benchdnn/inputs/graph/op/bf16/conv_2d.json":                                    1,
		hist + "354dbb64e1ea/tests/benchdnn/inputs/graph/op/f16/conv_2d.json":                                     1,
		hist + "354dbb64e1ea/tests/benchdnn/inputs/graph/op/f32/conv_2d.json":                                     1,
		hist + "38aae69cadfc/tests/benchdnn/inputs/graph/pattern/int8/int8_bf16_conv_add_fusion.json":             2,
		hist + "62373ed4540f/tests/benchdnn/inputs/graph/complex_fusion/mha/gqa-plain-training-backward-f32.json": 3,
	}
	want := realData(t)
	seen := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || (filepath.Ext(path) != ".xml" && filepath.Ext(path) != ".json") {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		w, ok := want[rel]
		if !ok {
			t.Errorf("%s: a model file testdata/realdata.txt does not list (count its Reshapes by hand and add it)", rel)
			return nil
		}
		seen++
		rep, err := check.File(path, check.Options{})
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		var rows []check.Row // the Reshapes
		computed := 0
		for _, r := range rep.Rows {
			if strings.HasSuffix(r.Op, "Reshape") {
				rows = append(rows, r)
			} else if inconsistent[rel] > 0 {
				inconsistent[rel]--
				continue
			}
			if r.Verdict != check.OK {
				t.Errorf("%s: %s %s (%s): %s: %s", rel, r.Op, r.ID, r.Name, r.Verdict, r.Message)
			}
			switch r.PatternSource {
			case check.PatternComputed:
				computed++
			case check.PatternUnknown:
				t.Errorf("%s: %s %s (%s): the pattern is unknown: %s", rel, r.Op, r.ID, r.Name, r.Message)
			}
		}
		if len(rows) != w[0] || computed != w[1] {
			t.Errorf("%s: %d reshapes, %d with computed patterns; want %d, %d", rel, len(rows), computed, w[0], w[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(want) {
		t.Errorf("read %d model files, testdata/realdata.txt lists %d", seen, len(want))
	}
}

// builtinVariant writes the built-in IR model to dir with the xml and bin changed by edit, and
// returns the xml path.
func builtinVariant(t *testing.T, edit func(xml string, bin []byte) (string, []byte)) string {
	t.Helper()
	x, b := check.BuiltinFiles()
	xml, bin := edit(string(x), append([]byte(nil), b...))
	dir := t.TempDir()
	path := filepath.Join(dir, "m.xml")
	if err := os.WriteFile(path, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	if bin != nil {
		if err := os.WriteFile(filepath.Join(dir, "m.bin"), bin, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func TestFileErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(string, []byte) (string, []byte)
		code error
		want string
	}{
		{"truncated bin", func(x string, b []byte) (string, []byte) { return x, b[:50] }, errcode.ErrSyntax, "m.bin: offset 40 + size 32 is past the end of the file (50 bytes)"},
		{"empty bin", func(x string, b []byte) (string, []byte) { return x, b[:0] }, errcode.ErrSyntax, "offset 0 + size 16 is past the end of the file (0 bytes)"},
		{"offset past end", func(x string, b []byte) (string, []byte) {
			return strings.Replace(x, `offset="88"`, `offset="4000"`, 1), b
		}, errcode.ErrSyntax, "offset 4000 + size 16 is past the end"},
		{"wrong size", func(x string, b []byte) (string, []byte) {
			return strings.Replace(x, `shape="2" offset="0" size="16"`, `shape="2" offset="0" size="12"`, 1), b
		}, errcode.ErrSyntax, "size=12, but shape [2] of i64 takes 16 bytes"},
		{"unknown element type", func(x string, b []byte) (string, []byte) {
			return strings.Replace(x, `element_type="i64" shape="2" offset="0"`, `element_type="x64" shape="2" offset="0"`, 1), b
		}, errcode.ErrSyntax, `element_type: unknown element type "x64"`},
		{"overflowing const shape", func(x string, b []byte) (string, []byte) {
			return strings.Replace(x, `shape="2" offset="0"`, `shape="99999999999999999999" offset="0"`, 1), b
		}, errcode.ErrOverflow, "does not fit in an int64"},
		{"no special_zero", func(x string, b []byte) (string, []byte) {
			return strings.Replace(x, `<data special_zero="false"/>`, `<data/>`, 1), b
		}, errcode.ErrSyntax, `Reshape layer "2" ("example1_reshape", line 25): <data> has no special_zero attribute`},
		{"bad special_zero", func(x string, b []byte) (string, []byte) {
			return strings.Replace(x, `special_zero="false"`, `special_zero="maybe"`, 1), b
		}, errcode.ErrSyntax, `special_zero="maybe": want true or false`},
		{"pattern not fed", func(x string, b []byte) (string, []byte) {
			return strings.Replace(x, `<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>`, "", 1), b
		}, errcode.ErrSyntax, `Reshape layer "2" ("example1_reshape", line 25): no edge feeds input port "1"`},
		{"pattern of 10^9 elements past the end", func(x string, b []byte) (string, []byte) {
			return strings.Replace(x, `shape="2" offset="0" size="16"`, `shape="1000000000" offset="0" size="8000000000"`, 1), b
		}, errcode.ErrSyntax, "m.bin: offset 0 + size 8000000000 is past the end of the file"},
		{"xml syntax", func(x string, b []byte) (string, []byte) { return x[:500], b }, errcode.ErrSyntax, "m.xml: line 15: unexpected EOF"},
	}
	for _, tt := range tests {
		path := builtinVariant(t, tt.edit)
		rep, err := check.File(path, check.Options{})
		if !errors.Is(err, tt.code) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "--") {
			t.Errorf("%s: File = %+v, %v\nwant %v containing %q and the path, and no flag of the command", tt.name, rep, err, tt.code, tt.want)
		}
	}
}

func TestRowErrors(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(string, []byte) (string, []byte)
		verdict check.Verdict
		want    string
	}{
		{"u64 above int64 wraps, as OpenVINO reads it", func(x string, b []byte) (string, []byte) {
			x = strings.Replace(x, `element_type="i64" shape="2" offset="0"`, `element_type="u64" shape="2" offset="0"`, 1)
			copy(b[0:8], []byte{0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
			return x, b
		}, "invalid-dim", "pattern[0] = -3: dimension cannot be less than -1"},
		{"pattern of 65 elements", func(x string, b []byte) (string, []byte) {
			off := len(b)
			return strings.Replace(x, `shape="2" offset="0" size="16"`, fmt.Sprintf(`shape="65" offset="%d" size="520"`, off), 1), append(b, make([]byte, 520)...)
		}, "limit", "a constant of 65 elements exceeds the limit of 64"},
		{"float pattern", func(x string, b []byte) (string, []byte) {
			return strings.Replace(x, `element_type="i64" shape="2" offset="0" size="16"`, `element_type="f64" shape="2" offset="0" size="16"`, 1), b
		}, "pattern-type", "pattern element type f64: openvino takes an integer type"},
		{"i32 pattern", func(x string, b []byte) (string, []byte) {
			x = strings.Replace(x, `element_type="i64" shape="2" offset="0" size="16"`, `element_type="i32" shape="2" offset="0" size="8"`, 1)
			copy(b[4:8], b[8:12])
			return x, b
		}, "ok", ""},
		{"declared shape wrong", func(x string, b []byte) (string, []byte) {
			return strings.Replace(x, "<port id=\"2\" precision=\"FP32\">\n\t\t\t\t\t<dim>0</dim>\n\t\t\t\t\t<dim>4</dim>", "<port id=\"2\" precision=\"FP32\">\n\t\t\t\t\t<dim>0</dim>\n\t\t\t\t\t<dim>5</dim>", 1), b
		}, "mismatch", "the model declares [0,5], the rules give [0,4]"},
		{"invalid pattern", func(x string, b []byte) (string, []byte) {
			copy(b[8:16], []byte{0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
			return x, b
		}, "invalid-dim", "pattern[1] = -3: dimension cannot be less than -1"},
	}
	for _, tt := range tests {
		rep, err := check.File(builtinVariant(t, tt.edit), check.Options{})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		r := rep.Rows[0]
		if r.Verdict != tt.verdict || !strings.Contains(r.Message, tt.want) {
			t.Errorf("%s: row 0 = %s: %s; want %s containing %q", tt.name, r.Verdict, r.Message, tt.verdict, tt.want)
		}
		if s := check.Summarize([]*check.Report{rep}); s.Total != 5 || s.OK+s.Mismatch+s.Error != 5 {
			t.Errorf("%s: summary %v", tt.name, s)
		}
	}
}

func TestOneDNNRows(t *testing.T) {
	const g = `{"graph": [
	  {"id": 1, "name": "s", "kind": "StaticReshape",
	   "attrs": {"special_zero": {"type": "bool", "value": 1}, "shape": {"type": "s64[]", "value": [0, -1]}},
	   "inputs": [{"id": 0, "dtype": "f32", "shape": [0, 3]}], "outputs": [{"id": 2, "dtype": "f32", "shape": [0, 3]}]},
	  {"id": 3, "name": "d", "kind": "DynamicReshape", "attrs": {"special_zero": {"type": "bool", "value": 0}},
	   "inputs": [{"id": 4, "dtype": "bf16", "shape": [2, 3]}, {"id": 5, "dtype": "s32", "shape": [3]}],
	   "outputs": [{"id": 6, "dtype": "bf16", "shape": [-1, -1, 2]}]},
	  {"id": 7, "name": "i", "kind": "StaticReshape",
	   "attrs": {"special_zero": {"type": "bool", "value": 0}, "shape": {"type": "s64[]", "value": [6]}},
	   "inputs": [{"id": 8, "dtype": "s8", "shape": [2, 3]}], "outputs": [{"id": 9, "dtype": "s8", "shape": [6]}]},
	  {"id": 10, "name": "v", "kind": "DynamicReshape", "attrs": {"special_zero": {"type": "bool", "value": 0}},
	   "inputs": [{"id": 11, "dtype": "f32", "shape": [4, 6]}, {"id": 12, "dtype": "s32", "shape": [2]}],
	   "outputs": [{"id": 13, "dtype": "f32", "shape": [4, 7]}]},
	  {"id": 14, "name": "m", "kind": "MatMul"}
	]}`
	rep, err := oneDNNReport(g)
	if err != nil {
		t.Fatal(err)
	}
	rows := rep.Rows
	want := []struct {
		dialect  string
		verdict  check.Verdict
		inferred string
		source   check.PatternSource
	}{
		{"onednn-static", "ambiguous-inferred", "", check.PatternConst},
		{"onednn-dynamic", "ok", "[?,?,?]", check.PatternUnknown},
		{"onednn-static", "data-type", "", check.PatternConst},
		{"onednn-dynamic", "mismatch", "[?,?]", check.PatternUnknown},
		{"onednn-static", "syntax", "", ""}, // the MatMul without inputs
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	for i, w := range want {
		r := rows[i]
		inferred := ""
		if r.Inferred != nil {
			inferred = r.Inferred.String()
		}
		if r.Dialect.String() != w.dialect || r.Verdict != w.verdict || inferred != w.inferred || r.PatternSource != w.source {
			t.Errorf("row %d = %+v, want %+v", i, r, w)
		}
	}
	// In JSON: a failed inference has no inferred shape; unknown values are null, beside the
	// pattern's shape; dynamic dims are strings.
	for i, want := range []string{
		`"input":[0,3],"pattern":[0,-1],"pattern_shape":[2],"pattern_source":"const","special_zero":true,"declared":[0,3],"verdict":"ambiguous-inferred"`,
		`"input":[2,3],"pattern":null,"pattern_shape":[3],"pattern_source":"unknown","special_zero":false,"inferred":["?","?","?"],"declared":["?","?",2],"verdict":"ok"`,
	} {
		if b, err := json.Marshal(rows[i]); err != nil || !strings.Contains(string(b), want) {
			t.Errorf("row %d in JSON: %s, %v\nwant %s", i, b, err, want)
		}
	}
	for _, bad := range []string{
		`{"graph": [{"id": 1, "kind": "StaticReshape", "attrs": {"shape": {"type": "s64[]", "value": [1]}}, "inputs": [{}], "outputs": [{"id": 9}]}]}`,
		`{"graph": [{"id": 1, "kind": "StaticReshape", "attrs": {"special_zero": {"type": "bool", "value": 0}}, "inputs": [{}], "outputs": [{"id": 9}]}]}`,
		`{"graph": [{"id": 1, "kind": "StaticReshape", "attrs": {}, "inputs": [], "outputs": [{"id": 9}]}]}`,
		`{"graph": [{"id": 1, "kind": "DynamicReshape", "attrs": {"special_zero": {"type": "bool", "value": 0}}, "inputs": [{}], "outputs": [{"id": 9}]}]}`,
	} {
		if _, err := oneDNNReport(bad); !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), "Reshape 1") {
			t.Errorf("OneDNN(%s) = %v; want a syntax error naming the op", bad, err)
		}
	}
}

// TestRun replaces the data input of the first built-in example by a Const, directly and through a
// Convert, and runs the reshape on its bytes.
func TestRun(t *testing.T) {
	param := `<layer id="0" name="example1_data" type="Parameter" version="opset1">
			<data shape="2,5,5,0" element_type="f32"/>`
	constant := `<layer id="0" name="example1_data" type="Const" version="opset1">
			<data element_type="f32" shape="2,5,5,0" offset="0" size="0"/>`
	path := builtinVariant(t, func(x string, b []byte) (string, []byte) {
		return strings.Replace(x, param, constant, 1), b
	})
	rep, err := check.File(path, check.Options{Run: true})
	if err != nil {
		t.Fatal(err)
	}
	rows := rep.Rows
	if r := rows[0]; r.Run != check.OK || !strings.Contains(r.Message, "run: the f32 constant [2,5,5,0] reshaped as a view to [0,4], 0 bytes of f32") {
		t.Errorf("row 0: run %q: %s", r.Run, r.Message)
	}
	for _, r := range rows[1:] {
		if r.Run != "" {
			t.Errorf("row %s run on a Parameter input", r.ID)
		}
	}
	if s := check.Summarize([]*check.Report{rep}); s.String() != "5 reshapes in 1 file: 5 ok, 0 mismatch, 0 inferred, 0 error; 1 run on constant data: 1 ok" || !s.AllOK() {
		t.Errorf("summary %q", s)
	}
	if rep, _ := check.File(path, check.Options{}); rep.Rows[0].Run != "" {
		t.Error("run without Options.Run")
	}
	t.Run("hand_detector", func(t *testing.T) {
		rep, err := check.File(testenv.Shared(t, "realdata/openvinotoolkit__openvino_build_deploy/apps/palm_pilot/mediapipeModels/hand_detector.xml"), check.Options{Run: true})
		if err != nil {
			t.Fatal(err)
		}
		if s := check.Summarize([]*check.Report{rep}); s.Run != 28 || s.RunOK != 28 {
			t.Errorf("hand_detector: %v", s)
		}
	})
}

// oneDNNReport decodes the oneDNN Graph JSON text and checks it.
func oneDNNReport(text string) (*check.Report, error) {
	g, err := onednn.Decode(strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	return check.OneDNN(g, "g.json", check.Options{})
}

// TestFileWithoutBin: an IR network published without its .bin is checked; its Reshapes' Const
// patterns have no values, and each row names the Const whose values the .bin holds.
func TestFileWithoutBin(t *testing.T) {
	path := builtinVariant(t, func(x string, b []byte) (string, []byte) { return x, nil })
	rep, err := check.File(path, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	consts := []string{"1:0", "5:0", "9:0", "13:0", "17:0"} // the pattern of each Reshape
	if len(rep.Rows) != len(consts) {
		t.Fatalf("%d rows, want %d", len(rep.Rows), len(consts))
	}
	for i, row := range rep.Rows {
		want := "Const " + consts[i] + " (its values are in the .bin, which was not read)"
		if row.PatternSource != check.PatternUnknown || row.Pattern.Values != nil || row.Verdict != check.OK || len(row.Stopped) != 1 || row.Stopped[0] != want {
			t.Errorf("row %s: pattern %v (%s), verdict %s, stopped by %q; want unknown, ok, stopped by %q", row.ID, row.Pattern, row.PatternSource, row.Verdict, row.Stopped, want)
		}
	}
}

// TestFileNoBatch: with BatchSize, the report names the inputs that have no batch dim for it to
// set (a scalar), and sets the others' (x [?,?] of if_branches.xml to [2,?]).
func TestFileNoBatch(t *testing.T) {
	rep, err := check.File(filepath.Join("..", "graph", "testdata", "ir", "if_branches.xml"), check.Options{BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.NoBatch) != 1 || rep.NoBatch[0] != "flag" {
		t.Errorf("NoBatch %q, want [flag]", rep.NoBatch)
	}
	for _, row := range rep.Rows {
		if got := row.Input.String(); got != "[2,x:1]" {
			t.Errorf("row %s: input %s, want [2,x:1]", row.Name, got)
		}
	}
	if rep, err := check.File(filepath.Join("..", "graph", "testdata", "ir", "if_branches.xml"), check.Options{}); err != nil || rep.NoBatch != nil {
		t.Errorf("without BatchSize: NoBatch %q, %v", rep.NoBatch, err)
	}
}
