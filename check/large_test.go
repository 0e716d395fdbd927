package check_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/internal/modelgen"
	"github.com/reshape-go/reshape/onnx"
)

// large holds the generated models of BenchmarkOpenLarge: written once per run of the test
// binary, in a temporary directory TestMain removes.
var large struct {
	once  sync.Once
	dir   string
	err   error
	nodes map[string]int // by model name
}

func TestMain(m *testing.M) {
	code := m.Run()
	if large.dir != "" {
		os.RemoveAll(large.dir)
	}
	os.Exit(code)
}

// largeModels writes the models of modelgen once: embedded (24 MatMuls, 64 MiB of weights each,
// embedded: 1.6 GB on disk), decoder (Llama7B: 23,050 nodes, 27 GB of external data in a sparse
// file) and wide (100,000 nodes). It skips the benchmark when the disk has no room for them.
func largeModels(b *testing.B) string {
	large.once.Do(func() {
		if large.dir, large.err = os.MkdirTemp("", "reshape-large-"); large.err != nil {
			return
		}
		large.nodes = map[string]int{"embedded": 25, "wide": 100_000}
		if large.err = modelgen.WriteFile(filepath.Join(large.dir, "embedded.onnx"), func(w io.Writer) error {
			return modelgen.Embedded(w, 24, 4096)
		}); large.err != nil {
			return
		}
		if _, large.nodes["decoder"], large.err = modelgen.Decoder(large.dir, modelgen.Llama7B); large.err != nil {
			return
		}
		large.err = modelgen.WriteFile(filepath.Join(large.dir, "wide.onnx"), func(w io.Writer) error { return modelgen.Wide(w, 10_000) })
	})
	switch {
	case errors.Is(large.err, syscall.ENOSPC):
		b.Skipf("no room on the disk of %s for the 1.6 GB model of embedded weights: %v", large.dir, large.err)
	case large.err != nil:
		b.Fatal(large.err)
	}
	return large.dir
}

// BenchmarkOpenLarge opens, checks and infers the shapes of the models of modelgen, reading only the
// bytes their shapes need: the 1.6 GB model of embedded weights, a 23,050-node LLM decoder whose
// 27 GB of weights are external data, and a 100,000-node graph. It reports the time per node and
// the bytes of the file read (decoded structure and constants' values).
func BenchmarkOpenLarge(b *testing.B) {
	dir := largeModels(b)
	for _, name := range []string{"embedded", "decoder", "wide"} {
		path := filepath.Join(dir, name+".onnx")
		nodes := float64(large.nodes[name])
		b.Run("open/"+name, func(b *testing.B) {
			var read int64
			for b.Loop() {
				m, err := onnx.Open(path, 0)
				if err != nil {
					b.Fatal(err)
				}
				read = m.BytesRead()
				m.Close()
			}
			b.ReportMetric(float64(read), "bytes-read")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/nodes, "ns/node")
		})
		b.Run("check/"+name, func(b *testing.B) {
			for b.Loop() {
				if _, err := check.File(path, check.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/nodes, "ns/node")
		})
		b.Run("shapes/"+name, func(b *testing.B) {
			var read int64
			for b.Loop() {
				s, err := check.InferShapes(path, check.Options{})
				if err != nil {
					b.Fatal(err)
				}
				read = s.BytesRead()
				s.Close()
			}
			b.ReportMetric(float64(read), "bytes-read")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/nodes, "ns/node")
		})
	}
}
