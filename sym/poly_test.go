package sym

import (
	"fmt"
	"math"
	"math/big"
	"testing"
)

// TestPolyBounds: the least and greatest value of a symbol at which a comparison of a polynomial
// of it holds, within the symbol's bounds, each checked against the values evaluated where the
// bounds are finite.
func TestPolyBounds(t *testing.T) {
	for _, tc := range []struct {
		cmp      string
		lo, hi   int64 // the symbol's bounds
		from, to int64 // the bounds found: from > to where it holds nowhere
		ok       bool
	}{
		// r3_0178 at H = 2*k: 6*k*k-10*k+4 < 0 between its roots 2/3 and 1, at no integer.
		{"6*X*X-10*X+4 <= -1", 0, Inf, 1, 0, true},
		{"6*X*X-5*X+1 <= -1", 0, Inf, 1, 0, true},
		{"X*X == 400", 1, Inf, 20, 20, true},
		{"X*X == 400", NegInf, Inf, -20, 20, true},
		{"X*X == 401", NegInf, Inf, 1, 0, true},
		{"X*X <= 401", NegInf, Inf, -20, 20, true},
		// Outside the roots 2 and 5: the hull of both sides within the bounds.
		{"X*X-7*X+10 >= 0", 3, 40, 5, 40, true},
		{"X*X-7*X+10 >= 0", 1, 4, 1, 2, true},
		{"X*X-7*X+10 >= 0", 3, 4, 1, 0, true},
		{"X*X-7*X+10 >= 0", NegInf, Inf, NegInf, Inf, true},
		{"-X*X+7*X >= 11", NegInf, Inf, 3, 4, true},
		// Monotone from the lower bound, and from 0 both ways.
		{"X*X*X+X >= 30", 1, Inf, 3, Inf, true},
		{"X*X*X == -27", NegInf, Inf, -3, -3, true},
		{"X*X*X*X <= 16", NegInf, Inf, -2, 2, true},
		{"X*X*X-3*X*X <= 100", 3, Inf, 3, 5, true},
		// Not monotone on either side of 0: no bounds.
		{"X*X*X-4*X <= -2", NegInf, Inf, 0, 0, false},
		// Near the end of int64: 2^31 squared, and 2^63-1.
		{"X*X >= 4611686018427387904", 1, Inf, 2147483648, Inf, true},
		{"X*X <= 4611686018427387903", 0, Inf, 0, 2147483647, true},
		{"X*X >= 9223372036854775807", 1, Inf, 3037000500, Inf, true},
	} {
		tab := NewTable()
		tab.Symbol("X", tc.lo, tc.hi)
		p, err := ParsePred(tc.cmp, tab)
		if err != nil {
			t.Fatalf("%s: %v", tc.cmp, err)
		}
		l, b, ok := atomOf(p)
		if !ok {
			t.Fatalf("%s: %v is no comparison", tc.cmp, p)
		}
		bounds := func(string) (xint, xint) { return ivalOf(tc.lo, tc.hi).lo, ivalOf(tc.lo, tc.hi).hi }
		_, from, to, ok := polyBounds(l, b, bounds)
		if ok != tc.ok {
			t.Errorf("%s in %d..%d: ok %v, want %v", tc.cmp, tc.lo, tc.hi, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if tc.from > tc.to {
			if cmpX(from, to) <= 0 {
				t.Errorf("%s in %d..%d: %v..%v, want none", tc.cmp, tc.lo, tc.hi, from, to)
			}
			continue
		}
		if cmpX(from, fromInt64(tc.from, true)) != 0 || cmpX(to, fromInt64(tc.to, false)) != 0 {
			t.Errorf("%s in %d..%d: %v..%v, want %d..%d", tc.cmp, tc.lo, tc.hi, from, to, tc.from, tc.to)
		}
	}
}

// TestPolyBoundsExhaustive holds polyBounds to the values evaluated, for every polynomial of
// degree 2 and 3 with small coefficients, every comparison and bounds in -8..8.
func TestPolyBoundsExhaustive(t *testing.T) {
	const r = 8
	x := &atom{kind: symbolAtom, name: "X", lo: NegInf, hi: Inf}
	for deg := 2; deg <= 3; deg++ {
		coefs := make([]int64, deg+1)
		var each func(i int)
		each = func(i int) {
			if i >= 0 {
				for c := int64(-3); c <= 3; c++ {
					if i == deg && c == 0 {
						continue
					}
					coefs[i] = c
					each(i - 1)
				}
				return
			}
			var l Expr
			for k, c := range coefs {
				if c == 0 || k == 0 {
					continue
				}
				var ok bool
				l, ok = Add(l, Expr{t: []term{{c: ratInt(c), m: []factor{{x, k}}}}})
				if !ok {
					t.Fatal("polynomial not kept")
				}
			}
			value := func(v int64) int64 {
				s := int64(0)
				for k := deg; k >= 0; k-- {
					s = s*v + coefs[k]
				}
				return s - coefs[0]
			}
			for _, kind := range []boundKind{lower, upper, equal} {
				for v := int64(-3); v <= 3; v++ {
					b := bound{kind, v - coefs[0]}
					for _, span := range [][2]int64{{-r, r}, {-r, 2}, {-3, r}, {1, 4}} {
						bounds := func(string) (xint, xint) { return fin(span[0]), fin(span[1]) }
						_, from, to, ok := polyBounds(l, b, bounds)
						if !ok {
							if deg == 2 {
								t.Fatalf("%v in %v: no bounds", l, span)
							}
							continue
						}
						wantFrom, wantTo := plusInf, minusInf
						for h := span[0]; h <= span[1]; h++ {
							if b.satisfies(value(h)) {
								wantFrom, wantTo = minX(wantFrom, fin(h)), maxX(wantTo, fin(h))
							}
						}
						if cmpX(from, wantFrom) != 0 || cmpX(to, wantTo) != 0 {
							t.Fatalf("%v (bound %v) in %v: %v..%v, want %v..%v", l, b, span, from, to, wantFrom, wantTo)
						}
					}
				}
			}
		}
		each(deg)
	}
}

// TestRootX: the integer roots of productBounds, rounded up and down, at squares, cubes and the
// end of int64.
func TestRootX(t *testing.T) {
	for _, tc := range []struct {
		v        int64
		e        int
		ceil     bool
		want     int64
		infinite bool
	}{
		{0, 2, true, 0, false},
		{1, 2, false, 1, false},
		{400, 2, false, 20, false},
		{400, 2, true, 20, false},
		{401, 2, false, 20, false},
		{401, 2, true, 21, false},
		{26, 3, true, 3, false},
		{27, 3, false, 3, false},
		{math.MaxInt64, 2, false, 3037000499, false},
		{math.MaxInt64, 2, true, 3037000500, false},
		{math.MaxInt64, 63, false, 1, false},
		{math.MaxInt64, 63, true, 2, false},
	} {
		got := rootX(fin(tc.v), tc.e, tc.ceil)
		if got.inf != 0 || got.v != tc.want {
			t.Errorf("rootX(%d, %d, %v) = %v, want %d", tc.v, tc.e, tc.ceil, got, tc.want)
		}
		// The root's power is on the side of v the rounding says, and the next one's beyond it.
		r := big.NewInt(got.v)
		p := new(big.Int).Exp(r, big.NewInt(int64(tc.e)), nil)
		q := new(big.Int).Exp(r.Add(r, big.NewInt(map[bool]int64{true: -1, false: 1}[tc.ceil])), big.NewInt(int64(tc.e)), nil)
		v := big.NewInt(tc.v)
		if tc.ceil && (p.Cmp(v) < 0 || got.v > 0 && q.Cmp(v) >= 0) || !tc.ceil && (p.Cmp(v) > 0 || q.Cmp(v) <= 0) {
			t.Errorf("rootX(%d, %d, %v) = %d is not the rounded root", tc.v, tc.e, tc.ceil, got.v)
		}
	}
	if got := rootX(plusInf, 2, false); got.inf != 1 {
		t.Errorf("rootX(+inf, 2) = %v, want +inf", got)
	}
}

// TestNarrowingPowers: the bounds that a product with a power of a symbol gives the symbol (the
// root of the power's bounds) and its co-factors, each checked against every binding of a box
// that satisfies the comparison.
func TestNarrowingPowers(t *testing.T) {
	for _, tc := range []struct {
		cmp  string
		want map[string][2]int64 // the bounds narrowed, by symbol
	}{
		{"B*B*Q == 400", map[string][2]int64{"B": {10, 20}}},
		{"B*B*T == 400", map[string][2]int64{"B": {1, 20}, "T": {1, 400}}},
		{"B*B*B*W == 1000", map[string][2]int64{"B": {1, 10}, "W": {1, 1000}}},
		{"B*B*Q <= 50", map[string][2]int64{"B": {1, 7}}},
		{"Z*Z*Q <= 50", map[string][2]int64{"Z": {-7, 7}}},
		{"Z*Z*Z*Q >= 30", map[string][2]int64{"Z": {2, Inf}}},
		{"B*B*Q >= 30", map[string][2]int64{"B": {3, Inf}}},
	} {
		tab := NewTable()
		tab.Symbol("B", 1, Inf)
		tab.Symbol("T", 1, Inf)
		tab.Symbol("W", 1, Inf)
		tab.Symbol("Z", NegInf, Inf)
		tab.Symbol("Q", 1, 4)
		p, err := ParsePred(tc.cmp, tab)
		if err != nil {
			t.Fatalf("%s: %v", tc.cmp, err)
		}
		sub, empty := narrowingAll(p)
		if empty {
			t.Fatalf("%s: no value", tc.cmp)
		}
		got := map[string][2]int64{}
		for name, x := range sub {
			got[name] = [2]int64{x.t[0].m[0].a.lo, x.t[0].m[0].a.hi}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %v, want %v", tc.cmp, got, tc.want)
		}
		names := p.SymbolNames()
		at := map[string]int64{}
		var each func(k int)
		each = func(k int) {
			if k == len(names) {
				if ok, err := p.Eval(at); err == nil && ok {
					for name, b := range got {
						if at[name] < b[0] || at[name] > b[1] {
							t.Fatalf("%s holds at %v, outside %s in %d..%d", tc.cmp, at, name, b[0], b[1])
						}
					}
				}
				return
			}
			for v := int64(-30); v <= 1100; v++ {
				if lo, hi, _ := tab.Bounds(names[k]); v >= lo && v <= hi {
					at[names[k]] = v
					each(k + 1)
				}
			}
		}
		each(0)
	}
}
