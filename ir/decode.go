package ir

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/internal/slab"
	"github.com/reshape-go/reshape/shape"
)

// Decode reads a network from the XML of an IR .xml file, all of r. It checks the structure it
// relies on: a well-formed <net> root of version 10 or 11 (well-formed as encoding/xml's Token
// reads it, through the root's end tag; what follows it is not read), unique layer ids, parsable
// dims, and edges between existing ports with at most one edge into each input port. Entities and
// character references are decoded as encoding/xml decodes them. Errors wrap errcode.ErrSyntax (a
// dim beyond int64, errcode.ErrOverflow) and name the line.
func Decode(r io.Reader) (*Net, error) {
	s, err := newScanner(r)
	if err != nil {
		return nil, err
	}
	p := &parser{s: s}
	n, err := p.net()
	if err != nil {
		return nil, err
	}
	return n, n.index()
}

// parser reads a Net from the tokens of its scanner, matching end tags with start tags as Token
// does. What a Net keeps is cut from slabs: its strings from chunks of bytes, its dims, ports and
// attributes from blocks of their kinds, so that a layer takes a fraction of an allocation
// (BenchmarkDecode).
type parser struct {
	s *scanner
	// open holds the names of the elements skip is inside, reused from element to element.
	open [][]byte
	// names holds the attribute names met, each once.
	names map[string]xml.Name
	// chars is what strings are cut from; dims, ports and attrs what the lists of their kinds are.
	chars slab.Slab[byte]
	dims  slab.Slab[shape.Dim]
	ports slab.Slab[Port]
	attrs slab.Slab[xml.Attr]
	// port collects the dims of the port being read, buf the ports of an <input> or <output>, data
	// the attributes of a <data>, and text the character data of a <dim>.
	port []shape.Dim
	buf  []Port
	data []xml.Attr
	text []byte
}

func (p *parser) errorf(format string, args ...any) error {
	return p.s.syntaxError(p.s.end, fmt.Sprintf(format, args...))
}

// str returns a copy of b as a string, cut from the parser's chunks of string bytes
// (slab.String).
func (p *parser) str(b []byte) string { return slab.String(&p.chars, b) }

// name returns the qualified name b as encoding/xml splits it, stored once per name.
func (p *parser) name(b []byte) xml.Name {
	if n, ok := p.names[string(b)]; ok {
		return n
	}
	if p.names == nil {
		p.names = map[string]xml.Name{}
	}
	space, local := splitName(b)
	n := xml.Name{Space: string(space), Local: string(local)}
	p.names[string(b)] = n
	return n
}

// token returns the next start or end element, skipping character data.
func (p *parser) token() (kind, error) {
	for {
		if err := p.s.next(); err != nil {
			return 0, p.tokenError(err)
		}
		if p.s.kind != charData {
			return p.s.kind, nil
		}
	}
}

// tokenError is the error of the scanner inside an element: the end of the file, or its syntax
// error with its line.
func (p *parser) tokenError(err error) error {
	if err == io.EOF {
		return p.errorf("unexpected EOF")
	}
	return err
}

// closes checks that the end tag just read closes the element open, as Token checks it.
func (p *parser) closes(open []byte) error {
	if !bytes.Equal(p.s.name, open) {
		return p.errorf("element <%s> closed by </%s>", open, p.s.name)
	}
	return nil
}

// skip reads the element just opened, named name, through to its end tag, and its children's tags
// are matched as they come.
func (p *parser) skip(name []byte) error {
	p.open = append(p.open[:0], name)
	for len(p.open) > 0 {
		k, err := p.token()
		if err != nil {
			return err
		}
		if k == startTag {
			p.open = append(p.open, p.s.name)
			continue
		}
		if err := p.closes(p.open[len(p.open)-1]); err != nil {
			return err
		}
		p.open = p.open[:len(p.open)-1]
	}
	return nil
}

// attr returns the value of the attribute of the start tag just read whose local name is name.
func (p *parser) attr(name string) ([]byte, bool) {
	for _, a := range p.s.attrs {
		if string(localName(a.name)) == name {
			return a.value, true
		}
	}
	return nil, false
}

func (p *parser) net() (*Net, error) {
	for {
		if err := p.s.next(); err != nil {
			if err == io.EOF {
				return nil, errcode.Errorf(errcode.ErrSyntax, "line 1: no XML element, want an IR <net>")
			}
			return nil, err
		}
		if p.s.kind == endTag {
			return nil, p.errorf("unexpected end element </%s>", p.s.name)
		}
		if p.s.kind == startTag {
			break
		}
	}
	root := p.s.name
	if local := localName(root); string(local) != "net" {
		return nil, p.errorf("root element <%s>, want <net>", local)
	}
	n := &Net{}
	name, _ := p.attr("name")
	n.Name = string(name)
	v, _ := p.attr("version")
	var err error
	if n.Version, err = strconv.Atoi(string(v)); err != nil || (n.Version != 10 && n.Version != 11) {
		return nil, p.errorf("<net version=%q>: IR v10 and v11 are supported", v)
	}
	return n, p.network(root, n)
}

// network reads the <layers> and <edges> of the element parent, just opened (a <net>, or the
// <body> of a layer), into n, through to parent's end tag.
func (p *parser) network(parent []byte, n *Net) error {
	return p.each(parent, func(name []byte) error {
		switch string(localName(name)) {
		case "layers":
			return p.each(name, func(name []byte) error {
				if string(localName(name)) != "layer" {
					return p.skip(name)
				}
				l, err := p.layer(name)
				n.Layers = append(n.Layers, l)
				return err
			})
		case "edges":
			return p.edges(name, true, &n.Edges)
		}
		return p.skip(name)
	})
}

// each calls fn with the name of every child element of the element parent, just opened, up to
// its end tag, which must close it. fn reads the child through to its own end tag (with each,
// skip or dim); the child's attributes are the scanner's when fn is called.
func (p *parser) each(parent []byte, fn func(name []byte) error) error {
	for {
		k, err := p.token()
		if err != nil {
			return err
		}
		if k == endTag {
			return p.closes(parent)
		}
		if err := fn(p.s.name); err != nil {
			return err
		}
	}
}

func (p *parser) layer(name []byte) (Layer, error) {
	l := Layer{Line: p.s.lineAt(p.s.end)}
	for _, a := range p.s.attrs {
		switch string(localName(a.name)) {
		case "id":
			l.ID = p.str(a.value)
		case "name":
			l.Name = p.str(a.value)
		case "type":
			l.Type = p.str(a.value)
		case "version":
			l.Version = p.str(a.value)
		}
	}
	if l.ID == "" {
		return l, p.errorf("<layer name=%q> has no id", l.Name)
	}
	err := p.each(name, func(name []byte) error {
		var err error
		switch string(localName(name)) {
		case "data":
			p.data = p.data[:0]
			for _, a := range p.s.attrs {
				p.data = append(p.data, xml.Attr{Name: p.name(a.name), Value: p.str(a.value)})
			}
			// The first <data> takes its attributes, empty or not; the next add theirs.
			if l.Data == nil {
				l.Data = p.attrs.Clone(p.data)
				if l.Data == nil {
					l.Data = []xml.Attr{}
				}
			} else {
				l.Data = append(l.Data, p.data...)
			}
			return p.skip(name)
		case "input":
			l.Inputs, err = p.portList(name, l.Inputs)
		case "output":
			l.Outputs, err = p.portList(name, l.Outputs)
		case "body", "then_body", "else_body":
			b := l.body(string(localName(name)))
			if b.Net != nil {
				return p.errorf("%s %v has two <%s> elements", l.Type, &l, b.Name)
			}
			b.Net = &Net{Name: b.Name}
			err = p.network(name, b.Net)
		case "port_map", "then_port_map", "else_port_map":
			local := string(localName(name))
			b := l.body(strings.TrimSuffix(local, "port_map") + "body")
			err = p.portMap(name, b)
		case "back_edges":
			err = p.edges(name, false, &l.body("body").BackEdges)
		default:
			err = p.skip(name)
		}
		return err
	})
	if err == nil {
		for _, b := range l.Bodies {
			if b.Net == nil {
				return l, errcode.Errorf(errcode.ErrSyntax, "line %d: %s %v has a port map or back edges for <%s>, and no <%s>", l.Line, l.Type, &l, b.Name, b.Name)
			}
		}
	}
	return l, err
}

// body returns the layer's body of the given name, added when it has none yet.
func (l *Layer) body(name string) *Body {
	for i := range l.Bodies {
		if l.Bodies[i].Name == name {
			return &l.Bodies[i]
		}
	}
	l.Bodies = append(l.Bodies, Body{Name: name})
	return &l.Bodies[len(l.Bodies)-1]
}

// portMap reads the <input> and <output> entries of the port map parent, just opened, into b.
func (p *parser) portMap(parent []byte, b *Body) error {
	return p.each(parent, func(name []byte) error {
		local := string(localName(name))
		if local != "input" && local != "output" {
			return p.skip(name)
		}
		e := PortMapEntry{Line: p.s.lineAt(p.s.end), End: -1, Stride: 1, PartSize: 1}
		var ext, internal bool
		for _, a := range p.s.attrs {
			var dst *int64
			switch string(localName(a.name)) {
			case "external_port_id":
				dst, ext = &e.ExternalPort, true
			case "internal_layer_id":
				e.InternalLayer, internal = p.str(a.value), true
				continue
			case "axis":
				dst, e.Sliced = &e.Axis, true
			case "start":
				dst = &e.Start
			case "end":
				dst = &e.End
			case "stride":
				dst = &e.Stride
			case "part_size":
				dst = &e.PartSize
			case "purpose":
				e.Purpose = p.str(a.value)
				continue
			default:
				continue
			}
			v, err := strconv.ParseInt(string(a.value), 10, 64)
			if err != nil {
				return p.errorf("<%s %s=%q>: not an integer", local, localName(a.name), a.value)
			}
			*dst = v
		}
		if !ext || !internal {
			return p.errorf("<%s> of <%s> lacks external_port_id or internal_layer_id", local, parent)
		}
		if local == "input" {
			b.Inputs = append(b.Inputs, e)
		} else {
			b.Outputs = append(b.Outputs, e)
		}
		return p.skip(name)
	})
}

// portList appends the <port>s of the <input> or <output> parent to ports: they are collected in
// the parser's buffer first, and cut from its block of ports.
func (p *parser) portList(parent []byte, ports []Port) ([]Port, error) {
	p.buf = p.buf[:0]
	err := p.each(parent, func(name []byte) error {
		if string(localName(name)) != "port" {
			return p.skip(name)
		}
		var port Port
		for _, a := range p.s.attrs {
			switch string(localName(a.name)) {
			case "id":
				port.ID = p.str(a.value)
			case "precision":
				port.Precision = p.str(a.value)
			case "names":
				port.Names = p.str(a.value)
			}
		}
		if port.ID == "" {
			return p.errorf("<port> has no id")
		}
		err := p.portChildren(name, &port)
		p.buf = append(p.buf, port)
		return err
	})
	switch {
	case len(p.buf) == 0:
	case ports == nil:
		ports = p.ports.Clone(p.buf)
	default:
		ports = append(ports, p.buf...)
	}
	return ports, err
}

// portChildren reads the <dim> children of a <port>, and the layout of its <rt_info>, up to its
// end tag.
func (p *parser) portChildren(name []byte, port *Port) error {
	p.port = p.port[:0]
	err := p.each(name, func(name []byte) error {
		switch string(localName(name)) {
		case "dim":
			d, err := p.dim(name)
			p.port = append(p.port, d)
			return err
		case "rt_info":
			return p.each(name, func(name []byte) error {
				if n, _ := p.attr("name"); string(localName(name)) == "attribute" && string(n) == "layout" {
					layout, _ := p.attr("layout")
					port.Layout = p.str(layout)
				}
				return p.skip(name)
			})
		}
		return p.skip(name)
	})
	port.Shape.Dims = p.dims.Clone(p.port)
	return err
}

// dim reads the character data of the <dim> named name up to its end tag, as a dimension. A plain
// number, the common case, is read from its bytes without building a string.
func (p *parser) dim(name []byte) (shape.Dim, error) {
	p.text = p.text[:0]
	for {
		if err := p.s.next(); err != nil {
			return shape.Dim{}, p.tokenError(err)
		}
		switch p.s.kind {
		case charData:
			p.text = append(p.text, p.s.data...)
			continue
		case startTag:
			return shape.Dim{}, p.errorf("unexpected <%s> inside a text element", localName(p.s.name))
		}
		if err := p.closes(name); err != nil {
			return shape.Dim{}, err
		}
		if n, ok := digits(p.text); ok {
			return shape.Static(n), nil
		}
		return p.parseDim(string(p.text))
	}
}

func (p *parser) parseDim(text string) (shape.Dim, error) {
	d, err := shape.ParseDim(text)
	if err != nil {
		code := errcode.ErrSyntax
		if errors.Is(err, errcode.ErrOverflow) {
			code = errcode.ErrOverflow
		}
		return d, errcode.Errorf(code, "line %d: <dim>%s</dim>: %v", p.s.lineAt(p.s.end), text, err)
	}
	return d, nil
}

// digits reads a decimal number of at most 18 digits, which cannot overflow.
func digits(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// edges appends the <edge>s of the element parent, just opened (<edges>, <back_edges>), to dst;
// with ports, each must name its ports.
func (p *parser) edges(parent []byte, ports bool, dst *[]Edge) error {
	return p.each(parent, func(name []byte) error {
		if string(localName(name)) == "edge" {
			e, err := p.edge(ports)
			if err != nil {
				return err
			}
			*dst = append(*dst, e)
		}
		return p.skip(name)
	})
}

// edge reads the <edge> just opened; with ports, it must name its ports (a back edge may not).
func (p *parser) edge(ports bool) (Edge, error) {
	var e Edge
	for _, a := range p.s.attrs {
		switch string(localName(a.name)) {
		case "from-layer":
			e.FromLayer = p.str(a.value)
		case "from-port":
			e.FromPort = p.str(a.value)
		case "to-layer":
			e.ToLayer = p.str(a.value)
		case "to-port":
			e.ToPort = p.str(a.value)
		}
	}
	if e.FromLayer == "" || e.ToLayer == "" || ports && (e.FromPort == "" || e.ToPort == "") {
		return e, p.errorf("<edge> lacks one of from-layer, from-port, to-layer, to-port")
	}
	return e, nil
}
