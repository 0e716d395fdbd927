package graph

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/onednn"
	"github.com/reshape-go/reshape/onnx"
)

// OpenOptions configure Open.
type OpenOptions struct {
	// MaxBytes bounds the bytes of a model file read into memory, beyond which Open and Infer fail
	// with an error wrapping errcode.ErrLimit: of an ONNX model, which is mapped, the bytes its
	// shapes need (its structure without the tensor values, and the values of the constants
	// inference reads), however large the file; an IR .xml file whole, a oneDNN Graph JSON file
	// whole, and any file that is not a regular file (a pipe) whole. 0 means 2 GiB (2^31 bytes,
	// protobuf's bound on a message).
	MaxBytes int64
	// Weights is the path of an IR model's .bin file, which must exist; "" means the .xml path with
	// the extension .bin, if that exists (else the constants have no values). ONNX models ignore it: their external data files are named by the model, relative to
	// its directory.
	Weights string
}

// defaultMaxBytes is OpenOptions.MaxBytes's default: 2 GiB.
const defaultMaxBytes = 2 << 30

// format is one model format Open reads: its file name extension, in lower case, the test of a
// file's first bytes that recognises it when its name has another extension, why a file of its
// extension is not one of its models (model files in a directory), and the reading of a model
// from its file (f nil for a file read whole into b: a pipe).
type format struct {
	ext      string
	is       func(head []byte) bool
	notModel func(r io.Reader) string
	open     func(path string, f *os.File, b []byte, opt OpenOptions, limit int64) (*Graph, error)
}

// formats lists the formats Open reads, in the order their first bytes are tried.
var formats = [...]format{
	{ext: ".onnx", is: func(head []byte) bool { return len(head) > 0 && head[0] == 0x08 }, open: openONNX},
	{ext: ".xml", is: func(head []byte) bool { return firstByte(head) == '<' }, notModel: notIR, open: openIR},
	{ext: ".json", is: func(head []byte) bool { return firstByte(head) == '{' }, notModel: notOneDNN, open: openOneDNN},
}

// firstByte returns the first byte of head past white space, 0 when there is none.
func firstByte(head []byte) byte {
	if t := bytes.TrimSpace(head); len(t) > 0 {
		return t[0]
	}
	return 0
}

// formatOf returns the format of the file at path whose first bytes are head (nil when they are not
// needed): by the extension of its name, in any case, else by head.
func formatOf(path string, head []byte) *format {
	ext := strings.ToLower(filepath.Ext(path))
	for i := range formats {
		if f := &formats[i]; f.ext == ext {
			return f
		}
	}
	if head == nil {
		return nil
	}
	for i := range formats {
		if f := &formats[i]; f.is(head) {
			return f
		}
	}
	return nil
}

// Open reads the model file at path and returns its graph, ready for Infer: an ONNX model (.onnx,
// or a file whose first byte is protobuf's tag of ModelProto.ir_version) as FromONNX reads it, with
// the external data files it names resolved relative to its directory; or an OpenVINO IR network
// (.xml, or a file that starts with '<') as FromIR reads it, with its constants in the .bin file
// beside it (OpenOptions.Weights), or without values when there is none (IR files are often
// published without their weights; Graph.IR gives nil weights); or a oneDNN Graph JSON file as
// benchdnn writes it (.json, or a file that starts with '{') as FromOneDNN reads it (Graph.OneDNN
// returns the decoded file).
//
// It reads only what shapes need: an ONNX file is mapped into memory (onnx.Open) and its tensor
// values are read when inference asks for them (the small integer constants of shapes and
// patterns, never the weights), so that a model of gigabytes of weights opens in the time and
// memory of its graph; an IR network reads its .bin by range, for the same constants. A file that
// is not a regular file (a pipe, /dev/stdin) is read whole, within OpenOptions.MaxBytes. The graph
// holds the mapping, or the open .bin, until Close: call Infer before Close. The Result of Infer
// does not need them, and stays valid after Close.
//
// Errors name path: an error of the file system wraps errcode.ErrIO (and keeps its chain:
// errors.Is(err, fs.ErrNotExist)), a *WeightsError for an IR network's .bin; a file that is not a
// model of the formats read, or does not follow its format, errcode.ErrSyntax; a file past
// OpenOptions.MaxBytes, errcode.ErrLimit.
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
	var b []byte // the whole file, when it is not a regular file
	if !st.Mode().IsRegular() {
		if b, err = io.ReadAll(io.LimitReader(f, limit+1)); err != nil {
			return nil, errcode.IO(err)
		}
		if int64(len(b)) > limit {
			return nil, errcode.Errorf(errcode.ErrLimit, "%s: more than the limit of %d bytes read into memory", path, limit)
		}
	}
	form := formatOf(path, nil)
	if form == nil {
		head := b
		if head == nil {
			var buf [512]byte
			n, err := io.ReadFull(f, buf[:])
			if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, errcode.IO(err)
			}
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return nil, errcode.IO(err)
			}
			head = buf[:n]
		}
		if form = formatOf(path, head); form == nil {
			return nil, notAModel(path)
		}
	}
	if b != nil {
		f = nil
	} else if form.ext != ".onnx" && st.Size() > limit { // an ONNX file is mapped: bounded by the bytes read
		return nil, errcode.Errorf(errcode.ErrLimit, "%s: the file is %d bytes, more than the limit of %d", path, st.Size(), limit)
	}
	return form.open(path, f, b, opt, limit)
}

// notAModel is the error of a file that is none of the formats Open reads.
func notAModel(path string) error {
	why := "want OpenVINO IR .xml, oneDNN Graph JSON .json or ONNX .onnx"
	if strings.EqualFold(filepath.Ext(path), ".bin") {
		why = "the weights of an OpenVINO IR model: check its .xml"
	}
	return errcode.Errorf(errcode.ErrSyntax, "%s: not a model file: %s", path, why)
}

// openONNX opens the ONNX model at path: mapped, reading at most limit bytes of it, or decoded from
// b, the whole file.
func openONNX(path string, _ *os.File, b []byte, _ OpenOptions, limit int64) (*Graph, error) {
	var m *onnx.Model
	var err error
	if b != nil {
		m, err = onnx.DecodeModel(b)
	} else {
		m, err = onnx.Open(path, limit)
	}
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

// WeightsError is Open's error for the .bin file of an OpenVINO IR network that cannot be opened:
// the .xml's path, the .bin's, and the error of the file system, which it wraps (Open marks it
// with errcode.ErrIO).
type WeightsError struct {
	Path, Weights string
	Err           error
}

// Error returns the network's path, "the weights: " and the error of the file system, which names
// the .bin.
func (e *WeightsError) Error() string { return e.Path + ": the weights: " + e.Err.Error() }

// Unwrap returns the error of the file system.
func (e *WeightsError) Unwrap() error { return e.Err }

// openIR reads the IR network of the .xml file f at path (or of b, the whole file), with the
// weights at opt.Weights ("" for the .bin beside it).
func openIR(path string, f *os.File, b []byte, opt OpenOptions, _ int64) (*Graph, error) {
	var r io.Reader = f
	if b != nil {
		r = bytes.NewReader(b)
	}
	net, err := ir.Decode(r)
	if err != nil {
		return nil, named(path, err)
	}
	bin := opt.Weights
	if bin == "" {
		bin = strings.TrimSuffix(path, filepath.Ext(path)) + ".bin"
	}
	w, err := ir.OpenWeights(bin)
	switch {
	case err == nil:
	case opt.Weights == "" && errors.Is(err, fs.ErrNotExist):
		// An IR network published without its weights: its constants have no values.
		w = nil
	default:
		return nil, errcode.IO(&WeightsError{Path: path, Weights: bin, Err: err})
	}
	g, err := FromIR(net, w)
	if err != nil {
		w.Close()
		return nil, named(path, err)
	}
	g.closer = &irFile{net: net, w: w}
	return g, nil
}

// oneDNNFile is what Open holds of a oneDNN Graph JSON file: the decoded graph.
type oneDNNFile struct{ g *onednn.Graph }

func (oneDNNFile) Close() error { return nil }

// openOneDNN decodes the oneDNN Graph JSON file f at path (or b, the whole file) into its graph
// (FromOneDNN), whose OneDNN returns the decoded file.
func openOneDNN(path string, f *os.File, b []byte, _ OpenOptions, _ int64) (*Graph, error) {
	var r io.Reader = f
	if b != nil {
		r = bytes.NewReader(b)
	}
	dg, err := onednn.Decode(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	g, err := FromOneDNN(dg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	g.closer = oneDNNFile{dg}
	return g, nil
}

// ONNX returns the ONNX model Open mapped g from, for what the graph does not keep (the model's
// bytes, to write shapes into them; its external data files): nil when Open read another format,
// when FromONNX or FromIR built g, and after Close.
func (g *Graph) ONNX() *onnx.Model {
	m, _ := g.closer.(*onnx.Model)
	return m
}

// OneDNN returns the oneDNN Graph Open decoded g from, for what the graph does not keep (each op's
// own declaration of its logical tensors: onednn.LogicalTensor.Declared): nil for a graph of
// another format, one FromOneDNN built, and after Close.
func (g *Graph) OneDNN() *onednn.Graph {
	f, _ := g.closer.(oneDNNFile)
	return f.g
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

// ModelFile reports whether the name of the file at path has the extension of a model format
// Open reads (.onnx, .xml, or .json for oneDNN Graph JSON), in any case.
func ModelFile(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	for i := range formats {
		if formats[i].ext == ext {
			return true
		}
	}
	return false
}

// NotModel says why the file at path, which has a model's extension (ModelFile), is not a model:
// an .xml file whose root element is not an IR <net>, a .json file that is not a JSON object with
// oneDNN Graph's "graph" key. It returns "" for a model, for a file that cannot be read or parsed
// that far (Open says what is wrong with it), and for an .onnx file, whatever its bytes.
func NotModel(path string) string {
	form := formatOf(path, nil)
	if form == nil || form.notModel == nil {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	return form.notModel(f)
}

// notIR says why an XML file is not an IR network: its root element is not <net>.
func notIR(r io.Reader) string {
	d := xml.NewDecoder(io.LimitReader(r, 1<<20))
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local == "net" {
				return ""
			}
			return "an XML file whose root element is <" + se.Name.Local + ">, not an OpenVINO IR <net>"
		}
	}
}

// notOneDNN reads a JSON value and says why it is not a oneDNN Graph model: not an object, or an
// object without the key "graph". It returns "" for one that has it, and for malformed JSON.
func notOneDNN(r io.Reader) string {
	d := json.NewDecoder(bufio.NewReader(r))
	tok, err := d.Token()
	if err != nil {
		return ""
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '{' {
		return "a JSON file that is not an object, as oneDNN Graph's are"
	}
	for d.More() {
		key, err := d.Token()
		if err != nil {
			return ""
		}
		if key == "graph" {
			return ""
		}
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return ""
		}
	}
	return `a JSON object without the key "graph" of oneDNN Graph's models`
}
