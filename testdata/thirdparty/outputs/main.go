// Outputs evaluates the shapes of a model's outputs at a binding of its symbols, B=2 and T=7.
package main

import (
	"fmt"
	"log"
	"os"

	"github.com/reshape-go/reshape/graph"
)

var binding = map[string]int64{"B": 2, "T": 7}

func main() {
	g, err := graph.Open(os.Args[1], graph.OpenOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	res, err := graph.Infer(g, graph.Options{})
	if err == nil {
		err = res.Check(binding) // the binding meets the conditions the model's nodes impose
	}
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range g.Outputs {
		dims, err := res.Tensor(name).Shape.Eval(binding)
		if err != nil {
			log.Fatal(err) // a symbol the binding leaves out, or a dim the model gives no name
		}
		fmt.Println(name, res.Tensor(name).Type, dims)
	}
}
