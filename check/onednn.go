package check

import (
	"slices"
	"strconv"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/onednn"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// OneDNN checks the oneDNN Graph g after inferring the shape of every logical tensor with package
// graph (graph.FromOneDNN: the tensors no op outputs are the inputs, which Options.Inputs binds by
// id and Options.Dims by their symbols ltID:AXIS): a row per StaticReshape (dialect onednn-static:
// the pattern is the s64[] attribute shape) and DynamicReshape (dialect onednn-dynamic: the pattern
// is the second input, whose values are known only at run time); a row per other op whose
// declared output differs from the inferred shape (Mismatch, naming the logical tensor) or whose
// inputs break its rule (the error's code); and a row per logical tensor that two ops declare with
// shapes no tensor has both of, at the second op: an error (invalid-shape) naming both places. It
// returns an error when an op lacks what its kind requires, or the graph cannot be built.
func OneDNN(g *onednn.Graph, file string, opt Options) (*Report, error) {
	gr, err := graph.FromOneDNN(g)
	if err != nil {
		return nil, err
	}
	return oneDNNReport(gr, g, file, opt)
}

// oneDNNReport returns the report of the graph gr built from the oneDNN Graph dg.
func oneDNNReport(gr *graph.Graph, dg *onednn.Graph, file string, opt Options) (*Report, error) {
	res, err := graph.Infer(gr, opt.graphOptions())
	if err != nil {
		return nil, err
	}
	rep := newReport(res, file)
	rep.Bindings = bindingsOf(gr, res, opt)
	form := oneDNNFormat{dg}
	if rep.Rows, err = rows(gr, res, form, file, opt); err != nil {
		return nil, err
	}
	index := make(map[string]int, len(dg.Ops)) // the node of each row, by the op's id
	for i := range dg.Ops {
		index[form.id(&res.Nodes[i])] = i
	}
	for i := range rep.Rows { // a Reshape's row names the logical tensor it judges, as declared's do
		r := &rep.Rows[i]
		n := res.Nodes[index[r.ID]].Node
		if _, isReshape := graph.ReadReshape(n); isReshape && (r.Verdict == Mismatch || r.Verdict == Stale) {
			r.Message = "logical tensor " + n.Outputs[0] + ": " + r.Message
		}
	}
	lts, err := dg.LogicalTensors()
	if err != nil {
		return nil, err
	}
	for i := range lts {
		if _, conflict, _ := lts[i].Declared(); conflict != nil {
			rep.Rows = append(rep.Rows, conflictRow(conflict, file))
		}
	}
	at := func(r Row) int { return index[r.ID] }
	slices.SortStableFunc(rep.Rows, func(a, b Row) int { return at(a) - at(b) })
	if rep.Valid() == ValidNever {
		rep.runsNowhere(rep.Symbols)
	}
	return rep, nil
}

// oneDNNFormat is what the rows of a oneDNN Graph show of it: ops by their id, name and kind.
type oneDNNFormat struct{ g *onednn.Graph }

func (oneDNNFormat) dialect() reshape.Dialect { return reshape.OneDNNStatic }

// rebinds: a oneDNN Graph declares the numbers of one set of input shapes, as an IR network does.
func (oneDNNFormat) rebinds() bool { return true }

func (f oneDNNFormat) id(r *graph.NodeResult) string {
	return strconv.FormatInt(f.g.Ops[r.Index].ID, 10)
}

func (f oneDNNFormat) reshape(r *graph.NodeResult, _ int64, file string) Row {
	op := &f.g.Ops[r.Index]
	return Row{File: file, ID: strconv.FormatInt(op.ID, 10), Name: op.Name, Op: op.Kind}
}

func (f oneDNNFormat) where(r *graph.NodeResult) string { return f.g.Ops[r.Index].String() }

func (oneDNNFormat) computed(_, _ *graph.NodeResult) string { return "" }

// unknown: DynamicReshape takes its pattern at run time.
func (oneDNNFormat) unknown(*graph.NodeResult) string { return runTimePattern }

func (oneDNNFormat) run(*graph.NodeResult, *Row, bool, Options) error { return nil }

// declared appends to rows the rows of the outputs of the op r whose declaration differs from the
// inferred shape, named by the logical tensor: Mismatch, or Stale when the bindings rebind the
// inputs. The row loop (rows) calls it for an op other than a Reshape (whose row compares its
// output) and one that failed or lies downstream of a failure (whose row says so).
func (f oneDNNFormat) declared(rows []Row, res *graph.Result, d *declarations, r *graph.NodeResult, file string, opt Options) []Row {
	for k, name := range r.Node.Outputs {
		info := r.Outputs[k]
		declared, _, ok := res.Declared(r.Graph, name)
		if !ok || info == nil || info.FromDecl || info.Shape.RankDynamic {
			continue
		}
		when := d.equalWhen(info.Shape, declared)
		if when.IsTrue() {
			continue
		}
		row := nodeRow(res, r, file, f.dialect(), f.id(r))
		row.Name, row.Op = f.g.Ops[r.Index].Name, r.Node.Op
		inferred := info.Shape
		row.Inferred, row.Declared = &inferred, &declared
		row.Verdict, row.Message = Mismatch, "logical tensor "+name+": "+disagreement(declared, inferred, when)
		if opt.rebinds(true) {
			row.Verdict, row.Message = Stale, "logical tensor "+name+": "+staleDeclaration(declared, inferred)
		}
		rows = append(rows, row)
	}
	return rows
}

// conflictRow is the row of a logical tensor that the two uses of conflict declare with shapes no
// tensor has both of: an error wrapping errcode.ErrInvalidShape, at the op of the second use, whose
// declaration is the row's.
func conflictRow(conflict *[2]onednn.Use, file string) Row {
	a, b := conflict[0], conflict[1]
	sa, _ := a.Tensor.PartialShape() // Declared read them
	sb, _ := b.Tensor.PartialShape()
	err := errcode.Errorf(errcode.ErrInvalidShape, "logical tensor %d is declared %v where %v, and %v where %v",
		a.Tensor.ID, sa, a, sb, b)
	declared := sym.FromShapes(sb)
	return Row{File: file, ID: strconv.FormatInt(b.Op.ID, 10), Name: b.Op.Name, Op: b.Op.Kind, Dialect: reshape.OneDNNStatic,
		Input: sym.DynamicRank(), PatternShape: shape.DynamicRank(), Declared: &declared, Verdict: verdictOf(err), Message: err.Error()}
}

// oneDNNConflicts gives the tensors (InferShapes') that the oneDNN Graph dg declares with shapes no
// tensor has both of the verdict invalid-shape, naming both places; nothing for dg nil (a model of
// another format).
func oneDNNConflicts(tensors []Tensor, dg *onednn.Graph) error {
	if dg == nil {
		return nil
	}
	lts, err := dg.LogicalTensors()
	if err != nil {
		return err
	}
	at := make(map[string]int, len(tensors))
	for i := range tensors {
		at[tensors[i].Name] = i
	}
	for i := range lts {
		_, conflict, _ := lts[i].Declared()
		k, ok := at[graph.OneDNNTensor(lts[i].ID)]
		if conflict == nil || !ok {
			continue
		}
		row := conflictRow(conflict, "")
		t := &tensors[k]
		t.Verdict, t.Message = row.Verdict, notes(row.Message, t.Message)
	}
	return nil
}
