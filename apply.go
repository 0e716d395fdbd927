package reshape

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// Apply reshapes the tensor t by the pattern p, the Reshape operation on data: it infers the output
// shape with ApplyShape (which checks t's element type against the dialect), then returns
// t.ReshapedTo that shape: a view sharing t's memory when the layout allows it (see Views in the
// package documentation), and otherwise one dense row-major copy. The element order is logical
// row-major either way. Apply only reads t, so goroutines may reshape one tensor at once. A view
// allocates once (its shape and strides).
//
// The errors are those of ApplyShape.
func Apply(t tensor.Tensor, p Pattern, opt Options) (out tensor.Tensor, m tensor.Method, err error) {
	if oneDNN(opt.Dialect) {
		opt.DataType = t.Type() // the other dialects take any type: leaving it out saves a copy of t
	}
	if values, known := p.Values(); known && !p.notVector && len(values) <= quickRank {
		var pattern, buf [quickRank]int64
		static := true
		for i, v := range values {
			pattern[i] = v.Lo
			static = static && v.IsStatic()
		}
		if static {
			if dims, ok := quickInfer(&buf, t.Shape(), pattern[:len(values)], &opt); ok {
				// Into the result: ReshapedTo would return a Tensor to copy once more.
				m, err = t.ReshapedInto(&out, dims)
				return out, m, err
			}
		}
	}
	opt.DataType = t.Type()
	dims, err := ApplyShape(t.Shape(), p, opt)
	if err != nil {
		return tensor.Tensor{}, tensor.Method{}, err
	}
	return t.ReshapedTo(dims...)
}

// ApplyShape returns the shape, in elements, that reshaping data of the static shape in by the
// pattern p gives (InferPartial, with Options.DataType checked against the dialect when set): the
// output shape of Apply, for a caller that moves the data itself, such as one streaming a file. p
// holds static values: a 1-D pattern, or the scalar pattern of OpenVINO (holding 1, giving a
// scalar).
//
// The errors are those of InferPartial; a pattern whose values are not all static is an error
// wrapping ErrSyntax.
func ApplyShape(in []int64, p Pattern, opt Options) ([]int64, error) {
	values, known := p.Values()
	if !known {
		return nil, newError(ErrSyntax, -1, "reshaping data takes a pattern of known values")
	}
	for i, v := range values {
		if !v.IsStatic() {
			return nil, newError(ErrSyntax, i, at(i, valueString(v))+": reshaping data takes static pattern values")
		}
	}
	out, err := InferPartial(shape.OfInts(in...), p, opt)
	if err != nil {
		return nil, err
	}
	dims, _ := out.AppendStatic(make([]int64, 0, len(out.Dims))) // static, as the input and the values are
	return dims, nil
}

// PatternFromTensor returns the pattern that the integer tensor t holds, in row-major order, and
// its element type, for Options.PatternType: a 1-D tensor is a 1-D pattern, a scalar is a scalar
// pattern (OpenVINO's, which the other dialects refuse when inferring), and a tensor of rank 2 or
// more keeps its shape, for inference to refuse with ErrPatternRank. It is how a pattern read from
// a file (a .npy array, an ONNX TensorProto) becomes one. Errors wrap ErrPatternType for a type that
// is not an integer type, and ErrOverflow for a u64 value above math.MaxInt64.
func PatternFromTensor(t tensor.Tensor) (Pattern, element.Type, error) {
	if !t.Type().IsInteger() {
		return Pattern{}, t.Type(), newError(ErrPatternType, -1, "pattern element type "+t.Type().String()+" is not an integer type")
	}
	b, _ := t.Contiguous().Bytes()
	ints, err := t.Type().DecodeInts(make([]int64, 0, t.Len()), b, int(t.Len()))
	if err != nil { // the data is whole: only a u64 value can be out of range (ErrOverflow)
		return Pattern{}, t.Type(), fmt.Errorf("pattern %w", err)
	}
	values := make([]shape.Dim, len(ints))
	for i, v := range ints {
		values[i] = shape.Static(v)
	}
	p, err := NewPattern(shape.OfInts(t.Shape()...), values)
	return p, t.Type(), err
}

// ApplyInto reshapes t by the static 1-D pattern as Apply does, writing its result to *dst and
// reusing dst's memory (tensor.Tensor.ReshapedInto), for the hot path of a runtime that keeps its
// output tensors: with enough capacity in dst, a view does not allocate and a copy allocates
// nothing. On error *dst is unchanged. The errors are those of Infer.
func ApplyInto(dst *tensor.Tensor, t tensor.Tensor, pattern []int64, opt Options) (tensor.Method, error) {
	if oneDNN(opt.Dialect) {
		// The other dialects take any data type: leaving it out of opt changes no answer, and
		// saves a copy of t (each method call on a Tensor value copies it).
		opt.DataType = t.Type()
	}
	var buf [quickRank]int64
	dims, ok := quickInfer(&buf, t.Shape(), pattern, &opt)
	if !ok {
		var err error
		if dims, err = AppendInfer(buf[:0], t.Shape(), pattern, opt); err != nil {
			return tensor.Method{}, err
		}
	}
	return t.ReshapedInto(dst, dims)
}

// quickRank is the largest output rank quickInfer takes.
const quickRank = 8

// quickInfer is AppendInfer for the usual case, written into buf: a pattern of at most quickRank
// values, an input with elements, every output dimension positive, no limit or type in question.
// ok is false for anything else, errors included, which AppendInfer then reports; when ok is true
// the output is the one AppendInfer gives (in the OpenVINO dialect, leaving the copied dimensions
// out of both sides of the division changes nothing when none of them is 0).
func quickInfer(buf *[quickRank]int64, in, pattern []int64, opt *Options) ([]int64, bool) {
	if m := opt.maxRank(); len(pattern) > quickRank || len(in) > m || len(pattern) > m ||
		opt.Dialect >= numDialects || opt.AllowZero || opt.PatternType != element.Undefined || !opt.Dialect.takesData(opt.DataType) {
		return nil, false
	}
	sz := opt.CopiesZeros()
	// The input volume V, which must be positive.
	v := uint64(1)
	for _, d := range in {
		hi, lo := bits.Mul64(v, uint64(d))
		if d <= 0 || hi != 0 || lo > math.MaxInt64 {
			return nil, false
		}
		v = lo
	}
	// The output dims beside the -1, and R, their product, at most V.
	out := buf[:len(pattern)]
	r, minus := uint64(1), -1
	for i, p := range pattern {
		switch {
		case p == -1 && minus < 0:
			minus = i
			continue
		case p == 0 && sz && i < len(in):
			p = in[i]
		case p <= 0 || p == math.MaxInt64:
			return nil, false
		}
		hi, lo := bits.Mul64(r, uint64(p))
		if hi != 0 || lo > v {
			return nil, false
		}
		r = lo
		out[i] = p
	}
	if minus < 0 {
		return out, r == v
	}
	q := v / r
	if q*r != v {
		return nil, false
	}
	out[minus] = int64(q)
	return out, true
}
