package main

import (
	"flag"
	"fmt"

	"github.com/reshape-go/reshape/conformance"
)

var onnxTestCommand = &command{
	name:    "run-onnx-test",
	summary: "run ONNX backend node tests of a single Reshape",
	usage: `Usage:
  reshape run-onnx-test [flags] DIR...

Runs ONNX backend node tests whose model.onnx is a single Reshape node. DIR is a
test directory (holding model.onnx and test_data_set_*), or a directory of them,
as ../shared/conformance/onnx is. For each DIR/test_data_set_*, reshapes
input_0.pb by the pattern of input_1.pb (or the shape attribute of Reshape-1)
with the model's allowzero, and compares the result with output_0.pb: data type,
shape, then data. Prints "DIR/test_data_set_N: pass" or "fail: why" per data
set, then "N data sets in T tests: P pass, F fail". A data set fails with the
error code of the reshape, or with mismatch when the result differs from
output_0.pb; one whose input_0.pb, input_1.pb or output_0.pb cannot be read is
"unreadable: CODE: why" and does not run.

Exit status: 0 when every data set passes; 1 when one fails; 2 when a test or a
data set cannot be read.

Flags:
  --json               print JSON Lines: a record per data set
                       ({"record":"data_set", set, result pass, fail or
                       unreadable, error, message}), one per test that could not
                       be read ({"record":"test", test, error, message}), and a
                       summary record last ({"record":"summary", data_sets,
                       tests, pass, fail, unreadable, unreadable_data_sets})
` + limitsHelp(23) + `
Examples:
  reshape run-onnx-test ../shared/conformance/onnx
  reshape run-onnx-test ../shared/conformance/onnx/test_reshape_zero_dim
`,
}

// The JSON records of run-onnx-test --json: one per data set, one per test that could not be read,
// and the summary last.
type (
	setRecord struct {
		Record string `json:"record"` // "data_set"
		Set    string `json:"set"`
		Result string `json:"result"` // "pass", "fail" or "unreadable"
		errorFields
	}
	testRecord struct {
		Record string `json:"record"` // "test"
		Test   string `json:"test"`
		errorFields
	}
	testSummaryRecord struct {
		Record string `json:"record"` // "summary"
		testSummary
	}
)

func runONNXTest(e *env, args []string) int {
	fs := flag.NewFlagSet("run-onnx-test", flag.ContinueOnError)
	lim := addLimitFlags(fs)
	asJSON := fs.Bool("json", false, "")
	paths, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(onnxTestCommand, err)
	}
	if len(paths) == 0 {
		return e.fail(onnxTestCommand, usagef("want at least one test directory"))
	}
	opt := conformance.NodeTestOptions{MaxRank: lim.maxRank, MaxBytes: lim.fileLimit()}
	var sum testSummary
	unreadable := func(path string, err error) {
		sum.Unreadable++
		e.reportInput(*asJSON, &testRecord{Record: "test", Test: path}, err)
	}
	for _, path := range paths {
		dirs, err := conformance.NodeTestDirs(path)
		if err != nil {
			unreadable(path, err)
			continue
		}
		for _, dir := range dirs {
			results, err := conformance.RunNodeTest(dir, opt)
			if err != nil {
				unreadable(dir, err)
				continue
			}
			sum.Tests++
			for _, r := range results {
				sum.Sets++
				switch {
				case r.FileErr != nil:
					sum.UnreadableSets++
				case r.Pass():
					sum.Pass++
				default:
					sum.Fail++
				}
				e.printSet(r, *asJSON)
			}
		}
	}
	if *asJSON {
		e.emit(testSummaryRecord{"summary", sum})
	} else {
		fmt.Fprintln(e.stdout, sum)
	}
	switch {
	case sum.Unreadable > 0 || sum.UnreadableSets > 0:
		return 2
	case sum.Fail > 0:
		return 1
	}
	return 0
}

// printSet prints the outcome of a data set: "SET: pass", "SET: fail: CODE: why" (CODE the error's
// code, or mismatch when the result differs from the expected output), "SET: unreadable: CODE:
// why" for a data set whose files could not be read, or its JSON record.
func (e *env) printSet(r conformance.SetResult, asJSON bool) {
	var fail errorFields
	result := "fail"
	switch {
	case r.FileErr != nil:
		fail.setError(r.FileErr)
		result = "unreadable"
	case r.Err != nil:
		fail.setError(r.Err)
	case r.Mismatch != "":
		fail = errorFields{"mismatch", r.Mismatch}
	}
	switch {
	case asJSON && r.Pass():
		e.emit(setRecord{Record: "data_set", Set: r.Set, Result: "pass"})
	case asJSON:
		e.emit(setRecord{"data_set", r.Set, result, fail})
	case r.Pass():
		fmt.Fprintf(e.stdout, "%s: %s\n", r.Set, paint(e.colorOut, green, "pass"))
	default:
		fmt.Fprintf(e.stdout, "%s: %s: %s: %s\n", r.Set, paint(e.colorOut, red, result), fail.Error, fail.Message)
	}
}

// testSummary counts node tests and their data sets.
type testSummary struct {
	Sets       int `json:"data_sets"`
	Tests      int `json:"tests"`
	Pass       int `json:"pass"`
	Fail       int `json:"fail"`
	Unreadable int `json:"unreadable"` // tests that could not be read
	// UnreadableSets counts the data sets whose files could not be read: they did not run.
	UnreadableSets int `json:"unreadable_data_sets"`
}

// String returns "N data sets in T tests: P pass, F fail", "; S data sets could not be read" and
// "; U tests could not be read" when some could not.
func (s testSummary) String() string {
	text := fmt.Sprintf("%s in %s: %d pass, %d fail", plural(s.Sets, "data set"), plural(s.Tests, "test"), s.Pass, s.Fail)
	if s.UnreadableSets > 0 {
		text += "; " + plural(s.UnreadableSets, "data set") + " could not be read"
	}
	if s.Unreadable > 0 {
		text += "; " + plural(s.Unreadable, "test") + " could not be read"
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
