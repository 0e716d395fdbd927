package check

import (
	"strconv"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// PatternSource says where a Reshape's pattern comes from; it is written as its string, in text and
// in JSON.
type PatternSource string

// Where a Reshape's pattern comes from.
const (
	PatternConst    PatternSource = "const"    // a constant: a Const layer, an s64[] attribute
	PatternComputed PatternSource = "computed" // computed by a shape subgraph and evaluated here
	PatternUnknown  PatternSource = "unknown"  // only known at run time: inferred with the values unknown
)

// sourceOf returns the row's form of where package graph says a pattern comes from.
func sourceOf(s graph.PatternSource) PatternSource { return PatternSource(s.String()) }

// Verdict is the outcome of checking one Reshape: OK, Mismatch, or the error code of an invalid
// reshape ("not-divisible", ..., errcode.Code), "error" for an error without a code. It is written as
// its string, in text and in JSON.
type Verdict string

// The verdicts besides the error codes.
const (
	OK       Verdict = "ok"       // the inferred shape is compatible with the declared one
	Mismatch Verdict = "mismatch" // the model declares an output shape the rules do not give
	// Unknown is the verdict of a node or tensor downstream of a node whose inputs break its rule:
	// nothing is inferred there (graph.NodeResult.Blocked), and the message names that node.
	Unknown Verdict = "unknown"
	// Stale is the verdict of a declaration that disagrees with the inferred shape when bindings
	// give the model other input shapes than it was exported with (--input, --batch-size, and
	// --dim for an IR network, whose ports hold numbers): the declaration is the shape for the old
	// inputs, so the two are not compared.
	Stale Verdict = "stale"
	// Inferred is the verdict of a row whose model declares nothing to compare the inferred shape
	// with.
	Inferred Verdict = "inferred"
	// Avoidable is the verdict of a node whose inputs break its rule in a branch of an If that a
	// run can avoid (graph.NodeResult.Avoidable): the If's condition is known at run time only,
	// and its other branch runs at the bindings. It is not an error of the model there: the
	// message names the If and the branch that runs, and the error with its code.
	Avoidable Verdict = "avoidable"
)

// IsError reports whether v is an error code: neither OK, Mismatch, Inferred, Unknown, Stale nor
// Avoidable, nor "" (not run).
func (v Verdict) IsError() bool {
	return v != OK && v != Mismatch && v != Inferred && v != Unknown && v != Stale && v != Avoidable && v != ""
}

// Row is the result of checking one Reshape, or one other node whose inputs break its rule (an ONNX
// node that a binding of the model's symbols makes invalid). In JSON, shapes are arrays of
// dimensions (numbers when static, strings of the notation otherwise: [2,"B*T","?","1..8"]) and
// null for a dynamic rank; the pattern is the array of its values, null when they are unknown,
// beside the pattern tensor's shape; inferred is left out when inference failed, declared when the
// model declares nothing; an ONNX row has allowzero where the others have special_zero.
type Row struct {
	File string `json:"file"`
	// ID is the node's index in its graph (an IR layer's id); Name its name, or for a node of a
	// subgraph its path ("If_3/then_branch/Reshape_1").
	ID   string `json:"id"`
	Name string `json:"name"`
	// Tensor names the output of a row that compares a declaration of a node other than a
	// Reshape (a graph output, a value_info) with what the rules give; "" for the others.
	Tensor        string          `json:"tensor,omitempty"`
	Op            string          `json:"op"`
	Dialect       reshape.Dialect `json:"dialect"`
	Input         sym.Shape       `json:"input"`
	Pattern       Pattern         `json:"pattern"`
	PatternShape  shape.Shape     `json:"pattern_shape"` // [] for a scalar pattern
	PatternSource PatternSource   `json:"pattern_source"`
	// SpecialZero is the special_zero attribute of OpenVINO and oneDNN rows; AllowZero the
	// allowzero attribute of ONNX rows (its inverse). Exactly one is set.
	SpecialZero *bool      `json:"special_zero,omitempty"`
	AllowZero   *int64     `json:"allowzero,omitempty"`
	Inferred    *sym.Shape `json:"inferred,omitempty"` // nil when inference failed
	Declared    *sym.Shape `json:"declared,omitempty"` // nil when the model declares nothing
	// Verdict is OK or Mismatch when the model declares an output shape, Inferred when it declares
	// none, or the error code of a failed inference ("not-divisible", ...), Avoidable for one in
	// an If branch that a run avoids.
	Verdict Verdict `json:"verdict"`
	// Message explains a verdict other than OK, and for one that says something is wrong, where the
	// pattern comes from.
	Message string `json:"message,omitempty"`
	// Run is the verdict of running the reshape on a constant data input (Options.Run): OK when the
	// result has the declared shape and size, Mismatch, or an error code; "" when it was not run.
	Run Verdict `json:"run,omitempty"`
	// Stopped names the operators (with the node's path) that leave a dim of the row undetermined:
	// nodes without a shape rule, or whose inputs broke their rule, upstream of the Reshape.
	Stopped []string `json:"stopped_by,omitempty"`
}

// Zero returns the row's zero attribute as the model writes it: "special_zero=true", or
// "allowzero=0" for an ONNX row.
func (r *Row) Zero() string {
	switch {
	case r.AllowZero != nil:
		return "allowzero=" + strconv.FormatInt(*r.AllowZero, 10)
	case r.SpecialZero != nil:
		return "special_zero=" + strconv.FormatBool(*r.SpecialZero)
	}
	return "-"
}

// Pattern is a Reshape's pattern as a row shows it: its values in row-major order, each an integer,
// an expression in the model's symbols or an interval, or unknown altogether.
type Pattern struct {
	// Values is nil when the values are unknown (a run-time input).
	Values []sym.Dim
	// Scalar reports a rank-0 pattern tensor (OpenVINO's scalar pattern).
	Scalar bool
}

// String returns the values in brackets ("[0,-1,4]", "[B,T,4,16]"), a scalar pattern's value
// alone ("1"), or "-" when they are unknown.
func (p Pattern) String() string {
	switch {
	case p.Values == nil:
		return "-"
	case p.Scalar && len(p.Values) == 1:
		return p.Values[0].String()
	}
	return sym.ShapeOf(p.Values...).String()
}

// MarshalJSON implements json.Marshaler: the array of the values (numbers when static, strings of
// the notation otherwise), null when they are unknown.
func (p Pattern) MarshalJSON() ([]byte, error) {
	if p.Values == nil {
		return []byte("null"), nil
	}
	return sym.ShapeOf(p.Values...).MarshalJSON()
}
