package check_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/check"
)

// TestAbsorbed: a Reshape that multiplies the batch into an axis a later node mixes across is
// reported, with its batch a symbol for an IR network exported at batch 1; one that keeps the
// batch on its own axis is not.
func TestAbsorbed(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		// x [1,4,6] reshaped by [1,-1]: at batch N, [1,24*N], and the SoftMax over axis 1 mixes
		// the samples.
		{"../testdata/ir/absorb_batch.xml", []string{"rows absorbs the batch N into axis 1 (24*N); probs (SoftMax) normalizes over axis 1: " +
			"at a batch above 1 the samples mix, and the outputs are wrong"}},
		// The pattern [1,256] fails at another batch rather than mixing it (a row of its own).
		{"../testdata/ir/baked_flatten.xml", nil},
		// Flattened after the batch, which stays on axis 0.
		{"../graph/testdata/ir/batch_flatten.xml", nil},
		{"../testdata/models/idioms.onnx", nil},
		// ONNX: x [N,4,6] reshaped by [1,-1], then Softmax over axis 1. onnxruntime 1.20.1 runs
		// it at N=2, [1,48], and its output differs from two runs at N=1 by up to 4.4e-2
		// (bench/absorb_ort.js).
		{"../testdata/models/absorb.onnx", []string{"rows absorbs the batch N into axis 1 (24*N); probs (Softmax) normalizes over axis 1: " +
			"at a batch above 1 the samples mix, and the outputs are wrong"}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			rep, err := check.File(tc.file, check.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range rep.Absorbed {
				got = append(got, a.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("Absorbed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
