package graph

// slab hands out pieces of blocks of T, so that inference allocates a block per many nodes rather
// than a slice or an Info per node: the Infos of a result, and the lists and dims they hold, live
// as long as the result does. Blocks grow from 16 to 1024 elements, so that a small graph
// allocates little.
type slab[T any] struct {
	block []T
	next  int // the size of the next block
}

// maxSlabBlock is the size of the largest block; a request larger than a quarter of it gets a
// slice of its own.
const maxSlabBlock = 1024

// take returns n zeroed elements, of length and capacity n: an append to them moves them.
func (s *slab[T]) take(n int) []T {
	switch {
	case n == 0:
		return []T{}
	case n > maxSlabBlock/4:
		return make([]T, n)
	case len(s.block) < n:
		s.next = min(max(2*s.next, 16, n), maxSlabBlock)
		s.block = make([]T, s.next)
	}
	out := s.block[:n:n]
	s.block = s.block[n:]
	return out
}

// one returns a pointer to one zeroed element.
func (s *slab[T]) one() *T { return &s.take(1)[0] }
