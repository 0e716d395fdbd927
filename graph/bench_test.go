package graph

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkGraphShapes infers the shapes of every tensor of a deep BERT-like export at 1x, 2x and 4x
// its depth (testdata/models/bert_deep_*.onnx, 2269, 4501 and 8965 nodes; bench/truth/gen_torch.py
// makes them), and reports the time per node, which must not grow with the node count. The infer
// runs take the graph as FromONNX built it; the decode+infer runs start from the file's bytes.
func BenchmarkGraphShapes(b *testing.B) {
	for _, name := range []string{"bert_deep_1x", "bert_deep_2x", "bert_deep_4x"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "models", name+".onnx"))
		if err != nil {
			b.Fatal(err)
		}
		g := decodeGraph(b, data)
		b.Run("infer/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Infer(g, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(g.Nodes)), "ns/node")
		})
		b.Run("decode+infer/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Infer(decodeGraph(b, data), Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(g.Nodes)), "ns/node")
		})
	}
}

// BenchmarkChain infers the chains of TestChainLinear at 10^3, 10^4 and 10^5 nodes, and reports the
// time per node, which must not grow with the length.
func BenchmarkChain(b *testing.B) {
	for _, c := range chains {
		for _, n := range []int{1_000, 10_000, 100_000} {
			g := decodeGraph(b, c.build(n).encode())
			b.Run(c.name+"/"+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Infer(g, Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(g.Nodes)), "ns/node")
			})
		}
	}
}
