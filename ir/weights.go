package ir

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// Const is what a Const layer's <data> says of its value: element type, static shape, and where
// its bytes lie in the .bin file.
type Const struct {
	Type   element.Type
	Shape  []int64 // static; empty for a scalar
	Offset int64   // in bytes from the start of the .bin file
	Size   int64   // in bytes, as declared: at least the value's, which is its first bytes
}

// valueSize returns the byte count of c's value: that of its shape and element type when it is
// smaller than the declared size, else the declared size.
func (c Const) valueSize() int64 {
	if count, err := shape.Volume(c.Shape); err == nil {
		if n, ok := c.Type.Size(count); ok && n < c.Size {
			return n
		}
	}
	return c.Size
}

// Const reads the <data> attributes element_type, shape, offset and size of a Const layer and
// checks that size is at least the byte count of shape elements of element_type (packed types
// rounded up to whole bytes). A larger size is kept as declared, as OpenVINO's IR reader does: the
// value is its first bytes, and the declared range must still lie in the .bin (Weights.Bytes).
// Errors wrap errcode.ErrSyntax, or errcode.ErrOverflow for sizes that overflow int64, and name
// the layer and its line.
func (l *Layer) Const() (Const, error) {
	var c Const
	get := func(name string) (string, error) {
		v, ok := l.Attr(name)
		if !ok {
			return "", errcode.Errorf(errcode.ErrSyntax, "Const %v: <data> has no %s attribute", l, name)
		}
		return v, nil
	}
	et, err := get("element_type")
	if err != nil {
		return c, err
	}
	if c.Type, err = element.Parse(et); err != nil {
		return c, fmt.Errorf("Const %v: element_type: %w", l, err)
	}
	sh, err := get("shape")
	if err != nil {
		return c, err
	}
	s, err := shape.Parse(sh)
	if err != nil {
		return c, fmt.Errorf("Const %v: shape: %w", l, err)
	}
	var ok bool
	if c.Shape, ok = s.AppendStatic(nil); !ok {
		return c, errcode.Errorf(errcode.ErrSyntax, "Const %v: shape %q is not static", l, sh)
	}
	for _, name := range []string{"offset", "size"} {
		v, err := get(name)
		if err != nil {
			return c, err
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return c, errcode.Errorf(errcode.ErrSyntax, "Const %v: %s=%q is not a byte count", l, name, v)
		}
		if name == "offset" {
			c.Offset = n
		} else {
			c.Size = n
		}
	}
	count, err := shape.Volume(c.Shape)
	if err != nil {
		return c, fmt.Errorf("Const %v: %w", l, err)
	}
	want, ok := c.Type.Size(count)
	if !ok {
		return c, errcode.Errorf(errcode.ErrOverflow, "Const %v: %d elements of %s overflow int64 bytes", l, count, c.Type)
	}
	if c.Size < want {
		return c, errcode.Errorf(errcode.ErrSyntax, "Const %v: size=%d, but shape %s of %s takes %d bytes", l, c.Size, shape.FormatInts(c.Shape), c.Type, want)
	}
	return c, nil
}

// Weights is the .bin file of an IR model: the raw little-endian bytes Const layers point into.
// A nil *Weights stands for a network read without its .bin (IR files are often published without
// their weights): it holds no bytes, Size and BytesRead are 0, Close does nothing, and Bytes and
// Ints fail with an error wrapping errcode.ErrIO.
type Weights struct {
	r    io.ReaderAt
	size int64
	name string
	file *os.File
	read atomic.Int64 // the bytes Bytes read
}

// NewWeights returns the weights held by r, size bytes long; name is used in messages.
func NewWeights(r io.ReaderAt, size int64, name string) *Weights {
	return &Weights{r: r, size: size, name: name}
}

// OpenWeights opens the .bin file at path. Its bytes are read on demand; Close releases it.
func OpenWeights(path string) (*Weights, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Weights{r: f, size: st.Size(), name: path, file: f}, nil
}

// Close closes the file OpenWeights opened; it does nothing for NewWeights.
func (w *Weights) Close() error {
	if w == nil || w.file == nil {
		return nil
	}
	return w.file.Close()
}

// Name returns the name the weights were opened or made with, for messages: the .bin file's path.
func (w *Weights) Name() string {
	if w == nil {
		return ""
	}
	return w.name
}

// BytesRead returns how many bytes Bytes (and Ints) have read, in all: those of the constants a
// program read, never the file's size unless it read them all.
func (w *Weights) BytesRead() int64 {
	if w == nil {
		return 0
	}
	return w.read.Load()
}

// Size returns the length of the weights in bytes.
func (w *Weights) Size() int64 {
	if w == nil {
		return 0
	}
	return w.size
}

// Bytes returns the bytes of c's value at c.Offset: those its shape and element type take, or
// c.Size if that is fewer (a declared size larger than the value's leaves its tail unread). It
// checks the declared range, c.Size bytes at c.Offset, against the file's size before it
// allocates, and refuses a value of more than maxBytes bytes (errcode.ErrLimit). Errors name the
// file and offset; a range past the end wraps errcode.ErrSyntax.
func (w *Weights) Bytes(c Const, maxBytes int64) ([]byte, error) {
	if w == nil {
		return nil, errcode.Errorf(errcode.ErrIO, "offset %d: no .bin was read", c.Offset)
	}
	if c.Offset > w.size || c.Size > w.size-c.Offset {
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: offset %d + size %d is past the end of the file (%d bytes)", w.name, c.Offset, c.Size, w.size)
	}
	n := c.valueSize()
	if n > maxBytes {
		return nil, errcode.Errorf(errcode.ErrLimit, "%s: offset %d: a constant of %d bytes exceeds the limit of %d bytes", w.name, c.Offset, n, maxBytes)
	}
	b := make([]byte, n)
	if _, err := w.r.ReadAt(b, c.Offset); err != nil {
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: offset %d: reading %d bytes: %v", w.name, c.Offset, n, err)
	}
	w.read.Add(n)
	return b, nil
}

// Ints returns the values of an integer constant, in row-major order, refusing constants of more
// than maxElems elements (errcode.ErrLimit). A u64 value above math.MaxInt64 wraps to a negative
// int64, as OpenVINO's shape inference reads a u64 constant's values as int64 (its type_prop tests
// give an Unsqueeze axis -7 as a u64 constant). Errors are those of Bytes, and errcode.ErrDataType
// for a non-integer type.
func (w *Weights) Ints(c Const, maxElems int64) ([]int64, error) {
	n, err := shape.Volume(c.Shape)
	if err != nil {
		return nil, err
	}
	if n > maxElems {
		return nil, errcode.Errorf(errcode.ErrLimit, "%s: offset %d: a constant of %d elements exceeds the limit of %d", w.Name(), c.Offset, n, maxElems)
	}
	b, err := w.Bytes(c, c.Size)
	if err != nil {
		return nil, err
	}
	t := c.Type
	if t == element.U64 { // the same 8 bytes, two's complement: OpenVINO's cast of u64 to int64
		t = element.I64
	}
	v, err := t.DecodeInts(make([]int64, 0, n), b, int(n))
	if err != nil {
		return nil, fmt.Errorf("%s: offset %d: %w", w.Name(), c.Offset, err)
	}
	return v, nil
}

// Append returns the weights of w's bytes followed by tail: those of a network whose new Const
// layers (Edit) lie past w's end, at offsets from w.Size() on. w's bytes are read where they lie,
// not copied; w must stay open while the result is used. For a nil w (no .bin read) it returns
// nil: the bytes before tail are not known.
func (w *Weights) Append(tail []byte) *Weights {
	if w == nil {
		return nil
	}
	return NewWeights(appended{w.r, w.size, tail}, w.size+int64(len(tail)), w.name)
}

// appended is the bytes of r, size long, followed by tail.
type appended struct {
	r    io.ReaderAt
	size int64
	tail []byte
}

func (a appended) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	if off < a.size {
		k := min(int64(len(p)), a.size-off)
		m, err := a.r.ReadAt(p[:k], off)
		if n = m; err != nil && !(err == io.EOF && int64(m) == k) {
			return n, err
		}
		if int64(len(p)) == k {
			return n, nil
		}
	}
	t := off + int64(n) - a.size
	if t >= int64(len(a.tail)) {
		return n, io.EOF
	}
	m := copy(p[n:], a.tail[t:])
	if n += m; n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// WriteTo writes all of w's bytes to dst, streamed in blocks: a .bin of gigabytes is copied in
// the memory of a block. It implements io.WriterTo; the errors are dst's, and w's (errcode.ErrIO
// for a nil w, which holds no bytes to write).
func (w *Weights) WriteTo(dst io.Writer) (int64, error) {
	if w == nil {
		return 0, errcode.Errorf(errcode.ErrIO, "no .bin was read")
	}
	return io.Copy(dst, io.NewSectionReader(w.r, 0, w.size))
}
