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

// ovStridedSlice: StridedSlice-1: begin, end and strides (inputs 1 to 3, 1-D, strides 1 when left
// out) hold one entry per slicing step, and the five masks one bit per step (a missing entry is
// 0; only 1 sets it; the masks given have one length). Step i takes, in order of precedence: with ellipsis_mask, the input axes the other
// steps do not use, whole; with new_axis_mask, a new axis of size 1; with shrink_axis_mask, the
// single index begin[i] of the next input axis (from the end when negative), removed; otherwise
// the next input axis from begin[i] to end[i] by strides[i] with Python's rules (negative indices
// count from the end, indices out of range are clamped), begin_mask starting at the axis's real
// beginning (its end for a negative stride) and end_mask running to its real end (its beginning,
// included, for a negative stride). Axes left over are kept whole. Dims are symbolic where the
// input's are; values are sliced when known. Begin or end values not known give the slices' dims
// as intervals bounded by the input dims. The number of steps is the length of begin, else of end
// or strides, whichever is known; when none is, ovStepsNotKnown.
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
	size := -1 // the length of the masks given
	for k, name := range []string{"begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask"} {
		if masks[k], _, err = c.Ints(name); err != nil {
			return err
		}
		if n := len(masks[k]); n > 0 && size >= 0 && n != size {
			return c.Errorf(errcode.ErrInvalidShape, "%s has %d bits and another mask %d: want masks of one length", name, n, size)
		} else if n > 0 {
			size = n
		}
	}
	for i, what := range []string{"begin", "end", "strides"} {
		if c.In(i+1) != nil {
			if _, _, err := ovVector(c, i+1, what); err != nil {
				return err
			}
		}
	}
	if c.In(3) == nil && c.In(1).Shape.RankDynamic && c.In(2).Shape.RankDynamic {
		return c.Errorf(errcode.ErrInvalidShape, "neither begin nor end has a known rank: the default strides are ones of their length")
	}
	bit := func(k, i int) bool { return i < len(masks[k]) && masks[k][i] == 1 }
	m := -1
	switch {
	case bk:
		m = len(begin)
	case ek:
		m = len(end)
	default: // the count of steps is the length of begin, end or strides, whichever is known
		for _, v := range []*Info{ins[1], ins[2], c.In(3)} {
			if v == nil {
				continue
			}
			if n, ok := v.Volume(); ok {
				m = int(n)
				break
			}
		}
	}
	if m < 0 {
		return ovStepsNotKnown(c, data, ins[1], masks)
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

// ovStepsNotKnown infers a StridedSlice whose number of steps, the length of begin, is no integer
// (an expression in the symbols, or not known). Without new_axis_mask, shrink_axis_mask and
// ellipsis_mask bits the output keeps the input's rank, each axis sliced within its dim (steps
// past the last keep their axes whole), and begin's length is required to be at most the input's
// rank; with them the output's rank depends on the count, which is a loss of precision.
func ovStepsNotKnown(c *ctx, data, begin *Info, masks [5][]int64) error {
	for _, k := range []int{2, 3, 4} {
		if slices.Contains(masks[k], 1) {
			c.Lost("the output's rank: begin's length, the number of slicing steps, is not known")
			c.Out(0, data.Type, sym.DynamicRank())
			return nil
		}
	}
	r := len(data.Shape.Dims)
	if !begin.Shape.RankDynamic {
		why := "begin's length, the number of slicing steps, at most the input's rank " + itoa(r)
		if err := requireAtMost(c, begin.Shape.Dims[0], sym.Const(int64(r)), why); err != nil {
			return err
		}
	}
	c.Out(0, data.Type, sym.ShapeOf(upToAll(data.Shape.Dims)...))
	return nil
}

// ovSlice: Slice-8: the data's dims, each sliced axis cut as ovSliceDims gives it; values are
// sliced when known.
func ovSlice(c *ctx) error {
	data, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	dims, cuts, exact, err := ovSliceDims(c, data, r, 1)
	if err != nil {
		return err
	}
	out := c.Out(0, data.Type, sym.ShapeOf(dims...))
	if exact {
		cutValues(out, data, cuts)
	}
	return nil
}

// ovSliceNames names the inputs start, stop, step and axes of Slice-8 in errors.
var ovSliceNames = [4]string{"start", "stop", "step", "axes"}

// ovSliceDims returns the dims of the slice of data (of rank r, not 0) that Slice-8's start,
// stop, step and axes (inputs first to first+3; axes 0, 1, ... when left out) take, each 1-D of
// one length, at most r: with the rules of ONNX's Slice-13, negative indices count from the end;
// for a positive step start and stop are clamped to [0, dim], for a negative one start to
// [0, dim-1] and stop to [-1, dim-1]; ceil((stop-start)/step) elements, at least 0. Where the
// values are not known, each axis that may be sliced is at most its dim, and exact is false;
// cuts gives what each sliced axis takes when exact.
func ovSliceDims(c *ctx, data *Info, r, first int) (dims []sym.Dim, cuts []*cut, exact bool, err error) {
	if r == 0 {
		return nil, nil, false, c.Errorf(errcode.ErrInvalidShape, "the data is a scalar")
	}
	var args [4][]int64
	n, known := -1, true
	for k, name := range ovSliceNames {
		in := c.In(first + k)
		if in == nil {
			continue
		}
		_, m, err := ovVector(c, first+k, name)
		if err != nil {
			return nil, nil, false, err
		}
		switch {
		case m > r:
			return nil, nil, false, c.Errorf(errcode.ErrInvalidShape, "%s has %d elements, more than the data's rank %d", name, m, r)
		case m >= 0 && n >= 0 && m != n:
			return nil, nil, false, c.Errorf(errcode.ErrInvalidShape, "%s has %d elements, and the other inputs %d: want one length", name, m, n)
		case m >= 0:
			n = m
		}
		v, ok := in.Ints()
		args[k], known = v, known && ok && (k == 3 || len(v) == n)
	}
	dims = c.clone(data.Shape.Dims)
	var axes []int
	switch {
	case c.In(first+3) != nil && args[3] != nil:
		if axes, err = c.NormAxes(args[3], r); err != nil {
			return nil, nil, false, err
		}
	case c.In(first+3) == nil && n >= 0:
		axes = allAxes(n)
	default: // any axis may be sliced
		axes, known = allAxes(r), false
	}
	if !known {
		for _, a := range axes {
			dims[a] = upTo(dims[a])
		}
		return dims, nil, false, nil
	}
	start, stop, step := args[0], args[1], args[2]
	cuts = make([]*cut, r)
	for k, a := range axes {
		if step[k] == 0 {
			return nil, nil, false, c.Errorf(errcode.ErrInvalidShape, "step[%d] is 0", k)
		}
		from, m, _ := sliceAxis(dims[a], sym.Const(start[k]), sym.Const(stop[k]), step[k])
		cuts[a] = &cut{from, sym.Const(step[k]), m}
		dims[a] = m
	}
	return dims, cuts, true, nil
}
