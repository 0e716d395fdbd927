package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// openvinoRNN holds the rules of OpenVINO IR's recurrent and sequence layers: the LSTM, GRU and RNN
// cells and sequences, the CTC decoders and loss, ScaledDotProductAttention, and the state of a
// stateful model (ReadValue, Assign).
var openvinoRNN = table{DomainOpenVINO, []opDef{
	{"LSTMCell", since(1), span(6, 7), fixed(2), 0, ovCell},
	{"LSTMCell", since(4), fixed(6), fixed(2), 0, ovCell},
	{"GRUCell", since(3), span(4, 5), fixed(1), 0, ovCell},
	{"RNNCell", since(1), span(4, 5), fixed(1), 0, ovCell},
	{"LSTMSequence", since(1), span(7, 8), fixed(3), 0, ovSequence},
	{"LSTMSequence", since(5), fixed(7), fixed(3), 0, ovSequence},
	{"GRUSequence", since(5), fixed(6), fixed(2), 0, ovSequence},
	{"RNNSequence", since(5), fixed(6), fixed(2), 0, ovSequence},
	{"CTCGreedyDecoder", since(1), fixed(2), fixed(1), 0, ovCTCGreedyDecoder},
	{"CTCGreedyDecoderSeqLen", since(6), span(2, 3), fixed(2), 0, ovCTCGreedyDecoder},
	{"CTCLoss", since(4), span(4, 5), fixed(1), 0, ovCTCLoss},
	{"ScaledDotProductAttention", since(13), span(3, 6), fixed(1), 0, ovAttention},
	{"ReadValue", since(3), fixed(1), fixed(1), 0, ovReadValue},
	{"ReadValue", since(6), span(0, 1), fixed(1), 0, ovReadValue},
	{"Assign", since(3, 6), fixed(1), span(0, 1), 0, ovAssign},
}}

// ovGates returns the gates of a recurrent layer (LSTM 4, GRU 3, RNN 1), the size of its bias in
// hidden sizes (GRU's linear_before_reset adds one), and whether it carries a cell state.
func ovGates(c *ctx) (gates, bias int64, lstm bool, err error) {
	switch op := c.n.Op; {
	case op == "LSTMCell" || op == "LSTMSequence":
		return 4, 4, true, nil
	case op == "GRUCell" || op == "GRUSequence":
		lbr, err := ovBool(c, "linear_before_reset", false)
		if lbr {
			return 3, 4, false, err
		}
		return 3, 3, false, err
	}
	return 1, 1, false, nil
}

// ovHidden returns the hidden_size attribute, unknown when the node has none (or 0, which
// OpenVINO's tests write for none).
func ovHidden(c *ctx) (sym.Dim, error) {
	h, err := c.Int("hidden_size", 0)
	if err != nil || h <= 0 {
		return sym.Unknown(), err
	}
	return sym.Const(h), nil
}

// ovCell: LSTMCell-1 (inputs X, H, C, W, R, B, the peepholes P), -4 (X, H, C, W, R, B), GRUCell-3
// and RNNCell-1 (X, H, W, R, B): for X [batch, input_size] and the hidden_size h, H and C are
// [batch, h], W [G·h, input_size], R [G·h, h], B [G·h] (GRU's with linear_before_reset
// [4·h]), P [3·h], with G gates (LSTM 4, GRU 3, RNN 1); the outputs (H, and the LSTM's C) are
// [batch, h]. The dims unify.
func ovCell(c *ctx) error {
	g, bias, lstm, err := ovGates(c)
	if err != nil {
		return err
	}
	h, err := ovHidden(c)
	if err != nil {
		return err
	}
	w := 2 // the index of W
	if lstm {
		w = 3
	}
	ins, err := c.Inputs(w + 2)
	if err != nil {
		return err
	}
	x, err := rnnDims(c, ins[0], 0, sym.Unknown(), sym.Unknown())
	if err != nil {
		return err
	}
	batch, size := x[0], x[1]
	states := []int{1}
	if lstm {
		states = append(states, 2)
	}
	for _, i := range states {
		d, err := rnnDims(c, ins[i], i, batch, h)
		if err != nil {
			return err
		}
		batch, h = d[0], d[1]
	}
	r, err := rnnDims(c, ins[w+1], w+1, sym.MulDims(sym.Const(g), h), h)
	if err != nil {
		return err
	}
	h = ovHiddenOf(r[1], r[0], g)
	if _, err := rnnDims(c, ins[w], w, sym.MulDims(sym.Const(g), h), size); err != nil {
		return err
	}
	if b := c.In(w + 2); b != nil {
		if _, err := rnnDims(c, b, w+2, sym.MulDims(sym.Const(bias), h)); err != nil {
			return err
		}
	}
	if p := c.In(w + 3); p != nil && lstm {
		if _, err := rnnDims(c, p, w+3, sym.MulDims(sym.Const(3), h)); err != nil {
			return err
		}
	}
	t := ins[0].Type
	c.Out(0, t, sym.ShapeOf(batch, h))
	c.Out(1, t, sym.ShapeOf(batch, h))
	return nil
}

// ovHiddenOf returns the hidden size h, or where it is unknown the size that g·h, known, gives.
func ovHiddenOf(h, gh sym.Dim, g int64) sym.Dim {
	if _, ok := h.Expr(); ok {
		return h
	}
	if n, ok := gh.Static(); ok && n%g == 0 {
		return sym.Const(n / g)
	}
	return h
}

// ovSequence: LSTMSequence-1 (inputs X, H, C, sequence_lengths, W, R, B, the peepholes P), -5
// (no P), GRUSequence-5 and RNNSequence-5 (X, H, sequence_lengths, W, R, B): for X
// [batch, seq_length, input_size], the hidden_size h and D directions (2 for bidirectional, else
// 1), H and C are [batch, D, h], sequence_lengths [batch], W [D, G·h, input_size], R [D, G·h, h],
// B [D, G·h] (GRU's with linear_before_reset [D, 4·h]), P [D, 3·h]; the outputs are
// Y [batch, D, seq_length, h], H and the LSTM's C [batch, D, h]. The dims unify.
func ovSequence(c *ctx) error {
	g, bias, lstm, err := ovGates(c)
	if err != nil {
		return err
	}
	h, err := ovHidden(c)
	if err != nil {
		return err
	}
	direction, err := c.String("direction", "")
	if err != nil {
		return err
	}
	dirs := sym.Const(1)
	switch direction {
	case "forward", "reverse":
	case "bidirectional":
		dirs = sym.Const(2)
	default:
		return c.Errorf(errcode.ErrSyntax, "direction %q: want forward, reverse or bidirectional", direction)
	}
	lens := 2 // the index of sequence_lengths, W, R and B after it
	if lstm {
		lens = 3
	}
	ins, err := c.Inputs(lens + 4)
	if err != nil {
		return err
	}
	x, err := rnnDims(c, ins[0], 0, sym.Unknown(), sym.Unknown(), sym.Unknown())
	if err != nil {
		return err
	}
	batch, seq, size := x[0], x[1], x[2]
	for i := 1; i < lens; i++ {
		d, err := rnnDims(c, ins[i], i, batch, dirs, h)
		if err != nil {
			return err
		}
		batch, dirs, h = d[0], d[1], d[2]
	}
	l, err := rnnDims(c, ins[lens], lens, batch)
	if err != nil {
		return err
	}
	batch = l[0]
	r, err := rnnDims(c, ins[lens+2], lens+2, dirs, sym.MulDims(sym.Const(g), h), h)
	if err != nil {
		return err
	}
	dirs, h = r[0], ovHiddenOf(r[2], r[1], g)
	if _, err := rnnDims(c, ins[lens+1], lens+1, dirs, sym.MulDims(sym.Const(g), h), size); err != nil {
		return err
	}
	if _, err := rnnDims(c, ins[lens+3], lens+3, dirs, sym.MulDims(sym.Const(bias), h)); err != nil {
		return err
	}
	if p := c.In(lens + 4); p != nil && lstm {
		if _, err := rnnDims(c, p, lens+4, dirs, sym.MulDims(sym.Const(3), h)); err != nil {
			return err
		}
	}
	t := ins[0].Type
	c.Out(0, t, sym.ShapeOf(batch, dirs, seq, h))
	c.Out(1, t, sym.ShapeOf(batch, dirs, h))
	c.Out(2, t, sym.ShapeOf(batch, dirs, h))
	return nil
}

// ovCTCGreedyDecoder: CTCGreedyDecoder-1: data [T, N, C] and seq_mask [T, N] give [N, T, 1, 1];
// CTCGreedyDecoderSeqLen-6: data [N, T, C], sequence_length [N] and blank_index (a scalar or one
// element) give the decoded classes [N, T] of classes_index_type and their lengths [N] of
// sequence_length_type (i32 by default).
func ovCTCGreedyDecoder(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	d, err := rnnDims(c, ins[0], 0, sym.Unknown(), sym.Unknown(), sym.Unknown())
	if err != nil {
		return err
	}
	if c.n.Op == "CTCGreedyDecoder" {
		m, err := rnnDims(c, ins[1], 1, d[0], d[1])
		if err != nil {
			return err
		}
		c.Out(0, ins[0].Type, sym.ShapeOf(m[1], m[0], sym.Const(1), sym.Const(1)))
		return nil
	}
	var types [2]element.Type
	for k, name := range []string{"classes_index_type", "sequence_length_type"} {
		if types[k], err = ovIndexType(c, name, element.I32); err != nil {
			return err
		}
	}
	l, err := rnnDims(c, ins[1], 1, d[0])
	if err != nil {
		return err
	}
	if b := c.In(2); b != nil {
		if _, _, err := ovScalar(c, 2, "blank_index"); err != nil {
			return err
		}
	}
	c.Out(0, types[0], sym.ShapeOf(l[0], d[1]))
	c.Out(1, types[1], sym.ShapeOf(l[0]))
	return nil
}

// ovCTCLoss: CTCLoss-4: logits [N, T, C], logit_length [N], labels [N, T], label_length [N] and
// the scalar blank_index give the loss [N], of the logits' type.
func ovCTCLoss(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	d, err := rnnDims(c, ins[0], 0, sym.Unknown(), sym.Unknown(), sym.Unknown())
	if err != nil {
		return err
	}
	n, t := d[0], d[1]
	for i := 1; i < 4; i++ {
		want := []sym.Dim{n}
		if i == 2 {
			want = append(want, t)
		}
		got, err := rnnDims(c, ins[i], i, want...)
		if err != nil {
			return err
		}
		n = got[0]
	}
	if b := c.In(4); b != nil {
		if _, _, err := c.RequireRank(b, 4, 0, 0); err != nil {
			return err
		}
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(n))
	return nil
}

// ovAttention: ScaledDotProductAttention-13: query [..., L, E], key [..., S, E] and value
// [..., S, Ev], of batch dims that broadcast, give [..., L, Ev]; the attention_mask (input 3,
// ignored when causal) is floating-point or boolean and broadcasts to [..., L, S], and scale
// (input 4) is a scalar or one element.
// The output's type is the first known of the inputs'.
func ovAttention(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	causal, err := ovBool(c, "causal", false)
	if err != nil {
		return err
	}
	if s := c.In(4); s != nil {
		if _, _, err := ovScalar(c, 4, "scale"); err != nil {
			return err
		}
	}
	if m := c.In(3); m != nil && !causal && m.Type != element.Undefined && !m.Type.IsFloat() && m.Type != element.Boolean {
		return c.Errorf(errcode.ErrDataType, "attention_mask of %v: want a floating-point or boolean mask", m.Type)
	}
	t := element.Undefined
	for i := range c.NumIn() {
		if in := c.In(i); in != nil && t == element.Undefined && (in.Type.IsFloat() || i < 3) {
			t = in.Type
		}
	}
	var batch [3]sym.Shape
	var last [3][]sym.Dim // L, E; S, E; S, Ev
	for i, in := range ins {
		r, ok, err := c.RequireRank(in, i, 2, -1)
		if err != nil {
			return err
		}
		if !ok {
			batch[i], last[i] = sym.DynamicRank(), []sym.Dim{sym.Unknown(), sym.Unknown()}
			continue
		}
		batch[i], last[i] = sym.ShapeOf(in.Shape.Dims[:r-2]...), in.Shape.Dims[r-2:]
	}
	if _, err := c.Unify(last[0][1], last[1][1], "the query's and the key's last dims"); err != nil {
		return err
	}
	s, err := c.Unify(last[1][0], last[2][0], "the key's and the value's sequence dims")
	if err != nil {
		return err
	}
	b, err := c.Broadcast(batch[0], batch[1], batch[2])
	if err != nil {
		return err
	}
	l := last[0][0]
	if m := c.In(3); m != nil && !causal && !b.RankDynamic {
		full, err := c.Broadcast(m.Shape, sym.ShapeOf(append(c.clone(b.Dims), l, s)...))
		if err != nil {
			return err
		}
		if !full.RankDynamic {
			n := len(full.Dims)
			b, l = sym.ShapeOf(full.Dims[:n-2]...), full.Dims[n-2]
		}
	}
	if b.RankDynamic {
		return nil
	}
	c.Out(0, t, sym.ShapeOf(append(c.clone(b.Dims), l, last[2][1])...))
	return nil
}

// ovReadValue: ReadValue-3 (the input's type and shape) and -6 (variable_shape and
// variable_type, in OpenVINO's notation "[?,32,1..8,128]", "f32", "dynamic"; without them, as
// IR v10 writes it, the input's): the variable's type and shape; an initializing input must lie
// within them and be of the variable's type.
func ovReadValue(c *ctx) error {
	in := c.In(0)
	_, declared := c.n.Attr("variable_shape")
	if c.Version() < 6 || !declared {
		if in == nil {
			return c.Errorf(errcode.ErrSyntax, "ReadValue takes its initial value or a variable_shape")
		}
		c.SameAs(0, in)
		return nil
	}
	text, err := c.String("variable_shape", "")
	if err != nil {
		return err
	}
	vs, err := shape.Parse(text)
	if err != nil {
		return c.Errorf(errcode.ErrSyntax, "variable_shape %q: %v", text, err)
	}
	t := element.Undefined
	if in != nil {
		t = in.Type
	}
	name, err := c.String("variable_type", "")
	if err != nil {
		return err
	}
	switch name {
	case "":
	case "dynamic", "undefined":
		t = element.Undefined
	default:
		if t, err = element.Parse(name); err != nil {
			return c.Errorf(errcode.ErrSyntax, "variable_type %q: %v", name, err)
		}
		if in != nil && in.Type != element.Undefined && in.Type != t {
			return c.Errorf(errcode.ErrDataType, "the initial value is %v, the variable %v", in.Type, t)
		}
	}
	if vs.RankDynamic {
		c.Out(0, t, sym.DynamicRank())
		return nil
	}
	dims := make([]sym.Dim, len(vs.Dims))
	for i, d := range vs.Dims {
		dims[i] = sym.FromShape(d)
	}
	if in != nil {
		if r, ok := in.Rank(); ok {
			if r != len(dims) {
				return c.Errorf(errcode.ErrInvalidShape, "the initial value has rank %d, the variable %d", r, len(dims))
			}
			for i, d := range in.Shape.Dims {
				lo, hi := d.Bounds()
				vlo, vhi := dims[i].Bounds()
				if lo < vlo || hi > vhi {
					return c.Errorf(errcode.ErrInvalidShape, "dim %d of the initial value, %v, is not within the variable's %v", i, d, dims[i])
				}
			}
		}
	}
	c.Out(0, t, sym.ShapeOf(dims...))
	return nil
}

// ovAssign: Assign-3, -6: the value it stores, of the input's type and shape. An Assign-3 stores
// the variable_id of a ReadValue-3 of the model, which declares the variable.
func ovAssign(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if c.Version() < 6 {
		id, err := c.String("variable_id", "")
		if err != nil {
			return err
		}
		found := false
		for n := range c.Siblings() {
			if v, ok := n.Attr("variable_id"); ok && n != c.n && v.Text == id && dialectOf(n.Domain).name(n.Op) == "ReadValue" {
				found = true
				break
			}
		}
		if !found {
			return c.Errorf(errcode.ErrInvalidShape, "no ReadValue declares the variable %q", id)
		}
	}
	c.SameAs(0, in)
	return nil
}
