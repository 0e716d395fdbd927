package graph

import (
	"math"
	"slices"

	"github.com/reshape-go/reshape/sym"
)

// The kernels of the slices of ONNX (Slice) and OpenVINO (StridedSlice, Slice): what one axis
// keeps, and the values of what the slices take.

// sliceAxis returns the first index and the number of elements ONNX's Slice takes from an axis of
// size d: start and end count from the end when negative; start is clamped to [0, d] for a
// positive step and [0, d-1] for a negative one, end to [0, d] and [-1, d-1]; the count is
// ceil((end-start)/step), at least 0. start and end may be expressions in the symbols (the end of
// Whisper's position table, x.shape[1]) whose sign their bounds tell; ok is false when they do not
// (the count is then unknown, at most d). A reversal of the whole axis (a negative step from the
// last element, -1 or past it, to before the first) takes ceil(d/-step) elements from d-1, without
// the clamps that would hide it in min and max. A start or end of 2^62 or more is past any size
// (no axis holds 2^62 elements), clamped to the axis as INT64_MAX is: min(W-1, 2^62) is W-1.
func sliceAxis(d, start, end sym.Dim, step int64) (first, n sym.Dim, ok bool) {
	if step < 0 && step != math.MinInt64 && fromLast(start, d) && beforeFirst(end, d) {
		return sym.SubDims(d, sym.Const(1)), sym.CeilDivDims(d, sym.Const(-step)), true
	}
	norm := func(x, lo, hi sym.Dim) (sym.Dim, bool) {
		v := x
		switch xlo, xhi := x.Bounds(); {
		case x.Equal(sym.Const(math.MaxInt64)) || x.Equal(sym.Const(math.MinInt64)):
		case xlo >= 1<<62: // past any size, as fromLast has it: the clamp to hi
			v = sym.Const(math.MaxInt64)
		case xhi <= -1<<62:
			v = sym.Const(math.MinInt64)
		case xhi < 0:
			v = sym.AddDims(x, d)
		case xlo < 0:
			// Either sign: x counts from the end when negative, x+d*[x<0], and [x<0] is
			// min(1, max(0, -x)) for an integer x.
			if _, ok := x.Expr(); !ok {
				return sym.Dim{}, false
			}
			neg := sym.MinDims(sym.Const(1), sym.MaxDims(sym.Const(0), sym.SubDims(sym.Const(0), x)))
			v = sym.AddDims(x, sym.MulDims(d, neg))
		}
		return sym.MinDims(sym.MaxDims(v, lo), hi), true
	}
	var s, e sym.Dim
	var ok1, ok2 bool
	if step > 0 {
		s, ok1 = norm(start, sym.Const(0), d)
		e, ok2 = norm(end, sym.Const(0), d)
	} else {
		dm1 := sym.SubDims(d, sym.Const(1))
		s, ok1 = norm(start, sym.Const(0), dm1)
		e, ok2 = norm(end, sym.Const(-1), dm1)
	}
	if !ok1 || !ok2 {
		return sym.Unknown(), upTo(d), false
	}
	n = sym.MaxDims(sym.CeilDivDims(sym.SubDims(e, s), sym.Const(step)), sym.Const(0))
	if nn, ok := n.NonNegative(); ok {
		n = nn
	}
	return s, n, true
}

// fromLast reports whether a slice's start is at the last element of an axis of size d or past it:
// -1, at least d-1, or past any size (2^62 and more, as exporters write "to the end").
func fromLast(start, d sym.Dim) bool {
	lo, hi := start.Bounds()
	_, dhi := d.Bounds()
	return lo == -1 && hi == -1 || lo >= 1<<62 || dhi != sym.Inf && lo >= dhi-1
}

// beforeFirst reports whether a slice's end is before the first element of an axis of size d: at
// most -d-1, or before any size (-2^62 and less: torch's flip exports -2^63+1).
func beforeFirst(end, d sym.Dim) bool {
	_, hi := end.Bounds()
	_, dhi := d.Bounds()
	return hi <= -1<<62 || dhi != sym.Inf && hi <= -dhi-1
}

// upTo returns the dim of the values [0, hi of d]: a part of d of unknown size.
func upTo(d sym.Dim) sym.Dim {
	_, hi := d.Bounds()
	return sym.Interval(0, hi)
}

// A cut selects, on one input axis, n elements from first by step (a slice of ONNX or OpenVINO);
// a nil *cut takes the whole axis.
type cut struct{ first, step, n sym.Dim }

// cutValues sets the values of out to those of in that the cuts take (one per axis of in), in
// row-major order, when in's are known and the cuts static.
func cutValues(out, in *Info, cuts []*cut) {
	sd, v, ok := values(in)
	if !ok {
		return
	}
	first, step, n := make([]int64, len(sd)), make([]int64, len(sd)), slices.Clone(sd)
	for i, cu := range cuts {
		step[i] = 1
		if cu != nil {
			var ok1, ok2, ok3 bool
			first[i], ok1 = cu.first.Static()
			step[i], ok2 = cu.step.Static()
			n[i], ok3 = cu.n.Static()
			if !ok1 || !ok2 || !ok3 {
				return
			}
		}
	}
	setValue(out, remap(sd, n, v, sym.Dim{}, func(k int, x int64) int64 { return first[k] + x*step[k] }))
}
