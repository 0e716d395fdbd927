package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/reshape-go/reshape/check"
)

var shapesCommand = &command{
	name:    "shapes",
	summary: "infer the shape of every tensor of an ONNX model, with symbols",
	usage: `Usage:
  reshape shapes [--dim NAME=VALUE]... [--input NAME=SHAPE]... [--json] [--write OUT.onnx] MODEL.onnx

Infers the element type and shape of every tensor of the model from its graph inputs, node by node,
subgraphs (If, Loop, Scan) included, and compares each with the shape the model declares. Dims are
integers, expressions in the model's symbols, or intervals: a named dimension (dim_param) is a symbol
of its name, an unnamed dynamic dim of a graph input the symbol INPUT:AXIS ('x:0'). An expression
uses + - * // / and parentheses: 'B*T', '(H+1)//2'; / is an exact quotient.

Flags:
  --dim NAME=VALUE     bind the symbol NAME to the integer VALUE (repeatable), like onnxruntime's
                       free-dimension overrides; with every symbol bound, every shape is static
  --input NAME=SHAPE   set the shape of graph input NAME, e.g. 'x=[1,3,32,100]' or 'x=[N,3,H,W]'
                       (repeatable)
  --json               print JSON Lines: one record per tensor (graph, name, node, op, type, shape,
                       declared, verdict, message), then a summary record
  --write OUT.onnx     write the model with the inferred shapes added as value_info (main graph):
                       static dims as dim_value, expressions as dim_param
` + limitsHelp + `
Output: one row per tensor with its verdict: ok (the declared shape can be the inferred one),
mismatch (it cannot), inferred (nothing declared to compare with), or the error code of a node
whose inputs break its rule; then the messages, and a summary line that counts each verdict, lists
the symbols and names the operators that have no shape rule.

Exit status: 0 when no tensor is mismatch or an error; 1 otherwise; 2 when the model cannot be read.

Examples:
  reshape shapes model.onnx
  reshape shapes --dim N=1 --dim H=32 model.onnx
  reshape shapes --input 'x=[1,3,224,224]' --write model-shapes.onnx model.onnx
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
func (b *bindings) dims() (map[string]int64, error) {
	if len(b.values) == 0 {
		return nil, nil
	}
	out := make(map[string]int64, len(b.values))
	for name, v := range b.values {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return nil, usagef("--dim %s=%s: want a non-negative integer", name, v)
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
	Record      string         `json:"record"` // "summary"
	File        string         `json:"file"`
	Tensors     int            `json:"tensors"`
	Verdicts    map[string]int `json:"verdicts"`
	Symbols     []string       `json:"symbols"`
	Unsupported map[string]int `json:"unsupported"`
}

type tensorRecord struct {
	Record string `json:"record"` // "tensor"
	check.Tensor
}

func runShapes(e *env, args []string) int {
	fs := flag.NewFlagSet("shapes", flag.ContinueOnError)
	dimFlags, inputFlags := addBindingFlags(fs)
	asJSON := fs.Bool("json", false, "")
	write := fs.String("write", "", "")
	lim := addLimitFlags(fs)
	args, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(shapesCommand, err)
	}
	if len(args) != 1 {
		return e.fail(shapesCommand, usagef("want one MODEL.onnx, got %d arguments", len(args)))
	}
	dims, err := dimFlags.dims()
	if err != nil {
		return e.fail(shapesCommand, err)
	}
	opt := check.Options{MaxRank: lim.maxRank, MaxFileSize: lim.fileLimit(), Dims: dims, Inputs: inputFlags.values}
	s, err := check.InferShapes(args[0], opt)
	if err != nil {
		return e.fail(shapesCommand, badInput(err))
	}
	defer s.Close()
	// The output is created before anything is printed: a path that cannot be written fails alone.
	var out *outFile
	if *write != "" {
		if out, err = e.create(*write); err != nil {
			return e.fail(shapesCommand, err)
		}
	}
	counts := map[string]int{}
	for _, t := range s.Tensors {
		counts[string(t.Verdict)]++
	}
	if *asJSON {
		for _, t := range s.Tensors {
			e.emit(tensorRecord{"tensor", t})
		}
		e.emit(shapesSummary{Record: "summary", File: s.File, Tensors: len(s.Tensors), Verdicts: counts, Symbols: s.Symbols, Unsupported: s.Unsupported})
	} else {
		printTensors(e.stdout, s.Tensors, e.colorOut)
		fmt.Fprintln(e.stdout, shapesLine(s, counts))
	}
	if out != nil {
		b, err := s.WithValueInfo()
		if err == nil {
			_, err = out.Write(b)
		}
		if err != nil {
			out.abort()
			return e.fail(shapesCommand, outputError(*write, err))
		}
		if err := out.commit(); err != nil {
			return e.fail(shapesCommand, err)
		}
	}
	if counts[string(check.Mismatch)] > 0 || len(s.Tensors) > counts[string(check.OK)]+counts[string(check.Mismatch)]+counts[string(check.Inferred)] {
		return 1
	}
	return 0
}

// shapesLine is the summary: "N tensors: A ok, B mismatch, C inferred, D error; symbols: B, T; no
// shape rule: Conv (3)".
func shapesLine(s *check.Shapes, counts map[string]int) string {
	errs := len(s.Tensors) - counts["ok"] - counts["mismatch"] - counts["inferred"]
	line := fmt.Sprintf("%d tensors: %d ok, %d mismatch, %d inferred, %d error", len(s.Tensors), counts["ok"], counts["mismatch"], counts["inferred"], errs)
	if len(s.Symbols) > 0 {
		line += "; symbols: " + strings.Join(s.Symbols, ", ")
	}
	if len(s.Unsupported) > 0 {
		ops := slices.Sorted(maps.Keys(s.Unsupported))
		for i, op := range ops {
			ops[i] = fmt.Sprintf("%s (%d)", op, s.Unsupported[op])
		}
		line += "; no shape rule: " + strings.Join(ops, ", ")
	}
	return line
}

// printTensors prints the tensors as a table, then the message of each that has one.
func printTensors(w io.Writer, ts []check.Tensor, color bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TENSOR\tOP\tTYPE\tSHAPE\tDECLARED\t"+paint(color, bold, "VERDICT"))
	for _, t := range ts {
		name := t.Name
		if t.Graph != "" {
			name = t.Graph + "/" + t.Name
		}
		declared := "-"
		if t.Declared != nil {
			declared = t.Declared.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", name, dash(t.Op), t.Type, t.Shape, declared, paintVerdict(color, string(t.Verdict)))
	}
	tw.Flush()
	for _, t := range ts {
		if t.Message != "" && t.Verdict != check.Inferred {
			fmt.Fprintf(w, "%s: %s\n", t.Name, t.Message)
		}
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// paintVerdict colours a verdict: ok green, mismatch yellow, inferred plain, errors red.
func paintVerdict(color bool, v string) string {
	switch check.Verdict(v) {
	case check.OK:
		return paint(color, green, v)
	case check.Mismatch:
		return paint(color, yellow, v)
	case check.Inferred:
		return v
	}
	return paint(color, red, v)
}
