package ir_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/ir"
)

// tiNet is a network of one TensorIterator whose body passes its input x_t through, with the
// port map, back edge and body that the test replaces.
func tiNet(portMap, backEdges, body string) string {
	return `<net name="t" version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><output><port id="0"><dim>2</dim><dim>5</dim></port></output></layer>
<layer id="1" name="ti" type="TensorIterator" version="opset1">
<input><port id="0"><dim>2</dim><dim>5</dim></port></input>
<output><port id="1"><dim>2</dim><dim>5</dim></port></output>
` + portMap + backEdges + body + `
</layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges></net>`
}

const (
	tiPortMap = `<port_map>
<input external_port_id="0" internal_layer_id="0" axis="1" start="-1" end="0" stride="-1"/>
<output external_port_id="1" internal_layer_id="1" axis="1"/>
</port_map>`
	tiBackEdges = `<back_edges><edge from-layer="1" to-layer="0"/></back_edges>`
	tiBody      = `<body><layers>
<layer id="0" name="x_t" type="Parameter" version="opset1"><output><port id="0"><dim>2</dim><dim>1</dim></port></output></layer>
<layer id="1" name="y_t" type="Result" version="opset1"><input><port id="0"><dim>2</dim><dim>1</dim></port></input></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges></body>`
)

// TestDecodeBody: a TensorIterator's <body> is a network of its own, its port map's entries keep
// their attributes (the defaults end -1, stride 1, part_size 1 where absent), and a back edge may
// omit its ports.
func TestDecodeBody(t *testing.T) {
	n, err := ir.Decode(strings.NewReader(tiNet(tiPortMap, tiBackEdges, tiBody)))
	if err != nil {
		t.Fatal(err)
	}
	l, ok := n.Layer("1")
	if !ok || len(l.Bodies) != 1 {
		t.Fatalf("Layer(1) = %+v", l)
	}
	b := l.Bodies[0]
	if b.Name != "body" || len(b.Net.Layers) != 2 || len(b.Net.Edges) != 1 {
		t.Fatalf("body %q: %d layers, %d edges", b.Name, len(b.Net.Layers), len(b.Net.Edges))
	}
	if src, _, ok := b.Net.Producer("1", "0"); !ok || src.Name != "x_t" {
		t.Errorf("the body's Result is fed by %v, %v", src, ok)
	}
	want := []ir.PortMapEntry{
		{ExternalPort: 0, InternalLayer: "0", Sliced: true, Axis: 1, Start: -1, End: 0, Stride: -1, PartSize: 1, Line: 7},
		{ExternalPort: 1, InternalLayer: "1", Sliced: true, Axis: 1, Start: 0, End: -1, Stride: 1, PartSize: 1, Line: 8},
	}
	if len(b.Inputs) != 1 || len(b.Outputs) != 1 || b.Inputs[0] != want[0] || b.Outputs[0] != want[1] {
		t.Errorf("port map %+v, %+v; want %+v", b.Inputs, b.Outputs, want)
	}
	if len(b.BackEdges) != 1 || b.BackEdges[0].FromLayer != "1" || b.BackEdges[0].ToLayer != "0" {
		t.Errorf("back edges %+v", b.BackEdges)
	}
	if x, _ := n.Layer("0"); x.Bodies != nil {
		t.Errorf("a Parameter has bodies %+v", x.Bodies)
	}
}

func TestDecodeBodyErrors(t *testing.T) {
	for _, tt := range []struct {
		name, xml, want string
	}{
		{"port map without body", tiNet(tiPortMap, "", ""), "has a port map or back edges for <body>, and no <body>"},
		{"two bodies", tiNet(tiPortMap, "", tiBody+tiBody), "has two <body> elements"},
		{"entry without internal_layer_id", tiNet(`<port_map><input external_port_id="0"/></port_map>`, "", tiBody), "lacks external_port_id or internal_layer_id"},
		{"axis not an integer", tiNet(`<port_map><input external_port_id="0" internal_layer_id="0" axis="a"/></port_map>`, "", tiBody), `<input axis="a">: not an integer`},
		{"input entry names a Result", tiNet(`<port_map><input external_port_id="0" internal_layer_id="1"/></port_map>`, "", tiBody), `input internal_layer_id "1" of <body> is not a Parameter`},
		{"output entry names a missing layer", tiNet(`<port_map><output external_port_id="1" internal_layer_id="7"/></port_map>`, "", tiBody), `output internal_layer_id "7" of <body> is not a Result`},
		{"back edge into a Result", tiNet(tiPortMap, `<back_edges><edge from-layer="1" to-layer="1"/></back_edges>`, tiBody), `back edge to-layer "1" of <body> is not a Parameter`},
		{"back edge without to-layer", tiNet(tiPortMap, `<back_edges><edge from-layer="1"/></back_edges>`, tiBody), "<edge> lacks one of"},
		{"body edge to nowhere", tiNet(tiPortMap, "", strings.Replace(tiBody, `to-layer="1"`, `to-layer="9"`, 1)), `TensorIterator layer "1" ("ti", line 3): <body>: edge 0: to-layer "9" does not exist`},
	} {
		_, err := ir.Decode(strings.NewReader(tt.xml))
		if !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Decode = %v; want a syntax error containing %q", tt.name, err, tt.want)
		}
	}
}
