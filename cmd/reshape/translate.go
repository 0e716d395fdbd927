package main

import (
	"flag"
	"fmt"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/shape"
)

var translateCommand = &command{
	name:    "translate",
	summary: "rewrite a pattern and its flag from one dialect into another",
	usage: `Usage:
  reshape translate --from D --to D2 --special-zero=true|false [--input SHAPE]
                    [--json] PATTERN

Rewrites the pattern and its special_zero (or allowzero) flag from dialect D
into dialect D2 so that the two reshapes agree on every input shape inside
--input (default '[...]': any), and says so when no exact equivalent exists
(exit 1, code no-equivalent). The dialects differ where a special zero beside a
-1 copies a dimension that may be 0 (OpenVINO counts it on neither side, oneDNN
and ONNX fail), in the scalar pattern (OpenVINO only), and in the values oneDNN
can carry (static s64 attribute for StaticReshape, s32 for DynamicReshape).

Flags:
  --from D            the source dialect: openvino, onednn-static,
                      onednn-dynamic or onnx
  --to D2             the target dialect
  --special-zero=B    the source's special_zero; required except for onnx
  --allowzero=N       onnx source only: allowzero, 0 (the default) or 1
  --input SHAPE       what is known of the input shape, as a partial shape:
                      '[2,?,3]', '[...]'
  --pattern-shape S   the pattern tensor's shape: '[]' for a scalar pattern,
                      '[n]' with PATTERN "-"
  --json              print one JSON record: dialect, pattern, pattern_shape,
                      special_zero (and allowzero for onnx), or error and
                      message

Output: one line, the target dialect, the pattern and the flag to give it, and
the pattern's shape when the values alone do not tell it (a scalar pattern,
unknown values):
  onnx [3,4,0] allowzero=1
  openvino 1 special_zero=true pattern_shape=[]

Examples:
  reshape translate --from onnx --allowzero=1 --to openvino 3,4,0
  reshape translate --from openvino --special-zero=true --to onednn-static \
    --input '[2..8,3]' 0,-1
`,
}

// translateRecord is the JSON record of translate --json.
type translateRecord struct {
	Dialect      *reshape.Dialect `json:"dialect,omitempty"`
	Pattern      *reshape.Pattern `json:"pattern,omitempty"`
	PatternShape *shape.Shape     `json:"pattern_shape,omitempty"`
	SpecialZero  *bool            `json:"special_zero,omitempty"`
	AllowZero    *int             `json:"allowzero,omitempty"` // onnx only
	errorFields
}

func runTranslate(e *env, args []string) int {
	fs := flag.NewFlagSet("translate", flag.ContinueOnError)
	attrs := addAttrFlags(fs, "from", "")
	to := fs.String("to", "", "")
	input := fs.String("input", "[...]", "")
	patternShape := fs.String("pattern-shape", "", "")
	asJSON := fs.Bool("json", false, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(translateCommand, err)
	}
	if *attrs.dialect == "" || *to == "" {
		return e.fail(translateCommand, usagef("--from and --to are required"))
	}
	if len(pos) != 1 {
		return e.fail(translateCommand, usagef("want one PATTERN, got %d arguments", len(pos)))
	}
	opt, err := attrs.options()
	if err != nil {
		return e.fail(translateCommand, err)
	}
	target, err := parseDialect("to", *to)
	if err != nil {
		return e.fail(translateCommand, err)
	}
	rec := &translateRecord{}
	fail := func(err error) int {
		if *asJSON {
			return e.failJSON(translateCommand, err, rec)
		}
		return e.fail(translateCommand, err)
	}
	in, err := shape.Parse(*input)
	if err != nil {
		return fail(badInput(fmt.Errorf("--input: %w", err)))
	}
	p, err := parsePatternArg(pos[0], *patternShape)
	if err != nil {
		return fail(err)
	}
	tp, topt, err := reshape.Translate(p, opt, target, in)
	if err != nil {
		return fail(err)
	}
	allow, sz := 0, topt.CopiesZeros()
	if !sz {
		allow = 1
	}
	ps := tp.TensorShape()
	_, known := tp.Values()
	if *asJSON {
		rec.Dialect, rec.Pattern, rec.PatternShape, rec.SpecialZero = &target, &tp, &ps, &sz
		if target == reshape.ONNX {
			rec.AllowZero = &allow
		}
		if err := e.emit(rec); err != nil {
			return e.fail(translateCommand, err)
		}
		return 0
	}
	flagText := fmt.Sprintf("special_zero=%v", sz)
	if target == reshape.ONNX {
		flagText = fmt.Sprintf("allowzero=%d", allow)
	}
	// A scalar pattern, or one of unknown values, is not told by its values alone.
	if !known || tp.IsScalar() {
		flagText += " pattern_shape=" + ps.String()
	}
	fmt.Fprintf(e.stdout, "%s %s %s\n", target, tp, flagText)
	return 0
}
