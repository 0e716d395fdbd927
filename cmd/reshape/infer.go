package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/conformance"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

var inferCommand = &command{
	name:    "infer",
	summary: "infer the output shape of one Reshape, or of a batch of cases",
	usage: `Usage:
  reshape infer [--dialect D] --special-zero=true|false [flags] INPUT PATTERN
  reshape infer [--dialect D] --batch FILE

Infers the output shape of Reshape for the input shape INPUT and the target
shape PATTERN, and prints it in OpenVINO's notation: [2,150,4], [?,3,2..5],
[...].

INPUT is a partial shape: '[2,5,5,24]', '[?,3]', '[1..8,?]', '[...]' (dynamic
rank), '[]' (scalar). Quote it: the shell reads [ and ? as patterns of file
names.
PATTERN is comma-separated values: -1 (inferred), 0 (special zero or literal 0),
positive dims, intervals 1..8 for values known only by their bounds; "" is the
empty pattern; "-" means the values are unknown and --pattern-shape gives the
pattern's shape.
Dims and values may be symbols, as a model's: '[N,3,H,W]' by N,-1 gives
[N,3*H*W]; an expression uses + - * // / and parentheses ('(H+1)//2'), and a
symbol stands for a positive size (reshape.InferSymbolic); a line
" when N*T % 2 == 0: ..." follows with what the symbols must satisfy for the
Reshape to run, unless it always holds. --explain takes numbers only.

Flags:
  --dialect D         openvino (default), onednn-static, onednn-dynamic or onnx
  --special-zero=B    the special_zero attribute, true or false; required except
                      for onnx
  --allowzero=N       onnx only: the allowzero attribute, 0 (the default) or 1
                      (= --special-zero=false)
  --pattern-shape S   the shape of the pattern tensor: '[]' for a scalar
                      pattern, '[n]' for n unknown values
  --element-type T    the data element type, checked against the dialect
  --pattern-type T    the pattern element type, checked against the dialect; T
                      is an OpenVINO name (boolean, u1, u4, i4, nf4, u8, i8,
                      u16, i16, u32, i32, u64, i64, f8e4m3, f8e5m2, f16, bf16,
                      f32, f64), ONNX's f8e4m3fnuz or f8e5m2fnuz, or another
                      spelling (fp32, s32, s64, float8e5m2fnuz, ...)
  --explain           also print where each output dimension comes from
  --json              print one JSON record: input, pattern, pattern_shape,
                      dialect, special_zero, and output (with --explain,
                      explain; with symbols, when), or error and message
  --batch FILE        read cases as JSON Lines (the format of
                      conformance/cases.jsonl; - = stdin) and write one JSON
                      answer per line, in that format (shapes in the notation):
                      {"name":..,"output":..} or
                      {"name":..,"error":..,"message":..}; exit 1 when a line is
                      answered with an error
  --max-rank N        the largest input or output rank accepted (default 64,
                      numpy's bound)

Examples:
  reshape infer --special-zero=true '[2,5,5,24]' 0,-1,4          # [2,150,4]
  reshape infer --dialect onnx --allowzero=1 '[0,3,4]' 3,4,0      # [3,4,0]
  reshape infer --special-zero=true '[1..8,16..64,6]' 0,-1 --explain
  reshape infer --special-zero=false '[3,4]' - --pattern-shape '[3]' # [?,?,?]
  reshape infer --dialect onnx '[N,3,224,224]' N,-1                 # [N,150528]
  reshape infer --special-zero=true --json '[2,5,5,24]' 0,-1,4
  reshape infer --batch ../shared/conformance/cases.jsonl

An invalid reshape prints "reshape: CODE: message" on stderr and exits 1; CODE
is one of invalid-dim, multiple-inferred, zero-out-of-range, ambiguous-inferred,
not-divisible, volume-mismatch, scalar-pattern, pattern-rank, overflow,
pattern-type, data-type, limit. An INPUT or PATTERN that cannot be read exits 2:
a syntax error, or overflow for a number beyond int64
('[99999999999999999999]'), which is a usage error as a bad flag is; a volume
beyond int64 is an invalid reshape, overflow with exit 1. With --batch, every
line is answered, and the exit status is 1 when some answer is an error (an
invalid reshape or a malformed line; stderr gives how many), 2 when FILE cannot
be read.
`,
}

// inferRecord is the JSON record of infer --json.
type inferRecord struct {
	// Input and Output are *shape.Shape, or sym.Shape where they have symbols; Pattern is
	// *reshape.Pattern, or []sym.Dim.
	Input        any             `json:"input,omitempty"`
	Pattern      any             `json:"pattern,omitempty"`
	PatternShape *shape.Shape    `json:"pattern_shape,omitempty"`
	Dialect      reshape.Dialect `json:"dialect"`
	SpecialZero  bool            `json:"special_zero"`
	Output       any             `json:"output,omitempty"`
	Explain      []sourceRecord  `json:"explain,omitempty"`
	// When is what the symbols must satisfy for the Reshape to run (volumeCondition), when it
	// does not always hold.
	When string `json:"when,omitempty"`
	errorFields
}

// sourceRecord says in JSON where an output dimension comes from (reshape.Source).
type sourceRecord struct {
	Origin    string     `json:"origin"`              // given, copied, inferred or unknown
	Input     *int       `json:"input,omitempty"`     // copied: the input index
	Dividend  *shape.Dim `json:"dividend,omitempty"`  // inferred: the input volume divided
	Divisor   *shape.Dim `json:"divisor,omitempty"`   // inferred: the other output dims' product
	Cancelled bool       `json:"cancelled,omitempty"` // inferred: equal static dims cancelled first
}

func runInfer(e *env, args []string) int {
	fs := flag.NewFlagSet("infer", flag.ContinueOnError)
	attrs := addAttrFlags(fs, "dialect", "openvino")
	patternShape := fs.String("pattern-shape", "", "")
	elemType := fs.String("element-type", "", "")
	patternType := fs.String("pattern-type", "", "")
	explain := fs.Bool("explain", false, "")
	asJSON := fs.Bool("json", false, "")
	batch := fs.String("batch", "", "")
	maxRank := fs.Int("max-rank", reshape.DefaultMaxRank, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(inferCommand, err)
	}
	if *batch != "" {
		for _, name := range []string{"special-zero", "allowzero", "pattern-shape", "element-type", "pattern-type", "explain", "json"} {
			if isSet(fs, name) {
				return e.fail(inferCommand, usagef("--%s does not apply to --batch: each case gives its own (and the answers are JSON already)", name))
			}
		}
		d, err := parseDialect("dialect", *attrs.dialect)
		if err != nil {
			return e.fail(inferCommand, err)
		}
		if len(pos) > 0 {
			return e.fail(inferCommand, usagef("--batch takes no INPUT or PATTERN"))
		}
		return runBatch(e, *batch, d, *maxRank)
	}
	if len(pos) != 2 {
		return e.fail(inferCommand, usagef("want INPUT and PATTERN, got %d arguments", len(pos)))
	}
	opt, err := attrs.options()
	if err != nil {
		return e.fail(inferCommand, err)
	}
	opt.MaxRank = *maxRank
	if opt.DataType, err = parseElement("element-type", *elemType); err != nil {
		return e.fail(inferCommand, err)
	}
	if opt.PatternType, err = parseElement("pattern-type", *patternType); err != nil {
		return e.fail(inferCommand, err)
	}
	rec := &inferRecord{Dialect: opt.Dialect, SpecialZero: opt.CopiesZeros()}
	fail := func(err error) int {
		if *asJSON {
			return e.failJSON(inferCommand, err, rec)
		}
		return e.fail(inferCommand, err)
	}
	in, err := shape.Parse(pos[0])
	p, perr := parsePatternArg(pos[1], *patternShape)
	if ue := (*usageError)(nil); errors.As(perr, &ue) {
		return fail(perr)
	}
	if err != nil || perr != nil {
		// Not numbers: symbols, as a model's dims ('[N,3]', 'N,-1').
		sin, values, ps, serr := parseSymbolic(pos[0], pos[1], *patternShape)
		switch {
		case serr == nil && *explain:
			return fail(usagef("--explain takes an INPUT and a PATTERN of numbers, and these have symbols"))
		case serr == nil:
			return e.inferSymbolic(sin, values, ps, opt, rec, *asJSON, fail)
		case strings.ContainsFunc(pos[0]+pos[1], unicode.IsLetter): // meant as symbols
			return fail(serr)
		case err != nil:
			return fail(badInput(fmt.Errorf("INPUT: %w", err)))
		}
		return fail(perr)
	}
	rec.Input = &in
	ps := p.TensorShape()
	rec.Pattern, rec.PatternShape = &p, &ps
	ex, err := reshape.Explain(in, p, opt)
	if err != nil {
		return fail(err)
	}
	if !*asJSON {
		fmt.Fprintln(e.stdout, ex.Output)
		if *explain {
			printExplanation(e.stdout, ex, opt)
		}
		return 0
	}
	rec.Output = &ex.Output
	if *explain {
		rec.Explain = sourceRecords(ex)
	}
	if err := e.emit(rec); err != nil {
		return e.fail(inferCommand, err)
	}
	return 0
}

// parseSymbolic reads INPUT and PATTERN in the dim notation of package sym, where dims and
// pattern values are expressions in symbols ('[N,3,H,W]', 'N,-1'), and --pattern-shape: the
// pattern's values (nil for "-", values unknown) and its tensor's shape. A pattern value -1 is the
// one the rule infers.
func parseSymbolic(input, pattern, tensorShape string) (sym.Shape, []sym.Dim, shape.Shape, error) {
	tab := sym.NewTable()
	in, err := sym.ParseShape(input, tab)
	if err != nil {
		return sym.Shape{}, nil, shape.Shape{}, badInput(fmt.Errorf("INPUT: %w", err))
	}
	var ps shape.Shape
	if tensorShape != "" {
		if ps, err = shape.Parse(tensorShape); err != nil {
			return sym.Shape{}, nil, shape.Shape{}, badInput(fmt.Errorf("--pattern-shape: %w", err))
		}
	}
	if pattern == "-" {
		return in, nil, ps, nil
	}
	var values []sym.Dim
	for i, f := range splitValues(pattern) {
		v := sym.Const(-1) // "-1" reads as "?" in a shape
		if strings.TrimSpace(f) != "-1" {
			if v, err = sym.ParseDim(f, tab); err != nil {
				return sym.Shape{}, nil, shape.Shape{}, badInput(fmt.Errorf("PATTERN: pattern[%d]: %w", i, err))
			}
		}
		values = append(values, v)
	}
	if tensorShape == "" {
		ps = shape.OfInts(int64(len(values)))
	}
	return in, values, ps, nil
}

// splitValues splits a pattern's values at the commas outside parentheses: "N,max(H,W),-1".
// The empty pattern has none.
func splitValues(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// inferSymbolic infers the output of a Reshape whose input and pattern are in symbols
// (reshape.InferSymbolic) and prints it, or its JSON record rec, as runInfer does.
func (e *env) inferSymbolic(in sym.Shape, values []sym.Dim, ps shape.Shape, opt reshape.Options, rec *inferRecord, asJSON bool, fail func(error) int) int {
	rec.Input, rec.PatternShape = in, &ps
	if values != nil {
		rec.Pattern = values
	}
	out, err := reshape.InferSymbolic(in, ps, values, opt)
	if err != nil {
		return fail(err)
	}
	when, why := volumeCondition(in, out, values)
	if !asJSON {
		fmt.Fprintln(e.stdout, out)
		if why != "" {
			fmt.Fprintf(e.stdout, "  when %s: %s\n", when, why)
		}
		return 0
	}
	rec.Output = out
	if why != "" {
		rec.When = when.String()
	}
	if err := e.emit(rec); err != nil {
		return e.fail(inferCommand, err)
	}
	return 0
}

// volumeCondition returns what a Reshape of in to out by the pattern values needs of the symbols
// that InferSymbolic leaves unstated, and why: without a -1, equal volumes ([2,x] to [6] needs
// 2*x == 6); with one, the input volume a multiple of the other output dims. why is "" when it
// always holds, or a dim known only by its bounds leaves it to a run.
func volumeCondition(in, out sym.Shape, values []sym.Dim) (when sym.Pred, why string) {
	if in.RankDynamic || out.RankDynamic || values == nil {
		return sym.Pred{}, ""
	}
	minus := slices.IndexFunc(values, func(d sym.Dim) bool { n, ok := d.Static(); return ok && n == -1 })
	w, r := sym.Const(1), sym.Const(1)
	for _, d := range in.Dims {
		w = sym.MulDims(w, d)
	}
	for k, d := range out.Dims {
		if k != minus {
			r = sym.MulDims(r, d)
		}
	}
	we, ok1 := w.Expr()
	re, ok2 := r.Expr()
	if !ok1 || !ok2 {
		return sym.Pred{}, ""
	}
	if minus < 0 {
		when, why = sym.Eq(we, re), "the input's volume is the output's"
	} else if p, ok := sym.Divisible(we, re); ok {
		when, why = p, fmt.Sprintf("the -1 of pattern[%d]: the input's volume a multiple of the other output dims", minus)
	}
	if why == "" || when.IsTrue() {
		return sym.Pred{}, ""
	}
	return when, why
}

// sourceRecords returns the JSON form of an explanation's sources.
func sourceRecords(ex reshape.Explanation) []sourceRecord {
	out := make([]sourceRecord, len(ex.Sources))
	for i, s := range ex.Sources {
		out[i].Origin = s.Origin.String()
		switch s.Origin {
		case reshape.Copied:
			out[i].Input = &s.Input
		case reshape.Inferred:
			out[i].Dividend, out[i].Divisor, out[i].Cancelled = &s.W, &s.R, s.Cancelled
		}
	}
	return out
}

// parsePatternArg reads PATTERN and --pattern-shape. Its errors are those of the arguments (exit 2).
func parsePatternArg(arg, tensorShape string) (reshape.Pattern, error) {
	var ps shape.Shape
	if tensorShape != "" {
		var err error
		if ps, err = shape.Parse(tensorShape); err != nil {
			return reshape.Pattern{}, badInput(fmt.Errorf("--pattern-shape: %w", err))
		}
	}
	if arg == "-" {
		if tensorShape == "" {
			return reshape.Pattern{}, usagef(`PATTERN "-" (values unknown) needs --pattern-shape, e.g. --pattern-shape '[3]'`)
		}
		return reshape.UnknownPattern(ps), nil
	}
	p, err := reshape.ParsePattern(arg)
	if err != nil || tensorShape == "" {
		return p, badInput(err)
	}
	values, _ := p.Values()
	p, err = reshape.NewPattern(ps, values)
	return p, badInput(err)
}

func printExplanation(w io.Writer, ex reshape.Explanation, opt reshape.Options) {
	for i, s := range ex.Sources {
		d := ex.Output.Dims[i]
		var why string
		switch s.Origin {
		case reshape.Given:
			why = fmt.Sprintf("given by pattern[%d]", i)
		case reshape.Copied:
			why = fmt.Sprintf("copied from input[%d] (special zero)", s.Input)
		case reshape.Unknown:
			why = "unknown: the pattern's values are known only at run time"
		case reshape.Inferred:
			what := "the input volume"
			if opt.Dialect == reshape.OpenVINO && opt.CopiesZeros() {
				what = "the input volume without the dimensions special zeros copy"
			}
			if s.Cancelled {
				what += ", after cancelling equal static dimensions,"
			}
			why = fmt.Sprintf("inferred from -1: %s %s / %s, the product of the other output dimensions", what, s.W, s.R)
		}
		fmt.Fprintf(w, "  out[%d] = %s: %s\n", i, d, why)
	}
}

// runBatch answers every case of a JSON Lines file, one JSON line each, in order.
func runBatch(e *env, path string, d reshape.Dialect, maxRank int) int {
	r := e.stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return e.fail(inferCommand, err)
		}
		defer f.Close()
		r = f
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	lines, errs := 0, 0
	err := conformance.Read(r, func(line int, c *conformance.Case, err error) error {
		res := conformance.Result{Name: c.Name}
		if err != nil {
			res.Error, res.Message = errcode.Code(err), err.Error()
		} else {
			if c.Dialect == "" {
				c.Dialect = d.String()
			}
			res = c.RunWith(maxRank)
		}
		lines++
		if res.Error != "" {
			errs++
		}
		return enc.Encode(res)
	})
	if err != nil {
		return e.fail(inferCommand, badInput(err))
	}
	if errs > 0 {
		fmt.Fprintf(e.stderr, "reshape: infer --batch: %d of %d lines answered with an error\n", errs, lines)
		return 1
	}
	return 0
}
