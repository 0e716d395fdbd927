package fix

import (
	"cmp"
	"fmt"
	"slices"
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
	// A value of a mixed group (nn.MultiheadAttention's 8 of [10,8,16] for [T,B,64]) stands for
	// a part of the dims of its group, Dims: Dim is that part (4*B), and Part is true.
	Dims [2]int  `json:"dims"`
	Dim  sym.Dim `json:"dim"`
	Part bool    `json:"part,omitempty"`
	// How is HowCopy, HowInfer or HowCompute.
	How string `json:"how"`
	// Inputs are the graph inputs whose shapes a HowCompute value reads dims of (B of [T*B,64]
	// from the input [T,B,64]), in their order; none when it reads the Reshape's input only.
	Inputs []string `json:"inputs,omitempty"`
}

// slot is what one value of a new pattern is: a constant, the old pattern's value kept (a computed
// one), the product of input dims lo to hi-1 read from the input's shape, or a product of dims of
// several tensors' shapes and a coefficient.
type slot struct {
	kind   slotKind
	n      int64
	lo, hi int      // slotShape
	e      sym.Expr // slotProduct: coef times the dims
	coef   int64
	dims   []dimRef
}

type slotKind uint8

const (
	slotConst slotKind = iota
	slotKeep
	slotShape
	slotProduct
)

// dimRef is a dim of a tensor's shape: of the Reshape's data input when tensor is "", else of the
// graph input so named.
type dimRef struct {
	tensor string
	index  int
}

// stand is a baked value of a pattern and what it stands for: pattern[out] = value equals e at the
// export binding, a part of (or, whole, the product of) the input dims lo to hi-1.
type stand struct {
	out    int
	value  int64
	e      sym.Expr
	lo, hi int
	whole  bool
}

// stands returns the baked values of the alignment a of pairs proper: each the product of its
// dims.
func (a alignment) stands(in []sym.Dim) []stand {
	out := make([]stand, len(a))
	for k, p := range a {
		out[k] = stand{out: p.out, value: p.value, e: product(in[p.lo:p.hi]), lo: p.lo, hi: p.hi, whole: true}
	}
	return out
}

// newPattern returns the values of the pattern of values pat (of a Reshape of input in) with the
// baked values vals rewritten, and the changes: each becomes a 0 when it is the input dim at its
// own index and zeros copy (allowzero false), else a -1 when the pattern has none yet, else its
// expression read from shapes: the product of its dims from the input's shape for a value that
// stands for whole dims, else each factor from a dim of the input or of a graph input that is that
// factor (find), times the coefficient. The -1 goes to the first value that cannot be read so,
// else to the first. why says why a value can be rewritten in none of these ways.
func newPattern(in, pat []sym.Dim, vals []stand, allowzero bool, find func(sym.Expr) (dimRef, bool)) ([]slot, []Change, string) {
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
	changes := make([]Change, len(vals))
	read := make([]slot, len(vals))
	why := make([]string, len(vals))
	infer := -1 // the value that becomes the -1
	for k, v := range vals {
		changes[k] = Change{Index: v.out, Value: v.value, Dims: [2]int{v.lo, v.hi}, Dim: sym.Of(v.e), Part: !v.whole}
		if !allowzero && v.out < len(in) && is(in[v.out], v.e) {
			changes[k].How, slots[v.out] = HowCopy, slot{kind: slotConst, n: 0}
			continue
		}
		read[k], why[k] = readSlot(v, find)
		if !minus && infer < 0 || !minus && why[k] != "" && why[infer] == "" {
			infer = k
		}
	}
	for k, v := range vals {
		switch {
		case changes[k].How == HowCopy:
		case k == infer:
			changes[k].How, slots[v.out] = HowInfer, slot{kind: slotConst, n: -1}
		case why[k] != "":
			return nil, nil, why[k]
		default:
			changes[k].How, slots[v.out] = HowCompute, read[k]
			for _, d := range read[k].dims {
				if d.tensor != "" && !slices.Contains(changes[k].Inputs, d.tensor) {
					changes[k].Inputs = append(changes[k].Inputs, d.tensor)
				}
			}
		}
	}
	return slots, changes, ""
}

// is reports whether the dim d is the expression e.
func is(d sym.Dim, e sym.Expr) bool {
	x, ok := d.Expr()
	return ok && d.Determined() && x.Equal(e)
}

// readSlot returns the slot that reads the value v from shapes, and why when it cannot be.
func readSlot(v stand, find func(sym.Expr) (dimRef, bool)) (slot, string) {
	if v.whole {
		return slot{kind: slotShape, lo: v.lo, hi: v.hi}, ""
	}
	coef, factors, ok := v.e.Monomial()
	if !ok {
		return slot{}, fmt.Sprintf("pattern[%d] = %d stands for %s, which is not a product of dims", v.out, v.value, v.e)
	}
	s := slot{kind: slotProduct, e: v.e, coef: coef}
	for _, f := range factors {
		r, ok := find(f)
		if !ok {
			return slot{}, fmt.Sprintf("pattern[%d] = %d stands for %s, and %s is no dim of its input nor of a graph input", v.out, v.value, v.e, f)
		}
		s.dims = append(s.dims, r)
	}
	return s, ""
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
		case slotProduct:
			out[o] = sym.Of(s.e)
		}
	}
	return out
}

// builder makes the nodes of new patterns, with names that no tensor or node of the model has.
type builder struct {
	taken  map[string]bool
	nodes  []onnx.Node
	values map[string][]int64 // the values of the Constant nodes, by output
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
	out := b.node(base, "Constant", nil, onnx.Attribute{Name: "value", Type: onnx.AttrTensor, T: &pb})
	b.values[out] = values
	return out, nil
}

// build adds the nodes that compute the pattern slots, for a Reshape named base whose data input
// is data and whose pattern input is old, and returns the name of the new pattern: a Constant when
// every value is one, else a Concat (axis 0) of Constants of the constant runs, Gathers of the old
// pattern's runs of kept values, and Gathers from Shape(data) of the dims read from the shape (a
// ReduceProd of them for a value that merges several), or from the Shapes of graph inputs with a
// Constant of the coefficient (a ReduceProd of their Concat). The operators exist at every opset a
// Reshape reads its pattern from an input (5 on) with the meaning used here.
func (b *builder) build(base, data, old string, slots []slot) (string, error) {
	var parts []string
	shapes := map[string]string{} // the Shape node's output of each tensor read
	shapeOf := func(tensor string) string {
		if shapes[tensor] == "" {
			shapes[tensor] = b.node(base, "Shape", []string{tensor})
		}
		return shapes[tensor]
	}
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
		case slotProduct:
			p, err := b.product(base, data, s, shapeOf)
			if err != nil {
				return "", err
			}
			parts = append(parts, p)
		case slotShape:
			shape := shapeOf(data)
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

// product adds the nodes of a slotProduct, for a Reshape whose data input is data: a Gather of
// each dim from its tensor's Shape (shapeOf), the coefficient's Constant when it is not 1, their
// Concat, and a ReduceProd when there are several values; it returns the output, of shape [1].
func (b *builder) product(base, data string, s slot, shapeOf func(string) string) (string, error) {
	var parts []string
	n := len(s.dims)
	for k := 0; k < len(s.dims); {
		tensor := cmp.Or(s.dims[k].tensor, data)
		end := k + 1
		for end < len(s.dims) && cmp.Or(s.dims[end].tensor, data) == tensor {
			end++
		}
		idx := make([]int64, end-k)
		for j := range idx {
			idx[j] = int64(s.dims[k+j].index)
		}
		c, err := b.constant(base, idx)
		if err != nil {
			return "", err
		}
		parts = append(parts, b.node(base, "Gather", []string{shapeOf(tensor), c}, intAttr("axis", 0)))
		k = end
	}
	if s.coef != 1 || len(parts) == 0 {
		c, err := b.constant(base, []int64{s.coef})
		if err != nil {
			return "", err
		}
		parts = append(parts, c)
		n++
	}
	out := parts[0]
	if len(parts) > 1 {
		out = b.node(base, "Concat", parts, intAttr("axis", 0))
	}
	if n > 1 {
		out = b.node(base, "ReduceProd", []string{out}, intAttr("keepdims", 1))
	}
	return out, nil
}

func intAttr(name string, v int64) onnx.Attribute {
	return onnx.Attribute{Name: name, Type: onnx.AttrInt, I: v}
}
