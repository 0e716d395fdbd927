package onnx_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/reshape-go/reshape/onnx"
)

// TestOpenLazy opens models as Open does where a file cannot be mapped (Windows, a browser's
// WebAssembly): read on demand, the structure first. Every model of testdata/models decodes to what
// the mapped file gives, its constants hold the same values, and its bytes are the file's; of a
// model of 4 MiB of weights, decoding reads the structure and the blocks it lies in, not the
// weights.
func TestOpenLazy(t *testing.T) {
	paths, err := filepath.Glob("../testdata/models/*.onnx")
	if err != nil || len(paths) < 20 {
		t.Fatalf("testdata/models: %d models, %v", len(paths), err)
	}
	paths = append(paths, writeTemp(t, weightsModel(1024)))
	for _, path := range paths {
		mapped, err := onnx.Open(path, 0)
		if err != nil {
			t.Fatal(err)
		}
		lazy, err := onnx.OpenLazy(path, 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !reflect.DeepEqual(graphText(mapped), graphText(lazy)) {
			t.Errorf("%s: the lazy model's graph differs from the mapped one's", path)
		}
		for i := range mapped.Graph.Initializers {
			a, b := &mapped.Graph.Initializers[i], &lazy.Graph.Initializers[i]
			ta, errA := a.Tensor()
			tb, errB := b.Tensor()
			if (errA == nil) != (errB == nil) {
				t.Fatalf("%s: initializer %s: %v, lazy %v", path, a.Name, errA, errB)
			}
			if errA != nil {
				continue
			}
			ba, _ := ta.Contiguous().Bytes()
			bb, _ := tb.Contiguous().Bytes()
			if !bytes.Equal(ba, bb) {
				t.Errorf("%s: initializer %s: the values differ", path, a.Name)
			}
		}
		file, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(lazy.Bytes(), file) {
			t.Errorf("%s: Bytes of the lazy model are not the file's", path)
		}
		mapped.Close()
		if err := lazy.Close(); err != nil {
			t.Errorf("%s: Close: %v", path, err)
		}
	}
}

// TestOpenLazyReads counts what a lazy model reads of a file of 4 MiB of weights: decoding reads
// what it reads of a mapping, and the pattern's values when asked.
func TestOpenLazyReads(t *testing.T) {
	b := weightsModel(1024)
	path := writeTemp(t, b)
	m, err := onnx.OpenLazy(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	structure := int64(len(b) - 4<<20 - 24 - len("reshape-test"))
	if got := m.BytesRead(); got != structure {
		t.Errorf("%d bytes read by decoding; want the %d of the structure", got, structure)
	}
	// The structure lies in the first block and the last (after the weights): 128 KiB of the file.
	if got := onnx.FileRead(m); got > 128<<10 {
		t.Errorf("%d bytes of the file read by decoding; want the two blocks of 64 KiB the structure lies in", got)
	}
	shapeT, _ := m.Graph.Initializer("shape")
	if p, err := shapeT.Ints(); err != nil || !slices.Equal(p, []int64{0, -1, 4}) {
		t.Errorf("the pattern: %v, %v", p, err)
	}
	if got := onnx.FileRead(m); got > 128<<10 {
		t.Errorf("%d bytes of the file read after the pattern; want no more", got)
	}
}

// graphText describes a model's graph: its nodes, inputs, outputs and initializers' names, types and
// dims, for comparing two decodings.
func graphText(m *onnx.Model) []string {
	var out []string
	for _, n := range m.Graph.Nodes {
		out = append(out, n.OpType+" "+n.Name+" "+filepath.Join(n.Inputs...)+" -> "+filepath.Join(n.Outputs...))
	}
	for _, t := range m.Graph.Initializers {
		out = append(out, t.Name+" "+t.DataType.String())
	}
	for _, v := range m.Graph.Inputs {
		out = append(out, "input "+v.Name)
	}
	return out
}
