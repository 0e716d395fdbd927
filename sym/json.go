package sym

import (
	"strconv"

	"github.com/reshape-go/reshape/shape"
)

// MarshalJSON implements json.Marshaler: a number when d is a single integer, else a string of
// its notation ("B*T", "(H+1)//2", "?", "2..5").
func (d Dim) MarshalJSON() ([]byte, error) {
	if n, ok := d.Static(); ok {
		return strconv.AppendInt(nil, n, 10), nil
	}
	return strconv.AppendQuote(nil, d.String()), nil
}

// MarshalJSON implements json.Marshaler: null for a shape of dynamic rank, otherwise the array of
// its dims, numbers when static and strings of the notation otherwise: [2,"B*T","?"]. A scalar is
// []. It is the form of package shape's shapes (shape.AppendJSON), expressions added.
func (s Shape) MarshalJSON() ([]byte, error) {
	if s.RankDynamic {
		return []byte("null"), nil
	}
	return shape.AppendJSON(nil, s.Dims), nil
}
