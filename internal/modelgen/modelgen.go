// Package modelgen writes the large ONNX models the benchmarks of reading and inference run on: a
// chain of MatMuls with embedded weights, an LLM-style decoder with its weights in external data,
// and a wide graph of small blocks. The models are generated, never committed.
package modelgen

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// Weight is a FLOAT initializer whose values a generator writes without holding them in memory:
// Dims elements, all zero.
type Weight struct {
	Name string
	Dims []int64
}

// size returns the weight's values in bytes.
func (w *Weight) size() int64 {
	n, _ := shape.Volume(w.Dims)
	return 4 * n
}

// header returns the TensorProto of w up to its raw_data's length: dims, data_type, name, and the
// tag and length of raw_data. Its values follow.
func (w *Weight) header() []byte {
	var b []byte
	for _, d := range w.Dims {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(d))
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(onnx.Float))
	b = protowire.AppendTag(b, 8, protowire.BytesType)
	b = protowire.AppendString(b, w.Name)
	b = protowire.AppendTag(b, 9, protowire.BytesType)
	return protowire.AppendVarint(b, uint64(w.size()))
}

// Write writes m as a ModelProto with the weights added to its main graph's initializers, their
// values in raw_data, streamed from a buffer of 1 MiB: the file holds every byte of them, and the
// writer never more than the buffer.
func Write(w io.Writer, m *onnx.Model, weights []Weight) error {
	b, err := onnx.EncodeModel(m)
	if err != nil {
		return err
	}
	// EncodeModel writes ir_version, then the graph, then the opset imports: the weights join the
	// graph field, as repeated fields of an embedded message may be appended to its bytes.
	var before, graph, after []byte
	for rest := b; len(rest) > 0; {
		num, typ, n := protowire.ConsumeTag(rest)
		k := protowire.ConsumeFieldValue(num, typ, rest[n:])
		if n < 0 || k < 0 {
			return fmt.Errorf("modelgen: EncodeModel wrote a malformed field %d", num)
		}
		if num == 7 {
			graph, _ = protowire.ConsumeBytes(rest[n:])
			before, after = b[:len(b)-len(rest)], rest[n+k:]
		}
		rest = rest[n+k:]
	}
	extra := int64(0)
	for i := range weights {
		h := int64(len(weights[i].header())) + weights[i].size()
		extra += int64(protowire.SizeTag(5)+protowire.SizeVarint(uint64(h))) + h
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.Write(before)
	bw.Write(protowire.AppendVarint(protowire.AppendTag(nil, 7, protowire.BytesType), uint64(int64(len(graph))+extra)))
	bw.Write(graph)
	fill := make([]byte, 1<<20)
	for i := range weights {
		wt := &weights[i]
		h := wt.header()
		bw.Write(protowire.AppendVarint(protowire.AppendTag(nil, 5, protowire.BytesType), uint64(int64(len(h))+wt.size())))
		bw.Write(h)
		for left := wt.size(); left > 0; {
			n := min(left, int64(len(fill)))
			if _, err := bw.Write(fill[:n]); err != nil {
				return err
			}
			left -= n
		}
	}
	bw.Write(after)
	return bw.Flush()
}

// builder builds a graph node by node, naming each output after its operator and a counter.
type builder struct {
	g onnx.Graph
	n int
}

// op adds a node of one output and returns the output's name.
func (b *builder) op(op string, ins []string, attrs ...onnx.Attribute) string {
	b.n++
	out := op + "_" + strconv.Itoa(b.n)
	b.g.Nodes = append(b.g.Nodes, onnx.Node{Name: "/" + out, OpType: op, Inputs: ins, Outputs: []string{out}, Attrs: attrs})
	return out
}

// ints adds a Constant node of 1-D INT64 values, as exporters write each constant where it is used.
func (b *builder) ints(v ...int64) string {
	t, _ := tensor.FromSlice(v, int64(len(v)))
	return b.constant(t)
}

// scalar adds a Constant node of a FLOAT scalar.
func (b *builder) scalar(v float32) string {
	t, _ := tensor.FromSlice([]float32{v})
	return b.constant(t)
}

func (b *builder) constant(t tensor.Tensor) string {
	pt, err := onnx.NewTensor("", t)
	if err != nil {
		panic(err) // the element types used here all have ONNX data types
	}
	return b.op("Constant", nil, onnx.Attribute{Name: "value", Type: onnx.AttrTensor, T: &pt})
}

func intAttr(name string, v int64) onnx.Attribute {
	return onnx.Attribute{Name: name, Type: onnx.AttrInt, I: v}
}

func intsAttr(name string, v ...int64) onnx.Attribute {
	return onnx.Attribute{Name: name, Type: onnx.AttrInts, Ints: v}
}

// valueInfo declares a tensor: its element type and dims, each an integer or a dim_param.
func valueInfo(name string, dt onnx.DataType, dims ...any) onnx.ValueInfo {
	vi := onnx.ValueInfo{Name: name, ElemType: dt, Shape: shape.Shape{Dims: make([]shape.Dim, len(dims))}, DimParams: make([]string, len(dims))}
	for i, d := range dims {
		switch d := d.(type) {
		case int:
			vi.Shape.Dims[i] = shape.Static(int64(d))
		case string:
			vi.Shape.Dims[i], vi.DimParams[i] = shape.Dynamic, d
		}
	}
	return vi
}

// Embedded writes a model of layers MatMuls, x [N,k] by a k×k FLOAT weight each, embedded as
// raw_data (layers·k²·4 bytes), then a Reshape of the result to [N,-1,64] by an INT64 initializer.
// Embedded(w, 24, 4096) is the 1.6 GB model of the benchmarks: 24 weights of 64 MiB.
func Embedded(w io.Writer, layers, k int) error {
	b := &builder{}
	b.g.Name = "embedded"
	b.g.Inputs = []onnx.ValueInfo{valueInfo("x", onnx.Float, "N", k)}
	var weights []Weight
	h := "x"
	for i := range layers {
		name := "w" + strconv.Itoa(i)
		weights = append(weights, Weight{Name: name, Dims: []int64{int64(k), int64(k)}})
		h = b.op("MatMul", []string{h, name})
	}
	pattern, _ := tensor.FromSlice([]int64{0, -1, 64}, 3)
	pt, err := onnx.NewTensor("pattern", pattern)
	if err != nil {
		return err
	}
	b.g.Initializers = append(b.g.Initializers, pt)
	out := b.op("Reshape", []string{h, "pattern"})
	b.g.Outputs = []onnx.ValueInfo{valueInfo(out, onnx.Float, "N", k/64, 64)}
	m := &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 17}}, Graph: b.g}
	return Write(w, m, weights)
}

// WriteFile creates the file at path and writes it with write; on an error the file is removed.
func WriteFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// external lays out the weights of a model in one external data file, each at an offset aligned
// to 4096 bytes as onnx's external data writer aligns large tensors.
type external struct {
	location string
	size     int64
	inits    []onnx.Tensor
}

// add declares a FLOAT weight of the given dims, stored in the external file, and returns its name.
func (e *external) add(name string, dims ...int64) string {
	n, _ := shape.Volume(dims)
	length := 4 * n
	e.inits = append(e.inits, onnx.Tensor{Name: name, Dims: dims, DataType: onnx.Float,
		External: &onnx.External{Location: e.location, Offset: e.size, Length: length}})
	e.size += (length + 4095) &^ 4095
	return name
}

// create makes the external data file in dir as a sparse file of its full size: the weights read
// as zeros, and take no disk space.
func (e *external) create(dir string) error {
	f, err := os.Create(filepath.Join(dir, e.location))
	if err != nil {
		return err
	}
	if err := f.Truncate(e.size); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// DecoderConfig sizes an LLM-style decoder: Llama-2-7B's sizes are Layers 32, Hidden 4096, Heads
// 32, Inter 11008, Vocab 32000, MaxPos 4096.
type DecoderConfig struct {
	Layers, Hidden, Heads, Inter, Vocab, MaxPos int
}

// Llama7B is the configuration of Llama-2-7B: 6.7 billion FLOAT weights, 27 GB of external data.
var Llama7B = DecoderConfig{Layers: 32, Hidden: 4096, Heads: 32, Inter: 11008, Vocab: 32000, MaxPos: 4096}

// Decoder writes an LLM-style decoder with a KV cache to dir/decoder.onnx, its FLOAT weights in
// dir/decoder.onnx.data (external data, a sparse file: it takes no disk space), and returns the
// model's path and its node count. Its inputs are input_ids [batch,seq], attention_mask
// [batch,total], position_ids [batch,seq] and, for each layer, past_key_values.I.key and .value
// [batch,heads,past,head_dim]; its outputs logits [batch,seq,vocab] and present.I.key and .value.
// Each layer is RMS-normalized attention with rotary embeddings and a SiLU-gated MLP, written as
// torch.onnx.export writes it (a Constant node for every constant, Shape → Gather → Unsqueeze →
// Concat for every computed pattern), with the attention unrolled head by head, as converters that
// trace a loop over heads write it. Llama7B gives 32 layers of 719 nodes, 23,050 nodes in all.
func Decoder(dir string, c DecoderConfig) (path string, nodes int, err error) {
	b := &builder{}
	b.g.Name = "decoder"
	ext := &external{location: "decoder.onnx.data"}
	d := c.Hidden / c.Heads
	b.g.Inputs = []onnx.ValueInfo{
		valueInfo("input_ids", onnx.Int64, "batch", "seq"),
		valueInfo("attention_mask", onnx.Int64, "batch", "total"),
		valueInfo("position_ids", onnx.Int64, "batch", "seq"),
	}
	for i := range c.Layers {
		for _, kv := range []string{"key", "value"} {
			b.g.Inputs = append(b.g.Inputs, valueInfo(fmt.Sprintf("past_key_values.%d.%s", i, kv), onnx.Float, "batch", c.Heads, "past", d))
		}
	}
	h := b.op("Gather", []string{ext.add("embed_tokens", int64(c.Vocab), int64(c.Hidden)), "input_ids"})
	cos, sin := ext.add("cos_cached", int64(c.MaxPos), int64(d)), ext.add("sin_cached", int64(c.MaxPos), int64(d))

	// The additive mask [batch,1,seq,total]: padding from attention_mask, and causal.
	pad := b.op("Cast", []string{b.op("Unsqueeze", []string{"attention_mask", b.ints(1, 2)})}, intAttr("to", int64(onnx.Float)))
	pad = b.op("Mul", []string{b.op("Sub", []string{b.scalar(1), pad}), b.scalar(-1e9)})
	seq := b.op("Gather", []string{b.op("Shape", []string{"input_ids"}), b.ints(1)})
	total := b.op("Gather", []string{b.op("Shape", []string{"attention_mask"}), b.ints(1)})
	one := b.ints(1)
	rows := b.op("Range", []string{b.op("Squeeze", []string{b.op("Sub", []string{total, seq})}), b.op("Squeeze", []string{total}), b.op("Squeeze", []string{one})})
	cols := b.op("Range", []string{b.op("Squeeze", []string{b.ints(0)}), b.op("Squeeze", []string{total}), b.op("Squeeze", []string{one})})
	causal := b.op("Less", []string{b.op("Unsqueeze", []string{rows, b.ints(1)}), cols})
	causal = b.op("Mul", []string{b.op("Cast", []string{causal}, intAttr("to", int64(onnx.Float))), b.scalar(-1e9)})
	mask := b.op("Add", []string{pad, causal})

	norm := func(x, w string) string {
		m := b.op("ReduceMean", []string{b.op("Pow", []string{x, b.scalar(2)})}, intsAttr("axes", -1), intAttr("keepdims", 1))
		r := b.op("Reciprocal", []string{b.op("Sqrt", []string{b.op("Add", []string{m, b.scalar(1e-6)})})})
		return b.op("Mul", []string{b.op("Mul", []string{x, r}), w})
	}
	// dims returns the pattern [batch, seq, rest...] computed from the shape of x.
	dims := func(x string, rest ...int64) string {
		bs := b.op("Gather", []string{b.op("Shape", []string{x}), b.ints(0)})
		sq := b.op("Gather", []string{b.op("Shape", []string{x}), b.ints(1)})
		return b.op("Concat", []string{bs, sq, b.ints(rest...)}, intAttr("axis", 0))
	}
	heads := func(x, like string) string {
		r := b.op("Reshape", []string{x, dims(like, int64(c.Heads), int64(d))})
		return b.op("Transpose", []string{r}, intsAttr("perm", 0, 2, 1, 3))
	}
	for i := range c.Layers {
		l := "layers." + strconv.Itoa(i) + "."
		hidden, inter := int64(c.Hidden), int64(c.Inter)
		hn := norm(h, ext.add(l+"input_layernorm.weight", hidden))
		q := heads(b.op("MatMul", []string{hn, ext.add(l+"q_proj.weight", hidden, hidden)}), hn)
		k := heads(b.op("MatMul", []string{hn, ext.add(l+"k_proj.weight", hidden, hidden)}), hn)
		v := heads(b.op("MatMul", []string{hn, ext.add(l+"v_proj.weight", hidden, hidden)}), hn)
		cu := b.op("Unsqueeze", []string{b.op("Gather", []string{cos, "position_ids"}), b.ints(1)})
		su := b.op("Unsqueeze", []string{b.op("Gather", []string{sin, "position_ids"}), b.ints(1)})
		rotary := func(x string) string {
			half := int64(d / 2)
			x1 := b.op("Slice", []string{x, b.ints(0), b.ints(half), b.ints(3), b.ints(1)})
			x2 := b.op("Slice", []string{x, b.ints(half), b.ints(1 << 62), b.ints(3), b.ints(1)})
			rot := b.op("Concat", []string{b.op("Neg", []string{x2}), x1}, intAttr("axis", -1))
			return b.op("Add", []string{b.op("Mul", []string{x, cu}), b.op("Mul", []string{rot, su})})
		}
		q, k = rotary(q), rotary(k)
		pk := b.op("Concat", []string{fmt.Sprintf("past_key_values.%d.key", i), k}, intAttr("axis", 2))
		pv := b.op("Concat", []string{fmt.Sprintf("past_key_values.%d.value", i), v}, intAttr("axis", 2))
		b.g.Outputs = append(b.g.Outputs,
			valueInfo(pk, onnx.Float, "batch", c.Heads, "total", d), valueInfo(pv, onnx.Float, "batch", c.Heads, "total", d))
		axes, scale := b.ints(1), b.scalar(float32(d))
		outs := make([]string, c.Heads)
		for j := range c.Heads {
			at := func(x string) string {
				return b.op("Slice", []string{x, b.ints(int64(j)), b.ints(int64(j + 1)), axes, b.ints(1)})
			}
			qh, kh, vh := at(q), at(pk), at(pv)
			s := b.op("MatMul", []string{qh, b.op("Transpose", []string{kh}, intsAttr("perm", 0, 1, 3, 2))})
			s = b.op("Add", []string{b.op("Div", []string{s, b.op("Sqrt", []string{scale})}), mask})
			outs[j] = b.op("MatMul", []string{b.op("Softmax", []string{s}, intAttr("axis", -1)), vh})
		}
		o := b.op("Transpose", []string{b.op("Concat", outs, intAttr("axis", 1))}, intsAttr("perm", 0, 2, 1, 3))
		o = b.op("Reshape", []string{o, dims(o, hidden)})
		h = b.op("Add", []string{h, b.op("MatMul", []string{o, ext.add(l+"o_proj.weight", hidden, hidden)})})
		hn = norm(h, ext.add(l+"post_attention_layernorm.weight", hidden))
		g := b.op("MatMul", []string{hn, ext.add(l+"gate_proj.weight", hidden, inter)})
		up := b.op("MatMul", []string{hn, ext.add(l+"up_proj.weight", hidden, inter)})
		act := b.op("Mul", []string{b.op("Mul", []string{g, b.op("Sigmoid", []string{g})}), up})
		h = b.op("Add", []string{h, b.op("MatMul", []string{act, ext.add(l+"down_proj.weight", inter, hidden)})})
	}
	h = norm(h, ext.add("norm.weight", int64(c.Hidden)))
	logits := b.op("MatMul", []string{h, ext.add("lm_head.weight", int64(c.Hidden), int64(c.Vocab))})
	b.g.Outputs = append([]onnx.ValueInfo{valueInfo(logits, onnx.Float, "batch", "seq", c.Vocab)}, b.g.Outputs...)
	b.g.Initializers = ext.inits
	if err := ext.create(dir); err != nil {
		return "", 0, err
	}
	m := &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 17}}, Graph: b.g}
	path = filepath.Join(dir, "decoder.onnx")
	return path, len(b.g.Nodes), WriteFile(path, func(w io.Writer) error { return Write(w, m, nil) })
}

// Wide writes a model of blocks of 10 nodes each, x [N,64,8,8] flattened to [N,64,64] by a
// Reshape, transposed, scaled, shifted, rectified, transposed and reshaped back, added to the block's
// input and gated by its sigmoid: 10·blocks nodes over 4 small initializers.
func Wide(w io.Writer, blocks int) error {
	b := &builder{}
	b.g.Name = "wide"
	b.g.Inputs = []onnx.ValueInfo{valueInfo("x", onnx.Float, "N", 64, 8, 8)}
	for _, in := range []struct {
		name string
		t    func() (tensor.Tensor, error)
	}{
		{"flat", func() (tensor.Tensor, error) { return tensor.FromSlice([]int64{0, 64, -1}, 3) }},
		{"back", func() (tensor.Tensor, error) { return tensor.FromSlice([]int64{0, 64, 8, 8}, 4) }},
		{"bias", func() (tensor.Tensor, error) { return tensor.FromSlice(make([]float32, 64), 64) }},
		{"scale", func() (tensor.Tensor, error) { return tensor.FromSlice(make([]float32, 64), 64) }},
	} {
		t, err := in.t()
		if err == nil {
			var pt onnx.Tensor
			if pt, err = onnx.NewTensor(in.name, t); err == nil {
				b.g.Initializers = append(b.g.Initializers, pt)
			}
		}
		if err != nil {
			return err
		}
	}
	h := "x"
	for range blocks {
		r := b.op("Transpose", []string{b.op("Reshape", []string{h, "flat"})}, intsAttr("perm", 0, 2, 1))
		r = b.op("Relu", []string{b.op("Add", []string{b.op("Mul", []string{r, "scale"}), "bias"})})
		r = b.op("Reshape", []string{b.op("Transpose", []string{r}, intsAttr("perm", 0, 2, 1)), "back"})
		a := b.op("Add", []string{r, h})
		h = b.op("Mul", []string{a, b.op("Sigmoid", []string{a})})
	}
	b.g.Outputs = []onnx.ValueInfo{valueInfo(h, onnx.Float, "N", 64, 8, 8)}
	m := &onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 17}}, Graph: b.g}
	return Write(w, m, nil)
}
