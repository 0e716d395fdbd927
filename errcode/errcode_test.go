package errcode_test

import (
	"errors"
	"fmt"
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
	if len(seen) != 15 {
		t.Errorf("%d codes, want 15", len(seen))
	}
	for _, err := range []error{nil, errors.New("plain")} {
		if got := errcode.Code(err); got != "" {
			t.Errorf("Code(%v) = %q, want \"\"", err, got)
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
