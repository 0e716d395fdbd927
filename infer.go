package reshape

import (
	"github.com/reshape-go/reshape/shape"
)

// Infer returns the output shape of Reshape for the static input shape in and the static 1-D pattern
// by the static rules of the package documentation, both in elements. It allocates only the result;
// AppendInfer reuses a destination.
//
// Errors wrap one sentinel each: ErrInvalidDim (a pattern value below -1, or a negative input
// dimension), ErrMultipleInferred, ErrZeroOutOfRange, ErrAmbiguousInferred, ErrNotDivisible,
// ErrVolumeMismatch, ErrOverflow, ErrDataType and ErrPatternType (Options.DataType and PatternType),
// ErrLimit (the bound Options.MaxRank sets). Pattern errors are *Error values naming the index and value at fault.
// Pattern values are checked left to right as each dialect's reference does: OpenVINO reports
// values below -1 and a second -1 in one pass and out-of-range special zeros in a later one; oneDNN
// and ONNX report the first offending value of any kind.
func Infer(in, pattern []int64, opt Options) ([]int64, error) {
	return AppendInfer(make([]int64, 0, len(pattern)), in, pattern, opt)
}

// AppendInfer is Infer appending the output shape to dst: it returns dst extended by len(pattern)
// dimensions, or dst unchanged with an error. With enough capacity in dst it does not allocate.
func AppendInfer(dst, in, pattern []int64, opt Options) ([]int64, error) {
	if err := opt.checkTypes(); err != nil {
		return dst, err
	}
	if err := opt.checkRanks(len(in), len(pattern)); err != nil {
		return dst, err
	}
	// One pass over the input: its volume V, and W, the volume without the dimensions special
	// zeros copy, which the OpenVINO dialect divides (rule 4).
	sz := opt.CopiesZeros()
	excluded := sz && opt.Dialect == OpenVINO
	var v, w volume
	for i, d := range in {
		if d < 0 {
			return dst, errInputDim(i, itoa(d))
		}
		v.mul(d)
		if !excluded || i >= len(pattern) || pattern[i] != 0 {
			w.mul(d)
		}
	}
	minus, err := scanStatic(pattern, len(in), &opt)
	if err != nil {
		return dst, err
	}
	if v.over && !v.zero {
		return dst, errOverflow("the volume of input shape " + shape.FormatInts(in))
	}
	if !excluded {
		w = v
	}
	// One pass over the pattern: the output dims, and R, the product of the output dimensions
	// beside the -1 (without the copied ones in the OpenVINO dialect).
	start := len(dst)
	var r volume
	for i, p := range pattern {
		if p == 0 && sz {
			p = in[i]
			if excluded {
				dst = append(dst, p)
				continue
			}
		}
		dst = append(dst, p)
		if i != minus {
			r.mul(p)
		}
	}
	out := dst[start:]
	if minus < 0 {
		// Rule 5, strict also with special zeros present; rule 6 for the empty pattern.
		var p volume
		for _, d := range out {
			p.mul(d)
		}
		switch {
		case p.over && !p.zero:
			return dst[:start], errOverflow("the volume of output shape " + shape.FormatInts(out))
		case p.value() != v.value():
			return dst[:start], errVolumeMismatch(shape.FormatInts(in), shape.FormatInts(out), itoa(v.value()), itoa(p.value()))
		}
		return dst, nil
	}
	switch {
	case r.over && !r.zero:
		return dst[:start], errOverflow("the product of the output dimensions beside pattern[" + itoa(int64(minus)) + "] = -1")
	case r.value() == 0:
		return dst[:start], errAmbiguous(minus, "0")
	case w.over && !w.zero:
		return dst[:start], errOverflow("the inferred dimension pattern[" + itoa(int64(minus)) + "] = -1")
	}
	q := w.value() / r.value()
	if q*r.value() != w.value() {
		copied := ""
		if excluded && w != v {
			copied = shape.FormatInts(in)
		}
		return dst[:start], errNotDivisible(minus, itoa(w.value()), itoa(r.value()), copied)
	}
	out[minus] = q
	return dst, nil
}

// volume accumulates a product of non-negative dimensions: a zero factor makes it 0 whatever the
// others are, and an overflow is remembered rather than wrapped.
type volume struct {
	p          int64
	zero, over bool
	started    bool
}

func (a *volume) mul(d int64) {
	if !a.started {
		a.p, a.started = 1, true
	}
	if d == 0 {
		a.zero = true
		return
	}
	p, ok := shape.Mul(a.p, d)
	a.over = a.over || !ok
	a.p = p
}

// value returns the product; meaningful only when it did not overflow or is zero.
func (a *volume) value() int64 {
	switch {
	case a.zero:
		return 0
	case !a.started:
		return 1
	}
	return a.p
}

// scanStatic applies static rules 1-3 to a static pattern in the dialect's order and returns
// the index of the -1, or -1 when there is none.
func scanStatic(pattern []int64, rank int, opt *Options) (minus int, err error) {
	minus = -1
	sz := opt.CopiesZeros()
	zeroInPass := sz && opt.Dialect != OpenVINO
	for i, v := range pattern {
		switch {
		case v < -1:
			return -1, errInvalidDim(i, itoa(v))
		case v == -1:
			if minus >= 0 {
				return -1, errMultipleInferred(minus, i)
			}
			minus = i
		case v == 0 && zeroInPass && i >= rank:
			return -1, errZeroOutOfRange(i, rank)
		}
	}
	if sz && !zeroInPass {
		for i, v := range pattern[min(rank, len(pattern)):] {
			if v == 0 {
				return -1, errZeroOutOfRange(rank+i, rank)
			}
		}
	}
	return minus, nil
}
