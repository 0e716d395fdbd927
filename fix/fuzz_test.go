package fix_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/fix"
	"github.com/reshape-go/reshape/onnx"
)

// proveFix runs Find on m and, when it finds something, writes the fixed model, decodes it and
// proves it: a model our decoder reads and our engine infers is never written into one that does
// not decode, or that Verify refuses.
func proveFix(t *testing.T, m *onnx.Model) {
	f, err := fix.Find(m, "", fix.Options{})
	if errors.Is(err, errcode.ErrNoEquivalent) {
		t.Fatalf("Find: %v", err)
	}
	if err != nil {
		return // a model the engine refuses
	}
	var out bytes.Buffer
	if _, err := f.WriteTo(&out); err != nil {
		t.Fatalf("WriteTo: %v", err)
	}
	w, err := onnx.DecodeModel(out.Bytes())
	if err != nil {
		t.Fatalf("the fixed model does not decode: %v", err)
	}
	if err := f.Verify(w); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	for _, r := range f.Rewrites {
		for _, c := range f.After {
			if c.Origin.Node == r.Node && len(r.Follows) == 0 {
				t.Fatalf("%s is rewritten and still imposes %s", r.Node, c)
			}
		}
	}
}

// FuzzFind builds models of one or two Reshapes: an input of up to 5 dims, each a symbol (N, H, W)
// or an integer, by a constant pattern of up to 6 values from -1 to 64, with allowzero, at opset 5,
// 13 or 14, and a second Reshape by [1,-1] after it; then proves what fix makes of them.
func FuzzFind(f *testing.F) {
	f.Add([]byte{0, 5, 6}, []byte{2, 5}, false, uint8(2), false)            // [N,3,4] by [1,12]
	f.Add([]byte{0, 9, 1, 2}, []byte{2, 4, 8, 9, 9}, false, uint8(2), true) // a YOLO grid, and [1,-1]
	f.Add([]byte{0, 3}, []byte{2, 2, 4}, false, uint8(1), false)            // [N,2] by [1,1,2]
	f.Add([]byte{0, 1, 2, 9}, []byte{2, 15, 9}, true, uint8(2), false)      // merged dims, allowzero
	f.Add([]byte{1, 5}, []byte{0, 3}, false, uint8(0), true)                // -1 and 0
	f.Fuzz(fuzzFind)
}

// fuzzFind is the body of FuzzFind.
func fuzzFind(t *testing.T, dims, pattern []byte, allowzero bool, opset uint8, follow bool) {
	values := []int64{-1, 0, 1, 2, 3, 4, 6, 7, 8, 9, 12, 16, 21, 24, 48, 64}
	if len(dims) == 0 || len(dims) > 5 || len(pattern) == 0 || len(pattern) > 6 {
		return
	}
	var in []any
	for _, d := range dims {
		switch d % 10 {
		case 0:
			in = append(in, "N")
		case 1:
			in = append(in, "H")
		case 2:
			in = append(in, "W")
		default:
			in = append(in, int(d%10)-1) // 2..8
		}
	}
	p := make([]int64, len(pattern))
	for i, v := range pattern {
		p[i] = values[int(v)%len(values)]
	}
	version := []int64{5, 13, 14}[int(opset)%3]
	r := reshapeNode("r", "x", "p", "y")
	if allowzero && version == 14 {
		r.Attrs = []onnx.Attribute{intAttr("allowzero", 1)}
	}
	s := spec{version, []onnx.ValueInfo{input("x", in...)}, nil, []onnx.Node{constant(t, "p", p...), r}, []string{"y"}, nil}
	if follow {
		s.nodes = append(s.nodes, constant(t, "p2", 1, -1), reshapeNode("r2", "y", "p2", "z"))
		s.outputs = []string{"z"}
	}
	m, err := onnx.DecodeModel(s.bytes(t))
	if err != nil {
		t.Fatal(err)
	}
	proveFix(t, m)
}

// FuzzFindModel proves what fix makes of any model the decoder reads, from the bytes of the models
// made for the grids.
func FuzzFindModel(f *testing.F) {
	for _, name := range []string{"const_reshape_batch", "baked", "channel_shuffle", "flat_matmul"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "models", name+".onnx"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := onnx.DecodeModel(b)
		if err != nil {
			return
		}
		proveFix(t, m)
	})
}
