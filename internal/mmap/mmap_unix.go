//go:build unix

package mmap

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the size bytes of f read-only, shared: pages are read from the page cache when
// first touched, and count in the process's resident memory only then.
func mapFile(f *os.File, size int64) ([]byte, error) {
	if int64(int(size)) != size {
		return nil, errNoMap
	}
	return unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
}

func unmap(b []byte) error { return unix.Munmap(b) }
