package fix

import (
	"strconv"

	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/sym"
	"github.com/reshape-go/reshape/tensor"
)

// How a baked value is rewritten, in the order fix prefers them (Change.How).
const (
	HowCopy    = "copy"    // 0: copies the input dim at its index (ONNX allowzero=0)
	HowInfer   = "infer"   // -1: inferred from the volume
	HowCompute = "compute" // Shape → Gather (→ ReduceProd) → Concat: read from the input's shape
)

// Change is one baked value of a pattern and what stands in its place.
type Change struct {
	// Index is the value's index in the pattern, Value the value.
	Index int   `json:"index"`
	Value int64 `json:"value"`
	// Dims are the input dims it stands for, from Dims[0] to Dims[1]-1 (one dim, or a run that
	// the value merges), and Dim their product: the expression it equals at the export binding.
	Dims [2]int  `json:"dims"`
	Dim  sym.Dim `json:"dim"`
	// How is HowCopy, HowInfer or HowCompute.
	How string `json:"how"`
}

// slot is what one value of a new pattern is: a constant, the old pattern's value kept (a computed
// one), or the product of input dims lo to hi-1 read from the input's shape.
type slot struct {
	kind   slotKind
	n      int64
	lo, hi int
}

type slotKind uint8

const (
	slotConst slotKind = iota
	slotKeep
	slotShape
)

// newPattern returns the values of the pattern of values pat (of a Reshape of input in) with the
// pairs of a rewritten, and the changes: each pair becomes a 0 when it is one input dim at its own
// index and zeros copy (allowzero false), else a -1 when the pattern has none yet, else the
// product of its dims read from the input's shape.
func newPattern(in, pat []sym.Dim, a alignment, allowzero bool) ([]slot, []Change) {
	slots := make([]slot, len(pat))
	minus := false
	for o, v := range pat {
		n, ok := v.Static()
		switch {
		case ok:
			slots[o] = slot{kind: slotConst, n: n}
			minus = minus || n == -1
		default:
			slots[o] = slot{kind: slotKeep}
		}
	}
	changes := make([]Change, len(a))
	for k, p := range a {
		c := Change{Index: p.out, Value: p.value, Dims: [2]int{p.lo, p.hi}, Dim: sym.Of(product(in[p.lo:p.hi]))}
		switch {
		case !allowzero && p.hi == p.lo+1 && p.lo == p.out:
			c.How, slots[p.out] = HowCopy, slot{kind: slotConst, n: 0}
		case !minus:
			c.How, slots[p.out] = HowInfer, slot{kind: slotConst, n: -1}
			minus = true
		default:
			c.How, slots[p.out] = HowCompute, slot{kind: slotShape, lo: p.lo, hi: p.hi}
		}
		changes[k] = c
	}
	return slots, changes
}

// patternDims returns the values of the new pattern as inference will see them, for reports: the
// constants, the old values kept, and the products of the dims read from the shape.
func patternDims(slots []slot, in, pat []sym.Dim) []sym.Dim {
	out := make([]sym.Dim, len(slots))
	for o, s := range slots {
		switch s.kind {
		case slotConst:
			out[o] = sym.Const(s.n)
		case slotKeep:
			out[o] = pat[o]
		case slotShape:
			out[o] = sym.Of(product(in[s.lo:s.hi]))
		}
	}
	return out
}

// builder makes the nodes of new patterns, with names that no tensor or node of the model has.
type builder struct {
	taken map[string]bool
	nodes []onnx.Node
}

// fresh returns base, or base with the least suffix _K that makes it a name the model does not
// have, and takes it.
func (b *builder) fresh(base string) string {
	name := base
	for k := 1; b.taken[name]; k++ {
		name = base + "_" + strconv.Itoa(k)
	}
	b.taken[name] = true
	return name
}

// node adds a node of op named base/op (made fresh), reading inputs, and returns the name of its
// output.
func (b *builder) node(base, op string, inputs []string, attrs ...onnx.Attribute) string {
	name := b.fresh(base + "/" + op)
	out := b.fresh(name + "_output_0")
	b.nodes = append(b.nodes, onnx.Node{Name: name, OpType: op, Inputs: inputs, Outputs: []string{out}, Attrs: attrs})
	return out
}

// constant adds a Constant node of the 1-D int64 tensor values and returns its output.
func (b *builder) constant(base string, values []int64) (string, error) {
	t, err := tensor.FromSlice(values)
	if err != nil {
		return "", err
	}
	pb, err := onnx.NewTensor("", t)
	if err != nil {
		return "", err
	}
	return b.node(base, "Constant", nil, onnx.Attribute{Name: "value", Type: onnx.AttrTensor, T: &pb}), nil
}

// build adds the nodes that compute the pattern slots, for a Reshape named base whose data input
// is data and whose pattern input is old, and returns the name of the new pattern: a Constant when
// every value is one, else a Concat (axis 0) of Constants of the constant runs, Gathers of the old
// pattern's runs of kept values, and Gathers from Shape(data) of the dims read from the shape (a
// ReduceProd of them for a value that merges several). The operators exist at every opset a
// Reshape reads its pattern from an input (5 on) with the meaning used here.
func (b *builder) build(base, data, old string, slots []slot) (string, error) {
	var parts []string
	shape := ""
	for o := 0; o < len(slots); {
		end := o + 1
		s := slots[o]
		switch s.kind {
		case slotConst:
			for end < len(slots) && slots[end].kind == slotConst {
				end++
			}
			values := make([]int64, end-o)
			for k := range values {
				values[k] = slots[o+k].n
			}
			c, err := b.constant(base, values)
			if err != nil {
				return "", err
			}
			parts = append(parts, c)
		case slotKeep:
			for end < len(slots) && slots[end].kind == slotKeep {
				end++
			}
			idx := make([]int64, end-o)
			for k := range idx {
				idx[k] = int64(o + k)
			}
			c, err := b.constant(base, idx)
			if err != nil {
				return "", err
			}
			parts = append(parts, b.node(base, "Gather", []string{old, c}, intAttr("axis", 0)))
		case slotShape:
			if shape == "" {
				shape = b.node(base, "Shape", []string{data})
			}
			// Single dims read in order merge into one Gather.
			idx := []int64{}
			for k := s.lo; k < s.hi; k++ {
				idx = append(idx, int64(k))
			}
			if s.hi == s.lo+1 {
				for end < len(slots) && slots[end].kind == slotShape && slots[end].hi == slots[end].lo+1 && slots[end].lo == slots[end-1].lo+1 {
					idx = append(idx, int64(slots[end].lo))
					end++
				}
			}
			c, err := b.constant(base, idx)
			if err != nil {
				return "", err
			}
			g := b.node(base, "Gather", []string{shape, c}, intAttr("axis", 0))
			if s.hi > s.lo+1 {
				g = b.node(base, "ReduceProd", []string{g}, intAttr("keepdims", 1))
			}
			parts = append(parts, g)
		}
		o = end
	}
	if len(parts) == 1 && slots[0].kind == slotConst {
		return parts[0], nil
	}
	return b.node(base, "Concat", parts, intAttr("axis", 0)), nil
}

func intAttr(name string, v int64) onnx.Attribute {
	return onnx.Attribute{Name: name, Type: onnx.AttrInt, I: v}
}
