package main

import (
	"io"
	"os"
	"unicode/utf8"

	"golang.org/x/term"
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

// minShortened is the narrowest a shortened column becomes, in characters.
const minShortened = 16

// fitColumns shortens, in the middle, the cells of the columns that may be (shrink[k]) so that
// the table of rows (cells in columns two spaces apart) fits in width columns: the widest such
// column first, none below minShortened characters. A width of 0 leaves the cells as they are.
// Shortened cells keep their head and tail around "…" ("If_3/then…/Reshape_1"), so that both the
// start of a path and the node at its end stay visible.
func fitColumns(rows [][]string, shrink []bool, width int) {
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
			if shrink[k] && w > minShortened && (widest < 0 || w > widths[widest]) {
				widest = k
			}
		}
		if widest < 0 {
			break
		}
		cut := min(total-width, widths[widest]-minShortened)
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
// tail around "…".
func shortenMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 2 {
		return s
	}
	head := n / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}
