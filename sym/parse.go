package sym

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// ParseExpr parses an expression in the notation of Expr.String: integers, symbol names, + - * //
// / % and parentheses, with Python's precedence and left associativity (% binds as * does),
// min(a,b) and max(a,b), and int(F) of a float computation F (see the package documentation). A name is a letter or _ followed by letters, digits, _, . and : ("N",
// "batch_size", "x:0", "p2o.DynamicDimension.0"), or any other name in double quotes, a backslash
// and a double quote within escaped by a backslash ("\"batch size\""); a name met for the first
// time becomes a symbol of t with bounds [1, Inf] (a size, see Table.Symbol). The error wraps
// errcode.ErrSyntax and gives the offset, errcode.ErrOverflow for an integer beyond int64, or
// errcode.ErrLimit for an expression over the size bound or nested deeper than 32.
func ParseExpr(s string, t *Table) (Expr, error) {
	p := parser{s: s, what: "expression", t: t}
	v, err := p.top()
	if err != nil {
		return Expr{}, err
	}
	if v.isPred {
		return Expr{}, errcode.Errorf(errcode.ErrSyntax, "expression %q: a predicate, not an expression", s)
	}
	return v.e, nil
}

// ParsePred parses a predicate in the notation of Pred.String: comparisons (== != < <= > >=) of
// two expressions of ParseExpr's notation, ! before a comparison or a parenthesized predicate (!N
// == 1 is !(N == 1)), && (which binds tighter than ||), || and parentheses. Comparisons do not
// chain. Names are read as ParseExpr reads them, and the result is simplified (Cmp, And, Or,
// Not). A comparison whose simplification cancels a divisor that may be 0 keeps it not 0, negated
// or not: (189*W-189) % (W-1) == 0 is W != 1 and its negation false, both false at W = 1 as
// bench/grid/predicate.py reads them. Errors as ParseExpr's.
func ParsePred(s string, t *Table) (Pred, error) {
	p := parser{s: s, what: "predicate", t: t}
	v, err := p.top()
	if err != nil {
		return Pred{}, err
	}
	if !v.isPred {
		return Pred{}, errcode.Errorf(errcode.ErrSyntax, "predicate %q: an expression, not a comparison", s)
	}
	return v.p, nil
}

// ParseDim parses one dimension: "?" or "-1" (unknown), an interval "2..5", "2..", "..5", or an
// expression (ParseExpr), which must not be a negative constant. Errors as ParseExpr.
func ParseDim(s string, t *Table) (Dim, error) {
	f := strings.TrimSpace(s)
	if f == "?" || f == "-1" || strings.Contains(f, "..") && (f[0] == '.' || f[0] >= '0' && f[0] <= '9') {
		d, err := shape.ParseDim(f)
		if err != nil {
			return Dim{}, err
		}
		return FromShape(d), nil
	}
	e, err := ParseExpr(f, t)
	if err != nil {
		return Dim{}, err
	}
	d, ok := Of(e).NonNegative()
	if !ok {
		return Dim{}, errcode.Errorf(errcode.ErrSyntax, "%q: a dimension cannot be negative", s)
	}
	return d, nil
}

// ParseShape parses a shape: "[N,3,224,224]", "[B,T*4,?,1..8]", "[]" (scalar), "[...]" (dynamic
// rank); the brackets may be left out. Errors as ParseDim, naming the dim.
func ParseShape(s string, t *Table) (Shape, error) {
	inner := strings.TrimSpace(s)
	if strings.HasPrefix(inner, "[") || strings.HasSuffix(inner, "]") {
		if len(inner) < 2 || inner[0] != '[' || inner[len(inner)-1] != ']' {
			return Shape{}, errcode.Errorf(errcode.ErrSyntax, "shape %q: unbalanced brackets", s)
		}
		inner = strings.TrimSpace(inner[1 : len(inner)-1])
	}
	switch inner {
	case "":
		return Shape{}, nil
	case "...":
		return DynamicRank(), nil
	}
	var out Shape
	for i, f := range splitTop(inner) {
		d, err := ParseDim(f, t)
		if err != nil {
			return Shape{}, fmt.Errorf("shape %q: dim[%d]: %w", s, i, err)
		}
		out.Dims = append(out.Dims, d)
	}
	return out, nil
}

// splitTop splits s at the commas outside parentheses and quoted names.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

type parser struct {
	s     string
	what  string // "expression" or "predicate", for errors
	i     int
	t     *Table
	depth int
	// guards are the divisors of the comparison being parsed that may be 0, each kept not 0
	// where its canonical form no longer divides by it (W*(H//W)+H % W == H is W != 0).
	guards []Expr
	// negated: inside an odd number of !, each comparison is negated where it is parsed, and
	// && and || swap, so that a negated comparison keeps its guards (!(W % (W-1) == 0) is W != 1
	// && 0 != 0: false at W = 1, where the remainder has no value).
	negated bool
}

// value is what a production of the grammar gives: an expression, or a predicate.
type value struct {
	e      Expr
	p      Pred
	isPred bool
	cmp    bool // p is the comparison just parsed, not negated nor guarded yet (see cmp)
	// The comparison just parsed: its operator and operands (one for a membership, which is as
	// an inequation of it for defined).
	op   Op
	args []Expr
}

// maxDepth bounds the nesting of parentheses, calls, ! and unary minus.
const maxDepth = 32

func (p *parser) errorf(format string, args ...any) error {
	return errcode.Errorf(errcode.ErrSyntax, "%s %q: offset %d: %s", p.what, p.s, p.i, fmt.Sprintf(format, args...))
}

func (p *parser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *parser) peek(tok string) bool {
	p.space()
	return strings.HasPrefix(p.s[p.i:], tok)
}

func (p *parser) tooLarge() error {
	return errcode.Errorf(errcode.ErrLimit, "%s %q: larger than %d terms and atoms, or a coefficient beyond int64", p.what, p.s, maxSize)
}

func (p *parser) enter() error {
	if p.depth++; p.depth > maxDepth {
		return errcode.Errorf(errcode.ErrLimit, "%s %q: nested deeper than %d", p.what, p.s, maxDepth)
	}
	return nil
}

// top parses the whole of s.
func (p *parser) top() (value, error) {
	v, err := p.or()
	if err != nil {
		return value{}, err
	}
	p.space()
	if p.i < len(p.s) {
		return value{}, p.errorf("unexpected %q", p.s[p.i:])
	}
	return v, nil
}

// expr returns v's expression, or an error at the offset where a predicate was met.
func (p *parser) expr(v value, at int) (Expr, error) {
	if v.isPred {
		p.i = at
		return Expr{}, p.errorf("a predicate where an expression belongs")
	}
	return v.e, nil
}

// exprOf parses what next parses, which must be an expression.
func (p *parser) exprOf(next func() (value, error)) (Expr, error) {
	p.space()
	at := p.i
	v, err := next()
	if err != nil {
		return Expr{}, err
	}
	return p.expr(v, at)
}

// predOf parses what next parses, which must be a predicate.
func (p *parser) predOf(next func() (value, error)) (Pred, error) {
	p.space()
	at := p.i
	v, err := next()
	if err != nil {
		return Pred{}, err
	}
	return p.pred(v, at)
}

func (p *parser) pred(v value, at int) (Pred, error) {
	if !v.isPred {
		p.i = at
		return Pred{}, p.errorf("an expression where a predicate belongs (want a comparison)")
	}
	return v.p, nil
}

// or parses and ('||' and)*.
func (p *parser) or() (value, error) {
	return p.chain("||", p.and, false)
}

// and parses not ('&&' not)*.
func (p *parser) and() (value, error) {
	return p.chain("&&", p.not, true)
}

// chain parses next (tok next)*, joined by And when and is true, Or otherwise, swapped where
// negated.
func (p *parser) chain(tok string, next func() (value, error), and bool) (value, error) {
	p.space()
	at := p.i
	v, err := next()
	if err != nil || !p.peek(tok) {
		return v, err
	}
	first, err := p.pred(v, at)
	if err != nil {
		return value{}, err
	}
	ps := []Pred{first}
	for p.peek(tok) {
		p.i += len(tok)
		q, err := p.predOf(next)
		if err != nil {
			return value{}, err
		}
		ps = append(ps, q)
	}
	if and != p.negated {
		return value{p: And(ps...), isPred: true}, nil
	}
	return value{p: Or(ps...), isPred: true}, nil
}

// not parses '!' not | cmp.
func (p *parser) not() (value, error) {
	if p.peek("!") && !p.peek("!=") {
		p.i++
		if err := p.enter(); err != nil {
			return value{}, err
		}
		p.negated = !p.negated
		q, err := p.predOf(p.not)
		p.negated = !p.negated
		if err != nil {
			return value{}, err
		}
		p.depth--
		return value{p: q, isPred: true}, nil
	}
	return p.cmp()
}

var relops = []struct {
	tok string
	op  Op
}{{"==", OpEq}, {"!=", OpNe}, {"<=", OpLe}, {">=", OpGe}, {"<", OpLt}, {">", OpGt}}

func (p *parser) relop() (Op, int, bool) {
	p.space()
	for _, r := range relops {
		if strings.HasPrefix(p.s[p.i:], r.tok) {
			return r.op, len(r.tok), true
		}
	}
	return 0, 0, false
}

// cmp parses sum [relop sum] | sum 'in' members, a comparison, negated where negated, where each
// divisor it cancels is not 0 (see defined).
func (p *parser) cmp() (value, error) {
	outer := p.guards
	p.guards = nil
	v, err := p.comparison()
	if v.cmp {
		op := v.op
		if p.negated {
			v.p, op = Not(v.p), op.negation()
		}
		q, ok := defined(v.p, op, p.guards, v.args...)
		if !ok {
			return value{}, p.tooLarge()
		}
		v.p, v.cmp = q, false
		p.guards = outer
	} else {
		p.guards = append(outer, p.guards...)
	}
	return v, err
}

// comparison parses what cmp does, without the divisors it cancels.
func (p *parser) comparison() (value, error) {
	p.space()
	at := p.i
	v, err := p.sum()
	if err != nil {
		return value{}, err
	}
	if p.keyword("in") {
		x, err := p.expr(v, at)
		if err != nil {
			return value{}, err
		}
		q, err := p.members(x)
		return value{p: q, isPred: true, cmp: true, op: OpNe, args: []Expr{x}}, err
	}
	op, n, ok := p.relop()
	if !ok {
		if p.peek("=") {
			return value{}, p.errorf("= is not an operator (want ==)")
		}
		return v, nil
	}
	a, err := p.expr(v, at)
	if err != nil {
		return value{}, err
	}
	p.i += n
	b, err := p.exprOf(p.sum)
	if err != nil {
		return value{}, err
	}
	if _, _, ok := p.relop(); ok {
		return value{}, p.errorf("comparisons do not chain (want &&)")
	}
	return value{p: cmpCore(a, op, b), isPred: true, cmp: true, op: op, args: []Expr{a, b}}, nil
}

// keyword reports whether the word w comes next, not the start of a longer name, and takes it.
func (p *parser) keyword(w string) bool {
	if !p.peek(w) || p.i+len(w) < len(p.s) && isNameByte(p.s[p.i+len(w)]) {
		return false
	}
	p.i += len(w)
	return true
}

// members parses what follows x in: a range a..b, or a set {m, ...} of integers and ranges, and
// returns the predicate that x is in it (x in 217..224 is x >= 217 && x <= 224; x in {0, 29..31}
// is x == 0 || x >= 29 && x <= 31).
func (p *parser) members(x Expr) (Pred, error) {
	// member parses an integer, or a range when one follows; a range only unless set.
	member := func(set bool) (Pred, error) {
		lo, err := p.integer()
		if err != nil {
			return Pred{}, err
		}
		if !p.peek("..") {
			if !set {
				return Pred{}, p.errorf("in takes a range a..b or a set {...}")
			}
			return cmpCore(x, OpEq, Int(lo)), nil
		}
		p.i += 2
		hi, err := p.integer()
		if err != nil {
			return Pred{}, err
		}
		if hi < lo {
			return Pred{}, p.errorf("an empty range %d..%d", lo, hi)
		}
		return And(cmpCore(x, OpGe, Int(lo)), cmpCore(x, OpLe, Int(hi))), nil
	}
	if !p.peek("{") {
		return member(false)
	}
	p.i++
	var ps []Pred
	for {
		q, err := member(true)
		if err != nil {
			return Pred{}, err
		}
		ps = append(ps, q)
		switch {
		case p.peek(","):
			p.i++
		case p.peek("}"):
			p.i++
			return Or(ps...), nil
		default:
			return Pred{}, p.errorf("want , or } in a set")
		}
	}
}

// integer parses an integer, with its sign.
func (p *parser) integer() (int64, error) {
	p.space()
	j := p.i
	if j < len(p.s) && p.s[j] == '-' {
		j++
	}
	k := j
	for k < len(p.s) && p.s[k] >= '0' && p.s[k] <= '9' {
		k++
	}
	if k == j {
		return 0, p.errorf("want an integer")
	}
	n, err := strconv.ParseInt(p.s[p.i:k], 10, 64)
	if err != nil {
		return 0, errcode.Errorf(errcode.ErrOverflow, "%s %q: offset %d: %s does not fit in an int64", p.what, p.s, p.i, p.s[p.i:k])
	}
	p.i = k
	return n, nil
}

// sum parses term (('+'|'-') term)*.
func (p *parser) sum() (value, error) {
	p.space()
	at := p.i
	v, err := p.term()
	if err != nil || !p.peek("+") && !p.peek("-") {
		return v, err
	}
	e, err := p.expr(v, at)
	if err != nil {
		return value{}, err
	}
	for {
		neg := false
		switch {
		case p.peek("+"):
		case p.peek("-"):
			neg = true
		default:
			return value{e: e}, nil
		}
		p.i++
		f, err := p.exprOf(p.term)
		if err != nil {
			return value{}, err
		}
		var ok bool
		if neg {
			e, ok = Sub(e, f)
		} else {
			e, ok = Add(e, f)
		}
		if !ok {
			return value{}, p.tooLarge()
		}
	}
}

// term parses unary (('*'|'//'|'/'|'%') unary)*.
func (p *parser) term() (value, error) {
	p.space()
	at := p.i
	v, err := p.unary()
	if err != nil {
		return value{}, err
	}
	for {
		var op func(a, b Expr) (Expr, bool)
		divide := true
		switch {
		case p.peek("//"):
			p.i += 2
			op = FloorDiv
		case p.peek("/"):
			p.i++
			op = Quo
		case p.peek("%"):
			p.i++
			op = Mod
		case p.peek("*"):
			p.i++
			op, divide = Mul, false
		default:
			return v, nil
		}
		e, err := p.expr(v, at)
		if err != nil {
			return value{}, err
		}
		p.space()
		rhs := p.i
		w, err := p.unary()
		if err != nil {
			return value{}, err
		}
		f, err := p.expr(w, rhs)
		if err != nil {
			return value{}, err
		}
		if divide && f.IsZero() {
			p.i = rhs
			return value{}, p.errorf("division by zero")
		}
		r, ok := op(e, f)
		if !ok {
			return value{}, p.tooLarge()
		}
		if divide {
			p.guards = append(p.guards, zeroFactors(f)...)
		}
		v = value{e: r}
	}
}

// unary parses '-' unary | primary.
func (p *parser) unary() (value, error) {
	if !p.peek("-") {
		return p.primary()
	}
	p.i++
	if err := p.enter(); err != nil {
		return value{}, err
	}
	e, err := p.exprOf(p.unary)
	if err != nil {
		return value{}, err
	}
	p.depth--
	n, ok := Neg(e)
	if !ok {
		return value{}, p.tooLarge()
	}
	return value{e: n}, nil
}

// primary parses an integer, a name, a quoted name, min(...) or max(...), or a parenthesized
// expression or predicate.
func (p *parser) primary() (value, error) {
	p.space()
	if p.i >= len(p.s) {
		return value{}, p.errorf("unexpected end, want a number, a name or (")
	}
	c := p.s[p.i]
	switch {
	case c == '(':
		return group(p, p.or)
	case c >= '0' && c <= '9':
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		n, err := strconv.ParseInt(p.s[p.i:j], 10, 64)
		if err != nil {
			return value{}, errcode.Errorf(errcode.ErrOverflow, "%s %q: offset %d: %s does not fit in an int64", p.what, p.s, p.i, p.s[p.i:j])
		}
		p.i = j
		return value{e: Int(n)}, nil
	case c == '"':
		name, err := p.quoted()
		if err != nil {
			return value{}, err
		}
		return value{e: p.symbol(name)}, nil
	case isNameStart(c):
		j := p.i + 1
		for j < len(p.s) && isNameByte(p.s[j]) {
			j++
		}
		name := p.s[p.i:j]
		p.i = j
		if (name == "min" || name == "max") && p.peek("(") {
			return p.call(name)
		}
		if name == "int" && p.peek("(") {
			return p.intOf()
		}
		return value{e: p.symbol(name)}, nil
	}
	return value{}, p.errorf("unexpected %q, want a number, a name or (", string(c))
}

func (p *parser) symbol(name string) Expr {
	if e, ok := p.t.Lookup(name); ok {
		return e
	}
	return p.t.Symbol(name, 1, Inf)
}

// quoted parses a name in double quotes.
func (p *parser) quoted() (string, error) {
	start := p.i
	var b []byte
	for p.i++; p.i < len(p.s); p.i++ {
		switch c := p.s[p.i]; c {
		case '"':
			p.i++
			return string(b), nil
		case '\\':
			if p.i+1 < len(p.s) && (p.s[p.i+1] == '"' || p.s[p.i+1] == '\\') {
				p.i++
				b = append(b, p.s[p.i])
				continue
			}
			return "", p.errorf("in a quoted name, \\ escapes only \\ and \"")
		default:
			b = append(b, c)
		}
	}
	p.i = start
	return "", p.errorf("a quoted name without its closing \"")
}

// group parses ( X ) with X what arg parses, the opening parenthesis next.
func group[T any](p *parser, arg func() (T, error)) (T, error) {
	var zero T
	if err := p.enter(); err != nil {
		return zero, err
	}
	p.i++ // (
	v, err := arg()
	if err != nil {
		return zero, err
	}
	if !p.peek(")") {
		return zero, p.errorf("want )")
	}
	p.i++
	p.depth--
	return v, nil
}

// call parses the arguments of min or max: two or more expressions, the extremum of all of them
// at once.
func (p *parser) call(name string) (value, error) {
	args, err := p.callArgs(name)
	if err != nil {
		return value{}, err
	}
	kind := maxAtom
	if name == "min" {
		kind = minAtom
	}
	e, ok := extremumOf(kind, args)
	if !ok {
		return value{}, p.tooLarge()
	}
	return value{e: e}, nil
}

// callArgs parses the arguments of min or max, the opening parenthesis next. An argument that is
// a call of the same name, alone, gives its own arguments: min(A,min(B,C)), as an extremum of
// three prints, is the extremum of A, B and C, as it was made, where min(B,C) alone may take
// another form (min(N*T,N) is N*min(T,1)) that min(A, ...) would not flatten.
func (p *parser) callArgs(name string) ([]Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.i++ // (
	var args []Expr
	for k := 1; ; k++ {
		if inner, ok := p.nested(name); ok {
			args = append(args, inner...)
		} else {
			e, err := p.exprOf(p.or)
			if err != nil {
				return nil, err
			}
			args = append(args, e)
		}
		switch {
		case p.peek(","):
			p.i++
		case p.peek(")") && k > 1:
			p.i++
			p.depth--
			return args, nil
		default:
			return nil, p.errorf("%s takes two or more arguments: want , or )", name)
		}
	}
}

// nested parses an argument that is a call of name alone (followed by , or )), giving its
// arguments; ok is false, and nothing is taken, for any other argument.
func (p *parser) nested(name string) ([]Expr, bool) {
	start, depth := p.i, p.depth
	if p.peek(name+"(") || p.peek(name+" (") {
		p.space()
		p.i += len(name)
		if p.peek("(") {
			if args, err := p.callArgs(name); err == nil && (p.peek(",") || p.peek(")")) {
				return args, true
			}
		}
	}
	p.i, p.depth = start, depth
	return nil, false
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isNameByte(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '.' || c == ':'
}
