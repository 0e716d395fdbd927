package graph_test

import (
	"testing"

	"github.com/reshape-go/reshape/element"
)

func TestNormRules(t *testing.T) {
	x := []string{"x"}
	bn := []string{"x", "s", "b", "m", "v"}
	checkNode(t, []nodeCase{
		{name: "BatchNormalization-15", node: nodeV("BatchNormalization", 15, bn, y),
			inputs: shapes1("x", "[N,C,H,W]", "s", "[C]", "b", "[C]", "m", "[C]", "v", "[C]"), want: []string{"[N,C,H,W]"}},
		{name: "BatchNormalization channels unify", node: nodeV("BatchNormalization", 9, bn, y),
			inputs: shapes1("x", "[N,C,L]", "s", "[16]", "b", "[16]", "m", "[16]", "v", "[16]"), want: []string{"[N,16,L]"}},
		{name: "BatchNormalization-15 training", node: nodeV("BatchNormalization", 15, bn, []string{"y", "rm", "rv"}, attrInt("training_mode", 1)),
			inputs: shapes1("x", "[N,3,H,W]", "s", "[3]", "b", "[3]", "m", "[3]", "v", "[3]"), want: []string{"[N,3,H,W]", "[3]", "[3]"}},
		{name: "BatchNormalization-14 inference outputs", node: nodeV("BatchNormalization", 14, bn, []string{"y", "rm", "rv"}),
			inputs: shapes1("x", "[N,3,H,W]", "s", "[3]", "b", "[3]", "m", "[3]", "v", "[3]"), wantErr: errSyntax},
		{name: "BatchNormalization-9 statistics", node: nodeV("BatchNormalization", 9, bn, []string{"y", "m1", "v1", "sm", "sv"}),
			inputs: shapes1("x", "[N,3,H,W]", "s", "[3]", "b", "[3]", "m", "[3]", "v", "[3]"), want: []string{"[N,3,H,W]", "[3]", "[3]", "[3]", "[3]"}},
		{name: "BatchNormalization-7 not spatial", node: nodeV("BatchNormalization", 7, bn, []string{"y", "m1"}, attrInt("spatial", 0)),
			inputs: shapes1("x", "[N,3,H,W]", "s", "[3,H,W]", "b", "[3,H,W]", "m", "[3,H,W]", "v", "[3,H,W]"), want: []string{"[N,3,H,W]", "[3,H,W]"}},
		{name: "BatchNormalization mismatch", node: nodeV("BatchNormalization", 15, bn, y),
			inputs: shapes1("x", "[2,3,4]", "s", "[3]", "b", "[4]", "m", "[3]", "v", "[3]"), wantErr: errInvalidShape},
		{name: "InstanceNormalization", node: nodeV("InstanceNormalization", 6, []string{"x", "s", "b"}, y),
			inputs: shapes1("x", "[N,C,L]", "s", "[8]", "b", "[8]"), want: []string{"[N,8,L]"}},
		{name: "LayerNormalization", node: nodeV("LayerNormalization", 17, []string{"x", "s", "b"}, []string{"y", "m", "r"}),
			inputs: shapes1("x", "[B,T,64]", "s", "[64]", "b", "[64]"), want: []string{"[B,T,64]", "[B,T,1]", "[B,T,1]"}},
		{name: "LayerNormalization axis 1", node: nodeV("LayerNormalization", 17, []string{"x", "s"}, []string{"y", "m"}, attrInt("axis", 1)),
			inputs: shapes1("x", "[B,T,64]", "s", "[T,64]"), want: []string{"[B,T,64]", "[B,1,1]"}},
		{name: "LayerNormalization axis", node: nodeV("LayerNormalization", 17, []string{"x", "s"}, y, attrInt("axis", 3)),
			inputs: shapes1("x", "[B,T,64]", "s", "[64]"), wantErr: errInvalidShape},
		{name: "GroupNormalization-18", node: nodeV("GroupNormalization", 18, []string{"x", "s", "b"}, y, attrInt("num_groups", 2)),
			inputs: shapes1("x", "[N,4,H,W]", "s", "[2]", "b", "[2]"), want: []string{"[N,4,H,W]"}},
		{name: "GroupNormalization-21", node: nodeV("GroupNormalization", 21, []string{"x", "s", "b"}, y, attrInt("num_groups", 2)),
			inputs: shapes1("x", "[N,C,H,W]", "s", "[4]", "b", "[4]"), want: []string{"[N,4,H,W]"}},
		{name: "GroupNormalization groups", node: nodeV("GroupNormalization", 21, []string{"x", "s", "b"}, y, attrInt("num_groups", 2)),
			inputs: shapes1("x", "[N,5,H,W]", "s", "[5]", "b", "[5]"), wantErr: errInvalidShape},
		{name: "GroupNormalization-18 scale", node: nodeV("GroupNormalization", 18, []string{"x", "s", "b"}, y, attrInt("num_groups", 2)),
			inputs: shapes1("x", "[N,4,H,W]", "s", "[4]", "b", "[4]"), wantErr: errInvalidShape},
		{name: "RMSNormalization", node: nodeV("RMSNormalization", 23, []string{"x", "s"}, y),
			inputs: shapes1("x", "[B,T,64]", "s", "[64]"), want: []string{"[B,T,64]"}},
		{name: "Softmax-13", node: nodeV("Softmax", 13, x, y), inputs: shapes1("x", "[B,T,T]"), want: []string{"[B,T,T]"}},
		{name: "Softmax-11 axis", node: nodeV("Softmax", 11, x, y, attrInt("axis", -3)), inputs: shapes1("x", "[B,T,T]"), want: []string{"[B,T,T]"}},
		{name: "Softmax-1 default axis 1 of a vector", node: nodeV("Softmax", 1, x, y), inputs: shapes1("x", "[3]"), wantErr: errInvalidShape},
		{name: "Softmax-13 scalar", node: nodeV("Softmax", 13, x, y), inputs: shapes1("x", "[]"), wantErr: errInvalidShape},
		{name: "LogSoftmax", node: nodeV("LogSoftmax", 13, x, y), inputs: shapes1("x", "[B,T,6]"), want: []string{"[B,T,6]"}},
		{name: "Hardmax-11 axis", node: nodeV("Hardmax", 11, x, y, attrInt("axis", 2)), inputs: shapes1("x", "[2,3]"), wantErr: errInvalidShape},
		{name: "Hardmax", node: nodeV("Hardmax", 13, x, y, attrInt("axis", 0)), inputs: shapes1("x", "[B,T,6]"), want: []string{"[B,T,6]"}},
		{name: "LpNormalization", node: nodeV("LpNormalization", 1, x, y, attrInt("p", 1)), inputs: shapes1("x", "[N,C]"), want: []string{"[N,C]"}},
		{name: "LpNormalization axis", node: nodeV("LpNormalization", 1, x, y, attrInt("axis", 2)), inputs: shapes1("x", "[N,C]"), wantErr: errInvalidShape},
		{name: "MeanVarianceNormalization", node: nodeV("MeanVarianceNormalization", 13, x, y, attrInts("axes", 0, 2)),
			inputs: shapes1("x", "[N,C,L]"), want: []string{"[N,C,L]"}},
		{name: "MeanVarianceNormalization axes", node: nodeV("MeanVarianceNormalization", 9, x, y, attrInts("axes", 0, 3)),
			inputs: shapes1("x", "[N,C,L]"), wantErr: errInvalidShape},
		{name: "LRN", node: nodeV("LRN", 13, x, y, attrInt("size", 3)), inputs: shapes1("x", "[N,C,H,W]"), want: []string{"[N,C,H,W]"}},
		{name: "LRN size", node: nodeV("LRN", 13, x, y), inputs: shapes1("x", "[N,C,H,W]"), wantErr: errSyntax},
		{name: "Dropout-12", node: nodeV("Dropout", 12, []string{"x", "r", "t"}, []string{"y", "m"}),
			inputs: shapes1("x", "[B,T,64]", "r", "[]", "t", "[]"), want: []string{"[B,T,64]", "[B,T,64]"}},
		{name: "Dropout-7 inputs", node: nodeV("Dropout", 7, []string{"x", "r"}, y), inputs: shapes1("x", "[B,T,64]", "r", "[]"), wantErr: errSyntax},
		{name: "Swish", node: nodeV("Swish", 24, x, y), inputs: shapes1("x", "[B,T,64]"), want: []string{"[B,T,64]"}},
	})
}

func TestNormTypes(t *testing.T) {
	checkTypes(t, []typeCase{
		{nodeCase{node: nodeV("Dropout", 7, []string{"x"}, []string{"y", "m"}), inputs: shapes1("x", "[2,3]")},
			[]element.Type{element.F32, element.F32}},
		{nodeCase{node: nodeV("Dropout", 13, []string{"x"}, []string{"y", "m"}), inputs: shapes1("x", "[2,3]")},
			[]element.Type{element.F32, element.Boolean}},
		{nodeCase{node: nodeV("LayerNormalization", 17, []string{"x", "s"}, []string{"y", "m", "r"}, attrInt("stash_type", 11)),
			inputs: shapes1("x", "[2,3]", "s", "[3]"), types: map[string]element.Type{"x": element.F16, "s": element.F16}},
			[]element.Type{element.F16, element.F64, element.F64}},
	})
}
