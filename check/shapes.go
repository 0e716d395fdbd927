package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// Inferred is the verdict of a row whose model declares nothing to compare the inferred shape with.
const Inferred Verdict = "inferred"

// Tensor is one tensor of a model and what graph inference found of it: its element type and shape,
// beside what the model declares.
type Tensor struct {
	// Graph is the path of the subgraph the tensor belongs to ("If_3/then_branch"), "" for the main
	// graph.
	Graph string `json:"graph,omitempty"`
	Name  string `json:"name"`
	// Node is the path of the node that outputs the tensor, and Op its operator; both "" for a
	// graph input or a constant.
	Node string `json:"node,omitempty"`
	Op   string `json:"op,omitempty"`
	// Type is the inferred element type; undefined when not known.
	Type  element.Type `json:"type"`
	Shape sym.Shape    `json:"shape"`
	// Declared is the shape the model declares (ONNX value_info or graph output, an IR port), nil
	// when it declares none.
	Declared *sym.Shape `json:"declared,omitempty"`
	// Verdict is OK (the declared shape can be the inferred one), Mismatch (it cannot), Inferred
	// (nothing declared, or nothing inferred: an unknown rank), Stale (a declaration for input
	// shapes the bindings changed), Unknown (downstream of an error), or the error code of the node
	// whose rule refused its inputs.
	Verdict Verdict `json:"verdict"`
	Message string  `json:"message,omitempty"`
}

// Shapes is the shape of every tensor of a model, as Infer finds it.
type Shapes struct {
	File    string
	Tensors []Tensor
	// Unsupported counts the nodes without a shape rule by operator: their outputs are unknown, or
	// as the model declares them.
	Unsupported map[string]int
	// Symbols lists the model's symbols, in the order they were met.
	Symbols []string
	// Result is the engine's result, and Graph the graph it ran.
	Result *graph.Result
	Graph  *graph.Graph

	model *onnx.Model // the ONNX model, mapped until Close, for WithValueInfo
}

// BytesRead returns how many bytes of the model file were read: its structure, and the values of
// the constants inference read (onnx.Model.BytesRead).
func (s *Shapes) BytesRead() int64 { return s.model.BytesRead() }

// Close releases the model file InferShapes mapped. Graph's constants and WithValueInfo read it, so
// Close comes after them; the tensors and the result stay valid.
func (s *Shapes) Close() error { return s.model.Close() }

// InferShapes infers the shape of every tensor of the model file at path (ONNX .onnx; the
// formats of File), with the bindings of opt (Options.Dims, Options.Inputs), and compares each
// with the shape the model declares. The error is File's for a file that cannot be read, or
// graph.Infer's for a graph that cannot be run.
//
// The model file is mapped, and only the bytes its shapes need are read, within Options.MaxFileSize
// (as File reads it); it stays mapped until Shapes.Close.
func InferShapes(path string, opt Options) (*Shapes, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, err
	case st.IsDir():
		return nil, checkModelFile(path, st, opt)
	case !strings.EqualFold(filepath.Ext(path), ".onnx"):
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: not an ONNX model (.onnx)", path)
	}
	m, err := openONNX(path, opt)
	if err != nil {
		return nil, err
	}
	g, res, err := inferONNX(m, path, opt)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &Shapes{File: path, Unsupported: res.Unsupported, Symbols: res.Symbols.Names(), Result: res, Graph: g, model: m}
	for _, in := range g.Inputs {
		info := res.Tensors[in.Name]
		s.Tensors = append(s.Tensors, Tensor{Name: in.Name, Type: info.Type, Shape: info.Shape, Verdict: Inferred})
	}
	for _, r := range res.Nodes {
		for k, name := range r.Node.Outputs {
			if name == "" || r.Outputs[k] == nil {
				continue
			}
			t := Tensor{Graph: r.Scope, Name: name, Node: r.Path, Op: r.Node.Op, Type: r.Outputs[k].Type, Shape: r.Outputs[k].Shape}
			if d, dt, ok := res.Declared(r.Graph, name); ok {
				t.Declared = &d
				if dt != element.Undefined && t.Type == element.Undefined && r.Err == nil && r.Blocked == "" {
					t.Type = dt
				}
			}
			switch {
			case r.Blocked != "":
				t.Verdict, t.Message = Unknown, downstream(r.Blocked)
			case r.Err != nil:
				t.Verdict, t.Message = verdictOf(r.Err), r.Err.Error()
			case t.Declared == nil:
				t.Verdict = Inferred
			case r.Outputs[k].FromDecl:
				t.Verdict, t.Message = Inferred, "no shape rule for "+r.Node.Op+": the shape is the model's declaration"
			case t.Shape.RankDynamic:
				t.Verdict, t.Message = Inferred, "the rules give a shape of unknown rank: nothing to compare the declaration with"
			case !compatible(t.Shape, *t.Declared) && opt.rebinds(false):
				t.Verdict, t.Message = Stale, staleDeclaration(*t.Declared, t.Shape)
			case !compatible(t.Shape, *t.Declared):
				t.Verdict = Mismatch
				t.Message = "the model declares " + t.Declared.String() + ", inference gives " + t.Shape.String()
			default:
				t.Verdict = OK
			}
			s.Tensors = append(s.Tensors, t)
		}
	}
	return s, nil
}

// compatible reports whether the declared shape can be the inferred one: the same rank, and each
// pair of dims known equal or with bounds that meet. A dynamic rank on either side is compatible.
func compatible(inferred, declared sym.Shape) bool {
	if inferred.RankDynamic || declared.RankDynamic {
		return true
	}
	if len(inferred.Dims) != len(declared.Dims) {
		return false
	}
	for i, d := range inferred.Dims {
		e := declared.Dims[i]
		if !d.Equal(e) && !d.Compatible(e) {
			return false
		}
		if a, ok1 := d.Static(); ok1 {
			if b, ok2 := e.Static(); ok2 && a != b {
				return false
			}
		}
	}
	return true
}

// WithValueInfo returns the ONNX model with the inferred shape of every tensor of its main graph
// that it does not declare added as value_info, as onnx.shape_inference.infer_shapes_path writes
// them: static dims as dim_value, dims that are expressions in the model's symbols as dim_param
// ("B*T", "(H+1)//2"), other dims unnamed, a dynamic rank without a shape. Viewers such as Netron
// and onnxruntime's optimizers read them.
func (s *Shapes) WithValueInfo() ([]byte, error) {
	declared := map[string]bool{}
	for _, in := range s.Graph.Inputs {
		declared[in.Name] = true
	}
	for name := range s.Graph.Consts {
		declared[name] = true
	}
	for name := range s.Graph.Declared {
		declared[name] = true
	}
	var vis []onnx.ValueInfo
	for _, t := range s.Tensors {
		if t.Graph != "" || declared[t.Name] || t.Verdict.IsError() {
			continue
		}
		vi := onnx.ValueInfo{Name: t.Name, Shape: t.Shape.Partial()}
		if dt, err := onnx.DataTypeOf(t.Type); err == nil {
			vi.ElemType = dt
		}
		if !t.Shape.RankDynamic {
			vi.DimParams = make([]string, len(t.Shape.Dims))
			for i, d := range t.Shape.Dims {
				if _, static := d.Static(); static {
					continue
				}
				vi.Shape.Dims[i] = shape.Dynamic
				if d.Determined() {
					vi.DimParams[i] = d.String()
				}
			}
		}
		vis = append(vis, vi)
	}
	return onnx.AddValueInfo(s.model.Bytes(), vis)
}
