package graph

import (
	"math"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// The kernels of the element-wise operators of ONNX and OpenVINO: what they compute on integer
// values, one input or several broadcast together.

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

// unaryFloat returns what the ONNX operator op of one input computes on floating-point values (a
// model's small float constants, Info.Floats): Neg, Abs, Relu, Floor, Ceil, Round (half to
// even), Reciprocal and Sqrt; nil for another operator.
func unaryFloat(op string) func(float64) float64 {
	switch op {
	case "Neg":
		return func(x float64) float64 { return -x }
	case "Abs":
		return math.Abs
	case "Relu":
		return func(x float64) float64 { return max(x, 0) }
	case "Floor":
		return math.Floor
	case "Ceil":
		return math.Ceil
	case "Round":
		return math.RoundToEven
	case "Reciprocal":
		return func(x float64) float64 { return 1 / x }
	case "Sqrt":
		return math.Sqrt
	}
	return nil
}

// roundFloat returns v rounded to the float type t as a kernel of t computes it (float32 and
// float64; v as it is for another type): a float32 result of an operation of float32 operands,
// computed in float64 and rounded once, is the kernel's for + - * / and sqrt.
func roundFloat(v float64, t element.Type) float64 {
	if t == element.F32 {
		return float64(float32(v))
	}
	return v
}

// binaryFloat returns what the ONNX operator op of two inputs computes on floating-point values:
// Add, Sub, Mul, Div, Min, Max; nil for another operator.
func binaryFloat(op string) func(a, b float64) float64 {
	switch op {
	case "Add":
		return func(a, b float64) float64 { return a + b }
	case "Sub":
		return func(a, b float64) float64 { return a - b }
	case "Mul":
		return func(a, b float64) float64 { return a * b }
	case "Div":
		return func(a, b float64) float64 { return a / b }
	case "Min":
		return math.Min
	case "Max":
		return math.Max
	}
	return nil
}

// elementwiseFloats sets the Floats of out, of static shape and at most maxFloats elements, to f
// of the Floats of a and b, broadcast, rounded to out's type, when f is not nil and both are known.
func elementwiseFloats(out, a, b *Info, f func(a, b float64) float64) {
	od, ok := out.Shape.Static()
	n, nok := out.Volume()
	ad, aok := a.Shape.Static()
	bd, bok := b.Shape.Static()
	if f == nil || a.Floats == nil || b.Floats == nil || !ok || !nok || n > maxFloats || !aok || !bok {
		return
	}
	ia, ib := broadcastIndex(ad, od), broadcastIndex(bd, od)
	v := make([]float64, n)
	for i := range v {
		v[i] = roundFloat(f(a.Floats[ia[i]], b.Floats[ib[i]]), out.Type)
	}
	out.Floats = v
}

// divisor returns the integer divisor b of a node's values (name says what it is: "the divisor",
// Range's "delta") without the bound 0 at either end of its interval, and requires that it not be
// 0: a run where it is 0 fails (integer division by zero), so the quotient only exists where it
// is not. A divisor H//4 (bounds [0, Inf)) is required H//4 >= 1 (H >= 4) and becomes [1, Inf),
// so B*(H//4) divided by it is B; one whose sign the symbols do not decide is required != 0. A
// divisor that may be 0 and is no expression in the symbols is a condition the rule cannot state
// (Ctx.Lost); the constant 0 is an error wrapping errcode.ErrInvalidShape.
func divisor(c *ctx, b sym.Dim, name string) (sym.Dim, error) {
	lo, hi := b.Bounds()
	var p func(x sym.Expr) sym.Pred
	switch {
	case lo == 0 && hi == 0:
		return b, c.Errorf(errcode.ErrInvalidShape, "integer division by zero: %s is 0", name)
	case lo > 0 || hi < 0:
		return b, nil
	case lo == 0:
		lo, p = 1, func(x sym.Expr) sym.Pred { return sym.Ge(x, sym.Int(1)) }
	case hi == 0:
		hi, p = -1, func(x sym.Expr) sym.Pred { return sym.Le(x, sym.Int(-1)) }
	default:
		p = func(x sym.Expr) sym.Pred { return sym.Ne(x, sym.Int(0)) }
	}
	why := name + " " + b.String() + " not 0"
	if x, ok := b.Expr(); ok {
		if err := c.Require(p(x), why); err != nil {
			return b, err
		}
	} else {
		c.Lost(why + ": it is no expression in the symbols")
	}
	if d, ok := b.Narrow(lo, hi); ok {
		return d, nil
	}
	return b, nil
}

// exact returns an arithmetic operation on values that refuses, with an error wrapping
// errcode.ErrOverflow, two integers whose result leaves int64 (where a run would wrap around).
func exact(c *ctx, f func(a, b sym.Dim) sym.Dim) func(a, b sym.Dim) (sym.Dim, error) {
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
func elementwise(c *ctx, out *Info, ins []*Info, f func(v []sym.Dim) (sym.Dim, error)) error {
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

// whereOf sets output 0 to the choice between ins[1] and ins[2] by the condition ins[0] (ONNX's
// Where, OpenVINO's Select-1 with numpy broadcasting): the broadcast of the three shapes, of the
// choices' type; values when the condition and the chosen values are known. Shapes that do not
// broadcast are an error wrapping errcode.ErrInvalidShape.
func whereOf(c *ctx, ins []*Info) error {
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
