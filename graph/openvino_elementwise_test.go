package graph_test

import (
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
)

func TestOVElementwiseLayers(t *testing.T) {
	checkOV(t, []ovCase{
		{name: "bitwise and", op: "BitwiseAnd", version: 13, ins: []ovIn{ovParam("[N,1,3]"), ovParam("[4,1]")}, want: []string{"[N,4,3]"}},
		{name: "bitwise or none", op: "BitwiseOr", version: 13, attrs: "auto_broadcast=none", ins: []ovIn{ovParam("[N,3]"), ovParam("[2,3]")},
			want: []string{"[2,3]"}},
		{name: "bitwise xor mismatch", op: "BitwiseXor", version: 13, ins: []ovIn{ovParam("[2,3]"), ovParam("[4,3]")}, wantErr: errcode.ErrInvalidShape},
		{name: "bitwise not", op: "BitwiseNot", version: 13, ins: []ovIn{ovParam("[N,3]")}, want: []string{"[N,3]"}},
		{name: "left shift", op: "BitwiseLeftShift", version: 15, ins: []ovIn{ovParam("[N,3]"), ovParam("[]")}, want: []string{"[N,3]"}},
		{name: "bitwise before opset 13", op: "BitwiseAnd", version: 12, ins: []ovIn{ovParam("[2]"), ovParam("[2]")}, wantErr: errcode.ErrSyntax},
		{name: "is inf", op: "IsInf", version: 10, attrs: "detect_negative=true detect_positive=false", ins: []ovIn{ovParam("[N,3]")},
			want: []string{"[N,3]"}},
		{name: "xor values", op: "Xor", ins: []ovIn{ovInts(1, 0, 1).typed(element.Boolean), ovInts(1, 1, 0).typed(element.Boolean)},
			want: []string{"[3]"}, values: []string{"[0,1,1]"}},
		{name: "hard sigmoid", op: "HardSigmoid", ins: []ovIn{ovParam("[N,3]"), ovFloats(0.2), ovFloats(0.5)}, want: []string{"[N,3]"}},
		{name: "identity values", op: "Identity", version: 16, ins: []ovIn{ovShapeOf("[N,3]")}, want: []string{"[2]"}, values: []string{"[N,3]"}},
		{name: "erfinv", op: "ErfInv", version: 17, ins: []ovIn{ovParam("[N]")}, want: []string{"[N]"}},
	})
}

// TestOVStatedConditions checks that a layer whose values are right only under a condition on the
// symbols states it at the layer: a divisor that may be 0 (a run fails dividing by 0), a value
// converted to a narrower integer type (a run wraps it around), the rest of a VariadicSplit's
// lengths (-1) not negative.
func TestOVStatedConditions(t *testing.T) {
	checkOV(t, []ovCase{
		{name: "divide", op: "Divide", ins: []ovIn{ovShapeOf("[N]"), ovShapeLess("[H]", 4)}, want: []string{"[1]"},
			values: []string{"[N//(H-4)]"}, constraints: []string{"H != 4 (divide (Divide): the divisor H-4 not 0)"}},
		{name: "floor mod", op: "FloorMod", ins: []ovIn{ovShapeOf("[N]"), ovShapeLess("[H]", 1)}, want: []string{"[1]"},
			values: []string{"[N % (H-1)]"}, constraints: []string{"H >= 2 (floor mod (FloorMod): the divisor H-1 not 0)"}},
		{name: "divide by a dim", op: "Divide", ins: []ovIn{ovShapeOf("[N]"), ovShapeOf("[H]")}, want: []string{"[1]"},
			values: []string{"[N//H]"}, constraints: []string{}},
		{name: "range of a step that may be 0", op: "Range", version: 4, attrs: "output_type=i64",
			ins: []ovIn{ovScalar(0), ovScalar(10), ovScalarLess("[H]", 2)}, want: []string{"[max(0,-(-10//(H-2)))]"},
			constraints: []string{"H != 2 (range of a step that may be 0 (Range): step H-2 not 0)"}},
		{name: "convert to i32", op: "Convert", attrs: "destination_type=i32", ins: []ovIn{ovShapeOf("[N,3]")}, want: []string{"[2]"},
			values: []string{"[N,3]"}, constraints: []string{"limit N <= 2147483647 (convert to i32 (Convert): the value N converted to i32 within its range)"}},
		{name: "convert to u8", op: "Convert", attrs: "destination_type=u8", ins: []ovIn{ovShapeLess("[N]", 3)}, want: []string{"[1]"},
			values: []string{"[N-3]"}, constraints: []string{"N in 3..258 (convert to u8 (Convert): the value N-3 converted to u8 within its range)"}},
		{name: "shape of to i32", op: "ShapeOf", version: 3, attrs: "output_type=i32", ins: []ovIn{ovParam("[N,3]")}, want: []string{"[2]"},
			values: []string{"[N,3]"}, constraints: []string{"limit N <= 2147483647 (shape of to i32 (ShapeOf): the value N converted to i32 within its range)"}},
		{name: "variadic split rest", op: "VariadicSplit", ins: []ovIn{ovParam("[N,T]"), ovScalar(1), ovInts(2, -1)},
			want: []string{"[N,2]", "[N,T-2]"}, constraints: []string{"T >= 2 (variadic split rest (VariadicSplit): split lengths [2,-1] within the axis's T)"}},
	})
}
