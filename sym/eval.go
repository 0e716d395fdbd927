package sym

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/errcode"
)

// Eval returns the value of e when each symbol takes the value value(name) gives, computed exactly
// (intermediate terms may exceed int64). The error is an *UnboundError, which wraps
// errcode.ErrSyntax, for a symbol value does not give; it wraps errcode.ErrOverflow for a result beyond int64, errcode.ErrNotDivisible for an exact
// quotient that does not divide, and errcode.ErrInvalidShape for a division by zero: the model
// would fail at that binding.
func (e Expr) Eval(value func(name string) (int64, bool)) (int64, error) {
	if v, ok := int64At(e, value); ok {
		return v, nil
	}
	r, err := e.evalRat(value)
	if err != nil {
		return 0, err
	}
	if !r.IsInt() {
		return 0, errcode.Errorf(errcode.ErrNotDivisible, "%s is %s, not an integer, at this binding", e, r.RatString())
	}
	if !r.Num().IsInt64() {
		return 0, errcode.Errorf(errcode.ErrOverflow, "%s is %s at this binding, beyond int64", e, r.RatString())
	}
	return r.Num().Int64(), nil
}

func (e Expr) evalRat(value func(string) (int64, bool)) (*big.Rat, error) {
	sum := new(big.Rat)
	for _, t := range e.t {
		p := big.NewRat(t.c.num, t.c.den)
		for _, f := range t.m {
			v, err := f.a.eval(value)
			if err != nil {
				return nil, err
			}
			if f.e < 0 {
				if v.Sign() == 0 {
					return nil, errcode.Errorf(errcode.ErrInvalidShape, "%s divides by %s = 0 at this binding", e, f.a.key)
				}
				v.Inv(v)
			}
			for range abs(f.e) {
				p.Mul(p, v)
			}
		}
		sum.Add(sum, p)
	}
	return sum, nil
}

// operand returns the value of e, an operand of an atom, which has one only where it is an
// integer: max(2,N*T/2) and (N/2) % 3 have none at N = 7, T = 1, as bench/grid/predicate.py reads
// them, however the terms around them make the whole an integer.
func (e Expr) operand(value func(string) (int64, bool)) (*big.Rat, error) {
	v, err := e.evalRat(value)
	if err == nil && !v.IsInt() {
		return nil, errcode.Errorf(errcode.ErrNotDivisible, "%s is %s, not an integer, at this binding", e, v.RatString())
	}
	return v, err
}

func (a *atom) eval(value func(string) (int64, bool)) (*big.Rat, error) {
	switch a.kind {
	case symbolAtom:
		v, ok := value(a.name)
		if !ok {
			return nil, &UnboundError{Name: a.name}
		}
		return new(big.Rat).SetInt64(v), nil
	case floatAtom:
		v, err := a.fl.evalTrunc(func(e Expr) (int64, error) { return e.Eval(value) })
		if err != nil {
			return nil, err
		}
		return new(big.Rat).SetInt64(v), nil
	case minAtom, maxAtom:
		var m *big.Rat
		for _, x := range a.args {
			v, err := x.operand(value)
			if err != nil {
				return nil, err
			}
			if m == nil || a.kind == minAtom && v.Cmp(m) < 0 || a.kind == maxAtom && v.Cmp(m) > 0 {
				m = v
			}
		}
		return m, nil
	}
	n, err := a.num.operand(value)
	if err != nil {
		return nil, err
	}
	d, err := a.den.operand(value)
	if err != nil {
		return nil, err
	}
	if d.Sign() == 0 {
		return nil, errcode.Errorf(errcode.ErrInvalidShape, "%s divides by zero at this binding", a.key)
	}
	q := new(big.Rat).Quo(n, d)
	if a.kind == quotAtom {
		if !q.IsInt() {
			return nil, errcode.Errorf(errcode.ErrNotDivisible, "%s does not divide at this binding", a.key)
		}
		return q, nil
	}
	// floor(num/den) of the reduced fraction: big.Int.Div rounds toward -inf for a positive
	// divisor (Euclidean division), and the denominator of a big.Rat is positive.
	fl := new(big.Rat).SetInt(new(big.Int).Div(q.Num(), q.Denom()))
	if a.kind == floorAtom {
		return fl, nil
	}
	// num mod den = num - den·floor(num/den), with the sign of den.
	return n.Sub(n, fl.Mul(fl, d)), nil
}

// Subst returns e with each symbol s replaced by sub(name of s) where it gives one, simplified
// again; ok is false when the result cannot be kept (see maxSize), divides by zero, or has no
// value (7/(N+3) at N = 0: see substitution).
func (e Expr) Subst(sub func(name string) (Expr, bool)) (Expr, bool) {
	s := substitution{sub: sub}
	return s.expr(e)
}

// substitution replaces symbols in expressions as Expr.Subst does, noting where an atom has no
// value once they are replaced: a divisor that becomes 0, or an operand of an exact quotient, a
// floor division, a remainder or an extremum, or the exact quotient itself, that becomes a
// constant that is not an integer (7/(N+3) at N = 0 is 7/3, which does not divide). Each operand
// is an integer wherever the atom has a value, so such a constant means the model does not run
// there, and a comparison that holds the atom has no value (Pred.Subst leaves it undecided).
type substitution struct {
	sub  func(name string) (Expr, bool)
	none bool // an atom has no value
	// divisors and wholes are what the atoms need to have the values the substitution gives
	// them, which Pred.Subst keeps: each divisor cancelled (see cancelled) not 0, and each exact
	// quotient that became a fraction whole (H/max(N,3) with 1 for N is H/3: H % 3 == 0).
	divisors []Expr
	wholes   []Pred
}

// expr returns e with the substitution applied, as Expr.Subst does.
func (s *substitution) expr(e Expr) (Expr, bool) {
	r, den, ok := e.rebuild(s.atom)
	if ok {
		ok = s.kept(r, den)
	}
	return r, ok
}

// kept notes what r, an exact quotient by den or the floor division or remainder of another
// operand by it, needs to have a value: den not 0 where r no longer divides by it, and r whole
// where it became a fraction; ok is false when that cannot be kept (see maxSize).
func (s *substitution) kept(r, den Expr) bool {
	s.divisors = append(s.divisors, cancelled(r, den)...)
	if n, ok := den.Const(); ok && n == 1 || !slices.ContainsFunc(r.t, func(t term) bool { return !t.c.isInt() }) {
		return true
	}
	w, ok := integerOf(r)
	if ok {
		s.wholes = append(s.wholes, w)
	}
	return ok
}

// value returns x with the substitution applied, a constant or a symbol the substitution leaves
// alone as it is, without rebuilding it (substExpr).
func (s *substitution) value(x Expr) (Expr, bool) {
	if _, ok := x.Const(); ok {
		return x, true
	}
	if name, _, ok := x.Symbol(); ok {
		if y, ok := s.sub(name); ok {
			return y, true
		}
		return x, true
	}
	return s.expr(x)
}

// valued reports whether the operand x, substituted, may have a value: false, noting it, for a
// constant that is not an integer.
func (s *substitution) valued(x Expr) bool {
	if c, ok := x.constRat(); ok && !c.isInt() {
		s.none = true
		return false
	}
	return true
}

// rebuild returns e made again with each atom a of its terms replaced by at(a), and the
// denominator it divided by (1 where e has no negative power): e's value is the sum of its terms
// in rationals, an integer where e has one (Eval), so the terms are summed over a common
// denominator, the product of each atom's deepest negative power, which divides the sum once
// (2*W/D-2/D with W-1 for D is (2*W-2)/(W-1), 2, where dividing each term would give an exact
// quotient that has no value at W = 4). ok is false when at gives none or the result cannot be kept
// (see maxSize) or divides by zero.
func (e Expr) rebuild(at func(*atom) (Expr, bool)) (r, den Expr, ok bool) {
	deep := negativePowers(e.t)
	// at(a) once an atom: it may note what it finds (substitution.atom).
	var seen []factor
	var vals []Expr
	value := func(a *atom) (Expr, bool) {
		if i := indexAtom(seen, a); i >= 0 {
			return vals[i], true
		}
		v, ok := at(a)
		if ok {
			seen, vals = append(seen, factor{a: a}), append(vals, v)
		}
		return v, ok
	}
	times := func(p Expr, a *atom, k int) (Expr, bool) {
		v, ok := value(a)
		for ; ok && k > 0; k-- {
			p, ok = Mul(p, v)
		}
		return p, ok
	}
	sum, den := Expr{}, Int(1)
	for _, d := range deep {
		if den, ok = times(den, d.a, d.e); !ok {
			return Expr{}, Expr{}, false
		}
	}
	for _, t := range e.t {
		p := Expr{t: []term{{c: t.c}}}
		for _, f := range t.m {
			if p, ok = times(p, f.a, max(f.e, 0)); !ok {
				return Expr{}, Expr{}, false
			}
		}
		for _, d := range deep {
			k := d.e
			if i := indexAtom(t.m, d.a); i >= 0 && t.m[i].e < 0 {
				k += t.m[i].e
			}
			if p, ok = times(p, d.a, k); !ok {
				return Expr{}, Expr{}, false
			}
		}
		if sum, ok = Add(sum, p); !ok {
			return Expr{}, Expr{}, false
		}
	}
	if len(deep) == 0 {
		return sum, den, true
	}
	if r, ok = Quo(sum, den); !ok {
		return Expr{}, Expr{}, false
	}
	return r, den, true
}

// indexAtom returns the index of the factor of a in fs, or -1.
// negativePowers returns the atoms to a negative power in the terms ts, in the order they first
// appear, each with the depth of its deepest such power (2 for H of W/H-1/H**2): the monomial of
// their common denominator.
func negativePowers(ts []term) []factor {
	var deep []factor
	for _, t := range ts {
		for _, f := range t.m {
			if f.e >= 0 {
				continue
			}
			if i := indexAtom(deep, f.a); i >= 0 {
				deep[i].e = max(deep[i].e, -f.e)
			} else {
				deep = append(deep, factor{a: f.a, e: -f.e})
			}
		}
	}
	return deep
}

// denominatorOf returns the least common multiple of the denominators of the coefficients of the
// terms ts (6 for H/2+W/3); ok is false when it would leave int64.
func denominatorOf(ts []term) (l int64, ok bool) {
	l = 1
	for _, t := range ts {
		if l, ok = mul64(l/int64(gcd(uint64(l), uint64(t.c.den))), t.c.den); !ok {
			return 0, false
		}
	}
	return l, true
}

func indexAtom(fs []factor, a *atom) int {
	return slices.IndexFunc(fs, func(f factor) bool { return cmpAtom(f.a, a) == 0 })
}

// atom returns the atom a with the substitution applied; ok is false where it has no value (see
// substitution) or cannot be kept.
func (s *substitution) atom(a *atom) (Expr, bool) {
	switch a.kind {
	case symbolAtom:
		if v, ok := s.sub(a.name); ok {
			return v, true
		}
		return fromAtom(a), true
	case floatAtom:
		return a.refloat(s.value)
	case minAtom, maxAtom:
		args := make([]Expr, 0, len(a.args))
		for _, x := range a.args {
			v, ok := s.expr(x)
			if !ok || !s.valued(v) {
				return Expr{}, false
			}
			args = appendArgs(args, a.kind, v)
		}
		return extremumOf(a.kind, args)
	}
	n, ok1 := s.expr(a.num)
	d, ok2 := s.expr(a.den)
	if !ok1 || !ok2 || !s.valued(n) || !s.valued(d) {
		return Expr{}, false
	}
	if d.IsZero() {
		s.none = true
		return Expr{}, false
	}
	var r Expr
	switch a.kind {
	case floorAtom:
		r, ok1 = FloorDiv(n, d)
	case modAtom:
		r, ok1 = Mod(n, d)
	default:
		r, ok1 = Quo(n, d)
		ok1 = ok1 && s.valued(r)
	}
	if !ok1 || a.kind == quotAtom && !s.kept(r, d) {
		return Expr{}, false
	}
	if a.kind != quotAtom {
		s.divisors = append(s.divisors, cancelled(r, d)...)
	}
	return r, true
}

// UnboundError is the error of an evaluation at a binding that gives no value to a symbol the
// expression, dim, shape or predicate depends on. It wraps errcode.ErrSyntax.
type UnboundError struct {
	Name string // the symbol's name
}

// Error returns "symbol N has no value", the name as the notation writes it.
func (e *UnboundError) Error() string {
	return "symbol " + string(appendName(nil, e.Name)) + " has no value"
}

// Unwrap returns errcode.ErrSyntax.
func (e *UnboundError) Unwrap() error { return errcode.ErrSyntax }

// Eval returns d's value at the binding b of symbols to integers (map[string]int64{"N": 8}): its
// constant, or its expression evaluated as Expr.Eval does, with its errors (*UnboundError for a
// symbol b does not bind). A dim known only by its bounds, or by an anonymous symbol, has no value
// that a binding gives: its error wraps errcode.ErrInvalidShape and gives its bounds. The value is
// not checked against d's bounds.
func (d Dim) Eval(b map[string]int64) (int64, error) {
	if n, ok := d.Static(); ok {
		return n, nil
	}
	if !d.Determined() {
		return 0, errcode.Errorf(errcode.ErrInvalidShape, "dim %v: known only by its bounds, no binding of the symbols gives its value", d)
	}
	return d.e.Eval(lookup(b))
}

func lookup(b map[string]int64) func(string) (int64, bool) {
	return func(name string) (int64, bool) {
		v, ok := b[name]
		return v, ok
	}
}

// Eval returns the dims of s at the binding b (Dim.Eval), in a new slice; the error of a dim names
// its index ("dim[1]: symbol T has no value") and wraps the dim's error. A shape of dynamic rank
// has no dims to give, and a dim below 0 is no size ("dim[1]: (L+80)//160-2 is -1 at L=100"):
// their errors wrap errcode.ErrInvalidShape. A binding that breaks a condition of the model gives
// such a dim, or one that the model refuses: graph.Result.Eval checks the binding against the
// model's conditions first, and names the one it breaks.
func (s Shape) Eval(b map[string]int64) ([]int64, error) {
	if s.RankDynamic {
		return nil, errcode.Errorf(errcode.ErrInvalidShape, "shape [...]: its rank is unknown, no binding of the symbols gives its dims")
	}
	out := make([]int64, len(s.Dims))
	for i, d := range s.Dims {
		v, err := d.Eval(b)
		if err != nil {
			return nil, fmt.Errorf("dim[%d]: %w", i, err)
		}
		if v < 0 {
			return nil, errcode.Errorf(errcode.ErrInvalidShape, "dim[%d]: %v is %d at %s: no size is below 0", i, d, v, bindingOf(b, d))
		}
		out[i] = v
	}
	return out, nil
}

// bindingOf returns the values b gives the symbols of d, as a ConstraintError prints them:
// "H=3, W=5".
func bindingOf(b map[string]int64, d Dim) string {
	x, _ := d.Expr()
	names := x.SymbolNames()
	parts := make([]string, 0, len(names))
	for _, n := range names {
		parts = append(parts, string(appendName(nil, n))+"="+strconv.FormatInt(b[n], 10))
	}
	return strings.Join(parts, ", ")
}

// Subst returns d with each symbol s of its expression replaced by sub(name of s) where it gives
// one, simplified again, and narrowed to d's bounds. A static dim, or one known only by its
// bounds, is d itself; so is an expression that is a symbol sub leaves alone, without being
// rebuilt. When the result cannot be kept (see maxSize), d keeps only its bounds.
func (d Dim) Subst(sub func(name string) (Expr, bool)) Dim {
	if d.lo == d.hi || !d.exact {
		return d
	}
	y, ok := substExpr(d.e, sub)
	if !ok {
		return Interval(d.lo, d.hi)
	}
	if n, ok := Of(y).Narrow(d.lo, d.hi); ok {
		return n
	}
	return Of(y)
}

// substExpr applies a substitution as Expr.Subst does, and returns a constant, or a symbol the
// substitution leaves alone, as it is, without rebuilding it.
func substExpr(x Expr, sub func(string) (Expr, bool)) (Expr, bool) {
	s := substitution{sub: sub}
	return s.value(x)
}
