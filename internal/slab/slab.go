// Package slab hands out slices cut from blocks of elements, so that a decoder or an inference
// that makes many small lists allocates one block per many of them rather than one per list.
package slab

import "unsafe"

// Blocks grow from minBytes (and minElems elements) to maxBytes.
const (
	minBytes = 256
	maxBytes = 64 << 10
	minElems = 16
)

// A Slab hands out slices cut from blocks of T. Each slice it gives has no room beyond what was
// asked for, so that an append to it moves it instead of writing into its neighbour. Blocks double
// from 256 bytes (and 16 elements) to 64 KiB; a request that the current block cannot give, of
// more than a quarter of the largest block, gets a slice of its own. The elements live as long as
// any slice of their block. The zero Slab is ready to use; a Slab is not safe for concurrent use.
type Slab[T any] struct {
	free []T // what is left of the current block
	next int // the size of the next block, in elements
}

// Make returns n zeroed elements, of length and capacity n (an empty, non-nil slice for n 0).
func (s *Slab[T]) Make(n int) []T {
	switch {
	case n == 0:
		return []T{}
	case n > len(s.free):
		var zero T
		size := max(int(unsafe.Sizeof(zero)), 1)
		if n > maxBytes/4/size {
			return make([]T, n)
		}
		s.next = min(max(2*s.next, minBytes/size, minElems, n), maxBytes/size)
		s.free = make([]T, s.next)
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// Grow returns v, when it has room for n more elements, or a copy of v with room for exactly n
// more (nil for nil v and n 0), as slices.Grow does.
func (s *Slab[T]) Grow(v []T, n int) []T {
	if cap(v)-len(v) >= n {
		return v
	}
	return s.moved(v, n)
}

// moved is Grow when v has no room for n more: kept out of Grow, so that Grow inlines.
//
//go:noinline
func (s *Slab[T]) moved(v []T, n int) []T {
	w := s.Make(len(v) + n)[:len(v)]
	copy(w, v)
	return w
}

// Clone returns a copy of v, of capacity len(v); nil for none.
func (s *Slab[T]) Clone(v []T) []T {
	if len(v) == 0 {
		return nil
	}
	w := s.Make(len(v))
	copy(w, v)
	return w
}

// String returns a copy of b as a string cut from s: a block's bytes are never written again once
// a string holds them, which keeps the strings immutable. A string longer than the block has left
// starts a new block (of the next size, or of its own length if more): String inlines, as a
// decoder calls it for every name.
func String(s *Slab[byte], b []byte) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	if n > len(s.free) {
		s.next = min(max(2*s.next, minBytes), maxBytes)
		s.free = make([]byte, max(n, s.next))
	}
	c := s.free[:n:n]
	s.free = s.free[n:]
	copy(c, b)
	return unsafe.String(&c[0], n)
}
