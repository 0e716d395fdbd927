// Package onnx decodes ONNX models (ModelProto) and TensorProto files: the nodes, initializers, value
// infos and opset imports that Reshape checking needs, read straight from the protobuf wire format
// with google.golang.org/protobuf/encoding/protowire, after the field numbers of onnx.proto.
//
// Only what checking needs is decoded; every other field, known to onnx.proto or not, is skipped.
// Subgraphs (GRAPH and GRAPHS attributes: the branches of If, the bodies of Loop and Scan) are
// decoded as Graphs. Sparse tensors are skipped unread, and so are sparse initializers
// (GraphProto.sparse_initializer, field 15): a value they define is not among Graph.Initializers.
// Segmented tensors are refused. A tensor whose values are stored outside the file (external data,
// as large models store their weights) is described by Tensor.External, and its values are read
// only when asked for, by Tensor.ReadExternal.
//
// Decoding never trusts a size it reads: lengths are checked against the bytes present before
// anything is allocated, and counts of values come from the bytes present. Every error wraps one of
// the sentinels of package reshape, errcode.ErrSyntax for a malformed file, and names the message, the
// field and the offset in the file where decoding stopped, as in
// "GraphProto.initializer[0]: TensorProto.dims: truncated varint at offset 12".
//
// The decoded structure is a copy (strings interned: each operator type, domain and tensor name is
// stored once), but tensor values are not decoded: a Tensor keeps where they lie in the encoded
// model, which must not change while the model is used, and reads them when Tensor or Ints is
// called. Open maps a model file instead of reading it, so that only the pages of its structure,
// and of the values asked for, are read: the weights of a model of any size stay on disk.
package onnx

import (
	"math"
	"runtime/debug"
	"slices"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/internal/slab"
	"github.com/reshape-go/reshape/shape"
)

// Model is a ModelProto of onnx.proto: its IR version (ir_version, field 1), its operator set imports
// (opset_import, field 8) and its graph (graph, field 7).
type Model struct {
	IRVersion    int64
	OpsetImports []OpsetID
	Graph        Graph

	src *source // what the model was decoded from
}

// OpsetID is an OperatorSetIdProto of onnx.proto: an operator set's domain (field 1; "" is the
// default domain, "ai.onnx") and version (field 2).
type OpsetID struct {
	Domain  string
	Version int64
}

// Opset returns the version of the operator set the model imports for domain; "" and "ai.onnx" name
// the same default domain. When the model imports the domain more than once, it returns the highest
// version, which onnx.proto says nodes bind to. ok is false when the model does not import it.
func (m *Model) Opset(domain string) (version int64, ok bool) {
	if domain == "ai.onnx" {
		domain = ""
	}
	for _, o := range m.OpsetImports {
		d := o.Domain
		if d == "ai.onnx" {
			d = ""
		}
		if d == domain && (!ok || o.Version > version) {
			version, ok = o.Version, true
		}
	}
	return version, ok
}

// Graph is a GraphProto of onnx.proto: its name (field 2), its nodes in topological order (node,
// field 1), its initializers (initializer, field 5), and the value infos of its inputs (input, field
// 11), outputs (output, field 12) and other values (value_info, field 13).
type Graph struct {
	Name         string
	Nodes        []Node
	Initializers []Tensor
	Inputs       []ValueInfo
	Outputs      []ValueInfo
	ValueInfo    []ValueInfo
}

// Initializer returns the initializer named name (the first, should there be several).
func (g *Graph) Initializer(name string) (*Tensor, bool) {
	for i := range g.Initializers {
		if g.Initializers[i].Name == name {
			return &g.Initializers[i], true
		}
	}
	return nil, false
}

// ValueInfoOf returns the value info of the value named name, searching Inputs, ValueInfo and
// Outputs, in that order.
func (g *Graph) ValueInfoOf(name string) (*ValueInfo, bool) {
	for _, list := range [][]ValueInfo{g.Inputs, g.ValueInfo, g.Outputs} {
		for i := range list {
			if list[i].Name == name {
				return &list[i], true
			}
		}
	}
	return nil, false
}

// Node is a NodeProto of onnx.proto: its name (field 3), operator type (op_type, field 4), operator
// set domain (domain, field 7; "" for the default), the names of its inputs (input, field 1; "" for
// an optional input left out) and outputs (output, field 2), and its attributes (attribute, field 5).
type Node struct {
	Name, OpType, Domain string
	Inputs, Outputs      []string
	Attrs                []Attribute
}

// Attr returns the attribute named name (the first, should there be several).
func (n *Node) Attr(name string) (*Attribute, bool) {
	for i := range n.Attrs {
		if n.Attrs[i].Name == name {
			return &n.Attrs[i], true
		}
	}
	return nil, false
}

// AttrType is the type of an attribute: the enum AttributeProto.AttributeType of onnx.proto, whose
// values the constants below are.
type AttrType int32

// The values of AttributeProto.AttributeType, as onnx.proto numbers them.
const (
	AttrUndefined     AttrType = 0
	AttrFloat         AttrType = 1
	AttrInt           AttrType = 2
	AttrString        AttrType = 3
	AttrTensor        AttrType = 4
	AttrGraph         AttrType = 5
	AttrFloats        AttrType = 6
	AttrInts          AttrType = 7
	AttrStrings       AttrType = 8
	AttrTensors       AttrType = 9
	AttrGraphs        AttrType = 10
	AttrSparseTensor  AttrType = 11
	AttrSparseTensors AttrType = 12
	AttrTypeProto     AttrType = 13
	AttrTypeProtos    AttrType = 14
)

var attrTypeNames = [...]string{"UNDEFINED", "FLOAT", "INT", "STRING", "TENSOR", "GRAPH", "FLOATS", "INTS",
	"STRINGS", "TENSORS", "GRAPHS", "SPARSE_TENSOR", "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS"}

// String returns the name onnx.proto gives t ("INT", "INTS"), or "AttrType(99)" for a value it does
// not know.
func (t AttrType) String() string {
	if t < 0 || int(t) >= len(attrTypeNames) {
		return "AttrType(" + strconv.Itoa(int(t)) + ")"
	}
	return attrTypeNames[t]
}

// Attribute is an AttributeProto of onnx.proto: its name (field 1), its type (type, field 20), and
// the value of that type: f (field 2), i (field 3), s (field 4), t (field 5), floats (field 7), ints
// (field 8), strings (field 9), tensors (field 10), g (field 6, a subgraph) or graphs (field 11).
// The values of SPARSE_TENSOR, SPARSE_TENSORS, TYPE_PROTO and TYPE_PROTOS attributes (fields
// sparse_tensor 22, sparse_tensors 23, tp 14, type_protos 15) are skipped unread; their Type is
// kept.
type Attribute struct {
	Name    string
	Type    AttrType
	F       float32
	I       int64
	S       []byte
	T       *Tensor
	Floats  []float32
	Ints    []int64
	Strings [][]byte
	Tensors []Tensor
	G       *Graph
	Graphs  []Graph
}

// ValueInfo is a ValueInfoProto of onnx.proto: a value's name (field 1) and what its type (type,
// field 2, a TypeProto) says of it when it is a tensor (TypeProto.tensor_type, field 1): the element
// type (elem_type, field 1) and shape (shape, field 2, a TensorShapeProto whose dim, field 1, are
// Dimensions of dim_value, field 1, or dim_param, field 2).
type ValueInfo struct {
	Name string
	// ElemType is 0 (Undefined) when the type is absent or not a tensor type.
	ElemType DataType
	// Shape has a static dimension for each dim_value (-1 reads as "?"), shape.Dynamic ("?") for each
	// dim_param or empty Dimension, and is shape.DynamicRank() when the tensor type has no shape, or
	// the type is absent or not a tensor type.
	Shape shape.Shape
	// DimParams holds, for each dim of Shape, its dim_param (a named dimension, such as "N"), or ""
	// for a dim_value or an empty Dimension. It is nil when no dim is named.
	DimParams []string
	// Denotations holds, for each dim of Shape, its denotation ("DATA_BATCH", "DATA_CHANNEL"...),
	// or "". It is nil when no dim has one.
	Denotations []string
	// Optional reports that the type is an optional (TypeProto.optional_type, field 9) of what the
	// other fields describe: of a tensor, ElemType, Shape and DimParams are those of the tensor it
	// may hold; of a sequence or a map, Seq or Map says so.
	Optional bool
	// Seq, when not nil, makes the type a sequence (TypeProto.sequence_type, field 4) whose
	// elements are of the type Seq describes (its Name ""): seq(tensor(float)) is a ValueInfo whose
	// Seq has ElemType Float. ElemType is then Undefined and Shape a dynamic rank.
	Seq *ValueInfo
	// Map, when not nil, makes the type a map (TypeProto.map_type, field 5) of KeyType keys
	// (key_type, field 1: an integer or string data type) and values of the type Map describes
	// (value_type, field 2): ZipMap's map(int64, tensor(float)). ElemType is then Undefined and
	// Shape a dynamic rank.
	Map     *ValueInfo
	KeyType DataType
}

// IsTensor reports whether vi is the type of a tensor (or of an optional tensor), not a sequence
// or a map.
func (vi *ValueInfo) IsTensor() bool { return vi.Seq == nil && vi.Map == nil }

// DecodeModel decodes an ONNX model, a ModelProto as a .onnx file holds it: ir_version (field 1),
// opset_import (field 8) and graph (field 7), with the parts of the graph Graph describes. The
// values of the model's tensors are not decoded, nor read, until Tensor or Ints asks for them: they
// stay in b, which must not change while the model is used. Open decodes a model file the same way
// without reading it whole.
//
// Unknown fields are skipped, and so are repeated fields or messages this package does not read.
// Errors wrap errcode.ErrSyntax for a malformed file (truncated values, lengths past the end, a wrong
// wire type for a field this package reads, a dimension below -1 in a shape, and the tensor errors of
// DecodeTensor), errcode.ErrOverflow for a tensor volume or a shape dimension beyond the int64 range,
// and errcode.ErrLimit for messages nested deeper than 128; they name the element (as
// "GraphProto.node[3]"), the message and field, and the offset in b.
func DecodeModel(b []byte) (*Model, error) {
	return decodeModel(&source{b: b})
}

// decodeModel decodes the model src holds, reading at most src.limit bytes of its structure (0: no
// bound).
func decodeModel(src *source) (_ *Model, err error) {
	b := src.b
	if len(b) == 0 {
		return nil, errcode.Errorf(errcode.ErrSyntax, "offset 0: empty file, want an ONNX ModelProto")
	}
	defer recoverFault(&err, debug.SetPanicOnFault(true))
	d := &decoder{src: src, limit: src.limit}
	m := message{name: "ModelProto", fields: modelFields, b: b, d: d}
	model := &Model{src: src}
	var f field
	for m.more() {
		err := m.next(&f)
		if err != nil {
			return nil, err
		}
		var sub message
		switch f.num {
		case 1:
			model.IRVersion, err = f.int64()
		case 7:
			if sub, err = f.message("GraphProto", graphFields); err == nil {
				err = decodeGraph(&sub, &model.Graph)
			}
		case 8:
			if sub, err = f.message("OperatorSetIdProto", opsetFields); err == nil {
				var o OpsetID
				if o, err = decodeOpset(&sub); err != nil {
					err = within(err, "ModelProto.opset_import[%d]", len(model.OpsetImports))
				}
				model.OpsetImports = append(model.OpsetImports, o)
			}
		default:
			f.skip()
		}
		if err != nil {
			return nil, err
		}
	}
	src.structure = int64(len(b)) - d.skipped
	return model, nil
}

var (
	modelFields     = names{1: "ir_version", 7: "graph", 8: "opset_import"}
	opsetFields     = names{1: "domain", 2: "version"}
	graphFields     = names{1: "node", 2: "name", 5: "initializer", 11: "input", 12: "output", 13: "value_info"}
	nodeFields      = names{1: "input", 2: "output", 3: "name", 4: "op_type", 5: "attribute", 7: "domain"}
	attrFields      = names{1: "name", 2: "f", 3: "i", 4: "s", 5: "t", 6: "g", 7: "floats", 8: "ints", 9: "strings", 10: "tensors", 11: "graphs", 14: "tp", 15: "type_protos", 20: "type", 22: "sparse_tensor", 23: "sparse_tensors"}
	valueInfoFields = names{1: "name", 2: "type"}
	typeFields      = names{1: "tensor_type", 4: "sequence_type", 5: "map_type", 8: "sparse_tensor_type", 9: "optional_type"}
	optionalFields  = names{1: "elem_type"}
	sequenceFields  = names{1: "elem_type"}
	mapFields       = names{1: "key_type", 2: "value_type"}
	tensorTypeField = names{1: "elem_type", 2: "shape"}
	shapeFields     = names{1: "dim"}
	dimFields       = names{1: "dim_value", 2: "dim_param", 3: "denotation"}
)

// decoder is the state of one decoding: the source, the bytes skipped unread and the bound on the
// bytes read, the vocabulary met (operator types, domains, attribute names and dim_params, interned:
// stored once however often they occur), the chunk that strings are cut from, and the slabs the
// decoded lists are cut from, so that decoding allocates per chunk, not per string or list.
type decoder struct {
	src     *source
	limit   int64
	skipped int64
	strs    map[string]string

	chars slab.Slab[byte] // the chunks of string bytes

	strings slab.Slab[string]
	bytes   slab.Slab[byte] // byte strings, copied: a model shares no memory with its file
	attrs   slab.Slab[Attribute]
	ints    slab.Slab[int64]
	floats  slab.Slab[float32]
	dims    slab.Slab[shape.Dim]
	spans   slab.Slab[span]
	tensors slab.Slab[Tensor]
}

// intern returns b as a string, the same string for the same bytes.
func (d *decoder) intern(b []byte) string {
	if s, ok := d.strs[string(b)]; ok {
		return s
	}
	if d.strs == nil {
		d.strs = map[string]string{}
	}
	s := d.str(b)
	d.strs[s] = s
	return s
}

// str returns a copy of b as a string, cut from the decoder's chunks of string bytes: the strings
// of a model take an allocation per chunk, not one each (slab.String).
func (d *decoder) str(b []byte) string { return slab.String(&d.chars, b) }

// counts counts the occurrences of each field number below len(c) in the message's bytes, without
// decoding them, so that lists can be allocated once; it stops at the first malformed field, which
// decoding then reports.
func (m *message) counts(c []int) {
	for rest := m.b[m.i:]; len(rest) > 0; {
		num, typ, n := protowire.ConsumeTag(rest)
		if n < 0 {
			return
		}
		k := protowire.ConsumeFieldValue(num, typ, rest[n:])
		if k < 0 {
			return
		}
		if int(num) < len(c) {
			c[num]++
		}
		rest = rest[n+k:]
	}
}

func decodeOpset(m *message) (OpsetID, error) {
	var o OpsetID
	var f field
	for m.more() {
		err := m.next(&f)
		if err == nil {
			switch f.num {
			case 1:
				var b []byte
				if b, err = f.bytes(); err == nil {
					o.Domain = m.d.intern(b)
				}
			case 2:
				o.Version, err = f.int64()
			default:
				f.skip()
			}
		}
		if err != nil {
			return o, err
		}
	}
	return o, nil
}

// decodeGraph decodes a GraphProto into g, adding to its lists: protobuf merges the repeats of an
// embedded message.
func decodeGraph(m *message, g *Graph) error {
	var c [14]int
	m.counts(c[:])
	g.Nodes = slices.Grow(g.Nodes, c[1])
	g.Initializers = slices.Grow(g.Initializers, c[5])
	g.Inputs = slices.Grow(g.Inputs, c[11])
	g.Outputs = slices.Grow(g.Outputs, c[12])
	g.ValueInfo = slices.Grow(g.ValueInfo, c[13])
	var f field
	for m.more() {
		err := m.next(&f)
		if err != nil {
			return err
		}
		var sub message
		switch f.num {
		case 1:
			if sub, err = f.message("NodeProto", nodeFields); err == nil {
				g.Nodes = append(g.Nodes, Node{})
				if err = decodeNode(&sub, &g.Nodes[len(g.Nodes)-1]); err != nil {
					err = within(err, "GraphProto.node[%d]", len(g.Nodes)-1)
				}
			}
		case 2:
			var b []byte
			if b, err = f.bytes(); err == nil {
				g.Name = m.d.str(b)
			}
		case 5:
			if sub, err = f.message("TensorProto", tensorFields); err == nil {
				g.Initializers = append(g.Initializers, Tensor{})
				if err = decodeTensor(&sub, &g.Initializers[len(g.Initializers)-1]); err != nil {
					err = within(err, "GraphProto.initializer[%d]", len(g.Initializers)-1)
				}
			}
		case 11, 12, 13:
			list, what := &g.Inputs, "input"
			if f.num == 12 {
				list, what = &g.Outputs, "output"
			} else if f.num == 13 {
				list, what = &g.ValueInfo, "value_info"
			}
			if sub, err = f.message("ValueInfoProto", valueInfoFields); err == nil {
				*list = append(*list, ValueInfo{})
				if err = decodeValueInfo(&sub, &(*list)[len(*list)-1]); err != nil {
					err = within(err, "GraphProto.%s[%d]", what, len(*list)-1)
				}
			}
		default:
			f.skip()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// decodeNode decodes a NodeProto into n, its lists cut from the decoder's slabs at the sizes the
// message holds.
func decodeNode(m *message, n *Node) error {
	d := m.d
	var c [6]int
	m.counts(c[:])
	n.Inputs = d.strings.Grow(nil, c[1])
	n.Outputs = d.strings.Grow(nil, c[2])
	n.Attrs = d.attrs.Grow(nil, c[5])
	var f field
	for m.more() {
		err := m.next(&f)
		if err != nil {
			return err
		}
		var b []byte
		switch f.num {
		case 1:
			if b, err = f.bytes(); err == nil {
				n.Inputs = append(n.Inputs, d.str(b))
			}
		case 2:
			if b, err = f.bytes(); err == nil {
				n.Outputs = append(n.Outputs, d.str(b))
			}
		case 3:
			if b, err = f.bytes(); err == nil {
				n.Name = d.str(b)
			}
		case 4:
			if b, err = f.bytes(); err == nil {
				n.OpType = d.intern(b)
			}
		case 7:
			if b, err = f.bytes(); err == nil {
				n.Domain = d.intern(b)
			}
		case 5:
			var sub message
			if sub, err = f.message("AttributeProto", attrFields); err == nil {
				n.Attrs = append(n.Attrs, Attribute{})
				if err = decodeAttribute(&sub, &n.Attrs[len(n.Attrs)-1]); err != nil {
					err = within(err, "NodeProto.attribute[%d]", len(n.Attrs)-1)
				}
			}
		default:
			f.skip()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func decodeAttribute(m *message, a *Attribute) error {
	d := m.d
	var f field
	for m.more() {
		err := m.next(&f)
		if err != nil {
			return err
		}
		var sub message
		var b []byte
		switch f.num {
		case 1:
			if b, err = f.bytes(); err == nil {
				a.Name = d.intern(b)
			}
		case 20:
			var v int32
			v, err = f.int32()
			a.Type = AttrType(v)
		case 2:
			a.F, err = f.float32()
		case 3:
			a.I, err = f.int64()
		case 4:
			if b, err = f.bytes(); err == nil {
				a.S = d.bytes.Clone(b)
			}
		case 5:
			if sub, err = f.message("TensorProto", tensorFields); err == nil {
				t := &d.tensors.Make(1)[0]
				if err = decodeTensor(&sub, t); err == nil {
					a.T = t
				}
			}
		case 7:
			var vals []byte
			var n int
			if vals, n, err = f.packed(protowire.Fixed32Type); err == nil {
				a.Floats = d.floats.Grow(a.Floats, n)
				for ; len(vals) > 0; vals = vals[4:] {
					v, _ := protowire.ConsumeFixed32(vals)
					a.Floats = append(a.Floats, math.Float32frombits(v))
				}
			}
		case 8:
			var vals []byte
			var n int
			if vals, n, err = f.packed(protowire.VarintType); err == nil {
				a.Ints = d.ints.Grow(a.Ints, n)
				for len(vals) > 0 {
					v, k := protowire.ConsumeVarint(vals) // checked by packed
					a.Ints = append(a.Ints, int64(v))
					vals = vals[k:]
				}
			}
		case 9:
			if b, err = f.bytes(); err == nil {
				a.Strings = append(a.Strings, d.bytes.Clone(b))
			}
		case 10:
			if sub, err = f.message("TensorProto", tensorFields); err == nil {
				a.Tensors = append(a.Tensors, Tensor{})
				if err = decodeTensor(&sub, &a.Tensors[len(a.Tensors)-1]); err != nil {
					err = within(err, "AttributeProto.tensors[%d]", len(a.Tensors)-1)
				}
			}
		case 6:
			if sub, err = f.message("GraphProto", graphFields); err == nil {
				var g Graph
				if err = decodeGraph(&sub, &g); err != nil {
					err = within(err, "AttributeProto.g")
				}
				a.G = &g
			}
		case 11:
			if sub, err = f.message("GraphProto", graphFields); err == nil {
				a.Graphs = append(a.Graphs, Graph{})
				if err = decodeGraph(&sub, &a.Graphs[len(a.Graphs)-1]); err != nil {
					err = within(err, "AttributeProto.graphs[%d]", len(a.Graphs)-1)
				}
			}
		case 14, 15, 22, 23: // sparse tensors, type protos: skipped unread
			if err = f.want(protowire.BytesType); err == nil {
				f.skip()
			}
		default:
			f.skip()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func decodeValueInfo(m *message, vi *ValueInfo) error {
	vi.Shape = shape.DynamicRank()
	var f field
	for m.more() {
		err := m.next(&f)
		if err != nil {
			return err
		}
		switch f.num {
		case 1:
			var b []byte
			if b, err = f.bytes(); err == nil {
				vi.Name = m.d.str(b)
			}
		case 2:
			var sub message
			if sub, err = f.message("TypeProto", typeFields); err == nil {
				err = decodeType(&sub, vi)
			}
		default:
			f.skip()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// decodeType decodes a TypeProto into vi. Its value is a oneof: the last member present wins.
// tensor_type gives the element type and shape; optional_type, sequence_type and map_type the
// type they hold (ValueInfo.Optional, Seq, Map); a sparse tensor type leaves vi unknown.
func decodeType(m *message, vi *ValueInfo) error {
	var f field
	for m.more() {
		err := m.next(&f)
		if err != nil {
			return err
		}
		var sub message
		switch f.num {
		case 1:
			if sub, err = f.message("TypeProto.Tensor", tensorTypeField); err == nil {
				if !vi.IsTensor() || vi.Optional { // another member of the oneof: it starts again
					resetType(vi)
				}
				err = decodeTensorType(&sub, vi)
			}
		case 4:
			if sub, err = f.message("TypeProto.Sequence", sequenceFields); err == nil {
				resetType(vi)
				elem := &ValueInfo{Shape: shape.DynamicRank()}
				if err = decodeInner(&sub, elem, 1); err == nil {
					vi.Seq = elem
				}
			}
		case 5:
			if sub, err = f.message("TypeProto.Map", mapFields); err == nil {
				resetType(vi)
				err = decodeMap(&sub, vi)
			}
		case 9:
			if sub, err = f.message("TypeProto.Optional", optionalFields); err == nil {
				resetType(vi)
				if err = decodeInner(&sub, vi, 1); err == nil {
					vi.Optional = true
				}
			}
		case 8: // a sparse tensor: not a tensor this package describes
			if err = f.want(protowire.BytesType); err == nil {
				f.skip()
				resetType(vi)
			}
		default:
			f.skip()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// resetType leaves vi, but its name, describing no type: what a member of TypeProto's oneof
// starts from.
func resetType(vi *ValueInfo) {
	*vi = ValueInfo{Name: vi.Name, Shape: shape.DynamicRank()}
}

// decodeInner decodes into vi the TypeProto that the field num of m holds (the elem_type of a
// TypeProto.Optional or TypeProto.Sequence), the last one when it repeats.
func decodeInner(m *message, vi *ValueInfo, num protowire.Number) error {
	var f field
	for m.more() {
		if err := m.next(&f); err != nil {
			return err
		}
		if f.num != num {
			f.skip()
			continue
		}
		sub, err := f.message("TypeProto", typeFields)
		if err != nil {
			return err
		}
		resetType(vi)
		if err := decodeType(&sub, vi); err != nil {
			return err
		}
	}
	return nil
}

// decodeMap decodes a TypeProto.Map into vi: its key_type and its value_type.
func decodeMap(m *message, vi *ValueInfo) error {
	value := &ValueInfo{Shape: shape.DynamicRank()}
	var f field
	for m.more() {
		err := m.next(&f)
		if err != nil {
			return err
		}
		switch f.num {
		case 1:
			var v int32
			v, err = f.int32()
			vi.KeyType = DataType(v)
		case 2:
			var sub message
			if sub, err = f.message("TypeProto", typeFields); err == nil {
				resetType(value)
				err = decodeType(&sub, value)
			}
		default:
			f.skip()
		}
		if err != nil {
			return err
		}
	}
	vi.Map = value
	return nil
}

func decodeTensorType(m *message, vi *ValueInfo) error {
	var f field
	for m.more() {
		err := m.next(&f)
		if err != nil {
			return err
		}
		switch f.num {
		case 1:
			var v int32
			v, err = f.int32()
			vi.ElemType = DataType(v)
		case 2:
			var sub message
			if sub, err = f.message("TensorShapeProto", shapeFields); err == nil {
				vi.Shape.RankDynamic = false
				err = decodeShape(&sub, vi)
			}
		default:
			f.skip()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func decodeShape(m *message, vi *ValueInfo) error {
	d := m.d
	var c [2]int
	m.counts(c[:])
	s := &vi.Shape
	s.Dims = d.dims.Grow(s.Dims, c[1])
	var f field
	for m.more() {
		err := m.next(&f)
		if err != nil {
			return err
		}
		if f.num != 1 {
			f.skip()
			continue
		}
		var sub message
		if sub, err = f.message("TensorShapeProto.Dimension", dimFields); err == nil {
			var dim shape.Dim
			var param, denotation string
			if dim, param, denotation, err = decodeDim(&sub); err != nil {
				err = within(err, "TensorShapeProto.dim[%d]", len(s.Dims))
			}
			vi.DimParams = d.appendNamed(vi.DimParams, s.Dims, param)
			vi.Denotations = d.appendNamed(vi.Denotations, s.Dims, denotation)
			s.Dims = append(s.Dims, dim)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// appendNamed appends name, the name of the dim that follows dims, to names (dim_params,
// denotations), which is nil until a dim has a name.
func (d *decoder) appendNamed(names []string, dims []shape.Dim, name string) []string {
	if name != "" && names == nil {
		names = d.strings.Grow(nil, cap(dims))[:len(dims)]
	}
	if names != nil {
		names = append(names, name)
	}
	return names
}

// decodeDim decodes a TensorShapeProto.Dimension: dim_value and dim_param are a oneof, the last
// present wins. param is the dim_param, "" when a dim_value wins or neither is present; denotation
// is the dim's denotation, "" when absent.
func decodeDim(m *message) (d shape.Dim, param, denotation string, err error) {
	d = shape.Dynamic
	var f field
	for m.more() {
		err := m.next(&f)
		if err != nil {
			return d, "", "", err
		}
		switch f.num {
		case 1:
			var v int64
			if v, err = f.int64(); err == nil {
				switch {
				case v == -1:
					d = shape.Dynamic
				case v < 0:
					err = f.errorf(f.off, "%d: a dimension cannot be negative", v)
				default:
					d = shape.Static(v)
				}
				param = ""
			}
		case 2:
			var b []byte
			if b, err = f.bytes(); err == nil {
				param, d = m.d.intern(b), shape.Dynamic
			}
		case 3:
			var b []byte
			if b, err = f.bytes(); err == nil {
				denotation = m.d.intern(b)
			}
		default:
			f.skip()
		}
		if err != nil {
			return d, "", "", err
		}
	}
	return d, param, denotation, nil
}
