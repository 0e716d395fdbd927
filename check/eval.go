package check

import (
	"errors"
	"fmt"

	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/errcode"
)

// maxEvalDepth bounds how far back through a shape subgraph a pattern is evaluated.
const maxEvalDepth = 64

// operands are the inputs of the node an evaluator is at, in either format: how many there are,
// whether input i is given (ONNX leaves optional inputs empty), and the value of input i.
type operands struct {
	n       int
	present func(i int) bool
	at      func(i int) (bounds.Value, error)
}

// all returns the values of every input, in order.
func (o operands) all() ([]bounds.Value, error) {
	vs := make([]bounds.Value, o.n)
	for i := range vs {
		var err error
		if vs[i], err = o.at(i); err != nil {
			return nil, err
		}
	}
	return vs, nil
}

// ints returns the values of input i, which must be constant when it is given; given is false when
// the node has no input i.
func (o operands) ints(i int, what string) (values []int64, given bool, err error) {
	if i >= o.n || !o.present(i) {
		return nil, false, nil
	}
	v, err := o.at(i)
	if err != nil {
		return nil, false, err
	}
	values, ok := v.Ints()
	if !ok {
		return nil, false, fmt.Errorf("%w: %s not constant", bounds.ErrUnknown, what)
	}
	return values, true, nil
}

// pair returns the values of inputs 0 and 1.
func (o operands) pair() (a, b bounds.Value, err error) {
	if a, err = o.at(0); err != nil {
		return a, b, err
	}
	b, err = o.at(1)
	return a, b, err
}

// binary applies an element-wise arithmetic operation to inputs 0 and 1.
func (o operands) binary(op bounds.Op) (bounds.Value, error) {
	a, b, err := o.pair()
	if err != nil {
		return a, err
	}
	return bounds.Binary(op, a, b)
}

// squeeze applies Squeeze or Unsqueeze to input 0 with the given axes.
func (o operands) squeeze(unsqueeze bool, axes []int64) (bounds.Value, error) {
	v, err := o.at(0)
	if err != nil {
		return v, err
	}
	if unsqueeze {
		return bounds.Unsqueeze(v, axes)
	}
	return bounds.Squeeze(v, axes)
}

// subgraphError is a shape subgraph that cannot be evaluated: where names the node the failure
// happened at; err keeps its code.
type subgraphError struct {
	where string
	err   error
}

func (e *subgraphError) Error() string { return e.where + ": " + e.err.Error() }
func (e *subgraphError) Unwrap() error { return e.err }

// at places an evaluation error at the node where it happened, once: errors from the nodes feeding
// it carry their own place, and values known only at run time are not errors of the model. An error
// without a code gets errcode.ErrSyntax.
func at(where string, err error) error {
	var se *subgraphError
	if err == nil || errors.Is(err, bounds.ErrUnknown) || errors.As(err, &se) {
		return err
	}
	if errcode.Code(err) == "" {
		err = errcode.Errorf(errcode.ErrSyntax, "%v", err)
	}
	return &subgraphError{where: where, err: err}
}
