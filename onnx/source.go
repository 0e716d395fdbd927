package onnx

import (
	"runtime/debug"
	"sync/atomic"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/internal/mmap"
)

// source is the encoded file a model or tensor was decoded from, which tensors read their values
// from when asked: the caller's bytes (DecodeModel, DecodeTensor), or a file Open mapped.
type source struct {
	b         []byte
	file      *mmap.File // nil for the caller's bytes
	limit     int64      // the bound on the bytes read, structure and values; 0 for none
	structure int64      // the bytes decoding read
	closed    atomic.Bool
	read      atomic.Int64 // bytes of tensor values read
}

// span is where the values of one occurrence of a tensor's value field lie in its source.
type span struct{ off, n int }

// bytes returns the bytes of s, checking that the source is still open. The caller reads them
// under recoverFault.
func (src *source) bytes(s span) ([]byte, error) {
	if src.closed.Load() {
		return nil, errcode.Errorf(errcode.ErrSyntax, "offset %d: the model file was closed (Model.Close) before these values were read", s.off)
	}
	if read := src.read.Add(int64(s.n)); src.limit > 0 && src.structure+read > src.limit {
		src.read.Add(-int64(s.n))
		return nil, errcode.Errorf(errcode.ErrLimit, "offset %d: %d bytes of values would take the bytes read of the file past the limit of %d (%d read)",
			s.off, s.n, src.limit, src.structure+read-int64(s.n))
	}
	if src.file != nil {
		if err := src.file.Fill(s.off, s.n); err != nil {
			return nil, errcode.IO(err)
		}
	}
	return src.b[s.off : s.off+s.n], nil
}

// recoverFault, deferred with the setting debug.SetPanicOnFault(true) returned, restores that
// setting and turns a fault on a mapped file (truncated while mapped) into the error of
// mmap.Fault; any other panic goes on.
func recoverFault(err *error, old bool) {
	debug.SetPanicOnFault(old)
	if r := recover(); r != nil {
		*err = mmap.Fault(r)
	}
}

// Open decodes the ONNX model file at path as DecodeModel does, reading only the bytes its
// structure needs: the file is mapped into memory (on Unix systems; see below), and the values of
// its tensors (raw_data, float_data, double_data, string_data), which are most of a model's bytes,
// are not read until Tensor or Ints asks for them, so that a model of any size opens in the time
// and memory its graph takes. maxRead bounds the bytes read, the structure as decoding walks it and
// the tensor values read later: beyond it the error wraps errcode.ErrLimit (0 means no bound).
// Where a regular file cannot be mapped (a system other than Unix, a browser's WebAssembly) its
// structure is read, and the values of its tensors when asked, as from a mapping; a file that is not
// regular (a pipe) is read whole, and maxRead bounds its size.
//
// The model's tensors read their values from the mapping until Close: call Close when done with
// the model and everything built from it (graph.FromONNX's constants read them too); after Close,
// reading values returns an error wrapping errcode.ErrSyntax. A file truncated while mapped makes
// the reads of the bytes it lost return an error wrapping errcode.ErrSyntax instead of crashing
// the process (the fault is recovered, with debug.SetPanicOnFault, in the goroutine that reads).
// Other errors are those of DecodeModel, and the file system's; they do not name path.
func Open(path string, maxRead int64) (*Model, error) { return open(path, maxRead, mmap.Open) }

// open is Open with the file opened by openFile: mmap.Open, or mmap.OpenLazy in the tests.
func open(path string, maxRead int64, openFile func(string, int64) (*mmap.File, error)) (*Model, error) {
	f, err := openFile(path, maxRead)
	if err != nil {
		return nil, err
	}
	src := &source{b: f.Bytes(), file: f, limit: maxRead}
	if !f.Mapped() && !f.Lazy() {
		src.limit = 0 // read whole within maxRead already
	}
	if f.Lazy() {
		if err := prefetch(f.Fill, src.b); err != nil {
			f.Close()
			return nil, errcode.IO(err)
		}
	}
	m, err := decodeModel(src)
	if err != nil {
		f.Close()
		return nil, err
	}
	return m, nil
}

// Close releases the memory of a model Open mapped; its tensors' values cannot be read after it.
// It does nothing for a model DecodeModel decoded from the caller's bytes, and closing twice does
// nothing. The error is the system's, for a mapping it could not release.
func (m *Model) Close() error {
	if m.src == nil || m.src.file == nil || m.src.closed.Swap(true) {
		return nil
	}
	return m.src.file.Close()
}

// Bytes returns the encoded model: the bytes given to DecodeModel, or the file Open mapped (or read
// whole first, where it reads a file on demand: nil when that fails), valid until Close. They must
// not be written to.
func (m *Model) Bytes() []byte {
	if m.src == nil || m.src.closed.Load() {
		return nil
	}
	if m.src.file != nil && m.src.file.Fill(0, len(m.src.b)) != nil {
		return nil
	}
	return m.src.b
}

// BytesRead returns how many bytes of the encoded model were read: its structure, as decoding
// walked it (every byte but the tensor values and the fields this package skips unread), and the
// tensor values read since.
func (m *Model) BytesRead() int64 {
	if m.src == nil {
		return 0
	}
	return m.src.structure + m.src.read.Load()
}
