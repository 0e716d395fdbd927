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
)

var updateGrid = flag.Bool("update-grid", false, "write the bound-mode disagreements of TestGrid to "+gridGolden)

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

// gridVerdict compares inference at the dims of a group with onnxruntime: "" when they agree (no
// node error where onnxruntime runs; where it refuses every variant, a first node error at a node it
// refuses or upstream of one), else the disagreement in one line. A group onnxruntime refuses at
// session creation only is not compared: ok is false.
func gridVerdict(u upstream, grp *gridGroup, res *graph.Result) (line string, ok bool) {
	var first *graph.NodeResult
	for i := range res.Nodes {
		if res.Nodes[i].Err != nil {
			first = &res.Nodes[i]
			break
		}
	}
	ours := ""
	if first != nil {
		ours = fmt.Sprintf("%s (%s: %s)", first.Path, first.Node.Op, errcode.Code(first.Err))
	}
	var refused []gridRef
	for _, v := range grp.variants {
		if v.OK {
			if first != nil {
				return "false error: onnxruntime runs; we report " + ours, true
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
	if first == nil {
		return "missed: onnxruntime refuses at " + theirs, true
	}
	for _, r := range refused {
		if u.reaches(first.Path, r.path()) {
			return "", true
		}
	}
	return "wrong node: we report " + ours + "; onnxruntime refuses at " + theirs, true
}

// TestGrid holds inference at each binding of the grids of testdata/grid (bench/grid: real models
// run by onnxruntime at a grid of bindings) against what onnxruntime did there: a node error where
// onnxruntime refuses the model, at the node it names or one upstream of it, and none where it runs.
// The bindings where they disagree today are listed in testdata/grid/disagreements.txt: the test
// fails when that list changes, so that whoever fixes one (or breaks one) updates it with
// -update-grid and says so.
func TestGrid(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "grid", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no fixtures in testdata/grid")
	}
	var got []string
	skipped := map[string]bool{}
	agree, compared, session := 0, 0, 0
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
		model := filepath.Join("..", fx.Model)
		if rest, ok := strings.CutPrefix(fx.Model, "../shared/"); ok {
			model = filepath.Join("..", "..", "shared", rest)
		}
		if _, err := os.Stat(model); err != nil {
			t.Logf("%s: skipped, model %s missing (the shared models are read from ../shared): %v", stem, model, err)
			skipped[stem] = true
			continue
		}
		g := loadONNX(t, model)
		u := newUpstream(g)
		for _, grp := range fx.groups() {
			res, err := graph.Infer(g, graph.Options{Dims: grp.dims})
			if err != nil {
				t.Errorf("%s %s: %v", stem, grp.label, err)
				continue
			}
			line, ok := gridVerdict(u, grp, res)
			if !ok {
				session++
				continue
			}
			compared++
			if line == "" {
				agree++
				continue
			}
			got = append(got, stem+" "+grp.label+": "+line)
		}
	}
	t.Logf("%d of %d bindings agree with onnxruntime; %d refused at session creation, not compared", agree, compared, session)
	if *updateGrid {
		var kept []string
		for _, l := range readGolden(t) {
			if skipped[strings.Fields(l)[0]] {
				kept = append(kept, l)
			}
		}
		text := gridHeader + strings.Join(append(got, kept...), "\n") + "\n"
		if err := os.WriteFile(gridGolden, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	var want []string
	for _, l := range readGolden(t) {
		if !skipped[strings.Fields(l)[0]] {
			want = append(want, l)
		}
	}
	for _, l := range got {
		if !slices.Contains(want, l) {
			t.Errorf("new disagreement (fix it, or add it to %s with -update-grid): %s", gridGolden, l)
		}
	}
	for _, l := range want {
		if !slices.Contains(got, l) {
			t.Errorf("listed disagreement gone or changed (update %s with -update-grid): %s", gridGolden, l)
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

// readGolden returns the lines of gridGolden that are not comments.
func readGolden(t *testing.T) []string {
	b, err := os.ReadFile(gridGolden)
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
