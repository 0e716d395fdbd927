package check_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/errcode"
)

// oneDNNConv is a oneDNN Graph of a Convolution whose src has an unknown batch, then a ReLU that
// reads the convolution's output as the file declares it.
const oneDNNConv = `{"graph": [
  {"id": 0, "name": "conv", "kind": "Convolution", "attrs": {
     "strides": {"type": "s64[]", "value": [2, 2]}, "pads_begin": {"type": "s64[]", "value": [0, 0]},
     "pads_end": {"type": "s64[]", "value": [0, 0]}, "dilations": {"type": "s64[]", "value": [1, 1]},
     "data_format": {"type": "string", "value": "NCX"}, "weights_format": {"type": "string", "value": "OIX"}},
   "inputs": [{"id": 0, "dtype": "f32", "shape": [-1, 32, 28, 28]}, {"id": 1, "dtype": "f32", "shape": [128, 32, 2, 2]}],
   "outputs": [{"id": 2, "dtype": "f32", "shape": [-1, 128, 14, 14]}]},
  {"id": 1, "name": "relu", "kind": "ReLU", "attrs": {},
   "inputs": [{"id": 2, "dtype": "f32", "shape": [-1, 128, 14, 14]}], "outputs": [{"id": 3, "dtype": "f32", "shape": [-1, 128, 14, 14]}]}
]}`

// writeOneDNN writes text to a .json file of a temporary directory and returns its path.
func writeOneDNN(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "g.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOneDNNBindings checks a oneDNN Graph with the bindings of its inputs: by id, the batch size of
// an unknown leading dim, and a batch size that binds nothing, which is an error.
func TestOneDNNBindings(t *testing.T) {
	path := writeOneDNN(t, oneDNNConv)
	for _, tc := range []struct {
		name  string
		opt   check.Options
		shape string // tensor 3's inferred shape
	}{
		{"declared", check.Options{}, "[lt0:0,128,14,14]"},
		{"input by id", check.Options{Inputs: map[string]string{"0": "[4,32,28,28]"}}, "[4,128,14,14]"},
		{"batch size", check.Options{BatchSize: 8}, "[8,128,14,14]"},
		{"dim", check.Options{Dims: map[string]int64{"lt0:0": 2}}, "[2,128,14,14]"},
	} {
		s, err := check.InferShapes(path, tc.opt)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		for _, tensor := range s.Tensors {
			if tensor.Name == "3" && (tensor.Shape.String() != tc.shape || tensor.Verdict.IsError() || tensor.Verdict == check.Mismatch) {
				t.Errorf("%s: tensor 3 %s, %s; want %s", tc.name, tensor.Shape, tensor.Verdict, tc.shape)
			}
		}
		s.Close()
	}
	static := writeOneDNN(t, strings.ReplaceAll(oneDNNConv, "-1, ", "2, "))
	if _, err := check.File(static, check.Options{BatchSize: 8}); !errors.Is(err, errcode.ErrBinding) || !strings.Contains(err.Error(), "binds no dim") {
		t.Errorf("a batch size on known dims: %v, want a binding error", err)
	}
	rep, err := check.File(static, check.Options{BatchSize: 8, Dims: map[string]int64{"N": 2}, Inputs: map[string]string{"x": "[2]"}, SharedBindings: true})
	if err != nil || strings.Join(rep.NoBatch, ",") != "0,1" || strings.Join(rep.UnusedDims, ",") != "N" || strings.Join(rep.UnusedInputs, ",") != "x" {
		t.Errorf("shared bindings on known dims: %+v, %v; want the batch unused by 0 and 1, N and x unused", rep.Bindings, err)
	}
}

// TestOneDNNDeclarations checks that an op whose declared output the rules do not give is a
// mismatch naming the logical tensor, and a tensor two ops declare differently an error naming
// both, in check's rows and in shapes' tensors.
func TestOneDNNDeclarations(t *testing.T) {
	bad := strings.Replace(oneDNNConv, `"outputs": [{"id": 2, "dtype": "f32", "shape": [-1, 128, 14, 14]}]`,
		`"outputs": [{"id": 2, "dtype": "f32", "shape": [-1, 128, 13, 14]}]`, 1)
	rep, err := check.File(writeOneDNN(t, bad), check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rep.Rows {
		got = append(got, r.ID+" "+string(r.Verdict)+": "+r.Message)
	}
	want := []string{
		"0 mismatch: logical tensor 2: the model declares [?,128,13,14], the rules give [lt0:0,128,14,14]",
		`1 invalid-shape: logical tensor 2 is declared [?,128,13,14] where Convolution 0 ("conv") outputs it, and [?,128,14,14] where ReLU 1 ("relu") reads it as input 0`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	s, err := check.InferShapes(writeOneDNN(t, bad), check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tensor := range s.Tensors {
		want := check.OK
		switch tensor.Name {
		case "0", "1":
			want = check.Inferred
		case "2":
			want = "invalid-shape"
		}
		if tensor.Verdict != want {
			t.Errorf("tensor %s: %s (%s), want %s", tensor.Name, tensor.Verdict, tensor.Message, want)
		}
	}
}
