package graph

import (
	"slices"
	"strings"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
)

// microsoftQuant holds the rules of onnxruntime's quantized contrib operators (com.microsoft,
// version 1, as onnxruntime 1.20.1's quantization_defs.cc and nhwc_schema_defs.cc define them)
// that its quantization tools write and its graph optimizer saves: quantize_dynamic's
// (DynamicQuantizeMatMul, MatMulIntegerToFloat, QAttention, QEmbedLayerNormalization,
// DynamicQuantizeLSTM), quantize_static's QOperator form (QGemm, QLinearLeakyRelu, QLinearWhere),
// and the channels-last forms of the layout optimizer (QLinearConv, NhwcMaxPool). An output is
// float where the operator dequantizes, else of its zero point's type.
var microsoftQuant = table{domainMicrosoft, []opDef{
	{"DynamicQuantizeMatMul", since(1), span(3, 5), fixed(1), 0, dynamicQuantizeMatMul},
	{"MatMulIntegerToFloat", since(1), span(4, 7), fixed(1), 0, matMulIntegerToFloat},
	{"MatMulInteger16", since(1), fixed(2), fixed(1), 0, matMulInteger16},
	{"QGemm", since(1), span(6, 9), fixed(1), 0, qgemm},
	{"QLinearLeakyRelu", since(1), span(4, 5), fixed(1), 0, sameShape0},
	{"QLinearWhere", since(1), fixed(9), fixed(1), 0, qlinearWhere},
	{"QLinearConv", since(1), span(8, 9), fixed(1), 0, qlinearConvMS},
	{"NhwcMaxPool", since(1), fixed(1), fixed(1), 0, nhwcMaxPool},
	{"QAttention", since(1), span(5, 9), span(1, 2), 0, qattention},
	{"DynamicQuantizeLSTM", since(1), fixed(12), span(0, 3), reads(4), dynamicQuantizeLSTM},
	{"QEmbedLayerNormalization", since(1), fixed(18), fixed(2), 0, qembedLayerNorm},
}}

// dynamicQuantizeMatMul: com.microsoft DynamicQuantizeMatMul-1 (A, B, b_scale, b_zero_point,
// bias): MatMul of the float A and the quantized B (numpy's matmul: the inner dims unify, the
// batch dims broadcast), of A's type. Dims that break these are errors wrapping
// errcode.ErrInvalidShape.
func dynamicQuantizeMatMul(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	return matMulOp(c, ins[0], ins[1], ins[0].Type)
}

// matMulIntegerToFloat: com.microsoft MatMulIntegerToFloat-1 (A, B, a_scale, b_scale,
// a_zero_point, b_zero_point, bias): MatMul of the 8-bit A and B, of a_scale's type (float).
func matMulIntegerToFloat(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	requireKernel(c, []string{"A", "B"}, []element.Type{ins[0].Type, ins[1].Type},
		[]element.Type{element.U8, element.U8}, []element.Type{element.U8, element.I8}, []element.Type{element.I8, element.I8})
	return matMulOp(c, ins[0], ins[1], ins[2].Type)
}

// matMulInteger16: com.microsoft MatMulInteger16-1: MatMul of the int16 A and B (onnxruntime
// 1.20.1 has no kernel of uint16, which the schema allows), an int32 output.
func matMulInteger16(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	requireKernel(c, []string{"A", "B"}, []element.Type{ins[0].Type, ins[1].Type}, []element.Type{element.I16, element.I16})
	return matMulOp(c, ins[0], ins[1], element.I32)
}

// qgemm: com.microsoft QGemm-1 (A, a_scale, a_zero_point, B, b_scale, b_zero_point, C, y_scale,
// y_zero_point): Gemm of A [M, K] (transA: [K, M]) and B [K, N] (transB: [N, K]), [M, N], C
// (int32) broadcast to it unidirectionally; float, or y_zero_point's type when the node gives
// it. A rank other than 2 or inner dims that differ are errors wrapping errcode.ErrInvalidShape.
func qgemm(c *ctx) error {
	t := element.F32
	if zp := c.In(8); zp != nil {
		t = zp.Type
	}
	if a, b := c.In(0), c.In(3); a != nil && b != nil {
		requireKernel(c, []string{"A", "B", "Y"}, []element.Type{a.Type, b.Type, t},
			[]element.Type{element.U8, element.U8, element.F32}, []element.Type{element.U8, element.U8, element.U8},
			[]element.Type{element.U8, element.I8, element.F32}, []element.Type{element.U8, element.I8, element.U8},
			[]element.Type{element.I8, element.I8, element.F32}, []element.Type{element.I8, element.I8, element.I8})
	}
	return gemmOf(c, 13, [3]int{0, 3, 6}, t)
}

// qlinearWhere: com.microsoft QLinearWhere-1 (condition, X, x_scale, x_zero_point, Y, y_scale,
// y_zero_point, z_scale, z_zero_point): Z is the numpy broadcast of condition, X and Y, of
// z_zero_point's type. Shapes that do not broadcast are an error wrapping errcode.ErrInvalidShape.
func qlinearWhere(c *ctx) error {
	ins, err := c.Inputs(9)
	if err != nil {
		return err
	}
	s, err := c.Broadcast(ins[0].Shape, ins[1].Shape, ins[4].Shape)
	if err != nil {
		return err
	}
	c.Out(0, ins[8].Type, s)
	return nil
}

// qlinearConvMS: com.microsoft QLinearConv-1: ONNX's QLinearConv-10 (x, x_scale, x_zero_point, w,
// w_scale, w_zero_point, y_scale, y_zero_point, B), of y_zero_point's type; with channels_last
// (0 by default) x is [N, D1..Dn, C] and y [N, O1..On, M], w still [M, C/group, k1..kn].
func qlinearConvMS(c *ctx) error {
	zp, err := c.Input(7)
	if err != nil {
		return err
	}
	last, err := c.Int("channels_last", 0)
	if err != nil {
		return err
	}
	if x, w := c.In(0), c.In(3); x != nil && w != nil {
		requireKernel(c, []string{"x", "w"}, []element.Type{x.Type, w.Type},
			[]element.Type{element.U8, element.U8}, []element.Type{element.U8, element.I8}, []element.Type{element.I8, element.I8})
	}
	return convLayout(c, 0, 3, 8, zp.Type, last != 0)
}

// nhwcMaxPool: com.microsoft NhwcMaxPool-1: MaxPool-12 of x [N, D1..Dn, C] (kernel_shape, strides,
// pads, auto_pad, dilations, ceil_mode), [N, O1..On, C], of x's type. A missing kernel_shape is an
// error wrapping errcode.ErrSyntax; a rank that does not fit it, or an output size below 1, one
// wrapping errcode.ErrInvalidShape.
func nhwcMaxPool(c *ctx) error {
	return poolLayout(c, true, windowAttrs{dilations: true, ceilMode: true, pool: true})
}

// qattention: com.microsoft QAttention-1 (input, weight, bias, input_scale, weight_scale,
// mask_index, input_zero_point, weight_zero_point, past): Attention-1 of the quantized input and
// weight, its past input 8; output and present are of bias's type (float).
func qattention(c *ctx) error {
	bias, err := c.Input(2)
	if err != nil {
		return err
	}
	return attentionOf(c, 8, bias.Type)
}

// dynamicQuantizeLSTM: com.microsoft DynamicQuantizeLSTM-1: LSTM-7 of X [seq_length, batch_size,
// input_size] and the quantized weights W [num_directions, input_size, 4*hidden_size] and R
// [num_directions, hidden_size, 4*hidden_size] (transposed from LSTM's), B, sequence_lens,
// initial_h, initial_c and P as LSTM's, then the weights' scales and zero points: Y
// [seq_length, num_directions, batch_size, hidden_size], Y_h and Y_c [num_directions,
// batch_size, hidden_size], of X's type. Dims that break these are errors wrapping
// errcode.ErrInvalidShape, but X's input size: onnxruntime 1.20.1 runs the node whatever it is,
// a warning of the node (Result.Warnings).
func dynamicQuantizeLSTM(c *ctx) error { return rnnOf(c, 4, 8, true) }

// qembedLayerNorm: com.microsoft QEmbedLayerNormalization-1: EmbedLayerNormalization-1 of the
// quantized embeddings, gamma and beta (inputs 0 to 7; no position_ids), then their scales and
// zero points: layernorm_out [B, S, hidden] of the word embedding scale's type (float) and
// mask_index_out int32 [B].
func qembedLayerNorm(c *ctx) error {
	scale, err := c.Input(8)
	if err != nil {
		return err
	}
	return embedLayerNormOf(c, -1, scale.Type)
}

// requireKernel records that onnxruntime 1.20.1 has no CPU kernel for the node
// (NodeResult.TypeErr, wrapping errcode.ErrNoKernel) when the element types got of its inputs
// named names are none of the combinations kernels lists (probed with onnxruntime-node: "Could
// not find an implementation"). A type not known records nothing.
func requireKernel(c *ctx, names []string, got []element.Type, kernels ...[]element.Type) {
	for _, t := range got {
		if t == element.Undefined {
			return
		}
	}
	var have []string
	for _, k := range kernels {
		if slices.Equal(k, got) {
			return
		}
		have = append(have, typeList(k))
	}
	c.typeErr = errcode.Errorf(errcode.ErrNoKernel, "%s of %s: onnxruntime 1.20.1 has CPU kernels of %s-%d for %s only, and refuses to load the model",
		strings.Join(names, ", "), typeList(got), c.n.Op, c.Version(), strings.Join(have, "; "))
}

// typeList prints element types as "u8, i8".
func typeList(ts []element.Type) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}
