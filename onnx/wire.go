package onnx

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/reshape-go/reshape/errcode"
	"google.golang.org/protobuf/encoding/protowire"
)

// maxDepth bounds how deeply messages may nest in what the decoder enters. Subgraphs recurse (a
// graph's node's attribute holds a graph: three messages a level), so the bound allows subgraphs
// nested about 40 deep, far beyond real models, and makes sure no input can take the decoder deeper.
const maxDepth = 128

// names maps the field numbers of one onnx.proto message to their names, for error messages.
type names map[protowire.Number]string

// message is the encoding of one protobuf message being read: its bytes, the offset of the first
// of them in the decoded file, how many of them are read, its name in onnx.proto, the names of the
// fields this package reads, how deeply it is nested, and the decoder it is read by. Reading moves
// only the count i: no pointer is written, so reading costs no write barrier while the collector
// runs.
type message struct {
	name   string
	fields names
	b      []byte
	base   int
	i      int
	depth  int
	d      *decoder
}

// field is one field of a message whose tag and value were read: the value is not yet
// interpreted, but its extent is checked. It keeps what it needs of its message by value (its name,
// its fields' names, its depth and decoder), so that a message never escapes through its fields.
type field struct {
	msg    string
	fields names
	depth  int
	d      *decoder
	num    protowire.Number
	typ    protowire.Type
	val    []byte // the varint's bytes, the 4 or 8 fixed bytes, or a length-delimited payload without its length
	tag    int    // the offset of the field's tag in the file
	off    int    // the offset of val in the file
}

// more reports whether fields are left.
func (m *message) more() bool { return m.i < len(m.b) }

// next reads the next field into f: its tag and the extent of its value. A group is skipped whole (the field
// is returned with an empty value, and no reader of this package accepts a group).
func (m *message) next(f *field) error {
	rest := m.b[m.i:]
	off := m.base + m.i
	*f = field{msg: m.name, fields: m.fields, depth: m.depth, d: m.d, tag: off}
	if d := m.d; d.limit > 0 && int64(off)-d.skipped > d.limit {
		return errcode.Errorf(errcode.ErrLimit, "%s: more than %d bytes of the model's structure (everything but tensor values) at offset %d", m.name, d.limit, off)
	}
	num, typ, n := protowire.ConsumeTag(rest)
	if n < 0 {
		return errcode.Errorf(errcode.ErrSyntax, "%s: field tag: %s at offset %d", m.name, describe(n, "varint"), f.tag)
	}
	f.num, f.typ = num, typ
	rest, off = rest[n:], off+n
	f.off = off
	switch typ {
	case protowire.VarintType:
		_, n = protowire.ConsumeVarint(rest)
		if n < 0 {
			return f.errorf(off, "%s", describe(n, "varint"))
		}
	case protowire.Fixed32Type:
		if n = 4; len(rest) < n {
			return f.errorf(off, "truncated fixed32 value (%d bytes left)", len(rest))
		}
	case protowire.Fixed64Type:
		if n = 8; len(rest) < n {
			return f.errorf(off, "truncated fixed64 value (%d bytes left)", len(rest))
		}
	case protowire.BytesType:
		size, k := protowire.ConsumeVarint(rest)
		switch {
		case k < 0:
			return f.errorf(off, "length: %s", describe(k, "varint"))
		case size > math.MaxInt64:
			return f.errorf(off, "negative length %d", int64(size))
		case size > uint64(len(rest)-k):
			return f.errorf(off, "length %d past the end (%d bytes left)", size, len(rest)-k)
		}
		rest, off = rest[k:], off+k
		f.off = off
		n = int(size)
	case protowire.StartGroupType:
		n = protowire.ConsumeFieldValue(num, typ, rest)
		if n < 0 {
			return f.errorf(off, "group: %s", describe(n, "varint"))
		}
		m.i = off + n - m.base
		return nil
	default:
		return f.errorf(f.tag, "unexpected wire type %d", typ)
	}
	f.val = rest[:n]
	m.i = off + n - m.base
	return nil
}

// describe says what a protowire error code means for a value of the given kind.
func describe(code int, kind string) string {
	err := protowire.ParseError(code)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "truncated " + kind
	}
	// protowire's texts start with "proto:" and a space that is at random a non-breaking one.
	return strings.TrimSpace(strings.TrimPrefix(err.Error(), "proto:"))
}

// String names the field: "TensorProto.dims", or "TensorProto field 99" for a field this package
// does not read.
func (f *field) String() string {
	if name, ok := f.fields[f.num]; ok {
		return f.msg + "." + name
	}
	return fmt.Sprintf("%s field %d", f.msg, f.num)
}

// errorf returns an error wrapping errcode.ErrSyntax that names the field and the offset.
func (f *field) errorf(off int, format string, args ...any) error {
	return errcode.Errorf(errcode.ErrSyntax, "%s: %s at offset %d", f.String(), fmt.Sprintf(format, args...), off)
}

var typeNames = map[protowire.Type]string{
	protowire.VarintType: "varint", protowire.Fixed32Type: "fixed32", protowire.Fixed64Type: "fixed64",
	protowire.BytesType: "length-delimited", protowire.StartGroupType: "group",
}

// want checks the wire type of the field.
func (f *field) want(typ protowire.Type) error {
	if f.typ != typ {
		return f.errorf(f.tag, "wire type %s, want %s", typeNames[f.typ], typeNames[typ])
	}
	return nil
}

// uint returns the value of a varint field.
func (f *field) uint() (uint64, error) {
	if err := f.want(protowire.VarintType); err != nil {
		return 0, err
	}
	v, _ := protowire.ConsumeVarint(f.val) // checked by next
	return v, nil
}

// int64 returns the value of an int64 field.
func (f *field) int64() (int64, error) {
	v, err := f.uint()
	return int64(v), err
}

// int32 returns the value of an int32 or enum field, which protobuf writes sign-extended to 64 bits.
func (f *field) int32() (int32, error) {
	v, err := f.int64()
	if err == nil && int64(int32(v)) != v {
		return 0, f.errorf(f.off, "%d is out of the int32 range", v)
	}
	return int32(v), err
}

// float32 returns the value of a float field.
func (f *field) float32() (float32, error) {
	if err := f.want(protowire.Fixed32Type); err != nil {
		return 0, err
	}
	v, _ := protowire.ConsumeFixed32(f.val)
	return math.Float32frombits(v), nil
}

// bytes returns the payload of a bytes or string field; it shares the decoded file's memory.
func (f *field) bytes() ([]byte, error) {
	if err := f.want(protowire.BytesType); err != nil {
		return nil, err
	}
	return f.val, nil
}

// str returns the value of a string field.
func (f *field) str() (string, error) {
	b, err := f.bytes()
	return string(b), err
}

// message returns the embedded message the field holds.
func (f *field) message(name string, fields names) (message, error) {
	if err := f.want(protowire.BytesType); err != nil {
		return message{}, err
	}
	if f.depth >= maxDepth {
		return message{}, errcode.Errorf(errcode.ErrLimit, "%s: messages nest deeper than %d at offset %d", f.String(), maxDepth, f.off)
	}
	return message{name: name, fields: fields, b: f.val, base: f.off, depth: f.depth + 1, d: f.d}, nil
}

// skip records that the value of the field is left unread: a tensor's values, or a field this
// package does not decode. The structure bytes a decoder reads are the bytes it walks but skips.
func (f *field) skip() {
	if f.typ == protowire.BytesType {
		f.d.skipped += int64(len(f.val))
	}
}

// packed returns the values of one occurrence of a repeated scalar field of wire type typ (varint,
// fixed32 or fixed64), packed or not, in packed form (the values' encodings one after the other),
// and how many values it holds. The count comes from the bytes present.
func (f *field) packed(typ protowire.Type) (vals []byte, n int, err error) {
	if f.typ == typ {
		return f.val, 1, nil
	}
	if f.typ != protowire.BytesType {
		return nil, 0, f.errorf(f.tag, "wire type %s, want %s or packed", typeNames[f.typ], typeNames[typ])
	}
	if typ == protowire.VarintType {
		for b := f.val; len(b) > 0; n++ {
			_, k := protowire.ConsumeVarint(b)
			if k < 0 {
				return nil, 0, f.errorf(f.off+len(f.val)-len(b), "packed: %s", describe(k, "varint"))
			}
			b = b[k:]
		}
		return f.val, n, nil
	}
	size := 4 // fixed32
	if typ == protowire.Fixed64Type {
		size = 8
	}
	if len(f.val)%size != 0 {
		return nil, 0, f.errorf(f.off, "packed %s values: %d bytes is not a multiple of %d", typeNames[typ], len(f.val), size)
	}
	return f.val, len(f.val) / size, nil
}

// varints calls fn with each value of the packed varints vals, which packed has checked.
func varints(vals []byte, fn func(v uint64) error) error {
	for len(vals) > 0 {
		v, k := protowire.ConsumeVarint(vals)
		if err := fn(v); err != nil {
			return err
		}
		vals = vals[k:]
	}
	return nil
}

// within returns err with its message prefixed by what the format says, keeping its code.
func within(err error, format string, args ...any) error {
	var e *errcode.Error
	if !errors.As(err, &e) {
		return err
	}
	return &errcode.Error{Err: e.Err, Index: -1, Msg: fmt.Sprintf(format, args...) + ": " + e.Msg}
}
