package conformance

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// NodeTestOptions bound what RunNodeTest reads.
type NodeTestOptions struct {
	// MaxRank bounds ranks as reshape.Options.MaxRank does.
	MaxRank int
	// MaxBytes bounds each file read (the model, a .pb file) and each tensor's external data, in
	// bytes; 0 means DefaultMaxBytes.
	MaxBytes int64
}

// DefaultMaxBytes is the default of NodeTestOptions.MaxBytes: 2 GiB, protobuf's own bound.
const DefaultMaxBytes = 2 << 30

// SetResult is the outcome of one data set of a node test: it passes when FileErr and Err are nil
// and Mismatch is "".
type SetResult struct {
	// Set is the data set's directory, DIR/test_data_set_N.
	Set string
	// FileErr is the error of reading one of the data set's files (input_0.pb, input_1.pb,
	// output_0.pb: missing, malformed, over the size bound); the set did not run.
	FileErr error
	// Err is the error of the reshape, with its code.
	Err error
	// Mismatch says how the result differs from output_0.pb: its element type, its shape, or its
	// data (the first index that differs, and both values). It is "" when they agree.
	Mismatch string
}

// Pass reports whether the data set passes.
func (r SetResult) Pass() bool { return r.FileErr == nil && r.Err == nil && r.Mismatch == "" }

// RunNodeTest runs the ONNX backend node test in dir, whose model.onnx must be a single Reshape
// node (ONNX Reshape-1 to Reshape-21, its options as package graph's Reshape rule reads them,
// graph.ReadReshape): for each test_data_set_*
// directory, in lexical order, it reshapes input_0.pb by the pattern in input_1.pb (by the shape
// attribute for Reshape-1) with reshape.Apply, and compares the result with output_0.pb: element
// type, shape, then every element's bytes. The error is for a test that cannot be run: a directory
// or model that cannot be read, a model that is not a single Reshape, no data set.
func RunNodeTest(dir string, opt NodeTestOptions) ([]SetResult, error) {
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultMaxBytes
	}
	path := filepath.Join(dir, "model.onnx")
	b, err := readFile(path, opt.MaxBytes)
	if err != nil {
		return nil, err
	}
	m, err := onnx.DecodeModel(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	_, ok := m.Opset("")
	switch {
	case !ok:
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: the model imports no opset of the default ONNX domain", path)
	case len(m.Graph.Nodes) != 1 || m.Graph.Nodes[0].OpType != "Reshape":
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: the model is not a single Reshape node", path)
	}
	node, err := readReshape(m, dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	node.Options.MaxRank = opt.MaxRank
	sets, _ := filepath.Glob(filepath.Join(dir, "test_data_set_*"))
	if len(sets) == 0 {
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: no test_data_set_* directory", dir)
	}
	slices.Sort(sets)
	results := make([]SetResult, 0, len(sets))
	for _, set := range sets {
		results = append(results, runDataSet(set, node, opt.MaxBytes))
	}
	return results, nil
}

// readReshape returns what the Reshape rule of package graph reads of the single Reshape node of the
// model m of the directory dir (graph.ReadReshape): its options and version, and the values of
// Reshape-1's shape attribute. The error is that of a graph FromONNX refuses, or of a node that
// does not follow its form, naming it.
func readReshape(m *onnx.Model, dir string) (graph.Reshape, error) {
	g, err := graph.FromONNX(m, dir)
	if err != nil {
		return graph.Reshape{}, err
	}
	node, ok := graph.ReadReshape(&g.Nodes[0])
	switch {
	case !ok:
		return node, errcode.Errorf(errcode.ErrSyntax, "node 0 (Reshape): not of the default ONNX domain")
	case node.Err != nil:
		return node, fmt.Errorf("node 0 (Reshape): %w", node.Err)
	}
	return node, nil
}

// NodeTestDirs returns the node test directories that path names: path itself when it holds a
// model.onnx, otherwise its subdirectories that hold one, in lexical order, as
// ../shared/conformance/onnx/ holds the ONNX backend tests of Reshape. The error is the file
// system's, or one wrapping errcode.ErrSyntax when path holds no node test.
func NodeTestDirs(path string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(path, "model.onnx")); err == nil {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(path, e.Name(), "model.onnx")); e.IsDir() && err == nil {
			dirs = append(dirs, filepath.Join(path, e.Name()))
		}
	}
	if len(dirs) == 0 {
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s: no model.onnx in it or in its subdirectories: not an ONNX node test", path)
	}
	return dirs, nil
}

// readFile reads a file of at most maxBytes.
func readFile(path string, maxBytes int64) ([]byte, error) {
	if st, err := os.Stat(path); err == nil && st.Size() > maxBytes {
		return nil, errcode.Errorf(errcode.ErrLimit, "%s: the file is %d bytes, more than the limit of %d", path, st.Size(), maxBytes)
	}
	return os.ReadFile(path)
}

// loadTensor reads a TensorProto file as a tensor.
func loadTensor(path string, maxBytes int64) (tensor.Tensor, error) {
	pb, err := onnx.ReadTensorFile(path, maxBytes)
	if err != nil {
		return tensor.Tensor{}, err
	}
	t, err := pb.Tensor()
	if err != nil {
		return t, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// runDataSet runs one data set: its files are read first, every one of them, then the reshape
// runs and its result is compared with output_0.pb.
func runDataSet(set string, node graph.Reshape, maxBytes int64) SetResult {
	r := SetResult{Set: set}
	data, err := loadTensor(filepath.Join(set, "input_0.pb"), maxBytes)
	if err != nil {
		r.FileErr = err
		return r
	}
	opt := node.Options
	var pattern reshape.Pattern
	if node.Version == 1 {
		values := make([]int64, len(node.Pattern))
		for i, d := range node.Pattern {
			values[i], _ = d.Static()
		}
		pattern = reshape.IntPattern(values...)
	} else {
		p, err := loadTensor(filepath.Join(set, "input_1.pb"), maxBytes)
		if err != nil {
			r.FileErr = err
			return r
		}
		if pattern, opt.PatternType, err = reshape.PatternFromTensor(p); err != nil {
			r.FileErr = fmt.Errorf("%s: %w", filepath.Join(set, "input_1.pb"), err)
			return r
		}
	}
	want, err := loadTensor(filepath.Join(set, "output_0.pb"), maxBytes)
	if err != nil {
		r.FileErr = err
		return r
	}
	got, _, err := reshape.Apply(data, pattern, opt)
	if err != nil {
		r.Err = err
		return r
	}
	r.Mismatch = compareTensors(got, want)
	return r
}

// compareTensors says how got differs from want, the tensor of output_0.pb: element type, shape,
// then the first element that differs; "" when they agree.
func compareTensors(got, want tensor.Tensor) string {
	switch {
	case got.Type() != want.Type():
		return fmt.Sprintf("element type %v, want %v (output_0.pb)", got.Type(), want.Type())
	case !slices.Equal(got.Shape(), want.Shape()):
		return fmt.Sprintf("shape %s, want %s (output_0.pb)", shape.FormatInts(got.Shape()), shape.FormatInts(want.Shape()))
	}
	if i, ok := firstDiff(got, want); ok {
		g, w := tensor.Float64s(got), tensor.Float64s(want)
		return fmt.Sprintf("the data differs from output_0.pb at index %s: %s, want %s",
			shape.FormatInts(unravel(i, got.Shape())), formatValue(g[i]), formatValue(w[i]))
	}
	return ""
}

// firstDiff returns the row-major index of the first element whose bytes differ in a and b, two
// tensors of one element type and shape; ok is false when none does.
func firstDiff(a, b tensor.Tensor) (i int64, ok bool) {
	ab, _ := a.Contiguous().Bytes()
	bb, _ := b.Contiguous().Bytes()
	if bytes.Equal(ab, bb) {
		return 0, false
	}
	if a.Type().IsPacked() { // compare element values, a byte holding several
		av, bv := tensor.Float64s(a), tensor.Float64s(b)
		for i := range av {
			if av[i] != bv[i] {
				return int64(i), true
			}
		}
		return 0, false // only the padding bits of the last byte differ
	}
	size := int64(a.Type().Bits() / 8)
	for k := range ab {
		if ab[k] != bb[k] {
			return int64(k) / size, true
		}
	}
	return 0, false
}

// unravel returns the multi-index of the row-major index i in a tensor of shape dims.
func unravel(i int64, dims []int64) []int64 {
	idx := make([]int64, len(dims))
	for k := len(dims) - 1; k >= 0; k-- {
		idx[k] = i % dims[k]
		i /= dims[k]
	}
	return idx
}

func formatValue(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
