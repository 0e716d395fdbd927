package sym_test

import (
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// TestBelow checks what a symbol below a trip count proves: the slice [i, i+1) of an axis of T
// elements, for an iteration number i of a loop of T iterations, and the conditions on i that
// hold for every i in 0..T-1.
func TestBelow(t *testing.T) {
	must := func(e sym.Expr, ok bool) sym.Expr {
		t.Helper()
		if !ok {
			t.Fatal("the expression cannot be kept")
		}
		return e
	}
	tab := sym.NewTable()
	T := tab.Symbol("T", 1, sym.Inf)
	i := tab.Below("i", T)
	i1, _ := sym.Add(i, sym.Int(1))
	if got, _ := sym.Min(i1, T); !got.Equal(i1) {
		t.Errorf("min(i+1, T) = %s, want i+1", got)
	}
	if got, _ := sym.Min(i, T); !got.Equal(i) {
		t.Errorf("min(i, T) = %s, want i", got)
	}
	lo, hi := i.Bounds()
	if lo != 0 || hi != sym.Inf {
		t.Errorf("bounds of i: %d..%d, want 0..Inf", lo, hi)
	}
	// Without the bound, i+1 <= T is not known.
	j := tab.Anon("j", 0, sym.Inf)
	j1, _ := sym.Add(j, sym.Int(1))
	if got, _ := sym.Min(j1, T); got.Equal(j1) {
		t.Errorf("min(j+1, T) = %s for an unbounded j", got)
	}
	N := tab.Symbol("N", 1, sym.Inf)
	tests := []struct {
		p    sym.Pred
		want string // "" for no condition
	}{
		{sym.Cmp(i, sym.OpLe, must(sym.Sub(T, sym.Int(1)))), "0 == 0"},
		{sym.Cmp(i, sym.OpLt, T), "0 == 0"},
		{sym.Cmp(i, sym.OpGe, sym.Int(0)), "0 == 0"},
		{sym.Cmp(i1, sym.OpLe, N), "N >= T"},
		{sym.Cmp(i, sym.OpGe, sym.Int(1)), "0 == 1"},
		{sym.And(sym.Cmp(i1, sym.OpLe, N), sym.Cmp(N, sym.OpLe, sym.Int(8))), "N >= T && N <= 8"},
		{sym.Or(sym.Cmp(i1, sym.OpLe, N), sym.Eq(N, sym.Int(1))), "N >= T || N == 1"},
		{sym.Eq(N, sym.Int(3)), "N == 3"},
		{sym.Eq(i, sym.Int(0)), ""},
		{sym.Cmp(must(sym.Mul(i, N)), sym.OpLe, sym.Int(8)), ""},
		{sym.Or(sym.Eq(i, sym.Int(0)), sym.Cmp(i, sym.OpGe, N)), ""},
	}
	for _, tt := range tests {
		got, ok := sym.Forall(tt.p, i)
		switch {
		case tt.want == "" && ok:
			t.Errorf("Forall(%s) = %s, want none", tt.p, got)
		case tt.want != "" && !ok:
			t.Errorf("Forall(%s): none, want %s", tt.p, tt.want)
		case ok && got.String() != tt.want:
			t.Errorf("Forall(%s) = %s, want %s", tt.p, got, tt.want)
		}
	}
	// Forall of a plain anonymous symbol: only predicates that do not depend on it.
	if _, ok := sym.Forall(sym.Cmp(j, sym.OpGe, sym.Int(1)), j); ok {
		t.Errorf("Forall over a symbol not made by Below")
	}
}
