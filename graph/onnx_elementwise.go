package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/sym"
)

// onnxElementwise holds the rules of ONNX's element-wise operators (with the experimental ones of
// opset 1 that onnxruntime still runs: Affine, ParametricSoftplus, Scale, ScaledTanh): one input
// and an output of its shape; two or more inputs broadcast multidirectionally (Broadcast). Integer arithmetic,
// comparisons and logic also compute values (their kernels are elementwise.go's), for the shape
// subgraphs that go through them; the operators that compute none read no values.
var onnxElementwise = table{"", []opDef{
	{"Abs", since(1, 6, 13), fixed(1), fixed(1), reads(0), unary},
	{"Acos", since(7), fixed(1), fixed(1), 0, unary},
	{"Acosh", since(9), fixed(1), fixed(1), 0, unary},
	{"Asin", since(7), fixed(1), fixed(1), 0, unary},
	{"Asinh", since(9), fixed(1), fixed(1), 0, unary},
	{"Atan", since(7), fixed(1), fixed(1), 0, unary},
	{"Atanh", since(9), fixed(1), fixed(1), 0, unary},
	{"BitwiseNot", since(18), fixed(1), fixed(1), 0, unary},
	{"Ceil", since(1, 6, 13), fixed(1), fixed(1), reads(0), unary},
	{"Celu", since(12), fixed(1), fixed(1), 0, unary},
	{"Cos", since(7), fixed(1), fixed(1), 0, unary},
	{"Cosh", since(9), fixed(1), fixed(1), 0, unary},
	{"Elu", since(1, 6), fixed(1), fixed(1), 0, unary},
	{"Erf", since(9, 13), fixed(1), fixed(1), 0, unary},
	{"Exp", since(1, 6, 13), fixed(1), fixed(1), 0, unary},
	{"Floor", since(1, 6, 13), fixed(1), fixed(1), reads(0), unary},
	{"Gelu", since(20), fixed(1), fixed(1), 0, unary},
	{"Affine", since(1), fixed(1), fixed(1), 0, unary},
	{"ParametricSoftplus", since(1), fixed(1), fixed(1), 0, unary},
	{"Scale", since(1), fixed(1), fixed(1), 0, unary},
	{"ScaledTanh", since(1), fixed(1), fixed(1), 0, unary},
	{"HardSigmoid", since(1, 6), fixed(1), fixed(1), 0, unary},
	{"HardSwish", since(14), fixed(1), fixed(1), 0, unary},
	{"LeakyRelu", since(1, 6, 16), fixed(1), fixed(1), 0, unary},
	{"Log", since(1, 6, 13), fixed(1), fixed(1), 0, unary},
	{"Mish", since(18), fixed(1), fixed(1), 0, unary},
	{"Neg", since(1, 6, 13), fixed(1), fixed(1), reads(0), unary},
	{"Not", since(1), fixed(1), fixed(1), reads(0), unary},
	{"Reciprocal", since(1, 6, 13), fixed(1), fixed(1), reads(0), unary},
	{"Relu", since(1, 6, 13, 14), fixed(1), fixed(1), reads(0), unary},
	{"Round", since(11), fixed(1), fixed(1), reads(0), unary},
	{"Selu", since(1, 6), fixed(1), fixed(1), 0, unary},
	{"Shrink", since(9), fixed(1), fixed(1), 0, unary},
	{"Sigmoid", since(1, 6, 13), fixed(1), fixed(1), 0, unary},
	{"Sign", since(9, 13), fixed(1), fixed(1), 0, unary},
	{"Sin", since(7), fixed(1), fixed(1), 0, unary},
	{"Sinh", since(9), fixed(1), fixed(1), 0, unary},
	{"Softplus", since(1), fixed(1), fixed(1), 0, unary},
	{"Softsign", since(1), fixed(1), fixed(1), 0, unary},
	{"Sqrt", since(1, 6, 13), fixed(1), fixed(1), reads(0), unary},
	{"Tan", since(7), fixed(1), fixed(1), 0, unary},
	{"Tanh", since(1, 6, 13), fixed(1), fixed(1), 0, unary},
	{"ThresholdedRelu", since(1, 10), fixed(1), fixed(1), 0, unary},
	{"Swish", since(24), fixed(1), fixed(1), 0, unary},
	{"Clip", since(1, 6), fixed(1), fixed(1), 0, unary},
	{"Clip", since(11, 12, 13), span(1, 3), fixed(1), 0, unary},
	{"IsNaN", since(9, 13, 20), fixed(1), fixed(1), 0, unaryBool},
	{"IsInf", since(10, 20), fixed(1), fixed(1), 0, unaryBool},
	{"Add", since(1, 6, 7, 13, 14), fixed(2), fixed(1), reads(0, 1), binary},
	{"Sub", since(1, 6, 7, 13, 14), fixed(2), fixed(1), reads(0, 1), binary},
	{"Mul", since(1, 6, 7, 13, 14), fixed(2), fixed(1), reads(0, 1), binary},
	{"Div", since(1, 6, 7, 13, 14), fixed(2), fixed(1), reads(0, 1), binary},
	{"Mod", since(10, 13), fixed(2), fixed(1), reads(0, 1), binary},
	{"Pow", since(1, 7, 12, 13, 15), fixed(2), fixed(1), 0, binary},
	{"PRelu", since(1, 6, 7, 9, 16), fixed(2), fixed(1), 0, prelu},
	{"BitShift", since(11), fixed(2), fixed(1), 0, binary},
	{"BitwiseAnd", since(18), fixed(2), fixed(1), 0, binary},
	{"BitwiseOr", since(18), fixed(2), fixed(1), 0, binary},
	{"BitwiseXor", since(18), fixed(2), fixed(1), 0, binary},
	{"And", since(1, 7), fixed(2), fixed(1), reads(0, 1), binary},
	{"Or", since(1, 7), fixed(2), fixed(1), reads(0, 1), binary},
	{"Xor", since(1, 7), fixed(2), fixed(1), reads(0, 1), binary},
	{"Equal", since(1, 7, 11, 13, 19), fixed(2), fixed(1), reads(0, 1), compare},
	{"Less", since(1, 7, 9, 13), fixed(2), fixed(1), reads(0, 1), compare},
	{"LessOrEqual", since(12, 16), fixed(2), fixed(1), reads(0, 1), compare},
	{"Greater", since(1, 7, 9, 13), fixed(2), fixed(1), reads(0, 1), compare},
	{"GreaterOrEqual", since(12, 16), fixed(2), fixed(1), reads(0, 1), compare},
	{"Sum", since(1, 6, 8, 13), span(1, many), fixed(1), allValues, variadic},
	{"Max", since(1, 6, 8, 12, 13), span(1, many), fixed(1), allValues, variadic},
	{"Min", since(1, 6, 8, 12, 13), span(1, many), fixed(1), allValues, variadic},
	{"Mean", since(1, 6, 8, 13), span(1, many), fixed(1), 0, variadic},
	{"Where", since(9, 16), fixed(3), fixed(1), reads(0, 1, 2), where},
}}

// unary: the operators of one tensor input and one output of its type and shape (Clip's min and
// max inputs are scalars). Neg, Abs, Not, Relu, Floor, Ceil and Round also map values, and all
// but Not a model's small float constants (Info.Floats) and floats computed from shapes (fracs.go).
func unary(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	out := c.SameAs(0, in)
	mapValues(out, in, unaryValue(c.n.Op))
	if f := unaryFloat(c.n.Op); f != nil && in.Floats != nil {
		out.Floats = make([]float64, len(in.Floats))
		for i, x := range in.Floats {
			out.Floats[i] = roundFloat(f(x), out.Type)
		}
	}
	mapFracs(out, in, c.n.Op)
	return nil
}

// unaryBool: IsNaN, IsInf, RegexFullMatch-20 (onnx_text.go): a boolean of the input's shape.
func unaryBool(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	c.Out(0, element.Boolean, in.Shape)
	return nil
}

// binary: the element-wise operators of two inputs, broadcast, of input 0's type (StringConcat-20's
// strings too, onnx_text.go); values for Add, Sub, Mul, Div (ONNX Div truncates integers toward
// zero), Mod (fmod 0: the sign of the divisor), And, Or, Xor, Div and Mod requiring a divisor
// that may be 0 not to be (divisor); the Floats of a model's small float
// constants for Add, Sub, Mul and Div, and floats computed from shapes where exact (fracs.go).
func binary(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	s, err := c.Broadcast(ins[0].Shape, ins[1].Shape)
	if err != nil {
		return err
	}
	out := c.Out(0, ins[0].Type, s)
	elementwiseFloats(out, ins[0], ins[1], binaryFloat(c.n.Op))
	elementwiseFracs(out, ins[0], ins[1], c.n.Op)
	var f func(a, b sym.Dim) (sym.Dim, error)
	switch c.n.Op {
	case "Add":
		f = exact(c, sym.AddDims)
	case "Sub":
		f = exact(c, sym.SubDims)
	case "Mul":
		f = exact(c, sym.MulDims)
	case "And":
		f = func(a, b sym.Dim) (sym.Dim, error) { return sym.MulDims(a, b), nil }
	case "Div":
		f = func(a, b sym.Dim) (sym.Dim, error) {
			b, err := divisor(c, b, "the divisor")
			if err != nil {
				return a, err
			}
			return sym.TruncDivDims(a, b), nil
		}
	case "Mod":
		fmod, err := c.Int("fmod", 0)
		if err != nil || fmod != 0 {
			return err
		}
		f = func(a, b sym.Dim) (sym.Dim, error) {
			b, err := divisor(c, b, "the divisor")
			if err != nil {
				return a, err
			}
			return sym.ModDims(a, b), nil
		}
	case "Or":
		f = func(a, b sym.Dim) (sym.Dim, error) { return sym.MaxDims(a, b), nil }
	case "Xor":
		f = func(a, b sym.Dim) (sym.Dim, error) {
			return sym.SubDims(sym.AddDims(a, b), sym.MulDims(sym.Const(2), sym.MulDims(a, b))), nil
		}
	default:
		return nil
	}
	if !isIntegral(ins[0].Type) && ins[0].Type != element.Undefined {
		return nil
	}
	return elementwise(c, out, ins, func(v []sym.Dim) (sym.Dim, error) { return f(v[0], v[1]) })
}

// prelu: PRelu-1, -6, -7, -9, -16: the output has X's type and shape; from -7 the slope broadcasts
// unidirectionally to X (its dims unify with X's where they cannot be 1; one that does not
// broadcast is an error wrapping errcode.ErrInvalidShape). Before -7 the slope is per channel, or
// one value, and does not change the shape.
func prelu(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	x, slope := ins[0], ins[1]
	if c.Version() >= 7 && !x.Shape.RankDynamic && !slope.Shape.RankDynamic {
		if err := unidirectional(c, slope.Shape, append([]sym.Dim(nil), x.Shape.Dims...), 1, true); err != nil {
			return err
		}
	}
	c.SameAs(0, x)
	return nil
}

// compare: Equal, Less, LessOrEqual, Greater, GreaterOrEqual: a boolean of the broadcast shape;
// values where the comparison is decided for every value of the symbols, and where a binding of
// them decides it (or of anonymous dims too: a count only a run decides), the value that stands for
// the comparison (ctx.Cond).
func compare(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	s, err := c.Broadcast(ins[0].Shape, ins[1].Shape)
	if err != nil {
		return err
	}
	out := c.Out(0, element.Boolean, s)
	op := c.n.Op
	return elementwise(c, out, ins, func(v []sym.Dim) (sym.Dim, error) {
		d := compareDims(op, v[0], v[1])
		x, okx := v[0].Expr()
		y, oky := v[1].Expr()
		if _, decided := d.Static(); decided || !okx || !oky {
			return d, nil
		}
		return c.Cond(sym.Cmp(x, compareOps[op], y)), nil
	})
}

// compareOps maps the comparison operators of ONNX to those of package sym.
var compareOps = map[string]sym.Op{"Equal": sym.OpEq, "Less": sym.OpLt, "LessOrEqual": sym.OpLe, "Greater": sym.OpGt, "GreaterOrEqual": sym.OpGe}

// variadic: Sum, Max, Min, Mean of one or more inputs: from -8 broadcast; at -1 and -6 of one
// shape, which they unify (inputs of different ranks, or dims that cannot be equal, are an error
// wrapping errcode.ErrInvalidShape). Values for Sum, Max, Min.
func variadic(c *ctx) error {
	ins, err := c.Inputs(c.NumIn())
	if err != nil {
		return err
	}
	shapes := make([]sym.Shape, len(ins))
	for i, in := range ins {
		shapes[i] = in.Shape
	}
	var s sym.Shape
	if c.Version() < 8 {
		s = sym.DynamicRank()
		for i, sh := range shapes {
			if err := sameShape(c, s, sh, "input "+itoa(i)+" and the others"); err != nil {
				return err
			}
			if s.RankDynamic {
				s = sh
			}
		}
	} else if s, err = c.Broadcast(shapes...); err != nil {
		return err
	}
	out := c.Out(0, ins[0].Type, s)
	if len(ins) == 2 && (c.n.Op == "Min" || c.n.Op == "Max") {
		elementwiseFloats(out, ins[0], ins[1], binaryFloat(c.n.Op))
		elementwiseFracs(out, ins[0], ins[1], c.n.Op)
	}
	var f func(a, b sym.Dim) sym.Dim
	switch c.n.Op {
	case "Sum":
		f = sym.AddDims
	case "Max":
		f = sym.MaxDims
	case "Min":
		f = sym.MinDims
	default:
		return nil
	}
	return elementwise(c, out, ins, func(v []sym.Dim) (sym.Dim, error) {
		r := v[0]
		for _, d := range v[1:] {
			r = f(r, d)
		}
		return r, nil
	})
}

// where: Where-9, -16 (whereOf).
func where(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	return whereOf(c, ins)
}
