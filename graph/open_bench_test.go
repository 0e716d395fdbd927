package graph_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/internal/modelgen"
)

// BenchmarkOpen opens and infers models of large weights through Open, which maps the file and
// reads only the bytes the shapes need: 8 MatMuls of 64 MiB of embedded weights (a 537 MB file),
// and an LLM decoder of 4 layers at Llama-2-7B's sizes, whose 4.3 GB of weights are external data
// (a sparse file). The time and the memory allocated follow the graph, not the file: file-MB
// reports the size of the files, which are never read whole.
func BenchmarkOpen(b *testing.B) {
	dir := b.TempDir()
	embedded := filepath.Join(dir, "embedded.onnx")
	err := modelgen.WriteFile(embedded, func(w io.Writer) error { return modelgen.Embedded(w, 8, 4096) })
	if errors.Is(err, syscall.ENOSPC) {
		b.Skipf("no room for the 537 MB model in %s: %v", dir, err)
	}
	if err != nil {
		b.Fatal(err)
	}
	cfg := modelgen.Llama7B
	cfg.Layers = 4
	decoder, _, err := modelgen.Decoder(dir, cfg)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, path, data string }{{"embedded", embedded, ""}, {"decoder", decoder, decoder + ".data"}} {
		var size int64
		for _, p := range []string{c.path, c.data} {
			if st, err := os.Stat(p); err == nil {
				size += st.Size()
			}
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g, err := graph.Open(c.path, graph.OpenOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := graph.Infer(g, graph.Options{}); err != nil {
					b.Fatal(err)
				}
				g.Close()
			}
			b.ReportMetric(float64(size)/1e6, "file-MB")
		})
	}
}
