package fix

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"io"
	"strconv"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
)

// FindIR is Find for an OpenVINO IR network (IR v10 and v11): src is its .xml file, w its .bin
// (nil for a network read without it). The graph is graph.FromIR's, inferred, when an input's batch
// dim is static (an IR exported at batch 1), with that dim the symbol N (graph.Graph.FreeBatch):
// the batch OpenVINO's set_batch and model.reshape change, which a baked 1 blocks. The rewrites
// are OpenVINO's: a 0 under special_zero="true" (set on a Reshape whose pattern has no 0), a -1,
// or ShapeOf-3 → Gather-8 (→ ReduceProd-1) → Concat-1 with Const layers, in the pattern's element
// type (i32 or i64; i64 for others), new layers after the network's; the proof is Find's. WriteTo
// writes the .xml (ir.WriteEdit: every other byte as it is), WriteWeights the .bin, VerifyIR
// proves both as written.
//
// The errors are Find's, those of ir.Decode for src, and one wrapping errcode.ErrIO when w is nil
// and a top-level Reshape reads its pattern from a Const: its values, which tell whether they are
// baked sizes, are in the .bin (a network without such a Reshape is fixed as it is, with nothing to
// rewrite).
func FindIR(src []byte, w *ir.Weights, opt Options) (*Fix, error) {
	net, err := ir.Decode(bytes.NewReader(src))
	if err != nil {
		return nil, err
	}
	if w == nil {
		for i := range net.Layers {
			l := &net.Layers[i]
			if l.Type != "Reshape" || len(l.Inputs) < 2 {
				continue
			}
			if c, _, ok := net.Producer(l.ID, l.Inputs[1].ID); ok && c.Type == "Const" {
				return nil, errcode.Errorf(errcode.ErrIO, "Reshape %v reads its pattern from Const %v, whose values are in the .bin, which was not read: "+
					"whether they are baked sizes is not known", l, c)
			}
		}
	}
	s := &irSource{net: net, xml: src, w: w, tensors: map[string]irPort{}}
	for i := range net.Layers {
		l := &net.Layers[i]
		for k := range l.Outputs {
			name := graph.IRTensor(l.ID, l.Outputs[k].ID)
			if l.Type == "Parameter" && l.Name != "" {
				name = l.Name
			}
			s.tensors[name] = irPort{l, &l.Outputs[k]}
		}
		if n, err := strconv.Atoi(l.ID); err == nil {
			s.next = max(s.next, n+1)
		}
	}
	g0, err := graph.FromIR(net, w)
	if err != nil {
		return nil, err
	}
	gopt := graph.Options{MaxRank: opt.MaxRank}
	if free := g0.FreeBatch(); free != nil {
		gopt.Inputs, gopt.SharedDims = free, true
	}
	return find(s, g0, gopt, opt)
}

// VerifyIR proves the IR model that WriteTo and WriteWeights wrote, decoded as net with the
// weights w, against f, as Verify proves an ONNX model. The error is that of graph.FromIR or
// graph.Infer when the model is refused.
func (f *Fix) VerifyIR(net *ir.Net, w *ir.Weights) error {
	g, err := graph.FromIR(net, w)
	if err != nil {
		return err
	}
	return f.verify(g)
}

// irSource is an OpenVINO IR network, its .xml file and its weights.
type irSource struct {
	net *ir.Net
	xml []byte
	w   *ir.Weights
	// tensors holds the output ports of the top-level layers by the names graph.FromIR gives
	// their tensors.
	tensors map[string]irPort
	next    int // the least numeric layer id past the network's
	// The rewrites written: the edit of the .xml, and the bytes of the new constants, which
	// follow the .bin's.
	edit ir.Edit
	tail []byte
}

// irPort is an output port of a layer.
type irPort struct {
	layer *ir.Layer
	port  *ir.Port
}

func (s *irSource) dialect() reshape.Dialect                { return reshape.OpenVINO }
func (s *irSource) setsZero() bool                          { return true }
func (s *irSource) refuses(*graph.NodeResult, int64) string { return "" }
func (s *irSource) writable(string) error                   { return nil }

func (s *irSource) names() map[string]bool {
	out := map[string]bool{}
	for name, p := range s.tensors {
		out[name], out[p.layer.Name] = true, true
	}
	return out
}

func (s *irSource) graph(plans []planned, final bool) (*graph.Graph, error) {
	if len(plans) == 0 {
		return graph.FromIR(s.net, s.w)
	}
	e, tail, err := s.edits(plans, final)
	if err != nil {
		return nil, err
	}
	net, err := s.net.Edit(&e)
	if err != nil {
		return nil, err
	}
	return graph.FromIR(net, s.w.Append(tail))
}

func (s *irSource) final(plans []planned, _, _ *graph.Result) (*graph.Graph, error) {
	var err error
	s.edit, s.tail, err = s.edits(plans, true)
	return nil, err
}

func (s *irSource) write(w io.Writer) (int64, error) { return ir.WriteEdit(w, s.xml, &s.edit) }

func (s *irSource) writeWeights(w io.Writer) (int64, error) {
	n, err := s.w.WriteTo(w)
	if err != nil {
		return n, err
	}
	m, err := w.Write(s.tail)
	return n + int64(m), err
}

// edits returns the edit of the network that makes the rewrites plans, and the bytes of the new
// constants, which lie past the .bin's end, each at an offset a multiple of 8: each planned node
// becomes a layer (ir.go's irLayer), each Reshape reads its new pattern, and its special_zero is
// "true" where the plan sets it; final leaves out the old patterns' Const layers that nothing
// reads any more.
func (s *irSource) edits(plans []planned, final bool) (ir.Edit, []byte, error) {
	if len(plans) == 0 {
		return ir.Edit{}, nil, nil
	}
	if s.w == nil {
		return ir.Edit{}, nil, errcode.Errorf(errcode.ErrIO, "no .bin was read, and the fixed model's .bin is a copy of it with the rewrites' constants")
	}
	b := &irBuilder{s: s, id: s.next, edit: ir.Edit{Data: map[string][]xml.Attr{}}}
	reads := map[[2]string]int{} // the edges from each output port
	for _, x := range s.net.Edges {
		reads[[2]string{x.FromLayer, x.FromPort}]++
	}
	for _, p := range plans {
		rid, ok := graph.IRLayerID(p.node)
		rl, _ := s.net.Layer(rid)
		if !ok || rl == nil || len(rl.Inputs) < 2 {
			return ir.Edit{}, nil, errcode.Errorf(errcode.ErrSyntax, "Reshape %s: not a layer of the network", p.rw.Node)
		}
		old := s.tensors[p.node.Inputs[1]]
		b.typ = element.I64
		if t, err := element.Parse(old.port.Precision); err == nil && t == element.I32 {
			b.typ = t
		}
		b.refs = map[string]irRef{}
		for i := range p.nodes {
			b.layer(&p.nodes[i], p.values)
		}
		pat, err := b.ref(p.pattern)
		if err != nil {
			return ir.Edit{}, nil, err
		}
		b.edit.Edges = append(b.edit.Edges, ir.Edge{FromLayer: pat.layer, FromPort: pat.port, ToLayer: rid, ToPort: rl.Inputs[1].ID})
		if p.zero {
			b.edit.Data[rid] = []xml.Attr{{Name: xml.Name{Local: "special_zero"}, Value: "true"}}
		}
		if old.layer == nil {
			continue
		}
		from := [2]string{old.layer.ID, old.port.ID}
		if reads[from]--; final && reads[from] == 0 && old.layer.Type == "Const" {
			b.edit.Remove = append(b.edit.Remove, old.layer.ID)
		}
	}
	if b.err != nil {
		return ir.Edit{}, nil, b.err
	}
	return b.edit, b.tail, nil
}

// irRef is an output port of a layer, the network's or a new one, with its precision and dims.
type irRef struct {
	layer, port string
	precision   string
	dims        shape.Shape
}

// irBuilder turns the planned nodes of rewrites into layers.
type irBuilder struct {
	s    *irSource
	id   int // the next new layer's id
	typ  element.Type
	refs map[string]irRef // the outputs of the new layers of one plan, by their planned names
	edit ir.Edit
	tail []byte
	err  error
}

// ref returns the output port of the tensor name: a new layer's, or the network's.
func (b *irBuilder) ref(name string) (irRef, error) {
	if r, ok := b.refs[name]; ok {
		return r, nil
	}
	p, ok := b.s.tensors[name]
	if !ok {
		return irRef{}, errcode.Errorf(errcode.ErrSyntax, "tensor %q is no output of a top-level layer", name)
	}
	return irRef{layer: p.layer.ID, port: p.port.ID, precision: p.port.Precision, dims: p.port.Shape}, nil
}

// precision returns the port precision of the builder's element type: "I64" or "I32".
func (b *irBuilder) precision() string {
	if b.typ == element.I32 {
		return "I32"
	}
	return "I64"
}

// add adds a layer of type typ and version, its data attributes (name, value pairs), reading the
// ports ins, whose output port has dims out; it returns that port.
func (b *irBuilder) add(name, typ, version string, data []string, ins []irRef, out int64) irRef {
	id := strconv.Itoa(b.id)
	b.id++
	l := ir.Layer{ID: id, Name: name, Type: typ, Version: version}
	if data != nil {
		l.Data = []xml.Attr{}
		for k := 0; k+1 < len(data); k += 2 {
			l.Data = append(l.Data, xml.Attr{Name: xml.Name{Local: data[k]}, Value: data[k+1]})
		}
	}
	for k, in := range ins {
		port := strconv.Itoa(k)
		l.Inputs = append(l.Inputs, ir.Port{ID: port, Precision: in.precision, Shape: in.dims})
		b.edit.Edges = append(b.edit.Edges, ir.Edge{FromLayer: in.layer, FromPort: in.port, ToLayer: id, ToPort: port})
	}
	dims := shape.Of()
	if out >= 0 {
		dims = shape.Of(shape.Static(out))
	}
	r := irRef{layer: id, port: strconv.Itoa(len(ins)), precision: b.precision(), dims: dims}
	l.Outputs = []ir.Port{{ID: r.port, Precision: r.precision, Shape: dims}}
	b.edit.Layers = append(b.edit.Layers, l)
	return r
}

// constant adds a Const layer of the values, of the builder's element type, whose bytes go to the
// tail; scalar makes it of shape [] (one value).
func (b *irBuilder) constant(name string, values []int64, scalar bool) irRef {
	for len(b.tail)%8 != 0 {
		b.tail = append(b.tail, 0)
	}
	offset := b.s.w.Size() + int64(len(b.tail))
	for _, v := range values {
		if b.typ == element.I32 {
			b.tail = binary.LittleEndian.AppendUint32(b.tail, uint32(int32(v)))
		} else {
			b.tail = binary.LittleEndian.AppendUint64(b.tail, uint64(v))
		}
	}
	n, out := strconv.Itoa(len(values)), int64(len(values))
	if scalar {
		n, out = "", -1
	}
	return b.add(name, "Const", "opset1", []string{"element_type", b.typ.String(), "shape", n,
		"offset", strconv.FormatInt(offset, 10), "size", strconv.FormatInt(b.s.w.Size()+int64(len(b.tail))-offset, 10)}, nil, out)
}

// layer adds the layers of the planned node n (fix's builder writes them as ONNX nodes: Constant,
// Shape, Gather on axis 0, ReduceProd keeping dims, Concat on axis 0), values holding the
// Constants' values: a Const; a ShapeOf-3 of the pattern's type; a Gather-8 with a Const axis; a
// ReduceProd-1 with a Const of axes [0]; a Concat-1.
func (b *irBuilder) layer(n *onnx.Node, values map[string][]int64) {
	if b.err != nil {
		return
	}
	ins := make([]irRef, len(n.Inputs))
	for k, name := range n.Inputs {
		if ins[k], b.err = b.ref(name); b.err != nil {
			return
		}
	}
	var r irRef
	switch n.OpType {
	case "Constant":
		r = b.constant(n.Name, values[n.Outputs[0]], false)
	case "Shape":
		r = b.add(n.Name, "ShapeOf", "opset3", []string{"output_type", b.typ.String()}, ins, int64(len(ins[0].dims.Dims)))
	case "Gather":
		axis := b.constant(n.Name+"/axis", []int64{0}, true)
		r = b.add(n.Name, "Gather", "opset8", []string{"batch_dims", "0"}, append(ins, axis), volume(ins[1].dims))
	case "ReduceProd":
		axes := b.constant(n.Name+"/axes", []int64{0}, false)
		r = b.add(n.Name, "ReduceProd", "opset1", []string{"keep_dims", "true"}, append(ins, axes), 1)
	case "Concat":
		var sum int64
		for _, in := range ins {
			sum += volume(in.dims)
		}
		r = b.add(n.Name, "Concat", "opset1", []string{"axis", "0"}, ins, sum)
	default:
		b.err = errcode.Errorf(errcode.ErrSyntax, "no OpenVINO layer for a planned %s", n.OpType)
		return
	}
	b.refs[n.Outputs[0]] = r
}

// volume returns the element count of a static shape of rank 0 or 1.
func volume(s shape.Shape) int64 {
	if len(s.Dims) == 0 {
		return 1
	}
	n, _ := s.Dims[0].Static()
	return n
}
