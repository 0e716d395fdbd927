package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// The kernel of the gathers of ONNX (Gather) and OpenVINO (Gather-1, -7, -8): the values of a
// gather along one axis, with batch dims.

// gatherValues sets the values of out, the Gather of data by the indices idx along axis a with b
// batch dims, when both are known: a negative index counts from the end of the axis; an index out
// of range gives 0 with zeros (OpenVINO's Gather-8) and is otherwise an error wrapping
// errcode.ErrInvalidShape.
func gatherValues(c *ctx, out, data, idx *Info, a, b int, zeros bool) error {
	dd, dv, ok1 := values(data)
	id, iv, ok2 := values(idx)
	if n, ok := out.Volume(); !ok1 || !ok2 || !ok || n > MaxValue {
		return nil
	}
	ints := make([]int64, len(iv))
	for i, d := range iv {
		n, ok := d.Static()
		if !ok {
			return nil
		}
		switch {
		case n >= -dd[a] && n < 0:
			n += dd[a]
		case n >= 0 && n < dd[a]:
		case zeros:
			n = -1
		default:
			return c.Errorf(errcode.ErrInvalidShape, "index %d (element %d of the indices) is out of range for axis %d of size %d", n, i, a, dd[a])
		}
		ints[i] = n
	}
	batches, outer, inner, per := 1, 1, 1, 1
	for _, d := range dd[:b] {
		batches *= int(d)
	}
	for _, d := range dd[b:a] {
		outer *= int(d)
	}
	for _, d := range dd[a+1:] {
		inner *= int(d)
	}
	for _, d := range id[b:] {
		per *= int(d)
	}
	v := make([]sym.Dim, 0, batches*outer*per*inner)
	for bi := range batches {
		for o := range outer {
			for _, k := range ints[bi*per : (bi+1)*per] {
				if k < 0 {
					for range inner {
						v = append(v, sym.Const(0))
					}
					continue
				}
				base := ((bi*outer+o)*int(dd[a]) + int(k)) * inner
				v = append(v, dv[base:base+inner]...)
			}
		}
	}
	setValue(out, v)
	return nil
}
