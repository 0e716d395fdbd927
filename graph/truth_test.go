package graph_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/sym"
)

// truth is a fixture of bench/truth: the shapes onnxruntime computed for every tensor of a model
// at one binding of its symbols.
type truth struct {
	Model   string           `json:"model"`
	Binding map[string]int64 `json:"binding"`
	Inputs  map[string]struct {
		Shape []int64 `json:"shape"`
	} `json:"inputs"`
	OK          bool               `json:"ok"`
	Error       string             `json:"error"`
	Shapes      map[string][]int64 `json:"shapes"`
	Values      map[string][]int64 `json:"values"`
	FailedNodes []failedNode       `json:"failed_nodes"`
	Branches    []struct {
		Path   string             `json:"path"`
		Shapes map[string][]int64 `json:"shapes"`
	} `json:"branches"`
}

// failedNode is a node onnxruntime refused (a fixture's failed_nodes).
type failedNode struct{ Name, Op, Path, Error string }

// truthFixtures returns the truth fixtures of the repository (testdata/truth), by path.
func truthFixtures(t *testing.T) map[string]*truth {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "truth", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*truth{}
	for _, p := range paths {
		if strings.HasPrefix(filepath.Base(p), "onnx112_") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var tr truth
		if err := json.Unmarshal(b, &tr); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[p] = &tr
	}
	return out
}

// truthStats counts, over the tensors of a fixture, those whose inferred shape equals the truth,
// those it leaves undetermined, and those it contradicts.
type truthStats struct {
	tensors, equal, undetermined int
	contradicted                 []string
}

// compare checks an inferred shape against the true one: contradicted when some dim cannot be the
// true value (bounds, rank, or an expression that evaluates to another value at the binding).
func compareShape(s sym.Shape, want []int64, binding map[string]int64) (equal, contradicted bool) {
	if s.RankDynamic {
		return false, false
	}
	if len(s.Dims) != len(want) {
		return false, true
	}
	equal = true
	for i, d := range s.Dims {
		lo, hi := d.Bounds()
		if want[i] < lo || want[i] > hi {
			return false, true
		}
		if n, ok := d.Static(); ok {
			if n != want[i] {
				return false, true
			}
			continue
		}
		e, exact := d.Expr()
		if !exact || e.DependsOnAnon() {
			equal = false
			continue
		}
		v, err := e.Eval(func(name string) (int64, bool) { x, ok := binding[name]; return x, ok })
		if err != nil {
			equal = false
			continue
		}
		if v != want[i] {
			return false, true
		}
	}
	return equal, false
}

// truthGolden is the ratchet of TestTruth: for every fixture of testdata/truth and mode, how many
// tensors inference determines equal to onnxruntime's, of how many compared.
var truthGolden = filepath.Join("testdata", "truth.golden")

// truthHeader opens truthGolden.
const truthHeader = `# TestTruth (truth_test.go): for every fixture of testdata/truth and mode (symbolic: the expressions
# evaluated at the fixture's binding; bound: inferred at the binding), the tensors whose inferred shape
# is determined and equal to onnxruntime's, of the tensors compared: FIXTURE MODE EQUAL TENSORS. A count
# that drops fails the test; one that rises, or a fixture added, fails it too until
#   go test ./graph -run TestTruth -update
# writes this file again. Lines of fixtures whose models are missing (../shared) are kept.
`

// updating reports whether -update is set: the flag of package graph's tests (bad_test.go), which
// writes the golden files of TestNodeTests and TestTruth.
func updating() bool { return flag.Lookup("update").Value.String() == "true" }

// readTruthGolden reads truthGolden: the counts "EQUAL TENSORS" by "FIXTURE MODE"; with -update, a
// missing file reads as empty.
func readTruthGolden(t *testing.T) map[string][2]int {
	golden := map[string][2]int{}
	b, err := os.ReadFile(truthGolden)
	if os.IsNotExist(err) && updating() {
		return golden
	}
	if err != nil {
		t.Fatalf("%v (go test ./graph -run TestTruth -update writes it)", err)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		var fixture, mode string
		var counts [2]int
		if n, err := fmt.Sscanf(line, "%s %s %d %d", &fixture, &mode, &counts[0], &counts[1]); n != 4 || err != nil {
			t.Fatalf("%s:%d: %q: want FIXTURE MODE EQUAL TENSORS", truthGolden, i+1, line)
		}
		golden[fixture+" "+mode] = counts
	}
	return golden
}

// TestTruth compares the shapes inferred for the models of the fixtures with the shapes
// onnxruntime computed: symbolically (every expression evaluated at the fixture's binding) and
// with the binding applied (every shape static). No inferred shape may contradict a true one (a
// symbolic one, at a binding that meets the stated conditions); inference at the binding must
// report an error exactly where onnxruntime refuses the run (refusalDisagrees); and
// the counts of tensors determined equal are a ratchet (truthGolden): a drop fails, and so does a
// rise until -update records it.
func TestTruth(t *testing.T) {
	fixtures := truthFixtures(t)
	if len(fixtures) == 0 {
		t.Fatal("no fixtures in testdata/truth")
	}
	paths := make([]string, 0, len(fixtures))
	for p := range fixtures {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	golden := readTruthGolden(t)
	got := map[string][2]int{}
	for _, p := range paths {
		stem := strings.TrimSuffix(filepath.Base(p), ".json")
		t.Run(stem, func(t *testing.T) {
			tr := fixtures[p]
			g := loadONNX(t, testenv.Resolve(t, tr.Model))
			for _, mode := range []string{"symbolic", "bound"} {
				opt := graph.Options{}
				if mode == "bound" {
					opt.Dims = tr.Binding
				}
				res, err := graph.Infer(g, opt)
				if err != nil {
					t.Errorf("%s %s: %v", filepath.Base(p), mode, err)
					continue
				}
				var st truthStats
				// The symbolic shapes hold under the stated conditions: at a binding that breaks
				// one (a refused binding), they need not.
				broken := mode == "symbolic" && res.Check(tr.Binding) != nil
				check := func(where, name string, info *graph.Info, want []int64) {
					st.tensors++
					eq, bad := compareShape(info.Shape, want, tr.Binding)
					switch {
					case bad && broken:
						st.undetermined++
					case bad:
						st.contradicted = append(st.contradicted, fmt.Sprintf("%s%s: inferred %v, true %v", where, name, info.Shape, want))
					case eq:
						st.equal++
					default:
						st.undetermined++
					}
				}
				for name, want := range tr.Shapes {
					if info := res.Tensor(name); info != nil {
						check("", name, info, want)
					}
				}
				// The tensors of the If branches onnxruntime took, by their paths.
				for _, b := range tr.Branches {
					for name, want := range b.Shapes {
						if info := res.Tensor(b.Path + "/" + name); info != nil {
							check(b.Path+": ", name, info, want)
						}
					}
				}
				if mode == "symbolic" {
					for _, c := range conditionsWrong(g, res, tr) {
						t.Errorf("%s: %s", filepath.Base(p), c)
					}
				}
				if mode == "bound" {
					n, bad := valuesContradicted(res, tr)
					for _, c := range bad {
						t.Errorf("%s: value of %s", filepath.Base(p), c)
					}
					t.Logf("%s: %d values known and compared", filepath.Base(p), n)
					if why := refusalDisagrees(g, res, tr); why != "" {
						t.Errorf("%s: run or refuse: %s", filepath.Base(p), why)
					}
				}
				slices.Sort(st.contradicted)
				for _, c := range st.contradicted {
					t.Errorf("%s %s: %s", filepath.Base(p), mode, c)
				}
				t.Logf("%-40s %-8s %4d tensors: %4d equal, %4d undetermined, %d contradicted; unsupported %v",
					filepath.Base(p), mode, st.tensors, st.equal, st.undetermined, len(st.contradicted), res.Unsupported)
				key := stem + " " + mode
				got[key] = [2]int{st.equal, st.tensors}
				if updating() {
					continue
				}
				switch want, ok := golden[key]; {
				case !ok:
					t.Errorf("%s: %d of %d tensors equal, and %s has no line for it (go test ./graph -run TestTruth -update adds it)", key, st.equal, st.tensors, truthGolden)
				case st.equal < want[0]:
					t.Errorf("%s: %d of %d tensors equal, fewer than the %d of %d of %s", key, st.equal, st.tensors, want[0], want[1], truthGolden)
				case st.equal != want[0] || st.tensors != want[1]:
					t.Errorf("%s: %d of %d tensors equal, where %s says %d of %d: if for the better, go test ./graph -run TestTruth -update records it", key, st.equal, st.tensors, truthGolden, want[0], want[1])
				}
			}
		})
	}
	if updating() {
		writeTruthGolden(t, golden, got)
		return
	}
	for key := range golden {
		if stem, _, _ := strings.Cut(key, " "); !slices.ContainsFunc(paths, func(p string) bool { return strings.TrimSuffix(filepath.Base(p), ".json") == stem }) {
			t.Errorf("%s: %s has a line for a fixture testdata/truth does not hold", key, truthGolden)
		}
	}
}

// writeTruthGolden writes truthGolden: the counts got, and the lines of golden for the fixtures
// not run (their models missing), sorted.
func writeTruthGolden(t *testing.T, golden, got map[string][2]int) {
	var lines []string
	ran := map[string]bool{}
	for key := range got {
		stem, _, _ := strings.Cut(key, " ")
		ran[stem] = true
	}
	for key, c := range golden {
		if stem, _, _ := strings.Cut(key, " "); !ran[stem] {
			got[key] = c
		}
	}
	for key, c := range got {
		lines = append(lines, fmt.Sprintf("%s %d %d\n", key, c[0], c[1]))
	}
	slices.Sort(lines)
	if err := os.WriteFile(truthGolden, []byte(truthHeader+strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// refusalDisagrees returns "" when inference at the fixture's binding (res) reports an error exactly
// when onnxruntime refuses to run, at a node onnxruntime refuses or upstream of one (a refusal at
// load, which names no node, agrees with any error); else what disagrees. A refusal without an
// error where inference names a size only a run decides (Loss.RunTime) at a node refused, or
// upstream of one, agrees: the values of the model's data decide it (indices out of range).
// An error that a branch of an If may avoid (NodeResult.Avoidable) counts where onnxruntime refuses:
// it says where the model fails when the branch runs.
func refusalDisagrees(g *graph.Graph, res *graph.Result, tr *truth) string {
	var errs, runTime []string
	for _, r := range res.Nodes {
		if (r.Err == nil || r.NotTaken || r.Avoidable && tr.OK) && r.TypeErr == nil {
			continue
		}
		errs = append(errs, topNode(g, r.Scope, r.Path))
	}
	for _, l := range res.Lost() {
		if l.RunTime {
			runTime = append(runTime, l.Node)
		}
	}
	switch {
	case tr.OK && len(errs) == 0:
		return ""
	case tr.OK:
		return fmt.Sprintf("onnxruntime runs, inference reports errors at %v", errs)
	case len(errs) == 0 && len(tr.FailedNodes) > 0 && upstreamOfAny(g, tr.FailedNodes, runTime):
		return ""
	case len(errs) == 0:
		return "onnxruntime refuses (" + firstLine(tr.Error) + "), inference reports no error"
	case len(tr.FailedNodes) == 0:
		return ""
	}
	if upstreamOfAny(g, tr.FailedNodes, errs) {
		return ""
	}
	return fmt.Sprintf("onnxruntime refuses at %v, inference reports errors at %v, not upstream of them", tr.FailedNodes, errs)
}

// conditionsWrong returns the conditions of the unbound inference res that fail at tr's binding
// at a node of the main graph that onnxruntime ran there (every output of it in tr's shapes): a
// condition stronger than what onnxruntime needs.
func conditionsWrong(g *graph.Graph, res *graph.Result, tr *truth) []string {
	var out []string
	for _, c := range res.NodeConstraints() {
		holds, err := c.Pred.Eval(tr.Binding)
		if err != nil || holds || !ranNode(g, c.Origin.Node, tr) {
			continue
		}
		out = append(out, fmt.Sprintf("%v (%s) fails where onnxruntime runs %s", c.Pred, c.Origin.Why, c.Origin.Node))
	}
	return out
}

// ranNode reports whether onnxruntime ran the node of g's main graph named name at tr's binding:
// every output of it is in tr's shapes.
func ranNode(g *graph.Graph, name string, tr *truth) bool {
	for _, n := range g.Nodes {
		if n.Name != name {
			continue
		}
		for _, o := range n.Outputs {
			if _, ok := tr.Shapes[o]; o != "" && !ok {
				return false
			}
		}
		return len(n.Outputs) > 0
	}
	return false
}

// upstreamOfAny reports whether one of the nodes of g's main graph is a node failed, or upstream of
// one.
func upstreamOfAny(g *graph.Graph, failed []failedNode, nodes []string) bool {
	up := upstreamNodes(g)
	for _, f := range failed {
		name := topNode(g, f.Path, f.Name)
		for _, e := range nodes {
			if up[name][e] {
				return true
			}
		}
	}
	return false
}

// topNode returns the name of the node of g's main graph that holds a node: name itself when scope
// is "" (the main graph), else the node whose subgraph scope is ("If_0" of "If_0/then_branch"; a
// node's name may hold slashes).
func topNode(g *graph.Graph, scope, name string) string {
	if scope == "" {
		return name
	}
	for _, n := range g.Nodes {
		if n.Name != "" && strings.HasPrefix(scope, n.Name+"/") {
			return n.Name
		}
	}
	return scope
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// upstreamNodes returns, for every node of the main graph by name, the set of it and the nodes
// upstream of it (a subgraph's reads of outer names count as its node's inputs).
func upstreamNodes(g *graph.Graph) map[string]map[string]bool {
	producer := map[string]string{}
	for _, n := range g.Nodes {
		for _, o := range n.Outputs {
			producer[o] = n.Name
		}
	}
	var reads func(n *graph.Node, into map[string]bool)
	reads = func(n *graph.Node, into map[string]bool) {
		for _, i := range n.Inputs {
			into[i] = true
		}
		for _, a := range n.Attrs {
			for _, sg := range append([]*graph.Graph{a.Graph}, a.Graphs...) {
				if sg == nil {
					continue
				}
				for k := range sg.Nodes {
					reads(&sg.Nodes[k], into)
				}
			}
		}
	}
	up := map[string]map[string]bool{}
	var visit func(name string) map[string]bool
	byName := map[string]*graph.Node{}
	for k := range g.Nodes {
		byName[g.Nodes[k].Name] = &g.Nodes[k]
	}
	visit = func(name string) map[string]bool {
		if s, ok := up[name]; ok {
			return s
		}
		s := map[string]bool{name: true}
		up[name] = s
		if n := byName[name]; n != nil {
			in := map[string]bool{}
			reads(n, in)
			for t := range in {
				if p, ok := producer[t]; ok {
					for q := range visit(p) {
						s[q] = true
					}
				}
			}
		}
		return s
	}
	for name := range byName {
		visit(name)
	}
	return up
}

// valuesContradicted returns how many of the fixture's values (small integer tensors: a
// SequenceLength's length among them) inference knows at the binding, and those it gets wrong.
func valuesContradicted(res *graph.Result, tr *truth) (compared int, out []string) {
	for name, want := range tr.Values {
		info := res.Tensor(name)
		if info == nil || len(info.Value) != len(want) {
			continue
		}
		compared++
		for i, d := range info.Value {
			if n, ok := d.Static(); ok && n != want[i] {
				out = append(out, fmt.Sprintf("%s: inferred %v, true %v", name, info.Value, want))
				break
			}
		}
	}
	slices.Sort(out)
	return compared, out
}

// TestNodeTruth checks rules against onnxruntime, node by node, at every binding of a bench/truth
// model whose nodes each read their own input: a node is an error at the binding, and the
// conditions it states unbound fail there, exactly where onnxruntime refuses it.
// shape_negative: the rules that read a shape from a tensor's values (Resize's sizes, MaxUnpool's
// output_shape and Col2Im's image_shape, each a dim less 3). unpool_empty: MaxUnpool without
// output_shape at an empty pooled axis, whose output size 0 runs and -1 does not. narrow_negative:
// the sizes rules narrowed to 0 and up without stating it (Tile's repeats, CenterCropPad's shape,
// AffineGrid's size, HannWindow's length, DFT's dft_length, OneHot's depth, each a dim less 3).
func TestNodeTruth(t *testing.T) {
	for _, tc := range []struct {
		model    string
		nodes    []string
		fixtures int
	}{
		{"shape_negative", []string{"rs", "mu", "ci"}, 7},
		{"unpool_empty", []string{"u2", "u3", "u1"}, 5},
		{"narrow_negative", []string{"tl", "te", "cc", "ag", "hw", "df", "oh"}, 6},
	} {
		seen := 0
		for p, tr := range truthFixtures(t) {
			if !strings.HasPrefix(filepath.Base(p), tc.model+".") {
				continue
			}
			seen++
			g := loadONNX(t, testenv.Resolve(t, tr.Model))
			res, err := graph.Infer(g, graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			bound, err := graph.Infer(g, graph.Options{Dims: tr.Binding})
			if err != nil {
				t.Fatal(err)
			}
			for _, node := range tc.nodes {
				refused := slices.ContainsFunc(tr.FailedNodes, func(f failedNode) bool { return f.Name == node })
				holds := true
				for _, c := range res.NodeConstraints() {
					if c.Origin.Node != node {
						continue
					}
					ok, err := c.Pred.Eval(tr.Binding)
					if err != nil {
						t.Fatalf("%s: %v at %v: %v", node, c.Pred, tr.Binding, err)
					}
					holds = holds && ok
				}
				var nodeErr error
				for _, r := range bound.Nodes {
					if r.Path == node {
						nodeErr = r.Err
					}
				}
				if holds == refused || (nodeErr != nil) != refused {
					t.Errorf("%s: %s at %v: onnxruntime refuses %v; its conditions hold %v; error at the binding %v",
						tc.model, node, tr.Binding, refused, holds, nodeErr)
				}
			}
		}
		if seen != tc.fixtures {
			t.Errorf("%d fixtures of %s, want %d", seen, tc.model, tc.fixtures)
		}
	}
}
