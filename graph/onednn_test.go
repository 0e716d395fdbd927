package graph_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
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
