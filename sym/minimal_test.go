package sym_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
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
			want:    []string{"N*((W+2)//3)*(H//2-2) == 180 @2"},
			implied: []string{"H >= 6 @1 by [0]"},
		},
		{
			// A remainder of one symbol in its simplest form: the equation it is is not
			// rewritten by itself (congruent).
			name: "remainder read simply",
			in:   []at{{"(H+1) % 2 == 1", 1}},
			want: []string{"H % 2 == 0 @1"},
		},
		{
			name: "bound not implied stays",
			in:   []at{{"W >= 5", 1}, {"N*(H//2)*((W+2)//3) == 2*N*((W+2)//3)+180", 2}},
			want: []string{"W >= 5 @1", "N*((W+2)//3)*(H//2-2) == 180 @2"},
		},
		{
			// FuzzMinimal's f04e77493ba7d8ee: the second fails at N == 1, where N/(N+3) has no
			// value; N == 1 does not imply it. N/(N+3) divides at no N >= 1 (it keeps
			// N % (N+3) == 0 beside it, see Cmp): the second is N == 2, which cannot hold with the
			// first (Never), the others minimized without it.
			name: "an exact quotient beside a bound",
			in:   []at{{"N == 1", 1}, {"N == 2 || N == 1 && 2*N != N/(N+3)", 2}},
			want: []string{"N == 1 @1"},
		},
		{
			// As FuzzMinimal's 0051a0e3335507ca (N != 1/max(N,3) beside N == 1): at N == 1,
			// 2*N/max(N,3) is 2/3, no integer, and the second fails. max(N,3) settled to 3 under
			// N <= 2 made it N != 2*N/3, whose canonical form N != 0 holds: implied by N <= 2.
			name: "a negative power settled to a constant",
			in:   []at{{"N <= 2", 1}, {"N == 2 || N != 2*N/max(N,3)", 2}},
			want: []string{"N <= 2 @1", "N == 2 || N != 2*N/max(N,3) @2"},
		},
		{
			// Settled so, N > 1/max(N,3) is N-4/3 >= 0, a whole sum and a fraction: never a
			// value under N <= 3, false, and the second is N == 3.
			name:    "a negative power settled to a fraction",
			in:      []at{{"N <= 3", 1}, {"N == 3 || N == 1 && N != 1/max(N,3)", 2}},
			want:    []string{"N == 3 @2"},
			implied: []string{"N <= 3 @1 by [0]"},
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
	table := func(lo int64) *sym.Table {
		tab := sym.NewTable()
		for _, n := range []string{"N", "H", "W"} {
			tab.Symbol(n, lo, sym.Inf)
		}
		return tab
	}
	long := "H*max(0,(max(0,4*((3*W+2)//8)-1)+max(0,4*((3*W+2)//8)-3)+1)//2-max(0,4*((3*W+2)//8)-3))+" +
		"4*(max(0,(max(0,4*((3*W+2)//8)-1)+max(0,4*((3*W+2)//8)-3)+1)//2-max(0,4*((3*W+2)//8)-3))//2) == " +
		"4*((H+1)//2)*(max(0,(max(0,4*((3*W+2)//8)-1)+max(0,4*((3*W+2)//8)-3)+1)//2-max(0,4*((3*W+2)//8)-3))//2)+" +
		"max(0,(max(0,4*((3*W+2)//8)-1)+max(0,4*((3*W+2)//8)-3)+1)//2-max(0,4*((3*W+2)//8)-3))"
	// long as it prints: x*(H-1) == 4*(x//2)*((H-1)//2), x the max(...) of its terms.
	long2 := "max(0,(max(0,4*((3*W+2)//8)-1)+max(0,4*((3*W+2)//8)-3)+1)//2-max(0,4*((3*W+2)//8)-3))*(H-1) == " +
		"4*(max(0,(max(0,4*((3*W+2)//8)-1)+max(0,4*((3*W+2)//8)-3)+1)//2-max(0,4*((3*W+2)//8)-3))//2)*((H-1)//2)"
	for _, tc := range []struct {
		name  string
		in    []string // at Seq 1, 2, ..., or seq's
		seq   []int
		zero  bool   // the symbols from 0, not 1
		same  bool   // every condition at one node
		never string // "PRED (NODE): never holds", or "... cannot hold with ..."
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
			never: "n2: " + long2 + " cannot hold with W >= 2 (n0) and H >= 2 (n1)",
			want:  []string{"W >= 2", "H >= 2"},
		},
		{
			// Two that never hold, of one node: n0 is named, and n1, which never holds without it
			// either (TestRandomMinimal), stays a condition, so that the list holds nowhere.
			name:  "two of one node",
			in:    []string{"H <= 5", "N*N+H+W == 0 && H >= 8"},
			seq:   []int{1, 1},
			zero:  true,
			never: "n0: H <= 5 cannot hold with N*N+H+W == 0 && H >= 8 (n1)",
			want:  []string{"N*N+H+W == 0 && H >= 8"},
		},
		{
			// bench/random r2_0037: a volume odd where W is odd, and (3*W//2-1)*(2*T+1)*(2*H+1)
			// == 4*T*H*(3*W//2-1) where it is even, odd against even again.
			name:  "an equation no binding satisfies, by parity",
			in:    []string{"4*N*H*W+6*N*W+6*H*W+3*W == 8*N*H*(W//2)+4*N+4*H+2", "N >= 2", "H >= 2"},
			seq:   []int{17, 20, 20},
			never: "n0: 4*N*H*W+6*N*W+6*H*W+3*W == 8*N*H*(W//2)+4*N+4*H+2 never holds",
			want:  []string{"N >= 2", "H >= 2"},
		},
		{
			// bench/random r1_0145: without its Conv's condition, the MatMul's equation of
			// X//2, 0 at every H, holds nowhere either; it implies the bound on W.
			name:  "the others never hold either",
			in:    []string{"W >= 3", "(max(0,H-2)+max(0,H-3)+1)//2 >= max(0,H-3)+2", "N*W*(max(0,(max(0,H-2)+max(0,H-3)+1)//2-max(0,H-3))//2) == 2*N*(max(0,(max(0,H-2)+max(0,H-3)+1)//2-max(0,H-3))//2)+44"},
			seq:   []int{1, 1, 4},
			never: "n1: (max(0,H-2)+max(0,H-3)+1)//2 >= max(0,H-3)+2 never holds",
			want:  []string{"N*(max(0,(max(0,H-2)+max(0,H-3)+1)//2-max(0,H-3))//2)*(W-2) == 44"},
		},
		{
			name: "some binding satisfies them",
			in:   []string{"H >= 2", "H <= 4"},
			want: []string{"H >= 2", "H <= 4"}, // two nodes' bounds, each at its node
		},
		{
			name: "a range of one node",
			in:   []string{"H >= 2", "H <= 4"},
			seq:  []int{3, 3},
			same: true,
			want: []string{"H in 2..4"},
		},
	} {
		tab := table(1)
		if tc.zero {
			tab = table(0)
		}
		var cs []sym.Constraint
		for i, c := range tc.in {
			p, err := sym.ParsePred(c, tab)
			if err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			seq := i + 1
			if tc.seq != nil {
				seq = tc.seq[i]
			}
			node := fmt.Sprint("n", i)
			if tc.same {
				node = "n0"
			}
			cs = append(cs, sym.Constraint{Pred: p, Origin: sym.Origin{Node: node, Seq: seq}})
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
		// The claim, evaluated: where the conditions Never contradicts hold, it does not.
		if m.Never == nil {
			continue
		}
		holds := func(cs []sym.Constraint, b map[string]int64) bool {
			for _, c := range cs {
				if ok, err := c.Pred.Eval(b); err != nil || !ok {
					return false
				}
			}
			return true
		}
		never1 := []sym.Constraint{m.Never.Constraint}
		b := map[string]int64{}
		for n := int64(1); n <= 8; n++ {
			for h := int64(1); h <= 40; h++ {
				for w := int64(1); w <= 60; w++ {
					b["N"], b["H"], b["W"] = n, h, w
					if holds(m.Never.Conflict, b) && holds(never1, b) {
						t.Errorf("%s: at %v %s holds", tc.name, b, m.Never.Constraint.Pred)
					}
				}
			}
		}
	}
}

// TestMinimizeProofs: conditions of random models (bench/random) that others imply through a
// remainder an equation decides, or a product of two factors of which one is at least 1; each
// claim is also evaluated: at every binding of a range, the minimal conditions hold exactly where
// the given ones do.
func TestMinimizeProofs(t *testing.T) {
	tab := sym.NewTable()
	for _, n := range []string{"N", "B", "T", "H", "W"} {
		tab.Symbol(n, 1, sym.Inf)
	}
	for _, tc := range []struct {
		name    string
		in      []string // at Seq 1, 2, ...
		implied []string // "PRED by INDICES"
	}{
		{
			// (X) % 2 where X == 70 (r0_0018).
			name:    "remainder of the product an equation fixes",
			in:      []string{"(N*((W+2)//3)*(max(0,H-2)//3)+N*((W+2)//3)) % 2 == 0", "N*((W+2)//3)*(max(0,H-2)//3)+N*((W+2)//3) == 70"},
			implied: []string{"(N*((W+2)//3)*(max(0,H-2)//3)+N*((W+2)//3)) % 2 == 0 by [0]"},
		},
		{
			// X differs from the equation's side by even multiples (r0_0131).
			name:    "remainder congruent to an equation",
			in:      []string{"N*(H//2)*((W+2)//6) % 2 == 0", "N*(H//2)*((W+2)//6)+6*N*(H//2)+4*N*((W+2)//6)+24*N == 210"},
			implied: []string{"N*(H//2)*((W+2)//6) % 2 == 0 by [0]"},
		},
		{
			// Three times the equation's side, less even terms (r1_0165).
			name:    "remainder congruent to a multiple of an equation",
			in:      []string{"(B*T+B) % 2 == 0", "3*B*T+5*B == 802"},
			implied: []string{"(B*T+B) % 2 == 0 by [0]"},
		},
		{
			// N*(2*W-1)*((H+1)//2-1) == 153 (r0_0132).
			name:    "co-factor of a product at least 1",
			in:      []string{"H >= 3", "2*N*W*((H+1)//2)+N == 2*N*W+N*((H+1)//2)+153"},
			implied: []string{"H >= 3 by [0]"},
		},
		{
			// N*(3*((H+1)//2)-5)*(W+W//2-2) == 560, W+W//2-2 >= 1 where W >= 3 (r0_0079).
			name:    "co-factor positive under a bound",
			in:      []string{"W >= 3", "H >= 3", "3*N*W*((H+1)//2)+3*N*((H+1)//2)*(W//2)+10*N == 5*N*W+6*N*((H+1)//2)+5*N*(W//2)+560"},
			implied: []string{"H >= 3 by [0 1]"},
		},
		{
			// N*(A-1)*(B-1) == 6: either bound gives the other (r1_0160).
			name:    "two bounds, each the other's under a product",
			in:      []string{"H >= 4", "W >= 13", "N*((2*W+11)//18)*(H//2)+N == N*((2*W+11)//18)+N*(H//2)+6"},
			implied: []string{"H >= 4 by [0 1]"},
		},
		{
			// W >= 3 is implied, W >= 4 is not (W = 3, H = 36, N = 11 holds) (r1_0227).
			name:    "bound implied, a stronger one kept",
			in:      []string{"W >= 3", "W >= 4", "3*N*H*((W+1)//2)+3*N*(H//2)*((W+1)//2)+4*N == 4*N*H+4*N*(H//2)+3*N*((W+1)//2)+1166"},
			implied: []string{"W >= 3 by [0]"},
		},
		{
			// SpaceToDepth by 3, then a Split of H/3 in halves: a remainder of an exact quotient
			// holds only where it divides (r1_0073), which its period decides.
			name:    "divisor of an exact quotient",
			in:      []string{"H % 3 == 0", "H/3 % 2 == 0"},
			implied: []string{"H % 3 == 0 by [0]"},
		},
		{
			// Swin's window reverse [-1,H,W,C] of [N,H//7,7,W//7,7,C]: the volume divides where
			// H and W are multiples of 7 (r3_0033).
			name:    "a remainder by symbols that residues make 0",
			in:      []string{"H % 7 == 0", "W % 7 == 0", "49*N*(H//7)*(W//7) % (H*W) == 0"},
			implied: []string{"49*N*(H//7)*(W//7) % (H*W) == 0 by [0 1]"},
		},
		{
			// The window reverse by 3, then a Reshape whose 0 copies the exact quotient
			// 9*N*(H//3)*(W//3)/(H*W), N where H and W are multiples of 3 (r3_0123).
			name: "exact quotients by symbols that residues make polynomials",
			in: []string{"H % 3 == 0", "W % 3 == 0", "9*N*(H//3)*(W//3) % (H*W) == 0",
				"(36*N*H*(H//3)*(W//3)-36*N*(H//3)*(W//3))/W == 0 || 9*N*(H//3)*(W//3)/(H*W) >= 1"},
			implied: []string{
				"9*N*(H//3)*(W//3) % (H*W) == 0 by [0 1]",
				"(36*N*H*(H//3)*(W//3)-36*N*(H//3)*(W//3))/W == 0 || 9*N*(H//3)*(W//3)/(H*W) >= 1 by [0 1]",
			},
		},
		{
			// The window reverse after Convs: the volume's equation makes the remainder of the
			// -1 that follows N*A*B % (A*B) (r3_0093).
			name:    "a remainder by symbols that an equation makes 0",
			in:      []string{"((H+17)//18)*((W+3)//4) == 9*((H+17)//54)*((W+3)//12)", "9*N*((H+17)//54)*((W+3)//12) % (((H+17)//18)*((W+3)//4)) == 0"},
			implied: []string{"9*N*((H+17)//54)*((W+3)//12) % (((H+17)//18)*((W+3)//4)) == 0 by [0]"},
		},
		{
			// A Reshape to [B,4,T+T//4-2] of a -1 that may copy: its dividend is a multiple of its
			// divisor, at least 1 where T >= 3 (r3_0138).
			name:    "a remainder by a sum that divides the dividend",
			in:      []string{"T >= 3", "T == 2 || T >= 3 && (4*B*T+4*B*(T//4)-8*B) % (T+T//4-2) == 0"},
			implied: []string{"T == 2 || T >= 3 && (4*B*T+4*B*(T//4)-8*B) % (T+T//4-2) == 0 by [0]"},
		},
		{
			// The Reshape of r3_0138 that follows: its input's first dim the exact quotient of
			// 4*B*(T+T//4-2) by T+T//4-4*min(T+T//4-2,1)+2, 4*B where T >= 3.
			name: "an exact quotient by a sum of a multiple of it",
			in: []string{"T >= 3",
				"4*B*T+4*B*(T//4)+4*((4*B*T+4*B*(T//4)-8*B)/(T+T//4-4*min(T+T//4-2,1)+2))*min(T+T//4-2,1) == T*((4*B*T+4*B*(T//4)-8*B)/(T+T//4-4*min(T+T//4-2,1)+2))+(T//4)*((4*B*T+4*B*(T//4)-8*B)/(T+T//4-4*min(T+T//4-2,1)+2))+8*B+2*((4*B*T+4*B*(T//4)-8*B)/(T+T//4-4*min(T+T//4-2,1)+2))"},
			implied: []string{"4*B*T+4*B*(T//4)+4*((4*B*T+4*B*(T//4)-8*B)/(T+T//4-4*min(T+T//4-2,1)+2))*min(T+T//4-2,1) == T*((4*B*T+4*B*(T//4)-8*B)/(T+T//4-4*min(T+T//4-2,1)+2))+(T//4)*((4*B*T+4*B*(T//4)-8*B)/(T+T//4-4*min(T+T//4-2,1)+2))+8*B+2*((4*B*T+4*B*(T//4)-8*B)/(T+T//4-4*min(T+T//4-2,1)+2)) by [0]"},
		},
		{
			// Not implied: (B*T+B)/(T-2) == B*T is not a whole multiple, so it may have no value
			// (B == 1, T == 4).
			name:    "an exact quotient by a sum, not a multiple",
			in:      []string{"T >= 3", "(B*T+B)/(T+T//4-2) >= 1"},
			implied: nil,
		},
		{
			// A remainder of a multiple of its divisor, which is -1 or at least 1: always 0
			// (r3_0165).
			name:    "a remainder by a divisor never 0",
			in:      []string{"(8*N*((W+3)//6)+8*N*(W//3)-8*N) % ((W+3)//6+W//3-1) == 0"},
			implied: []string{"(8*N*((W+3)//6)+8*N*(W//3)-8*N) % ((W+3)//6+W//3-1) == 0 by []"},
		},
		{
			// Not implied: (2*B*T+B) % (T-2) is 9 % 2 at B == 1, T == 4.
			name:    "a remainder by a sum that leaves a remainder",
			in:      []string{"T >= 3", "(2*B*T+B) % (T-2) == 0"},
			implied: nil,
		},
		{
			// A remainder by 4*(H-2)*(W-(2*W+2)//3), which is 0 at W <= 2: where it has a value,
			// W >= 3 (r3_0111).
			name: "a bound that a divisor not 0 gives",
			in: []string{"H % 3 == 0", "W >= 3",
				"(8*N*W*(H//2)-8*N*((2*W+2)//3)*(H//2)-8*N*W+8*N*((2*W+2)//3)) % (4*H*W-4*H*((2*W+2)//3)-8*W+8*((2*W+2)//3)) == 0"},
			implied: []string{"W >= 3 by [1]"},
		},
		{
			// Not implied: N*B % (A*B) is not 0 at N == 1 where A == 2 and B == 1 hold
			// A*B == 2*B.
			name:    "a remainder by symbols that an equation leaves",
			in:      []string{"H*W == 2*W", "N*W % (H*W) == 0"},
			implied: nil,
		},
		{
			// Not implied: H == 2, W == 1, N == 1 gives 2*N*(H//2)*W % (H*W) == 0 while the
			// quotient 2*N*(H//2)*W/(H*W) is 1, not 2.
			name:    "exact quotient by symbols, not implied",
			in:      []string{"H % 2 == 0", "2*N*(H//2)*W/(H*W) >= 2"},
			implied: nil,
		},
		{
			// (T+3)/6 odd: T % 12 == 3, so T odd; neither T >= 16 (T = 15) nor T % 5 == 0 (T = 3)
			// is implied by it, and with them it reads as one: T >= 16 && T % 60 == 15.
			name:    "divisor of an exact quotient, others joined",
			in:      []string{"T % 2 == 1", "T % 5 == 0", "T >= 16", "(T+3)/6 % 2 == 1"},
			implied: []string{"T % 2 == 1 by [0]", "T % 5 == 0 by [0]", "T >= 16 by [0]", "((T+3)/6) % 2 == 1 by [0]"},
		},
		{
			// r3_0111: the -1 of a Reshape of H-2 rows by H//2-1, a multiple where H is even; of
			// the residues of H, H % 2 == 0 and H % 3 == 0 are H % 6 == 0.
			name:    "a divisibility under the residues of two conditions",
			in:      []string{"H % 3 == 0", "H >= 4", "H % 2 == 0", "(2*N*(H//2)-2*N) % (H-2) == 0"},
			implied: []string{"H % 3 == 0 by [0]", "H >= 4 by [0]", "(2*N*(H//2)-2*N) % (H-2) == 0 by [0]", "H % 2 == 0 by [0]"},
		},
		{
			// (T-1)*(W+1) == 0 where (H+1)//4 == 0: no H below 3 with T >= 3 (r2_0110).
			name:    "a product equal to 0 with a positive factor",
			in:      []string{"T >= 2", "T*W*((H+1)//2)+T*((H+1)//2)+8*((H+1)//4)*((W+1)//2) == 8*((H+1)//4)*((T+1)//2)*((W+1)//2)+W*((H+1)//2)+(H+1)//2", "T >= 3", "H >= 3"},
			implied: []string{"T >= 2 by [1]", "H >= 3 by [0 1]"},
		},
		{
			// A*(B-1)*(C-1) == 2 with B-1 >= 0: B >= 2, T >= 9 (r2_0236).
			name:    "a factor from 0 of a positive product",
			in:      []string{"T >= 9", "((H+3)//10)*((T+7)//8)*((W+2)//3)+(H+3)//10 == ((H+3)//10)*((T+7)//8)+((H+3)//10)*((W+2)//3)+2"},
			implied: []string{"T >= 9 by [0]"},
		},
		{
			// (H-2)*(H-2+H//2) >= 0: at H = 2*k+r a polynomial in k of degree 2, 6*k*k-10*k+4
			// or 6*k*k-5*k+1, which no integer k makes negative (r3_0178).
			name:    "a product never negative under a floor division",
			in:      []string{"H*H+H*(H//2) >= 4*H+2*(H//2)-4", "H >= 3"},
			implied: []string{"H*H+H*(H//2) >= 4*H+2*(H//2)-4 by []"},
		},
		{
			// A*B == 8*A2*C at H <= 6, where A = S//3 is at most 2*A2+1 for A2 = S//6 >= 1,
			// B = (H-1)//3 is 0 or 1 and C >= 1: no H below 7, by H's values and T's residues
			// modulo 8 (r2_0009).
			name: "a bound of a symbol of few values that a volume implies",
			in: []string{"W % 2 == 0", "W >= 12",
				"(((T+1)//2+(T+3)//4)//3)*((H-1)//3)*(W//4-1) == 8*(((T+1)//2+(T+3)//4)//6)*((H-1)//6)*((W-4)//8) && H >= 7 || (((T+1)//2+(T+3)//4)//3)*((H-1)//3) == 8*(((T+1)//2+(T+3)//4)//6)*((W-4)//8) && H <= 6",
				"T >= 7", "H >= 7"},
			implied: []string{"H >= 7 by [1 2 3]"},
		},
		{
			// torch's open slice end: 3*min(...,2^62) past the case leaves int64 (r1_0099).
			name:    "always true with an extremum of 2^62",
			in:      []string{"2*((T+2)//3) >= (T+3*max(3*((T+2)//3)-4611686018427387904,-1)+2)//6+2"},
			implied: []string{"2*((T+2)//3) >= (T+3*max(3*((T+2)//3)-4611686018427387904,-1)+2)//6+2 by []"},
		},
		{
			// Two Convs after a slice to 2^62 and a U-Net skip, and a MatMul of their output:
			// each output at least 1 follows from the next (r0_0280).
			name: "bounds through min(W-3,2^62)",
			in: []string{
				"(min(0,W-min(W-1,1)-2)+3*min(W-min(W-1,1)-2,4611686018427387904)+2)//4 > (min(0,W-min(W-1,1)-2)+min(W-min(W-1,1)-2,4611686018427387904))//2",
				"((min(0,W-min(W-1,1)-2)+3*min(W-min(W-1,1)-2,4611686018427387904)+2)//4+(min(0,W-min(W-1,1)-2)+min(W-min(W-1,1)-2,4611686018427387904))//2)//2 > (min(0,W-min(W-1,1)-2)+min(W-min(W-1,1)-2,4611686018427387904))//2",
				"(((min(0,W-min(W-1,1)-2)+3*min(W-min(W-1,1)-2,4611686018427387904)+2)//4+(min(0,W-min(W-1,1)-2)+min(W-min(W-1,1)-2,4611686018427387904))//2)//2)*((H+1)//2) == ((H+1)//2)*((min(0,W-min(W-1,1)-2)+min(W-min(W-1,1)-2,4611686018427387904))//2)+28",
			},
			implied: []string{
				"(min(0,W-min(W-1,1)-2)+3*min(W-min(W-1,1)-2,4611686018427387904)+2)//4 > (min(0,W-min(W-1,1)-2)+min(W-min(W-1,1)-2,4611686018427387904))//2 by [0]",
				"((min(0,W-min(W-1,1)-2)+3*min(W-min(W-1,1)-2,4611686018427387904)+2)//4+(min(0,W-min(W-1,1)-2)+min(W-min(W-1,1)-2,4611686018427387904))//2)//2 > (min(0,W-min(W-1,1)-2)+min(W-min(W-1,1)-2,4611686018427387904))//2 by [0]",
			},
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
		var implied []string
		for _, c := range m.Implied {
			implied = append(implied, fmt.Sprintf("%s by %v", c.Pred, c.By))
		}
		if !slices.Equal(implied, tc.implied) {
			t.Errorf("%s: implied %q, want %q (kept %v)", tc.name, implied, tc.implied, m.Constraints)
		}
		all := func(cs []sym.Constraint, b map[string]int64) bool {
			for _, c := range cs {
				if ok, err := c.Pred.Eval(b); err != nil || !ok {
					return false
				}
			}
			return true
		}
		b := map[string]int64{}
		check := func() {
			if got, want := all(m.Constraints, b), all(cs, b); got != want {
				t.Fatalf("%s: at %v the minimal conditions give %v, the given ones %v", tc.name, b, got, want)
			}
		}
		for n := int64(1); n <= 12; n++ {
			for h := int64(1); h <= 120; h++ {
				for w := int64(1); w <= 40; w++ {
					b["N"], b["B"], b["H"], b["T"], b["W"] = n, n, h, h, w
					check()
				}
			}
		}
		// One symbol far out (about 2^31, 2^62, where torch's open slice ends, and 2^63-1), the
		// others small.
		var far []int64
		for _, base := range []int64{1 << 31, 1 << 62} {
			for d := int64(-8); d <= 8; d++ {
				far = append(far, base+d)
			}
		}
		far = append(far, math.MaxInt64-1, math.MaxInt64)
		for _, x := range []string{"N", "H", "W"} {
			for _, v := range far {
				for k := int64(1); k <= 40; k++ {
					b["N"], b["B"], b["H"], b["T"], b["W"] = k, k, k, k, (k-1)%6+1
					if x == "N" {
						b["B"] = v
					}
					if x == "H" {
						b["T"] = v
					}
					b[x] = v
					check()
				}
			}
		}
	}
}

// TestMinimizeReadable: conditions of random models (bench/random) that Minimize writes short, each
// minimal list equal to the given conditions over a range of bindings.
func TestMinimizeReadable(t *testing.T) {
	tab := sym.NewTable()
	for _, n := range []string{"N", "H", "W"} {
		tab.Symbol(n, 1, sym.Inf)
	}
	type at struct {
		pred string
		seq  int
	}
	for _, tc := range []struct {
		name string
		in   []at
		want []string // "PRED @SEQ"
		h    int64    // the values of H evaluated, from 1 (W from 1 to 40, N from 1 to 3)
	}{
		{
			// ppocrv4_rec: a Conv's least size and a Cast's int32 range of a later node: two
			// conditions, each at its node, not one range at the Cast that leaves the Conv's
			// implied by it and explains the least size as the Cast's.
			name: "a bound kept at its node",
			in:   []at{{"H >= 5", 593}, {"(H+3)//8 <= 2147483647", 604}},
			want: []string{"H >= 5 @593", "H <= 17179869180 @604"},
			h:    100,
		},
		{
			// r3_0159: a Split of H//3 rows whose parts must not be negative, under a remainder
			// that an earlier node needs: its rule and'ed with ranges.
			name: "a remainder's rule and ranges",
			in:   []at{{"H >= 73 && H % 3 == 0", 29}, {"((min(H*((H+2)//3)-2*((H+2)//3)*((H+2)//3),(H+2)//3)+11)//12+(min(H*((H+2)//3)-2*((H+2)//3)*((H+2)//3),(H+2)//3)+11)//24)//2+2*((min(H*((H+2)//3)-2*((H+2)//3)*((H+2)//3),(H+2)//3)+11)//24) >= 3*((((min(H*((H+2)//3)-2*((H+2)//3)*((H+2)//3),(H+2)//3)+11)//12+(min(H*((H+2)//3)-2*((H+2)//3)*((H+2)//3),(H+2)//3)+11)//24)//2+3*((min(H*((H+2)//3)-2*((H+2)//3)*((H+2)//3),(H+2)//3)+11)//24)+3)//4)", 37}},
			want: []string{"H % 3 == 0 && (H >= 795 || H in 363..648) @29"},
			h:    1000,
		},
		{
			// r3_0182: the -1 of a Reshape, case by case of a 0-copy, whose divisor is not 0
			// under the bounds beside it: each case true, and the whole implied by the others.
			name: "remainders by a divisor the bounds beside it keep from 0",
			in: []at{{"W >= 2", 2}, {"((H+1)//4)*((9*W-2)//16) == 4*((H+1)//8)*((9*W-2)//32)", 44},
				{"H >= 7 && W >= 4 && (16*N*((9*W+30)//32)*((H+1)//8)-64*N*((H+1)//8)*min((9*W+30)//32-1,1)+48*N*((H+1)//8)) % (4*N*((9*W+30)//32)*((H+1)//8)-4*N*((H+1)//8)) == 0 || H <= 6 && W >= 4 && (16*N*((9*W+30)//32)*((H+1)//8)-64*N*((H+1)//8)*min((9*W+30)//32-1,1)+48*N*((H+1)//8)) % (16*N*((9*W+30)//32)-16*N) == 0 || H <= 6 && W <= 3 && (((9*W+30)//32)*((H+1)//8)+3*((H+1)//8)) % 4 == 0", 48}},
			want: []string{"W >= 2 @2", "((H+1)//4)*((9*W-2)//16) == 4*((H+1)//8)*((9*W-2)//32) @44"},
			h:    200,
		},
		{
			// r2_0055: ((2*H+1)//3+1) % 3 is (2*H+1)//3+1-3*((2*H+4)//9), which makes the volume
			// a product equal to 0; then each case of W == 2.
			name: "a remainder of a floor beside its floor",
			in:   []at{{"W*((2*H+1)//3)+((2*H+1)//3)*(W//2)+W+W//2 == 3*W*((2*H+4)//9)+3*((2*H+4)//9)*(W//2)+3*(((2*H+1)//3+1) % 3) && (H == 3 || H >= 7) || H <= 6 && (H == 3 || W == 2)", 17}},
			want: []string{"W == 2 || H % 9 in {3, 7, 8} @17"},
			h:    200,
		},
		{
			// r2_0073: W <= 3 contradicts the volume beside it, and then the remainders imply it.
			name: "terms of a conjunction under the others",
			in:   []at{{"(H//2)*(W//2) == 4*(H//4)*(W//4) && H >= 4 && W >= 2 && (W <= 3 || H % 4 <= 1) && (W <= 3 || W % 4 <= 1) || H == 2 && W % 2 == 0", 21}},
			want: []string{"H == 2 && W % 2 == 0 || H >= 4 && W >= 2 && H % 4 <= 1 && W % 4 <= 1 @21"},
			h:    200,
		},
		{
			// r3_0081: a MaxPool's T-(T+1)//2 rows, at least 1 from T >= 5, settle the minimum
			// beside it; then the remainders are one.
			name: "a minimum the bounds beside it settle",
			in: []at{{"H <= 3 || H % 2 == 0", 8}, {"((H+1)//2)*min(H-(H+1)//2,1) == 0 || ((H+1)//2)*min(H-(H+1)//2,1) >= 3", 17},
				{"((H+1)//2)*min(H-(H+1)//2,1) % 3 == 0", 17}, {"H >= 5", 23}},
			want: []string{"H % 6 == 0 @8"},
			h:    300,
		},
		{
			// r3_0191: a minimum that H >= 2 does not settle (0 at H = 2) hides the period of
			// the remainder of its product, which the values show.
			name: "a period a minimum hides",
			in:   []at{{"H >= 2", 3}, {"(H//2)*min(H-H//2-1,1) % 2 == 0", 9}},
			want: []string{"H >= 2 @3", "H == 2 || H % 4 <= 1 @9"},
			h:    300,
		},
		{
			// r2_0084: the branches of an If, each a range and a remainder of a floor: each case
			// a range and a remainder set.
			name: "each case of one symbol read simply",
			in:   []at{{"H >= 111 && (H+1)//4 % 2 == 0 || H in 3..110 && (H+1)//2 % 2 == 0", 5}},
			want: []string{"H >= 111 && (H % 8 in {0, 1, 2, 7}) || H in 3..110 && (H % 4 in {0, 3}) @5"},
			h:    300,
		},
		{
			// r2_0099: a Split of (H//3)/4 in 3 parts, an exact quotient (no value where H//3 is
			// no multiple of 4): a remainder set, which has one everywhere.
			name: "an exact quotient's remainder as a remainder set",
			in:   []at{{"H >= 3", 5}, {"H//3 % 4 == 0", 7}, {"(H//3)/4 % 3 == 0", 9}, {"H >= 36", 11}},
			want: []string{"H >= 3 @5", "H % 36 <= 2 @9"},
			h:    300,
		},
		{
			// r2_0229: the two cases of an If's branches, on W; in the second, W == 1 || W % 3
			// == 0 beside W <= 7 reads W in {1, 3, 6}, which implies W <= 7.
			name: "a bound a case's part of one symbol implies",
			in: []at{{"N >= 2 && H >= 2 && W >= 8 && W//2 % 3 == 0 && (N <= 3 || N//2 % 3 == 0) && (H <= 3 || H//2 % 3 == 0) || " +
				"W <= 7 && (N == 1 || N % 3 == 0) && (H == 1 || H % 3 == 0) && (W == 1 || W % 3 == 0)", 12}},
			want: []string{"N >= 2 && H >= 2 && W >= 8 && W % 6 <= 1 && (N <= 3 || N % 6 <= 1) && (H <= 3 || H % 6 <= 1) || " +
				"(N == 1 || N % 3 == 0) && (H == 1 || H % 3 == 0) && (W in {1, 3, 6}) @12"},
			h: 40,
		},
		{
			// r3_0202: a -1 of a floor's quotient by 3, as large as its remainder set and
			// shorter, reads as the remainder set: no floor division.
			name: "a remainder set, not a floor",
			in:   []at{{"(H+11)//24 % 3 == 0", 17}, {"H >= 61", 26}},
			want: []string{"H % 72 in {0..12, 61..71} @17", "H >= 61 @26"},
			h:    300,
		},
		{
			// r2_0109: a Cast of a size to int32 bounds it (from H of about 1.3e10), beside
			// remainders that hold at the same values up to there: the set of all of them,
			// computed exactly however far the bound (affineSet), reads as one range and
			// remainder set, at the first of their nodes (TestMinimizeParts names them all).
			name: "a bound past the values evaluated",
			in: []at{{"(H+5*min(H,2)+3)//6 > min(H,2)", 15}, {"(H+17*min(H,2)+3)//18 > min(H,2)", 24},
				{"((H+5*min(H,2)+3)//6+2*min(H,2)) % 3 == 0", 24}, {"(3*((H+17*min(H,2)+3)//18)+min(H,2))//4 > min(H,2)", 35},
				{"(3*((H+17*min(H,2)+3)//18)+min(H,2)) % 4 == 0", 35}, {"(H+17*min(H,2)+3)//18 > (H+71*min(H,2)+57)//72", 40},
				{"4*((3*((H+17*min(H,2)+3)//18)+min(H,2))//4)-4*min(H,2) <= 2147483647", 45}},
			want: []string{"H in 5..12884901844 && (H % 72 in {0..4, 71}) @15"},
			h:    300,
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
		var got []string
		for _, c := range m.Constraints {
			got = append(got, fmt.Sprintf("%s @%d", c.Pred, c.Origin.Seq))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		all := func(cs []sym.Constraint, b map[string]int64) bool {
			for _, c := range cs {
				if ok, err := c.Pred.Eval(b); err != nil || !ok {
					return false
				}
			}
			return true
		}
		b := map[string]int64{}
		// The values evaluated, and large ones, past those a guess evaluates.
		hs := []int64{1<<31 - 1, 1 << 31, 1<<32 + 1, 12884901887, 12884901888, 13000000031, 1 << 40, 1 << 62}
		for h := int64(1); h <= tc.h; h++ {
			hs = append(hs, h)
		}
		for n := int64(1); n <= 3; n++ {
			for _, h := range hs {
				for w := int64(1); w <= 40; w++ {
					b["N"], b["H"], b["W"] = n, h, w
					if got, want := all(m.Constraints, b), all(cs, b); got != want {
						t.Fatalf("%s: at %v the minimal conditions give %v, the given ones %v", tc.name, b, got, want)
					}
				}
			}
		}
	}
}

// BenchmarkMinimize: the minimal lists of random models' conditions whose proofs split on residues
// and on a symbol's values (r2_0009), decide a polynomial of one symbol (r3_0178), and simplify
// remainders by divisors the bounds beside them keep from 0 (r3_0182), each list from its nodes'
// conditions as given.
func BenchmarkMinimize(b *testing.B) {
	tab := sym.NewTable()
	for _, n := range []string{"N", "T", "H", "W"} {
		tab.Symbol(n, 1, sym.Inf)
	}
	for _, bc := range []struct {
		name  string
		conds []string
	}{
		{"r2_0009", []string{"W % 2 == 0", "W >= 12",
			"(((T+1)//2+(T+3)//4)//3)*((H-1)//3)*(W//4-1) == 8*(((T+1)//2+(T+3)//4)//6)*((H-1)//6)*((W-4)//8) && H >= 7 || (((T+1)//2+(T+3)//4)//3)*((H-1)//3) == 8*(((T+1)//2+(T+3)//4)//6)*((W-4)//8) && H <= 6",
			"T >= 7", "H >= 7"}},
		{"r3_0178", []string{"H*H+H*(H//2) >= 4*H+2*(H//2)-4", "H >= 3"}},
		{"r3_0182", []string{"W >= 2", "((H+1)//4)*((9*W-2)//16) == 4*((H+1)//8)*((9*W-2)//32)",
			"H >= 7 && W >= 4 && (16*N*((9*W+30)//32)*((H+1)//8)-64*N*((H+1)//8)*min((9*W+30)//32-1,1)+48*N*((H+1)//8)) % (4*N*((9*W+30)//32)*((H+1)//8)-4*N*((H+1)//8)) == 0 || H <= 6 && W >= 4 && (16*N*((9*W+30)//32)*((H+1)//8)-64*N*((H+1)//8)*min((9*W+30)//32-1,1)+48*N*((H+1)//8)) % (16*N*((9*W+30)//32)-16*N) == 0 || H <= 6 && W <= 3 && (((9*W+30)//32)*((H+1)//8)+3*((H+1)//8)) % 4 == 0"}},
	} {
		var cs []sym.Constraint
		for i, c := range bc.conds {
			p, err := sym.ParsePred(c, tab)
			if err != nil {
				b.Fatal(err)
			}
			cs = append(cs, sym.Constraint{Pred: p, Origin: sym.Origin{Node: fmt.Sprint("n", i), Seq: i + 1}})
		}
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				sym.Minimize(cs)
			}
		})
	}
}

// TestMinimizeParts: a condition of one symbol that Minimize makes of several nodes' conditions
// is Merged and names every node it carries a condition of, the first in Seq first, each node's
// own condition in Implied; equal conditions name their nodes, and a node's own conditions as one
// name it alone.
func TestMinimizeParts(t *testing.T) {
	tab := sym.NewTable()
	tab.Symbol("H", 1, sym.Inf)
	type at struct {
		pred, node string
		seq        int
	}
	for _, tc := range []struct {
		name    string
		in      []at
		want    []string // "PRED: NODE, NODE, ..." and "merged"
		implied []string // "PRED @NODE by INDICES"
	}{
		{
			// r2_0109: a Conv's least size, Reshapes' remainders and a Cast's int32 range, one
			// range and remainder set; a run at H = 10 stops at Reshape_42, not at the Cast.
			name: "several nodes' conditions as one",
			in: []at{{"(H+5*min(H,2)+3)//6 > min(H,2)", "Conv_28", 15}, {"(H+17*min(H,2)+3)//18 > min(H,2)", "Reshape_42", 24},
				{"((H+5*min(H,2)+3)//6+2*min(H,2)) % 3 == 0", "Reshape_42", 24}, {"(3*((H+17*min(H,2)+3)//18)+min(H,2))//4 > min(H,2)", "Reshape_55", 35},
				{"(3*((H+17*min(H,2)+3)//18)+min(H,2)) % 4 == 0", "Reshape_55", 35}, {"(H+17*min(H,2)+3)//18 > (H+71*min(H,2)+57)//72", "Reshape_64", 40},
				{"4*((3*((H+17*min(H,2)+3)//18)+min(H,2))//4)-4*min(H,2) <= 2147483647", "Cast_71", 45}},
			want: []string{"H in 5..12884901844 && (H % 72 in {0..4, 71}): Conv_28, Reshape_42, Reshape_55, Reshape_64, Cast_71 merged"},
			implied: []string{"(H+5*min(H,2)+3)//6 > min(H,2) @Conv_28 by [0]", "(H+17*min(H,2)+3)//18 > min(H,2) @Reshape_42 by [0]",
				"((H+5*min(H,2)+3)//6+2*min(H,2)) % 3 == 0 @Reshape_42 by [0]", "(3*((H+17*min(H,2)+3)//18)+min(H,2))//4 > min(H,2) @Reshape_55 by [0]",
				"(3*((H+17*min(H,2)+3)//18)+min(H,2)) % 4 == 0 @Reshape_55 by [0]", "(H+17*min(H,2)+3)//18 > (H+71*min(H,2)+57)//72 @Reshape_64 by [0]",
				"(H+71*min(H,2)+57)//72 >= (H+17*min(H,2)+3)//18-536870911 @Cast_71 by [0]"},
		},
		{
			name:    "two nodes' remainders",
			in:      []at{{"H % 2 == 0", "Split_1", 1}, {"H % 3 == 0", "Reshape_2", 2}},
			want:    []string{"H % 6 == 0: Split_1, Reshape_2 merged"},
			implied: []string{"H % 2 == 0 @Split_1 by [0]", "H % 3 == 0 @Reshape_2 by [0]"},
		},
		{
			name:    "a bound and a later node's cases",
			in:      []at{{"H <= 3 || H % 2 == 0", "If_1", 1}, {"H >= 5", "Conv_2", 2}},
			want:    []string{"H >= 5 && H % 2 == 0: If_1, Conv_2 merged"},
			implied: []string{"H <= 3 || H % 2 == 0 @If_1 by [0]", "H >= 5 @Conv_2 by [0]"},
		},
		{
			name:    "one node's conditions as one",
			in:      []at{{"H >= 13", "If_2", 2}, {"H <= 4 || H in 13..16", "If_2", 2}},
			want:    []string{"H in 13..16: If_2"},
			implied: []string{"H >= 13 @If_2 by [0]"},
		},
		{
			name: "equal conditions of two nodes",
			in:   []at{{"H % 2 == 0", "Split_1", 1}, {"(H+1)//2 == H//2", "Reshape_2", 2}},
			want: []string{"H % 2 == 0: Split_1, Reshape_2"},
		},
		{
			name: "plain bounds of two nodes apart",
			in:   []at{{"H >= 5", "Conv_1", 1}, {"(H+3)//8 <= 2147483647", "Cast_2", 2}},
			want: []string{"H >= 5: Conv_1", "H <= 17179869180: Cast_2"},
		},
	} {
		var cs []sym.Constraint
		for _, c := range tc.in {
			p, err := sym.ParsePred(c.pred, tab)
			if err != nil {
				t.Fatalf("%s: %v", c.pred, err)
			}
			cs = append(cs, sym.Constraint{Pred: p, Origin: sym.Origin{Node: c.node, Seq: c.seq}})
		}
		m := sym.Minimize(cs)
		var got, implied []string
		for _, c := range m.Constraints {
			var nodes []string
			for _, o := range c.Origins() {
				nodes = append(nodes, o.Node)
			}
			got = append(got, fmt.Sprintf("%s: %s%s", c.Pred, strings.Join(nodes, ", "), map[bool]string{true: " merged"}[c.Merged]))
		}
		for _, c := range m.Implied {
			implied = append(implied, fmt.Sprintf("%s @%s by %v", c.Pred, c.Origin.Node, c.By))
		}
		if !slices.Equal(got, tc.want) || !slices.Equal(implied, tc.implied) {
			t.Errorf("%s: %q, implied %q; want %q, implied %q", tc.name, got, implied, tc.want, tc.implied)
		}
	}
}
