// Package check finds every Reshape in a model file (ONNX, OpenVINO IR, oneDNN Graph JSON), infers
// its output shape, and reports where the model disagrees with the spec and when it runs at all.
package check

import (
	"bytes"
	_ "embed"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/ir"
)

// Options configure File.
type Options struct {
	// BinPath is the .bin file of an IR model; "" means the .xml path with the extension .bin.
	BinPath string
	// MaxRank bounds ranks as reshape.Options.MaxRank does, and the number of pattern values read.
	MaxRank int
	// Run runs each IR Reshape whose data input is a Const (directly or through a Convert) on the
	// constant's bytes, and checks the result's shape and size against the declared output.
	Run bool
	// MaxBytes bounds the constant data read for Run; 0 means 1 GiB.
	MaxBytes int64
	// MaxFileSize bounds the bytes of a model file read into memory (errcode.ErrLimit beyond): a
	// whole IR .xml or oneDNN Graph JSON file, and of an ONNX model, which is mapped, the bytes its
	// shapes need (its structure, without the tensor values, and the values of the constants
	// inference reads), however large the file (graph.OpenOptions.MaxBytes). 0 means 2 GiB,
	// protobuf's bound on a model.
	MaxFileSize int64
	// Dims binds the model's symbols to values by name (graph.Options.Dims), for ONNX and IR
	// models.
	Dims map[string]int64
	// Inputs sets the shapes of graph inputs (ONNX) or Parameters (IR) by name
	// (graph.Options.Inputs).
	Inputs map[string]string
	// BatchSize, when positive, binds the batch dim of every graph input (or Parameter) whose
	// batch dim is dynamic, as OpenVINO's set_batch does (graph.Options.BatchSize).
	BatchSize int64
	// SharedBindings makes Dims and Inputs bindings meant for several models (a directory): a name
	// a model does not have is not an error (graph.Options.SharedDims).
	SharedBindings bool
}

// graphOptions returns the options of graph inference that opt sets: the bindings and the rank
// bound.
func (o *Options) graphOptions() graph.Options {
	return graph.Options{Dims: o.Dims, Inputs: o.Inputs, MaxRank: o.MaxRank, BatchSize: o.BatchSize, SharedDims: o.SharedBindings}
}

// rebinds reports whether the bindings of o give the model input shapes other than those it was
// exported with, so that the shapes it declares for the rest of its graph may be those of the old
// inputs: --input and --batch-size, and for an IR network, whose ports hold numbers, --dim too.
// (An ONNX model's symbols bind in its declarations as in its inputs.)
func (o *Options) rebinds(ir bool) bool {
	return len(o.Inputs) > 0 || o.BatchSize > 0 || ir && len(o.Dims) > 0
}

// defaultMaxBytes is the default bound on constant data read by Options.Run: 1 GiB.
const defaultMaxBytes = 1 << 30

// File checks every Reshape of the model file at path, which graph.Open reads: OpenVINO IR (.xml,
// with its .bin), oneDNN Graph JSON (.json) or ONNX (.onnx); a file of another extension is
// recognised by its first bytes, and refused with an error wrapping errcode.ErrSyntax when they are
// none of these. It returns an error, naming the file and the place, when the file cannot be read
// or does not follow its format; the .bin of an IR network that cannot be opened is graph.Open's
// *graph.WeightsError, which wraps the file system's.
func File(path string, opt Options) (*Report, error) {
	g, err := graph.Open(path, opt.OpenOptions())
	if err != nil {
		return nil, err
	}
	defer g.Close()
	return Graph(g, path, opt)
}

// OpenOptions returns the options of graph.Open that o gives: MaxFileSize as the limit of the
// bytes read, BinPath as an IR network's weights. File and InferShapes open a model with them; a
// caller that opens the model itself for Graph or GraphShapes passes them to graph.Open.
func (o *Options) OpenOptions() graph.OpenOptions {
	return graph.OpenOptions{MaxBytes: o.MaxFileSize, Weights: o.BinPath}
}

// Graph checks every Reshape of the graph g, which graph.Open opened from the file at path, as
// File does, and leaves g open: a caller that
// reads the model in several ways (package report) opens it once.
func Graph(g *graph.Graph, path string, opt Options) (*Report, error) {
	var rep *Report
	var err error
	switch net, w := g.IR(); {
	case g.OneDNN() != nil:
		rep, err = oneDNNReport(g, g.OneDNN(), path, opt)
	case net != nil:
		rep, err = report(g, newIRFormat(g, net, w), path, opt)
	default:
		rep, err = report(g, onnxFormat{}, path, opt)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// NotModel is a file of a directory tree that has a model's extension but is not a model: a
// package.json, a pom.xml. Why says what it is instead.
type NotModel struct {
	Path, Why string
}

// ModelFiles returns the model files in the directory tree at dir, in lexical order: the files
// with a model's extension (graph.ModelFile: .onnx, .xml, .json) whose first bytes are a model's (an ONNX file, an XML file
// whose root is an IR <net>, a JSON object with oneDNN Graph's "graph" key), and apart the files
// with a model's extension that are not (others, as graph.NotModel says), which File would refuse. A file that cannot be
// read, or is not even well-formed, counts as a model, so that File says what is wrong with it.
// Hidden directories (a name starting with ".", as .git) are skipped. The error is the first that
// reading a directory gives; a tree without any model file is an error wrapping errcode.ErrSyntax.
func ModelFiles(dir string) (models []string, others []NotModel, err error) {
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != dir && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir
		case d.IsDir() || !graph.ModelFile(path):
			return nil
		}
		if why := graph.NotModel(path); why != "" {
			others = append(others, NotModel{path, why})
		} else {
			models = append(models, path)
		}
		return nil
	})
	if err == nil && len(models) == 0 {
		why := ""
		if len(others) > 0 {
			why = fmt.Sprintf(": the %d files with their extensions are not models", len(others))
		}
		err = errcode.Errorf(errcode.ErrSyntax, "%s: no model in its tree (.onnx, .xml of OpenVINO IR, .json of oneDNN Graph)%s", dir, why)
	}
	return models, others, err
}

//go:embed model/spec_examples.xml
var builtinXML []byte

//go:embed model/spec_examples.bin
var builtinBin []byte

// builtinName is the file name Builtin reports its rows under.
const builtinName = "spec_examples.xml"

// Builtin checks the IR model built into the package: the five examples of the OpenVINO Reshape-1
// specification, each a Reshape layer fed by a Const pattern, under the file name spec_examples.xml.
// All five rows are OK.
func Builtin() (*Report, error) {
	net, err := ir.Decode(bytes.NewReader(builtinXML))
	if err != nil {
		return nil, err
	}
	w := ir.NewWeights(bytes.NewReader(builtinBin), int64(len(builtinBin)), "spec_examples.bin")
	return IR(net, w, builtinName, Options{})
}

// BuiltinFiles returns the built-in model's .xml and .bin contents.
func BuiltinFiles() (xml, bin []byte) { return builtinXML, builtinBin }
