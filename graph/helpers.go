package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/sym"
)

// NormAxis returns axis counted from the front of rank dims: an axis in [-rank, rank-1], negative
// ones counting from the end. Other axes are an error wrapping errcode.ErrInvalidShape.
func (c *Ctx) NormAxis(axis int64, rank int) (int, error) {
	r := int64(rank)
	if axis < -r || axis >= r {
		return 0, c.Errorf(errcode.ErrInvalidShape, "axis %d is out of range for rank %d", axis, rank)
	}
	if axis < 0 {
		axis += r
	}
	return int(axis), nil
}

// NormAxes normalizes a list of axes as NormAxis and refuses repeats.
func (c *Ctx) NormAxes(axes []int64, rank int) ([]int, error) {
	out := make([]int, len(axes))
	seen := make([]bool, rank)
	for i, a := range axes {
		n, err := c.NormAxis(a, rank)
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, c.Errorf(errcode.ErrInvalidShape, "axis %d appears twice in %v", a, axes)
		}
		seen[n] = true
		out[i] = n
	}
	return out, nil
}

// IntsArg returns an integer list that is an attribute before opset version since and input i from
// it on (ONNX's axes, splits, pads, repeats): given is false when the node has neither; known is
// false when the input's values are not known before run time.
func (c *Ctx) IntsArg(attr string, i int, since int64) (v []int64, given, known bool, err error) {
	if c.Version() < since {
		v, given, err = c.Ints(attr)
		return v, given, given, err
	}
	in := c.In(i)
	if in == nil {
		return nil, false, false, nil
	}
	v, known = in.Ints()
	return v, true, known, nil
}

// RequireRank returns the rank of in, or ok false when it is dynamic; a rank outside [min, max]
// (max < 0: no bound) is an error wrapping errcode.ErrInvalidShape naming the input.
func (c *Ctx) RequireRank(in *Info, input, min, max int) (rank int, ok bool, err error) {
	r, ok := in.Rank()
	if !ok {
		return 0, false, nil
	}
	if r < min || max >= 0 && r > max {
		if min == max {
			return r, true, c.Errorf(errcode.ErrInvalidShape, "input %d has rank %d, want %d", input, r, min)
		}
		return r, true, c.Errorf(errcode.ErrInvalidShape, "input %d has rank %d, want %d to %d", input, r, min, max)
	}
	return r, true, nil
}

// SameAs sets output i to a tensor of the type and shape of in: the element-wise operators of one
// input, normalizations, activations.
func (c *Ctx) SameAs(i int, in *Info) *Info { return c.Out(i, in.Type, in.Shape) }

// product returns the product of dims.
func product(dims []sym.Dim) sym.Dim {
	p := sym.Const(1)
	for _, d := range dims {
		p = sym.MulDims(p, d)
	}
	return p
}

// elemTypeOf returns the element type an ONNX data type number names (the "to" of Cast),
// element.Undefined for one without (STRING, COMPLEX64).
func elemTypeOf(onnxType int64) element.Type {
	t, _ := onnx.DataType(onnxType).ElementType()
	return t
}

// values returns the Value of a tensor of static shape, with the shape; ok is false when either is
// unknown.
func values(in *Info) (dims []int64, v []sym.Dim, ok bool) {
	if in == nil || in.Value == nil {
		return nil, nil, false
	}
	dims, ok = in.Shape.Static()
	return dims, in.Value, ok
}

// setValue attaches v to info when info's shape is static and holds len(v) elements, at most
// MaxValue.
func setValue(info *Info, v []sym.Dim) {
	if v == nil || len(v) > MaxValue {
		return
	}
	if n, ok := info.Volume(); ok && n == int64(len(v)) {
		info.Value = v
	}
}
