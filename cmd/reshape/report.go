package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/reshape-go/reshape/report"
)

var reportCommand = &command{
	name:    "report",
	summary: "write one self-contained HTML page of what check finds",
	usage: `Usage:
  reshape report [--dim NAME=VALUE]... [--input NAME=SHAPE]... [--batch-size N]
                 [--bin PATH] [--x SYMBOL] [--y SYMBOL] [--range LO..HI]
                 -o OUT.html MODEL

Writes one HTML file that opens offline, alone: the verdict in one sentence
first, then the size map (as reshape map draws it), the conditions with their
nodes, the inputs and symbols, the rows of check, every tensor in a table that
filters as one types, and a view of the graph (laid out by dagre) where the
nodes that impose a condition, lose precision or fail are marked; choosing a
condition shows its node, choosing a node its tensors. A large graph shows the
neighbourhood of the chosen node; search finds a node by name or operator. The
data are those of check --json and shapes --json.

Flags:
  --dim, --input, --batch-size, --bin
                       as for check: bind symbols, set inputs' shapes, the
                       batch, the .bin of an IR model
  --x, --y, --range    the map's axes and range, as for map
  -o, --out OUT.html   the file, written through a temporary file and renamed
                       into place ("-" for stdout); a name that does not end in
                       .html (or .htm), or the model, is refused before the
                       work. A MODEL of - is the model at stdin
` + limitsHelp(23) + `
Output: the page at OUT, and on stdout its verdict in one sentence, then the
notes check gives (a binding that binds less than it asks, an IR network read
without its .bin), which the page shows too (on stderr with -o -).

Exit status: 0 when the report is written (whatever the model's verdict: the
page says it); 2 for a usage error or a file that cannot be read.

Examples:
  reshape report -o report.html model.onnx
  reshape report --dim N=1 -o report.html model.xml
`,
}

func runReport(e *env, args []string) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	batchSize := fs.Int64("batch-size", 0, "")
	dimFlags, inputFlags := addBindingFlags(fs)
	mf := addMapFlags(fs)
	model, err := mf.parse(fs, args, ".html", "an HTML page")
	if err != nil {
		return e.fail(reportCommand, err)
	}
	dims, err := dimFlags.dims()
	if err != nil {
		return e.fail(reportCommand, err)
	}
	if *batchSize < 0 || isSet(fs, "batch-size") && *batchSize == 0 {
		return e.fail(reportCommand, usagef("--batch-size %d: want a positive integer", *batchSize))
	}
	path, err := e.modelPath(model)
	if err != nil {
		return e.fail(reportCommand, err)
	}
	opt := report.Options{Check: mf.check(), Axes: mf.axes, Name: model}
	opt.Check.Dims, opt.Check.Inputs, opt.Check.BatchSize = dims, inputFlags.values, *batchSize
	m, err := report.Load(path, opt)
	if err != nil {
		return e.fail(reportCommand, badInput(openHint(err, model, *mf.bin)))
	}
	var symbols []string
	for _, s := range m.Symbols {
		symbols = append(symbols, s.Name)
	}
	notes := bindingNotes(m.Bindings, symbols, *batchSize)
	for _, n := range notes {
		m.Notes = append(m.Notes, "note: "+n.Message)
	}
	for i := range m.Rows {
		m.Rows[i].Message = bindingFlags(m.Rows[i].Message)
	}
	for i := range m.Tensors {
		m.Tensors[i].Message = bindingFlags(m.Tensors[i].Message)
	}
	if err := e.writeOutput(*mf.out, func(w io.Writer) error { return report.WriteHTML(w, m) }); err != nil {
		return e.fail(reportCommand, err)
	}
	notesOut := e.stderr // stdout is the page
	if *mf.out != "-" {
		fmt.Fprintln(e.stdout, m.Verdict.Text)
		notesOut = e.stdout
	}
	printNotes(notesOut, "", notes)
	return 0
}
