package sym

import (
	"cmp"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/errcode"
)

// Op is the operator of a comparison.
type Op uint8

// The comparison operators, as the notation writes them.
const (
	OpEq Op = iota // ==
	OpNe           // !=
	OpLt           // <
	OpLe           // <=
	OpGt           // >
	OpGe           // >=
)

var opText = [...]string{OpEq: "==", OpNe: "!=", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">="}

// String returns the operator as the notation writes it: "==", "!=", "<", "<=", ">", ">=".
func (o Op) String() string {
	if int(o) < len(opText) {
		return opText[o]
	}
	return "Op(" + itoa(int64(o)) + ")"
}

// negation returns the operator of the negated comparison: != for ==, < for >=.
func (o Op) negation() Op {
	return [...]Op{OpEq: OpNe, OpNe: OpEq, OpLt: OpGe, OpLe: OpGt, OpGt: OpLe, OpGe: OpLt}[o]
}

// Pred is a predicate on the symbols of a Table: a comparison of two expressions, or the
// conjunction (&&) or disjunction (||) of predicates, in one canonical form. A condition that a
// model imposes on its symbols is a Pred: N == 1, T % 4 == 0, H >= 11, A == B || A == 1 || B == 1.
//
// The canonical form of a comparison moves everything to one side, e op 0 with op one of ==, !=
// and >= (a < b is b-a-1 >= 0: expressions are integers wherever the model runs), clears
// rational coefficients, divides out the content (the gcd of the coefficients) and makes the first
// coefficient of an equation positive: 12*N == 12 is N == 1, H-10 >= 1 is H >= 11, 4*T % 16 == 0
// is T % 4 == 0, 2*N == 3 is false. A comparison that the bounds of its symbols decide is true or
// false; one that pins the expression to its greatest or least value is an equation (N <= 1 for N
// >= 1 is N == 1), and an inequation at such a value is a bound (N != 1 is N >= 2), except for a
// remainder (T % 4 >= 1 is T % 4 != 0). A comparison of min or max is one of their arguments
// (max(A,B) <= 8 is A <= 8 && B <= 8), and a bound on a floor division one on its dividend
// ((H-7)//2+1 >= 1 is H >= 7, (H+3)//4 == 4 is H >= 13 && H <= 16); a multiple subtracted from
// what it divides is a remainder (H == 2*(H//2) is H % 2 == 0).
//
// Conjunctions and disjunctions are flat and their terms sorted, so that equal predicates are
// equal Go values by Equal and print alike. And merges the comparisons of one expression into the
// fewest that say the same (N >= 2 && N >= 5 is N >= 5, N >= 3 && N <= 3 is N == 3), drops what
// they imply (T % 4 == 0 && T % 2 == 0 is T % 4 == 0), gives a symbol they fix its value in the
// other terms (T == 6 && T//6 != 6 is T == 6), removes the terms of a disjunction that they
// contradict and drops a disjunction one of whose terms they imply (A >= 2 && (A == B || A == 1 ||
// B == 1) is A >= 2 && (A == B || B == 1)). Or is And's dual: Or(p, q) is !(!p && !q).
//
// The zero Pred is true, the condition that always holds. Preds are immutable and safe for
// concurrent use; the symbols of one Pred must come from one Table.
type Pred struct{ n *pnode }

type pkind uint8

const (
	pConst pkind = iota
	pCmp
	pAnd
	pOr
)

type pnode struct {
	kind pkind
	// Constants: the value, and the comparison it was decided from, for messages.
	val  bool
	note string
	// Comparisons: e op 0 in the canonical form, op one of OpEq, OpNe, OpGe; or, when raw, e op
	// rhs as stated, with any op, for a comparison whose canonical form cannot be kept (see
	// maxSize).
	op  Op
	e   Expr
	raw bool
	rhs Expr
	// Conjunctions and disjunctions: two or more distinct terms in cmpPred order, none of the
	// same kind.
	args []Pred
}

// True returns the predicate that always holds, the zero Pred.
func True() Pred { return Pred{} }

// False returns the predicate that never holds.
func False() Pred { return decided(false, "") }

// decided returns the constant v, noting the comparison it was decided from.
func decided(v bool, note string) Pred {
	if v && note == "" {
		return Pred{}
	}
	return Pred{&pnode{kind: pConst, val: v, note: note}}
}

func (p Pred) kind() pkind {
	if p.n == nil {
		return pConst
	}
	return p.n.kind
}

// IsTrue reports whether p holds at every binding (its canonical form is true).
func (p Pred) IsTrue() bool { return p.n == nil || p.n.kind == pConst && p.n.val }

// IsFalse reports whether p holds at no binding that its symbols' bounds allow (its canonical form
// is false).
func (p Pred) IsFalse() bool { return p.n != nil && p.n.kind == pConst && !p.n.val }

// Equal reports whether p and q have the same canonical form.
func (p Pred) Equal(q Pred) bool { return cmpPred(p, q) == 0 }

// Terms returns the terms of a conjunction, in order, in a new slice; p alone for a predicate
// that is not one, and none for true.
func (p Pred) Terms() []Pred {
	switch {
	case p.IsTrue():
		return nil
	case p.n.kind == pAnd:
		return slices.Clone(p.n.args)
	}
	return []Pred{p}
}

// Eq returns the predicate a == b, in canonical form (Cmp).
func Eq(a, b Expr) Pred { return Cmp(a, OpEq, b) }

// Ne returns a != b.
func Ne(a, b Expr) Pred { return Cmp(a, OpNe, b) }

// Lt returns a < b.
func Lt(a, b Expr) Pred { return Cmp(a, OpLt, b) }

// Le returns a <= b.
func Le(a, b Expr) Pred { return Cmp(a, OpLe, b) }

// Gt returns a > b.
func Gt(a, b Expr) Pred { return Cmp(a, OpGt, b) }

// Ge returns a >= b.
func Ge(a, b Expr) Pred { return Cmp(a, OpGe, b) }

// Divisible returns e % f == 0, in canonical form: f divides e, the condition of an exact
// quotient e/f (the -1 of a Reshape of [T] to [-1,4] needs T % 4 == 0). A factor common to f, a
// single term, and every term of e cancels first: 3*N*H*W is a multiple of 2*W when N*H % 2 == 0;
// and an integer common to every coefficient of both: (8*N*(H//2)-8*N) % (4*H-8) is
// (2*N*(H//2)-2*N) % (H-2). A divisor that may be 0 and cancels is kept not 0: 189*W-189 is a
// multiple of W-1 when W != 1. ok is false when f is 0 or the remainder cannot be kept (see
// maxSize).
func Divisible(e, f Expr) (p Pred, ok bool) {
	var gs []Expr
	if g, ok := commonFactor(e, f); ok {
		e, _ = Quo(e, g)
		f, _ = Quo(f, g)
		gs = append(gs, zeroFactors(g)...)
	} else if g := commonContent(e, f); g > 1 {
		e, _ = scale(e, rat{1, g})
		f, _ = scale(f, rat{1, g})
	}
	m, ok := Mod(e, f)
	if !ok {
		return Pred{}, false
	}
	gs = append(gs, cancelled(m, f)...)
	return guarded(gs, Eq(m, Expr{})), true
}

// commonFactor returns the greatest factor, other than 1, of the single term f that divides
// every term of e, both polynomials with integer coefficients.
func commonFactor(e, f Expr) (Expr, bool) {
	if len(f.t) != 1 || len(e.t) == 0 {
		return Expr{}, false
	}
	g := commonContent(e, f)
	if g == 0 {
		return Expr{}, false
	}
	var m []factor
	for _, x := range f.t[0].m {
		k := x.e
		for _, t := range e.t {
			i := indexAtom(t.m, x.a)
			if i < 0 {
				k = 0
				break
			}
			k = min(k, t.m[i].e)
		}
		if k > 0 {
			m = append(m, factor{x.a, k})
		}
	}
	if g == 1 && len(m) == 0 {
		return Expr{}, false
	}
	return Expr{t: []term{{c: ratInt(g), m: m}}}, true
}

// commonContent returns the greatest common divisor of the coefficients of e and f, polynomials
// with integer coefficients; 0 when they are not, or when it is past int64.
func commonContent(e, f Expr) int64 {
	if !e.integral() || !f.integral() {
		return 0
	}
	var g uint64
	for _, ts := range [2][]term{e.t, f.t} {
		for _, t := range ts {
			g = gcd(g, abs64(t.c.num))
		}
	}
	if g > math.MaxInt64 {
		return 0
	}
	return int64(g)
}

// positiveFactor returns the product of the atoms that every term of d holds, each to the least
// power it has in them, when they are at least 1 wherever d is defined: d op 0 is then the same
// comparison of d divided by it (N*H*W == H*W is N == 1, B*T == 4*B*(T//4) is T == 4*(T//4)).
// A term with a negative power (an exact quotient) leaves d as it is: it is an integer where the
// model runs, and divided it may not be one (max(N,3) == max(N,3)/N holds at N = 1 only, but
// 1 == 1/N is undefined at every other N).
func positiveFactor(d Expr) (Expr, bool) {
	if len(d.t) < 2 || slices.ContainsFunc(d.t, func(t term) bool { return !integerValued(t.m) }) {
		return Expr{}, false
	}
	var m []factor
	for _, x := range d.t[0].m {
		k := x.e
		for _, t := range d.t[1:] {
			i := indexAtom(t.m, x.a)
			if i < 0 {
				k = 0
				break
			}
			k = min(k, t.m[i].e)
		}
		if k <= 0 {
			continue
		}
		if lo, _ := (Expr{t: []term{{c: ratInt(1), m: []factor{{x.a, 1}}}}}).Bounds(); lo < 1 {
			continue
		}
		m = append(m, factor{x.a, k})
	}
	if len(m) == 0 {
		return Expr{}, false
	}
	return Expr{t: []term{{c: ratInt(1), m: m}}}, true
}

// Cmp returns the predicate a op b in canonical form (see Pred). op must be one of the Op
// constants. When the difference of a and b cannot be kept (see maxSize), the predicate is kept
// as stated, and compares a and b at a binding. Where a or b has no value (a divisor 0, an exact
// quotient that does not divide), the predicate is false, as Eval finds a comparison there: what
// the canonical form no longer says of it is kept beside it ((H*W)//W == H is W != 0, N/2 != 3
// is N % 2 == 0 && N != 6; see defined).
func Cmp(a Expr, op Op, b Expr) Pred {
	if p, ok := defined(cmpCore(a, op, b), op, nil, a, b); ok {
		return p
	}
	return rawCmp(a, op, b)
}

// cmpCore returns a op b in canonical form, as Cmp does, without what it keeps of where a and b
// have a value; as stated when their difference cannot be kept.
func cmpCore(a Expr, op Op, b Expr) Pred {
	var d Expr
	ok := true
	cop := OpGe
	switch op {
	case OpEq, OpNe, OpGe:
		d, ok = Sub(a, b)
		cop = op
	case OpLe:
		d, ok = Sub(b, a)
	case OpGt:
		if d, ok = Sub(a, b); ok {
			d, ok = Add(d, Int(-1))
		}
	case OpLt:
		if d, ok = Sub(b, a); ok {
			d, ok = Add(d, Int(-1))
		}
	default:
		panic("sym: Cmp with an invalid Op " + op.String())
	}
	if !ok {
		return rawCmp(a, op, b)
	}
	return canon(cop, d, func() string { return cmpText(a, op, b) })
}

func cmpText(a Expr, op Op, b Expr) string {
	t := a.AppendText(nil)
	t = append(append(append(t, ' '), op.String()...), ' ')
	return string(b.AppendText(t))
}

func rawCmp(a Expr, op Op, b Expr) Pred {
	return Pred{&pnode{kind: pCmp, op: op, e: a, rhs: b, raw: true}}
}

// holds reports whether the constant c satisfies c op 0.
func holds(op Op, c rat) bool {
	switch op {
	case OpEq:
		return c.num == 0
	case OpNe:
		return c.num != 0
	}
	return c.num >= 0
}

// split returns the integer constant term of e and the others. The constant comes after the
// terms of higher degree, and before the others of degree 0 (N/T).
func split(e Expr) (l Expr, c int64) {
	for i, t := range e.t {
		if len(t.m) == 0 && t.c.isInt() {
			return Expr{t: slices.Delete(slices.Clone(e.t), i, i+1)}, t.c.num
		}
	}
	return e, 0
}

// Not returns the negation of p, in canonical form: comparisons negated (!(N == 1) is N != 1,
// !(H >= 11) is H <= 10), conjunctions and disjunctions swapped (De Morgan). A condition that Cmp
// keeps beside a comparison where its operands have a value is a comparison too, and negated with
// it (Not of (H*W)//W == H, W != 0, is W == 0): Not is the complement of a condition whose
// comparisons have values everywhere, as the prover needs it; ParsePred's ! keeps such a condition.
func Not(p Pred) Pred { return not(p, true) }

// not is Not; where simplify is false, the negation of a conjunction is the disjunction of its
// terms' negations as they are, which Or takes from it.
func not(p Pred, simplify bool) Pred {
	switch p.kind() {
	case pConst:
		return decided(!p.IsTrue(), p.note())
	case pCmp:
		n := p.n
		if n.raw {
			return rawCmp(n.e, n.op.negation(), n.rhs)
		}
		switch n.op {
		case OpEq:
			return canon(OpNe, n.e, func() string { return cmpText(n.e, OpNe, Expr{}) })
		case OpNe:
			return canon(OpEq, n.e, func() string { return cmpText(n.e, OpEq, Expr{}) })
		}
		// !(e >= 0) is -e-1 >= 0.
		ne, ok := Neg(n.e)
		if ok {
			ne, ok = Add(ne, Int(-1))
		}
		if !ok {
			return rawCmp(n.e, OpLt, Expr{})
		}
		return canon(OpGe, ne, func() string { return cmpText(n.e, OpLt, Expr{}) })
	}
	args := make([]Pred, len(p.n.args))
	for i, a := range p.n.args {
		args[i] = Not(a)
	}
	if p.n.kind == pOr {
		// The negation of a term may be a conjunction ((H+3)//4 != 4 negated is H >= 13 && H <=
		// 16): And merges them.
		return And(args...)
	}
	// The negation of a conjunction's terms are comparisons and conjunctions. A conjunction may
	// simplify beside the other terms, as Or makes a disjunction: !(H >= 1 && T % H == 0 &&
	// (T >= 1 || T/H >= 1)) is H == 0 || T % H != 0 || T == 0 && H >= 1, and T == 0 for its
	// last term beside H == 0.
	if simplify && slices.ContainsFunc(args, func(a Pred) bool { return a.kind() == pAnd }) {
		return Or(args...)
	}
	slices.SortFunc(args, cmpPred)
	return Pred{&pnode{kind: pOr, args: args}}
}

func (p Pred) note() string {
	if p.n == nil {
		return ""
	}
	return p.n.note
}

// And returns the conjunction of ps, in canonical form (see Pred): true for none.
func And(ps ...Pred) Pred {
	var args []Pred
	for _, p := range ps {
		switch {
		case p.IsTrue():
		case p.IsFalse():
			return p
		case p.n.kind == pAnd:
			args = append(args, p.n.args...)
		default:
			args = append(args, p)
		}
	}
	return andOf(args)
}

// Or returns the disjunction of ps, in canonical form: false for none. It is !(!p1 && !p2 ...)
// of the terms that have a value everywhere; a term that may have none (see partial) joins it as
// it is, since Not is no complement where it has none: B/(B % H) >= 1 || N >= 1 was
// !(B/(B % H) <= 0 && N == 0), in which And gives B its guard B != 0 (substituting N = 0), so
// N >= 1 || B == 0 || B/(B % H) >= 1, true at B = N = 0, where the quotient has no value.
func Or(ps ...Pred) Pred {
	nots := make([]Pred, 0, len(ps))
	var kept []Pred
	add := func(p Pred) {
		if partial(p) {
			kept = append(kept, p)
		} else {
			nots = append(nots, Not(p))
		}
	}
	for _, p := range ps {
		switch {
		case p.IsFalse():
		case p.IsTrue():
			return p
		case p.n.kind == pOr:
			for _, a := range p.n.args {
				add(a)
			}
		default:
			add(p)
		}
	}
	var or Pred
	if len(nots) == 0 {
		or = False()
	} else {
		or = not(And(nots...), false)
	}
	if len(kept) == 0 || or.IsTrue() {
		return or
	}
	args := kept
	switch {
	case or.kind() == pOr:
		args = append(args, or.n.args...)
	case !or.IsFalse():
		args = append(args, or)
	}
	slices.SortFunc(args, cmpPred)
	if args = slices.CompactFunc(args, Pred.Equal); len(args) == 1 {
		return args[0]
	}
	return Pred{&pnode{kind: pOr, args: args}}
}

// mapCmps returns p with each comparison c replaced by f(c), its conjunctions and disjunctions
// made again in canonical form (true and false stay as they are).
func mapCmps(p Pred, f func(Pred) Pred) Pred {
	switch p.kind() {
	case pConst:
		return p
	case pCmp:
		return f(p)
	}
	args := make([]Pred, len(p.n.args))
	for i, a := range p.n.args {
		args[i] = mapCmps(a, f)
	}
	if p.n.kind == pAnd {
		return And(args...)
	}
	return Or(args...)
}

// andOf returns the canonical conjunction of args, none true, false or a conjunction.
func andOf(args []Pred) Pred {
	for round := 0; ; round++ {
		var fs facts
		var rest []Pred
		for _, a := range args {
			if !fs.add(a) {
				rest = append(rest, a)
			}
		}
		if f, ok := fs.contradiction(); ok {
			return f
		}
		// A symbol fixed to one value (T == 6) takes it in the other terms: T//6 != 6 is true.
		if next, ok := fs.fix(args); ok && round < 8 {
			args = next
			continue
		}
		// Disjunctions under the comparisons: terms they contradict go, and a term they imply
		// makes the disjunction true. One that becomes a comparison joins them, and the
		// comparisons are merged again.
		again := false
		var out []Pred
		for _, r := range rest {
			if r.kind() != pOr {
				out = append(out, r)
				continue
			}
			// Until it settles: a disjunction simplified under the facts may take a form that
			// they simplify again (N == T || T >= 1 is N == 0 || T >= 1, which N >= 1 makes
			// T >= 1).
			s := under(&fs, r)
			for k := 0; k < 4 && s.kind() == pOr; k++ {
				t := under(&fs, s)
				if t.Equal(s) {
					break
				}
				s = t
			}
			switch {
			case s.IsFalse():
				return s
			case s.kind() == pOr:
				out = append(out, s)
			default:
				out = append(out, s.Terms()...)
				again = true
			}
		}
		args = append(fs.preds(), out...)
		if !again || round == 8 {
			break
		}
	}
	var flat []Pred
	for _, a := range args {
		switch {
		case a.IsFalse():
			return a
		case a.kind() == pAnd:
			flat = append(flat, a.n.args...)
		case !a.IsTrue():
			flat = append(flat, a)
		}
	}
	args = flat
	for i := 0; i < len(args); i++ {
		for j := 0; j < len(args); j++ {
			if m, ok := chainRemainders(args[i], args[j]); ok && i != j {
				args[i] = m
				args = slices.Delete(args, j, j+1)
				i = -1
				break
			}
		}
	}
	slices.SortFunc(args, cmpPred)
	args = slices.CompactFunc(args, Pred.Equal)
	// A disjunction that another term implies goes: (A || B) && (A || B || C) is A || B.
	for i := 0; i < len(args); i++ {
		for j := range args {
			if j != i && args[i].kind() == pOr && implies(args[j], args[i]) {
				args = slices.Delete(args, i, i+1)
				i--
				break
			}
		}
	}
	switch len(args) {
	case 0:
		return True()
	case 1:
		return args[0]
	}
	return Pred{&pnode{kind: pAnd, args: args}}
}

// chainRemainders returns x % (m·k) == 0 for p, x % m == 0, and q, (x//m) % k == 0, which say the
// same together (H % 2 == 0 && H//2 % 2 == 0 is H % 4 == 0, the skips of a U-Net at every
// level); ok is false for other predicates.
func chainRemainders(p, q Pred) (Pred, bool) {
	x, m, ok1 := zeroRemainder(p)
	y, k, ok2 := zeroRemainder(q)
	if !ok1 || !ok2 {
		return Pred{}, false
	}
	f, ok := y.lone()
	if !ok || f.kind != floorAtom || !f.num.Equal(x) {
		return Pred{}, false
	}
	if d, ok := f.den.Const(); !ok || d != m {
		return Pred{}, false
	}
	mk, ok := mul64(m, k)
	if !ok {
		return Pred{}, false
	}
	r, ok := Mod(x, Int(mk))
	if !ok {
		return Pred{}, false
	}
	return Eq(r, Expr{}), true
}

// zeroRemainder returns x and m of p, x % m == 0 for an integer m > 0.
func zeroRemainder(p Pred) (x Expr, m int64, ok bool) {
	l, b, ok := atomOf(p)
	if !ok || b.kind != equal || b.v != 0 {
		return Expr{}, 0, false
	}
	return remainder(l)
}

// implies reports whether p is known to imply q: equal predicates; comparisons of one expression
// whose sets of values are included; a term of a conjunction p that implies q; a disjunction p
// each of whose terms implies q; q a disjunction one of whose terms p implies.
func implies(p, q Pred) bool {
	switch {
	case p.Equal(q) || p.IsFalse() || q.IsTrue():
		return true
	case p.kind() == pAnd:
		return slices.ContainsFunc(p.n.args, func(a Pred) bool { return implies(a, q) })
	case p.kind() == pOr:
		return !slices.ContainsFunc(p.n.args, func(a Pred) bool { return !implies(a, q) })
	case q.kind() == pOr:
		return slices.ContainsFunc(q.n.args, func(b Pred) bool { return implies(p, b) })
	case q.kind() == pAnd:
		return !slices.ContainsFunc(q.n.args, func(b Pred) bool { return !implies(p, b) })
	case p.kind() == pCmp && q.kind() == pCmp:
		var fs facts
		if !fs.add(p) {
			return false
		}
		return decide(&fs, q).IsTrue()
	}
	return false
}

// cmpPred orders predicates: constants, comparisons (by the expression compared, then operator
// and constant), conjunctions, disjunctions (term by term).
func cmpPred(a, b Pred) int {
	ka, kb := a.kind(), b.kind()
	if ka != kb {
		return cmp.Compare(ka, kb)
	}
	switch ka {
	case pConst:
		switch {
		case a.IsTrue() == b.IsTrue():
			return 0
		case a.IsTrue():
			return 1
		}
		return -1
	case pCmp:
		x, y := a.n, b.n
		if x.raw != y.raw {
			if x.raw {
				return 1
			}
			return -1
		}
		if !x.raw {
			if c := cmpExpr(varPart(x.e), varPart(y.e)); c != 0 {
				return c
			}
		}
		if rx, ry := x.rank(), y.rank(); rx != ry {
			return cmp.Compare(rx, ry)
		}
		if c := cmpExpr(x.e, y.e); c != 0 || !x.raw {
			return c
		}
		return cmpExpr(x.rhs, y.rhs)
	}
	for i := 0; i < len(a.n.args) && i < len(b.n.args); i++ {
		if c := cmpPred(a.n.args[i], b.n.args[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a.n.args), len(b.n.args))
}

// rank orders the comparisons of one expression: equations, lower bounds, upper bounds,
// inequations.
func (n *pnode) rank() int {
	switch {
	case n.raw:
		return int(n.op)
	case n.op == OpEq:
		return 0
	case n.op == OpNe:
		return 3
	}
	if v, _ := split(n.e); len(v.t) > 0 && v.t[0].c.num < 0 {
		return 2
	}
	return 1
}

// varPart returns the terms of e but its constant, with a positive first coefficient.
func varPart(e Expr) Expr {
	v, _ := split(e)
	if len(v.t) > 0 && v.t[0].c.num < 0 {
		if n, ok := Neg(v); ok {
			return n
		}
	}
	return v
}

// Eval reports whether p holds at the binding b of symbols to integers
// (map[string]int64{"N": 8, "T": 12}), computed exactly. With an error it reports false: an
// *UnboundError naming a symbol b does not bind, or the error of an expression that is not an
// integer at b (an exact quotient that does not divide: errcode.ErrNotDivisible) or divides by zero
// (errcode.ErrInvalidShape), which makes the comparison that holds it false, and its negation
// too: the model does not run at b (bench/grid/predicate.py says the same). A conjunction with a
// term false at b is false, and a disjunction with a term true is true, whatever the errors of the
// others.
func (p Pred) Eval(b map[string]int64) (bool, error) { return p.eval(lookup(b)) }

func (p Pred) eval(value func(string) (int64, bool)) (bool, error) {
	switch p.kind() {
	case pConst:
		return p.IsTrue(), nil
	case pCmp:
		if c, ok := cmp64(p.n, value); ok {
			return c, nil
		}
		x, err := evalInt(p.n.e, value)
		if err != nil {
			return false, err
		}
		y := new(big.Int)
		if p.n.raw {
			if y, err = evalInt(p.n.rhs, value); err != nil {
				return false, err
			}
		}
		c := x.Cmp(y)
		switch p.n.op {
		case OpEq:
			return c == 0, nil
		case OpNe:
			return c != 0, nil
		case OpLt:
			return c < 0, nil
		case OpLe:
			return c <= 0, nil
		case OpGt:
			return c > 0, nil
		}
		return c >= 0, nil
	}
	// A conjunction with a false term is false, a disjunction with a true term true, whatever
	// the others: a term may be defined only where another holds (N != 9 || T >= 7+9/T).
	and := p.n.kind == pAnd
	var first error
	for _, a := range p.n.args {
		v, err := a.eval(value)
		switch {
		case err != nil:
			first = cmp.Or(first, err)
		case v != and:
			return v, nil
		}
	}
	return and && first == nil, first
}

// evalInt returns the value of e at a binding, an integer.
func evalInt(e Expr, value func(string) (int64, bool)) (*big.Int, error) {
	r, err := e.evalRat(value)
	if err != nil {
		return nil, err
	}
	if !r.IsInt() {
		return nil, errcode.Errorf(errcode.ErrNotDivisible, "%s is %s, not an integer, at this binding", e, r.RatString())
	}
	return r.Num(), nil
}

// Subst returns p with each symbol s replaced by sub(name of s) where it gives one, in canonical
// form again; ok is false when an expression cannot be kept (see maxSize), and for a comparison
// that has no value once substituted (N != 7/(N+3) at N = 0, where the exact quotient 7/3 does
// not divide; H % N == 1 at N = 0; see substitution). Such a comparison is false, as Eval finds
// it at such a binding, and so is its negation (N == 7/(N+3)): no constant says both, so it is
// not decided, and a conjunction or disjunction that holds it is decided only by another term. A
// divisor that the substitution cancels and may be 0 stays a conjunct, not 0: (N*W-N) % D == 0
// with W-1 for D is W != 1, false at W = 1 where the remainder has no value. So does the
// condition that an exact quotient that becomes a fraction is a whole number: H/max(N,3) >= 2
// with 1 for N is H >= 6 && H % 3 == 0.
func (p Pred) Subst(sub func(name string) (Expr, bool)) (Pred, bool) {
	switch p.kind() {
	case pConst:
		return p, true
	case pCmp:
		n := p.n
		e, r, s, ok := n.substSides(sub)
		if !ok {
			return Pred{}, false
		}
		var q Pred
		if n.raw {
			q = Cmp(e, n.op, r)
		} else if q, ok = defined(canon(n.op, e, func() string { return cmpText(e, n.op, Expr{}) }), n.op, nil, e); !ok {
			return Pred{}, false
		}
		return And(append(s.wholes, guarded(s.divisors, q))...), true
	}
	// A disjunct that becomes true decides a disjunction (a conjunct that becomes false, a
	// conjunction), where another cannot be kept: H <= 2 || H*W % (H//3) == 0 at H = 1 divides by 0
	// in a disjunct that does not count.
	args := make([]Pred, len(p.n.args))
	failed := false
	for i, a := range p.n.args {
		var ok bool
		args[i], ok = a.Subst(sub)
		switch {
		case !ok:
			failed = true
		case p.n.kind == pAnd && args[i].IsFalse(), p.n.kind != pAnd && args[i].IsTrue():
			return args[i], true
		}
	}
	switch {
	case failed:
		return Pred{}, false
	case p.n.kind == pAnd:
		return And(args...), true
	}
	return Or(args...), true
}

// substSides returns the sides of the comparison n with the substitution applied (r is 0 unless
// n is raw), and s, the substitution that did it, which notes whether an atom has no value and
// what its atoms need to have the values it gives them (see substitution); ok is false where a
// side cannot be kept or has no value.
func (n *pnode) substSides(sub func(name string) (Expr, bool)) (e, r Expr, s substitution, ok bool) {
	s = substitution{sub: sub}
	e, ok = s.value(n.e)
	if ok && n.raw {
		r, ok = s.value(n.rhs)
	}
	ok = ok && s.valued(e) && s.valued(r)
	return e, r, s, ok
}

// valueless reports whether p has no value, and so does not hold, wherever sub applies, whatever
// the values of the symbols it leaves: a comparison in which an atom whose operands sub makes
// constants has no value (N != 7/(N+3) at N = 0, H//(N-2) >= 1 at N = 2; see substitution), a
// conjunction with such a term, a disjunction of such terms. Pred.Subst leaves such a comparison
// undecided, as its negation has no value either.
func (p Pred) valueless(sub func(name string) (Expr, bool)) bool {
	switch p.kind() {
	case pConst:
		return false
	case pCmp:
		_, _, s, _ := p.n.substSides(sub)
		return s.none
	}
	and := p.n.kind == pAnd
	for _, a := range p.n.args {
		if a.valueless(sub) == and {
			return and
		}
	}
	return !and
}

// SymbolNames returns the names of the named symbols p depends on, in table order, once each.
func (p Pred) SymbolNames() []string { return symbolNames(p.symbols) }

// DependsOnAnon reports whether p depends on an anonymous symbol (Table.Anon): a dim the model does
// not name, on which a condition is neither listed nor checked (Solver.Constraints, Solver.Check).
func (p Pred) DependsOnAnon() bool { return anySymbol(p.symbols, func(a *atom) bool { return a.anon }) }

func (p Pred) symbols(yield func(*atom)) {
	switch p.kind() {
	case pConst:
	case pCmp:
		p.n.e.symbols(yield)
		p.n.rhs.symbols(yield)
	default:
		for _, a := range p.n.args {
			a.symbols(yield)
		}
	}
}

// String returns p in the notation of ParsePred: a comparison with the terms of positive
// coefficient on the left and the others on the right ("N == 1", "H >= 11", "A == B", "A <= 8",
// "T % 4 == 0", "(H+1)//2 % 2 == 0"), a comparison of polynomials with its sides factored where
// that is shorter (see factor.go: "(H-6)*(W-6) == 1", not "H*W == 6*H+6*W-35"; "N*(H//4+3)*(W//2+1)
// == 240", not "N*(H//4)*(W//2)+N*(H//4)+3*N*(W//2)+3*N == 240"), && between the terms of a conjunction and || between those
// of a disjunction, a disjunction within a conjunction in parentheses. True prints as 0 == 0 and
// false as 0 == 1, which read back as themselves.
func (p Pred) String() string { return string(p.AppendText(nil)) }

// AppendText appends p in the notation of String to b.
func (p Pred) AppendText(b []byte) []byte {
	switch p.kind() {
	case pConst:
		if p.IsTrue() {
			return append(b, "0 == 0"...)
		}
		return append(b, "0 == 1"...)
	case pCmp:
		return p.n.appendCmp(b)
	}
	sep := " && "
	if p.n.kind == pOr {
		sep = " || "
	}
	args := p.n.args
	for i := 0; i < len(args); {
		if i > 0 {
			b = append(b, sep...)
		}
		// Comparisons of one expression, which the canonical order puts side by side, as one
		// membership: H >= 217 && H <= 224 is H in 217..224, and T == 1 || T == 10 is T in {1, 10}.
		if l, j, ok := sameAtomRun(args, i); ok {
			if out, n := appendMembership(b, l, args[i:j], p.n.kind == pOr); n > 1 {
				b, i = out, i+n
				continue
			}
		}
		b = appendOperand(b, args[i], p.n.kind == pAnd && args[i].kind() == pOr)
		i++
	}
	return b
}

// maxMembers bounds the values and ranges a membership lists, and maxSpanned the values of an
// expression whose comparisons it lists as those they hold at (W % 72 in {0..12, 61..71}).
const (
	maxMembers = 64
	maxSpanned = 1 << 10
)

// appendMembership appends comparisons of the expression l at the start of cs, joined by ||
// (or) or &&, as one membership, and returns how many it took (none for 0 or 1): "l in a..b" for
// a lower and an upper bound joined by &&, "l in {v, w, a..b}" for comparisons joined by || that
// hold at finitely many values (equations, or any comparisons of an expression of few values,
// such as a remainder).
func appendMembership(b []byte, l Expr, cs []Pred, or bool) ([]byte, int) {
	bs := make([]bound, len(cs))
	for i, c := range cs {
		_, bs[i], _ = atomOf(c)
	}
	if !or {
		if len(bs) < 2 || bs[0].kind != lower || bs[1].kind != upper {
			return b, 0
		}
		b = append(l.AppendText(b), " in "...)
		return appendSpan(b, span{bs[0].v, bs[1].v}), 2
	}
	var vals []int64
	if !slices.ContainsFunc(bs, func(x bound) bool { return x.kind != equal }) {
		for _, x := range bs {
			vals = append(vals, x.v)
		}
		slices.Sort(vals)
	} else {
		lo, hi, ok := l.ival().bounds()
		if !ok || lo == NegInf || hi == Inf || hi-lo >= maxSpanned {
			return b, 0
		}
		for v := lo; v <= hi; v++ {
			if slices.ContainsFunc(bs, func(x bound) bool { return x.satisfies(v) }) {
				vals = append(vals, v)
			}
		}
		if strings.Count(string(appendValues(nil, vals)), ", ") >= maxMembers {
			return b, 0
		}
	}
	b = append(l.AppendText(b), " in "...)
	return appendValues(b, vals), len(cs)
}

// appendValues appends the sorted values vals as a set, a run of four or more consecutive values
// as a range: "{0..12, 61..71}", "{0, 1, 3}".
func appendValues(b []byte, vals []int64) []byte {
	b = append(b, '{')
	for i := 0; i < len(vals); {
		j := i
		for j+1 < len(vals) && vals[j+1] == vals[j]+1 {
			j++
		}
		if i > 0 {
			b = append(b, ", "...)
		}
		if j-i >= 3 {
			b = appendSpan(b, span{vals[i], vals[j]})
			i = j + 1
			continue
		}
		b = strconv.AppendInt(b, vals[i], 10)
		i++
	}
	return append(b, '}')
}

// span is the closed range [lo, hi].
type span struct{ lo, hi int64 }

// appendSpan appends the range lo..hi.
func appendSpan(b []byte, r span) []byte {
	b = strconv.AppendInt(b, r.lo, 10)
	b = append(b, ".."...)
	return strconv.AppendInt(b, r.hi, 10)
}

// MarshalText implements encoding.TextMarshaler with the notation of String, so that a predicate
// is a JSON string.
func (p Pred) MarshalText() ([]byte, error) { return p.AppendText(nil), nil }

// Stated returns p as String does, or for a comparison decided when it was made, the comparison
// as it was stated: "3 == 4" where String gives "0 == 1".
func (p Pred) Stated() string { return p.text() }

// text returns p as String does, or for a decided comparison the comparison as stated.
func (p Pred) text() string {
	if p.kind() == pConst && p.n.note != "" {
		return p.n.note
	}
	return p.String()
}

// appendCmp appends a comparison as appendPlainCmp does, or with its sides factored
// (appendFactored) where that is no longer but for the two parentheses it may add: B*(T-1) ==
// 19, not B == B*T-19.
func (n *pnode) appendCmp(b []byte) []byte {
	start := len(b)
	b = n.appendPlainCmp(b)
	if n.raw {
		return b
	}
	if f, ok := appendFactored(nil, n.e, n.op); ok && len(f) <= len(b)-start+2 {
		return append(b[:start], f...)
	}
	return b
}

func (n *pnode) appendPlainCmp(b []byte) []byte {
	if n.raw {
		b = n.e.AppendText(b)
		b = append(append(append(b, ' '), n.op.String()...), ' ')
		return n.rhs.AppendText(b)
	}
	// e = pos - neg, pos and neg of positive coefficients: pos op neg. An equation prints the
	// other way round when that leaves a symbol alone on the left (T == 2*H+1, not 2*H == T-1).
	e := n.e
	if n.op != OpGe && !loneSymbol(positive(e)) {
		if ne, ok := Neg(e); ok && loneSymbol(positive(ne)) {
			e = ne
		}
	}
	// Two or more terms that need not be integers stay on the left, where they print as one
	// exact quotient ((H-3)/N >= 2, not H/N >= 2+3/N, whose H/N need not divide).
	grouped := fractionals(e) > 1
	var pos, neg []term
	for _, t := range e.t {
		if t.c.num > 0 && len(t.m) > 0 || grouped && fractional(t) {
			pos = append(pos, t)
			continue
		}
		c, ok := t.c.neg()
		if !ok {
			b = n.e.AppendText(b)
			return append(append(append(b, ' '), n.op.String()...), " 0"...)
		}
		neg = append(neg, term{c, t.m})
	}
	op := n.op.String()
	if len(pos) == 0 { // only for >=: -neg + c >= 0 is neg <= c
		if n.op != OpGe {
			op = n.op.String()
		} else {
			op = "<="
		}
		var l, r []term
		for _, t := range neg {
			if len(t.m) > 0 {
				l = append(l, t)
			} else {
				c, _ := t.c.neg()
				r = append(r, term{c, t.m})
			}
		}
		pos, neg = l, r
	}
	right, _ := normalize(neg)
	// x >= y+1 prints as x > y.
	if op == ">=" && len(right.t) > 1 {
		if l, c := split(right); c == 1 {
			op, right = ">", l
		}
	}
	b = Expr{t: pos}.AppendText(b)
	b = append(append(append(b, ' '), op...), ' ')
	return right.AppendText(b)
}

// positive returns the terms of e of positive coefficient, its constant left out.
func positive(e Expr) Expr {
	var ts []term
	for _, t := range e.t {
		if t.c.num > 0 && len(t.m) > 0 {
			ts = append(ts, t)
		}
	}
	return Expr{t: ts}
}

// loneSymbol reports whether e is one symbol.
func loneSymbol(e Expr) bool {
	_, _, ok := e.Symbol()
	return ok
}

func itoa(n int64) string { return string(Int(n).AppendText(nil)) }
