package onnx_test

import (
	"math"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/reshape-go/reshape/onnx"
)

// pb is a protobuf message under construction, for the tests: each method appends one field (or,
// raw, any bytes at all) and returns the longer message.
type pb []byte

func (b pb) varint(num protowire.Number, v uint64) pb {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

// int appends an int64 (or, sign-extended as protobuf writes them, int32 or enum) field.
func (b pb) int(num protowire.Number, v int64) pb { return b.varint(num, uint64(v)) }

func (b pb) fixed32(num protowire.Number, v uint32) pb {
	b = protowire.AppendTag(b, num, protowire.Fixed32Type)
	return protowire.AppendFixed32(b, v)
}

func (b pb) float(num protowire.Number, v float32) pb { return b.fixed32(num, math.Float32bits(v)) }

func (b pb) fixed64(num protowire.Number, v uint64) pb {
	b = protowire.AppendTag(b, num, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, v)
}

func (b pb) bytes(num protowire.Number, v []byte) pb {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func (b pb) str(num protowire.Number, s string) pb { return b.bytes(num, []byte(s)) }

func (b pb) msg(num protowire.Number, m pb) pb { return b.bytes(num, m) }

// packed appends a packed repeated varint field.
func (b pb) packed(num protowire.Number, vals ...int64) pb {
	var p []byte
	for _, v := range vals {
		p = protowire.AppendVarint(p, uint64(v))
	}
	return b.bytes(num, p)
}

// unpacked appends the values of a repeated varint field one field each.
func (b pb) unpacked(num protowire.Number, vals ...int64) pb {
	for _, v := range vals {
		b = b.int(num, v)
	}
	return b
}

func (b pb) packedFloats(num protowire.Number, vals ...float32) pb {
	var p []byte
	for _, v := range vals {
		p = protowire.AppendFixed32(p, math.Float32bits(v))
	}
	return b.bytes(num, p)
}

func (b pb) packedDoubles(num protowire.Number, vals ...float64) pb {
	var p []byte
	for _, v := range vals {
		p = protowire.AppendFixed64(p, math.Float64bits(v))
	}
	return b.bytes(num, p)
}

func (b pb) raw(bytes ...byte) pb { return append(b, bytes...) }

// The field numbers of onnx.proto the tests write.
const (
	// ModelProto
	fModelIRVersion = 1
	fModelProducer  = 2
	fModelGraph     = 7
	fModelOpset     = 8
	// OperatorSetIdProto
	fOpsetDomain  = 1
	fOpsetVersion = 2
	// GraphProto
	fGraphNode        = 1
	fGraphName        = 2
	fGraphInitializer = 5
	fGraphDoc         = 10
	fGraphInput       = 11
	fGraphOutput      = 12
	fGraphValueInfo   = 13
	fGraphSparseInit  = 15
	// NodeProto
	fNodeInput  = 1
	fNodeOutput = 2
	fNodeName   = 3
	fNodeOpType = 4
	fNodeAttr   = 5
	fNodeDoc    = 6
	fNodeDomain = 7
	// AttributeProto
	fAttrName    = 1
	fAttrF       = 2
	fAttrI       = 3
	fAttrS       = 4
	fAttrT       = 5
	fAttrG       = 6
	fAttrFloats  = 7
	fAttrInts    = 8
	fAttrStrings = 9
	fAttrTensors = 10
	fAttrGraphs  = 11
	fAttrType    = 20
	// ValueInfoProto, TypeProto, TypeProto.Tensor, TensorShapeProto, Dimension
	fValueName      = 1
	fValueType      = 2
	fTypeTensor     = 1
	fTypeSequence   = 4
	fTypeMap        = 5
	fTypeOptional   = 9
	fTensorElemType = 1
	fTensorShape    = 2
	fShapeDim       = 1
	fDimValue       = 1
	fDimParam       = 2
	// TensorProto
	fTensorDims         = 1
	fTensorDataType     = 2
	fTensorSegment      = 3
	fTensorFloatData    = 4
	fTensorInt32Data    = 5
	fTensorStringData   = 6
	fTensorInt64Data    = 7
	fTensorName         = 8
	fTensorRawData      = 9
	fTensorDoubleData   = 10
	fTensorUint64Data   = 11
	fTensorDoc          = 12
	fTensorExternalData = 13
	fTensorDataLocation = 14
)

// tensorPB starts a TensorProto as ONNX writes one: dims unpacked, data_type, name; the values
// follow with the caller's fields.
func tensorPB(name string, dt onnx.DataType, dims ...int64) pb {
	b := pb{}.unpacked(fTensorDims, dims...).int(fTensorDataType, int64(dt))
	if name != "" {
		b = b.str(fTensorName, name)
	}
	return b
}

// valueInfoPB returns a ValueInfoProto of a tensor type: each dim is an int (dim_value), a string
// (dim_param) or nil (an empty Dimension). A nil dims leaves the shape out.
func valueInfoPB(name string, elem onnx.DataType, dims []any) pb {
	tt := pb{}.int(fTensorElemType, int64(elem))
	if dims != nil {
		shape := pb{}
		for _, d := range dims {
			dim := pb{}
			switch d := d.(type) {
			case int:
				dim = dim.int(fDimValue, int64(d))
			case int64: // one past int's range on 32-bit platforms
				dim = dim.int(fDimValue, d)
			case string:
				dim = dim.str(fDimParam, d)
			}
			shape = shape.msg(fShapeDim, dim)
		}
		tt = tt.msg(fTensorShape, shape)
	}
	return pb{}.str(fValueName, name).msg(fValueType, pb{}.msg(fTypeTensor, tt))
}

// nodePB returns a NodeProto.
func nodePB(name, op string, inputs, outputs []string, attrs ...pb) pb {
	b := pb{}
	for _, in := range inputs {
		b = b.str(fNodeInput, in)
	}
	for _, out := range outputs {
		b = b.str(fNodeOutput, out)
	}
	b = b.str(fNodeName, name).str(fNodeOpType, op)
	for _, a := range attrs {
		b = b.msg(fNodeAttr, a)
	}
	return b
}

// attrPB starts an AttributeProto: name and type; the value follows with the caller's fields.
func attrPB(name string, t onnx.AttrType) pb {
	return pb{}.str(fAttrName, name).int(fAttrType, int64(t))
}

// modelPB returns a ModelProto of IR version 8 importing the default opset version 14.
func modelPB(graph pb) pb {
	opset := pb{}.str(fOpsetDomain, "").int(fOpsetVersion, 14)
	return pb{}.int(fModelIRVersion, 8).str(fModelProducer, "reshape-test").msg(fModelGraph, graph).msg(fModelOpset, opset)
}

// reshapeGraphPB returns the GraphProto of one ONNX Reshape: data [2,?,batch] f32, shape [3] i64
// (an initializer holding pattern), output reshaped.
func reshapeGraphPB(pattern []int64, attrs ...pb) pb {
	node := nodePB("r", "Reshape", []string{"data", "shape"}, []string{"reshaped"}, attrs...)
	init := tensorPB("shape", onnx.Int64, int64(len(pattern))).packed(fTensorInt64Data, pattern...)
	return pb{}.msg(fGraphNode, node).str(fGraphName, "g").msg(fGraphInitializer, init).
		msg(fGraphInput, valueInfoPB("data", onnx.Float, []any{2, nil, "batch"})).
		msg(fGraphInput, valueInfoPB("shape", onnx.Int64, []any{len(pattern)})).
		msg(fGraphOutput, valueInfoPB("reshaped", onnx.Float, nil))
}
