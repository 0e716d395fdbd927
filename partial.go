package reshape

import (
	"strconv"

	"github.com/reshape-go/reshape/shape"
)

// InferPartial returns the output partial shape of Reshape for the partial input shape in and the
// pattern p by the static rules and those of partial shapes (see the package documentation):
// dimension intervals, dynamic rank, pattern values that are intervals, unknown pattern values,
// scalar and empty patterns. For static inputs it gives exactly what Infer gives.
// AppendInferPartial reuses a destination.
//
// Special zeros copy the input interval (or give "?" when the input rank is dynamic); only a static
// 0 is a special zero. A pattern value whose interval reaches below 0 gives "?", as OpenVINO does;
// one whose interval lies wholly below 0 is ErrInvalidDim. The -1 is resolved by interval division:
// equal static dimensions of the two sides cancel, then the interval of the input volume is divided
// by the interval of the other output dimensions. Volumes are compared only where both shapes are
// static. Unknown pattern values of known length n give n dimensions "?"; an unknown length gives a
// dynamic rank.
//
// Errors are those of Infer, plus ErrScalarPattern (a scalar pattern whose value cannot be 1) and
// ErrPatternRank (a pattern tensor of rank 2 or more, or a scalar pattern outside OpenVINO).
func InferPartial(in shape.Shape, p Pattern, opt Options) (shape.Shape, error) {
	return inferPartial(nil, in, p, &opt, nil)
}

// AppendInferPartial is InferPartial writing the output dimensions after dst's length: the result's
// Dims is dst extended, so with enough capacity in dst, and an input rank of at most 64, it does not
// allocate. The input shape and pattern are not modified.
func AppendInferPartial(dst []shape.Dim, in shape.Shape, p Pattern, opt Options) (shape.Shape, error) {
	return inferPartial(dst, in, p, &opt, nil)
}

// Origin says where an output dimension comes from.
type Origin uint8

const (
	Given    Origin = iota // the pattern value itself
	Copied                 // a special zero: the input dimension at the same index
	Inferred               // the -1: input volume divided by the other output dimensions
	Unknown                // the pattern value is unknown
)

var originNames = [...]string{"given", "copied", "inferred", "unknown"}

// String returns "given", "copied", "inferred" or "unknown".
func (o Origin) String() string {
	if int(o) < len(originNames) {
		return originNames[o]
	}
	return "Origin(" + strconv.Itoa(int(o)) + ")"
}

// Source explains one output dimension.
type Source struct {
	Origin Origin
	// Input is the input index a Copied dimension comes from.
	Input int
	// W and R are, for the Inferred dimension, the dividend (the input volume, without the dimensions
	// special zeros copy in the OpenVINO dialect) and the divisor (the product of the other output
	// dimensions), in elements. Cancelled reports that equal static dimensions of the two sides were
	// cancelled first (interval division, see Partial shapes in the package documentation); W and R
	// are then what remained.
	W, R      shape.Dim
	Cancelled bool
}

// Explanation is an inferred output shape with the origin of each of its dimensions.
type Explanation struct {
	Output  shape.Shape
	Sources []Source // one per output dimension; nil for a dynamic rank
}

// Explain is InferPartial that also says, for each output dimension, where it came from.
func Explain(in shape.Shape, p Pattern, opt Options) (Explanation, error) {
	var src []Source
	out, err := inferPartial(nil, in, p, &opt, &src)
	if err != nil {
		return Explanation{}, err
	}
	return Explanation{Output: out, Sources: src}, nil
}

func inferPartial(dst []shape.Dim, in shape.Shape, p Pattern, opt *Options, src *[]Source) (shape.Shape, error) {
	if err := opt.checkTypes(); err != nil {
		return shape.Shape{}, err
	}
	rank, rankKnown := in.Rank()
	values := p.values
	if p.notVector {
		tr, trKnown := p.tensor.Rank()
		switch {
		case p.unknown && !trKnown:
			return shape.DynamicRank(), nil
		case tr >= 2:
			want := "1-D"
			if opt.Dialect == OpenVINO {
				want = "1-D or a scalar"
			}
			return shape.Shape{}, newError(ErrPatternRank, -1, "pattern tensor of shape "+p.tensor.String()+": the pattern must be "+want)
		case tr == 0:
			return inferScalar(dst, in, p, opt)
		}
		// A 1-D pattern of unknown values.
		length := p.tensor.Dims[0]
		if !length.IsStatic() {
			return shape.DynamicRank(), nil
		}
		if length.Lo > 0 {
			if err := opt.checkRanks(rank, int(min(length.Lo, 1<<31))); err != nil {
				return shape.Shape{}, err
			}
			if err := checkInput(in); err != nil {
				return shape.Shape{}, err
			}
			for range length.Lo {
				dst = append(dst, shape.Dynamic)
				if src != nil {
					*src = append(*src, Source{Origin: Unknown})
				}
			}
			return shape.Shape{Dims: dst}, nil
		}
		values = nil // no values: the empty pattern
	}
	if err := opt.checkRanks(rank, len(values)); err != nil {
		return shape.Shape{}, err
	}
	if err := checkInput(in); err != nil {
		return shape.Shape{}, err
	}
	minus, err := scanPartial(values, rank, rankKnown, opt)
	if err != nil {
		return shape.Shape{}, err
	}
	sz := opt.CopiesZeros()
	start := len(dst)
	for i, v := range values {
		d, s := v, Source{Origin: Given}
		switch {
		case i == minus:
			d, s = shape.Dynamic, Source{Origin: Inferred}
		case isSpecialZero(v, sz):
			d, s = shape.Dynamic, Source{Origin: Copied, Input: i}
			if rankKnown {
				d = in.Dims[i]
			}
		case v.Lo < 0:
			d = shape.Dynamic
		}
		dst = append(dst, d)
		if src != nil {
			*src = append(*src, s)
		}
	}
	out := shape.Shape{Dims: dst[start:]}
	vin, err := in.Volume()
	if err != nil {
		return shape.Shape{}, err
	}
	if minus < 0 {
		vout, err := out.Volume()
		if err != nil {
			return shape.Shape{}, err
		}
		if in.IsStatic() && out.IsStatic() && vin != vout {
			return shape.Shape{}, errVolumeMismatch(in.String(), out.String(), vin.String(), vout.String())
		}
		return shape.Shape{Dims: dst}, nil
	}
	d, s, err := inferMinusOne(in, values, out.Dims, minus, opt)
	if err != nil {
		return shape.Shape{}, err
	}
	out.Dims[minus] = d
	if src != nil {
		(*src)[minus] = s
	}
	return shape.Shape{Dims: dst}, nil
}

func checkInput(in shape.Shape) error {
	if in.RankDynamic {
		return nil
	}
	for i, d := range in.Dims {
		if !d.Valid() {
			return errInputDim(i, d.String())
		}
	}
	return nil
}

// isSpecialZero reports whether pattern value v is a special zero: a static 0 with special_zero.
func isSpecialZero(v shape.Dim, sz bool) bool { return sz && v.Lo == 0 && v.Hi == 0 }

// scanPartial is scanStatic for pattern values that may be intervals.
func scanPartial(values []shape.Dim, rank int, rankKnown bool, opt *Options) (minus int, err error) {
	minus = -1
	sz := opt.CopiesZeros()
	zeroInPass := sz && opt.Dialect != OpenVINO && rankKnown
	for i, v := range values {
		switch {
		case v.Lo != v.Hi:
			if v.Hi < 0 {
				return -1, errInvalidInterval(i, v.String())
			}
		case v.Lo < -1:
			return -1, errInvalidDim(i, itoa(v.Lo))
		case v.Lo == -1:
			if minus >= 0 {
				return -1, errMultipleInferred(minus, i)
			}
			minus = i
		case v.Lo == 0 && zeroInPass && i >= rank:
			return -1, errZeroOutOfRange(i, rank)
		}
	}
	if sz && !zeroInPass && rankKnown {
		for i, v := range values[min(rank, len(values)):] {
			if v.Lo == 0 && v.Hi == 0 {
				return -1, errZeroOutOfRange(rank+i, rank)
			}
		}
	}
	return minus, nil
}

// inferScalar handles a scalar (rank-0) pattern: OpenVINO only, holding 1, giving a scalar.
func inferScalar(dst []shape.Dim, in shape.Shape, p Pattern, opt *Options) (shape.Shape, error) {
	if opt.Dialect != OpenVINO {
		return shape.Shape{}, newError(ErrPatternRank, -1, "scalar pattern: "+opt.Dialect.String()+" takes a 1-D pattern")
	}
	if !p.unknown {
		v := p.values[0]
		switch {
		case v.IsStatic() && v.Lo < -1, v.Hi < 0 && !v.IsStatic():
			return shape.Shape{}, errInvalidDim(0, valueString(v))
		case !v.Contains(1):
			return shape.Shape{}, newError(ErrScalarPattern, 0, "scalar pattern = "+valueString(v)+": a scalar pattern must hold 1")
		}
	}
	rank, rankKnown := in.Rank()
	if err := opt.checkRanks(rank, 0); err != nil {
		return shape.Shape{}, err
	}
	if err := checkInput(in); err != nil {
		return shape.Shape{}, err
	}
	if rankKnown && in.IsStatic() {
		v, err := in.Volume()
		if err != nil {
			return shape.Shape{}, err
		}
		if v.Lo != 1 {
			return shape.Shape{}, errVolumeMismatch(in.String(), "[]", v.String(), "1")
		}
	}
	return shape.Shape{Dims: dst[len(dst):]}, nil
}

// inferMinusOne resolves the -1 at index minus of a pattern of known values (static rule 4, and the
// -1 of partial shapes), out holding the other output dimensions already.
func inferMinusOne(in shape.Shape, values, out []shape.Dim, minus int, opt *Options) (shape.Dim, Source, error) {
	sz := opt.CopiesZeros()
	excluded := sz && opt.Dialect == OpenVINO // copied positions on neither side (rule 4)
	var rp shape.Product
	for i, d := range out {
		if i != minus && !(excluded && isSpecialZero(values[i], sz)) {
			rp.Mul(d)
		}
	}
	r0, ok := rp.Result()
	if !ok {
		return shape.Dim{}, Source{}, errOverflow("the product of the output dimensions beside pattern[" + strconv.Itoa(minus) + "] = -1")
	}
	if r0.Hi == 0 {
		return shape.Dim{}, Source{}, errAmbiguous(minus, "0")
	}
	if in.RankDynamic {
		return shape.Dynamic, Source{Origin: Inferred, W: shape.Dynamic, R: r0}, nil
	}
	var wp shape.Product
	for i, d := range in.Dims {
		if !(excluded && i < len(values) && isSpecialZero(values[i], sz)) {
			wp.Mul(d)
		}
	}
	w0, ok := wp.Result()
	if !ok {
		return shape.Dim{}, Source{}, errOverflow("the inferred dimension pattern[" + strconv.Itoa(minus) + "] = -1")
	}
	var copied *shape.Shape // the input, when w0 leaves out dims special zeros copy
	for i := range min(len(values), len(in.Dims)) {
		if excluded && isSpecialZero(values[i], sz) {
			copied = &in
		}
	}
	if w0.IsStatic() && r0.IsStatic() {
		d, err := divideExact(w0, r0, minus, copied)
		return d, Source{Origin: Inferred, W: w0, R: r0}, err
	}

	// Partial shapes: cancel pairs of equal static dimensions (never zeros) between the input side
	// and the other output dimensions, special-zero positions on neither side, then divide the
	// intervals.
	var small [1]uint64
	used := small[:]
	if len(in.Dims) > 64 {
		used = make([]uint64, (len(in.Dims)+63)/64)
	}
	copiedAt := func(i int) bool { return i < len(values) && isSpecialZero(values[i], sz) }
	var wp1, rp1 shape.Product
	for i, d := range out {
		if i == minus || copiedAt(i) {
			continue
		}
		if d.IsStatic() && d.Lo != 0 {
			if j := matchStatic(in.Dims, d.Lo, used, copiedAt); j >= 0 {
				used[j/64] |= 1 << (j % 64)
				continue
			}
		}
		rp1.Mul(d)
	}
	for j, d := range in.Dims {
		if !copiedAt(j) && used[j/64]&(1<<(j%64)) == 0 {
			wp1.Mul(d)
		}
	}
	w, wOK := wp1.Result()
	r, rOK := rp1.Result()
	if !wOK || !rOK { // possible only where a left-out copied dimension could be 0
		return shape.Dim{}, Source{}, errOverflow("the inferred dimension pattern[" + strconv.Itoa(minus) + "] = -1")
	}
	s := Source{Origin: Inferred, W: w, R: r, Cancelled: true}
	if w.IsStatic() && r.IsStatic() {
		d, err := divideExact(w, r, minus, copied)
		return d, s, err
	}
	var lo, hi int64
	switch {
	case w.Lo == 0:
		lo = 0
	case r.Hi == shape.Inf:
		lo = 1
	default:
		lo = w.Lo/r.Hi + min(w.Lo%r.Hi, 1) // ceil(w.Lo / r.Hi), without overflow
	}
	if w.Hi == shape.Inf || r.Lo == 0 {
		hi = shape.Inf
	} else {
		hi = w.Hi / r.Lo
	}
	if lo > hi { // the products before cancelling: the message speaks of the input's volume
		return shape.Dim{}, Source{}, errNotDivisible(minus, w0.String(), r0.String(), shapeString(copied))
	}
	return shape.Dim{Lo: lo, Hi: hi}, s, nil
}

// matchStatic returns the index of an input dimension, not yet used and not copied, that is static
// and equal to v, or -1.
func matchStatic(in []shape.Dim, v int64, used []uint64, copiedAt func(int) bool) int {
	for j, e := range in {
		if e.Lo == v && e.Hi == v && used[j/64]&(1<<(j%64)) == 0 && !copiedAt(j) {
			return j
		}
	}
	return -1
}

// divideExact divides the static products w and r for the -1 at index minus; copied is the input
// when w leaves out the dims special zeros copy, nil otherwise.
func divideExact(w, r shape.Dim, minus int, copied *shape.Shape) (shape.Dim, error) {
	switch {
	case r.Lo == 0:
		return shape.Dim{}, errAmbiguous(minus, "0")
	case w.Lo%r.Lo != 0:
		return shape.Dim{}, errNotDivisible(minus, itoa(w.Lo), itoa(r.Lo), shapeString(copied))
	}
	return shape.Static(w.Lo / r.Lo), nil
}

// shapeString returns the notation of *s, "" for nil.
func shapeString(s *shape.Shape) string {
	if s == nil {
		return ""
	}
	return s.String()
}
