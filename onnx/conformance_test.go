package onnx_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/npy"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// conformanceCases returns the directories of the ONNX backend test cases of Reshape in
// ../shared/conformance/onnx (testenv.Shared: a skip or a failure when it is missing).
func conformanceCases(t testing.TB) []string {
	dir := testenv.Shared(t, "conformance/onnx")
	dirs, _ := filepath.Glob(filepath.Join(dir, "test_reshape_*"))
	if len(dirs) == 0 {
		t.Fatalf("no ONNX backend test case in %s", dir)
	}
	return dirs
}

// TestConformance decodes the model and the data sets of each ONNX backend test of Reshape, compares
// the tensors with the .npy files beside them, re-encodes them byte for byte, and checks that the
// project's ONNX Reshape gives the expected output shape from what was decoded.
func TestConformance(t *testing.T) {
	dirs := conformanceCases(t)
	if len(dirs) != 10 {
		t.Errorf("%d test cases in ../shared/conformance/onnx, want 10", len(dirs))
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, "model.onnx"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := onnx.DecodeModel(b)
			if err != nil {
				t.Fatalf("DecodeModel: %v", err)
			}
			if m.IRVersion < 3 {
				t.Errorf("IRVersion = %d", m.IRVersion)
			}
			if v, ok := m.Opset(""); !ok || v < 14 {
				t.Errorf("Opset(\"\") = %d, %v; want 14 or later", v, ok)
			}
			if v2, ok := m.Opset("ai.onnx"); !ok || v2 != must(m.Opset("")) {
				t.Errorf("Opset(\"ai.onnx\") = %d, %v; want the default domain's", v2, ok)
			}
			g := &m.Graph
			if g.Name != name {
				t.Errorf("graph name %q, want %q", g.Name, name)
			}
			if len(g.Nodes) != 1 {
				t.Fatalf("%d nodes, want 1", len(g.Nodes))
			}
			n := &g.Nodes[0]
			if n.OpType != "Reshape" || n.Domain != "" || !slices.Equal(n.Inputs, []string{"data", "shape"}) || !slices.Equal(n.Outputs, []string{"reshaped"}) {
				t.Errorf("node %+v, want Reshape(data, shape) -> reshaped", n)
			}
			allowzero, ok := n.Attr("allowzero")
			if want := name == "test_reshape_allowzero_reordered"; ok != want {
				t.Errorf("allowzero present: %v, want %v", ok, want)
			}
			if ok && (allowzero.Type != onnx.AttrInt || allowzero.I != 1) {
				t.Errorf("allowzero = %+v, want INT 1", allowzero)
			}

			set := filepath.Join(dir, "test_data_set_0")
			data := checkTensorFile(t, filepath.Join(set, "input_0.pb"), "data")
			pattern := checkTensorFile(t, filepath.Join(set, "input_1.pb"), "shape")
			out := checkTensorFile(t, filepath.Join(set, "output_0.pb"), "reshaped")

			// The value infos agree with the data.
			for _, c := range []struct {
				name string
				dt   onnx.DataType
				v    *onnx.Tensor
			}{{"data", onnx.Float, data}, {"shape", onnx.Int64, pattern}, {"reshaped", onnx.Float, out}} {
				vi, ok := g.ValueInfoOf(c.name)
				if !ok {
					t.Errorf("no value info for %q", c.name)
					continue
				}
				if vi.ElemType != c.dt || !vi.Shape.Equal(shape.OfInts(c.v.Dims...)) {
					t.Errorf("value info %q: %v %v, want %v %v", c.name, vi.ElemType, vi.Shape, c.dt, shape.OfInts(c.v.Dims...))
				}
			}

			// The project's ONNX Reshape gives the output shape.
			p, err := pattern.Ints()
			if err != nil {
				t.Fatal(err)
			}
			opt := reshape.Options{Dialect: reshape.ONNX, AllowZero: allowzero != nil && allowzero.I != 0}
			got, err := reshape.Infer(data.Dims, p, opt)
			if err != nil || !slices.Equal(got, out.Dims) {
				t.Errorf("Infer(%v, %v) = %v, %v; want %v", data.Dims, p, got, err, out.Dims)
			}
		})
	}
}

// checkTensorFile decodes the TensorProto file path, compares its values with the .npy file beside
// it, and checks that EncodeTensor writes the file again byte for byte.
func checkTensorFile(t *testing.T, path, name string) *onnx.Tensor {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := onnx.DecodeTensor(b)
	if err != nil {
		t.Fatalf("%s: DecodeTensor: %v", path, err)
	}
	if pt.Name != name {
		t.Errorf("%s: name %q, want %q", path, pt.Name, name)
	}
	got, err := pt.Tensor()
	if err != nil {
		t.Fatalf("%s: Tensor: %v", path, err)
	}
	want, _, err := npy.ReadFile(path[:len(path)-len(".pb")] + ".npy")
	if err != nil {
		t.Fatal(err)
	}
	if got.Type() != want.Type() || !slices.Equal(got.Shape(), want.Shape()) || !bytes.Equal(denseBytes(got), denseBytes(want)) {
		t.Errorf("%s: %v%v, want the .npy's %v%v (or the values differ)", path, got.Type(), got.Shape(), want.Type(), want.Shape())
	}
	again, err := onnx.EncodeTensor(want, name)
	if err != nil || !bytes.Equal(again, b) {
		t.Errorf("%s: EncodeTensor of the .npy's array = % x, %v;\nwant the file's % x", path, again, err, b)
	}
	return pt
}

// denseBytes returns the elements of t, dense, in row-major order.
func denseBytes(t tensor.Tensor) []byte {
	b, _ := t.Contiguous().Bytes()
	return b
}

func must[T any](v T, _ bool) T { return v }
