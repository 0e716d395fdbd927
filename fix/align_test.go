package fix

import (
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/sym"
)

func TestAlign(t *testing.T) {
	tests := []struct {
		in, pattern string
		allowzero   bool
		// want lists the alignments, each as its pairs "OUT:LO-HI" (empty for none), "; " between
		// them; or the reason there is none.
		want string
	}{
		{"[N,3,4]", "1,12", false, "0:0-1"},
		{"[N,21,H,W]", "1,3,7,8,8", false, "0:0-1 3:2-3 4:3-4"},
		{"[N,3]", "1,1,3", false, "0:0-1; 1:0-1"},
		{"[N,H,W,8]", "1,64,8", false, "0:0-1 1:1-3; 0:0-2 1:2-3; 1:0-3"},
		{"[B,L,8]", "-1,16,8", false, "1:0-2; 1:1-2"}, // the -1 may be 1
		{"[N,8,H,W]", "1,2,4,H,W", false, "0:0-1"},
		{"[N,8,H,W]", "1,0,0,0", false, "0:0-1"},
		{"[N,8,H,W]", "0,2,4,H,W", false, ""},
		{"[N,H,W]", "N,H*W", false, ""},
		{"[2,3,4]", "6,4", false, ""},
		{"[T,4]", "3,8", false, "no value of the pattern stands for whole input dims: it splits or merges symbolic dims"},
		{"[N,H]", "1,H", false, "0:0-1"},
		{"[N,3]", "1,0", true, "pattern[1] = 0 is a literal 0 (allowzero=1): the output is empty"},
		{"[N,3]", "1,0,0", false, "pattern[2] = 0 copies no input dim (rank 2)"},
		{"[N,?]", "1,3", false, "input dim 1 is ?: not known"},
		{"[N,3]", "1,1..4", false, "pattern[1] is 1..4: not known"},
		{"[N,3]", "1,-2", false, "pattern[1] = -2 is not a dim"},
		{"[N,1,1,1,1,1,1,1,1,1,1]", "1,1,1,1,1,1,1,1,1,1", false, "the pattern aligns with the input in more than 8 ways"},
	}
	for _, tt := range tests {
		tab := sym.NewTable()
		in, err := sym.ParseShape(tt.in, tab)
		if err != nil {
			t.Fatal(err)
		}
		var pat []sym.Dim
		for _, v := range strings.Split(tt.pattern, ",") {
			var d sym.Dim
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				d = sym.Const(n) // ParseDim reads -1 as unknown
			} else if d, err = sym.ParseDim(v, tab); err != nil {
				t.Fatal(err)
			}
			pat = append(pat, d)
		}
		alns, why := align(in.Dims, pat, tt.allowzero)
		got := why
		if why == "" {
			var parts []string
			for _, a := range alns {
				var ps []string
				for _, p := range a {
					ps = append(ps, itoa(p.out)+":"+itoa(p.lo)+"-"+itoa(p.hi))
				}
				parts = append(parts, strings.Join(ps, " "))
			}
			got = strings.Join(parts, "; ")
		}
		if got != tt.want {
			t.Errorf("align(%s, %s): %q, want %q", tt.in, tt.pattern, got, tt.want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestWitness(t *testing.T) {
	tests := []struct {
		conds []string
		want  string // the binding, or "none"
	}{
		{[]string{"N == 1"}, "N=1"},
		{[]string{"N*((H+1)//2)*((W+1)//2) == 64", "H >= 13", "H <= 16", "N == 1"}, "N=1 H=15 W=15"},
		{[]string{"(H//4)*(W//4) == 16"}, "H=4 W=64"},
		{[]string{"T % 4 == 0", "T >= 9"}, "T=12"},
		{[]string{"N == 1", "N == 2"}, "none"},
		{[]string{"H*W == 9000001"}, "none"}, // H=1, W=9000001 lies past the values searched
	}
	for _, tt := range tests {
		c := newConds()
		tab := sym.NewTable()
		for _, s := range tt.conds {
			p, err := sym.ParsePred(s, tab)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.add(p); err != nil {
				t.Fatal(err)
			}
		}
		b, ok := c.witness()
		got := "none"
		if ok {
			var parts []string
			for _, p := range c.preds {
				for _, n := range p.SymbolNames() {
					part := n + "=" + itoa(int(b[n]))
					if !strings.Contains(strings.Join(parts, " ")+" ", part+" ") {
						parts = append(parts, part)
					}
				}
			}
			got = strings.Join(parts, " ")
		}
		if got != tt.want {
			t.Errorf("witness of %q: %s, want %s", tt.conds, got, tt.want)
		}
	}
}
