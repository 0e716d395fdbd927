package reshape

import (
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/element"
)

// Dialect selects which specification's rules apply where the specifications disagree (see
// Dialects in the package documentation). The zero Dialect is OpenVINO.
type Dialect uint8

const (
	// OpenVINO is OpenVINO Reshape-1: the pattern is an input tensor of any integer type, of rank 1
	// or 0; any data type. Special-zero positions count on neither side of the -1 computation.
	OpenVINO Dialect = iota
	// OneDNNStatic is oneDNN Graph StaticReshape-1: the pattern is an s64[] attribute; data f32,
	// f16 or bf16.
	OneDNNStatic
	// OneDNNDynamic is oneDNN Graph DynamicReshape-1: the pattern is a run-time s32 input; data f32,
	// f16 or bf16.
	OneDNNDynamic
	// ONNX is ONNX Reshape-14 and later: the pattern is a 1-D int64 input; any data type;
	// special_zero is the inverse of the allowzero attribute (default allowzero=0).
	ONNX
	numDialects
)

var dialectNames = [numDialects]string{"openvino", "onednn-static", "onednn-dynamic", "onnx"}

// String returns the dialect's name in the API and the command line: "openvino", "onednn-static",
// "onednn-dynamic" or "onnx".
func (d Dialect) String() string {
	if d >= numDialects {
		return "Dialect(" + itoa(int64(d)) + ")"
	}
	return dialectNames[d]
}

// Dialects returns every dialect.
func Dialects() []Dialect { return []Dialect{OpenVINO, OneDNNStatic, OneDNNDynamic, ONNX} }

// ParseDialect returns the dialect named s (see Dialect.String; case is ignored). The error wraps
// ErrSyntax.
func ParseDialect(s string) (Dialect, error) {
	for d, name := range dialectNames {
		if strings.EqualFold(s, name) {
			return Dialect(d), nil
		}
	}
	return 0, newError(ErrSyntax, -1, "unknown dialect "+strconv.Quote(s)+": want one of "+strings.Join(dialectNames[:], ", "))
}

// MarshalText implements encoding.TextMarshaler with the dialect's name.
func (d Dialect) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with the names ParseDialect accepts.
func (d *Dialect) UnmarshalText(text []byte) error {
	v, err := ParseDialect(string(text))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// CheckDataType returns nil when the dialect allows data of element type t, and an error wrapping
// ErrDataType otherwise: oneDNN Graph's StaticReshape-1 and DynamicReshape-1 take f32, f16 and bf16
// (T, T1); OpenVINO Reshape-1 ("any numeric type") and ONNX take any type. Undefined is not checked.
func (d Dialect) CheckDataType(t element.Type) error {
	if !d.takesData(t) {
		return newError(ErrDataType, -1, "data element type "+d.typeName(t)+": "+d.String()+" takes f32, f16 or bf16")
	}
	return nil
}

// typeName names an element type as the dialect's specification does: oneDNN Graph writes signed
// integers s8, s32, s64 where OpenVINO writes i8, i32, i64.
func (d Dialect) typeName(t element.Type) string {
	name := t.String()
	if oneDNN(d) && t.IsSigned() && name[0] == 'i' {
		name = "s" + name[1:]
	}
	return name
}

// takesData reports whether the dialect allows data of element type t (CheckDataType).
func (d Dialect) takesData(t element.Type) bool {
	return t == element.Undefined || !oneDNN(d) || t == element.F32 || t == element.F16 || t == element.BF16
}

// oneDNN reports whether d is one of the oneDNN Graph dialects, which restrict the data type.
func oneDNN(d Dialect) bool { return d == OneDNNStatic || d == OneDNNDynamic }

// CheckPatternType returns nil when the dialect allows a pattern of element type t, and an error
// wrapping ErrPatternType otherwise: OpenVINO takes any integer type (T_SHAPE), StaticReshape-1 an
// s64 attribute, DynamicReshape-1 s32 (T2), ONNX int64. Undefined is not checked. The messages
// name types as the dialect's specification does (oneDNN Graph: s32, s64).
func (d Dialect) CheckPatternType(t element.Type) error {
	var want element.Type
	switch {
	case t == element.Undefined:
		return nil
	case d == OpenVINO:
		if t.IsInteger() {
			return nil
		}
		return newError(ErrPatternType, -1, "pattern element type "+t.String()+": openvino takes an integer type")
	case d == OneDNNStatic, d == ONNX:
		want = element.I64
	case d == OneDNNDynamic:
		want = element.I32
	}
	if t != want {
		return newError(ErrPatternType, -1, "pattern element type "+d.typeName(t)+": "+d.String()+" takes "+d.typeName(want))
	}
	return nil
}
