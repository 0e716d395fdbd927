package graph

import (
	"math"
	"slices"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoSlice holds the rules of the OpenVINO IR layers that take parts of a tensor, with values.
var openvinoSlice = table{DomainOpenVINO, []opDef{
	{"StridedSlice", since(1), span(3, 4), fixed(1), reads(0, 1, 2, 3), ovStridedSlice},
	{"Slice", since(8), span(4, 5), fixed(1), reads(0, 1, 2, 3, 4), ovSlice},
}}

// ovStridedSlice: StridedSlice-1: begin, end and strides (inputs 1 to 3, strides 1 when left out)
// hold one entry per slicing step, and the five masks one bit per step (a missing entry is 0; only
// 1 sets it). Step i takes, in order of precedence: with ellipsis_mask, the input axes the other
// steps do not use, whole; with new_axis_mask, a new axis of size 1; with shrink_axis_mask, the
// single index begin[i] of the next input axis (from the end when negative), removed; otherwise
// the next input axis from begin[i] to end[i] by strides[i] with Python's rules (negative indices
// count from the end, indices out of range are clamped), begin_mask starting at the axis's real
// beginning (its end for a negative stride) and end_mask running to its real end (its beginning,
// included, for a negative stride). Axes left over are kept whole. Dims are symbolic where the
// input's are; values are sliced when known. Begin or end values not known give the slices' dims
// as intervals bounded by the input dims.
func ovStridedSlice(c *ctx) error {
	data, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	begin, bk := ins[1].Ints()
	end, ek := ins[2].Ints()
	var strides []int64
	sk := true
	if s := c.In(3); s != nil {
		strides, sk = s.Ints()
	}
	var masks [5][]int64
	for k, name := range []string{"begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask"} {
		if masks[k], _, err = c.Ints(name); err != nil {
			return err
		}
	}
	bit := func(k, i int) bool { return i < len(masks[k]) && masks[k][i] == 1 }
	m := -1
	switch {
	case bk:
		m = len(begin)
	case ek:
		m = len(end)
	default:
		if n, ok := ins[1].Volume(); ok {
			m = int(n)
		}
	}
	if m < 0 {
		return nil
	}
	if bk && ek && len(end) != m || sk && strides != nil && len(strides) != m {
		return c.Errorf(errcode.ErrInvalidShape, "begin, end and strides have lengths %d, %d and %d", len(begin), len(end), len(strides))
	}
	used, ellipsis := 0, -1
	for i := range m {
		switch {
		case bit(4, i):
			if ellipsis >= 0 {
				return c.Errorf(errcode.ErrInvalidShape, "ellipsis_mask sets steps %d and %d: at most one ellipsis", ellipsis, i)
			}
			ellipsis = i
		case !bit(2, i):
			used++
		}
	}
	if used > r {
		return c.Errorf(errcode.ErrInvalidShape, "%d slicing steps use input axes, the input has rank %d", used, r)
	}
	cuts := make([]*cut, r)
	var dims []sym.Dim
	in := 0 // the next input axis
	exact := true
	whole := func(n int) {
		for range n {
			dims = append(dims, data.Shape.Dims[in])
			in++
		}
	}
	for i := range m {
		switch {
		case i == ellipsis:
			whole(r - used)
			continue
		case bit(2, i):
			dims = append(dims, sym.Const(1))
			continue
		}
		d := data.Shape.Dims[in]
		if bit(3, i) {
			if !bk {
				exact = false
				in++
				continue
			}
			b := begin[i]
			if lo, hi := d.Bounds(); b >= hi || b < -lo && lo == hi || b < 0 && -b > hi {
				return c.Errorf(errcode.ErrInvalidShape, "step %d takes index %d of input axis %d of size %v", i, b, in, d)
			}
			first := sym.Const(b)
			if b < 0 {
				first = sym.AddDims(d, first)
			}
			cuts[in] = &cut{first, sym.Const(1), sym.Const(1)}
			in++
			continue
		}
		stride := int64(1)
		if strides != nil {
			stride = strides[i]
		}
		if stride == 0 && sk {
			return c.Errorf(errcode.ErrInvalidShape, "the stride of step %d is 0", i)
		}
		if !sk || !bk && !bit(0, i) || !ek && !bit(1, i) {
			dims = append(dims, upTo(d))
			exact = false
			in++
			continue
		}
		var b, e int64
		switch {
		case bit(0, i) && stride > 0:
			b = 0
		case bit(0, i):
			b = math.MaxInt64
		default:
			b = begin[i]
		}
		switch {
		case bit(1, i) && stride > 0:
			e = math.MaxInt64
		case bit(1, i):
			e = math.MinInt64
		default:
			e = end[i]
		}
		first, n, _ := sliceAxis(d, sym.Const(b), sym.Const(e), stride)
		cuts[in] = &cut{first, sym.Const(stride), n}
		dims = append(dims, n)
		in++
	}
	if ellipsis < 0 {
		whole(r - in)
	}
	out := c.Out(0, data.Type, sym.ShapeOf(dims...))
	if exact {
		cutValues(out, data, cuts)
	}
	return nil
}

// ovSlice: Slice-8: start, stop, step and axes (inputs 1 to 4; axes 0, 1, ... when left out), one
// entry per sliced axis, with the rules of ONNX's Slice-13: negative indices count from the end;
// for a positive step start and stop are clamped to [0, dim], for a negative one start to
// [0, dim-1] and stop to [-1, dim-1]; ceil((stop-start)/step) elements, at least 0. Values are
// sliced when known.
func ovSlice(c *ctx) error {
	data, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if _, err := c.Inputs(4); err != nil {
		return err
	}
	var args [4][]int64
	for k := range args {
		a := c.In(k + 1)
		if a == nil {
			continue
		}
		v, ok := a.Ints()
		if !ok {
			return nil
		}
		args[k] = v
	}
	start, stop, step, axes := args[0], args[1], args[2], args[3]
	if len(stop) != len(start) || len(step) != len(start) || c.In(4) != nil && len(axes) != len(start) {
		return c.Errorf(errcode.ErrInvalidShape, "start, stop, step and axes have lengths %d, %d, %d and %d", len(start), len(stop), len(step), len(axes))
	}
	if c.In(4) == nil {
		for i := range start {
			axes = append(axes, int64(i))
		}
	}
	ax, err := c.NormAxes(axes, r)
	if err != nil {
		return err
	}
	dims := slices.Clone(data.Shape.Dims)
	cuts := make([]*cut, r)
	for k, a := range ax {
		if step[k] == 0 {
			return c.Errorf(errcode.ErrInvalidShape, "step[%d] is 0", k)
		}
		first, n, _ := sliceAxis(dims[a], sym.Const(start[k]), sym.Const(stop[k]), step[k])
		cuts[a] = &cut{first, sym.Const(step[k]), n}
		dims[a] = n
	}
	cutValues(c.Out(0, data.Type, sym.ShapeOf(dims...)), data, cuts)
	return nil
}
