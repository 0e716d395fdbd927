package check

import (
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/sym"
)

// Absorbed is a Reshape that multiplies the batch into another axis that a later node mixes
// across: shapes infer and a run succeeds at any batch, yet at a batch above the one the pattern
// was exported with the samples mix there, and the outputs are wrong (OpenVINO PR #37127: SwinIR
// reshaped to batch 2, a -1 absorbing the batch into the channels, 180 → 360).
type Absorbed struct {
	// Reshape is the Reshape's path, Batch the batch symbol, and Axis the output axis of dim Dim
	// that holds the batch times other factors.
	Reshape string  `json:"reshape"`
	Batch   string  `json:"batch"`
	Axis    int     `json:"axis"`
	Dim     sym.Dim `json:"dim"`
	// Mixer is the path of the node that mixes across the axis, MixerOp its operator, and Why how
	// ("contracts axis 1", "normalizes over axis 1").
	Mixer   string `json:"mixer"`
	MixerOp string `json:"mixer_op"`
	Why     string `json:"why"`
}

// String returns "RESHAPE absorbs the batch B into axis K (DIM); MIXER (OP) WHY: ...".
func (a Absorbed) String() string {
	return a.Reshape + " absorbs the batch " + a.Batch + " into axis " + strconv.Itoa(a.Axis) + " (" + a.Dim.String() + "); " +
		a.Mixer + " (" + a.MixerOp + ") " + a.Why + ": at a batch above 1 the samples mix, and the outputs are wrong"
}

// FindAbsorbed returns the Reshapes of the main graph g, inferred as res, that absorb a batch
// symbol, the symbol of a graph input's batch dim (graph.Input.BatchAxis), into an axis that a node
// downstream mixes across: through nodes that keep their input's shape, a Softmax over the axis, a
// MatMul or Gemm contracting it, a convolution's channels, a normalization or reduction over it.
// Report.Absorbed holds them for a model; package fix refuses a rewrite that makes one.
func FindAbsorbed(g *graph.Graph, res *graph.Result) []Absorbed {
	var batches []string
	for _, in := range g.Inputs {
		axis := in.BatchAxis()
		info := res.Tensor(in.Name)
		if axis < 0 || info == nil || info.Shape.RankDynamic || axis >= len(info.Shape.Dims) {
			continue
		}
		if x, ok := info.Shape.Dims[axis].Expr(); ok {
			if name, anon, ok := x.Symbol(); ok && !anon {
				batches = append(batches, name)
			}
		}
	}
	if len(batches) == 0 {
		return nil
	}
	consumers := map[string][]*graph.NodeResult{} // of the main graph's tensors
	for i := range res.Nodes {
		r := &res.Nodes[i]
		if r.Graph != g {
			continue
		}
		for _, name := range r.Node.Inputs {
			consumers[name] = append(consumers[name], r)
		}
	}
	var out []Absorbed
	for i := range res.Nodes {
		r := &res.Nodes[i]
		if r.Graph != g || r.Node.Op != "Reshape" || r.Err != nil || len(r.Outputs) == 0 || r.Outputs[0] == nil || r.Outputs[0].Shape.RankDynamic {
			continue
		}
		for k, d := range r.Outputs[0].Shape.Dims {
			x, ok := d.Expr()
			if !ok {
				continue
			}
			for _, b := range batches {
				if name, _, alone := x.Symbol(); !x.Mentions(b) || alone && name == b {
					continue
				}
				if m, why, ok := mixer(consumers, r.Node.Outputs[0], k, 0); ok {
					out = append(out, Absorbed{Reshape: r.Path, Batch: b, Axis: k, Dim: d, Mixer: m.Path, MixerOp: m.Node.Op, Why: why})
				}
			}
		}
	}
	return out
}

// maxHops bounds the shape-keeping nodes absorbed follows from a Reshape to a mixer.
const maxHops = 16

// mixer returns the first node downstream of tensor that mixes across its axis k, following the
// nodes that keep the shape of their input 0.
func mixer(consumers map[string][]*graph.NodeResult, tensor string, k, hops int) (*graph.NodeResult, string, bool) {
	if hops > maxHops {
		return nil, "", false
	}
	for _, c := range consumers[tensor] {
		if c.Err != nil || len(c.Outputs) == 0 || c.Outputs[0] == nil {
			continue
		}
		for i, name := range c.Node.Inputs {
			if name != tensor || i >= len(c.Inputs) || c.Inputs[i] == nil {
				continue
			}
			if why, ok := mixes(c, i, k); ok {
				return c, why, true
			}
			if i == 0 && c.Outputs[0].Shape.String() == c.Inputs[0].Shape.String() {
				if m, why, ok := mixer(consumers, c.Node.Outputs[0], k, hops+1); ok {
					return m, why, true
				}
			}
		}
	}
	return nil, "", false
}

// mixes reports whether the node c mixes its input i across axis k, and how.
func mixes(c *graph.NodeResult, i, k int) (string, bool) {
	rank := len(c.Inputs[i].Shape.Dims)
	if c.Inputs[i].Shape.RankDynamic || rank == 0 {
		return "", false
	}
	norm := func(a int64) int {
		if a < 0 {
			a += int64(rank)
		}
		return int(a)
	}
	attr := func(name string, def int64) int64 {
		a, ok := c.Node.Attr(name)
		if !ok {
			return def
		}
		if a.Kind == graph.AttrText {
			if v, err := strconv.ParseInt(strings.TrimSpace(a.Text), 10, 64); err == nil {
				return v
			}
			if b, err := strconv.ParseBool(a.Text); err == nil && b {
				return 1
			}
			return def
		}
		return a.Int
	}
	axis := "axis " + strconv.Itoa(k)
	switch op := c.Node.Op; op {
	case "Softmax", "SoftMax", "LogSoftmax", "LogSoftMax":
		def := int64(1) // OpenVINO's SoftMax, ONNX's before opset 13
		if c.Node.Domain == "" && c.Node.Version >= 13 {
			def = -1
		}
		if i == 0 && norm(attr("axis", def)) == k {
			return "normalizes over " + axis, true
		}
	case "MatMul", "Gemm":
		ta, tb := attr("transpose_a", attr("transA", 0)), attr("transpose_b", attr("transB", 0))
		contracted := rank - 1 // of input 0; of input 1, the one before
		if i == 0 && ta != 0 || i == 1 && tb == 0 {
			contracted = rank - 2
		}
		if i <= 1 && contracted == k {
			return "contracts " + axis, true
		}
	case "Conv", "Convolution", "GroupConvolution", "ConvTranspose", "ConvolutionBackpropData":
		if i == 0 && k == 1 {
			return "contracts the channels, " + axis, true
		}
	case "LayerNormalization":
		if i == 0 && k >= norm(attr("axis", -1)) {
			return "normalizes over " + axis, true
		}
	case "MVN", "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "NormalizeL2":
		if i != 0 || len(c.Inputs) < 2 || c.Inputs[1] == nil {
			return "", false
		}
		axes, ok := c.Inputs[1].Ints()
		for _, a := range axes {
			if ok && norm(a) == k {
				return "reduces over " + axis, true
			}
		}
	}
	return "", false
}

// freeBatch returns the options of inference that make the static batch dim of every graph input
// the symbol BatchSymbol (graph.Graph.FreeBatch), the other dims as declared (a dynamic batch
// stays the model's symbol), and the inputs whose batch they free, in the model's order, when the
// options bind nothing but the batch (Options.BatchSize, which the options leave free) and some
// input has a batch dim; ok is false otherwise.
func freeBatch(g *graph.Graph, opt Options) (free graph.Options, freed []string, ok bool) {
	if len(opt.Inputs) > 0 || len(opt.Dims) > 0 {
		return graph.Options{}, nil, false
	}
	inputs := g.FreeBatch()
	for _, in := range g.Inputs {
		if _, set := inputs[in.Name]; set {
			freed = append(freed, in.Name)
		}
		ok = ok || in.BatchAxis() >= 0
	}
	return graph.Options{Inputs: inputs, MaxRank: opt.MaxRank, SharedDims: true}, freed, ok
}
