package graph

import (
	"slices"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// The kernels of the operators of ONNX and OpenVINO that move data without computing it: concats,
// squeezes, transposes, tiles and splits, and the remapping of values they share.

// remap returns the elements of a tensor of static shape out whose element at coordinate (i0, i1,
// ...) is the element of v, a tensor of static shape in, at (at(0, i0), at(1, i1), ...), or fill
// where at returns a negative index; nil when out has more than MaxValue elements.
func remap(in, out []int64, v []sym.Dim, fill sym.Dim, at func(axis int, i int64) int64) []sym.Dim {
	n, err := shape.Volume(out)
	if err != nil || n > MaxValue {
		return nil
	}
	strides := make([]int64, len(in))
	shape.FillStrides(strides, in, 1)
	res := make([]sym.Dim, 0, n)
	coord := make([]int64, len(out))
	for range n {
		j := int64(0)
		for k, x := range coord {
			y := at(k, x)
			if y < 0 {
				j = -1
				break
			}
			j += y * strides[k]
		}
		if j < 0 {
			res = append(res, fill)
		} else {
			res = append(res, v[j])
		}
		nextCoord(coord, out)
	}
	return res
}

// nextCoord advances coord to the next coordinate of a tensor of shape dims in row-major order,
// wrapping around to zeros after the last.
func nextCoord(coord, dims []int64) {
	for k := len(dims) - 1; k >= 0; k-- {
		coord[k]++
		if coord[k] < dims[k] {
			return
		}
		coord[k] = 0
	}
}

// outValues sets the values of out to remap's, when in has values and out a static shape.
func outValues(out, in *Info, fill sym.Dim, at func(axis int, i int64) int64) {
	sd, v, ok := values(in)
	if !ok {
		return
	}
	od, ok := out.Shape.Static()
	if !ok {
		return
	}
	setValue(out, remap(sd, od, v, fill, at))
}

// withDim returns a copy of dims with dims[a] set to d.
func withDim(dims []sym.Dim, a int, d sym.Dim) []sym.Dim {
	out := append([]sym.Dim(nil), dims...)
	out[a] = d
	return out
}

// tileRepeat returns repeat i of tileBy, rep, of an axis of size d: narrowed to 0 and up where it
// is required not negative, as it is where the axis may not be empty.
func tileRepeat(c *ctx, i int, d, rep sym.Dim, emptyAny bool) (sym.Dim, error) {
	name := "repeats[" + itoa(i) + "]"
	lo, hi := rep.Bounds()
	dlo, dhi := d.Bounds()
	switch {
	case lo >= 0 || !emptyAny || dlo >= 1:
		return requireNonNegative(c, rep, name)
	case dhi < 1:
		return rep, nil
	case hi < 0:
		return rep, requireAtMost(c, d, sym.Const(0), name+" = "+rep.String()+" of an empty axis")
	}
	x, ok1 := rep.Expr()
	y, ok2 := d.Expr()
	if !ok1 || !ok2 {
		nd, _ := rep.NonNegative() // not exact: the output's loss, which the engine records
		return nd, nil
	}
	return rep, c.Require(sym.Or(sym.Ge(x, sym.Int(0)), sym.Eq(y, sym.Int(0))), name+" = "+rep.String()+" not negative unless the axis is empty")
}

// splitOutputs sets output i to part i of in along axis a, of size parts[i], with its values.
func splitOutputs(c *ctx, in *Info, a int, parts []sym.Dim) {
	off := sym.Const(0)
	for i, p := range parts {
		splitValues(c.Out(i, in.Type, sym.ShapeOf(withDim(in.Shape.Dims, a, p)...)), in, a, off)
		off = sym.AddDims(off, p)
	}
}

// splitValues sets the values of out, the part of in along axis a that starts at off, when in has
// values and off is known.
func splitValues(out, in *Info, a int, off sym.Dim) {
	o, ok := off.Static()
	if !ok {
		return
	}
	outValues(out, in, sym.Dim{}, func(k int, x int64) int64 {
		if k == a {
			return x + o
		}
		return x
	})
}

// tileBy sets output 0 to in, of known rank, with each dim multiplied by its repeat in reps (one
// per axis), and its values tiled. A repeat that may be negative is required not negative, as
// OpenVINO's Tile-1 takes non-negative repeats; with emptyAny (ONNX) not negative unless its axis
// is empty, as onnxruntime 1.20.1 runs any repeat of an empty axis and refuses a negative one of
// another ("Tensor shape.Size() must be >= 0": bench/truth narrow_negative). A repeat that can be
// neither is an error wrapping errcode.ErrInvalidShape.
func tileBy(c *ctx, in *Info, reps []sym.Dim, emptyAny bool) error {
	dims := make([]sym.Dim, len(reps))
	for i, d := range in.Shape.Dims {
		rep, err := tileRepeat(c, i, d, reps[i], emptyAny)
		if err != nil {
			return err
		}
		// Not negative by tileRepeat's condition: rep is, or d is 0.
		dims[i], _ = sym.MulDims(d, rep).NonNegative()
	}
	out := c.Out(0, in.Type, sym.ShapeOf(dims...))
	if sd, _, ok := values(in); ok {
		outValues(out, in, sym.Dim{}, func(k int, i int64) int64 { return i % sd[k] })
	}
	return nil
}

// transposeBy sets output 0 to in, of known rank, with its dims permuted by perm (reversed when
// perm is nil), and its values permuted. A perm that is not a permutation of the axes is an error
// wrapping errcode.ErrInvalidShape.
func transposeBy(c *ctx, in *Info, perm []int64) error {
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
	dims := c.dims(r)
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

// concat, the rule of ONNX's Concat-4, -11, -13 and OpenVINO's Concat-1, which agree: output 0
// is the concatenation of the inputs along the axis attribute, the other dims unified, the axis
// dim their sum; values concatenate. The axis is required: a missing one is an error wrapping
// errcode.ErrSyntax. Inputs of different ranks, or an axis out of range, are an error wrapping
// errcode.ErrInvalidShape; dims along the axis whose sum passes int64 one wrapping
// errcode.ErrOverflow. onnxruntime departs from the specification here: it skips an input with no
// element, whatever its other dims ([1,8,0] beside [1,8,1] along axis 1 gives [1,16,1]); ONNX's
// Concat follows onnxruntime (onnxConcat), OpenVINO's and oneDNN's the specification.
func concat(c *ctx) error { return concatAxis(c, true, false) }

// onnxConcat is concat as onnxruntime runs ONNX's Concat-4 to -13: an input with no elements is
// left out of the comparison of the other axes (its dims need not match the first input's).
func onnxConcat(c *ctx) error { return concatAxis(c, true, true) }

// concat1: Concat-1 of ONNX (to -3), concat with an axis of 1 by default, as onnxruntime runs it
// (see onnxConcat).
func concat1(c *ctx) error { return concatAxis(c, false, true) }

// concatAxis is concat, whose axis attribute is required, or 1 by default; skipEmpty as
// onnxConcat.
func concatAxis(c *ctx, required, skipEmpty bool) error {
	ins, err := c.Inputs(c.NumIn())
	if err != nil {
		return err
	}
	if _, ok := c.n.Attr("axis"); !ok && required {
		return c.Errorf(errcode.ErrSyntax, "attribute axis is missing: %s takes it", c.n.Op)
	}
	axis, err := c.Int("axis", 1)
	if err != nil {
		return err
	}
	if skipEmpty {
		return concatSkipEmpty(c, ins, nil, axis, ins[0].Type)
	}
	return concatAlong(c, ins, nil, axis, ins[0].Type)
}

// concatAlong sets output 0, of type t, to the concatenation of ins along axis, as concat; at
// holds the node's index of each of ins, for the errors (nil: ins are the node's inputs, in
// order).
func concatAlong(c *ctx, ins []*Info, at []int, axis int64, t element.Type) error {
	return concatWith(c, ins, at, axis, t, false)
}

// concatSkipEmpty is concatAlong as onnxruntime's Concat checks its inputs: an input with no
// element is left out of the comparison of the other axes (onnxruntime compares the non-empty
// inputs only, and takes the output's dims from the first of them); the dims along the axis add
// up all the same. The others are compared with the reference, the first input that cannot be
// empty (concatReference). Where another input may be empty, its dim i is stated equal to the
// reference's or one of its own dims with an expression 0: `H == 2*(H//2) || 2*(H//2) == 0` for a
// U-Net skip whose pooled branch is empty at H == 1; where every input may be empty, the first is
// the reference, and the condition asks more than onnxruntime only where it is empty and two
// non-empty ones differ from it. An input that is empty (a dim 0) is compared with none, except
// that two integers of the file that differ are refused when onnxruntime loads the model (ONNX's
// shape inference merges them), empty input or not: inferred at a binding, where an integer may
// come from the binding, a node that the model inferred without it refuses at load
// (ctx.RefusedAtLoad). Inputs with no dim that may be 0, or none with an expression, are
// unified as concatAlong does.
func concatSkipEmpty(c *ctx, ins []*Info, at []int, axis int64, t element.Type) error {
	return concatWith(c, ins, at, axis, t, true)
}

// concatWith is concatAlong, and concatSkipEmpty where skipEmpty.
func concatWith(c *ctx, ins []*Info, at []int, axis int64, t element.Type, skipEmpty bool) error {
	input := func(k int) string {
		if at != nil {
			k = at[k]
		}
		return "input " + itoa(k)
	}
	rank, ref := -1, -1
	for k, in := range ins {
		if r, ok := in.Rank(); ok {
			if rank >= 0 && r != rank {
				return c.Errorf(errcode.ErrInvalidShape, "inputs of ranks %d and %d", rank, r)
			}
			if rank < 0 {
				ref = k
			}
			rank = r
		}
	}
	if rank < 0 {
		c.Out(0, t, sym.DynamicRank())
		return nil
	}
	a, err := c.NormAxis(axis, rank)
	if err != nil {
		return err
	}
	if skipEmpty {
		ref = concatReference(ins, ref)
	}
	dims := c.clone(ins[ref].Shape.Dims)
	var sum sym.Dim
	least := int64(0) // the smallest the sum can be
	partial := false  // an input of unknown rank adds a dim no rule knows
	skipped := false  // an empty input whose dims differ from the reference's
	summed := false
	for k, in := range ins {
		if in.Shape.RankDynamic {
			partial = true
			continue
		}
		lo, _ := in.Shape.Dims[a].Bounds()
		if least += max(lo, 0); least < 0 {
			return c.Errorf(errcode.ErrOverflow, "%s: the dims along axis %d add up past int64", input(k), a)
		}
		if summed {
			sum = sym.AddDims(sum, in.Shape.Dims[a])
		} else {
			sum, summed = in.Shape.Dims[a], true
		}
		if k == ref {
			continue
		}
		var zeros []sym.Pred
		empty := false
		if skipEmpty {
			zeros, _ = emptyWhen(in.Shape)
			empty = isEmpty(in)
		}
		for i, d := range in.Shape.Dims {
			if i == a || dims[i].Equal(d) {
				continue
			}
			if static := bothStatic(dims[i], d); empty && (!static || c.Bound() && !c.RefusedAtLoad()) {
				skipped = true
				continue
			} else if len(zeros) > 0 && !static {
				if ok, err := requireEqualOrEmpty(c, dims[i], d, zeros, input(k)+" dim "+itoa(i)+" (or the input empty)"); ok || err != nil {
					if err != nil {
						return err
					}
					continue
				}
			}
			u, err := c.Unify(dims[i], d, input(k)+" dim "+itoa(i))
			if err != nil {
				return err
			}
			dims[i] = u
		}
	}
	if partial {
		// At least the known inputs' dims: an input of unknown rank adds one of its own, which
		// may be 0.
		sum = sym.Interval(least, Inf)
	}
	dims[a] = sum
	out := c.Out(0, t, sym.ShapeOf(dims...))
	if skipped {
		// The values of an empty input are none, and its other dims are not the output's.
		ins = slices.DeleteFunc(slices.Clone(ins), func(in *Info) bool { return isEmpty(in) })
	}
	concatValues(c, out, ins, a)
	concatFracs(out, ins, a)
	return nil
}

// concatReference returns the index in ins of the input whose other dims the others are compared
// with and the output takes, as onnxruntime's Concat takes them from its first non-empty input:
// the first input of known rank whose dims cannot be 0, else the first that is not empty (a dim 0),
// else first, the first of known rank.
func concatReference(ins []*Info, first int) int {
	open := -1
	for k, in := range ins {
		if in.Shape.RankDynamic {
			continue
		}
		if !slices.ContainsFunc(in.Shape.Dims, func(d sym.Dim) bool { lo, _ := d.Bounds(); return lo <= 0 }) {
			return k
		}
		if open < 0 && !isEmpty(in) {
			open = k
		}
	}
	if open >= 0 {
		return open
	}
	return first
}

// isEmpty reports whether the tensor in has no elements: its rank is known and a dim is 0.
func isEmpty(in *Info) bool {
	return !in.Shape.RankDynamic && slices.ContainsFunc(in.Shape.Dims, func(d sym.Dim) bool { _, hi := d.Bounds(); return hi == 0 })
}

// emptyWhen returns the conditions `d == 0` of the dims of s that may be 0 and have an
// expression, and whether every dim that may be 0 has one (else ok is false: zeros, if any, are
// some of the ways s may be empty, not all).
func emptyWhen(s sym.Shape) (zeros []sym.Pred, ok bool) {
	if s.RankDynamic {
		return nil, false
	}
	ok = true
	for _, d := range s.Dims {
		if lo, _ := d.Bounds(); lo > 0 {
			continue
		}
		x, has := d.Expr()
		if !has {
			ok = false
			continue
		}
		zeros = append(zeros, sym.Eq(x, sym.Int(0)))
	}
	return zeros, ok
}

// bothStatic reports whether a and b are both integers: two that differ are refused when
// onnxruntime loads the model (ONNX's shape inference merges them), empty input or not.
func bothStatic(a, b sym.Dim) bool {
	_, sa := a.Static()
	_, sb := b.Static()
	return sa && sb
}

// requireEqualOrEmpty states that a equals b, or one of zeros holds (the input of b is empty),
// when both have an expression; ok is false where they have none.
func requireEqualOrEmpty(c *ctx, a, b sym.Dim, zeros []sym.Pred, why string) (ok bool, err error) {
	xa, oka := a.Expr()
	xb, okb := b.Expr()
	if !oka || !okb {
		return false, nil
	}
	return true, c.Require(sym.Or(append([]sym.Pred{sym.Eq(xa, xb)}, zeros...)...), why)
}

// concatValues concatenates the values of static inputs along axis a, into out of static shape.
func concatValues(c *ctx, out *Info, ins []*Info, a int) {
	n, ok := out.Volume()
	if !ok || n == 0 || n > MaxValue { // none: the values of an empty tensor are left unknown
		return
	}
	for _, in := range ins {
		if in.Value == nil {
			return
		}
		if _, ok := in.Volume(); !ok {
			return
		}
	}
	outer := 1
	for _, d := range ins[0].Shape.Dims[:a] {
		outer *= staticInt(d)
	}
	v := c.dims(int(n))[:0]
	for o := range outer {
		for _, in := range ins {
			inner := 1
			for _, d := range in.Shape.Dims[a:] {
				inner *= staticInt(d)
			}
			v = append(v, in.Value[o*inner:(o+1)*inner]...)
		}
	}
	setValue(out, v)
}

// staticInt returns the value of a static dim of a tensor whose values are known: small.
func staticInt(d sym.Dim) int {
	n, _ := d.Static()
	return int(n)
}

// squeezeOnes sets output 0 to in, of known rank, without its dims of size 1 (ONNX's Squeeze and
// OpenVINO's Squeeze-1 without axes), values unchanged; a dynamic dim that may be 1 makes the
// output's rank unknown: which dims go is known at run time only.
func squeezeOnes(c *ctx, in *Info) {
	var dims []sym.Dim
	for _, d := range in.Shape.Dims {
		switch {
		case isOne(d):
		case maybeOne(d):
			c.Out(0, in.Type, sym.DynamicRank())
			return
		default:
			dims = append(dims, d)
		}
	}
	keepValues(c.Out(0, in.Type, sym.ShapeOf(dims...)), in)
}
