package onnx

import "github.com/reshape-go/reshape/internal/mmap"

// OpenLazy opens a model as Open does where the file cannot be mapped: read on demand.
func OpenLazy(path string, maxRead int64) (*Model, error) { return open(path, maxRead, mmap.OpenLazy) }

// FileRead returns the bytes of m's file read so far.
func FileRead(m *Model) int64 { return m.src.file.Filled() }
