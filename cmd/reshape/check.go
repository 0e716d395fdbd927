package main

import (
	"bufio"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"text/tabwriter"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
)

var checkCommand = &command{
	name:    "check",
	summary: "check every Reshape of model files against the spec",
	usage: `Usage:
  reshape check [--bin PATH] [--run] [--json] [--quiet] [--dim NAME=VALUE]...
                [--input NAME=SHAPE]... [--batch-size N] [--allow-fixed-dims]
                [flags] [FILE|DIR...]

Finds every Reshape in each model file, infers its output shape, and compares it
with the shape the model declares. Files:
  - ONNX .onnx: the shape of every tensor is inferred through the whole graph
    from the graph inputs, with symbols for named and dynamic dims; every
    Reshape node is checked, those in If branches and Loop and Scan bodies
    included (Reshape-1 to Reshape-21, allowzero from Reshape-14); constants
    stored as external data are read from beside the model when needed;
  - OpenVINO IR .xml (IR v10 and v11), with the .bin beside it or --bin: the
    same inference from the Parameters, and every Reshape layer, those in
    TensorIterator, Loop and If bodies included; without a .bin beside it, the
    constants' values are unknown, and a note says so;
  - oneDNN Graph JSON .json (benchdnn format): every op inferred, every
    StaticReshape and DynamicReshape, every op whose declared output differs,
    every logical tensor declared with two shapes.
A DIR stands for every model in its tree: .onnx files, .xml files of an IR
<net>, .json files of oneDNN Graph; other .xml and .json files (package.json,
pom.xml) are skipped with a note, and a tree without a model is an error. - is
the model at stdin (a pipe, read whole; its format told by its first bytes, as
for a file of another extension), named "-" in the rows. Files are checked in
parallel on every core, and reported in order.
Without FILE it checks a built-in IR model holding the five examples of the
OpenVINO Reshape-1 specification.

The pattern comes from a constant (a Const layer, an initializer, a Constant
node, an s64[] attribute), or from the shape subgraph that computes it (Shape,
Gather, Concat, Slice, arithmetic, ...), with dims that are integers,
expressions in the model's symbols ('N', 'B*T', '(H+1)//2') or intervals. Only a
pattern that depends on run-time data (a graph input, a DynamicReshape input) is
inferred with its values unknown; its row is still a mismatch when the declared
shape cannot have the input's volume.

Flags:
  --bin PATH           the .bin weights of the one IR file given (default: the
                       .xml path with .bin)
  --run                where an IR Reshape's data input is a Const (directly or
                       through a Convert), reshape the constant's bytes from the
                       .bin and check the result's shape and size against the
                       declared output; the row gets a run verdict (column RUN)
  --dim NAME=VALUE     bind the symbol NAME to VALUE (repeatable; a oneDNN
                       Graph's are ltID:AXIS)
  --input NAME=SHAPE   set the shape of graph input NAME, e.g. 'x=[1,3,32,100]'
                       (repeatable); one that changes a dim an ONNX model
                       declares static, or its rank, gets a note: onnxruntime
                       refuses such an input, OpenVINO's reshape accepts it
  --batch-size N       bind the batch dim of every input, as OpenVINO's
                       set_batch does: the dim the model marks, static or not
                       (ONNX denotation DATA_BATCH; the N of an IR layout, else
                       the leading dim of an IR Parameter without one), else the
                       leading dim when it is dynamic; one flag for a zoo whose
                       models name their batches N, B, batch_size or x:0
                       A binding of --dim, --input or --batch-size that binds
                       nothing in the one model given is an error of code
                       binding (exit 2); given several models, a note for each
                       model it binds nothing in, which is checked without it
  --quiet              print only the rows that are wrong (mismatch, an error,
                       unknown, a failed run), the constraints of a model that
                       fix a dim, and the summary; the rows not inferred
                       downstream of one error are one line, with their count
` + allowFixedHelp + `
  --json               print JSON Lines: a record per row ({"record":"reshape",
                       file, id, name, op, dialect, input, pattern,
                       pattern_shape, pattern_source, special_zero or allowzero,
                       inferred, declared, verdict, message, run, stopped_by,
                       tensor}), one per file that could not be read
                       ({"record":"file", file, error, message}), and a summary
                       record last ({"record":"summary", reshapes, nodes,
                       declared, ok, mismatch, inferred, error, codes, unknown,
                       stale, run, run_ok, stopped_by, constraints, valid,
                       fixed, complete, lost, incomplete, files, unreadable,
                       skipped}, constraints an array of {holds, node, op, why,
                       fixes, file}, lost of {node, op, tensor, why, run_time,
                       file}); a file of a directory that is not a model is
                       {"record":"skipped", file, reason}; a note on a binding
                       or on a missing .bin {"record":"note", file, flag, name,
                       message}; an IR network's batch study is
                       {"record":"batch", file, symbol, inputs, valid,
                       constraints, implied, fixes, sizes, smallest, failed,
                       complete, lost}, a Reshape that absorbs the batch
                       {"record":"absorbed", file, reshape, batch, axis, dim,
                       mixer, mixer_op, why}; shapes are arrays
                       ([2,"B*T","?","1..8"]), null for a dynamic rank
` + limitsHelp(23) + `
Output: one row per Reshape (and per other node whose inputs break its rule, or
that imposes a constraint the --dim bindings break: 'N == 1 does not hold at
N=2', and per declared output of another node that the rules do not give:
mismatch, with tensor in JSON), with the verdict ok (the declared shape is the
inferred one at every binding that satisfies the constraints), mismatch (it is
not: the message says when they are equal, if ever), inferred (nothing declared
to compare with), an error code, unknown (not inferred: downstream of a node
whose inputs break its rule) or stale (with --input, --batch-size, or --dim on
an IR network, a declaration of the model's old input shapes that the rules no
longer give: not compared); the messages of the rows that are not ok, which name
the nodes that leave a dim undetermined; for each model with symbols left free,
"FILE runs only when:" and a line per constraint the nodes impose on them (the
predicate, the node, its operator and why: 'N == 1 /MatMul (MatMul): the inner
dims; fixes N'), or "FILE runs at every binding of N, H, W"; where the rules
could not state what a node needs, "FILE these conditions may be incomplete:"
and the places where precision is lost, apart from the sizes only a run decides;
a Reshape whose -1 absorbs the batch into an axis a later node mixes; for an IR
network whose Parameters declare a static batch, without bindings, the batch
study: the network inferred again with that batch (the dim --batch-size binds)
the symbol N, "FILE at a free batch N: runs only when:" and its conditions,
apart from the model's own; in an IR network, a condition names the OpenVINO
blocker that causes it: hard-coded-reshape (a constant pattern), constant-matmul
(a MatMul's constant operand fixes the contracted dim), global-pool (a pool
whose kernel is its input's declared spatial size, "at POOL" downstream of it);
then "N reshapes in F files: A ok, B mismatch, C inferred, D error". A
predicate is written in the dim notation with % (Python's remainder), min, max,
== != < <= > >=, !, && and ||. On a terminal, every line keeps to its width: a
table too wide names the directory its files share once ("files under models/"),
gives each column of one value a line above it ("every row: FILE a.onnx") and
the key of a column of key=value cells to its header (SPECIAL_ZERO), then
shortens long node names in the middle and file names from the left; when it
still does not fit, symbols longer than two characters get one-letter aliases
with a legend ("symbols: B = batch"), and shapes wrap onto more lines, between
dims or tokens (at 80 columns, names and shapes narrower still); other long
lines wrap, indented.

Exit status: 0 when no row is mismatch or an error, no constraint fixes a dim
the model declares dynamic (unless --allow-fixed-dims), and no Reshape absorbs a
batch that --batch-size asks for above 1; 1 otherwise; 2 when a file cannot be
read, or a binding binds nothing in the one model given (code binding). The
batch study never changes it: a network that runs as declared passes;
--batch-size N asks for a batch. With every symbol bound, 1 says that the model
does not run at that binding (or declares a shape the rules do not give there).

Examples:
  reshape check
  reshape check model.xml
  reshape check --dim N=1 --dim T=128 model.onnx
  reshape check --batch-size 8 --quiet models/
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
	skippedRecord struct {
		Record string `json:"record"` // "skipped"
		File   string `json:"file"`
		Reason string `json:"reason"`
	}
	// batchRecord is an IR network's batch study (check.BatchStudy), apart from the model's own
	// conditions, which the summary holds.
	batchRecord struct {
		Record      string                `json:"record"` // "batch"
		File        string                `json:"file"`
		Symbol      string                `json:"symbol"`
		Inputs      []string              `json:"inputs"`
		Valid       check.Validity        `json:"valid"`
		Constraints []check.Constraint    `json:"constraints"`
		Limits      []check.Constraint    `json:"limits"`
		Implied     []check.Implied       `json:"implied,omitempty"`
		Fixes       []string              `json:"fixes,omitempty"`
		Sizes       map[string]check.Size `json:"sizes,omitempty"`
		Smallest    map[string]int64      `json:"smallest,omitempty"`
		Failed      []string              `json:"failed,omitempty"`
		Complete    bool                  `json:"complete"`
		Lost        []check.Loss          `json:"lost"`
	}
	// absorbedRecord is a Reshape that absorbs the batch into a mixed axis (check.Absorbed).
	absorbedRecord struct {
		Record string `json:"record"` // "absorbed"
		File   string `json:"file"`
		check.Absorbed
	}
)

// newBatchRecord returns the record of the batch study of the report of file.
func newBatchRecord(file string, b *check.BatchStudy) batchRecord {
	return batchRecord{Record: "batch", File: file, Symbol: b.Symbol, Inputs: b.Inputs, Valid: b.Valid(),
		Constraints: append([]check.Constraint{}, b.Constraints...), Limits: append([]check.Constraint{}, b.Limits...), Implied: b.Implied, Fixes: b.Fixes, Sizes: b.SizeRecords(file),
		Smallest: b.Sizes.Smallest, Failed: b.Failed, Complete: b.Complete, Lost: append([]check.Loss{}, b.Lost...)}
}

func runCheck(e *env, args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	bin := fs.String("bin", "", "")
	asJSON := fs.Bool("json", false, "")
	lim := addLimitFlags(fs)
	runConst := fs.Bool("run", false, "")
	quiet := fs.Bool("quiet", false, "")
	allowFixed := fs.Bool("allow-fixed-dims", false, "")
	dimFlags, inputFlags := addBindingFlags(fs)
	batchSize := fs.Int64("batch-size", 0, "")
	args, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(checkCommand, err)
	}
	dims, err := dimFlags.dims()
	if err != nil {
		return e.fail(checkCommand, err)
	}
	if *batchSize < 0 || isSet(fs, "batch-size") && *batchSize == 0 {
		return e.fail(checkCommand, usagef("--batch-size %d: want a positive integer", *batchSize))
	}
	if err := checkIRFlags(args, *bin != "", *runConst); err != nil {
		return e.fail(checkCommand, err)
	}
	e.names = newFloatNames()
	opt := check.Options{BinPath: *bin, MaxRank: lim.maxRank, Run: *runConst, MaxBytes: int64(lim.maxBytes), MaxFileSize: lim.fileLimit(),
		Dims: dims, Inputs: inputFlags.values, BatchSize: *batchSize}
	var reports []*check.Report
	var sum check.Summary
	unreadable := func(file string, err error) {
		err = openHint(err, file, *bin)
		sum.Unreadable++
		e.reportInput(*asJSON, &fileRecord{Record: "file", File: file}, err)
	}
	read := func(rep *check.Report) {
		for i := range rep.Rows {
			rep.Rows[i].Message = bindingFlags(rep.Rows[i].Message)
		}
		reports = append(reports, rep)
		if *asJSON {
			e.names.model(rep.Symbols)
			for i := range rep.Rows {
				if !*quiet || problem(&rep.Rows[i]) {
					e.emit(rowRecord{"reshape", rep.Rows[i]})
				}
			}
			for _, n := range bindingNotes(rep.Bindings, rep.Symbols, *batchSize) {
				n.Record, n.File = "note", rep.File
				e.emit(n)
			}
			for _, a := range rep.Absorbed {
				e.emit(absorbedRecord{"absorbed", rep.File, a})
			}
			if rep.Batch != nil {
				e.emit(newBatchRecord(rep.File, rep.Batch))
			}
		}
	}
	if len(args) == 0 {
		rep, err := check.Builtin()
		if err != nil {
			return e.fail(checkCommand, err)
		}
		read(rep)
	}
	files, skipped, dirErrs := expandDirs(args)
	for _, de := range dirErrs {
		unreadable(de.dir, de.err)
	}
	for _, s := range skipped {
		sum.Skipped++
		if *asJSON {
			e.emit(skippedRecord{"skipped", s.Path, s.Why})
		} else if !*quiet {
			fmt.Fprintf(e.stderr, "reshape: note: %s: not a model, skipped: %s\n", s.Path, s.Why)
		}
	}
	// Bindings given for several models (a directory of them) are for those that have the names
	// they bind.
	opt.SharedBindings = len(files) > 1 || slices.ContainsFunc(args, isDir)
	stdin, err := e.stdinPath(files)
	if err != nil {
		return e.fail(checkCommand, err)
	}
	for res := range checkFiles(files, opt, stdin) {
		if errors.Is(res.err, errcode.ErrBinding) { // one model, which a flag binds nothing in
			if *asJSON {
				return e.failJSON(checkCommand, badInput(res.err), &fileRecord{Record: "file", File: res.file})
			}
			return e.fail(checkCommand, badInput(res.err))
		}
		if res.err != nil {
			unreadable(res.file, res.err)
			continue
		}
		read(res.report)
	}
	counts := check.Summarize(reports)
	counts.Skipped = sum.Skipped
	counts.Unread(sum.Unreadable)
	sum = counts
	if *asJSON {
		if err := e.emitSummary(summaryRecord{"summary", sum}); err != nil {
			return e.fail(checkCommand, err)
		}
	} else {
		stdout, flush := e.textOut()
		defer flush()
		var rows []check.Row
		var symbols []string
		for _, rep := range reports {
			rows = append(rows, rep.Rows...)
			for _, s := range rep.Symbols {
				if !slices.Contains(symbols, s) {
					symbols = append(symbols, s)
				}
			}
		}
		e.names.model(symbols)
		var causes []cause
		if *quiet {
			rows = slices.DeleteFunc(rows, func(r check.Row) bool { return !problem(&r) })
			rows, causes = byCause(rows, func(r *check.Row) (string, check.Verdict, string) { return r.File, r.Verdict, r.Message })
		}
		if len(rows) > 0 {
			printRows(stdout, rows, symbols, e.colorOut, e.width, e.names)
		}
		for i := range causes {
			causes[i].message = e.names.rename(causes[i].message)
		}
		e.names.flush(stdout)
		for _, c := range causes {
			c.print(stdout, "Reshape")
		}
		for _, rep := range reports {
			c := conditions{who: rep.File + " ", symbols: rep.Symbols, Conditions: rep.Conditions, valid: rep.Valid(), complete: rep.Complete, lost: rep.Lost,
				names: e.names}
			c.print(stdout, *quiet, *allowFixed)
			printNotes(stdout, rep.File+": ", bindingNotes(rep.Bindings, rep.Symbols, *batchSize))
			for _, a := range rep.Absorbed {
				fmt.Fprintf(stdout, "%s: %s", rep.File, a)
				if *batchSize > 1 {
					fmt.Fprintf(stdout, " (--batch-size %d asks for one: exit status 1)", *batchSize)
				}
				fmt.Fprintln(stdout)
			}
			if b := rep.Batch; b != nil {
				c := conditions{who: rep.File + " at a free batch " + b.Symbol + ": ", symbols: b.Symbols, Conditions: b.Conditions,
					valid: b.Valid(), complete: b.Complete, lost: b.Lost, names: e.names}
				c.print(stdout, *quiet, false)
				for _, f := range b.Failed {
					fmt.Fprintf(stdout, "%sfails at every batch: %s\n", c.who, f)
				}
			}
		}
		fmt.Fprintln(stdout, sum)
	}
	switch {
	case sum.Unreadable > 0:
		return 2
	case !sum.AllOK(), (sum.Fixed > 0 || len(sum.Fixes) > 0) && !*allowFixed, sum.Absorbed > 0 && *batchSize > 1:
		return 1
	}
	return 0
}

// openHint returns the error of opening the model file path with what may help: the flag that
// names an IR network's weights when err says that the .bin beside the .xml (bin "") could not be
// read; the format the file's first bytes show when it does not follow the format of its extension
// (an ONNX model saved as model.xml).
func openHint(err error, path, bin string) error {
	if bin == "" && errors.As(err, new(*graph.WeightsError)) {
		return fmt.Errorf("%w (the .bin beside the .xml; give another with --bin)", err)
	}
	if !errors.Is(err, errcode.ErrSyntax) {
		return err
	}
	f, ferr := os.Open(path)
	if ferr != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 1)
	if _, ferr := io.ReadFull(f, head); ferr != nil {
		return err
	}
	ext := strings.ToLower(filepath.Ext(path))
	switch {
	case head[0] == 0x08 && ext != ".onnx": // protobuf's tag of ModelProto.ir_version
		return fmt.Errorf("%w (its first bytes are an ONNX model's: is it misnamed? name it .onnx)", err)
	case head[0] == '<' && ext != ".xml":
		return fmt.Errorf("%w (it starts with '<', as an OpenVINO IR .xml does: is it misnamed? name it .xml)", err)
	case head[0] == '{' && ext != ".json":
		return fmt.Errorf("%w (it starts with '{', as a oneDNN Graph .json does: is it misnamed? name it .json)", err)
	}
	return err
}

// bindingFlags returns the message of a row or tensor with the flags that give bindings named
// where the message of a declaration for old inputs (check.Stale) says "with the bindings given".
func bindingFlags(msg string) string {
	return strings.Replace(msg, "with the bindings given the rules give", "with the bindings given (--input, --dim, --batch-size) the rules give", 1)
}

// problem reports whether a row says something is wrong: a mismatch, an error, a row not inferred
// downstream of an error, a failed run on constant data. --quiet shows only these.
func problem(r *check.Row) bool {
	return r.Verdict != check.OK && r.Verdict != check.Inferred && r.Verdict != check.Stale || r.Run != "" && r.Run != check.OK
}

// cause is a message that items not inferred downstream of an error (verdict unknown) share in
// one file, and how many share it: --quiet prints it once, with the count, in place of the items.
type cause struct {
	file, message string
	n             int
}

// byCause returns the items of xs that are not unknown, and the causes of those that are, in the
// order of their first item. of gives an item's file, verdict and message.
func byCause[T any](xs []T, of func(*T) (file string, v check.Verdict, msg string)) ([]T, []cause) {
	var rest []T
	var causes []cause
	for i := range xs {
		file, v, msg := of(&xs[i])
		if v != check.Unknown {
			rest = append(rest, xs[i])
			continue
		}
		k := slices.IndexFunc(causes, func(c cause) bool { return c.file == file && c.message == msg })
		if k < 0 {
			k = len(causes)
			causes = append(causes, cause{file: file, message: msg})
		}
		causes[k].n++
	}
	return rest, causes
}

// print writes the cause as a line: "FILE: 159 Reshapes not inferred: ..." (no "FILE: " when
// file is ""), noun naming the items.
func (c cause) print(w io.Writer, noun string) {
	if c.file != "" {
		fmt.Fprintf(w, "%s: ", c.file)
	}
	fmt.Fprintf(w, "%s %s\n", plural(c.n, noun), cmp.Or(c.message, "not inferred"))
}

// fileResult is the outcome of checking one file.
type fileResult struct {
	file   string
	report *check.Report
	err    error
}

// checkFiles checks the files on every core (check.File is safe for concurrent use) and yields
// their results in the order of files, each as soon as it and those before it are done. A file
// "-" is the model at stdin, the path of the file that stdin reads (stdinPath).
func checkFiles(files []string, opt check.Options, stdin string) iter.Seq[fileResult] {
	return func(yield func(fileResult) bool) {
		results := make([]fileResult, len(files))
		done := make([]chan struct{}, len(files))
		for i := range done {
			done[i] = make(chan struct{})
		}
		var next atomic.Int64
		stop := make(chan struct{})
		defer close(stop)
		for range min(runtime.GOMAXPROCS(0), len(files)) {
			go func() {
				for {
					i := int(next.Add(1) - 1)
					if i >= len(files) {
						return
					}
					select {
					case <-stop:
						return
					default:
					}
					rep, err := checkOne(files[i], opt, stdin)
					results[i] = fileResult{files[i], rep, err}
					close(done[i])
				}
			}()
		}
		for i := range files {
			<-done[i]
			if !yield(results[i]) {
				return
			}
		}
	}
}

// checkOne checks the model file at path with check.File, or for "-" the model at stdin, the
// path of the file that stdin reads, named "-".
func checkOne(path string, opt check.Options, stdin string) (*check.Report, error) {
	if path != "-" {
		return check.File(path, opt)
	}
	g, err := openModel(path, opt, stdin)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	return check.Graph(g, path, opt)
}

// openModel opens the model at path, or for "-" the model at stdin, the path of the file that
// stdin reads, as graph.Open reads a file: a pipe whole, its format told by its first bytes.
func openModel(path string, opt check.Options, stdin string) (*graph.Graph, error) {
	if path == "-" {
		path = stdin
	}
	return graph.Open(path, opt.OpenOptions())
}

// stdinPath returns the path of the file stdin reads, for a model given as "-" among args ("" when
// none is): a model is read from a path (graph.Open), and /dev/fd/N is the file or pipe of stdin.
// It is a usage error when "-" is given twice, or stdin is not a file.
func (e *env) stdinPath(args []string) (string, error) {
	switch n := slices.Index(args, "-"); {
	case n < 0:
		return "", nil
	case slices.Index(args[n+1:], "-") >= 0:
		return "", usagef("- (the model at stdin) is given twice")
	}
	f, ok := e.stdin.(*os.File)
	if !ok {
		return "", usagef("- reads a model at stdin, and stdin is not a file or a pipe")
	}
	return fmt.Sprintf("/dev/fd/%d", f.Fd()), nil
}

// modelPath returns the path graph.Open reads for the one model a command takes: the model itself,
// or for "-" the path of the file that stdin reads (stdinPath).
func (e *env) modelPath(model string) (string, error) {
	if model != "-" {
		return model, nil
	}
	return e.stdinPath([]string{model})
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
// returns the files of a model's extension in them that are not models, and the errors of the
// directories that cannot be read or hold no model.
func expandDirs(args []string) (files []string, skipped []check.NotModel, errs []dirError) {
	for _, a := range args {
		if !isDir(a) {
			files = append(files, a) // check.File reports what is wrong with it
			continue
		}
		found, others, err := check.ModelFiles(a)
		if err != nil {
			errs = append(errs, dirError{a, err})
		}
		files = append(files, found...)
		skipped = append(skipped, others...)
	}
	return files, skipped, errs
}

// isDir reports whether path names a directory.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
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

// printRows prints the rows as a table, then the message of each row that is not ok or whose run
// on constant data failed. With color, the verdicts are green, yellow or red. A width above 0
// (a terminal's) keeps the table's lines to it (fitTable); symbols are the models' symbols. The
// sizes computed in floating point are written by their names (floatNames), defined above the table.
func printRows(w io.Writer, rows []check.Row, symbols []string, color bool, width int, floats *floatNames) {
	// A buffer under the tabwriter, which writes each cell and its padding on its own: a system
	// call a 64 KiB block, not a cell (380,025 for the 20,000 rows of the 100,000-node graph of bench/gen, 37 with it).
	bw := bufio.NewWriterSize(w, 64<<10)
	defer bw.Flush()
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
	table := make([][]string, len(rows)+1)
	names, shapes := make([]bool, len(columns)), make([]bool, len(columns))
	for k, c := range columns {
		table[0] = append(table[0], c.header)
		names[k] = c.header == "FILE" || c.header == "NAME"
		shapes[k] = slices.Contains([]string{"INPUT", "PATTERN", "INFERRED", "DECLARED"}, c.header)
	}
	for i := range rows {
		for _, c := range columns {
			table[i+1] = append(table[i+1], floats.rename(c.cell(&rows[i])))
		}
	}
	// The line after the table of each row that has something to say; it names the node, and a
	// message that names it too starts after.
	var messages []string
	for _, r := range rows {
		if r.Verdict == check.OK && r.Run != check.Mismatch && !r.Run.IsError() {
			continue // the PATTERN column says where the pattern comes from
		}
		msg := strings.TrimPrefix(strings.TrimSpace(r.Message), r.Name+" ("+r.Op+"): ")
		if len(r.Stopped) > 0 {
			msg = strings.TrimPrefix(msg+"; undetermined dims stop at "+strings.Join(r.Stopped, ", "), "; ")
		}
		if msg != "" {
			messages = append(messages, fmt.Sprintf("%s: %s %s (%s): %s", r.File, r.Op, r.ID, r.Name, floats.rename(msg)))
		}
	}
	floats.flush(bw)
	if width > 0 && tableWidth(table) > width {
		// The files of a directory: the directory they share is said once, above the table.
		if dir := commonDir(table[1:]); dir != "" {
			fmt.Fprintf(bw, "files under %s\n", dir)
			for _, row := range table[1:] {
				row[0] = strings.TrimPrefix(row[0], dir)
			}
		}
	}
	table, keep, above := fitTable(table, names, shapes, symbols, width)
	for _, l := range above {
		fmt.Fprintln(bw, l)
	}
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	for i, cells := range table {
		for k, col := range keep {
			switch c := columns[col]; {
			case c.paint == nil:
			case i == 0:
				cells[k] = paint(color, bold, cells[k])
			default:
				cells[k] = c.paint(cells[k])
			}
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	for _, m := range messages {
		fmt.Fprintln(bw, m)
	}
}

// commonDir returns the directory, with its final slash, that the files of the first cells of
// rows share, when there are several files; "" when there are not, or they share none.
func commonDir(rows [][]string) string {
	dir := ""
	for i, row := range rows {
		switch {
		case i == 0:
			dir = row[0][:strings.LastIndexByte(row[0], '/')+1]
		case row[0] != rows[0][0] || dir != "":
			for !strings.HasPrefix(row[0], dir) {
				dir = dir[:strings.LastIndexByte(dir[:len(dir)-1], '/')+1]
			}
		}
	}
	if !slices.ContainsFunc(rows, func(r []string) bool { return r[0] != rows[0][0] }) {
		return ""
	}
	return dir
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
