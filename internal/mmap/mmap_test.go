package mmap

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/reshape-go/reshape/errcode"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	content := bytes.Repeat([]byte("reshape "), 1<<12) // 32 KiB: several pages
	full := filepath.Join(dir, "model.onnx")
	empty := filepath.Join(dir, "empty.onnx")
	if err := os.WriteFile(full, content, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	unix := runtime.GOOS != "windows" && runtime.GOOS != "plan9" && runtime.GOOS != "js" && runtime.GOOS != "wasip1"
	tests := []struct {
		name    string
		path    string
		maxRead int64
		want    []byte
		mapped  bool
		code    string // of the error, "" for none
	}{
		{"regular file, mapped whatever its size", full, 10, content, unix, ""},
		{"empty file, read", empty, 10, []byte{}, false, ""},
		{"not regular: read within the bound", os.DevNull, 10, []byte{}, false, ""},
		{"missing file", filepath.Join(dir, "none.onnx"), 10, nil, false, "?"},
	}
	for _, tt := range tests {
		f, err := Open(tt.path, tt.maxRead)
		switch {
		case tt.code == "?" && err == nil:
			t.Errorf("%s: no error", tt.name)
		case tt.code == "?":
			if !errors.Is(err, os.ErrNotExist) || strings.Contains(err.Error(), dir) {
				t.Errorf("%s: %v; want a not-exist error without the path", tt.name, err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
		default:
			if !bytes.Equal(f.Bytes(), tt.want) || f.Mapped() != tt.mapped {
				t.Errorf("%s: %d bytes, mapped %v; want %d bytes, mapped %v", tt.name, len(f.Bytes()), f.Mapped(), len(tt.want), tt.mapped)
			}
			if err := f.Close(); err != nil {
				t.Errorf("%s: Close: %v", tt.name, err)
			}
			if err := f.Close(); err != nil || f.Bytes() != nil {
				t.Errorf("%s: a second Close: %v, %d bytes left", tt.name, err, len(f.Bytes()))
			}
		}
	}
}

// TestOpenPipe reads a file that is not regular (a pipe, as /dev/stdin can be) whole, and refuses
// one longer than the bound after reading one byte more than it.
func TestOpenPipe(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/fd on windows")
	}
	for _, tt := range []struct {
		content string
		maxRead int64
		code    string
	}{
		{"0123456789", 10, ""},
		{"0123456789", 9, "limit"},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			w.WriteString(tt.content)
			w.Close()
		}()
		f, err := Open("/dev/fd/"+strconv.Itoa(int(r.Fd())), tt.maxRead)
		r.Close()
		switch {
		case tt.code != "":
			if errcode.Code(err) != tt.code || !strings.Contains(err.Error(), "more than the limit of 9 bytes") {
				t.Errorf("%q within %d: %v; want a %s error", tt.content, tt.maxRead, err, tt.code)
			}
		case err != nil:
			t.Errorf("%q within %d: %v", tt.content, tt.maxRead, err)
		case string(f.Bytes()) != tt.content || f.Mapped():
			t.Errorf("%q within %d: %q, mapped %v", tt.content, tt.maxRead, f.Bytes(), f.Mapped())
		}
	}
}

// TestTruncatedWhileMapped reads a mapped file that shrank after it was mapped: the pages it lost
// fault (SIGBUS), and the fault is an error, not a crash.
func TestTruncatedWhileMapped(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fault of a truncated mapping is checked on Linux")
	}
	path := filepath.Join(t.TempDir(), "model.onnx")
	if err := os.WriteFile(path, make([]byte, 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Truncate(path, 100); err != nil {
		t.Fatal(err)
	}
	read := func(i int) (b byte, err error) {
		defer func(old bool) {
			debug.SetPanicOnFault(old)
			if r := recover(); r != nil {
				err = Fault(r)
			}
		}(debug.SetPanicOnFault(true))
		return f.Bytes()[i], nil
	}
	if _, err := read(10); err != nil {
		t.Errorf("a byte still in the file: %v", err)
	}
	_, err = read(1 << 15)
	if errcode.Code(err) != "syntax" || !strings.Contains(err.Error(), "a fault at offset 32768 of its 65536 mapped bytes") {
		t.Errorf("a byte past the new end: %v; want a syntax error naming offset 32768", err)
	}
}

// TestFaultElsewhere checks that Fault does not take a fault outside every mapping for a truncated
// file: a nil dereference, or any other panic, is panicked again.
func TestFaultElsewhere(t *testing.T) {
	for _, r := range []any{"not a fault", syscall.EINVAL} {
		func() {
			defer func() {
				if got := recover(); got != r {
					t.Errorf("Fault(%v) panicked with %v; want the value again", r, got)
				}
			}()
			Fault(r)
			t.Errorf("Fault(%v) returned", r)
		}()
	}
}
