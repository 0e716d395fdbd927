package sym

import (
	"cmp"
	"slices"
)

// Minimal is a model's constraints as the fewest that say what they all say (Minimize), and the
// others, with what implies each.
type Minimal struct {
	// Constraints are the conditions of which none holds always, given the symbols' bounds and the
	// conditions before it, nor follows from the others, in the order of the list Minimize was
	// given (of the first of their nodes). Each names every node that imposes it, or a part of it
	// (Constraint.Merged), Origin first, then Also.
	Constraints []Constraint
	// Implied are the conditions of the list that Constraints imply, each as it was given, at its
	// own node: a weaker bound upstream of a stronger one (H >= 3 at a first Conv, H >= 11 at a
	// later one) is where a run stops at the bindings that break it. Those of a merged condition's
	// nodes are all here. Of the conditions a binding breaks, in Implied and the Constraints not
	// merged, the first by Seq is where a run stops.
	Implied []Implied
	// Never is, when no binding satisfies the conditions (one whose canonical form, or whose
	// form under the conditions before it, is false: 0 == 1; or bounds they leave no value), the
	// first condition of the list that cannot hold with those before it, as its node states it,
	// and Conflict the fewest of them it contradicts (none when it never holds alone, within its
	// symbols' bounds); nil when some binding may satisfy them. Constraints and Implied then hold
	// the minimal form of the others; where one of those cannot hold even alone, Constraints
	// holds it, as its node states it, and Implied the rest, each implied by it.
	Never *ConstraintError
}

// Implied is a condition that others imply.
type Implied struct {
	Constraint
	// By holds the indices in Minimal.Constraints of the conditions that together imply it; none
	// for a condition that holds at every binding within the symbols' bounds.
	By []int
}

// The budget of Minimize: the steps of all its proofs together (see prover), so that a model of
// many conditions is minimized within a bounded time; past it, what is not proven stays.
const minimizeSteps = 200000

// Minimize returns the constraints cs, given in the order a run of the model meets their nodes
// (Origin.Seq, which does not decrease; the first a binding breaks is where a run stops), as the
// fewest that say the same: equal conditions are one, naming all their nodes; each condition is
// simplified under the bounds that the other conditions of its node and of the nodes before it
// give its symbols (H >= 16 makes (H//16)*(W//16) == 0 || (H//16)*(W//16) == 196 the second), and
// a condition of one symbol is written in the simplest form that they leave equal ((H+7)//8 ==
// H//8 is H % 8 == 0; H <= 4 || ((H+3)//4+7) % 8 == 7 is H <= 4 || H % 32 in {0, 29, 30, 31}), and
// one of several symbols with each part of one symbol so, a product equal to 0 as its factors, and
// a case split on a symbol's bound folded where its cases agree (see severalSymbols); then a
// condition that the others imply, proven (see prover), moves to Implied, the hardest to
// read first, and of equally hard ones the first. A condition whose proof passes the budget
// stays. A condition that so carries the meaning of other nodes' conditions, which its own
// node's do not give (a Split's H % 2 == 0 and a Reshape's H % 3 == 0 read as H % 6 == 0), is
// Merged: it names them all, the first by Seq first with its Why, and Implied holds each
// node's own condition, so that the first a binding breaks is still at the node where a run
// stops.
//
// Every binding satisfies the conjunction of Constraints exactly when it satisfies that of cs,
// unless none does: then Never names the condition that makes them contradict, and Constraints are
// those of the others. The conditions with an exact quotient (N*T/2) are compared as given.
func Minimize(cs []Constraint) Minimal {
	m := minimize(cs)
	if !m.contradicts() {
		return m
	}
	items, prove := distinct(cs), prover{}.budget(minimizeSteps)
	k, conflict, joint := blame(items, prove)
	if k < 0 {
		// Beyond what blame proves: the first condition that the minimal form made false, else
		// the last, with all the others.
		k = len(items) - 1
		if f := slices.IndexFunc(m.Constraints, func(c Constraint) bool { return c.Pred.IsFalse() }); f >= 0 {
			o := m.Constraints[f].Origin
			k = max(0, slices.IndexFunc(items, func(c Constraint) bool { return c.Origin.Node == o.Node && c.Origin.Why == o.Why }))
		}
		conflict = slices.Delete(slices.Clone(items), k, k+1)
		joint = len(conflict) > 1
	}
	out := Minimize(slices.DeleteFunc(slices.Clone(cs), func(c Constraint) bool { return c.Pred.Equal(items[k].Pred) }))
	switch {
	case out.Never != nil && len(out.Never.Conflict) > 0:
		// The others contradict without items[k] too: one Never is named, the other stays a
		// condition, so that the list still holds at no binding.
		out.Constraints = append(out.Constraints, out.Never.Constraint)
	case out.Never != nil:
		// One of the others never holds, alone: it stays the one condition, so that the list
		// still holds at no binding, and implies each of the others (W >= 3 beside an equation
		// that no H satisfies).
		implied := make([]Implied, 0, len(out.Constraints)+len(out.Implied))
		for _, c := range out.Constraints {
			implied = append(implied, Implied{Constraint: c, By: []int{0}})
		}
		for _, im := range out.Implied {
			implied = append(implied, Implied{Constraint: im.Constraint, By: []int{0}})
		}
		out.Constraints, out.Implied = []Constraint{out.Never.Constraint}, implied
	}
	out.Never = &ConstraintError{Constraint: items[k], Conflict: conflict, Joint: joint}
	return out
}

// Imply adds to Implied each condition of cs that Constraints imply and that is none of them nor
// of Implied already, with the fewest of Constraints that prove it (all of them where the proof
// passes the budget): the conditions as their nodes imposed them before a later substitution
// changed them (Solver.Replaced), so that the first condition a binding breaks, by Seq, is still
// at the node where a run stops. The caller knows that Constraints imply them; of conditions that
// no binding satisfies (Never), each is implied by the first.
func (m *Minimal) Imply(cs []Constraint) {
	if len(cs) == 0 || len(m.Constraints) == 0 {
		return
	}
	prove := prover{}.budget(minimizeSteps)
	ps := m.preds()
	for _, c := range cs {
		same := func(o Constraint) bool { return o.Origin.Node == c.Origin.Node && o.Pred.Equal(c.Pred) }
		if slices.ContainsFunc(m.Constraints, same) ||
			slices.ContainsFunc(m.Implied, func(im Implied) bool { return same(im.Constraint) }) {
			continue
		}
		by := []int{0}
		if m.Never == nil {
			by, _ = m.proofOf(ps, c.Pred, prove)
		}
		m.Implied = append(m.Implied, Implied{Constraint: c, By: by})
	}
}

// proofOf returns the fewest of m's Constraints that prove p (their indices), given ps, their
// predicates (preds); ok is false where all of them do not prove p within prove's budget, and by
// is then all of them.
func (m *Minimal) proofOf(ps []Pred, p Pred, prove func([]Pred, Pred) bool) (by []int, ok bool) {
	all := make([]int, len(m.Constraints))
	for i := range all {
		all[i] = i
	}
	if !prove(ps, p) {
		return all, false
	}
	return fewest(m.Constraints, all, func(rest []int) bool { return prove(predsOf(m.Constraints, rest), p) }), true
}

// preds returns the predicates of m's Constraints.
func (m *Minimal) preds() []Pred {
	out := make([]Pred, len(m.Constraints))
	for i, c := range m.Constraints {
		out[i] = c.Pred
	}
	return out
}

// contradicts reports whether no binding satisfies the conditions of m: one is false, or the
// bounds they give a symbol hold no value (narrowingAll).
func (m *Minimal) contradicts() bool {
	if slices.ContainsFunc(m.Constraints, func(c Constraint) bool { return c.Pred.IsFalse() }) {
		return true
	}
	_, empty := narrowingAll(All(m.Constraints))
	return empty
}

// blame returns the index of the first of items that cannot hold with those before it
// (contradiction), and the fewest of those it contradicts (all of them past 16), with whether
// they do only together (more than one); -1 when none is found.
func blame(items []Constraint, prove func([]Pred, Pred) bool) (int, []Constraint, bool) {
	for i, c := range items {
		set := make([]int, i)
		for k := range set {
			set[k] = k
		}
		if !contradiction(c.Pred, predsOf(items, set), prove) {
			continue
		}
		if contradiction(c.Pred, nil, prove) {
			return i, nil, false
		}
		set = fewest(items, set, func(rest []int) bool { return contradiction(c.Pred, predsOf(items, rest), prove) })
		conflict := make([]Constraint, len(set))
		for j, k := range set {
			conflict[j] = items[k]
		}
		return i, conflict, len(conflict) > 1
	}
	return -1, nil, false
}

// contradiction reports whether p cannot hold where the conditions before hold: the bounds they
// all give a symbol hold no value, or p under them (simplify) is false.
func contradiction(p Pred, before []Pred, prove func([]Pred, Pred) bool) bool {
	if _, empty := narrowingAll(And(append(slices.Clone(before), p)...)); empty {
		return true
	}
	return simplify(p, before, prove).IsFalse()
}

// distinct returns the constraints cs with equal conditions as one, at the first's place, naming
// the nodes of all.
func distinct(cs []Constraint) []Constraint {
	var items []Constraint
	for _, c := range cs {
		if c.Pred.IsTrue() {
			continue
		}
		if i := slices.IndexFunc(items, func(o Constraint) bool { return o.Pred.Equal(c.Pred) }); i >= 0 {
			items[i].Also = addOrigins(items[i].Also, items[i].Origin, c.Origins())
			continue
		}
		items = append(items, Constraint{Pred: c.Pred, Origin: c.Origin, Also: slices.Clone(c.Also)})
	}
	return items
}

// budget returns a proof of implication that spends at most steps in all (see prover.implied).
func (pv prover) budget(steps int) func([]Pred, Pred) bool {
	p := &pv
	return func(ps []Pred, q Pred) bool {
		if steps <= 0 {
			return false
		}
		p.steps = min(proofSteps, steps)
		ok := p.implied(ps, q)
		steps -= min(proofSteps, steps) - max(p.steps, 0)
		return ok
	}
}

// minimize is Minimize without Never: of conditions that no binding satisfies, the minimal form
// may be false.
func minimize(cs []Constraint) Minimal {
	prove := prover{}.budget(minimizeSteps)
	items := distinct(cs)
	orig := slices.Clone(items)
	// Each simplified, in turn, under the others of its node and of the nodes before it (of a Seq
	// no greater): where those hold, it is the same condition, and where one of them does not, a
	// run stops at its node first. Each step keeps the conjunction of the conditions of every Seq
	// the same.
	for i := range items {
		var before []Pred
		for k := range items {
			if k != i && items[k].Origin.Seq <= items[i].Origin.Seq {
				before = append(before, items[k].Pred)
			}
		}
		items[i].Pred = simplify(items[i].Pred, before, prove)
	}
	// The hardest to read first, and of equally hard ones the first: implied by the rest, it goes.
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	size := make([]int, len(items))
	for i, c := range items {
		size[i] = predSize(c.Pred)
	}
	slices.SortStableFunc(order, func(a, b int) int { return -cmp.Compare(size[a], size[b]) })
	// Two the same under the conditions before them (a Split's need and a pooling's after it) are
	// one, at the first node, where a run stops first.
	kept := make([]bool, len(items))
	for i := range kept {
		kept[i] = !slices.ContainsFunc(items[:i], func(c Constraint) bool { return c.Pred.Equal(items[i].Pred) })
	}
	for _, i := range order {
		if !kept[i] {
			continue
		}
		kept[i] = false
		if _, ok := impliedBy(items, kept, i, items[i].Pred, prove); !ok {
			kept[i] = true
		}
	}
	// The conditions of one symbol kept together, as one where that reads more simply (H >= 13 and
	// H <= 4 || H in 13..16 are H in 13..16), named by all their nodes (absorb): where it does not
	// hold, one of them does not, and the conditions gone keep their own nodes. Plain bounds of
	// several nodes stay apart (see apart): a Conv's H >= 5 and a Cast's H <= 17179869180, not H in
	// 5..17179869180, which would read as the Conv's or the Cast's alone.
	var names []string
	bySym := map[string][]int{}
	for i, c := range items {
		if ns := c.Pred.SymbolNames(); kept[i] && len(ns) == 1 && total(c.Pred) {
			if _, ok := bySym[ns[0]]; !ok {
				names = append(names, ns[0])
			}
			bySym[ns[0]] = append(bySym[ns[0]], i)
		}
	}
	for _, name := range names {
		ks := bySym[name]
		if len(ks) < 2 || apart(items, ks) {
			continue
		}
		sum := 0
		for _, k := range ks {
			sum += predSize(items[k].Pred)
		}
		one := readable(And(predsOf(items, ks)...), nil, prove)
		if predSize(one) >= sum {
			continue
		}
		last := ks[len(ks)-1]
		items[last].Pred = one
		for _, k := range ks[:len(ks)-1] {
			kept[k] = false
		}
	}
	items, orig, kept = substFixed(items, orig, kept)
	var m Minimal
	index := make([]int, len(items))
	from := make([]int, 0, len(items)) // the index in items of each condition kept: index's inverse
	for i, c := range items {
		index[i] = -1
		if kept[i] {
			index[i] = len(m.Constraints)
			from = append(from, i)
			m.Constraints = append(m.Constraints, c)
		}
	}
	// What implies each condition gone, as it was given: the fewest of the conditions kept that
	// prove it (all of them, which imply it, when the proof passes the budget). A condition that
	// one kept implies, and that implies it, is the same condition: its nodes join the kept one's.
	joined := make([][]Constraint, len(m.Constraints)) // the conditions each kept one says, of other nodes
	for i := range items {
		if kept[i] {
			continue
		}
		by, ok := impliedBy(items, kept, i, orig[i].Pred, prove)
		if !ok {
			by = nil
			for k := range items {
				if kept[k] {
					by = append(by, k)
				}
			}
		}
		by = fewest(items, by, func(rest []int) bool { return prove(predsOf(items, rest), orig[i].Pred) })
		if len(by) == 1 && total(orig[i].Pred) && prove([]Pred{orig[i].Pred}, items[by[0]].Pred) {
			k := index[by[0]]
			also := addOrigins(nil, orig[i].Origin, orig[i].Also)
			if i < by[0] {
				m.Constraints[k].Also = addOrigins(also, orig[i].Origin, m.Constraints[k].Origins())
				m.Constraints[k].Origin = orig[i].Origin
			} else {
				m.Constraints[k].Also = addOrigins(m.Constraints[k].Also, m.Constraints[k].Origin, append([]Origin{orig[i].Origin}, also...))
			}
			joined[k] = append(joined[k], orig[i])
			continue
		}
		im := Implied{Constraint: orig[i], By: make([]int, len(by))}
		for k, j := range by {
			im.By[k] = index[j]
		}
		m.Implied = append(m.Implied, im)
	}
	m.absorb(orig, from, joined, prove)
	// In the order of the first node of each, and of one node in canonical order.
	perm := make([]int, len(m.Constraints))
	for k := range perm {
		perm[k] = k
	}
	slices.SortStableFunc(perm, func(a, b int) int {
		return cmp.Or(cmp.Compare(m.Constraints[a].Origin.Seq, m.Constraints[b].Origin.Seq), cmpPred(m.Constraints[a].Pred, m.Constraints[b].Pred))
	})
	at := make([]int, len(perm))
	sorted := make([]Constraint, len(perm))
	for k, j := range perm {
		at[j], sorted[k] = k, m.Constraints[j]
	}
	m.Constraints = sorted
	for _, im := range m.Implied {
		for k, j := range im.By {
			im.By[k] = at[j]
		}
		slices.Sort(im.By)
	}
	return m
}

// absorb names, on each condition kept (at k of Constraints, orig[from[k]] as given), the nodes
// of the conditions of Implied that it is needed for and that its own nodes' conditions as given
// do not imply with the others that prove them: conditions of other nodes whose meaning simplify,
// or the merge of one symbol's conditions, put in it (a Split's H % 2 == 0 in H % 6 == 0, kept at
// a Reshape whose own condition is H % 3 == 0). Such a condition is Merged: its origins in the
// order of their Seq, the first first, and each node's own condition in Implied, its own as given
// and those that joined it (equal to it, of other nodes) too.
func (m *Minimal) absorb(orig []Constraint, from []int, joined [][]Constraint, prove func([]Pred, Pred) bool) {
	shares := func(a, b Constraint) bool {
		return slices.ContainsFunc(a.Origins(), func(o Origin) bool {
			return slices.ContainsFunc(b.Origins(), func(x Origin) bool { return x.Node == o.Node })
		})
	}
	// The conditions as given of the nodes of each kept one's own, once they are needed: never
	// none, as its own is one of them.
	var nodes [][]Pred
	for _, im := range m.Implied {
		for _, k := range im.By {
			own := orig[from[k]]
			if own.Pred.Equal(m.Constraints[k].Pred) || shares(own, im.Constraint) {
				continue
			}
			if nodes == nil {
				nodes = make([][]Pred, len(m.Constraints))
			}
			if nodes[k] == nil {
				for _, c := range orig {
					if shares(own, c) {
						nodes[k] = append(nodes[k], c.Pred)
					}
				}
			}
			var ps []Pred
			for _, j := range im.By {
				if j != k {
					ps = append(ps, m.Constraints[j].Pred)
				}
			}
			ps = append(ps, nodes[k]...)
			if prove(ps, im.Pred) {
				continue
			}
			m.Constraints[k].Also = addOrigins(m.Constraints[k].Also, m.Constraints[k].Origin, im.Origins())
			m.Constraints[k].Merged = true
		}
	}
	var ps []Pred // the predicates of Constraints, which absorbing leaves as they are
	for k := range m.Constraints {
		c := &m.Constraints[k]
		if !c.Merged {
			continue
		}
		if ps == nil {
			ps = m.preds()
		}
		// Its own condition reads otherwise (else it would imply what it absorbed), and those
		// joined to it, however they read, are each their node's.
		for _, own := range append([]Constraint{orig[from[k]]}, joined[k]...) {
			by, _ := m.proofOf(ps, own.Pred, prove)
			m.Implied = append(m.Implied, Implied{Constraint: own, By: by})
		}
		os := c.Origins()
		slices.SortStableFunc(os, func(a, b Origin) int { return cmp.Compare(a.Seq, b.Seq) })
		c.Origin, c.Also = os[0], os[1:]
	}
}

// substFixed returns the conditions with the value of each symbol that a condition kept fixes
// (T == 10) put in the other conditions kept where that makes them simpler (T*B == 20 is B == 2):
// the condition rewritten is kept, the one given goes, implied by the two. Where the fixing
// condition holds, the two are the same. The one rewritten is at the later of their nodes: of a
// fixing node after the condition's (B == 2 at the Add of T == 10), a binding that breaks it and
// not the condition given breaks the fixing condition there, and its Why names the condition's
// node ("the volume: [T,B,64] to [10,8,16] (/attn/Reshape) with T == 10"); one that breaks the
// condition given stops a run at its node, which Implied keeps.
func substFixed(items, orig []Constraint, kept []bool) ([]Constraint, []Constraint, []bool) {
	for j := range items {
		if !kept[j] || !total(items[j].Pred) || len(items[j].Pred.SymbolNames()) != 1 {
			continue
		}
		sub, empty := narrowing(items[j].Pred)
		name := items[j].Pred.SymbolNames()[0]
		x, ok := sub[name]
		if empty || !ok || x.t[0].m[0].a.lo != x.t[0].m[0].a.hi {
			continue
		}
		v := x.t[0].m[0].a.lo
		for i := range items {
			if i == j || !kept[i] || !total(items[i].Pred) || !slices.Contains(items[i].Pred.SymbolNames(), name) {
				continue
			}
			q := substValue(items[i].Pred, name, v)
			if q.IsTrue() || q.IsFalse() || predSize(q) >= predSize(items[i].Pred) {
				continue
			}
			kept[i] = false
			if k := slices.IndexFunc(items, func(c Constraint) bool { return c.Pred.Equal(q) }); k >= 0 && kept[k] {
				continue // a condition kept says it already
			}
			c := Constraint{Pred: q, Origin: items[i].Origin, Also: slices.Clone(items[i].Also)}
			if o := items[j].Origin; o.Seq > c.Origin.Seq {
				// At the fixing node, where a binding that breaks q and not the condition given
				// stops a run: what it says, with the value.
				c = Constraint{Pred: q, Origin: Origin{Node: o.Node, Op: o.Op, Seq: o.Seq,
					Why: items[i].Origin.Why + " (" + items[i].Origin.Node + ") with " + items[j].Pred.String()}}
			}
			items, orig, kept = append(items, c), append(orig, c), append(kept, true)
		}
	}
	return items, orig, kept
}

// addOrigins returns also with the origins os appended, less those whose node is first's or one
// of also's already.
func addOrigins(also []Origin, first Origin, os []Origin) []Origin {
	for _, o := range os {
		if o.Node != first.Node && !slices.ContainsFunc(also, func(x Origin) bool { return x.Node == o.Node }) {
			also = append(also, o)
		}
	}
	return also
}

// impliedBy reports whether the conditions kept, less i, imply q (condition i), trying the fewest
// first: none (it always holds), the comparisons of its symbols, all; by lists those the proof
// used.
func impliedBy(items []Constraint, kept []bool, i int, q Pred, prove func([]Pred, Pred) bool) (by []int, ok bool) {
	if prove(nil, q) {
		return nil, true
	}
	names := q.SymbolNames()
	var near, all []int
	for k, c := range items {
		if !kept[k] || k == i {
			continue
		}
		all = append(all, k)
		if c.Pred.kind() == pCmp && slices.ContainsFunc(c.Pred.SymbolNames(), func(n string) bool { return slices.Contains(names, n) }) {
			near = append(near, k)
		}
	}
	if len(near) > 0 && prove(predsOf(items, near), q) {
		return near, true
	}
	if len(all) > len(near) && prove(predsOf(items, all), q) {
		return all, true
	}
	return nil, false
}

// fewest returns the conditions of set (indices in items) for which enough still holds when each
// of the others, the hardest first, is left out: that they prove a condition, or contradict one.
func fewest(items []Constraint, set []int, enough func(rest []int) bool) []int {
	set = slices.Clone(set)
	if len(set) <= 1 || len(set) > 16 {
		return set
	}
	byHard := slices.Clone(set)
	slices.SortStableFunc(byHard, func(a, b int) int { return -cmp.Compare(predSize(items[a].Pred), predSize(items[b].Pred)) })
	for _, k := range byHard {
		rest := slices.DeleteFunc(slices.Clone(set), func(j int) bool { return j == k })
		if enough(rest) {
			set = rest
		}
	}
	return set
}

func predsOf(items []Constraint, set []int) []Pred {
	out := make([]Pred, len(set))
	for i, k := range set {
		out[i] = items[k].Pred
	}
	return out
}

// apart reports whether the conditions ks of items are plain bounds of a symbol by constants (H >=
// 5, H <= 64) of more than one node, which read as they are, each at its node with its reason.
func apart(items []Constraint, ks []int) bool {
	for _, k := range ks {
		l, b, ok := atomOf(items[k].Pred)
		if _, _, sym := l.Symbol(); !ok || !sym || b.kind != lower && b.kind != upper {
			return false
		}
	}
	return slices.ContainsFunc(ks, func(k int) bool { return items[k].Origin.Node != items[ks[0]].Origin.Node })
}

// simplify returns p under the conditions before it: with each symbol's bounds narrowed to those
// they give (comparisons of a symbol alone, and products: see narrowed), a condition of one
// symbol in the simplest form that holds with them where p does (readable), and an equation of
// several symbols that they are proven to contradict false.
func simplify(p Pred, before []Pred, prove func([]Pred, Pred) bool) Pred {
	if !total(p) {
		if p = narrowPartial(p, before, prove); !total(p) {
			// Its canonical form may have another value where it has none; a form of the values
			// it holds at, proven equal, has none ((T//3)/4 % 3 == 0 is T % 36 in {0, 1, 2}).
			if len(p.SymbolNames()) == 1 {
				if q := readable(p, before, prove); total(q) {
					return q
				}
			}
			return p
		}
	}
	if len(before) > 0 {
		if q, ok := narrowUnder(And(before...), p); ok {
			p = q
		}
	}
	switch names := p.SymbolNames(); {
	case len(names) == 1:
		p = readable(p, before, prove)
	case p.kind() == pCmp && p.n.op == OpEq && prove(before, Not(p)):
		// An equation of several symbols that no binding satisfies where those before hold (a
		// volume of odd factors equal to one of 8: 4*T*H*W+3*W == 8*T*H*(W//2)+2 by W's parity).
		return False()
	case len(names) > 1:
		p = severalSymbols(p, before, prove)
	}
	return p
}

// narrowPartial returns p, a condition that is not total, with each of its comparisons that is
// not total narrowed under the bounds of the conditions before and of the comparisons of one
// symbol beside it in its conjunctions (narrowUnder), where it has a value wherever they hold
// (definedUnder: each divisor proven not 0) and becomes total: under W >= 4 and H >= 7, (16*N*A*B-
// 64*N*B*min(A-1,1)+48*N*B) % (4*N*A*B-4*N*B) == 0 with A = (9*W+30)//32 and B = (H+1)//8 is
// true. Equal to p wherever the conditions before hold.
func narrowPartial(p Pred, before []Pred, prove func([]Pred, Pred) bool) Pred {
	switch p.kind() {
	case pConst:
		return p
	case pCmp:
		if total(p) || len(before) == 0 {
			return p
		}
		same := func(string) (Expr, bool) { return Expr{}, false }
		provenNonZero := func(d Expr) bool { return nonZero(d) || d.total() && prove(before, Ne(d, Expr{})) }
		if !definedUnder(p, same, provenNonZero) {
			return p
		}
		q, ok := narrowUnder(And(before...), p)
		if ok && !total(q) {
			q, ok = reduced(q, nil) // 0 % d, where d is not 0
		}
		if ok && total(q) {
			return q
		}
		return p
	}
	args := slices.Clone(p.n.args)
	under := before
	if p.kind() == pAnd {
		for _, a := range args {
			if a.kind() == pCmp && len(a.SymbolNames()) == 1 && total(a) {
				under = append(slices.Clip(under), a)
			}
		}
	}
	for i, a := range args {
		args[i] = narrowPartial(a, under, prove)
	}
	if p.kind() == pAnd {
		return And(args...)
	}
	return Or(args...)
}

// narrowUnder returns p with each symbol's bounds narrowed to those the conjunction e gives it
// (narrowing, and leastValues), in the original symbols again: equal to p wherever e holds.
func narrowUnder(e, p Pred) (Pred, bool) {
	sub := map[string]Expr{}
	for range 4 {
		e = leastValues(e)
		s, empty := narrowing(e)
		if empty || len(s) == 0 {
			break
		}
		for name, x := range s {
			sub[name] = x
		}
		q, ok := e.Subst(func(name string) (Expr, bool) { x, ok := s[name]; return x, ok })
		if !ok {
			break
		}
		e = q
	}
	if len(sub) == 0 {
		return p, false
	}
	orig := symbolAtoms(p)
	q, ok := p.Subst(func(name string) (Expr, bool) { x, ok := sub[name]; return x, ok })
	if !ok {
		return p, false
	}
	back, ok := q.Subst(func(name string) (Expr, bool) {
		a, ok := orig[name]
		if !ok {
			return Expr{}, false
		}
		return fromAtom(a), true
	})
	if !ok || back.IsFalse() {
		return p, false
	}
	return back, true
}

// leastValues returns the conjunction e with a bound for each symbol x of a term of one symbol
// that fails at x's least values, or at its greatest: the first value, of the next few, at which
// it holds (H % 6 <= 1 beside H >= 2 gives H >= 6, which narrowing does not find).
func leastValues(e Pred) Pred {
	const steps = 16
	var extra []Pred
	for _, t := range e.Terms() {
		syms := symbolAtoms(t)
		if len(syms) != 1 || !total(t) {
			continue
		}
		for _, a := range syms {
			at := func(v int64) bool {
				return t.holds(func(string) (int64, bool) { return v, true })
			}
			if a.lo != NegInf {
				v := a.lo
				for v-a.lo < steps && v < a.hi && !at(v) {
					v++
				}
				if v > a.lo {
					extra = append(extra, Ge(fromAtom(a), Int(v)))
				}
			}
			if a.hi != Inf {
				v := a.hi
				for a.hi-v < steps && v > a.lo && !at(v) {
					v--
				}
				if v < a.hi {
					extra = append(extra, Le(fromAtom(a), Int(v)))
				}
			}
		}
	}
	if len(extra) == 0 {
		return e
	}
	return And(append(extra, e)...)
}

// readable returns p, a condition on one symbol (total, or one simplify needs a total form of), in
// the simplest form (simpler) that holds
// where p does wherever the conditions before hold: a form of the values p holds at (see
// iset.preds), or of those it holds at among the values the conditions before leave, which makes
// those conditions implied where they say less; p with the minima and maxima its conjuncts decide
// settled (T >= 5 && min(T-(T+1)//2,1)*((T+1)//2) % 3 == 0 is T >= 5 && (T+1)//2 % 3 == 0); and
// where none of those is simpler, each of its parts so (eachPart: T in 3..110 && (T+1)//2 % 2 ==
// 0 || T >= 111 && (T+1)//4 % 2 == 0 is T in 3..110 && T % 4 in {0, 3} || T >= 111 && T % 8 in
// {0, 1, 2, 7}).
func readable(p Pred, before []Pred, prove func([]Pred, Pred) bool) Pred {
	var x *atom
	for _, a := range symbolAtoms(p) {
		x = a
	}
	if x == nil || x.lo == NegInf {
		return p
	}
	xe := fromAtom(x)
	var dom []Pred // the conditions before on x alone
	for _, b := range before {
		for _, t := range b.Terms() {
			if names := t.SymbolNames(); len(names) == 1 && names[0] == x.name && total(t) {
				dom = append(dom, t)
			}
		}
	}
	best := p
	// try takes the simplest form of the values at which set holds that is proven equal to set
	// where the premises hold: computed exactly (affineSet) where there are none, or guessed and
	// proven.
	try := func(set Pred, premises []Pred) {
		s, exact := iset{}, false
		if len(premises) == 0 {
			s, exact = affineSet(set, x, x.lo, x.hi)
		}
		if !exact {
			var ok bool
			if s, _, ok = guessSet(set, x, x.lo, x.hi); !ok {
				return
			}
		}
		for _, c := range append(s.preds(xe), s.factored(xe)...) {
			if !simpler(c, best) {
				continue
			}
			if exact || prove(append(slices.Clone(premises), set), c) && prove(append(slices.Clone(premises), c), set) ||
				!total(set) && sameValues(And(append(slices.Clone(premises), set)...), And(append(slices.Clone(premises), c)...), x) {
				best = c
			}
		}
	}
	q := settled(p, prove)
	if simpler(q, best) {
		best = q
	}
	try(q, nil)
	if len(dom) > 0 {
		try(settled(And(append(dom, p)...), prove), dom)
	}
	if best.Equal(p) && (p.kind() == pAnd || p.kind() == pOr) {
		if q := eachPart(p, before, prove); simpler(q, best) {
			best = q
		}
	}
	return best
}

// settled returns p with each minimum and maximum that the conjuncts of p without one decide
// (with the symbols' bounds) replaced by the argument it is: under T >= 5, min(T-(T+1)//2,1) is
// 1. Equal to p: where those conjuncts hold, each is that argument, and where one fails, p fails.
func settled(p Pred, prove func([]Pred, Pred) bool) Pred {
	var facts []Pred
	for _, t := range p.Terms() {
		if extremumAtom(t) == nil && total(t) {
			facts = append(facts, t)
		}
	}
	for range maxSettled {
		a, x := settledAtom(p, facts, prove)
		if a == nil {
			break
		}
		q, ok := replaceAtom(p, a, x)
		if !ok {
			break
		}
		p = q
	}
	return p
}

// maxSettled bounds the minima and maxima settled replaces in one condition.
const maxSettled = 8

// settledAtom returns a minimum or maximum of p, innermost first, and the argument it is wherever the
// facts hold (each other argument proven no less, for a minimum, or no greater); nil when the
// facts decide none.
func settledAtom(p Pred, facts []Pred, prove func([]Pred, Pred) bool) (*atom, Expr) {
	var exts []*atom
	walkAtoms(p, func(a *atom) {
		if a.kind == minAtom || a.kind == maxAtom {
			exts = append(exts, a)
		}
	})
	for _, a := range exts {
		for i, x := range a.args {
			least := true
			for j, y := range a.args {
				if j == i {
					continue
				}
				c := Le(x, y)
				if a.kind == maxAtom {
					c = Ge(x, y)
				}
				if least = prove(facts, c); !least {
					break
				}
			}
			if least {
				return a, x
			}
		}
	}
	return nil, Expr{}
}

// sameValues reports whether p and q, conditions of the symbol x alone, are proven to hold at the
// same values of x: each set found by periodicSet, exactly, and the two compared over the values
// from x's least to where both repeat (one period of both past the later start). For a condition
// with an exact quotient, which the prover leaves out of its premises: (T//3)/4 % 3 == 0 and
// T % 36 in {0, 1, 2} hold at the same T.
func sameValues(p, q Pred, x *atom) bool {
	a, _, ok1 := periodicSet(p, x, x.lo, x.hi)
	b, _, ok2 := periodicSet(q, x, x.lo, x.hi)
	if !ok1 || !ok2 {
		return false
	}
	top := max(a.from, b.from, x.lo)
	if top != Inf && a.mod > 0 && b.mod > 0 {
		span := lcm(a.mod, b.mod)
		if span > guessLimit || top-x.lo > guessLimit {
			return false
		}
		top += span
	}
	if x.hi != Inf {
		top = min(top, x.hi)
	}
	if top == Inf || top-x.lo > 2*guessLimit {
		return false
	}
	for v := x.lo; v <= top; v++ {
		if a.has(v) != b.has(v) {
			return false
		}
	}
	return true
}
