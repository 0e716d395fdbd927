package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/report"
)

var mapCommand = &command{
	name:    "map",
	summary: "draw the sizes at which a model runs, as an SVG picture",
	usage: `Usage:
  reshape map [--x SYMBOL] [--y SYMBOL] [--strip] [--range LO..HI]
              [--dim NAME=VALUE]... [--bin PATH] -o OUT.svg MODEL

Draws the sizes at which the model runs over a grid of two of its symbols (a
strip of one): a cell per pair of values, green where every condition the model
states holds, else in the colour of the first condition that fails there (the
node where a run stops). The legend lists the conditions with their nodes,
operators and the cells where each fails first. Where the conditions may be
incomplete (a node without a shape rule), the cells where every stated condition
holds are hatched: no claim. The cells are computed from the stated conditions,
not by inferring the model again per cell.

Every rectangle of the picture carries its cells as data: data-x, data-y (the
first cell's values), data-x1, data-y1 (the last's, inclusive; a rectangle is
one cell up to 4096 cells, a block of cells of one verdict above), data-runs
(true, false, or maybe where every stated condition holds but they may be
incomplete), data-node (the node of the first condition that fails, "" where
none does) and data-cond (its index in the legend, -1 where none does).

Flags:
  --x SYMBOL        the symbol across (default: the last two symbolic dims past
                    the batch of the first input that has any, e.g. H and W of
                    [N,3,H,W]; the sequence T of [B,T,C] alone gives a strip)
  --y SYMBOL        the symbol up; --x alone draws a strip
  --strip           one symbol, the default --x: a strip
  --range LO..HI    the values of both axes (default: from the symbol's lower
                    bound, at least 1, to twice the largest number the
                    conditions on it mention, 64 to 512 values; as many centred
                    on its least valid value where those hold none of them)
  --dim NAME=VALUE  the value of another symbol (repeatable); the others take
                    their smallest valid value: the least from their lower bound
                    at which the conditions on them alone hold
  --bin PATH        the .bin weights of an IR model (default: the .xml path with
                    .bin)
  -o, --out OUT.svg
                    the picture, written through a temporary file and renamed
                    into place ("-" for stdout); a name that does not end in
                    .svg, or the model, is refused before the work. A MODEL of -
                    is the model at stdin
` + limitsHelp(20) + `
Output: the picture at OUT, and on stdout a line: "H × W over 1..64 × 1..64 at
N=1: runs at 256 of 4096 cells", then a note, as check gives it, for an IR
network read without its .bin (on stderr with -o -).

Exit status: 0 when the picture is written; 2 for a usage error, a file that
cannot be read, or a model without symbols (it runs at one size: nothing to
draw).

Examples:
  reshape map -o map.svg model.onnx
  reshape map --x H --y W --range 1..512 --dim N=1 -o map.svg model.onnx
  reshape map --x T --strip -o strip.svg speech.onnx
`,
}

func runMap(e *env, args []string) int {
	fs := flag.NewFlagSet("map", flag.ContinueOnError)
	strip := fs.Bool("strip", false, "")
	dimFlags, _ := addBindingFlags(fs)
	mf := addMapFlags(fs)
	model, err := mf.parse(fs, args, ".svg", "an SVG picture")
	if err != nil {
		return e.fail(mapCommand, err)
	}
	dims, err := dimFlags.dims()
	if err != nil {
		return e.fail(mapCommand, err)
	}
	if mf.axes.Y != "" && (mf.axes.X == "" || *strip) {
		return e.fail(mapCommand, usagef("--y %s needs --x, and no --strip", mf.axes.Y))
	}
	mf.axes.Strip, mf.axes.NoMap, mf.axes.Dims = *strip, true, dims
	path, err := e.modelPath(model)
	if err != nil {
		return e.fail(mapCommand, err)
	}
	m, err := report.Load(path, report.Options{Check: mf.check(), Axes: mf.axes, Name: model})
	if err != nil {
		return e.fail(mapCommand, badInput(openHint(err, model, *mf.bin)))
	}
	sm, err := m.SizeMap(mf.axes)
	if err != nil {
		return e.fail(mapCommand, badInput(fmt.Errorf("%s: %w", model, err)))
	}
	if err := e.writeOutput(*mf.out, func(w io.Writer) error { return sm.WriteSVG(w, filepath.Base(model)) }); err != nil {
		return e.fail(mapCommand, err)
	}
	notesOut := e.stderr // stdout is the picture
	if *mf.out != "-" {
		fmt.Fprintln(e.stdout, sm)
		notesOut = e.stdout
	}
	printNotes(notesOut, "", bindingNotes(m.Bindings, nil, 0))
	return 0
}

// mapFlags are the flags of map and report: the map's axes and range, the output, the IR weights
// and the limits.
type mapFlags struct {
	x, y, rng, out, bin *string
	lim                 *limits
	axes                report.MapAxes
}

// addMapFlags adds --x, --y, --range, -o (--out), --bin and the limits to fs.
func addMapFlags(fs *flag.FlagSet) *mapFlags {
	f := &mapFlags{x: fs.String("x", "", ""), y: fs.String("y", "", ""), rng: fs.String("range", "", ""),
		out: fs.String("o", "", ""), bin: fs.String("bin", "", ""), lim: addLimitFlags(fs)}
	fs.StringVar(f.out, "out", "", "")
	return f
}

// parse parses args, which hold one MODEL and -o OUT.ext (what it writes: "an SVG picture"), checks
// OUT before the work (outputPathError), and sets the axes; it returns the model.
func (f *mapFlags) parse(fs *flag.FlagSet, args []string, ext, what string) (string, error) {
	args, err := parseArgs(fs, args)
	switch {
	case err != nil:
		return "", err
	case len(args) != 1:
		return "", usagef("want one MODEL, got %d arguments", len(args))
	case *f.out == "":
		return "", usagef("-o OUT%s is required", ext)
	}
	if err := outputPathError("-o", *f.out, args[0], ext, what); err != nil {
		return "", err
	}
	f.axes = report.MapAxes{X: *f.x, Y: *f.y}
	if *f.rng != "" {
		if f.axes.Lo, f.axes.Hi, err = parseRange(*f.rng); err != nil {
			return "", err
		}
	}
	return args[0], nil
}

// check returns the options of checking a model within the limits, with the IR weights of --bin.
func (f *mapFlags) check() check.Options {
	return check.Options{BinPath: *f.bin, MaxRank: f.lim.maxRank, MaxBytes: int64(f.lim.maxBytes), MaxFileSize: f.lim.fileLimit()}
}

// parseRange reads LO..HI, two integers with LO <= HI.
func parseRange(s string) (lo, hi int64, err error) {
	a, b, ok := strings.Cut(s, "..")
	if ok {
		lo, err = strconv.ParseInt(strings.TrimSpace(a), 10, 64)
		if err == nil {
			hi, err = strconv.ParseInt(strings.TrimSpace(b), 10, 64)
		}
	}
	if !ok || err != nil || lo > hi || lo < 0 {
		return 0, 0, usagef("--range %q: want LO..HI, two non-negative integers with LO <= HI", s)
	}
	return lo, hi, nil
}
