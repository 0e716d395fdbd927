package onednn_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onednn"
)

const graph = `{
  "version": "3.3.0", "engine_kind": "cpu", "fpmath_mode": "strict",
  "input_ports": [0], "output_ports": [1],
  "graph": [{
    "id": 0, "name": "Reshape_0", "kind": "StaticReshape",
    "attrs": {"special_zero": {"type": "bool", "value": 0}, "shape": {"type": "s64[]", "value": [128, 512, -1]}},
    "inputs": [{"id": 0, "dtype": "f32", "shape": [65536, -1], "stride": [1024, 1], "layout_type": "strided", "property_type": "undef"}],
    "outputs": [{"id": 1, "dtype": "f32", "shape": [-9223372036854775808], "stride": [-9223372036854775808], "layout_type": "strided", "property_type": "undef"}],
    "extra": true
  }]
}`

func TestDecode(t *testing.T) {
	g, err := onednn.Decode(strings.NewReader(graph))
	if err != nil {
		t.Fatal(err)
	}
	if g.Version != "3.3.0" || len(g.Ops) != 1 {
		t.Fatalf("Decode = %+v", g)
	}
	op := g.Ops[0]
	sz, err := op.Attrs["special_zero"].Bool()
	if err != nil || sz {
		t.Errorf("special_zero = %v, %v", sz, err)
	}
	v, err := op.Attrs["shape"].Ints()
	if err != nil || !slices.Equal(v, []int64{128, 512, -1}) {
		t.Errorf("shape = %v, %v", v, err)
	}
	in, err := op.Inputs[0].PartialShape()
	if err != nil || in.String() != "[65536,?]" {
		t.Errorf("input shape = %v, %v", in, err)
	}
	out, err := op.Outputs[0].PartialShape()
	if err != nil || out.String() != "[...]" {
		t.Errorf("output shape = %v, %v", out, err)
	}
	if op.String() != `StaticReshape 0 ("Reshape_0")` {
		t.Errorf("String = %s", op.String())
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ json, want string }{
		{``, "empty file"},
		{`{"graph": [`, "offset 11: unexpected end of file"},
		{`{"graph": [{"id": "x"}]}`, `field "graph.id": JSON string where int64 is expected`},
		{`{"graph": [{"id": 1.5}]}`, "JSON number 1.5"},
		{`{"version": "3"}`, `no "graph" array of ops`},
		{`{"graph": []} {}`, "data after the graph's JSON object"},
		{`[1,2]`, "JSON array where onednn.Graph is expected"},
	}
	for _, tt := range tests {
		_, err := onednn.Decode(strings.NewReader(tt.json))
		if !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Decode(%q) = %v; want a syntax error containing %q", tt.json, err, tt.want)
		}
	}
	if _, err := onednn.Decode(strings.NewReader(`{"graph": [{"inputs": [{"shape": [99999999999999999999]}]}]}`)); !errors.Is(err, errcode.ErrOverflow) ||
		!strings.Contains(err.Error(), "JSON number 99999999999999999999 where int64 is expected") {
		t.Errorf("a dimension beyond int64: %v", err)
	}
	bad := onednn.Tensor{ID: 4, Shape: []int64{2, -5}}
	if _, err := bad.PartialShape(); !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), "logical tensor 4: shape[1] = -5") {
		t.Errorf("PartialShape of %v: %v", bad.Shape, err)
	}
	for _, v := range []string{`2`, `"yes"`, `null`} {
		if _, err := (onednn.Attr{Type: "bool", Value: []byte(v)}).Bool(); !errors.Is(err, errcode.ErrSyntax) {
			t.Errorf("Bool(%s): %v", v, err)
		}
	}
	for _, v := range []string{`null`, `[1.5]`, `"x"`} {
		if _, err := (onednn.Attr{Type: "s64[]", Value: []byte(v)}).Ints(); !errors.Is(err, errcode.ErrSyntax) {
			t.Errorf("Ints(%s): %v", v, err)
		}
	}
}

// FuzzDecode checks that the JSON reader never panics and fails only with syntax errors, or overflow
// errors for integers beyond int64.
func FuzzDecode(f *testing.F) {
	f.Add(graph)
	f.Add(`{"graph": [{"kind": "StaticReshape", "attrs": {"shape": {"type": "s64[]", "value": [1]}}}]}`)
	f.Fuzz(func(t *testing.T, text string) {
		g, err := onednn.Decode(strings.NewReader(text))
		if err != nil {
			if !errors.Is(err, errcode.ErrSyntax) && !errors.Is(err, errcode.ErrOverflow) {
				t.Fatalf("Decode: %v is neither a syntax nor an overflow error", err)
			}
			return
		}
		for _, op := range g.Ops {
			for _, a := range op.Attrs {
				a.Bool()
				a.Ints()
			}
			for _, lt := range append(op.Inputs, op.Outputs...) {
				lt.PartialShape()
			}
		}
	})
}
