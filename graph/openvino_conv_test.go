package graph_test

import (
	"math"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/sym"
)

func TestOVConvolutions(t *testing.T) {
	const s1 = "strides=1,1 dilations=1,1 pads_begin=0,0 pads_end=0,0"
	checkOV(t, []ovCase{
		{name: "convolution", op: "Convolution", attrs: "strides=2,2 dilations=1,1 pads_begin=1,1 pads_end=1,1",
			ins: []ovIn{ovParam("[N,3,H,W]"), ovParam("[64,3,3,3]")}, want: []string{"[N,64,(H+1)//2,(W+1)//2]"}},
		{name: "convolution channels", op: "Convolution", attrs: s1, ins: []ovIn{ovParam("[1,4,5,5]"), ovParam("[8,3,3,3]")},
			wantErr: errcode.ErrInvalidShape},
		{name: "convolution data rank", op: "Convolution", attrs: "strides=1", ins: []ovIn{ovParam("[2,3]"), ovParam("[2,3]")},
			wantErr: errcode.ErrInvalidShape},
		{name: "convolution strides length", op: "Convolution", attrs: "strides=1,1,1", ins: []ovIn{ovParam("[1,3,5,5]"), ovParam("[2,3,3,3]")},
			wantErr: errcode.ErrInvalidShape},
		{name: "convolution data of unknown rank", op: "Convolution", attrs: "strides=1,1 auto_pad=same_upper",
			ins: []ovIn{ovParam("[...]"), ovParam("[2,3,4,4]")}, want: []string{"[?,2,1..,1..]"}},
		{name: "convolution rank from strides", op: "Convolution", attrs: s1, ins: []ovIn{ovParam("[...]"), ovParam("[...]")},
			want: []string{"[?,?,1..,1..]"}},
		{name: "group convolution", op: "GroupConvolution", attrs: "strides=1,1 auto_pad=same_upper",
			ins: []ovIn{ovParam("[N,4,H,W]"), ovParam("[2,3,2,3,3]")}, want: []string{"[N,6,H,W]"}},
		{name: "group convolution channels", op: "GroupConvolution", attrs: s1, ins: []ovIn{ovParam("[1,3,5,5]"), ovParam("[G,1,2,3,3]")},
			wantErr: errcode.ErrInvalidShape},
		{name: "group convolution pads", op: "GroupConvolution", attrs: "strides=1,1 dilations=1,1 pads_begin=0,0,0 pads_end=0,0",
			ins: []ovIn{ovParam("[...]"), ovParam("[2,1,2,2,2]")}, wantErr: errcode.ErrInvalidShape},
		{name: "binary convolution", op: "BinaryConvolution", attrs: s1 + " mode=xnor-popcount pad_value=0",
			ins: []ovIn{ovParam("[1,3,H,7]"), ovParam("[8,3,3,3]")}, want: []string{"[1,8,H-2,5]"}},
		{name: "deformable convolution", op: "DeformableConvolution", version: 8, attrs: s1 + " group=2 deformable_group=2",
			ins:  []ovIn{ovParam("[N,4,H,W]"), ovParam("[N,36,H-2,W-2]"), ovParam("[8,2,3,3]"), ovParam("[N,18,H-2,W-2]")},
			want: []string{"[N,8,H-2,W-2]"}},
		{name: "deformable convolution offsets", op: "DeformableConvolution", attrs: s1,
			ins:     []ovIn{ovParam("[1,4,5,5]"), ovParam("[1,17,3,3]"), ovParam("[8,4,3,3]")},
			wantErr: errcode.ErrInvalidShape},
		{name: "deformable convolution offsets size", op: "DeformableConvolution", attrs: s1,
			ins:     []ovIn{ovParam("[1,4,5,5]"), ovParam("[1,18,4,3]"), ovParam("[8,4,3,3]")},
			wantErr: errcode.ErrInvalidShape},
		{name: "backprop", op: "ConvolutionBackpropData", attrs: "strides=2,2 dilations=1,1 pads_begin=1,1 pads_end=1,1 output_padding=1,1",
			ins: []ovIn{ovParam("[N,16,H,2]"), ovParam("[16,6,3,3]")}, want: []string{"[N,6,2*H,4]"}},
		{name: "backprop output shape", op: "ConvolutionBackpropData", attrs: "strides=1,1 auto_pad=same_upper",
			ins: []ovIn{ovParam("[1,16,5,5]"), ovParam("[16,2,3,3]"), ovInts(3, 3)}, want: []string{"[1,2,3,3]"}},
		{name: "backprop output shape unknown", op: "ConvolutionBackpropData", attrs: "strides=1,1",
			ins: []ovIn{ovParam("[1,16,5,5]"), ovParam("[16,2,3,3]"), ovParam("[2]")}, want: []string{"[1,2,?,?]"}},
		{name: "backprop output shape length", op: "ConvolutionBackpropData", attrs: "strides=1,1",
			ins: []ovIn{ovParam("[1,16,5,5]"), ovParam("[16,2,3,3]"), ovInts(3, 3, 3)}, wantErr: errcode.ErrInvalidShape},
		{name: "backprop channels", op: "ConvolutionBackpropData", attrs: "strides=1,1",
			ins: []ovIn{ovParam("[1,15,5,5]"), ovParam("[16,2,3,3]")}, wantErr: errcode.ErrInvalidShape},
		{name: "backprop pads too large", op: "ConvolutionBackpropData", attrs: "strides=1,1 pads_begin=2,2 pads_end=2,2",
			ins: []ovIn{ovParam("[1,16,1,1]"), ovParam("[16,2,3,3]")}, wantErr: errcode.ErrInvalidShape},
		{name: "backprop rank from output shape", op: "ConvolutionBackpropData", attrs: "strides=1,1,1",
			ins: []ovIn{ovParam("[...]"), ovParam("[...]"), ovInts(3, 4, 5)}, want: []string{"[?,?,3,4,5]"}},
		{name: "group backprop", op: "GroupConvolutionBackpropData", attrs: "strides=2,2 auto_pad=valid",
			ins: []ovIn{ovParam("[N,4,H,W]"), ovParam("[2,2,3,3,3]")}, want: []string{"[N,6,2*H+1,2*W+1]"}},
	})
}

func TestOVPooling(t *testing.T) {
	checkOV(t, []ovCase{
		{name: "adaptive avg pool", op: "AdaptiveAvgPool", version: 8, ins: []ovIn{ovParam("[N,C,H,W]"), ovInts(5, 7)},
			want: []string{"[N,C,5,7]"}},
		{name: "adaptive avg pool unknown size", op: "AdaptiveAvgPool", version: 8, ins: []ovIn{ovParam("[N,C,H,W,D]"), ovParam("[3]")},
			want: []string{"[N,C,?,?,?]"}},
		{name: "adaptive max pool", op: "AdaptiveMaxPool", version: 8, attrs: "index_element_type=i32",
			ins: []ovIn{ovParam("[N,C,H,W]"), ovInts(5, 7)}, want: []string{"[N,C,5,7]", "[N,C,5,7]"}},
		{name: "adaptive pool sizes", op: "AdaptiveAvgPool", version: 8, ins: []ovIn{ovParam("[1,6,8,9]"), ovInts(5, 7, 8)},
			wantErr: errcode.ErrInvalidShape},
		{name: "adaptive pool rank", op: "AdaptiveAvgPool", version: 8, ins: []ovIn{ovParam("[1,6]"), ovScalar(1)},
			wantErr: errcode.ErrInvalidShape},
		{name: "adaptive max pool index type", op: "AdaptiveMaxPool", version: 8, attrs: "index_element_type=i16",
			ins: []ovIn{ovParam("[1,6,8,9]"), ovInts(5, 7)}, wantErr: errcode.ErrSyntax},
		{name: "max pool kernel rank", op: "MaxPool", attrs: "kernel=2,2,2 strides=1,1,1", ins: []ovIn{ovParam("[1,3,5,5]")},
			wantErr: errcode.ErrInvalidShape},
		{name: "max pool ceil 1 keeps the window", op: "MaxPool", attrs: "kernel=2,2 strides=2,2 pads_begin=1,1 pads_end=1,1 rounding_type=ceil",
			ins: []ovIn{ovParam("[1,3,3,3]")}, want: []string{"[1,3,3,3]"}},
	})
}

// TestOVBackpropEmptyInput checks that ConvolutionBackpropData computes the spec's output size
// strides·(in-1) + kernel - pads at an input size the symbols give that may be 0 (the data [N,16,H,4]
// sliced from 1 on axis 2: H-1, empty at H=1), and states the size at least 1 where it may not
// be, instead of taking the input as 1 or more. Strides 2 and pads 1 give 2*(H-1)-1: -1 at H=1.
func TestOVBackpropEmptyInput(t *testing.T) {
	for _, tc := range []struct {
		name, attrs string
		want, cond  string // the output shape, and the condition ("" for none)
	}{
		{"strides 2 pads 1", "strides=2,2 dilations=1,1 pads_begin=1,1 pads_end=1,1", "[N,6,2*H-3,7]",
			"H >= 2 (backprop (ConvolutionBackpropData): spatial axis 0 (axis 2): the output size 2*H-3 of input size H-1 at least 1)"},
		{"strides 1 pads 0", "strides=1,1 dilations=1,1 pads_begin=0,0 pads_end=0,0", "[N,6,H+1,6]", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := sym.NewTable()
			s, err := sym.ParseShape("[N,16,H,4]", tab)
			if err != nil {
				t.Fatal(err)
			}
			g := &graph.Graph{Declared: map[string]graph.Decl{},
				Consts: map[string]*graph.Const{"start": intConst("start", []int64{1}, []int64{1}), "stop": intConst("stop", []int64{math.MaxInt64}, []int64{1}),
					"step": intConst("step", []int64{1}, []int64{1}), "axes": intConst("axes", []int64{2}, []int64{1}),
					"w": {Name: "w", Type: element.F32, Dims: []int64{16, 6, 3, 3}}},
				Inputs: []graph.Input{{Name: "x", Decl: declOf(s, element.F32)}},
				Nodes: []graph.Node{
					{Name: "slice", Op: "Slice", Domain: graph.DomainOpenVINO, Version: 8, Inputs: []string{"x", "start", "stop", "step", "axes"}, Outputs: []string{"xs"}},
					{Name: "backprop", Op: "ConvolutionBackpropData", Domain: graph.DomainOpenVINO, Version: 1, Inputs: []string{"xs", "w"}, Outputs: []string{"y"}},
				}}
			for _, f := range strings.Fields(tc.attrs) {
				k, v, _ := strings.Cut(f, "=")
				g.Nodes[1].Attrs = append(g.Nodes[1].Attrs, graph.Attr{Name: k, Kind: graph.AttrText, Text: v})
			}
			res, err := graph.Infer(g, graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Tensor("y").Shape.String(); got != tc.want {
				t.Errorf("y = %s, want %s", got, tc.want)
			}
			var got []string
			for _, c := range res.Constraints() {
				got = append(got, c.String())
			}
			if strings.Join(got, "\n") != tc.cond || !res.Complete() {
				t.Errorf("constraints %q (complete %v), want %q (complete)", got, res.Complete(), tc.cond)
			}
		})
	}
}
