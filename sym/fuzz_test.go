package sym_test

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// node is a plain expression tree, the reference the canonical form is checked against.
type node struct {
	op   byte // 'n' integer, 's' symbol, or one of + - * / f (floor) m (mod)
	v    int64
	sym  int
	a, b *node
}

var symNames = []string{"N", "T", "H"}

// eval evaluates the tree exactly with big integers; ok is false when an exact quotient does not
// divide, a divisor is zero, or a value leaves int64 (the model would not run, or the canonical
// form could not hold it).
func (n *node) eval(env []int64) (*big.Int, bool) {
	switch n.op {
	case 'n':
		return big.NewInt(n.v), true
	case 's':
		return big.NewInt(env[n.sym]), true
	}
	x, ok1 := n.a.eval(env)
	y, ok2 := n.b.eval(env)
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
	if !z.IsInt64() {
		return nil, false
	}
	return z, true
}

// build builds the canonical expression of the tree; ok is false when an operation fails.
func (n *node) build(tab *sym.Table) (sym.Expr, bool) {
	switch n.op {
	case 'n':
		return sym.Int(n.v), true
	case 's':
		return tab.Symbol(symNames[n.sym], 0, 50), true
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
	}
	return sym.Mod(a, b)
}

// tree makes a random tree from the bytes of data, consumed from the front.
func tree(data *[]byte, depth int) *node {
	next := func() byte {
		if len(*data) == 0 {
			return 0
		}
		c := (*data)[0]
		*data = (*data)[1:]
		return c
	}
	c := next()
	if depth > 4 || c < 80 {
		if c%2 == 0 {
			return &node{op: 's', sym: int(c/2) % len(symNames)}
		}
		return &node{op: 'n', v: int64(int8(next())) % 9}
	}
	return &node{op: "+-*/fm"[c%6], a: tree(data, depth+1), b: tree(data, depth+1)}
}

func checkTree(t *testing.T, data []byte) {
	rest := data
	n := tree(&rest, 0)
	tab := sym.NewTable()
	e, ok := n.build(tab)
	if !ok {
		return
	}
	back, err := sym.ParseExpr(e.String(), tab)
	if err != nil || !back.Equal(e) {
		t.Fatalf("%s reads back as %s, %v", e, back, err)
	}
	lo, hi := e.Bounds()
	for k := 0; k < 6; k++ {
		env := []int64{int64(k * 7 % 51), int64(k*13%51 + 1), int64(50 - k*9%51)}
		if len(rest) > 2 {
			env[0], env[1], env[2] = int64(rest[0]%51), int64(rest[1]%51), int64(rest[2]%51)
			rest = rest[3:]
		}
		want, ok := n.eval(env)
		if !ok {
			continue
		}
		got, err := e.Eval(func(name string) (int64, bool) {
			for i, s := range symNames {
				if s == name {
					return env[i], true
				}
			}
			return 0, false
		})
		if err != nil || got != want.Int64() {
			t.Fatalf("%s at N,T,H = %v: %d, %v; the tree gives %d", e, env, got, err, want)
		}
		if got < lo || got > hi {
			t.Fatalf("%s at %v = %d, outside its bounds %d..%d", e, env, got, lo, hi)
		}
	}
}

// TestRandomTrees checks the canonical form against the plain tree on random expressions: equal
// values at every binding where the tree's value is defined, values inside the bounds, and a
// printed form that reads back equal.
func TestRandomTrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 50000 {
		data := make([]byte, 40)
		for i := range data {
			data[i] = byte(r.UintN(256))
		}
		checkTree(t, data)
	}
}

func FuzzExpr(f *testing.F) {
	f.Add([]byte{200, 80, 2, 81, 1, 3})
	f.Add([]byte{203, 202, 4, 1, 7, 5, 9, 99, 1})
	f.Fuzz(func(t *testing.T, data []byte) { checkTree(t, data) })
}
