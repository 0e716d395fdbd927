package fix_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/fix"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/ir"
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

// BenchmarkFindIR finds and writes the rewrites of IR networks: baked_merge (3 layers, a rewrite
// with a ShapeOf → Gather → ReduceProd → Concat subgraph and a -1) and face-detection-0200 of
// ../shared/realdata (1146 layers, nothing to rewrite: its .xml and its 2 MB .bin written back).
func BenchmarkFindIR(b *testing.B) {
	models := map[string]string{"baked_merge": filepath.Join("..", "testdata", "ir", "baked_merge.xml")}
	if root, ok := testenv.LookupShared(b, "realdata"); ok {
		models["face-detection-0200"] = filepath.Join(root, "openvinotoolkit__datumaro", "datumaro", "plugins", "openvino", "models", "face-detection-0200.xml")
	}
	for _, name := range []string{"baked_merge", "face-detection-0200"} {
		b.Run(name, func(b *testing.B) {
			path, ok := models[name]
			if !ok {
				b.Skip("../shared/realdata is missing")
			}
			src, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			w, err := ir.OpenWeights(strings.TrimSuffix(path, ".xml") + ".bin")
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			b.ReportAllocs()
			for b.Loop() {
				f, err := fix.FindIR(src, w, fix.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := f.WriteTo(io.Discard); err != nil {
					b.Fatal(err)
				}
				if _, err := f.WriteWeights(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
