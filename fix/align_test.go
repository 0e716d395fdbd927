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
		in, pat := parseCase(t, tt.in, tt.pattern)
		if got := alignText(align(in, pat, tt.allowzero, false)); got != tt.want {
			t.Errorf("align(%s, %s): %q, want %q", tt.in, tt.pattern, got, tt.want)
		}
	}
}

// parseCase reads a shape and a pattern ("1,3,T*B") in a table of their own.
func parseCase(t *testing.T, shape, pattern string) (in, pat []sym.Dim) {
	t.Helper()
	tab := sym.NewTable()
	s, err := sym.ParseShape(shape, tab)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range strings.Split(pattern, ",") {
		var d sym.Dim
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			d = sym.Const(n) // ParseDim reads -1 as unknown
		} else if d, err = sym.ParseDim(v, tab); err != nil {
			t.Fatal(err)
		}
		pat = append(pat, d)
	}
	return s.Dims, pat
}

// alignText writes align's alignments as their pairs, "OUT:LO-HI" for a pair proper and
// "OUT-OUTHI:LO-HI" for a mixed group, "; " between alignments; or the reason there is none.
func alignText(alns []alignment, why string) string {
	if why != "" {
		return why
	}
	var parts []string
	for _, a := range alns {
		var ps []string
		for _, p := range a {
			out := itoa(p.out)
			if p.mixed {
				out += "-" + itoa(p.outHi)
			}
			ps = append(ps, out+":"+itoa(p.lo)+"-"+itoa(p.hi))
		}
		parts = append(parts, strings.Join(ps, " "))
	}
	return strings.Join(parts, "; ")
}

// TestAlignMixed holds align's second search, with mixed groups: the patterns of torch's
// nn.MultiheadAttention exported at T=10, B=2 (64 wide, 4 heads of 16).
func TestAlignMixed(t *testing.T) {
	tests := []struct{ in, pattern, want string }{
		// q, k, v: [T,B,64] by [10,8,16]: 10 is T; [8,16] splits the 64 into heads and merges them
		// with B; or the whole of it.
		{"[T,B,64]", "10,8,16", "0:0-1 1-3:1-3; 0-3:0-3"},
		// the heads merged back: [T,4*B,16] by [20,64].
		{"[T,4*B,16]", "20,64", "0:0-1 1-2:1-3; 0-2:0-3"},
		// the batch split off again: [T*B,64] by [10,2,64].
		{"[T*B,64]", "10,2,64", "0-2:0-1; 0-3:0-2"},
		{"[N,3,4]", "1,12", "0:0-1; 0-2:0-3; 1-2:0-3"},
		{"[2,3,4]", "6,4", ""},
	}
	for _, tt := range tests {
		in, pat := parseCase(t, tt.in, tt.pattern)
		if got := alignText(align(in, pat, false, true)); got != tt.want {
			t.Errorf("align(%s, %s, mixed): %q, want %q", tt.in, tt.pattern, got, tt.want)
		}
	}
}

// TestRead holds what each value of a mixed group stands for, read at the export binding.
func TestRead(t *testing.T) {
	tests := []struct {
		in, pattern string
		p           pair
		binding     map[string]int64
		want        string // the expressions of the group's values, or why there are none
	}{
		{"[T,B,64]", "10,8,16", pair{out: 1, outHi: 3, lo: 1, hi: 3}, map[string]int64{"T": 10, "B": 2}, "4*B 16"},
		{"[T,4*B,16]", "20,64", pair{out: 0, outHi: 2, lo: 0, hi: 3}, map[string]int64{"T": 10, "B": 2}, "T*B 64"},
		{"[T*B,64]", "10,2,64", pair{out: 0, outHi: 2, lo: 0, hi: 1}, map[string]int64{"T": 10, "B": 2}, "T B"},
		{"[T,B,64]", "10,8,16", pair{out: 0, outHi: 3, lo: 0, hi: 3}, map[string]int64{"T": 10, "B": 2}, "T 4*B 16"},
		// the heads after the batch: [64,B] by [16,8] reads 8 as 4*B too
		{"[64,B]", "16,8", pair{out: 0, outHi: 2, lo: 0, hi: 2}, map[string]int64{"B": 2}, "16 4*B"},
		// at B=1 the sizes do not tell where B goes
		{"[T,B,64]", "10,4,16", pair{out: 1, outHi: 3, lo: 1, hi: 3}, map[string]int64{"T": 10, "B": 1},
			"B is 1 at the export binding, so that its sizes do not tell which values stand for it"},
		// T == B: which of [T*B] is T?
		{"[T*B,64]", "4,4,64", pair{out: 0, outHi: 2, lo: 0, hi: 1}, map[string]int64{"T": 4, "B": 4},
			"T*B: its factors fit the values in several ways at the export binding"},
		// [3,4] by [2,6]: the 2 and the 6 cut the 3 and the 4 across each other
		{"[B,4]", "2,6", pair{out: 0, outHi: 2, lo: 0, hi: 2}, map[string]int64{"B": 3},
			"the values split the dims across each other at the export binding (products of inner dims 4 and 6)"},
		{"[B,4]", "2,6", pair{out: 0, outHi: 2, lo: 0, hi: 2}, map[string]int64{}, "B is not known at the export binding"},
	}
	for _, tt := range tests {
		in, pat := parseCase(t, tt.in, tt.pattern)
		var values []int64
		for _, v := range pat[tt.p.out:tt.p.outHi] {
			n, _ := v.Static()
			values = append(values, n)
		}
		exprs, why := tt.p.read(in, values, tt.binding)
		got := why
		if why == "" {
			var parts []string
			for _, e := range exprs {
				parts = append(parts, e.String())
			}
			got = strings.Join(parts, " ")
		}
		if got != tt.want {
			t.Errorf("read(%s, %s, %v): %q, want %q", tt.in, tt.pattern, tt.binding, got, tt.want)
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
