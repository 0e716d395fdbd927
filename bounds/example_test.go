package bounds_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// must panics on error: the examples' inputs are valid.
func must(v bounds.Value, err error) bounds.Value {
	if err != nil {
		panic(err)
	}
	return v
}

// The flatten of SampLeNet (open_model_zoo's accuracy_checker test model): ShapeOf → Gather(0) →
// Concat with -1 computes the pattern [batch, -1] of a Reshape.
func Example() {
	in := shape.OfInts(1, 16, 16, 16)
	s := must(bounds.ShapeOf(in))
	batch := must(bounds.Gather(s, must(bounds.Const([]int64{0})), 0, 0))
	pattern := must(bounds.Concat([]bounds.Value{batch, must(bounds.Const([]int64{-1}))}, 0))
	fmt.Println(pattern)

	out, err := reshape.InferPartial(in, reshape.PatternOf(pattern.Elems...), reshape.Options{SpecialZero: true})
	fmt.Println(out, err)
	// Output:
	// [1,-1]
	// [1,4096] <nil>
}

// The dynamic Reshape of vpux_plugin's dynamic_reshape.xml: the pattern is the input's own shape,
// with bounded dimensions, and a 1 appended.
func ExampleConcat() {
	in, _ := shape.Parse("[1,8,32..48,32..48]")
	s := must(bounds.ShapeOf(in))
	pattern := must(bounds.Concat([]bounds.Value{s, must(bounds.Const([]int64{1}))}, 0))
	fmt.Println(pattern)

	out, err := reshape.InferPartial(in, reshape.PatternOf(pattern.Elems...), reshape.Options{})
	fmt.Println(out, err)
	// Output:
	// [1,8,32..48,32..48,1]
	// [1,8,32..48,32..48,1] <nil>
}

// The batch dimension taken with a StridedSlice, as TensorFlow exports x.shape[0:1], then a
// pattern [-1, batch, 3] built around it.
func ExampleStridedSlice() {
	s := must(bounds.ShapeOf(shape.OfInts(1, 1126, 3)))
	batch := must(bounds.StridedSlice(s, []int64{0}, []int64{1}, []int64{1},
		[]int64{0}, []int64{0}, []int64{0}, []int64{0}, []int64{0}))
	fmt.Println(batch)

	pattern := must(bounds.Concat([]bounds.Value{must(bounds.Const([]int64{-1})), batch, must(bounds.Const([]int64{3}))}, 0))
	fmt.Println(pattern)

	// begin_mask = 1: begin is ignored. shrink_axis_mask = 1: the axis goes, leaving a scalar.
	last := must(bounds.StridedSlice(s, []int64{-1}, []int64{0}, nil, nil, nil, nil, []int64{1}, nil))
	fmt.Println(last, last.Shape)
	// Output:
	// [1]
	// [-1,1,3]
	// 3 []
}

// A flatten that keeps the batch: [batch, the product of the other dimensions].
func ExampleReduceProd() {
	s := must(bounds.ShapeOf(shape.OfInts(1, 16, 16, 16)))
	rest := must(bounds.Slice(s, []int64{1}, []int64{math.MaxInt64}, nil, nil))
	fmt.Println(must(bounds.ReduceProd(rest, nil, true)))

	// With bounded dimensions the product is an interval.
	p, _ := shape.Parse("[1,8,32..48,32..48]")
	fmt.Println(must(bounds.ReduceProd(must(bounds.ShapeOf(p)), nil, false)))
	// Output:
	// [4096]
	// 8192..18432
}

// Interval arithmetic: the bounds of a height halved, and of a dimension that may be anything.
func ExampleBinary() {
	h, _ := shape.Parse("[?,3,224..448,?]")
	s := must(bounds.ShapeOf(h))
	two := must(bounds.Const([]int64{2}))
	fmt.Println(must(bounds.Binary(bounds.DivideFloor, s, two)))
	fmt.Println(must(bounds.Binary(bounds.Subtract, s, two)))

	seven := must(bounds.Const([]int64{-7}))
	floor := must(bounds.Binary(bounds.DivideFloor, seven, two))
	trunc := must(bounds.Binary(bounds.DivideTrunc, seven, two))
	fmt.Println(floor, trunc)

	_, err := bounds.Binary(bounds.Add, must(bounds.Const([]int64{math.MaxInt64})), must(bounds.Const([]int64{1})))
	fmt.Println(errors.Is(err, errcode.ErrOverflow))
	// Output:
	// [?,1,112..224,?]
	// [-2..,1,222..446,-2..]
	// [-4] [-3]
	// true
}

// Gather with indices that are not static gives ErrUnknown: the caller treats the pattern as
// unknown.
func ExampleGather() {
	s := must(bounds.ShapeOf(shape.OfInts(2, 3, 4)))
	fmt.Println(must(bounds.Gather(s, must(bounds.Const([]int64{-1, 0})), 0, 0)))

	_, err := bounds.Gather(s, bounds.Value{Shape: []int64{1}, Elems: []shape.Dim{shape.Interval(0, 2)}}, 0, 0)
	fmt.Println(errors.Is(err, bounds.ErrUnknown))
	// Output:
	// [4,2]
	// true
}

func ExampleConvert() {
	v := must(bounds.Const([]int64{300, -1, 7}))
	fmt.Println(must(bounds.Convert(v, element.U8)))
	fmt.Println(must(bounds.Convert(v, element.I32)))

	d, _ := shape.Parse("[1..300]")
	fmt.Println(must(bounds.Convert(must(bounds.ShapeOf(d)), element.U8)))

	// f16 holds the integers up to 2048; beyond, a value becomes its two neighbours in f16.
	f := must(bounds.Const([]int64{2048, 2049, 70000}))
	fmt.Println(must(bounds.Convert(f, element.F16)))
	// Output:
	// [44,255,7]
	// [300,-1,7]
	// [..255]
	// [2048,2048..2050,65504..]
}

func ExampleValue_String() {
	v := bounds.Value{Shape: []int64{2, 3}, Elems: []shape.Dim{
		shape.Static(2), shape.Interval(1, 8), shape.Dynamic,
		shape.Static(-1), {Lo: bounds.NegInf, Hi: -1}, {Lo: -5, Hi: 3},
	}}
	fmt.Println(v)
	// Output:
	// [[2,1..8,?],[-1,..-1,-5..3]]
}
