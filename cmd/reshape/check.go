package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/reshape-go/reshape/check"
)

var checkCommand = &command{
	name:    "check",
	summary: "find every Reshape in model files and check it against the spec",
	usage: `Usage:
  reshape check [--bin PATH] [--json] [--max-rank N] [FILE...]

Finds every Reshape in each model file, infers its output shape, and compares it with the shape the
model declares. Files: OpenVINO IR .xml (IR v10 and v11; the .bin beside it, or --bin), oneDNN Graph
JSON (benchdnn format: StaticReshape and DynamicReshape ops). Without FILE it checks a built-in IR
model holding the five examples of the OpenVINO Reshape-1 specification.

A pattern that is not a constant (computed by a shape subgraph, or a DynamicReshape input) is
inferred with its values unknown: its row is ok when the result is compatible with the declared shape.

Flags:
  --bin PATH     the .bin weights of the IR file (default: the .xml path with .bin)
  --json         print JSON Lines: file, id, name, op, dialect, input, pattern, pattern_source,
                 special_zero, inferred, declared, verdict, message
  --run          where a Reshape's data input is a Const (directly or through a Convert), reshape the
                 constant's bytes from the .bin and check the result's shape and size against the
                 declared output; the row gets a run verdict (JSON field "run")
` + limitsHelp + `
Output: one row per Reshape, with the verdict ok, mismatch (the model declares another shape) or
the error code of an invalid reshape, then "N reshapes: A ok, B mismatch, C error".

Exit status: 0 when every Reshape is ok; 1 otherwise; 2 when a file cannot be read.

Examples:
  reshape check
  reshape check model.xml
  reshape check --json graph.json model.xml
`,
}

func init() { checkCommand.run = runCheck }

func runCheck(e *env, args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	bin := fs.String("bin", "", "")
	asJSON := fs.Bool("json", false, "")
	lim := addLimitFlags(fs)
	runConst := fs.Bool("run", false, "")
	files, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(checkCommand, err, false)
	}
	if *bin != "" && len(files) != 1 {
		return e.fail(checkCommand, usagef("--bin names the weights of one IR file, and %d files are given", len(files)), false)
	}
	opt := check.Options{BinPath: *bin, MaxRank: lim.maxRank, Run: *runConst, MaxBytes: int64(lim.maxBytes), MaxFileSize: lim.fileLimit()}
	var rows []check.Row
	unreadable := false
	if len(files) == 0 {
		if rows, err = check.Builtin(); err != nil {
			e.report(err)
			return 2
		}
	}
	for _, f := range files {
		r, err := check.File(f, opt)
		if err != nil {
			e.report(err)
			unreadable = true
			continue
		}
		rows = append(rows, r...)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		for _, r := range rows {
			if err := enc.Encode(r); err != nil {
				e.report(err)
				return 2
			}
		}
	} else if len(rows) > 0 {
		printRows(e.stdout, rows, e.colorOut)
	}
	sum := check.Summarize(rows)
	if !*asJSON {
		fmt.Fprintln(e.stdout, sum)
	}
	switch {
	case unreadable:
		return 2
	case !sum.AllOK():
		return 1
	}
	return 0
}

// printRows prints the rows as a table, then the message of each row that has one. With color, the
// verdicts are green, yellow or red (every cell of the column coloured, so that it stays aligned).
func printRows(w io.Writer, rows []check.Row, color bool) {
	verdict := func(v string) string {
		switch v {
		case check.OK:
			return paint(color, green, v)
		case check.Mismatch:
			return paint(color, yellow, v)
		case "", "-":
			return paint(color, bold, v)
		}
		return paint(color, red, v)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	run := false
	for _, r := range rows {
		run = run || r.Run != ""
	}
	header := "FILE\tID\tNAME\tINPUT\tPATTERN\tSPECIAL_ZERO\tINFERRED\tDECLARED\t" + paint(color, bold, "VERDICT")
	if run {
		header += "\t" + paint(color, bold, "RUN")
	}
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		pattern := r.Pattern.String()
		switch r.PatternSource {
		case check.PatternComputed:
			pattern += " (computed)"
		case check.PatternUnknown:
			pattern = "unknown " + r.Pattern.TensorShape().String()
		}
		inferred := "-"
		if r.Inferred != nil {
			inferred = r.Inferred.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%v\t%s\t%s\t%s", r.File, r.ID, r.Name, r.Input, pattern,
			r.SpecialZero, inferred, r.Declared, verdict(r.Verdict))
		if run {
			fmt.Fprintf(tw, "\t%s", verdict(cmp.Or(r.Run, "-")))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	for _, r := range rows {
		if r.Message != "" {
			fmt.Fprintf(w, "%s: %s %s (%s): %s\n", r.File, r.Op, r.ID, r.Name, strings.TrimSpace(r.Message))
		}
	}
}
