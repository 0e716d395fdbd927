package check

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// maxModelBytes bounds the size of an ONNX model read into memory: 2 GiB, protobuf's own limit.
const maxModelBytes = 2 << 30

// readONNX checks the ONNX model read from r; name is the file name the report carries.
func readONNX(r io.Reader, name string, opt Options) (*Report, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxModelBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxModelBytes {
		return nil, errcode.Errorf(errcode.ErrLimit, "the model is larger than %d bytes", maxModelBytes)
	}
	m, err := onnx.DecodeModel(b)
	if err != nil {
		return nil, err
	}
	return ONNX(m, name, opt)
}

// ONNX checks every Reshape node of the model, those of subgraphs (If branches, Loop and Scan
// bodies) included, with the dialect onnx, after inferring the shape of every tensor of the model
// with package graph from its graph inputs (Options.Dims and Options.Inputs bind them): Reshape-1
// takes its pattern from the shape attribute and copies zeros; Reshape-5 and later from its second
// input, whose values are known when the model computes them from constants and shapes (a
// Shape → Gather → Concat subgraph), with expressions in the model's symbols; from Reshape-14 the
// allowzero attribute (default 0) turns special zeros off. The declared output shape is the
// model's value_info or graph output; a Reshape without one gets the verdict Inferred. Every other
// node whose inputs break its rule (a pooled size below 1 at a binding) gets a row with its error,
// and so does the node that imposes a constraint the bindings of Options.Dims break (its message
// says which: "N == 1 does not hold at N=2"). The report lists the model's constraints
// (graph.Result.Constraints) and the symbols the bindings leave free. A constant stored as external data is read from its file, relative to the directory of file, when
// its value is needed, within the bound of Options.MaxRank values; other external data, such as
// the weights, is never read. It returns an error when the graph cannot be inferred at all (a
// cycle, a name nothing defines) or a Reshape lacks what its version requires.
func ONNX(m *onnx.Model, file string, opt Options) (*Report, error) {
	g, res, err := inferONNX(m, file, opt)
	if err != nil {
		return nil, err
	}
	rep := newReport(res, file)
	if rep.Rows, err = onnxRows(res, newDeclarations(res), brokenConstraint(g, res, opt), file, opt); err != nil {
		return nil, err
	}
	return rep, nil
}

// inferONNX builds the graph of the model and infers it: the one path of File and ONNX, from the
// decoded model to the engine's result (InferShapes opens it with graph.Open).
func inferONNX(m *onnx.Model, file string, opt Options) (*graph.Graph, *graph.Result, error) {
	g, err := graph.FromONNX(m, filepath.Dir(file))
	if err != nil {
		return nil, nil, err
	}
	res, err := graph.Infer(g, opt.graphOptions())
	if err != nil {
		return nil, nil, err
	}
	return g, res, nil
}

// openONNX opens the ONNX model file at path (onnx.Open), reading at most opt's file size bound of
// it; the caller closes the model.
func openONNX(path string, opt Options) (*onnx.Model, error) {
	m, err := onnx.Open(path, opt.fileLimit())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// onnxFile checks the ONNX model file at path (ONNX), opened with openONNX: only the bytes its
// shapes need are read. Its errors name path.
func onnxFile(path string, opt Options) (*Report, error) {
	m, err := openONNX(path, opt)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	rep, err := ONNX(m, path, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// onnxRows returns the rows of an inferred ONNX graph: one per Reshape, and one per other node
// whose inputs break its rule or that imposes the constraint broken, when not nil.
func onnxRows(res *graph.Result, d *declarations, broken *sym.ConstraintError, file string, opt Options) ([]Row, error) {
	st := newStoppers(res)
	reshapes := 0 // a row each, and the rows of failed nodes grow the list past them
	for i := range res.Nodes {
		if res.Nodes[i].Node.Op == "Reshape" {
			reshapes++
		}
	}
	rows := make([]Row, 0, reshapes)
	for i := range res.Nodes {
		r := &res.Nodes[i]
		breaks := broken != nil && r.Path == broken.Constraint.Origin.Node
		switch {
		case r.NotTaken: // a branch the model does not run at this binding
		case r.Node.Op == "Reshape" && r.Node.Domain == "":
			row, err := onnxRow(res, d, st, r, file, opt)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", nodeWhere(r), err)
			}
			if breaks {
				row.breaks(broken)
			}
			if !determined(row) && row.Verdict != Unknown {
				row.Stopped = st.of(r)
			}
			rows = append(rows, row)
		case r.Err != nil || breaks && r.Blocked == "":
			row := nodeRow(res, r, file, reshape.ONNX, strconv.Itoa(r.Index))
			if breaks {
				row.breaks(broken)
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// nodeWhere names a node for messages: `node 3 ("r", Reshape)`, preceded by the path of its subgraph.
func nodeWhere(r *graph.NodeResult) string {
	w := fmt.Sprintf("node %d (%q, %s)", r.Index, r.Node.Name, r.Node.Op)
	if r.Scope != "" {
		w = r.Scope + ": " + w
	}
	return w
}

// onnxRow is the row of a Reshape node.
func onnxRow(res *graph.Result, d *declarations, st *stoppers, r *graph.NodeResult, file string, opt Options) (Row, error) {
	node, err := readReshape(r.Node)
	if err != nil {
		return Row{}, err
	}
	az := int64(0)
	if node.Options.AllowZero {
		az = 1
	}
	row := Row{
		File: file, ID: strconv.Itoa(r.Index), Name: r.Path, Op: "Reshape-" + strconv.FormatInt(node.Version, 10),
		Dialect: reshape.ONNX, AllowZero: &az, Input: r.Inputs[0].Shape, PatternSource: PatternConst,
	}
	switch {
	case node.Shape != nil:
		row.Pattern.Values = make([]sym.Dim, len(node.Shape))
		for i, v := range node.Shape {
			row.Pattern.Values[i] = sym.Const(v)
		}
		row.PatternShape = shape.OfInts(int64(len(node.Shape)))
	default:
		p := r.Inputs[1]
		row.Pattern.Values, row.PatternShape = p.Value, p.Shape.Partial()
		var src *graph.NodeResult // nil for a constant of the graph, which no node outputs
		if _, isConst := r.Graph.Consts[node.Pattern]; !isConst {
			src = st.producer(r.Scope, node.Pattern)
		}
		switch {
		case p.Value == nil:
			row.PatternSource = PatternUnknown
			row.Message = "the pattern's values are known at run time only, so it is inferred with its values unknown"
		case src != nil && src.Node.Op != "Constant":
			row.PatternSource = PatternComputed
			row.Message = "the pattern is computed by a " + src.Node.Op + " node (" + node.Pattern + ")"
		}
	}
	row.judge(res, d, r, node.Output, opt.rebinds(false))
	return row, nil
}

// judge sets the verdict of the row of the Reshape whose result is r and whose output is the
// tensor output, with its declared and inferred shapes: Unknown downstream of an error, the code
// of its own error, Inferred when nothing is declared, and otherwise compare's verdict, Stale for
// a mismatch when the bindings rebind the model's inputs. The row's message so far, where its
// pattern comes from, is kept as a note to a verdict that says something is wrong (the pattern's
// source is the row's PatternSource already). It reports whether the inferred shape was compared
// with a declaration.
func (row *Row) judge(res *graph.Result, d *declarations, r *graph.NodeResult, output string, rebinds bool) bool {
	declared, _, hasDecl := res.Declared(r.Graph, output)
	if hasDecl {
		row.Declared = &declared
	}
	switch {
	case r.Blocked != "":
		row.Verdict, row.Message = Unknown, downstream(r.Blocked)
		return false
	case r.Err != nil:
		v, msg := failure(res, r)
		row.Verdict, row.Message = v, notes(msg, row.Message)
		return false
	}
	out := r.Outputs[0].Shape
	row.Inferred = &out
	note := row.Message
	if !hasDecl {
		row.Verdict, row.Message = Inferred, ""
		return false
	}
	row.Verdict, row.Message = compare(d, row.Input, out, declared, "")
	switch {
	case row.Verdict == Mismatch && rebinds:
		row.Verdict, row.Message = Stale, notes(staleDeclaration(declared, out), note)
	case row.Verdict == Mismatch:
		row.Message = notes(row.Message, note)
	}
	return true
}

// compare returns the verdict of an inferred output shape against the declared one: Mismatch when
// the declared shape is not the inferred one at every binding that satisfies the constraints
// (declarations.equalWhen: "equal only when N == 10"), or cannot have the input's volume (a
// reshape keeps the volume whatever its pattern), Inferred when the inferred shape has an unknown
// rank (nothing was compared), OK otherwise; note is appended to the message.
func compare(d *declarations, in, inferred, declared sym.Shape, note string) (Verdict, string) {
	msg := ""
	v := OK
	switch when := d.equalWhen(inferred, declared); {
	case !when.IsTrue():
		v, msg = Mismatch, disagreement(declared, inferred, when)
	case !volumesMeet(in.Partial(), declared.Partial()):
		vin, _ := in.Partial().Volume()
		vout, _ := declared.Partial().Volume()
		v = Mismatch
		msg = "the model declares " + declared.String() + " of volume " + vout.String() + ", but the input " +
			in.String() + " has volume " + vin.String() + ", and a reshape keeps the volume"
	case inferred.RankDynamic:
		v, msg = Inferred, "the rules give a shape of unknown rank: nothing to compare the declared "+declared.String()+" with"
	}
	return v, notes(msg, note)
}

// notes joins the parts of a message that are not empty with "; ".
func notes(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			if b.Len() > 0 {
				b.WriteString("; ")
			}
			b.WriteString(p)
		}
	}
	return b.String()
}

// nodeRow is the row of a node other than a Reshape whose inputs break its rule (or that imposes
// a constraint the bindings break: Row.breaks makes it an error) in the result res; id is its
// index or layer id.
func nodeRow(res *graph.Result, r *graph.NodeResult, file string, d reshape.Dialect, id string) Row {
	row := Row{File: file, ID: id, Name: r.Path, Op: r.Node.Op, Dialect: d,
		Input: sym.DynamicRank(), PatternShape: shape.DynamicRank()}
	if r.Err != nil {
		row.Verdict, row.Message = failure(res, r)
	}
	if len(r.Inputs) > 0 && r.Inputs[0] != nil {
		row.Input = r.Inputs[0].Shape
	}
	return row
}

// determined reports whether every dim of the row's input and inferred shapes is an integer or an
// expression in the model's symbols.
func determined(r Row) bool {
	for _, s := range []*sym.Shape{&r.Input, r.Inferred} {
		if s == nil || s.RankDynamic {
			return false
		}
		for _, d := range s.Dims {
			if !d.Determined() {
				return false
			}
		}
	}
	return true
}

// stoppers finds, for a node with undetermined dims, the nodes upstream of it where the shapes (or
// the pattern's values) stop being known: nodes without a shape rule, nodes whose inputs broke their
// rule, nodes whose rule depends on run-time data, and graph inputs whose values only a run gives.
type stoppers struct {
	res  *graph.Result
	prod map[string]*graph.NodeResult // scope + "\x00" + tensor name → its producer, made on the first look-up
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

// producer returns the node result that outputs name as the node of scope reads it: in its scope or
// an enclosing one.
func (s *stoppers) producer(scope, name string) *graph.NodeResult {
	if s.prod == nil {
		s.prod = make(map[string]*graph.NodeResult, len(s.res.Nodes))
		for i := range s.res.Nodes {
			r := &s.res.Nodes[i]
			for _, out := range r.Node.Outputs {
				if out != "" {
					s.prod[r.Scope+"\x00"+out] = r
				}
			}
		}
	}
	for {
		if p, ok := s.prod[scope+"\x00"+name]; ok {
			return p
		}
		if scope == "" {
			return nil
		}
		i := strings.LastIndex(scope, "/")
		if i < 0 {
			scope = ""
			continue
		}
		// A scope ends in NODE/ATTR: drop the attribute and the node.
		scope = scope[:i]
		if j := strings.LastIndex(scope, "/"); j >= 0 {
			scope = scope[:j]
		} else {
			scope = ""
		}
	}
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
		p := s.producer(r.Scope, name)
		if p == nil {
			if values {
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

// ONNXReshape is what an ONNX Reshape node says of itself, read by ReadONNXReshape.
type ONNXReshape struct {
	// Version is the version of Reshape that the model's opset holds: 1, 5, 13, 14, 19 or 21.
	Version int64
	// Options has the dialect onnx and AllowZero from allowzero (Reshape-14 and later, default 0;
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
// (Reshape-1) and its version and allowzero through reshape.ONNXOptions. The error wraps
// errcode.ErrSyntax for a node that lacks what its version requires or has what it does not define
// (allowzero before Reshape-14, an allowzero other than 0 or 1).
func ReadONNXReshape(n *onnx.Node, opset int64) (ONNXReshape, error) {
	var az *int64
	if a, ok := n.Attr("allowzero"); ok {
		az = &a.I
	}
	var shp []int64
	a, hasShape := n.Attr("shape")
	if hasShape {
		shp = a.Ints
	}
	return reshapeNode(opset, n.Inputs, n.Outputs, az, shp, hasShape)
}

// readReshape is ReadONNXReshape of a node of package graph.
func readReshape(n *graph.Node) (ONNXReshape, error) {
	var az *int64
	if a, ok := n.Attr("allowzero"); ok {
		az = &a.Int
	}
	var shp []int64
	a, hasShape := n.Attr("shape")
	if hasShape {
		shp = a.Ints
	}
	return reshapeNode(n.Version, n.Inputs, n.Outputs, az, shp, hasShape)
}

func reshapeNode(opset int64, inputs, outputs []string, allowzero *int64, shp []int64, hasShape bool) (ONNXReshape, error) {
	opt, version, err := reshape.ONNXOptions(opset, allowzero)
	r := ONNXReshape{Version: version, Options: opt}
	if len(inputs) == 0 || inputs[0] == "" || len(outputs) == 0 {
		return r, errcode.Errorf(errcode.ErrSyntax, "%d inputs and %d outputs", len(inputs), len(outputs))
	}
	r.Data, r.Output = inputs[0], outputs[0]
	if err != nil {
		return r, err
	}
	if r.Version == 1 {
		if !hasShape {
			return r, errcode.Errorf(errcode.ErrSyntax, "Reshape-1 has no shape attribute")
		}
		r.Shape = shp
		if r.Shape == nil {
			r.Shape = []int64{}
		}
		return r, nil
	}
	if len(inputs) < 2 || inputs[1] == "" {
		return r, errcode.Errorf(errcode.ErrSyntax, "Reshape-%d takes the shape as input 1, and the node has none", r.Version)
	}
	r.Pattern = inputs[1]
	return r, nil
}
