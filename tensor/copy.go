package tensor

import "encoding/binary"

// simplify reduces a strided traversal to its essentials: axes of size 1 dropped, and adjacent axes
// that are contiguous with each other (stride[k] == dim[k+1]·stride[k+1]) merged into one.
// The element order of the traversal is unchanged.
func simplify(dims, strides []int64) (d, s []int64) {
	for i := range dims {
		if dims[i] == 1 {
			continue
		}
		if n := len(d); n > 0 && s[n-1] == dims[i]*strides[i] {
			d[n-1] *= dims[i]
			s[n-1] = strides[i]
			continue
		}
		d = append(d, dims[i])
		s = append(s, strides[i])
	}
	return d, s
}

// copyDense writes the elements of src, in logical row-major order, dense, to dst, which holds
// exactly src.ByteSize() bytes.
func copyDense(dst []byte, src Tensor) {
	if len(dst) == 0 {
		return
	}
	if src.typ.IsPacked() {
		copy(dst, src.data[src.offset:])
		return
	}
	es := src.elemSize()
	dims, strides := simplify(src.shape, src.strides)
	if len(dims) == 0 {
		copy(dst, src.data[src.offset:src.offset+es])
		return
	}
	n := len(dims)
	inner, istride := dims[n-1], strides[n-1]
	outer, ostrides := dims[:n-1], strides[:n-1]
	idx := make([]int64, len(outer))
	off, pos := src.offset, int64(0)
	row := inner * es
	for {
		if istride == es {
			copy(dst[pos:pos+row], src.data[off:off+row])
		} else {
			gather(dst[pos:pos+row], src.data, off, istride, inner, es)
		}
		pos += row
		// Advance the outer index, odometer style.
		k := len(outer) - 1
		for ; k >= 0; k-- {
			idx[k]++
			off += ostrides[k]
			if idx[k] < outer[k] {
				break
			}
			off -= idx[k] * ostrides[k]
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// gather copies n elements of size es, stride bytes apart in src from offset off, densely to dst.
func gather(dst, src []byte, off, stride, n, es int64) {
	switch es {
	case 1:
		for i := range n {
			dst[i] = src[off+i*stride]
		}
	case 2:
		for i := range n {
			binary.LittleEndian.PutUint16(dst[2*i:], binary.LittleEndian.Uint16(src[off+i*stride:]))
		}
	case 4:
		for i := range n {
			binary.LittleEndian.PutUint32(dst[4*i:], binary.LittleEndian.Uint32(src[off+i*stride:]))
		}
	case 8:
		for i := range n {
			binary.LittleEndian.PutUint64(dst[8*i:], binary.LittleEndian.Uint64(src[off+i*stride:]))
		}
	default:
		for i := range n {
			copy(dst[i*es:(i+1)*es], src[off+i*stride:])
		}
	}
}
