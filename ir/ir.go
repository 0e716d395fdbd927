// Package ir reads OpenVINO IR models: the network of an .xml file (IR v10 and v11: layers, their
// ports and dims, and the edges between them) and the constants it points into in the .bin file.
//
// Every error wraps errcode.ErrSyntax (a file that does not follow the format) or errcode.ErrLimit
// (a configured bound exceeded), and names the file position: the XML line, or the .bin offset.
package ir

import (
	"encoding/xml"
	"fmt"
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
	// Bodies are the networks the layer runs: a TensorIterator's or Loop's <body>, an If's
	// <then_body> and <else_body>, each with its port map; nil for other layers.
	Bodies []Body `json:",omitempty"`
}

// Body is a network a TensorIterator, Loop or If layer runs, as the layer's children give it: the
// element that holds it ("body", "then_body", "else_body"), the network (its Parameters and
// Results are its inputs and outputs), the entries of its port map (<port_map> for "body",
// <then_port_map> and <else_port_map> for an If's), and its back edges (<back_edges>: a body
// Result whose value is a body Parameter's at the next iteration).
type Body struct {
	Name      string
	Net       *Net
	Inputs    []PortMapEntry // the <input> entries, in file order
	Outputs   []PortMapEntry // the <output> entries, in file order
	BackEdges []Edge         // FromLayer a Result, ToLayer a Parameter; the ports may be ""
}

// PortMapEntry is one <input> or <output> entry of a port map: the layer's port (ExternalPort,
// external_port_id: an input's index, or an output's port id; -1 for none) and the body's
// Parameter or Result (InternalLayer, internal_layer_id). With Sliced (an axis attribute), a
// TensorIterator or Loop slices the input along Axis, or concatenates the output's values of every
// iteration along it, from Start to End (inclusive; negative counts from the end) by Stride, in
// parts of PartSize; their defaults are 0, -1, 1 and 1. Purpose is a Loop's "current_iteration"
// (an input) or "execution_condition" (an output), "" for others.
type PortMapEntry struct {
	ExternalPort                       int64
	InternalLayer                      string
	Sliced                             bool
	Axis, Start, End, Stride, PartSize int64
	Purpose                            string
	Line                               int
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
	if err := n.acyclic(); err != nil {
		return err
	}
	for i := range n.Layers {
		for k := range n.Layers[i].Bodies {
			if err := n.Layers[i].Bodies[k].index(&n.Layers[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// index indexes the body's network and checks that its port map and back edges name its
// Parameters and Results: an input entry or the end of a back edge a Parameter, an output entry or
// the start of a back edge a Result. l is the layer that holds it, for messages.
func (b *Body) index(l *Layer) error {
	if err := b.Net.index(); err != nil {
		return fmt.Errorf("%s %v: <%s>: %w", l.Type, l, b.Name, err)
	}
	is := func(id, typ, what string, line int) error {
		if bl, ok := b.Net.Layer(id); !ok || bl.Type != typ {
			return errcode.Errorf(errcode.ErrSyntax, "line %d: %s %v: %s %q of <%s> is not a %s of it", line, l.Type, l, what, id, b.Name, typ)
		}
		return nil
	}
	for _, e := range b.Inputs {
		if err := is(e.InternalLayer, "Parameter", "input internal_layer_id", e.Line); err != nil {
			return err
		}
	}
	for _, e := range b.Outputs {
		if err := is(e.InternalLayer, "Result", "output internal_layer_id", e.Line); err != nil {
			return err
		}
	}
	for _, e := range b.BackEdges {
		if err := is(e.FromLayer, "Result", "back edge from-layer", l.Line); err != nil {
			return err
		}
		if err := is(e.ToLayer, "Parameter", "back edge to-layer", l.Line); err != nil {
			return err
		}
	}
	return nil
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
