// Package onednn reads oneDNN Graph JSON files as benchdnn writes them: a graph of ops, each with
// attributes and input and output logical tensors (shape, stride, data type).
//
// Errors wrap errcode.ErrSyntax and say what was expected where.
package onednn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/reshape-go/reshape/errcode"
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

// Tensor is a logical tensor as one op declares it. Shape and Stride hold oneDNN's numbers: -1 and
// math.MinInt64 (DNNL_GRAPH_UNKNOWN_DIM) are an unknown dimension, and a shape of that one value
// declares no rank either (PartialShape).
type Tensor struct {
	ID           int64   `json:"id"`
	DType        string  `json:"dtype"`
	Shape        []int64 `json:"shape"`
	Stride       []int64 `json:"stride"`
	LayoutType   string  `json:"layout_type"`
	PropertyType string  `json:"property_type"`
}

// Decode reads a graph from JSON. Unknown fields are ignored. Errors wrap errcode.ErrSyntax.
func Decode(r io.Reader) (*Graph, error) {
	var g Graph
	cr := &countingReader{r: r}
	d := json.NewDecoder(cr)
	if err := d.Decode(&g); err != nil {
		return nil, syntaxError(err, cr.n)
	}
	off := d.InputOffset()
	if _, err := d.Token(); err != io.EOF {
		return nil, errcode.Errorf(errcode.ErrSyntax, "offset %d: data after the graph's JSON object", off)
	}
	if g.Ops == nil {
		return nil, errcode.Errorf(errcode.ErrSyntax, "no \"graph\" array of ops: not a oneDNN Graph JSON file")
	}
	return &g, nil
}

// countingReader counts the bytes read through it: where the input ran out, for messages.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// syntaxError turns a JSON decoding error into one of this package, naming the offset: that of the
// error, or off, where the input ran out. An integer too large for its field is ErrOverflow.
func syntaxError(err error, off int64) error {
	switch e := err.(type) {
	case *json.SyntaxError:
		return errcode.Errorf(errcode.ErrSyntax, "offset %d: %v", e.Offset, e)
	case *json.UnmarshalTypeError:
		code := errcode.ErrSyntax
		if isIntegerOverflow(e) {
			code = errcode.ErrOverflow
		}
		return errcode.Errorf(code, "offset %d: field %q: JSON %s where %s is expected", e.Offset, e.Field, e.Value, e.Type)
	}
	switch err {
	case io.EOF:
		return errcode.Errorf(errcode.ErrSyntax, "offset 0: empty file, want a oneDNN Graph JSON object")
	case io.ErrUnexpectedEOF:
		return errcode.Errorf(errcode.ErrSyntax, "offset %d: unexpected end of file inside the JSON object", off)
	}
	return errcode.Errorf(errcode.ErrSyntax, "offset %d: %v", off, err)
}

// isIntegerOverflow reports whether a type error is an integer too large for an integer field.
func isIntegerOverflow(e *json.UnmarshalTypeError) bool {
	if e.Type == nil || !strings.HasPrefix(e.Type.Kind().String(), "int") {
		return false
	}
	digits := strings.TrimPrefix(strings.TrimPrefix(e.Value, "number "), "-")
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}

// PartialShape returns the tensor's shape as a partial shape: a dim -1 or math.MinInt64
// (DNNL_GRAPH_UNKNOWN_DIM in oneDNN 3.x, -1 before) is "?", and a shape of that one value, as
// oneDNN writes the shape of a logical tensor whose rank is unknown (DNNL_GRAPH_UNKNOWN_NDIMS), a
// dynamic rank. Other negative dims wrap errcode.ErrSyntax, naming the tensor and the index.
func (t *Tensor) PartialShape() (shape.Shape, error) {
	if len(t.Shape) == 1 && unknownDim(t.Shape[0]) {
		return shape.DynamicRank(), nil
	}
	s := shape.Shape{Dims: make([]shape.Dim, len(t.Shape))}
	for i, d := range t.Shape {
		switch {
		case unknownDim(d):
			s.Dims[i] = shape.Dynamic
		case d < 0:
			return shape.Shape{}, errcode.Errorf(errcode.ErrSyntax, "logical tensor %d: shape[%d] = %d is not a dimension", t.ID, i, d)
		default:
			s.Dims[i] = shape.Static(d)
		}
	}
	return s, nil
}

// unknownDim reports whether d is one of oneDNN's numbers for an unknown dim: -1, math.MinInt64.
func unknownDim(d int64) bool { return d == -1 || d == math.MinInt64 }

// Bool returns the value of a "bool" attribute, which benchdnn writes as 0 or 1 (true and false are
// accepted too).
func (a Attr) Bool() (bool, error) {
	switch string(bytes.TrimSpace(a.Value)) {
	case "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, errcode.Errorf(errcode.ErrSyntax, "bool attribute value %s: want 0 or 1", a.Value)
}

// Int returns the value of an "s64" attribute.
func (a Attr) Int() (int64, error) {
	var v int64
	if err := json.Unmarshal(a.Value, &v); err != nil {
		return 0, valueError(a, "an integer", err)
	}
	return v, nil
}

// Float returns the value of an "f32" attribute.
func (a Attr) Float() (float64, error) {
	var v float64
	if err := json.Unmarshal(a.Value, &v); err != nil {
		return 0, valueError(a, "a number", err)
	}
	return v, nil
}

// Floats returns the value of an "f32[]" attribute.
func (a Attr) Floats() ([]float64, error) {
	var v []float64
	if err := json.Unmarshal(a.Value, &v); err != nil || v == nil {
		return nil, valueError(a, "an array of numbers", err)
	}
	return v, nil
}

// Text returns the value of a "string" attribute.
func (a Attr) Text() (string, error) {
	var v string
	if err := json.Unmarshal(a.Value, &v); err != nil {
		return "", valueError(a, "a string", err)
	}
	return v, nil
}

// valueError is the error of an attribute value that is not what its type says: want, or err (an
// integer beyond int64 is errcode.ErrOverflow).
func valueError(a Attr, want string, err error) error {
	code := errcode.ErrSyntax
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && isIntegerOverflow(te) {
		code = errcode.ErrOverflow
	}
	return errcode.Errorf(code, "%s attribute value %s: want %s", a.Type, brief(a.Value), want)
}

// Ints returns the value of an "s64[]" attribute.
func (a Attr) Ints() ([]int64, error) {
	var v []int64
	if err := json.Unmarshal(a.Value, &v); err != nil || v == nil {
		return nil, valueError(a, "an array of integers", err)
	}
	return v, nil
}

// brief returns raw JSON on one line, cut to a length fit for a message.
func brief(raw json.RawMessage) string {
	s := strings.Join(strings.Fields(string(raw)), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// String returns the op as "Kind id (name)" for messages.
func (o *Op) String() string { return fmt.Sprintf("%s %d (%q)", o.Kind, o.ID, o.Name) }
