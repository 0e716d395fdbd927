package check

import (
	"fmt"
	"io"
	"strconv"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onednn"
	"github.com/reshape-go/reshape/shape"
)

// readOneDNN checks the oneDNN Graph JSON read from r; name is the file name the report carries.
func readOneDNN(r io.Reader, name string, opt Options) (*Report, error) {
	g, err := onednn.Decode(r)
	if err != nil {
		return nil, err
	}
	return OneDNN(g, name, opt)
}

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
