package bounds

import (
	"strconv"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// Op is an element-wise arithmetic operation of Binary.
type Op int

// The operations of Binary. Add, Subtract and Multiply are OpenVINO's Add-1, Subtract-1 and
// Multiply-1 and ONNX's Add-14, Sub-14 and Mul-14 on integers. DivideFloor is OpenVINO's Divide-1
// with its default python_division = true on integers: the quotient rounded toward -∞ (-7/2 = -4).
// DivideTrunc is ONNX's Div-14 on integers: the quotient rounded toward zero (-7/2 = -3), as C does.
const (
	Add Op = iota
	Subtract
	Multiply
	DivideFloor
	DivideTrunc
)

var opNames = [...]string{"add", "subtract", "multiply", "divide-floor", "divide-trunc"}

// String returns the name of op: "add", "subtract", "multiply", "divide-floor", "divide-trunc".
func (op Op) String() string {
	if op < 0 || int(op) >= len(opNames) {
		return "Op(" + strconv.Itoa(int(op)) + ")"
	}
	return opNames[op]
}

// Binary applies op element-wise to a and b with numpy broadcasting (OpenVINO's default
// auto_broadcast "numpy", ONNX's multidirectional broadcasting): the shapes are aligned at their
// last dimensions, and each pair of dimensions must be equal or one of them 1; the result has the
// larger of each pair.
//
// Each element of the result is the interval arithmetic of the pair of elements: the smallest
// interval holding every a∘b for a and b in the two intervals (for Multiply, the min and max of the
// four products of the bounds; [0, Inf]·[2, 2] = [0, Inf]). An upper bound that overflows int64
// becomes shape.Inf, a lower bound that overflows downward NegInf; an element whose every value
// overflows (a static result beyond int64, like the static MaxInt64 + 1) is an error wrapping
// errcode.ErrOverflow. The arithmetic never wraps around as the int64 kernels of OpenVINO and ONNX
// runtimes would.
//
// Division by an interval containing 0 gives the whole interval [NegInf, shape.Inf] for that
// element; division by a static 0 is an error wrapping errcode.ErrSyntax. Other errors wrap
// errcode.ErrSyntax (an unknown op, an invalid Value, shapes that do not broadcast) or
// errcode.ErrLimit (a result of more than 1<<20 elements).
func Binary(op Op, a, b Value) (Value, error) {
	name := op.String()
	if op < Add || op > DivideTrunc {
		return Value{}, errorf(errcode.ErrSyntax, "binary: unknown operation %s", name)
	}
	if err := a.check(name, "the first input"); err != nil {
		return Value{}, err
	}
	if err := b.check(name, "the second input"); err != nil {
		return Value{}, err
	}
	out, err := broadcastShape(name, a.Shape, b.Shape)
	if err != nil {
		return Value{}, err
	}
	n, err := volume(name, out)
	if err != nil {
		return Value{}, err
	}
	ia, ib := broadcastIndex(a.Shape, out), broadcastIndex(b.Shape, out)
	res := Value{Shape: out, Elems: make([]shape.Dim, n)}
	for i := range res.Elems {
		x, y := toIv(a.Elems[ia[i]]), toIv(b.Elems[ib[i]])
		var z iv
		switch op {
		case Add:
			z = addIv(x, y)
		case Subtract:
			z = subIv(x, y)
		case Multiply:
			z = mulIv(x, y)
		default:
			switch {
			case y.lo == fin(0) && y.hi == fin(0):
				return Value{}, errorf(errcode.ErrSyntax, "%s: element %d: division by zero", name, i)
			case y.containsZero():
				res.Elems[i] = shape.Dim{Lo: NegInf, Hi: shape.Inf}
				continue
			}
			z = divIv(x, y, op == DivideFloor)
		}
		if res.Elems[i], err = z.dim(name); err != nil {
			return Value{}, errorf(errcode.ErrOverflow, "%s: element %d: %s %s %s = %s overflows int64",
				name, i, x, opSymbols[op], y, z)
		}
	}
	return res, nil
}

var opSymbols = [...]string{"+", "-", "*", "//", "/"}

// broadcastShape returns the numpy broadcast of the shapes a and b.
func broadcastShape(op string, a, b []int64) ([]int64, error) {
	r := max(len(a), len(b))
	out := make([]int64, r)
	for i := range out {
		da, db := int64(1), int64(1)
		if j := i - (r - len(a)); j >= 0 {
			da = a[j]
		}
		if j := i - (r - len(b)); j >= 0 {
			db = b[j]
		}
		switch {
		case da == db, db == 1:
			out[i] = da
		case da == 1:
			out[i] = db
		default:
			return nil, errorf(errcode.ErrSyntax, "%s: shapes %s and %s do not broadcast: dimension %d is %d against %d",
				op, shape.FormatInts(a), shape.FormatInts(b), i, da, db)
		}
	}
	return out, nil
}

// broadcastIndex returns, for each element of the shape out in row-major order, the index of the
// element of a value of shape in (which broadcasts to out) that it reads.
func broadcastIndex(in, out []int64) []int {
	r := len(out)
	// strides of in, aligned to out, 0 where in broadcasts.
	strides := make([]int, r)
	s := 1
	for i := len(in) - 1; i >= 0; i-- {
		if in[i] != 1 {
			strides[i+r-len(in)] = s
		}
		s *= int(in[i])
	}
	n := prod(out)
	idx := make([]int, n)
	coord := make([]int64, r)
	at := 0
	for k := range n {
		idx[k] = at
		for d := r - 1; d >= 0; d-- {
			coord[d]++
			at += strides[d]
			if coord[d] < out[d] {
				break
			}
			at -= strides[d] * int(coord[d])
			coord[d] = 0
		}
	}
	return idx
}

// ReduceProd multiplies the elements of v along axes: OpenVINO's ReduceProd-1 and ONNX's
// ReduceProd-18. Axes in [-rank, rank-1] count from the end when negative; an axis given twice
// counts once (OpenVINO's axis set). nil axes reduce every axis (ONNX's default); a non-nil empty
// axes reduces none (OpenVINO's empty axes, ONNX's noop_with_empty_axes = 1). With keepDims the
// reduced axes stay, of size 1; without, they are removed. The product of no elements (an axis of
// size 0) is 1.
//
// Each element is the exact interval product of the intervals it multiplies: for non-negative
// intervals as shape.Product computes it (a zero bound makes that bound 0, an upper bound that
// overflows becomes shape.Inf); with negative bounds the min and max of the products of the bounds,
// an overflowing bound becoming NegInf or shape.Inf. An element whose every value overflows int64
// is an error wrapping errcode.ErrOverflow; an axis out of range or an invalid Value, one wrapping
// errcode.ErrSyntax.
func ReduceProd(v Value, axes []int64, keepDims bool) (Value, error) {
	const op = "reduceprod"
	if err := v.check(op, "the input"); err != nil {
		return Value{}, err
	}
	r := len(v.Shape)
	reduced := make([]bool, r)
	if axes == nil {
		for i := range reduced {
			reduced[i] = true
		}
	}
	for _, a := range axes {
		i, err := normAxis(op, a, r)
		if err != nil {
			return Value{}, err
		}
		reduced[i] = true
	}
	var out []int64
	// outStride[d] is the stride in the output of input axis d, 0 for a reduced axis.
	outStride := make([]int, r)
	s := 1
	for d := r - 1; d >= 0; d-- {
		if !reduced[d] {
			outStride[d] = s
			s *= int(v.Shape[d])
		}
	}
	for d, n := range v.Shape {
		switch {
		case !reduced[d]:
			out = append(out, n)
		case keepDims:
			out = append(out, 1)
		}
	}
	if out == nil {
		out = []int64{}
	}
	if _, err := volume(op, out); err != nil {
		return Value{}, err // the input has a dimension 0 that is reduced, and large ones that are not
	}
	acc := make([]wideIv, s)
	for i := range acc {
		acc[i] = wideIv{wide{mag: 1}, wide{mag: 1}}
	}
	coord := make([]int64, r)
	at := 0
	for _, e := range v.Elems {
		x := toIv(e)
		acc[at] = mulWideIv(acc[at], wideIv{wideOf(x.lo), wideOf(x.hi)})
		for d := r - 1; d >= 0; d-- {
			coord[d]++
			at += outStride[d]
			if coord[d] < v.Shape[d] {
				break
			}
			at -= outStride[d] * int(coord[d])
			coord[d] = 0
		}
	}
	res := Value{Shape: out, Elems: make([]shape.Dim, s)}
	for i, w := range acc {
		x := iv{w.lo.ext(), w.hi.ext()}
		var err error
		if res.Elems[i], err = x.dim(op); err != nil {
			return Value{}, errorf(errcode.ErrOverflow, "%s: element %d: the product %s overflows int64", op, i, x)
		}
	}
	return res, nil
}
