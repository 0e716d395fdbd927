package fix

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/reshape-go/reshape/sym"
)

// An alignment says which input dims each value of a Reshape's pattern stands for, as the view rule
// groups them: the input and output dims fall into consecutive groups of equal volume. A group is
// one of:
//   - a static stretch: static input dims beside static pattern values (a literal value, or a 0
//     that copies a static dim), of equal products, either side possibly empty for unit axes
//     ([21] beside [3,7], [] beside [1]);
//   - a pair: one literal pattern value beside one or more symbolic input dims and no static one,
//     ([N] beside [1], [(H+1)//2] beside [8]): the value stands for the product of those dims,
//     which equals it where the constant came from. These are the baked values;
//   - a mixed group, searched for only when no alignment of the kinds above can hold: static
//     pattern values, at least one a literal, beside input dims of which at least one is
//     symbolic, of equal products, where the values split and merge the dims (torch's
//     nn.MultiheadAttention at B=2: [B,64] beside [8,16], the 64 split into 4 heads of 16 and the
//     heads merged with the batch). Which part of the dims each value stands for follows from the
//     values the dims take at the export binding (pair.read);
//   - a symbolic value: a pattern value that is an expression (a computed pattern, or a 0 that
//     copies a symbolic dim) beside input dims whose product is that expression;
//   - the -1: any input dims, their product inferred.
//
// A pattern may align in several ways ([N,3] beside [1,1,3]: the N is either 1): align finds every
// one, and the caller keeps those that can hold and refuses a choice.

// pair is a group of baked values of an alignment: pattern[out] to pattern[outHi-1], of product
// value, stand for input dims lo to hi-1. A pair proper has one value (outHi = out+1) beside
// symbolic dims only; a mixed group is the other kind.
type pair struct {
	out, outHi, lo, hi int
	value              int64
	mixed              bool
}

// An alignment is the pairs of one way of aligning a pattern with its input.
type alignment []pair

func (a alignment) key() string {
	var b strings.Builder
	for _, p := range a {
		fmt.Fprintf(&b, "%d-%d:%d-%d,", p.out, p.outHi, p.lo, p.hi)
	}
	return b.String()
}

// mixed reports whether a has a mixed group.
func (a alignment) mixed() bool { return slices.ContainsFunc(a, func(p pair) bool { return p.mixed }) }

// The kinds of the tokens of an alignment: an input dim or a pattern value.
type tokKind uint8

const (
	tokStatic  tokKind = iota // an integer: a static dim, a literal value or a 0 that copies a static dim
	tokLiteral                // a literal pattern value of at least 1, which may be baked
	tokSym                    // an expression in named symbols
	tokMinus                  // the -1 of a pattern
)

type token struct {
	kind tokKind
	n    int64    // tokStatic, tokLiteral
	e    sym.Expr // tokSym
	d    sym.Dim  // tokSym: its bounds
}

// maxAlignments and alignBudget bound the search: the distinct alignments it keeps, and the steps
// it takes.
const (
	maxAlignments = 8
	alignBudget   = 1 << 16
)

// align returns the alignments of the pattern values pat with the input dims in (see alignment),
// those with pairs and those without, distinct by their pairs; with mixed, those with mixed groups
// too. With allowzero false a 0 copies the input dim at its index. why says why there is none: a
// dim or value that is not known (an interval), a literal 0 with allowzero, or no way to align
// them; or that there are too many.
func align(in, pat []sym.Dim, allowzero, mixed bool) (alns []alignment, why string) {
	ins := make([]token, len(in))
	for i, d := range in {
		t, ok := dimToken(d)
		if !ok {
			return nil, fmt.Sprintf("input dim %d is %s: not known", i, d)
		}
		ins[i] = t
	}
	outs := make([]token, len(pat))
	for o, v := range pat {
		n, static := v.Static()
		switch {
		case static && n == -1:
			outs[o] = token{kind: tokMinus}
		case static && n == 0 && !allowzero:
			if o >= len(in) {
				return nil, fmt.Sprintf("pattern[%d] = 0 copies no input dim (rank %d)", o, len(in))
			}
			outs[o] = ins[o]
		case static && n == 0:
			return nil, fmt.Sprintf("pattern[%d] = 0 is a literal 0 (allowzero=1): the output is empty", o)
		case static && n > 0:
			outs[o] = token{kind: tokLiteral, n: n}
		case static:
			return nil, fmt.Sprintf("pattern[%d] = %d is not a dim", o, n)
		default:
			t, ok := dimToken(v)
			if !ok {
				return nil, fmt.Sprintf("pattern[%d] is %s: not known", o, v)
			}
			outs[o] = t
		}
	}
	s := &aligner{in: ins, out: outs, mixed: mixed, budget: alignBudget, seen: map[string]bool{}}
	s.search(0, 0, false, nil)
	switch {
	case s.budget < 0 || len(s.found) > maxAlignments:
		return nil, fmt.Sprintf("the pattern aligns with the input in more than %d ways", maxAlignments)
	case len(s.found) == 0:
		return nil, "no value of the pattern stands for whole input dims: it splits or merges symbolic dims"
	}
	return s.found, ""
}

// dimToken returns the token of a dim: static, or an expression in named symbols; ok is false for a
// dim known only by its bounds.
func dimToken(d sym.Dim) (token, bool) {
	if n, ok := d.Static(); ok {
		return token{kind: tokStatic, n: n}, true
	}
	if e, ok := d.Expr(); ok && d.Determined() {
		return token{kind: tokSym, e: e, d: d}, true
	}
	return token{}, false
}

type aligner struct {
	in, out []token
	mixed   bool // search for mixed groups too
	budget  int
	found   []alignment
	seen    map[string]bool
}

// search aligns in[i:] with out[o:], the pairs so far in pairs; stretched says the group before
// was a static stretch, so that the next is not one (two stretches in a row are one).
func (s *aligner) search(i, o int, stretched bool, pairs alignment) {
	s.budget--
	if s.budget < 0 || len(s.found) > maxAlignments {
		return
	}
	if i == len(s.in) && o == len(s.out) {
		if k := pairs.key(); !s.seen[k] {
			s.seen[k] = true
			s.found = append(s.found, slices.Clone(pairs))
		}
		return
	}
	if o < len(s.out) {
		switch t := s.out[o]; t.kind {
		case tokMinus:
			for j := i; j <= len(s.in); j++ {
				s.search(j, o+1, false, pairs)
			}
		case tokLiteral:
			// A pair: symbolic input dims only, whose product may be the value.
			prod := sym.Int(1)
			for j := i; j < len(s.in) && s.in[j].kind == tokSym; j++ {
				var ok bool
				if prod, ok = sym.Mul(prod, s.in[j].e); !ok {
					break
				}
				if lo, hi := prod.Bounds(); lo <= t.n && t.n <= hi {
					s.search(j+1, o+1, false, append(pairs, pair{out: o, outHi: o + 1, lo: i, hi: j + 1, value: t.n}))
				}
			}
		case tokSym:
			prod := sym.Int(1)
			for j := i; j < len(s.in); j++ {
				f := sym.Int(s.in[j].n)
				if s.in[j].kind == tokSym {
					f = s.in[j].e
				}
				var ok bool
				if prod, ok = sym.Mul(prod, f); !ok {
					break
				}
				if prod.Equal(t.e) {
					s.search(j+1, o+1, false, pairs)
				}
			}
		}
	}
	if s.mixed {
		s.mixedGroups(i, o, pairs)
	}
	if stretched {
		return
	}
	// A static stretch: a static input dims and b static pattern values of equal products.
	pin := int64(1)
	for a := 0; ; a++ {
		pout := int64(1)
		for b := 0; o+b <= len(s.out); b++ {
			if a+b > 0 && pin == pout {
				s.search(i+a, o+b, true, pairs)
			}
			if o+b == len(s.out) || !isStatic(s.out[o+b]) {
				break
			}
			var ok bool
			if pout, ok = mul(pout, s.out[o+b].n); !ok {
				break
			}
		}
		if i+a == len(s.in) || s.in[i+a].kind != tokStatic {
			return
		}
		var ok bool
		if pin, ok = mul(pin, s.in[i+a].n); !ok {
			return
		}
	}
}

// mixedGroups goes on with the mixed groups at in[i:], out[o:]: static values out[o:p], at least
// one a literal, beside dims in[i:j], at least one symbolic, whose products may be equal; not a
// pair proper (one literal beside symbolic dims only), which search finds already.
func (s *aligner) mixedGroups(i, o int, pairs alignment) {
	pout, literal := int64(1), false
	for p := o; p < len(s.out) && isStatic(s.out[p]); p++ {
		var ok bool
		if pout, ok = mul(pout, s.out[p].n); !ok {
			return
		}
		literal = literal || s.out[p].kind == tokLiteral
		if !literal {
			continue
		}
		prod, symbolic, static := sym.Int(1), false, false
		for j := i; j < len(s.in); j++ {
			f := sym.Int(s.in[j].n)
			if s.in[j].kind == tokSym {
				f, symbolic = s.in[j].e, true
			} else {
				static = true
			}
			if prod, ok = sym.Mul(prod, f); !ok {
				break
			}
			if !symbolic || p == o && !static {
				continue
			}
			if lo, hi := prod.Bounds(); lo <= pout && pout <= hi {
				s.search(j+1, p+1, false, append(pairs, pair{out: o, outHi: p + 1, lo: i, hi: j + 1, value: pout, mixed: true}))
			}
		}
	}
}

func isStatic(t token) bool { return t.kind == tokStatic || t.kind == tokLiteral }

// mul returns a*b for non-negative a and b; ok is false when it overflows int64.
func mul(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > 1<<63-1 {
		return 0, false
	}
	return int64(lo), true
}

// equations returns the conditions of an alignment's pairs on the symbols: each value equals the
// product of the input dims it stands for (N == 1, (H+1)//2 == 8), in the notation of sym.Pred.
func (a alignment) equations(in []sym.Dim) []sym.Pred {
	out := make([]sym.Pred, len(a))
	for k, p := range a {
		out[k] = sym.Eq(product(in[p.lo:p.hi]), sym.Int(p.value))
	}
	return out
}

// product returns the product of dims that are integers or expressions (those align accepts).
func product(dims []sym.Dim) sym.Expr {
	d := sym.Const(1)
	for _, x := range dims {
		d = sym.MulDims(d, x)
	}
	e, _ := d.Expr()
	return e
}

// describe returns what the pairs of a say: "pattern[0] = 1 is N, pattern[3] = 8 is (H+1)//2",
// "pattern[1:3], of product 128, is B*64".
func (a alignment) describe(in []sym.Dim) string {
	parts := make([]string, len(a))
	for k, p := range a {
		if p.mixed {
			parts[k] = fmt.Sprintf("pattern[%d:%d], of product %d, is %s", p.out, p.outHi, p.value, product(in[p.lo:p.hi]))
		} else {
			parts[k] = fmt.Sprintf("pattern[%d] = %d is %s", p.out, p.value, product(in[p.lo:p.hi]))
		}
	}
	return strings.Join(parts, ", ")
}

// maxAssignments bounds the ways read tries to place the symbolic factors of one dim.
const maxAssignments = 1 << 12

// read returns what each value of the mixed group p stands for (its expression in the symbols of
// the input dims in), from the values values of the group and those its dims take at the export
// binding b: both sides cut into the same runs of atoms, from their products of inner dims
// ([2,64] and [8,16] into 2, 4, 16), a symbolic dim's factors (B, of 4*B) placed in its atoms,
// the coefficient in the rest. Where several placements fit, one that gives a factor an atom of its
// own (the 2 of 4*B is B, the 4 the coefficient) is taken when it is the only one. why says why
// there is no reading: a dim or factor that is not bound, or is 1 at b (its place the sizes do not
// tell), atoms that do not cut both sides, or several placements.
func (p pair) read(in []sym.Dim, values []int64, b map[string]int64) (out []sym.Expr, why string) {
	value := func(name string) (int64, bool) { v, ok := b[name]; return v, ok }
	type dim struct {
		coef    int64
		factors []sym.Expr
		fv      []int64 // the factors' values at b
		n       int64   // the dim's value at b
	}
	dims := make([]dim, p.hi-p.lo)
	for k := range dims {
		e, _ := in[p.lo+k].Expr()
		d := dim{n: 1}
		var ok bool
		if d.coef, d.factors, ok = e.Monomial(); !ok {
			d.coef, d.factors = 1, []sym.Expr{e}
		}
		d.n = d.coef
		for _, f := range d.factors {
			v, err := f.Eval(value)
			switch {
			case err != nil:
				return nil, fmt.Sprintf("%s is not known at the export binding", f)
			case v == 1:
				return nil, fmt.Sprintf("%s is 1 at the export binding, so that its sizes do not tell which values stand for it", f)
			case v < 1:
				return nil, fmt.Sprintf("%s is %d at the export binding", f, v)
			}
			d.fv = append(d.fv, v)
			if d.n, ok = mul(d.n, v); !ok {
				return nil, "the dims' volume overflows at the export binding"
			}
		}
		dims[k] = d
	}
	// The cut points: the products of the inner dims of either side, ascending.
	cuts := []int64{1}
	inCuts, outCuts := make([]int64, len(dims)+1), make([]int64, len(values)+1)
	inCuts[len(dims)], outCuts[len(values)] = 1, 1
	for k := len(dims) - 1; k >= 0; k-- {
		inCuts[k], _ = mul(inCuts[k+1], dims[k].n)
	}
	for k := len(values) - 1; k >= 0; k-- {
		outCuts[k], _ = mul(outCuts[k+1], values[k])
	}
	if inCuts[0] != outCuts[0] {
		return nil, fmt.Sprintf("the dims' volume at the export binding is %d, the values' %d", inCuts[0], outCuts[0])
	}
	for _, c := range append(slices.Clone(inCuts), outCuts...) {
		if !slices.Contains(cuts, c) {
			cuts = append(cuts, c)
		}
	}
	slices.Sort(cuts)
	for m := 1; m < len(cuts); m++ {
		if cuts[m]%cuts[m-1] != 0 {
			return nil, fmt.Sprintf("the values split the dims across each other at the export binding (products of inner dims %d and %d)", cuts[m-1], cuts[m])
		}
	}
	// atom[m] is the expression of the run of the group between cuts[m] and cuts[m+1].
	atom := make([]sym.Expr, len(cuts)-1)
	for k, d := range dims {
		first, last := slices.Index(cuts, inCuts[k+1]), slices.Index(cuts, inCuts[k])
		exprs, why := place(d.coef, d.factors, d.fv, cuts[first:last+1])
		if why != "" {
			return nil, fmt.Sprintf("%s: %s", in[p.lo+k], why)
		}
		copy(atom[first:last], exprs)
	}
	out = make([]sym.Expr, len(values))
	for k := range values {
		e := sym.Int(1)
		for m := slices.Index(cuts, outCuts[k+1]); m < slices.Index(cuts, outCuts[k]); m++ {
			var ok bool
			if e, ok = sym.Mul(e, atom[m]); !ok {
				return nil, "an expression grows too large"
			}
		}
		out[k] = e
	}
	return out, ""
}

// place returns the expressions of the atoms of one dim, coef times the factors (whose values are
// fv), cut at the points cuts (its atoms are the runs between them): each factor placed in one
// atom whose value its value divides, the coefficient giving the rest. Of the placements that fit,
// the one that leaves the fewest factors sharing their atom with a part of the coefficient is
// taken, when it is alone.
func place(coef int64, factors []sym.Expr, fv []int64, cuts []int64) ([]sym.Expr, string) {
	n := len(cuts) - 1
	total := 1
	for range factors {
		if total *= n; total > maxAssignments {
			return nil, "too many ways to place its factors"
		}
	}
	at := make([]int, len(factors))
	best, ties := -1, 0
	var chosen []int
	for range total {
		ok, score, prod := true, 0, coef
		for m := range n {
			v := cuts[m+1] / cuts[m]
			for f := range factors {
				if at[f] == m {
					if v%fv[f] != 0 {
						ok = false
					}
					v /= max(fv[f], 1)
				}
			}
			if !ok || prod%v != 0 {
				ok = false
				break
			}
			prod /= v
			for f := range factors {
				if at[f] == m && v == 1 {
					score++
				}
			}
		}
		if ok && prod == 1 {
			switch {
			case score > best:
				best, ties, chosen = score, 1, slices.Clone(at)
			case score == best:
				ties++
			}
		}
		for f := range at { // the next placement, as a number in base n
			if at[f]++; at[f] < n {
				break
			}
			at[f] = 0
		}
	}
	switch {
	case best < 0:
		return nil, "its factors fit no cut of the values at the export binding"
	case ties > 1:
		return nil, "its factors fit the values in several ways at the export binding"
	}
	out := make([]sym.Expr, n)
	for m := range n {
		v := cuts[m+1] / cuts[m]
		e := sym.Int(1)
		for f := range factors {
			if chosen[f] == m {
				v /= fv[f]
				e, _ = sym.Mul(e, factors[f])
			}
		}
		out[m], _ = sym.Mul(e, sym.Int(v))
	}
	return out, ""
}
