package onnx_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
)

// weightsModel returns a model of a Reshape whose data is a FLOAT initializer of n×n elements in
// raw_data (4n² bytes, all ones) and whose pattern is an INT64 initializer in raw_data, 24 bytes.
func weightsModel(n int64) pb {
	w := make([]byte, 4*n*n)
	for i := 0; i < len(w); i += 4 {
		binary.LittleEndian.PutUint32(w[i:], 0x3f800000)
	}
	var pattern []byte
	for _, v := range []int64{0, -1, 4} {
		pattern = binary.LittleEndian.AppendUint64(pattern, uint64(v))
	}
	node := nodePB("r", "Reshape", []string{"w", "shape"}, []string{"reshaped"})
	return modelPB(pb{}.msg(fGraphNode, node).
		msg(fGraphInitializer, tensorPB("w", onnx.Float, n, n).bytes(fTensorRawData, w)).
		msg(fGraphInitializer, tensorPB("shape", onnx.Int64, 3).bytes(fTensorRawData, pattern)).
		msg(fGraphOutput, valueInfoPB("reshaped", onnx.Float, nil)))
}

func writeTemp(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "model.onnx")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenReadsWhatIsAsked opens a model of 4 MiB of weights and a pattern: decoding reads its
// structure only, the pattern's 24 bytes are read when asked for, and the bound on the bytes read
// counts both, not the file's size.
func TestOpenReadsWhatIsAsked(t *testing.T) {
	b := weightsModel(1024)
	path := writeTemp(t, b)
	structure := int64(len(b) - 4<<20 - 24 - len("reshape-test")) // values and the producer name are skipped
	tests := []struct {
		name      string
		maxRead   int64
		openCode  string // the code of Open's error, "" for none
		readW     string // the code of reading the weights
		readAfter int64  // BytesRead after the pattern and weights were read
	}{
		{"no bound", 0, "", "", structure + 24 + 4<<20},
		{"the structure and the pattern within the bound, the weights past it", 1 << 10, "", "limit", structure + 24},
		{"the structure past the bound", 60, "limit", "", 0},
	}
	for _, tt := range tests {
		m, err := onnx.Open(path, tt.maxRead)
		if errcode.Code(err) != tt.openCode {
			t.Errorf("%s: Open: %v; want code %q", tt.name, err, tt.openCode)
			continue
		}
		if err != nil {
			continue
		}
		if got := m.BytesRead(); got != structure || got > 200 {
			t.Errorf("%s: %d bytes read by decoding; want the %d bytes of the structure", tt.name, got, structure)
		}
		shapeT, _ := m.Graph.Initializer("shape")
		if p, err := shapeT.Ints(); err != nil || !slices.Equal(p, []int64{0, -1, 4}) {
			t.Errorf("%s: the pattern: %v, %v", tt.name, p, err)
		}
		w, _ := m.Graph.Initializer("w")
		v, err := w.Tensor()
		if errcode.Code(err) != tt.readW {
			t.Errorf("%s: the weights: %v; want code %q", tt.name, err, tt.readW)
		}
		if err == nil && (v.Len() != 1<<20 || v.ByteSize() != 4<<20) {
			t.Errorf("%s: the weights: %d elements", tt.name, v.Len())
		}
		if got := m.BytesRead(); got != tt.readAfter {
			t.Errorf("%s: %d bytes read after the values; want %d", tt.name, got, tt.readAfter)
		}
		if err := m.Close(); err != nil {
			t.Errorf("%s: Close: %v", tt.name, err)
		}
	}
}

// TestOpenClosed reads a model's values after Close: an error, not a fault on unmapped memory.
func TestOpenClosed(t *testing.T) {
	m, err := onnx.Open(writeTemp(t, weightsModel(4)), 0)
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	m.Close()
	shapeT, _ := m.Graph.Initializer("shape")
	_, err = shapeT.Ints()
	if errcode.Code(err) != "syntax" || !strings.Contains(err.Error(), `tensor "shape": offset`) || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Ints after Close: %v; want a syntax error saying the model was closed", err)
	}
	if _, err := onnx.EncodeModel(m); errcode.Code(err) != "syntax" {
		t.Errorf("EncodeModel after Close: %v; want a syntax error", err)
	}
	if m.Bytes() != nil {
		t.Errorf("Bytes after Close: %d bytes", len(m.Bytes()))
	}
}

// TestOpenTruncated truncates a model file while it is mapped: reading the values it lost is an
// error, and the process goes on.
func TestOpenTruncated(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fault of a truncated mapping is checked on Linux")
	}
	path := writeTemp(t, weightsModel(256))
	m, err := onnx.Open(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	w, _ := m.Graph.Initializer("w")
	_, err = w.Tensor()
	if errcode.Code(err) != "syntax" || !strings.Contains(err.Error(), "the file changed while it was read") {
		t.Errorf("weights past the new end: %v; want a syntax error saying the file changed", err)
	}
	if _, err := onnx.SetShapes(m.Bytes(), nil); errcode.Code(err) != "syntax" {
		t.Errorf("SetShapes on the truncated mapping: %v; want a syntax error", err)
	}
}

// TestOpenClaims opens files whose lengths claim more bytes than they hold: an error naming the
// field and the offset, and nothing allocated for the claim.
func TestOpenClaims(t *testing.T) {
	tensor := tensorPB("w", onnx.Float, 1<<28).raw(0x4a).raw(0x80, 0x80, 0x80, 0x80, 0x04) // raw_data of 1 GiB
	tests := []struct {
		name string
		b    pb
		msg  string
	}{
		{"raw_data past the end", modelPB(pb{}.msg(fGraphInitializer, tensor)), "TensorProto.raw_data: length 1073741824 past the end (0 bytes left) at offset"},
		{"a graph past the end", pb{}.raw(0x3a, 0x80, 0x80, 0x80, 0x80, 0x04), "ModelProto.graph: length 1073741824 past the end (0 bytes left) at offset 1"},
	}
	for _, tt := range tests {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := onnx.Open(writeTemp(t, tt.b), 1<<20)
		runtime.ReadMemStats(&after)
		if errcode.Code(err) != "syntax" || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v; want a syntax error containing %q", tt.name, err, tt.msg)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<16 {
			t.Errorf("%s: %d bytes allocated", tt.name, n)
		}
	}
}

// TestOpenValueInfo adds value infos to a mapped model: SetShapes reads the mapping, and the result
// decodes with them.
func TestOpenValueInfo(t *testing.T) {
	m, err := onnx.Open(writeTemp(t, weightsModel(16)), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	out, err := onnx.SetShapes(m.Bytes(), map[string]onnx.GraphShapes{"": {Add: []onnx.ValueInfo{{Name: "reshaped", ElemType: onnx.Float, Shape: m.Graph.Outputs[0].Shape}}}})
	if err != nil {
		t.Fatal(err)
	}
	back, err := onnx.DecodeModel(out)
	if err != nil || len(back.Graph.ValueInfo) != 1 || back.Graph.ValueInfo[0].Name != "reshaped" || !bytes.HasPrefix(out, m.Bytes()[:8]) {
		t.Errorf("the model with value infos: %v", err)
	}
}

// TestDecodeAllocs pins the allocations of decoding a model: strings and lists are cut from chunks,
// so that a BERT export of 2269 nodes takes well under one allocation per 10 nodes (31 per node
// before).
func TestDecodeAllocs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "models", "bert_deep_1x.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := onnx.DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	nodes := float64(len(m.Graph.Nodes))
	allocs := testing.AllocsPerRun(5, func() { onnx.DecodeModel(b) })
	if perNode := allocs / nodes; perNode > 0.05 {
		t.Errorf("DecodeModel: %.0f allocations for %.0f nodes, %.3f per node; want at most 0.05", allocs, nodes, perNode)
	}
}
