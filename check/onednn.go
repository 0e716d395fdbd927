package check

import (
	"fmt"
	"strconv"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onednn"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// OneDNN checks every StaticReshape (dialect onednn-static: the pattern is the s64[] attribute
// shape) and DynamicReshape (dialect onednn-dynamic: the pattern is the second input, whose values
// are known only at run time) of the graph. The input and declared shapes are the logical tensors'
// shapes and the data type their dtype; the shapes are numbers, so the report has no symbols and
// no constraints. It returns an error when an op lacks what its kind requires.
func OneDNN(g *onednn.Graph, file string, opt Options) (*Report, error) {
	rep := &Report{File: file}
	for i := range g.Ops {
		op := &g.Ops[i]
		var d reshape.Dialect
		switch op.Kind {
		case "StaticReshape":
			d = reshape.OneDNNStatic
		case "DynamicReshape":
			d = reshape.OneDNNDynamic
		default:
			continue
		}
		s, err := onednnSite(op, d, opt)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", op, err)
		}
		rep.Rows = append(rep.Rows, s.Check(file))
	}
	return rep, nil
}

func onednnSite(op *onednn.Op, d reshape.Dialect, opt Options) (*site, error) {
	inputs := 1
	if d == reshape.OneDNNDynamic {
		inputs = 2
	}
	if len(op.Inputs) != inputs || len(op.Outputs) != 1 {
		return nil, errcode.Errorf(errcode.ErrSyntax, "%d inputs and %d outputs, want %d and 1", len(op.Inputs), len(op.Outputs), inputs)
	}
	szAttr, ok := op.Attrs["special_zero"]
	if !ok {
		return nil, errcode.Errorf(errcode.ErrSyntax, "no special_zero attribute (required by %s-1)", op.Kind)
	}
	sz, err := szAttr.Bool()
	if err != nil {
		return nil, fmt.Errorf("special_zero: %w", err)
	}
	s := &site{
		ID: strconv.FormatInt(op.ID, 10), Name: op.Name, Op: op.Kind,
		Options: reshape.Options{Dialect: d, SpecialZero: sz, MaxRank: opt.MaxRank},
	}
	if s.Input, err = op.Inputs[0].PartialShape(); err != nil {
		return nil, err
	}
	if s.Declared, err = op.Outputs[0].PartialShape(); err != nil {
		return nil, err
	}
	if s.Options.DataType, err = element.Parse(op.Inputs[0].DType); err != nil {
		s.Err = errcode.Errorf(errcode.ErrDataType, "input logical tensor %d: dtype %q is not an element type", op.Inputs[0].ID, op.Inputs[0].DType)
	}
	if d == reshape.OneDNNDynamic {
		pt := &op.Inputs[1]
		ps, err := pt.PartialShape()
		if err != nil {
			return nil, err
		}
		s.Pattern, s.PatternSource = reshape.UnknownPattern(ps), PatternUnknown
		s.Note = "DynamicReshape takes its pattern at run time: inferred with its values unknown"
		if t, err := element.Parse(pt.DType); err == nil {
			s.Options.PatternType = t
		} else if s.Err == nil {
			s.Err = errcode.Errorf(errcode.ErrPatternType, "shape logical tensor %d: dtype %q is not an element type", pt.ID, pt.DType)
		}
		return s, nil
	}
	shapeAttr, ok := op.Attrs["shape"]
	if !ok {
		return nil, errcode.Errorf(errcode.ErrSyntax, "no shape attribute (required by StaticReshape-1)")
	}
	values, err := shapeAttr.Ints()
	if err != nil {
		return nil, fmt.Errorf("shape: %w", err)
	}
	dims := make([]shape.Dim, len(values))
	for i, v := range values {
		dims[i] = shape.Static(v)
	}
	s.Pattern, s.PatternSource = reshape.PatternOf(dims...), PatternConst
	s.Options.PatternType = element.I64
	return s, nil
}

// site is one Reshape as a model describes it, ready to be checked.
type site struct {
	ID, Name, Op  string
	Input         shape.Shape
	Pattern       reshape.Pattern
	PatternSource PatternSource
	Options       reshape.Options
	Declared      shape.Shape
	Note          string // added to the row's message, e.g. where a non-constant pattern comes from
	// Err, when not nil, is a problem found while reading the site (a pattern constant over a limit);
	// it becomes the verdict instead of an inference.
	Err error
}

// Check infers the site's output shape and compares it with the declared one as the rows of every
// format are (compare): OK when the two are equal (a dim known only by its bounds meeting the other)
// and the declared shape may have the input's volume, Mismatch otherwise (also when the pattern's values are unknown: a reshape keeps the volume
// whatever they are), Inferred when the rules give an unknown rank, or the error code when
// inference fails.
func (s *site) Check(file string) Row {
	sz := s.Options.CopiesZeros()
	declared := sym.FromShapes(s.Declared)
	r := Row{
		File: file, ID: s.ID, Name: s.Name, Op: s.Op, Dialect: s.Options.Dialect, Input: sym.FromShapes(s.Input),
		Pattern: patternOf(s.Pattern), PatternShape: s.Pattern.TensorShape(), PatternSource: s.PatternSource, SpecialZero: &sz,
		Declared: &declared,
	}
	err := s.Err
	if err == nil {
		var out shape.Shape
		if out, err = reshape.InferPartial(s.Input, s.Pattern, s.Options); err == nil {
			inferred := sym.FromShapes(out)
			r.Inferred = &inferred
		}
	}
	if err != nil {
		r.Verdict, r.Message = verdictOf(err), notes(err.Error(), s.Note)
		return r
	}
	r.Verdict, r.Message = compare(newDeclarations(nil), r.Input, *r.Inferred, declared, s.Note)
	return r
}

// patternOf returns the row's form of a pattern of package reshape.
func patternOf(p reshape.Pattern) Pattern {
	values, ok := p.Values()
	if !ok {
		return Pattern{Scalar: p.IsScalar()}
	}
	out := Pattern{Values: make([]sym.Dim, len(values)), Scalar: p.IsScalar()}
	for i, v := range values {
		out.Values[i] = sym.Interval(v.Lo, v.Hi)
	}
	return out
}
