package graph

import "github.com/reshape-go/reshape/element"

// The sets of element types OpenVINO's operation specifications name, as its validation of a node
// checks them (element::Type's is_real, is_integral_number).
const (
	// irAny is every element type.
	irAny typeSet = 1<<element.Boolean | irNumeric | 1<<element.String
	// irReal is the floating-point types ("T: any supported floating-point type").
	irReal typeSet = 1<<element.NF4 | 1<<element.F8E4M3 | 1<<element.F8E5M2 | 1<<element.F16 | 1<<element.BF16 |
		1<<element.F32 | 1<<element.F64
	// irInt is the integer types ("an integral number", boolean not included).
	irInt typeSet = 1<<element.U1 | 1<<element.U4 | 1<<element.I4 | 1<<element.U8 | 1<<element.I8 | 1<<element.U16 |
		1<<element.I16 | 1<<element.U32 | 1<<element.I32 | 1<<element.U64 | 1<<element.I64
	// irNumeric is the numbers, real or integer ("any numeric type").
	irNumeric typeSet = irReal | irInt
	// irNotBool is every type but boolean: what the arithmetic operations refuse is boolean
	// ("Arguments cannot have boolean element type").
	irNotBool typeSet = irAny &^ (1 << element.Boolean)
	// irI32I64 is i32 and i64 ("T_IND: i32 or i64").
	irI32I64 typeSet = 1<<element.I32 | 1<<element.I64
	// irBool is boolean alone (the logical operations).
	irBool typeSet = 1 << element.Boolean
	// irScalesOrSizes is what Interpolate-11's second input takes: scales (f32, f16, bf16) or sizes
	// (i32, i64, u32, u64), which of them its shape_calculation_mode attribute says.
	irScalesOrSizes typeSet = irScales | irSizes
	// irScales and irSizes are the types of Interpolate-11's scales and of its sizes.
	irScales typeSet = 1<<element.F16 | 1<<element.BF16 | 1<<element.F32
	irSizes  typeSet = 1<<element.I32 | 1<<element.I64 | 1<<element.U32 | 1<<element.U64
	// irFakeConvert is what FakeConvert takes: f16, bf16 or f32.
	irFakeConvert typeSet = 1<<element.F16 | 1<<element.BF16 | 1<<element.F32
	// irYUV is what the YUV to RGB conversions take: u8 or a floating-point type.
	irYUV typeSet = 1<<element.U8 | irReal
)

// irOp returns the type signatures of the OpenVINO operation name.
func irOp(name string, sigs ...typeSig) typeOp { return typeOp{DomainOpenVINO, name, sigs} }

// irSig returns the signature of an operation version from since on: its inputs in port order,
// each a name and the type set of its own variable, or, for a name listed in same, the variable
// it shares with the other inputs of that name ("T").
func irSig(since int64, ins ...irIn) typeSig {
	s := typeSig{since: since, version: since}
	shared := map[string]uint8{}
	for _, in := range ins {
		v, ok := shared[in.shared]
		if !ok || in.shared == "" {
			v = uint8(len(s.vars))
			s.vars = append(s.vars, typeVar{name: in.shared, tensor: in.types})
			if in.shared != "" {
				shared[in.shared] = v
			}
		}
		s.in = append(s.in, typeParam{name: in.name, v: v, opt: in.opt})
	}
	return s
}

// irIn is an input of irSig: its name, the type variable it shares ("" for one of its own), the
// types of that variable, and how many tensors it stands for.
type irIn struct {
	name, shared string
	types        typeSet
	opt          paramOption
}

// inOwn returns an input of a variable of its own, inOf one of the shared variable t, inMany a
// variadic input of t, inMaybe and inMaybeOf optional ones.
func inOwn(name string, types typeSet) irIn   { return irIn{name: name, types: types} }
func inOf(name, t string, types typeSet) irIn { return irIn{name: name, shared: t, types: types} }
func inMany(name, t string, types typeSet) irIn {
	return irIn{name: name, shared: t, types: types, opt: variadicIn}
}
func inMaybe(name string, types typeSet) irIn { return irIn{name: name, types: types, opt: optionalIn} }
func inMaybeOf(name, t string, types typeSet) irIn {
	return irIn{name: name, shared: t, types: types, opt: optionalIn}
}

// irUnary returns the operations of one input of types from version since.
func irUnary(types typeSet, since int64, names ...string) []typeOp {
	ops := make([]typeOp, len(names))
	for i, n := range names {
		ops[i] = irOp(n, irSig(since, inOwn("arg", types)))
	}
	return ops
}

// irBinary returns the elementwise operations of two inputs of one type of types, from version 1.
func irBinary(types typeSet, names ...string) []typeOp {
	ops := make([]typeOp, len(names))
	for i, n := range names {
		ops[i] = irOp(n, irSig(1, inOf("a", "T", types), inOf("b", "T", types)))
	}
	return ops
}

// openvinoTypes holds the type signatures of OpenVINO's operations, by name: the element types
// their specifications (docs.openvino.ai, operation-specs) allow for each input, as OpenVINO's
// validation of a node checks them (its type_prop tests, testdata/openvino_typeprop, measure the
// table). An operation not listed is not checked.
var openvinoTypes = concatOps(
	irUnary(irNotBool, 1, "Abs", "Acos", "Asin", "Atan", "Ceiling", "Cos", "Cosh", "Erf", "Exp", "Floor", "Log",
		"Negative", "ReLU", "Sigmoid", "Sign", "Sin", "Sinh", "Sqrt", "Tan", "Tanh"),
	irUnary(irNotBool, 3, "Acosh", "Asinh", "Atanh"),
	irUnary(irNotBool, 5, "Round"),
	irUnary(irNumeric, 1, "Clamp"),
	irUnary(irReal, 2, "Gelu"),
	irUnary(irReal, 4, "HSwish", "Mish", "SoftPlus"),
	irUnary(irReal, 5, "HSigmoid"),
	irUnary(irReal, 9, "SoftSign"),
	irBinary(irNotBool, "Add", "Subtract", "Multiply", "Divide", "FloorMod", "Mod", "Maximum", "Minimum", "Power",
		"SquaredDifference"),
	irBinary(irAny, "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "MatMul"),
	irBinary(irBool, "LogicalAnd", "LogicalOr", "LogicalXor"),
	[]typeOp{
		irOp("Swish", irSig(4, inOf("data", "T", irReal), inMaybeOf("beta", "T", irReal))),
		irOp("Selu", irSig(1, inOf("data", "T", irReal), inOf("alpha", "T", irReal), inOf("lambda", "T", irReal))),
		irOp("BatchNormInference", irSig(1, inMany("input", "T", irReal))),
		irOp("Select", irSig(1, inOwn("cond", irBool), inOf("then", "T", irAny), inOf("else", "T", irAny))),
		irOp("Concat", irSig(1, inMany("args", "T", irAny))),
		irOp("Gather", irSig(7, inOwn("data", irAny), inOwn("indices", irInt), inOwn("axis", irInt))),
		irOp("GatherElements", irSig(6, inOwn("data", irAny), inOwn("indices", irI32I64))),
		irOp("Bucketize", irSig(3, inOwn("data", irNumeric), inOwn("buckets", irNumeric))),
		irOp("ReverseSequence", irSig(1, inOwn("data", irAny), inOwn("seq_lengths", irNumeric))),
		irOp("ExperimentalDetectronTopKROIs", irSig(6, inOf("input_rois", "T", irReal), inOf("rois_probs", "T", irReal))),
		irOp("SearchSorted", irSig(15, inOf("sorted_sequence", "T", irAny), inOf("values", "T", irAny))),
		irOp("GatherTree", irSig(1, inOf("step_ids", "T", irNumeric), inOf("parent_idx", "T", irNumeric),
			inOf("max_seq_len", "T", irNumeric), inOf("end_token", "T", irNumeric))),
		irOp("GatherND", irSig(5, inOwn("data", irAny), inOwn("indices", irInt))),
		irOp("Broadcast", irSig(1, inOwn("data", irAny), inOwn("target_shape", irInt), inMaybe("axes_mapping", irInt))),
		irOp("Pad", irSig(1, inOf("arg", "T", irAny), inOwn("pads_begin", irInt), inOwn("pads_end", irInt),
			inMaybeOf("pad_value", "T", irAny))),
		irOp("Range",
			irSig(1, inOwn("start", irNotBool), inOwn("stop", irNotBool), inOwn("step", irNotBool)),
			irSig(4, inOwn("start", irNumeric), inOwn("stop", irNumeric), inOwn("step", irNumeric))),
		irOp("Slice", irSig(8, inOwn("data", irAny), inOwn("start", irInt), inOwn("stop", irInt), inOwn("step", irInt),
			inMaybe("axes", irInt))),
		irOp("StridedSlice", irSig(1, inOwn("data", irAny), inOwn("begin", irInt), inOwn("end", irInt), inMaybe("stride", irInt))),
		irOp("Split", irSig(1, inOwn("data", irAny), inOwn("axis", irInt))),
		irOp("VariadicSplit", irSig(1, inOwn("data", irAny), inOwn("axis", irInt), inOwn("split_lengths", irInt))),
		irOp("Tile", irSig(1, inOwn("data", irAny), inOwn("repeats", irInt))),
		irOp("Transpose", irSig(1, inOwn("arg", irAny), inOwn("input_order", irInt))),
		irOp("Squeeze", irSig(1, inOwn("data", irAny), inMaybe("axes", irInt))),
		irOp("Unsqueeze", irSig(1, inOwn("data", irAny), inOwn("axes", irInt))),
		irOp("ScatterUpdate", irSig(3, inOf("data", "T", irAny), inOwn("indices", irInt), inOf("updates", "T", irAny),
			inOwn("axis", irInt))),
		irOp("ScatterElementsUpdate", irSig(3, inOf("data", "T", irAny), inOwn("indices", irInt), inOf("updates", "T", irAny),
			inOwn("axis", irInt))),
		irOp("ScatterNDUpdate", irSig(3, inOf("data", "T", irAny), inOwn("indices", irI32I64), inOf("updates", "T", irAny))),
		irOp("Convolution", irSig(1, inOf("data", "T", irNumeric), inOf("filters", "T", irNumeric))),
		irOp("GroupConvolution", irSig(1, inOf("data", "T", irNumeric), inOf("filters", "T", irNumeric))),
		irOp("BinaryConvolution", irSig(1, inOwn("data", irNumeric), inOwn("filters", irNumeric))),
		irOp("DeformableConvolution",
			irSig(1, inOf("data", "T", irNumeric), inOf("offsets", "T", irNumeric), inOf("filters", "T", irNumeric)),
			irSig(8, inOf("data", "T", irNumeric), inOf("offsets", "T", irNumeric), inOf("filters", "T", irNumeric),
				inMaybeOf("mask", "T", irNumeric))),
		irOp("ConvolutionBackpropData", irSig(1, inOf("data", "T", irNumeric), inOf("filters", "T", irNumeric),
			inMaybe("output_shape", irInt))),
		irOp("GroupConvolutionBackpropData", irSig(1, inOf("data", "T", irNumeric), inOf("filters", "T", irNumeric),
			inMaybe("output_shape", irInt))),
		irOp("Interpolate",
			irSig(1, inOwn("data", irAny), inOwn("target_spatial_shape", irInt)),
			irSig(4, inOwn("data", irAny), inOwn("sizes", irInt), inOwn("scales", irReal), inMaybe("axes", irInt)),
			irSig(11, inOwn("data", irAny), inOwn("scales_or_sizes", irScalesOrSizes), inMaybe("axes", irInt))),
		irOp("PriorBox", irSig(1, inOwn("output_size", irInt), inOwn("image_size", irInt))),
		irOp("PriorBoxClustered", irSig(1, inOwn("output_size", irInt), inOwn("image_size", irInt))),
		irOp("DetectionOutput", irSig(1, inOf("box_logits", "T", irReal), inOf("class_preds", "T", irReal),
			inOwn("proposals", irReal), inMaybeOf("aux_class_preds", "T", irReal), inMaybeOf("aux_box_preds", "T", irReal))),
		irOp("OneHot", irSig(1, inOwn("indices", irInt), inOwn("depth", irInt), inOf("on_value", "T", irAny),
			inOf("off_value", "T", irAny))),
		irOp("Proposal", irSig(1, inOwn("class_probs", irReal), inOwn("bbox_deltas", irReal), inOwn("image_shape", irReal))),
		irOp("ROIPooling", irSig(1, inOwn("feature_maps", irReal), inOwn("rois", irReal))),
		irOp("CumSum", irSig(3, inOwn("arg", irAny), inMaybe("axis", irI32I64))),
		irOp("BatchToSpace", irSig(2, inOwn("data", irAny), inOf("block_shape", "T_INT", irInt),
			inOf("crops_begin", "T_INT", irInt), inOf("crops_end", "T_INT", irInt))),
		irOp("SpaceToBatch", irSig(2, inOwn("data", irAny), inOf("block_shape", "T_INT", irInt),
			inOf("pads_begin", "T_INT", irInt), inOf("pads_end", "T_INT", irInt))),
		irOp("MVN", irSig(6, inOwn("data", irAny), inOwn("axes", irInt))),
		irOp("NormalizeL2", irSig(1, inOwn("data", irAny), inOwn("axes", irInt))),
		irOp("TopK", irSig(1, inOwn("data", irAny), inOwn("k", irInt))),
		irOp("Eye", irSig(9, inOwn("num_rows", irI32I64), inOwn("num_columns", irI32I64), inOwn("diagonal_index", irI32I64),
			inMaybe("batch_shape", irI32I64))),
		irOp("Unique", irSig(10, inOwn("data", irAny), inMaybe("axis", irI32I64))),
		irOp("STFT", irSig(15, inOf("signal", "T", irReal), inOf("window", "T", irReal), inOwn("frame_size", irI32I64),
			inOwn("frame_step", irI32I64))),
		irOp("ISTFT", irSig(16, inOf("data", "T", irReal), inOf("window", "T", irReal), inOwn("frame_size", irI32I64),
			inOwn("frame_step", irI32I64), inMaybe("signal_length", irI32I64))),
		irOp("EmbeddingBagOffsetsSum", irEmbeddingOffsets(3)),
		irOp("EmbeddingBagOffsets", irEmbeddingOffsets(15)),
		irOp("EmbeddingBagPackedSum", irEmbeddingPacked(3)),
		irOp("EmbeddingBagPacked", irEmbeddingPacked(15)),
		irOp("EmbeddingSegmentsSum", irSig(3, inOf("emb_table", "T", irAny), inOf("indices", "T_IND", irI32I64),
			inOf("segment_ids", "T_IND", irI32I64), inOf("num_segments", "T_IND", irI32I64),
			inMaybeOf("default_index", "T_IND", irI32I64), inMaybeOf("per_sample_weights", "T", irAny))),
		irOp("MatrixNms", irSig(8, inOf("boxes", "T", irReal), inOf("scores", "T", irReal))),
		irOp("MulticlassNms", irSig(8, inOf("boxes", "T", irReal), inOf("scores", "T", irReal)),
			irSig(9, inOf("boxes", "T", irReal), inOf("scores", "T", irReal), inMaybe("roisnum", irI32I64))),
		irOp("NMSRotated", irSig(13, inOwn("boxes", irReal), inOwn("scores", irReal), inOwn("max_output_boxes_per_class", irInt),
			inOwn("iou_threshold", irReal), inOwn("score_threshold", irReal))),
		irOp("I420toRGB", irSig(8, inOf("y", "T", irYUV), inMaybeOf("u", "T", irYUV), inMaybeOf("v", "T", irYUV))),
		irOp("I420toBGR", irSig(8, inOf("y", "T", irYUV), inMaybeOf("u", "T", irYUV), inMaybeOf("v", "T", irYUV))),
		irOp("NV12toRGB", irSig(8, inOf("y", "T", irYUV), inMaybeOf("uv", "T", irYUV))),
		irOp("NV12toBGR", irSig(8, inOf("y", "T", irYUV), inMaybeOf("uv", "T", irYUV))),
		irOp("ExperimentalDetectronDetectionOutput", irSig(6, inMany("inputs", "T", irReal))),
		irOp("ExperimentalDetectronGenerateProposalsSingleImage", irSig(6, inMany("inputs", "T", irReal))),
		irOp("ExperimentalDetectronPriorGridGenerator", irSig(6, inMany("inputs", "T", irReal))),
		irOp("ExperimentalDetectronROIFeatureExtractor", irSig(6, inMany("inputs", "T", irReal))),
		irOp("GridSample", irSig(9, inOwn("data", irAny), inOwn("grid", irReal))),
		irOp("RandomUniform", irSig(8, inOwn("shape", irI32I64), inOf("minval", "T", irNumeric), inOf("maxval", "T", irNumeric))),
		irOp("ROIAlign", irSig(3, inOf("data", "T", irReal), inOf("rois", "T", irReal), inOwn("batch_indices", irInt))),
		irOp("ROIAlignRotated", irSig(15, inOf("data", "T", irReal), inOf("rois", "T", irReal), inOwn("batch_indices", irInt))),
		irOp("PSROIPooling", irSig(1, inOwn("input", irReal), inOwn("coords", irReal))),
		irOp("BitwiseAnd", irSig(13, inOf("a", "T", irInt|irBool), inOf("b", "T", irInt|irBool))),
		irOp("BitwiseOr", irSig(13, inOf("a", "T", irInt|irBool), inOf("b", "T", irInt|irBool))),
		irOp("BitwiseXor", irSig(13, inOf("a", "T", irInt|irBool), inOf("b", "T", irInt|irBool))),
		irOp("BitwiseNot", irSig(13, inOwn("arg", irInt|irBool))),
		irOp("BitwiseLeftShift", irSig(15, inOf("a", "T", irInt), inOf("b", "T", irInt))),
		irOp("BitwiseRightShift", irSig(15, inOf("a", "T", irInt), inOf("b", "T", irInt))),
		irOp("ErfInv", irSig(17, inOwn("data", irReal))),
		irOp("FakeConvert", irSig(13, inOf("data", "T", irFakeConvert), inOf("scale", "T", irFakeConvert),
			inMaybeOf("shift", "T", irFakeConvert))),
		irOp("Identity", irSig(16, inOwn("data", irNotBool))),
		irOp("Inverse", irSig(14, inOwn("input", irReal))),
		irOp("IsFinite", irSig(10, inOwn("data", irReal))),
		irOp("IsInf", irSig(10, inOwn("data", irReal))),
		irOp("IsNaN", irSig(10, inOwn("data", irReal))),
		irOp("SegmentMax", irSig(16, inOwn("data", irAny), inOwn("segment_ids", irI32I64), inMaybe("num_segments", irI32I64))),
		irOp("SparseFillEmptyRows", irSig(16, inOf("values", "T", irAny), inOf("dense_shape", "T_IDX", irI32I64),
			inOf("indices", "T_IDX", irI32I64), inOf("default_value", "T", irAny))),
		irOp("StringTensorPack", irSig(15, inOf("begins", "T", irI32I64), inOf("ends", "T", irI32I64), inOwn("symbols", 1<<element.U8))),
		irOp("StringTensorUnpack", irSig(15, inOwn("data", 1<<element.String))),
		irOp("Roll", irSig(7, inOwn("data", irAny), inOwn("shift", irInt), inOwn("axes", irInt))),
	},
	irReduce(1, irNumeric, "ReduceProd", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceMean"),
	irReduce(4, irNumeric, "ReduceL1", "ReduceL2"),
	irReduce(1, irBool, "ReduceLogicalAnd", "ReduceLogicalOr"),
)

// irEmbeddingOffsets returns the signature of EmbeddingBagOffsetsSum-3 and EmbeddingBagOffsets-15:
// the indices, offsets and default_index of one index type, the per_sample_weights of the table's.
func irEmbeddingOffsets(since int64) typeSig {
	return irSig(since, inOf("emb_table", "T", irAny), inOf("indices", "T_IND", irI32I64), inOf("offsets", "T_IND", irI32I64),
		inMaybeOf("default_index", "T_IND", irI32I64), inMaybeOf("per_sample_weights", "T", irAny))
}

// irEmbeddingPacked returns the signature of EmbeddingBagPackedSum-3 and EmbeddingBagPacked-15.
func irEmbeddingPacked(since int64) typeSig {
	return irSig(since, inOf("emb_table", "T", irAny), inOwn("indices", irI32I64), inMaybeOf("per_sample_weights", "T", irAny))
}

// irReduce returns the reductions of data of types along axes of an integer type.
func irReduce(since int64, types typeSet, names ...string) []typeOp {
	ops := make([]typeOp, len(names))
	for i, n := range names {
		ops[i] = irOp(n, irSig(since, inOwn("data", types), inOwn("axes", irInt)))
	}
	return ops
}

// concatOps returns the operations of lists, in one slice.
func concatOps(lists ...[]typeOp) []typeOp {
	var ops []typeOp
	for _, l := range lists {
		ops = append(ops, l...)
	}
	return ops
}
