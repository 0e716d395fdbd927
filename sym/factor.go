package sym

import (
	"math"
	"strconv"
)

// A comparison of polynomials prints with its sides factored where that is shorter: a volume
// equation of a Reshape, N*(H//4)*(W//2)+N*(H//4)+3*N*(W//2)+3*N == 240, is the product it
// compares, N*(H//4+3)*(W//2+1) == 240. The sum is cut into the groups of terms that share no
// atom; each group loses its content and common monomial, and a sum x*A + c*A + k is (x+c)*A + k,
// the constant k going to the constant of the comparison. A factor x+c of a floor division x prints
// as one floor division where that is shorter ((H+2)//3-1 is (H-1)//3). Every form reads back as
// the expression it prints: the value of each piece is kept beside its text and checked.

// fpiece is the text of a polynomial with a positive leading coefficient, and its value.
type fpiece struct {
	text []byte
	val  Expr
	sum  bool // the text is a sum, a difference or a floor division: a factor in parentheses
	// factored is whether the text holds a product with a factor that p's terms do not show.
	factored bool
}

// plainPiece is e as String prints it.
func plainPiece(e Expr) fpiece {
	return fpiece{text: e.AppendText(nil), val: e, sum: len(e.t) > 1}
}

// shorter returns the shorter of a and b as a factor (a sum counting its parentheses), on a tie
// b when it is a product and a is not, a otherwise.
func shorter(a, b fpiece) fpiece {
	if b.cost() < a.cost() || b.cost() == a.cost() && a.sum && !b.sum {
		return b
	}
	return a
}

func (f fpiece) cost() int {
	if f.sum {
		return len(f.text) + 2
	}
	return len(f.text)
}

// factorable reports whether e may print shorter factored: a polynomial with integer
// coefficients, of two or more terms that are not constant, one of them a product.
func factorable(e Expr) bool {
	if !e.integral() {
		return false
	}
	n, prod := 0, false
	for _, t := range e.t {
		if len(t.m) > 0 {
			n++
			prod = prod || degree(t.m) > 1
		}
	}
	return n >= 2 && prod
}

// factorPoly returns the shortest text of p (integral, its leading coefficient positive) that
// this file finds: p as it prints, the product of its content, its common monomial and the rest,
// a product (x+c)*A, or the sum of its groups of terms that share no atom.
func factorPoly(p Expr) fpiece {
	best := plainPiece(p)
	if len(p.t) < 2 {
		return best
	}
	if g, m, q, ok := commonPart(p); ok {
		if f, ok := productPiece(g, m, []fpiece{factorPoly(q)}); ok {
			return shorter(best, f)
		}
		return best
	}
	if x, c, ok := atomPlus(p); ok {
		return shorter(best, binomialPiece(x, 1, c))
	}
	for _, x := range atomsOf(p) {
		b, ok := binomial(p, x)
		if !ok || b.k != 0 {
			continue
		}
		if f, ok := productPiece(1, nil, []fpiece{binomialPiece(x, b.d, b.c), factorPoly(b.a)}); ok {
			best = shorter(best, f)
		}
	}
	if gs := groups(p); len(gs) > 1 {
		if f, ok := sumPiece(gs); ok {
			_, k := split(p)
			if f, ok = addConst(f, k); ok {
				best = shorter(best, f)
			}
		}
	}
	return best
}

// sumPiece returns the sum of gs, each printed by factorPoly with its sign before it, in
// parentheses after a minus when it is a sum.
func sumPiece(gs []Expr) (fpiece, bool) {
	var text []byte
	var val Expr
	factored := false
	for _, g := range gs {
		neg := g.t[0].c.num < 0
		if neg {
			var ok bool
			if g, ok = Neg(g); !ok {
				return fpiece{}, false
			}
		}
		f := factorPoly(g)
		factored = factored || f.factored
		var ok bool
		switch {
		case neg:
			text = appendOperand(append(text, '-'), rawText(f.text), f.sum)
			val, ok = Sub(val, f.val)
		default:
			if len(text) > 0 {
				text = append(text, '+')
			}
			text = append(text, f.text...)
			val, ok = Add(val, f.val)
		}
		if !ok {
			return fpiece{}, false
		}
	}
	return fpiece{text: text, val: val, sum: true, factored: factored}, true
}

// factorGroup returns the texts of a group of terms g (its leading coefficient positive):
// factorPoly's, and where there is one, the shortest n*(x+c)*A with g = n*((x+c)*A + j), n the
// content of g, and the constant n*j that it leaves (not 0).
func factorGroup(g Expr) (exact, left fpiece, k int64, ok bool) {
	exact = factorPoly(g)
	n, q := int64(1), g
	if c, m, r, ok := commonPart(g); ok {
		if len(m) > 0 {
			return exact, fpiece{}, 0, false
		}
		n, q = c, r
	}
	for _, x := range atomsOf(q) {
		b, bok := binomial(q, x)
		if !bok || b.k == 0 {
			continue
		}
		bk, ok1 := mul64(n, b.k)
		f, ok2 := productPiece(n, nil, []fpiece{binomialPiece(x, b.d, b.c), factorPoly(b.a)})
		if ok1 && ok2 && (!ok || len(f.text) < len(left.text)) {
			left, k, ok = f, bk, true
		}
	}
	return exact, left, k, ok
}

// addPiece returns s + f.
func addPiece(s, f fpiece) (fpiece, bool) {
	text := append([]byte(nil), s.text...)
	if len(text) > 0 {
		text = append(text, '+')
	}
	v, ok := Add(s.val, f.val)
	return fpiece{text: append(text, f.text...), val: v, sum: true, factored: s.factored || f.factored}, ok
}

// productPiece returns g*m*fs[0]*fs[1]..., each factor that is a sum in parentheses.
func productPiece(g int64, m []factor, fs []fpiece) (fpiece, bool) {
	val := Expr{t: []term{{c: ratInt(g), m: m}}}
	var text []byte
	if g != 1 || len(m) == 0 && len(fs) == 0 {
		text = strconv.AppendInt(text, g, 10)
	}
	for _, f := range m {
		for range f.e {
			if len(text) > 0 {
				text = append(text, '*')
			}
			text = appendAtom(text, f.a, false)
		}
	}
	for _, f := range fs {
		if len(text) > 0 {
			text = append(text, '*')
		}
		text = appendOperand(text, rawText(f.text), f.sum)
		var ok bool
		if val, ok = Mul(val, f.val); !ok {
			return fpiece{}, false
		}
	}
	return fpiece{text: text, val: val, factored: true}, true
}

// rawText is text that appendOperand appends.
type rawText []byte

func (t rawText) AppendText(b []byte) []byte { return append(b, t...) }

// binomialPiece returns d*x+c, or for d = 1 and a floor division x = n//q, (n+c*q)//q when
// that is shorter.
func binomialPiece(x *atom, d, c int64) fpiece {
	v, _ := Add(Expr{t: []term{{c: ratInt(d), m: []factor{{x, 1}}}}}, Int(c))
	best := plainPiece(v)
	if q, ok := x.den.Const(); ok && x.kind == floorAtom && d == 1 && q > 0 {
		if cq, ok := mul64(c, q); ok {
			if n, ok := Add(x.num, Int(cq)); ok {
				if f, ok := FloorDiv(n, x.den); ok && f.Equal(v) {
					text := appendOperand(nil, n, len(n.t) > 1)
					text = append(append(text, '/', '/'), strconv.FormatInt(q, 10)...)
					best = shorter(best, fpiece{text: text, val: v, sum: true})
				}
			}
		}
	}
	return best
}

// atomPlus returns x and c of p = x+c, x an atom.
func atomPlus(p Expr) (*atom, int64, bool) {
	l, c := split(p)
	if len(l.t) != 1 || len(p.t) != 2 || l.t[0].c != ratInt(1) || len(l.t[0].m) != 1 || l.t[0].m[0].e != 1 {
		return nil, 0, false
	}
	return l.t[0].m[0].a, c, true
}

// commonPart returns p = g*m*q for g the content of p (its leading coefficient positive), m the
// monomial that divides every term, and q what is left; ok is false when g is 1 and m empty.
func commonPart(p Expr) (g int64, m []factor, q Expr, ok bool) {
	var u uint64
	for _, t := range p.t {
		u = gcd(u, abs64(t.c.num))
	}
	g = int64(u)
	m = p.t[0].m
	for _, t := range p.t[1:] {
		m = commonMono(m, t.m)
	}
	if g <= 1 && len(m) == 0 {
		return 0, nil, Expr{}, false
	}
	ts := make([]term, len(p.t))
	inv := make([]factor, len(m))
	for i, f := range m {
		inv[i] = factor{f.a, -f.e}
	}
	for i, t := range p.t {
		ts[i] = term{c: ratInt(t.c.num / g), m: mulMono(t.m, inv)}
	}
	q, ok = normalize(ts)
	return g, m, q, ok
}

// commonMono returns the monomial that divides a and b.
func commonMono(a, b []factor) []factor {
	var out []factor
	for _, f := range a {
		if e := min(f.e, power(b, f.a)); e > 0 {
			out = append(out, factor{f.a, e})
		}
	}
	return out
}

// atomsOf returns the atoms of p's terms, in order, once each.
func atomsOf(p Expr) []*atom {
	var out []*atom
	for _, t := range p.t {
		for _, f := range t.m {
			if !containsAtom(out, f.a) {
				out = append(out, f.a)
			}
		}
	}
	return out
}

func containsAtom(as []*atom, a *atom) bool {
	for _, b := range as {
		if cmpAtom(a, b) == 0 {
			return true
		}
	}
	return false
}

// binom is p = (d*x+c)*a + k for an atom x, d > 0 and c non-zero coprime integers, and k an
// integer.
type binom struct {
	d, c, k int64
	a       Expr
}

// binomial writes p as a binom: the terms of p that x divides are x*d*a, and the others are c*a +
// k. ok is false for another p, or where a's leading coefficient is negative.
func binomial(p Expr, x *atom) (b binom, ok bool) {
	var in, out []term
	for _, t := range p.t {
		if power(t.m, x) > 0 {
			in = append(in, term{c: t.c, m: mulMono(t.m, []factor{{x, -1}})})
		} else {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return binom{}, false
	}
	xa, ok1 := normalize(in) // d*a
	rest, ok2 := normalize(out)
	al, ac := split(xa)
	bl, bc := split(rest)
	if !ok1 || !ok2 || len(al.t) == 0 || xa.t[0].c.num < 0 {
		return binom{}, false
	}
	r, ok := ratio(bl, al) // c/d
	if !ok {
		return binom{}, false
	}
	b.d, b.c = r.den, r.num
	var g uint64
	for _, t := range xa.t {
		g = gcd(g, abs64(t.c.num))
	}
	if g%uint64(b.d) != 0 {
		return binom{}, false
	}
	if b.a, ok = scaleTerms(xa, rat{1, b.d}); !ok {
		return binom{}, false
	}
	_, aconst := split(b.a)
	rc, ok1 := mul64(b.c, aconst)
	b.k, ok2 = add64(bc, -rc)
	return b, ok1 && ok2 && rc != math.MinInt64 && ac%b.d == 0
}

// groups returns the sums of the terms of p (not constant) that share atoms, transitively: p less
// its constant is their sum, and no two of them have an atom in common.
func groups(p Expr) []Expr {
	var gs [][]term
	var atoms [][]*atom
	for _, t := range p.t {
		if len(t.m) == 0 {
			continue
		}
		g := -1
		for i := 0; i < len(gs); i++ {
			if !sharesAtom(atoms[i], t.m) {
				continue
			}
			if g < 0 {
				g = i
				continue
			}
			gs[g] = append(gs[g], gs[i]...)
			atoms[g] = append(atoms[g], atoms[i]...)
			gs = append(gs[:i], gs[i+1:]...)
			atoms = append(atoms[:i], atoms[i+1:]...)
			i--
		}
		if g < 0 {
			gs = append(gs, nil)
			atoms = append(atoms, nil)
			g = len(gs) - 1
		}
		gs[g] = append(gs[g], t)
		for _, f := range t.m {
			atoms[g] = append(atoms[g], f.a)
		}
	}
	out := make([]Expr, 0, len(gs))
	for _, g := range gs {
		e, _ := normalize(g)
		out = append(out, e)
	}
	return out
}

func sharesAtom(as []*atom, m []factor) bool {
	for _, f := range m {
		if containsAtom(as, f.a) {
			return true
		}
	}
	return false
}

// maxGroups bounds the groups whose forms appendFactored combines.
const maxGroups = 6

// appendFactored appends the comparison e op 0 with its sides factored, the shortest text of
// those that take each group of terms (groups) exactly or with a constant left over: the groups of
// positive leading coefficient on the left, the others negated and the constant on the right (the
// sides swapped when the left is empty, >= becoming <=). ok is false when e is not factorable, or
// a piece's value is not what it prints.
func appendFactored(b []byte, e Expr, op Op) ([]byte, bool) {
	if !factorable(e) {
		return b, false
	}
	gs := groups(e)
	if len(gs) > maxGroups {
		return b, false
	}
	type form struct {
		neg         bool
		exact, left fpiece
		k           int64
		hasLeft     bool
	}
	forms := make([]form, len(gs))
	var choices uint
	for i, g := range gs {
		f := &forms[i]
		if f.neg = g.t[0].c.num < 0; f.neg {
			var ok bool
			if g, ok = Neg(g); !ok {
				return b, false
			}
		}
		f.exact, f.left, f.k, f.hasLeft = factorGroup(g)
		if f.hasLeft {
			choices |= 1 << i
		}
	}
	_, k0 := split(e)
	var best []byte
	for mask := uint(0); mask < 1<<len(gs); mask++ {
		if mask&^choices != 0 {
			continue
		}
		var left, right fpiece
		k, ok := k0, true // e = left - right + k
		for i, f := range forms {
			p, gk := f.exact, int64(0)
			if mask&(1<<i) != 0 {
				p, gk = f.left, f.k
			}
			if f.neg {
				right, ok = addPiece(right, p)
				gk = -gk
			} else {
				left, ok = addPiece(left, p)
			}
			if !ok {
				return b, false
			}
			if k, ok = add64(k, gk); !ok {
				return b, false
			}
		}
		if text, ok := comparison(e, op, left, right, k); ok && (best == nil || len(text) < len(best)) {
			best = text
		}
	}
	return append(b, best...), best != nil
}

// comparison returns the text left - right + k op 0, the constant on the right; ok is false when
// neither side is factored, or its value is not e op 0.
func comparison(e Expr, op Op, left, right fpiece, k int64) ([]byte, bool) {
	if !left.factored && !right.factored {
		return nil, false
	}
	text, swapped := op.String(), len(left.text) == 0
	var ok bool
	if swapped { // -right + k op 0: right op' k
		left, right = right, fpiece{}
		if op == OpGe {
			text = "<="
		}
	} else if k, ok = negate64(k); !ok { // left op right - k
		return nil, false
	}
	if op == OpGe && !swapped && k == 1 && len(right.text) > 0 { // x >= y+1 is x > y
		text, k = ">", 0
	}
	if right, ok = addConst(right, k); !ok {
		return nil, false
	}
	d, ok := Sub(left.val, right.val)
	switch {
	case ok && swapped:
		d, ok = Neg(d)
	case ok && text == ">":
		d, ok = Add(d, Int(-1))
	}
	if !ok || !d.Equal(e) {
		return nil, false
	}
	b := append([]byte(nil), left.text...)
	b = append(append(append(b, ' '), text...), ' ')
	return append(b, right.text...), true
}

func negate64(k int64) (int64, bool) { return -k, k != math.MinInt64 }

// addConst returns s + k, k left out when it is 0 and s is not empty.
func addConst(s fpiece, k int64) (fpiece, bool) {
	if k == 0 && len(s.text) > 0 {
		return s, true
	}
	v, ok := Add(s.val, Int(k))
	text := append([]byte(nil), s.text...)
	if k >= 0 && len(text) > 0 {
		text = append(text, '+')
	}
	return fpiece{text: strconv.AppendInt(text, k, 10), val: v, sum: true, factored: s.factored}, ok
}
