package graph

import (
	"maps"
	"slices"
	"testing"
)

// ovOpsets lists the operators of OpenVINO's operation sets 1 to 16 (src/core/include/openvino/
// opsets/opsetN_tbl.hpp and the documentation's available-opsets pages), each with the versions of
// its specification (the opset that introduced each), less Parameter, Constant and Result, which
// the IR reader reads, and the body-carrying TensorIterator, Loop and If. ErfInv-17 is of opset17.
var ovOpsets = map[string][]int64{
	"Abs": {1}, "Acos": {1}, "Acosh": {3}, "AdaptiveAvgPool": {8}, "AdaptiveMaxPool": {8}, "Add": {1}, "Asin": {1},
	"Asinh": {3}, "Assign": {3, 6}, "Atan": {1}, "Atanh": {3}, "AvgPool": {1, 14, 16}, "BatchNormInference": {1, 5},
	"BatchToSpace": {2}, "BinaryConvolution": {1}, "BitwiseAnd": {13}, "BitwiseLeftShift": {15}, "BitwiseNot": {13},
	"BitwiseOr": {13}, "BitwiseRightShift": {15}, "BitwiseXor": {13}, "Broadcast": {1, 3}, "Bucketize": {3},
	"CTCGreedyDecoder": {1}, "CTCGreedyDecoderSeqLen": {6}, "CTCLoss": {4}, "Ceiling": {1}, "Clamp": {1}, "Col2Im": {15},
	"Concat": {1}, "Convert": {1}, "ConvertLike": {1}, "ConvertPromoteTypes": {14}, "Convolution": {1},
	"ConvolutionBackpropData": {1}, "Cos": {1}, "Cosh": {1}, "CumSum": {3}, "DFT": {7}, "DeformableConvolution": {1, 8},
	"DeformablePSROIPooling": {1}, "DepthToSpace": {1}, "DetectionOutput": {1, 8}, "Divide": {1}, "Einsum": {7},
	"Elu": {1}, "EmbeddingBagOffsets": {15}, "EmbeddingBagOffsetsSum": {3}, "EmbeddingBagPacked": {15},
	"EmbeddingBagPackedSum": {3}, "EmbeddingSegmentsSum": {3}, "Equal": {1}, "Erf": {1}, "ErfInv": {17}, "Exp": {1},
	"ExperimentalDetectronDetectionOutput": {6}, "ExperimentalDetectronGenerateProposalsSingleImage": {6},
	"ExperimentalDetectronPriorGridGenerator": {6}, "ExperimentalDetectronROIFeatureExtractor": {6},
	"ExperimentalDetectronTopKROIs": {6}, "ExtractImagePatches": {3}, "Eye": {9}, "FakeConvert": {13},
	"FakeQuantize": {1}, "Floor": {1}, "FloorMod": {1}, "GRN": {1}, "GRUCell": {3}, "GRUSequence": {5},
	"Gather": {1, 7, 8}, "GatherElements": {6}, "GatherND": {5, 8}, "GatherTree": {1}, "Gelu": {2, 7},
	"GenerateProposals": {9}, "Greater": {1}, "GreaterEqual": {1}, "GridSample": {9}, "GroupConvolution": {1},
	"GroupConvolutionBackpropData": {1}, "GroupNormalization": {12}, "HSigmoid": {5}, "HSwish": {4},
	"HardSigmoid": {1}, "I420toBGR": {8}, "I420toRGB": {8}, "IDFT": {7}, "IRDFT": {9}, "ISTFT": {16}, "Identity": {16},
	"Interpolate": {1, 4, 11}, "Inverse": {14}, "IsFinite": {10}, "IsInf": {10}, "IsNaN": {10}, "LRN": {1},
	"LSTMCell": {1, 4}, "LSTMSequence": {1, 5}, "Less": {1}, "LessEqual": {1}, "Log": {1}, "LogSoftmax": {5},
	"LogicalAnd": {1}, "LogicalNot": {1}, "LogicalOr": {1}, "LogicalXor": {1}, "MOE": {16}, "MVN": {1, 6},
	"MatMul": {1}, "MatrixNms": {8}, "MaxPool": {1, 8, 14}, "Maximum": {1}, "Minimum": {1}, "Mish": {4}, "Mod": {1},
	"MulticlassNms": {8, 9}, "Multinomial": {13}, "Multiply": {1}, "NMSRotated": {13}, "NV12toBGR": {8},
	"NV12toRGB": {8}, "Negative": {1}, "NonMaxSuppression": {1, 3, 4, 5, 9}, "NonZero": {3}, "NormalizeL2": {1},
	"NotEqual": {1}, "OneHot": {1, 16}, "PReLU": {1}, "PSROIPooling": {1}, "Pad": {1, 12}, "Power": {1},
	"PriorBox": {1, 8}, "PriorBoxClustered": {1}, "Proposal": {1, 4}, "RDFT": {9}, "RNNCell": {1}, "RNNSequence": {5},
	"ROIAlign": {3, 9}, "ROIAlignRotated": {15}, "ROIPooling": {1}, "RandomUniform": {8}, "Range": {1, 4},
	"ReLU": {1}, "ReadValue": {3, 6}, "ReduceL1": {4}, "ReduceL2": {4}, "ReduceLogicalAnd": {1},
	"ReduceLogicalOr": {1}, "ReduceMax": {1}, "ReduceMean": {1}, "ReduceMin": {1}, "ReduceProd": {1},
	"ReduceSum": {1}, "RegionYolo": {1}, "ReorgYolo": {1}, "Reshape": {1}, "Reverse": {1}, "ReverseSequence": {1},
	"Roll": {7}, "Round": {5}, "STFT": {15}, "ScaledDotProductAttention": {13}, "ScatterElementsUpdate": {3, 12},
	"ScatterNDUpdate": {3, 15}, "ScatterUpdate": {3}, "SearchSorted": {15}, "SegmentMax": {16}, "Select": {1},
	"Selu": {1}, "ShapeOf": {1, 3}, "ShuffleChannels": {1}, "Sigmoid": {1}, "Sign": {1}, "Sin": {1}, "Sinh": {1},
	"Slice": {8}, "SliceScatter": {15}, "SoftPlus": {4}, "SoftSign": {9}, "Softmax": {1, 8}, "SpaceToBatch": {2},
	"SpaceToDepth": {1}, "SparseFillEmptyRows": {16}, "Split": {1}, "Sqrt": {1}, "SquaredDifference": {1},
	"Squeeze": {1, 15}, "StridedSlice": {1}, "StringTensorPack": {15}, "StringTensorUnpack": {15}, "Subtract": {1},
	"Swish": {4}, "Tan": {1}, "Tanh": {1}, "Tile": {1}, "TopK": {1, 3, 11}, "Transpose": {1}, "Unique": {10},
	"Unsqueeze": {1}, "VariadicSplit": {1}, "Xor": {1},
}

// TestOVOpsets checks that every operator of OpenVINO's opset1 to opset16 has a rule at each
// version of its specification, whose span begins there, and up to opset16.
func TestOVOpsets(t *testing.T) {
	n := 0
	for _, name := range slices.Sorted(maps.Keys(ovOpsets)) {
		vs := ovOpsets[name]
		if !Supported(DomainOpenVINO, name) {
			t.Errorf("%s has no rule", name)
			continue
		}
		for _, v := range append(slices.Clone(vs), 16) {
			if v == 16 && vs[len(vs)-1] > 16 {
				continue
			}
			def, err := lookup(DomainOpenVINO, name, v)
			if err != nil || def == nil {
				t.Errorf("%s at opset%d: %v", name, v, err)
			}
		}
		for _, v := range vs {
			if def, _ := lookup(DomainOpenVINO, name, v); def != nil && !slices.Contains(def.versions.since, v) {
				t.Errorf("%s: the rule of opset%d begins at %v, not at %d", name, v, def.versions.since, v)
			}
		}
		if vs[0] <= 16 {
			n++
		}
	}
	if n != 200 {
		t.Errorf("%d operators of opset1 to opset16, want 200", n)
	}
}
