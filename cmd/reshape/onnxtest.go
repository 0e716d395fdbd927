package main

import (
	"flag"
	"fmt"

	"github.com/reshape-go/reshape/conformance"
	"github.com/reshape-go/reshape/errcode"
)

var onnxTestCommand = &command{
	name:    "run-onnx-test",
	summary: "run ONNX backend node tests of a single Reshape",
	usage: `Usage:
  reshape run-onnx-test [flags] DIR...

Runs ONNX backend node tests whose model.onnx is a single Reshape node. DIR is a test directory
(holding model.onnx and test_data_set_*), or a directory of them, as ../shared/conformance/onnx is.
For each DIR/test_data_set_*, reshapes input_0.pb by the pattern of input_1.pb (or the shape
attribute of Reshape-1) with the model's allowzero, and compares the result with output_0.pb:
data type, shape, then data. Prints "DIR/test_data_set_N: pass" or "fail: why" per data set, then
"N data sets in T tests: P pass, F fail".

Exit status: 0 when every data set passes; 1 when one fails; 2 when a test cannot be read.

Flags:
` + limitsHelp + `
Examples:
  reshape run-onnx-test ../shared/conformance/onnx
  reshape run-onnx-test ../shared/conformance/onnx/test_reshape_zero_dim
`,
}

func runONNXTest(e *env, args []string) int {
	fs := flag.NewFlagSet("run-onnx-test", flag.ContinueOnError)
	lim := addLimitFlags(fs)
	paths, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(onnxTestCommand, err)
	}
	if len(paths) == 0 {
		return e.fail(onnxTestCommand, usagef("want at least one test directory"))
	}
	opt := conformance.NodeTestOptions{MaxRank: lim.maxRank, MaxBytes: lim.fileLimit()}
	var sum testSummary
	for _, path := range paths {
		dirs, err := conformance.NodeTestDirs(path)
		if err != nil {
			e.report(err)
			sum.unreadable++
			continue
		}
		for _, dir := range dirs {
			results, err := conformance.RunNodeTest(dir, opt)
			if err != nil {
				e.report(err)
				sum.unreadable++
				continue
			}
			sum.tests++
			for _, r := range results {
				sum.sets++
				if r.Err == nil {
					sum.pass++
					fmt.Fprintf(e.stdout, "%s: %s\n", r.Set, paint(e.colorOut, green, "pass"))
					continue
				}
				msg := r.Err.Error()
				if code := errcode.Code(r.Err); code != "" {
					msg = code + ": " + msg
				}
				fmt.Fprintf(e.stdout, "%s: %s: %s\n", r.Set, paint(e.colorOut, red, "fail"), msg)
			}
		}
	}
	fmt.Fprintln(e.stdout, sum)
	switch {
	case sum.unreadable > 0:
		return 2
	case sum.pass < sum.sets:
		return 1
	}
	return 0
}

// testSummary counts node tests and their data sets.
type testSummary struct {
	sets, tests, pass, unreadable int
}

// String returns "N data sets in T tests: P pass, F fail", and "; U tests could not be read" when
// some could not.
func (s testSummary) String() string {
	text := fmt.Sprintf("%s in %s: %d pass, %d fail", plural(s.sets, "data set"), plural(s.tests, "test"), s.pass, s.sets-s.pass)
	if s.unreadable > 0 {
		text += "; " + plural(s.unreadable, "test") + " could not be read"
	}
	return text
}

// plural returns "1 test", "2 tests".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
