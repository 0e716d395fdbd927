package bounds

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// sel selects count indices start, start+step, ... of one input axis.
type sel struct{ start, step, count int64 }

// span returns the selection of the half-open range from start toward end by step, with start and
// end already clamped: [start, end) upward for a positive step, (end, start] downward otherwise.
func span(start, end, step int64) sel {
	s := sel{start: start, step: step}
	switch {
	case step > 0 && end > start:
		s.count = int64(uint64(end-start-1)/uint64(step)) + 1
	case step < 0 && start > end:
		s.count = int64(uint64(start-end-1)/abs64(step)) + 1
	}
	return s
}

func clamp(x, lo, hi int64) int64 { return max(lo, min(x, hi)) }

// pick returns the elements of v that the selections of its axes take, in row-major order.
func pick(v Value, sels []sel) []shape.Dim {
	r := len(sels)
	n := 1
	for _, s := range sels {
		n *= int(s.count)
	}
	out := make([]shape.Dim, 0, n)
	if n == 0 {
		return out
	}
	strides := make([]int64, r)
	shape.FillStrides(strides, v.Shape, 1)
	at := int64(0)
	for d, s := range sels {
		at += s.start * strides[d]
	}
	coord := make([]int64, r)
	for range n {
		out = append(out, v.Elems[at])
		for d := r - 1; d >= 0; d-- {
			coord[d]++
			at += sels[d].step * strides[d]
			if coord[d] < sels[d].count {
				break
			}
			at -= sels[d].step * strides[d] * coord[d]
			coord[d] = 0
		}
	}
	return out
}

// Slice takes a slice of v along some of its axes with ONNX's Slice-13 semantics (OpenVINO's
// Slice-8 has the same). starts and ends hold one start and one end per sliced axis; axes lists the
// axes, in [-rank, rank-1] and counting from the end when negative, each at most once (nil: 0, 1,
// ..., len(starts)-1); steps the steps, non-zero (nil: all 1). Axes not listed are kept whole.
//
// On each sliced axis of size dim, a negative start or end counts from the end (dim is added once);
// then for a positive step start is clamped to [0, dim] and end to [0, dim], and the slice takes
// start, start+step, ... below end; for a negative step start is clamped to [0, dim-1] and end to
// [-1, dim-1], and the slice takes start, start+step, ... above end. So math.MaxInt64 as an end
// means "to the end" and math.MinInt64 "to the beginning" in reverse. An axis of size 0 gives 0
// elements. The elements are copied, intervals included.
//
// Errors wrap errcode.ErrSyntax: lengths of starts, ends, axes and steps that differ, an axis out of
// range or repeated, a zero step, an invalid Value.
func Slice(v Value, starts, ends, axes, steps []int64) (Value, error) {
	const op = "slice"
	if err := v.check(op, "the input"); err != nil {
		return Value{}, err
	}
	k := len(starts)
	if len(ends) != k || (axes != nil && len(axes) != k) || (steps != nil && len(steps) != k) {
		return Value{}, errorf(errcode.ErrSyntax, "%s: starts, ends, axes and steps have lengths %d, %d, %d and %d",
			op, len(starts), len(ends), len(axes), len(steps))
	}
	r := len(v.Shape)
	sels := make([]sel, r)
	for d, n := range v.Shape {
		sels[d] = sel{0, 1, n}
	}
	seen := make([]bool, r)
	for i := range k {
		ax := int64(i)
		if axes != nil {
			ax = axes[i]
		}
		d, err := normAxis(op, ax, r)
		if err != nil {
			return Value{}, err
		}
		if seen[d] {
			return Value{}, errorf(errcode.ErrSyntax, "%s: axis %d is given twice", op, d)
		}
		seen[d] = true
		step := int64(1)
		if steps != nil {
			step = steps[i]
		}
		if step == 0 {
			return Value{}, errorf(errcode.ErrSyntax, "%s: the step of axis %d is 0", op, d)
		}
		dim, start, end := v.Shape[d], starts[i], ends[i]
		if start < 0 {
			start += dim
		}
		if end < 0 {
			end += dim
		}
		switch {
		case dim == 0:
			sels[d] = sel{}
		case step > 0:
			sels[d] = span(clamp(start, 0, dim), clamp(end, 0, dim), step)
		default:
			sels[d] = span(clamp(start, 0, dim-1), clamp(end, -1, dim-1), step)
		}
	}
	out := make([]int64, r)
	for d, s := range sels {
		out[d] = s.count
	}
	return Value{Shape: out, Elems: pick(v, sels)}, nil
}

// StridedSlice takes a strided slice of v with OpenVINO's StridedSlice-1 semantics, as its
// specification and its reference implementation (make_slice_plan) define them. begin, end and
// strides hold one entry per slicing step (strides nil: all 1); the masks hold one entry per step,
// a missing entry being 0, and only an entry equal to 1 sets the bit (OpenVINO's reading of the
// masks; the specification allows only 0 and 1).
//
// begin_mask[i] = 1 means that begin[i] is ignored and the slice starts at the real beginning of
// the axis (its end for a negative stride); end_mask[i] = 1 that end[i] is ignored and the slice
// runs to the real end (the beginning for a negative stride, inclusive). This is TensorFlow's
// meaning; every revision of the StridedSlice-1 specification (2021.1 to the current one) words it
// so, OpenVINO's shape inference and reference read it so, and the IR v10 models of
// ../shared/realdata agree (face-detection-0200 slices [2:4] with begin_mask 0, end_mask 1 and
// declares 2 values). The specification's text says that end_mask in reverse sets end to 0,
// excluding the first element; its shape inference and reference, like numpy's [::-1], include it,
// and so does this function.
//
// Each step i takes, in order of precedence: with ellipsis_mask[i] = 1 (at most one), the input
// axes that the other steps do not use, whole; with new_axis_mask[i] = 1, a new axis of size 1,
// using no input axis; with shrink_axis_mask[i] = 1, the single index begin[i] of the next input
// axis (negative counting from the end, in [-dim, dim-1], masks and stride ignored), removing the
// axis; otherwise the next input axis sliced from begin[i] to end[i] by strides[i] with Python's
// rules: negative indices count from the end, out-of-range ones are clamped (forward: to [0, dim];
// reverse: begin to [0, dim-1], end to [-1, dim]). Input axes left over at the end are kept whole.
// An axis of size 0 gives 0 elements (where OpenVINO's plan, in reverse, would claim 1).
//
// Errors wrap errcode.ErrSyntax: begin, end and strides of different lengths, more than one
// ellipsis, more slicing steps using input axes than v has axes, a zero stride, a shrink index out
// of range, an invalid Value; errcode.ErrLimit: a result of rank above 64.
func StridedSlice(v Value, begin, end, strides []int64, beginMask, endMask, newAxisMask, shrinkAxisMask, ellipsisMask []int64) (Value, error) {
	const op = "stridedslice"
	if err := v.check(op, "the input"); err != nil {
		return Value{}, err
	}
	m := len(begin)
	if len(end) != m || (strides != nil && len(strides) != m) {
		return Value{}, errorf(errcode.ErrSyntax, "%s: begin, end and strides have lengths %d, %d and %d", op, len(begin), len(end), len(strides))
	}
	bit := func(mask []int64, i int) bool { return i < len(mask) && mask[i] == 1 }
	r := len(v.Shape)
	used, newAxes, ellipsis := 0, 0, -1 // the steps that use an input axis, the new axes, the ellipsis step
	for i := range m {
		switch {
		case bit(ellipsisMask, i):
			if ellipsis >= 0 {
				return Value{}, errorf(errcode.ErrSyntax, "%s: ellipsis_mask sets both step %d and step %d; at most one ellipsis is allowed", op, ellipsis, i)
			}
			ellipsis = i
		case bit(newAxisMask, i):
			newAxes++
		default:
			used++
		}
	}
	if used > r {
		return Value{}, errorf(errcode.ErrSyntax, "%s: %d slicing steps use input axes, but the input has rank %d", op, used, r)
	}
	if r+newAxes > 64 {
		return Value{}, errorf(errcode.ErrLimit, "%s: the result would have rank %d, above 64", op, newAxes+r)
	}
	sels := make([]sel, 0, r)
	var out []int64
	in := 0 // the next input axis
	whole := func(n int) {
		for range n {
			sels = append(sels, sel{0, 1, v.Shape[in]})
			out = append(out, v.Shape[in])
			in++
		}
	}
	for i := range m {
		switch {
		case i == ellipsis:
			whole(r - used)
			continue
		case bit(newAxisMask, i):
			out = append(out, 1)
			continue
		}
		dim := v.Shape[in]
		if bit(shrinkAxisMask, i) {
			b := begin[i]
			if b < -dim || b >= dim {
				return Value{}, errorf(errcode.ErrSyntax, "%s: step %d shrinks input axis %d of size %d at index %d, out of range", op, i, in, dim, b)
			}
			if b < 0 {
				b += dim
			}
			sels = append(sels, sel{b, 1, 1})
			in++
			continue
		}
		stride := int64(1)
		if strides != nil {
			stride = strides[i]
		}
		if stride == 0 {
			return Value{}, errorf(errcode.ErrSyntax, "%s: the stride of step %d is 0", op, i)
		}
		b, e := begin[i], end[i]
		if b < 0 {
			b += dim
		}
		if e < 0 {
			e += dim
		}
		var s sel
		switch {
		case dim == 0:
		case stride > 0:
			if bit(beginMask, i) {
				b = 0
			}
			if bit(endMask, i) {
				e = dim
			}
			s = span(clamp(b, 0, dim), clamp(e, 0, dim), stride)
		default:
			if bit(beginMask, i) {
				b = dim - 1
			}
			if bit(endMask, i) {
				e = -1
			}
			s = span(clamp(b, 0, dim-1), clamp(e, -1, dim), stride)
		}
		sels = append(sels, s)
		out = append(out, s.count)
		in++
	}
	if ellipsis < 0 {
		whole(r - in)
	}
	if out == nil {
		out = []int64{}
	}
	return Value{Shape: out, Elems: pick(v, sels)}, nil
}
