package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxSignal holds the rules of ONNX's signal operators: the Fourier transforms, whose outputs
// hold complex numbers as a last axis of 2 (real, imaginary), the windows and the mel filter bank.
var onnxSignal = table{"", []opDef{
	{"DFT", since(17), span(1, 2), fixed(1), reads(1), dft},
	{"DFT", since(20), span(1, 3), fixed(1), reads(1, 2), dft},
	{"STFT", since(17), span(2, 4), fixed(1), reads(1, 3), stft},
	{"BlackmanWindow", since(17), fixed(1), fixed(1), reads(0), window1D},
	{"HammingWindow", since(17), fixed(1), fixed(1), reads(0), window1D},
	{"HannWindow", since(17), fixed(1), fixed(1), reads(0), window1D},
	{"MelWeightMatrix", since(17), fixed(5), fixed(1), reads(0, 1), melWeightMatrix},
}}

// scalarValue returns the one value of in, a scalar or a 1-element tensor, when inference knows it.
func scalarValue(in *Info) (sym.Dim, bool) {
	if in == nil || len(in.Value) != 1 {
		return sym.Dim{}, false
	}
	return in.Value[0], true
}

// sizeArg returns the size a scalar input holds (a window's length, a DFT's length): its value,
// at least least (requireSize: a condition of the node where the symbols decide it, an error
// wrapping errcode.ErrInvalidShape naming input i where it is less at every binding), or
// sym.Unknown when it is not known. onnxruntime 1.20.1 runs a window of length 0 and refuses a
// negative one ("Tensor shape.Size() must be >= 0"), and refuses a dft_length below 1 ("dft_length
// must be greater than zero"): bench/truth narrow_negative.
func sizeArg(c *ctx, in *Info, i int, least int64) (sym.Dim, error) {
	v, ok := scalarValue(in)
	if !ok {
		return sym.Unknown(), nil
	}
	return requireSize(c, v, least, "input "+itoa(i))
}

// window1D: BlackmanWindow-17, HammingWindow-17, HannWindow-17: a 1-D tensor of the length the
// scalar input 0 holds, of the type output_datatype names (float by default).
func window1D(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(in, 0, 0, 0); err != nil {
		return err
	}
	t, err := c.Int("output_datatype", 1)
	if err != nil {
		return err
	}
	n, err := sizeArg(c, in, 0, 0)
	if err != nil {
		return err
	}
	c.Out(0, elemTypeOf(t), sym.ShapeOf(n))
	return nil
}

// melWeightMatrix: MelWeightMatrix-17: [floor(dft_length/2)+1, num_mel_bins] of the scalar inputs
// 1 (dft_length) and 0 (num_mel_bins), of the type output_datatype names (float by default).
func melWeightMatrix(c *ctx) error {
	ins, err := c.Inputs(5)
	if err != nil {
		return err
	}
	bins, err := sizeArg(c, ins[0], 0, 0)
	if err != nil {
		return err
	}
	n, err := sizeArg(c, ins[1], 1, 0)
	if err != nil {
		return err
	}
	t, err := c.Int("output_datatype", 1)
	if err != nil {
		return err
	}
	c.Out(0, elemTypeOf(t), sym.ShapeOf(halfSpectrum(n), bins))
	return nil
}

// halfSpectrum returns floor(n/2)+1, the bins of a one-sided spectrum of n points.
func halfSpectrum(n sym.Dim) sym.Dim {
	return sym.AddDims(sym.FloorDivDims(n, sym.Const(2)), sym.Const(1))
}

// complexLast requires the last dim of a signal of rank r, one of real (1) or complex (2) values, to
// be 1 or 2: one in the symbols at most 2 (and at least 1) as constraints of the node, one that can
// be neither an error wrapping errcode.ErrInvalidShape.
func complexLast(c *ctx, in *Info, r int) error {
	d := in.Shape.Dims[r-1]
	if lo, hi := d.Bounds(); hi < 1 || lo > 2 {
		return c.Errorf(errcode.ErrInvalidShape, "input 0's last dim is %v: want 1 (real) or 2 (complex)", d)
	}
	if err := requireAtLeast(c, d, 1, "input 0's last dim 1 (real) or 2 (complex)"); err != nil {
		return err
	}
	return requireAtMost(c, d, sym.Const(2), "input 0's last dim 1 (real) or 2 (complex)")
}

// dft: DFT-17 (axis attribute, default 1), -20 (axis input 2, default -2). The input is [batch,
// signal dims..., 1 or 2], rank 3 or more; the output, of its type, has its dims with a last of 2
// and at the axis (one of the signal dims: [-r, -2] or [0, r-2]) the dft_length input's value, or
// the input's dim, and with onesided floor(n/2)+1 of it. An axis input whose value is not known
// leaves every signal dim unknown but where the output keeps the input's.
func dft(c *ctx) error {
	x, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if r < 3 {
		return c.Errorf(errcode.ErrInvalidShape, "input 0 has rank %d: want [batch, signal dims..., 1 or 2], of rank 3 or more", r)
	}
	if err := complexLast(c, x, r); err != nil {
		return err
	}
	onesided, err := c.Int("onesided", 0)
	if err != nil {
		return err
	}
	axis, known := int64(1), true
	if c.Version() < 20 {
		if axis, err = c.Int("axis", 1); err != nil {
			return err
		}
	} else if a := c.In(2); a != nil {
		v, ok := a.Ints()
		if known = ok && len(v) == 1; known {
			axis = v[0]
		}
	} else {
		axis = -2
	}
	dims := append([]sym.Dim(nil), x.Shape.Dims...)
	dims[r-1] = sym.Const(2)
	length := c.In(1)
	if !known {
		if length != nil || onesided != 0 {
			for i := 1; i < r-1; i++ {
				dims[i] = sym.Unknown()
			}
		}
		c.Out(0, x.Type, sym.ShapeOf(dims...))
		return nil
	}
	if axis < 0 {
		axis += int64(r)
	}
	if axis < 1 || axis > int64(r)-2 {
		return c.Errorf(errcode.ErrInvalidShape, "axis %d: want one of the signal dims, 1 to %d (or %d to -2)", axis, r-2, -r+1)
	}
	n := x.Shape.Dims[axis]
	if length != nil {
		if n, err = sizeArg(c, length, 1, 1); err != nil {
			return err
		}
	}
	if onesided != 0 {
		n = halfSpectrum(n)
	}
	dims[axis] = n
	c.Out(0, x.Type, sym.ShapeOf(dims...))
	return nil
}

// stft: STFT-17: the signal [batch, length, 1 or 2] framed by frame_length (input 3, or the
// length of the window, input 2; one of them is required, and both must agree) at frame_step
// (input 1) gives [batch, frames, bins, 2] of the signal's type: frames =
// floor((length-frame_length)/frame_step)+1, bins = floor(frame_length/2)+1 with onesided (the
// default) and frame_length without. A frame_step the symbols give is required at least 1
// (requireSize).
func stft(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	step, err := c.Input(1)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(step, 1, 0, 0); err != nil {
		return err
	}
	onesided, err := c.Int("onesided", 1)
	if err != nil {
		return err
	}
	win, lenIn := c.In(2), c.In(3)
	if win == nil && lenIn == nil {
		return c.Errorf(errcode.ErrSyntax, "STFT has neither a window (input 2) nor a frame_length (input 3)")
	}
	frame := sym.Unknown()
	if lenIn != nil {
		if frame, err = sizeArg(c, lenIn, 3, 0); err != nil {
			return err
		}
	}
	if win != nil {
		if _, ok, err := c.RequireRank(win, 2, 1, 1); err != nil {
			return err
		} else if ok {
			if lenIn == nil {
				frame = win.Shape.Dims[0]
			} else if frame, err = c.Unify(frame, win.Shape.Dims[0], "frame_length and the window's length"); err != nil {
				return err
			}
		}
	}
	r, ok, err := c.RequireRank(x, 0, 3, 3)
	if err != nil {
		return err
	}
	batch, length := sym.Unknown(), sym.Unknown()
	if ok {
		if err := complexLast(c, x, r); err != nil {
			return err
		}
		batch, length = x.Shape.Dims[0], x.Shape.Dims[1]
	}
	frames := sym.Unknown()
	if s, ok := scalarValue(step); ok {
		if s, err = requireSize(c, s, 1, "frame_step"); err != nil {
			return err
		}
		if err := requireAtMost(c, frame, length, "frame_length at most the signal's length"); err != nil {
			return err
		}
		if d, ok := sym.SubDims(length, frame).NonNegative(); ok {
			frames = sym.AddDims(sym.FloorDivDims(d, s), sym.Const(1))
		} else {
			return c.Errorf(errcode.ErrInvalidShape, "frame_length %v is more than the signal's length %v", frame, length)
		}
	}
	bins := frame
	if onesided != 0 {
		bins = halfSpectrum(frame)
	}
	c.Out(0, x.Type, sym.ShapeOf(batch, frames, bins, sym.Const(2)))
	return nil
}
