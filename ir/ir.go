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
// a <net> root of version 10 or 11, unique layer ids, parsable dims, and edges between existing
// ports with at most one edge into each input port. Errors wrap errcode.ErrSyntax and name the line.
func Decode(r io.Reader) (*Net, error) {
	p := &parser{d: xml.NewDecoder(r)}
	n, err := p.net()
	if err != nil {
		return nil, err
	}
	return n, n.index()
}

type parser struct {
	d *xml.Decoder
}

func (p *parser) errorf(format string, args ...any) error {
	line, _ := p.d.InputPos()
	return errcode.Errorf(errcode.ErrSyntax, "line %d: %s", line, fmt.Sprintf(format, args...))
}

// token returns the next start or end element, skipping text, comments and processing instructions.
func (p *parser) token() (xml.Token, error) {
	for {
		tok, err := p.d.Token()
		if err != nil {
			if err == io.EOF {
				return nil, p.errorf("unexpected end of file")
			}
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, errcode.Errorf(errcode.ErrSyntax, "line %d: %s", se.Line, se.Msg)
			}
			return nil, p.errorf("%v", err)
		}
		switch tok.(type) {
		case xml.StartElement, xml.EndElement:
			return tok, nil
		}
	}
}

func (p *parser) skip() error {
	if err := p.d.Skip(); err != nil {
		return p.errorf("%v", err)
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
		tok, err := p.d.Token()
		if err != nil {
			if err == io.EOF {
				return nil, errcode.Errorf(errcode.ErrSyntax, "line 1: no XML element, want an IR <net>")
			}
			return nil, p.errorf("%v", err)
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
	err = p.each(func(se xml.StartElement) error {
		switch se.Name.Local {
		case "layers":
			return p.each(func(se xml.StartElement) error {
				if se.Name.Local != "layer" {
					return p.skip()
				}
				l, err := p.layer(se)
				n.Layers = append(n.Layers, l)
				return err
			})
		case "edges":
			return p.each(func(se xml.StartElement) error {
				if se.Name.Local == "edge" {
					e, err := p.edge(se)
					if err != nil {
						return err
					}
					n.Edges = append(n.Edges, e)
				}
				return p.skip()
			})
		}
		return p.skip()
	})
	return n, err
}

// each calls fn for every child element of the element just opened, up to its end tag. fn reads
// the child through to its own end tag (with each, skip or text).
func (p *parser) each(fn func(se xml.StartElement) error) error {
	for {
		tok, err := p.token()
		if err != nil {
			return err
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			return nil
		}
		if err := fn(se); err != nil {
			return err
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
	err := p.each(func(se xml.StartElement) error {
		var err error
		switch se.Name.Local {
		case "data":
			l.Data = append(l.Data, se.Attr...)
			return p.skip()
		case "input":
			l.Inputs, err = p.ports(l.Inputs)
		case "output":
			l.Outputs, err = p.ports(l.Outputs)
		default:
			err = p.skip()
		}
		return err
	})
	return l, err
}

func (p *parser) ports(ports []Port) ([]Port, error) {
	err := p.each(func(se xml.StartElement) error {
		if se.Name.Local != "port" {
			return p.skip()
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
		err := p.portChildren(&port)
		ports = append(ports, port)
		return err
	})
	return ports, err
}

// portChildren reads the <dim> children of a <port>, and the layout of its <rt_info>, up to its
// end tag.
func (p *parser) portChildren(port *Port) error {
	port.Shape.Dims = []shape.Dim{}
	return p.each(func(se xml.StartElement) error {
		switch se.Name.Local {
		case "dim":
			d, err := p.dim()
			port.Shape.Dims = append(port.Shape.Dims, d)
			return err
		case "rt_info":
			return p.each(func(se xml.StartElement) error {
				if name, _ := attr(se, "name"); se.Name.Local == "attribute" && name == "layout" {
					port.Layout, _ = attr(se, "layout")
				}
				return p.skip()
			})
		}
		return p.skip()
	})
}

// dim reads the text of a <dim> up to its end tag, as a dimension. A plain number, the common case,
// is read from the token's bytes without building a string.
func (p *parser) dim() (shape.Dim, error) {
	tok, err := p.d.Token()
	if err != nil {
		return shape.Dim{}, p.errorf("%v", err)
	}
	if cd, ok := tok.(xml.CharData); ok {
		if n, ok := digits(cd); ok {
			if tok, err = p.d.Token(); err == nil {
				if _, end := tok.(xml.EndElement); end {
					return shape.Static(n), nil
				}
			}
			// Not a lone number after all: take the slow path with what is left.
			text, err := p.restOfText(string(cd), tok, err)
			if err != nil {
				return shape.Dim{}, err
			}
			return p.parseDim(text)
		}
	}
	text, err := p.restOfText("", tok, nil)
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

// restOfText returns the character data of the current element up to its end tag: prefix, then
// tok (already read, with its error) and the tokens after it.
func (p *parser) restOfText(prefix string, tok xml.Token, err error) (string, error) {
	b := []byte(prefix)
	for {
		if err != nil {
			return "", p.errorf("%v", err)
		}
		switch t := tok.(type) {
		case xml.CharData:
			b = append(b, t...)
		case xml.StartElement:
			return "", p.errorf("unexpected <%s> inside a text element", t.Name.Local)
		case xml.EndElement:
			return string(b), nil
		}
		tok, err = p.d.Token()
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
// directed acyclic graph. It sorts the layers topologically (Kahn's algorithm).
func (n *Net) acyclic() error {
	indegree := make([]int, len(n.Layers))
	next := make([][]int, len(n.Layers))
	prev := make([][]int, len(n.Layers))
	for _, e := range n.Edges {
		from, to := n.byID[e.FromLayer], n.byID[e.ToLayer]
		next[from] = append(next[from], to)
		prev[to] = append(prev[to], from)
		indegree[to]++
	}
	queue := make([]int, 0, len(n.Layers))
	for i, d := range indegree {
		if d == 0 {
			queue = append(queue, i)
		}
	}
	for k := 0; k < len(queue); k++ {
		for _, j := range next[queue[k]] {
			if indegree[j]--; indegree[j] == 0 {
				queue = append(queue, j)
			}
		}
	}
	if len(queue) == len(n.Layers) {
		return nil
	}
	// Every layer left has a predecessor left: walking back through them comes round to a layer
	// on a cycle.
	i := slices.IndexFunc(indegree, func(d int) bool { return d > 0 })
	seen := make(map[int]bool)
	for !seen[i] {
		seen[i] = true
		for _, j := range prev[i] {
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
