package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// microsoft holds the rules of onnxruntime's other contrib operators (com.microsoft, version 1,
// as onnxruntime's docs/ContribOperators.md documents them) that its transformer optimizer and
// quantization tools emit: the fused layer norms and activations, the fused and block-quantized
// matrix products, the quantized element-wise, concatenation and pooling operators (whose outputs
// keep the quantized type), the NHWC convolution and group norm, and the Conv and Gemm with an
// activation that its graph optimizer fuses and saves; and the Tokenizer of skl2onnx's text
// vectorizers.
var microsoft = table{domainMicrosoft, []opDef{
	{"SkipLayerNormalization", since(1), span(3, 5), span(1, 4), 0, skipLayerNorm},
	{"SkipSimplifiedLayerNormalization", since(1), span(3, 4), span(1, 4), 0, skipLayerNorm},
	{"EmbedLayerNormalization", since(1), span(7, 9), span(1, 3), 0, embedLayerNorm},
	{"GroupNorm", since(1), fixed(3), fixed(1), 0, groupNormNHWC},
	{"Gelu", since(1), fixed(1), fixed(1), 0, withBias},
	{"QuickGelu", since(1), fixed(1), fixed(1), 0, withBias},
	{"FastGelu", since(1), span(1, 2), fixed(1), 0, withBias},
	{"BiasGelu", since(1), fixed(2), fixed(1), 0, withBias},
	{"BiasAdd", since(1), fixed(3), fixed(1), 0, biasAdd},
	{"BiasSplitGelu", since(1), fixed(2), fixed(1), 0, biasSplitGelu},
	{"FusedMatMul", since(1), fixed(2), fixed(1), 0, fusedMatMul},
	{"MatMulNBits", since(1), span(3, 6), fixed(1), 0, matMulNBits},
	{"QuantizeLinear", since(1), span(2, 3), fixed(1), 0, quantizeLinearMS},
	{"DequantizeLinear", since(1), span(2, 3), fixed(1), 0, dequantizeLinearMS},
	{"QLinearAdd", since(1), span(7, 8), fixed(1), 0, qlinearBinary},
	{"QLinearMul", since(1), span(7, 8), fixed(1), 0, qlinearBinary},
	{"QLinearConcat", since(1), span(3, many), fixed(1), 0, qlinearConcat},
	{"QLinearSigmoid", since(1), span(4, 5), fixed(1), 0, qlinearSigmoid},
	{"QLinearSoftmax", since(1), fixed(5), fixed(1), 0, qlinearSoftmax},
	{"QLinearAveragePool", since(1), span(4, 5), fixed(1), 0, qlinearAveragePool},
	{"QLinearGlobalAveragePool", since(1), fixed(5), fixed(1), 0, qlinearGlobalAveragePool},
	{"NhwcConv", since(1), span(2, 3), fixed(1), 0, nhwcConv},
	{"FusedConv", since(1), span(2, 4), fixed(1), 0, fusedConv},
	{"FusedGemm", since(1), span(2, 3), fixed(1), 0, fusedGemm},
	{"Tokenizer", since(1), fixed(1), fixed(1), 0, tokenizer},
}}

// lastDim returns the last of dims, unknown for a dynamic rank (nil dims).
func lastDim(dims []sym.Dim) sym.Dim {
	if len(dims) == 0 {
		return sym.Unknown()
	}
	return dims[len(dims)-1]
}

// skipLayerNorm: com.microsoft SkipLayerNormalization-1 (input, skip, gamma, beta, bias) and
// SkipSimplifiedLayerNormalization-1 (input, skip, gamma, bias): output and input_skip_bias_sum
// (output 3) have the shape of input, [B, S, hidden] or [tokens, hidden]; skip has input's shape,
// [1, S, hidden] or [S, hidden]; gamma, beta and bias are [hidden]. The documentation gives mean
// and inv_std_var (outputs 1 and 2) no shape (and onnxruntime 1.20.1 crashes on them): they are
// left to the model's declaration. Dims that break these are errors wrapping
// errcode.ErrInvalidShape.
func skipLayerNorm(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	x := ins[0]
	if _, _, err := c.RequireRank(x, 0, 2, 3); err != nil {
		return err
	}
	if _, _, err := c.RequireRank(ins[1], 1, 2, 3); err != nil {
		return err
	}
	if err := broadcastsTo(c, x, ins[1], 1); err != nil {
		return err
	}
	hidden := lastDim(x.Shape.Dims)
	params := []string{"gamma", "beta", "bias"}
	if c.n.Op == "SkipSimplifiedLayerNormalization" {
		params = []string{"gamma", "bias"}
	}
	for i, what := range params {
		if hidden, err = channelParam(c, 2+i, hidden, what); err != nil {
			return err
		}
	}
	c.SameAs(0, x)
	c.SameAs(3, x)
	return nil
}

// broadcastsTo checks that input i, in, broadcasts to x's shape (numpy's rule, in of x's rank or
// less), unifying the dims that must be equal; other shapes are errors wrapping
// errcode.ErrInvalidShape.
func broadcastsTo(c *ctx, x, in *Info, i int) error {
	s, err := c.Broadcast(x.Shape, in.Shape)
	if err != nil {
		return err
	}
	if xr, ok := x.Rank(); ok && len(s.Dims) != xr {
		return c.Errorf(errcode.ErrInvalidShape, "input %d of shape %v does not broadcast to input 0's %v", i, in.Shape, x.Shape)
	}
	return nil
}

// embedLayerNorm: com.microsoft EmbedLayerNormalization-1: input_ids [B, S] (and segment_ids,
// mask, position_ids [B, S] or [1, S]) look up word_embedding, position_embedding and
// segment_embedding [*, hidden]; gamma and beta are [hidden]. output and embedding_sum (output 2)
// are [B, S, hidden] of word_embedding's type; mask_index (output 1) is int32 [B], each element
// the mask's count of leading ones (data), or 0 without a mask (values then known). Dims that break
// these are errors wrapping errcode.ErrInvalidShape.
func embedLayerNorm(c *ctx) error { return embedLayerNormOf(c, 8, element.Undefined) }

// embedLayerNormOf infers an EmbedLayerNormalization whose position_ids is input pos (-1: none),
// of output type t (element.Undefined: word_embedding's).
func embedLayerNormOf(c *ctx, pos int, t element.Type) error {
	d, err := inputDims(c, 0, 2, nil, "input_ids")
	if err != nil {
		return err
	}
	b, s, hidden := d[0], d[1], sym.Unknown()
	for _, in := range []struct {
		i        int
		optional bool
		want     []*sym.Dim
		what     string
	}{
		{1, true, []*sym.Dim{&b, &s}, "segment_ids"},
		{7, true, []*sym.Dim{&b, &s}, "mask"},
		{pos, true, []*sym.Dim{nil, &s}, "position_ids"},
		{2, false, []*sym.Dim{nil, &hidden}, "word_embedding"},
		{3, false, []*sym.Dim{nil, &hidden}, "position_embedding"},
		{4, true, []*sym.Dim{nil, &hidden}, "segment_embedding"},
	} {
		if in.i < 0 || in.optional && c.In(in.i) == nil {
			continue
		}
		if _, err := inputDims(c, in.i, 2, in.want, in.what); err != nil {
			return err
		}
	}
	for i, what := range []string{"gamma", "beta"} {
		if _, err := c.Input(5 + i); err != nil {
			return err
		}
		if hidden, err = channelParam(c, 5+i, hidden, what); err != nil {
			return err
		}
	}
	if t == element.Undefined {
		t = c.In(2).Type
	}
	out := sym.ShapeOf([]sym.Dim{b, s, hidden}...)
	c.Out(0, t, out)
	index := c.Out(1, element.I32, sym.ShapeOf(out.Dims[0]))
	if c.In(7) == nil {
		if n, ok := out.Dims[0].Static(); ok && n <= MaxValue {
			setValue(index, make([]sym.Dim, n))
		}
	}
	c.Out(2, t, out)
	return nil
}

// groupNormNHWC: com.microsoft GroupNorm-1: Y has X's shape, [N, H, W, C] (channels_last 1, the
// default) or [N, C, H, W]; C must be a multiple of groups; gamma and beta are [C]. A missing
// groups or activation attribute is an error wrapping errcode.ErrSyntax; dims that break these,
// errors wrapping errcode.ErrInvalidShape.
func groupNormNHWC(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	groups, err := positiveAttr(c, "groups")
	if err != nil {
		return err
	}
	if _, ok := c.n.Attr("activation"); !ok {
		return c.Errorf(errcode.ErrSyntax, "attribute activation is missing: GroupNorm takes it")
	}
	last, err := c.Int("channels_last", 1)
	if err != nil {
		return err
	}
	xd, err := fixedDims(c, ins[0], 0, 4)
	if err != nil {
		return err
	}
	ch := xd[1]
	if last != 0 {
		ch = xd[3]
	}
	if err := requireMultiple(c, ch, groups, "the channels a multiple of groups "+itoa(int(groups))); err != nil {
		return err
	}
	if err := channelParams(c, ch, "gamma", "beta"); err != nil {
		return err
	}
	c.SameAs(0, ins[0])
	return nil
}

// withBias: com.microsoft Gelu-1, QuickGelu-1, FastGelu-1 (X and an optional bias) and BiasGelu-1
// (A and B): the output has the shape and type of input 0; input 1, the bias, is 1-D of input 0's
// last dim (onnxruntime's bias_gelu_helper): another shape is an error wrapping
// errcode.ErrInvalidShape.
func withBias(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, err := channelParam(c, 1, lastDim(x.Shape.Dims), "the bias"); err != nil {
		return err
	}
	c.SameAs(0, x)
	return nil
}

// biasAdd: com.microsoft BiasAdd-1: X [N, S, C] plus bias [C] plus skip [N, S, C] gives
// [N, S, C]. Dims that break these are errors wrapping errcode.ErrInvalidShape.
func biasAdd(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	xd, err := fixedDims(c, ins[0], 0, 3)
	if err != nil {
		return err
	}
	if _, err := inputDims(c, 2, 3, []*sym.Dim{&xd[0], &xd[1], &xd[2]}, "skip"); err != nil {
		return err
	}
	if _, err := channelParam(c, 1, xd[2], "bias"); err != nil {
		return err
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(xd...))
	return nil
}

// biasSplitGelu: com.microsoft BiasSplitGelu-1: X [N, S, D] plus bias [D] splits in two halves
// along D: Y is [N, S, D/2], an exact quotient. An odd D, or dims that break these, are errors
// wrapping errcode.ErrInvalidShape.
func biasSplitGelu(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	xd, err := fixedDims(c, ins[0], 0, 3)
	if err != nil {
		return err
	}
	if xd[2], err = channelParam(c, 1, xd[2], "bias"); err != nil {
		return err
	}
	half, err := exactQuo(c, xd[2], 2, "X dim 2 (D)")
	if err != nil {
		return err
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(xd[0], xd[1], half))
	return nil
}

// fusedMatMul: com.microsoft FusedMatMul-1: MatMul of A and B after their transposes, as
// onnxruntime's shape inference reads them: transBatchA moves A's first dim behind its batch dims
// ([d0, d1, …, dr-2, dr-1] becomes [d1, …, dr-2, d0, dr-1]) before transA swaps the last two, and
// transBatchB and transB do the same to B; neither transposes a 1-D operand. Then numpy's matmul
// (matMulDims); the output has A's type.
func fusedMatMul(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	var flags [4]bool
	for i, name := range []string{"transA", "transB", "transBatchA", "transBatchB"} {
		v, err := c.Int(name, 0)
		if err != nil {
			return err
		}
		flags[i] = v != 0
	}
	a, b := transBatch(ins[0], flags[2]), transBatch(ins[1], flags[3])
	dims, ok, err := matMulDims(c, a, b, flags[0], flags[1])
	if err != nil {
		return err
	}
	s := sym.DynamicRank()
	if ok {
		s = sym.ShapeOf(dims...)
	}
	c.Out(0, ins[0].Type, s)
	return nil
}

// transBatch returns in with its first dim moved behind its batch dims (all but the last two),
// when on and its rank is 2 or more.
func transBatch(in *Info, on bool) *Info {
	r, ok := in.Rank()
	if !on || !ok || r < 2 {
		return in
	}
	d := in.Shape.Dims
	dims := append(append([]sym.Dim(nil), d[1:r-1]...), d[0], d[r-1])
	return &Info{Type: in.Type, Shape: sym.ShapeOf(dims...)}
}

// matMulNBits: com.microsoft MatMulNBits-1: A [..., K] times the weight [K, N] that B holds
// quantized to bits bits (2 to 8, 4 by default) in blocks of block_size (a power of 2, 16 or more)
// along K gives [..., N] of A's type. B holds N·ceil(K/block_size)·(block_size·bits/8) bytes
// ([N, k_blocks, blob_size]); scales N·k_blocks values ([N, k_blocks], or 1-D as onnxruntime 1.20.1
// takes them); zero_points N·ceil(k_blocks·bits/8) packed bytes, or N·k_blocks values of A's type;
// bias [N]. A missing K, N or block_size is an error wrapping errcode.ErrSyntax; attributes out of
// range, and inputs of other sizes, errors wrapping errcode.ErrInvalidShape.
func matMulNBits(c *ctx) error {
	_, err := c.Inputs(3)
	if err != nil {
		return err
	}
	var attrs [3]int64
	for i, name := range []string{"K", "N", "block_size"} {
		if attrs[i], err = positiveAttr(c, name); err != nil {
			return err
		}
	}
	k, n, bs := attrs[0], attrs[1], attrs[2]
	bits, err := c.Int("bits", 4)
	if err != nil {
		return err
	}
	switch {
	case bits < 2 || bits > 8:
		return c.Errorf(errcode.ErrInvalidShape, "bits %d is not 2 to 8", bits)
	case bs < 16 || bs&(bs-1) != 0:
		return c.Errorf(errcode.ErrInvalidShape, "block_size %d is not a power of 2 of 16 or more", bs)
	}
	blocks := (k + bs - 1) / bs
	sizes := []struct {
		i    int
		want int64
		what string
	}{
		{1, n * blocks * (bs * bits / 8), "B (N·k_blocks·blob_size bytes)"},
		{2, n * blocks, "scales (N·k_blocks)"},
		{3, n * blocks, "zero_points (N·k_blocks)"},
		{5, n, "bias (N)"},
	}
	if zp := c.In(3); zp != nil && zp.Type == element.U8 {
		sizes[2].want, sizes[2].what = n*((blocks*bits+7)/8), "zero_points (N·ceil(k_blocks·bits/8) bytes)"
	}
	for _, sz := range sizes {
		in := c.In(sz.i)
		if in == nil || in.Shape.RankDynamic {
			continue
		}
		if v, ok := product(in.Shape.Dims).Static(); ok && v != sz.want {
			return c.Errorf(errcode.ErrInvalidShape, "input %d %v holds %d elements, want %d for %s", sz.i, in.Shape, v, sz.want, sz.what)
		}
		if err := requireCount(c, in.Shape, sz.want, "input "+itoa(sz.i)+" of "+itoa(int(sz.want))+" elements for "+sz.what); err != nil {
			return err
		}
	}
	a, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if _, _, err := c.RequireRank(a, 0, 1, -1); err != nil {
		return err
	}
	dims := append([]sym.Dim(nil), a.Shape.Dims...)
	if _, err := c.Unify(dims[r-1], sym.Const(k), "A's last dim and K"); err != nil {
		return err
	}
	dims[r-1] = sym.Const(n)
	c.Out(0, a.Type, sym.ShapeOf(dims...))
	return nil
}

// quantizeLinearMS: com.microsoft QuantizeLinear-1: y has x's shape, of y_zero_point's type (int8,
// uint8, int16, uint16, int4, uint4), uint8 without it. dequantizeLinearMS: com.microsoft
// DequantizeLinear-1: y has x's shape, of x_scale's type. With an axis, the scale (and zero point)
// is 1-D of x's dim there; an axis out of range or a scale of another size is an error wrapping
// errcode.ErrInvalidShape.
func quantizeLinearMS(c *ctx) error {
	t := element.U8
	if zp := c.In(2); zp != nil {
		t = zp.Type
	}
	return quantizeMS(c, t)
}

// dequantizeLinearMS: see quantizeLinearMS.
func dequantizeLinearMS(c *ctx) error {
	scale, err := c.Input(1)
	if err != nil {
		return err
	}
	return quantizeMS(c, scale.Type)
}

// quantizeMS sets output 0 to input 0's shape and type t, after checking the axis attribute and
// the scale and zero point (inputs 1 and 2) against it.
func quantizeMS(c *ctx, t element.Type) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	x := ins[0]
	if _, ok := c.n.Attr("axis"); ok {
		axis, err := c.Int("axis", 1)
		if err != nil {
			return err
		}
		if r, ok := x.Rank(); ok {
			a, err := c.NormAxis(axis, r)
			if err != nil {
				return err
			}
			for i := 1; i <= 2; i++ {
				if in := c.In(i); in != nil && !in.Shape.RankDynamic && len(in.Shape.Dims) == 1 {
					if _, err := c.Unify(in.Shape.Dims[0], x.Shape.Dims[a], "input "+itoa(i)+" and input 0's dim "+itoa(a)+" (axis)"); err != nil {
						return err
					}
				}
			}
		}
	}
	c.Out(0, t, x.Shape)
	return nil
}

// qlinearBinary: com.microsoft QLinearAdd-1, QLinearMul-1 (A, A_scale, A_zero_point, B, B_scale,
// B_zero_point, C_scale, C_zero_point): C is the numpy broadcast of A and B, of A's type. Shapes
// that do not broadcast are an error wrapping errcode.ErrInvalidShape.
func qlinearBinary(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	s, err := c.Broadcast(ins[0].Shape, ins[3].Shape)
	if err != nil {
		return err
	}
	c.Out(0, ins[0].Type, s)
	return nil
}

// qlinearConcat: com.microsoft QLinearConcat-1 (Y_scale, Y_zero_point, then a tensor, its scale
// and its zero point for each part): Y is Concat of the tensors along axis (required), of
// Y_zero_point's type. Inputs that are not such triples are an error wrapping errcode.ErrSyntax;
// tensors that do not concatenate, one wrapping errcode.ErrInvalidShape.
func qlinearConcat(c *ctx) error {
	if (c.NumIn()-2)%3 != 0 {
		return c.Errorf(errcode.ErrSyntax, "%s: QLinearConcat takes Y_scale, Y_zero_point and triples of a tensor, its scale and its zero point", count(c.NumIn(), "input"))
	}
	ins, err := c.Inputs(c.NumIn())
	if err != nil {
		return err
	}
	if _, ok := c.n.Attr("axis"); !ok {
		return c.Errorf(errcode.ErrSyntax, "attribute axis is missing: QLinearConcat takes it")
	}
	axis, err := c.Int("axis", 0)
	if err != nil {
		return err
	}
	var parts []*Info
	var at []int
	for i := 2; i < len(ins); i += 3 {
		parts, at = append(parts, ins[i]), append(at, i)
	}
	return concatAlong(c, parts, at, axis, ins[1].Type)
}

// qlinearSigmoid: com.microsoft QLinearSigmoid-1 (X, X_scale, X_zero_point, Y_scale,
// Y_zero_point): Y has X's shape and type.
func qlinearSigmoid(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	c.SameAs(0, x)
	return nil
}

// qlinearSoftmax: com.microsoft QLinearSoftmax-1: Y has X's shape and type; axis (-1 by default
// with the opset attribute 13 or more, 1 before, as Softmax's) must be one of X's. A missing opset
// attribute is an error wrapping errcode.ErrSyntax; an axis out of range one wrapping
// errcode.ErrInvalidShape.
func qlinearSoftmax(c *ctx) error {
	if _, ok := c.n.Attr("opset"); !ok {
		return c.Errorf(errcode.ErrSyntax, "attribute opset is missing: QLinearSoftmax takes it")
	}
	opset, err := c.Int("opset", 13)
	if err != nil {
		return err
	}
	def := int64(-1)
	if opset < 13 {
		def = 1
	}
	return sameShapeAxis(c, def)
}

// nhwc returns the dims of a channels-last tensor [N, D1..Dn, C] in channels-first order
// [N, C, D1..Dn], as ctx.dims gives them.
func nhwc(c *ctx, dims []sym.Dim) []sym.Dim {
	r := len(dims)
	out := c.dims(r)
	out[0], out[1] = dims[0], dims[r-1]
	copy(out[2:], dims[1:r-1])
	return out
}

// channelsLast returns channels-first dims [N, C, D1..Dn] in channels-last order
// [N, D1..Dn, C].
func channelsLast(dims []sym.Dim) []sym.Dim {
	return append(append([]sym.Dim{dims[0]}, dims[2:]...), dims[1])
}

// qlinearAveragePool: com.microsoft QLinearAveragePool-1: X [N, C, D1..Dn] ([N, D1..Dn, C] with
// channels_last) gives [N, C, O1..On] (channels last alike), each Oi as AveragePool's, ceil_mode
// included (window.out); Y has X's type. A missing kernel_shape is an error wrapping
// errcode.ErrSyntax; a rank that does not fit it, or an output size below 1, one wrapping
// errcode.ErrInvalidShape.
func qlinearAveragePool(c *ctx) error {
	last, err := c.Int("channels_last", 0)
	if err != nil {
		return err
	}
	return poolLayout(c, last != 0, windowAttrs{ceilMode: true, pool: true})
}

// poolLayout infers a pooling of input 0 by the window attributes has (kernel_shape required),
// channels last with last; the output has the input's type.
func poolLayout(c *ctx, last bool, has windowAttrs) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	ks, ok, err := c.Ints("kernel_shape")
	if err != nil {
		return err
	}
	if !ok {
		return c.Errorf(errcode.ErrSyntax, "attribute kernel_shape is missing: %s takes it", c.n.Op)
	}
	if err := kernelRank(c, x, ks); err != nil {
		return err
	}
	win, err := readWindow(c, len(ks), constDims(ks), has)
	if err != nil {
		return err
	}
	xd := dimsOf(c, x, len(ks)+2)
	if last {
		xd = nhwc(c, xd)
	}
	out := []sym.Dim{xd[0], xd[1]}
	for i, d := range xd[2:] {
		o, err := win.out(c, i, d)
		if err != nil {
			return err
		}
		out = append(out, o)
	}
	if last {
		out = channelsLast(out)
	}
	c.Out(0, x.Type, sym.ShapeOf(out...))
	return nil
}

// qlinearGlobalAveragePool: com.microsoft QLinearGlobalAveragePool-1: X [N, C, D1..Dn] gives
// [N, C, 1..1], and [N, D1..Dn, C] gives [N, 1..1, C] with channels_last (0 by default); Y has X's
// type. A rank below 3, or an empty spatial axis, is an error wrapping errcode.ErrInvalidShape; a
// spatial axis that may be empty (H-2) is required to be at least 1.
func qlinearGlobalAveragePool(c *ctx) error {
	x, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if _, _, err := c.RequireRank(x, 0, 3, -1); err != nil {
		return err
	}
	last, err := c.Int("channels_last", 0)
	if err != nil {
		return err
	}
	xd := append([]sym.Dim(nil), x.Shape.Dims...)
	if last != 0 {
		xd = nhwc(c, xd)
	}
	for i := 2; i < r; i++ {
		if err := requireAtLeast(c, xd[i], 1, "spatial axis "+itoa(i-2)+" not empty"); err != nil {
			return err
		}
		xd[i] = sym.Const(1)
	}
	if last != 0 {
		xd = channelsLast(xd)
	}
	c.Out(0, x.Type, sym.ShapeOf(xd...))
	return nil
}

// nhwcConv: com.microsoft NhwcConv-1: Conv of X [N, D1..Dn, C] by W [M, C/group, k1..kn] (and the
// bias B [M]) gives [N, O1..On, M], each Oi as Conv's (window.out). C unifies with W's channels
// times group, kernel_shape with W's spatial dims. Dims that break these are errors wrapping
// errcode.ErrInvalidShape.
func nhwcConv(c *ctx) error { return convLayout(c, 0, 1, 2, element.Undefined, true) }

// fusedConv: com.microsoft FusedConv-1 (X, W, B, Z): ONNX Conv-11 of X, W and B (its attributes,
// and activation and activation_params, which change no shape) plus Z, the output's shape, added
// before the activation. Dims of Z that differ from the output's are errors wrapping
// errcode.ErrInvalidShape.
func fusedConv(c *ctx) error {
	if err := convOp(c, 0, 1, 2, element.Undefined); err != nil {
		return err
	}
	return unifyWithOutput(c, 3, -1)
}

// fusedGemm: com.microsoft FusedGemm-1 (A, B, C): ONNX Gemm-13 (C optional and broadcast
// unidirectionally to [M, N]), then an activation (activation, activation_alpha, activation_beta,
// activation_gamma), which changes no shape.
func fusedGemm(c *ctx) error { return gemmOf(c, 13, [3]int{0, 1, 2}, element.Undefined) }

// tokenizer: com.microsoft Tokenizer-1, as onnxruntime 1.20.1 runs it: X, strings [C] or [N,C],
// gives each string's tokens padded to T, the most of one string: [C,T] or [N,C,T]. T is the
// data's (only a run decides): 0 when no string has a token, else that count, plus a start and an
// end mark with mark. An empty X (a dim of 0) gives [0] or [N,0], of X's rank; an X that a binding
// may make empty has an unknown rank. mark, pad_value and mincharnum are required, and separators
// or tokenexp (a missing one is an error wrapping errcode.ErrSyntax, as is a mincharnum above 1
// with the one empty separator of character tokens); X of another rank is an error wrapping
// errcode.ErrInvalidShape.
func tokenizer(c *ctx) error {
	for _, name := range []string{"mark", "pad_value", "mincharnum"} {
		if _, ok := c.n.Attr(name); !ok {
			return c.Errorf(errcode.ErrSyntax, "attribute %s is missing: Tokenizer requires it", name)
		}
	}
	seps, hasSeps, err := c.Strings("separators")
	if err != nil {
		return err
	}
	if _, ok := c.n.Attr("tokenexp"); !ok && (!hasSeps || len(seps) == 0) {
		return c.Errorf(errcode.ErrSyntax, "Tokenizer has neither separators nor tokenexp")
	}
	least, err := c.Int("mincharnum", 1)
	if err != nil {
		return err
	}
	if len(seps) == 1 && seps[0] == "" && least > 1 {
		return c.Errorf(errcode.ErrSyntax, "mincharnum %d: tokens of one character (separators [\"\"]) want 1 at most", least)
	}
	x, r, ok, err := stringInput(c)
	if err != nil || !ok {
		return err
	}
	empty, full := false, true
	for _, d := range x.Shape.Dims {
		lo, hi := d.Bounds()
		empty = empty || hi == 0
		full = full && lo >= 1
	}
	switch {
	case empty:
		c.Out(0, element.String, sym.ShapeOf(append(c.clone(x.Shape.Dims[:r-1]), sym.Const(0))...))
	case full:
		c.RunTime("the most tokens of one string")
		c.Out(0, element.String, sym.ShapeOf(append(c.clone(x.Shape.Dims), sym.Unknown())...))
	default:
		c.Lost("the rank: " + itoa(r+1) + " when X has strings, " + itoa(r) + " when it is empty")
		c.Out(0, element.String, sym.DynamicRank())
	}
	return nil
}
