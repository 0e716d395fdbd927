package graph

import (
	"slices"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoIndex holds the rules of the OpenVINO IR layers that select, scatter or count elements
// by index: TopK, the gathers and scatters by index tensors, NonZero, OneHot, Unique, Bucketize,
// SearchSorted, the embedding bags and segment reductions, CumSum and Einsum. A count that run-time
// data decides (NonZero's, Unique's) is an anonymous dim within sound bounds.
var openvinoIndex = table{DomainOpenVINO, []opDef{
	{"TopK", since(1, 3, 11), fixed(2), span(1, 2), reads(1), ovTopK},
	{"GatherElements", since(6), fixed(2), fixed(1), 0, ovGatherElements},
	{"GatherND", since(5, 8), fixed(2), fixed(1), 0, ovGatherND},
	{"ScatterUpdate", since(3), fixed(4), fixed(1), reads(3), ovScatterUpdate},
	{"ScatterElementsUpdate", since(3, 12), fixed(4), fixed(1), reads(3), ovScatterElements},
	{"ScatterNDUpdate", since(3, 15), fixed(3), fixed(1), 0, ovScatterND},
	{"NonZero", since(3), fixed(1), fixed(1), reads(0), ovNonZero},
	{"OneHot", since(1, 16), fixed(4), fixed(1), reads(1), ovOneHot},
	{"Unique", since(10), span(1, 2), span(1, 4), reads(1), ovUnique},
	{"Bucketize", since(3), fixed(2), fixed(1), 0, ovBucketize},
	{"SearchSorted", since(15), fixed(2), fixed(1), 0, ovSearchSorted},
	{"SliceScatter", since(15), span(5, 6), fixed(1), reads(2, 3, 4, 5), ovSliceScatter},
	{"EmbeddingBagOffsetsSum", since(3), span(3, 5), fixed(1), 0, ovEmbeddingBag},
	{"EmbeddingBagOffsets", since(15), span(3, 5), fixed(1), 0, ovEmbeddingBag},
	{"EmbeddingBagPackedSum", since(3), span(2, 3), fixed(1), 0, ovEmbeddingBag},
	{"EmbeddingBagPacked", since(15), span(2, 3), fixed(1), 0, ovEmbeddingBag},
	{"EmbeddingSegmentsSum", since(3), span(4, 6), fixed(1), reads(3), ovEmbeddingBag},
	{"SegmentMax", since(16), span(2, 3), fixed(1), reads(1, 2), ovSegmentMax},
	{"SparseFillEmptyRows", since(16), fixed(4), fixed(3), reads(1, 2), ovSparseFillEmptyRows},
	{"CumSum", since(3), span(1, 2), fixed(1), reads(1), ovCumSum},
	{"Einsum", since(7), span(1, many), fixed(1), 0, ovEinsum},
}}

// ovIndexType returns the element type attribute name of an output of indices: i64 or i32, def
// when the node does not have it; another is an error wrapping errcode.ErrSyntax.
func ovIndexType(c *ctx, name string, def element.Type) (element.Type, error) {
	t, err := ovType(c, name, def)
	if err == nil && t != element.I64 && t != element.I32 {
		err = c.Errorf(errcode.ErrSyntax, "%s %v: want i32 or i64", name, t)
	}
	return t, err
}

// ovTopK: TopK-1, -3, -11 (stable): the values and their indices (of index_element_type, i32 by
// default), of the data's shape with the dim at axis k, the scalar input 1, as the operation
// defines it for any k of at least 0. A k not known is an anonymous dim shared by both outputs,
// at most the axis's dim.
func ovTopK(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	data := ins[0]
	for _, a := range [...]struct{ name, def string }{{"mode", "max"}, {"sort", "none"}} {
		v, err := c.String(a.name, a.def)
		if err != nil {
			return err
		}
		if ok := a.name == "mode" && (v == "max" || v == "min") || a.name == "sort" && (v == "value" || v == "index" || v == "none"); !ok {
			return c.Errorf(errcode.ErrSyntax, "%s %q: TopK sorts max or min, by value, index or none", a.name, v)
		}
	}
	t, err := ovIndexType(c, "index_element_type", element.I32)
	if err != nil {
		return err
	}
	axis, err := c.Int("axis", 0)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(ins[1], 1, 0, 0); err != nil {
		return err
	}
	k, known := sym.Dim{}, len(ins[1].Value) == 1
	if known {
		// type_prop topk.cpp: "The value of 'K' must be greater or equal to zero".
		if k, err = requireNonNegative(c, ins[1].Value[0], "k"); err != nil {
			return err
		}
	}
	r, ok := data.Rank()
	if !ok {
		return nil
	}
	a, err := c.NormAxis(axis, r)
	if err != nil {
		return err
	}
	if !known {
		_, hi := data.Shape.Dims[a].Bounds()
		k = c.Fresh("k", 0, hi)
	}
	dims := withDim(data.Shape.Dims, a, k)
	c.Out(0, data.Type, sym.ShapeOf(dims...))
	c.Out(1, t, sym.ShapeOf(slices.Clone(dims)...))
	return nil
}

// ovGatherElements: GatherElements-6: the indices' shape, of the data's rank; every dim but the
// axis's unifies with the data's. The data's shape with an unknown dim at axis where the indices'
// rank is not known.
func ovGatherElements(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	data, idx := ins[0], ins[1]
	axis, err := c.Int("axis", 0)
	if err != nil {
		return err
	}
	rd, dok := data.Rank()
	ri, iok := idx.Rank()
	r := max(rd, ri)
	if !dok && !iok {
		return nil
	}
	if dok && iok && rd != ri {
		return c.Errorf(errcode.ErrInvalidShape, "indices of rank %d for data of rank %d: want one rank", ri, rd)
	}
	a, err := c.NormAxis(axis, r)
	if err != nil {
		return err
	}
	if !iok {
		c.Out(0, data.Type, sym.ShapeOf(withDim(data.Shape.Dims, a, sym.Unknown())...))
		return nil
	}
	dims := c.clone(idx.Shape.Dims)
	if dok {
		for i := range r {
			if i == a {
				continue
			}
			if dims[i], err = c.Unify(dims[i], data.Shape.Dims[i], "dim "+itoa(i)+" of the indices and the data"); err != nil {
				return err
			}
		}
	}
	c.Out(0, data.Type, sym.ShapeOf(dims...))
	return nil
}

// ovGatherND: GatherND-5, -8: for data of rank r, indices [..., k] of rank q and b batch_dims
// (b < q, k <= r-b), indices[:q-1] + data[b+k:], the first b dims of data and indices unified;
// GatherND-5 folds the b batch dims into one, their product. A k not known gives a dynamic rank.
func ovGatherND(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	data, idx := ins[0], ins[1]
	b, err := c.Int("batch_dims", 0)
	if err != nil {
		return err
	}
	r, dok := data.Rank()
	q, iok := idx.Rank()
	switch {
	case b < 0:
		return c.Errorf(errcode.ErrInvalidShape, "batch_dims %d: want at least 0", b)
	case dok && r < 1:
		return c.Errorf(errcode.ErrInvalidShape, "the data is a scalar")
	case iok && q < 1:
		return c.Errorf(errcode.ErrInvalidShape, "the indices are a scalar")
	case iok && b >= int64(q):
		return c.Errorf(errcode.ErrInvalidShape, "batch_dims %d for indices of rank %d: want fewer", b, q)
	case dok && b >= int64(r):
		return c.Errorf(errcode.ErrInvalidShape, "batch_dims %d for data of rank %d: want fewer", b, r)
	case !dok || !iok:
		return nil
	}
	dims := c.clone(idx.Shape.Dims[:q-1])
	for i := range b {
		if dims[i], err = c.Unify(dims[i], data.Shape.Dims[i], "batch dim "+itoa(int(i))); err != nil {
			return err
		}
	}
	k, ok := idx.Shape.Dims[q-1].Static()
	if !ok {
		return requireAtMost(c, idx.Shape.Dims[q-1], sym.Const(int64(r)-b), "the indices' last dim, at most the data's rank less batch_dims")
	}
	if k > int64(r)-b {
		return c.Errorf(errcode.ErrInvalidShape, "indices of last dim %d for data of rank %d and batch_dims %d: want at most %d", k, r, b, int64(r)-b)
	}
	if c.Version() < 8 && b > 0 {
		dims = append([]sym.Dim{product(dims[:b])}, dims[b:]...)
	}
	c.Out(0, data.Type, sym.ShapeOf(append(dims, data.Shape.Dims[b+k:]...)...))
	return nil
}

// ovScatterUpdate: ScatterUpdate-3: the data's shape; the updates have the shape
// data[:axis] + indices + data[axis+1:], axis the scalar or one-element input 3.
func ovScatterUpdate(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	data, idx, upd := ins[0], ins[1], ins[2]
	axis, known, err := ovScalar(c, 3, "axis")
	if err != nil {
		return err
	}
	r, dok := data.Rank()
	q, iok := idx.Rank()
	u, uok := upd.Rank()
	if dok && iok && uok && u != q+r-1 {
		return c.Errorf(errcode.ErrInvalidShape, "updates of rank %d for indices of rank %d and data of rank %d: want rank %d", u, q, r, q+r-1)
	}
	if dok && known {
		a, err := c.NormAxis(axis, r)
		if err != nil {
			return err
		}
		if iok && uok {
			want := slices.Concat(data.Shape.Dims[:a], idx.Shape.Dims, data.Shape.Dims[a+1:])
			if err := sameShape(c, upd.Shape, sym.ShapeOf(want...), "the updates and data[:axis] + indices + data[axis+1:]"); err != nil {
				return err
			}
		}
	}
	c.SameAs(0, data)
	return nil
}

// ovScatterElements: ScatterElementsUpdate-3, -12 (reduction, use_init_val): the data's shape;
// the indices, of the data's rank, and the updates have one shape; axis (input 3) is an axis of
// the data.
func ovScatterElements(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	data, idx, upd := ins[0], ins[1], ins[2]
	if c.Version() >= 12 {
		red, err := c.String("reduction", "none")
		if err != nil {
			return err
		}
		if !slices.Contains([]string{"none", "sum", "prod", "min", "max", "mean"}, red) {
			return c.Errorf(errcode.ErrSyntax, "reduction %q: want none, sum, prod, min, max or mean", red)
		}
	}
	r, dok := data.Rank()
	if q, ok := idx.Rank(); ok && dok && q != r {
		return c.Errorf(errcode.ErrInvalidShape, "indices of rank %d for data of rank %d: want one rank", q, r)
	}
	if err := sameShape(c, idx.Shape, upd.Shape, "the indices and the updates"); err != nil {
		return err
	}
	axis, known, err := ovScalar(c, 3, "axis")
	if err != nil {
		return err
	}
	if dok && known {
		if _, err := c.NormAxis(axis, r); err != nil {
			return err
		}
	}
	c.SameAs(0, data)
	return nil
}

// ovScatterND: ScatterNDUpdate-3, -15 (reduction): the data's shape; for indices [..., k],
// k <= rank(data), the updates have the shape indices[:-1] + data[k:] (scatterNDShape).
func ovScatterND(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	if c.Version() >= 15 {
		red, err := c.String("reduction", "none")
		if err != nil {
			return err
		}
		if !slices.Contains([]string{"none", "sum", "sub", "prod", "min", "max"}, red) {
			return c.Errorf(errcode.ErrSyntax, "reduction %q: want none, sum, sub, prod, min or max", red)
		}
	}
	if err := scatterNDShape(c, ins[0], ins[1], ins[2], 0); err != nil {
		return err
	}
	c.SameAs(0, ins[0])
	return nil
}

// ovNonZero: NonZero-3: the coordinates [rank, n] of the n non-zero elements, of output_type
// (i64 by default, or i32): nonZeroAs.
func ovNonZero(c *ctx) error {
	t, err := ovIndexType(c, "output_type", element.I64)
	if err != nil {
		return err
	}
	return nonZeroAs(c, t, 0)
}

// ovOneHot: OneHot-1, -16 (negative_indices_mode): the indices' shape with an axis (counted in
// the output's rank) of the scalar depth (input 1, at least 0) inserted, of the type of on_value;
// depth, on_value and off_value are scalars.
func ovOneHot(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	for i := 1; i <= 3; i++ {
		if _, _, err := c.RequireRank(ins[i], i, 0, 0); err != nil {
			return err
		}
	}
	axis, err := c.Int("axis", -1)
	if err != nil {
		return err
	}
	d := sym.Unknown()
	if v := ins[1].Value; len(v) == 1 {
		// type_prop one_hot.cpp: a negative depth "can't be negative".
		if d, err = requireNonNegative(c, v[0], "depth"); err != nil {
			return err
		}
	}
	r, ok := ins[0].Rank()
	if !ok {
		return nil
	}
	a, err := c.NormAxis(axis, r+1)
	if err != nil {
		return err
	}
	dims := slices.Concat(ins[0].Shape.Dims[:a], []sym.Dim{d}, ins[0].Shape.Dims[a:])
	c.Out(0, ins[2].Type, sym.ShapeOf(dims...))
	return nil
}

// ovUnique: Unique-10: the unique elements of the flattened data, or without an axis input (a
// scalar or one-element input 1) the unique slices along it, their first indices and the inverse
// indices (of index_element_type, i64 by default) and the counts (of count_element_type):
// uniqueOf. OpenVINO takes the axis from a Constant only: an input of the graph is refused.
func ovUnique(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	idx, err := ovIndexType(c, "index_element_type", element.I64)
	if err != nil {
		return err
	}
	cnt, err := ovIndexType(c, "count_element_type", element.I64)
	if err != nil {
		return err
	}
	hasAxis, a := c.In(1) != nil, 0
	if hasAxis {
		axis, known, err := ovScalar(c, 1, "axis")
		if err != nil {
			return err
		}
		r, ok := in.Rank()
		switch {
		case !known && c.FromInput(1):
			return c.Errorf(errcode.ErrInvalidShape, "the axis (input 1) is an input of the graph, not a constant")
		case !known:
			in = &Info{Type: in.Type, Shape: sym.DynamicRank()}
		case ok:
			if a, err = c.NormAxis(axis, r); err != nil {
				return err
			}
		}
	}
	uniqueOf(c, in, a, hasAxis, idx, cnt)
	return nil
}

// ovBucketize: Bucketize-3: the bucket index of each element, of the data's shape and of
// output_type (i64 by default, or i32); the buckets are 1-D.
func ovBucketize(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	t, err := ovIndexType(c, "output_type", element.I64)
	if err != nil {
		return err
	}
	if _, _, err := ovVector(c, 1, "buckets"); err != nil {
		return err
	}
	c.Out(0, t, ins[0].Shape)
	return nil
}

// ovSearchSorted: SearchSorted-15: the values' shape, of output_type (i64 by default, or i32).
// The sorted sequence is not a scalar; one of rank 2 or more has the values' rank, and all their
// dims but the last unify; scalar values take a 1-D sequence.
func ovSearchSorted(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	sorted, vals := ins[0], ins[1]
	t, err := ovIndexType(c, "output_type", element.I64)
	if err != nil {
		return err
	}
	rs, sok := sorted.Rank()
	rv, vok := vals.Rank()
	switch {
	case sok && rs == 0:
		return c.Errorf(errcode.ErrInvalidShape, "the sorted sequence is a scalar")
	case vok && rv == 0 && sok && rs != 1:
		return c.Errorf(errcode.ErrInvalidShape, "scalar values for a sorted sequence of rank %d: want a 1-D sequence", rs)
	case !vok && !sok:
		return nil
	case !vok:
		c.Out(0, t, sym.ShapeOf(withDim(sorted.Shape.Dims, rs-1, sym.Unknown())...))
		return nil
	}
	dims := c.clone(vals.Shape.Dims)
	if sok && rs > 1 {
		if rs != rv {
			return c.Errorf(errcode.ErrInvalidShape, "a sorted sequence of rank %d and values of rank %d: want one rank", rs, rv)
		}
		for i := range rs - 1 {
			if dims[i], err = c.Unify(dims[i], sorted.Shape.Dims[i], "dim "+itoa(i)+" of the sequence and the values"); err != nil {
				return err
			}
		}
	}
	c.Out(0, t, sym.ShapeOf(dims...))
	return nil
}

// ovSliceScatter: SliceScatter-15: the data's shape; where start, stop, step and axes (inputs 2
// to 5) are known, the updates have the shape of the slice they take, as Slice-8 takes it
// (ovSliceDims).
func ovSliceScatter(c *ctx) error {
	ins, err := c.Inputs(5)
	if err != nil {
		return err
	}
	data, upd := ins[0], ins[1]
	r, ok := data.Rank()
	if !ok {
		c.SameAs(0, data)
		return nil
	}
	dims, _, ok, err := ovSliceDims(c, data, r, 2)
	if err != nil {
		return err
	}
	if ok {
		if err := sameShape(c, upd.Shape, sym.ShapeOf(dims...), "the updates and the slice"); err != nil {
			return err
		}
	}
	c.SameAs(0, data)
	return nil
}

// ovEmbeddingBag: EmbeddingBagOffsetsSum-3, EmbeddingBagOffsets-15 (reduction) of a table [V, D...],
// 1-D indices and offsets [B]: [B, D...]; EmbeddingBagPackedSum-3, EmbeddingBagPacked-15 of indices
// [B, L]: [B, D...]; EmbeddingSegmentsSum-3 of 1-D indices and segment_ids of one length and the
// scalar num_segments: [num_segments, D...]. per_sample_weights has the indices' shape, and is
// refused with reduction mean; default_index is a scalar.
func ovEmbeddingBag(c *ctx) error {
	table, err := c.Input(0)
	if err != nil {
		return err
	}
	idx, err := c.Input(1)
	if err != nil {
		return err
	}
	packed := c.n.Op == "EmbeddingBagPackedSum" || c.n.Op == "EmbeddingBagPacked"
	segments := c.n.Op == "EmbeddingSegmentsSum"
	want := 1 // the indices' rank
	weights, deflt := 4, 3
	switch {
	case packed:
		want, weights, deflt = 2, 2, -1
	case segments:
		weights, deflt = 5, 4
	}
	if c.Version() >= 15 {
		red, err := c.String("reduction", "sum")
		if err != nil {
			return err
		}
		if red != "sum" && red != "mean" {
			return c.Errorf(errcode.ErrSyntax, "reduction %q: want sum or mean", red)
		}
		if red == "mean" && c.In(weights) != nil {
			return c.Errorf(errcode.ErrInvalidShape, "per_sample_weights (input %d) with reduction mean: only sum takes them", weights)
		}
	}
	if _, _, err := c.RequireRank(idx, 1, want, want); err != nil {
		return err
	}
	ishape := idx.Shape // the indices' shape, unified with the weights'
	if w := c.In(weights); w != nil {
		if ishape, err = unifyShape(c, idx.Shape, w.Shape, "per_sample_weights and the indices"); err != nil {
			return err
		}
	}
	if d := c.In(deflt); d != nil && deflt > 0 {
		if _, _, err := c.RequireRank(d, deflt, 0, 0); err != nil {
			return err
		}
	}
	bags := sym.Unknown()
	switch {
	case packed:
		if !ishape.RankDynamic {
			bags = ishape.Dims[0]
		}
	case segments:
		ids, _, err := ovVector(c, 2, "segment_ids")
		if err != nil {
			return err
		}
		if err := sameShape(c, ids.Shape, idx.Shape, "segment_ids and the indices"); err != nil {
			return err
		}
		n, err := c.Input(3)
		if err != nil {
			return err
		}
		if _, _, err := c.RequireRank(n, 3, 0, 0); err != nil {
			return err
		}
		if len(n.Value) == 1 {
			if bags, err = requireNonNegative(c, n.Value[0], "num_segments"); err != nil {
				return err
			}
		}
	default:
		off, _, err := ovVector(c, 2, "offsets")
		if err != nil {
			return err
		}
		if !off.Shape.RankDynamic {
			bags = off.Shape.Dims[0]
		}
	}
	r, ok, err := c.RequireRank(table, 0, 1, -1)
	if err != nil || !ok {
		return err
	}
	c.Out(0, table.Type, sym.ShapeOf(append([]sym.Dim{bags}, table.Shape.Dims[1:r]...)...))
	return nil
}

// ovSegmentMax: SegmentMax-16: data [N, ...] (not a scalar) and the sorted 1-D segment_ids [N]
// give [S, ...]: S the scalar num_segments (input 2) when the node has it, else the last segment
// id plus 1 when the ids are known, else unknown.
func ovSegmentMax(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	data := ins[0]
	if _, err := ovFillMode(c); err != nil {
		return err
	}
	ids, _, err := ovVector(c, 1, "segment_ids")
	if err != nil {
		return err
	}
	r, ok := data.Rank()
	if ok && r == 0 {
		return c.Errorf(errcode.ErrInvalidShape, "the data is a scalar")
	}
	if ok && !ids.Shape.RankDynamic {
		if _, err := c.Unify(data.Shape.Dims[0], ids.Shape.Dims[0], "the data's first dim and the number of segment_ids"); err != nil {
			return err
		}
	}
	v, known := ids.Ints()
	if known && !slices.IsSorted(v) {
		return c.Errorf(errcode.ErrInvalidShape, "segment_ids %v are not sorted", v)
	}
	s := sym.Unknown()
	if n := c.In(2); n != nil {
		if _, _, err := c.RequireRank(n, 2, 0, 0); err != nil {
			return err
		}
		if len(n.Value) == 1 {
			if s, err = requireNonNegative(c, n.Value[0], "num_segments"); err != nil {
				return err
			}
		}
	} else if known && len(v) > 0 && v[len(v)-1] >= 0 {
		s = sym.Const(v[len(v)-1] + 1)
	}
	if !ok {
		return nil
	}
	c.Out(0, data.Type, sym.ShapeOf(withDim(data.Shape.Dims, 0, s)...))
	return nil
}

// ovFillMode reads SegmentMax's fill_mode: zero or lowest.
func ovFillMode(c *ctx) (string, error) {
	m, err := c.String("fill_mode", "")
	if err == nil && m != "zero" && m != "lowest" {
		err = c.Errorf(errcode.ErrSyntax, "fill_mode %q: want zero or lowest", m)
	}
	return m, err
}

// ovSparseFillEmptyRows: SparseFillEmptyRows-16 of the 1-D values [N], the dense_shape [2] (rows
// R, columns), the indices [N, 2] and a scalar default_value: the indices [M, 2] and values [M]
// of the filled tensor and the boolean empty_row_indicator [R]. M is N plus the rows no index
// names when the indices' values are known, else within [N, N+R].
func ovSparseFillEmptyRows(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	vals, idx := ins[0], ins[2]
	if _, _, err := ovVector(c, 0, "values"); err != nil {
		return err
	}
	if _, n, err := ovVector(c, 1, "dense_shape"); err != nil {
		return err
	} else if n >= 0 && n != 2 {
		return c.Errorf(errcode.ErrInvalidShape, "dense_shape has %d elements: want 2, of a 2-D sparse tensor", n)
	}
	if _, _, err := c.RequireRank(ins[3], 3, 0, 0); err != nil {
		return err
	}
	n := sym.Unknown()
	if !vals.Shape.RankDynamic {
		n = vals.Shape.Dims[0]
	}
	if _, ok, err := c.RequireRank(idx, 2, 2, 2); err != nil {
		return err
	} else if ok {
		if _, err := c.Unify(idx.Shape.Dims[1], sym.Const(2), "the indices' second dim"); err != nil {
			return err
		}
		if n, err = c.Unify(idx.Shape.Dims[0], n, "the number of indices and of values"); err != nil {
			return err
		}
	}
	rows, m := sym.Unknown(), sym.Unknown()
	if dense := ins[1].Value; len(dense) == 2 {
		rows = dense[0]
		lo, _ := n.Bounds()
		_, hi := sym.AddDims(n, rows).Bounds()
		m = c.Fresh("rows", lo, hi)
		cols, ok1 := dense[1].Static()
		nr, ok2 := rows.Static()
		if iv, ok := idx.Ints(); ok && ok1 && ok2 {
			seen := map[int64]bool{}
			for i := 0; i+1 < len(iv); i += 2 {
				if iv[i] < 0 || iv[i] >= nr || iv[i+1] < 0 || iv[i+1] >= cols {
					return c.Errorf(errcode.ErrInvalidShape, "index (%d, %d) is outside the dense shape [%d, %d]", iv[i], iv[i+1], nr, cols)
				}
				seen[iv[i]] = true
			}
			m = sym.AddDims(n, sym.Const(nr-int64(len(seen))))
		} else {
			c.RunTime("the count of empty rows filled")
		}
	}
	c.Out(0, idx.Type, sym.ShapeOf(m, sym.Const(2)))
	c.Out(1, vals.Type, sym.ShapeOf(m))
	c.Out(2, element.Boolean, sym.ShapeOf(rows))
	return nil
}

// ovCumSum: CumSum-3: the data's shape; the axis (input 1, 0 by default) is an axis of the data.
func ovCumSum(c *ctx) error {
	data, err := c.Input(0)
	if err != nil {
		return err
	}
	if axis := c.In(1); axis != nil {
		if v, ok := axis.Ints(); ok && len(v) == 1 {
			if r, ok := data.Rank(); ok && r > 0 {
				if _, err := c.NormAxis(v[0], r); err != nil {
					return err
				}
			}
		}
	}
	c.SameAs(0, data)
	return nil
}

// ovEinsum: Einsum-7: the output of the equation attribute as einsum computes it, the ellipses of
// the terms broadcast with one another aligned at the end.
func ovEinsum(c *ctx) error { return einsumOf(c, false) }
