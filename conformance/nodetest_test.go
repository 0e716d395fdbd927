package conformance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/conformance"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/tensor"
)

// writeNodeTest writes an ONNX node test of one Reshape-14 (allowzero 0) in a new directory: data
// and pattern in, want out.
func writeNodeTest(t *testing.T, data tensor.Tensor, pattern []int64, want tensor.Tensor) string {
	t.Helper()
	dir := t.TempDir()
	set := filepath.Join(dir, "test_data_set_0")
	os.Mkdir(set, 0o755)
	m := &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 14}}, Graph: onnx.Graph{
		Nodes: []onnx.Node{{OpType: "Reshape", Inputs: []string{"data", "shape"}, Outputs: []string{"reshaped"}}},
	}}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "model.onnx"), b, 0o644)
	p, _ := tensor.FromSlice(pattern)
	for name, x := range map[string]tensor.Tensor{"input_0.pb": data, "input_1.pb": p, "output_0.pb": want} {
		b, err := onnx.EncodeTensor(x, "")
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(set, name), b, 0o644)
	}
	return dir
}

func TestRunNodeTest(t *testing.T) {
	x, _ := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	flat, _ := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6})
	other, _ := tensor.FromSlice([]float32{1, 2, 3, 4, 5.5, 6}, 3, 2)
	ints, _ := tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 6)
	tests := []struct {
		name    string
		pattern []int64
		want    tensor.Tensor
		err     string // "" when the data set passes
	}{
		{"pass", []int64{-1}, flat, ""},
		{"shape", []int64{-1}, other, "shape [6], want [3,2] (output_0.pb)"},
		{"data", []int64{3, 2}, other, "the data differs from output_0.pb at index [2,0]: 5, want 5.5"},
		{"type", []int64{-1}, ints, "element type f32, want i32 (output_0.pb)"},
		{"reshape error", []int64{4, -1}, flat, "pattern[1] = -1: input volume 6 is not divisible by 4"},
	}
	for _, tt := range tests {
		res, err := conformance.RunNodeTest(writeNodeTest(t, x, tt.pattern, tt.want), conformance.NodeTestOptions{})
		if err != nil || len(res) != 1 || !strings.HasSuffix(res[0].Set, "test_data_set_0") {
			t.Errorf("%s: %v %+v", tt.name, err, res)
			continue
		}
		got := res[0].Mismatch
		if res[0].Err != nil {
			got = res[0].Err.Error()
		}
		if tt.err == "" && !res[0].Pass() || tt.err != "" && (res[0].Pass() || !strings.Contains(got, tt.err)) {
			t.Errorf("%s: %+v, want %q", tt.name, res[0], tt.err)
		}
	}
	// A data set whose file is missing did not run: a file error, whichever file it is.
	for _, missing := range []string{"input_0.pb", "input_1.pb", "output_0.pb"} {
		dir := writeNodeTest(t, x, []int64{-1}, flat)
		os.Remove(filepath.Join(dir, "test_data_set_0", missing))
		res, err := conformance.RunNodeTest(dir, conformance.NodeTestOptions{})
		if err != nil || len(res) != 1 || res[0].Pass() || res[0].Err != nil || !os.IsNotExist(res[0].FileErr) {
			t.Errorf("%s missing: %v %+v, want a file error", missing, err, res)
		}
	}
	if _, err := conformance.RunNodeTest(t.TempDir(), conformance.NodeTestOptions{}); err == nil || !os.IsNotExist(err) {
		t.Errorf("no model.onnx: %v", err)
	}
	dir := writeNodeTest(t, x, []int64{-1}, flat)
	if _, err := conformance.RunNodeTest(dir, conformance.NodeTestOptions{MaxBytes: 10}); errcode.Code(err) != "limit" {
		t.Errorf("a model over the bound: %v", err)
	}
	parent := t.TempDir()
	moved := filepath.Join(parent, "test_reshape_a")
	os.Rename(dir, moved)
	os.Mkdir(filepath.Join(parent, "not_a_test"), 0o755)
	if dirs, err := conformance.NodeTestDirs(parent); err != nil || len(dirs) != 1 || dirs[0] != moved {
		t.Errorf("NodeTestDirs of the parent: %v, %v", dirs, err)
	}
	if dirs, err := conformance.NodeTestDirs(moved); err != nil || len(dirs) != 1 || dirs[0] != moved {
		t.Errorf("NodeTestDirs of a test: %v, %v", dirs, err)
	}
	if _, err := conformance.NodeTestDirs(t.TempDir()); errcode.Code(err) != "syntax" {
		t.Errorf("NodeTestDirs of an empty directory: %v", err)
	}
}

// TestRunNodeTestShared runs the ONNX backend tests of Reshape in ../shared/conformance/onnx.
func TestRunNodeTestShared(t *testing.T) {
	dirs, err := conformance.NodeTestDirs(testenv.Shared(t, "conformance/onnx"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		res, err := conformance.RunNodeTest(d, conformance.NodeTestOptions{})
		if err != nil || len(res) == 0 {
			t.Errorf("%s: %v", d, err)
		}
		for _, r := range res {
			if !r.Pass() {
				t.Errorf("%s: %v %v %s", r.Set, r.FileErr, r.Err, r.Mismatch)
			}
		}
	}
}
