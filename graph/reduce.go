package graph

import "github.com/reshape-go/reshape/sym"

// The kernel of the reductions of ONNX and OpenVINO: the values of a reduction along some axes.

// reduceValues reduces the values v of a tensor of static shape dims along the reduced axes with
// f; nil when an output element reduces no element and empty is false, unit otherwise.
func reduceValues(dims []int64, v []sym.Dim, reduced []bool, f func(a, b sym.Dim) sym.Dim, empty bool, unit sym.Dim) []sym.Dim {
	r := len(dims)
	outStride := make([]int64, r) // the stride in the output of each input axis, 0 when reduced
	size := int64(1)
	for d := r - 1; d >= 0; d-- {
		if !reduced[d] {
			outStride[d] = size
			size *= dims[d]
		}
	}
	if len(v) == 0 {
		if !empty || size > MaxValue {
			return nil
		}
		out := make([]sym.Dim, size)
		for i := range out {
			out[i] = unit
		}
		return out
	}
	acc := make([]sym.Dim, size)
	set := make([]bool, size)
	coord := make([]int64, r)
	for _, e := range v {
		at := int64(0)
		for d, x := range coord {
			at += x * outStride[d]
		}
		if set[at] {
			acc[at] = f(acc[at], e)
		} else {
			acc[at], set[at] = e, true
		}
		nextCoord(coord, dims)
	}
	return acc
}

// reducedDims returns dims with the axes reduced marks reduced: each becomes 1 with keep, and is
// left out without, as ReduceSum and its kin give their outputs. It appends to out.
func reducedDims(out, dims []sym.Dim, reduced []bool, keep bool) []sym.Dim {
	for i, d := range dims {
		switch {
		case !reduced[i]:
			out = append(out, d)
		case keep:
			out = append(out, sym.Const(1))
		}
	}
	return out
}
