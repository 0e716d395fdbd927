package reshape

import (
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/element"
)

// SpecialZero resolves the special_zero of a Reshape of dialect d from the attributes given, each
// nil when absent: specialZero is special_zero (OpenVINO Reshape-1, oneDNN Graph StaticReshape-1 and
// DynamicReshape-1, where it is required), allowZero is allowzero (ONNX Reshape-14, 0 or 1, default
// 0), its inverse. ONNX takes either or both, when they agree. The error wraps ErrSyntax and names
// the attribute: an allowzero that is not 0 or 1, an allowzero outside ONNX, two that contradict
// each other, or a missing special_zero.
func SpecialZero(d Dialect, specialZero *bool, allowZero *int64) (bool, error) {
	switch {
	case allowZero != nil && *allowZero != 0 && *allowZero != 1:
		return false, newError(ErrSyntax, -1, "allowzero="+itoa(*allowZero)+": want 0 or 1")
	case allowZero != nil && d != ONNX:
		return false, newError(ErrSyntax, -1, "allowzero is an attribute of onnx: "+d.String()+" takes special_zero")
	case allowZero != nil && specialZero != nil && (*allowZero == 0) != *specialZero:
		return false, newError(ErrSyntax, -1, "allowzero="+itoa(*allowZero)+" contradicts special_zero="+
			strconv.FormatBool(*specialZero)+": allowzero is the inverse of special_zero")
	case allowZero != nil:
		return *allowZero == 0, nil
	case specialZero != nil:
		return *specialZero, nil
	case d == ONNX:
		return true, nil // allowzero defaults to 0
	}
	return false, newError(ErrSyntax, -1, "special_zero is required by "+d.String()+": give true or false")
}

// onnxReshapeVersions are the versions at which ONNX's Reshape changes: Reshape-1 (shape attribute),
// -5 (shape input), -13, -14 (allowzero), -19, -21.
var onnxReshapeVersions = [...]int64{1, 5, 13, 14, 19, 21}

// ONNXVersion returns the version of ONNX's Reshape that an opset of the default ONNX domain holds:
// the last of 1, 5, 13, 14, 19 and 21 at or before opset (1 below 5).
func ONNXVersion(opset int64) int64 {
	v := onnxReshapeVersions[0]
	for _, since := range onnxReshapeVersions[1:] {
		if opset >= since {
			v = since
		}
	}
	return v
}

// ONNXOptions returns the options of an ONNX Reshape node of a model that imports opset of the
// default domain, whose allowzero attribute is allowZero (nil when the node has none), and the
// version of Reshape that opset holds (ONNXVersion): the dialect onnx, whose zeros copy before
// Reshape-14, and from it on as allowzero says through SpecialZero (allowzero 0 by default), set
// with WithSpecialZero (SpecialZero and AllowZero agree). The error wraps ErrSyntax: an allowzero
// before Reshape-14 ("allowzero is an attribute of Reshape-14 and later, and the model imports
// opset 13"), or one other than 0 or 1. Package graph's Reshape rule reads a node's options with
// it (graph.ReadReshape), for check, fix and conformance too.
func ONNXOptions(opset int64, allowZero *int64) (Options, int64, error) {
	v := ONNXVersion(opset)
	opt := Options{Dialect: ONNX}.WithSpecialZero(true)
	if allowZero == nil {
		return opt, v, nil
	}
	if v < 14 {
		return opt, v, newError(ErrSyntax, -1, "allowzero is an attribute of Reshape-14 and later, and the model imports opset "+itoa(opset))
	}
	sz, err := SpecialZero(ONNX, nil, allowZero)
	return opt.WithSpecialZero(sz), v, err
}

// ParseSpecialZero reads the special_zero attribute of an OpenVINO IR Reshape layer as its <data>
// writes it: true or false in any case (IR v10 writes True and False), or 1 and 0, spaces around
// it ignored. The error wraps ErrSyntax and quotes the text.
func ParseSpecialZero(text string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, newError(ErrSyntax, -1, "special_zero="+strconv.Quote(text)+": want true or false")
}

// DefaultMaxRank is the largest rank of input and output that inference accepts when
// Options.MaxRank is 0: 64, numpy's bound.
const DefaultMaxRank = 64

// Options are the attributes of one Reshape beside its two inputs. The zero value of each field is
// its specification's default where it has one: Options{Dialect: ONNX} is a Reshape-14 without
// attributes, whose zeros copy (allowzero=0).
type Options struct {
	// Dialect selects the specification. The zero value is OpenVINO.
	Dialect Dialect
	// SpecialZero is the special_zero attribute of OpenVINO Reshape-1 and oneDNN Graph
	// StaticReshape-1 and DynamicReshape-1 (required there, so false is a choice, not a default):
	// a 0 in the pattern copies the input dimension at the same index. The ONNX dialect reads
	// AllowZero instead; SpecialZero true beside AllowZero true is a contradiction (ErrSyntax).
	SpecialZero bool
	// AllowZero is ONNX's allowzero attribute (Reshape-14 and later) as a boolean, the inverse of
	// special_zero: false, the zero value, is ONNX's default allowzero=0, under which a 0 copies the
	// input dimension; true keeps a 0 as a literal 0. Only the ONNX dialect takes it (ErrSyntax
	// in the others).
	AllowZero bool
	// DataType, when not Undefined, is checked against the dialect (ErrDataType).
	DataType element.Type
	// PatternType, when not Undefined, is checked against the dialect (ErrPatternType).
	PatternType element.Type
	// MaxRank bounds the input and output ranks (ErrLimit); 0 means DefaultMaxRank, a negative
	// value means no bound.
	MaxRank int
}

// CopiesZeros reports whether a 0 in the pattern copies the input dimension at its index (a
// special zero): SpecialZero in OpenVINO and oneDNN Graph, !AllowZero in ONNX.
func (o *Options) CopiesZeros() bool {
	if o.Dialect == ONNX {
		return !o.AllowZero
	}
	return o.SpecialZero
}

// WithSpecialZero returns o with its zero attribute set so that a 0 copies the input dimension when
// sz is true: SpecialZero = sz, and in the ONNX dialect AllowZero = !sz as well.
func (o Options) WithSpecialZero(sz bool) Options {
	o.SpecialZero = sz
	o.AllowZero = o.Dialect == ONNX && !sz
	return o
}

func (o *Options) maxRank() int {
	switch {
	case o.MaxRank == 0:
		return DefaultMaxRank
	case o.MaxRank < 0:
		return int(^uint(0) >> 1)
	}
	return o.MaxRank
}

// checkTypes verifies the dialect, its zero attribute and the element types, before any static
// rule.
func (o *Options) checkTypes() error {
	if o.Dialect < numDialects && !o.AllowZero && o.DataType == element.Undefined && o.PatternType == element.Undefined {
		return nil
	}
	switch {
	case o.Dialect >= numDialects:
		return newError(ErrSyntax, -1, "unknown dialect "+o.Dialect.String())
	case o.AllowZero && o.Dialect != ONNX:
		return newError(ErrSyntax, -1, "allowzero is an attribute of onnx: "+o.Dialect.String()+" takes special_zero")
	case o.AllowZero && o.SpecialZero:
		return newError(ErrSyntax, -1, "allowzero=1 contradicts special_zero=true: allowzero is the inverse of special_zero")
	}
	if err := o.Dialect.CheckDataType(o.DataType); err != nil {
		return err
	}
	return o.Dialect.CheckPatternType(o.PatternType)
}

// checkRanks verifies the rank bound.
func (o *Options) checkRanks(inRank, outRank int) error {
	if o.MaxRank == 0 && inRank <= DefaultMaxRank && outRank <= DefaultMaxRank {
		return nil
	}
	m := o.maxRank()
	if inRank <= m && outRank <= m {
		return nil
	}
	what, r := "input", inRank
	if outRank > m {
		what, r = "output", outRank
	}
	return newError(ErrLimit, -1, what+" rank "+itoa(int64(r))+" exceeds the limit of "+itoa(int64(m)))
}
