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
type frac struct {
	num   sym.Dim
	exp   int
	needs []need
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

// fracOf returns the float constant v as a frac: every finite float64 is an odd integer times a
// power of two.
func fracOf(v float64) (frac, bool) {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return frac{}, false
	}
	m, e := math.Frexp(v) // v = m·2^e, 0.5 <= |m| < 1
	return newFrac(sym.Const(int64(m*(1<<53))), e-53)
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
// sign is known (or f an integer), else an interval.
func (f frac) truncated() sym.Dim {
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
		if out[i], ok = fracOf(v); !ok {
			return nil, false
		}
	}
	return out, true
}

// setFracs sets the values of out, a tensor of a float type, to v when each is exact in it: kept
// (of a numerator no greater than one known exact), or shown so by its bounds; else, with cast
// (integers cast to the type), what makes it exact is a need of the value (frac.needs), and
// without, the values stay unknown. kept[i] reports that v[i] is kept; nil for none.
func setFracs(out *Info, v []frac, kept []bool, cast bool) {
	p, ok := significand(out.Type)
	n, nok := out.Volume()
	if !ok || !nok || n != int64(len(v)) || len(v) > MaxValue {
		return
	}
	limit := int64(1) << p
	for i, f := range v {
		if lo, hi := f.num.Bounds(); kept != nil && kept[i] || lo >= -limit && hi <= limit {
			continue
		}
		if _, exact := f.num.Expr(); !exact || !cast {
			return // a value the type rounds, or may round: not followed
		}
		v[i].needs = withNeeds([]need{{f.num, p}}, f)
	}
	out.fracs = &v
}

// mapFracs sets the values of out to f of those of in, for a unary operator op on floats
// (fracUnary), when in's are known exactly.
func mapFracs(out, in *Info, op string) {
	if in.fracs == nil {
		return
	}
	f := fracUnary(op)
	if f == nil {
		return
	}
	v := *in.fracs
	var ok bool
	res := make([]frac, len(v))
	for i, x := range v {
		if res[i], ok = f(x); !ok {
			return
		}
		res[i].needs = x.needs
	}
	setFracs(out, res, filledBool(len(res)), false) // no numerator grows
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
	}
	return nil
}

// elementwiseFracs sets the values of out, of a float type and static shape, to op (Add, Sub,
// Mul, or Div by a power of two) of those of a and b, broadcast, when one of them holds exact
// values computed from the symbols (Info.fracs) and the other's are known (constants too).
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
		var ok bool
		if res[i], ok = fracBinary(op, x, y); !ok {
			return
		}
		res[i].needs = withNeeds(nil, x, y)
		// A product by a power of two (a quotient by one) keeps the other's numerator.
		kept[i] = op == "Div" || op == "Mul" && (unit(x.num) || unit(y.num))
	}
	setFracs(out, res, kept, false)
}

// unit reports whether d is 1 or -1.
func unit(d sym.Dim) bool {
	n, ok := d.Static()
	return ok && (n == 1 || n == -1)
}

// fracBinary returns x op y exactly: Add, Sub, Mul, and Div by a power of two. ok is false for
// another operator or divisor, or an expression that cannot be kept.
func fracBinary(op string, x, y frac) (frac, bool) {
	switch op {
	case "Mul":
		return newFrac(sym.MulDims(x.num, y.num), x.exp+y.exp)
	case "Div":
		if unit(y.num) {
			return newFrac(sym.MulDims(x.num, y.num), x.exp-y.exp)
		}
	case "Add", "Sub":
		e := min(x.exp, y.exp)
		a, ok1 := x.scaled(e)
		b, ok2 := y.scaled(e)
		if !ok1 || !ok2 {
			return frac{}, false
		}
		if op == "Sub" {
			b = sym.SubDims(sym.Const(0), b)
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
