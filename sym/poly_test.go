package sym

import "testing"

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
