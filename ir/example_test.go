package ir_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/reshape-go/reshape/ir"
)

// A network of one Reshape, as OpenVINO writes it: the pattern is a Const layer whose bytes lie in
// the .bin file (here two int64 values, 0 and -1, at offset 0).
const network = `<?xml version="1.0"?>
<net name="flatten" version="11">
	<layers>
		<layer id="0" name="x" type="Parameter" version="opset1">
			<data shape="?,3,4" element_type="f32"/>
			<output><port id="0" precision="FP32"><dim>-1</dim><dim>3</dim><dim>4</dim></port></output>
		</layer>
		<layer id="1" name="pattern" type="Const" version="opset1">
			<data element_type="i64" shape="2" offset="0" size="16"/>
			<output><port id="0" precision="I64"><dim>2</dim></port></output>
		</layer>
		<layer id="2" name="flatten" type="Reshape" version="opset1">
			<data special_zero="true"/>
			<input><port id="0"><dim>-1</dim><dim>3</dim><dim>4</dim></port><port id="1"><dim>2</dim></port></input>
			<output><port id="2" precision="FP32"><dim>-1</dim><dim>12</dim></port></output>
		</layer>
	</layers>
	<edges>
		<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
		<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
	</edges>
</net>`

// Decode reads the network; the Const layer feeding port 1 of the Reshape says where its pattern
// lies in the weights, and Weights.Ints reads it.
func Example() {
	net, err := ir.Decode(strings.NewReader(network))
	if err != nil {
		fmt.Println(err)
		return
	}
	bin, _ := binary.Append(nil, binary.LittleEndian, []int64{0, -1})
	weights := ir.NewWeights(bytes.NewReader(bin), int64(len(bin)), "flatten.bin")

	for i := range net.Layers {
		l := &net.Layers[i]
		if l.Type != "Reshape" {
			continue
		}
		special, _ := l.Attr("special_zero")
		src, _, _ := net.Producer(l.ID, "1")
		c, err := src.Const()
		if err != nil {
			fmt.Println(err)
			return
		}
		pattern, err := weights.Ints(c, 64)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: input %s, pattern %v (%s%v at byte %d), special_zero=%s, declared %s\n",
			l, l.Inputs[0].Shape, pattern, c.Type, c.Shape, c.Offset, special, l.Outputs[0].Shape)
	}
	// Output:
	// layer "2" ("flatten", line 12): input [?,3,4], pattern [0 -1] (i64[2] at byte 0), special_zero=true, declared [?,12]
}
