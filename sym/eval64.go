package sym

// The fast path of evaluation: the same arithmetic as evalRat in int64 rationals (rat), which
// allocates nothing. It gives up where a value leaves int64 or a symbol has no value, and stops
// where evaluation meets an error it is sure of (a division by zero, an exact quotient that does
// not divide): the caller then evaluates with big.Rat, which gives the exact value or the error,
// or, where only whether a condition holds matters (holds), takes the error for false. Pred.Eval
// over every cell of a 512x512 grid (package sizemap) is what it is for.

// fast is how the fast path ended.
type fast uint8

const (
	done      fast = iota // the value
	undefined             // an error at this binding: a division by zero, an exact quotient that does not divide
	giveUp                // a value beyond int64, a symbol without a value
)

// eval64 returns the value of e at the binding value gives, as evalRat does, where it is done.
func (e Expr) eval64(value func(string) (int64, bool)) (rat, fast) {
	sum := rat{0, 1}
	for _, t := range e.t {
		p := t.c
		for _, f := range t.m {
			v, st := f.a.eval64(value)
			if st != done {
				return rat{}, st
			}
			ok := true
			if f.e < 0 {
				if v.num == 0 {
					return rat{}, undefined
				}
				if v, ok = v.inv(); !ok {
					return rat{}, giveUp
				}
			}
			for range abs(f.e) {
				if p, ok = p.mul(v); !ok {
					return rat{}, giveUp
				}
			}
		}
		var ok bool
		if sum, ok = sum.add(p); !ok {
			return rat{}, giveUp
		}
	}
	return sum, done
}

// operand64 returns the value of e, an operand of an atom, as operand does: undefined where it
// is not an integer.
func (e Expr) operand64(value func(string) (int64, bool)) (rat, fast) {
	v, st := e.eval64(value)
	if st == done && !v.isInt() {
		return rat{}, undefined
	}
	return v, st
}

func (a *atom) eval64(value func(string) (int64, bool)) (rat, fast) {
	switch a.kind {
	case symbolAtom:
		v, ok := value(a.name)
		if !ok {
			return rat{}, giveUp
		}
		return ratInt(v), done
	case floatAtom:
		v, err := a.fl.evalTrunc(func(e Expr) (int64, error) {
			if v, ok := int64At(e, value); ok {
				return v, nil
			}
			return 0, errGiveUp
		})
		if err != nil {
			return rat{}, giveUp
		}
		return ratInt(v), done
	case minAtom, maxAtom:
		var m rat
		for i, x := range a.args {
			v, st := x.operand64(value)
			if st != done {
				return rat{}, st
			}
			if c := cmpRat(v, m); i == 0 || a.kind == minAtom && c < 0 || a.kind == maxAtom && c > 0 {
				m = v
			}
		}
		return m, done
	}
	n, st := a.num.operand64(value)
	if st != done {
		return rat{}, st
	}
	d, st := a.den.operand64(value)
	switch {
	case st != done:
		return rat{}, st
	case d.num == 0:
		return rat{}, undefined
	}
	inv, ok := d.inv()
	if !ok {
		return rat{}, giveUp
	}
	q, ok := n.mul(inv)
	if !ok {
		return rat{}, giveUp
	}
	switch a.kind {
	case quotAtom:
		if !q.isInt() {
			return rat{}, undefined
		}
		return q, done
	case floorAtom:
		return ratInt(floorDiv(q.num, q.den)), done
	}
	// num mod den = num - den·floor(num/den), with the sign of den.
	fd, ok := d.mul(ratInt(floorDiv(q.num, q.den)))
	if !ok {
		return rat{}, giveUp
	}
	if fd, ok = fd.neg(); !ok {
		return rat{}, giveUp
	}
	if r, ok := n.add(fd); ok {
		return r, done
	}
	return rat{}, giveUp
}

// int64At returns the value of e at the binding value gives when it is an integer that eval64
// computes, ok false otherwise.
func int64At(e Expr, value func(string) (int64, bool)) (int64, bool) {
	v, st := intAt(e, value)
	return v, st == done
}

// intAt returns the value of e at the binding value gives, an integer, where eval64 is done;
// undefined where it is not an integer.
func intAt(e Expr, value func(string) (int64, bool)) (int64, fast) {
	r, st := e.eval64(value)
	switch {
	case st != done:
		return 0, st
	case !r.isInt():
		return 0, undefined
	}
	return r.num, done
}

// cmp64 evaluates the comparison n as Pred.eval does, ok false where eval64 is not done.
func cmp64(n *pnode, value func(string) (int64, bool)) (bool, bool) {
	c, st := cmpFast(n, value)
	return c, st == done
}

// cmpFast evaluates the comparison n as Pred.eval does where eval64 is done; undefined where
// Pred.eval gives an error that makes it false.
func cmpFast(n *pnode, value func(string) (int64, bool)) (bool, fast) {
	x, st := intAt(n.e, value)
	if st != done {
		return false, st
	}
	var y int64
	if n.raw {
		if y, st = intAt(n.rhs, value); st != done {
			return false, st
		}
	}
	switch n.op {
	case OpEq:
		return x == y, done
	case OpNe:
		return x != y, done
	case OpLt:
		return x < y, done
	case OpLe:
		return x <= y, done
	case OpGt:
		return x > y, done
	}
	return x >= y, done
}

// holds reports whether p holds at the binding value gives, as Pred.Eval does with its error
// taken for false, without making the error where the fast path is sure of it: the searches of
// SizesOf evaluate a condition at thousands of bindings, many of which divide by zero or leave an
// exact quotient that does not divide.
func (p Pred) holds(value func(string) (int64, bool)) bool {
	switch p.kind() {
	case pConst:
		return p.IsTrue()
	case pCmp:
		switch c, st := cmpFast(p.n, value); st {
		case done:
			return c
		case undefined:
			return false
		}
		v, err := p.eval(value)
		return err == nil && v
	}
	and := p.n.kind == pAnd
	for _, a := range p.n.args {
		if a.holds(value) != and {
			return !and
		}
	}
	return and
}
