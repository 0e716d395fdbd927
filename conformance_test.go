package reshape_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/conformance"
	"github.com/reshape-go/reshape/internal/testenv"
)

// runCases runs every case of a cases.jsonl file as a subtest, and cross-checks the static path.
func runCases(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	err = conformance.Read(f, func(line int, c *conformance.Case, err error) error {
		if err != nil {
			t.Errorf("%s:%d: %v", path, line, err)
			return nil
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			got, want := c.Run(), c.Want()
			if got.Output != want.Output || got.Error != want.Error {
				t.Errorf("%s: input %s pattern %v special_zero %v dialect %s:\ngot  %+v\nwant %+v",
					c.Source, c.Input, deref(c.Pattern), deref(c.SpecialZero), c.Dialect, got, want)
			}
			checkStaticAgrees(t, c)
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// checkStaticAgrees runs a case whose input and pattern are static through Infer as well, which
// must give what InferPartial gives.
func checkStaticAgrees(t *testing.T, c *conformance.Case) {
	in, p, opt, err := c.Inputs()
	if err != nil || !in.IsStatic() {
		return
	}
	values, known := p.Values()
	if r, _ := p.TensorShape().Rank(); !known || r != 1 {
		return
	}
	ints := make([]int64, len(values))
	for i, v := range values {
		if !v.IsStatic() {
			return
		}
		ints[i] = v.Lo
	}
	dims, _ := in.AppendStatic(nil)
	got, err := reshape.Infer(dims, ints, opt)
	res := c.Run()
	if code := reshape.Code(err); code != res.Error {
		t.Fatalf("Infer: error %q (%v), InferPartial: %q", code, err, res.Error)
	}
	if err == nil && shapeString(got) != res.Output {
		t.Fatalf("Infer: %s, InferPartial: %s", shapeString(got), res.Output)
	}
}

func TestConformanceShared(t *testing.T) {
	path := testenv.Shared(t, "conformance/cases.jsonl")
	if n := runCases(t, path); n == 0 {
		t.Fatal("no cases in", path)
	}
}

func TestConformanceOwn(t *testing.T) {
	if n := runCases(t, filepath.Join("testdata", "cases.jsonl")); n < 150 {
		t.Fatalf("only %d cases in testdata/cases.jsonl", n)
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
