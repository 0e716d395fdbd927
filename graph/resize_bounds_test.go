package graph

import (
	"strings"
	"testing"

	"github.com/reshape-go/reshape/onnx"
)

// TestResizedSizeCast infers torchvision's detection transform (GeneralizedRCNNTransform) as its
// ONNX export computes the size it resizes H to, s1 = int(floor(f32(H)·min(f32(1)/f32(min(H,W))·
// f32(short), f32(1)/f32(max(H,W))·f32(long)))), then (s1+31)//32 cast to int32, as the anchor
// generator of fasterrcnn_mobilenet_v3_large_320_fpn does. s1 is at most long whatever H and W,
// so the Cast needs nothing; with the short side's scale alone, s1 has no bound, and the Cast
// states one.
func TestResizedSizeCast(t *testing.T) {
	for _, tc := range []struct {
		name        string
		short, long float32
		minOnly     bool   // the scale is f32(1)/f32(min(H,W))·f32(short) alone
		hi          int64  // the greatest value of (s1+31)//32
		constraints string // the conditions and limits, one a line
	}{
		{name: "fasterrcnn 320, 640", short: 320, long: 640, hi: 20},
		{name: "retinanet 800, 1333", short: 800, long: 1333, hi: 42},
		{name: "the short side alone", short: 320, minOnly: true, hi: -1,
			constraints: "int(floor(f32(H)*(f32(1)/f32(min(H,W))*f32(320)))) <= 68719476704 (to_i32 (Cast): the value (int(floor(f32(H)*(f32(1)/f32(min(H,W))*f32(320))))+31)//32 converted to i32 within its range)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := func(name string, v float32) onnx.Tensor { return protoTensor(name, []float32{v}) }
			m := newModel(17).input("x", 3, "H", "W").
				ints("starts", nil, 1).ints("ends", nil, 3).ints("one", nil, 1).ints("c31", nil, 31).ints("c32", nil, 32)
			m.m.Graph.Initializers = append(m.m.Graph.Initializers, f("c1", 1), f("short", tc.short), f("long", tc.long))
			m = m.node("shape", "Shape", []string{"x"}, []string{"s"}).
				node("hw", "Slice", []string{"s", "starts", "ends"}, []string{"hw"}).
				node("min", "ReduceMin", []string{"hw"}, []string{"mn"}, attrInt("keepdims", 0)).
				node("max", "ReduceMax", []string{"hw"}, []string{"mx"}, attrInt("keepdims", 0)).
				node("mnf", "Cast", []string{"mn"}, []string{"mnf"}, attrInt("to", int64(onnx.Float))).
				node("mxf", "Cast", []string{"mx"}, []string{"mxf"}, attrInt("to", int64(onnx.Float))).
				node("rmn", "Div", []string{"c1", "mnf"}, []string{"rmn"}).
				node("rmx", "Div", []string{"c1", "mxf"}, []string{"rmx"}).
				node("a", "Mul", []string{"rmn", "short"}, []string{"a"}).
				node("b", "Mul", []string{"rmx", "long"}, []string{"b"})
			if tc.minOnly {
				m = m.node("scale", "Identity", []string{"a"}, []string{"scale"})
			} else {
				m = m.node("scale", "Min", []string{"a", "b"}, []string{"scale"})
			}
			m = m.node("h", "Gather", []string{"s", "one"}, []string{"h"}).
				node("hf", "Cast", []string{"h"}, []string{"hf"}, attrInt("to", int64(onnx.Float))).
				node("hs", "Mul", []string{"hf", "scale"}, []string{"hs"}).
				node("floor", "Floor", []string{"hs"}, []string{"hfl"}).
				node("s1", "Cast", []string{"hfl"}, []string{"s1"}, attrInt("to", int64(onnx.Int64))).
				node("add", "Add", []string{"s1", "c31"}, []string{"p"}).
				node("div", "Div", []string{"p", "c32"}, []string{"q"}).
				node("to_i32", "Cast", []string{"q"}, []string{"v"}, attrInt("to", int64(onnx.Int32))).
				output("v")
			res, err := Infer(decodeGraph(t, m.encode()), Options{})
			if err != nil {
				t.Fatal(err)
			}
			v := res.Tensor("v").Value
			if len(v) != 1 {
				t.Fatalf("values of v: %v, want one", v)
			}
			if lo, hi := v[0].Bounds(); lo != 0 || tc.hi >= 0 && hi != tc.hi {
				t.Errorf("%s within [%d, %d], want [0, %d]", v[0], lo, hi, tc.hi)
			}
			var cs []string
			for _, c := range append(res.Constraints(), res.Limits()...) {
				cs = append(cs, c.String())
			}
			if got := strings.Join(cs, "\n"); got != tc.constraints {
				t.Errorf("conditions:\n%s\nwant:\n%s", got, tc.constraints)
			}
		})
	}
}
