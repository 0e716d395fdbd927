package tensor

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// Transpose returns the view of t with its axes permuted: axis i of the result is axis perm[i] of t.
// Without perm it reverses the axes (numpy's .T). Packed sub-byte types are always dense, so for
// them the result is a dense copy. The error wraps errcode.ErrSyntax when perm is not a permutation
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
		return Tensor{}, errcode.Errorf(errcode.ErrSyntax, "transpose: %d axes in the permutation %v of a rank-%d tensor", len(perm), perm, r)
	}
	seen := make([]bool, r)
	dims := make([]int64, r)
	strides := make([]int64, r)
	for i, p := range perm {
		if p < 0 || p >= r || seen[p] {
			return Tensor{}, errcode.Errorf(errcode.ErrSyntax, "transpose: %v is not a permutation of the %d axes", perm, r)
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
// errcode.ErrSyntax.
func (t Tensor) Slice(axis int, start, stop, step int64) (Tensor, error) {
	if axis < 0 || axis >= len(t.shape) {
		return Tensor{}, errcode.Errorf(errcode.ErrSyntax, "slice: axis %d of a rank-%d tensor", axis, len(t.shape))
	}
	d := t.shape[axis]
	var n int64
	switch {
	case step == 0:
		return Tensor{}, errcode.Errorf(errcode.ErrSyntax, "slice: step 0")
	case stop < -1 || stop > d:
		return Tensor{}, errcode.Errorf(errcode.ErrSyntax, "slice: stop %d outside [-1, %d] on axis %d", stop, d, axis)
	case step > 0 && stop > start:
		n = (stop - start + step - 1) / step
	case step < 0 && stop < start:
		n = (start - stop - step - 1) / -step
	}
	if n > 0 && (start < 0 || start >= d) {
		return Tensor{}, errcode.Errorf(errcode.ErrSyntax, "slice: start %d outside [0, %d) on axis %d", start, d, axis)
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
	// why holds the rule (its low 4 bits) and, for a copy, the axes that break it, 10 bits each:
	// the group of input axes [in0, in1] merges into the output axes [out0, out1] but is not
	// contiguous, because stride[axis] = stride != dim[next]·stride[next] = want. Four fields of 32
	// bytes in all: the compiler keeps a Method in registers.
	why          uint64
	stride, want int64
}

type rule uint8

const (
	ruleGroups            rule = iota // every group of merged axes is contiguous within itself
	ruleDense                         // the input is dense
	ruleEmpty                         // no elements
	rulePacked                        // sub-byte elements, always dense
	ruleNotContiguous                 // a group is not contiguous; why holds its axes
	ruleNotContiguousWide             // the same, with an axis index beyond what why holds
)

// viewBy returns the Method of a view by rule r.
func viewBy(r rule) Method { return Method{View: true, why: uint64(r)} }

// notContiguous returns the Method of a copy forced by a group of axes (see Method.why).
func notContiguous(in0, in1, out0, out1, axis, next int, stride, want int64) Method {
	m := Method{why: uint64(ruleNotContiguousWide), stride: stride, want: want}
	if max(in1, out1, axis, next) < 1<<10 {
		m.why = uint64(ruleNotContiguous)
		for i, a := range [...]int{in0, in1, out0, out1, axis, next} {
			m.why |= uint64(a) << (4 + 10*i)
		}
	}
	return m
}

// axis returns the axis index i (0 in0, 1 in1, 2 out0, 3 out1, 4 axis, 5 next) held in why.
func (m Method) axis(i int) int { return int(m.why >> (4 + 10*i) & (1<<10 - 1)) }

// Reason says which rule of the layout allowed the view or forced the copy.
func (m Method) Reason() string {
	switch rule(m.why & 15) {
	case ruleDense:
		return "the input is dense: only the shape changes"
	case ruleEmpty:
		return "no elements: any strides do"
	case rulePacked:
		return "sub-byte elements are always dense"
	case ruleNotContiguous:
		return fmt.Sprintf("input axes %d..%d merge into output axes %d..%d, but stride[%d] = %d != dim[%d]·stride[%d] = %d: not contiguous",
			m.axis(0), m.axis(1), m.axis(2), m.axis(3), m.axis(4), m.stride, m.axis(5), m.axis(5), m.want)
	case ruleNotContiguousWide:
		return fmt.Sprintf("a group of input axes merged into one output axis is not contiguous: a stride of %d where %d would be", m.stride, m.want)
	}
	return "every group of input axes merged into one output axis is contiguous within itself"
}

// String returns "view: " or "copy: " and the Reason, so that fmt prints a Method as it reads:
// "copy: input axes 0..1 merge into output axes 0..0, but ...".
func (m Method) String() string {
	if m.View {
		return "view: " + m.Reason()
	}
	return "copy: " + m.Reason()
}

// ReshapedTo returns t in the shape dims (in elements), of t's volume: a view sharing t's memory
// when the layout allows it (see Views in the package documentation: every group of input axes
// merged into one output axis is contiguous within itself), otherwise one dense row-major copy. The element order is logical
// row-major either way. A view allocates only its shape and strides; a copy allocates exactly its
// data besides. A view aliases t: what is written through one is seen through the other; a copy
// shares nothing with t. It is the data half of Reshape, for a shape the caller has inferred
// (reshape.Apply does both). The error wraps errcode.ErrVolumeMismatch when the volumes differ,
// errcode.ErrSyntax for a negative dimension, errcode.ErrOverflow for a volume beyond int64.
func (t Tensor) ReshapedTo(dims ...int64) (Tensor, Method, error) {
	var out Tensor
	if t.denseInto(&out, dims) {
		return out, viewBy(ruleDense), nil
	}
	if err := t.checkVolume(dims); err != nil {
		return Tensor{}, Method{}, err
	}
	n := len(dims)
	meta := make([]int64, 2*n) // the result's shape and strides, in one allocation
	copy(meta, dims)
	m := t.into(&out, meta[:n:n], meta[n:])
	return out, m, nil
}

// ReshapedInto is ReshapedTo writing its result to *dst and reusing dst's memory, for a runtime
// that keeps its output tensors: the capacity of dst's shape and strides, and, when a copy is
// needed, dst's data if it is large enough and does not overlap t's. With that capacity a view does
// not allocate, and a copy allocates nothing. dims is copied. On error *dst is unchanged.
func (t Tensor) ReshapedInto(dst *Tensor, dims []int64) (Method, error) {
	if t.denseInto(dst, dims) {
		return viewBy(ruleDense), nil
	}
	if err := t.checkVolume(dims); err != nil {
		return Method{}, err
	}
	n := len(dims)
	var shp, strides []int64
	if cap(dst.shape) >= n && cap(dst.strides) >= n && !overlaps(dst.shape, t.shape) && !overlaps(dst.shape, t.strides) &&
		!overlaps(dst.strides, t.shape) && !overlaps(dst.strides, t.strides) && !overlaps(dst.shape, dst.strides) {
		shp, strides = dst.shape[:n], dst.strides[:n]
	} else {
		meta := make([]int64, 2*n) // the result's shape and strides, in one allocation
		shp, strides = meta[:n:n], meta[n:]
	}
	copy(shp, dims)
	return t.into(dst, shp, strides), nil
}

// denseInto is the fast path of ReshapedTo and ReshapedInto: when t is dense row-major and has
// elements and dims are positive dimensions of its volume, it sets *dst, field by field, to the
// view of t in the shape dims (only dense strides to write), in dst's shape and strides when they
// have room and share no memory with t's or each other, else in one new allocation, and returns
// true. Otherwise, errors included, it returns false, *dst unchanged, for the general path. t is a
// pointer so that the tensor is not copied.
func (t *Tensor) denseInto(dst *Tensor, dims []int64) bool {
	es := int64(t.typ.Bits() / 8)
	if es == 0 { // packed
		return false
	}
	vol := int64(1)
	for i := len(t.shape) - 1; i >= 0; i-- {
		d := t.shape[i]
		if d != 1 && t.strides[i] != es*vol {
			return false
		}
		vol *= d // within int64: the constructors checked the volume
	}
	if vol == 0 {
		return false
	}
	p := uint64(1)
	for _, d := range dims {
		hi, lo := bits.Mul64(p, uint64(d))
		if d <= 0 || hi != 0 || lo > uint64(vol) {
			return false
		}
		p = lo
	}
	if p != uint64(vol) {
		return false
	}
	n := len(dims)
	shp, strides := dst.shape, dst.strides
	if cap(shp) < n || cap(strides) < n || overlapsInts(shp, t.shape) || overlapsInts(shp, t.strides) ||
		overlapsInts(strides, t.shape) || overlapsInts(strides, t.strides) || overlapsInts(shp, strides) {
		meta := make([]int64, 2*n) // the result's shape and strides, in one allocation
		shp, strides = meta[:n:n], meta[n:]
	}
	shp, strides = shp[:n], strides[:n]
	if overlapsInts(dims, shp) || overlapsInts(dims, strides) {
		copy(shp, dims)
		dims = shp
	}
	acc := es
	for i := n - 1; i >= 0; i-- {
		d := dims[i]
		shp[i] = d
		strides[i] = acc
		acc *= d
	}
	dst.typ = t.typ
	dst.shape = shp
	dst.strides = strides
	dst.offset = t.offset
	dst.data = t.data
	return true
}

// overlapsInts is overlaps for two []int64.
func overlapsInts(a, b []int64) bool {
	if cap(a) == 0 || cap(b) == 0 {
		return false
	}
	pa, pb := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return pa < pb+uintptr(cap(b))*8 && pb < pa+uintptr(cap(a))*8
}

// into sets *dst to t in the shape dims (of t's volume, and owned by dst), with the strides written
// into strides: a view when the layout allows, else a dense copy into dst's data when it is large
// enough and does not overlap t's.
func (t *Tensor) into(dst *Tensor, dims, strides []int64) Method {
	m := t.view(dst, dims, strides)
	if m.View {
		return m
	}
	size := t.ByteSize()
	buf := dst.data
	if int64(cap(buf)) < size || overlaps(buf, t.data) {
		buf = make([]byte, size)
	}
	buf = buf[:size]
	copyDense(buf, *t)
	shape.FillStrides(strides, dims, t.elemSize())
	*dst = Tensor{typ: t.typ, shape: dims, strides: strides, data: buf}
	return m
}

// overlaps reports whether the memory of a and b, up to their capacities, overlaps.
func overlaps[T, U any](a []T, b []U) bool {
	if cap(a) == 0 || cap(b) == 0 {
		return false
	}
	var x T
	var y U
	pa, pb := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return pa < pb+uintptr(cap(b))*unsafe.Sizeof(y) && pb < pa+uintptr(cap(a))*unsafe.Sizeof(x)
}

// View returns t with the shape dims, of the same volume, sharing t's memory, when the layout
// allows it (see Views in the package documentation); when only a copy can give that shape, v is
// the zero Tensor, m.View is false and m.Reason says why. Errors wrap errcode.ErrVolumeMismatch
// when the volumes differ.
func (t Tensor) View(dims ...int64) (v Tensor, m Method, err error) {
	if err := t.checkVolume(dims); err != nil {
		return Tensor{}, m, err
	}
	m = t.view(&v, dims, make([]int64, len(dims)))
	return v, m, nil
}

// checkVolume returns an error wrapping errcode.ErrVolumeMismatch when dims do not hold t's elements,
// or shape's errors for invalid dims.
func (t Tensor) checkVolume(dims []int64) error {
	n, err := shape.Volume(dims)
	if err != nil {
		return err
	}
	if n != t.Len() {
		return errcode.Errorf(errcode.ErrVolumeMismatch, "shape %s has volume %d, the tensor %s has %d", shape.FormatInts(dims), n, shape.FormatInts(t.shape), t.Len())
	}
	return nil
}

// view sets *v to t in the shape dims (of the same volume) when the layout allows, writing the
// strides into strides.
func (t *Tensor) view(v *Tensor, dims, strides []int64) Method {
	if t.typ.IsPacked() {
		*v = Tensor{typ: t.typ, shape: dims, offset: t.offset, data: t.data}
		return viewBy(rulePacked)
	}
	m := viewStrides(strides, t.shape, t.strides, dims, t.elemSize())
	if m.View {
		*v = Tensor{typ: t.typ, shape: dims, strides: strides, offset: t.offset, data: t.data}
	}
	return m
}

// viewStrides computes into out the strides that show the elements of a view (dims, strides) in the
// shape newDims, of the same volume, without moving them, as numpy's reshape does: the two shapes
// split into the shortest groups of axes of equal product, and each group of old axes must be
// contiguous within itself (axes of size 1 play no part). The Method says whether it could, and why.
func viewStrides(out, dims, strides, newDims []int64, es int64) Method {
	if mustVolume(dims) == 0 {
		shape.FillStrides(out, newDims, es)
		return viewBy(ruleEmpty)
	}
	dense, want := true, es // whether the input is dense row-major, and the stride that would be
	oi, ni := 0, 0
	for {
		for oi < len(dims) && dims[oi] == 1 {
			oi++
		}
		if oi == len(dims) {
			break
		}
		o0, n0 := oi, ni
		op, np := dims[oi], int64(1)
		oi++
		for np != op {
			switch {
			case np < op && ni < len(newDims):
				np *= newDims[ni]
				ni++
			case np > op && oi < len(dims):
				op *= dims[oi]
				oi++
			default:
				panic("tensor: viewStrides on shapes of different volumes")
			}
		}
		last := -1 // the group's last old axis of size above 1
		for k := o0; k < oi; k++ {
			if dims[k] == 1 {
				continue
			}
			if last >= 0 && strides[last] != dims[k]*strides[k] {
				return notContiguous(o0, oi-1, n0, ni-1, last, k, strides[last], dims[k]*strides[k])
			}
			last = k
		}
		out[ni-1] = strides[last]
		for k := ni - 1; k > n0; k-- {
			out[k-1] = out[k] * newDims[k]
		}
	}
	// Trailing new axes of size 1.
	for k := ni; k < len(newDims); k++ {
		out[k] = es
	}
	for i := len(dims) - 1; i >= 0 && dense; i-- {
		if dims[i] != 1 {
			dense = strides[i] == want
			want *= dims[i]
		}
	}
	if dense {
		return viewBy(ruleDense)
	}
	return viewBy(ruleGroups)
}
