package onnx

import (
	"runtime/debug"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/reshape-go/reshape/errcode"
)

// GraphShapes is what SetShapes writes into one graph of a model.
type GraphShapes struct {
	// Set gives, by tensor name, the type and shape of the graph's input, output or value_info
	// entries of that name: their type field is replaced, their other fields kept.
	Set map[string]ValueInfo
	// Add lists value infos to append to the graph's value_info: tensors it declares nowhere.
	Add []ValueInfo
}

// SetShapes returns the model b, a ModelProto, with the shapes of graphs written in, as
// onnx.shape_inference.infer_shapes writes the shapes it infers: graphs maps the path of a graph to
// what to write in it, "" for the main graph and, for a subgraph, the path of the node that holds
// it and the attribute ("If_3/then_branch", nested "Loop_1/body/If_2/else_branch"), a node named by
// its name, or OP#INDEX (its operator and index in its graph) when it has none. A value info
// writes its element type, static dims as dim_value, named dims (DimParams: a model's symbol or an
// expression such as "B*T") as dim_param, other dims as an empty Dimension, and no shape for a
// dynamic rank. Every other byte of b is kept, unknown fields included; fields of a message that
// is rewritten keep their order, the new type of a value info and the added value infos going last
// (protobuf reads fields in any order). b must decode with DecodeModel; an error wraps
// errcode.ErrSyntax for a malformed ModelProto or one without a graph. b may be a mapped file
// (Model.Bytes of a model Open decoded): a fault on it, the file truncated while mapped, is an
// error wrapping errcode.ErrSyntax.
func SetShapes(b []byte, graphs map[string]GraphShapes) (_ []byte, err error) {
	defer recoverFault(&err, debug.SetPanicOnFault(true))
	out := make([]byte, 0, len(b)+len(b)/8)
	found := false
	err = eachField(b, "ModelProto", func(num protowire.Number, typ protowire.Type, field, value []byte) error {
		if num != 7 || typ != protowire.BytesType {
			out = append(out, field...)
			return nil
		}
		found = true
		g, err := setGraph(value, "", graphs, 0)
		out = appendBytes(out, 7, g)
		return err
	})
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, errcode.Errorf(errcode.ErrSyntax, "ModelProto: no graph")
	}
	return out, nil
}

// eachField calls fn with each field of the message b (named what in errors): its number, wire
// type, bytes (tag included) and, for a field of bytes, its value.
func eachField(b []byte, what string, fn func(num protowire.Number, typ protowire.Type, field, value []byte) error) error {
	for off := 0; off < len(b); {
		num, typ, n := protowire.ConsumeTag(b[off:])
		if n < 0 {
			return errcode.Errorf(errcode.ErrSyntax, "%s: bad field tag at offset %d", what, off)
		}
		m := protowire.ConsumeFieldValue(num, typ, b[off+n:])
		if m < 0 {
			return errcode.Errorf(errcode.ErrSyntax, "%s: field %d: truncated at offset %d", what, num, off)
		}
		var value []byte
		if typ == protowire.BytesType {
			value, _ = protowire.ConsumeBytes(b[off+n:])
		}
		if err := fn(num, typ, b[off:off+n+m], value); err != nil {
			return err
		}
		off += n + m
	}
	return nil
}

// setGraph rewrites the GraphProto g at path: the types of the inputs (11), outputs (12) and
// value_info (13) that graphs[path] sets, its added value infos, and the subgraphs of its nodes.
func setGraph(g []byte, path string, graphs map[string]GraphShapes, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, errcode.Errorf(errcode.ErrLimit, "GraphProto: subgraphs nest deeper than %d", maxDepth)
	}
	gs := graphs[path]
	out := make([]byte, 0, len(g))
	index := 0 // of the node in its graph
	err := eachField(g, "GraphProto", func(num protowire.Number, typ protowire.Type, field, value []byte) error {
		switch {
		case typ != protowire.BytesType:
		case num == 1:
			n, err := setNode(value, path, index, graphs, depth)
			index++
			out = appendBytes(out, 1, n)
			return err
		case num == 11 || num == 12 || num == 13:
			name, err := stringField(value, "ValueInfoProto", 1)
			if vi, ok := gs.Set[name]; ok && err == nil {
				out = appendBytes(out, num, setType(value, &vi))
				return nil
			}
		}
		out = append(out, field...)
		return nil
	})
	for i := range gs.Add {
		out = appendBytes(out, 13, encodeValueInfo(&gs.Add[i]))
	}
	return out, err
}

// setNode rewrites the subgraphs of the NodeProto n, node index of the graph at path: the graph
// of each attribute's g (6) is at path NODE/ATTR, each of its graphs (11) at NODE/ATTR#K.
func setNode(n []byte, path string, index int, graphs map[string]GraphShapes, depth int) ([]byte, error) {
	var name, op string
	hasGraph := false
	err := eachField(n, "NodeProto", func(num protowire.Number, typ protowire.Type, field, value []byte) error {
		switch {
		case typ != protowire.BytesType:
		case num == 3:
			name = string(value)
		case num == 4:
			op = string(value)
		case num == 5:
			hasGraph = hasGraph || attrHasGraph(value)
		}
		return nil
	})
	if err != nil || !hasGraph {
		return n, err
	}
	if name == "" {
		name = op + "#" + strconv.Itoa(index)
	}
	node := path + name + "/"
	if path != "" {
		node = path + "/" + name + "/"
	}
	out := make([]byte, 0, len(n))
	err = eachField(n, "NodeProto", func(num protowire.Number, typ protowire.Type, field, value []byte) error {
		if num != 5 || typ != protowire.BytesType || !attrHasGraph(value) {
			out = append(out, field...)
			return nil
		}
		a, err := setAttr(value, node, graphs, depth)
		out = appendBytes(out, 5, a)
		return err
	})
	return out, err
}

// attrHasGraph reports whether the AttributeProto a holds a graph (g, 6) or graphs (11).
func attrHasGraph(a []byte) bool {
	has := false
	eachField(a, "AttributeProto", func(num protowire.Number, typ protowire.Type, _, _ []byte) error {
		has = has || typ == protowire.BytesType && (num == 6 || num == 11)
		return nil
	})
	return has
}

// setAttr rewrites the graphs of the AttributeProto a of the node at path node ("PATH/NODE/").
func setAttr(a []byte, node string, graphs map[string]GraphShapes, depth int) ([]byte, error) {
	name, _ := stringField(a, "AttributeProto", 1) // a malformed attribute fails the walk below
	out := make([]byte, 0, len(a))
	k := 0
	err := eachField(a, "AttributeProto", func(num protowire.Number, typ protowire.Type, field, value []byte) error {
		var path string
		switch {
		case typ == protowire.BytesType && num == 6:
			path = node + name
		case typ == protowire.BytesType && num == 11:
			path = node + name + "#" + strconv.Itoa(k)
			k++
		default:
			out = append(out, field...)
			return nil
		}
		g, err := setGraph(value, path, graphs, depth+1)
		out = appendBytes(out, num, g)
		return err
	})
	return out, err
}

// stringField returns the last string field num of the message msg, of the type named message
// (the name (1) of a ValueInfoProto or an AttributeProto, the name (8) of a TensorProto), without
// decoding its other fields; "" when it has none.
func stringField(msg []byte, message string, num protowire.Number) (string, error) {
	var s string
	err := eachField(msg, message, func(n protowire.Number, typ protowire.Type, _, value []byte) error {
		if n == num && typ == protowire.BytesType {
			s = string(value)
		}
		return nil
	})
	return s, err
}

// setType returns the ValueInfoProto old with its type (2) replaced by that of vi, its other
// fields kept.
func setType(old []byte, vi *ValueInfo) []byte {
	out := make([]byte, 0, len(old)+32)
	eachField(old, "ValueInfoProto", func(num protowire.Number, _ protowire.Type, field, _ []byte) error {
		if num != 2 {
			out = append(out, field...)
		}
		return nil
	})
	return appendBytes(out, 2, encodeType(vi))
}
