package sym

// The volumes of two shapes equal, symbol by symbol.

import (
	"maps"
	"slices"
)

// EqProducts returns the condition that the product of the factors as equals that of bs (the
// volumes of two shapes, a factor a dim of one), in canonical form: Eq of the two products, or,
// where the factors separate by symbol, the equations of each symbol's factors. They separate
// where each factor is an integer or mentions one symbol s, s has factors on both sides, A_s on
// one and B_s on the other, and a constant c_s > 0 (the ratio of their growth) makes A_s >=
// c_s*B_s >= 0 within the symbols' bounds for every s, the c_s multiplying to the ratio of the
// integer factors. Then the products are equal exactly where every A_s == c_s*B_s, or some A_s is
// 0 (which makes its B_s 0; of those proven at least 1, none): a product of factors each at least
// its partner's is greater where one is greater and none is 0. So [N,3,T//2-(T+2)//4+6,H+4,W] to
// [N,3,((T+2)//4+T//2)//2-(T+2)//4+3,2,H//2+2,2,W//2,2] holds where each of T's, H's and W's
// factors is twice its partner, H and W even. ok is false when a product cannot be kept (see
// maxSize).
func EqProducts(as, bs []Expr) (Pred, bool) {
	a, ok1 := product(as)
	b, ok2 := product(bs)
	if !ok1 || !ok2 {
		return Pred{}, false
	}
	ka, fa, ok1 := bySymbol(as)
	kb, fb, ok2 := bySymbol(bs)
	if ok1 && ok2 && len(fa) >= 2 && len(fa) == len(fb) && ka > 0 && kb > 0 {
		if p, ok := separated(ka, fa, kb, fb); ok {
			return p, true
		}
		if p, ok := separated(kb, fb, ka, fa); ok {
			return p, true
		}
	}
	return Eq(a, b), true
}

// product returns the product of es, 1 for none.
func product(es []Expr) (Expr, bool) {
	out := Int(1)
	for _, e := range es {
		var ok bool
		if out, ok = Mul(out, e); !ok {
			return Expr{}, false
		}
	}
	return out, true
}

// volumeSteps is the budget of the proofs of separated.
const volumeSteps = 20000

// separated returns the condition that two products are equal as the equations of each symbol's
// factors (see EqProducts): the one of integer factor ka and by symbol the factors fa, the other
// of kb and fb (bySymbol), where the factors of fa are each at least those of fb times c_s; ok is
// false where they are not proven so, or the factors do not separate.
func separated(ka int64, fa map[string]Expr, kb int64, fb map[string]Expr) (Pred, bool) {
	want, ok := makeRat(kb, ka) // the product of the c_s
	if !ok {
		return Pred{}, false
	}
	all, cs := rat{1, 1}, make(map[string]Expr, len(fa))
	names := slices.Sorted(maps.Keys(fa))
	for _, name := range names {
		b, ok := fb[name]
		if !ok {
			return Pred{}, false
		}
		c, ok := growthRatio(fa[name], b)
		if !ok {
			return Pred{}, false
		}
		cb, ok1 := scale(b, c)
		all, ok = all.mul(c)
		if !ok1 || !ok {
			return Pred{}, false
		}
		cs[name] = cb
	}
	if all != want {
		return Pred{}, false
	}
	// The proofs last, as they cost most.
	prove := prover{}.budget(volumeSteps)
	for _, name := range names {
		if !prove(nil, Ge(fa[name], cs[name])) || !prove(nil, Ge(cs[name], Expr{})) {
			return Pred{}, false
		}
	}
	var eqs, zeros []Pred
	for _, name := range names {
		eqs = append(eqs, Eq(fa[name], cs[name]))
		if !prove(nil, Ge(fa[name], Int(1))) {
			zeros = append(zeros, Eq(fa[name], Expr{}))
		}
	}
	return Or(append(zeros, And(eqs...))...), true
}

// bySymbol returns the product of the integer factors of es, and by symbol name the product of
// the others, each of which mentions one symbol; ok is false where one mentions several, or a
// product cannot be kept.
func bySymbol(es []Expr) (int64, map[string]Expr, bool) {
	k := int64(1)
	out := map[string]Expr{}
	for _, e := range es {
		if n, ok := e.Const(); ok {
			if k, ok = mul64(k, n); !ok {
				return 0, nil, false
			}
			continue
		}
		names := e.SymbolNames()
		if len(names) != 1 || !e.total() {
			return 0, nil, false
		}
		f, ok := out[names[0]]
		if !ok {
			f = Int(1)
		}
		if out[names[0]], ok = Mul(f, e); !ok {
			return 0, nil, false
		}
	}
	return k, out, true
}

// growthRatio returns the ratio of the growth of a to that of b, expressions of one and the same
// symbol, over a long step far from 0 (a multiple of every small period, where a floor division
// and a maximum grow as their dividend and argument do): 2 of H+4 and H//2+2. A guess, which
// separated proves; ok is false where b does not grow there, or the ratio is not positive.
func growthRatio(a, b Expr) (rat, bool) {
	const from, step = 1 << 30, 720720 // 720720: the least multiple of 1..16
	var lo, hi int64 = 1, Inf
	a.symbols(func(s *atom) { lo, hi = s.lo, s.hi })
	v := max(from, lo)
	if v > hi-step {
		return rat{}, false
	}
	at := func(e Expr, n int64) (int64, bool) {
		r, err := e.Eval(func(string) (int64, bool) { return n, true })
		return r, err == nil
	}
	a0, ok1 := at(a, v)
	a1, ok2 := at(a, v+step)
	b0, ok3 := at(b, v)
	b1, ok4 := at(b, v+step)
	if !ok1 || !ok2 || !ok3 || !ok4 || b1-b0 == 0 {
		return rat{}, false
	}
	c, ok := makeRat(a1-a0, b1-b0)
	return c, ok && c.num > 0
}

// DivisibleProducts returns the condition that the product of the factors bs divides that of as
// (the -1 of a Reshape: the other output dims divide the input's volume), in canonical form:
// Divisible of the two products, with each factor b of bs that a factor a of as is an integer
// multiple of (a == k*b), or a divisor of (b == k*a), taken out of both first, and stated not 0:
// (g*k*X) % (g*Y) == 0 is g != 0 && (k*X) % Y == 0, the same at every binding (at g == 0 the
// divisor is 0). So 8*N*A*(H//2-1) % (4*(H-2)*A) with A = W-(2*W+2)//3 is 2*N*(H//2-1) % (H-2)
// where A is not 0. ok is false when a product cannot be kept (see maxSize).
func DivisibleProducts(as, bs []Expr) (Pred, bool) {
	as, bs = slices.Clone(as), slices.Clone(bs)
	var nonZero []Pred
	for j, b := range bs {
		if _, ok := b.Const(); ok {
			continue
		}
		for i, a := range as {
			k, ok := ratio(a, b) // a == k*b
			if _, isConst := a.Const(); isConst || !ok || k.num == 0 {
				continue
			}
			g := b
			switch {
			case k.isInt():
				as[i], bs[j] = Int(k.num), Int(1)
			case k.num == 1 || k.num == -1:
				as[i], bs[j], g = Int(1), Int(k.num*k.den), a
			default:
				continue
			}
			nonZero = append(nonZero, Ne(g, Expr{}))
			break
		}
	}
	a, ok1 := product(as)
	b, ok2 := product(bs)
	if !ok1 || !ok2 {
		return Pred{}, false
	}
	p, ok := Divisible(a, b)
	if !ok {
		return Pred{}, false
	}
	return And(append(nonZero, p)...), true
}
