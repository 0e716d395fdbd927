package onnx

import (
	"io"
	"maps"
	"runtime/debug"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/reshape-go/reshape/errcode"
)

// GraphEdit is what WriteEdited changes in the main graph of a model. Nodes are named by their
// index in Graph.Nodes of the decoded model, initializers and value infos by name.
type GraphEdit struct {
	// Insert gives, by node index, the nodes to write before that node, in order: new nodes go
	// before the first node that reads their outputs, so that the graph stays topologically sorted.
	Insert map[int][]Node
	// Inputs gives, by node index, inputs of that node to rename: input index to the new name.
	Inputs map[int]map[int]string
	// RemoveNodes and RemoveInitializers name the nodes (by index) and initializers (by name) to
	// leave out: a constant that nothing reads any more.
	RemoveNodes        map[int]bool
	RemoveInitializers map[string]bool
	// Set gives, by tensor name, the type and shape of the graph's input, output or value_info
	// entries of that name, as GraphShapes.Set does for SetShapes.
	Set map[string]ValueInfo
}

// WriteEdited writes to w the model b, a ModelProto, with e applied to its main graph, and returns
// the number of bytes written. Every other byte of b is copied as it is, in order: the fields of
// the model and of the graph, unknown ones included, the initializers' values (which are not
// decoded), the subgraphs; a node whose inputs are renamed keeps its other fields and their order.
// New nodes are encoded as EncodeModel encodes a node. The main graph's length is computed before
// it is written, so that the model streams to w without being copied into memory: b may be a
// mapped file (Model.Bytes of a model Open decoded), and a model of any size is written in the
// memory its graph's structure takes.
//
// b must decode with DecodeModel; a model without a graph (an empty one) is written as it is. An
// error wraps errcode.ErrSyntax for a malformed ModelProto, an edit that names a node index the
// graph does not have or an input index its node does not have, or a mapped file truncated while it is written (the fault is recovered); an
// error of w is returned as it is. After an error, what was written to w is not a model: write to
// a temporary file, and rename it into place only when WriteEdited succeeds.
func WriteEdited(w io.Writer, b []byte, e *GraphEdit) (n int64, err error) {
	defer recoverFault(&err, debug.SetPanicOnFault(true))
	if err := checkEdit(b, e); err != nil {
		return 0, err
	}
	ew := &editWriter{w: w}
	index := 0
	err = eachField(b, "ModelProto", func(num protowire.Number, typ protowire.Type, field, value []byte) error {
		if num != 7 || typ != protowire.BytesType {
			ew.write(field)
			return ew.err
		}
		segs, err := editGraph(value, e, &index)
		if err != nil {
			return err
		}
		size := 0
		for _, s := range segs {
			size += len(s)
		}
		head := protowire.AppendTag(nil, 7, protowire.BytesType)
		ew.write(protowire.AppendVarint(head, uint64(size)))
		for _, s := range segs {
			ew.write(s)
		}
		return ew.err
	})
	return ew.n, err
}

// checkEdit returns an error wrapping errcode.ErrSyntax when e names a node index that the main
// graph of the model b does not have, before anything is written.
func checkEdit(b []byte, e *GraphEdit) error {
	nodes := 0
	err := eachField(b, "ModelProto", func(num protowire.Number, typ protowire.Type, _, value []byte) error {
		if num != 7 || typ != protowire.BytesType {
			return nil
		}
		return eachField(value, "GraphProto", func(num protowire.Number, typ protowire.Type, _, _ []byte) error {
			if num == 1 && typ == protowire.BytesType {
				nodes++
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	for _, m := range []map[int]bool{keys(e.Insert), keys(e.Inputs), e.RemoveNodes} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if k < 0 || k >= nodes {
				return errcode.Errorf(errcode.ErrSyntax, "GraphProto: the edit names node %d, of a graph of %d nodes", k, nodes)
			}
		}
	}
	return nil
}

// keys returns the set of m's keys.
func keys[V any](m map[int]V) map[int]bool {
	out := make(map[int]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// editWriter writes to w, counting the bytes and keeping the first error.
type editWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (ew *editWriter) write(b []byte) {
	if ew.err != nil {
		return
	}
	k, err := ew.w.Write(b)
	ew.n += int64(k)
	ew.err = err
}

// editGraph returns the GraphProto g with e applied, as segments to write in order: the fields of
// g that do not change are slices of g. index is the index of g's first node in the model's main
// graph (a model may hold its graph in several fields, which decoding merges), advanced past its
// nodes.
func editGraph(g []byte, e *GraphEdit, index *int) ([][]byte, error) {
	var segs [][]byte
	err := eachField(g, "GraphProto", func(num protowire.Number, typ protowire.Type, field, value []byte) error {
		switch {
		case typ != protowire.BytesType:
		case num == 1:
			k := *index
			*index++
			for i := range e.Insert[k] {
				segs = append(segs, appendBytes(nil, 1, (&encoder{}).node(&e.Insert[k][i])))
			}
			switch {
			case e.RemoveNodes[k]:
				return nil
			case len(e.Inputs[k]) > 0:
				n, err := renameInputs(value, e.Inputs[k])
				if err != nil {
					return within(err, "GraphProto.node[%d]", k)
				}
				segs = append(segs, appendBytes(nil, 1, n))
				return nil
			}
		case num == 5 && len(e.RemoveInitializers) > 0:
			name, err := stringField(value, "TensorProto", 8)
			if err != nil {
				return err
			}
			if e.RemoveInitializers[name] {
				return nil
			}
		case num == 11 || num == 12 || num == 13:
			name, err := stringField(value, "ValueInfoProto", 1)
			if vi, ok := e.Set[name]; ok && err == nil {
				segs = append(segs, appendBytes(nil, num, setType(value, &vi)))
				return nil
			}
		}
		segs = append(segs, field)
		return nil
	})
	return segs, err
}

// renameInputs returns the NodeProto n with the inputs (field 1) at the indices of names renamed,
// its other fields kept in order; an error wrapping errcode.ErrSyntax when it has no input at one
// of the indices.
func renameInputs(n []byte, names map[int]string) ([]byte, error) {
	out := make([]byte, 0, len(n)+64)
	k := 0
	err := eachField(n, "NodeProto", func(num protowire.Number, typ protowire.Type, field, _ []byte) error {
		if num == 1 && typ == protowire.BytesType {
			name, ok := names[k]
			k++
			if ok {
				out = appendBytes(out, 1, []byte(name))
				return nil
			}
		}
		out = append(out, field...)
		return nil
	})
	for _, i := range slices.Sorted(maps.Keys(names)) {
		if err == nil && (i < 0 || i >= k) {
			err = errcode.Errorf(errcode.ErrSyntax, "no input %d to rename: the node has %d", i, k)
		}
	}
	return out, err
}
