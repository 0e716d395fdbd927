package reshape

import (
	"math"
	"strconv"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/shape"
)

// Translate rewrites the pattern p and the options from of one dialect into the dialect to, so that
// for every input shape inside in (shape.DynamicRank() when nothing is known of it) the two reshapes
// give the same output shape, or both fail. Whether zeros copy carries over as it is
// (Options.CopiesZeros): special_zero in OpenVINO and oneDNN Graph, its inverse allowzero in ONNX
// (Options.AllowZero). What differs between the dialects is handled as follows:
//
//   - Beside a -1, OpenVINO counts the dimensions that special zeros copy on neither side, oneDNN and
//     ONNX on both (static rule 4): the two agree unless a copied dimension is 0. When one may be 0
//     (a zero of the pattern, or a value known by bounds that holds 0, where the input dim's
//     interval holds 0 or the input rank is unknown) there is no equivalent, unless in is static:
//     the output shape itself, without special zeros, is then the translation (and an invalid
//     reshape returns its error). A pattern without zeros translates as it is.
//   - A scalar pattern (OpenVINO only) holding 1 becomes the empty 1-D pattern in the other
//     dialects, and stays a scalar pattern in OpenVINO.
//   - oneDNN StaticReshape takes only static values (an s64[] attribute), DynamicReshape values that
//     fit its s32 input; oneDNN's data types are f32, f16 and bf16 (from.DataType, when set).
//
// It returns the translated pattern and options, with Options.PatternType set to the target's
// pattern type when from.PatternType was set. The error wraps ErrNoEquivalent, with the reason, when
// no exact equivalent exists.
func Translate(p Pattern, from Options, to Dialect, in shape.Shape) (Pattern, Options, error) {
	sz := from.CopiesZeros()
	out := from
	out.Dialect = to
	out = out.WithSpecialZero(sz)
	if to >= numDialects {
		return Pattern{}, out, newError(ErrSyntax, -1, "unknown dialect "+to.String())
	}
	if err := to.CheckDataType(from.DataType); err != nil {
		return Pattern{}, out, noEquivalent(-1, err.Error())
	}
	if from.PatternType != element.Undefined && to != OpenVINO {
		out.PatternType = element.I64
		if to == OneDNNDynamic {
			out.PatternType = element.I32
		}
	}
	values, known := p.Values()
	switch {
	case p.IsScalar() && to == OpenVINO:
		return p, out, nil
	case p.IsScalar():
		if !known || !values[0].IsStatic() || values[0].Lo != 1 {
			return Pattern{}, out, noEquivalent(0, "a scalar pattern that may not hold 1 is an error in openvino and has no form in "+to.String())
		}
		return PatternOf(), out, nil
	case !known && to == OneDNNStatic:
		return Pattern{}, out, noEquivalent(-1, "onednn-static takes its pattern as an attribute: the values must be known")
	case !known:
		if sz && from.Dialect != to && differsBesideMinusOne(from.Dialect, to) {
			return Pattern{}, out, noEquivalent(-1, "the values are unknown: special zeros beside a -1 count differently in "+from.Dialect.String()+" and "+to.String())
		}
		return p, out, nil
	}
	vals := append([]shape.Dim(nil), values...)
	for i, v := range vals {
		switch {
		case to == OneDNNStatic && !v.IsStatic():
			return Pattern{}, out, noEquivalent(i, "onednn-static takes static values, pattern["+strconv.Itoa(i)+"] is "+v.String())
		case to == OneDNNDynamic && (v.Lo < math.MinInt32 || v.Hi > math.MaxInt32):
			return Pattern{}, out, noEquivalent(i, "onednn-dynamic takes s32 values, pattern["+strconv.Itoa(i)+"] = "+valueString(v)+" may not fit")
		}
	}
	if !sz || !hasMinusOne(vals) || !differsBesideMinusOne(from.Dialect, to) {
		return PatternOf(vals...), out, nil
	}
	// Special zeros beside a -1: the dialects agree unless a zero copies an input dimension that
	// may be 0. A zero past the input rank is zero-out-of-range in both.
	rank, rankKnown := in.Rank()
	agree := true
	for i, v := range vals {
		mayBeZero := v.Lo <= 0 && v.Hi >= 0
		if mayBeZero && (!rankKnown || i < rank && in.Dims[i].Lo == 0) {
			agree = false
		}
	}
	if agree {
		return PatternOf(vals...), out, nil
	}
	if !in.IsStatic() {
		return Pattern{}, out, noEquivalent(-1, "special zeros beside -1 copy input dimensions that may be 0 at run time: "+
			from.Dialect.String()+" and "+to.String()+" differ when they are")
	}
	// One input shape: its output, written out, means the same in every dialect.
	res, err := InferPartial(in, PatternOf(vals...), from)
	if err != nil {
		return Pattern{}, out, err
	}
	return PatternOf(res.Dims...), out.WithSpecialZero(false), nil
}

// differsBesideMinusOne reports whether two dialects count copied dimensions beside a -1 differently.
func differsBesideMinusOne(a, b Dialect) bool { return (a == OpenVINO) != (b == OpenVINO) }

func hasMinusOne(vals []shape.Dim) bool {
	for _, v := range vals {
		if v.Lo == -1 && v.Hi == -1 {
			return true
		}
	}
	return false
}

func noEquivalent(i int, why string) error { return newError(ErrNoEquivalent, i, why) }
