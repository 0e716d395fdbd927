package graph

import (
	"slices"
	"sync"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// The facts of a result that its nodes' results do not hold one by one: what a Reshape rule read
// of its node, which node outputs a node's input, where a node lies in Result.Nodes, and which If
// avoids a node's error. They are read from the structure of the result (the graphs the nodes
// belong to and the nodes that hold them), never from the spelling of paths.

// PatternSource says where a Reshape's pattern comes from.
type PatternSource uint8

const (
	// PatternConst is a constant: ONNX Reshape-1's shape attribute, an initializer or a Constant
	// node's output, an IR Const layer.
	PatternConst PatternSource = iota
	// PatternComputed is computed by a shape subgraph (Shape → Gather → Concat) whose values
	// inference knows, exactly or as expressions in the model's symbols.
	PatternComputed
	// PatternUnknown is known at run time only: the Reshape is inferred with its values unknown.
	PatternUnknown
)

var patternSourceNames = [...]string{"const", "computed", "unknown"}

// String returns "const", "computed" or "unknown".
func (s PatternSource) String() string {
	if int(s) < len(patternSourceNames) {
		return patternSourceNames[s]
	}
	return "PatternSource(" + itoa(int(s)) + ")"
}

// Reshape is what the Reshape rule of a node reads of it (ONNX Reshape-1 to -21 of the default
// domain, OpenVINO Reshape-1), as Result.Reshape gives it: its options and version, and its data
// input and pattern as inferred.
type Reshape struct {
	// Options are the reshape options the rule applies: the dialect (reshape.ONNX or
	// reshape.OpenVINO), the zero attribute (ONNX's allowzero as AllowZero, 0 by default and
	// before Reshape-14; OpenVINO's required special_zero as SpecialZero), the pattern's element
	// type when inference knows it, and Options.MaxRank of Infer.
	Options reshape.Options
	// Version is the operator's version: ONNX's Reshape-1, -5, -13, -14, -19 or -21, which the
	// node's opset holds (reshape.ONNXVersion), or 1 for OpenVINO's Reshape-1.
	Version int64
	// Input is the data input's shape, as inferred; Pattern the pattern's values in row-major
	// order (an integer, an expression in the model's symbols or an interval each), nil when they
	// are unknown; PatternShape the pattern tensor's shape ([n] for Reshape-1's attribute of n
	// values, [] for OpenVINO's scalar pattern).
	Input        sym.Shape
	Pattern      []sym.Dim
	PatternShape shape.Shape
	// Source says where the pattern comes from.
	Source PatternSource
	// PatternErr, when not nil, says why the values of an IR Const pattern could not be read: more
	// values than Options.MaxRank (errcode.ErrLimit), a value past the int64 range
	// (errcode.ErrOverflow), or the error of reading the .bin. Pattern is nil then.
	PatternErr error
	// Err, when not nil, says why the node does not follow its operator's form, an error wrapping
	// errcode.ErrSyntax: it lacks what its version requires (a data input and an output, ONNX
	// Reshape-1's shape attribute, the pattern input from Reshape-5 on, OpenVINO's special_zero) or
	// has what it does not define (allowzero before ONNX Reshape-14, one other than 0 or 1). The
	// fields but Options and Version are not set then.
	Err error
}

// ReadReshape reads the Reshape node n (ONNX's Reshape of the default domain, an IR layer of type
// Reshape, oneDNN's StaticReshape and DynamicReshape) as its rule does, with the one reading of
// its options: Options (the dialect and the zero attribute), Version, and for ONNX Reshape-1 and
// oneDNN's StaticReshape the values of its shape attribute as Pattern and PatternShape; or Err. What inference gives (the input, the pattern's values and element type, the
// source) is Result.Reshape's. ok is false for a node of another operator.
func ReadReshape(n *Node) (f Reshape, ok bool) {
	if n.Domain == DomainOneDNN && (n.Op == "StaticReshape" || n.Op == "DynamicReshape") {
		var attr []int64
		f.Options, attr, f.Err = readOneDNNReshape(n)
		f.Version = 1
		if f.Err == nil && attr != nil {
			f.Pattern, f.PatternShape = constDims(attr), shape.OfInts(int64(len(attr)))
		}
		return f, true
	}
	if n.Op != "Reshape" {
		return f, false
	}
	switch n.Domain {
	case "", "ai.onnx":
		var attr []int64
		f.Options, f.Version, attr, f.Err = readONNXReshape(n)
		if f.Err == nil && f.Version == 1 {
			f.Pattern, f.PatternShape = constDims(attr), shape.OfInts(int64(len(attr)))
		}
	case DomainOpenVINO:
		f.Options, f.Err = readOVReshape(n)
		f.Version = 1
	default:
		return f, false
	}
	return f, true
}

// Reshape returns what the Reshape rule of the node n of the result reads of it (ReadReshape), and
// what inference gives of its inputs, whether the rule ran or not (a node downstream of an error,
// NodeResult.Blocked, was not inferred, yet its options are its own); ok is false for a node of
// another operator. Options holds the pattern's element type when inference knows it, and
// Options.MaxRank of Infer. The pattern comes from a constant (ONNX Reshape-1's attribute, an
// initializer of the node's graph, a Constant node, an IR Const layer), is computed (a node of
// another operator outputs it and its values are known), or is unknown. An IR Const pattern whose
// values inference did not keep is read again from the model's .bin, within Options.MaxRank values:
// call Reshape before Graph.Close.
func (r *Result) Reshape(n *NodeResult) (f Reshape, ok bool) {
	if f, ok = ReadReshape(n.Node); !ok || f.Err != nil {
		return f, ok
	}
	f.Options.MaxRank = r.e.opt.MaxRank
	f.Input = n.Inputs[0].Shape
	switch {
	case f.Options.Dialect == reshape.OneDNNDynamic:
		p := n.Inputs[1]
		f.Options.PatternType, f.PatternShape, f.Source = p.Type, p.Shape.Partial(), PatternUnknown
	case f.Options.Dialect == reshape.OneDNNStatic:
		f.Options.PatternType = element.I64
	case f.Options.Dialect == reshape.OpenVINO:
		reshapeOV(r, n, &f)
	case f.Version > 1:
		reshapeONNX(r, n, &f)
	}
	return f, true
}

// reshapeONNX reads the pattern input of the ONNX Reshape n (Reshape-5 and later) into f.
func reshapeONNX(r *Result, n *NodeResult, f *Reshape) {
	p := n.Inputs[1]
	f.Pattern, f.PatternShape = p.Value, p.Shape.Partial()
	if p.Type != element.Undefined {
		f.Options.PatternType = p.Type
	}
	switch {
	case p.Value == nil:
		f.Source = PatternUnknown
	case n.Graph.Consts[n.Node.Inputs[1]] != nil:
	default:
		if src := r.Producer(n, 1); src != nil && src.Node.Op != "Constant" {
			f.Source = PatternComputed
		}
	}
}

// reshapeOV reads the pattern input of the OpenVINO Reshape n into f. A Const pattern of integers
// is read whole, within the rank bound, so that a pattern past it, or a value past int64, is
// f.PatternErr.
func reshapeOV(r *Result, n *NodeResult, f *Reshape) {
	p := n.Inputs[1]
	f.Options.PatternType = p.Type
	f.Pattern, f.PatternShape = p.Value, p.Shape.Partial()
	c := n.Graph.Consts[n.Node.Inputs[1]]
	switch {
	case c != nil && c.Load == nil: // an IR network read without its .bin
		f.Source = PatternUnknown
	case c != nil:
		if !c.Type.IsInteger() || p.Value != nil && len(p.Value) <= r.e.maxRank {
			return
		}
		f.Pattern = nil
		ints, _, err := c.Load(int64(r.e.maxRank))
		if err != nil {
			f.PatternErr = err
			return
		}
		f.Pattern = constDims(ints)
	case p.Value != nil:
		f.Source = PatternComputed
	default:
		f.Source = PatternUnknown
	}
}

// facts holds what the facts of a result are read from, each made on first use: the nesting of
// the subgraphs and the producers of tensors (tree), the index of each node by its path, and the
// graphs that hold a node whose inputs break its rule.
type facts struct {
	treeOnce, pathsOnce, failedOnce sync.Once
	runOnce                         sync.Once
	run                             []int             // each node's position in the order a runtime runs them (RunSeq)
	seen                            []bool            // onnx's shape inference sees the shapes of each node's inputs (AtLoad)
	holder                          map[*Graph]int    // the index in Nodes of the node that holds each subgraph
	prod                            map[tensorKey]int // the index in Nodes of the node that outputs each tensor
	paths                           map[string]int
	failed                          map[*Graph]bool // a node of the graph, or of a subgraph it holds, has an Err
}

// tensorKey names a tensor of one graph.
type tensorKey struct {
	g    *Graph
	name string
}

// tree makes the nesting of the subgraphs and the producers of the tensors, once.
func (r *Result) tree() *facts {
	f := &r.facts
	f.treeOnce.Do(func() {
		f.holder = map[*Graph]int{}
		f.prod = make(map[tensorKey]int, len(r.Nodes))
		for i := range r.Nodes {
			n := &r.Nodes[i]
			for _, out := range n.Node.Outputs {
				if out != "" {
					f.prod[tensorKey{n.Graph, out}] = i
				}
			}
			for _, a := range n.Node.Attrs {
				if a.Graph != nil {
					f.holder[a.Graph] = i
				}
				for _, sg := range a.Graphs {
					f.holder[sg] = i
				}
			}
		}
	})
	return f
}

// Producer returns the result of the node that outputs input k of the node n, in n's graph or
// in a graph that holds it (a subgraph reads the tensors of the graphs around it), nil when no node
// of the result outputs it: a graph input, a constant, an input n leaves out. A graph's own
// constant or input of a name hides a tensor of that name of the graphs around it, as inference
// reads it. Of a subgraph run several times (a Loop body), the result holds the nodes of the last
// run.
func (r *Result) Producer(n *NodeResult, k int) *NodeResult {
	if i, ok := r.producerIndex(n, k); ok {
		return &r.Nodes[i]
	}
	return nil
}

// producerIndex is Producer's index in Nodes; ok is false when Producer is nil.
func (r *Result) producerIndex(n *NodeResult, k int) (int, bool) {
	if k < 0 || k >= len(n.Node.Inputs) || n.Node.Inputs[k] == "" {
		return 0, false
	}
	f := r.tree()
	name := n.Node.Inputs[k]
	for g := n.Graph; ; {
		if i, ok := f.prod[tensorKey{g, name}]; ok {
			return i, true
		}
		h, ok := f.holder[g]
		if !ok || g.Consts[name] != nil || slices.ContainsFunc(g.Inputs, func(in Input) bool { return in.Name == name }) {
			return 0, false // the main graph's, or a subgraph's own
		}
		g = r.Nodes[h].Graph
	}
}

// NodeIndex returns the index in Nodes of the node at path (NodeResult.Path, as sym.Origin.Node
// names the node of a constraint); ok is false when the result holds no such node (a node of a
// branch not taken whose inputs break its rule). Of two nodes of one path, it is the later.
func (r *Result) NodeIndex(path string) (i int, ok bool) {
	f := &r.facts
	f.pathsOnce.Do(func() {
		f.paths = make(map[string]int, len(r.Nodes))
		for i := range r.Nodes {
			f.paths[r.Nodes[i].Path] = i
		}
	})
	i, ok = f.paths[path]
	return i, ok
}

// AvoidedBy says how a run avoids the node n, whose inputs break its rule in a branch of an If
// that a run can avoid (NodeResult.Avoidable): ifNode is the innermost If that holds n and whose
// other branch, takes ("then_branch" or "else_branch"), holds no node whose inputs break its
// rule, so that the model runs past n at these bindings when the If takes it. ok is false when
// every If that holds n has such a node in its other branch (an error a deeper If avoids): a run
// then avoids n when the Ifs take their other branches, as their conditions, known at run time
// only, say.
func (r *Result) AvoidedBy(n *NodeResult) (ifNode *NodeResult, takes string, ok bool) {
	t := r.tree()
	f := &r.facts
	f.failedOnce.Do(func() {
		f.failed = map[*Graph]bool{}
		for i := range r.Nodes {
			if r.Nodes[i].Err == nil {
				continue
			}
			for g := r.Nodes[i].Graph; !f.failed[g]; {
				f.failed[g] = true
				h, ok := t.holder[g]
				if !ok {
					break
				}
				g = r.Nodes[h].Graph
			}
		}
	})
	for g := n.Graph; ; {
		h, ok := t.holder[g]
		if !ok {
			return nil, "", false
		}
		holder := &r.Nodes[h]
		if holder.Node.Op == "If" {
			for _, a := range holder.Node.Attrs {
				if a.Kind == AttrGraph && a.Graph != nil && a.Graph != g && !f.failed[a.Graph] {
					return holder, a.Name, true
				}
			}
		}
		g = holder.Graph
	}
}
