package graph

import (
	"math"
	"slices"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/sym"
)

// Shape values computed in floating point (torch's sizes scaled by a factor: Shape, Cast to float,
// Mul, Floor, Cast back to int64), followed exactly where they are exact. A value is num·2^exp for
// num an integer or an expression in the symbols (a frac): a float type holds it exactly while
// |num| <= 2^p, for the p bits of its significand (24 for f32, 53 for f64). A Cast of integers to
// a float type requires that of them unless their bounds show it: past it the model computes with
// rounded sizes. Multiplying or dividing by a power of two, Floor, Ceil, Neg, Abs and Relu keep
// the values exact (num does not grow); other products, sums and differences are followed where
// the bounds of the new num show it exact; a Cast to an integer type truncates toward zero.
// Anything else (a factor whose odd part is not 1 past the bounds, a divisor that is no power of
// two, Round between two integers) leaves the values unknown, a loss of precision downstream.

// A frac is an exact floating-point value num·2^exp; num is not known to be even (normalized).
// needs holds what makes it exact: the integers cast to a float type on the way, each within 2^p
// for the significand of the type (their bounds do not show it). A Cast back to an integer type
// requires them: past them the model computes with rounded sizes, and the values are not these.
// fl is the value as the model computes it, each operation rounded to its type (sym.Float): where
// no exact num·2^exp is known (a Reciprocal, a product whose numerator the type rounds), inexact is
// set, and fl alone holds the value, at every binding, with no need. fl is the zero Float for a
// type sym.Float does not compute (float16, bfloat16).
type frac struct {
	num     sym.Dim
	exp     int
	needs   []need
	fl      sym.Float
	inexact bool
}

// A need is an integer d that a float type of p significand bits holds exactly: |d| <= 2^p.
type need struct {
	d sym.Dim
	p int
}

// requireNeeds requires what makes the values v exact (frac.needs), at the node that casts them
// back to integers. The error is the solver's, for a requirement that cannot hold.
func requireNeeds(c *ctx, v []frac, from element.Type) error {
	for _, n := range withNeeds(nil, v...) {
		why := "the values computed in " + from.String() + " are exact: " + n.d.String() + " within 2^" + itoa(n.p)
		if err := requireAtMost(c, n.d, sym.Const(1<<n.p), why); err != nil {
			return err
		}
		if err := requireAtLeast(c, n.d, -(1 << n.p), why); err != nil {
			return err
		}
	}
	return nil
}

// withNeeds returns needs with those of the fracs fs added, once each.
func withNeeds(needs []need, fs ...frac) []need {
	for _, f := range fs {
		for _, n := range f.needs {
			if !slices.ContainsFunc(needs, func(m need) bool { return m.p == n.p && m.d.Equal(n.d) }) {
				needs = append(needs, n)
			}
		}
	}
	return needs
}

// maxExp bounds |exp| of a frac: far within every float type's exponent range at shape sizes.
const maxExp = 60

// significand returns the bits p of the significand of the float type t: its values hold every
// integer of magnitude up to 2^p exactly. ok is false for a type that is not a float.
func significand(t element.Type) (int, bool) {
	switch t {
	case element.F32:
		return 24, true
	case element.F64:
		return 53, true
	case element.F16:
		return 11, true
	case element.BF16:
		return 8, true
	}
	return 0, false
}

// newFrac returns num·2^exp normalized: num halved while it is known to be even. ok is false past
// maxExp.
func newFrac(num sym.Dim, exp int) (frac, bool) {
	if n, ok := num.Static(); ok && n == 0 {
		return frac{num: num}, true
	}
	two := sym.Const(2)
	for range 2 * maxExp {
		h := sym.FloorDivDims(num, two)
		if !sym.MulDims(h, two).Equal(num) {
			break
		}
		num, exp = h, exp+1
	}
	return frac{num: num, exp: exp}, exp >= -maxExp && exp <= maxExp
}

// fracOf returns the float constant v of the type t as a frac: every finite float64 is an odd
// integer times a power of two.
func fracOf(v float64, t element.Type) (frac, bool) {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return frac{}, false
	}
	m, e := math.Frexp(v) // v = m·2^e, 0.5 <= |m| < 1
	f, ok := newFrac(sym.Const(int64(m*(1<<53))), e-53)
	if bits, isFloat := floatBits(t); isFloat {
		f.fl, _ = sym.FloatConst(v, bits)
	}
	return f, ok
}

// floatBits returns the bits of the float type t that sym.Float computes in: 32 or 64.
func floatBits(t element.Type) (int, bool) {
	switch t {
	case element.F32:
		return 32, true
	case element.F64:
		return 64, true
	}
	return 0, false
}

// floatBitsOf returns the bits of the float type t that sym.Float computes in, 0 for another.
func floatBitsOf(t element.Type) int {
	bits, _ := floatBits(t)
	return bits
}

// intFrac returns the integer d cast to the float type t: exact (its needs are setFracs'), and as
// the model computes it.
func intFrac(d sym.Dim, t element.Type) (frac, bool) {
	f, ok := newFrac(d, 0)
	if bits, isFloat := floatBits(t); isFloat {
		if x, exact := d.Expr(); exact && d.Determined() {
			f.fl, _ = sym.FloatOf(x, bits)
		}
	}
	return f, ok
}

// scaled returns f.num·2^(f.exp-exp), for exp <= f.exp: the numerator of f over 2^exp.
func (f frac) scaled(exp int) (sym.Dim, bool) {
	k := f.exp - exp
	if k < 0 || k > 62 {
		return sym.Dim{}, false
	}
	return sym.MulDims(f.num, sym.Const(1<<k)), true
}

// truncated returns f truncated toward zero, as a Cast to an integer type does: exact when f's
// sign is known (or f an integer), as the model computes it when f is inexact, else an interval.
func (f frac) truncated() sym.Dim {
	if f.inexact {
		if x, ok := sym.Trunc(f.fl); ok {
			return sym.Of(x)
		}
		return sym.UnknownValue()
	}
	if f.exp >= 0 {
		d, ok := f.scaled(0)
		if !ok {
			return sym.Unknown()
		}
		return d
	}
	den := sym.Const(1 << min(-f.exp, 62))
	switch lo, hi := f.num.Bounds(); {
	case lo >= 0:
		return sym.FloorDivDims(f.num, den)
	case hi <= 0:
		return sym.SubDims(sym.Const(0), sym.FloorDivDims(sym.SubDims(sym.Const(0), f.num), den))
	}
	return sym.Unknown()
}

// floatValues returns the values of the float tensor in as fracs: its own, or its constants'.
func floatValues(in *Info) ([]frac, bool) {
	if in.fracs != nil {
		return *in.fracs, true
	}
	if in.Floats == nil {
		return nil, false
	}
	out := make([]frac, len(in.Floats))
	for i, v := range in.Floats {
		var ok bool
		if out[i], ok = fracOf(v, in.Type); !ok {
			return nil, false
		}
	}
	return out, true
}

// setFracs sets the values of out, a tensor of a float type, to v when each is known: kept (of a
// numerator no greater than one known exact), shown exact by its bounds, or inexact (frac.fl);
// else, with cast (integers cast to the type), what makes it exact is a need of the value
// (frac.needs) unless it holds a value computed in floating point already, which the type may
// round: then fl holds it as the model computes it. Without cast, a value the type may round is
// fl where there is one, else the values stay unknown. kept[i] reports that v[i] is kept; nil for
// none.
func setFracs(out *Info, v []frac, kept []bool, cast bool) {
	p, ok := significand(out.Type)
	n, nok := out.Volume()
	if !ok || !nok || n != int64(len(v)) || len(v) > MaxValue {
		return
	}
	limit := int64(1) << p
	for i, f := range v {
		if f.inexact || kept != nil && kept[i] {
			continue
		}
		if lo, hi := f.num.Bounds(); lo >= -limit && hi <= limit {
			continue
		}
		x, exact := f.num.Expr()
		if t, ok := x.Truncated(); ok && exact && t.Bits() <= floatBitsOf(out.Type) {
			continue // a float truncated: the type holds its values
		}
		switch {
		case cast && exact && !x.ComputedInFloat():
			v[i].needs = withNeeds([]need{{f.num, p}}, f)
		case f.fl.Bits() != 0:
			v[i] = frac{fl: f.fl, inexact: true}
		default:
			return // a value the type rounds, or may round: not followed
		}
	}
	out.fracs = &v
}

// mapFracs sets the values of out to f of those of in, for a unary operator op on floats
// (fracUnary, floatUnary), when in's are known.
func mapFracs(out, in *Info, op string) {
	if in.fracs == nil {
		return
	}
	f := fracUnary(op)
	v := *in.fracs
	res := make([]frac, len(v))
	for i, x := range v {
		fl, flOK := floatUnary(op, x.fl)
		if !x.inexact && f != nil {
			var ok bool
			if res[i], ok = f(x); ok {
				res[i].needs, res[i].fl = x.needs, fl
				continue
			}
		}
		if !flOK {
			return
		}
		res[i] = frac{fl: fl, inexact: true}
	}
	setFracs(out, res, filledBool(len(res)), false) // no numerator grows
}

// floatUnary returns op of x as the model computes it: Neg, Floor, Ceil, Round, Sqrt, Reciprocal,
// and Relu (the greater of x and 0). ok is false for another op, or an x of no sym.Float.
func floatUnary(op string, x sym.Float) (sym.Float, bool) {
	if x.Bits() == 0 {
		return sym.Float{}, false
	}
	switch op {
	case "Neg":
		return sym.FloatUnary(sym.FloatNeg, x)
	case "Floor":
		return sym.FloatUnary(sym.FloatFloor, x)
	case "Ceil":
		return sym.FloatUnary(sym.FloatCeil, x)
	case "Round":
		return sym.FloatUnary(sym.FloatRound, x)
	case "Sqrt":
		return sym.FloatUnary(sym.FloatSqrt, x)
	case "Reciprocal":
		one, _ := sym.FloatConst(1, x.Bits())
		return sym.FloatBinary(sym.FloatDiv, one, x)
	case "Relu":
		zero, _ := sym.FloatConst(0, x.Bits())
		return sym.FloatBinary(sym.FloatMax, x, zero)
	}
	return sym.Float{}, false
}

// fracUnary returns what the ONNX operator op of one float input computes on exact values: Neg,
// Abs and Relu where the sign is known, Floor, Ceil, and Round of an integer; nil for another
// operator.
func fracUnary(op string) func(frac) (frac, bool) {
	negate := func(f frac) frac { return frac{num: sym.SubDims(sym.Const(0), f.num), exp: f.exp} }
	// signed gives f where it is not negative and ifNeg(f) where it is not positive.
	signed := func(ifNeg func(frac) frac) func(frac) (frac, bool) {
		return func(f frac) (frac, bool) {
			switch lo, hi := f.num.Bounds(); {
			case lo >= 0:
				return f, true
			case hi <= 0:
				return ifNeg(f), true
			}
			return frac{}, false
		}
	}
	switch op {
	case "Neg":
		return func(f frac) (frac, bool) { return negate(f), true }
	case "Abs":
		return signed(negate)
	case "Relu":
		return signed(func(frac) frac { return frac{num: sym.Const(0)} })
	case "Floor", "Ceil":
		round := sym.FloorDivDims
		if op == "Ceil" {
			round = sym.CeilDivDims
		}
		return func(f frac) (frac, bool) {
			if f.exp >= 0 {
				return f, true
			}
			return newFrac(round(f.num, sym.Const(1<<min(-f.exp, 62))), 0)
		}
	case "Round":
		return func(f frac) (frac, bool) { return f, f.exp >= 0 }
	case "Reciprocal":
		return func(f frac) (frac, bool) { return frac{num: f.num, exp: -f.exp}, unit(f.num) }
	}
	return nil
}

// elementwiseFracs sets the values of out, of a float type and static shape, to op (Add, Sub,
// Mul, Div, Min, Max) of those of a and b, broadcast, when one of them holds values computed from
// the symbols (Info.fracs) and the other's are known (constants too): exact where they are
// (fracBinary), else as the model computes them (floatBinary).
func elementwiseFracs(out, a, b *Info, op string) {
	if a.fracs == nil && b.fracs == nil {
		return
	}
	va, oka := floatValues(a)
	vb, okb := floatValues(b)
	od, ok := out.Shape.Static()
	ad, aok := a.Shape.Static()
	bd, bok := b.Shape.Static()
	n, nok := out.Volume()
	if !oka || !okb || !ok || !aok || !bok || !nok || n > MaxValue {
		return
	}
	ia, ib := broadcastIndex(ad, od), broadcastIndex(bd, od)
	res := make([]frac, n)
	kept := make([]bool, n)
	for i := range res {
		x, y := va[ia[i]], vb[ib[i]]
		fl, flOK := floatBinary(op, x.fl, y.fl)
		if !x.inexact && !y.inexact {
			var ok bool
			if res[i], ok = fracBinary(op, x, y); ok {
				res[i].needs, res[i].fl = withNeeds(nil, x, y), fl
				// A product by a power of two (a quotient by one) keeps the other's numerator,
				// and so do the lesser and the greater of two.
				kept[i] = op == "Div" || op == "Mul" && (unit(x.num) || unit(y.num)) || op == "Min" || op == "Max"
				continue
			}
		}
		if !flOK {
			return
		}
		res[i] = frac{fl: fl, inexact: true}
	}
	setFracs(out, res, kept, false)
}

// floatBinary returns x op y as the model computes it, for op Add, Sub, Mul, Div, Min or Max; ok
// is false for another op, or an operand of no sym.Float.
func floatBinary(op string, x, y sym.Float) (sym.Float, bool) {
	if x.Bits() == 0 || y.Bits() == 0 {
		return sym.Float{}, false
	}
	ops := map[string]sym.FloatOp{"Add": sym.FloatAdd, "Sub": sym.FloatSub, "Mul": sym.FloatMul, "Div": sym.FloatDiv,
		"Min": sym.FloatMin, "Max": sym.FloatMax}
	o, ok := ops[op]
	if !ok {
		return sym.Float{}, false
	}
	return sym.FloatBinary(o, x, y)
}

// unit reports whether d is 1 or -1.
func unit(d sym.Dim) bool {
	n, ok := d.Static()
	return ok && (n == 1 || n == -1)
}

// fracBinary returns x op y exactly: Add, Sub, Min, Max, Mul, and Div by a power of two. ok is false for
// another operator or divisor, or an expression that cannot be kept.
func fracBinary(op string, x, y frac) (frac, bool) {
	switch op {
	case "Mul":
		return newFrac(sym.MulDims(x.num, y.num), x.exp+y.exp)
	case "Div":
		if unit(y.num) {
			return newFrac(sym.MulDims(x.num, y.num), x.exp-y.exp)
		}
	case "Add", "Sub", "Min", "Max":
		e := min(x.exp, y.exp)
		a, ok1 := x.scaled(e)
		b, ok2 := y.scaled(e)
		if !ok1 || !ok2 {
			return frac{}, false
		}
		switch op {
		case "Sub":
			return newFrac(sym.SubDims(a, b), e)
		case "Min":
			return newFrac(sym.MinDims(a, b), e)
		case "Max":
			return newFrac(sym.MaxDims(a, b), e)
		}
		return newFrac(sym.AddDims(a, b), e)
	}
	return frac{}, false
}

// filledBool returns n trues.
func filledBool(n int) []bool {
	v := make([]bool, n)
	for i := range v {
		v[i] = true
	}
	return v
}

// keepFracs gives out the float values of in, computed from shapes (Info.fracs) or constants
// (Info.Floats), when out has as many elements: a tensor of in's elements in another shape, or a
// reduction of axes of size 1.
func keepFracs(out, in *Info) {
	n, ok := out.Volume()
	switch {
	case !ok:
	case in.fracs != nil && n == int64(len(*in.fracs)):
		out.fracs = in.fracs
	case in.Floats != nil && n == int64(len(in.Floats)):
		out.Floats = in.Floats
	}
}

// concatFracs sets the float values of out, of static shape, to those of ins concatenated along
// axis a, when each input's are known: constants (Info.Floats) when all are, else computed from
// shapes (Info.fracs) or constants.
func concatFracs(out *Info, ins []*Info, a int) {
	n, ok := out.Volume()
	if !ok || n == 0 || n > MaxValue {
		return
	}
	if !slices.ContainsFunc(ins, func(in *Info) bool { return in.fracs != nil }) {
		if v, ok := concatElems(ins, a, func(in *Info) ([]float64, bool) { return in.Floats, in.Floats != nil }); ok && int64(len(v)) == n {
			out.Floats = v
		}
		return
	}
	if v, ok := concatElems(ins, a, floatValues); ok && int64(len(v)) == n {
		out.fracs = &v
	}
}

// concatElems concatenates the elements of ins, of static shapes, along axis a, each input's as
// get gives them; ok is false when one gives none.
func concatElems[T any](ins []*Info, a int, get func(*Info) ([]T, bool)) ([]T, bool) {
	vs := make([][]T, len(ins))
	for k, in := range ins {
		v, ok := get(in)
		if _, sok := in.Shape.Static(); !ok || !sok {
			return nil, false
		}
		vs[k] = v
	}
	outer := 1
	for _, d := range ins[0].Shape.Dims[:a] {
		outer *= staticInt(d)
	}
	var v []T
	for o := range outer {
		for k, in := range ins {
			inner := 1
			for _, d := range in.Shape.Dims[a:] {
				inner *= staticInt(d)
			}
			if (o+1)*inner > len(vs[k]) {
				return nil, false
			}
			v = append(v, vs[k][o*inner:(o+1)*inner]...)
		}
	}
	return v, true
}
