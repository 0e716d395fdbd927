package reshape

import (
	"errors"

	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// InferSymbolic is InferPartial over symbolic dimensions (package sym): input dims and pattern
// values that are expressions in a model's symbols keep them in the output, and equal factors
// cancel when the -1 is resolved, so that [N,3,224,224] by a pattern [N,-1] (N taken from the same
// tensor's shape) gives [N,150528] where intervals give [?,?].
//
// The pattern tensor has the shape patternShape and holds values, one sym.Dim each in row-major
// order, or unknown values when values is nil. The rules are those of InferPartial, applied to the
// interval bounds of every dim and value, which give the errors and bound every output dim; an
// output dim then takes an expression where one is known:
//   - a pattern value that is an expression gives itself;
//   - a special zero copies the input dim, expression and all;
//   - the -1 is the exact quotient of the product of the input dims by the product of the other
//     output dims (without the copied dims in the OpenVINO dialect, as in the integer rule), which
//     cancels equal factors; its bounds are those of the interval rule.
//
// Without a -1, input and output volumes that are expressions whose ratio is a constant other
// than 1 are ErrVolumeMismatch.
//
// Symbols stand for positive sizes where the rules must tell a dimension from 0: a pattern value
// that is an expression in symbols is not a special zero, and the product of symbols divides.
// The answer therefore holds at every binding of the symbols to positive sizes; at a binding with
// a size 0, infer again from the bound values.
func InferSymbolic(in sym.Shape, patternShape shape.Shape, values []sym.Dim, opt Options) (sym.Shape, error) {
	// The interval rules run on arrays of the usual ranks, without allocating.
	var ivBuf, inBuf, outBuf [8]shape.Dim
	var srcBuf [8]Source
	var p Pattern
	if values == nil {
		p = UnknownPattern(patternShape)
	} else {
		iv := ivBuf[:0]
		for _, v := range values {
			lo, hi := v.Bounds()
			iv = append(iv, shape.Dim{Lo: lo, Hi: hi})
		}
		var err error
		if p, err = NewPattern(patternShape, iv); err != nil {
			return sym.Shape{}, err
		}
	}
	inPartial := shape.DynamicRank()
	if !in.RankDynamic {
		inPartial = shape.Shape{Dims: inBuf[:0]}
		for _, d := range in.Dims {
			inPartial.Dims = append(inPartial.Dims, d.Shape())
		}
	}
	src := srcBuf[:0]
	out, err := inferPartial(outBuf[:0], inPartial, p, &opt, &src)
	if err != nil {
		return sym.Shape{}, symbolicError(err, in, values, &opt)
	}
	if out.RankDynamic {
		return sym.DynamicRank(), nil
	}
	res := make([]sym.Dim, len(out.Dims))
	minus := -1
	for i, d := range out.Dims {
		res[i] = sym.FromShape(d)
		switch src[i].Origin {
		case Given:
			res[i] = narrowTo(values[i], d)
		case Copied:
			if !in.RankDynamic {
				res[i] = narrowTo(in.Dims[i], d)
			}
		case Inferred:
			minus = i
		}
	}
	excluded := func(i int) bool {
		return opt.CopiesZeros() && opt.Dialect == OpenVINO && i < len(src) && src[i].Origin == Copied
	}
	if minus >= 0 && !in.RankDynamic {
		// The quotient of the products of the input dims (w) and the other output dims (r), less
		// the dims they share, which cancel: [N,64,8,8] to [0,64,-1] divides 4096 by 64, static.
		var wBuf, rBuf [8]sym.Dim
		wd, rd := wBuf[:0], rBuf[:0]
		for i, d := range in.Dims {
			if !excluded(i) {
				wd = append(wd, d)
			}
		}
		for i, d := range res {
			if i != minus && !excluded(i) {
				rd = append(rd, d)
			}
		}
		q := sym.QuoDims(uncommonVolumes(wd, rd))
		if e, ok := q.Expr(); ok {
			if _, den, ok := sym.Ratio(e, sym.Int(1)); ok && den != 1 {
				copied := "" // the input, when w leaves out dims special zeros copy
				for i := range in.Dims {
					if excluded(i) {
						copied = in.String()
					}
				}
				w, r := sym.ShapeOf(wd...).Volume(), sym.ShapeOf(rd...).Volume()
				return sym.Shape{}, errNotDivisible(minus, w.String(), r.String(), copied)
			}
		}
		res[minus] = narrowTo(q, out.Dims[minus])
	}
	if minus < 0 && !in.RankDynamic && values != nil {
		vin, vout := uncommonVolumes(in.Dims, res)
		ein, ok1 := vin.Expr()
		eout, ok2 := vout.Expr()
		if ok1 && ok2 {
			if num, den, ok := sym.Ratio(ein, eout); ok && num != den {
				vin, vout = sym.ShapeOf(in.Dims...).Volume(), sym.ShapeOf(res...).Volume()
				return sym.Shape{}, errVolumeMismatch(in.String(), sym.ShapeOf(res...).String(), vin.String(), vout.String())
			}
		}
	}
	return sym.ShapeOf(res...), nil
}

// uncommonVolumes returns the products of the dims of a and of b less the dims they share (equal
// expressions, taken in pairs), whose ratio is that of their volumes: [B,T,768] and [B,T,12,64]
// multiply 768 and 12·64 only, static dims that need no expression.
func uncommonVolumes(a, b []sym.Dim) (va, vb sym.Dim) {
	var used uint64 // the dims of b paired with one of a, for the first 64
	va, vb = sym.Const(1), sym.Const(1)
	for _, d := range a {
		if _, static := d.Static(); !static {
			if j := pairOf(d, b, used); j >= 0 {
				used |= 1 << j
				continue
			}
		}
		va = sym.MulDims(va, d)
	}
	for j, d := range b {
		if j >= 64 || used&(1<<j) == 0 {
			vb = sym.MulDims(vb, d)
		}
	}
	return va, vb
}

// pairOf returns the index of the first dim of b among the first 64 that is not used and equals
// d, -1 when none does.
func pairOf(d sym.Dim, b []sym.Dim, used uint64) int {
	for j, e := range b[:min(len(b), 64)] {
		if used&(1<<j) == 0 && d.Equal(e) {
			return j
		}
	}
	return -1
}

// narrowTo returns v with the bounds of d, or d alone when v's bounds and d's do not meet.
func narrowTo(v sym.Dim, d shape.Dim) sym.Dim {
	if n, ok := v.Narrow(d.Lo, d.Hi); ok {
		return n
	}
	return sym.FromShape(d)
}

// symbolicError returns err, an error of the interval rules, in the terms of the symbolic input in
// and pattern values: a -1 that does not divide says which symbolic products do not divide
// ("input volume 48*B"), where the intervals would name their bounds.
func symbolicError(err error, in sym.Shape, values []sym.Dim, opt *Options) error {
	var e *Error
	if !errors.As(err, &e) || e.Err != ErrNotDivisible || e.Index < 0 || e.Index >= len(values) || in.RankDynamic {
		return err
	}
	sz := opt.CopiesZeros()
	excluded := sz && opt.Dialect == OpenVINO
	w, r := sym.Const(1), sym.Const(1)
	copied := ""
	for i, v := range values {
		zero := false
		if n, ok := v.Static(); ok && n == 0 && sz && i < len(in.Dims) {
			zero, v = true, in.Dims[i]
		}
		switch {
		case zero && excluded:
			copied = in.String()
		case i != e.Index:
			r = sym.MulDims(r, v)
		}
	}
	for i, d := range in.Dims {
		if n, ok := valueAt(values, i); !(excluded && ok && n == 0) {
			w = sym.MulDims(w, d)
		}
	}
	return errNotDivisible(e.Index, w.String(), r.String(), copied)
}

// valueAt returns the static value of values[i]; ok is false when there is none.
func valueAt(values []sym.Dim, i int) (int64, bool) {
	if i >= len(values) {
		return 0, false
	}
	return values[i].Static()
}
