package graph

import (
	"slices"
	"strings"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoConv holds the rules of OpenVINO IR's convolutions and poolings: a window slides over
// the spatial axes (those after N and C) of a 3-D, 4-D or 5-D input, and each output size is an
// expression in the input's (window.go's kernels, as ONNX's Conv and pooling rules use them).
var openvinoConv = table{DomainOpenVINO, []opDef{
	{"Convolution", since(1), fixed(2), fixed(1), 0, ovConvolution},
	{"GroupConvolution", since(1), fixed(2), fixed(1), 0, ovConvolution},
	{"BinaryConvolution", since(1), fixed(2), fixed(1), 0, ovConvolution},
	{"DeformableConvolution", since(1), fixed(3), fixed(1), 0, ovConvolution},
	{"DeformableConvolution", since(8), span(3, 4), fixed(1), 0, ovConvolution},
	{"ConvolutionBackpropData", since(1), span(2, 3), fixed(1), reads(2), ovConvolutionBackprop},
	{"GroupConvolutionBackpropData", since(1), span(2, 3), fixed(1), reads(2), ovConvolutionBackprop},
	{"MaxPool", since(1), fixed(1), fixed(1), 0, ovPool},
	{"MaxPool", since(8, 14), fixed(1), span(1, 2), 0, ovPool},
	{"AvgPool", since(1, 14, 16), fixed(1), fixed(1), 0, ovPool},
	{"AdaptiveAvgPool", since(8), fixed(2), fixed(1), reads(1), ovAdaptivePool},
	{"AdaptiveMaxPool", since(8), fixed(2), span(1, 2), reads(1), ovAdaptivePool},
}}

// ovWindow reads the window attributes of a convolution or pooling layer over n spatial axes of
// the kernel sizes kernel: strides (required), dilations (1 when absent), pads_begin and pads_end
// (0 when absent, and ignored unless auto_pad is explicit) and auto_pad (explicit, same_upper,
// same_lower or valid). A list of another length than n is an error wrapping
// errcode.ErrInvalidShape. The window is ONNX's, whose sizes are OpenVINO's (window.out).
func ovWindow(c *ctx, kernel []sym.Dim) (*window, error) {
	n := len(kernel)
	if _, given := c.n.Attr("strides"); !given {
		return nil, c.Errorf(errcode.ErrSyntax, "%s has no strides attribute", c.n.Op)
	}
	w := &window{kernel: kernel, pads: make([]int64, 2*n)}
	var err error
	if w.strides, err = windowInts(c, "strides", n, 1, 1); err != nil {
		return nil, err
	}
	if w.dilations, err = windowInts(c, "dilations", n, 1, 1); err != nil {
		return nil, err
	}
	begin, err := windowInts(c, "pads_begin", n, 0, 0)
	if err != nil {
		return nil, err
	}
	end, err := windowInts(c, "pads_end", n, 0, 0)
	if err != nil {
		return nil, err
	}
	autoPad, err := c.String("auto_pad", "explicit")
	if err != nil {
		return nil, err
	}
	switch autoPad {
	case "explicit", "notset", "":
		w.autoPad = "NOTSET"
		copy(w.pads, begin)
		copy(w.pads[n:], end)
	case "valid", "same_upper", "same_lower":
		w.autoPad = strings.ToUpper(autoPad)
	default:
		return nil, c.Errorf(errcode.ErrSyntax, "auto_pad %q: want explicit, same_upper, same_lower or valid", autoPad)
	}
	return w, nil
}

// ovSpatial returns the number of spatial axes of a convolution: the data's rank less 2, the
// filters' rank less 2 and less extra (1 for a group's), or the length of the strides attribute;
// ok is false when none is known. A data rank outside 3 to 5, or ranks of data and filters that
// disagree, are an error wrapping errcode.ErrInvalidShape.
func ovSpatial(c *ctx, data, filters *Info, extra int) (n int, ok bool, err error) {
	rd, dok := data.Rank()
	rf, fok := filters.Rank()
	switch {
	case dok && (rd < 3 || rd > 5):
		return 0, false, c.Errorf(errcode.ErrInvalidShape, "the data has rank %d: want a 3-D, 4-D or 5-D tensor", rd)
	case dok && fok && rf != rd+extra:
		return 0, false, c.Errorf(errcode.ErrInvalidShape, "data of rank %d and filters of rank %d: want filters of rank %d", rd, rf, rd+extra)
	case dok:
		return rd - 2, true, nil
	case fok && rf-2-extra >= 1:
		return rf - 2 - extra, true, nil
	case fok:
		return 0, false, c.Errorf(errcode.ErrInvalidShape, "filters of rank %d: want %d or more", rf, 3+extra)
	}
	s, given, err := c.Ints("strides")
	if err != nil || !given || len(s) == 0 {
		return 0, false, err
	}
	return len(s), true, nil
}

// ovDimsOf returns the n dims of in from axis at (its last n when at is negative), unknown dims
// when its rank is not known.
func ovDimsOf(c *ctx, in *Info, at, n int) []sym.Dim {
	out := c.dims(n)
	r, ok := in.Rank()
	if at < 0 {
		at = r - n
	}
	for i := range out {
		out[i] = sym.Unknown()
		if ok {
			out[i] = in.Shape.Dims[at+i]
		}
	}
	return out
}

// ovConvolution: Convolution-1, BinaryConvolution-1 (data [N,C,spatial...], filters
// [O,C,kernel...]), GroupConvolution-1 (filters [G,O/G,C/G,kernel...]) and DeformableConvolution-1,
// -8 (filters [O,C/group,kernel...], group and deformable_group attributes, the offsets
// [N,2·deformable_group·∏kernel,out...] and at -8 the mask [N,deformable_group·∏kernel,out...]):
// [N,O,out...], each out the window's size of strides, dilations, pads_begin, pads_end and
// auto_pad over the data's spatial dims. The input channels unify with the filters'. The rank
// follows from the data's, the filters' or the strides'; dims of an input of unknown rank are
// unknown. A group or deformable_group below 1 is an error wrapping errcode.ErrSyntax.
func ovConvolution(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	data, fi := ins[0], 1
	deformable := strings.HasPrefix(c.n.Op, "Deformable")
	if deformable {
		fi = 2
	}
	filters, err := c.Input(fi)
	if err != nil {
		return err
	}
	extra := 0
	if c.n.Op == "GroupConvolution" {
		extra = 1
	}
	n, ok, err := ovSpatial(c, data, filters, extra)
	if err != nil || !ok {
		return err
	}
	kernel := ovDimsOf(c, filters, -1, n)
	w, err := ovWindow(c, kernel)
	if err != nil {
		return err
	}
	head := ovDimsOf(c, data, 0, 2)
	inC, outC := ovFilterChannels(c, filters, extra, false)
	var dg int64
	if deformable {
		group, err := c.Int("group", 1)
		if err != nil {
			return err
		}
		if dg, err = c.Int("deformable_group", 1); err != nil {
			return err
		}
		if group < 1 || dg < 1 {
			return c.Errorf(errcode.ErrSyntax, "group %d, deformable_group %d: want at least 1", group, dg)
		}
		inC = sym.MulDims(inC, sym.Const(group))
	}
	if err := ovChannels(c, data, filters, head[1], inC); err != nil {
		return err
	}
	dims := []sym.Dim{head[0], outC}
	in := ovDimsOf(c, data, 2, n)
	for i := range n {
		d, err := w.out(c, i, in[i])
		if err != nil {
			return err
		}
		dims = append(dims, d)
	}
	if deformable {
		if err := ovDeformable(c, dims, kernel, dg); err != nil {
			return err
		}
	}
	c.Out(0, data.Type, sym.ShapeOf(dims...))
	return nil
}

// ovFilterChannels returns the input and output channels of a convolution's filters: [O, C, ...]
// and [G, O/G, C/G, ...] (extra 1) forward, [C, O, ...] and [G, C/G, O/G, ...] for a backprop;
// unknown when their rank is not known.
func ovFilterChannels(c *ctx, filters *Info, extra int, backprop bool) (in, out sym.Dim) {
	f := ovDimsOf(c, filters, 0, 2+extra)
	a, b := f[0], f[1]
	if extra == 1 {
		a, b = sym.MulDims(f[0], f[1]), sym.MulDims(f[0], f[2])
	}
	if backprop {
		return a, b
	}
	return b, a
}

// ovChannels unifies the data's channels ch with the input channels inC the filters give, when
// the ranks of both are known.
func ovChannels(c *ctx, data, filters *Info, ch, inC sym.Dim) error {
	_, dok := data.Rank()
	_, fok := filters.Rank()
	if !dok || !fok {
		return nil
	}
	_, err := c.Unify(ch, inC, "the input channels of the data and the filters")
	return err
}

// ovDeformable checks the offsets (input 1) and the mask (input 3) of a DeformableConvolution
// against its output dims [N, O, out...] and kernel: each is [N, K·deformable_group·∏kernel,
// out...], K 2 for the offsets and 1 for the mask; the dims unify with the output's.
func ovDeformable(c *ctx, dims, kernel []sym.Dim, dg int64) error {
	for _, i := range []int{1, 3} {
		in := c.In(i)
		if in == nil {
			continue
		}
		r, ok, err := c.RequireRank(in, i, len(dims), len(dims))
		if err != nil || !ok {
			return err
		}
		k := int64(2 - i/3)
		want := sym.MulDims(sym.Const(k*dg), product(kernel))
		for a := range r {
			w := dims[a]
			if a == 1 {
				w = want
			}
			u, err := c.Unify(in.Shape.Dims[a], w, ovDeformableInputs[i/3]+" dim "+itoa(a))
			if err != nil {
				return err
			}
			if a != 1 {
				dims[a] = u
			}
		}
	}
	return nil
}

// ovDeformableInputs names inputs 1 and 3 of DeformableConvolution.
var ovDeformableInputs = [2]string{"the offsets (input 1)", "the mask (input 3)"}

// ovConvolutionBackprop: ConvolutionBackpropData-1 (data [N,C,spatial...], filters
// [C,O,kernel...]) and GroupConvolutionBackpropData-1 (filters [G,C/G,O/G,kernel...]):
// [N,O,out...], out the output_shape input's values when the node has it, else
// strides·(in-1) + dilations·(kernel-1) + 1 - pads_begin - pads_end + output_padding (pads 0
// unless auto_pad is explicit), at every input size the symbols give (0 too); at least 1, a
// condition where the symbols decide it. The input channels unify with the filters'.
func ovConvolutionBackprop(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	data, filters := ins[0], ins[1]
	extra := 0
	if c.n.Op == "GroupConvolutionBackpropData" {
		extra = 1
	}
	n, ok, err := ovSpatial(c, data, filters, extra)
	if err != nil {
		return err
	}
	var shape *Info
	if c.NumIn() > 2 {
		var k int
		if shape, k, err = ovVector(c, 2, "output_shape"); err != nil {
			return err
		}
		if k >= 0 && !ok {
			n, ok = k, k > 0
		} else if k >= 0 && k != n {
			return c.Errorf(errcode.ErrInvalidShape, "output_shape has %d elements for %d spatial axes", k, n)
		}
	}
	if !ok {
		return nil
	}
	kernel := ovDimsOf(c, filters, -1, n)
	w, err := ovWindow(c, kernel)
	if err != nil {
		return err
	}
	outPad, err := windowInts(c, "output_padding", n, 0, 0)
	if err != nil {
		return err
	}
	head := ovDimsOf(c, data, 0, 2)
	inC, outC := ovFilterChannels(c, filters, extra, true)
	if err := ovChannels(c, data, filters, head[1], inC); err != nil {
		return err
	}
	dims := []sym.Dim{head[0], outC}
	in := ovDimsOf(c, data, 2, n)
	for i := range n {
		if shape != nil {
			d := sym.Unknown()
			if len(shape.Value) == n {
				if d, err = requireNonNegative(c, shape.Value[i], "output_shape["+itoa(i)+"]"); err != nil {
					return err
				}
			}
			dims = append(dims, d)
			continue
		}
		pads := int64(0)
		if w.autoPad == "NOTSET" {
			pads = w.pads[i] + w.pads[i+n] - outPad[i]
		} else {
			pads = -outPad[i]
		}
		// The spec's size at every input size the symbols give, 0 too (an empty axis); an input
		// known only by its bounds is 1 or more, as OpenVINO bounds a dynamic dim's output
		// (type_prop convolution_backprop_data_shape_dyn_data): an output of no expression, whose
		// loss the engine records.
		x := in[i]
		if _, exact := x.Expr(); !exact {
			x, _ = x.Narrow(1, sym.Inf)
		}
		d := sym.SubDims(sym.AddDims(sym.MulDims(sym.SubDims(x, sym.Const(1)), sym.Const(w.strides[i])), w.effKernel(i)), sym.Const(pads))
		if d, err = windowSize(c, i, in[i], d); err != nil {
			return err
		}
		dims = append(dims, d)
	}
	c.Out(0, data.Type, sym.ShapeOf(dims...))
	return nil
}

// ovRounding is how a pooling layer rounds its output sizes (rounding_type).
type ovRounding uint8

const (
	roundFloor ovRounding = iota
	roundCeil             // ceil: the last window may start in the end padding
	roundTorch            // ceil_torch (MaxPool-14, AvgPool-14, -16): it may not
)

// ovPool: MaxPool-1, -8 (dilations, and a second output of indices of index_element_type), -14
// (rounding_type ceil_torch) and AvgPool-1, -14 (ceil_torch), -16 (dilations): [N,C,out...] for
// an input [N,C,spatial...] of rank 3 to 5 and the kernel attribute of one size per spatial axis,
// each out the window's size rounded by rounding_type. Ceiling rounding is
// ceil((in + pads - dilation·(kernel-1) - 1) / stride) + 1, by the pooling specification of each
// version; ceil_torch takes one less where the last window would start in the end padding:
// min(ceil's size, floor((in + pads_begin - 1)/stride) + 1). An AvgPool with exclude-pad whose
// dilated kernel fits in pads_begin or pads_end is an error wrapping errcode.ErrInvalidShape.
func ovPool(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(in, 0, 3, 5); err != nil {
		return err
	}
	k, given, err := c.Ints("kernel")
	if err != nil {
		return err
	}
	if !given || len(k) == 0 {
		return c.Errorf(errcode.ErrSyntax, "%s has no kernel attribute", c.n.Op)
	}
	n := len(k)
	if r, ok := in.Rank(); ok && r != n+2 {
		return c.Errorf(errcode.ErrInvalidShape, "input of rank %d and a kernel of %d sizes: want an input of rank kernel+2", r, n)
	}
	kernel, err := windowInts(c, "kernel", n, 1, 1)
	if err != nil {
		return err
	}
	w, err := ovWindow(c, constDims(kernel))
	if err != nil {
		return err
	}
	if c.n.Op == "AvgPool" && c.Version() < 16 {
		w.dilations = filled(n, 1) // AvgPool-16 adds them
	}
	round, err := ovPoolRounding(c)
	if err != nil {
		return err
	}
	if err := ovExcludePad(c, w); err != nil {
		return err
	}
	r, ok := in.Rank()
	if !ok {
		return nil
	}
	dims := c.clone(in.Shape.Dims[:2])
	for i := range r - 2 {
		d, err := ovPoolSize(c, w, round, i, in.Shape.Dims[2+i])
		if err != nil {
			return err
		}
		dims = append(dims, d)
	}
	c.Out(0, in.Type, sym.ShapeOf(dims...))
	if c.n.Op == "MaxPool" && c.Version() >= 8 {
		t, err := ovType(c, "index_element_type", element.I64)
		if err != nil {
			return err
		}
		if t != element.I64 && t != element.I32 {
			return c.Errorf(errcode.ErrSyntax, "index_element_type %v: want i32 or i64", t)
		}
		if _, err := axisOf(c, in); err != nil {
			return err
		}
		c.Out(1, t, sym.ShapeOf(slices.Clone(dims)...))
	}
	return nil
}

// ovPoolRounding returns the rounding_type of a pooling layer: floor (the default) or ceil, and
// ceil_torch from MaxPool-14 and AvgPool-14 on; another is an error wrapping errcode.ErrSyntax.
func ovPoolRounding(c *ctx) (ovRounding, error) {
	rounding, err := c.String("rounding_type", "floor")
	if err != nil {
		return roundFloor, err
	}
	switch rounding {
	case "floor":
		return roundFloor, nil
	case "ceil":
		return roundCeil, nil
	case "ceil_torch":
		if c.Version() >= 14 {
			return roundTorch, nil
		}
	}
	return roundFloor, c.Errorf(errcode.ErrSyntax, "rounding_type %q: %s-%d rounds floor or ceil", rounding, c.n.Op, c.Version())
}

// ovExcludePad refuses an AvgPool with exclude-pad true whose dilated kernel fits in its explicit
// pads_begin or pads_end along some axis: a window entirely in the padding averages nothing.
func ovExcludePad(c *ctx, w *window) error {
	if c.n.Op != "AvgPool" || w.autoPad != "NOTSET" {
		return nil
	}
	exclude, err := ovBool(c, "exclude-pad", false)
	if err != nil || !exclude {
		return err
	}
	n := len(w.kernel)
	for i := range n {
		dk, _ := w.effKernel(i).Static()
		if dk <= w.pads[i] || dk <= w.pads[n+i] {
			return c.Errorf(errcode.ErrInvalidShape, "axis %d: the dilated kernel %d lies entirely in pads_begin %d or pads_end %d, which exclude-pad leaves out",
				i, dk, w.pads[i], w.pads[n+i])
		}
	}
	return nil
}

// ovPoolSize returns the output size of spatial axis i of a pooling window for the input size
// in, rounded by round (see ovPool). A size below 1 is an error wrapping errcode.ErrInvalidShape.
func ovPoolSize(c *ctx, w *window, round ovRounding, i int, in sym.Dim) (sym.Dim, error) {
	if round == roundFloor || w.autoPad == "SAME_UPPER" || w.autoPad == "SAME_LOWER" {
		return w.out(c, i, in)
	}
	n := len(w.strides)
	pb, pe := w.pads[i], w.pads[i+n]
	num := sym.SubDims(sym.AddDims(in, sym.Const(pb+pe)), w.effKernel(i))
	d := sym.AddDims(ceilDiv(num, w.strides[i]), sym.Const(1))
	if round == roundTorch {
		start := sym.AddDims(sym.FloorDivDims(sym.AddDims(in, sym.Const(pb-1)), sym.Const(w.strides[i])), sym.Const(1))
		d = sym.MinDims(d, start)
	}
	return windowSize(c, i, in, d)
}

// ovAdaptivePool: AdaptiveAvgPool-8 and AdaptiveMaxPool-8 (a second output of indices of
// index_element_type, i32 or i64): [N,C,output_shape...] for a 3-D to 5-D input [N,C,spatial...]
// and the 1-D output_shape (input 1) of one size per spatial axis; unknown sizes where its values
// are not known.
func ovAdaptivePool(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	data := ins[0]
	t := element.I64
	if c.n.Op == "AdaptiveMaxPool" {
		if t, err = ovType(c, "index_element_type", element.I64); err != nil {
			return err
		}
		if t != element.I64 && t != element.I32 {
			return c.Errorf(errcode.ErrSyntax, "index_element_type %v: want i32 or i64", t)
		}
	}
	_, k, err := ovVector(c, 1, "output_shape")
	if err != nil {
		return err
	}
	r, ok, err := c.RequireRank(data, 0, 3, 5)
	if err != nil || !ok {
		return err
	}
	if k >= 0 && k != r-2 {
		return c.Errorf(errcode.ErrInvalidShape, "output_shape has %d elements for the %d spatial axes of the data", k, r-2)
	}
	dims := c.clone(data.Shape.Dims)
	for i := 2; i < r; i++ {
		dims[i] = sym.Unknown()
		if v := ins[1].Value; len(v) == r-2 {
			if dims[i], err = requireNonNegative(c, v[i-2], "output_shape["+itoa(i-2)+"]"); err != nil {
				return err
			}
		}
	}
	c.Out(0, data.Type, sym.ShapeOf(dims...))
	c.Out(1, t, sym.ShapeOf(slices.Clone(dims)...))
	return nil
}
