package graph

import (
	"github.com/reshape-go/reshape/sym"
)

// The iteration number of a loop whose trip count is an expression in the model's symbols: a
// symbol i of sym.Table.Below, in [0, M-1] for the trip count M, which the body reads (ONNX Loop's
// first body input). The body is inferred once with i standing for every iteration's number:
// what its rules prove from i's bound holds at every iteration (a Slice [i, i+1) of an axis of M
// keeps 1), and a condition its nodes impose holds at every iteration where it holds for every i
// in 0..M-1 (sym.Forall), which is what the loop requires; a condition Forall cannot state is a
// loss of precision. A loop-carried value that each iteration changes by the same amount (a list
// appended to once per iteration) enters iteration i as its initial value plus i times that
// amount (induct), which the body's run checks (the value it leaves with is the one iteration i+1
// enters with). Nothing outside the loop holds i: a dim of the node's outputs in it becomes a new
// anonymous dim of its bounds (withoutIter).

// induct returns the loop-carried value that enters iteration x as in plus x times the amount
// the first iteration changes it by, for a value that enters it as in and leaves it as out: a
// tensor of one type and rank (its values, when both are known) or a sequence (its length; its
// elements those out holds when in is empty, else equal to in's). ok is false when a dim that
// differs changes by an amount that is no integer or expression in the symbols, or the values
// are of another kind.
func induct(in, out *Info, x sym.Dim) (*Info, bool) {
	step := func(d, o sym.Dim) (sym.Dim, bool) {
		if d.Equal(o) {
			return d, true
		}
		s := sym.SubDims(o, d)
		if !s.Determined() {
			return d, false
		}
		return sym.AddDims(d, sym.MulDims(s, x)), true
	}
	if in.Optional != out.Optional || in.Map != nil || out.Map != nil || (in.Seq == nil) != (out.Seq == nil) {
		return nil, false
	}
	if in.Seq != nil {
		n, ok := step(in.Seq.Len, out.Seq.Len)
		if !ok {
			return nil, false
		}
		elem := in.Seq.Elem
		switch {
		case in.Seq.empty():
			elem = out.Seq.Elem
		case !sameInfo(in.Seq.Elem, out.Seq.Elem):
			return nil, false
		}
		v := newSeq(n, elem, nil)
		v.Optional, v.taint = in.Optional, in.taint|out.taint
		return v, true
	}
	ri, oki := in.Rank()
	ro, oko := out.Rank()
	if !oki || !oko || ri != ro || in.Type != out.Type || (in.Value == nil) != (out.Value == nil) || len(in.Value) != len(out.Value) {
		return nil, false
	}
	dims := make([]sym.Dim, ri)
	for i, d := range in.Shape.Dims {
		var ok bool
		if dims[i], ok = step(d, out.Shape.Dims[i]); !ok {
			return nil, false
		}
	}
	v := &Info{Type: in.Type, Shape: sym.ShapeOf(dims...), Optional: in.Optional, taint: in.taint | out.taint}
	if in.Value != nil {
		v.Value = make([]sym.Dim, len(in.Value))
		for i, d := range in.Value {
			var ok bool
			if v.Value[i], ok = step(d, out.Value[i]); !ok {
				return nil, false
			}
		}
	}
	return v, true
}

// mapDims returns a copy of in with f applied to each of its dims: a tensor's shape and values, a
// sequence's length and its elements', a map's values'.
func mapDims(in *Info, f func(sym.Dim) sym.Dim) *Info {
	out := copyInfo(in)
	if !in.Shape.RankDynamic {
		dims := make([]sym.Dim, len(in.Shape.Dims))
		for i, d := range in.Shape.Dims {
			dims[i] = f(d)
		}
		out.Shape = sym.ShapeOf(dims...)
	}
	if in.Value != nil {
		out.Value = make([]sym.Dim, len(in.Value))
		for i, d := range in.Value {
			out.Value[i] = f(d)
		}
	}
	switch {
	case in.Seq != nil:
		s := &Seq{Len: f(in.Seq.Len), Elem: mapDims(in.Seq.Elem, f)}
		for _, e := range in.Seq.At {
			s.At = append(s.At, mapDims(e, f))
		}
		out.Seq = s
	case in.Map != nil:
		out.Map = &Map{Key: in.Map.Key, Value: mapDims(in.Map.Value, f)}
	}
	return out
}

// substIter returns sub for a substitution of the iteration number x (a symbol) by v.
func substIter(x sym.Dim, v sym.Expr) func(string) (sym.Expr, bool) {
	e, _ := x.Expr()
	name, _, _ := e.Symbol()
	return func(n string) (sym.Expr, bool) { return v, n == name }
}

// mentions reports whether the dim d depends on the iteration number x.
func mentions(d, x sym.Dim) bool {
	e, ok := d.Expr()
	xe, _ := x.Expr()
	name, _, _ := xe.Symbol()
	return ok && e.Mentions(name)
}

// nextIter returns the value in, of iteration x, as iteration x+1 holds it.
func nextIter(in *Info, x sym.Dim) *Info {
	xe, _ := x.Expr()
	x1, ok := sym.Add(xe, sym.Int(1))
	if !ok {
		return unknownInfo()
	}
	sub := substIter(x, x1)
	return mapDims(in, func(d sym.Dim) sym.Dim {
		e, ok := d.Expr()
		if !ok || !mentions(d, x) {
			return d
		}
		// Not Dim.Subst, which keeps d's bounds: the value moves to the next iteration's.
		if e, ok = e.Subst(sub); !ok {
			return sym.Unknown()
		}
		return sym.Of(e)
	})
}

// withoutIter returns in with each dim in the iteration number x a new anonymous dim of its
// bounds: a value outside the body, where x stands for no iteration.
func (c *ctx) withoutIter(in *Info, x sym.Dim) *Info {
	return mapDims(in, func(d sym.Dim) sym.Dim {
		if !mentions(d, x) {
			return d
		}
		lo, hi := d.Bounds()
		return c.Fresh("iter", lo, hi)
	})
}

// iterSymbol returns the iteration number of a loop of n iterations, which its body reads as the
// input name: a symbol below n (sym.Table.Below) when n is an integer or an expression in the
// symbols, else nil.
func (c *ctx) iterSymbol(name string, n sym.Dim) *sym.Dim {
	m, ok := n.Expr()
	if !ok || !n.Determined() {
		return nil
	}
	x := sym.Of(c.Symbols().Below(name, m))
	return &x
}

// outsideIter returns v as the loop's node gives it, outside the body: without the iteration
// number iter (withoutIter), when there is one.
func (c *ctx) outsideIter(v *Info, iter *sym.Dim) *Info {
	if iter == nil {
		return v
	}
	return c.withoutIter(v, *iter)
}

// carriedOut returns the final value of a loop-carried value that enters the loop as first,
// stands for every iteration's as in (ctx.Iterate's) and leaves an iteration as out, after iters
// iterations of a body that reads the iteration number iter (nil for none): grown's, outside the
// body. A body of one iteration at most (iter 0), inferred once, gives out after one iteration,
// first after none, and otherwise their join (hint names its anonymous dims). The error is
// grown's.
func (c *ctx) carriedOut(first, in, out *Info, iters sym.Dim, iter *sym.Dim, hint string) (*Info, error) {
	v, err := c.grown(first, in, out, iters)
	if err != nil {
		return nil, err
	}
	if iter != nil && iter.Equal(sym.Const(0)) {
		switch n, ok := iters.Static(); {
		case ok && n == 1:
			v = copyInfo(out)
		case ok && n == 0:
			v = copyInfo(first)
		default:
			v = c.join(first, out, hint)
		}
	}
	return c.outsideIter(v, iter), nil
}
