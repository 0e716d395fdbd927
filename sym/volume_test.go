package sym_test

import (
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// TestEqProducts: the volumes of two shapes of random models (bench/random), the condition
// EqProducts states, and that condition against the equation of the products at every binding of
// T, H and W up to 40.
func TestEqProducts(t *testing.T) {
	tab := sym.NewTable()
	for _, n := range []string{"N", "T", "H", "W"} {
		tab.Symbol(n, 1, sym.Inf)
	}
	for _, tc := range []struct {
		name   string
		as, bs []string
		want   string
	}{
		{
			// r3_0292: each symbol's factors twice their partners'.
			name: "three symbols, each twice",
			as:   []string{"N", "3", "T//2-(T+2)//4+6", "H+4", "W"},
			bs:   []string{"N", "3", "((T+2)//4+T//2)//2-(T+2)//4+3", "2", "H//2+2", "2", "W//2", "2"},
			want: "((T+2)//4+T//2) % 2 == 0 && H % 2 == 0 && W % 2 == 0",
		},
		{
			// r2_0009: factors that may be 0.
			name: "factors from 0",
			as:   []string{"((T+1)//2+(T+3)//4)//3", "(H+2)//3-1", "max(0,W//4-1)"},
			bs:   []string{"((T+1)//2+(T+3)//4)//6", "2", "(H+5)//6-1", "2", "max(0,W//4-1)//2", "2"},
			want: "T <= 2 || H <= 3 || W <= 7 || ((T+1)//2+(T+3)//4)//3 % 2 == 0 && (H+2)//3 % 2 == 1 && max(0,W//4-1) % 2 == 0",
		},
		{
			// The ratio of the integers is not that of the growths: the equation as it is.
			name: "constants apart",
			as:   []string{"2", "H", "W"},
			bs:   []string{"H", "W//2", "3"},
			want: "2*W == 3*(W//2)",
		},
		{
			name: "a factor of two symbols",
			as:   []string{"H*W", "T"},
			bs:   []string{"H", "2", "W//2", "T"},
			want: "W % 2 == 0",
		},
	} {
		as, bs := parseExprs(t, tab, tc.as), parseExprs(t, tab, tc.bs)
		p, ok := sym.EqProducts(as, bs)
		if !ok {
			t.Fatalf("%s: not kept", tc.name)
		}
		if tc.want != "" && p.String() != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, p, tc.want)
		}
		b := map[string]int64{"N": 2}
		prod := func(es []sym.Expr) int64 { return productAt(t, es, b) }
		for b["T"] = 1; b["T"] <= 40; b["T"]++ {
			for b["H"] = 1; b["H"] <= 40; b["H"]++ {
				for b["W"] = 1; b["W"] <= 40; b["W"]++ {
					got, err := p.Eval(b)
					if want := prod(as) == prod(bs); err != nil || got != want {
						t.Fatalf("%s: %s at %v is %v (%v), the products equal %v", tc.name, p, b, got, err, want)
					}
				}
			}
		}
	}
}

// TestDivisibleProducts: the -1 of a Reshape of random models (bench/random), the condition
// DivisibleProducts states, and that condition against the divisibility of the products at every
// binding of H and W up to 60 (N up to 3).
func TestDivisibleProducts(t *testing.T) {
	tab := sym.NewTable()
	for _, n := range []string{"N", "H", "W"} {
		tab.Symbol(n, 1, sym.Inf)
	}
	for _, tc := range []struct {
		name   string
		as, bs []string
		want   string
	}{
		{
			// r3_0111: W-(2*W+2)//3, 0 at W <= 2, twice in the input.
			name: "a multiple of a dim of the divisor",
			as:   []string{"N", "H-2", "2*W-2*((2*W+2)//3)", "2"},
			bs:   []string{"H//2-1", "2", "W-(2*W+2)//3", "2", "2"},
			want: "W >= 3 && (N*H-2*N) % (2*(H//2)-2) == 0",
		},
		{
			name: "a divisor of a dim of the divisor",
			as:   []string{"N", "H-1", "W//2"},
			bs:   []string{"2*H-2", "W//2"},
			want: "H >= 2 && W >= 2 && N % 2 == 0",
		},
	} {
		as, bs := parseExprs(t, tab, tc.as), parseExprs(t, tab, tc.bs)
		p, ok := sym.DivisibleProducts(as, bs)
		if !ok {
			t.Fatalf("%s: not kept", tc.name)
		}
		if p.String() != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, p, tc.want)
		}
		b := map[string]int64{}
		prod := func(es []sym.Expr) int64 { return productAt(t, es, b) }
		for b["N"] = 1; b["N"] <= 3; b["N"]++ {
			for b["H"] = 1; b["H"] <= 60; b["H"]++ {
				for b["W"] = 1; b["W"] <= 60; b["W"]++ {
					got, err := p.Eval(b)
					d := prod(bs)
					if want := d != 0 && prod(as)%d == 0; (err == nil && got) != want {
						t.Fatalf("%s: %s at %v is %v (%v), the divisibility %v", tc.name, p, b, got, err, want)
					}
				}
			}
		}
	}
}

// parseExprs returns the expressions ss of the table tab.
func parseExprs(t *testing.T, tab *sym.Table, ss []string) []sym.Expr {
	t.Helper()
	var out []sym.Expr
	for _, s := range ss {
		e, err := sym.ParseExpr(s, tab)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		out = append(out, e)
	}
	return out
}

// productAt returns the product of the values of es at the binding b.
func productAt(t *testing.T, es []sym.Expr, b map[string]int64) int64 {
	t.Helper()
	out := int64(1)
	for _, e := range es {
		v, err := e.Eval(func(n string) (int64, bool) { v, ok := b[n]; return v, ok })
		if err != nil {
			t.Fatalf("%s at %v: %v", e, b, err)
		}
		out *= v
	}
	return out
}
