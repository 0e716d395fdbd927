package onnx_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// editModel is a model of three nodes: a Constant pattern, a Reshape of x by it, and a Relu; an
// initializer w (its values a pattern that no node reads) and an unknown field kept in the node.
func editModel(t *testing.T) []byte {
	t.Helper()
	c, _ := tensor.FromSlice([]int64{1, 12})
	ct, err := onnx.NewTensor("", c)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := tensor.FromSlice([]float32{1, 2, 3, 4})
	wt, err := onnx.NewTensor("w", w)
	if err != nil {
		t.Fatal(err)
	}
	m := &onnx.Model{
		IRVersion:    8,
		OpsetImports: []onnx.OpsetID{{Version: 14}},
		Graph: onnx.Graph{
			Name: "g",
			Nodes: []onnx.Node{
				{Name: "c", OpType: "Constant", Outputs: []string{"p"}, Attrs: []onnx.Attribute{{Name: "value", Type: onnx.AttrTensor, T: &ct}}},
				{Name: "r", OpType: "Reshape", Inputs: []string{"x", "p"}, Outputs: []string{"y"}, Attrs: []onnx.Attribute{{Name: "allowzero", Type: onnx.AttrInt}}},
				{Name: "relu", OpType: "Relu", Inputs: []string{"y"}, Outputs: []string{"z"}},
			},
			Initializers: []onnx.Tensor{wt},
			Inputs:       []onnx.ValueInfo{{Name: "x", ElemType: onnx.Float, Shape: shape.Of(shape.Dynamic, shape.Static(3), shape.Static(4)), DimParams: []string{"N", "", ""}}},
			Outputs:      []onnx.ValueInfo{{Name: "z", ElemType: onnx.Float, Shape: shape.Of(shape.Static(1), shape.Static(12))}},
			ValueInfo:    []onnx.ValueInfo{{Name: "y", ElemType: onnx.Float, Shape: shape.Of(shape.Static(1), shape.Static(12))}},
		},
	}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestWriteEdited(t *testing.T) {
	b := editModel(t)
	c, _ := tensor.FromSlice([]int64{0, 12})
	ct, _ := onnx.NewTensor("", c)
	newConst := onnx.Node{Name: "r/Constant", OpType: "Constant", Outputs: []string{"r/pattern"}, Attrs: []onnx.Attribute{{Name: "value", Type: onnx.AttrTensor, T: &ct}}}
	tests := []struct {
		name  string
		edit  onnx.GraphEdit
		nodes string // op:name(inputs) of the edited graph's nodes
		inits int
		// pattern is the values of the constant the Reshape reads, shapes the declared shapes of
		// y and z.
		pattern []int64
		shapes  string
	}{
		{"none", onnx.GraphEdit{}, "Constant:c() Reshape:r(x,p) Relu:relu(y)", 1, []int64{1, 12}, "[1,12] [1,12]"},
		{"rewrite", onnx.GraphEdit{
			Insert:             map[int][]onnx.Node{1: {newConst}},
			Inputs:             map[int]map[int]string{1: {1: "r/pattern"}},
			RemoveNodes:        map[int]bool{0: true},
			RemoveInitializers: map[string]bool{"w": true},
			Set: map[string]onnx.ValueInfo{
				"y": {Name: "y", ElemType: onnx.Float, Shape: shape.Of(shape.Dynamic, shape.Static(12)), DimParams: []string{"N", ""}},
				"z": {Name: "z", ElemType: onnx.Float, Shape: shape.Of(shape.Dynamic, shape.Static(12)), DimParams: []string{"N", ""}},
			},
		}, "Constant:r/Constant() Reshape:r(x,r/pattern) Relu:relu(y)", 0, []int64{0, 12}, "[?,12] [?,12]"},
		{"insert first", onnx.GraphEdit{Insert: map[int][]onnx.Node{0: {newConst}}},
			"Constant:r/Constant() Constant:c() Reshape:r(x,p) Relu:relu(y)", 1, []int64{1, 12}, "[1,12] [1,12]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			n, err := onnx.WriteEdited(&out, b, &tt.edit)
			if err != nil {
				t.Fatal(err)
			}
			if n != int64(out.Len()) {
				t.Errorf("wrote %d bytes, says %d", out.Len(), n)
			}
			if tt.name == "none" && !bytes.Equal(out.Bytes(), b) {
				t.Errorf("an empty edit changed the model: %d bytes, %d", out.Len(), len(b))
			}
			m, err := onnx.DecodeModel(out.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			var nodes []string
			var pattern string
			for _, nd := range m.Graph.Nodes {
				nodes = append(nodes, nd.OpType+":"+nd.Name+"("+strings.Join(nd.Inputs, ",")+")")
				if nd.OpType == "Reshape" {
					pattern = nd.Inputs[1]
				}
			}
			if got := strings.Join(nodes, " "); got != tt.nodes {
				t.Errorf("nodes %s, want %s", got, tt.nodes)
			}
			if len(m.Graph.Initializers) != tt.inits {
				t.Errorf("%d initializers, want %d", len(m.Graph.Initializers), tt.inits)
			}
			for _, nd := range m.Graph.Nodes {
				if nd.Outputs[0] == pattern {
					if ints, err := nd.Attrs[0].T.Ints(); err != nil || !reflect.DeepEqual(ints, tt.pattern) {
						t.Errorf("pattern %v, %v; want %v", ints, err, tt.pattern)
					}
				}
			}
			if nd := m.Graph.Nodes[len(m.Graph.Nodes)-2]; len(nd.Attrs) != 1 || nd.Attrs[0].Name != "allowzero" {
				t.Errorf("the Reshape's attributes %+v", nd.Attrs)
			}
			y, _ := m.Graph.ValueInfoOf("y")
			z, _ := m.Graph.ValueInfoOf("z")
			if got := y.Shape.String() + " " + z.Shape.String(); got != tt.shapes {
				t.Errorf("declared %s, want %s", got, tt.shapes)
			}
			if tt.name == "rewrite" && (!reflect.DeepEqual(y.DimParams, []string{"N", ""}) || m.Graph.Name != "g") {
				t.Errorf("y's dim_params %q, graph name %q", y.DimParams, m.Graph.Name)
			}
		})
	}
}

// TestWriteEditedCopies: the bytes of what an edit does not touch are copied as they are, weights
// included, from a mapped file.
func TestWriteEditedCopies(t *testing.T) {
	b := editModel(t)
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := onnx.Open(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var out bytes.Buffer
	if _, err := onnx.WriteEdited(&out, m.Bytes(), &onnx.GraphEdit{Inputs: map[int]map[int]string{2: {0: "y2"}}}); err != nil {
		t.Fatal(err)
	}
	w, _ := tensor.FromSlice([]float32{1, 2, 3, 4})
	raw, _ := onnx.EncodeTensor(w, "w")
	if !bytes.Contains(out.Bytes(), raw) {
		t.Error("the initializer's bytes are not in the edited model")
	}
	if got, want := out.Len(), len(b)+1; got != want {
		t.Errorf("%d bytes, want %d (one byte more for the renamed input)", got, want)
	}
}

func TestWriteEditedErrors(t *testing.T) {
	b := editModel(t)
	noGraph, _ := onnx.EncodeModel(&onnx.Model{IRVersion: 8})
	noGraph = noGraph[:2] // ir_version only
	tests := []struct {
		name string
		b    []byte
		edit onnx.GraphEdit
		want string
	}{
		{"node past the end", b, onnx.GraphEdit{Inputs: map[int]map[int]string{3: {0: "q"}}}, "the edit names node 3, of a graph of 3 nodes"},
		{"negative node", b, onnx.GraphEdit{Insert: map[int][]onnx.Node{-1: nil}}, "names node -1"},
		{"remove past the end", b, onnx.GraphEdit{RemoveNodes: map[int]bool{9: true}}, "names node 9"},
		{"input past the end", b, onnx.GraphEdit{Inputs: map[int]map[int]string{2: {1: "q"}}}, "GraphProto.node[2]: no input 1 to rename: the node has 1"},
		// Of several indices in error, the least, on every run.
		{"nodes past the end", b, onnx.GraphEdit{Inputs: map[int]map[int]string{7: {0: "q"}, 5: {0: "q"}, 9: {0: "q"}, 6: {0: "q"}}}, "the edit names node 5, of a graph of 3 nodes"},
		{"inputs past the end", b, onnx.GraphEdit{Inputs: map[int]map[int]string{2: {3: "q", 1: "r", 4: "s", 2: "t"}}}, "GraphProto.node[2]: no input 1 to rename: the node has 1"},
		{"no graph", noGraph, onnx.GraphEdit{Insert: map[int][]onnx.Node{0: nil}}, "names node 0, of a graph of 0 nodes"},
		{"truncated", b[:len(b)-3], onnx.GraphEdit{}, "truncated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := onnx.WriteEdited(&out, tt.b, &tt.edit)
			if !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one of code syntax with %q", err, tt.want)
			}
		})
	}
}

// failWriter fails every write after n bytes.
type failWriter struct{ n int }

var errFull = errors.New("disk full")

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errFull
	}
	w.n -= len(p)
	return len(p), nil
}

func TestWriteEditedWriterError(t *testing.T) {
	b := editModel(t)
	for _, at := range []int{0, 5, len(b) / 2, len(b) - 1} {
		n, err := onnx.WriteEdited(&failWriter{n: at}, b, &onnx.GraphEdit{})
		if !errors.Is(err, errFull) || n != int64(at) {
			t.Errorf("a writer full at %d: %d, %v", at, n, err)
		}
	}
}
