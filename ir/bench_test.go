package ir_test

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/xml"

	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/ir"
)

// faceDetection is the largest IR model of ../shared/realdata: 1,146 layers, 493,056 bytes of XML.
const faceDetection = "realdata/openvinotoolkit__datumaro/datumaro/plugins/openvino/models/face-detection-0200.xml"

// BenchmarkDecode decodes face-detection-0200.xml, and reports the time per layer; its yardstick,
// scan, is a bare scan of the same bytes with the XML lexer of tdewolff/parse, which Decode reads:
// the floor of Decode.
func BenchmarkDecode(b *testing.B) {
	x, err := os.ReadFile(testenv.Shared(b, faceDetection))
	if err != nil {
		b.Fatal(err)
	}
	const layers = 1146
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(x)))
		b.ReportAllocs()
		for b.Loop() {
			net, err := ir.Decode(bytes.NewReader(x))
			if err != nil || len(net.Layers) != layers {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/layers, "ns/layer")
	})
	b.Run("scan", func(b *testing.B) {
		b.SetBytes(int64(len(x)))
		b.ReportAllocs()
		for b.Loop() {
			lx := xml.NewLexer(parse.NewInputBytes(x))
			for {
				if tt, _ := lx.Next(); tt == xml.ErrorToken {
					break
				}
			}
			if lx.Err() != io.EOF {
				b.Fatal(lx.Err())
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/layers, "ns/layer")
	})
}
