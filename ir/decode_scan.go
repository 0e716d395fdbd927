package ir

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"io/fs"

	"github.com/tdewolff/parse/v2"
	txml "github.com/tdewolff/parse/v2/xml"

	"github.com/reshape-go/reshape/errcode"
)

// kind is the kind of a token of the scanner.
type kind uint8

const (
	startTag kind = iota + 1
	endTag
	charData
)

// rawAttr is an attribute of a start tag: its qualified name (prefix:local, as the file writes it)
// and its value, entities and character references decoded.
type rawAttr struct {
	name, value []byte
}

// scanner reads the start tags, end tags and character data of an IR file with the XML lexer of
// github.com/tdewolff/parse/v2, about twenty times as fast as encoding/xml's RawToken. That lexer
// checks next to nothing, so that a file is held to what encoding/xml's Token accepts token by
// token: a token of the plain markup IR writers use (ASCII names with at most one colon, quoted
// attribute values and character data of printable ASCII, tabs and newlines, without '&' or '>')
// is taken as it is; any other token (entities, character references, carriage returns,
// other characters, comments, CDATA, processing instructions, a DOCTYPE) is read by encoding/xml
// itself, from its first byte to its last as the lexer delimits it, which it must read as one
// whole token: its syntax errors, its decoding of entities and its line numbers are encoding/xml's.
type scanner struct {
	src []byte // the file as read
	in  *parse.Input
	lx  *txml.Lexer

	// The current token, its kind and the offset in src past its end; a start tag's qualified name
	// and attributes (reused from tag to tag), or an end tag's name, or character data. The
	// slices point into src, into the lexer's copy of it or into a token encoding/xml decoded.
	kind  kind
	end   int
	name  []byte
	attrs []rawAttr
	data  []byte
	// closeNext is set after a start tag closed by "/>": its end tag is the next token.
	closeNext bool

	// line is the line of the offset lineOff, counted as encoding/xml counts them: 1 + the
	// newlines before it.
	lineOff, line int
}

// newScanner reads all of r, once. The lexer writes spaces over the tabs, newlines and carriage
// returns of quoted attribute values, which src must keep (encoding/xml reads them, and the lines
// count the newlines): where it would write any (lexerWrites), it reads a copy of src.
func newScanner(r io.Reader) (*scanner, error) {
	var buf bytes.Buffer
	switch f := r.(type) {
	case interface{ Len() int }:
		buf.Grow(f.Len() + bytes.MinRead)
	case interface{ Stat() (fs.FileInfo, error) }:
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			buf.Grow(int(st.Size()) + bytes.MinRead)
		}
	}
	_, err := buf.ReadFrom(r)
	s := &scanner{src: buf.Bytes(), line: 1}
	if err != nil {
		return nil, errcode.Errorf(errcode.ErrSyntax, "line %d: %v", s.lineAt(len(s.src)), err)
	}
	lex := s.src
	if lexerWrites(s.src) {
		lex = make([]byte, len(s.src), len(s.src)+1) // room for the NUL the lexer appends
		copy(lex, s.src)
	}
	s.in = parse.NewInputBytes(lex) // a NUL past len(lex), within its capacity, ends the input
	s.lx = txml.NewLexer(s.in)
	return s, nil
}

// lexerWrites reports whether the XML lexer, reading src, would write over any of its bytes: it
// writes a space over each tab, newline and carriage return of a quoted attribute value. It follows
// the lexer's states (tdewolff/parse/v2/xml's Lexer.Next): in character data up to a '<'; an end
// tag to its '>', a comment to "-->", a CDATA section to "]]>"; any other '<' opens a start tag
// (or a processing instruction) whose name runs to a space or the tag's end, then attributes, a
// name and "=" and a value, quoted or not, until "> ", "/>" or "?>". A DOCTYPE, whose internal
// subset the lexer reads by rules of its own, and a NUL byte, where the lexer stops, are taken as
// writes: the copy is then made, never wrongly left out.
func lexerWrites(src []byte) bool {
	if bytes.IndexByte(src, 0) >= 0 {
		return true
	}
	n := len(src)
	at := func(i int) byte {
		if i < n {
			return src[i]
		}
		return 0
	}
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	ends := func(i int) bool { // the end of a tag, or a space or the end of src: where a name stops
		c := at(i)
		return space(c) || c == 0 || c == '>' || (c == '/' || c == '?') && at(i+1) == '>'
	}
	skip := func(i int, to string) int { // the offset past to, from i; n when it is not there
		if k := bytes.Index(src[min(i, n):], []byte(to)); k >= 0 {
			return i + k + len(to)
		}
		return n
	}
	i := 0
	for {
		k := bytes.IndexByte(src[i:], '<')
		if k < 0 {
			return false
		}
		i += k
		rest := src[i:]
		switch {
		case at(i+1) == '/':
			i = skip(i+2, ">")
			continue
		case bytes.HasPrefix(rest, []byte("<!--")):
			i = skip(i+4, "-->")
			continue
		case bytes.HasPrefix(rest, []byte("<![CDATA[")):
			i = skip(i+9, "]]>")
			continue
		case bytes.HasPrefix(rest, []byte("<!DOCTYPE")):
			return true
		case at(i+1) == '?':
			i += 2
		default:
			i++
		}
		for !ends(i) { // the tag's name
			i++
		}
		for { // its attributes
			for space(at(i)) {
				i++
			}
			if i >= n {
				return false
			}
			if at(i) == '>' {
				i++
				break
			}
			if ends(i) { // "/>" or "?>"
				i += 2
				break
			}
			for !ends(i) && at(i) != '=' {
				i++
			}
			name := i
			for space(at(i)) {
				i++
			}
			if at(i) != '=' {
				i = name
				continue
			}
			for i++; space(at(i)); i++ {
			}
			if q := at(i); q == '"' || q == '\'' {
				end := n
				if k := bytes.IndexByte(src[i+1:], q); k >= 0 {
					end = i + 1 + k
				}
				if bytes.ContainsAny(src[i+1:end], "\t\n\r") {
					return true
				}
				i = end + 1
				continue
			}
			for !ends(i) {
				i++
			}
		}
	}
}

// lineAt returns the line of the byte at offset off of src.
func (s *scanner) lineAt(off int) int {
	if off < s.lineOff {
		s.lineOff, s.line = 0, 1
	}
	s.line += bytes.Count(s.src[s.lineOff:off], []byte{'\n'})
	s.lineOff = off
	return s.line
}

// syntaxError is an error of the token that ends at end, on its line.
func (s *scanner) syntaxError(end int, msg string) error {
	return errcode.Errorf(errcode.ErrSyntax, "line %d: %s", s.lineAt(end), msg)
}

// next reads the next start tag, end tag or character data, skipping comments, processing
// instructions and a DOCTYPE. At the end of the file it returns io.EOF, with end at the end of src.
func (s *scanner) next() error {
	if s.closeNext {
		s.closeNext = false
		s.kind = endTag
		return nil
	}
	for {
		tt, tok := s.lx.Next()
		end := s.in.Offset()
		start := end - len(tok)
		switch tt {
		case txml.ErrorToken:
			return s.lexError(end)
		case txml.TextToken:
			s.kind, s.end = charData, end
			if s.data = s.src[start:end]; plainText(s.data) {
				return nil
			}
			return s.std(start, end)
		case txml.CDATAToken:
			s.kind, s.end = charData, end
			return s.std(start, end)
		case txml.CommentToken, txml.DOCTYPEToken:
			if err := s.std(start, end); err != nil {
				return err
			}
		case txml.StartTagPIToken:
			if err := s.pi(start); err != nil {
				return err
			}
		case txml.StartTagToken:
			return s.startTag(start)
		case txml.EndTagToken:
			s.kind, s.end = endTag, end
			if s.name = s.lx.Text(); tok[len(tok)-1] == '>' && plainName(s.name) {
				return nil
			}
			return s.std(start, end)
		}
	}
}

// lexError is the error of the lexer's ErrorToken at offset end: io.EOF at the end of the file
// (end is then the end of src), or the NUL byte it stops at, which encoding/xml refuses wherever it
// stands.
func (s *scanner) lexError(end int) error {
	s.end = end
	if s.lx.Err() == io.EOF {
		s.end = len(s.src)
		return io.EOF
	}
	return s.syntaxError(end, "illegal character code U+0000")
}

// pi reads the attributes and the end of the processing instruction that starts at offset start,
// and has encoding/xml read it whole (it checks the version and the encoding of <?xml?>).
func (s *scanner) pi(start int) error {
	for {
		switch tt, _ := s.lx.Next(); tt {
		case txml.ErrorToken:
			if s.lx.Err() == io.EOF { // encoding/xml names the unclosed PI
				return s.std(start, len(s.src))
			}
			return s.lexError(s.in.Offset())
		case txml.StartTagCloseToken, txml.StartTagCloseVoidToken, txml.StartTagClosePIToken:
			return s.std(start, s.in.Offset())
		}
	}
}

// startTag reads the attributes and the end of the start tag whose name the lexer just read.
func (s *scanner) startTag(start int) error {
	s.name = s.lx.Text()
	plain := plainName(s.name)
	s.attrs = s.attrs[:0]
	for {
		tt, _ := s.lx.Next()
		end := s.in.Offset()
		switch tt {
		case txml.ErrorToken:
			return s.lexError(end)
		case txml.AttributeToken:
			v := s.lx.AttrVal()
			value := s.src[end-len(v) : end] // the lexer's copy has spaces for tabs and newlines
			if plain = plain && v != nil && plainName(s.lx.Text()) && plainValue(value); plain {
				s.attrs = append(s.attrs, rawAttr{s.lx.Text(), value[1 : len(value)-1]})
			}
		case txml.StartTagCloseToken, txml.StartTagCloseVoidToken, txml.StartTagClosePIToken:
			s.kind, s.end, s.closeNext = startTag, end, tt == txml.StartTagCloseVoidToken
			if plain && tt != txml.StartTagClosePIToken {
				return nil
			}
			return s.std(start, end)
		}
	}
}

// std has encoding/xml's RawToken read src[start:end], one token as the lexer delimited it, and
// sets the current token from what it reads. RawToken must read it whole: else the lexer and
// encoding/xml disagree on where the token ends, and the file is refused.
func (s *scanner) std(start, end int) error {
	d := xml.NewDecoder(bytes.NewReader(s.src[start:end]))
	tok, err := d.RawToken()
	if err == nil && d.InputOffset() != int64(end-start) {
		err = errors.New("markup that encoding/xml does not read as one token")
	}
	var se *xml.SyntaxError
	switch {
	case errors.As(err, &se):
		return errcode.Errorf(errcode.ErrSyntax, "line %d: %s", s.lineAt(start)+se.Line-1, se.Msg)
	case err != nil:
		return s.syntaxError(start, err.Error())
	}
	switch t := tok.(type) {
	case xml.CharData:
		s.data = t
	case xml.EndElement:
		s.name = qualified(t.Name)
	case xml.StartElement:
		s.name = qualified(t.Name)
		s.attrs = s.attrs[:0]
		for _, a := range t.Attr {
			s.attrs = append(s.attrs, rawAttr{qualified(a.Name), []byte(a.Value)})
		}
	}
	return nil
}

// qualified writes a name as the file does: prefix:local.
func qualified(n xml.Name) []byte {
	if n.Space == "" {
		return []byte(n.Local)
	}
	return []byte(n.Space + ":" + n.Local)
}

// splitName splits a qualified name as encoding/xml does: a prefix and a local name on either side
// of its colon, both non-empty; else all of it is the local name.
func splitName(b []byte) (space, local []byte) {
	if i := bytes.IndexByte(b, ':'); i > 0 && i < len(b)-1 {
		return b[:i], b[i+1:]
	}
	return nil, b
}

// localName returns the local name of a qualified name.
func localName(b []byte) []byte {
	_, local := splitName(b)
	return local
}

// plainName reports whether b is an ASCII name encoding/xml accepts: a letter, '_' or ':', then
// letters, digits, '_', ':', '.' and '-', with at most one colon.
func plainName(b []byte) bool {
	if len(b) == 0 || !(isLetter(b[0]) || b[0] == '_' || b[0] == ':') {
		return false
	}
	colons := 0
	for _, c := range b {
		switch {
		case c == ':':
			colons++
		case !isLetter(c) && !('0' <= c && c <= '9') && c != '_' && c != '.' && c != '-':
			return false
		}
	}
	return colons <= 1
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// plainValue reports whether b is a quoted attribute value of printable ASCII without '<' or
// '&', which encoding/xml reads as it is.
func plainValue(b []byte) bool {
	if len(b) < 2 || (b[0] != '"' && b[0] != '\'') || b[len(b)-1] != b[0] {
		return false
	}
	for _, c := range b[1 : len(b)-1] {
		if c < ' ' || c > '~' || c == '<' || c == '&' {
			return false
		}
	}
	return true
}

// plainText reports whether b is character data of printable ASCII, tabs and newlines, without
// '&' or '>' (so without "]]>"), which encoding/xml reads as it is.
func plainText(b []byte) bool {
	for _, c := range b {
		if (c < ' ' || c > '~' || c == '&' || c == '>') && c != '\t' && c != '\n' {
			return false
		}
	}
	return true
}
