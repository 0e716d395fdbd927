package sym

import (
	"slices"
)

// affineEvals bounds the evaluations affineSet makes.
const affineEvals = 1 << 16

// affineSet returns the set of the values v of the symbol x in [lo, hi] at which p, a condition of
// x alone, holds, computed exactly where each comparison of p compares an expression e quasi-affine
// in x (quasiAffine: e(v+P) = e(v)+k at every v, P the common period): along each residue,
// v = v0+P*u, a comparison compares e(v0)+k*u with zero, whose sign changes at one u at most
// (affinePoints), or quasi-polynomial in x, whose sign changes at most its degree times along a
// residue between the points where its minima and maxima change (polyPoints), so that p keeps its
// value between those points, however far they are, and one evaluation of each stretch decides it:
// (T+55)//72 >= (T+1)//18-536870911 is T <= 12884901892, past what a guess evaluates;
// min(T*T+T-3,max(0,T*T+T-4)) >= (min(T*T+T-3,max(0,T*T+T-4))+1)//2 is T >= 2. A set whose periodic
// part ends has its last stretch's end for hi (T in 71..12884901844 && T % 72 in {0..4, 71}). ok is
// false for another p, for a set that ends within what a guess evaluates, not empty (left to
// guessSet, which lists its members), for lo < 0 (a size is not negative, and from 0 on no
// difference of two values passes int64), and where the set takes more than affineEvals evaluations
// or more than maxSpans spans below its periodic part.
func affineSet(p Pred, x *atom, lo, hi int64) (iset, bool) {
	if lo < 0 || hi < lo {
		return iset{}, false
	}
	bs, per, ok := affinePoints(p, x, lo)
	if !ok {
		bs, per, ok = polyPoints(p, x, lo)
	}
	if !ok {
		return iset{}, false
	}
	vals := map[string]int64{}
	value := func(name string) (int64, bool) { v, ok := vals[name]; return v, ok }
	// The value of p at each residue of each stretch [bs[j], bs[j+1]).
	end := func(j int) int64 {
		if j+1 < len(bs) {
			return bs[j+1] - 1
		}
		return Inf
	}
	// size returns the number of values of stretch j, per where it has more.
	size := func(j int) int64 {
		if end(j) >= lastOf(bs[j], per) {
			return per
		}
		return end(j) - bs[j] + 1
	}
	pats := make([][]bool, len(bs))
	evals := int64(0)
	for j, b := range bs {
		n := size(j)
		if evals += n; evals > affineEvals {
			return iset{}, false
		}
		pats[j] = make([]bool, per)
		for v := b; v-b < n; v++ {
			vals[x.name] = v
			pats[j][pyMod(v, per)] = p.holds(value)
		}
	}
	// A set that ends (T in 71..12884901844 && T % 72 in {0..4, 71}) has the end of the last
	// stretch that holds anywhere for its hi, and repeats in the last stretch of all residues
	// before that, up to hi, where the stretches between agree with it.
	top := len(bs) - 1
	if !slices.Contains(pats[top], true) {
		for top > 0 && !slices.Contains(pats[top-1], true) {
			top--
		}
		if top == 0 {
			return iset{lo: lo, hi: hi, from: Inf, mod: 1}, true
		}
		if hi = min(hi, bs[top]-1); hi-lo < guessLimit {
			return iset{}, false // within what a guess evaluates, which writes it as guessSet does
		}
		top--
		q := top
		for q > 0 && size(q) < per {
			q--
		}
		for k := q + 1; k <= top; k++ {
			for v := bs[k]; v-bs[k] < size(k); v++ {
				if pats[k][pyMod(v, per)] != pats[q][pyMod(v, per)] {
					return iset{}, false
				}
			}
		}
		top = q
	}
	last := pats[top]
	mod := leastPeriod(last)
	// agrees reports whether p holds at v, within stretch j, as the last stretch has it.
	agrees := func(j int, v int64) bool { return pats[j][pyMod(v, per)] == last[pyMod(v, per)] }
	// from: back over the stretches that agree with the last, then value by value.
	j := top
	for j > 0 {
		n := size(j - 1)
		all := true
		for v := bs[j-1]; v-bs[j-1] < n && all; v++ {
			all = agrees(j-1, v)
		}
		if !all {
			break
		}
		j--
	}
	from := bs[j]
	for j > 0 && from > bs[j-1] && agrees(j-1, from-1) {
		from--
	}
	// The members below from, a span for each stretch of all or listed value by value.
	var below []span
	add := func(r span) {
		if r.lo > hi {
			return
		}
		r.hi = min(r.hi, hi)
		if n := len(below); n > 0 && below[n-1].hi+1 == r.lo {
			below[n-1].hi = r.hi
			return
		}
		below = append(below, r)
	}
	for k := range j {
		e := min(end(k), from-1)
		n := min(per, e-bs[k]+1)
		in, out := true, true
		for v := bs[k]; v-bs[k] < n; v++ {
			h := pats[k][pyMod(v, per)]
			in, out = in && h, out && !h
		}
		switch {
		case in:
			add(span{bs[k], e})
		case out:
		case e-bs[k] >= affineEvals:
			return iset{}, false
		default:
			for v := bs[k]; v <= e; v++ {
				if pats[k][pyMod(v, per)] {
					add(span{v, v})
				}
			}
		}
		if len(below) > maxSpans {
			return iset{}, false
		}
	}
	s := iset{lo: lo, hi: hi, below: below, from: from, mod: mod}
	for r := range mod {
		if last[r] {
			s.res = append(s.res, r)
		}
	}
	if from > hi {
		s.from, s.mod, s.res = Inf, 1, nil
	}
	return s, true
}

// affinePoints returns, for p, a condition of the symbol x alone whose comparisons are
// quasi-affine in x, from lo on, their common period per and the points bs, lo the first, sorted,
// from each of which p keeps its value along each residue modulo per up to the next: along a
// residue, v = v0+per*u, a comparison compares e(v0)+inc*u with zero, whose sign changes at one u
// at most. ok is false for another p.
func affinePoints(p Pred, x *atom, lo int64) (bs []int64, per int64, ok bool) {
	cmps, per, ok := quasiAffine(p, x.name)
	if !ok {
		return nil, 0, false
	}
	vals := map[string]int64{}
	value := func(name string) (int64, bool) { v, ok := vals[name]; return v, ok }
	// The points from which p may change its value along some residue, lo the first. Values
	// past hi are evaluated as any other: the set is clipped to hi at the end.
	bs = []int64{lo}
	for i := range per {
		if i > Inf-lo {
			break
		}
		v0 := lo + i
		umax := (Inf - v0) / per
		vals[x.name] = v0
		for _, c := range cmps {
			if c.inc == 0 {
				continue
			}
			e0, st := c.e.eval64(value)
			if st != done {
				return nil, 0, false
			}
			// e0 + inc*u == 0 at u = -e0.num/(e0.den*inc).
			num, ok1 := mul64(e0.num, -1)
			den, ok2 := mul64(e0.den, c.inc)
			r, ok3 := makeRat(num, den)
			if !ok1 || !ok2 || !ok3 {
				return nil, 0, false
			}
			f := floorDiv(r.num, r.den)
			for _, u := range []int64{f, f + 1} {
				if u > 0 && u <= umax {
					bs = append(bs, v0+per*u)
				}
			}
		}
	}
	slices.Sort(bs)
	return slices.Compact(bs), per, true
}
