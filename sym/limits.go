package sym

import "slices"

// MaxSize is the largest size a limit's premise allows, 2^31-1, the largest int32: a limit
// (IsLimit) is a condition that holds wherever each of its symbols is at most MaxSize, so that
// only a size of 2^31 or more breaks it, as the bound of a dim a model casts to int32 (N <=
// 2147483647; (H+3)//8 <= 2147483647, which is H <= 17179869180).
const MaxSize = 1<<31 - 1

// IsLimit reports whether p is proven to hold at every binding of its symbols within their
// bounds and at most MaxSize: a limit, which no size below 2^31 breaks. The set of values of
// one symbol at which p fails is computed exactly where its comparisons are quasi-affine
// (affineSet: (T+55)//72 >= (T+1)//18-536870911 fails from T = 12884901893 on), and otherwise
// proven empty by the prover, with each symbol's bounds as premises. What is not proven is not a
// limit: N*T <= 2147483647 (N = T = 65536 breaks it), 16777216*N <= 2147483647 (N <= 127), and
// a condition without a value at some binding (an exact quotient), or without symbols.
func IsLimit(p Pred) bool {
	atoms := symbolAtoms(p)
	if len(atoms) == 0 || !total(p) {
		return false
	}
	var premises []Pred
	for _, a := range atoms {
		hi := min(a.hi, MaxSize)
		if a.lo > hi {
			return false
		}
		if len(atoms) == 1 {
			if s, ok := affineSet(Not(p), a, a.lo, hi); ok {
				return s.empty()
			}
		}
		x := fromAtom(a)
		premises = append(premises, Ge(x, Int(a.lo)), Le(x, Int(hi)))
	}
	return (&prover{steps: proofSteps}).implied(premises, p)
}

// AddLimits appends the limits ls (IsLimit, in the order a run meets their nodes) to m's
// Constraints, minimized under them: each limit that the Constraints imply goes to Implied, as it
// was given, By the fewest of them that prove it; the others, each simplified under the Constraints
// (in the simplest form that holds where it does wherever they hold, if that is a limit), are the
// fewest that say what they all say (Minimize), their Implied By indices in m's Constraints, those
// before the limits first. n is the number of limits appended. ok is false, and m unchanged, when m
// has Never or the limits may not hold with the Constraints (they imply a limit's negation, or the
// bounds of both leave a symbol no value): the caller then minimizes all the conditions together,
// so that Never names the one that cannot hold.
func (m *Minimal) AddLimits(ls []Constraint) (n int, ok bool) {
	if len(ls) == 0 {
		return 0, true
	}
	if m.Never != nil {
		return 0, false
	}
	prove := prover{}.budget(minimizeSteps)
	ps := m.preds()
	var rest []Constraint
	var implied []Implied
	for _, c := range ls {
		var by []int
		proven := false
		if len(ps) > 0 {
			by, proven = m.proofOf(ps, c.Pred, prove)
		}
		switch {
		case proven:
			implied = append(implied, Implied{Constraint: c, By: by})
		case len(ps) > 0 && prove(ps, Not(c.Pred)):
			return 0, false
		default:
			// Under the Constraints, in the form that reads most simply where they hold, if it
			// is still a limit (T <= 12884901844 where they make min(T,2) 2).
			if q := simplify(c.Pred, ps, prove); IsLimit(q) {
				c.Pred = q
			}
			rest = append(rest, c)
		}
	}
	lm := Minimize(rest)
	both := Minimal{Constraints: append(slices.Clone(m.Constraints), lm.Constraints...)}
	if lm.Never != nil || both.contradicts() {
		return 0, false
	}
	for _, im := range lm.Implied {
		for k := range im.By {
			im.By[k] += len(m.Constraints)
		}
		implied = append(implied, im)
	}
	m.Constraints, m.Implied = both.Constraints, append(m.Implied, implied...)
	return len(lm.Constraints), true
}
