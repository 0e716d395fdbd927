package graph

import (
	"math"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/sym"
)

// What the conversions of ONNX (Cast) and OpenVINO (Convert) share: the range of an integer type.

// typeRange returns the range of an integer type.
func typeRange(t element.Type) (lo, hi int64) {
	switch t {
	case element.Boolean:
		return 0, 1
	case element.U64:
		return 0, math.MaxInt64
	case element.I64:
		return math.MinInt64, math.MaxInt64
	}
	bits := t.Bits()
	if t.IsSigned() {
		return -1 << (bits - 1), 1<<(bits-1) - 1
	}
	return 0, 1<<bits - 1
}

// fitInt returns d, an expression in the symbols converted to the integer type t, narrowed to
// t's range, and requires lo <= d <= hi of that range where d may leave it (N <= 2147483647 for
// a dim cast to int32; d >= 0 for an unsigned type where d may be negative): a run converts a
// value beyond the range by wrapping it around (onnxruntime's Cast, OpenVINO's Convert), so d is
// the value only where it fits. Where d fits at no binding, the value is any of the type's; the
// error is the condition's (Ctx.Require).
func fitInt(c *ctx, d sym.Dim, t element.Type) (sym.Dim, error) {
	lo, hi := typeRange(t)
	nd, ok := d.Narrow(lo, hi)
	if !ok {
		return sym.Interval(lo, hi), nil
	}
	why := "the value " + d.String() + " converted to " + t.String() + " within its range"
	if err := requireAtLeast(c, d, lo, why); err != nil {
		return d, err
	}
	if err := requireAtMost(c, d, sym.Const(hi), why); err != nil {
		return d, err
	}
	return nd, nil
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
