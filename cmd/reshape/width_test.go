package main

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reshape-go/reshape/check"
)

// TestFitTable: a table that shortening names does not fit loses its columns of one value to a
// line above it, its long symbols get aliases, and its shapes wrap, whole, to the width.
func TestFitTable(t *testing.T) {
	rows := [][]string{
		{"FILE", "NAME", "INPUT", "VERDICT"},
		{"m.onnx", "p2o.Reshape.64", "[p2o.DynamicDimension.0,120,1,(p2o.DynamicDimension.1+3)//8]", "inferred"},
		{"m.onnx", "r", "[p2o.DynamicDimension.0,(p2o.DynamicDimension.1+3)//8,360]", "mismatch"},
	}
	table, keep, above := fitTable(rows, []bool{true, true, false, false}, []bool{false, false, true, false},
		[]string{"p2o.DynamicDimension.0", "batch_size", "p2o.DynamicDimension.1", "N"}, 40) // batch_size in no cell: not in the legend
	want := [][]string{
		{"NAME", "INPUT", "VERDICT"},
		{"p2o.Reshape.64", "[P,120,1,", "inferred"},
		{"", "(P1+3)//8]", ""},
		{"r", "[P,(P1+3)//8,", "mismatch"},
		{"", "360]", ""},
	}
	if got, w := strings.Join(above, "\n"), "every row: FILE m.onnx\nsymbols: P = p2o.DynamicDimension.0, P1 = p2o.DynamicDimension.1"; got != w {
		t.Errorf("above the table:\n%s\nwant\n%s", got, w)
	}
	if len(keep) != 3 || keep[0] != 1 || keep[2] != 3 {
		t.Errorf("columns kept %v, want [1 2 3]", keep)
	}
	if len(table) != len(want) {
		t.Fatalf("table %q, want %q", table, want)
	}
	for i := range want {
		if strings.Join(table[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("line %d: %q, want %q", i, table[i], want[i])
		}
	}
	if w := tableWidth(table); w > 40 {
		t.Errorf("table %d columns wide, want at most 40", w)
	}
	// A column of one value leaves first: the names stay whole, and a table that then fits gets no
	// aliases.
	files := [][]string{
		{"FILE", "NAME", "INPUT"},
		{"/models/silero_vad_v6.onnx", "If_0/then_branch/Reshape", "[batch,4]"},
		{"/models/silero_vad_v6.onnx", "If_0/else_branch/Reshape", "[batch,4]"},
	}
	table, keep, above = fitTable(files, []bool{true, true, false}, []bool{false, false, true}, []string{"batch"}, 50)
	if strings.Join(above, "\n") != "every row: FILE /models/silero_vad_v6.onnx, INPUT [batch,4]" || len(keep) != 1 ||
		len(table) != 3 || table[1][0] != "If_0/then_branch/Reshape" || table[2][0] != "If_0/else_branch/Reshape" {
		t.Errorf("a column of one value: %q above %q", table, above)
	}
	// A table that fits is left as it is.
	small := [][]string{{"A", "B"}, {"x", "[N]"}}
	if table, keep, above := fitTable(small, []bool{true, false}, []bool{false, true}, []string{"N"}, 40); len(table) != 2 || len(keep) != 2 || above != nil {
		t.Errorf("a table that fits: %q %v %q", table, keep, above)
	}
}

// TestBuiltinTableWidth: the built-in check's table fits 80 columns, as it fits 100, its ZERO
// column's key in its header (it wrapped its DECLARED column at 80).
func TestBuiltinTableWidth(t *testing.T) {
	rep, err := check.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{80, 100} {
		var b strings.Builder
		printRows(&b, rep.Rows, rep.Symbols, false, width, nil)
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("at %d columns: line %q is %d columns", width, l, n)
			}
		}
		if want := map[int]string{
			80:  "ID  NAME              INPUT       PATTERN     SPECIAL_ZERO  INFERRED   DECLARED",
			100: "ID  NAME              INPUT       PATTERN     ZERO                INFERRED   DECLARED",
		}[width]; len(lines) < 7 || lines[1] != want || len(lines) != 2+len(rep.Rows) {
			t.Errorf("at %d columns:\n%s\nwant the header %q and a line a row", width, b.String(), want)
		}
	}
	// Cells of several keys, or with a space in the key, keep them.
	rows := [][]string{{"ZERO", "X"}, {"allowzero=0", "a b=1"}, {"special_zero=true", "-"}, {"-", "a b=2"}}
	keysToHeader(rows, func(int) bool { return true })
	if rows[0][0] != "ZERO" || rows[1][0] != "allowzero=0" || rows[0][1] != "X" {
		t.Errorf("keys of several kinds: %q", rows)
	}
}

// TestFitTableNarrow: at 80 columns a table of four columns of shapes (raft_large's) wraps them
// below minWrapped and shortens its names below minShortened, rather than being 96 wide.
func TestFitTableNarrow(t *testing.T) {
	shape := "[N,256,((H+7)//8)*((W+7)//8)]"
	rows := [][]string{
		{"ID", "NAME", "INPUT", "PATTERN", "ALLOWZERO", "INFERRED", "DECLARED", "VERDICT"},
		{"138", "/encoder/layer1/block0/Reshape", shape, shape + " (computed)", "0", shape, shape, "inferred"},
		{"156", "/m/Sqrt", "[]", "-", "-", "-", "-", "data-type"},
	}
	names := []bool{false, true, false, false, false, false, false, false}
	shapes := []bool{false, false, true, true, false, true, true, false}
	table, _, _ := fitTable(rows, names, shapes, []string{"N", "H", "W"}, 80)
	if w := tableWidth(table); w > 80 {
		t.Errorf("table %d columns wide, want at most 80:\n%q", w, table)
	}
	input := ""
	for _, line := range table[1:] {
		if line[2] != "" && !strings.HasPrefix(line[0], "156") {
			input += line[2]
		}
	}
	if input != shape || table[1][1] != "/encod…eshape" {
		t.Errorf("INPUT wrapped to %q, NAME %q; want %q whole, the name below minShortened", input, table[1][1], shape)
	}
}

func TestRenameSymbols(t *testing.T) {
	alias := map[string]string{"batch": "B", "p2o.D.1": "P"}
	for in, want := range map[string]string{
		"[batch,3,(p2o.D.1+3)//8]": "[B,3,(P+3)//8]",
		"[batch2,batch*batch]":     "[batch2,B*B]",
		"12":                       "12",
	} {
		if got := renameSymbols(in, alias); got != want {
			t.Errorf("renameSymbols(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWrapWriter: lines longer than the width break at spaces, the rest indented; colour escapes
// take no column; a word longer than a line breaks where it must.
func TestWrapWriter(t *testing.T) {
	var b strings.Builder
	w := &wrapWriter{w: &b, width: 20}
	w.Write([]byte("short\n\x1b[1mbold\x1b[0m words that go on and on\nabcdefghijklmnopqrstuvwxyz0123"))
	w.Flush()
	want := "short\n\x1b[1mbold\x1b[0m words that go\n    on and on\nabcdefghijklmnopqrst\n    uvwxyz0123\n"
	if b.String() != want {
		t.Errorf("wrapped:\n%q\nwant\n%q", b.String(), want)
	}
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if n := utf8.RuneCountInString(strings.NewReplacer("\x1b[1m", "", "\x1b[0m", "").Replace(l)); n > 20 {
			t.Errorf("line %q is %d columns", l, n)
		}
	}
}

// TestWrapCell: a shape wraps between dims, before " (computed)", else between two tokens of an
// expression, never inside a name, a number or "//".
func TestWrapCell(t *testing.T) {
	for _, tt := range []struct {
		s     string
		width int
		want  []string
	}{
		{"[B,(H+24)//28,7,(W+24)//28,7,96]", 20, []string{"[B,(H+24)//28,7,", "(W+24)//28,7,96]"}},
		{"[1,..2147483647] (computed)", 24, []string{"[1,..2147483647]", "(computed)"}},
		{"[N,(H+7)//8,(W+7)//8,-1] (computed)", 12, []string{"[N,(H+7)//8,", "(W+7)//8,-1]", "(computed)"}},
		{"-1] (computed)", 12, []string{"-1]", "(computed)"}},
		{"[B*((H+24)//28)*((W+24)//28),49,96]", 24, []string{"[B*((H+24)//28)*((W+24)", "//28),49,96]"}},
		{"[-min(T,12)+min(T,13)-min(T,4)]", 12, []string{"[-min(T,12)", "+min(T,13)", "-min(T,4)]"}},
		{"[N,abcdefghijklmnopqrstuvwxyz]", 12, []string{"[N,", "abcdefghijkl", "mnopqrstuvwx", "yz]"}},
	} {
		got := wrapCell(tt.s, tt.width)
		if !slices.Equal(got, tt.want) {
			t.Errorf("wrapCell(%q, %d) = %q, want %q", tt.s, tt.width, got, tt.want)
		}
		for _, l := range got {
			if n := utf8.RuneCountInString(l); n > tt.width {
				t.Errorf("wrapCell(%q, %d): line %q of %d characters", tt.s, tt.width, l, n)
			}
		}
	}
}

// TestFileNames: a table of several files on a terminal says the directory they share once, and a
// file's name shortened keeps its tail.
func TestFileNames(t *testing.T) {
	for _, tt := range []struct {
		files []string
		want  string
	}{
		{[]string{"/d/a/x.onnx", "/d/a/y/z.onnx", "/d/a/x.onnx"}, "/d/a/"},
		{[]string{"/d/a/x.onnx", "/d/b/x.onnx"}, "/d/"},
		{[]string{"/d/a/x.onnx", "/d/a/x.onnx"}, ""}, // one file
		{[]string{"a.onnx", "b.onnx"}, ""},
		{[]string{"/d/a.onnx", "e/b.onnx"}, ""},
	} {
		var rows [][]string
		for _, f := range tt.files {
			rows = append(rows, []string{f, "1"})
		}
		if got := commonDir(rows); got != tt.want {
			t.Errorf("commonDir(%q) = %q, want %q", tt.files, got, tt.want)
		}
	}
	if got := shortenMiddle("_history/354dbb64e1ea/tests/op/f32/conv_2d.json", 16); got != "…32/conv_2d.json" {
		t.Errorf("a file shortened: %q", got)
	}
	if got := shortenMiddle("If_3/then_branch/Reshape_1", 16); got != "If_3/the…shape_1" {
		t.Errorf("a node shortened: %q", got)
	}
}
