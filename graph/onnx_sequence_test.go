package graph

import (
	"cmp"
	"errors"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
)

// valueText prints what inference found of a value: a tensor's type and shape ("f32[N,4]"), a
// sequence's type and length ("seq(f32[1,4]) len N"), in the notation of Info.TypeString.
func valueText(in *Info) string {
	if in == nil {
		return "nothing"
	}
	if in.Seq != nil {
		return in.TypeString() + " len " + in.Seq.Len.String()
	}
	if in.IsTensor() && !in.Optional {
		return in.TypeString() + in.Shape.String()
	}
	return in.TypeString()
}

// seqCase is a model of sequence operators: the values of the tensors it names (valueText), the
// constraints the model records, and the node error (its code and the node) when it has one; with
// complete, that no precision is lost (Result.Complete).
type seqCase struct {
	name        string
	model       *model
	want        map[string]string
	constraints []string
	errNode     string
	errCode     error
	complete    bool
}

func checkSeqCases(t *testing.T, cases []seqCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Infer(decodeGraph(t, tc.model.encode()), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range tc.want {
				if got := valueText(res.Tensor(name)); got != want {
					t.Errorf("%s = %s, want %s", name, got, want)
				}
			}
			var got []string
			for _, c := range res.Constraints() {
				got = append(got, c.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.constraints, "\n") {
				t.Errorf("constraints:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.constraints, "\n"))
			}
			var errNode string
			for _, r := range res.Nodes {
				if err := cmp.Or(r.TypeErr, r.Err); err != nil && errNode == "" {
					errNode = r.Path
					if !errors.Is(err, tc.errCode) {
						t.Errorf("%s: %v, want %v", r.Path, err, tc.errCode)
					}
				}
			}
			if errNode != tc.errNode {
				t.Errorf("the first node error is at %q, want %q", errNode, tc.errNode)
			}
			if tc.complete && !res.Complete() {
				t.Errorf("precision lost: %v", res.Lost())
			}
		})
	}
}

func TestSequenceRules(t *testing.T) {
	loop := func(trip string) *model {
		// torch's list building: for i in range(M): out.append(parts[i] * 2), then torch.cat.
		body := onnx.Graph{Name: "body",
			Inputs: []onnx.ValueInfo{valueInfo("i", onnx.Int64), valueInfo("cond", onnx.Bool),
				{Name: "acc", Shape: valueInfo("", onnx.Undefined, -1).Shape, Seq: &onnx.ValueInfo{ElemType: onnx.Float, Shape: valueInfo("", onnx.Float, -1).Shape}}},
			Nodes: []onnx.Node{
				{Name: "at", OpType: "SequenceAt", Inputs: []string{"parts", "i"}, Outputs: []string{"p"}},
				{Name: "twice", OpType: "Add", Inputs: []string{"p", "p"}, Outputs: []string{"q"}},
				{Name: "insert", OpType: "SequenceInsert", Inputs: []string{"acc", "q"}, Outputs: []string{"acc2"}},
				{Name: "keep", OpType: "Identity", Inputs: []string{"cond"}, Outputs: []string{"cond2"}},
			},
			Outputs: []onnx.ValueInfo{valueInfo("cond2", onnx.Bool), {Name: "acc2", Shape: valueInfo("", onnx.Undefined, -1).Shape}},
		}
		return newModel(17).input("x", "N", 4).ints("zero", []int64{}, 0).
			node("split", "SplitToSequence", []string{"x"}, []string{"parts"}, attrInt("axis", 0), attrInt("keepdims", 1)).
			node("shape", "Shape", []string{"x"}, []string{"s"}).
			node("m", "Gather", []string{"s", "zero"}, []string{"n"}, attrInt("axis", 0)).
			node("trip", "Identity", []string{trip}, []string{"m"}).
			node("empty", "SequenceEmpty", nil, []string{"acc0"}).
			node("true", "Constant", nil, []string{"t"}, onnx.Attribute{Name: "value", Type: onnx.AttrTensor, T: ptr(protoTensor("", []bool{true}))}).
			node("loop", "Loop", []string{"m", "t", "acc0"}, []string{"list"}, onnx.Attribute{Name: "body", Type: onnx.AttrGraph, G: &body}).
			node("len", "SequenceLength", []string{"list"}, []string{"count"}).
			node("cat", "ConcatFromSequence", []string{"list"}, []string{"y"}, attrInt("axis", 1)).output("y")
	}
	checkSeqCases(t, []seqCase{
		{name: "split into rows, at, length, stacked",
			model: newModel(17).input("x", "N", 4).ints("two", []int64{}, 2).
				node("split", "SplitToSequence", []string{"x"}, []string{"rows"}, attrInt("keepdims", 0)).
				node("len", "SequenceLength", []string{"rows"}, []string{"n"}).
				node("at", "SequenceAt", []string{"rows", "two"}, []string{"r2"}).
				node("stack", "ConcatFromSequence", []string{"rows"}, []string{"y"}, attrInt("axis", 0), attrInt("new_axis", 1)).
				node("cat", "ConcatFromSequence", []string{"rows"}, []string{"z"}, attrInt("axis", -1)).output("y", "z"),
			want:        map[string]string{"rows": "seq(f32[4]) len N", "n": "i64[]", "r2": "f32[4]", "y": "f32[N,4]", "z": "f32[4*N]"},
			constraints: []string{"N >= 3 (at (SequenceAt): the position within the sequence's length)"}},
		{name: "construct: elements one by one, their join",
			model: newModel(17).input("a", 2, "C").input("b", 4, "C").ints("one", []int64{}, 1).ints("last", []int64{}, -1).
				node("seq", "SequenceConstruct", []string{"a", "b", "a"}, []string{"s"}).
				node("at", "SequenceAt", []string{"s", "one"}, []string{"s1"}).
				node("end", "SequenceAt", []string{"s", "last"}, []string{"s2"}).
				node("cat", "ConcatFromSequence", []string{"s"}, []string{"y"}, attrInt("axis", 0)).output("y"),
			want: map[string]string{"s": "seq(f32[2..4,C]) len 3", "s1": "f32[4,C]", "s2": "f32[2,C]", "y": "f32[8,C]"}},
		// onnxruntime 1.20.1 reads a position of one element (length_regulator's Loop body, whose
		// iteration number is declared [1]); one of two elements is no position.
		{name: "a position of one element",
			model: newModel(17).input("a", 2).input("b", 4).ints("one", []int64{1}, 1).
				node("seq", "SequenceConstruct", []string{"a", "b"}, []string{"s"}).
				node("at", "SequenceAt", []string{"s", "one"}, []string{"y"}).output("y"),
			want: map[string]string{"y": "f32[4]"}},
		{name: "a position of two elements",
			model: newModel(17).input("a", 2).ints("two", []int64{2}, 0, 1).
				node("seq", "SequenceConstruct", []string{"a", "a"}, []string{"s"}).
				node("at", "SequenceAt", []string{"s", "two"}, []string{"y"}).output("y"),
			errNode: "at", errCode: errcode.ErrInvalidShape},
		{name: "a position past the end",
			model: newModel(17).input("a", 2).ints("three", []int64{}, 3).
				node("seq", "SequenceConstruct", []string{"a", "a"}, []string{"s"}).
				node("at", "SequenceAt", []string{"s", "three"}, []string{"y"}).output("y"),
			errNode: "at", errCode: errcode.ErrInvalidShape},
		{name: "insert at the front and the back of an empty sequence",
			model: newModel(17).input("a", 2, 3).input("b", 5, 3).ints("zero", []int64{}, 0).
				node("empty", "SequenceEmpty", nil, []string{"e"}).
				node("ins", "SequenceInsert", []string{"e", "a"}, []string{"s1"}).
				node("front", "SequenceInsert", []string{"s1", "b", "zero"}, []string{"s2"}).
				node("first", "SequenceAt", []string{"s2", "zero"}, []string{"f"}).
				node("erase", "SequenceErase", []string{"s2"}, []string{"s3"}).
				node("cat", "ConcatFromSequence", []string{"s3"}, []string{"y"}, attrInt("axis", 0)).output("y"),
			want: map[string]string{"e": "seq(f32[...]) len 0", "s1": "seq(f32[2,3]) len 1", "s2": "seq(f32[2..5,3]) len 2",
				"f": "f32[5,3]", "s3": "seq(f32[5,3]) len 1", "y": "f32[5,3]"}},
		{name: "erase from an empty sequence",
			model: newModel(17).node("empty", "SequenceEmpty", nil, []string{"e"}, attrInt("dtype", 7)).
				node("erase", "SequenceErase", []string{"e"}, []string{"y"}).output("y"),
			errNode: "erase", errCode: errcode.ErrInvalidShape},
		{name: "split by a scalar that does not divide",
			model: newModel(17).input("x", "N", 7).ints("two", []int64{}, 2).
				node("split", "SplitToSequence", []string{"x", "two"}, []string{"s"}, attrInt("axis", 1)).
				node("cat", "ConcatFromSequence", []string{"s"}, []string{"y"}, attrInt("axis", 1)).output("y"),
			want: map[string]string{"s": "seq(f32[N,1..2]) len 4", "y": "f32[N,7]"}},
		{name: "split a symbol by a scalar",
			model: newModel(17).input("x", "T", 3).ints("four", []int64{}, 4).
				node("split", "SplitToSequence", []string{"x", "four"}, []string{"s"}).
				node("len", "SequenceLength", []string{"s"}, []string{"n"}).output("n"),
			want: map[string]string{"s": "seq(f32[1..4,3]) len (T+3)//4"}},
		{name: "split a symbol by a scalar: its first, second and last pieces, joined again",
			model: newModel(17).input("x", "B", "T", 8).ints("four", []int64{}, 4).ints("first", []int64{}, 0).
				ints("second", []int64{}, 1).ints("last", []int64{}, -1).
				node("split", "SplitToSequence", []string{"x", "four"}, []string{"s"}, attrInt("axis", 1)).
				node("at0", "SequenceAt", []string{"s", "first"}, []string{"a"}).
				node("at1", "SequenceAt", []string{"s", "second"}, []string{"b"}).
				node("atl", "SequenceAt", []string{"s", "last"}, []string{"z"}).
				node("cat", "ConcatFromSequence", []string{"s"}, []string{"y"}, attrInt("axis", 1)).output("a", "b", "z", "y"),
			want: map[string]string{"s": "seq(f32[B,1..4,8]) len (T+3)//4", "a": "f32[B,min(T,4),8]",
				"b": "f32[B,min(T-4,4),8]", "z": "f32[B,T-4*((T+3)//4)+4,8]", "y": "f32[B,T,8]"},
			constraints: []string{"T >= 5 (at1 (SequenceAt): the position within the sequence's length)"}, complete: true},
		{name: "split by sizes that must add up",
			model: newModel(17).input("x", "T", 3).ints("sizes", nil, 2, 5).
				node("split", "SplitToSequence", []string{"x", "sizes"}, []string{"s"}).output("s"),
			want:        map[string]string{"s": "seq(f32[2..5,3]) len 2"},
			constraints: []string{"T == 7 (split (SplitToSequence): the axis dim and the sum of split [2,5])"}},
		// FuzzUnknownRank: the pieces of a tensor of known values were cut before the sizes were
		// checked, past its end.
		{name: "split values by sizes past the end",
			model: newModel(17).ints("k", nil, 4, 5, 6).ints("sizes", nil, 2, 2).
				node("split", "SplitToSequence", []string{"k", "sizes"}, []string{"s"}).output("s"),
			errNode: "split", errCode: errcode.ErrInvalidShape},
		{name: "split by ones (torch's repeat_interleave)",
			model: newModel(17).input("x", "B", "T").ints("one", []int64{1}, 1).
				node("shape", "Shape", []string{"x"}, []string{"s"}).
				node("t", "Slice", []string{"s", "one", "two"}, []string{"tdim"}).ints("two", []int64{1}, 2).
				node("ones", "ConstantOfShape", []string{"tdim"}, []string{"split"},
					onnx.Attribute{Name: "value", Type: onnx.AttrTensor, T: ptr(intTensor("", nil, 1))}).
				node("parts", "SplitToSequence", []string{"x", "split"}, []string{"p"}, attrInt("axis", 1)).output("p"),
			want: map[string]string{"p": "seq(f32[B,1]) len T"}},
		{name: "split by sizes [2, T-2]: the second not negative",
			model: newModel(17).input("x", "B", "T").ints("one", []int64{1}, 1).ints("two", []int64{1}, 2).
				node("shape", "Shape", []string{"x"}, []string{"s"}).
				node("t", "Slice", []string{"s", "one", "two"}, []string{"tdim"}).
				node("rest", "Sub", []string{"tdim", "two"}, []string{"r"}).
				node("sizes", "Concat", []string{"two", "r"}, []string{"split"}, attrInt("axis", 0)).
				node("parts", "SplitToSequence", []string{"x", "split"}, []string{"p"}, attrInt("axis", 1)).output("p"),
			want:        map[string]string{"p": "seq(f32[B,?]) len 2"},
			constraints: []string{"T >= 2 (parts (SplitToSequence): split[1] = T-2 is not negative)"}},
		{name: "elements of two ranks",
			model: newModel(17).input("a", 2, 3).input("b", 6).
				node("seq", "SequenceConstruct", []string{"a", "b"}, []string{"s"}).
				node("cat", "ConcatFromSequence", []string{"s"}, []string{"y"}, attrInt("axis", 0)).output("y"),
			errNode: "cat", errCode: errcode.ErrInvalidShape},
		{name: "elements of two types",
			model: newModel(17).input("a", 2, 3).typedInput("b", onnx.Int64, 2, 3).
				node("seq", "SequenceConstruct", []string{"a", "b"}, []string{"s"}).output("s"),
			errNode: "seq", errCode: errcode.ErrDataType},
		{name: "a loop appends a row each iteration",
			model: loop("n"),
			want:  map[string]string{"parts": "seq(f32[1,4]) len N", "list": "seq(f32[1,4]) len N", "count": "i64[]", "y": "f32[1,4*N]"}},
		{name: "optional of a sequence",
			model: newModel(18).input("a", 2, 3).
				node("seq", "SequenceConstruct", []string{"a"}, []string{"s"}).
				node("opt", "Optional", []string{"s"}, []string{"o"}).
				node("has", "OptionalHasElement", []string{"o"}, []string{"h"}).
				node("get", "OptionalGetElement", []string{"o"}, []string{"g"}).
				node("cat", "ConcatFromSequence", []string{"g"}, []string{"y"}, attrInt("axis", 0)).output("y", "h"),
			want: map[string]string{"o": "optional(seq(f32[2,3])) len 1", "h": "boolean[]", "g": "seq(f32[2,3]) len 1", "y": "f32[2,3]"}},
	})
}

func ptr[T any](v T) *T { return &v }
