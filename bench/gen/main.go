// Command gen writes the large ONNX models of the benchmarks (package modelgen):
//
//	go run ./bench/gen embedded big.onnx      # 24 MatMuls, 64 MiB FLOAT weights each, embedded: 1.6 GB
//	go run ./bench/gen decoder DIR            # Llama-2-7B-sized decoder, KV cache, 27 GB sparse external data
//	go run ./bench/gen wide wide.onnx         # 100,000 nodes
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/reshape-go/reshape/internal/modelgen"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: gen embedded|decoder|wide PATH")
	}
	switch args[0] {
	case "embedded":
		return modelgen.WriteFile(args[1], func(w io.Writer) error { return modelgen.Embedded(w, 24, 4096) })
	case "decoder":
		path, nodes, err := modelgen.Decoder(args[1], modelgen.Llama7B)
		if err == nil {
			fmt.Printf("%s: %d nodes\n", path, nodes)
		}
		return err
	case "wide":
		return modelgen.WriteFile(args[1], func(w io.Writer) error { return modelgen.Wide(w, 10_000) })
	}
	return fmt.Errorf("unknown model %q: want embedded, decoder or wide", args[0])
}
