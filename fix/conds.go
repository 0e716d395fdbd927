package fix

import (
	"github.com/reshape-go/reshape/sym"
)

// conds is a conjunction of conditions on a model's symbols, read from their notation into a table
// of its own, so that the conditions of different inferences of a model (each with its table) meet:
// the original's constraints, the equations of the export binding, the fixed model's constraints.
type conds struct {
	t      *sym.Table
	preds  []sym.Pred
	solver *sym.Solver
	never  bool // the conditions contradict each other
}

func newConds() *conds {
	t := sym.NewTable()
	return &conds{t: t, solver: sym.NewSolver(t)}
}

// parse reads a condition in the notation of sym.Pred.String into c's table.
func (c *conds) parse(p sym.Pred) (sym.Pred, error) { return sym.ParsePred(p.String(), c.t) }

// add adds the condition p. A condition the solver finds contradicts those before makes c never
// hold.
func (c *conds) add(p sym.Pred) error {
	q, err := c.parse(p)
	if err != nil {
		return err
	}
	c.require(q)
	return nil
}

// require adds the condition q, of c's table.
func (c *conds) require(q sym.Pred) {
	c.preds = append(c.preds, q)
	if c.solver.Require(q, sym.Origin{}) != nil {
		c.never = true
	}
}

// implies reports whether every binding that satisfies c satisfies p, as far as the solver can
// tell (sym.Solver.When, or a proof that no such binding breaks p: sym.Solver.Never of its
// negation, which sees that H//2 % 2 == 0 && W//2 % 2 == 0 makes the volumes (H//2)*(W//2) and
// 4*(H//4)*(W//4) equal): false when it cannot.
func (c *conds) implies(p sym.Pred) bool {
	q, err := c.parse(p)
	return err == nil && !c.never && (c.solver.When(q).IsTrue() || c.solver.Never(sym.Not(q)))
}

// value returns the one value the conditions leave the symbol name, as far as the solver can tell;
// ok is false when they leave it several, or do not name it.
func (c *conds) value(name string) (int64, bool) {
	x, ok := c.t.Lookup(name)
	if !ok {
		return 0, false
	}
	return c.solver.Dim(sym.Of(x)).Static()
}

// The search for a binding (witness): each symbol takes the values 1 to maxWitness in turn, and the
// whole search substitutes at most witnessBudget values, so that it ends on any conditions.
const (
	maxWitness    = 1 << 12
	witnessBudget = 1 << 16
)

// witness returns a binding of the symbols of c's conditions at which they all hold: each symbol,
// in the order the conditions name them, takes the least value from 1 up that leaves every
// condition possible, the values before it substituted. ok is false when c contradicts itself, or
// when no binding is found within values up to maxWitness and witnessBudget substitutions: a
// binding that exists beyond them is not found.
func (c *conds) witness() (b map[string]int64, ok bool) {
	if c.never {
		return nil, false
	}
	var names []string
	seen := map[string]bool{}
	for _, p := range c.preds {
		for _, n := range p.SymbolNames() {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	b = map[string]int64{}
	budget := witnessBudget
	var search func(k int, preds []sym.Pred) bool
	search = func(k int, preds []sym.Pred) bool {
		if k == len(names) {
			for _, p := range preds {
				if !p.IsTrue() {
					return false
				}
			}
			return true
		}
		name := names[k]
		next := make([]sym.Pred, len(preds))
	values:
		for v := int64(1); v <= maxWitness && budget > 0; v++ {
			budget--
			sub := func(s string) (sym.Expr, bool) {
				if s == name {
					return sym.Int(v), true
				}
				return sym.Expr{}, false
			}
			for i, p := range preds {
				q, ok := p.Subst(sub)
				if !ok || q.IsFalse() {
					continue values
				}
				next[i] = q
			}
			b[name] = v
			if search(k+1, next) {
				return true
			}
		}
		delete(b, name)
		return false
	}
	if !search(0, c.preds) {
		return nil, false
	}
	return b, true
}
