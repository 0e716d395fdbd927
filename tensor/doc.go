// Package tensor holds n-dimensional arrays of any OpenVINO element type as strided views of bytes,
// and gives them a new shape: a view that shares memory when the layout allows, one copy otherwise.
// (reshape.Apply infers that shape from a pattern by the Reshape rules, then calls ReshapedTo.)
//
// A Tensor is an element type, a shape (in elements), strides (in bytes, one per axis, possibly
// negative), a byte offset, and the backing bytes, little-endian. Its elements are in logical
// row-major (C) order whatever the strides: index (i0, i1, ...) lives at byte
// offset + Σ ik·strides[k]. Sub-byte types (u1, u4, i4, nf4) are always dense and packed as OpenVINO
// packs them (u4, i4, nf4 low nibble first; u1 most significant bit first).
//
// Tensors are values: views share the backing bytes with the tensor they come from, so writing
// through one is seen through the other. A Tensor is safe for concurrent reads.
//
// # Views
//
// [Tensor.ReshapedTo] and [Tensor.View] give a new shape without a copy when the layout allows it,
// by the rule numpy's reshape applies: a strided tensor can be reshaped without copying if and
// only if every group of input axes merged into one output axis is contiguous within itself, that
// is, for adjacent axes k, k+1 of a group, strides[k] == dims[k+1]·strides[k+1]. Axes of size 1 are
// ignored, so splitting an axis, and adding or removing axes of size 1, is always a view; so is any
// shape of a tensor without elements. Otherwise ReshapedTo copies once into a dense row-major
// buffer, and the element order is the same either way. The [Method] it returns says which, and
// why. (The oneDNN Graph specifications of StaticReshape-1 and DynamicReshape-1 leave open whether
// a reshape returns a view or a copy; this package always takes the view when the rule allows it.)
package tensor
