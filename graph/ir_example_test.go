package graph_test

import (
	"fmt"
	"log"
	"os"

	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/ir"
)

// ExampleFromIR infers an IR network whose Reshape flattens a Parameter x of shape [?,3,224,224]
// by a pattern it computes, Concat(Gather(ShapeOf(x), [0]), [-1]): the batch is the symbol x:0,
// and the pattern cancels it exactly. The Reshape layer's result is found by its layer id.
func ExampleFromIR() {
	f, err := os.Open("testdata/ir/batch_flatten.xml")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	net, err := ir.Decode(f)
	if err != nil {
		log.Fatal(err)
	}
	w, err := ir.OpenWeights("testdata/ir/batch_flatten.bin")
	if err != nil {
		log.Fatal(err)
	}
	defer w.Close()
	g, err := graph.FromIR(net, w)
	if err != nil {
		log.Fatal(err)
	}
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range res.Nodes {
		if id, ok := graph.IRLayerID(r.Node); ok && r.Node.Op == "Reshape" {
			l, _ := net.Layer(id)
			fmt.Printf("%s layer %s (%s): %v, declared %v\n", l.Type, id, l.Name, r.Outputs[0].Shape, l.Outputs[0].Shape)
		}
	}
	// Output:
	// Reshape layer 7 (flatten): [x:0,150528], declared [?,150528]
}
