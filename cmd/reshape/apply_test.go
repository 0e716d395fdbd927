package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/npy"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/tensor"
)

func writeNpy(t *testing.T, path string, x tensor.Tensor) {
	t.Helper()
	var b bytes.Buffer
	if err := npy.Write(&b, x, npy.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestApply(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.npy")
	x, _ := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 2, 3, 2)
	writeNpy(t, in, x)
	// A Fortran-order file: numpy's layout for np.asfortranarray.
	fortran := filepath.Join(dir, "f.npy")
	ft, _ := tensor.FromSlice([]int16{1, 4, 2, 5, 3, 6}, 3, 2)
	ftt, _ := ft.Transpose()
	var fb bytes.Buffer
	npy.Write(&fb, ft, npy.WriteOptions{})
	raw := strings.Replace(fb.String(), "'fortran_order': False, 'shape': (3, 2)", "'fortran_order': True, 'shape': (2, 3) ", 1)
	os.WriteFile(fortran, []byte(raw), 0o644)
	want, _ := tensor.Values[int16](ftt)

	tests := []struct {
		args   []string
		code   int
		shape  []int64
		stderr string
	}{
		{[]string{"--special-zero=true", "--pattern", "0,-1", in}, 0, []int64{2, 6}, ""},
		{[]string{"--special-zero=false", "--pattern=-1", "--verbose", in}, 0, []int64{12},
			"reshape: [2,3,2] -> [12]: view (the input is dense: only the shape changes, the data is streamed)\n"},
		{[]string{"--dialect", "onnx", "--pattern", "3,0", in}, 1, nil, "reshape: volume-mismatch: output shape [3,3] has volume 9"},
		{[]string{"--special-zero=false", "--pattern", "5,-1", in}, 1, nil, "reshape: not-divisible"},
		{[]string{"--special-zero=false", "--pattern", "-1", "--verbose", fortran}, 0, []int64{6},
			"reshape: [2,3] -> [6]: copy (input axes 0..1 merge into output axes 0..0, but stride[0] = 2 != dim[1]·stride[1] = 12: not contiguous; copied in blocks on the way to the file)\n"},
		{[]string{"--special-zero=false", "--pattern", "2,3,1", "--verbose", fortran}, 0, []int64{2, 3, 1},
			"view (every group of input axes merged into one output axis is contiguous within itself)"},
		{[]string{"--pattern", "6", in}, 2, nil, "special_zero is required by openvino"},
		{[]string{"--special-zero=true", in}, 2, nil, "give the pattern with --pattern or --pattern-file"},
		{[]string{"--special-zero=true", "--pattern", "1..3", in}, 2, nil, "data needs static values"},
		{[]string{"--special-zero=true", "--pattern", "6", filepath.Join(dir, "missing.npy")}, 2, nil, "no such file"},
		{[]string{"--special-zero=true", "--pattern", "6", filepath.Join(dir, "missing.npy"), "x", "y"}, 2, nil, "want IN and OUT (.npy or .pb)"},
	}
	for i, tt := range tests {
		out := filepath.Join(dir, "out"+strconv.Itoa(i)+".npy")
		code, _, stderr := cli("", append(append([]string{"apply"}, tt.args...), out)...)
		if code != tt.code || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("apply %q: exit %d, stderr %q; want %d, %q", tt.args, code, stderr, tt.code, tt.stderr)
			continue
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("apply %q left %s", tt.args, e.Name())
			}
		}
		if st, err := os.Stat(out); tt.code == 0 && (err != nil || st.Mode().Perm() != 0o644) {
			t.Errorf("apply %q: output mode %v, %v; want 0644", tt.args, st.Mode(), err)
		}
		got, _, err := npy.ReadFile(out)
		if tt.code != 0 {
			if !os.IsNotExist(err) {
				t.Errorf("apply %q failed but left %s: %v", tt.args, out, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got.Shape(), tt.shape) {
			t.Errorf("apply %q: %v %v", tt.args, got.Shape(), err)
			continue
		}
		if got.Type().String() == "i16" {
			v, _ := tensor.Values[int16](got)
			if !slices.Equal(v, want) {
				t.Errorf("apply %q: values %v, want %v", tt.args, v, want)
			}
		}
	}
}

// onnxBackendTests returns the directories of the ONNX backend tests of Reshape in
// ../shared/conformance/onnx (testenv.Shared: a skip or a failure when it is missing).
func onnxBackendTests(t *testing.T) []string {
	root := testenv.Shared(t, "conformance/onnx")
	dirs, _ := filepath.Glob(filepath.Join(root, "test_reshape_*"))
	if len(dirs) == 0 {
		t.Fatalf("no ONNX backend test of Reshape in %s", root)
	}
	return dirs
}

// TestONNXData runs the ONNX backend node tests of ../shared/conformance/onnx through reshape
// apply: the model's Reshape applied to input_0.npy with the pattern of input_1.npy must give
// output_0.npy, byte for byte. allowzero is 1 in test_reshape_allowzero_reordered and 0 elsewhere.
func TestONNXData(t *testing.T) {
	dirs := onnxBackendTests(t)
	for _, d := range dirs {
		data := filepath.Join(d, "test_data_set_0")
		p, _, err := npy.ReadFile(filepath.Join(data, "input_1.npy"))
		if err != nil {
			t.Fatal(err)
		}
		values, err := tensor.Values[int64](p)
		if err != nil {
			t.Fatal(err)
		}
		pattern := make([]string, len(values))
		for i, v := range values {
			pattern[i] = strconv.FormatInt(v, 10)
		}
		allowZero := "0"
		if strings.HasSuffix(d, "allowzero_reordered") {
			allowZero = "1"
		}
		out := filepath.Join(t.TempDir(), "out.npy")
		code, _, stderr := cli("", "apply", "--dialect", "onnx", "--allowzero="+allowZero, "--pattern="+strings.Join(pattern, ","),
			filepath.Join(data, "input_0.npy"), out)
		got, _ := os.ReadFile(out)
		want, _ := os.ReadFile(filepath.Join(data, "output_0.npy"))
		if code != 0 || !bytes.Equal(got, want) {
			t.Errorf("%s: exit %d %s: output differs from output_0.npy", filepath.Base(d), code, stderr)
		}
	}
}

// TestRunONNXTest runs reshape run-onnx-test over the ONNX backend tests of ../shared, and over a
// copy of one whose expected output is changed.
func TestRunONNXTest(t *testing.T) {
	dirs := onnxBackendTests(t)
	code, stdout, stderr := cli("", append([]string{"run-onnx-test"}, dirs...)...)
	summary := fmt.Sprintf("%d data sets in %d tests: %d pass, 0 fail\n", len(dirs), len(dirs), len(dirs))
	if code != 0 || strings.Count(stdout, ": pass\n") != len(dirs) || stderr != "" || !strings.HasSuffix(stdout, summary) {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The directory of the tests runs them all.
	if code, stdout2, _ := cli("", "run-onnx-test", filepath.Dir(dirs[0])); code != 0 || stdout2 != stdout {
		t.Errorf("a directory of tests: exit %d\n%s", code, stdout2)
	}
	// A data set whose expected output lies: fail, exit 1.
	src := dirs[0]
	dir := t.TempDir()
	set := filepath.Join(dir, "test_data_set_0")
	os.MkdirAll(set, 0o755)
	for _, f := range []string{"model.onnx", "test_data_set_0/input_0.pb", "test_data_set_0/input_1.pb"} {
		b, _ := os.ReadFile(filepath.Join(src, f))
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	wrong, _ := tensor.FromSlice([]float32{1, 2})
	b, _ := onnx.EncodeTensor(wrong, "reshaped")
	os.WriteFile(filepath.Join(set, "output_0.pb"), b, 0o644)
	code, stdout, _ = cli("", "run-onnx-test", dir)
	if code != 1 || !strings.Contains(stdout, "test_data_set_0: fail: mismatch: shape [") || !strings.Contains(stdout, "], want [2] (output_0.pb)\n") ||
		!strings.HasSuffix(stdout, "1 data set in 1 test: 0 pass, 1 fail\n") {
		t.Errorf("lying output: exit %d, %s", code, stdout)
	}
	if code, _, stderr := cli("", "run-onnx-test", t.TempDir()); code != 2 || !strings.Contains(stderr, "model.onnx") {
		t.Errorf("empty directory: exit %d, %s", code, stderr)
	}
	empty := t.TempDir()
	code, stdout, stderr = cli("", "run-onnx-test", "--json", dir, dirs[0], empty)
	want := `{"record":"data_set","set":"` + set + `","result":"fail","error":"mismatch","message":"shape [`
	if code != 2 || stderr != "" || !strings.HasPrefix(stdout, want) ||
		!strings.Contains(stdout, `{"record":"data_set","set":"`+filepath.Join(dirs[0], "test_data_set_0")+`","result":"pass"}`) ||
		!strings.Contains(stdout, `{"record":"test","test":"`+empty+`","error":"syntax","message":"`+empty+`: no model.onnx in it`) ||
		!strings.HasSuffix(stdout, `{"record":"summary","data_sets":2,"tests":2,"pass":1,"fail":1,"unreadable":1,"unreadable_data_sets":0}`+"\n") {
		t.Errorf("--json: exit %d\n%s%s", code, stdout, stderr)
	}
	// A data set missing a file did not run, whichever file it is: exit 2, with the code io.
	for _, f := range []string{"input_0.pb", "input_1.pb", "output_0.pb"} {
		b, _ := os.ReadFile(filepath.Join(src, "test_data_set_0", "output_0.pb"))
		os.WriteFile(filepath.Join(set, "output_0.pb"), b, 0o644)
		for _, g := range []string{"input_0.pb", "input_1.pb"} {
			b, _ := os.ReadFile(filepath.Join(src, "test_data_set_0", g))
			os.WriteFile(filepath.Join(set, g), b, 0o644)
		}
		os.Remove(filepath.Join(set, f))
		code, stdout, _ := cli("", "run-onnx-test", dir)
		if code != 2 || !strings.Contains(stdout, "test_data_set_0: unreadable: io: open "+filepath.Join(set, f)+": no such file or directory\n") ||
			!strings.HasSuffix(stdout, "1 data set in 1 test: 0 pass, 0 fail; 1 data set could not be read\n") {
			t.Errorf("%s missing: exit %d, %s", f, code, stdout)
		}
	}
}

// TestApplyPB reshapes TensorProto files, with the pattern from a .pb or a .npy file.
func TestApplyPB(t *testing.T) {
	dir := t.TempDir()
	x, _ := tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := onnx.EncodeTensor(x, "data")
	in := filepath.Join(dir, "in.pb")
	os.WriteFile(in, b, 0o644)
	p, _ := tensor.FromSlice([]int64{3, -1})
	pb, _ := onnx.EncodeTensor(p, "shape")
	patternPB := filepath.Join(dir, "p.pb")
	os.WriteFile(patternPB, pb, 0o644)
	patternNpy := filepath.Join(dir, "p.npy")
	writeNpy(t, patternNpy, p)

	out := filepath.Join(dir, "out.pb")
	if code, _, stderr := cli("", "apply", "--dialect", "onnx", "--pattern-file", patternPB, in, out); code != 0 {
		t.Fatalf("pb to pb: exit %d %s", code, stderr)
	}
	got, _ := os.ReadFile(out)
	y, _, _ := x.View(3, 2)
	want, _ := onnx.EncodeTensor(y, "data")
	if string(got) != string(want) {
		t.Errorf("pb to pb: %x\nwant %x", got, want)
	}
	outNpy := filepath.Join(dir, "out.npy")
	if code, _, stderr := cli("", "apply", "--dialect", "onnx", "--pattern-file", patternNpy, in, outNpy); code != 0 {
		t.Fatalf("pb to npy: exit %d %s", code, stderr)
	}
	back, _, err := npy.ReadFile(outNpy)
	if v, _ := tensor.Values[int32](back); err != nil || !slices.Equal(back.Shape(), []int64{3, 2}) || !slices.Equal(v, []int32{1, 2, 3, 4, 5, 6}) {
		t.Errorf("pb to npy: %v %v %v", back.Shape(), v, err)
	}
	for _, bad := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--dialect", "onnx", "--pattern-file", in, in, out}, 1, "pattern-type: --pattern-file " + in + ": pattern element type i32: onnx takes i64"},
		{[]string{"--dialect", "onnx", "--pattern", "6", "--pattern-file", patternPB, in, out}, 2, "give the pattern with --pattern or --pattern-file, not both"},
		{[]string{"--dialect", "onnx", "--pattern", "6", in, filepath.Join(dir, "nonexistdir", "o.pb")}, 2, "reshape: io: " + filepath.Join(dir, "nonexistdir", "o.pb") + ": no such file or directory"},
		{[]string{"--dialect", "onnx", "--pattern", "6", in, filepath.Join(dir, "nonexistdir", "o.npy")}, 2, "reshape: io: " + filepath.Join(dir, "nonexistdir", "o.npy") + ": no such file or directory"},
		{[]string{"--dialect", "onnx", "--pattern", "2,x", in, out}, 2, "reshape: syntax: --pattern: pattern"},
		{[]string{"--dialect", "onnx", "--pattern", "6", in, filepath.Join(dir, "out.txt")}, 2, "want a .npy or .pb"},
		{[]string{"--dialect", "onnx", "--pattern", "6", filepath.Join(dir, "p.npy"), out}, 1, "volume-mismatch"},
	} {
		code, _, stderr := cli("", append([]string{"apply"}, bad.args...)...)
		if code != bad.code || !strings.Contains(stderr, bad.want) {
			t.Errorf("apply %q: exit %d, %s; want %d, %q", bad.args, code, stderr, bad.code, bad.want)
		}
	}
}

func TestLimits(t *testing.T) {
	dir := t.TempDir()
	x, _ := tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	in := filepath.Join(dir, "in.npy")
	writeNpy(t, in, x)
	b, _ := onnx.EncodeTensor(x, "x")
	pb := filepath.Join(dir, "in.pb")
	os.WriteFile(pb, b, 0o644)
	out := filepath.Join(dir, "out.pb")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"infer", "--special-zero=false", "--max-rank", "2", "[1,2,3]", "-1"}, 1, "reshape: limit: input rank 3 exceeds the limit of 2"},
		{[]string{"apply", "--special-zero=false", "--pattern=-1", "--max-file-size", "10", pb, out}, 2, "reshape: limit: " + pb + ": the file is 35 B, more than the 10 B a file read into memory may be (--max-file-size)"},
		{[]string{"apply", "--special-zero=false", "--pattern=-1", "--max-bytes", "100B", pb, out}, 2, "needs 140 B, more than the 100 B the command may allocate (--max-bytes)"},
		{[]string{"apply", "--special-zero=false", "--pattern=-1", "--max-bytes", "lots", pb, out}, 2, "want a size such as 512MiB or 8GiB"},
		{[]string{"apply", "--special-zero=false", "--pattern=1,1,1,1,1,1,-1", "--max-rank", "4", in, filepath.Join(dir, "o.npy")}, 1, "output rank 7 exceeds the limit of 4"},
		{[]string{"check", "--max-file-size", "1KiB", "../../check/model/spec_examples.xml"}, 2, "limit: ../../check/model/spec_examples.xml: the file is"},
	}
	for _, tt := range tests {
		code, _, stderr := cli("", tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit %d, %s; want %d, %q", tt.args, code, stderr, tt.code, tt.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused apply left %s", out)
	}
}

// TestApplyAnyDtype reshapes dtypes without an element type as numpy does, byte for byte: the
// fixtures in testdata/npy are numpy 1.24's, written by
//
//	a = np.asfortranarray((rng.standard_normal(6)+1j*rng.standard_normal(6)).astype(">c8").reshape(2, 3))
//	np.save("c8_fortran.npy", a); np.save("c8_fortran_flat.npy", a.reshape(6).copy(order="C"))
//	s = np.zeros(6, [("a", "<i4"), ("b", "<U2", (2,)), ("d", "<M8[s]")]) ... .reshape(2, 3)
//	np.save("struct.npy", s); np.save("struct_3x2.npy", s.reshape(3, 2).copy(order="C"))
//
// Each runs from file to file and from stdin to stdout ("-"); bench/apply_vs_numpy.py checks 625
// such cases.
func TestApplyAnyDtype(t *testing.T) {
	const dir = "../../testdata/npy"
	tests := []struct{ in, pattern, want string }{
		{"c8_fortran.npy", "-1", "c8_fortran_flat.npy"},
		{"struct.npy", "3,2", "struct_3x2.npy"},
	}
	for _, tt := range tests {
		in, err := os.ReadFile(filepath.Join(dir, tt.in))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := os.ReadFile(filepath.Join(dir, tt.want))
		out := filepath.Join(t.TempDir(), "out.npy")
		code, _, stderr := cli("", "apply", "--special-zero=false", "--pattern", tt.pattern, filepath.Join(dir, tt.in), out)
		got, _ := os.ReadFile(out)
		if code != 0 || !bytes.Equal(got, want) {
			t.Errorf("%s by %s: exit %d %s, output differs from numpy's %s", tt.in, tt.pattern, code, stderr, tt.want)
		}
		code, stdout, stderr := cli(string(in), "apply", "--special-zero=false", "--pattern", tt.pattern, "-", "-")
		if code != 0 || stdout != string(want) {
			t.Errorf("%s by %s through stdin and stdout: exit %d %s, output differs from numpy's %s", tt.in, tt.pattern, code, stderr, tt.want)
		}
	}
	// A .pb output cannot hold what has no element type; stdin must hold exactly the array.
	in, _ := os.ReadFile(filepath.Join(dir, "struct.npy"))
	for _, c := range []struct {
		stdin string
		args  []string
		code  int
		msg   string
	}{
		{string(in), []string{"-", filepath.Join(t.TempDir(), "x.pb")}, 2, "reshape: data-type: -: dtype [('a', '<i4'), ('b', '<U2', (2,)), ('d', '<M8[s]')] has no element type"},
		{string(in) + "x", []string{"-", "-"}, 2, "reshape: syntax: -: offset 360: data after the 168 bytes that shape [2,3] of"},
		{string(in[:300]), []string{"-", "-"}, 2, "reshape: syntax: -: offset 300: the data ends after 108 of the 168 bytes that shape [2,3] of"},
	} {
		code, _, stderr := cli(c.stdin, append([]string{"apply", "--special-zero=false", "--pattern", "6"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("apply %q: exit %d, %q; want %d, %q", c.args, code, stderr, c.code, c.msg)
		}
	}
	if code, _, stderr := cli(string(in), "apply", "--special-zero=false", "--pattern-file", "-", "-", "-"); code != 2 || !strings.Contains(stderr, "stdin holds IN: --pattern-file cannot be - as well") {
		t.Errorf("--pattern-file - with IN -: exit %d, %q", code, stderr)
	}
}
