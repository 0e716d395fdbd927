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
  reshape translate --from D --to D2 --special-zero=true|false [--input SHAPE] PATTERN

Rewrites the pattern and its special_zero (or allowzero) flag from dialect D into dialect D2 so that
the two reshapes agree on every input shape inside --input (default [...]: any), and says so when no
exact equivalent exists (exit 1, code no-equivalent). The dialects differ where a special zero beside
a -1 copies a dimension that may be 0 (OpenVINO counts it on neither side, oneDNN and ONNX fail), in
the scalar pattern (OpenVINO only), and in the values oneDNN can carry (static s64 attribute for
StaticReshape, s32 for DynamicReshape).

Flags:
  --from D            the source dialect: openvino, onednn-static, onednn-dynamic or onnx
  --to D2             the target dialect
  --special-zero=B    the source's special_zero; required except for onnx
  --allowzero=N       onnx source only: allowzero (0 by default)
  --input SHAPE       what is known of the input shape, as a partial shape: [2,?,3], [...]
  --pattern-shape S   the pattern tensor's shape: [] for a scalar pattern, [n] with PATTERN "-"

Output: one line, the target dialect, the pattern and the flag to give it:
  onnx [3,4,0] allowzero=1

Examples:
  reshape translate --from onnx --allowzero=1 --to openvino 3,4,0
  reshape translate --from openvino --special-zero=true --to onednn-static --input [2..8,3] 0,-1
`,
}

func runTranslate(e *env, args []string) int {
	fs := flag.NewFlagSet("translate", flag.ContinueOnError)
	attrs := addAttrFlags(fs, "from", "")
	to := fs.String("to", "", "")
	input := fs.String("input", "[...]", "")
	patternShape := fs.String("pattern-shape", "", "")
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
	target, err := reshape.ParseDialect(*to)
	if err != nil {
		return e.fail(translateCommand, usagef("--to: %v", err))
	}
	in, err := shape.Parse(*input)
	if err != nil {
		return e.fail(translateCommand, badInput(fmt.Errorf("--input: %w", err)))
	}
	p, err := parsePatternArg(pos[0], *patternShape)
	if err != nil {
		return e.fail(translateCommand, err)
	}
	tp, topt, err := reshape.Translate(p, opt, target, in)
	if err != nil {
		return e.fail(translateCommand, err)
	}
	flagText := fmt.Sprintf("special_zero=%v", topt.SpecialZero)
	if target == reshape.ONNX {
		allow := 0
		if !topt.SpecialZero {
			allow = 1
		}
		flagText = fmt.Sprintf("allowzero=%d", allow)
	}
	// A scalar pattern, or one of unknown values, is not told by its values alone.
	if _, known := tp.Values(); !known || tp.IsScalar() {
		flagText += " pattern_shape=" + tp.TensorShape().String()
	}
	fmt.Fprintf(e.stdout, "%s %s %s\n", target, tp, flagText)
	return 0
}
