package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// The kernel of the gathers of ONNX (Gather) and OpenVINO (Gather-1, -7, -8): the range of the
// indices, and the values of a gather along one axis, with batch dims.

// gatherIndices checks the indices idx of a gather along an axis of size d: each in [-d, d-1] (a
// negative index counts from the end of the axis). Known values out of range are an error
// wrapping errcode.ErrInvalidShape that names the first; an axis in the symbols is required long
// enough for the known values (C >= 3 for an index -3), and values in the symbols are required
// within it; where only their bounds are known
// (Info.elems: the Range of a symbolic limit), the node requires them to lie within the axis,
// unless idx is empty (a position table of 64 rows read by Range(T) needs T <= 64). With zeros
// (OpenVINO's Gather-8), an index out of range gives 0, and nothing is required.
func gatherIndices(c *ctx, idx *Info, d sym.Dim, a int, zeros bool) error {
	if zeros {
		return nil
	}
	if idx.Value != nil {
		_, static := d.Static()
		need, at := int64(0), 0
		for i, v := range idx.Value {
			k, ok := v.Static()
			switch {
			case !ok:
				if err := requireWithin(c, idx, i, d, a); err != nil {
					return err
				}
			case static:
				if n, _ := d.Static(); k < -n || k >= n {
					return c.Errorf(errcode.ErrInvalidShape, "index %d (element %d of the indices) is out of range for axis %d of size %d", k, i, a, n)
				}
			case max(k+1, -k) > need:
				need, at = max(k+1, -k), i
			}
		}
		if need == 0 {
			return nil
		}
		return requireAtLeast(c, d, need, indexWhy(idx, at, a))
	}
	if idx.elems == nil || idx.Value != nil {
		return nil
	}
	xd, ok1 := d.Expr()
	lo, ok2 := idx.elems[0].Expr()
	hi, ok3 := idx.elems[1].Expr()
	empty, ok4 := idx.Shape.Volume().Expr()
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return nil
	}
	neg, ok := sym.Neg(xd)
	if !ok {
		return nil
	}
	within := sym.And(sym.Ge(lo, neg), sym.Lt(hi, xd))
	return c.Require(sym.Or(sym.Eq(empty, sym.Int(0)), within), "the indices, "+idx.elems[0].String()+" to "+idx.elems[1].String()+", within axis "+itoa(a)+" of size "+d.String())
}

// requireWithin requires element i of the indices idx, an expression in the symbols, to lie in
// [-d, d-1] for axis a of size d; an index or axis known only by its bounds is left to a run.
func requireWithin(c *ctx, idx *Info, i int, d sym.Dim, a int) error {
	v := idx.Value[i]
	x, ok1 := v.Expr()
	xd, ok2 := d.Expr()
	if !ok1 || !ok2 || !v.Determined() || !d.Determined() {
		return nil
	}
	neg, ok := sym.Neg(xd)
	if !ok {
		return nil
	}
	return c.Require(sym.And(sym.Ge(x, neg), sym.Lt(x, xd)), indexWhy(idx, i, a))
}

// indexWhy says what requires element i of the indices idx within axis a.
func indexWhy(idx *Info, i, a int) string {
	return "index " + idx.Value[i].String() + " (element " + itoa(i) + " of the indices) within axis " + itoa(a)
}

// gatherValues sets the values of out, the Gather of data by the indices idx along axis a with b
// batch dims, when both are known: a negative index counts from the end of the axis; an index out
// of range (which gatherIndices refuses, but for OpenVINO's Gather-8) gives 0.
func gatherValues(c *ctx, out, data, idx *Info, a, b int) {
	dd, dv, ok1 := values(data)
	id, iv, ok2 := values(idx)
	if n, ok := out.Volume(); !ok1 || !ok2 || !ok || n > MaxValue {
		return
	}
	ints := make([]int64, len(iv))
	for i, d := range iv {
		n, ok := d.Static()
		if !ok {
			return
		}
		switch {
		case n >= -dd[a] && n < 0:
			n += dd[a]
		case n >= 0 && n < dd[a]:
		default:
			n = -1
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
	v := c.dims(batches * outer * per * inner)[:0]
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
}
