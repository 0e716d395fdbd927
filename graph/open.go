package graph

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/onnx"
)

// OpenOptions configure Open.
type OpenOptions struct {
	// MaxBytes bounds the bytes of a model file read into memory, beyond which Open and Infer fail
	// with an error wrapping errcode.ErrLimit: of an ONNX model, which is mapped, the bytes its
	// shapes need (its structure without the tensor values, and the values of the constants
	// inference reads), however large the file; an IR .xml file whole. 0 means 2 GiB (2^31 bytes,
	// protobuf's bound on a message).
	MaxBytes int64
	// Weights is the path of an IR model's .bin file; "" means the .xml path with the extension
	// .bin. ONNX models ignore it: their external data files are named by the model, relative to
	// its directory.
	Weights string
}

// defaultMaxBytes is OpenOptions.MaxBytes's default: 2 GiB.
const defaultMaxBytes = 2 << 30

// Open reads the model file at path and returns its graph, ready for Infer: an ONNX model (.onnx,
// or a file whose first byte is protobuf's tag of ModelProto.ir_version) as FromONNX reads it, with
// the external data files it names resolved relative to its directory; or an OpenVINO IR network
// (.xml, or a file that starts with '<') as FromIR reads it, with its constants in the .bin file
// beside it (OpenOptions.Weights).
//
// It reads only what shapes need: an ONNX file is mapped into memory (onnx.Open) and its tensor
// values are read when inference asks for them (the small integer constants of shapes and
// patterns, never the weights), so that a model of gigabytes of weights opens in the time and
// memory of its graph; an IR network reads its .bin by range, for the same constants. The graph
// holds the mapping, or the open .bin, until Close: call Infer before Close. The Result of Infer
// does not need them, and stays valid after Close.
//
// Errors name path: an error of the file system wraps errcode.ErrIO (and keeps its chain:
// errors.Is(err, fs.ErrNotExist)); a file that is not a model of either format, or does not follow
// it, errcode.ErrSyntax; a file past OpenOptions.MaxBytes, errcode.ErrLimit.
func Open(path string, opt OpenOptions) (*Graph, error) {
	limit := opt.MaxBytes
	if limit <= 0 {
		limit = defaultMaxBytes
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errcode.IO(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, errcode.IO(err)
	}
	if st.IsDir() {
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: a directory, not a model file", path)
	}
	kind := strings.ToLower(filepath.Ext(path))
	if kind != ".onnx" && kind != ".xml" {
		var head [512]byte
		n, err := io.ReadFull(f, head[:])
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, errcode.IO(err)
		}
		switch t := bytes.TrimSpace(head[:n]); {
		case n > 0 && head[0] == 0x08:
			kind = ".onnx"
		case len(t) > 0 && t[0] == '<':
			kind = ".xml"
		default:
			return nil, errcode.Errorf(errcode.ErrSyntax, "%s: not a model file Open reads: want an ONNX model or an OpenVINO IR .xml", path)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, errcode.IO(err)
		}
	}
	if kind == ".onnx" {
		return openONNX(path, limit)
	}
	if st.Size() > limit {
		return nil, errcode.Errorf(errcode.ErrLimit, "%s: the file is %d bytes, more than the limit of %d", path, st.Size(), limit)
	}
	return openIR(path, f, opt.Weights)
}

// openONNX opens the ONNX model at path, mapped, reading at most limit bytes of it.
func openONNX(path string, limit int64) (*Graph, error) {
	m, err := onnx.Open(path, limit)
	if err != nil {
		return nil, named(path, err)
	}
	g, err := FromONNX(m, filepath.Dir(path))
	if err != nil {
		m.Close()
		return nil, named(path, err)
	}
	g.closer = m
	return g, nil
}

// openIR reads the IR network of the .xml file f at path, with the weights at bin ("" for the .bin
// beside it).
func openIR(path string, f io.Reader, bin string) (*Graph, error) {
	net, err := ir.Decode(f)
	if err != nil {
		return nil, named(path, err)
	}
	if bin == "" {
		bin = strings.TrimSuffix(path, filepath.Ext(path)) + ".bin"
	}
	w, err := ir.OpenWeights(bin)
	if err != nil {
		return nil, named(path, fmt.Errorf("the weights: %w", err))
	}
	g, err := FromIR(net, w)
	if err != nil {
		w.Close()
		return nil, named(path, err)
	}
	g.closer = &irFile{net: net, w: w}
	return g, nil
}

// ONNX returns the ONNX model Open mapped g from, for what the graph does not keep (the model's
// bytes, to write shapes into them; its external data files): nil when Open read an IR network,
// when FromONNX or FromIR built g, and after Close.
func (g *Graph) ONNX() *onnx.Model {
	m, _ := g.closer.(*onnx.Model)
	return m
}

// named returns err prefixed with the model's path, unless an error of the file system already
// names a file, with the code io for such an error.
func named(path string, err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		err = fmt.Errorf("%s: %w", path, err)
	}
	return errcode.IO(err)
}

// Close releases the model file Open holds for g's constants: the mapping of an ONNX model, the
// open .bin of an IR network. Constants cannot be read after it (Const.Load fails with an error
// wrapping errcode.ErrSyntax), so Infer comes before Close; a Result stays valid. It does nothing
// for a graph FromONNX or FromIR built (its model is the caller's to close) and for a subgraph, and
// closing twice does nothing. The error is the system's, for a file it could not release.
func (g *Graph) Close() error {
	c := g.closer
	if c == nil {
		return nil
	}
	g.closer = nil
	return c.Close()
}
