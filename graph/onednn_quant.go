package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onednnQuant holds the rules of oneDNN Graph's conversions: Quantize, Dequantize and their
// dynamic forms, whose scales and zero points fit the src per tensor, per channel or per group,
// TypeCast and Reorder. Each output has the shape of src.
var onednnQuant = table{DomainOneDNN, []opDef{
	{"Quantize", since(1), fixed(1), fixed(1), 0, needs(dnnlQuantize, "scales")},
	{"Dequantize", since(1), fixed(1), fixed(1), 0, needs(dnnlQuantize, "scales")},
	{"DynamicQuantize", since(1), span(2, 3), fixed(1), 0, dnnlDynamicQuantize},
	{"DynamicDequantize", since(1), span(2, 3), fixed(1), 0, dnnlDynamicQuantize},
	{"TypeCast", since(1), fixed(1), fixed(1), 0, dnnlTypeCast},
	{"Reorder", since(1), fixed(1), fixed(1), 0, dnnlUnary},
}}

// dnnlQType reads the qtype attribute (per_tensor by default, per_channel, and for
// DynamicDequantize per_group) and, for per_channel, the axis attribute (1 by default) against
// the rank of src (r, when known: ok).
func dnnlQType(c *ctx, r int, ok bool) (qtype string, axis int, err error) {
	want := []string{"per_tensor", "per_channel"}
	if c.n.Op == "DynamicDequantize" {
		want = append(want, "per_group")
	}
	if qtype, err = dnnlChoice(c, "qtype", "per_tensor", want...); err != nil || qtype != "per_channel" || !ok {
		return qtype, 0, err
	}
	a, err := c.Int("axis", 1)
	if err != nil {
		return qtype, 0, err
	}
	axis, err = c.NormAxis(a, r)
	return qtype, axis, err
}

// dnnlQuantize: Quantize-1 and Dequantize-1: the output has src's shape; the scales attribute (and zps,
// when given) holds one value per tensor (qtype per_tensor) or one per element of src's axis
// (per_channel: perChannel).
func dnnlQuantize(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	r, ok := in.Rank()
	qtype, axis, err := dnnlQType(c, r, ok)
	if err != nil {
		return err
	}
	for _, name := range []string{"scales", "zps"} {
		var n int
		if name == "scales" {
			v, _, err := c.Floats(name)
			if err != nil {
				return err
			}
			n = len(v)
		} else {
			v, given, err := c.Ints(name)
			if err != nil || !given {
				return errOr(err, dnnlQuantOut(c, in))
			}
			n = len(v)
		}
		switch {
		case qtype == "per_tensor" && n != 1:
			return c.Errorf(errcode.ErrInvalidShape, "%s holds %d values: per_tensor takes 1", name, n)
		case qtype == "per_channel" && ok:
			if err := perChannel(c, n, in.Shape.Dims[axis], name, axis); err != nil {
				return err
			}
		}
	}
	return dnnlQuantOut(c, in)
}

// perChannel checks the count n of the values of the attribute name of a per_channel
// quantization against the dim d of src's axis: equal, or for a static d a multiple of it, as
// oneDNN takes the scales of grouped ConvTranspose weights [C,O/groups,X...] along axis 1, one per
// output channel of every group (int8_convtranspose_post_ops_add_fusion.json: 16 scales along a
// dim of 1).
func perChannel(c *ctx, n int, d sym.Dim, name string, axis int) error {
	if k, ok := d.Static(); ok && k > 0 && int64(n)%k == 0 {
		return nil
	}
	_, err := c.Unify(sym.Const(int64(n)), d, name+" (one per element of axis "+itoa(axis)+")")
	return err
}

// dnnlQuantOut sets the output of a quantization of in: in's shape, of the file's type.
func dnnlQuantOut(c *ctx, in *Info) error {
	c.Out(0, fileType, in.Shape)
	return nil
}

// dnnlDynamicQuantize: DynamicQuantize-1 and DynamicDequantize-1: src, scales and zps (optional)
// as inputs; the output has src's shape. scales and zps hold one value (per_tensor), one per
// element of src's axis (per_channel: 1-D), or (DynamicDequantize's per_group) src's rank and
// along each axis src's dim divided by the group_shape attribute's (a multiple of it), 1 where
// group_shape is 1 and src's dim is not grouped.
func dnnlDynamicQuantize(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	src := ins[0]
	r, ok := src.Rank()
	qtype, axis, err := dnnlQType(c, r, ok)
	if err != nil {
		return err
	}
	for i := 1; i < c.NumIn(); i++ {
		p := c.In(i)
		if p == nil || p.Shape.RankDynamic {
			continue
		}
		what := "input " + itoa(i)
		switch qtype {
		case "per_tensor":
			for k, d := range p.Shape.Dims {
				if _, err := c.Unify(d, sym.Const(1), what+" dim "+itoa(k)+" (per_tensor: one value)"); err != nil {
					return err
				}
			}
		case "per_channel":
			if !ok {
				continue
			}
			if _, err := channelParam(c, i, src.Shape.Dims[axis], what+": per_channel along axis "+itoa(axis)); err != nil {
				return err
			}
		case "per_group":
			if err := dnnlGroups(c, src, p, i); err != nil {
				return err
			}
		}
	}
	return dnnlQuantOut(c, src)
}

// dnnlGroups checks the scales or zero points p (input i) of a per_group DynamicDequantize of src
// against the group_shape attribute: of src's rank, each dim src's divided by the group's size.
func dnnlGroups(c *ctx, src, p *Info, i int) error {
	gs, given, err := c.Ints("group_shape")
	switch {
	case err != nil:
		return err
	case !given:
		return c.Errorf(errcode.ErrSyntax, "qtype per_group takes the attribute group_shape")
	}
	r, ok := src.Rank()
	if !ok {
		return nil
	}
	if len(gs) != r || len(p.Shape.Dims) != r {
		return c.Errorf(errcode.ErrInvalidShape, "group_shape %v and input %d of rank %d for src of rank %d: want the same rank", gs, i, len(p.Shape.Dims), r)
	}
	for k, g := range gs {
		if g < 1 {
			return c.Errorf(errcode.ErrInvalidShape, "group_shape[%d] = %d: want a positive size", k, g)
		}
		d := src.Shape.Dims[k]
		if g > 1 {
			if err := c.Require(divides(d, g), "src dim "+itoa(k)+" a multiple of the group size "+itoa(int(g))); err != nil {
				return err
			}
			d = sym.FloorDivDims(d, sym.Const(g))
		}
		if _, err := c.Unify(p.Shape.Dims[k], d, "input "+itoa(i)+" dim "+itoa(k)+": the groups of src along it"); err != nil {
			return err
		}
	}
	return nil
}

// divides returns the predicate that g divides the dim d, true when d is not an expression (an
// interval: nothing to state).
func divides(d sym.Dim, g int64) sym.Pred {
	if n, ok := d.Static(); ok {
		return boolPred(n%g == 0)
	}
	x, ok := d.Expr()
	if !ok {
		return sym.True()
	}
	p, ok := sym.Divisible(x, sym.Int(g))
	if !ok {
		return sym.True()
	}
	return p
}

// boolPred returns the predicate that is b.
func boolPred(b bool) sym.Pred {
	if b {
		return sym.True()
	}
	return sym.False()
}

// dnnlTypeCast: TypeCast-1: src's shape, of the file's type.
func dnnlTypeCast(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	c.Out(0, fileType, in.Shape)
	return nil
}
