package onnx

import (
	"runtime/debug"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/reshape-go/reshape/errcode"
)

// AddValueInfo returns the model b, a ModelProto, with vis added to its main graph's value_info
// (GraphProto field 13), as onnx.shape_inference.infer_shapes adds the shapes it infers; every
// other byte of b is kept as it is, in order, unknown fields included. A value info writes its
// element type, static dims as dim_value, named dims (DimParams: a model's symbol or an expression
// such as "B*T") as dim_param, and other dims as an empty Dimension. b must decode with
// DecodeModel; an error wraps errcode.ErrSyntax for a malformed ModelProto or one without a graph.
// b may be a mapped file (Model.Bytes of a model Open decoded): a fault on it, the file truncated
// while mapped, is an error wrapping errcode.ErrSyntax.
func AddValueInfo(b []byte, vis []ValueInfo) (_ []byte, err error) {
	defer recoverFault(&err, debug.SetPanicOnFault(true))
	var add []byte
	for i := range vis {
		add = appendBytes(add, 13, encodeValueInfo(&vis[i]))
	}
	// The value infos join the last graph field: protobuf merges repeated embedded messages, and
	// appending repeated fields to a message's bytes adds to them.
	last := -1
	for rest, off := b, 0; len(rest) > 0; {
		num, typ, n := protowire.ConsumeTag(rest)
		if n < 0 {
			return nil, errcode.Errorf(errcode.ErrSyntax, "ModelProto: bad field tag at offset %d", off)
		}
		m := protowire.ConsumeFieldValue(num, typ, rest[n:])
		if m < 0 {
			return nil, errcode.Errorf(errcode.ErrSyntax, "ModelProto: field %d: truncated at offset %d", num, off)
		}
		if num == 7 && typ == protowire.BytesType {
			last = off
		}
		rest, off = rest[n+m:], off+n+m
	}
	if last < 0 {
		return nil, errcode.Errorf(errcode.ErrSyntax, "ModelProto: no graph")
	}
	out := make([]byte, 0, len(b)+len(add)+16)
	out = append(out, b[:last]...)
	_, _, n := protowire.ConsumeTag(b[last:])
	g, m := protowire.ConsumeBytes(b[last+n:])
	out = protowire.AppendTag(out, 7, protowire.BytesType)
	out = protowire.AppendVarint(out, uint64(len(g)+len(add)))
	out = append(append(out, g...), add...)
	return append(out, b[last+n+m:]...), nil
}
