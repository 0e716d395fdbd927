package sym

// Sets of integers that a symbol may take: the values below a point, listed as ranges, and from it
// on those of some remainders modulo a period. They describe what a condition of one symbol says
// (H % 8 == 0, H <= 4 || H % 32 in {0, 29, 30, 31}, H in 217..224), found by evaluating the
// condition and proven by the prover (the description and the condition hold at the same values).

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/errcode"
)

// iset is a set of integers within [lo, hi] (hi may be Inf): the members below from, as sorted
// disjoint spans, and from from on those v whose remainder v % mod is in res. from > hi when the
// set is finite.
type iset struct {
	lo, hi int64
	below  []span
	from   int64
	mod    int64
	res    []int64 // sorted, in [0, mod)
}

// has reports whether v is in s.
func (s *iset) has(v int64) bool {
	switch {
	case v < s.lo || v > s.hi:
		return false
	case v < s.from:
		return slices.ContainsFunc(s.below, func(r span) bool { return r.lo <= v && v <= r.hi })
	}
	_, ok := slices.BinarySearch(s.res, pyMod(v, s.mod))
	return ok
}

// empty reports whether s has no member.
func (s *iset) empty() bool { return len(s.below) == 0 && (s.from > s.hi || len(s.res) == 0) }

// finite reports whether s has finitely many members.
func (s *iset) finite() bool { return s.hi != Inf || len(s.res) == 0 }

// least returns the least member of s; ok is false for the empty set.
func (s *iset) least() (int64, bool) {
	if len(s.below) > 0 {
		return s.below[0].lo, true
	}
	if len(s.res) == 0 {
		return 0, false
	}
	return s.periodicStart()
}

// periodicStart returns the least member of s from from on, the first of its periodic part: one
// within a period of from and at most hi; ok is false where there is none.
func (s *iset) periodicStart() (int64, bool) {
	for k := int64(0); k < s.mod && s.from <= s.hi-k; k++ { // s.from+k, kept within int64
		if v := s.from + k; s.has(v) {
			return v, true
		}
	}
	return 0, false
}

// greatest returns the greatest member of s; ok is false for the empty set and for one with no
// greatest member.
func (s *iset) greatest() (int64, bool) {
	if !s.finite() {
		return 0, false
	}
	for k := int64(0); k < s.mod && len(s.res) > 0 && s.hi-k >= s.from; k++ {
		if v := s.hi - k; s.has(v) {
			return v, true
		}
	}
	if len(s.below) == 0 {
		return 0, false
	}
	return s.below[len(s.below)-1].hi, true
}

// one returns the value of a set of one member.
func (s *iset) one() (int64, bool) {
	v, ok := s.least()
	if !ok || !s.finite() {
		return 0, false
	}
	if len(s.below) == 1 && s.below[0].lo == s.below[0].hi && (s.from > s.hi || len(s.res) == 0) {
		return v, true
	}
	return 0, false
}

// setFromBits returns the set whose membership at lo+i is bits[i], for i < len(bits), and from
// there on repeats with period mod (the guess of guessSet): the least from at which bits repeat
// with that period to the end, the least period that describes them, the least from again.
// bits must cover hi when hi < lo+len(bits).
func setFromBits(lo, hi int64, bits []bool, mod int64) iset {
	n := int64(len(bits))
	s := iset{lo: lo, hi: hi, mod: 1, from: Inf}
	if hi != Inf && hi-lo < n {
		s.below = spansOf(lo, bits[:hi-lo+1])
		return s
	}
	if mod < 1 || mod > n/2 {
		mod = 1
	}
	// The least f from which bits repeat with period mod to the end of the window.
	f := n - mod
	for f > 0 && bits[f-1] == bits[f-1+mod] {
		f--
	}
	res := make([]bool, mod)
	for i := f; i < f+mod; i++ {
		res[pyMod(lo+i, mod)] = bits[i]
	}
	mod = leastPeriod(res)
	res = res[:mod]
	for f > 0 && bits[f-1] == res[pyMod(lo+f-1, mod)] {
		f--
	}
	s.from, s.mod = lo+f, mod
	for r, in := range res {
		if in {
			s.res = append(s.res, int64(r))
		}
	}
	s.below = spansOf(lo, bits[:f])
	return s
}

// leastPeriod returns the least period of res, membership by residue over its length: the least
// d dividing it with res[r] == res[r%d] at every r.
func leastPeriod(res []bool) int64 {
	n := int64(len(res))
	for d := int64(1); d < n; d++ {
		if n%d != 0 {
			continue
		}
		same := true
		for r := range n {
			same = same && res[r] == res[r%d]
		}
		if same {
			return d
		}
	}
	return n
}

// spansOf returns the members of bits (bits[i] for lo+i) as spans.
func spansOf(lo int64, bits []bool) []span {
	var out []span
	for i := 0; i < len(bits); i++ {
		if !bits[i] {
			continue
		}
		j := i
		for j+1 < len(bits) && bits[j+1] {
			j++
		}
		out = append(out, span{lo + int64(i), lo + int64(j)})
		i = j
	}
	return out
}

// maxSpans bounds the spans of values a readable form lists. A set with more is not written: a
// thousand spans read worse than the condition they came from, and proving the form equal to it
// costs time quadratic in their number.
const maxSpans = 8

// preds returns predicates on x that hold at the members of s and at none of the other values of
// x in [s.lo, s.hi]: the members below from or'ed with the periodic part from from on; and the
// periodic rule everywhere, or'ed with the members below from that it leaves out, and'ed with the
// exclusion of the values below from that it takes in (H <= 4 || H % 32 in {0, 29, 30, 31};
// H % 8 == 0; H >= 25; H in 217..224). None when s cannot be written so, and only the first
// when the second needs more than maxSpans spans or from is past 65536 values from lo (T <=
// 12884901892).
func (s *iset) preds(x Expr) []Pred {
	periodic := False()
	if s.from <= s.hi && len(s.res) > 0 {
		var ok bool
		if periodic, ok = s.rule(x); !ok {
			return nil
		}
	}
	top := s.from
	if s.hi != Inf {
		top = min(top, s.hi+1)
	}
	if len(s.below) > maxSpans {
		return nil
	}
	// A: the spans below from, or the periodic rule from from on (up to hi).
	if s.hi != Inf && len(s.res) > 0 && s.from <= s.hi {
		periodic = And(periodic, Le(x, Int(s.hi)))
	}
	// The bound at the least member from from on, which reads as the least size (H >= 8 && H % 8
	// <= 1, not H >= 2): the values between are no members.
	start := s.from
	if v, ok := s.periodicStart(); ok {
		start = v
	}
	ors := []Pred{And(Ge(x, Int(start)), periodic)}
	for _, r := range s.below {
		ors = append(ors, rangePred(x, r))
	}
	out := []Pred{Or(ors...)}
	if periodic.IsFalse() || s.from == s.lo || top-s.lo > 1<<16 {
		return out
	}
	// B: the periodic rule, corrected below from.
	var plus, minus []bool
	for v := s.lo; v < top; v++ {
		member := s.has(v)
		in := periodic.IsTrue()
		if !in {
			_, in = slices.BinarySearch(s.res, pyMod(v, s.mod))
		}
		plus = append(plus, member && !in)
		minus = append(minus, !member && in)
	}
	extra, missing := spansOf(s.lo, plus), spansOf(s.lo, minus)
	if len(extra)+len(missing) > maxSpans {
		return out
	}
	ors = []Pred{periodic}
	for _, r := range extra {
		ors = append(ors, rangePred(x, r))
	}
	ands := []Pred{Or(ors...)}
	for _, r := range missing {
		ands = append(ands, Not(rangePred(x, r)))
	}
	return append(out, And(ands...))
}

// rule returns the periodic rule of s on x: x % mod in res, true for a period of 1.
func (s *iset) rule(x Expr) (Pred, bool) {
	if s.mod == 1 {
		return True(), true
	}
	m, ok := Mod(x, Int(s.mod))
	if !ok {
		return Pred{}, false
	}
	ps := make([]Pred, len(s.res))
	for i, r := range s.res {
		ps[i] = Eq(m, Int(r))
	}
	return Or(ps...), true
}

// factored returns predicates on x that hold at the members of s and at none of the other values
// of x in [s.lo, s.hi], as its periodic rule and'ed with ranges, where every member keeps the rule:
// H % 3 == 0 && (H in 363..648 || H >= 795). A value the rule leaves out is in a range where the
// values next to it, on both sides where there are, are members, so that the ranges are the
// fewest. None for a set of no period, one whose periodic part starts more than 65536 values
// past lo, or a member that breaks the rule.
func (s *iset) factored(x Expr) []Pred {
	if s.mod <= 1 || len(s.res) == 0 || s.from > s.hi || s.from-s.lo > 1<<16 {
		return nil
	}
	n := s.from - s.lo + 2*s.mod
	if s.hi != Inf {
		n = min(n, s.hi-s.lo+1)
	}
	bits, rule := make([]bool, n), make([]bool, n)
	for i := range n {
		v := s.lo + i
		_, rule[i] = slices.BinarySearch(s.res, pyMod(v, s.mod))
		if bits[i] = s.has(v); bits[i] && !rule[i] {
			return nil
		}
	}
	for i := int64(0); i < n; {
		if rule[i] {
			i++
			continue
		}
		j := i
		for j < n && !rule[j] {
			j++
		}
		fill := (i > 0 || j < n) && (i == 0 || bits[i-1]) && (j == n || bits[j])
		for k := i; k < j; k++ {
			bits[k] = fill
		}
		i = j
	}
	periodic, ok := s.rule(x)
	if !ok {
		return nil
	}
	ranges := setFromBits(s.lo, s.hi, bits, 1)
	var out []Pred
	for _, c := range ranges.preds(x) {
		out = append(out, And(periodic, c))
	}
	return out
}

// predSize measures how hard p is to read: the sizes of the expressions it compares, a floor
// division or remainder of a sum counting more than a remainder of a symbol.
func predSize(p Pred) int {
	switch p.kind() {
	case pConst:
		return 0
	case pCmp:
		n := 1 + p.n.e.Size() + p.n.rhs.Size()
		walkAtoms(p, func(a *atom) {
			if a.kind == floorAtom || a.kind == modAtom && len(a.num.t) > 1 {
				n += 4
			}
		})
		return n
	}
	// Comparisons of one expression that print as one membership (T % 12 in {3..8}, H in
	// 217..224) read as one comparison and its members (values and ranges).
	n := 0
	args := p.n.args
	for i := 0; i < len(args); {
		if l, j, ok := sameAtomRun(args, i); ok {
			if text, k := appendMembership(nil, l, args[i:j], p.kind() == pOr); k > 1 {
				n += predSize(args[i]) + strings.Count(string(text), ", ") + 1
				i += k
				continue
			}
		}
		n += predSize(args[i])
		i++
	}
	return n
}

// simpler reports whether p reads more simply than q: smaller (predSize), then with fewer
// floor divisions, minima and maxima (nested), then shorter: W % 72 in {0..12, 61..71} reads
// more simply than (W+11)//24 % 3 == 0, which is as large and shorter.
func simpler(p, q Pred) bool {
	a, b := predSize(p), predSize(q)
	if a != b {
		return a < b
	}
	if a, b := nested(p), nested(q); a != b {
		return a < b
	}
	return len(p.String()) < len(q.String())
}

// nested returns how many floor divisions, minima and maxima p holds.
func nested(p Pred) int {
	n := 0
	walkAtoms(p, func(a *atom) {
		if a.kind == floorAtom || a.kind == minAtom || a.kind == maxAtom {
			n++
		}
	})
	return n
}

// rangePred returns lo <= x <= hi.
func rangePred(x Expr, r span) Pred {
	if r.lo == r.hi {
		return Eq(x, Int(r.lo))
	}
	return And(Ge(x, Int(r.lo)), Le(x, Int(r.hi)))
}

// text describes s for a reader, after the symbol name: "1 only", "13..16", "1, 2, 4, 7", ">= 7",
// "multiples of 32 from 32", "1..4, and from 29 those with H % 32 in {0, 29, 30, 31}". least is
// the symbol's own lower bound, where a reader takes the values of a remainder to start.
func (s *iset) text(name string, least int64) string {
	var parts []string
	for _, r := range s.below {
		parts = append(parts, spanText(r))
	}
	switch {
	case s.empty():
		return "none"
	case s.finite() && (len(s.res) == 0 || s.from > s.hi):
		if v, ok := s.one(); ok {
			return strconv.FormatInt(v, 10) + " only"
		}
		return strings.Join(parts, ", ")
	}
	// The periodic part, up to hi: 1..16777216 for a bound past the values tried.
	first, ok := s.periodicStart()
	if !ok {
		first = s.from
	}
	var tail string
	switch {
	case s.mod == 1 && s.hi != Inf:
		tail = spanText(span{first, s.hi})
	case s.mod == 1:
		tail = ">= " + strconv.FormatInt(first, 10)
	case len(s.res) == 1 && s.res[0] == 0:
		tail = "multiples of " + strconv.FormatInt(s.mod, 10) + " from " + strconv.FormatInt(first, 10)
	default:
		b := append(appendName(nil, name), " % "...)
		b = strconv.AppendInt(b, s.mod, 10)
		if len(s.res) == 1 {
			b = strconv.AppendInt(append(b, " == "...), s.res[0], 10)
		} else {
			b = appendValues(append(b, " in "...), s.res)
		}
		tail = "those with " + string(b)
		if len(parts) > 0 || s.before(first, least) {
			tail = "from " + strconv.FormatInt(first, 10) + " " + tail
		}
	}
	if s.mod > 1 && s.hi != Inf {
		tail += " up to " + strconv.FormatInt(s.hi, 10)
	}
	if len(parts) == 0 {
		return tail
	}
	return strings.Join(parts, ", ") + ", and " + tail
}

// before reports whether a value from least up to first, first excluded, has a remainder of s:
// a value the text "those with ..." would admit, unless it says from where.
func (s *iset) before(first, least int64) bool {
	for v := max(least, first-s.mod); v < first; v++ {
		if _, ok := slices.BinarySearch(s.res, pyMod(v, s.mod)); ok {
			return true
		}
	}
	return false
}

func spanText(r span) string {
	switch r.hi - r.lo {
	case 0:
		return strconv.FormatInt(r.lo, 10)
	case 1:
		return strconv.FormatInt(r.lo, 10) + ", " + strconv.FormatInt(r.hi, 10)
	}
	return strconv.FormatInt(r.lo, 10) + ".." + strconv.FormatInt(r.hi, 10)
}

// guessLimit bounds the values a guess evaluates.
const guessLimit = 1 << 13

// guessSet returns the set of the values v of the symbol x in [lo, hi] at which p holds, guessed
// from its values at the first of them: the exact set when they are all evaluated, else one that
// repeats with the period of p's floor divisions and remainders from where the values evaluated
// do, or with the least period of the values where their atoms hide it (periodOf: (T//2)*min(T-
// T//2-1,1) % 2 == 0 repeats with 4). checked is the last value evaluated. A guess is a guess:
// the caller proves one.
func guessSet(p Pred, x *atom, lo, hi int64) (s iset, checked int64, ok bool) {
	bits, m, ok := guessBits(p, x, lo, hi)
	if !ok {
		return iset{}, 0, false
	}
	return setFromBits(lo, hi, bits, periodOf(bits, m)), lo + int64(len(bits)) - 1, true
}

// guessBits returns whether p holds at each of the values of x that guessSet evaluates, from lo,
// and the period of p's floor divisions and remainders of x (1 where it has none it can state).
func guessBits(p Pred, x *atom, lo, hi int64) (bits []bool, m int64, ok bool) {
	if lo == NegInf {
		return nil, 0, false
	}
	m = atomsPeriod(p, x.name)
	n := int64(guessLimit)
	if hi != Inf && hi-lo+1 <= n {
		n = hi - lo + 1
	}
	n = lastOf(lo, max(n, min(8*m, 1<<16))) - lo + 1
	bits, ok = valuesHold(p, x, lo, n)
	return bits, m, ok
}

// valuesHold returns whether p holds at each of the n values of x from lo; ok is false where a value
// passes int64 (not that p fails there).
func valuesHold(p Pred, x *atom, lo, n int64) (bits []bool, ok bool) {
	bits = make([]bool, n)
	vals := map[string]int64{}
	value := func(name string) (int64, bool) { v, ok := vals[name]; return v, ok }
	for i := range n {
		vals[x.name] = lo + i
		v, err := p.eval(value)
		if err != nil && !errors.Is(err, errcode.ErrNotDivisible) && !errors.Is(err, errcode.ErrInvalidShape) {
			return nil, false
		}
		bits[i] = err == nil && v
	}
	return bits, true
}

// atomsPeriod returns the common period in the symbol x of the floor divisions and remainders of
// p that mention it (atomPeriod), of those whose period it can state; 1 when none, or when it is
// past maxSplit.
func atomsPeriod(p Pred, x string) int64 {
	m := int64(1)
	walkAtoms(p, func(a *atom) {
		if (a.kind == floorAtom || a.kind == modAtom) && a.num.Mentions(x) {
			if q, _, ok := atomPeriod(a, x); ok {
				m = lcm(m, q)
			}
		}
	})
	if m > maxSplit {
		return 1
	}
	return m
}

// periodicSet returns the set of the values v of the symbol x in [lo, hi] at which p, a condition
// of x alone, holds, proven by evaluation where each comparison of p compares an expression e
// quasi-affine in x (see period: e(v+m) = e(v)+k at every v, the floor divisions and remainders
// by integers and the exact quotients by integers, H/3, that such expressions hold): from a point
// on, along each residue of the common period P, every comparison has a value it keeps (k == 0:
// the same value, defined or not, at v and v+P; k > 0: e positive, and positive from there on;
// k < 0: negative), so that p repeats with period P from the last such point X, and its values
// up to X+P are all of them. ok is false for another p, and where X+P is past the values a guess
// evaluates (guessLimit): H <= 16777216 is left to the prover. evals counts the evaluations it
// made, whatever it found: the work a caller pays for.
func periodicSet(p Pred, x *atom, lo, hi int64) (s iset, evals int64, ok bool) {
	if lo == NegInf {
		return iset{}, 0, false
	}
	cmps, per, ok := quasiAffine(p, x.name)
	if !ok {
		return iset{}, 0, false
	}
	// The first value of each residue from which each comparison keeps its value.
	n := int64(guessLimit)
	if hi != Inf && hi-lo+1 <= n {
		n = hi - lo + 1
	}
	n = lastOf(lo, n) - lo + 1
	vals := map[string]int64{}
	value := func(name string) (int64, bool) { v, ok := vals[name]; return v, ok }
	last := lo // X
	for _, c := range cmps {
		for r := range min(per, n) {
			kept := false
			for v := lo + r; v-lo < n; v += per {
				if c.inc == 0 {
					kept = true
				} else {
					vals[x.name] = v
					evals++
					e, st := c.e.eval64(value)
					if st != done {
						return iset{}, evals, false
					}
					kept = c.inc > 0 && e.num > 0 || c.inc < 0 && e.num < 0
				}
				if kept {
					last = max(last, v)
					break
				}
			}
			if !kept && lo+n-1 < hi {
				return iset{}, evals, false // some values past the window may differ
			}
		}
	}
	// The values up to X+P, and two periods at least (setFromBits).
	top := n
	if hi == Inf || hi-lo+1 > n {
		top = max(last-lo+per, 2*per)
		if top > n {
			return iset{}, evals, false
		}
	}
	bits := make([]bool, top)
	for i := range top {
		vals[x.name] = lo + i
		bits[i] = p.holds(value)
	}
	return setFromBits(lo, hi, bits, per), evals + top, true
}

// affineCmp is a comparison e op 0 of a condition of one symbol, e quasi-affine in it: e(v+P) =
// e(v)+inc at every v, P the common period of the condition (quasiAffine).
type affineCmp struct {
	e   Expr
	inc int64
}

// comparisons returns the expressions e of the comparisons e op 0 of p, in the order of its
// terms; ok is false where one is raw (as stated, not e op 0).
func comparisons(p Pred) (es []Expr, ok bool) {
	switch p.kind() {
	case pConst:
		return nil, true
	case pCmp:
		return []Expr{p.n.e}, !p.n.raw
	}
	for _, a := range p.n.args {
		sub, fine := comparisons(a)
		if !fine {
			return nil, false
		}
		es = append(es, sub...)
	}
	return es, true
}

// quasiAffine returns the comparisons of p, each with its increment over per, the common period
// in the symbol x of all of them (see period); ok is false where one is not quasi-affine in x,
// is raw, or where per is past maxSplit (or an increment past int64).
func quasiAffine(p Pred, x string) (cmps []affineCmp, per int64, ok bool) {
	es, ok := comparisons(p)
	if !ok {
		return nil, 0, false
	}
	ms := make([]int64, len(es))
	for i, e := range es {
		m, k, fine := period(e, x)
		if !fine {
			return nil, 0, false
		}
		cmps = append(cmps, affineCmp{e, k})
		ms[i] = m
	}
	per = 1
	for _, m := range ms {
		if per = lcm(per, m); per > maxSplit {
			return nil, 0, false
		}
	}
	for i := range cmps { // the increment over per, per/m times that over m
		if cmps[i].inc, ok = mul64(cmps[i].inc, per/ms[i]); !ok {
			return nil, 0, false
		}
	}
	return cmps, per, ok
}

// impliedByPeriod reports whether the premises of ps on the one symbol of q, among them one with
// an exact quotient (which the prover leaves out), imply q, a condition of that symbol alone:
// periodicSet finds no value at which they hold and q does not (H/3 % 2 == 0 implies
// H % 3 == 0).
func impliedByPeriod(ps []Pred, q Pred) bool {
	syms := symbolAtoms(q)
	if len(syms) != 1 {
		return false
	}
	var x *atom
	for _, a := range syms {
		x = a
	}
	args := []Pred{Not(q)}
	quotient := false
	for _, p := range ps {
		if ns := p.SymbolNames(); len(ns) == 1 && ns[0] == x.name {
			args = append(args, p)
			quotient = quotient || !total(p)
		}
	}
	if !quotient {
		return false
	}
	set, _, ok := periodicSet(And(args...), x, x.lo, x.hi)
	return ok && set.empty()
}
