package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxScatter holds the rules of ONNX's gathers and scatters by index tensors: GatherElements,
// GatherND and the scatters, whose outputs take the shape of their indices or their data (Gather,
// which computes values, is onnxCore's).
var onnxScatter = table{"", []opDef{
	{"GatherElements", since(11, 13), fixed(2), fixed(1), reads(1), gatherElements},
	{"GatherND", since(11, 12, 13), fixed(2), fixed(1), 0, gatherND},
	{"Scatter", since(9).until(10), fixed(3), fixed(1), reads(1), scatterElements},
	{"ScatterElements", since(11, 13, 16, 18), fixed(3), fixed(1), reads(1), scatterElements},
	{"ScatterND", since(11, 13, 16, 18), fixed(3), fixed(1), 0, scatterND},
}}

// gatherElements: GatherElements-11, -13: the output has the shape of the indices, whose rank is
// the data's.
func gatherElements(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	data, idx := ins[0], ins[1]
	if err := elementsIndices(c, data, idx); err != nil {
		return err
	}
	c.Out(0, data.Type, idx.Shape)
	return nil
}

// elementsIndices checks the indices idx of GatherElements and ScatterElements along the axis
// attribute of data: of data's rank, each dim but the axis's at most data's, and each known index
// within the axis (gatherIndices), as onnxruntime 1.20.1 checks them at run time ("'indices' shape
// should have values within bounds of 'data' shape", "Indices dim=2 at pos=0 is greater than input
// dim=1", "indices element out of data bounds"). A rank that differs, or a dim or index that can
// never fit, is an error wrapping errcode.ErrInvalidShape; one that fits at some bindings, a
// condition of the node.
func elementsIndices(c *ctx, data, idx *Info) error {
	axis, err := axisOf(c, data)
	if err != nil {
		return err
	}
	r1, ok1 := data.Rank()
	r2, ok2 := idx.Rank()
	if !ok1 || !ok2 {
		return nil
	}
	if r1 != r2 {
		return c.Errorf(errcode.ErrInvalidShape, "indices of rank %d for data of rank %d", r2, r1)
	}
	for i := range r1 {
		if i == axis {
			continue
		}
		if err := requireAtMost(c, idx.Shape.Dims[i], data.Shape.Dims[i], "indices' dim "+itoa(i)+", at most data's"); err != nil {
			return err
		}
	}
	return gatherIndices(c, idx, data.Shape.Dims[axis], axis, false)
}

// gatherND: GatherND-11, -12, -13 (batch_dims): for data of rank r, indices of shape [..., k] and
// b batch dims, the output is indices.shape[:-1] + data.shape[b+k:]; the first b dims of both
// must be equal, and 1 <= k <= r-b.
func gatherND(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	data, idx := ins[0], ins[1]
	b, err := c.Int("batch_dims", 0)
	if err != nil {
		return err
	}
	r, ok1 := data.Rank()
	q, ok2 := idx.Rank()
	if ok2 && q == 0 {
		return c.Errorf(errcode.ErrInvalidShape, "indices is a scalar")
	}
	if b < 0 || ok1 && b >= int64(r) || ok2 && b >= int64(q) {
		return c.Errorf(errcode.ErrInvalidShape, "batch_dims %d for data %v and indices %v", b, data.Shape, idx.Shape)
	}
	if !ok1 || !ok2 {
		c.Out(0, data.Type, sym.DynamicRank())
		return nil
	}
	dims := append([]sym.Dim(nil), idx.Shape.Dims[:q-1]...)
	for i := range b {
		u, err := c.Unify(data.Shape.Dims[i], idx.Shape.Dims[i], "batch dim "+itoa(int(i)))
		if err != nil {
			return err
		}
		dims[i] = u
	}
	last := idx.Shape.Dims[q-1]
	k, ok := last.Static()
	if !ok {
		// The output's rank waits for k, but its bounds are the operator's conditions all the
		// same.
		if err := requireAtLeast(c, last, 1, "indices' last dim"); err != nil {
			return err
		}
		if err := requireAtMost(c, last, sym.Const(int64(r)-b), "indices' last dim, at most data's rank "+itoa(r)+" less batch_dims "+itoa(int(b))); err != nil {
			return err
		}
		c.Out(0, data.Type, sym.DynamicRank())
		return nil
	}
	if k < 1 || k > int64(r)-b {
		return c.Errorf(errcode.ErrInvalidShape, "batch_dims %d and indices of last dim %d for data of rank %d and indices of rank %d", b, k, r, q)
	}
	dims = append(dims, data.Shape.Dims[b+k:]...)
	c.Out(0, data.Type, sym.ShapeOf(dims...))
	return nil
}

// scatterElements: Scatter-9 (deprecated at 11), ScatterElements-11, -13, -16, -18 (reduction): the
// output has the data's shape; indices and updates have one shape.
func scatterElements(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	if err := elementsIndices(c, ins[0], ins[1]); err != nil {
		return err
	}
	if err := sameShape(c, ins[1].Shape, ins[2].Shape, "indices and updates"); err != nil {
		return err
	}
	c.SameAs(0, ins[0])
	return nil
}

// scatterND: ScatterND-11, -13, -16, -18 (reduction): the output has the data's shape; updates has
// the shape indices.shape[:-1] + data.shape[k:] for indices of shape [..., k], 1 <= k <= rank
// (scatterNDShape).
func scatterND(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	if err := scatterNDShape(c, ins[0], ins[1], ins[2], 1); err != nil {
		return err
	}
	c.SameAs(0, ins[0])
	return nil
}

// scatterNDShape checks the indices and updates of a ScatterND (ONNX's, OpenVINO's
// ScatterNDUpdate) of data of rank r: for indices of shape [..., k], least <= k <= r, the updates
// have the shape indices.shape[:-1] + data.shape[k:]. A k in the symbols is the one the updates'
// rank gives, or required in [least, r].
func scatterNDShape(c *ctx, data, idx, upd *Info, least int64) error {
	r, ok1 := data.Rank()
	q, ok2 := idx.Rank()
	if ok2 && q == 0 {
		return c.Errorf(errcode.ErrInvalidShape, "indices is a scalar")
	}
	if !ok1 || !ok2 {
		return nil
	}
	last := idx.Shape.Dims[q-1]
	k, ok := last.Static()
	if u, known := upd.Rank(); !ok && known {
		// Updates of rank u = q-1 + r-k.
		if k = int64(q - 1 + r - u); k < least || k > int64(r) {
			return c.Errorf(errcode.ErrInvalidShape, "updates of rank %d for indices of rank %d and data of rank %d", u, q, r)
		}
		if _, err := c.Unify(last, sym.Const(k), "indices' last dim, as updates of rank "+itoa(u)+" give it"); err != nil {
			return err
		}
		ok = true
	}
	if !ok {
		if err := requireAtLeast(c, last, least, "indices' last dim"); err != nil {
			return err
		}
		return requireAtMost(c, last, sym.Const(int64(r)), "indices' last dim, at most data's rank "+itoa(r))
	}
	if k < least || k > int64(r) {
		return c.Errorf(errcode.ErrInvalidShape, "indices of last dim %d for data of rank %d", k, r)
	}
	want := sym.ShapeOf(append(append([]sym.Dim(nil), idx.Shape.Dims[:q-1]...), data.Shape.Dims[k:]...)...)
	return sameShape(c, upd.Shape, want, "updates")
}
