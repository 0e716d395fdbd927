package onnx

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/reshape-go/reshape/errcode"
)

// External says where the values of a tensor stored outside the model lie: TensorProto.external_data
// (field 13, a list of StringStringEntryProto key=value pairs) with data_location (field 14)
// EXTERNAL, as onnx.proto defines them. The values are in raw_data's form (fixed-width
// little-endian, sub-byte types packed), Length bytes at Offset of the file Location.
type External struct {
	// Location is the file's path relative to the directory of the model (or TensorProto file),
	// with "/" separators.
	Location string
	// Offset is where the values start in the file, in bytes (key "offset", default 0).
	Offset int64
	// Length is the values' size in bytes (key "length"), or -1 when the model does not say: the
	// size of the tensor's elements.
	Length int64
	// Checksum is the SHA-1 digest of the values the model states (key "checksum"), or "". It is
	// kept, not verified.
	Checksum string
}

var entryFields = names{1: "key", 2: "value"}

// decodeEntry decodes a StringStringEntryProto: key (field 1) and value (field 2).
func decodeEntry(m *message) (key, value string, err error) {
	var f field
	for m.more() {
		err := m.next(&f)
		if err == nil {
			switch f.num {
			case 1:
				key, err = f.str()
			case 2:
				value, err = f.str()
			default:
				f.skip()
			}
		}
		if err != nil {
			return key, value, err
		}
	}
	return key, value, nil
}

// setExternal builds t.External from the external_data entries, for a tensor whose data_location is
// EXTERNAL; tag is the offset of the data_location field, for errors.
func (t *Tensor) setExternal(entries [][2]string, tag int) error {
	e := &External{Length: -1}
	for _, kv := range entries {
		switch kv[0] {
		case "location":
			e.Location = kv[1]
		case "offset", "length":
			n, err := strconv.ParseInt(kv[1], 10, 64)
			if err != nil || n < 0 {
				return errcode.Errorf(errcode.ErrSyntax, "tensor %q: TensorProto.external_data: %s=%q is not a byte count", t.Name, kv[0], kv[1])
			}
			if kv[0] == "offset" {
				e.Offset = n
			} else {
				e.Length = n
			}
		case "checksum":
			e.Checksum = kv[1]
		}
	}
	if e.Location == "" {
		return errcode.Errorf(errcode.ErrSyntax, "tensor %q: TensorProto.data_location is EXTERNAL, but external_data has no location at offset %d", t.Name, tag)
	}
	t.External = e
	return nil
}

// checkExternal checks a tensor whose values are external: they are not in the file as well, their
// data type has a fixed width, and a stated length is the size of the elements.
func (t *Tensor) checkExternal() error {
	if t.field != 0 {
		return errcode.Errorf(errcode.ErrSyntax, "tensor %q: the values are in external data and in TensorProto.%s", t.Name, tensorFields[t.field])
	}
	if t.DataType == String {
		return errcode.Errorf(errcode.ErrSyntax, "tensor %q: STRING values cannot be in external data", t.Name)
	}
	size, err := t.rawSize()
	if err != nil {
		return err
	}
	if t.External.Length >= 0 && t.External.Length != size {
		return errcode.Errorf(errcode.ErrSyntax, "tensor %q: external data length=%d, but %v of %v takes %d bytes",
			t.Name, t.External.Length, t.Dims, t.DataType, size)
	}
	return nil
}

// ReadExternal returns t with its values read from its external data file (External): a copy of t
// holding them in raw_data, or t itself when its values are in the model. dir is the directory of
// the model or TensorProto file; the location is resolved inside it and may not leave it, neither by
// its path (absolute, or through "..") nor through a symbolic link. Only the tensor's own bytes are
// read, after their extent is checked against the file's size, and at most maxBytes of them.
//
// Errors wrap errcode.ErrLimit for values larger than maxBytes, and errcode.ErrSyntax for a location
// outside dir, a file that cannot be opened, or values past its end; they name the tensor and the file.
func (t *Tensor) ReadExternal(dir string, maxBytes int64) (*Tensor, error) {
	e := t.External
	if e == nil {
		return t, nil
	}
	size, err := t.rawSize()
	if err != nil {
		return nil, err
	}
	if size > maxBytes {
		return nil, errcode.Errorf(errcode.ErrLimit, "tensor %q: %d bytes of external data exceed the limit of %d", t.Name, size, maxBytes)
	}
	loc := filepath.FromSlash(e.Location)
	if !filepath.IsLocal(loc) {
		return nil, errcode.Errorf(errcode.ErrSyntax, "tensor %q: external data location %q is outside the model's directory", t.Name, e.Location)
	}
	path := filepath.Join(dir, loc)
	f, err := os.OpenInRoot(dir, loc)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, errcode.Errorf(errcode.ErrSyntax, "tensor %q: external data %s: %v", t.Name, path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, errcode.Errorf(errcode.ErrSyntax, "tensor %q: external data %s: %v", t.Name, path, err)
	}
	if e.Offset > st.Size() || size > st.Size()-e.Offset {
		return nil, errcode.Errorf(errcode.ErrSyntax, "tensor %q: external data %s: offset %d + size %d is past the end of the file (%d bytes)",
			t.Name, path, e.Offset, size, st.Size())
	}
	b := make([]byte, size)
	if _, err := f.ReadAt(b, e.Offset); err != nil && err != io.EOF {
		return nil, errcode.Errorf(errcode.ErrSyntax, "tensor %q: external data %s: %v", t.Name, path, err)
	}
	u := *t
	u.External, u.src, u.field, u.spans, u.count = nil, &source{b: b}, rawData, []span{{0, len(b)}}, size
	return &u, nil
}

// ReadTensorFile reads the TensorProto file at path (DecodeTensor), and its values from external
// data relative to the file's directory when they are there (ReadExternal). The file and its values
// may be at most maxBytes long each: beyond, the error wraps errcode.ErrLimit before anything is
// read. Other errors are those of DecodeTensor and ReadExternal, and the file's own, and name path.
func ReadTensorFile(path string, maxBytes int64) (*Tensor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > maxBytes {
		return nil, errcode.Errorf(errcode.ErrLimit, "%s: the file is %d bytes, more than the limit of %d", path, st.Size(), maxBytes)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > maxBytes {
		return nil, errcode.Errorf(errcode.ErrLimit, "%s: more than the limit of %d bytes", path, maxBytes)
	}
	t, err := DecodeTensor(b)
	if err == nil {
		t, err = t.ReadExternal(filepath.Dir(path), maxBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// rawSize returns the size of the tensor's elements in raw_data's form, in bytes.
func (t *Tensor) rawSize() (int64, error) {
	if !t.DataType.known() || dataTypes[t.DataType].bits == 0 {
		return 0, errcode.Errorf(errcode.ErrDataType, "tensor %q: ONNX data type %v has no fixed size", t.Name, t.DataType)
	}
	bits, err := t.bits()
	if err != nil {
		return 0, err
	}
	return bits/8 + min(bits%8, 1), nil
}

// encodeExternal appends the external_data entries and data_location EXTERNAL of e.
func encodeExternal(b []byte, e *External) []byte {
	entry := func(k, v string) {
		b = appendBytes(b, 13, appendBytes(appendBytes(nil, 1, []byte(k)), 2, []byte(v)))
	}
	entry("location", e.Location)
	if e.Offset != 0 {
		entry("offset", strconv.FormatInt(e.Offset, 10))
	}
	if e.Length >= 0 {
		entry("length", strconv.FormatInt(e.Length, 10))
	}
	if e.Checksum != "" {
		entry("checksum", e.Checksum)
	}
	b = protowire.AppendTag(b, 14, protowire.VarintType)
	return protowire.AppendVarint(b, 1)
}

// ExternalFiles returns the external data files that the tensors of g and its subgraphs
// (initializers, the values of Constant nodes and other TENSOR attributes) keep their values in,
// each once, in the order met: their External.Location, relative to the model's directory.
func (g *Graph) ExternalFiles() []string { return g.externalFiles(nil) }

func (g *Graph) externalFiles(files []string) []string {
	add := func(t *Tensor) {
		if t != nil && t.External != nil && !slices.Contains(files, t.External.Location) {
			files = append(files, t.External.Location)
		}
	}
	for i := range g.Initializers {
		add(&g.Initializers[i])
	}
	for i := range g.Nodes {
		for k := range g.Nodes[i].Attrs {
			a := &g.Nodes[i].Attrs[k]
			add(a.T)
			for j := range a.Tensors {
				add(&a.Tensors[j])
			}
			if a.G != nil {
				files = a.G.externalFiles(files)
			}
			for j := range a.Graphs {
				files = a.Graphs[j].externalFiles(files)
			}
		}
	}
	return files
}

// CheckExternalDir returns an error wrapping errcode.ErrSyntax when a model read from the directory
// from, whose tensors keep their values in the external data files files (Graph.ExternalFiles,
// relative to from), cannot be written into the directory to: one of the files is there and is not
// the same file from to, or is not there from to, so that the model written would name a file that
// is not beside it. A file missing from from already is no reason to refuse.
func CheckExternalDir(files []string, from, to string) error {
	for _, loc := range files {
		a, errA := os.Stat(filepath.Join(from, filepath.FromSlash(loc)))
		b, errB := os.Stat(filepath.Join(to, filepath.FromSlash(loc)))
		if errA != nil || errB == nil && os.SameFile(a, b) {
			continue // missing beside the model already, or the same file
		}
		return errcode.Errorf(errcode.ErrSyntax, "the model keeps tensor values in the external data file %s, named relative to its directory %s: "+
			"written into %s, it would name a file that is not there; write it into %s, or put the data files beside it", loc, from, to, from)
	}
	return nil
}
