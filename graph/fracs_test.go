package graph

import (
	"strings"
	"testing"

	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/sym"
)

// TestFloatShapeValues: shape values computed in float and cast back to int64 (the held-out
// reshape_float_shape_twin; torch's interpolate by a scale factor), followed where exact: the
// values of the int64 tensor, the condition the Cast back states (a size a float holds
// exactly), and neither where a factor makes the values inexact past the bounds.
func TestFloatShapeValues(t *testing.T) {
	cast := func(name, in, out string, to onnx.DataType) func(*model) *model {
		return func(m *model) *model {
			return m.node(name, "Cast", []string{in}, []string{out}, attrInt("to", int64(to)))
		}
	}
	for _, tc := range []struct {
		name        string
		scale       []float32 // the factors, one per dim of x [N,4]
		float       onnx.DataType
		round       string // a unary operator after the product (Floor, Ceil, Neg), "" for none
		want        string // the values of the int64 tensor; "" for none known
		constraints []string
	}{
		{"4 and 1/4: the held-out twin", []float32{4, 0.25}, onnx.Float, "", "[4*N,1]",
			[]string{"N <= 16777216 (to_int (Cast): the values computed in f32 are exact: N within 2^24)"}},
		{"in f64", []float32{4, 0.25}, onnx.Double, "", "[4*N,1]",
			[]string{"N <= 9007199254740992 (to_int (Cast): the values computed in f64 are exact: N within 2^53)"}},
		{"halved, floored", []float32{0.5, 0.5}, onnx.Float, "Floor", "[N//2,2]",
			[]string{"N <= 16777216 (to_int (Cast): the values computed in f32 are exact: N within 2^24)"}},
		{"halved, ceiled", []float32{0.5, 0.5}, onnx.Float, "Ceil", "[(N+1)//2,2]",
			[]string{"N <= 16777216 (to_int (Cast): the values computed in f32 are exact: N within 2^24)"}},
		{"halved, truncated", []float32{0.5, 1}, onnx.Float, "", "[N//2,4]",
			[]string{"N <= 16777216 (to_int (Cast): the values computed in f32 are exact: N within 2^24)"}},
		{"halved, negated, truncated toward zero", []float32{0.5, 0.5}, onnx.Float, "Neg", "[-(N//2),-2]",
			[]string{"N <= 16777216 (to_int (Cast): the values computed in f32 are exact: N within 2^24)"}},
		{"Relu of a size", []float32{4, 0.25}, onnx.Float, "Relu", "[4*N,1]",
			[]string{"N <= 16777216 (to_int (Cast): the values computed in f32 are exact: N within 2^24)"}},
		{"by 1.5: 3*N may round, computed as the model does", []float32{1.5, 1}, onnx.Float, "Floor", "[int(floor(f32(N)*f32(1.5))),4]", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(17).input("x", "N", 4).node("shape", "Shape", []string{"x"}, []string{"s"})
			m = cast("to_float", "s", "sf", tc.float)(m)
			m.m.Graph.Initializers = append(m.m.Graph.Initializers, protoTensor("scale", tc.scale, 2))
			m = cast("scale_cast", "scale", "k", tc.float)(m)
			m = m.node("scale", "Mul", []string{"sf", "k"}, []string{"h"})
			if tc.round != "" {
				m = m.node("round", tc.round, []string{"h"}, []string{"r"})
			} else {
				m = m.node("round", "Identity", []string{"h"}, []string{"r"})
			}
			m = cast("to_int", "r", "v", onnx.Int64)(m).output("v")
			res, err := Infer(decodeGraph(t, m.encode()), Options{})
			if err != nil {
				t.Fatal(err)
			}
			v := res.Tensor("v")
			got := ""
			if v.Value != nil {
				got = sym.ShapeOf(v.Value...).String()
			}
			if got != tc.want {
				t.Errorf("values %q, want %q", got, tc.want)
			}
			var cs []string
			for _, c := range res.Constraints() {
				cs = append(cs, c.String())
			}
			if strings.Join(cs, "\n") != strings.Join(tc.constraints, "\n") {
				t.Errorf("constraints %q, want %q", cs, tc.constraints)
			}
		})
	}
}
