package check

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/onnx"
)

// ONNX checks every Reshape node of the model, those of subgraphs (If branches, Loop and Scan
// bodies) included, with the dialect onnx, after inferring the shape of every tensor of the model
// with package graph from its graph inputs (Options.Dims and Options.Inputs bind them): Reshape-1
// takes its pattern from the shape attribute and copies zeros; Reshape-5 and later from its second
// input, whose values are known when the model computes them from constants and shapes (a
// Shape → Gather → Concat subgraph), with expressions in the model's symbols; from Reshape-14 the
// allowzero attribute (default 0) turns special zeros off. The declared output shape is the
// model's value_info or graph output; a Reshape without one gets the verdict Inferred. Every other
// node whose inputs break its rule (a pooled size below 1 at a binding) gets a row with its error,
// and so does the node that imposes a constraint the bindings of Options.Dims break (its message
// says which: "N == 1 does not hold at N=2"). The report lists the model's constraints
// (graph.Result.Constraints) and the symbols the bindings leave free. A constant stored as external data is read from its file, relative to the directory of file, when
// its value is needed, within the bound of Options.MaxRank values; other external data, such as
// the weights, is never read. It returns an error when the graph cannot be inferred at all (a
// cycle, a name nothing defines) or a Reshape lacks what its version requires.
func ONNX(m *onnx.Model, file string, opt Options) (*Report, error) {
	g, err := graph.FromONNX(m, filepath.Dir(file))
	if err != nil {
		return nil, err
	}
	return report(g, onnxFormat{}, file, opt)
}

// onnxFormat is what the rows of an ONNX model show of it: nodes by their index in their graph,
// and Reshape's version ("Reshape-14").
type onnxFormat struct{}

func (onnxFormat) dialect() reshape.Dialect { return reshape.ONNX }

func (onnxFormat) rebinds() bool { return false }

func (onnxFormat) id(r *graph.NodeResult) string { return strconv.Itoa(r.Index) }

func (onnxFormat) reshape(r *graph.NodeResult, version int64, file string) Row {
	return Row{File: file, ID: strconv.Itoa(r.Index), Name: r.Path, Op: "Reshape-" + strconv.FormatInt(version, 10)}
}

// where names a node for messages: `node 3 ("r", Reshape)`, preceded by the path of its subgraph.
func (onnxFormat) where(r *graph.NodeResult) string {
	w := fmt.Sprintf("node %d (%q, %s)", r.Index, r.Node.Name, r.Node.Op)
	if r.Scope != "" {
		w = r.Scope + ": " + w
	}
	return w
}

func (onnxFormat) computed(r, src *graph.NodeResult) string {
	return "the pattern is computed by a " + src.Node.Op + " node (" + r.Node.Inputs[1] + ")"
}

func (onnxFormat) unknown(*graph.NodeResult) string { return runTimePattern }

// runTimePattern is the note of a row whose pattern's values are known at run time only.
const runTimePattern = "the pattern's values are known at run time only, so it is inferred with its values unknown"

// declared: the rows of the tensors whose declarations the rules do not give (declarationRows).
func (f onnxFormat) declared(rows []Row, res *graph.Result, d *declarations, r *graph.NodeResult, file string, opt Options) []Row {
	return declarationRows(rows, res, d, r, file, f, opt)
}

func (onnxFormat) run(*graph.NodeResult, *Row, bool, Options) error { return nil }
