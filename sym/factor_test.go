package sym_test

import (
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// TestFactoredPrint checks the factored sides of comparisons: each condition prints as want,
// reads back as itself, and the text it is written in and the text it prints hold at the same
// bindings of N, T and H in 1..24, both read as plain trees (each / exact).
func TestFactoredPrint(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"content and common monomial", // bench/random r0_0164, a volume of N images
			"N*(H//4)*(T//2)+N*(H//4)+3*N*(T//2)+3*N == 240", "N*(H//4+3)*(T//2+1) == 240"},
		{"two products with the constant they leave", // r0_0226
			"H*T+13*H+10*T == 9*((H+1)//3)*((T+1)//3)+36*((H+1)//3)+27*((T+1)//3)-22",
			"(T+13)*(H+10) == 9*((H+10)//3)*((T+13)//3)"},
		{"a product that is 0", // r2_0009
			"N*((H+5)//6)*((T+4)//8)+N+(H+5)//6+(T+4)//8 == N*((H+5)//6)+N*((T+4)//8)+((H+5)//6)*((T+4)//8)+1",
			"(N-1)*((H-1)//6)*((T-4)//8) == 0"},
		{"groups that share no atom", // r2_0009
			"N*((H+2)//3)*(T//4)+8*(N//2)*((H+5)//6)+8*(N//2)*((T+4)//8)+N == 8*(N//2)*((H+5)//6)*((T+4)//8)+N*((H+2)//3)+N*(T//4)+8*(N//2)",
			"N*((H-1)//3)*(T//4-1) == 8*(N//2)*((H-1)//6)*((T-4)//8)"},
		{"a factor with a coefficient", // r0_0132
			"3*N*T*((H+1)//2)+3*N*((H+1)//2)*(T//2)+10*N == 5*N*T+6*N*((H+1)//2)+5*N*(T//2)+560",
			"N*(3*((H+1)//2)-5)*(T+T//2-2) == 560"},
		{"a floor division with its offset", // r2_0083
			"64*((H+3)//32)*((T+40)//144)*((N+9)//16) == ((H+3)//8)*((T+4)//36)*((N+1)//4)+2*((H+3)//8)*((T+4)//36)+((H+3)//8)*((N+1)//4)+2*((H+3)//8)",
			"64*((H+3)//32)*((N+9)//16)*((T+40)//144) == ((H+3)//8)*((N+9)//4)*((T+40)//36)"},
		{"an inequation", "H*T >= 6*H+6*T-35", "(T-6)*(H-6) >= 1"},
		{"an upper bound", "H*T <= 2*H+3*T", "(T-2)*(H-3) <= 6"},
		{"a product of two sizes with offsets", "N*T == N+19", "N*(T-1) == 19"},
		{"a common factor of all but the constant", "4*T*H*N+6*T*N == 8*T*H*(N//2)+4*T+12",
			"T*(2*N*H-4*H*(N//2)+3*N-2) == 6"},
		{"no factor: as it was", "H*T+N*H+N*T == 50", "N*T+N*H+T*H == 50"},
	} {
		tab := sym.NewTable()
		for _, n := range []string{"N", "T", "H"} {
			tab.Symbol(n, 1, sym.Inf)
		}
		p, err := sym.ParsePred(tc.in, tab)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := p.String()
		if got != tc.want {
			t.Errorf("%s: %s prints as\n%s, want\n%s", tc.name, tc.in, got, tc.want)
		}
		if back, err := sym.ParsePred(got, tab); err != nil || !back.Equal(p) {
			t.Errorf("%s: %s reads back as %s, %v", tc.name, got, back, err)
		}
		in, err1 := readPred(tc.in)
		out, err2 := readPred(got)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v, %v", tc.name, err1, err2)
		}
		for n := int64(1); n <= 24; n++ {
			for tt := int64(1); tt <= 24; tt++ {
				for h := int64(1); h <= 24; h++ {
					env := []int64{n, tt, h, 0}
					v1, ok1 := in.evalRead(env)
					v2, ok2 := out.evalRead(env)
					if v1 != v2 || ok1 != ok2 {
						t.Fatalf("%s: at N=%d T=%d H=%d, %s is %v, %v and %s is %v, %v", tc.name, n, tt, h, tc.in, v1, ok1, got, v2, ok2)
					}
				}
			}
		}
	}
}
