// Package reshape implements the tensor Reshape operation's shape inference exactly as OpenVINO
// Reshape-1, oneDNN Graph StaticReshape-1 and DynamicReshape-1, and ONNX Reshape define it.
//
// Given an input shape, a pattern (the target shape: -1 for the one inferred dimension, 0 for a
// special zero or a literal 0, positive dimensions) and the special_zero attribute, [Infer] returns
// the output shape of static shapes and [InferPartial] that of OpenVINO partial shapes (dimension
// intervals such as 2..5, "?", dynamic rank, patterns whose values are intervals or unknown).
// [Explain] says where each output dimension comes from, [Translate] rewrites a pattern for another
// dialect, and [Apply] reshapes a [tensor.Tensor]. Where the specifications disagree, the [Dialect]
// in [Options] selects whose rule applies. The rules are written out below, each with the
// specification text it follows.
//
// Every invalid reshape is an error that wraps one sentinel per error code ([ErrInvalidDim],
// [ErrNotDivisible], ...); [Code] returns the code as the command line prints it, and [*Error]
// carries the pattern index at fault:
//
//	out, err := reshape.Infer([]int64{2, 5, 4}, []int64{10, -1, 3}, reshape.Options{})
//	if errors.Is(err, reshape.ErrNotDivisible) {
//		// err.Error(): "pattern[1] = -1: input volume 40 is not divisible by 30, ..."
//	}
//
// [AppendInfer] and [AppendInferPartial] write into a destination the caller reuses, and then do
// not allocate: they are meant for the hot path of a runtime. All functions are safe for concurrent
// use.
//
// # Static rules
//
// The input shape in has rank r and volume V, the product of its dimensions; the pattern p is a
// 1-D tensor of integers. The rules hold in every dialect, except where rule 4 says otherwise.
//
//  1. A value below -1 is [ErrInvalidDim]. OpenVINO Reshape-1, "Detailed description": the values
//     "could be -1, 0 and any positive integer number"; oneDNN Graph StaticReshape-1, attribute
//     "shape": "s64 values where value is no less than -1".
//  2. More than one -1 is [ErrMultipleInferred]. OpenVINO Reshape-1, "Detailed description": "Not
//     more than one -1 can be used"; the same in oneDNN Graph StaticReshape-1 (attribute "shape"),
//     DynamicReshape-1 (input "shape") and ONNX Reshape-14 ("At most one dimension of the new shape
//     can be -1").
//  3. With special_zero, a 0 at index i is a special zero: output dimension i is input dimension i
//     (left aligned), and i >= r is [ErrZeroOutOfRange]. Without special_zero a 0 is a literal 0,
//     and the tensor is empty. OpenVINO Reshape-1, attribute "special_zero": "all zeros in shape
//     implies the copying of corresponding dimensions from data.shape into the output shape (left
//     aligned)", and "index of 0 cannot be larger than the rank of the input tensor" (positions
//     counted from 1: OpenVINO's shape inference refuses a zero at 0-based index i >= r). ONNX
//     Reshape-14, attribute "allowzero": special_zero is !allowzero.
//  4. With one -1: R is the product of the other output dimensions and W the input volume V. R == 0
//     is [ErrAmbiguousInferred]: the -1 is undetermined (oneDNN Graph StaticReshape-1 and
//     DynamicReshape-1, attribute "special_zero": "shape should not contain both 0 and -1 since the
//     target shape cannot be inferred"; ONNX Reshape-14: with allowzero "it is invalid for the
//     specified shape to contain both a zero value and -1"). W not a multiple of R is
//     [ErrNotDivisible]. Otherwise the -1 becomes W / R (OpenVINO Reshape-1: "calculated to keep
//     the overall elements count the same as in the input tensor"). In the OpenVINO dialect only,
//     special-zero positions count on neither side: R leaves out the copied output dimensions and W
//     the input dimensions they copy, as OpenVINO's shape inference does; so [0,3] by 0,-1 with
//     special_zero gives [0,3] in OpenVINO, where oneDNN and ONNX answer [ErrAmbiguousInferred].
//     The dialects agree whenever the copied dimensions are not 0.
//  5. Without -1, an output volume other than V is [ErrVolumeMismatch] (OpenVINO Reshape-1 and
//     oneDNN Graph DynamicReshape-1, "Short description", and StaticReshape-1, "Detailed
//     description": "Input tensor volume is equal to output tensor volume"; ONNX Reshape-14:
//     "required to have the same number of elements"). The check is strict also when special zeros
//     are present, where OpenVINO's shape inference skips it.
//  6. The empty pattern gives a scalar (rank 0), valid only when V == 1 (ONNX Reshape-14: "Shape
//     (second input) could be an empty shape, which means converting to a scalar"). A scalar
//     pattern (a rank-0 pattern tensor) is accepted in the OpenVINO dialect only: it must hold 1,
//     else [ErrScalarPattern], and gives a scalar. OpenVINO Reshape-1, "Inputs", calls the pattern
//     a "1D tensor"; OpenVINO's shape inference also takes a scalar holding 1, and so does this
//     package.
//     Elsewhere a scalar pattern, and in every dialect a pattern tensor of rank 2 or more, is
//     [ErrPatternRank].
//  7. A product that does not fit in an int64 is [ErrOverflow], never a wrapped number.
//  8. The data's order never changes: Reshape reinterprets the elements in logical row-major (C)
//     order (OpenVINO Reshape-1, "Outputs": "the same content as a tensor at input data").
//
// The pattern values are checked left to right as each dialect's reference implementation does:
// OpenVINO reports values below -1 and a second -1 in one pass and out-of-range special zeros in a
// later one; oneDNN and ONNX report the first offending value of any kind. Before any rule, the
// element types in Options are checked against the dialect ([ErrDataType], [ErrPatternType]) and the
// ranks against Options.MaxRank ([ErrLimit]).
//
// # Partial shapes
//
// [InferPartial] takes OpenVINO partial shapes (package shape): a dimension is an interval
// [lo, hi] with 0 <= lo <= hi <= Inf; a shape may have a dynamic rank. The Reshape-1 specification
// does not cover them; the rules follow OpenVINO's shape inference for Reshape-1, and give exactly
// what the static rules give when everything is static.
//
//   - A special zero copies the input interval; with a dynamic input rank it gives "?". Only a
//     static 0 is a special zero.
//   - A pattern value may be an interval (the bounds of a computed shape), written 1..8; -1 is still
//     the inferred marker. An interval that reaches below 0 gives "?", as OpenVINO does; one wholly
//     below 0 is [ErrInvalidDim].
//   - The -1: when the input volume W and the product R of the other output dimensions are both
//     static, rule 4 applies. Otherwise pairs of equal static dimensions of the input side and the
//     output side cancel first (zeros never cancel; special-zero positions are on neither side).
//     Then, with W = [lo, hi] and R = [rlo, rhi] what remains, the -1 is [lo', hi'] where
//     lo' = ceil(lo / rhi) (0 when lo = 0, 1 when rhi = Inf) and hi' = floor(hi / rlo) (Inf when
//     hi = Inf or rlo = 0). R statically 0 is [ErrAmbiguousInferred], an empty interval
//     [ErrNotDivisible]. With a dynamic input rank the -1 gives "?".
//   - Volumes are compared only where both shapes are static.
//   - Unknown pattern values of known count n (oneDNN Graph DynamicReshape-1 before run time, a
//     pattern computed from run-time data) give n dimensions "?"; an unknown count gives a dynamic
//     rank.
//
// # Dialects
//
// The [Dialect] selects the specification. [Options.SpecialZero] is special_zero in OpenVINO and
// oneDNN Graph; ONNX reads [Options.AllowZero], whose zero value is ONNX's default allowzero=0
// (zeros copy), so that Options{Dialect: ONNX} is a Reshape-14 without attributes.
//
//	dialect         specification                  pattern                       data types      special_zero
//	openvino        OpenVINO Reshape-1             input, any integer, rank 1/0  any             required
//	onednn-static   oneDNN Graph StaticReshape-1   s64[] attribute "shape"       f32, f16, bf16  required
//	onednn-dynamic  oneDNN Graph DynamicReshape-1  run-time input, s32           f32, f16, bf16  required
//	onnx            ONNX Reshape-14 and later      1-D int64 input               any             !allowzero (0)
//
// They differ in the element types (the "Types" section of each specification), in the scalar
// pattern (rule 6), in how special zeros beside a -1 count (rule 4), and in the order of the checks.
//
// # Views
//
// [Apply] reshapes data: a view sharing the input's memory when the layout allows it, and otherwise
// one copy into a dense row-major buffer, as numpy's reshape does. A strided tensor can be reshaped
// without a copy if and only if every group of input axes merged into one output axis is
// contiguous within itself: for adjacent axes k, k+1 of a group, stride[k] == dim[k+1]·stride[k+1]
// (axes of size 1 are ignored). Splitting an axis, and adding or removing axes of size 1, is always
// a view. The oneDNN Graph specifications leave view or copy open (StaticReshape-1, "Detailed
// description": "not guaranteed to return a view or a copy"); the element order is the same either
// way (rule 8). [tensor.Tensor.ReshapedTo] applies the rule, and its [tensor.Method] says which it
// chose and why.
//
// # Errors
//
// Every error wraps exactly one sentinel; [Code] returns its code, the string the command line
// prints. The sentinels are those of package errcode, re-exported here.
//
//	code                sentinel              when
//	invalid-dim         ErrInvalidDim         a pattern value below -1 (rule 1), an interval wholly below 0,
//	                                          a negative input dimension
//	multiple-inferred   ErrMultipleInferred   more than one -1 (rule 2)
//	zero-out-of-range   ErrZeroOutOfRange     a special zero at index i >= the input rank (rule 3)
//	ambiguous-inferred  ErrAmbiguousInferred  a -1 beside output dimensions whose product is 0 (rule 4)
//	not-divisible       ErrNotDivisible       a -1 that does not divide the input volume (rule 4)
//	volume-mismatch     ErrVolumeMismatch     without -1, static volumes that differ (rules 5, 6)
//	scalar-pattern      ErrScalarPattern      a scalar pattern that does not hold 1 (rule 6)
//	pattern-rank        ErrPatternRank        a pattern of rank 2 or more; a scalar one outside OpenVINO (rule 6)
//	overflow            ErrOverflow           a product of dimensions, or a number, beyond int64 (rule 7)
//	pattern-type        ErrPatternType        a pattern element type the dialect does not take
//	data-type           ErrDataType           a data element type the dialect does not take
//	syntax              ErrSyntax             notation or a file that cannot be parsed
//	limit               ErrLimit              a configured bound exceeded (Options.MaxRank, file sizes)
//	no-equivalent       ErrNoEquivalent       Translate: another dialect cannot express the reshape exactly
//	invalid-shape       ErrInvalidShape       an operator of a model graph refuses the shapes of its inputs
//	no-kernel           ErrNoKernel           an input type the specification allows and onnxruntime has no
//	                                          kernel for: onnxruntime refuses to load the model
//	binding             ErrBinding            a binding given for a model that binds nothing in it
//	io                  ErrIO                 a file the operating system cannot open, read or write
//
// The codes of rules 1 to 7 are this package's names for the conditions the specifications
// describe; the specifications themselves name no error codes.
package reshape
