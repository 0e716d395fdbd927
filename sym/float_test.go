package sym_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// resized builds the size torchvision's GeneralizedRCNNTransform resizes the axis x of an image
// [3,H,W] to, with min_size 320 and max_size 640, as its ONNX export computes it in float32 (see
// resizedTo).
func resized(t *testing.T, h, w, x sym.Expr) sym.Expr { return resizedTo(t, h, w, x, 320, 640) }

// resizedTo builds the size GeneralizedRCNNTransform resizes the axis x of an image [3,H,W] to,
// with min_size short and max_size long (320 and 640 in fasterrcnn_mobilenet_v3_large_320_fpn,
// 800 and 1333 in retinanet_resnet50_fpn), as its ONNX export computes it in float32: scale =
// min(short * (1/min(H,W)), long * (1/max(H,W))), then int(floor(x * scale)).
func resizedTo(t *testing.T, h, w, x sym.Expr, short, long float64) sym.Expr {
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
	scale := must(sym.FloatBinary(sym.FloatMin, side(mn, short), side(mx, long)))
	v := must(sym.FloatUnary(sym.FloatFloor, must(sym.FloatBinary(sym.FloatMul, must(sym.FloatOf(x, 32)), scale))))
	e, ok := sym.Trunc(v)
	if !ok {
		t.Fatal("Trunc failed")
	}
	return e
}

// resizedRef computes resized's value with Go's float32 arithmetic, one rounding a step.
func resizedRef(h, w, x int64) int64 { return resizedToRef(h, w, x, 320, 640) }

// resizedToRef computes resizedTo's value with Go's float32 arithmetic, one rounding a step.
func resizedToRef(h, w, x int64, short, long float32) int64 {
	one := float32(1)
	scale := min(float32(one/float32(min(h, w)))*short, float32(one/float32(max(h, w)))*long)
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
		{"ceil", un(sym.FloatCeil, bin(sym.FloatMul, f32(n), c32(0.1))), "ceil(f32(N)*f32(0.1))", 30, 3, 1, 10}, // 3.0000000447 rounds to 3,
		{"sqrt", un(sym.FloatSqrt, f32(n)), "sqrt(f32(N))", 99, 9, 1, 10},
		{"sub assoc", bin(sym.FloatSub, c32(1), bin(sym.FloatSub, f32(n), c32(3))), "f32(1)-(f32(N)-f32(3))", 10, -6, -96, 3},
		{"neg", un(sym.FloatNeg, bin(sym.FloatAdd, f32(n), c32(0.5))), "-(f32(N)+f32(0.5))", 10, -10, -100, -1},
		{"f64", bin(sym.FloatMul, f64(f32(n)), func() sym.Float { f, _ := sym.FloatConst(0.1, 64); return f }()), "f64(f32(N))*f64(0.1)", 30, 3, 0, 10},
		{"max", bin(sym.FloatMax, f32(n), c32(7.5)), "max(f32(N),f32(7.5))", 3, 7, 7, 100},
		// x·1, 1·x and x/1 are x, exactly: torch's scale f32(h)/f32(1) of a size upsampled from 1.
		{"times one", bin(sym.FloatMul, c32(1), bin(sym.FloatDiv, f32(n), c32(1))), "f32(N)", 37, 37, 1, 100},
		{"quotient times divisor", bin(sym.FloatMul, bin(sym.FloatDiv, c32(13), f32(n)), f32(n)), "f32(13)/f32(N)*f32(N)", 11, 12, 12, 13},
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

// TestFloatBounds: the bounds of a size computed in float32 keep the relation between a factor
// and a divisor it is at most (f32(H)·(f32(640)/f32(max(H,W))) is at most 640) and spread a
// product over a min: torchvision's resized sizes are at most max_size, each 0 at some binding,
// and every value onnxruntime computes lies within the bounds, at the extremes of int32, float32's
// exact integers and int64 too.
func TestFloatBounds(t *testing.T) {
	tb := sym.NewTable()
	h, w := tb.Symbol("H", 1, sym.Inf), tb.Symbol("W", 1, sym.Inf)
	mn, _ := sym.Min(h, w)
	mx, _ := sym.Max(h, w)
	tests := []struct {
		name        string
		x           sym.Expr // the axis resized
		short, long float32  // min_size, max_size
		lo, hi      int64
	}{
		{"fasterrcnn s1", h, 320, 640, 0, 640},
		{"fasterrcnn s2", w, 320, 640, 0, 640},
		{"the short side", mn, 320, 640, 0, 320},
		{"the long side", mx, 320, 640, 0, 640}, // at least 319 (H = W = 25), not proven
		{"retinanet s1", h, 800, 1333, 0, 1333},
		{"retinanet s2", w, 800, 1333, 0, 1333},
	}
	var sizes []int64
	for _, v := range []int64{1, 2, 3, 25, 320, 640, 800, 1333, 1<<24 - 1, 1 << 24, 1<<24 + 1, 1<<31 - 1, 1 << 31, 1<<53 + 1, 1 << 62, math.MaxInt64} {
		sizes = append(sizes, v, v+1-v%2) // and an odd one near it
	}
	for _, tt := range tests {
		e := resizedTo(t, h, w, tt.x, float64(tt.short), float64(tt.long))
		lo, hi := e.Bounds()
		if lo != tt.lo || hi != tt.hi {
			t.Errorf("%s: bounds [%d, %d], want [%d, %d]", tt.name, lo, hi, tt.lo, tt.hi)
		}
		xv := func(hv, wv int64) int64 {
			v, _ := sym.Of(tt.x).Eval(map[string]int64{"H": hv, "W": wv})
			return v
		}
		check := func(hv, wv int64) {
			got, err := sym.Of(e).Eval(map[string]int64{"H": hv, "W": wv})
			if want := resizedToRef(hv, wv, xv(hv, wv), tt.short, tt.long); err != nil || got != want || got < lo || got > hi {
				t.Errorf("%s at H=%d, W=%d: %d, %v; want %d within [%d, %d]", tt.name, hv, wv, got, err, want, lo, hi)
			}
		}
		for _, hv := range sizes {
			for _, wv := range sizes {
				check(hv, wv)
			}
			check(hv, hv)
			if hv <= math.MaxInt64/2 {
				check(2*hv, hv)
				check(hv, 2*hv)
			}
		}
		for hv := int64(1); hv <= 700; hv++ {
			check(hv, 641)
			check(hv, 1400)
		}
	}
	// The bounds are reached: 0 at H = 1, W = 641, 640 at H = 640, W = 320.
	for _, c := range []struct{ h, w, want int64 }{{1, 641, 0}, {640, 320, 640}, {320, 640, 320}} {
		if got := resizedRef(c.h, c.w, c.h); got != c.want {
			t.Errorf("s1 at H=%d, W=%d: %d, want %d", c.h, c.w, got, c.want)
		}
	}
}

// TestFloatQuotientBounds: a quotient by a divisor at least its factor is at most 1, and one by
// the factor itself is 1, through the roundings; one by an unrelated size has no bound, and a
// product by a min of a factor not of one sign is not spread.
func TestFloatQuotientBounds(t *testing.T) {
	tb := sym.NewTable()
	tb.Symbol("H", 1, sym.Inf)
	tb.Symbol("W", 1, sym.Inf)
	tb.Symbol("K", sym.NegInf, sym.Inf)
	tb.Symbol("P", 1, 100)
	for _, c := range []struct{ in, bounds string }{
		{"int(f32(H)*(f32(100)/f32(H+1)))", "0..100"},
		{"int(f32(H)/f32(max(H,W))*f32(100))", "0..100"},
		{"int(f32(min(H,W))/f32(max(W,K))*f32(100))", "0..100"},
		{"int(f32(P)/f32(H)*f32(H))", "0..100"},
		{"int(f32(P)*f32(H)/f32(H))", "0..100"},
		{"int(f32(H)/f32(W)*f32(100))", "0..inf"},
		{"int(f32(H)*(f32(100)/f32(min(H,W))))", "0..inf"},
		{"int(f32(K)/f32(max(K,W))*f32(100))", "-inf..inf"},
		{"int(f32(-1)*f32(H)*min(f32(320)/f32(min(H,W)),f32(640)/f32(max(H,W))))", "-640..0"},
		{"int(f32(K)*min(f32(320)/f32(min(H,W)),f32(640)/f32(max(H,W))))", "-inf..inf"},
		{"int(f64(H)/f64(max(H,W))*f64(3))", "0..3"},
	} {
		e, err := sym.ParseExpr(c.in, tb)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		lo, hi := e.Bounds()
		text := func(v int64) string {
			switch v {
			case sym.NegInf:
				return "-inf"
			case sym.Inf:
				return "inf"
			}
			return strconv.FormatInt(v, 10)
		}
		if got := text(lo) + ".." + text(hi); got != c.bounds {
			t.Errorf("bounds of %s: %s, want %s", e, got, c.bounds)
		}
	}
}
