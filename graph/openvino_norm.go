package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoNorm holds the rules of OpenVINO IR's normalizations and softmax-like layers: the output
// has the data's type and shape; what they check is their axes and the shapes of their per-channel
// parameters.
var openvinoNorm = table{DomainOpenVINO, []opDef{
	{"Softmax", since(1, 8), fixed(1), fixed(1), 0, ovSoftmax},
	{"LogSoftmax", since(5), fixed(1), fixed(1), 0, ovSoftmax},
	{"MVN", since(1), fixed(1), fixed(1), 0, ovMVN},
	{"MVN", since(6), fixed(2), fixed(1), reads(1), ovMVN},
	{"NormalizeL2", since(1), fixed(2), fixed(1), reads(1), ovAxesNorm},
	{"LRN", since(1), fixed(2), fixed(1), reads(1), ovAxesNorm},
	{"GRN", since(1), fixed(1), fixed(1), 0, ovGRN},
	{"BatchNormInference", since(1, 5), fixed(5), fixed(1), 0, ovBatchNorm},
	{"GroupNormalization", since(12), fixed(3), fixed(1), 0, ovGroupNorm},
}}

// ovSoftmax: Softmax-1 (axis in [0, rank-1]), Softmax-8 and LogSoftmax-5 (axis in [-rank, rank-1],
// negative ones from the end): the data's type and shape; axis is 1 by default.
func ovSoftmax(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	axis, err := c.Int("axis", 1)
	if err != nil {
		return err
	}
	if r, ok := in.Rank(); ok {
		if c.n.Op == "Softmax" && c.Version() < 8 && axis < 0 {
			return c.Errorf(errcode.ErrInvalidShape, "axis %d: Softmax-1 takes an axis in [0, %d]", axis, r-1)
		}
		if _, err := c.NormAxis(axis, r); err != nil {
			return err
		}
	}
	c.SameAs(0, in)
	return nil
}

// ovMVN: MVN-1 (across_channels or reduction_axes attributes) and MVN-6 (the 1-D axes input, axes
// of the data; eps_mode inside_sqrt or outside_sqrt): the data's type and shape.
func ovMVN(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if c.Version() >= 6 {
		mode, err := c.String("eps_mode", "")
		if err != nil {
			return err
		}
		if mode != "inside_sqrt" && mode != "outside_sqrt" {
			return c.Errorf(errcode.ErrSyntax, "eps_mode %q: want inside_sqrt or outside_sqrt", mode)
		}
		axes, n, err := ovVector(c, 1, "axes")
		if err != nil {
			return err
		}
		if err := ovCheckAxes(c, in, axes, n); err != nil {
			return err
		}
	}
	c.SameAs(0, in)
	return nil
}

// ovCheckAxes checks an axes input of n elements (-1: not known) against the data in: at most
// its rank, each an axis of it (negative ones from the end).
func ovCheckAxes(c *ctx, in, axes *Info, n int) error {
	r, ok := in.Rank()
	if !ok {
		return nil
	}
	if n > r {
		return c.Errorf(errcode.ErrInvalidShape, "%d axes for data of rank %d", n, r)
	}
	if v, known := axes.Ints(); known {
		if _, err := ovAxes(c, v, r); err != nil {
			return err
		}
	}
	return nil
}

// ovAxesNorm: NormalizeL2-1 (axes a scalar or 1-D) and LRN-1 (axes 1-D): the data's type and
// shape; the axes are axes of the data.
func ovAxesNorm(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	least := 0
	if c.n.Op == "LRN" {
		least = 1
	}
	r, ok, err := c.RequireRank(ins[1], 1, least, 1)
	if err != nil {
		return err
	}
	n := -1
	if ok && r == 1 {
		if k, ok := ins[1].Shape.Dims[0].Static(); ok {
			n = int(k)
		}
	}
	if err := ovCheckAxes(c, ins[0], ins[1], n); err != nil {
		return err
	}
	c.SameAs(0, ins[0])
	return nil
}

// ovGRN: GRN-1: the data's type and shape, of rank 2, 3 or 4.
func ovGRN(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(in, 0, 2, 4); err != nil {
		return err
	}
	c.SameAs(0, in)
	return nil
}

// ovBatchNorm: BatchNormInference-1 (inputs gamma, beta, data, mean, variance) and -5 (data,
// gamma, beta, mean, variance): the data's type and shape, of rank 2 or more; the four parameters
// are 1-D of the data's channels (dim 1, at least 1); epsilon is at least 0.
func ovBatchNorm(c *ctx) error {
	ins, err := c.Inputs(5)
	if err != nil {
		return err
	}
	eps, err := c.Float("epsilon", 0)
	if err != nil {
		return err
	}
	if !(eps >= 0) {
		return c.Errorf(errcode.ErrSyntax, "epsilon %g: want at least 0", eps)
	}
	di := 0
	if c.Version() < 5 {
		di = 2
	}
	data := ins[di]
	ch := sym.Unknown()
	for i, in := range ins {
		if i == di {
			continue
		}
		r, ok, err := c.RequireRank(in, i, 1, 1)
		if err != nil {
			return err
		}
		if ok && r == 1 {
			if ch, err = c.Unify(ch, in.Shape.Dims[0], "the channels of the parameters"); err != nil {
				return err
			}
		}
	}
	r, ok, err := c.RequireRank(data, di, 2, -1)
	if err != nil || !ok {
		return err
	}
	dims := c.clone(data.Shape.Dims)
	if dims[1], err = c.Unify(dims[1], ch, "the data's channels and the parameters'"); err != nil {
		return err
	}
	if err := requireAtLeast(c, dims[1], 1, "the channels"); err != nil {
		return err
	}
	c.Out(0, data.Type, sym.ShapeOf(dims[:r]...))
	return nil
}

// ovGroupNorm: GroupNormalization-12: the data's type and shape, of rank 2 or more; scale and bias
// are 1-D of the data's channels (dim 1), a multiple of num_groups (at least 1).
func ovGroupNorm(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	groups, err := c.Int("num_groups", 0)
	if err != nil {
		return err
	}
	if groups < 1 {
		return c.Errorf(errcode.ErrSyntax, "num_groups %d: want at least 1", groups)
	}
	ch := sym.Unknown()
	for i, what := range []string{"scale", "bias"} {
		in, _, err := ovVector(c, i+1, what)
		if err != nil {
			return err
		}
		if r, ok := in.Rank(); ok && r == 1 {
			if ch, err = c.Unify(ch, in.Shape.Dims[0], "the lengths of scale and bias"); err != nil {
				return err
			}
		}
	}
	data := ins[0]
	r, ok, err := c.RequireRank(data, 0, 2, -1)
	if err != nil || !ok {
		return err
	}
	dims := c.clone(data.Shape.Dims)
	if dims[1], err = c.Unify(dims[1], ch, "the data's channels and the length of scale and bias"); err != nil {
		return err
	}
	if err := requireMultiple(c, dims[1], groups, "the channels a multiple of num_groups "+itoa(int(groups))); err != nil {
		return err
	}
	if err := requireAtLeast(c, dims[1], groups, "the channels at least num_groups"); err != nil {
		return err
	}
	c.Out(0, data.Type, sym.ShapeOf(dims[:r]...))
	return nil
}
