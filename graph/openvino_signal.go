package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoSignal holds the rules of OpenVINO IR's signal and image-format layers: the discrete
// Fourier transforms (a complex tensor is a real one of a last dim 2), the short-time transforms,
// and the YUV to RGB conversions of planes [N, H, W, channels].
var openvinoSignal = table{DomainOpenVINO, []opDef{
	{"DFT", since(7), span(2, 3), fixed(1), reads(1, 2), ovDFT},
	{"IDFT", since(7), span(2, 3), fixed(1), reads(1, 2), ovDFT},
	{"RDFT", since(9), span(2, 3), fixed(1), reads(1, 2), ovDFT},
	{"IRDFT", since(9), span(2, 3), fixed(1), reads(1, 2), ovDFT},
	{"STFT", since(15), fixed(4), fixed(1), reads(2, 3), ovSTFT},
	{"ISTFT", since(16), span(4, 5), fixed(1), reads(2, 3, 4), ovISTFT},
	{"I420toRGB", since(8), span(1, 3), fixed(1), 0, ovYUV},
	{"I420toBGR", since(8), span(1, 3), fixed(1), 0, ovYUV},
	{"NV12toRGB", since(8), span(1, 2), fixed(1), 0, ovYUV},
	{"NV12toBGR", since(8), span(1, 2), fixed(1), 0, ovYUV},
}}

// ovDFT: DFT-7, IDFT-7 (complex data [..., 2]: the dims at the axes become the signal_size
// values other than -1) and RDFT-9 (real data: so do they, the last axis's then n/2+1, and a
// last dim 2 is appended), IRDFT-9 (complex data: the last dim 2 leaves, the dims at the axes
// become the signal_size values, the last axis's else 2·(n-1)). The axes (input 1, 1-D, unique,
// negative ones from the end of the data less its complex dim) and signal_size (input 2, 1-D of
// one value per axis) are checked.
func ovDFT(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	data := ins[0]
	real := c.n.Op == "RDFT"
	axes, n, err := ovVector(c, 1, "axes")
	if err != nil {
		return err
	}
	var sizes []sym.Dim
	if s := c.In(2); s != nil {
		if _, k, err := ovVector(c, 2, "signal_size"); err != nil {
			return err
		} else if k >= 0 && n >= 0 && k != n {
			return c.Errorf(errcode.ErrInvalidShape, "signal_size has %d elements for %d axes", k, n)
		}
		sizes = s.Value
	}
	r, ok := data.Rank()
	if !ok {
		return nil
	}
	dims := c.clone(data.Shape.Dims)
	sig := r // the rank of the signal, without the complex dim
	if !real {
		sig = r - 1
		if r < 2 {
			return c.Errorf(errcode.ErrInvalidShape, "the data has rank %d: want a complex tensor [..., 2]", r)
		}
		if _, err := c.Unify(dims[r-1], sym.Const(2), "the complex dim"); err != nil { // OpenVINO keeps the dim as given (1..18 stays)
			return err
		}
	}
	if n > sig {
		return c.Errorf(errcode.ErrInvalidShape, "%d axes for a signal of rank %d", n, sig)
	}
	v, known := axes.Ints()
	given := c.In(2) != nil
	if !known {
		// Any axis may be transformed; without signal_size, DFT and IDFT keep every dim.
		for i := range sig {
			if n != 0 && (given || c.n.Op == "RDFT" || c.n.Op == "IRDFT") {
				dims[i] = sym.Unknown()
			}
		}
		return ovDFTOut(c, data, dims)
	}
	ax, err := c.NormAxes(v, sig)
	if err != nil {
		return err
	}
	for k, a := range ax {
		d := dims[a]
		set := given // signal_size sets the dim
		switch {
		case given && len(sizes) != len(ax):
			d = sym.Unknown()
		case given && isStatic(sizes[k]) && sizes[k].Equal(sym.Const(-1)):
			set = false
		case given:
			if d, err = requireNonNegative(c, sizes[k], "signal_size["+itoa(k)+"]"); err != nil {
				return err
			}
		}
		if k == len(ax)-1 {
			switch {
			case c.n.Op == "RDFT":
				d = sym.AddDims(sym.FloorDivDims(d, sym.Const(2)), sym.Const(1))
			case c.n.Op == "IRDFT" && !set:
				d = sym.MulDims(sym.Const(2), sym.SubDims(d, sym.Const(1)))
			}
		}
		dims[a] = d
	}
	return ovDFTOut(c, data, dims)
}

// ovDFTOut sets the output of a DFT of the data, its dims transformed: RDFT appends the complex
// dim, IRDFT drops it.
func ovDFTOut(c *ctx, data *Info, dims []sym.Dim) error {
	switch c.n.Op {
	case "RDFT":
		dims = append(dims, sym.Const(2))
	case "IRDFT":
		dims = dims[:len(dims)-1]
	}
	c.Out(0, data.Type, sym.ShapeOf(dims...))
	return nil
}

// ovFrames returns the scalar inputs frame_size and frame_step of a short-time transform (inputs
// 2 and 3), each at least 1 where known; the 1-D window (input 1) is at most frame_size long.
func ovFrames(c *ctx) (size, step int64, known bool, err error) {
	var v [2]int64
	known = true
	for k, name := range []string{"frame_size", "frame_step"} {
		in := c.In(2 + k)
		if _, _, err := c.RequireRank(in, 2+k, 0, 0); err != nil {
			return 0, 0, false, err
		}
		x, ok := in.Ints()
		if !ok || len(x) != 1 {
			known = false
			continue
		}
		if x[0] < 1 {
			return 0, 0, false, c.Errorf(errcode.ErrInvalidShape, "%s %d: want at least 1", name, x[0])
		}
		v[k] = x[0]
	}
	if w := c.In(1); v[0] > 0 && len(w.Shape.Dims) == 1 && !w.Shape.RankDynamic {
		if err := requireAtMost(c, w.Shape.Dims[0], sym.Const(v[0]), "the window's length, at most frame_size"); err != nil {
			return 0, 0, false, err
		}
	}
	return v[0], v[1], known, nil
}

// ovSTFT: STFT-15: the signal [T] or [B, T], the 1-D window (of at most frame_size elements) and
// the scalars frame_size and frame_step (at most T) give [B, F, frames, 2] (transpose_frames) or
// [B, frames, F, 2], F = frame_size/2 + 1, frames = (T - frame_size)/frame_step + 1 (without B
// for a 1-D signal).
func ovSTFT(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	transpose, err := ovBool(c, "transpose_frames", false)
	if err != nil {
		return err
	}
	if _, _, err := ovVector(c, 1, "window"); err != nil {
		return err
	}
	size, step, known, err := ovFrames(c)
	if err != nil {
		return err
	}
	r, ok, err := c.RequireRank(ins[0], 0, 1, 2)
	if err != nil {
		return err
	}
	if !ok {
		c.Out(0, ins[0].Type, sym.DynamicRank())
		return nil
	}
	t := ins[0].Shape.Dims[r-1]
	bins, frames := sym.Unknown(), sym.Unknown()
	if known {
		if err := requireAtLeast(c, sym.SubDims(t, sym.Const(size)), 0, "the signal at least frame_size long"); err != nil {
			return err
		}
		bins = sym.Const(size/2 + 1)
		frames = sym.AddDims(sym.FloorDivDims(sym.SubDims(t, sym.Const(size)), sym.Const(step)), sym.Const(1))
		frames, _ = frames.Narrow(1, sym.Inf)
	}
	dims := []sym.Dim{frames, bins, sym.Const(2)}
	if transpose {
		dims[0], dims[1] = bins, frames
	}
	if r == 2 {
		dims = append([]sym.Dim{ins[0].Shape.Dims[0]}, dims...)
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(dims...))
	return nil
}

// ovISTFT: ISTFT-16: data [F, frames, 2] or [B, F, frames, 2], the 1-D window (of at most
// frame_size elements), the scalars frame_size and frame_step and the optional signal_length (a
// scalar or one element) give the signal [length] or [B, length]: signal_length, or
// (frames-1)·frame_step, plus frame_size unless center.
func ovISTFT(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	center, err := ovBool(c, "center", false)
	if err != nil {
		return err
	}
	if _, _, err := ovVector(c, 1, "window"); err != nil {
		return err
	}
	size, step, known, err := ovFrames(c)
	if err != nil {
		return err
	}
	r, ok, err := c.RequireRank(ins[0], 0, 3, 4)
	if err != nil {
		return err
	}
	length := sym.Unknown()
	if l := c.In(4); l != nil {
		v, lk, err := ovScalar(c, 4, "signal_length")
		if err != nil {
			return err
		}
		if lk {
			if v < 0 {
				return c.Errorf(errcode.ErrInvalidShape, "signal_length %d is negative", v)
			}
			length = sym.Const(v)
		}
	} else if known && ok {
		length = sym.MulDims(sym.SubDims(ins[0].Shape.Dims[r-2], sym.Const(1)), sym.Const(step))
		if !center {
			length = sym.AddDims(length, sym.Const(size))
		}
	}
	if !ok {
		c.Out(0, ins[0].Type, sym.DynamicRank())
		return nil
	}
	if err := requireAtLeast(c, length, 0, "the signal's length not negative"); err != nil {
		return err
	}
	length, _ = length.NonNegative()
	dims := []sym.Dim{length}
	if r == 4 {
		dims = append([]sym.Dim{ins[0].Shape.Dims[0]}, dims...)
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(dims...))
	return nil
}

// ovYUV: I420toRGB-8, I420toBGR-8, NV12toRGB-8, NV12toBGR-8: one plane [N, H·3/2, W, 1], or the
// planes Y [N, H, W, 1] and U, V [N, H/2, W/2, 1] (I420) or UV [N, H/2, W/2, 2] (NV12), give the
// image [N, H, W, 3] of their type; H and W are even.
func ovYUV(c *ctx) error {
	y, err := c.Input(0)
	if err != nil {
		return err
	}
	d, err := rnnDims(c, y, 0, sym.Unknown(), sym.Unknown(), sym.Unknown(), sym.Const(1))
	if err != nil {
		return err
	}
	n, h, w := d[0], d[1], d[2]
	if c.NumIn() == 1 {
		if err := requireMultiple(c, h, 3, "the plane's height a multiple of 3"); err != nil {
			return err
		}
		h = sym.MulDims(sym.QuoDims(h, sym.Const(3)), sym.Const(2))
	}
	for _, x := range []struct {
		d    sym.Dim
		what string
	}{{h, "the image's height"}, {w, "the image's width"}} {
		if err := requireMultiple(c, x.d, 2, x.what+" even"); err != nil {
			return err
		}
	}
	half := func(x sym.Dim) sym.Dim { return sym.QuoDims(x, sym.Const(2)) }
	ch := int64(1)
	if c.NumIn() == 2 {
		ch = 2
	}
	for i := 1; i < c.NumIn(); i++ {
		in, err := c.Input(i)
		if err != nil {
			return err
		}
		p, err := rnnDims(c, in, i, n, half(h), half(w), sym.Const(ch))
		if err != nil {
			return err
		}
		n = p[0]
		if y.Shape.RankDynamic { // the image's size is twice a plane's
			h, w = sym.MulDims(p[1], sym.Const(2)), sym.MulDims(p[2], sym.Const(2))
		}
	}
	c.Out(0, ovSharedType(c), sym.ShapeOf(n, h, w, sym.Const(3)))
	return nil
}
