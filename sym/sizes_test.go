package sym_test

import (
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// TestSizesBounded: a bound past the values SizesOf evaluates (a float32 that holds a size exactly,
// N <= 2^24) reads as a range, proven, as a bound within them does.
func TestSizesBounded(t *testing.T) {
	tab := sym.NewTable()
	n := tab.Symbol("N", 1, sym.Inf)
	for _, tc := range []struct {
		p    sym.Pred
		want string
	}{
		{sym.Le(n, sym.Int(8)), "1..8"},
		{sym.Le(n, sym.Int(1<<24)), "1..16777216"},
		{sym.And(sym.Ge(n, sym.Int(3)), sym.Le(n, sym.Int(1<<24))), "3..16777216"},
	} {
		sz := sym.SizesOf(tab, []sym.Constraint{{Pred: tc.p}})
		if len(sz.Symbols) != 1 || sz.Symbols[0].Text != tc.want || !sz.Symbols[0].Proven {
			t.Errorf("%s: %+v, want %s, proven", tc.p, sz.Symbols, tc.want)
		}
	}
}
