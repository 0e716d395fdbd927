package check

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// format is what the row loop (rows) asks of a model's format beside the engine's result: how
// rows name nodes, how a Reshape's row shows its operator, and the notes and runs of the format.
type format interface {
	// dialect is the dialect of the format's Reshapes and of its rows.
	dialect() reshape.Dialect
	// rebinds reports whether bindings of the model's symbols (--dim) rebind its inputs, so
	// that a declaration the rules no longer give is Stale (Options.rebinds).
	rebinds() bool
	// id returns the ID of a node's row: its index in its graph, an IR layer's id.
	id(r *graph.NodeResult) string
	// reshape returns the row of the Reshape r, of the given version, with its File, ID, Name and
	// Op set.
	reshape(r *graph.NodeResult, version int64, file string) Row
	// where names the Reshape r in an error of its form.
	where(r *graph.NodeResult) string
	// computed is the note of a row whose pattern the node src computes.
	computed(r, src *graph.NodeResult) string
	// unknown is the note of a row whose pattern's values are unknown, src the node that
	// outputs the pattern (nil for a constant).
	unknown(src *graph.NodeResult) string
	// run runs the Reshape of the row, whose special_zero is sz, on its constant data
	// (Options.Run), for the formats that can.
	run(r *graph.NodeResult, row *Row, sz bool, opt Options) error
	// declared appends to rows the rows of the declarations of the outputs of the node r (not a
	// Reshape, inferred without error, not downstream of one) that the rules do not give: ONNX's
	// and IR's by tensor (declarationRows), a oneDNN Graph's by logical tensor.
	declared(rows []Row, res *graph.Result, d *declarations, r *graph.NodeResult, file string, opt Options) []Row
}

// report infers the graph g of a model of the format form, whose file is named file, and
// returns its report.
func report(g *graph.Graph, form format, file string, opt Options) (*Report, error) {
	res, err := graph.Infer(g, opt.graphOptions())
	if err != nil {
		return nil, err
	}
	rep := newReport(res, file)
	if rep.Rows, err = rows(g, res, form, file, opt); err != nil {
		return nil, err
	}
	rep.Absorbed = FindAbsorbed(g, res)
	if form.dialect() == reshape.OpenVINO {
		nameBlockers(g, res, rep.Constraints)
	}
	// What a Reshape does to the batch shows with the batch a symbol: for a batch asked for
	// (--batch-size), or an IR network exported at a static batch, which the batch study
	// answers as well.
	if free, freed, ok := freeBatch(g, opt); ok && (opt.BatchSize > 0 || form.dialect() == reshape.OpenVINO && len(freed) > 0) {
		if fres, err := graph.Infer(g, free); err == nil {
			if opt.BatchSize == 0 {
				rep.Batch = batchStudy(g, res, fres, freed, file)
			}
			if rep.Absorbed == nil {
				rep.Absorbed = FindAbsorbed(g, fres)
			}
		}
	}
	rep.Bindings = bindingsOf(g, res, opt)
	if rep.Valid() == ValidNever {
		rep.runsNowhere(rep.Symbols)
	}
	return rep, nil
}

// rows returns the rows of the inferred graph g: one per Reshape (graph.Result.Reshape), and one
// per other node whose inputs break its rule or that imposes a constraint the bindings of
// Options.Dims break (brokenConstraint), in the order a runtime meets their errors (stopOrder), so
// that the first error is where it stops. Nodes of a branch the model does not run at this
// binding have none.
func rows(g *graph.Graph, res *graph.Result, form format, file string, opt Options) ([]Row, error) {
	d := newDeclarations(res)
	broken, brokenAt, free := brokenConstraint(g, res, opt)
	st := newStoppers(res)
	reshapes := 0 // a row each, and the rows of failed nodes grow the list past them
	for i := range res.Nodes {
		if res.Nodes[i].Node.Op == "Reshape" {
			reshapes++
		}
	}
	rows := make([]Row, 0, reshapes)
	for _, i := range stopOrder(res, free) {
		r := &res.Nodes[i]
		if r.NotTaken && r.TypeErr == nil { // a branch the model does not run at this binding
			continue
		}
		breaks := i == brokenAt
		f, isReshape := res.Reshape(r)
		switch {
		case isReshape:
			row, err := reshapeRow(res, d, form, r, &f, file, opt)
			if err != nil {
				return nil, err
			}
			if breaks {
				row.breaks(broken)
			}
			if !determined(row) && row.Verdict != Unknown {
				row.Stopped = st.of(r)
			}
			rows = append(rows, row)
		case r.Err != nil || r.TypeErr != nil || breaks && r.Blocked == "":
			row := nodeRow(res, r, file, form.dialect(), form.id(r))
			if breaks {
				row.breaks(broken)
			}
			rows = append(rows, row)
		case r.Blocked == "":
			rows = form.declared(rows, res, d, r, file, opt)
		}
	}
	return rows, nil
}

// declarationRows appends to rows a row for each output of the node r, other than a Reshape and
// inferred without error, whose shape the model declares (ONNX value_info or graph output, an IR
// output port's dims) and the rules do not give at every binding that satisfies the constraints:
// a Mismatch, named by the tensor, the message saying when they are equal, if ever ("equal only
// when N == 1"). A declaration for input shapes the bindings changed (Stale) is not a row.
func declarationRows(rows []Row, res *graph.Result, d *declarations, r *graph.NodeResult, file string, form format, opt Options) []Row {
	for k, name := range r.Node.Outputs {
		if name == "" || r.Outputs[k] == nil {
			continue
		}
		decl, _, ok := res.Declared(r.Graph, name)
		if !ok {
			continue
		}
		if v, msg := d.verdict(r, k, decl, opt.rebinds(form.rebinds())); v == Mismatch {
			row := nodeRow(res, r, file, form.dialect(), form.id(r))
			out := r.Outputs[k].Shape
			row.Tensor, row.Inferred, row.Declared = name, &out, &decl
			row.Verdict, row.Message = Mismatch, "output "+name+": "+msg
			rows = append(rows, row)
		}
	}
	return rows
}

// reshapeRow is the row of the Reshape r, which the Reshape rule reads as f: its options, input and
// pattern, where the pattern comes from, and the verdict (judge). An error of r's form, or of
// reading its Const pattern other than a limit or an overflow (which are the row's verdict), is
// the model's.
func reshapeRow(res *graph.Result, d *declarations, form format, r *graph.NodeResult, f *graph.Reshape, file string, opt Options) (Row, error) {
	if f.Err != nil {
		return Row{}, fmt.Errorf("%s: %w", form.where(r), f.Err)
	}
	row := form.reshape(r, f.Version, file)
	row.Dialect, row.Input, row.PatternShape, row.PatternSource = f.Options.Dialect, f.Input, f.PatternShape, sourceOf(f.Source)
	row.Pattern = Pattern{Values: f.Pattern}
	if f.Options.Dialect == reshape.ONNX {
		az := int64(0)
		if f.Options.AllowZero {
			az = 1
		}
		row.AllowZero = &az
	} else {
		sz := f.Options.SpecialZero
		row.SpecialZero = &sz
		row.Pattern.Scalar = !f.PatternShape.RankDynamic && len(f.PatternShape.Dims) == 0
	}
	switch {
	case errors.Is(f.PatternErr, errcode.ErrLimit), errors.Is(f.PatternErr, errcode.ErrOverflow):
		row.Verdict, row.Message = verdictOf(f.PatternErr), "pattern "+f.PatternErr.Error()
		return row, nil
	case f.PatternErr != nil:
		return Row{}, fmt.Errorf("pattern %w", f.PatternErr)
	case f.Source == graph.PatternUnknown:
		row.Message = form.unknown(res.Producer(r, 1))
	case f.Source == graph.PatternComputed:
		row.Message = form.computed(r, res.Producer(r, 1))
	}
	if row.judge(res, d, r, r.Node.Outputs[0], opt.rebinds(form.rebinds())) && opt.Run && f.Source == graph.PatternConst && f.Pattern != nil {
		run := row // on the heap for the format's run alone
		if err := form.run(r, &run, f.Options.SpecialZero, opt); err != nil {
			return Row{}, err
		}
		return run, nil
	}
	return row, nil
}

// judge sets the verdict of the row of the Reshape whose result is r and whose output is the
// tensor output, with its declared and inferred shapes: Unknown downstream of an error, the code
// of its own error, Inferred when nothing is declared, and otherwise compare's verdict, Stale for
// a mismatch when the bindings rebind the model's inputs. The row's message so far, where its
// pattern comes from, is kept as a note to a verdict that says something is wrong (the pattern's
// source is the row's PatternSource already). It reports whether the inferred shape was compared
// with a declaration.
func (row *Row) judge(res *graph.Result, d *declarations, r *graph.NodeResult, output string, rebinds bool) bool {
	declared, _, hasDecl := res.Declared(r.Graph, output)
	if hasDecl {
		row.Declared = &declared
	}
	switch {
	case r.TypeErr != nil:
		v, msg := failure(res, r)
		row.Verdict, row.Message = v, notes(msg, row.Message)
		return false
	case r.Blocked != "":
		row.Verdict, row.Message = Unknown, downstream(r.Blocked)
		return false
	case r.Err != nil:
		v, msg := failure(res, r)
		row.Verdict, row.Message = v, notes(msg, row.Message)
		return false
	}
	out := r.Outputs[0].Shape
	row.Inferred = &out
	note := row.Message
	if !hasDecl {
		row.Verdict, row.Message = Inferred, ""
		return false
	}
	row.Verdict, row.Message = compare(d, row.Input, out, declared, "")
	switch {
	case row.Verdict == Mismatch && rebinds:
		row.Verdict, row.Message = Stale, notes(staleDeclaration(declared, out), note)
	case row.Verdict == Mismatch:
		row.Message = notes(row.Message, note)
	}
	return true
}

// compare returns the verdict of an inferred output shape against the declared one: Mismatch when
// the declared shape is not the inferred one at every binding that satisfies the constraints
// (declarations.equalWhen: "equal only when N == 10"), or cannot have the input's volume (a
// reshape keeps the volume whatever its pattern), Inferred when the inferred shape has an unknown
// rank (nothing was compared), OK otherwise; note is appended to the message.
func compare(d *declarations, in, inferred, declared sym.Shape, note string) (Verdict, string) {
	msg := ""
	v := OK
	switch when := d.equalWhen(inferred, declared); {
	case !when.IsTrue():
		v, msg = Mismatch, disagreement(declared, inferred, when)
	case !volumesMeet(in.Partial(), declared.Partial()):
		vin, _ := in.Partial().Volume()
		vout, _ := declared.Partial().Volume()
		v = Mismatch
		msg = "the model declares " + declared.String() + " of volume " + vout.String() + ", but the input " +
			in.String() + " has volume " + vin.String() + ", and a reshape keeps the volume"
	case inferred.RankDynamic:
		v, msg = Inferred, "the rules give a shape of unknown rank: nothing to compare the declared "+declared.String()+" with"
	}
	return v, notes(msg, note)
}

// notes joins the parts of a message that are not empty with "; ".
func notes(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			if b.Len() > 0 {
				b.WriteString("; ")
			}
			b.WriteString(p)
		}
	}
	return b.String()
}

// nodeRow is the row of a node other than a Reshape whose inputs break its rule (or that imposes
// a constraint the bindings break: Row.breaks makes it an error) in the result res; id is its
// index or layer id.
func nodeRow(res *graph.Result, r *graph.NodeResult, file string, d reshape.Dialect, id string) Row {
	row := Row{File: file, ID: id, Name: r.Path, Op: r.Node.Op, Dialect: d,
		Input: sym.DynamicRank(), PatternShape: shape.DynamicRank()}
	if r.Err != nil || r.TypeErr != nil {
		row.Verdict, row.Message = failure(res, r)
	}
	if len(r.Inputs) > 0 && r.Inputs[0] != nil {
		row.Input = r.Inputs[0].Shape
	}
	return row
}

// verdictOf returns the verdict of a failed inference: the error's code.
func verdictOf(err error) Verdict {
	if code := errcode.Code(err); code != "" {
		return Verdict(code)
	}
	return "error"
}

// failure returns the verdict and message of a node result whose inputs break its rule or its
// input types: the code of its type error (graph.NodeResult.TypeErr: a runtime refuses the model
// at load, whatever the bindings and the branch) and the error, with the rule's error as a note;
// else the rule error's code and the error, or Avoidable when a run can avoid the node
// (graph.NodeResult.Avoidable), with the If that avoids it (graph.Result.AvoidedBy) and the
// error's code in the message: "avoided when if_sr takes else_branch, which runs at these bindings
// (its condition is known at run time only); not-divisible: ...".
func failure(res *graph.Result, r *graph.NodeResult) (Verdict, string) {
	if r.TypeErr != nil {
		msg := r.TypeErr.Error()
		if r.Err != nil {
			msg = notes(msg, string(verdictOf(r.Err))+": "+r.Err.Error())
		}
		return verdictOf(r.TypeErr), msg
	}
	if !r.Avoidable {
		return verdictOf(r.Err), r.Err.Error()
	}
	how := "avoided when an If that holds it takes its other branch (its condition is known at run time only)"
	if ifNode, takes, ok := res.AvoidedBy(r); ok {
		how = "avoided when " + ifNode.Path + " takes " + takes + ", which runs at these bindings (its condition is known at run time only)"
	}
	return Avoidable, notes(how, string(verdictOf(r.Err))+": "+r.Err.Error())
}

// staleDeclaration is the message of a declaration that disagrees with the inferred shape under
// bindings that rebind the model's inputs (Options.rebinds): the verdict is Stale, since the
// declaration is the model's shape for the inputs it was exported with.
func staleDeclaration(declared, inferred sym.Shape) string {
	return "the model declares " + declared.String() + " for the input shapes it was exported with; with the bindings given " +
		"the rules give " + inferred.String() + ", so the two are not compared"
}

// downstream is the message of a row or tensor downstream of the node at path, whose inputs break
// its rule.
func downstream(path string) string {
	return "not inferred: an input is unknown, downstream of the error at " + path
}

// volumesMeet reports whether the shapes in and out may have the same volume: false only when their
// volume intervals are known and disjoint.
func volumesMeet(in, out shape.Shape) bool {
	vin, err1 := in.Volume()
	vout, err2 := out.Volume()
	return err1 != nil || err2 != nil || vin.Compatible(vout)
}

// determined reports whether every dim of the row's input and inferred shapes is an integer or an
// expression in the model's symbols.
func determined(r Row) bool {
	for _, s := range []*sym.Shape{&r.Input, r.Inferred} {
		if s == nil || s.RankDynamic {
			return false
		}
		for _, d := range s.Dims {
			if !d.Determined() {
				return false
			}
		}
	}
	return true
}

// stopOrder returns the indices of res.Nodes in the order a runtime meets their errors: first the
// nodes it refuses when it loads the model (graph.Result.AtLoad; of a result inferred with
// bindings, those that free, the model inferred without them, says so), then the rest in the
// order it runs them (graph.Result.RunSeq), so that the first error is where it stops.
func stopOrder(res *graph.Result, free *graph.Result) []int {
	load := make([]bool, len(res.Nodes))
	for i := range res.Nodes {
		load[i] = res.AtLoad(i)
		if free == nil || load[i] || res.Nodes[i].Err == nil {
			continue
		}
		if j, ok := free.NodeIndex(res.Nodes[i].Path); ok {
			load[i] = free.AtLoad(j)
		}
	}
	order := make([]int, len(res.Nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if load[a] != load[b] {
			if load[a] {
				return -1
			}
			return 1
		}
		return cmp.Compare(res.RunSeq(a), res.RunSeq(b))
	})
	return order
}
