package graph

import (
	"math"
	"slices"
	"strings"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoCore holds the rules of OpenVINO IR layers (DomainOpenVINO) that move or compute shapes,
// with values: the shape subgraphs of IR models (ShapeOf → Gather → Concat → Reshape, StridedSlice,
// ReduceProd) run through them. Each follows the operation's specification in OpenVINO's
// operation sets ("Gather-8"), at every version the rule names. Attributes are <data> text:
// integers, lists "1,2", booleans "true"/"True", element types "i64".
var openvinoCore = table{DomainOpenVINO, []opDef{
	{"ShapeOf", since(1, 3), fixed(1), fixed(1), 0, ovShapeOf},
	{"Convert", since(1), fixed(1), fixed(1), reads(0), ovConvert},
	{"ConvertLike", since(1), fixed(2), fixed(1), reads(0), ovConvert},
	{"Concat", since(1), span(1, many), fixed(1), allValues, concat},
	{"Gather", since(1, 7, 8), fixed(3), fixed(1), reads(0, 1, 2), ovGather},
	{"Squeeze", since(1, 15), span(1, 2), fixed(1), reads(0, 1), ovSqueeze},
	{"Unsqueeze", since(1), fixed(2), fixed(1), reads(0, 1), ovUnsqueeze},
	{"Reshape", since(1), fixed(2), fixed(1), reads(0, 1), ovReshape},
	{"Transpose", since(1), fixed(2), fixed(1), reads(0, 1), ovTranspose},
	{"Broadcast", since(1, 3), span(2, 3), fixed(1), reads(0, 1, 2), ovBroadcastOp},
	{"Range", since(1, 4), fixed(3), fixed(1), reads(0, 1, 2), ovRange},
}}

// ovBool returns the boolean attribute name, def when the node does not have it: IR v10 writes
// True and False, IR v11 true and false; 1 and 0 are read too.
func ovBool(c *ctx, name string, def bool) (bool, error) {
	a, ok := c.n.Attr(name)
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(a.Text)) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return def, c.Errorf(errcode.ErrSyntax, "attribute %s=%q is not a boolean (true or false)", name, a.Text)
}

// ovType returns the element type attribute name (destination_type, output_type), def when the
// node does not have it.
func ovType(c *ctx, name string, def element.Type) (element.Type, error) {
	s, err := c.String(name, "")
	if err != nil || s == "" {
		return def, err
	}
	t, err := element.Parse(s)
	if err != nil {
		return def, c.Errorf(errcode.ErrSyntax, "attribute %s=%q: %v", name, s, err)
	}
	return t, nil
}

// ovScalar returns the value of input i, a scalar or a one-element tensor (Gather's and Split's
// axis): known is false when it is not a known integer; more elements are an error wrapping
// errcode.ErrInvalidShape.
func ovScalar(c *ctx, i int, what string) (v int64, known bool, err error) {
	in, err := c.Input(i)
	if err != nil {
		return 0, false, err
	}
	if n, ok := in.Shape.Volume().Static(); ok && !in.Shape.RankDynamic && n != 1 {
		return 0, false, c.Errorf(errcode.ErrInvalidShape, "the %s (input %d) has %d elements, want 1", what, i, n)
	}
	if err := requireCount(c, in.Shape, 1, "the "+what+" (input "+itoa(i)+") of one element"); err != nil {
		return 0, false, err
	}
	ints, ok := in.Ints()
	if !ok || len(ints) != 1 {
		return 0, false, nil
	}
	return ints[0], true, nil
}

// ovSharedType returns the element type of the first input whose type is known, for an operation
// whose inputs share one type (the type check has refused a mix), element.Undefined when none is.
func ovSharedType(c *ctx) element.Type {
	for i := range c.NumIn() {
		if in := c.In(i); in != nil && in.Type != element.Undefined {
			return in.Type
		}
	}
	return element.Undefined
}

// ovVector returns input i, which must be 1-D (what names it in errors), and its length: -1
// when its rank or its dim is not known. Another rank is an error wrapping
// errcode.ErrInvalidShape.
func ovVector(c *ctx, i int, what string) (in *Info, n int, err error) {
	if in, err = c.Input(i); err != nil {
		return nil, -1, err
	}
	r, ok := in.Rank()
	switch {
	case !ok:
		return in, -1, nil
	case r != 1:
		return in, -1, c.Errorf(errcode.ErrInvalidShape, "%s (input %d) has rank %d, want 1", what, i, r)
	}
	if k, ok := in.Shape.Dims[0].Static(); ok {
		return in, int(k), nil
	}
	return in, -1, nil
}

// ovAxes normalizes axes for rank (negative ones count from the end) and merges repeats, as
// OpenVINO's axis sets do; it returns a flag per axis.
func ovAxes(c *ctx, axes []int64, rank int) ([]bool, error) {
	set := make([]bool, rank)
	for _, a := range axes {
		n, err := c.NormAxis(a, rank)
		if err != nil {
			return nil, err
		}
		set[n] = true
	}
	return set, nil
}

// ovShapeOf: ShapeOf-1 (i64), -3 (output_type i64 or i32): the dims of the input, as values, an
// i32 output's required to fit i32 (as Convert's: fitInt).
func ovShapeOf(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	t := element.I64
	if c.Version() >= 3 {
		if t, err = ovType(c, "output_type", element.I64); err != nil {
			return err
		}
		if t != element.I64 && t != element.I32 {
			return c.Errorf(errcode.ErrSyntax, "output_type %v: ShapeOf-3 gives i64 or i32", t)
		}
	}
	r, ok := in.Rank()
	if !ok {
		c.Out(0, t, sym.ShapeOf(sym.Unknown()))
		return nil
	}
	v, err := convertInts(c, in.Shape.Dims, t)
	setValue(c.Out(0, t, sym.Ints(int64(r))), v)
	return err
}

// ovConvert: Convert-1 (destination_type), ConvertLike-1 (the type of input 1): the shape
// unchanged, and the values converted. An integer value that the target integer type holds passes
// unchanged; a static value that it does not hold wraps as C++'s conversion does (two's complement
// truncation to the type's width, sign-extended for a signed type: 300 → u8 is 44, 200 → i8 is
// -56, 2 → u1 is 0); an expression in the model's symbols (a dim, N) keeps its expression where it
// fits the type's range, a condition of the node (N <= 2147483647 to i32: fitInt); any other
// value becomes the type's range. To boolean, 0 is 0 and any other value 1. Integers become
// Floats of a floating-point type that holds them exactly; floats that are integers in the target
// type's range become values; other conversions give no values.
func ovConvert(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	var t element.Type
	if c.n.Op == "ConvertLike" {
		like, err := c.Input(1)
		if err != nil {
			return err
		}
		t = like.Type
	} else if t, err = ovType(c, "destination_type", element.Undefined); err != nil {
		return err
	} else if t == element.Undefined {
		return c.Errorf(errcode.ErrSyntax, "Convert has no destination_type")
	}
	out := c.Out(0, t, in.Shape)
	switch {
	case isIntegral(t) && in.Value != nil:
		if out.Value, err = convertInts(c, in.Value, t); err != nil {
			return err
		}
	case isIntegral(t) && in.Floats != nil:
		lo, hi := typeRange(t)
		v := make([]sym.Dim, len(in.Floats))
		for i, f := range in.Floats {
			if f != math.Trunc(f) || f < float64(lo) || f > float64(hi) || math.Abs(f) >= 1<<53 {
				return nil
			}
			v[i] = sym.Const(int64(f))
		}
		setValue(out, v)
	case t.IsFloat() && in.Floats != nil:
		for _, f := range in.Floats {
			if !exactIn(t, f) {
				return nil
			}
		}
		out.Floats = in.Floats
	case t.IsFloat() && in.Value != nil && len(in.Value) <= maxFloats:
		f := make([]float64, len(in.Value))
		for i, d := range in.Value {
			n, ok := d.Static()
			if !ok || !exactIn(t, float64(n)) || math.Abs(float64(n)) >= 1<<53 {
				return nil
			}
			f[i] = float64(n)
		}
		out.Floats = f
	}
	return nil
}

// convertInts converts integer values to the integral type t as Convert-1 does, an expression in
// the symbols required to fit t (fitInt); nil when a value has no int64 result (a negative static
// value to u64). The error is a condition's.
func convertInts(c *ctx, in []sym.Dim, t element.Type) ([]sym.Dim, error) {
	lo, hi := typeRange(t)
	v := make([]sym.Dim, len(in))
	for i, d := range in {
		dl, dh := d.Bounds()
		n, static := d.Static()
		switch {
		case t == element.Boolean:
			switch {
			case static:
				v[i] = sym.Const(min(abs64(n), 1))
			case dl > 0 || dh < 0:
				v[i] = sym.Const(1)
			default:
				v[i] = sym.Interval(0, 1)
			}
		case dl >= lo && dh <= hi:
			v[i] = d
		case t == element.U64 && static:
			return nil, nil // 2^64+n is beyond int64
		case static:
			v[i] = sym.Const(wrapInt(n, t))
		default:
			if _, exact := d.Expr(); exact {
				var err error
				if v[i], err = fitInt(c, d, t); err != nil {
					return nil, err
				}
				continue
			}
			v[i] = sym.Interval(lo, hi)
		}
	}
	return v, nil
}

// wrapInt returns n truncated to the width of the integer type t (of fewer than 64 bits),
// sign-extended when t is signed.
func wrapInt(n int64, t element.Type) int64 {
	bits := uint(t.Bits())
	if t.IsSigned() {
		return n << (64 - bits) >> (64 - bits)
	}
	return n & (1<<bits - 1)
}

// exactIn reports whether the floating-point type t holds f exactly: f64 every float64; f32 and
// narrower types the integers of magnitude up to 2^(precision), and f32 every float32.
func exactIn(t element.Type, f float64) bool {
	var p int
	switch t {
	case element.F64:
		return true
	case element.F32:
		if float64(float32(f)) == f {
			return true
		}
		p = 24
	case element.F16:
		p = 11
	case element.BF16:
		p = 8
	case element.F8E4M3:
		p = 4
	case element.F8E5M2:
		p = 3
	default:
		return false
	}
	return f == math.Trunc(f) && math.Abs(f) <= float64(int64(1)<<p)
}

// ovGather: Gather-1, -7 (batch_dims), -8 (negative indices): data[:axis] + indices[batch_dims:] +
// data[axis+1:], the axis from input 2; the first batch_dims dims of data and indices unify. Values
// when the indices are known: a negative index counts from the end of the axis; an index out of
// range gives 0 at Gather-8 and is an error wrapping errcode.ErrInvalidShape before.
func ovGather(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	data, idx := ins[0], ins[1]
	var batch int64
	if c.Version() >= 7 {
		if batch, err = c.Int("batch_dims", 0); err != nil {
			return err
		}
	}
	axis, known, err := ovScalar(c, 2, "axis")
	if err != nil {
		return err
	}
	rd, ok1 := data.Rank()
	ri, ok2 := idx.Rank()
	if !ok1 || !ok2 || !known {
		return nil // the declared shape
	}
	if rd == 0 {
		return c.Errorf(errcode.ErrInvalidShape, "data is a scalar")
	}
	a, err := c.NormAxis(axis, rd)
	if err != nil {
		return err
	}
	b := batch
	if b < 0 {
		b += int64(ri)
	}
	if b < 0 || b > int64(ri) || b > int64(a) {
		return c.Errorf(errcode.ErrInvalidShape, "batch_dims %d is out of range for axis %d and indices of rank %d", batch, a, ri)
	}
	dims := slices.Clone(data.Shape.Dims)
	for i := range int(b) {
		u, err := c.Unify(dims[i], idx.Shape.Dims[i], "batch dim "+itoa(i))
		if err != nil {
			return err
		}
		dims[i] = u
	}
	dims = append(append(append([]sym.Dim{}, dims[:a]...), idx.Shape.Dims[b:]...), dims[a+1:]...)
	if err := gatherIndices(c, idx, data.Shape.Dims[a], a, c.Version() >= 8); err != nil {
		return err
	}
	gatherValues(c, c.Out(0, data.Type, sym.ShapeOf(dims...)), data, idx, a, int(b))
	return nil
}

// ovSqueeze: Squeeze-1, -15 (allow_axis_skip): without axes (input 1, a scalar or 1-D), or with
// none, every dim 1 removed, a dim that may be 1 making the rank unknown. With axes, a dim 1 is
// removed, and a dim that cannot be 1 kept (OpenVINO 2024.3 on; earlier releases refused it); a
// dynamic dim that may be 1 is removed, the node requiring it to be 1 (unified with 1), unless
// allow_axis_skip is set, which makes the rank unknown. A scalar's axes are 0 or -1. Values
// unchanged.
func ovSqueeze(c *ctx) error {
	axes := c.In(1)
	if axes != nil {
		if _, _, err := c.RequireRank(axes, 1, 0, 1); err != nil {
			return err
		}
	}
	skip := false
	if c.Version() >= 15 {
		var err error
		if skip, err = ovBool(c, "allow_axis_skip", false); err != nil {
			return err
		}
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if axes == nil || isEmpty(axes) {
		squeezeOnes(c, in)
		return nil
	}
	ax, known := axes.Ints()
	if !known {
		return nil
	}
	set, err := ovAxes(c, ax, max(r, 1))
	if err != nil || r == 0 {
		if err == nil {
			keepValues(c.Out(0, in.Type, in.Shape), in)
		}
		return err
	}
	for i, d := range in.Shape.Dims {
		if set[i] && maybeOne(d) && !isOne(d) && skip {
			return nil
		}
	}
	var dims []sym.Dim
	for i, d := range in.Shape.Dims {
		switch {
		case !set[i] || !maybeOne(d):
			dims = append(dims, d)
		case !isOne(d):
			if _, err := c.Unify(d, sym.Const(1), "dim "+itoa(i)+", which axes squeeze"); err != nil {
				return err
			}
		}
	}
	keepValues(c.Out(0, in.Type, sym.ShapeOf(dims...)), in)
	return nil
}

// ovUnsqueeze: Unsqueeze-1: dims 1 inserted at the axes (input 1, a scalar or 1-D, not empty) of
// the output, repeated axes counted once; values unchanged.
func ovUnsqueeze(c *ctx) error {
	axes, err := c.Input(1)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(axes, 1, 0, 1); err != nil {
		return err
	}
	if isEmpty(axes) {
		return c.Errorf(errcode.ErrInvalidShape, "the axes are empty")
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	ax, known := axes.Ints()
	if !known {
		return nil
	}
	slices.Sort(ax)
	ax = slices.Compact(ax)
	outRank := r + len(ax)
	set, err := ovAxes(c, ax, outRank)
	if err != nil {
		return err
	}
	dims := make([]sym.Dim, 0, outRank)
	k := 0
	for _, isNew := range set {
		if isNew {
			dims = append(dims, sym.Const(1))
			continue
		}
		if k == r {
			return c.Errorf(errcode.ErrInvalidShape, "axes %v name an axis twice", ax)
		}
		dims = append(dims, in.Shape.Dims[k])
		k++
	}
	keepValues(c.Out(0, in.Type, sym.ShapeOf(dims...)), in)
	return nil
}

// ovReshape: Reshape-1, with the rules of package reshape in its OpenVINO dialect over symbolic
// dims: special_zero (required, read by readOVReshape as Result.Reshape reads it), the pattern from
// input 1, of any integer type, 1-D or a scalar (the pattern [1] of a scalar output); values
// unchanged.
func ovReshape(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	opt, err := readOVReshape(c.n)
	if err != nil {
		return err
	}
	opt.PatternType, opt.MaxRank = ins[1].Type, c.MaxRank()
	out, err := reshape.InferSymbolic(ins[0].Shape, ins[1].Shape.Partial(), ins[1].Value, opt)
	if err != nil {
		return err
	}
	if err := requireVolume(c, ins[0].Shape, out, ins[1].Value); err != nil {
		return err
	}
	keepValues(c.Out(0, ins[0].Type, out), ins[0])
	return nil
}

// ovTranspose: Transpose-1: the dims permuted by the order (input 1, 1-D, of the data's rank
// elements or none), reversed when it is empty; values permuted.
func ovTranspose(c *ctx) error {
	perm, n, err := ovVector(c, 1, "order")
	if err != nil {
		return err
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if n > 0 && n != r {
		return c.Errorf(errcode.ErrInvalidShape, "the order has %d elements for data of rank %d", n, r)
	}
	order, known := perm.Ints()
	if !known {
		return nil
	}
	if len(order) == 0 {
		order = nil
	}
	return transposeBy(c, in, order)
}

// ovBroadcastOp: Broadcast-1 (modes numpy, explicit), -3 (and bidirectional): numpy gives the
// target shape (input 1), each dim of the data, aligned at the end, 1 or equal to the target's
// (unified when it cannot be 1); explicit maps data dim i to target axis axes_mapping[i] (input 2)
// under the same rule; bidirectional is the numpy broadcast of both shapes. Values broadcast. The
// pdpd mode gives the declared shape. The target shape is the output's (Broadcast-3's spec), whose
// dims no value may make negative: one that may be is a condition of the node (shapeFromValue).
func ovBroadcastOp(c *ctx) error {
	mode, err := c.String("mode", "numpy")
	if err != nil {
		return err
	}
	data, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, _, err := ovVector(c, 1, "the target shape"); err != nil {
		return err
	}
	if mode != "explicit" && c.NumIn() > 2 && c.In(2) != nil {
		return c.Errorf(errcode.ErrInvalidShape, "axes_mapping (input 2) is for mode explicit, not %s", mode)
	}
	if mode == "explicit" {
		if _, _, err := ovVector(c, 2, "axes_mapping"); err != nil {
			return err
		}
	}
	switch mode {
	case "bidirectional":
		if c.Version() < 3 {
			return c.Errorf(errcode.ErrSyntax, "mode bidirectional is Broadcast-3's")
		}
		return expandTo(c, data)
	case "numpy", "explicit":
	case "pdpd":
		return nil
	default:
		return c.Errorf(errcode.ErrSyntax, "mode %q: want numpy, explicit, bidirectional or pdpd", mode)
	}
	ts, err := shapeFromValue(c, 1)
	if err != nil {
		return err
	}
	r, rok := data.Rank()
	if ts.RankDynamic || !rok {
		return nil
	}
	rt := len(ts.Dims)
	// axis[i] is the target axis of data dim i.
	axis := make([]int, r)
	if mode == "numpy" {
		if r > rt {
			return c.Errorf(errcode.ErrInvalidShape, "the data has rank %d, above the target's %d", r, rt)
		}
		for i := range axis {
			axis[i] = rt - r + i
		}
	} else {
		m, err := c.Input(2)
		if err != nil {
			return err
		}
		am, known := m.Ints()
		if !known {
			return nil
		}
		if len(am) != r {
			return c.Errorf(errcode.ErrInvalidShape, "axes_mapping %v has %d axes, the data has rank %d", am, len(am), r)
		}
		for i, a := range am {
			if a < 0 || a >= int64(rt) || i > 0 && a <= am[i-1] {
				return c.Errorf(errcode.ErrInvalidShape, "axes_mapping %v: want increasing axes of the target, of rank %d", am, rt)
			}
			axis[i] = int(a)
		}
	}
	dims := slices.Clone(ts.Dims)
	aligned := make([]int64, rt) // the data's static dims at their target axes, 1 elsewhere
	for i := range aligned {
		aligned[i] = 1
	}
	for i, d := range data.Shape.Dims {
		a := axis[i]
		if !maybeOne(d) {
			u, err := c.Unify(d, dims[a], "data dim "+itoa(i))
			if err != nil {
				return err
			}
			dims[a] = u
		}
		if n, ok := d.Static(); ok {
			aligned[a] = n
		}
	}
	out := c.Out(0, data.Type, sym.ShapeOf(dims...))
	broadcastValues(out, data, aligned)
	return nil
}

// ovRangeNames names the inputs of Range in errors.
var ovRangeNames = [3]string{"start", "stop", "step"}

// ovRange: Range-1 (the type of start), -4 (output_type): max(ceil((stop-start)/step), 0)
// elements from the scalar inputs start, stop, step, each finite where known, step not 0 (a
// condition where the symbols give it: divisor); at
// Range-4 they are first converted to an integer output_type (floats truncated). Values when all three are known integers and the output
// type is an integer type.
func ovRange(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	t := ins[0].Type
	if c.Version() >= 4 {
		if t, err = ovType(c, "output_type", element.Undefined); err != nil {
			return err
		}
		if t == element.Undefined {
			return c.Errorf(errcode.ErrSyntax, "Range-4 has no output_type")
		}
	}
	for k, in := range ins {
		if _, _, err := c.RequireRank(in, k, 0, 0); err != nil {
			return err
		}
		var f float64
		switch v, ok := in.Ints(); {
		case len(in.Floats) == 1:
			f = in.Floats[0]
		case ok && len(v) == 1:
			f = float64(v[0])
		default:
			continue
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return c.Errorf(errcode.ErrInvalidShape, "%s is %g: want a finite number", ovRangeNames[k], f)
		}
		if k == 2 && f == 0 {
			return c.Errorf(errcode.ErrInvalidShape, "step is 0")
		}
	}
	var args [3]sym.Dim
	var floats [3]float64
	intArgs, floatArgs := true, true
	for k, in := range ins {
		switch {
		case len(in.Value) == 1:
			args[k] = in.Value[0]
			if n, ok := args[k].Static(); ok {
				floats[k] = float64(n)
			} else {
				floatArgs = false
			}
		case len(in.Floats) == 1:
			f := in.Floats[0]
			if isIntegral(t) {
				f = math.Trunc(f)
			}
			floats[k] = f
			if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
				args[k] = sym.Const(int64(f))
			} else {
				intArgs = false
			}
		default:
			intArgs, floatArgs = false, false
		}
	}
	switch {
	case intArgs:
		var err error
		if args[2], err = divisor(c, args[2], "step"); err != nil {
			return err
		}
		n := sym.MaxDims(sym.CeilDivDims(sym.SubDims(args[1], args[0]), args[2]), sym.Const(0))
		out := c.Out(0, t, sym.ShapeOf(n))
		start, ok1 := args[0].Static()
		step, ok2 := args[2].Static()
		if cnt, ok := n.Static(); ok && ok1 && ok2 && isIntegral(t) && cnt <= MaxValue {
			v := make([]sym.Dim, cnt)
			for i := range v {
				v[i] = sym.Const(start + int64(i)*step)
			}
			out.Value = v
		}
	case floatArgs:
		if floats[2] == 0 {
			return c.Errorf(errcode.ErrInvalidShape, "step is 0")
		}
		n := math.Ceil((floats[1] - floats[0]) / floats[2])
		if math.IsNaN(n) || n >= 1<<62 {
			return nil
		}
		c.Out(0, t, sym.Ints(int64(max(n, 0))))
	default:
		c.Out(0, t, sym.ShapeOf(sym.Unknown()))
	}
	return nil
}
