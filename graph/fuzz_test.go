package graph

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// genReader reads the choices of randomModel from fuzzed bytes; past their end every choice is 0.
type genReader struct{ b []byte }

func (r *genReader) byte() int {
	if len(r.b) == 0 {
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return int(v)
}

// n returns a choice in [0, k).
func (r *genReader) n(k int) int { return r.byte() % k }

// small returns a small integer in [-3, 8]: dims, axes, pattern values.
func (r *genReader) small() int64 { return int64(r.n(12)) - 3 }

// fuzzOpsets are the opset versions randomModel imports: each that changes an operator's form.
var fuzzOpsets = []int64{1, 5, 7, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 23}

// ruleOps returns the operators of ONNX's default domain that have a rule, sorted (once the
// package's init functions have registered them).
var ruleOps = sync.OnceValue(func() []string {
	var ops []string
	for k := range registry {
		if k.domain == "" {
			ops = append(ops, k.name)
		}
	}
	slices.Sort(ops)
	return ops
})

// The attributes randomModel gives nodes, each with the kind its operators read; some get another
// kind, which the rules must refuse.
var fuzzAttrs = []struct {
	name string
	kind onnx.AttrType
}{
	{"axis", onnx.AttrInt}, {"axes", onnx.AttrInts}, {"perm", onnx.AttrInts}, {"keepdims", onnx.AttrInt},
	{"allowzero", onnx.AttrInt}, {"to", onnx.AttrInt}, {"value", onnx.AttrTensor}, {"shape", onnx.AttrInts},
	{"starts", onnx.AttrInts}, {"ends", onnx.AttrInts}, {"split", onnx.AttrInts}, {"num_outputs", onnx.AttrInt},
	{"kernel_shape", onnx.AttrInts}, {"strides", onnx.AttrInts}, {"pads", onnx.AttrInts}, {"dilations", onnx.AttrInts},
	{"group", onnx.AttrInt}, {"auto_pad", onnx.AttrString}, {"mode", onnx.AttrString}, {"direction", onnx.AttrString},
	{"hidden_size", onnx.AttrInt}, {"k", onnx.AttrInt}, {"batch_dims", onnx.AttrInt}, {"blocksize", onnx.AttrInt},
	{"transA", onnx.AttrInt}, {"transB", onnx.AttrInt}, {"equation", onnx.AttrString}, {"ceil_mode", onnx.AttrInt},
	{"output_padding", onnx.AttrInts}, {"output_shape", onnx.AttrInts}, {"start", onnx.AttrInt}, {"end", onnx.AttrInt},
	{"scales", onnx.AttrFloats}, {"sizes", onnx.AttrInts}, {"layout", onnx.AttrInt}, {"num_scan_inputs", onnx.AttrInt},
	{"scan_input_axes", onnx.AttrInts}, {"scan_output_axes", onnx.AttrInts}, {"noop_with_empty_axes", onnx.AttrInt},
	{"exclusive", onnx.AttrInt}, {"upper", onnx.AttrInt}, {"value_ints", onnx.AttrInts}, {"value_int", onnx.AttrInt},
	{"alpha", onnx.AttrFloat}, {"dtype", onnx.AttrInt}, {"repeats", onnx.AttrInts}, {"spatial", onnx.AttrInt},
}

var fuzzStrings = []string{"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID", "constant", "reflect", "edge", "wrap",
	"nearest", "linear", "cubic", "forward", "reverse", "bidirectional", "DCR", "CRD", "ij,jk->ik", "...ij->...ji",
	"abc,cd->abd", "i,i->", "half_pixel", "asymmetric", ""}

// fuzzGen builds a random model: what randomModel reads, and the names defined so far.
type fuzzGen struct {
	r    *genReader
	made int // nodes and subgraphs made, for names
}

// randomModel builds an ONNX model from fuzzed bytes: graph inputs of random types and shapes
// (integers, the symbols A, B, C, unnamed dims, a dynamic rank), small int64 constants, and nodes of
// the operators that have rules, with random inputs among the tensors defined so far, random
// attributes, and the subgraphs of If, Loop and Scan; now and then a name nothing defines, a name
// defined later (a cycle), or an output defined twice.
func randomModel(data []byte) *model {
	g := &fuzzGen{r: &genReader{b: data}}
	r := g.r
	b := newModel(fuzzOpsets[r.n(len(fuzzOpsets))])
	var names []string
	types := []onnx.DataType{onnx.Float, onnx.Int64, onnx.Bool, onnx.Int32, onnx.Float16}
	for i := range 1 + r.n(3) {
		name := "x" + strconv.Itoa(i)
		var dims []any
		if r.n(8) == 0 {
			dims = []any{-1}
		} else {
			for range r.n(5) {
				choices := []any{0, 1, 2, 3, 4, 6, "A", "B", "C", nil}
				dims = append(dims, choices[r.n(len(choices))])
			}
		}
		b.typedInput(name, types[r.n(len(types))], dims...)
		names = append(names, name)
	}
	for i := range r.n(4) {
		name := "k" + strconv.Itoa(i)
		v := make([]int64, r.n(5))
		for j := range v {
			v[j] = r.small()
		}
		var dims []int64
		if len(v) == 1 && r.n(2) == 0 {
			dims = []int64{}
		}
		b.ints(name, dims, v...)
		names = append(names, name)
	}
	nodes, outs := g.nodes(names, 2)
	b.m.Graph.Nodes = nodes
	return b.output(outs...)
}

// nodes returns a few random nodes reading names and what they define, and the names of some of
// the tensors they define (for a graph's outputs). depth bounds the subgraphs' nesting.
func (g *fuzzGen) nodes(names []string, depth int) ([]onnx.Node, []string) {
	r := g.r
	var nodes []onnx.Node
	var defined []string
	for range 1 + r.n(10) {
		g.made++
		id := strconv.Itoa(g.made)
		ops := ruleOps()
		n := onnx.Node{Name: "n" + id, OpType: ops[r.n(len(ops))]}
		for range []int{1, 1, 1, 2, 2, 2, 3, 0, 4, 5}[r.n(10)] {
			switch r.n(32) {
			case 0:
				n.Inputs = append(n.Inputs, "")
			case 1:
				n.Inputs = append(n.Inputs, "nowhere")
			case 2:
				n.Inputs = append(n.Inputs, "t"+strconv.Itoa(g.made+1)+"_0") // defined later, or never
			default: // mostly one of the last tensors defined
				k := r.n(2 * len(names))
				if k >= len(names) {
					k = len(names) - 1 - k%min(3, len(names))
				}
				n.Inputs = append(n.Inputs, names[k])
			}
		}
		for k := range 1 + r.n(3) {
			out := "t" + id + "_" + strconv.Itoa(k)
			if r.n(32) == 0 && len(defined) > 0 {
				out = defined[r.n(len(defined))] // a second producer
			}
			n.Outputs = append(n.Outputs, out)
		}
		for range []int{0, 0, 1, 1, 1, 2, 3, 4}[r.n(8)] {
			n.Attrs = append(n.Attrs, g.attr())
		}
		if depth > 0 {
			n.Attrs = append(n.Attrs, g.subgraphs(n.OpType, len(n.Inputs), len(n.Outputs), names, depth-1)...)
		}
		nodes = append(nodes, n)
		for _, out := range n.Outputs {
			names = append(names, out)
			defined = append(defined, out)
		}
	}
	var outs []string
	for range 1 + r.n(3) {
		outs = append(outs, defined[r.n(len(defined))])
	}
	return nodes, outs
}

// attr returns a random attribute, mostly of the kind its operators read.
func (g *fuzzGen) attr() onnx.Attribute {
	r := g.r
	a := fuzzAttrs[r.n(len(fuzzAttrs))]
	kind := a.kind
	if r.n(16) == 0 {
		kind = []onnx.AttrType{onnx.AttrInt, onnx.AttrInts, onnx.AttrFloat, onnx.AttrFloats, onnx.AttrString, onnx.AttrTensor}[r.n(6)]
	}
	switch kind {
	case onnx.AttrInt:
		return attrInt(a.name, r.small())
	case onnx.AttrInts:
		v := make([]int64, r.n(6))
		for i := range v {
			v[i] = r.small()
		}
		return attrInts(a.name, v...)
	case onnx.AttrFloat:
		return onnx.Attribute{Name: a.name, Type: onnx.AttrFloat, F: float32(r.small()) / 2}
	case onnx.AttrFloats:
		v := make([]float32, r.n(5))
		for i := range v {
			v[i] = float32(r.small()) / 2
		}
		return attrFloats(a.name, v...)
	case onnx.AttrString:
		return attrString(a.name, fuzzStrings[r.n(len(fuzzStrings))])
	}
	v := make([]int64, r.n(3))
	for i := range v {
		v[i] = r.small()
	}
	return attrTensor(a.name, intTensor("", nil, v...))
}

// subgraphs returns the graph attributes of a node of op with nIn inputs and nOut outputs: the
// branches of If, the bodies of Loop and Scan (with the formal inputs and outputs the node's
// counts ask for, now and then one more or one less), none for other operators.
func (g *fuzzGen) subgraphs(op string, nIn, nOut int, outer []string, depth int) []onnx.Attribute {
	r := g.r
	body := func(formal, outputs int) onnx.Graph {
		if r.n(8) == 0 {
			formal += r.n(3) - 1
			outputs += r.n(3) - 1
		}
		g.made++
		prefix := "s" + strconv.Itoa(g.made) + "_"
		sg := onnx.Graph{Name: prefix}
		names := slices.Clone(outer)
		for i := range max(formal, 0) {
			name := prefix + "in" + strconv.Itoa(i)
			sg.Inputs = append(sg.Inputs, valueInfo(name, []onnx.DataType{onnx.Int64, onnx.Bool, onnx.Float}[r.n(3)], -1))
			names = append(names, name)
		}
		nodes, outs := g.nodes(names, depth)
		sg.Nodes = nodes
		for i := range max(outputs, 0) {
			sg.Outputs = append(sg.Outputs, valueInfo(outs[i%len(outs)], onnx.Undefined, -1))
		}
		return sg
	}
	switch op {
	case "If":
		return []onnx.Attribute{attrGraph("then_branch", body(0, nOut)), attrGraph("else_branch", body(0, nOut))}
	case "Loop":
		carried := max(nIn-2, 0)
		return []onnx.Attribute{attrGraph("body", body(2+carried, 1+carried+max(nOut-carried, 0)))}
	case "Scan":
		return []onnx.Attribute{attrGraph("body", body(nIn, nOut))}
	}
	return nil
}

// fuzzMaxNodes bounds the nodes checkInference infers (Options.MaxNodes), subgraphs and their
// repeated runs included, so that no input comes near the 10 s of wall time after which Go's fuzz
// worker panics ("fuzzing process hung or terminated unexpectedly"). At the default bound (2^16
// for a small model) FuzzInferONNX's seed nested_loop_20, whose Loops nest past it, took 0.4 s of
// CPU, 0.8 s built for fuzzing, and over 10 s of wall time on a machine loaded twenty times over its
// cores; the other seeds of FuzzInferONNX and FuzzInferGraph infer fewer than 1,024 nodes.
const fuzzMaxNodes = 1 << 12

// checkInference fails when inferring g panics, gives an error without a code, or a result that
// breaks the engine's contracts: a dim below 0, values that do not fit their shape. It infers g
// with its symbols and with those of binding the model has bound; when the symbolic run reports no
// error (but those a run may avoid), the binding and its constraints (Result.Check) must tell the
// bound run's fate:
//   - the binding breaks a stated constraint: the bound run reports an error, at the constraint's
//     node, inside it (a branch of an If) or at a node before it;
//   - it satisfies them all: the bound run reports none (but at a node of an input whose rank, dim
//     or value the binding decides and no expression in the symbols gives: undecided), and every
//     dim the symbolic run determined evaluates, at the binding, to the bound run's dim;
//   - a constraint names a symbol the binding leaves out: the dims are compared when neither run
//     reports an error.
//
// Both runs infer at most fuzzMaxNodes nodes.
func checkInference(t *testing.T, g *Graph, binding map[string]int64) {
	res, err := Infer(g, Options{MaxNodes: fuzzMaxNodes})
	if err != nil {
		if errcode.Code(err) == "" {
			t.Fatalf("Infer: an error without a code: %v", err)
		}
		return
	}
	clean := checkResult(t, res)
	if res.Complete() {
		checkExact(t, res)
	}
	dims := map[string]int64{}
	for _, s := range res.Symbols() {
		if v, ok := binding[s.Name]; ok {
			dims[s.Name] = v
		}
	}
	bound, err := Infer(g, Options{Dims: dims, MaxNodes: fuzzMaxNodes})
	if err != nil {
		if errcode.Code(err) == "" {
			t.Fatalf("Infer at %v: an error without a code: %v", binding, err)
		}
		return
	}
	boundClean := checkResult(t, bound)
	if !clean {
		return
	}
	var ce *sym.ConstraintError
	err = res.Check(dims)
	switch {
	case errors.As(err, &ce):
		checkRefused(t, bound, ce)
		return
	case err == nil && !boundClean:
		failed := firstFailed(bound)
		if !res.Complete() && undecided(res, failed) {
			return
		}
		t.Fatalf("%v satisfies the constraints %v, and the bound run reports %v", dims, res.Constraints(), failed.Err)
	case !boundClean:
		return
	}
	for name, s := range res.Tensors() {
		b := bound.Tensor(name)
		if b == nil {
			continue // a node of a branch not taken, which fails at the binding
		}
		want, ok := b.Shape.Static()
		if !ok || s.Shape.RankDynamic {
			continue
		}
		if len(s.Shape.Dims) != len(want) {
			t.Fatalf("%s: %v, and %v at %v", name, s.Shape, b.Shape, binding)
		}
		for k, d := range s.Shape.Dims {
			if lo, hi := d.Bounds(); want[k] < lo || want[k] > hi {
				t.Fatalf("%s: %v, and %v at %v", name, s.Shape, b.Shape, binding)
			}
			if !d.Determined() {
				continue
			}
			e, _ := d.Expr()
			if v, err := e.Eval(func(name string) (int64, bool) { v, ok := binding[name]; return v, ok }); err == nil && v != want[k] {
				t.Fatalf("%s: %v, and %v at %v", name, s.Shape, b.Shape, binding)
			}
		}
	}
}

// checkExact fails unless every output of a node of the complete result res that ran (neither
// failed, nor downstream of a failure, nor in a branch not taken) is known exactly (a sequence's
// length and elements too): a value that is not has a loss recorded (Result.Lost), so that Complete is never a false promise.
func checkExact(t *testing.T, res *Result) {
	for _, r := range res.Nodes {
		if r.Err != nil || r.Blocked != "" || r.NotTaken {
			continue
		}
		for k, out := range r.Outputs {
			if out != nil && !out.determined() {
				t.Fatalf("%s (%s): output %d is %v, and the result is complete", r.Path, r.Node.Op, k, out.Shape)
			}
		}
	}
}

// checkRefused fails unless the bound run reports an error the model cannot avoid, at the node of
// the constraint ce that the binding breaks, inside it, or before it.
func checkRefused(t *testing.T, bound *Result, ce *sym.ConstraintError) {
	node := ce.Constraint.Origin.Node
	for _, r := range bound.Nodes {
		switch {
		case r.Err == nil || r.Avoidable:
			if r.Path == node {
				t.Fatalf("%v: the bound run reports no error at %s or before it", ce, node)
			}
		case r.Path == node || strings.HasPrefix(r.Path, node+"/"):
			return
		default:
			return // an error before the constraint's node
		}
	}
	t.Fatalf("%v: the bound run reports no error", ce)
}

// firstFailed returns the first node of res whose error the model cannot avoid, nil when none has one.
func firstFailed(res *Result) *NodeResult {
	for i, r := range res.Nodes {
		if r.Err != nil && !r.Avoidable {
			return &res.Nodes[i]
		}
	}
	return nil
}

// undecided reports that an input of the node failed of a bound run was less known to the symbolic
// run res than to the binding by more than its symbols: of a dynamic rank there and a rank at the
// binding (a GatherND's output, whose rank its indices' last dim C decides), or of a dim or value
// that no expression in the symbols gives there and an integer at the binding (the Shape of that
// output). A rank is no symbol, and an unknown is no expression: no rule can state a condition on
// them as a constraint, so the binding may satisfy every stated one and fail at that node.
func undecided(res *Result, failed *NodeResult) bool {
	for _, r := range res.Nodes {
		if r.Path != failed.Path {
			continue
		}
		for i, in := range r.Inputs {
			if in == nil || i >= len(failed.Inputs) || failed.Inputs[i] == nil {
				continue
			}
			b := failed.Inputs[i]
			if b.Shape.RankDynamic {
				continue
			}
			if in.Shape.RankDynamic || lessKnown(in.Shape.Dims, b.Shape.Dims) ||
				in.Value == nil && b.Value != nil || lessKnown(in.Value, b.Value) {
				return true
			}
		}
	}
	return false
}

// lessKnown reports that a dim of s is not determined where that of bound is an integer.
func lessKnown(s, bound []sym.Dim) bool {
	for i, d := range bound {
		if _, ok := d.Static(); ok && i < len(s) && !s[i].Determined() {
			return true
		}
	}
	return false
}

// checkResult checks the results of every node; clean reports that no node has an error the model
// cannot avoid.
func checkResult(t *testing.T, res *Result) (clean bool) {
	clean = true
	for _, r := range res.Nodes {
		if r.Err != nil {
			clean = clean && r.Avoidable
			if errcode.Code(r.Err) == "" {
				t.Fatalf("%s: an error without a code: %v", r.Path, r.Err)
			}
		}
		for k, out := range r.Outputs {
			if out == nil {
				continue
			}
			if !out.Shape.RankDynamic {
				for i, d := range out.Shape.Dims {
					if lo, _ := d.Bounds(); lo < 0 {
						t.Fatalf("%s (%s): output %d dim %d = %v, below 0", r.Path, r.Node.Op, k, i, d)
					}
				}
			}
			if out.Value == nil {
				continue
			}
			if n, ok := out.Volume(); !ok || n != int64(len(out.Value)) || n > MaxValue {
				t.Fatalf("%s (%s): output %d of shape %v holds %d values", r.Path, r.Node.Op, k, out.Shape, len(out.Value))
			}
		}
	}
	return clean
}

// fuzzBinding returns a binding of the symbols of randomModel from three bytes.
func fuzzBinding(a, b, c byte) map[string]int64 {
	return map[string]int64{"A": 1 + int64(a%7), "B": 1 + int64(b%7), "C": 1 + int64(c%7)}
}

// FuzzInferGraph builds random models from fuzzed bytes (randomModel: the operators that have
// rules, random shapes and attributes, subgraphs, and now and then a malformed graph) and infers
// them with symbols and at a binding: no panic, no hang, errors with codes, no dim below 0, values
// that fit their shapes, and a binding that satisfies the stated constraints where the bound run
// reports no error and the symbolic dims evaluate to the bound ones, one that breaks a constraint
// where the bound run reports an error at its node or before (checkInference).
func FuzzInferGraph(f *testing.F) {
	for _, seed := range fuzzGraphSeeds {
		f.Add(byte(2), byte(3), byte(5), seed)
	}
	f.Fuzz(func(t *testing.T, a, b, c byte, data []byte) {
		m := randomModel(data)
		g, err := FromONNX(&m.m, "")
		if err != nil {
			t.Fatalf("FromONNX: %v", err)
		}
		checkInference(t, g, fuzzBinding(a, b, c))
	})
}

// fuzzGraphSeeds are byte strings whose randomModel exercises shape subgraphs, values, If, Loop
// and Scan.
var fuzzGraphSeeds = [][]byte{
	[]byte("\x0a\x02\x01\x03\x06\x02\x01\x02\x00\x09\x05\x03\x04\x01\x02\x03\x07\x08\x09\x00\x01\x02\x03\x04\x05"),
	[]byte("shape gather concat reshape: the pattern of a Reshape computed from its input's shape"),
	[]byte("\x0b\x01\x02\x04\x05\x06\x03\x02\x01\x00\x03\x02\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16"),
	[]byte("If Loop Scan and their bodies, nested two deep, with outer names and formal inputs......."),
}

// FuzzInferONNX decodes fuzzed bytes as an ONNX model, builds its graph and infers it: no panic, no
// hang, and every error with a code, as checkInference checks. The seeds are the models of the bad
// cases, randomModel's of fuzzGraphSeeds, and the small models of testdata/models.
func FuzzInferONNX(f *testing.F) {
	for _, tc := range badCases() {
		if tc.file {
			f.Add(tc.build().encode())
		}
	}
	for _, seed := range fuzzGraphSeeds {
		f.Add(randomModel(seed).encode())
	}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "models", "*.onnx"))
	paths = append(paths, filepath.Join(externalDir, "model.onnx")) // a pattern in external data
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Size() <= 32<<10 {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	// Values read when a rule asks for them: a pattern and weights in raw_data, and a weight whose
	// raw_data claims more bytes than the file holds.
	weights := newModel(14).input("x", 2, "N").ints("p", nil, -1).node("r", "Reshape", []string{"x", "p"}, []string{"y"}).
		node("m", "MatMul", []string{"y", "w"}, []string{"z"}).output("z")
	weights.m.Graph.Initializers = append(weights.m.Graph.Initializers, floatTensor("w", 4, 4))
	f.Add(weights.encode())
	tensor := []byte{0x08, 0x04, 0x10, 0x01, 0x4a, 0x80, 0x80, 0x80, 0x80, 0x04} // dims 4, FLOAT, raw_data of 1 GiB
	graph := append([]byte{0x2a, byte(len(tensor))}, tensor...)                  // an initializer
	f.Add(append(append([]byte{0x08, 0x08, 0x3a, byte(len(graph))}, graph...), 0x42, 0x02, 0x10, 0x0e))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		// Decoded from a mapping, as check and shapes read model files, its external data beside it.
		path := filepath.Join(dir, "model.onnx")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := onnx.Open(path, 1<<20)
		if err != nil {
			if errcode.Code(err) == "" {
				t.Fatalf("Open: an error without a code: %v", err)
			}
			return
		}
		defer m.Close()
		g, err := FromONNX(m, externalDir)
		if err != nil {
			if errcode.Code(err) == "" {
				t.Fatalf("FromONNX: an error without a code: %v", err)
			}
			return
		}
		checkInference(t, g, fuzzBinding(2, 3, 5))
	})
}

// joinModel builds a random model from fuzzed bytes for FuzzUnknownRank: inputs of one rank (1
// to 3) whose dims are integers or the symbols A, B and C, and nodes of the operators that sum or
// join their inputs' dims (Concat, the variadic element-wise operators, a sequence concatenated,
// Split and Pad), each reading some of the tensors defined before it, along an axis in range.
func joinModel(data []byte) *model {
	r := &genReader{b: data}
	rank := 1 + r.n(3)
	b := newModel(18)
	var names []string
	for i := range 2 + r.n(3) {
		dims := make([]any, rank)
		for k := range dims {
			dims[k] = []any{1, 2, 3, "A", "B", "C"}[r.n(6)]
		}
		name := "x" + strconv.Itoa(i)
		b.input(name, dims...)
		names = append(names, name)
	}
	pick := func() string { return names[len(names)-1-r.n(min(len(names), 4))] }
	for i := range 1 + r.n(6) {
		out := "t" + strconv.Itoa(i)
		axis := int64(r.n(2*rank) - rank)
		a, c := pick(), pick()
		switch r.n(6) {
		case 0, 1:
			b.node("n"+strconv.Itoa(i), "Concat", []string{a, c, pick()}[:2+r.n(2)], []string{out}, attrInt("axis", axis))
		case 2:
			b.node("n"+strconv.Itoa(i), []string{"Sum", "Max", "Min", "Mean", "Add"}[r.n(5)], []string{a, c}, []string{out})
		case 3:
			b.node("s"+strconv.Itoa(i), "SequenceConstruct", []string{a, c}, []string{out + "s"}).
				node("n"+strconv.Itoa(i), "ConcatFromSequence", []string{out + "s"}, []string{out}, attrInt("axis", axis))
		case 4:
			b.node("n"+strconv.Itoa(i), "Split", []string{a}, []string{out, out + "b"}, attrInt("axis", axis), attrInt("num_outputs", 2))
		default:
			pads := make([]int64, 2*rank)
			for k := range pads {
				pads[k] = int64(r.n(3))
			}
			b.ints("p"+strconv.Itoa(i), nil, pads...)
			b.node("n"+strconv.Itoa(i), "Pad", []string{a, "p" + strconv.Itoa(i)}, []string{out})
		}
		names = append(names, out)
	}
	return b.output(names[len(names)-1])
}

// FuzzUnknownRank builds random models of the operators that sum or join their inputs' dims
// (joinModel) and infers each twice: with some of its inputs of unknown rank (as the output of a
// node without a rule reaches the nodes after it), and with their shapes at a binding of the
// symbols. Knowing less never contradicts knowing more: where the bound run reports no error, the
// run of unknown ranks reports none either (but one a run may avoid), and each of its tensors of
// known rank has the bound run's rank, and dims whose bounds hold the bound run's (a Concat of an
// input of unknown rank gave the sum of the others).
func FuzzUnknownRank(f *testing.F) {
	f.Add(byte(1), byte(3), byte(5), []byte("\x00\x00\x03\x01\x05\x00\x05"))
	for _, seed := range fuzzGraphSeeds {
		f.Add(byte(2), byte(3), byte(5), seed)
	}
	f.Fuzz(func(t *testing.T, a, b, c byte, data []byte) {
		m := joinModel(data)
		known, err := FromONNX(&m.m, "")
		if err != nil {
			t.Fatalf("FromONNX: %v", err)
		}
		binding := fuzzBinding(a, b, c)
		dims := map[string]int64{}
		for _, in := range known.Inputs {
			for _, d := range in.Decl.Dims {
				if v, ok := binding[d.Name]; ok {
					dims[d.Name] = v
				}
			}
		}
		bound, err := Infer(known, Options{Dims: dims})
		if err != nil || !checkResult(t, bound) {
			return
		}
		// The inputs of unknown rank: those of the bits of a (all of them for none).
		for i := range m.m.Graph.Inputs {
			if a&0x7 == 0 || a&(1<<i) != 0 {
				m.m.Graph.Inputs[i].Shape, m.m.Graph.Inputs[i].DimParams = shape.DynamicRank(), nil
			}
		}
		unknown, err := FromONNX(&m.m, "")
		if err != nil {
			t.Fatalf("FromONNX: %v", err)
		}
		res, err := Infer(unknown, Options{})
		if err != nil {
			t.Fatalf("Infer with inputs of unknown rank: %v, and at %v: no error", err, dims)
		}
		if !checkResult(t, res) {
			t.Fatalf("with inputs of unknown rank %s reports %v, and at %v no node does", firstFailed(res).Path, firstFailed(res).Err, dims)
		}
		for name, s := range res.Tensors() {
			want := bound.Tensor(name)
			if want == nil || s.Shape.RankDynamic || want.Shape.RankDynamic {
				continue
			}
			if len(s.Shape.Dims) != len(want.Shape.Dims) {
				t.Fatalf("%s: %v with inputs of unknown rank, %v at %v", name, s.Shape, want.Shape, dims)
			}
			for k, d := range s.Shape.Dims {
				n, ok := want.Shape.Dims[k].Static()
				if lo, hi := d.Bounds(); ok && (n < lo || n > hi) {
					t.Fatalf("%s: %v with inputs of unknown rank, %v at %v", name, s.Shape, want.Shape, dims)
				}
			}
		}
	})
}
