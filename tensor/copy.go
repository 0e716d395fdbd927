package tensor

import (
	"runtime"
	"sync"
	"unsafe"
)

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

// parallelMin is the copy size from which copies use every core.
const parallelMin = 4 << 20

// tileBytes is the width of a copy tile in bytes: a tile of tileBytes/es × tileBytes/es elements
// keeps both its source and destination lines in the L1 cache while it is transposed.
const tileBytes = 64

// plan is a strided copy into a dense row-major destination, reduced to an odometer over outer axes
// and a two-dimensional block per outer index: rows along the source's most contiguous axis, and
// columns along the last axis (the destination's contiguous one). When the last axis is contiguous in
// the source too, a block row is one contiguous run, copied with memmove.
type plan struct {
	es             int64
	outer          []int64 // dims of the outer axes
	souter, douter []int64 // their source and destination strides
	rows, cols     int64
	sr, sc         int64 // source strides of rows and columns
	dr             int64 // destination stride of rows (columns are dense: es)
	tile           int64 // rows per work item, and columns per tile
	run            bool  // the source is contiguous along the columns
}

func newPlan(t Tensor) *plan {
	es := t.elemSize()
	d, s := simplify(t.shape, t.strides)
	p := &plan{es: es, rows: 1, cols: 1, sc: es, tile: max(1, tileBytes/es)}
	if len(d) == 0 {
		p.run = true
		return p
	}
	n := len(d)
	dense := make([]int64, n)
	acc := es
	for i := n - 1; i >= 0; i-- {
		dense[i] = acc
		acc *= d[i]
	}
	p.cols, p.sc = d[n-1], s[n-1]
	p.run = s[n-1] == es
	rowAxis := -1
	if !p.run {
		// The row axis: the source's most contiguous axis, when it beats the columns.
		best := abs(s[n-1])
		for k := range n - 1 {
			if abs(s[k]) < best {
				rowAxis, best = k, abs(s[k])
			}
		}
	}
	if rowAxis >= 0 {
		p.rows, p.sr, p.dr = d[rowAxis], s[rowAxis], dense[rowAxis]
	}
	for k := range n - 1 {
		if k != rowAxis {
			p.outer = append(p.outer, d[k])
			p.souter = append(p.souter, s[k])
			p.douter = append(p.douter, dense[k])
		}
	}
	return p
}

// items returns the number of work items: one per outer index and stripe of tile rows.
func (p *plan) items() int64 {
	n := (p.rows + p.tile - 1) / p.tile
	for _, d := range p.outer {
		n *= d
	}
	return n
}

// copy performs the work items [lo, hi) from src (starting at byte offset off) into dst.
func (p *plan) copy(dst, src unsafe.Pointer, lo, hi int64) {
	stripes := (p.rows + p.tile - 1) / p.tile
	// Decompose lo into the outer index, then advance it odometer style.
	o, stripe := lo/stripes, lo%stripes
	idx := make([]int64, len(p.outer))
	var soff, doff int64
	for k := len(p.outer) - 1; k >= 0; k-- {
		idx[k] = o % p.outer[k]
		o /= p.outer[k]
		soff += idx[k] * p.souter[k]
		doff += idx[k] * p.douter[k]
	}
	for item := lo; item < hi; item++ {
		r0 := stripe * p.tile
		r1 := min(r0+p.tile, p.rows)
		if p.run {
			n := p.cols * p.es
			for r := r0; r < r1; r++ {
				s, d := unsafe.Add(src, soff+r*p.sr), unsafe.Add(dst, doff+r*p.dr)
				copy(unsafe.Slice((*byte)(d), n), unsafe.Slice((*byte)(s), n))
			}
		} else {
			for c0 := int64(0); c0 < p.cols; c0 += p.tile {
				s := unsafe.Add(src, soff+r0*p.sr+c0*p.sc)
				d := unsafe.Add(dst, doff+r0*p.dr+c0*p.es)
				block(d, s, r1-r0, min(p.tile, p.cols-c0), p.sr, p.sc, p.dr, p.es)
			}
		}
		if stripe++; stripe < stripes {
			continue
		}
		stripe = 0
		for k := len(p.outer) - 1; k >= 0; k-- {
			idx[k]++
			soff += p.souter[k]
			doff += p.douter[k]
			if idx[k] < p.outer[k] {
				break
			}
			soff -= idx[k] * p.souter[k]
			doff -= idx[k] * p.douter[k]
			idx[k] = 0
		}
	}
}

// block copies rows × cols elements of size es: element (r, c) from src + r·sr + c·sc to
// dst + r·dr + c·es.
func block(dst, src unsafe.Pointer, rows, cols, sr, sc, dr, es int64) {
	for r := range rows {
		s, d := unsafe.Add(src, r*sr), unsafe.Add(dst, r*dr)
		switch es {
		case 1:
			for c := range cols {
				*(*uint8)(unsafe.Add(d, c)) = *(*uint8)(unsafe.Add(s, c*sc))
			}
		case 2:
			for c := range cols {
				*(*uint16)(unsafe.Add(d, 2*c)) = *(*uint16)(unsafe.Add(s, c*sc))
			}
		case 4:
			for c := range cols {
				*(*uint32)(unsafe.Add(d, 4*c)) = *(*uint32)(unsafe.Add(s, c*sc))
			}
		case 8:
			for c := range cols {
				*(*uint64)(unsafe.Add(d, 8*c)) = *(*uint64)(unsafe.Add(s, c*sc))
			}
		}
	}
}

// copyDense writes the elements of src, in logical row-major order, dense, to dst, which holds
// exactly src.ByteSize() bytes. Large copies use every core.
func copyDense(dst []byte, src Tensor) {
	if len(dst) == 0 {
		return
	}
	if src.typ.IsPacked() {
		copy(dst, src.data[src.offset:])
		return
	}
	p := newPlan(src)
	d := unsafe.Pointer(unsafe.SliceData(dst))
	// The view's extent lies within src.data (checked when it was made), so every address the plan
	// forms from this base stays inside the allocation.
	s := unsafe.Add(unsafe.Pointer(unsafe.SliceData(src.data)), src.offset)
	items := p.items()
	workers := int64(runtime.GOMAXPROCS(0))
	if int64(len(dst)) < parallelMin || workers < 2 || items < 2 {
		p.copy(d, s, 0, items)
		return
	}
	workers = min(workers, items)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := items*w/workers, items*(w+1)/workers
		wg.Go(func() { p.copy(d, s, lo, hi) })
	}
	wg.Wait()
}
