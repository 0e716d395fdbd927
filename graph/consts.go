package graph

import (
	"errors"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// maxFloats bounds the elements of a floating-point constant whose values inference keeps.
const maxFloats = 64

// maxConstValues bounds the elements of an integer constant whose values inference keeps: shapes,
// patterns, axes and indices are small, and the larger integer constants of real models are
// quantized weights, which no shape depends on.
const maxConstValues = 1 << 12

// constInfo returns the Info of a constant: its type and static shape, and its values when it is a
// small integer constant (or a small floating-point one). A constant whose values cannot be read
// because of a limit, their type, or a u64 value beyond int64 has none; any other error of Const.Load (a malformed tensor,
// external data that is missing or outside the model's directory) is returned.
func (e *engine) constInfo(c *Const) (*Info, error) {
	info := e.newInfo(c.Type, e.ints(c.Dims))
	n, ok := info.Volume()
	if !ok || c.Load == nil {
		return info, nil
	}
	var err error
	switch {
	case isIntegral(c.Type) && n <= maxConstValues:
		var ints []int64
		if ints, _, err = c.Load(maxConstValues); err == nil && int64(len(ints)) == n {
			info.Value = e.dims.Make(int(n))
			for i, v := range ints {
				info.Value[i] = sym.Const(v)
			}
		}
	case c.Type.IsFloat() && n <= maxFloats:
		var floats []float64
		if _, floats, err = c.Load(maxFloats); err == nil && int64(len(floats)) == n {
			info.Floats = floats
		}
	}
	if err != nil && !errors.Is(err, errcode.ErrLimit) && !errors.Is(err, errcode.ErrDataType) && !errors.Is(err, errcode.ErrOverflow) {
		return info, err
	}
	return info, nil
}
