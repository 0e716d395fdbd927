package sym

import "testing"

// TestFastPaths holds the shortcuts of op and MulDims (static operands, a constant times an
// expression) to what the general path gives, Dim for Dim, and pins them at no allocation.
func TestFastPaths(t *testing.T) {
	tab := NewTable()
	n := Of(tab.Symbol("N", 1, Inf))
	h := Of(tab.Symbol("H", 2, 64))
	nh := MulDims(n, h)
	dims := []Dim{Const(0), Const(1), Const(-1), Const(3), Const(1 << 40), n, h, nh, AddDims(n, Const(1)),
		Interval(2, 9), Unknown(), UnknownValue(), Of(tab.Anon("k", 1, 8))}
	ops := []struct {
		name string
		fast func(a, b Dim) Dim
		f    func(x, y Expr) (Expr, bool)
		g    func(x, y ival) ival
	}{
		{"Mul", MulDims, Mul, mulI},
		{"Add", AddDims, Add, addI},
	}
	for _, o := range ops {
		for _, a := range dims {
			for _, b := range dims {
				got, want := o.fast(a, b), op(a, b, o.f, o.g)
				if !got.Identical(want) || got.exact != want.exact {
					t.Errorf("%s(%v, %v) = %v [%d, %d], want %v [%d, %d]", o.name, a, b, got, got.lo, got.hi, want, want.lo, want.hi)
				}
			}
		}
	}
	// H % 32 == 0 || H % 32 >= 29 at H=61, as package sizemap evaluates a condition per cell.
	mod, err := ParsePred("H % 32 == 0 || H % 32 >= 29", tab)
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]int64{"H": 61}
	if ok, err := mod.Eval(at); !ok || err != nil {
		t.Fatalf("%v at H=61: %v, %v; want true", mod, ok, err)
	}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"MulDims(3, 4)", func() { MulDims(Const(3), Const(4)) }},
		{"AddDims(3, 4)", func() { AddDims(Const(3), Const(4)) }},
		{"FloorDivDims(12, 4)", func() { FloorDivDims(Const(12), Const(4)) }},
		{"Expr.DependsOnAnon", func() { nh.e.DependsOnAnon() }},
		{"Pred.Eval", func() { mod.Eval(at) }},
	} {
		if allocs := testing.AllocsPerRun(100, c.f); allocs != 0 {
			t.Errorf("%s: %v allocations, want 0", c.name, allocs)
		}
	}
}

// TestEval64 holds the int64 fast path of evaluation to the exact one (evalRat) where it gives an
// answer, and checks that it gives up where a value leaves int64 or evaluation fails, so that the
// exact path answers: intermediate products beyond int64 whose result is within it, a quotient
// that does not divide, a division by zero, a symbol without a value.
func TestEval64(t *testing.T) {
	tab := NewTable()
	tab.Symbol("H", 0, Inf)
	tab.Symbol("W", 0, Inf)
	for _, c := range []struct {
		pred    string
		binding map[string]int64
		want    bool
		fast    bool // whether the fast path answers
	}{
		{"H % 32 >= 29", map[string]int64{"H": 61}, true, true},
		{"(H//16)*(W//16) == 196", map[string]int64{"H": 224, "W": 239}, true, true},
		{"min(H,W)+W == 11", map[string]int64{"H": 2, "W": 9}, true, true},
		{"max(H,W)-(H+W)//2 <= 1", map[string]int64{"H": 4, "W": 7}, false, true},
		{"H*H*H*H - H*H*H*H//2 >= 0", map[string]int64{"H": 1 << 20}, true, false},
		{"W/(H-1) == 2", map[string]int64{"H": 1, "W": 4}, false, false},
		{"W/(H+1) == 2", map[string]int64{"H": 2, "W": 7}, false, false},
		{"H >= 1", map[string]int64{"W": 1}, false, false},
	} {
		p, err := ParsePred(c.pred, tab)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := p.Eval(c.binding)
		if got != c.want {
			t.Errorf("%s at %v = %v, want %v", c.pred, c.binding, got, c.want)
		}
		if p.kind() != pCmp {
			t.Fatalf("%s reads as %v, not one comparison", c.pred, p)
		}
		fast, ok := cmp64(p.n, lookup(c.binding))
		if ok != c.fast || ok && fast != c.want {
			t.Errorf("%s at %v: fast path %v, %v; want %v, %v", c.pred, c.binding, fast, ok, c.want, c.fast)
		}
		if h := p.holds(lookup(c.binding)); h != c.want {
			t.Errorf("%s at %v: holds %v, want %v", c.pred, c.binding, h, c.want)
		}
	}
}

// TestHolds: holds gives what Eval gives, an error taken for false, through conjunctions and
// disjunctions whose terms the fast path finds undefined (a division by zero, an exact quotient
// that does not divide) or gives up on.
func TestHolds(t *testing.T) {
	tab := NewTable()
	tab.Symbol("H", 0, Inf)
	tab.Symbol("W", 0, Inf)
	for _, pred := range []string{
		"W/(H-1) == 2 || H >= 1",
		"W/(H-1) == 2 && H >= 1",
		"W % (H-2) == 1 || W/3 >= 2",
		"H*H*H*H - H*H*H*H//2 >= 0 && W/(H+1) <= 3",
		"(W+H)/2 % 3 == 0 || H/W == 2",
	} {
		p, err := ParsePred(pred, tab)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []map[string]int64{{"H": 1, "W": 4}, {"H": 2, "W": 7}, {"H": 3, "W": 6}, {"H": 1 << 20, "W": 3}, {"H": 4, "W": 2}, {"H": 5}} {
			v, err := p.Eval(b)
			if want := err == nil && v; p.holds(lookup(b)) != want {
				t.Errorf("%s at %v: holds %v, Eval %v, %v", pred, b, !want, v, err)
			}
		}
	}
}
