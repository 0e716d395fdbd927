package sym

import "strconv"

// String returns e in the notation of the package documentation: integers, symbol names, + - * and
// parentheses, // for a floor division and / for an exact quotient, with Python's precedence
// ("B*T", "(H+1)//2", "N*T/2", "2*((H+1)//2)"). Equal expressions print alike.
func (e Expr) String() string { return string(e.AppendText(nil)) }

// AppendText appends e in the notation of String to b.
func (e Expr) AppendText(b []byte) []byte {
	if len(e.t) == 0 {
		return append(b, '0')
	}
	for i, t := range e.t {
		neg := t.c.num < 0
		switch {
		case neg:
			b = append(b, '-')
		case i > 0:
			b = append(b, '+')
		}
		b = appendTerm(b, t, neg && i == 0)
	}
	return b
}

// appendTerm appends the magnitude of a term: |coefficient| times its monomial.
func appendTerm(b []byte, t term, leadingMinus bool) []byte {
	num := t.c.num
	if num < 0 {
		num = -num // num != MinInt64: rat.neg would have failed
	}
	var pos, neg int
	for _, f := range t.m {
		if f.e > 0 {
			pos += f.e
		} else {
			neg -= f.e
		}
	}
	alone := num == 1 && t.c.den == 1 && len(t.m) == 1 && t.m[0].e == 1 && !leadingMinus
	first := true
	sep := func() {
		if !first {
			b = append(b, '*')
		}
		first = false
	}
	if num != 1 || pos == 0 {
		sep()
		b = strconv.AppendInt(b, num, 10)
	}
	for _, f := range t.m {
		for range f.e {
			sep()
			b = appendAtom(b, f.a, alone)
		}
	}
	if t.c.den == 1 && neg == 0 {
		return b
	}
	b = append(b, '/')
	items := neg
	if t.c.den != 1 {
		items++
	}
	if items > 1 {
		b = append(b, '(')
	}
	first = true
	if t.c.den != 1 {
		sep()
		b = strconv.AppendInt(b, t.c.den, 10)
	}
	for _, f := range t.m {
		for range -f.e {
			sep()
			b = appendAtom(b, f.a, false)
		}
	}
	if items > 1 {
		b = append(b, ')')
	}
	return b
}

// appendAtom appends an atom; a compound atom is parenthesized unless it stands alone as a term.
func appendAtom(b []byte, a *atom, alone bool) []byte {
	switch a.kind {
	case symbolAtom:
		return append(b, a.name...)
	case floorAtom:
		if !alone {
			b = append(b, '(')
		}
		b = appendOperand(b, a.num, len(a.num.t) > 1)
		b = append(b, '/', '/')
		b = appendOperand(b, a.den, !simple(a.den))
		if !alone {
			b = append(b, ')')
		}
		return b
	}
	if !alone {
		b = append(b, '(')
	}
	b = appendOperand(b, a.num, len(a.num.t) > 1)
	b = append(b, '/')
	b = appendOperand(b, a.den, true)
	if !alone {
		b = append(b, ')')
	}
	return b
}

func appendOperand(b []byte, e Expr, paren bool) []byte {
	if paren {
		b = append(b, '(')
	}
	b = e.AppendText(b)
	if paren {
		b = append(b, ')')
	}
	return b
}

// simple reports whether e prints as a single integer or symbol name.
func simple(e Expr) bool {
	if _, ok := e.Const(); ok {
		return true
	}
	return len(e.t) == 1 && e.t[0].c == ratInt(1) && len(e.t[0].m) == 1 && e.t[0].m[0].e == 1 &&
		e.t[0].m[0].a.kind == symbolAtom
}
