package graph

import (
	"math"
	"slices"
	"strings"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// onnxCore holds the rules of ONNX's shape operators, which also compute values: the subgraphs
// that compute Reshape patterns (Shape → Gather → Unsqueeze → Concat) run through them.
var onnxCore = table{"", []opDef{
	{"Identity", since(1, 13, 14, 16, 19, 21), fixed(1), fixed(1), reads(0), identity},
	{"Constant", since(1, 9, 11, 12, 13, 19, 21), fixed(0), fixed(1), 0, constant},
	{"Shape", since(1, 13, 15, 19, 21), fixed(1), fixed(1), 0, shapeOp},
	{"Size", since(1, 13, 19, 21), fixed(1), fixed(1), 0, size},
	{"Cast", since(1, 6, 9, 13, 19, 21), fixed(1), fixed(1), reads(0), cast},
	{"CastLike", since(15, 19, 21), fixed(2), fixed(1), reads(0), castLike},
	{"Reshape", since(1), fixed(1), fixed(1), reads(0), reshapeOp},
	{"Reshape", since(5, 13, 14, 19, 21), fixed(2), fixed(1), reads(0, 1), reshapeOp},
	{"Concat", since(1), span(1, many), fixed(1), allValues, concat1},
	{"Concat", since(4, 11, 13), span(1, many), fixed(1), allValues, onnxConcat},
	{"Gather", since(1, 11, 13), fixed(2), fixed(1), reads(0, 1), gather},
	{"Unsqueeze", since(1, 11), fixed(1), fixed(1), reads(0), unsqueeze},
	{"Unsqueeze", since(13, 21), fixed(2), fixed(1), reads(0, 1), unsqueeze},
	{"Squeeze", since(1, 11), fixed(1), fixed(1), reads(0), squeeze},
	{"Squeeze", since(13, 21), span(1, 2), fixed(1), reads(0, 1), squeeze},
	{"Flatten", since(1, 9, 11, 13, 21), fixed(1), fixed(1), reads(0), flatten},
	{"Transpose", since(1, 13, 21), fixed(1), fixed(1), reads(0), transpose},
	{"ConstantOfShape", since(9, 20, 21), fixed(1), fixed(1), reads(0), constantOfShape},
	{"Range", since(11), fixed(3), fixed(1), reads(0, 1, 2), rangeOp},
	{"Expand", since(8, 13), fixed(2), fixed(1), reads(0, 1), expand},
}}

// identity: Identity-1..21, the output is the input: a tensor, or from version 14 a sequence, from
// 16 an optional.
func identity(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	out := c.Out(0, in.Type, in.Shape)
	out.Value, out.Floats, out.fracs, out.Optional, out.elems, out.Seq, out.Map = in.Value, in.Floats, in.fracs, in.Optional, in.elems, in.Seq, in.Map
	return nil
}

// constant: Constant-1..21: value (a tensor), value_int(s), value_float(s), value_string(s).
func constant(c *ctx) error {
	if t, ok, err := c.Tensor("value"); err != nil || ok {
		if ok {
			info, err := c.ConstInfo(t)
			c.Set(0, info)
			return err
		}
		return err
	}
	if _, ok := c.n.Attr("value_int"); ok {
		n, err := c.Int("value_int", 0)
		c.Out(0, element.I64, sym.Shape{}).Value = []sym.Dim{sym.Const(n)}
		return err
	}
	if v, ok, err := c.Ints("value_ints"); err != nil || ok {
		if ok {
			out := c.Out(0, element.I64, sym.Ints(int64(len(v))))
			setValue(out, constDims(v))
		}
		return err
	}
	if _, ok := c.n.Attr("value_float"); ok {
		f, err := c.Float("value_float", 0)
		c.Out(0, element.F32, sym.Shape{}).Floats = []float64{f}
		return err
	}
	if v, ok, err := c.Floats("value_floats"); err != nil || ok {
		if ok {
			out := c.Out(0, element.F32, sym.Ints(int64(len(v))))
			if len(v) <= maxFloats {
				out.Floats = v
			}
		}
		return err
	}
	if _, ok := c.n.Attr("value_string"); ok {
		c.Out(0, element.String, sym.Shape{})
		return nil
	}
	if a, ok := c.n.Attr("value_strings"); ok {
		c.Out(0, element.String, sym.Ints(int64(len(a.Strings))))
		return nil
	}
	if _, ok := c.n.Attr("sparse_value"); ok {
		return nil // the dense shape of a sparse tensor is not read: unknown
	}
	return c.Errorf(errcode.ErrSyntax, "Constant has no value attribute")
}

// shapeOp: Shape-1..21, with start and end from Shape-15: the dims of the input, as values.
func shapeOp(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	rank, ok := in.Rank()
	if !ok {
		c.Out(0, element.I64, sym.ShapeOf(sym.Unknown()))
		return nil
	}
	start, err := c.Int("start", 0)
	if err != nil {
		return err
	}
	end, err := c.Int("end", int64(rank))
	if err != nil {
		return err
	}
	clamp := func(x int64) int {
		if x < 0 {
			x += int64(rank)
		}
		return int(min(max(x, 0), int64(rank)))
	}
	s, e := clamp(start), clamp(end)
	if e < s {
		e = s
	}
	dims := in.Shape.Dims[s:e]
	out := c.Out(0, element.I64, sym.Ints(int64(len(dims))))
	setValue(out, c.clone(dims))
	return nil
}

// size: Size-1..21, the number of elements, a scalar.
func size(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	out := c.Out(0, element.I64, sym.Shape{})
	if !in.Shape.RankDynamic {
		out.Value = []sym.Dim{product(in.Shape.Dims)}
	}
	return nil
}

// cast: Cast-1..21. Integer values stay when they fit the target type, an expression in the
// symbols where it fits, a condition of the node (fitInt: onnxruntime wraps a value around, and
// an integer that does not fit wraps so too); integers to a float type become Floats when static;
// floats to integers truncate toward zero.
func cast(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	to, err := c.Int("to", 0)
	if err != nil {
		return err
	}
	return castTo(c, in, elemTypeOf(to))
}

// castLike: CastLike-15..21, Cast to the element type of input 1.
func castLike(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	return castTo(c, ins[0], ins[1].Type)
}

// castTo sets output 0 to in cast to the element type t: values of integers, of float constants,
// and of floats computed from shapes (fracs.go), where the cast keeps them. The error is the
// solver's, for a value a float type cannot hold exactly at any binding. Strings of the model's
// data cast to another type must read as numbers, which onnxruntime checks as it runs (a run
// decides it: ctx.RunTime).
func castTo(c *ctx, in *Info, t element.Type) error {
	if in.Type == element.String && t != element.String && in.taint&taintData != 0 {
		c.RunTime("whether each string of input 0, values of the model's data, reads as a " + t.String())
	}
	out := c.Out(0, t, in.Shape)
	values := in.Value
	if in.fracs != nil && isIntegral(t) && t != element.Boolean {
		// Floats to integers truncate toward zero: exact values where they are, else the values as
		// the model computes them.
		if err := requireNeeds(c, *in.fracs, in.Type); err != nil {
			return err
		}
		values = make([]sym.Dim, len(*in.fracs))
		for i, f := range *in.fracs {
			values[i] = f.truncated()
		}
	}
	switch {
	case isIntegral(t) && values != nil:
		lo, hi := typeRange(t)
		v := make([]sym.Dim, len(values))
		for i, d := range values {
			dl, dh := d.Bounds()
			switch {
			case t == element.Boolean:
				x, exact := d.Expr()
				switch n, ok := d.Static(); {
				case ok:
					v[i] = sym.Const(min(abs64(n), 1))
				case dl > 0 || dh < 0:
					v[i] = sym.Const(1)
				case dl >= 0 && dh <= 1:
					v[i] = d // a boolean already: a condition (ctx.Cond), or its bounds
				case exact && d.Determined():
					v[i] = c.Cond(sym.Ne(x, sym.Int(0)))
				default:
					v[i] = sym.Interval(0, 1)
				}
			case dl >= lo && dh <= hi:
				v[i] = d
			case dl == dh && t != element.U64:
				v[i] = sym.Const(wrapInt(dl, t)) // as onnxruntime wraps it: 2^31+4 to int32 is -2^31+4
			case symbolicDim(d):
				// A dim in the model's symbols keeps its expression in the narrower type the model
				// computes its shapes in, where it fits that type: a condition.
				var err error
				if v[i], err = fitInt(c, d, t); err != nil {
					return err
				}
			default:
				v[i] = sym.Interval(lo, hi) // wraps around: any value of the type
			}
		}
		out.Value = v
	case isIntegral(t) && in.Floats != nil:
		v := make([]sym.Dim, len(in.Floats))
		lo, hi := typeRange(t)
		for i, f := range in.Floats {
			x := math.Trunc(f)
			if t == element.Boolean && f != 0 { // NaN too: any value but zero is true
				x = 1
			}
			if math.IsNaN(x) || x < float64(lo) || x > float64(hi) {
				return nil // out of range: undefined by ONNX
			}
			v[i] = sym.Const(int64(x))
		}
		setValue(out, v)
	case t.IsFloat() && in.Floats != nil:
		out.Floats = make([]float64, len(in.Floats))
		for i, f := range in.Floats {
			out.Floats[i] = roundFloat(f, t)
		}
	case t.IsFloat() && in.fracs != nil:
		var kept []bool
		if p, ok := significand(in.Type); ok {
			if q, ok := significand(t); ok && q >= p {
				kept = filledBool(len(*in.fracs)) // a wider type holds the values
			}
		}
		v := slices.Clone(*in.fracs)
		bits, _ := floatBits(t)
		for i, f := range v {
			v[i].fl, _ = sym.FloatCast(f.fl, bits)
		}
		setFracs(out, v, kept, true)
	case t.IsFloat() && in.Value != nil:
		f := make([]float64, len(in.Value))
		v := make([]frac, len(in.Value))
		static := len(in.Value) <= maxFloats
		for i, d := range in.Value {
			n, ok := d.Static()
			static = static && ok
			f[i] = roundFloat(float64(n), t)
			if v[i], ok = intFrac(d, t); !ok {
				return nil
			}
		}
		if static {
			out.Floats = f
			return nil
		}
		setFracs(out, v, nil, true)
	}
	return nil
}

// symbolicDim reports whether d is an expression in the model's symbols that cannot be negative:
// a dim, or a product of dims.
func symbolicDim(d sym.Dim) bool {
	lo, _ := d.Bounds()
	return lo >= 0 && d.Determined()
}

// reshapeOp: Reshape-1 (shape attribute), -5, -13 (shape input), -14, -19, -21 (allowzero), with
// the rules of package reshape in its onnx dialect, over symbolic dims; its options are read by
// readONNXReshape, as Result.Reshape reads them (an allowzero before Reshape-14, or other than 0 or
// 1, is an error wrapping errcode.ErrSyntax).
func reshapeOp(c *ctx) error {
	data, err := c.Input(0)
	if err != nil {
		return err
	}
	opt, version, attr, err := readONNXReshape(c.n)
	if err != nil {
		return err
	}
	opt.MaxRank = c.MaxRank()
	var values []sym.Dim
	var ps shape.Shape
	if version == 1 {
		values, ps = constDims(attr), shape.OfInts(int64(len(attr)))
	} else {
		p, err := c.Input(1)
		if err != nil {
			return err
		}
		values, ps = p.Value, p.Shape.Partial()
		if p.Type != element.Undefined {
			opt.PatternType = p.Type
		}
	}
	out, err := reshape.InferSymbolic(data.Shape, ps, values, opt)
	if err != nil {
		return err
	}
	z, err := copyZeros(c, data.Shape, ps, values, out, opt)
	if err != nil {
		return err
	}
	if z.copies != nil {
		err = requireCopyVolume(c, data.Shape, ps, values, out, z, opt)
	} else {
		err = requireVolume(c, data.Shape, z.out, z.values)
	}
	if err != nil {
		return err
	}
	info := c.Out(0, data.Type, z.out)
	keepValues(info, data)
	return nil
}

// zeroCopies is what copyZeros makes of a Reshape's pattern: the values, with the expression
// zeroOr at each index of copies, the indices whose value may be 0 where that copies the
// input's dim and the copy may run; sets, the subsets of copies (bit k for copies[k]) that may be
// 0 together where the Reshape runs; and the output InferSymbolic gives with them.
type zeroCopies struct {
	values []sym.Dim
	out    sym.Shape
	copies []int
	sets   []uint
}

// maxCopies is the most values of one pattern whose copies copyZeros weighs case by case (2^n
// cases); past it each is stated not 0.
const maxCopies = 3

// copyZeros gives each computed value of a pattern that may be 0, where a 0 copies the input's
// dim at its index (allowzero 0), what onnxruntime makes of it (values and out are the pattern's
// and the output InferSymbolic gives with them). torch's view writes [N,H//3,3,W] from Shape,
// Gather and Div: at H < 3 its pattern[1] is 0 and copies H (bench/truth zero_copy, probed with
// onnxruntime-node 1.20.1).
//   - Where the conditions recorded so far make the value at least 1, or the input's dim 0 where
//     it is 0, the value is the output dim: nothing to do.
//   - Past the input's rank (or of an input of unknown rank) onnxruntime refuses a 0 ("The
//     dimension with value zero exceeds the dimension size of the input tensor"): the value is
//     stated at least 1.
//   - Of the others (up to maxCopies of one pattern), each set that may be 0 together is weighed:
//     where the copies of a set never give a valid reshape ([N,H,W] to [N,H//3,3,W] at H < 3 is
//     [N,H,3,W]: 3 times the input's volume), it is left out. A value in no set left is stated at
//     least 1, or the input's dim 0; one that may be negative too.
//   - Each value of a set left becomes zeroOr(x, y), x where x >= 1 and the input's dim y where x
//     is 0, and its index a copy, whose volume the caller states case by case: Swin's window
//     reverse [-1,H//7,W//7,7,7,C] and [N,C,H//2,W//2,-1] run at H < 2 (bench/truth
//     zero_copies).
func copyZeros(c *ctx, in sym.Shape, ps shape.Shape, values []sym.Dim, out sym.Shape, opt reshape.Options) (zeroCopies, error) {
	z := zeroCopies{values: values, out: out}
	if !opt.CopiesZeros() {
		return z, nil
	}
	var cand []int // the indices whose value may copy a dim that is not 0
	for i, v := range values {
		if _, ok := v.Static(); ok {
			continue
		}
		lo, hi := v.Bounds()
		x, ok := v.Expr()
		if lo > 0 || hi < 0 || !ok {
			continue
		}
		if in.RankDynamic || i >= len(in.Dims) {
			if err := c.Require(sym.Ge(x, sym.Int(1)), "pattern["+itoa(i)+"] = "+v.String()+" not 0: past the input's rank onnxruntime refuses a 0"); err != nil {
				return z, err
			}
			continue
		}
		y, ok := in.Dims[i].Expr()
		switch {
		case !ok || v.Equal(in.Dims[i]):
		case c.When(notCopy(x, y)).IsTrue() || lo < 0:
			// Stated again, the node joins those that impose it.
			if err := requireNotCopy(c, values[i], in.Dims[i], i); err != nil {
				return z, err
			}
		default:
			cand = append(cand, i)
		}
	}
	var used uint
	if len(cand) <= maxCopies {
		for set := uint(1); set < 1<<len(cand); set++ {
			if copyRuns(c, in, ps, values, out, cand, set, opt) {
				z.sets = append(z.sets, set)
				used |= set
			}
		}
	}
	for k, i := range cand {
		if used&(1<<k) == 0 {
			if err := requireNotCopy(c, values[i], in.Dims[i], i); err != nil {
				return z, err
			}
			continue
		}
		if z.copies == nil {
			z.values = slices.Clone(values)
		}
		x, _ := values[i].Expr()
		y, _ := in.Dims[i].Expr()
		z.values[i] = zeroOr(x, y) // an interval the engine records as lost where it is too long
		z.copies = append(z.copies, i)
	}
	if z.copies == nil {
		return z, nil
	}
	// The sets over the indices of z.copies, those of cand whose copies may run.
	for n, set := range z.sets {
		var s uint
		for k, j := 0, 0; k < len(cand); k++ {
			if used&(1<<k) == 0 {
				continue
			}
			if set&(1<<k) != 0 {
				s |= 1 << j
			}
			j++
		}
		z.sets[n] = s
	}
	var err error
	z.out, err = reshape.InferSymbolic(in, ps, z.values, opt)
	return z, err
}

// requireNotCopy requires v >= 1 || d == 0 of the value v at pattern[i], whose 0 copies the input's
// dim d.
func requireNotCopy(c *ctx, v, d sym.Dim, i int) error {
	x, _ := v.Expr()
	y, _ := d.Expr()
	return c.Require(notCopy(x, y), "pattern["+itoa(i)+"] = "+v.String()+" not 0, which copies the input's dim")
}

// notCopy returns x >= 1 || y == 0: a pattern value x is the output dim, where a 0 copies the
// input's dim y.
func notCopy(x, y sym.Expr) sym.Pred { return sym.Or(sym.Ge(x, sym.Int(1)), sym.Eq(y, sym.Int(0))) }

// copyRuns reports whether a Reshape of in by values, whose output is out, may run where the
// values at the indices of idx in set (bit k for idx[k]) are 0 and copy the input's dims, which
// are not 0, and the others of idx are the output dims (at least 1, or 0 where the input's dim
// is 0, which a 0 copies alike): whether the conditions recorded so far leave a
// binding where it is so and the volume of the copies holds, as far as Never proves.
func copyRuns(c *ctx, in sym.Shape, ps shape.Shape, values []sym.Dim, out sym.Shape, idx []int, set uint, opt reshape.Options) bool {
	w, o, ok := copyOf(in, ps, values, out, idx, set, opt)
	if !ok {
		return false
	}
	p, _, _ := volumeCond(in, o, w)
	ps2 := []sym.Pred{p}
	minus := hasMinus(values)
	for k, i := range idx {
		x, _ := values[i].Expr()
		y, _ := in.Dims[i].Expr()
		if set&(1<<k) == 0 {
			ps2 = append(ps2, outputDim(x, y, minus))
			continue
		}
		ps2 = append(ps2, sym.Eq(x, sym.Int(0)), sym.Ne(y, sym.Int(0)))
	}
	q := sym.And(ps2...)
	// Never proves too little of several copies together: Swin's partition [B,H//8,2,W//8,2,16]
	// of [B,H//4,W//4,16] copies 16 at W < 8, which needs W//4 == 64. A set of copies that runs
	// at none of Witness's small bindings is stated not 0, which may be more than onnxruntime
	// needs past them.
	return !c.Never(q) && (len(idx) == 1 || c.Witness(q))
}

// copyOf returns the pattern values and the output of a Reshape of in by values, whose output
// is out, where the values at the indices of idx in set (bit k for idx[k]) are 0 and copy the
// input's dims. Without a -1 that output is out with the input's dims there: InferSymbolic would
// cancel the dims that may be 0 of both sides, where the copy runs on an empty input. ok is false
// where the copy cannot run.
func copyOf(in sym.Shape, ps shape.Shape, values []sym.Dim, out sym.Shape, idx []int, set uint, opt reshape.Options) ([]sym.Dim, sym.Shape, bool) {
	w := slices.Clone(values)
	o := sym.ShapeOf(slices.Clone(out.Dims)...)
	for k, i := range idx {
		if set&(1<<k) != 0 {
			w[i], o.Dims[i] = in.Dims[i], in.Dims[i]
		}
	}
	if hasMinus(values) {
		o, err := reshape.InferSymbolic(in, ps, w, opt)
		return w, o, err == nil
	}
	return w, o, true
}

// requireCopyVolume requires the volume of a Reshape of in by values, whose output is out, where
// the values at z.copies may be 0 and copy the input's dims where they are: case by case, the
// volume with each value where all are at least 1, or with the copies of a set of z.sets where
// those are 0 and the others at least 1 (Ha0 <= 2 || Ha0*Wa0 % (Ha0//3) == 0 of a pattern
// [N,H//3,-1]), which reads better than the volume with zeroOr's expressions.
func requireCopyVolume(c *ctx, in sym.Shape, ps shape.Shape, values []sym.Dim, out sym.Shape, z zeroCopies, opt reshape.Options) error {
	p1, why, _ := volumeCond(in, out, values)
	cases := []sym.Pred{sym.And(append(copyCase(values, in, z.copies, 0), p1)...)}
	for _, set := range z.sets {
		w, o, _ := copyOf(in, ps, values, out, z.copies, set, opt)
		p0, why0, _ := volumeCond(in, o, w)
		if why == "" {
			why = why0
		}
		cases = append(cases, sym.And(append(copyCase(values, in, z.copies, set), p0)...))
	}
	p := sym.Or(cases...)
	if p.IsTrue() || why == "" {
		return nil
	}
	where := make([]string, len(z.copies))
	for k, i := range z.copies {
		where[k] = "pattern[" + itoa(i) + "] = " + values[i].String()
	}
	return c.Require(p, why+", where "+strings.Join(where, " or ")+" is 0 the input's dim")
}

// copyCase returns the case of the values at the indices of idx in set (bit k for idx[k]) 0, and
// the others the output dims (outputDim).
func copyCase(values []sym.Dim, in sym.Shape, idx []int, set uint) []sym.Pred {
	ps := make([]sym.Pred, len(idx))
	minus := hasMinus(values)
	for k, i := range idx {
		x, _ := values[i].Expr()
		if set&(1<<k) != 0 {
			ps[k] = sym.Eq(x, sym.Int(0))
		} else {
			y, _ := in.Dims[i].Expr()
			ps[k] = outputDim(x, y, minus)
		}
	}
	return ps
}

// outputDim returns where a pattern value x, whose 0 copies the input's dim y, is the output dim:
// x >= 1, or x == 0 where y is 0 too and the pattern has no -1 (minus). The copy of an empty
// input's 0 runs: r3_0182's [N,(H+1)//4,B,4] to [N,(H+1)//8,2,B//2,2,4] runs at H < 3 with
// pattern[3] = B//2 copying 4. Beside a -1 onnxruntime refuses an output dim 0 ("size != 0";
// probed with onnxruntime-node 1.20.1: [2,0,4] to [0,0,-1] is refused, to [0,-1,0] runs).
func outputDim(x, y sym.Expr, minus bool) sym.Pred {
	if minus {
		return sym.Ge(x, sym.Int(1))
	}
	return notCopy(x, y)
}

// hasMinus reports whether a pattern's values hold a -1.
func hasMinus(values []sym.Dim) bool {
	return slices.ContainsFunc(values, func(d sym.Dim) bool { n, ok := d.Static(); return ok && n == -1 })
}

// zeroOr returns x + y*(1-min(x,1)): of x and y at least 0, x where x is at least 1 and y where
// x is 0; unknown where the expression would pass sym's size bound.
func zeroOr(x, y sym.Expr) sym.Dim {
	m, ok1 := sym.Min(x, sym.Int(1))
	z, ok2 := sym.Sub(sym.Int(1), m)
	yz, ok3 := sym.Mul(y, z)
	e, ok4 := sym.Add(x, yz)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return sym.Unknown()
	}
	return sym.Of(e)
}

// gather: Gather-1..13: data[:axis] + indices + data[axis+1:]; values when the indices are known.
func gather(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	data, idx := ins[0], ins[1]
	axis, err := c.Int("axis", 0)
	if err != nil {
		return err
	}
	r, ok, err := c.RequireRank(data, 0, 1, -1)
	if err != nil || !ok || idx.Shape.RankDynamic {
		c.Out(0, data.Type, sym.DynamicRank())
		return err
	}
	a, err := c.NormAxis(axis, r)
	if err != nil {
		return err
	}
	dims := append(append(append([]sym.Dim{}, data.Shape.Dims[:a]...), idx.Shape.Dims...), data.Shape.Dims[a+1:]...)
	if err := gatherIndices(c, idx, data.Shape.Dims[a], a, false); err != nil {
		return err
	}
	gatherValues(c, c.Out(0, data.Type, sym.ShapeOf(dims...)), data, idx, a, 0)
	return nil
}

// unsqueeze: Unsqueeze-1, -11 (axes attribute), -13, -21 (axes input): size-1 dims inserted at the
// axes of the output; values unchanged.
func unsqueeze(c *ctx) error {
	axes, given, known, err := c.IntsArg("axes", 1, 13)
	if err != nil {
		return err
	}
	if !given {
		return c.Errorf(errcode.ErrSyntax, "Unsqueeze has no axes")
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if !known {
		c.Out(0, in.Type, sym.DynamicRank())
		return nil
	}
	outRank := r + len(axes)
	ax, err := c.NormAxes(axes, outRank)
	if err != nil {
		return err
	}
	dims := c.dims(outRank)
	isNew := make([]bool, outRank)
	for _, a := range ax {
		isNew[a] = true
	}
	k := 0
	for i := range dims {
		if isNew[i] {
			dims[i] = sym.Const(1)
			continue
		}
		dims[i] = in.Shape.Dims[k]
		k++
	}
	keepValues(c.Out(0, in.Type, sym.ShapeOf(dims...)), in)
	return nil
}

// squeeze: Squeeze-1, -11 (axes attribute), -13, -21 (axes input): the size-1 dims at axes, or
// every size-1 dim when there are none (squeezeOnes), removed; values unchanged.
func squeeze(c *ctx) error {
	axes, given, known, err := c.IntsArg("axes", 1, 13)
	if err != nil {
		return err
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	switch {
	case given && !known:
		c.Out(0, in.Type, sym.DynamicRank())
		return nil
	case !given:
		squeezeOnes(c, in)
		return nil
	}
	ax, err := c.NormAxes(axes, r)
	if err != nil {
		return err
	}
	drop := make([]bool, r)
	for _, a := range ax {
		d := in.Shape.Dims[a]
		if lo, hi := d.Bounds(); lo > 1 || hi < 1 {
			return c.Errorf(errcode.ErrInvalidShape, "axis %d has size %v, not 1", a, d)
		}
		if _, err := c.Unify(d, sym.Const(1), "axis "+itoa(a)+" squeezed, of size 1"); err != nil {
			return err
		}
		drop[a] = true
	}
	var dims []sym.Dim
	for i, d := range in.Shape.Dims {
		if !drop[i] {
			dims = append(dims, d)
		}
	}
	keepValues(c.Out(0, in.Type, sym.ShapeOf(dims...)), in)
	return nil
}

// flatten: Flatten-1..21: [product of dims before axis, product of the rest].
func flatten(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	axis, err := c.Int("axis", 1)
	if err != nil {
		return err
	}
	r, ok := in.Rank()
	if !ok {
		c.Out(0, in.Type, sym.ShapeOf(sym.Unknown(), sym.Unknown()))
		return nil
	}
	if axis < -int64(r) || axis > int64(r) {
		return c.Errorf(errcode.ErrInvalidShape, "axis %d is out of range for rank %d", axis, r)
	}
	if axis < 0 {
		axis += int64(r)
	}
	least := int64(1) // the smallest the product of all dims can be
	for i, d := range in.Shape.Dims {
		lo, _ := d.Bounds()
		var ok bool
		if least, ok = shape.Mul(least, max(lo, 0)); !ok {
			return c.Errorf(errcode.ErrOverflow, "the product of dims 0 to %d of %v overflows int64", i, in.Shape)
		}
	}
	out := c.Out(0, in.Type, sym.ShapeOf(product(in.Shape.Dims[:axis]), product(in.Shape.Dims[axis:])))
	keepValues(out, in)
	return nil
}

// transpose: Transpose-1..21: the dims permuted by perm (reversed by default); values permuted.
func transpose(c *ctx) error {
	in, _, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	perm, given, err := c.Ints("perm")
	if err != nil {
		return err
	}
	if !given {
		perm = nil
	}
	return transposeBy(c, in, perm)
}

// constantOfShape: ConstantOfShape-9..21: the shape is input 0's values (shapeFromValue: one that
// may be negative is a condition of the node, as onnxruntime 1.20.1 refuses it, beside a 0 as well);
// the value attribute (a one-element tensor, float 0 by default) gives type and value.
func constantOfShape(c *ctx) error {
	if _, err := c.Input(0); err != nil {
		return err
	}
	t := element.F32
	var fill []int64
	if v, ok, err := c.Tensor("value"); err != nil {
		return err
	} else if ok {
		t = v.Type
		if isIntegral(t) && v.Load != nil {
			fill, _, _ = v.Load(1)
		}
	}
	dims, err := shapeFromValue(c, 0)
	if err != nil {
		return err
	}
	out := c.Out(0, t, dims)
	if len(fill) == 1 {
		// Every element is the fill, whatever the count: a split of ones (torch's
		// repeat_interleave) splits into pieces of 1.
		out.elems = &[2]sym.Dim{sym.Const(fill[0]), sym.Const(fill[0])}
		if n, ok := out.Volume(); ok && n <= MaxValue {
			v := make([]sym.Dim, n)
			for i := range v {
				v[i] = sym.Const(fill[0])
			}
			out.Value = v
		}
	}
	return nil
}

// rangeOp: Range-11..21: max(ceil((limit-start)/delta), 0) elements, a delta that may be 0
// required not to be (onnxruntime refuses 0); values when all three are known integers, and
// their bounds (Info.elems) when delta is: 0 to T-1 for Range(0, T, 1).
func rangeOp(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	return rangeOf(c, ins[0], ins[1], ins[2])
}

// rangeOf infers a Range of the scalars start, limit and delta.
func rangeOf(c *ctx, start, limit, delta *Info) error {
	t := start.Type
	get := func(in *Info) (sym.Dim, bool) {
		if len(in.Value) == 1 {
			return in.Value[0], true
		}
		if len(in.Floats) == 1 && in.Floats[0] == math.Trunc(in.Floats[0]) && math.Abs(in.Floats[0]) < 1<<53 {
			return sym.Const(int64(in.Floats[0])), true
		}
		return sym.Dim{}, false
	}
	from, ok1 := get(start)
	to, ok2 := get(limit)
	step, ok3 := get(delta)
	if !ok1 || !ok2 || !ok3 {
		c.Out(0, t, sym.ShapeOf(sym.Unknown()))
		return nil
	}
	step, err := divisor(c, step, "delta")
	if err != nil {
		return err
	}
	n := sym.MaxDims(sym.CeilDivDims(sym.SubDims(to, from), step), sym.Const(0))
	out := c.Out(0, t, sym.ShapeOf(n))
	s, sok := from.Static()
	d, dok := step.Static()
	if cnt, ok := n.Static(); ok && sok && dok && cnt <= MaxValue && isIntegral(t) {
		v := make([]sym.Dim, cnt)
		for i := range v {
			v[i] = sym.Const(s + int64(i)*d)
		}
		out.Value = v
		return nil
	}
	if dok && isIntegral(t) {
		// The elements start, start+delta, ..., start+(n-1)*delta.
		last := sym.AddDims(from, sym.MulDims(sym.SubDims(n, sym.Const(1)), step))
		out.elems = &[2]sym.Dim{from, last}
		if d < 0 {
			out.elems = &[2]sym.Dim{last, from}
		}
	}
	return nil
}

// expand: Expand-8, -13: the broadcast of the input's shape and the shape input 1 holds
// (expandTo). onnxruntime 1.20.1 refuses a negative value of the shape, where the input's dim is
// 1 ("Tensor shape.Size() must be >= 0") as where it is not (the dims do not broadcast): a value
// that may be negative is a condition of the node (shapeFromValue).
func expand(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	return expandTo(c, ins[0])
}
