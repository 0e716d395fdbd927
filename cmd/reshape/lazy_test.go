package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/internal/modelgen"
)

// TestMaxFileSizeMapped checks a model of 4 MiB of embedded weights within --max-file-size 64KiB:
// check and shapes map it and read the bytes its shapes need, not its size; a bound below its
// structure is a limit error.
func TestMaxFileSizeMapped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "embedded.onnx")
	if err := modelgen.WriteFile(path, func(w io.Writer) error { return modelgen.Embedded(w, 4, 512) }); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want string // in stdout, or stderr for an error
	}{
		{[]string{"check", "--max-file-size", "64KiB", path}, 0, "1 reshape in 1 file: 1 ok"},
		{[]string{"shapes", "--max-file-size", "64KiB", path}, 0, "6 tensors: 1 ok, 0 mismatch, 5 inferred, 0 error; symbols: N"},
		{[]string{"check", "--max-file-size", "100B", path}, 2, "reshape: limit: " + path + ": GraphProto.node[2]: NodeProto: more than 100 bytes of the model's structure"},
	}
	for _, tt := range tests {
		code, stdout, stderr := cli("", tt.args...)
		if out := stdout + stderr; code != tt.code || !strings.Contains(out, tt.want) {
			t.Errorf("%q: exit %d, %s; want %d, %q", tt.args, code, out, tt.code, tt.want)
		}
	}
}
