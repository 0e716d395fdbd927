package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/sym"
)

// NormAxis returns axis counted from the front of rank dims: an axis in [-rank, rank-1], negative
// ones counting from the end. Other axes are an error wrapping errcode.ErrInvalidShape.
func (c *ctx) NormAxis(axis int64, rank int) (int, error) {
	r := int64(rank)
	if axis < -r || axis >= r {
		return 0, c.Errorf(errcode.ErrInvalidShape, "axis %d is out of range for rank %d", axis, rank)
	}
	if axis < 0 {
		axis += r
	}
	return int(axis), nil
}

// NormAxes normalizes a list of axes as NormAxis and refuses repeats.
func (c *ctx) NormAxes(axes []int64, rank int) ([]int, error) {
	out := make([]int, len(axes))
	seen := make([]bool, rank)
	for i, a := range axes {
		n, err := c.NormAxis(a, rank)
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, c.Errorf(errcode.ErrInvalidShape, "axis %d appears twice in %v", a, axes)
		}
		seen[n] = true
		out[i] = n
	}
	return out, nil
}

// Ranked returns input i, which the node must give (a missing one is an error wrapping
// errcode.ErrSyntax), and its rank: the prologue of a rule that needs the rank. When the rank is not
// known, ok is false and the outputs follow the policy of the node's dialect (dialect.unknownRank),
// after which the rule returns: ONNX's rules give each output a dynamic rank and input i's element
// type; OpenVINO's and oneDNN's leave the outputs to the model's declaration (an IR file declares
// the shape of every output port, a oneDNN Graph file that of every logical tensor).
func (c *ctx) Ranked(i int) (in *Info, rank int, ok bool, err error) {
	if in, err = c.Input(i); err != nil {
		return nil, 0, false, err
	}
	if rank, ok = in.Rank(); ok {
		return in, rank, true, nil
	}
	if dialectOf(c.n.Domain).unknownRank == rankDynamic {
		for k := range c.out {
			c.Out(k, in.Type, sym.DynamicRank())
		}
	}
	return in, 0, false, nil
}

// IntsArg returns an integer list that is an attribute before opset version since and input i from
// it on (ONNX's axes, splits, pads, repeats): given is false when the node has neither; known is
// false when the input's values are not known before run time.
func (c *ctx) IntsArg(attr string, i int, since int64) (v []int64, given, known bool, err error) {
	if c.Version() < since {
		v, given, err = c.Ints(attr)
		return v, given, given, err
	}
	in := c.In(i)
	if in == nil {
		return nil, false, false, nil
	}
	v, known = in.Ints()
	return v, true, known, nil
}

// RequireRank returns the rank of in, or ok false when it is dynamic; a rank outside [min, max]
// (max < 0: no bound) is an error wrapping errcode.ErrInvalidShape naming the input.
func (c *ctx) RequireRank(in *Info, input, min, max int) (rank int, ok bool, err error) {
	r, ok := in.Rank()
	if !ok {
		return 0, false, nil
	}
	if r < min || max >= 0 && r > max {
		if min == max {
			return r, true, c.Errorf(errcode.ErrInvalidShape, "input %d has rank %d, want %d", input, r, min)
		}
		return r, true, c.Errorf(errcode.ErrInvalidShape, "input %d has rank %d, want %d to %d", input, r, min, max)
	}
	return r, true, nil
}

// SameAs sets output i to a tensor of the type and shape of in: the element-wise operators of one
// input, normalizations, activations.
func (c *ctx) SameAs(i int, in *Info) *Info { return c.Out(i, in.Type, in.Shape) }

// product returns the product of dims.
func product(dims []sym.Dim) sym.Dim {
	p := sym.Const(1)
	for _, d := range dims {
		p = sym.MulDims(p, d)
	}
	return p
}

// elemTypeOf returns the element type an ONNX data type number names (the "to" of Cast),
// element.Undefined for one without (COMPLEX64, FLOAT4E2M1, FLOAT8E8M0, the 2-bit types).
func elemTypeOf(onnxType int64) element.Type {
	t, _ := onnx.DataType(onnxType).ElementType()
	return t
}

// values returns the Value of a tensor of static shape, with the shape; ok is false when either is
// unknown.
func values(in *Info) (dims []int64, v []sym.Dim, ok bool) {
	if in == nil || in.Value == nil {
		return nil, nil, false
	}
	dims, ok = in.Shape.Static()
	return dims, in.Value, ok
}

// setValue attaches v to info when info's shape is static and holds len(v) elements, at most
// MaxValue.
func setValue(info *Info, v []sym.Dim) {
	if v == nil || len(v) > MaxValue {
		return
	}
	if n, ok := info.Volume(); ok && n == int64(len(v)) {
		info.Value = v
	}
}

// keepValues gives out, a tensor with the elements of in in another shape or order (Reshape,
// Unsqueeze, Squeeze, Flatten, Expand), what is known of in's elements: their values (floats
// computed from shapes too), when out's shape has as many elements, and their bounds (Info.elems).
func keepValues(out, in *Info) {
	setValue(out, in.Value)
	keepFracs(out, in)
	out.elems = in.elems
	if out.Value == nil && in.Value != nil {
		out.elems = valueBounds(in.Value)
	}
}

// valueBounds returns the bounds of the values v (Info.elems), nil when there are none.
func valueBounds(v []sym.Dim) *[2]sym.Dim {
	if len(v) == 0 {
		return nil
	}
	lo, hi := v[0].Bounds()
	for _, d := range v[1:] {
		l, h := d.Bounds()
		lo, hi = min(lo, l), max(hi, h)
	}
	if lo == hi {
		return &[2]sym.Dim{v[0], v[0]}
	}
	return &[2]sym.Dim{sym.Interval(lo, lo), sym.Interval(hi, hi)}
}

// valuesFromBounds gives out, of static shape, its values when its elements' bounds (Info.elems)
// are one integer: every element is that integer.
func valuesFromBounds(out *Info) {
	e := out.elems
	if out.Value != nil || e == nil {
		return
	}
	k, ok := e[0].Static()
	if k2, ok2 := e[1].Static(); !ok || !ok2 || k != k2 {
		return
	}
	if n, ok := out.Volume(); ok && n <= MaxValue {
		v := make([]sym.Dim, n)
		for i := range v {
			v[i] = sym.Const(k)
		}
		out.Value = v
	}
}

func constDims(v []int64) []sym.Dim {
	out := make([]sym.Dim, len(v))
	for i, x := range v {
		out[i] = sym.Const(x)
	}
	return out
}

// notNegative returns value k of input i, a dim of the output, narrowed to [0, Inf]. No runtime
// or spec takes a negative size: onnxruntime 1.20.1 refuses one where a node makes a tensor of it
// ("Tensor shape.Size() must be >= 0", probed at ConstantOfShape, Expand and Col2Im, beside a 0 as
// well), and OpenVINO's shape inference where it reads a shape from a tensor ("Value -4 not in range
// [0:"). A value that may be negative is a condition of the node; one that is, an error wrapping
// errcode.ErrInvalidShape naming the index and value. A value that may be negative and is no
// expression is not stated: it was lost upstream, or is the model's data, and the output dim it
// gives is not exact, which the engine records at this node.
func notNegative(c *ctx, i, k int, d sym.Dim) (sym.Dim, error) {
	lo, hi := d.Bounds()
	switch {
	case lo >= 0:
		return d, nil
	case hi < 0:
		return d, c.Errorf(errcode.ErrInvalidShape, "input %d value %d = %v is negative", i, k, d)
	}
	if x, ok := d.Expr(); ok {
		if err := c.Require(sym.Ge(x, sym.Int(0)), "input "+itoa(i)+" value "+itoa(k)+", a dim of the output, is not negative"); err != nil {
			return d, err
		}
	}
	nd, _ := d.NonNegative()
	return nd, nil
}

// shapeFromValue returns the shape that input i, a 1-D tensor of dims, holds (ConstantOfShape,
// Expand, MaxUnpool's output_shape, Col2Im's image_shape; OpenVINO's Broadcast target_shape, Eye's
// batch_shape, RandomUniform's shape): its values as dims, each not negative (notNegative: a
// condition of the node, or an error wrapping errcode.ErrInvalidShape), unknown dims where values
// are not known, a dynamic rank when its length is not known.
func shapeFromValue(c *ctx, i int) (sym.Shape, error) {
	in := c.In(i)
	if in.Value != nil {
		dims := make([]sym.Dim, len(in.Value))
		for k, d := range in.Value {
			nd, err := notNegative(c, i, k, d)
			if err != nil {
				return sym.Shape{}, err
			}
			dims[k] = nd
		}
		return sym.ShapeOf(dims...), nil
	}
	if r, ok := in.Rank(); ok && r == 1 {
		if n, ok := in.Shape.Dims[0].Static(); ok {
			dims := make([]sym.Dim, n)
			for k := range dims {
				dims[k] = sym.Unknown()
			}
			return sym.ShapeOf(dims...), nil
		}
	}
	return sym.DynamicRank(), nil
}

func itoa(n int) string {
	return string(appendInt(nil, n))
}

func appendInt(b []byte, n int) []byte {
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}

// sameShape unifies two shapes the operator requires to be equal, when both ranks are known.
func sameShape(c *ctx, a, b sym.Shape, what string) error {
	_, err := unifyShape(c, a, b, what)
	return err
}

// unifyShape unifies two shapes the operator requires to be equal, when both ranks are known, and
// returns the shape that stands for both (a, when a rank is not known).
func unifyShape(c *ctx, a, b sym.Shape, what string) (sym.Shape, error) {
	if a.RankDynamic || b.RankDynamic {
		return a, nil
	}
	if len(a.Dims) != len(b.Dims) {
		return a, c.Errorf(errcode.ErrInvalidShape, "%s: ranks %d and %d differ", what, len(a.Dims), len(b.Dims))
	}
	dims := make([]sym.Dim, len(a.Dims))
	for i := range a.Dims {
		d, err := c.Unify(a.Dims[i], b.Dims[i], what+" dim "+itoa(i))
		if err != nil {
			return a, err
		}
		dims[i] = d
	}
	return sym.ShapeOf(dims...), nil
}

// axisOf returns the axis attribute (default 0) normalized against the rank of in, 0 when the rank
// is not known.
func axisOf(c *ctx, in *Info) (int, error) {
	axis, err := c.Int("axis", 0)
	if err != nil {
		return 0, err
	}
	r, ok := in.Rank()
	if !ok {
		return 0, nil
	}
	return c.NormAxis(axis, r)
}

// unknownDims returns the shape of rank r whose dims are unknown.
func unknownDims(r int) sym.Shape {
	dims := make([]sym.Dim, r)
	for i := range dims {
		dims[i] = sym.Unknown()
	}
	return sym.ShapeOf(dims...)
}

// errOr returns err, or alt when err is nil: the first error of two checks.
func errOr(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}

// channelParam unifies the size of the 1-D input i (a bias, a scale, a mean: one value per
// channel) with the channel dim ch and returns the dim that stands for both; what names the input.
// Another rank is an error wrapping errcode.ErrInvalidShape; a left-out input leaves ch.
func channelParam(c *ctx, i int, ch sym.Dim, what string) (sym.Dim, error) {
	in := c.In(i)
	if in == nil {
		return ch, nil
	}
	_, ok, err := c.RequireRank(in, i, 1, 1)
	if err != nil || !ok {
		return ch, err
	}
	return c.Unify(ch, in.Shape.Dims[0], what+" (input "+itoa(i)+") and the channels")
}
