package graph

import (
	"slices"
	"strings"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoNN holds the rules of OpenVINO IR layers of networks whose outputs have shapes only:
// convolutions, pooling, MatMul, the normalizations and softmax-like layers (whose output has the
// type and shape of input 0: ovUnary), and the SSD layers PriorBoxClustered and DetectionOutput.
var openvinoNN = table{DomainOpenVINO, []opDef{
	{"Convolution", since(1), fixed(2), fixed(1), 0, ovConvolution},
	{"GroupConvolution", since(1), fixed(2), fixed(1), 0, ovConvolution},
	{"MaxPool", since(1), fixed(1), fixed(1), 0, ovPool},
	{"MaxPool", since(8, 14), fixed(1), span(1, 2), 0, ovPool},
	{"AvgPool", since(1, 14), fixed(1), fixed(1), 0, ovPool},
	{"MatMul", since(1), fixed(2), fixed(1), 0, ovMatMul},
	{"Softmax", since(1, 8), fixed(1), fixed(1), 0, ovUnary},
	{"LogSoftmax", since(5), fixed(1), fixed(1), 0, ovUnary},
	{"MVN", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"MVN", since(6), fixed(2), fixed(1), 0, ovUnary},
	{"NormalizeL2", since(1), fixed(2), fixed(1), 0, ovUnary},
	{"LRN", since(1), fixed(2), fixed(1), 0, ovUnary},
	{"GRN", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"PriorBoxClustered", since(1), fixed(2), fixed(1), reads(0), ovPriorBoxClustered},
	{"DetectionOutput", since(1, 8), span(3, 5), fixed(1), 0, ovDetectionOutput},
}}

// ovWindow reads the window attributes of a convolution or pooling layer over the spatial axes of
// kernel (its sizes): strides (required), dilations (1 when absent), pads_begin and pads_end (0
// when absent, and ignored unless auto_pad is explicit), auto_pad (explicit, same_upper,
// same_lower or valid), and for pooling rounding_type (floor, or ceil: ceil is true); ok is false
// for a rounding this rule does not know (MaxPool-14's ceil_torch). The window is ONNX's, whose
// sizes are OpenVINO's too (window.out).
func ovWindow(c *ctx, kernel []sym.Dim, pooling bool) (w *window, ceil, ok bool, err error) {
	n := len(kernel)
	if _, given := c.n.Attr("strides"); !given {
		return nil, false, false, c.Errorf(errcode.ErrSyntax, "%s has no strides attribute", c.n.Op)
	}
	w = &window{kernel: kernel, pads: make([]int64, 2*n)}
	if w.strides, err = windowInts(c, "strides", n, 1, 1); err != nil {
		return nil, false, false, err
	}
	if w.dilations, err = windowInts(c, "dilations", n, 1, 1); err != nil {
		return nil, false, false, err
	}
	begin, err := windowInts(c, "pads_begin", n, 0, 0)
	if err != nil {
		return nil, false, false, err
	}
	end, err := windowInts(c, "pads_end", n, 0, 0)
	if err != nil {
		return nil, false, false, err
	}
	autoPad, err := c.String("auto_pad", "explicit")
	if err != nil {
		return nil, false, false, err
	}
	switch autoPad {
	case "explicit", "notset", "":
		w.autoPad = "NOTSET"
		copy(w.pads, begin)
		copy(w.pads[n:], end)
	case "valid", "same_upper", "same_lower":
		w.autoPad = strings.ToUpper(autoPad)
	default:
		return nil, false, false, c.Errorf(errcode.ErrSyntax, "auto_pad %q: want explicit, same_upper, same_lower or valid", autoPad)
	}
	if pooling {
		rounding, err := c.String("rounding_type", "floor")
		switch {
		case err != nil:
			return nil, false, false, err
		case rounding == "ceil":
			ceil = true
		case rounding != "floor":
			return nil, false, false, nil
		}
	}
	return w, ceil, true, nil
}

// ovWindowSize returns the output size of spatial axis i for the input size in: window.out's, or
// with ceil rounding ceil((in + pads - dilation·(k-1) - 1) / stride) + 1 (MaxPool-1, -8 and
// AvgPool-1 keep a last window that starts in the end padding). A size below 1 is an error
// wrapping errcode.ErrInvalidShape.
func ovWindowSize(c *ctx, w *window, ceil bool, i int, in sym.Dim) (sym.Dim, error) {
	if !ceil || w.autoPad == "SAME_UPPER" || w.autoPad == "SAME_LOWER" {
		return w.out(c, i, in)
	}
	n := len(w.strides)
	num := sym.SubDims(sym.AddDims(in, sym.Const(w.pads[i]+w.pads[i+n])), w.effKernel(i))
	return windowSize(c, i, in, sym.AddDims(ceilDiv(num, w.strides[i]), sym.Const(1)))
}

// ovConvolution: Convolution-1 (data [N,C,spatial...], filters [O,C,kernel...]) and
// GroupConvolution-1 (filters [G,O/G,C/G,kernel...]): [N,O,out...], each out the window's size
// (strides, dilations, pads_begin, pads_end, auto_pad); the input channels unify with the filters'.
func ovConvolution(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	data, filters := ins[0], ins[1]
	group := 0
	if c.n.Op == "GroupConvolution" {
		group = 1
	}
	rd, ok1 := data.Rank()
	rf, ok2 := filters.Rank()
	if !ok1 || !ok2 {
		return nil
	}
	spatial := rd - 2
	if spatial < 1 || rf != rd+group {
		return c.Errorf(errcode.ErrInvalidShape, "data of rank %d and filters of rank %d", rd, rf)
	}
	f := filters.Shape.Dims
	w, _, _, err := ovWindow(c, f[2+group:], false)
	if err != nil {
		return err
	}
	outC, inC := f[0], f[1]
	if group == 1 {
		outC, inC = sym.MulDims(f[0], f[1]), sym.MulDims(f[0], f[2])
	}
	if _, err := c.Unify(data.Shape.Dims[1], inC, "the input channels"); err != nil {
		return err
	}
	dims := []sym.Dim{data.Shape.Dims[0], outC}
	for i := range spatial {
		d, err := ovWindowSize(c, w, false, i, data.Shape.Dims[2+i])
		if err != nil {
			return err
		}
		dims = append(dims, d)
	}
	c.Out(0, data.Type, sym.ShapeOf(dims...))
	return nil
}

// ovPool: MaxPool-1, -8 (dilations, and a second output of indices of index_element_type) and
// AvgPool-1: [N,C,out...], each out the window's size for the kernel attribute, rounded by
// rounding_type.
func ovPool(c *ctx) error {
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	spatial := r - 2
	if spatial < 1 {
		return c.Errorf(errcode.ErrInvalidShape, "input of rank %d: pooling takes [N,C,spatial...]", r)
	}
	if _, given := c.n.Attr("kernel"); !given {
		return c.Errorf(errcode.ErrSyntax, "%s has no kernel attribute", c.n.Op)
	}
	kernel, err := windowInts(c, "kernel", spatial, 1, 1)
	if err != nil {
		return err
	}
	w, ceil, ok, err := ovWindow(c, constDims(kernel), true)
	if err != nil || !ok {
		return err
	}
	dims := slices.Clone(in.Shape.Dims[:2])
	for i := range spatial {
		d, err := ovWindowSize(c, w, ceil, i, in.Shape.Dims[2+i])
		if err != nil {
			return err
		}
		dims = append(dims, d)
	}
	s := sym.ShapeOf(dims...)
	c.Out(0, in.Type, s)
	if c.n.Op == "MaxPool" && c.Version() >= 8 {
		t, err := ovType(c, "index_element_type", element.I64)
		if err != nil {
			return err
		}
		c.Out(1, t, sym.ShapeOf(slices.Clone(dims)...))
	}
	return nil
}

// ovMatMul: MatMul-1: the last two dims of each input (transposed by transpose_a, transpose_b)
// multiply, their inner dims unifying; a 1-D input is a row (the first) or a column (the second)
// whose added dim leaves the output; the other dims broadcast.
func ovMatMul(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	ta, err := ovBool(c, "transpose_a", false)
	if err != nil {
		return err
	}
	tb, err := ovBool(c, "transpose_b", false)
	if err != nil {
		return err
	}
	dims, ok, err := matMulDims(c, ins[0], ins[1], ta, tb)
	if err != nil || !ok {
		return err
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(dims...))
	return nil
}

// ovPriorBoxClustered: PriorBoxClustered-1: [2, 4·H·W·P] for the output size [H,W] (input 0's
// values) and the P priors of the width attribute, f32.
func ovPriorBoxClustered(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	w, given, err := c.Floats("width")
	if err != nil || !given {
		return err
	}
	hw := ins[0].Value
	if len(hw) != 2 {
		return nil
	}
	n := sym.MulDims(sym.MulDims(sym.Const(int64(4*len(w))), hw[0]), hw[1])
	c.Out(0, element.F32, sym.ShapeOf(sym.Const(2), n))
	return nil
}

// ovDetectionOutput: DetectionOutput-1, -8: [1, 1, N·keep_top_k[0], 7] for the batch N of the box
// logits (input 0) when keep_top_k[0] is positive; otherwise the declared shape.
func ovDetectionOutput(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	k, given, err := c.Ints("keep_top_k")
	if err != nil || !given || len(k) == 0 || k[0] <= 0 {
		return err
	}
	if r, ok := in.Rank(); !ok || r == 0 {
		return nil
	}
	n := sym.MulDims(in.Shape.Dims[0], sym.Const(k[0]))
	c.Out(0, in.Type, sym.ShapeOf(sym.Const(1), sym.Const(1), n, sym.Const(7)))
	return nil
}
