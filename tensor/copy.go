package tensor

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/reshape-go/reshape/shape"
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

// streamMin is the copy size from which the transposing kernels store around the cache
// (non-temporal stores): a destination this large would push the source out of the caches anyway,
// and a smaller one is better left in them for whoever reads it next.
const streamMin = 8 << 20

// blockBytes bounds the two sides of a transposing block in bytes: a block of blockBytes/es rows
// by blockBytes/es columns touches few enough pages (on both sides) to stay in the TLB, and its
// lines stay in the L2 cache while it is moved.
const blockBytes = 1024

// plan is a strided copy into a dense row-major destination, reduced to an odometer over outer axes
// and a two-dimensional block per outer index: rows along the source's most contiguous axis, and
// columns along the last axis (the destination's contiguous one). When the last axis is contiguous in
// the source too, a row is one contiguous run, copied with memmove. The work is split in items of
// rowsPer × colsPer elements of one outer index.
type plan struct {
	es               int64
	outer            []int64 // dims of the outer axes
	souter, douter   []int64 // their source and destination strides
	rows, cols       int64
	sr, sc           int64 // source strides of rows and columns
	dr               int64 // destination stride of rows (columns are dense: es)
	run              bool  // the source is contiguous along the columns
	nt               bool  // the copy is large enough to store around the cache
	rowsPer, colsPer int64 // the size of a work item
}

func newPlan(t Tensor) *plan {
	es := t.elemSize()
	d, s := simplify(t.shape, t.strides)
	p := &plan{es: es, rows: 1, cols: 1, sc: es, rowsPer: 1, colsPer: 1}
	if len(d) == 0 {
		p.run = true
		return p
	}
	n := len(d)
	dense := make([]int64, n)
	shape.FillStrides(dense, d, es)
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
	if p.run {
		p.colsPer = p.cols
	} else {
		p.rowsPer, p.colsPer = min(p.rows, blockBytes/es), min(p.cols, blockBytes/es)
	}
	return p
}

// items returns the number of work items.
func (p *plan) items() int64 {
	n := ceilDiv(p.rows, p.rowsPer) * ceilDiv(p.cols, p.colsPer)
	for _, d := range p.outer {
		n *= d
	}
	return n
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// copy performs the work items [lo, hi) from src into dst.
func (p *plan) copy(dst, src unsafe.Pointer, lo, hi int64) {
	rb, cb := ceilDiv(p.rows, p.rowsPer), ceilDiv(p.cols, p.colsPer)
	per := rb * cb
	// Decompose lo into the outer index, then advance it odometer style.
	o, b := lo/per, lo%per
	idx := make([]int64, len(p.outer))
	var soff, doff int64
	for k := len(p.outer) - 1; k >= 0; k-- {
		idx[k] = o % p.outer[k]
		o /= p.outer[k]
		soff += idx[k] * p.souter[k]
		doff += idx[k] * p.douter[k]
	}
	for item := lo; item < hi; item++ {
		r0, c0 := (b/cb)*p.rowsPer, (b%cb)*p.colsPer
		r1, c1 := min(r0+p.rowsPer, p.rows), min(c0+p.colsPer, p.cols)
		s := unsafe.Add(src, soff+r0*p.sr+c0*p.sc)
		d := unsafe.Add(dst, doff+r0*p.dr+c0*p.es)
		if p.run {
			n := (c1 - c0) * p.es
			for r := range r1 - r0 {
				copy(unsafe.Slice((*byte)(unsafe.Add(d, r*p.dr)), n), unsafe.Slice((*byte)(unsafe.Add(s, r*p.sr)), n))
			}
		} else {
			block(kernels, d, s, r1-r0, c1-c0, p.sr, p.sc, p.dr, p.es, p.nt)
		}
		if b++; b < per {
			continue
		}
		b = 0
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

// panelRows is the number of destination rows the portable transposing kernel writes at a time.
const panelRows = 16

// block copies rows × cols elements of size es: element (r, c) from src + r·sr + c·sc to
// dst + r·dr + c·es. When the source is contiguous along the rows (a transpose), the part that
// whole panels cover goes to the CPU's kernels when it has them (nt: they may store around the
// cache), and the rest to the portable transposeBlock. k is the set of kernels, or nil.
func block(k *kernelSet, dst, src unsafe.Pointer, rows, cols, sr, sc, dr, es int64, nt bool) {
	if sr != es || !littleEndian {
		scalarBlock(dst, src, rows, cols, sr, sc, dr, es)
		return
	}
	var rm, cm int64
	if k != nil {
		rm, cm = k.block(dst, src, rows, cols, sc, dr, es, nt)
	}
	if rm == 0 {
		transposeBlock(dst, src, rows, cols, sc, dr, es)
		return
	}
	// The remainders, when there are any: forming their addresses otherwise could point past the end.
	if cols > cm {
		transposeBlock(unsafe.Add(dst, cm*es), unsafe.Add(src, cm*sc), rm, cols-cm, sc, dr, es)
	}
	if rows > rm {
		transposeBlock(unsafe.Add(dst, rm*dr), unsafe.Add(src, rm*es), rows-rm, cols, sc, dr, es)
	}
}

// transposeBlock copies rows × cols elements of size es whose source is contiguous along the rows:
// element (r, c) from src + r·es + c·sc to dst + r·dr + c·es. It writes panelRows destination rows
// at a time while it walks across the columns, so that the destination is written as that many
// sequential streams and each source line it reaches serves the whole panel. It moves machine
// words: 8×8 bytes, 4×4 16-bit or 2×2 32-bit elements transposed in registers, 64-bit elements
// one at a time.
func transposeBlock(dst, src unsafe.Pointer, rows, cols, sc, dr, es int64) {
	m := 8 / es // the micro-block is m × m elements
	rm, cm := rows-rows%m, cols-cols%m
	for r0 := int64(0); r0 < rm; r0 += panelRows {
		r1 := min(r0+panelRows, rm)
		for c := int64(0); c < cm; c += m {
			for r := r0; r < r1; r += m {
				d, s := unsafe.Add(dst, r*dr+c*es), unsafe.Add(src, r*es+c*sc)
				switch es {
				case 1:
					transpose8x8(d, s, sc, dr)
				case 2:
					transpose4x4(d, s, sc, dr)
				case 4:
					transpose2x2(d, s, sc, dr)
				case 8:
					*(*uint64)(d) = *(*uint64)(s)
				}
			}
		}
	}
	// The remainders, when there are any: forming their addresses otherwise could point past the end.
	if rows > rm {
		scalarBlock(unsafe.Add(dst, rm*dr), unsafe.Add(src, rm*es), rows-rm, cols, es, sc, dr, es)
	}
	if cols > cm && rm > 0 {
		scalarBlock(unsafe.Add(dst, cm*es), unsafe.Add(src, cm*sc), rm, cols-cm, es, sc, dr, es)
	}
}

func scalarBlock(dst, src unsafe.Pointer, rows, cols, sr, sc, dr, es int64) {
	if rows == 0 || cols == 0 {
		return
	}
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

// swap exchanges the bits of a selected by mask<<shift with those of b selected by mask: one round
// of a transpose in registers.
func swap(a, b, mask uint64, shift uint) (uint64, uint64) {
	t := (a>>shift ^ b) & mask
	return a ^ t<<shift, b ^ t
}

// load returns the 64-bit little-endian word at p + off.
func load(p unsafe.Pointer, off int64) uint64 { return *(*uint64)(unsafe.Add(p, off)) }

func store(p unsafe.Pointer, off int64, v uint64) { *(*uint64)(unsafe.Add(p, off)) = v }

// transpose8x8 moves an 8×8 block of bytes: word j of the source (8 bytes from s + j·sc) holds
// column j, and word i of the destination (at d + i·dr) gets row i.
func transpose8x8(d, s unsafe.Pointer, sc, dr int64) {
	w0, w1, w2, w3 := load(s, 0), load(s, sc), load(s, 2*sc), load(s, 3*sc)
	w4, w5, w6, w7 := load(s, 4*sc), load(s, 5*sc), load(s, 6*sc), load(s, 7*sc)
	const m32, m16, m8 = 0x00000000FFFFFFFF, 0x0000FFFF0000FFFF, 0x00FF00FF00FF00FF
	w0, w4 = swap(w0, w4, m32, 32)
	w1, w5 = swap(w1, w5, m32, 32)
	w2, w6 = swap(w2, w6, m32, 32)
	w3, w7 = swap(w3, w7, m32, 32)
	w0, w2 = swap(w0, w2, m16, 16)
	w1, w3 = swap(w1, w3, m16, 16)
	w4, w6 = swap(w4, w6, m16, 16)
	w5, w7 = swap(w5, w7, m16, 16)
	w0, w1 = swap(w0, w1, m8, 8)
	w2, w3 = swap(w2, w3, m8, 8)
	w4, w5 = swap(w4, w5, m8, 8)
	w6, w7 = swap(w6, w7, m8, 8)
	store(d, 0, w0)
	store(d, dr, w1)
	store(d, 2*dr, w2)
	store(d, 3*dr, w3)
	store(d, 4*dr, w4)
	store(d, 5*dr, w5)
	store(d, 6*dr, w6)
	store(d, 7*dr, w7)
}

// transpose4x4 is transpose8x8 for 16-bit elements.
func transpose4x4(d, s unsafe.Pointer, sc, dr int64) {
	w0, w1, w2, w3 := load(s, 0), load(s, sc), load(s, 2*sc), load(s, 3*sc)
	const m32, m16 = 0x00000000FFFFFFFF, 0x0000FFFF0000FFFF
	w0, w2 = swap(w0, w2, m32, 32)
	w1, w3 = swap(w1, w3, m32, 32)
	w0, w1 = swap(w0, w1, m16, 16)
	w2, w3 = swap(w2, w3, m16, 16)
	store(d, 0, w0)
	store(d, dr, w1)
	store(d, 2*dr, w2)
	store(d, 3*dr, w3)
}

// transpose2x2 is transpose8x8 for 32-bit elements.
func transpose2x2(d, s unsafe.Pointer, sc, dr int64) {
	w0, w1 := load(s, 0), load(s, sc)
	w0, w1 = swap(w0, w1, 0x00000000FFFFFFFF, 32)
	store(d, 0, w0)
	store(d, dr, w1)
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
	p.nt = int64(len(dst)) >= streamMin
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
