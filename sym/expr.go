package sym

import (
	"cmp"
	"slices"
)

// maxSize bounds the size of an expression: the number of terms, factors and atoms it is made of,
// nested ones included, an atom that occurs several times counting once (sharedSize): the sum of
// the anchors of five levels, each a product of the same two sizes, is as large as its distinct
// parts. An operation whose result would be larger fails, and the dim it computes keeps only its
// interval bounds, so that a chain of operations cannot grow an expression without bound.
const maxSize = 64

// maxTreeSize bounds the size of an expression with every occurrence of an atom counted (Size):
// what its text and its evaluation cost, however much of it is shared.
const maxTreeSize = 4 * maxSize

// fits reports whether e is within the size bounds: Size at most maxSize, or at most maxTreeSize
// with its shared size at most maxSize. The shared size is counted only past maxSize: most
// expressions are far smaller.
func fits(e Expr) bool {
	n := e.Size()
	if n <= maxSize {
		return true
	}
	var s sharer
	return n <= maxTreeSize && s.expr(e)
}

// fitsAtom is fits for the compound atom a, whose size and key are set.
func fitsAtom(a *atom) bool {
	if a.size <= maxSize {
		return true
	}
	var s sharer
	return a.size <= maxTreeSize && s.atom(a)
}

// sharer counts the shared size of expressions: their terms and factors, and the size of each
// distinct compound atom once, nested ones included. It stops at maxSize.
type sharer struct {
	seen [maxSize]*atom // the distinct compound atoms met, each counting at least 1
	n    int
	size int
}

// expr adds e's terms, its factors (a power counting as its repeated factors, as in Size) and its
// atoms not met before; false once the size passes maxSize.
func (s *sharer) expr(e Expr) bool {
	for _, t := range e.t {
		s.size++
		for _, f := range t.m {
			if s.size += abs(f.e); s.size > maxSize || !s.atom(f.a) {
				return false
			}
		}
	}
	return s.size <= maxSize
}

// atom adds what the compound atom a is made of, when it was not met before: as much as a.size
// counts, less its own atoms met before.
func (s *sharer) atom(a *atom) bool {
	if a.kind == symbolAtom {
		return true
	}
	for _, b := range s.seen[:s.n] {
		if cmpAtom(a, b) == 0 {
			return true
		}
	}
	if s.n == len(s.seen) {
		return false
	}
	s.seen[s.n] = a
	s.n++
	switch a.kind {
	case floatAtom:
		s.size += a.size
	case minAtom, maxAtom:
		s.size++
		for _, x := range a.args {
			if !s.expr(x) {
				return false
			}
		}
	default:
		return s.expr(a.num) && s.expr(a.den)
	}
	return s.size <= maxSize
}

// Expr is an integer-valued expression over symbols, in one canonical form: a sum of terms, each a
// rational coefficient times a product of atoms raised to non-zero integer powers, where an atom is
// a symbol, a floor division P//Q, a remainder P % Q, an exact quotient P/Q of a sum, or max or
// min of expressions. Equal expressions have equal forms, so they print alike and Equal compares them exactly; a product divided by one of its
// factors cancels (N·150528/N is 150528). Negative powers appear only through exact quotients (the
// Reshape rule's -1, an exact division): the expression's value is an integer wherever the model
// runs.
//
// The zero Expr is the constant 0. Exprs are immutable and safe for concurrent use; the symbols in
// one expression must come from one Table.
type Expr struct {
	t []term // sorted by monomial order (cmpMono), coefficients non-zero, monomials distinct
}

type term struct {
	c rat
	m []factor // sorted by atom order (cmpAtom), exponents non-zero
}

type factor struct {
	a *atom
	e int
}

type atomKind uint8

const (
	symbolAtom atomKind = iota
	floorAtom           // floor(num / den)
	quotAtom            // num / den, exact, den a sum of several terms
	modAtom             // num mod den, with the sign of den (Python's %)
	minAtom             // the least of args
	maxAtom             // the greatest of args
	floatAtom           // int(fl): a value computed in floating point, truncated (float.go)
)

// atom is a symbol or an operation that the polynomial form does not express.
type atom struct {
	kind atomKind
	// Symbols: the name, the position in the table (the order symbols print in), the bounds, and
	// whether the symbol is anonymous (a dimension that only stands for itself, printed as its
	// bounds).
	name   string
	order  int
	lo, hi int64
	anon   bool
	// below, for a symbol of Table.Below, is the expression its values stay below (a loop's trip
	// count): the symbol lies in [lo, below-1] besides [lo, hi].
	below *Expr
	// Floor divisions, exact quotients and remainders.
	num, den Expr
	// Minima and maxima: two or more distinct arguments, none itself a minimum (of a minAtom) or
	// a maximum (of a maxAtom), in cmpExpr order.
	args []Expr
	// Values computed in floating point: the computation; args holds the integers it converts.
	fl   *fnode
	key  string // the canonical text of a compound atom, for ordering
	size int
}

// cmpAtom orders atoms: symbols first, in table order, then compound atoms by their text.
func cmpAtom(a, b *atom) int {
	switch {
	case a == b:
		return 0
	case a.kind == symbolAtom && b.kind == symbolAtom:
		if a.order != b.order {
			return cmp.Compare(a.order, b.order)
		}
		return cmp.Compare(a.name, b.name)
	case a.kind == symbolAtom:
		return -1
	case b.kind == symbolAtom:
		return 1
	case a.kind != b.kind:
		return cmp.Compare(int(a.kind), int(b.kind))
	}
	return cmp.Compare(a.key, b.key)
}

func degree(m []factor) int {
	d := 0
	for _, f := range m {
		d += f.e
	}
	return d
}

// cmpMono orders monomials: higher degree first, then by their factors.
func cmpMono(m1, m2 []factor) int {
	if d1, d2 := degree(m1), degree(m2); d1 != d2 {
		return -cmp.Compare(d1, d2)
	}
	for i := 0; i < len(m1) && i < len(m2); i++ {
		if c := cmpAtom(m1[i].a, m2[i].a); c != 0 {
			return c
		}
		if m1[i].e != m2[i].e {
			return -cmp.Compare(m1[i].e, m2[i].e)
		}
	}
	return cmp.Compare(len(m1), len(m2))
}

// Int returns the constant n.
func Int(n int64) Expr {
	if n == 0 {
		return Expr{}
	}
	return Expr{t: []term{{c: ratInt(n)}}}
}

func fromAtom(a *atom) Expr { return Expr{t: []term{{c: ratInt(1), m: []factor{{a, 1}}}}} }

// IsZero reports whether e is the constant 0.
func (e Expr) IsZero() bool { return len(e.t) == 0 }

// Const returns e's value when e is an integer constant.
func (e Expr) Const() (n int64, ok bool) {
	switch {
	case len(e.t) == 0:
		return 0, true
	case len(e.t) == 1 && len(e.t[0].m) == 0 && e.t[0].c.isInt():
		return e.t[0].c.num, true
	}
	return 0, false
}

// Monomial returns e as c·x1·x2·…·xk, when e is a single term with an integer coefficient and
// atoms raised to positive powers: the coefficient c and the factors x1 … xk, each an atom of e (a
// symbol, or a floor division, remainder, exact quotient, minimum or maximum, as an Expr of its
// own) repeated as often as its power, in e's order ("4*B*T*T" gives 4, [B, T, T]). A constant
// gives its value and no factor. ok is false for a sum of several terms, a coefficient that is not
// an integer, or a negative power.
func (e Expr) Monomial() (c int64, factors []Expr, ok bool) {
	switch {
	case len(e.t) == 0:
		return 0, nil, true
	case len(e.t) != 1 || !e.t[0].c.isInt():
		return 0, nil, false
	}
	for _, f := range e.t[0].m {
		if f.e < 0 {
			return 0, nil, false
		}
		for range f.e {
			factors = append(factors, fromAtom(f.a))
		}
	}
	return e.t[0].c.num, factors, true
}

// constRat returns e's value when e is a constant, integer or not.
func (e Expr) constRat() (rat, bool) {
	switch {
	case len(e.t) == 0:
		return rat{0, 1}, true
	case len(e.t) == 1 && len(e.t[0].m) == 0:
		return e.t[0].c, true
	}
	return rat{}, false
}

// Equal reports whether e and f are the same expression.
func (e Expr) Equal(f Expr) bool {
	if len(e.t) != len(f.t) {
		return false
	}
	for i := range e.t {
		if e.t[i].c != f.t[i].c || !slices.EqualFunc(e.t[i].m, f.t[i].m, func(x, y factor) bool {
			return x.e == y.e && cmpAtom(x.a, y.a) == 0
		}) {
			return false
		}
	}
	return true
}

// Size returns the number of terms, factors and atoms e is made of, nested ones included: a factor
// raised to the power k counts k times, as it prints (N*N*N), so that the size bound also bounds
// exponents.
func (e Expr) Size() int {
	n := 0
	for _, t := range e.t {
		n++
		for _, f := range t.m {
			n += abs(f.e) * (1 + f.a.size)
		}
	}
	return n
}

// Symbols calls yield for each symbol e depends on, nested ones included, in no set order and
// possibly more than once.
func (e Expr) symbols(yield func(a *atom)) {
	for _, t := range e.t {
		for _, f := range t.m {
			switch f.a.kind {
			case symbolAtom:
				yield(f.a)
			case minAtom, maxAtom, floatAtom:
				for _, x := range f.a.args {
					x.symbols(yield)
				}
			default:
				f.a.num.symbols(yield)
				f.a.den.symbols(yield)
			}
		}
	}
}

// normalize sorts terms, merges equal monomials, drops zero coefficients and writes a remainder
// that pads a sum up to a multiple as that multiple (roundedUp). ok is false on coefficient
// overflow or when the result is larger than maxSize.
func normalize(ts []term) (Expr, bool) {
	e, ok := merge(ts)
	if ok {
		e = roundedUp(e)
	}
	return e, ok
}

// merge is normalize without roundedUp.
func merge(ts []term) (Expr, bool) {
	ts = definedIndicators(ts)
	slices.SortStableFunc(ts, func(a, b term) int { return cmpMono(a.m, b.m) })
	out := ts[:0]
	for _, t := range ts {
		if n := len(out); n > 0 && cmpMono(out[n-1].m, t.m) == 0 {
			c, ok := out[n-1].c.add(t.c)
			if !ok {
				return Expr{}, false
			}
			out[n-1].c = c
			continue
		}
		out = append(out, t)
	}
	res := out[:0]
	for _, t := range out {
		if t.c.num != 0 {
			res = append(res, t)
		}
	}
	if len(res) == 0 {
		return Expr{}, true
	}
	e := Expr{t: res}
	return e, fits(e)
}

// Add returns e+f; ok is false when the result cannot be kept (a coefficient beyond int64, or a
// result larger than the size bound).
func Add(e, f Expr) (Expr, bool) {
	switch {
	case len(e.t) == 0:
		return f, true
	case len(f.t) == 0:
		return e, true
	}
	ts := make([]term, 0, len(e.t)+len(f.t))
	ts = append(append(ts, e.t...), f.t...)
	return normalize(ts)
}

// Neg returns -e.
func Neg(e Expr) (Expr, bool) {
	ts := make([]term, len(e.t))
	for i, t := range e.t {
		c, ok := t.c.neg()
		if !ok {
			return Expr{}, false
		}
		ts[i] = term{c, t.m}
	}
	return Expr{t: ts}, true
}

// Sub returns e-f.
func Sub(e, f Expr) (Expr, bool) {
	nf, ok := Neg(f)
	if !ok {
		return Expr{}, false
	}
	return Add(e, nf)
}

// mulMono returns the product of two monomials, exponents of equal atoms added.
func mulMono(a, b []factor) []factor {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]factor, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b):
			out = append(out, a[i])
			i++
		case i == len(a):
			out = append(out, b[j])
			j++
		default:
			switch c := cmpAtom(a[i].a, b[j].a); {
			case c < 0:
				out = append(out, a[i])
				i++
			case c > 0:
				out = append(out, b[j])
				j++
			default:
				if e := a[i].e + b[j].e; e != 0 {
					out = append(out, factor{a[i].a, e})
				}
				i++
				j++
			}
		}
	}
	return out
}

// indicators returns m with each indicator min(u,1) of it (atom.indicator), whose values are 0
// and 1, to the power 1, and left out beside a power of u where u is one atom, as u·min(u,1) is u
// (and u/min(u,1) is u wherever it is defined): the pattern value x of a Reshape that copies the
// input's dim y where x is 0 is x + y·(1-min(x,1)), and a chain of such Reshapes multiplies
// these. A negative power of an indicator is left out too, as it is 1 wherever it is defined:
// one form for each value, however a quotient was taken. m itself when none is there.
func indicators(m []factor) []factor {
	if !hasMin(m) {
		return m
	}
	var out []factor
	for i, f := range m {
		u, ok := f.a.indicator()
		a, lone := u.lone()
		e := f.e
		switch {
		case !ok:
		case lone && indexAtom(m, a) >= 0:
			e = 0
		case e > 1:
			e = 1
		case e < 0:
			e = 0
		}
		if e == f.e && out == nil {
			continue
		}
		if out == nil {
			out = slices.Clone(m[:i])
		}
		if e != 0 {
			out = append(out, factor{f.a, e})
		}
	}
	if out == nil {
		return m
	}
	return out
}

// definedIndicators returns the terms of a sum with each indicator min(u,1) left out where u is
// an atom that some term divides by: the sum is defined only where u is not 0, and there the
// indicator is 1. T/N + min(N,1) is T/N + 1, as T/N + N·min(N,1)/N must be. ts itself, changed
// in place, when there is nothing to leave out.
func definedIndicators(ts []term) []term {
	if !slices.ContainsFunc(ts, func(t term) bool { return hasMin(t.m) }) {
		return ts
	}
	divides := func(a *atom) bool {
		for _, t := range ts {
			if slices.ContainsFunc(t.m, func(f factor) bool { return f.e < 0 && cmpAtom(f.a, a) == 0 }) {
				return true
			}
		}
		return false
	}
	for i, t := range ts {
		var out []factor
		for j, f := range t.m {
			u, ok := f.a.indicator()
			a, lone := u.lone()
			drop := ok && lone && divides(a)
			if drop && out == nil {
				out = slices.Clone(t.m[:j])
			}
			if !drop && out != nil {
				out = append(out, f)
			}
		}
		if out != nil {
			ts[i].m = out
		}
	}
	return ts
}

// hasMin reports whether a monomial has a min atom among its factors.
func hasMin(m []factor) bool {
	return slices.ContainsFunc(m, func(f factor) bool { return f.a.kind == minAtom })
}

// indicator returns u of an atom min(u,1), for u an integer at least 0 by its bounds: the atom
// is 0 where u is 0 and 1 elsewhere.
func (a *atom) indicator() (Expr, bool) {
	if a.kind != minAtom || len(a.args) != 2 {
		return Expr{}, false
	}
	u, one := a.args[0], a.args[1]
	if n, ok := u.Const(); ok && n == 1 {
		u, one = one, u
	}
	if n, ok := one.Const(); !ok || n != 1 || !u.integral() || u.ival().lo.sign() < 0 {
		return Expr{}, false
	}
	return u, true
}

// Mul returns e·f.
func Mul(e, f Expr) (Expr, bool) {
	if len(e.t) == 0 || len(f.t) == 0 {
		return Expr{}, true
	}
	if len(e.t)*len(f.t) > maxSize {
		return Expr{}, false
	}
	ts := make([]term, 0, len(e.t)*len(f.t))
	for _, a := range e.t {
		for _, b := range f.t {
			c, ok := a.c.mul(b.c)
			if !ok {
				return Expr{}, false
			}
			ts = append(ts, term{c, indicators(mulMono(a.m, b.m))})
		}
	}
	return normalize(ts)
}

// scaleTerms returns c·e for c != 0, as Mul(Int(c), e) does: the terms keep their order and their
// monomials, and only the coefficients change; e itself when c is 1.
func scaleTerms(e Expr, c rat) (Expr, bool) {
	if c == ratInt(1) {
		return e, true
	}
	ts := make([]term, len(e.t))
	for i, t := range e.t {
		m, ok := t.c.mul(c)
		if !ok {
			return Expr{}, false
		}
		ts[i] = term{m, t.m}
	}
	return Expr{t: ts}, true
}

// scale returns c·e.
func scale(e Expr, c rat) (Expr, bool) {
	return Mul(e, Expr{t: []term{{c: c}}})
}

// Quo returns the exact quotient e/f, for a model whose runs divide exactly (the -1 of Reshape, a
// Div whose operands are known to divide). A quotient by a constant or by a single term (a product
// of symbols) stays in the polynomial form, so that common factors cancel; a quotient by a sum of
// several terms is an atom, unless e is a constant multiple of f. ok is false when f is 0 or the
// result cannot be kept.
func Quo(e, f Expr) (Expr, bool) {
	switch {
	case len(f.t) == 0:
		return Expr{}, false
	case len(e.t) == 0:
		return Expr{}, true
	case len(f.t) == 1:
		inv, ok := f.t[0].c.inv()
		if !ok {
			return Expr{}, false
		}
		m := make([]factor, len(f.t[0].m))
		for i, x := range f.t[0].m {
			m[i] = factor{x.a, -x.e}
		}
		return Mul(e, Expr{t: []term{{c: inv, m: m}}})
	}
	if k, ok := ratio(e, f); ok {
		return Expr{t: []term{{c: k}}}, true
	}
	a := &atom{kind: quotAtom, num: e, den: f}
	a.key = "(" + e.String() + ")/(" + f.String() + ")"
	a.size = e.Size() + f.Size()
	if !fitsAtom(a) {
		return Expr{}, false
	}
	return fromAtom(a), true
}

// Ratio returns num/den, in lowest terms with den > 0, when e = (num/den)·f for a non-zero
// constant: e and f differ only by a constant factor (2*B*T and B*T give 2/1).
func Ratio(e, f Expr) (num, den int64, ok bool) {
	k, ok := ratio(e, f)
	return k.num, k.den, ok
}

// ratio returns k when e = k·f for a rational constant k.
func ratio(e, f Expr) (rat, bool) {
	if len(e.t) != len(f.t) || len(f.t) == 0 {
		return rat{}, false
	}
	k, ok := e.t[0].c.mul(mustInv(f.t[0].c))
	if !ok {
		return rat{}, false
	}
	for i := range e.t {
		if cmpMono(e.t[i].m, f.t[i].m) != 0 {
			return rat{}, false
		}
		c, ok := f.t[i].c.mul(k)
		if !ok || c != e.t[i].c {
			return rat{}, false
		}
	}
	return k, true
}

func mustInv(r rat) rat {
	inv, ok := r.inv()
	if !ok {
		return rat{0, 1}
	}
	return inv
}

// integral reports whether every term of e has an integer coefficient and no negative power: a
// polynomial with integer coefficients, whose value is an integer.
func (e Expr) integral() bool {
	for _, t := range e.t {
		if !t.c.isInt() {
			return false
		}
		for _, f := range t.m {
			if f.e < 0 {
				return false
			}
		}
	}
	return true
}

// FloorDiv returns floor(e/f), Python's e//f, ONNX Div on non-negative integers, and the output
// size rules of convolutions and pooling. When f is a positive integer q it keeps one canonical
// form: the terms of e whose coefficients are multiples of q leave the division ((2·H+3)//2 is
// H+1), the remainder's coefficients are reduced modulo q ((H-1)//2+1 is (H+1)//2), and nested
// floors merge ((((H+1)//2)+1)//2 is (H+3)//4). A constant multiple k·f of a divisor f that is a
// sum gives floor(k): (9*A*B+9*C)//(A*B+C) is 9. ok is false when f is 0 or the result cannot be
// kept.
func FloorDiv(e, f Expr) (Expr, bool) {
	if len(f.t) == 0 {
		return Expr{}, false
	}
	if q, ok := f.constRat(); ok {
		if q.num < 0 { // e//(-q) = (-e)//q
			var ok1, ok2 bool
			if e, ok1 = Neg(e); !ok1 {
				return Expr{}, false
			}
			if q, ok2 = q.neg(); !ok2 {
				return Expr{}, false
			}
		}
		return floorByConst(e, q)
	}
	if len(f.t) == 1 && f.t[0].c.isInt() && f.t[0].c.num > 0 {
		if r, ok := Quo(e, f); ok && r.integral() {
			return r, true // a polynomial quotient with integer coefficients is exact
		}
	}
	if k, ok := ratio(e, f); ok {
		// e = k·f: the quotient is k wherever f is not 0, whatever f's sign (the anchor count of
		// every level over the sum of the levels' sizes).
		return Int(floorDiv(k.num, k.den)), true
	}
	return floorAtomOf(e, f)
}

// floorByConst returns floor(e/q) for a positive rational q.
func floorByConst(e Expr, q rat) (Expr, bool) {
	// floor(e/(n/d)) = floor(d·e/n): scale so that the divisor is a positive integer and every
	// coefficient of e an integer.
	l := q.den
	for _, t := range e.t {
		g := int64(gcd(uint64(l), uint64(t.c.den)))
		var ok bool
		if l, ok = mul64(l/g, t.c.den); !ok {
			return Expr{}, false
		}
	}
	if l != 1 {
		var ok bool
		if e, ok = scale(e, ratInt(l)); !ok {
			return Expr{}, false
		}
		if q, ok = q.mul(ratInt(l)); !ok {
			return Expr{}, false
		}
	}
	n := q.num // q is now the positive integer n
	if c, ok := e.Const(); ok {
		return Int(divX(fin(c), fin(n), false).v), true
	}
	if n == 1 && e.integral() {
		return e, true
	}
	// Split e = n·whole + rest: terms with integer-valued monomials move their multiples of n out.
	var whole, rest []term
	for _, t := range e.t {
		if !integerValued(t.m) {
			rest = append(rest, t)
			continue
		}
		k := t.c.num / n
		r := t.c.num % n
		if r < 0 {
			k, r = k-1, r+n
		}
		if k != 0 {
			whole = append(whole, term{ratInt(k), t.m})
		}
		if r != 0 {
			rest = append(rest, term{ratInt(r), t.m})
		}
	}
	w, ok := normalize(whole)
	if !ok {
		return Expr{}, false
	}
	r, ok := normalize(rest)
	if !ok {
		return Expr{}, false
	}
	fr, ok := floorRest(r, n)
	if !ok {
		return Expr{}, false
	}
	return Add(w, fr)
}

// floorRest returns floor(r/n) for a remainder r whose integer-valued terms have coefficients in
// [0, n), n > 1 or r not integral.
func floorRest(r Expr, n int64) (Expr, bool) {
	if len(r.t) == 0 {
		return Expr{}, true
	}
	if c, ok := r.Const(); ok {
		return Int(divX(fin(c), fin(n), false).v), true
	}
	// A remainder known to lie in [0, n) gives 0.
	if b := r.ival(); b.lo.sign() >= 0 && cmpX(b.hi, fin(n)) < 0 {
		return Expr{}, true
	}
	// Divide by the common factor of the coefficients and n: floor(g·x/(g·m)) = floor(x/m).
	if r.integral() {
		g := uint64(n)
		for _, t := range r.t {
			g = gcd(g, abs64(t.c.num))
		}
		if g > 1 {
			var ok bool
			if r, ok = scale(r, rat{1, int64(g)}); !ok {
				return Expr{}, false
			}
			n /= int64(g)
			if n == 1 {
				return r, true
			}
		}
	}
	// Nested floors: floor((floor(p/m) + s)/n) = floor((p + m·s)/(m·n)) for an integer s.
	if i, ok := lonelyFloor(r); ok {
		a := r.t[i].m[0].a
		if m, ok := a.den.Const(); ok && m > 0 {
			s := Expr{t: slices.Delete(slices.Clone(r.t), i, i+1)}
			if s.integral() {
				ms, ok1 := scale(s, ratInt(m))
				p, ok2 := Add(a.num, ms)
				mn, ok3 := mul64(m, n)
				if ok1 && ok2 && ok3 {
					return floorByConst(p, ratInt(mn))
				}
			}
		}
	}
	return floorAtomOf(r, Int(n))
}

// lonelyFloor returns the index of the one term of r that is a floor atom alone with coefficient
// 1, when there is exactly one such term and no other term holds a floor atom.
func lonelyFloor(r Expr) (int, bool) {
	found := -1
	for i, t := range r.t {
		for _, f := range t.m {
			if f.a.kind == floorAtom {
				if found >= 0 || len(t.m) != 1 || f.e != 1 || t.c != ratInt(1) {
					return 0, false
				}
				found = i
			}
		}
	}
	return found, found >= 0
}

// integerValued reports whether a monomial is an integer wherever the model runs: no negative
// powers (every atom is an integer).
func integerValued(m []factor) bool {
	for _, f := range m {
		if f.e < 0 {
			return false
		}
	}
	return true
}

func floorAtomOf(e, f Expr) (Expr, bool) {
	a := &atom{kind: floorAtom, num: e, den: f}
	a.key = e.String() + "//" + f.String()
	a.size = e.Size() + f.Size()
	if !fitsAtom(a) {
		return Expr{}, false
	}
	return fromAtom(a), true
}

// CeilDiv returns ceil(e/f): (e+f-1)//f for a positive integer f and an integer-valued e, so that
// ceil(H/2) is (H+1)//2 like the floor divisions it equals; -((-e)//f) otherwise.
func CeilDiv(e, f Expr) (Expr, bool) {
	if q, ok := f.Const(); ok && q > 0 && e.integral() {
		if n, ok := Add(e, Int(q-1)); ok {
			return FloorDiv(n, f)
		}
	}
	ne, ok := Neg(e)
	if !ok {
		return Expr{}, false
	}
	q, ok := FloorDiv(ne, f)
	if !ok {
		return Expr{}, false
	}
	return Neg(q)
}

// ival returns the interval of the values e takes, from the bounds of its symbols. A divisor
// that may be 0 is taken to be at least 1 where it cannot be negative: a run that divides by 0
// fails, so no value comes of it.
func (e Expr) ival() ival {
	if b, ok := e.periodic(); ok {
		return b
	}
	sum := point(0)
	for _, t := range e.t {
		num := point(t.c.num)
		den := point(t.c.den)
		for _, f := range t.m {
			b := f.a.ival()
			if f.e < 0 {
				b = divisor(b)
			}
			for range abs(f.e) {
				if f.e > 0 {
					num = mulI(num, b)
				} else {
					den = mulI(den, b)
				}
			}
		}
		var v ival
		if den.containsZero() {
			v = whole
		} else {
			v = divI(num, den)
		}
		sum = addI(sum, v)
	}
	return sum
}

// maxPeriod bounds the period of the sums whose bounds periodic finds by evaluating them.
const maxPeriod = 64

// periodic returns the exact bounds of e when e is a sum of a symbol x, floor divisions
// (p·x+c)//q of it (p, q > 0) and a constant, of small coefficients, whose bounds its values tell:
// of slope 0, it repeats with the least common multiple of the divisors as its period, and its
// values over one period (or its symbol's bounds, when they are narrower) are its values; of
// another slope, when each step of x changes it in one direction, its values at the ends of x's
// bounds are its bounds. H - 2*((H+1)//2) is -1 or 0, H - H//2 at least 1, where interval
// arithmetic, which forgets that the terms vary with H together, says nothing. ok is false for
// another e.
func (e Expr) periodic() (ival, bool) {
	if len(e.t) < 2 || !slices.ContainsFunc(e.t, func(t term) bool { return len(t.m) == 1 && t.m[0].a.kind == floorAtom }) {
		return ival{}, false
	}
	type part struct{ c, p, k, q int64 } // c·((p·x+k)//q), q == 1 for c·x
	parts := make([]part, 0, len(e.t))
	var x *atom
	var constant int64
	floors, ok := false, true
	period := int64(1)
	slope := rat{0, 1}
	incLo, incHi := int64(0), int64(0) // the least and greatest change of e when x grows by 1
	for _, t := range e.t {
		if !t.c.isInt() {
			return ival{}, false
		}
		switch {
		case len(t.m) == 0:
			constant = t.c.num
			continue
		case len(t.m) != 1 || t.m[0].e != 1 || abs64(t.c.num) > 1<<12:
			return ival{}, false
		}
		a := t.m[0].a
		pt := part{c: t.c.num, p: 1, q: 1}
		switch a.kind {
		case symbolAtom:
			if x != nil && x != a {
				return ival{}, false
			}
			x = a
		case floorAtom:
			q, ok := a.den.Const()
			if !ok || q <= 0 || q > maxPeriod {
				return ival{}, false
			}
			pt.p, pt.q = 0, q
			for _, u := range a.num.t {
				switch {
				case len(u.m) == 0 && u.c.isInt():
					pt.k = u.c.num
				case len(u.m) == 1 && u.m[0].e == 1 && u.m[0].a.kind == symbolAtom && (x == nil || x == u.m[0].a) && u.c.isInt() && u.c.num > 0:
					x, pt.p = u.m[0].a, u.c.num
				default:
					return ival{}, false
				}
			}
			if pt.p == 0 || pt.p > 1<<12 || abs64(pt.k) > 1<<24 {
				return ival{}, false
			}
			floors = true
			if period = period / int64(gcd(uint64(period), uint64(q))) * q; period > maxPeriod {
				return ival{}, false
			}
		default:
			return ival{}, false
		}
		r, ok1 := makeRat(pt.c*pt.p, pt.q)
		if slope, ok = slope.add(r); !ok1 || !ok {
			return ival{}, false
		}
		lo, hi := pt.c*(pt.p/pt.q), pt.c*((pt.p+pt.q-1)/pt.q)
		if pt.c < 0 {
			lo, hi = hi, lo
		}
		incLo, incHi = incLo+lo, incHi+hi
		parts = append(parts, pt)
	}
	if !floors || x == nil || x.lo < -(1<<24) || x.lo > 1<<24 {
		return ival{}, false
	}
	at := func(v int64) xint {
		sum := int64(0)
		for _, pt := range parts {
			sum += pt.c * floorDiv(pt.p*v+pt.k, pt.q)
		}
		return fin(sum)
	}
	var b ival
	switch {
	case slope.num == 0:
		b = ival{fin(1<<62 - 1), fin(-(1 << 62))}
		for v := x.lo; v < x.lo+period && v <= x.hi; v++ {
			b.lo, b.hi = minX(b.lo, at(v)), maxX(b.hi, at(v))
		}
	case incLo >= 0 || incHi <= 0:
		b = ival{at(x.lo), plusInf}
		if x.hi <= 1<<24 {
			b.hi = at(x.hi)
		} else if incHi <= 0 {
			b.hi = minusInf
		}
		if incHi <= 0 {
			b.lo, b.hi = b.hi, b.lo
		}
	default:
		return ival{}, false
	}
	return addI(b, point(constant)), true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// divisor returns the values a divisor in b can take in a run that does not fail: a non-negative
// divisor is at least 1.
func divisor(b ival) ival {
	if b.lo.sign() >= 0 && cmpX(b.lo, fin(1)) < 0 {
		b.lo = fin(1)
	}
	return b
}

func (a *atom) ival() ival {
	switch a.kind {
	case symbolAtom:
		return ivalOf(a.lo, a.hi)
	case floorAtom:
		d := divisor(a.den.ival())
		if d.containsZero() || d.empty() {
			return whole
		}
		return floorDivI(a.num.ival(), d)
	case modAtom:
		return modI(a.num.ival(), divisor(a.den.ival()))
	case floatAtom:
		return a.fl.ival()
	case minAtom, maxAtom:
		v := a.args[0].ival()
		for _, x := range a.args[1:] {
			w := x.ival()
			if a.kind == minAtom {
				v = ival{minX(v.lo, w.lo), minX(v.hi, w.hi)}
			} else {
				v = ival{maxX(v.lo, w.lo), maxX(v.hi, w.hi)}
			}
		}
		return v
	}
	d := divisor(a.den.ival())
	if d.containsZero() || d.empty() {
		return whole
	}
	return divI(a.num.ival(), d)
}

// Bounds returns the interval of the values e takes, from the bounds of its symbols: lo may be
// NegInf and hi Inf (no bound). A divisor is taken to be non-zero.
func (e Expr) Bounds() (lo, hi int64) {
	lo, hi, ok := e.ival().bounds()
	if !ok {
		return NegInf, Inf
	}
	return lo, hi
}

// Symbol returns the name of the symbol e is, when e is exactly one symbol; anon reports an
// anonymous symbol (Table.Anon).
func (e Expr) Symbol() (name string, anon, ok bool) {
	if len(e.t) != 1 || e.t[0].c != ratInt(1) || len(e.t[0].m) != 1 || e.t[0].m[0].e != 1 || e.t[0].m[0].a.kind != symbolAtom {
		return "", false, false
	}
	a := e.t[0].m[0].a
	return a.name, a.anon, true
}

// order returns the position of the symbol e is in its table (the order symbols were met), or -1
// when e is not one symbol.
func (e Expr) order() int {
	if _, _, ok := e.Symbol(); !ok {
		return -1
	}
	return e.t[0].m[0].a.order
}

// Mentions reports whether e depends on the symbol named name.
func (e Expr) Mentions(name string) bool {
	return e.anyAtom(func(a *atom) bool { return a.name == name })
}

// DependsOnAnon reports whether e holds an anonymous symbol (Table.Anon), not one of Table.Below.
func (e Expr) DependsOnAnon() bool { return e.anyAtom(isAnon) }

func isAnon(a *atom) bool { return a.anon && a.below == nil }

// anyAtom reports whether f is true of a symbol of e, walked as symbols walks them, without the
// closures of anySymbol: DependsOnAnon runs on every dim printed or checked.
func (e Expr) anyAtom(f func(*atom) bool) bool {
	for _, t := range e.t {
		for _, x := range t.m {
			switch x.a.kind {
			case symbolAtom:
				if f(x.a) {
					return true
				}
			case minAtom, maxAtom, floatAtom:
				for _, arg := range x.a.args {
					if arg.anyAtom(f) {
						return true
					}
				}
			default:
				if x.a.num.anyAtom(f) || x.a.den.anyAtom(f) {
					return true
				}
			}
		}
	}
	return false
}

// SymbolNames returns the names of the named symbols e depends on, in table order, once each.
func (e Expr) SymbolNames() []string { return symbolNames(e.symbols) }

// anySymbol reports whether walk yields a symbol for which f is true.
func anySymbol(walk func(yield func(*atom)), f func(*atom) bool) bool {
	found := false
	walk(func(a *atom) { found = found || f(a) })
	return found
}

// symbolNames returns the names of the named symbols walk yields, in table order, once each.
func symbolNames(walk func(yield func(*atom))) []string {
	var as []*atom
	walk(func(a *atom) {
		if !a.anon && !slices.Contains(as, a) {
			as = append(as, a)
		}
	})
	slices.SortFunc(as, cmpAtom)
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = a.name
	}
	return names
}
