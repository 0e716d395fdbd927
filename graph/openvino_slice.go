package graph

import (
	"math"
	"slices"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// The OpenVINO IR layers that take parts of a tensor (StridedSlice, Slice, Split, VariadicSplit)
// or reduce it, with values.
func init() {
	rs := map[string]Rule{
		"StridedSlice":  ovStridedSlice,
		"Slice":         ovSlice,
		"Split":         ovSplit,
		"VariadicSplit": ovVariadicSplit,
	}
	for _, op := range []string{"ReduceProd", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceMean", "ReduceL1",
		"ReduceL2", "ReduceLogicalAnd", "ReduceLogicalOr"} {
		rs[op] = ovReduce
	}
	register(DomainOpenVINO, rs)
}

// ovCut selects, on one input axis, n elements from first by step; a nil *ovCut takes the whole
// axis.
type ovCut struct{ first, step, n sym.Dim }

// ovCutValues sets the values of out to those of in that the cuts take (one per axis of in), in
// row-major order, when in's are known and the cuts static.
func ovCutValues(out, in *Info, cuts []*ovCut) {
	sd, v, ok := values(in)
	if !ok {
		return
	}
	first, step, n := make([]int64, len(sd)), make([]int64, len(sd)), slices.Clone(sd)
	for i, cu := range cuts {
		step[i] = 1
		if cu != nil {
			var ok1, ok2, ok3 bool
			first[i], ok1 = cu.first.Static()
			step[i], ok2 = cu.step.Static()
			n[i], ok3 = cu.n.Static()
			if !ok1 || !ok2 || !ok3 {
				return
			}
		}
	}
	setValue(out, remap(sd, n, v, sym.Dim{}, func(k int, x int64) int64 { return first[k] + x*step[k] }))
}

// ovStridedSlice: StridedSlice-1: begin, end and strides (inputs 1 to 3, strides 1 when left out)
// hold one entry per slicing step, and the five masks one bit per step (a missing entry is 0; only
// 1 sets it). Step i takes, in order of precedence: with ellipsis_mask, the input axes the other
// steps do not use, whole; with new_axis_mask, a new axis of size 1; with shrink_axis_mask, the
// single index begin[i] of the next input axis (from the end when negative), removed; otherwise
// the next input axis from begin[i] to end[i] by strides[i] with Python's rules (negative indices
// count from the end, indices out of range are clamped), begin_mask starting at the axis's real
// beginning (its end for a negative stride) and end_mask running to its real end (its beginning,
// included, for a negative stride). Axes left over are kept whole. Dims are symbolic where the
// input's are; values are sliced when known. Begin or end values not known give the slices' dims
// as intervals bounded by the input dims.
func ovStridedSlice(c *Ctx) error {
	ins, err := c.Inputs(3, 4)
	if err != nil {
		return err
	}
	data := ins[0]
	r, ok := data.Rank()
	if !ok {
		return nil
	}
	begin, bk := ins[1].Ints()
	end, ek := ins[2].Ints()
	var strides []int64
	sk := true
	if s := c.In(3); s != nil {
		strides, sk = s.Ints()
	}
	var masks [5][]int64
	for k, name := range []string{"begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask"} {
		if masks[k], _, err = c.Ints(name); err != nil {
			return err
		}
	}
	bit := func(k, i int) bool { return i < len(masks[k]) && masks[k][i] == 1 }
	m := -1
	switch {
	case bk:
		m = len(begin)
	case ek:
		m = len(end)
	default:
		if n, ok := ins[1].Volume(); ok {
			m = int(n)
		}
	}
	if m < 0 {
		return nil
	}
	if bk && ek && len(end) != m || sk && strides != nil && len(strides) != m {
		return c.Errorf(errcode.ErrInvalidShape, "begin, end and strides have lengths %d, %d and %d", len(begin), len(end), len(strides))
	}
	used, ellipsis := 0, -1
	for i := range m {
		switch {
		case bit(4, i):
			if ellipsis >= 0 {
				return c.Errorf(errcode.ErrInvalidShape, "ellipsis_mask sets steps %d and %d: at most one ellipsis", ellipsis, i)
			}
			ellipsis = i
		case !bit(2, i):
			used++
		}
	}
	if used > r {
		return c.Errorf(errcode.ErrInvalidShape, "%d slicing steps use input axes, the input has rank %d", used, r)
	}
	cuts := make([]*ovCut, r)
	var dims []sym.Dim
	in := 0 // the next input axis
	exact := true
	whole := func(n int) {
		for range n {
			dims = append(dims, data.Shape.Dims[in])
			in++
		}
	}
	for i := range m {
		switch {
		case i == ellipsis:
			whole(r - used)
			continue
		case bit(2, i):
			dims = append(dims, sym.Const(1))
			continue
		}
		d := data.Shape.Dims[in]
		if bit(3, i) {
			if !bk {
				exact = false
				in++
				continue
			}
			b := begin[i]
			if lo, hi := d.Bounds(); b >= hi || b < -lo && lo == hi || b < 0 && -b > hi {
				return c.Errorf(errcode.ErrInvalidShape, "step %d takes index %d of input axis %d of size %v", i, b, in, d)
			}
			first := sym.Const(b)
			if b < 0 {
				first = sym.AddDims(d, first)
			}
			cuts[in] = &ovCut{first, sym.Const(1), sym.Const(1)}
			in++
			continue
		}
		stride := int64(1)
		if strides != nil {
			stride = strides[i]
		}
		if stride == 0 && sk {
			return c.Errorf(errcode.ErrInvalidShape, "the stride of step %d is 0", i)
		}
		if !sk || !bk && !bit(0, i) || !ek && !bit(1, i) {
			dims = append(dims, upTo(d))
			exact = false
			in++
			continue
		}
		var b, e int64
		switch {
		case bit(0, i) && stride > 0:
			b = 0
		case bit(0, i):
			b = math.MaxInt64
		default:
			b = begin[i]
		}
		switch {
		case bit(1, i) && stride > 0:
			e = math.MaxInt64
		case bit(1, i):
			e = math.MinInt64
		default:
			e = end[i]
		}
		first, n := sliceAxis(d, b, e, stride)
		cuts[in] = &ovCut{first, sym.Const(stride), n}
		dims = append(dims, n)
		in++
	}
	if ellipsis < 0 {
		whole(r - in)
	}
	out := c.Out(0, data.Type, sym.ShapeOf(dims...))
	if exact {
		ovCutValues(out, data, cuts)
	}
	return nil
}

// ovSlice: Slice-8: start, stop, step and axes (inputs 1 to 4; axes 0, 1, ... when left out), one
// entry per sliced axis, with the rules of ONNX's Slice-13: negative indices count from the end;
// for a positive step start and stop are clamped to [0, dim], for a negative one start to
// [0, dim-1] and stop to [-1, dim-1]; ceil((stop-start)/step) elements, at least 0. Values are
// sliced when known.
func ovSlice(c *Ctx) error {
	ins, err := c.Inputs(4, 5)
	if err != nil {
		return err
	}
	data := ins[0]
	var args [4][]int64
	for k := range args {
		a := c.In(k + 1)
		if a == nil {
			continue
		}
		v, ok := a.Ints()
		if !ok {
			return nil
		}
		args[k] = v
	}
	start, stop, step, axes := args[0], args[1], args[2], args[3]
	r, ok := data.Rank()
	if !ok {
		return nil
	}
	if len(stop) != len(start) || len(step) != len(start) || c.In(4) != nil && len(axes) != len(start) {
		return c.Errorf(errcode.ErrInvalidShape, "start, stop, step and axes have lengths %d, %d, %d and %d", len(start), len(stop), len(step), len(axes))
	}
	if c.In(4) == nil {
		for i := range start {
			axes = append(axes, int64(i))
		}
	}
	ax, err := c.NormAxes(axes, r)
	if err != nil {
		return err
	}
	dims := slices.Clone(data.Shape.Dims)
	cuts := make([]*ovCut, r)
	for k, a := range ax {
		if step[k] == 0 {
			return c.Errorf(errcode.ErrInvalidShape, "step[%d] is 0", k)
		}
		first, n := sliceAxis(dims[a], start[k], stop[k], step[k])
		cuts[a] = &ovCut{first, sym.Const(step[k]), n}
		dims[a] = n
	}
	ovCutValues(c.Out(0, data.Type, sym.ShapeOf(dims...)), data, cuts)
	return nil
}

// ovSplit: Split-1: num_splits equal parts along the axis (input 1), each of the axis's dim divided
// by num_splits, exactly; a static dim that num_splits does not divide is an error wrapping
// errcode.ErrInvalidShape. Values split when known.
func ovSplit(c *Ctx) error {
	ins, err := c.Inputs(2, 2)
	if err != nil {
		return err
	}
	n, err := c.Int("num_splits", 0)
	if err != nil {
		return err
	}
	if n <= 0 || int64(c.NumOut()) != n {
		return c.Errorf(errcode.ErrSyntax, "num_splits %d with %d outputs", n, c.NumOut())
	}
	a, ok, err := ovSplitAxis(c, ins[0])
	if err != nil || !ok {
		return err
	}
	d := ins[0].Shape.Dims[a]
	if v, ok := d.Static(); ok && v%n != 0 {
		return c.Errorf(errcode.ErrInvalidShape, "axis %d of size %d does not split into %d equal parts", a, v, n)
	}
	part := sym.QuoDims(d, sym.Const(n))
	parts := make([]sym.Dim, n)
	for i := range parts {
		parts[i] = part
	}
	splitOutputs(c, ins[0], a, parts)
	return nil
}

// ovVariadicSplit: VariadicSplit-1: parts of the lengths input 2 holds along the axis (input 1),
// one of them -1 for the rest; lengths that do not sum to the axis's dim are an error wrapping
// errcode.ErrInvalidShape. Values split when known.
func ovVariadicSplit(c *Ctx) error {
	ins, err := c.Inputs(3, 3)
	if err != nil {
		return err
	}
	a, ok, err := ovSplitAxis(c, ins[0])
	if err != nil || !ok || ins[2].Value == nil {
		return err
	}
	lengths := ins[2].Value
	if len(lengths) != c.NumOut() {
		return c.Errorf(errcode.ErrSyntax, "%d split lengths and %d outputs", len(lengths), c.NumOut())
	}
	d := ins[0].Shape.Dims[a]
	parts := slices.Clone(lengths)
	rest, sum := -1, sym.Const(0)
	for i, l := range lengths {
		if n, ok := l.Static(); ok && n == -1 {
			if rest >= 0 {
				return c.Errorf(errcode.ErrInvalidShape, "split lengths %v: -1 twice", sym.ShapeOf(lengths...))
			}
			rest = i
			continue
		}
		nn, ok := l.NonNegative()
		if !ok {
			return c.Errorf(errcode.ErrInvalidShape, "split lengths %v: element %d is negative", sym.ShapeOf(lengths...), i)
		}
		parts[i] = nn
		sum = sym.AddDims(sum, nn)
	}
	if rest >= 0 {
		p, ok := sym.SubDims(d, sum).NonNegative()
		if !ok {
			return c.Errorf(errcode.ErrInvalidShape, "split lengths %v sum to more than the axis's %v", sym.ShapeOf(lengths...), d)
		}
		parts[rest] = p
	} else if _, err := c.Unify(sum, d, "the sum of the split lengths and the axis"); err != nil {
		return err
	}
	splitOutputs(c, ins[0], a, parts)
	return nil
}

// ovSplitAxis returns the split axis (the scalar input 1) of in, normalized; ok is false when it
// or the rank is not known.
func ovSplitAxis(c *Ctx, in *Info) (int, bool, error) {
	axis, known, err := ovScalar(c, 1, "axis")
	r, ok := in.Rank()
	if err != nil || !known || !ok {
		return 0, false, err
	}
	a, err := c.NormAxis(axis, r)
	return a, err == nil, err
}

// ovReduce: ReduceProd-1, ReduceSum-1, ReduceMax-1, ReduceMin-1, ReduceMean-1, ReduceL1-4,
// ReduceL2-4, ReduceLogicalAnd-1, ReduceLogicalOr-1: the axes (input 1; repeats count once, none
// reduces nothing) removed, or kept as 1 with keep_dims. Values for ReduceProd, ReduceSum,
// ReduceMax, ReduceMin and the logical ones when the input's are known (ReduceProd and ReduceSum of
// no elements are 1 and 0).
func ovReduce(c *Ctx) error {
	ins, err := c.Inputs(2, 2)
	if err != nil {
		return err
	}
	in := ins[0]
	keep, err := ovBool(c, "keep_dims", false)
	if err != nil {
		return err
	}
	r, ok := in.Rank()
	ax, known := ins[1].Ints()
	if !ok || !known {
		return nil
	}
	reduced, err := ovAxes(c, ax, r)
	if err != nil {
		return err
	}
	var dims []sym.Dim
	for i, d := range in.Shape.Dims {
		switch {
		case !reduced[i]:
			dims = append(dims, d)
		case keep:
			dims = append(dims, sym.Const(1))
		}
	}
	t := in.Type
	if c.n.Op == "ReduceLogicalAnd" || c.n.Op == "ReduceLogicalOr" {
		t = element.Boolean
	}
	out := c.Out(0, t, sym.ShapeOf(dims...))
	var f func(a, b sym.Dim) sym.Dim
	empty, unit := true, sym.Const(0) // the reduction of no elements
	switch c.n.Op {
	case "ReduceProd", "ReduceLogicalAnd":
		f, unit = sym.MulDims, sym.Const(1)
	case "ReduceSum":
		f = sym.AddDims
	case "ReduceLogicalOr":
		f = sym.MaxDims
	case "ReduceMax":
		f, empty = sym.MaxDims, false
	case "ReduceMin":
		f, empty = sym.MinDims, false
	default:
		return nil
	}
	if sd, v, ok := values(in); ok {
		setValue(out, reduceValues(sd, v, reduced, f, empty, unit))
	}
	return nil
}
