package sym

import "strconv"

// String returns e in the notation of the package documentation: integers, symbol names, + - * and
// parentheses, // for a floor division and / for an exact quotient, with Python's precedence
// ("B*T", "(H+1)//2", "N*T/2", "2*((H+1)//2)"). Equal expressions print alike.
func (e Expr) String() string { return string(e.AppendText(nil)) }

// AppendText appends e in the notation of String to b. The terms that need not be integers (a
// coefficient that is not one, a negative power), when there are two or more, print as one exact
// quotient over their common denominator, in the place of the first: ((H+4)//6-1)/2, not
// ((H+4)//6)/2-1/2, whose quotients 5/2 and 1/2 do not divide where the sum is the integer 2, as
// each / of the notation must.
func (e Expr) AppendText(b []byte) []byte {
	if len(e.t) == 0 {
		return append(b, '0')
	}
	num, den, grouped := fractionalPart(e)
	for i, t := range e.t {
		if grouped && fractional(t) {
			if !num.IsZero() {
				b = appendQuotient(b, num, den, i == 0)
				num = Expr{}
			}
			continue
		}
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

// fractional reports whether the value of a term need not be an integer where the model runs: its
// coefficient is not an integer, or it holds a negative power.
func fractional(t term) bool { return !t.c.isInt() || !integerValued(t.m) }

// fractionals returns the number of fractional terms of e.
func fractionals(e Expr) int {
	n := 0
	for _, t := range e.t {
		if fractional(t) {
			n++
		}
	}
	return n
}

// fractionalPart returns the sum of the fractional terms of e as num/den, num a polynomial with
// integer coefficients and den a monomial (their common denominator); ok is false when e holds
// fewer than two such terms, or a coefficient would leave int64.
func fractionalPart(e Expr) (num, den Expr, ok bool) {
	n := fractionals(e)
	if n < 2 {
		return Expr{}, Expr{}, false
	}
	frac := make([]term, 0, n)
	for _, t := range e.t {
		if fractional(t) {
			frac = append(frac, t)
		}
	}
	l, ok := denominatorOf(frac)
	if !ok {
		return Expr{}, Expr{}, false
	}
	d := term{c: ratInt(l)}
	for _, f := range negativePowers(frac) {
		d.m = mulMono(d.m, []factor{f})
	}
	den = Expr{t: []term{d}}
	if num, ok = Mul(Expr{t: frac}, den); !ok || !num.integral() {
		return Expr{}, Expr{}, false
	}
	return num, den, true
}

// power returns the exponent of a in the monomial m, 0 when a is not in it.
func power(m []factor, a *atom) int {
	for _, f := range m {
		if cmpAtom(f.a, a) == 0 {
			return f.e
		}
	}
	return 0
}

// appendQuotient appends the exact quotient num/den as a term of a sum, first when it leads: a
// minus sign taken out of num when its first term is negative.
func appendQuotient(b []byte, num, den Expr, first bool) []byte {
	if n, ok := Neg(num); ok && num.t[0].c.num < 0 {
		num = n
		b = append(b, '-')
	} else if !first {
		b = append(b, '+')
	}
	b = appendOperand(b, num, true)
	b = append(b, '/')
	return appendOperand(b, den, !simple(den))
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
		return appendName(b, a.name)
	case minAtom, maxAtom:
		return appendExtremum(b, a.kind, a.args)
	case floatAtom:
		return append(b, a.key...)
	case modAtom:
		if !alone {
			b = append(b, '(')
		}
		b = appendOperand(b, a.num, len(a.num.t) > 1)
		b = append(b, " % "...)
		b = appendOperand(b, a.den, !simple(a.den))
		if !alone {
			b = append(b, ')')
		}
		return b
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

// appendOperand appends x, in parentheses when paren.
func appendOperand[T interface{ AppendText([]byte) []byte }](b []byte, x T, paren bool) []byte {
	if paren {
		b = append(b, '(')
	}
	b = x.AppendText(b)
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

// appendExtremum appends min or max of args as nested calls of two arguments, max(A,max(B,C)), as
// the notation has them.
func appendExtremum(b []byte, kind atomKind, args []Expr) []byte {
	if kind == minAtom {
		b = append(b, "min("...)
	} else {
		b = append(b, "max("...)
	}
	b = args[0].AppendText(b)
	b = append(b, ',')
	if len(args) > 2 {
		b = appendExtremum(b, kind, args[1:])
	} else {
		b = args[1].AppendText(b)
	}
	return append(b, ')')
}

// appendName appends a symbol's name: as it is when it is a letter or _ followed by letters,
// digits, _, . and : ("N", "x:0", "p2o.DynamicDimension.0"), in double quotes otherwise, a
// backslash and a double quote within escaped by a backslash: the name batch size prints as
// "batch size", and a"b as "a\"b".
func appendName(b []byte, name string) []byte {
	if plainName(name) {
		return append(b, name...)
	}
	b = append(b, '"')
	for i := 0; i < len(name); i++ {
		if c := name[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, name[i])
	}
	return append(b, '"')
}

// plainName reports whether name prints without quotes.
func plainName(name string) bool {
	if name == "" || !isNameStart(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return false
		}
	}
	return true
}
