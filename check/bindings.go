package check

import (
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/sym"
)

// Bindings says where the bindings of Options (Dims, Inputs, BatchSize) do less in a model than
// they ask, or what a runtime refuses, and whether an IR network's weights were read (BinPath):
// what a command reports as notes, since an option that does nothing in silence reads as one that
// worked.
type Bindings struct {
	// UnusedDims and UnusedInputs list, in sorted order, the names of Options.Dims that no dim of
	// the model has and of Options.Inputs that no input of it has: bindings meant for several
	// models (Options.SharedBindings) leave them unused; for one model they are errors wrapping
	// errcode.ErrBinding.
	UnusedDims, UnusedInputs []string
	// NoBatch lists, with Options.BatchSize, the graph inputs that have no batch dim for it to
	// bind (graph.Input.BatchAxis), in the model's order: OpenVINO's set_batch fails on them.
	NoBatch []string
	// Overrides lists, for an ONNX model, the inputs whose shape Options.Inputs gives with another
	// rank, or another value at a dim the model declares static.
	Overrides []Override
	// NoWeights reports an OpenVINO IR network that has Const layers, read without its .bin (none
	// beside the .xml, and no Options.BinPath): the values of its constants are unknown, and so is
	// every shape and pattern they decide.
	NoWeights bool
}

// Override is an input of an ONNX model whose shape Options.Inputs sets against its declaration:
// another rank, or other values at static dims. onnxruntime refuses such an input when the model
// runs ("Invalid rank for input", "Got invalid dimensions for input"); OpenVINO's reshape
// (ov::Model::reshape) accepts it and infers the model again, as check does.
type Override struct {
	Input string `json:"input"`
	// Declared is the input's declared shape in the dim notation ("[1,3,H,W]"), Given the shape
	// Options.Inputs gives it, with the bindings applied.
	Declared string `json:"declared"`
	Given    string `json:"given"`
	// Axes lists the static dims Given changes; none when the ranks differ.
	Axes []int `json:"axes,omitempty"`
}

// bindingsOf returns what the bindings of opt leave undone in the inferred graph g, or do that a
// runtime refuses (Overrides, for an ONNX model).
func bindingsOf(g *graph.Graph, res *graph.Result, opt Options) Bindings {
	b := Bindings{UnusedDims: res.UnboundDims()}
	if net, w := g.IR(); net != nil && w == nil && len(g.Consts) > 0 {
		b.NoWeights = true
	}
	for name := range opt.Inputs {
		if !slices.ContainsFunc(g.Inputs, func(in graph.Input) bool { return in.Name == name }) {
			b.UnusedInputs = append(b.UnusedInputs, name)
		}
	}
	slices.Sort(b.UnusedInputs)
	for _, in := range g.Inputs {
		_, set := opt.Inputs[in.Name]
		if opt.BatchSize > 0 && !set && in.BatchAxis() < 0 {
			b.NoBatch = append(b.NoBatch, in.Name)
		}
		if info := res.Tensor(in.Name); set && g.ONNX() != nil && info != nil {
			if o, ok := override(in, info.Shape); ok {
				b.Overrides = append(b.Overrides, o)
			}
		}
	}
	return b
}

// override returns the Override of the input in given the shape given, if it is one.
func override(in graph.Input, given sym.Shape) (Override, bool) {
	d := in.Decl
	if d.Rank < 0 || d.Seq != nil || d.Map != nil || given.RankDynamic {
		return Override{}, false
	}
	o := Override{Input: in.Name, Declared: declString(d), Given: given.String()}
	if len(given.Dims) != d.Rank {
		return o, true
	}
	for i, dd := range d.Dims {
		if n, ok := given.Dims[i].Static(); dd.Lo == dd.Hi && (!ok || n != dd.Lo) {
			o.Axes = append(o.Axes, i)
		}
	}
	return o, len(o.Axes) > 0
}

// declString returns a declared shape in the dim notation: static dims as numbers, named ones by
// their names, others "?".
func declString(d graph.Decl) string {
	parts := make([]string, len(d.Dims))
	for i, dd := range d.Dims {
		switch {
		case dd.Lo == dd.Hi:
			parts[i] = strconv.FormatInt(dd.Lo, 10)
		case dd.Name != "":
			parts[i] = dd.Name
		default:
			parts[i] = "?"
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}
