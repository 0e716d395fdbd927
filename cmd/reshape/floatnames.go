package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// floatNames gives each size computed in floating point that the output of check or shapes writes
// (an atom int(F) of sym's notation: torchvision's detection transform resizes an image to
// int(floor(f32(H)*min(f32(1)/f32(min(H,W))*f32(320),f32(1)/f32(max(H,W))*f32(640)))), 88
// characters) a short name, s1, s2, ..., in the order the output first writes them, so that its
// dims and conditions read [3,32*((s1+31)//32),32*((s2+31)//32)]: text says "s1 = int(...)" once,
// before the first line that uses it (flush), and JSON gives the summary's "definitions", each in
// the model's symbols (definitions). A name is no symbol of the models written: a model whose
// symbol a name is, written after the name was given, has that atom written whole. The zero
// value is not usable; a nil *floatNames renames nothing.
type floatNames struct {
	byText map[string]int // an atom's text, in the models' symbols, to its index in defs
	defs   []floatDef
	said   int             // defs[:said] are printed
	next   int             // the number of the next name
	taken  map[string]bool // the symbols of the models written so far
	scope  map[string]bool // those of the model being written
}

// floatDef is a name and the atom it stands for: text in the models' symbols, short in the names
// of the atoms it holds.
type floatDef struct{ name, text, short string }

func newFloatNames() *floatNames {
	return &floatNames{byText: map[string]int{}, next: 1, taken: map[string]bool{}, scope: map[string]bool{}}
}

// model notes the symbols of the model whose output follows: no name is one of them, and an atom
// named by one already is written whole in its output.
func (n *floatNames) model(symbols []string) {
	if n == nil {
		return
	}
	clear(n.scope)
	for _, s := range symbols {
		n.taken[s], n.scope[s] = true, true
	}
}

// rename returns s, text in the notation of sym (a shape, a condition, a message), with each atom
// int(...) replaced by its name, naming those met first. A symbol's quoted name ("batch size") is
// copied as it is.
func (n *floatNames) rename(s string) string {
	if n == nil || !strings.Contains(s, "int(") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case s[i] == '"':
			j := quotedEnd(s, i)
			b.WriteString(s[i:j])
			i = j
			continue
		case strings.HasPrefix(s[i:], "int(") && (i == 0 || !isNameByte(s[i-1])):
			if j := closing(s, i+3); j > 0 {
				b.WriteString(n.nameOf(s[i : j+1]))
				i = j + 1
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// nameOf returns the name of the atom int(...) whose text is atom, naming the atoms it holds
// first; the atom with those named, when its name is a symbol of the model being written.
func (n *floatNames) nameOf(atom string) string {
	k, ok := n.byText[atom]
	if !ok {
		short := "int(" + n.rename(atom[len("int("):len(atom)-1]) + ")"
		name := ""
		for name == "" || n.taken[name] {
			name = "s" + strconv.Itoa(n.next)
			n.next++
		}
		k = len(n.defs)
		n.byText[atom] = k
		n.defs = append(n.defs, floatDef{name: name, text: atom, short: short})
	}
	if d := n.defs[k]; n.scope[d.name] {
		return d.short
	}
	return n.defs[k].name
}

// flush writes a line "NAME = ATOM" for each name given since the last flush, in the order they
// were given (an atom in the names of those it holds).
func (n *floatNames) flush(w io.Writer) {
	if n == nil {
		return
	}
	for _, d := range n.defs[n.said:] {
		fmt.Fprintf(w, "%s = %s\n", d.name, d.short)
	}
	n.said = len(n.defs)
}

// definitions returns the names given, each with its atom in the models' symbols; nil for none.
func (n *floatNames) definitions() map[string]string {
	if n == nil || len(n.defs) == 0 {
		return nil
	}
	out := make(map[string]string, len(n.defs))
	for _, d := range n.defs {
		out[d.name] = d.text
	}
	return out
}

// renameJSON returns the JSON text b with each string renamed (rename); b when none changes.
func (n *floatNames) renameJSON(b []byte) []byte {
	if n == nil || !bytes.Contains(b, []byte("int(")) {
		return b
	}
	var out []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if b[j] == '\\' {
				j++
			}
			j++
		}
		tok := b[i : j+1]
		var s string
		if bytes.Contains(tok, []byte("int(")) && json.Unmarshal(tok, &s) == nil {
			if r := n.rename(s); r != s {
				q, _ := jsonLine(r)
				out = append(append(out, b[last:i]...), bytes.TrimSuffix(q, []byte("\n"))...)
				last = j + 1
			}
		}
		i = j
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// quotedEnd returns the index after the quoted name that starts at s[i], a '"': at its closing
// quote, past \" and \\, or the end of s.
func quotedEnd(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(s)
}

// closing returns the index of the parenthesis that closes the one at s[open], past quoted names;
// -1 when none does.
func closing(s string, open int) int {
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '"':
			j = quotedEnd(s, j) - 1
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}
