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
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range g.Outputs {
		// Checked: a binding that breaks a condition of the model is an error naming it and its
		// node; then a symbol the binding leaves out, or a dim the model gives no name.
		dims, err := res.Eval(name, binding)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(name, res.Tensor(name).Type, dims)
	}
}
