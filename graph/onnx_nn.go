package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxNN holds the rules of ONNX's convolution and pooling operators: a window slides over the
// spatial axes (those after N and C) of the input, and each output size is an expression in the
// input's: floor((H + pads - dilation*(k-1) - 1)/stride) + 1, (H+1)//2 for k=3, pad 1, stride 2.
var onnxNN = table{"", []opDef{
	{"Conv", since(1, 11), span(2, 3), fixed(1), 0, conv},
	{"ConvInteger", since(10), span(2, 4), fixed(1), 0, convInteger},
	{"QLinearConv", since(10), span(8, 9), fixed(1), 0, qlinearConv},
	{"ConvTranspose", since(1, 11), span(2, 3), fixed(1), 0, convTranspose},
	{"MaxPool", since(1), fixed(1), fixed(1), 0, pool},
	{"MaxPool", since(8, 10, 11, 12), fixed(1), span(1, 2), 0, pool},
	{"AveragePool", since(1, 7, 10, 11, 19), fixed(1), fixed(1), 0, pool},
	{"LpPool", since(1, 2, 11, 18), fixed(1), fixed(1), 0, pool},
	{"GlobalAveragePool", since(1), fixed(1), fixed(1), 0, globalPool},
	{"GlobalMaxPool", since(1), fixed(1), fixed(1), 0, globalPool},
	{"GlobalLpPool", since(1, 2), fixed(1), fixed(1), 0, globalPool},
	{"MaxUnpool", since(9, 11), span(2, 3), fixed(1), reads(2), maxUnpool},
	{"DeformConv", since(19), span(3, 5), fixed(1), 0, deformConv},
	{"MaxRoiPool", since(1), fixed(2), fixed(1), 0, maxRoiPool},
}}

// windowAttrs tells readWindow which attributes the node's operator and version have.
type windowAttrs struct {
	dilations, ceilMode, pool bool
}

// readWindow reads the window attributes of a node over n spatial axes: auto_pad, strides,
// dilations and ceil_mode (where the version has them) and pads; kernel holds the kernel sizes.
// A list of the wrong length or a value out of range is an error wrapping errcode.ErrInvalidShape;
// an auto_pad other than the four, or one other than NOTSET with pads on a convolution (which
// onnxruntime refuses; a pooling node ignores pads then, as onnxruntime does), an error wrapping
// errcode.ErrSyntax. A kernel size below 1 is an error wrapping errcode.ErrInvalidShape; one in the
// symbols that may be below 1 (K-2) is required to be at least 1.
func readWindow(c *ctx, n int, kernel []sym.Dim, has windowAttrs) (*window, error) {
	w := &window{kernel: kernel, pool: has.pool}
	var err error
	if w.autoPad, err = c.String("auto_pad", "NOTSET"); err != nil {
		return nil, err
	}
	switch w.autoPad {
	case "", "NOTSET":
		w.autoPad = "NOTSET"
	case "SAME_UPPER", "SAME_LOWER", "VALID":
	default:
		return nil, c.Errorf(errcode.ErrSyntax, "auto_pad %q is none of NOTSET, SAME_UPPER, SAME_LOWER, VALID", w.autoPad)
	}
	if w.strides, err = windowInts(c, "strides", n, 1, 1); err != nil {
		return nil, err
	}
	w.dilations = filled(n, 1)
	if has.dilations {
		if w.dilations, err = windowInts(c, "dilations", n, 1, 1); err != nil {
			return nil, err
		}
	}
	if _, explicit := c.n.Attr("pads"); explicit && w.autoPad != "NOTSET" && !has.pool {
		return nil, c.Errorf(errcode.ErrSyntax, "auto_pad %s and pads: %s takes one or the other", w.autoPad, c.n.Op)
	}
	if w.pads, err = windowInts(c, "pads", 2*n, 0, 0); err != nil {
		return nil, err
	}
	if has.ceilMode {
		cm, err := c.Int("ceil_mode", 0)
		if err != nil {
			return nil, err
		}
		w.ceil = cm != 0
	}
	for i, k := range kernel {
		if err := requireAtLeast(c, k, 1, "kernel size along spatial axis "+itoa(i)); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// dimsOf returns a copy of the dims of in, rank r, unknown dims when its rank is not known, as
// ctx.dims gives them (current after a unification).
func dimsOf(c *ctx, in *Info, r int) []sym.Dim {
	if !in.Shape.RankDynamic {
		return c.clone(in.Shape.Dims)
	}
	out := c.dims(r)
	for i := range out {
		out[i] = sym.Unknown()
	}
	return out
}

// conv: Conv-1, -11, -22: X [N, C, D1..Dn] and W [M, C/group, k1..kn] give [N, M, O1..On], each
// Oi as window.out. C unifies with W's channels times group, kernel_shape with W's spatial dims,
// the bias B [M] with M. auto_pad SAME_* with dilations gives ceil(in/stride) as ONNX specifies
// (onnxruntime refuses the node).
func conv(c *ctx) error { return convOp(c, 0, 1, 2, element.Undefined) }

// convInteger: ConvInteger-10: Conv of integers (inputs x, w, x_zero_point, w_zero_point), an
// int32 output.
func convInteger(c *ctx) error { return convOp(c, 0, 1, -1, element.I32) }

// qlinearConv: QLinearConv-10: Conv of quantized tensors (x, x_scale, x_zero_point, w, w_scale,
// w_zero_point, y_scale, y_zero_point, B), an output of y_zero_point's type.
func qlinearConv(c *ctx) error {
	zp, err := c.Input(7)
	if err != nil {
		return err
	}
	return convOp(c, 0, 3, 8, zp.Type)
}

// convOp infers a convolution whose data, weight and bias are inputs xi, wi and bi (bi < 0: none),
// of output type t (element.Undefined: the data's).
func convOp(c *ctx, xi, wi, bi int, t element.Type) error { return convLayout(c, xi, wi, bi, t, false) }

// convLayout infers a convolution as convOp does; with last, the data is channels last
// [N, D1..Dn, C] and so is the output [N, O1..On, M].
func convLayout(c *ctx, xi, wi, bi int, t element.Type, last bool) error {
	x, err := c.Input(xi)
	if err != nil {
		return err
	}
	w, err := c.Input(wi)
	if err != nil {
		return err
	}
	if t == element.Undefined {
		t = x.Type
	}
	r, ok, err := convRank(c, x, xi, w, wi)
	if err != nil || !ok {
		if ok {
			c.Out(0, t, sym.DynamicRank())
		}
		return err
	}
	group, err := convGroup(c)
	if err != nil {
		return err
	}
	xd, wd := dimsOf(c, x, r), dimsOf(c, w, r)
	if last {
		xd = nhwc(c, xd)
	}
	m := wd[0]
	if err := requireMultiple(c, m, group, "W's output channels (dim 0) a multiple of group "+itoa(int(group))); err != nil {
		return err
	}
	if _, err := c.Unify(xd[1], sym.MulDims(wd[1], sym.Const(group)), "input channels and W's channels times group"); err != nil {
		return err
	}
	if bi >= 0 {
		if m, err = channelParam(c, bi, m, "the bias"); err != nil {
			return err
		}
	}
	kernel, err := convKernel(c, wd[2:])
	if err != nil {
		return err
	}
	win, err := readWindow(c, r-2, kernel, windowAttrs{dilations: true})
	if err != nil {
		return err
	}
	out := []sym.Dim{xd[0], m}
	for i, d := range xd[2:] {
		o, err := win.out(c, i, d)
		if err != nil {
			return err
		}
		out = append(out, o)
	}
	if last {
		out = channelsLast(out)
	}
	c.Out(0, t, sym.ShapeOf(out...))
	return nil
}

// deformConv: DeformConv-19: Conv of X [N, C, D1..Dn] and W [M, C/group, k1..kn] with bias B
// (input 3), whose output [N, M, O1..On] the offset (input 2) [N, offset_group*n*k1*..*kn,
// O1..On] and the mask (input 4) [N, offset_group*k1*..*kn, O1..On] share: their N and Oi unify
// with the output's.
func deformConv(c *ctx) error {
	if err := convOp(c, 0, 1, 3, element.Undefined); err != nil {
		return err
	}
	for _, i := range []int{2, 4} {
		if err := unifyWithOutput(c, i, 1); err != nil {
			return err
		}
	}
	return nil
}

// unifyWithOutput unifies the dims of input i, when given, with those of output 0, of its rank,
// but the dim skip (-1: none).
func unifyWithOutput(c *ctx, i, skip int) error {
	y, in := c.out[0], c.In(i)
	if y == nil || y.Shape.RankDynamic || in == nil {
		return nil
	}
	if _, _, err := c.RequireRank(in, i, len(y.Shape.Dims), len(y.Shape.Dims)); err != nil {
		return err
	}
	if in.Shape.RankDynamic {
		return nil
	}
	for k, d := range y.Shape.Dims {
		if k == skip {
			continue
		}
		if _, err := c.Unify(d, in.Shape.Dims[k], "the output's dim "+itoa(k)+" and input "+itoa(i)+"'s"); err != nil {
			return err
		}
	}
	return nil
}

// maxRoiPool: MaxRoiPool-1: X [N, C, H, W] and the rois [num_rois, 5] give [num_rois, C,
// pooled_shape...]; pooled_shape, two positive sizes, is required.
func maxRoiPool(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	ps, ok, err := c.Ints("pooled_shape")
	if err != nil {
		return err
	}
	if !ok || len(ps) != 2 || ps[0] < 1 || ps[1] < 1 {
		return c.Errorf(errcode.ErrSyntax, "attribute pooled_shape %v: want two positive sizes", ps)
	}
	ch, rois := sym.Unknown(), sym.Unknown()
	if _, ok, err := c.RequireRank(ins[0], 0, 4, 4); err != nil {
		return err
	} else if ok {
		ch = ins[0].Shape.Dims[1]
	}
	if _, ok, err := c.RequireRank(ins[1], 1, 2, 2); err != nil {
		return err
	} else if ok {
		if _, err := c.Unify(ins[1].Shape.Dims[1], sym.Const(5), "the rois' last dim"); err != nil {
			return err
		}
		rois = ins[1].Shape.Dims[0]
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(rois, ch, sym.Const(ps[0]), sym.Const(ps[1])))
	return nil
}

// convRank returns the common rank of a convolution's data and weight, at least 3; ok is false
// (with no error) when neither rank is known.
func convRank(c *ctx, x *Info, xi int, w *Info, wi int) (r int, ok bool, err error) {
	xr, xok, err := c.RequireRank(x, xi, 3, -1)
	if err != nil {
		return 0, true, err
	}
	wr, wok, err := c.RequireRank(w, wi, 3, -1)
	if err != nil {
		return 0, true, err
	}
	switch {
	case xok && wok && xr != wr:
		return 0, true, c.Errorf(errcode.ErrInvalidShape, "input %d has rank %d and W (input %d) rank %d: they must be equal", xi, xr, wi, wr)
	case xok:
		return xr, true, nil
	case wok:
		return wr, true, nil
	}
	return 0, false, nil
}

func convGroup(c *ctx) (int64, error) {
	group, err := c.Int("group", 1)
	if err != nil {
		return 0, err
	}
	if group < 1 {
		return 0, c.Errorf(errcode.ErrInvalidShape, "group %d is less than 1", group)
	}
	return group, nil
}

// convKernel returns the kernel of a convolution: W's spatial dims, unified with the kernel_shape
// attribute when the node has it.
func convKernel(c *ctx, wd []sym.Dim) ([]sym.Dim, error) {
	ks, ok, err := c.Ints("kernel_shape")
	if err != nil || !ok {
		return wd, err
	}
	if len(ks) != len(wd) {
		return nil, c.Errorf(errcode.ErrInvalidShape, "kernel_shape %v has %d values, W has %d spatial axes", ks, len(ks), len(wd))
	}
	out := c.dims(len(wd))
	for i, k := range ks {
		d, err := c.Unify(wd[i], sym.Const(k), "kernel_shape["+itoa(i)+"] and W's dim "+itoa(i+2))
		if err != nil {
			return nil, err
		}
		out[i] = d
	}
	return out, nil
}

// convTranspose: ConvTranspose-1, -11, -22: X [N, C, D1..Dn] and W [C, M/group, k1..kn] give
// [N, M, O1..On]: Oi is output_shape's value when the node has that attribute (n spatial values, or
// n+2 with N and C first), else stride*(in-1) + output_padding + dilation*(k-1) + 1 - pad_begin -
// pad_end, with no pads for auto_pad VALID. auto_pad SAME_* pads that to in*stride where it is
// less, and leaves it where it is more (a kernel and output_padding shorter than the stride), as
// onnxruntime does. Each spatial axis of X is not empty unless N is 0: onnxruntime 1.20.1 refuses
// [1,1,0] (or crashes, kernel 3), and runs [0,1,0] (bench/random r3_0099).
func convTranspose(c *ctx) error {
	if _, err := c.Inputs(2); err != nil {
		return err
	}
	x, w := c.In(0), c.In(1)
	r, ok, err := convRank(c, x, 0, w, 1)
	if err != nil || !ok {
		if ok {
			c.Out(0, x.Type, sym.DynamicRank())
		}
		return err
	}
	group, err := convGroup(c)
	if err != nil {
		return err
	}
	xd, wd := dimsOf(c, x, r), dimsOf(c, w, r)
	if err := requireMultiple(c, wd[0], group, "W's input channels (dim 0) a multiple of group "+itoa(int(group))); err != nil {
		return err
	}
	if _, err := c.Unify(xd[1], wd[0], "input channels and W's dim 0"); err != nil {
		return err
	}
	m := sym.MulDims(wd[1], sym.Const(group))
	if m, err = channelParam(c, 2, m, "the bias"); err != nil {
		return err
	}
	kernel, err := convKernel(c, wd[2:])
	if err != nil {
		return err
	}
	n := r - 2
	win, err := readWindow(c, n, kernel, windowAttrs{dilations: true})
	if err != nil {
		return err
	}
	outPad, err := windowInts(c, "output_padding", n, 0, 0)
	if err != nil {
		return err
	}
	shape, given, err := c.Ints("output_shape")
	if err != nil {
		return err
	}
	if given && len(shape) != n && len(shape) != n+2 {
		return c.Errorf(errcode.ErrInvalidShape, "output_shape %v has %d values, want %d or %d", shape, len(shape), n, n+2)
	}
	out := []sym.Dim{xd[0], m}
	for i, in := range xd[2:] {
		if !emptyColumnRuns(n, win, outPad[i], shape, given, i) {
			if err := requireNotEmptyUnless(c, in, xd[0], "spatial axis "+itoa(i)+" (axis "+itoa(i+2)+") of size "+in.String()+" not empty where N is not: onnxruntime has no column of it"); err != nil {
				return err
			}
		}
		var d sym.Dim
		s := sym.Const(win.strides[i])
		switch {
		case given:
			d = sym.Const(shape[len(shape)-n+i])
		default:
			pads := win.pads[i] + win.pads[i+n]
			if win.autoPad != "NOTSET" {
				pads = 0
			}
			d = sym.MulDims(s, sym.SubDims(in, sym.Const(1)))
			d = sym.AddDims(d, sym.AddDims(win.effKernel(i), sym.Const(outPad[i]-pads)))
			if win.autoPad == "SAME_UPPER" || win.autoPad == "SAME_LOWER" {
				// d - in*stride is effKernel + output_padding - stride, whatever in is: where its
				// sign is known, the min is one of the two.
				switch lo, hi := sym.AddDims(win.effKernel(i), sym.Const(outPad[i]-win.strides[i])).Bounds(); {
				case lo >= 0:
					d = sym.MulDims(in, s)
				case hi >= 0:
					d = sym.MinDims(sym.MulDims(in, s), d)
				}
			}
		}
		if d, err = windowSize(c, i, in, d); err != nil {
			return err
		}
		out = append(out, d)
	}
	c.Out(0, x.Type, sym.ShapeOf(out...))
	return nil
}

// emptyColumnRuns reports whether onnxruntime 1.20.1 runs a ConvTranspose of n spatial axes whose
// axis i is empty where N is not (its output size, which the rule states at least 1, aside).
// Probed with onnxruntime-node: of 1 or 3 spatial axes it fails or crashes ("NextPosition");
// of 2 it runs where its col2im counts 0 columns for the axis, trunc(((in-1)*s + adj)/s) + 1 with
// in = 0, which is where output_padding adj is 0 (bench/random r0_0058: H//4 at H == 1 through
// kernel 4 and pads 1, 1 runs, [1,1,1,W+2]); with an output_shape Y, where adj is 0 and Y is at
// most the dilated kernel less the stride (the pads then make up the rest), else it crashes.
func emptyColumnRuns(n int, win *window, adj int64, shape []int64, given bool, i int) bool {
	if n != 2 || adj != 0 {
		return false
	}
	if !given {
		return true
	}
	k, ok := win.effKernel(i).Static()
	return ok && shape[len(shape)-n+i]+win.strides[i] <= k
}

// pool: MaxPool-1, -8 (Indices output, storage_order), -10 (ceil_mode, dilations), -11, -12,
// -22; AveragePool-1, -7 (count_include_pad), -10 (ceil_mode), -11, -19 (dilations), -22;
// LpPool-1, -2, -11, -18 (ceil_mode, dilations), -22. X [N, C, D1..Dn] gives [N, C, O1..On], each
// Oi as window.out over kernel_shape (0 is an empty output, as onnxruntime makes it); MaxPool's
// Indices are int64 of that shape. With auto_pad SAME_* or VALID, pads are ignored, as onnxruntime
// does. Every dim of X but N must be at least 1 (poolInput).
func pool(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	op, v := c.n.Op, c.Version()
	ks, ok, err := c.Ints("kernel_shape")
	if err != nil {
		return err
	}
	if !ok {
		return c.Errorf(errcode.ErrSyntax, "attribute kernel_shape is missing: %s takes it", op)
	}
	n := len(ks)
	if err := kernelRank(c, x, ks); err != nil {
		return err
	}
	var dil, ceil int64
	switch op {
	case "MaxPool":
		dil, ceil = 10, 10
	case "AveragePool":
		dil, ceil = 19, 10
	case "LpPool":
		dil, ceil = 18, 18
	}
	if err := attrSince(c, "dilations", dil); err != nil {
		return err
	}
	if err := attrSince(c, "ceil_mode", ceil); err != nil {
		return err
	}
	has := windowAttrs{dilations: v >= dil, ceilMode: v >= ceil, pool: true}
	win, err := readWindow(c, n, constDims(ks), has)
	if err != nil {
		return err
	}
	xd := dimsOf(c, x, n+2)
	if err := poolInput(c, xd); err != nil {
		return err
	}
	out := []sym.Dim{xd[0], xd[1]}
	for i, d := range xd[2:] {
		o, err := win.out(c, i, d)
		if err != nil {
			return err
		}
		out = append(out, o)
	}
	s := sym.ShapeOf(out...)
	c.Out(0, x.Type, s)
	c.Out(1, element.I64, s)
	return nil
}

// kernelRank checks that x has one spatial axis or more, one per value of kernel_shape.
func kernelRank(c *ctx, x *Info, ks []int64) error {
	if len(ks) == 0 {
		return c.Errorf(errcode.ErrInvalidShape, "kernel_shape is empty: %s takes one spatial axis or more", c.n.Op)
	}
	if r, ok := x.Rank(); ok && r != len(ks)+2 {
		return c.Errorf(errcode.ErrInvalidShape, "input 0 has rank %d, kernel_shape %v wants %d", r, ks, len(ks)+2)
	}
	return nil
}

// globalPool: GlobalAveragePool-1, -22, GlobalMaxPool-1, -22, GlobalLpPool-1, -2, -22: X
// [N, C, D1..Dn] gives [N, C, 1..1]. An empty axis but N is an error wrapping
// errcode.ErrInvalidShape, as onnxruntime refuses it, and required not to be where the symbols
// decide it (poolInput).
func globalPool(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	_, ok, err := c.RequireRank(x, 0, 3, -1)
	if err != nil || !ok {
		if err == nil {
			c.Out(0, x.Type, sym.DynamicRank())
		}
		return err
	}
	if err := poolInput(c, x.Shape.Dims); err != nil {
		return err
	}
	out := []sym.Dim{x.Shape.Dims[0], x.Shape.Dims[1]}
	for range x.Shape.Dims[2:] {
		out = append(out, sym.Const(1))
	}
	c.Out(0, x.Type, sym.ShapeOf(out...))
	return nil
}

// maxUnpool: MaxUnpool-9, -11, -22: X [N, C, D1..Dn] and the indices I of X's shape give
// [N, C, O1..On] with Oi = (in-1)*stride + k - pad_begin - pad_end (at least 0: unpoolSize), or the
// shape the output_shape input holds. onnxruntime 1.20.1 (Unpool.cc) compares volumes, not dims: it refuses an output_shape
// whose volume is below the first shape's ("output_shape is smaller than minimum required"), and
// one that holds a negative value, whose volume it takes as -1 (bench/truth shape_negative: [N,2,M-3]
// after a pooling of [N,1,M] by 2 runs exactly when M >= 5). Both are conditions of the node; an
// output_shape that never passes, an error wrapping errcode.ErrInvalidShape.
func maxUnpool(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	x := ins[0]
	ks, ok, err := c.Ints("kernel_shape")
	if err != nil {
		return err
	}
	if !ok {
		return c.Errorf(errcode.ErrSyntax, "attribute kernel_shape is missing: MaxUnpool takes it")
	}
	n := len(ks)
	if err := kernelRank(c, x, ks); err != nil {
		return err
	}
	win, err := readWindow(c, n, constDims(ks), windowAttrs{})
	if err != nil {
		return err
	}
	xd := dimsOf(c, x, n+2)
	if !ins[1].Shape.RankDynamic {
		for i := range xd {
			if i < len(ins[1].Shape.Dims) {
				if xd[i], err = c.Unify(xd[i], ins[1].Shape.Dims[i], "X and I dim "+itoa(i)); err != nil {
					return err
				}
			}
		}
	}
	out := []sym.Dim{xd[0], xd[1]}
	for i, in := range xd[2:] {
		d := sym.MulDims(sym.SubDims(in, sym.Const(1)), sym.Const(win.strides[i]))
		d = sym.AddDims(d, sym.Const(ks[i]-win.pads[i]-win.pads[i+n]))
		if c.In(2) == nil {
			if d, err = unpoolSize(c, i, in, d); err != nil {
				return err
			}
		}
		out = append(out, d)
	}
	if c.In(2) == nil {
		c.Out(0, x.Type, sym.ShapeOf(out...))
		return nil
	}
	s, err := shapeFromValue(c, 2)
	if err != nil {
		return err
	}
	if err := unpoolVolume(c, s, out); err != nil {
		return err
	}
	c.Out(0, x.Type, s)
	return nil
}

// unpoolSize checks the output size d of spatial axis i of a MaxUnpool without output_shape, for
// the pooled size in: onnxruntime 1.20.1 runs a size of 0 (an empty output, from an empty input
// unpooled by kernel 2, stride 2) and refuses a negative one ("Tensor shape.Size() must be >= 0":
// kernel 1, stride 2 at an empty input; bench/truth unpool_empty). Below 0 is an error wrapping
// errcode.ErrInvalidShape; where the symbols decide it, d >= 0 is required. The size it returns
// has its bounds at least 0.
func unpoolSize(c *ctx, i int, in, d sym.Dim) (sym.Dim, error) {
	why := "spatial axis " + itoa(i) + " (axis " + itoa(i+2) + "): the output size " + d.String() + " of pooled size " + in.String() + " at least 0"
	if err := requireAtLeast(c, d, 0, why); err != nil {
		return d, err
	}
	nd, _ := d.NonNegative()
	return nd, nil
}

// unpoolVolume states that the volume of s, MaxUnpool's output_shape (its values not negative),
// is at least that of first, the shape that X and the window give, as onnxruntime 1.20.1 needs.
// A dim of first that may be negative makes onnxruntime's volume -1, which any output_shape
// passes: the condition is then not stated, and the loss is recorded. Volumes that are no
// expression are not stated either: a dim not known exactly is a loss recorded already
// (recordedElsewhere).
func unpoolVolume(c *ctx, s sym.Shape, first []sym.Dim) error {
	if s.RankDynamic || recordedElsewhere(s.Dims, first) {
		return nil
	}
	for _, d := range first {
		if lo, _ := d.Bounds(); lo < 0 {
			c.Lost("a dim of the shape X gives, " + d.String() + ", may be negative: onnxruntime's MaxUnpool then passes any output_shape")
			return nil
		}
	}
	w := sym.ShapeOf(first...).Volume()
	x, ok1 := s.Volume().Expr()
	y, ok2 := w.Expr()
	if !ok1 || !ok2 {
		return nil
	}
	return c.Require(sym.Ge(x, y), "onnxruntime's MaxUnpool: the volume of output_shape is at least "+w.String())
}

// attrSince returns an error wrapping errcode.ErrSyntax when the node has the attribute name and its
// version is older than v, the first that has it: onnxruntime refuses such a node.
func attrSince(c *ctx, name string, v int64) error {
	if _, ok := c.n.Attr(name); ok && c.Version() < v {
		return c.Errorf(errcode.ErrSyntax, "attribute %s: %s-%d has none (it has one from version %d)", name, c.n.Op, c.Version(), v)
	}
	return nil
}
