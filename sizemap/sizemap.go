// Package sizemap computes at which sizes a model runs over a grid of two of its symbols (or a
// strip of one), from the conditions its shape inference states, and draws the grid as SVG.
package sizemap

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// Condition is a condition a model states on its symbols for it to run (check.Constraint,
// sym.Constraint), with the node that imposes it.
type Condition struct {
	Holds sym.Pred
	// Node is the path of the node ("If_1/then_branch/Add_2"), Op its operator, Why what the
	// node needs, in a few words.
	Node, Op, Why string
}

// Symbol is a symbol of a model with its bounds, inclusive (sym.Table.Bounds; sym.Inf for none).
type Symbol struct {
	Name   string
	Lo, Hi int64
}

// Completeness says whether a model's conditions are all it needs to run.
type Completeness int8

const (
	// Unstated: the engine states no promise either way, and records no loss of precision. A
	// cell where every condition holds is drawn as running.
	Unstated Completeness = iota
	// Complete: at every binding that satisfies the conditions the model runs.
	Complete
	// Incomplete: the conditions may be incomplete (Facts.Lost says where): a cell where every
	// condition holds is no claim, and is drawn as such (data-runs "maybe").
	Incomplete
)

// Loss is a place where inference lost precision, so that what the node needs may be missing from
// the conditions: a node without a shape rule, a dim that became unknown.
type Loss struct {
	Node, Op, Why string
}

// Facts is what a map is computed from: a model's free symbols with their bounds, its conditions
// in the order inference meets their nodes (the first a binding breaks names the node where a run
// stops), and whether they are complete.
type Facts struct {
	Symbols    []Symbol
	Conditions []Condition
	Complete   Completeness
	Lost       []Loss
}

// symbol returns the symbol named name, ok false when f has none.
func (f *Facts) symbol(name string) (Symbol, bool) {
	i := slices.IndexFunc(f.Symbols, func(s Symbol) bool { return s.Name == name })
	if i < 0 {
		return Symbol{}, false
	}
	return f.Symbols[i], true
}

// Axis is the range of values of one symbol over a map, Lo to Hi inclusive.
type Axis struct {
	Symbol string
	Lo, Hi int64
}

// Len returns the number of values of the axis.
func (a Axis) Len() int { return int(a.Hi - a.Lo + 1) }

// Options say what a map shows.
type Options struct {
	// X is the axis across; Y the axis down, with Y.Symbol "" for a strip of X alone.
	X, Y Axis
	// Dims binds the model's other symbols; those it leaves free take their smallest valid value
	// (Map.Binding).
	Dims map[string]int64
}

// MaxCells bounds the cells of a map: 4096x4096.
const MaxCells = 1 << 24

// smallestSearch bounds the values tried for a symbol's smallest valid value past its lower
// bound.
const smallestSearch = 1 << 16

// Map is the verdict at every cell of a grid: where the model runs, and elsewhere the first of its
// conditions that fails there.
type Map struct {
	X, Y  Axis // Y.Symbol is "" for a strip (one row)
	Facts *Facts
	// Binding holds the values of the symbols other than X and Y at every cell: given by
	// Options.Dims, or their smallest valid values (Chosen).
	Binding map[string]int64
	// Chosen lists the symbols of Binding whose values the map chose: the smallest value from
	// the symbol's lower bound (at least 1) at which every condition on it alone (and the symbols
	// bound before it) holds.
	Chosen []string
	// fails holds, row by row (Y), cell by cell (X), the index of the first condition that fails
	// at the cell, -1 where none does.
	fails []int32
}

// Compute evaluates the conditions of f at every cell of the grid opt describes. A condition on
// neither axis is evaluated once, one on one axis once per value of it, and one on both at every
// cell: no inference is run. Errors wrap errcode.ErrBinding for a binding that names no symbol of
// f (as graph.Infer's for a name the model does not have), errcode.ErrSyntax for an axis that
// names none, a binding of an axis, an axis given twice or a range whose low end exceeds its high
// end, and errcode.ErrLimit for a grid of more than MaxCells cells.
func Compute(f *Facts, opt Options) (*Map, error) {
	m := &Map{X: opt.X, Y: opt.Y, Facts: f, Binding: map[string]int64{}}
	if m.Y.Symbol == "" {
		m.Y = Axis{Lo: 0, Hi: 0}
	}
	if err := m.checkAxes(); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(opt.Dims)) {
		v := opt.Dims[name]
		if _, ok := f.symbol(name); !ok {
			return nil, errcode.Errorf(errcode.ErrBinding, "%s=%d binds no symbol of the model (its symbols: %s)", name, v, m.symbolNames())
		}
		if name == m.X.Symbol || name == m.Y.Symbol {
			return nil, errcode.Errorf(errcode.ErrSyntax, "%s=%d binds the symbol of an axis", name, v)
		}
		m.Binding[name] = v
	}
	m.chooseSmallest()
	m.evaluate()
	return m, nil
}

func (m *Map) checkAxes() error {
	axes := []Axis{m.X}
	if m.Y.Symbol != "" {
		axes = append(axes, m.Y)
		if m.Y.Symbol == m.X.Symbol {
			return errcode.Errorf(errcode.ErrSyntax, "both axes are %s: want two symbols", m.X.Symbol)
		}
	}
	for _, a := range axes {
		if _, ok := m.Facts.symbol(a.Symbol); !ok {
			return errcode.Errorf(errcode.ErrSyntax, "axis %q: not a symbol of the model (its symbols: %s)", a.Symbol, m.symbolNames())
		}
		if a.Lo > a.Hi {
			return errcode.Errorf(errcode.ErrSyntax, "axis %s: range %d..%d is empty", a.Symbol, a.Lo, a.Hi)
		}
		if a.Hi-a.Lo >= MaxCells {
			return errcode.Errorf(errcode.ErrLimit, "axis %s: range %d..%d has more than %d values", a.Symbol, a.Lo, a.Hi, MaxCells)
		}
	}
	if cells := int64(m.X.Len()) * int64(m.Y.Len()); cells > MaxCells {
		return errcode.Errorf(errcode.ErrLimit, "%d cells, more than the limit of %d", cells, MaxCells)
	}
	return nil
}

// symbolNames lists the symbols of the facts for a message: "N, H, W", or "none".
func (m *Map) symbolNames() string {
	if len(m.Facts.Symbols) == 0 {
		return "none"
	}
	s := ""
	for i, sy := range m.Facts.Symbols {
		if i > 0 {
			s += ", "
		}
		s += sy.Name
	}
	return s
}

// chooseSmallest gives each symbol left free its smallest valid value, in the order of the
// symbols: the least from its lower bound (at least 1) at which every condition whose symbols are
// it and those bound already holds; its lower bound when none within smallestSearch does.
func (m *Map) chooseSmallest() {
	for _, s := range m.Facts.Symbols {
		if _, bound := m.Binding[s.Name]; bound || s.Name == m.X.Symbol || s.Name == m.Y.Symbol {
			continue
		}
		var conds []sym.Pred
		for _, c := range m.Facts.Conditions {
			if slices.Contains(c.Holds.SymbolNames(), s.Name) && m.onlyBound(c.Holds, s.Name) {
				conds = append(conds, c.Holds)
			}
		}
		lo := max(s.Lo, 1)
		m.Binding[s.Name] = lo
		for v := lo; v <= s.Hi && v-lo < smallestSearch; v++ {
			m.Binding[s.Name] = v
			if !slices.ContainsFunc(conds, func(p sym.Pred) bool { ok, _ := p.Eval(m.Binding); return !ok }) {
				break
			}
			m.Binding[s.Name] = lo
		}
		m.Chosen = append(m.Chosen, s.Name)
	}
}

// onlyBound reports whether every symbol of p but also is bound.
func (m *Map) onlyBound(p sym.Pred, also string) bool {
	for _, n := range p.SymbolNames() {
		if _, ok := m.Binding[n]; !ok && n != also {
			return false
		}
	}
	return true
}

// evaluate fills fails. Each condition is evaluated as rarely as its symbols allow: once when it
// mentions neither axis, once per value of the one axis it mentions, at every cell otherwise; the
// rows of cells are shared among the cores.
func (m *Map) evaluate() {
	nx, ny := m.X.Len(), m.Y.Len()
	m.fails = make([]int32, nx*ny)
	b := maps.Clone(m.Binding)
	plans := make([]plan, len(m.Facts.Conditions))
	for i, c := range m.Facts.Conditions {
		names := c.Holds.SymbolNames()
		onX, onY := slices.Contains(names, m.X.Symbol), m.Y.Symbol != "" && slices.Contains(names, m.Y.Symbol)
		p := &plans[i]
		switch {
		case onX && onY:
			p.both = true
		case onX:
			p.xs = make([]bool, nx)
			for k := range nx {
				b[m.X.Symbol] = m.X.Lo + int64(k)
				p.xs[k], _ = c.Holds.Eval(b)
			}
		case onY:
			p.ys = make([]bool, ny)
			for k := range ny {
				b[m.Y.Symbol] = m.Y.Lo + int64(k)
				p.ys[k], _ = c.Holds.Eval(b)
			}
		default:
			p.once, _ = c.Holds.Eval(b)
		}
	}
	// The cells, row by row on every core, each worker with its own binding.
	var wg sync.WaitGroup
	var next atomic.Int64
	for range min(runtime.GOMAXPROCS(0), ny) {
		b := maps.Clone(b)
		wg.Go(func() {
			for j := int(next.Add(1) - 1); j < ny; j = int(next.Add(1) - 1) {
				if m.Y.Symbol != "" {
					b[m.Y.Symbol] = m.Y.Lo + int64(j)
				}
				for k := range nx {
					b[m.X.Symbol] = m.X.Lo + int64(k)
					m.fails[j*nx+k] = m.firstFailing(plans, b, j, k)
				}
			}
		})
	}
	wg.Wait()
}

// plan says how a condition is evaluated over a map: at every cell (both), or read from its value
// once (on neither axis), per value of X (xs) or per value of Y (ys).
type plan struct {
	both bool
	once bool
	xs   []bool
	ys   []bool
}

// firstFailing returns the index of the first condition that fails at cell (k, j), at binding b,
// -1 where none does.
func (m *Map) firstFailing(plans []plan, b map[string]int64, j, k int) int32 {
	for i := range plans {
		p := &plans[i]
		var ok bool
		switch {
		case p.both:
			ok, _ = m.Facts.Conditions[i].Holds.Eval(b)
		case p.xs != nil:
			ok = p.xs[k]
		case p.ys != nil:
			ok = p.ys[j]
		default:
			ok = p.once
		}
		if !ok {
			return int32(i)
		}
	}
	return -1
}

// At returns the verdict at the cell of values x and y (y ignored for a strip): the index of the
// first condition of Facts.Conditions that fails there, -1 where every condition holds; ok is false
// for a cell outside the map.
func (m *Map) At(x, y int64) (fail int, ok bool) {
	if m.Y.Symbol == "" {
		y = 0
	}
	if x < m.X.Lo || x > m.X.Hi || y < m.Y.Lo || y > m.Y.Hi {
		return 0, false
	}
	return int(m.fails[int(y-m.Y.Lo)*m.X.Len()+int(x-m.X.Lo)]), true
}

// Runs counts the cells where every condition holds.
func (m *Map) Runs() int {
	n := 0
	for _, f := range m.fails {
		if f < 0 {
			n++
		}
	}
	return n
}

// Counts returns, per condition, the number of cells where it is the first that fails.
func (m *Map) Counts() []int {
	c := make([]int, len(m.Facts.Conditions))
	for _, f := range m.fails {
		if f >= 0 {
			c[f]++
		}
	}
	return c
}

// String describes the map in a line: "H × W over 1..256 × 1..256 at N=1: runs at 4096 of 65536 cells".
func (m *Map) String() string {
	s := fmt.Sprintf("%s %d..%d", m.X.Symbol, m.X.Lo, m.X.Hi)
	if m.Y.Symbol != "" {
		s = fmt.Sprintf("%s × %s over %d..%d × %d..%d", m.X.Symbol, m.Y.Symbol, m.X.Lo, m.X.Hi, m.Y.Lo, m.Y.Hi)
	}
	if b := m.bindingText(); b != "" {
		s += " at " + b
	}
	return fmt.Sprintf("%s: runs at %d of %d cells", s, m.Runs(), len(m.fails))
}

// bindingText returns the other symbols' values in the order of the symbols: "N=1, C=3".
func (m *Map) bindingText() string {
	s := ""
	for _, sy := range m.Facts.Symbols {
		if v, ok := m.Binding[sy.Name]; ok {
			if s != "" {
				s += ", "
			}
			s += fmt.Sprintf("%s=%d", sy.Name, v)
		}
	}
	return s
}
