package sym_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// TestIsLimit: a condition that holds wherever each symbol is a size up to sym.MaxSize is a
// limit, proven by the exact set of one symbol or by the prover; one that a size below 2^31
// breaks, or that has no value somewhere, is not.
func TestIsLimit(t *testing.T) {
	for _, tc := range []struct {
		pred string
		want bool
	}{
		{"N <= 2147483647", true},
		{"N <= 2147483646", false},
		{"(H+3)//8 <= 2147483647", true},
		{"4*((3*((T+17*min(T,2)+3)//18)+min(T,2))//4)-4*min(T,2) <= 2147483647", true},
		{"N <= 9007199254740992", true},
		{"N <= 16777216", false},
		{"16777216*N <= 2147483647", false},
		{"N*T <= 2147483647", false},
		{"(N//2)*(T//2) <= 4611686018427387904", true},
		{"N+T <= 4294967294", true},
		{"N+T <= 4294967293", false},
		{"H != 2147483648", true},
		{"T*T <= 4611686014132420609", true},
		{"T*T <= 4611686014132420608", false},
		{"T >= 5", false},
		{"T % 4 == 0", false},
		{"N*T/2 <= 2147483647", false},
	} {
		tab := sym.NewTable()
		p, err := sym.ParsePred(tc.pred, tab)
		if err != nil {
			t.Fatal(err)
		}
		if got := sym.IsLimit(p); got != tc.want {
			t.Errorf("IsLimit(%s) = %v, want %v", p, got, tc.want)
		}
	}
}

// TestAddLimits: limits join a minimal list after its conditions, those the conditions imply in
// Implied, and none merges into them; where the conditions contradict a limit, AddLimits
// refuses, and m is as it was.
func TestAddLimits(t *testing.T) {
	for _, tc := range []struct {
		name        string
		conds, lims []string
		want        []string // the conditions, then the limits
		n           int
		implied     string // "PRED by INDICES", each
		ok          bool
	}{
		{"apart", []string{"T >= 5 && T % 72 in {0, 1, 2, 3, 4, 71}"}, []string{"T <= 12884901892"},
			[]string{"T >= 5 && (T % 72 in {0..4, 71})", "T <= 12884901892"}, 1, "", true},
		{"implied by a condition", []string{"N == 1", "T >= 5"}, []string{"N <= 2147483647", "T <= 17179869180"},
			[]string{"N == 1", "T >= 5", "T <= 17179869180"}, 1, "N <= 2147483647 by [0]", true},
		{"a weaker limit", []string{"T >= 5"}, []string{"T <= 17179869180", "T <= 2147483647"},
			[]string{"T >= 5", "T <= 2147483647"}, 1, "T <= 17179869180 by [1]", true},
		{"contradicted", []string{"T >= 17179869181"}, []string{"T <= 17179869180"},
			[]string{"T >= 17179869181"}, 0, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := sym.NewTable()
			constraints := func(ps []string, node string) []sym.Constraint {
				var out []sym.Constraint
				for i, s := range ps {
					p, err := sym.ParsePred(s, tab)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, sym.Constraint{Pred: p, Origin: sym.Origin{Node: fmt.Sprint(node, i), Seq: i}})
				}
				return out
			}
			m := sym.Minimize(constraints(tc.conds, "cond"))
			n, ok := m.AddLimits(constraints(tc.lims, "cast"))
			if n != tc.n || ok != tc.ok {
				t.Errorf("AddLimits = %d, %v, want %d, %v", n, ok, tc.n, tc.ok)
			}
			var got, implied []string
			for _, c := range m.Constraints {
				got = append(got, c.Pred.String())
			}
			for _, im := range m.Implied {
				implied = append(implied, fmt.Sprint(im.Pred, " by ", im.By))
			}
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Errorf("constraints %q, want %q", got, tc.want)
			}
			if strings.Join(implied, "; ") != tc.implied {
				t.Errorf("implied %q, want %q", implied, tc.implied)
			}
		})
	}
}

// A Cast of a dim to int32 states that it fits: a limit, which only a size of 2^31 or more
// breaks; a product of two dims is a condition, which sizes of 65536 break.
func ExampleIsLimit() {
	tab := sym.NewTable()
	for _, s := range []string{"N <= 2147483647", "(H+3)//8 <= 2147483647", "N*T <= 2147483647", "16777216*N <= 2147483647"} {
		p, err := sym.ParsePred(s, tab)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-26s %v\n", p, sym.IsLimit(p))
	}
	// Output:
	// N <= 2147483647            true
	// H <= 17179869180           true
	// N*T <= 2147483647          false
	// N <= 127                   false
}
