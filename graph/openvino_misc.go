package graph

import (
	"slices"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoMisc holds the rules of OpenVINO IR's generators (Eye, RandomUniform, Multinomial),
// type conversions (FakeConvert, ConvertPromoteTypes), string tensors (a type, string, whose
// elements StringTensorUnpack splits into begins, ends and the bytes they index, and
// StringTensorPack joins) and MOE.
var openvinoMisc = table{DomainOpenVINO, []opDef{
	{"Eye", since(9), span(3, 4), fixed(1), reads(0, 1, 3), ovEye},
	{"RandomUniform", since(8), fixed(3), fixed(1), reads(0, 1, 2), ovRandomUniform},
	{"Multinomial", since(13), fixed(2), fixed(1), reads(1), ovMultinomial},
	{"FakeConvert", since(13), span(2, 3), fixed(1), 0, ovFakeConvert},
	{"ConvertPromoteTypes", since(14), fixed(2), fixed(2), 0, ovConvertPromoteTypes},
	{"StringTensorUnpack", since(15), fixed(1), fixed(3), 0, ovStringTensorUnpack},
	{"StringTensorPack", since(15), fixed(3), fixed(1), 0, ovStringTensorPack},
	{"MOE", since(16), span(3, 8), fixed(1), 0, ovMOE},
}}

// ovEye: Eye-9: num_rows and num_columns (scalars or one element, at least 0), diagonal_index and
// the optional 1-D batch_shape give batch_shape + [num_rows, num_columns], of output_type. A size
// that may be negative is a condition of the node (notNegative), as OpenVINO refuses a negative one
// ("Value -4 not in range [0:", type_prop eye.cpp).
func ovEye(c *ctx) error {
	t, err := ovType(c, "output_type", element.Undefined)
	if err != nil {
		return err
	}
	if t == element.Undefined {
		return c.Errorf(errcode.ErrSyntax, "Eye has no output_type")
	}
	var dims [2]sym.Dim
	for i, what := range []string{"num_rows", "num_columns", "diagonal_index"} {
		if _, _, err := ovScalar(c, i, what); err != nil {
			return err
		}
		if r, ok := c.In(i).Rank(); ok && r > 1 {
			return c.Errorf(errcode.ErrInvalidShape, "the %s (input %d) has rank %d, want a scalar or 1-D", what, i, r)
		}
		if i == 2 {
			continue
		}
		dims[i] = sym.Unknown()
		if v := c.In(i).Value; len(v) == 1 {
			if dims[i], err = notNegative(c, i, 0, v[0]); err != nil {
				return err
			}
		}
	}
	batch := sym.ShapeOf()
	if b := c.In(3); b != nil {
		if _, _, err := ovVector(c, 3, "batch_shape"); err != nil {
			return err
		}
		if batch, err = shapeFromValue(c, 3); err != nil {
			return err
		}
	}
	if batch.RankDynamic {
		c.Out(0, t, batch)
		return nil
	}
	c.Out(0, t, sym.ShapeOf(append(c.clone(batch.Dims), dims[:]...)...))
	return nil
}

// ovRandomUniform: RandomUniform-8: a tensor of the shape the 1-D input 0 holds, of output_type
// (a value that may be negative is a condition of the node: shapeFromValue); minval and maxval are
// scalars or one element of output_type, minval below maxval.
func ovRandomUniform(c *ctx) error {
	t, err := ovType(c, "output_type", element.Undefined)
	if err != nil {
		return err
	}
	if _, _, err := ovVector(c, 0, "shape"); err != nil {
		return err
	}
	var lim [2]float64
	known := 0
	for i, what := range []string{"minval", "maxval"} {
		if _, _, err := ovScalar(c, i+1, what); err != nil {
			return err
		}
		in := c.In(i + 1)
		if t != element.Undefined && in.Type != element.Undefined && in.Type != t {
			return c.Errorf(errcode.ErrDataType, "%s (input %d) is %v, not output_type %v", what, i+1, in.Type, t)
		}
		if v, ok := in.Ints(); ok && len(v) == 1 {
			lim[i], known = float64(v[0]), known+1
		} else if len(in.Floats) == 1 {
			lim[i], known = in.Floats[0], known+1
		}
	}
	if known == 2 && !(lim[0] < lim[1]) {
		return c.Errorf(errcode.ErrInvalidShape, "minval %g is not below maxval %g", lim[0], lim[1])
	}
	s, err := shapeFromValue(c, 0)
	if err != nil {
		return err
	}
	c.Out(0, t, s)
	return nil
}

// ovMultinomial: Multinomial-13: probabilities [batch, classes] (or [classes]) and num_samples (a
// scalar or one element) give [batch, num_samples] (or [num_samples]) of convert_type.
func ovMultinomial(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	t, err := ovIndexType(c, "convert_type", element.I64)
	if err != nil {
		return err
	}
	v, known, err := ovScalar(c, 1, "num_samples")
	if err != nil {
		return err
	}
	n := sym.Unknown()
	if known {
		if v < 0 {
			return c.Errorf(errcode.ErrInvalidShape, "num_samples %d is negative", v)
		}
		n = sym.Const(v)
	}
	r, ok, err := c.RequireRank(ins[0], 0, 1, 2)
	if err != nil || !ok {
		return err
	}
	dims := []sym.Dim{n}
	if r == 2 {
		dims = append([]sym.Dim{ins[0].Shape.Dims[0]}, n)
	}
	c.Out(0, t, sym.ShapeOf(dims...))
	return nil
}

// ovFakeConvert: FakeConvert-13: the data's type and shape; scale and shift (inputs 1 and 2, of
// one shape) broadcast to it unidirectionally (destination_type f8e4m3 or f8e5m2).
func ovFakeConvert(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	dt, err := c.String("destination_type", "")
	if err != nil {
		return err
	}
	if dt != "f8e4m3" && dt != "f8e5m2" {
		return c.Errorf(errcode.ErrSyntax, "destination_type %q: want f8e4m3 or f8e5m2", dt)
	}
	if s := c.In(2); s != nil {
		if err := sameShape(c, ins[1].Shape, s.Shape, "the scale and the shift"); err != nil {
			return err
		}
	}
	if ins[0].Shape.RankDynamic || ins[1].Shape.RankDynamic {
		c.SameAs(0, ins[0])
		return nil
	}
	out := c.clone(ins[0].Shape.Dims)
	if err := unidirectional(c, ins[1].Shape, out, 1, true); err != nil {
		return err
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(out...))
	return nil
}

// ovConvertPromoteTypes: ConvertPromoteTypes-14: the two inputs, each of its shape, converted to
// the type both promote to (ovPromote); unknown where a rule of the operation this one does not
// know decides it.
func ovConvertPromoteTypes(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	t, err := ovPromote(c, ins[0], ins[1])
	if err != nil {
		return err
	}
	c.Out(0, t, ins[0].Shape)
	c.Out(1, t, ins[1].Shape)
	return nil
}

// ovPromote returns the type ConvertPromoteTypes-14 promotes a and b to: one type stays; boolean
// gives way to the other; an integer to a floating-point type; two floating-point types to the
// wider (f16 and bf16 to f32); two integers of one signedness to the wider; signed and unsigned
// to the signed when it is wider, else to the signed of twice the unsigned's width, and with u64
// to u64_integer_promotion_target (f32 by default), which needs promote_unsafe. With
// pytorch_scalar_promotion, a scalar of the kind (integer or floating-point) of a tensor takes
// the tensor's type. Undefined when a type is not known.
func ovPromote(c *ctx, a, b *Info) (element.Type, error) {
	scalar, err := ovBool(c, "pytorch_scalar_promotion", false)
	if err != nil {
		return element.Undefined, err
	}
	unsafe, err := ovBool(c, "promote_unsafe", false)
	if err != nil {
		return element.Undefined, err
	}
	target, err := ovType(c, "u64_integer_promotion_target", element.F32)
	if err != nil {
		return element.Undefined, err
	}
	ta, tb := a.Type, b.Type
	switch {
	case ta == element.Undefined || tb == element.Undefined:
		return element.Undefined, nil
	case ta == tb:
		return ta, nil
	case ta == element.Boolean:
		return tb, nil
	case tb == element.Boolean:
		return ta, nil
	}
	if scalar {
		ra, oka := a.Rank()
		rb, okb := b.Rank()
		if oka && okb && (ra == 0) != (rb == 0) && ta.IsFloat() == tb.IsFloat() {
			if ra == 0 {
				return tb, nil
			}
			return ta, nil
		}
	}
	switch {
	case ta.IsFloat() && tb.IsFloat():
		if ta.Bits() == tb.Bits() {
			return element.F32, nil // f16 and bf16, or two f8 types
		}
		if ta.Bits() > tb.Bits() {
			return ta, nil
		}
		return tb, nil
	case ta.IsFloat():
		return ta, nil
	case tb.IsFloat():
		return tb, nil
	case ta.IsSigned() == tb.IsSigned():
		if ta.Bits() >= tb.Bits() {
			return ta, nil
		}
		return tb, nil
	}
	s, u := ta, tb
	if !s.IsSigned() {
		s, u = u, s
	}
	switch {
	case s.Bits() > u.Bits():
		return s, nil
	case u.Bits() < 64:
		return ovSignedOf(u.Bits() * 2), nil
	case !unsafe:
		return element.Undefined, c.Errorf(errcode.ErrDataType, "u64 and a signed integer promote only with promote_unsafe")
	}
	return target, nil
}

// ovSignedOf returns the signed integer type of bits bits (16, 32 or 64).
func ovSignedOf(bits int) element.Type {
	switch bits {
	case 16:
		return element.I16
	case 32:
		return element.I32
	}
	return element.I64
}

// ovStringTensorUnpack: StringTensorUnpack-15: a string tensor gives the begins and ends (i32, of
// its shape) of its elements in the u8 symbols [n] they index, n unknown.
func ovStringTensorUnpack(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if in.Type != element.String && in.Type != element.Undefined && in.Type != element.U8 {
		return c.Errorf(errcode.ErrDataType, "the input is %v: want a string tensor", in.Type)
	}
	c.Out(0, element.I32, in.Shape)
	c.Out(1, element.I32, in.Shape)
	c.Out(2, element.U8, sym.ShapeOf(sym.Unknown()))
	return nil
}

// ovStringTensorPack: StringTensorPack-15: begins and ends of one shape (i32 or i64) index the 1-D
// u8 symbols; the output is a string tensor of their shape.
func ovStringTensorPack(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	s, err := unifyShape(c, ins[0].Shape, ins[1].Shape, "begins and ends")
	if err != nil {
		return err
	}
	if s.RankDynamic {
		s = ins[1].Shape
	}
	if _, _, err := ovVector(c, 2, "symbols"); err != nil {
		return err
	}
	c.Out(0, element.String, s)
	return nil
}

// ovMOE: MOE-16: hidden_states [tokens, hidden] and router_logits [tokens, expert_num], with the
// experts' weights [expert_num, ..., ...] (inputs 2 on), give the hidden_states' type and shape.
func ovMOE(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	h, err := rnnDims(c, ins[0], 0, sym.Unknown(), sym.Unknown())
	if err != nil {
		return err
	}
	experts := sym.Unknown()
	if n, err := c.Int("expert_num", 0); err != nil {
		return err
	} else if n > 0 {
		experts = sym.Const(n)
	}
	r, err := rnnDims(c, ins[1], 1, h[0], experts)
	if err != nil {
		return err
	}
	experts = r[1]
	for i := 2; i < c.NumIn(); i++ {
		in := c.In(i)
		if in == nil {
			continue
		}
		want := []sym.Dim{experts, sym.Unknown(), sym.Unknown()}
		if i%2 == 1 { // a bias
			want = want[:2]
		}
		if _, err := rnnDims(c, in, i, want...); err != nil {
			return err
		}
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(slices.Clone(h)...))
	return nil
}
