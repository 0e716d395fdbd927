package mmap

import (
	"io"
	"os"
	"sync"
)

// lazyBlock is the unit in which a lazy file is read: a Fill reads the blocks it touches that were
// not read yet, in one read per run of them.
const lazyBlock = 64 << 10

// lazy is how a File that is neither mapped nor read whole reads its bytes: on demand (Fill), from
// the open file, into data, which holds the file's size but only what was read.
type lazy struct {
	mu   sync.Mutex
	f    *os.File
	read []uint64 // a bit per block of lazyBlock bytes: read
}

// OpenLazy opens the regular file at path to be read on demand: its File's Bytes have the file's
// size, and hold what Fill read, zeros elsewhere; no more than Fill asks for (in blocks of 64 KiB)
// is read. It is what Open gives where a regular file cannot be mapped (a system other than Unix, a
// browser's WebAssembly): a decoder that reads only the structure of a file reads a small part of
// it. A file that is not regular, or empty, is read whole, at most maxRead bytes, as by Open. The
// errors are the file system's, without the path, and the limit's.
func OpenLazy(path string, maxRead int64) (*File, error) {
	f, st, err := openStat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() == 0 || int64(int(st.Size())) != st.Size() {
		defer f.Close()
		return readWhole(f, st, maxRead)
	}
	blocks := (st.Size() + lazyBlock - 1) / lazyBlock
	return &File{data: make([]byte, st.Size()), lazy: &lazy{f: f, read: make([]uint64, (blocks+63)/64)}}, nil
}

// Lazy reports whether the file is read on demand: its Bytes hold only what Fill read.
func (f *File) Lazy() bool { return f.lazy != nil }

// Fill reads the bytes off to off+n of a lazy file into its Bytes, unless read already; it does
// nothing for a file mapped or read whole, and for bytes past the end. It is safe for concurrent
// use. The error is the file system's: a file that shrank since it was opened is
// io.ErrUnexpectedEOF.
func (f *File) Fill(off, n int) error {
	l := f.lazy
	if l == nil || n <= 0 || off >= len(f.data) {
		return nil
	}
	end := min(off+n, len(f.data))
	l.mu.Lock()
	defer l.mu.Unlock()
	for b := off / lazyBlock; b*lazyBlock < end; {
		if l.read[b/64]&(1<<(b%64)) != 0 {
			b++
			continue
		}
		e := b + 1 // the run of blocks not read from b
		for e*lazyBlock < end && l.read[e/64]&(1<<(e%64)) == 0 {
			e++
		}
		lo, hi := b*lazyBlock, min(e*lazyBlock, len(f.data))
		if _, err := l.f.ReadAt(f.data[lo:hi], int64(lo)); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		for ; b < e; b++ {
			l.read[b/64] |= 1 << (b % 64)
		}
	}
	return nil
}

// Filled returns the bytes of a lazy file read so far (whole blocks of 64 KiB); the file's size for
// one mapped or read whole.
func (f *File) Filled() int64 {
	l := f.lazy
	if l == nil {
		return int64(len(f.data))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var n int64
	for b := 0; b*lazyBlock < len(f.data); b++ {
		if l.read[b/64]&(1<<(b%64)) != 0 {
			n += int64(min(lazyBlock, len(f.data)-b*lazyBlock))
		}
	}
	return n
}
