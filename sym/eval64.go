package sym

// The fast path of evaluation: the same arithmetic as evalRat in int64 rationals (rat), which
// allocates nothing. It gives up (ok false) where a value leaves int64, and where evaluation meets
// an error (a symbol without a value, a division by zero, an exact quotient that does not divide):
// the caller then evaluates with big.Rat, which gives the exact value or the error. Pred.Eval over
// every cell of a 512x512 grid (package sizemap) is what it is for.

// eval64 returns the value of e at the binding value gives, as evalRat does, ok false where it
// gives up.
func (e Expr) eval64(value func(string) (int64, bool)) (rat, bool) {
	sum := rat{0, 1}
	for _, t := range e.t {
		p := t.c
		for _, f := range t.m {
			v, ok := f.a.eval64(value)
			if !ok {
				return rat{}, false
			}
			if f.e < 0 {
				if v.num == 0 {
					return rat{}, false
				}
				if v, ok = v.inv(); !ok {
					return rat{}, false
				}
			}
			for range abs(f.e) {
				if p, ok = p.mul(v); !ok {
					return rat{}, false
				}
			}
		}
		var ok bool
		if sum, ok = sum.add(p); !ok {
			return rat{}, false
		}
	}
	return sum, true
}

func (a *atom) eval64(value func(string) (int64, bool)) (rat, bool) {
	switch a.kind {
	case symbolAtom:
		v, ok := value(a.name)
		return ratInt(v), ok
	case floatAtom:
		v, err := a.fl.evalTrunc(func(e Expr) (int64, error) {
			if v, ok := int64At(e, value); ok {
				return v, nil
			}
			return 0, errGiveUp
		})
		return ratInt(v), err == nil
	case minAtom, maxAtom:
		var m rat
		for i, x := range a.args {
			v, ok := x.eval64(value)
			if !ok {
				return rat{}, false
			}
			if c := cmpRat(v, m); i == 0 || a.kind == minAtom && c < 0 || a.kind == maxAtom && c > 0 {
				m = v
			}
		}
		return m, true
	}
	n, ok1 := a.num.eval64(value)
	d, ok2 := a.den.eval64(value)
	if !ok1 || !ok2 || d.num == 0 {
		return rat{}, false
	}
	inv, ok := d.inv()
	if !ok {
		return rat{}, false
	}
	q, ok := n.mul(inv)
	if !ok {
		return rat{}, false
	}
	switch a.kind {
	case quotAtom:
		return q, q.isInt()
	case floorAtom:
		return ratInt(floorDiv(q.num, q.den)), true
	}
	// num mod den = num - den·floor(num/den), with the sign of den.
	fd, ok := d.mul(ratInt(floorDiv(q.num, q.den)))
	if !ok {
		return rat{}, false
	}
	if fd, ok = fd.neg(); !ok {
		return rat{}, false
	}
	return n.add(fd)
}

// int64At returns the value of e at the binding value gives when it is an integer that eval64
// computes, ok false otherwise.
func int64At(e Expr, value func(string) (int64, bool)) (int64, bool) {
	r, ok := e.eval64(value)
	if !ok || !r.isInt() {
		return 0, false
	}
	return r.num, true
}

// cmp64 evaluates the comparison n as Pred.eval does, ok false where eval64 gives up.
func cmp64(n *pnode, value func(string) (int64, bool)) (bool, bool) {
	x, ok := int64At(n.e, value)
	if !ok {
		return false, false
	}
	var y int64
	if n.raw {
		if y, ok = int64At(n.rhs, value); !ok {
			return false, false
		}
	}
	switch n.op {
	case OpEq:
		return x == y, true
	case OpNe:
		return x != y, true
	case OpLt:
		return x < y, true
	case OpLe:
		return x <= y, true
	case OpGt:
		return x > y, true
	}
	return x >= y, true
}
