package reshape

import "github.com/reshape-go/reshape/shape"

// Infer returns the output shape of Reshape for the static input shape in and the static 1-D pattern
// (NOTES.md §2), both in elements. It allocates only the result; AppendInfer reuses a destination.
//
// Errors wrap one sentinel each: ErrInvalidDim (a pattern value below -1, or a negative input
// dimension), ErrMultipleInferred, ErrZeroOutOfRange, ErrAmbiguousInferred, ErrNotDivisible,
// ErrVolumeMismatch, ErrOverflow, ErrDataType and ErrPatternType (Options.DataType and PatternType),
// ErrLimit (Options.MaxRank). Pattern errors are *Error values naming the index and value at fault.
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
	for i, d := range in {
		if d < 0 {
			return dst, errInputDim(i, itoa(d))
		}
	}
	minus, err := scanStatic(pattern, len(in), &opt)
	if err != nil {
		return dst, err
	}
	v, vOK := product(in, nil, -1)
	if !vOK {
		return dst, errOverflow("the volume of input shape " + shape.FormatInts(in))
	}
	start := len(dst)
	for i, p := range pattern {
		if p == 0 && opt.SpecialZero {
			p = in[i]
		}
		dst = append(dst, p)
	}
	out := dst[start:]
	if minus < 0 {
		// Rule 5, strict also with special zeros present; rule 6 for the empty pattern.
		p, ok := product(out, nil, -1)
		if !ok {
			return dst[:start], errOverflow("the volume of output shape " + shape.FormatInts(out))
		}
		if p != v {
			return dst[:start], errVolumeMismatch(shape.FormatInts(in), shape.FormatInts(out), itoa(v), itoa(p))
		}
		return dst, nil
	}
	// Rule 4. In the OpenVINO dialect special-zero positions count on neither side.
	var copied []int64
	if opt.SpecialZero && opt.Dialect == OpenVINO {
		copied = pattern
	}
	w, wOK := product(in, copied, -1)
	r, rOK := product(out, copied, minus)
	switch {
	case !rOK:
		return dst[:start], errOverflow("the product of the output dimensions beside pattern[" + itoa(int64(minus)) + "] = -1")
	case r == 0:
		return dst[:start], errAmbiguous(minus, "0")
	case !wOK:
		return dst[:start], errOverflow("the inferred dimension pattern[" + itoa(int64(minus)) + "] = -1")
	case w%r != 0:
		return dst[:start], errNotDivisible(minus, itoa(w), itoa(r))
	}
	out[minus] = w / r
	return dst, nil
}

// scanStatic applies rules 1-3 of NOTES.md §2 to a static pattern in the dialect's order and returns
// the index of the -1, or -1 when there is none.
func scanStatic(pattern []int64, rank int, opt *Options) (minus int, err error) {
	minus = -1
	zeroInPass := opt.SpecialZero && opt.Dialect != OpenVINO
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
	if opt.SpecialZero && !zeroInPass {
		for i, v := range pattern[min(rank, len(pattern)):] {
			if v == 0 {
				return -1, errZeroOutOfRange(rank+i, rank)
			}
		}
	}
	return minus, nil
}

// product returns the product of dims, leaving out index skip and every index i where
// copied[i] == 0 (the special-zero positions of an OpenVINO pattern); ok is false when it overflows.
// A zero factor makes the product 0 whatever the others are.
func product(dims, copied []int64, skip int) (p int64, ok bool) {
	p, zero, overflow := 1, false, false
	for i, d := range dims {
		if i == skip || (i < len(copied) && copied[i] == 0) {
			continue
		}
		if d == 0 {
			zero = true
		} else if !overflow {
			p, ok = shape.Mul(p, d)
			overflow = !ok
		}
	}
	if zero {
		return 0, true
	}
	return p, !overflow
}
