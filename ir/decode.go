package ir

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"

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
	err = p.each(root, func(name []byte) error {
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
			return p.each(name, func(name []byte) error {
				if string(localName(name)) == "edge" {
					e, err := p.edge()
					if err != nil {
						return err
					}
					n.Edges = append(n.Edges, e)
				}
				return p.skip(name)
			})
		}
		return p.skip(name)
	})
	return n, err
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
		default:
			err = p.skip(name)
		}
		return err
	})
	return l, err
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

func (p *parser) edge() (Edge, error) {
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
	if e.FromLayer == "" || e.FromPort == "" || e.ToLayer == "" || e.ToPort == "" {
		return e, p.errorf("<edge> lacks one of from-layer, from-port, to-layer, to-port")
	}
	return e, nil
}
