package graph

import (
	"math"

	"github.com/reshape-go/reshape/element"
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

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
