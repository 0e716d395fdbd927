package onnx_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reshape-go/reshape/onnx"
)

// BenchmarkDecodeModel decodes deep BERT-like exports (testdata/models/bert_deep_*.onnx, 2269, 4501
// and 8965 nodes), the decode half of graph's BenchmarkGraphShapes, and reports the time and the
// allocations per node, which must not grow with the node count.
func BenchmarkDecodeModel(b *testing.B) {
	for _, name := range []string{"bert_deep_1x", "bert_deep_2x", "bert_deep_4x"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "models", name+".onnx"))
		if err != nil {
			b.Fatal(err)
		}
		m, err := onnx.DecodeModel(data)
		if err != nil {
			b.Fatal(err)
		}
		nodes := float64(len(m.Graph.Nodes))
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := onnx.DecodeModel(data); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/nodes, "ns/node")
			b.ReportMetric(testing.AllocsPerRun(1, func() { onnx.DecodeModel(data) })/nodes, "allocs/node")
		})
	}
}
