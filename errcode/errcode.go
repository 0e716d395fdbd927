// Package errcode holds the error codes of the module: one sentinel error per code, the *Error
// type that carries a code with the place at fault, and Code, which reads the code back.
//
// The codes are those of the Reshape rules that the documentation of package reshape
// (github.com/reshape-go/reshape) writes out, "rule N" below being its static rule N: invalid-dim,
// multiple-inferred, zero-out-of-range, ambiguous-inferred, not-divisible, volume-mismatch,
// scalar-pattern, pattern-rank and overflow; and beside them pattern-type, data-type, syntax,
// limit, no-equivalent, invalid-shape, no-kernel, binding and io. The specifications describe the
// conditions but name no codes: the codes are this module's. Every package of the module, from the shape notation to the
// file readers, reports its errors under these codes, so this package imports nothing of the
// module: a file reader depends on it and not on the inference rules. The root package reshape
// re-exports the sentinels (reshape.ErrNotDivisible is ErrNotDivisible) for its users.
//
// An error of the module wraps exactly one sentinel, directly as an *Error or through fmt.Errorf's
// %w, so that errors.Is tells its code:
//
//	if errors.Is(err, errcode.ErrNotDivisible) { ... }
//	fmt.Println(errcode.Code(err)) // "not-divisible"
package errcode

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// The sentinel errors, one per code. The text of each is its code.
var (
	// ErrInvalidDim: a pattern value is less than -1 (rule 1), or a dimension is negative.
	ErrInvalidDim = errors.New("invalid-dim")
	// ErrMultipleInferred: the pattern holds more than one -1 (rule 2).
	ErrMultipleInferred = errors.New("multiple-inferred")
	// ErrZeroOutOfRange: a special zero at pattern index i copies input dimension i, and the input
	// has rank i or less (rule 3).
	ErrZeroOutOfRange = errors.New("zero-out-of-range")
	// ErrAmbiguousInferred: the other output dimensions multiply to 0, so -1 is undetermined (rule 4).
	ErrAmbiguousInferred = errors.New("ambiguous-inferred")
	// ErrNotDivisible: the input volume is not a multiple of the other output dimensions (rule 4).
	ErrNotDivisible = errors.New("not-divisible")
	// ErrVolumeMismatch: without -1, the output volume differs from the input volume (rules 5, 6).
	ErrVolumeMismatch = errors.New("volume-mismatch")
	// ErrScalarPattern: a scalar (rank-0) pattern holds a value other than 1 (rule 6).
	ErrScalarPattern = errors.New("scalar-pattern")
	// ErrPatternRank: the pattern tensor has rank 2 or more, or is a scalar where the dialect wants
	// a 1-D pattern (rule 6).
	ErrPatternRank = errors.New("pattern-rank")
	// ErrOverflow: a product of dimensions, or a number, does not fit in an int64 (rule 7).
	ErrOverflow = errors.New("overflow")
	// ErrPatternType: the pattern's element type is not an integer type the dialect allows.
	ErrPatternType = errors.New("pattern-type")
	// ErrDataType: the data element type is not one the dialect, or the operation, allows.
	ErrDataType = errors.New("data-type")
	// ErrSyntax: notation or a file that cannot be parsed, or a model that breaks its format.
	ErrSyntax = errors.New("syntax")
	// ErrLimit: a configured bound on rank, bytes, file size, depth or count is exceeded.
	ErrLimit = errors.New("limit")
	// ErrNoEquivalent: a reshape that another dialect cannot express exactly.
	ErrNoEquivalent = errors.New("no-equivalent")
	// ErrInvalidShape: an operator of a model graph refuses the shapes or values of its inputs
	// (dimensions that cannot broadcast, a pooled size below 1, an axis out of range).
	ErrInvalidShape = errors.New("invalid-shape")
	// ErrNoKernel: a node of a model its format allows, which a runtime refuses to load: an input
	// of an element type its specification allows and onnxruntime has no CPU kernel for ("Could
	// not find an implementation for Relu(14)"). A code of this project: the specifications
	// allow the model.
	ErrNoKernel = errors.New("no-kernel")
	// ErrBinding: a binding given for a model that binds nothing in it: the name of a symbol or of
	// an input the model does not have, a batch size where no input has a batch dim. A code of this
	// project: the caller's request, not the model, is at fault.
	ErrBinding = errors.New("binding")
	// ErrIO: a file that cannot be opened, read or written, as the operating system says (a missing
	// file, a permission, a full disk); IO marks such an error.
	ErrIO = errors.New("io")
)

// sentinels lists every code, in the order Code tries them.
var sentinels = [...]error{
	ErrInvalidDim, ErrMultipleInferred, ErrZeroOutOfRange, ErrAmbiguousInferred, ErrNotDivisible,
	ErrVolumeMismatch, ErrScalarPattern, ErrPatternRank, ErrOverflow, ErrPatternType, ErrDataType,
	ErrSyntax, ErrLimit, ErrNoEquivalent, ErrInvalidShape, ErrNoKernel, ErrBinding, ErrIO,
}

// Sentinels returns every sentinel error, one per code, in a new slice.
func Sentinels() []error { return append([]error(nil), sentinels[:]...) }

// Code returns the code that err wraps ("invalid-dim", "syntax", ...), or "" when err is nil or
// wraps none of the sentinels.
func Code(err error) string {
	if err == nil {
		return ""
	}
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	return ""
}

// Error is an error with a code. Err is the sentinel that gives the code; Index is the index of
// the pattern value at fault, or -1 when no single pattern value is; Msg says what is wrong and
// where, naming the offending index and value, as in
// "pattern[2] = -3: dimension cannot be less than -1".
type Error struct {
	Err   error
	Index int
	Msg   string
}

// Error returns e.Msg; the code is e.Err's text, and Code(e) returns it.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns e.Err, so that errors.Is(e, ErrSyntax) works.
func (e *Error) Unwrap() error { return e.Err }

// New returns an *Error wrapping sentinel with the pattern index at fault and the message msg.
func New(sentinel error, index int, msg string) *Error {
	return &Error{Err: sentinel, Index: index, Msg: msg}
}

// Errorf returns an *Error wrapping sentinel, with Index -1 and the message fmt.Sprintf(format,
// args...).
func Errorf(sentinel error, format string, args ...any) error {
	return &Error{Err: sentinel, Index: -1, Msg: fmt.Sprintf(format, args...)}
}

// IO returns err with the code io (ErrIO) when it is an error of the operating system (an
// *fs.PathError, *os.LinkError, *os.SyscallError or syscall.Errno in its chain) and wraps no
// sentinel; otherwise err itself. The result keeps err's chain: errors.Is(IO(err),
// fs.ErrNotExist) holds as it did.
func IO(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	var errno syscall.Errno
	if err == nil || Code(err) != "" || !errors.As(err, &pe) && !errors.As(err, &le) && !errors.As(err, &se) && !errors.As(err, &errno) {
		return err
	}
	return ioError{err}
}

// ioError is an error of the operating system with the code io.
type ioError struct{ err error }

func (e ioError) Error() string   { return e.err.Error() }
func (e ioError) Unwrap() []error { return []error{ErrIO, e.err} }
