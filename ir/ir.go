// Package ir reads OpenVINO IR models: the network of an .xml file (IR v10 and v11: layers, their
// ports and dims, and the edges between them) and the constants it points into in the .bin file.
//
// Every error wraps errcode.ErrSyntax (a file that does not follow the format) or errcode.ErrLimit
// (a configured bound exceeded), and names the file position: the XML line, or the .bin offset.
package ir

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// Net is an OpenVINO IR network, as its .xml file describes it.
type Net struct {
	Name    string
	Version int // the IR version: 10 or 11
	Layers  []Layer
	Edges   []Edge

	byID   map[string]int // layer id → index in Layers
	feeder map[portRef]int
}

// Layer is one <layer> of the network.
type Layer struct {
	ID, Name, Type, Version string
	// Data holds the attributes of the layer's <data> element (special_zero, element_type, shape,
	// offset, size, ...), in file order; Attr looks one up.
	Data    []xml.Attr
	Inputs  []Port
	Outputs []Port
	Line    int // the line of the <layer> start tag, for messages
}

// Port is an input or output <port> of a layer, with the partial shape its <dim> children give
// ("-1" and "?" are dynamic, "1..8" an interval).
type Port struct {
	ID        string
	Precision string // the precision attribute ("FP32", "I64"), "" when absent
	Names     string // the names attribute, "" when absent
	Shape     shape.Shape
	// Layout is the layout of its <rt_info> ("[N,C,H,W]"), "" when it has none.
	Layout string
}

// Edge connects the output port FromPort of layer FromLayer to the input port ToPort of layer
// ToLayer; all four are ids as the file writes them.
type Edge struct {
	FromLayer, FromPort, ToLayer, ToPort string
}

type portRef struct{ layer, port string }

// String describes the layer for messages: `layer "5" ("name", line 12)`.
func (l *Layer) String() string {
	return "layer " + strconv.Quote(l.ID) + " (" + strconv.Quote(l.Name) + ", line " + strconv.Itoa(l.Line) + ")"
}

// Attr returns the value of the attribute name of the layer's <data> element.
func (l *Layer) Attr(name string) (value string, ok bool) {
	for _, a := range l.Data {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// Layer returns the layer with the given id.
func (n *Net) Layer(id string) (*Layer, bool) {
	i, ok := n.byID[id]
	if !ok {
		return nil, false
	}
	return &n.Layers[i], true
}

// Producer returns the layer, and its output port, whose output feeds input port inputPort of the
// layer layerID; ok is false when no edge does.
func (n *Net) Producer(layerID, inputPort string) (l *Layer, out *Port, ok bool) {
	e, ok := n.feeder[portRef{layerID, inputPort}]
	if !ok {
		return nil, nil, false
	}
	edge := n.Edges[e]
	l, ok = n.Layer(edge.FromLayer)
	if !ok {
		return nil, nil, false
	}
	for i := range l.Outputs {
		if l.Outputs[i].ID == edge.FromPort {
			return l, &l.Outputs[i], true
		}
	}
	return nil, nil, false
}

// Decode reads a network from the XML of an IR .xml file. It checks the structure it relies on:
// a well-formed <net> root of version 10 or 11, unique layer ids, parsable dims, and edges between
// existing ports with at most one edge into each input port. Errors wrap errcode.ErrSyntax and name
// the line.
func Decode(r io.Reader) (*Net, error) {
	p := &parser{d: xml.NewDecoder(r)}
	n, err := p.net()
	if err != nil {
		return nil, err
	}
	return n, n.index()
}

// parser reads the tokens of encoding/xml's RawToken, which neither translates namespaces (IR has
// none) nor matches end tags with start tags: each and skip match them, so that a file is as
// well-formed as Token would require, in a quarter less time and a fifth fewer allocations
// (BenchmarkDecode).
type parser struct {
	d *xml.Decoder
	// open holds the names of the elements skip is inside, reused from element to element.
	open []xml.Name
	// dims is the block the ports' dims are cut from, a few hundred ports to an allocation.
	dims []shape.Dim
	// port collects the dims of the port being read, and buf the ports of an <input> or <output>.
	port []shape.Dim
	buf  []Port
}

func (p *parser) errorf(format string, args ...any) error {
	line, _ := p.d.InputPos()
	return errcode.Errorf(errcode.ErrSyntax, "line %d: %s", line, fmt.Sprintf(format, args...))
}

// token returns the next start or end element, skipping text, comments, processing instructions
// and directives.
func (p *parser) token() (xml.Token, error) {
	for {
		tok, err := p.d.RawToken()
		if err != nil {
			return nil, p.tokenError(err)
		}
		switch tok.(type) {
		case xml.StartElement, xml.EndElement:
			return tok, nil
		}
	}
}

// tokenError is the error of RawToken inside an element: the end of the file, or its syntax error
// with its line.
func (p *parser) tokenError(err error) error {
	var se *xml.SyntaxError
	switch {
	case err == io.EOF:
		return p.errorf("unexpected EOF")
	case errors.As(err, &se):
		return errcode.Errorf(errcode.ErrSyntax, "line %d: %s", se.Line, se.Msg)
	}
	return p.errorf("%v", err)
}

// qualified writes an element's name as the file does: prefix:local.
func qualified(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// closes checks that the end element end closes the element open, as Token checks it.
func (p *parser) closes(end xml.EndElement, open xml.Name) error {
	if end.Name != open {
		return p.errorf("element <%s> closed by </%s>", qualified(open), qualified(end.Name))
	}
	return nil
}

// skip reads the element se, just opened, through to its end tag, and its children's tags are
// matched as they come.
func (p *parser) skip(se xml.StartElement) error {
	p.open = append(p.open[:0], se.Name)
	for len(p.open) > 0 {
		tok, err := p.token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			p.open = append(p.open, t.Name)
		case xml.EndElement:
			if err := p.closes(t, p.open[len(p.open)-1]); err != nil {
				return err
			}
			p.open = p.open[:len(p.open)-1]
		}
	}
	return nil
}

func attr(se xml.StartElement, name string) (string, bool) {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

func (p *parser) net() (*Net, error) {
	var root xml.StartElement
	for {
		tok, err := p.d.RawToken()
		if err != nil {
			if err == io.EOF {
				return nil, errcode.Errorf(errcode.ErrSyntax, "line 1: no XML element, want an IR <net>")
			}
			return nil, p.tokenError(err)
		}
		if end, ok := tok.(xml.EndElement); ok {
			return nil, p.errorf("unexpected end element </%s>", qualified(end.Name))
		}
		if se, ok := tok.(xml.StartElement); ok {
			root = se
			break
		}
	}
	if root.Name.Local != "net" {
		return nil, p.errorf("root element <%s>, want <net>", root.Name.Local)
	}
	n := &Net{}
	n.Name, _ = attr(root, "name")
	v, _ := attr(root, "version")
	var err error
	if n.Version, err = strconv.Atoi(v); err != nil || (n.Version != 10 && n.Version != 11) {
		return nil, p.errorf("<net version=%q>: IR v10 and v11 are supported", v)
	}
	err = p.each(root, func(se xml.StartElement) error {
		switch se.Name.Local {
		case "layers":
			return p.each(se, func(se xml.StartElement) error {
				if se.Name.Local != "layer" {
					return p.skip(se)
				}
				l, err := p.layer(se)
				n.Layers = append(n.Layers, l)
				return err
			})
		case "edges":
			return p.each(se, func(se xml.StartElement) error {
				if se.Name.Local == "edge" {
					e, err := p.edge(se)
					if err != nil {
						return err
					}
					n.Edges = append(n.Edges, e)
				}
				return p.skip(se)
			})
		}
		return p.skip(se)
	})
	return n, err
}

// each calls fn for every child element of the element parent, just opened, up to its end tag,
// which must close it. fn reads the child through to its own end tag (with each, skip or text).
func (p *parser) each(parent xml.StartElement, fn func(se xml.StartElement) error) error {
	for {
		tok, err := p.token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return p.closes(t, parent.Name)
		case xml.StartElement:
			if err := fn(t); err != nil {
				return err
			}
		}
	}
}

func (p *parser) layer(se xml.StartElement) (Layer, error) {
	line, _ := p.d.InputPos()
	l := Layer{Line: line}
	for _, a := range se.Attr {
		switch a.Name.Local {
		case "id":
			l.ID = a.Value
		case "name":
			l.Name = a.Value
		case "type":
			l.Type = a.Value
		case "version":
			l.Version = a.Value
		}
	}
	if l.ID == "" {
		return l, p.errorf("<layer name=%q> has no id", l.Name)
	}
	err := p.each(se, func(se xml.StartElement) error {
		var err error
		switch se.Name.Local {
		case "data":
			// RawToken gives every start element attributes of its own: the first <data> keeps them.
			if l.Data == nil {
				l.Data = se.Attr
			} else {
				l.Data = append(l.Data, se.Attr...)
			}
			return p.skip(se)
		case "input":
			l.Inputs, err = p.ports(se, l.Inputs)
		case "output":
			l.Outputs, err = p.ports(se, l.Outputs)
		default:
			err = p.skip(se)
		}
		return err
	})
	return l, err
}

// ports appends the <port>s of the <input> or <output> parent to ports, in one allocation: they
// are collected in the parser's buffer first.
func (p *parser) ports(parent xml.StartElement, ports []Port) ([]Port, error) {
	p.buf = p.buf[:0]
	err := p.each(parent, func(se xml.StartElement) error {
		if se.Name.Local != "port" {
			return p.skip(se)
		}
		var port Port
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "id":
				port.ID = a.Value
			case "precision":
				port.Precision = a.Value
			case "names":
				port.Names = a.Value
			}
		}
		if port.ID == "" {
			return p.errorf("<port> has no id")
		}
		err := p.portChildren(se, &port)
		p.buf = append(p.buf, port)
		return err
	})
	return append(ports, p.buf...), err
}

// portChildren reads the <dim> children of a <port>, and the layout of its <rt_info>, up to its
// end tag.
func (p *parser) portChildren(se xml.StartElement, port *Port) error {
	p.port = p.port[:0]
	err := p.each(se, func(se xml.StartElement) error {
		switch se.Name.Local {
		case "dim":
			d, err := p.dim(se)
			p.port = append(p.port, d)
			return err
		case "rt_info":
			return p.each(se, func(se xml.StartElement) error {
				if name, _ := attr(se, "name"); se.Name.Local == "attribute" && name == "layout" {
					port.Layout, _ = attr(se, "layout")
				}
				return p.skip(se)
			})
		}
		return p.skip(se)
	})
	port.Shape.Dims = p.keep(p.port)
	return err
}

// keep returns a copy of dims cut from the parser's block, with no room to grow into the next
// port's: a port's dims take no allocation of their own.
func (p *parser) keep(dims []shape.Dim) []shape.Dim {
	if len(dims) > cap(p.dims)-len(p.dims) {
		p.dims = make([]shape.Dim, 0, max(1024, len(dims)))
	}
	start := len(p.dims)
	p.dims = append(p.dims, dims...)
	return p.dims[start:len(p.dims):len(p.dims)]
}

// dim reads the text of the <dim> se up to its end tag, as a dimension. A plain number, the common
// case, is read from the token's bytes without building a string.
func (p *parser) dim(se xml.StartElement) (shape.Dim, error) {
	tok, err := p.d.RawToken()
	if err != nil {
		return shape.Dim{}, p.tokenError(err)
	}
	if cd, ok := tok.(xml.CharData); ok {
		if n, ok := digits(cd); ok {
			tok, err = p.d.RawToken()
			if end, ok := tok.(xml.EndElement); ok && err == nil {
				return shape.Static(n), p.closes(end, se.Name)
			}
			// Not a lone number after all: take the slow path with what is left.
			text, err := p.restOfText(se, string(cd), tok, err)
			if err != nil {
				return shape.Dim{}, err
			}
			return p.parseDim(text)
		}
	}
	text, err := p.restOfText(se, "", tok, nil)
	if err != nil {
		return shape.Dim{}, err
	}
	return p.parseDim(text)
}

func (p *parser) parseDim(text string) (shape.Dim, error) {
	d, err := shape.ParseDim(text)
	if err != nil {
		line, _ := p.d.InputPos()
		code := errcode.ErrSyntax
		if errors.Is(err, errcode.ErrOverflow) {
			code = errcode.ErrOverflow
		}
		return d, errcode.Errorf(code, "line %d: <dim>%s</dim>: %v", line, text, err)
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

// restOfText returns the character data of the text element se up to its end tag: prefix, then
// tok (already read, with its error) and the tokens after it. Comments and processing
// instructions are left out.
func (p *parser) restOfText(se xml.StartElement, prefix string, tok xml.Token, err error) (string, error) {
	b := []byte(prefix)
	for {
		if err != nil {
			return "", p.tokenError(err)
		}
		switch t := tok.(type) {
		case xml.CharData:
			b = append(b, t...)
		case xml.StartElement:
			return "", p.errorf("unexpected <%s> inside a text element", t.Name.Local)
		case xml.EndElement:
			return string(b), p.closes(t, se.Name)
		}
		tok, err = p.d.RawToken()
	}
}

func (p *parser) edge(se xml.StartElement) (Edge, error) {
	var e Edge
	for _, a := range se.Attr {
		switch a.Name.Local {
		case "from-layer":
			e.FromLayer = a.Value
		case "from-port":
			e.FromPort = a.Value
		case "to-layer":
			e.ToLayer = a.Value
		case "to-port":
			e.ToPort = a.Value
		}
	}
	if e.FromLayer == "" || e.FromPort == "" || e.ToLayer == "" || e.ToPort == "" {
		return e, p.errorf("<edge> lacks one of from-layer, from-port, to-layer, to-port")
	}
	return e, nil
}

// index builds the lookups and checks ids and edges.
func (n *Net) index() error {
	n.byID = make(map[string]int, len(n.Layers))
	for i, l := range n.Layers {
		if j, dup := n.byID[l.ID]; dup {
			return errcode.Errorf(errcode.ErrSyntax, "line %d: layer id %q is used already by layer %q on line %d",
				l.Line, l.ID, n.Layers[j].Name, n.Layers[j].Line)
		}
		n.byID[l.ID] = i
	}
	n.feeder = make(map[portRef]int, len(n.Edges))
	for i, e := range n.Edges {
		from, ok := n.Layer(e.FromLayer)
		if !ok {
			return errcode.Errorf(errcode.ErrSyntax, "edge %d: from-layer %q does not exist", i, e.FromLayer)
		}
		if !hasPort(from.Outputs, e.FromPort) {
			return errcode.Errorf(errcode.ErrSyntax, "edge %d: layer %q (line %d) has no output port %q", i, e.FromLayer, from.Line, e.FromPort)
		}
		to, ok := n.Layer(e.ToLayer)
		if !ok {
			return errcode.Errorf(errcode.ErrSyntax, "edge %d: to-layer %q does not exist", i, e.ToLayer)
		}
		if !hasPort(to.Inputs, e.ToPort) {
			return errcode.Errorf(errcode.ErrSyntax, "edge %d: layer %q (line %d) has no input port %q", i, e.ToLayer, to.Line, e.ToPort)
		}
		ref := portRef{e.ToLayer, e.ToPort}
		if j, dup := n.feeder[ref]; dup {
			return errcode.Errorf(errcode.ErrSyntax, "edges %d and %d both feed input port %q of layer %q", j, i, e.ToPort, e.ToLayer)
		}
		n.feeder[ref] = i
	}
	return n.acyclic()
}

// acyclic returns an error naming a layer on a cycle when the edges form one: a network is a
// directed acyclic graph. It sorts the layers topologically (Kahn's algorithm), over the edges
// grouped by their layer (from-layer for next, to-layer for prev): four allocations in all.
func (n *Net) acyclic() error {
	indegree := make([]int, len(n.Layers))
	// next[nextAt[i]:nextAt[i+1]] are the layers the edges from layer i lead to; prev likewise.
	at := make([]int, 2*(len(n.Layers)+1))
	nextAt, prevAt := at[:len(n.Layers)+1], at[len(n.Layers)+1:]
	for _, e := range n.Edges {
		nextAt[n.byID[e.FromLayer]+1]++
		prevAt[n.byID[e.ToLayer]+1]++
	}
	for i := range n.Layers {
		nextAt[i+1] += nextAt[i]
		prevAt[i+1] += prevAt[i]
	}
	links := make([]int, 2*len(n.Edges))
	next, prev := links[:len(n.Edges)], links[len(n.Edges):]
	fill := make([]int, 2*len(n.Layers))
	nextFill, prevFill := fill[:len(n.Layers)], fill[len(n.Layers):]
	for _, e := range n.Edges {
		from, to := n.byID[e.FromLayer], n.byID[e.ToLayer]
		next[nextAt[from]+nextFill[from]] = to
		nextFill[from]++
		prev[prevAt[to]+prevFill[to]] = from
		prevFill[to]++
		indegree[to]++
	}
	queue := fill[:0] // the fill counts are spent: the queue reuses their memory
	for i, d := range indegree {
		if d == 0 {
			queue = append(queue, i)
		}
	}
	for k := 0; k < len(queue); k++ {
		i := queue[k]
		for _, j := range next[nextAt[i]:nextAt[i+1]] {
			if indegree[j]--; indegree[j] == 0 {
				queue = append(queue, j)
			}
		}
	}
	if len(queue) == len(n.Layers) {
		return nil
	}
	// Every layer left has a predecessor left: walking back through them comes round to a layer
	// on a cycle, in at most as many steps as there are layers.
	i := slices.IndexFunc(indegree, func(d int) bool { return d > 0 })
	for range n.Layers {
		for _, j := range prev[prevAt[i]:prevAt[i+1]] {
			if indegree[j] > 0 {
				i = j
				break
			}
		}
	}
	l := &n.Layers[i]
	return errcode.Errorf(errcode.ErrSyntax, "line %d: the edges form a cycle through %s %v", l.Line, l.Type, l)
}

func hasPort(ports []Port, id string) bool {
	for _, p := range ports {
		if p.ID == id {
			return true
		}
	}
	return false
}
