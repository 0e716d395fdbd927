package check

import (
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/graph"
)

// The blockers, OpenVINO's known causes of a network that does not reshape (the list of its
// legacy "Reshape-ability" page), as Constraint.Blocker names them.
const (
	// BlockerReshape is a Reshape whose pattern is a constant: the sizes of the shape it was
	// exported at, baked ([1,1,1] where the batch was 1). reshape fix rewrites such patterns.
	BlockerReshape = "hard-coded-reshape"
	// BlockerMatMul is a MatMul whose other operand is a constant (weights, through Convert and
	// decompression layers): its dims fix the contracted dim (a flattened [1, C·H·W] against
	// weights of C·H·W rows).
	BlockerMatMul = "constant-matmul"
	// BlockerGlobalPool is an AvgPool or MaxPool whose fixed kernel equals its input's spatial size
	// as declared: a global pool at that size, a window at any other, so that its output's
	// spatial size is no longer 1 (Constraint.BlockerNode names the pool).
	BlockerGlobalPool = "global-pool"
)

// maxUpstream bounds the nodes nameBlockers visits upstream of a constraint's node in search of a
// global pool.
const maxUpstream = 64

// nameBlockers sets the Blocker of each constraint of the IR network g, inferred as res, that one
// of OpenVINO's known blockers causes: a pool acting as a global pool upstream of its node (or its
// node), when the pool's input has a symbol of the condition on a spatial axis; else its node
// itself, a Reshape of a constant pattern or a MatMul of a constant operand.
func nameBlockers(g *graph.Graph, res *graph.Result, cs []Constraint) {
	if len(cs) == 0 {
		return
	}
	producer := map[string]*graph.NodeResult{} // of the tensors of g
	for i := range res.Nodes {
		if r := &res.Nodes[i]; r.Graph == g {
			for _, out := range r.Node.Outputs {
				producer[out] = r
			}
		}
	}
	for i := range cs {
		k, ok := res.NodeIndex(cs[i].Node)
		if !ok {
			continue
		}
		r := &res.Nodes[k]
		if pool := globalPoolAbove(g, r, producer, cs[i].Holds.SymbolNames()); pool != nil {
			cs[i].Blocker = BlockerGlobalPool
			if pool != r {
				cs[i].BlockerNode = pool.Path
			}
			continue
		}
		switch r.Node.Op {
		case "Reshape":
			if f, ok := res.Reshape(r); ok && f.Source == graph.PatternConst {
				cs[i].Blocker = BlockerReshape
			}
		case "MatMul":
			if slices.ContainsFunc(r.Node.Inputs, func(in string) bool { return constant(g, in, producer, 0) }) {
				cs[i].Blocker = BlockerMatMul
			}
		}
	}
}

// constant reports whether the tensor name of g is a constant: a Const, or the output of a node
// whose inputs are all constant (a Convert, the Subtract and Multiply that decompress weights, a
// FakeQuantize of constant ranges), within maxHops nodes.
func constant(g *graph.Graph, name string, producer map[string]*graph.NodeResult, hops int) bool {
	if _, ok := g.Consts[name]; ok {
		return true
	}
	r, ok := producer[name]
	if !ok || hops >= maxHops || len(r.Node.Inputs) == 0 {
		return false
	}
	for _, in := range r.Node.Inputs {
		if in != "" && !constant(g, in, producer, hops+1) {
			return false
		}
	}
	return true
}

// globalPoolAbove returns the first pool, r or upstream of it (breadth first, at most maxUpstream
// nodes), that acts as a global pool at its declared input (globalPool) and whose input in res
// has one of the symbols on a spatial axis; nil when there is none.
func globalPoolAbove(g *graph.Graph, r *graph.NodeResult, producer map[string]*graph.NodeResult, symbols []string) *graph.NodeResult {
	if len(symbols) == 0 || r.Graph != g {
		return nil
	}
	seen := map[*graph.NodeResult]bool{r: true}
	queue := []*graph.NodeResult{r}
	for len(queue) > 0 && len(seen) <= maxUpstream {
		n := queue[0]
		queue = queue[1:]
		if globalPool(g, n) && spatialMentions(n, symbols) {
			return n
		}
		for _, in := range n.Node.Inputs {
			if p, ok := producer[in]; ok && !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return nil
}

// globalPool reports whether the node r is an AvgPool or MaxPool whose kernel equals the spatial
// dims its input declares (the axes after the batch and the channels), pads 0: one window over
// the whole input, at that size only.
func globalPool(g *graph.Graph, r *graph.NodeResult) bool {
	if r.Node.Op != "AvgPool" && r.Node.Op != "MaxPool" || len(r.Node.Inputs) == 0 {
		return false
	}
	kernel, ok := attrInts(r.Node, "kernel")
	if !ok {
		return false
	}
	for _, pad := range []string{"pads_begin", "pads_end"} {
		if p, ok := attrInts(r.Node, pad); ok && slices.ContainsFunc(p, func(v int64) bool { return v != 0 }) {
			return false
		}
	}
	dims := declaredDims(g, r.Node.Inputs[0])
	if len(dims) != len(kernel)+2 {
		return false
	}
	for i, k := range kernel {
		if d := dims[2+i]; d.Lo != d.Hi || d.Lo != k {
			return false
		}
	}
	return true
}

// spatialMentions reports whether the input of the pool r, as inferred, has one of the symbols on
// an axis after the batch and the channels.
func spatialMentions(r *graph.NodeResult, symbols []string) bool {
	if len(r.Inputs) == 0 || r.Inputs[0] == nil || r.Inputs[0].Shape.RankDynamic {
		return false
	}
	for i, d := range r.Inputs[0].Shape.Dims {
		x, ok := d.Expr()
		if i < 2 || !ok {
			continue
		}
		if slices.ContainsFunc(symbols, x.Mentions) {
			return true
		}
	}
	return false
}

// declaredDims returns the dims g declares for the tensor name: a Parameter's, or an IR output
// port's; nil when it declares none or a sequence or map.
func declaredDims(g *graph.Graph, name string) []graph.DeclDim {
	if d, ok := g.Declared[name]; ok {
		return d.Dims
	}
	if i := slices.IndexFunc(g.Inputs, func(in graph.Input) bool { return in.Name == name }); i >= 0 {
		return g.Inputs[i].Decl.Dims
	}
	return nil
}

// attrInts returns the integers of the text attribute name of an IR layer ("7,7"); ok is false
// when it has none or one is not an integer.
func attrInts(n *graph.Node, name string) ([]int64, bool) {
	a, ok := n.Attr(name)
	if !ok || a.Kind != graph.AttrText {
		return nil, false
	}
	var out []int64
	for _, f := range strings.Split(a.Text, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}
