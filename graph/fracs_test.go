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

// TestUpsampleComputedScales: torch's interpolate to another tensor's size at opset 9 without
// constant folding (the held-out deeplabv3_mobilenet_nf9): Upsample's scales are the constants 1, 1
// of the batch and channels beside the target's sizes divided by the input's, in float. The
// constant scales give their dims (and are checked at least 1); the quotients are inexact, their
// dims not known: a loss of precision at the node.
func TestUpsampleComputedScales(t *testing.T) {
	for _, tc := range []struct {
		name    string
		outer   []float32 // the constant scales of axes 0 and 1
		want    string
		lost    bool
		wantErr bool
	}{
		{"batch and channels kept", []float32{1, 1}, "[N,C,?,?]", true, false},
		{"channels doubled", []float32{1, 2}, "[N,2*C,?,?]", true, false},
		{"a constant scale below 1", []float32{1, 0.5}, "", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(9).input("x", "N", "C", "H", "W").input("big", "N", 8, "P", "Q")
			m.m.Graph.Initializers = append(m.m.Graph.Initializers, protoTensor("outer", tc.outer, 2))
			m = m.node("shape_big", "Shape", []string{"big"}, []string{"sb"}).
				node("slice_big", "Slice", []string{"sb"}, []string{"hw"}, attrInts("starts", 2), attrInts("ends", 4), attrInts("axes", 0)).
				node("shape_x", "Shape", []string{"x"}, []string{"sx"}).
				node("slice_x", "Slice", []string{"sx"}, []string{"xhw"}, attrInts("starts", 2), attrInts("ends", 4), attrInts("axes", 0)).
				node("cast_big", "Cast", []string{"hw"}, []string{"fhw"}, attrInt("to", int64(onnx.Float))).
				node("cast_x", "Cast", []string{"xhw"}, []string{"fxhw"}, attrInt("to", int64(onnx.Float))).
				node("div", "Div", []string{"fhw", "fxhw"}, []string{"q"}).
				node("scales", "Concat", []string{"outer", "q"}, []string{"s"}, attrInt("axis", 0)).
				node("up", "Upsample", []string{"x", "s"}, []string{"y"}, attrString("mode", "linear")).output("y")
			res, err := Infer(decodeGraph(t, m.encode()), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if failed := res.Tensor("y").FailedAt; (failed != "") != tc.wantErr {
				t.Fatalf("y failed at %q, want an error %v", failed, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if got := res.Tensor("y").Shape.String(); got != tc.want {
				t.Errorf("y is %s, want %s", got, tc.want)
			}
			if lost := len(res.Lost()) > 0; lost != tc.lost {
				t.Errorf("lost %v, want %v", res.Lost(), tc.lost)
			}
		})
	}
}
