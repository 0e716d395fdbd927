package tensor

import "unsafe"

//go:generate go run -C _asm . -out ../transpose_amd64.s -stubs ../transpose_amd64_stubs.go -pkg tensor

// kernelSet is one instruction set's transposing kernels. panel[es], for elements of es bytes,
// moves one panel of 64·kernelLines/es rows (kernelLines cache lines of each source column) by
// cols columns, a multiple of 64/es: element (r, c) from src + r·es + c·sc to dst + r·dr + c·es.
// With nt it stores around the cache, which needs dst and dr to be multiples of align.
type kernelSet struct {
	name  string
	align int64
	panel [9]func(dst, src *byte, cols, sc, dr int64, nt bool)
}

// kernelLines is the number of cache lines of each source column a kernel's panel reads
// (panelLines in tensor/_asm, which generates the kernels).
const kernelLines = 1

// kernels are the transposing kernels copies use: the best set this CPU runs, or nil, and then
// the portable transposeBlock does all the work.
var kernels = func() *kernelSet {
	if len(kernelSets) == 0 {
		return nil
	}
	return kernelSets[0]
}()

// block moves, of a block as the portable transposeBlock takes it, the rm × cm elements that whole
// panels cover, and returns rm and cm (0, 0 when it moves nothing).
func (k *kernelSet) block(dst, src unsafe.Pointer, rows, cols, sc, dr, es int64, nt bool) (rm, cm int64) {
	f := k.panel[es]
	n := 64 * kernelLines / es // rows of a panel
	rm, cm = rows-rows%n, cols-cols%(64/es)
	if f == nil || rm == 0 || cm == 0 {
		return 0, 0
	}
	for r := int64(0); r < rm; r += n {
		d := unsafe.Add(dst, r*dr)
		aligned := (uintptr(d)|uintptr(dr))%uintptr(k.align) == 0
		f((*byte)(d), (*byte)(unsafe.Add(src, r*es)), cm, sc, dr, nt && aligned)
	}
	return rm, cm
}
