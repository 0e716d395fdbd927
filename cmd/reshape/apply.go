package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/term"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/npy"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

var applyCommand = &command{
	name:    "apply",
	summary: "reshape a .npy or TensorProto .pb array into another",
	usage: `Usage:
  reshape apply [--dialect D] --special-zero=true|false --pattern P [--verbose]
                IN OUT
  reshape apply [--dialect D] --special-zero=true|false --pattern-file
                PATTERN.npy|.pb IN OUT

Reads the array in IN, reshapes it by the pattern P (comma-separated integers:
-1, 0, positive dims) with the rules of the dialect, and writes the result to
OUT in C order. IN and OUT are NumPy .npy files or ONNX TensorProto .pb files,
by their extension; - is a .npy on stdin or stdout. A .npy output keeps the
dtype and byte order of a .npy input: any dtype np.save writes without pickle
(numbers, complex, bytes, unicode, datetimes, structured) reshapes by its item
size; object arrays are refused. Element order is logical row-major, as numpy's
reshape. OUT is written whole or not at all: on any error, and on SIGINT or
SIGTERM (exit 130, 143), nothing is left at OUT.

The result is a view of the input when its memory layout allows (a dense input
always does; a Fortran-order input when every group of merged axes is
contiguous) and one dense copy otherwise.

Flags:
  --dialect D        openvino (default), onednn-static, onednn-dynamic or onnx
  --special-zero=B   the special_zero attribute, true or false; required except
                     for onnx
  --allowzero=N      onnx only: the allowzero attribute, 0 (the default) or 1
  --pattern P        the target shape pattern, e.g. 0,-1,4
  --pattern-file F   the pattern as an integer tensor in a .npy or .pb file:
                     1-D, or a scalar holding 1 (OpenVINO's scalar pattern)
  --verbose          say on stderr whether the result was a view or a copy, and
                     why
` + limitsHelp(21) + `
Examples:
  reshape apply --special-zero=true --pattern 0,-1 images.npy flat.npy
  reshape apply --dialect onnx --pattern -1 --verbose in.npy out.npy
  reshape apply --dialect onnx --pattern-file input_1.pb input_0.pb out.pb
  python3 make_array.py |
    reshape apply --special-zero=false --pattern -1 - - | python3 use_array.py
`,
}

// progressThreshold is the copy size from which apply shows progress on a terminal.
const progressThreshold = 256 << 20

func runApply(e *env, args []string) int {
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	attrs := addAttrFlags(fs, "dialect", "openvino")
	patternText := fs.String("pattern", "", "")
	patternFile := fs.String("pattern-file", "", "")
	verbose := fs.Bool("verbose", false, "")
	lim := addLimitFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(applyCommand, err)
	}
	if len(pos) != 2 {
		return e.fail(applyCommand, usagef("want IN and OUT (.npy or .pb), got %d arguments", len(pos)))
	}
	for _, p := range pos {
		if k := fileKind(p); k != ".npy" && k != ".pb" {
			return e.fail(applyCommand, usagef("%s: want a .npy or .pb (TensorProto) file, or - for .npy on stdin or stdout", p))
		}
	}
	if pos[0] == "-" && *patternFile == "-" {
		return e.fail(applyCommand, usagef("stdin holds IN: --pattern-file cannot be - as well"))
	}
	opt, err := attrs.options()
	if err != nil {
		return e.fail(applyCommand, err)
	}
	opt.MaxRank = lim.maxRank
	a := &applier{e: e, verbose: *verbose, lim: lim}
	var pattern reshape.Pattern
	switch {
	case isSet(fs, "pattern") && *patternFile != "":
		return e.fail(applyCommand, usagef("give the pattern with --pattern or --pattern-file, not both"))
	case !isSet(fs, "pattern") && *patternFile == "":
		return e.fail(applyCommand, usagef("give the pattern with --pattern or --pattern-file, e.g. --pattern 0,-1"))
	case *patternFile != "":
		if pattern, opt.PatternType, err = a.readPattern(*patternFile, opt); err != nil {
			return e.fail(applyCommand, fmt.Errorf("--pattern-file %s: %w", *patternFile, err))
		}
	default:
		if pattern, err = staticPattern(*patternText); err != nil {
			return e.fail(applyCommand, err)
		}
	}
	a.opt, a.pattern = opt, pattern
	if err := a.apply(pos[0], pos[1]); err != nil {
		return e.fail(applyCommand, err)
	}
	return 0
}

// readPattern reads the pattern in a .npy or .pb file. What is wrong with the pattern alone is said
// of the file: it shows on an input of unknown rank.
func (a *applier) readPattern(path string, opt reshape.Options) (reshape.Pattern, element.Type, error) {
	t, _, _, err := a.load(path)
	if err != nil {
		return reshape.Pattern{}, element.Undefined, err
	}
	p, typ, err := reshape.PatternFromTensor(t)
	if err == nil {
		opt.PatternType = typ
		_, err = reshape.InferPartial(shape.DynamicRank(), p, opt)
	}
	return p, typ, err
}

// staticPattern parses a pattern whose values must all be known integers.
func staticPattern(text string) (reshape.Pattern, error) {
	p, err := reshape.ParsePattern(text)
	if err != nil {
		return p, badInput(fmt.Errorf("--pattern: %w", err))
	}
	values, _ := p.Values()
	for i, v := range values {
		if !v.IsStatic() {
			return p, usagef("--pattern: pattern[%d] = %v: data needs static values", i, v)
		}
	}
	return p, nil
}

type applier struct {
	e       *env
	lim     *limits
	opt     reshape.Options
	pattern reshape.Pattern
	verbose bool
}

// apply reshapes the array of inPath into outPath. The output is created first, so that a path
// that cannot be written fails before the input is read, and an interrupted run leaves nothing.
func (a *applier) apply(inPath, outPath string) error {
	out, err := a.e.create(outPath)
	if err != nil {
		return err
	}
	if err := a.write(inPath, outPath, out); err != nil {
		out.abort()
		return outputError(outPath, err)
	}
	return out.commit()
}

// write writes the reshaped array of inPath to out, the output outPath.
func (a *applier) write(inPath, outPath string, out *outFile) error {
	if fileKind(inPath) == ".npy" && fileKind(outPath) == ".npy" {
		return a.applyNpy(inPath, out)
	}
	if st, err := os.Stat(inPath); err == nil && inPath != "-" {
		// The file, its values, the reshaped copy and its encoding: four times the data at most.
		if err := a.lim.checkBytes(4*st.Size(), "reshaping "+inPath); err != nil {
			return badInput(err)
		}
	}
	t, name, bigEndian, err := a.load(inPath)
	if err != nil {
		return err
	}
	res, how, err := reshape.Apply(t, a.pattern, a.opt)
	if err != nil {
		return err
	}
	a.say(t.Shape(), res.Shape(), how.View, how.Reason())
	w := a.progress(out, res.ByteSize())
	if fileKind(outPath) == ".npy" {
		return npy.Write(w, res, npy.WriteOptions{BigEndian: bigEndian})
	}
	b, err := onnx.EncodeTensor(res, name)
	if err == nil {
		_, err = w.Write(b)
	}
	return err
}

// fileKind returns a data file's kind by its extension: ".npy", ".pb", or another extension; "-"
// (stdin, stdout) is ".npy".
func fileKind(path string) string {
	if path == "-" {
		return ".npy"
	}
	return strings.ToLower(filepath.Ext(path))
}

// load reads a tensor from a .npy file (npy.ReadFile; "-" reads stdin) or a TensorProto .pb file
// (onnx.ReadTensorFile, its external data included), with the TensorProto's name and whether the
// .npy data was big-endian. Files larger than the limits allow are refused before they are read; a
// .npy dtype without an element type (complex, strings, structured) is refused, since only a .npy
// output can hold it. Every error is the file's: it exits 2.
func (a *applier) load(path string) (t tensor.Tensor, name string, bigEndian bool, err error) {
	if fileKind(path) == ".npy" {
		var h npy.Header
		switch path {
		case "-":
			t, h, err = npy.Read(io.LimitReader(a.e.stdin, a.lim.fileLimit()+1), -1)
			if err != nil {
				err = fmt.Errorf("stdin: %w", err)
			}
		default:
			if err := a.lim.checkFile(path); err != nil {
				return t, "", false, badInput(err)
			}
			t, h, err = npy.ReadFile(path)
		}
		if err == nil && h.Type == element.Undefined {
			err = errcode.Errorf(errcode.ErrDataType, "%s: dtype %s has no element type: only a .npy output can hold it", path, h.Descr)
		}
		return t, "", h.BigEndian, badInput(err)
	}
	if err := a.lim.checkFile(path); err != nil {
		return t, "", false, badInput(err)
	}
	pb, err := onnx.ReadTensorFile(path, a.lim.fileLimit())
	if err != nil {
		return t, "", false, badInput(err)
	}
	if t, err = pb.Tensor(); err != nil {
		return t, "", false, badInput(fmt.Errorf("%s: %w", path, err))
	}
	return t, pb.Name, false, nil
}

// applyNpy reshapes a .npy file into a .npy file without holding more than the input: a C-order
// array is streamed from file to file, a Fortran-order one written through blocks. The items are
// bytes of the dtype's size: any dtype np.save writes without pickle reshapes, and the output has
// the input's dtype, byte order included.
func (a *applier) applyNpy(inPath string, out *outFile) error {
	in, size := a.e.stdin, int64(-1) // "-" and pipes: of unknown size
	if inPath != "-" {
		f, err := os.Open(inPath)
		if err != nil {
			return err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return err
		}
		if in = f; st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	r := bufio.NewReaderSize(in, 1<<20)
	h, err := npy.ReadHeader(r)
	if err != nil {
		return badInput(fmt.Errorf("%s: %w", inPath, err))
	}
	opt := a.opt
	opt.DataType = h.Type
	dims, err := reshape.ApplyShape(h.Shape, a.pattern, opt)
	if err != nil {
		return err
	}
	if !h.FortranOrder {
		return a.stream(r, size, h, dims, inPath, out)
	}
	// A Fortran-order array is read whole, and written through 32 MiB blocks.
	if size >= 0 {
		if err := a.lim.checkFile(inPath); err != nil {
			return badInput(err)
		}
	} else {
		r = bufio.NewReader(io.LimitReader(r, a.lim.fileLimit()))
	}
	if err := a.lim.checkBytes(max(size, h.DataSize())+32<<20, "reading the Fortran-order array of "+inPath); err != nil {
		return badInput(err)
	}
	t, err := npy.ReadData(r, h, size)
	if err != nil {
		return badInput(fmt.Errorf("%s: %w", inPath, err))
	}
	// The result in C order is t's elements in logical order: a view writes them as they lie, and a
	// copy is made one block at a time on the way to the file rather than whole in memory. The
	// bytes of a dtype without an element type are t's innermost axis, and stay so.
	vdims := dims
	if h.Type == element.Undefined {
		vdims = append(slices.Clone(dims), h.ItemSize)
	}
	v, how, err := t.View(vdims...)
	if err != nil {
		return err
	}
	reason := how.Reason()
	if !how.View {
		v, reason = t, reason+"; copied in blocks on the way to the file"
	}
	a.say(h.Shape, dims, how.View, reason)
	w := a.progress(out, t.ByteSize())
	if err := npy.WriteHeaderLike(w, h, dims); err != nil {
		return err
	}
	return npy.WriteData(w, v, npy.WriteOptions{BigEndian: h.BigEndian})
}

// stream reshapes a C-order array without loading it: a dense input is always a view, so the output
// is the new header followed by the input's data bytes, unchanged. size is the input file's size, -1
// for stdin.
func (a *applier) stream(r io.Reader, size int64, h npy.Header, dims []int64, inPath string, out *outFile) error {
	if size >= 0 {
		if err := h.CheckFileSize(size); err != nil {
			return badInput(fmt.Errorf("%s: %w", inPath, err))
		}
	}
	a.say(h.Shape, dims, true, "the input is dense: only the shape changes, the data is streamed")
	want := h.DataSize()
	w := a.progress(out, want)
	if err := npy.WriteHeaderLike(w, h, dims); err != nil {
		return err
	}
	k, err := io.CopyN(w, r, want)
	switch {
	case errors.Is(err, io.EOF):
		return badInput(errcode.Errorf(errcode.ErrSyntax, "%s: offset %d: the data ends after %d of the %d bytes that shape %s of %s takes",
			inPath, h.DataOffset+k, k, want, shape.FormatInts(h.Shape), h.Descr))
	case err != nil:
		return fmt.Errorf("%s: offset %d: copied %d of %d bytes of data: %w", inPath, h.DataOffset+k, k, want, err)
	}
	if size < 0 {
		if n, _ := r.Read(make([]byte, 1)); n > 0 {
			return badInput(errcode.Errorf(errcode.ErrSyntax, "%s: offset %d: data after the %d bytes that shape %s of %s takes",
				inPath, h.DataOffset+want, want, shape.FormatInts(h.Shape), h.Descr))
		}
	}
	return nil
}

func (a *applier) say(in, out []int64, view bool, reason string) {
	if !a.verbose {
		return
	}
	kind := "copy"
	if view {
		kind = "view"
	}
	fmt.Fprintf(a.e.stderr, "reshape: %s -> %s: %s (%s)\n", shape.FormatInts(in), shape.FormatInts(out), kind, reason)
}

// progress returns the output writer w, wrapped with a progress line on stderr when stderr is a
// terminal and the data is large enough to make waiting noticeable.
func (a *applier) progress(w io.Writer, total int64) io.Writer {
	f, ok := a.e.stderr.(*os.File)
	if !ok || total < progressThreshold || !term.IsTerminal(int(f.Fd())) {
		return w
	}
	return &progressWriter{w: w, out: f, total: total}
}

type progressWriter struct {
	w         io.Writer
	out       io.Writer
	total, n  int64
	lastShown int64
}

func (p *progressWriter) Write(b []byte) (int, error) {
	k, err := p.w.Write(b)
	p.n += int64(k)
	if p.n-p.lastShown >= 16<<20 || p.n >= p.total {
		p.lastShown = p.n
		fmt.Fprintf(p.out, "\rreshape: writing %d / %d MiB (%d%%)", p.n>>20, p.total>>20, 100*p.n/max(p.total, 1))
		if p.n >= p.total {
			fmt.Fprintln(p.out)
		}
	}
	return k, err
}
