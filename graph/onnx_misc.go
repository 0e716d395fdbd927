package graph

import (
	"math"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxMisc holds the rules of ONNX's other operators: selections (TopK, NonZero, Compress, Unique,
// NonMaxSuppression), whose data-dependent sizes are anonymous dims (ctx.Fresh) or intervals;
// CumSum, Trilu, OneHot, EyeLike; random generators; Det, GridSample, AffineGrid, RoiAlign and
// ImageDecoder.
var onnxMisc = table{"", []opDef{
	{"TopK", since(1), fixed(1), fixed(2), 0, topK},
	{"TopK", since(10, 11), fixed(2), fixed(2), reads(1), topK},
	{"CumSum", since(11, 14), fixed(2), fixed(1), reads(0, 1), cumSum},
	{"Trilu", since(14), span(1, 2), fixed(1), 0, sameShape0},
	{"OneHot", since(9, 11), fixed(3), fixed(1), reads(1), oneHot},
	{"EyeLike", since(9), fixed(1), fixed(1), 0, eyeLike},
	{"NonZero", since(9, 13), fixed(1), fixed(1), reads(0), nonZero},
	{"Compress", since(9, 11), fixed(2), fixed(1), reads(1), compress},
	{"NonMaxSuppression", since(10, 11), span(2, 5), fixed(1), reads(2), nonMaxSuppression},
	{"Unique", since(11), fixed(1), span(1, 4), 0, unique},
	{"RandomNormal", since(1), fixed(0), fixed(1), 0, random},
	{"RandomUniform", since(1), fixed(0), fixed(1), 0, random},
	{"RandomNormalLike", since(1), fixed(1), fixed(1), 0, randomLike},
	{"RandomUniformLike", since(1), fixed(1), fixed(1), 0, randomLike},
	{"Bernoulli", since(15), fixed(1), fixed(1), 0, randomLike},
	{"Multinomial", since(7), fixed(1), fixed(1), 0, multinomial},
	{"Det", since(11), fixed(1), fixed(1), 0, det},
	{"GridSample", since(16, 20), fixed(2), fixed(1), 0, gridSample},
	{"RoiAlign", since(10, 16), fixed(3), fixed(1), 0, roiAlign},
	{"AffineGrid", since(20), fixed(2), fixed(1), reads(1), affineGrid},
	{"ImageDecoder", since(20), fixed(1), fixed(1), 0, imageDecoder},
}}

// sameShape0: Trilu-14: the output has the type and shape of input 0.
func sameShape0(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	c.SameAs(0, in)
	return nil
}

// topK: TopK-1 (k attribute), -10 (k input), -11 (largest, sorted): the values and their int64
// indices, of the input's shape with the axis (default -1) of size k. A k that is not known is one
// anonymous dim shared by both outputs, at most the axis dim; a k above a static axis dim is an
// error wrapping errcode.ErrInvalidShape.
func topK(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	axis, err := c.Int("axis", -1)
	if err != nil {
		return err
	}
	var k sym.Dim
	known := false
	if c.Version() < 10 {
		if _, ok := c.n.Attr("k"); !ok {
			return c.Errorf(errcode.ErrSyntax, "TopK-1 has no k attribute")
		}
		n, err := c.Int("k", 0)
		if err != nil {
			return err
		}
		k, known = sym.Const(n), true
	} else {
		kin, err := c.Input(1)
		if err != nil {
			return err
		}
		if len(kin.Value) == 1 {
			k, known = kin.Value[0], true
		}
	}
	r, ok := x.Rank()
	if !ok {
		c.Out(0, x.Type, sym.DynamicRank())
		c.Out(1, element.I64, sym.DynamicRank())
		return nil
	}
	a, err := c.NormAxis(axis, r)
	if err != nil {
		return err
	}
	d := x.Shape.Dims[a]
	_, dhi := d.Bounds()
	if known {
		if k, err = requireNonNegative(c, k, "k"); err != nil {
			return err
		}
		if err := requireAtMost(c, k, d, "k no greater than axis "+itoa(a)); err != nil {
			return err
		}
		if _, exact := k.Expr(); !exact {
			lo, hi := k.Bounds()
			k = c.Fresh("k", lo, min(hi, dhi))
		}
	} else {
		k = c.Fresh("k", 0, dhi)
	}
	dims := withDim(x.Shape.Dims, a, k)
	c.Out(0, x.Type, sym.ShapeOf(dims...))
	c.Out(1, element.I64, sym.ShapeOf(dims...))
	return nil
}

// cumSum: CumSum-11, -14: the output has the input's shape; the values of a small integer tensor
// are summed along the axis (input 1), exclusive and reverse as the attributes say.
func cumSum(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	in := ins[0]
	out := c.SameAs(0, in)
	ax, ok := ins[1].Ints()
	sd, v, ok2 := values(in)
	if !ok || len(ax) != 1 || !ok2 || len(sd) == 0 {
		return nil
	}
	a, err := c.NormAxis(ax[0], len(sd))
	if err != nil {
		return err
	}
	exclusive, err := c.Int("exclusive", 0)
	if err != nil {
		return err
	}
	reverse, err := c.Int("reverse", 0)
	if err != nil {
		return err
	}
	inner := int64(1)
	for _, d := range sd[a+1:] {
		inner *= d
	}
	n := sd[a]
	res := make([]sym.Dim, len(v))
	for base := range int64(len(v)) {
		if (base/inner)%n != 0 {
			continue // base runs over the first element of each line along the axis
		}
		acc := sym.Const(0)
		for j := range n {
			i := j
			if reverse != 0 {
				i = n - 1 - j
			}
			at := base + i*inner
			if exclusive != 0 {
				res[at], acc = acc, sym.AddDims(acc, v[at])
			} else {
				acc = sym.AddDims(acc, v[at])
				res[at] = acc
			}
		}
	}
	out.Value = res
	return nil
}

// oneHot: OneHot-9, -11: the indices' shape with an axis (default -1, counted in the output's
// rank) of size depth inserted, of the type of the values input. depth is a scalar or one-element
// tensor of any numeric type (a float depth is truncated, as onnxruntime reads it), which must be
// positive.
func oneHot(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	idx, depth, vals := ins[0], ins[1], ins[2]
	axis, err := c.Int("axis", -1)
	if err != nil {
		return err
	}
	r, ok := idx.Rank()
	if !ok {
		c.Out(0, vals.Type, sym.DynamicRank())
		return nil
	}
	a, err := c.NormAxis(axis, r+1)
	if err != nil {
		return err
	}
	d := sym.Unknown()
	switch {
	case len(depth.Value) == 1:
		d = depth.Value[0]
	case len(depth.Floats) == 1 && math.Abs(depth.Floats[0]) < 1<<53:
		d = sym.Const(int64(math.Trunc(depth.Floats[0])))
	}
	// onnxruntime 1.20.1 refuses a depth below 1 ("Depth is negative", at 0 as well: bench/truth
	// narrow_negative).
	if d, err = requireSize(c, d, 1, "depth"); err != nil {
		return err
	}
	dims := make([]sym.Dim, 0, r+1)
	dims = append(append(append(dims, idx.Shape.Dims[:a]...), d), idx.Shape.Dims[a:]...)
	c.Out(0, vals.Type, sym.ShapeOf(dims...))
	return nil
}

// eyeLike: EyeLike-9, -22: a 2-D tensor of the input's shape, of the type dtype names (the input's
// by default).
func eyeLike(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(in, 0, 2, 2); err != nil {
		return err
	}
	t, err := dtype(c, in.Type)
	if err != nil {
		return err
	}
	s := in.Shape
	if s.RankDynamic {
		s = unknownDims(2)
	}
	c.Out(0, t, s)
	return nil
}

// dtype returns the element type the dtype attribute names, def when the node has none.
func dtype(c *ctx, def element.Type) (element.Type, error) {
	if _, ok := c.n.Attr("dtype"); !ok {
		return def, nil
	}
	n, err := c.Int("dtype", 0)
	return elemTypeOf(n), err
}

// nonZero: NonZero-9, -13: the int64 coordinates [rank, n] of the n non-zero elements (a
// scalar's as one of a 1-D tensor, as onnxruntime gives them): nonZeroAs.
func nonZero(c *ctx) error { return nonZeroAs(c, element.I64, 1) }

// nonZeroAs gives the coordinates [rank, n] of type t of the n non-zero elements of input 0, of a
// rank at least least. n is known when the input's values decide which elements are zero (and
// then the coordinates are the output's values); otherwise it is an anonymous dim bounded by the
// elements that may be non-zero.
func nonZeroAs(c *ctx, t element.Type, least int) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	r, ok := in.Rank()
	rank := sym.Unknown()
	if ok {
		r = max(r, least)
		rank = sym.Const(int64(r))
	}
	_, hi := in.Shape.Volume().Bounds()
	lo := int64(0)
	var coords [][]int64
	if sd, v, ok := values(in); ok {
		lo, hi = 0, 0
		coord := make([]int64, len(sd))
		for _, e := range v {
			switch elo, ehi := e.Bounds(); {
			case elo > 0 || ehi < 0:
				lo, hi = lo+1, hi+1
				x := append([]int64(nil), coord...)
				if len(x) == 0 {
					x = []int64{0} // a scalar's coordinate
				}
				coords = append(coords, x)
			case elo < 0 || ehi > 0:
				hi++
			}
			nextCoord(coord, sd)
		}
	}
	if lo == hi {
		out := c.Out(0, t, sym.ShapeOf(rank, sym.Const(lo)))
		if ok {
			v := make([]sym.Dim, 0, r*len(coords))
			for k := range r {
				for _, x := range coords {
					v = append(v, sym.Const(x[k]))
				}
			}
			setValue(out, v)
		}
		return nil
	}
	c.Out(0, t, sym.ShapeOf(rank, c.Fresh("nonzero", lo, hi)))
	c.RunTime("the count of non-zero elements of input 0")
	return nil
}

// compress: Compress-9, -11: the elements (no axis: of the flattened input) or slices along axis
// whose condition is true, the condition's extra elements ignored. Their number is known when the
// condition's values are; otherwise it is an anonymous dim bounded by the condition's length and
// the input.
func compress(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	in, cond := ins[0], ins[1]
	if _, _, err := c.RequireRank(cond, 1, 1, 1); err != nil {
		return err
	}
	_, ok := in.Rank()
	_, hasAxis := c.n.Attr("axis")
	if !ok && hasAxis {
		c.Out(0, in.Type, sym.DynamicRank())
		return nil
	}
	var d sym.Dim // the size of what the condition selects from
	a := 0
	if hasAxis {
		if a, err = axisOf(c, in); err != nil {
			return err
		}
		d = in.Shape.Dims[a]
	} else {
		d = in.Shape.Volume()
	}
	dlo, dhi := d.Bounds()
	lo, hi := int64(0), dhi
	if !cond.Shape.RankDynamic {
		_, chi := cond.Shape.Dims[0].Bounds()
		hi = min(hi, chi)
	}
	if v := cond.Value; v != nil {
		lo, hi = 0, 0
		for i, e := range v {
			if elo, ehi := e.Bounds(); elo > 0 || ehi < 0 {
				if int64(i) < dlo {
					lo++
				}
				if int64(i) < dhi {
					hi++
				}
			} else if elo < 0 || ehi > 0 {
				if int64(i) < dhi {
					hi++
				}
			}
		}
	}
	n := sym.Const(lo)
	if lo != hi {
		n = c.Fresh("compress", lo, hi)
		c.RunTime("the count of true elements of the condition")
	}
	if !hasAxis {
		c.Out(0, in.Type, sym.ShapeOf(n))
		return nil
	}
	c.Out(0, in.Type, sym.ShapeOf(withDim(in.Shape.Dims, a, n)...))
	return nil
}

// nonMaxSuppression: NonMaxSuppression-10, -11: the int64 triples [n, 3] of the boxes selected; n
// is at most batches × classes × min(max_output_boxes_per_class, boxes), and 0 without
// max_output_boxes_per_class.
func nonMaxSuppression(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	boxes, scores := ins[0], ins[1]
	if _, _, err := c.RequireRank(boxes, 0, 3, 3); err != nil {
		return err
	}
	if _, _, err := c.RequireRank(scores, 1, 3, 3); err != nil {
		return err
	}
	per := sym.Const(0)
	if m := c.In(2); m != nil {
		per = sym.Unknown()
		if len(m.Value) == 1 {
			per = m.Value[0]
		}
	}
	n := sym.Unknown()
	if p, ok := per.Static(); ok && p <= 0 {
		n = sym.Const(0)
	} else if !scores.Shape.RankDynamic {
		_, phi := per.Bounds()
		_, hi := sym.MulDims(sym.MulDims(scores.Shape.Dims[0], scores.Shape.Dims[1]), sym.MinDims(sym.Interval(0, phi), scores.Shape.Dims[2])).Bounds()
		n = sym.Interval(0, hi)
	}
	c.Out(0, element.I64, sym.ShapeOf(n, sym.Const(3)))
	if _, ok := n.Static(); !ok {
		c.RunTime("the count of boxes selected")
	}
	return nil
}

// unique: Unique-11: the n unique elements (no axis: of the flattened input) or slices along axis,
// their int64 first indices [n], the inverse indices (one per element or slice) and the int64
// counts [n]: uniqueOf.
func unique(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	_, hasAxis := c.n.Attr("axis")
	a := 0
	if _, ok := in.Rank(); ok && hasAxis {
		if a, err = axisOf(c, in); err != nil {
			return err
		}
	}
	uniqueOf(c, in, a, hasAxis, element.I64, element.I64)
	return nil
}

// uniqueOf gives the outputs of a Unique of input in: the n unique elements (without an axis, of
// the flattened input) or slices along axis a, their first indices [n] and the inverse indices
// (one per element or slice) of type idx, and the counts [n] of type cnt; n is one anonymous dim
// shared by the outputs, between 1 (0 for an empty input) and the number of elements or slices.
func uniqueOf(c *ctx, in *Info, a int, hasAxis bool, idx, cnt element.Type) {
	_, ok := in.Rank()
	var d sym.Dim
	switch {
	case hasAxis && !ok:
		d = sym.Unknown()
	case hasAxis:
		d = in.Shape.Dims[a]
	default:
		d = in.Shape.Volume()
	}
	n := uniqueCount(c, d)
	switch {
	case hasAxis && ok:
		c.Out(0, in.Type, sym.ShapeOf(withDim(in.Shape.Dims, a, n)...))
	case hasAxis:
		c.Out(0, in.Type, sym.DynamicRank())
	default:
		c.Out(0, in.Type, sym.ShapeOf(n))
	}
	c.Out(1, idx, sym.ShapeOf(n))
	c.Out(2, idx, sym.ShapeOf(d))
	c.Out(3, cnt, sym.ShapeOf(n))
}

// uniqueCount returns the count of unique elements or slices among d: d itself when d is 0 or 1,
// else a run-time size, an anonymous dim between 1 and d.
func uniqueCount(c *ctx, d sym.Dim) sym.Dim {
	lo, hi := d.Bounds()
	if lo == hi && lo <= 1 {
		return d
	}
	c.RunTime("the count of unique elements")
	return c.Fresh("unique", min(lo, 1), hi)
}

// random: RandomNormal-1, RandomUniform-1, -22: a tensor of the shape attribute, of the type dtype
// names (float by default).
func random(c *ctx) error {
	s, ok, err := c.Ints("shape")
	if err != nil || !ok {
		return errOr(err, c.Errorf(errcode.ErrSyntax, "%s has no shape attribute", c.n.Op))
	}
	for i, d := range s {
		if d < 0 {
			return c.Errorf(errcode.ErrInvalidShape, "shape[%d] = %d is negative", i, d)
		}
	}
	t, err := dtype(c, element.F32)
	if err != nil {
		return err
	}
	c.Out(0, t, sym.Ints(s...))
	return nil
}

// randomLike: RandomNormalLike-1, RandomUniformLike-1, -22, Bernoulli-15, -22: a tensor of the
// input's shape, of the type dtype names (the input's by default).
func randomLike(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	t, err := dtype(c, in.Type)
	if err != nil {
		return err
	}
	c.Out(0, t, in.Shape)
	return nil
}

// multinomial: Multinomial-7, -22: [batch, class] becomes [batch, sample_size] (1 by default), of
// the type dtype names (int32 by default).
func multinomial(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(in, 0, 2, 2); err != nil {
		return err
	}
	n, err := c.Int("sample_size", 1)
	if err != nil {
		return err
	}
	if n < 0 {
		return c.Errorf(errcode.ErrInvalidShape, "sample_size = %d is negative", n)
	}
	t, err := dtype(c, element.I32)
	if err != nil {
		return err
	}
	b := sym.Unknown()
	if !in.Shape.RankDynamic {
		b = in.Shape.Dims[0]
	}
	c.Out(0, t, sym.ShapeOf(b, sym.Const(n)))
	return nil
}

// det: Det-11, -22: [*, M, M] becomes [*]; the two last dims must be equal.
func det(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	r, ok, err := c.RequireRank(in, 0, 2, -1)
	if err != nil || !ok {
		c.Out(0, in.Type, sym.DynamicRank())
		return err
	}
	if _, err := c.Unify(in.Shape.Dims[r-2], in.Shape.Dims[r-1], "the matrix dims"); err != nil {
		return err
	}
	c.Out(0, in.Type, sym.ShapeOf(append([]sym.Dim(nil), in.Shape.Dims[:r-2]...)...))
	return nil
}

// gridSample: GridSample-16 (4-D), -20, -22 (N-D): X [N, C, D1, ..., Dr] sampled at grid
// [N, O1, ..., Or, r] is [N, C, O1, ..., Or].
func gridSample(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	x, grid := ins[0], ins[1]
	maxRank := -1
	if c.Version() < 20 {
		maxRank = 4
	}
	rx, okx, err := c.RequireRank(x, 0, 3, maxRank)
	if err != nil {
		return err
	}
	rg, okg, err := c.RequireRank(grid, 1, 3, maxRank)
	if err != nil {
		return err
	}
	if !okx || !okg {
		if okx {
			c.Out(0, x.Type, unknownDims(rx))
		} else {
			c.Out(0, x.Type, sym.DynamicRank())
		}
		return nil
	}
	if rx != rg {
		return c.Errorf(errcode.ErrInvalidShape, "X of rank %d and grid of rank %d", rx, rg)
	}
	if _, err := c.Unify(grid.Shape.Dims[rg-1], sym.Const(int64(rx-2)), "the grid's last dim"); err != nil {
		return err
	}
	n, err := c.Unify(x.Shape.Dims[0], grid.Shape.Dims[0], "the batch dim")
	if err != nil {
		return err
	}
	dims := append([]sym.Dim{n, x.Shape.Dims[1]}, grid.Shape.Dims[1:rg-1]...)
	c.Out(0, x.Type, sym.ShapeOf(dims...))
	return nil
}

// roiAlign: RoiAlign-10, -16, -22: X [N, C, H, W], rois [R, 4] and batch_indices [R] give
// [R, C, output_height, output_width] (1 and 1 by default).
func roiAlign(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	x, rois, bi := ins[0], ins[1], ins[2]
	if _, _, err := c.RequireRank(x, 0, 4, 4); err != nil {
		return err
	}
	rr, okr, err := c.RequireRank(rois, 1, 2, 2)
	if err != nil {
		return err
	}
	rb, okb, err := c.RequireRank(bi, 2, 1, 1)
	if err != nil {
		return err
	}
	oh, err := c.Int("output_height", 1)
	if err != nil {
		return err
	}
	ow, err := c.Int("output_width", 1)
	if err != nil {
		return err
	}
	if oh < 1 || ow < 1 {
		return c.Errorf(errcode.ErrInvalidShape, "output_height = %d and output_width = %d: want positive sizes", oh, ow)
	}
	n := sym.Unknown()
	if okr && rr == 2 {
		n = rois.Shape.Dims[0]
		if _, err := c.Unify(rois.Shape.Dims[1], sym.Const(4), "the rois' last dim"); err != nil {
			return err
		}
	}
	if okb && rb == 1 {
		if n, err = c.Unify(n, bi.Shape.Dims[0], "the number of rois"); err != nil {
			return err
		}
	}
	ch := sym.Unknown()
	if !x.Shape.RankDynamic {
		ch = x.Shape.Dims[1]
	}
	c.Out(0, x.Type, sym.ShapeOf(n, ch, sym.Const(oh), sym.Const(ow)))
	return nil
}

// affineGrid: AffineGrid-20: theta, [N, 2, 3] (2-D) or [N, 3, 4] (3-D), and size, the int64
// values (N, C, H, W) or (N, C, D, H, W), give the grid [N, H, W, 2] or [N, D, H, W, 3] of
// theta's type. The spatial rank comes from size's length, or theta's dims; theta's dims and N
// unify with it and size's. A size of another length is an error wrapping
// errcode.ErrInvalidShape.
func affineGrid(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	theta, size := ins[0], ins[1]
	if _, _, err := c.RequireRank(theta, 0, 3, 3); err != nil {
		return err
	}
	if _, _, err := c.RequireRank(size, 1, 1, 1); err != nil {
		return err
	}
	n := -1 // spatial axes
	var sv []sym.Dim
	switch {
	case size.Value != nil:
		sv = size.Value
		if n = len(sv) - 2; n != 2 && n != 3 {
			return c.Errorf(errcode.ErrInvalidShape, "size has %d values: want 4 (N, C, H, W) or 5 (N, C, D, H, W)", len(sv))
		}
	case !size.Shape.RankDynamic:
		if k, ok := size.Shape.Dims[0].Static(); ok {
			n = int(k) - 2
		}
	}
	if n < 0 && !theta.Shape.RankDynamic {
		if k, ok := theta.Shape.Dims[1].Static(); ok {
			n = int(k)
		}
	}
	if n < 0 {
		c.Out(0, theta.Type, sym.DynamicRank())
		return nil
	}
	if n != 2 && n != 3 {
		return c.Errorf(errcode.ErrInvalidShape, "size has %d values: want 4 (N, C, H, W) or 5 (N, C, D, H, W)", n+2)
	}
	batch := sym.Unknown()
	if sv != nil {
		batch = sv[0]
	}
	if !theta.Shape.RankDynamic {
		td := theta.Shape.Dims
		for k, want := range []int64{int64(n), int64(n + 1)} {
			if _, err := c.Unify(td[k+1], sym.Const(want), "theta's dim "+itoa(k+1)); err != nil {
				return err
			}
		}
		if batch, err = c.Unify(td[0], batch, "theta's N and size's"); err != nil {
			return err
		}
	}
	dims := []sym.Dim{batch}
	for i := range n {
		d := sym.Unknown()
		if sv != nil {
			// onnxruntime 1.20.1 refuses a negative size ("Tensor shape.Size() must be >= 0") and
			// runs 0 (bench/truth narrow_negative).
			if d, err = requireNonNegative(c, sv[2+i], "size["+itoa(2+i)+"]"); err != nil {
				return err
			}
		}
		dims = append(dims, d)
	}
	c.Out(0, theta.Type, sym.ShapeOf(append(dims, sym.Const(int64(n)))...))
	return nil
}

// imageDecoder: ImageDecoder-20: the bytes of an encoded image, u8 [L], give the decoded image, u8
// [H, W, C]: H and W are the image's (the data's), C 3 for pixel_format RGB (the default) and BGR,
// 1 for Grayscale; another pixel_format is an error wrapping errcode.ErrSyntax.
func imageDecoder(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(in, 0, 1, 1); err != nil {
		return err
	}
	format, err := c.String("pixel_format", "RGB")
	if err != nil {
		return err
	}
	ch := map[string]int64{"RGB": 3, "BGR": 3, "Grayscale": 1}[format]
	if ch == 0 {
		return c.Errorf(errcode.ErrSyntax, "pixel_format %q: want RGB, BGR or Grayscale", format)
	}
	c.Out(0, element.U8, sym.ShapeOf(sym.Unknown(), sym.Unknown(), sym.Const(ch)))
	c.RunTime("the height and width of the encoded image")
	return nil
}
