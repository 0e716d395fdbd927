package sym

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// ParseExpr parses an expression in the notation of Expr.String: integers, symbol names, + - * //
// / and parentheses, with Python's precedence and left associativity. A name is a letter or _
// followed by letters, digits, _, . and : ("N", "batch_size", "x:0", "p2o.DynamicDimension.0"); a
// name met for the first time becomes a symbol of t with bounds [1, Inf] (a size, see Table.Symbol).
// The error wraps
// errcode.ErrSyntax and gives the offset, errcode.ErrOverflow for an integer beyond int64, or
// errcode.ErrLimit for an expression over the size bound.
func ParseExpr(s string, t *Table) (Expr, error) {
	p := parser{s: s, t: t}
	e, err := p.expr()
	if err != nil {
		return Expr{}, err
	}
	p.space()
	if p.i < len(p.s) {
		return Expr{}, p.errorf("unexpected %q", p.s[p.i:])
	}
	return e, nil
}

// ParseDim parses one dimension: "?" or "-1" (unknown), an interval "2..5", "2..", "..5", or an
// expression (ParseExpr), which must not be a negative constant. Errors as ParseExpr.
func ParseDim(s string, t *Table) (Dim, error) {
	f := strings.TrimSpace(s)
	if f == "?" || f == "-1" || strings.Contains(f, "..") {
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

// splitTop splits s at the commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
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
	i     int
	t     *Table
	depth int
}

func (p *parser) errorf(format string, args ...any) error {
	return errcode.Errorf(errcode.ErrSyntax, "expression %q: offset %d: %s", p.s, p.i, fmt.Sprintf(format, args...))
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
	return errcode.Errorf(errcode.ErrLimit, "expression %q: larger than %d terms and atoms, or a coefficient beyond int64", p.s, maxSize)
}

func (p *parser) expr() (Expr, error) {
	e, err := p.term()
	if err != nil {
		return Expr{}, err
	}
	for {
		var f Expr
		switch {
		case p.peek("+"):
			p.i++
			if f, err = p.term(); err != nil {
				return Expr{}, err
			}
		case p.peek("-"):
			p.i++
			if f, err = p.term(); err != nil {
				return Expr{}, err
			}
			var ok bool
			if f, ok = Neg(f); !ok {
				return Expr{}, p.tooLarge()
			}
		default:
			return e, nil
		}
		var ok bool
		if e, ok = Add(e, f); !ok {
			return Expr{}, p.tooLarge()
		}
	}
}

func (p *parser) term() (Expr, error) {
	e, err := p.unary()
	if err != nil {
		return Expr{}, err
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
		case p.peek("*"):
			p.i++
			op, divide = Mul, false
		default:
			return e, nil
		}
		at := p.i
		f, err := p.unary()
		if err != nil {
			return Expr{}, err
		}
		if divide && f.IsZero() {
			p.i = at
			return Expr{}, p.errorf("division by zero")
		}
		var ok bool
		if e, ok = op(e, f); !ok {
			return Expr{}, p.tooLarge()
		}
	}
}

func (p *parser) unary() (Expr, error) {
	if p.peek("-") {
		p.i++
		e, err := p.unary()
		if err != nil {
			return Expr{}, err
		}
		n, ok := Neg(e)
		if !ok {
			return Expr{}, p.tooLarge()
		}
		return n, nil
	}
	return p.primary()
}

func (p *parser) primary() (Expr, error) {
	p.space()
	if p.i >= len(p.s) {
		return Expr{}, p.errorf("unexpected end, want a number, a name or (")
	}
	c := p.s[p.i]
	switch {
	case c == '(':
		if p.depth++; p.depth > 32 {
			return Expr{}, errcode.Errorf(errcode.ErrLimit, "expression %q: parentheses nested deeper than 32", p.s)
		}
		p.i++
		e, err := p.expr()
		if err != nil {
			return Expr{}, err
		}
		if !p.peek(")") {
			return Expr{}, p.errorf("want )")
		}
		p.i++
		p.depth--
		return e, nil
	case c >= '0' && c <= '9':
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		n, err := strconv.ParseInt(p.s[p.i:j], 10, 64)
		if err != nil {
			return Expr{}, errcode.Errorf(errcode.ErrOverflow, "expression %q: offset %d: %s does not fit in an int64", p.s, p.i, p.s[p.i:j])
		}
		p.i = j
		return Int(n), nil
	case isNameStart(c):
		j := p.i + 1
		for j < len(p.s) && isNameByte(p.s[j]) {
			j++
		}
		name := p.s[p.i:j]
		p.i = j
		if e, ok := p.t.Lookup(name); ok {
			return e, nil
		}
		return p.t.Symbol(name, 1, Inf), nil
	}
	return Expr{}, p.errorf("unexpected %q, want a number, a name or (", string(c))
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isNameByte(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '.' || c == ':'
}
