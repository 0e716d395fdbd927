package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/sym"
)

// onnxOptional holds the rules of ONNX's optional values (Info.Optional): an optional of a
// tensor has that tensor's type and shape, one of a sequence that sequence's length and elements,
// and an empty one a type and shape inference does not know (the type attribute of Optional is a
// TypeProto, which FromONNX does not read).
var onnxOptional = table{"", []opDef{
	{"Optional", since(15), span(0, 1), fixed(1), 0, optional},
	{"OptionalHasElement", since(15), fixed(1), fixed(1), 0, optionalHasElement},
	{"OptionalHasElement", since(18), span(0, 1), fixed(1), 0, optionalHasElement},
	{"OptionalGetElement", since(15, 18), fixed(1), fixed(1), 0, optionalGetElement},
}}

// optional: Optional-15: an optional holding input 0 (a tensor, a sequence), with its type, shape
// and values, or an empty optional when the node has no input.
func optional(c *ctx) error {
	in := c.In(0)
	if in == nil {
		c.Set(0, &Info{Shape: sym.DynamicRank(), Optional: true})
		return nil
	}
	out := copyInfo(in)
	out.Optional = true
	c.Set(0, out)
	return nil
}

// optionalHasElement: OptionalHasElement-15 (an optional input), -18 (an optional or a tensor
// input, which may be left out): a boolean scalar, whether the input holds a value. Its value is
// known when the input is a tensor (true) or left out (false).
func optionalHasElement(c *ctx) error {
	in := c.In(0)
	out := c.Out(0, element.Boolean, sym.Shape{})
	switch {
	case in == nil:
		out.Value = []sym.Dim{sym.Const(0)}
	case !in.Optional && (in.Type != element.Undefined || !in.IsTensor()):
		out.Value = []sym.Dim{sym.Const(1)}
	}
	return nil
}

// optionalGetElement: OptionalGetElement-15 (an optional input), -18 (an optional, a tensor or a
// sequence): the value the input holds, of its type and shape (a sequence's length and elements).
func optionalGetElement(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	out := copyInfo(in)
	out.Optional = false
	c.Set(0, out)
	return nil
}
