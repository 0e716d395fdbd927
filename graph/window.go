package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// The sliding window of convolutions and pooling, ONNX's and OpenVINO's: its geometry, and the
// size of each spatial axis of the output.

// window is the geometry of a sliding window over n spatial axes, as the attributes of a Conv,
// ConvTranspose or pooling node give it.
type window struct {
	autoPad   string    // NOTSET, SAME_UPPER, SAME_LOWER or VALID
	kernel    []sym.Dim // the kernel's size along each spatial axis
	strides   []int64
	dilations []int64
	pads      []int64 // the n begins, then the n ends
	ceil      bool    // ceil_mode: the last window may pass the end of the padded input
	pool      bool    // a pooling operator: see poolCeil and poolSameDilated
}

// windowInts reads the integer list attribute name of n values, each at least least; n values def
// stand for a list the node does not give.
func windowInts(c *ctx, name string, n int, least, def int64) ([]int64, error) {
	v, ok, err := c.Ints(name)
	if err != nil {
		return nil, err
	}
	if !ok || len(v) == 0 {
		return filled(n, def), nil
	}
	if len(v) != n {
		return nil, c.Errorf(errcode.ErrInvalidShape, "%s %v has %d values, want %d for the input's spatial axes", name, v, len(v), n)
	}
	for i, x := range v {
		if x < least {
			return nil, c.Errorf(errcode.ErrInvalidShape, "%s[%d] = %d: less than %d", name, i, x, least)
		}
	}
	return v, nil
}

// filled returns n values v.
func filled(n int, v int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// effKernel returns the extent of the dilated kernel along spatial axis i: dilation*(k-1)+1.
func (w *window) effKernel(i int) sym.Dim {
	return sym.AddDims(sym.MulDims(sym.Const(w.dilations[i]), sym.SubDims(w.kernel[i], sym.Const(1))), sym.Const(1))
}

// out returns the size of spatial axis i of a Conv or pooling output whose input has size in
// there (ONNX Conv-11 and MaxPool-12 "output_spatial_shape"):
//
//	NOTSET  floor((in + pad_begin + pad_end - dilation*(k-1) - 1) / stride) + 1
//	VALID   the same with no padding
//	SAME_*  ceil(in / stride)
//
// ceil_mode rounds the division up instead; see poolCeil for what runtimes make of it. A size
// below 1 is an error wrapping errcode.ErrInvalidShape that names the axis, and one that only a
// binding of the symbols decides is required to be at least 1 (in >= k for a window of k), except
// for ONNX's pooling operators: onnxruntime computes their size as trunc(num/stride + 1) (or its
// ceiling in ceil_mode) of num = in + pads - dilation*(k-1) - 1, and makes a size of 0 an empty
// output; it refuses a negative one, so that num >= 1 - 2*stride is required.
func (w *window) out(c *ctx, i int, in sym.Dim) (sym.Dim, error) {
	n := len(w.strides)
	s := sym.Const(w.strides[i])
	var d sym.Dim
	switch {
	case w.autoPad == "SAME_UPPER" || w.autoPad == "SAME_LOWER":
		d = ceilDiv(in, w.strides[i])
		if w.pool && w.dilations[i] > 1 {
			d = w.poolSameDilated(c, i, d)
		}
	default:
		pb, pe := w.pads[i], w.pads[i+n]
		if w.autoPad == "VALID" {
			pb, pe = 0, 0
		}
		num := sym.SubDims(sym.AddDims(in, sym.Const(pb+pe)), w.effKernel(i))
		if w.pool {
			return w.poolOut(c, i, in, num, pb, pe)
		}
		if !w.ceil {
			d = sym.AddDims(sym.FloorDivDims(num, s), sym.Const(1))
		} else {
			d = w.poolCeil(c, i, in, num, pb, pe)
		}
	}
	return windowSize(c, i, in, d)
}

// poolOut returns the output size of spatial axis i of an ONNX pooling operator, whose numerator
// in + pads - dilation*(k-1) - 1 is num, as onnxruntime computes it: trunc(num/stride + 1), or
// its ceiling in ceil_mode (see poolCeil). A size of 0 is an empty output (onnxruntime runs it);
// a negative one, num <= -2*stride, is an error wrapping errcode.ErrInvalidShape, and
// num >= 1 - 2*stride is required where the symbols decide it.
func (w *window) poolOut(c *ctx, i int, in, num sym.Dim, pb, pe int64) (sym.Dim, error) {
	st := w.strides[i]
	why := "spatial axis " + itoa(i) + " (axis " + itoa(i+2) + "): the output size of input size " + in.String() + " not negative"
	if err := requireAtLeast(c, sym.AddDims(num, sym.Const(2*st-1)), 0, why); err != nil {
		return num, err
	}
	var d sym.Dim
	if w.ceil {
		d = w.poolCeil(c, i, in, num, pb, pe)
	} else {
		d = sym.AddDims(sym.FloorDivDims(num, sym.Const(st)), sym.Const(1))
		if lo, _ := num.Bounds(); st > 1 && lo < -st {
			// trunc is 0 where floor is -1: num in [1-2*stride, -stride-1]
			d = sym.MaxDims(d, sym.Const(0))
		}
	}
	nd, _ := d.NonNegative()
	return nd, nil
}

// ceilDiv returns ceil(a/s) for s >= 1 as floor((a+s-1)/s), the canonical form of package sym:
// ceil(H/2) is (H+1)//2.
func ceilDiv(a sym.Dim, s int64) sym.Dim {
	return sym.FloorDivDims(sym.AddDims(a, sym.Const(s-1)), sym.Const(s))
}

// windowSize checks an output size d of spatial axis i for the input size in: below 1 is an error
// wrapping errcode.ErrInvalidShape, and where the symbols decide it, d >= 1 is required; the size
// it returns is d with its bounds at least 1.
func windowSize(c *ctx, i int, in, d sym.Dim) (sym.Dim, error) {
	if _, hi := d.Bounds(); hi < 1 {
		return d, c.Errorf(errcode.ErrInvalidShape, "spatial axis %d (axis %d): input size %v gives output size %v, less than 1", i, i+2, in, d)
	}
	why := "spatial axis " + itoa(i) + " (axis " + itoa(i+2) + "): the output size " + d.String() + " of input size " + in.String() + " at least 1"
	if err := requireAtLeast(c, d, 1, why); err != nil {
		return d, err
	}
	nd, _ := d.Narrow(1, sym.Inf)
	return nd, nil
}

// poolCeil returns the output size of a pooling window in ceil_mode, whose numerator
// in + pads - dilation*(k-1) - 1 is num. ONNX's rule since onnx 1.16 (onnx PR 5741, PyTorch's)
// drops a last window that would start in the end padding: the size is
// floor((in + min(pads - dk + stride - 1, pad_begin - 1)) / stride) + 1. onnxruntime 1.20 keeps
// it: ceil(num / stride) + 1. The two agree unless stride > dk - pad_end; where they may differ,
// the size is either.
func (w *window) poolCeil(c *ctx, i int, in, num sym.Dim, pb, pe int64) sym.Dim {
	s := sym.Const(w.strides[i])
	ort := sym.AddDims(ceilDiv(num, w.strides[i]), sym.Const(1))
	dk, ok := w.effKernel(i).Static()
	if !ok {
		return ort // pooling kernels are attributes: not reached
	}
	a := pb + pe - dk + w.strides[i] - 1
	if b := pb - 1; a > b {
		spec := sym.AddDims(sym.FloorDivDims(sym.AddDims(in, sym.Const(b)), s), sym.Const(1))
		return eitherDim(c, spec, ort, "ceil_mode")
	}
	return ort
}

// poolSameDilated returns the output size of a dilated pooling window with auto_pad SAME_*:
// ceil(in/stride) by ONNX (same), ceil(in/stride) - ceil((k-1)*(dilation-1)/stride) by
// onnxruntime 1.20, which pads for the undilated kernel (floor instead of the inner ceil in
// ceil_mode). The size is either.
func (w *window) poolSameDilated(c *ctx, i int, same sym.Dim) sym.Dim {
	k, ok := w.kernel[i].Static()
	if !ok {
		return same
	}
	s, extra := w.strides[i], (k-1)*(w.dilations[i]-1)
	lost := (extra + s - 1) / s
	if w.ceil {
		lost = extra / s
	}
	return eitherDim(c, same, sym.SubDims(same, sym.Const(lost)), "auto_pad")
}

// eitherDim returns a dim that is a or b, where what the operator gives depends on the runtime:
// a when the two are equal, else their interval hull (an anonymous dim of those bounds when one is
// an expression).
func eitherDim(c *ctx, a, b sym.Dim, hint string) sym.Dim {
	if a.Equal(b) {
		return a
	}
	lo1, hi1 := a.Bounds()
	lo2, hi2 := b.Bounds()
	_, sa := a.Static()
	_, sb := b.Static()
	if sa && sb {
		return sym.Interval(min(lo1, lo2), max(hi1, hi2))
	}
	return c.Fresh(hint, min(lo1, lo2), max(hi1, hi2))
}

// poolInput requires what onnxruntime needs of the input of a pooling operator (MaxPool,
// AveragePool, LpPool and their Global forms): every dim but N at least 1 ("only N can be zero").
// A dim known to be 0 is an error wrapping errcode.ErrInvalidShape.
func poolInput(c *ctx, dims []sym.Dim) error {
	for i := 1; i < len(dims); i++ {
		if err := requireAtLeast(c, dims[i], 1, "input dim "+itoa(i)+" not empty (only N can be zero)"); err != nil {
			return err
		}
	}
	return nil
}
