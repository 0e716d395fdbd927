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

// TestLogicalTensors checks the uses of each logical tensor and the declaration they give: the
// meet of the uses' shapes, and the first pair of uses that no tensor satisfies both of, as
// int8_maxpool_add_mul_fusion.json declares tensor 4257.
func TestLogicalTensors(t *testing.T) {
	const js = `{"graph":[
	{"id":7,"name":"add","kind":"Add","attrs":{},"inputs":[{"id":1,"dtype":"f32","shape":[1,64,-1,300]},{"id":2,"dtype":"f32","shape":[1,64,300,300]}],
	 "outputs":[{"id":4257,"dtype":"f32","shape":[1,64,300,300]}]},
	{"id":8,"name":"mul","kind":"Multiply","attrs":{},"inputs":[{"id":1,"dtype":"f32","shape":[1,-9223372036854775808,300,300]},{"id":4257,"dtype":"f32","shape":[1,64,1,1]}],
	 "outputs":[{"id":5,"dtype":"f32","shape":[1,64,300,300]}]}]}`
	g, err := onednn.Decode(strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	lts, err := g.LogicalTensors()
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, lt := range lts {
		ids = append(ids, lt.ID)
	}
	if !slices.Equal(ids, []int64{1, 2, 4257, 5}) {
		t.Fatalf("tensors %v, want [1 2 4257 5]", ids)
	}
	s, conflict, err := lts[0].Declared()
	if err != nil || conflict != nil || s.String() != "[1,64,300,300]" || lts[0].Produced() {
		t.Errorf("tensor 1 declared %v, %v, %v; want [1,64,300,300], an input", s, conflict, err)
	}
	s, conflict, err = lts[2].Declared()
	switch {
	case err != nil || conflict == nil:
		t.Fatalf("tensor 4257 declared %v, %v, %v; want a conflict", s, conflict, err)
	case s.String() != "[1,64,300,300]":
		t.Errorf("tensor 4257 declared %v, want the output's [1,64,300,300]", s)
	}
	if got, want := conflict[0].String()+"; "+conflict[1].String(), `Add 7 ("add") outputs it; Multiply 8 ("mul") reads it as input 1`; got != want {
		t.Errorf("conflict %s, want %s", got, want)
	}
	bad := strings.Replace(js, `"id":5,`, `"id":4257,`, 1)
	if g, err = onednn.Decode(strings.NewReader(bad)); err != nil {
		t.Fatal(err)
	}
	if _, err := g.LogicalTensors(); !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), "already") {
		t.Errorf("a tensor output twice: %v, want a syntax error naming both ops", err)
	}
}

func TestAttrValues(t *testing.T) {
	a := onednn.Attr{Type: "f32", Value: []byte("0.125")}
	if v, err := a.Float(); err != nil || v != 0.125 {
		t.Errorf("Float = %v, %v", v, err)
	}
	a = onednn.Attr{Type: "s64", Value: []byte("99999999999999999999")}
	if _, err := a.Int(); !errors.Is(err, errcode.ErrOverflow) {
		t.Errorf("Int beyond int64 = %v, want overflow", err)
	}
	a = onednn.Attr{Type: "string", Value: []byte("3")}
	if _, err := a.Text(); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("Text of a number = %v, want syntax", err)
	}
	a = onednn.Attr{Type: "f32[]", Value: []byte("[0.5, 2]")}
	if v, err := a.Floats(); err != nil || !slices.Equal(v, []float64{0.5, 2}) {
		t.Errorf("Floats = %v, %v", v, err)
	}
}
