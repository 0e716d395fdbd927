package graph

import (
	"io"
	"math"

	"github.com/reshape-go/reshape/element"
)

// Graph is a model's computation graph in a form common to ONNX and OpenVINO IR: its inputs, its
// constants, its nodes, and the types and shapes it declares. Open reads one from a model file
// (and Close releases the file), FromONNX and FromIR build one from a decoded model; Infer infers
// the type and shape of every tensor from the inputs.
type Graph struct {
	// Name is the graph's name, for messages.
	Name string
	// Inputs are the graph's inputs (ONNX graph inputs that are not initializers, IR Parameters), in
	// order. A subgraph's inputs are its formal parameters (a Loop body's iteration number,
	// condition and loop-carried values).
	Inputs []Input
	// Outputs names the graph's outputs, in order.
	Outputs []string
	// Nodes are the graph's operations, in any order: Infer sorts them.
	Nodes []Node
	// Consts holds the constant tensors by name (ONNX initializers, IR Const layers).
	Consts map[string]*Const
	// Declared holds the types and shapes the model declares for tensors other than the inputs
	// (ONNX value_info and graph outputs, the output ports of IR layers). Inference compares its
	// results with them and never puts them in place of a result; it starts from a declaration only
	// for the output of a node that has no shape rule.
	Declared map[string]Decl
	// Ports, for a body of an OpenVINO TensorIterator, Loop or If (FromIR), maps the layer's ports
	// to the body's inputs and outputs; nil for other graphs.
	Ports *PortMap

	closer io.Closer // the model file Open holds, until Close
}

// PortMap is how an OpenVINO TensorIterator, Loop or If passes values to one of its bodies and
// takes them back, as its port map and back edges say (TensorIterator-1, Loop-5, If-8), by index:
// of the layer's inputs and outputs, and of the body's Inputs and Outputs.
type PortMap struct {
	// Inputs maps layer inputs to body inputs, Outputs body outputs to layer outputs.
	Inputs, Outputs []PortLink
	// BackEdges pass a body output's value to a body input at the next iteration.
	BackEdges []BackEdge
	// CurrentIteration is the body input that a Loop sets to the iteration's number, and
	// ExecutionCondition the body output that says whether it runs another; -1 for none.
	CurrentIteration, ExecutionCondition int
}

// PortLink links the layer's port Port (an input's or an output's index) with the body's input or
// output Body. With Sliced, a TensorIterator or Loop gives the body one part of the input along
// Axis per iteration, or concatenates the output's parts along Axis: from index Start to End
// (both included; negative ones count from the end of the axis), parts of PartSize elements, in
// the order of Stride's sign. Without, the input is the same at every iteration (or, the target of
// a back edge, the value of the first), and the output is the last iteration's.
type PortLink struct {
	Port, Body                         int
	Sliced                             bool
	Axis, Start, End, Stride, PartSize int64
}

// BackEdge passes the value of body output From to body input To at the next iteration.
type BackEdge struct{ From, To int }

// Input is one input of a graph: its name and what the model declares of it.
type Input struct {
	Name string
	Decl Decl
}

// Decl is a value's type as a model declares it: a tensor's element type and shape, or an ONNX
// sequence or map of what Seq or Map declares. Rank -1 means the rank is not declared; otherwise
// Dims holds Rank dims. Optional marks an ONNX optional of the value the other fields declare (of
// a tensor, the type and shape are those of the tensor it may hold).
type Decl struct {
	Type     element.Type
	Rank     int
	Dims     []DeclDim
	Optional bool
	// Seq, when not nil, declares a sequence whose elements Seq declares (seq(tensor(float)));
	// Map, when not nil, a map of Key keys whose values Map declares (map(int64, tensor(float))).
	// Type is then element.Undefined and Rank -1.
	Seq, Map *Decl
	Key      element.Type
}

// Tensors returns the declaration of the tensors d holds: d itself for a tensor, a sequence's
// elements', a map's values' (of a sequence of maps, the maps' values).
func (d Decl) Tensors() Decl {
	for {
		switch {
		case d.Seq != nil:
			d = *d.Seq
		case d.Map != nil:
			d = *d.Map
		default:
			return d
		}
	}
}

// Unknown returns the declaration of nothing: no type (element.Undefined), no rank (Rank -1).
func Unknown() Decl { return Decl{Rank: -1} }

// DeclDim is one declared dimension: the interval [Lo, Hi] of its values in elements (Lo == Hi for
// a static dim, [0, Inf] when nothing is declared) and the name the model gives it (ONNX dim_param,
// "" when none). Inference turns a named dim into a symbol of that name, and an unnamed dynamic dim
// of a graph input into the symbol INPUT:AXIS. Batch reports that the model marks the dim as its
// batch, which Options.BatchSize binds static or not, as OpenVINO's set_batch does: ONNX's
// denotation DATA_BATCH; of an IR Parameter, the N of its port's layout, or its leading dim when
// the port has no layout (OpenVINO's set_batch itself wants a layout; a layout without N marks none).
type DeclDim struct {
	Lo, Hi int64
	Name   string
	Batch  bool
}

// Inf is the upper bound of a dimension interval that has none.
const Inf = math.MaxInt64

// StaticDim returns the declared static dim n.
func StaticDim(n int64) DeclDim { return DeclDim{Lo: n, Hi: n} }

// NamedDim returns the declared dim named name, of bounds [0, Inf].
func NamedDim(name string) DeclDim { return DeclDim{Hi: Inf, Name: name} }

// Node is one operation: its type in its domain at a version, its inputs and outputs by tensor
// name, and its attributes.
type Node struct {
	// Name is the node's name in the model ("" when it has none).
	Name string
	// Op is the operator: an ONNX op_type ("Conv"), an IR layer type ("ShapeOf").
	Op string
	// Domain is the operator set: "" for ONNX's default domain (ai.onnx), DomainOpenVINO for IR
	// layers, or another ONNX domain as the model names it.
	Domain string
	// Version is the version of the domain's operator set the node is bound to: the model's opset
	// import for ONNX, the layer's opsetN for IR.
	Version int64
	// Inputs and Outputs name tensors; "" is an optional input or output left out.
	Inputs, Outputs []string
	Attrs           []Attr
}

// DomainOpenVINO is the Domain of the nodes FromIR builds.
const DomainOpenVINO = "openvino"

// Attr returns the attribute named name.
func (n *Node) Attr(name string) (*Attr, bool) {
	for i := range n.Attrs {
		if n.Attrs[i].Name == name {
			return &n.Attrs[i], true
		}
	}
	return nil, false
}

// AttrKind is the type of an attribute's value.
type AttrKind uint8

// The kinds of attribute values. An ONNX attribute has a typed value; an IR attribute is text
// (AttrText), which the rules read as the type they want.
const (
	AttrInt AttrKind = iota + 1
	AttrInts
	AttrFloat
	AttrFloats
	AttrString
	AttrStrings
	AttrTensor
	AttrGraph
	AttrGraphs
	AttrText
	AttrOther // a value inference does not read (sparse tensors, type protos)
)

var attrKindNames = [...]string{"", "INT", "INTS", "FLOAT", "FLOATS", "STRING", "STRINGS", "TENSOR", "GRAPH", "GRAPHS", "TEXT", "OTHER"}

// String returns the kind's name as onnx.proto spells it ("INT", "FLOATS"), "TEXT" for an IR
// attribute.
func (k AttrKind) String() string {
	if int(k) < len(attrKindNames) && k != 0 {
		return attrKindNames[k]
	}
	return "UNDEFINED"
}

// Attr is one attribute of a node: its name, kind and the value of that kind.
type Attr struct {
	Name    string
	Kind    AttrKind
	Int     int64
	Ints    []int64
	Float   float64
	Floats  []float64
	String  string
	Strings []string
	Tensor  *Const
	Graph   *Graph
	Graphs  []*Graph
	Text    string
}

// Const is a constant tensor: its element type, its shape, and a way to read its elements.
type Const struct {
	Name string
	Type element.Type
	Dims []int64
	// Load returns the constant's elements in row-major order, as ints for integer and boolean
	// types or as floats for floating-point types, reading at most limit elements: a larger
	// constant is an error wrapping errcode.ErrLimit, and so is external data past the model's
	// limits. Other types give an error wrapping errcode.ErrDataType. Load may read a file.
	Load func(limit int64) (ints []int64, floats []float64, err error)
}
