package check

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// IRFile checks the OpenVINO IR network read from xml, with its weights in the file binPath; name
// is the file name the rows carry.
func IRFile(xml io.Reader, name, binPath string, opt Options) ([]Row, error) {
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

// IR checks every layer of type Reshape of net (OpenVINO Reshape-1): special_zero from its <data>,
// the data input's partial shape from its input port 0, the pattern from the Const layer feeding its
// input port 1 (read from w, any integer element type), and the declared output shape from its
// output port. A pattern fed by any other layer is inferred with its values unknown. It returns an
// error when a layer or constant does not follow the format.
func IR(net *ir.Net, w *ir.Weights, file string, opt Options) ([]Row, error) {
	ev := newIREval(net, w, opt.maxRank())
	var rows []Row
	for i := range net.Layers {
		l := &net.Layers[i]
		if l.Type != "Reshape" {
			continue
		}
		s, err := irSite(ev, l, opt)
		if err != nil {
			return nil, err
		}
		rows = append(rows, s.Check(file))
	}
	return rows, nil
}

func irSite(ev *irEval, l *ir.Layer, opt Options) (*Site, error) {
	net, w := ev.net, ev.w
	if len(l.Inputs) != 2 || len(l.Outputs) != 1 {
		return nil, errcode.Errorf(errcode.ErrSyntax, "Reshape %v: %d input and %d output ports, want 2 and 1", l, len(l.Inputs), len(l.Outputs))
	}
	szText, ok := l.Attr("special_zero")
	if !ok {
		return nil, errcode.Errorf(errcode.ErrSyntax, "Reshape %v: <data> has no special_zero attribute (required by Reshape-1)", l)
	}
	sz, err := parseBool(szText)
	if err != nil {
		return nil, errcode.Errorf(errcode.ErrSyntax, "Reshape %v: special_zero=%q: want true or false", l, szText)
	}
	s := &Site{
		ID: l.ID, Name: l.Name, Op: l.Type, Input: l.Inputs[0].Shape, Declared: l.Outputs[0].Shape,
		Options: reshape.Options{Dialect: reshape.OpenVINO, SpecialZero: sz, MaxRank: opt.MaxRank},
	}
	src, out, ok := net.Producer(l.ID, l.Inputs[1].ID)
	if !ok {
		return nil, errcode.Errorf(errcode.ErrSyntax, "Reshape %v: no edge feeds its pattern input port %q", l, l.Inputs[1].ID)
	}
	if src.Type != "Const" {
		if t, err := element.Parse(out.Precision); err == nil {
			s.Options.PatternType = t
		}
		v, err := ev.value(src, out.ID, 0)
		switch {
		case err == nil:
			if s.Pattern, err = reshape.NewPattern(shape.OfInts(v.Shape...), v.Elems); err != nil {
				return nil, err
			}
			s.PatternSource = PatternComputed
			s.Note = "the pattern is computed by the shape subgraph ending in " + src.Type + " " + src.String()
		case errors.Is(err, bounds.ErrUnknown):
			s.Pattern = reshape.UnknownPattern(l.Inputs[1].Shape)
			s.PatternSource = PatternUnknown
			s.Note = "the pattern is not constant (" + err.Error() + "), so it is inferred with its values unknown"
		default:
			return nil, err
		}
		return s, nil
	}
	c, err := src.Const()
	if err != nil {
		return nil, err
	}
	s.PatternSource = PatternConst
	s.Options.PatternType = c.Type
	if !c.Type.IsInteger() {
		s.Pattern = reshape.UnknownPattern(shape.OfInts(c.Shape...))
		return s, nil // inference reports the pattern type
	}
	values, err := w.Ints(c, opt.maxRank())
	switch {
	case errors.Is(err, errcode.ErrLimit), errors.Is(err, errcode.ErrOverflow):
		s.Pattern, s.Err = reshape.UnknownPattern(shape.OfInts(c.Shape...)), fmt.Errorf("pattern Const layer %q: %w", src.ID, err)
		return s, nil
	case err != nil:
		return nil, fmt.Errorf("pattern Const layer %q: %w", src.ID, err)
	}
	dims := make([]shape.Dim, len(values))
	for i, v := range values {
		dims[i] = shape.Static(v)
	}
	if s.Pattern, err = reshape.NewPattern(shape.OfInts(c.Shape...), dims); err != nil {
		return nil, err
	}
	if opt.Run {
		if err := constData(net, l, w, s, opt); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// constData sets the site's Data when the Reshape's data input is a Const, directly or through a
// Convert, so that the reshape can be run on it.
func constData(net *ir.Net, l *ir.Layer, w *ir.Weights, s *Site, opt Options) error {
	src, _, ok := net.Producer(l.ID, l.Inputs[0].ID)
	if !ok {
		return nil
	}
	var err error
	outType := element.Undefined
	if src.Type == "Convert" && len(src.Inputs) == 1 {
		dt, _ := src.Attr("destination_type")
		if outType, err = element.Parse(dt); err != nil {
			return nil
		}
		if src, _, ok = net.Producer(src.ID, src.Inputs[0].ID); !ok {
			return nil
		}
	}
	if src.Type != "Const" {
		return nil
	}
	c, err := src.Const()
	if err != nil {
		return err
	}
	maxBytes := opt.MaxBytes
	if maxBytes == 0 {
		maxBytes = DefaultMaxBytes
	}
	b, err := w.Bytes(c, maxBytes)
	if err != nil {
		if errors.Is(err, errcode.ErrLimit) {
			s.Note = strings.TrimPrefix(s.Note+"; not run: "+err.Error(), "; ")
			return nil
		}
		return err
	}
	t, err := tensor.FromBytes(c.Type, c.Shape, b)
	if err != nil {
		return err
	}
	if outType == element.Undefined {
		outType = c.Type
	}
	s.Data, s.OutType = &t, outType
	return nil
}

// parseBool reads an IR boolean: IR v10 writes True and False, IR v11 true and false.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, errors.New("not a boolean")
}
