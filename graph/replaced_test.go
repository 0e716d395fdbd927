package graph

import (
	"slices"
	"testing"
)

// TestImpliedAsGiven: a condition that a later node's substitution rewrites is implied, as its
// node imposed it, so that the first condition a binding breaks by Seq is where a run stops (a
// static HuBERT export renamed [B,L], trial4's hubert_ctc_static: onnxruntime refuses B = 2 at the
// first attention Reshape, whose volume B*T == 6 the minimal list reads T == 6 once the last
// Reshape fixes B == 1). x [B,T,4] viewed [1,6,2,2] (r1), back [1,6,4], added to x, and that sum
// viewed [1,6,4] (r2): 6*B == 6.
func TestImpliedAsGiven(t *testing.T) {
	b := newModel(17).input("x", "B", "T", 4).
		ints("p1", nil, 1, 6, 2, 2).ints("p2", nil, 1, 6, 4).
		node("r1", "Reshape", []string{"x", "p1"}, []string{"y"}).
		node("back", "Reshape", []string{"y", "p2"}, []string{"z"}).
		node("add", "Add", []string{"x", "z"}, []string{"s"}).
		node("r2", "Reshape", []string{"s", "p2"}, []string{"out"}).
		output("out")
	r, err := Infer(decodeGraph(t, b.encode()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Constraints() {
		got = append(got, c.Pred.String()+" @ "+c.Origin.Node)
	}
	if want := []string{"B == 1 @ r2", "T == 6 @ r2"}; !slices.Equal(got, want) {
		t.Errorf("constraints %q, want %q", got, want)
	}
	first := func(b map[string]int64) string {
		node, seq := "", -1
		check := func(holds bool, n string, s int) {
			if !holds && (seq < 0 || s < seq) {
				node, seq = n, s
			}
		}
		for _, c := range r.Constraints() {
			ok, err := c.Pred.Eval(b)
			check(ok || err != nil, c.Origin.Node, c.Origin.Seq)
		}
		for _, im := range r.Implied() {
			ok, err := im.Pred.Eval(b)
			check(ok || err != nil, im.Origin.Node, im.Origin.Seq)
		}
		return node
	}
	for _, tc := range []struct {
		b    map[string]int64
		want string // where onnxruntime stops
	}{
		{map[string]int64{"B": 2, "T": 6}, "r1"}, // 48 elements viewed [1,6,2,2]
		{map[string]int64{"B": 1, "T": 3}, "r1"},
		{map[string]int64{"B": 6, "T": 1}, "r2"}, // r1 and add run: [6,1,4] + [1,6,4] is [6,6,4]
		{map[string]int64{"B": 1, "T": 6}, ""},
	} {
		if got := first(tc.b); got != tc.want {
			t.Errorf("at %v the first condition broken is at %q, want %q", tc.b, got, tc.want)
		}
	}
	var given []string
	for _, im := range r.Implied() {
		given = append(given, im.Pred.String()+" @ "+im.Origin.Node)
	}
	if !slices.Contains(given, "B*T == 6 @ r1") {
		t.Errorf("implied %q, want B*T == 6 at r1 among them", given)
	}
}

// TestRewrittenAtLaterNode: a condition that a substitution rewrote is at whichever of its two
// nodes a run meets later. trial5's mha_cross_b2t5s7 (batch-first attention exported at B=2, T=5,
// S=7, its inputs renamed): the query's Reshape states B*T == 10, the key padding mask's Reshape,
// after it in the file, fixes B == 2, so the minimal list reads T == 5; onnxruntime runs the mask's
// Reshape first, and at B=2, T=6 stops at the query's. Here ra views x [B,T,4] as [6,4] and rb views
// k [B,7] as [2,7]; onnxruntime runs rb first (of two outputs, the one computed later in the file).
func TestRewrittenAtLaterNode(t *testing.T) {
	b := newModel(17).input("x", "B", "T", 4).input("k", "B", 7).
		ints("pa", nil, 6, 4).ints("pb", nil, 2, 7).
		node("ra", "Reshape", []string{"x", "pa"}, []string{"ya"}).
		node("rb", "Reshape", []string{"k", "pb"}, []string{"yb"}).
		output("ya").output("yb")
	r, err := Infer(decodeGraph(t, b.encode()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ia, _ := r.NodeIndex("ra")
	ib, _ := r.NodeIndex("rb")
	if r.RunSeq(ib) > r.RunSeq(ia) {
		t.Fatalf("RunSeq: ra %d, rb %d; the test needs rb first", r.RunSeq(ia), r.RunSeq(ib))
	}
	var got []string
	for _, c := range r.Constraints() {
		got = append(got, c.Pred.String()+" @ "+c.Origin.Node)
	}
	if want := []string{"B == 2 @ rb", "T == 3 @ ra"}; !slices.Equal(got, want) {
		t.Errorf("constraints %q, want %q", got, want)
	}
	first := func(b map[string]int64) string {
		node, seq := "", -1
		for _, c := range r.Constraints() {
			if ok, err := c.Pred.Eval(b); !ok && err == nil && (seq < 0 || c.Origin.Seq < seq) {
				node, seq = c.Origin.Node, c.Origin.Seq
			}
		}
		for _, im := range r.Implied() {
			if ok, err := im.Pred.Eval(b); !ok && err == nil && (seq < 0 || im.Origin.Seq < seq) {
				node, seq = im.Origin.Node, im.Origin.Seq
			}
		}
		return node
	}
	for _, tc := range []struct {
		b    map[string]int64
		want string // where onnxruntime stops
	}{
		{map[string]int64{"B": 2, "T": 4}, "ra"},
		{map[string]int64{"B": 1, "T": 3}, "rb"},
		{map[string]int64{"B": 3, "T": 2}, "rb"},
		{map[string]int64{"B": 2, "T": 3}, ""},
	} {
		if got := first(tc.b); got != tc.want {
			t.Errorf("at %v the first condition broken is at %q, want %q", tc.b, got, tc.want)
		}
	}
}
