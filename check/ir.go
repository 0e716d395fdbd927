package check

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
	"github.com/reshape-go/reshape/tensor"
)

// readIR checks the OpenVINO IR network read from xml, with its weights in the file binPath; name
// is the file name the report carries.
func readIR(xml io.Reader, name, binPath string, opt Options) (*Report, error) {
	net, err := ir.Decode(xml)
	if err != nil {
		return nil, err
	}
	w, err := ir.OpenWeights(binPath)
	switch {
	case err != nil && opt.BinPath != "":
		return nil, errcode.Errorf(errcode.ErrSyntax, "weights: %v", err)
	case err != nil:
		return nil, errcode.Errorf(errcode.ErrSyntax, "weights: %v (the .bin beside the .xml; give another with --bin)", err)
	}
	defer w.Close()
	return IR(net, w, name, opt)
}

// IR checks every layer of type Reshape of net (OpenVINO Reshape-1) after inferring the shape of
// every port of the network with package graph, from its Parameters (Options.Dims and
// Options.Inputs bind them) and constants (read from w): special_zero from the layer's <data>; the
// data input's shape as inferred, each unnamed dynamic dim of a Parameter the symbol NAME:AXIS; the
// pattern from the Const layer feeding its input port 1, or from the shape subgraph that computes
// it, with expressions in those symbols (so that a pattern computed from the same tensor's shape
// cancels exactly), or unknown; and the declared output shape from its output port. Other layers
// get rows, and the report its constraints and symbols, as for ONNX. It returns an error when a
// layer or constant does not follow the format, or the network cannot be inferred.
func IR(net *ir.Net, w *ir.Weights, file string, opt Options) (*Report, error) {
	g, err := graph.FromIR(net, w)
	if err != nil {
		return nil, err
	}
	res, err := graph.Infer(g, opt.graphOptions())
	if err != nil {
		return nil, err
	}
	rep := newReport(res, file)
	d := newDeclarations(res)
	broken := brokenConstraint(g, res, opt)
	st := newStoppers(res)
	for i := range res.Nodes {
		r := &res.Nodes[i]
		if r.NotTaken { // a branch the network does not run at this binding
			continue
		}
		breaks := broken != nil && r.Path == broken.Constraint.Origin.Node
		id, _ := graph.IRLayerID(r.Node)
		if r.Node.Op != "Reshape" || r.Node.Domain != graph.DomainOpenVINO {
			if r.Err != nil || breaks && r.Blocked == "" {
				row := nodeRow(res, r, file, reshape.OpenVINO, id)
				if breaks {
					row.breaks(broken)
				}
				rep.Rows = append(rep.Rows, row)
			}
			continue
		}
		l, ok := net.Layer(id)
		if !ok {
			return nil, errcode.Errorf(errcode.ErrSyntax, "Reshape layer %q: not in the network", id)
		}
		row, err := irRow(res, d, net, r, l, w, file, opt)
		if err != nil {
			return nil, err
		}
		if breaks {
			row.breaks(broken)
		}
		if !determined(row) && row.Verdict != Unknown {
			row.Stopped = st.of(r)
		}
		rep.Rows = append(rep.Rows, row)
	}
	return rep, nil
}

// irRow is the row of a Reshape layer.
func irRow(res *graph.Result, d *declarations, net *ir.Net, r *graph.NodeResult, l *ir.Layer, w *ir.Weights, file string, opt Options) (Row, error) {
	if len(l.Inputs) != 2 || len(l.Outputs) != 1 {
		return Row{}, errcode.Errorf(errcode.ErrSyntax, "Reshape %v: %d input and %d output ports, want 2 and 1", l, len(l.Inputs), len(l.Outputs))
	}
	szText, ok := l.Attr("special_zero")
	if !ok {
		return Row{}, errcode.Errorf(errcode.ErrSyntax, "Reshape %v: <data> has no special_zero attribute (required by Reshape-1)", l)
	}
	sz, err := reshape.ParseSpecialZero(szText)
	if err != nil {
		return Row{}, errcode.Errorf(errcode.ErrSyntax, "Reshape %v: special_zero=%q: want true or false", l, szText)
	}
	p := r.Inputs[1]
	row := Row{File: file, ID: l.ID, Name: l.Name, Op: l.Type, Dialect: reshape.OpenVINO, SpecialZero: &sz,
		Input: r.Inputs[0].Shape, PatternShape: p.Shape.Partial(), PatternSource: PatternConst}
	row.Pattern = Pattern{Values: p.Value, Scalar: !p.Shape.RankDynamic && len(p.Shape.Dims) == 0}
	// A Const pattern is read whole, within the rank bound, so that a limit or an overflow is the
	// row's error.
	src, _, ok := net.Producer(l.ID, l.Inputs[1].ID)
	if !ok {
		return Row{}, errcode.Errorf(errcode.ErrSyntax, "Reshape %v: no edge feeds its pattern input port %q", l, l.Inputs[1].ID)
	}
	if src.Type == "Const" {
		c, err := src.Const()
		if err != nil {
			return Row{}, err
		}
		if c.Type.IsInteger() {
			values, err := w.Ints(c, opt.maxRank())
			switch {
			case errors.Is(err, errcode.ErrLimit), errors.Is(err, errcode.ErrOverflow):
				row.Pattern.Values = nil
				row.Verdict, row.Message = verdictOf(err), fmt.Sprintf("pattern Const layer %q: %v", src.ID, err)
				return row, nil
			case err != nil:
				return Row{}, fmt.Errorf("pattern Const layer %q: %w", src.ID, err)
			}
			row.Pattern.Values = make([]sym.Dim, len(values))
			for i, v := range values {
				row.Pattern.Values[i] = sym.Const(v)
			}
		}
	} else if p.Value != nil {
		row.PatternSource = PatternComputed
		row.Message = "the pattern is computed by the shape subgraph ending in " + src.Type + " " + src.String()
	} else {
		row.PatternSource = PatternUnknown
		row.Message = "the pattern's values are known at run time only, so it is inferred with its values unknown"
	}
	if row.judge(res, d, r, r.Node.Outputs[0], opt.rebinds(true)) && opt.Run && row.PatternSource == PatternConst && row.Pattern.Values != nil {
		if err := runConst(net, l, w, &row, sz, opt); err != nil {
			return Row{}, err
		}
	}
	return row, nil
}

// runConst runs the Reshape on its data input when that is a Const (directly or through a
// Convert), and sets the row's Run verdict: OK when the result has the declared shape.
func runConst(net *ir.Net, l *ir.Layer, w *ir.Weights, row *Row, sz bool, opt Options) error {
	data, outType, note, err := constData(net, l, w, opt)
	if err != nil || data == nil {
		row.Message = notes(row.Message, note)
		return err
	}
	values := make([]shape.Dim, len(row.Pattern.Values))
	for i, v := range row.Pattern.Values {
		values[i] = v.Shape()
		if n, ok := v.Static(); ok {
			values[i] = shape.Static(n)
		}
	}
	p, err := reshape.NewPattern(row.PatternShape, values)
	if err != nil {
		return err
	}
	res, how, err := reshape.Apply(*data, p, reshape.Options{Dialect: reshape.OpenVINO, SpecialZero: sz, MaxRank: opt.MaxRank})
	if err != nil {
		row.Run = verdictOf(err)
		row.Message = notes(row.Message, "run: "+err.Error())
		return nil
	}
	kind := "a copy"
	if how.View {
		kind = "a view"
	}
	size, _ := outType.Size(res.Len())
	note = fmt.Sprintf("run: the %s constant %s reshaped as %s to %s, %d bytes of %s", data.Type(),
		shape.FormatInts(data.Shape()), kind, shape.FormatInts(res.Shape()), size, outType)
	want, static := row.Declared.Static()
	row.Run = OK
	if !static || !slices.Equal(want, res.Shape()) {
		row.Run = Mismatch
		note += ", but the model declares " + row.Declared.String()
	}
	row.Message = notes(row.Message, note)
	return nil
}

// constData returns the constant data input of a Reshape layer, when it is a Const, directly or
// through a Convert, and the element type of the Reshape's output (the Convert's destination type,
// or the constant's). It returns no data, with a note, when the constant is over the byte bound.
func constData(net *ir.Net, l *ir.Layer, w *ir.Weights, opt Options) (data *tensor.Tensor, outType element.Type, note string, err error) {
	src, _, ok := net.Producer(l.ID, l.Inputs[0].ID)
	if !ok {
		return nil, 0, "", nil
	}
	if src.Type == "Convert" && len(src.Inputs) == 1 {
		dt, _ := src.Attr("destination_type")
		if outType, err = element.Parse(dt); err != nil {
			return nil, 0, "", nil
		}
		if src, _, ok = net.Producer(src.ID, src.Inputs[0].ID); !ok {
			return nil, 0, "", nil
		}
	}
	if src.Type != "Const" {
		return nil, 0, "", nil
	}
	c, err := src.Const()
	if err != nil {
		return nil, 0, "", err
	}
	maxBytes := opt.MaxBytes
	if maxBytes == 0 {
		maxBytes = defaultMaxBytes
	}
	b, err := w.Bytes(c, maxBytes)
	if err != nil {
		if errors.Is(err, errcode.ErrLimit) {
			return nil, 0, "not run: " + err.Error(), nil
		}
		return nil, 0, "", err
	}
	t, err := tensor.FromBytes(c.Type, c.Shape, b)
	if err != nil {
		return nil, 0, "", err
	}
	if outType == element.Undefined {
		outType = c.Type
	}
	return &t, outType, "", nil
}
