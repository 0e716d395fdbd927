package graph_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/onednn"
)

// dnnlCase infers one oneDNN Graph op, read from the JSON benchdnn writes, and checks its outputs.
type dnnlCase struct {
	name string
	kind string
	// attrs are NAME=VALUE pairs: [1,2] an s64[], [0.5]f an f32[], true and false a bool, an
	// integer an s64, a number with a point an f32, anything else a string.
	attrs string
	ins   []string // each input as DTYPE[DIMS] ("f32[2,-1,4]"), the dims oneDNN's numbers
	want  []string // the output shapes; their count is the op's number of outputs
	// wantErr is the error the op's node must have (want is then its number of outputs).
	wantErr error
}

// dnnlAttr returns the JSON of the attribute text NAME=VALUE.
func dnnlAttr(f string) string {
	k, v, _ := strings.Cut(f, "=")
	typ, val := "string", strconv.Quote(v)
	switch {
	case strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]f"):
		typ, val = "f32[]", strings.TrimSuffix(v, "f")
	case strings.HasPrefix(v, "["):
		typ, val = "s64[]", v
	case v == "true" || v == "false":
		typ, val = "bool", "0"
		if v == "true" {
			val = "1"
		}
	default:
		if _, err := strconv.ParseInt(v, 10, 64); err == nil {
			typ, val = "s64", v
		} else if _, err := strconv.ParseFloat(v, 64); err == nil {
			typ, val = "f32", v
		}
	}
	return fmt.Sprintf("%q:{\"type\":%q,\"value\":%s}", k, typ, val)
}

// dnnlTensor returns the JSON of the logical tensor id declared as DTYPE[DIMS].
func dnnlTensor(id int, decl string) string {
	dtype, dims, _ := strings.Cut(decl, "[")
	return fmt.Sprintf(`{"id":%d,"dtype":%q,"shape":[%s,"stride":[],"layout_type":"strided","property_type":"undef"}`, id, dtype, dims)
}

// dnnlGraph returns the graph of one op of the case, its outputs declared of unknown rank.
func dnnlGraph(t *testing.T, tc dnnlCase) *graph.Graph {
	t.Helper()
	var attrs, ins, outs []string
	for _, f := range strings.Fields(tc.attrs) {
		attrs = append(attrs, dnnlAttr(f))
	}
	for i, in := range tc.ins {
		ins = append(ins, dnnlTensor(i, in))
	}
	for i := range tc.want {
		outs = append(outs, dnnlTensor(100+i, "f32[-9223372036854775808]"))
	}
	js := fmt.Sprintf(`{"version":"3.5.0","engine_kind":"cpu","graph":[{"id":1,"name":%q,"kind":%q,"attrs":{%s},"inputs":[%s],"outputs":[%s]}]}`,
		tc.name, tc.kind, strings.Join(attrs, ","), strings.Join(ins, ","), strings.Join(outs, ","))
	dg, err := onednn.Decode(strings.NewReader(js))
	if err != nil {
		t.Fatalf("%s: %v\n%s", tc.name, err, js)
	}
	g, err := graph.FromOneDNN(dg)
	if err != nil {
		t.Fatalf("%s: FromOneDNN: %v", tc.name, err)
	}
	return g
}

// checkDNNL runs the cases.
func checkDNNL(t *testing.T, cases []dnnlCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := graph.Infer(dnnlGraph(t, tc), graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := res.Nodes[0]
			if r.Unsupported {
				t.Fatalf("%s has no rule", tc.kind)
			}
			if tc.wantErr != nil {
				if !errors.Is(r.Err, tc.wantErr) {
					t.Fatalf("error %v, want %v", r.Err, tc.wantErr)
				}
				return
			}
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			for k, want := range tc.want {
				if got := r.Outputs[k].Shape.String(); got != want {
					t.Errorf("output %d = %s, want %s", k, got, want)
				}
			}
		})
	}
}

func TestOneDNNCore(t *testing.T) {
	checkDNNL(t, []dnnlCase{
		{"reshape", "StaticReshape", "shape=[0,-1,64] special_zero=true", []string{"f32[1,384,1024]"}, []string{"[1,6144,64]"}, nil},
		{"reshape unknown dim", "StaticReshape", "shape=[0,0,16,64] special_zero=true", []string{"f32[-1,384,1024]"}, []string{"[lt0:0,384,16,64]"}, nil},
		{"reshape volume", "StaticReshape", "shape=[5,-1] special_zero=false", []string{"f32[2,3]"}, []string{""}, errcode.ErrNotDivisible},
		{"reshape no special_zero", "StaticReshape", "shape=[6]", []string{"f32[2,3]"}, []string{""}, errcode.ErrSyntax},
		{"dynamic reshape", "DynamicReshape", "special_zero=false", []string{"f32[2,3,4]", "s32[2]"}, []string{"[?,?]"}, nil},
		{"transpose", "StaticTranspose", "order=[0,2,1,3]", []string{"f32[1,384,16,64]"}, []string{"[1,16,384,64]"}, nil},
		{"transpose negative", "StaticTranspose", "order=[-1,0,1]", []string{"bf16[2,3,4]"}, []string{"[4,2,3]"}, nil},
		{"transpose empty order", "StaticTranspose", "order=[]", []string{"f32[2,3,4]"}, []string{"[4,3,2]"}, nil},
		{"transpose no order", "StaticTranspose", "", []string{"f32[2,3,4]"}, []string{""}, errcode.ErrSyntax},
		{"concat", "Concat", "axis=1", []string{"f32[1,8,-1,64]", "f32[1,8,1,64]"}, []string{"[1,16,1,64]"}, nil},
		{"concat negative axis", "Concat", "axis=-1", []string{"f32[2,3]", "f32[2,5]", "f32[2,1]"}, []string{"[2,9]"}, nil},
		{"concat dims differ", "Concat", "axis=0", []string{"f32[2,3]", "f32[2,5]"}, []string{""}, errcode.ErrInvalidShape},
		{"reduce sum", "ReduceSum", "axes=[-1] keep_dims=true", []string{"f32[1,16,384,384]"}, []string{"[1,16,384,1]"}, nil},
		{"reduce mean", "ReduceMean", "axes=[1,2]", []string{"f32[4,5,6,7]"}, []string{"[4,7]"}, nil},
		{"reduce empty axes", "ReduceMax", "axes=[] keep_dims=false", []string{"f32[4,5]"}, []string{"[4,5]"}, nil},
		{"reduce axes input", "ReduceL2", "keep_dims=true", []string{"f32[4,5]", "s32[1]"}, []string{"[1..4,1..5]"}, nil},
		{"reduce axes input no keep", "ReduceProd", "", []string{"f32[4,5,6]", "s32[2]"}, []string{"[?]"}, nil},
		{"reduce axes twice", "ReduceMin", "axes=[0]", []string{"f32[4,5]", "s32[1]"}, []string{""}, errcode.ErrSyntax},
		{"reduce axis out of range", "ReduceL1", "axes=[2]", []string{"f32[4,5]"}, []string{""}, errcode.ErrInvalidShape},
		{"end", "End", "", []string{"f32[4,5]"}, nil, nil},
	})
}

func TestOneDNNElementwise(t *testing.T) {
	checkDNNL(t, []dnnlCase{
		{"relu", "ReLU", "", []string{"f32[1,64,56,56]"}, []string{"[1,64,56,56]"}, nil},
		{"clamp", "Clamp", "min=0.0 max=6.0", []string{"f32[-1,3]"}, []string{"[lt0:0,3]"}, nil},
		{"clamp no max", "Clamp", "min=0.0", []string{"f32[2,3]"}, []string{""}, errcode.ErrSyntax},
		{"relu backward", "ReLUBackward", "use_dst=false", []string{"f32[2,-1]", "f32[-1,3]"}, []string{"[2,3]"}, nil},
		{"backward differ", "EluBackward", "alpha=1.0", []string{"f32[2,4]", "f32[2,3]"}, []string{""}, errcode.ErrInvalidShape},
		{"add numpy", "Add", "", []string{"f32[1,16,384,384]", "f32[1,1,1,384]"}, []string{"[1,16,384,384]"}, nil},
		{"add NUMPY", "Add", "auto_broadcast=NUMPY", []string{"f32[8,1]", "f32[3]"}, []string{"[8,3]"}, nil},
		{"multiply none", "Multiply", "auto_broadcast=none", []string{"f32[2,-1]", "f32[-1,3]"}, []string{"[2,3]"}, nil},
		{"multiply none differ", "Multiply", "auto_broadcast=none", []string{"f32[2,3]", "f32[1,3]"}, []string{""}, errcode.ErrInvalidShape},
		{"divide no broadcast", "Divide", "", []string{"f32[2,3]", "f32[4]"}, []string{""}, errcode.ErrInvalidShape},
		{"greater equal", "GreaterEqual", "", []string{"s32[1,1,32,32]", "s32[1,1,32,1]"}, []string{"[1,1,32,32]"}, nil},
		{"select", "Select", "", []string{"boolean[1,1,32,32]", "f32[1]", "f32[1,16,32,32]"}, []string{"[1,16,32,32]"}, nil},
		{"select cond grows", "Select", "", []string{"boolean[2,32,32]", "f32[1]", "f32[1,32,32]"}, []string{""}, errcode.ErrInvalidShape},
		{"prelu per channel", "PReLU", "data_format=NCX", []string{"f32[2,16,7,7]", "f32[16]"}, []string{"[2,16,7,7]"}, nil},
		{"prelu nxc", "PReLU", "", []string{"f32[2,7,7,16]", "f32[16]"}, []string{"[2,7,7,16]"}, nil},
		{"prelu right", "PReLU", "per_channel_broadcast=false", []string{"f32[2,16,7,7]", "f32[7]"}, []string{"[2,16,7,7]"}, nil},
		{"prelu slope wrong", "PReLU", "data_format=NCX", []string{"f32[2,16,7,7]", "f32[15]"}, []string{""}, errcode.ErrInvalidShape},
		{"prelu backward", "PReLUBackward", "data_format=NCX", []string{"f32[2,16,7,7]", "f32[1,16,1,1]", "f32[2,16,7,7]"},
			[]string{"[2,16,7,7]", "[1,16,1,1]"}, nil},
	})
}

func TestOneDNNQuant(t *testing.T) {
	checkDNNL(t, []dnnlCase{
		{"dequantize", "Dequantize", "qtype=per_tensor scales=[0.5]f zps=[0]", []string{"u8[1,384,1024]"}, []string{"[1,384,1024]"}, nil},
		{"quantize per channel", "Quantize", "qtype=per_channel axis=1 scales=[0.5,0.25,1.0]f", []string{"f32[2,3,4]"}, []string{"[2,3,4]"}, nil},
		{"quantize per channel count", "Quantize", "qtype=per_channel axis=1 scales=[0.5,0.25]f", []string{"f32[2,3,4]"}, []string{""}, errcode.ErrInvalidShape},
		{"quantize per tensor count", "Quantize", "scales=[0.5,0.25]f", []string{"f32[2,3,4]"}, []string{""}, errcode.ErrInvalidShape},
		{"quantize no scales", "Quantize", "", []string{"f32[2,3,4]"}, []string{""}, errcode.ErrSyntax},
		{"dynamic dequantize per group", "DynamicDequantize", "qtype=per_group group_shape=[1,32,1]",
			[]string{"s4[4,1024,64]", "f32[4,32,64]", "s8[4,32,64]"}, []string{"[4,1024,64]"}, nil},
		{"dynamic dequantize group wrong", "DynamicDequantize", "qtype=per_group group_shape=[1,32,1]",
			[]string{"s4[4,1024,64]", "f32[4,16,64]"}, []string{""}, errcode.ErrInvalidShape},
		{"dynamic quantize per tensor", "DynamicQuantize", "", []string{"f32[4,5]", "f32[1]"}, []string{"[4,5]"}, nil},
		{"typecast", "TypeCast", "", []string{"bf16[-1,16]"}, []string{"[lt0:0,16]"}, nil},
		{"reorder", "Reorder", "", []string{"f32[2,3]"}, []string{"[2,3]"}, nil},
	})
}

// TestOneDNNTensors checks how FromOneDNN names the ops and tensors, finds the graph's inputs and
// outputs, merges the declarations of a tensor, and reads oneDNN's unknown dims.
func TestOneDNNTensors(t *testing.T) {
	js := `{"graph":[
	{"id":1,"name":"a","kind":"ReLU","attrs":{},"inputs":[{"id":0,"dtype":"f32","shape":[-9223372036854775808,8]}],
	 "outputs":[{"id":2,"dtype":"f32","shape":[4,-9223372036854775808]}]},
	{"id":2,"name":"relu","kind":"ReLU","attrs":{},"inputs":[{"id":2,"dtype":"f32","shape":[-1,8]}],
	 "outputs":[{"id":3,"dtype":"f32","shape":[4,8]}]},
	{"id":3,"name":"relu","kind":"End","attrs":{},"inputs":[{"id":3,"dtype":"f32","shape":[4,8]}],"outputs":[]}]}`
	dg, err := onednn.Decode(strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.FromOneDNN(dg)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Inputs) != 1 || g.Inputs[0].Name != "0" {
		t.Errorf("inputs %v, want tensor 0 alone", g.Inputs)
	}
	if got := strings.Join(g.Outputs, " "); got != "3" {
		t.Errorf("outputs %s, want 3", got)
	}
	if got := g.Nodes[0].Name + " " + g.Nodes[1].Name + " " + g.Nodes[2].Name; got != "a relu#2 relu#3" {
		t.Errorf("names %s, want a relu#2 relu#3", got)
	}
	if d := g.Declared["2"]; d.Rank != 2 || d.Dims[0] != graph.StaticDim(4) || d.Dims[1] != graph.StaticDim(8) {
		t.Errorf("tensor 2 declared %+v, want [4,8], the meet of its declarations", d)
	}
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"0": "[lt0:0,8]", "2": "[lt0:0,8]", "3": "[lt0:0,8]"} {
		if got := res.Tensor(name).Shape.String(); got != want {
			t.Errorf("tensor %s = %s, want %s", name, got, want)
		}
	}
}

func TestOneDNNNN(t *testing.T) {
	pads := "strides=[2,2] pads_begin=[1,1] pads_end=[0,0] dilations=[1,1]"
	checkDNNL(t, []dnnlCase{
		{"matmul", "MatMul", "transpose_b=true", []string{"f32[1,16,384,64]", "f32[1,16,384,64]"}, []string{"[1,16,384,384]"}, nil},
		{"matmul bias", "MatMul", "", []string{"f32[384,4096]", "f32[4096,1024]", "f32[1,1024]"}, []string{"[384,1024]"}, nil},
		{"matmul row", "MatMul", "", []string{"f32[128]", "f32[128,64]"}, []string{"[64]"}, nil},
		{"matmul gqa", "MatMul", "", []string{"f32[1,8,2,1,256]", "f32[1,8,1,256,256]"}, []string{"[1,8,2,1,256]"}, nil},
		{"matmul inner", "MatMul", "", []string{"f32[2,3]", "f32[4,5]"}, []string{""}, errcode.ErrInvalidShape},
		{"matmul bias grows", "MatMul", "", []string{"f32[2,3]", "f32[3,5]", "f32[4,5]"}, []string{""}, errcode.ErrInvalidShape},
		{"conv ncx oix", "Convolution", pads + " data_format=NCX weights_format=OIX groups=1", []string{"f32[1,3,224,224]", "f32[64,3,7,7]", "f32[64]"},
			[]string{"[1,64,110,110]"}, nil},
		{"conv depthwise", "Convolution", pads + " data_format=NCX weights_format=OIX groups=64", []string{"f32[2,64,112,112]", "f32[64,1,3,3]"},
			[]string{"[2,64,56,56]"}, nil},
		{"conv nxc xio same", "Convolution", "strides=[2,2] pads_begin=[0,0] pads_end=[0,0] dilations=[1,1] auto_pad=SAME_UPPER groups=3",
			[]string{"u8[1,300,300,3]", "s8[7,7,1,24]"}, []string{"[1,150,150,24]"}, nil},
		{"conv channels", "Convolution", pads + " data_format=NCX weights_format=OIX", []string{"f32[1,4,224,224]", "f32[64,3,7,7]"}, []string{""}, errcode.ErrInvalidShape},
		{"conv no strides", "Convolution", "pads_begin=[0,0] pads_end=[0,0] dilations=[1,1]", []string{"f32[1,3,9,9]", "f32[3,3,3,8]"}, []string{""}, errcode.ErrSyntax},
		{"deconv", "ConvTranspose", "strides=[2,2] pads_begin=[0,0] pads_end=[41,41] dilations=[1,1] data_format=NCX weights_format=IOX",
			[]string{"f32[1,32,28,28]", "f32[32,128,3,3]"}, []string{"[1,128,16,16]"}, nil},
		{"deconv groups", "ConvTranspose", "strides=[1,1] pads_begin=[1,1] pads_end=[1,1] dilations=[1,1] data_format=NCX weights_format=IOX groups=4",
			[]string{"f32[2,16,5,5]", "f32[16,4,3,3]"}, []string{"[2,16,5,5]"}, nil},
		{"deconv bwd data", "ConvTransposeBackwardData", "strides=[2,2] pads_begin=[0,0] pads_end=[41,41] dilations=[1,1] data_format=NCX weights_format=IOX",
			[]string{"f32[1,128,16,16]", "f32[32,128,3,3]"}, []string{"[1,32,28,28]"}, nil},
		{"conv bwd data", "ConvolutionBackwardData", "strides=[1,1,1] pads_begin=[0,0,0] pads_end=[0,0,0] dilations=[1,1,1] data_format=NCX weights_format=OIX",
			[]string{"f32[1,32,114,130,130]", "f32[32,3,3,3,3]"}, []string{"[1,3,116,132,132]"}, nil},
		{"conv bwd data dst_shape", "ConvolutionBackwardData", "strides=[2,2] pads_begin=[0,0] pads_end=[0,0] dilations=[1,1] data_format=NCX weights_format=OIX dst_shape=[1,32,28,28]",
			[]string{"f32[1,128,14,14]", "f32[128,32,1,1]"}, []string{"[1,32,28,28]"}, nil},
		{"conv bwd weights", "ConvolutionBackwardWeights", "strides=[1] pads_begin=[1] pads_end=[1] dilations=[1] data_format=NCX weights_format=OIX groups=4",
			[]string{"f32[2,16,5]", "f32[2,16,5]"}, []string{"[16,4,3]"}, nil},
		{"conv bwd weights groups", "ConvolutionBackwardWeights", "strides=[1] pads_begin=[1] pads_end=[1] dilations=[1] data_format=NCX weights_format=OIX groups=4",
			[]string{"f32[2,18,5]", "f32[2,16,5]"}, []string{""}, errcode.ErrInvalidShape},
		{"conv bwd weights shape", "ConvolutionBackwardWeights", "strides=[2,2] pads_begin=[0,0] pads_end=[0,0] dilations=[1,1] weights_shape=[128,32,1,1]",
			[]string{"f32[1,28,28,32]", "f32[1,14,14,128]"}, []string{"[128,32,1,1]"}, nil},
		{"maxpool", "MaxPool", "strides=[2,2] pads_begin=[1,1] pads_end=[0,0] kernel=[3,3] dilations=[1,1] data_format=NCX", []string{"f32[1,64,600,600]"},
			[]string{"[1,64,300,300]"}, nil},
		{"avgpool negative pad", "AvgPool", "strides=[2,2,2] pads_begin=[1,1,1] pads_end=[-1,1,0] kernel=[2,4,3] exclude_pad=true data_format=NCX",
			[]string{"f32[2,9,22,62,42]"}, []string{"[2,9,11,31,21]"}, nil},
		{"avgpool ceil", "AvgPool", "strides=[2] pads_begin=[0] pads_end=[0] kernel=[2] rounding_type=ceil", []string{"f32[1,5,3]"}, []string{"[1,3,3]"}, nil},
		{"maxpool bwd", "MaxPoolBackward", "strides=[2,2] pads_begin=[1,1] pads_end=[0,0] kernel=[3,3] data_format=NCX",
			[]string{"f32[1,64,600,600]", "f32[1,64,300,300]"}, []string{"[1,64,600,600]"}, nil},
		{"maxpool bwd wrong", "MaxPoolBackward", "strides=[2,2] pads_begin=[1,1] pads_end=[0,0] kernel=[3,3] data_format=NCX",
			[]string{"f32[1,64,600,600]", "f32[1,64,299,300]"}, []string{""}, errcode.ErrInvalidShape},
		{"avgpool bwd", "AvgPoolBackward", "strides=[2,2] pads_begin=[1,1] pads_end=[0,0] kernel=[3,3] data_format=NCX src_shape=[1,64,600,600]",
			[]string{"f32[1,64,300,300]"}, []string{"[1,64,600,600]"}, nil},
		{"interpolate scales", "Interpolate", "mode=linear scales=[2,2,0.5]f data_format=NCX", []string{"f32[2,8,2,4,12]"}, []string{"[2,8,4,8,6]"}, nil},
		{"interpolate sizes", "Interpolate", "mode=nearest sizes=[17] data_format=NCX", []string{"f32[2,17,21]"}, []string{"[2,17,17]"}, nil},
		{"interpolate bwd", "InterpolateBackward", "mode=linear scales=[1.66667,1]f data_format=NCX", []string{"f32[2,16,3,11]", "f32[2,16,5,11]"},
			[]string{"[2,16,3,11]"}, nil},
		{"biasadd", "BiasAdd", "data_format=NCX", []string{"f32[2,64,112,112]", "f32[64]"}, []string{"[2,64,112,112]"}, nil},
		{"biasadd wrong", "BiasAdd", "", []string{"f32[2,64,112,112]", "f32[64]"}, []string{""}, errcode.ErrInvalidShape},
		{"biasadd backprop", "BiasAddBackprop", "data_format=NCX", []string{"f32[1,128,32,32]"}, []string{"[128]"}, nil},
		{"genindex", "GenIndex", "axis=2", []string{"f32[1,32,32,32]"}, []string{"[1,32,32,32]"}, nil},
		{"dropout", "Dropout", "", []string{"f32[2,8,128]", "s64[]", "s64[]", "f32[]"}, []string{"[2,8,128]", "[2,8,128]"}, nil},
	})
}

func TestOneDNNNorm(t *testing.T) {
	checkDNNL(t, []dnnlCase{
		{"batchnorm", "BatchNormInference", "epsilon=0.0625 data_format=NCX", []string{"f32[2,192,71,71]", "f32[192]", "f32[192]", "f32[192]", "f32[192]"},
			[]string{"[2,192,71,71]"}, nil},
		{"batchnorm wrong", "BatchNormInference", "epsilon=0.0625", []string{"f32[2,192,71,71]", "f32[192]", "f32[192]", "f32[192]", "f32[192]"},
			[]string{""}, errcode.ErrInvalidShape},
		{"batchnorm training", "BatchNormForwardTraining", "epsilon=0.0625 data_format=NCX", []string{"f32[2,192,7,7]", "f32[192]", "f32[192]"},
			[]string{"[2,192,7,7]", "[192]", "[192]", "[192]", "[192]"}, nil},
		{"batchnorm backward", "BatchNormTrainingBackward", "epsilon=0.0625 data_format=NCX",
			[]string{"f32[1,32,28,28]", "f32[1,32,28,28]", "f32[32]", "f32[32]", "f32[32]"}, []string{"[1,32,28,28]", "[32]", "[32]"}, nil},
		{"layernorm", "LayerNorm", "begin_norm_axis=-1 keep_stats=true", []string{"f32[64,128,28,28]"}, []string{"[64,128,28,28]", "[64,128,28]", "[64,128,28]"}, nil},
		{"layernorm affine", "LayerNorm", "begin_norm_axis=1", []string{"f32[8,4,6]", "f32[4,6]", "f32[4,6]"}, []string{"[8,4,6]"}, nil},
		{"layernorm gamma wrong", "LayerNorm", "", []string{"f32[8,4,6]", "f32[4]"}, []string{""}, errcode.ErrInvalidShape},
		{"layernorm backward", "LayerNormBackward", "use_affine=true", []string{"f32[8,384,1024]", "f32[8,384,1024]", "f32[8,384]", "f32[8,384]", "f32[1024]", "f32[1024]"},
			[]string{"[8,384,1024]", "[1024]", "[1024]"}, nil},
		{"rmsnorm", "RMSNorm", "epsilon=0.0625", []string{"f32[64,128,28,28]", "f32[28]"}, []string{"[64,128,28,28]"}, nil},
		{"groupnorm", "GroupNorm", "groups=32 data_format=NCX keep_stats=true", []string{"f32[2,320,48,48]", "f32[320]", "f32[320]"},
			[]string{"[2,320,48,48]", "[2,32]", "[2,32]"}, nil},
		{"groupnorm groups", "GroupNorm", "groups=3 data_format=NCX", []string{"f32[2,320,48,48]"}, []string{""}, errcode.ErrInvalidShape},
		{"softmax", "SoftMax", "axis=-1", []string{"f32[1,16,32,33]"}, []string{"[1,16,32,33]"}, nil},
		{"softmax stats", "Softmax", "axis=-1 mode=inf_as_zero", []string{"f32[1,2,8,128,128]"}, []string{"[1,2,8,128,128]", "[1,2,8,128,1]"}, nil},
		{"softmax backward", "SoftMaxBackward", "axis=-1", []string{"f32[2,-1]", "f32[-1,8]"}, []string{"[2,8]"}, nil},
		{"softmax backward differ", "SoftmaxBackward", "axis=-1", []string{"f32[1,2,8,128,128]", "f32[1,2,8,128,64]"}, []string{""}, errcode.ErrInvalidShape},
		{"logsoftmax", "LogSoftmax", "axis=1", []string{"f32[64,128,28,28]"}, []string{"[64,128,28,28]"}, nil},
		{"logsoftmax backward", "LogSoftmaxBackward", "axis=1", []string{"f32[8,384,1024]", "f32[8,384,1024]"}, []string{"[8,384,1024]"}, nil},
	})
}

// TestOneDNNOperations checks that every operation of oneDNN Graph's operation set
// (../shared/spec/onednn-ops, one page each) has a rule, by its documented name.
func TestOneDNNOperations(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(testenv.Shared(t, "spec/onednn-ops"), "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range pages {
		op := strings.TrimSuffix(filepath.Base(p), ".md")
		if op == "README" {
			continue
		}
		n++
		if !graph.Supported(graph.DomainOneDNN, op) {
			t.Errorf("%s has no rule", op)
		}
	}
	if n < 80 {
		t.Errorf("%d operation pages, want the 87 of oneDNN's operation set", n)
	}
}
