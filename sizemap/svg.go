package sizemap

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strings"
)

// Green is the colour of the cells where the model runs; Palette the colours of the conditions, in
// order (the i-th condition of Facts.Conditions takes Palette[i % len(Palette)]): no green among
// them, so that where the model runs reads without the legend.
const Green = "#2ca02c"

// Palette holds the colours of the conditions that fail (Tableau's ten, less its green).
var Palette = [...]string{"#d62728", "#ff7f0e", "#9467bd", "#1f77b4", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

// MergeAbove is the number of cells above which WriteSVG draws a rectangle per block of cells of
// one verdict rather than one per cell.
const MergeAbove = 32 * 32

// Rect is a block of cells of one verdict: values X0..X1 across and Y0..Y1 down, inclusive, and
// the index of the condition that fails first there (-1 where the model runs).
type Rect struct {
	X0, X1, Y0, Y1 int64
	Fail           int
}

// Rects returns the map as rectangles of cells of one verdict: one per cell when the map has at
// most MergeAbove cells; otherwise each row's runs of equal cells, merged with the same run of the
// rows after it. Rows go up with Y, cells across with X.
func (m *Map) Rects() []Rect {
	nx, ny := m.X.Len(), m.Y.Len()
	var out []Rect
	if nx*ny <= MergeAbove {
		for j := range ny {
			for k := range nx {
				x, y := m.X.Lo+int64(k), m.Y.Lo+int64(j)
				out = append(out, Rect{x, x, y, y, int(m.fails[j*nx+k])})
			}
		}
		return out
	}
	open := map[[3]int64]int{} // a run (x0, x1, fail) of the row before: its rectangle in out
	for j := range ny {
		row := m.fails[j*nx : (j+1)*nx]
		next := make(map[[3]int64]int, len(open))
		y := m.Y.Lo + int64(j)
		for k := 0; k < nx; {
			e := k + 1
			for e < nx && row[e] == row[k] {
				e++
			}
			key := [3]int64{int64(k), int64(e - 1), int64(row[k])}
			if i, ok := open[key]; ok {
				out[i].Y1 = y
				next[key] = i
			} else {
				next[key] = len(out)
				out = append(out, Rect{m.X.Lo + int64(k), m.X.Lo + int64(e-1), y, y, int(row[k])})
			}
			k = e
		}
		open = next
	}
	return out
}

// Layout of the picture, in pixels.
const (
	plotMax   = 512 // the longer side of a grid's plot at most, when cells are more than a pixel
	stripMax  = 768
	cellMax   = 24
	marginL   = 64
	marginT   = 64
	legendRow = 20
	stripH    = 32
)

// WriteSVG draws the map as an SVG picture titled title (the model's name): the cells green where
// the model runs, elsewhere in the colour of the first condition that fails; hatched green, a cell
// that is no claim, where every condition holds but they may be incomplete. The axes give the
// symbols' values; a legend lists the conditions with their nodes, operators and the cells each
// is the first to fail at, and says where precision was lost.
//
// Every rectangle carries its cells as data a script reads: data-x and data-y (the values of the
// first cell), data-x1 and data-y1 (of the last, inclusive: equal for one cell; data-y is 0 for a
// strip), data-runs ("true", "false", or "maybe" where every condition holds but they may be
// incomplete), data-node (the node of the condition that fails first, "" where none does) and
// data-cond (its index in the legend, -1 where none). Up to MergeAbove cells, a rectangle is one
// cell; above, a block of cells of one verdict. The root svg element carries data-x-symbol,
// data-y-symbol ("" for a strip) and data-binding (the other symbols' values, "N=1,C=3").
func (m *Map) WriteSVG(w io.Writer, title string) error {
	bw := bufio.NewWriter(w)
	nx, ny := m.X.Len(), m.Y.Len()
	strip := m.Y.Symbol == ""
	cs := cellSize(nx, ny, strip)
	pw, ph := nx*cs, ny*cs
	if strip {
		ph = stripH
	}
	counts := m.Counts()
	legend := m.legendLines(counts)
	// Text is about 6.6 pixels a character at 12 pixels, 8.6 bold at 15: the picture is as wide as
	// its longest line.
	width := max(marginL+pw+24, 640, 16+len(m.headline(title))*86/10, 16+len(m.subtitle())*66/10)
	for _, l := range legend {
		width = max(width, 36+len(l.text)*66/10)
	}
	height := marginT + ph + 48 + legendRow*len(legend) + 8
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12" class="sizemap" data-x-symbol="%s" data-y-symbol="%s" data-binding="%s">`+"\n",
		width, height, width, height, esc(m.X.Symbol), esc(m.Y.Symbol), esc(strings.ReplaceAll(m.bindingText(), ", ", ",")))
	fmt.Fprintf(bw, "<style>.r{fill:%s}.m{fill:url(#maybe)}", Green)
	for i := range m.Facts.Conditions {
		fmt.Fprintf(bw, ".c%d{fill:%s}", i, Palette[i%len(Palette)])
	}
	bw.WriteString("</style>\n")
	fmt.Fprintf(bw, `<defs><pattern id="maybe" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#b7e4b7"/><line x1="0" y1="0" x2="0" y2="6" stroke="%s" stroke-width="3"/></pattern></defs>`+"\n", Green)
	fmt.Fprintf(bw, `<text x="8" y="20" font-size="15" font-weight="bold">%s</text>`+"\n", esc(m.headline(title)))
	fmt.Fprintf(bw, `<text x="8" y="40">%s</text>`+"\n", esc(m.subtitle()))
	fmt.Fprintf(bw, `<g class="cells" transform="translate(%d,%d)">`+"\n", marginL, marginT)
	maybe := m.Facts.Complete == Incomplete
	for _, r := range m.Rects() {
		x := int(r.X0-m.X.Lo) * cs
		w := int(r.X1-r.X0+1) * cs
		y, h := 0, ph
		if !strip {
			y = (ny - 1 - int(r.Y1-m.Y.Lo)) * cs // Y goes up
			h = int(r.Y1-r.Y0+1) * cs
		}
		class, runs, node := "r", "true", ""
		switch {
		case r.Fail >= 0:
			class, runs, node = fmt.Sprintf("c%d", r.Fail), "false", m.Facts.Conditions[r.Fail].Node
		case maybe:
			class, runs = "m", "maybe"
		}
		fmt.Fprintf(bw, `<rect x="%d" y="%d" width="%d" height="%d" class="%s" data-x="%d" data-y="%d" data-x1="%d" data-y1="%d" data-runs="%s" data-node="%s" data-cond="%d"/>`+"\n",
			x, y, w, h, class, r.X0, r.Y0, r.X1, r.Y1, runs, esc(node), r.Fail)
	}
	bw.WriteString("</g>\n")
	m.writeAxes(bw, cs, pw, ph, strip)
	y := marginT + ph + 48
	for _, l := range legend {
		fmt.Fprintf(bw, `<g class="legend" data-cond="%d"><rect x="8" y="%d" width="14" height="14" class="%s"/><text x="28" y="%d">%s</text></g>`+"\n",
			l.cond, y-11, l.class, y, esc(l.text))
		y += legendRow
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

// cellSize returns the side of a cell in pixels: the plot's longer side within plotMax (stripMax
// for a strip), a cell at least a pixel and at most cellMax.
func cellSize(nx, ny int, strip bool) int {
	n, most := max(nx, ny), plotMax
	if strip {
		n, most = nx, stripMax
	}
	return min(max(most/n, 1), cellMax)
}

// headline is the picture's first line: "MODEL runs at 1,024 of 65,536 sizes of H × W".
func (m *Map) headline(title string) string {
	axes := m.X.Symbol
	if m.Y.Symbol != "" {
		axes += " × " + m.Y.Symbol
	}
	runs, all := m.Runs(), len(m.fails)
	switch {
	case runs == 0:
		return fmt.Sprintf("%s runs at none of the %d sizes of %s shown", title, all, axes)
	case runs == all && m.Facts.Complete == Incomplete:
		return fmt.Sprintf("%s: every stated condition holds at all %d sizes of %s shown", title, all, axes)
	case runs == all:
		return fmt.Sprintf("%s runs at all %d sizes of %s shown", title, all, axes)
	}
	return fmt.Sprintf("%s runs at %d of %d sizes of %s shown", title, runs, all, axes)
}

// subtitle says the ranges and the other symbols' values: "H 1..256 across, W 1..256 up; N=1
// (smallest valid)".
func (m *Map) subtitle() string {
	s := fmt.Sprintf("%s %d..%d across", m.X.Symbol, m.X.Lo, m.X.Hi)
	if m.Y.Symbol != "" {
		s += fmt.Sprintf(", %s %d..%d up", m.Y.Symbol, m.Y.Lo, m.Y.Hi)
	}
	if b := m.bindingText(); b != "" {
		s += "; at " + b
		if len(m.Chosen) > 0 {
			s += " (" + strings.Join(m.Chosen, ", ") + ": smallest valid)"
		}
	}
	return s
}

// writeAxes draws the axes' ticks and labels: about eight ticks per axis, at round values.
func (m *Map) writeAxes(bw *bufio.Writer, cs, pw, ph int, strip bool) {
	fmt.Fprintf(bw, `<g class="axes" stroke="#333"><rect x="%d" y="%d" width="%d" height="%d" fill="none"/></g>`+"\n", marginL, marginT, pw, ph)
	for _, v := range ticks(m.X.Lo, m.X.Hi) {
		x := marginL + int(v-m.X.Lo)*cs + cs/2
		fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/><text x="%d" y="%d" text-anchor="middle">%d</text>`+"\n",
			x, marginT+ph, x, marginT+ph+4, x, marginT+ph+16, v)
	}
	fmt.Fprintf(bw, `<text x="%d" y="%d" text-anchor="middle" font-weight="bold">%s →</text>`+"\n", marginL+pw/2, marginT+ph+32, esc(m.X.Symbol))
	if strip {
		return
	}
	ny := m.Y.Len()
	for _, v := range ticks(m.Y.Lo, m.Y.Hi) {
		y := marginT + (ny-1-int(v-m.Y.Lo))*cs + cs/2
		fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/><text x="%d" y="%d" text-anchor="end">%d</text>`+"\n",
			marginL-4, y, marginL, y, marginL-6, y+4, v)
	}
	fmt.Fprintf(bw, `<text x="14" y="%d" text-anchor="middle" font-weight="bold" transform="rotate(-90 14 %d)">%s →</text>`+"\n",
		marginT+ph/2, marginT+ph/2, esc(m.Y.Symbol))
}

// ticks returns round values from lo to hi, about eight: multiples of 1, 2 or 5 times a power of
// ten, with lo and hi themselves.
func ticks(lo, hi int64) []int64 {
	step := int64(1)
	for p := int64(1); (hi-lo)/step > 8; p *= 10 {
		for _, k := range []int64{1, 2, 5} {
			if step = k * p; (hi-lo)/step <= 8 {
				break
			}
		}
	}
	out := []int64{lo}
	for v := (lo/step + 1) * step; v < hi; v += step {
		if v-out[len(out)-1] >= step/2 && hi-v >= step/2 {
			out = append(out, v)
		}
	}
	if hi != lo {
		out = append(out, hi)
	}
	return out
}

// legendLine is a line of the legend: its swatch's class, its text, and the condition it stands
// for (-1 for the cells where the model runs).
type legendLine struct {
	class, text string
	cond        int
}

func (m *Map) legendLines(counts []int) []legendLine {
	runs := m.Runs()
	lines := []legendLine{{"r", fmt.Sprintf("runs: every condition holds (%d cells)", runs), -1}}
	if m.Facts.Complete == Incomplete {
		lines[0] = legendLine{"m", fmt.Sprintf("every stated condition holds, but they may be incomplete: no claim (%d cells)", runs), -1}
	}
	for i, c := range m.Facts.Conditions {
		text := fmt.Sprintf("%s   %s (%s)", c.Holds, c.Node, c.Op)
		if c.Why != "" {
			text += ": " + c.Why
		}
		if counts[i] == 0 {
			text += " (fails first nowhere here)"
		} else {
			text += fmt.Sprintf(" (fails first at %d cells)", counts[i])
		}
		lines = append(lines, legendLine{fmt.Sprintf("c%d", i), text, i})
	}
	if m.Facts.Complete == Incomplete {
		for _, l := range m.Facts.Lost {
			lines = append(lines, legendLine{"m", fmt.Sprintf("may be incomplete: precision is lost at %s (%s): %s", l.Node, l.Op, l.Why), -1})
		}
	}
	return lines
}

func esc(s string) string { return html.EscapeString(s) }
