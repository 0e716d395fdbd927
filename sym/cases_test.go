package sym_test

import (
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// TestSeveralSymbols: a condition of several symbols as Minimize writes it, the case splits of the
// zero-copy and broadcast rules folded and products equal to 0 as their factors, holds at the same
// bindings as the condition given (each evaluated at H, W in 1..72).
func TestSeveralSymbols(t *testing.T) {
	tab := sym.NewTable()
	tab.Symbol("H", 1, sym.Inf)
	tab.Symbol("W", 1, sym.Inf)
	for _, tc := range []struct{ in, want string }{
		{
			// random seed 1's r1_0168: the cases agree where (H+1)//6 is 0.
			"((H+1)//2)*((min((W+1)//2,10)+2*min((W+1)//2,2)+2)//3)+3*((H+1)//6)*min((W+1)//2,2) == ((H+1)//2)*min((W+1)//2,2)+3*((H+1)//6)*((min((W+1)//2,10)+2*min((W+1)//2,2)+2)//3) && H >= 5 || H <= 4 && (min((W+1)//2,10)+2*min((W+1)//2,2)+2)//3 == min((W+1)//2,2)",
			"W <= 4 || H % 6 in {0, 5}",
		},
		{
			"(H//2)*min(((W+1)//6)*((W+4)//6),(W+4)//6) == 0 && H <= 3 || (H//2)*min(((W+1)//6)*((W+4)//6),(W+4)//6) == 2*(H//4)*min(((W+1)//6)*((W+4)//6),(W+4)//6) && H >= 4",
			"W <= 4 || H % 4 <= 1",
		},
		{"(H//2)*(W//2) == 0 && W <= 3 || (H//2)*(W//2) == 2*(H//2)*(W//4) && W >= 4", "H == 1 || W % 4 <= 1"},
		{
			"W*((min(H-3,10)+1)//3)+(min(H-3,10)+1)//3 == 2*((W+1)//2)*((min(H-3,10)+1)//3) && W >= 7 || W*((min(H-3,10)+1)//3) == 5*((min(H-3,10)+1)//3) && W <= 6",
			"W >= 7 && (W % 2 == 1 || H in 2..4) || W <= 6 && (W == 5 || H in 2..4)",
		},
		{
			"W*min(H,10)+9*(W//3) == 9*(W//3)*((min(H,10)+2)//3)+W && H >= 4 || W*min(H,10)+9*(W//3) == 9*(W//3)*min(H,10)+W && H <= 3",
			"H == 1 || W*(min(H,10)-1) == 9*(W//3)*((min(H,10)-1)//3) && H >= 4",
		},
		{"(H-1)*(W-1) == 0", "H == 1 || W == 1"},
		{"H >= 4 && W*min(H,4) == 8 || H == 1", "H == 1 || H >= 4 && W == 2"},
		{"(H-1)*(W-1) != 0", "H >= 2 && W >= 2"},
		{"(H-1)*(W-2*(W//2)) == 0", "H == 1 || W % 2 == 0"},
	} {
		p, err := sym.ParsePred(tc.in, tab)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		m := sym.Minimize([]sym.Constraint{{Pred: p, Origin: sym.Origin{Node: "n", Seq: 1}}})
		got := sym.All(m.Constraints)
		if got.String() != tc.want {
			t.Errorf("%s reads %s, want %s", tc.in, got, tc.want)
		}
		for h := int64(1); h <= 72; h++ {
			for w := int64(1); w <= 72; w++ {
				b := map[string]int64{"H": h, "W": w}
				want, err1 := p.Eval(b)
				v, err2 := got.Eval(b)
				if err1 != nil || err2 != nil || v != want {
					t.Fatalf("%s (%s) at H=%d W=%d: %v %v, want %v %v", tc.in, got, h, w, v, err2, want, err1)
				}
			}
		}
	}
}
