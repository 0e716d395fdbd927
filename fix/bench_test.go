package fix_test

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/reshape-go/reshape/fix"
	"github.com/reshape-go/reshape/onnx"
)

// BenchmarkFind finds and writes the rewrites of models of testdata/models: yolo_head (52 nodes, two
// rewrites, one of them probed), channel_shuffle (41 nodes, two rewrites) and bert_deep_4x (8,965
// nodes, 385 Reshapes, nothing to rewrite: the inference of the model is all it costs, no probe).
func BenchmarkFind(b *testing.B) {
	for _, name := range []string{"yolo_head", "channel_shuffle", "bert_deep_4x"} {
		b.Run(name, func(b *testing.B) {
			m, err := onnx.Open(filepath.Join("..", "testdata", "models", name+".onnx"), 0)
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			b.ReportAllocs()
			for b.Loop() {
				f, err := fix.Find(m, "", fix.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := f.WriteTo(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
