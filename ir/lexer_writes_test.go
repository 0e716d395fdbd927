package ir

import (
	"bytes"
	"testing"

	"github.com/tdewolff/parse/v2"
	txml "github.com/tdewolff/parse/v2/xml"
)

// lexed returns whether the lexer wrote over a copy of src, reading all of it.
func lexed(src []byte) bool {
	c := make([]byte, len(src), len(src)+1)
	copy(c, src)
	lx := txml.NewLexer(parse.NewInputBytes(c))
	for {
		if tt, _ := lx.Next(); tt == txml.ErrorToken {
			break
		}
	}
	return !bytes.Equal(c, src)
}

// TestLexerWrites checks lexerWrites against what the lexer writes: a tab, newline or carriage
// return in a quoted attribute value is written over, one anywhere else is not.
func TestLexerWrites(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"<net version=\"10\">\n<layers>\n\t<layer id=\"1\" name=\"a\"/>\n</layers>\n</net>\n", false},
		{"<net\n\tversion = '10'\r\n>\n</net>", false},
		{"<a b=\"x\ny\"/>", true},
		{"<a b='x\ty'/>", true},
		{"<a b = \n \"x\ry\">", true},
		{"<a b='x\"y' c=\"z\nw\">", true},
		{"<a=\"x\ny\">", false},                        // the tag's name runs to the newline
		{"<a b\"c d=\"x\ny\">", true},                  // b"c is a name
		{"<a b=x\ny>", false},                          // unquoted
		{"<?xml version=\"1.0\n\"?>", true},            // a processing instruction's attributes
		{"<!-- a=\"x\ny\" --><a/>", false},             // a comment
		{"<![CDATA[<a b=\"x\ny\">]]>", false},          // CDATA
		{"</a b=\"x\ny\">", false},                     // an end tag
		{"<a b=\"x>\" c=\"\n\">", true},                // '>' in a quoted value
		{"<a b=\"x\ny", true},                          // an unclosed value
		{"<!DOCTYPE d [<!ENTITY e \"f\">]><a/>", true}, // a DOCTYPE: copied
		{"<a/>\x00", true},                             // a NUL: copied
		{"text only\n", false},
	} {
		if got := lexerWrites([]byte(c.src)); got != c.want {
			t.Errorf("lexerWrites(%q) = %v, want %v", c.src, got, c.want)
		}
		if w := lexed([]byte(c.src)); w && !c.want {
			t.Errorf("%q: the lexer writes over it", c.src)
		}
	}
}

// FuzzLexerWrites checks that lexerWrites never leaves out a write of the lexer: where it reports
// none, the lexer leaves the bytes it reads as they are, so that Decode may read the file once.
func FuzzLexerWrites(f *testing.F) {
	for _, s := range []string{"<a b=\"x\ny\"/>", "<a b='x\"y' c=\"z\nw\">", "<?xml version=\"1.0\"?>\n<net a=\"1\">\n</net>",
		"<!-- a=\"x\ny\" --><a/>", "<![CDATA[<a b=\"x\ny\">]]>", "<a b\"c d=\"x\ny\">"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if !lexerWrites(src) && lexed(src) {
			t.Fatalf("lexerWrites(%q) = false, and the lexer writes over it", src)
		}
	})
}
