package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/errcode"
)

// limits are the bounds a command works within, settable by flags: past one, a limit error rather
// than an out-of-memory kill.
type limits struct {
	maxRank     int
	maxBytes    byteSize // memory the command may allocate for data
	maxFileSize byteSize // size of a file read into memory; bytes read of a mapped ONNX model
}

// byteSize is a flag.Value of a size in bytes: "8GiB", "512 MB", "1000000".
type byteSize int64

func (b *byteSize) String() string { return humanize.IBytes(uint64(*b)) }

func (b *byteSize) Set(s string) error {
	n, err := humanize.ParseBytes(s)
	if err != nil || n > 1<<62 {
		return fmt.Errorf("want a size such as 512MiB or 8GiB, got %q", s)
	}
	*b = byteSize(n)
	return nil
}

// limitsHelp describes the limit flags for a usage text whose flag descriptions start at column
// col: a flag too long for it has its description on the next line.
func limitsHelp(col int) string {
	return flagsHelp(col, [][2]string{
		{"--max-rank N", "the largest rank accepted (default 64, numpy's bound)"},
		{"--max-bytes SIZE", "the memory the command may allocate for data (default: the lesser of 75% of " +
			"the available memory and 8GiB)"},
		{"--max-file-size SIZE", "the largest file read into memory, and of an ONNX model, which is mapped, " +
			"the most bytes read: its structure and the constants shapes need (default: --max-bytes)"},
	})
}

// helpWidth is the width, in columns, of every usage text.
const helpWidth = 80

// flagsHelp returns the lines of a usage text's flags: of each entry {flag, description}, the flag
// and its description broken at spaces (breakAt, as wrapWriter breaks a terminal's lines) to
// helpWidth columns, its lines at column col (the first on the line after the flag when the flag
// leaves it less than two spaces).
func flagsHelp(col int, entries [][2]string) string {
	var b strings.Builder
	pad := strings.Repeat(" ", col)
	for _, e := range entries {
		head := "  " + e[0]
		if len(head)+2 > col {
			b.WriteString(head + "\n")
			head = ""
		}
		b.WriteString(head + pad[len(head):])
		desc := []byte(e[1])
		for {
			cut, next := breakAt(desc, helpWidth-col)
			b.Write(desc[:cut])
			b.WriteString("\n")
			if desc = bytes.TrimLeft(desc[next:], " "); len(desc) == 0 {
				break
			}
			b.WriteString(pad)
		}
	}
	return b.String()
}

// addLimitFlags registers the limit flags on fs.
func addLimitFlags(fs *flag.FlagSet) *limits {
	l := &limits{maxRank: reshape.DefaultMaxRank, maxBytes: byteSize(defaultMaxBytes())}
	fs.IntVar(&l.maxRank, "max-rank", l.maxRank, "")
	fs.Var(&l.maxBytes, "max-bytes", "")
	fs.Var(&l.maxFileSize, "max-file-size", "")
	return l
}

// fileLimit returns the bound on files read into memory.
func (l *limits) fileLimit() int64 {
	if l.maxFileSize > 0 {
		return int64(l.maxFileSize)
	}
	return int64(l.maxBytes)
}

// checkFile returns a limit error when the file at path is larger than the bound on files read into
// memory; it leaves other problems (a missing file) to the reader.
func (l *limits) checkFile(path string) error {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	if st.Size() > l.fileLimit() {
		return errcode.Errorf(errcode.ErrLimit, "%s: the file is %s, more than the %s a file read into memory may be (--max-file-size)",
			path, humanize.IBytes(uint64(st.Size())), humanize.IBytes(uint64(l.fileLimit())))
	}
	return nil
}

// checkBytes returns a limit error when need bytes exceed the memory the command may allocate.
func (l *limits) checkBytes(need int64, what string) error {
	if need > int64(l.maxBytes) {
		return errcode.Errorf(errcode.ErrLimit, "%s needs %s, more than the %s the command may allocate (--max-bytes)",
			what, humanize.IBytes(uint64(need)), humanize.IBytes(uint64(l.maxBytes)))
	}
	return nil
}

// defaultMaxBytes is the lesser of 75% of the available memory (MemAvailable of /proc/meminfo,
// where there is one) and 8 GiB.
func defaultMaxBytes() int64 {
	const ceiling = 8 << 30
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return ceiling
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		if err != nil || kb <= 0 {
			break
		}
		return min(ceiling, kb*1024/4*3)
	}
	return ceiling
}
