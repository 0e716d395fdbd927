package sym_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// reader reads the printed notation back into plain trees, each / an exact quotient of its own
// operands, as a user and bench/grid/predicate.py read it: "M/2-1/2" has no value where M is odd,
// although the sum of its two terms is an integer there. The canonical form computes with rational
// coefficients; its printed form must not lean on that.
type reader struct {
	s string
	i int
}

// readExpr reads the printed expression s into a plain tree.
func readExpr(s string) (*node, error) {
	r := &reader{s: s}
	n, err := r.sum()
	if err == nil && r.skip() < len(s) {
		err = r.fail("trailing text")
	}
	return n, err
}

// readPred reads the printed predicate s into a plain tree, a membership "x in {1, 3..5}" as the
// comparisons it stands for.
func readPred(s string) (*pnode, error) {
	r := &reader{s: s}
	p, err := r.or()
	if err == nil && r.skip() < len(s) {
		err = r.fail("trailing text")
	}
	return p, err
}

func (r *reader) fail(what string) error { return fmt.Errorf("%q at %d: %s", r.s, r.i, what) }

// skip moves past spaces and returns the position.
func (r *reader) skip() int {
	for r.i < len(r.s) && r.s[r.i] == ' ' {
		r.i++
	}
	return r.i
}

// take consumes tok when it comes next.
func (r *reader) take(tok string) bool {
	r.skip()
	if strings.HasPrefix(r.s[r.i:], tok) {
		r.i += len(tok)
		return true
	}
	return false
}

func (r *reader) or() (*pnode, error) { return r.chain("||", '|', r.and) }

func (r *reader) and() (*pnode, error) { return r.chain("&&", '&', r.not) }

func (r *reader) chain(tok string, op byte, next func() (*pnode, error)) (*pnode, error) {
	p, err := next()
	for err == nil && r.take(tok) {
		var q *pnode
		if q, err = next(); err == nil {
			p = &pnode{op: op, x: p, y: q}
		}
	}
	return p, err
}

func (r *reader) not() (*pnode, error) {
	if r.skip(); strings.HasPrefix(r.s[r.i:], "!") && !strings.HasPrefix(r.s[r.i:], "!=") {
		r.i++
		p, err := r.not()
		return &pnode{op: '~', x: p}, err
	}
	// A parenthesis opens a predicate when one is closed by it; an expression otherwise.
	if at := r.i; r.take("(") {
		if p, err := r.or(); err == nil && r.take(")") {
			return p, nil
		}
		r.i = at
	}
	return r.cmp()
}

func (r *reader) cmp() (*pnode, error) {
	a, err := r.sum()
	if err != nil {
		return nil, err
	}
	if r.take("in ") {
		return r.members(a)
	}
	op := r.next(relops)
	if op == 0 {
		return nil, r.fail("a comparison")
	}
	b, err := r.sum()
	return &pnode{op: op, a: a, b: b}, err
}

// members reads "a..b" or "{v, a..b, ...}" after x in.
func (r *reader) members(x *node) (*pnode, error) {
	span := func() (*pnode, error) {
		lo, err := r.integer()
		if err != nil {
			return nil, err
		}
		if !r.take("..") {
			return &pnode{op: '=', a: x, b: lo}, nil
		}
		hi, err := r.integer()
		return &pnode{op: '&', x: &pnode{op: 'g', a: x, b: lo}, y: &pnode{op: 'l', a: x, b: hi}}, err
	}
	if !r.take("{") {
		return span()
	}
	p, err := span()
	for err == nil && r.take(",") {
		var q *pnode
		if q, err = span(); err == nil {
			p = &pnode{op: '|', x: p, y: q}
		}
	}
	if err == nil && !r.take("}") {
		err = r.fail("}")
	}
	return p, err
}

func (r *reader) integer() (*node, error) {
	neg := r.take("-")
	r.skip()
	j := r.i
	for j < len(r.s) && r.s[j] >= '0' && r.s[j] <= '9' {
		j++
	}
	v, err := strconv.ParseInt(r.s[r.i:j], 10, 64)
	if err != nil {
		return nil, r.fail("an integer")
	}
	r.i = j
	if neg {
		v = -v
	}
	return &node{op: 'n', v: v}, nil
}

// level is the operators of one level of precedence, each a token and the plain tree's op, a
// token before those it begins with.
type level []struct {
	tok string
	op  byte
}

var (
	relops   = level{{"==", '='}, {"!=", '!'}, {"<=", 'l'}, {">=", 'g'}, {"<", '<'}, {">", '>'}}
	sums     = level{{"+", '+'}, {"-", '-'}}
	products = level{{"//", 'f'}, {"/", '/'}, {"%", 'm'}, {"*", '*'}}
)

// next consumes the operator of l that comes next: its op, 0 for none.
func (r *reader) next(l level) byte {
	for _, o := range l {
		if r.take(o.tok) {
			return o.op
		}
	}
	return 0
}

func (r *reader) sum() (*node, error) { return r.operands(sums, r.product) }

func (r *reader) product() (*node, error) { return r.operands(products, r.unary) }

// operands reads operands of next joined by the operators of l, left associative.
func (r *reader) operands(l level, next func() (*node, error)) (*node, error) {
	n, err := next()
	for err == nil {
		op := r.next(l)
		if op == 0 {
			return n, nil
		}
		var m *node
		if m, err = next(); err == nil {
			n = &node{op: op, a: n, b: m}
		}
	}
	return nil, err
}

// unary reads a minus sign, which binds tighter than * and / as in Python, or a primary.
func (r *reader) unary() (*node, error) {
	if r.take("-") {
		n, err := r.unary()
		return &node{op: '-', a: &node{op: 'n'}, b: n}, err
	}
	return r.primary()
}

func (r *reader) primary() (*node, error) {
	r.skip()
	switch {
	case r.take("("):
		n, err := r.sum()
		if err == nil && !r.take(")") {
			err = r.fail(")")
		}
		return n, err
	case r.take("min("), r.take("max("):
		op := byte('i')
		if r.s[r.i-3] == 'a' {
			op = 'x'
		}
		a, err := r.sum()
		if err != nil || !r.take(",") {
			return nil, r.fail(",")
		}
		b, err := r.sum()
		if err != nil || !r.take(")") {
			return nil, r.fail(")")
		}
		return &node{op: op, a: a, b: b}, nil
	case r.i < len(r.s) && r.s[r.i] >= '0' && r.s[r.i] <= '9':
		return r.integer()
	case r.take(`"`):
		j := strings.IndexByte(r.s[r.i:], '"')
		if j < 0 {
			return nil, r.fail(`"`)
		}
		name := r.s[r.i : r.i+j]
		r.i += j + 1
		return r.symbol(name)
	}
	j := r.i
	for j < len(r.s) && (r.s[j] == '_' || r.s[j] >= 'A' && r.s[j] <= 'Z' || r.s[j] >= 'a' && r.s[j] <= 'z') {
		j++
	}
	name := r.s[r.i:j]
	r.i = j
	return r.symbol(name)
}

func (r *reader) symbol(name string) (*node, error) {
	k := slices.Index(symNames, name)
	if k < 0 {
		return nil, r.fail("a symbol, not " + strconv.Quote(name))
	}
	return &node{op: 's', sym: k}, nil
}

// String prints the plain tree fully parenthesized, for failure messages: ((N + 1) f 2).
func (n *node) String() string {
	switch n.op {
	case 'n':
		return strconv.FormatInt(n.v, 10)
	case 's':
		return symNames[n.sym]
	}
	return "(" + n.a.String() + " " + string(n.op) + " " + n.b.String() + ")"
}

// evalRead evaluates a predicate read by readPred as bench/grid/predicate.py does, with integers
// of any size: a comparison with an operand of no value is refused (ok false), || holds when either side holds and && fails
// when either side fails, whatever the other.
func (p *pnode) evalRead(env []int64) (v, ok bool) {
	switch p.op {
	case '&', '|':
		x, ok1 := p.x.evalRead(env)
		y, ok2 := p.y.evalRead(env)
		decided := p.op == '|' // the value that decides, either side
		if ok1 && x == decided || ok2 && y == decided {
			return decided, true
		}
		return !decided, ok1 && ok2
	case '~':
		x, ok := p.x.evalRead(env)
		return !x, ok
	}
	x, ok1 := p.a.value(env, false)
	y, ok2 := p.b.value(env, false)
	if !ok1 || !ok2 {
		return false, false
	}
	return p.compare(x.Cmp(y)), true
}

// TestPrintedQuotientsDivide: every exact quotient of a printed expression divides wherever the
// expression is an integer, so that its text reads as its value (bench/random's r0_0073: a
// MaxPool condition over the SpaceToDepth size ((H+4)//6)/2-1/2, which printed so has no value at
// H=26, where the model runs). The inputs are read as the canonical form holds them, with
// rational coefficients; each prints, reads back equal, and read with each / exact has the value
// of Eval at every binding of H 1..300 where that is an integer.
func TestPrintedQuotientsDivide(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"((H+4)//6)/2-1/2", "((H+4)//6-1)/2"},
		{"T+((H+4)//6)/2-1/2", "T+((H+4)//6-1)/2"},
		{"T-((H+4)//6)/2-1/2", "T-((H+4)//6+1)/2"},
		{"H/2+T/3", "(2*T+3*H)/6"},
		{"N*T/H+N/H", "(N*T+N)/H"},
		{"N*T/2", "N*T/2"},
		{"min(((H+4)//6)/2-1/2,max(0,((H+4)//6)/2-3/2))", "min((H+4)//6-1,max(0,(H+4)//6-3))/2"},
		// The rows of the Slice 1-3:-1:3 that follows it, and of a MaxPool with ceil_mode after.
		{"(min(((H+4)//6)/2-1/2,max(0,((H+4)//6)/2-3/2))+2*min(((H+4)//6)/2-1/2,max(0,((H+4)//6)/2-7/2))+2)//3", "(min((H+4)//6-1,max(0,(H+4)//6-3))+2*min((H+4)//6-1,max(0,(H+4)//6-7))+4)//6"},
		{"(((H+4)//6)/2-1/2+1)//2", "(H+10)//24"},
		// Arguments flattened into an extremum: min(N, -1 % N)+T+15 divides by 5 where the whole
		// does, min(N, ...)+T+15 need not.
		{`min(2*T,(min(N,-1 % N)+T+15)/5)`, "min(N+T+15,min(T+-1 % N+15,10*T))/5"},
		{"max(T+((H+4)//6)/2-1/2,N+((H+4)//6)/2+1/2)", "((H+4)//6+max(2*N+1,2*T-1))/2"},
	} {
		tab := sym.NewTable()
		for _, name := range symNames {
			tab.Symbol(name, 1, sym.Inf)
		}
		e, err := sym.ParseExpr(tt.in, tab)
		if err != nil {
			t.Fatal(err)
		}
		got := e.String()
		if got != tt.want {
			t.Errorf("%s prints %s, want %s", tt.in, got, tt.want)
		}
		if back, err := sym.ParseExpr(got, tab); err != nil || !back.Equal(e) {
			t.Errorf("%s reads back as %s, %v", got, back, err)
		}
		read, err := readExpr(got)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for h := int64(1); h <= 300; h++ {
			env := []int64{h%5 + 1, h%7 + 1, h, h % 11}
			v, err := e.Eval(func(name string) (int64, bool) { return env[slices.Index(symNames, name)], true })
			if err != nil {
				continue
			}
			n++
			if r, ok := read.value(env, false); !ok || !r.IsInt64() || r.Int64() != v {
				t.Errorf("%s at %v = %d; read with each / exact: %v, %v", got, env, v, r, ok)
				break
			}
		}
		if n == 0 {
			t.Errorf("%s: an integer at no binding", got)
		}
	}
}
