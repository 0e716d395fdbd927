package fix

import (
	"fmt"
	"io"
	"slices"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
)

// source is the model Find reads, in its format (ONNX, OpenVINO IR): the graphs of its working
// copies, with the rewrites planned applied, and how the fixed model is written.
type source interface {
	// dialect is the dialect of the model's Reshapes.
	dialect() reshape.Dialect
	// names returns every name the model uses, which new nodes' names avoid.
	names() map[string]bool
	// refuses says why the Reshape nr, of the operator version version (graph.Reshape.Version),
	// cannot be rewritten in the format, "" when it can.
	refuses(nr *graph.NodeResult, version int64) string
	// setsZero reports whether a rewrite may set a Reshape's zero attribute to the one that
	// copies zeros (planned.zero).
	setsZero() bool
	// graph returns the graph of the model with the rewrites plans applied; final also leaves out
	// the old patterns' constants that nothing reads any more, as the written model does.
	graph(plans []planned, final bool) (*graph.Graph, error)
	// final makes plans the rewrites written, r0 the model's inference and r the fixed model's
	// (graph(plans, true)). It returns the graph of the fixed model as written when it differs
	// from graph(plans, true) (ONNX's declarations the rewrites make wrong, written again), nil
	// otherwise.
	final(plans []planned, r0, r *graph.Result) (*graph.Graph, error)
	// writable, write and writeWeights are Fix.Writable, Fix.WriteTo and Fix.WriteWeights.
	writable(dir string) error
	write(w io.Writer) (int64, error)
	writeWeights(w io.Writer) (int64, error)
}

// onnxSource is an ONNX model, whose external data files are named relative to dir.
type onnxSource struct {
	m    *onnx.Model
	dir  string
	edit onnx.GraphEdit // of the rewrites written
}

func (s *onnxSource) dialect() reshape.Dialect { return reshape.ONNX }
func (s *onnxSource) names() map[string]bool   { return names(&s.m.Graph) }
func (s *onnxSource) setsZero() bool           { return false }

func (s *onnxSource) refuses(nr *graph.NodeResult, version int64) string {
	if version == 1 {
		return fmt.Sprintf("Reshape-1 (opset %d) holds its pattern in an attribute, which fix does not rewrite", nr.Node.Version)
	}
	return ""
}

func (s *onnxSource) graph(plans []planned, final bool) (*graph.Graph, error) {
	if len(plans) == 0 {
		return graph.FromONNX(s.m, s.dir)
	}
	wm, _ := s.working(plans, final)
	return graph.FromONNX(wm, s.dir)
}

func (s *onnxSource) final(plans []planned, r0, r *graph.Result) (*graph.Graph, error) {
	wm, edit := s.working(plans, true)
	edit.Set = declarations(&s.m.Graph, r0, r)
	s.edit = edit
	if len(edit.Set) == 0 {
		return nil, nil
	}
	wm.Graph.ValueInfo, wm.Graph.Outputs = retyped(wm.Graph.ValueInfo, edit.Set), retyped(wm.Graph.Outputs, edit.Set)
	return graph.FromONNX(wm, s.dir)
}

func (s *onnxSource) writable(dir string) error {
	return onnx.CheckExternalDir(s.m.Graph.ExternalFiles(), s.dir, dir)
}

func (s *onnxSource) write(w io.Writer) (int64, error) {
	return onnx.WriteEdited(w, s.m.Bytes(), &s.edit)
}
func (s *onnxSource) writeWeights(io.Writer) (int64, error) { return 0, nil }

// working returns the model with the rewrites plans applied: their nodes inserted before their
// Reshapes, which read the new patterns; final also leaves out the old patterns' constants that
// nothing reads any more, as the written model does. It returns the edit that WriteTo makes of
// the same rewrites.
func (s *onnxSource) working(plans []planned, final bool) (*onnx.Model, onnx.GraphEdit) {
	e := onnx.GraphEdit{Insert: map[int][]onnx.Node{}, Inputs: map[int]map[int]string{}}
	renamed := map[int]string{}
	for _, p := range plans {
		e.Insert[p.index] = p.nodes
		e.Inputs[p.index] = map[int]string{1: p.pattern}
		renamed[p.index] = p.pattern
	}
	og := s.m.Graph
	if final {
		e.RemoveNodes, e.RemoveInitializers = unread(&og, renamed)
	}
	nodes := make([]onnx.Node, 0, len(og.Nodes)+len(plans)*4)
	for i := range og.Nodes {
		nodes = append(nodes, e.Insert[i]...)
		if e.RemoveNodes[i] {
			continue
		}
		n := og.Nodes[i]
		if name, ok := renamed[i]; ok {
			n.Inputs = slices.Clone(n.Inputs)
			n.Inputs[1] = name
		}
		nodes = append(nodes, n)
	}
	og.Nodes = nodes
	if len(e.RemoveInitializers) > 0 {
		og.Initializers = slices.DeleteFunc(slices.Clone(og.Initializers), func(t onnx.Tensor) bool { return e.RemoveInitializers[t.Name] })
	}
	wm := *s.m
	wm.Graph = og
	return &wm, e
}

// unread returns the old patterns (of the Reshapes renamed, by node index) that nothing reads once
// they are renamed: the Constant nodes that output them and the initializers that hold them (not
// graph inputs), to leave out.
func unread(g *onnx.Graph, renamed map[int]string) (map[int]bool, map[string]bool) {
	count := map[string]int{}
	for i := range g.Nodes {
		for _, name := range onnxReads(&g.Nodes[i], nil) {
			count[name]++
		}
	}
	for _, o := range g.Outputs {
		count[o.Name]++
	}
	for i := range renamed {
		count[g.Nodes[i].Inputs[1]]--
	}
	nodes, inits := map[int]bool{}, map[string]bool{}
	for i := range renamed {
		old := g.Nodes[i].Inputs[1]
		if count[old] > 0 {
			continue
		}
		if k := slices.IndexFunc(g.Nodes, func(n onnx.Node) bool { return n.OpType == "Constant" && slices.Equal(n.Outputs, []string{old}) }); k >= 0 {
			nodes[k] = true
		}
		if _, ok := g.Initializer(old); ok && !slices.ContainsFunc(g.Inputs, func(vi onnx.ValueInfo) bool { return vi.Name == old }) {
			inits[old] = true
		}
	}
	return nodes, inits
}

// onnxReads appends to names the tensors an ONNX node reads, its subgraphs' nodes included.
func onnxReads(n *onnx.Node, names []string) []string {
	names = append(names, n.Inputs...)
	for _, a := range n.Attrs {
		gs := a.Graphs
		if a.G != nil {
			gs = append(slices.Clip(gs), *a.G)
		}
		for k := range gs {
			for i := range gs[k].Nodes {
				names = onnxReads(&gs[k].Nodes[i], names)
			}
		}
	}
	return names
}

// names returns every name the graph g and its subgraphs use: nodes, tensors, value infos.
func names(g *onnx.Graph) map[string]bool {
	out := map[string]bool{}
	var walk func(g *onnx.Graph)
	walk = func(g *onnx.Graph) {
		for _, list := range [][]onnx.ValueInfo{g.Inputs, g.Outputs, g.ValueInfo} {
			for _, vi := range list {
				out[vi.Name] = true
			}
		}
		for _, t := range g.Initializers {
			out[t.Name] = true
		}
		for i := range g.Nodes {
			n := &g.Nodes[i]
			out[n.Name] = true
			for _, s := range append(slices.Clip(n.Inputs), n.Outputs...) {
				out[s] = true
			}
			for _, a := range n.Attrs {
				if a.G != nil {
					walk(a.G)
				}
				for k := range a.Graphs {
					walk(&a.Graphs[k])
				}
			}
		}
	}
	walk(g)
	return out
}

// retyped returns the value infos vis with those that set names replaced, in a new slice.
func retyped(vis []onnx.ValueInfo, set map[string]onnx.ValueInfo) []onnx.ValueInfo {
	out := slices.Clone(vis)
	for i, vi := range out {
		if nv, ok := set[vi.Name]; ok {
			out[i] = nv
		}
	}
	return out
}

// declarations returns the value infos of g (its value_info and outputs) to write again: those
// that declare a static dim that the model r0 infers too and the fixed model r does not, which
// becomes the inferred one (an integer, an expression in the symbols as a dim_param, else an unnamed
// dim). A declaration the model already contradicts is left as it is: fix is not for it.
func declarations(g *onnx.Graph, r0, r *graph.Result) map[string]onnx.ValueInfo {
	set := map[string]onnx.ValueInfo{}
	for _, list := range [][]onnx.ValueInfo{g.ValueInfo, g.Outputs} {
		for _, vi := range list {
			was, now := r0.Tensor(vi.Name), r.Tensor(vi.Name)
			if was == nil || now == nil || vi.Shape.RankDynamic || !sameRank(len(vi.Shape.Dims), was.Shape, now.Shape) {
				continue
			}
			nv, changed := vi, false
			nv.Shape.Dims = slices.Clone(vi.Shape.Dims)
			nv.DimParams = make([]string, len(vi.Shape.Dims))
			copy(nv.DimParams, vi.DimParams)
			for k, d := range vi.Shape.Dims {
				n, ok := d.Static()
				m0, static0 := was.Shape.Dims[k].Static()
				in := now.Shape.Dims[k]
				if m, static := in.Static(); !ok || !static0 || m0 != n || static && m == n {
					continue
				}
				changed = true
				nv.Shape.Dims[k], nv.DimParams[k] = shape.Interval(0, shape.Inf), ""
				if e, ok := in.Expr(); ok && in.Determined() {
					nv.DimParams[k] = e.String()
				}
			}
			if changed {
				set[vi.Name] = nv
			}
		}
	}
	return set
}
