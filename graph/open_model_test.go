package graph_test

import (
	"testing"

	"github.com/reshape-go/reshape/graph"
)

// TestOpenModel: a graph Open read holds its model for what the graph does not keep, the ONNX
// model or the IR network and its weights, until Close; a graph FromIR built holds none.
func TestOpenModel(t *testing.T) {
	for _, tt := range []struct {
		path           string
		onnx           bool
		layers, consts int // of an IR network
		binRead        int64
	}{
		{path: "../testdata/models/idioms.onnx", onnx: true},
		// The three i64 constants of the shape subgraph, 24 bytes of the .bin, read by Infer.
		{path: "testdata/ir/batch_flatten.xml", layers: 9, consts: 3, binRead: 24},
	} {
		g, err := graph.Open(tt.path, graph.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := graph.Infer(g, graph.Options{}); err != nil {
			t.Fatal(err)
		}
		m := g.ONNX()
		net, w := g.IR()
		switch {
		case tt.onnx && (m == nil || m.BytesRead() == 0 || net != nil || w != nil):
			t.Errorf("%s: ONNX() %v, IR() %v, %v: want the model alone", tt.path, m, net, w)
		case !tt.onnx && (m != nil || net == nil || len(net.Layers) != tt.layers || w == nil || w.BytesRead() != tt.binRead):
			t.Errorf("%s: ONNX() %v, IR() %v, %v: want the network of %d layers, %d bytes of its weights read", tt.path, m, net, w, tt.layers, tt.binRead)
		}
		if err := g.Close(); err != nil {
			t.Fatal(err)
		}
		if net, w := g.IR(); g.ONNX() != nil || net != nil || w != nil {
			t.Errorf("%s: after Close: ONNX() %v, IR() %v, %v: want none", tt.path, g.ONNX(), net, w)
		}
	}
	if _, g := loadIR(t, "testdata/ir/batch_flatten.xml"); g.ONNX() != nil {
		t.Errorf("a graph FromIR built: ONNX() %v", g.ONNX())
	} else if net, w := g.IR(); net != nil || w != nil {
		t.Errorf("a graph FromIR built: IR() %v, %v: want none", net, w)
	}
}
