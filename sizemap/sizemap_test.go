package sizemap

import (
	"encoding/xml"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// facts returns the facts of conditions written in the predicate notation, on the symbols given
// with their lower bounds, each condition at node "n<i>".
func facts(t testing.TB, symbols map[string]int64, conds ...string) *Facts {
	t.Helper()
	tab := sym.NewTable()
	f := &Facts{}
	for _, name := range []string{"N", "B", "H", "W", "T"} {
		if lo, ok := symbols[name]; ok {
			tab.Symbol(name, lo, sym.Inf)
			f.Symbols = append(f.Symbols, Symbol{name, lo, sym.Inf})
		}
	}
	for i, c := range conds {
		p, err := sym.ParsePred(c, tab)
		if err != nil {
			t.Fatal(err)
		}
		f.Conditions = append(f.Conditions, Condition{Holds: p, Node: "n" + strconv.Itoa(i), Op: "Op"})
	}
	return f
}

// The conditions of models of testdata/models and ../shared/realdata, as check states them.
var (
	yoloHead = []string{"N*((H+1)//2)*((W+1)//2) == 64", "H <= 4 || H >= 13 && H <= 16", "W <= 4 || W >= 13 && W <= 16",
		"H >= 13", "H <= 16", "W >= 13", "W <= 16"}
	swinWindow = []string{"H >= 4", "W >= 4", "B*(H//4)*(W//4) % 16 == 0"}
	ppocrDet   = []string{"H <= 4 || H % 32 == 0 || H % 32 >= 29", "W <= 4 || W % 32 == 0 || W % 32 >= 29", "H >= 3", "W >= 3"}
	vitPosemb  = []string{"H >= 16", "W >= 16", "(H//16)*(W//16) == 196"}
)

// firstFailing is the verdict of a cell as the definition gives it: every condition evaluated at
// the binding, in order.
func firstFailing(f *Facts, b map[string]int64) int {
	for i, c := range f.Conditions {
		if ok, _ := c.Holds.Eval(b); !ok {
			return i
		}
	}
	return -1
}

func TestCompute(t *testing.T) {
	for _, c := range []struct {
		name    string
		f       *Facts
		opt     Options
		binding map[string]int64 // the other symbols' values the map gives
		runs    int
		cells   map[[2]int64]int // cells and their verdicts
	}{
		{"yolo_head", facts(t, map[string]int64{"N": 1, "H": 1, "W": 1}, yoloHead...),
			Options{X: Axis{"H", 1, 64}, Y: Axis{"W", 1, 64}}, map[string]int64{"N": 1}, 4,
			map[[2]int64]int{{15, 15}: -1, {16, 15}: -1, {14, 16}: 0, {3, 3}: 0, {1, 1}: 0}},
		{"yolo_head N=2", facts(t, map[string]int64{"N": 1, "H": 1, "W": 1}, yoloHead...),
			Options{X: Axis{"H", 1, 64}, Y: Axis{"W", 1, 64}, Dims: map[string]int64{"N": 2}}, map[string]int64{"N": 2}, 0,
			map[[2]int64]int{{15, 15}: 0, {3, 3}: 0}},
		{"swin_window", facts(t, map[string]int64{"B": 1, "H": 0, "W": 0}, swinWindow...),
			Options{X: Axis{"H", 1, 40}, Y: Axis{"W", 1, 40}}, map[string]int64{"B": 1}, 136,
			map[[2]int64]int{{3, 8}: 0, {8, 3}: 1, {16, 16}: -1, {16, 20}: 2, {19, 19}: -1}},
		{"ppocr strip", facts(t, map[string]int64{"H": 1, "W": 1}, ppocrDet...),
			Options{X: Axis{"H", 1, 100}, Dims: map[string]int64{"W": 32}}, map[string]int64{"W": 32}, 4 + 4 + 4 + 4 - 2,
			map[[2]int64]int{{1, 0}: 2, {3, 0}: -1, {5, 0}: 0, {32, 0}: -1, {61, 0}: -1, {60, 0}: 0}},
		{"vit", facts(t, map[string]int64{"H": 1, "W": 1}, vitPosemb...),
			Options{X: Axis{"H", 200, 250}, Y: Axis{"W", 200, 250}}, map[string]int64{}, 256,
			map[[2]int64]int{{224, 224}: -1, {239, 239}: -1, {240, 224}: 2, {223, 250}: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Compute(c.f, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.binding {
				if m.Binding[k] != v {
					t.Errorf("binding %s = %d, want %d", k, m.Binding[k], v)
				}
			}
			if got := m.Runs(); got != c.runs {
				t.Errorf("runs at %d cells, want %d", got, c.runs)
			}
			for cell, want := range c.cells {
				if got, ok := m.At(cell[0], cell[1]); !ok || got != want {
					t.Errorf("At(%d, %d) = %d, %v; want %d", cell[0], cell[1], got, ok, want)
				}
			}
			// Every cell against the definition.
			b := map[string]int64{}
			for k, v := range m.Binding {
				b[k] = v
			}
			for y := m.Y.Lo; y <= m.Y.Hi; y++ {
				for x := m.X.Lo; x <= m.X.Hi; x++ {
					b[m.X.Symbol] = x
					if m.Y.Symbol != "" {
						b[m.Y.Symbol] = y
					}
					got, _ := m.At(x, y)
					if want := firstFailing(c.f, b); got != want {
						t.Fatalf("At(%d, %d) = %d, the conditions in order give %d", x, y, got, want)
					}
				}
			}
		})
	}
}

// TestSmallest checks the values the map gives the symbols left free: the least from the lower
// bound at which the conditions on them alone hold.
func TestSmallest(t *testing.T) {
	f := facts(t, map[string]int64{"N": 0, "B": 1, "H": 1, "W": 1}, "N >= 3", "B % 4 == 0 || B == 2", "N*B <= 100", "H >= W")
	m, err := Compute(f, Options{X: Axis{"H", 1, 8}, Y: Axis{"W", 1, 8}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Binding["N"] != 3 || m.Binding["B"] != 2 {
		t.Errorf("binding %v, want N=3, B=2", m.Binding)
	}
	if strings.Join(m.Chosen, ",") != "N,B" {
		t.Errorf("chosen %v, want N, B", m.Chosen)
	}
}

func TestComputeErrors(t *testing.T) {
	f := facts(t, map[string]int64{"H": 1, "W": 1}, "H >= 3")
	for _, c := range []struct {
		opt  Options
		want error
		msg  string
	}{
		{Options{X: Axis{"Q", 1, 8}}, errcode.ErrSyntax, `axis "Q": not a symbol of the model (its symbols: H, W)`},
		{Options{X: Axis{"H", 1, 8}, Y: Axis{"H", 1, 8}}, errcode.ErrSyntax, "both axes are H"},
		{Options{X: Axis{"H", 9, 8}}, errcode.ErrSyntax, "range 9..8 is empty"},
		{Options{X: Axis{"H", 1, 8}, Dims: map[string]int64{"H": 2}}, errcode.ErrSyntax, "H=2 binds the symbol of an axis"},
		{Options{X: Axis{"H", 1, 8}, Dims: map[string]int64{"Z": 2}}, errcode.ErrBinding, "Z=2 binds no symbol"},
		// Of several bindings in error, the least name's, on every run.
		{Options{X: Axis{"H", 1, 8}, Dims: map[string]int64{"Z": 2, "Q": 1, "P": 4, "W": 3, "H": 5}}, errcode.ErrSyntax, "H=5 binds the symbol of an axis"},
		{Options{X: Axis{"H", 1, 8}, Dims: map[string]int64{"Z": 2, "Q": 1, "P": 4, "W": 3}}, errcode.ErrBinding, "P=4 binds no symbol"},
		{Options{X: Axis{"H", 1, 5000}, Y: Axis{"W", 1, 5000}}, errcode.ErrLimit, "25000000 cells, more than the limit of 16777216"},
	} {
		for range 20 {
			_, err := Compute(f, c.opt)
			if !errors.Is(err, c.want) || err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("Compute(%+v): %v, want %v containing %q", c.opt, err, c.want, c.msg)
			}
		}
	}
}

// svgRect is a rectangle of the picture as a script reads it.
type svgRect struct {
	X    int64  `xml:"data-x,attr"`
	Y    int64  `xml:"data-y,attr"`
	X1   int64  `xml:"data-x1,attr"`
	Y1   int64  `xml:"data-y1,attr"`
	Runs string `xml:"data-runs,attr"`
	Node string `xml:"data-node,attr"`
	Cond *int   `xml:"data-cond,attr"`
}

// readCells reads the picture's cells from its rectangles' data, and fails on a cell given twice.
func readCells(t *testing.T, svg string) map[[2]int64]svgRect {
	t.Helper()
	var doc struct {
		Groups []struct {
			Class string    `xml:"class,attr"`
			Rects []svgRect `xml:"rect"`
		} `xml:"g"`
	}
	if err := xml.Unmarshal([]byte(svg), &doc); err != nil {
		t.Fatal(err)
	}
	cells := map[[2]int64]svgRect{}
	for _, g := range doc.Groups {
		if g.Class != "cells" {
			continue
		}
		for _, r := range g.Rects {
			for y := r.Y; y <= r.Y1; y++ {
				for x := r.X; x <= r.X1; x++ {
					if _, dup := cells[[2]int64{x, y}]; dup {
						t.Fatalf("cell (%d, %d) in two rectangles", x, y)
					}
					cells[[2]int64{x, y}] = r
				}
			}
		}
	}
	return cells
}

// TestSVG reads every cell back from the picture's data, one cell per rectangle and merged, and
// compares it with the map; an incomplete model's cells where the conditions hold are "maybe".
func TestSVG(t *testing.T) {
	for _, c := range []struct {
		name     string
		f        *Facts
		opt      Options
		complete Completeness
		rects    int // the rectangles, at most
	}{
		{"small, per cell", facts(t, map[string]int64{"H": 1, "W": 1}, ppocrDet...), Options{X: Axis{"H", 1, 40}, Y: Axis{"W", 1, 40}}, Unstated, 1600},
		{"merged", facts(t, map[string]int64{"H": 1, "W": 1}, ppocrDet...), Options{X: Axis{"H", 1, 256}, Y: Axis{"W", 1, 256}}, Unstated, 2000},
		{"strip", facts(t, map[string]int64{"H": 1, "W": 1}, ppocrDet...), Options{X: Axis{"H", 1, 5000}}, Unstated, 700},
		{"incomplete", facts(t, map[string]int64{"B": 1, "H": 0, "W": 0}, swinWindow...), Options{X: Axis{"H", 1, 96}, Y: Axis{"W", 1, 96}}, Incomplete, 9216},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.f.Complete = c.complete
			c.f.Lost = []Loss{{"Foo_1", "Foo", "no shape rule"}}
			m, err := Compute(c.f, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := m.WriteSVG(&b, "model.onnx"); err != nil {
				t.Fatal(err)
			}
			if n := len(m.Rects()); n > c.rects {
				t.Errorf("%d rectangles, want at most %d", n, c.rects)
			}
			cells := readCells(t, b.String())
			if len(cells) != m.X.Len()*m.Y.Len() {
				t.Fatalf("%d cells in the picture, want %d", len(cells), m.X.Len()*m.Y.Len())
			}
			for cell, r := range cells {
				fail, _ := m.At(cell[0], cell[1])
				runs, node := "false", ""
				switch {
				case fail >= 0:
					node = c.f.Conditions[fail].Node
				case c.complete == Incomplete:
					runs = "maybe"
				default:
					runs = "true"
				}
				if r.Runs != runs || r.Node != node || r.Cond == nil || *r.Cond != fail {
					t.Fatalf("cell (%d, %d): data-runs %q, data-node %q, data-cond %v; want %q, %q, %d", cell[0], cell[1], r.Runs, r.Node, r.Cond, runs, node, fail)
				}
			}
			if c.complete == Incomplete && !strings.Contains(b.String(), "may be incomplete: precision is lost at Foo_1 (Foo)") {
				t.Error("the legend does not say where precision was lost")
			}
		})
	}
}

func TestTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi int64
		want   string
	}{
		{1, 1, "[1]"},
		{1, 8, "[1 2 3 4 5 6 7 8]"},
		{1, 64, "[1 10 20 30 40 50 64]"},
		{1, 512, "[1 100 200 300 400 512]"},
		{200, 250, "[200 210 220 230 240 250]"},
	} {
		if got := strings.Join(strings.Fields(strings.Trim(strconv.Quote(fmtInts(ticks(c.lo, c.hi))), `"`)), " "); got != c.want {
			t.Errorf("ticks(%d, %d) = %s, want %s", c.lo, c.hi, got, c.want)
		}
	}
}

func fmtInts(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatInt(x, 10)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// BenchmarkCompute512 computes a 512x512 map of yolo_head's seven conditions (one on H, W and
// N; two per axis) and of PP-OCR det's, from the stated conditions: the goal is well under
// a second.
func BenchmarkCompute512(b *testing.B) {
	for _, c := range []struct {
		name  string
		conds []string
	}{
		{"yolo_head", yoloHead},
		{"ppocr_det", ppocrDet},
		{"vit_posemb", vitPosemb},
	} {
		f := facts(b, map[string]int64{"N": 1, "H": 1, "W": 1}, c.conds...)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Compute(f, Options{X: Axis{"H", 1, 512}, Y: Axis{"W", 1, 512}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSVG512 draws a 512x512 map of PP-OCR det's conditions, merged into blocks.
func BenchmarkSVG512(b *testing.B) {
	m, err := Compute(facts(b, map[string]int64{"H": 1, "W": 1}, ppocrDet...), Options{X: Axis{"H", 1, 512}, Y: Axis{"W", 1, 512}})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		var s strings.Builder
		if err := m.WriteSVG(&s, "ppocr_det.onnx"); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(s.Len()), "bytes")
	}
}
