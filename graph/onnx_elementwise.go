package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// The element-wise operators of ONNX: one input and an output of its shape; two or more inputs
// broadcast multidirectionally (Broadcast). Integer arithmetic, comparisons and logic also compute
// values, for the shape subgraphs that go through them.
func init() {
	rs := map[string]Rule{}
	for _, op := range []string{
		"Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "BitwiseNot", "Ceil", "Celu", "Cos", "Cosh",
		"Elu", "Erf", "Exp", "Floor", "Gelu", "HardSigmoid", "HardSwish", "LeakyRelu", "Log", "Mish", "Neg",
		"Not", "Reciprocal", "Relu", "Round", "Selu", "Shrink", "Sigmoid", "Sign", "Sin", "Sinh", "Softplus",
		"Softsign", "Sqrt", "Tan", "Tanh", "ThresholdedRelu", "Clip",
	} {
		rs[op] = unary
	}
	rs["IsNaN"], rs["IsInf"] = unaryBool, unaryBool
	for _, op := range []string{"Add", "Sub", "Mul", "Div", "Mod", "Pow", "PRelu", "BitShift", "BitwiseAnd",
		"BitwiseOr", "BitwiseXor", "And", "Or", "Xor"} {
		rs[op] = binary
	}
	for _, op := range []string{"Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual"} {
		rs[op] = compare
	}
	for _, op := range []string{"Sum", "Max", "Min", "Mean"} {
		rs[op] = variadic
	}
	rs["Where"] = where
	register("", singleOutput(rs))
}

// unary: the operators of one tensor input and one output of its type and shape (Clip's min and
// max inputs are scalars). Neg, Abs, Not, Relu, Floor, Ceil and Round also map values.
func unary(c *Ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	mapValues(c.SameAs(0, in), in, unaryValue(c.n.Op))
	return nil
}

// unaryValue returns what the ONNX operator op of one input computes on integer values: Neg, Abs,
// Not (of booleans 0 and 1), Relu, and the identity for Identity, Floor, Ceil and Round; nil for
// another operator.
func unaryValue(op string) func(sym.Dim) sym.Dim {
	switch op {
	case "Neg":
		return func(d sym.Dim) sym.Dim { return sym.SubDims(sym.Const(0), d) }
	case "Abs":
		return func(d sym.Dim) sym.Dim {
			if lo, _ := d.Bounds(); lo >= 0 {
				return d
			}
			if _, hi := d.Bounds(); hi <= 0 {
				return sym.SubDims(sym.Const(0), d)
			}
			return sym.MaxDims(d, sym.SubDims(sym.Const(0), d))
		}
	case "Not":
		return func(d sym.Dim) sym.Dim { return sym.SubDims(sym.Const(1), d) }
	case "Relu":
		return func(d sym.Dim) sym.Dim { return sym.MaxDims(d, sym.Const(0)) }
	case "Identity", "Floor", "Ceil", "Round":
		return func(d sym.Dim) sym.Dim { return d }
	}
	return nil
}

// mapValues sets the values of out to f of those of in, when f is not nil and in's are known.
func mapValues(out, in *Info, f func(sym.Dim) sym.Dim) {
	if f == nil || in.Value == nil {
		return
	}
	v := make([]sym.Dim, len(in.Value))
	for i, d := range in.Value {
		v[i] = f(d)
	}
	out.Value = v
}

// unaryBool: IsNaN, IsInf: a boolean of the input's shape.
func unaryBool(c *Ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	c.Out(0, element.Boolean, in.Shape)
	return nil
}

// binary: the element-wise operators of two inputs, broadcast; values for Add, Sub, Mul, Div (ONNX
// Div truncates integers toward zero), Mod (fmod 0: the sign of the divisor), And, Or, Xor.
func binary(c *Ctx) error {
	ins, err := c.Inputs(2, 2)
	if err != nil {
		return err
	}
	s, err := c.Broadcast(ins[0].Shape, ins[1].Shape)
	if err != nil {
		return err
	}
	out := c.Out(0, ins[0].Type, s)
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
			if n, ok := b.Static(); ok && n == 0 {
				return a, c.Errorf(errcode.ErrInvalidShape, "integer division by zero")
			}
			return sym.TruncDivDims(a, divisor(b)), nil
		}
	case "Mod":
		fmod, err := c.Int("fmod", 0)
		if err != nil || fmod != 0 {
			return err
		}
		f = func(a, b sym.Dim) (sym.Dim, error) {
			if n, ok := b.Static(); ok && n == 0 {
				return a, c.Errorf(errcode.ErrInvalidShape, "integer modulo by zero")
			}
			return sym.ModDims(a, divisor(b)), nil
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

// divisor returns an integer divisor without the bound 0 at either end of its interval: a run where
// it is 0 fails (integer division by zero), so the quotient only exists where it is not. A divisor
// H//4 (bounds [0, Inf)) becomes [1, Inf), so B*(H//4) divided by it is B.
func divisor(b sym.Dim) sym.Dim {
	lo, hi := b.Bounds()
	switch {
	case lo == 0:
		lo = 1
	case hi == 0:
		hi = -1
	default:
		return b
	}
	if d, ok := b.Narrow(lo, hi); ok {
		return d
	}
	return b
}

// exact returns an arithmetic operation on values that refuses, with an error wrapping
// errcode.ErrOverflow, two integers whose result leaves int64 (where a run would wrap around).
func exact(c *Ctx, f func(a, b sym.Dim) sym.Dim) func(a, b sym.Dim) (sym.Dim, error) {
	return func(a, b sym.Dim) (sym.Dim, error) {
		r := f(a, b)
		_, sa := a.Static()
		_, sb := b.Static()
		if _, sr := r.Static(); sa && sb && !sr {
			return r, c.Errorf(errcode.ErrOverflow, "%v %s %v overflows int64", a, c.n.Op, b)
		}
		return r, nil
	}
}

// elementwise computes the values of out from the values of ins, broadcast, when all are known.
func elementwise(c *Ctx, out *Info, ins []*Info, f func(v []sym.Dim) (sym.Dim, error)) error {
	od, ok := out.Shape.Static()
	if !ok {
		return nil
	}
	n, ok := out.Volume()
	if !ok || n > MaxValue {
		return nil
	}
	idx := make([][]int, len(ins))
	for k, in := range ins {
		sd, _, ok := values(in)
		if !ok {
			return nil
		}
		idx[k] = broadcastIndex(sd, od)
	}
	res := make([]sym.Dim, n)
	args := make([]sym.Dim, len(ins))
	for i := range res {
		for k, in := range ins {
			args[k] = in.Value[idx[k][i]]
		}
		d, err := f(args)
		if err != nil {
			return err
		}
		res[i] = d
	}
	out.Value = res
	return nil
}

// compare: Equal, Less, LessOrEqual, Greater, GreaterOrEqual: a boolean of the broadcast shape;
// values where the comparison is decided for every value of the symbols.
func compare(c *Ctx) error {
	ins, err := c.Inputs(2, 2)
	if err != nil {
		return err
	}
	s, err := c.Broadcast(ins[0].Shape, ins[1].Shape)
	if err != nil {
		return err
	}
	out := c.Out(0, element.Boolean, s)
	op := c.n.Op
	return elementwise(c, out, ins, func(v []sym.Dim) (sym.Dim, error) { return compareDims(op, v[0], v[1]), nil })
}

// compareDims returns the comparison op of a and b (ONNX's Equal, Less, LessOrEqual, Greater,
// GreaterOrEqual; OpenVINO's NotEqual, LessEqual, GreaterEqual): 1 where it holds for every value
// of the symbols, 0 where it holds for none, [0, 1] otherwise.
func compareDims(op string, a, b sym.Dim) sym.Dim {
	lo, hi := sym.SubDims(a, b).Bounds() // of a-b, exact where both are expressions
	var yes, no bool
	switch op {
	case "Equal", "NotEqual":
		yes, no = a.Equal(b), lo > 0 || hi < 0
		if op == "NotEqual" {
			yes, no = no, yes
		}
	case "Less":
		yes, no = hi < 0, lo >= 0
	case "LessOrEqual", "LessEqual":
		yes, no = hi <= 0, lo > 0
	case "Greater":
		yes, no = lo > 0, hi <= 0
	case "GreaterOrEqual", "GreaterEqual":
		yes, no = lo >= 0, hi < 0
	}
	switch {
	case yes:
		return sym.Const(1)
	case no:
		return sym.Const(0)
	}
	return sym.Interval(0, 1)
}

// variadic: Sum, Max, Min, Mean of one or more inputs, broadcast; values for Sum, Max, Min.
func variadic(c *Ctx) error {
	if c.NumIn() == 0 {
		return c.Errorf(errcode.ErrSyntax, "%s has no inputs", c.n.Op)
	}
	ins, err := c.Inputs(c.NumIn(), -1)
	if err != nil {
		return err
	}
	shapes := make([]sym.Shape, len(ins))
	for i, in := range ins {
		shapes[i] = in.Shape
	}
	s, err := c.Broadcast(shapes...)
	if err != nil {
		return err
	}
	out := c.Out(0, ins[0].Type, s)
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

// where: Where-9, -16: the broadcast of the condition and the two choices; values when the
// condition and the chosen values are known.
func where(c *Ctx) error {
	ins, err := c.Inputs(3, 3)
	if err != nil {
		return err
	}
	s, err := c.Broadcast(ins[0].Shape, ins[1].Shape, ins[2].Shape)
	if err != nil {
		return err
	}
	out := c.Out(0, ins[1].Type, s)
	return elementwise(c, out, ins, func(v []sym.Dim) (sym.Dim, error) {
		cond, ok := v[0].Static()
		if !ok {
			lo1, hi1 := v[1].Bounds()
			lo2, hi2 := v[2].Bounds()
			if v[1].Equal(v[2]) {
				return v[1], nil
			}
			return sym.Interval(min(lo1, lo2), max(hi1, hi2)), nil
		}
		if cond != 0 {
			return v[1], nil
		}
		return v[2], nil
	})
}
