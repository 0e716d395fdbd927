package check

import (
	"slices"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
)

// stoppers finds, for a node with undetermined dims, the nodes upstream of it where the shapes (or
// the pattern's values) stop being known: nodes without a shape rule, nodes whose inputs broke their
// rule, nodes whose rule depends on run-time data, and graph inputs whose values only a run gives.
type stoppers struct {
	res  *graph.Result
	memo map[memoKey][]string
}

type memoKey struct {
	r      *graph.NodeResult
	values bool
}

// maxStoppers bounds the stoppers named for one node.
const maxStoppers = 3

func newStoppers(res *graph.Result) *stoppers {
	return &stoppers{res: res, memo: map[memoKey][]string{}}
}

// of returns the stoppers of a Reshape row: those of its data input's shape and of its pattern's
// values.
func (s *stoppers) of(r *graph.NodeResult) []string {
	out := s.inputs(r, 0, false)
	if len(r.Inputs) > 1 && r.Inputs[1] != nil && !known(r.Inputs[1], true) {
		out = appendNew(out, s.inputs(r, 1, true)...)
	}
	return out
}

// inputs returns the stoppers of input k of r (all inputs when k < 0): of its shape, or with values
// of its values.
func (s *stoppers) inputs(r *graph.NodeResult, k int, values bool) []string {
	var out []string
	for i, name := range r.Node.Inputs {
		if name == "" || k >= 0 && i != k || i >= len(r.Inputs) || known(r.Inputs[i], values) {
			continue
		}
		p := s.res.Producer(r, i)
		if p == nil {
			switch c := r.Graph.Consts[name]; {
			case values && c != nil && c.Load == nil: // an IR network read without its .bin
				out = appendNew(out, "Const "+name+" (its values are in the .bin, which was not read)")
			case values:
				out = appendNew(out, "input "+name)
			}
			continue
		}
		out = appendNew(out, s.node(p, values)...)
		if len(out) >= maxStoppers {
			break
		}
	}
	return out
}

// node returns the stoppers of the outputs of p.
func (s *stoppers) node(p *graph.NodeResult, values bool) []string {
	key := memoKey{p, values}
	if v, ok := s.memo[key]; ok {
		return v
	}
	s.memo[key] = nil // a cycle through subgraph outputs stops here
	var out []string
	switch {
	case p.Unsupported:
		out = []string{p.Node.Op + " at " + p.Path + " (no shape rule)"}
	case p.Err != nil:
		out = []string{p.Node.Op + " at " + p.Path + " (" + errcode.Code(p.Err) + ")"}
	case values && (p.Node.Op == "Shape" || p.Node.Op == "Size"):
		out = s.inputs(p, 0, false) // the values are the input's dims
	default:
		out = s.inputs(p, -1, values)
		if len(out) == 0 {
			// Its inputs are known: its result is data-dependent, or has no expression in the
			// model's symbols (a slice whose size depends on whether a dim is 0).
			why := "its output has no expression in the model's symbols"
			if values {
				why = "its values have no expression in the model's symbols"
			}
			out = []string{p.Node.Op + " at " + p.Path + " (" + why + ")"}
		}
	}
	s.memo[key] = out
	return out
}

// known reports whether the shape of in is determined (every dim an integer or an expression in
// the model's symbols), or with values whether its values are known.
func known(in *graph.Info, values bool) bool {
	if in == nil {
		return true
	}
	if values {
		if !isIntegral(in) {
			return true
		}
		if in.Value == nil {
			return false
		}
		for _, d := range in.Value {
			if !d.Determined() {
				return false
			}
		}
		return true
	}
	if in.Shape.RankDynamic {
		return false
	}
	for _, d := range in.Shape.Dims {
		if !d.Determined() {
			return false
		}
	}
	return true
}

// isIntegral reports whether in may hold values inference tracks: an integer or boolean tensor, or
// one of unknown type.
func isIntegral(in *graph.Info) bool {
	return in.Type == element.Undefined || in.Type.IsInteger() || in.Type == element.Boolean
}

func appendNew(list []string, items ...string) []string {
	for _, it := range items {
		if len(list) < maxStoppers && !slices.Contains(list, it) {
			list = append(list, it)
		}
	}
	return list
}
