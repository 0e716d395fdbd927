package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/check"
)

var shapesCommand = &command{
	name:    "shapes",
	summary: "infer the shape of every tensor of a model, with symbols",
	usage: `Usage:
  reshape shapes [--dim NAME=VALUE]... [--input NAME=SHAPE]... [--batch-size N]
                 [--json] [--quiet] [--allow-fixed-dims] [--bin PATH]
                 [--write OUT.onnx] MODEL.onnx|MODEL.xml|GRAPH.json

Infers the element type and shape of every tensor of the model from its graph
inputs, node by node, subgraphs (If, Loop, Scan) included, and compares each
with the shape the model declares. Dims are integers, expressions in the model's
symbols, or intervals: a named dimension (dim_param) is a symbol of its name, an
unnamed dynamic dim of a graph input the symbol INPUT:AXIS ('x:0'). An
expression uses + - * // / and parentheses: 'B*T', '(H+1)//2'; / is an exact
quotient. A MODEL of - is the model at stdin (a pipe, read whole; its format
told by its first bytes).

An OpenVINO IR .xml (IR v10 and v11), with the .bin beside it or --bin (without
one, the constants' values are unknown, and a note says so), is inferred from
its Parameters layer by layer: every output port of every layer but the Const
layers, named by the port's names attribute, else LAYER:PORT (the layer's name
and the port's id), and compared with the port's dims; a Parameter is named by
its name, which --input takes.

A oneDNN Graph JSON file (benchdnn format) is inferred op by op with oneDNN's
rules: every logical tensor by its id, compared with the shape the file declares
(a tensor two ops declare with shapes no tensor has both of is invalid-shape);
the inputs are the tensors no op outputs, which --input takes by id, an unknown
dim of one the symbol ltID:AXIS.

Flags:
  --dim NAME=VALUE     bind the symbol NAME to the integer VALUE (repeatable),
                       like onnxruntime's free-dimension overrides; with every
                       symbol bound, every shape is static
  --input NAME=SHAPE   set the shape of graph input NAME, e.g. 'x=[1,3,32,100]'
                       or 'x=[N,3,H,W]' (repeatable)
  --batch-size N       bind the batch dim of every input whose batch dim is
                       dynamic (the dim marked DATA_BATCH or the N of an IR
                       layout, else the leading one), as OpenVINO's set_batch
                       does
                       A binding of --dim, --input or --batch-size that binds
                       nothing in the model is an error of code binding (exit
                       2); one that binds less than it asks (inputs without a
                       batch dim), or an --input that changes a dim an ONNX
                       model declares static (onnxruntime refuses it, OpenVINO's
                       reshape accepts it), a note
  --bin PATH           the .bin weights of an IR model (default: the .xml path
                       with .bin)
  --quiet              print only the tensors that are wrong, the constraints if
                       one fixes a dim, and the summary; those not inferred
                       downstream of one error are one line, with their count
` + allowFixedHelp + `
  --json               print JSON Lines: one record per tensor (graph, name,
                       node, op, type, shape, declared, verdict, message), then
                       a summary record (file, tensors, verdicts, symbols,
                       unsupported, constraints, valid, fixed, notes: {flag,
                       name, message}), as check's
  --write OUT.onnx     write the ONNX model with the inferred shapes written in,
                       subgraphs included: static dims as dim_value, expressions
                       as dim_param; undeclared tensors added to value_info,
                       wrong declarations replaced, outputs without a shape
                       given one, and with bindings the inputs' bound shapes
                       (ONNX only: OpenVINO infers an IR network's port dims
                       again when it reads it); OUT must end in .onnx and not be
                       a directory nor the model, which is checked before the
                       work; with --write -, the model goes to stdout and the
                       rest of the output to stderr
` + limitsHelp(23) + `
Output: one row per tensor with its verdict: ok (the declared shape is the
inferred one at every binding that satisfies the constraints), mismatch (it is
not), inferred (nothing declared to compare with), the error code of a node
whose inputs break its rule (or that imposes a constraint the --dim bindings
break), unknown (downstream of such a node: not inferred) or stale (with --input
or --batch-size, or --dim on an IR network, a declaration of the model's old
input shapes: not compared); then the messages, "runs only when:" and a line per
constraint the nodes impose on the symbols (or "runs at every binding of N, H,
W") and where they may be incomplete, as check prints them, and a summary line
that counts each verdict, lists the symbols and names the operators that have no
shape rule. On a terminal, every line keeps to its width: a table too wide gives
each column of one value a line above it ("every row: VERDICT inferred"), then
long node names are shortened in the middle; when it still does not fit, symbols
longer than two characters get one-letter aliases with a legend ("symbols: B =
batch"), and shapes wrap onto more lines, between dims or tokens; other long
lines wrap, indented.

Exit status: 0 when no tensor is mismatch or an error and no constraint fixes a
dim the model declares dynamic (unless --allow-fixed-dims); 1 otherwise; 2 when
the model cannot be read, or a binding binds nothing in it (code binding).

Examples:
  reshape shapes model.onnx
  reshape shapes --dim N=1 --dim H=32 model.onnx
  reshape shapes --input 'x=[1,3,224,224]' --write model-shapes.onnx model.onnx
  reshape shapes --batch-size 2 --quiet model.xml
`,
}

// bindings is a repeatable NAME=VALUE flag.
type bindings struct {
	flag   string
	values map[string]string
}

func (b *bindings) String() string { return "" }

func (b *bindings) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(value) == "" {
		return usagef("--%s %q: want NAME=VALUE", b.flag, s)
	}
	if b.values == nil {
		b.values = map[string]string{}
	}
	name = strings.TrimSpace(name)
	if _, dup := b.values[name]; dup {
		return usagef("--%s %s is given twice", b.flag, name)
	}
	b.values[name] = strings.TrimSpace(value)
	return nil
}

// dims returns the --dim bindings as integers.
func (b *bindings) dims() (map[string]int64, error) { return b.ints(0, "a non-negative integer") }

// ints returns the bindings as integers of at least least, want saying what they must be in the
// usage error of one that is not; nil when there are none.
func (b *bindings) ints(least int64, want string) (map[string]int64, error) {
	if len(b.values) == 0 {
		return nil, nil
	}
	out := make(map[string]int64, len(b.values))
	for _, name := range slices.Sorted(maps.Keys(b.values)) {
		v := b.values[name]
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < least {
			return nil, usagef("--%s %s=%s: want %s", b.flag, name, v, want)
		}
		out[name] = n
	}
	return out, nil
}

// addBindingFlags adds --dim and --input to fs.
func addBindingFlags(fs *flag.FlagSet) (dims, inputs *bindings) {
	dims, inputs = &bindings{flag: "dim"}, &bindings{flag: "input"}
	fs.Var(dims, "dim", "")
	fs.Var(inputs, "input", "")
	return dims, inputs
}

// shapesSummary is the summary record of shapes --json.
type shapesSummary struct {
	Record      string                `json:"record"` // "summary"
	File        string                `json:"file"`
	Tensors     int                   `json:"tensors"`
	Verdicts    map[string]int        `json:"verdicts"`
	Symbols     []string              `json:"symbols"`
	Unsupported map[string]int        `json:"unsupported"`
	Constraints []check.Constraint    `json:"constraints"`
	Limits      []check.Constraint    `json:"limits"`
	Implied     []check.Implied       `json:"implied,omitempty"`
	Valid       check.Validity        `json:"valid"`
	Fixed       int                   `json:"fixed"`
	Fixes       []string              `json:"fixes,omitempty"`
	Sizes       map[string]check.Size `json:"sizes,omitempty"`
	Smallest    map[string]int64      `json:"smallest,omitempty"`
	Complete    bool                  `json:"complete"`
	Lost        []check.Loss          `json:"lost"`
	Warnings    []check.Warning       `json:"warnings"`
	Notes       []note                `json:"notes,omitempty"`
}

type tensorRecord struct {
	Record string `json:"record"` // "tensor"
	check.Tensor
}

func runShapes(e *env, args []string) int {
	fs := flag.NewFlagSet("shapes", flag.ContinueOnError)
	dimFlags, inputFlags := addBindingFlags(fs)
	batchSize := fs.Int64("batch-size", 0, "")
	asJSON := fs.Bool("json", false, "")
	quiet := fs.Bool("quiet", false, "")
	allowFixed := fs.Bool("allow-fixed-dims", false, "")
	write := fs.String("write", "", "")
	bin := fs.String("bin", "", "")
	lim := addLimitFlags(fs)
	args, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(shapesCommand, err)
	}
	if len(args) != 1 {
		return e.fail(shapesCommand, usagef("want one MODEL.onnx or MODEL.xml, got %d arguments", len(args)))
	}
	dims, err := dimFlags.dims()
	if err != nil {
		return e.fail(shapesCommand, err)
	}
	if *batchSize < 0 || isSet(fs, "batch-size") && *batchSize == 0 {
		return e.fail(shapesCommand, usagef("--batch-size %d: want a positive integer", *batchSize))
	}
	// The output path is checked before the work: a name that is not an ONNX model's, a directory,
	// the model itself.
	if err := outputPathError("--write", *write, args[0], ".onnx", "an ONNX model"); err != nil {
		return e.fail(shapesCommand, err)
	}
	opt := check.Options{BinPath: *bin, MaxRank: lim.maxRank, MaxFileSize: lim.fileLimit(), Dims: dims, Inputs: inputFlags.values, BatchSize: *batchSize}
	stdin, err := e.stdinPath(args)
	if err != nil {
		return e.fail(shapesCommand, err)
	}
	g, err := openModel(args[0], opt, stdin)
	if err != nil {
		return e.fail(shapesCommand, badInput(openHint(err, args[0], *bin)))
	}
	s, err := check.GraphShapes(g, args[0], opt)
	if err != nil {
		g.Close()
		return e.fail(shapesCommand, badInput(err))
	}
	defer s.Close()
	for i := range s.Tensors {
		s.Tensors[i].Message = bindingFlags(s.Tensors[i].Message)
	}
	// The output is made before anything is printed: a path that cannot be written, or a model that
	// cannot be written there, fails alone.
	var out *outFile
	var model []byte
	if *write != "" && s.Dialect != reshape.ONNX {
		return e.fail(shapesCommand, usagef("--write %s: %s is an OpenVINO IR network, and --write writes ONNX models only "+
			"(OpenVINO infers an IR network's port dims again when it reads it; --json gives the inferred shapes)", *write, args[0]))
	}
	if *write != "" {
		if model, err = s.WithValueInfo(filepath.Dir(*write)); err != nil {
			return e.fail(shapesCommand, badInput(fmt.Errorf("--write %s: %w", *write, err)))
		}
		if out, err = e.create(*write); err != nil {
			return e.fail(shapesCommand, err)
		}
	}
	e.names = newFloatNames()
	e.names.model(s.Symbols)
	if *write == "-" {
		// The model takes stdout: the tensors, the conditions and the summary go to stderr.
		toErr := *e
		toErr.stdout, toErr.colorOut, toErr.width = e.stderr, e.colorErr, terminalWidth(e.stderr)
		e = &toErr
	}
	counts := map[string]int{}
	for _, t := range s.Tensors {
		counts[string(t.Verdict)]++
	}
	shown := s.Tensors
	var causes []cause
	if *quiet {
		shown = slices.DeleteFunc(slices.Clone(shown), func(t check.Tensor) bool {
			return t.Verdict == check.OK || t.Verdict == check.Inferred || t.Verdict == check.Stale
		})
		if !*asJSON {
			shown, causes = byCause(shown, func(t *check.Tensor) (string, check.Verdict, string) { return "", t.Verdict, t.Message })
		}
	}
	fixed := fixedCount(s.Constraints)
	notes := bindingNotes(s.Bindings, s.Symbols, *batchSize)
	if *asJSON {
		for _, t := range shown {
			e.emit(tensorRecord{"tensor", t})
		}
		e.emitSummary(shapesSummary{Record: "summary", File: s.File, Tensors: len(s.Tensors), Verdicts: counts, Symbols: s.Symbols,
			Unsupported: s.Unsupported, Constraints: append([]check.Constraint{}, s.Constraints...),
			Limits: append([]check.Constraint{}, s.Limits...), Implied: s.Implied,
			Valid: s.Valid(), Fixed: fixed, Fixes: s.Fixes, Sizes: s.SizeRecords(s.File), Smallest: s.Sizes.Smallest,
			Complete: s.Complete, Lost: append([]check.Loss{}, s.Lost...), Warnings: append([]check.Warning{}, s.Warnings...), Notes: notes})
	} else {
		stdout, flush := e.textOut()
		defer flush()
		if len(shown) > 0 {
			printTensors(stdout, shown, s.Symbols, e.colorOut, e.width, e.names)
		}
		for i := range causes {
			causes[i].message = e.names.rename(causes[i].message)
		}
		e.names.flush(stdout)
		for _, c := range causes {
			c.print(stdout, "tensor")
		}
		c := conditions{symbols: s.Symbols, Conditions: s.Conditions, valid: s.Valid(), complete: s.Complete, lost: s.Lost, names: e.names}
		c.print(stdout, *quiet, *allowFixed)
		printNotes(stdout, "", notes)
		fmt.Fprintln(stdout, shapesLine(s, counts, fixed))
	}
	if out != nil {
		if _, err := out.Write(model); err != nil {
			out.abort()
			return e.fail(shapesCommand, outputError(*write, err))
		}
		if err := out.commit(); err != nil {
			return e.fail(shapesCommand, err)
		}
	}
	if counts[string(check.Mismatch)] > 0 || errorCount(s, counts) > 0 || (fixed > 0 || len(s.Fixes) > 0) && !*allowFixed {
		return 1
	}
	return 0
}

// errorCount returns the number of tensors whose verdict is an error code.
func errorCount(s *check.Shapes, counts map[string]int) int {
	return len(s.Tensors) - counts["ok"] - counts["mismatch"] - counts["inferred"] - counts["unknown"] - counts["stale"] - counts["avoidable"]
}

// shapesLine is the summary: "N tensors: A ok, B mismatch, C inferred, D error" (", U unknown"
// when some are downstream of an error, ", S stale", ", A avoidable" when some are outputs of an
// If branch a run avoids), "; symbols: B, T", the conditions (check.ConditionsNote: "; C
// constraints, of which X fix a dim; L limits"), "; the conditions may be incomplete: ..." and
// "; no shape rule: Conv (3)".
func shapesLine(s *check.Shapes, counts map[string]int, fixed int) string {
	line := fmt.Sprintf("%d tensors: %d ok, %d mismatch, %d inferred, %d error", len(s.Tensors), counts["ok"], counts["mismatch"], counts["inferred"], errorCount(s, counts))
	for _, v := range []string{"unknown", "stale", "avoidable"} {
		if counts[v] > 0 {
			line += fmt.Sprintf(", %d %s", counts[v], v)
		}
	}
	if len(s.Symbols) > 0 {
		line += "; symbols: " + strings.Join(s.Symbols, ", ")
	}
	line += check.ConditionsNote(len(s.Constraints), len(s.Limits), fixed, s.Fixes)
	if !s.Complete {
		line += "; the conditions may be incomplete: " + check.LostNote(s.Lost)
	}
	if len(s.Unsupported) > 0 {
		line += "; no shape rule: " + opCounts(s.Unsupported)
	}
	return line
}

// printTensors prints the tensors as a table, then the message of each that has one. A width
// above 0 (a terminal's) keeps the table's lines to it (fitTable); symbols are the model's symbols.
// The sizes computed in floating point are written by their names (floatNames), defined above the
// table.
func printTensors(w io.Writer, ts []check.Tensor, symbols []string, color bool, width int, floats *floatNames) {
	// A buffer under the tabwriter, which writes each cell and its padding on its own: a system
	// call a 64 KiB block, not a cell (1,304,130 for the 100,000 tensors of the wide graph of bench/gen, 105 with it).
	bw := bufio.NewWriterSize(w, 64<<10)
	defer bw.Flush()
	table := [][]string{{"TENSOR", "OP", "TYPE", "SHAPE", "DECLARED", "VERDICT"}}
	for _, t := range ts {
		name := t.Name
		if t.Graph != "" {
			name = t.Graph + "/" + t.Name
		}
		declared := "-"
		if t.Declared != nil {
			declared = t.Declared.String()
		}
		typ, shape := t.Type.String(), t.Shape.String()
		switch {
		case t.Length != nil: // a sequence: its type holds its elements' shape
			typ, shape = t.Value, "len "+t.Length.String()
		case t.Value != "":
			typ, shape = t.Value, "-"
		}
		table = append(table, []string{name, dash(t.Op), typ, floats.rename(shape), floats.rename(declared), string(t.Verdict)})
	}
	var messages []string
	for _, t := range ts {
		if t.Message != "" && t.Verdict != check.Inferred {
			messages = append(messages, t.Name+": "+floats.rename(t.Message))
		}
	}
	floats.flush(bw)
	table, keep, above := fitTable(table, []bool{true, false, false, false, false, false}, []bool{false, false, false, true, true, false}, symbols, width)
	for _, l := range above {
		fmt.Fprintln(bw, l)
	}
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	for i, cells := range table {
		if v := slices.Index(keep, 5); v < 0 {
		} else if i == 0 {
			cells[v] = paint(color, bold, cells[v])
		} else {
			cells[v] = paintVerdict(color, cells[v])
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	for _, m := range messages {
		fmt.Fprintln(bw, m)
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// paintVerdict colours a verdict: ok green, mismatch and avoidable yellow, inferred and unknown
// plain, errors red.
func paintVerdict(color bool, v string) string {
	switch check.Verdict(v) {
	case check.OK:
		return paint(color, green, v)
	case check.Mismatch, check.Avoidable:
		return paint(color, yellow, v)
	case check.Inferred, check.Unknown, check.Stale:
		return v
	}
	return paint(color, red, v)
}
