package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/reshape-go/reshape/check"
)

var checkCommand = &command{
	name:    "check",
	summary: "find every Reshape in model files and check it against the spec",
	usage: `Usage:
  reshape check [--bin PATH] [--run] [--json] [--dim NAME=VALUE]... [--input NAME=SHAPE]... [flags] [FILE|DIR...]

Finds every Reshape in each model file, infers its output shape, and compares it with the shape the
model declares. Files:
  - ONNX .onnx: the shape of every tensor is inferred through the whole graph from the graph inputs,
    with symbols for named and dynamic dims; every Reshape node is checked, those in If branches and
    Loop and Scan bodies included (Reshape-1 to Reshape-21, allowzero from Reshape-14); constants
    stored as external data are read from beside the model when needed;
  - OpenVINO IR .xml (IR v10 and v11), with the .bin beside it or --bin: the same inference from the
    Parameters, and every Reshape layer;
  - oneDNN Graph JSON .json (benchdnn format): every StaticReshape and DynamicReshape op.
A DIR stands for every .xml, .json and .onnx file in its tree. Without FILE it checks a built-in IR
model holding the five examples of the OpenVINO Reshape-1 specification.

The pattern comes from a constant (a Const layer, an initializer, a Constant node, an s64[]
attribute), or from the shape subgraph that computes it (Shape, Gather, Concat, Slice, arithmetic,
...), with dims that are integers, expressions in the model's symbols ('N', 'B*T', '(H+1)//2') or
intervals. Only a pattern that depends on run-time data (a graph input, a DynamicReshape input) is
inferred with its values unknown; its row is still a mismatch when the declared shape cannot have the
input's volume.

Flags:
  --bin PATH           the .bin weights of the one IR file given (default: the .xml path with .bin)
  --run                where an IR Reshape's data input is a Const (directly or through a Convert),
                       reshape the constant's bytes from the .bin and check the result's shape and size
                       against the declared output; the row gets a run verdict (column RUN)
  --dim NAME=VALUE     bind the symbol NAME to VALUE (repeatable; ONNX and IR)
  --input NAME=SHAPE   set the shape of graph input NAME, e.g. 'x=[1,3,32,100]' (repeatable)
  --json               print JSON Lines: a record per row ({"record":"reshape", file, id, name, op,
                       dialect, input, pattern, pattern_shape, pattern_source, special_zero or
                       allowzero, inferred, declared, verdict, message, run, stopped_by}), one per file
                       that could not be read ({"record":"file", file, error, message}), and a summary
                       record last ({"record":"summary", reshapes, nodes, ok, mismatch, inferred, error,
                       codes, run, run_ok, stopped_by, files, unreadable}); shapes are arrays
                       ([2,"B*T","?","1..8"]), null for a dynamic rank
` + limitsHelp + `
Output: one row per Reshape (and per other node whose inputs break its rule), with the verdict ok
(the declared shape can be the inferred one), mismatch (it cannot), inferred (nothing declared to
compare with) or an error code; the messages, which name the nodes that leave a dim undetermined;
then "N reshapes in F files: A ok, B mismatch, C inferred, D error".

Exit status: 0 when no row is mismatch or an error; 1 otherwise; 2 when a file cannot be read.

Examples:
  reshape check
  reshape check model.xml
  reshape check --dim N=1 --dim T=128 model.onnx
  reshape check --run --bin weights.bin model.xml
  reshape check ../shared/realdata
`,
}

// The JSON records of check --json: one per Reshape, one per file that could not be read, and the
// summary last.
type (
	rowRecord struct {
		Record string `json:"record"` // "reshape"
		check.Row
	}
	fileRecord struct {
		Record string `json:"record"` // "file"
		File   string `json:"file"`
		errorFields
	}
	summaryRecord struct {
		Record string `json:"record"` // "summary"
		check.Summary
	}
)

func runCheck(e *env, args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	bin := fs.String("bin", "", "")
	asJSON := fs.Bool("json", false, "")
	lim := addLimitFlags(fs)
	runConst := fs.Bool("run", false, "")
	dimFlags, inputFlags := addBindingFlags(fs)
	args, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(checkCommand, err)
	}
	dims, err := dimFlags.dims()
	if err != nil {
		return e.fail(checkCommand, err)
	}
	if err := checkIRFlags(args, *bin != "", *runConst); err != nil {
		return e.fail(checkCommand, err)
	}
	opt := check.Options{BinPath: *bin, MaxRank: lim.maxRank, Run: *runConst, MaxBytes: int64(lim.maxBytes), MaxFileSize: lim.fileLimit(),
		Dims: dims, Inputs: inputFlags.values}
	var rows []check.Row
	var sum check.Summary
	unreadable := func(file string, err error) {
		sum.Unreadable++
		e.reportInput(*asJSON, &fileRecord{Record: "file", File: file}, err)
	}
	read := func(r []check.Row) {
		sum.Files++
		rows = append(rows, r...)
		if *asJSON {
			for i := range r {
				e.emit(rowRecord{"reshape", r[i]})
			}
		}
	}
	if len(args) == 0 {
		r, err := check.Builtin()
		if err != nil {
			return e.fail(checkCommand, err)
		}
		read(r)
	}
	files, dirErrs := expandDirs(args)
	for _, de := range dirErrs {
		unreadable(de.dir, de.err)
	}
	for _, f := range files {
		r, err := check.File(f, opt)
		if err != nil {
			unreadable(f, err)
			continue
		}
		read(r)
	}
	counts := check.Summarize(rows)
	counts.Files, counts.Unreadable = sum.Files, sum.Unreadable
	sum = counts
	if *asJSON {
		if err := e.emit(summaryRecord{"summary", sum}); err != nil {
			return e.fail(checkCommand, err)
		}
	} else {
		if len(rows) > 0 {
			printRows(e.stdout, rows, e.colorOut)
		}
		fmt.Fprintln(e.stdout, sum)
	}
	switch {
	case sum.Unreadable > 0:
		return 2
	case !sum.AllOK():
		return 1
	}
	return 0
}

// checkIRFlags refuses --bin and --run where they would be ignored: --bin names the weights of
// exactly one IR file; --run runs IR constants, so it takes no file that is oneDNN Graph JSON or ONNX
// (a directory may hold both: --run applies to its IR files).
func checkIRFlags(args []string, bin, run bool) error {
	if bin && len(args) != 1 {
		return usagef("--bin names the weights of one IR file, and %d files are given", len(args))
	}
	for _, a := range args {
		st, err := os.Stat(a)
		dir := err == nil && st.IsDir()
		switch ext := strings.ToLower(filepath.Ext(a)); {
		case bin && dir:
			return usagef("--bin names the weights of one IR file, and %s is a directory", a)
		case bin && (ext == ".json" || ext == ".onnx"):
			return usagef("--bin names the weights of an IR file, and %s is not one: it would be ignored", a)
		case run && (ext == ".json" || ext == ".onnx"):
			return usagef("--run runs the constants of IR files, and %s is not one: it would be ignored", a)
		}
	}
	return nil
}

// expandDirs replaces each directory among args by the model files in it (check.ModelFiles), and
// returns the errors of the directories that cannot be read.
func expandDirs(args []string) (files []string, errs []dirError) {
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			files = append(files, a) // check.File reports what is wrong with it
			continue
		}
		found, err := check.ModelFiles(a)
		if err != nil {
			errs = append(errs, dirError{a, err})
		}
		files = append(files, found...)
	}
	return files, errs
}

// dirError is a directory that could not be read.
type dirError struct {
	dir string
	err error
}

// A column of the check table: its header and its cell in a row. A coloured column paints its cells
// and its header (every cell of a column coloured, so that it stays aligned).
type column struct {
	header string
	cell   func(r *check.Row) string
	paint  func(cell string) string // nil: plain
}

// printRows prints the rows as a table, then the message of each row that has one. With color, the
// verdicts are green, yellow or red.
func printRows(w io.Writer, rows []check.Row, color bool) {
	verdict := func(v string) string {
		if v == "" || v == "-" {
			return paint(color, bold, v)
		}
		return paintVerdict(color, v)
	}
	columns := []column{
		{"FILE", func(r *check.Row) string { return r.File }, nil},
		{"ID", func(r *check.Row) string { return r.ID }, nil},
		{"NAME", func(r *check.Row) string { return r.Name }, nil},
		{"INPUT", func(r *check.Row) string { return r.Input.String() }, nil},
		{"PATTERN", patternCell, nil},
		{"ZERO", func(r *check.Row) string { return r.Zero() }, nil},
		{"INFERRED", func(r *check.Row) string {
			if r.Inferred == nil {
				return "-"
			}
			return r.Inferred.String()
		}, nil},
		{"DECLARED", func(r *check.Row) string {
			if r.Declared == nil {
				return "-"
			}
			return r.Declared.String()
		}, nil},
		{"VERDICT", func(r *check.Row) string { return string(r.Verdict) }, verdict},
	}
	for _, r := range rows {
		if r.Run != "" {
			columns = append(columns, column{"RUN", func(r *check.Row) string { return cmp.Or(string(r.Run), "-") }, verdict})
			break
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	cells := make([]string, len(columns))
	for i, c := range columns {
		cells[i] = c.header
		if c.paint != nil {
			cells[i] = paint(color, bold, c.header)
		}
	}
	fmt.Fprintln(tw, strings.Join(cells, "\t"))
	for i := range rows {
		for k, c := range columns {
			cells[k] = c.cell(&rows[i])
			if c.paint != nil {
				cells[k] = c.paint(cells[k])
			}
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	for _, r := range rows {
		msg := strings.TrimSpace(r.Message)
		if len(r.Stopped) > 0 {
			msg = strings.TrimPrefix(msg+"; undetermined dims stop at "+strings.Join(r.Stopped, ", "), "; ")
		}
		if msg != "" {
			fmt.Fprintf(w, "%s: %s %s (%s): %s\n", r.File, r.Op, r.ID, r.Name, msg)
		}
	}
}

// patternCell shows a row's pattern: its values, marked when a shape subgraph computes them, or the
// shape of a pattern whose values are unknown.
func patternCell(r *check.Row) string {
	switch r.PatternSource {
	case check.PatternComputed:
		return r.Pattern.String() + " (computed)"
	case check.PatternUnknown:
		return "unknown " + r.PatternShape.String()
	}
	return r.Pattern.String()
}
