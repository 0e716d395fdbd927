package check_test

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/internal/modelgen"
)

// TestONNXReadsWhatShapesNeed checks a model of 4 MiB of embedded weights within a bound on the
// bytes read far below its size: check and shapes read its structure and its pattern, not its
// weights; the same model through a pipe is read whole, within the bound.
func TestONNXReadsWhatShapesNeed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "embedded.onnx")
	if err := modelgen.WriteFile(path, func(w io.Writer) error { return modelgen.Embedded(w, 4, 512) }); err != nil {
		t.Fatal(err)
	}
	opt := check.Options{MaxFileSize: 64 << 10}
	rep, err := check.File(path, opt)
	rows := rowsOf(rep)
	if err != nil || len(rows) != 1 || rows[0].Verdict != check.OK || rows[0].Inferred.String() != "[N,8,64]" {
		t.Fatalf("check: %v, %+v; want one ok row [N,8,64]", err, rows)
	}
	s, err := check.InferShapes(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	if n := s.BytesRead(); n > 2<<10 {
		t.Errorf("shapes read %d bytes of the 4 MiB model; want its structure and its pattern, under 2 KiB", n)
	}
	if _, err := s.WithValueInfo(filepath.Dir(path)); err != nil {
		t.Errorf("WithValueInfo of the mapped model: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}

	if runtime.GOOS == "windows" {
		return
	}
	for _, tt := range []struct {
		limit int64
		code  string
	}{{64 << 10, "limit"}, {8 << 20, ""}} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			f, _ := os.Open(path)
			io.Copy(w, f)
			f.Close()
			w.Close()
		}()
		rep, err := check.File("/dev/fd/"+strconv.Itoa(int(r.Fd())), check.Options{MaxFileSize: tt.limit})
		rows := rowsOf(rep)
		r.Close()
		switch {
		case errcode.Code(err) != tt.code:
			t.Errorf("through a pipe within %d bytes: %v; want code %q", tt.limit, err, tt.code)
		case tt.code == "" && (len(rows) != 1 || rows[0].Verdict != check.OK):
			t.Errorf("through a pipe: %+v; want one ok row", rows)
		case tt.code != "" && !strings.Contains(err.Error(), "more than the limit of 65536 bytes read into memory"):
			t.Errorf("through a pipe within %d bytes: %v", tt.limit, err)
		}
	}
}
