package graph

import (
	"slices"
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// TestMinimizePlanned: a planner's condition is implied by the others only where they hold at no
// binding with its complement. W <= 2 and H % (W-1) != 0 hold at no binding, but at W = 1 the
// remainder has no value and the planner's H % (W-1) == 0 fails: it stays a condition.
func TestMinimizePlanned(t *testing.T) {
	tab := sym.NewTable()
	tab.Symbol("H", 1, sym.Inf)
	tab.Symbol("W", 1, sym.Inf)
	tests := []struct {
		own, planned string
		implied      bool
	}{
		{"W <= 2", "H % (W-1) == 0", false},
		{"W <= 2", "H//(W-1) >= 1", false},
		{"W == 3", "H % (W-1) <= 1", true},
		{"H >= 4", "H*W >= 3*W", true},
		{"H >= 4", "H*W >= 5*W", false},
	}
	for _, tt := range tests {
		own, err1 := sym.ParsePred(tt.own, tab)
		planned, err2 := sym.ParsePred(tt.planned, tab)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		cs := []sym.Constraint{
			{Pred: own, Origin: sym.Origin{Node: "Conv_1", Why: "a size"}},
			{Pred: planned, Origin: sym.Origin{Node: "Add_2", Why: planWhy + "a buffer", Seq: 1}},
		}
		m := minimizePlanned(cs)
		implied := slices.ContainsFunc(m.Implied, func(im sym.Implied) bool { return im.Origin.Node == "Add_2" })
		holds := sym.All(m.Constraints)
		if implied != tt.implied {
			t.Errorf("%s, planned %s: implied %v, want %v (constraints %s)", tt.own, tt.planned, implied, tt.implied, holds)
		}
		for w := int64(1); w <= 6; w++ {
			for h := int64(1); h <= 12; h++ {
				b := map[string]int64{"H": h, "W": w}
				want, err1 := sym.All([]sym.Constraint{cs[0], cs[1]}).Eval(b)
				got, err2 := holds.Eval(b)
				if (err1 == nil && want) != (err2 == nil && got) {
					t.Errorf("%s, planned %s, at %v: the constraints %s give %v, the conditions %v", tt.own, tt.planned, b, holds, got, want)
				}
			}
		}
	}
}
