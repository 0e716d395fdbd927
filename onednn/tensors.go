package onednn

import (
	"fmt"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
)

// A Use is one place where an op names a logical tensor: as its output or input Index, declaring
// it as Tensor.
type Use struct {
	Op     *Op
	Output bool
	Index  int
	Tensor *Tensor
}

// String says where the use is: `Add 4097 ("add") outputs it`, `Multiply 4098 ("mul") reads it
// as input 1`.
func (u Use) String() string {
	if u.Output {
		if u.Index == 0 {
			return u.Op.String() + " outputs it"
		}
		return fmt.Sprintf("%v outputs it as output %d", u.Op, u.Index)
	}
	return fmt.Sprintf("%v reads it as input %d", u.Op, u.Index)
}

// LogicalTensor is one logical tensor of a graph and every place an op names it. A graph holds a
// tensor once per op that names it, each with its own declaration (data type and shape), as
// benchdnn writes them.
type LogicalTensor struct {
	ID int64
	// Uses lists the places that name the tensor: the op that outputs it first (none for an input
	// of the graph), then the inputs that read it, in the order of the ops.
	Uses []Use
}

// Produced reports whether an op outputs the tensor: false for an input of the graph.
func (t *LogicalTensor) Produced() bool { return len(t.Uses) > 0 && t.Uses[0].Output }

// LogicalTensors returns the logical tensors of the graph in the order the ops first name them,
// each with its uses. An op's inputs come before its outputs, so that the inputs of the graph
// come before the tensors of the ops that read them. The error wraps errcode.ErrSyntax for a
// tensor two ops output, or one op outputs twice, naming both places.
func (g *Graph) LogicalTensors() ([]LogicalTensor, error) {
	index := map[int64]int{}
	var out []LogicalTensor
	add := func(u Use) {
		i, ok := index[u.Tensor.ID]
		if !ok {
			i = len(out)
			index[u.Tensor.ID] = i
			out = append(out, LogicalTensor{ID: u.Tensor.ID})
		}
		out[i].Uses = append(out[i].Uses, u)
	}
	for k := range g.Ops {
		op := &g.Ops[k]
		for i := range op.Inputs {
			add(Use{Op: op, Index: i, Tensor: &op.Inputs[i]})
		}
		for i := range op.Outputs {
			add(Use{Op: op, Output: true, Index: i, Tensor: &op.Outputs[i]})
		}
	}
	for i := range out {
		t := &out[i]
		producer := -1
		for k, u := range t.Uses {
			if !u.Output {
				continue
			}
			if producer >= 0 {
				return nil, errcode.Errorf(errcode.ErrSyntax, "logical tensor %d: %v, and %v already", t.ID, u, t.Uses[producer])
			}
			producer = k
		}
		if producer > 0 {
			p := t.Uses[producer]
			copy(t.Uses[1:producer+1], t.Uses[:producer])
			t.Uses[0] = p
		}
	}
	return out, nil
}

// Declared returns the shape the graph declares for the tensor: the most precise of its uses'
// declarations, each dim the known one where one use knows it (a use that declares [?,16] and one
// that declares [8,?] give [8,16]), a dynamic rank when none declares a rank. When two uses
// declare shapes no tensor has both of (different ranks, or different known dims), conflict holds
// the first such pair, and the shape is the first use's declaration: that of the op that outputs
// the tensor, or of the first op that reads an input of the graph. The error is PartialShape's,
// for a shape that is not one.
func (t *LogicalTensor) Declared() (s shape.Shape, conflict *[2]Use, err error) {
	shapes := make([]shape.Shape, len(t.Uses))
	s = shape.DynamicRank()
	for k, u := range t.Uses {
		if shapes[k], err = u.Tensor.PartialShape(); err != nil {
			return s, nil, err
		}
		d := shapes[k]
		if d.RankDynamic {
			continue
		}
		if s.RankDynamic {
			s = d
			continue
		}
		if merged, ok := meet(s, d); ok {
			s = merged
			continue
		}
		for j := range k {
			if _, ok := meet(shapes[j], d); !ok {
				return shapes[0], &[2]Use{t.Uses[j], u}, nil
			}
		}
	}
	return s, nil, nil
}

// meet returns the shape both a and b declare, each dim the known one where one is known; ok is
// false when they differ in rank or in a dim both know.
func meet(a, b shape.Shape) (shape.Shape, bool) {
	switch {
	case a.RankDynamic:
		return b, true
	case b.RankDynamic:
		return a, true
	case len(a.Dims) != len(b.Dims):
		return a, false
	}
	out := shape.Shape{Dims: make([]shape.Dim, len(a.Dims))}
	for i, x := range a.Dims {
		y := b.Dims[i]
		switch {
		case !x.IsStatic():
			out.Dims[i] = y
		case !y.IsStatic() || x == y:
			out.Dims[i] = x
		default:
			return a, false
		}
	}
	return out, true
}
