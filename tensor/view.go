package tensor

import (
	"fmt"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/shape"
)

// Transpose returns the view of t with its axes permuted: axis i of the result is axis perm[i] of t.
// Without perm it reverses the axes (numpy's .T). Packed sub-byte types are always dense, so for
// them the result is a dense copy. The error wraps reshape.ErrSyntax when perm is not a permutation
// of the axes.
func (t Tensor) Transpose(perm ...int) (Tensor, error) {
	r := len(t.shape)
	if len(perm) == 0 {
		perm = make([]int, r)
		for i := range perm {
			perm[i] = r - 1 - i
		}
	}
	if len(perm) != r {
		return Tensor{}, reshape.Errorf(reshape.ErrSyntax, "transpose: %d axes in the permutation %v of a rank-%d tensor", len(perm), perm, r)
	}
	seen := make([]bool, r)
	dims := make([]int64, r)
	strides := make([]int64, r)
	for i, p := range perm {
		if p < 0 || p >= r || seen[p] {
			return Tensor{}, reshape.Errorf(reshape.ErrSyntax, "transpose: %v is not a permutation of the %d axes", perm, r)
		}
		seen[p] = true
		dims[i] = t.shape[p]
		if t.strides != nil {
			strides[i] = t.strides[p]
		}
	}
	if t.typ.IsPacked() {
		return t.packedView(func(u Tensor) (Tensor, error) { return u.Transpose(perm...) })
	}
	return Tensor{typ: t.typ, shape: dims, strides: strides, offset: t.offset, data: t.data}, nil
}

// Slice returns the view of t that keeps, along axis, the indices start, start+step, ... up to but
// not including stop (step may be negative: then the indices go down while they are above stop, and
// stop may be -1). start must be a valid index unless the slice is empty; stop lies in [-1, dim].
// Packed sub-byte types are always dense, so for them the result is a dense copy. Errors wrap
// reshape.ErrSyntax.
func (t Tensor) Slice(axis int, start, stop, step int64) (Tensor, error) {
	if axis < 0 || axis >= len(t.shape) {
		return Tensor{}, reshape.Errorf(reshape.ErrSyntax, "slice: axis %d of a rank-%d tensor", axis, len(t.shape))
	}
	d := t.shape[axis]
	var n int64
	switch {
	case step == 0:
		return Tensor{}, reshape.Errorf(reshape.ErrSyntax, "slice: step 0")
	case stop < -1 || stop > d:
		return Tensor{}, reshape.Errorf(reshape.ErrSyntax, "slice: stop %d outside [-1, %d] on axis %d", stop, d, axis)
	case step > 0 && stop > start:
		n = (stop - start + step - 1) / step
	case step < 0 && stop < start:
		n = (start - stop - step - 1) / -step
	}
	if n > 0 && (start < 0 || start >= d) {
		return Tensor{}, reshape.Errorf(reshape.ErrSyntax, "slice: start %d outside [0, %d) on axis %d", start, d, axis)
	}
	if t.typ.IsPacked() {
		return t.packedView(func(u Tensor) (Tensor, error) { return u.Slice(axis, start, stop, step) })
	}
	dims := append([]int64(nil), t.shape...)
	strides := append([]int64(nil), t.strides...)
	dims[axis] = n
	offset := t.offset
	if n > 0 {
		offset += start * t.strides[axis]
		strides[axis] = t.strides[axis] * step
	}
	return Tensor{typ: t.typ, shape: dims, strides: strides, offset: offset, data: t.data}, nil
}

// packedView applies a view to the elements of a packed tensor one byte each, and packs the result
// densely again.
func (t Tensor) packedView(view func(Tensor) (Tensor, error)) (Tensor, error) {
	u, err := t.unpack()
	if err != nil {
		return Tensor{}, err
	}
	v, err := view(u)
	if err != nil {
		return Tensor{}, err
	}
	return pack(v.Contiguous(), t.typ), nil
}

// Method says how Reshape produced its result.
type Method struct {
	// View reports that the result shares the input's memory; otherwise it is a dense copy.
	View bool
	// Reason says which rule of the layout allowed the view or forced the copy.
	Reason string
}

// Reshape reshapes the tensor t by pattern, the Reshape operation on data: it infers the output
// shape with reshape.Infer (Options.DataType is set to t's type, so the dialect's data types are
// checked), then returns a view sharing t's memory when the layout allows it (NOTES.md §7: every
// group of input axes merged into one output axis is contiguous within itself), and otherwise one
// dense row-major copy. The element order is logical row-major either way. The errors are those of
// reshape.Infer.
func Reshape(t Tensor, pattern []int64, opt reshape.Options) (Tensor, Method, error) {
	opt.DataType = t.typ
	out, err := reshape.Infer(t.shape, pattern, opt)
	if err != nil {
		return Tensor{}, Method{}, err
	}
	return t.reshapeTo(out)
}

// View returns t with the shape dims, of the same volume, sharing t's memory, when the layout
// allows it (NOTES.md §7); ok is false, with the reason, when only a copy can give that shape.
// Errors wrap reshape.ErrVolumeMismatch when the volumes differ.
func (t Tensor) View(dims ...int64) (v Tensor, reason string, ok bool, err error) {
	n, err := shape.Volume(dims)
	if err != nil {
		return Tensor{}, "", false, err
	}
	if n != t.Len() {
		return Tensor{}, "", false, reshape.Errorf(reshape.ErrVolumeMismatch, "shape %s has volume %d, the tensor %s has %d", shape.FormatInts(dims), n, shape.FormatInts(t.shape), t.Len())
	}
	if t.typ.IsPacked() {
		return Tensor{typ: t.typ, shape: dims, offset: t.offset, data: t.data}, "sub-byte elements are always dense", true, nil
	}
	strides, reason, ok := viewStrides(t.shape, t.strides, dims, t.elemSize())
	if !ok {
		return Tensor{}, reason, false, nil
	}
	if t.IsContiguous() {
		reason = "the input is dense: only the shape changes"
	}
	return Tensor{typ: t.typ, shape: dims, strides: strides, offset: t.offset, data: t.data}, reason, true, nil
}

func (t Tensor) reshapeTo(dims []int64) (Tensor, Method, error) {
	v, reason, ok, err := t.View(dims...)
	if err != nil {
		return Tensor{}, Method{}, err
	}
	if ok {
		return v, Method{View: true, Reason: reason}, nil
	}
	c := t.Contiguous()
	c.shape, c.strides = dims, denseStrides(dims, t.elemSize())
	return c, Method{View: false, Reason: reason}, nil
}

// viewStrides computes strides that show the elements of a view (dims, strides) in the shape
// newDims without moving them, as numpy's reshape does: each group of old axes whose product is one
// group of new axes must be contiguous within itself. ok is false when a group is not, and reason
// names it.
func viewStrides(dims, strides, newDims []int64, es int64) (newStrides []int64, reason string, ok bool) {
	newStrides = make([]int64, len(newDims))
	if mustVolume(dims) == 0 {
		copy(newStrides, denseStrides(newDims, es))
		return newStrides, "no elements: any strides do", true
	}
	// The old axes of size 1 play no part.
	var od, os []int64
	var oi []int // their indices, for the reason
	for i, d := range dims {
		if d != 1 {
			od, os, oi = append(od, d), append(os, strides[i]), append(oi, i)
		}
	}
	ni, nj, o, oj := 0, 1, 0, 1
	for ni < len(newDims) && o < len(od) {
		np, op := newDims[ni], od[o]
		for np != op {
			if np < op {
				np *= newDims[nj]
				nj++
			} else {
				op *= od[oj]
				oj++
			}
		}
		for k := o; k < oj-1; k++ {
			if os[k] != od[k+1]*os[k+1] {
				return nil, fmt.Sprintf("input axes %d..%d merge into output axes %d..%d, but stride[%d] = %d != dim[%d]·stride[%d] = %d: not contiguous",
					oi[o], oi[oj-1], ni, nj-1, oi[k], os[k], oi[k+1], oi[k+1], od[k+1]*os[k+1]), false
			}
		}
		newStrides[nj-1] = os[oj-1]
		for k := nj - 1; k > ni; k-- {
			newStrides[k-1] = newStrides[k] * newDims[k]
		}
		ni, nj = nj, nj+1
		o, oj = oj, oj+1
	}
	// Trailing new axes of size 1: a stride consistent with the axis before them.
	for k := ni; k < len(newDims); k++ {
		newStrides[k] = es
		if k > 0 {
			newStrides[k] = newStrides[k-1]
		}
	}
	return newStrides, "every group of input axes merged into one output axis is contiguous within itself", true
}
