package graph

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// model builds an ONNX model in Go for the tests: hostile graphs, fuzz seeds, benchmarks.
type model struct{ m onnx.Model }

// newModel returns an empty model importing opset of ONNX's default domain.
func newModel(opset int64) *model {
	return &model{onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: opset}}}}
}

// valueInfo returns a value info of type dt: each dim an int (static), a string (a dim_param) or
// nil (an unnamed dynamic dim); no dims at all with rank -1 gives no shape.
func valueInfo(name string, dt onnx.DataType, dims ...any) onnx.ValueInfo {
	vi := onnx.ValueInfo{Name: name, ElemType: dt}
	if len(dims) == 1 && dims[0] == -1 {
		vi.Shape = shape.DynamicRank()
		return vi
	}
	vi.Shape = shape.Shape{Dims: make([]shape.Dim, len(dims))}
	named := false
	params := make([]string, len(dims))
	for i, d := range dims {
		switch d := d.(type) {
		case int:
			vi.Shape.Dims[i] = shape.Static(int64(d))
		case int64:
			vi.Shape.Dims[i] = shape.Static(d)
		case string:
			vi.Shape.Dims[i] = shape.Dynamic
			params[i], named = d, true
		default:
			vi.Shape.Dims[i] = shape.Dynamic
		}
	}
	if named {
		vi.DimParams = params
	}
	return vi
}

// input adds a float graph input.
func (b *model) input(name string, dims ...any) *model {
	b.m.Graph.Inputs = append(b.m.Graph.Inputs, valueInfo(name, onnx.Float, dims...))
	return b
}

// typedInput adds a graph input of type dt.
func (b *model) typedInput(name string, dt onnx.DataType, dims ...any) *model {
	b.m.Graph.Inputs = append(b.m.Graph.Inputs, valueInfo(name, dt, dims...))
	return b
}

// ints adds an int64 initializer of shape dims (a 1-D tensor of v when dims is nil).
func (b *model) ints(name string, dims []int64, v ...int64) *model {
	b.m.Graph.Initializers = append(b.m.Graph.Initializers, intTensor(name, dims, v...))
	return b
}

// intTensor returns an int64 TensorProto of shape dims (1-D when dims is nil).
func intTensor(name string, dims []int64, v ...int64) onnx.Tensor {
	if dims == nil {
		dims = []int64{int64(len(v))}
	}
	return protoTensor(name, v, dims...)
}

// protoTensor returns the TensorProto of the values v of shape dims, in raw_data.
func protoTensor[T tensor.Elem](name string, v []T, dims ...int64) onnx.Tensor {
	t, err := tensor.FromSlice(v, dims...)
	if err != nil {
		panic(err)
	}
	pt, err := onnx.NewTensor(name, t)
	if err != nil {
		panic(err)
	}
	return pt
}

// floatTensor returns a FLOAT TensorProto of shape dims, its values 0.5, in raw_data.
func floatTensor(name string, dims ...int64) onnx.Tensor {
	n, _ := shape.Volume(dims)
	v := make([]float32, n)
	for i := range v {
		v[i] = 0.5
	}
	return protoTensor(name, v, dims...)
}

// externalDir holds a model whose pattern is in external data, and the data.
const externalDir = "../testdata/external"

// node adds a node of the default domain.
func (b *model) node(name, op string, in, out []string, attrs ...onnx.Attribute) *model {
	b.m.Graph.Nodes = append(b.m.Graph.Nodes, onnx.Node{Name: name, OpType: op, Inputs: in, Outputs: out, Attrs: attrs})
	return b
}

// output adds graph outputs of no declared type or shape.
func (b *model) output(names ...string) *model {
	for _, n := range names {
		b.m.Graph.Outputs = append(b.m.Graph.Outputs, onnx.ValueInfo{Name: n, Shape: shape.DynamicRank()})
	}
	return b
}

// encode returns the model's ModelProto bytes.
func (b *model) encode() []byte {
	data, err := onnx.EncodeModel(&b.m)
	if err != nil {
		panic(err)
	}
	return data
}

func attrInt(name string, v int64) onnx.Attribute {
	return onnx.Attribute{Name: name, Type: onnx.AttrInt, I: v}
}

func attrInts(name string, v ...int64) onnx.Attribute {
	return onnx.Attribute{Name: name, Type: onnx.AttrInts, Ints: v}
}

func attrFloats(name string, v ...float32) onnx.Attribute {
	return onnx.Attribute{Name: name, Type: onnx.AttrFloats, Floats: v}
}

func attrString(name, v string) onnx.Attribute {
	return onnx.Attribute{Name: name, Type: onnx.AttrString, S: []byte(v)}
}

func attrTensor(name string, t onnx.Tensor) onnx.Attribute {
	return onnx.Attribute{Name: name, Type: onnx.AttrTensor, T: &t}
}

func attrGraph(name string, g onnx.Graph) onnx.Attribute {
	return onnx.Attribute{Name: name, Type: onnx.AttrGraph, G: &g}
}

// decodeGraph decodes model bytes and builds their graph.
func decodeGraph(tb testing.TB, data []byte) *Graph {
	tb.Helper()
	m, err := onnx.DecodeModel(data)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := FromONNX(m, "")
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// TestDecodeAllocs pins the allocations of decoding a model and building its graph, per node: the
// decoder cuts strings and lists from chunks (onnx's TestDecodeAllocs), and FromONNX cuts the nodes'
// attributes and the constants from one slice each; what is left is each constant's Load (956 of
// the 1045 allocations of bert_deep_1x: 296 initializers, 660 Constant nodes) and the maps. 31 per
// node before.
func TestDecodeAllocs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "models", "bert_deep_1x.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	nodes := float64(len(decodeGraph(t, data).Nodes))
	allocs := testing.AllocsPerRun(5, func() { decodeGraph(t, data) })
	if perNode := allocs / nodes; perNode > 0.6 {
		t.Errorf("DecodeModel and FromONNX: %.0f allocations for %.0f nodes, %.2f per node; want at most 0.6", allocs, nodes, perNode)
	}
}

// TestFromONNXImports reads a model of ai.onnx.preview.training only (it need not import the
// default domain), refuses one whose node is of a domain it does not import, and binds the
// dims declared inside an optional(tensor) input.
func TestFromONNXImports(t *testing.T) {
	train := &model{onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Domain: domainTraining, Version: 1}}}}
	train.input("r").typedInput("t", onnx.Int64).input("x", "N", 3).input("g", "N", 3).input("h", "N", 3)
	train.m.Graph.Nodes = []onnx.Node{{Name: "a", OpType: "Adagrad", Domain: domainTraining, Inputs: []string{"r", "t", "x", "g", "h"},
		Outputs: []string{"x1", "h1"}}}
	res, err := Infer(decodeGraph(t, train.output("x1", "h1").encode()), Options{Dims: map[string]int64{"N": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Tensor("h1").Shape.String(); got != "[2,3]" || len(res.Unsupported) != 0 {
		t.Errorf("Adagrad's H_new: %s, unsupported %v", got, res.Unsupported)
	}

	train.node("r", "Relu", []string{"x"}, []string{"y"})
	m, err := onnx.DecodeModel(train.encode())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromONNX(m, ""); !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), `node 1 "r" (Relu) is of the default ONNX domain`) {
		t.Errorf("a Relu without the default domain: %v", err)
	}

	opt := newModel(18)
	in := valueInfo("x", onnx.Float, "N", 4)
	in.Optional = true
	opt.m.Graph.Inputs = []onnx.ValueInfo{in}
	opt.node("h", "OptionalHasElement", []string{"x"}, []string{"has"}).node("e", "OptionalGetElement", []string{"x"}, []string{"e"})
	res, err = Infer(decodeGraph(t, opt.output("has", "e").encode()), Options{Dims: map[string]int64{"N": 3}})
	if err != nil {
		t.Fatal(err)
	}
	if e := res.Tensor("e"); e.Shape.String() != "[3,4]" || e.Optional {
		t.Errorf("the element of an optional [N,4] bound N=3: %v, optional %v", e.Shape, e.Optional)
	}
	if h := res.Tensor("has"); h.Type != element.Boolean || h.Value != nil {
		t.Errorf("OptionalHasElement of an optional input: %v values %v", h.Type, h.Value)
	}
}
