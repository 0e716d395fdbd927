package check

import (
	"errors"
	"fmt"
	"slices"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

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
	return report(g, newIRFormat(g, net, w), file, opt)
}

// irFormat is what the rows of an OpenVINO IR network show of it: nodes by their layer's id,
// Reshapes by their layer's name, type and place, and the runs of Reshapes on constant data
// (Options.Run) from its weights.
type irFormat struct {
	net    *ir.Net
	w      *ir.Weights
	layers irLayers
}

func newIRFormat(g *graph.Graph, net *ir.Net, w *ir.Weights) irFormat {
	return irFormat{net: net, w: w, layers: newIRLayers(g, net)}
}

// irLayers maps each graph that graph.FromIR read from an IR network, the main graph and the body
// of every layer that runs one (TensorIterator, Loop, If), to the network it was read from: a
// body's layers have ids of their own.
type irLayers map[*graph.Graph]*ir.Net

func newIRLayers(g *graph.Graph, net *ir.Net) irLayers {
	m := irLayers{}
	var walk func(g *graph.Graph, net *ir.Net)
	walk = func(g *graph.Graph, net *ir.Net) {
		m[g] = net
		for i := range g.Nodes {
			n := &g.Nodes[i]
			id, ok := graph.IRLayerID(n)
			l, found := net.Layer(id)
			if !ok || !found {
				continue
			}
			for _, a := range n.Attrs {
				for _, b := range l.Bodies {
					if a.Kind == graph.AttrGraph && a.Name == b.Name && a.Graph != nil {
						walk(a.Graph, b.Net)
					}
				}
			}
		}
	}
	walk(g, net)
	return m
}

// layer returns the IR layer of the node r, nil when the networks have none.
func (m irLayers) layer(r *graph.NodeResult) *ir.Layer {
	net := m[r.Graph]
	id, ok := graph.IRLayerID(r.Node)
	if net == nil || !ok {
		return nil
	}
	l, _ := net.Layer(id)
	return l
}

func (irFormat) dialect() reshape.Dialect { return reshape.OpenVINO }

func (irFormat) rebinds() bool { return true }

func (irFormat) id(r *graph.NodeResult) string {
	id, _ := graph.IRLayerID(r.Node)
	return id
}

// layer returns the IR layer of the node r, or one made of the node when the network has none.
func (f irFormat) layer(r *graph.NodeResult) *ir.Layer {
	if l := f.layers.layer(r); l != nil {
		return l
	}
	id, _ := graph.IRLayerID(r.Node)
	return &ir.Layer{ID: id, Name: r.Node.Name, Type: r.Node.Op}
}

func (f irFormat) reshape(r *graph.NodeResult, _ int64, file string) Row {
	l := f.layer(r)
	return Row{File: file, ID: l.ID, Name: l.Name, Op: l.Type}
}

func (f irFormat) where(r *graph.NodeResult) string { return "Reshape " + f.layer(r).String() }

func (f irFormat) computed(_, src *graph.NodeResult) string {
	l := f.layer(src)
	return "the pattern is computed by the shape subgraph ending in " + l.Type + " " + l.String()
}

// unknown says, of a network read without its .bin, that the pattern's values may be in it.
func (f irFormat) unknown(src *graph.NodeResult) string {
	switch {
	case f.w != nil:
		return runTimePattern
	case src == nil:
		return "the pattern is a Const whose values are in the .bin, which was not read (absent), so it is inferred with its values unknown"
	}
	return "the pattern's values are unknown: the network was read without its .bin, whose constants they may depend on"
}

// declared: the rows of the tensors whose declarations the rules do not give (declarationRows).
func (f irFormat) declared(rows []Row, res *graph.Result, d *declarations, r *graph.NodeResult, file string, opt Options) []Row {
	return declarationRows(rows, res, d, r, file, f, opt)
}

func (f irFormat) run(r *graph.NodeResult, row *Row, sz bool, opt Options) error {
	if f.w == nil { // no .bin: no constant to run on
		return nil
	}
	return runConst(f.net, f.layer(r), f.w, row, sz, opt)
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
