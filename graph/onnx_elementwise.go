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
	register("", rs)
}

// unary: the operators of one tensor input and one output of its type and shape (Clip's min and
// max inputs are scalars). Neg, Abs and Not also map values.
func unary(c *Ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	out := c.SameAs(0, in)
	if in.Value == nil {
		return nil
	}
	var f func(sym.Dim) sym.Dim
	switch c.n.Op {
	case "Neg":
		f = func(d sym.Dim) sym.Dim { return sym.SubDims(sym.Const(0), d) }
	case "Abs":
		f = func(d sym.Dim) sym.Dim {
			if lo, _ := d.Bounds(); lo >= 0 {
				return d
			}
			if _, hi := d.Bounds(); hi <= 0 {
				return sym.SubDims(sym.Const(0), d)
			}
			return sym.MaxDims(d, sym.SubDims(sym.Const(0), d))
		}
	case "Not":
		f = func(d sym.Dim) sym.Dim { return sym.SubDims(sym.Const(1), d) }
	case "Identity", "Floor", "Ceil", "Round", "Relu":
		if c.n.Op == "Relu" {
			f = func(d sym.Dim) sym.Dim { return sym.MaxDims(d, sym.Const(0)) }
		} else {
			f = func(d sym.Dim) sym.Dim { return d }
		}
	default:
		return nil
	}
	v := make([]sym.Dim, len(in.Value))
	for i, d := range in.Value {
		v[i] = f(d)
	}
	out.Value = v
	return nil
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
			return sym.TruncDivDims(a, b), nil
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
	return elementwise(c, out, ins, func(v []sym.Dim) (sym.Dim, error) {
		if op == "Equal" && v[0].Equal(v[1]) {
			return sym.Const(1), nil
		}
		lo, hi := sym.SubDims(v[0], v[1]).Bounds() // of a-b, exact where both are expressions
		var yes, no bool
		switch op {
		case "Equal":
			no = lo > 0 || hi < 0
		case "Less":
			yes, no = hi < 0, lo >= 0
		case "LessOrEqual":
			yes, no = hi <= 0, lo > 0
		case "Greater":
			yes, no = lo > 0, hi <= 0
		case "GreaterOrEqual":
			yes, no = lo >= 0, hi < 0
		}
		switch {
		case yes:
			return sym.Const(1), nil
		case no:
			return sym.Const(0), nil
		}
		return sym.Interval(0, 1), nil
	})
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
