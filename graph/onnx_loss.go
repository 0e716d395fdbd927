package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxLoss holds the rules of ONNX's loss operators: a loss per sample, or one scalar when the
// losses are reduced.
var onnxLoss = table{"", []opDef{
	{"NegativeLogLikelihoodLoss", since(12, 13), span(2, 3), fixed(1), 0, loss},
	{"SoftmaxCrossEntropyLoss", since(12, 13), span(2, 3), span(1, 2), 0, loss},
}}

// loss: NegativeLogLikelihoodLoss-12, -13 (input, target, weight) and SoftmaxCrossEntropyLoss-12,
// -13 (scores, labels, weights; a second output, log_prob). Input 0 is [N, C] or [N, C, D1..Dk]
// and the target [N] or [N, D1..Dk]: its dims unify with input 0's but C; the 1-D weight unifies
// with C. The loss, of input 0's element type, has the target's shape with reduction "none", and
// is a scalar with "mean" (the default) or "sum"; log_prob has input 0's type and shape. Another
// reduction is an error wrapping errcode.ErrSyntax; a rank of input 0 below 2, or a target rank
// other than one less, an error wrapping errcode.ErrInvalidShape.
func loss(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	reduction, err := c.String("reduction", "mean")
	if err != nil {
		return err
	}
	none := reduction == "none"
	if !none && reduction != "mean" && reduction != "sum" {
		return c.Errorf(errcode.ErrSyntax, "reduction %q: want none, mean or sum", reduction)
	}
	x, target := ins[0], ins[1]
	r, ok, err := c.RequireRank(x, 0, 2, -1)
	if err != nil {
		return err
	}
	if ok {
		if _, _, err := c.RequireRank(target, 1, r-1, r-1); err != nil {
			return err
		}
		if !target.Shape.RankDynamic {
			for i, d := range target.Shape.Dims {
				xi := i
				if i > 0 {
					xi++
				}
				if _, err := c.Unify(x.Shape.Dims[xi], d, "input 0 dim "+itoa(xi)+" and the target's dim "+itoa(i)); err != nil {
					return err
				}
			}
		}
		if _, err := channelParam(c, 2, x.Shape.Dims[1], "the weight"); err != nil {
			return err
		}
	} else if _, _, err := c.RequireRank(target, 1, 1, -1); err != nil {
		return err
	}
	switch {
	case !none:
		c.Out(0, x.Type, sym.Shape{})
	case !target.Shape.RankDynamic:
		c.Out(0, x.Type, target.Shape)
	case ok:
		dims := append([]sym.Dim{x.Shape.Dims[0]}, x.Shape.Dims[2:]...)
		c.Out(0, x.Type, sym.ShapeOf(dims...))
	default:
		c.Out(0, x.Type, sym.DynamicRank())
	}
	c.SameAs(1, x)
	return nil
}
