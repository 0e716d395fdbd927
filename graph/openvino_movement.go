package graph

import (
	"math"
	"slices"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoMovement holds the rules of the OpenVINO IR layers that move data: tiles, splits, pads,
// Interpolate, reversals and rolls. Tile and the splits also move the values of small integer
// tensors.
var openvinoMovement = table{DomainOpenVINO, []opDef{
	{"Tile", since(1), fixed(2), fixed(1), reads(0, 1), ovTile},
	{"Split", since(1), fixed(2), span(1, many), reads(0, 1), ovSplit},
	{"VariadicSplit", since(1), fixed(3), span(1, many), reads(0, 1, 2), ovVariadicSplit},
	{"Pad", since(1, 12), span(3, 4), fixed(1), reads(1, 2), ovPad},
	{"Interpolate", since(1), fixed(2), fixed(1), reads(1), ovInterpolate},
	{"Interpolate", since(4), span(3, 4), fixed(1), reads(1, 2, 3), ovInterpolate},
	{"Interpolate", since(11), span(2, 3), fixed(1), reads(1, 2), ovInterpolate},
	{"Reverse", since(1), fixed(2), fixed(1), reads(1), ovReverse},
	{"Roll", since(7), fixed(3), fixed(1), reads(2), ovRoll},
	{"ReverseSequence", since(1), fixed(2), fixed(1), 0, ovReverseSequence},
	{"GatherTree", since(1), fixed(4), fixed(1), 0, ovGatherTree},
}}

// ovTile: Tile-1: each dim multiplied by its repeat (input 1, 1-D), the shorter of the two padded
// with 1s at the front; values tiled.
func ovTile(c *ctx) error {
	if _, _, err := ovVector(c, 1, "repeats"); err != nil {
		return err
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	rep := ins[1].Value
	if rep == nil {
		return nil
	}
	n := max(r, len(rep))
	dims, reps := make([]sym.Dim, n), make([]sym.Dim, n)
	for i := range n {
		dims[i], reps[i] = sym.Const(1), sym.Const(1)
		if j := i - (n - r); j >= 0 {
			dims[i] = in.Shape.Dims[j]
		}
		if j := i - (n - len(rep)); j >= 0 {
			reps[i] = rep[j]
		}
	}
	return tileBy(c, &Info{Type: in.Type, Shape: sym.ShapeOf(dims...), Value: in.Value}, reps, false)
}

// ovSplit: Split-1: num_splits equal parts along the axis (input 1), each of the axis's dim divided
// by num_splits, exactly; a static dim that num_splits does not divide is an error wrapping
// errcode.ErrInvalidShape. Values split when known.
func ovSplit(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	n, err := c.Int("num_splits", 0)
	if err != nil {
		return err
	}
	if n <= 0 || int64(c.NumOut()) != n {
		return c.Errorf(errcode.ErrSyntax, "num_splits %d with %d outputs", n, c.NumOut())
	}
	a, ok, err := ovSplitAxis(c, ins[0])
	if err != nil || !ok {
		return err
	}
	d := ins[0].Shape.Dims[a]
	if err := requireMultiple(c, d, n, "axis "+itoa(a)+" split into "+itoa(int(n))+" equal parts"); err != nil {
		return err
	}
	part := sym.QuoDims(d, sym.Const(n))
	parts := make([]sym.Dim, n)
	for i := range parts {
		parts[i] = part
	}
	splitOutputs(c, ins[0], a, parts)
	return nil
}

// ovVariadicSplit: VariadicSplit-1: parts of the lengths input 2 holds along the axis (input 1),
// one of them -1 for the rest; lengths that do not sum to the axis's dim are an error wrapping
// errcode.ErrInvalidShape. Values split when known.
func ovVariadicSplit(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	a, ok, err := ovSplitAxis(c, ins[0])
	if err != nil || !ok || ins[2].Value == nil {
		return err
	}
	lengths := ins[2].Value
	if len(lengths) != c.NumOut() {
		return c.Errorf(errcode.ErrSyntax, "%d split lengths and %d outputs", len(lengths), c.NumOut())
	}
	d := ins[0].Shape.Dims[a]
	parts := slices.Clone(lengths)
	rest, sum := -1, sym.Const(0)
	for i, l := range lengths {
		if n, ok := l.Static(); ok && n == -1 {
			if rest >= 0 {
				return c.Errorf(errcode.ErrInvalidShape, "split lengths %v: -1 twice", sym.ShapeOf(lengths...))
			}
			rest = i
			continue
		}
		nn, err := requireNonNegative(c, l, "split lengths "+sym.ShapeOf(lengths...).String()+": element "+itoa(i))
		if err != nil {
			return err
		}
		parts[i] = nn
		sum = sym.AddDims(sum, nn)
	}
	if rest >= 0 {
		p := sym.SubDims(d, sum)
		if err := requireAtLeast(c, p, 0, "split lengths "+sym.ShapeOf(lengths...).String()+" within the axis's "+d.String()); err != nil {
			return err
		}
		parts[rest], _ = p.NonNegative()
	} else if _, err := c.Unify(sum, d, "the sum of the split lengths and the axis"); err != nil {
		return err
	}
	splitOutputs(c, ins[0], a, parts)
	return nil
}

// ovSplitAxis returns the split axis (the scalar input 1) of in, normalized; ok is false when it
// or the rank is not known.
func ovSplitAxis(c *ctx, in *Info) (int, bool, error) {
	axis, known, err := ovScalar(c, 1, "axis")
	r, ok := in.Rank()
	if err != nil || !known || !ok {
		return 0, false, err
	}
	a, err := c.NormAxis(axis, r)
	return a, err == nil, err
}

// ovPad: Pad-1, -12: each dim grown by its pads_begin and pads_end (inputs 1 and 2, 1-D of at
// most the data's rank elements, one per axis where their values are known), which may be
// negative at Pad-12; a dim below 0 is an error wrapping errcode.ErrInvalidShape. The pad_value
// (input 3) is a scalar; pad_mode edge needs a padded dim of at least 1, reflect of at least 2.
func ovPad(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	mode, err := c.String("pad_mode", "constant")
	if err != nil {
		return err
	}
	least := map[string]int64{"constant": 0, "symmetric": 0, "edge": 1, "reflect": 2}
	if _, ok := least[mode]; !ok {
		return c.Errorf(errcode.ErrSyntax, "pad_mode %q: want constant, edge, reflect or symmetric", mode)
	}
	if v := c.In(3); v != nil {
		if _, _, err := c.RequireRank(v, 3, 0, 0); err != nil {
			return err
		}
	}
	r, rok := ins[0].Rank()
	for i, what := range []string{"pads_begin", "pads_end"} {
		_, n, err := ovVector(c, i+1, what)
		if err != nil {
			return err
		}
		if rok && n > r {
			return c.Errorf(errcode.ErrInvalidShape, "%s has %d elements for data of rank %d", what, n, r)
		}
	}
	in := ins[0]
	pb, pe := ins[1].Value, ins[2].Value
	if !rok || pb == nil || pe == nil {
		return nil
	}
	if len(pb) != r || len(pe) != r {
		return c.Errorf(errcode.ErrInvalidShape, "%d pads_begin and %d pads_end for rank %d", len(pb), len(pe), r)
	}
	dims := make([]sym.Dim, r)
	for i, d := range in.Shape.Dims {
		if _, hb := pb[i].Bounds(); least[mode] > 0 {
			if _, he := pe[i].Bounds(); hb > 0 || he > 0 {
				if err := requireAtLeast(c, d, least[mode], "axis "+itoa(i)+", which pad_mode "+mode+" pads"); err != nil {
					return err
				}
			}
		}
		p := sym.AddDims(d, sym.AddDims(pb[i], pe[i]))
		if err := requireAtLeast(c, p, 0, "axis "+itoa(i)+": "+d.String()+" padded by "+pb[i].String()+" and "+pe[i].String()+" not negative"); err != nil {
			return err
		}
		dims[i], _ = p.NonNegative()
	}
	c.Out(0, in.Type, sym.ShapeOf(dims...))
	return nil
}

// ovInterpolate: Interpolate-1 (axes attribute, target_shape input 1): the axes' dims become the
// target shape's values. Interpolate-4 (sizes input 1, scales input 2, axes input 3) and -11
// (sizes or scales input 1, axes input 2): every dim padded by pads_begin and pads_end (missing
// trailing pads are 0), then on the axes (all by default) the sizes, or with
// shape_calculation_mode scales floor(padded·scale + 1e-5). The sizes, scales, target shape and
// axes are 1-D, sizes and scales of one element per axis (of -11, sizes an integer type, scales
// f16, bf16 or f32); mode is one the version defines.
func ovInterpolate(c *ctx) error {
	if c.Version() < 4 {
		return ovInterpolate1(c)
	}
	modes := []string{"nearest", "linear", "linear_onnx", "cubic"}
	if c.Version() >= 11 {
		modes = append(modes, "bilinear_pillow", "bicubic_pillow")
	}
	if m, err := c.String("mode", ""); err != nil {
		return err
	} else if !slices.Contains(modes, m) {
		return c.Errorf(errcode.ErrSyntax, "mode %q: Interpolate-%d interpolates %v", m, c.Version(), modes)
	}
	calc, err := c.String("shape_calculation_mode", "")
	if err != nil {
		return err
	}
	if calc != "sizes" && calc != "scales" {
		return c.Errorf(errcode.ErrSyntax, "shape_calculation_mode %q: want sizes or scales", calc)
	}
	arg, axesIn := 1, 2
	if c.Version() < 11 {
		axesIn = 3
		if calc == "scales" {
			arg = 2
		}
	}
	n := -1 // the number of axes
	for i := 1; i < c.NumIn(); i++ {
		if c.In(i) == nil {
			continue
		}
		_, k, err := ovVector(c, i, "input "+itoa(i))
		if err != nil {
			return err
		}
		if i == axesIn {
			n = k
		}
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if c.In(axesIn) == nil {
		n = r
	}
	src, err := c.Input(arg)
	if err != nil {
		return err
	}
	want := irSizes
	if calc == "scales" {
		want = irScales
	}
	if c.Version() >= 11 && src.Type != element.Undefined && !want.has(src.Type) {
		return c.Errorf(errcode.ErrDataType, "%s of %v: shape_calculation_mode %s takes %v", calc, src.Type, calc, want)
	}
	if _, k, _ := ovVector(c, arg, calc); n >= 0 && k >= 0 && k != n {
		return c.Errorf(errcode.ErrInvalidShape, "%s has %d elements for %d axes", calc, k, n)
	}
	dims := slices.Clone(in.Shape.Dims)
	for _, name := range []string{"pads_begin", "pads_end"} {
		p, _, err := c.Ints(name)
		if err != nil {
			return err
		}
		if len(p) > r {
			return c.Errorf(errcode.ErrInvalidShape, "%s %v for rank %d", name, p, r)
		}
		for i, x := range p {
			dims[i] = sym.AddDims(dims[i], sym.Const(x))
		}
	}
	var axes []int64
	if a := c.In(axesIn); a != nil {
		var ok bool
		if axes, ok = a.Ints(); !ok {
			return nil
		}
	} else {
		for i := range r {
			axes = append(axes, int64(i))
		}
	}
	ax, err := c.NormAxes(axes, r)
	if err != nil {
		return err
	}
	for k, a := range ax {
		switch {
		case calc == "sizes" && len(src.Value) == len(ax):
			n, err := requireNonNegative(c, src.Value[k], "sizes["+itoa(k)+"]")
			if err != nil {
				return err
			}
			dims[a] = n
		case calc == "scales" && len(src.Floats) == len(ax):
			p, ok := dims[a].Static()
			if !ok {
				dims[a] = sym.Unknown()
				continue
			}
			f := math.Floor(float64(p)*src.Floats[k] + 1e-5)
			if !(f >= 0 && f < 1<<62) {
				return c.Errorf(errcode.ErrInvalidShape, "scales[%d] = %g gives the size %g", k, src.Floats[k], f)
			}
			dims[a] = sym.Const(int64(f))
		default:
			dims[a] = sym.Unknown()
		}
	}
	c.Out(0, in.Type, sym.ShapeOf(dims...))
	return nil
}

// ovInterpolate1 is ovInterpolate of Interpolate-1: the dims at the axes attribute become the
// values of the 1-D target_shape (input 1), one per axis, unknown when they are not known or not
// one per axis; the pads leave the shape alone.
func ovInterpolate1(c *ctx) error {
	target, _, err := ovVector(c, 1, "target_shape")
	if err != nil {
		return err
	}
	axes, _, err := c.Ints("axes")
	if err != nil {
		return err
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	ax, err := c.NormAxes(axes, r)
	if err != nil {
		return err
	}
	dims := c.clone(in.Shape.Dims)
	for k, a := range ax {
		dims[a] = sym.Unknown()
		if len(target.Value) == len(ax) {
			if dims[a], err = requireNonNegative(c, target.Value[k], "target_shape["+itoa(k)+"]"); err != nil {
				return err
			}
		}
	}
	c.Out(0, in.Type, sym.ShapeOf(dims...))
	return nil
}

// ovReverse: Reverse-1: the data's shape. With mode index the axes (input 1) are 1-D axes of the
// data, of an integer type; with mode mask a 1-D boolean of one element per axis.
func ovReverse(c *ctx) error {
	mode, err := c.String("mode", "")
	if err != nil {
		return err
	}
	if mode != "index" && mode != "mask" {
		return c.Errorf(errcode.ErrSyntax, "mode %q: want index or mask", mode)
	}
	data, err := c.Input(0)
	if err != nil {
		return err
	}
	axes, n, err := ovVector(c, 1, "axes")
	if err != nil {
		return err
	}
	if t := axes.Type; t != element.Undefined && ((mode == "mask") != (t == element.Boolean) || mode == "index" && t.IsFloat()) {
		return c.Errorf(errcode.ErrDataType, "the axes are %v: mode %s takes integer indices, mask booleans", t, mode)
	}
	if r, ok := data.Rank(); ok {
		switch ax, known := axes.Ints(); {
		case mode == "mask" && n >= 0 && n != r:
			return c.Errorf(errcode.ErrInvalidShape, "the mask has %d elements, the data has rank %d", n, r)
		case mode == "index" && known:
			if _, err := ovAxes(c, ax, r); err != nil {
				return err
			}
		}
	}
	c.SameAs(0, data)
	return nil
}

// ovRoll: Roll-7: the data's shape. shift (input 1) and axes (input 2) are scalars or 1-D, of
// one length when shift is 1-D; the axes are axes of the data.
func ovRoll(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	data, shift, axes := ins[0], ins[1], ins[2]
	rs, sok, err := c.RequireRank(shift, 1, 0, 1)
	if err != nil {
		return err
	}
	ra, aok, err := c.RequireRank(axes, 2, 0, 1)
	if err != nil {
		return err
	}
	if sok && rs == 1 {
		if aok && ra != 1 {
			return c.Errorf(errcode.ErrInvalidShape, "shift is 1-D and axes a scalar: want axes of shift's length")
		}
		if aok {
			if _, err := c.Unify(shift.Shape.Dims[0], axes.Shape.Dims[0], "the lengths of shift and axes"); err != nil {
				return err
			}
		}
	}
	if r, ok := data.Rank(); ok {
		if ax, known := axes.Ints(); known {
			if _, err := ovAxes(c, ax, r); err != nil {
				return err
			}
		}
	}
	c.SameAs(0, data)
	return nil
}

// ovReverseSequence: ReverseSequence-1: the data's shape, rank 2 or more; seq_lengths (input 1)
// is 1-D, its length the data's dim at batch_axis (0 by default); seq_axis (1 by default) is an
// axis of the data too. OpenVINO refuses a negative axis for data of dynamic rank.
func ovReverseSequence(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	batch, err := c.Int("batch_axis", 0)
	if err != nil {
		return err
	}
	seq, err := c.Int("seq_axis", 1)
	if err != nil {
		return err
	}
	data := ins[0]
	lengths, _, err := ovVector(c, 1, "seq_lengths")
	if err != nil {
		return err
	}
	r, ok, err := c.RequireRank(data, 0, 2, -1)
	if err != nil {
		return err
	}
	if !ok {
		if batch < 0 || seq < 0 {
			return c.Errorf(errcode.ErrInvalidShape, "batch_axis %d, seq_axis %d: a negative axis needs the data's rank", batch, seq)
		}
		c.SameAs(0, data)
		return nil
	}
	b, err := c.NormAxis(batch, r)
	if err != nil {
		return err
	}
	if _, err := c.NormAxis(seq, r); err != nil {
		return err
	}
	s := data.Shape
	if lr, ok := lengths.Rank(); ok && lr == 1 {
		n, err := c.Unify(data.Shape.Dims[b], lengths.Shape.Dims[0], "the batch dim and the length of seq_lengths")
		if err != nil {
			return err
		}
		s = sym.ShapeOf(withDim(data.Shape.Dims, b, n)...)
	}
	c.Out(0, data.Type, s)
	return nil
}

// ovGatherTree: GatherTree-1: step_ids and parent_idx (inputs 0 and 1) are [T, B, W] of one shape,
// max_seq_len (input 2) [B] and end_token (input 3) a scalar; the output has the shape of
// step_ids.
func ovGatherTree(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	s, err := unifyShape(c, ins[0].Shape, ins[1].Shape, "step_ids and parent_idx")
	if err != nil {
		return err
	}
	for i, r := range [...]int{3, 3, 1, 0} {
		if _, _, err := c.RequireRank(ins[i], i, r, r); err != nil {
			return err
		}
	}
	if s.RankDynamic {
		s = ins[1].Shape
	}
	if !s.RankDynamic && !ins[2].Shape.RankDynamic {
		b, err := c.Unify(s.Dims[1], ins[2].Shape.Dims[0], "the batch of step_ids and the length of max_seq_len")
		if err != nil {
			return err
		}
		s = sym.ShapeOf(withDim(s.Dims, 1, b)...)
	}
	c.Out(0, ins[0].Type, s)
	return nil
}
