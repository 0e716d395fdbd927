package graph

import (
	"slices"
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
			[]string{"limit N <= 9007199254740992 (to_int (Cast): the values computed in f64 are exact: N within 2^53)"}},
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
			for _, c := range res.Limits() {
				cs = append(cs, "limit "+c.String())
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
// constant scales give their dims (and are checked at least 1); a quotient gives the product as
// onnxruntime computes it in float32, trunc(f32(P)/f32(H)*f32(H)), and P itself where the input's
// size is P's rounded up after strides of 2 (deeplab's (H+15)//16), within 2^24.
func TestUpsampleComputedScales(t *testing.T) {
	for _, tc := range []struct {
		name        string
		outer       []float32 // the constant scales of axes 0 and 1
		input       string    // how x is made from big: "" for a graph input [N,C,H,W]
		want        string
		constraints []string
		at          map[string]int64 // a binding, and y's dims there (onnxruntime-node 1.20.1)
		dims        []int64
		refused     map[string]int64 // a binding onnxruntime refuses: a scale below 1
		past        map[string]int64 // a binding past the stated conditions: Eval refuses it
		pastDims    []int64          // y's dims inferred bound to past (onnxruntime-node 1.20.1)
		wantErr     bool
	}{
		{name: "batch and channels kept", outer: []float32{1, 1},
			want: "[N,C,int(f32(P)/f32(H)*f32(H)),int(f32(Q)/f32(W)*f32(W))]",
			constraints: []string{"int(f32(P)/f32(H)) >= 1 (up (Upsample): onnxruntime's Upsample: scales[2] at least 1)",
				"int(f32(Q)/f32(W)) >= 1 (up (Upsample): onnxruntime's Upsample: scales[3] at least 1)"},
			at: map[string]int64{"N": 1, "C": 1, "H": 11, "W": 7, "P": 13, "Q": 31}, dims: []int64{1, 1, 12, 30},
			refused: map[string]int64{"N": 1, "C": 1, "H": 11, "W": 7, "P": 5, "Q": 31}},
		{name: "channels doubled", outer: []float32{1, 2}, want: "[N,2*C,int(f32(P)/f32(H)*f32(H)),int(f32(Q)/f32(W)*f32(W))]",
			constraints: []string{"int(f32(P)/f32(H)) >= 1 (up (Upsample): onnxruntime's Upsample: scales[2] at least 1)",
				"int(f32(Q)/f32(W)) >= 1 (up (Upsample): onnxruntime's Upsample: scales[3] at least 1)"}},
		{name: "a constant scale below 1", outer: []float32{1, 0.5}, wantErr: true},
		// x is a 1x1 Conv of big with strides 16 and 4: [N,8,(P+15)//16,(Q+3)//4].
		{name: "back from strides", outer: []float32{1, 1}, input: "strided", want: "[N,8,P,Q]",
			constraints: []string{"P <= 16777216 (up (Upsample): the values computed in f32 are exact: P within 2^24)",
				"Q <= 16777216 (up (Upsample): the values computed in f32 are exact: Q within 2^24)"},
			at: map[string]int64{"N": 1, "P": 53, "Q": 117}, dims: []int64{1, 8, 53, 117},
			// Past 2^24 the product is not P: onnxruntime gives 16777216 at 16777217 and 16777220
			// at 16777219, so the condition is needed where P is odd.
			past: map[string]int64{"N": 1, "P": 16777217, "Q": 1}, pastDims: []int64{1, 8, 16777216, 1}},
		{name: "back from strides, past 2^24", outer: []float32{1, 1}, input: "strided", want: "[N,8,P,Q]",
			constraints: []string{"P <= 16777216 (up (Upsample): the values computed in f32 are exact: P within 2^24)",
				"Q <= 16777216 (up (Upsample): the values computed in f32 are exact: Q within 2^24)"},
			past: map[string]int64{"N": 1, "P": 16777219, "Q": 1}, pastDims: []int64{1, 8, 16777220, 1}},
		// x = MaxPool 2x2 of big: [N,8,P//2,Q//2], rounded down: at P = 53 and Q = 155 the float32
		// products are 52.999996 and 153.99998, and onnxruntime gives 52 and 154.
		{name: "back from a pool", outer: []float32{1, 1}, input: "pool",
			want: "[N,8,int(f32(P)/f32(P//2)*f32(P//2)),int(f32(Q)/f32(Q//2)*f32(Q//2))]",
			at:   map[string]int64{"N": 1, "P": 53, "Q": 155}, dims: []int64{1, 8, 52, 154}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(9).input("big", "N", 8, "P", "Q")
			switch tc.input {
			case "":
				m = m.input("x", "N", "C", "H", "W")
			case "strided":
				m = m.node("conv", "Conv", []string{"big", "w"}, []string{"x"}, attrInts("strides", 16, 4))
				m.m.Graph.Initializers = append(m.m.Graph.Initializers, floatTensor("w", 8, 8, 1, 1))
			case "pool":
				m = m.node("pool", "MaxPool", []string{"big"}, []string{"x"}, attrInts("kernel_shape", 2, 2), attrInts("strides", 2, 2))
			}
			m.m.Graph.Initializers = append(m.m.Graph.Initializers, protoTensor("outer", tc.outer, 2))
			m = m.node("shape_big", "Shape", []string{"big"}, []string{"sb"}).
				node("slice_big", "Slice", []string{"sb"}, []string{"hw"}, attrInts("starts", 2), attrInts("ends", 4), attrInts("axes", 0)).
				node("shape_x", "Shape", []string{"x"}, []string{"sx"}).
				node("slice_x", "Slice", []string{"sx"}, []string{"xhw"}, attrInts("starts", 2), attrInts("ends", 4), attrInts("axes", 0)).
				node("cast_big", "Cast", []string{"hw"}, []string{"fhw"}, attrInt("to", int64(onnx.Float))).
				node("cast_x", "Cast", []string{"xhw"}, []string{"fxhw"}, attrInt("to", int64(onnx.Float))).
				node("div", "Div", []string{"fhw", "fxhw"}, []string{"q"}).
				node("scales", "Concat", []string{"outer", "q"}, []string{"s"}, attrInt("axis", 0)).
				node("up", "Upsample", []string{"x", "s"}, []string{"y"}, attrString("mode", "nearest")).output("y")
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
			if !res.Complete() {
				t.Errorf("lost %v", res.Lost())
			}
			var cs []string
			for _, c := range res.Constraints() {
				cs = append(cs, c.String())
			}
			for _, c := range res.Limits() {
				cs = append(cs, "limit "+c.String())
			}
			if strings.Join(cs, "\n") != strings.Join(tc.constraints, "\n") {
				t.Errorf("constraints:\n%s\nwant\n%s", strings.Join(cs, "\n"), strings.Join(tc.constraints, "\n"))
			}
			if tc.at != nil {
				if got, err := res.Eval("y", tc.at); err != nil || !slices.Equal(got, tc.dims) {
					t.Errorf("y at %v: %v, %v; want %v", tc.at, got, err, tc.dims)
				}
			}
			for _, b := range []map[string]int64{tc.refused, tc.past} {
				if got, err := res.Eval("y", b); b != nil && err == nil {
					t.Errorf("y at %v: %v, want the binding refused", b, got)
				}
			}
			if tc.past != nil {
				bound, err := Infer(decodeGraph(t, m.encode()), Options{Dims: tc.past})
				if err != nil {
					t.Fatal(err)
				}
				if got, ok := bound.Tensor("y").Shape.Static(); !ok || !slices.Equal(got, tc.pastDims) {
					t.Errorf("y bound to %v: %v, want %v", tc.past, bound.Tensor("y").Shape, tc.pastDims)
				}
			}
		})
	}
}
