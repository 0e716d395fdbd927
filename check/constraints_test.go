package check

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/sym"
)

// TestEqualWhen: a declaration is the inferred shape at every binding that satisfies the
// constraints, or a mismatch that says when the two are equal, if ever.
func TestEqualWhen(t *testing.T) {
	tests := []struct {
		inferred, declared string
		fixed              bool // the model's constraints say N == 1
		want               string
	}{
		{"[N,10,4]", "[N,N,K]", false, "N == 10"}, // DETR's pred_boxes; K only declarations name
		{"[1,1]", "[N,1]", false, "N == 1"},
		{"[1,12]", "[N,12]", true, "0 == 0"}, // equal wherever the model runs
		{"[N,12]", "[N,12]", false, "0 == 0"},
		{"[N,3*H*W]", "[N,?]", false, "0 == 0"}, // a dim known only by its bounds meets the other
		{"[N,?]", "[N,5]", false, "0 == 0"},
		{"[N,1..4]", "[N,5]", false, "0 == 1"},
		{"[2,3]", "[2,4]", false, "0 == 1"},
		{"[2,3]", "[2,3,1]", false, "0 == 1"},
		{"[...]", "[N,3]", false, "0 == 0"},
		{"[N,3]", "[...]", false, "0 == 0"},
		{"[N,N]", "[K,K]", false, "0 == 0"}, // K stands for the first dim it is declared for
		{"[N,H]", "[K,K]", false, "N == H"},
		{"[N,H]", "[N,2*K]", false, "0 == 0"}, // a condition on K, which names whatever it is
		{"[2*N,H]", "[2*N,H]", false, "0 == 0"},
		{"[N,H]", "[N,H+1]", false, "0 == 1"},
		{"[N*H,4]", "[12,4]", false, "N*H == 12"},
	}
	for _, tt := range tests {
		tab := sym.NewTable()
		for _, name := range []string{"N", "H"} {
			tab.Symbol(name, 1, sym.Inf)
		}
		s := sym.NewSolver(tab)
		if tt.fixed {
			n, _ := tab.Lookup("N")
			if _, err := s.Unify(sym.Of(n), sym.Const(1), sym.Origin{Node: "m", Op: "MatMul"}); err != nil {
				t.Fatal(err)
			}
		}
		d := &declarations{equal: s.EqualWhen, model: map[string]bool{"N": true, "H": true}}
		inferred, err1 := sym.ParseShape(tt.inferred, tab)
		declared, err2 := sym.ParseShape(tt.declared, tab)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if got := d.equalWhen(inferred, declared).String(); got != tt.want {
			t.Errorf("%s declared %s: equal when %s, want %s", tt.inferred, tt.declared, got, tt.want)
		}
	}
}

// TestFixes: a constraint fixes the symbols it forces to one value.
func TestFixes(t *testing.T) {
	tests := []struct {
		pred string
		want []string
	}{
		{"N == 1", []string{"N"}},
		{"N <= 1", []string{"N"}}, // N >= 1: N == 1
		{"H >= 16 && H <= 16", []string{"H"}},
		{"2*N == 4 && H >= 3", []string{"N"}},
		{"H >= 13 && H <= 16", nil},
		{"N == H", nil},
		{"N == H+1", nil},
		{"H % 4 == 0", nil},
		{"N == 2 || N == 3", nil},
	}
	for _, tt := range tests {
		tab := sym.NewTable()
		for _, name := range []string{"N", "H"} {
			tab.Symbol(name, 1, sym.Inf)
		}
		p, err := sym.ParsePred(tt.pred, tab)
		if err != nil {
			t.Fatal(err)
		}
		if got := fixes(tab, p); !slices.Equal(got, tt.want) {
			t.Errorf("%s fixes %v, want %v", tt.pred, got, tt.want)
		}
	}
}

// TestBrokenMessage: the message of a node whose constraint a binding breaks says the condition
// and its values first, and keeps what the node's own error says beyond it.
func TestBrokenMessage(t *testing.T) {
	tab := sym.NewTable()
	s := sym.NewSolver(tab)
	if err := s.Require(sym.Eq(tab.Symbol("N", 1, sym.Inf), sym.Int(1)), sym.Origin{Node: "/MatMul", Op: "MatMul", Why: "the inner dims"}); err != nil {
		t.Fatal(err)
	}
	var ce *sym.ConstraintError
	if !errors.As(s.Check(map[string]int64{"N": 2}), &ce) {
		t.Fatal("N == 1 holds at N=2")
	}
	tests := []struct{ msg, want string }{
		{"/MatMul (MatMul): the inner dims: 96 and 48 cannot be equal", "the inner dims: N == 1 does not hold at N=2 (96 and 48 cannot be equal)"},
		{"/MatMul (MatMul): output shape [1,12] has volume 12", "the inner dims: N == 1 does not hold at N=2; output shape [1,12] has volume 12"},
		{"the model declares [2,5], the rules give [1,5]", "the inner dims: N == 1 does not hold at N=2; the model declares [2,5], the rules give [1,5]"},
		{"", "the inner dims: N == 1 does not hold at N=2"},
	}
	for _, tt := range tests {
		if got := brokenMessage(ce, tt.msg); got != tt.want {
			t.Errorf("brokenMessage(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

// FuzzEqualWhen holds equalWhen against evaluation: at every binding of N and H in 1..4 that the
// constraints allow (N == 1 when fixed), the condition holds exactly where the two shapes
// evaluate equal. Shapes of intervals or of names only declarations use are left out: their
// conditions are not the equality of two evaluations.
func FuzzEqualWhen(f *testing.F) {
	for _, s := range [][2]string{
		{"[N,10,4]", "[N,N,4]"}, {"[1,1]", "[N,1]"}, {"[N*H,4]", "[12,4]"}, {"[(H+1)//2,N]", "[H//2,N]"},
		{"[N,H]", "[H,N]"}, {"[2*N]", "[N+H]"}, {"[N % 3,H]", "[1,max(N,H)]"}, {"[N*H/2]", "[H]"},
	} {
		f.Add(s[0], s[1], false)
		f.Add(s[0], s[1], true)
	}
	f.Fuzz(func(t *testing.T, inferredText, declaredText string, fixed bool) {
		tab := sym.NewTable()
		n := tab.Symbol("N", 1, sym.Inf)
		tab.Symbol("H", 1, sym.Inf)
		inferred, err1 := sym.ParseShape(inferredText, tab)
		declared, err2 := sym.ParseShape(declaredText, tab)
		if err1 != nil || err2 != nil || !onlyNH(inferred) || !onlyNH(declared) {
			return
		}
		s := sym.NewSolver(tab)
		if fixed {
			if _, err := s.Unify(sym.Of(n), sym.Const(1), sym.Origin{Node: "m", Op: "MatMul"}); err != nil {
				t.Fatal(err)
			}
		}
		d := &declarations{equal: s.EqualWhen, model: map[string]bool{"N": true, "H": true}}
		when := d.equalWhen(inferred, declared)
		for nv := int64(1); nv <= 4; nv++ {
			for hv := int64(1); hv <= 4; hv++ {
				if fixed && nv != 1 {
					continue
				}
				b := map[string]int64{"N": nv, "H": hv}
				a, errA := inferred.Eval(b)
				c, errC := declared.Eval(b)
				holds, errW := when.Eval(b)
				if errA != nil || errC != nil || errW != nil {
					continue
				}
				if equal := slices.Equal(a, c); holds != equal {
					t.Fatalf("%s declared %s: equal when %s, which is %v at N=%d, H=%d, where they are %v and %v",
						inferred, declared, when, holds, nv, hv, a, c)
				}
			}
		}
	})
}

// onlyNH reports whether every dim of s is an expression in N and H, of a known rank.
func onlyNH(s sym.Shape) bool {
	if s.RankDynamic {
		return false
	}
	for _, d := range s.Dims {
		x, ok := d.Expr()
		if !ok || x.DependsOnAnon() || slices.ContainsFunc(x.SymbolNames(), func(name string) bool { return name != "N" && name != "H" }) {
			return false
		}
	}
	return true
}

// TestConstraintsFirstBroken: at every binding of the grids of testdata/grid, the condition of
// least Seq that the binding breaks, of the report's constraints and the conditions they imply,
// names the node where graph.Result.Check, which evaluates every condition recorded in the order of
// inference, finds the first broken one; and the constraints break exactly where Check finds one:
// minimal lists lose no condition, and keep the blame (cnn_stride at H=2: H >= 3 at /f/f.0/Conv,
// implied by H >= 11 at /f/f.4/Conv).
func TestConstraintsFirstBroken(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "grid", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures in testdata/grid: %v", err)
	}
	compared := 0
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".json"), func(t *testing.T) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var fx struct {
				Model    string `json:"model"`
				Bindings []struct {
					Dims map[string]int64 `json:"dims"`
				} `json:"bindings"`
			}
			if err := json.Unmarshal(b, &fx); err != nil {
				t.Fatal(err)
			}
			model := testenv.Resolve(t, fx.Model)
			rep, err := File(model, Options{})
			if err != nil {
				t.Fatal(err)
			}
			g, err := graph.Open(model, graph.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var opt Options
			res, err := graph.Infer(g, opt.graphOptions())
			if err != nil {
				t.Fatal(err)
			}
			// A model a runtime refuses at load (a node's element types, a kernel it lacks) fails
			// every binding before any condition: Check says so, and there is no first broken.
			if i := slices.IndexFunc(res.Nodes, func(r graph.NodeResult) bool { return r.TypeErr != nil }); i >= 0 {
				if err := res.Check(fx.Bindings[0].Dims); !errors.Is(err, res.Nodes[i].TypeErr) {
					t.Errorf("%s: Check = %v, want the load error of %s", fx.Model, err, res.Nodes[i].Path)
				}
				return
			}
			every := slices.Clone(rep.Constraints)
			for _, im := range rep.Implied {
				every = append(every, im.Constraint)
			}
			for _, bd := range fx.Bindings {
				var listed []string
				seq, minimal := -1, false
				for i, c := range every {
					ok, err := c.Holds.Eval(bd.Dims)
					var ue *sym.UnboundError
					if errors.As(err, &ue) {
						t.Fatalf("%s at %v: %s: %v", fx.Model, bd.Dims, c.Holds, err)
					}
					if ok {
						continue
					}
					minimal = minimal || i < len(rep.Constraints)
					if c.Merged {
						continue // its nodes' own conditions are in Implied
					}
					if seq < 0 || c.Seq < seq {
						seq, listed = c.Seq, append([]string{c.Node}, c.Nodes...)
					}
				}
				recorded := ""
				var ce *sym.ConstraintError
				if err := res.Check(bd.Dims); errors.As(err, &ce) {
					recorded = ce.Constraint.Origin.Node
				} else if err != nil {
					t.Fatalf("%s at %v: %v", fx.Model, bd.Dims, err)
				}
				if recorded == "" && len(listed) > 0 || recorded != "" && (!slices.Contains(listed, recorded) || !minimal) {
					t.Errorf("%s at %v: the first condition broken is at %q (a constraint broken: %v), the first recorded at %q", fx.Model, bd.Dims, listed, minimal, recorded)
				}
				compared++
			}
		})
	}
	t.Logf("%d bindings compared", compared)
}
