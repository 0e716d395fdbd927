package bounds_test

import (
	"fmt"
	"testing"

	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// sv is the static element v; iv the interval [lo, hi].
func sv(v int64) shape.Dim      { return shape.Static(v) }
func iv(lo, hi int64) shape.Dim { return shape.Dim{Lo: lo, Hi: hi} }

// one is the 1-D value of the given elements.
func one(elems ...shape.Dim) bounds.Value {
	return bounds.Value{Shape: []int64{int64(len(elems))}, Elems: elems}
}

const inf = shape.Inf
const negInf = bounds.NegInf

func TestBinaryStatic(t *testing.T) {
	tests := []struct {
		op   bounds.Op
		a, b string
		want string
		err  error
	}{
		{bounds.Add, "[1,2,3]", "[10,20,30]", "[11,22,33]", nil},
		{bounds.Add, "[1,2,3]", "-1", "[0,1,2]", nil},
		{bounds.Subtract, "[1,2,3]", "[3,2,1]", "[-2,0,2]", nil},
		{bounds.Multiply, "[1,-2,3]", "[-4,5,0]", "[-4,-10,0]", nil},
		{bounds.DivideFloor, "[7,-7,7,-7,6,0]", "[2,2,-2,-2,3,-5]", "[3,-4,-4,3,2,0]", nil},
		{bounds.DivideTrunc, "[7,-7,7,-7,6,0]", "[2,2,-2,-2,3,-5]", "[3,-3,-3,3,2,0]", nil},
		{bounds.DivideFloor, "[-1]", "[3]", "[-1]", nil},
		{bounds.DivideTrunc, "[-1]", "[3]", "[0]", nil},
		// Broadcasting.
		{bounds.Add, "[[1],[2]]", "[10,20,30]", "[[11,21,31],[12,22,32]]", nil},
		{bounds.Multiply, "[[1,2,3],[4,5,6]]", "[[2],[3]]", "[[2,4,6],[12,15,18]]", nil},
		{bounds.Multiply, "2", "3", "6", nil},
		{bounds.Multiply, "[2]", "3", "[6]", nil},
		{bounds.Add, "[]", "[5]", "[]", nil},
		{bounds.Add, "[1,2,3]", "[1,2]", "", errcode.ErrSyntax},
		{bounds.Add, "[[1,2]]", "[[1],[2],[3]]", "[[2,3],[3,4],[4,5]]", nil},
		// The extremes of int64: exact, and never wrapping around.
		{bounds.Add, "[9223372036854775806]", "[1]", "[9223372036854775807]", nil},
		{bounds.Add, "[9223372036854775807]", "[1]", "", errcode.ErrOverflow},
		{bounds.Add, "[-9223372036854775807]", "[-1]", "[-9223372036854775808]", nil},
		{bounds.Add, "[-9223372036854775808]", "[-1]", "", errcode.ErrOverflow},
		{bounds.Subtract, "[-1]", "[-9223372036854775808]", "[9223372036854775807]", nil},
		{bounds.Subtract, "[0]", "[-9223372036854775808]", "", errcode.ErrOverflow},
		{bounds.Multiply, "[-4611686018427387904]", "[2]", "[-9223372036854775808]", nil},
		{bounds.Multiply, "[4611686018427387904]", "[2]", "", errcode.ErrOverflow},
		{bounds.Multiply, "[-9223372036854775808]", "[-1]", "", errcode.ErrOverflow},
		{bounds.Multiply, "[-9223372036854775808]", "[0]", "[0]", nil},
		{bounds.DivideFloor, "[-9223372036854775808]", "[-1]", "", errcode.ErrOverflow},
		{bounds.DivideTrunc, "[-9223372036854775808]", "[1]", "[-9223372036854775808]", nil},
		{bounds.DivideFloor, "[9223372036854775807]", "[-2]", "[-4611686018427387904]", nil},
		// Division by a static zero.
		{bounds.DivideFloor, "[1]", "[0]", "", errcode.ErrSyntax},
		{bounds.DivideTrunc, "[1,2]", "[1,0]", "", errcode.ErrSyntax},
		{bounds.Op(9), "[1]", "[1]", "", errcode.ErrSyntax},
		{bounds.Op(-1), "[1]", "[1]", "", errcode.ErrSyntax},
	}
	for _, tt := range tests {
		got, err := bounds.Binary(tt.op, val(t, tt.a), val(t, tt.b))
		var want bounds.Value
		if tt.err == nil {
			want = val(t, tt.want)
		}
		checkResult(t, fmt.Sprintf("Binary(%v, %s, %s)", tt.op, tt.a, tt.b), got, err, want, tt.err)
	}
}

func TestBinaryIntervals(t *testing.T) {
	tests := []struct {
		op   bounds.Op
		a, b shape.Dim
		want shape.Dim
		err  error
	}{
		{bounds.Add, iv(1, 8), iv(2, 3), iv(3, 11), nil},
		{bounds.Add, iv(0, inf), sv(5), iv(5, inf), nil},
		{bounds.Add, iv(negInf, 3), sv(5), iv(negInf, 8), nil},
		{bounds.Add, iv(negInf, inf), sv(5), iv(negInf, inf), nil},
		{bounds.Add, iv(maxI-1, maxI-1), iv(0, 5), iv(maxI-1, inf), nil},
		{bounds.Add, sv(maxI), iv(0, 1), iv(maxI-1, inf), nil}, // widened: [MaxInt64, Inf] would read as static
		{bounds.Add, sv(minI), iv(-1, 0), iv(negInf, minI+1), nil},
		{bounds.Add, iv(maxI-1, inf), iv(2, 3), iv(0, 0), errcode.ErrOverflow},
		{bounds.Subtract, iv(1, 8), iv(2, 3), iv(-2, 6), nil},
		{bounds.Subtract, iv(32, 48), iv(0, inf), iv(negInf, 48), nil},
		{bounds.Subtract, iv(negInf, 0), iv(negInf, 0), iv(negInf, inf), nil},
		{bounds.Subtract, iv(minI+1, 0), sv(2), iv(negInf, -2), nil},
		{bounds.Multiply, iv(0, inf), sv(2), iv(0, inf), nil},
		{bounds.Multiply, iv(0, inf), sv(0), sv(0), nil},
		{bounds.Multiply, iv(1, inf), sv(-1), iv(negInf, -1), nil},
		{bounds.Multiply, iv(32, 48), iv(32, 48), iv(1024, 2304), nil},
		{bounds.Multiply, iv(-3, 2), iv(-5, 4), iv(-12, 15), nil},
		{bounds.Multiply, iv(-3, -2), iv(-5, 4), iv(-12, 15), nil},
		{bounds.Multiply, iv(negInf, -2), iv(-5, 4), iv(negInf, inf), nil},
		{bounds.Multiply, iv(negInf, -2), iv(1, 4), iv(negInf, -2), nil},
		{bounds.Multiply, iv(1<<32, 1<<33), iv(1<<30, 1<<31), iv(1<<62, inf), nil},
		{bounds.Multiply, iv(1<<32, 1<<33), iv(1<<31, 1<<32), iv(0, 0), errcode.ErrOverflow},
		{bounds.Multiply, iv(-(1 << 33), -(1 << 32)), iv(1<<30, 1<<31), iv(negInf, -(1 << 62)), nil},
		{bounds.DivideFloor, iv(1, 10), iv(2, 3), iv(0, 5), nil},
		{bounds.DivideTrunc, iv(-10, 10), iv(2, 3), iv(-5, 5), nil},
		{bounds.DivideFloor, iv(-10, 10), iv(2, 3), iv(-5, 5), nil},
		{bounds.DivideFloor, iv(-10, 10), iv(-3, -2), iv(-5, 5), nil},
		{bounds.DivideFloor, iv(-7, -7), iv(2, 3), iv(-4, -3), nil},
		{bounds.DivideTrunc, iv(-7, -7), iv(2, 3), iv(-3, -2), nil},
		{bounds.DivideFloor, iv(1, inf), sv(2), iv(0, inf), nil},
		{bounds.DivideFloor, iv(negInf, -1), sv(2), iv(negInf, -1), nil},
		{bounds.DivideFloor, iv(negInf, -1), sv(-2), iv(0, inf), nil},
		{bounds.DivideFloor, iv(negInf, -2), sv(-2), iv(1, inf), nil},
		{bounds.DivideFloor, iv(-5, -1), iv(2, inf), iv(-3, -1), nil},
		{bounds.DivideTrunc, iv(-5, -1), iv(2, inf), iv(-2, 0), nil},
		{bounds.DivideFloor, iv(1, 5), iv(negInf, -2), iv(-3, -1), nil},
		{bounds.DivideFloor, iv(0, inf), iv(1, inf), iv(0, inf), nil},
		{bounds.DivideFloor, iv(negInf, inf), iv(1, inf), iv(negInf, inf), nil},
		{bounds.DivideFloor, iv(12, 12), iv(1, inf), iv(0, 12), nil},
		{bounds.DivideFloor, iv(1, 10), iv(0, 3), iv(negInf, inf), nil},
		{bounds.DivideTrunc, iv(1, 10), iv(-3, 3), iv(negInf, inf), nil},
		{bounds.DivideTrunc, sv(0), iv(-3, 0), iv(negInf, inf), nil},
		{bounds.DivideFloor, iv(1, 10), sv(0), iv(0, 0), errcode.ErrSyntax},
	}
	for _, tt := range tests {
		got, err := bounds.Binary(tt.op, one(tt.a), one(tt.b))
		checkResult(t, fmt.Sprintf("Binary(%v, %v, %v)", tt.op, tt.a, tt.b), got, err, one(tt.want), tt.err)
	}
}

func TestOpString(t *testing.T) {
	for op, want := range map[bounds.Op]string{bounds.Add: "add", bounds.Subtract: "subtract", bounds.Multiply: "multiply",
		bounds.DivideFloor: "divide-floor", bounds.DivideTrunc: "divide-trunc", bounds.Op(7): "Op(7)"} {
		if op.String() != want {
			t.Errorf("Op(%d).String() = %s; want %s", int(op), op, want)
		}
	}
}

func TestBinaryLimit(t *testing.T) {
	a := iota(t, 2048, 1)
	b := iota(t, 1, 1024)
	if _, err := bounds.Binary(bounds.Add, a, b); errcode.Code(err) != "limit" {
		t.Errorf("Binary to [2048,1024]: %v; want a limit error", err)
	}
}

func TestReduceProd(t *testing.T) {
	tests := []struct {
		in       string
		axes     []int64
		keepDims bool
		want     string
		shape    []int64 // the input's shape when in's notation cannot give it
		err      error
	}{
		{"[1,16,16,16]", nil, false, "4096", nil, nil},
		{"[1,16,16,16]", nil, true, "[4096]", nil, nil},
		{"[1,16,16,16]", []int64{0}, false, "4096", nil, nil},
		{"[1,16,16,16]", []int64{-1, 0}, true, "[4096]", nil, nil},
		{"[1,16,16,16]", []int64{}, false, "[1,16,16,16]", nil, nil},
		{"[[1,2,3],[4,5,6]]", []int64{0}, false, "[4,10,18]", nil, nil},
		{"[[1,2,3],[4,5,6]]", []int64{1}, false, "[6,120]", nil, nil},
		{"[[1,2,3],[4,5,6]]", []int64{1}, true, "[[6],[120]]", nil, nil},
		{"[[1,2,3],[4,5,6]]", []int64{-2}, true, "[[4,10,18]]", nil, nil},
		{"[[1,2,3],[4,5,6]]", []int64{0, 1, 1}, false, "720", nil, nil},
		{"[[1,2,3],[4,5,6]]", nil, true, "[[720]]", nil, nil},
		{"[]", nil, false, "1", nil, nil},
		{"[]", nil, true, "[1]", nil, nil},
		{"[[],[]]", []int64{1}, false, "[1,1]", nil, nil},
		{"[[],[]]", []int64{0}, false, "[]", nil, nil},
		{"7", nil, false, "7", nil, nil},
		{"7", []int64{}, true, "7", nil, nil},
		{"[-1,2,-3]", nil, false, "6", nil, nil},
		// Intervals.
		{"[1,8,32..48,32..48]", nil, false, "8192..18432", nil, nil},
		{"[[8,32..48],[32..48,1]]", []int64{0, 1}, false, "8192..18432", nil, nil},
		{"[[8,32..48],[32..48,1]]", []int64{1}, false, "[256..384,32..48]", nil, nil},
		{"[?,3,224,224]", nil, false, "?", nil, nil},
		{"[1..,3,224,224]", nil, false, "150528..", nil, nil},
		{"[0..,3]", nil, false, "?", nil, nil},
		{"[0,?]", nil, false, "0", nil, nil},
		{"[-2..3,-4..5]", nil, false, "-12..15", nil, nil},
		{"[-2..3,-4..5,-1]", nil, false, "-15..12", nil, nil},
		{"[..-1,2]", nil, false, "..-2", nil, nil},
		{"[..-1,-2]", nil, false, "2..", nil, nil},
		{"[-inf..,0]", nil, false, "0", nil, nil},
		{"[-inf..,2]", nil, false, "-inf..", nil, nil},
		{"[4294967296..,4294967296]", nil, false, "", nil, errcode.ErrOverflow},
		{"[4294967296,4294967296]", nil, false, "", nil, errcode.ErrOverflow},
		{"[4294967296,4294967296,0]", nil, false, "0", nil, nil},
		{"[4294967296,-4294967296,0..1]", nil, false, "-inf..0", nil, nil},
		{"[4294967296,2147483648,-1]", nil, false, "-9223372036854775808", nil, nil},
		{"[4294967296,2147483648,1]", nil, false, "", nil, errcode.ErrOverflow},
		{"[2147483648..4294967296,4294967296]", nil, false, "", nil, errcode.ErrOverflow},
		{"[2147483647..4294967296,4294967296]", nil, false, "9223372032559808512..", nil, nil},
		{"[-2147483648,2..3,2147483648]", nil, false, "..-9223372036854775807", nil, nil},
		{"[-2147483648,2,2147483648]", nil, false, "-9223372036854775808", nil, nil},
		{"[2147483648,2,-2147483648,-1]", nil, false, "", nil, errcode.ErrOverflow},
		{"[2147483648,2,2147483648,-1]", nil, false, "-9223372036854775808", nil, nil},
		{"[2147483648,2..3,2147483648,-1]", nil, false, "..-9223372036854775807", nil, nil},
		// Errors.
		{"[1,2]", []int64{1}, false, "", nil, errcode.ErrSyntax},
		{"[]", []int64{0}, false, "", []int64{0, 1 << 40}, errcode.ErrLimit},
		{"[1,2]", []int64{-2}, false, "", nil, errcode.ErrSyntax},
		{"7", []int64{0}, false, "", nil, errcode.ErrSyntax},
	}
	for _, tt := range tests {
		in := val(t, tt.in)
		if tt.shape != nil {
			in = withShape(in, tt.shape...)
		}
		got, err := bounds.ReduceProd(in, tt.axes, tt.keepDims)
		var want bounds.Value
		if tt.err == nil {
			want = val(t, tt.want)
		}
		checkResult(t, fmt.Sprintf("ReduceProd(%s, %v, %v)", tt.in, tt.axes, tt.keepDims), got, err, want, tt.err)
	}
}

func TestConvert(t *testing.T) {
	tests := []struct {
		in   shape.Dim
		to   element.Type
		want shape.Dim
		err  error
	}{
		{sv(-1), element.I64, sv(-1), nil},
		{iv(negInf, inf), element.I64, iv(negInf, inf), nil},
		{sv(-1), element.I32, sv(-1), nil},
		{iv(1, 8), element.I32, iv(1, 8), nil},
		{sv(1 << 31), element.I32, sv(-1 << 31), nil},
		{sv(1<<32 + 5), element.I32, sv(5), nil},
		{sv(maxI), element.I32, sv(-1), nil},
		{sv(minI), element.I32, sv(0), nil},
		{iv(0, 1<<31), element.I32, iv(-1<<31, 1<<31-1), nil},
		{iv(0, inf), element.I32, iv(-1<<31, 1<<31-1), nil},
		{iv(-1<<31, 1<<31-1), element.I32, iv(-1<<31, 1<<31-1), nil},
		{sv(300), element.U8, sv(44), nil},
		{sv(-1), element.U8, sv(255), nil},
		{sv(255), element.U8, sv(255), nil},
		{iv(0, 300), element.U8, iv(0, 255), nil},
		{iv(-1, 5), element.U8, iv(0, 255), nil},
		{sv(200), element.I8, sv(-56), nil},
		{sv(-129), element.I8, sv(127), nil},
		{iv(-128, 127), element.I8, iv(-128, 127), nil},
		{sv(65536 + 7), element.U16, sv(7), nil},
		{sv(-32769), element.I16, sv(32767), nil},
		{sv(1 << 32), element.U32, sv(0), nil},
		{sv(-1), element.U32, sv(1<<32 - 1), nil},
		{sv(9), element.I4, sv(-7), nil},
		{sv(-8), element.I4, sv(-8), nil},
		{iv(-9, 0), element.I4, iv(-8, 7), nil},
		{sv(17), element.U4, sv(1), nil},
		{sv(3), element.U1, sv(1), nil},
		{sv(2), element.U1, sv(0), nil},
		{iv(0, 1), element.U1, iv(0, 1), nil},
		{iv(0, 2), element.U1, iv(0, 1), nil},
		{sv(5), element.U64, sv(5), nil},
		{iv(0, inf), element.U64, iv(0, inf), nil},
		{iv(-1, 5), element.U64, iv(0, inf), nil},
		{sv(-1), element.U64, iv(0, 0), bounds.ErrUnknown},
		{sv(0), element.Boolean, sv(0), nil},
		{sv(-5), element.Boolean, sv(1), nil},
		{iv(0, 3), element.Boolean, iv(0, 1), nil},
		{iv(-2, -1), element.Boolean, sv(1), nil},
		{iv(negInf, inf), element.Boolean, iv(0, 1), nil},
		{iv(1, inf), element.Boolean, sv(1), nil},
		// Floating types: exact; for f32 and f64 rounded to nearest even; for the narrower types,
		// reached through f32, the two neighbours of the value.
		{sv(-7), element.F32, sv(-7), nil},
		{iv(1, 8), element.F32, iv(1, 8), nil},
		{iv(negInf, inf), element.F32, iv(negInf, inf), nil},
		{sv(1<<24 + 1), element.F32, sv(1 << 24), nil},
		{sv(1<<24 + 3), element.F32, sv(1<<24 + 4), nil},
		{iv(1<<24+1, 1<<24+3), element.F32, iv(1<<24, 1<<24+4), nil},
		{sv(1<<53 + 1), element.F64, sv(1 << 53), nil},
		{sv(1<<53 + 3), element.F64, sv(1<<53 + 4), nil},
		{sv(-(1<<53 + 3)), element.F64, sv(-(1<<53 + 4)), nil},
		{sv(minI), element.F64, sv(minI), nil},
		{sv(maxI), element.F64, iv(0, 0), bounds.ErrUnknown}, // exactly 2^63
		{sv(maxI), element.F32, iv(0, 0), bounds.ErrUnknown},
		{iv(0, maxI-1), element.F64, iv(0, inf), nil},
		{sv(2048), element.F16, sv(2048), nil},
		{sv(2049), element.F16, iv(2048, 2050), nil},
		{sv(-2051), element.F16, iv(-2052, -2050), nil},
		{iv(2047, 2049), element.F16, iv(2047, 2050), nil},
		{sv(65504), element.F16, sv(65504), nil},
		{sv(65519), element.F16, iv(65504, inf), nil},
		{sv(65520), element.F16, iv(65504, inf), nil},
		{sv(-70000), element.F16, iv(negInf, -65504), nil},
		{sv(maxI), element.F16, iv(65504, inf), nil},
		{iv(60000, 70000), element.F16, iv(60000, inf), nil},
		{iv(-70000, 70000), element.F16, iv(negInf, inf), nil},
		{sv(256), element.BF16, sv(256), nil},
		{sv(257), element.BF16, iv(256, 258), nil},
		{sv(-259), element.BF16, iv(-260, -258), nil},
		{sv(1<<24 + 1<<16 + 1), element.BF16, iv(1<<24, 1<<24+1<<17), nil}, // f32 gives 2^24+2^16, a tie
		{sv(1<<62 + 1), element.BF16, sv(1 << 62), nil},                    // f32 gives 2^62
		{sv(maxI), element.BF16, iv(0, 0), bounds.ErrUnknown},              // f32 gives 2^63
		{sv(16), element.F8E4M3, sv(16), nil},
		{sv(17), element.F8E4M3, iv(16, 18), nil},
		{sv(448), element.F8E4M3, sv(448), nil},
		{sv(449), element.F8E4M3, iv(448, inf), nil},
		{sv(-500), element.F8E4M3, iv(negInf, -448), nil},
		{sv(9), element.F8E5M2, iv(8, 10), nil},
		{sv(57344), element.F8E5M2, sv(57344), nil},
		{sv(1), element.NF4, iv(0, 0), bounds.ErrUnknown},
		{sv(1), element.Undefined, iv(0, 0), errcode.ErrSyntax},
		{sv(1), element.Type(200), iv(0, 0), errcode.ErrSyntax},
	}
	for _, tt := range tests {
		got, err := bounds.Convert(one(tt.in), tt.to)
		checkResult(t, fmt.Sprintf("Convert(%v, %v)", tt.in, tt.to), got, err, one(tt.want), tt.err)
	}
	// The shape is kept.
	got, err := bounds.Convert(val(t, "[[1,300],[2..3,?]]"), element.U8)
	if err != nil || got.String() != "[[1,44],[2..3,..255]]" {
		t.Errorf("Convert of a [2,2] value to u8 = %s, %v", show(got), err)
	}
}
