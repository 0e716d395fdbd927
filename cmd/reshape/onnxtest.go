package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
)

var onnxTestCommand = &command{
	name:    "run-onnx-test",
	summary: "run an ONNX backend node test of a single Reshape",
	usage: `Usage:
  reshape run-onnx-test DIR...

Runs ONNX backend node test directories whose model.onnx is a single Reshape node: for each
DIR/test_data_set_*, reshapes input_0.pb by the pattern of input_1.pb (or the shape attribute of
Reshape-1) with the model's allowzero, and compares the result with output_0.pb: shape, data type
and data bytes. Prints "DIR/test_data_set_N: pass" or "fail: why" per data set.

Exit status: 0 when every data set passes; 1 when one fails; 2 when a directory cannot be read.

Flags:
` + limitsHelp + `
Example:
  reshape run-onnx-test ../shared/conformance/onnx/test_reshape_*
`,
}

func init() {
	onnxTestCommand.run = runONNXTest
	commands = append(commands, onnxTestCommand)
}

func runONNXTest(e *env, args []string) int {
	fs := flag.NewFlagSet("run-onnx-test", flag.ContinueOnError)
	lim := addLimitFlags(fs)
	dirs, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(onnxTestCommand, err, false)
	}
	if len(dirs) == 0 {
		return e.fail(onnxTestCommand, usagef("want at least one test directory"), false)
	}
	status := 0
	for _, dir := range dirs {
		results, err := runNodeTest(dir, lim)
		if err != nil {
			e.report(err)
			status = 2
			continue
		}
		for _, r := range results {
			if r.err != nil {
				fmt.Fprintf(e.stdout, "%s: fail: %v\n", r.set, r.err)
				status = max(status, 1)
			} else {
				fmt.Fprintf(e.stdout, "%s: pass\n", r.set)
			}
		}
	}
	return status
}

type setResult struct {
	set string
	err error // nil when the data set passes
}

// runNodeTest runs the data sets of one ONNX backend node test directory. The error is a directory
// or model that cannot be read, or a model that is not a single Reshape.
func runNodeTest(dir string, lim *limits) ([]setResult, error) {
	if err := lim.checkFile(filepath.Join(dir, "model.onnx")); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "model.onnx"))
	if err != nil {
		return nil, err
	}
	m, err := onnx.DecodeModel(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "model.onnx"), err)
	}
	if len(m.Graph.Nodes) != 1 || m.Graph.Nodes[0].OpType != "Reshape" {
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: the model is not a single Reshape node", dir)
	}
	node := &m.Graph.Nodes[0]
	opset, _ := m.Opset("")
	opt := reshape.Options{Dialect: reshape.ONNX, SpecialZero: true, MaxRank: lim.maxRank}
	if a, ok := node.Attr("allowzero"); ok {
		opt.SpecialZero = a.I == 0
	}
	sets, err := filepath.Glob(filepath.Join(dir, "test_data_set_*"))
	if err != nil || len(sets) == 0 {
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: no test_data_set_* directory", dir)
	}
	sort.Strings(sets)
	results := make([]setResult, 0, len(sets))
	for _, set := range sets {
		results = append(results, setResult{set, runDataSet(set, node, opset, opt, lim)})
	}
	return results, nil
}

func runDataSet(set string, node *onnx.Node, opset int64, opt reshape.Options, lim *limits) error {
	data, _, _, err := load(filepath.Join(set, "input_0.pb"), lim)
	if err != nil {
		return err
	}
	var pattern reshape.Pattern
	if opset < 5 {
		a, ok := node.Attr("shape")
		if !ok {
			return errcode.Errorf(errcode.ErrSyntax, "Reshape-1 without a shape attribute")
		}
		pattern = reshape.IntPattern(a.Ints...)
	} else {
		p, _, _, err := load(filepath.Join(set, "input_1.pb"), lim)
		if err == nil {
			pattern, opt.PatternType, err = patternOf(p)
		}
		if err != nil {
			return err
		}
	}
	want, _, _, err := load(filepath.Join(set, "output_0.pb"), lim)
	if err != nil {
		return err
	}
	dims, err := outputShape(data.Shape(), data.Type(), pattern, opt)
	if err != nil {
		return err
	}
	got, _, err := data.ReshapedTo(dims...)
	if err != nil {
		return err
	}
	gb, _ := got.Contiguous().Bytes()
	wb, _ := want.Contiguous().Bytes()
	switch {
	case got.Type() != want.Type():
		return fmt.Errorf("element type %v, want %v", got.Type(), want.Type())
	case !slices.Equal(got.Shape(), want.Shape()):
		return fmt.Errorf("shape %v, want %v", got.Shape(), want.Shape())
	case !bytes.Equal(gb, wb):
		return fmt.Errorf("the data differs from output_0.pb")
	}
	return nil
}
