package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// domainMicrosoft is the domain of onnxruntime's contrib operators, as models name it.
const domainMicrosoft = "com.microsoft"

// microsoftAttention holds the rules of onnxruntime's attention operators (com.microsoft,
// version 1, as onnxruntime's docs/ContribOperators.md documents them): the hidden size splits into
// num_heads heads of hidden/num_heads, an exact quotient; the KV caches (past, present) hold
// [batch, heads, length, head size] per key and value, and a present grows the past by the new
// tokens unless the two share one buffer, whose length it keeps. The input and output counts are
// the documentation's, which onnxruntime 1.20.1's schemas take part of (MultiHeadAttention 1 to 8
// inputs and 1 to 3 outputs, GroupQueryAttention 7 to 9 inputs and 3 outputs): a model for a
// newer onnxruntime is read too.
var microsoftAttention = table{domainMicrosoft, []opDef{
	{"Attention", since(1), span(2, 7), span(1, 2), 0, attention},
	{"MultiHeadAttention", since(1), span(1, 10), span(1, 4), reads(8), multiHeadAttention},
	{"GroupQueryAttention", since(1), span(7, 16), span(1, 4), reads(6), groupQueryAttention},
	{"DecoderMaskedMultiHeadAttention", since(1), span(1, 11), span(1, 4), reads(7), decoderMaskedMHA},
	{"RotaryEmbedding", since(1), fixed(4), fixed(1), 0, rotaryEmbedding},
}}

// positiveAttr returns the integer attribute name, which the node must have (an error wrapping
// errcode.ErrSyntax otherwise) and which must be 1 or more (errcode.ErrInvalidShape otherwise):
// num_heads, kv_num_heads, groups.
func positiveAttr(c *ctx, name string) (int64, error) {
	if _, ok := c.n.Attr(name); !ok {
		return 0, c.Errorf(errcode.ErrSyntax, "attribute %s is missing: %s takes it", name, c.n.Op)
	}
	v, err := c.Int(name, 0)
	if err == nil && v < 1 {
		err = c.Errorf(errcode.ErrInvalidShape, "%s %d is less than 1", name, v)
	}
	return v, err
}

// queryHeads returns the query (input 0) and the num_heads attribute of an attention node, both of
// which it must have (positiveAttr).
func queryHeads(c *ctx) (*Info, int64, error) {
	q, err := c.Input(0)
	if err != nil {
		return nil, 0, err
	}
	heads, err := positiveAttr(c, "num_heads")
	return q, heads, err
}

// fixedDims returns the dims of input i, in, which the operator takes of rank r: r unknown dims
// when its rank is not known. Another rank is an error wrapping errcode.ErrInvalidShape.
func fixedDims(c *ctx, in *Info, i, r int) ([]sym.Dim, error) {
	if _, _, err := c.RequireRank(in, i, r, r); err != nil {
		return nil, err
	}
	return dimsOf(c, in, r), nil
}

// inputDims returns the dims of input i, which the node must give (an error wrapping
// errcode.ErrSyntax otherwise) of rank r (fixedDims), unified with want as unifyDims does; what
// names the input.
func inputDims(c *ctx, i, r int, want []*sym.Dim, what string) ([]sym.Dim, error) {
	in, err := c.Input(i)
	if err != nil {
		return nil, err
	}
	d, err := fixedDims(c, in, i, r)
	if err != nil {
		return nil, err
	}
	return d, unifyDims(c, d, want, what)
}

// pastKV reads the KV cache inputs past_key and past_value (inputs i and i+1, either left out),
// [b, heads, P, head] and [b, heads, P, vHead], unifying their dims with b, heads, head and vHead
// and with each other's P. It returns P (0 when both are left out), whether either is given, and
// past_key's type (past_value's without it).
func pastKV(c *ctx, i int, b, heads sym.Dim, head, vHead *sym.Dim) (past sym.Dim, given bool, t element.Type, err error) {
	past = sym.Const(0)
	for k, what := range []string{"past_key", "past_value"} {
		p := c.In(i + k)
		if p == nil {
			continue
		}
		want := []*sym.Dim{&b, &heads, nil, []*sym.Dim{head, vHead}[k]}
		if given {
			want[2] = &past
		}
		d, err := inputDims(c, i+k, 4, want, what)
		if err != nil {
			return past, given, t, err
		}
		if !given {
			t = p.Type
		}
		past, given = d[2], true
	}
	return past, given, t, nil
}

// unifyDims unifies dims[k] with want[k] for each k where want[k] is set (a nil entry of want is
// skipped), in place; what names the tensor in the error, which wraps errcode.ErrInvalidShape.
func unifyDims(c *ctx, dims []sym.Dim, want []*sym.Dim, what string) error {
	for k, w := range want {
		if w == nil {
			continue
		}
		d, err := c.Unify(dims[k], *w, what+" dim "+itoa(k))
		if err != nil {
			return err
		}
		dims[k], *w = d, d
	}
	return nil
}

// exactQuo returns a/k, for a dim that k must divide for the node to run (a hidden size into
// num_heads heads, a packed QKV into its parts): the integer when a is one (an error wrapping
// errcode.ErrInvalidShape when k does not divide it), else the exact quotient a/k, the node
// requiring a % k == 0 of the symbols (requireMultiple); what names a in the error and the
// condition.
func exactQuo(c *ctx, a sym.Dim, k int64, what string) (sym.Dim, error) {
	if n, ok := a.Static(); ok {
		if n%k != 0 {
			return a, c.Errorf(errcode.ErrInvalidShape, "%s %d is not divisible by %d", what, n, k)
		}
		return sym.Const(n / k), nil
	}
	if err := requireMultiple(c, a, k, what+" divisible by "+itoa(int(k))); err != nil {
		return a, err
	}
	return sym.QuoDims(a, sym.Const(k)), nil
}

// declaredType returns the element type the model declares for output i, element.Undefined when
// it declares none: the type of an output the operator's documentation leaves free (an attention
// operator's qk, "independent of input type or output type").
func declaredType(c *ctx, i int) element.Type {
	if i >= len(c.n.Outputs) || c.n.Outputs[i] == "" {
		return element.Undefined
	}
	return c.s.g.Declared[c.n.Outputs[i]].Type
}

// cacheLength returns the length of a present KV cache that extends a past of length past by n new
// tokens, or the past's own length when the two share one buffer.
func cacheLength(past, n sym.Dim, shared bool) sym.Dim {
	if shared {
		return past
	}
	return sym.AddDims(past, n)
}

// attention: com.microsoft Attention-1. input [B, S, in_hidden] is projected by weights
// [in_hidden, hidden + hidden + v_hidden] (hidden and v_hidden from qkv_hidden_sizes, else a third
// of the weights' dim 1 each) and bias [hidden + hidden + v_hidden] into num_heads heads; output is
// [B, S, v_hidden]. present is [2, B, num_heads, P + S, hidden/num_heads] from past
// [2, B, num_heads, P, hidden/num_heads] (P = 0 without past), or past's shape with
// past_present_share_buffer. The masks (mask_index of [B], [2B], [B, T], [B, S, T], ...),
// attention_bias and past_sequence_length change no shape. Dims that break these, a hidden size
// that num_heads does not divide, or Q and K of different sizes are errors wrapping
// errcode.ErrInvalidShape.
func attention(c *ctx) error { return attentionOf(c, 4, element.Undefined) }

// attentionOf infers an Attention whose past is input past, of output type t (element.Undefined:
// the input's).
func attentionOf(c *ctx, past int, t element.Type) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	if t == element.Undefined {
		t = ins[0].Type
	}
	heads, err := positiveAttr(c, "num_heads")
	if err != nil {
		return err
	}
	xd, err := fixedDims(c, ins[0], 0, 3)
	if err != nil {
		return err
	}
	wd, err := fixedDims(c, ins[1], 1, 2)
	if err != nil {
		return err
	}
	if xd[2], err = c.Unify(xd[2], wd[0], "input dim 2 and the weights' dim 0 (input_hidden_size)"); err != nil {
		return err
	}
	var hidden, vHidden sym.Dim
	sizes, ok, err := c.Ints("qkv_hidden_sizes")
	switch {
	case err != nil:
		return err
	case ok:
		if len(sizes) != 3 || sizes[0] < 1 || sizes[2] < 1 || sizes[0] != sizes[1] {
			return c.Errorf(errcode.ErrInvalidShape, "qkv_hidden_sizes %v: want 3 positive sizes, the first two (Q and K) equal", sizes)
		}
		hidden, vHidden = sym.Const(sizes[0]), sym.Const(sizes[2])
		if wd[1], err = c.Unify(wd[1], sym.Const(sizes[0]+sizes[1]+sizes[2]), "the weights' dim 1 and the sum of qkv_hidden_sizes"); err != nil {
			return err
		}
	default:
		if hidden, err = exactQuo(c, wd[1], 3, "the weights' dim 1 (Q, K and V of one size)"); err != nil {
			return err
		}
		vHidden = hidden
	}
	if _, err := channelParam(c, 2, wd[1], "the bias"); err != nil {
		return err
	}
	head, err := exactQuo(c, hidden, heads, "the hidden size of Q and K, by num_heads,")
	if err != nil {
		return err
	}
	if _, err := exactQuo(c, vHidden, heads, "the hidden size of V, by num_heads,"); err != nil {
		return err
	}
	c.Out(0, t, sym.ShapeOf(xd[0], xd[1], vHidden))
	b, n := xd[0], sym.Const(heads)
	present := []sym.Dim{sym.Const(2), b, n, xd[1], head}
	if c.In(past) != nil {
		if _, err := c.Unify(hidden, vHidden, "the hidden sizes of Q and V, equal with a past,"); err != nil {
			return err
		}
		two := sym.Const(2)
		pd, err := inputDims(c, past, 5, []*sym.Dim{&two, &b, &n, nil, &head}, "past")
		if err != nil {
			return err
		}
		shared, err := c.Int("past_present_share_buffer", 0)
		if err != nil {
			return err
		}
		present = []sym.Dim{pd[0], pd[1], pd[2], cacheLength(pd[3], xd[1], shared != 0), pd[4]}
	}
	c.Out(1, t, sym.ShapeOf(present...))
	return nil
}

// multiHeadAttention: com.microsoft MultiHeadAttention-1. query [B, S, hidden] with key
// [B, L, hidden] and value [B, L, v_hidden]; or key and value [B, num_heads, L, head] (BNSH, of one
// shape); or key packed KV [B, L, num_heads, 2, head] without value; or query packed QKV
// [B, S, num_heads, 3, head] without key and value (onnxruntime's CPU kernel refuses both packed
// forms, which the documentation allows). output is [B, S, v_hidden] (num_heads·head of a packed or
// BNSH value); present_key and present_value are [B, num_heads, P + L, head] from past_key and
// past_value [B, num_heads, P, head] (P = 0 without them), or the past's shape when the buffer is
// shared (past_key and past_sequence_length given, as onnxruntime decides); qk is
// [B, num_heads, S, P + L], or [B, num_heads, S, past_sequence_length + L] with a shared buffer, of
// the type the model declares (the documentation leaves it free). Masks and attention_bias change
// no shape. Dims that break these are errors wrapping errcode.ErrInvalidShape; a query of rank 3
// without key one wrapping errcode.ErrSyntax.
func multiHeadAttention(c *ctx) error {
	q, heads, err := queryHeads(c)
	if err != nil {
		return err
	}
	k, v := c.In(1), c.In(2)
	n := sym.Const(heads)
	var b, s, hidden, vHidden, head, vHead, length sym.Dim
	qr, qok := q.Rank()
	if qok && qr == 5 || !qok && k == nil {
		if k != nil || v != nil {
			return c.Errorf(errcode.ErrInvalidShape, "query of rank 5 is packed Q, K and V: key and value must be left out")
		}
		three := sym.Const(3)
		qd, err := inputDims(c, 0, 5, []*sym.Dim{nil, nil, &n, &three}, "packed query")
		if err != nil {
			return err
		}
		b, s, length, head = qd[0], qd[1], qd[1], qd[4]
		hidden, vHead = sym.MulDims(n, head), head
		vHidden = hidden
	} else {
		qd, err := inputDims(c, 0, 3, nil, "query")
		if err != nil {
			return err
		}
		if k == nil {
			return c.Errorf(errcode.ErrSyntax, "input 1 (key) is missing: a query of rank 3 takes it")
		}
		b, s, hidden = qd[0], qd[1], qd[2]
		if head, err = exactQuo(c, hidden, heads, "query dim 2 (hidden size), by num_heads,"); err != nil {
			return err
		}
		kr, kok := k.Rank()
		if !kok && v != nil {
			kr, kok = v.Rank()
		}
		switch {
		case kok && kr == 5:
			if v != nil {
				return c.Errorf(errcode.ErrInvalidShape, "key of rank 5 is packed K and V: value must be left out")
			}
			two := sym.Const(2)
			kd, err := inputDims(c, 1, 5, []*sym.Dim{&b, nil, &n, &two, &head}, "packed key")
			if err != nil {
				return err
			}
			length, vHead, vHidden = kd[1], head, hidden
		case kok && kr == 4:
			kd, err := inputDims(c, 1, 4, []*sym.Dim{&b, &n, nil, &head}, "key")
			if err != nil {
				return err
			}
			if _, err := inputDims(c, 2, 4, []*sym.Dim{&kd[0], &kd[1], &kd[2], &kd[3]}, "value"); err != nil {
				return err
			}
			length, vHead = kd[2], kd[3]
			vHidden = sym.MulDims(n, vHead)
		case kok:
			kd, err := inputDims(c, 1, 3, []*sym.Dim{&b, nil, &hidden}, "key")
			if err != nil {
				return err
			}
			vd, err := inputDims(c, 2, 3, []*sym.Dim{&b, &kd[1]}, "value")
			if err != nil {
				return err
			}
			length, vHidden = kd[1], vd[2]
			if vHead, err = exactQuo(c, vHidden, heads, "value dim 2 (v_hidden_size), by num_heads,"); err != nil {
				return err
			}
		default:
			length, vHidden, vHead = sym.Unknown(), sym.Unknown(), sym.Unknown()
		}
	}
	if _, err := channelParam(c, 3, sym.AddDims(sym.MulDims(sym.Const(2), hidden), vHidden), "the bias"); err != nil {
		return err
	}
	c.Out(0, q.Type, sym.ShapeOf([]sym.Dim{b, s, vHidden}...))
	past, _, _, err := pastKV(c, 6, b, n, &head, &vHead)
	if err != nil {
		return err
	}
	shared := c.In(6) != nil && c.In(8) != nil
	total := sym.AddDims(past, length)
	if shared {
		total = sym.Unknown()
		if psl, ok := c.Value(8); ok && len(psl) == 1 {
			total = sym.AddDims(psl[0], length)
		}
	}
	cache := cacheLength(past, length, shared)
	c.Out(1, q.Type, sym.ShapeOf(b, n, cache, head))
	c.Out(2, q.Type, sym.ShapeOf(b, n, cache, vHead))
	c.Out(3, declaredType(c, 3), sym.ShapeOf(b, n, s, total))
	return nil
}

// groupQueryAttention: com.microsoft GroupQueryAttention-1. query [B, S, num_heads·head] with key
// and value [B, S, kv_num_heads·head], or query packed QKV [B, S, (num_heads + 2·kv_num_heads)·head]
// without key and value; num_heads must be a multiple of kv_num_heads. output is
// [B, S, num_heads·head]; present_key and present_value are [B, kv_num_heads, max(P,
// total_sequence_length), head], P the length of past_key and past_value [B, kv_num_heads, P, head]
// (0 without them), total_sequence_length the value of input 6, as onnxruntime sizes them (a shared
// buffer longer than the total keeps its length), of past_key's type (query's without it). Where
// the total is not known, both caches take one anonymous dim of P or more. output_qk is left to the
// model's declaration.
// seqlens_k, the rotary caches, position_ids, attention_bias and local_window_size change no
// shape. Dims that break these are errors wrapping errcode.ErrInvalidShape.
func groupQueryAttention(c *ctx) error {
	q, heads, err := queryHeads(c)
	if err != nil {
		return err
	}
	kvHeads, err := positiveAttr(c, "kv_num_heads")
	if err != nil {
		return err
	}
	if heads%kvHeads != 0 {
		return c.Errorf(errcode.ErrInvalidShape, "num_heads %d is not a multiple of kv_num_heads %d", heads, kvHeads)
	}
	qd, err := inputDims(c, 0, 3, nil, "query")
	if err != nil {
		return err
	}
	b, s := qd[0], qd[1]
	kvn := sym.Const(kvHeads)
	var head sym.Dim
	if c.In(1) == nil {
		if c.In(2) != nil {
			return c.Errorf(errcode.ErrInvalidShape, "key is left out (query packs Q, K and V) and value is given")
		}
		if head, err = exactQuo(c, qd[2], heads+2*kvHeads, "packed query dim 2, by num_heads + 2·kv_num_heads,"); err != nil {
			return err
		}
	} else {
		if head, err = exactQuo(c, qd[2], heads, "query dim 2, by num_heads,"); err != nil {
			return err
		}
		kvHidden := sym.MulDims(kvn, head)
		for i, what := range []string{"key", "value"} {
			if _, err := inputDims(c, 1+i, 3, []*sym.Dim{&b, nil, &kvHidden}, what); err != nil {
				return err
			}
		}
	}
	out := []sym.Dim{b, s, sym.MulDims(sym.Const(heads), head)}
	c.Out(0, q.Type, sym.ShapeOf(out...))
	past, _, cacheType, err := pastKV(c, 3, b, kvn, &head, &head)
	if err != nil {
		return err
	}
	if cacheType == element.Undefined {
		cacheType = q.Type
	}
	length := sym.Unknown()
	if total, ok := c.Value(6); ok && len(total) == 1 {
		length = sym.MaxDims(past, total[0])
	}
	if _, ok := length.Expr(); !ok {
		// The caches' one length, of P or more: the same dim in both.
		lo, hi := length.Bounds()
		plo, _ := past.Bounds()
		length = c.Fresh("present", max(lo, plo, 0), hi)
	}
	present := sym.ShapeOf([]sym.Dim{out[0], kvn, length, head}...)
	c.Out(1, cacheType, present)
	c.Out(2, cacheType, present)
	return nil
}

// decoderMaskedMHA: com.microsoft DecoderMaskedMultiHeadAttention-1, one new token: query
// [B, 1, hidden]. Self attention: key [B, 1, hidden], value [B, 1, v_hidden], past_key and
// past_value [B, num_heads, P, head]; present_key and present_value are [B, num_heads, P + 1, head]
// ([B, num_heads, 1, head] without a past), or the past's shape [B, num_heads, M, head] with
// past_present_share_buffer; qk is [B, num_heads, 1, P + 1], or [B, num_heads, 1,
// past_sequence_length + 1] with a shared buffer (the value of input 7, as onnxruntime sizes it),
// of the type the model declares. Cross attention: key and value [B, num_heads, L, head]; qk is
// [B, num_heads, 1, L], and the presents are left to the model's declaration. output is
// [B, 1, v_hidden]. A packed query (no key) of [B, 1, 2·hidden + v_hidden] leaves v_hidden
// unknown. Dims that break these are errors wrapping errcode.ErrInvalidShape.
func decoderMaskedMHA(c *ctx) error {
	q, heads, err := queryHeads(c)
	if err != nil {
		return err
	}
	shared, err := c.Int("past_present_share_buffer", 0)
	if err != nil {
		return err
	}
	one, n := sym.Const(1), sym.Const(heads)
	qd, err := inputDims(c, 0, 3, []*sym.Dim{nil, &one}, "query (one new token)")
	if err != nil {
		return err
	}
	b, hidden := qd[0], qd[2]
	k, v := c.In(1), c.In(2)
	vHidden, head, vHead, total := sym.Unknown(), sym.Unknown(), sym.Unknown(), sym.Unknown()
	self := k == nil // a packed query: self attention
	if k != nil {
		kr, ok := k.Rank()
		if !ok && v != nil {
			kr, ok = v.Rank()
		}
		switch {
		case ok && kr == 4:
			kd, err := inputDims(c, 1, 4, []*sym.Dim{&b, &n}, "key")
			if err != nil {
				return err
			}
			vd, err := inputDims(c, 2, 4, []*sym.Dim{&b, &n, &kd[2]}, "value")
			if err != nil {
				return err
			}
			qh := sym.MulDims(n, kd[3])
			if hidden, err = c.Unify(hidden, qh, "query dim 2 and num_heads times the key's head size"); err != nil {
				return err
			}
			total, vHead = kd[2], vd[3]
			vHidden = sym.MulDims(n, vHead)
		case ok:
			self = true
			if _, err := inputDims(c, 1, 3, []*sym.Dim{&b, &one, &hidden}, "key"); err != nil {
				return err
			}
			vd, err := inputDims(c, 2, 3, []*sym.Dim{&b, &one}, "value")
			if err != nil {
				return err
			}
			vHidden = vd[2]
			if head, err = exactQuo(c, hidden, heads, "query dim 2 (hidden size), by num_heads,"); err != nil {
				return err
			}
			if vHead, err = exactQuo(c, vHidden, heads, "value dim 2 (v_hidden_size), by num_heads,"); err != nil {
				return err
			}
		}
	}
	c.Out(0, q.Type, sym.ShapeOf([]sym.Dim{b, one, vHidden}...))
	if self {
		past, given, _, err := pastKV(c, 5, b, n, &head, &vHead)
		if err != nil {
			return err
		}
		share := shared != 0 && given
		length := cacheLength(past, one, share)
		total = sym.AddDims(past, one)
		if share {
			total = sym.Unknown()
			if psl, ok := c.Value(7); ok && len(psl) == 1 {
				total = sym.AddDims(psl[0], one)
			}
		}
		c.Out(1, q.Type, sym.ShapeOf([]sym.Dim{b, n, length, head}...))
		c.Out(2, q.Type, sym.ShapeOf([]sym.Dim{b, n, length, vHead}...))
	}
	c.Out(3, declaredType(c, 3), sym.ShapeOf([]sym.Dim{b, n, one, total}...))
	return nil
}

// rotaryEmbedding: com.microsoft RotaryEmbedding-1: output has the shape of input, [B, S, hidden]
// or [B, num_heads, S, head]; position_ids is [B, S] or a one-element offset, cos_cache and
// sin_cache [max_sequence_length, rotary dim/2]. Other ranks are errors wrapping
// errcode.ErrInvalidShape.
func rotaryEmbedding(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(ins[0], 0, 3, 4); err != nil {
		return err
	}
	if _, _, err := c.RequireRank(ins[1], 1, 1, 2); err != nil {
		return err
	}
	for i := 2; i < 4; i++ {
		if _, _, err := c.RequireRank(ins[i], i, 2, 2); err != nil {
			return err
		}
	}
	c.SameAs(0, ins[0])
	return nil
}
