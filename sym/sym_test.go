package sym_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

func TestCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"},
		{"N", "N"},
		{"N*150528/N", "150528"},
		{"N*3*224*224/N", "150528"},
		{"B*T*64/(B*T)", "64"},
		{"B*T*64/(4*B)", "16*T"},
		{"T*B", "B*T"},
		{"B*T+T*B", "2*B*T"},
		{"N*T/2", "N*T/2"},
		{"3*N/2", "3*N/2"},
		{"N/(2*T)", "N/(2*T)"},
		{"(2*H+3)//2", "H+1"},
		{"(H-1)//2+1", "(H+1)//2"},
		{"(H+2*1-3)//2+1", "(H+1)//2"},
		{"((H+1)//2+1)//2", "(H+3)//4"},
		{"(((H+1)//2+1)//2+1)//2", "(H+7)//8"},
		{"(2*H)//4", "H//2"},
		{"(4*H+2)//4", "H"},
		{"H//1", "H"},
		{"7//2", "3"},
		{"-7//2", "-4"},
		{"H-H", "0"},
		{"N-1+1", "N"},
		{"2*((H+1)//2)", "2*((H+1)//2)"},
		{"W*((H+1)//2)", "W*((H+1)//2)"},
		{"-((H+1)//2)+W", "W-(H+1)//2"}, {"-((H+1)//2)", "-((H+1)//2)"},
		{"(N+1)*(N-1)", "N*N-1"},
		{"(A+B)/(A+B)", "1"},
		{"(2*A+2*B)/(A+B)", "2"},
		{"(A*B+1)/(A+B)", "(B*A+1)/(B+A)"},
		{"N//N", "1"},
		{"(N*T)//T", "N"},
		{"(N*T+1)//T", "(N*T+1)//T"},
		// A multiple of a sum over the sum: retinanet's anchors per location, the anchors of every
		// level over the levels' sizes.
		{"(9*A*B+189*C*W+9*H*H)//(A*B+21*C*W+H*H)", "9"},
		{"(A*B+C)//(2*A*B+2*C)", "0"},
		{"(3*A+3*B)//(-2*A-2*B)", "-2"},
		{"(A+B+1)//(A+B)", "(B+A+1)//(B+A)"},
		{"x:0*p2o.DynamicDimension.0", "x:0*p2o.DynamicDimension.0"},
		// A remainder that pads up to a multiple (Swin's (7 - W % 7) % 7) is the multiple.
		{"W+(7-W % 7) % 7", "7*((W+6)//7)"},
		{"W+6*W % 7+5", "7*((W+6)//7)+5"},
		{"2*W+2*(6*W % 7)", "14*((W+6)//7)"},
		{"W+(3*W+1) % 4", "4*((W+2)//4)+1"},
		{"(H+1)//2+(-((H+1)//2)) % 8", "8*((H+15)//16)"},
		{"W+(2*W) % 7", "W+2*W % 7"},
	}
	checkForms(t, tests, func() *sym.Table { return sizesOf("N", "B", "T", "C", "H", "W", "A") }, sym.ParseExpr, sym.Expr.Equal)
}

// TestRoundedUp evaluates the forms of a remainder that pads up to a multiple against the
// expressions they come from, at W from 0 to 40.
func TestRoundedUp(t *testing.T) {
	for _, text := range []string{"W+(7-W % 7) % 7", "W+6*W % 7+5", "2*W+2*(6*W % 7)", "W+(3*W+1) % 4", "W+(3*W+3) % 4", "3-W+(W+5) % 3"} {
		tab := sym.NewTable()
		tab.Symbol("W", 0, sym.Inf)
		e, err := sym.ParseExpr(text, tab)
		if err != nil {
			t.Fatal(err)
		}
		for w := int64(0); w <= 40; w++ {
			got, err := e.Eval(func(string) (int64, bool) { return w, true })
			// The expression as written, in Python's integer arithmetic.
			want := map[string]int64{
				"W+(7-W % 7) % 7": w + pyMod(7-pyMod(w, 7), 7), "W+6*W % 7+5": w + pyMod(6*w, 7) + 5,
				"2*W+2*(6*W % 7)": 2*w + 2*pyMod(6*w, 7), "W+(3*W+1) % 4": w + pyMod(3*w+1, 4),
				"W+(3*W+3) % 4": w + pyMod(3*w+3, 4), "3-W+(W+5) % 3": 3 - w + pyMod(w+5, 3),
			}[text]
			if err != nil || got != want {
				t.Errorf("%s (%s) at W=%d: %d, %v; want %d", text, e, w, got, err, want)
			}
		}
	}
}

func pyMod(a, m int64) int64 { return ((a % m) + m) % m }

// checkForms checks that each input parses to its canonical form, and that the form reads back
// equal; each parses in a new table.
func checkForms[T interface{ String() string }](t *testing.T, tests []struct{ in, want string }, table func() *sym.Table,
	parse func(string, *sym.Table) (T, error), equal func(T, T) bool) {
	t.Helper()
	for _, tt := range tests {
		tab := table()
		x, err := parse(tt.in, tab)
		if err != nil {
			t.Errorf("parse %q: %v", tt.in, err)
			continue
		}
		if got := x.String(); got != tt.want {
			t.Errorf("parse %q = %s, want %s", tt.in, got, tt.want)
		}
		back, err := parse(x.String(), tab)
		if err != nil || !equal(back, x) {
			t.Errorf("parse %q: %q reads back as %v, %v", tt.in, x, back, err)
		}
	}
}

// sizesOf returns a table whose symbols, named names in that order, are sizes: [1, Inf).
func sizesOf(names ...string) *sym.Table {
	tab := sym.NewTable()
	for _, n := range names {
		tab.Symbol(n, 1, sym.Inf)
	}
	return tab
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		code error
	}{
		{"", errcode.ErrSyntax},
		{"N+", errcode.ErrSyntax},
		{"(N", errcode.ErrSyntax},
		{"N)", errcode.ErrSyntax},
		{"N/0", errcode.ErrSyntax},
		{"N//0", errcode.ErrSyntax},
		{"3 $", errcode.ErrSyntax},
		{"99999999999999999999", errcode.ErrOverflow},
		{"((((((((((((((((((((((((((((((((((N))))))))))))))))))))))))))))))))))", errcode.ErrLimit},
	}
	for _, tt := range tests {
		_, err := sym.ParseExpr(tt.in, sym.NewTable())
		if !errors.Is(err, tt.code) {
			t.Errorf("ParseExpr(%q) = %v, want %v", tt.in, err, tt.code)
		}
	}
}

func TestShape(t *testing.T) {
	tab := sym.NewTable()
	s, err := sym.ParseShape("[N,3,(H+1)//2,?,1..8,-1,W*2]", tab)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.String(), "[N,3,(H+1)//2,?,1..8,?,2*W]"; got != want {
		t.Errorf("shape = %s, want %s", got, want)
	}
	if got := s.Partial().String(); got != "[1..,3,1..,?,1..8,?,2..]" {
		t.Errorf("Partial = %s", got)
	}
	if _, err := sym.ParseShape("[N,-2]", tab); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("negative dim: %v", err)
	}
	if s, _ := sym.ParseShape("[...]", tab); !s.RankDynamic {
		t.Error("[...] is not a dynamic rank")
	}
	if got := tab.Names(); len(got) != 3 || got[0] != "N" || got[1] != "H" || got[2] != "W" {
		t.Errorf("Names = %v", got)
	}
}

func TestAnon(t *testing.T) {
	tab := sym.NewTable()
	a := tab.Anon("NonZero_1:1", 0, 100)
	n := tab.Symbol("N", 0, sym.Inf)
	p, _ := sym.Mul(a, n)
	d := sym.Of(p)
	if d.Determined() {
		t.Error("an anonymous product is determined")
	}
	if got := d.String(); got != "?" {
		t.Errorf("String = %s, want ?", got)
	}
	q := sym.QuoDims(d, sym.Of(a))
	if !q.Determined() || q.String() != "N" {
		t.Errorf("a*N/a = %v", q)
	}
	if got := sym.Of(a).String(); got != "..100" {
		t.Errorf("anonymous symbol prints %s, want ..100", got)
	}
}

// TestTableSymbols lists a table's named symbols with their bounds, in the order they were met, and
// prints them: anonymous symbols are left out, a name met again narrows its bounds, and a name that
// is not plain prints quoted.
func TestTableSymbols(t *testing.T) {
	tab := sym.NewTable()
	tab.Symbol("N", 1, sym.Inf)
	tab.Anon("If_0:output0:0", 1, 8)
	tab.Symbol("T", 1, sym.Inf)
	tab.Symbol("T", 0, 64)
	tab.Symbol("batch size", 2, 2)
	tab.Symbol("x:0", 1, 8)
	want := []sym.Symbol{{Name: "N", Lo: 1, Hi: sym.Inf}, {Name: "T", Lo: 1, Hi: 64}, {Name: "batch size", Lo: 2, Hi: 2}, {Name: "x:0", Lo: 1, Hi: 8}}
	got := tab.Symbols()
	if len(got) != len(want) {
		t.Fatalf("Symbols() = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Symbols()[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	for _, c := range []struct{ got, want string }{
		{got[0].String(), "N in 1.."},
		{got[1].String(), "T in 1..64"},
		{got[2].String(), `"batch size" in 2`},
		{tab.String(), `N in 1.., T in 1..64, "batch size" in 2, x:0 in 1..8`},
		{sym.NewTable().String(), ""},
	} {
		if c.got != c.want {
			t.Errorf("printed %q, want %q", c.got, c.want)
		}
	}
}

func TestDimArithmetic(t *testing.T) {
	tab := sym.NewTable()
	h := sym.Of(tab.Symbol("H", 1, 1000))
	conv := sym.AddDims(sym.FloorDivDims(sym.SubDims(sym.AddDims(h, sym.Const(2)), sym.Const(3)), sym.Const(2)), sym.Const(1))
	if got := conv.String(); got != "(H+1)//2" {
		t.Errorf("conv size = %s", got)
	}
	if lo, hi := conv.Bounds(); lo != 1 || hi != 500 {
		t.Errorf("conv bounds = %d..%d, want 1..500", lo, hi)
	}
	iv := sym.MulDims(sym.Interval(2, 5), sym.Const(3))
	if got := iv.String(); got != "6..15" {
		t.Errorf("interval product = %s", got)
	}
	if got := sym.CeilDivDims(h, sym.Const(2)).String(); got != "(H+1)//2" {
		t.Errorf("ceil(H/2) = %s", got)
	}
	if got := sym.TruncDivDims(sym.Const(-7), sym.Const(2)).String(); got != "-3" {
		t.Errorf("trunc -7/2 = %s", got)
	}
	if got := sym.MinDims(h, sym.AddDims(h, sym.Const(1))).String(); got != "H" {
		t.Errorf("min(H, H+1) = %s", got)
	}
	if got := sym.MinDims(h, sym.Const(9223372036854775806)).String(); got != "H" {
		t.Errorf("min(H, big) = %s", got)
	}
	if m := sym.MinDims(h, sym.Const(10)); m.String() != "min(H,10)" {
		t.Errorf("min(H, 10) = %s", m)
	} else if lo, hi := m.Bounds(); lo != 1 || hi != 10 {
		t.Errorf("min(H, 10) has bounds %d..%d, want 1..10", lo, hi)
	}
}

func TestSizeBound(t *testing.T) {
	tab := sym.NewTable()
	e := tab.Symbol("N", 0, sym.Inf)
	d := sym.Of(e)
	for i := 0; i < 200; i++ {
		d = sym.AddDims(sym.MulDims(d, d), sym.Const(1))
	}
	if d.Determined() {
		t.Errorf("an expression past the size bound is kept: %v", d)
	}
	// Powers count as their repeated factors: squaring N (which wrapped the exponent around to
	// N^0 after 64 squarings, and never ended printing or bounding N^(2^60)) keeps N^32 and stops
	// at N^64.
	d = sym.Of(e)
	for range 5 {
		d = sym.MulDims(d, d)
	}
	if x, ok := d.Expr(); !ok || x.String() != strings.Repeat("N*", 31)+"N" {
		t.Errorf("N^32 = %v", d)
	}
	for range 100 {
		d = sym.MulDims(d, d)
	}
	if d.Determined() || d.String() != "?" {
		t.Errorf("N^(2^105) = %v, want ? (past the size bound)", d)
	}
	// A floor of the square of the one before: the atoms nest, each counted once, but the text
	// doubles at each step; the bound of every occurrence counted stops it.
	d = sym.Of(e)
	for range 200 {
		d = sym.FloorDivDims(sym.AddDims(sym.MulDims(d, d), sym.Const(1)), sym.Const(3))
	}
	if d.Determined() {
		t.Errorf("a nest of floors past the size bound is kept: %v", d)
	}
}

// TestSizeShared: an atom that occurs several times counts once. maskrcnn's RPN keeps
// min(anchors, 1000) of each of five levels, whose sizes are products of two floor divisions of
// the image size; their sum is 85 terms, factors and atoms counting every occurrence, 51 counting
// each atom once.
func TestSizeShared(t *testing.T) {
	tab := sym.NewTable()
	h, w := sym.Of(tab.Symbol("H", 1, sym.Inf)), sym.Of(tab.Symbol("W", 1, sym.Inf))
	const text = "8*min(24*((H+31)//32)*((W+31)//32),125)+8*min(6*((H+31)//32)*((W+31)//32),125)" +
		"+4*min(3*((H+31)//32)*((W+31)//32),250)+min(3*((H+31)//32)*((W+31)//32),1000)" +
		"+min(3*((H+63)//64)*((W+63)//64),1000)"
	e, err := sym.ParseExpr(text, tab)
	if err != nil {
		t.Fatal(err)
	}
	if n := e.Size(); n <= 64 {
		t.Errorf("%s: Size %d, want past 64", e, n)
	}
	anchors := func(h, w int64) int64 {
		a, b, c, d := (h+31)/32, (w+31)/32, (h+63)/64, (w+63)/64
		return 8*min(24*a*b, 125) + 8*min(6*a*b, 125) + 4*min(3*a*b, 250) + min(3*a*b, 1000) + min(3*c*d, 1000)
	}
	for _, hw := range [][2]int64{{1, 1}, {320, 480}, {800, 1216}, {2000, 33}} {
		got, err := e.Eval(func(name string) (int64, bool) { return map[string]int64{"H": hw[0], "W": hw[1]}[name], true })
		if want := anchors(hw[0], hw[1]); err != nil || got != want {
			t.Errorf("%s at H=%d, W=%d: %d, %v; want %d", e, hw[0], hw[1], got, err, want)
		}
	}
	// The sum built one level at a time, as the graph adds them, is kept too.
	a := sym.MulDims(sym.CeilDivDims(h, sym.Const(32)), sym.CeilDivDims(w, sym.Const(32)))
	c := sym.MulDims(sym.CeilDivDims(h, sym.Const(64)), sym.CeilDivDims(w, sym.Const(64)))
	sum := sym.Const(0)
	for _, level := range []struct {
		area sym.Dim
		k    int64
	}{{a, 192}, {a, 48}, {a, 12}, {a, 3}, {c, 3}} {
		sum = sym.AddDims(sum, sym.MinDims(sym.MulDims(sym.Const(level.k), level.area), sym.Const(1000)))
	}
	if x, ok := sum.Expr(); !ok || !x.Equal(e) {
		t.Errorf("the levels' sum = %v, want %s", sum, e)
	}
}

func TestJSON(t *testing.T) {
	tab := sym.NewTable()
	s, _ := sym.ParseShape("[B*T,3,?,1..8,(H+1)//2]", tab)
	b, err := json.Marshal(struct {
		S, D sym.Shape
	}{s, sym.DynamicRank()})
	if err != nil || string(b) != `{"S":["B*T",3,"?","1..8","(H+1)//2"],"D":null}` {
		t.Errorf("JSON = %s, %v", b, err)
	}
}

func TestMonomial(t *testing.T) {
	tests := []struct {
		in      string
		c       int64
		factors string
		ok      bool
	}{
		{"0", 0, "", true},
		{"7", 7, "", true},
		{"B", 1, "B", true},
		{"4*B", 4, "B", true},
		{"T*B*4*T", 4, "T T B", true}, // in the table's order: T met first
		{"3*((H+1)//2)*W", 3, "W (H+1)//2", true},
		{"B+T", 0, "", false},
		{"N*T/2", 0, "", false},
		{"64/T", 0, "", false},
	}
	for _, tt := range tests {
		e, err := sym.ParseExpr(tt.in, sym.NewTable())
		if err != nil {
			t.Fatal(err)
		}
		c, fs, ok := e.Monomial()
		var names []string
		for _, f := range fs {
			names = append(names, f.String())
		}
		if c != tt.c || strings.Join(names, " ") != tt.factors || ok != tt.ok {
			t.Errorf("%s: Monomial() = %d, %q, %v; want %d, %q, %v", tt.in, c, names, ok, tt.c, tt.factors, tt.ok)
		}
	}
}

// BenchmarkAdd adds two sums of four terms, without and with indicators min(u,1) (the 0-copies
// of a Reshape pattern): the scans for indicators cost a sum without them next to nothing.
func BenchmarkAdd(b *testing.B) {
	for _, c := range []struct{ name, x, y string }{
		{"polynomial", "N*H*W+3*N*H+2*W+7", "N*W+5*H*W+N+1"},
		{"indicators", "N*min(N,1)+H*W+T/N+2", "N*min(H,1)+3*W+min(N,1)+1"},
	} {
		tab := sym.NewTable()
		x, errX := sym.ParseExpr(c.x, tab)
		y, errY := sym.ParseExpr(c.y, tab)
		if err := errors.Join(errX, errY); err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := sym.Add(x, y); !ok {
					b.Fatal("Add overflowed")
				}
			}
		})
	}
}
