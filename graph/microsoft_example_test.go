package graph_test

import (
	"fmt"
	"log"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/graph"
)

// ExampleInfer_multiHeadAttention infers onnxruntime's com.microsoft MultiHeadAttention over a KV
// cache, as a transformer optimizer writes it: 8 heads split the hidden size 512 into heads of 64,
// and the present caches extend the past's P positions by the S new tokens.
func ExampleInfer_multiHeadAttention() {
	input := func(name string, dims ...graph.DeclDim) graph.Input {
		return graph.Input{Name: name, Decl: graph.Decl{Type: element.F32, Rank: len(dims), Dims: dims}}
	}
	b, s, p := graph.NamedDim("B"), graph.NamedDim("S"), graph.NamedDim("P")
	hidden, heads, head := graph.StaticDim(512), graph.StaticDim(8), graph.StaticDim(64)
	g := &graph.Graph{
		Inputs: []graph.Input{input("query", b, s, hidden), input("key", b, s, hidden), input("value", b, s, hidden),
			input("past_key", b, heads, p, head), input("past_value", b, heads, p, head)},
		Nodes: []graph.Node{{Op: "MultiHeadAttention", Domain: "com.microsoft", Version: 1,
			Inputs:  []string{"query", "key", "value", "", "", "", "past_key", "past_value"},
			Outputs: []string{"output", "present_key", "present_value"},
			Attrs:   []graph.Attr{{Name: "num_heads", Kind: graph.AttrInt, Int: 8}}}},
		Consts:   map[string]*graph.Const{},
		Declared: map[string]graph.Decl{},
	}
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range []string{"output", "present_key", "present_value"} {
		fmt.Println(name, res.Tensor(name).Shape)
	}
	// Output:
	// output [B,S,512]
	// present_key [B,8,S+P,64]
	// present_value [B,8,S+P,64]
}
