package check

import (
	"fmt"

	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
)

// onnxEval evaluates the shape subgraphs of an ONNX graph: the value of a tensor, from initializers,
// Constant nodes and the shapes value_info declares, as far as it can be known before run time.
type onnxEval struct {
	g        *onnx.Graph
	dir      string // the model's directory, where its external data lies
	opset    int64
	maxElems int64
	producer map[string]int // tensor name → index of the node that outputs it
	memo     map[string]onnxResult
	visiting map[string]bool
}

type onnxResult struct {
	v      bounds.Value
	source string
	err    error
}

func newONNXEval(g *onnx.Graph, dir string, opset, maxElems int64) *onnxEval {
	e := &onnxEval{g: g, dir: dir, opset: opset, maxElems: maxElems, producer: map[string]int{}, memo: map[string]onnxResult{}, visiting: map[string]bool{}}
	for i, n := range g.Nodes {
		for _, out := range n.Outputs {
			if out != "" {
				e.producer[out] = i
			}
		}
	}
	return e
}

// shapeOf returns what the graph says of the shape of a tensor: an initializer's dims, or the shape
// of a graph input, value_info or graph output; a dynamic rank when nothing is said.
func (e *onnxEval) shapeOf(name string) shape.Shape {
	if t, ok := e.g.Initializer(name); ok {
		return shape.OfInts(t.Dims...)
	}
	if vi, ok := e.g.ValueInfoOf(name); ok {
		return vi.Shape
	}
	return shape.DynamicRank()
}

// patternType returns the element type of a tensor, when the graph says it.
func (e *onnxEval) patternType(name string) (element.Type, bool) {
	var dt onnx.DataType
	if t, ok := e.g.Initializer(name); ok {
		dt = t.DataType
	} else if vi, ok := e.g.ValueInfoOf(name); ok {
		dt = vi.ElemType
	} else if i, ok := e.producer[name]; ok && e.g.Nodes[i].OpType == "Constant" {
		if a, ok := e.g.Nodes[i].Attr("value"); ok && a.T != nil {
			dt = a.T.DataType
		} else {
			dt = onnx.DataType(7) // value_int(s): INT64
		}
	}
	t, err := dt.ElementType()
	return t, err == nil && dt != 0
}

// value returns the value of a tensor and what computes it ("" for an initializer or a Constant
// node). The error wraps bounds.ErrUnknown when the value depends on run-time data.
func (e *onnxEval) value(name string, depth int) (bounds.Value, string, error) {
	if r, ok := e.memo[name]; ok {
		return r.v, r.source, r.err
	}
	if e.visiting[name] {
		return bounds.Value{}, "", errcode.Errorf(errcode.ErrSyntax, "tensor %q depends on itself", name)
	}
	if depth > maxEvalDepth {
		return bounds.Value{}, "", fmt.Errorf("%w: the shape subgraph is deeper than %d nodes", bounds.ErrUnknown, maxEvalDepth)
	}
	e.visiting[name] = true
	v, source, err := e.eval(name, depth)
	delete(e.visiting, name)
	e.memo[name] = onnxResult{v, source, err}
	return v, source, err
}

func (e *onnxEval) eval(name string, depth int) (bounds.Value, string, error) {
	if t, ok := e.g.Initializer(name); ok {
		v, err := e.constant(t)
		return v, "", err
	}
	i, ok := e.producer[name]
	if !ok {
		return bounds.Value{}, "", fmt.Errorf("%w: %q is a graph input, known at run time", bounds.ErrUnknown, name)
	}
	n := &e.g.Nodes[i]
	if n.OpType == "Constant" {
		v, err := e.constantNode(n)
		return v, "", err
	}
	v, err := e.node(n, depth)
	return v, "a " + n.OpType + " node (" + name + ")", at(fmt.Sprintf("%s node %d (%q)", n.OpType, i, n.Name), err)
}

func (e *onnxEval) constant(t *onnx.Tensor) (bounds.Value, error) {
	n, err := shape.Volume(t.Dims)
	if err != nil {
		return bounds.Value{}, err
	}
	if n > e.maxElems {
		return bounds.Value{}, errcode.Errorf(errcode.ErrLimit, "tensor %q: %d elements exceed the limit of %d", t.Name, n, e.maxElems)
	}
	t, err = t.ReadExternal(e.dir, 8*e.maxElems)
	if err != nil {
		return bounds.Value{}, err
	}
	values, err := t.Ints()
	if err != nil {
		if errcode.Code(err) == errcode.ErrDataType.Error() {
			return bounds.Value{}, fmt.Errorf("%w: tensor %q holds %v", bounds.ErrUnknown, t.Name, t.DataType)
		}
		return bounds.Value{}, err
	}
	return bounds.Const(values, append([]int64{}, t.Dims...)...) // non-nil: a scalar stays a scalar
}

func (e *onnxEval) constantNode(n *onnx.Node) (bounds.Value, error) {
	if a, ok := n.Attr("value"); ok && a.T != nil {
		return e.constant(a.T)
	}
	if a, ok := n.Attr("value_int"); ok {
		return bounds.Const([]int64{a.I})
	}
	if a, ok := n.Attr("value_ints"); ok {
		return bounds.Const(a.Ints)
	}
	return bounds.Value{}, fmt.Errorf("%w: a Constant node %q of another kind", bounds.ErrUnknown, n.Name)
}

// node evaluates the shape operators of ONNX, at the versions the model's opset gives them.
func (e *onnxEval) node(n *onnx.Node, depth int) (bounds.Value, error) {
	in := operands{
		n:       len(n.Inputs),
		present: func(i int) bool { return n.Inputs[i] != "" },
		at: func(i int) (bounds.Value, error) {
			if i >= len(n.Inputs) || n.Inputs[i] == "" {
				return bounds.Value{}, fmt.Errorf("input %d is missing", i)
			}
			v, _, err := e.value(n.Inputs[i], depth+1)
			return v, err
		},
	}
	attrInt := func(name string, def int64) int64 {
		if a, ok := n.Attr(name); ok {
			return a.I
		}
		return def
	}
	attrInts := func(name string) []int64 {
		if a, ok := n.Attr(name); ok {
			return a.Ints
		}
		return nil
	}
	// axes: an attribute before opset version since, an optional input from it on.
	axes := func(since int64, i int) ([]int64, bool, error) {
		if e.opset < since {
			_, ok := n.Attr("axes")
			return attrInts("axes"), ok, nil
		}
		return in.ints(i, "axes")
	}
	switch n.OpType {
	case "Identity":
		return in.at(0)
	case "Shape":
		if len(n.Inputs) == 0 {
			return bounds.Value{}, fmt.Errorf("no input")
		}
		v, err := bounds.ShapeOf(e.shapeOf(n.Inputs[0]))
		if err != nil {
			return v, err
		}
		start, end := attrInt("start", 0), attrInt("end", int64(len(v.Elems)))
		if start == 0 && end == int64(len(v.Elems)) {
			return v, nil
		}
		return bounds.Slice(v, []int64{start}, []int64{end}, nil, nil)
	case "Cast":
		v, err := in.at(0)
		if err != nil {
			return v, err
		}
		t, err := onnx.DataType(attrInt("to", 0)).ElementType()
		if err != nil {
			return v, fmt.Errorf("%w: %v", bounds.ErrUnknown, err)
		}
		return bounds.Convert(v, t)
	case "Concat":
		vs, err := in.all()
		if err != nil {
			return bounds.Value{}, err
		}
		return bounds.Concat(vs, attrInt("axis", 0))
	case "Gather":
		data, indices, err := in.pair()
		if err != nil {
			return data, err
		}
		return bounds.Gather(data, indices, attrInt("axis", 0), 0)
	case "Squeeze", "Unsqueeze":
		a, _, err := axes(13, 1)
		if err != nil {
			return bounds.Value{}, err
		}
		return in.squeeze(n.OpType == "Unsqueeze", a)
	case "Slice":
		v, err := in.at(0)
		if err != nil {
			return v, err
		}
		if e.opset < 10 {
			return bounds.Slice(v, attrInts("starts"), attrInts("ends"), attrInts("axes"), nil)
		}
		var args [4][]int64
		for i, what := range []string{"starts", "ends", "axes", "steps"} {
			if args[i], _, err = in.ints(i+1, what); err != nil {
				return v, err
			}
		}
		return bounds.Slice(v, args[0], args[1], args[2], args[3])
	case "Add":
		return in.binary(bounds.Add)
	case "Sub":
		return in.binary(bounds.Subtract)
	case "Mul":
		return in.binary(bounds.Multiply)
	case "Div":
		return in.binary(bounds.DivideTrunc)
	case "ReduceProd":
		v, err := in.at(0)
		if err != nil {
			return v, err
		}
		a, given, err := axes(18, 1)
		if err != nil {
			return v, err
		}
		if !given && e.opset >= 18 && attrInt("noop_with_empty_axes", 0) != 0 {
			return v, nil
		}
		return bounds.ReduceProd(v, a, attrInt("keepdims", 1) != 0)
	}
	return bounds.Value{}, fmt.Errorf("%w: computed by a %s node at run time", bounds.ErrUnknown, n.OpType)
}
