package graph

import "slices"

// The order a runtime runs a model's nodes in decides where a run that several nodes would refuse
// stops: at the first of them in that order. For ONNX it is the order of onnxruntime's sequential
// executor (1.20, graph optimizations off, the default execution order), which is not the order of
// the file: a depth-first walk up from the graph's leaves (nodes whose outputs no node reads), the
// last leaf first, that at each node walks up its producers from the last in the file to the
// first and runs a node once every producer has run. Of two branches that meet at a Concat, the
// branch whose last node comes later in the file runs first; of two independent outputs, the one
// computed later in the file. A Constant node is not run (onnxruntime makes it an initializer when
// it loads the model). A node that holds subgraphs runs them when it runs: their nodes come just
// before it, each subgraph's in the same order, the subgraphs (an If's branches) in the order
// inference met them. Other dialects run in the order of Nodes.

// RunSeq returns the position of Nodes[i] in the order a runtime runs the model's nodes, from 0:
// for an ONNX model onnxruntime's (see above), else i. It is the Seq of the conditions' origins
// (sym.Origin.Seq), so that the first condition a binding breaks, by Seq, names the node where a
// run stops. i must be an index of Nodes.
func (r *Result) RunSeq(i int) int {
	return r.runFacts().run[i]
}

// AtLoad reports whether a runtime refuses the model at the node Nodes[i] when it loads it,
// before any run and whatever the bindings, so that a run never reaches a node that RunSeq puts
// first: a node whose element types it refuses (TypeErr); and of an ONNX model inferred without
// bindings (no Options.Dims, Inputs or BatchSize), a node of the main graph whose inputs break its
// rule at every binding (Err, not Avoidable) where onnx's shape inference, which onnxruntime runs
// when it loads a model, sees the shapes of its inputs too: none of them depends on a sequence, a
// Loop, Scan or If, an operator of another domain or one without a shape rule, whose shapes that
// inference does not follow (torchaudio's WaveRNN export: an Unsqueeze of axis 3 of a rank-2
// input, refused at load; a Split whose sizes do not sum to its axis after a ConcatFromSequence,
// met by a run only).
func (r *Result) AtLoad(i int) bool {
	n := &r.Nodes[i]
	switch {
	case n.TypeErr != nil:
		return true
	case n.Err == nil || n.Avoidable || n.NotTaken || n.Scope != "" || r.e.rebinds():
		return false
	}
	return r.runFacts().seen[i]
}

// runFacts makes the order a runtime runs the nodes in, and which nodes onnx's shape inference
// sees the inputs of, once.
func (r *Result) runFacts() *facts {
	f := r.tree()
	f.runOnce.Do(func() { f.run, f.seen = r.runOrder() })
	return f
}

// opaque reports whether onnx's shape inference does not follow the shapes of the node n's
// outputs from its inputs: a sequence (in or out), a Loop, Scan or If, an operator of another
// domain, one without a shape rule.
func opaque(n *NodeResult) bool {
	switch n.Node.Op {
	case "Loop", "Scan", "If":
		return true
	}
	if n.Unsupported || n.Node.Domain != "" && n.Node.Domain != "ai.onnx" {
		return true
	}
	for _, in := range slices.Concat(n.Inputs, n.Outputs) {
		if in != nil && in.Seq != nil {
			return true
		}
	}
	return false
}

// runOrder returns the position of each node of Nodes in the order a runtime runs them (RunSeq),
// and for each node whether onnx's shape inference sees the shapes of its inputs (AtLoad): no
// node upstream of it is opaque.
func (r *Result) runOrder() (pos []int, seen []bool) {
	pos = make([]int, len(r.Nodes))
	seen = make([]bool, len(r.Nodes))
	var main *Graph
	byGraph := map[*Graph][]int{} // the nodes of each graph, indices in Nodes
	for i := range r.Nodes {
		n := &r.Nodes[i]
		if n.Node.Domain == DomainOpenVINO || n.Node.Domain == DomainOneDNN {
			for i := range pos {
				pos[i] = i
			}
			return pos, seen
		}
		if n.Scope == "" {
			main = n.Graph
		}
		byGraph[n.Graph] = append(byGraph[n.Graph], i)
	}
	f := r.tree()
	// The producers each node reads in its own graph: a node of a subgraph that reads a tensor of
	// a graph around it reads it through the node that holds the subgraph (an implicit input).
	producers := make([][]int, len(r.Nodes))
	for i := range r.Nodes {
		n := &r.Nodes[i]
		for k := range n.Node.Inputs {
			j, ok := r.producerIndex(n, k)
			if !ok || isConstantNode(r.Nodes[j].Node) {
				continue
			}
			c := i
			for c >= 0 && r.Nodes[c].Graph != r.Nodes[j].Graph {
				h, held := f.holder[r.Nodes[c].Graph]
				if !held {
					h = -1
				}
				c = h
			}
			if c >= 0 && c != j {
				producers[c] = append(producers[c], j)
			}
		}
	}
	next := 0
	done := make([]bool, len(r.Nodes))
	var run func(g *Graph)
	emit := func(i int) {
		var subs []*Graph
		for _, a := range r.Nodes[i].Node.Attrs {
			if a.Graph != nil {
				subs = append(subs, a.Graph)
			}
			subs = append(subs, a.Graphs...)
		}
		// Of an If's two branches a run takes one: they come in the order inference met them.
		subs = slices.DeleteFunc(subs, func(g *Graph) bool { return len(byGraph[g]) == 0 })
		slices.SortFunc(subs, func(a, b *Graph) int { return byGraph[a][0] - byGraph[b][0] })
		for _, g := range subs {
			run(g)
		}
		pos[i] = next
		next++
	}
	run = func(g *Graph) {
		nodes := byGraph[g]
		delete(byGraph, g) // a graph held twice runs once
		byIndex := func(a, b int) int { return r.Nodes[a].Index - r.Nodes[b].Index }
		read := make(map[int]bool, len(nodes))
		for _, i := range nodes {
			if isConstantNode(r.Nodes[i].Node) {
				pos[i] = next // an initializer: no run, before every node that reads it
				next++
				done[i] = true
				continue
			}
			for _, j := range producers[i] {
				read[j] = true
			}
		}
		type step struct {
			i     int
			leave bool
		}
		var stack []step
		leaves := slices.Clone(nodes)
		slices.SortFunc(leaves, byIndex)
		for _, i := range leaves {
			if !read[i] && !done[i] {
				stack = append(stack, step{i, false})
			}
		}
		seen := make(map[int]bool, len(nodes))
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch {
			case s.leave:
				emit(s.i)
				done[s.i] = true
			case !seen[s.i] && !done[s.i]:
				seen[s.i] = true
				stack = append(stack, step{s.i, true})
				in := slices.Clone(producers[s.i])
				slices.SortFunc(in, byIndex)
				for _, j := range in {
					stack = append(stack, step{j, false})
				}
			}
		}
	}
	if main != nil {
		run(main)
	}
	// Nodes no walk reached (of a subgraph whose holder the result does not hold): after the rest.
	for i := range r.Nodes {
		if !done[i] {
			pos[i] = next
			next++
		}
	}
	// A node is seen when every producer is seen and not opaque, in the order a run meets them.
	order := make([]int, len(pos))
	for i, p := range pos {
		order[p] = i
	}
	for _, i := range order {
		seen[i] = !slices.ContainsFunc(producers[i], func(j int) bool { return !seen[j] || opaque(&r.Nodes[j]) })
	}
	return pos, seen
}

// isConstantNode reports whether n is an ONNX Constant node, which onnxruntime makes an
// initializer.
func isConstantNode(n *Node) bool {
	return n.Op == "Constant" && (n.Domain == "" || n.Domain == "ai.onnx")
}
