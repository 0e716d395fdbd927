package graph

import (
	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// The one reading of a Reshape node's options, which its rule (reshapeOp, ovReshape) and
// Result.Reshape share.

// readONNXReshape reads an ONNX Reshape node (Reshape-1, -5, -13, -14, -19, -21) of an opset of
// the default domain (n.Version): its version and options through reshape.ONNXOptions (the dialect
// onnx, allowzero from Reshape-14 on), and Reshape-1's shape attribute, the pattern (nil from
// Reshape-5 on, which take it as input 1). The error wraps errcode.ErrSyntax for a node that lacks
// what its version requires (a data input and an output; the shape attribute of Reshape-1, input 1
// from Reshape-5 on) or has what it does not define (allowzero before Reshape-14, an allowzero
// other than 0 or 1, an attribute of the wrong type).
func readONNXReshape(n *Node) (opt reshape.Options, version int64, attr []int64, err error) {
	var az *int64
	if a, ok := n.Attr("allowzero"); ok {
		if a.Kind != AttrInt {
			return opt, 0, nil, errcode.Errorf(errcode.ErrSyntax, "attribute allowzero is %v, want INT", a.Kind)
		}
		az = &a.Int
	}
	opt, version, err = reshape.ONNXOptions(n.Version, az)
	switch {
	case len(n.Inputs) == 0 || n.Inputs[0] == "" || len(n.Outputs) == 0:
		return opt, version, nil, errcode.Errorf(errcode.ErrSyntax, "%d inputs and %d outputs", len(n.Inputs), len(n.Outputs))
	case err != nil:
		return opt, version, nil, err
	case version >= 5:
		if len(n.Inputs) < 2 || n.Inputs[1] == "" {
			return opt, version, nil, errcode.Errorf(errcode.ErrSyntax, "Reshape-%d takes the shape as input 1, and the node has none", version)
		}
		return opt, version, nil, nil
	}
	a, ok := n.Attr("shape")
	switch {
	case !ok:
		return opt, version, nil, errcode.Errorf(errcode.ErrSyntax, "Reshape-1 has no shape attribute")
	case a.Kind != AttrInts:
		return opt, version, nil, errcode.Errorf(errcode.ErrSyntax, "attribute shape is %v, want INTS", a.Kind)
	case a.Ints == nil:
		return opt, version, []int64{}, nil
	}
	return opt, version, a.Ints, nil
}

// readOVReshape reads an OpenVINO Reshape-1 layer's node: its options, the dialect openvino with
// the required special_zero (reshape.ParseSpecialZero). The error wraps errcode.ErrSyntax for a
// layer without two input ports and one output port, or without a special_zero it can read.
func readOVReshape(n *Node) (reshape.Options, error) {
	opt := reshape.Options{Dialect: reshape.OpenVINO}
	if len(n.Inputs) != 2 || len(n.Outputs) != 1 {
		return opt, errcode.Errorf(errcode.ErrSyntax, "%d input and %d output ports, want 2 and 1", len(n.Inputs), len(n.Outputs))
	}
	a, ok := n.Attr("special_zero")
	if !ok {
		return opt, errcode.Errorf(errcode.ErrSyntax, "<data> has no special_zero attribute (required by Reshape-1)")
	}
	text := a.Text
	if a.Kind == AttrString {
		text = a.String
	}
	sz, err := reshape.ParseSpecialZero(text)
	opt.SpecialZero = sz
	return opt, err
}

// The condition of the Reshapes of ONNX (Reshape) and OpenVINO (Reshape-1), beside what package
// reshape infers: the volume of the input is that of the output.

// requireVolume requires what a Reshape of in to out, by a pattern of values v, needs of the
// symbols (volumeCond). The error wraps errcode.ErrInvalidShape when the condition can never hold.
func requireVolume(c *ctx, in, out sym.Shape, v []sym.Dim) error {
	p, why, ok := volumeCond(in, out, v)
	if !ok || why == "" {
		return nil
	}
	return c.Require(p, why)
}

// volumeCond returns what a Reshape of in to out, by a pattern of values v, needs of the symbols,
// and why: without a -1, equal volumes (a Reshape of [N,3,4] to [1,12] needs 12*N == 12, which is
// N == 1); with one at pattern[m], an exact quotient, the input volume a multiple of the product of
// the other output dims ([T] to [-1,4] needs T % 4 == 0). ok is false, and p true, when there is
// nothing to state: dims known only by their bounds leave the condition to a run, but for one of
// both sides that cancels (r3_0202's [N,4,a,(H+1)//2,(W+11)//24] to [N,4,a,(H+1)//2,3,-1], a lost
// at a MaxPool, needs (W+11)//24 % 3 == 0). Integers alone, which package reshape checks, give true
// or false and no why. Equal dims of both sides cancel first (those at least 1), and integers
// multiply apart, so that the common Reshapes of a model ([B,T,64] to [B,T,4,16]) build no
// expression.
func volumeCond(in, out sym.Shape, v []sym.Dim) (p sym.Pred, why string, ok bool) {
	if in.RankDynamic || out.RankDynamic || v == nil {
		return sym.True(), "", false
	}
	minus := -1
	for i, d := range v {
		if n, ok := d.Static(); ok && n == -1 {
			minus = i
		}
	}
	used := make([]bool, len(out.Dims))
	var wx, rx []sym.Dim // the symbolic dims of each side that do not cancel
	ws, rs := int64(1), int64(1)
	for _, d := range in.Dims {
		if n, ok := d.Static(); ok {
			if ws, ok = shape.Mul(ws, n); !ok {
				return sym.True(), "", false
			}
			continue
		}
		j := -1
		for k, e := range out.Dims {
			// A dim that may be 0 does not cancel: both volumes are then 0.
			if lo, _ := d.Bounds(); lo >= 1 && k != minus && !used[k] && e.Equal(d) {
				j = k
				break
			}
		}
		switch {
		case j >= 0: // one dim of both sides, determined or not
			used[j] = true
			continue
		case !d.Determined():
			return sym.True(), "", false
		}
		wx = append(wx, d)
	}
	for k, d := range out.Dims {
		if k == minus || used[k] {
			continue
		}
		if n, ok := d.Static(); ok {
			if rs, ok = shape.Mul(rs, n); !ok {
				return sym.True(), "", false
			}
			continue
		}
		if !d.Determined() {
			return sym.True(), "", false
		}
		rx = append(rx, d)
	}
	switch {
	case len(wx) == 0 && len(rx) == 0 && minus < 0:
		return pred(ws == rs), "", true
	case len(wx) == 0 && len(rx) == 0:
		return pred(rs != 0 && ws%rs == 0), "", true
	case minus >= 0 && len(rx) == 0 && rs != 0 && ws%rs == 0:
		return sym.True(), "", true
	}
	w, ok1 := sym.MulDims(sym.Const(ws), product(wx)).Expr()
	r, ok2 := sym.MulDims(sym.Const(rs), product(rx)).Expr()
	if !ok1 || !ok2 {
		return sym.True(), "", false
	}
	if minus < 0 {
		// Factor by factor, where each symbol's dims on the two sides compare (sym.EqProducts).
		p, ok := sym.EqProducts(factors(ws, wx), factors(rs, rx))
		if !ok {
			p = sym.Eq(w, r)
		}
		return p, "the volume: " + in.String() + " to " + out.String(), true
	}
	p, ok = sym.DivisibleProducts(factors(ws, wx), factors(rs, rx))
	return p, "the -1 of pattern[" + itoa(minus) + "]: the input's volume a multiple of the other output dims", ok
}

// factors returns the integer n and the expressions of the dims ds, each of which has one.
func factors(n int64, ds []sym.Dim) []sym.Expr {
	out := []sym.Expr{sym.Int(n)}
	for _, d := range ds {
		e, _ := d.Expr()
		out = append(out, e)
	}
	return out
}

// pred returns true or false as a predicate.
func pred(b bool) sym.Pred {
	if b {
		return sym.True()
	}
	return sym.False()
}
