package graph

import (
	"github.com/reshape-go/reshape/sym"
)

// maxFloats bounds the elements of a floating-point constant whose values inference keeps.
const maxFloats = 64

// constInfo returns the Info of a constant: its type and static shape, and its values when it is a
// small integer constant (or a small floating-point one).
func constInfo(c *Const) *Info {
	info := &Info{Type: c.Type, Shape: sym.Ints(c.Dims...)}
	n, ok := info.Volume()
	if !ok || c.Load == nil {
		return info
	}
	switch {
	case isIntegral(c.Type) && n <= MaxValue:
		ints, _, err := c.Load(MaxValue)
		if err == nil && int64(len(ints)) == n {
			info.Value = make([]sym.Dim, n)
			for i, v := range ints {
				info.Value[i] = sym.Const(v)
			}
		}
	case c.Type.IsFloat() && n <= maxFloats:
		_, floats, err := c.Load(maxFloats)
		if err == nil && int64(len(floats)) == n {
			info.Floats = floats
		}
	}
	return info
}
