package onnx_test

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/x448/float16"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/reshape-go/reshape/bfloat16"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/tensor"
)

// TestModelRoundTrip decodes a model the test encoder wrote, with every kind of attribute, value
// infos of every form, and fields this package skips.
func TestModelRoundTrip(t *testing.T) {
	tensorAttr := tensorPB("t", onnx.Int32, 2).packed(fTensorInt32Data, -7, 9)
	subgraph := pb{}.str(fGraphName, "body").msg(fGraphNode, nodePB("n", "Identity", []string{"x"}, []string{"y"}))
	attrs := []pb{
		attrPB("allowzero", onnx.AttrInt).int(fAttrI, 1),
		attrPB("alpha", onnx.AttrFloat).float(fAttrF, 0.25),
		attrPB("mode", onnx.AttrString).str(fAttrS, "nearest"),
		attrPB("value", onnx.AttrTensor).msg(fAttrT, tensorAttr),
		attrPB("scales", onnx.AttrFloats).packedFloats(fAttrFloats, 1, 2.5).float(fAttrFloats, -3), // packed, then unpacked
		attrPB("perm", onnx.AttrInts).unpacked(fAttrInts, 0, -1).packed(fAttrInts, 1<<40),          // unpacked, then packed
		attrPB("names", onnx.AttrStrings).str(fAttrStrings, "a").str(fAttrStrings, ""),
		attrPB("list", onnx.AttrTensors).msg(fAttrTensors, tensorAttr).msg(fAttrTensors, tensorPB("e", onnx.Float, 0)),
		attrPB("body", onnx.AttrGraph).msg(fAttrG, subgraph),
		attrPB("branches", onnx.AttrGraphs).msg(fAttrGraphs, subgraph).msg(fAttrGraphs, subgraph),
	}
	reshapeNode := nodePB("r", "Reshape", []string{"data", "shape"}, []string{"reshaped"}, attrs[0]).str(fNodeDomain, "ai.onnx").str(fNodeDoc, "doc")
	kitchen := nodePB("k", "Kitchen", []string{"data", ""}, []string{"a", "b"}, attrs...).str(fNodeDomain, "com.example")
	sequence := pb{}.str(fValueName, "seq").msg(fValueType, pb{}.msg(fTypeSequence, pb{}.msg(1, pb{})))
	noType := pb{}.str(fValueName, "untyped")
	graph := pb{}.str(fGraphName, "g").str(fGraphDoc, "a graph").
		msg(fGraphNode, reshapeNode).msg(fGraphNode, kitchen).
		msg(fGraphInitializer, tensorPB("shape", onnx.Int64, 3).packed(fTensorInt64Data, 0, -1).int(fTensorInt64Data, 4)).
		msg(fGraphSparseInit, pb{}.msg(1, tensorPB("v", onnx.Float, 0))).
		msg(fGraphInput, valueInfoPB("data", onnx.Float, []any{2, "batch", nil, 24})).
		msg(fGraphInput, valueInfoPB("shape", onnx.Int64, []any{3})).
		msg(fGraphOutput, valueInfoPB("reshaped", onnx.Float, nil)).
		msg(fGraphOutput, valueInfoPB("data", onnx.Double, []any{})). // shadowed by the input
		msg(fGraphValueInfo, valueInfoPB("scalar", onnx.Bool, []any{})).
		msg(fGraphValueInfo, sequence).msg(fGraphValueInfo, noType).
		int(99, 5).fixed64(98, 1).raw(0xbb, 0x06, 0x08, 0x01, 0xbc, 0x06) // unknown fields: a varint, a fixed64, a group
	opsets := pb{}.
		msg(fModelOpset, pb{}.int(fOpsetVersion, 13)).
		msg(fModelOpset, pb{}.str(fOpsetDomain, "ai.onnx.ml").int(fOpsetVersion, 3)).
		msg(fModelOpset, pb{}.str(fOpsetDomain, "ai.onnx").int(fOpsetVersion, 14))
	b := pb{}.int(fModelIRVersion, 9).str(fModelProducer, "test").raw(opsets...).msg(fModelGraph, graph).str(14, "metadata")

	m, err := onnx.DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	if m.IRVersion != 9 || len(m.OpsetImports) != 3 || m.OpsetImports[1] != (onnx.OpsetID{Domain: "ai.onnx.ml", Version: 3}) {
		t.Errorf("model %d %v", m.IRVersion, m.OpsetImports)
	}
	for _, c := range []struct {
		domain string
		v      int64
		ok     bool
	}{{"", 14, true}, {"ai.onnx", 14, true}, {"ai.onnx.ml", 3, true}, {"com.example", 0, false}} {
		if v, ok := m.Opset(c.domain); v != c.v || ok != c.ok {
			t.Errorf("Opset(%q) = %d, %v; want %d, %v", c.domain, v, ok, c.v, c.ok)
		}
	}
	g := &m.Graph
	if g.Name != "g" || len(g.Nodes) != 2 || len(g.Initializers) != 1 || len(g.Inputs) != 2 || len(g.Outputs) != 2 || len(g.ValueInfo) != 3 {
		t.Fatalf("graph %q: %d nodes, %d initializers, %d/%d/%d value infos", g.Name, len(g.Nodes), len(g.Initializers), len(g.Inputs), len(g.Outputs), len(g.ValueInfo))
	}
	r := g.Nodes[0]
	if r.Name != "r" || r.OpType != "Reshape" || r.Domain != "ai.onnx" || !slices.Equal(r.Inputs, []string{"data", "shape"}) || len(r.Attrs) != 1 {
		t.Errorf("node 0 = %+v", r)
	}
	init, ok := g.Initializer("shape")
	if !ok {
		t.Fatal("no initializer shape")
	}
	if p, err := init.Ints(); err != nil || !slices.Equal(p, []int64{0, -1, 4}) || init.DataType != onnx.Int64 {
		t.Errorf("initializer shape = %v, %v (%v)", p, err, init.DataType)
	}
	if _, ok := g.Initializer("v"); ok {
		t.Error("the sparse initializer v is among the initializers")
	}

	k := g.Nodes[1]
	if k.Domain != "com.example" || !slices.Equal(k.Inputs, []string{"data", ""}) || !slices.Equal(k.Outputs, []string{"a", "b"}) || len(k.Attrs) != len(attrs) {
		t.Fatalf("node 1 = %+v", k)
	}
	attr := func(name string) *onnx.Attribute {
		a, ok := k.Attr(name)
		if !ok {
			t.Fatalf("no attribute %q", name)
		}
		return a
	}
	if a := attr("allowzero"); a.Type != onnx.AttrInt || a.I != 1 {
		t.Errorf("allowzero = %+v", a)
	}
	if a := attr("alpha"); a.Type != onnx.AttrFloat || a.F != 0.25 {
		t.Errorf("alpha = %+v", a)
	}
	if a := attr("mode"); a.Type != onnx.AttrString || string(a.S) != "nearest" {
		t.Errorf("mode = %+v", a)
	}
	if a := attr("value"); a.Type != onnx.AttrTensor || a.T == nil || a.T.Name != "t" {
		t.Errorf("value = %+v", a)
	} else if v, err := a.T.Ints(); err != nil || !slices.Equal(v, []int64{-7, 9}) {
		t.Errorf("value = %v, %v", v, err)
	}
	if a := attr("scales"); a.Type != onnx.AttrFloats || !slices.Equal(a.Floats, []float32{1, 2.5, -3}) {
		t.Errorf("scales = %+v", a)
	}
	if a := attr("perm"); a.Type != onnx.AttrInts || !slices.Equal(a.Ints, []int64{0, -1, 1 << 40}) {
		t.Errorf("perm = %+v", a)
	}
	if a := attr("names"); a.Type != onnx.AttrStrings || len(a.Strings) != 2 || string(a.Strings[0]) != "a" || len(a.Strings[1]) != 0 {
		t.Errorf("names = %+v", a)
	}
	if a := attr("list"); a.Type != onnx.AttrTensors || len(a.Tensors) != 2 || a.Tensors[1].DataType != onnx.Float || !slices.Equal(a.Tensors[1].Dims, []int64{0}) {
		t.Errorf("list = %+v", a)
	}
	for name, typ := range map[string]onnx.AttrType{"body": onnx.AttrGraph, "branches": onnx.AttrGraphs} {
		if a := attr(name); a.Type != typ {
			t.Errorf("%s: type %v, want %v", name, a.Type, typ)
		}
	}
	if _, ok := k.Attr("nothing"); ok {
		t.Error("Attr found an attribute that is not there")
	}

	for _, c := range []struct {
		name  string
		elem  onnx.DataType
		shape string
	}{
		{"data", onnx.Float, "[2,?,?,24]"}, // the input, not the output of the same name
		{"shape", onnx.Int64, "[3]"},
		{"reshaped", onnx.Float, "[...]"}, // no shape
		{"scalar", onnx.Bool, "[]"},
		{"seq", onnx.Undefined, "[...]"}, // not a tensor
		{"untyped", onnx.Undefined, "[...]"},
	} {
		vi, ok := g.ValueInfoOf(c.name)
		if !ok {
			t.Errorf("no value info %q", c.name)
			continue
		}
		if vi.Name != c.name || vi.ElemType != c.elem || vi.Shape.String() != c.shape {
			t.Errorf("value info %q = %v %v, want %v %s", c.name, vi.ElemType, vi.Shape, c.elem, c.shape)
		}
	}
	if _, ok := g.ValueInfoOf("nothing"); ok {
		t.Error("ValueInfoOf found a value that is not there")
	}
}

// TestDecodeTensorTyped decodes the values of each data type from its typed field, packed and not,
// and compares them with the project's tensor of the same values.
func TestDecodeTensorTyped(t *testing.T) {
	f16 := func(v ...float32) []float16.Float16 {
		var out []float16.Float16
		for _, x := range v {
			out = append(out, float16.Fromfloat32(x))
		}
		return out
	}
	bf16 := func(v ...float32) []bfloat16.BFloat16 {
		var out []bfloat16.BFloat16
		for _, x := range v {
			out = append(out, bfloat16.FromFloat32(x))
		}
		return out
	}
	bits16 := func(v ...uint16) []int64 {
		var out []int64
		for _, x := range v {
			out = append(out, int64(x))
		}
		return out
	}
	fp16, bfp16 := f16(1, -2, 0.5), bf16(1, -2, 0.5)
	packed := func(et element.Type, data []byte, dims ...int64) tensor.Tensor {
		return must2(tensor.FromBytes(et, dims, data))
	}
	for _, c := range []struct {
		name string
		b    pb
		want tensor.Tensor
		ints []int64 // Ints, for integer types
	}{
		{"FLOAT packed", tensorPB("x", onnx.Float, 2).packedFloats(fTensorFloatData, 1.5, -2),
			must2(tensor.FromSlice([]float32{1.5, -2})), nil},
		{"FLOAT unpacked", tensorPB("x", onnx.Float, 1, 2).float(fTensorFloatData, 1.5).float(fTensorFloatData, -2),
			must2(tensor.FromSlice([]float32{1.5, -2}, 1, 2)), nil},
		{"DOUBLE packed and unpacked", tensorPB("x", onnx.Double, 3).packedDoubles(fTensorDoubleData, 1e300, -1).fixed64(fTensorDoubleData, math.Float64bits(0.1)),
			must2(tensor.FromSlice([]float64{1e300, -1, 0.1})), nil},
		{"INT32", tensorPB("x", onnx.Int32, 3).packed(fTensorInt32Data, math.MinInt32, -1, math.MaxInt32),
			must2(tensor.FromSlice([]int32{math.MinInt32, -1, math.MaxInt32})), []int64{math.MinInt32, -1, math.MaxInt32}},
		{"INT16 unpacked", tensorPB("x", onnx.Int16, 2).unpacked(fTensorInt32Data, -300, 400),
			must2(tensor.FromSlice([]int16{-300, 400})), []int64{-300, 400}},
		{"INT8", tensorPB("x", onnx.Int8, 2).packed(fTensorInt32Data, -128, 127),
			must2(tensor.FromSlice([]int8{-128, 127})), []int64{-128, 127}},
		{"UINT8", tensorPB("x", onnx.Uint8, 2).packed(fTensorInt32Data, 0, 255),
			must2(tensor.FromSlice([]uint8{0, 255})), []int64{0, 255}},
		{"UINT16", tensorPB("x", onnx.Uint16, 2).packed(fTensorInt32Data, 65535, 1),
			must2(tensor.FromSlice([]uint16{65535, 1})), []int64{65535, 1}},
		{"BOOL", tensorPB("x", onnx.Bool, 3).packed(fTensorInt32Data, 0, 1, 2),
			must2(tensor.FromSlice([]bool{false, true, true})), nil},
		{"FLOAT16 bit patterns", tensorPB("x", onnx.Float16, 3).packed(fTensorInt32Data, bits16(fp16[0].Bits(), fp16[1].Bits(), fp16[2].Bits())...),
			must2(tensor.FromSlice(fp16)), nil},
		{"BFLOAT16 bit patterns", tensorPB("x", onnx.BFloat16, 3).packed(fTensorInt32Data, bits16(bfp16[0].Bits(), bfp16[1].Bits(), bfp16[2].Bits())...),
			must2(tensor.FromSlice(bfp16)), nil},
		{"FLOAT8E4M3FN", tensorPB("x", onnx.Float8E4M3FN, 2).packed(fTensorInt32Data, 0x38, 0xC0),
			packed(element.F8E4M3, []byte{0x38, 0xC0}, 2), nil},
		{"FLOAT8E5M2", tensorPB("x", onnx.Float8E5M2, 2).packed(fTensorInt32Data, 0x3C, 0x7C),
			packed(element.F8E5M2, []byte{0x3C, 0x7C}, 2), nil},
		{"FLOAT8E4M3FNUZ", tensorPB("x", onnx.Float8E4M3FNUZ, 2).packed(fTensorInt32Data, 0x40, 0x80),
			packed(element.F8E4M3FNUZ, []byte{0x40, 0x80}, 2), nil},
		{"FLOAT8E5M2FNUZ", tensorPB("x", onnx.Float8E5M2FNUZ, 2).packed(fTensorInt32Data, 0x40, 0x7F),
			packed(element.F8E5M2FNUZ, []byte{0x40, 0x7F}, 2), nil},
		{"UINT4 two per value", tensorPB("x", onnx.Uint4, 3).packed(fTensorInt32Data, 0xF1, 0x07),
			packed(element.U4, []byte{0xF1, 0x07}, 3), []int64{1, 15, 7}},
		{"INT4 two per value", tensorPB("x", onnx.Int4, 2, 2).packed(fTensorInt32Data, 0x78, 0x0F),
			packed(element.I4, []byte{0x78, 0x0F}, 2, 2), []int64{-8, 7, -1, 0}},
		{"INT64 mixed", tensorPB("x", onnx.Int64, 4).int(fTensorInt64Data, 1).packed(fTensorInt64Data, -1, 1<<40).int(fTensorInt64Data, math.MinInt64),
			must2(tensor.FromSlice([]int64{1, -1, 1 << 40, math.MinInt64})), []int64{1, -1, 1 << 40, math.MinInt64}},
		{"UINT32", tensorPB("x", onnx.Uint32, 2).varint(fTensorUint64Data, math.MaxUint32).varint(fTensorUint64Data, 0),
			must2(tensor.FromSlice([]uint32{math.MaxUint32, 0})), []int64{math.MaxUint32, 0}},
		{"UINT64", tensorPB("x", onnx.Uint64, 1).packed(fTensorUint64Data, math.MaxInt64),
			must2(tensor.FromSlice([]uint64{math.MaxInt64})), []int64{math.MaxInt64}},
		{"INT64 raw", tensorPB("x", onnx.Int64, 2).bytes(fTensorRawData, []byte{1, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}),
			must2(tensor.FromSlice([]int64{1, -1})), []int64{1, -1}},
		{"raw_data, the last wins", tensorPB("x", onnx.Uint8, 1).bytes(fTensorRawData, []byte{1, 2}).bytes(fTensorRawData, []byte{3}),
			must2(tensor.FromSlice([]uint8{3})), []int64{3}},
		{"empty", tensorPB("x", onnx.Float, 2, 0), must2(tensor.FromSlice([]float32{}, 2, 0)), nil},
		{"scalar, skipped fields", tensorPB("x", onnx.Int64).str(fTensorDoc, "doc").packed(fTensorInt64Data, 5).msg(16, pb{}.str(1, "k")).int(fTensorDataLocation, 0),
			must2(tensor.FromSlice([]int64{5}, []int64{}...)), []int64{5}},
	} {
		got, err := onnx.DecodeTensor(c.b)
		if err != nil {
			t.Errorf("%s: DecodeTensor: %v", c.name, err)
			continue
		}
		v, err := got.Tensor()
		if err != nil {
			t.Errorf("%s: Tensor: %v", c.name, err)
			continue
		}
		if got.Name != "x" || v.Type() != c.want.Type() || !slices.Equal(v.Shape(), c.want.Shape()) || !bytes.Equal(denseBytes(v), denseBytes(c.want)) {
			t.Errorf("%s: %v%v % x, want %v%v % x", c.name, v.Type(), v.Shape(), denseBytes(v), c.want.Type(), c.want.Shape(), denseBytes(c.want))
		}
		ints, err := got.Ints()
		if c.ints == nil {
			if errcode.Code(err) != "data-type" {
				t.Errorf("%s: Ints of a non-integer type: %v, want a data-type error", c.name, err)
			}
		} else if err != nil || !slices.Equal(ints, c.ints) {
			t.Errorf("%s: Ints = %v, %v; want %v", c.name, ints, err, c.ints)
		}
	}
}

// TestTensorErrors checks the tensors that decode but whose values cannot be had.
func TestTensorErrors(t *testing.T) {
	for _, c := range []struct {
		name, code, msg string
		b               pb
		ints            bool // call Ints rather than Tensor
	}{
		{"UINT8 above 255", "syntax", `TensorProto.int32_data[1] = 256: out of the range of UINT8`,
			tensorPB("x", onnx.Uint8, 2).packed(fTensorInt32Data, 1, 256), false},
		{"INT16 below the range", "syntax", "int32_data[0] = -32769", tensorPB("x", onnx.Int16, 1).packed(fTensorInt32Data, -32769), false},
		{"UINT32 above 2^32-1", "syntax", "uint64_data[0] = 4294967296: out of the range of UINT32",
			tensorPB("x", onnx.Uint32, 1).packed(fTensorUint64Data, 1<<32), false},
		{"STRING has no fixed width", "data-type", "STRING values have no fixed width",
			tensorPB("x", onnx.String, 2).str(fTensorStringData, "a").str(fTensorStringData, "bc"), false},
		{"COMPLEX64 has no element type", "data-type", "COMPLEX64",
			tensorPB("x", onnx.Complex64, 1).packedFloats(fTensorFloatData, 1, 2), false},
		{"unknown data type", "data-type", "DataType(99)", tensorPB("x", 99, 1).bytes(fTensorRawData, []byte{1}), false},
		{"UNDEFINED", "data-type", "UNDEFINED", tensorPB("x", onnx.Undefined), false},
		{"Ints of FLOAT", "data-type", "FLOAT is not an integer data type", tensorPB("x", onnx.Float, 1).packedFloats(fTensorFloatData, 1), true},
		{"Ints of BOOL", "data-type", "BOOL is not an integer", tensorPB("x", onnx.Bool, 1).packed(fTensorInt32Data, 1), true},
		{"Ints of UINT64 above MaxInt64", "overflow", "out of the int64 range",
			tensorPB("x", onnx.Uint64, 1).varint(fTensorUint64Data, math.MaxUint64), true},
	} {
		tt, err := onnx.DecodeTensor(c.b)
		if err != nil {
			t.Errorf("%s: DecodeTensor: %v", c.name, err)
			continue
		}
		if c.ints {
			_, err = tt.Ints()
		} else {
			_, err = tt.Tensor()
		}
		if errcode.Code(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v (code %q); want code %q and a message containing %q", c.name, err, errcode.Code(err), c.code, c.msg)
		}
	}

	// A Tensor built by hand holds no values: Tensor refuses it rather than allocating its dims.
	hand := onnx.Tensor{Name: "h", Dims: []int64{1 << 40}, DataType: onnx.Float}
	if _, err := hand.Tensor(); errcode.Code(err) != "syntax" || !strings.Contains(err.Error(), "no values") {
		t.Errorf("Tensor of a hand-built tensor: %v", err)
	}
}

// TestMalformed decodes broken encodings: each must fail with its code and a message that names the
// place.
func TestMalformed(t *testing.T) {
	huge := pb{}.raw(0x0a).raw(protowire.AppendVarint(nil, 1<<40)...).raw(1, 2, 3) // dims, packed, claiming 2^40 bytes
	node := func(attr pb) pb {
		return modelPB(pb{}.msg(fGraphNode, nodePB("r", "Reshape", []string{"x"}, []string{"y"}, attr)))
	}
	valueInfo := func(dims ...any) pb {
		return modelPB(pb{}.msg(fGraphInput, valueInfoPB("x", onnx.Float, dims)))
	}
	// 2^63-1 fits an int64: it is a static dimension, and only a volume that needs it can overflow.
	if m, err := onnx.DecodeModel(valueInfo(int64(math.MaxInt64))); err != nil || m.Graph.Inputs[0].Shape.String() != "[9223372036854775807]" {
		t.Errorf("dim_value 2^63-1: %v, %v", m, err)
	}
	for _, c := range []struct {
		name  string
		model bool // DecodeModel, else DecodeTensor
		b     pb
		code  string
		msg   string
	}{
		{"truncated varint", false, pb{}.raw(0x08, 0x80), "syntax", "TensorProto.dims: truncated varint at offset 1"},
		{"truncated tag", false, tensorPB("x", onnx.Float).raw(0x80), "syntax", "TensorProto: field tag: truncated varint at offset 5"},
		{"varint overflow", false, pb{}.raw(0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), "syntax", "TensorProto.data_type: variable length integer overflow at offset 1"},
		{"field number 0", false, pb{}.raw(0x00, 0x01), "syntax", "invalid field number at offset 0"},
		{"reserved wire type", false, pb{}.raw(0x0e), "syntax", "TensorProto.dims: unexpected wire type 6 at offset 0"},
		{"end group without a start", false, pb{}.raw(0x0c), "syntax", "unexpected wire type 4"},
		{"unterminated group", false, pb{}.raw(0x7b, 0x08, 0x01), "syntax", "TensorProto field 15: group: truncated varint"},
		{"truncated fixed32", false, tensorPB("x", onnx.Float, 1).raw(0x25, 0, 0), "syntax", "TensorProto.float_data: truncated fixed32 value (2 bytes left) at offset"},
		{"truncated fixed64", false, pb{}.raw(0x51, 0, 0), "syntax", "TensorProto.double_data: truncated fixed64 value"},
		{"length past the end", false, pb{}.raw(0x4a, 0x64, 1, 2, 3), "syntax", "TensorProto.raw_data: length 100 past the end (3 bytes left) at offset 1"},
		{"truncated length", false, pb{}.raw(0x4a, 0xff), "syntax", "TensorProto.raw_data: length: truncated varint at offset 1"},
		{"negative length", false, pb{}.raw(0x42).raw(protowire.AppendVarint(nil, 1<<63+5)...), "syntax", "TensorProto.name: negative length -9223372036854775803"},
		{"2^40-element packed dims", false, huge, "syntax", "TensorProto.dims: length 1099511627776 past the end (3 bytes left) at offset 1"},
		{"wrong wire type", false, pb{}.str(fTensorDataType, "x"), "syntax", "TensorProto.data_type: wire type length-delimited, want varint at offset 0"},
		{"wrong wire type, repeated", false, pb{}.fixed32(fTensorDims, 1), "syntax", "TensorProto.dims: wire type fixed32, want varint or packed at offset 0"},
		{"wrong wire type, packed floats", false, pb{}.int(fTensorFloatData, 1), "syntax", "TensorProto.float_data: wire type varint, want fixed32 or packed"},
		{"packed floats, ragged", false, pb{}.bytes(fTensorFloatData, []byte{1, 2, 3, 4, 5}), "syntax", "TensorProto.float_data: packed fixed32 values: 5 bytes is not a multiple of 4 at offset 2"},
		{"packed varints, truncated", false, pb{}.bytes(fTensorInt64Data, []byte{1, 0x80}), "syntax", "TensorProto.int64_data: packed: truncated varint at offset 3"},
		{"data_type beyond int32", false, pb{}.int(fTensorDataType, 1<<40), "syntax", "TensorProto.data_type: 1099511627776 is out of the int32 range"},
		{"negative dim", false, tensorPB("x", onnx.Float, 2, -1), "syntax", "TensorProto.dims: dims[1] = -1: a dimension cannot be negative"},
		{"volume overflow", false, tensorPB("x", onnx.Float, 1<<62, 4).bytes(fTensorRawData, nil), "overflow", `tensor "x": TensorProto.dims: the volume of [4611686018427387904,4] overflows int64`},
		{"size overflow", false, tensorPB("x", onnx.Complex128, 1<<60).bytes(fTensorRawData, nil), "overflow", "1152921504606846976 elements of COMPLEX128: the size in bits overflows int64"},
		{"external data without data_location EXTERNAL", false, tensorPB("w", onnx.Float, 2).msg(fTensorExternalData, pb{}.str(1, "location").str(2, "w.bin")), "syntax", `tensor "w": TensorProto: no values for the 2 elements of FLOAT`},
		{"data_location EXTERNAL without a location", false, tensorPB("w", onnx.Float, 2).int(fTensorDataLocation, 1), "syntax", `tensor "w": TensorProto.data_location is EXTERNAL, but external_data has no location at offset 7`},
		{"data_location 2", false, tensorPB("w", onnx.Float, 2).int(fTensorDataLocation, 2), "syntax", "TensorProto.data_location: data_location 2: want DEFAULT (0) or EXTERNAL (1)"},
		{"external data and raw_data", false, tensorPB("w", onnx.Float, 1).bytes(fTensorRawData, make([]byte, 4)).msg(fTensorExternalData, pb{}.str(1, "location").str(2, "w.bin")).int(fTensorDataLocation, 1), "syntax", `tensor "w": the values are in external data and in TensorProto.raw_data`},
		{"external length", false, tensorPB("w", onnx.Float, 2).msg(fTensorExternalData, pb{}.str(1, "location").str(2, "w.bin")).msg(fTensorExternalData, pb{}.str(1, "length").str(2, "4")).int(fTensorDataLocation, 1), "syntax", `tensor "w": external data length=4, but [2] of FLOAT takes 8 bytes`},
		{"external offset", false, tensorPB("w", onnx.Float, 2).msg(fTensorExternalData, pb{}.str(1, "offset").str(2, "-4")).int(fTensorDataLocation, 1), "syntax", `external_data: offset="-4" is not a byte count`},
		{"external entry", false, tensorPB("w", onnx.Float, 2).msg(fTensorExternalData, pb{}.int(1, 4)), "syntax", "TensorProto.external_data[0]: StringStringEntryProto.key: wire type varint"},
		{"segment", false, tensorPB("w", onnx.Float, 2).msg(fTensorSegment, pb{}.int(1, 0).int(2, 1)), "syntax", "TensorProto.segment: segmented tensors are not supported"},
		{"count mismatch, raw", false, tensorPB("x", onnx.Float, 2, 3).bytes(fTensorRawData, make([]byte, 20)), "syntax", `tensor "x": TensorProto.raw_data holds 20 bytes, but [2,3] of FLOAT takes 24`},
		{"count mismatch, typed", false, tensorPB("x", onnx.Int64, 6).packed(fTensorInt64Data, 1, 2, 3, 4, 5), "syntax", "TensorProto.int64_data holds 5 values, but [6] of INT64 takes 6"},
		{"count mismatch, INT4", false, tensorPB("x", onnx.Int4, 3).packed(fTensorInt32Data, 1, 2, 3), "syntax", "TensorProto.int32_data holds 3 values, but [3] of INT4 takes 2"},
		{"count mismatch, COMPLEX64", false, tensorPB("x", onnx.Complex64, 2).packedFloats(fTensorFloatData, 1, 2), "syntax", "TensorProto.float_data holds 2 values, but [2] of COMPLEX64 takes 4"},
		{"count mismatch, STRING", false, tensorPB("x", onnx.String, 2).str(fTensorStringData, "a"), "syntax", "TensorProto.string_data holds 1 values, but [2] of STRING takes 2"},
		{"no values", false, tensorPB("x", onnx.Float, 2), "syntax", `tensor "x": TensorProto: no values for the 2 elements of FLOAT`},
		{"values in the wrong field", false, tensorPB("x", onnx.Float, 1).packed(fTensorInt64Data, 1), "syntax", "TensorProto.int64_data cannot hold FLOAT values: they are in float_data or raw_data"},
		{"values in two fields", false, tensorPB("x", onnx.Float, 1).bytes(fTensorRawData, make([]byte, 4)).packedFloats(fTensorFloatData, 1), "syntax", "TensorProto.float_data: values are in raw_data already: only one field may hold them"},
		{"STRING in int32_data", false, tensorPB("x", onnx.String, 1).packed(fTensorInt32Data, 1), "syntax", "TensorProto.int32_data cannot hold STRING values: they are in string_data"},
		{"raw STRING", false, tensorPB("x", onnx.String, 1).bytes(fTensorRawData, []byte("a")), "syntax", "TensorProto.raw_data cannot hold STRING values"},

		{"model: truncated", true, modelPB(reshapeGraphPB([]int64{0, -1}))[:40], "syntax", "past the end"},
		{"model: graph of the wrong wire type", true, pb{}.int(fModelGraph, 1), "syntax", "ModelProto.graph: wire type varint, want length-delimited at offset 0"},
		{"model: node as a group", true, modelPB(pb{}.raw(0x0b, 0x0c)), "syntax", "GraphProto.node: wire type group, want length-delimited"},
		{"model: opset version", true, pb{}.msg(fModelOpset, pb{}.str(fOpsetVersion, "14")), "syntax", "ModelProto.opset_import[0]: OperatorSetIdProto.version: wire type length-delimited, want varint at offset 2"},
		{"model: attribute ints", true, node(attrPB("perm", onnx.AttrInts).bytes(fAttrInts, []byte{0x80})), "syntax", "GraphProto.node[0]: NodeProto.attribute[0]: AttributeProto.ints: packed: truncated varint at offset"},
		{"model: attribute f", true, node(attrPB("alpha", onnx.AttrFloat).int(fAttrF, 1)), "syntax", "AttributeProto.f: wire type varint, want fixed32"},
		{"model: attribute graph", true, node(attrPB("body", onnx.AttrGraph).int(fAttrG, 1)), "syntax", "AttributeProto.g: wire type varint, want length-delimited"},
		{"model: attribute tensor", true, node(attrPB("value", onnx.AttrTensor).msg(fAttrT, tensorPB("v", onnx.Float, 2))), "syntax", `NodeProto.attribute[0]: tensor "v": TensorProto: no values`},
		{"model: attribute tensors", true, node(attrPB("list", onnx.AttrTensors).msg(fAttrTensors, tensorPB("v", onnx.Float, -2))), "syntax", "AttributeProto.tensors[0]: TensorProto.dims: dims[0] = -2"},
		{"model: initializer", true, modelPB(pb{}.msg(fGraphInitializer, tensorPB("w", onnx.Int64, 1).int(fTensorDataLocation, 1))), "syntax", `GraphProto.initializer[0]: tensor "w": TensorProto.data_location is EXTERNAL, but external_data has no location`},
		{"model: negative dim_value", true, valueInfo(2, -3), "syntax", "GraphProto.input[0]: TensorShapeProto.dim[1]: TensorShapeProto.Dimension.dim_value: -3: a dimension cannot be negative"},
		{"model: elem_type", true, modelPB(pb{}.msg(fGraphOutput, pb{}.msg(fValueType, pb{}.msg(fTypeTensor, pb{}.str(fTensorElemType, "f"))))), "syntax", "GraphProto.output[0]: TypeProto.Tensor.elem_type: wire type length-delimited"},
		{"model: sequence type", true, modelPB(pb{}.msg(fGraphValueInfo, pb{}.msg(fValueType, pb{}.int(fTypeSequence, 1)))), "syntax", "GraphProto.value_info[0]: TypeProto.sequence_type: wire type varint"},
	} {
		var err error
		if c.model {
			_, err = onnx.DecodeModel(c.b)
		} else {
			_, err = onnx.DecodeTensor(c.b)
		}
		if errcode.Code(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v (code %q); want code %q and a message containing %q", c.name, err, errcode.Code(err), c.code, c.msg)
		}
	}
}

// TestHugeClaimsAreCheap checks that sizes claimed by a file are not allocated before they are
// checked against the bytes present.
func TestHugeClaimsAreCheap(t *testing.T) {
	huge := pb{}.raw(0x0a).raw(protowire.AppendVarint(nil, 1<<40)...).raw(make([]byte, 64)...)
	claims := []pb{
		huge,
		tensorPB("x", onnx.Float, 1<<20, 1<<20).bytes(fTensorRawData, make([]byte, 16)),
		modelPB(pb{}.msg(fGraphInitializer, huge)),
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 100 {
		for _, b := range claims {
			if _, err := onnx.DecodeModel(b); err == nil {
				t.Fatal("a huge claim decoded")
			}
			if _, err := onnx.DecodeTensor(b); err == nil {
				t.Fatal("a huge claim decoded")
			}
		}
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("decoding 600 huge claims allocated %d bytes", n)
	}
}

// TestEncodeTensorRoundTrip encodes a tensor of every element type ONNX has a data type for, dense
// and strided, and decodes it back.
func TestEncodeTensorRoundTrip(t *testing.T) {
	for _, et := range element.Types() {
		dt, err := onnx.DataTypeOf(et)
		if et == element.U1 || et == element.NF4 {
			if errcode.Code(err) != "data-type" {
				t.Errorf("DataTypeOf(%v) = %v, %v; want a data-type error", et, dt, err)
			}
			v := must2(tensor.New(et, 8))
			if _, err := onnx.EncodeTensor(v, "x"); errcode.Code(err) != "data-type" {
				t.Errorf("EncodeTensor of %v: %v, want a data-type error", et, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("DataTypeOf(%v): %v", et, err)
			continue
		}
		if back, err := dt.ElementType(); back != et || err != nil {
			t.Errorf("%v: ElementType of DataTypeOf = %v, %v", et, back, err)
		}
		if et == element.String {
			if _, err := tensor.New(et, 2); errcode.Code(err) != "data-type" {
				t.Errorf("tensor.New of %v: %v, want a data-type error", et, err)
			}
			continue
		}
		dense := must2(tensor.New(et, 2, 3, 4))
		for i := range dense.Data() {
			dense.Data()[i] = byte(i*37 + 11)
			if et == element.Boolean {
				dense.Data()[i] &= 1
			}
		}
		views := []tensor.Tensor{dense, must2(tensor.New(et)), must2(tensor.New(et, 3, 0))}
		if !et.IsPacked() {
			views = append(views, must2(dense.Transpose(2, 0, 1)), must2(dense.Slice(2, 3, 0, -2)))
		}
		for _, v := range views {
			b, err := onnx.EncodeTensor(v, "x")
			if err != nil {
				t.Errorf("EncodeTensor(%v%v): %v", et, v.Shape(), err)
				continue
			}
			got, err := onnx.DecodeTensor(b)
			if err != nil {
				t.Errorf("DecodeTensor of %v%v: %v", et, v.Shape(), err)
				continue
			}
			w, err := got.Tensor()
			if err != nil || got.Name != "x" || got.DataType != dt || !slices.Equal(got.Dims, v.Shape()) ||
				w.Type() != et || !bytes.Equal(denseBytes(w), denseBytes(v)) {
				t.Errorf("%v%v: decoded %q %v %v, %v", et, v.Shape(), got.Name, got.DataType, got.Dims, err)
			}
			if et.IsInteger() {
				want, werr := et.DecodeInts(nil, denseBytes(v), int(v.Len()))
				ints, err := got.Ints()
				if werr != nil && errcode.Code(err) != "overflow" || werr == nil && (err != nil || !slices.Equal(ints, want)) {
					t.Errorf("%v%v: Ints = %v, %v; want %v, %v", et, v.Shape(), ints, err, want, werr)
				}
			}
		}
	}
	if _, err := onnx.EncodeTensor(tensor.Tensor{}, "zero"); errcode.Code(err) != "data-type" {
		t.Errorf("EncodeTensor of the zero Tensor: %v", err)
	}
}

// TestDataTypes checks the names and element types of the data types against onnx.proto.
func TestDataTypes(t *testing.T) {
	want := []string{"UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING", "BOOL",
		"FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN",
		"FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4", "FLOAT4E2M1", "FLOAT8E8M0", "UINT2", "INT2"}
	for d, name := range want {
		if got := onnx.DataType(d).String(); got != name {
			t.Errorf("DataType(%d) = %s, want %s", d, got, name)
		}
	}
	if s := onnx.DataType(-1).String(); s != "DataType(-1)" {
		t.Errorf("DataType(-1) = %s", s)
	}
	elems := map[onnx.DataType]element.Type{onnx.Float: element.F32, onnx.Uint8: element.U8, onnx.Int8: element.I8,
		onnx.Uint16: element.U16, onnx.Int16: element.I16, onnx.Int32: element.I32, onnx.Int64: element.I64,
		onnx.Bool: element.Boolean, onnx.Float16: element.F16, onnx.Double: element.F64, onnx.Uint32: element.U32,
		onnx.Uint64: element.U64, onnx.BFloat16: element.BF16, onnx.Float8E4M3FN: element.F8E4M3,
		onnx.Float8E5M2: element.F8E5M2, onnx.Float8E4M3FNUZ: element.F8E4M3FNUZ, onnx.Float8E5M2FNUZ: element.F8E5M2FNUZ,
		onnx.Uint4: element.U4, onnx.Int4: element.I4, onnx.String: element.String}
	for d := onnx.DataType(-1); d < 30; d++ {
		et, err := d.ElementType()
		if want, ok := elems[d]; ok != (err == nil) || et != want {
			t.Errorf("%v.ElementType() = %v, %v; want %v", d, et, err, want)
		}
		if err != nil && (errcode.Code(err) != "data-type" || !strings.Contains(err.Error(), d.String())) {
			t.Errorf("%v.ElementType(): %v, want a data-type error naming the type", d, err)
		}
	}
	attrs := []string{"UNDEFINED", "FLOAT", "INT", "STRING", "TENSOR", "GRAPH", "FLOATS", "INTS", "STRINGS",
		"TENSORS", "GRAPHS", "SPARSE_TENSOR", "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS"}
	for a, name := range attrs {
		if got := onnx.AttrType(a).String(); got != name {
			t.Errorf("AttrType(%d) = %s, want %s", a, got, name)
		}
	}
	if s := onnx.AttrType(15).String(); s != "AttrType(15)" {
		t.Errorf("AttrType(15) = %s", s)
	}
}

func must2[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestOptionalType decodes TypeProto.optional_type, sequence_type and map_type: an optional of a
// tensor reads as the tensor, marked Optional, its named dims kept; a sequence and a map as the
// type they hold (ValueInfo.Seq, Map), within an optional or not; the last member of the oneof
// wins. EncodeModel writes each back as it was.
func TestOptionalType(t *testing.T) {
	tensorType := func(elem onnx.DataType, dims ...any) pb {
		tt := pb{}.int(fTensorElemType, int64(elem))
		shape := pb{}
		for _, d := range dims {
			switch d := d.(type) {
			case int:
				shape = shape.msg(fShapeDim, pb{}.int(fDimValue, int64(d)))
			case string:
				shape = shape.msg(fShapeDim, pb{}.str(fDimParam, d))
			}
		}
		return pb{}.msg(fTypeTensor, tt.msg(fTensorShape, shape))
	}
	optional := func(inner pb) pb { return pb{}.msg(fTypeOptional, pb{}.msg(1, inner)) }
	sequence := func(inner pb) pb { return pb{}.msg(fTypeSequence, pb{}.msg(1, inner)) }
	mapOf := func(key onnx.DataType, value pb) pb {
		return pb{}.msg(fTypeMap, pb{}.int(1, int64(key)).msg(2, value))
	}
	seq := sequence(tensorType(onnx.Float, 2))
	// typeText describes a ValueInfo's type in ONNX's notation, the shape of a tensor included.
	var typeText func(vi *onnx.ValueInfo) string
	typeText = func(vi *onnx.ValueInfo) string {
		var s string
		switch {
		case vi.Seq != nil:
			s = "seq(" + typeText(vi.Seq) + ")"
		case vi.Map != nil:
			s = "map(" + vi.KeyType.String() + "," + typeText(vi.Map) + ")"
		default:
			s = vi.ElemType.String() + vi.Shape.String()
			if vi.DimParams != nil {
				s += fmt.Sprint(vi.DimParams)
			}
		}
		if vi.Optional {
			s = "optional(" + s + ")"
		}
		return s
	}
	tests := []struct {
		name string
		typ  pb
		want string
	}{
		{"optional tensor", optional(tensorType(onnx.Float, "N", 3)), "optional(FLOAT[?,3][N ])"},
		{"optional string scalar", optional(tensorType(onnx.String)), "optional(STRING[])"},
		{"sequence", seq, "seq(FLOAT[2])"},
		{"optional sequence", optional(seq), "optional(seq(FLOAT[2]))"},
		{"sequence of maps", sequence(mapOf(onnx.Int64, tensorType(onnx.Float))), "seq(map(INT64,FLOAT[]))"},
		{"map of sequences", mapOf(onnx.String, seq), "map(STRING,seq(FLOAT[2]))"},
		{"sequence of optionals", sequence(optional(tensorType(onnx.Int64, "T"))), "seq(optional(INT64[?][T]))"},
		{"optional, then tensor", optional(tensorType(onnx.Float, 2)).raw(tensorType(onnx.Int64, 4)...), "INT64[4]"},
		{"tensor, then sequence", tensorType(onnx.Int64, 4).raw(seq...), "seq(FLOAT[2])"},
		{"sequence, then tensor", seq.raw(tensorType(onnx.Int64, 4)...), "INT64[4]"},
	}
	for _, tc := range tests {
		g := pb{}.msg(fGraphInput, pb{}.str(fValueName, "x").msg(fValueType, tc.typ))
		m, err := onnx.DecodeModel(modelPB(g))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		vi := m.Graph.Inputs[0]
		if got := typeText(&vi); got != tc.want || vi.Name != "x" {
			t.Errorf("%s: %q %s, want %s", tc.name, vi.Name, got, tc.want)
		}
		b, err := onnx.EncodeModel(m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := onnx.DecodeModel(b)
		if err != nil {
			t.Fatal(err)
		}
		if got := back.Graph.Inputs[0]; !reflect.DeepEqual(got, vi) {
			t.Errorf("%s: encoded and decoded %+v, want %+v", tc.name, got, vi)
		}
	}
}
