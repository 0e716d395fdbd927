package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxNorm holds the rules of ONNX's normalizations, softmax-like operators and Dropout: each output
// has its input's shape; the rules check the axes and unify the per-channel parameters with the
// channel dim.
var onnxNorm = table{"", []opDef{
	{"BatchNormalization", since(1, 6, 7, 9), fixed(5), span(1, 5), 0, batchNorm},
	{"BatchNormalization", since(14, 15), fixed(5), span(1, 3), 0, batchNorm},
	{"InstanceNormalization", since(1, 6), fixed(3), fixed(1), 0, instanceNorm},
	{"LayerNormalization", since(1, 17), span(2, 3), span(1, 3), 0, layerNorm},
	{"GroupNormalization", since(18, 21), fixed(3), fixed(1), 0, groupNorm},
	{"RMSNormalization", since(23), fixed(2), fixed(1), 0, rmsNorm},
	{"SimplifiedLayerNormalization", since(1), fixed(2), span(1, 2), 0, layerNorm},
	{"LpNormalization", since(1), fixed(1), fixed(1), 0, axisShaped},
	{"Softmax", since(1, 11, 13), fixed(1), fixed(1), 0, axisShaped},
	{"LogSoftmax", since(1, 11, 13), fixed(1), fixed(1), 0, axisShaped},
	{"Hardmax", since(1, 11, 13), fixed(1), fixed(1), 0, axisShaped},
	{"MeanVarianceNormalization", since(1, 9, 13), fixed(1), fixed(1), 0, meanVarianceNorm},
	{"LRN", since(1, 13), fixed(1), fixed(1), 0, lrn},
	{"ImageScaler", since(1), fixed(1), fixed(1), 0, imageScaler},
	{"Dropout", since(1, 6, 7, 10), fixed(1), span(1, 2), 0, dropout},
	{"Dropout", since(12, 13), span(1, 3), span(1, 2), 0, dropout},
}}

// channelParams unifies the 1-D inputs 1, 2, ... (a scale, a bias, a mean, a variance: one value
// per channel), which what names, with the channel dim ch, as channelParam.
func channelParams(c *ctx, ch sym.Dim, what ...string) error {
	for i, w := range what {
		var err error
		if ch, err = channelParam(c, i+1, ch, w); err != nil {
			return err
		}
	}
	return nil
}

// channels returns the channel dim (axis 1) of x, which must have rank at least 2; ok is false when
// the rank is not known.
func channels(c *ctx, x *Info) (sym.Dim, bool, error) {
	r, ok, err := c.RequireRank(x, 0, 2, -1)
	if err != nil || !ok || r < 2 {
		return sym.Unknown(), false, err
	}
	return x.Shape.Dims[1], true, nil
}

// batchNorm: BatchNormalization-1, -6, -7 (spatial), -9, -14, -15 (training_mode). Y has X's shape
// [N, C, D1..Dn]; the statistics outputs (mean, var, saved_mean, saved_var before -14;
// running_mean, running_var from -14, which only training_mode=1 gives) have the shape of the
// input mean and var. With spatial statistics (all versions from -9, spatial=1 before), the 1-D
// scale, B, mean and var unify with C.
func batchNorm(c *ctx) error {
	ins, err := c.Inputs(5)
	if err != nil {
		return err
	}
	x := ins[0]
	if c.Version() >= 14 {
		training, err := c.Int("training_mode", 0)
		if err != nil {
			return err
		}
		if training == 0 && c.NumOut() > 1 {
			return c.Errorf(errcode.ErrSyntax, "%s, and BatchNormalization-%d has 1 without training_mode", count(c.NumOut(), "output"), c.Version())
		}
	}
	spatial := int64(1)
	if c.Version() < 9 {
		if spatial, err = c.Int("spatial", 1); err != nil {
			return err
		}
	}
	if ch, ok, err := channels(c, x); err != nil {
		return err
	} else if ok && spatial != 0 {
		if err := channelParams(c, ch, "scale", "B", "mean", "var"); err != nil {
			return err
		}
	}
	c.SameAs(0, x)
	mean, variance := c.In(3), c.In(4)
	c.Out(1, mean.Type, mean.Shape)
	c.Out(2, variance.Type, variance.Shape)
	c.Out(3, mean.Type, mean.Shape)
	c.Out(4, variance.Type, variance.Shape)
	return nil
}

// instanceNorm: InstanceNormalization-1, -6, -22: the output has the input's shape
// [N, C, D1..Dn]; the 1-D scale and B unify with C.
func instanceNorm(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	if ch, ok, err := channels(c, ins[0]); err != nil {
		return err
	} else if ok {
		if err := channelParams(c, ch, "scale", "B"); err != nil {
			return err
		}
	}
	c.SameAs(0, ins[0])
	return nil
}

// layerNorm: LayerNormalization-17, and onnxruntime's SimplifiedLayerNormalization-1 of the default
// domain (without the mean: its second output is inv_std_var): Y has X's shape; Mean and InvStdDev,
// of the type stash_type names (float by default), have X's dims before axis and 1 from axis on.
func layerNorm(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, err := c.Inputs(2); err != nil {
		return err
	}
	axis, err := c.Int("axis", -1)
	if err != nil {
		return err
	}
	stash, err := c.Int("stash_type", 1)
	if err != nil {
		return err
	}
	c.SameAs(0, x)
	t := elemTypeOf(stash)
	r, ok := x.Rank()
	if !ok {
		c.Out(1, t, sym.DynamicRank())
		c.Out(2, t, sym.DynamicRank())
		return nil
	}
	a, err := c.NormAxis(axis, r)
	if err != nil {
		return err
	}
	dims := c.clone(x.Shape.Dims)
	for i := a; i < r; i++ {
		dims[i] = sym.Const(1)
	}
	s := sym.ShapeOf(dims...)
	c.Out(1, t, s)
	c.Out(2, t, s)
	return nil
}

// groupNorm: GroupNormalization-18, -21: Y has X's shape [N, C, D1..Dn]; C must be a multiple of
// num_groups; the 1-D scale and bias have num_groups elements (-18) or C (-21).
func groupNorm(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	g, err := c.Int("num_groups", 0)
	if err != nil {
		return err
	}
	if _, ok := c.n.Attr("num_groups"); !ok {
		return c.Errorf(errcode.ErrSyntax, "attribute num_groups is missing: GroupNormalization takes it")
	}
	if g < 1 {
		return c.Errorf(errcode.ErrInvalidShape, "num_groups %d is less than 1", g)
	}
	if ch, ok, err := channels(c, ins[0]); err != nil {
		return err
	} else if ok {
		if err := requireMultiple(c, ch, g, "the channels a multiple of num_groups "+itoa(int(g))); err != nil {
			return err
		}
		if c.Version() < 21 {
			ch = sym.Const(g)
		}
		if err := channelParams(c, ch, "scale", "bias"); err != nil {
			return err
		}
	}
	c.SameAs(0, ins[0])
	return nil
}

// rmsNorm: RMSNormalization-23: Y has X's shape; axis must be one of X's.
func rmsNorm(c *ctx) error {
	if _, err := c.Inputs(2); err != nil {
		return err
	}
	return sameShapeAxis(c, -1)
}

// axisShaped: Softmax-1, -11, -13, LogSoftmax-1, -11, -13, Hardmax-1, -11, -13 (axis 1 by
// default before -13, -1 from it; before -13 the input is seen as 2-D around the axis, which does
// not change the shape), LpNormalization-1, -22: the output has the input's shape; the axis must be
// one of the input's.
func axisShaped(c *ctx) error {
	def := int64(-1)
	if c.n.Op != "LpNormalization" && c.Version() < 13 {
		def = 1
	}
	return sameShapeAxis(c, def)
}

// sameShapeAxis sets output 0 to input 0's type and shape, after checking the axis attribute
// (default def) against its rank.
func sameShapeAxis(c *ctx, def int64) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	axis, err := c.Int("axis", def)
	if err != nil {
		return err
	}
	if r, ok := x.Rank(); ok {
		if _, err := c.NormAxis(axis, r); err != nil {
			return err
		}
	}
	c.SameAs(0, x)
	return nil
}

// meanVarianceNorm: MeanVarianceNormalization-1, -9, -13: the output has the input's shape; the
// axes the node gives must be the input's.
func meanVarianceNorm(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	axes, ok, err := c.Ints("axes")
	if err != nil {
		return err
	}
	if r, rok := x.Rank(); ok && rok {
		if _, err := c.NormAxes(axes, r); err != nil {
			return err
		}
	}
	c.SameAs(0, x)
	return nil
}

// imageScaler: the experimental ImageScaler-1 of opset 1, which onnxruntime still runs: the
// output has X's shape [N, C, H, W]; the bias attribute holds one value per channel, whose count
// unifies with C.
func imageScaler(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, ok, err := c.RequireRank(x, 0, 4, 4); err != nil {
		return err
	} else if bias, given, err := c.Floats("bias"); err != nil {
		return err
	} else if ok && given {
		if _, err := c.Unify(x.Shape.Dims[1], sym.Const(int64(len(bias))), "the channels and bias' length"); err != nil {
			return err
		}
	}
	c.SameAs(0, x)
	return nil
}

// lrn: LRN-1, -13: the output has the input's shape [N, C, D1..Dn] (rank 3 or more); size is
// required.
func lrn(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, ok := c.n.Attr("size"); !ok {
		return c.Errorf(errcode.ErrSyntax, "attribute size is missing: LRN takes it")
	}
	if _, _, err := c.RequireRank(x, 0, 3, -1); err != nil {
		return err
	}
	c.SameAs(0, x)
	return nil
}

// dropout: Dropout-1, -6, -7, -10, -12 (ratio and training_mode inputs), -13, -22: the output and
// the mask have the input's shape; the mask has the input's type before -10, boolean from it.
func dropout(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	c.SameAs(0, x)
	mask := x.Type
	if c.Version() >= 10 {
		mask = element.Boolean
	}
	c.Out(1, mask, x.Shape)
	return nil
}
