package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// FromONNX returns the graph of an ONNX model: the main graph's inputs that are not initializers,
// its initializers as constants, its nodes bound to the versions of the operator sets the model
// imports, and the shapes its value_info and outputs declare (dim_param names kept). Subgraphs
// (If's branches, the bodies of Loop and Scan) become Graphs of their nodes' attributes; their
// names resolve to the enclosing graphs' tensors as ONNX scopes them.
//
// An integer constant stored as external data (a shape) is read from its file, relative to dir (the
// model file's directory), within the bounds of Const.Load; floating-point external data, the
// weights, is never read. With dir "", external data is not read. The constants read their values
// from the model when inference asks for them: use the graph before the model is closed
// (onnx.Model.Close of a model onnx.Open mapped).
//
// It returns an error wrapping errcode.ErrSyntax, naming the node, when a node (of the main graph or
// a subgraph) is of a domain the model imports no opset of. A model of other domains only (the
// optimizers of ai.onnx.preview.training) need not import the default domain.
func FromONNX(m *onnx.Model, dir string) (*Graph, error) {
	opsets := map[string]int64{}
	for _, o := range m.OpsetImports {
		d := o.Domain
		if d == "ai.onnx" {
			d = ""
		}
		if v, ok := opsets[d]; !ok || o.Version > v {
			opsets[d] = o.Version
		}
	}
	if err := checkImports(&m.Graph, opsets); err != nil {
		return nil, err
	}
	return fromONNXGraph(&m.Graph, opsets, dir), nil
}

// checkImports returns an error wrapping errcode.ErrSyntax for the first node of g or its
// subgraphs whose domain opsets does not hold.
func checkImports(g *onnx.Graph, opsets map[string]int64) error {
	for i := range g.Nodes {
		n := &g.Nodes[i]
		d := n.Domain
		if d == "ai.onnx" {
			d = ""
		}
		if _, ok := opsets[d]; !ok {
			domain := "the default ONNX domain"
			if d != "" {
				domain = "domain " + d
			}
			return errcode.Errorf(errcode.ErrSyntax, "node %d %q (%s) is of %s, of which the model imports no opset", i, n.Name, n.OpType, domain)
		}
		for k := range n.Attrs {
			a := &n.Attrs[k]
			if a.G != nil {
				if err := checkImports(a.G, opsets); err != nil {
					return err
				}
			}
			for j := range a.Graphs {
				if err := checkImports(&a.Graphs[j], opsets); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func fromONNXGraph(og *onnx.Graph, opsets map[string]int64, dir string) *Graph {
	g := &Graph{Name: og.Name, Consts: make(map[string]*Const, len(og.Initializers)), Declared: make(map[string]Decl, len(og.ValueInfo)+len(og.Outputs))}
	// The constants of the initializers and of the nodes' TENSOR attributes, cut from one slice.
	nconsts, nattrs := len(og.Initializers), 0
	for i := range og.Nodes {
		nattrs += len(og.Nodes[i].Attrs)
		for _, a := range og.Nodes[i].Attrs {
			if a.Type == onnx.AttrTensor && a.T != nil {
				nconsts++
			}
		}
	}
	consts := make([]onnxConst, nconsts)
	for i := range og.Initializers {
		t := &og.Initializers[i]
		g.Consts[t.Name] = consts[i].init(t, dir)
	}
	consts = consts[len(og.Initializers):]
	for i := range og.Inputs {
		vi := &og.Inputs[i]
		if _, isConst := g.Consts[vi.Name]; isConst {
			continue
		}
		g.Inputs = append(g.Inputs, Input{Name: vi.Name, Decl: onnxDecl(vi)})
	}
	for _, list := range [][]onnx.ValueInfo{og.ValueInfo, og.Outputs} {
		for i := range list {
			g.Declared[list[i].Name] = onnxDecl(&list[i])
		}
	}
	for i := range og.Outputs {
		g.Outputs = append(g.Outputs, og.Outputs[i].Name)
	}
	g.Nodes = make([]Node, len(og.Nodes))
	attrs := make([]Attr, nattrs) // the nodes' attributes, cut from one slice
	for i := range og.Nodes {
		on := &og.Nodes[i]
		d := on.Domain
		if d == "ai.onnx" {
			d = ""
		}
		n := Node{Name: on.Name, Op: on.OpType, Domain: d, Version: opsets[d], Inputs: on.Inputs, Outputs: on.Outputs,
			Attrs: attrs[:len(on.Attrs):len(on.Attrs)]}
		attrs = attrs[len(on.Attrs):]
		for k := range on.Attrs {
			a := &on.Attrs[k]
			var c *onnxConst // the constant of a TENSOR attribute
			if a.Type == onnx.AttrTensor && a.T != nil {
				c, consts = &consts[0], consts[1:]
			}
			n.Attrs[k] = onnxAttr(a, opsets, dir, c)
		}
		g.Nodes[i] = n
	}
	return g
}

// onnxDecl returns the declaration of a value info: element type, and the shape with its
// dim_param names, of a tensor or of the tensor an optional(tensor) may hold; of a sequence or a
// map, the declarations of its elements, or of its key type and values.
func onnxDecl(vi *onnx.ValueInfo) Decl {
	switch {
	case vi.Seq != nil:
		elem := onnxDecl(vi.Seq)
		return Decl{Rank: -1, Optional: vi.Optional, Seq: &elem}
	case vi.Map != nil:
		value := onnxDecl(vi.Map)
		key, _ := vi.KeyType.ElementType()
		return Decl{Rank: -1, Optional: vi.Optional, Map: &value, Key: key}
	}
	t, _ := vi.ElemType.ElementType()
	if vi.Shape.RankDynamic {
		return Decl{Type: t, Rank: -1, Optional: vi.Optional}
	}
	d := Decl{Type: t, Rank: len(vi.Shape.Dims), Dims: make([]DeclDim, len(vi.Shape.Dims)), Optional: vi.Optional}
	for i, sd := range vi.Shape.Dims {
		d.Dims[i] = DeclDim{Lo: sd.Lo, Hi: sd.Hi}
		if i < len(vi.DimParams) {
			d.Dims[i].Name = vi.DimParams[i]
		}
		d.Dims[i].Batch = i < len(vi.Denotations) && vi.Denotations[i] == "DATA_BATCH"
	}
	return d
}

// onnxAttr returns the attribute of a node; the constant of a TENSOR attribute is c.
func onnxAttr(a *onnx.Attribute, opsets map[string]int64, dir string, c *onnxConst) Attr {
	out := Attr{Name: a.Name}
	switch a.Type {
	case onnx.AttrInt:
		out.Kind, out.Int = AttrInt, a.I
	case onnx.AttrInts:
		out.Kind, out.Ints = AttrInts, a.Ints
	case onnx.AttrFloat:
		out.Kind, out.Float = AttrFloat, float64(a.F)
	case onnx.AttrFloats:
		out.Kind, out.Floats = AttrFloats, make([]float64, len(a.Floats))
		for i, f := range a.Floats {
			out.Floats[i] = float64(f)
		}
	case onnx.AttrString:
		out.Kind, out.String = AttrString, string(a.S)
	case onnx.AttrStrings:
		out.Kind = AttrStrings
		for _, s := range a.Strings {
			out.Strings = append(out.Strings, string(s))
		}
	case onnx.AttrTensor:
		out.Kind = AttrTensor
		if a.T != nil {
			out.Tensor = c.init(a.T, dir)
		}
	case onnx.AttrGraph:
		out.Kind = AttrGraph
		if a.G != nil {
			out.Graph = fromONNXGraph(a.G, opsets, dir)
		}
	case onnx.AttrGraphs:
		out.Kind = AttrGraphs
		for i := range a.Graphs {
			out.Graphs = append(out.Graphs, fromONNXGraph(&a.Graphs[i], opsets, dir))
		}
	default:
		out.Kind = AttrOther
	}
	return out
}

// onnxConst is a constant of an ONNX tensor, and what its Load reads.
type onnxConst struct {
	Const
	t   *onnx.Tensor
	dir string // where its external data is, "" when it is not read
}

// init makes c the constant of t, reading its values from the model, and its external data from
// dir, and returns it.
func (c *onnxConst) init(t *onnx.Tensor, dir string) *Const {
	et, _ := t.DataType.ElementType()
	c.Const = Const{Name: t.Name, Type: et, Dims: t.Dims}
	c.t, c.dir = t, dir
	c.Load = c.load
	return &c.Const
}

// load reads at most limit values of the tensor (Const.Load).
func (c *onnxConst) load(limit int64) ([]int64, []float64, error) {
	t, et := c.t, c.Type
	n, err := shape.Volume(t.Dims)
	if err != nil {
		return nil, nil, err
	}
	if n > limit {
		return nil, nil, errcode.Errorf(errcode.ErrLimit, "tensor %q: %d elements, more than %d", t.Name, n, limit)
	}
	if t.External != nil {
		// Only integer constants (shapes, patterns, indices) are read from external data: the
		// floating-point ones are weights.
		if c.dir == "" || !et.IsInteger() && et != element.Boolean {
			return nil, nil, errcode.Errorf(errcode.ErrLimit, "tensor %q: its external data is not read", t.Name)
		}
		if t, err = t.ReadExternal(c.dir, 8*limit); err != nil {
			return nil, nil, err
		}
	}
	switch {
	case et.IsInteger():
		ints, err := t.Ints()
		return ints, nil, err
	case et == element.Boolean:
		v, err := t.Tensor()
		if err != nil {
			return nil, nil, err
		}
		b, _ := v.Bytes()
		ints := make([]int64, len(b))
		for i, x := range b {
			if x != 0 {
				ints[i] = 1
			}
		}
		return ints, nil, nil
	case et.IsFloat():
		v, err := t.Tensor()
		if err != nil {
			return nil, nil, err
		}
		return nil, tensor.Float64s(v), nil
	}
	return nil, nil, errcode.Errorf(errcode.ErrDataType, "tensor %q: %v values are not read", t.Name, t.DataType)
}
