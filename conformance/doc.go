// Package conformance reads and runs Reshape conformance cases: JSON Lines, one case per line, each
// answered by shape inference ([reshape.InferPartial]).
//
// # The case format
//
// A line is a JSON object with the fields
//
//	name           the case's name, repeated in the answer
//	source         where the case comes from (not used to run it)
//	dialect        "openvino" (when absent), "onednn-static", "onednn-dynamic" or "onnx"
//	input          the input partial shape, in the notation of package shape: "[2,?,1..8]"
//	pattern        comma-separated values ("0,-1,4"; intervals "1..8"), "" for the empty pattern,
//	               or null when only the pattern's shape is known
//	special_zero   true or false; required except in the onnx dialect
//	allowzero      0 or 1, onnx only, in place of special_zero (0 when both are absent)
//	pattern_shape  the pattern tensor's shape: "[]" for a scalar pattern, "[3]" for three values
//	element_type   the data element type checked against the dialect ("f32", "bf16", ...)
//	pattern_type   the pattern element type checked against the dialect ("i64", "i32", ...)
//	output         the expected output shape, or
//	error          the expected error code, as reshape.Code returns it ("not-divisible", ...)
//
// Other fields are ignored. The answer to a case ([Result]) is {"name":...,"output":"[2,150,4]"}
// or {"name":...,"error":"not-divisible","message":"..."}. The module's own cases are in
// testdata/cases.jsonl; the shared conformance data holds more in conformance/cases.jsonl.
package conformance
