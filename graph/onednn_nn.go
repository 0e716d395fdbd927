package graph

import (
	"math"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onednnNN holds the rules of oneDNN Graph's operations of networks: MatMul, the convolutions and
// their backward operations, pooling and its backward operations, Interpolate, BiasAdd, GenIndex
// and Dropout. src and dst are [N,C,spatial...] in the data_format NCX and [N,spatial...,C] in
// NXC (the default).
var onednnNN = table{DomainOneDNN, []opDef{
	{"MatMul", since(1), span(2, 3), fixed(1), 0, dnnlMatMul},
	{"Convolution", since(1), span(2, 3), fixed(1), 0, needs(dnnlConv, convAttrs...)},
	{"ConvTranspose", since(1), span(2, 3), fixed(1), 0, needs(dnnlConv, convAttrs...)},
	{"ConvTransposeBackwardData", since(1), fixed(2), fixed(1), 0, needs(dnnlConv, convAttrs...)},
	{"ConvolutionBackwardData", since(1), span(2, 3), fixed(1), 0, needs(dnnlConvBackwardData, convAttrs...)},
	{"ConvolutionBackwardWeights", since(1), span(2, 3), fixed(1), 0, needs(dnnlConvBackwardWeights, convAttrs...)},
	{"ConvTransposeBackwardWeights", since(1), span(2, 3), fixed(1), 0, needs(dnnlConvBackwardWeights, convAttrs...)},
	{"AvgPool", since(1), fixed(1), fixed(1), 0, needs(dnnlPool, poolAttrs...)},
	{"MaxPool", since(1), fixed(1), fixed(1), 0, needs(dnnlPool, poolAttrs...)},
	{"AvgPoolBackward", since(1), span(1, 2), fixed(1), 0, needs(dnnlPoolBackward, poolAttrs...)},
	{"MaxPoolBackward", since(1), fixed(2), fixed(1), 0, needs(dnnlPoolBackward, poolAttrs...)},
	{"Interpolate", since(1), span(1, 2), fixed(1), 0, dnnlInterpolate},
	{"InterpolateBackward", since(1), span(2, 3), fixed(1), 0, dnnlInterpolate},
	{"BiasAdd", since(1), fixed(2), fixed(1), 0, dnnlBiasAdd},
	{"BiasAddBackward", since(1), fixed(1), fixed(1), 0, dnnlBiasAddBackward},
	{"BiasAddBackprop", since(1), fixed(1), fixed(1), 0, dnnlBiasAddBackward},
	{"GenIndex", since(1), fixed(1), fixed(1), 0, dnnlGenIndex},
	{"Dropout", since(1), fixed(4), span(1, 2), 0, dnnlDropout},
}}

// convAttrs are the attributes of the window that the convolutions require, poolAttrs those of
// pooling.
var (
	convAttrs = []string{"strides", "pads_begin", "pads_end", "dilations"}
	poolAttrs = []string{"strides", "pads_begin", "pads_end", "kernel"}
)

// dnnlMatMul: MatMul-1: numpy's matmul of src and weights (transpose_a, transpose_b swap the last
// two dims of an operand of rank 2 or more; a 1-D operand is a row or a column whose added dim
// leaves the output), to which bias (input 2) broadcasts one way.
func dnnlMatMul(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	ta, err := dnnlBool(c, "transpose_a", false)
	if err != nil {
		return err
	}
	tb, err := dnnlBool(c, "transpose_b", false)
	if err != nil {
		return err
	}
	dims, ok, err := matMulDims(c, ins[0], ins[1], ta, tb)
	if err != nil || !ok {
		return err
	}
	if bias := c.In(2); bias != nil && !bias.Shape.RankDynamic {
		if err := unidirectional(c, bias.Shape, dims, 2, true); err != nil {
			return err
		}
	}
	c.Out(0, fileType, sym.ShapeOf(dims...))
	return nil
}

// activation splits the dims of a src or dst tensor of the data format nxc (else NCX) into its
// batch, channels and spatial dims.
func activation(dims []sym.Dim, nxc bool) (n, ch sym.Dim, sp []sym.Dim) {
	r := len(dims)
	if nxc {
		return dims[0], dims[r-1], dims[1 : r-1]
	}
	return dims[0], dims[1], dims[2:]
}

// activationShape returns the shape of batch n, channels ch and spatial dims sp in the data format
// nxc (else NCX).
func activationShape(n, ch sym.Dim, sp []sym.Dim, nxc bool) sym.Shape {
	dims := make([]sym.Dim, 0, len(sp)+2)
	dims = append(dims, n)
	if !nxc {
		dims = append(dims, ch)
	}
	dims = append(dims, sp...)
	if nxc {
		dims = append(dims, ch)
	}
	return sym.ShapeOf(dims...)
}

// dnnlLayout reads data_format and weights_format of a convolution: nxc reports NXC, and format
// is the weights' format: OIX or XIO (the default) for a convolution, IOX or XOI (the default)
// for a transposed one.
func dnnlLayout(c *ctx, transposed bool) (nxc bool, format string, err error) {
	if nxc, err = dnnlDataFormat(c); err != nil {
		return
	}
	if transposed {
		format, err = dnnlChoice(c, "weights_format", "XOI", "IOX", "XOI")
	} else {
		format, err = dnnlChoice(c, "weights_format", "XIO", "OIX", "XIO")
	}
	return nxc, format, err
}

// weights splits the dims of a convolution's weights of the format f (OIX, XIO, IOX, XOI) into O,
// I and the kernel.
func weights(dims []sym.Dim, f string) (o, i sym.Dim, k []sym.Dim) {
	r := len(dims)
	first, second, k := dims[0], dims[1], dims[2:]
	if f[0] == 'X' {
		first, second, k, f = dims[r-2], dims[r-1], dims[:r-2], f[1:]
	}
	if f[0] == 'O' {
		return first, second, k
	}
	return second, first, k
}

// weightsShape returns the shape of weights of the format f with O, I and the kernel k.
func weightsShape(f string, o, i sym.Dim, k []sym.Dim) sym.Shape {
	pair := []sym.Dim{o, i}
	if f[0] == 'I' || f[0] == 'X' && f[1] == 'I' {
		pair = []sym.Dim{i, o}
	}
	if f[0] == 'X' {
		return sym.ShapeOf(append(append([]sym.Dim{}, k...), pair...)...)
	}
	return sym.ShapeOf(append(pair, k...)...)
}

// dnnlWindow reads the window of a convolution or pooling over the kernel k: strides,
// dilations (1 each: none, for pooling without them), pads_begin, pads_end (negative ones crop
// the input, as benchdnn's avgpool_3d_chain_fusion.json does) and auto_pad (None, SAME_UPPER,
// SAME_LOWER, VALID, matched ignoring case).
func dnnlWindow(c *ctx, k []sym.Dim) (*window, error) {
	n := len(k)
	w := &window{kernel: k, pads: make([]int64, 2*n)}
	var err error
	if w.strides, err = windowInts(c, "strides", n, 1, 1); err != nil {
		return nil, err
	}
	if w.dilations, err = windowInts(c, "dilations", n, 1, 1); err != nil {
		return nil, err
	}
	for i, name := range []string{"pads_begin", "pads_end"} {
		v, err := windowInts(c, name, n, math.MinInt32, 0) // oneDNN takes negative pads: a window that crops
		if err != nil {
			return nil, err
		}
		copy(w.pads[i*n:], v)
	}
	pad, err := dnnlChoice(c, "auto_pad", "None", "None", "SAME_UPPER", "SAME_LOWER", "VALID")
	w.autoPad = pad
	if pad == "None" {
		w.autoPad = "NOTSET"
	}
	return w, err
}

// convNode is what the convolutions read of their node: the two tensors (src or diff_dst, then
// weights or diff_dst), of the same rank, 3 or more; the data format (NXC: nxc), the weights'
// format (dnnlLayout) and groups.
type convNode struct {
	a, b   *Info
	nxc    bool
	format string
	groups int64
}

// convOf reads the convolution node of c, transposed or not (the weights' formats it takes); ok is
// false when a rank is not known.
func convOf(c *ctx, transposed bool) (cv convNode, ok bool, err error) {
	ins, err := c.Inputs(2)
	if err != nil {
		return cv, false, err
	}
	ra, oka := ins[0].Rank()
	rb, okb := ins[1].Rank()
	switch {
	case !oka || !okb:
		return cv, false, nil
	case ra < 3 || ra != rb:
		return cv, false, c.Errorf(errcode.ErrInvalidShape, "inputs of rank %d and %d: %s takes two of the same rank, 3 or more", ra, rb, c.n.Op)
	}
	cv.a, cv.b = ins[0], ins[1]
	if cv.nxc, cv.format, err = dnnlLayout(c, transposed); err != nil {
		return cv, false, err
	}
	cv.groups, err = groupsOf(c)
	return cv, err == nil, err
}

// groupsOf reads the groups attribute (1 by default), at least 1.
func groupsOf(c *ctx) (int64, error) {
	g, err := c.Int("groups", 1)
	if err == nil && g < 1 {
		err = c.Errorf(errcode.ErrInvalidShape, "groups = %d: want 1 or more", g)
	}
	return g, err
}

// dnnlConv: Convolution-1 (src, weights [O,I/groups,X...] in OIX, bias [O]),
// ConvTranspose-1 (src, weights [C,O/groups,X...] in IOX, bias [O]) and
// ConvTransposeBackwardData-1 (diff_dst, the ConvTranspose's weights: a convolution of diff_dst).
// A convolution's spatial dims are window.out's; a transposed one's
// stride*(in-1) + dilation*(k-1) + 1 - pads_begin - pads_end + output_padding, or with auto_pad
// SAME_* in*stride + output_padding.
func dnnlConv(c *ctx) error {
	cv, ok, err := convOf(c, c.n.Op != "Convolution")
	if err != nil || !ok {
		return err
	}
	src, wts, nxc, f, g := cv.a, cv.b, cv.nxc, cv.format, cv.groups
	n, ch, sp := activation(src.Shape.Dims, nxc)
	o, i, k := weights(wts.Shape.Dims, f)
	w, err := dnnlWindow(c, k)
	if err != nil {
		return err
	}
	out := c.dims(len(sp))
	switch c.n.Op {
	case "ConvTranspose":
		// IOX: I is the input's channels, O those of a group
		if _, err := c.Unify(ch, i, "the input channels and the weights' I"); err != nil {
			return err
		}
		o = sym.MulDims(o, sym.Const(g))
		if err := transposedSizes(c, w, sp, out); err != nil {
			return err
		}
	case "ConvTransposeBackwardData":
		// diff_dst has the ConvTranspose's O*groups channels, diff_src its I
		if _, err := c.Unify(ch, sym.MulDims(o, sym.Const(g)), "diff_dst's channels and the weights' O times groups"); err != nil {
			return err
		}
		o = i
		if err := convSizes(c, w, sp, out); err != nil {
			return err
		}
	default:
		if _, err := c.Unify(ch, sym.MulDims(i, sym.Const(g)), "the input channels and the weights' I times groups"); err != nil {
			return err
		}
		if err := c.Require(divides(o, g), "the output channels a multiple of groups "+itoa(int(g))); err != nil {
			return err
		}
		if err := convSizes(c, w, sp, out); err != nil {
			return err
		}
	}
	if _, err := channelParam(c, 2, o, "bias"); err != nil {
		return err
	}
	c.Out(0, fileType, activationShape(n, o, out, nxc))
	return nil
}

// convSizes sets out to the spatial sizes of a convolution of the input sizes sp (window.out).
func convSizes(c *ctx, w *window, sp, out []sym.Dim) error {
	for i, d := range sp {
		s, err := w.out(c, i, d)
		if err != nil {
			return err
		}
		out[i] = s
	}
	return nil
}

// transposedSizes sets out to the spatial sizes of a transposed convolution of the input sizes
// sp, with the node's output_padding.
func transposedSizes(c *ctx, w *window, sp, out []sym.Dim) error {
	n := len(sp)
	op, err := dnnlAttrInts(c, "output_padding")
	if err != nil {
		return err
	}
	for i, d := range sp {
		extra := int64(0)
		if i < len(op) {
			extra = op[i]
		}
		s := sym.MulDims(d, sym.Const(w.strides[i]))
		if w.autoPad != "SAME_UPPER" && w.autoPad != "SAME_LOWER" {
			pads := w.pads[i] + w.pads[i+n]
			if w.autoPad == "VALID" {
				pads = 0
			}
			s = sym.MulDims(sym.SubDims(d, sym.Const(1)), sym.Const(w.strides[i]))
			s = sym.SubDims(sym.AddDims(s, w.effKernel(i)), sym.Const(pads))
		}
		if out[i], err = windowSize(c, i, d, sym.AddDims(s, sym.Const(extra))); err != nil {
			return err
		}
	}
	return nil
}

// dnnlAttrInts returns the integer list attribute name, nil when the node does not have it or
// gives oneDNN's default for it, DNNL_MAX_NDIMS (12) zeros, which benchdnn writes for an unset
// dst_shape, weights_shape, src_shape or output_padding.
func dnnlAttrInts(c *ctx, name string) ([]int64, error) {
	v, ok, err := c.Ints(name)
	if err != nil || !ok {
		return nil, err
	}
	for _, x := range v {
		if x != 0 {
			return v, nil
		}
	}
	return nil, nil
}

// shapeArg returns the shape that the attribute name or, preceding it, input i gives an output
// (ConvolutionBackwardData's dst_shape, the weights_shape of the backward weights operations,
// AvgPoolBackward's src_shape): ok is false when neither does, or the input's values are not
// known (its length gives the rank, when known: rank).
func shapeArg(c *ctx, name string, i int) (s sym.Shape, rank int, ok bool, err error) {
	if in := c.In(i); in != nil {
		if r, known := in.Rank(); known && r == 1 {
			if n, known := in.Shape.Dims[0].Static(); known {
				return unknownDims(int(n)), int(n), false, nil
			}
		}
		return sym.Shape{}, -1, false, nil
	}
	v, err := dnnlAttrInts(c, name)
	if err != nil || v == nil {
		return sym.Shape{}, -1, false, err
	}
	return sym.ShapeOf(constDims(v)...), len(v), true, nil
}

// dnnlConvBackwardData: ConvolutionBackwardData-1 (diff_dst, weights, dst_shape): diff_src has the
// shape dst_shape gives (the input, else the attribute), its channels the weights' I times groups;
// without dst_shape, the spatial dims of a transposed convolution of diff_dst.
func dnnlConvBackwardData(c *ctx) error {
	cv, ok, err := convOf(c, false)
	if err != nil || !ok {
		return err
	}
	dst, wts, nxc, f, g := cv.a, cv.b, cv.nxc, cv.format, cv.groups
	n, ch, sp := activation(dst.Shape.Dims, nxc)
	o, i, k := weights(wts.Shape.Dims, f)
	if _, err := c.Unify(ch, o, "diff_dst's channels and the weights' O"); err != nil {
		return err
	}
	inC := sym.MulDims(i, sym.Const(g))
	s, r, given, err := shapeArg(c, "dst_shape", 2)
	switch {
	case err != nil:
		return err
	case given:
		if r != len(dst.Shape.Dims) {
			return c.Errorf(errcode.ErrInvalidShape, "dst_shape %v of rank %d for diff_dst of rank %d", s, r, len(dst.Shape.Dims))
		}
		bn, bc, _ := activation(s.Dims, nxc)
		if _, err := c.Unify(bn, n, "dst_shape's batch and diff_dst's"); err != nil {
			return err
		}
		if _, err := c.Unify(bc, inC, "dst_shape's channels and the weights' I times groups"); err != nil {
			return err
		}
		c.Out(0, fileType, s)
		return nil
	case r >= 0:
		c.Out(0, fileType, s)
		return nil
	}
	w, err := dnnlWindow(c, k)
	if err != nil {
		return err
	}
	out := c.dims(len(sp))
	if err := transposedSizes(c, w, sp, out); err != nil {
		return err
	}
	c.Out(0, fileType, activationShape(n, inC, out, nxc))
	return nil
}

// dnnlConvBackwardWeights: ConvolutionBackwardWeights-1 and ConvTransposeBackwardWeights-1 (src,
// diff_dst, weights_shape): diff_weights has the shape weights_shape gives (the input, else the
// attribute); without it, the O and I of src's and diff_dst's channels (swapped for the transposed
// one) and each kernel size the window's, which a stride of 1 gives exactly:
// in + pads - (out-1)*stride - 1 = dilation*(k-1), and a larger one within an interval. Both
// channels are required multiples of groups.
func dnnlConvBackwardWeights(c *ctx) error {
	transposed := c.n.Op == "ConvTransposeBackwardWeights"
	cv, ok, err := convOf(c, transposed)
	if err != nil || !ok {
		return err
	}
	src, dst, nxc, f, g := cv.a, cv.b, cv.nxc, cv.format, cv.groups
	s, r, given, err := shapeArg(c, "weights_shape", 2)
	switch {
	case err != nil:
		return err
	case given || r >= 0:
		if r != len(src.Shape.Dims) {
			return c.Errorf(errcode.ErrInvalidShape, "weights_shape %v of rank %d for src of rank %d", s, r, len(src.Shape.Dims))
		}
		c.Out(0, fileType, s)
		return nil
	}
	n, srcC, sp := activation(src.Shape.Dims, nxc)
	dn, dstC, dsp := activation(dst.Shape.Dims, nxc)
	if _, err := c.Unify(n, dn, "src's batch and diff_dst's"); err != nil {
		return err
	}
	// oneDNN's grouped convolutions split both channels into groups.
	for _, ch := range []struct {
		d    sym.Dim
		what string
	}{{srcC, "src's channels"}, {dstC, "diff_dst's channels"}} {
		if err := c.Require(divides(ch.d, g), ch.what+" a multiple of groups "+itoa(int(g))); err != nil {
			return err
		}
	}
	o, i := dstC, sym.FloorDivDims(srcC, sym.Const(g))
	if transposed {
		o, i = sym.FloorDivDims(dstC, sym.Const(g)), srcC
	}
	w, err := dnnlWindow(c, make([]sym.Dim, len(sp)))
	if err != nil {
		return err
	}
	k := c.dims(len(sp))
	for a := range sp {
		in, out := sp[a], dsp[a]
		if transposed {
			in, out = out, in
		}
		k[a] = kernelOf(w, a, in, out)
	}
	c.Out(0, fileType, weightsShape(f, o, i, k))
	return nil
}

// kernelOf returns the kernel size along spatial axis a of a convolution with explicit pads whose
// input size is in and output size out: exact for static sizes and a stride of 1, an interval for
// a larger stride, unknown otherwise.
func kernelOf(w *window, a int, in, out sym.Dim) sym.Dim {
	x, ok1 := in.Static()
	y, ok2 := out.Static()
	if !ok1 || !ok2 || w.autoPad != "NOTSET" {
		return sym.Unknown()
	}
	n, s, d := len(w.strides), w.strides[a], w.dilations[a]
	hi := x + w.pads[a] + w.pads[a+n] - (y-1)*s // dilation*(k-1)+1 is in [hi-s+1, hi]
	lo := hi - s + 1
	kHi, kLo := (hi-1)/d+1, (max(lo, 1)-1+d-1)/d+1
	if kHi < 1 {
		return sym.Unknown()
	}
	return sym.Interval(max(kLo, 1), kHi)
}

// dnnlPool: AvgPool-1 and MaxPool-1: [N,C,out...] in NCX, each out the window's size for the
// kernel attribute, rounded by rounding_type (floor, the default, or ceil: the last window may
// start in the end padding).
func dnnlPool(c *ctx) error {
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	s, err := pooled(c, in, r)
	if err != nil {
		return err
	}
	c.Out(0, fileType, s)
	return nil
}

// pooled returns the shape of the pooling of in, of rank r.
func pooled(c *ctx, in *Info, r int) (sym.Shape, error) {
	if r < 3 {
		return sym.Shape{}, c.Errorf(errcode.ErrInvalidShape, "input of rank %d: %s takes [N,C,spatial...] or [N,spatial...,C]", r, c.n.Op)
	}
	nxc, err := dnnlDataFormat(c)
	if err != nil {
		return sym.Shape{}, err
	}
	n, ch, sp := activation(in.Shape.Dims, nxc)
	kernel, err := windowInts(c, "kernel", len(sp), 1, 1)
	if err != nil {
		return sym.Shape{}, err
	}
	w, err := dnnlWindow(c, constDims(kernel))
	if err != nil {
		return sym.Shape{}, err
	}
	rounding, err := dnnlChoice(c, "rounding_type", "floor", "floor", "ceil")
	if err != nil {
		return sym.Shape{}, err
	}
	out := c.dims(len(sp))
	for i, d := range sp {
		if rounding == "floor" || w.autoPad != "NOTSET" {
			if out[i], err = w.out(c, i, d); err != nil {
				return sym.Shape{}, err
			}
			continue
		}
		num := sym.SubDims(sym.AddDims(d, sym.Const(w.pads[i]+w.pads[i+len(sp)])), w.effKernel(i))
		if out[i], err = windowSize(c, i, d, sym.AddDims(ceilDiv(num, w.strides[i]), sym.Const(1))); err != nil {
			return sym.Shape{}, err
		}
	}
	return activationShape(n, ch, out, nxc), nil
}

// dnnlPoolBackward: MaxPoolBackward-1 (src, diff_dst) and AvgPoolBackward-1 (diff_dst, and the
// src_shape input or attribute): diff_src has src's shape, whose pooling diff_dst is.
func dnnlPoolBackward(c *ctx) error {
	dst, err := c.Input(c.NumIn() - 1)
	if c.n.Op == "AvgPoolBackward" {
		dst, err = c.Input(0)
	}
	if err != nil {
		return err
	}
	var src sym.Shape
	if c.n.Op == "MaxPoolBackward" {
		src = c.In(0).Shape
	} else {
		s, r, given, err := shapeArg(c, "src_shape", 1)
		switch {
		case err != nil:
			return err
		case !given && r < 0:
			return c.Errorf(errcode.ErrSyntax, "AvgPoolBackward takes src_shape as input 1 or as an attribute")
		}
		src = s
	}
	if r, ok := src.Rank(); ok && !dst.Shape.RankDynamic {
		p, err := pooled(c, &Info{Type: dst.Type, Shape: src}, r)
		if err != nil {
			return err
		}
		if err := sameShape(c, p, dst.Shape, "diff_dst and the pooling of src"); err != nil {
			return err
		}
	}
	c.Out(0, fileType, src)
	return nil
}

// dnnlInterpolate: Interpolate-1 (src, sizes) and InterpolateBackward-1 (src, diff_dst, sizes):
// the spatial dims of dst become the sizes (the input, whose values are known at run time only,
// or the attribute) or floor(in * scale) for the scales attribute; InterpolateBackward's diff_src
// has src's shape, and diff_dst is its interpolation.
func dnnlInterpolate(c *ctx) error {
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if r < 3 {
		return c.Errorf(errcode.ErrInvalidShape, "input of rank %d: %s takes [N,C,spatial...] or [N,spatial...,C]", r, c.n.Op)
	}
	nxc, err := dnnlDataFormat(c)
	if err != nil {
		return err
	}
	n, ch, sp := activation(in.Shape.Dims, nxc)
	sizes, given, err := c.Ints("sizes")
	if err != nil {
		return err
	}
	scales, scaled, err := c.Floats("scales")
	if err != nil {
		return err
	}
	sizesIn := 1
	if c.n.Op == "InterpolateBackward" {
		sizesIn = 2
	}
	out := c.dims(len(sp))
	switch {
	case c.In(sizesIn) != nil:
		for i := range out {
			out[i] = sym.Unknown()
		}
	case given && len(sizes) == len(sp):
		copy(out, constDims(sizes))
	case scaled && len(scales) == len(sp):
		for i, d := range sp {
			out[i] = scaledDim(d, scales[i])
		}
	default:
		return c.Errorf(errcode.ErrSyntax, "sizes %v, scales %v: want one of them, a value per spatial axis (%d)", sizes, scales, len(sp))
	}
	dst := activationShape(n, ch, out, nxc)
	if c.n.Op == "Interpolate" {
		c.Out(0, fileType, dst)
		return nil
	}
	if err := sameShape(c, c.In(1).Shape, dst, "diff_dst and the interpolation of src"); err != nil {
		return err
	}
	c.Out(0, fileType, in.Shape)
	return nil
}

// scaledDim returns floor(d * scale): exact for a static d or an integer scale, unknown otherwise.
func scaledDim(d sym.Dim, scale float64) sym.Dim {
	if n, ok := d.Static(); ok {
		return sym.Const(int64(math.Floor(float64(n) * scale)))
	}
	if scale == math.Trunc(scale) && scale >= 1 {
		return sym.MulDims(d, sym.Const(int64(scale)))
	}
	return sym.Unknown()
}

// channelsOf returns input 0, of rank 2 or more, and its channel axis in the node's data_format
// (NXC by default: the last); ok is false when its rank is not known.
func channelsOf(c *ctx) (in *Info, axis int, ok bool, err error) {
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return in, 0, false, err
	}
	nxc, err := dnnlDataFormat(c)
	if err == nil && r < 2 {
		err = c.Errorf(errcode.ErrInvalidShape, "input 0 of rank %d: %s takes [N,C,...] or [N,...,C]", r, c.n.Op)
	}
	return in, channelAxis(nxc, r), err == nil, err
}

// dnnlBiasAdd: BiasAdd-1: src's shape and type; bias holds one value per channel (data_format).
func dnnlBiasAdd(c *ctx) error {
	in, axis, ok, err := channelsOf(c)
	if err != nil || !ok {
		return err
	}
	if _, err := channelParam(c, 1, in.Shape.Dims[axis], "bias"); err != nil {
		return err
	}
	c.Out(0, fileType, in.Shape)
	return nil
}

// dnnlBiasAddBackward: BiasAddBackward-1 (spelt BiasAddBackprop by benchdnn's files): diff_bias
// is [C], the channels of diff_dst (data_format).
func dnnlBiasAddBackward(c *ctx) error {
	in, axis, ok, err := channelsOf(c)
	if err != nil || !ok {
		return err
	}
	c.Out(0, fileType, sym.ShapeOf(in.Shape.Dims[axis]))
	return nil
}

// dnnlGenIndex: GenIndex-1: the index of each element along axis, s32, of src's shape.
func dnnlGenIndex(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, err := axisOf(c, in); err != nil {
		return err
	}
	c.Out(0, element.I32, in.Shape)
	return nil
}

// dnnlDropout: Dropout-1 (src, seed, offset, probability: the last three scalars or one value):
// dst, and the mask (u8) when the node has a second output, have src's shape.
func dnnlDropout(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	for i, in := range ins[1:] {
		if !in.Shape.RankDynamic {
			if n, ok := in.Shape.Volume().Static(); ok && n != 1 {
				return c.Errorf(errcode.ErrInvalidShape, "input %d has %d elements: want one value", i+1, n)
			}
		}
	}
	c.Out(0, fileType, ins[0].Shape)
	if c.NumOut() > 1 {
		c.Out(1, element.U8, ins[0].Shape)
	}
	return nil
}
