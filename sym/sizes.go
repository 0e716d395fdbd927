package sym

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Sizes is what a model's conditions leave its symbols: the values each may take, and the
// smallest binding at which they all hold (SizesOf).
type Sizes struct {
	// Symbols holds the values of each symbol of the table, in table order.
	Symbols []Size
	// Smallest is the binding of least greatest value (then least sum, then least in table order)
	// at which every condition holds; nil when none was found.
	Smallest map[string]int64
}

// Size is the values a symbol may take at the bindings where a model's conditions hold: those of
// Ranges, and from From on those whose remainder modulo Mod is in Residues.
type Size struct {
	Symbol string
	// Text says it in words, without the symbol: "1 only", "13..16", "16..47, 64..79", ">= 7",
	// "multiples of 32 from 32", "1..4, and from 29 those with H % 32 in {0, 29, 30, 31}", "any"
	// (what Checked found, when not Proven).
	Text string
	// Min is the least value; Max the greatest, Inf when there is none.
	Min, Max int64
	// Ranges are the values below From, as sorted disjoint closed ranges [lo, hi].
	Ranges [][2]int64
	// From is where the values repeat with the period Mod, taking those whose remainder is in
	// Residues, up to Max; Mod is 0 when the values are finitely many (Ranges holds them all).
	From, Mod int64
	Residues  []int64
	// Fixed reports a single value.
	Fixed bool
	// Proven reports that the values are exactly these. Otherwise they are what evaluating the
	// conditions over Checked found (the values of Checked the conditions allow, and beyond it a
	// guess), but for those of Undecided, sorted disjoint closed ranges within Checked, which a
	// symbol tied to others may take or not: no search decided them (its budget spent, or the
	// conditions undefined there), and they are among the values, never said to be none.
	Proven    bool
	Checked   [2]int64
	Undecided [][2]int64
	// With names the symbols the conditions tie this one to: its values are those at which some
	// values of them satisfy the conditions (H of (H//16)*(W//16) == 196 with W).
	With []string
}

// The budgets of SizesOf: the steps its searches take (a binding tried, or a substitution into the
// conditions, which costs a step and one more for each weightStep of their size), sizeSteps for
// a group of symbols that conditions tie together, in equal shares for the search of each symbol
// and for that of the smallest binding, and each round of sizer.sizes (one fewer than the
// symbols) gives each symbol not proven yet a share again: SizesOf's work is bounded whatever the
// conditions. Then the values of a tied symbol that it decides (all of them within projectSpan,
// else tiedSpan); the least share of a symbol's budget that the search of one of its values, or
// the proof of one of its residue classes, takes (valueSteps); the bindings found that the sizer
// keeps to try at other values (keptBindings), and the values complete tries of a symbol a
// binding leaves out (completeSpan).
const (
	sizeSteps    = 1 << 12
	weightStep   = 4
	projectSpan  = 1 << 13
	tiedSpan     = 1 << 8
	valueSteps   = 32
	keptBindings = 4
	completeSpan = 16
)

// SizesOf returns what the conditions cs (all of them) leave the symbols of t, in elements along
// the axes the symbols stand for: Sizes.Symbols, in table order, the values each symbol may take at
// the bindings that satisfy cs, and Sizes.Smallest, the smallest such binding (nil when none was
// found). It returns no error: what its searches, which have a fixed budget of work, do not decide
// is said so, never proven.
//
// A symbol that no condition ties to another has its values found by evaluating the conditions
// at its first 8,192 values or more (all, when its bounds hold fewer), described by ranges and a
// period, and Proven where that description and the conditions are shown to hold at the same
// values; otherwise the description is a guess past Size.Checked, the values evaluated, whose
// period is that of the values found.
// A symbol that conditions tie to others (Size.With: H of (H//16)*(W//16) == 196) has, for each of
// its first values (8,192 when its bounds hold no more, else 256), whether the others can take
// values with it: a binding found, or none proven, for the value or for its residue class modulo
// the period of the conditions' floor divisions and remainders of the symbol (T of
// (H//2)*(T//2)*(W//2) == 8*(H//4)*(T//4)*(W//4) at T % 4 == 2). A value that no search decides
// stays among
// those it may take, and it is Proven only when every value of its bounds was decided. A symbol
// that no condition names takes its bounds ("any" for [1, Inf)). A condition that no binding
// satisfies leaves each symbol of its group "none", and no smallest binding.
func SizesOf(t *Table, cs []Constraint) Sizes {
	ps := make([]Pred, 0, len(cs))
	for _, c := range cs {
		ps = append(ps, c.Pred)
	}
	sz := &sizer{pv: &prover{}, steps: sizeSteps, cache: map[string]status{}}
	// Groups of symbols tied by a condition.
	names := t.Names()
	group := map[string]int{}
	for i, n := range names {
		group[n] = i
	}
	var find func(string) int
	find = func(n string) int {
		g := group[n]
		if names[g] != n {
			g = find(names[g])
			group[n] = g
		}
		return g
	}
	for _, p := range ps {
		ns := p.SymbolNames()
		for _, n := range ns[min(1, len(ns)):] {
			if a, b := find(ns[0]), find(n); a != b {
				group[names[b]] = a
			}
		}
	}
	var out Sizes
	smallest := map[string]int64{}
	found := true
	done := map[int]bool{}
	for _, n := range names {
		g := find(n)
		if done[g] {
			continue
		}
		done[g] = true
		var members []string
		for _, m := range names {
			if find(m) == g {
				members = append(members, m)
			}
		}
		var gp []Pred
		for _, p := range ps {
			// A condition of no symbol (0 == 1, that canonical form made of one that could
			// never hold) holds of every group or of none.
			if ns := p.SymbolNames(); len(ns) == 0 || find(ns[0]) == g {
				gp = append(gp, p)
			}
		}
		q := And(gp...)
		// Each search with a share of the budget of its own: one symbol's values do not spend
		// another's.
		share := sizeSteps / (len(members) + 1)
		out.Symbols = append(out.Symbols, sz.sizes(t, q, members, share)...)
		sz.steps = share
		w, ok := sz.smallest(t, q, members)
		found = found && ok
		for k, v := range w {
			smallest[k] = v
		}
	}
	// In table order.
	slices.SortStableFunc(out.Symbols, func(a, b Size) int { return slices.Index(names, a.Symbol) - slices.Index(names, b.Symbol) })
	if found {
		out.Smallest = smallest
	}
	return out
}

// status is what a search found of a predicate: a binding, none (proven), or neither.
type status uint8

const (
	unknown status = iota
	holdsAt
	holdsNowhere
)

// sizer holds the budget and the findings of one SizesOf.
type sizer struct {
	pv    *prover
	steps int
	cache map[string]status // by the canonical text of a predicate, whether some binding satisfies it
	// found holds the last bindings that searches found, latest first: one often holds at the
	// next values of a symbol, or with another symbol's value changed, as evaluating the
	// conditions tells (r2_0083's H == 29, W == 7, found for T == 104, hold with H to 36).
	found []map[string]int64
}

// sizes returns the values of the members of a group of symbols that q, the conditions of the
// group, ties together, each search with a budget of share. A member whose values are proven
// bounds the searches of the others: every binding that satisfies q has it among its values, so
// that q and they hold at the same bindings (L of B*max(B*(L//10)+B,L//10+1) == 401 at L <= 9
// needs B*B == 401, which no search of B decides, where B's values are 1 only). A fixed member is
// substituted, and a member that q then ties to no other is searched as one alone. Rounds go on
// while a member's values become proven.
func (sz *sizer) sizes(t *Table, q Pred, members []string, share int) []Size {
	out := make([]Size, len(members))
	sets := make([]iset, len(members))
	for i, m := range members {
		sz.steps = share
		out[i], sets[i] = sz.size(t, q, m, members)
	}
	for range len(members) - 1 {
		var known []Pred
		fixed := map[string]Expr{}
		for i, m := range members {
			switch z := out[i]; {
			case !z.Proven:
			case z.Fixed:
				fixed[m] = Int(z.Min)
			default:
				x, _ := t.Lookup(m)
				known = append(known, Ge(x, Int(z.Min)))
				if z.Max != Inf {
					known = append(known, Le(x, Int(z.Max)))
				}
				if ps := sets[i].preds(x); len(ps) > 0 {
					known = append(known, ps[0])
				}
			}
		}
		if len(known) == 0 && len(fixed) == 0 {
			break
		}
		qk, ok := And(append(known, q)...).Subst(func(n string) (Expr, bool) { x, ok := fixed[n]; return x, ok })
		if !ok {
			break
		}
		named := qk.SymbolNames()
		progress := false
		for i, m := range members {
			if out[i].Proven {
				continue
			}
			group := []string{m}
			for _, n := range members {
				if n != m && slices.Contains(named, n) {
					group = append(group, n)
				}
			}
			sz.steps = share
			z, set := sz.size(t, qk, m, group)
			z.With = out[i].With
			out[i], sets[i] = z, set
			progress = progress || z.Proven
		}
		if !progress {
			break
		}
	}
	return out
}

// size returns the values of the symbol name under q, the conditions of its group, and their set.
func (sz *sizer) size(t *Table, q Pred, name string, group []string) (Size, iset) {
	x, _ := t.Lookup(name)
	a := x.t[0].m[0].a
	s := Size{Symbol: name, With: slices.DeleteFunc(slices.Clone(group), func(n string) bool { return n == name })}
	if len(s.With) == 0 {
		s.With = nil
	}
	lo, hi := a.lo, a.hi
	sub, empty := narrowingAll(q)
	if empty {
		return finish(s, iset{lo: lo, hi: hi, from: Inf, mod: 1}, true, [2]int64{lo, lo}, a.lo)
	}
	if n, ok := sub[name]; ok {
		b := n.t[0].m[0].a
		lo, hi = b.lo, b.hi
	}
	if lo == NegInf {
		return finish(s, iset{lo: a.lo, hi: a.hi, from: a.lo, mod: 1, res: []int64{0}}, false, [2]int64{}, a.lo)
	}
	if len(group) == 1 {
		bits, m, ok := guessBits(q, a, lo, hi)
		if !ok {
			return finish(s, iset{lo: lo, hi: hi, from: lo, mod: 1, res: []int64{0}}, false, [2]int64{lo, lo}, a.lo)
		}
		set, checked := setFromBits(lo, hi, bits, periodOf(bits, m)), lo+int64(len(bits))-1
		proven := set.finite() && set.hi != Inf && checked >= set.hi // every value evaluated
		if !proven {
			for _, c := range set.preds(x) {
				sz.pv.steps = proofSteps
				if sz.pv.implied([]Pred{q}, c) && sz.proveSteps() && sz.pv.implied([]Pred{c}, q) {
					proven = true
					break
				}
			}
		}
		if !proven {
			// The prover leaves out a condition with an exact quotient (H/3 % 2 == 0): its
			// period decides it.
			if ps, _, ok := periodicSet(q, a, lo, hi); ok {
				set, proven = ps, true
			}
		}
		return finish(s, set, proven, [2]int64{a.lo, checked}, a.lo)
	}
	// Tied to others: each value, whether the others can take values with it; all of them when
	// they are few, else the first tiedSpan.
	top := hi
	if hi == Inf || hi-lo >= projectSpan {
		top = lastOf(lo, tiedSpan)
	}
	// A value that no search decides (the budget spent, or q undefined there and no binding of
	// evaluation found) is undecided: not proven, never said to be none.
	xa := a
	if n, ok := sub[name]; ok {
		xa = n.t[0].m[0].a
	}
	m := atomsPeriod(q, name)
	sts := sz.tied(t, q, xa, lo, top, s.With, m)
	bits := make([]bool, len(sts))
	open := make([]bool, len(sts))
	proven := top == hi
	for i, st := range sts {
		switch st {
		case holdsAt:
			bits[i] = true
		case unknown:
			bits[i], open[i], proven = true, true, false
		}
	}
	// What was checked ends at the last value decided: the undecided values past it are a guess
	// as those past the window are; those before it stay among the values, said undecided.
	checked := [2]int64{lo, top}
	end := len(open)
	for end > 0 && open[end-1] {
		end--
	}
	if end > 0 {
		bits, open = bits[:end], open[:end]
		checked[1] = lo + int64(end) - 1
	}
	for _, r := range spansOf(lo, open) {
		s.Undecided = append(s.Undecided, [2]int64{r.lo, r.hi})
	}
	// Past what was checked, a guess: the values repeat with the period of q's floor divisions
	// and remainders of the symbol (H % 2 == 0 of H*W == 4*(H//2)*(W//2)), or that of the values.
	if 2*m > int64(len(bits)) {
		m = 1
	}
	set := setFromBits(lo, hi, bits, periodOf(bits, m))
	return finish(s, set, proven, checked, a.lo)
}

// tied returns, for each value of the symbol x from lo to top, whether the other symbols of q
// (with) can take values with it, within the budget the sizer holds, of which no value spends the
// others' share (bench/random's seed 3 left 1,932 values undecided: the search of a value that no
// binding satisfies ran through the others' values, which have no end, and spent its symbol's
// budget). First the residue classes of x modulo m, the period of q's floor divisions and
// remainders of it (atomsPeriod), each proven to hold no binding at once where the prover can:
// x = m*u+r for a fresh u, which makes those floor divisions polynomials in u (T of r3_0298's
// (H//2)*(T//2)*(W//2) == 8*(H//4)*(T//4)*(W//4) at T % 4 == 2, where T//2 is 2*(T//4)+1, and the
// left side the greater as H//2 >= 2*(H//4)). That is tried when the window holds 4 values of each
// class at least, in rounds of twice the steps of the last for the classes that spent them, while a
// quarter of the budget is left (a proof of a class costs what one of a value does, and decides a
// value in m). Then each value left: the bindings found before (sizer.found) tried by evaluation,
// then a search, with an equal share of what is left (valueSteps at least) until half of it is
// spent (past that, the bindings alone); then each value still undecided, in order, with what is
// left, and once it is spent, those not searched yet with none (a search decided before may decide
// them: r2_0083's H == 61 reads as H == 29 does); then each once more, for those that a binding
// found since decides.
func (sz *sizer) tied(t *Table, q Pred, x *atom, lo, top int64, with []string, m int64) []status {
	sts := make([]status, top-lo+1)
	pool := sz.steps
	// run runs f with at most limit steps of what is left of the budget, and takes what it spent;
	// with none, f decides what needs no search (a search decided before, a binding found).
	run := func(limit int, f func()) {
		sz.steps = max(min(limit, pool), 0)
		before := sz.steps
		f()
		if before > 0 {
			pool -= before - sz.steps
		}
	}
	vals := map[string]int64{}
	value := func(n string) (int64, bool) { v, ok := vals[n]; return v, ok }
	// reuse tells whether a binding found before holds with the value of x at i.
	reuse := func(i int) bool {
		for _, w := range sz.found {
			clear(vals)
			maps.Copy(vals, w)
			if vals[x.name] = lo + int64(i); q.holds(value) {
				return true
			}
		}
		return false
	}
	decide := func(i int) {
		v := lo + int64(i)
		if reuse(i) {
			sts[i] = holdsAt
			return
		}
		switch qv, ok := substOK(q, x.name, v); {
		case ok:
			var w map[string]int64
			if w, sts[i] = sz.satisfiable(qv); w != nil {
				w[x.name] = v
				complete(q, w, with, t)
				sz.found = slices.Insert(sz.found, 0, w)[:min(len(sz.found)+1, keptBindings)]
			}
		case q.valueless(valueOf(x.name, v)):
			sts[i] = holdsNowhere // H//(N-2) >= 1 at N = 2, for every H
		default:
			sts[i] = sz.evalAt(q, x.name, v, with, t)
		}
	}
	if m > 1 && m <= int64(len(sts))/4 {
		// Rounds of proofs of the classes left, each round with twice the steps of the last,
		// while a quarter of the budget is left.
		keep := pool / 4
		classes := make([]int64, m)
		for r := range m {
			classes[r] = r
		}
		for limit := valueSteps; len(classes) > 0 && pool > keep; limit *= 2 {
			left := classes[:0]
			for k, r := range classes {
				if pool <= keep {
					left = append(left, classes[k:]...)
					break
				}
				run(limit, func() {
					qr, ok := sz.pv.residue(q, x, m, r)
					switch refuted, spent := sz.refutedWithin(qr, limit); {
					case ok && refuted:
						for i := pyMod(r-pyMod(lo, m), m); i < int64(len(sts)); i += m {
							sts[i] = holdsNowhere
						}
					case ok && spent:
						left = append(left, r)
					}
				})
			}
			classes = left
		}
	}
	left := 0
	for _, st := range sts {
		if st == unknown {
			left++
		}
	}
	half, each := pool/2, max(pool/max(left, 1), valueSteps)
	searched := make([]bool, len(sts))
	for i, st := range sts {
		switch {
		case st != unknown:
		case pool > half:
			searched[i] = true
			run(min(each, pool-half), func() { decide(i) })
		case reuse(i):
			sts[i] = holdsAt
		}
	}
	for i, st := range sts {
		switch {
		case st != unknown:
		case pool > 0:
			run(pool, func() { decide(i) })
		case !searched[i]:
			run(0, func() { decide(i) }) // a search decided before may decide it
		}
	}
	for i, st := range sts {
		if st == unknown && reuse(i) {
			sts[i] = holdsAt
		}
	}
	sz.steps = pool
	return sts
}

// complete gives the symbols of with that the binding w of q leaves out their least values, where
// q, its canonical form rid of them, holds whatever they are ((H*W-H) % (W-1) == 0 is true, but
// for W == 1). The first of them that q leaves out takes the first of its next completeSpan values
// at which q holds, when it does not at the least: w is tried by evaluating q at other values.
func complete(q Pred, w map[string]int64, with []string, t *Table) {
	var out []string
	for _, n := range with {
		if lo, _, _ := t.Bounds(n); lo != NegInf {
			if _, ok := w[n]; !ok {
				w[n] = lo
				out = append(out, n)
			}
		}
	}
	value := func(n string) (int64, bool) { v, ok := w[n]; return v, ok }
	if len(out) == 0 || q.holds(value) {
		return
	}
	lo, hi, _ := t.Bounds(out[0])
	for d := int64(1); d <= completeSpan && lo <= hi-d; d++ {
		if w[out[0]] = lo + d; q.holds(value) {
			return
		}
	}
	w[out[0]] = lo
}

// periodOf returns the period with which bits, a condition's values at consecutive values of a
// symbol, repeat over the second half of them: hint, the period of the condition's floor divisions
// and remainders (atomsPeriod), when it does; else the least period that does, up to maxSplit and
// a quarter of bits; hint when none does. A condition's atoms may hide its period: the remainder
// of a minimum of a product (min(T*((T+1)//2)-((T+1)//2)*((T+1)//2),(T+1)//2) % 3 == 0 beside
// T % 2 == 0 holds where T % 6 == 0), a remainder of a square (H*H % 5 == 4: H % 5 in {2, 3}).
func periodOf(bits []bool, hint int64) int64 {
	n := int64(len(bits))
	repeats := func(d int64) bool {
		for i := n / 2; i+d < n; i++ {
			if bits[i] != bits[i+d] {
				return false
			}
		}
		return true
	}
	if hint >= 1 && hint <= n/4 && repeats(hint) {
		return hint
	}
	for d := int64(1); d <= min(maxSplit, n/4); d++ {
		if repeats(d) {
			return d
		}
	}
	return hint
}

// lastOf returns the last of the n values from lo, n at least 1, or Inf when they reach it: what
// a search of n values tries stays within int64 (a symbol of a loop's trip count may be at least
// 9223372036854775807, where lo + n - 1 wrapped round to a negative value).
func lastOf(lo, n int64) int64 {
	if lo > Inf-(n-1) {
		return Inf
	}
	return lo + n - 1
}

// proveSteps renews the prover's budget from the sizer's; false when it is spent.
func (sz *sizer) proveSteps() bool {
	sz.steps -= proofSteps - max(sz.pv.steps, 0)
	sz.pv.steps = proofSteps
	return sz.steps > 0
}

// narrowingAll returns the bounds the conjunction p gives its symbols (narrowing), narrowed again
// until they settle.
func narrowingAll(p Pred) (map[string]Expr, bool) {
	sub := map[string]Expr{}
	for range 6 {
		s, empty := narrowing(p)
		if empty {
			return nil, true
		}
		if len(s) == 0 {
			break
		}
		for k, v := range s {
			sub[k] = v
		}
		q, ok := p.Subst(func(name string) (Expr, bool) { x, ok := s[name]; return x, ok })
		if !ok {
			break
		}
		if q.IsFalse() {
			return nil, true
		}
		p = q
	}
	return sub, false
}

// substValue returns p with the symbol name the integer v, or p where that is undefined (a
// division by 0 at v).
func substValue(p Pred, name string, v int64) Pred {
	if q, ok := substOK(p, name, v); ok {
		return q
	}
	return p
}

// substOK returns p with the symbol name the integer v; ok is false where that is undefined.
func substOK(p Pred, name string, v int64) (Pred, bool) { return p.Subst(valueOf(name, v)) }

// valueOf returns the substitution of the integer v for the symbol name.
func valueOf(name string, v int64) func(string) (Expr, bool) {
	return func(n string) (Expr, bool) {
		if n == name {
			return Int(v), true
		}
		return Expr{}, false
	}
}

// evalAt tells, by evaluation, whether q holds with name at v and the one other symbol of with at
// one of its first tiedSpan values: for a v at which q cannot be rewritten (substOK), such as
// (3*H*W-3*W) % (6*H-6) == 0 at H == 1. Unknown when none of them holds or with holds more
// symbols.
func (sz *sizer) evalAt(q Pred, name string, v int64, with []string, t *Table) status {
	if len(with) != 1 || sz.steps <= 0 {
		return unknown
	}
	lo, hi, _ := t.Bounds(with[0])
	if lo == NegInf {
		return unknown
	}
	top := min(hi, lastOf(lo, tiedSpan))
	sz.steps -= int(top-lo) / 64
	vals := map[string]int64{name: v}
	value := func(n string) (int64, bool) { x, ok := vals[n]; return x, ok }
	for w := lo; w <= top; w++ {
		vals[with[0]] = w
		if q.holds(value) {
			return holdsAt
		}
		if w == Inf {
			break
		}
	}
	return unknown
}

// satisfiable tells whether some binding of its symbols satisfies q, and returns the one its
// search found: none when q holds at every binding, or when an earlier search decided q (what
// no search decided is searched again, with the budget of then).
func (sz *sizer) satisfiable(q Pred) (map[string]int64, status) {
	switch {
	case q.IsTrue():
		return nil, holdsAt
	case q.IsFalse():
		return nil, holdsNowhere
	}
	key := q.String()
	if st, ok := sz.cache[key]; ok {
		return nil, st
	}
	w, st := sz.witness(q)
	if st != unknown {
		sz.cache[key] = st
	}
	return w, st
}

// witness returns a binding of the symbols of q at which q holds, the least in table order (the
// first symbol least, then the next); or none (proven), or neither when the budget is spent.
func (sz *sizer) witness(q Pred) (map[string]int64, status) {
	if sz.steps -= 1 + weight(q)/weightStep; sz.steps < 0 {
		return nil, unknown
	}
	// Symbols that narrowing leaves out of q take the least value of their bounds.
	least := map[string]int64{}
	for range 6 {
		sub, empty := narrowing(q)
		if empty {
			return nil, holdsNowhere
		}
		if len(sub) == 0 {
			break
		}
		for name, x := range sub {
			least[name] = x.t[0].m[0].a.lo
		}
		r, ok := q.Subst(func(name string) (Expr, bool) { x, ok := sub[name]; return x, ok })
		if !ok {
			break
		}
		q = r
		sz.steps -= weight(q) / weightStep
	}
	if q.IsFalse() {
		return nil, holdsNowhere
	}
	syms := symbolAtoms(q)
	found := func(w map[string]int64) (map[string]int64, status) {
		for name, v := range least {
			if _, ok := w[name]; !ok && v != NegInf {
				w[name] = v
			}
		}
		return w, holdsAt
	}
	if len(syms) == 0 {
		if q.IsTrue() {
			return found(map[string]int64{})
		}
		return nil, unknown
	}
	var x *atom
	for _, a := range syms {
		if x == nil || a.order < x.order {
			x = a
		}
	}
	lo, hi := x.lo, x.hi
	if lo == NegInf {
		return nil, unknown
	}
	top := hi
	if hi == Inf || hi-lo >= projectSpan {
		top = lastOf(lo, projectSpan)
	}
	undecided := top < hi
	if len(syms) == 1 {
		// A condition quasi-affine in its symbol is decided by its period, past any window
		// ((H//4)*(W//2) == 4*(H//8)*(W//4) at H == 92 holds at no W).
		set, evals, ok := periodicSet(q, x, lo, hi)
		sz.steps -= int(evals / 64)
		if ok {
			if v, some := set.least(); some {
				return found(map[string]int64{x.name: v})
			}
			return nil, holdsNowhere
		}
		vals := map[string]int64{}
		value := func(n string) (int64, bool) { v, ok := vals[n]; return v, ok }
		for i := range top - lo + 1 {
			v := lo + i
			vals[x.name] = v
			if q.holds(value) {
				return found(map[string]int64{x.name: v})
			}
		}
		sz.steps -= int(top-lo) / 64
		if !undecided {
			return nil, holdsNowhere
		}
	} else {
		for i := int64(0); i <= top-lo && sz.steps > 0; i++ {
			v := lo + i
			qv, ok := substOK(q, x.name, v)
			if !ok {
				undecided = true // q undefined at v: the same search again would decide nothing
				continue
			}
			w, st := sz.witness(qv)
			switch st {
			case holdsAt:
				w[x.name] = v
				return found(w)
			case unknown:
				undecided = true
			}
		}
		if sz.steps <= 0 {
			return nil, unknown
		}
		if !undecided {
			return nil, holdsNowhere
		}
	}
	if sz.refuted(q) {
		return nil, holdsNowhere
	}
	return nil, unknown
}

// refuted reports whether the prover shows that q holds at no binding, within what is left of the
// budget (proofSteps at most), which pays for its work.
func (sz *sizer) refuted(q Pred) bool {
	ok, _ := sz.refutedWithin(q, proofSteps)
	return ok
}

// refutedWithin reports whether the prover shows that q holds at no binding within limit steps
// of the budget, which pays for its work, and whether it stopped for want of steps.
func (sz *sizer) refutedWithin(q Pred, limit int) (refuted, spent bool) {
	budget := min(limit, sz.steps)
	sz.pv.steps = budget
	refuted = sz.pv.unsat(q, 0)
	sz.steps -= budget - max(sz.pv.steps, 0)
	return refuted, sz.pv.steps < 0
}

// smallest returns the binding of the symbols of a group that satisfies q of least greatest value,
// then least in table order; ok is false when none was found.
func (sz *sizer) smallest(t *Table, q Pred, group []string) (map[string]int64, bool) {
	w, st := sz.witness(q)
	if st != holdsAt {
		return nil, false
	}
	fill := func(w map[string]int64) map[string]int64 {
		for _, n := range group {
			if _, ok := w[n]; !ok {
				w[n], _, _ = t.Bounds(n) // a symbol q does not mention: its least value
			}
		}
		return w
	}
	w = fill(w)
	if len(group) < 2 {
		return w, true
	}
	lo, hi := int64(NegInf), int64(NegInf)
	for _, n := range group {
		l, _, _ := t.Bounds(n)
		lo, hi = max(lo, l), max(hi, w[n])
	}
	// The least bound m under which a binding is found, by bisection.
	best := w
	for lo < hi && sz.steps > 0 {
		m := lo + (hi-lo)/2
		bounded := []Pred{q}
		for _, n := range group {
			x, _ := t.Lookup(n)
			bounded = append(bounded, Le(x, Int(m)))
		}
		if b, st := sz.witness(And(bounded...)); st == holdsAt {
			best, hi = fill(b), m
		} else {
			lo = m + 1
		}
	}
	return best, true
}

// finish fills s from the set of its values, and returns them both; least is the symbol's own
// lower bound.
func finish(s Size, set iset, proven bool, checked [2]int64, least int64) (Size, iset) {
	s.Proven = proven
	if !proven {
		s.Checked = checked
	}
	for _, r := range set.below {
		s.Ranges = append(s.Ranges, [2]int64{r.lo, r.hi})
	}
	// The periodic part up to a bound is a range when every remainder is in (1..16777216 of
	// N <= 2^24), else it is Mod and Residues from From up to Max, its greatest member.
	if g, ok := set.greatest(); ok {
		set.hi = g
	}
	s.Max = set.hi
	switch {
	case set.from > set.hi || len(set.res) == 0:
		if len(set.below) > 0 {
			s.Max = set.below[len(set.below)-1].hi
		}
	case set.mod == 1 && set.hi != Inf:
		s.Ranges = append(s.Ranges, [2]int64{set.from, set.hi})
	default:
		s.From, s.Mod, s.Residues = set.from, set.mod, slices.Clone(set.res)
	}
	s.Min, _ = set.least()
	_, s.Fixed = set.one()
	s.Text = set.text(s.Symbol, least)
	if set.lo <= 1 && set.from == set.lo && set.mod == 1 && len(set.res) == 1 && set.hi == Inf {
		s.Text = "any"
	}
	return s, set
}

// maxUndecided bounds the ranges of undecided values a Caveat lists.
const maxUndecided = 3

// Caveat returns what the values of z rest on when they are not proven: the values checked
// ("checked 4..87"), and those of them no search decided ("checked 1..256, undecided at 1, 9..12
// and 5 more"; "undecided 1..256" when none was); "" when they are proven.
func (z Size) Caveat() string {
	if z.Proven {
		return ""
	}
	checked := span{z.Checked[0], z.Checked[1]}
	if len(z.Undecided) == 1 && z.Undecided[0] == z.Checked {
		return "undecided " + strconv.FormatInt(checked.lo, 10) + ".." + strconv.FormatInt(checked.hi, 10)
	}
	out := "checked " + strconv.FormatInt(checked.lo, 10) + ".." + strconv.FormatInt(checked.hi, 10)
	for i, r := range z.Undecided[:min(len(z.Undecided), maxUndecided)] {
		switch {
		case i == 0:
			out += ", undecided at "
		default:
			out += ", "
		}
		out += spanText(span{r[0], r[1]})
	}
	if n := len(z.Undecided) - maxUndecided; n > 0 {
		out += " and " + strconv.Itoa(n) + " more"
	}
	return out
}

// String returns the sizes as lines: "H, W: multiples of 32 from 32" (symbols of one text
// together), "T >= 7", then "smallest: N=1, H=32, W=32".
func (s Sizes) String() string { return strings.Join(s.Lines(), "\n") }

// Lines returns the lines of String: the symbols of one text together, and those that conditions
// tie to others marked so ("H, W: 16..47, 64..79 (tied to each other)"); none for a symbol that
// may take any value (Text "any", proven), which the smallest binding still names.
func (s Sizes) Lines() []string {
	var out []string
	var texts []string
	byText := map[string][]Size{}
	for _, z := range s.Symbols {
		if z.Proven && z.Text == "any" {
			continue
		}
		key := z.Text + "\x00" + z.Caveat()
		if _, ok := byText[key]; !ok {
			texts = append(texts, key)
		}
		byText[key] = append(byText[key], z)
	}
	for _, t := range texts {
		var names, tied []string
		for _, z := range byText[t] {
			names = append(names, string(appendName(nil, z.Symbol)))
		}
		each := false
		for _, z := range byText[t] {
			for _, w := range z.With {
				if slices.ContainsFunc(byText[t], func(y Size) bool { return y.Symbol == w }) {
					each = true
				} else if n := string(appendName(nil, w)); !slices.Contains(tied, n) {
					tied = append(tied, n)
				}
			}
		}
		line := strings.Join(names, ", ")
		if rest, ok := strings.CutPrefix(byText[t][0].Text, ">= "); ok {
			line += " >= " + rest
		} else {
			line += ": " + byText[t][0].Text
		}
		var notes []string
		if c := byText[t][0].Caveat(); c != "" {
			notes = append(notes, c)
		}
		switch {
		case byText[t][0].Fixed:
		case each && len(tied) > 0:
			notes = append(notes, "tied to each other and to "+strings.Join(tied, ", "))
		case each:
			notes = append(notes, "tied to each other")
		case len(tied) > 0:
			notes = append(notes, "tied to "+strings.Join(tied, ", "))
		}
		if len(notes) > 0 {
			line += " (" + strings.Join(notes, "; ") + ")"
		}
		out = append(out, line)
	}
	return out
}

// weight returns the size of the expressions p compares (Expr.Size, summed): what a substitution
// into p rebuilds, which a search of SizesOf pays a step of its budget for each weightStep of.
func weight(p Pred) int {
	switch p.kind() {
	case pConst:
		return 0
	case pCmp:
		return p.n.e.Size() + p.n.rhs.Size()
	}
	n := 0
	for _, a := range p.n.args {
		n += weight(a)
	}
	return n
}
