package sym_test

import (
	"math"
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// resized builds the size torchvision's GeneralizedRCNNTransform resizes the axis x of an image
// [3,H,W] to, as its ONNX export computes it in float32: scale = min(320 * (1/min(H,W)),
// 640 * (1/max(H,W))), then int(floor(x * scale)).
func resized(t *testing.T, h, w, x sym.Expr) sym.Expr {
	t.Helper()
	must := func(f sym.Float, ok bool) sym.Float {
		t.Helper()
		if !ok {
			t.Fatal("float expression not kept")
		}
		return f
	}
	one := must(sym.FloatConst(1, 32))
	side := func(e sym.Expr, size float64) sym.Float {
		r := must(sym.FloatBinary(sym.FloatDiv, one, must(sym.FloatOf(e, 32))))
		return must(sym.FloatBinary(sym.FloatMul, r, must(sym.FloatConst(size, 32))))
	}
	mn, _ := sym.Min(h, w)
	mx, _ := sym.Max(h, w)
	scale := must(sym.FloatBinary(sym.FloatMin, side(mn, 320), side(mx, 640)))
	v := must(sym.FloatUnary(sym.FloatFloor, must(sym.FloatBinary(sym.FloatMul, must(sym.FloatOf(x, 32)), scale))))
	e, ok := sym.Trunc(v)
	if !ok {
		t.Fatal("Trunc failed")
	}
	return e
}

// resizedRef computes resized's value with Go's float32 arithmetic, one rounding a step.
func resizedRef(h, w, x int64) int64 {
	one := float32(1)
	scale := min(float32(one/float32(min(h, w)))*320, float32(one/float32(max(h, w)))*640)
	return int64(math.Floor(float64(float32(float32(x) * scale))))
}

func TestFloatResize(t *testing.T) {
	tb := sym.NewTable()
	h, w := tb.Symbol("H", 1, sym.Inf), tb.Symbol("W", 1, sym.Inf)
	e := resized(t, h, w, h)
	const want = "int(floor(f32(H)*min(f32(1)/f32(min(H,W))*f32(320),f32(1)/f32(max(H,W))*f32(640))))"
	if got := e.String(); got != want {
		t.Errorf("String = %s, want %s", got, want)
	}
	// Where rounding bites: at H = W = 25 the scale 320/25 times 25 is 319.99997 in float32, and
	// so at H = 25 for every W from 26 to 50.
	for _, c := range []struct{ h, w, want int64 }{
		{320, 320, 320}, {300, 400, 320}, {480, 640, 320}, {100, 300, 213}, {25, 25, 319}, {47, 94, 319},
		{24, 24, 320}, {25, 50, 319}, {1, 2, 320}, {1, 1000, 0},
	} {
		b := map[string]int64{"H": c.h, "W": c.w}
		got, err := sym.Of(e).Eval(b)
		if err != nil || got != c.want || got != resizedRef(c.h, c.w, c.h) {
			t.Errorf("at H=%d, W=%d: %d, %v; want %d (reference %d)", c.h, c.w, got, err, c.want, resizedRef(c.h, c.w, c.h))
		}
	}
	// Every binding of a box agrees with the reference and lies within the bounds.
	lo, hi := e.Bounds()
	for hv := int64(1); hv <= 120; hv++ {
		for wv := int64(1); wv <= 120; wv += 7 {
			got, err := e.Eval(func(n string) (int64, bool) { return map[string]int64{"H": hv, "W": wv}[n], true })
			if err != nil || got != resizedRef(hv, wv, hv) || got < lo || got > hi {
				t.Fatalf("at H=%d, W=%d: %d, %v; want %d within [%d, %d]", hv, wv, got, err, resizedRef(hv, wv, hv), lo, hi)
			}
		}
	}
	// Substituting W by H folds min and max; binding both gives a constant.
	sub, ok := e.Subst(func(n string) (sym.Expr, bool) { return h, n == "W" })
	if !ok || sub.String() != "int(floor(f32(H)*min(f32(1)/f32(H)*f32(320),f32(1)/f32(H)*f32(640))))" {
		t.Errorf("Subst W=H: %s, %v", sub, ok)
	}
	c, ok := e.Subst(func(n string) (sym.Expr, bool) { return sym.Int(25), true })
	if n, isConst := c.Const(); !ok || !isConst || n != 319 {
		t.Errorf("Subst H=W=25: %s, %v", c, ok)
	}
	// The expression is an atom: equal computations are equal expressions, and arithmetic on them
	// keeps them whole.
	if !resized(t, h, w, h).Equal(e) || resized(t, h, w, w).Equal(e) {
		t.Error("Equal does not compare the computation")
	}
	d, _ := sym.FloorDiv(e, sym.Int(32))
	if got := d.String(); got != want+"//32" {
		t.Errorf("FloorDiv: %s", got)
	}
}

func TestFloatOps(t *testing.T) {
	tb := sym.NewTable()
	n := tb.Symbol("N", 1, 100)
	f32 := func(e sym.Expr) sym.Float { f, _ := sym.FloatOf(e, 32); return f }
	c32 := func(v float64) sym.Float { f, _ := sym.FloatConst(v, 32); return f }
	bin := func(op sym.FloatOp, x, y sym.Float) sym.Float { f, _ := sym.FloatBinary(op, x, y); return f }
	un := func(op sym.FloatOp, x sym.Float) sym.Float { f, _ := sym.FloatUnary(op, x); return f }
	f64 := func(x sym.Float) sym.Float { f, _ := sym.FloatCast(x, 64); return f }
	tests := []struct {
		name string
		f    sym.Float
		text string
		at   int64 // N
		want int64 // int(f) at N
		lo   int64 // int(f)'s lower bound at most
		hi   int64 // int(f)'s upper bound at least
	}{
		{"round half to even", un(sym.FloatRound, bin(sym.FloatDiv, f32(n), c32(2))), "round(f32(N)/f32(2))", 5, 2, 0, 50},
		{"round half to even 7/2", un(sym.FloatRound, bin(sym.FloatDiv, f32(n), c32(2))), "round(f32(N)/f32(2))", 7, 4, 0, 50},
		{"ceil", un(sym.FloatCeil, bin(sym.FloatMul, f32(n), c32(0.1))), "ceil(f32(N)*f32(0.1))", 30, 3, 0, 10}, // 3.0000000447 rounds to 3,
		{"sqrt", un(sym.FloatSqrt, f32(n)), "sqrt(f32(N))", 99, 9, 1, 10},
		{"sub assoc", bin(sym.FloatSub, c32(1), bin(sym.FloatSub, f32(n), c32(3))), "f32(1)-(f32(N)-f32(3))", 10, -6, -96, 3},
		{"neg", un(sym.FloatNeg, bin(sym.FloatAdd, f32(n), c32(0.5))), "-(f32(N)+f32(0.5))", 10, -10, -101, -1},
		{"f64", bin(sym.FloatMul, f64(f32(n)), func() sym.Float { f, _ := sym.FloatConst(0.1, 64); return f }()), "f64(f32(N))*f64(0.1)", 30, 3, 0, 11},
		{"max", bin(sym.FloatMax, f32(n), c32(7.5)), "max(f32(N),f32(7.5))", 3, 7, 7, 100},
		// x·1, 1·x and x/1 are x, exactly: torch's scale f32(h)/f32(1) of a size upsampled from 1.
		{"times one", bin(sym.FloatMul, c32(1), bin(sym.FloatDiv, f32(n), c32(1))), "f32(N)", 37, 37, 1, 100},
		{"quotient times divisor", bin(sym.FloatMul, bin(sym.FloatDiv, c32(13), f32(n)), f32(n)), "f32(13)/f32(N)*f32(N)", 11, 12, 0, 13},
	}
	for _, tt := range tests {
		e, ok := sym.Trunc(tt.f)
		if !ok {
			t.Fatalf("%s: Trunc failed", tt.name)
		}
		if got := tt.f.String(); got != tt.text {
			t.Errorf("%s: String = %s, want %s", tt.name, got, tt.text)
		}
		got, err := sym.Of(e).Eval(map[string]int64{"N": tt.at})
		if err != nil || got != tt.want {
			t.Errorf("%s: at N=%d: %d, %v; want %d", tt.name, tt.at, got, err, tt.want)
		}
		if lo, hi := e.Bounds(); lo > tt.lo || hi < tt.hi {
			t.Errorf("%s: bounds [%d, %d], want within [%d, %d] at least", tt.name, lo, hi, tt.lo, tt.hi)
		}
	}
	// Constants fold: 1/3 in float32 times 3 is 1, and f32(16777217) is 16777216.
	if v, ok := bin(sym.FloatMul, bin(sym.FloatDiv, c32(1), c32(3)), c32(3)).Const(); !ok || v != 1 {
		t.Errorf("1/3*3 = %v, %v", v, ok)
	}
	if v, ok := f32(sym.Int(16777217)).Const(); !ok || v != 16777216 {
		t.Errorf("f32(16777217) = %v, %v", v, ok)
	}
	// Quotient: the integers of f32(13)/f32(N), none of a product.
	if x, y, ok := bin(sym.FloatDiv, c32(13), f32(n)).Quotient(); !ok || x.String() != "13" || y.String() != "N" {
		t.Errorf("Quotient(f32(13)/f32(N)) = %v, %v, %v", x, y, ok)
	}
	if _, _, ok := bin(sym.FloatMul, c32(13), f32(n)).Quotient(); ok {
		t.Error("Quotient(f32(13)*f32(N)) ok")
	}
	// Past int64, or not finite: no value.
	if _, ok := sym.Trunc(c32(1e30)); ok {
		t.Error("Trunc(1e30) kept")
	}
	if _, ok := bin(sym.FloatDiv, c32(1), c32(0)).Const(); ok {
		t.Error("1/0 folded to a constant")
	}
	if _, ok := sym.FloatBinary(sym.FloatAdd, f32(n), f64(f32(n))); ok {
		t.Error("float32 + float64 accepted")
	}
	// A float that is no integer at the binding: an error naming it.
	inf, _ := sym.Trunc(bin(sym.FloatDiv, c32(1), bin(sym.FloatSub, f32(n), c32(5))))
	if _, err := sym.Of(inf).Eval(map[string]int64{"N": 5}); err == nil {
		t.Error("1/(N-5) at N=5: no error")
	}
}

func TestParseFloat(t *testing.T) {
	tb := sym.NewTable()
	h, w := tb.Symbol("H", 1, sym.Inf), tb.Symbol("W", 1, sym.Inf)
	for _, e := range []sym.Expr{resized(t, h, w, h), resized(t, h, w, w)} {
		back, err := sym.ParseExpr(e.String(), tb)
		if err != nil || !back.Equal(e) {
			t.Errorf("ParseExpr(%s) = %s, %v", e, back, err)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"int(f32(H))", "int(f32(H))"},
		{"int(f32(1.5)*f32(H)) + 1", "int(f32(1.5)*f32(H))+1"},
		{"int(f32(0.1)) ", "0"},
		{"int( f64(f32(H)) * f64(1e-05) )", "int(f64(f32(H))*f64(1e-05))"},
		{"int(-f32(H) - (f32(W) - f32(2)))", "int(-f32(H)-(f32(W)-f32(2)))"},
		{"int(round(sqrt(f32(H*W))))//2", "int(round(sqrt(f32(H*W))))//2"},
		{"int(max(f32(min(H,W)), f32(3)))", "int(max(f32(min(H,W)),f32(3)))"},
		{"int(floor(f32(int(floor(f32(H)/f32(3))))))", "int(floor(f32(H)/f32(3)))"},
		{"2*int(f32(-1))", "-2"},
	} {
		e, err := sym.ParseExpr(c.in, tb)
		if err != nil || e.String() != c.want {
			t.Errorf("ParseExpr(%q) = %s, %v; want %s", c.in, e, err, c.want)
		}
	}
	for _, bad := range []string{"int(H)", "int(f32(H) + f64(W))", "int(f32(H)", "int(f32(H)//f32(2))", "int(f32(1e400))", "int(floor(H))"} {
		if e, err := sym.ParseExpr(bad, tb); err == nil {
			t.Errorf("ParseExpr(%q) = %s, want an error", bad, e)
		}
	}
	p, err := sym.ParsePred("int(floor(f32(H)*f32(0.5))) >= 3 && H <= 100", tb)
	if err != nil || p.String() != "H <= 100 && int(floor(f32(H)*f32(0.5))) >= 3" {
		t.Errorf("ParsePred: %s, %v", p, err)
	}
	if ok, err := p.Eval(map[string]int64{"H": 7}); err != nil || !ok {
		t.Errorf("at H=7: %v, %v", ok, err)
	}
	if ok, err := p.Eval(map[string]int64{"H": 5}); err != nil || ok {
		t.Errorf("at H=5: %v, %v", ok, err)
	}
}

func TestFloatBoundsSign(t *testing.T) {
	tb := sym.NewTable()
	h, w := tb.Symbol("H", 1, sym.Inf), tb.Symbol("W", 1, sym.Inf)
	// f32(H) times a positive scale: not negative, though neither factor has an upper bound.
	if lo, _ := resized(t, h, w, h).Bounds(); lo != 0 {
		t.Errorf("lower bound %d, want 0", lo)
	}
}
