package bounds

import (
	"fmt"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// Gather takes the slices of data at the given indices along axis: OpenVINO's Gather-8 (and, where
// the indices are non-negative and in range, Gather-1 and Gather-7) and ONNX's Gather-13 (with
// batchDims 0). The result has shape data[:axis] + indices[batchDims:] + data[axis+1:]; a scalar
// index removes the axis. axis counts from the end when negative, in [-rank, rank-1] of data;
// batchDims counts from the end of the rank of indices when negative, and must lie in [0, min(axis,
// rank of indices)] once normalized; the first batchDims dimensions of data and indices must be
// equal, and each batch takes its own indices.
//
// The indices must be static: otherwise the error wraps ErrUnknown, since the element read is not
// known (OpenVINO bounds-evaluates such a Gather only in special cases). A negative index counts
// from the end of the axis, in [-dim, dim-1]; an index out of that range is an error wrapping
// errcode.ErrSyntax (ONNX's rule; OpenVINO's Gather-8 would give zeros there). The elements of data
// are copied, intervals included. Other errors wrap errcode.ErrSyntax (a scalar data, axes or shapes
// that do not fit, an invalid Value) or errcode.ErrLimit (a result above 1<<20 elements).
func Gather(data, indices Value, axis, batchDims int64) (Value, error) {
	const op = "gather"
	if err := data.check(op, "data"); err != nil {
		return Value{}, err
	}
	if err := indices.check(op, "indices"); err != nil {
		return Value{}, err
	}
	r, ri := len(data.Shape), len(indices.Shape)
	if r == 0 {
		return Value{}, errorf(errcode.ErrSyntax, "%s: data is a scalar", op)
	}
	a, err := normAxis(op, axis, r)
	if err != nil {
		return Value{}, err
	}
	b := batchDims
	if b < 0 {
		b += int64(ri)
	}
	if b < 0 || b > int64(ri) || b > int64(a) {
		return Value{}, errorf(errcode.ErrSyntax, "%s: batch_dims %d is out of range for axis %d and indices of rank %d", op, batchDims, a, ri)
	}
	for i := range b {
		if data.Shape[i] != indices.Shape[i] {
			return Value{}, errorf(errcode.ErrSyntax, "%s: batch dimension %d differs: data %s, indices %s", op, i,
				shape.FormatInts(data.Shape), shape.FormatInts(indices.Shape))
		}
	}
	idx, ok := indices.Ints()
	if !ok {
		return Value{}, fmt.Errorf("%s: the indices %s are not static: %w", op, indices, ErrUnknown)
	}
	d := data.Shape[a]
	for i, k := range idx {
		if k < -d || k >= d {
			return Value{}, errorf(errcode.ErrSyntax, "%s: index %d (element %d of the indices) is out of range for axis %d of size %d", op, k, i, a, d)
		}
		if k < 0 {
			idx[i] = k + d
		}
	}
	out := make([]int64, 0, r-1+ri-int(b))
	out = append(out, data.Shape[:a]...)
	out = append(out, indices.Shape[b:]...)
	out = append(out, data.Shape[a+1:]...)
	n, err := volume(op, out)
	if err != nil {
		return Value{}, err
	}
	batch := prod(data.Shape[:b])
	outer := prod(data.Shape[b:a])
	post := prod(data.Shape[a+1:])
	nIdx := prod(indices.Shape[b:])
	res := Value{Shape: out, Elems: make([]shape.Dim, 0, n)}
	for bi := range batch {
		for o := range outer {
			for j := range nIdx {
				src := ((bi*outer+o)*int(d) + int(idx[bi*nIdx+j])) * post
				res.Elems = append(res.Elems, data.Elems[src:src+post]...)
			}
		}
	}
	return res, nil
}

// Concat joins vs along axis: OpenVINO's Concat-1 and ONNX's Concat-13. The values must have the
// same rank, at least 1, and equal dimensions except along axis, which counts from the end when
// negative, in [-rank, rank-1]. Errors wrap errcode.ErrSyntax (no values, a scalar, shapes or an
// axis that do not fit, an invalid Value) or errcode.ErrLimit (a result above 1<<20 elements).
func Concat(vs []Value, axis int64) (Value, error) {
	const op = "concat"
	if len(vs) == 0 {
		return Value{}, errorf(errcode.ErrSyntax, "%s: no inputs", op)
	}
	for i, v := range vs {
		if err := v.check(op, fmt.Sprintf("input %d", i)); err != nil {
			return Value{}, err
		}
	}
	r := len(vs[0].Shape)
	if r == 0 {
		return Value{}, errorf(errcode.ErrSyntax, "%s: input 0 is a scalar", op)
	}
	a, err := normAxis(op, axis, r)
	if err != nil {
		return Value{}, err
	}
	out := append([]int64{}, vs[0].Shape...)
	out[a] = 0
	for i, v := range vs {
		ok := len(v.Shape) == r
		for d := 0; ok && d < r; d++ {
			ok = d == a || v.Shape[d] == out[d]
		}
		if !ok {
			return Value{}, errorf(errcode.ErrSyntax, "%s: input %d of shape %s does not match input 0 of shape %s along axes other than %d",
				op, i, shape.FormatInts(v.Shape), shape.FormatInts(vs[0].Shape), a)
		}
		if v.Shape[a] > maxElems-out[a] {
			return Value{}, errorf(errcode.ErrLimit, "%s: dimension %d of the result would be above %d", op, a, maxElems)
		}
		out[a] += v.Shape[a]
	}
	n, err := volume(op, out)
	if err != nil {
		return Value{}, err
	}
	outer := prod(out[:a])
	res := Value{Shape: out, Elems: make([]shape.Dim, 0, n)}
	for o := range outer {
		for _, v := range vs {
			chunk := len(v.Elems) / outer
			res.Elems = append(res.Elems, v.Elems[o*chunk:(o+1)*chunk]...)
		}
	}
	return res, nil
}

// Unsqueeze inserts dimensions of size 1 into the shape of v at axes, positions in the result:
// OpenVINO's Unsqueeze-1 and ONNX's Unsqueeze-13. The result has rank rank(v) + len(axes); each
// axis lies in [-that rank, that rank - 1], counting from the end when negative. The elements are
// unchanged. An axis given twice (after normalization) is an error wrapping errcode.ErrSyntax, as
// ONNX requires (OpenVINO would merge them), as is an axis out of range or an invalid Value.
func Unsqueeze(v Value, axes []int64) (Value, error) {
	const op = "unsqueeze"
	if err := v.check(op, "the input"); err != nil {
		return Value{}, err
	}
	r := len(v.Shape) + len(axes)
	inserted := make([]bool, r)
	for _, ax := range axes {
		i, err := normAxis(op, ax, r)
		if err != nil {
			return Value{}, err
		}
		if inserted[i] {
			return Value{}, errorf(errcode.ErrSyntax, "%s: axis %d is given twice", op, i)
		}
		inserted[i] = true
	}
	out := make([]int64, r)
	j := 0
	for i := range out {
		if inserted[i] {
			out[i] = 1
		} else {
			out[i] = v.Shape[j]
			j++
		}
	}
	return Value{Shape: out, Elems: append([]shape.Dim{}, v.Elems...)}, nil
}

// Squeeze removes dimensions of size 1 from the shape of v: OpenVINO's Squeeze-1 and ONNX's
// Squeeze-13. With nil or empty axes it removes every dimension of size 1; otherwise the dimensions
// at axes, in [-rank, rank-1] and counting from the end when negative, each of which must be 1. An
// axis given twice counts once (OpenVINO's axis set). The elements are unchanged. Errors wrap
// errcode.ErrSyntax: an axis out of range or of a size other than 1, an invalid Value.
func Squeeze(v Value, axes []int64) (Value, error) {
	const op = "squeeze"
	if err := v.check(op, "the input"); err != nil {
		return Value{}, err
	}
	r := len(v.Shape)
	removed := make([]bool, r)
	if len(axes) == 0 {
		for i, d := range v.Shape {
			removed[i] = d == 1
		}
	}
	for _, ax := range axes {
		i, err := normAxis(op, ax, r)
		if err != nil {
			return Value{}, err
		}
		if v.Shape[i] != 1 {
			return Value{}, errorf(errcode.ErrSyntax, "%s: axis %d has size %d, not 1", op, i, v.Shape[i])
		}
		removed[i] = true
	}
	out := []int64{}
	for i, d := range v.Shape {
		if !removed[i] {
			out = append(out, d)
		}
	}
	return Value{Shape: out, Elems: append([]shape.Dim{}, v.Elems...)}, nil
}
