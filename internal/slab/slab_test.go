package slab

import "testing"

// TestMake checks that the slices Make gives are zeroed, of the length and capacity asked, and
// disjoint: writing one, or appending to it, leaves the others as they were.
func TestMake(t *testing.T) {
	var s Slab[int64]
	var got [][]int64
	for _, n := range []int{1, 3, 0, 16, 7, 2000, 1, 5000} {
		v := s.Make(n)
		if len(v) != n || cap(v) != n || v == nil {
			t.Fatalf("Make(%d): len %d, cap %d, nil %v", n, len(v), cap(v), v == nil)
		}
		for i := range v {
			if v[i] != 0 {
				t.Fatalf("Make(%d)[%d] = %d, want 0", n, i, v[i])
			}
			v[i] = int64(len(got))
		}
		got = append(got, v)
		_ = append(v, -1) // moves v: no neighbour is written
	}
	for k, v := range got {
		for i, x := range v {
			if x != int64(k) {
				t.Fatalf("slice %d [%d] = %d, want %d", k, i, x, k)
			}
		}
	}
}

// TestBlocks checks the sizes of the blocks: doubling from 256 bytes to 64 KiB, at least 16
// elements, and a request over a quarter of the largest and more than the block has left a slice
// of its own, which leaves the block in use.
func TestBlocks(t *testing.T) {
	var s Slab[int64] // 8 bytes: blocks of 32 to 8192
	for _, c := range []struct{ n, next, free int }{
		{1, 32, 31},
		{31, 32, 0},
		{1, 64, 63},
		{100, 128, 28},    // a block of twice the last, or of what is asked if more
		{3000, 128, 28},   // over a quarter of 8192: its own slice
		{20, 128, 8},      // the block still in use
		{2048, 2048, 0},   // a quarter: a block, of at least what is asked
		{1, 4096, 4095},   // twice the last
		{4095, 4096, 0},   // ...
		{1, 8192, 8191},   // the largest
		{8000, 8192, 191}, // it fits
		{3000, 8192, 191}, // over a quarter: its own
		{192, 8192, 8000}, // no larger block
	} {
		s.Make(c.n)
		if s.next != c.next || len(s.free) != c.free {
			t.Fatalf("after Make(%d): next block %d, %d free; want %d, %d", c.n, s.next, len(s.free), c.next, c.free)
		}
	}
	var big Slab[[100]byte] // 256 bytes hold 2: blocks of 16 to 655
	for _, c := range []struct{ n, next, free int }{{1, 16, 15}, {16, 32, 16}, {100, 100, 0}, {1, 200, 199}, {1, 200, 198}} {
		big.Make(c.n)
		if big.next != c.next || len(big.free) != c.free {
			t.Fatalf("after Make(%d) of [100]byte: next block %d, %d free; want %d, %d", c.n, big.next, len(big.free), c.next, c.free)
		}
	}
}

// TestGrow checks Grow and Clone: v itself when it has room, a copy with room for exactly n more
// otherwise, and nil for none.
func TestGrow(t *testing.T) {
	var s Slab[string]
	if v := s.Grow(nil, 0); v != nil {
		t.Errorf("Grow(nil, 0) = %#v, want nil", v)
	}
	if v := s.Clone(nil); v != nil {
		t.Errorf("Clone(nil) = %#v, want nil", v)
	}
	v := s.Grow(nil, 2)
	if len(v) != 0 || cap(v) != 2 {
		t.Fatalf("Grow(nil, 2): len %d, cap %d, want 0, 2", len(v), cap(v))
	}
	v = append(v, "a", "b")
	w := s.Grow(v, 3)
	if len(w) != 2 || cap(w) != 5 || w[0] != "a" || w[1] != "b" || &w[0] == &v[0] {
		t.Fatalf("Grow([a b], 3) = %q, cap %d: want a copy [a b] of cap 5", w, cap(w))
	}
	if x := s.Grow(w, 3); &x[0] != &w[0] {
		t.Errorf("Grow of a slice with room moved it")
	}
	c := s.Clone([]string{"x", "y", "z"})
	if len(c) != 3 || cap(c) != 3 || c[0] != "x" || c[2] != "z" {
		t.Errorf("Clone([x y z]) = %q, cap %d", c, cap(c))
	}
}

// TestString checks that String copies: the bytes it was given change, the string does not.
func TestString(t *testing.T) {
	var s Slab[byte]
	if got := String(&s, nil); got != "" {
		t.Errorf("String(nil) = %q", got)
	}
	b := []byte("layer")
	a := String(&s, b)
	b[0] = 'p'
	c := String(&s, b)
	if a != "layer" || c != "payer" {
		t.Errorf("String = %q, %q; want layer, payer", a, c)
	}
}
