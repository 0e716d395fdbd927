package graph

import (
	"math"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoElementwise holds the rules of OpenVINO IR's element-wise layers: one input and an output
// of its shape; two or more inputs broadcast by their auto_broadcast attribute. Integer arithmetic,
// comparisons and logic also compute values (with elementwise.go's kernels), for the shape
// subgraphs that go through them; the layers that compute none read no values.
var openvinoElementwise = table{DomainOpenVINO, []opDef{
	{"Abs", since(1), fixed(1), fixed(1), reads(0), ovUnary},
	{"Acos", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Acosh", since(3), fixed(1), fixed(1), 0, ovUnary},
	{"Asin", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Asinh", since(3), fixed(1), fixed(1), 0, ovUnary},
	{"Atan", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Atanh", since(3), fixed(1), fixed(1), 0, ovUnary},
	{"Ceiling", since(1), fixed(1), fixed(1), reads(0), ovUnary},
	{"Clamp", since(1), fixed(1), fixed(1), reads(0), ovUnary},
	{"Cos", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Cosh", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Elu", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Erf", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Exp", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Floor", since(1), fixed(1), fixed(1), reads(0), ovUnary},
	{"Gelu", since(2, 7), fixed(1), fixed(1), 0, ovUnary},
	{"HSigmoid", since(5), fixed(1), fixed(1), 0, ovUnary},
	{"HSwish", since(4), fixed(1), fixed(1), 0, ovUnary},
	{"Log", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"LogicalNot", since(1), fixed(1), fixed(1), reads(0), ovUnary},
	{"Mish", since(4), fixed(1), fixed(1), 0, ovUnary},
	{"Negative", since(1), fixed(1), fixed(1), reads(0), ovUnary},
	{"PReLU", since(1), fixed(2), fixed(1), 0, ovUnary},
	{"ReLU", since(1), fixed(1), fixed(1), reads(0), ovUnary},
	{"Round", since(5), fixed(1), fixed(1), reads(0), ovUnary},
	{"Selu", since(1), fixed(3), fixed(1), 0, ovUnary},
	{"Sigmoid", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Sign", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Sin", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Sinh", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"SoftPlus", since(4), fixed(1), fixed(1), 0, ovUnary},
	{"SoftSign", since(9), fixed(1), fixed(1), 0, ovUnary},
	{"Sqrt", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Swish", since(4), span(1, 2), fixed(1), 0, ovSwish},
	{"Tan", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Tanh", since(1), fixed(1), fixed(1), 0, ovUnary},
	{"Add", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"Subtract", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"Multiply", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"Divide", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"FloorMod", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"Mod", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"Maximum", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"Minimum", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"Power", since(1), fixed(2), fixed(1), 0, ovBinary},
	{"SquaredDifference", since(1), fixed(2), fixed(1), 0, ovBinary},
	{"Equal", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"NotEqual", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"Less", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"LessEqual", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"Greater", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"GreaterEqual", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"LogicalAnd", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"LogicalOr", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"LogicalXor", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"Select", since(1), fixed(3), fixed(1), reads(0, 1, 2), ovSelect},
	{"FakeQuantize", since(1), fixed(5), fixed(1), 0, ovFakeQuantize},
	{"Xor", since(1), fixed(2), fixed(1), reads(0, 1), ovBinary},
	{"HardSigmoid", since(1), fixed(3), fixed(1), 0, ovUnary},
	{"IsFinite", since(10), fixed(1), fixed(1), 0, ovPredicate},
	{"IsInf", since(10), fixed(1), fixed(1), 0, ovPredicate},
	{"IsNaN", since(10), fixed(1), fixed(1), 0, ovPredicate},
	{"BitwiseAnd", since(13), fixed(2), fixed(1), 0, ovBinary},
	{"BitwiseOr", since(13), fixed(2), fixed(1), 0, ovBinary},
	{"BitwiseXor", since(13), fixed(2), fixed(1), 0, ovBinary},
	{"BitwiseNot", since(13), fixed(1), fixed(1), 0, ovUnary},
	{"BitwiseLeftShift", since(15), fixed(2), fixed(1), 0, ovBinary},
	{"BitwiseRightShift", since(15), fixed(2), fixed(1), 0, ovBinary},
	{"Identity", since(16), fixed(1), fixed(1), reads(0), ovUnary},
	{"ErfInv", since(17), fixed(1), fixed(1), 0, ovUnary},
}}

// ovUnary: the layers whose output has the type and shape of input 0 (activations, Clamp-1,
// PReLU-1, HardSigmoid-1, BitwiseNot-13, Identity-16, ErfInv-17), and LogicalNot-1 (boolean).
// Values of integers for Negative-1, Abs-1, ReLU-1, Floor-1, Ceiling-1, Round-5, LogicalNot-1 and
// Identity-16 as ONNX's Neg, Abs, Relu, Floor, Ceil, Round, Not and Identity compute them, and
// Clamp-1 (to [ceil(min), floor(max)]; min above max is an error wrapping errcode.ErrSyntax).
func ovUnary(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	out := c.SameAs(0, in)
	f := unaryValue(ovUnaryAsONNX[c.n.Op])
	if c.n.Op == "Clamp" {
		if f, err = ovClamp(c); err != nil {
			return err
		}
	}
	mapValues(out, in, f)
	return nil
}

// ovUnaryAsONNX names the ONNX operator that computes the same values as an OpenVINO layer.
var ovUnaryAsONNX = map[string]string{"Negative": "Neg", "Abs": "Abs", "ReLU": "Relu", "Floor": "Floor",
	"Ceiling": "Ceil", "Round": "Round", "LogicalNot": "Not", "Identity": "Identity"}

// ovClamp returns what Clamp-1 computes on integers: the value clamped to [ceil(min), floor(max)];
// nil when the bounds are beyond int64.
func ovClamp(c *ctx) (func(sym.Dim) sym.Dim, error) {
	lo, err := c.Float("min", math.Inf(-1))
	if err != nil {
		return nil, err
	}
	hi, err := c.Float("max", math.Inf(1))
	if err != nil {
		return nil, err
	}
	if lo > hi {
		return nil, c.Errorf(errcode.ErrSyntax, "min %g is greater than max %g", lo, hi)
	}
	lo, hi = math.Ceil(lo), math.Floor(hi)
	if lo > hi || math.Abs(lo) >= 1<<62 && !math.IsInf(lo, -1) || math.Abs(hi) >= 1<<62 && !math.IsInf(hi, 1) {
		return nil, nil
	}
	return func(d sym.Dim) sym.Dim {
		if !math.IsInf(lo, -1) {
			d = sym.MaxDims(d, sym.Const(int64(lo)))
		}
		if !math.IsInf(hi, 1) {
			d = sym.MinDims(d, sym.Const(int64(hi)))
		}
		return d
	}, nil
}

// ovShape returns the shape of the element-wise broadcast of the inputs' shapes under the node's
// auto_broadcast attribute: numpy (the default: Broadcast), none (equal shapes, unified) or pdpd
// (ovPDPD, each input in turn into input 0's shape).
func ovShape(c *ctx, ins []*Info) (s sym.Shape, ok bool, err error) {
	mode, err := c.String("auto_broadcast", "numpy")
	if err != nil {
		return s, false, err
	}
	shapes := make([]sym.Shape, len(ins))
	for i, in := range ins {
		shapes[i] = in.Shape
	}
	switch mode {
	case "numpy":
		s, err = c.Broadcast(shapes...)
		return s, err == nil, err
	case "none", "explicit":
	case "pdpd":
		s, err = ovPDPD(c, shapes, nil)
		return s, err == nil, err
	default:
		return s, false, c.Errorf(errcode.ErrSyntax, "auto_broadcast %q: want numpy, none or pdpd", mode)
	}
	s = sym.DynamicRank()
	for k, t := range shapes {
		switch {
		case t.RankDynamic:
			continue
		case s.RankDynamic:
			s = sym.ShapeOf(append([]sym.Dim(nil), t.Dims...)...)
			continue
		case len(t.Dims) != len(s.Dims):
			return s, false, c.Errorf(errcode.ErrInvalidShape, "auto_broadcast none: input %d has rank %d, input 0 %d", k, len(t.Dims), len(s.Dims))
		}
		for i, d := range t.Dims {
			u, err := c.Unify(s.Dims[i], d, "input "+itoa(k)+" dim "+itoa(i))
			if err != nil {
				return s, false, err
			}
			s.Dims[i] = u
		}
	}
	return s, true, nil
}

// ovPDPD returns the broadcast of shapes in PaddlePaddle's way, as OpenVINO's auto_broadcast pdpd
// of axis -1 (the IR carries no other axis): the shape of the first of order (the inputs' order
// when nil), into which each next one merges along its trailing dims; a dim of 1 broadcasts, and
// a static dim larger than the one it merges into, or a rank larger, is an error wrapping
// errcode.ErrInvalidShape. A dynamic rank gives a dynamic rank.
func ovPDPD(c *ctx, shapes []sym.Shape, order []int) (sym.Shape, error) {
	if order == nil {
		order = make([]int, len(shapes))
		for k := range order {
			order[k] = k
		}
	}
	for _, s := range shapes {
		if s.RankDynamic {
			return sym.DynamicRank(), nil
		}
	}
	out := c.clone(shapes[order[0]].Dims)
	defer c.refresh()
	for _, k := range order[1:] {
		src := shapes[k].Dims
		off := len(out) - len(src)
		if off < 0 {
			return sym.Shape{}, c.Errorf(errcode.ErrInvalidShape, "auto_broadcast pdpd: input %d has rank %d, more than %d", k, len(src), len(out))
		}
		for i, d := range src {
			a, okA := out[off+i].Static()
			b, okB := d.Static()
			if okA && okB && b > a {
				return sym.Shape{}, c.Errorf(errcode.ErrInvalidShape, "auto_broadcast pdpd: input %d dim %d is %d, more than %d", k, i, b, a)
			}
			r, err := c.broadcastDim(out[off+i], d, bplace{k, i, off + i, 0})
			if err != nil {
				return sym.Shape{}, err
			}
			out[off+i] = r
		}
	}
	return sym.ShapeOf(out...), nil
}

// ovBinary: the element-wise layers of two inputs, broadcast by auto_broadcast: Add-1,
// Subtract-1, Multiply-1, Divide-1, FloorMod-1, Mod-1, Maximum-1, Minimum-1, Power-1,
// SquaredDifference-1, BitwiseAnd-13, BitwiseOr-13, BitwiseXor-13, BitwiseLeftShift-15,
// BitwiseRightShift-15, the comparisons Equal-1, NotEqual-1, Less-1, LessEqual-1, Greater-1,
// GreaterEqual-1 and LogicalAnd-1, LogicalOr-1, LogicalXor-1, Xor-1 (opset1's LogicalXor): boolean
// outputs. Integer values for the arithmetic, comparisons and logic: Divide rounds toward -inf with m_pythondiv true (the
// default) and toward zero with false; FloorMod takes the sign of the divisor, Mod that of the
// dividend; a static divisor 0 is an error wrapping errcode.ErrInvalidShape, and one that may be 0
// is required not to be (divisor); a comparison is 1 or
// 0 where it holds, or not, for every value of the symbols, [0, 1] otherwise.
func ovBinary(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	s, ok, err := ovShape(c, ins)
	if err != nil || !ok {
		return err
	}
	t := ins[0].Type
	if t == element.Undefined {
		t = ins[1].Type
	}
	f, boolean, err := ovBinaryValue(c)
	if err != nil {
		return err
	}
	if boolean {
		t = element.Boolean
	}
	out := c.Out(0, t, s)
	if f == nil || !isIntegral(ins[0].Type) && ins[0].Type != element.Undefined {
		return nil
	}
	return elementwise(c, out, ins, func(v []sym.Dim) (sym.Dim, error) { return f(v[0], v[1]) })
}

// ovBinaryValue returns the function of the values of ovBinary's operator (nil when it computes
// none), and whether its output is boolean.
func ovBinaryValue(c *ctx) (f func(a, b sym.Dim) (sym.Dim, error), boolean bool, err error) {
	pure := func(g func(a, b sym.Dim) sym.Dim) func(a, b sym.Dim) (sym.Dim, error) {
		return func(a, b sym.Dim) (sym.Dim, error) { return g(a, b), nil }
	}
	nonZero := func(g func(a, b sym.Dim) sym.Dim) func(a, b sym.Dim) (sym.Dim, error) {
		return func(a, b sym.Dim) (sym.Dim, error) {
			b, err := divisor(c, b, "the divisor")
			if err != nil {
				return a, err
			}
			return g(a, b), nil
		}
	}
	switch op := c.n.Op; op {
	case "Add":
		return exact(c, sym.AddDims), false, nil
	case "Subtract":
		return exact(c, sym.SubDims), false, nil
	case "Multiply":
		return exact(c, sym.MulDims), false, nil
	case "Divide":
		py, err := ovBool(c, "m_pythondiv", true)
		if py {
			return nonZero(sym.FloorDivDims), false, err
		}
		return nonZero(sym.TruncDivDims), false, err
	case "FloorMod":
		return nonZero(sym.ModDims), false, nil
	case "Mod":
		return nonZero(func(a, b sym.Dim) sym.Dim { return sym.SubDims(a, sym.MulDims(b, sym.TruncDivDims(a, b))) }), false, nil
	case "Maximum":
		return pure(sym.MaxDims), false, nil
	case "Minimum":
		return pure(sym.MinDims), false, nil
	case "LogicalAnd":
		return pure(sym.MulDims), true, nil
	case "LogicalOr":
		return pure(sym.MaxDims), true, nil
	case "LogicalXor", "Xor":
		return pure(func(a, b sym.Dim) sym.Dim {
			return sym.SubDims(sym.AddDims(a, b), sym.MulDims(sym.Const(2), sym.MulDims(a, b)))
		}), true, nil
	case "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual":
		return pure(func(a, b sym.Dim) sym.Dim { return compareDims(op, a, b) }), true, nil
	}
	return nil, false, nil
}

// ovSelect: Select-1: the broadcast of the condition and the two choices by auto_broadcast (numpy
// by default), of the choices' type; values with numpy broadcasting as Where's.
func ovSelect(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	mode, err := c.String("auto_broadcast", "numpy")
	if err != nil {
		return err
	}
	if mode == "numpy" {
		return whereOf(c, ins)
	}
	var s sym.Shape
	ok := true
	if mode == "pdpd" { // else into then, then the condition into the result
		s, err = ovPDPD(c, []sym.Shape{ins[0].Shape, ins[1].Shape, ins[2].Shape}, []int{1, 2, 0})
	} else {
		s, ok, err = ovShape(c, ins)
	}
	if err != nil || !ok {
		return err
	}
	c.Out(0, ins[1].Type, s)
	return nil
}

// ovFakeQuantize: FakeQuantize-1: the broadcast of the data and the four range inputs by
// auto_broadcast, of the data's type.
func ovFakeQuantize(c *ctx) error {
	ins, err := c.Inputs(5)
	if err != nil {
		return err
	}
	s, ok, err := ovShape(c, ins)
	if err != nil || !ok {
		return err
	}
	c.Out(0, ins[0].Type, s)
	return nil
}

// ovPredicate: IsFinite-10, IsInf-10 (detect_negative, detect_positive), IsNaN-10: a boolean of
// the input's shape.
func ovPredicate(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	c.Out(0, element.Boolean, in.Shape)
	return nil
}

// ovSwish: Swish-4: the data's type and shape; beta (input 1, 1 when left out) is a scalar.
func ovSwish(c *ctx) error {
	if beta := c.In(1); beta != nil {
		if _, _, err := c.RequireRank(beta, 1, 0, 0); err != nil {
			return err
		}
	}
	return ovUnary(c)
}
