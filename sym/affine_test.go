package sym

import (
	"math/big"
	"slices"
	"testing"
)

// TestAffineSet holds the exact sets of conditions of one symbol, quasi-affine or quasi-polynomial
// in it, and their readable forms (preds and factored), to the condition's own value at each T
// from 1 to 2000, from K-999 to K+1000 and near the points where it changes, far past what a
// guess evaluates: r2_0109's Cast_71 and Reshape_55, alone and with the other conditions of T;
// r3_0262's and r0_0237's, of minima and maxima of polynomials.
func TestAffineSet(t *testing.T) {
	const k = 12884901892 // K: (T+55)//72 >= (T+1)//18-536870911 holds up to here
	for _, tc := range []struct {
		pred string
		want string  // the first readable form; none where the set is not written so
		at   []int64 // more values checked
	}{
		{"(T+55)//72 >= (T+1)//18-536870911", "T <= 12884901892", []int64{k - 72, k - 1, k, k + 1, k + 72, 1 << 40, 1 << 62}},
		{"3*((T+1)//18) % 4 == 0", "T % 72 in {0..16, 71}", []int64{k, k + 1, 1 << 40, 1<<62 + 15, 1<<62 + 16}},
		{"T <= 100000 && T % 3 == 0", "T in 3..99999 && T % 3 == 0", []int64{99998, 99999, 100000, 100002}},
		{"T % 3 == 0 || T <= 100000", "T <= 100000 || T >= 100002 && T % 3 == 0", []int64{99999, 100000, 100001, 100002, 100003, 1 << 62}},
		{"2*T >= 7 && (T+1)//2 <= 30000000000", "T in 4..60000000000", []int64{59999999999, 60000000000, 60000000001}},
		{"T//5 >= 1000000 && T % 2 == 0", "T >= 5000000 && T % 2 == 0", []int64{4999998, 5000000, 5000001, 5000002}},
		{"T*T >= 5", "T >= 3", []int64{1 << 31, 1 << 40, 1 << 62}},
		// Quasi-polynomial (polyPoints): r3_0262's and r0_0237's conditions, and roots past
		// what a guess evaluates, found exactly.
		{"min(T*T+T-3,max(0,T*T+T-4)) >= (min(T*T+T-3,max(0,T*T+T-4))+1)//2", "T >= 2", []int64{1 << 31, 1 << 40, 1 << 62}},
		{"(max(0,T//3-1)+2*max(0,T//3-2)+2)//3 >= max(0,T//3-2)+6", "0 == 1", []int64{1 << 31, 1 << 40, 1 << 62}},
		{"T*T >= 5000000000", "T >= 70711", []int64{70709, 70710, 70711, 70712, 1 << 31, 1 << 62}},
		{"T*T <= 4611686014132420609", "T <= 2147483647", []int64{1<<31 - 2, 1<<31 - 1, 1 << 31, 1 << 40}},
		{"T*T*T-100*T*T+2000 >= 0", "T >= 100 || T <= 4", []int64{98, 99, 100, 101, 1 << 31, 1 << 40}},
		{"T*T//7 % 3 == 1 && T <= 100000", "T in 3..99999 && (T % 21 in {3, 7, 14, 18})", []int64{99997, 99999, 100000, 100001, 100002}},
		{"max(T*T-50*T,3*T) >= 1000 && T*T//5 <= 20000000000", "T in 66..316227", []int64{316226, 316227, 316228, 1 << 40}},
		{"T in 107..112 && T % 2 == 0", "", nil},                                  // ends within what a guess evaluates
		{"T % 2 == 0 && (T+1)//2 >= T//2+1", "0 == 1", []int64{1 << 40, 1 << 62}}, // empty
		{"T >= 35 && 3*((T+1)//18) % 4 == 0 && T % 18 in {0..4, 17} && (T+55)//72 >= (T+1)//18-536870911", "T in 71..12884901844 && (T % 72 in {0..4, 71})", []int64{k - 72, k - 1, k, k + 1, k + 72, 1 << 40, 1 << 62}},
	} {
		t.Run(tc.pred, func(t *testing.T) {
			tab := NewTable()
			tab.Symbol("T", 1, Inf)
			p, err := ParsePred(tc.pred, tab)
			if err != nil {
				t.Fatal(err)
			}
			var x *atom
			for _, a := range symbolAtoms(p) {
				x = a
			}
			if x == nil {
				t.Fatalf("%s: no symbol", p)
			}
			s, ok := affineSet(p, x, x.lo, x.hi)
			if tc.want == "" {
				if ok {
					t.Fatalf("affineSet(%s) = %+v, want none", tc.pred, s)
				}
				return
			}
			if !ok {
				t.Fatalf("affineSet(%s): none", tc.pred)
			}
			vals := map[string]int64{}
			value := func(name string) (int64, bool) { v, ok := vals[name]; return v, ok }
			forms := append(s.preds(fromAtom(x)), s.factored(fromAtom(x))...)
			for v := int64(1); v <= 2000; v++ {
				tc.at = append(tc.at, v, k-1000+v)
			}
			for _, v := range tc.at {
				vals["T"] = v
				want := p.holds(value)
				if s.has(v) != want {
					t.Errorf("T=%d: in the set %v, the condition %v", v, s.has(v), want)
				}
				for _, f := range forms {
					if f.holds(value) != want {
						t.Errorf("T=%d: %v holds %v, the condition %v", v, f, !want, want)
					}
				}
			}
			if tc.want != "" && (len(forms) == 0 || forms[0].String() != tc.want) {
				t.Errorf("forms %v, want %s first", forms, tc.want)
			}
		})
	}
}

// TestSignPoints: the points where a polynomial's sign changes, against its sign at each integer
// of a window around its roots, and exactly at roots past int32.
func TestSignPoints(t *testing.T) {
	for _, tc := range []struct {
		c    []int64 // coefficients of k^0, k^1, ...
		a, z int64
		want []int64 // nil: brute force over [a, z]
	}{
		{[]int64{-5, 0, 1}, 0, 100, nil},                                               // k*k-5
		{[]int64{0, 0, 1}, -50, 50, nil},                                               // k*k: 0 at 0 only
		{[]int64{2000, 0, -100, 1}, -20, 200, nil},                                     // three roots
		{[]int64{-6, 11, -6, 1}, -5, 10, nil},                                          // (k-1)(k-2)(k-3)
		{[]int64{0, -6, 11, -6, 1}, -5, 10, nil},                                       // k(k-1)(k-2)(k-3), zeros side by side
		{[]int64{7}, 0, 100, nil},                                                      // constant
		{[]int64{1, -3, 3, -1}, -30, 30, nil},                                          // (1-k)^3
		{[]int64{-4611686014132420609, 0, 1}, 0, Inf, []int64{2147483647, 2147483648}}, // k*k-(2^31-1)^2
		{[]int64{-(1 << 62), 1}, 0, Inf, []int64{1 << 62, 1<<62 + 1}},
	} {
		c := make([]*big.Int, len(tc.c))
		for i, v := range tc.c {
			c[i] = big.NewInt(v)
		}
		got, ok := signPoints(c, tc.a, tc.z)
		if !ok {
			t.Errorf("%v: none", tc.c)
			continue
		}
		want := tc.want
		if want == nil {
			for k := tc.a + 1; k <= tc.z; k++ {
				if evalSign(c, k) != evalSign(c, k-1) {
					want = append(want, k)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%v on %d..%d: %v, want %v", tc.c, tc.a, tc.z, got, want)
		}
	}
}
