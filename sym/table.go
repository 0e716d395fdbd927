package sym

import (
	"strconv"
	"strings"
)

// Table is the set of symbols of one model: each named symbol once, in the order they were first
// met, which is the order they print in within a product ("N*C*H*W"). Expressions that share
// symbols must come from one Table. A Table is not safe for concurrent use; the Exprs it makes are.
type Table struct {
	byName map[string]*atom
	n      int
}

// NewTable returns an empty table.
func NewTable() *Table { return &Table{byName: map[string]*atom{}} }

// Symbol returns the symbol named name, a dimension whose value is unknown but lies in [lo, hi]
// (hi may be Inf); a name met before gives the same symbol, its bounds narrowed to the
// intersection (or left as they were when the two do not meet). Names are printed as given: the
// model's own dim_param ("N", "batch_size"), or INPUT:AXIS ("x:0") for an unnamed dimension of a
// graph input.
func (t *Table) Symbol(name string, lo, hi int64) Expr {
	if a, ok := t.byName[name]; ok {
		if nlo, nhi := max(a.lo, lo), min(a.hi, hi); nlo <= nhi {
			a.lo, a.hi = nlo, nhi
		}
		return fromAtom(a)
	}
	a := &atom{kind: symbolAtom, name: name, order: t.n, lo: lo, hi: hi}
	t.n++
	t.byName[name] = a
	return fromAtom(a)
}

// Lookup returns the symbol named name, if the table has it.
func (t *Table) Lookup(name string) (Expr, bool) {
	a, ok := t.byName[name]
	if !ok || a.anon {
		return Expr{}, false
	}
	return fromAtom(a), true
}

// Bounds returns the bounds of the symbol named name.
func (t *Table) Bounds(name string) (lo, hi int64, ok bool) {
	a, ok := t.byName[name]
	if !ok {
		return 0, 0, false
	}
	return a.lo, a.hi, true
}

// Names returns the names of the table's named symbols, in the order they were first met.
func (t *Table) Names() []string {
	names := make([]string, t.n)
	k := 0
	for _, a := range t.byName {
		if !a.anon {
			names[a.order] = a.name
			k++
		}
	}
	out := names[:0]
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// Symbol is a named dimension of a model (an ONNX dim_param such as N, or INPUT:AXIS for an unnamed
// dynamic dim of a graph input) and the interval [Lo, Hi] of its values, in elements: [1, Inf) for
// a size unless the model or a binding says more.
type Symbol struct {
	Name   string
	Lo, Hi int64
}

// String returns the name in the notation of the package documentation (quoted when it is not a
// plain name), " in ", and the interval of its values: "N in 1..", "T in 1..64".
func (s Symbol) String() string {
	b := appendName(nil, s.Name)
	b = append(b, " in "...)
	return string(Interval(s.Lo, s.Hi).AppendText(b))
}

// Symbols returns the table's named symbols with their bounds, in the order they were first met;
// anonymous symbols (Anon), which stand for dims the model gives no name, are left out.
func (t *Table) Symbols() []Symbol {
	out := make([]Symbol, 0, len(t.byName))
	for _, name := range t.Names() {
		a := t.byName[name]
		out = append(out, Symbol{Name: name, Lo: a.lo, Hi: a.hi})
	}
	return out
}

// String returns the table's named symbols as Symbols gives them, separated by ", ": "N in 1..,
// T in 1..64"; "" for none. Anonymous symbols are left out.
func (t *Table) String() string {
	var b strings.Builder
	for i, s := range t.Symbols() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.String())
	}
	return b.String()
}

// Anon returns a new anonymous symbol: a dimension known only to equal itself, with bounds [lo,
// hi]. Equal anonymous dims still cancel (the Reshape of a tensor by a pattern computed from its
// own shape), but a Dim that depends on one prints as its bounds, since the model gives it no
// name. hint names it in Expr.String and errors; the table makes the name unique.
func (t *Table) Anon(hint string, lo, hi int64) Expr {
	name := "$" + hint + "#" + strconv.Itoa(t.n)
	a := &atom{kind: symbolAtom, name: name, order: t.n, lo: lo, hi: hi, anon: true}
	t.n++
	t.byName[name] = a
	return fromAtom(a)
}
