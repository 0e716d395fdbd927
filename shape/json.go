package shape

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/reshape-go/reshape/errcode"
)

// JSONDim is what the JSON form of a dimension needs: its value when it is static, and its notation
// otherwise. Dim implements it; so can a dimension of another kind, such as a symbolic expression,
// to be written by AppendJSON in the same form.
type JSONDim interface {
	Static() (n int64, ok bool)
	String() string
}

// Static returns the value of a static dimension; ok is false when d is an interval.
func (d Dim) Static() (n int64, ok bool) { return d.Lo, d.Lo == d.Hi }

// AppendJSON appends the JSON form of a shape of known rank with the dimensions dims: an array
// whose elements are numbers for static dimensions and strings of the notation for the others,
// [2,"?","1..8"]. A scalar is []. (A shape of dynamic rank is null: see Shape.MarshalJSON.)
func AppendJSON[D JSONDim](b []byte, dims []D) []byte {
	b = append(b, '[')
	for i, d := range dims {
		if i > 0 {
			b = append(b, ',')
		}
		if n, ok := d.Static(); ok {
			b = strconv.AppendInt(b, n, 10)
		} else {
			b = strconv.AppendQuote(b, d.String())
		}
	}
	return append(b, ']')
}

// MarshalJSON implements json.Marshaler: a number when d is static, else a string of its notation
// ("?", "2..5").
func (d Dim) MarshalJSON() ([]byte, error) {
	if n, ok := d.Static(); ok {
		return strconv.AppendInt(nil, n, 10), nil
	}
	return strconv.AppendQuote(nil, d.String()), nil
}

// UnmarshalJSON implements json.Unmarshaler: a non-negative integer, or a string of the notation
// ParseDim reads. Errors wrap errcode.ErrSyntax or errcode.ErrOverflow.
func (d *Dim) UnmarshalJSON(b []byte) error {
	text := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &text); err != nil {
			return errcode.Errorf(errcode.ErrSyntax, "dimension %s: %v", b, err)
		}
	}
	v, err := ParseDim(text)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalJSON implements json.Marshaler: null for a shape of dynamic rank, otherwise the array of
// AppendJSON, [2,"?","1..8"]; a scalar is [].
func (s Shape) MarshalJSON() ([]byte, error) {
	if s.RankDynamic {
		return []byte("null"), nil
	}
	return AppendJSON(nil, s.Dims), nil
}

// UnmarshalJSON implements json.Unmarshaler: null is the dynamic rank, an array holds the
// dimensions as Dim.UnmarshalJSON reads them. Errors wrap errcode.ErrSyntax.
func (s *Shape) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*s = DynamicRank()
		return nil
	}
	var dims []Dim
	if err := json.Unmarshal(b, &dims); err != nil {
		if errcode.Code(err) != "" {
			return fmt.Errorf("shape %s: %w", b, err)
		}
		return errcode.Errorf(errcode.ErrSyntax, "shape %s: %v", b, err)
	}
	if dims == nil {
		dims = []Dim{}
	}
	*s = Shape{Dims: dims}
	return nil
}
