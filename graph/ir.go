package graph

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// FromIR returns the graph of an OpenVINO IR network (IR v10 and v11), its constants read from w:
//
//   - each Parameter layer is a graph input named by the layer's name, declared by its <data>
//     element_type and shape (which keeps the intervals, "1..8", that IR v10 ports write as -1) or,
//     failing those, by its output port; Infer makes each unnamed dynamic dim of it the symbol
//     NAME:AXIS;
//   - each Const layer is a constant whose Load reads the .bin through w (integers of every
//     element type the IR has, packed u1, u4 and i4 included, booleans as 0 and 1, and every
//     floating-point type); with w nil, constants have their type and shape but no values;
//   - each Result layer names a graph output, the tensor that feeds it;
//   - every other layer is a node: Op is the layer type, Domain DomainOpenVINO, Version N of the
//     layer's version "opsetN", and its attributes the <data> attributes as text (AttrText). A
//     layer of another version (an extension's) gets the domain DomainOpenVINO+"/"+version, for
//     which there are no rules.
//
// The tensor of output port P of layer L is named IRTensor(L, P), "L:P", except that of a
// Parameter, which is the Parameter's name; node inputs name the tensors the edges feed them, in
// the order of the layer's input ports. Every output port's precision and dims go into
// Graph.Declared, so that a layer without a rule gets its declared shape.
//
// Errors wrap errcode.ErrSyntax and name the layer by type, id, name and line: an input port no
// edge feeds, a Result without input, two Parameters of one name (or a Parameter named like
// another layer's output), a Const whose <data> does not follow Constant-1 or whose bytes lie
// past the end of w.
func FromIR(net *ir.Net, w *ir.Weights) (*Graph, error) {
	g, _, _, err := fromIR(net, w)
	return g, err
}

// fromIR is FromIR, which also returns the ids of the network's Parameter and Result layers in
// the order of the graph's Inputs and Outputs, to which a body's port map refers.
func fromIR(net *ir.Net, w *ir.Weights) (g *Graph, params, results []string, err error) {
	ports, consts := 0, 0
	for i := range net.Layers {
		ports += len(net.Layers[i].Outputs)
		if net.Layers[i].Type == "Const" {
			consts++
		}
	}
	g = &Graph{Name: net.Name, Nodes: make([]Node, 0, len(net.Layers)-consts), Consts: make(map[string]*Const, consts), Declared: make(map[string]Decl, ports)}
	// The tensor names of the output ports.
	tensors := make(map[[2]string]string, ports)
	byName := map[string]*ir.Layer{}
	for i := range net.Layers {
		l := &net.Layers[i]
		if l.Type == "Parameter" {
			continue
		}
		for _, p := range l.Outputs {
			tensors[[2]string{l.ID, p.ID}] = IRTensor(l.ID, p.ID)
		}
	}
	// The element types of the ports' precisions, parsed once each.
	precisions := map[string]element.Type{}
	for i := range net.Layers {
		l := &net.Layers[i]
		if l.Type != "Parameter" {
			continue
		}
		name := l.Name
		if name == "" && len(l.Outputs) > 0 {
			name = IRTensor(l.ID, l.Outputs[0].ID)
		}
		if prev, dup := byName[name]; dup {
			return nil, nil, nil, errcode.Errorf(errcode.ErrSyntax, "Parameter %v: Parameter %v has the name %q already", l, prev, name)
		}
		if id, port, ok := irPort(name); ok && tensors[[2]string{id, port}] == name {
			return nil, nil, nil, errcode.Errorf(errcode.ErrSyntax, "Parameter %v: its name %q names output port %q of layer %q", l, name, port, id)
		}
		byName[name] = l
		params = append(params, l.ID)
		for _, p := range l.Outputs {
			tensors[[2]string{l.ID, p.ID}] = name
		}
		g.Inputs = append(g.Inputs, Input{Name: name, Decl: irParamDecl(l)})
	}
	for i := range net.Layers {
		l := &net.Layers[i]
		inputs := make([]string, len(l.Inputs))
		for k, p := range l.Inputs {
			src, out, ok := net.Producer(l.ID, p.ID)
			if !ok {
				return nil, nil, nil, errcode.Errorf(errcode.ErrSyntax, "%s %v: no edge feeds input port %q", l.Type, l, p.ID)
			}
			inputs[k] = tensors[[2]string{src.ID, out.ID}]
		}
		switch l.Type {
		case "Parameter":
			continue
		case "Result":
			if len(inputs) == 0 {
				return nil, nil, nil, errcode.Errorf(errcode.ErrSyntax, "Result %v has no input port", l)
			}
			g.Outputs = append(g.Outputs, inputs[0])
			results = append(results, l.ID)
			continue
		}
		outputs := make([]string, len(l.Outputs))
		for k, p := range l.Outputs {
			outputs[k] = tensors[[2]string{l.ID, p.ID}]
			t, ok := precisions[p.Precision]
			if !ok {
				t, _ = element.Parse(p.Precision)
				precisions[p.Precision] = t
			}
			g.Declared[outputs[k]] = shapeDecl(p.Shape, t)
		}
		if l.Type == "Const" {
			if len(outputs) != 1 || len(inputs) != 0 {
				return nil, nil, nil, errcode.Errorf(errcode.ErrSyntax, "Const %v: %d input and %d output ports, want 0 and 1", l, len(inputs), len(outputs))
			}
			c, err := irConst(l, w, outputs[0])
			if err != nil {
				return nil, nil, nil, err
			}
			g.Consts[outputs[0]] = c
			continue
		}
		n := Node{Name: l.Name, Op: l.Type, Domain: DomainOpenVINO, Inputs: inputs, Outputs: outputs, Attrs: make([]Attr, len(l.Data))}
		if v, ok := strings.CutPrefix(l.Version, "opset"); ok {
			n.Version, _ = strconv.ParseInt(v, 10, 64)
		}
		if n.Version <= 0 {
			n.Domain += "/" + l.Version
		}
		for k, a := range l.Data {
			n.Attrs[k] = Attr{Name: a.Name.Local, Kind: AttrText, Text: a.Value}
		}
		for k := range l.Bodies {
			b := &l.Bodies[k]
			bg, bparams, bresults, err := fromIR(b.Net, w)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("%s %v: <%s>: %w", l.Type, l, b.Name, err)
			}
			if bg.Ports, err = irPortMap(l, b, bparams, bresults); err != nil {
				return nil, nil, nil, err
			}
			n.Attrs = append(n.Attrs, Attr{Name: b.Name, Kind: AttrGraph, Graph: bg})
		}
		g.Nodes = append(g.Nodes, n)
	}
	return g, params, results, nil
}

// irPortMap returns the PortMap of the body b of layer l, whose graph's Inputs are the Parameters
// params and Outputs the Results results (layer ids), as OpenVINO's IR reader reads it: an input
// entry's external_port_id is the index of the layer's input (-1: none), and the output entries
// of a non-negative external_port_id are the layer's outputs in its ascending order. The errors,
// wrapping errcode.ErrSyntax, are for an input beyond the layer's, an output port named twice and
// more output entries than the layer has outputs.
func irPortMap(l *ir.Layer, b *ir.Body, params, results []string) (*PortMap, error) {
	pm := &PortMap{CurrentIteration: -1, ExecutionCondition: -1}
	link := func(e *ir.PortMapEntry, port, body int) PortLink {
		return PortLink{Port: port, Body: body, Sliced: e.Sliced, Axis: e.Axis, Start: e.Start, End: e.End, Stride: e.Stride, PartSize: e.PartSize}
	}
	for i := range b.Inputs {
		e := &b.Inputs[i]
		k := slices.Index(params, e.InternalLayer)
		switch {
		case e.Purpose == "current_iteration":
			pm.CurrentIteration = k
		case e.ExternalPort >= int64(len(l.Inputs)):
			return nil, errcode.Errorf(errcode.ErrSyntax, "line %d: %s %v: <%s> input external_port_id=%d, and the layer has %d inputs",
				e.Line, l.Type, l, b.Name, e.ExternalPort, len(l.Inputs))
		case e.ExternalPort >= 0:
			pm.Inputs = append(pm.Inputs, link(e, int(e.ExternalPort), k))
		}
	}
	var outs []*ir.PortMapEntry
	for i := range b.Outputs {
		e := &b.Outputs[i]
		switch {
		case e.Purpose == "execution_condition":
			pm.ExecutionCondition = slices.Index(results, e.InternalLayer)
		case e.ExternalPort >= 0:
			if j := slices.IndexFunc(outs, func(o *ir.PortMapEntry) bool { return o.ExternalPort == e.ExternalPort }); j >= 0 {
				return nil, errcode.Errorf(errcode.ErrSyntax, "line %d: %s %v: <%s> maps output external_port_id=%d twice (line %d)",
					e.Line, l.Type, l, b.Name, e.ExternalPort, outs[j].Line)
			}
			outs = append(outs, e)
		}
	}
	if len(outs) > len(l.Outputs) {
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s %v: <%s> maps %d outputs, and the layer has %d", l.Type, l, b.Name, len(outs), len(l.Outputs))
	}
	slices.SortStableFunc(outs, func(a, b *ir.PortMapEntry) int { return cmp.Compare(a.ExternalPort, b.ExternalPort) })
	for k, e := range outs {
		pm.Outputs = append(pm.Outputs, link(e, k, slices.Index(results, e.InternalLayer)))
	}
	for _, e := range b.BackEdges {
		pm.BackEdges = append(pm.BackEdges, BackEdge{From: slices.Index(results, e.FromLayer), To: slices.Index(params, e.ToLayer)})
	}
	return pm, nil
}

// irFile is what Open holds of an IR network until Close: the network and its open .bin (nil for
// a network read without one).
type irFile struct {
	net *ir.Net
	w   *ir.Weights
}

func (f *irFile) Close() error { return f.w.Close() }

// IR returns the OpenVINO IR network Open read g from and its weights (the .bin, open until Close),
// for what the graph does not keep: the layers' names, their ports' names attributes, the .bin's
// bytes read. Both are nil when Open read an ONNX model, when FromONNX or FromIR built g, and after
// Close; the weights alone are nil for a network read without its .bin.
func (g *Graph) IR() (*ir.Net, *ir.Weights) {
	if f, ok := g.closer.(*irFile); ok {
		return f.net, f.w
	}
	return nil, nil
}

// IRTensor returns the name FromIR gives the tensor of output port port of the layer of id layer:
// "LAYER:PORT". (The output of a Parameter is named by the Parameter's name instead.)
func IRTensor(layer, port string) string { return layer + ":" + port }

// irPort returns the layer id and output port id of a tensor name IRTensor made, splitting it at
// its last colon (IR port ids are numbers); ok is false for a name without a colon.
func irPort(tensor string) (layer, port string, ok bool) {
	i := strings.LastIndexByte(tensor, ':')
	if i < 0 {
		return "", "", false
	}
	return tensor[:i], tensor[i+1:], true
}

// IRLayerID returns the id of the IR layer a node of FromIR stands for, read from the name of its
// first output; ok is false for a node without outputs.
func IRLayerID(n *Node) (id string, ok bool) {
	if len(n.Outputs) == 0 {
		return "", false
	}
	id, _, ok = irPort(n.Outputs[0])
	return id, ok
}

func shapeDecl(s shape.Shape, t element.Type) Decl {
	if s.RankDynamic {
		return Decl{Type: t, Rank: -1}
	}
	d := Decl{Type: t, Rank: len(s.Dims), Dims: make([]DeclDim, len(s.Dims))}
	for i, sd := range s.Dims {
		d.Dims[i] = DeclDim{Lo: sd.Lo, Hi: sd.Hi}
	}
	return d
}

// irParamDecl returns the declaration of a Parameter: its element_type, and its shape attribute
// when that parses and agrees with the output port (it keeps the intervals that IR v10 ports write
// as -1), its output port otherwise.
func irParamDecl(l *ir.Layer) Decl {
	t := element.Undefined
	if et, ok := l.Attr("element_type"); ok {
		t, _ = element.Parse(et)
	}
	var port shape.Shape
	layout := ""
	if len(l.Outputs) > 0 {
		if t == element.Undefined {
			t, _ = element.Parse(l.Outputs[0].Precision)
		}
		port, layout = l.Outputs[0].Shape, l.Outputs[0].Layout
	}
	d := Decl{Type: t, Rank: -1}
	text, hasShape := l.Attr("shape")
	s, err := shape.Parse(text)
	switch {
	case hasShape && err == nil && (len(l.Outputs) == 0 || s.Compatible(port)):
		d = shapeDecl(s, t)
	case len(l.Outputs) > 0:
		d = shapeDecl(port, t)
	}
	i := batchAxis(layout, d.Rank)
	if layout == "" && d.Rank > 0 {
		i = 0 // no layout: the leading dim, as --batch-size takes it
	}
	if i >= 0 {
		d.Dims[i].Batch = true
	}
	return d
}

// batchAxis returns the axis that an OpenVINO layout ("[N,C,H,W]", "NCHW", "...N", "[N,?,...]")
// names N in a tensor of the given rank, -1 when it names none or does not fit the rank.
func batchAxis(layout string, rank int) int {
	text := strings.TrimSuffix(strings.TrimPrefix(layout, "["), "]")
	var axes []string
	if strings.Contains(text, ",") || strings.HasPrefix(layout, "[") {
		axes = strings.Split(text, ",")
	} else {
		for rest := text; rest != ""; {
			if strings.HasPrefix(rest, "...") {
				axes, rest = append(axes, "..."), rest[3:]
				continue
			}
			axes, rest = append(axes, rest[:1]), rest[1:]
		}
	}
	n := slices.Index(axes, "N")
	dots := slices.Index(axes, "...")
	switch {
	case n < 0:
		return -1
	case dots >= 0 && dots < n: // counted from the end
		n = rank - (len(axes) - n)
	case dots < 0 && len(axes) != rank:
		return -1
	}
	if n < 0 || n >= rank {
		return -1
	}
	return n
}

// irConst returns the constant of a Const layer, reading its elements from w.
func irConst(l *ir.Layer, w *ir.Weights, name string) (*Const, error) {
	c, err := l.Const()
	if err != nil {
		return nil, err
	}
	out := &Const{Name: name, Type: c.Type, Dims: c.Shape}
	if w == nil {
		return out, nil
	}
	if c.Offset > w.Size() || c.Size > w.Size()-c.Offset {
		return nil, errcode.Errorf(errcode.ErrSyntax, "Const %v: %s: offset %d + size %d is past the end of the file (%d bytes)", l, w.Name(), c.Offset, c.Size, w.Size())
	}
	// The layer's description is made for a message only.
	id, layerName, line := l.ID, l.Name, l.Line
	where := func() string { return "Const " + (&ir.Layer{ID: id, Name: layerName, Line: line}).String() }
	out.Load = func(limit int64) ([]int64, []float64, error) {
		n, err := shape.Volume(c.Shape)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", where(), err)
		}
		if c.Type.IsInteger() { // w.Ints bounds the elements read, naming the .bin and the offset
			ints, err := w.Ints(c, limit)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", where(), err)
			}
			return ints, nil, nil
		}
		if n > limit {
			return nil, nil, errcode.Errorf(errcode.ErrLimit, "%s: %d elements, more than %d", where(), n, limit)
		}
		if c.Type != element.Boolean && !c.Type.IsFloat() {
			return nil, nil, errcode.Errorf(errcode.ErrDataType, "%s: %v values are not read", where(), c.Type)
		}
		b, err := w.Bytes(c, c.Size)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", where(), err)
		}
		if c.Type == element.Boolean {
			ints := make([]int64, len(b))
			for i, x := range b {
				ints[i] = int64(min(x, 1))
			}
			return ints, nil, nil
		}
		t, err := tensor.FromBytes(c.Type, c.Shape, b)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", where(), err)
		}
		return nil, tensor.Float64s(t), nil
	}
	return out, nil
}
