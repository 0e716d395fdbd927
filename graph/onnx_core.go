package graph

import (
	"math"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// The rules of ONNX's shape operators, which also compute values: the subgraphs that compute
// Reshape patterns (Shape → Gather → Unsqueeze → Concat) run through them.
func init() {
	register("", singleOutput(map[string]Rule{
		"Identity":        identity,
		"Constant":        constant,
		"Shape":           shapeOp,
		"Size":            size,
		"Cast":            cast,
		"CastLike":        castLike,
		"Reshape":         reshapeOp,
		"Concat":          concat,
		"Gather":          gather,
		"Unsqueeze":       unsqueeze,
		"Squeeze":         squeeze,
		"Flatten":         flatten,
		"Transpose":       transpose,
		"ConstantOfShape": constantOfShape,
		"Range":           rangeOp,
		"Expand":          expand,
	}))
}

// singleOutput returns the rules of operators that have one output, each first refusing a node
// that names more (errcode.ErrSyntax).
func singleOutput(rs map[string]Rule) map[string]Rule {
	for op, r := range rs {
		rs[op] = func(c *Ctx) error {
			if err := c.CheckOutputs(1); err != nil {
				return err
			}
			return r(c)
		}
	}
	return rs
}

// identity: Identity-1..21, the output is the input.
func identity(c *Ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	c.Set(0, &Info{Type: in.Type, Shape: in.Shape, Value: in.Value, Floats: in.Floats})
	return nil
}

// constant: Constant-1..21: value (a tensor), value_int(s), value_float(s), value_string(s).
func constant(c *Ctx) error {
	if t, ok, err := c.Tensor("value"); err != nil || ok {
		if ok {
			info, err := constInfo(t)
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
		c.Out(0, element.Undefined, sym.Shape{})
		return nil
	}
	if a, ok := c.n.Attr("value_strings"); ok {
		c.Out(0, element.Undefined, sym.Ints(int64(len(a.Strings))))
		return nil
	}
	if _, ok := c.n.Attr("sparse_value"); ok {
		return nil // the dense shape of a sparse tensor is not read: unknown
	}
	return c.Errorf(errcode.ErrSyntax, "Constant has no value attribute")
}

func constDims(v []int64) []sym.Dim {
	out := make([]sym.Dim, len(v))
	for i, x := range v {
		out[i] = sym.Const(x)
	}
	return out
}

// shapeOp: Shape-1..21, with start and end from Shape-15: the dims of the input, as values.
func shapeOp(c *Ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	rank, ok := in.Rank()
	if !ok {
		c.Out(0, element.I64, sym.ShapeOf(sym.Unknown))
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
	setValue(out, append([]sym.Dim(nil), dims...))
	return nil
}

// size: Size-1..21, the number of elements, a scalar.
func size(c *Ctx) error {
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

// cast: Cast-1..21. Integer values stay when they fit the target type; integers to a float type
// become Floats when static; floats to integers truncate toward zero.
func cast(c *Ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	to, err := c.Int("to", 0)
	if err != nil {
		return err
	}
	castTo(c, in, elemTypeOf(to))
	return nil
}

// castLike: CastLike-15..21, Cast to the element type of input 1.
func castLike(c *Ctx) error {
	ins, err := c.Inputs(2, 2)
	if err != nil {
		return err
	}
	castTo(c, ins[0], ins[1].Type)
	return nil
}

func castTo(c *Ctx, in *Info, t element.Type) {
	out := c.Out(0, t, in.Shape)
	switch {
	case isIntegral(t) && in.Value != nil:
		lo, hi := typeRange(t)
		v := make([]sym.Dim, len(in.Value))
		for i, d := range in.Value {
			dl, dh := d.Bounds()
			switch {
			case t == element.Boolean:
				if n, ok := d.Static(); ok {
					v[i] = sym.Const(min(abs64(n), 1))
				} else if dl > 0 || dh < 0 {
					v[i] = sym.Const(1)
				} else {
					v[i] = sym.Interval(0, 1)
				}
			case dl >= lo && dh <= hi:
				v[i] = d
			case symbolicDim(d):
				// A dim in the model's symbols keeps its expression in the narrower type the model
				// computes its shapes in: its dims fit that type.
				v[i], _ = d.Narrow(lo, hi)
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
			if math.IsNaN(x) || x < float64(lo) || x > float64(hi) {
				return // out of range: undefined by ONNX
			}
			v[i] = sym.Const(int64(x))
		}
		setValue(out, v)
	case t.IsFloat() && in.Floats != nil:
		out.Floats = in.Floats
	case t.IsFloat() && in.Value != nil && len(in.Value) <= maxFloats:
		f := make([]float64, len(in.Value))
		for i, d := range in.Value {
			n, ok := d.Static()
			if !ok {
				return
			}
			f[i] = float64(n)
		}
		out.Floats = f
	}
}

// symbolicDim reports whether d is an expression in the model's symbols that cannot be negative:
// a dim, or a product of dims.
func symbolicDim(d sym.Dim) bool {
	lo, _ := d.Bounds()
	return lo >= 0 && d.Determined()
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// typeRange returns the range of an integer type.
func typeRange(t element.Type) (lo, hi int64) {
	switch t {
	case element.Boolean:
		return 0, 1
	case element.U64:
		return 0, math.MaxInt64
	case element.I64:
		return math.MinInt64, math.MaxInt64
	}
	bits := t.Bits()
	if t.IsSigned() {
		return -1 << (bits - 1), 1<<(bits-1) - 1
	}
	return 0, 1<<bits - 1
}

// reshapeOp: Reshape-1 (shape attribute), -5, -13 (shape input), -14, -19, -21 (allowzero), with
// the rules of package reshape in its onnx dialect, over symbolic dims.
func reshapeOp(c *Ctx) error {
	data, err := c.Input(0)
	if err != nil {
		return err
	}
	opt := reshape.Options{Dialect: reshape.ONNX, SpecialZero: true}
	if c.Version() >= 14 {
		az, err := c.Int("allowzero", 0)
		if err != nil {
			return err
		}
		opt.SpecialZero = az == 0
	}
	var values []sym.Dim
	var ps shape.Shape
	if c.Version() < 5 {
		v, ok, err := c.Ints("shape")
		if err != nil {
			return err
		}
		if !ok {
			return c.Errorf(errcode.ErrSyntax, "Reshape-1 has no shape attribute")
		}
		values, ps = constDims(v), shape.OfInts(int64(len(v)))
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
	info := c.Out(0, data.Type, out)
	setValue(info, data.Value)
	return nil
}

// concat: Concat-1..13 along axis: the other dims unify, the axis dim is the sum; values
// concatenate.
func concat(c *Ctx) error {
	if c.NumIn() == 0 {
		return c.Errorf(errcode.ErrSyntax, "Concat has no inputs")
	}
	ins, err := c.Inputs(c.NumIn(), -1)
	if err != nil {
		return err
	}
	axis, err := c.Int("axis", 0)
	if err != nil {
		return err
	}
	rank := -1
	for _, in := range ins {
		if r, ok := in.Rank(); ok {
			if rank >= 0 && r != rank {
				return c.Errorf(errcode.ErrInvalidShape, "inputs of ranks %d and %d", rank, r)
			}
			rank = r
		}
	}
	if rank < 0 {
		c.Out(0, ins[0].Type, sym.DynamicRank())
		return nil
	}
	a, err := c.NormAxis(axis, rank)
	if err != nil {
		return err
	}
	var dims []sym.Dim
	sum := sym.Const(0)
	least := int64(0) // the smallest the sum can be
	for k, in := range ins {
		if in.Shape.RankDynamic {
			sum = sym.Unknown
			continue
		}
		lo, _ := in.Shape.Dims[a].Bounds()
		if least += max(lo, 0); least < 0 {
			return c.Errorf(errcode.ErrOverflow, "input %d: the dims along axis %d add up past int64", k, a)
		}
		if dims == nil {
			dims = append([]sym.Dim(nil), in.Shape.Dims...)
			sum = in.Shape.Dims[a]
			continue
		}
		for i, d := range in.Shape.Dims {
			if i == a {
				sum = sym.AddDims(sum, d)
				continue
			}
			u, err := c.Unify(dims[i], d, "input "+itoa(k)+" dim "+itoa(i))
			if err != nil {
				return err
			}
			dims[i] = u
		}
	}
	dims[a] = sum
	out := c.Out(0, ins[0].Type, sym.ShapeOf(dims...))
	concatValues(out, ins, a)
	return nil
}

// concatValues concatenates the values of static inputs along axis a.
func concatValues(out *Info, ins []*Info, a int) {
	type part struct {
		dims []int64
		v    []sym.Dim
	}
	parts := make([]part, len(ins))
	for k, in := range ins {
		dims, v, ok := values(in)
		if !ok {
			return
		}
		parts[k] = part{dims, v}
	}
	outer := 1
	for _, d := range parts[0].dims[:a] {
		outer *= int(d)
	}
	var v []sym.Dim
	for o := range outer {
		for _, p := range parts {
			inner := 1
			for _, d := range p.dims[a:] {
				inner *= int(d)
			}
			v = append(v, p.v[o*inner:(o+1)*inner]...)
		}
	}
	setValue(out, v)
}

// gather: Gather-1..13: data[:axis] + indices + data[axis+1:]; values when the indices are known.
func gather(c *Ctx) error {
	ins, err := c.Inputs(2, 2)
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
	out := c.Out(0, data.Type, sym.ShapeOf(dims...))
	return gatherValues(c, out, data, idx, a, 0, false)
}

// gatherValues sets the values of out, the Gather of data by the indices idx along axis a with b
// batch dims, when both are known: a negative index counts from the end of the axis; an index out
// of range gives 0 with zeros (OpenVINO's Gather-8) and is otherwise an error wrapping
// errcode.ErrInvalidShape.
func gatherValues(c *Ctx, out, data, idx *Info, a, b int, zeros bool) error {
	dd, dv, ok1 := values(data)
	id, iv, ok2 := values(idx)
	if n, ok := out.Volume(); !ok1 || !ok2 || !ok || n > MaxValue {
		return nil
	}
	ints := make([]int64, len(iv))
	for i, d := range iv {
		n, ok := d.Static()
		if !ok {
			return nil
		}
		switch {
		case n >= -dd[a] && n < 0:
			n += dd[a]
		case n >= 0 && n < dd[a]:
		case zeros:
			n = -1
		default:
			return c.Errorf(errcode.ErrInvalidShape, "index %d (element %d of the indices) is out of range for axis %d of size %d", n, i, a, dd[a])
		}
		ints[i] = n
	}
	batches, outer, inner, per := 1, 1, 1, 1
	for _, d := range dd[:b] {
		batches *= int(d)
	}
	for _, d := range dd[b:a] {
		outer *= int(d)
	}
	for _, d := range dd[a+1:] {
		inner *= int(d)
	}
	for _, d := range id[b:] {
		per *= int(d)
	}
	v := make([]sym.Dim, 0, batches*outer*per*inner)
	for bi := range batches {
		for o := range outer {
			for _, k := range ints[bi*per : (bi+1)*per] {
				if k < 0 {
					for range inner {
						v = append(v, sym.Const(0))
					}
					continue
				}
				base := ((bi*outer+o)*int(dd[a]) + int(k)) * inner
				v = append(v, dv[base:base+inner]...)
			}
		}
	}
	setValue(out, v)
	return nil
}

// unsqueeze: Unsqueeze-1, -11 (axes attribute), -13, -21 (axes input): size-1 dims inserted at the
// axes of the output; values unchanged.
func unsqueeze(c *Ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	axes, given, known, err := c.IntsArg("axes", 1, 13)
	if err != nil {
		return err
	}
	if !given {
		return c.Errorf(errcode.ErrSyntax, "Unsqueeze has no axes")
	}
	r, ok := in.Rank()
	if !ok || !known {
		c.Out(0, in.Type, sym.DynamicRank())
		return nil
	}
	outRank := r + len(axes)
	ax, err := c.NormAxes(axes, outRank)
	if err != nil {
		return err
	}
	dims := make([]sym.Dim, outRank)
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
	setValue(c.Out(0, in.Type, sym.ShapeOf(dims...)), in.Value)
	return nil
}

// squeeze: Squeeze-1, -11 (axes attribute), -13, -21 (axes input): the size-1 dims at axes, or
// every size-1 dim when there are none, removed; values unchanged.
func squeeze(c *Ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	axes, given, known, err := c.IntsArg("axes", 1, 13)
	if err != nil {
		return err
	}
	r, ok := in.Rank()
	if !ok || given && !known {
		c.Out(0, in.Type, sym.DynamicRank())
		return nil
	}
	drop := make([]bool, r)
	if given {
		ax, err := c.NormAxes(axes, r)
		if err != nil {
			return err
		}
		for _, a := range ax {
			d := in.Shape.Dims[a]
			if lo, hi := d.Bounds(); lo > 1 || hi < 1 {
				return c.Errorf(errcode.ErrInvalidShape, "axis %d has size %v, not 1", a, d)
			}
			drop[a] = true
		}
	} else {
		for i, d := range in.Shape.Dims {
			if isOne(d) {
				drop[i] = true
			} else if maybeOne(d) {
				c.Out(0, in.Type, sym.DynamicRank()) // which dims go is known at run time only
				return nil
			}
		}
	}
	var dims []sym.Dim
	for i, d := range in.Shape.Dims {
		if !drop[i] {
			dims = append(dims, d)
		}
	}
	setValue(c.Out(0, in.Type, sym.ShapeOf(dims...)), in.Value)
	return nil
}

// flatten: Flatten-1..21: [product of dims before axis, product of the rest].
func flatten(c *Ctx) error {
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
		c.Out(0, in.Type, sym.ShapeOf(sym.Unknown, sym.Unknown))
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
	setValue(out, in.Value)
	return nil
}

// transpose: Transpose-1..21: the dims permuted by perm (reversed by default); values permuted.
func transpose(c *Ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, ok := in.Rank(); !ok {
		c.Out(0, in.Type, sym.DynamicRank())
		return nil
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

// transposeBy sets output 0 to in, of known rank, with its dims permuted by perm (reversed when
// perm is nil), and its values permuted. A perm that is not a permutation of the axes is an error
// wrapping errcode.ErrInvalidShape.
func transposeBy(c *Ctx, in *Info, perm []int64) error {
	r := len(in.Shape.Dims)
	if perm == nil {
		perm = make([]int64, r)
		for i := range perm {
			perm[i] = int64(r - 1 - i)
		}
	}
	if len(perm) != r {
		return c.Errorf(errcode.ErrInvalidShape, "perm %v has %d axes, the input has rank %d", perm, len(perm), r)
	}
	p, err := c.NormAxes(perm, r)
	if err != nil {
		return err
	}
	dims := make([]sym.Dim, r)
	for i, a := range p {
		dims[i] = in.Shape.Dims[a]
	}
	out := c.Out(0, in.Type, sym.ShapeOf(dims...))
	if sd, v, ok := values(in); ok {
		setValue(out, transposeValues(sd, v, p))
	}
	return nil
}

// transposeValues returns the elements of a tensor of shape dims permuted by perm.
func transposeValues(dims []int64, v []sym.Dim, perm []int) []sym.Dim {
	r := len(dims)
	strides := make([]int, r)
	acc := 1
	for i := r - 1; i >= 0; i-- {
		strides[i] = acc
		acc *= int(dims[i])
	}
	out := make([]sym.Dim, 0, len(v))
	coord := make([]int, r)
	for range v {
		j := 0
		for i, a := range perm {
			j += coord[i] * strides[a]
		}
		out = append(out, v[j])
		for i := r - 1; i >= 0; i-- {
			coord[i]++
			if coord[i] < int(dims[perm[i]]) {
				break
			}
			coord[i] = 0
		}
	}
	return out
}

// constantOfShape: ConstantOfShape-9..21: the shape is input 0's values; the value attribute (a
// one-element tensor, float 0 by default) gives type and value.
func constantOfShape(c *Ctx) error {
	in, err := c.Input(0)
	if err != nil {
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
	dims, ok := shapeFromValue(c, in)
	if !ok {
		return nil
	}
	out := c.Out(0, t, dims)
	if len(fill) == 1 {
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

// shapeFromValue returns the shape a 1-D shape tensor holds (ConstantOfShape, Expand, Resize's
// sizes): its values as dims, unknown dims where values are not known, a dynamic rank when its
// length is not known. Negative values are an error wrapping errcode.ErrInvalidShape.
func shapeFromValue(c *Ctx, in *Info) (sym.Shape, bool) {
	if in.Value != nil {
		dims := make([]sym.Dim, len(in.Value))
		for i, d := range in.Value {
			nd, ok := d.NonNegative()
			if !ok {
				c.Set(0, unknownInfo())
				return sym.Shape{}, false
			}
			dims[i] = nd
		}
		return sym.ShapeOf(dims...), true
	}
	if r, ok := in.Rank(); ok && r == 1 {
		if n, ok := in.Shape.Dims[0].Static(); ok {
			dims := make([]sym.Dim, n)
			for i := range dims {
				dims[i] = sym.Unknown
			}
			return sym.ShapeOf(dims...), true
		}
	}
	return sym.DynamicRank(), true
}

// rangeOp: Range-11..21: max(ceil((limit-start)/delta), 0) elements; values when all three are
// known integers.
func rangeOp(c *Ctx) error {
	ins, err := c.Inputs(3, 3)
	if err != nil {
		return err
	}
	t := ins[0].Type
	get := func(in *Info) (sym.Dim, bool) {
		if len(in.Value) == 1 {
			return in.Value[0], true
		}
		if len(in.Floats) == 1 && in.Floats[0] == math.Trunc(in.Floats[0]) && math.Abs(in.Floats[0]) < 1<<53 {
			return sym.Const(int64(in.Floats[0])), true
		}
		return sym.Dim{}, false
	}
	start, ok1 := get(ins[0])
	limit, ok2 := get(ins[1])
	delta, ok3 := get(ins[2])
	if !ok1 || !ok2 || !ok3 {
		c.Out(0, t, sym.ShapeOf(sym.Unknown))
		return nil
	}
	if n, ok := delta.Static(); ok && n == 0 {
		return c.Errorf(errcode.ErrInvalidShape, "delta is 0")
	}
	n := sym.MaxDims(sym.CeilDivDims(sym.SubDims(limit, start), delta), sym.Const(0))
	out := c.Out(0, t, sym.ShapeOf(n))
	s, sok := start.Static()
	d, dok := delta.Static()
	if cnt, ok := n.Static(); ok && sok && dok && cnt <= MaxValue && isIntegral(t) {
		v := make([]sym.Dim, cnt)
		for i := range v {
			v[i] = sym.Const(s + int64(i)*d)
		}
		out.Value = v
	}
	return nil
}

// expand: Expand-8..13: the broadcast of the input's shape and the shape input 1 holds.
func expand(c *Ctx) error {
	ins, err := c.Inputs(2, 2)
	if err != nil {
		return err
	}
	target, ok := shapeFromValue(c, ins[1])
	if !ok {
		return nil
	}
	if !target.RankDynamic && !ins[0].Shape.RankDynamic {
		// A target dim 1 keeps the input's dim; broadcasting covers it.
		s, err := c.Broadcast(ins[0].Shape, target)
		if err != nil {
			return err
		}
		out := c.Out(0, ins[0].Type, s)
		if sd, v, ok := values(ins[0]); ok {
			if od, ok := s.Static(); ok && len(sd) <= len(od) {
				if n, ok := out.Volume(); ok && n <= MaxValue {
					idx := broadcastIndex(sd, od)
					ev := make([]sym.Dim, len(idx))
					for i, j := range idx {
						ev[i] = v[j]
					}
					out.Value = ev
				}
			}
		}
		return nil
	}
	c.Out(0, ins[0].Type, sym.DynamicRank())
	return nil
}

func itoa(n int) string {
	return string(appendInt(nil, n))
}

func appendInt(b []byte, n int) []byte {
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}
