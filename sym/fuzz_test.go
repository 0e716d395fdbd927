package sym_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/sym"
)

// node is a plain expression tree, the reference the canonical form is checked against.
type node struct {
	op   byte // 'n' integer, 's' symbol, or one of + - * / f (floor) m (mod) x (max) i (min)
	v    int64
	sym  int
	a, b *node
}

var symNames = []string{"N", "T", "H", "batch size"}

// eval evaluates the tree exactly with big integers; ok is false when an exact quotient does not
// divide, a divisor is zero, or a value leaves int64 (the model would not run, or the canonical
// form could not hold it).
func (n *node) eval(env []int64) (*big.Int, bool) { return n.value(env, true) }

// value evaluates the tree as eval does, a value beyond int64 refused only when bounded.
func (n *node) value(env []int64, bounded bool) (*big.Int, bool) {
	switch n.op {
	case 'n':
		return big.NewInt(n.v), true
	case 's':
		return big.NewInt(env[n.sym]), true
	}
	x, ok1 := n.a.value(env, bounded)
	y, ok2 := n.b.value(env, bounded)
	if !ok1 || !ok2 {
		return nil, false
	}
	z := new(big.Int)
	switch n.op {
	case '+':
		z.Add(x, y)
	case '-':
		z.Sub(x, y)
	case '*':
		z.Mul(x, y)
	case 'x', 'i':
		if (x.Cmp(y) > 0) == (n.op == 'x') {
			z = x
		} else {
			z = y
		}
	case '/', 'f', 'm':
		if y.Sign() == 0 {
			return nil, false
		}
		q, r := new(big.Int).QuoRem(x, y, new(big.Int))
		if n.op == '/' {
			if r.Sign() != 0 {
				return nil, false
			}
			z = q
			break
		}
		if r.Sign() != 0 && (r.Sign() < 0) != (y.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
			r.Add(r, y)
		}
		if n.op == 'f' {
			z = q
		} else {
			z = r
		}
	}
	if bounded && !z.IsInt64() {
		return nil, false
	}
	return z, true
}

var opText = map[byte]string{'+': "+", '-': "-", '*': "*", '/': "/", 'f': "//", 'm': "%"}

// text returns the tree in ParseExpr's notation, every operation in parentheses.
func (n *node) text() string {
	switch n.op {
	case 'n':
		return fmt.Sprintf("(%d)", n.v)
	case 's':
		return strconv.Quote(symNames[n.sym])
	case 'x', 'i':
		return fmt.Sprintf("%s(%s,%s)", map[byte]string{'x': "max", 'i': "min"}[n.op], n.a.text(), n.b.text())
	}
	return fmt.Sprintf("(%s %s %s)", n.a.text(), opText[n.op], n.b.text())
}

// build builds the canonical expression of the tree; ok is false when an operation fails.
func (n *node) build(tab *sym.Table) (sym.Expr, bool) {
	switch n.op {
	case 'n':
		return sym.Int(n.v), true
	case 's':
		return tab.Symbol(symNames[n.sym], 0, sym.Inf), true // the table's bounds
	}
	a, ok1 := n.a.build(tab)
	b, ok2 := n.b.build(tab)
	if !ok1 || !ok2 {
		return sym.Expr{}, false
	}
	switch n.op {
	case '+':
		return sym.Add(a, b)
	case '-':
		return sym.Sub(a, b)
	case '*':
		return sym.Mul(a, b)
	case '/':
		return sym.Quo(a, b)
	case 'f':
		return sym.FloorDiv(a, b)
	case 'x':
		return sym.Max(a, b)
	case 'i':
		return sym.Min(a, b)
	}
	return sym.Mod(a, b)
}

// tree makes a random tree from the bytes of data, consumed from the front.
func tree(data *[]byte, depth int) *node {
	c := next(data)
	if depth > 4 || c < 80 {
		if c%2 == 0 {
			return &node{op: 's', sym: int(c/2) % len(symNames)}
		}
		return &node{op: 'n', v: int64(int8(next(data))) % 9}
	}
	return &node{op: "+-*/fmxi"[c%8], a: tree(data, depth+1), b: tree(data, depth+1)}
}

// next consumes one byte of data, 0 past its end.
func next(data *[]byte) byte {
	if len(*data) == 0 {
		return 0
	}
	c := (*data)[0]
	*data = (*data)[1:]
	return c
}

// newTable returns the table of the random trees: their symbols, bounded to [0, 50] as the
// bindings are.
func newTable() *sym.Table {
	tab := sym.NewTable()
	for _, name := range symNames {
		tab.Symbol(name, 0, 50)
	}
	return tab
}

// binding returns the k-th binding of the symbols, from rest when it holds enough bytes.
func binding(k int, rest *[]byte) []int64 {
	env := []int64{int64(k * 7 % 51), int64(k*13%51 + 1), int64(50 - k*9%51), int64(k * 29 % 51)}
	if len(*rest) >= len(env) {
		for i := range env {
			env[i] = int64((*rest)[i] % 51)
		}
		*rest = (*rest)[len(env):]
	}
	return env
}

func bindingMap(env []int64) map[string]int64 {
	m := map[string]int64{}
	for i, s := range symNames {
		m[s] = env[i]
	}
	return m
}

func checkTree(t *testing.T, data []byte) {
	rest := data
	n := tree(&rest, 0)
	tab := newTable()
	e, ok := n.build(tab)
	if !ok {
		return
	}
	back, err := sym.ParseExpr(e.String(), tab)
	if err != nil || !back.Equal(e) {
		t.Fatalf("%s reads back as %s, %v", e, back, err)
	}
	read, err := readExpr(e.String())
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := e.Bounds()
	for k := 0; k < 6; k++ {
		env := binding(k, &rest)
		want, ok := n.eval(env)
		if !ok {
			continue
		}
		if v, ok := read.value(env, false); !ok || v.Cmp(want) != 0 {
			t.Fatalf("%s read with each / exact at %v = %v: %v, %v; the tree %v gives %d", e, symNames, env, v, ok, n, want)
		}
		got, err := sym.Of(e).Eval(bindingMap(env))
		if err != nil || got != want.Int64() {
			t.Fatalf("%s at %v = %v: %d, %v; the tree gives %d", e, symNames, env, got, err, want)
		}
		if got < lo || got > hi {
			t.Fatalf("%s at %v = %d, outside its bounds %d..%d", e, env, got, lo, hi)
		}
	}
}

// TestRandomTrees checks the canonical form against the plain tree on random expressions: equal
// values at every binding where the tree's value is defined, values inside the bounds, and a
// printed form that reads back equal: 3,000 of them, 30,000 in the long tier (testenv.Count).
func TestRandomTrees(t *testing.T) { random(t, 1, testenv.Count(t, 3000, 30000), 40, checkTree) }

// random calls check with n random inputs of size bytes, from a generator seeded with seed.
func random(t *testing.T, seed uint64, n, size int, check func(*testing.T, []byte)) {
	r := rand.New(rand.NewPCG(seed, seed+1))
	for range n {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(r.UintN(256))
		}
		check(t, data)
	}
}

func FuzzExpr(f *testing.F) {
	f.Add([]byte{200, 80, 2, 81, 1, 3})
	f.Add([]byte{203, 202, 4, 1, 7, 5, 9, 99, 1})
	f.Fuzz(func(t *testing.T, data []byte) { checkTree(t, data) })
}

// pnode is a plain predicate tree: a comparison of two expression trees, !, && or ||.
type pnode struct {
	op   byte // one of the comparisons = ! < l (<=) > g (>=), or & (and), | (or), ~ (not)
	a, b *node
	x, y *pnode
}

// eval evaluates the predicate tree; ok is false where an expression in it is not defined.
func (p *pnode) eval(env []int64) (v, ok bool) {
	switch p.op {
	case '&', '|':
		x, ok1 := p.x.eval(env)
		y, ok2 := p.y.eval(env)
		if p.op == '&' {
			return x && y, ok1 && ok2
		}
		return x || y, ok1 && ok2
	case '~':
		x, ok := p.x.eval(env)
		return !x, ok
	}
	x, ok1 := p.a.eval(env)
	y, ok2 := p.b.eval(env)
	if !ok1 || !ok2 {
		return false, false
	}
	return p.compare(x.Cmp(y)), true
}

// compare returns the comparison's value for operands that compare as c (-1, 0, 1).
func (p *pnode) compare(c int) bool {
	switch p.op {
	case '=':
		return c == 0
	case '!':
		return c != 0
	case '<':
		return c < 0
	case 'l':
		return c <= 0
	case '>':
		return c > 0
	}
	return c >= 0
}

// holds reports whether the predicate tree holds at env, negated when neg, as
// bench/grid/predicate.py reads it, with the values of its comparisons' operands that value gives
// (false where an operand has none): a comparison where an operand has no value (a divisor 0, an
// exact quotient that does not divide) does not hold, nor does its negation; ! is pushed to the
// comparisons, && and || swapping.
func (p *pnode) holds(value func(*node) (*big.Int, bool), neg bool) bool {
	switch p.op {
	case '&', '|':
		x, y := p.x.holds(value, neg), p.y.holds(value, neg)
		if (p.op == '&') != neg {
			return x && y
		}
		return x || y
	case '~':
		return p.x.holds(value, !neg)
	}
	x, ok1 := value(p.a)
	y, ok2 := value(p.b)
	return ok1 && ok2 && p.compare(x.Cmp(y)) != neg
}

// negates reports whether the predicate tree holds a !.
func (p *pnode) negates() bool {
	switch p.op {
	case '~':
		return true
	case '&', '|':
		return p.x.negates() || p.y.negates()
	}
	return false
}

// inexact reports whether an exact quotient of the predicate tree has a divisor other than 0 that
// does not divide at env.
func (p *pnode) inexact(env []int64) bool {
	if p.op == '&' || p.op == '|' || p.op == '~' {
		return p.x.inexact(env) || p.y != nil && p.y.inexact(env)
	}
	return p.a.inexact(env) || p.b.inexact(env)
}

// inexact reports whether an exact quotient of the tree has a divisor other than 0 that does not
// divide at env.
func (n *node) inexact(env []int64) bool {
	if n.a == nil {
		return false
	}
	if n.a.inexact(env) || n.b.inexact(env) {
		return true
	}
	x, ok1 := n.a.value(env, false)
	y, ok2 := n.b.value(env, false)
	return n.op == '/' && ok1 && ok2 && y.Sign() != 0 && new(big.Int).Rem(x, y).Sign() != 0
}

// text returns the predicate tree in ParsePred's notation.
func (p *pnode) text() string {
	switch p.op {
	case '&', '|':
		return fmt.Sprintf("(%s %c%c %s)", p.x.text(), p.op, p.op, p.y.text())
	case '~':
		return fmt.Sprintf("!(%s)", p.x.text())
	}
	return fmt.Sprintf("%s %s %s", p.a.text(), ops[p.op], p.b.text())
}

var ops = map[byte]sym.Op{'=': sym.OpEq, '!': sym.OpNe, '<': sym.OpLt, 'l': sym.OpLe, '>': sym.OpGt, 'g': sym.OpGe}

// build builds the canonical predicate; ok is false when an expression cannot be built.
func (p *pnode) build(tab *sym.Table) (sym.Pred, bool) {
	switch p.op {
	case '&', '|':
		x, ok1 := p.x.build(tab)
		y, ok2 := p.y.build(tab)
		if p.op == '&' {
			return sym.And(x, y), ok1 && ok2
		}
		return sym.Or(x, y), ok1 && ok2
	case '~':
		x, ok := p.x.build(tab)
		return sym.Not(x), ok
	}
	a, ok1 := p.a.build(tab)
	b, ok2 := p.b.build(tab)
	return sym.Cmp(a, ops[p.op], b), ok1 && ok2
}

// ptree makes a random predicate tree from the bytes of data. Its comparisons are of small
// expressions, or of a symbol and a small constant, so that their conjunctions and disjunctions
// meet on one expression, as a model's constraints do.
func ptree(data *[]byte, depth int) *pnode {
	c := next(data)
	if depth > 3 || c < 100 {
		var a, b *node
		if c%3 == 0 {
			a = &node{op: 's', sym: int(next(data)) % len(symNames)}
			b = &node{op: 'n', v: int64(next(data) % 12)}
		} else {
			a, b = tree(data, 3), tree(data, 3)
		}
		return &pnode{op: "=!<l>g"[c%6], a: a, b: b}
	}
	return &pnode{op: "&|~"[c%3], x: ptree(data, depth+1), y: ptree(data, depth+1)}
}

// checkPred checks the canonical form of a random predicate against the plain tree: the same
// value at every binding where the tree is defined, and a printed form that reads back equal.
// Where a divisor of the tree is 0 (the bindings include 0), the canonical form holds exactly
// where the tree does as bench/grid/predicate.py reads it (holds): a comparison with no value is
// false, and so is its negation, never true; and Complement holds exactly where the canonical
// form does not.
func checkPred(t *testing.T, data []byte) {
	rest := data
	n := ptree(&rest, 0)
	tab := newTable()
	p, ok := n.build(tab)
	if !ok {
		return
	}
	back, err := sym.ParsePred(p.String(), tab)
	if err != nil || !back.Equal(p) {
		t.Fatalf("%s reads back as %s, %v", p, back, err)
	}
	read, err := readPred(p.String())
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := sym.ParsePred(n.text(), tab)
	if err != nil {
		t.Fatalf("%s: %v", n.text(), err)
	}
	complements := []sym.Pred{sym.Complement(p), sym.Complement(parsed)}
	for k := 0; k < 8; k++ {
		env := binding(k, &rest)
		b := bindingMap(env)
		for i, q := range []sym.Pred{p, parsed} {
			v, err1 := q.Eval(b)
			w, err2 := complements[i].Eval(b)
			if (err1 == nil && v) == (err2 == nil && w) {
				t.Fatalf("%s at %v = %v: %v, %v; its complement %s: %v, %v", q, symNames, env, v, err1, complements[i], w, err2)
			}
		}
		// Where a divisor is 0: the tree's text parsed holds where the tree does, and the
		// predicate built from its expressions where they do (an expression cancels a divisor:
		// H//W-H//W is 0), unless it negates one: Not negates what Cmp keeps beside a
		// comparison too, the complement the prover needs.
		if !n.inexact(env) {
			tree := func(x *node) (*big.Int, bool) { return x.value(env, false) }
			if v, err := parsed.Eval(b); (err == nil && v) != n.holds(tree, false) {
				t.Fatalf("%s parsed as %s at %v = %v: %v, %v; the tree as predicate.py reads it gives %v", n.text(), parsed, symNames, env, v, err, !v)
			}
			built := func(x *node) (*big.Int, bool) {
				e, ok := x.build(tab)
				if !ok {
					return nil, false
				}
				v, err := e.Eval(func(name string) (int64, bool) { x, ok := b[name]; return x, ok })
				return big.NewInt(v), err == nil
			}
			if v, err := p.Eval(b); !n.negates() && (err == nil && v) != n.holds(built, false) {
				t.Fatalf("%s as %s at %v = %v: %v, %v; its expressions as predicate.py reads them give %v", n.text(), p, symNames, env, v, err, !v)
			}
		}
		want, ok := n.eval(env)
		if !ok {
			continue
		}
		if v, ok := read.evalRead(env); !ok || v != want {
			t.Fatalf("%s read with each / exact at %v = %v: %v, %v; the tree gives %v", p, symNames, env, v, ok, want)
		}
		got, err := p.Eval(bindingMap(env))
		if err != nil || got != want {
			t.Fatalf("%s at %v = %v: %v, %v; the tree gives %v", p, symNames, env, got, err, want)
		}
	}
}

// TestRandomPreds checks the canonical form of predicates against plain trees, as
// TestRandomTrees does for expressions: 2,000 of them, 20,000 in the long tier.
func TestRandomPreds(t *testing.T) { random(t, 3, testenv.Count(t, 2000, 20000), 60, checkPred) }

func FuzzPred(f *testing.F) {
	f.Add([]byte{200, 3, 0, 12, 120, 9, 1, 4})
	f.Add([]byte{101, 30, 2, 7, 33, 1, 3, 150, 0, 0, 5})
	f.Fuzz(func(t *testing.T, data []byte) { checkPred(t, data) })
}

// checkSolver requires random predicates and unifies random expressions in a Solver, and checks
// it against the plain trees at random bindings: Check and the conjunction of Constraints hold
// exactly when the conjunction of what was accepted does, and what was refused as never holding
// holds at no binding with what was accepted before it.
func checkSolver(t *testing.T, data []byte) {
	rest := data
	tab := newTable()
	s := sym.NewSolver(tab)
	var accepted []*pnode
	type refusal struct {
		p      *pnode
		before int
		err    error
	}
	var refused []refusal
	for i := 0; i < 6 && len(rest) > 0; i++ {
		o := sym.Origin{Node: "n" + strconv.Itoa(i)}
		var n *pnode
		var err error
		if next(&rest)%3 == 0 {
			n = &pnode{op: '=', a: tree(&rest, 2), b: tree(&rest, 2)}
			a, ok1 := n.a.build(tab)
			b, ok2 := n.b.build(tab)
			if !ok1 || !ok2 {
				continue
			}
			_, err = s.Unify(sym.Of(a), sym.Of(b), o)
		} else {
			n = ptree(&rest, 2)
			p, ok := n.build(tab)
			if !ok {
				continue
			}
			err = s.Require(p, o)
		}
		if err != nil {
			refused = append(refused, refusal{n, len(accepted), err})
			continue
		}
		accepted = append(accepted, n)
	}
	all := sym.All(s.Constraints())
	read, err := readPred(all.String())
	if err != nil {
		t.Fatal(err)
	}
	conj := func(ps []*pnode, env []int64) (v, ok bool) {
		v = true
		for _, p := range ps {
			x, ok := p.eval(env)
			if !ok {
				return false, false
			}
			v = v && x
		}
		return v, true
	}
	for k := 0; k < 8; k++ {
		env := binding(k, &rest)
		b := bindingMap(env)
		for _, r := range refused {
			if v, ok := conj(append(accepted[:r.before:r.before], r.p), env); ok && v {
				t.Fatalf("refused (%v), but it holds with what came before at %v = %v", r.err, symNames, env)
			}
		}
		want, ok := conj(accepted, env)
		if !ok {
			continue
		}
		if err := s.Check(b); (err == nil) != want {
			t.Fatalf("Check at %v = %v: %v; the conjunction of %d accepted is %v (constraints %s)", symNames, env, err, len(accepted), want, all)
		}
		got, err := all.Eval(b)
		if err != nil && want || err == nil && got != want {
			t.Fatalf("%s at %v = %v: %v, %v; the conjunction of %d accepted is %v", all, symNames, env, got, err, len(accepted), want)
		}
		if v, ok := read.evalRead(env); !ok || v != want {
			t.Fatalf("%s read with each / exact at %v = %v: %v, %v; the conjunction of %d accepted is %v", all, symNames, env, v, ok, len(accepted), want)
		}
	}
}

// TestRandomSolvers checks Solvers against plain trees, as TestRandomPreds does predicates: 300
// of them, 3,000 in the long tier.
func TestRandomSolvers(t *testing.T) { random(t, 5, testenv.Count(t, 300, 3000), 120, checkSolver) }

func FuzzSolver(f *testing.F) {
	f.Add([]byte{1, 0, 3, 7, 2, 120, 3, 0, 12, 0, 1, 5})
	f.Add([]byte{0, 81, 2, 1, 4, 3, 150, 0, 2, 2, 7, 8, 3, 99, 1, 0, 4, 9})
	f.Fuzz(func(t *testing.T, data []byte) { checkSolver(t, data) })
}

// checkMinimal checks Minimize in the box of newTable and in a wide one (checkMinimalIn).
func checkMinimal(t *testing.T, data []byte) {
	checkMinimalIn(t, data, false)
	checkMinimalIn(t, data, true)
}

// wideConst is what a constant 8 of the trees stands for in the wide box: a Cast's bound to int32,
// past the values a guess evaluates.
const wideConst = 1<<31 - 1

// largeValues are the values of a symbol checked in the wide box, past those a guess evaluates:
// about 2^31, 2^32, 2^40, 2^62, and the trees' own large constant and its neighbours.
var largeValues = []int64{wideConst - 1, wideConst, wideConst + 1, 1 << 32, 1<<32 + 1, 1 << 40, 1 << 62}

// widen returns p with each constant 8 (or -8) as wideConst (or -wideConst).
func widen(p *pnode) *pnode {
	if p == nil {
		return nil
	}
	return &pnode{op: p.op, a: widenExpr(p.a), b: widenExpr(p.b), x: widen(p.x), y: widen(p.y)}
}

// widenExpr returns n with each constant 8 (or -8) as wideConst (or -wideConst).
func widenExpr(n *node) *node {
	if n == nil {
		return nil
	}
	w := &node{op: n.op, v: n.v, sym: n.sym, a: widenExpr(n.a), b: widenExpr(n.b)}
	if n.op == 'n' && (n.v == 8 || n.v == -8) {
		w.v = n.v / 8 * wideConst
	}
	return w
}

// checkMinimalIn minimizes random conditions, each at a node of a random Seq (nondecreasing), and
// checks Minimize against the plain trees at the bindings of a box and at random ones: the
// conjunction of Constraints holds exactly where that of the conditions does; each implied
// condition holds wherever the constraints of its By do; of the conditions a binding breaks, the
// least Seq among Constraints and Implied is the least among the conditions given (the blame is
// kept); and the values SizesOf gives a symbol (proven) include its value at every binding where
// the conditions hold. wide makes the symbols' bounds [0, Inf) and each constant 8 wideConst,
// and checks the bindings also at largeValues: a condition past the values a guess evaluates is
// kept (T//4+2147483647 >= T//3 && T % 4 < 1 is not T % 4 == 0). It leaves out the sizes, whose
// search over such bounds costs a hundred times the rest (125 s for 200 inputs).
func checkMinimalIn(t *testing.T, data []byte, wide bool) {
	rest := data
	tab := newTable()
	if wide {
		tab = sym.NewTable()
		for _, name := range symNames {
			tab.Symbol(name, 0, sym.Inf)
		}
	}
	var cs []sym.Constraint
	var trees []*pnode
	seq := 0
	for i := 0; i < 5 && len(rest) > 0; i++ {
		n := ptree(&rest, 2)
		if wide {
			n = widen(n)
		}
		p, ok := n.build(tab)
		if !ok || p.IsTrue() || p.IsFalse() {
			continue
		}
		seq += int(next(&rest) % 2)
		cs = append(cs, sym.Constraint{Pred: p, Origin: sym.Origin{Node: "n" + strconv.Itoa(i), Seq: seq}})
		trees = append(trees, n)
	}
	m := sym.Minimize(cs)
	// The sizes of the wide box cost a search over its values: they are checked in the box.
	var sizes sym.Sizes
	if !wide {
		sizes = sym.SizesOf(tab, m.Constraints)
	}
	read := make([]*pnode, len(m.Constraints))
	for i, c := range m.Constraints {
		var err error
		if read[i], err = readPred(c.Pred.String()); err != nil {
			t.Fatal(err)
		}
	}
	holds := func(p sym.Pred, b map[string]int64) bool {
		v, err := p.Eval(b)
		return err == nil && v
	}
	check := func(env []int64) {
		b := bindingMap(env)
		all, defined := true, true
		least := -1
		for i, n := range trees {
			v, ok := n.eval(env)
			defined = defined && ok
			if !v || !ok {
				all = false
				if least < 0 {
					least = cs[i].Origin.Seq
				}
			}
		}
		// A condition that cannot hold with those before it (Never) is listed apart, at its node.
		listed := m.Constraints
		if m.Never != nil {
			listed = append(slices.Clone(listed), m.Never.Constraint)
			if all && defined {
				t.Fatalf("at %v the conditions hold, and Minimize says %v never holds: %v", env, m.Never, cs)
			}
		}
		kept, got := true, -1
		for _, c := range listed {
			if !holds(c.Pred, b) {
				kept = false
				// Of a merged one, each node's own condition is in Implied.
				if !c.Merged && (got < 0 || c.Origin.Seq < got) {
					got = c.Origin.Seq
				}
			}
		}
		for _, im := range m.Implied {
			by := true
			for _, k := range im.By {
				by = by && holds(m.Constraints[k].Pred, b)
			}
			if by && !holds(im.Pred, b) {
				t.Fatalf("%s, implied by %v, fails at %v where they hold: %v -> %v", im.Pred, im.By, env, cs, m.Constraints)
			}
			if !holds(im.Pred, b) && (got < 0 || im.Origin.Seq < got) {
				got = im.Origin.Seq
			}
		}
		if !defined {
			return
		}
		if kept != all {
			t.Fatalf("at %v the conditions %v, the minimal ones %v: %v -> %v", env, all, kept, cs, m.Constraints)
		}
		for i, r := range read {
			if v, ok := r.evalRead(env); !ok || v != holds(m.Constraints[i].Pred, b) {
				t.Fatalf("%s read with each / exact at %v = %v, %v; it evaluates to %v", m.Constraints[i].Pred, env, v, ok, holds(m.Constraints[i].Pred, b))
			}
		}
		if got != least {
			t.Fatalf("at %v the first broken condition has Seq %d, the minimal lists give %d: %v -> %v, %v", env, least, got, cs, m.Constraints, m.Implied)
		}
		if !all {
			return
		}
		for _, z := range sizes.Symbols {
			v := b[z.Symbol]
			if known(z, v) && !allows(z, v) {
				t.Fatalf("%s = %d where the conditions hold, not among its sizes %q (%+v): %v", z.Symbol, v, z.Text, z, m.Constraints)
			}
		}
	}
	// A symbol that no condition ties to others takes exactly the values at which the conditions
	// on it hold, wherever its sizes say they are known: each value of its bounds, evaluated.
	for _, z := range sizes.Symbols {
		if len(z.With) > 0 {
			continue
		}
		lo, hi, _ := tab.Bounds(z.Symbol)
		for v := lo; v <= hi; v++ {
			if !known(z, v) {
				continue
			}
			b := map[string]int64{z.Symbol: v}
			on := true
			for _, c := range m.Constraints {
				// A condition of no symbol (0 == 1) holds of every symbol or of none.
				if ns := c.Pred.SymbolNames(); len(ns) == 0 || slices.Contains(ns, z.Symbol) {
					on = on && holds(c.Pred, b)
				}
			}
			if allows(z, v) != on {
				t.Fatalf("%s: %q (%+v) allows %d: %v, where the conditions on it hold: %v: %v", z.Symbol, z.Text, z, v, allows(z, v), on, m.Constraints)
			}
		}
	}
	for k := 0; k < 24; k++ {
		env := binding(k, &rest)
		check(env)
		if wide && k < 4 {
			for i := range env {
				for _, v := range largeValues {
					large := slices.Clone(env)
					large[i] = v
					check(large)
				}
			}
		}
	}
	for a := int64(0); a < 4; a++ {
		for b := int64(0); b < 4; b++ {
			check([]int64{a, b, a + b, 3 * a})
		}
	}
}

// known reports whether the sizes z say whether v is among them: proven, or within Checked.
func known(z sym.Size, v int64) bool { return z.Proven || z.Checked[0] <= v && v <= z.Checked[1] }

// TestRandomMinimal checks Minimize against plain trees, as TestRandomSolvers does Solvers: 200
// inputs, 2,000 in the long tier (testenv.Count).
func TestRandomMinimal(t *testing.T) { random(t, 7, testenv.Count(t, 200, 2000), 100, checkMinimal) }

func FuzzMinimal(f *testing.F) {
	f.Add([]byte{0, 2, 7, 0, 1, 9, 0, 3, 4, 1, 0, 0, 5})
	f.Add([]byte{150, 0, 2, 3, 1, 101, 30, 2, 7, 33, 1, 3, 0, 0, 1, 4})
	f.Fuzz(func(t *testing.T, data []byte) { checkMinimal(t, data) })
}

// floatSizes are the values the symbols of the random floats take: small sizes, those of
// torchvision's detection transform, and the edges of float32's exact integers, of int32 and of
// int64.
var floatSizes = []int64{0, 1, 2, 3, 25, 320, 641, 1333, 1<<24 - 1, 1 << 24, 1<<24 + 1, 1<<31 - 1, 1 << 31,
	1<<53 + 1, 1 << 62, math.MaxInt64, -1, -(1 << 31), math.MinInt64}

// floatConsts are the constants of the random floats.
var floatConsts = []float64{1, 2, 0.5, 0.1, 3, 320, 640, 800, 1333, 1e-3, -1, -2.5, 16777217, 1e20}

// floatSymbols are the symbols of the random floats, with their bounds: sizes from 1 or 0, and
// one of any sign.
var floatSymbols = []struct {
	name   string
	lo, hi int64
}{{"H", 1, sym.Inf}, {"W", 1, sym.Inf}, {"C", 0, sym.Inf}, {"K", sym.NegInf, sym.Inf}}

// fsize makes a random integer a random float converts: a symbol, or the min, max or sum of two.
func fsize(data *[]byte, tab *sym.Table) sym.Expr {
	c := next(data)
	s := func(c byte) sym.Expr {
		v := floatSymbols[int(c)%len(floatSymbols)]
		return tab.Symbol(v.name, v.lo, v.hi)
	}
	a, b := s(c/4), s(next(data))
	var e sym.Expr
	switch c % 4 {
	case 0:
		return a
	case 1:
		e, _ = sym.Min(a, b)
	case 2:
		e, _ = sym.Max(a, b)
	default:
		e, _ = sym.Add(a, b)
	}
	return e
}

// ftree makes a random float32 from the bytes of data, consumed from the front: conversions of
// sizes (fsize), constants, the operations of FloatOp, a product by a float64 constant computed in
// float64, and quotients f32(X)·(c/f32(D)) by a size D at least X (X itself, max(X,Y) or X+Y), as
// torchvision's resize computes them. ok is false where an operation is not kept.
func ftree(data *[]byte, tab *sym.Table, depth int) (sym.Float, bool) {
	c := next(data)
	if depth > 3 || c < 64 {
		if c%3 == 0 {
			return sym.FloatConst(floatConsts[int(next(data))%len(floatConsts)], 32)
		}
		return sym.FloatOf(fsize(data, tab), 32)
	}
	if c < 96 {
		x := fsize(data, tab)
		d := x
		switch y := fsize(data, tab); c % 3 {
		case 1:
			d, _ = sym.Max(x, y)
		case 2:
			d, _ = sym.Add(x, y)
		}
		fx, ok1 := sym.FloatOf(x, 32)
		fd, ok2 := sym.FloatOf(d, 32)
		k, ok3 := sym.FloatConst(floatConsts[int(next(data))%len(floatConsts)], 32)
		q, ok4 := sym.FloatBinary(sym.FloatDiv, k, fd)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return sym.Float{}, false
		}
		return sym.FloatBinary(sym.FloatMul, fx, q)
	}
	x, ok := ftree(data, tab, depth+1)
	if !ok {
		return sym.Float{}, false
	}
	if c < 176 {
		y, ok := ftree(data, tab, depth+1)
		if !ok {
			return sym.Float{}, false
		}
		return sym.FloatBinary(sym.FloatAdd+sym.FloatOp(c%6), x, y)
	}
	if c%6 < 5 {
		return sym.FloatUnary(sym.FloatNeg+sym.FloatOp(c%6), x)
	}
	x64, ok1 := sym.FloatCast(x, 64)
	k, ok2 := sym.FloatConst(floatConsts[int(next(data))%len(floatConsts)], 64)
	p, ok3 := sym.FloatBinary(sym.FloatMul, x64, k)
	if !ok1 || !ok2 || !ok3 {
		return sym.Float{}, false
	}
	return sym.FloatCast(p, 32)
}

// checkFloat checks the bounds of int(F) for a random float F (ftree) against F's value, computed
// as onnxruntime rounds it, at bindings of the symbols to floatSizes within their bounds, H = W
// and H = 2·W among them: truncated, each value within the bounds.
func checkFloat(t *testing.T, data []byte) {
	rest := data
	tab := sym.NewTable()
	f, ok := ftree(&rest, tab, 0)
	if !ok {
		return
	}
	e, ok := sym.Trunc(f)
	if !ok {
		return
	}
	lo, hi := e.Bounds()
	for k := range 8 {
		b := map[string]int64{}
		for _, s := range floatSymbols {
			v := floatSizes[int(next(&rest))%len(floatSizes)]
			if v < s.lo {
				v = s.lo + int64(k%4) // one of the least instead
			}
			b[s.name] = v
		}
		switch k {
		case 6:
			b["W"] = b["H"]
		case 7:
			b["H"] = 2 * min(b["W"], 1<<61)
		}
		v, err := f.Eval(func(name string) (int64, bool) { x, ok := b[name]; return x, ok })
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if tv := math.Trunc(v); lo != sym.NegInf && tv < float64(lo) || hi != sym.Inf && tv > float64(hi) {
			t.Fatalf("int(%s) at %v = %v, outside its bounds %d..%d", f, b, tv, lo, hi)
		}
	}
}

// TestRandomFloats checks the bounds of random floats against their values (checkFloat): 3,000
// of them, 30,000 in the long tier (testenv.Count).
func TestRandomFloats(t *testing.T) { random(t, 11, testenv.Count(t, 3000, 30000), 40, checkFloat) }

func FuzzFloat(f *testing.F) {
	// min(f32(H)*(f32(640)/f32(max(H,W))),f32(min(H,W))*(f32(320)/f32(min(H,W)))), at most 320,
	// and floor(f32(H)*(f32(640)/f32(max(H,W)))), at most 640, then bindings.
	bindings := []byte{1, 6, 0, 16, 7, 7, 3, 18, 15, 1, 1, 0, 11, 12, 9, 16, 10, 9, 8, 17, 13, 14, 15, 16, 6, 6, 6, 6, 5, 5, 5, 5}
	f.Add(append([]byte{100, 64, 0, 0, 4, 0, 6, 66, 1, 1, 0, 0, 5}, bindings...))
	f.Add(append([]byte{181, 64, 0, 0, 4, 0, 6}, bindings...))
	f.Fuzz(func(t *testing.T, data []byte) { checkFloat(t, data) })
}
