// Package mmap maps files into memory read-only, so that a decoder reads only the pages it touches
// (the structure of a model, not its weights), and reads them whole where mapping is not available.
package mmap

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"
	"unsafe"

	"github.com/reshape-go/reshape/errcode"
)

// File is the content of a file: mapped into memory, or read into it. Its bytes are valid until
// Close, which a File needs whether mapped or not; there is no finalizer.
type File struct {
	data   []byte
	mapped bool
	lazy   *lazy // nil unless read on demand (OpenLazy)
}

// errNoMap is what map returns where files cannot be mapped: the file is read instead.
var errNoMap = errors.New("mmap: mapping not available")

// Open maps the regular file at path read-only. A regular file the system cannot map (a system
// other than Unix, a browser's WebAssembly, a file larger than the address space) is opened to be
// read on demand instead, as by OpenLazy: its File is Lazy, and Fill reads its bytes. A file that is
// not regular (a pipe, a terminal, /dev/stdin), and an empty file, are read whole, at most maxRead
// bytes: a longer one is an error wrapping errcode.ErrLimit, returned before more than maxRead+1
// bytes are read. A mapped or lazy file is not bounded by maxRead: its pages are read when touched.
// The other errors are the file system's, without the path (*fs.PathError unwrapped): the caller
// names the file.
func Open(path string, maxRead int64) (*File, error) {
	f, st, err := openStat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode().IsRegular() && st.Size() > 0 {
		b, err := mapFile(f, st.Size())
		f.Close()
		if err == nil {
			register(b)
			return &File{data: b, mapped: true}, nil
		}
		return OpenLazy(path, maxRead)
	}
	defer f.Close()
	return readWhole(f, st, maxRead)
}

// openStat opens the file at path and returns its information; the error is the file system's,
// without the path.
func openStat(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, unwrap(err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, unwrap(err)
	}
	return f, st, nil
}

// readWhole reads the file f whole, at most maxRead bytes.
func readWhole(f *os.File, st fs.FileInfo, maxRead int64) (*File, error) {
	if st.Mode().IsRegular() && st.Size() > maxRead {
		return nil, errcode.Errorf(errcode.ErrLimit, "the file is %d bytes, more than the limit of %d read into memory", st.Size(), maxRead)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxRead+1))
	if err != nil {
		return nil, unwrap(err)
	}
	if int64(len(b)) > maxRead {
		return nil, errcode.Errorf(errcode.ErrLimit, "more than the limit of %d bytes read into memory", maxRead)
	}
	return &File{data: b}, nil
}

// unwrap returns the error of a *fs.PathError without its path.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Bytes returns the file's content, valid until Close. It must not be written to: a mapping is
// read-only, and writing to it faults.
func (f *File) Bytes() []byte { return f.data }

// Mapped reports whether the file is mapped rather than read.
func (f *File) Mapped() bool { return f.mapped }

// Close releases the file's memory: it unmaps a mapped file, after which reading its Bytes faults.
// Closing twice does nothing.
func (f *File) Close() error {
	b := f.data
	f.data = nil
	if f.lazy != nil && b != nil {
		return f.lazy.f.Close()
	}
	if !f.mapped || b == nil {
		return nil
	}
	unregister(b)
	return unmap(b)
}

// live holds the address ranges of the mappings not yet closed, start to end, so that Fault tells
// a fault on a mapped file from any other.
var live struct {
	sync.Mutex
	ranges map[uintptr]uintptr
}

func start(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

func register(b []byte) {
	live.Lock()
	defer live.Unlock()
	if live.ranges == nil {
		live.ranges = map[uintptr]uintptr{}
	}
	live.ranges[start(b)] = start(b) + uintptr(len(b))
}

func unregister(b []byte) {
	live.Lock()
	defer live.Unlock()
	delete(live.ranges, start(b))
}

// Fault returns the error of r, the value recovered from a panic of a goroutine that read mapped
// memory with debug.SetPanicOnFault(true): a fault at an address inside a live mapping (the file
// was truncated while mapped, or its disk failed) becomes an error wrapping errcode.ErrSyntax that
// names the offset in the file. Any other value is a bug, and Fault panics with it again. Use it as
//
//	defer func(old bool) {
//		debug.SetPanicOnFault(old)
//		if r := recover(); r != nil {
//			err = mmap.Fault(r)
//		}
//	}(debug.SetPanicOnFault(true))
func Fault(r any) error {
	if f, ok := r.(interface{ Addr() uintptr }); ok {
		addr := f.Addr()
		live.Lock()
		defer live.Unlock()
		for lo, hi := range live.ranges {
			if addr >= lo && addr < hi {
				return errcode.Errorf(errcode.ErrSyntax, "the file changed while it was read: a fault at offset %d of its %d mapped bytes (was it truncated?)", addr-lo, hi-lo)
			}
		}
	}
	panic(r)
}
