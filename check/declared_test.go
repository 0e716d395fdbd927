package check_test

import (
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/onnx"
)

// TestDeclaredOutputs checks that check compares the declared shape of every output of a node
// other than a Reshape with what the rules give, as shapes does: a model exported at batch 1 whose
// input and output are renamed [N,...] collapses the batch (ShuffleNet's Reshape to [1,...]); its
// output's declaration is a mismatch row, equal only when N == 1, and at N=4 it is not equal at
// all. (Here a mean over the batch collapses it.) Under --input, which rebinds the inputs, the declaration is of the old inputs: no row.
func TestDeclaredOutputs(t *testing.T) {
	batched := func(name string) onnx.ValueInfo {
		v := vi(name, "[?,8]")
		v.DimParams = []string{"N", ""}
		return v
	}
	m := &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 17}}, Graph: onnx.Graph{
		Inputs: []onnx.ValueInfo{batched("x")},
		Nodes: []onnx.Node{{Name: "mean", OpType: "ReduceMean", Inputs: []string{"x"}, Outputs: []string{"f"},
			Attrs: []onnx.Attribute{{Name: "axes", Type: onnx.AttrInts, Ints: []int64{0}}}},
			{Name: "relu", OpType: "Relu", Inputs: []string{"f"}, Outputs: []string{"y"}}},
		Outputs: []onnx.ValueInfo{batched("y")},
	}}
	path := writeModel(t, m)
	for _, tc := range []struct {
		name string
		opt  check.Options
		msg  string // the message of the row of y, "" for none
	}{
		{"unbound", check.Options{}, "output y: the model declares [N,8], the rules give [1,8]: equal only when N == 1"},
		{"N=4", check.Options{Dims: map[string]int64{"N": 4}}, "output y: the model declares [4,8], the rules give [1,8]"},
		{"N=1", check.Options{Dims: map[string]int64{"N": 1}}, ""},
		{"rebound", check.Options{Inputs: map[string]string{"x": "[4,8]"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := check.File(path, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			var got []check.Row
			for _, r := range rep.Rows {
				if r.Tensor != "" {
					got = append(got, r)
				}
			}
			switch {
			case tc.msg == "" && len(got) > 0:
				t.Errorf("rows %+v, want none", got)
			case tc.msg != "" && (len(got) != 1 || got[0].Tensor != "y" || got[0].Name != "relu" || got[0].Verdict != check.Mismatch || got[0].Message != tc.msg):
				t.Errorf("rows %+v, want a mismatch of y at relu: %q", got, tc.msg)
			}
			s := check.Summarize([]*check.Report{rep})
			if s.Declared != len(got) || s.AllOK() == (tc.msg != "") {
				t.Errorf("summary: %d declared, AllOK %v", s.Declared, s.AllOK())
			}
		})
	}
}
