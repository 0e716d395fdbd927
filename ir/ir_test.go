package ir_test

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/ir"
)

const small = `<?xml version="1.0"?>
<net name="small" version="11">
	<layers>
		<layer id="0" name="x" type="Parameter" version="opset1">
			<data shape="1,?,4" element_type="f32"/>
			<output><port id="0" precision="FP32" names="x"><dim>1</dim><dim>-1</dim><dim>1..4</dim><rt_info><attribute name="a" version="0"/></rt_info></port></output>
		</layer>
		<layer id="1" name="p" type="Const" version="opset1">
			<data element_type="i32" shape="2" offset="8" size="8"/>
			<output><port id="0" precision="I32"><dim>2</dim></port></output>
		</layer>
		<layer id="2" name="r" type="Reshape" version="opset1">
			<data special_zero="True"/>
			<input><port id="0"><dim>1</dim><dim>-1</dim><dim>1..4</dim></port><port id="1"><dim>2</dim></port></input>
			<output><port id="2" precision="FP32"><dim>1</dim><dim>?</dim></port></output>
		</layer>
	</layers>
	<edges>
		<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
		<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
	</edges>
	<meta_data><MO_version value="x"/></meta_data>
</net>`

func TestDecode(t *testing.T) {
	n, err := ir.Decode(strings.NewReader(small))
	if err != nil {
		t.Fatal(err)
	}
	if n.Name != "small" || n.Version != 11 || len(n.Layers) != 3 || len(n.Edges) != 2 {
		t.Fatalf("Decode = %+v", n)
	}
	r, ok := n.Layer("2")
	if !ok || r.Type != "Reshape" || must(r.Attr("special_zero")) != "True" || r.Line != 12 {
		t.Fatalf("Layer(2) = %+v", r)
	}
	if got := r.Inputs[0].Shape.String(); got != "[1,?,1..4]" {
		t.Errorf("input port 0 = %s", got)
	}
	if x, _ := n.Layer("0"); x.Outputs[0].Names != "x" || x.Outputs[0].Precision != "FP32" {
		t.Errorf("port attributes: %+v", x.Outputs[0])
	}
	src, out, ok := n.Producer("2", "1")
	if !ok || src.Name != "p" || out.ID != "0" {
		t.Fatalf("Producer = %v, %v, %v", src, out, ok)
	}
	if _, _, ok := n.Producer("2", "7"); ok {
		t.Error("Producer of a port without edge")
	}
	c, err := src.Const()
	if err != nil || c.Type != element.I32 || !slices.Equal(c.Shape, []int64{2}) || c.Offset != 8 || c.Size != 8 {
		t.Fatalf("Const = %+v, %v", c, err)
	}
	bin := make([]byte, 16)
	binary.LittleEndian.PutUint32(bin[8:], 0)
	binary.LittleEndian.PutUint32(bin[12:], 0xffffffff)
	w := ir.NewWeights(bytes.NewReader(bin), int64(len(bin)), "small.bin")
	v, err := w.Ints(c, 64)
	if err != nil || !slices.Equal(v, []int64{0, -1}) {
		t.Fatalf("Ints = %v, %v", v, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	layer := func(id, typ, body string) string {
		return `<layer id="` + id + `" name="n` + id + `" type="` + typ + `" version="opset1">` + body + `</layer>`
	}
	port := `<port id="0"><dim>2</dim></port>`
	net := func(layers, edges string) string {
		return `<net name="t" version="11"><layers>` + layers + `</layers><edges>` + edges + `</edges></net>`
	}
	tests := []struct {
		name, xml, want string
	}{
		{"empty", "", "line 1: no XML element, want an IR <net>"},
		{"not xml", "hello", "no XML element"},
		{"truncated", `<net name="t" version="11"><layers><layer id="0"`, "unexpected EOF"},
		{"wrong root", `<model/>`, "root element <model>, want <net>"},
		{"version 7", `<net version="7"></net>`, `<net version="7">: IR v10 and v11 are supported`},
		{"no version", `<net></net>`, `<net version="">`},
		{"unclosed", `<net version="11"><layers>`, "unexpected EOF"},
		{"mismatched tag", `<net version="11"><layers></net>`, "element <layers> closed by </net>"},
		{"mismatched tag in a skipped element", net(layer("1", "A", `<rt_info><a></b></rt_info>`), ""), "line 1: element <a> closed by </b>"},
		{"mismatched prefix", net(`<x:layer id="1"></y:layer>`, ""), "element <x:layer> closed by </y:layer>"},
		{"mismatched dim", net(layer("1", "A", `<output><port id="0"><dim>2</dims></port></output>`), ""), "element <dim> closed by </dims>"},
		{"mismatched dim text", net(layer("1", "A", `<output><port id="0"><dim>?</dims></port></output>`), ""), "element <dim> closed by </dims>"},
		{"end tag before the root", `</a><net version="11"></net>`, "line 1: unexpected end element </a>"},
		{"unclosed layer", `<net version="11"><layers><layer id="1">`, "line 1: unexpected EOF"},
		{"layer without id", net(`<layer name="a" type="Const"/>`, ""), `<layer name="a"> has no id`},
		{"duplicate id", net(layer("1", "A", "")+layer("1", "B", ""), ""), `layer id "1" is used already by layer "n1" on line 1`},
		{"bad dim", net(layer("1", "A", `<output><port id="0"><dim>x</dim></port></output>`), ""), `<dim>x</dim>: "x": not a dimension`},
		{"negative dim", net(layer("1", "A", `<output><port id="0"><dim>-2</dim></port></output>`), ""), "a dimension cannot be negative"},
		{"cycle", net(layer("1", "A", `<input>`+port+`</input><output>`+port+`</output>`)+layer("2", "B", `<input>`+port+`</input><output>`+port+`</output>`),
			`<edge from-layer="1" from-port="0" to-layer="2" to-port="0"/><edge from-layer="2" from-port="0" to-layer="1" to-port="0"/>`), "the edges form a cycle through"},
		{"nested dim", net(layer("1", "A", `<output><port id="0"><dim><b/></dim></port></output>`), ""), "unexpected <b> inside a text element"},
		{"port without id", net(layer("1", "A", `<output><port><dim>1</dim></port></output>`), ""), "<port> has no id"},
		{"edge to nowhere", net(layer("1", "A", `<output>`+port+`</output>`), `<edge from-layer="1" from-port="0" to-layer="9" to-port="0"/>`), `edge 0: to-layer "9" does not exist`},
		{"edge from nowhere", net(layer("1", "A", `<input>`+port+`</input>`), `<edge from-layer="9" from-port="0" to-layer="1" to-port="0"/>`), `edge 0: from-layer "9" does not exist`},
		{"edge from missing port", net(layer("1", "A", `<output>`+port+`</output>`)+layer("2", "B", `<input>`+port+`</input>`), `<edge from-layer="1" from-port="5" to-layer="2" to-port="0"/>`), `has no output port "5"`},
		{"edge incomplete", net("", `<edge from-layer="1"/>`), "<edge> lacks one of"},
		{"NUL byte", "<net version=\"11\">\n\x00</net>", "line 2: illegal character code U+0000"},
		{"unknown entity in a value", "<net version=\"11\"\nname=\"&x;\"></net>", "line 2: invalid character entity &x;"},
		{"unquoted value", `<net version=11></net>`, "unquoted or missing attribute value in element"},
		{"attribute without value", `<net version></net>`, "attribute name without = in element"},
		{"< in a value", `<net version="1<1"></net>`, "unescaped < inside quoted string"},
		{"?> closing a start tag", `<net version="11" ?>`, "expected attribute name in element"},
		{"two colons", `<net version="11"><a:b:c/></net>`, "expected element name after <"},
		{"]]> in text", "<net version=\"11\">\n\n]]></net>", "line 3: unescaped ]]> not in CDATA section"},
		{"-- in a comment", "<net version=\"11\"><!-- a -- b --></net>", "line 1: invalid sequence \"--\" not allowed in comments"},
		{"unclosed CDATA", net(layer("1", "A", `<output><port id="0"><dim><![CDATA[2</dim></port></output>`), ""), "unexpected EOF in CDATA section"},
		{"?> inside a quoted PI value", `<?p x="?>"?><net version="11"></net>`, "markup that encoding/xml does not read as one token"},
		{"XML 1.1", `<?xml version="1.1"?><net version="11"></net>`, "only version 1.0 is supported"},
		{"two edges into a port", net(layer("1", "A", `<output>`+port+`</output>`)+layer("2", "B", `<input>`+port+`</input>`),
			`<edge from-layer="1" from-port="0" to-layer="2" to-port="0"/><edge from-layer="1" from-port="0" to-layer="2" to-port="0"/>`), "edges 0 and 1 both feed"},
	}
	for _, tt := range tests {
		_, err := ir.Decode(strings.NewReader(tt.xml))
		if !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Decode = %v; want a syntax error containing %q", tt.name, err, tt.want)
		}
	}
	huge := net(layer("1", "A", `<output><port id="0"><dim>99999999999999999999</dim></port></output>`), "")
	if _, err := ir.Decode(strings.NewReader(huge)); !errors.Is(err, errcode.ErrOverflow) || !strings.Contains(err.Error(), "line 1: <dim>99999999999999999999</dim>") {
		t.Errorf("huge dim: %v; want an overflow error naming the line", err)
	}
}

// TestDecodeTricky reads testdata/tricky.xml, whose markup IR writers rarely use, as encoding/xml
// reads it: entities and character references decoded, a CRLF read as a newline, tabs and
// newlines of attribute values kept, character data split by a comment or a PI joined (1<!-- c
// -->2 is 12), CDATA read as text, a prefixed element by its local name.
func TestDecodeTricky(t *testing.T) {
	f, err := os.Open("testdata/tricky.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, err := ir.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if n.Name != "tricky & <co>\u00e9" || n.Version != 11 || len(n.Layers) != 3 || len(n.Edges) != 1 {
		t.Fatalf("Decode = %q v%d, %d layers, %d edges", n.Name, n.Version, len(n.Layers), len(n.Edges))
	}
	tests := []struct {
		id, name string
		line     int
		data     []xml.Attr
		ports    string
	}{
		{"0", "x\ttab\nnewline\ncrlf", 9, []xml.Attr{{Name: xml.Name{Local: "shape"}, Value: "1,?,4"}, {Name: xml.Name{Local: "element_type"}, Value: "f32"},
			{Name: xml.Name{Local: "note"}, Value: `a"b'c'd`}, {Name: xml.Name{Local: "gt"}, Value: "a>b"}, {Name: xml.Name{Space: "xml", Local: "lang"}, Value: "fr"}},
			`out 0 FP32 "x,é" [1,3,12,1..4,2,?] "[N,C,H,W]"`},
		{"9", "prefixed", 17, nil, ""},
		{"1", "\u00fcber", 18, []xml.Attr{{Name: xml.Name{Local: "a"}, Value: "1"}, {Name: xml.Name{Local: "b"}, Value: "2"}}, `in 0 FP32 "" [1,?,3,1..4,2,?] ""`},
	}
	for i, tt := range tests {
		l := n.Layers[i]
		var ports []string
		for _, p := range l.Inputs {
			ports = append(ports, fmt.Sprintf("in %s %s %q %v %q", p.ID, p.Precision, p.Names, p.Shape, p.Layout))
		}
		for _, p := range l.Outputs {
			ports = append(ports, fmt.Sprintf("out %s %s %q %v %q", p.ID, p.Precision, p.Names, p.Shape, p.Layout))
		}
		if l.ID != tt.id || l.Name != tt.name || l.Line != tt.line || !slices.Equal(l.Data, tt.data) || strings.Join(ports, "; ") != tt.ports {
			t.Errorf("layer %d = %q %q line %d %q %q; want %q %q line %d %q %q", i, l.ID, l.Name, l.Line, l.Data, ports, tt.id, tt.name, tt.line, tt.data, tt.ports)
		}
	}
}

func TestConstErrors(t *testing.T) {
	tests := []struct {
		data map[string]string
		code error
		want string
	}{
		{map[string]string{"shape": "2", "offset": "0", "size": "16"}, errcode.ErrSyntax, "<data> has no element_type attribute"},
		{map[string]string{"element_type": "q7", "shape": "2", "offset": "0", "size": "16"}, errcode.ErrSyntax, `element_type: unknown element type "q7"`},
		{map[string]string{"element_type": "i64", "shape": "2,x", "offset": "0", "size": "16"}, errcode.ErrSyntax, `shape: shape "2,x"`},
		{map[string]string{"element_type": "i64", "shape": "?", "offset": "0", "size": "16"}, errcode.ErrSyntax, `shape "?" is not static`},
		{map[string]string{"element_type": "i64", "shape": "2", "offset": "-1", "size": "16"}, errcode.ErrSyntax, `offset="-1" is not a byte count`},
		{map[string]string{"element_type": "i64", "shape": "2", "offset": "0", "size": "12"}, errcode.ErrSyntax, "size=12, but shape [2] of i64 takes 16 bytes"},
		{map[string]string{"element_type": "i64", "shape": "4294967296,4294967296", "offset": "0", "size": "8"}, errcode.ErrOverflow, "overflows int64"},
		{map[string]string{"element_type": "i64", "shape": "2305843009213693952", "offset": "0", "size": "8"}, errcode.ErrOverflow, "overflow int64 bytes"},
	}
	for _, tt := range tests {
		l := &ir.Layer{ID: "3", Name: "c", Type: "Const", Line: 9}
		for k, v := range tt.data {
			l.Data = append(l.Data, xml.Attr{Name: xml.Name{Local: k}, Value: v})
		}
		_, err := l.Const()
		if !errors.Is(err, tt.code) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `Const layer "3" ("c", line 9)`) {
			t.Errorf("Const(%v) = %v; want %v containing %q", tt.data, err, tt.code, tt.want)
		}
	}
}

func TestWeightsErrors(t *testing.T) {
	w := ir.NewWeights(bytes.NewReader(make([]byte, 16)), 16, "m.bin")
	tests := []struct {
		c    ir.Const
		max  int64
		code error
		want string
	}{
		{ir.Const{Type: element.I64, Shape: []int64{2}, Offset: 8, Size: 16}, 64, errcode.ErrSyntax, "m.bin: offset 8 + size 16 is past the end of the file (16 bytes)"},
		{ir.Const{Type: element.I64, Shape: []int64{1}, Offset: 1 << 62, Size: 8}, 64, errcode.ErrSyntax, "past the end"},
		{ir.Const{Type: element.I64, Shape: []int64{1000000000}, Offset: 0, Size: 8000000000}, 64, errcode.ErrLimit, "a constant of 1000000000 elements exceeds the limit of 64"},
		{ir.Const{Type: element.F32, Shape: []int64{2}, Offset: 0, Size: 8}, 64, errcode.ErrDataType, "f32 is not an integer element type"},
	}
	for _, tt := range tests {
		_, err := w.Ints(tt.c, tt.max)
		if !errors.Is(err, tt.code) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Ints(%+v) = %v; want %v containing %q", tt.c, err, tt.code, tt.want)
		}
	}
	u64 := ir.NewWeights(bytes.NewReader(bytes.Repeat([]byte{0xff}, 8)), 8, "u.bin")
	if v, err := u64.Ints(ir.Const{Type: element.U64, Shape: []int64{1}, Size: 8}, 64); err != nil || len(v) != 1 || v[0] != -1 {
		t.Errorf("u64 above MaxInt64 = %v, %v; want [-1] (wrapped as OpenVINO reads it)", v, err)
	}
}

// TestConstOverlargeSize checks a Const whose size is larger than its value's bytes, as OpenVINO
// reads it (model_server's bge-large-en-v1.5 tokenizer declares size="1" for an empty u8 tensor):
// the value is the first bytes, the tail is never read, and the declared range must lie in the .bin.
func TestConstOverlargeSize(t *testing.T) {
	bin := []byte{7, 0, 0, 0, 9, 9, 9, 9}
	w := ir.NewWeights(bytes.NewReader(bin), int64(len(bin)), "m.bin")
	tests := []struct {
		data      map[string]string
		bytes     []byte
		ints      []int64
		wantErr   string
		bytesRead int64
	}{
		{map[string]string{"element_type": "u8", "shape": "0", "offset": "3", "size": "1"}, []byte{}, []int64{}, "", 0},
		{map[string]string{"element_type": "i32", "shape": "1", "offset": "0", "size": "8"}, []byte{7, 0, 0, 0}, []int64{7}, "", 4},
		{map[string]string{"element_type": "u8", "shape": "2", "offset": "4", "size": "4"}, []byte{9, 9}, []int64{9, 9}, "", 2},
		{map[string]string{"element_type": "u8", "shape": "1", "offset": "4", "size": "5"}, nil, nil, "m.bin: offset 4 + size 5 is past the end of the file (8 bytes)", 0},
	}
	for _, tt := range tests {
		l := &ir.Layer{ID: "3", Name: "c", Type: "Const", Line: 9}
		for _, k := range []string{"element_type", "shape", "offset", "size"} {
			l.Data = append(l.Data, xml.Attr{Name: xml.Name{Local: k}, Value: tt.data[k]})
		}
		c, err := l.Const()
		if err != nil {
			t.Errorf("Const(%v): %v", tt.data, err)
			continue
		}
		before := w.BytesRead()
		b, err := w.Bytes(c, 1<<20)
		if tt.wantErr != "" {
			if !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Bytes(%v) = %v, %v; want a syntax error containing %q", tt.data, b, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !bytes.Equal(b, tt.bytes) || w.BytesRead()-before != tt.bytesRead {
			t.Errorf("Bytes(%v) = %v, %v, %d bytes read; want %v, %d", tt.data, b, err, w.BytesRead()-before, tt.bytes, tt.bytesRead)
		}
		if v, err := w.Ints(c, 64); err != nil || !slices.Equal(v, tt.ints) {
			t.Errorf("Ints(%v) = %v, %v; want %v", tt.data, v, err, tt.ints)
		}
	}
}

// wellFormed reports whether encoding/xml's Token, which matches end tags with start tags, reads
// text through the end of its root element without an error.
func wellFormed(text string) error {
	d := xml.NewDecoder(strings.NewReader(text))
	depth := 0
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			if depth--; depth == 0 {
				return nil
			}
		}
	}
}

// FuzzDecode checks that the IR reader never panics, fails only with syntax errors, or overflow
// errors for dimensions beyond int64, and accepts only XML that encoding/xml's Token reads as
// well-formed through the root's end tag (Decode reads the lenient lexer of tdewolff/parse, checks
// its tokens, and matches the tags itself).
func FuzzDecode(f *testing.F) {
	f.Add(small)
	f.Add(`<net version="10"><layers><layer id="1"><data a="b"/></layer></layers></net>`)
	f.Add(`<net version="10"><layers><layer id="1"><output><port id="0"><dim>1<!-- c -->2</dim></port></output></layer></layers></net>`)
	f.Add(`<net version="10"><layers><x:layer id="1"></y:layer></layers></net>`)
	f.Add(`</a><net version="10"></net>`)
	f.Add(`<net version="10" a="&#9;&amp;"><layers><layer id="1" n="a	b"><![CDATA[x]]><?p?><!DOCTYPE d></layer></layers></net>`)
	f.Add("<net version=\"10\"><layers><layer id=\"1\"><output><port id=\"0\"><dim>1\r\n</dim></port></output></layer></layers></net>")
	f.Fuzz(func(t *testing.T, text string) {
		n, err := ir.Decode(strings.NewReader(text))
		if err != nil {
			if !errors.Is(err, errcode.ErrSyntax) && !errors.Is(err, errcode.ErrOverflow) {
				t.Fatalf("Decode: %v is neither a syntax nor an overflow error", err)
			}
			return
		}
		if err := wellFormed(text); err != nil {
			t.Fatalf("Decode accepted XML that Token refuses: %v", err)
		}
		for i := range n.Layers {
			l := &n.Layers[i]
			for _, p := range l.Inputs {
				n.Producer(l.ID, p.ID)
			}
			if l.Type == "Const" {
				l.Const()
			}
		}
	})
}

func must(v string, ok bool) string {
	if !ok {
		return "<missing>"
	}
	return v
}

// TestNilWeights: the nil weights of a network read without its .bin hold nothing, and reading a
// constant of them is an io error.
func TestNilWeights(t *testing.T) {
	var w *ir.Weights
	if w.Size() != 0 || w.BytesRead() != 0 || w.Name() != "" || w.Close() != nil {
		t.Errorf("nil weights: size %d, read %d, name %q, close %v", w.Size(), w.BytesRead(), w.Name(), w.Close())
	}
	c := ir.Const{Type: element.I64, Shape: []int64{2}, Offset: 8, Size: 16}
	if _, err := w.Ints(c, 64); !errors.Is(err, errcode.ErrIO) || !strings.Contains(err.Error(), "offset 8: no .bin was read") {
		t.Errorf("Ints: %v, want an io error", err)
	}
}
