package onnx

import (
	"cmp"
	"math"
	"runtime/debug"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/reshape-go/reshape/tensor"
)

// NewTensor returns the TensorProto of t, named name, its values in raw_data: what EncodeTensor
// writes, as a Tensor to put in a Graph's initializers or a Constant node's attribute. Errors wrap
// errcode.ErrDataType for an element type ONNX has no data type for.
func NewTensor(name string, t tensor.Tensor) (Tensor, error) {
	b, err := EncodeTensor(t, name)
	if err != nil {
		return Tensor{}, err
	}
	pb, err := DecodeTensor(b)
	if err != nil {
		return Tensor{}, err
	}
	return *pb, nil
}

// EncodeModel encodes m as a ModelProto: ir_version (field 1), graph (7) and opset_import (8);
// GraphProto node (1), name (2), initializer (5), input (11), output (12), value_info (13); NodeProto
// input (1), output (2), name (3), op_type (4), attribute (5), domain (7); AttributeProto name (1),
// type (20) and its value field (a GRAPH or GRAPHS attribute its subgraphs); ValueInfoProto name (1)
// and type (2) with a tensor type, a sequence or map type of what ValueInfo.Seq or Map describes
// (within an optional type when ValueInfo.Optional), a tensor type's shape
// writes static dims as dim_value, named ones as dim_param (ValueInfo.DimParams), and others as an
// empty Dimension (a dynamic rank leaves the shape out); TensorProto as decoded, its values read
// from where they were decoded. DecodeModel reads back what it writes. Attributes of the types the
// decoder skips (sparse tensors, type protos) are written without a value. The error wraps
// errcode.ErrSyntax when a tensor's values cannot be read (its model was closed, or its mapped file
// truncated).
func EncodeModel(m *Model) (_ []byte, err error) {
	defer recoverFault(&err, debug.SetPanicOnFault(true))
	e := &encoder{}
	var b []byte
	b = appendInt(b, 1, m.IRVersion)
	g := e.graph(&m.Graph)
	if e.err != nil {
		return nil, e.err
	}
	b = appendBytes(b, 7, g)
	for _, o := range m.OpsetImports {
		var ob []byte
		if o.Domain != "" {
			ob = appendBytes(ob, 1, []byte(o.Domain))
		}
		ob = appendInt(ob, 2, o.Version)
		b = appendBytes(b, 8, ob)
	}
	return b, nil
}

// encoder writes the messages of a model, and keeps the first error: a tensor whose values cannot
// be read.
type encoder struct{ err error }

func (e *encoder) graph(g *Graph) []byte {
	var b []byte
	for i := range g.Nodes {
		b = appendBytes(b, 1, e.node(&g.Nodes[i]))
	}
	if g.Name != "" {
		b = appendBytes(b, 2, []byte(g.Name))
	}
	for i := range g.Initializers {
		b = appendBytes(b, 5, e.tensor(&g.Initializers[i]))
	}
	for _, list := range []struct {
		num protowire.Number
		vis []ValueInfo
	}{{11, g.Inputs}, {12, g.Outputs}, {13, g.ValueInfo}} {
		for i := range list.vis {
			b = appendBytes(b, list.num, encodeValueInfo(&list.vis[i]))
		}
	}
	return b
}

func (e *encoder) node(n *Node) []byte {
	var b []byte
	for _, in := range n.Inputs {
		b = appendBytes(b, 1, []byte(in))
	}
	for _, out := range n.Outputs {
		b = appendBytes(b, 2, []byte(out))
	}
	if n.Name != "" {
		b = appendBytes(b, 3, []byte(n.Name))
	}
	b = appendBytes(b, 4, []byte(n.OpType))
	for i := range n.Attrs {
		b = appendBytes(b, 5, e.attribute(&n.Attrs[i]))
	}
	if n.Domain != "" {
		b = appendBytes(b, 7, []byte(n.Domain))
	}
	return b
}

func (e *encoder) attribute(a *Attribute) []byte {
	b := appendBytes(nil, 1, []byte(a.Name))
	switch a.Type {
	case AttrFloat:
		b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
		b = protowire.AppendFixed32(b, math.Float32bits(a.F))
	case AttrInt:
		b = appendInt(b, 3, a.I)
	case AttrString:
		b = appendBytes(b, 4, a.S)
	case AttrTensor:
		if a.T != nil {
			b = appendBytes(b, 5, e.tensor(a.T))
		}
	case AttrFloats:
		var p []byte
		for _, f := range a.Floats {
			p = protowire.AppendFixed32(p, math.Float32bits(f))
		}
		b = appendBytes(b, 7, p)
	case AttrInts:
		var p []byte
		for _, v := range a.Ints {
			p = protowire.AppendVarint(p, uint64(v))
		}
		b = appendBytes(b, 8, p)
	case AttrStrings:
		for _, s := range a.Strings {
			b = appendBytes(b, 9, s)
		}
	case AttrTensors:
		for i := range a.Tensors {
			b = appendBytes(b, 10, e.tensor(&a.Tensors[i]))
		}
	case AttrGraph:
		if a.G != nil {
			b = appendBytes(b, 6, e.graph(a.G))
		}
	case AttrGraphs:
		for i := range a.Graphs {
			b = appendBytes(b, 11, e.graph(&a.Graphs[i]))
		}
	}
	return appendInt(b, 20, int64(a.Type))
}

func encodeValueInfo(vi *ValueInfo) []byte {
	b := appendBytes(nil, 1, []byte(vi.Name))
	return appendBytes(b, 2, encodeType(vi))
}

// encodeType writes the TypeProto of vi: a tensor_type with its elem_type, and its shape unless
// the rank is dynamic, a sequence_type of the TypeProto of vi.Seq, or a map_type of vi.KeyType and
// the TypeProto of vi.Map; within an optional_type when vi is Optional.
func encodeType(vi *ValueInfo) []byte {
	var typ []byte
	switch {
	case vi.Seq != nil:
		typ = appendBytes(nil, 4, appendBytes(nil, 1, encodeType(vi.Seq)))
	case vi.Map != nil:
		mt := appendInt(nil, 1, int64(vi.KeyType))
		typ = appendBytes(nil, 5, appendBytes(mt, 2, encodeType(vi.Map)))
	default:
		typ = appendBytes(nil, 1, encodeTensorType(vi))
	}
	if vi.Optional {
		typ = appendBytes(nil, 9, appendBytes(nil, 1, typ))
	}
	return typ
}

// encodeTensorType writes the TypeProto.Tensor of vi: its elem_type, and its shape unless the
// rank is dynamic.
func encodeTensorType(vi *ValueInfo) []byte {
	var tt []byte
	if vi.ElemType != Undefined {
		tt = appendInt(tt, 1, int64(vi.ElemType))
	}
	if !vi.Shape.RankDynamic {
		var sb []byte
		for i, d := range vi.Shape.Dims {
			var db []byte
			switch {
			case d.IsStatic():
				db = appendInt(db, 1, d.Lo)
			case i < len(vi.DimParams) && vi.DimParams[i] != "":
				db = appendBytes(db, 2, []byte(vi.DimParams[i]))
			}
			if i < len(vi.Denotations) && vi.Denotations[i] != "" {
				db = appendBytes(db, 3, []byte(vi.Denotations[i]))
			}
			sb = appendBytes(sb, 1, db)
		}
		tt = protowire.AppendTag(tt, 2, protowire.BytesType)
		tt = protowire.AppendBytes(tt, sb)
	}
	return tt
}

// tensor writes a decoded tensor back: dims, data_type, name, and its values in the field and form
// they were read in.
func (e *encoder) tensor(t *Tensor) []byte {
	var b []byte
	for _, d := range t.Dims {
		b = appendInt(b, 1, d)
	}
	b = appendInt(b, 2, int64(t.DataType))
	if t.Name != "" {
		b = appendBytes(b, 8, []byte(t.Name))
	}
	for _, s := range t.spans {
		occ, err := t.src.bytes(s)
		if err != nil {
			e.err = cmp.Or(e.err, within(err, "tensor %q", t.Name))
		}
		b = appendBytes(b, t.field, occ)
	}
	if t.External != nil {
		b = encodeExternal(b, t.External)
	}
	return b
}

func appendInt(b []byte, num protowire.Number, v int64) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}
