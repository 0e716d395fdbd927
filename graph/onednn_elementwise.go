package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/sym"
)

// onednnElementwise holds the rules of oneDNN Graph's element-wise operations: the activations
// and their backward operations, the binary operations with their auto_broadcast, Select, PReLU
// and PReLUBackward.
var onednnElementwise = table{DomainOneDNN, []opDef{
	{"Abs", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"Clamp", since(1), fixed(1), fixed(1), 0, needs(dnnlUnary, "min", "max")},
	{"Elu", since(1), fixed(1), fixed(1), 0, needs(dnnlUnary, "alpha")},
	{"Exp", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"GELU", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"HardSigmoid", since(1), fixed(1), fixed(1), 0, needs(dnnlUnary, "alpha", "beta")},
	{"HardSwish", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"LeakyReLU", since(1), fixed(1), fixed(1), 0, needs(dnnlUnary, "alpha")},
	{"Log", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"Mish", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"Pow", since(1), fixed(1), fixed(1), 0, needs(dnnlUnary, "beta")},
	{"Reciprocal", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"ReLU", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"Round", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"Sigmoid", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"SoftPlus", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"Sqrt", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"Square", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"Tanh", since(1), fixed(1), fixed(1), 0, dnnlUnary},
	{"AbsBackward", since(1), fixed(2), fixed(1), 0, dnnlBackward},
	{"ClampBackward", since(1), fixed(2), fixed(1), 0, needs(dnnlBackward, "min", "max")},
	{"EluBackward", since(1), fixed(2), fixed(1), 0, needs(dnnlBackward, "alpha")},
	{"GELUBackward", since(1), fixed(2), fixed(1), 0, dnnlBackward},
	{"HardSigmoidBackward", since(1), fixed(2), fixed(1), 0, needs(dnnlBackward, "alpha", "beta")},
	{"HardSwishBackward", since(1), fixed(2), fixed(1), 0, dnnlBackward},
	{"MishBackward", since(1), fixed(2), fixed(1), 0, dnnlBackward},
	{"ReLUBackward", since(1), fixed(2), fixed(1), 0, dnnlBackward},
	{"SigmoidBackward", since(1), fixed(2), fixed(1), 0, dnnlBackward},
	{"SoftPlusBackward", since(1), fixed(2), fixed(1), 0, dnnlBackward},
	{"SqrtBackward", since(1), fixed(2), fixed(1), 0, dnnlBackward},
	{"TanhBackward", since(1), fixed(2), fixed(1), 0, dnnlBackward},
	{"Add", since(1), fixed(2), fixed(1), 0, dnnlBinary},
	{"Subtract", since(1), fixed(2), fixed(1), 0, dnnlBinary},
	{"Multiply", since(1), fixed(2), fixed(1), 0, dnnlBinary},
	{"Divide", since(1), fixed(2), fixed(1), 0, dnnlBinary},
	{"Maximum", since(1), fixed(2), fixed(1), 0, dnnlBinary},
	{"Minimum", since(1), fixed(2), fixed(1), 0, dnnlBinary},
	{"SquaredDifference", since(1), fixed(2), fixed(1), 0, dnnlBinary},
	{"GreaterEqual", since(1), fixed(2), fixed(1), 0, dnnlBinary},
	{"Select", since(1), fixed(3), fixed(1), 0, dnnlSelect},
	{"PReLU", since(1), fixed(2), fixed(1), 0, dnnlPReLU},
	{"PReLUBackward", since(1), fixed(3), fixed(2), 0, dnnlPReLU},
}}

// fileType is the element type of an output whose type oneDNN lets the file choose among those
// the operation's table allows (a bf16 MatMul's f32 dst, an f32 SoftMax's bf16 dst): the
// declaration's, which the engine takes for the outputs of a dialect that declares every tensor.
const fileType = element.Undefined

// dnnlUnary: the activations (Abs-1, Clamp-1, Elu-1, Exp-1, GELU-1, HardSigmoid-1, HardSwish-1,
// LeakyReLU-1, Log-1, Mish-1, Pow-1, Reciprocal-1, ReLU-1, Round-1, Sigmoid-1, SoftPlus-1,
// Sqrt-1, Square-1, Tanh-1), and Reorder-1: the output has the shape of the input.
func dnnlUnary(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	c.Out(0, fileType, in.Shape)
	return nil
}

// dnnlBackward: the backward operations of the activations (AbsBackward-1 ... TanhBackward-1):
// diff_src has the shape of input 0 (src, or dst with use_dst), to which diff_dst (input
// 1) is equal.
func dnnlBackward(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	s, err := unifyShape(c, ins[0].Shape, ins[1].Shape, "input 0 and diff_dst")
	if err != nil {
		return err
	}
	c.Out(0, fileType, s)
	return nil
}

// dnnlBroadcast returns the shape of the inputs' element-wise broadcast under the node's
// auto_broadcast attribute: numpy (the default: Broadcast) or none (equal shapes, unified).
func dnnlBroadcast(c *ctx, ins ...*Info) (sym.Shape, error) {
	mode, err := dnnlChoice(c, "auto_broadcast", "numpy", "numpy", "none")
	if err != nil {
		return sym.Shape{}, err
	}
	if mode == "numpy" {
		shapes := make([]sym.Shape, len(ins))
		for i, in := range ins {
			shapes[i] = in.Shape
		}
		return c.Broadcast(shapes...)
	}
	s := ins[0].Shape
	for i, in := range ins[1:] {
		if s, err = unifyShape(c, s, in.Shape, "auto_broadcast none: input "+itoa(i+1)+" and input 0"); err != nil {
			return s, err
		}
	}
	return s, nil
}

// dnnlBinary: Add-1, Subtract-1, Multiply-1, Divide-1, Maximum-1, Minimum-1,
// SquaredDifference-1 and GreaterEqual-1: the broadcast of the two inputs (dnnlBroadcast), of
// type boolean for GreaterEqual.
func dnnlBinary(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	s, err := dnnlBroadcast(c, ins...)
	if err != nil {
		return err
	}
	t := fileType
	if c.n.Op == "GreaterEqual" {
		t = element.Boolean
	}
	c.Out(0, t, s)
	return nil
}

// dnnlSelect: Select-1: with auto_broadcast numpy (the default), src_0 and src_1 broadcast, and
// cond broadcasts to their broadcast one way (it does not grow it); with none, the three are
// equal.
func dnnlSelect(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	mode, err := dnnlChoice(c, "auto_broadcast", "numpy", "numpy", "none")
	if err != nil {
		return err
	}
	if mode == "none" {
		s, err := dnnlBroadcast(c, ins...)
		if err != nil {
			return err
		}
		c.Out(0, fileType, s)
		return nil
	}
	s, err := c.Broadcast(ins[1].Shape, ins[2].Shape)
	if err != nil || s.RankDynamic || ins[0].Shape.RankDynamic {
		c.Out(0, fileType, s)
		return err
	}
	dims := c.clone(s.Dims)
	if err := unidirectional(c, ins[0].Shape, dims, 0, true); err != nil {
		return err
	}
	c.Out(0, fileType, sym.ShapeOf(dims...))
	return nil
}

// dnnlPReLU: PReLU-1 (src, slope: dst) and PReLUBackward-1 (src, slope, diff_dst: diff_src and
// diff_slope): dst and diff_src have src's type and shape, diff_dst is equal to src, and
// diff_slope has slope's shape. The slope broadcasts to src one way from the right; a 1-D slope
// may instead be one value per channel (the data_format's channel axis, NXC by default), as
// PReLU's per_channel_broadcast (true by default) and PReLUBackward's PyTorch case say.
func dnnlPReLU(c *ctx) error {
	ins, err := c.Inputs(c.NumIn())
	if err != nil {
		return err
	}
	src, slope := ins[0], ins[1]
	perChannel := true
	if c.n.Op == "PReLU" {
		if perChannel, err = dnnlBool(c, "per_channel_broadcast", true); err != nil {
			return err
		}
	}
	nxc, err := dnnlDataFormat(c)
	if err != nil {
		return err
	}
	out := src.Shape
	if c.n.Op == "PReLUBackward" {
		if out, err = unifyShape(c, out, ins[2].Shape, "src and diff_dst"); err != nil {
			return err
		}
	}
	r, ok := out.Rank()
	sr, sok := slope.Rank()
	switch {
	case !ok || !sok:
	case sr == 1 && perChannel && r >= 2 && !isOne(slope.Shape.Dims[0]):
		if _, err := c.Unify(slope.Shape.Dims[0], out.Dims[channelAxis(nxc, r)], "the slope and the channels"); err != nil {
			return err
		}
	default:
		if err := unidirectional(c, slope.Shape, c.clone(out.Dims), 1, true); err != nil {
			return err
		}
	}
	c.Out(0, fileType, out)
	if c.n.Op == "PReLUBackward" {
		c.Out(1, fileType, slope.Shape)
	}
	return nil
}

// dnnlDataFormat reads the data_format attribute: NXC (the default: channels last) or NCX; nxc
// reports NXC.
func dnnlDataFormat(c *ctx) (nxc bool, err error) {
	f, err := dnnlChoice(c, "data_format", "NXC", "NXC", "NCX")
	return f == "NXC", err
}

// channelAxis returns the channel axis of a tensor of rank r in the data format NXC (nxc) or NCX.
func channelAxis(nxc bool, r int) int {
	if nxc {
		return r - 1
	}
	return 1
}
