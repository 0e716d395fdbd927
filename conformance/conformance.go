package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// Case is one conformance case. Input is a partial shape in the notation of package shape; Pattern
// is comma-separated values (reshape.ParsePattern), "" for the empty pattern, or nil when only the
// pattern's shape, PatternShape, is known ("[]" marks a scalar pattern). Exactly one of Output (a
// partial shape) and Error (an error code, as reshape.Code returns it) is the expected answer.
// Fields the format does not define are ignored when reading. In JSON, the shapes and the pattern
// are strings of the notation, or arrays as infer --json prints them (UnmarshalJSON).
type Case struct {
	Name         string  `json:"name"`
	Source       string  `json:"source,omitempty"`
	Dialect      string  `json:"dialect,omitempty"`
	Input        string  `json:"input"`
	Pattern      *string `json:"pattern"`
	SpecialZero  *bool   `json:"special_zero,omitempty"`
	AllowZero    *int64  `json:"allowzero,omitempty"`
	PatternShape *string `json:"pattern_shape,omitempty"`
	ElementType  string  `json:"element_type,omitempty"`
	PatternType  string  `json:"pattern_type,omitempty"`
	Output       string  `json:"output,omitempty"`
	Error        string  `json:"error,omitempty"`
}

// UnmarshalJSON implements json.Unmarshaler: the fields input, pattern, pattern_shape and output
// are strings of the notation ("[2,?,1..8]", "0,-1,4") or arrays of dims as the command's --json
// output writes them ([2,"?","1..8"], [0,-1,4]); a null input is a dynamic rank, a null pattern
// one whose values are unknown. An error names the field and what it holds, in JSON's terms.
func (c *Case) UnmarshalJSON(b []byte) error {
	type plain Case
	aux := struct {
		*plain
		Input        json.RawMessage `json:"input"`
		Pattern      json.RawMessage `json:"pattern"`
		PatternShape json.RawMessage `json:"pattern_shape"`
		Output       json.RawMessage `json:"output"`
	}{plain: (*plain)(c)}
	if err := json.Unmarshal(b, &aux); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			te.Field = strings.TrimPrefix(te.Field, "plain.")
		}
		return err
	}
	var err error
	var in *string
	if in, err = notation("input", aux.Input, "[", "]"); err != nil {
		return err
	}
	c.Input = "[...]" // null: a dynamic rank
	if in != nil {
		c.Input = *in
	}
	if c.Pattern, err = notation("pattern", aux.Pattern, "", ""); err != nil {
		return err
	}
	if c.PatternShape, err = notation("pattern_shape", aux.PatternShape, "[", "]"); err != nil {
		return err
	}
	out, err := notation("output", aux.Output, "[", "]")
	if out != nil {
		c.Output = *out
	}
	return err
}

// notation returns the text of a field that holds a string of the notation, an array of dims
// (numbers, or strings of the notation: written between open and end, comma-separated), or null
// (nil).
func notation(field string, raw json.RawMessage, open, end string) (*string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return &s, nil
	}
	var dims []any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&dims); err != nil {
		return nil, syntaxf("%s: want a string of the notation or an array of dims, got %s", field, jsonKind(raw))
	}
	parts := make([]string, len(dims))
	for i, d := range dims {
		switch v := d.(type) {
		case json.Number:
			parts[i] = v.String()
		case string:
			parts[i] = v
		default:
			return nil, syntaxf("%s[%d]: want a number or a string of the notation, got %s", field, i, jsonKind(mustMarshal(d)))
		}
	}
	text := open + strings.Join(parts, ",") + end
	return &text, nil
}

// jsonKind names the kind of a JSON value: an object, an array, a string, a number, true, false or
// null.
func jsonKind(raw []byte) string {
	t := bytes.TrimSpace(raw)
	switch {
	case len(t) == 0:
		return "nothing"
	case t[0] == '{':
		return "an object"
	case t[0] == '[':
		return "an array"
	case t[0] == '"':
		return "a string"
	case t[0] == 't', t[0] == 'f', t[0] == 'n':
		return string(t)
	}
	return "a number"
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// Result is the answer to a case: Output in the shape notation, or Error (the code) and Message.
type Result struct {
	Name    string `json:"name"`
	Output  string `json:"output,omitempty"`
	Error   string `json:"error,omitempty"`
	Message string `json:"message,omitempty"`
}

// Inputs returns the inference inputs the case describes. The error wraps errcode.ErrSyntax for a
// case that cannot be read: an unknown dialect or element type, unparsable notation, special_zero
// and allowzero as reshape.SpecialZero refuses them, or a pattern without values and without
// pattern_shape.
func (c *Case) Inputs() (in shape.Shape, p reshape.Pattern, opt reshape.Options, err error) {
	if c.Dialect != "" {
		if opt.Dialect, err = reshape.ParseDialect(c.Dialect); err != nil {
			return in, p, opt, err
		}
	}
	sz, err := reshape.SpecialZero(opt.Dialect, c.SpecialZero, c.AllowZero)
	if err != nil {
		return in, p, opt, err
	}
	opt = opt.WithSpecialZero(sz)
	if opt.DataType, err = parseType(c.ElementType, "element_type"); err != nil {
		return in, p, opt, err
	}
	if opt.PatternType, err = parseType(c.PatternType, "pattern_type"); err != nil {
		return in, p, opt, err
	}
	if in, err = shape.Parse(c.Input); err != nil {
		return in, p, opt, fmt.Errorf("input: %w", err)
	}
	var ps shape.Shape
	if c.PatternShape != nil {
		if ps, err = shape.Parse(*c.PatternShape); err != nil {
			return in, p, opt, fmt.Errorf("pattern_shape: %w", err)
		}
	}
	if c.Pattern == nil {
		if c.PatternShape == nil {
			return in, p, opt, syntaxf("pattern is null and pattern_shape is missing")
		}
		return in, reshape.UnknownPattern(ps), opt, nil
	}
	if p, err = reshape.ParsePattern(*c.Pattern); err != nil {
		return in, p, opt, err
	}
	if c.PatternShape != nil {
		values, _ := p.Values()
		p, err = reshape.NewPattern(ps, values)
	}
	return in, p, opt, err
}

func parseType(name, field string) (element.Type, error) {
	if name == "" {
		return element.Undefined, nil
	}
	t, err := element.Parse(name)
	if err != nil {
		return t, fmt.Errorf("%s: %w", field, err)
	}
	return t, nil
}

// Run answers the case with reshape.InferPartial.
func (c *Case) Run() Result { return c.RunWith(0) }

// RunWith is Run with the rank bound maxRank (reshape.Options.MaxRank; 0 is the default bound).
func (c *Case) RunWith(maxRank int) Result {
	in, p, opt, err := c.Inputs()
	opt.MaxRank = maxRank
	if err == nil {
		var out shape.Shape
		if out, err = reshape.InferPartial(in, p, opt); err == nil {
			return Result{Name: c.Name, Output: out.String()}
		}
	}
	return Result{Name: c.Name, Error: errcode.Code(err), Message: err.Error()}
}

// Want returns the expected answer of the case, as a Result.
func (c *Case) Want() Result {
	return Result{Name: c.Name, Output: c.Output, Error: c.Error}
}

// MaxLine is the longest line Read reads, in bytes: 1 MiB.
const MaxLine = 1 << 20

// Read reads cases from JSON Lines. It calls fn once per line, in order, with the line number (from
// 1) and the decoded case, or with an error: one wrapping errcode.ErrSyntax for a line that is not a
// JSON object of the case format (a blank line included: JSON Lines has none), and one wrapping
// errcode.ErrLimit for a line longer than MaxLine bytes, which is skipped unread. Every line thus
// gets one call, and reading goes on after a bad line. Read stops at the first error fn returns or
// at a read error.
func Read(r io.Reader, fn func(line int, c *Case, err error) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for n := 1; ; n++ {
		text, long, eof, err := readLine(br, buf[:0])
		buf = text
		if err != nil {
			return err
		}
		if eof && len(text) == 0 && !long {
			return nil
		}
		c, cerr := decodeLine(n, text, long)
		if err := fn(n, c, cerr); err != nil {
			return err
		}
		if eof {
			return nil
		}
	}
}

// readLine reads one line into buf, without its line ending. long reports a line over MaxLine,
// whose text is dropped as it is read; eof reports that the input ended with this line.
func readLine(br *bufio.Reader, buf []byte) (text []byte, long, eof bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !long {
			if len(buf)+len(chunk) > MaxLine+2 { // room for "\r\n"
				long, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			return bytes.TrimRight(buf, "\r\n"), long, true, nil
		case err != nil:
			return nil, false, false, err
		}
		text = bytes.TrimRight(buf, "\r\n")
		if len(text) > MaxLine {
			long, text = true, text[:0]
		}
		return text, long, false, nil
	}
}

// decodeLine decodes line n of the input: the case, or the error for Read's fn.
func decodeLine(n int, line []byte, long bool) (*Case, error) {
	text := strings.TrimSpace(string(line))
	switch {
	case long:
		return &Case{}, errcode.Errorf(errcode.ErrLimit, "line %d: longer than %d bytes: not read", n, MaxLine)
	case text == "":
		return &Case{}, errcode.Errorf(errcode.ErrSyntax, "line %d: a blank line, not a case", n)
	}
	var c Case
	dec := json.NewDecoder(strings.NewReader(text))
	err := dec.Decode(&c)
	if err == nil && dec.More() {
		err = errors.New("data after the JSON object")
	}
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te) && te.Field == "":
		err = fmt.Errorf("want a JSON object, got %s", jsonKindName(te.Value))
	case errors.As(err, &te):
		err = fmt.Errorf("%s: want %s, got %s", te.Field, jsonTypeName(te.Type.Kind()), jsonKindName(te.Value))
	}
	if err != nil {
		return nameOnly(text), errcode.Errorf(errcode.ErrSyntax, "line %d: not a case: %v", n, err)
	}
	return &c, nil
}

// jsonKindName names a JSON value as encoding/json's UnmarshalTypeError.Value does ("array",
// "number 3", "string"), with an article.
func jsonKindName(v string) string {
	switch {
	case strings.HasPrefix(v, "number"), v == "":
		return "a number"
	case v == "array", v == "object":
		return "an " + v
	case v == "bool":
		return "true or false"
	}
	return "a " + v
}

// jsonTypeName names what a field of a Go kind holds in JSON.
func jsonTypeName(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// nameOnly recovers the name of a case that does not decode, so the answer can still carry it.
func nameOnly(text string) *Case {
	var n struct {
		Name string `json:"name"`
	}
	if json.Unmarshal([]byte(text), &n) != nil {
		return &Case{}
	}
	return &Case{Name: n.Name}
}

func syntaxf(format string, args ...any) error {
	return errcode.Errorf(errcode.ErrSyntax, format, args...)
}
