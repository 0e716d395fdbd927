package graph

import (
	"slices"
	"strings"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxMatMul holds the rules of ONNX's matrix products (MatMul, Gemm, Einsum and their integer
// and quantized forms) and of the quantization operators.
var onnxMatMul = table{"", []opDef{
	{"MatMul", since(1, 9, 13), fixed(2), fixed(1), 0, matMul},
	{"MatMulInteger", since(10), span(2, 4), fixed(1), 0, matMulInteger},
	{"QLinearMatMul", since(10, 21), fixed(8), fixed(1), 0, qlinearMatMul},
	{"Gemm", since(1, 6, 7, 9), fixed(3), fixed(1), 0, gemm},
	{"Gemm", since(11, 13), span(2, 3), fixed(1), 0, gemm},
	{"Einsum", since(12), span(1, many), fixed(1), 0, einsum},
	{"QuantizeLinear", since(10, 13, 19, 21), span(2, 3), fixed(1), 0, quantizeLinear},
	{"DequantizeLinear", since(10, 13, 19, 21), span(2, 3), fixed(1), 0, dequantizeLinear},
	{"DynamicQuantizeLinear", since(11), fixed(1), fixed(3), 0, dynamicQuantizeLinear},
}}

// matMul: MatMul-1, -9, -13: numpy's matmul. A 1-D operand is a row (A) or a column (B) whose
// added dim the output drops; the inner dims unify; the batch dims (all but the last two)
// broadcast.
func matMul(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	return matMulOp(c, ins[0], ins[1], ins[0].Type)
}

// matMulInteger: MatMulInteger-10: MatMul of integers (inputs A, B, a_zero_point, b_zero_point),
// an int32 output.
func matMulInteger(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	return matMulOp(c, ins[0], ins[1], element.I32)
}

// qlinearMatMul: QLinearMatMul-10, -21: MatMul of quantized tensors (a, a_scale, a_zero_point, b,
// b_scale, b_zero_point, y_scale, y_zero_point), an output of y_zero_point's type.
func qlinearMatMul(c *ctx) error {
	ins, err := c.Inputs(8)
	if err != nil {
		return err
	}
	return matMulOp(c, ins[0], ins[3], ins[7].Type)
}

// matMulOp sets output 0 to the matmul of a and b, of type t; a dynamic rank when either rank is
// not known.
func matMulOp(c *ctx, a, b *Info, t element.Type) error {
	dims, ok, err := matMulDims(c, a, b, false, false)
	if err != nil {
		return err
	}
	s := sym.DynamicRank()
	if ok {
		s = sym.ShapeOf(dims...)
	}
	c.Out(0, t, s)
	return nil
}

// gemm: Gemm-1, -6 (broadcast attribute), -7, -9, -11 (C optional), -13: A [M, K] (transA: [K, M])
// times B [K, N] (transB: [N, K]) gives [M, N]; the Ks unify; C broadcasts to [M, N]
// unidirectionally (before -7 only with broadcast=1: it is [M, N] otherwise).
func gemm(c *ctx) error { return gemmOf(c, c.Version(), [3]int{0, 1, 2}, element.Undefined) }

// gemmOf infers a Gemm as the default domain's version v gives it, of A, B and C at the inputs
// at, and an output of type t (element.Undefined: A's).
func gemmOf(c *ctx, v int64, at [3]int, t element.Type) error {
	var ins [2]*Info
	for i := range ins {
		in, err := c.Input(at[i])
		if err != nil {
			return err
		}
		ins[i] = in
	}
	if v < 11 {
		if _, err := c.Input(at[2]); err != nil {
			return err
		}
	}
	var err error
	var mk [2][2]sym.Dim
	for i, in := range ins {
		_, ok, err := c.RequireRank(in, at[i], 2, 2)
		if err != nil {
			return err
		}
		mk[i] = [2]sym.Dim{sym.Unknown(), sym.Unknown()}
		if ok {
			mk[i] = [2]sym.Dim{in.Shape.Dims[0], in.Shape.Dims[1]}
		}
		trans, err := c.Int([]string{"transA", "transB"}[i], 0)
		if err != nil {
			return err
		}
		if trans != 0 {
			mk[i][0], mk[i][1] = mk[i][1], mk[i][0]
		}
	}
	if _, err := c.Unify(mk[0][1], mk[1][0], "the inner dims K of A and B"); err != nil {
		return err
	}
	out := []sym.Dim{mk[0][0], mk[1][1]}
	if cc := c.In(at[2]); cc != nil && !cc.Shape.RankDynamic {
		bcast := int64(1)
		if v < 7 {
			if bcast, err = c.Int("broadcast", 0); err != nil {
				return err
			}
		}
		if err := unidirectional(c, cc.Shape, out, at[2], bcast != 0); err != nil {
			return err
		}
	}
	if t == element.Undefined {
		t = ins[0].Type
	}
	c.Out(0, t, sym.ShapeOf(out...))
	return nil
}

// einsum: Einsum-12: the output of the equation "term1,term2,...->out" (or, with no "->", the
// ellipsis dims followed by the letters that occur once, in ASCII order). A letter repeated within
// a term (a diagonal) takes equal dims, which unify; a letter of several terms broadcasts across
// them, as onnxruntime does. The ellipses of all terms stand for the same number of dims (as ONNX's
// shape inference and onnxruntime require), which broadcast; an explicit output term keeps them
// with an ellipsis of its own.
func einsum(c *ctx) error { return einsumOf(c, true) }

// einsumOf infers an Einsum of the equation attribute as einsum does; the ellipses of the terms
// stand for the same number of dims when sameEllipsis is set (ONNX's), and broadcast aligned at
// the end otherwise (OpenVINO's).
func einsumOf(c *ctx, sameEllipsis bool) error {
	eq, err := c.String("equation", "")
	if err != nil {
		return err
	}
	if _, ok := c.n.Attr("equation"); !ok {
		return c.Errorf(errcode.ErrSyntax, "attribute equation is missing: Einsum takes it")
	}
	ins, err := c.Inputs(c.NumIn())
	if err != nil {
		return err
	}
	eq = strings.ReplaceAll(eq, " ", "")
	lhs, rhs, explicit := strings.Cut(eq, "->")
	terms := strings.Split(lhs, ",")
	if len(terms) != len(ins) {
		return c.Errorf(errcode.ErrInvalidShape, "equation %q has %d terms for %d inputs", eq, len(terms), len(ins))
	}
	var letters [128]sym.Dim
	var seen, count [128]int // the last term (from 1) of known rank that has the label; its occurrences
	var ellipses []sym.Shape
	unknownEllipsis := false
	for k, term := range terms {
		labels, ell, err := einsumTerm(c, term)
		if err != nil {
			return err
		}
		for _, l := range labels {
			count[l]++
		}
		r, ok := ins[k].Rank()
		if !ok {
			unknownEllipsis = unknownEllipsis || ell >= 0
			continue
		}
		nell := r - len(labels)
		if nell < 0 || ell < 0 && nell != 0 {
			return c.Errorf(errcode.ErrInvalidShape, "term %d %q does not fit input %d of rank %d", k, term, k, r)
		}
		dims := ins[k].Shape.Dims
		if ell >= 0 {
			if sameEllipsis && len(ellipses) > 0 && len(ellipses[0].Dims) != nell {
				return c.Errorf(errcode.ErrInvalidShape, "the ellipsis of term %d %q stands for %d dims, that of an earlier term for %d", k, term, nell, len(ellipses[0].Dims))
			}
			ellipses = append(ellipses, sym.ShapeOf(dims[ell:ell+nell]...))
			dims = slices.Concat(dims[:ell], dims[ell+nell:])
		}
		for j, l := range labels {
			d := dims[j]
			switch {
			case seen[l] == k+1: // a diagonal
				if d, err = c.Unify(letters[l], d, "input "+itoa(k)+" label "+string(rune(l))); err != nil {
					return err
				}
			case seen[l] > 0:
				if d, err = c.broadcastDim(letters[l], d, bplace{k: k, label: rune(l)}); err != nil {
					return c.Errorf(errcode.ErrInvalidShape, "label %c: dim %v of input %d does not broadcast with %v", l, dims[j], k, letters[l])
				}
			}
			letters[l], seen[l] = d, k+1
		}
	}
	ellipsis, err := c.Broadcast(ellipses...)
	if err != nil {
		return err
	}
	if unknownEllipsis {
		ellipsis = sym.DynamicRank()
	}
	var out []sym.Dim
	if !explicit {
		out = ellipsis.Dims
		for l := range count {
			if count[l] == 1 {
				out = append(out, einsumDim(letters[l], seen[l]))
			}
		}
	} else {
		labels, ell, err := einsumTerm(c, rhs)
		if err != nil {
			return err
		}
		if ell < 0 && len(ellipsis.Dims) > 0 {
			return c.Errorf(errcode.ErrInvalidShape, "the inputs' ellipses stand for %d dims, and the output term %q has no ellipsis", len(ellipsis.Dims), rhs)
		}
		for j, l := range labels {
			if count[l] == 0 {
				return c.Errorf(errcode.ErrInvalidShape, "output label %c is in no input term", l)
			}
			if slices.Index(labels, l) != j {
				return c.Errorf(errcode.ErrInvalidShape, "output label %c appears twice", l)
			}
			if j == ell {
				out = append(out, ellipsis.Dims...)
			}
			out = append(out, einsumDim(letters[l], seen[l]))
		}
		if ell == len(labels) {
			out = append(out, ellipsis.Dims...)
		}
	}
	if ellipsis.RankDynamic && (!explicit || strings.Contains(rhs, "...")) {
		c.Out(0, ins[0].Type, sym.DynamicRank())
		return nil
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(out...))
	return nil
}

// einsumDim returns a label's dim, unknown when no input of known rank has it.
func einsumDim(d sym.Dim, seen int) sym.Dim {
	if seen == 0 {
		return sym.Unknown()
	}
	return d
}

// einsumTerm parses a term of an Einsum equation: its letters, and the index among them at which
// its ellipsis stands (-1: none). Other characters are an error wrapping errcode.ErrSyntax.
func einsumTerm(c *ctx, term string) (labels []byte, ell int, err error) {
	ell = -1
	for i := 0; i < len(term); i++ {
		switch ch := term[i]; {
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z':
			labels = append(labels, ch)
		case strings.HasPrefix(term[i:], "...") && ell < 0:
			ell = len(labels)
			i += 2
		default:
			return nil, 0, c.Errorf(errcode.ErrSyntax, "equation term %q: %q at %d is not a letter or an ellipsis", term, ch, i)
		}
	}
	return labels, ell, nil
}

// quantizeLinear: QuantizeLinear-10, -13 (axis), -19, -21 (output_dtype, block_size), -23, -24,
// -25: y has x's shape, and the type output_dtype names, else y_zero_point's, else uint8.
func quantizeLinear(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	t := element.U8
	if zp := c.In(2); zp != nil {
		t = zp.Type
	}
	if t, err = outputDType(c, t); err != nil {
		return err
	}
	c.Out(0, t, ins[0].Shape)
	return nil
}

// dequantizeLinear: DequantizeLinear-10, -13 (axis), -19, -21 (block_size), -23, -24, -25
// (output_dtype): y has x's shape, and the type output_dtype names, else x_scale's.
func dequantizeLinear(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	t, err := outputDType(c, ins[1].Type)
	if err != nil {
		return err
	}
	c.Out(0, t, ins[0].Shape)
	return nil
}

// outputDType returns the type the output_dtype attribute names, def when the node has none (or 0).
func outputDType(c *ctx, def element.Type) (element.Type, error) {
	dt, err := c.Int("output_dtype", 0)
	if err != nil || dt == 0 {
		return def, err
	}
	return elemTypeOf(dt), nil
}

// dynamicQuantizeLinear: DynamicQuantizeLinear-11: y is uint8 of x's shape; y_scale (float) and
// y_zero_point (uint8) are scalars.
func dynamicQuantizeLinear(c *ctx) error {
	ins, err := c.Inputs(1)
	if err != nil {
		return err
	}
	c.Out(0, element.U8, ins[0].Shape)
	c.Out(1, element.F32, sym.Shape{})
	c.Out(2, element.U8, sym.Shape{})
	return nil
}
