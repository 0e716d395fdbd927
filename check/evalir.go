package check

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/shape"
)

// irEval evaluates the shape subgraphs of an IR network: the value of a layer's output, from
// constants and the shapes the ports declare, as far as it can be known before run time.
type irEval struct {
	net      *ir.Net
	w        *ir.Weights
	maxElems int64
	memo     map[string]evalResult
	visiting map[string]bool
}

type evalResult struct {
	v   bounds.Value
	err error
}

func newIREval(net *ir.Net, w *ir.Weights, maxElems int64) *irEval {
	return &irEval{net: net, w: w, maxElems: maxElems, memo: map[string]evalResult{}, visiting: map[string]bool{}}
}

// input returns the value that feeds input port i of layer l.
func (e *irEval) input(l *ir.Layer, i int, depth int) (bounds.Value, error) {
	if i >= len(l.Inputs) {
		return bounds.Value{}, errcode.Errorf(errcode.ErrSyntax, "%s %v has no input %d", l.Type, l, i)
	}
	src, out, ok := e.net.Producer(l.ID, l.Inputs[i].ID)
	if !ok {
		return bounds.Value{}, errcode.Errorf(errcode.ErrSyntax, "%s %v: no edge feeds input port %q", l.Type, l, l.Inputs[i].ID)
	}
	return e.value(src, out.ID, depth+1)
}

// value returns the value of output port of layer l. It returns an error wrapping bounds.ErrUnknown
// when the value depends on run-time data, and a reshape error when the subgraph is malformed.
func (e *irEval) value(l *ir.Layer, port string, depth int) (bounds.Value, error) {
	key := l.ID + "\x00" + port
	if r, ok := e.memo[key]; ok {
		return r.v, r.err
	}
	if e.visiting[key] {
		return bounds.Value{}, errcode.Errorf(errcode.ErrSyntax, "%s %v: the edges form a cycle through it", l.Type, l)
	}
	if depth > maxEvalDepth {
		return bounds.Value{}, fmt.Errorf("%w: the shape subgraph is deeper than %d layers", bounds.ErrUnknown, maxEvalDepth)
	}
	e.visiting[key] = true
	v, err := e.eval(l, depth)
	delete(e.visiting, key)
	err = at(l.Type+" "+l.String(), err)
	e.memo[key] = evalResult{v, err}
	return v, err
}

func (e *irEval) eval(l *ir.Layer, depth int) (bounds.Value, error) {
	in := operands{
		n:       len(l.Inputs),
		present: func(int) bool { return true },
		at:      func(i int) (bounds.Value, error) { return e.input(l, i, depth) },
	}
	switch l.Type {
	case "Const":
		c, err := l.Const()
		if err != nil {
			return bounds.Value{}, err
		}
		if !c.Type.IsInteger() {
			return bounds.Value{}, fmt.Errorf("%w: a %v constant", bounds.ErrUnknown, c.Type)
		}
		values, err := e.w.Ints(c, e.maxElems)
		if err != nil {
			if errors.Is(err, errcode.ErrLimit) {
				return bounds.Value{}, fmt.Errorf("%w: %v", bounds.ErrUnknown, err)
			}
			return bounds.Value{}, err
		}
		return bounds.Const(values, append([]int64{}, c.Shape...)...) // non-nil: a scalar stays a scalar
	case "ShapeOf":
		return bounds.ShapeOf(e.shapeOf(l))
	case "Convert":
		v, err := in.at(0)
		if err != nil {
			return v, err
		}
		attr, _ := l.Attr("destination_type")
		t, err := element.Parse(attr)
		if err != nil {
			return v, fmt.Errorf("destination_type=%q: %v", attr, err)
		}
		return bounds.Convert(v, t)
	case "Concat":
		vs, err := in.all()
		if err != nil {
			return bounds.Value{}, err
		}
		axis, err := intAttr(l, "axis", 0)
		if err != nil {
			return bounds.Value{}, err
		}
		return bounds.Concat(vs, axis)
	case "Gather":
		data, indices, err := in.pair()
		if err != nil {
			return data, err
		}
		axis, _, err := in.ints(2, "axis")
		if err != nil {
			return bounds.Value{}, err
		}
		if len(axis) != 1 {
			return bounds.Value{}, fmt.Errorf("the axis input holds %d values, want 1", len(axis))
		}
		batch, err := intAttr(l, "batch_dims", 0)
		if err != nil {
			return bounds.Value{}, err
		}
		return bounds.Gather(data, indices, axis[0], batch)
	case "Squeeze", "Unsqueeze":
		axes, _, err := in.ints(1, "axes")
		if err != nil {
			return bounds.Value{}, err
		}
		return in.squeeze(l.Type == "Unsqueeze", axes)
	case "StridedSlice":
		return e.stridedSlice(l, in)
	case "Add":
		return in.binary(bounds.Add)
	case "Subtract":
		return in.binary(bounds.Subtract)
	case "Multiply":
		return in.binary(bounds.Multiply)
	case "Divide":
		if py, ok := l.Attr("m_pythondiv"); ok && strings.EqualFold(py, "false") {
			return in.binary(bounds.DivideTrunc)
		}
		return in.binary(bounds.DivideFloor)
	case "ReduceProd":
		v, err := in.at(0)
		if err != nil {
			return v, err
		}
		axes, given, err := in.ints(1, "axes")
		if err != nil {
			return v, err
		}
		if !given {
			return v, fmt.Errorf("ReduceProd without its axes input")
		}
		keep, _ := l.Attr("keep_dims")
		return bounds.ReduceProd(v, axes, strings.EqualFold(keep, "true"))
	}
	return bounds.Value{}, fmt.Errorf("%w: computed by a %s layer at run time", bounds.ErrUnknown, l.Type)
}

// shapeOf returns the shape a ShapeOf layer takes: that of its input port, or, when a Parameter feeds
// it, the Parameter's shape attribute, which keeps intervals that IR v10 ports write as -1.
func (e *irEval) shapeOf(l *ir.Layer) shape.Shape {
	if len(l.Inputs) == 0 {
		return shape.DynamicRank()
	}
	s := l.Inputs[0].Shape
	if src, _, ok := e.net.Producer(l.ID, l.Inputs[0].ID); ok && src.Type == "Parameter" {
		if attr, ok := src.Attr("shape"); ok {
			if p, err := shape.Parse(attr); err == nil && p.Compatible(s) {
				return p
			}
		}
	}
	return s
}

func (e *irEval) stridedSlice(l *ir.Layer, in operands) (bounds.Value, error) {
	v, err := in.at(0)
	if err != nil {
		return v, err
	}
	var args [3][]int64
	for i, what := range []string{"begin", "end", "stride"} {
		if args[i], _, err = in.ints(i+1, what); err != nil {
			return v, err
		}
	}
	var masks [5][]int64
	for i, name := range []string{"begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask"} {
		if masks[i], err = intsAttr(l, name); err != nil {
			return v, err
		}
	}
	return bounds.StridedSlice(v, args[0], args[1], args[2], masks[0], masks[1], masks[2], masks[3], masks[4])
}

// intAttr reads an integer attribute of a layer's <data>, def when absent.
func intAttr(l *ir.Layer, name string, def int64) (int64, error) {
	s, ok := l.Attr(name)
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not an integer", name, s)
	}
	return n, nil
}

// intsAttr reads a comma-separated integer list attribute ("1,0"; "" is empty).
func intsAttr(l *ir.Layer, name string) ([]int64, error) {
	s, _ := l.Attr(name)
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int64
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s=%q is not a list of integers", name, s)
		}
		out = append(out, n)
	}
	return out, nil
}
