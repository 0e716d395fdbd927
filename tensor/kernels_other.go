//go:build !amd64 || purego

package tensor

// kernelSets is empty: on this platform the portable transposeBlock does all the work.
var kernelSets []*kernelSet
