package reshape

import (
	"strconv"

	"github.com/reshape-go/reshape/errcode"
)

// The sentinel errors, one per error code (see Errors in the package documentation; "rule N" is
// static rule N there). They are those of package errcode, which every package of the module
// reports its errors under: reshape.ErrNotDivisible is errcode.ErrNotDivisible. Every error this
// module returns wraps exactly one of them, so errors.Is tells the code; Code returns it as a
// string.
var (
	// ErrInvalidDim: a pattern value is less than -1 (rule 1), or an input dimension is negative.
	ErrInvalidDim = errcode.ErrInvalidDim
	// ErrMultipleInferred: the pattern holds more than one -1 (rule 2).
	ErrMultipleInferred = errcode.ErrMultipleInferred
	// ErrZeroOutOfRange: a special zero at pattern index i copies input dimension i, and the input
	// has rank i or less (rule 3).
	ErrZeroOutOfRange = errcode.ErrZeroOutOfRange
	// ErrAmbiguousInferred: the other output dimensions multiply to 0, so -1 is undetermined (rule 4).
	ErrAmbiguousInferred = errcode.ErrAmbiguousInferred
	// ErrNotDivisible: the input volume is not a multiple of the other output dimensions (rule 4).
	ErrNotDivisible = errcode.ErrNotDivisible
	// ErrVolumeMismatch: without -1, the output volume differs from the input volume (rules 5, 6).
	ErrVolumeMismatch = errcode.ErrVolumeMismatch
	// ErrScalarPattern: a scalar (rank-0) pattern holds a value other than 1 (rule 6).
	ErrScalarPattern = errcode.ErrScalarPattern
	// ErrPatternRank: the pattern tensor has rank 2 or more, or is a scalar where the dialect wants
	// a 1-D pattern (rule 6).
	ErrPatternRank = errcode.ErrPatternRank
	// ErrOverflow: a product of dimensions, or a number, does not fit in an int64 (rule 7).
	ErrOverflow = errcode.ErrOverflow
	// ErrPatternType: the pattern's element type is not an integer type the dialect allows.
	ErrPatternType = errcode.ErrPatternType
	// ErrDataType: the data element type is not one the dialect allows.
	ErrDataType = errcode.ErrDataType
	// ErrSyntax: notation or a file that cannot be parsed.
	ErrSyntax = errcode.ErrSyntax
	// ErrLimit: a configured bound on rank, bytes or file size is exceeded.
	ErrLimit = errcode.ErrLimit
	// ErrNoEquivalent: a reshape that another dialect cannot express exactly (Translate).
	ErrNoEquivalent = errcode.ErrNoEquivalent
	// ErrInvalidShape: an operator of a model graph refuses the shapes of its inputs.
	ErrInvalidShape = errcode.ErrInvalidShape
	// ErrNoKernel: a node of a model its format allows, of an input element type for which
	// onnxruntime has no CPU kernel: onnxruntime refuses to load the model.
	ErrNoKernel = errcode.ErrNoKernel
	// ErrBinding: a binding given for a model that binds nothing in it (a symbol or an input it does
	// not have, a batch size where no input has a batch dim).
	ErrBinding = errcode.ErrBinding
	// ErrIO: a file that cannot be opened, read or written, as the operating system says.
	ErrIO = errcode.ErrIO
)

// Code returns the error code that err wraps ("invalid-dim", "syntax", ...), or "" when err is nil
// or wraps none of the sentinels. It is errcode.Code.
func Code(err error) string { return errcode.Code(err) }

// Error is an error with a code: Err is the sentinel that gives the code; Index is the pattern index
// at fault, or -1 when no single pattern value is; Msg names the index and value, as in
// "pattern[2] = -3: dimension cannot be less than -1". It is errcode.Error.
type Error = errcode.Error

func newError(sentinel error, index int, msg string) *Error { return errcode.New(sentinel, index, msg) }

// at names pattern value i: "pattern[2] = -3".
func at(i int, v string) string { return "pattern[" + strconv.Itoa(i) + "] = " + v }

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func errInvalidDim(i int, v string) error {
	return newError(ErrInvalidDim, i, at(i, v)+": dimension cannot be less than -1")
}

func errInvalidInterval(i int, v string) error {
	return newError(ErrInvalidDim, i, at(i, v)+": an interval of pattern values cannot reach below 0")
}

func errInputDim(i int, v string) error {
	return newError(ErrInvalidDim, -1, "input["+strconv.Itoa(i)+"] = "+v+": not a valid dimension")
}

func errMultipleInferred(first, i int) error {
	return newError(ErrMultipleInferred, i, at(i, "-1")+": only one dimension can be -1, and pattern["+strconv.Itoa(first)+"] is -1 already")
}

func errZeroOutOfRange(i, rank int) error {
	return newError(ErrZeroOutOfRange, i, at(i, "0")+": special zero copies input dimension "+strconv.Itoa(i)+
		", but the input has rank "+strconv.Itoa(rank))
}

func errAmbiguous(i int, r string) error {
	return newError(ErrAmbiguousInferred, i, at(i, "-1")+": cannot infer the dimension: the other output dimensions multiply to "+r)
}

// errNotDivisible is the error of a -1 whose input volume w is not divisible by r. In the OpenVINO
// dialect, where w leaves out the dimensions special zeros copy, in is the input shape when it
// leaves some out, so that the message does not call w the input's volume; "" otherwise.
func errNotDivisible(i int, w, r, in string) error {
	what := "input volume " + w
	if in != "" {
		what = "input " + in + " without the dimensions special zeros copy has volume " + w + ", which"
	}
	return newError(ErrNotDivisible, i, at(i, "-1")+": "+what+" is not divisible by "+r+
		", the product of the other output dimensions")
}

func errVolumeMismatch(in, out, vin, vout string) error {
	return newError(ErrVolumeMismatch, -1, "output shape "+out+" has volume "+vout+", input shape "+in+" has volume "+vin)
}

func errOverflow(what string) error {
	return newError(ErrOverflow, -1, what+" overflows int64")
}

// Errorf returns an *Error wrapping sentinel, with Index -1 and the message fmt.Sprintf(format,
// args...). It is errcode.Errorf.
func Errorf(sentinel error, format string, args ...any) error {
	return errcode.Errorf(sentinel, format, args...)
}
