package ir_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/shape"
)

// rewritten is network with the Reshape's pattern read from a new Const layer 3 and special_zero
// "false", the old pattern's layer 1 left out: every other byte as it was.
const rewritten = `<?xml version="1.0"?>
<net name="flatten" version="11">
	<layers>
		<layer id="0" name="x" type="Parameter" version="opset1">
			<data shape="?,3,4" element_type="f32"/>
			<output><port id="0" precision="FP32"><dim>-1</dim><dim>3</dim><dim>4</dim></port></output>
		</layer>
		<layer id="2" name="flatten" type="Reshape" version="opset1">
			<data special_zero="false"/>
			<input><port id="0"><dim>-1</dim><dim>3</dim><dim>4</dim></port><port id="1"><dim>2</dim></port></input>
			<output><port id="2" precision="FP32"><dim>-1</dim><dim>12</dim></port></output>
		</layer>
		<layer id="3" name="flatten/pattern" type="Const" version="opset1">
			<data element_type="i64" shape="2" offset="16" size="16"/>
			<output>
				<port id="0" precision="I64">
					<dim>2</dim>
				</port>
			</output>
		</layer>
	</layers>
	<edges>
		<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
		<edge from-layer="3" from-port="0" to-layer="2" to-port="1"/>
	</edges>
</net>`

func TestWriteEdit(t *testing.T) {
	pattern := ir.Layer{ID: "3", Name: "flatten/pattern", Type: "Const", Version: "opset1",
		Data: []xml.Attr{{Name: xml.Name{Local: "element_type"}, Value: "i64"}, {Name: xml.Name{Local: "shape"}, Value: "2"},
			{Name: xml.Name{Local: "offset"}, Value: "16"}, {Name: xml.Name{Local: "size"}, Value: "16"}},
		Outputs: []ir.Port{{ID: "0", Precision: "I64", Shape: shape.Of(shape.Static(2))}}}
	tests := []struct {
		name string
		edit ir.Edit
		want string // the .xml written; "" for the network as it is
		code error  // of WriteEdit
		msg  string // in the error of WriteEdit
	}{
		{name: "nothing", edit: ir.Edit{}},
		{name: "new pattern", edit: ir.Edit{Layers: []ir.Layer{pattern}, Remove: []string{"1"},
			Edges: []ir.Edge{{FromLayer: "3", FromPort: "0", ToLayer: "2", ToPort: "1"}},
			Data:  map[string][]xml.Attr{"2": {{Name: xml.Name{Local: "special_zero"}, Value: "false"}}}}, want: rewritten},
		{name: "no such layer", edit: ir.Edit{Data: map[string][]xml.Attr{"9": {{Name: xml.Name{Local: "axis"}, Value: "0"}}}}, code: errcode.ErrSyntax, msg: `layer "9"`},
		// Of several layers the .xml does not have, the least id's error, on every run.
		{name: "no such layers", edit: ir.Edit{Data: map[string][]xml.Attr{"9": nil, "7": nil, "8": nil, "6x": nil}}, code: errcode.ErrSyntax, msg: `layer "6x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			n, err := ir.WriteEdit(&out, []byte(network), &tt.edit)
			if tt.code != nil {
				if !errors.Is(err, tt.code) || !strings.Contains(err.Error(), tt.msg) {
					t.Fatalf("WriteEdit: %v, want %v naming %s", err, tt.code, tt.msg)
				}
				return
			}
			if err != nil || n != int64(out.Len()) {
				t.Fatalf("WriteEdit: %d bytes, %v; wrote %d", n, err, out.Len())
			}
			want := tt.want
			if want == "" {
				want = network
			}
			if out.String() != want {
				t.Fatalf("WriteEdit wrote\n%s\nwant\n%s", out.String(), want)
			}
			// The file written decodes to the network Net.Edit makes.
			net, err := ir.Decode(strings.NewReader(network))
			if err != nil {
				t.Fatal(err)
			}
			edited, err := net.Edit(&tt.edit)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ir.Decode(&out)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := summary(edited), summary(got); a != b {
				t.Errorf("Net.Edit gives\n%s\nthe file written\n%s", a, b)
			}
		})
	}
}

// TestWriteEditTags: WriteEdit pairs the tags it reads, and writes what follows the root element as
// it is, as Decode reads none of it (FuzzWriteEdit: an end tag after the root panicked).
func TestWriteEditTags(t *testing.T) {
	tests := []struct {
		name, src string
		msg       string // of the ErrSyntax; "" for the file written as it is
	}{
		{"an end tag after the root", `<net version="10"/></A>`, ""},
		{"elements after the root", network + "\n<a></b>", ""},
		{"an end tag first", `</A><net version="10"/>`, "</A> at offset 0 closes no element"},
		{"an end tag of another element", `<net version="10"><layers></edges></net>`, "</edges> at offset 26 closes no element"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		_, err := ir.WriteEdit(&out, []byte(tt.src), &ir.Edit{})
		switch {
		case tt.msg == "" && (err != nil || out.String() != tt.src):
			t.Errorf("%s: WriteEdit wrote %q, %v; want the file as it is", tt.name, out.String(), err)
		case tt.msg != "" && (!errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), tt.msg)):
			t.Errorf("%s: WriteEdit: %v; want ErrSyntax naming %s", tt.name, err, tt.msg)
		}
	}
}

// summary describes a network's layers (id, type, data, ports) and edges, in order.
func summary(n *ir.Net) string {
	var b strings.Builder
	for _, l := range n.Layers {
		b.WriteString(l.ID + " " + l.Type + " " + l.Name)
		for _, a := range l.Data {
			b.WriteString(" " + a.Name.Local + "=" + a.Value)
		}
		for _, p := range append(append([]ir.Port{}, l.Inputs...), l.Outputs...) {
			b.WriteString(" " + p.ID + ":" + p.Precision + p.Shape.String())
		}
		b.WriteString("\n")
	}
	for _, e := range n.Edges {
		b.WriteString(e.FromLayer + ":" + e.FromPort + "->" + e.ToLayer + ":" + e.ToPort + "\n")
	}
	return b.String()
}

func TestNetEditErrors(t *testing.T) {
	net, err := ir.Decode(strings.NewReader(network))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		edit ir.Edit
	}{
		{"id used twice", ir.Edit{Layers: []ir.Layer{{ID: "2", Type: "Const"}}}},
		{"edge from no layer", ir.Edit{Edges: []ir.Edge{{FromLayer: "7", FromPort: "0", ToLayer: "2", ToPort: "1"}}}},
		{"edge from a removed layer", ir.Edit{Remove: []string{"0"}, Edges: []ir.Edge{{FromLayer: "0", FromPort: "0", ToLayer: "2", ToPort: "0"}}}},
	}
	for _, tt := range tests {
		if _, err := net.Edit(&tt.edit); !errors.Is(err, errcode.ErrSyntax) {
			t.Errorf("%s: Net.Edit: %v, want ErrSyntax", tt.name, err)
		}
	}
	if len(net.Layers) != 3 || len(net.Edges) != 2 {
		t.Errorf("Net.Edit changed the network: %d layers, %d edges", len(net.Layers), len(net.Edges))
	}
}

func TestWeightsAppend(t *testing.T) {
	head, tail := []byte("0123456789"), []byte("abcdef")
	w := ir.NewWeights(bytes.NewReader(head), int64(len(head)), "w.bin").Append(tail)
	if w.Size() != 16 {
		t.Fatalf("Size %d, want 16", w.Size())
	}
	for _, c := range []struct {
		off  int64
		n    int
		want string
	}{{0, 4, "0123"}, {8, 4, "89ab"}, {10, 6, "abcdef"}, {12, 2, "cd"}} {
		b, err := w.Bytes(ir.Const{Type: 0, Offset: c.off, Size: int64(c.n)}, 100)
		if err != nil || string(b) != c.want {
			t.Errorf("Bytes at %d, %d: %q, %v; want %q", c.off, c.n, b, err, c.want)
		}
	}
	var out bytes.Buffer
	if n, err := w.WriteTo(&out); err != nil || n != 16 || out.String() != "0123456789abcdef" {
		t.Errorf("WriteTo: %d, %v, %q", n, err, out.String())
	}
	var nilW *ir.Weights
	if nilW.Append(tail) != nil {
		t.Error("Append to nil weights: not nil")
	}
	if _, err := nilW.WriteTo(io.Discard); !errors.Is(err, errcode.ErrIO) {
		t.Errorf("WriteTo of nil weights: %v, want ErrIO", err)
	}
}

// FuzzWriteEdit: an empty edit writes any network it reads as it is, and an edit of the
// Reshape's special_zero writes a file that decodes to the network Net.Edit makes.
func FuzzWriteEdit(f *testing.F) {
	f.Add([]byte(network))
	f.Add([]byte(rewritten))
	set := &ir.Edit{Data: map[string][]xml.Attr{"2": {{Name: xml.Name{Local: "special_zero"}, Value: "false"}}}}
	f.Fuzz(func(t *testing.T, src []byte) {
		net, err := ir.Decode(bytes.NewReader(src))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if _, err := ir.WriteEdit(&out, src, &ir.Edit{}); err == nil && !bytes.Equal(out.Bytes(), src) {
			t.Fatalf("an empty edit changed the file:\n%s", out.Bytes())
		}
		edited, err := net.Edit(set)
		if err != nil {
			return
		}
		out.Reset()
		if _, err := ir.WriteEdit(&out, src, set); err != nil {
			return // layer 2 is not a top-level layer with a <data> element
		}
		got, err := ir.Decode(&out)
		if err != nil {
			t.Fatalf("the file written does not decode: %v\n%s", err, out.Bytes())
		}
		if a, b := summary(edited), summary(got); a != b {
			t.Fatalf("Net.Edit gives\n%s\nthe file written\n%s", a, b)
		}
	})
}
