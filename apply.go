package reshape

import (
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// Apply reshapes the tensor t by the pattern p, the Reshape operation on data: it infers the output
// shape with InferPartial (Options.DataType is set to t's type, so the dialect's data types are
// checked), which must give a static shape, then returns t.ReshapedTo that shape: a view sharing
// t's memory when the layout allows it (see Views in the package documentation), and otherwise one
// dense row-major copy. The element order is logical row-major either way. p holds static values: a
// 1-D pattern, or the scalar pattern of OpenVINO (holding 1, giving a scalar). Apply only reads t,
// so goroutines may reshape one tensor at once.
//
// The errors are those of InferPartial; a pattern whose values are not all static is an error
// wrapping ErrSyntax.
func Apply(t tensor.Tensor, p Pattern, opt Options) (tensor.Tensor, tensor.Method, error) {
	opt.DataType = t.Type()
	values, known := p.Values()
	if !known {
		return tensor.Tensor{}, tensor.Method{}, newError(ErrSyntax, -1, "reshaping data takes a pattern of known values")
	}
	for i, v := range values {
		if !v.IsStatic() {
			return tensor.Tensor{}, tensor.Method{}, newError(ErrSyntax, i, at(i, valueString(v))+": reshaping data takes static pattern values")
		}
	}
	out, err := InferPartial(shape.OfInts(t.Shape()...), p, opt)
	if err != nil {
		return tensor.Tensor{}, tensor.Method{}, err
	}
	dims, ok := out.AppendInts(nil)
	if !ok {
		return tensor.Tensor{}, tensor.Method{}, newError(ErrSyntax, -1, "the output shape "+out.String()+" is not static")
	}
	return t.ReshapedTo(dims...)
}

// ApplyInto reshapes t by the static 1-D pattern as Apply does, writing its result to *dst and
// reusing dst's memory (tensor.Tensor.ReshapedInto), for the hot path of a runtime that keeps its
// output tensors: with enough capacity in dst, a view does not allocate and a copy allocates
// nothing. On error *dst is unchanged. The errors are those of Infer.
func ApplyInto(dst *tensor.Tensor, t tensor.Tensor, pattern []int64, opt Options) (tensor.Method, error) {
	opt.DataType = t.Type()
	var buf [8]int64
	dims, err := AppendInfer(buf[:0], t.Shape(), pattern, opt)
	if err != nil {
		return tensor.Method{}, err
	}
	return t.ReshapedInto(dst, dims)
}
