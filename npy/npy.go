// Package npy reads and writes NumPy .npy files (format versions 1.0, 2.0 and 3.0) as tensors: the
// dtypes |b1, i1..i8, u1..u8, f2, f4 and f8 in both byte orders, C and Fortran order, as their
// element types; every other dtype np.save writes without pickle (complex, bytes, unicode, void,
// datetimes, structured) as the bytes of its items.
//
// Read checks the header against the bytes that follow before it allocates anything; every error
// wraps errcode.ErrSyntax (or errcode.ErrDataType for a dtype the format allows but this package
// does not, errcode.ErrLimit for a header over the size bound) and says where the file is wrong.
package npy

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

const magic = "\x93NUMPY"

// MaxHeader is the largest header Read accepts, in bytes (numpy's own default bound is 10000).
const MaxHeader = 1 << 20

// Header is what a .npy file says of its array.
type Header struct {
	Major, Minor byte // the format version: 1.0, 2.0 or 3.0
	// Descr is the dtype as the header writes it: "<f4", "|S10", "<M8[s]", or the Python list of a
	// structured dtype ("[('a', '<i4'), ('b', '<f8', (2,))]").
	Descr string
	// Type is the element type of a dtype that has one (|b1, i1..i8, u1..u8, f2, f4, f8), Undefined
	// for the others, whose items are read as bytes.
	Type element.Type
	// ItemSize is the size of one item in bytes: 4 for "<f4", 10 for "|S10", 8 for "<U2" (UCS-4),
	// the sum of the fields of a structured dtype.
	ItemSize     int64
	BigEndian    bool // the data of an element type is big-endian ('>' in Descr)
	FortranOrder bool // the data is in column-major order
	Shape        []int64
	DataOffset   int64 // where the data starts, in bytes from the start of the file

	descr string // Descr as a Python literal: quoted, or the structured dtype's list
}

// Read reads a .npy file from r, whose total length is size bytes (-1 when unknown: the data is
// then read as it comes, never allocated ahead of it). The tensor is little-endian whatever the file's
// byte order; a Fortran-order file gives a strided view whose logical order is C order, as numpy's
// reshape sees it. A dtype without an element type (Header.Type Undefined) reads as the bytes of
// its items: a tensor of element type u8 and shape Shape + [ItemSize], its bytes as the file holds
// them.
func Read(r io.Reader, size int64) (tensor.Tensor, Header, error) {
	h, err := ReadHeader(r)
	if err != nil {
		return tensor.Tensor{}, h, err
	}
	t, err := ReadData(r, h, size)
	return t, h, err
}

// ReadData reads the data of a .npy file whose header ReadHeader read from r; size is the total
// length of the file as in Read.
func ReadData(r io.Reader, h Header, size int64) (tensor.Tensor, error) {
	want := h.DataSize()
	var data []byte
	if size >= 0 {
		if err := h.CheckFileSize(size); err != nil {
			return tensor.Tensor{}, err
		}
		data = make([]byte, want)
		if _, err := io.ReadFull(r, data); err != nil {
			return tensor.Tensor{}, errcode.Errorf(errcode.ErrSyntax, "offset %d: reading %d bytes of data: %v", h.DataOffset, want, err)
		}
	} else {
		var err error
		data, err = io.ReadAll(io.LimitReader(r, want+1))
		if err != nil {
			return tensor.Tensor{}, errcode.Errorf(errcode.ErrSyntax, "offset %d: reading data: %v", h.DataOffset, err)
		}
		if err := h.CheckFileSize(h.DataOffset + int64(len(data))); err != nil {
			return tensor.Tensor{}, err
		}
	}
	if h.BigEndian {
		h.Type.SwapBytes(data)
	}
	return view(h, data)
}

// DataSize returns the size of the array's data in bytes: Shape's volume times ItemSize.
// ReadHeader has checked that it fits in an int64.
func (h Header) DataSize() int64 {
	n, _ := shape.Volume(h.Shape)
	return n * h.ItemSize
}

// CheckFileSize returns an error wrapping errcode.ErrSyntax, naming the offset and both sizes, when
// a .npy file of size bytes does not hold exactly the data the header describes after DataOffset.
func (h Header) CheckFileSize(size int64) error {
	if want := h.DataSize(); size-h.DataOffset != want {
		return errcode.Errorf(errcode.ErrSyntax, "offset %d: shape %s of %s takes %d bytes of data, the file holds %d",
			h.DataOffset, shape.FormatInts(h.Shape), h.Descr, want, size-h.DataOffset)
	}
	return nil
}

// view returns the tensor a header describes over its data. A Fortran-order array of shape
// (a, b, c) lies in memory as the C-order array of shape (c, b, a): its transpose. The items of a
// dtype without an element type are an innermost axis of bytes, which stays innermost.
func view(h Header, data []byte) (tensor.Tensor, error) {
	typ, dims, item := h.Type, slices.Clone(h.Shape), []int64(nil)
	if typ == element.Undefined {
		typ, item = element.U8, []int64{h.ItemSize}
	}
	if !h.FortranOrder {
		return tensor.FromBytes(typ, append(dims, item...), data)
	}
	slices.Reverse(dims)
	t, err := tensor.FromBytes(typ, append(dims, item...), data)
	if err != nil {
		return t, err
	}
	perm := make([]int, len(dims), len(dims)+1)
	for i := range perm {
		perm[i] = len(dims) - 1 - i
	}
	if item != nil {
		perm = append(perm, len(dims))
	}
	return t.Transpose(perm...)
}

// ReadHeader reads the magic string, version and header of a .npy file from r and leaves r at the
// start of the data.
func ReadHeader(r io.Reader) (Header, error) {
	var h Header
	var pre [10]byte
	if n, err := io.ReadFull(r, pre[:8]); err != nil {
		if n == 0 {
			return h, errcode.Errorf(errcode.ErrSyntax, "offset 0: empty file, want the .npy magic string")
		}
		return h, errcode.Errorf(errcode.ErrSyntax, "offset 0: %d bytes, shorter than the .npy magic string and version", n)
	}
	if string(pre[:6]) != magic {
		return h, errcode.Errorf(errcode.ErrSyntax, "offset 0: not a .npy file: want the magic string \\x93NUMPY, found %q", pre[:6])
	}
	h.Major, h.Minor = pre[6], pre[7]
	var hlen int64
	switch {
	case h.Major == 1 && h.Minor == 0:
		if _, err := io.ReadFull(r, pre[8:10]); err != nil {
			return h, errcode.Errorf(errcode.ErrSyntax, "offset 8: truncated header length")
		}
		hlen, h.DataOffset = int64(binary.LittleEndian.Uint16(pre[8:10])), 10
	case (h.Major == 2 || h.Major == 3) && h.Minor == 0:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return h, errcode.Errorf(errcode.ErrSyntax, "offset 8: truncated header length")
		}
		hlen, h.DataOffset = int64(binary.LittleEndian.Uint32(b[:])), 12
	default:
		return h, errcode.Errorf(errcode.ErrSyntax, "offset 6: format version %d.%d: want 1.0, 2.0 or 3.0", h.Major, h.Minor)
	}
	if hlen > MaxHeader {
		return h, errcode.Errorf(errcode.ErrLimit, "offset %d: a header of %d bytes exceeds the limit of %d", h.DataOffset-4, hlen, MaxHeader)
	}
	text, err := io.ReadAll(io.LimitReader(r, hlen))
	if err != nil || int64(len(text)) != hlen {
		return h, errcode.Errorf(errcode.ErrSyntax, "offset %d: the header says %d bytes, the file holds %d", h.DataOffset, hlen, len(text))
	}
	start := h.DataOffset
	h.DataOffset += hlen
	if err := h.parse(string(text)); err != nil {
		return h, fmt.Errorf("offset %d: header %q: %w", start, strings.TrimSpace(string(text)), err)
	}
	return h, nil
}

// parse reads the header's Python dict literal.
func (h *Header) parse(text string) error {
	p := &literal{s: strings.TrimRight(text, " \t\r\n\x00")}
	fields, err := p.dict()
	if err != nil {
		return err
	}
	for _, key := range []string{"descr", "fortran_order", "shape"} {
		if _, ok := fields[key]; !ok {
			return errcode.Errorf(errcode.ErrSyntax, "no %q key", key)
		}
	}
	if len(fields) != 3 {
		return errcode.Errorf(errcode.ErrSyntax, "keys other than descr, fortran_order and shape")
	}
	var ok bool
	if h.FortranOrder, ok = fields["fortran_order"].(bool); !ok {
		return errcode.Errorf(errcode.ErrSyntax, "fortran_order is not True or False")
	}
	if h.Shape, ok = fields["shape"].([]int64); !ok {
		return errcode.Errorf(errcode.ErrSyntax, "shape is not a tuple of integers")
	}
	if err := h.setDescr(fields["descr"], p.descr); err != nil {
		return err
	}
	n, err := shape.Volume(h.Shape)
	if err != nil {
		return err
	}
	if hi, lo := bits.Mul64(uint64(n), uint64(h.ItemSize)); hi != 0 || lo > math.MaxInt64 {
		return errcode.Errorf(errcode.ErrOverflow, "shape %s of %s overflows int64 bytes", shape.FormatInts(h.Shape), h.Descr)
	}
	return nil
}

var dtypes = map[string]element.Type{
	"b1": element.Boolean, "i1": element.I8, "u1": element.U8,
	"i2": element.I16, "u2": element.U16, "f2": element.F16,
	"i4": element.I32, "u4": element.U32, "f4": element.F32,
	"i8": element.I64, "u8": element.U64, "f8": element.F64,
}

// setDescr reads the header's descr: a dtype string, or a structured dtype's list of fields; text
// is its literal as the header writes it.
func (h *Header) setDescr(v any, text string) error {
	h.descr = text
	d, ok := v.(string)
	if !ok {
		h.Descr = text
		size, err := fieldsSize(v, 0)
		if err != nil {
			return fmt.Errorf("structured dtype: %w", err)
		}
		h.ItemSize = size
		return nil
	}
	h.Descr = d
	size, err := itemSize(d)
	if err != nil {
		return err
	}
	h.ItemSize = size
	t, ok := dtypes[d[1:]]
	if !ok || len(d) != 3 {
		return nil // bytes of ItemSize
	}
	h.Type = t
	switch d[0] {
	case '>':
		h.BigEndian = t.Bits() > 8
	case '|':
		if t.Bits() > 8 {
			return errcode.Errorf(errcode.ErrSyntax, "dtype %q: a multi-byte dtype needs the byte order < or >", d)
		}
	}
	return nil
}

// itemSize returns the size in bytes of an item of the dtype string d: a byte order (<, >, | or
// =), a kind and a size in bytes (in characters of 4 bytes for U), and for datetimes a unit
// ("<M8[s]"). The error wraps errcode.ErrDataType for the object dtype, which np.save pickles, and
// errcode.ErrSyntax for anything else that is not a dtype.
func itemSize(d string) (int64, error) {
	if d == "" || !strings.ContainsRune("<>|=", rune(d[0])) {
		return 0, errcode.Errorf(errcode.ErrSyntax, "dtype %q: byte order %q is not <, >, | or =", d, d[:min(1, len(d))])
	}
	kind, rest := d[1:min(2, len(d))], d[min(2, len(d)):]
	if kind == "O" {
		return 0, errcode.Errorf(errcode.ErrDataType, "dtype %q: object arrays hold Python objects that np.save pickles, not fixed-size items", d)
	}
	if (kind == "M" || kind == "m") && strings.HasSuffix(rest, "]") {
		unit := strings.IndexByte(rest, '[')
		if unit < 0 {
			return 0, errcode.Errorf(errcode.ErrSyntax, "dtype %q: a datetime unit without [", d)
		}
		rest = rest[:unit]
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || n < 0 || n > 1<<40 {
		return 0, errcode.Errorf(errcode.ErrSyntax, "dtype %q: want a kind (b, i, u, f, c, S, U, V, M, m) and a size in bytes", d)
	}
	switch kind {
	case "b", "i", "u", "f", "c", "S", "V", "M", "m":
		return n, nil
	case "U":
		return 4 * n, nil // UCS-4 characters
	}
	return 0, errcode.Errorf(errcode.ErrSyntax, "dtype %q: kind %q is not one of b, i, u, f, c, S, U, V, M, m, O", d, kind)
}

// maxFieldDepth bounds how deeply structured dtypes nest.
const maxFieldDepth = 32

// fieldsSize returns the item size of a structured dtype's list of fields, each a tuple (name,
// dtype) or (name, dtype, shape), name a string or a (title, name) tuple and dtype a dtype string
// or a nested list: the sum of the fields' sizes, as np.save writes the list with its padding
// fields (”, '|V4').
func fieldsSize(v any, depth int) (int64, error) {
	fields, ok := v.([]any)
	switch {
	case !ok:
		return 0, errcode.Errorf(errcode.ErrSyntax, "descr is neither a dtype string nor a list of fields")
	case depth > maxFieldDepth:
		return 0, errcode.Errorf(errcode.ErrLimit, "fields nest deeper than %d", maxFieldDepth)
	case len(fields) == 0:
		return 0, errcode.Errorf(errcode.ErrSyntax, "an empty list of fields")
	}
	total := int64(0)
	for i, f := range fields {
		t, ok := f.([]any)
		if !ok || len(t) != 2 && len(t) != 3 {
			return 0, errcode.Errorf(errcode.ErrSyntax, "field %d: want (name, dtype) or (name, dtype, shape)", i)
		}
		var size int64
		var err error
		if d, ok := t[1].(string); ok {
			size, err = itemSize(d)
		} else {
			size, err = fieldsSize(t[1], depth+1)
		}
		if err != nil {
			return 0, fmt.Errorf("field %d: %w", i, err)
		}
		if len(t) == 3 {
			dims, ok := t[2].([]any)
			if !ok {
				dims = []any{t[2]}
			}
			for _, d := range dims {
				n, ok := d.(int64)
				if !ok || n < 0 {
					return 0, errcode.Errorf(errcode.ErrSyntax, "field %d: want a shape of non-negative integers", i)
				}
				if hi, lo := bits.Mul64(uint64(size), uint64(n)); hi != 0 || lo > 1<<40 {
					return 0, errcode.Errorf(errcode.ErrOverflow, "field %d: an item larger than 2^40 bytes", i)
				}
				size *= n
			}
		}
		if total += size; total > 1<<40 {
			return 0, errcode.Errorf(errcode.ErrOverflow, "an item larger than 2^40 bytes")
		}
	}
	return total, nil
}

// literal parses the subset of Python literals a .npy header uses: a dict of string keys to strings,
// True/False, tuples of integers, and the list of a structured dtype (lists and tuples of strings,
// integers, tuples and lists).
type literal struct {
	s   string
	pos int
	// descr is the text of the value of the key "descr".
	descr string
}

func (p *literal) errorf(format string, args ...any) error {
	return errcode.Errorf(errcode.ErrSyntax, "column %d: %s", p.pos+1, fmt.Sprintf(format, args...))
}

func (p *literal) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\n') {
		p.pos++
	}
}

func (p *literal) eat(c byte) bool {
	p.space()
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *literal) dict() (map[string]any, error) {
	if !p.eat('{') {
		return nil, p.errorf("want a dict {...}")
	}
	fields := map[string]any{}
	for !p.eat('}') {
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if _, dup := fields[key]; dup {
			return nil, p.errorf("key %q twice", key)
		}
		if !p.eat(':') {
			return nil, p.errorf("want : after %q", key)
		}
		p.space()
		start := p.pos
		if fields[key], err = p.value(); err != nil {
			return nil, err
		}
		if key == "descr" {
			p.descr = p.s[start:p.pos]
		}
		if !p.eat(',') {
			if !p.eat('}') {
				return nil, p.errorf("want , or }")
			}
			break
		}
	}
	if p.space(); p.pos != len(p.s) {
		return nil, p.errorf("text after the dict")
	}
	return fields, nil
}

func (p *literal) value() (any, error) {
	p.space()
	switch {
	case p.pos >= len(p.s):
		return nil, p.errorf("want a value")
	case p.s[p.pos] == '\'' || p.s[p.pos] == '"':
		return p.str()
	case strings.HasPrefix(p.s[p.pos:], "True"):
		p.pos += 4
		return true, nil
	case strings.HasPrefix(p.s[p.pos:], "False"):
		p.pos += 5
		return false, nil
	case p.s[p.pos] == '(':
		return p.tuple()
	case p.s[p.pos] == '[':
		return p.item(0)
	}
	return nil, p.errorf("want a string, True, False or a tuple")
}

// item parses a value of a structured dtype's list: a string, a non-negative integer, or a tuple
// or list of them, as []any.
func (p *literal) item(depth int) (any, error) {
	p.space()
	switch {
	case depth > 2*maxFieldDepth+2:
		return nil, errcode.Errorf(errcode.ErrLimit, "column %d: lists and tuples nest deeper than %d", p.pos+1, 2*maxFieldDepth+2)
	case p.pos >= len(p.s):
		return nil, p.errorf("want a value")
	case p.s[p.pos] == '\'' || p.s[p.pos] == '"':
		return p.str()
	case p.s[p.pos] >= '0' && p.s[p.pos] <= '9':
		start := p.pos
		for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
			p.pos++
		}
		n, err := strconv.ParseInt(p.s[start:p.pos], 10, 64)
		if err != nil {
			return nil, errcode.Errorf(errcode.ErrOverflow, "column %d: %s does not fit in an int64", start+1, p.s[start:p.pos])
		}
		return n, nil
	case p.s[p.pos] != '(' && p.s[p.pos] != '[':
		return nil, p.errorf("want a string, an integer, a tuple or a list")
	}
	end := byte(')')
	if p.s[p.pos] == '[' {
		end = ']'
	}
	p.pos++
	items := []any{}
	for !p.eat(end) {
		v, err := p.item(depth + 1)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		if !p.eat(',') {
			if !p.eat(end) {
				return nil, p.errorf("want , or %c", end)
			}
			break
		}
	}
	return items, nil
}

func (p *literal) str() (string, error) {
	p.space()
	if p.pos >= len(p.s) || (p.s[p.pos] != '\'' && p.s[p.pos] != '"') {
		return "", p.errorf("want a quoted string")
	}
	q := p.s[p.pos]
	end := strings.IndexByte(p.s[p.pos+1:], q)
	if end < 0 {
		return "", p.errorf("unterminated string")
	}
	v := p.s[p.pos+1 : p.pos+1+end]
	if strings.ContainsRune(v, '\\') {
		return "", p.errorf("escapes in strings are not supported")
	}
	p.pos += end + 2
	return v, nil
}

func (p *literal) tuple() ([]int64, error) {
	p.eat('(')
	dims := []int64{}
	for !p.eat(')') {
		p.space()
		start := p.pos
		for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
			p.pos++
		}
		if p.pos == start {
			return nil, p.errorf("want a non-negative integer in the shape")
		}
		n, err := strconv.ParseInt(p.s[start:p.pos], 10, 64)
		if err != nil {
			return nil, errcode.Errorf(errcode.ErrOverflow, "shape dimension %s does not fit in an int64", p.s[start:p.pos])
		}
		if p.pos < len(p.s) && p.s[p.pos] == 'L' { // Python 2 long
			p.pos++
		}
		dims = append(dims, n)
		if len(dims) > 64 {
			return nil, errcode.Errorf(errcode.ErrLimit, "more than 64 dimensions")
		}
		if !p.eat(',') {
			if !p.eat(')') {
				return nil, p.errorf("want , or ) in the shape")
			}
			break
		}
	}
	return dims, nil
}

// WriteOptions choose how Write encodes an array.
type WriteOptions struct {
	// BigEndian writes multi-byte dtypes big-endian ('>'), as numpy keeps an array's byte order.
	BigEndian bool
}

// header returns the header numpy writes for t: C order, the dtype of t's element type.
// The error wraps errcode.ErrDataType for element types .npy cannot hold (bf16, f8, sub-byte types).
func header(t element.Type, dims []int64, opt WriteOptions) ([]byte, error) {
	descr := ""
	for k, v := range dtypes {
		if v == t {
			descr = k
			break
		}
	}
	if descr == "" {
		return nil, errcode.Errorf(errcode.ErrDataType, "element type %v has no .npy dtype", t)
	}
	order := "<"
	switch {
	case t.Bits() == 8:
		order = "|"
	case opt.BigEndian:
		order = ">"
	}
	return headerOf("'"+order+descr+"'", dims), nil
}

// headerOf returns the header numpy writes for an array of shape dims in C order whose dtype is
// the Python literal descr ('<f4', or a structured dtype's list).
func headerOf(descr string, dims []int64) []byte {
	var tuple strings.Builder
	tuple.WriteByte('(')
	for i, d := range dims {
		if i > 0 {
			tuple.WriteString(", ")
		}
		tuple.WriteString(strconv.FormatInt(d, 10))
	}
	if len(dims) == 1 {
		tuple.WriteByte(',')
	}
	tuple.WriteByte(')')
	dict := "{'descr': " + descr + ", 'fortran_order': False, 'shape': " + tuple.String() + ", }"
	// Spare room numpy leaves so that the first dimension can grow in place.
	if len(dims) > 0 {
		dict += strings.Repeat(" ", max(0, 21-len(strconv.FormatInt(dims[0], 10))))
	}
	// Pad with spaces and a newline so that the data starts on a 64-byte boundary, as numpy does.
	hlen := len(dict) + 1
	version, prefix := byte(1), 10
	if hlen+64-(prefix+hlen)%64 > 0xffff {
		version, prefix = 2, 12
	}
	pad := 64 - (prefix+hlen)%64
	var b bytes.Buffer
	b.WriteString(magic)
	b.Write([]byte{version, 0})
	if version == 1 {
		b.Write(binary.LittleEndian.AppendUint16(nil, uint16(hlen+pad)))
	} else {
		b.Write(binary.LittleEndian.AppendUint32(nil, uint32(hlen+pad)))
	}
	b.WriteString(dict)
	b.WriteString(strings.Repeat(" ", pad))
	b.WriteByte('\n')
	return b.Bytes()
}

// WriteHeader writes the header of a .npy file holding an array of element type t and shape dims in
// C order, as numpy writes it; the data, dense and in the chosen byte order, must follow.
func WriteHeader(w io.Writer, t element.Type, dims []int64, opt WriteOptions) error {
	h, err := header(t, dims, opt)
	if err != nil {
		return err
	}
	_, err = w.Write(h)
	return err
}

// WriteHeaderLike writes the header of a .npy file holding an array of the dtype of h (its descr,
// byte order included, as h's file writes it) and shape dims in C order, as numpy writes it: the
// header of h's array reshaped. The data, dense and in h's byte order, must follow.
func WriteHeaderLike(w io.Writer, h Header, dims []int64) error {
	descr := h.descr
	if strings.HasPrefix(descr, "'") || strings.HasPrefix(descr, `"`) || descr == "" {
		descr = "'" + h.Descr + "'"
	}
	_, err := w.Write(headerOf(descr, dims))
	return err
}

// Write writes t to w as a .npy file in C order, with the header numpy writes (format 1.0, or 2.0
// when the header needs it). The error wraps errcode.ErrDataType for element types .npy cannot hold.
func Write(w io.Writer, t tensor.Tensor, opt WriteOptions) error {
	if err := WriteHeader(w, t.Type(), t.Shape(), opt); err != nil {
		return err
	}
	return WriteData(w, t, opt)
}

// WriteData writes the elements of t in logical row-major order, in the byte order of opt: the data
// of a .npy file whose header WriteHeader wrote (for t's type and any shape of t's volume).
func WriteData(w io.Writer, t tensor.Tensor, opt WriteOptions) error {
	if opt.BigEndian && t.Type().Bits() > 8 {
		w = &swapWriter{w: w, t: t.Type()}
	}
	_, err := t.WriteTo(w)
	return err
}

// swapWriter reverses the bytes of each element on the way to w; every Write holds whole elements.
type swapWriter struct {
	w   io.Writer
	t   element.Type
	buf []byte
}

func (s *swapWriter) Write(b []byte) (int, error) {
	s.buf = append(s.buf[:0], b...)
	s.t.SwapBytes(s.buf)
	return s.w.Write(s.buf)
}

// ReadFile reads the .npy file at path (see Read); errors name the path. A file that is not a
// regular file (a named pipe, /dev/stdin) is read as a stream of unknown size.
func ReadFile(path string) (tensor.Tensor, Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return tensor.Tensor{}, Header{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return tensor.Tensor{}, Header{}, err
	}
	size := int64(-1)
	if st.Mode().IsRegular() {
		size = st.Size()
	}
	t, h, err := Read(bufio.NewReaderSize(f, 64<<10), size)
	if err != nil {
		return t, h, fmt.Errorf("%s: %w", path, err)
	}
	return t, h, nil
}
