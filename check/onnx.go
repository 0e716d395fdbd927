package check

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
)

// MaxModelBytes bounds the size of an ONNX model read into memory: 2 GiB, protobuf's own limit.
const MaxModelBytes = 2 << 30

// ONNXFile checks the ONNX model read from r; name is the file name the rows carry.
func ONNXFile(r io.Reader, name string, opt Options) ([]Row, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxModelBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxModelBytes {
		return nil, errcode.Errorf(errcode.ErrLimit, "the model is larger than %d bytes", MaxModelBytes)
	}
	m, err := onnx.DecodeModel(b)
	if err != nil {
		return nil, err
	}
	return ONNX(m, name, opt)
}

// ONNX checks every Reshape node of the model's main graph with the dialect onnx: Reshape-1 (opset
// below 5) takes its pattern from the shape attribute and copies zeros; Reshape-5 and later from its
// second input, an initializer, a Constant node, or a shape subgraph evaluated as far as constants
// and declared shapes allow; from Reshape-14 the allowzero attribute (default 0) turns special zeros
// off. The input and declared output shapes come from the graph's inputs, value_info and outputs
// (symbolic dimensions are "?"; a missing shape is a dynamic rank). A constant stored as external
// data is read from its file, relative to the directory of file, when its value is needed, within
// the bound of Options.MaxRank values; other external data, such as the weights, is never read. It
// returns an error when a node lacks what its version requires.
func ONNX(m *onnx.Model, file string, opt Options) ([]Row, error) {
	opset, ok := m.Opset("")
	if !ok {
		return nil, errcode.Errorf(errcode.ErrSyntax, "the model imports no opset of the default ONNX domain")
	}
	ev := newONNXEval(&m.Graph, filepath.Dir(file), opset, opt.maxRank())
	var rows []Row
	for i := range m.Graph.Nodes {
		n := &m.Graph.Nodes[i]
		if n.OpType != "Reshape" || (n.Domain != "" && n.Domain != "ai.onnx") {
			continue
		}
		s, err := onnxSite(ev, n, i, opset, opt)
		if err != nil {
			return nil, fmt.Errorf("node %d (%q, Reshape): %w", i, n.Name, err)
		}
		rows = append(rows, s.Check(file))
	}
	return rows, nil
}

// ONNXReshape is what an ONNX Reshape node says of itself, read by ReadONNXReshape.
type ONNXReshape struct {
	// Version is the version of Reshape that the model's opset holds: 1, 5, 13, 14, 19 or 21.
	Version int64
	// Options has the dialect onnx and special_zero from allowzero (Reshape-14 and later, default 0;
	// before, zeros are always copied).
	Options reshape.Options
	// Shape is the shape attribute of Reshape-1, the pattern; nil from Reshape-5 on.
	Shape []int64
	// Data names the node's data input, Pattern its shape input (Reshape-5 and later, "" before),
	// and Output its output.
	Data, Pattern, Output string
}

// ReadONNXReshape reads the Reshape node n of a model that imports version opset of the default ONNX
// domain (ONNX Reshape-1, -5, -13, -14, -19, -21): its inputs and output, its shape attribute
// (Reshape-1) and its allowzero (Reshape-14 and later, through reshape.SpecialZero). The error wraps
// errcode.ErrSyntax for a node that lacks what its version requires or has what it does not define
// (allowzero before Reshape-14, an allowzero other than 0 or 1).
func ReadONNXReshape(n *onnx.Node, opset int64) (ONNXReshape, error) {
	r := ONNXReshape{Version: reshapeVersion(opset), Options: reshape.Options{Dialect: reshape.ONNX, SpecialZero: true}}
	if len(n.Inputs) == 0 || n.Inputs[0] == "" || len(n.Outputs) == 0 {
		return r, errcode.Errorf(errcode.ErrSyntax, "%d inputs and %d outputs", len(n.Inputs), len(n.Outputs))
	}
	r.Data, r.Output = n.Inputs[0], n.Outputs[0]
	if a, ok := n.Attr("allowzero"); ok {
		if r.Version < 14 {
			return r, errcode.Errorf(errcode.ErrSyntax, "allowzero is an attribute of Reshape-14 and later, and the model imports opset %d", opset)
		}
		sz, err := reshape.SpecialZero(reshape.ONNX, nil, &a.I)
		if err != nil {
			return r, err
		}
		r.Options.SpecialZero = sz
	}
	if r.Version == 1 {
		a, ok := n.Attr("shape")
		if !ok {
			return r, errcode.Errorf(errcode.ErrSyntax, "Reshape-1 has no shape attribute")
		}
		r.Shape = a.Ints
		if r.Shape == nil {
			r.Shape = []int64{}
		}
		return r, nil
	}
	if len(n.Inputs) < 2 || n.Inputs[1] == "" {
		return r, errcode.Errorf(errcode.ErrSyntax, "Reshape-%d takes the shape as input 1, and the node has none", r.Version)
	}
	r.Pattern = n.Inputs[1]
	return r, nil
}

func onnxSite(ev *onnxEval, n *onnx.Node, index int, opset int64, opt Options) (*Site, error) {
	node, err := ReadONNXReshape(n, opset)
	if err != nil {
		return nil, err
	}
	s := &Site{
		ID: strconv.Itoa(index), Name: n.Name, Op: "Reshape-" + strconv.FormatInt(node.Version, 10),
		Options: node.Options, Input: ev.shapeOf(node.Data), Declared: ev.shapeOf(node.Output),
	}
	s.Options.MaxRank = opt.MaxRank
	if node.Shape != nil {
		s.Pattern, s.PatternSource = reshape.IntPattern(node.Shape...), PatternConst
		return s, nil
	}
	name := node.Pattern
	if t, ok := ev.patternType(name); ok {
		s.Options.PatternType = t
	}
	v, source, err := ev.value(name, 0)
	switch {
	case err == nil:
		p, err := reshape.NewPattern(shape.OfInts(v.Shape...), v.Elems)
		if err != nil {
			return nil, err
		}
		s.Pattern, s.PatternSource = p, PatternComputed
		if source == "" {
			s.PatternSource = PatternConst
		} else {
			s.Note = "the pattern is computed by " + source
		}
	case errors.Is(err, bounds.ErrUnknown), errors.Is(err, errcode.ErrLimit):
		s.Pattern, s.PatternSource = reshape.UnknownPattern(ev.shapeOf(name)), PatternUnknown
		s.Note = "the pattern is not constant (" + err.Error() + "), so it is inferred with its values unknown"
	default:
		return nil, err
	}
	return s, nil
}

// reshapeVersion returns the version of Reshape an opset holds: 1, 5, 13, 14, 19 or 21.
func reshapeVersion(opset int64) int64 {
	v := int64(1)
	for _, since := range []int64{5, 13, 14, 19, 21} {
		if opset >= since {
			v = since
		}
	}
	return v
}
