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
