//go:build amd64 && !purego

package tensor

import "golang.org/x/sys/cpu"

// kernelSets are the transposing kernels of transpose_amd64.s this CPU runs, best first.
var kernelSets = func() []*kernelSet {
	var sets []*kernelSet
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW {
		sets = append(sets, &kernelSet{name: "avx512", align: 64, panel: [9]func(dst, src *byte, cols, sc, dr int64, nt bool){
			1: transpose1AVX512, 2: transpose2AVX512, 4: transpose4AVX512, 8: transpose8AVX512}})
	}
	if cpu.X86.HasAVX2 {
		sets = append(sets, &kernelSet{name: "avx2", align: 32, panel: [9]func(dst, src *byte, cols, sc, dr int64, nt bool){
			1: transpose1AVX2, 2: transpose2AVX2, 4: transpose4AVX2, 8: transpose8AVX2}})
	}
	return sets
}()
