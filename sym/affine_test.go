package sym

import "testing"

// TestAffineSet holds the exact sets of conditions of one symbol, quasi-affine in it, and their
// readable forms (preds and factored), to the condition's own value at each T from 1 to 2000,
// from K-999 to K+1000 and near the points where it changes, far past what a guess evaluates:
// r2_0109's Cast_71 and Reshape_55, alone and with the other conditions of T.
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
		{"T*T >= 5", "", nil},                    // not quasi-affine
		{"T in 107..112 && T % 2 == 0", "", nil}, // ends within what a guess evaluates
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
