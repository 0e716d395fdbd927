//go:build unix

package report_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/reshape-go/reshape/report"
)

// TestLoadOpensOnce: Load reads a model from a named pipe, which gives its bytes once: it opens
// the model once, for the rows, the tensors and the graph.
func TestLoadOpensOnce(t *testing.T) {
	b, err := os.ReadFile("../testdata/models/flat_matmul.onnx")
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "model.onnx")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(b)
		f.Close()
	}()
	done := make(chan error, 1)
	var m *report.Model
	go func() {
		var err error
		m, err = report.Load(fifo, report.Options{})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil || len(m.Conditions) != 1 || len(m.Tensors) == 0 {
			t.Fatalf("Load of a pipe: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Load of a pipe waits for a second writer: it opens the model more than once")
	}
}
