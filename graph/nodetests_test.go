package graph

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/sym"
)

// A nodeSuite is a fixture of shape-inference cases, each a model with the types and shapes (and
// small integer values) a run of it gave, and the golden file of the ratchet its test keeps.
type nodeSuite struct {
	test   string // the test's name, for the golden file's header and the messages
	what   string // what the fixture holds, for the log ("node tests")
	file   string // the fixture, JSON Lines in gzip: one nodeTest a line
	golden string // the golden file: the cases not equal, by variant and category
	header string // the golden file's comment lines
}

// nodeTestsSuite holds ONNX's own backend node tests (onnx 1.12) as shape-inference cases, written
// by bench/nodetests/gen.py; ortCasesSuite the operators and versions those tests miss (opsets 18
// to 21, com.microsoft, strings, optionals, ai.onnx.preview.training), with onnxruntime 1.20.1's
// answers, written by bench/ortcases/gen.py.
var (
	nodeTestsSuite = nodeSuite{test: "TestNodeTests", what: "node tests",
		file: filepath.Join("testdata", "nodetests.jsonl.gz"), golden: filepath.Join("testdata", "nodetests.golden"),
		header: "# TestNodeTests (nodetests_test.go): ONNX's node tests (testdata/nodetests.jsonl.gz) that graph\n" +
			"# does not infer exactly, by variant and category. A case whose category changes, for better or\n" +
			"# worse, fails the test until go test ./graph -run TestNodeTests -update writes this file again.\n"}
	ortCasesSuite = nodeSuite{test: "TestORTCases", what: "onnxruntime cases",
		file: filepath.Join("testdata", "ortcases.jsonl.gz"), golden: filepath.Join("testdata", "ortcases.golden"),
		header: "# TestORTCases (nodetests_test.go): the cases of testdata/ortcases.jsonl.gz (bench/ortcases) that\n" +
			"# graph does not infer exactly, by variant and category. A case whose category changes, for better or\n" +
			"# worse, fails the test until go test ./graph -run TestORTCases -update writes this file again.\n"}
)

// nodeTest is one row of a nodeSuite's fixture: a model in one variant, and what a run of it gave.
// The variants: "static" (integer inputs of at most 64 elements are constants, the others keep
// static shapes); "symbolic" (as static, with symbols for the other inputs' dims, bound to the
// run's values by Binding: inferred without the binding, its answer evaluated at it);
// "symbolic@K", the same at the case's binding K; and "bound@K", the symbolic model inferred with
// binding K (Options.Dims).
type nodeTest struct {
	Name    string           `json:"name"`
	Op      string           `json:"op"`
	Variant string           `json:"variant"`
	Binding map[string]int64 `json:"binding"`
	Model   []byte           `json:"model"`
	Outputs []struct {
		Name   string  `json:"name"`
		Type   string  `json:"type"`  // the ONNX data type's name
		Shape  []int64 `json:"shape"` // in elements
		Values []int64 `json:"values"`
		// Data says why the shape depends on the data of a non-constant input, when it does.
		Data    string `json:"data"`
		ONNX112 struct {
			Shape, Type, Verdict string
		} `json:"onnx112"`
		// Spec is the shape the operator's documentation gives, when it differs from the run's.
		Spec []int64 `json:"spec"`
	} `json:"outputs"`
	ONNX112Error string `json:"onnx112_error"`
	// Source says where the outputs come from: "onnxruntime" (a run), "spec" (the documentation's,
	// as onnxruntime refused the model with ORTError), or "" (the node test's own run).
	Source   string `json:"source"`
	ORTError string `json:"ort_error"`
}

// options returns the options c's variant infers its model with: its binding for a bound@K row.
func (c *nodeTest) options() Options {
	if strings.HasPrefix(c.Variant, "bound@") {
		return Options{Dims: c.Binding}
	}
	return Options{}
}

// A nodeCategory is what inference made of a node test, from the best to the worst.
type nodeCategory int

const (
	nodeEqual        nodeCategory = iota // every output's type and shape are the test's
	nodeData                             // a shape the data of a non-constant input decides, bounded soundly
	nodeUndetermined                     // sound but not exact: an unknown type, rank or dim
	nodeNoRule                           // a node has no rule (Result.Unsupported)
	nodeError                            // a node reports an error: the test's inputs are valid
	nodeWrong                            // a type, rank, dim or value that contradicts the test
	nodeRefused                          // the decoder, FromONNX or Infer returns an error
	nodeCrash                            // a panic
)

var nodeCategoryNames = [...]string{"equal", "data-dependent", "undetermined", "no-rule", "error", "wrong", "refused", "crash"}

func (c nodeCategory) String() string { return nodeCategoryNames[c] }

// nodeTestResult is what one node test gave: its category, onnx 1.12's verdict, and what was
// inferred of each output; Problems says what made it worse than undetermined (the decoder's,
// FromONNX's or Infer's error, a panic, node errors, operators without a rule). Source and
// ORTError are the row's (see nodeTest).
type nodeTestResult struct {
	Variant  string           `json:"variant"`
	Name     string           `json:"name"`
	Op       string           `json:"op"`
	Category string           `json:"category"`
	ONNX112  string           `json:"onnx112,omitempty"` // equal, wrong, undetermined or refused; "" without onnx 1.12's inference
	Source   string           `json:"source,omitempty"`
	ORTError string           `json:"ort_error,omitempty"`
	Outputs  []nodeTestOutput `json:"outputs,omitempty"`
	Problems []string         `json:"problems,omitempty"`
	cat      nodeCategory
}

// nodeTestOutput is what was inferred of one output, beside the test's and onnx 1.12's.
type nodeTestOutput struct {
	Name     string `json:"name"`
	Category string `json:"category"`
	Ours     string `json:"ours"`    // element type and shape
	Want     string `json:"want"`    // the test's: ONNX data type and shape
	ONNX112  string `json:"onnx112"` // onnx 1.12's: ONNX data type and shape
	Why      string `json:"why,omitempty"`
	Data     string `json:"data,omitempty"`
	Spec     string `json:"spec,omitempty"` // the documentation's shape, where it differs from the run's
}

// why returns all that r says is not equal, on one line.
func (r *nodeTestResult) why() string {
	var s []string
	for _, o := range r.Outputs {
		if o.Category != nodeEqual.String() {
			s = append(s, fmt.Sprintf("%s: %s, want %s: %s", o.Name, o.Ours, o.Want, o.Why))
		}
	}
	return strings.Join(append(s, r.Problems...), " | ")
}

// readNodeTests returns the rows of the fixture s.file.
func (s *nodeSuite) readNodeTests(t testing.TB) []nodeTest {
	f, err := os.Open(s.file)
	if err != nil {
		t.Fatalf("%v (bench/%s/gen.py writes it)", err, strings.TrimSuffix(filepath.Base(s.file), ".jsonl.gz"))
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var cases []nodeTest
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var c nodeTest
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: line %d: %v", s.file, len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// onnxElement returns the element type of the ONNX data type named name ("FLOAT"); ok is false
// for one the project has none for ("COMPLEX64").
func onnxElement(name string) (element.Type, bool) {
	for d := onnx.DataType(1); !strings.HasPrefix(d.String(), "DataType("); d++ {
		if d.String() == name {
			t, err := d.ElementType()
			return t, err == nil
		}
	}
	return element.Undefined, false
}

// runNodeTest decodes, builds and infers the model of c and classifies the result. A panic is
// caught and reported with the place it happened.
func runNodeTest(c *nodeTest) (r nodeTestResult) {
	r = nodeTestResult{Variant: c.Variant, Name: c.Name, Op: c.Op, ONNX112: onnxVerdict(c), Source: c.Source,
		ORTError: c.ORTError}
	defer func() {
		if p := recover(); p != nil {
			r.cat, r.Outputs, r.Problems = nodeCrash, nil, []string{fmt.Sprintf("panic: %v at %s", p, panicSite())}
		}
		r.Category = r.cat.String()
	}()
	m, err := onnx.DecodeModel(c.Model)
	if err != nil {
		r.cat, r.Problems = nodeRefused, []string{"DecodeModel: " + err.Error()}
		return r
	}
	g, err := FromONNX(m, "")
	if err != nil {
		r.cat, r.Problems = nodeRefused, []string{"FromONNX: " + err.Error()}
		return r
	}
	res, err := Infer(g, c.options())
	if err != nil {
		r.cat, r.Problems = nodeRefused, []string{"Infer: " + err.Error()}
		return r
	}
	for _, o := range c.Outputs {
		in := res.Tensor(o.Name)
		cat, why := compareNodeOutput(in, o.Type, o.Shape, o.Values, c.Binding)
		if cat == nodeUndetermined && o.Data != "" {
			cat = nodeData
		}
		out := nodeTestOutput{Name: o.Name, Category: cat.String(), Ours: infoText(in),
			Want: o.Type + " " + sym.Ints(o.Shape...).String(), Why: strings.Join(why, "; "), Data: o.Data}
		if o.ONNX112.Verdict != "" {
			out.ONNX112 = o.ONNX112.Type + " " + o.ONNX112.Shape
		}
		if o.Spec != nil {
			out.Spec = sym.Ints(o.Spec...).String()
		}
		r.Outputs = append(r.Outputs, out)
		r.cat = max(r.cat, cat)
	}
	if r.cat == nodeWrong {
		return r
	}
	for _, n := range res.Nodes {
		if n.Err != nil {
			r.cat = max(r.cat, nodeError)
			r.Problems = append(r.Problems, n.Path+": "+n.Err.Error())
		}
	}
	if len(res.Unsupported) > 0 {
		r.cat = max(r.cat, nodeNoRule)
		r.Problems = append(r.Problems, "no rule: "+strings.Join(slices.Sorted(maps.Keys(res.Unsupported)), ", "))
	}
	return r
}

// panicSite returns the function and file:line where a recovered panic started.
func panicSite() string {
	pc := make([]uintptr, 32)
	frames := runtime.CallersFrames(pc[:runtime.Callers(3, pc)])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf("%s (%s:%d)", f.Function, filepath.Base(f.File), f.Line)
		}
		if !more {
			return "?"
		}
	}
}

// onnxVerdict returns onnx 1.12's verdict on c: the worst of its outputs', or "" when c has none
// (a fixture without onnx 1.12's inference).
func onnxVerdict(c *nodeTest) string {
	if c.ONNX112Error != "" {
		return "refused"
	}
	v := ""
	for _, o := range c.Outputs {
		switch o.ONNX112.Verdict {
		case "wrong":
			return "wrong"
		case "undetermined":
			v = "undetermined"
		case "equal":
			v = cmp.Or(v, "equal")
		}
	}
	return v
}

// infoText prints the type and shape inferred for a tensor.
func infoText(in *Info) string {
	if in == nil {
		return "nothing"
	}
	return in.Type.String() + " " + in.Shape.String()
}

// compareNodeOutput classifies what was inferred of one output against the test's element type,
// shape and (for small integer and boolean outputs) values: wrong when some of it contradicts
// them, equal when the type is the test's and every dim is the test's value (an integer, or an
// expression in named symbols that evaluates to it at binding), undetermined otherwise; why says
// what is not equal.
func compareNodeOutput(in *Info, typ string, shape, values []int64, binding map[string]int64) (nodeCategory, []string) {
	if in == nil {
		return nodeUndetermined, []string{"no tensor"}
	}
	var cat nodeCategory
	var why []string
	note := func(c nodeCategory, format string, args ...any) {
		cat = max(cat, c)
		why = append(why, fmt.Sprintf(format, args...))
	}
	want, ok := onnxElement(typ)
	switch {
	case in.Type == element.Undefined && !ok:
		note(nodeUndetermined, "element type unknown (%s has no element type)", typ)
	case in.Type == element.Undefined:
		note(nodeUndetermined, "element type unknown")
	case !ok || in.Type != want:
		note(nodeWrong, "element type %v", in.Type)
	}
	switch {
	case in.Shape.RankDynamic:
		note(nodeUndetermined, "rank unknown")
	case len(in.Shape.Dims) != len(shape):
		note(nodeWrong, "rank %d", len(in.Shape.Dims))
	default:
		for i, d := range in.Shape.Dims {
			if c, w := compareDim(d, shape[i], binding); c != nodeEqual {
				note(c, "dim %d %s", i, w)
			}
		}
	}
	if in.Value != nil && values != nil {
		if len(in.Value) != len(values) {
			note(nodeWrong, "%d values, want %d", len(in.Value), len(values))
			return cat, why
		}
		for i, d := range in.Value {
			if c, w := compareDim(d, values[i], binding); c == nodeWrong {
				note(c, "value %d %s", i, w)
			}
		}
	}
	return cat, why
}

// compareDim classifies a dim (or a value) against the test's: wrong when its bounds exclude want
// or its expression in named symbols evaluates to another value at binding (or fails there),
// equal when it is want or such an expression that evaluates to want, undetermined otherwise.
func compareDim(d sym.Dim, want int64, binding map[string]int64) (nodeCategory, string) {
	if lo, hi := d.Bounds(); want < lo || want > hi {
		return nodeWrong, d.String() + " excludes " + strconv.FormatInt(want, 10)
	}
	if _, ok := d.Static(); ok {
		return nodeEqual, ""
	}
	e, ok := d.Expr()
	if !ok || !d.Determined() {
		return nodeUndetermined, d.String()
	}
	for _, name := range e.SymbolNames() {
		if _, ok := binding[name]; !ok {
			return nodeUndetermined, d.String() + " (" + name + " unbound)"
		}
	}
	v, err := e.Eval(func(name string) (int64, bool) { n, ok := binding[name]; return n, ok })
	switch {
	case err != nil:
		return nodeWrong, fmt.Sprintf("%s at the binding: %v", d, err)
	case v != want:
		return nodeWrong, fmt.Sprintf("%s = %d at the binding", d, v)
	}
	return nodeEqual, ""
}

// nodeGolden is the content of a golden file: the counts of equal cases by variant, and the
// category of every case that is not equal, by variant and name.
type nodeGolden struct {
	equal map[string]int
	cat   map[[2]string]string
}

// readNodeGolden reads s.golden; with -update, a missing file reads as empty.
func (s *nodeSuite) readNodeGolden(t *testing.T) nodeGolden {
	g := nodeGolden{equal: map[string]int{}, cat: map[[2]string]string{}}
	b, err := os.ReadFile(s.golden)
	if os.IsNotExist(err) && *update {
		return g
	}
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, s.test)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "#"):
		case len(f) == 3 && f[0] == "equal":
			n, err := strconv.Atoi(f[2])
			if err != nil {
				t.Fatalf("%s:%d: %v", s.golden, i+1, err)
			}
			g.equal[f[1]] = n
		case len(f) == 3:
			g.cat[[2]string{f[0], f[2]}] = f[1]
		default:
			t.Fatalf("%s:%d: %q: want \"equal VARIANT N\" or \"VARIANT CATEGORY NAME\"", s.golden, i+1, line)
		}
	}
	return g
}

// writeNodeGolden writes s.golden: the counts of equal cases by variant, then a line
// "VARIANT CATEGORY NAME" for every case that is not equal, in the order of s.file.
func (s *nodeSuite) writeNodeGolden(t *testing.T, results []nodeTestResult, equal map[string]int) {
	var b bytes.Buffer
	b.WriteString(s.header)
	for _, v := range slices.Sorted(maps.Keys(equal)) {
		fmt.Fprintf(&b, "equal %s %d\n", v, equal[v])
	}
	for _, r := range results {
		if r.cat != nodeEqual {
			fmt.Fprintf(&b, "%s %s %s\n", r.Variant, r.Category, r.Name)
		}
	}
	if err := os.WriteFile(s.golden, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// variantKind returns the kind of a variant: "symbolic" for "symbolic@2".
func variantKind(v string) string {
	k, _, _ := strings.Cut(v, "@")
	return k
}

// run infers every model of s.file and classifies it against what its run gave. No case may be
// wrong or crash, and a case equal in its symbolic@K variant must be equal bound to binding K; the
// other categories are a ratchet: the counts of equal cases are at least the golden file's, and
// every case is in the category it records. With -v it logs the table by kind of variant, and one
// JSON line per case and variant ("nodetest {...}") that bench/nodetests/table.py reads.
func (s *nodeSuite) run(t *testing.T) {
	cases := s.readNodeTests(t)
	golden := s.readNodeGolden(t)
	results := make([]nodeTestResult, len(cases))
	count := map[string]map[string]int{}
	equal := map[string]int{}
	names := map[string]bool{}
	for i := range cases {
		r := runNodeTest(&cases[i])
		results[i] = r
		names[r.Name] = true
		for _, k := range []string{"ours " + r.Category, "onnx112 " + r.ONNX112} {
			if strings.HasSuffix(k, " ") {
				continue
			}
			if count[k] == nil {
				count[k] = map[string]int{}
			}
			count[k][variantKind(r.Variant)]++
		}
		if r.cat == nodeEqual {
			equal[r.Variant]++
		}
		if r.cat >= nodeWrong && r.cat != nodeRefused {
			t.Errorf("%s %s: %s: %s", r.Variant, r.Name, r.Category, r.why())
		}
		if testing.Verbose() {
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("nodetest %s", b)
		}
	}
	byVariant := map[[2]string]*nodeTestResult{}
	for i := range results {
		byVariant[[2]string{results[i].Variant, results[i].Name}] = &results[i]
	}
	for _, r := range results {
		kind, n, _ := strings.Cut(r.Variant, "@")
		if kind != "symbolic" || n == "" || r.cat != nodeEqual {
			continue
		}
		if b := byVariant[[2]string{"bound@" + n, r.Name}]; b != nil && b.cat != nodeEqual {
			t.Errorf("%s: equal in %s, but %s in %s: %s", r.Name, r.Variant, b.Category, b.Variant, b.why())
		}
	}
	var kinds []string
	for _, k := range []string{"static", "symbolic", "bound"} {
		if slices.ContainsFunc(cases, func(c nodeTest) bool { return variantKind(c.Variant) == k }) {
			kinds = append(kinds, k)
		}
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%d %s\n%-22s", len(names), s.what, "")
	for _, k := range kinds {
		fmt.Fprintf(&table, " %8s", k)
	}
	for _, who := range []string{"ours", "onnx112"} {
		for c := range nodeCategoryNames {
			k := who + " " + nodeCategory(c).String()
			if count[k] != nil {
				fmt.Fprintf(&table, "\n%-22s", k)
				for _, kind := range kinds {
					fmt.Fprintf(&table, " %8d", count[k][kind])
				}
			}
		}
	}
	t.Log(table.String())
	if *update {
		s.writeNodeGolden(t, results, equal)
		return
	}
	for v, n := range golden.equal {
		if equal[v] < n {
			t.Errorf("%s: %d cases equal, fewer than the %d of %s", v, equal[v], n, s.golden)
		}
	}
	changed := 0
	for _, r := range results {
		key := [2]string{r.Variant, r.Name}
		want, ok := golden.cat[key]
		if !ok {
			want = nodeEqual.String()
		}
		delete(golden.cat, key)
		if r.Category != want {
			changed++
			t.Errorf("%s %s: %s, %s says %s: %s", r.Variant, r.Name, r.Category, s.golden, want, r.why())
		}
	}
	for _, key := range slices.SortedFunc(maps.Keys(golden.cat), func(a, b [2]string) int { return strings.Compare(a[0]+" "+a[1], b[0]+" "+b[1]) }) {
		changed++
		t.Errorf("%s %s: %s says %s, but %s has no such case", key[0], key[1], s.golden, golden.cat[key], s.file)
	}
	if changed > 0 {
		t.Logf("%d cases changed category: if for the better, go test ./graph -run %s -update records it", changed, s.test)
	}
}

// TestNodeTests infers the models of ONNX's own backend node tests (bench/nodetests) and
// classifies each against the shapes and types its run gave, ours beside onnx 1.12's (see
// nodeSuite.run); bench/nodetests/table.py reads its -v output.
func TestNodeTests(t *testing.T) { nodeTestsSuite.run(t) }

// TestORTCases infers the models of bench/ortcases (the operators and versions ONNX 1.12's node
// tests miss) and classifies each against the shapes and types onnxruntime 1.20.1 gave, or the
// documentation's where onnxruntime refused the model (see nodeSuite.run); bench/nodetests/table.py
// --suite ortcases reads its -v output.
func TestORTCases(t *testing.T) { ortCasesSuite.run(t) }

// TestORTRefusals infers the models of bench/ortcases at the bindings where onnxruntime 1.20.1
// refuses them (testdata/ortrefusals.jsonl.gz): bound, a node of the case's operator reports an
// error; unbound, the stated conditions (Result.Check) fail at the binding.
func TestORTRefusals(t *testing.T) {
	suite := nodeSuite{file: filepath.Join("testdata", "ortrefusals.jsonl.gz")}
	rows := suite.readNodeTests(t)
	if len(rows) == 0 {
		t.Fatal("no refusals")
	}
	for _, row := range rows {
		m, err := onnx.DecodeModel(row.Model)
		if err != nil {
			t.Fatalf("%s: %v", row.Name, err)
		}
		g, err := FromONNX(m, "")
		if err != nil {
			t.Fatalf("%s: %v", row.Name, err)
		}
		bound, err := Infer(g, Options{Dims: row.Binding})
		if err != nil {
			t.Fatalf("%s: %v", row.Name, err)
		}
		found := false
		for _, n := range bound.Nodes {
			found = found || n.Err != nil && n.Node.Op == row.Op
		}
		if !found {
			t.Errorf("%s at %v: no error at %s; onnxruntime: %s", row.Name, row.Binding, row.Op, row.ORTError)
		}
		unbound, err := Infer(g, Options{})
		if err != nil {
			t.Fatalf("%s: %v", row.Name, err)
		}
		if err := unbound.Check(row.Binding); err == nil {
			t.Errorf("%s at %v: the conditions hold; onnxruntime: %s", row.Name, row.Binding, row.ORTError)
		}
	}
}

// TestCompareNodeOutput pins the classification of an inferred output against a node test's.
func TestCompareNodeOutput(t *testing.T) {
	tab := sym.NewTable()
	x0 := sym.Of(tab.Symbol("x:0", 1, sym.Inf))
	x1 := sym.Of(tab.Symbol("x:1", 1, sym.Inf))
	anon := sym.Of(tab.Anon("nz", 0, 6))
	binding := map[string]int64{"x:0": 3, "x:1": 4}
	f32 := func(dims ...sym.Dim) *Info { return &Info{Type: element.F32, Shape: sym.ShapeOf(dims...)} }
	i64 := func(values ...sym.Dim) *Info {
		return &Info{Type: element.I64, Shape: sym.Ints(int64(len(values))), Value: values}
	}
	cases := []struct {
		name   string
		in     *Info
		typ    string
		shape  []int64
		values []int64
		want   nodeCategory
		why    string
	}{
		{"static", f32(sym.Const(3), sym.Const(4)), "FLOAT", []int64{3, 4}, nil, nodeEqual, ""},
		{"symbols", f32(x0, sym.MulDims(x1, sym.Const(2))), "FLOAT", []int64{3, 8}, nil, nodeEqual, ""},
		{"scalar", f32(), "FLOAT", []int64{}, nil, nodeEqual, ""},
		{"other static dim", f32(sym.Const(3), sym.Const(5)), "FLOAT", []int64{3, 4}, nil, nodeWrong, "dim 1 5 excludes 4"},
		{"expression of another value", f32(sym.AddDims(x0, sym.Const(1))), "FLOAT", []int64{3}, nil, nodeWrong, "dim 0 x:0+1 = 4 at the binding"},
		{"interval without the truth", f32(sym.Interval(5, 9)), "FLOAT", []int64{4}, nil, nodeWrong, "dim 0 5..9 excludes 4"},
		{"other rank", f32(sym.Const(12)), "FLOAT", []int64{3, 4}, nil, nodeWrong, "rank 1"},
		{"other type", f32(sym.Const(3)), "DOUBLE", []int64{3}, nil, nodeWrong, "element type f32"},
		{"interval", f32(sym.Const(3), sym.Interval(1, 10)), "FLOAT", []int64{3, 4}, nil, nodeUndetermined, "dim 1 1..10"},
		{"anonymous symbol", f32(anon), "FLOAT", []int64{4}, nil, nodeUndetermined, "dim 0 ..6"},
		{"unbound symbol", f32(sym.Of(tab.Symbol("y:0", 1, sym.Inf))), "FLOAT", []int64{4}, nil, nodeUndetermined, "dim 0 y:0 (y:0 unbound)"},
		{"rank unknown", &Info{Type: element.F32, Shape: sym.DynamicRank()}, "FLOAT", []int64{3}, nil, nodeUndetermined, "rank unknown"},
		{"type unknown", &Info{Shape: sym.Ints(3)}, "FLOAT", []int64{3}, nil, nodeUndetermined, "element type unknown"},
		{"string", &Info{Type: element.String, Shape: sym.Ints(3)}, "STRING", []int64{3}, nil, nodeEqual, ""},
		{"no element type", &Info{Shape: sym.Ints(3)}, "COMPLEX64", []int64{3}, nil, nodeUndetermined, "element type unknown (COMPLEX64 has no element type)"},
		{"values", i64(sym.Const(2), x1), "INT64", []int64{2}, []int64{2, 4}, nodeEqual, ""},
		{"values unknown", i64(sym.Interval(0, 9), sym.UnknownValue()), "INT64", []int64{2}, []int64{2, -4}, nodeEqual, ""},
		{"other value", i64(sym.Const(2), sym.Const(5)), "INT64", []int64{2}, []int64{2, 4}, nodeWrong, "value 1 5 excludes 4"},
		{"no tensor", nil, "FLOAT", []int64{3}, nil, nodeUndetermined, "no tensor"},
	}
	for _, tc := range cases {
		got, why := compareNodeOutput(tc.in, tc.typ, tc.shape, tc.values, binding)
		if got != tc.want || strings.Join(why, "; ") != tc.why {
			t.Errorf("%s: %v %q, want %v %q", tc.name, got, why, tc.want, tc.why)
		}
	}
}

// TestNodeTestVariant pins how a row's variant is inferred (the binding of a bound@K row, no
// binding otherwise) and its kind, and onnx 1.12's verdict on a row, "" for a row without one.
func TestNodeTestVariant(t *testing.T) {
	binding := map[string]int64{"B": 2, "S": 3}
	cases := []struct {
		variant string
		kind    string
		dims    map[string]int64
	}{
		{"static", "static", nil},
		{"symbolic", "symbolic", nil},
		{"symbolic@2", "symbolic", nil},
		{"bound@2", "bound", binding},
	}
	for _, tc := range cases {
		c := nodeTest{Variant: tc.variant, Binding: binding}
		if got := variantKind(tc.variant); got != tc.kind {
			t.Errorf("variantKind(%q) = %q, want %q", tc.variant, got, tc.kind)
		}
		if got := c.options().Dims; !maps.Equal(got, tc.dims) || (got == nil) != (tc.dims == nil) {
			t.Errorf("%s: options().Dims = %v, want %v", tc.variant, got, tc.dims)
		}
	}
	verdicts := []struct {
		outputs []string // each output's onnx112 verdict
		err     string
		want    string
	}{
		{[]string{"", ""}, "", ""},
		{[]string{"equal", "equal"}, "", "equal"},
		{[]string{"equal", "undetermined"}, "", "undetermined"},
		{[]string{"undetermined", "wrong"}, "", "wrong"},
		{[]string{"equal"}, "ValidationError: no schema", "refused"},
	}
	for _, tc := range verdicts {
		var c nodeTest
		if err := json.Unmarshal([]byte(`{"outputs":[`+strings.Repeat(`{},`, len(tc.outputs)-1)+`{}]}`), &c); err != nil {
			t.Fatal(err)
		}
		for i, v := range tc.outputs {
			c.Outputs[i].ONNX112.Verdict = v
		}
		c.ONNX112Error = tc.err
		if got := onnxVerdict(&c); got != tc.want {
			t.Errorf("onnxVerdict(%v, %q) = %q, want %q", tc.outputs, tc.err, got, tc.want)
		}
	}
}

// TestPanicSite checks that a crash is reported where it happened.
func TestPanicSite(t *testing.T) {
	var site string
	func() {
		defer func() {
			recover()
			site = panicSite()
		}()
		panic("a rule's bug")
	}()
	if !strings.Contains(site, "TestPanicSite.func1 (nodetests_test.go:") {
		t.Errorf("panicSite() = %q, want the function that panicked and its line", site)
	}
}

// benchNodeSuite decodes, builds and infers every model of s.file: ns/case is the time of one.
func benchNodeSuite(b *testing.B, s *nodeSuite) {
	cases := s.readNodeTests(b)
	for b.Loop() {
		for i := range cases {
			if r := runNodeTest(&cases[i]); r.cat >= nodeWrong && r.cat != nodeRefused {
				b.Fatalf("%s %s: %s: %s", r.Variant, r.Name, r.Category, r.why())
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/case")
}

// BenchmarkNodeTests decodes, builds and infers every model of ONNX's node tests (both variants).
func BenchmarkNodeTests(b *testing.B) { benchNodeSuite(b, &nodeTestsSuite) }

// BenchmarkORTCases decodes, builds and infers every model of bench/ortcases (every variant and
// binding).
func BenchmarkORTCases(b *testing.B) { benchNodeSuite(b, &ortCasesSuite) }
