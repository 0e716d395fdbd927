// Constraints prints a model's symbols with their bounds, and the conditions its nodes impose on
// them: its constraints, then its limits (those only sizes of 2^31 or more break).
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
	fmt.Println("symbols:", res.Symbols())
	for _, c := range res.Constraints() {
		fmt.Println(c)
	}
	for _, c := range res.Limits() {
		fmt.Println("limit:", c)
	}
}
