package errcode_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"

	"github.com/reshape-go/reshape/errcode"
)

func TestCode(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range errcode.Sentinels() {
		code := s.Error()
		if seen[code] {
			t.Errorf("code %q twice", code)
		}
		seen[code] = true
		direct := errcode.Errorf(s, "at %d", 3)
		wrapped := fmt.Errorf("file.xml: layer 7: %w", direct)
		for _, err := range []error{s, direct, wrapped} {
			if got := errcode.Code(err); got != code {
				t.Errorf("Code(%v) = %q, want %q", err, got, code)
			}
		}
		var e *errcode.Error
		if !errors.As(wrapped, &e) || e.Index != -1 || e.Msg != "at 3" {
			t.Errorf("errors.As(%v) = %+v", wrapped, e)
		}
	}
	if len(seen) != 18 {
		t.Errorf("%d codes, want 18", len(seen))
	}
	for _, err := range []error{nil, errors.New("plain")} {
		if got := errcode.Code(err); got != "" {
			t.Errorf("Code(%v) = %q, want \"\"", err, got)
		}
	}
}

func TestIO(t *testing.T) {
	_, open := os.Open("/nonexistent/reshape-test")
	_, lstat := os.Lstat("")
	link := os.Link("/nonexistent/a", "/nonexistent/b")
	coded := errcode.Errorf(errcode.ErrSyntax, "x")
	plain := errors.New("plain")
	tests := []struct {
		err      error
		code     string
		notExist bool
	}{
		{open, "io", true},
		{fmt.Errorf("model.onnx: %w", open), "io", true},
		{lstat, "io", true},
		{link, "io", true},
		{os.NewSyscallError("write", errors.New("no space left on device")), "io", false},
		{fmt.Errorf("out.npy: %w", syscall.ENOENT), "io", true},
		{fmt.Errorf("%w: %w", coded, open), "syntax", true}, // a code already: kept
		{plain, "", false},
		{nil, "", false},
	}
	for _, tt := range tests {
		got := errcode.IO(tt.err)
		if errcode.Code(got) != tt.code || errors.Is(got, fs.ErrNotExist) != tt.notExist || tt.err != nil && got.Error() != tt.err.Error() {
			t.Errorf("IO(%v) = %v: code %q, not-exist %v; want %q, %v", tt.err, got, errcode.Code(got), errors.Is(got, fs.ErrNotExist), tt.code, tt.notExist)
		}
	}
}

func ExampleCode() {
	err := fmt.Errorf("model.xml: %w", errcode.New(errcode.ErrInvalidDim, 2, "pattern[2] = -3: dimension cannot be less than -1"))
	fmt.Println(errcode.Code(err), errors.Is(err, errcode.ErrInvalidDim))
	fmt.Println(err)
	// Output:
	// invalid-dim true
	// model.xml: pattern[2] = -3: dimension cannot be less than -1
}
