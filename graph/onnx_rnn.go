package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxRNN holds the rules of ONNX's recurrent operators.
var onnxRNN = table{"", []opDef{
	{"RNN", since(1, 7, 14), span(3, 6), span(0, 2), reads(4), rnn},
	{"GRU", since(1), span(3, 6), fixed(2), reads(4), rnn},
	{"GRU", since(3, 7, 14), span(3, 6), span(0, 2), reads(4), rnn},
	{"LSTM", since(1, 7, 14), span(3, 8), span(0, 3), reads(4), rnn},
}}

// rnn: RNN-1, -7, -14 (layout), -22; GRU-1, -3, -7, -14 (layout), -22; LSTM-1, -7, -14 (layout),
// -22. With layout 0, X is [seq_length, batch_size, input_size], Y is
// [seq_length, num_directions, batch_size, hidden_size] and Y_h (and LSTM's Y_c)
// [num_directions, batch_size, hidden_size]; layout 1 puts batch_size first in all three
// ([batch_size, seq_length, input_size], [batch_size, seq_length, num_directions, hidden_size],
// [batch_size, num_directions, hidden_size]), as ONNX specifies; onnxruntime 1.20.1 has no CPU
// kernel for layout 1 and refuses to load the model: the node's NodeResult.TypeErr, wrapping
// errcode.ErrNoKernel.
// num_directions is 2 for direction "bidirectional", 1 otherwise; hidden_size is the attribute, or
// R's last dim. The weights unify with what they must be: W [num_directions, G*hidden_size,
// input_size], R [num_directions, G*hidden_size, hidden_size], B [num_directions,
// 2*G*hidden_size], sequence_lens [batch_size], initial_h and initial_c of Y_h's shape, P
// [num_directions, 3*hidden_size], with G gates: 1 (RNN), 3 (GRU), 4 (LSTM). Each value of
// sequence_lens is in 0..seq_length (rnnLens).
func rnn(c *ctx) error {
	gates, maxIn := int64(1), 6
	switch c.n.Op {
	case "GRU":
		gates = 3
	case "LSTM":
		gates, maxIn = 4, 8
	}
	return rnnOf(c, gates, maxIn, false)
}

// rnnOf infers a recurrent node of the given gates whose inputs up to maxIn are ONNX's; with
// transposed, W is [num_directions, input_size, G*hidden_size] and R [num_directions,
// hidden_size, G*hidden_size], as com.microsoft DynamicQuantizeLSTM takes them, and X's input
// size another than W's is a warning (ctx.Warn), as onnxruntime runs the node.
func rnnOf(c *ctx, gates int64, maxIn int, transposed bool) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	direction, err := c.String("direction", "forward")
	if err != nil {
		return err
	}
	var dirs sym.Dim
	switch direction {
	case "forward", "reverse":
		dirs = sym.Const(1)
	case "bidirectional":
		dirs = sym.Const(2)
	default:
		return c.Errorf(errcode.ErrSyntax, "direction %q is none of forward, reverse, bidirectional", direction)
	}
	layout := int64(0)
	if err := attrSince(c, "layout", 14); err != nil {
		return err
	}
	if c.Version() >= 14 {
		if layout, err = c.Int("layout", 0); err != nil {
			return err
		}
		if layout != 0 && layout != 1 {
			return c.Errorf(errcode.ErrSyntax, "layout %d is neither 0 nor 1", layout)
		}
		if layout == 1 {
			c.typeErr = errcode.Errorf(errcode.ErrNoKernel, "layout 1 (batch first), which %s-%d allows, and onnxruntime 1.20.1 has no CPU kernel for it: "+
				"onnxruntime refuses to load the model", c.n.Op, c.Version())
		}
	}
	hidden := sym.Unknown()
	if _, ok := c.n.Attr("hidden_size"); ok {
		h, err := c.Int("hidden_size", 0)
		if err != nil {
			return err
		}
		if h < 1 {
			return c.Errorf(errcode.ErrInvalidShape, "hidden_size %d is less than 1", h)
		}
		hidden = sym.Const(h)
	}
	x, err := rnnDims(c, ins[0], 0, sym.Unknown(), sym.Unknown(), sym.Unknown())
	if err != nil {
		return err
	}
	seq, batch, size := x[0], x[1], x[2]
	if layout == 1 {
		seq, batch = batch, seq
	}
	at := [2]int{1, 2} // the dims of G*hidden_size and of the input or hidden size in W and R
	if transposed {
		at = [2]int{2, 1}
	}
	if rr, ok := ins[2].Rank(); ok && rr == 3 && !hidden.Determined() {
		hidden = ins[2].Shape.Dims[at[1]]
	}
	weight := func(i int, size sym.Dim) ([]sym.Dim, error) {
		want := []sym.Dim{dirs, sym.Unknown(), sym.Unknown()}
		want[at[0]], want[at[1]] = sym.MulDims(sym.Const(gates), hidden), size
		return rnnDims(c, ins[i], i, want...)
	}
	r, err := weight(2, hidden)
	if err != nil {
		return err
	}
	dirs, hidden = r[0], r[at[1]]
	if !transposed {
		w, err := weight(1, size)
		if err != nil {
			return err
		}
		dirs = w[0]
	} else {
		// onnxruntime runs DynamicQuantizeLSTM whatever X's input size, reading W at W's own.
		w, err := weight(1, sym.Unknown())
		if err != nil {
			return err
		}
		dirs = w[0]
		warnEqual(c, size, w[at[1]], "reads X's input size "+size.String()+" as W's dim 1, "+w[at[1]].String())
	}
	if in := c.In(3); in != nil {
		if _, err := rnnDims(c, in, 3, dirs, sym.MulDims(sym.Const(2*gates), hidden)); err != nil {
			return err
		}
	}
	if in := c.In(4); in != nil {
		b, err := rnnDims(c, in, 4, batch)
		if err != nil {
			return err
		}
		batch = b[0]
		if err := rnnLens(c, in.Value, seq); err != nil {
			return err
		}
	}
	state := func() []sym.Dim {
		if layout == 1 {
			return []sym.Dim{batch, dirs, hidden}
		}
		return []sym.Dim{dirs, batch, hidden}
	}
	for i := 5; i <= 6 && i < maxIn; i++ {
		if in := c.In(i); in != nil {
			if _, err := rnnDims(c, in, i, state()...); err != nil {
				return err
			}
		}
	}
	if in := c.In(7); in != nil && maxIn == 8 {
		if _, err := rnnDims(c, in, 7, dirs, sym.MulDims(sym.Const(3), hidden)); err != nil {
			return err
		}
	}
	y := []sym.Dim{seq, dirs, batch, hidden}
	if layout == 1 {
		y = []sym.Dim{batch, seq, dirs, hidden}
	}
	t := ins[0].Type
	c.Out(0, t, sym.ShapeOf(y...))
	h := state()
	c.Out(1, t, sym.ShapeOf(h...))
	c.Out(2, t, sym.ShapeOf(h...))
	return nil
}

// rnnLens requires each value of sequence_lens, lens (nil where the values are not known), in
// 0..seq, the sequence length: onnxruntime's recurrent kernels (1.20.1: RNN, GRU, LSTM, and
// DynamicQuantizeLSTM through LSTM's checks) refuse any other at run time ("Invalid value/s in
// sequence_lens": a run of 5 steps refuses -1 and 6 and runs 0 and 5). A value that a Cast to
// int32 wrapped (1.3e10 as a negative int32) is known at a binding and fails there; one known
// only by bounds that may leave the range is a loss (Ctx.Lost).
func rnnLens(c *ctx, lens []sym.Dim, seq sym.Dim) error {
	slo, _ := seq.Bounds()
	_, sx := seq.Expr()
	for k, v := range lens {
		why := "sequence_lens[" + itoa(k) + "] = " + v.String() + " in 0.." + seq.String() + ", the sequence length"
		if err := requireAtLeast(c, v, 0, why); err != nil {
			return err
		}
		if err := requireAtMost(c, v, seq, why); err != nil {
			return err
		}
		// Where the checks above could not state what they need: v >= 0 needs v an expression
		// unless its bounds settle it, v <= seq needs both unless theirs do.
		lo, hi := v.Bounds()
		_, vx := v.Expr()
		switch {
		case (lo < 0 || hi > slo) && !vx:
			c.Lost(why + ": " + v.String() + " is no expression in the symbols")
		case hi > slo && !sx:
			c.Lost(why + ": " + seq.String() + " is no expression in the symbols")
		}
	}
	return nil
}

// rnnDims checks that input i has the rank of want and unifies its dims with want's, returning
// the dims that stand for both (want itself when the input's rank is not known). A rank other than
// want's is an error wrapping errcode.ErrInvalidShape.
func rnnDims(c *ctx, in *Info, i int, want ...sym.Dim) ([]sym.Dim, error) {
	out := c.clone(want)
	r, ok, err := c.RequireRank(in, i, len(want), len(want))
	if err != nil || !ok {
		return out, err
	}
	for k := range r {
		if out[k], err = c.Unify(out[k], in.Shape.Dims[k], "input "+itoa(i)+" dim "+itoa(k)); err != nil {
			return nil, err
		}
	}
	return out, nil
}
