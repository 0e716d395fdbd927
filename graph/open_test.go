package graph_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/sym"
)

// copyFile copies the file at src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o666); err != nil {
		t.Fatal(err)
	}
}

// TestOpen opens models of both formats, by extension and by content, and files that are not
// models or cannot be read: the shapes inferred, or the error's code and what its message names.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, "../testdata/models/idioms.onnx", filepath.Join(dir, "idioms"))
	copyFile(t, "testdata/ir/batch_flatten.xml", filepath.Join(dir, "net"))
	copyFile(t, "testdata/ir/batch_flatten.bin", filepath.Join(dir, "net.bin"))
	copyFile(t, "testdata/ir/batch_flatten.xml", filepath.Join(dir, "lone.xml"))
	copyFile(t, "testdata/ir/batch_flatten.bin", filepath.Join(dir, "weights.data"))
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a model\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		path string
		opt  graph.OpenOptions
		// want maps tensor paths to their shapes; or err is the error's code, and msg a part of
		// its message.
		want     map[string]string
		err      error
		msg      string
		notExist bool
	}{
		{name: "onnx", path: "../testdata/models/idioms.onnx", want: map[string]string{"x": "[N,3,H,W]", "flat": "[N,3*H*W]"}},
		{name: "onnx external data beside it", path: "../testdata/external/model.onnx", want: map[string]string{"y": "[4,6]", "z": "[4,5]"}},
		{name: "onnx by content", path: filepath.Join(dir, "idioms"), want: map[string]string{"rows_flat": "[N,3,W*((H+1)//2)]"}},
		{name: "ir", path: "testdata/ir/batch_flatten.xml", want: map[string]string{"x": "[x:0,3,224,224]", "7:2": "[x:0,150528]"}},
		{name: "ir by content", path: filepath.Join(dir, "net"), want: map[string]string{"7:2": "[x:0,150528]"}},
		{name: "ir weights named", path: filepath.Join(dir, "lone.xml"), opt: graph.OpenOptions{Weights: filepath.Join(dir, "weights.data")},
			want: map[string]string{"7:2": "[x:0,150528]"}},
		// Published without its weights: the constants' values are unknown, and so is the pattern.
		{name: "ir without its .bin", path: filepath.Join(dir, "lone.xml"), want: map[string]string{"x": "[x:0,3,224,224]", "7:2": "[?,?]"}},
		{name: "ir weights named, missing", path: filepath.Join(dir, "lone.xml"), opt: graph.OpenOptions{Weights: filepath.Join(dir, "none.bin")},
			err: errcode.ErrIO, msg: "none.bin", notExist: true},
		{name: "missing", path: filepath.Join(dir, "missing.onnx"), err: errcode.ErrIO, msg: "missing.onnx", notExist: true},
		{name: "directory", path: dir, err: errcode.ErrSyntax, msg: "a directory"},
		{name: "not a model", path: filepath.Join(dir, "notes.txt"), err: errcode.ErrSyntax, msg: "notes.txt: not a model file"},
		{name: "onnx past the limit", path: "../testdata/models/idioms.onnx", opt: graph.OpenOptions{MaxBytes: 100}, err: errcode.ErrLimit, msg: "idioms.onnx"},
		{name: "ir past the limit", path: "testdata/ir/batch_flatten.xml", opt: graph.OpenOptions{MaxBytes: 100}, err: errcode.ErrLimit,
			msg: "batch_flatten.xml: the file is"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := graph.Open(c.path, c.opt)
			if c.err != nil {
				switch {
				case err == nil:
					g.Close()
					t.Fatalf("Open: no error, want %v", c.err)
				case !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg):
					t.Fatalf("Open: %v, want %v naming %q", err, c.err, c.msg)
				case errors.Is(err, fs.ErrNotExist) != c.notExist:
					t.Fatalf("Open: %v: errors.Is(err, fs.ErrNotExist) is %v", err, !c.notExist)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			res, err := graph.Infer(g, graph.Options{})
			if cerr := g.Close(); cerr != nil {
				t.Errorf("Close: %v", cerr)
			}
			if err != nil {
				t.Fatalf("Infer: %v", err)
			}
			for path, want := range c.want {
				if info := res.Tensor(path); info == nil {
					t.Errorf("no tensor %q", path)
				} else if got := info.Shape.String(); got != want {
					t.Errorf("%s: %s, want %s", path, got, want)
				}
			}
		})
	}
}

// TestClose closes a graph Open returned: its constants cannot be read after it, the Result of an
// Infer before it stays valid, closing twice does nothing, and a graph FromONNX built has nothing
// to close.
func TestClose(t *testing.T) {
	for _, path := range []string{"../testdata/models/idioms.onnx", "testdata/ir/batch_flatten.xml"} {
		g, err := graph.Open(path, graph.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := graph.Infer(g, graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Close(); err != nil {
			t.Errorf("%s: Close: %v", path, err)
		}
		if err := g.Close(); err != nil {
			t.Errorf("%s: Close again: %v", path, err)
		}
		for name, c := range g.Consts {
			if _, _, err := c.Load(1 << 10); err == nil {
				t.Errorf("%s: constant %s: read after Close", path, name)
			}
			break
		}
		n := 0
		for range res.Tensors() {
			n++
		}
		if n == 0 {
			t.Errorf("%s: no tensors after Close", path)
		}
	}
	if err := (&graph.Graph{}).Close(); err != nil {
		t.Errorf("Close of a graph built by hand: %v", err)
	}
}

// TestResultPaths infers a model of If, Loop and Scan nodes: every tensor Tensors lists is the one
// Tensor finds by its path, each path once, in the order of the graph inputs and then of Nodes;
// the subgraphs' inputs and constants are found by path too, and a Loop body inferred twice
// until its shapes settle is recorded once.
func TestResultPaths(t *testing.T) {
	g, err := graph.Open("../testdata/models/control_flow.onnx", graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for path, info := range res.Tensors() {
		if got := res.Tensor(path); got != info {
			t.Errorf("%s: Tensor gives %p, Tensors %p", path, got, info)
		}
		paths = append(paths, path)
	}
	var want []string
	for _, in := range g.Inputs {
		want = append(want, in.Name)
	}
	for _, n := range res.Nodes {
		for _, out := range n.Node.Outputs {
			if out != "" && n.Scope != "" {
				want = append(want, n.Scope+"/"+out)
			} else if out != "" {
				want = append(want, out)
			}
		}
	}
	if !slices.Equal(paths, want) {
		t.Errorf("Tensors lists\n%q\nwant the inputs, then the nodes' outputs:\n%q", paths, want)
	}
	sorted := slices.Clone(paths)
	slices.Sort(sorted)
	if c := slices.Compact(sorted); len(c) != len(paths) {
		t.Errorf("Tensors lists %d paths, %d of them different", len(paths), len(c))
	}
	nodes := map[string]int{}
	for _, n := range res.Nodes {
		nodes[n.Path]++
		if nodes[n.Path] == 2 {
			t.Errorf("node %s recorded twice", n.Path)
		}
	}
	for path, want := range map[string]struct {
		t     element.Type
		shape string
	}{
		"x":                            {element.F32, "[N,C,4]"},
		"loop/body/i":                  {element.I64, "[]"},
		"loop/body/loop/Reshape_0_out": {element.F32, "[4*C]"},
		"scan/body/xt":                 {element.F32, "[C,4]"},
		"scan/body/scan/Reshape_0_out": {element.F32, "[4*C]"},
		"if_const/then_branch/if_const/then/Reshape_0_out": {element.F32, "[N,4*C]"},
	} {
		info := res.Tensor(path)
		if info == nil {
			t.Errorf("no tensor %q", path)
			continue
		}
		if info.Type != want.t || info.Shape.String() != want.shape {
			t.Errorf("%s: %v %v, want %v %s", path, info.Type, info.Shape, want.t, want.shape)
		}
	}
	for _, path := range []string{"loop/body/nothing", "loop/body", "nothing", ""} {
		if info := res.Tensor(path); info != nil {
			t.Errorf("%q: %v, want none", path, info.Shape)
		}
	}
	// A Result is read by many goroutines at once (go test -race).
	res, err = graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, p := range paths {
				if res.Tensor(p) == nil {
					t.Errorf("%s: no tensor, read concurrently", p)
				}
			}
		})
	}
	wg.Wait()
}

// TestSymbols lists a graph's symbols with their bounds: those the inputs declare, in the order
// inference meets them, without those a binding fixes, and never an anonymous dim.
func TestSymbols(t *testing.T) {
	g := &graph.Graph{
		Inputs: []graph.Input{
			{Name: "x", Decl: graph.Decl{Type: element.F32, Rank: 3, Dims: []graph.DeclDim{{Lo: 1, Hi: 8}, graph.NamedDim("T"), graph.StaticDim(4)}}},
			{Name: "y", Decl: graph.Decl{Type: element.F32, Rank: 2, Dims: []graph.DeclDim{graph.NamedDim("N"), graph.NamedDim("T")}}},
		},
		Nodes:   []graph.Node{{Op: "NonZero", Version: 13, Inputs: []string{"y"}, Outputs: []string{"nz"}}},
		Outputs: []string{"nz"},
	}
	cases := []struct {
		dims map[string]int64
		want []sym.Symbol
		text string
	}{
		{nil, []sym.Symbol{{Name: "x:0", Lo: 1, Hi: 8}, {Name: "T", Lo: 1, Hi: sym.Inf}, {Name: "N", Lo: 1, Hi: sym.Inf}}, "[x:0 in 1..8 T in 1.. N in 1..]"},
		{map[string]int64{"T": 5}, []sym.Symbol{{Name: "x:0", Lo: 1, Hi: 8}, {Name: "N", Lo: 1, Hi: sym.Inf}}, "[x:0 in 1..8 N in 1..]"},
	}
	for _, c := range cases {
		res, err := graph.Infer(g, graph.Options{Dims: c.dims})
		if err != nil {
			t.Fatal(err)
		}
		got := res.Symbols()
		if !slices.Equal(got, c.want) {
			t.Errorf("Dims %v: Symbols() = %v, want %v", c.dims, got, c.want)
		}
		if text := fmt.Sprint(got); text != c.text {
			t.Errorf("Dims %v: printed %s, want %s", c.dims, text, c.text)
		}
		if nz := res.Tensor("nz").Shape.String(); nz != "[2,?]" {
			t.Errorf("NonZero's output: %s, want [2,?]: the count, an anonymous dim, prints as its interval", nz)
		}
	}
}

// TestNoInternalNames infers every model of testdata/models, and of ../shared/realdata/onnx (a
// subtest of its own), and prints what a Result tells: every tensor's shape and values, the nodes'
// errors, the symbols, the constraints, and the errors of Check and Shape.Eval at a binding. None
// holds the internal name of an anonymous dim ($If_0:output0:0#3): such a dim prints as its interval.
func TestNoInternalNames(t *testing.T) {
	for _, dir := range []string{"testdata", "shared"} {
		t.Run(dir, func(t *testing.T) {
			models := "../testdata/models"
			if dir == "shared" {
				models = testenv.Shared(t, "realdata/onnx")
			}
			paths, _ := filepath.Glob(filepath.Join(models, "*.onnx"))
			if len(paths) == 0 {
				t.Fatalf("no model in %s", models)
			}
			for _, path := range paths {
				noInternalNames(t, path)
			}
		})
	}
}

// noInternalNames infers the model at path and requires no internal name in what its Result tells.
func noInternalNames(t *testing.T, path string) {
	g, err := graph.Open(path, graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := graph.Infer(g, graph.Options{})
	g.Close()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var b strings.Builder
	binding := map[string]int64{}
	for _, s := range res.Symbols() {
		binding[s.Name] = 3
	}
	for p, info := range res.Tensors() {
		fmt.Fprintln(&b, p, info.Shape, info.Value)
		if _, err := info.Shape.Eval(binding); err != nil {
			fmt.Fprintln(&b, err)
		}
	}
	for _, n := range res.Nodes {
		if n.Err != nil {
			fmt.Fprintln(&b, n.Err)
		}
	}
	fmt.Fprintln(&b, res.Symbols(), res.Constraints(), res.Check(binding))
	if i := strings.IndexByte(b.String(), '$'); i >= 0 {
		line := b.String()[strings.LastIndexByte(b.String()[:i], '\n')+1:]
		line, _, _ = strings.Cut(line, "\n")
		t.Errorf("%s: an internal name: %s", path, line)
	}
}
