package bounds_test

import (
	"math"
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/shape"
)

// TestRealSubgraphs evaluates the shape subgraphs of real models (../shared/realdata holds the
// files; the subgraphs are written out here, so the test does not need them) and reshapes with the
// patterns they compute, against the shapes the models declare.
func TestRealSubgraphs(t *testing.T) {
	c := func(values ...int64) bounds.Value { return must(bounds.Const(values)) }
	of := func(s string) (shape.Shape, bounds.Value) {
		in, err := shape.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return in, must(bounds.ShapeOf(in))
	}
	tests := []struct {
		name        string
		build       func() (in shape.Shape, pattern bounds.Value, err error)
		pattern     string
		specialZero bool
		declared    string // the Reshape's declared output; "" when the value is not a Reshape pattern
	}{
		{
			// open_model_zoo SampLeNet.xml, fc1/flatten_fc_input.
			name: "ShapeOf → Gather → Concat",
			build: func() (shape.Shape, bounds.Value, error) {
				in, s := of("[1,16,16,16]")
				batch, err := bounds.Gather(s, c(0), 0, 0)
				if err != nil {
					return in, bounds.Value{}, err
				}
				p, err := bounds.Concat([]bounds.Value{batch, c(-1)}, 0)
				return in, p, err
			},
			pattern: "[1,-1]", specialZero: true, declared: "[1,4096]",
		},
		{
			// vpux_plugin dynamic_reshape.xml.
			name: "ShapeOf → Concat, bounded dims",
			build: func() (shape.Shape, bounds.Value, error) {
				in, s := of("[1,8,32..48,32..48]")
				p, err := bounds.Concat([]bounds.Value{s, c(1)}, 0)
				return in, p, err
			},
			pattern: "[1,8,32..48,32..48,1]", declared: "[1,8,32..48,32..48,1]",
		},
		{
			// Synet test_015f other.xml, SSD/concat_reshape_softmax: an i32 ShapeOf, a
			// StridedSlice with no masks, a Concat with -1, a Convert to i64.
			name: "ShapeOf → StridedSlice → Concat → Convert",
			build: func() (shape.Shape, bounds.Value, error) {
				in, s := of("[1,1126,3]")
				last, err := bounds.StridedSlice(s, []int64{2}, []int64{3}, []int64{1}, []int64{0}, []int64{0}, []int64{0}, []int64{0}, []int64{0})
				if err != nil {
					return in, bounds.Value{}, err
				}
				p, err := bounds.Concat([]bounds.Value{c(-1), last}, 0)
				if err != nil {
					return in, bounds.Value{}, err
				}
				p, err = bounds.Convert(p, element.I64)
				return in, p, err
			},
			pattern: "[-1,3]", declared: "[1126,3]",
		},
		{
			// The same with the batch taken at the front: [-1, batch, 3].
			name: "ShapeOf → StridedSlice [0:1] → Concat",
			build: func() (shape.Shape, bounds.Value, error) {
				in, s := of("[1,1126,3]")
				batch, err := bounds.StridedSlice(s, []int64{0}, []int64{1}, []int64{1}, []int64{0}, []int64{0}, []int64{0}, []int64{0}, []int64{0})
				if err != nil {
					return in, bounds.Value{}, err
				}
				p, err := bounds.Concat([]bounds.Value{c(-1), batch, c(3)}, 0)
				return in, p, err
			},
			pattern: "[-1,1,3]", declared: "[1126,1,3]",
		},
		{
			// datumaro face-detection-0200.xml, PriorBoxClustered_165/ss_0_port: begin 2, end 4,
			// end_mask 1 (the end ignored), the declared output has 2 values. Read with the masks
			// inverted (0 = ignore), begin would be ignored and the result would have 4.
			name: "ShapeOf → StridedSlice [2:] (end_mask)",
			build: func() (shape.Shape, bounds.Value, error) {
				in, s := of("[1,3,256,256]")
				p, err := bounds.StridedSlice(s, []int64{2}, []int64{4}, []int64{1}, []int64{0}, []int64{1}, []int64{0}, []int64{0}, []int64{0})
				return in, p, err
			},
			pattern: "[256,256]",
		},
		{
			// A flatten keeping the batch: [batch, prod(rest)].
			name: "ShapeOf → Slice → ReduceProd → Concat",
			build: func() (shape.Shape, bounds.Value, error) {
				in, s := of("[1,16,16,16]")
				rest, err := bounds.Slice(s, []int64{1}, []int64{math.MaxInt64}, nil, nil)
				if err != nil {
					return in, bounds.Value{}, err
				}
				vol, err := bounds.ReduceProd(rest, nil, true)
				if err != nil || vol.String() != "[4096]" {
					t.Errorf("ReduceProd(ShapeOf([1,16,16,16])[1:]) = %s, %v; want [4096]", show(vol), err)
				}
				batch, err := bounds.Slice(s, []int64{0}, []int64{1}, nil, nil)
				if err != nil {
					return in, bounds.Value{}, err
				}
				p, err := bounds.Concat([]bounds.Value{batch, vol}, 0)
				return in, p, err
			},
			pattern: "[1,4096]", declared: "[1,4096]",
		},
		{
			// The same on a partial shape: the product is an interval.
			name: "ShapeOf → Slice → ReduceProd, partial",
			build: func() (shape.Shape, bounds.Value, error) {
				in, s := of("[?,3,224..448,224..448]")
				rest, err := bounds.Slice(s, []int64{1}, []int64{math.MaxInt64}, nil, nil)
				if err != nil {
					return in, bounds.Value{}, err
				}
				vol, err := bounds.ReduceProd(rest, nil, true)
				if err != nil {
					return in, bounds.Value{}, err
				}
				p, err := bounds.Concat([]bounds.Value{c(-1), vol}, 0)
				return in, p, err
			},
			pattern: "[-1,150528..602112]", declared: "[?,150528..602112]",
		},
	}
	for _, tt := range tests {
		in, p, err := tt.build()
		if err != nil || p.String() != tt.pattern {
			t.Errorf("%s: pattern %s, %v; want %s", tt.name, show(p), err, tt.pattern)
			continue
		}
		if tt.declared == "" {
			continue
		}
		out, err := reshape.InferPartial(in, reshape.PatternOf(p.Elems...), reshape.Options{SpecialZero: tt.specialZero})
		if err != nil || out.String() != tt.declared {
			t.Errorf("%s: Reshape(%s, %s) = %v, %v; the model declares %s", tt.name, in, p, out, err, tt.declared)
		}
	}
}
