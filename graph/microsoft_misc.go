package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// microsoftMisc holds the rules of onnxruntime's other contrib operators with CPU kernels
// (com.microsoft, version 1, as onnxruntime 1.20.1's contrib_defs.cc defines them) that exported
// and converted models hold: the contrib forms of ONNX operators (Trilu, Unique, Range, Pad,
// GridSample, ExpandDims), and Inverse, CDist, CropAndResize and MurmurHash3.
var microsoftMisc = table{domainMicrosoft, []opDef{
	{"Inverse", since(1), fixed(1), fixed(1), 0, inverse},
	{"Trilu", since(1), span(1, 2), fixed(1), 0, sameShape0},
	{"ExpandDims", since(1), fixed(2), fixed(1), reads(0, 1), expandDims},
	{"Unique", since(1), fixed(1), fixed(3), 0, uniqueMS},
	{"CDist", since(1), fixed(2), fixed(1), 0, cdist},
	{"Range", since(1), span(2, 3), fixed(1), reads(0, 1, 2), rangeMS},
	{"Pad", since(1), span(2, 3), fixed(1), reads(0, 1, 2), padMS},
	{"GridSample", since(1), fixed(2), fixed(1), 0, gridSample},
	{"CropAndResize", since(1), fixed(4), fixed(1), reads(3), cropAndResize},
	{"MurmurHash3", since(1), fixed(1), fixed(1), 0, murmurHash3},
}}

// inverse: com.microsoft Inverse-1: X [*, M, M] gives its inverse, of X's shape and type. A rank
// below 2 is an error wrapping errcode.ErrInvalidShape. Last two dims that differ are a warning
// of the node (Result.Warnings): onnxruntime 1.20.1 runs the node then, and refuses at load only a
// model that declares both sizes.
func inverse(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	r, ok, err := c.RequireRank(x, 0, 2, -1)
	if err != nil {
		return err
	}
	if ok {
		warnEqual(c, x.Shape.Dims[r-2], x.Shape.Dims[r-1], "inverts the last two dims as a square matrix")
	}
	c.SameAs(0, x)
	return nil
}

// expandDims: com.microsoft ExpandDims-1 (X, axis): X with a dim of 1 inserted at axis, the value
// of the int32 scalar input 1, in [-r-1, r] for X of rank r; values kept. An axis not known leaves
// the output's dims unknown; one out of range is an error wrapping errcode.ErrInvalidShape.
func expandDims(c *ctx) error {
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	v, known := c.Value(1)
	var axis int64
	if known && len(v) == 1 {
		axis, known = v[0].Static()
	}
	if !known || len(v) != 1 {
		c.Out(0, in.Type, unknownDims(r+1))
		return nil
	}
	a, err := c.NormAxis(axis, r+1)
	if err != nil {
		return err
	}
	dims := append(append(append(c.dims(0), in.Shape.Dims[:a]...), sym.Const(1)), in.Shape.Dims[a:]...)
	keepValues(c.Out(0, in.Type, sym.ShapeOf(dims...)), in)
	return nil
}

// uniqueMS: com.microsoft Unique-1: the n unique elements y [n] of the 1-D x [N] in order of first
// occurrence, idx [N] (int64: each element's index in y) and counts [n] (int64); n is a run-time
// size between 1 and N (uniqueCount). An x of another rank is an error wrapping
// errcode.ErrInvalidShape; onnxruntime 1.20.1 has a kernel of float x only (requireKernel).
func uniqueMS(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(x, 0, 1, 1); err != nil {
		return err
	}
	requireKernel(c, []string{"x"}, []element.Type{x.Type}, []element.Type{element.F32})
	d := sym.Unknown()
	if r, ok := x.Rank(); ok && r == 1 {
		d = x.Shape.Dims[0]
	}
	n := uniqueCount(c, d)
	c.Out(0, x.Type, sym.ShapeOf(n))
	c.Out(1, element.I64, sym.ShapeOf(d))
	c.Out(2, element.I64, sym.ShapeOf(n))
	return nil
}

// cdist: com.microsoft CDist-1: the distances [N, M] between the rows of A [N, K] and those of B
// [M, K], of A's type; the Ks unify. A rank other than 2 is an error wrapping
// errcode.ErrInvalidShape.
func cdist(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	var d [2][]sym.Dim
	for i, in := range ins {
		if d[i], err = fixedDims(c, in, i, 2); err != nil {
			return err
		}
	}
	if _, err := c.Unify(d[0][1], d[1][1], "the columns K of A and B"); err != nil {
		return err
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(d[0][0], d[1][0]))
	return nil
}

// rangeMS: com.microsoft Range-1 (start, limit, delta): ONNX's Range-11, delta 1 when the node
// does not give it.
func rangeMS(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	delta := c.In(2)
	if delta == nil {
		delta = &Info{Type: ins[0].Type, Shape: sym.ShapeOf(), Value: []sym.Dim{sym.Const(1)}}
	}
	return rangeOf(c, ins[0], ins[1], delta)
}

// padMS: com.microsoft Pad-1 (data, pads, value): ONNX's Pad-11, pads 1-D [2r] or 2-D [1, 2r].
func padMS(c *ctx) error { return padOf(c, 11) }

// cropAndResize: com.microsoft CropAndResize-1 (X, rois, batch_indices, crop_size): X
// [N, C, H, W] cropped at num_rois boxes rois [num_rois, 4] (batch_indices [num_rois]) and
// resized to crop_size (int32 [2]: crop_height, crop_width, each at least 1) gives
// [num_rois, C, crop_height, crop_width], of X's type. Dims that break these are errors wrapping
// errcode.ErrInvalidShape.
func cropAndResize(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	x, err := fixedDims(c, ins[0], 0, 4)
	if err != nil {
		return err
	}
	four := sym.Const(4)
	rois, err := inputDims(c, 1, 2, []*sym.Dim{nil, &four}, "rois")
	if err != nil {
		return err
	}
	if _, err := inputDims(c, 2, 1, []*sym.Dim{&rois[0]}, "batch_indices"); err != nil {
		return err
	}
	size := []sym.Dim{sym.Unknown(), sym.Unknown()}
	if v, ok := c.IntsIn(3); ok {
		if len(v) != 2 || v[0] < 1 || v[1] < 1 {
			return c.Errorf(errcode.ErrInvalidShape, "crop_size %v: want 2 sizes of at least 1", v)
		}
		size = constDims(v)
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(rois[0], x[1], size[0], size[1]))
	return nil
}

// murmurHash3: com.microsoft MurmurHash3-1: the hash of each element of X, of X's shape; uint32
// with positive (1 by default), else int32.
func murmurHash3(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	positive, err := c.Int("positive", 1)
	if err != nil {
		return err
	}
	t := element.U32
	if positive == 0 {
		t = element.I32
	}
	c.Out(0, t, x.Shape)
	return nil
}
