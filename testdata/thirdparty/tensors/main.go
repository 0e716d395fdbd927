// Tensors prints the element type and shape of every tensor of a model, subgraphs included.
package main

import (
	"fmt"
	"log"
	"os"

	"github.com/reshape-go/reshape/graph"
)

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
	for path, t := range res.Tensors() {
		fmt.Println(path, t.Type, t.Shape)
	}
}
