// Package reshape implements the tensor Reshape operation's shape inference exactly as OpenVINO
// Reshape-1, oneDNN Graph StaticReshape-1 and DynamicReshape-1, and ONNX Reshape define it.
//
// Given an input shape, a pattern (the target shape: -1 for the one inferred dimension, 0 for a
// special zero or a literal 0, positive dimensions) and the special_zero attribute, Infer returns
// the output shape of static shapes and InferPartial that of OpenVINO partial shapes (dimension
// intervals such as 2..5, "?", dynamic rank, patterns whose values are intervals or unknown).
// Where the specifications disagree, the Dialect in Options selects whose rule applies; the rules
// are those of NOTES.md §2-§4 in the project's shared notes.
//
// Every invalid reshape is an error that wraps one sentinel per error code (ErrInvalidDim,
// ErrNotDivisible, ...); Code returns the code as the command line prints it, and *Error carries
// the pattern index at fault:
//
//	out, err := reshape.Infer([]int64{2, 5, 4}, []int64{10, -1, 3}, reshape.Options{})
//	if errors.Is(err, reshape.ErrNotDivisible) {
//		// err.Error(): "pattern[1] = -1: input volume 40 is not divisible by 30, ..."
//	}
//
// AppendInfer and AppendInferPartial write into a destination the caller reuses, and then do not
// allocate: they are meant for the hot path of a runtime. All functions are safe for concurrent use.
package reshape
