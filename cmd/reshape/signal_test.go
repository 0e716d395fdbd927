package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reshape-go/reshape/npy"
	"github.com/reshape-go/reshape/tensor"
)

// TestInterrupt stops apply with SIGINT and SIGTERM while it writes, as Ctrl-C and a service
// manager do, in C order (streamed) and in Fortran order (read whole, then copied): the command
// exits 128 + the signal's number, and leaves nothing in the output directory, temporary file
// included. The input is a named pipe that the test fills, so the signal arrives while the output
// is open, and then closes; without the handling of signals, the signal would end the test
// process.
func TestInterrupt(t *testing.T) {
	defer func(g time.Duration, c func()) { graceTime, cancelled = g, c }(graceTime, cancelled)
	graceTime = time.Hour
	handled := make(chan struct{}, 1)
	cancelled = func() { handled <- struct{}{} }
	tests := []struct {
		name    string
		fortran bool
		sig     syscall.Signal
		code    int
	}{
		{"C order, SIGINT", false, syscall.SIGINT, 130},
		{"Fortran order, SIGTERM", true, syscall.SIGTERM, 143},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		in, outDir := filepath.Join(dir, "in.npy"), filepath.Join(dir, "out")
		if err := syscall.Mkfifo(in, 0o600); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
		os.Mkdir(outDir, 0o755)
		// The header of an 8 MiB u8 array; the data follows in 1 MiB pieces.
		const size = 8 << 20
		x, _ := tensor.New(tensor.TypeOf[uint8](), 2, size/2)
		var h bytes.Buffer
		npy.WriteHeader(&h, x.Type(), x.Shape(), npy.WriteOptions{})
		header := h.Bytes()
		if tt.fortran {
			header = bytes.Replace(header, []byte("'fortran_order': False"), []byte("'fortran_order': True "), 1)
		}
		type result struct {
			code           int
			stdout, stderr string
		}
		done := make(chan result, 1)
		go func() {
			code, stdout, stderr := cli("", "apply", "--special-zero=false", "--pattern", "-1", in, filepath.Join(outDir, "x.npy"))
			done <- result{code, stdout, stderr}
		}()
		w, err := os.OpenFile(in, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(header)
		w.Write(make([]byte, 1<<20))
		// The output's temporary file exists once the input is being read.
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			if names, _ := filepath.Glob(filepath.Join(outDir, ".x.npy.tmp-*")); len(names) > 0 {
				break
			}
			if time.Now().After(deadline) {
				select {
				case r := <-done:
					t.Fatalf("%s: no temporary output file: apply ended: %+v", tt.name, r)
				default:
				}
				t.Fatalf("%s: no temporary output file", tt.name)
			}
		}
		syscall.Kill(os.Getpid(), tt.sig)
		// Once the signal has cancelled the run, the input ends: whatever the command was reading,
		// it stops now, well within the time a signal gives it before the process exits.
		select {
		case <-handled:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the signal was not handled", tt.name)
		}
		w.Close()
		var r result
		select {
		case r = <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: apply did not stop", tt.name)
		}
		left, _ := os.ReadDir(outDir)
		if r.code != tt.code || !strings.Contains(r.stderr, "reshape: interrupted ("+tt.sig.String()+"): nothing was written") || len(left) != 0 {
			t.Errorf("%s: exit %d, %q; left %d files; want exit %d and nothing left", tt.name, r.code, r.stderr, len(left), tt.code)
		}
	}
}
