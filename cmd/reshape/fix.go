package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/fix"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/sym"
)

var fixCommand = &command{
	name:    "fix",
	summary: "rewrite the sizes an exporter baked into Reshape patterns",
	usage: `Usage:
  reshape fix [--export NAME=VALUE]... [--json] MODEL.onnx OUT.onnx
  reshape fix [--export NAME=VALUE]... [--json] MODEL.xml OUT.xml

Finds the values of the model's Reshape patterns that are sizes of the export
baked into constants (a batch of 1, a grid of 52x52 that view(bs, na, no, ny,
nx) traced into [1,3,85,52,52]): a value that stands for a symbolic input dim
where the Reshape forces the model's symbols to the sizes of one binding (its
volume, without a -1). Each becomes a 0 that copies the dim (where the index is
the dim's and zeros copy), else a -1, else the dim read from the input's shape
(Shape, Gather, Concat); a Reshape downstream that copied a dim so fixed
follows. OUT is the model with its patterns rewritten, every other byte as it
was, and it is proven before it is written: inferred again, it no longer has the
conditions the rewrites remove, and at the export binding (where each baked
value equals its dim) its outputs have the model's shapes and, a reshape moving
no element, its data. A pattern whose values could stand for its input dims in
several ways is left as it is, unless --export tells them apart. With nothing
to rewrite, nothing is written (OUT would be the model again), and the summary
line says so.

An OpenVINO IR network (MODEL.xml, with the MODEL.bin beside it) is fixed alike,
its inputs' batch dim, when exported static, made the symbol N (as set_batch
picks it): a copied dim is a 0 under special_zero="true", a computed one
ShapeOf, Gather (ReduceProd), Concat with Const layers. OUT.xml is the .xml with
the edited layers and edges, every other byte as it was; OUT.bin, beside it, the
model's .bin with the new constants after it. Without MODEL.bin, a Reshape's
Const pattern is not known: an error (a network without such a Reshape is
fixed without it: OUT.xml alone).

Flags:
  --export NAME=VALUE  a value of a symbol at the export (repeatable), for a
                       pattern whose values could stand for its input dims in
                       several ways
  --json               print JSON Lines: one record per rewrite and per Reshape
                       left as it is, then a summary record
` + limitsHelp(23) + `
Output: each rewrite (the Reshape, its pattern before and after, and what each
baked value stands for), each Reshape left as it is and why, the export binding,
and what the model needs of its symbols before and after ("runs only when:" a
line per condition, with its node, operator and why). On a terminal, a line
longer than its width wraps, indented. OUT (and OUT.bin) is written through a
temporary file: on an error or a signal nothing is left at OUT. OUT is checked
before the work: it ends in the model's extension, and is not the model (MODEL
stays as the export wrote it). MODEL is a file: fix does not read stdin.

Exit status: 0 when the fixed model has no condition that a Reshape imposes or
that fixes a dim to one value (what the rewrites are for); 1 when it still has
one, which fix cannot remove (OUT is written with the rewrites it could make,
if any); 2
when the model cannot be read, does not load (a node of element types a runtime
refuses: its code, and nothing is written), or OUT cannot be written.

Examples:
  reshape fix yolo.onnx yolo-fixed.onnx
  reshape fix --export N=1 --export H=416 --export W=416 model.onnx fixed.onnx
  reshape fix model.xml fixed.xml
`,
}

// rewriteRecord is a rewrite in fix --json, leftRecord a Reshape left as it is.
type rewriteRecord struct {
	Record string `json:"record"` // "rewrite"
	*fix.Rewrite
	Removes []constraintRecord `json:"removes"`
}

type leftRecord struct {
	Record string `json:"record"` // "left"
	*fix.Left
	Constraints []constraintRecord `json:"constraints"`
}

// constraintRecord is a condition on the symbols and the node that imposes it.
type constraintRecord struct {
	Holds sym.Pred `json:"holds"`
	Node  string   `json:"node"`
	Op    string   `json:"op"`
	Why   string   `json:"why"`
}

// fixSummary is the summary record of fix --json.
type fixSummary struct {
	Record    string             `json:"record"` // "summary"
	File      string             `json:"file"`
	Rewrites  int                `json:"rewrites"`
	Left      int                `json:"left"`
	Export    []constraintRecord `json:"export"`
	Binding   map[string]int64   `json:"binding"`
	Before    []constraintRecord `json:"before"`
	After     []constraintRecord `json:"after"`
	Remaining []constraintRecord `json:"remaining"`
	// Written reports whether OUT was written: not when nothing is rewritten.
	Written bool `json:"written"`
}

func constraintRecords(cs []sym.Constraint) []constraintRecord {
	out := make([]constraintRecord, len(cs))
	for i, c := range cs {
		out[i] = constraintRecord{Holds: c.Pred, Node: c.Origin.Node, Op: c.Origin.Op, Why: c.Origin.Why}
	}
	return out
}

func runFix(e *env, args []string) int {
	fs := flag.NewFlagSet("fix", flag.ContinueOnError)
	export := &bindings{flag: "export"}
	fs.Var(export, "export", "")
	asJSON := fs.Bool("json", false, "")
	lim := addLimitFlags(fs)
	args, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(fixCommand, err)
	}
	if len(args) != 2 {
		return e.fail(fixCommand, usagef("want MODEL.onnx and OUT.onnx, or MODEL.xml and OUT.xml, got %d arguments", len(args)))
	}
	exportDims, err := export.ints(1, "a positive integer, the size at the export")
	if err != nil {
		return e.fail(fixCommand, err)
	}
	in, outPath := args[0], args[1]
	if in == "-" {
		return e.fail(fixCommand, usagef("MODEL -: fix reads a model file, not stdin: the rewrite keeps every other byte of it, and an IR network's .bin is beside it"))
	}
	// OUT is checked before the work: its kind, not a directory, not the model itself.
	ext, what := ".onnx", "an ONNX model"
	if isIR(in) {
		ext, what = ".xml", "an IR network (its .bin beside it)"
	}
	if err := outputPathError("OUT", outPath, in, ext, what); err != nil {
		return e.fail(fixCommand, err)
	}
	if outPath == "-" {
		return e.fail(fixCommand, usagef("OUT must be a file: the model is proven from the file written"))
	}
	opt := fix.Options{Export: exportDims, MaxRank: lim.maxRank}
	var f *fix.Fix
	var w *ir.Weights // of an IR model
	if isIR(in) {
		f, w, err = findIR(in, lim, opt)
		defer w.Close()
	} else {
		var m *onnx.Model
		if m, err = onnx.Open(in, lim.fileLimit()); err == nil {
			defer m.Close()
			f, err = fix.Find(m, filepath.Dir(in), opt)
		}
		if err != nil {
			err = fmt.Errorf("%s: %w", in, err)
		}
	}
	if err != nil {
		return e.fail(fixCommand, badInput(err))
	}
	for i := range f.Left {
		if f.Left[i].Ways > 1 {
			f.Left[i].Why += " (reshape fix --export)"
		}
	}
	// With nothing to rewrite, OUT would be the model again, byte for byte: nothing is written.
	written := len(f.Rewrites) > 0
	if written {
		if err := f.Writable(filepath.Dir(outPath)); err != nil {
			return e.fail(fixCommand, badInput(fmt.Errorf("%s: %w", outPath, err)))
		}
		write := e.writeFixed
		if isIR(in) {
			write = func(f *fix.Fix, path string) error { return e.writeFixedIR(f, w != nil, path) }
		}
		if err := write(f, outPath); err != nil {
			return e.fail(fixCommand, err)
		}
	}
	remaining := f.Remaining()
	if *asJSON {
		for i := range f.Rewrites {
			r := &f.Rewrites[i]
			e.emit(rewriteRecord{Record: "rewrite", Rewrite: r, Removes: constraintRecords(r.Removes)})
		}
		for i := range f.Left {
			l := &f.Left[i]
			e.emit(leftRecord{Record: "left", Left: l, Constraints: constraintRecords(l.Constraints)})
		}
		e.emit(fixSummary{Record: "summary", File: in, Rewrites: len(f.Rewrites), Left: len(f.Left),
			Export: constraintRecords(f.Export), Binding: f.Binding, Before: constraintRecords(f.Before),
			After: constraintRecords(f.After), Remaining: constraintRecords(remaining), Written: written})
	} else {
		stdout, flush := e.textOut()
		printFix(stdout, f, remaining, written)
		flush()
	}
	if len(remaining) > 0 {
		return 1
	}
	return 0
}

// writeFixed writes the fixed model to path through a temporary file, and proves it (Fix.Verify,
// on the file as written) before renaming it into place.
func (e *env) writeFixed(f *fix.Fix, path string) error {
	out, err := e.create(path)
	if err != nil {
		return err
	}
	if _, err := f.WriteTo(out); err != nil {
		out.abort()
		return outputError(path, err)
	}
	if err := out.bw.Flush(); err != nil {
		out.abort()
		return outputError(path, err)
	}
	written, err := onnx.Open(out.tmp.Name(), 0)
	if err == nil {
		err = f.Verify(written)
		written.Close()
	}
	if err != nil {
		out.abort()
		return fmt.Errorf("the fixed model was not written: %w", err)
	}
	return out.commit()
}

// isIR reports whether path names an OpenVINO IR .xml file.
func isIR(path string) bool { return strings.EqualFold(filepath.Ext(path), ".xml") }

// binPath returns the path of the .bin beside the IR .xml file path.
func binPath(path string) string { return strings.TrimSuffix(path, filepath.Ext(path)) + ".bin" }

// findIR reads the IR model at path, with the .bin beside it when there is one, and finds its
// fixes. The weights are open until the caller closes them (nil without a .bin).
func findIR(path string, lim *limits, opt fix.Options) (*fix.Fix, *ir.Weights, error) {
	if err := lim.checkFile(path); err != nil {
		return nil, nil, err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, errcode.IO(err)
	}
	bin := binPath(path)
	w, err := ir.OpenWeights(bin)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		w = nil // published without its weights: FindIR says whether a pattern needs them
	case err != nil:
		return nil, nil, errcode.IO(err)
	}
	f, err := fix.FindIR(src, w, opt)
	switch {
	case err != nil && w == nil && errors.Is(err, errcode.ErrIO):
		return nil, nil, fmt.Errorf("%s: %s: not found: %w", path, bin, err)
	case err != nil:
		w.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, w, nil
}

// writeFixedIR writes the fixed IR model to path (.xml) and its .bin beside it, each through a
// temporary file; both are proven (Fix.VerifyIR, on the files as written) before they are renamed
// into place, the .bin first. Without weights (withBin false: a model read without its .bin, which
// FindIR accepts only without a Reshape of a Const pattern) only the .xml is written.
func (e *env) writeFixedIR(f *fix.Fix, withBin bool, path string) error {
	xmlOut, err := e.create(path)
	if err != nil {
		return err
	}
	binOut := xmlOut // a stand-in, written to only withBin
	if withBin {
		if binOut, err = e.create(binPath(path)); err != nil {
			xmlOut.abort()
			return err
		}
	}
	abort := func() {
		xmlOut.abort()
		binOut.abort()
	}
	if _, err := f.WriteTo(xmlOut); err != nil {
		abort()
		return outputError(path, err)
	}
	if withBin {
		if _, err := f.WriteWeights(binOut); err != nil {
			abort()
			return outputError(binPath(path), err)
		}
	}
	for _, o := range []*outFile{xmlOut, binOut} {
		if err := o.bw.Flush(); err != nil {
			abort()
			return outputError(o.path, err)
		}
	}
	if err := verifyIR(f, xmlOut.tmp.Name(), binOut.tmp.Name(), withBin); err != nil {
		abort()
		return fmt.Errorf("the fixed model was not written: %w", err)
	}
	if withBin {
		if err := binOut.commit(); err != nil {
			xmlOut.abort()
			return err
		}
	}
	return xmlOut.commit()
}

// verifyIR proves the IR model written to the files xmlPath and binPath (without withBin, the .xml
// alone).
func verifyIR(f *fix.Fix, xmlPath, binPath string, withBin bool) error {
	x, err := os.Open(xmlPath)
	if err != nil {
		return err
	}
	net, err := ir.Decode(x)
	x.Close()
	if err != nil {
		return err
	}
	var w *ir.Weights
	if withBin {
		if w, err = ir.OpenWeights(binPath); err != nil {
			return err
		}
		defer w.Close()
	}
	return f.VerifyIR(net, w)
}

// pin returns the symbol p gives one value ("S == 10"), if it is such an equation.
func pin(p sym.Pred) (string, bool) {
	names := p.SymbolNames()
	if len(names) != 1 {
		return "", false
	}
	lhs, rhs, ok := strings.Cut(p.String(), " == ")
	_, err := strconv.ParseInt(rhs, 10, 64)
	return names[0], ok && lhs == names[0] && err == nil
}

// printFix prints the rewrites, the Reshapes left as they are, the export binding, the
// conditions before and after, and, unless written, that nothing was written.
func printFix(w io.Writer, f *fix.Fix, remaining []sym.Constraint, written bool) {
	for _, r := range f.Rewrites {
		line := fmt.Sprintf("%s: %s -> %s", r.Node, patternText(r.Before), patternText(r.After))
		if len(r.Follows) > 0 {
			line += ", following " + strings.Join(r.Follows, ", ")
		}
		fmt.Fprintln(w, line)
		for _, c := range r.Changes {
			dims := fmt.Sprintf("input dim %d", c.Dims[0])
			if c.Dims[1] > c.Dims[0]+1 {
				dims = fmt.Sprintf("input dims %d to %d", c.Dims[0], c.Dims[1]-1)
			}
			how := map[string]string{fix.HowCopy: "0 copies it", fix.HowInfer: "-1 infers it",
				fix.HowCompute: "read from the input's shape"}[c.How]
			if len(c.Inputs) > 0 {
				how = "read from the shape of " + strings.Join(c.Inputs, ", ")
			}
			if c.Part {
				fmt.Fprintf(w, "  pattern[%d] = %d is %s, of %s: %s\n", c.Index, c.Value, c.Dim, dims, how)
				continue
			}
			fmt.Fprintf(w, "  pattern[%d] = %d is %s, %s: %s\n", c.Index, c.Value, dims, c.Dim, how)
		}
	}
	for _, l := range f.Left {
		fmt.Fprintf(w, "%s: left as it is: %s\n", l.Node, l.Why)
	}
	if len(f.Export) > 0 {
		// An equation that pins a symbol (S == 10) says the export binding; another one whose
		// symbols are all pinned (S*B == 20 beside S == 10 and B == 2) holds there, and is left
		// out. Of the others, the fewest that say the same (sym.Minimize): Reshapes that bake the
		// same batch give the same equation, and H in 217..224 implies a later H in 209..224.
		pinned := map[string]bool{}
		for _, x := range f.Export {
			if name, ok := pin(x.Pred); ok {
				pinned[name] = true
			}
		}
		// One statement, of no node: a symbol's bounds read as one range (H in 217..224).
		var export []sym.Constraint
		for _, x := range f.Export {
			if _, isPin := pin(x.Pred); isPin || slices.ContainsFunc(x.Pred.SymbolNames(), func(n string) bool { return !pinned[n] }) {
				export = append(export, sym.Constraint{Pred: x.Pred, Origin: sym.Origin{Seq: x.Origin.Seq}})
			}
		}
		var parts []string
		for _, x := range sym.Minimize(export).Constraints {
			parts = append(parts, x.Pred.String())
		}
		fmt.Fprintf(w, "export binding: %s (at %s the fixed model computes what the model computes)\n",
			strings.Join(parts, " && "), bindingLine(f))
	}
	printConditions(w, "before", f.Before, nil)
	printConditions(w, "after", f.After, remaining)
	summary := fmt.Sprintf("%s rewritten, %d left as they are", plural(len(f.Rewrites), "Reshape"), len(f.Left))
	if !written {
		summary += ", so nothing is written"
	}
	switch len(remaining) {
	case 0:
	case 1:
		summary += "; 1 condition remains that fix cannot remove"
	default:
		summary += fmt.Sprintf("; %d conditions remain that fix cannot remove", len(remaining))
	}
	fmt.Fprintln(w, summary)
}

// printConditions prints "WHEN, runs only when:" and a line per condition (the predicate, its
// node, operator and why, "; remains" for those of remaining), or "WHEN, runs at every binding".
func printConditions(w io.Writer, when string, cs, remaining []sym.Constraint) {
	if len(cs) == 0 {
		fmt.Fprintf(w, "%s, runs at every binding\n", when)
		return
	}
	fmt.Fprintf(w, "%s, runs only when:\n", when)
	width := 0
	for _, c := range cs {
		width = max(width, len(c.Pred.String()))
	}
	for _, c := range cs {
		line := fmt.Sprintf("  %-*s  %s", width, c.Pred.String(), c.Origin)
		if slices.ContainsFunc(remaining, func(r sym.Constraint) bool { return r.String() == c.String() }) {
			line += "; remains"
		}
		fmt.Fprintln(w, line)
	}
}

// patternText returns the values of a pattern in the dim notation: "[0,3,7,-1,(W+1)//2]".
func patternText(v []sym.Dim) string {
	parts := make([]string, len(v))
	for i, d := range v {
		parts[i] = d.String()
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// bindingLine returns the export binding of f, "N=1, H=15, W=15": its symbols in the order the
// export equations, then the model's constraints, name them.
func bindingLine(f *fix.Fix) string {
	var parts []string
	seen := map[string]bool{}
	for _, cs := range [][]sym.Constraint{f.Export, f.Before} {
		for _, c := range cs {
			for _, name := range c.Pred.SymbolNames() {
				if v, ok := f.Binding[name]; ok && !seen[name] {
					seen[name] = true
					parts = append(parts, fmt.Sprintf("%s=%d", name, v))
				}
			}
		}
	}
	return strings.Join(parts, ", ")
}
