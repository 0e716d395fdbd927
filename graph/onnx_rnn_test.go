package graph_test

import "testing"

// The layout-0 cases are the nodes of testdata/models/ops_rnn.onnx and rnns.onnx, whose outputs
// onnxruntime computes (testdata/truth); layout 1 follows the ONNX specification (onnxruntime
// refuses it).
func TestRNNRules(t *testing.T) {
	xwr := []string{"x", "w", "r"}
	two, three := []string{"y", "h"}, []string{"y", "h", "c"}
	checkNode(t, []nodeCase{
		{name: "GRU reverse", node: nodeV("GRU", 14, []string{"x", "w", "r", "b"}, two, attrString("direction", "reverse"), attrInt("hidden_size", 3), attrInt("linear_before_reset", 1)),
			inputs: shapes1("x", "[T,B,4]", "w", "[1,9,4]", "r", "[1,9,3]", "b", "[1,18]"), want: []string{"[T,1,B,3]", "[1,B,3]"}},
		{name: "RNN bidirectional", node: nodeV("RNN", 14, []string{"x", "w", "r", "b", "lens", "h0"}, two, attrString("direction", "bidirectional"), attrInt("hidden_size", 3)),
			inputs: shapes1("x", "[T,B,4]", "w", "[2,3,4]", "r", "[2,3,3]", "b", "[2,6]", "lens", "[B]", "h0", "[2,B,3]"), want: []string{"[T,2,B,3]", "[2,B,3]"}},
		{name: "LSTM peepholes", node: nodeV("LSTM", 14, []string{"x", "w", "r", "", "", "", "", "p"}, three, attrInt("hidden_size", 3)),
			inputs: shapes1("x", "[T,B,4]", "w", "[1,12,4]", "r", "[1,12,3]", "p", "[1,9]"), want: []string{"[T,1,B,3]", "[1,B,3]", "[1,B,3]"}},
		{name: "LSTM layout 1", node: nodeV("LSTM", 14, []string{"x", "w", "r", "", "", "h0", "c0"}, three, attrInt("hidden_size", 3), attrInt("layout", 1)),
			inputs: shapes1("x", "[B,T,4]", "w", "[1,12,4]", "r", "[1,12,3]", "h0", "[B,1,3]", "c0", "[B,1,3]"), want: []string{"[B,T,1,3]", "[B,1,3]", "[B,1,3]"}},
		{name: "GRU layout 1 bidirectional", node: nodeV("GRU", 22, xwr, two, attrInt("hidden_size", 5), attrInt("layout", 1), attrString("direction", "bidirectional")),
			inputs: shapes1("x", "[B,T,4]", "w", "[2,15,4]", "r", "[2,15,5]"), want: []string{"[B,T,2,5]", "[B,2,5]"}},
		{name: "hidden_size from R", node: nodeV("LSTM", 7, xwr, three), inputs: shapes1("x", "[T,B,4]", "w", "[1,20,4]", "r", "[1,20,5]"),
			want: []string{"[T,1,B,5]", "[1,B,5]", "[1,B,5]"}},
		{name: "batch from sequence_lens", node: nodeV("RNN", 7, []string{"x", "w", "r", "", "lens"}, two, attrInt("hidden_size", 2)),
			inputs: shapes1("x", "[T,?,4]", "w", "[1,2,4]", "r", "[1,2,2]", "lens", "[3]"), want: []string{"[T,1,3,2]", "[1,3,2]"}},
		{name: "dynamic rank X", node: nodeV("RNN", 14, xwr, two, attrInt("hidden_size", 3)),
			inputs: shapes1("x", "[...]", "w", "[1,3,4]", "r", "[1,3,3]"), want: []string{"[?,1,?,3]", "[1,?,3]"}},
		{name: "layout before 14", node: nodeV("LSTM", 7, xwr, three, attrInt("hidden_size", 3), attrInt("layout", 0)),
			inputs: shapes1("x", "[T,B,4]", "w", "[1,12,4]", "r", "[1,12,3]"), wantErr: errSyntax},
		{name: "layout 2", node: nodeV("LSTM", 14, xwr, three, attrInt("hidden_size", 3), attrInt("layout", 2)),
			inputs: shapes1("x", "[T,B,4]", "w", "[1,12,4]", "r", "[1,12,3]"), wantErr: errSyntax},
		{name: "direction", node: nodeV("RNN", 14, xwr, two, attrInt("hidden_size", 3), attrString("direction", "both")),
			inputs: shapes1("x", "[T,B,4]", "w", "[1,3,4]", "r", "[1,3,3]"), wantErr: errSyntax},
		{name: "directions mismatch", node: nodeV("RNN", 14, xwr, two, attrInt("hidden_size", 3)),
			inputs: shapes1("x", "[T,B,4]", "w", "[2,3,4]", "r", "[2,3,3]"), wantErr: errInvalidShape},
		{name: "gates mismatch", node: nodeV("GRU", 14, xwr, two, attrInt("hidden_size", 3)),
			inputs: shapes1("x", "[T,B,4]", "w", "[1,12,4]", "r", "[1,12,3]"), wantErr: errInvalidShape},
		{name: "input size mismatch", node: nodeV("RNN", 14, xwr, two, attrInt("hidden_size", 3)),
			inputs: shapes1("x", "[T,B,5]", "w", "[1,3,4]", "r", "[1,3,3]"), wantErr: errInvalidShape},
		{name: "X rank", node: nodeV("RNN", 14, xwr, two, attrInt("hidden_size", 3)),
			inputs: shapes1("x", "[T,4]", "w", "[1,3,4]", "r", "[1,3,3]"), wantErr: errInvalidShape},
		{name: "initial_h batch", node: nodeV("RNN", 14, []string{"x", "w", "r", "", "", "h0"}, two, attrInt("hidden_size", 3)),
			inputs: shapes1("x", "[T,2,4]", "w", "[1,3,4]", "r", "[1,3,3]", "h0", "[1,3,3]"), wantErr: errInvalidShape},
		{name: "too many outputs", node: nodeV("GRU", 14, xwr, three, attrInt("hidden_size", 3)),
			inputs: shapes1("x", "[T,B,4]", "w", "[1,9,4]", "r", "[1,9,3]"), wantErr: errSyntax},
	})
}
