package sym_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// TestMinimize: conditions given at nodes of increasing Seq, the minimal list (each at its node,
// by its Seq), and the implied ones with what implies them.
func TestMinimize(t *testing.T) {
	tab := sym.NewTable()
	for _, n := range []string{"N", "T", "B", "H", "W"} {
		tab.Symbol(n, 1, sym.Inf)
	}
	type at struct {
		pred string
		seq  int
	}
	for _, tc := range []struct {
		name    string
		in      []at
		want    []string // "PRED @SEQ"
		implied []string // "PRED @SEQ by INDICES"
	}{
		{
			// A product equal to a positive constant: each co-factor at least 1 (a flatten into a
			// MatMul after a Conv of H//2-2 rows).
			name:    "bound implied by a product of a common factor",
			in:      []at{{"H >= 6", 1}, {"N*(H//2)*((W+2)//3) == 2*N*((W+2)//3)+180", 2}},
			want:    []string{"N*(H//2)*((W+2)//3) == 2*N*((W+2)//3)+180 @2"},
			implied: []string{"H >= 6 @1 by [0]"},
		},
		{
			name: "bound not implied stays",
			in:   []at{{"W >= 5", 1}, {"N*(H//2)*((W+2)//3) == 2*N*((W+2)//3)+180", 2}},
			want: []string{"W >= 5 @1", "N*(H//2)*((W+2)//3) == 2*N*((W+2)//3)+180 @2"},
		},
		{
			// A symbol fixed after a product of it: the product reads with its value, at the
			// fixing node; the product stays implied at its own.
			name:    "fixed symbol substituted",
			in:      []at{{"T*B == 20", 23}, {"T == 10", 42}},
			want:    []string{"T == 10 @42", "B == 2 @42"},
			implied: []string{"T*B == 20 @23 by [0 1]"},
		},
	} {
		var cs []sym.Constraint
		for i, c := range tc.in {
			p, err := sym.ParsePred(c.pred, tab)
			if err != nil {
				t.Fatalf("%s: %v", c.pred, err)
			}
			cs = append(cs, sym.Constraint{Pred: p, Origin: sym.Origin{Node: fmt.Sprint("n", i), Seq: c.seq}})
		}
		m := sym.Minimize(cs)
		var got, implied []string
		for _, c := range m.Constraints {
			got = append(got, fmt.Sprintf("%s @%d", c.Pred, c.Origin.Seq))
		}
		for _, c := range m.Implied {
			implied = append(implied, fmt.Sprintf("%s @%d by %v", c.Pred, c.Origin.Seq, c.By))
		}
		if !slices.Equal(got, tc.want) || !slices.Equal(implied, tc.implied) {
			t.Errorf("%s: %q, implied %q; want %q, implied %q", tc.name, got, implied, tc.want, tc.implied)
		}
	}
}

// TestMinimizeNever: conditions no binding satisfies. The first that cannot hold with those before
// it is Never, as its node states it, with the fewest it contradicts; the others are minimized
// without it.
func TestMinimizeNever(t *testing.T) {
	tab := sym.NewTable()
	for _, n := range []string{"N", "H", "W"} {
		tab.Symbol(n, 1, sym.Inf)
	}
	long := "H*max(0,(max(0,4*((3*W+2)//8)-1)+max(0,4*((3*W+2)//8)-3)+1)//2-max(0,4*((3*W+2)//8)-3))+" +
		"4*(max(0,(max(0,4*((3*W+2)//8)-1)+max(0,4*((3*W+2)//8)-3)+1)//2-max(0,4*((3*W+2)//8)-3))//2) == " +
		"4*((H+1)//2)*(max(0,(max(0,4*((3*W+2)//8)-1)+max(0,4*((3*W+2)//8)-3)+1)//2-max(0,4*((3*W+2)//8)-3))//2)+" +
		"max(0,(max(0,4*((3*W+2)//8)-1)+max(0,4*((3*W+2)//8)-3)+1)//2-max(0,4*((3*W+2)//8)-3))"
	for _, tc := range []struct {
		name  string
		in    []string // at Seq 1, 2, ...
		never string   // "PRED (NODE): never holds", or "... cannot hold with ..."
		want  []string
	}{
		{
			// bench/random r0_0299: a volume of W elements viewed [3,W//3,3].
			name:  "false alone",
			in:    []string{"H >= 2", "W >= 3", "W == 9*(W//3)"},
			never: "n2: W == 9*(W//3) never holds",
			want:  []string{"H >= 2", "W >= 3"},
		},
		{
			name:  "bounds that leave no value",
			in:    []string{"H <= 4", "W >= 3", "H >= 8"},
			never: "n2: H >= 8 cannot hold with H <= 4 (n0)",
			want:  []string{"H <= 4", "W >= 3"},
		},
		{
			// bench/random r1_0205: a MatMul's inner dims, at no H, W of the bounds before.
			name:  "a conjunction of two symbols",
			in:    []string{"W >= 2", "H >= 2", long},
			never: "n2: " + long + " cannot hold with W >= 2 (n0) and H >= 2 (n1)",
			want:  []string{"W >= 2", "H >= 2"},
		},
		{
			name: "some binding satisfies them",
			in:   []string{"H >= 2", "H <= 4"},
			want: []string{"H in 2..4"},
		},
	} {
		var cs []sym.Constraint
		for i, c := range tc.in {
			p, err := sym.ParsePred(c, tab)
			if err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			cs = append(cs, sym.Constraint{Pred: p, Origin: sym.Origin{Node: fmt.Sprint("n", i), Seq: i + 1}})
		}
		m := sym.Minimize(cs)
		never := ""
		if m.Never != nil {
			never = m.Never.Error()
		}
		var got []string
		for _, c := range m.Constraints {
			got = append(got, c.Pred.String())
		}
		if never != tc.never || !slices.Equal(got, tc.want) {
			t.Errorf("%s: never %q, constraints %q; want %q, %q", tc.name, never, got, tc.never, tc.want)
		}
	}
}
