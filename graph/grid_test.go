package graph_test

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/sym"
)

var updateGrid = flag.Bool("update-grid", false, "write the disagreements of TestGrid to "+gridGolden+" (bound) and "+unboundGolden)

// gridGolden lists the bindings of testdata/grid where inference at the binding and onnxruntime
// disagree today.
const gridGolden = "../testdata/grid/disagreements.txt"

// gridRef is a node onnxruntime refuses: its name, operator and the path of the If branch or Loop
// body that holds it ("" in the main graph). Node is nil when onnxruntime refuses the model at
// session creation, before running any node.
type gridRef struct {
	Node  *string `json:"node"`
	Op    string  `json:"op"`
	Path  string  `json:"path"`
	Error string  `json:"error"`
}

// path is the node's path in the notation of graph.NodeResult.Path.
func (r gridRef) path() string {
	if r.Path == "" {
		return *r.Node
	}
	return r.Path + "/" + *r.Node
}

// gridBinding is one binding of a grid fixture: the symbols bound, the fills of data inputs it
// changes, and what onnxruntime did: ran (OK), or refused at a node (and at Also, the nodes it
// refuses once that one and what depends on it are removed).
type gridBinding struct {
	Dims  map[string]int64  `json:"dims"`
	Fills map[string]string `json:"fills"`
	OK    bool              `json:"ok"`
	gridRef
	Also []gridRef `json:"also"`
}

// gridFixture is a fixture of bench/grid: a model and the bindings onnxruntime ran it at.
type gridFixture struct {
	Model    string        `json:"model"`
	Symbols  []string      `json:"symbols"`
	Bindings []gridBinding `json:"bindings"`
}

// gridGroup is the bindings of a fixture that bind the symbols alike and differ in the values of
// data inputs: the model runs at those dims when onnxruntime runs any of them.
type gridGroup struct {
	label    string
	dims     map[string]int64
	variants []gridBinding
}

// groups returns the bindings of f grouped by their dims, in the order of their first binding.
func (f *gridFixture) groups() []*gridGroup {
	var out []*gridGroup
	by := map[string]*gridGroup{}
	for _, b := range f.Bindings {
		parts := make([]string, 0, len(f.Symbols))
		for _, s := range f.Symbols {
			if v, ok := b.Dims[s]; ok {
				parts = append(parts, s+"="+strconv.FormatInt(v, 10))
			}
		}
		label := strings.Join(parts, ",")
		g := by[label]
		if g == nil {
			g = &gridGroup{label: label, dims: b.Dims}
			by[label] = g
			out = append(out, g)
		}
		g.variants = append(g.variants, b)
	}
	return out
}

// upstream maps the path of every node of a graph, subgraphs included, to the paths of the nodes it
// depends on: the producers of its inputs and of the outer-scope names its subgraphs read, and the
// node whose subgraph holds it.
type upstream map[string][]string

// scopeFrame is one graph of the lexical scope of a node: the producers of its tensors by name, and
// the names it defines without a node (inputs and constants).
type scopeFrame struct {
	producers map[string]string
	defined   map[string]bool
}

func newUpstream(g *graph.Graph) upstream {
	u := upstream{}
	u.walk(g, "", nil, "")
	return u
}

// walk adds the nodes of g, whose nodes' paths start with scope, in the lexical scope of the frames
// of its enclosing graphs; container is the path of the node that holds g ("" for the main graph).
func (u upstream) walk(g *graph.Graph, scope string, outer []scopeFrame, container string) {
	f := scopeFrame{producers: map[string]string{}, defined: map[string]bool{}}
	for _, in := range g.Inputs {
		f.defined[in.Name] = true
	}
	for name := range g.Consts {
		f.defined[name] = true
	}
	paths := make([]string, len(g.Nodes))
	for i, n := range g.Nodes {
		name := n.Name
		if name == "" {
			name = n.Op + "#" + strconv.Itoa(i)
		}
		paths[i] = name
		if scope != "" {
			paths[i] = scope + "/" + name
		}
		for _, o := range n.Outputs {
			if o != "" {
				f.producers[o] = paths[i]
			}
		}
	}
	frames := append([]scopeFrame{f}, outer...)
	producer := func(name string) string {
		for _, fr := range frames {
			if p, ok := fr.producers[name]; ok {
				return p
			}
			if fr.defined[name] {
				return ""
			}
		}
		return ""
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		var deps []string
		add := func(p string) {
			if p != "" && !slices.Contains(deps, p) {
				deps = append(deps, p)
			}
		}
		for _, in := range n.Inputs {
			add(producer(in))
		}
		for _, a := range n.Attrs {
			if a.Graph != nil {
				for _, ref := range outerRefs(a.Graph) {
					add(producer(ref))
				}
			}
		}
		add(container)
		u[paths[i]] = deps
		for _, a := range n.Attrs {
			if a.Graph != nil {
				u.walk(a.Graph, paths[i]+"/"+a.Name, frames, paths[i])
			}
		}
	}
}

// outerRefs returns the names g and its subgraphs read without defining them.
func outerRefs(g *graph.Graph) []string {
	defined := map[string]bool{}
	for _, in := range g.Inputs {
		defined[in.Name] = true
	}
	for name := range g.Consts {
		defined[name] = true
	}
	for _, n := range g.Nodes {
		for _, o := range n.Outputs {
			defined[o] = true
		}
	}
	var refs []string
	add := func(name string) {
		if name != "" && !defined[name] && !slices.Contains(refs, name) {
			refs = append(refs, name)
		}
	}
	for _, n := range g.Nodes {
		for _, in := range n.Inputs {
			add(in)
		}
		for _, a := range n.Attrs {
			if a.Graph != nil {
				for _, r := range outerRefs(a.Graph) {
					add(r)
				}
			}
		}
	}
	for _, o := range g.Outputs {
		add(o)
	}
	return refs
}

// reaches reports whether the node at path from is to, or upstream of it.
func (u upstream) reaches(from, to string) bool {
	seen := map[string]bool{to: true}
	todo := []string{to}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if p == from {
			return true
		}
		for _, d := range u[p] {
			if !seen[d] {
				seen[d] = true
				todo = append(todo, d)
			}
		}
	}
	return false
}

// gridClaim is what inference says of a binding: the model runs (nil), or it fails at the node
// Path, for the reason Text.
type gridClaim struct{ Path, Text string }

// firstError returns the claim of the first node whose types a runtime refuses at load
// (NodeResult.TypeErr), else of the first node error of res that the model cannot avoid (not
// NodeResult.Avoidable), nil when there is none.
func firstError(res *graph.Result) *gridClaim {
	for i := range res.Nodes {
		if r := &res.Nodes[i]; r.TypeErr != nil { // a refusal at load, before any node runs
			return &gridClaim{r.Path, fmt.Sprintf("%s (%s: %s)", r.Path, r.Node.Op, errcode.Code(r.TypeErr))}
		}
	}
	for i := range res.Nodes {
		if r := &res.Nodes[i]; r.Err != nil && !r.Avoidable {
			return &gridClaim{r.Path, fmt.Sprintf("%s (%s: %s)", r.Path, r.Node.Op, errcode.Code(r.Err))}
		}
	}
	return nil
}

// boundClaim is what inference at the binding (graph.Options.Dims) says: its first node error.
func boundClaim(res *graph.Result) (*gridClaim, error) { return firstError(res), nil }

// unboundClaim is what inference without bindings says of the binding dims: a node error, which
// holds at every binding, or else the first constraint (Result.Check) that dims break, at its
// node. An error is a constraint that cannot be evaluated at dims.
func unboundClaim(res *graph.Result, dims map[string]int64) (*gridClaim, error) {
	if c := firstError(res); c != nil {
		return c, nil
	}
	err := res.Check(dims)
	var ce *sym.ConstraintError
	if errors.As(err, &ce) {
		o := ce.Constraint.Origin
		return &gridClaim{o.Node, fmt.Sprintf("%s (%s: %s)", o.Node, o.Op, ce.Constraint.Pred)}, nil
	}
	return nil, err
}

// gridVerdict compares a claim of inference at the dims of a group with onnxruntime: "" when they
// agree (no failure where onnxruntime runs; where it refuses every variant, a failure at a node it
// refuses or upstream of one), else the disagreement in one line. A group onnxruntime refuses at
// session creation only is not compared: ok is false.
func gridVerdict(u upstream, grp *gridGroup, ours *gridClaim) (line string, ok bool) {
	var refused []gridRef
	for _, v := range grp.variants {
		if v.OK {
			if ours != nil {
				return "false error: onnxruntime runs; we report " + ours.Text, true
			}
			return "", true
		}
		for _, r := range append([]gridRef{v.gridRef}, v.Also...) {
			if r.Node != nil {
				refused = append(refused, r)
			}
		}
	}
	if len(refused) == 0 {
		return "", false
	}
	theirs := fmt.Sprintf("%s (%s: %s)", refused[0].path(), refused[0].Op, refused[0].Error)
	if ours == nil {
		return "missed: onnxruntime refuses at " + theirs, true
	}
	for _, r := range refused {
		if u.reaches(ours.Path, r.path()) {
			return "", true
		}
	}
	return "wrong node: we report " + ours.Text + "; onnxruntime refuses at " + theirs, true
}

// gridMode is one way TestGrid judges inference: at each binding (bound), or once without
// bindings, through the constraints (unbound); its disagreements are listed in golden.
type gridMode struct {
	name, golden, header string
	got                  []string
	agree, compared      int
}

// TestGrid holds inference against what onnxruntime did at each binding of the grids of
// testdata/grid (bench/grid: real models run by onnxruntime at a grid of bindings), in two modes:
//
//   - bound: inference at the binding (graph.Options.Dims) reports a node error where onnxruntime
//     refuses the model, at the node it names or one upstream of it, and none where it runs;
//   - unbound: inference without bindings predicts the same from its node errors and its
//     constraints alone (Result.Check at the binding: the first that fails names the node).
//
// The bindings where they disagree today are listed in testdata/grid/disagreements.txt (bound) and
// testdata/grid/unbound.txt: the test fails when a list changes, so that whoever fixes one (or
// breaks one) updates them with -update-grid and says so.
func TestGrid(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "grid", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no fixtures in testdata/grid")
	}
	bound := &gridMode{name: "bound", golden: gridGolden, header: gridHeader}
	unbound := &gridMode{name: "unbound", golden: unboundGolden, header: unboundHeader}
	skipped := map[string]bool{}
	session := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var fx gridFixture
		if err := json.Unmarshal(b, &fx); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		stem := strings.TrimSuffix(filepath.Base(p), ".json")
		t.Run(stem, func(t *testing.T) {
			// A fixture whose model is missing keeps its lines of the lists.
			skipped[stem] = true
			model := testenv.Resolve(t, fx.Model)
			skipped[stem] = false
			g := loadONNX(t, model)
			u := newUpstream(g)
			free, err := graph.Infer(g, graph.Options{})
			if err != nil {
				t.Fatalf("%s: %v", stem, err)
			}
			for _, grp := range fx.groups() {
				res, err := graph.Infer(g, graph.Options{Dims: grp.dims})
				if err != nil {
					t.Errorf("%s %s: %v", stem, grp.label, err)
					continue
				}
				for _, m := range []*gridMode{bound, unbound} {
					var claim *gridClaim
					if m == bound {
						claim, err = boundClaim(res)
					} else {
						claim, err = unboundClaim(free, grp.dims)
					}
					line, ok := "unevaluable: "+fmt.Sprint(err), true
					if err == nil {
						line, ok = gridVerdict(u, grp, claim)
					}
					if !ok {
						if m == bound {
							session++
						}
						continue
					}
					m.compared++
					if line == "" {
						m.agree++
						continue
					}
					m.got = append(m.got, stem+" "+grp.label+": "+line)
				}
			}
		})
	}
	for _, m := range []*gridMode{bound, unbound} {
		t.Logf("%s: %d of %d bindings agree with onnxruntime; %d refused at session creation, not compared", m.name, m.agree, m.compared, session)
		m.check(t, skipped)
	}
}

// check compares the disagreements of m with its golden list, or writes the list with
// -update-grid; the lines of skipped fixtures are kept as they are.
func (m *gridMode) check(t *testing.T, skipped map[string]bool) {
	t.Helper()
	if *updateGrid {
		var kept []string
		for _, l := range readGolden(t, m.golden) {
			if skipped[strings.Fields(l)[0]] {
				kept = append(kept, l)
			}
		}
		text := m.header + strings.Join(append(m.got, kept...), "\n")
		if len(m.got)+len(kept) > 0 {
			text += "\n"
		}
		if err := os.WriteFile(m.golden, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	var want []string
	for _, l := range readGolden(t, m.golden) {
		if !skipped[strings.Fields(l)[0]] {
			want = append(want, l)
		}
	}
	for _, l := range m.got {
		if !slices.Contains(want, l) {
			t.Errorf("%s: new disagreement (fix it, or add it to %s with -update-grid): %s", m.name, m.golden, l)
		}
	}
	for _, l := range want {
		if !slices.Contains(m.got, l) {
			t.Errorf("%s: listed disagreement gone or changed (update %s with -update-grid): %s", m.name, m.golden, l)
		}
	}
}

// gridHeader opens testdata/grid/disagreements.txt.
const gridHeader = `# The bindings of testdata/grid where graph.Infer at the binding (graph.Options.Dims) and onnxruntime
# disagree, one a line: FIXTURE DIMS: missed (onnxruntime refuses, no node error), false error (it runs,
# a node error), or wrong node (our first node error is neither a node it refuses nor upstream of one).
# TestGrid fails when this list changes: whoever fixes a disagreement (or makes one) regenerates it with
#   go test ./graph -run TestGrid -update-grid
# and says which lines went and why in the commit. Lines of models under ../shared are kept when it is absent.
`

// unboundGolden lists the bindings of testdata/grid where inference without bindings, through its
// node errors and constraints, and onnxruntime disagree today.
const unboundGolden = "../testdata/grid/unbound.txt"

// unboundHeader opens testdata/grid/unbound.txt.
const unboundHeader = `# The bindings of testdata/grid where graph.Infer without bindings and onnxruntime disagree: a node error
# (which holds at every binding), else the first of the constraints that the binding breaks (Result.Check),
# predicts a refusal at its node. One a line: FIXTURE DIMS: missed (onnxruntime refuses, nothing predicts it),
# false error (it runs, a refusal is predicted: a constraint it does not need), wrong node (the predicted
# node is neither a node it refuses nor upstream of one), or unevaluable (a constraint names a symbol the
# binding leaves out). TestGrid fails when this list changes; regenerate it with
#   go test ./graph -run TestGrid -update-grid
# and say which lines went and why in the commit. Lines of models under ../shared are kept when it is absent.
`

// readGolden returns the lines of the golden list path that are not comments.
func readGolden(t *testing.T, path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// TestGridUpstream pins what TestGrid counts as upstream of a node: the producers of its inputs,
// through any number of nodes, the outer-scope names its subgraphs read, and the nodes that hold it;
// never a node downstream of it, beside it in the other branch, or inside it.
func TestGridUpstream(t *testing.T) {
	const (
		thenReshape  = "if_sr/then_branch/if_sr/then/Reshape_0"
		elseReshape  = "if_sr/else_branch/if_sr/else/Reshape_0"
		innerReshape = "outer/then_branch/outer/then/loop/body/outer/then/loop/inner/then_branch/outer/then/loop/inner/then/Reshape_0"
		loopNode     = "outer/then_branch/outer/then/loop"
	)
	for _, c := range []struct {
		model, from, to string
		want            bool
	}{
		{"if_data_branch", thenReshape, thenReshape, true},
		{"if_data_branch", "if_sr", thenReshape, true},
		{"if_data_branch", "Equal_0", thenReshape, true},
		{"if_data_branch", "if_sr/then_branch/if_sr/then/Constant_0", thenReshape, true},
		{"if_data_branch", elseReshape, thenReshape, false},
		{"if_data_branch", "if_sr/then_branch/if_sr/then/ReduceMean_0", thenReshape, false},
		{"if_data_branch", thenReshape, "if_sr", false},
		{"if_data_branch", "Equal_0", "Constant_0", false},
		{"control_nested", "Concat_0", innerReshape, true},
		{"control_nested", "Greater_0", innerReshape, true},
		{"control_nested", loopNode, innerReshape, true},
		{"control_nested", "outer", innerReshape, true},
		{"control_nested", innerReshape, loopNode, false},
		{"control_nested", "Shape_3", innerReshape, false},
	} {
		u := newUpstream(loadONNX(t, filepath.Join("..", "testdata", "models", c.model+".onnx")))
		for _, p := range []string{c.from, c.to} {
			if _, ok := u[p]; !ok {
				t.Fatalf("%s: no node %s", c.model, p)
			}
		}
		if got := u.reaches(c.from, c.to); got != c.want {
			t.Errorf("%s: %s upstream of %s = %v, want %v", c.model, c.from, c.to, got, c.want)
		}
	}
}
