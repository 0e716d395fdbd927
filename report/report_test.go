package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/report"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

func TestLoad(t *testing.T) {
	for _, c := range []struct {
		path       string
		dims       map[string]int64
		verdict    string
		kind       string
		x, y       string // the map's axes
		conditions []string
		nodes      []string // the nodes of the conditions
	}{
		{"../testdata/models/flat_matmul.onnx", nil, "flat_matmul.onnx runs only when N == 1; that fixes N to one value", "when",
			"N", "", []string{"N == 1"}, []string{"/MatMul"}},
		{"../testdata/models/flat_matmul.onnx", map[string]int64{"N": 2}, "flat_matmul.onnx does not run: /MatMul (MatMul) fails with invalid-shape", "never",
			"", "", nil, nil},
		{"../testdata/models/idioms.onnx", nil, "idioms.onnx runs at every binding of N, H, W", "runs", "H", "W", nil, nil},
		{"../testdata/models/cnn_stride.onnx", nil, "cnn_stride.onnx runs only when H >= 11 and W >= 11", "when",
			"H", "W", []string{"H >= 11", "W >= 11"}, []string{"/f/f.4/Conv", "/f/f.4/Conv"}},
		{"../testdata/models/speech_fold4.onnx", nil, "speech_fold4.onnx runs only when T % 4 == 0", "when", "T", "", []string{"T % 4 == 0"}, []string{"/Reshape"}},
		{"../testdata/models/detr_queries.onnx", nil, "detr_queries.onnx runs only when H >= 4 and W >= 4; 1 declared shape disagrees with the rules", "disagrees",
			"H", "W", []string{"H >= 4", "W >= 4"}, []string{"/backbone/Conv", "/backbone/Conv"}},
		{"../testdata/models/run_order.onnx", nil, "run_order.onnx runs only when H*W % 3 == 0 and H >= 3 and W >= 3, and 1 more condition", "when",
			"H", "W", []string{"H*W % 3 == 0", "H >= 3", "W >= 3", "H*W % 2 == 0"}, []string{"r3", "c2", "c2", "r2"}},
		{"../testdata/models/mha_enc.onnx", nil, "mha_enc.onnx runs only when T == 10 and B == 2; that fixes T, B to one value", "when",
			"B", "", []string{"T == 10", "B == 2"}, []string{"/attn/Reshape_1", "/Add"}},
		{"../testdata/ir/flatten_head.xml", nil, "flatten_head.xml runs at every binding of image:0", "runs", "image:0", "", nil, nil},
	} {
		m, err := report.Load(c.path, report.Options{Check: check.Options{Dims: c.dims}})
		if err != nil {
			t.Fatal(err)
		}
		if m.Verdict.Text != c.verdict || m.Verdict.Kind != c.kind {
			t.Errorf("%s %v: verdict %q (%s), want %q (%s)", c.path, c.dims, m.Verdict.Text, m.Verdict.Kind, c.verdict, c.kind)
		}
		if x, y := m.DefaultAxes(); c.x != "" && (x != c.x || y != c.y) {
			t.Errorf("%s: axes %q, %q; want %q, %q", c.path, x, y, c.x, c.y)
		}
		if (m.Map != nil) != (c.x != "") {
			t.Errorf("%s %v: map %v, want one: %v", c.path, c.dims, m.Map != nil, c.x != "")
		}
		var holds, nodes []string
		for _, cond := range m.Conditions {
			holds = append(holds, cond.Holds.String())
			nodes = append(nodes, cond.Node)
			if cond.NodeIndex < 0 || m.Nodes[cond.NodeIndex].Path != cond.Node || m.Nodes[cond.NodeIndex].Mark == "" {
				t.Errorf("%s: condition %s: node %d of the graph, not its node %s, marked", c.path, cond.Holds, cond.NodeIndex, cond.Node)
			}
		}
		if strings.Join(holds, "; ") != strings.Join(c.conditions, "; ") || strings.Join(nodes, "; ") != strings.Join(c.nodes, "; ") {
			t.Errorf("%s: conditions %q at %q, want %q at %q", c.path, holds, nodes, c.conditions, c.nodes)
		}
		if m.Complete == nil || !*m.Complete || m.Lost != nil {
			t.Errorf("%s: complete %v, lost %v; want complete", c.path, m.Complete, m.Lost)
		}
	}
}

// TestLoadSizes: the page's valid sizes are what the conditions leave each symbol, as check prints
// them; none for a model without conditions.
func TestLoadSizes(t *testing.T) {
	for _, c := range []struct {
		path string
		want map[string]string
	}{
		{"../testdata/models/flat_matmul.onnx", map[string]string{"N": "1 only"}},
		{"../testdata/models/cnn_stride.onnx", map[string]string{"N": "any", "H": ">= 11", "W": ">= 11"}},
		{"../testdata/models/idioms.onnx", nil},
	} {
		m, err := report.Load(c.path, report.Options{Axes: report.MapAxes{NoMap: true}})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(m.Sizes, c.want) || (m.Sizes == nil) != (c.want == nil) {
			t.Errorf("%s: sizes %q, want %q", c.path, m.Sizes, c.want)
		}
	}
}

// TestTypeErrorMap: a model a runtime refuses at load for a node's element types runs at no cell
// of its map, and the map names the node.
func TestTypeErrorMap(t *testing.T) {
	m, err := report.Load("../testdata/models/type_error.onnx", report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "type_error.onnx does not run: sqrt (Sqrt) fails with data-type"; m.Verdict.Text != want {
		t.Errorf("verdict %q, want %q", m.Verdict.Text, want)
	}
	if m.Map == nil || m.Map.Text != "N 1..128: runs at 0 of 128 cells" ||
		!strings.Contains(m.Map.SVG, "sqrt (Sqrt): the model does not load: data-type (fails first at 128 cells)") {
		t.Errorf("map %+v, want one that runs nowhere and names sqrt", m.Map)
	}
}

// TestErrorMap: a node check finds in error at every binding (a Concat of inputs of ranks 2 and
// 1, as torchaudio's Emformer exports, which onnxruntime refuses at load) leaves no cell running.
func TestErrorMap(t *testing.T) {
	m := onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 17}}}
	m.Graph.Name = "g"
	m.Graph.Inputs = []onnx.ValueInfo{
		{Name: "x", ElemType: onnx.Float, Shape: shape.Of(shape.Dynamic, shape.Static(4)), DimParams: []string{"T", ""}},
		{Name: "y", ElemType: onnx.Float, Shape: shape.OfInts(4)},
	}
	m.Graph.Nodes = []onnx.Node{{Name: "cat", OpType: "Concat", Inputs: []string{"x", "y"}, Outputs: []string{"z"},
		Attrs: []onnx.Attribute{{Name: "axis", Type: onnx.AttrInt, I: 0}}}}
	m.Graph.Outputs = []onnx.ValueInfo{{Name: "z", Shape: shape.DynamicRank()}}
	r, err := report.Load(writeModel(t, "cat_ranks.onnx", &m), report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict.Kind != "never" || r.Map == nil || r.Map.Text != "T 1..128: runs at 0 of 128 cells" ||
		!strings.Contains(r.Map.SVG, `data-runs="false" data-node="cat"`) ||
		!strings.Contains(r.Map.SVG, "cat (Concat): fails with invalid-shape at every binding (fails first at 128 cells)") {
		t.Errorf("verdict %q, map %+v; want one that runs nowhere and names cat", r.Verdict.Text, r.Map)
	}
}

// TestLoadTensors requires every node's tensors to index the tensors of shapes: each output is the
// tensor the node outputs, each input a tensor of its graph or of one around it.
func TestLoadTensors(t *testing.T) {
	for _, path := range []string{"../testdata/models/control_flow.onnx", "../testdata/models/yolo_head.onnx", "../testdata/ir/flatten_head.xml"} {
		m, err := report.Load(path, report.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Tensors) == 0 || len(m.Nodes) == 0 {
			t.Fatalf("%s: %d tensors, %d nodes", path, len(m.Tensors), len(m.Nodes))
		}
		for _, n := range m.Nodes {
			for _, k := range n.Outputs {
				if k < 0 || m.Tensors[k].Node != n.Path {
					t.Errorf("%s: node %s outputs tensor %d, made by another node", path, n.Path, k)
				}
			}
			for _, k := range n.Inputs {
				if k >= 0 && !strings.HasPrefix(n.Scope, m.Tensors[k].Graph) {
					t.Errorf("%s: node %s in %q reads tensor %s of graph %q", path, n.Path, n.Scope, m.Tensors[k].Name, m.Tensors[k].Graph)
				}
			}
		}
	}
}

// TestIncomplete loads a model with a node without a shape rule: the conditions are incomplete,
// the node is where precision was lost, marked, and the map's cells where every condition holds
// are no claim.
func TestIncomplete(t *testing.T) {
	m := onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 17}, {Domain: "com.example", Version: 1}}}
	m.Graph.Name = "g"
	m.Graph.Inputs = []onnx.ValueInfo{{Name: "x", ElemType: onnx.Float, Shape: shape.Of(shape.Dynamic, shape.Dynamic), DimParams: []string{"B", "T"}}}
	m.Graph.Nodes = []onnx.Node{
		{Name: "mystery", OpType: "Mystery", Domain: "com.example", Inputs: []string{"x"}, Outputs: []string{"y"}},
		{Name: "relu", OpType: "Relu", Inputs: []string{"y"}, Outputs: []string{"z"}},
	}
	m.Graph.Outputs = []onnx.ValueInfo{{Name: "z", Shape: shape.DynamicRank()}}
	path := writeModel(t, "mystery.onnx", &m)
	r, err := report.Load(path, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete == nil || *r.Complete || len(r.Lost) != 1 || r.Lost[0].Node != "mystery" || r.Nodes[0].Mark != "lost" {
		t.Fatalf("complete %v, lost %+v, mark %q; want incomplete, lost at mystery, marked", r.Complete, r.Lost, r.Nodes[0].Mark)
	}
	// No condition stated, and some may be missing: check's words, not a green "runs".
	if want := "mystery.onnx states no condition on B, T; the conditions may be incomplete: no shape rule for com.example:Mystery (1)"; r.Verdict.Text != want || r.Verdict.Kind != "when" {
		t.Errorf("verdict %q (%s), want %q (when)", r.Verdict.Text, r.Verdict.Kind, want)
	}
	if r.Map == nil || !strings.Contains(r.Map.SVG, `data-runs="maybe"`) || strings.Contains(r.Map.SVG, `data-runs="true"`) {
		t.Error("the map draws cells where every stated condition holds as running, not as no claim")
	}
}

// TestMapStops: a cell's node is where a run stops, the first condition a binding breaks by Seq of
// the constraints and those they imply: at H = 1 cnn_stride breaks H >= 11 at /f/f.4/Conv, and
// before it the implied H >= 3 at /f/f.0/Conv, which onnxruntime refuses (the held-out maps of
// googlenet, squeezenet and vit_b_16 named the later node). Each cell's node is that of check's
// first error row at the cell's binding, and the map's conditions say which the page lists.
func TestMapStops(t *testing.T) {
	const path = "../testdata/models/cnn_stride.onnx"
	m, err := report.Load(path, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sm, err := m.SizeMap(report.MapAxes{X: "H", Y: "W", Lo: 1, Hi: 12})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		h, w int64
		node string // "" where it runs
	}{
		{1, 1, "/f/f.0/Conv"}, {2, 12, "/f/f.0/Conv"}, {12, 2, "/f/f.0/Conv"}, {3, 3, "/f/f.4/Conv"},
		{10, 12, "/f/f.4/Conv"}, {12, 10, "/f/f.4/Conv"}, {11, 11, ""}, {12, 12, ""},
	} {
		fail, ok := sm.At(c.h, c.w)
		node := ""
		if ok && fail >= 0 {
			node = sm.Facts.Conditions[fail].Node
		}
		if !ok || node != c.node {
			t.Errorf("H=%d, W=%d: the map stops at %q (in the map: %v), want %q", c.h, c.w, node, ok, c.node)
		}
		rep, err := check.File(path, check.Options{Dims: map[string]int64{"H": c.h, "W": c.w}})
		if err != nil {
			t.Fatal(err)
		}
		first := ""
		if i := slices.IndexFunc(rep.Rows, func(r check.Row) bool { return r.Verdict.IsError() }); i >= 0 {
			first = rep.Rows[i].Name
		}
		if first != c.node {
			t.Errorf("H=%d, W=%d: check's first error at %q, the map's node %q", c.h, c.w, first, c.node)
		}
	}
	var got []string
	for _, c := range m.Map.Conditions {
		got = append(got, fmt.Sprintf("%s %s %d", c.Holds, c.Node, c.Cond))
	}
	want := []string{"H >= 3 /f/f.0/Conv -1", "W >= 3 /f/f.0/Conv -1", "H >= 11 /f/f.4/Conv 0", "W >= 11 /f/f.4/Conv 1"}
	if !slices.Equal(got, want) {
		t.Errorf("the map's conditions %q, want %q", got, want)
	}
}

func TestSizeMapErrors(t *testing.T) {
	m, err := report.Load("../testdata/models/const_reshape_batch.onnx", report.Options{Axes: report.MapAxes{NoMap: true}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.SizeMap(report.MapAxes{X: "H"}); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("a map over H, not a symbol: %v", err)
	}
	m, err = report.Load("../testdata/models/idioms.onnx", report.Options{Check: check.Options{Inputs: map[string]string{"x": "[2,3,5,4]"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.SizeMap(report.MapAxes{}); !errors.Is(err, report.ErrNoSymbols) {
		t.Errorf("a map of a static model: %v, want ErrNoSymbols", err)
	}
	if m.Map != nil || m.Verdict.Text != "idioms.onnx runs: every shape is static" {
		t.Errorf("static model: map %v, verdict %q", m.Map != nil, m.Verdict.Text)
	}
}

func TestDefaultRange(t *testing.T) {
	for _, c := range []struct {
		path, symbol string
		lo, hi       int64
	}{
		{"../testdata/models/cnn_stride.onnx", "H", 1, 128},     // H >= 11: at least 64 values, twice that
		{"../testdata/models/yolo_head.onnx", "H", 1, 128},      // 64 in N*((H+1)//2)*((W+1)//2) == 64
		{"../testdata/models/vit_posemb.onnx", "H", 1, 128},     // (H//4)*(W//4) == 0 || (H//4)*(W//4) == 16
		{writeModel(t, "fold100.onnx", fold100()), "T", 1, 200}, // B*T % 100 == 0
		{"../testdata/models/swin_window.onnx", "B", 1, 128},    // B*(H//4)*(W//4) % 16 == 0
		{"../testdata/models/flat_matmul.onnx", "N", 1, 128},    // N == 1
		{"../testdata/models/speech_fold4.onnx", "T", 1, 128},   // T % 4 == 0
		{"../testdata/models/const_reshape_batch.onnx", "N", 1, 128},
		// H == 1024 (a Concat with a constant of the export's size): 128 values centred on 1024
		{writeModel(t, "concat1024.onnx", concat1024()), "H", 960, 1087},
	} {
		m, err := report.Load(c.path, report.Options{Axes: report.MapAxes{NoMap: true}})
		if err != nil {
			t.Fatal(err)
		}
		if lo, hi := m.DefaultRange(c.symbol); lo != c.lo || hi != c.hi {
			t.Errorf("%s: %s over %d..%d, want %d..%d", c.path, c.symbol, lo, hi, c.lo, c.hi)
		}
	}
}

// TestWriteHTML writes a report and reads its data back: the JSON of the model, inline, which no
// name of the model can end early (a node named </script>).
func TestWriteHTML(t *testing.T) {
	m, err := report.Load("../testdata/models/yolo_head.onnx", report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m.Nodes[0].Message = "</script><script>alert(1)</script>"
	var b bytes.Buffer
	if err := report.WriteHTML(&b, m); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Count(page, "</script>") != 4 {
		t.Errorf("%d </script> in the page, want the 4 of its scripts", strings.Count(page, "</script>"))
	}
	for _, want := range []string{"<title>yolo_head.onnx: reshape report</title>", `<h1 id="verdict" data-kind="disagrees">yolo_head.onnx runs only when`, "dagre", "ReshapeReport.render"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page has no %q", want)
		}
	}
	data := regexp.MustCompile(`(?s)<script id="reshape-data" type="application/json">(.*?)</script>`).FindStringSubmatch(page)
	if data == nil {
		t.Fatal("no data in the page")
	}
	var back struct {
		Verdict    report.Verdict
		Conditions []struct{ Holds, Node string }
		Tensors    []map[string]any
		Nodes      []report.Node
	}
	if err := json.Unmarshal([]byte(data[1]), &back); err != nil {
		t.Fatal(err)
	}
	if back.Verdict != m.Verdict || len(back.Conditions) != len(m.Conditions) || len(back.Tensors) != len(m.Tensors) || back.Nodes[0].Message != m.Nodes[0].Message {
		t.Errorf("the page's data differ from the model's")
	}
}

// TestReportSize writes the report of bert_deep_1x, 2,269 nodes: under 3 MB.
func TestReportSize(t *testing.T) {
	m, err := report.Load("../testdata/models/bert_deep_1x.onnx", report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.WriteHTML(&b, m); err != nil {
		t.Fatal(err)
	}
	if len(m.Nodes) < 2000 || b.Len() > 3<<20 {
		t.Errorf("%d nodes, a report of %d bytes; want 2,000 or more nodes in under 3 MiB", len(m.Nodes), b.Len())
	}
}

func ExampleLoad() {
	m, err := report.Load("../testdata/models/speech_fold4.onnx", report.Options{})
	if err != nil {
		panic(err)
	}
	sm, err := m.SizeMap(report.MapAxes{X: "T", Lo: 1, Hi: 12})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Verdict.Text)
	fmt.Println(sm)
	for v := int64(1); v <= 12; v++ {
		if fail, _ := sm.At(v, 0); fail < 0 {
			fmt.Print(v, " ")
		}
	}
	fmt.Println()
	// Output:
	// speech_fold4.onnx runs only when T % 4 == 0
	// T 1..12 at B=1: runs at 3 of 12 cells
	// 4 8 12
}

// fold100 returns a model that reshapes x [B,T] by [0,-1,100]: it runs when B*T % 100 == 0.
func fold100() *onnx.Model {
	m := onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 17}}}
	m.Graph.Name = "g"
	m.Graph.Inputs = []onnx.ValueInfo{{Name: "x", ElemType: onnx.Float, Shape: shape.Of(shape.Dynamic, shape.Dynamic), DimParams: []string{"B", "T"}}}
	pattern, err := tensor.FromSlice([]int64{0, -1, 100}, 3)
	if err != nil {
		panic(err)
	}
	p, err := onnx.NewTensor("pattern", pattern)
	if err != nil {
		panic(err)
	}
	m.Graph.Initializers = []onnx.Tensor{p}
	m.Graph.Nodes = []onnx.Node{{Name: "fold", OpType: "Reshape", Inputs: []string{"x", "pattern"}, Outputs: []string{"y"}}}
	m.Graph.Outputs = []onnx.ValueInfo{{Name: "y", Shape: shape.DynamicRank()}}
	return &m
}

// concat1024 joins x [N,H] and a constant [1,1024] along axis 0, as a model exported at 1024 joins
// an input with a tensor of the export's size: it runs at H == 1024 only.
func concat1024() *onnx.Model {
	m := onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 17}}}
	m.Graph.Name = "g"
	m.Graph.Inputs = []onnx.ValueInfo{{Name: "x", ElemType: onnx.Float, Shape: shape.Of(shape.Dynamic, shape.Dynamic), DimParams: []string{"N", "H"}}}
	c, err := tensor.New(element.F32, 1, 1024)
	if err != nil {
		panic(err)
	}
	ct, err := onnx.NewTensor("c", c)
	if err != nil {
		panic(err)
	}
	m.Graph.Initializers = []onnx.Tensor{ct}
	m.Graph.Nodes = []onnx.Node{{Name: "join", OpType: "Concat", Inputs: []string{"x", "c"}, Outputs: []string{"y"},
		Attrs: []onnx.Attribute{{Name: "axis", Type: onnx.AttrInt, I: 0}}}}
	m.Graph.Outputs = []onnx.ValueInfo{{Name: "y", Shape: shape.DynamicRank()}}
	return &m
}

// writeModel writes m as name in a temporary directory and returns its path.
func writeModel(t *testing.T, name string, m *onnx.Model) string {
	t.Helper()
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestVerdictRunTime: the verdict counts the sizes only a run decides apart from the precision the
// rules lost, as check's summary does.
func TestVerdictRunTime(t *testing.T) {
	m, err := report.Load("../testdata/models/ops_movement.onnx", report.Options{Axes: report.MapAxes{NoMap: true}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "; the conditions may be incomplete: precision is lost at Squeeze_1 (Squeeze) and 2 other nodes; 1 size only a run decides"; !strings.HasSuffix(m.Verdict.Text, want) {
		t.Errorf("verdict %q, want it to end in %q", m.Verdict.Text, want)
	}
}
