package check

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// Tensor is one tensor of a model and what graph inference found of it: its element type and shape,
// beside what the model declares.
type Tensor struct {
	// Graph is the path of the subgraph the tensor belongs to ("If_3/then_branch"), "" for the main
	// graph.
	Graph string `json:"graph,omitempty"`
	// Name is the tensor's name: an ONNX model's, and for an OpenVINO IR network the names
	// attribute of the output port as the file writes it ("conv1/Relu", or a list "a,b"), else
	// LAYER:PORT, the layer's name and the port's id ("conv1:2"); a Parameter's output is named by
	// the Parameter, the name that Options.Inputs binds.
	Name string `json:"name"`
	// Node is the path of the node that outputs the tensor (an IR layer's name), and Op its
	// operator (the layer's type); both "" for a graph input or a constant.
	Node string `json:"node,omitempty"`
	Op   string `json:"op,omitempty"`
	// Type is the inferred element type; undefined when not known.
	Type  element.Type `json:"type"`
	Shape sym.Shape    `json:"shape"`
	// Optional marks an ONNX optional: Type and Shape are those of the tensor it may hold.
	Optional bool `json:"optional,omitempty"`
	// Value, for a value that is not a tensor, is its type in the notation of the README
	// (graph.Info.TypeString: "seq(f32[N,4])", "seq(map(i64,f32))", "map(i64,f32)"); Type and
	// Shape are then those of the tensors it holds (graph.Info.Tensors): a sequence's elements
	// (their join), a map's values. "" for a tensor.
	Value string `json:"value,omitempty"`
	// Length is the number of elements of a sequence (of the outer one, for a sequence of
	// sequences): an integer, an expression in the symbols or an interval; nil for a tensor or a
	// map.
	Length *sym.Dim `json:"length,omitempty"`
	// Declared is the shape the model declares (ONNX value_info or graph output, the dims of an IR
	// output port), nil when it declares none.
	Declared *sym.Shape `json:"declared,omitempty"`
	// Verdict is OK (the declared shape is the inferred one at every binding that satisfies the
	// constraints, a dim known only by its bounds meeting the other), Mismatch (it is not: the
	// message says when they are equal, if ever), Inferred (nothing declared, or nothing inferred:
	// an unknown rank), Stale (a declaration for input shapes the bindings changed), Unknown
	// (downstream of an error), or the error code of the node whose rule refused its inputs, or
	// that imposes a constraint the bindings break.
	Verdict Verdict `json:"verdict"`
	Message string  `json:"message,omitempty"`

	info *graph.Info // what inference found, for WithValueInfo
}

// Shapes is the shape of every tensor of a model, as Infer finds it.
type Shapes struct {
	File string
	// Dialect is the dialect of the model's Reshapes, which says its format: reshape.ONNX for an
	// ONNX model, reshape.OpenVINO for an OpenVINO IR network, reshape.OneDNNStatic for a oneDNN
	// Graph.
	Dialect reshape.Dialect
	Tensors []Tensor
	// Unsupported counts the nodes without a shape rule by operator: their outputs are unknown, or
	// as the model declares them.
	Unsupported map[string]int
	// Symbols lists the model's symbols, in the order they were met.
	Symbols []string
	// Conditions are what the model needs of its symbols to run, as Report's are.
	Conditions
	// Complete and Lost say whether the constraints are all the model needs, and where inference
	// lost precision when they may not be, as Report.Complete and Report.Lost do.
	Complete bool
	Lost     []Loss
	// Bindings says where the bindings of Options do less than they ask, or what a runtime
	// refuses, as Report.Bindings does.
	Bindings
	res      *graph.Result // the engine's result, and the graph it ran, for WithValueInfo
	g        *graph.Graph  // open until Close
	model    *onnx.Model   // the ONNX model g maps, for WithValueInfo; nil for an IR network
	weights  *ir.Weights   // the .bin of an IR network, open until Close
	xmlBytes int64         // the size of an IR network's .xml, read whole
	rebound  bool          // the bindings give the inputs other shapes (Dims, Inputs, BatchSize)
}

// Valid says at which bindings of its free symbols the model runs, as Report.Valid does: "never"
// when a tensor's verdict is an error, "when constraints hold" when the model states constraints,
// and "always" otherwise.
func (s *Shapes) Valid() Validity {
	return validity(slices.ContainsFunc(s.Tensors, func(t Tensor) bool { return t.Verdict.IsError() }), s.Stated())
}

// BytesRead returns how many bytes of the model's files were read: of an ONNX model, its structure
// and the values of the constants inference read (onnx.Model.BytesRead); of an IR network, its .xml,
// read whole, and the bytes of the constants inference read from its .bin (ir.Weights.BytesRead).
func (s *Shapes) BytesRead() int64 {
	if s.model != nil {
		return s.model.BytesRead()
	}
	if s.weights == nil { // a oneDNN Graph JSON file, read whole
		return s.xmlBytes
	}
	return s.xmlBytes + s.weights.BytesRead()
}

// Close releases the model's files InferShapes holds: the mapping of an ONNX model, the .bin of an
// IR network. Graph's constants and WithValueInfo read them, so Close comes after them; the tensors
// and the result stay valid. The error is the system's, for a file it could not release.
func (s *Shapes) Close() error { return s.g.Close() }

// InferShapes infers the shape of every tensor of the model file at path, an ONNX model, an
// OpenVINO IR network or a oneDNN Graph JSON file as graph.Open reads it (by extension, .onnx,
// .xml or .json, else by its first byte; an IR network's weights from Options.BinPath, or the .bin
// beside it), with the bindings of opt (Options.Dims, Options.Inputs, Options.BatchSize), and
// compares each with the shape the model declares: ONNX value_info and graph outputs, every IR
// output port's dims, every oneDNN logical tensor's shape (a tensor that two ops declare with
// shapes no tensor has both of is an error, invalid-shape, naming both places). Under bindings that
// give the inputs other shapes (Inputs and BatchSize; for an IR network or a oneDNN Graph, whose
// ports hold the numbers of one export, Dims too) a declaration the rules no longer give is Stale, as File judges
// it. The outputs of the node that imposes a constraint the bindings of Options.Dims break get its
// error ("N == 1 does not hold at N=2").
//
// Tensors lists the graph inputs (IR Parameters), then every output of every node in the order
// inference runs them, subgraphs included, as graph.Result.Tensors does; constants (ONNX
// initializers, IR Const layers) are not listed. An IR tensor is named as Tensor.Name says.
//
// Only the bytes the shapes need are read, within Options.MaxFileSize (graph.OpenOptions.MaxBytes):
// the ONNX model is mapped, the IR .bin read by range; both stay open until Shapes.Close. The error
// is graph.Open's for a file that cannot be read (errcode.ErrIO, errcode.ErrSyntax,
// errcode.ErrLimit), or graph.Infer's for a graph that cannot be run, each naming path.
func InferShapes(path string, opt Options) (*Shapes, error) {
	g, err := graph.Open(path, opt.OpenOptions())
	if err != nil {
		return nil, err
	}
	s, err := GraphShapes(g, path, opt)
	if err != nil {
		g.Close()
	}
	return s, err
}

// GraphShapes infers the shape of every tensor of the graph g, which graph.Open opened from the
// file at path, as InferShapes does; the Shapes hold g, and Close closes it. On an error g stays
// open, for the caller to close.
func GraphShapes(g *graph.Graph, path string, opt Options) (*Shapes, error) {
	res, err := graph.Infer(g, opt.graphOptions())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	net, w := g.IR()
	s := &Shapes{File: path, Dialect: reshape.ONNX, Unsupported: res.Unsupported, Symbols: res.Table().Names(),
		Conditions: conditionsOf(res, path), Complete: res.Complete(), Lost: lossesOf(res, path), res: res, g: g, model: g.ONNX(), weights: w,
		rebound: len(opt.Dims) > 0 || opt.rebinds(false)}
	if net != nil || g.OneDNN() != nil {
		s.Dialect = reshape.OpenVINO
		if g.OneDNN() != nil {
			s.Dialect = reshape.OneDNNStatic
		}
		if st, err := os.Stat(path); err == nil {
			s.xmlBytes = st.Size()
		}
	}
	s.Bindings = bindingsOf(g, res, opt)
	s.Tensors = shapesOf(g, res, net, opt)
	if err := oneDNNConflicts(s.Tensors, g.OneDNN()); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if s.Valid() == ValidNever {
		s.runsNowhere(s.Symbols)
	}
	return s, nil
}

// shapesOf returns the tensors of an inferred graph, with their verdicts; net is the IR network the
// graph was read from, nil for an ONNX model.
func shapesOf(g *graph.Graph, res *graph.Result, net *ir.Net, opt Options) []Tensor {
	decls := newDeclarations(res)
	broken, brokenAt, _ := brokenConstraint(g, res, opt)
	rebinds := opt.rebinds(net != nil || g.OneDNN() != nil)
	tensors := make([]Tensor, 0, len(g.Inputs)+len(res.Nodes))
	var layers irLayers
	if net != nil {
		layers = newIRLayers(g, net)
	}
	for _, in := range g.Inputs {
		t := Tensor{Name: in.Name, Verdict: Inferred}
		t.setValue(res.Tensor(in.Name))
		tensors = append(tensors, t)
	}
	for i := range res.Nodes {
		r := &res.Nodes[i]
		layer := layers.layer(r)
		for k, name := range r.Node.Outputs {
			if name == "" || r.Outputs[k] == nil {
				continue
			}
			t := Tensor{Graph: r.Scope, Name: name, Node: r.Path, Op: r.Node.Op}
			t.setValue(r.Outputs[k])
			if layer != nil && k < len(layer.Outputs) {
				t.Name = irTensorName(strings.TrimPrefix(r.Path, r.Scope+"/"), layer.Outputs[k])
			}
			if d, dt, ok := res.Declared(r.Graph, name); ok {
				t.Declared = &d
				if dt != element.Undefined && t.Type == element.Undefined && r.Err == nil && r.Blocked == "" {
					t.Type = dt
				}
			}
			switch {
			case r.TypeErr != nil:
				t.Verdict, t.Message = failure(res, r)
			case r.Blocked != "":
				t.Verdict, t.Message = Unknown, downstream(r.Blocked)
			case r.Err != nil:
				t.Verdict, t.Message = failure(res, r)
			case t.Declared == nil:
				t.Verdict = Inferred
			default:
				t.Verdict, t.Message = decls.verdict(r, k, *t.Declared, rebinds)
			}
			if i == brokenAt && t.Verdict != Unknown {
				if !t.Verdict.IsError() {
					t.Verdict = verdictOf(broken)
				}
				o := broken.Constraint.Origin
				t.Message = o.Node + " (" + o.Op + "): " + brokenMessage(broken, t.Message)
			}
			tensors = append(tensors, t)
		}
	}
	return tensors
}

// setValue sets the type, shape and kind of the value in: a tensor's own, or those of the tensors
// a sequence or a map holds, with its notation (Value) and a sequence's length.
func (t *Tensor) setValue(in *graph.Info) {
	t.info = in
	inner := in.Tensors()
	t.Type, t.Shape, t.Optional = inner.Type, inner.Shape, in.Optional
	if in.IsTensor() {
		return
	}
	t.Value = in.TypeString()
	if in.Seq != nil {
		n := in.Seq.Len
		t.Length = &n
	}
}

// infoKind names the kind of value in holds: "a tensor" (or nothing known), "a sequence", "a map".
func infoKind(in *graph.Info) string {
	switch {
	case in.IsTensor():
		return "a tensor"
	case in.Seq != nil:
		return "a sequence"
	}
	return "a map"
}

// sameKind reports whether the inferred value in is of the kind the declaration d gives (a tensor,
// a sequence, a map), or either says nothing of it: an unknown type and rank.
func sameKind(in *graph.Info, d graph.Decl) bool {
	switch {
	case in.IsTensor() && in.Type == element.Undefined && in.Shape.RankDynamic:
		return true
	case d.Seq == nil && d.Map == nil && d.Type == element.Undefined && d.Rank < 0:
		return true
	}
	return (in.Seq != nil) == (d.Seq != nil) && (in.Map != nil) == (d.Map != nil)
}

// kindOf names the kind of value d declares: "a tensor", "a sequence", "a map".
func kindOf(d graph.Decl) string {
	switch {
	case d.Seq != nil:
		return "a sequence"
	case d.Map != nil:
		return "a map"
	}
	return "a tensor"
}

// irTensorName is the name of the tensor of an IR layer's output port p, the layer's node named
// node in its graph: the port's names attribute as the file writes it, else NODE:PORT.
func irTensorName(node string, p ir.Port) string {
	if p.Names != "" {
		return p.Names
	}
	return node + ":" + p.ID
}

// WithValueInfo returns the ONNX model with the inferred type and shape of its tensors written in,
// as onnx.shape_inference.infer_shapes_path writes them, with symbols added: static dims as
// dim_value, dims that are expressions in the model's symbols as dim_param ("B*T", "(H+1)//2"),
// other dims unnamed, a dynamic rank as the element type alone, an optional's within an optional
// type; a tensor of unknown element type,
// and one whose node failed or lies downstream of one, are not written. In the main graph and in
// every subgraph inferred
// (If branches, Loop and Scan bodies):
//   - a tensor the graph declares nowhere is added to its value_info;
//   - a declared value_info or graph output that can be the inferred one gets it, each dim the more
//     precise of the two (a declared output without a shape gets one);
//   - one that cannot (a Mismatch) or that declares the old input shapes (Stale) gets the inferred
//     type and shape, the verdict reporting the disagreement;
//   - with bindings (Options.Dims, Inputs, BatchSize), the graph inputs get their bound shapes, so
//     that the model reads as one model, their own unnamed dims (INPUT:AXIS) staying unnamed.
//
// Viewers such as Netron and onnxruntime's optimizers read them. dir is the directory the result
// will be written into: a model whose tensors keep their values in external data files, named
// relative to its directory, is refused with an error wrapping errcode.ErrSyntax when such a file
// is not the same from dir, since the result would name a file that is not beside it; so is an
// OpenVINO IR network, whose port dims OpenVINO infers again when it reads it.
func (s *Shapes) WithValueInfo(dir string) ([]byte, error) {
	if s.model == nil {
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: an OpenVINO IR network: the inferred shapes are written into ONNX models only "+
			"(OpenVINO infers an IR network's port dims again when it reads it)", s.File)
	}
	if err := onnx.CheckExternalDir(s.model.Graph.ExternalFiles(), filepath.Dir(s.File), dir); err != nil {
		return nil, err
	}
	graphs := map[string]onnx.GraphShapes{}
	graphOf := func(scope string) onnx.GraphShapes {
		gs, ok := graphs[scope]
		if !ok {
			gs = onnx.GraphShapes{Set: map[string]onnx.ValueInfo{}}
		}
		return gs
	}
	if s.rebound {
		gs := graphOf("")
		for _, in := range s.g.Inputs {
			if _, isConst := s.g.Consts[in.Name]; isConst {
				continue
			}
			if info := s.res.Tensor(in.Name); info != nil {
				if vi, ok := valueInfoOf(in.Name, info.Type, info.Shape, in.Name); ok {
					vi.Optional = info.Optional
					gs.Set[in.Name] = vi
				}
			}
		}
		graphs[""] = gs
	}
	for _, t := range s.Tensors {
		if t.Node == "" || t.Verdict.IsError() || t.Verdict == Unknown || t.Shape.RankDynamic && t.Declared != nil && !t.Declared.RankDynamic {
			continue // a declared shape says more than a dynamic rank
		}
		gs := graphOf(t.Graph)
		shape := t.Shape
		switch t.Verdict {
		case Inferred, OK:
			if t.Declared != nil {
				shape = morePrecise(*t.Declared, t.Shape)
			}
		}
		if vi, ok := valueOf(t.Name, t.info, shape); ok {
			if t.Declared != nil {
				gs.Set[t.Name] = vi
			} else {
				gs.Add = append(gs.Add, vi)
			}
		}
		graphs[t.Graph] = gs
	}
	return onnx.SetShapes(s.model.Bytes(), graphs)
}

// morePrecise returns, of a declared shape and an inferred one that can be equal, each dim the more
// precise: an integer, else an expression in the model's symbols, else the inferred interval. A
// declared dynamic rank gives the inferred shape.
func morePrecise(declared, inferred sym.Shape) sym.Shape {
	if declared.RankDynamic || len(declared.Dims) != len(inferred.Dims) {
		return inferred
	}
	dims := make([]sym.Dim, len(inferred.Dims))
	for i, d := range inferred.Dims {
		e := declared.Dims[i]
		_, dStatic := d.Static()
		_, eStatic := e.Static()
		switch {
		case dStatic:
			dims[i] = d
		case eStatic, !d.Determined() && e.Determined():
			dims[i] = e
		default:
			dims[i] = d
		}
	}
	return sym.ShapeOf(dims...)
}

// valueOf returns the value info that writes the value in as the type onnx writes it: a tensor
// (valueInfoOf), a sequence as a sequence_type of its elements, a map as a map_type of its key
// type and values, within an optional_type for an optional; s is the shape of the tensors it holds
// (its own, a sequence's elements', a map's values'). ok is false when their element type, or a
// map's key type, is not known: nothing is written.
func valueOf(name string, in *graph.Info, s sym.Shape) (onnx.ValueInfo, bool) {
	var vi onnx.ValueInfo
	ok := true
	switch {
	case in.Seq != nil:
		var elem onnx.ValueInfo
		elem, ok = valueOf("", in.Seq.Elem, s)
		vi = onnx.ValueInfo{Name: name, Shape: shape.DynamicRank(), Seq: &elem}
	case in.Map != nil:
		var value onnx.ValueInfo
		value, ok = valueOf("", in.Map.Value, s)
		key, err := onnx.DataTypeOf(in.Map.Key)
		vi = onnx.ValueInfo{Name: name, Shape: shape.DynamicRank(), Map: &value, KeyType: key}
		ok = ok && err == nil
	default:
		vi, ok = valueInfoOf(name, in.Type, s, "")
	}
	vi.Optional = in.Optional
	return vi, ok
}

// valueInfoOf returns the value info that writes a tensor of element type t and shape s (no shape
// for a dynamic rank); ok is false for an unknown element type, which is not written. The dims of
// the symbols INPUT:AXIS of input, the tensor's own unnamed dims when it is a graph input, stay
// unnamed.
func valueInfoOf(name string, t element.Type, s sym.Shape, input string) (onnx.ValueInfo, bool) {
	dt, err := onnx.DataTypeOf(t)
	if err != nil || t == element.Undefined {
		return onnx.ValueInfo{}, false
	}
	if s.RankDynamic {
		return onnx.ValueInfo{Name: name, ElemType: dt, Shape: s.Partial()}, true
	}
	vi := onnx.ValueInfo{Name: name, ElemType: dt, Shape: s.Partial(), DimParams: make([]string, len(s.Dims))}
	for i, d := range s.Dims {
		if _, static := d.Static(); static {
			continue
		}
		vi.Shape.Dims[i] = shape.Dynamic
		if d.Determined() && (input == "" || d.String() != input+":"+strconv.Itoa(i)) {
			vi.DimParams[i] = d.String()
		}
	}
	return vi, true
}
