package check

import "github.com/reshape-go/reshape/graph"

// Loss is a place where inference lost precision, so that a model's constraints may be incomplete
// (graph.Loss): the node and its operator ("input" for a graph input whose shape is not in
// symbols), the tensor whose shape or values the rules could not express ("" for none), and what
// was lost. RunTime marks a size that only a run decides, because it depends on the model's data
// (a NonZero count, the boxes NonMaxSuppression keeps): no condition on the symbols states it.
type Loss struct {
	Node    string `json:"node"`
	Op      string `json:"op"`
	Tensor  string `json:"tensor,omitempty"`
	Why     string `json:"why"`
	RunTime bool   `json:"run_time,omitempty"`
	// File is the model file that loses it (Report.File).
	File string `json:"file"`
}

// String returns "NODE (OP): WHY".
func (l Loss) String() string { return l.Node + " (" + l.Op + "): " + l.Why }

// lossesOf returns the losses of precision of an inferred model (graph.Result.Lost), in the order
// inference met them.
func lossesOf(res *graph.Result, file string) []Loss {
	var out []Loss
	for _, l := range res.Lost() {
		out = append(out, Loss{Node: l.Node, Op: l.Op, Tensor: l.Tensor, Why: l.Why, RunTime: l.RunTime, File: file})
	}
	return out
}
