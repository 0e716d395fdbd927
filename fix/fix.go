package fix

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/sym"
)

// Options configure Find.
type Options struct {
	// Export binds symbols to the values they had when the model was exported
	// (map[string]int64{"N": 1, "H": 16, "W": 16}), for a pattern whose values could stand for
	// its input dims in several ways ([N,3] reshaped to [1,1,3]: either 1 may be the batch): the
	// ways whose equations do not hold there are set aside. Nil when not known.
	Export map[string]int64
	// MaxRank bounds the rank of every tensor, as graph.Options.MaxRank.
	MaxRank int
}

// A Fix is what Find found in a model: the Reshape patterns it rewrites and how, the Reshapes whose
// conditions it leaves, the export binding, and what the model needs of its symbols before and
// after. WriteTo writes the fixed model.
type Fix struct {
	// Rewrites are the Reshapes whose patterns are rewritten, in the order of the graph.
	Rewrites []Rewrite
	// Left are the Reshapes left as they are although a condition of the model comes from them, or
	// although their patterns hold values that may be baked, each with the reason.
	Left []Left
	// Export holds the equations of the export binding, each with the Reshape that bakes it
	// (Origin.Node): every baked value equals the product of the dims it stands for ("N == 1",
	// "(H+1)//2 == 8").
	Export []sym.Constraint
	// Binding is a binding of the model's symbols at which the export equations and the model's
	// constraints hold: there the fixed model computes what the model computes, element for
	// element. Symbols that no condition names are left out. Nil when nothing is rewritten.
	Binding map[string]int64
	// Before holds the constraints of the model, then its limits (graph.Result.Constraints,
	// Limits), After those of the fixed model: what it still needs of its symbols to run.
	Before, After []sym.Constraint

	src      source
	opt      graph.Options
	outputs  []sym.Shape // at Binding, the shapes of the graph outputs, then of the rewritten Reshapes' outputs
	rewrites []planned
}

// Rewrite is a Reshape whose pattern Find rewrites.
type Rewrite struct {
	// Node is the Reshape's path, as graph.NodeResult.Path writes it.
	Node string `json:"node"`
	// Input is the shape of its data input where no condition of it or downstream of it applies.
	Input sym.Shape `json:"input"`
	// Before and After are the values of its pattern, before and after (a -1 is -1, a copying 0
	// is 0, a value read from the input's shape its expression).
	Before []sym.Dim `json:"before"`
	After  []sym.Dim `json:"after"`
	// Changes are the baked values and what stands in their place, by index.
	Changes []Change `json:"changes"`
	// Removes holds the constraints of the model that the Reshape imposes (its volume), which the
	// fixed model does not have; none for one that Follows others.
	Removes []sym.Constraint `json:"-"`
	// Follows, for a Reshape that imposes no condition of its own, names the rewritten Reshapes
	// whose export equations fix the dims its pattern bakes: channel_shuffle's second Reshape,
	// [1,-1,H,W], which copied the batch that the first one fixed at 1 (without it, the fixed
	// model would give [1,8*N,H,W]).
	Follows []string `json:"follows,omitempty"`
}

// Left is a Reshape that Find leaves as it is, and why.
type Left struct {
	Node string `json:"node"`
	// Input and Pattern are its data input's shape and its pattern's values, where known.
	Input   sym.Shape `json:"input"`
	Pattern []sym.Dim `json:"pattern"`
	// Constraints are the model's constraints that it imposes, which remain.
	Constraints []sym.Constraint `json:"-"`
	Why         string           `json:"why"`
	// Ways counts the ways its pattern's values could stand for its input dims when there are
	// several, which the sizes of the export (Options.Export) tell apart; 0 otherwise.
	Ways int `json:"-"`
}

// planned is a rewrite and the nodes that make it.
type planned struct {
	index   int         // of the Reshape in the model's nodes
	node    *graph.Node // the Reshape
	rw      Rewrite
	nodes   []onnx.Node        // the pattern's nodes, inserted before the Reshape
	values  map[string][]int64 // of the Constant nodes among them, by output
	pattern string             // the new pattern tensor
	// zero says that the Reshape's zero attribute becomes the one that copies zeros (a pattern
	// without a 0 means the same under either): OpenVINO's special_zero="true".
	zero   bool
	baked  bool     // a rewrite for the Reshape's own condition, not one that follows others
	volume sym.Pred // the condition of the old pattern's volume, for a baked one
}

// Find finds the values of m's Reshape patterns that are baked example sizes, and plans their
// rewrites (see the package documentation): it infers m (graph.FromONNX with dir, graph.Infer),
// then each Reshape of its main graph in the order of inference, from the part of the graph
// upstream of it with the rewrites before it applied, and finally the fixed model, to prove that
// the rewrites remove the conditions they are for and that the fixed model computes what m
// computes at the export binding.
//
// It returns an error for a model graph.FromONNX or graph.Infer refuses, a model with a node whose
// element types a runtime refuses at load (graph.NodeResult.TypeErr, errcode.ErrDataType or
// errcode.ErrNoKernel: no rewrite of a pattern makes it load), a model with a node that fails at
// the export binding (the node's error, errcode.ErrInvalidShape for a shape it breaks), or
// an Options.Export name that no dim of the model has (errcode.ErrSyntax), and one wrapping
// errcode.ErrNoEquivalent should the fixed model not prove equivalent (a defect of this package:
// nothing is written). A model with nothing to rewrite is no error: Rewrites is empty, and WriteTo
// writes m as it is.
func Find(m *onnx.Model, dir string, opt Options) (*Fix, error) {
	g0, err := graph.FromONNX(m, dir)
	if err != nil {
		return nil, err
	}
	return find(&onnxSource{m: m, dir: dir}, g0, graph.Options{MaxRank: opt.MaxRank}, opt)
}

// find is Find of a model in its format, whose graph is g0 (src.graph(nil, false)), inferred with
// the options gopt.
func find(src source, g0 *graph.Graph, gopt graph.Options, opt Options) (*Fix, error) {
	f := &Fix{src: src, opt: gopt}
	r0, err := graph.Infer(g0, f.opt)
	if err != nil {
		return nil, err
	}
	for i := range r0.Nodes {
		if err := r0.Nodes[i].TypeErr; err != nil {
			return nil, fmt.Errorf("the model does not load: %w", err)
		}
	}
	if len(opt.Export) > 0 {
		o := f.opt
		o.Dims = opt.Export
		if _, err := graph.Infer(g0, o); err != nil {
			return nil, err // a name the model's dims do not have
		}
	}
	f.Before = r0.Conditions()
	fx := &finder{f: f, src: src, opt: opt, g0: g0, r0: r0, before: r0.NodeConstraints(), taken: src.names(), refused: map[int]string{}}
	for {
		if err := fx.pass(); err != nil {
			return nil, err
		}
		fixed, err := fx.prove()
		if err != nil {
			return nil, err
		}
		if fixed != nil {
			return f, f.equivalent(g0, fixed)
		}
	}
}

// finder is the state of Find.
type finder struct {
	f   *Fix
	src source
	opt Options
	g0  *graph.Graph
	r0  *graph.Result
	// before holds the model's constraints as its nodes impose them (graph.Result.NodeConstraints),
	// for the conditions of one node.
	before []sym.Constraint
	taken  map[string]bool
	// refused holds the Reshapes (by node index) that a rewrite would not help, and why: a pass
	// leaves them as they are.
	refused map[int]string
	// The state of a pass: the rewrites planned, the export equations, the Reshapes left.
	plans  []planned
	export *conds
	left   []Left
	// cur is the inference of the working model (the rewrites planned applied), made when
	// curPlans rewrites were planned: where it has no constraint that fixes a symbol, its shapes
	// are those a probe would find, and no probe is needed.
	cur      *graph.Result
	curPlans int
	fixing   bool // cur has a constraint that fixes a symbol
	curNodes map[string]*graph.NodeResult
}

// pass plans the rewrites, each Reshape of the main graph in the order of inference.
func (fx *finder) pass() error {
	fx.plans, fx.left, fx.f.Export, fx.f.Binding = nil, nil, nil, nil
	fx.cur = nil
	fx.export = newConds()
	for _, c := range fx.f.Before {
		if err := fx.export.add(c.Pred); err != nil {
			return err
		}
	}
	b := &builder{taken: maps.Clone(fx.taken)}
	for i := range fx.r0.Nodes {
		nr := &fx.r0.Nodes[i]
		f, ok := fx.r0.Reshape(nr)
		if !ok || f.Options.Dialect != fx.src.dialect() {
			continue
		}
		own := fx.constraintsOf(nr.Path)
		why := fx.src.refuses(nr, f.Version)
		if nr.Scope != "" {
			why = "it is in a subgraph: fix rewrites the main graph's Reshapes"
		}
		if why != "" {
			if len(own) > 0 {
				fx.leave(nr, own, why)
			}
			continue
		}
		if err := fx.reshape(nr, &f, own, b); err != nil {
			return err
		}
	}
	return nil
}

// constraintsOf returns the model's constraints that the node at path imposes.
func (fx *finder) constraintsOf(path string) []sym.Constraint {
	var out []sym.Constraint
	for _, c := range fx.before {
		if c.Origin.Node == path {
			out = append(out, c)
		}
	}
	return out
}

// leave records the Reshape nr as left as it is, and why, with its input and pattern as the model
// infers them; leaveAt with those of a probe.
func (fx *finder) leave(nr *graph.NodeResult, own []sym.Constraint, why string) {
	l := Left{Node: nr.Path, Constraints: own, Why: why}
	if len(nr.Inputs) > 0 && nr.Inputs[0] != nil {
		l.Input = nr.Inputs[0].Shape
	}
	if len(nr.Inputs) > 1 && nr.Inputs[1] != nil {
		l.Pattern = nr.Inputs[1].Value
	}
	fx.left = append(fx.left, l)
}

// reshape plans the rewrite of one Reshape of the main graph, or leaves it.
func (fx *finder) reshape(nr *graph.NodeResult, f *graph.Reshape, own []sym.Constraint, b *builder) error {
	if f.Pattern == nil {
		if len(own) > 0 {
			fx.leave(nr, own, "its pattern's values are not known")
		}
		return nil
	}
	literal, minus := false, false
	for _, v := range f.Pattern {
		if n, ok := v.Static(); ok {
			literal = literal || n > 0
			minus = minus || n == -1
		}
	}
	baked := !minus // a rewrite for the Reshape's own condition, a volume
	if why, ok := fx.refused[nr.Index]; ok {
		fx.leave(nr, own, why)
		return nil
	}
	if !literal || !baked && len(fx.plans) == 0 {
		if len(own) > 0 && minus {
			fx.leave(nr, own, "its pattern has a -1, which adapts to the volume: what it needs, that the other values divide the volume, is the model's own (a window, a group of channels), not a size of the export")
		} else if len(own) > 0 && !literal {
			fx.leave(nr, own, "no value of its pattern is a literal size")
		}
		return nil
	}
	in, pat, res, err := fx.shapes(nr)
	if err != nil {
		return err
	}
	allowzero, zero := !f.Options.CopiesZeros(), false
	if allowzero && fx.src.setsZero() && !slices.ContainsFunc(pat, func(v sym.Dim) bool { n, ok := v.Static(); return ok && n == 0 }) {
		// No 0 to keep: the attribute that copies zeros means the same, and lets a 0 copy a dim.
		allowzero, zero = false, true
	}
	alns, why := align(in.Dims, pat, allowzero, false)
	alns = slices.DeleteFunc(alns, func(a alignment) bool { return len(a) == 0 })
	if why == "" && len(alns) == 0 {
		why = "no value of its pattern stands for a symbolic dim of its input: each is static where the input is, or computed"
	}
	var keep []reading
	if why == "" {
		for _, a := range alns {
			eqs := a.equations(in.Dims)
			if baked {
				if w, ok := fx.possible(eqs); ok {
					keep = append(keep, reading{a: a, eqs: eqs, witness: w, stands: a.stands(in.Dims)})
				}
				continue
			}
			if fx.implied(eqs) {
				keep = append(keep, reading{a: a, eqs: eqs, stands: a.stands(in.Dims)})
			}
		}
		keep = mostPairs(keep)
	}
	if baked && len(keep) == 0 {
		// Values that split and merge symbolic dims: read at the export binding.
		mixed, mwhy := fx.mixed(in.Dims, pat, allowzero)
		keep, why = mixed, cmp.Or(mwhy, why)
		if len(keep) > 0 {
			why = ""
		}
	}
	if why != "" {
		if len(own) > 0 {
			fx.leaveAt(nr, own, in, pat, why)
		}
		return nil
	}
	switch {
	case baked && len(keep) == 0:
		why := "its pattern's values are sizes of no binding at which the model runs: " + join(alns[0].equations(in.Dims), " && ") +
			" cannot hold with the model's other conditions"
		if len(fx.opt.Export) > 0 {
			why += " and the export's values"
		}
		fx.leaveAt(nr, own, in, pat, why)
		return nil
	case len(keep) > 1:
		if baked {
			var ways []string
			for _, r := range keep {
				ways = append(ways, r.a.describe(in.Dims))
			}
			fx.leaveAt(nr, own, in, pat, "its values could stand for its input dims in "+fmt.Sprint(len(keep))+" ways ("+
				strings.Join(ways, "; or ")+"): the sizes of the export tell which")
			fx.left[len(fx.left)-1].Ways = len(keep)
		}
		return nil
	case len(keep) == 0:
		return nil
	}
	r := keep[0]
	find := func(f sym.Expr) (dimRef, bool) {
		for k, d := range in.Dims {
			if is(d, f) {
				return dimRef{index: k}, true
			}
		}
		for _, gi := range fx.g0.Inputs {
			if info := res.Tensor(gi.Name); info != nil {
				for k, d := range info.Shape.Dims {
					if is(d, f) {
						return dimRef{tensor: gi.Name, index: k}, true
					}
				}
			}
		}
		return dimRef{}, false
	}
	slots, changes, why := newPattern(in.Dims, pat, r.stands, allowzero, find)
	if why != "" {
		if len(own) > 0 {
			fx.leaveAt(nr, own, in, pat, why)
		}
		return nil
	}
	base := nr.Node.Name
	if base == "" {
		base = nr.Path
	}
	b.nodes, b.values = nil, map[string][]int64{}
	pattern, err := b.build(base, nr.Node.Inputs[0], nr.Node.Inputs[1], slots)
	if err != nil {
		return err
	}
	p := planned{index: nr.Index, node: nr.Node, nodes: b.nodes, values: b.values, pattern: pattern, baked: baked, zero: zero && slices.ContainsFunc(changes, func(c Change) bool { return c.How == HowCopy }),
		rw: Rewrite{Node: nr.Path, Input: in, Before: pat, After: patternDims(slots, in.Dims, pat), Changes: changes}}
	if baked {
		for _, e := range r.eqs {
			if err := fx.export.add(e); err != nil {
				return err
			}
			fx.f.Export = append(fx.f.Export, sym.Constraint{Pred: e, Origin: sym.Origin{Node: nr.Path, Op: "Reshape", Why: "the export binding"}})
		}
		p.volume = sym.Eq(product(in.Dims), product(outDims(in.Dims, pat, allowzero)))
		p.rw.Removes = own
		fx.f.Binding = r.witness
	} else {
		p.rw.Follows = fx.follows(r.eqs)
	}
	fx.plans = append(fx.plans, p)
	return nil
}

// reading is one way a Reshape's baked values stand for its input dims: the alignment, the
// equations of the export binding it states, a binding where they and the model's conditions hold
// (for a pattern without a -1), and the values with what each stands for.
type reading struct {
	a       alignment
	eqs     []sym.Pred
	witness map[string]int64
	stands  []stand
}

// mixed returns the readings of a pattern without a -1 whose values split and merge its input's
// symbolic dims (alignments with mixed groups, align's second search): those whose equations can
// hold with the model's conditions and the export equations so far, and fix the symbols of the
// groups' dims to one value each (the export binding, at which pair.read reads each value), distinct
// by what the values stand for. why says why there is none, when an alignment can hold but its
// values cannot be read.
func (fx *finder) mixed(in, pat []sym.Dim, allowzero bool) (keep []reading, why string) {
	alns, _ := align(in, pat, allowzero, true)
	seen := map[string]bool{}
	for _, a := range alns {
		if !a.mixed() {
			continue
		}
		eqs := a.equations(in)
		w, ok := fx.possible(eqs)
		if !ok {
			continue
		}
		var names []string
		for _, p := range a {
			if p.mixed {
				names = append(names, product(in[p.lo:p.hi]).SymbolNames()...)
			}
		}
		at, ok := fx.exportAt(eqs, names)
		if !ok {
			why = cmp.Or(why, "its values split and merge its input's symbolic dims ("+a.describe(in)+"), and the export binding of "+strings.Join(names, ", ")+" is not known")
			continue
		}
		var stands []stand
		for _, p := range a {
			if !p.mixed {
				stands = append(stands, alignment{p}.stands(in)...)
				continue
			}
			values := make([]int64, p.outHi-p.out)
			for k := range values {
				values[k], _ = outDims(in, pat, allowzero)[p.out+k].Static()
			}
			exprs, rwhy := p.read(in, values, at)
			if rwhy != "" {
				why, stands = cmp.Or(why, "its values split and merge its input's symbolic dims: "+rwhy), nil
				break
			}
			for k, e := range exprs {
				if _, static := e.Const(); !static {
					stands = append(stands, stand{out: p.out + k, value: values[k], e: e, lo: p.lo, hi: p.hi})
				}
			}
		}
		if stands == nil {
			continue
		}
		key := ""
		for _, s := range stands {
			key += fmt.Sprintf("%d=%s,", s.out, s.e)
		}
		if !seen[key] {
			seen[key] = true
			keep = append(keep, reading{a: a, eqs: eqs, witness: w, stands: stands})
		}
	}
	return keep, why
}

// mostPairs returns the readings of rs with the most pairs: a literal value that can stand for
// input dims is read as standing for them rather than as a unit axis ([N,H] reshaped to [1,64]:
// N == 1 and H == 64, rather than a new axis of 1 and N*H == 64).
func mostPairs(rs []reading) []reading {
	most := 0
	for _, r := range rs {
		most = max(most, len(r.a))
	}
	return slices.DeleteFunc(rs, func(r reading) bool { return len(r.a) < most })
}

func (fx *finder) leaveAt(nr *graph.NodeResult, own []sym.Constraint, in sym.Shape, pat []sym.Dim, why string) {
	fx.left = append(fx.left, Left{Node: nr.Path, Input: in, Pattern: pat, Constraints: own, Why: why})
}

// possible returns a binding at which the equations eqs, those of the export so far, the model's
// constraints and the values of Options.Export hold; ok is false when there is none.
func (fx *finder) possible(eqs []sym.Pred) (map[string]int64, bool) {
	c, ok := fx.with(eqs)
	if !ok {
		return nil, false
	}
	return c.witness()
}

// with returns the conditions eqs with those of the export so far, the model's constraints and
// the values of Options.Export; ok is false when one cannot be read. Those of fewer symbols come
// first: the solver substitutes a symbol's value into the conditions that come after it (T == 10
// then B*T == 20 fixes B), not always into those before.
func (fx *finder) with(eqs []sym.Pred) (*conds, bool) {
	c := newConds()
	preds := append(slices.Clone(eqs), fx.export.preds...)
	slices.SortStableFunc(preds, func(p, q sym.Pred) int { return len(p.SymbolNames()) - len(q.SymbolNames()) })
	for _, p := range preds {
		if c.add(p) != nil {
			return nil, false
		}
	}
	for _, name := range slices.Sorted(maps.Keys(fx.opt.Export)) {
		if x, ok := c.t.Lookup(name); ok {
			c.require(sym.Eq(x, sym.Int(fx.opt.Export[name])))
		}
	}
	return c, true
}

// exportAt returns the values of the symbols names at the export binding, when the equations
// eqs, those of the export so far, the model's constraints and the values of Options.Export fix
// each to one value; ok is false otherwise.
func (fx *finder) exportAt(eqs []sym.Pred, names []string) (map[string]int64, bool) {
	c, ok := fx.with(eqs)
	if !ok || c.never {
		return nil, false
	}
	out := map[string]int64{}
	for _, name := range names {
		v, ok := c.value(name)
		if !ok {
			return nil, false
		}
		out[name] = v
	}
	return out, true
}

// implied reports whether the export equations so far imply eqs.
func (fx *finder) implied(eqs []sym.Pred) bool {
	c := newConds()
	for _, e := range fx.f.Export {
		if c.add(e.Pred) != nil {
			return false
		}
	}
	for _, e := range eqs {
		if !c.implies(e) {
			return false
		}
	}
	return true
}

// follows returns the rewritten Reshapes whose export equations name the symbols of eqs.
func (fx *finder) follows(eqs []sym.Pred) []string {
	var out []string
	for _, e := range eqs {
		for _, name := range e.SymbolNames() {
			for _, x := range fx.f.Export {
				if slices.Contains(x.Pred.SymbolNames(), name) && !slices.Contains(out, x.Origin.Node) {
					out = append(out, x.Origin.Node)
				}
			}
		}
	}
	return out
}

// outDims returns the output dims a pattern without a -1 gives: its values, a 0 copying the input
// dim at its index unless allowzero.
func outDims(in, pat []sym.Dim, allowzero bool) []sym.Dim {
	out := slices.Clone(pat)
	for o, v := range pat {
		if n, ok := v.Static(); ok && n == 0 && !allowzero && o < len(in) {
			out[o] = in[o]
		}
	}
	return out
}

// shapes returns the shape of the Reshape nr's data input and the values of its pattern where
// neither its own condition nor one downstream of it applies: from the inference of the working
// model when no constraint of it fixes a symbol (a substitution, which would show as a constant in
// every tensor), else from a probe.
func (fx *finder) shapes(nr *graph.NodeResult) (sym.Shape, []sym.Dim, *graph.Result, error) {
	if fx.cur == nil || fx.curPlans != len(fx.plans) {
		fx.cur = fx.r0
		if len(fx.plans) > 0 {
			g, err := fx.src.graph(fx.plans, false)
			if err != nil {
				return sym.Shape{}, nil, nil, err
			}
			if fx.cur, err = graph.Infer(g, fx.f.opt); err != nil {
				return sym.Shape{}, nil, nil, err
			}
		}
		fx.curPlans, fx.fixing = len(fx.plans), false
		for _, c := range fx.cur.NodeConstraints() {
			fx.fixing = fx.fixing || fixesSymbol(c.Pred)
		}
		fx.curNodes = map[string]*graph.NodeResult{}
		for i := range fx.cur.Nodes {
			if n := &fx.cur.Nodes[i]; n.Scope == "" && len(n.Node.Outputs) > 0 {
				fx.curNodes[n.Node.Outputs[0]] = n
			}
		}
	}
	if c := fx.curNodes[nr.Node.Outputs[0]]; !fx.fixing && c != nil && len(c.Inputs) > 1 && c.Inputs[0] != nil && c.Inputs[1] != nil {
		return c.Inputs[0].Shape, c.Inputs[1].Value, fx.cur, nil
	}
	return fx.probe(nr)
}

// probe infers the part of the working model upstream of the Reshape nr (the rewrites planned so
// far applied), and returns its data input's shape and its pattern's values there, where neither
// its own condition nor one downstream of it applies, and the inference they are of.
func (fx *finder) probe(nr *graph.NodeResult) (sym.Shape, []sym.Dim, *graph.Result, error) {
	g, err := fx.src.graph(fx.plans, false)
	if err != nil {
		return sym.Shape{}, nil, nil, err
	}
	at := slices.IndexFunc(g.Nodes, func(n graph.Node) bool { return len(n.Outputs) > 0 && n.Outputs[0] == nr.Node.Outputs[0] })
	data, pattern := g.Nodes[at].Inputs[0], g.Nodes[at].Inputs[1]
	pg := upstream(g, at)
	pg.Outputs = []string{data, pattern}
	r, err := graph.Infer(pg, fx.f.opt)
	if err != nil {
		return sym.Shape{}, nil, nil, err
	}
	in, pat := r.Tensor(data), r.Tensor(pattern)
	if in == nil || pat == nil || pat.Value == nil {
		return sym.DynamicRank(), nil, r, nil
	}
	return in.Shape, pat.Value, r, nil
}

// upstream returns g with only the nodes whose outputs the node at index at reads, directly, through
// other nodes, or through its subgraphs.
func upstream(g *graph.Graph, at int) *graph.Graph {
	producer := map[string]int{}
	for i := range g.Nodes {
		for _, o := range g.Nodes[i].Outputs {
			producer[o] = i
		}
	}
	keep := make([]bool, len(g.Nodes))
	queue := reads(&g.Nodes[at], nil)
	for len(queue) > 0 {
		name := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if i, ok := producer[name]; ok && !keep[i] && i != at {
			keep[i] = true
			queue = reads(&g.Nodes[i], queue)
		}
	}
	pg := *g
	pg.Nodes = nil
	for i := range g.Nodes {
		if keep[i] {
			pg.Nodes = append(pg.Nodes, g.Nodes[i])
		}
	}
	return &pg
}

// reads appends to names the tensors node n reads: its inputs, and every input of the nodes of its
// subgraphs (some of which the subgraphs define themselves, and no node of g outputs).
func reads(n *graph.Node, names []string) []string {
	names = append(names, n.Inputs...)
	for _, a := range n.Attrs {
		gs := a.Graphs
		if a.Graph != nil {
			gs = append(slices.Clip(gs), a.Graph)
		}
		for _, sg := range gs {
			for i := range sg.Nodes {
				names = reads(&sg.Nodes[i], names)
			}
		}
	}
	return names
}

// prove infers the fixed model and checks each rewrite that is not one that follows: its Reshape
// imposes no condition any more, and its old condition does not come back from another node
// (swin_window: the copy of (H//4)*(W//4) in place of 16 would move its condition to the window
// partition downstream). A rewrite that fails is refused, and done is false: the caller plans
// again without it, and fixed is nil. Otherwise f holds the result, and fixed is the fixed model's
// graph.
func (fx *finder) prove() (fixed *graph.Graph, err error) {
	g, r := fx.g0, fx.r0
	if len(fx.plans) > 0 {
		if g, err = fx.src.graph(fx.plans, true); err != nil {
			return nil, err
		}
		if r, err = graph.Infer(g, fx.f.opt); err != nil {
			return nil, err
		}
	}
	imposed := r.NodeConstraints()
	c := newConds()
	for _, x := range imposed {
		if err := c.add(x.Pred); err != nil {
			return nil, err
		}
	}
	if len(fx.plans) > 0 {
		for _, a := range check.FindAbsorbed(g, r) {
			if i := slices.IndexFunc(fx.plans, func(p planned) bool { return p.rw.Node == a.Reshape }); i >= 0 {
				fx.refused[fx.plans[i].index] = fmt.Sprintf("rewritten, it would absorb the batch %s into axis %d (%s), and %s (%s) %s: the samples would mix",
					a.Batch, a.Axis, a.Dim, a.Mixer, a.MixerOp, a.Why)
				return nil, nil
			}
		}
	}
	for _, p := range fx.plans {
		if !p.baked {
			continue
		}
		for _, x := range imposed {
			if x.Origin.Node == p.rw.Node {
				fx.refused[p.index] = "rewritten, it would still impose " + x.Pred.String() + ": left as it is"
				return nil, nil
			}
		}
		if c.implies(p.volume) {
			by := ""
			for _, x := range imposed {
				if by == "" && slices.ContainsFunc(p.volume.SymbolNames(), func(s string) bool { return slices.Contains(x.Pred.SymbolNames(), s) }) {
					by = " (" + x.Origin.String() + ")"
				}
			}
			fx.refused[p.index] = "its condition " + p.volume.String() + " would come back from the fixed model" + by + ": a rewrite does not help, left as it is"
			return nil, nil
		}
	}
	redeclared, err := fx.src.final(fx.plans, fx.r0, r)
	if err != nil {
		return nil, err
	}
	if redeclared != nil {
		// The declarations written are the shapes of the nodes without a shape rule: infer what
		// is written.
		if r, err = graph.Infer(redeclared, fx.f.opt); err != nil {
			return nil, err
		}
		g = redeclared
	}
	f := fx.f
	f.After, f.Left, f.rewrites = r.Conditions(), fx.left, fx.plans
	f.Rewrites = make([]Rewrite, len(fx.plans))
	for i, p := range fx.plans {
		f.Rewrites[i] = p.rw
	}
	return g, nil
}

// sameRank reports whether the shapes are of rank n.
func sameRank(n int, shapes ...sym.Shape) bool {
	for _, s := range shapes {
		if r, ok := s.Rank(); !ok || r != n {
			return false
		}
	}
	return true
}

// equivalent infers the model and the fixed model at the binding f.Binding, and checks that each
// rewritten Reshape gives the same shape there, every dim known (so the same data, in the same
// order), and that the graph outputs have the same shapes, with no node error. It records the
// shapes for Verify.
func (f *Fix) equivalent(g0, fixed *graph.Graph) error {
	if len(f.rewrites) == 0 {
		return nil
	}
	names := f.provenNames(g0)
	want, err := shapesAt(g0, names, f.Binding, f.opt)
	if err != nil {
		// The model itself fails at the binding its patterns bake (a node whose error no binding
		// avoids): the model's error, with its code, not a defect of the rewrites.
		return fmt.Errorf("the model at the export binding %s: %w", bindingText(f.Binding), err)
	}
	got, err := shapesAt(fixed, names, f.Binding, f.opt)
	if err != nil {
		return errcode.Errorf(errcode.ErrNoEquivalent, "the fixed model at the export binding %s: %v", bindingText(f.Binding), err)
	}
	if err := f.sameShapes(names, got, want); err != nil {
		return errcode.Errorf(errcode.ErrNoEquivalent, "the fixed model at the export binding %s: %v", bindingText(f.Binding), err)
	}
	f.outputs = want
	return nil
}

// provenNames returns the tensors whose shapes at Binding prove a fixed model: g's outputs, then
// the output of each rewritten Reshape.
func (f *Fix) provenNames(g *graph.Graph) []string {
	names := slices.Clone(g.Outputs)
	for _, p := range f.rewrites {
		names = append(names, p.node.Outputs[0])
	}
	return names
}

// shapesAt returns the shapes of g's tensors names inferred at the binding b; an error when a node
// fails there.
func shapesAt(g *graph.Graph, names []string, b map[string]int64, opt graph.Options) ([]sym.Shape, error) {
	opt.Dims = b
	r, err := graph.Infer(g, opt)
	if err != nil {
		return nil, err
	}
	for _, n := range r.Nodes {
		if n.Err != nil {
			return nil, fmt.Errorf("%s: %w", n.Path, n.Err)
		}
	}
	out := make([]sym.Shape, len(names))
	for i, name := range names {
		if info := r.Tensor(name); info != nil {
			out[i] = info.Shape
		} else {
			out[i] = sym.DynamicRank()
		}
	}
	return out, nil
}

// sameShapes compares the shapes of the tensors names (provenNames) in a fixed model, got, with
// the model's, want. A rewritten Reshape's output must be equal, every dim known: the rewrite
// moves no element. A graph output must be equal, or, where the model's has a dim that inference
// does not know (an operator without a shape rule downstream), identical: the same nodes, fed the
// same shapes, give the same shapes.
func (f *Fix) sameShapes(names []string, got, want []sym.Shape) error {
	outputs := len(names) - len(f.rewrites)
	for i := range want {
		if got[i].Equal(want[i]) {
			continue
		}
		if i < outputs && got[i].Identical(want[i]) {
			continue
		}
		what := "output"
		if i >= outputs {
			what = "the output of " + f.rewrites[i-outputs].rw.Node
		}
		return fmt.Errorf("%s %s is %s, the model's %s", what, names[i], got[i], want[i])
	}
	return nil
}

// join returns the texts of xs joined by sep.
func join[T fmt.Stringer](xs []T, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = x.String()
	}
	return strings.Join(parts, sep)
}

// bindingText returns "N=1, H=15" for a binding, in the order of its names.
func bindingText(b map[string]int64) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(b)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, b[k]))
	}
	return strings.Join(parts, ", ")
}

// Writable returns an error wrapping errcode.ErrSyntax when the fixed model cannot be written into
// the directory dir: an ONNX model keeps tensor values in external data files, named relative to
// its own directory, that are not the same files from dir (onnx.CheckExternalDir), so that the
// model written there would name files that are not beside it. An IR model's .bin is written
// beside its .xml (WriteWeights): nil.
func (f *Fix) Writable(dir string) error { return f.src.writable(dir) }

// WriteTo writes the fixed model to w, every byte of the model as it is but for the rewrites: of an
// ONNX model, its bytes with the rewrites' nodes inserted, the Reshapes reading their new patterns,
// the old patterns' constants that nothing reads any more left out, and the declarations the
// rewrites make wrong written again (onnx.WriteEdited), the weights streamed from m without being
// decoded; of an IR model, its .xml with the rewrites' layers and edges (ir.WriteEdit). With no
// rewrite, it writes the model as it is. It implements io.WriterTo; the errors are those of
// onnx.WriteEdited or ir.WriteEdit, and w's.
func (f *Fix) WriteTo(w io.Writer) (int64, error) { return f.src.write(w) }

// WriteWeights writes the .bin of the fixed IR model to w: the model's .bin streamed as it is, then
// the values of the rewrites' Const layers (little-endian, each at an offset a multiple of 8). It
// writes nothing for an ONNX model. The error wraps errcode.ErrIO for an IR model read without its
// .bin (FindIR with nil weights), which has no bytes to copy; others are w's and the .bin's.
func (f *Fix) WriteWeights(w io.Writer) (int64, error) { return f.src.writeWeights(w) }

// Verify proves the ONNX model that WriteTo wrote, decoded as fixed, against f: inferred with the
// graph.Options of Find, it has the constraints After, and at Binding the shapes of its outputs
// are those of the model. The error wraps errcode.ErrNoEquivalent when it differs, and is that of
// graph.FromONNX or graph.Infer when the model is refused.
func (f *Fix) Verify(fixed *onnx.Model) error {
	s, ok := f.src.(*onnxSource)
	if !ok {
		return errcode.Errorf(errcode.ErrNoEquivalent, "the fixed model is an OpenVINO IR network: VerifyIR proves it")
	}
	g, err := graph.FromONNX(fixed, s.dir)
	if err != nil {
		return err
	}
	return f.verify(g)
}

// verify proves the graph g of the model written against f (Verify).
func (f *Fix) verify(g *graph.Graph) error {
	r, err := graph.Infer(g, f.opt)
	if err != nil {
		return err
	}
	got, want := join(r.Conditions(), "; "), join(f.After, "; ")
	if got != want {
		return errcode.Errorf(errcode.ErrNoEquivalent, "the written model's constraints are %q, not %q", got, want)
	}
	if len(f.rewrites) == 0 {
		return nil
	}
	names := f.provenNames(g)
	shapes, err := shapesAt(g, names, f.Binding, f.opt)
	if err != nil {
		return errcode.Errorf(errcode.ErrNoEquivalent, "the written model at the export binding %s: %v", bindingText(f.Binding), err)
	}
	if err := f.sameShapes(names, shapes, f.outputs); err != nil {
		return errcode.Errorf(errcode.ErrNoEquivalent, "the written model at the export binding %s: %v", bindingText(f.Binding), err)
	}
	return nil
}

// Remaining returns the constraints of the fixed model that fix is for and could not remove: those
// a Reshape imposes, and those that force a symbol to one value (N == 1: a dim the model declares
// dynamic, at which it runs at one size only, as reshape check reports it).
func (f *Fix) Remaining() []sym.Constraint {
	var out []sym.Constraint
	for _, c := range f.After {
		if c.Origin.Op == "Reshape" || fixesSymbol(c.Pred) {
			out = append(out, c)
		}
	}
	return out
}

// fixesSymbol reports whether p alone forces one of its symbols to a single value.
func fixesSymbol(p sym.Pred) bool {
	c := newConds()
	if c.add(p) != nil || c.never {
		return false
	}
	for _, name := range p.SymbolNames() {
		if _, ok := c.value(name); ok {
			return true
		}
	}
	return false
}
