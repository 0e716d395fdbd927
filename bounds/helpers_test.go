package bounds_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/shape"
)

// parseValue reads the notation of Value.String: "[2,1..8,?]", "[[1,2],[3,4]]", "-inf..5", "7"
// (a scalar), "[]" (a 1-D value of no elements). Nested lists must be rectangular.
func parseValue(s string) (bounds.Value, error) {
	p := &valueParser{s: strings.ReplaceAll(s, " ", "")}
	var v bounds.Value
	if !strings.HasPrefix(p.s, "[") {
		d, err := parseElem(p.s)
		if err != nil {
			return bounds.Value{}, err
		}
		return bounds.Value{Shape: []int64{}, Elems: []shape.Dim{d}}, nil
	}
	dims, err := p.list(0, &v.Elems)
	if err != nil {
		return bounds.Value{}, err
	}
	if p.i != len(p.s) {
		return bounds.Value{}, fmt.Errorf("%q: trailing text at %d", s, p.i)
	}
	v.Shape = dims
	return v, nil
}

type valueParser struct {
	s string
	i int
}

// list parses "[...]" at depth and returns its shape.
func (p *valueParser) list(depth int, elems *[]shape.Dim) ([]int64, error) {
	if p.i >= len(p.s) || p.s[p.i] != '[' {
		return nil, fmt.Errorf("%q: want [ at %d", p.s, p.i)
	}
	p.i++
	var inner []int64
	n := int64(0)
	for p.i < len(p.s) && p.s[p.i] != ']' {
		if n > 0 {
			if p.s[p.i] != ',' {
				return nil, fmt.Errorf("%q: want , at %d", p.s, p.i)
			}
			p.i++
		}
		if p.i < len(p.s) && p.s[p.i] == '[' {
			sub, err := p.list(depth+1, elems)
			if err != nil {
				return nil, err
			}
			if n > 0 && fmt.Sprint(sub) != fmt.Sprint(inner) {
				return nil, fmt.Errorf("%q: ragged list", p.s)
			}
			inner = sub
		} else {
			j := p.i
			for j < len(p.s) && p.s[j] != ',' && p.s[j] != ']' {
				j++
			}
			d, err := parseElem(p.s[p.i:j])
			if err != nil {
				return nil, err
			}
			*elems = append(*elems, d)
			p.i = j
		}
		n++
	}
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("%q: unclosed [", p.s)
	}
	p.i++
	return append([]int64{n}, inner...), nil
}

func parseElem(f string) (shape.Dim, error) {
	if f == "?" {
		return shape.Dynamic, nil
	}
	lo, hi, ok := strings.Cut(f, "..")
	if !ok {
		n, err := strconv.ParseInt(f, 10, 64)
		return shape.Static(n), err
	}
	d := shape.Dim{Lo: 0, Hi: shape.Inf}
	var err error
	if hi != "" {
		if d.Hi, err = strconv.ParseInt(hi, 10, 64); err != nil {
			return d, err
		}
	}
	switch {
	case lo == "-inf", lo == "" && d.Hi < 0:
		d.Lo = bounds.NegInf
	case lo != "":
		if d.Lo, err = strconv.ParseInt(lo, 10, 64); err != nil {
			return d, err
		}
	}
	return d, nil
}

// val parses s with parseValue and fails the test on error.
func val(t testing.TB, s string) bounds.Value {
	t.Helper()
	v, err := parseValue(s)
	if err != nil {
		t.Fatalf("parseValue(%q): %v", s, err)
	}
	return v
}

// same reports whether v has the shape and elements of want (nil and empty shapes are equal).
func same(v, want bounds.Value) bool {
	if len(v.Shape) != len(want.Shape) || len(v.Elems) != len(want.Elems) {
		return false
	}
	for i := range v.Shape {
		if v.Shape[i] != want.Shape[i] {
			return false
		}
	}
	for i := range v.Elems {
		if v.Elems[i] != want.Elems[i] {
			return false
		}
	}
	return true
}

// show writes v with its shape, for messages: "[2,3] [[1,2,3],[4,5,6]]".
func show(v bounds.Value) string { return shape.FormatInts(v.Shape) + " " + v.String() }

// checkResult compares got, err against want (a value in parseValue's notation, with a shape
// prefix "SHAPE:" only when ambiguous) or wantErr.
func checkResult(t *testing.T, name string, got bounds.Value, err error, want bounds.Value, wantErr error) {
	t.Helper()
	if wantErr != nil {
		if !errors.Is(err, wantErr) {
			t.Errorf("%s = %s, %v; want error %v", name, show(got), err, wantErr)
		}
		return
	}
	if err != nil || !same(got, want) {
		t.Errorf("%s = %s, %v; want %s", name, show(got), err, show(want))
	}
}

// withShape returns v reshaped to dims (the elements unchanged), for tables that need a shape the
// notation cannot write (dimensions of size 0 below the first).
func withShape(v bounds.Value, dims ...int64) bounds.Value {
	return bounds.Value{Shape: dims, Elems: v.Elems}
}
