package graph_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/tensor"
)

// Open a model, infer it, and print every tensor's element type and shape, in order.
func ExampleOpen() {
	g, err := graph.Open("../testdata/models/idioms.onnx", graph.OpenOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for path, t := range res.Tensors() {
		fmt.Println(path, t.Type, t.Shape)
	}
	fmt.Println(res.Symbols())
	// Output:
	// x f32 [N,3,H,W]
	// shape i64 [4]
	// n i64 []
	// n1 i64 [1]
	// pattern i64 [2]
	// flat f32 [N,3*H*W]
	// rows f32 [N,3,(H+1)//2,W]
	// rows_shape i64 [4]
	// head i64 [2]
	// pattern2 i64 [3]
	// rows_flat f32 [N,3,W*((H+1)//2)]
	// [N in 1.. H in 1.. W in 1..]
}

// Infer once, then per request: bind the symbols, check the model's constraints at the binding,
// and allocate the output buffers, without inferring again.
func ExampleResult_Tensor() {
	g, err := graph.Open("../testdata/models/bert_tiny.onnx", graph.OpenOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, binding := range []map[string]int64{{"B": 2, "T": 7}, {"B": 8, "T": 64}, {"B": 8, "T": 128}, {"B": 8}} {
		for _, name := range g.Outputs {
			t := res.Tensor(name)
			dims, err := res.Eval(name, binding) // checks the binding against the conditions first
			if err != nil {
				fmt.Println(binding, name, err)
				continue
			}
			n := int64(1)
			for _, d := range dims {
				n *= d
			}
			buf := make([]float32, n)
			bytes, _ := t.Type.Size(n)
			fmt.Println(binding, name, t.Shape, dims, len(buf), "elements", bytes, "bytes")
		}
	}
	// Output:
	// map[B:2 T:7] logits [B,3] [2 3] 6 elements 24 bytes
	// map[B:2 T:7] hidden [B*T,16] [14 16] 224 elements 896 bytes
	// map[B:8 T:64] logits [B,3] [8 3] 24 elements 96 bytes
	// map[B:8 T:64] hidden [B*T,16] [512 16] 8192 elements 32768 bytes
	// map[B:8 T:128] logits /pos/Gather (Gather): the indices, 0 to T-1, within axis 0 of size 64: T <= 64 does not hold at T=128
	// map[B:8 T:128] hidden /pos/Gather (Gather): the indices, 0 to T-1, within axis 0 of size 64: T <= 64 does not hold at T=128
	// map[B:8] logits symbol T has no value
	// map[B:8] hidden symbol T has no value
}

// The conditions a model's nodes impose on its symbols, and a binding that breaks one.
func ExampleResult_Constraints() {
	g, err := graph.Open("../testdata/models/flat_matmul.onnx", graph.OpenOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range res.Constraints() {
		fmt.Println(c)
	}
	fmt.Println(res.Check(map[string]int64{"N": 1}))
	fmt.Println(res.Check(map[string]int64{"N": 2}))
	// Output:
	// N == 1 (/MatMul (MatMul): the inner dims (A's last, B's second to last))
	// <nil>
	// /MatMul (MatMul): the inner dims (A's last, B's second to last): N == 1 does not hold at N=2
}

// A model whose conditions no binding satisfies: a volume of W elements viewed [3,W//3,3] needs
// W == 9*(W//3), which minimized is 0 == 1. It is the error of its node, not a condition, and no
// symbol has a valid size.
func ExampleResult_Never() {
	g, err := graph.Open("../testdata/models/never_holds.onnx", graph.OpenOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	err = res.Never()
	fmt.Println(err)
	fmt.Println(errors.Is(err, errcode.ErrInvalidShape))
	fmt.Println(res.Constraints())
	fmt.Println(res.Sizes())
	// Output:
	// windows (Reshape): the volume: [N,1,1,W] to [N,1,1,3,W//3,3]: W == 9*(W//3) never holds
	// true
	// [W >= 3 (windows (Reshape): pattern[4] = W//3 not 0: past the input's rank onnxruntime refuses a 0)]
	// N, W: none
}

// Reshape data as a model's Reshape node does: its pattern, which the model computes from the
// shape of its input, evaluated at a binding (Result.EvalValue), and the node's options (its
// dialect and allowzero) as the Reshape rule reads them (Result.Reshape).
func Example_reshapeByPattern() {
	g, err := graph.Open("../testdata/models/idioms.onnx", graph.OpenOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	binding := map[string]int64{"N": 2, "H": 1, "W": 2}
	for i := range res.Nodes {
		n := &res.Nodes[i]
		f, ok := res.Reshape(n)
		if !ok || f.Err != nil {
			continue
		}
		dims, err := res.Eval(n.Node.Inputs[0], binding)
		if err != nil {
			log.Fatal(err)
		}
		p, err := res.EvalValue(n.Node.Inputs[1], binding)
		if err != nil {
			log.Fatal(err)
		}
		x, err := tensor.New(n.Inputs[0].Type, dims...)
		if err != nil {
			log.Fatal(err)
		}
		y, how, err := reshape.Apply(x, reshape.IntPattern(p...), f.Options)
		fmt.Println(n.Path, f.Pattern, "allowzero:", f.Options.AllowZero, dims, "->", y.Shape(), "view:", how.View, err)
	}
	// Output:
	// flatten [N -1] allowzero: false [2 3 1 2] -> [2 6] view: true <nil>
	// flatten_rows [N 3 -1] allowzero: false [2 3 1 2] -> [2 3 2] view: true <nil>
}

// A Reshape's pattern at bindings: the values the model computes from its input's shape, a binding
// the model refuses, and one that leaves out a symbol.
func ExampleResult_EvalValue() {
	g, err := graph.Open("../testdata/models/bert_tiny.onnx", graph.OpenOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	i, _ := res.NodeIndex("/layers.0/att/Reshape")
	n := &res.Nodes[i]
	f, _ := res.Reshape(n)
	pattern := n.Node.Inputs[1]
	fmt.Println(pattern, f.Pattern, f.Source, "allowzero:", f.Options.AllowZero)
	for _, binding := range []map[string]int64{{"B": 2, "T": 7}, {"B": 8, "T": 128}, {"B": 8}} {
		fmt.Println(res.EvalValue(pattern, binding))
	}
	// Output:
	// /layers.0/att/Concat_output_0 [B T 2 8] computed allowzero: false
	// [2 7 2 8] <nil>
	// [] /pos/Gather (Gather): the indices, 0 to T-1, within axis 0 of size 64: T <= 64 does not hold at T=128
	// [] symbol T has no value
}
