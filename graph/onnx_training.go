package graph

import (
	"github.com/reshape-go/reshape/errcode"
)

// domainTraining is the domain of ONNX's training operators, ai.onnx.preview.training.
const domainTraining = "ai.onnx.preview.training"

// onnxTraining holds the rules of ai.onnx.preview.training's operators (version 1): the
// optimizers, whose new tensors have the shapes of the tensors they optimize, and Gradient.
var onnxTraining = table{domainTraining, []opDef{
	{"Adagrad", since(1), span(3, many), span(1, many), 0, optimizer},
	{"Momentum", since(1), span(3, many), span(1, many), 0, optimizer},
	{"Adam", since(1), span(3, many), span(1, many), 0, optimizer},
	{"Gradient", since(1), span(1, many), span(1, many), 0, gradient},
}}

// optimizer: Adagrad-1 (inputs R, T, X1..Xn, G1..Gn, H1..Hn; outputs X1_new..Xn_new,
// H1_new..Hn_new), Momentum-1 (R, T, X, G, V; X_new, V_new), Adam-1 (R, T, X, G, V, H; X_new,
// V_new, H_new), of ai.onnx.preview.training. The learning rate R and the update count T are
// scalars; each Xi's gradient and accumulated tensors have Xi's shape, which every output of Xi
// takes, with Xi's element type. Inputs that do not come in whole groups, or outputs other than one
// per new tensor, are an error wrapping errcode.ErrSyntax; shapes that differ, one wrapping
// errcode.ErrInvalidShape.
func optimizer(c *ctx) error {
	groups := map[string]int{"Adagrad": 3, "Momentum": 3, "Adam": 4}[c.n.Op]
	if (c.NumIn()-2)%groups != 0 || c.NumIn() < 2+groups {
		return c.Errorf(errcode.ErrSyntax, "%s has %d inputs: R, T and %d tensors for each tensor it optimizes", c.n.Op, c.NumIn(), groups)
	}
	n := (c.NumIn() - 2) / groups
	if c.NumOut() != n*(groups-1) {
		return c.Errorf(errcode.ErrSyntax, "%s optimizes %d tensors, and has %d outputs: want %d", c.n.Op, n, c.NumOut(), n*(groups-1))
	}
	ins, err := c.Inputs(c.NumIn())
	if err != nil {
		return err
	}
	for i := range 2 {
		if _, _, err := c.RequireRank(ins[i], i, 0, 0); err != nil {
			return err
		}
	}
	for k := range n {
		x := ins[2+k]
		for g := 1; g < groups; g++ {
			if err := sameShape(c, x.Shape, ins[2+g*n+k].Shape, "X"+itoa(k+1)+" and input "+itoa(2+g*n+k)); err != nil {
				return err
			}
		}
		for g := range groups - 1 {
			c.Out(g*n+k, x.Type, x.Shape)
		}
	}
	return nil
}

// gradient: Gradient-1 of ai.onnx.preview.training: output i, the gradient of the tensor the
// attribute y names with respect to the tensor xs[i] names, has the type and shape of input i, the
// value fed for xs[i]. The attributes xs and y are required; more outputs than xs names are an
// error wrapping errcode.ErrSyntax.
func gradient(c *ctx) error {
	xs, ok := c.n.Attr("xs")
	if !ok {
		return c.Errorf(errcode.ErrSyntax, "attribute xs is missing: Gradient takes it")
	}
	if _, ok := c.n.Attr("y"); !ok {
		return c.Errorf(errcode.ErrSyntax, "attribute y is missing: Gradient takes it")
	}
	if c.NumOut() > len(xs.Strings) {
		return c.Errorf(errcode.ErrSyntax, "Gradient has %d outputs, and xs names %d tensors", c.NumOut(), len(xs.Strings))
	}
	for i := range c.NumOut() {
		x, err := c.Input(i)
		if err != nil {
			return err
		}
		c.SameAs(i, x)
	}
	return nil
}
