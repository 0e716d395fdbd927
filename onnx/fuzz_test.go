package onnx_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
)

// seeds adds the files of the ONNX backend tests whose names match pattern, when
// ../shared/conformance/onnx is there (testenv.LookupShared), and the given encodings to the fuzzer's corpus.
func seeds(f *testing.F, pattern string, more ...pb) {
	var files []string
	if dir, ok := testenv.LookupShared(f, "conformance/onnx"); ok {
		files, _ = filepath.Glob(filepath.Join(dir, "test_reshape_*", pattern))
	}
	for _, path := range files {
		if b, err := os.ReadFile(path); err == nil {
			f.Add(b)
		}
	}
	for _, b := range more {
		f.Add([]byte(b))
	}
}

// checkCode fails when err has no error code of package reshape.
func checkCode(t *testing.T, what string, err error) {
	if err != nil && errcode.Code(err) == "" {
		t.Fatalf("%s: error without a code: %v", what, err)
	}
}

// checkTensor gets the values of a decoded tensor; when they can be had, they must encode and decode
// back to themselves.
func checkTensor(t *testing.T, x *onnx.Tensor) {
	if x.External != nil { // read from the directory of the fixtures, within a small bound
		r, err := x.ReadExternal(externalDir, 1<<12)
		checkCode(t, "ReadExternal", err)
		if err != nil {
			return
		}
		x = r
	}
	_, err := x.Ints()
	checkCode(t, "Ints", err)
	v, err := x.Tensor()
	checkCode(t, "Tensor", err)
	if err != nil {
		return
	}
	b, err := onnx.EncodeTensor(v, x.Name)
	if err != nil {
		t.Fatalf("EncodeTensor of decoded values: %v", err)
	}
	y, err := onnx.DecodeTensor(b)
	if err != nil {
		t.Fatalf("DecodeTensor of EncodeTensor: %v", err)
	}
	w, err := y.Tensor()
	if err != nil || y.Name != x.Name || y.DataType != x.DataType || !bytes.Equal(denseBytes(w), denseBytes(v)) {
		t.Fatalf("round trip: %q %v %v, %v; want %q %v %v", y.Name, y.DataType, y.Dims, err, x.Name, x.DataType, x.Dims)
	}
}

// FuzzDecodeModel checks that DecodeModel never panics, that its errors have a code, and that the
// tensors it decodes give their values or an error with a code.
func FuzzDecodeModel(f *testing.F) {
	seeds(f, "model.onnx", modelPB(reshapeGraphPB([]int64{0, -1, 4}, attrPB("allowzero", onnx.AttrInt).int(fAttrI, 1))),
		modelPB(pb{}.msg(fGraphNode, nodePB("k", "K", nil, nil, attrPB("f", onnx.AttrFloats).packedFloats(fAttrFloats, 1, 2),
			attrPB("t", onnx.AttrTensor).msg(fAttrT, tensorPB("t", onnx.Uint4, 3).packed(fTensorInt32Data, 0x21, 3)))).
			msg(fGraphValueInfo, valueInfoPB("v", onnx.Bool, []any{1, "n", nil}))),
		// Values read lazily from raw_data, external data, and lengths past the end.
		weightsModel(4),
		modelPB(pb{}.msg(fGraphInitializer, tensorPB("shape", onnx.Int64, 4).msg(fTensorExternalData, pb{}.str(1, "location").str(2, "shape.bin")).
			int(fTensorDataLocation, 1))),
		modelPB(pb{}.msg(fGraphInitializer, tensorPB("w", onnx.Float, 1<<28).raw(0x4a, 0x80, 0x80, 0x80, 0x80, 0x04))),
		modelPB(pb{}.msg(fGraphInitializer, tensorPB("w", onnx.Float, 2).bytes(fTensorRawData, make([]byte, 8)).bytes(fTensorRawData, make([]byte, 4)))))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := onnx.DecodeModel(b)
		checkCode(t, "DecodeModel", err)
		if err != nil {
			return
		}
		m.Opset("")
		g := &m.Graph
		for i := range g.Initializers {
			checkTensor(t, &g.Initializers[i])
		}
		for _, n := range g.Nodes {
			for _, a := range n.Attrs {
				if a.T != nil {
					checkTensor(t, a.T)
				}
				for i := range a.Tensors {
					checkTensor(t, &a.Tensors[i])
				}
			}
			for _, in := range n.Inputs {
				if vi, ok := g.ValueInfoOf(in); ok {
					_ = vi.Shape.String()
				}
			}
		}
		// Shapes written into a model that decodes leave one that decodes, with them (a model without
		// a graph has nowhere to write them: an error with a code).
		set := map[string]onnx.ValueInfo{}
		for _, vi := range g.ValueInfo {
			set[vi.Name] = onnx.ValueInfo{Name: vi.Name, ElemType: onnx.Float, Shape: shape.OfInts(2)}
		}
		added := onnx.ValueInfo{Name: "added", ElemType: onnx.Int64, Shape: shape.Of(shape.Dynamic), DimParams: []string{"N"}}
		out, err := onnx.SetShapes(b, map[string]onnx.GraphShapes{"": {Set: set, Add: []onnx.ValueInfo{added}}})
		checkCode(t, "SetShapes", err)
		if err != nil {
			return
		}
		m2, err := onnx.DecodeModel(out)
		if err != nil || len(m2.Graph.ValueInfo) < len(g.ValueInfo)+1 {
			t.Fatalf("SetShapes wrote a model that does not decode with its value infos: %v", err)
		}
	})
}

// FuzzDecodeTensor checks that DecodeTensor never panics, that its errors have a code, and that what
// it decodes gives its values, which encode and decode back to themselves, or an error with a code.
func FuzzDecodeTensor(f *testing.F) {
	seeds(f, "test_data_set_0/*.pb",
		tensorPB("x", onnx.Int64, 3).packed(fTensorInt64Data, 0, -1, 4),
		tensorPB("x", onnx.Int16, 2).unpacked(fTensorInt32Data, -300, 400),
		tensorPB("x", onnx.Uint32, 1).packed(fTensorUint64Data, 7),
		tensorPB("x", onnx.Double, 1).packedDoubles(fTensorDoubleData, 0.5),
		tensorPB("x", onnx.Float, 2).packedFloats(fTensorFloatData, 1, 2),
		tensorPB("x", onnx.Int4, 3).packed(fTensorInt32Data, 0x78, 0x0F),
		tensorPB("x", onnx.String, 1).str(fTensorStringData, "s"),
		tensorPB("shape", onnx.Int64, 2).msg(fTensorExternalData, pb{}.str(1, "location").str(2, "shape.bin")).
			msg(fTensorExternalData, pb{}.str(1, "offset").str(2, "16")).int(fTensorDataLocation, 1),
		tensorPB("x", onnx.Int64, 3).raw(0x4a, 0x80, 0x80, 0x80, 0x80, 0x04, 1, 2, 3),
		tensorPB("x", onnx.Float, 2).unpacked(fTensorFloatData).raw(0x25, 0, 0, 0x80, 0x3f, 0x25, 0, 0, 0, 0x40))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := onnx.DecodeTensor(b)
		checkCode(t, "DecodeTensor", err)
		if err == nil {
			checkTensor(t, x)
		}
	})
}
