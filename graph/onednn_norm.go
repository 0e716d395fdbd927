package graph

import (
	"github.com/reshape-go/reshape/sym"
)

// onednnNorm holds the rules of oneDNN Graph's normalizations and softmaxes, forward and backward:
// the outputs have the shape of src (or diff_dst), and the statistics and parameters that of the
// normalized part. benchdnn's files spell SoftMax and SoftMaxBackward, the documentation Softmax
// and SoftmaxBackward: both are registered.
var onednnNorm = table{DomainOneDNN, []opDef{
	{"BatchNormInference", since(1), fixed(5), fixed(1), 0, dnnlBatchNorm},
	{"BatchNormForwardTraining", since(1), span(3, 5), span(1, 5), 0, dnnlBatchNorm},
	{"BatchNormTrainingBackward", since(1), span(4, 5), span(1, 3), 0, dnnlBatchNorm},
	{"LayerNorm", since(1), span(1, 3), span(1, 3), 0, dnnlLayerNorm},
	{"LayerNormBackward", since(1), span(4, 6), span(1, 3), 0, dnnlLayerNorm},
	{"RMSNorm", since(1), span(1, 2), fixed(1), 0, dnnlLayerNorm},
	{"GroupNorm", since(1), span(1, 3), span(1, 3), 0, needs(dnnlGroupNorm, "groups")},
	{"SoftMax", since(1), fixed(1), span(1, 2), 0, dnnlSoftmax},
	{"Softmax", since(1), fixed(1), span(1, 2), 0, dnnlSoftmax},
	{"LogSoftmax", since(1), fixed(1), fixed(1), 0, dnnlSoftmax},
	{"SoftMaxBackward", since(1), fixed(2), fixed(1), 0, dnnlSoftmaxBackward},
	{"SoftmaxBackward", since(1), fixed(2), fixed(1), 0, dnnlSoftmaxBackward},
	{"LogSoftmaxBackward", since(1), fixed(2), fixed(1), 0, dnnlSoftmaxBackward},
}}

// dnnlBatchNorm: BatchNormInference-1 (src, gamma, beta, mean, variance),
// BatchNormForwardTraining-1 (src, mean, variance, gamma, beta: dst, running_mean,
// running_variance, batch_mean, batch_variance) and BatchNormTrainingBackward-1 (src, diff_dst,
// mean, variance, gamma: diff_src, diff_gamma, diff_beta): the tensors of src's shape are equal,
// and every other input and output is [C], the channels of src (data_format).
func dnnlBatchNorm(c *ctx) error {
	src, axis, ok, err := channelsOf(c)
	if err != nil || !ok {
		return err
	}
	full, params := src.Shape, 1
	if c.n.Op == "BatchNormTrainingBackward" {
		if full, err = unifyShape(c, full, c.In(1).Shape, "src and diff_dst"); err != nil {
			return err
		}
		params = 2
	}
	ch := full.Dims[axis]
	for i := params; i < c.NumIn(); i++ {
		if ch, err = channelParam(c, i, ch, "input "+itoa(i)); err != nil {
			return err
		}
	}
	c.Out(0, fileType, full)
	for k := 1; k < c.NumOut(); k++ {
		c.Out(k, fileType, sym.ShapeOf(ch))
	}
	return nil
}

// dnnlLayerNorm: LayerNorm-1 (src, gamma, beta: dst, mean, variance), LayerNormBackward-1 (src,
// diff_dst, mean, variance, gamma, beta: diff_src, diff_gamma, diff_beta) and RMSNorm-1 (src,
// gamma: dst): src's dims from begin_norm_axis (-1 by default) are normalized; gamma and beta
// have their shape, mean and variance that of the dims before it (dst and diff_src that of src).
func dnnlLayerNorm(c *ctx) error {
	src, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	a, err := c.Int("begin_norm_axis", -1)
	if err != nil {
		return err
	}
	axis, err := c.NormAxis(a, r)
	if err != nil {
		return err
	}
	full, params := src.Shape, 1
	if c.n.Op == "LayerNormBackward" {
		if full, err = unifyShape(c, full, c.In(1).Shape, "src and diff_dst"); err != nil {
			return err
		}
		for i := 2; i < 4; i++ {
			if err := sameShape(c, c.In(i).Shape, sym.ShapeOf(full.Dims[:axis]...), "input "+itoa(i)+" (the statistics)"); err != nil {
				return err
			}
		}
		params = 4
	}
	norm := sym.ShapeOf(c.clone(full.Dims[axis:])...)
	for i := params; i < c.NumIn(); i++ {
		if in := c.In(i); in != nil {
			if err := sameShape(c, in.Shape, norm, "input "+itoa(i)+" and src's normalized dims"); err != nil {
				return err
			}
		}
	}
	c.Out(0, fileType, full)
	for k := 1; k < c.NumOut(); k++ {
		s := norm
		if c.n.Op == "LayerNorm" {
			s = sym.ShapeOf(c.clone(full.Dims[:axis])...)
		}
		c.Out(k, fileType, s)
	}
	return nil
}

// dnnlGroupNorm: GroupNorm-1 (src, gamma, beta: dst, mean, variance): the channels (data_format)
// are a multiple of groups; gamma and beta are [C], mean and variance [N, groups].
func dnnlGroupNorm(c *ctx) error {
	src, axis, ok, err := channelsOf(c)
	if err != nil || !ok {
		return err
	}
	g, err := groupsOf(c)
	if err != nil {
		return err
	}
	ch := src.Shape.Dims[axis]
	if err := c.Require(divides(ch, g), "the channels a multiple of groups "+itoa(int(g))); err != nil {
		return err
	}
	for i := 1; i < c.NumIn(); i++ {
		if ch, err = channelParam(c, i, ch, "input "+itoa(i)); err != nil {
			return err
		}
	}
	c.Out(0, fileType, src.Shape)
	for k := 1; k < c.NumOut(); k++ {
		c.Out(k, fileType, sym.ShapeOf(src.Shape.Dims[0], sym.Const(g)))
	}
	return nil
}

// dnnlSoftmax: SoftMax-1 (Softmax-1) and LogSoftmax-1: dst has src's type and shape; SoftMax's
// second output, the statistics of a training graph, has src's shape with the dim of axis (1 by
// default) 1.
func dnnlSoftmax(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	a, err := c.Int("axis", 1)
	if err != nil {
		return err
	}
	r, ok := in.Rank()
	if !ok {
		return nil
	}
	axis, err := c.NormAxis(a, r)
	if err != nil {
		return err
	}
	c.Out(0, fileType, in.Shape)
	if c.NumOut() > 1 {
		c.Out(1, fileType, sym.ShapeOf(withDim(c.clone(in.Shape.Dims), axis, sym.Const(1))...))
	}
	return nil
}

// dnnlSoftmaxBackward: SoftMaxBackward-1 (SoftmaxBackward-1) and LogSoftmaxBackward-1 (diff_dst,
// dst): diff_src has their shape, which is one, and diff_dst's type.
func dnnlSoftmaxBackward(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	if _, err := c.Int("axis", 1); err != nil {
		return err
	}
	s, err := unifyShape(c, ins[0].Shape, ins[1].Shape, "diff_dst and dst")
	if err != nil {
		return err
	}
	c.Out(0, fileType, s)
	return nil
}
