package main

import (
	"bytes"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/reshape-go/reshape/graph"
)

// terminalWidth returns the width in columns of the terminal w is, 0 when it is not one.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return width
}

// minShortened is the narrowest a shortened column becomes, in characters; minShortenedNarrow the
// narrowest when the table does not fit otherwise, its shapes wrapped to minWrappedNarrow.
const (
	minShortened       = 16
	minShortenedNarrow = 12
)

// fitColumns shortens, in the middle, the cells of the columns that may be (shrink[k]) so that
// the table of rows (cells in columns two spaces apart) fits in width columns: the widest such
// column first, none below least characters. A width of 0 leaves the cells as they are.
// Shortened cells keep their head and tail around "…" ("If_3/then…/Reshape_1"), so that both the
// start of a path and the node at its end stay visible.
func fitColumns(rows [][]string, shrink []bool, width, least int) {
	if width <= 0 || len(rows) == 0 {
		return
	}
	widths := make([]int, len(shrink))
	for _, row := range rows {
		for k, c := range row {
			widths[k] = max(widths[k], utf8.RuneCountInString(c))
		}
	}
	total := 2 * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	for total > width {
		widest := -1
		for k, w := range widths {
			if shrink[k] && w > least && (widest < 0 || w > widths[widest]) {
				widest = k
			}
		}
		if widest < 0 {
			break
		}
		cut := min(total-width, widths[widest]-least)
		widths[widest] -= cut
		total -= cut
	}
	for _, row := range rows {
		for k, c := range row {
			if shrink[k] {
				row[k] = shortenMiddle(c, widths[k])
			}
		}
	}
}

// shortenMiddle returns s in at most n characters: s itself when it fits, otherwise its head and
// tail around "…"; of a model file's path, its tail only ("…/f32/conv_2d.json").
func shortenMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 2 {
		return s
	}
	head := n / 2
	if graph.ModelFile(s) {
		head = 0 // a file's name is at its tail, and the directories of a table's files start alike
	}
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// tableWidth returns the width in columns of the table of rows, cells two spaces apart.
func tableWidth(rows [][]string) int {
	var widths []int
	for _, row := range rows {
		for k, c := range row {
			if k == len(widths) {
				widths = append(widths, 0)
			}
			widths[k] = max(widths[k], utf8.RuneCountInString(c))
		}
	}
	total := 2 * max(len(widths)-1, 0)
	for _, w := range widths {
		total += w
	}
	return total
}

// fitTable returns the table of rows (its first the header) kept to width columns (as it is when
// width is 0), and the lines to print above it. A table that does not fit first loses its columns
// whose cells are all the same to a line above it ("every row: FILE a.onnx, ZERO allowzero=0"),
// so that names are not shortened to say one file again and again (a table of one row first
// shortens its names), and a column of key=value cells gives its key to its header
// (keysToHeader); then the columns of names (names[k]) are shortened in the middle. When
// that is not enough, the symbols longer than two characters that the columns of shapes
// (shapes[k]) name get one-letter aliases there, with a legend ("symbols: B = batch, H =
// height"), and the cells of shapes wrap onto more lines, between tokens (wrapCell), so that every
// value stays whole. keep gives the index in rows of each column of the table returned.
func fitTable(rows [][]string, names, shapes []bool, symbols []string, width int) (table [][]string, keep []int, above []string) {
	keep = make([]int, len(rows[0]))
	for k := range keep {
		keep[k] = k
	}
	if width <= 0 || len(rows) < 2 {
		return rows, keep, nil
	}
	if tableWidth(rows) <= width {
		return rows, keep, nil
	}
	if len(rows) == 2 {
		// One row: its columns all have one value; shorten its names first.
		whole := slices.Clone(rows[1])
		fitColumns(rows, names, width, minShortened)
		if tableWidth(rows) <= width {
			return rows, keep, nil
		}
		rows[1] = whole
	}
	var same []string
	keep = keep[:0]
	for k := range rows[0] {
		if !slices.ContainsFunc(rows[2:], func(r []string) bool { return r[k] != rows[1][k] }) {
			same = append(same, rows[0][k]+" "+rows[1][k])
			continue
		}
		keep = append(keep, k)
	}
	if len(same) > 0 {
		above = append(above, "every row: "+strings.Join(same, ", "))
	}
	left := make([][]string, len(rows))
	for i, row := range rows {
		for _, k := range keep {
			left[i] = append(left[i], row[k])
		}
	}
	kept := func(in []bool) []bool {
		out := make([]bool, len(keep))
		for i, k := range keep {
			out[i] = in[k]
		}
		return out
	}
	rows, names, shapes = left, kept(names), kept(shapes)
	if tableWidth(rows) > width {
		keysToHeader(rows, func(k int) bool { return !names[k] && !shapes[k] })
	}
	fitColumns(rows, names, width, minShortened)
	if tableWidth(rows) <= width {
		return rows, keep, above
	}
	if alias := aliases(usedSymbols(rows[1:], shapes, symbols)); len(alias) > 0 {
		var parts []string
		for _, name := range symbols {
			if a, ok := alias[name]; ok {
				parts = append(parts, a+" = "+name)
			}
		}
		above = append(above, "symbols: "+strings.Join(parts, ", "))
		for _, row := range rows[1:] {
			for k := range row {
				if shapes[k] {
					row[k] = renameSymbols(row[k], alias)
				}
			}
		}
	}
	// Names shortened further where wrapping every column of shapes to minWrappedNarrow would
	// not be enough.
	slack := 0 // what wrapping can take from the columns of shapes
	for i := range keep {
		w := 0
		for _, row := range rows {
			w = max(w, utf8.RuneCountInString(row[i]))
		}
		if shapes[i] {
			slack += max(w-minWrappedNarrow, 0)
		}
	}
	fitColumns(rows, names, width+slack, minShortenedNarrow)
	// The widths: the widest column of shapes narrowed by one until the table fits, none below
	// minWrapped.
	widths := make([]int, len(keep))
	total := 2 * (len(keep) - 1)
	for i := range keep {
		for _, row := range rows {
			widths[i] = max(widths[i], utf8.RuneCountInString(row[i]))
		}
		total += widths[i]
	}
	// Then, at a narrow terminal, down to minWrappedNarrow, so that the table still fits.
	for _, least := range []int{minWrapped, minWrappedNarrow} {
		for ; total > width; total-- {
			widest := -1
			for i := range keep {
				if shapes[i] && widths[i] > least && (widest < 0 || widths[i] > widths[widest]) {
					widest = i
				}
			}
			if widest < 0 {
				break
			}
			widths[widest]--
		}
	}
	for _, row := range rows {
		cells := make([][]string, len(keep))
		lines := 1
		for i := range keep {
			cells[i] = []string{row[i]}
			if shapes[i] {
				cells[i] = wrapCell(row[i], widths[i])
			}
			lines = max(lines, len(cells[i]))
		}
		for l := range lines {
			line := make([]string, len(keep))
			for i := range keep {
				if l < len(cells[i]) {
					line[i] = cells[i][l]
				}
			}
			table = append(table, line)
		}
	}
	return table, keep, above
}

// keysToHeader moves the key of a column (of those that may) whose cells all say one key=value
// ("special_zero=true", or "-" for none) into its header, in upper case ("SPECIAL_ZERO"), leaving
// the values in the cells: the table narrows by the key's width, and nothing is lost.
func keysToHeader(rows [][]string, may func(k int) bool) {
	for k := range rows[0] {
		if !may(k) {
			continue
		}
		key := ""
		for _, row := range rows[1:] {
			c := row[k]
			if c == "-" {
				continue
			}
			name, _, ok := strings.Cut(c, "=")
			if !ok || name == "" || strings.ContainsRune(name, ' ') || key != "" && name != key {
				key = ""
				break
			}
			key = name
		}
		if key == "" {
			continue
		}
		rows[0][k] = strings.ToUpper(key)
		for _, row := range rows[1:] {
			row[k] = strings.TrimPrefix(row[k], key+"=")
		}
	}
}

// minWrapped is the narrowest a wrapped column becomes, in characters, while the other columns of
// shapes are wider; minWrappedNarrow the narrowest when they are all minWrapped and the table is
// still too wide (80 columns: a table of four columns of shapes).
const (
	minWrapped       = 12
	minWrappedNarrow = 8
)

// wrapCell returns s cut into lines of at most width characters, so that no value is cut where
// it can be kept whole (lastBreak): between dims, before " (computed)", else between two tokens
// of an expression, never inside a name, a number or "//"; only a token longer than a line is cut
// at the width.
func wrapCell(s string, width int) []string {
	var out []string
	r := []rune(s)
	for len(r) > width {
		cut := width
		if c := lastBreak(r, width); c > 0 {
			cut = c
		}
		out = append(out, strings.TrimRight(string(r[:cut]), " "))
		r = []rune(strings.TrimLeft(string(r[cut:]), " "))
	}
	return append(out, string(r))
}

// lastBreak returns where a line of at most width runes of r ends best: in the line's second half,
// at a space, else after a comma between dims (outside parentheses: not min(T,4)'s); else at a
// space; else before an operator in the second half; else after a comma; else between two other
// tokens; 0 when there is no such place.
func lastBreak(r []rune, width int) int {
	depth := make([]int, min(width+1, len(r))) // the parentheses open before each rune
	for i := 1; i < len(depth); i++ {
		depth[i] = depth[i-1]
		switch r[i-1] {
		case '(':
			depth[i]++
		case ')':
			depth[i]--
		}
	}
	comma := func(i int) bool { return r[i-1] == ',' && depth[i-1] == 0 }
	space := func(i int) bool { return r[i] == ' ' }
	half := max(width/2, 1)
	for _, rule := range []struct {
		good func(i int) bool
		from int // the shortest line it leaves
	}{
		{space, half},
		{comma, half},
		{space, 1}, // " (computed)" moves whole
		{func(i int) bool { return strings.ContainsRune("+-*/", r[i]) && r[i-1] != '/' }, half},
		{comma, 1},
		{func(i int) bool {
			a, b := r[i-1], r[i]
			return !(isNameRune(a) && isNameRune(b)) && !(a == '/' && b == '/')
		}, 1},
	} {
		for i := width; i >= rule.from; i-- {
			if i < len(depth) && rule.good(i) {
				return i
			}
		}
	}
	return 0
}

func isNameRune(c rune) bool { return c >= utf8.RuneSelf || isNameByte(byte(c)) }

// aliases returns a short name for each of symbols longer than two characters: its first letter
// in upper case, followed by the least number from 1 up that makes it differ from every symbol
// and every alias before it.
func aliases(symbols []string) map[string]string {
	taken := map[string]bool{}
	for _, s := range symbols {
		taken[s] = true
	}
	out := map[string]string{}
	for _, s := range symbols {
		if utf8.RuneCountInString(s) <= 2 {
			continue
		}
		first := strings.IndexFunc(s, unicode.IsLetter)
		if first < 0 {
			continue
		}
		r, _ := utf8.DecodeRuneInString(s[first:])
		base := string(unicode.ToUpper(r))
		a := base
		for n := 1; taken[a]; n++ {
			a = base + strconv.Itoa(n)
		}
		taken[a], out[s] = true, a
	}
	return out
}

// usedSymbols returns the symbols, in their order, that the cells of the columns of shapes
// (shapes[k]) of rows name: the legend of aliases lists only those.
func usedSymbols(rows [][]string, shapes []bool, symbols []string) []string {
	names := map[string]bool{}
	for _, row := range rows {
		for k, c := range row {
			for i := 0; shapes[k] && i < len(c); {
				j := i
				for j < len(c) && isNameByte(c[j]) {
					j++
				}
				if j == i {
					i++
					continue
				}
				names[c[i:j]] = true
				i = j
			}
		}
	}
	return slices.DeleteFunc(slices.Clone(symbols), func(s string) bool { return !names[s] })
}

// renameSymbols returns the dims written in s ("[p2o.D.0,(p2o.D.1+3)//8]") with each symbol that
// alias names replaced by its alias. A symbol is a run of letters, digits, '_', '.' and ':' that
// is the whole of a name (the notation of sym: a number is such a run too, and no symbol's name).
func renameSymbols(s string, alias map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		if j == i {
			b.WriteByte(s[i])
			i++
			continue
		}
		if a, ok := alias[s[i:j]]; ok {
			b.WriteString(a)
		} else {
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String()
}

func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c == ':' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= utf8.RuneSelf
}

// textOut returns where a command writes its text: stdout, whose lines, on a terminal, wrap to its
// width (wrapWriter). flush writes what is left of the last line.
func (e *env) textOut() (w io.Writer, flush func() error) {
	if e.width <= 0 {
		return e.stdout, func() error { return nil }
	}
	ww := &wrapWriter{w: e.stdout, width: e.width}
	return ww, ww.Flush
}

// wrapWriter writes the lines written to it to w, each longer than width columns broken at spaces
// (a word longer than a line where it must be), the lines it continues on indented by four spaces.
// Colour escapes take no column. Flush writes a last line that has no newline.
type wrapWriter struct {
	w     io.Writer
	width int
	buf   []byte
}

func (ww *wrapWriter) Write(p []byte) (int, error) {
	ww.buf = append(ww.buf, p...)
	for {
		i := bytes.IndexByte(ww.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		if err := ww.line(ww.buf[:i]); err != nil {
			return 0, err
		}
		ww.buf = ww.buf[i+1:]
	}
}

// Flush writes what is left of the last line.
func (ww *wrapWriter) Flush() error {
	if len(ww.buf) == 0 {
		return nil
	}
	err := ww.line(ww.buf)
	ww.buf = ww.buf[:0]
	return err
}

const wrapIndent = "    "

// line writes one line, broken to the width.
func (ww *wrapWriter) line(l []byte) error {
	var out []byte
	indent := ""
	for {
		cut, next := breakAt(l, ww.width-len(indent))
		out = append(append(append(out, indent...), bytes.TrimRight(l[:cut], " ")...), '\n')
		if next >= len(l) {
			break
		}
		l, indent = bytes.TrimLeft(l[next:], " "), wrapIndent
		if len(l) == 0 {
			break
		}
	}
	_, err := ww.w.Write(out)
	return err
}

// breakAt returns where the line l ends when it must fit in width columns, and where what follows
// starts: all of l when it fits; else at the last space that leaves a word on the line, else after
// width characters.
func breakAt(l []byte, width int) (cut, next int) {
	col, space := 0, -1
	for i := 0; i < len(l); {
		if l[i] == 0x1b { // a colour escape: ESC [ ... m
			j := bytes.IndexByte(l[i:], 'm')
			if j < 0 {
				return len(l), len(l)
			}
			i += j + 1
			continue
		}
		if l[i] == ' ' && i > 0 && l[i-1] != ' ' {
			space = i
		}
		if col == max(width, 1) {
			if space > 0 {
				return space, space
			}
			return i, i
		}
		_, n := utf8.DecodeRune(l[i:])
		i += n
		col++
	}
	return len(l), len(l)
}
