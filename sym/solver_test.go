package sym_test

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// constraints returns the solver's constraints as "PRED @ NODE" lines.
func constraints(s *sym.Solver) string {
	var lines []string
	for _, c := range s.Constraints() {
		lines = append(lines, c.Pred.String()+" @ "+c.Origin.Node)
	}
	return strings.Join(lines, "; ")
}

func origin(node string) sym.Origin { return sym.Origin{Node: node, Op: "Op", Why: "why"} }

// step is one thing a rule does with a Solver: unify two dims (a, b), or require a predicate.
type step struct {
	node string
	a, b string // dims to unify
	pred string // or a predicate to require
	want string // the dim Unify returns
	err  string // the start of the error's message, or "" for none
}

func TestSolver(t *testing.T) {
	tests := []struct {
		name   string
		steps  []step
		want   string            // the constraints after the steps
		dims   map[string]string // dims after the steps, with the substitutions applied
		gen    int
		checks map[string]string // bindings ("N=2,T=4") and the start of Check's error
	}{
		{name: "volume of [N,3,4] into [1,12]",
			steps: []step{{node: "r", a: "12*N", b: "12", want: "12"}},
			want:  "N == 1 @ r", dims: map[string]string{"N": "1", "3*N+T": "T+3"}, gen: 1,
			checks: map[string]string{"N=1": "", "N=2": "r (Op): why: N == 1 does not hold at N=2"}},
		{name: "48*N == 48",
			steps: []step{{node: "r", pred: "48*N == 48"}},
			want:  "N == 1 @ r", dims: map[string]string{"N*T": "T"}, gen: 1},
		{name: "two symbols",
			steps: []step{{node: "m", a: "A", b: "B", want: "A"}, {node: "n", a: "B", b: "A", want: "A"}},
			want:  "A == B @ m", dims: map[string]string{"B*C": "A*C"}, gen: 1,
			checks: map[string]string{"A=3": "", "A=3,B=3": "", "A=3,B=4": "m (Op): why: A == B does not hold at A=3, B=4"}},
		{name: "a symbol and an expression",
			steps: []step{{node: "c", a: "T", b: "2*H+1", want: "2*H+1"}},
			want:  "T == 2*H+1 @ c", dims: map[string]string{"T+1": "2*H+2"}, gen: 1},
		{name: "a chain",
			steps: []step{{node: "1", a: "C", b: "B", want: "B"}, {node: "2", a: "B", b: "A", want: "A"}, {node: "3", a: "C", b: "A", want: "A"}},
			want:  "A == B @ 2; A == C @ 1", dims: map[string]string{"C": "A", "B": "A"}, gen: 2},
		{name: "an equation of products",
			steps: []step{{node: "m", a: "N*T", b: "M*K", want: "N*T"}},
			want:  "N*T == M*K @ m", gen: 0},
		{name: "an interval",
			steps: []step{{node: "g", a: "N", b: "1..8", want: "N"}},
			want:  "N <= 8 @ g", gen: 0, checks: map[string]string{"N=8": "", "N=9": "g (Op): why: N <= 8 does not hold at N=9"}},
		{name: "divisibility",
			steps: []step{{node: "r", pred: "T % 4 == 0"}, {node: "s", pred: "(2*T) % 4 == 0"}},
			want:  "T % 4 == 0 @ r",
			checks: map[string]string{"T=8": "", "T=6": "r (Op): why: T % 4 == 0 does not hold at T=6",
				"H=3": "symbol T has no value"}},
		{name: "lower bounds",
			steps: []step{{node: "p", pred: "H - 10 >= 1"}, {node: "q", pred: "H >= 5"}, {node: "c", pred: "H >= 20"}},
			want:  "H >= 20 @ c; H >= 11 @ p", // q's H >= 5 is implied by p's before it
			checks: map[string]string{"H=20": "", "H=15": "c (Op): why: H >= 20 does not hold at H=15",
				"H=10": "p (Op): why: H >= 11 does not hold at H=10"}},
		{name: "a chain of remainders",
			steps: []step{{node: "c4", pred: "H//16 % 2 == 0"}, {node: "c3", pred: "H//8 % 2 == 0"}, {node: "c2", pred: "H//4 % 2 == 0"},
				{node: "c1", pred: "H//2 % 2 == 0"}, {node: "c0", pred: "H % 2 == 0"}},
			want: "H % 32 == 0 @ c0; H//16 % 2 == 0 @ c4; H//2 % 2 == 0 @ c1; H//4 % 2 == 0 @ c2; H//8 % 2 == 0 @ c3",
			checks: map[string]string{"H=64": "", "H=48": "c4 (Op): why: H//16 % 2 == 0 does not hold at H=48",
				"H=2": "c1 (Op): why: H//2 % 2 == 0 does not hold at H=2"}},
		{name: "the same condition twice",
			steps: []step{{node: "1", pred: "T >= 7"}, {node: "2", pred: "T - 7 >= 0"}},
			want:  "T >= 7 @ 1"},
		{name: "never",
			steps: []step{{node: "x", pred: "2*N == 3", err: "x (Op): why: 2*N == 3 never holds"},
				{node: "y", a: "2*N", b: "3", err: "y (Op): why: 2*N == 3 never holds"},
				{node: "z", a: "N", b: "0", err: "z (Op): why: N == 0 never holds"}},
			want: ""},
		{name: "contradictions",
			steps: []step{{node: "a", pred: "N >= 10"}, {node: "b", pred: "N <= 5", err: "b (Op): why: N <= 5 cannot hold with N >= 10 (a (Op): why)"},
				{node: "c", a: "T", b: "4", want: "4"}, {node: "d", pred: "T == 8", err: "d (Op): why: T == 8 cannot hold with T == 4 (c (Op): why)"},
				{node: "e", a: "T", b: "8", err: "e (Op): why: 4 == 8 never holds"}},
			want: "N >= 10 @ a; T == 4 @ c", gen: 1},
		{name: "broadcast",
			steps: []step{{node: "add", pred: "A == B || A == 1 || B == 1"}},
			want:  "A == 1 || A == B || B == 1 @ add",
			checks: map[string]string{"A=3,B=1": "", "A=1,B=3": "", "A=3,B=3": "",
				"A=3,B=2": "add (Op): why: A == 1 || A == B || B == 1 does not hold at A=3, B=2"}},
		{name: "broadcast, then bounds",
			steps: []step{{node: "add", pred: "A == B || A == 1 || B == 1"}, {node: "conv", pred: "A >= 2"}},
			want:  "A >= 2 @ conv; A == 1 || A == B || B == 1 @ add"}, // A >= 2 comes after add
		{name: "bounds, then broadcast",
			steps:  []step{{node: "conv", pred: "A >= 2"}, {node: "add", pred: "A == B || A == 1 || B == 1"}},
			want:   "A >= 2 @ conv; A == B || B == 1 @ add",
			checks: map[string]string{"A=1,B=3": "conv (Op): why: A >= 2 does not hold at A=1", "A=2,B=3": "add (Op): why: A == B || B == 1 does not hold at A=2, B=3"}},
		{name: "a weaker condition at the same node",
			steps: []step{{node: "c", pred: "H >= 3"}, {node: "c", pred: "H >= 11"}, {node: "d", pred: "H >= 7"}},
			want:  "H >= 11 @ c"},
		{name: "a substitution keeps the bounds of its symbol",
			steps: []step{{node: "s", pred: "M == N - 5"}},
			want:  "N >= 6 @ s; N == M+5 @ s", dims: map[string]string{"M+5": "N"}, gen: 1,
			checks: map[string]string{"N=6": "", "N=5": "s (Op): why: N >= 6 does not hold at N=5"}},
		{name: "constraints before a substitution",
			steps: []step{{node: "1", pred: "B >= 3"}, {node: "2", a: "A", b: "B", want: "A"}, {node: "3", pred: "A >= 5"}},
			want:  "A >= 5 @ 3; A >= 3 @ 1; A == B @ 2", gen: 1,
			checks: map[string]string{"A=5": "", "A=4": "3 (Op): why: A >= 5 does not hold at A=4", "A=5,B=2": "1 (Op): why: B >= 3 does not hold at B=2"}},
	}
	for _, tt := range tests {
		tab := sizes()
		s := sym.NewSolver(tab)
		for _, st := range tt.steps {
			var err error
			var got sym.Dim
			if st.pred != "" {
				p, perr := sym.ParsePred(st.pred, tab)
				if perr != nil {
					t.Fatal(perr)
				}
				err = s.Require(p, origin(st.node))
			} else {
				a, _ := sym.ParseDim(st.a, tab)
				b, _ := sym.ParseDim(st.b, tab)
				got, err = s.Unify(a, b, origin(st.node))
				if err == nil && got.String() != st.want {
					t.Errorf("%s: Unify(%s, %s) = %v, want %s", tt.name, st.a, st.b, got, st.want)
				}
			}
			var ce *sym.ConstraintError
			switch {
			case st.err == "" && err != nil:
				t.Errorf("%s: node %s: %v", tt.name, st.node, err)
			case st.err != "" && (!errors.Is(err, errcode.ErrInvalidShape) || !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), st.err)):
				t.Errorf("%s: node %s: %v, want %s", tt.name, st.node, err, st.err)
			}
		}
		if got := constraints(s); got != tt.want {
			t.Errorf("%s: constraints %s, want %s", tt.name, got, tt.want)
		}
		if s.Gen() != tt.gen {
			t.Errorf("%s: Gen = %d, want %d", tt.name, s.Gen(), tt.gen)
		}
		for in, want := range tt.dims {
			d, _ := sym.ParseDim(in, tab)
			if got := s.Dim(d).String(); got != want {
				t.Errorf("%s: %s is %s, want %s", tt.name, in, got, want)
			}
		}
		for b, want := range tt.checks {
			err := s.Check(parseBinding(t, b))
			if want == "" && err != nil || want != "" && (err == nil || !strings.HasPrefix(err.Error(), want)) {
				t.Errorf("%s: Check(%s) = %v, want %q", tt.name, b, err, want)
			}
		}
	}
}

func parseBinding(t *testing.T, s string) map[string]int64 {
	t.Helper()
	b := map[string]int64{}
	for f := range strings.SplitSeq(s, ",") {
		name, v, _ := strings.Cut(f, "=")
		n, err := sym.ParseExpr(v, sym.NewTable())
		c, ok := n.Const()
		if err != nil || !ok {
			t.Fatalf("binding %q", s)
		}
		b[name] = c
	}
	return b
}

// TestSolverBranches joins the constraints of the two branches of an If with ||.
func TestSolverBranches(t *testing.T) {
	tab := sizes()
	n, _ := tab.Lookup("N")
	h, _ := tab.Lookup("H")
	s := sym.NewSolver(tab)
	if err := s.Require(sym.Ge(h, sym.Int(3)), origin("before")); err != nil {
		t.Fatal(err)
	}
	m := s.Mark()
	if d, err := s.Unify(sym.Of(n), sym.Const(1), origin("then/r")); err != nil || d.String() != "1" {
		t.Fatalf("Unify in a branch: %v, %v", d, err)
	}
	if s.Gen() != 0 || s.Dim(sym.Of(n)).String() != "N" {
		t.Errorf("an equality of one branch was substituted: Gen %d", s.Gen())
	}
	then := s.Cut(m)
	m = s.Mark()
	for _, p := range []sym.Pred{sym.Ge(n, sym.Int(4)), sym.Ge(h, sym.Int(2))} {
		if err := s.Require(p, origin("else/c")); err != nil {
			t.Fatal(err)
		}
	}
	els := s.Cut(m)
	if len(then) != 1 || then[0].String() != "N == 1 (then/r (Op): why)" || len(els) != 1 || els[0].Pred.String() != "N >= 4" {
		t.Fatalf("branches: %v and %v", then, els)
	}
	if err := s.Require(sym.Or(sym.All(then), sym.All(els)), origin("if")); err != nil {
		t.Fatal(err)
	}
	if got, want := constraints(s), "H >= 3 @ before; N == 1 || N >= 4 @ if"; got != want {
		t.Errorf("constraints %s, want %s", got, want)
	}
	for b, want := range map[string]string{"N=1,H=3": "", "N=5,H=3": "", "N=2,H=3": "if (Op): why: N == 1 || N >= 4 does not hold at N=2"} {
		err := s.Check(parseBinding(t, b))
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("Check(%s) = %v, want %q", b, err, want)
		}
	}
}

func TestSolverWhen(t *testing.T) {
	tab := sizes()
	s := sym.NewSolver(tab)
	for _, p := range []string{"N >= 2", "T % 4 == 0"} {
		q, _ := sym.ParsePred(p, tab)
		if err := s.Require(q, origin("x")); err != nil {
			t.Fatal(err)
		}
	}
	for in, want := range map[string]string{
		"N >= 1": "0 == 0", "N == 1": "0 == 1", "N == 10": "N == 10", "N <= 1 || H == 2": "H == 2",
		"T % 2 == 0": "0 == 0", "T % 8 == 4": "T % 8 == 4", "T % 2 == 1": "0 == 1", "N >= 2 && H >= 3": "H >= 3",
	} {
		p, err := sym.ParsePred(in, tab)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.When(p).String(); got != want {
			t.Errorf("When(%s) = %s, want %s", in, got, want)
		}
	}
	// A declared [N,N,4] against an inferred [N,10,4]: equal only when N == 10.
	decl, _ := sym.ParseShape("[N,N,4]", tab)
	inf, _ := sym.ParseShape("[N,10,4]", tab)
	var whens []string
	for i := range decl.Dims {
		w, ok := s.EqualWhen(decl.Dims[i], inf.Dims[i])
		if !ok {
			t.Fatalf("dim %d: no condition", i)
		}
		whens = append(whens, w.String())
	}
	if got := strings.Join(whens, "; "); got != "0 == 0; N == 10; 0 == 0" {
		t.Errorf("EqualWhen: %s", got)
	}
	if w, ok := s.EqualWhen(sym.Interval(1, 3), sym.Const(5)); !ok || !w.IsFalse() {
		t.Errorf("1..3 and 5: %v, %v", w, ok)
	}
	if _, ok := s.EqualWhen(sym.Interval(1, 8), sym.Const(5)); ok {
		t.Error("1..8 and 5 are equal on a condition")
	}
}

// TestSolverNever: Never proves a condition holds at no binding that satisfies the recorded
// ones, past what When simplifies; it says false of one that may hold, and of one it cannot prove.
func TestSolverNever(t *testing.T) {
	tab := sizes()
	s := sym.NewSolver(tab)
	q, _ := sym.ParsePred("N >= 2", tab)
	if err := s.Require(q, origin("x")); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]bool{
		"N == 1":   true, // When alone
		"H == 3*H": true, // H >= 1
		// A window of [H//2] by [H//4,2,...] copying H//2 where H//4 is 0: never the volume.
		"H//4 == 0 && H//2 >= 1 && H//2 == 4*(H//2)": true,
		"W <= 3 && W//2 == 4*(W//4) && W >= 2":       true,
		"H//3 == 0 && W <= 4":                        false, // holds at H = 1, W = 1
		"N == 3":                                     false,
		"H % (H//3) == 0 && H <= 2":                  false, // a divisor that may be 0: no proof
	} {
		p, err := sym.ParsePred(in, tab)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Never(p); got != want {
			t.Errorf("Never(%s) = %v, want %v", in, got, want)
		}
	}
}

// TestSolverAnon: the conditions on dims the model does not name count, but are neither listed
// nor checked.
func TestSolverAnon(t *testing.T) {
	tab := sizes()
	n, _ := tab.Lookup("N")
	s := sym.NewSolver(tab)
	count := tab.Anon("NonZero_0:1", 0, 100)
	if d, err := s.Unify(sym.Of(count), sym.Of(n), origin("add")); err != nil || d.String() != "N" {
		t.Fatalf("Unify(count, N) = %v, %v", d, err)
	}
	other := tab.Anon("NonZero_1:1", 0, 100)
	prod, _ := sym.Mul(other, n)
	if err := s.Require(sym.Ge(prod, sym.Int(7)), origin("mul")); err != nil {
		t.Fatal(err)
	}
	if got := constraints(s); got != "N <= 100 @ add" {
		t.Errorf("constraints %s, want N <= 100 @ add (the bound of the count)", got)
	}
	if err := s.Check(map[string]int64{"N": 5}); err != nil {
		t.Errorf("Check(N=5) = %v", err)
	}
	if err := s.Require(sym.Le(prod, sym.Int(6)), origin("cap")); !errors.Is(err, errcode.ErrInvalidShape) {
		t.Errorf("a contradiction on an anonymous dim: %v", err)
	}
}

// TestSolverRecordedMadeTrue: a condition that a later substitution makes true stays in Recorded
// as its node imposed it, so that Minimize keeps it as implied at its node: an Expand that needs
// B in {1, 3}, then a GRU that needs B == 3, and at B = 2 a run stops at the Expand.
func TestSolverRecordedMadeTrue(t *testing.T) {
	tab := sizes()
	n, _ := tab.Lookup("N")
	s := sym.NewSolver(tab)
	if err := s.Require(sym.Or(sym.Eq(n, sym.Int(1)), sym.Eq(n, sym.Int(3))), origin("expand")); err != nil {
		t.Fatal(err)
	}
	if err := s.Require(sym.Eq(n, sym.Int(3)), origin("gru")); err != nil {
		t.Fatal(err)
	}
	if got := constraints(s); got != "N == 3 @ gru" {
		t.Errorf("constraints %s, want N == 3 @ gru", got)
	}
	var got []string
	for _, c := range s.Recorded() {
		got = append(got, c.Pred.String()+" @ "+c.Origin.Node)
	}
	if want := []string{"N in {1, 3} @ expand", "N == 3 @ gru"}; !slices.Equal(got, want) {
		t.Errorf("Recorded %q, want %q", got, want)
	}
	m := sym.Minimize(s.Recorded())
	if len(m.Constraints) != 1 || len(m.Implied) != 1 || m.Implied[0].Origin.Node != "expand" || !slices.Equal(m.Implied[0].By, []int{0}) {
		t.Errorf("Minimize: %v, implied %v; want N == 3, and the expand's condition implied by it", m.Constraints, m.Implied)
	}
}

// BenchmarkSolver records a lower bound on each of n symbols, then unifies them in a chain, so that
// each unification substitutes a symbol that a recorded bound mentions, and lists the
// constraints. ns/symbol (a Require, a Unify and a share of Constraints) stays flat as n grows: a
// substitution revisits only the constraints that mention its symbol (at 1000 symbols it took
// 4.7 ms per symbol when each rebuilt the facts of all).
func BenchmarkSolver(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				tab := sym.NewTable()
				s := sym.NewSolver(tab)
				xs := make([]sym.Dim, n)
				for i := range xs {
					x := tab.Symbol("S"+strconv.Itoa(i), 1, sym.Inf)
					xs[i] = sym.Of(x)
					if err := s.Require(sym.Ge(x, sym.Int(int64(i%7+2))), sym.Origin{Node: "bound"}); err != nil {
						b.Fatal(err)
					}
				}
				for i := 1; i < n; i++ {
					if _, err := s.Unify(xs[i-1], xs[i], sym.Origin{Node: "unify"}); err != nil {
						b.Fatal(err)
					}
				}
				if got := len(s.Constraints()); got != n {
					b.Fatalf("%d constraints, want %d", got, n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/symbol")
		})
	}
}

// TestReplaced: a condition that a later substitution rewrites is in Recorded at the node of that
// substitution, as it then reads (a binding that breaks it alone runs its own node), and in
// Replaced as its node imposed it; Minimal.Imply puts that form in Implied, by the conditions
// kept that prove it.
func TestReplaced(t *testing.T) {
	tab := sym.NewTable()
	b, tt := tab.Symbol("B", 1, 1<<40), tab.Symbol("T", 1, 1<<40)
	s := sym.NewSolver(tab)
	bt, _ := sym.Mul(b, tt)
	if err := s.Require(sym.Eq(bt, sym.Int(6)), origin("r1")); err != nil {
		t.Fatal(err)
	}
	if err := s.Require(sym.Eq(b, sym.Int(1)), origin("r2")); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range s.Recorded() {
		got = append(got, c.Pred.String()+" @ "+c.Origin.Node+": "+c.Origin.Why)
	}
	if want := []string{"T == 6 @ r2: why (r1) with B == 1", "B == 1 @ r2: why"}; !slices.Equal(got, want) {
		t.Errorf("Recorded %q, want %q", got, want)
	}
	rep := s.Replaced()
	if len(rep) != 1 || rep[0].Pred.String() != "B*T == 6" || rep[0].Origin.Node != "r1" {
		t.Fatalf("Replaced %v, want B*T == 6 at r1", rep)
	}
	m := sym.Minimize(s.Recorded())
	m.Imply(rep)
	m.Imply(rep) // once only
	var implied []string
	for _, im := range m.Implied {
		implied = append(implied, im.Pred.String()+" @ "+im.Origin.Node+" by "+strconv.Itoa(len(im.By)))
	}
	if want := []string{"B*T == 6 @ r1 by 2"}; !slices.Equal(implied, want) {
		t.Errorf("Implied %q, want %q", implied, want)
	}
}
