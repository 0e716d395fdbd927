package graph

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/onnx"
)

// outputOf returns the shape of tensor name in res, and the result of the node that outputs it.
func outputOf(t *testing.T, res *Result, name string) (string, *NodeResult) {
	t.Helper()
	for i := range res.Nodes {
		for k, out := range res.Nodes[i].Node.Outputs {
			if out == name {
				return res.Nodes[i].Outputs[k].Shape.String(), &res.Nodes[i]
			}
		}
	}
	t.Fatalf("no node outputs %q", name)
	return "", nil
}

// TestDownstreamOfError: a node whose inputs break its rule leaves its outputs unknown, and every
// node downstream of it is not inferred (Blocked names the failing node), whatever the model
// declares: a Gemm after a failed pool gave [?,10] from its weights, and a failed Reshape's output
// was its declaration.
func TestDownstreamOfError(t *testing.T) {
	b := newModel(17).input("x", "N", 3, "H", "W")
	b.m.Graph.Initializers = append(b.m.Graph.Initializers, floatTensor("w", 10, 36))
	b.node("pool", "MaxPool", []string{"x"}, []string{"p"}, attrInts("kernel_shape", 3, 3)).
		node("flatten", "Flatten", []string{"p"}, []string{"f"}).
		node("fc", "Gemm", []string{"f", "w"}, []string{"y"}, attrInt("transB", 1)).
		node("shape", "Shape", []string{"y"}, []string{"ys"}).
		node("relu", "Relu", []string{"x"}, []string{"side"})
	b.m.Graph.Outputs = []onnx.ValueInfo{valueInfo("y", onnx.Float, "N", 10), valueInfo("ys", onnx.Int64, 2), valueInfo("side", onnx.Float, "N", 3, "H", "W")}
	b.m.Graph.ValueInfo = []onnx.ValueInfo{valueInfo("f", onnx.Float, "N", 36)}
	g := decodeGraph(t, b.encode())
	tests := []struct {
		dims    map[string]int64
		tensor  string
		shape   string
		err     string // the code of the node's error
		blocked string
	}{
		{map[string]int64{"H": 5, "W": 6}, "f", "[N,36]", "", ""},
		{map[string]int64{"H": 5, "W": 6}, "y", "[N,10]", "", ""},
		{map[string]int64{"H": 1, "W": 6}, "p", "[...]", "invalid-shape", ""},
		{map[string]int64{"H": 1, "W": 6}, "f", "[...]", "", "pool"},
		{map[string]int64{"H": 1, "W": 6}, "y", "[...]", "", "pool"},
		{map[string]int64{"H": 1, "W": 6}, "ys", "[...]", "", "pool"},
		{map[string]int64{"H": 1, "W": 6}, "side", "[N,3,1,6]", "", ""},
	}
	for _, tt := range tests {
		res, err := Infer(g, Options{Dims: tt.dims})
		if err != nil {
			t.Fatal(err)
		}
		got, r := outputOf(t, res, tt.tensor)
		if got != tt.shape || errcode.Code(r.Err) != tt.err || r.Blocked != tt.blocked {
			t.Errorf("%v: %s = %s (error %v, blocked %q); want %s (%q, %q)", tt.dims, tt.tensor, got, r.Err, r.Blocked, tt.shape, tt.err, tt.blocked)
		}
		if info := res.Tensor(tt.tensor); (info.FailedAt != "") != (tt.err != "" || tt.blocked != "") {
			t.Errorf("%v: %s: FailedAt %q", tt.dims, tt.tensor, info.FailedAt)
		}
	}
}

// TestMaxRank: Options.MaxRank bounds every tensor a node reads or gives (a rank-4 input passed
// --max-rank 2), and is the Reshape rules' bound (rank 70 stopped at 64 whatever it was).
func TestMaxRank(t *testing.T) {
	b := newModel(17).input("x", "N", 3, 4, 4).ints("big", []int64{70}, append([]int64{-1}, ones(69)...)...).ints("flat", []int64{2}, 0, -1)
	b.node("up", "Reshape", []string{"x", "big"}, []string{"u"}, attrInt("allowzero", 1)).
		node("down", "Reshape", []string{"x", "flat"}, []string{"d"}).
		node("relu", "Relu", []string{"x"}, []string{"r"})
	b.output("u", "d", "r")
	g := decodeGraph(t, b.encode())
	tests := []struct {
		maxRank int
		tensor  string
		shape   string
		err     string
	}{
		{0, "r", "[N,3,4,4]", ""},
		{0, "d", "[N,48]", ""},
		{0, "u", "[...]", "limit"}, // rank 70 over the default 64
		{2, "r", "[...]", "limit"},
		{2, "d", "[...]", "limit"},
		{4, "r", "[N,3,4,4]", ""},
		{200, "u", "[48*N," + strings.Repeat("1,", 68) + "1]", ""},
		{-1, "r", "[N,3,4,4]", ""},
	}
	for _, tt := range tests {
		res, err := Infer(g, Options{MaxRank: tt.maxRank})
		if err != nil {
			t.Fatal(err)
		}
		got, r := outputOf(t, res, tt.tensor)
		if got != tt.shape || errcode.Code(r.Err) != tt.err {
			t.Errorf("MaxRank %d: %s = %s, %v; want %s, %q", tt.maxRank, tt.tensor, got, r.Err, tt.shape, tt.err)
		}
		if tt.err == "limit" && !strings.Contains(r.Err.Error(), "more than the limit of") && !strings.Contains(r.Err.Error(), "exceeds the limit of") {
			t.Errorf("MaxRank %d: %s: message %q", tt.maxRank, tt.tensor, r.Err)
		}
	}
}

func ones(n int) []int64 {
	v := make([]int64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

// TestBatchSize: Options.BatchSize binds the batch dim of every input whose batch dim is dynamic:
// the one ONNX's denotation DATA_BATCH marks, else the leading one, named (bound everywhere) or not.
func TestBatchSize(t *testing.T) {
	seq := valueInfo("x", onnx.Float, "T", "B", 16)
	seq.Denotations = []string{"", "DATA_BATCH", ""}
	b := newModel(17)
	b.m.Graph.Inputs = append(b.m.Graph.Inputs, seq, valueInfo("s", onnx.Float, nil, 8), valueInfo("fixed", onnx.Float, 1, 8), valueInfo("other", onnx.Float, "B", 2))
	b.node("relu", "Relu", []string{"x"}, []string{"xr"}).
		node("relu2", "Relu", []string{"s"}, []string{"sr"}).
		node("relu3", "Relu", []string{"fixed"}, []string{"fr"}).
		node("relu4", "Relu", []string{"other"}, []string{"or"})
	b.output("xr", "sr", "fr", "or")
	g := decodeGraph(t, b.encode())
	tests := []struct {
		opt  Options
		want map[string]string
	}{
		{Options{}, map[string]string{"xr": "[T,B,16]", "sr": "[s:0,8]", "fr": "[1,8]", "or": "[B,2]"}},
		{Options{BatchSize: 4}, map[string]string{"xr": "[T,4,16]", "sr": "[4,8]", "fr": "[1,8]", "or": "[4,2]"}},
		{Options{BatchSize: 4, Dims: map[string]int64{"B": 3}}, map[string]string{"xr": "[T,3,16]", "sr": "[4,8]", "or": "[3,2]"}},
		{Options{BatchSize: 4, Inputs: map[string]string{"s": "[5,8]"}}, map[string]string{"sr": "[5,8]", "xr": "[T,4,16]"}},
	}
	for _, tt := range tests {
		res, err := Infer(g, tt.opt)
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range tt.want {
			if got, _ := outputOf(t, res, name); got != want {
				t.Errorf("%+v: %s = %s, want %s", tt.opt, name, got, want)
			}
		}
	}
}

// TestSharedDims: bindings meant for a directory of models may name what a model does not have.
func TestSharedDims(t *testing.T) {
	b := newModel(17).input("x", "N", 3)
	b.node("relu", "Relu", []string{"x"}, []string{"y"}).output("y")
	g := decodeGraph(t, b.encode())
	opt := Options{Dims: map[string]int64{"N": 2, "T": 7}, Inputs: map[string]string{"tokens": "[1,8]"}}
	if _, err := Infer(g, opt); !errors.Is(err, errcode.ErrBinding) {
		t.Errorf("bindings the model does not have: %v, want a binding error", err)
	}
	// Of several inputs the model does not have, the error names the least, on every run (not the
	// first that the map's order of iteration gives).
	several := Options{Inputs: map[string]string{"z": "[1]", "tokens": "[1,8]", "mask": "[1,8]", "ids": "[1,8]", "y": "[2]"}}
	for range 20 {
		if _, err := Infer(g, several); err == nil || err.Error() != `input "ids": the graph has no such input (it has "x")` {
			t.Fatalf("five inputs the model does not have: %v, want the error of \"ids\"", err)
		}
	}
	delete(opt.Inputs, "tokens")
	if _, err := Infer(g, opt); !errors.Is(err, errcode.ErrBinding) || err.Error() != "a binding of T: the model has no dim of that name (its symbols: none)" {
		t.Errorf("a dim the model does not have: %v, want a binding error", err)
	}
	opt.Inputs["tokens"] = "[1,8]"
	opt.SharedDims = true
	res, err := Infer(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := outputOf(t, res, "y"); got != "[2,3]" {
		t.Errorf("shared bindings: y = %s, want [2,3]", got)
	}
	if got := res.UnboundDims(); len(got) != 1 || got[0] != "T" {
		t.Errorf("UnboundDims = %q, want [T]", got)
	}
	// A batch size where no input has a batch dim: static and unmarked.
	s := newModel(17).input("x", 1, 3)
	s.node("relu", "Relu", []string{"x"}, []string{"y"}).output("y")
	g = decodeGraph(t, s.encode())
	if _, err := Infer(g, Options{BatchSize: 4}); !errors.Is(err, errcode.ErrBinding) {
		t.Errorf("a batch size that binds nothing: %v, want a binding error", err)
	}
	if _, err := Infer(g, Options{BatchSize: 4, SharedDims: true}); err != nil {
		t.Errorf("a shared batch size that binds nothing: %v", err)
	}
}

// TestIRLayoutBatch: the N of a Parameter port's layout marks its batch dim.
func TestIRLayoutBatch(t *testing.T) {
	param := `<layer id="0" name="x" type="Parameter" version="opset1"><data shape="?,?,8" element_type="f32"/>` +
		`<output><port id="0" precision="FP32"><dim>-1</dim><dim>-1</dim><dim>8</dim><rt_info><attribute name="layout" version="0" layout="[T,N,C]"/></rt_info></port></output></layer>` +
		`<layer id="1" name="y" type="Result" version="opset1"><input><port id="0"><dim>-1</dim><dim>-1</dim><dim>8</dim></port></input></layer>`
	net, err := ir.Decode(strings.NewReader(`<?xml version="1.0"?><net name="t" version="11"><layers>` + param + `</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges></net>`))
	if err != nil {
		t.Fatal(err)
	}
	if l, _ := net.Layer("0"); l.Outputs[0].Layout != "[T,N,C]" {
		t.Fatalf("layout %q", l.Outputs[0].Layout)
	}
	g, err := FromIR(net, ir.NewWeights(bytes.NewReader(nil), 0, "t.bin"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Infer(g, Options{BatchSize: 6})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Tensor("x").Shape.String(); got != "[x:0,6,8]" {
		t.Errorf("x with BatchSize 6 = %s, want [x:0,6,8]", got)
	}
	for _, tt := range []struct {
		layout string
		rank   int
		want   int
	}{
		{"[N,C,H,W]", 4, 0}, {"NCHW", 4, 0}, {"NHWC", 4, 0}, {"[T,N,C]", 3, 1}, {"CN", 2, 1}, {"...N", 3, 2}, {"[N,...]", 5, 0},
		{"N...C", 4, 0}, {"[C,H,W]", 3, -1}, {"NCHW", 3, -1}, {"", 2, -1}, {"...N", 0, -1},
	} {
		if got := batchAxis(tt.layout, tt.rank); got != tt.want {
			t.Errorf("batchAxis(%q, %d) = %d, want %d", tt.layout, tt.rank, got, tt.want)
		}
	}
}

// TestStaleFallback: the output of an IR layer without a shape rule takes its port's dims, which
// are those of the input shapes the network was written for: under other input shapes (Inputs,
// BatchSize, Dims) it keeps the port's element type and rank alone.
func TestStaleFallback(t *testing.T) {
	port := `<port id="%s" precision="FP32"><dim>1</dim><dim>3</dim><dim>8</dim></port>`
	layers := `<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,3,8" element_type="f32"/><output>` + fmt.Sprintf(port, "0") + `</output></layer>` +
		`<layer id="1" name="m" type="Mystery" version="opset1"><input>` + fmt.Sprintf(port, "0") + `</input><output>` + fmt.Sprintf(port, "1") + `</output></layer>` +
		`<layer id="2" name="y" type="Result" version="opset1"><input>` + fmt.Sprintf(port, "0") + `</input></layer>`
	edges := `<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/><edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>`
	net, err := ir.Decode(strings.NewReader(`<?xml version="1.0"?><net name="t" version="11"><layers>` + layers + `</layers><edges>` + edges + `</edges></net>`))
	if err != nil {
		t.Fatal(err)
	}
	g, err := FromIR(net, ir.NewWeights(bytes.NewReader(nil), 0, "t.bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{}, "f32 [1,3,8]"},
		{Options{Inputs: map[string]string{"x": "[2,3,16]"}}, "f32 [?,?,?]"},
		{Options{BatchSize: 4}, "f32 [?,?,?]"},
	} {
		res, err := Infer(g, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		i, ok := res.NodeIndex("m")
		if !ok {
			t.Fatal("no node m")
		}
		out := res.Nodes[i].Outputs[0]
		if got := out.Type.String() + " " + out.Shape.String(); got != c.want {
			t.Errorf("%+v: m's output %s, want %s", c.opt, got, c.want)
		}
	}
}
