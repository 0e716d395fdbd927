// Package onednn reads oneDNN Graph JSON files as benchdnn writes them: a graph of ops, each with
// attributes and input and output logical tensors (shape, stride, data type).
//
// Errors wrap reshape.ErrSyntax and say what was expected where.
package onednn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/shape"
)

// Graph is a oneDNN Graph serialized by benchdnn.
type Graph struct {
	Version     string  `json:"version"`
	EngineKind  string  `json:"engine_kind"`
	FPMathMode  string  `json:"fpmath_mode"`
	InputPorts  []int64 `json:"input_ports"`
	OutputPorts []int64 `json:"output_ports"`
	Ops         []Op    `json:"graph"`
}

// Op is one operation of the graph.
type Op struct {
	ID      int64           `json:"id"`
	Name    string          `json:"name"`
	Kind    string          `json:"kind"` // "StaticReshape", "DynamicReshape", "MatMul", ...
	Attrs   map[string]Attr `json:"attrs"`
	Inputs  []Tensor        `json:"inputs"`
	Outputs []Tensor        `json:"outputs"`
}

// Attr is an op attribute: its type ("bool", "s64", "s64[]", "f32", "string", ...) and raw value.
type Attr struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// Tensor is a logical tensor. Shape and Stride hold oneDNN's numbers: -1 is an unknown dimension,
// and the single value math.MinInt64 an unknown rank.
type Tensor struct {
	ID           int64   `json:"id"`
	DType        string  `json:"dtype"`
	Shape        []int64 `json:"shape"`
	Stride       []int64 `json:"stride"`
	LayoutType   string  `json:"layout_type"`
	PropertyType string  `json:"property_type"`
}

// Decode reads a graph from JSON. Unknown fields are ignored. Errors wrap reshape.ErrSyntax.
func Decode(r io.Reader) (*Graph, error) {
	var g Graph
	d := json.NewDecoder(r)
	if err := d.Decode(&g); err != nil {
		return nil, syntaxError(err)
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, reshape.Errorf(reshape.ErrSyntax, "data after the graph's JSON object")
	}
	if g.Ops == nil {
		return nil, reshape.Errorf(reshape.ErrSyntax, "no \"graph\" array of ops: not a oneDNN Graph JSON file")
	}
	return &g, nil
}

func syntaxError(err error) error {
	switch e := err.(type) {
	case *json.SyntaxError:
		return reshape.Errorf(reshape.ErrSyntax, "offset %d: %v", e.Offset, e)
	case *json.UnmarshalTypeError:
		return reshape.Errorf(reshape.ErrSyntax, "offset %d: field %q: JSON %s where %s is expected", e.Offset, e.Field, e.Value, e.Type)
	}
	if err == io.EOF {
		return reshape.Errorf(reshape.ErrSyntax, "empty file, want a oneDNN Graph JSON object")
	}
	return reshape.Errorf(reshape.ErrSyntax, "%v", err)
}

// PartialShape returns the tensor's shape as a partial shape: -1 dims are "?", and the shape
// [math.MinInt64] is a dynamic rank. Other negative dims wrap reshape.ErrSyntax.
func (t *Tensor) PartialShape() (shape.Shape, error) {
	if len(t.Shape) == 1 && t.Shape[0] == math.MinInt64 {
		return shape.DynamicRank(), nil
	}
	s := shape.Shape{Dims: make([]shape.Dim, len(t.Shape))}
	for i, d := range t.Shape {
		switch {
		case d == -1:
			s.Dims[i] = shape.Dynamic
		case d < 0 || d == shape.Inf:
			return shape.Shape{}, reshape.Errorf(reshape.ErrSyntax, "logical tensor %d: shape[%d] = %d is not a dimension", t.ID, i, d)
		default:
			s.Dims[i] = shape.Static(d)
		}
	}
	return s, nil
}

// Bool returns the value of a "bool" attribute, which benchdnn writes as 0 or 1 (true and false are
// accepted too).
func (a Attr) Bool() (bool, error) {
	switch string(bytes.TrimSpace(a.Value)) {
	case "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, reshape.Errorf(reshape.ErrSyntax, "bool attribute value %s: want 0 or 1", a.Value)
}

// Ints returns the value of an "s64[]" attribute.
func (a Attr) Ints() ([]int64, error) {
	var v []int64
	if err := json.Unmarshal(a.Value, &v); err != nil {
		return nil, reshape.Errorf(reshape.ErrSyntax, "%s attribute value %s: %v", a.Type, a.Value, err)
	}
	if v == nil {
		return nil, reshape.Errorf(reshape.ErrSyntax, "%s attribute value %s: want an array of integers", a.Type, a.Value)
	}
	return v, nil
}

// String returns the op as "Kind id (name)" for messages.
func (o *Op) String() string { return fmt.Sprintf("%s %d (%q)", o.Kind, o.ID, o.Name) }
