package graph_test

import (
	"slices"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
)

// msNode returns a node of onnxruntime's com.microsoft domain, version 1.
func msNode(op string, inputs, outputs []string, attrs ...graph.Attr) graph.Node {
	n := nodeV(op, 1, inputs, outputs, attrs...)
	n.Domain = "com.microsoft"
	return n
}

// scalars gives each case's node inputs that the case defines no shape or constant for (scales,
// zero points, sequence lengths) and no node before it outputs a scalar graph input.
func scalars(cases []nodeCase) []nodeCase {
	for i := range cases {
		tc := &cases[i]
		if tc.inputs == nil {
			tc.inputs = map[string]string{}
		}
		for _, name := range tc.node.Inputs {
			_, isInput := tc.inputs[name]
			_, isConst := tc.consts[name]
			_, isScalar := tc.consts["s:"+name]
			isOutput := slices.ContainsFunc(tc.pre, func(n graph.Node) bool { return slices.Contains(n.Outputs, name) })
			if name != "" && !isInput && !isConst && !isScalar && !isOutput {
				tc.inputs[name] = "[]"
			}
		}
	}
	return cases
}

// TestMicrosoftAttentionRules covers the forms of the attention operators that
// testdata/ortcases.jsonl.gz (onnxruntime's runs) does not: symbolic hidden sizes, shared
// buffers, packed inputs, a total length not known, and the inputs each rule refuses.
func TestMicrosoftAttentionRules(t *testing.T) {
	heads := attrInt("num_heads", 2)
	att := []string{"x", "w", "b"}
	attPast := []string{"x", "w", "b", "", "past"}
	out2 := []string{"y", "present"}
	mha := []string{"q", "k", "v"}
	mhaPast := []string{"q", "k", "v", "", "", "", "pk", "pv", "psl"}
	out4 := []string{"y", "pk_out", "pv_out", "qk"}
	gqa := []string{"q", "k", "v", "pk", "pv", "seqlens", "total"}
	prompt := []string{"q", "k", "v", "", "", "seqlens", "total"}
	gqaAttrs := []graph.Attr{attrInt("num_heads", 4), attrInt("kv_num_heads", 2)}
	dmmha := []string{"q", "k", "v", "", "", "pk", "pv", "psl"}
	checkNode(t, scalars([]nodeCase{
		{name: "Attention weights of a symbolic size", node: msNode("Attention", att, out2, heads),
			inputs: shapes1("x", "[B,S,H]", "w", "[H,W]", "b", "[W]"), want: []string{"[B,S,W/3]", "[2,B,2,S,W/6]"},
			constraints: []string{"W % 6 == 0 (Attention_0 (Attention): the hidden size of Q and K, by num_heads, divisible by 2)"}},
		{name: "Attention shared buffer", node: msNode("Attention", attPast, out2, heads, attrInt("past_present_share_buffer", 1)),
			inputs: shapes1("x", "[B,S,8]", "w", "[8,24]", "b", "[24]", "past", "[2,B,2,M,4]"), want: []string{"[B,S,8]", "[2,B,2,M,4]"}},
		{name: "Attention past", node: msNode("Attention", attPast, out2, heads),
			inputs: shapes1("x", "[B,S,8]", "w", "[8,24]", "b", "[24]", "past", "[2,B,2,P,4]"), want: []string{"[B,S,8]", "[2,B,2,S+P,4]"}},
		{name: "Attention weights not in thirds", node: msNode("Attention", att, out2, heads),
			inputs: shapes1("x", "[B,S,8]", "w", "[8,25]", "b", "[25]"), wantErr: errInvalidShape},
		{name: "Attention heads", node: msNode("Attention", att, out2, attrInt("num_heads", 3)),
			inputs: shapes1("x", "[B,S,8]", "w", "[8,24]", "b", "[24]"), wantErr: errInvalidShape},
		{name: "Attention qkv_hidden_sizes Q and K", node: msNode("Attention", att, out2, heads, attrInts("qkv_hidden_sizes", 8, 4, 12)),
			inputs: shapes1("x", "[B,S,8]", "w", "[8,24]", "b", "[24]"), wantErr: errInvalidShape},
		{name: "Attention qkv_hidden_sizes sum", node: msNode("Attention", att, out2, heads, attrInts("qkv_hidden_sizes", 8, 8, 12)),
			inputs: shapes1("x", "[B,S,8]", "w", "[8,24]", "b", "[24]"), wantErr: errInvalidShape},
		{name: "Attention input hidden", node: msNode("Attention", att, out2, heads),
			inputs: shapes1("x", "[B,S,6]", "w", "[8,24]", "b", "[24]"), wantErr: errInvalidShape},
		{name: "Attention bias", node: msNode("Attention", att, out2, heads),
			inputs: shapes1("x", "[B,S,8]", "w", "[8,24]", "b", "[12]"), wantErr: errInvalidShape},
		{name: "Attention input rank", node: msNode("Attention", att[:2], out2, heads),
			inputs: shapes1("x", "[S,8]", "w", "[8,24]"), wantErr: errInvalidShape},
		{name: "Attention past of 3 heads", node: msNode("Attention", attPast, out2, heads),
			inputs: shapes1("x", "[B,S,8]", "w", "[8,24]", "b", "[24]", "past", "[2,B,3,P,4]"), wantErr: errInvalidShape},
		{name: "Attention num_heads", node: msNode("Attention", att[:2], out2),
			inputs: shapes1("x", "[B,S,8]", "w", "[8,24]"), wantErr: errSyntax},
		{name: "Attention num_heads 0", node: msNode("Attention", att[:2], out2, attrInt("num_heads", 0)),
			inputs: shapes1("x", "[B,S,8]", "w", "[8,24]"), wantErr: errInvalidShape},

		{name: "MultiHeadAttention packed QKV", node: msNode("MultiHeadAttention", []string{"q"}, out4, heads),
			inputs: shapes1("q", "[B,S,2,3,4]"), want: []string{"[B,S,8]", "[B,2,S,4]", "[B,2,S,4]", "[B,2,S,S]"}},
		{name: "MultiHeadAttention packed KV", node: msNode("MultiHeadAttention", []string{"q", "k"}, out4, heads),
			inputs: shapes1("q", "[B,S,8]", "k", "[B,L,2,2,4]"), want: []string{"[B,S,8]", "[B,2,L,4]", "[B,2,L,4]", "[B,2,S,L]"}},
		{name: "MultiHeadAttention BNSH key", node: msNode("MultiHeadAttention", mha, out4, heads),
			inputs: shapes1("q", "[B,S,8]", "k", "[B,2,L,4]", "v", "[B,2,L,4]"), want: []string{"[B,S,8]", "[B,2,L,4]", "[B,2,L,4]", "[B,2,S,L]"}},
		{name: "MultiHeadAttention past", node: msNode("MultiHeadAttention", mhaPast[:8], out4, heads),
			inputs: shapes1("q", "[B,S,8]", "k", "[B,S,8]", "v", "[B,S,12]", "pk", "[B,2,P,4]", "pv", "[B,2,P,6]"),
			want:   []string{"[B,S,12]", "[B,2,S+P,4]", "[B,2,S+P,6]", "[B,2,S,S+P]"}},
		{name: "MultiHeadAttention shared buffer", node: msNode("MultiHeadAttention", mhaPast, out4, heads),
			inputs: shapes1("q", "[B,1,8]", "k", "[B,1,8]", "v", "[B,1,8]", "pk", "[B,2,M,4]", "pv", "[B,2,M,4]"),
			consts: map[string][]int64{"psl": {5}}, want: []string{"[B,1,8]", "[B,2,M,4]", "[B,2,M,4]", "[B,2,1,6]"}},
		{name: "MultiHeadAttention value of unknown rank", node: msNode("MultiHeadAttention", mha, out4, heads),
			inputs: shapes1("q", "[B,S,8]", "k", "[...]", "v", "[...]"), want: []string{"[B,S,?]"}},
		{name: "MultiHeadAttention key missing", node: msNode("MultiHeadAttention", []string{"q"}, out4, heads),
			inputs: shapes1("q", "[B,S,8]"), wantErr: errSyntax},
		{name: "MultiHeadAttention packed query with key", node: msNode("MultiHeadAttention", []string{"q", "k"}, out4, heads),
			inputs: shapes1("q", "[B,S,2,3,4]", "k", "[B,S,8]"), wantErr: errInvalidShape},
		{name: "MultiHeadAttention packed KV with value", node: msNode("MultiHeadAttention", mha, out4, heads),
			inputs: shapes1("q", "[B,S,8]", "k", "[B,L,2,2,4]", "v", "[B,L,8]"), wantErr: errInvalidShape},
		{name: "MultiHeadAttention key hidden", node: msNode("MultiHeadAttention", mha, out4, heads),
			inputs: shapes1("q", "[B,S,8]", "k", "[B,L,6]", "v", "[B,L,8]"), wantErr: errInvalidShape},
		{name: "MultiHeadAttention value length", node: msNode("MultiHeadAttention", mha, out4, heads),
			inputs: shapes1("q", "[2,S,8]", "k", "[2,4,8]", "v", "[2,5,8]"), wantErr: errInvalidShape},
		{name: "MultiHeadAttention heads", node: msNode("MultiHeadAttention", mha, out4, attrInt("num_heads", 3)),
			inputs: shapes1("q", "[B,S,8]", "k", "[B,L,8]", "v", "[B,L,8]"), wantErr: errInvalidShape},
		{name: "MultiHeadAttention past heads", node: msNode("MultiHeadAttention", mhaPast[:8], out4, heads),
			inputs: shapes1("q", "[B,S,8]", "k", "[B,S,8]", "v", "[B,S,8]", "pk", "[B,4,P,2]", "pv", "[B,4,P,2]"), wantErr: errInvalidShape},

		{name: "GroupQueryAttention constant total", node: msNode("GroupQueryAttention", prompt, out4[:3], gqaAttrs...),
			inputs: shapes1("q", "[B,S,32]", "k", "[B,S,16]", "v", "[B,S,16]", "seqlens", "[B]"),
			consts: map[string][]int64{"s:total": {5}}, want: []string{"[B,S,32]", "[B,2,5,8]", "[B,2,5,8]"}},
		{name: "GroupQueryAttention total and past", node: msNode("GroupQueryAttention", gqa, out4[:3], gqaAttrs...),
			inputs: shapes1("q", "[B,1,32]", "k", "[B,1,16]", "v", "[B,1,16]", "pk", "[B,2,8,8]", "pv", "[B,2,8,8]", "seqlens", "[B]"),
			consts: map[string][]int64{"s:total": {5}}, want: []string{"[B,1,32]", "[B,2,8,8]", "[B,2,8,8]"}},
		{name: "GroupQueryAttention total and a symbolic past", node: msNode("GroupQueryAttention", gqa, out4[:3], gqaAttrs...),
			inputs: shapes1("q", "[B,1,32]", "k", "[B,1,16]", "v", "[B,1,16]", "pk", "[B,2,P,8]", "pv", "[B,2,P,8]", "seqlens", "[B]"),
			consts: map[string][]int64{"s:total": {5}}, want: []string{"[B,1,32]", "[B,2,max(P,5),8]", "[B,2,max(P,5),8]"}},
		{name: "GroupQueryAttention total not known", node: msNode("GroupQueryAttention", gqa, out4[:3], gqaAttrs...),
			inputs: shapes1("q", "[B,1,32]", "k", "[B,1,16]", "v", "[B,1,16]", "pk", "[B,2,8,8]", "pv", "[B,2,8,8]", "seqlens", "[B]", "total", "[]"),
			want:   []string{"[B,1,32]", "[B,2,8..,8]", "[B,2,8..,8]"}},
		{name: "GroupQueryAttention heads", node: msNode("GroupQueryAttention", prompt, out4[:3], attrInt("num_heads", 3), attrInt("kv_num_heads", 2)),
			inputs: shapes1("q", "[B,S,24]", "k", "[B,S,16]", "v", "[B,S,16]", "seqlens", "[B]", "total", "[]"), wantErr: errInvalidShape},
		{name: "GroupQueryAttention key", node: msNode("GroupQueryAttention", prompt, out4[:3], gqaAttrs...),
			inputs: shapes1("q", "[B,S,32]", "k", "[B,S,32]", "v", "[B,S,16]", "seqlens", "[B]", "total", "[]"), wantErr: errInvalidShape},
		{name: "GroupQueryAttention packed with value", node: msNode("GroupQueryAttention", []string{"q", "", "v", "", "", "seqlens", "total"}, out4[:3], gqaAttrs...),
			inputs: shapes1("q", "[B,S,64]", "v", "[B,S,16]", "seqlens", "[B]", "total", "[]"), wantErr: errInvalidShape},
		{name: "GroupQueryAttention past head size", node: msNode("GroupQueryAttention", gqa, out4[:3], gqaAttrs...),
			inputs:  shapes1("q", "[B,1,32]", "k", "[B,1,16]", "v", "[B,1,16]", "pk", "[B,2,P,4]", "pv", "[B,2,P,4]", "seqlens", "[B]", "total", "[]"),
			wantErr: errInvalidShape},
		{name: "GroupQueryAttention kv_num_heads", node: msNode("GroupQueryAttention", prompt, out4[:3], attrInt("num_heads", 4)),
			inputs: shapes1("q", "[B,S,32]", "k", "[B,S,16]", "v", "[B,S,16]", "seqlens", "[B]", "total", "[]"), wantErr: errSyntax},

		{name: "DecoderMaskedMultiHeadAttention past", node: msNode("DecoderMaskedMultiHeadAttention", dmmha[:7], out4, heads),
			inputs: shapes1("q", "[B,1,8]", "k", "[B,1,8]", "v", "[B,1,8]", "pk", "[B,2,P,4]", "pv", "[B,2,P,4]"),
			want:   []string{"[B,1,8]", "[B,2,P+1,4]", "[B,2,P+1,4]", "[B,2,1,P+1]"}},
		{name: "DecoderMaskedMultiHeadAttention no past", node: msNode("DecoderMaskedMultiHeadAttention", mha, out4, heads),
			inputs: shapes1("q", "[B,1,8]", "k", "[B,1,8]", "v", "[B,1,12]"),
			want:   []string{"[B,1,12]", "[B,2,1,4]", "[B,2,1,6]", "[B,2,1,1]"}},
		{name: "DecoderMaskedMultiHeadAttention packed", node: msNode("DecoderMaskedMultiHeadAttention", []string{"q", "", "", "", "", "pk", "pv", "psl"}, out4[:3], heads,
			attrInt("past_present_share_buffer", 1)),
			inputs: shapes1("q", "[B,1,24]", "pk", "[B,2,M,4]", "pv", "[B,2,M,4]"), consts: map[string][]int64{"psl": {3}},
			want: []string{"[B,1,?]", "[B,2,M,4]", "[B,2,M,4]"}},
		{name: "DecoderMaskedMultiHeadAttention two tokens", node: msNode("DecoderMaskedMultiHeadAttention", mha, out4[:1], heads),
			inputs: shapes1("q", "[B,2,8]", "k", "[B,2,8]", "v", "[B,2,8]"), wantErr: errInvalidShape},
		{name: "DecoderMaskedMultiHeadAttention cross heads", node: msNode("DecoderMaskedMultiHeadAttention", mha, out4[:1], heads),
			inputs: shapes1("q", "[B,1,8]", "k", "[B,4,L,2]", "v", "[B,4,L,2]"), wantErr: errInvalidShape},
		{name: "DecoderMaskedMultiHeadAttention value missing", node: msNode("DecoderMaskedMultiHeadAttention", []string{"q", "k"}, out4[:1], heads),
			inputs: shapes1("q", "[B,1,8]", "k", "[B,1,8]"), wantErr: errSyntax},

		{name: "RotaryEmbedding", node: msNode("RotaryEmbedding", []string{"x", "pos", "cos", "sin"}, y),
			inputs: shapes1("x", "[B,S,H]", "pos", "[B,S]", "cos", "[M,4]", "sin", "[M,4]"), want: []string{"[B,S,H]"}},
		{name: "RotaryEmbedding rank", node: msNode("RotaryEmbedding", []string{"x", "pos", "cos", "sin"}, y),
			inputs: shapes1("x", "[S,H]", "pos", "[B,S]", "cos", "[M,4]", "sin", "[M,4]"), wantErr: errInvalidShape},
		{name: "RotaryEmbedding cache rank", node: msNode("RotaryEmbedding", []string{"x", "pos", "cos", "sin"}, y),
			inputs: shapes1("x", "[B,S,H]", "pos", "[B,S]", "cos", "[4]", "sin", "[M,4]"), wantErr: errInvalidShape},
	}))
}

// TestMicrosoftRules covers the forms of the other contrib operators that
// testdata/ortcases.jsonl.gz does not, and the inputs each rule refuses.
func TestMicrosoftRules(t *testing.T) {
	skip := []string{"x", "skip", "gamma", "beta", "bias"}
	sum := []string{"y", "mean", "inv_std_var", "sum"}
	embed := []string{"ids", "seg", "word", "pos", "segemb", "gamma", "beta", "mask"}
	nbits := []graph.Attr{attrInt("K", 32), attrInt("N", 8), attrInt("block_size", 16)}
	q := func(prefix string) []string { return []string{prefix, prefix + "_scale", prefix + "_zp"} }
	qadd := append(append(q("a"), q("b")...), "c_scale", "c_zp")
	qconcat := append(append([]string{"y_scale", "y_zp"}, q("x1")...), q("x2")...)
	quant := []string{"x", "x_scale", "x_zp", "y_scale", "y_zp"}
	str := map[string]element.Type{"x": element.String}
	tok := func(more ...graph.Attr) graph.Node {
		return msNode("Tokenizer", []string{"x"}, []string{"y"}, append([]graph.Attr{attrInt("mark", 0), attrString("pad_value", "#"),
			attrInt("mincharnum", 1)}, more...)...)
	}
	sep := attrStrings("separators", " ")
	checkNode(t, []nodeCase{
		{name: "Tokenizer [N,C]", node: tok(sep), inputs: shapes1("x", "[N,C]"), types: str, want: []string{"[N,C,?]"}},
		{name: "Tokenizer [C] tokenexp", node: tok(attrString("tokenexp", "[a-z]+")), inputs: shapes1("x", "[C]"), types: str, want: []string{"[C,?]"}},
		{name: "Tokenizer empty [N,0]", node: tok(sep), inputs: shapes1("x", "[N,0]"), types: str, want: []string{"[N,0]"}},
		{name: "Tokenizer empty [0]", node: tok(sep), inputs: shapes1("x", "[0]"), types: str, want: []string{"[0]"}},
		{name: "Tokenizer maybe empty", node: msNode("Tokenizer", []string{"xs"}, []string{"y"}, tok(sep).Attrs...),
			pre:    []graph.Node{node("Slice", []string{"x", "st", "en", "ax"}, []string{"xs"})},
			consts: map[string][]int64{"st": {2}, "en": {100}, "ax": {1}}, inputs: shapes1("x", "[N,C]"), types: str, want: []string{"[...]"}},
		{name: "Tokenizer rank 3", node: tok(sep), inputs: shapes1("x", "[1,2,3]"), types: str, wantErr: errInvalidShape},
		{name: "Tokenizer pad_value", node: msNode("Tokenizer", []string{"x"}, []string{"y"}, attrInt("mark", 0), attrInt("mincharnum", 1), sep),
			inputs: shapes1("x", "[C]"), types: str, wantErr: errSyntax},
		{name: "Tokenizer no separators", node: tok(), inputs: shapes1("x", "[C]"), types: str, wantErr: errSyntax},
		{name: "Tokenizer characters of 2", node: msNode("Tokenizer", []string{"x"}, []string{"y"}, attrInt("mark", 1), attrString("pad_value", "#"),
			attrInt("mincharnum", 2), attrStrings("separators", "")), inputs: shapes1("x", "[C]"), types: str, wantErr: errSyntax},
	})
	checkNode(t, scalars([]nodeCase{
		{name: "SkipLayerNormalization hidden from gamma", node: msNode("SkipLayerNormalization", skip[:3], sum),
			inputs: shapes1("x", "[B,S,H]", "skip", "[S,H]", "gamma", "[768]"), want: []string{"[B,S,768]", "[...]", "[...]", "[B,S,768]"}},
		{name: "SkipLayerNormalization gamma", node: msNode("SkipLayerNormalization", skip, y),
			inputs: shapes1("x", "[B,S,8]", "skip", "[B,S,8]", "gamma", "[8]", "beta", "[6]", "bias", "[8]"), wantErr: errInvalidShape},
		{name: "SkipLayerNormalization skip batch", node: msNode("SkipLayerNormalization", skip[:3], y),
			inputs: shapes1("x", "[3,S,8]", "skip", "[2,S,8]", "gamma", "[8]"), wantErr: errInvalidShape},
		{name: "SkipLayerNormalization skip of a higher rank", node: msNode("SkipLayerNormalization", skip[:3], y),
			inputs: shapes1("x", "[S,8]", "skip", "[1,S,8]", "gamma", "[8]"), wantErr: errInvalidShape},
		{name: "SkipSimplifiedLayerNormalization bias", node: msNode("SkipSimplifiedLayerNormalization", skip[:4], sum),
			inputs: shapes1("x", "[T,H]", "skip", "[T,H]", "gamma", "[H]", "beta", "[64]"), want: []string{"[T,64]", "[...]", "[...]", "[T,64]"}},
		{name: "SkipLayerNormalization rank", node: msNode("SkipLayerNormalization", skip[:3], y),
			inputs: shapes1("x", "[8]", "skip", "[8]", "gamma", "[8]"), wantErr: errInvalidShape},

		{name: "EmbedLayerNormalization no mask", node: msNode("EmbedLayerNormalization", embed[:7], []string{"y", "index", "sum"}),
			inputs: shapes1("ids", "[2,S]", "seg", "[2,S]", "word", "[V,H]", "pos", "[P,H]", "segemb", "[2,H]", "gamma", "[64]", "beta", "[64]"),
			types:  map[string]element.Type{"ids": element.I32, "seg": element.I32},
			want:   []string{"[2,S,64]", "[2]", "[2,S,64]"}, values: []string{"", "[0,0]"}},
		{name: "EmbedLayerNormalization segment ids", node: msNode("EmbedLayerNormalization", embed, []string{"y", "index"}),
			inputs:  shapes1("ids", "[B,S]", "seg", "[B,4]", "word", "[V,8]", "pos", "[P,8]", "segemb", "[2,8]", "gamma", "[8]", "beta", "[8]", "mask", "[B,5]"),
			wantErr: errInvalidShape},
		{name: "EmbedLayerNormalization hidden", node: msNode("EmbedLayerNormalization", embed[:7], []string{"y"}),
			inputs:  shapes1("ids", "[B,S]", "seg", "[B,S]", "word", "[V,8]", "pos", "[P,6]", "segemb", "[2,8]", "gamma", "[8]", "beta", "[8]"),
			wantErr: errInvalidShape},
		{name: "EmbedLayerNormalization position_ids", node: msNode("EmbedLayerNormalization", append(embed, "posids"), []string{"y"}),
			inputs: shapes1("ids", "[B,3]", "seg", "[B,3]", "word", "[V,8]", "pos", "[P,8]", "segemb", "[2,8]", "gamma", "[8]", "beta", "[8]",
				"mask", "[B,3]", "posids", "[1,4]"), wantErr: errInvalidShape},
		{name: "EmbedLayerNormalization gamma missing", node: msNode("EmbedLayerNormalization", []string{"ids", "", "word", "pos", "", "", "beta"}, []string{"y"}),
			inputs: shapes1("ids", "[B,S]", "word", "[V,8]", "pos", "[P,8]", "beta", "[8]"), wantErr: errSyntax},

		{name: "GroupNorm NCHW", node: msNode("GroupNorm", []string{"x", "g", "b"}, y, attrInt("groups", 4), attrInt("activation", 0), attrInt("channels_last", 0)),
			inputs: shapes1("x", "[N,C,H,W]", "g", "[32]", "b", "[32]"), want: []string{"[N,32,H,W]"}},
		{name: "GroupNorm groups", node: msNode("GroupNorm", []string{"x", "g", "b"}, y, attrInt("groups", 4), attrInt("activation", 1)),
			inputs: shapes1("x", "[N,H,W,6]", "g", "[6]", "b", "[6]"), wantErr: errInvalidShape},
		{name: "GroupNorm groups symbolic", node: msNode("GroupNorm", []string{"x", "g", "b"}, y, attrInt("groups", 4), attrInt("activation", 1)),
			inputs: shapes1("x", "[N,H,W,C]", "g", "[C]", "b", "[C]"), want: []string{"[N,H,W,C]"},
			constraints: []string{"C % 4 == 0 (GroupNorm_0 (GroupNorm): the channels a multiple of groups 4)"}},
		{name: "GroupNorm activation", node: msNode("GroupNorm", []string{"x", "g", "b"}, y, attrInt("groups", 2)),
			inputs: shapes1("x", "[N,H,W,8]", "g", "[8]", "b", "[8]"), wantErr: errSyntax},

		{name: "Gelu", node: msNode("Gelu", []string{"x"}, y), inputs: shapes1("x", "[B,S,H]"), want: []string{"[B,S,H]"}},
		{name: "FastGelu bias", node: msNode("FastGelu", []string{"x", "b"}, y), inputs: shapes1("x", "[B,S,H]", "b", "[64]"), want: []string{"[B,S,64]"}},
		{name: "FastGelu bias size", node: msNode("FastGelu", []string{"x", "b"}, y), inputs: shapes1("x", "[B,S,8]", "b", "[6]"), wantErr: errInvalidShape},
		{name: "BiasGelu rank", node: msNode("BiasGelu", []string{"x", "b"}, y), inputs: shapes1("x", "[8]", "b", "[2,8]"), wantErr: errInvalidShape},
		{name: "BiasAdd", node: msNode("BiasAdd", []string{"x", "b", "s"}, y), inputs: shapes1("x", "[N,S,C]", "b", "[320]", "s", "[N,S,C]"),
			want: []string{"[N,S,320]"}},
		{name: "BiasAdd skip", node: msNode("BiasAdd", []string{"x", "b", "s"}, y), inputs: shapes1("x", "[N,4,C]", "b", "[C]", "s", "[N,5,C]"),
			wantErr: errInvalidShape},
		{name: "BiasSplitGelu symbolic", node: msNode("BiasSplitGelu", []string{"x", "b"}, y), inputs: shapes1("x", "[N,S,D]", "b", "[D]"),
			want: []string{"[N,S,D/2]"}, constraints: []string{"D % 2 == 0 (BiasSplitGelu_0 (BiasSplitGelu): X dim 2 (D) divisible by 2)"}},
		{name: "BiasSplitGelu odd", node: msNode("BiasSplitGelu", []string{"x", "b"}, y), inputs: shapes1("x", "[N,S,15]", "b", "[15]"),
			wantErr: errInvalidShape},

		{name: "FusedMatMul transBatchB transB", node: msNode("FusedMatMul", []string{"a", "b"}, y, attrInt("transBatchB", 1), attrInt("transB", 1)),
			inputs: shapes1("a", "[B,S,8]", "b", "[6,B,8]"), want: []string{"[B,S,6]"}},
		{name: "FusedMatMul vectors", node: msNode("FusedMatMul", []string{"a", "b"}, y, attrInt("transA", 1), attrInt("transBatchB", 1)),
			inputs: shapes1("a", "[8]", "b", "[8]"), want: []string{"[]"}},
		{name: "FusedMatMul 2-D transBatchA", node: msNode("FusedMatMul", []string{"a", "b"}, y, attrInt("transBatchA", 1)),
			inputs: shapes1("a", "[M,K]", "b", "[K,N]"), want: []string{"[M,N]"}},
		{name: "FusedMatMul inner dims", node: msNode("FusedMatMul", []string{"a", "b"}, y, attrInt("transBatchA", 1)),
			inputs: shapes1("a", "[S,B,8]", "b", "[B,6,8]"), wantErr: errInvalidShape},

		{name: "MatMulNBits", node: msNode("MatMulNBits", []string{"a", "w", "s"}, y, nbits...),
			inputs: shapes1("a", "[B,S,K]", "w", "[8,2,8]", "s", "[8,2]"), want: []string{"[B,S,8]"}},
		{name: "MatMulNBits 3 bits, float zero points", node: msNode("MatMulNBits", []string{"a", "w", "s", "zp"}, y, append(nbits, attrInt("bits", 3))...),
			inputs: shapes1("a", "[S,32]", "w", "[8,2,6]", "s", "[16]", "zp", "[8,2]"), want: []string{"[S,8]"}},
		{name: "MatMulNBits scales in the symbols", node: msNode("MatMulNBits", []string{"a", "w", "s"}, y, nbits...),
			inputs: shapes1("a", "[B,S,32]", "w", "[8,2,8]", "s", "[8,T]"), want: []string{"[B,S,8]"},
			constraints: []string{"T == 2 (MatMulNBits_0 (MatMulNBits): input 2 of 16 elements for scales (N·k_blocks))"}},
		{name: "MatMulNBits K", node: msNode("MatMulNBits", []string{"a", "w", "s"}, y, nbits...),
			inputs: shapes1("a", "[B,S,16]", "w", "[8,2,8]", "s", "[16]"), wantErr: errInvalidShape},
		{name: "MatMulNBits B", node: msNode("MatMulNBits", []string{"a", "w", "s"}, y, nbits...),
			inputs: shapes1("a", "[B,S,32]", "w", "[8,2,16]", "s", "[16]"), wantErr: errInvalidShape},
		{name: "MatMulNBits scales", node: msNode("MatMulNBits", []string{"a", "w", "s"}, y, nbits...),
			inputs: shapes1("a", "[B,S,32]", "w", "[8,2,8]", "s", "[8]"), wantErr: errInvalidShape},
		{name: "MatMulNBits bias", node: msNode("MatMulNBits", []string{"a", "w", "s", "", "", "bias"}, y, nbits...),
			inputs: shapes1("a", "[B,S,32]", "w", "[8,2,8]", "s", "[16]", "bias", "[4]"), wantErr: errInvalidShape},
		{name: "MatMulNBits block_size", node: msNode("MatMulNBits", []string{"a", "w", "s"}, y, attrInt("K", 32), attrInt("N", 8), attrInt("block_size", 24)),
			inputs: shapes1("a", "[B,S,32]"), wantErr: errInvalidShape},
		{name: "MatMulNBits bits", node: msNode("MatMulNBits", []string{"a", "w", "s"}, y, append(nbits, attrInt("bits", 9))...),
			inputs: shapes1("a", "[B,S,32]"), wantErr: errInvalidShape},
		{name: "MatMulNBits N missing", node: msNode("MatMulNBits", []string{"a", "w", "s"}, y, attrInt("K", 32), attrInt("block_size", 16)),
			inputs: shapes1("a", "[B,S,32]"), wantErr: errSyntax},

		{name: "QuantizeLinear axis", node: msNode("QuantizeLinear", []string{"x", "s", "zp"}, y, attrInt("axis", 1)),
			inputs: shapes1("x", "[N,C,H]", "s", "[16]", "zp", "[16]"), want: []string{"[N,16,H]"}},
		{name: "QuantizeLinear axis range", node: msNode("QuantizeLinear", []string{"x", "s"}, y, attrInt("axis", 3)),
			inputs: shapes1("x", "[N,C,H]", "s", "[C]"), wantErr: errInvalidShape},
		{name: "DequantizeLinear scale size", node: msNode("DequantizeLinear", []string{"x", "s", "zp"}, y, attrInt("axis", -1)),
			inputs: shapes1("x", "[N,8]", "s", "[8]", "zp", "[4]"), wantErr: errInvalidShape},

		{name: "QLinearAdd broadcast", node: msNode("QLinearAdd", qadd, y), inputs: shapes1("a", "[B,1,C]", "b", "[S,1]"), want: []string{"[B,S,C]"}},
		{name: "QLinearMul does not broadcast", node: msNode("QLinearMul", qadd, y), inputs: shapes1("a", "[B,3]", "b", "[4]"), wantErr: errInvalidShape},
		{name: "QLinearConcat", node: msNode("QLinearConcat", qconcat, y, attrInt("axis", -1)),
			inputs: shapes1("x1", "[B,S,4]", "x2", "[B,S,C]"), want: []string{"[B,S,C+4]"}},
		{name: "QLinearConcat names the input", node: msNode("QLinearConcat", qconcat, y, attrInt("axis", 1)),
			inputs: shapes1("x1", "[B,S,4]", "x2", "[B,L,5]"), wantErr: errInvalidShape},
		{name: "QLinearConcat triples", node: msNode("QLinearConcat", qconcat[:4], y, attrInt("axis", 1)),
			inputs: shapes1("x1", "[B,S,4]"), wantErr: errSyntax},
		{name: "QLinearConcat axis", node: msNode("QLinearConcat", qconcat, y), inputs: shapes1("x1", "[B,S,4]", "x2", "[B,L,4]"), wantErr: errSyntax},
		{name: "QLinearSigmoid", node: msNode("QLinearSigmoid", quant[:4], y), inputs: shapes1("x", "[B,S]"), want: []string{"[B,S]"}},
		{name: "QLinearSoftmax axis", node: msNode("QLinearSoftmax", quant, y, attrInt("opset", 13), attrInt("axis", 3)),
			inputs: shapes1("x", "[B,S,8]"), wantErr: errInvalidShape},
		{name: "QLinearSoftmax-1 default axis of a vector", node: msNode("QLinearSoftmax", quant, y, attrInt("opset", 11)),
			inputs: shapes1("x", "[8]"), wantErr: errInvalidShape},
		{name: "QLinearSoftmax opset", node: msNode("QLinearSoftmax", quant, y), inputs: shapes1("x", "[B,S,8]"), wantErr: errSyntax},
		{name: "QLinearAveragePool NHWC same", node: msNode("QLinearAveragePool", quant, y, attrInts("kernel_shape", 3, 3), attrInts("strides", 2, 2),
			attrString("auto_pad", "SAME_UPPER"), attrInt("channels_last", 1)), inputs: shapes1("x", "[N,H,W,C]"), want: []string{"[N,(H+1)//2,(W+1)//2,C]"}},
		{name: "QLinearAveragePool kernel_shape", node: msNode("QLinearAveragePool", quant, y), inputs: shapes1("x", "[N,C,H,W]"), wantErr: errSyntax},
		{name: "QLinearAveragePool rank", node: msNode("QLinearAveragePool", quant, y, attrInts("kernel_shape", 3, 3)),
			inputs: shapes1("x", "[N,C,H]"), wantErr: errInvalidShape},
		{name: "QLinearAveragePool too small", node: msNode("QLinearAveragePool", quant, y, attrInts("kernel_shape", 3, 3)),
			inputs: shapes1("x", "[N,C,1,8]"), wantErr: errInvalidShape},
		{name: "QLinearGlobalAveragePool 3-D NHWC", node: msNode("QLinearGlobalAveragePool", quant, y, attrInt("channels_last", 1)),
			inputs: shapes1("x", "[N,L,C]"), want: []string{"[N,1,C]"}},
		{name: "QLinearGlobalAveragePool may be empty", node: msNode("QLinearGlobalAveragePool", append([]string{"xp"}, quant[1:]...), y),
			pre:    []graph.Node{node("Pad", []string{"x", "p"}, []string{"xp"})},
			inputs: shapes1("x", "[N,C,H]"), consts: map[string][]int64{"p": {0, 0, 0, 0, 0, -2}}, want: []string{"[N,C,1]"},
			constraints: []string{"H >= 3 (QLinearGlobalAveragePool_0 (QLinearGlobalAveragePool): spatial axis 0 not empty)"}},
		{name: "QLinearGlobalAveragePool empty", node: msNode("QLinearGlobalAveragePool", quant, y), inputs: shapes1("x", "[N,C,0]"), wantErr: errInvalidShape},
		{name: "QLinearGlobalAveragePool rank", node: msNode("QLinearGlobalAveragePool", quant, y), inputs: shapes1("x", "[N,C]"), wantErr: errInvalidShape},

		{name: "NhwcConv same", node: msNode("NhwcConv", []string{"x", "w"}, y, attrInts("strides", 2, 2), attrString("auto_pad", "SAME_UPPER")),
			inputs: shapes1("x", "[N,H,W,C]", "w", "[16,C,3,3]"), want: []string{"[N,(H+1)//2,(W+1)//2,16]"}},
		{name: "NhwcConv channels", node: msNode("NhwcConv", []string{"x", "w"}, y), inputs: shapes1("x", "[N,H,W,3]", "w", "[16,4,3,3]"),
			wantErr: errInvalidShape},
		{name: "NhwcConv group", node: msNode("NhwcConv", []string{"x", "w"}, y, attrInt("group", 3)), inputs: shapes1("x", "[N,H,W,6]", "w", "[16,2,3,3]"),
			wantErr: errInvalidShape},
		{name: "NhwcConv group symbolic", node: msNode("NhwcConv", []string{"x", "w"}, y, attrInt("group", 3)), inputs: shapes1("x", "[N,H,W,6]", "w", "[M,2,1,1]"),
			want:        []string{"[N,H,W,M]"},
			constraints: []string{"M % 3 == 0 (NhwcConv_0 (NhwcConv): W's output channels (dim 0) a multiple of group 3)"}},
		{name: "NhwcConv bias", node: msNode("NhwcConv", []string{"x", "w", "b"}, y), inputs: shapes1("x", "[N,H,W,4]", "w", "[16,4,3,3]", "b", "[8]"),
			wantErr: errInvalidShape},

		{name: "FusedConv sum", node: msNode("FusedConv", []string{"x", "w", "b", "z"}, y, attrString("activation", "Relu")),
			inputs: shapes1("x", "[N,4,H,W]", "w", "[8,4,1,1]", "b", "[8]", "z", "[N,M,H,W]"), want: []string{"[N,8,H,W]"}},
		{name: "FusedConv sum of another size", node: msNode("FusedConv", []string{"x", "w", "", "z"}, y),
			inputs: shapes1("x", "[N,4,8,8]", "w", "[8,4,3,3]", "z", "[N,8,8,8]"), wantErr: errInvalidShape},
		{name: "FusedConv sum of another rank", node: msNode("FusedConv", []string{"x", "w", "", "z"}, y),
			inputs: shapes1("x", "[N,4,8,8]", "w", "[8,4,1,1]", "z", "[8,8,8]"), wantErr: errInvalidShape},
		{name: "FusedConv strided", node: msNode("FusedConv", []string{"x", "w"}, y, attrInts("strides", 2, 2), attrString("activation", "Sigmoid")),
			inputs: shapes1("x", "[N,3,H,W]", "w", "[16,3,3,3]"), want: []string{"[N,16,(H+1)//2-1,(W+1)//2-1]"},
			constraints: []string{"H >= 3 (FusedConv_0 (FusedConv): spatial axis 0 (axis 2): the output size (H+1)//2-1 of input size H at least 1)",
				"W >= 3 (FusedConv_0 (FusedConv): spatial axis 1 (axis 3): the output size (W+1)//2-1 of input size W at least 1)"}},
		{name: "FusedGemm no C", node: msNode("FusedGemm", []string{"a", "b"}, y, attrInt("transA", 1), attrString("activation", "Relu")),
			inputs: shapes1("a", "[K,M]", "b", "[K,10]"), want: []string{"[M,10]"}},
		{name: "FusedGemm C", node: msNode("FusedGemm", []string{"a", "b", "c"}, y, attrInt("transB", 1)),
			inputs: shapes1("a", "[M,64]", "b", "[10,64]", "c", "[1,10]"), want: []string{"[M,10]"}},
		{name: "FusedGemm inner dims", node: msNode("FusedGemm", []string{"a", "b"}, y), inputs: shapes1("a", "[M,64]", "b", "[32,10]"),
			wantErr: errInvalidShape},

		{name: "DynamicQuantizeMatMul", node: msNode("DynamicQuantizeMatMul", []string{"a", "b", "s"}, y),
			inputs: shapes1("a", "[B,S,K]", "b", "[64,N]"), want: []string{"[B,S,N]"},
			constraints: []string{"K == 64 (DynamicQuantizeMatMul_0 (DynamicQuantizeMatMul): the inner dims (A's last, B's second to last))"}},
		{name: "DynamicQuantizeMatMul inner dims", node: msNode("DynamicQuantizeMatMul", []string{"a", "b", "s", "", "bias"}, y),
			inputs: shapes1("a", "[B,S,32]", "b", "[64,8]", "bias", "[8]"), wantErr: errInvalidShape},
		{name: "MatMulIntegerToFloat batch", node: msNode("MatMulIntegerToFloat", []string{"a", "b", "sa", "sb"}, y),
			inputs: shapes1("a", "[B,1,S,8]", "b", "[H,8,6]"), want: []string{"[B,H,S,6]"}},
		{name: "MatMulIntegerToFloat inner dims", node: msNode("MatMulIntegerToFloat", []string{"a", "b", "sa", "sb"}, y),
			inputs: shapes1("a", "[S,8]", "b", "[6,8]"), wantErr: errInvalidShape},
		{name: "MatMulInteger16", node: msNode("MatMulInteger16", []string{"a", "b"}, y), inputs: shapes1("a", "[S,8]", "b", "[8]"),
			want: []string{"[S]"}},
		{name: "QGemm transposed", node: msNode("QGemm", []string{"a", "sa", "za", "b", "sb", "zb", "c", "sy", "zy"}, y, attrInt("transA", 1)),
			inputs: shapes1("a", "[K,M]", "b", "[K,N]", "c", "[N]"), want: []string{"[M,N]"}},
		{name: "QGemm rank", node: msNode("QGemm", []string{"a", "sa", "za", "b", "sb", "zb"}, y),
			inputs: shapes1("a", "[B,M,K]", "b", "[K,N]"), wantErr: errInvalidShape},
		{name: "QGemm C", node: msNode("QGemm", []string{"a", "sa", "za", "b", "sb", "zb", "c"}, y),
			inputs: shapes1("a", "[M,8]", "b", "[8,6]", "c", "[4]"), wantErr: errInvalidShape},
		{name: "QLinearLeakyRelu", node: msNode("QLinearLeakyRelu", quant, y), inputs: shapes1("x", "[N,C,H,W]"), want: []string{"[N,C,H,W]"}},
		{name: "QLinearWhere", node: msNode("QLinearWhere", []string{"c", "x", "sx", "zx", "w", "sw", "zw", "sz", "zz"}, y),
			inputs: shapes1("c", "[B,1,1]", "x", "[S,1]", "w", "[D]"), want: []string{"[B,S,D]"}},
		{name: "QLinearWhere does not broadcast", node: msNode("QLinearWhere", []string{"c", "x", "sx", "zx", "w", "sw", "zw", "sz", "zz"}, y),
			inputs: shapes1("c", "[3]", "x", "[S,1]", "w", "[4]"), wantErr: errInvalidShape},
		{name: "QLinearConv channels last", node: msNode("QLinearConv", []string{"x", "sx", "zx", "w", "sw", "zw", "sy", "zy"}, y,
			attrInt("channels_last", 1), attrInts("strides", 2, 2)), inputs: shapes1("x", "[N,H,W,C]", "w", "[16,C,1,1]"),
			want: []string{"[N,(H+1)//2,(W+1)//2,16]"}},
		{name: "QLinearConv channels last channels", node: msNode("QLinearConv", []string{"x", "sx", "zx", "w", "sw", "zw", "sy", "zy"}, y,
			attrInt("channels_last", 1)), inputs: shapes1("x", "[N,H,W,3]", "w", "[16,4,1,1]"), wantErr: errInvalidShape},
		{name: "NhwcMaxPool", node: msNode("NhwcMaxPool", []string{"x"}, y, attrInts("kernel_shape", 3, 3), attrInts("dilations", 2, 2)),
			inputs: shapes1("x", "[N,H,W,C]"), want: []string{"[N,H-4,W-4,C]"},
			constraints: []string{"H >= 4 (NhwcMaxPool_0 (NhwcMaxPool): spatial axis 0 (axis 2): the output size of input size H not negative)",
				"W >= 4 (NhwcMaxPool_0 (NhwcMaxPool): spatial axis 1 (axis 3): the output size of input size W not negative)"}},
		{name: "NhwcMaxPool too small", node: msNode("NhwcMaxPool", []string{"x"}, y, attrInts("kernel_shape", 3, 3)),
			inputs: shapes1("x", "[N,1,8,C]"), wantErr: errInvalidShape},
		{name: "QAttention past", node: msNode("QAttention", []string{"x", "w", "b", "sx", "sw", "", "", "", "past"}, []string{"y", "present"}, attrInt("num_heads", 2)),
			inputs: shapes1("x", "[B,S,8]", "w", "[8,24]", "b", "[24]", "past", "[2,B,2,P,4]"), want: []string{"[B,S,8]", "[2,B,2,S+P,4]"}},
		{name: "QAttention heads", node: msNode("QAttention", []string{"x", "w", "b", "sx", "sw"}, y, attrInt("num_heads", 3)),
			inputs: shapes1("x", "[B,S,8]", "w", "[8,24]", "b", "[24]"), wantErr: errInvalidShape},
		{name: "DynamicQuantizeLSTM transposed weights", node: msNode("DynamicQuantizeLSTM",
			[]string{"x", "w", "r", "", "", "", "", "", "ws", "wz", "rs", "rz"}, []string{"y", "yh", "yc"}),
			inputs: shapes1("x", "[T,B,I]", "w", "[1,16,12]", "r", "[1,3,12]"), want: []string{"[T,1,B,3]", "[1,B,3]", "[1,B,3]"},
			constraints: []string{}},
		{name: "DynamicQuantizeLSTM LSTM's weights", node: msNode("DynamicQuantizeLSTM",
			[]string{"x", "w", "r", "", "", "", "", "", "ws", "wz", "rs", "rz"}, []string{"y", "yh", "yc"}, attrInt("hidden_size", 3)),
			inputs: shapes1("x", "[T,B,4]", "w", "[1,12,4]", "r", "[1,12,3]"), wantErr: errInvalidShape},
		{name: "QEmbedLayerNormalization", node: msNode("QEmbedLayerNormalization", []string{"ids", "", "we", "pe", "", "g", "b", "",
			"s1", "s2", "", "s3", "s4", "z1", "z2", "", "z3", "z4"}, []string{"y", "mask"}),
			inputs: shapes1("ids", "[B,S]", "we", "[V,H]", "pe", "[P,H]", "g", "[H]", "b", "[H]"), want: []string{"[B,S,H]", "[B]"}},
		{name: "QEmbedLayerNormalization gamma", node: msNode("QEmbedLayerNormalization", []string{"ids", "", "we", "pe", "", "g", "b", "",
			"s1", "s2", "", "s3", "s4", "z1", "z2", "", "z3", "z4"}, []string{"y", "mask"}),
			inputs: shapes1("ids", "[B,S]", "we", "[V,8]", "pe", "[P,8]", "g", "[4]", "b", "[8]"), wantErr: errInvalidShape},
		{name: "Inverse", node: msNode("Inverse", []string{"x"}, y), inputs: shapes1("x", "[B,N,M]"), want: []string{"[B,N,M]"},
			constraints: []string{}},
		{name: "Inverse rank", node: msNode("Inverse", []string{"x"}, y), inputs: shapes1("x", "[4]"), wantErr: errInvalidShape},
		{name: "ExpandDims", node: msNode("ExpandDims", []string{"x", "a"}, y), inputs: shapes1("x", "[B,S]"),
			consts: map[string][]int64{"s:a": {-1}}, want: []string{"[B,S,1]"}},
		{name: "ExpandDims axis range", node: msNode("ExpandDims", []string{"x", "a"}, y), inputs: shapes1("x", "[B,S]"),
			consts: map[string][]int64{"s:a": {3}}, wantErr: errInvalidShape},
		{name: "ExpandDims axis unknown", node: msNode("ExpandDims", []string{"x", "a"}, y), inputs: shapes1("x", "[B,S]", "a", "[]"),
			want: []string{"[?,?,?]"}},
		{name: "Unique", node: msNode("Unique", []string{"x"}, []string{"u", "idx", "n"}), inputs: shapes1("x", "[1]"),
			want: []string{"[1]", "[1]", "[1]"}},
		{name: "Unique rank", node: msNode("Unique", []string{"x"}, []string{"u", "idx", "n"}), inputs: shapes1("x", "[2,3]"), wantErr: errInvalidShape},
		{name: "CDist", node: msNode("CDist", []string{"a", "b"}, y), inputs: shapes1("a", "[N,K]", "b", "[M,8]"), want: []string{"[N,M]"},
			constraints: []string{"K == 8 (CDist_0 (CDist): the columns K of A and B)"}},
		{name: "CDist columns", node: msNode("CDist", []string{"a", "b"}, y), inputs: shapes1("a", "[2,3]", "b", "[4,5]"), wantErr: errInvalidShape},
		{name: "Range without delta", node: msNode("Range", []string{"s", "l"}, y), consts: map[string][]int64{"s:s": {2}, "s:l": {7}},
			want: []string{"[5]"}, values: []string{"[2,3,4,5,6]"}},
		{name: "Pad 2-D pads", node: msNode("Pad", []string{"x", "p"}, y), inputs: shapes1("x", "[B,S]"),
			tensors: map[string]*graph.Const{"p": ints([]int64{1, 4}, 0, 1, 0, 2)}, want: []string{"[B,S+3]"}},
		{name: "CropAndResize", node: msNode("CropAndResize", []string{"x", "r", "i", "c"}, y), inputs: shapes1("x", "[N,C,H,W]", "r", "[R,4]", "i", "[R]"),
			consts: map[string][]int64{"c": {7, 5}}, want: []string{"[R,C,7,5]"}},
		{name: "CropAndResize rois", node: msNode("CropAndResize", []string{"x", "r", "i", "c"}, y), inputs: shapes1("x", "[N,C,H,W]", "r", "[R,5]", "i", "[R]"),
			consts: map[string][]int64{"c": {7, 5}}, wantErr: errInvalidShape},
		{name: "MurmurHash3", node: msNode("MurmurHash3", []string{"x"}, y), inputs: shapes1("x", "[B,S]"), want: []string{"[B,S]"}},
		{name: "NhwcMaxPool kernel_shape", node: msNode("NhwcMaxPool", []string{"x"}, y), inputs: shapes1("x", "[N,H,W,C]"), wantErr: errSyntax},
	}))
}

// TestMicrosoftTypes checks the element types of the outputs: the quantized operators keep the
// quantized type, QuantizeLinear takes its zero point's, MatMulNBits and the layer norms A's or
// the input's, EmbedLayerNormalization's mask_index is int32.
func TestMicrosoftTypes(t *testing.T) {
	quant := []string{"x", "x_scale", "x_zp", "y_scale", "y_zp"}
	cases := []typeCase{
		{nodeCase{node: msNode("QuantizeLinear", []string{"x", "s", "zp"}, y), inputs: shapes1("x", "[2,3]", "s", "[]", "zp", "[]"),
			types: map[string]element.Type{"zp": element.I16}}, []element.Type{element.I16}},
		{nodeCase{node: msNode("QuantizeLinear", []string{"x", "s"}, y), inputs: shapes1("x", "[2,3]", "s", "[]")}, []element.Type{element.U8}},
		{nodeCase{node: msNode("DequantizeLinear", []string{"x", "s", "zp"}, y), inputs: shapes1("x", "[2,3]", "s", "[]", "zp", "[]"),
			types: map[string]element.Type{"x": element.I4, "s": element.F16, "zp": element.I4}}, []element.Type{element.F16}},
		{nodeCase{node: msNode("QLinearSoftmax", quant, y, attrInt("opset", 13)), inputs: shapes1("x", "[2,3]"),
			types: map[string]element.Type{"x": element.I8}}, []element.Type{element.I8}},
		{nodeCase{node: msNode("QLinearConcat", []string{"ys", "yzp", "x1", "s1", "z1"}, y, attrInt("axis", 0)), inputs: shapes1("yzp", "[]", "x1", "[2]"),
			types: map[string]element.Type{"yzp": element.I8, "x1": element.I8}}, []element.Type{element.I8}},
		{nodeCase{node: msNode("MatMulNBits", []string{"a", "w", "s"}, y, attrInt("K", 16), attrInt("N", 2), attrInt("block_size", 16)),
			inputs: shapes1("a", "[3,16]", "w", "[2,1,8]", "s", "[2]"), types: map[string]element.Type{"a": element.F16}}, []element.Type{element.F16}},
		{nodeCase{node: msNode("EmbedLayerNormalization", []string{"ids", "", "word", "pos", "", "gamma", "beta"}, []string{"y", "index", "sum"}),
			inputs: shapes1("ids", "[2,3]", "word", "[10,8]", "pos", "[16,8]", "gamma", "[8]", "beta", "[8]"),
			types:  map[string]element.Type{"ids": element.I32, "word": element.F16}}, []element.Type{element.F16, element.I32, element.F16}},
		{nodeCase{node: msNode("GroupQueryAttention", []string{"q", "k", "v", "pk", "pv", "sl", "t"}, []string{"y", "pk1", "pv1"},
			attrInt("num_heads", 2), attrInt("kv_num_heads", 1)),
			inputs: shapes1("q", "[1,1,16]", "k", "[1,1,8]", "v", "[1,1,8]", "pk", "[1,1,4,8]", "pv", "[1,1,4,8]", "sl", "[1]", "t", "[]"),
			types:  map[string]element.Type{"pk": element.U8, "pv": element.U8}}, []element.Type{element.F32, element.U8, element.U8}},
	}
	for i := range cases {
		cases[i].nodeCase = scalars([]nodeCase{cases[i].nodeCase})[0]
	}
	checkTypes(t, cases)
}

var msFuzzOps = []string{"Attention", "MultiHeadAttention", "GroupQueryAttention", "DecoderMaskedMultiHeadAttention",
	"RotaryEmbedding", "SkipLayerNormalization", "SkipSimplifiedLayerNormalization", "EmbedLayerNormalization", "GroupNorm",
	"Gelu", "QuickGelu", "FastGelu", "BiasGelu", "BiasAdd", "BiasSplitGelu", "FusedMatMul", "MatMulNBits", "QuantizeLinear",
	"DequantizeLinear", "QLinearAdd", "QLinearMul", "QLinearConcat", "QLinearSigmoid", "QLinearSoftmax", "QLinearAveragePool",
	"QLinearGlobalAveragePool", "NhwcConv", "FusedConv", "FusedGemm", "DynamicQuantizeMatMul", "MatMulIntegerToFloat", "MatMulInteger16",
	"QGemm", "QLinearLeakyRelu", "QLinearWhere", "QLinearConv", "NhwcMaxPool", "QAttention", "DynamicQuantizeLSTM",
	"QEmbedLayerNormalization", "Inverse", "Trilu", "ExpandDims", "Unique", "CDist", "Range", "Pad", "GridSample", "CropAndResize",
	"MurmurHash3"}

// msFuzzAttrs are the integer attributes FuzzMicrosoftRules gives nodes, each with the values it
// draws from.
var msFuzzAttrs = []struct {
	name   string
	values []int64
}{
	{"num_heads", []int64{1, 2, 4}}, {"kv_num_heads", []int64{1, 2}}, {"K", []int64{16, 32}}, {"N", []int64{2, 4}},
	{"block_size", []int64{16, 32}}, {"bits", []int64{2, 4, 8}}, {"groups", []int64{1, 2}}, {"activation", []int64{0, 1}},
	{"channels_last", []int64{0, 1}}, {"past_present_share_buffer", []int64{0, 1}}, {"transA", []int64{0, 1}},
	{"transB", []int64{0, 1}}, {"transBatchA", []int64{0, 1}}, {"transBatchB", []int64{0, 1}}, {"opset", []int64{1, 13}},
	{"axis", []int64{-1, 0, 1, 2}}, {"group", []int64{1, 2}}, {"ceil_mode", []int64{0, 1}},
}

// FuzzMicrosoftRules runs the rules of the com.microsoft operators on nodes built from fuzzed bytes
// (operator, graph inputs whose dims are integers or the symbols A, B, C, scalar integer constants
// for the sequence lengths, attributes) with the symbols and bound to integers, as FuzzNNRules does
// (checkSymbolicBound): no rule panics, no output dim is below 0, and every dim the symbolic run
// determines evaluates at the binding to the bound run's.
func FuzzMicrosoftRules(f *testing.F) {
	f.Add(uint8(0), []byte{2, 1, 4, 3, 3, 255, 254, 8, 2, 2, 8, 24, 1, 1, 24, 1, 1, 1, 1, 0})
	f.Add(uint8(2), []byte{1, 2, 3, 7, 3, 255, 254, 32, 3, 255, 254, 16, 3, 255, 254, 16, 0, 4, 255, 2, 253, 8, 1, 1, 5, 1, 1})
	f.Add(uint8(16), []byte{3, 1, 2, 3, 3, 255, 254, 32, 3, 8, 2, 8, 1, 16, 0, 0, 5, 1, 1, 1, 3, 1, 0})
	f.Add(uint8(26), []byte{1, 2, 2, 4, 255, 6, 7, 4, 4, 8, 4, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3})
	f.Fuzz(func(t *testing.T, op uint8, data []byte) {
		r := &fuzzReader{b: data}
		n := msNode(msFuzzOps[int(op)%len(msFuzzOps)], nil, nil)
		g := &graph.Graph{Consts: map[string]*graph.Const{}, Declared: map[string]graph.Decl{}}
		binding := map[string]int64{"A": 1 + abs(r.next())%9, "B": 1 + abs(r.next())%9, "C": 1 + abs(r.next())%9}
		for i := range abs(r.next()) % 12 {
			name := "in" + string(rune('a'+i))
			switch abs(r.next()) % 6 {
			case 0:
				n.Inputs = append(n.Inputs, "")
				continue
			case 1:
				g.Consts[name] = intConst(name, []int64{abs(r.next()) % 9}, []int64{})
			default:
				g.Inputs = append(g.Inputs, graph.Input{Name: name, Decl: r.decl(5, 40)})
			}
			n.Inputs = append(n.Inputs, name)
		}
		for i := range 1 + abs(r.next())%4 {
			n.Outputs = append(n.Outputs, "out"+string(rune('0'+i)))
		}
		for _, a := range msFuzzAttrs {
			if v := r.next(); v%2 != 0 {
				n.Attrs = append(n.Attrs, attrInt(a.name, a.values[abs(v/2)%int64(len(a.values))]))
			}
		}
		for _, name := range []string{"kernel_shape", "strides", "pads", "qkv_hidden_sizes"} {
			v := abs(r.next())
			if v%2 == 0 {
				continue
			}
			a := attrInts(name)
			for range v / 2 % 5 {
				a.Ints = append(a.Ints, abs(r.next())%4+1)
			}
			n.Attrs = append(n.Attrs, a)
		}
		g.Nodes = []graph.Node{n}
		checkSymbolicBound(t, g, binding)
	})
}

// TestMicrosoftKernels pins the element types of the quantized contrib operators that onnxruntime
// 1.20.1 has CPU kernels for, as onnxruntime-node 1.20.1 loads or refuses one-node models of each
// combination ("Could not find an implementation for QGemm(1) node"): a combination it refuses is
// the node's TypeErr, wrapping errcode.ErrNoKernel; one it loads, no TypeErr.
func TestMicrosoftKernels(t *testing.T) {
	u8, i8, u16, i16, f32, i64 := element.U8, element.I8, element.U16, element.I16, element.F32, element.I64
	qgemm := func(a, b, y element.Type) nodeCase {
		in := []string{"a", "sa", "za", "b", "sb", "zb"}
		types := map[string]element.Type{"a": a, "za": a, "b": b, "zb": b}
		if y != f32 {
			in = append(in, "", "sy", "zy")
			types["zy"] = y
		}
		return nodeCase{node: msNode("QGemm", in, []string{"y"}), inputs: shapes1("a", "[2,4]", "b", "[4,3]"), types: types}
	}
	two := func(op string, a, b element.Type, extra ...string) nodeCase {
		return nodeCase{node: msNode(op, append([]string{"a", "b"}, extra...), []string{"y"}), inputs: shapes1("a", "[2,4]", "b", "[4,3]"),
			types: map[string]element.Type{"a": a, "b": b}}
	}
	conv := func(x, w element.Type) nodeCase {
		return nodeCase{node: msNode("QLinearConv", []string{"x", "s", "zx", "w", "s", "zw", "s", "zx"}, []string{"y"}, attrInt("channels_last", 1)),
			inputs: shapes1("x", "[1,5,5,2]", "w", "[3,2,3,3]"), types: map[string]element.Type{"x": x, "zx": x, "w": w, "zw": w}}
	}
	unique := func(x element.Type) nodeCase {
		return nodeCase{node: msNode("Unique", []string{"x"}, []string{"y", "idx", "n"}), inputs: shapes1("x", "[5]"),
			types: map[string]element.Type{"x": x}}
	}
	cases := []struct {
		name string
		tc   nodeCase
		runs bool
	}{
		{"QGemm u8 u8 f32", qgemm(u8, u8, f32), true},
		{"QGemm u8 u8 u8", qgemm(u8, u8, u8), true},
		{"QGemm u8 u8 i8", qgemm(u8, u8, i8), false},
		{"QGemm u8 i8 f32", qgemm(u8, i8, f32), true},
		{"QGemm u8 i8 u8", qgemm(u8, i8, u8), true},
		{"QGemm u8 i8 i8", qgemm(u8, i8, i8), false},
		{"QGemm i8 u8 f32", qgemm(i8, u8, f32), false},
		{"QGemm i8 u8 u8", qgemm(i8, u8, u8), false},
		{"QGemm i8 u8 i8", qgemm(i8, u8, i8), false},
		{"QGemm i8 i8 f32", qgemm(i8, i8, f32), true},
		{"QGemm i8 i8 u8", qgemm(i8, i8, u8), false},
		{"QGemm i8 i8 i8", qgemm(i8, i8, i8), true},
		{"MatMulIntegerToFloat u8 u8", two("MatMulIntegerToFloat", u8, u8, "sa", "sb"), true},
		{"MatMulIntegerToFloat u8 i8", two("MatMulIntegerToFloat", u8, i8, "sa", "sb"), true},
		{"MatMulIntegerToFloat i8 u8", two("MatMulIntegerToFloat", i8, u8, "sa", "sb"), false},
		{"MatMulIntegerToFloat i8 i8", two("MatMulIntegerToFloat", i8, i8, "sa", "sb"), true},
		{"MatMulInteger16 u16 u16", two("MatMulInteger16", u16, u16), false},
		{"MatMulInteger16 u16 i16", two("MatMulInteger16", u16, i16), false},
		{"MatMulInteger16 i16 u16", two("MatMulInteger16", i16, u16), false},
		{"MatMulInteger16 i16 i16", two("MatMulInteger16", i16, i16), true},
		{"QLinearConv u8 u8", conv(u8, u8), true},
		{"QLinearConv u8 i8", conv(u8, i8), true},
		{"QLinearConv i8 u8", conv(i8, u8), false},
		{"QLinearConv i8 i8", conv(i8, i8), true},
		{"Unique f32", unique(f32), true},
		{"Unique i64", unique(i64), false},
	}
	for _, c := range cases {
		res := runNode(t, scalars([]nodeCase{c.tc})[0])
		r := res.Nodes[len(res.Nodes)-1]
		if r.Err != nil {
			t.Errorf("%s: %v", c.name, r.Err)
		}
		if c.runs && r.TypeErr != nil {
			t.Errorf("%s: onnxruntime loads it, TypeErr %v", c.name, r.TypeErr)
		}
		if !c.runs && (r.TypeErr == nil || !errorsIs(r.TypeErr, errcode.ErrNoKernel)) {
			t.Errorf("%s: onnxruntime has no kernel, TypeErr %v", c.name, r.TypeErr)
		}
	}
}
