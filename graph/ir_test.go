package graph_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// loadIR reads the IR model at xmlPath, with the .bin beside it, and builds its graph.
func loadIR(t testing.TB, xmlPath string) (*ir.Net, *graph.Graph) {
	t.Helper()
	f, err := os.Open(xmlPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	net, err := ir.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ir.OpenWeights(strings.TrimSuffix(xmlPath, ".xml") + ".bin")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	g, err := graph.FromIR(net, w)
	if err != nil {
		t.Fatal(err)
	}
	return net, g
}

// compatible reports whether an inferred shape may be the declared one: the same rank, and each
// dim's bounds meeting the declared interval.
func compatible(s sym.Shape, d graph.Decl) bool {
	if s.RankDynamic || d.Rank < 0 {
		return true
	}
	if len(s.Dims) != d.Rank {
		return false
	}
	for i, dim := range s.Dims {
		lo, hi := dim.Bounds()
		if hi < d.Dims[i].Lo || lo > d.Dims[i].Hi {
			return false
		}
	}
	return true
}

// equalsStatic reports whether a declaration is static and the inferred shape equals it.
func equalsStatic(s sym.Shape, d graph.Decl) bool {
	if s.RankDynamic || d.Rank != len(s.Dims) {
		return false
	}
	for i, dim := range s.Dims {
		n, ok := dim.Static()
		if !ok || d.Dims[i].Lo != d.Dims[i].Hi || n != d.Dims[i].Lo {
			return false
		}
	}
	return true
}

// irStats is what inference found in one IR model.
type irStats struct {
	layers, reshapes, dims, determined int
	ports, equal, fromDecl             int // output ports of nodes, those whose static declaration the inference equals, those given by their declaration
	unsupported                        []string
	computed                           []string // the Reshapes with computed patterns: input, pattern, output
}

// checkIR infers the graph of an IR model and checks every output port's inferred shape against
// its declaration, and that no node fails; it returns the figures of the model.
func checkIR(t *testing.T, net *ir.Net, g *graph.Graph) irStats {
	t.Helper()
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatalf("Infer: %v", err)
	}
	st := irStats{layers: len(net.Layers)}
	for op, n := range res.Unsupported {
		st.unsupported = append(st.unsupported, fmt.Sprintf("%s×%d", op, n))
	}
	slices.Sort(st.unsupported)
	for _, r := range res.Nodes {
		if r.Err != nil {
			t.Errorf("%s: %v", r.Path, r.Err)
			continue
		}
		for k, out := range r.Outputs {
			name := r.Node.Outputs[k]
			d, ok := g.Declared[name]
			if ok && !compatible(out.Shape, d) {
				t.Errorf("%s (%s) output %s: inferred %v, declared %v", r.Path, r.Node.Op, name, out.Shape, d.Dims)
			}
			st.ports++
			if out.FromDecl {
				st.fromDecl++
			} else if ok && equalsStatic(out.Shape, d) {
				st.equal++
			}
		}
		if r.Node.Op != "Reshape" {
			continue
		}
		st.reshapes++
		out := r.Outputs[0]
		if out.FromDecl {
			t.Errorf("%s: the Reshape's output is its declaration", r.Path)
		}
		for _, d := range out.Shape.Dims {
			st.dims++
			if d.Determined() {
				st.determined++
			}
		}
		if _, isConst := g.Consts[r.Node.Inputs[1]]; !isConst {
			p := "?"
			if r.Inputs[1].Value != nil {
				p = sym.ShapeOf(r.Inputs[1].Value...).String()
			}
			st.computed = append(st.computed, fmt.Sprintf("%s: %v by %s → %v", r.Path, r.Inputs[0].Shape, p, out.Shape))
		}
	}
	return st
}

// irModels are the OpenVINO IR models of ../shared/realdata (its SOURCES.md, section A).
var irModels = []string{
	"openvinotoolkit__datumaro/datumaro/plugins/openvino/models/face-detection-0200.xml",
	"ermig1979__Synet/data/inference_engine/test_015f/other.xml",
	"openvinotoolkit__open_model_zoo/tools/accuracy_checker/data/test_models/SampLeNet.xml",
	"openvinotoolkit__openvino_build_deploy/apps/palm_pilot/mediapipeModels/gesture_embedder.xml",
	"openvinotoolkit__openvino_build_deploy/apps/palm_pilot/mediapipeModels/hand_detector.xml",
	"openvinotoolkit__vpux_plugin/tests/lit/NPU/conversion/pipelines/dynamic_reshape.xml",
}

// TestIRRealModels infers every IR model of ../shared/realdata: no node fails, every inferred
// output port shape is compatible with the declared one, and every Reshape's output comes from
// its rule. The log gives, per model, the layers, the Reshapes, the Reshape output dims
// determined, the layers without a rule and the Reshapes whose patterns the model computes.
func TestIRRealModels(t *testing.T) {
	root := testenv.Shared(t, "realdata")
	for _, m := range irModels {
		t.Run(filepath.Base(m), func(t *testing.T) {
			net, g := loadIR(t, filepath.Join(root, m))
			st := checkIR(t, net, g)
			t.Logf("%d layers, %d Reshapes, %d/%d Reshape output dims determined; %d output ports: %d equal to a static declaration, %d as declared; no rule: %s",
				st.layers, st.reshapes, st.determined, st.dims, st.ports, st.equal, st.fromDecl, strings.Join(st.unsupported, " "))
			for _, s := range st.computed {
				t.Log("  " + s)
			}
		})
	}
}

// TestIRRealModelsFreeBatch infers every IR model of ../shared/realdata with the batch dim (1) of
// its Parameters made the symbol N: each dim inferred as an expression in N must evaluate, at
// N = 1, to the static dim the model declares. The log lists the Reshapes whose computed patterns
// cancel N exactly, and those whose constant patterns tie the model to batch 1 (an error once N
// is free).
func TestIRRealModelsFreeBatch(t *testing.T) {
	root := testenv.Shared(t, "realdata")
	at1 := func(string) (int64, bool) { return 1, true }
	for _, m := range irModels {
		t.Run(filepath.Base(m), func(t *testing.T) {
			_, g := loadIR(t, filepath.Join(root, m))
			opt := graph.Options{Inputs: map[string]string{}}
			for _, in := range g.Inputs {
				if in.Decl.Rank < 1 || in.Decl.Dims[0] != graph.StaticDim(1) {
					continue
				}
				dims := []string{"N"}
				for _, d := range in.Decl.Dims[1:] {
					dims = append(dims, sym.FromShape(shapeDim(d)).String())
				}
				opt.Inputs[in.Name] = "[" + strings.Join(dims, ",") + "]"
			}
			if len(opt.Inputs) == 0 {
				t.Skip("no Parameter of batch 1")
			}
			res, err := graph.Infer(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			var inN, tied, withN []string
			for _, r := range res.Nodes {
				if r.Err != nil {
					if r.Node.Op != "Reshape" {
						t.Errorf("%s: %v", r.Path, r.Err)
					}
					tied = append(tied, r.Path)
					continue
				}
				for k, out := range r.Outputs {
					d := g.Declared[r.Node.Outputs[k]]
					if out.Shape.RankDynamic || d.Rank != len(out.Shape.Dims) {
						t.Errorf("%s output %d: %v, declared rank %d", r.Path, k, out.Shape, d.Rank)
						continue
					}
					for i, dim := range out.Shape.Dims {
						x, ok := dim.Expr()
						if !ok || x.DependsOnAnon() {
							continue
						}
						v, err := x.Eval(at1)
						if err != nil || d.Dims[i].Lo != d.Dims[i].Hi || v != d.Dims[i].Lo {
							t.Errorf("%s output %d dim %d: %v is %d at N=1 (%v), declared %d..%d", r.Path, k, i, dim, v, err, d.Dims[i].Lo, d.Dims[i].Hi)
						}
					}
				}
				if r.Node.Op != "Reshape" {
					continue
				}
				out := r.Outputs[0].Shape
				if !slices.ContainsFunc(out.Dims, func(d sym.Dim) bool { x, _ := d.Expr(); return x.Mentions("N") }) {
					continue
				}
				line := fmt.Sprintf("%s: %v by %s → %v", r.Path, r.Inputs[0].Shape, sym.ShapeOf(r.Inputs[1].Value...), out)
				if _, isConst := g.Consts[r.Node.Inputs[1]]; isConst {
					withN = append(withN, line)
				} else {
					inN = append(inN, line)
				}
			}
			t.Logf("with the batch N: %d Reshapes whose computed patterns cancel N, %d with constant patterns that keep N, %d tied to batch 1 by a constant pattern",
				len(inN), len(withN), len(tied))
			for _, s := range inN {
				t.Log("  computed: " + s)
			}
			for _, s := range tied {
				t.Log("  tied to batch 1: " + s)
			}
		})
	}
}

func shapeDim(d graph.DeclDim) shape.Dim { return shape.Dim{Lo: d.Lo, Hi: d.Hi} }

// TestFromIRBatchFlatten: a Parameter x of shape [?,3,224,224] reshaped by
// Concat(Gather(ShapeOf(x), [0]), [-1]) gives [x:0,150528], where OpenVINO's own inference (the
// declared port) gives [?,150528]; bound, the symbol becomes the batch.
func TestFromIRBatchFlatten(t *testing.T) {
	net, g := loadIR(t, filepath.Join("testdata", "ir", "batch_flatten.xml"))
	if len(g.Inputs) != 1 || g.Inputs[0].Name != "x" || len(g.Outputs) != 1 || g.Outputs[0] != graph.IRTensor("7", "2") {
		t.Fatalf("inputs %+v, outputs %v", g.Inputs, g.Outputs)
	}
	for _, tc := range []struct {
		dims map[string]int64
		want string
	}{
		{nil, "[x:0,150528]"},
		{map[string]int64{"x:0": 8}, "[8,150528]"},
	} {
		res, err := graph.Infer(g, graph.Options{Dims: tc.dims})
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, r := range res.Nodes {
			id, ok := graph.IRLayerID(r.Node)
			if !ok || id != "7" {
				continue
			}
			found = true
			if l, _ := net.Layer(id); l.Type != "Reshape" || r.Node.Op != "Reshape" || r.Node.Name != "flatten" {
				t.Errorf("layer %s is %s %q, its node %s %q", id, l.Type, l.Name, r.Node.Op, r.Node.Name)
			}
			if got := r.Outputs[0].Shape.String(); r.Err != nil || got != tc.want {
				t.Errorf("Reshape with %v = %s, %v; want %s", tc.dims, got, r.Err, tc.want)
			}
		}
		if !found {
			t.Errorf("no node for the Reshape layer 7")
		}
	}
}

// TestFromIRSpecExamples infers the five Reshapes of check's built-in model, the examples of the
// OpenVINO Reshape-1 specification, and compares them with their declared outputs.
func TestFromIRSpecExamples(t *testing.T) {
	_, g := loadIR(t, filepath.Join("..", "check", "model", "spec_examples.xml"))
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range res.Nodes {
		if r.Node.Op != "Reshape" {
			continue
		}
		n++
		d := g.Declared[r.Node.Outputs[0]]
		if r.Err != nil || !equalsStatic(r.Outputs[0].Shape, d) {
			t.Errorf("%s: %v, %v; declared %v", r.Path, r.Outputs[0].Shape, r.Err, d.Dims)
		}
	}
	if n != 5 {
		t.Errorf("%d Reshapes, want 5", n)
	}
}

// irXML returns an IR v11 network of the given layers and edges.
func irXML(layers, edges string) string {
	return `<?xml version="1.0"?><net name="t" version="11"><layers>` + layers + `</layers><edges>` + edges + `</edges></net>`
}

// irDecode decodes an IR network and builds its graph with the weights w.
func irDecode(t *testing.T, xml string, w []byte) (*graph.Graph, error) {
	t.Helper()
	net, err := ir.Decode(strings.NewReader(xml))
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	return graph.FromIR(net, ir.NewWeights(bytes.NewReader(w), int64(len(w)), "t.bin"))
}

func TestFromIRErrors(t *testing.T) {
	param := func(id, name string) string {
		return `<layer id="` + id + `" name="` + name + `" type="Parameter" version="opset1"><data shape="2" element_type="f32"/>` +
			`<output><port id="0" precision="FP32"><dim>2</dim></port></output></layer>`
	}
	relu := `<layer id="1" name="r" type="ReLU" version="opset1"><input><port id="0"><dim>2</dim></port></input>` +
		`<output><port id="1"><dim>2</dim></port></output></layer>`
	constant := func(data string) string {
		return `<layer id="3" name="c" type="Const" version="opset1"><data ` + data + `/><output><port id="0" precision="I64"><dim>2</dim></port></output></layer>`
	}
	for _, tc := range []struct {
		name, xml, want string
	}{
		{"unfed input", irXML(param("0", "x")+relu, ""), `ReLU layer "1" ("r", line 1): no edge feeds input port "0"`},
		{"two Parameters of one name", irXML(param("0", "x")+param("2", "x"), ""), `Parameter layer "2" ("x", line 1): Parameter layer "0" ("x", line 1) has the name "x" already`},
		{"Parameter named like a port", irXML(param("0", "1:1")+relu, `<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>`),
			`its name "1:1" names output port "1" of layer "1"`},
		{"Const past the end", irXML(constant(`element_type="i64" shape="2" offset="8" size="16"`), ""), `offset 8 + size 16 is past the end of the file (16 bytes)`},
		{"Const of a bad type", irXML(constant(`element_type="int" shape="2" offset="0" size="16"`), ""), `Const layer "3" ("c", line 1): element_type`},
		{"Result without input", irXML(`<layer id="5" name="out" type="Result" version="opset1"/>`, ""), `Result layer "5" ("out", line 1) has no input port`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := irDecode(t, tc.xml, make([]byte, 16))
			if err == nil || !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("FromIR: %v; want a syntax error with %q", err, tc.want)
			}
		})
	}
}

// TestFromIRConsts reads constants of every kind of element type: integers wide and packed,
// booleans, and floats.
func TestFromIRConsts(t *testing.T) {
	var w []byte
	var layers strings.Builder
	consts := []struct {
		typ, shape string
		bytes      []byte
		ints       string
		floats     []float64
	}{
		{"i32", "3", []byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 5, 0, 0, 0}, "[1,-1,5]", nil},
		{"u8", "2", []byte{200, 7}, "[200,7]", nil},
		{"u4", "3", []byte{0x21, 0x0f}, "[1,2,15]", nil},
		{"i4", "2", []byte{0xf7}, "[7,-1]", nil},
		{"u1", "3", []byte{0xa0}, "[1,0,1]", nil},
		{"boolean", "2", []byte{0, 3}, "[0,1]", nil},
		{"i64", "", []byte{42, 0, 0, 0, 0, 0, 0, 0}, "[42]", nil},
		{"f16", "2", []byte{0x00, 0x3c, 0x00, 0xc0}, "", []float64{1, -2}},
		{"f32", "1", []byte{0, 0, 0x20, 0x40}, "", []float64{2.5}},
	}
	for i, c := range consts {
		fmt.Fprintf(&layers, `<layer id="%d" name="c%d" type="Const" version="opset1"><data element_type="%s" shape="%s" offset="%d" size="%d"/>`+
			`<output><port id="0"><dim>1</dim></port></output></layer>`, i, i, c.typ, c.shape, len(w), len(c.bytes))
		w = append(w, c.bytes...)
	}
	g, err := irDecode(t, irXML(layers.String(), ""), w)
	if err != nil {
		t.Fatal(err)
	}
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range consts {
		info := res.Tensor(graph.IRTensor(strconv.Itoa(i), "0"))
		if info == nil {
			t.Fatalf("const %d: no tensor", i)
		}
		if c.ints != "" {
			if got := sym.ShapeOf(info.Value...).String(); info.Value == nil || got != c.ints {
				t.Errorf("%s const: values %s, want %s", c.typ, got, c.ints)
			}
			continue
		}
		if !slices.Equal(info.Floats, c.floats) {
			t.Errorf("%s const: floats %v, want %v", c.typ, info.Floats, c.floats)
		}
	}
}

// FuzzFromIR builds and infers the graphs of IR networks: no panic, and every error, of the
// network or of a node, carries a code.
func FuzzFromIR(f *testing.F) {
	for _, p := range []string{filepath.Join("testdata", "ir", "batch_flatten"), filepath.Join("..", "check", "model", "spec_examples")} {
		xml, err1 := os.ReadFile(p + ".xml")
		bin, err2 := os.ReadFile(p + ".bin")
		if err1 != nil || err2 != nil {
			f.Fatal(err1, err2)
		}
		f.Add(xml, bin)
	}
	f.Fuzz(func(t *testing.T, xml, bin []byte) {
		net, err := ir.Decode(bytes.NewReader(xml))
		if err != nil {
			return
		}
		g, err := graph.FromIR(net, ir.NewWeights(bytes.NewReader(bin), int64(len(bin)), "fuzz.bin"))
		if err != nil {
			if errcode.Code(err) == "" {
				t.Fatalf("FromIR: an error without a code: %v", err)
			}
			return
		}
		res, err := graph.Infer(g, graph.Options{MaxNodes: 1 << 12})
		if err != nil {
			if errcode.Code(err) == "" {
				t.Fatalf("Infer: an error without a code: %v", err)
			}
			return
		}
		for _, r := range res.Nodes {
			if r.Err != nil && errcode.Code(r.Err) == "" {
				t.Errorf("%s: an error without a code: %v", r.Path, r.Err)
			}
		}
	})
}

// BenchmarkIRInfer builds and infers the graph of the largest IR model of ../shared/realdata
// (face-detection-0200, 1146 layers, 129 FakeQuantize on weights read from the .bin), and reports
// the time per layer.
func BenchmarkIRInfer(b *testing.B) {
	path := testenv.Shared(b, "realdata/"+irModels[0])
	net, _ := loadIR(b, path)
	w, err := ir.OpenWeights(strings.TrimSuffix(path, ".xml") + ".bin")
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	for b.Loop() {
		g, err := graph.FromIR(net, w)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := graph.Infer(g, graph.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(net.Layers)), "ns/layer")
}

// TestIRBatchSize: Options.BatchSize sets the batch of every Parameter as OpenVINO's set_batch
// does, a static one too: the leading dim of a port without a layout, the N of its layout; a
// layout without N, or a scalar, has none (Input.BatchAxis).
func TestIRBatchSize(t *testing.T) {
	param := func(layout, dims string) string {
		return irXML(`<layer id="0" name="x" type="Parameter" version="opset1"><data shape="" element_type="f32"/><output><port id="0" precision="FP32">`+dims+layout+`</port></output></layer>
<layer id="1" name="y" type="Result" version="opset1"><input><port id="0">`+dims+`</port></input></layer>`,
			`<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>`)
	}
	for _, tc := range []struct {
		name, layout, dims string
		axis               int
		want               string
	}{
		{"static leading, no layout", "", "<dim>1</dim><dim>3</dim>", 0, "[4,3]"},
		{"dynamic leading, no layout", "", "<dim>-1</dim><dim>3</dim>", 0, "[4,3]"},
		{"N of the layout, static", `<rt_info><attribute name="layout" version="0" layout="[C,N]"/></rt_info>`, "<dim>3</dim><dim>1</dim>", 1, "[3,4]"},
		{"a layout without N", `<rt_info><attribute name="layout" version="0" layout="[C,H]"/></rt_info>`, "<dim>1</dim><dim>3</dim>", -1, "[1,3]"},
		{"a scalar", "", "", -1, "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := irDecode(t, param(tc.layout, tc.dims), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Inputs[0].BatchAxis(); got != tc.axis {
				t.Errorf("BatchAxis = %d, want %d", got, tc.axis)
			}
			res, err := graph.Infer(g, graph.Options{BatchSize: 4})
			if tc.axis < 0 { // nothing to bind: an error, or unused with bindings for several models
				if !errors.Is(err, errcode.ErrBinding) {
					t.Fatalf("Infer = %v, want a binding error", err)
				}
				res, err = graph.Infer(g, graph.Options{BatchSize: 4, SharedDims: true})
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Tensor("x").Shape.String(); got != tc.want {
				t.Errorf("x = %s, want %s", got, tc.want)
			}
		})
	}
}
