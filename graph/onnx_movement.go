package graph

import (
	"fmt"
	"math"
	"slices"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxMovement holds the rules of ONNX's data movement operators: splits, pads, tiles, resizes,
// block rearrangements and crops (gathers and scatters are onnxScatter's). Split, Pad and Tile
// also move the values of small integer tensors.
var onnxMovement = table{"", []opDef{
	{"Split", since(1), span(1, 2), span(1, many), reads(0, 1), split},
	{"Split", since(2, 11), fixed(1), span(1, many), reads(0), split},
	{"Split", since(13, 18), span(1, 2), span(1, many), reads(0, 1), split},
	{"Pad", since(1, 2), fixed(1), fixed(1), reads(0), pad},
	{"Pad", since(11, 13), span(2, 3), fixed(1), reads(0, 1, 2), pad},
	{"Pad", since(18, 19, 21), span(2, 4), fixed(1), reads(0, 1, 2, 3), pad},
	{"Tile", since(1), fixed(3), fixed(1), reads(0, 1, 2), tile},
	{"Tile", since(6, 13), fixed(2), fixed(1), reads(0, 1), tile},
	{"Resize", since(10), fixed(2), fixed(1), reads(1), resize},
	{"Resize", since(11), span(3, 4), fixed(1), reads(2, 3), resize},
	{"Resize", since(13, 18, 19), span(1, 4), fixed(1), reads(2, 3), resize},
	{"Upsample", since(1, 7), fixed(1), fixed(1), 0, upsample},
	{"Upsample", since(9).until(9), fixed(2), fixed(1), reads(1), upsample},
	{"DepthToSpace", since(1, 11, 13), fixed(1), fixed(1), 0, depthToSpace},
	{"SpaceToDepth", since(1, 13), fixed(1), fixed(1), 0, spaceToDepth},
	{"CenterCropPad", since(18), fixed(2), fixed(1), reads(1), centerCropPad},
	{"Col2Im", since(18), fixed(3), fixed(1), reads(1, 2), col2Im},
	{"ReverseSequence", since(10), fixed(2), fixed(1), 0, reverseSequence},
	{"Crop", since(1), fixed(1), fixed(1), 0, crop},
}}

// allAxes returns the axes 0..r-1.
func allAxes(r int) []int {
	axes := make([]int, r)
	for i := range axes {
		axes[i] = i
	}
	return axes
}

// dimsArg returns an integer list that is an attribute before opset version since and input i from
// it on, as IntsArg does, with the values of the input as they are known (expressions included):
// nil when they are not known.
func dimsArg(c *ctx, attr string, i int, since int64) (v []sym.Dim, given bool, err error) {
	if c.Version() < since {
		ints, given, err := c.Ints(attr)
		if !given || err != nil {
			return nil, given, err
		}
		return constDims(ints), true, nil
	}
	in := c.In(i)
	if in == nil {
		return nil, false, nil
	}
	return in.Value, true, nil
}

// split: Split-1 (split attribute or input 1), -2, -11 (split attribute), -13 (split input), -18
// (split input or num_outputs). The sizes along axis are the split values, whose sum must be the
// axis dim; without them, the axis divides into equal parts, one per output (D/n, an exact
// quotient: the run fails when n does not divide D); with num_outputs (Split-18), every part but
// the last has ceil(D/n) elements and the last what remains, which must be at least 1. Values are
// split too.
func split(c *ctx) error {
	n := c.NumOut()
	axis, err := c.Int("axis", 0)
	if err != nil {
		return err
	}
	var sizes []sym.Dim
	var given bool
	if c.Version() < 2 && c.In(1) != nil {
		sizes, given = c.In(1).Value, true
	} else if sizes, given, err = dimsArg(c, "split", 1, 13); err != nil {
		return err
	}
	if given && sizes != nil && len(sizes) == 0 {
		given = false // onnxruntime splits equally by an empty split input, as by none
	}
	known := sizes != nil
	uneven := false
	if _, ok := c.n.Attr("num_outputs"); ok && c.Version() >= 18 {
		k, err := c.Int("num_outputs", 0)
		switch {
		case err != nil:
			return err
		case given:
			return c.Errorf(errcode.ErrSyntax, "Split has both a split input and num_outputs")
		case k != int64(n):
			return c.Errorf(errcode.ErrSyntax, "num_outputs = %d, and the node has %d outputs", k, n)
		}
		uneven = true
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	a, err := c.NormAxis(axis, r)
	if err != nil {
		return err
	}
	d := in.Shape.Dims[a]
	parts := make([]sym.Dim, n)
	switch {
	case given && !known:
		for i := range parts {
			parts[i] = upTo(d)
		}
	case given:
		if len(sizes) != n {
			return c.Errorf(errcode.ErrInvalidShape, "split %v has %d sizes for %d outputs", sym.ShapeOf(sizes...), len(sizes), n)
		}
		sum := sym.Const(0)
		for i, s := range sizes {
			p, err := requireNonNegative(c, s, "split["+itoa(i)+"]")
			if err != nil {
				return err
			}
			sum = sym.AddDims(sum, p)
			parts[i] = p
		}
		if _, err := c.Unify(d, sum, "the axis dim and the sum of split "+sym.ShapeOf(sizes...).String()); err != nil {
			return err
		}
	case uneven:
		chunk := sym.CeilDivDims(d, sym.Const(int64(n)))
		last := sym.SubDims(d, sym.MulDims(sym.Const(int64(n-1)), chunk))
		why := "axis " + itoa(a) + " of size " + d.String() + " split into " + itoa(n) + " parts of " + chunk.String() + " and a last one of at least 1"
		if err := requireAtLeast(c, last, 1, why); err != nil {
			return err
		}
		last, _ = last.NonNegative()
		for i := range parts {
			parts[i] = chunk
		}
		parts[n-1] = last
	default:
		if err := requireMultiple(c, d, int64(n), "axis "+itoa(a)+" split into "+itoa(n)+" equal parts"); err != nil {
			return err
		}
		q := sym.QuoDims(d, sym.Const(int64(n)))
		for i := range parts {
			parts[i] = q
		}
	}
	splitOutputs(c, in, a, parts)
	return nil
}

// pad: Pad-1 (paddings attribute), -2 (pads attribute), -11, -13 (pads and constant_value inputs),
// -18 (axes input), -19 (wrap mode), -21. Each padded axis of size D becomes D+begin+end (negative
// pads remove elements), which must not be negative. Values are padded too: constant mode with the
// constant value, edge, reflect and wrap modes where onnxruntime's result is defined (a reflect pad
// below the axis size, a wrap pad at most the axis size, after negative pads crop).
func pad(c *ctx) error { return padOf(c, c.Version()) }

// padOf infers a Pad as ONNX's version v gives it.
func padOf(c *ctx, v int64) error {
	mode, err := c.String("mode", "constant")
	if err != nil {
		return err
	}
	name := "pads"
	if v < 2 {
		name = "paddings"
	}
	var pads []sym.Dim
	given := c.In(1) != nil
	if v < 11 {
		pads, given, err = dimsArg(c, name, 1, 11)
	} else if given {
		pads = c.In(1).Value
	}
	if err != nil || !given {
		return errOr(err, c.Errorf(errcode.ErrSyntax, "Pad has no %s", name))
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	axes := allAxes(r)
	if ax := c.In(3); ax != nil && v >= 18 {
		v, ok := ax.Ints()
		if !ok {
			c.Out(0, in.Type, unknownDims(r))
			return nil
		}
		if axes, err = c.NormAxes(v, r); err != nil {
			return err
		}
	}
	if pads == nil {
		dims := append([]sym.Dim(nil), in.Shape.Dims...)
		for _, a := range axes {
			dims[a] = sym.Unknown()
		}
		c.Out(0, in.Type, sym.ShapeOf(dims...))
		return nil
	}
	if len(pads) != 2*len(axes) {
		return c.Errorf(errcode.ErrInvalidShape, "%d pads for %d axes: want %d", len(pads), len(axes), 2*len(axes))
	}
	begin, end := make([]int64, r), make([]int64, r)
	static := true
	dims := append([]sym.Dim(nil), in.Shape.Dims...)
	for i, a := range axes {
		b, e := pads[i], pads[len(axes)+i]
		d := sym.AddDims(dims[a], sym.AddDims(b, e))
		if err := requireAtLeast(c, d, 0, "axis "+itoa(a)+" of size "+dims[a].String()+" padded by "+b.String()+" and "+e.String()+" not negative"); err != nil {
			return err
		}
		if err := requireORTPad(c, in.Shape, dims[a], a, b, e, mode); err != nil {
			return err
		}
		dims[a], _ = d.NonNegative()
		var ok1, ok2 bool
		begin[a], ok1 = b.Static()
		end[a], ok2 = e.Static()
		static = static && ok1 && ok2
	}
	out := c.Out(0, in.Type, sym.ShapeOf(dims...))
	if static {
		padValues(c, out, in, mode, begin, end, v)
	}
	return nil
}

// requireORTPad states what onnxruntime asks of axis a, of size d in a tensor of shape s, padded
// by b and e (integers) in mode, beyond a size not negative: it crops before it pads, so that a
// non-empty input must hold the crop when the other pad is positive (1 padded by -2 and 3 is
// refused, 0 is not); and it pads an axis of size 0 in edge or reflect mode only by 0.
func requireORTPad(c *ctx, s sym.Shape, d sym.Dim, a int, b, e sym.Dim, mode string) error {
	bs, okb := b.Static()
	es, oke := e.Static()
	if !okb || !oke || max(bs, es) <= 0 {
		return nil
	}
	if crop := min(bs, 0) + min(es, 0); crop < 0 {
		left := sym.AddDims(d, sym.Const(crop))
		why := "axis " + itoa(a) + " of size " + d.String() + " cropped by " + itoa(int(-crop)) + " not negative (onnxruntime crops first)"
		x, ok := left.Expr()
		zeros, okz := emptyWhen(s)
		switch {
		case !ok || !okz:
		case len(zeros) == 0:
			if err := requireAtLeast(c, left, 0, why); err != nil {
				return err
			}
		default:
			if err := c.Require(sym.Or(append([]sym.Pred{sym.Ge(x, sym.Int(0))}, zeros...)...), why+" or the input empty"); err != nil {
				return err
			}
		}
	}
	if mode == "edge" || mode == "reflect" {
		return requireAtLeast(c, d, 1, "axis "+itoa(a)+" of size "+d.String()+" not empty: onnxruntime pads an empty axis in "+mode+" mode only by 0")
	}
	return nil
}

// padValues sets the values of Pad's output, of ONNX's version, when onnxruntime's are defined.
func padValues(c *ctx, out, in *Info, mode string, begin, end []int64, version int64) {
	sd, _, ok := values(in)
	if !ok {
		return
	}
	fill := sym.Const(0)
	switch {
	case version < 11:
		f, err := c.Float("value", 0)
		if err != nil || f != math.Trunc(f) || math.Abs(f) >= 1<<53 {
			return
		}
		fill = sym.Const(int64(f))
	case c.In(2) != nil:
		v, ok := c.Value(2)
		if !ok || len(v) != 1 {
			return
		}
		fill = v[0]
	}
	// After negative pads crop, axis k holds size[k] elements from crop[k] on.
	crop, size := make([]int64, len(sd)), make([]int64, len(sd))
	for k, d := range sd {
		if min(begin[k], end[k]) < -MaxValue || max(begin[k], end[k]) > MaxValue {
			return // a pad longer than any tensor whose values are kept
		}
		crop[k] = max(-begin[k], 0)
		size[k] = d - crop[k] - max(-end[k], 0)
		b, e := max(begin[k], 0), max(end[k], 0)
		ok = ok && size[k] >= 0
		switch mode {
		case "constant":
		case "edge":
			ok = ok && (size[k] >= 1 || b+e == 0)
		case "reflect":
			ok = ok && (b+e == 0 || b < size[k] && e < size[k])
		case "wrap":
			ok = ok && (b+e == 0 || b <= size[k] && e <= size[k])
		default:
			ok = false
		}
	}
	if !ok {
		return
	}
	outValues(out, in, fill, func(k int, i int64) int64 {
		j, n := i-max(begin[k], 0), size[k]
		if j < 0 || j >= n {
			switch mode {
			case "constant":
				return -1
			case "edge":
				j = min(max(j, 0), n-1)
			case "reflect":
				if j < 0 {
					j = -j
				} else {
					j = 2*(n-1) - j
				}
			case "wrap":
				j = (j%n + n) % n
			}
		}
		return j + crop[k]
	})
}

// tile: Tile-1 (tiles and axis inputs), -6, -13 (repeats input): each dim times its repeat count;
// values tiled.
func tile(c *ctx) error {
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	reps := make([]sym.Dim, r)
	for i := range reps {
		reps[i] = sym.Const(1)
	}
	if c.Version() < 6 {
		ins, err := c.Inputs(3)
		if err != nil {
			return err
		}
		t, ok1 := ins[1].Ints()
		a, ok2 := ins[2].Ints()
		if !ok2 || len(a) != 1 {
			c.Out(0, in.Type, unknownDims(r))
			return nil
		}
		axis, err := c.NormAxis(a[0], r)
		if err != nil {
			return err
		}
		reps[axis] = sym.Unknown()
		if ok1 && len(t) == 1 {
			reps[axis] = sym.Const(t[0])
		}
	} else {
		p, err := c.Input(1)
		if err != nil {
			return err
		}
		switch {
		case p.Value != nil && len(p.Value) != r:
			return c.Errorf(errcode.ErrInvalidShape, "%d repeats for rank %d", len(p.Value), r)
		case p.Value != nil:
			copy(reps, p.Value)
		default:
			for i := range reps {
				reps[i] = sym.Unknown()
			}
		}
	}
	return tileBy(c, in, reps, true)
}

// resize: Resize-10 (scales), -11, -13 (roi, scales or sizes), -18, -19 (axes,
// keep_aspect_ratio_policy, antialias): the dims of scaleDims or sizeDims, at axes (every axis by
// default); an empty scales tensor (Resize-11, -13) stands for none.
func resize(c *ctx) error {
	x, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	axes := allAxes(r)
	policy := "stretch"
	if c.Version() >= 18 {
		if v, ok, err := c.Ints("axes"); err != nil {
			return err
		} else if ok {
			if axes, err = c.NormAxes(v, r); err != nil {
				return err
			}
		}
		if policy, err = c.String("keep_aspect_ratio_policy", policy); err != nil {
			return err
		}
	}
	var scales, sizes *Info
	if c.Version() < 11 {
		if scales, err = c.Input(1); err != nil {
			return err
		}
	} else {
		scales, sizes = c.In(2), c.In(3)
		if scales != nil && !scales.Shape.RankDynamic {
			if n, ok := scales.Shape.Volume().Static(); ok && n == 0 {
				scales = nil // an empty scales tensor stands for none (Resize-11, -13)
			}
		}
	}
	var dims []sym.Dim
	switch {
	case scales != nil && sizes != nil:
		return c.Errorf(errcode.ErrSyntax, "Resize has both scales and sizes")
	case scales != nil:
		dims, err = scaleDims(c, x.Shape.Dims, axes, scales)
	case sizes != nil:
		if dims, err = sizeDims(c, x.Shape.Dims, axes, sizes, policy); err == nil && policy == "stretch" {
			err = ortResizeSizes(c, x.Shape.Dims, dims, axes)
		}
	default:
		return c.Errorf(errcode.ErrSyntax, "Resize has neither scales nor sizes")
	}
	if err != nil {
		return err
	}
	if err := ortResizeScales(c, x.Shape.Dims, dims, axes, scales); err != nil {
		return err
	}
	c.Out(0, x.Type, sym.ShapeOf(dims...))
	return nil
}

// ortResizeSizes states what onnxruntime 1.20.1's Resize kernel needs of the sizes input, which the
// ONNX spec does not (upsamplebase.h): it divides each size by its input dim, refusing a scale of 0
// ("Scale value should be greater than 0") and a non-zero size of an empty axis ("Input dim is zero
// but required output dim is non-zero"), so that each resized axis's output dim is 0 exactly where its
// input dim is. A pair that never passes is an error wrapping errcode.ErrInvalidShape; one that passes
// at some bindings, a condition of the node. A dim that is no expression is a loss recorded already
// (recordedElsewhere), where it comes from: sizes of the model's data are then only a run decides.
func ortResizeSizes(c *ctx, in, out []sym.Dim, axes []int) error {
	zero, one := sym.Int(0), sym.Int(1)
	for _, a := range axes {
		if lo, _ := in[a].Bounds(); lo >= 1 {
			if lo, _ := out[a].Bounds(); lo >= 1 {
				continue
			}
		}
		x, ok1 := in[a].Expr()
		y, ok2 := out[a].Expr()
		if !ok1 || !ok2 {
			continue
		}
		p := sym.Or(sym.And(sym.Eq(x, zero), sym.Eq(y, zero)), sym.And(sym.Ge(x, one), sym.Ge(y, one)))
		if err := c.Require(p, fmt.Sprintf("onnxruntime's Resize: output axis %d is 0 exactly where the input's is", a)); err != nil {
			return err
		}
	}
	return nil
}

// recordedElsewhere reports that a dim of in or out, a rule's input and output shapes, is not known
// exactly: a loss of precision recorded already, the input's where it was lost upstream, the
// output's by the engine at this node, after the rule (engine.account), which names its cause (the
// values of an input of the model's data, which only a run decides). A condition on such dims that
// the rule cannot state adds no loss of its own.
func recordedElsewhere(in, out []sym.Dim) bool {
	return !sym.ShapeOf(in...).Determined() || !sym.ShapeOf(out...).Determined()
}

// ortResizeScales states what onnxruntime 1.20.1's Resize kernel needs of the scales of the linear
// and cubic modes, which the ONNX spec does not (upsamplebase.h's ScalesValidation): linear takes
// 2-D and 3-D inputs, 4-D ones whose outer two scales are 1 or whose outermost and innermost are,
// and 5-D ones whose outer two are; cubic 2-D inputs, and 4-D ones whose outer two scales are 1 (or,
// with antialias, the outermost and innermost). An axis's scale is 1 where the scales input (at
// axes, the axes that take one) holds 1, or where the output dim that sizes gives is the input's
// (onnxruntime divides it by the dim). A rank or known scales that never pass are an error wrapping
// errcode.ErrInvalidShape, named after onnxruntime's message; sizes that pass at some bindings are
// a condition of the node; scales not known, a loss of precision, unless a dim is not known exactly,
// a loss recorded already (recordedElsewhere).
func ortResizeScales(c *ctx, in, out []sym.Dim, axes []int, scales *Info) error {
	mode, err := c.String("mode", "nearest")
	if err != nil || mode != "linear" && mode != "cubic" {
		return err
	}
	antialias, err := c.Int("antialias", 0)
	if err != nil {
		return err
	}
	r := len(in)
	var ways [][]int // the sets of axes whose scales must be 1, one set a way the kernel accepts
	switch {
	case r == 2, mode == "linear" && r == 3:
		return nil
	case r == 4 && mode == "linear", r == 4 && antialias != 0:
		ways = [][]int{{0, 1}, {0, 3}}
	case r == 4, r == 5 && mode == "linear":
		ways = [][]int{{0, 1}}
	default:
		return c.Errorf(errcode.ErrInvalidShape, "%s Resize of a %d-D input: onnxruntime's kernel resizes %s", mode, r,
			map[string]string{"linear": "2-D to 5-D inputs", "cubic": "2-D and 4-D inputs"}[mode])
	}
	// unit reports that axis a's scale is 1; ok is false when that is not known.
	unit := func(a int) (sym.Pred, bool) {
		i := slices.Index(axes, a)
		switch {
		case i < 0:
			return sym.True(), true
		case scales != nil:
			if len(scales.Floats) != len(axes) {
				return sym.Pred{}, false
			}
			if scales.Floats[i] == 1 {
				return sym.True(), true
			}
			return sym.False(), true
		}
		xi, ok1 := in[a].Expr()
		xo, ok2 := out[a].Expr()
		if !ok1 || !ok2 || !in[a].Determined() || !out[a].Determined() {
			return sym.Pred{}, false
		}
		return sym.Eq(xo, xi), true
	}
	var either []sym.Pred
	known := true
	for _, way := range ways {
		var all []sym.Pred
		wayKnown := true
		for _, a := range way {
			p, ok := unit(a)
			wayKnown = wayKnown && ok
			all = append(all, p)
		}
		switch p := sym.And(all...); {
		case wayKnown && p.IsTrue():
			return nil
		case wayKnown:
			either = append(either, p)
		default:
			known = false
		}
	}
	if !known {
		// A way not known may be the one that holds: stating the others alone would be too strong.
		if recordedElsewhere(in, out) {
			return nil
		}
		c.Lost("the scales of the " + mode + " mode, which onnxruntime needs to be 1 on the outer axes, are not known")
		return nil
	}
	p := sym.Or(either...)
	why := "onnxruntime's " + mode + " mode: the scales of axes 0 and 1 are 1"
	if len(ways) == 2 {
		why += ", or of axes 0 and 3"
	}
	if p.IsFalse() {
		return c.Errorf(errcode.ErrInvalidShape, "%s never holds", why)
	}
	return c.Require(p, why)
}

// upsample: Upsample-1 (experimental: height_scale and width_scale attributes, both required, of
// a 4-D input [N, C, H, W]), -7 (scales attribute), -9 (scales input; deprecated at opset 10, where
// onnxruntime refuses it): each dim scaled as Resize's scales scale it (scaleDims), every scale at
// least 1.
func upsample(c *ctx) error {
	x, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	scales := &Info{}
	switch v := c.Version(); {
	case v < 7:
		hw := make([]float64, 2)
		for i, name := range []string{"height_scale", "width_scale"} {
			if _, ok := c.n.Attr(name); !ok {
				return c.Errorf(errcode.ErrSyntax, "attribute %s is missing: Upsample-1 takes it", name)
			}
			if hw[i], err = c.Float(name, 1); err != nil {
				return err
			}
		}
		if r != 4 {
			return c.Errorf(errcode.ErrInvalidShape, "input 0 has rank %d: Upsample-1 takes [N, C, H, W]", r)
		}
		scales.Floats, scales.Shape = []float64{1, 1, hw[0], hw[1]}, sym.Ints(4)
	case v < 9:
		f, ok, err := c.Floats("scales")
		if err != nil || !ok {
			return errOr(err, c.Errorf(errcode.ErrSyntax, "Upsample-7 has no scales attribute"))
		}
		scales.Floats, scales.Shape = f, sym.Ints(int64(len(f)))
	default:
		if scales, err = c.Input(1); err != nil {
			return err
		}
	}
	floats := scales.Floats
	if floats == nil && !scales.Shape.RankDynamic {
		if n, ok := scales.Shape.Volume().Static(); ok && n == int64(r) {
			floats = constFloats(scales, r)
		}
	}
	fs, _ := floatValues(scales)
	for i, s := range floats {
		switch {
		case s < 1:
			return c.Errorf(errcode.ErrInvalidShape, "scales[%d] = %g is below 1", i, s)
		case math.IsNaN(s) && len(fs) == r:
			if err := atLeastOne(c, i, fs[i]); err != nil {
				return err
			}
		}
	}
	dims, err := scaleDims(c, x.Shape.Dims, allAxes(r), scales)
	if err != nil {
		return err
	}
	c.Out(0, x.Type, sym.ShapeOf(dims...))
	return nil
}

// scaleDims returns dims with each of axes scaled by the matching element of scales: the output
// dim is floor(D·scale), as ONNX Resize-10..19 and Upsample define it. onnxruntime computes the
// product in float32, and so does scaleDims for a static dim (a scale 0.7f of a dim 10 gives 7,
// where the exact product 6.99999988 would give 6). A symbolic dim D and a scale m/2^k with m < 16
// (2, 0.5, 1.5, 0.75, ...) give the expression (m·D)//2^k, which float32 computes exactly for
// every D below 2^20; other scales give the bounds of the result. Scales that are not known give
// unknown dims; scales below or at 0 are an error wrapping errcode.ErrInvalidShape.
func scaleDims(c *ctx, dims []sym.Dim, axes []int, scales *Info) ([]sym.Dim, error) {
	out := append([]sym.Dim(nil), dims...)
	if n, ok := scales.Shape.Volume().Static(); ok && !scales.Shape.RankDynamic && n != int64(len(axes)) {
		return nil, c.Errorf(errcode.ErrInvalidShape, "%d scales for %d axes", n, len(axes))
	}
	if err := requireCount(c, scales.Shape, int64(len(axes)), "one scale per axis"); err != nil {
		return nil, err
	}
	floats := scales.Floats
	if len(floats) != len(axes) {
		floats = constFloats(scales, len(axes))
	}
	fs, _ := floatValues(scales)
	for i, a := range axes {
		s := floats[i]
		if math.IsNaN(s) {
			out[a] = sym.Unknown()
			if len(fs) == len(axes) {
				d, err := computedScaled(c, dims[a], fs[i])
				if err != nil {
					return nil, err
				}
				out[a] = d
			}
			continue
		}
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, c.Errorf(errcode.ErrInvalidShape, "scales[%d] = %g: a scale is positive and finite", i, s)
		}
		out[a] = scaleDim(dims[a], s)
		if n, ok := out[a].Static(); ok && n == sym.Inf {
			return nil, c.Errorf(errcode.ErrInvalidShape, "axis %d of size %v scaled by %g overflows", a, dims[a], s)
		}
	}
	return out, nil
}

// constFloats returns the n values of a float tensor computed from shapes (fracs.go) where they
// are constants, NaN where they are not (an exporter's scales of opset 9 and 10: the constant
// scales of the batch and channels beside those it divides from the shapes), all NaN when its
// values are not known.
func constFloats(in *Info, n int) []float64 {
	out := make([]float64, n)
	fs, ok := floatValues(in)
	for i := range out {
		out[i] = math.NaN()
		if !ok || len(fs) != n || fs[i].inexact {
			continue
		}
		if num, isConst := fs[i].num.Static(); isConst && num != sym.Inf && num != sym.NegInf {
			out[i] = math.Ldexp(float64(num), fs[i].exp)
		}
	}
	return out
}

// computedScaled returns the dim d scaled by s, a scale computed from shapes in floating point
// (fracs.go: torch's f32(H)/f32(h) at opset 9 and 10), as onnxruntime computes it: the product of
// s and d converted to float32, truncated. A scale known exactly, num·2^exp with num at least 1,
// gives floor(d·num·2^exp), which float32 computes where the integers on the way are within 2^24:
// required, as a Cast back to integers requires them (requireNeeds). Any other scale gives the
// product as the model rounds it (sym.Trunc), which evaluates bit for bit as onnxruntime does at
// every binding. Unknown where d is no expression, or s's value as the model computes it is not
// known. The error is the solver's, for a requirement that cannot hold.
func computedScaled(c *ctx, d sym.Dim, s frac) (sym.Dim, error) {
	if _, ok := d.Expr(); !ok {
		return sym.Unknown(), nil
	}
	if lo, _ := s.num.Bounds(); !s.inexact && lo >= 1 && s.exp >= -30 && s.exp <= 30 {
		p := sym.MulDims(d, s.num)
		out := sym.FloorDivDims(p, sym.Const(1<<max(-s.exp, 0)))
		if s.exp > 0 {
			out = sym.MulDims(p, sym.Const(1<<s.exp))
		}
		needs := withNeeds([]need{{d, 24}, {p, 24}}, s)
		return out, requireNeeds(c, []frac{{needs: needs}}, element.F32)
	}
	if s.fl.Bits() == 0 {
		return sym.Unknown(), nil
	}
	x, _ := d.Expr()
	if a, ok := ceilQuotient(s.fl, x); ok {
		// floor(h·(f32(H)/f32(h))) is H for h = ceil(H/2^k) and every H within 2^24 (checked for
		// k up to 12 at every H below 2^24): the quotient's significand is at least H's, so its
		// rounding moves the product by less than half a unit of H.
		return sym.Of(a), requireNeeds(c, []frac{{needs: []need{{sym.Of(a), 24}}}}, element.F32)
	}
	fs, ok := sym.FloatCast(s.fl, 32)
	if !ok {
		return sym.Unknown(), nil
	}
	fd, ok := sym.FloatOf(x, 32)
	if !ok {
		return sym.Unknown(), nil
	}
	p, ok := sym.FloatBinary(sym.FloatMul, fs, fd)
	if !ok {
		return sym.Unknown(), nil
	}
	t, ok := sym.Trunc(p)
	if !ok {
		return sym.Unknown(), nil
	}
	return sym.Of(t), nil
}

// ceilQuotient returns A where the scale f is f32(A)/f32(B) of the dim B it scales, and B is
// ceil(A/2^k) for a k of at most 12 (torch's size over the size after k strides of 2, rounded up:
// (H+15)//16 after four).
func ceilQuotient(f sym.Float, b sym.Expr) (sym.Expr, bool) {
	a, den, ok := f.Quotient()
	if !ok || !den.Equal(b) {
		return sym.Expr{}, false
	}
	for k := range 13 {
		up := sym.FloorDivDims(sym.AddDims(sym.Of(a), sym.Const(1<<k-1)), sym.Const(1<<k))
		if up.Equal(sym.Of(b)) {
			return a, true
		}
	}
	return sym.Expr{}, false
}

// atLeastOne requires the scale i, s, computed from shapes, at least 1, as onnxruntime's Upsample
// requires each scale: of an exact scale num·2^exp, num at least 2^-exp; of a quotient
// f32(x)/f32(y), nothing where x >= y and x >= 1 hold (rounding keeps a quotient of at least 1 so,
// and x/0 is infinite), else the scale as the model computes it. A scale whose value is not known leaves the output's
// dims unknown, a loss at the node.
func atLeastOne(c *ctx, i int, s frac) error {
	why := "onnxruntime's Upsample: scales[" + itoa(i) + "] at least 1"
	switch {
	case !s.inexact:
		return requireAtLeast(c, s.num, 1<<max(-s.exp, 0), why)
	case s.fl.Bits() == 0:
		return nil
	}
	if x, y, ok := s.fl.Quotient(); ok && c.When(sym.And(sym.Ge(x, y), sym.Ge(x, sym.Int(1)))).IsTrue() {
		return nil
	}
	t, ok := sym.Trunc(s.fl)
	if !ok {
		c.Lost(why + ": the scale is no expression in the symbols")
		return nil
	}
	return c.Require(sym.Ge(t, sym.Int(1)), why)
}

// scaleDim returns floor(d·s) as scaleDims defines it.
func scaleDim(d sym.Dim, s float64) sym.Dim {
	f := func(n int64) int64 {
		if n == sym.Inf {
			return sym.Inf
		}
		p := float32(float32(n) * float32(s))
		if p >= math.MaxInt64 {
			return sym.Inf
		}
		return int64(p)
	}
	if n, ok := d.Static(); ok {
		return sym.Const(f(n))
	}
	if m, k, ok := dyadic(s); ok && m < 16 {
		return sym.FloorDivDims(sym.MulDims(d, sym.Const(m)), sym.Const(1<<k))
	}
	lo, hi := d.Bounds()
	return sym.Interval(f(max(lo, 0)), f(hi))
}

// dyadic returns m and k with s = m/2^k, m odd or k 0, when s is such a number with k <= 30.
func dyadic(s float64) (m int64, k uint, ok bool) {
	for k = 0; k <= 30; k++ {
		x := math.Ldexp(s, int(k))
		if x == math.Trunc(x) && x < 1<<53 {
			return int64(x), k, true
		}
	}
	return 0, 0, false
}

// sizeDims returns dims with each of axes set to the matching element of sizes (Resize-11..19),
// kept in proportion by keep_aspect_ratio_policy (Resize-18, -19): "not_larger" scales every axis
// by the smallest ratio of size to dim, "not_smaller" by the largest, and each output dim is
// round(scale·D), computed in float32 as onnxruntime does; with a policy, only static dims and
// sizes give static results, and a scale not above 0 is an error wrapping errcode.ErrInvalidShape
// (a negative size is taken as it is: onnxruntime 1.20.1 resizes [1,1,2,2] to at least [-2,5] to
// [1,1,5,5]). Without a policy, a size that is negative is an error wrapping
// errcode.ErrInvalidShape; one that may be is left to ortResizeSizes, whose condition (an output dim of at least 1 where
// the input's is not 0) excludes it, as onnxruntime refuses a negative scale as it does a zero one
// ("Scale value should be greater than 0", bench/truth shape_negative).
func sizeDims(c *ctx, dims []sym.Dim, axes []int, sizes *Info, policy string) ([]sym.Dim, error) {
	out := append([]sym.Dim(nil), dims...)
	if n, ok := sizes.Shape.Volume().Static(); ok && !sizes.Shape.RankDynamic && n != int64(len(axes)) {
		return nil, c.Errorf(errcode.ErrInvalidShape, "%d sizes for %d axes", n, len(axes))
	}
	if err := requireCount(c, sizes.Shape, int64(len(axes)), "one size per axis"); err != nil {
		return nil, err
	}
	v := sizes.Value
	if len(v) != len(axes) {
		for _, a := range axes {
			out[a] = sym.Unknown()
		}
		return out, nil
	}
	for i, a := range axes {
		out[a] = v[i]
		if policy != "stretch" {
			continue // a negative size of one axis may leave the scale of another
		}
		d, ok := v[i].NonNegative()
		if !ok {
			return nil, c.Errorf(errcode.ErrInvalidShape, "sizes[%d] = %v is negative", i, v[i])
		}
		out[a] = d
	}
	switch policy {
	case "stretch":
		return out, nil
	case "not_larger", "not_smaller":
	default:
		return nil, c.Errorf(errcode.ErrSyntax, "keep_aspect_ratio_policy %q is not stretch, not_larger or not_smaller", policy)
	}
	var scale float32
	for i, a := range axes {
		in, ok1 := dims[a].Static()
		size, ok2 := out[a].Static()
		if !ok1 || !ok2 || in == 0 {
			for _, a := range axes {
				out[a] = sym.Unknown()
			}
			return out, nil
		}
		s := float32(float32(size) / float32(in))
		if i == 0 || policy == "not_larger" && s < scale || policy == "not_smaller" && s > scale {
			scale = s
		}
	}
	if !(scale > 0) {
		return nil, c.Errorf(errcode.ErrInvalidShape, "sizes %v with keep_aspect_ratio_policy %s give the scale %g: onnxruntime's Resize needs it above 0",
			sym.ShapeOf(v...), policy, scale)
	}
	for _, a := range axes {
		in, _ := dims[a].Static()
		n := math.Round(float64(float32(scale * float32(in))))
		if n >= math.MaxInt64 {
			return nil, c.Errorf(errcode.ErrInvalidShape, "axis %d of size %d scaled by %g overflows", a, in, scale)
		}
		out[a] = sym.Const(int64(n))
	}
	return out, nil
}

// maxBlock bounds a blocksize, so that its square is an int64.
const maxBlock int64 = 1 << 31

// blockSize returns the blocksize attribute, which the node must have, in [1, maxBlock].
func blockSize(c *ctx) (int64, error) {
	if _, ok := c.n.Attr("blocksize"); !ok {
		return 0, c.Errorf(errcode.ErrSyntax, "%s has no blocksize", c.n.Op)
	}
	b, err := c.Int("blocksize", 0)
	if err != nil {
		return 0, err
	}
	if b <= 0 || b > maxBlock {
		return 0, c.Errorf(errcode.ErrInvalidShape, "blocksize = %d: want a blocksize in [1, %d]", b, maxBlock)
	}
	return b, nil
}

// depthToSpace: DepthToSpace-1, -11, -13 (DCR and CRD modes alike): [N, C, H, W] becomes
// [N, C/b², H·b, W·b]; C must be a multiple of b².
func depthToSpace(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	b, err := blockSize(c)
	if err != nil {
		return err
	}
	if _, ok, err := c.RequireRank(in, 0, 4, 4); err != nil || !ok {
		c.Out(0, in.Type, unknownDims(4))
		return err
	}
	d := in.Shape.Dims
	if err := requireMultiple(c, d[1], b*b, "the channels a multiple of blocksize² = "+itoa(int(b*b))); err != nil {
		return err
	}
	bb := sym.Const(b)
	c.Out(0, in.Type, sym.ShapeOf(d[0], sym.QuoDims(d[1], sym.Const(b*b)), sym.MulDims(d[2], bb), sym.MulDims(d[3], bb)))
	return nil
}

// spaceToDepth: SpaceToDepth-1, -13: [N, C, H, W] becomes [N, C·b², H/b, W/b]; H and W must be
// multiples of b.
func spaceToDepth(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	b, err := blockSize(c)
	if err != nil {
		return err
	}
	if _, ok, err := c.RequireRank(in, 0, 4, 4); err != nil || !ok {
		c.Out(0, in.Type, unknownDims(4))
		return err
	}
	d := in.Shape.Dims
	for _, i := range []int{2, 3} {
		if err := requireMultiple(c, d[i], b, "dim "+itoa(i)+" a multiple of blocksize "+itoa(int(b))); err != nil {
			return err
		}
	}
	bb := sym.Const(b)
	c.Out(0, in.Type, sym.ShapeOf(d[0], sym.MulDims(d[1], sym.Const(b*b)), sym.QuoDims(d[2], bb), sym.QuoDims(d[3], bb)))
	return nil
}

// centerCropPad: CenterCropPad-18: the dims at axes (every axis by default) become the values of
// the shape input, 0 for a negative one.
func centerCropPad(c *ctx) error {
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	sh, err := c.Input(1)
	if err != nil {
		return err
	}
	axes := allAxes(r)
	if v, ok, err := c.Ints("axes"); err != nil {
		return err
	} else if ok {
		if axes, err = c.NormAxes(v, r); err != nil {
			return err
		}
	}
	dims := append([]sym.Dim(nil), in.Shape.Dims...)
	if sh.Value != nil && len(sh.Value) != len(axes) {
		return c.Errorf(errcode.ErrInvalidShape, "shape has %d values for %d axes", len(sh.Value), len(axes))
	}
	for i, a := range axes {
		dims[a] = sym.Unknown()
		if sh.Value != nil {
			// onnxruntime 1.20.1 crops to an empty axis where the shape is negative (its function
			// body pads by none and slices backwards): the dim is max(shape, 0), bench/truth
			// narrow_negative.
			dims[a] = sym.MaxDims(sh.Value[i], sym.Const(0))
		}
	}
	c.Out(0, in.Type, sym.ShapeOf(dims...))
	return nil
}

// col2Im: Col2Im-18: input [N, C·∏block_shape, L] becomes [N, C, image_shape...]; dim 1 is
// required to be a multiple of the block volume, an integer or an expression in the symbols (a
// block_shape computed from a shape: K*K). A value of image_shape that may be negative is a
// condition of the node (shapeFromValue): onnxruntime 1.20.1 refuses one ("Tensor shape.Size() must
// be >= 0", bench/truth shape_negative) and runs a 0.
func col2Im(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	in, block := ins[0], ins[2]
	if _, _, err := c.RequireRank(in, 0, 3, 3); err != nil {
		return err
	}
	image, err := shapeFromValue(c, 1)
	if err != nil {
		return err
	}
	ch := sym.Unknown()
	if !in.Shape.RankDynamic && block.Value != nil {
		p := sym.Const(1)
		for i, b := range block.Value {
			nb, err := requireSize(c, b, 1, "block_shape["+itoa(i)+"]")
			if err != nil {
				return err
			}
			p = sym.MulDims(p, nb)
		}
		if err := requireMultipleOf(c, in.Shape.Dims[1], p, "dim 1 a multiple of the block volume "+p.String()); err != nil {
			return err
		}
		ch, _ = sym.QuoDims(in.Shape.Dims[1], p).NonNegative()
	}
	if image.RankDynamic {
		c.Out(0, in.Type, sym.DynamicRank())
		return nil
	}
	n := sym.Unknown()
	if !in.Shape.RankDynamic {
		n = in.Shape.Dims[0]
	}
	c.Out(0, in.Type, sym.ShapeOf(append([]sym.Dim{n, ch}, image.Dims...)...))
	return nil
}

// reverseSequence: ReverseSequence-10: the output has the input's type and shape, rank 2 or more;
// the 1-D sequence_lens unifies with the input's dim at batch_axis (1 by default), and time_axis
// (0 by default) is the other of the first two axes. An axis out of range, or the two equal, is an
// error wrapping errcode.ErrInvalidShape.
func reverseSequence(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	batch, err := c.Int("batch_axis", 1)
	if err != nil {
		return err
	}
	time, err := c.Int("time_axis", 0)
	if err != nil {
		return err
	}
	if batch < 0 || batch > 1 || time < 0 || time > 1 || batch == time {
		return c.Errorf(errcode.ErrInvalidShape, "batch_axis %d and time_axis %d: want 0 and 1, or 1 and 0", batch, time)
	}
	x := ins[0]
	if _, ok, err := c.RequireRank(x, 0, 2, -1); err != nil {
		return err
	} else if ok {
		if _, ok, err := c.RequireRank(ins[1], 1, 1, 1); err != nil {
			return err
		} else if ok {
			if _, err := c.Unify(x.Shape.Dims[batch], ins[1].Shape.Dims[0], "the batch dim and sequence_lens' length"); err != nil {
				return err
			}
		}
	}
	c.SameAs(0, x)
	return nil
}

// crop: the experimental Crop-1 of opset 1, which onnxruntime still runs: X [N, C, H, W] gives
// [N, C, scale[0], scale[1]] when the node has scale (height, width), else [N, C, H-top-bottom,
// W-left-right] of border (left, top, right, bottom, required). A border or scale of another
// length, or a size below 0, is an error wrapping errcode.ErrInvalidShape; a size that may be
// below 0 is required not negative.
func crop(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	border, ok, err := c.Ints("border")
	if err != nil {
		return err
	}
	if !ok || len(border) != 4 {
		return c.Errorf(errcode.ErrInvalidShape, "border %v: want 4 values, left, top, right and bottom", border)
	}
	scale, hasScale, err := c.Ints("scale")
	if err != nil {
		return err
	}
	if hasScale && (len(scale) != 2 || scale[0] < 0 || scale[1] < 0) {
		return c.Errorf(errcode.ErrInvalidShape, "scale %v: want 2 sizes, height and width", scale)
	}
	if _, ok, err := c.RequireRank(x, 0, 4, 4); err != nil || !ok {
		if err == nil {
			c.Out(0, x.Type, unknownDims(4))
		}
		return err
	}
	dims := append([]sym.Dim(nil), x.Shape.Dims...)
	for i := range 2 {
		if hasScale {
			dims[2+i] = sym.Const(scale[i])
			continue
		}
		d, err := requireNonNegative(c, sym.SubDims(dims[2+i], sym.Const(border[1-i]+border[3-i])),
			"dim "+itoa(2+i)+" less the borders "+itoa(int(border[1-i]))+" and "+itoa(int(border[3-i])))
		if err != nil {
			return err
		}
		dims[2+i] = d
	}
	c.Out(0, x.Type, sym.ShapeOf(dims...))
	return nil
}
