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
//   - a symbolic value: a pattern value that is an expression (a computed pattern, or a 0 that
//     copies a symbolic dim) beside input dims whose product is that expression;
//   - the -1: any input dims, their product inferred.
//
// A pattern may align in several ways ([N,3] beside [1,1,3]: the N is either 1): align finds every
// one, and the caller keeps those that can hold and refuses a choice.

// pair is a baked value of an alignment: pattern[out] = value stands for input dims lo to hi-1.
type pair struct {
	out, lo, hi int
	value       int64
}

// An alignment is the pairs of one way of aligning a pattern with its input.
type alignment []pair

func (a alignment) key() string {
	var b strings.Builder
	for _, p := range a {
		fmt.Fprintf(&b, "%d:%d-%d,", p.out, p.lo, p.hi)
	}
	return b.String()
}

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
// those with pairs and those without, distinct by their pairs. With allowzero false a 0 copies the
// input dim at its index. why says why there is none: a dim or value that is not known (an
// interval), a literal 0 with allowzero, or no way to align them; or that there are too many.
func align(in, pat []sym.Dim, allowzero bool) (alns []alignment, why string) {
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
	s := &aligner{in: ins, out: outs, budget: alignBudget, seen: map[string]bool{}}
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
					s.search(j+1, o+1, false, append(pairs, pair{out: o, lo: i, hi: j + 1, value: t.n}))
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

// describe returns what the pairs of a say: "pattern[0] = 1 is N, pattern[3] = 8 is (H+1)//2".
func (a alignment) describe(in []sym.Dim) string {
	parts := make([]string, len(a))
	for k, p := range a {
		parts[k] = fmt.Sprintf("pattern[%d] = %d is %s", p.out, p.value, product(in[p.lo:p.hi]))
	}
	return strings.Join(parts, ", ")
}
