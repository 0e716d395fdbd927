package sym

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/errcode"
)

// Float is a floating-point value computed from integer expressions as a model computes it: an
// integer converted to float32 or float64, constants, and the operations of FloatOp, each rounded
// to its type (IEEE 754, to nearest, ties to even) as onnxruntime rounds them. torchvision's
// detection transform computes the size it resizes an image to so: min(H,W) and max(H,W) cast to
// float32, a Reciprocal, products by 320 and 640, their Min, a product by H and a Floor. Trunc
// turns a Float into an integer expression (a Cast to an integer type truncates toward zero),
// which evaluates bit for bit as the model computes it.
//
// The zero Float is no value. Floats are immutable and safe for concurrent use.
type Float struct{ n *fnode }

// FloatOp is an operation of a Float: the arithmetic of ONNX on floats, each result rounded to the
// operands' type.
type FloatOp uint8

// The operations of a Float. Binary: FloatAdd, FloatSub, FloatMul, FloatDiv (a Reciprocal is 1
// divided by x), FloatMin, FloatMax. Unary: FloatNeg, FloatFloor, FloatCeil, FloatRound (half to
// even, as ONNX Round), FloatSqrt.
const (
	FloatAdd FloatOp = iota + 1
	FloatSub
	FloatMul
	FloatDiv
	FloatMin
	FloatMax
	FloatNeg
	FloatFloor
	FloatCeil
	FloatRound
	FloatSqrt
	floatLeaf  // an integer expression converted
	floatConst // a constant of the type
	floatCast  // a float of the other type converted
)

// fnode is one operation of a Float.
type fnode struct {
	op   FloatOp
	bits uint8   // 32 or 64: the type of the result
	e    Expr    // floatLeaf: the integer converted
	c    float64 // floatConst: the value, held exactly by the type
	x, y *fnode  // operands (y for binary operations only)
	size int     // nodes and the sizes of the leaves, nested ones included
}

// roundTo returns v rounded to the float type of bits. A float32 result of an operation computed
// in float64 and rounded again is the correctly rounded float32 result for + - * / and sqrt, whose
// float64 significand has more than twice the bits plus two.
func roundTo(v float64, bits uint8) float64 {
	if bits == 32 {
		return float64(float32(v))
	}
	return v
}

// intToFloat returns n converted to the float type of bits, rounded once.
func intToFloat(n int64, bits uint8) float64 {
	if bits == 32 {
		return float64(float32(n))
	}
	return float64(n)
}

func validBits(bits int) bool { return bits == 32 || bits == 64 }

// FloatOf returns the integer e converted to the float type of bits (32 or 64), as a Cast does:
// rounded when |e| passes 2^24 (2^53). ok is false for another bits or an expression past the size
// bound.
func FloatOf(e Expr, bits int) (Float, bool) {
	if !validBits(bits) {
		return Float{}, false
	}
	if n, ok := e.Const(); ok {
		return FloatConst(intToFloat(n, uint8(bits)), bits)
	}
	if f, ok := e.Truncated(); ok && f.Bits() <= bits && f.n.integral() {
		return FloatCast(f, bits) // int(floor(x)) converted back is floor(x)
	}
	w := 1 + e.weight()
	if w > maxFloatSize {
		return Float{}, false
	}
	return Float{&fnode{op: floatLeaf, bits: uint8(bits), e: e, size: w}}, true
}

// FloatConst returns the constant v rounded to the float type of bits (32 or 64). ok is false for
// another bits, and for a value that is not finite in the type.
func FloatConst(v float64, bits int) (Float, bool) {
	if !validBits(bits) {
		return Float{}, false
	}
	c := roundTo(v, uint8(bits))
	if math.IsInf(c, 0) || math.IsNaN(c) {
		return Float{}, false
	}
	return Float{&fnode{op: floatConst, bits: uint8(bits), c: c, size: 1}}, true
}

// FloatCast returns x converted to the float type of bits (32 or 64): rounded from float64 to
// float32, exact from float32 to float64.
func FloatCast(x Float, bits int) (Float, bool) {
	switch {
	case x.n == nil || !validBits(bits):
		return Float{}, false
	case int(x.n.bits) == bits:
		return x, true
	case x.n.op == floatConst:
		return FloatConst(x.n.c, bits)
	}
	return node(&fnode{op: floatCast, bits: uint8(bits), x: x.n})
}

// FloatUnary returns op (FloatNeg, FloatFloor, FloatCeil, FloatRound or FloatSqrt) of x: x itself
// for a Floor, Ceil or Round of an integer. ok is false for another op, or a result past the size
// bound.
func FloatUnary(op FloatOp, x Float) (Float, bool) {
	if x.n == nil || op < FloatNeg || op > FloatSqrt {
		return Float{}, false
	}
	if (op == FloatFloor || op == FloatCeil || op == FloatRound) && x.n.integral() {
		return x, true
	}
	return node(&fnode{op: op, bits: x.n.bits, x: x.n})
}

// FloatBinary returns x op y for a binary op (FloatAdd to FloatMax) of two floats of one type: x
// itself for x·1, 1·x and x/1, which IEEE 754 computes exactly. ok is false for another op, floats
// of different types, or a result past the size bound.
func FloatBinary(op FloatOp, x, y Float) (Float, bool) {
	if x.n == nil || y.n == nil || op < FloatAdd || op > FloatMax || x.n.bits != y.n.bits {
		return Float{}, false
	}
	switch one := func(n *fnode) bool { return n.op == floatConst && n.c == 1 }; {
	case (op == FloatMul || op == FloatDiv) && one(y.n):
		return x, true
	case op == FloatMul && one(x.n):
		return y, true
	}
	return node(&fnode{op: op, bits: x.n.bits, x: x.n, y: y.n})
}

// Quotient reports whether f is x/y, each an integer expression converted to f's type (FloatOf),
// and returns them: torch's scale of a size computed from shapes, f32(H)/f32(h).
func (f Float) Quotient() (x, y Expr, ok bool) {
	if f.n == nil || f.n.op != FloatDiv {
		return Expr{}, Expr{}, false
	}
	if x, ok = f.n.x.integer(); ok {
		y, ok = f.n.y.integer()
	}
	return x, y, ok
}

// integer returns the integer expression n converts (a floatLeaf), or its value (a constant that
// is an int64).
func (n *fnode) integer() (Expr, bool) {
	switch {
	case n.op == floatLeaf:
		return n.e, true
	case n.op == floatConst && n.c == math.Trunc(n.c) && math.Abs(n.c) < 1<<62:
		return Int(int64(n.c)), true
	}
	return Expr{}, false
}

// node returns n, its value when its operands are constants, ok false past the size bound.
func node(n *fnode) (Float, bool) {
	n.size = 1 + n.x.size
	if n.y != nil {
		n.size += n.y.size
	}
	if n.x.op == floatConst && (n.y == nil || n.y.op == floatConst) {
		var y float64
		if n.y != nil {
			y = n.y.c
		}
		return FloatConst(apply(n.op, n.bits, n.x.c, y), int(n.bits))
	}
	if n.size > maxFloatSize {
		return Float{}, false
	}
	return Float{n}, true
}

// maxFloatSize bounds the size of a Float: its operations and the integers it converts, nested
// Floats included (weight). Within an expression, the atom int(F) counts as one (see maxSize): the
// polynomial arithmetic does not look into it.
const maxFloatSize = 4 * maxSize

// weight returns the size of e as Size counts it, but with each atom int(F) counting the size of
// F: what its text and its evaluation cost.
func (e Expr) weight() int {
	n := 0
	for _, t := range e.t {
		n++
		for _, f := range t.m {
			n += abs(f.e) * (1 + f.a.weight())
		}
	}
	return n
}

func (a *atom) weight() int {
	switch a.kind {
	case symbolAtom:
		return 0
	case floatAtom:
		return a.fl.size
	case minAtom, maxAtom:
		n := 0
		for _, x := range a.args {
			n += x.weight()
		}
		return n
	}
	return a.num.weight() + a.den.weight()
}

// apply returns op of x and y in the float type of bits, rounded.
func apply(op FloatOp, bits uint8, x, y float64) float64 {
	var v float64
	switch op {
	case FloatAdd:
		v = x + y
	case FloatSub:
		v = x - y
	case FloatMul:
		v = x * y
	case FloatDiv:
		v = x / y
	case FloatMin:
		v = math.Min(x, y)
	case FloatMax:
		v = math.Max(x, y)
	case FloatNeg:
		v = -x
	case FloatFloor:
		v = math.Floor(x)
	case FloatCeil:
		v = math.Ceil(x)
	case FloatRound:
		v = math.RoundToEven(x)
	case FloatSqrt:
		v = math.Sqrt(x)
	default: // floatCast
		v = x
	}
	return roundTo(float64(v), bits) // the conversion keeps a fused multiply-add from forming
}

// Bits returns the bits of f's type: 32 for float32, 64 for float64, 0 for no value.
func (f Float) Bits() int {
	if f.n == nil {
		return 0
	}
	return int(f.n.bits)
}

// Const returns f's value when f is a constant.
func (f Float) Const() (float64, bool) {
	if f.n == nil || f.n.op != floatConst {
		return 0, false
	}
	return f.n.c, true
}

// Trunc returns f truncated toward zero, as a Cast of a float to an integer type computes it: an
// integer constant, or an atom of the expression (see Expr) that prints as int(F). ok is false for
// no value, or a constant that is no finite int64.
func Trunc(f Float) (Expr, bool) {
	if f.n == nil {
		return Expr{}, false
	}
	if c, ok := f.Const(); ok {
		n, ok := truncInt(c)
		return Int(n), ok
	}
	a := &atom{kind: floatAtom, fl: f.n, size: 1}
	f.n.leaves(func(e Expr) { a.args = append(a.args, e) })
	a.key = string(appendInt(nil, f.n))
	return fromAtom(a), true
}

// truncInt returns v truncated toward zero, ok false when that is no int64.
func truncInt(v float64) (int64, bool) {
	t := math.Trunc(v)
	if math.IsNaN(t) || t < -(1<<63) || t >= 1<<63 {
		return 0, false
	}
	return int64(t), true
}

// leaves calls yield for the integer expressions n converts, in print order.
func (n *fnode) leaves(yield func(Expr)) {
	switch {
	case n.op == floatLeaf:
		yield(n.e)
	case n.op == floatConst:
	default:
		n.x.leaves(yield)
		if n.y != nil {
			n.y.leaves(yield)
		}
	}
}

// rebuild returns n with each leaf replaced by at(leaf), constants folded; ok is false when at
// gives none or the result cannot be kept.
func (n *fnode) rebuild(at func(Expr) (Expr, bool)) (Float, bool) {
	switch n.op {
	case floatLeaf:
		e, ok := at(n.e)
		if !ok {
			return Float{}, false
		}
		return FloatOf(e, int(n.bits))
	case floatConst:
		return Float{n}, true
	}
	x, ok := n.x.rebuild(at)
	if !ok {
		return Float{}, false
	}
	if n.op == floatCast {
		return FloatCast(x, int(n.bits))
	}
	if n.y == nil {
		return FloatUnary(n.op, x)
	}
	y, ok := n.y.rebuild(at)
	if !ok {
		return Float{}, false
	}
	return FloatBinary(n.op, x, y)
}

// Subst returns f with each symbol s of its integer expressions replaced by sub(name of s) where
// it gives one, as Expr.Subst does, constants folded.
func (f Float) Subst(sub func(name string) (Expr, bool)) (Float, bool) {
	if f.n == nil {
		return f, true
	}
	return f.n.rebuild(func(e Expr) (Expr, bool) { return substExpr(e, sub) })
}

// Eval returns f's value when each symbol takes the value value(name) gives, each operation
// rounded as the model rounds it. The errors are those of Expr.Eval for the integers f converts.
func (f Float) Eval(value func(name string) (int64, bool)) (float64, error) {
	if f.n == nil {
		return math.NaN(), nil
	}
	return f.n.eval(func(e Expr) (int64, error) { return e.Eval(value) })
}

// eval returns n's value, with leaf giving the value of an integer expression.
func (n *fnode) eval(leaf func(Expr) (int64, error)) (float64, error) {
	switch n.op {
	case floatLeaf:
		v, err := leaf(n.e)
		if err != nil {
			return 0, err
		}
		return intToFloat(v, n.bits), nil
	case floatConst:
		return n.c, nil
	}
	x, err := n.x.eval(leaf)
	if err != nil {
		return 0, err
	}
	var y float64
	if n.y != nil {
		if y, err = n.y.eval(leaf); err != nil {
			return 0, err
		}
	}
	return apply(n.op, n.bits, x, y), nil
}

// evalTrunc returns the value of the atom int(n) at the binding leaf gives. The error wraps
// errcode.ErrInvalidShape for a value that is no finite int64 (a size the model cannot allocate).
func (n *fnode) evalTrunc(leaf func(Expr) (int64, error)) (int64, error) {
	v, err := n.eval(leaf)
	if err != nil {
		return 0, err
	}
	t, ok := truncInt(v)
	if !ok {
		return 0, errcode.Errorf(errcode.ErrInvalidShape, "%s is %v at this binding, no integer", appendInt(nil, n), v)
	}
	return t, nil
}

// ival returns the interval of the values int(n) takes, from the bounds of the integers n
// converts (see bounder), truncated as int(n) is: truncation keeps the order.
func (n *fnode) ival() ival {
	lo, hi := bounder{}.of(n)
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return whole
	}
	return ival{floatX(math.Trunc(lo)), floatX(math.Trunc(hi))}
}

// floatX returns the integral float v as an xint, an infinity past ±2^62.
func floatX(v float64) xint {
	switch {
	case v >= 1<<62:
		return plusInf
	case v <= -(1 << 62):
		return minusInf
	}
	return fin(int64(v))
}

// xFloat returns the xint a as a float64 (rounded toward the infinity of bound's sign, enough for
// a bound widened afterwards).
func xFloat(a xint) float64 {
	switch a.inf {
	case -1:
		return math.Inf(-1)
	case 1:
		return math.Inf(1)
	}
	return float64(a.v)
}

// widen returns [lo, hi] grown by the relative error of one rounding to the type of bits and a
// little more, and by the least normal value of the type (subnormal results), but not across 0:
// rounding keeps the sign of a value.
func widen(lo, hi float64, bits uint8) (float64, float64) {
	eps, tiny := 0x1p-22, tinyOf(bits)
	if bits == 64 {
		eps = 0x1p-51
	}
	wl, wh := lo-math.Abs(lo)*eps-tiny, hi+math.Abs(hi)*eps+tiny
	if lo >= 0 {
		wl = max(wl, 0)
	}
	if hi <= 0 {
		wh = min(wh, 0)
	}
	return wl, wh
}

// tinyOf returns the least normal value of the float type of bits, more than the error of a
// rounding to a subnormal value.
func tinyOf(bits uint8) float64 {
	if bits == 64 {
		return 0x1p-1022
	}
	return 0x1p-126
}

// bounder computes bounds of the values of the nodes of a Float: interval arithmetic on float64,
// each result widened by more than the rounding of its type (widen), so that the bounds hold
// whatever the rounding; products and quotients also from their factors (product), a product by a
// min or max from the products by its operands (spread). It holds the bounds of the nodes it has
// computed, so that each is computed once.
type bounder map[*fnode][2]float64

// of returns bounds of n's values; NaN where none are known.
func (b bounder) of(n *fnode) (lo, hi float64) {
	if v, ok := b[n]; ok {
		return v[0], v[1]
	}
	lo, hi = b.compute(n)
	b[n] = [2]float64{lo, hi}
	return lo, hi
}

// compute returns bounds of n's values from those of its operands; NaN where none are known.
func (b bounder) compute(n *fnode) (lo, hi float64) {
	switch n.op {
	case floatConst:
		return n.c, n.c
	case floatLeaf:
		// An integer is an int64: its conversion lies within ±2^63.
		e := n.e.ival()
		return widen(max(xFloat(e.lo), -0x1p63), min(xFloat(e.hi), 0x1p63), n.bits)
	}
	xl, xh := b.of(n.x)
	var yl, yh float64
	if n.y != nil {
		yl, yh = b.of(n.y)
	}
	if math.IsNaN(xl) || math.IsNaN(xh) || math.IsNaN(yl) || math.IsNaN(yh) {
		return math.NaN(), math.NaN()
	}
	switch n.op {
	case FloatAdd:
		lo, hi = xl+yl, xh+yh
	case FloatSub:
		lo, hi = xl-yh, xh-yl
	case FloatMul:
		lo, hi = corners4(mulBound, xl, xh, yl, yh)
	case FloatDiv:
		if yl <= 0 && yh >= 0 {
			return math.NaN(), math.NaN()
		}
		lo, hi = corners4(func(a, b float64) float64 { return a / b }, xl, xh, yl, yh)
	case FloatSqrt:
		if xh < 0 {
			return math.NaN(), math.NaN()
		}
		lo, hi = math.Sqrt(math.Max(xl, 0)), math.Sqrt(xh)
	case floatCast:
		lo, hi = xl, xh
	// The operations below compute their results exactly, and are monotone.
	case FloatMin:
		return math.Min(xl, yl), math.Min(xh, yh)
	case FloatMax:
		return math.Max(xl, yl), math.Max(xh, yh)
	case FloatNeg:
		return -xh, -xl
	case FloatFloor:
		return math.Floor(xl), math.Floor(xh)
	case FloatCeil:
		return math.Ceil(xl), math.Ceil(xh)
	default: // FloatRound
		return math.RoundToEven(xl), math.RoundToEven(xh)
	}
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return math.NaN(), math.NaN()
	}
	lo, hi = widen(lo, hi, n.bits)
	if n.op == FloatMul || n.op == FloatDiv {
		l, h := b.product(n)
		lo, hi = meet(lo, hi, l, h)
	}
	if n.op == FloatMul {
		l, h := b.spread(n)
		lo, hi = meet(lo, hi, l, h)
	}
	return lo, hi
}

// meet returns the intersection of the bounds [lo, hi] and [l, h], [lo, hi] where l or h is NaN
// (no bounds).
func meet(lo, hi, l, h float64) (float64, float64) {
	if math.IsNaN(l) || math.IsNaN(h) {
		return lo, hi
	}
	return math.Max(lo, l), math.Min(hi, h)
}

// spread returns bounds of the product n = z·m of a min or max m of two floats a and b, and of z
// of one sign: z·min(a, b) is min(z·a, z·b) where z >= 0 (max(z·a, z·b) where z <= 0), and so are
// they rounded, rounding being monotone. torchvision's f32(H)·min(f32(1)/f32(min(H,W))·f32(320),
// f32(1)/f32(max(H,W))·f32(640)) is at most the bound of the second product, 640 (see product).
// NaN when no operand is a min or max, or the other may take both signs.
func (b bounder) spread(n *fnode) (lo, hi float64) {
	z, m := n.x, n.y
	if m.op != FloatMin && m.op != FloatMax {
		z, m = m, z
	}
	zl, zh := b.of(z)
	if m.op != FloatMin && m.op != FloatMax || !(zl >= 0 || zh <= 0) {
		return math.NaN(), math.NaN()
	}
	al, ah := b.of(&fnode{op: FloatMul, bits: n.bits, x: z, y: m.x})
	bl, bh := b.of(&fnode{op: FloatMul, bits: n.bits, x: z, y: m.y})
	if (m.op == FloatMin) == (zl >= 0) {
		return math.Min(al, bl), math.Min(ah, bh)
	}
	return math.Max(al, bl), math.Max(ah, bh)
}

// product returns bounds of a product or quotient n from its factors (see factors): the exact
// product of their bounds, but with each quotient f32(X)/f32(D) of a factor X and a divisor D,
// conversions of integers, taken as 1 where X is D, and as at most 1 where 0 <= X <= D and D > 0
// (atMost), since a conversion keeps the order. Each of the roundings of n's operations
// multiplies the exact value by at most 1 plus the rounding's relative error (widen), and adds
// at most a subnormal's error, which the factors after it scale by at most the product of their
// magnitudes (of the reciprocals, for divisors), at least 1 each: that scale bounds every
// intermediate result too, which then is never infinite. torchvision's
// f32(H)·(f32(1)/f32(max(H,W))·f32(640)) is at most 640, whatever H and W. NaN when no quotient
// pairs so, a divisor's bounds hold 0, the scale is past the type's largest value, or the factors
// times the divisors are more than maxPairs.
func (b bounder) product(n *fnode) (lo, hi float64) {
	var num, den []*fnode
	ops := n.factors(&num, &den)
	if len(num)*len(den) > maxPairs {
		return math.NaN(), math.NaN()
	}
	used := make([]bool, len(num))
	rl, rh := 1.0, 1.0
	scale, paired := 1.0, false
	for _, d := range den {
		dl, dh := b.of(d)
		if !(dl > 0 || dh < 0) {
			return math.NaN(), math.NaN()
		}
		scale *= math.Max(1, 1/math.Min(math.Abs(dl), math.Abs(dh)))
		ql, qh := 1/dh, 1/dl
		for i, x := range num {
			if used[i] || x.op != floatLeaf || d.op != floatLeaf {
				continue
			}
			if x.e.Equal(d.e) {
				used[i], paired, ql, qh = true, true, 1, 1
				break
			}
			if xl, xh := b.of(x); xl >= 0 && dl > 0 && atMost(x.e, d.e) {
				used[i], paired = true, true
				ql, qh = math.Max(0, xl/dh), math.Min(1, xh/dl)
				break
			}
		}
		rl, rh = corners4(mulBound, rl, rh, ql, qh)
	}
	if !paired {
		return math.NaN(), math.NaN()
	}
	for i, x := range num {
		xl, xh := b.of(x)
		scale *= math.Max(1, math.Max(math.Abs(xl), math.Abs(xh)))
		if !used[i] {
			rl, rh = corners4(mulBound, rl, rh, xl, xh)
		}
	}
	if math.IsNaN(rl) || math.IsNaN(rh) || !(2*scale < maxOf(n.bits)) {
		return math.NaN(), math.NaN()
	}
	lo, hi = rl, rh
	for range ops {
		lo, hi = widen(lo, hi, n.bits)
	}
	a := 2 * float64(ops) * tinyOf(n.bits) * scale
	if lo -= a; rl >= 0 {
		lo = math.Max(lo, 0)
	}
	return lo, hi + a
}

// maxPairs bounds the pairs of a factor and a divisor that product tries, so that the bounds of a
// Float cost little however long its products are; the products of the detection transform have
// three factors and one divisor.
const maxPairs = 64

// maxOf returns the largest finite value of the float type of bits.
func maxOf(bits uint8) float64 {
	if bits == 64 {
		return math.MaxFloat64
	}
	return math.MaxFloat32
}

// factors appends to num the factors of the products and quotients n computes in its type and
// to den the divisors, and returns the number of those operations: f32(H)·(f32(1)/f32(D)·f32(640))
// has the factors f32(H), f32(1) and f32(640), the divisor f32(D), and three operations. A
// divisor is an operand as it is: its error would not scale.
func (n *fnode) factors(num, den *[]*fnode) int {
	switch n.op {
	case FloatMul:
		return 1 + n.x.factors(num, den) + n.y.factors(num, den)
	case FloatDiv:
		*den = append(*den, n.y)
		return 1 + n.x.factors(num, den)
	}
	*num = append(*num, n)
	return 0
}

// atMost reports whether x <= y at every binding, as their forms show: x is y, an argument of
// the max y, the min of an argument of y or y itself, or y-x has no negative value: H <=
// max(H,W), min(H,W) <= max(W,C), H <= H+1.
func atMost(x, y Expr) bool {
	xs, ys := []Expr{x}, []Expr{y}
	if a, ok := x.lone(); ok && a.kind == minAtom {
		xs = append(xs, a.args...)
	}
	if a, ok := y.lone(); ok && a.kind == maxAtom {
		ys = append(ys, a.args...)
	}
	for _, u := range xs {
		if slices.ContainsFunc(ys, u.Equal) {
			return true
		}
	}
	d, ok := Sub(y, x)
	return ok && d.ival().lo.sign() >= 0
}

// mulBound returns the product of two bounds, 0 for 0 and an infinity: an infinite bound is no
// value a factor takes.
func mulBound(a, b float64) float64 {
	if a == 0 || b == 0 {
		return 0
	}
	return a * b
}

// corners4 returns the least and greatest of f at the corners of [xl,xh]×[yl,yh]; NaN when one is
// (0·∞, ∞/∞).
func corners4(f func(a, b float64) float64, xl, xh, yl, yh float64) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range [4]float64{f(xl, yl), f(xl, yh), f(xh, yl), f(xh, yh)} {
		if math.IsNaN(v) {
			return math.NaN(), math.NaN()
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}

// String returns f in the notation of the package documentation: f32(E) and f64(E) convert an
// integer expression or a float of the other type, constants are written f32(320), and + - * /,
// min, max, floor, ceil, round (half to even) and sqrt of floats compute in their type, rounded:
// "f32(H)*min(f32(320)*(f32(1)/f32(min(H,W))),f32(640)*(f32(1)/f32(max(H,W))))".
func (f Float) String() string {
	if f.n == nil {
		return "<nil>"
	}
	return string(appendFloat(nil, f.n, 0, false))
}

// appendInt appends the atom int(n).
func appendInt(b []byte, n *fnode) []byte {
	b = append(b, "int("...)
	b = appendFloat(b, n, 0, false)
	return append(b, ')')
}

// precedence returns the binding strength of n's notation: 1 for + and -, 2 for * and /, 3 for a
// negation, 4 for a call or a conversion.
func (n *fnode) precedence() int {
	switch n.op {
	case FloatAdd, FloatSub:
		return 1
	case FloatMul, FloatDiv:
		return 2
	case FloatNeg:
		return 3
	}
	return 4
}

var floatNames = [...]string{FloatMin: "min", FloatMax: "max", FloatFloor: "floor", FloatCeil: "ceil",
	FloatRound: "round", FloatSqrt: "sqrt", floatCast: "", FloatAdd: "+", FloatSub: "-", FloatMul: "*", FloatDiv: "/"}

// appendFloat appends n, parenthesized when it binds less than outer requires (right, the right
// operand of a binary operation, requires more: float arithmetic does not associate).
func appendFloat(b []byte, n *fnode, outer int, right bool) []byte {
	p := n.precedence()
	paren := p < outer || right && p == outer
	if paren {
		b = append(b, '(')
	}
	switch n.op {
	case floatLeaf:
		b = appendType(b, n.bits)
		b = n.e.AppendText(b)
		b = append(b, ')')
	case floatConst:
		b = appendType(b, n.bits)
		b = appendFloatConst(b, n.c, n.bits)
		b = append(b, ')')
	case floatCast:
		b = appendType(b, n.bits)
		b = appendFloat(b, n.x, 0, false)
		b = append(b, ')')
	case FloatAdd, FloatSub, FloatMul, FloatDiv:
		b = appendFloat(b, n.x, p, false)
		b = append(b, floatNames[n.op]...)
		b = appendFloat(b, n.y, p, true)
	case FloatNeg:
		b = append(b, '-')
		b = appendFloat(b, n.x, p, false)
	case FloatMin, FloatMax:
		b = append(b, floatNames[n.op]...)
		b = append(b, '(')
		b = appendFloat(b, n.x, 0, false)
		b = append(b, ',')
		b = appendFloat(b, n.y, 0, false)
		b = append(b, ')')
	default:
		b = append(b, floatNames[n.op]...)
		b = append(b, '(')
		b = appendFloat(b, n.x, 0, false)
		b = append(b, ')')
	}
	if paren {
		b = append(b, ')')
	}
	return b
}

func appendType(b []byte, bits uint8) []byte {
	if bits == 32 {
		return append(b, "f32("...)
	}
	return append(b, "f64("...)
}

// appendFloatConst appends the constant v of the float type of bits: the shortest decimal that
// reads back as v in that type, when reading it as a float64 and rounding that to the type gives v
// too (as Python's numpy.float32(float(text)) does), else the float64's own shortest decimal. An
// integral value prints without a point.
func appendFloatConst(b []byte, v float64, bits uint8) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.AppendInt(b, int64(v), 10)
	}
	if bits == 32 {
		s := strconv.FormatFloat(v, 'g', -1, 32)
		if w, err := strconv.ParseFloat(s, 64); err == nil && float64(float32(w)) == v {
			return append(b, s...)
		}
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// refloat returns the atom int(F) of a floatAtom with each integer F converts replaced by at(it),
// constants folded.
func (a *atom) refloat(at func(Expr) (Expr, bool)) (Expr, bool) {
	f, ok := a.fl.rebuild(at)
	if !ok {
		return Expr{}, false
	}
	return Trunc(f)
}

// errGiveUp stops the fast path of evaluation (eval64), which then evaluates exactly.
var errGiveUp = errcode.Errorf(errcode.ErrOverflow, "not within the fast path")

// ComputedInFloat reports whether e holds a value computed in floating point (Trunc).
func (e Expr) ComputedInFloat() bool {
	found := false
	e.walkAtoms(func(a *atom) { found = found || a.kind == floatAtom })
	return found
}

// Truncated returns F when e is the integer int(F) that Trunc gives. The float type of F, and any
// wider one, holds every value of e exactly: a float of magnitude 2^p or more is an integer, and one
// below truncates to an integer below 2^p.
func (e Expr) Truncated() (Float, bool) {
	if len(e.t) != 1 || e.t[0].c != ratInt(1) || len(e.t[0].m) != 1 || e.t[0].m[0].e != 1 || e.t[0].m[0].a.kind != floatAtom {
		return Float{}, false
	}
	return Float{e.t[0].m[0].a.fl}, true
}

// integral reports whether n's values are integers (or infinite): a Floor, Ceil or Round, or a
// conversion of one.
func (n *fnode) integral() bool {
	switch n.op {
	case FloatFloor, FloatCeil, FloatRound, floatLeaf:
		return true
	case floatConst:
		return n.c == math.Trunc(n.c)
	case floatCast:
		return n.x.integral()
	}
	return false
}

// intOf parses int(F) after the name int: F a float computation in the notation of Float.String.
func (p *parser) intOf() (value, error) {
	f, err := p.floatCall(func() (Float, error) { return p.fsum() })
	if err != nil {
		return value{}, err
	}
	e, ok := Trunc(f)
	if !ok {
		return value{}, p.errorf("int(%v) is no int64", f)
	}
	return value{e: e}, nil
}

// floatCall parses ( F ) with F what arg parses, the opening parenthesis next.
func (p *parser) floatCall(arg func() (Float, error)) (Float, error) {
	p.space()
	return group(p, arg)
}

// fsum parses floats joined by + and -, left associative.
func (p *parser) fsum() (Float, error) {
	return p.fchain(p.fproduct, map[string]FloatOp{"+": FloatAdd, "-": FloatSub})
}

// fproduct parses floats joined by * and /, left associative.
func (p *parser) fproduct() (Float, error) {
	return p.fchain(p.funary, map[string]FloatOp{"*": FloatMul, "/": FloatDiv})
}

func (p *parser) fchain(next func() (Float, error), ops map[string]FloatOp) (Float, error) {
	x, err := next()
	if err != nil {
		return Float{}, err
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.peek("//") {
			return x, nil
		}
		op, ok := ops[p.s[p.i:p.i+1]]
		if !ok {
			return x, nil
		}
		p.i++
		y, err := next()
		if err != nil {
			return Float{}, err
		}
		if x, ok = FloatBinary(op, x, y); !ok {
			return Float{}, p.errorf("floats of different types, or larger than %d operations", maxFloatSize)
		}
	}
}

// funary parses a negation or a float primary.
func (p *parser) funary() (Float, error) {
	if !p.peek("-") {
		return p.fprimary()
	}
	if err := p.enter(); err != nil {
		return Float{}, err
	}
	p.i++
	x, err := p.funary()
	if err != nil {
		return Float{}, err
	}
	p.depth--
	if x, ok := FloatUnary(FloatNeg, x); ok {
		return x, nil
	}
	return Float{}, p.tooLarge()
}

var floatCalls = map[string]FloatOp{"min": FloatMin, "max": FloatMax, "floor": FloatFloor, "ceil": FloatCeil,
	"round": FloatRound, "sqrt": FloatSqrt}

// fprimary parses a parenthesized float, f32(...) or f64(...), or a call of floatCalls.
func (p *parser) fprimary() (Float, error) {
	if p.peek("(") {
		return p.floatCall(p.fsum)
	}
	j := p.i
	for j < len(p.s) && isNameByte(p.s[j]) {
		j++
	}
	name := p.s[p.i:j]
	p.i = j
	op, isCall := floatCalls[name]
	if !p.peek("(") || !isCall && name != "f32" && name != "f64" {
		return Float{}, p.errorf("want a float: f32(...), f64(...), min, max, floor, ceil, round, sqrt or (")
	}
	switch {
	case name == "f32" || name == "f64":
		return p.floatCall(func() (Float, error) { return p.converted(map[string]int{"f32": 32, "f64": 64}[name]) })
	case op == FloatMin || op == FloatMax:
		return p.floatCall(func() (Float, error) {
			x, err := p.fsum()
			if err != nil {
				return Float{}, err
			}
			if !p.peek(",") {
				return Float{}, p.errorf("%s takes two floats: want ,", name)
			}
			p.i++
			y, err := p.fsum()
			if err != nil {
				return Float{}, err
			}
			if f, ok := FloatBinary(op, x, y); ok {
				return f, nil
			}
			return Float{}, p.errorf("floats of different types, or larger than %d operations", maxFloatSize)
		})
	}
	return p.floatCall(func() (Float, error) {
		x, err := p.fsum()
		if err != nil {
			return Float{}, err
		}
		if f, ok := FloatUnary(op, x); ok {
			return f, nil
		}
		return Float{}, p.tooLarge()
	})
}

// converted parses what f32(...) or f64(...) converts: a decimal constant with a point or an
// exponent, a float, or an integer expression.
func (p *parser) converted(bits int) (Float, error) {
	p.space()
	j := p.i
	for j < len(p.s) && strings.IndexByte("0123456789.eE+-", p.s[j]) >= 0 {
		j++
	}
	if lit := p.s[p.i:j]; strings.ContainsAny(lit, ".eE") {
		if v, err := strconv.ParseFloat(lit, 64); err == nil {
			p.i = j
			if f, ok := FloatConst(v, bits); ok {
				return f, nil
			}
			return Float{}, p.errorf("%s is not finite in float%d", lit, bits)
		}
	}
	at, depth := p.i, p.depth
	if x, err := p.fsum(); err == nil && p.peek(")") {
		if f, ok := FloatCast(x, bits); ok {
			return f, nil
		}
	}
	p.i, p.depth = at, depth
	e, err := p.exprOf(p.sum)
	if err != nil {
		return Float{}, err
	}
	if f, ok := FloatOf(e, bits); ok {
		return f, nil
	}
	return Float{}, p.tooLarge()
}
