package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/npy"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

var applyCommand = &command{
	name:    "apply",
	summary: "reshape the array of a .npy or TensorProto .pb file into another",
	usage: `Usage:
  reshape apply [--dialect D] --special-zero=true|false --pattern P [--verbose] IN OUT
  reshape apply [--dialect D] --special-zero=true|false --pattern-file PATTERN.npy|.pb IN OUT

Reads the array in IN, reshapes it by the pattern P (comma-separated integers: -1, 0, positive
dims) with the rules of the dialect, and writes the result to OUT in C order. IN and OUT are NumPy
.npy files or ONNX TensorProto .pb files, by their extension; a .npy output keeps the dtype and byte
order of a .npy input. Element order is logical row-major, as numpy's reshape. OUT is written
whole or not at all: on any error nothing is left at OUT.

The result is a view of the input when its memory layout allows (a dense input always does; a
Fortran-order input when every group of merged axes is contiguous) and one dense copy otherwise.

Flags:
  --dialect D        openvino (default), onednn-static, onednn-dynamic or onnx
  --special-zero=B   the special_zero attribute, true or false; required except for onnx
  --allowzero=N      onnx only: the allowzero attribute, 0 (the default) or 1
  --pattern P        the target shape pattern, e.g. 0,-1,4
  --pattern-file F   the pattern as an integer tensor in a .npy or .pb file: 1-D, or a scalar
                     holding 1 (OpenVINO's scalar pattern)
  --verbose          say on stderr whether the result was a view or a copy, and why
` + limitsHelp + `
Examples:
  reshape apply --special-zero=true --pattern 0,-1 images.npy flat.npy
  reshape apply --dialect onnx --pattern -1 --verbose in.npy out.npy
  reshape apply --dialect onnx --pattern-file input_1.pb input_0.pb out.pb
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
			return e.fail(applyCommand, usagef("%s: want a .npy or .pb (TensorProto) file", p))
		}
	}
	opt, err := attrs.options()
	if err != nil {
		return e.fail(applyCommand, err)
	}
	opt.MaxRank = lim.maxRank
	var pattern reshape.Pattern
	switch {
	case isSet(fs, "pattern") && *patternFile != "":
		return e.fail(applyCommand, usagef("give the pattern with --pattern or --pattern-file, not both"))
	case !isSet(fs, "pattern") && *patternFile == "":
		return e.fail(applyCommand, usagef("give the pattern with --pattern or --pattern-file, e.g. --pattern 0,-1"))
	case *patternFile != "":
		if pattern, opt.PatternType, err = readPattern(*patternFile, opt, lim); err != nil {
			return e.fail(applyCommand, fmt.Errorf("--pattern-file %s: %w", *patternFile, err))
		}
	default:
		if pattern, err = staticPattern(*patternText); err != nil {
			return e.fail(applyCommand, err)
		}
	}
	a := &applier{e: e, opt: opt, pattern: pattern, verbose: *verbose, lim: lim}
	if err := a.apply(pos[0], pos[1]); err != nil {
		return e.fail(applyCommand, err)
	}
	return 0
}

// readPattern reads the pattern in a .npy or .pb file. What is wrong with the pattern alone is said
// of the file: it shows on an input of unknown rank.
func readPattern(path string, opt reshape.Options, lim *limits) (reshape.Pattern, element.Type, error) {
	t, _, _, err := load(path, lim)
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

func (a *applier) apply(inPath, outPath string) error {
	if fileKind(inPath) == ".npy" && fileKind(outPath) == ".npy" {
		return a.applyNpy(inPath, outPath)
	}
	if st, err := os.Stat(inPath); err == nil {
		// The file, its values, the reshaped copy and its encoding: four times the data at most.
		if err := a.lim.checkBytes(4*st.Size(), "reshaping "+inPath); err != nil {
			return badInput(err)
		}
	}
	t, name, bigEndian, err := load(inPath, a.lim)
	if err != nil {
		return err
	}
	res, how, err := reshape.Apply(t, a.pattern, a.opt)
	if err != nil {
		return err
	}
	a.say(t.Shape(), res.Shape(), how.View, how.Reason())
	return writeAtomic(outPath, a.progress(res.ByteSize()), func(w io.Writer) error {
		if fileKind(outPath) == ".npy" {
			return npy.Write(w, res, npy.WriteOptions{BigEndian: bigEndian})
		}
		b, err := onnx.EncodeTensor(res, name)
		if err == nil {
			_, err = w.Write(b)
		}
		return err
	})
}

// fileKind returns a data file's kind by its extension: ".npy", ".pb", or another extension.
func fileKind(path string) string { return strings.ToLower(filepath.Ext(path)) }

// load reads a tensor from a .npy file (npy.ReadFile) or a TensorProto .pb file
// (onnx.ReadTensorFile, its external data included), with the TensorProto's name and whether the
// .npy data was big-endian. Files larger than the limits allow are refused before they are read.
// Every error is the file's: it exits 2.
func load(path string, lim *limits) (t tensor.Tensor, name string, bigEndian bool, err error) {
	if err := lim.checkFile(path); err != nil {
		return t, "", false, badInput(err)
	}
	if fileKind(path) == ".npy" {
		t, h, err := npy.ReadFile(path)
		return t, "", h.BigEndian, badInput(err)
	}
	pb, err := onnx.ReadTensorFile(path, lim.fileLimit())
	if err != nil {
		return t, "", false, badInput(err)
	}
	if t, err = pb.Tensor(); err != nil {
		return t, "", false, badInput(fmt.Errorf("%s: %w", path, err))
	}
	return t, pb.Name, false, nil
}

// applyNpy reshapes a .npy file into a .npy file without holding more than the input: a C-order
// array is streamed from file to file, a Fortran-order one written through blocks.
func (a *applier) applyNpy(inPath, outPath string) error {
	f, err := os.Open(inPath)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	r := bufio.NewReaderSize(f, 1<<20)
	h, err := npy.ReadHeader(r)
	if err != nil {
		return badInput(fmt.Errorf("%s: %w", inPath, err))
	}
	if !h.FortranOrder {
		return a.stream(r, st.Size(), h, inPath, outPath)
	}
	// A Fortran-order array is read whole, and written through 32 MiB blocks.
	if err := a.lim.checkFile(inPath); err != nil {
		return badInput(err)
	}
	if err := a.lim.checkBytes(st.Size()+32<<20, "reading the Fortran-order array of "+inPath); err != nil {
		return badInput(err)
	}
	t, err := npy.ReadData(r, h, st.Size())
	if err != nil {
		return badInput(fmt.Errorf("%s: %w", inPath, err))
	}
	opt := a.opt
	opt.DataType = h.Type
	dims, err := reshape.ApplyShape(h.Shape, a.pattern, opt)
	if err != nil {
		return err
	}
	// The result in C order is t's elements in logical order: a view writes them as they lie, and a
	// copy is made one block at a time on the way to the file rather than whole in memory.
	v, how, err := t.View(dims...)
	if err != nil {
		return err
	}
	reason := how.Reason()
	if !how.View {
		v, reason = t, reason+"; copied in blocks on the way to the file"
	}
	a.say(h.Shape, dims, how.View, reason)
	return writeAtomic(outPath, a.progress(t.ByteSize()), func(w io.Writer) error {
		wo := npy.WriteOptions{BigEndian: h.BigEndian}
		if err := npy.WriteHeader(w, h.Type, dims, wo); err != nil {
			return err
		}
		return npy.WriteData(w, v, wo)
	})
}

// stream reshapes a C-order array without loading it: a dense input is always a view, so the output
// is the new header followed by the input's data bytes, unchanged.
func (a *applier) stream(r io.Reader, size int64, h npy.Header, inPath, outPath string) error {
	if err := h.CheckFileSize(size); err != nil {
		return badInput(fmt.Errorf("%s: %w", inPath, err))
	}
	opt := a.opt
	opt.DataType = h.Type
	dims, err := reshape.ApplyShape(h.Shape, a.pattern, opt)
	if err != nil {
		return err
	}
	a.say(h.Shape, dims, true, "the input is dense: only the shape changes, the data is streamed")
	want := h.DataSize()
	return writeAtomic(outPath, a.progress(want), func(w io.Writer) error {
		if err := npy.WriteHeader(w, h.Type, dims, npy.WriteOptions{BigEndian: h.BigEndian}); err != nil {
			return err
		}
		k, err := io.CopyN(w, r, want)
		if err != nil {
			return fmt.Errorf("%s: offset %d: copied %d of %d bytes of data: %w", inPath, h.DataOffset+k, k, want, err)
		}
		return nil
	})
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

// progress returns a function that wraps the output writer with a progress line on stderr, when
// stderr is a terminal and the data is large enough to make waiting noticeable.
func (a *applier) progress(total int64) func(io.Writer) io.Writer {
	f, ok := a.e.stderr.(*os.File)
	if !ok || total < progressThreshold || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func(w io.Writer) io.Writer { return &progressWriter{w: w, out: f, total: total} }
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

// writeAtomic writes a file through a temporary file in the same directory, renamed into place only
// when write succeeds: on any error nothing is left at path. wrap, when not nil, wraps the writer
// (for progress). An error of the file system names path, not the temporary file, and exits 2.
func writeAtomic(path string, wrap func(io.Writer) io.Writer, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return outputError(path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			err = outputError(path, err)
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<20)
	var w io.Writer = bw
	if wrap != nil {
		w = wrap(bw)
	}
	if err = write(w); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	// A new file gets the usual mode (CreateTemp makes it private); a replaced one keeps its own.
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// outputError returns an error of writing the output file path: one of the file system (about the
// temporary file, or path's directory) says path and exits 2; others are returned as they are.
func outputError(path string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return badInput(fmt.Errorf("%s: %w", path, pe.Err))
	case errors.As(err, &le):
		return badInput(fmt.Errorf("%s: %w", path, le.Err))
	}
	return err
}
