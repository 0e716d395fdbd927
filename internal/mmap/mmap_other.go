//go:build !unix

package mmap

import "os"

// mapFile reports that files are not mapped on this system: Open reads them.
func mapFile(*os.File, int64) ([]byte, error) { return nil, errNoMap }

func unmap([]byte) error { return nil }
