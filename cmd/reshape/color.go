package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// ANSI colours, all of one length, so that coloured cells of a column stay aligned.
const (
	red    = "\x1b[31m"
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	bold   = "\x1b[01m"
	reset  = "\x1b[0m"
)

// useColor reports whether w may show colour: it is a terminal, and NO_COLOR is not set to a
// non-empty value (no-color.org).
func useColor(w io.Writer, getenv func(string) string, terminal func(io.Writer) bool) bool {
	return getenv("NO_COLOR") == "" && getenv("TERM") != "dumb" && terminal(w)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// paint wraps s in colour when on is true.
func paint(on bool, color, s string) string {
	if !on {
		return s
	}
	return color + s + reset
}
