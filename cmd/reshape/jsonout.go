package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"

	"github.com/reshape-go/reshape/errcode"
)

// The JSON that the commands write with --json: one JSON value per line (JSON Lines), on stdout.
// Shapes are arrays of dimensions, numbers when static and strings of the notation otherwise
// ([2,"?","1..8"]), null for a dynamic rank; patterns are arrays of values, null when unknown.
// An error is the fields error (its code, "error" when it has none) and message in the record of
// what failed. Usage errors are not JSON: they go to stderr as text, with exit status 2.

// errorFields are the fields of a record that failed.
type errorFields struct {
	Error   string `json:"error,omitempty"`
	Message string `json:"message,omitempty"`
}

// setError sets the fields of err: its code (io for an error of the operating system), and its
// message.
func (f *errorFields) setError(err error) {
	f.Error, f.Message = cmp.Or(errcode.Code(errcode.IO(err)), "error"), err.Error()
}

// errorRecord is a record that can carry an error.
type errorRecord interface{ setError(error) }

// emit writes v as one line of JSON on stdout.
func (e *env) emit(v any) error {
	if e.names == nil {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	}
	b, err := e.record(v)
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(b)
	return err
}

// record returns the JSON line of v, with the sizes computed in floating point by their names
// (floatNames.renameJSON).
func (e *env) record(v any) ([]byte, error) {
	b, err := jsonLine(v)
	return e.names.renameJSON(b), err
}

// jsonLine returns v in JSON as emit writes it, without HTML escapes, and a newline.
func jsonLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return buf.Bytes(), err
}

// emitSummary writes the summary record v as emit does, with "definitions" last: each name of a
// size computed in floating point that the records use, with the size in the models' symbols
// ({"s1": "int(floor(f32(H)*...))"}), when there are any.
func (e *env) emitSummary(v any) error {
	b, err := e.record(v)
	if err != nil {
		return err
	}
	if defs := e.names.definitions(); len(defs) > 0 {
		d, err := jsonLine(defs)
		if err != nil {
			return err
		}
		b = append(append(append(bytes.TrimSuffix(b, []byte("}\n")), `,"definitions":`...), bytes.TrimSuffix(d, []byte("\n"))...), "}\n"...)
	}
	_, err = e.stdout.Write(b)
	return err
}

// reportInput reports the error of one input among many (a file, a test) that could not be read:
// with asJSON the record rec with the error set, on stdout; otherwise as text on stderr.
func (e *env) reportInput(asJSON bool, rec errorRecord, err error) {
	if asJSON {
		rec.setError(err)
		e.emit(rec)
		return
	}
	e.report(err)
}

// failJSON is fail for a command run with --json: it reports err in the record rec on stdout and
// returns the exit status fail would. Usage errors and --help are reported as fail does.
func (e *env) failJSON(c *command, err error, rec errorRecord) int {
	var ue *usageError
	if errors.As(err, &ue) || errors.Is(err, flag.ErrHelp) {
		return e.fail(c, err)
	}
	rec.setError(err)
	if err := e.emit(rec); err != nil {
		return e.fail(c, err)
	}
	return exitStatus(err)
}
