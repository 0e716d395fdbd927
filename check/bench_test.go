package check_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/ir"
)

// generatedIR writes an IR v11 model of n Reshape layers, each fed by the one Parameter and a Const
// pattern of its own, and its weights.
func generatedIR(n int) (xmlText, bin []byte) {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0"?>
<net name="generated" version="11">
	<layers>
		<layer id="0" name="data" type="Parameter" version="opset1">
			<data shape="2,5,5,24" element_type="f32"/>
			<output><port id="0" precision="FP32"><dim>2</dim><dim>5</dim><dim>5</dim><dim>24</dim></port></output>
		</layer>
`)
	var edges bytes.Buffer
	for i := range n {
		c, r := 2*i+1, 2*i+2
		fmt.Fprintf(&b, `		<layer id="%d" name="pattern_%d" type="Const" version="opset1">
			<data element_type="i64" shape="3" offset="%d" size="24"/>
			<output><port id="0" precision="I64"><dim>3</dim></port></output>
		</layer>
		<layer id="%d" name="reshape_%d" type="Reshape" version="opset1">
			<data special_zero="true"/>
			<input>
				<port id="0" precision="FP32"><dim>2</dim><dim>5</dim><dim>5</dim><dim>24</dim></port>
				<port id="1" precision="I64"><dim>3</dim></port>
			</input>
			<output><port id="2" precision="FP32"><dim>2</dim><dim>150</dim><dim>4</dim></port></output>
		</layer>
`, c, i, 24*i, r, i)
		fmt.Fprintf(&edges, "\t\t<edge from-layer=\"0\" from-port=\"0\" to-layer=\"%d\" to-port=\"0\"/>\n", r)
		fmt.Fprintf(&edges, "\t\t<edge from-layer=\"%d\" from-port=\"0\" to-layer=\"%d\" to-port=\"1\"/>\n", c, r)
		for _, v := range []int64{0, -1, 4} {
			bin = binary.LittleEndian.AppendUint64(bin, uint64(v))
		}
	}
	b.WriteString("\t</layers>\n\t<edges>\n")
	b.Write(edges.Bytes())
	b.WriteString("\t</edges>\n</net>\n")
	return b.Bytes(), bin
}

const benchLayers = 10000

// BenchmarkCheckIR runs reshape check's library path (decode the network, read every pattern
// constant, infer, compare) over a generated IR with 10,000 Reshape layers. The floor of its
// decoding is package ir's BenchmarkDecode/scan: a bare scan with the XML lexer that ir.Decode
// reads.
func BenchmarkCheckIR(b *testing.B) {
	x, bin := generatedIR(benchLayers)
	b.SetBytes(int64(len(x)))
	b.ReportAllocs()
	for b.Loop() {
		net, err := ir.Decode(bytes.NewReader(x))
		if err != nil {
			b.Fatal(err)
		}
		rep, err := check.IR(net, ir.NewWeights(bytes.NewReader(bin), int64(len(bin)), "generated.bin"), "generated.xml", check.Options{})
		if err != nil || len(rep.Rows) != benchLayers || check.Summarize([]*check.Report{rep}).OK != benchLayers {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchLayers*b.N)/b.Elapsed().Seconds(), "layers/s")
}

// BenchmarkShapesIR runs reshape shapes' library path on face-detection-0200 (1,146 layers, in
// ../shared/realdata): graph.Open (decode the .xml, FromIR), Infer, and every tensor's verdict
// against its port; it reports the time per layer.
func BenchmarkShapesIR(b *testing.B) {
	path := testenv.Shared(b, "realdata/"+faceDetection)
	const layers = 1146
	b.ReportAllocs()
	for b.Loop() {
		s, err := check.InferShapes(path, check.Options{})
		if err != nil || len(s.Tensors) != 440 {
			b.Fatal(err)
		}
		s.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/layers, "ns/layer")
}

func TestGeneratedIR(t *testing.T) {
	x, bin := generatedIR(3)
	net, err := ir.Decode(bytes.NewReader(x))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := check.IR(net, ir.NewWeights(bytes.NewReader(bin), int64(len(bin)), "g.bin"), "g.xml", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rows := rep.Rows; len(rows) != 3 || rows[2].Inferred.String() != "[2,150,4]" || rows[2].Verdict != check.OK {
		t.Fatalf("%+v", rows)
	}
}

// BenchmarkCheckBindings checks swin_tiny (1208 tensors) without bindings, and with bindings of
// every symbol: where it runs (32x32), and where a node's inputs break its rule (30x30), which
// infers the model a second time without the bindings to name the constraint they break.
func BenchmarkCheckBindings(b *testing.B) {
	path := filepath.Join(models, "swin_tiny.onnx")
	for _, bc := range []struct {
		name string
		dims map[string]int64
	}{
		{"unbound", nil},
		{"bound", map[string]int64{"B": 1, "H": 32, "W": 32}},
		{"broken", map[string]int64{"B": 1, "H": 30, "W": 30}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rep, err := check.File(path, check.Options{Dims: bc.dims})
				if err != nil || len(rep.Rows) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}
