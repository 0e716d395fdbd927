package graph

import (
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoSpace holds the rules of the OpenVINO IR layers that move data between the batch or
// channel axis and the spatial axes: blocks of the depth to space and back, the batch to space and
// back, channel shuffles, image patches and their inverse, Col2Im.
var openvinoSpace = table{DomainOpenVINO, []opDef{
	{"DepthToSpace", since(1), fixed(1), fixed(1), 0, ovDepthToSpace},
	{"SpaceToDepth", since(1), fixed(1), fixed(1), 0, ovSpaceToDepth},
	{"ShuffleChannels", since(1), fixed(1), fixed(1), 0, ovShuffleChannels},
	{"BatchToSpace", since(2), fixed(4), fixed(1), reads(1, 2, 3), ovBatchToSpace},
	{"SpaceToBatch", since(2), fixed(4), fixed(1), reads(1, 2, 3), ovBatchToSpace},
	{"ExtractImagePatches", since(3), fixed(1), fixed(1), 0, ovExtractImagePatches},
	{"Col2Im", since(15), fixed(3), fixed(1), reads(1, 2), ovCol2Im},
}}

// ovBlocks reads the block_size (1 by default, at least 1) and mode (blocks_first or
// depth_first) of DepthToSpace and SpaceToDepth, and the input, of rank 3 or more: ok is false
// when its rank is not known.
func ovBlocks(c *ctx) (in *Info, b int64, ok bool, err error) {
	mode, err := c.String("mode", "")
	if err != nil {
		return nil, 0, false, err
	}
	if mode != "blocks_first" && mode != "depth_first" {
		return nil, 0, false, c.Errorf(errcode.ErrSyntax, "mode %q: want blocks_first or depth_first", mode)
	}
	if b, err = c.Int("block_size", 1); err != nil {
		return nil, 0, false, err
	}
	if b < 1 || b > maxBlock {
		return nil, 0, false, c.Errorf(errcode.ErrInvalidShape, "block_size %d: want a size in [1, %d]", b, maxBlock)
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return in, b, false, err
	}
	if r < 3 {
		return nil, 0, false, c.Errorf(errcode.ErrInvalidShape, "the input has rank %d: DepthToSpace and SpaceToDepth take rank 3 or more", r)
	}
	return in, b, true, nil
}

// blockVolume returns b^n, or an error wrapping errcode.ErrInvalidShape when it passes int64.
func blockVolume(c *ctx, b int64, n int) (int64, error) {
	v := int64(1)
	for range n {
		if v > (1<<62)/b {
			return 0, c.Errorf(errcode.ErrInvalidShape, "block_size %d to the power %d passes int64", b, n)
		}
		v *= b
	}
	return v, nil
}

// ovDepthToSpace: DepthToSpace-1: [N, C, D1..Dk] becomes [N, C/b^k, D1·b, .., Dk·b] for the
// block_size b; C must be a multiple of b^k (a constraint of the node when C is symbolic).
func ovDepthToSpace(c *ctx) error {
	in, b, ok, err := ovBlocks(c)
	if err != nil || !ok {
		return err
	}
	dims := c.clone(in.Shape.Dims)
	k := len(dims) - 2
	v, err := blockVolume(c, b, k)
	if err != nil {
		return err
	}
	if err := requireMultiple(c, dims[1], v, "the channels a multiple of block_size^"+itoa(k)+" = "+itoa(int(v))); err != nil {
		return err
	}
	dims[1] = sym.QuoDims(dims[1], sym.Const(v))
	for i := 2; i < len(dims); i++ {
		dims[i] = sym.MulDims(dims[i], sym.Const(b))
	}
	c.Out(0, in.Type, sym.ShapeOf(dims...))
	return nil
}

// ovSpaceToDepth: SpaceToDepth-1: [N, C, D1..Dk] becomes [N, C·b^k, D1/b, .., Dk/b] for the
// block_size b; each Di must be a multiple of b.
func ovSpaceToDepth(c *ctx) error {
	in, b, ok, err := ovBlocks(c)
	if err != nil || !ok {
		return err
	}
	dims := c.clone(in.Shape.Dims)
	k := len(dims) - 2
	v, err := blockVolume(c, b, k)
	if err != nil {
		return err
	}
	for i := 2; i < len(dims); i++ {
		if err := requireMultiple(c, dims[i], b, "dim "+itoa(i)+" a multiple of block_size "+itoa(int(b))); err != nil {
			return err
		}
		dims[i] = sym.QuoDims(dims[i], sym.Const(b))
	}
	dims[1] = sym.MulDims(dims[1], sym.Const(v))
	c.Out(0, in.Type, sym.ShapeOf(dims...))
	return nil
}

// ovShuffleChannels: ShuffleChannels-1: the input's shape, of rank 1 or more; the dim at axis (1
// by default) must be a multiple of group (1 by default, at least 1).
func ovShuffleChannels(c *ctx) error {
	axis, err := c.Int("axis", 1)
	if err != nil {
		return err
	}
	group, err := c.Int("group", 1)
	if err != nil {
		return err
	}
	if group < 1 {
		return c.Errorf(errcode.ErrInvalidShape, "group %d: want at least 1", group)
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if r == 0 {
		return c.Errorf(errcode.ErrInvalidShape, "the input is a scalar: ShuffleChannels takes rank 1 or more")
	}
	a, err := c.NormAxis(axis, r)
	if err != nil {
		return err
	}
	if err := requireMultiple(c, in.Shape.Dims[a], group, "the channels (axis "+itoa(a)+") a multiple of group "+itoa(int(group))); err != nil {
		return err
	}
	c.SameAs(0, in)
	return nil
}

// ovBatchToSpace: BatchToSpace-2 and SpaceToBatch-2: the block_shape (input 1, each at least 1)
// and the crops_begin and crops_end (BatchToSpace) or pads_begin and pads_end (SpaceToBatch),
// inputs 2 and 3, each at least 0, are 1-D of the data's rank (2 or more). BatchToSpace gives
// [N/B, D1·b1-cb1-ce1, ...] for B the product of the block_shape (N a multiple of B; a cropped
// dim not negative); SpaceToBatch [N·B, (D1+pb1+pe1)/b1, ...] (each padded dim a multiple of its
// block).
func ovBatchToSpace(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	data := ins[0]
	toSpace := c.n.Op == "BatchToSpace"
	length := -1 // the length of the three 1-D inputs
	for i := 1; i <= 3; i++ {
		_, n, err := ovVector(c, i, ovBatchInputs[i-1])
		if err != nil {
			return err
		}
		if n >= 0 && length >= 0 && n != length {
			return c.Errorf(errcode.ErrInvalidShape, "block_shape and the two crops or pads have lengths %d and %d: want one shape", length, n)
		}
		length = max(length, n)
	}
	r, rok := data.Rank()
	switch {
	case rok && r < 2:
		return c.Errorf(errcode.ErrInvalidShape, "the data has rank %d: want 2 or more", r)
	case rok && length >= 0 && length != r:
		return c.Errorf(errcode.ErrInvalidShape, "block_shape and the crops or pads have %d elements, the data has rank %d", length, r)
	case !rok && length < 0:
		return nil
	case !rok:
		r = length
	}
	var vals [3][]int64
	known := true
	for k := range vals {
		v, ok := ins[k+1].Ints()
		known = known && ok
		vals[k] = v
		least := int64(0) // crops and pads; blocks are at least 1
		if k == 0 {
			least = 1
		}
		for i, x := range v {
			if x < least {
				return c.Errorf(errcode.ErrInvalidShape, "%s[%d] = %d: want at least %d", ovBatchInputs[k], i, x, least)
			}
		}
	}
	dims := dimsOf(c, data, r)
	if !known {
		c.Out(0, data.Type, unknownDims(r))
		return nil
	}
	block, begin, end := vals[0], vals[1], vals[2]
	volume := int64(1)
	for _, b := range block {
		if volume > (1<<62)/b {
			return c.Errorf(errcode.ErrInvalidShape, "the product of block_shape %v passes int64", block)
		}
		volume *= b
	}
	if toSpace {
		if err := requireMultiple(c, dims[0], volume, "the batch a multiple of the product of block_shape, "+itoa(int(volume))); err != nil {
			return err
		}
		dims[0] = sym.QuoDims(dims[0], sym.Const(volume))
	} else {
		dims[0] = sym.MulDims(dims[0], sym.Const(volume))
	}
	for i := 1; i < r; i++ {
		if toSpace {
			d := sym.SubDims(sym.MulDims(dims[i], sym.Const(block[i])), sym.Const(begin[i]+end[i]))
			if err := requireAtLeast(c, d, 0, "axis "+itoa(i)+": crops "+itoa(int(begin[i]))+" and "+itoa(int(end[i]))+" within "+itoa(int(block[i]))+" times the dim"); err != nil {
				return err
			}
			dims[i], _ = d.NonNegative()
			continue
		}
		d := sym.AddDims(dims[i], sym.Const(begin[i]+end[i]))
		if err := requireMultiple(c, d, block[i], "axis "+itoa(i)+": the padded dim a multiple of block_shape["+itoa(i)+"] = "+itoa(int(block[i]))); err != nil {
			return err
		}
		dims[i] = sym.QuoDims(d, sym.Const(block[i]))
	}
	c.Out(0, data.Type, sym.ShapeOf(dims...))
	return nil
}

// ovBatchInputs names inputs 1 to 3 of BatchToSpace and SpaceToBatch in errors.
var ovBatchInputs = [3]string{"block_shape", "the crops or pads begin", "the crops or pads end"}

// ovExtractImagePatches: ExtractImagePatches-3: [N, C, H, W] becomes [N, C·sizes[0]·sizes[1],
// OH, OW]: with auto_pad valid, (H - rates[0]·(sizes[0]-1) - 1)/strides[0] + 1 divided as C++
// does (toward zero), at least 0; with same_upper or same_lower ceil(H/strides[0]); OW likewise.
// sizes, strides and rates are pairs, strides and rates at least 1 (errcode.ErrSyntax otherwise).
func ovExtractImagePatches(c *ctx) error {
	var attrs [3][]int64
	for k, name := range []string{"sizes", "strides", "rates"} {
		v, _, err := c.Ints(name)
		if err != nil {
			return err
		}
		if len(v) != 2 {
			return c.Errorf(errcode.ErrSyntax, "%s %v: want 2 values, rows and columns", name, v)
		}
		for _, x := range v {
			if x < 1 && k > 0 || x < 0 {
				return c.Errorf(errcode.ErrSyntax, "%s %v: want values of at least 1", name, v)
			}
		}
		attrs[k] = v
	}
	pad, err := c.String("auto_pad", "")
	if err != nil {
		return err
	}
	if pad != "valid" && pad != "same_upper" && pad != "same_lower" {
		return c.Errorf(errcode.ErrSyntax, "auto_pad %q: want valid, same_upper or same_lower", pad)
	}
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, ok, err := c.RequireRank(in, 0, 4, 4); err != nil || !ok {
		return err
	}
	sizes, strides, rates := attrs[0], attrs[1], attrs[2]
	d := in.Shape.Dims
	dims := []sym.Dim{d[0], sym.MulDims(d[1], sym.Const(sizes[0]*sizes[1])), sym.Unknown(), sym.Unknown()}
	for i := range 2 {
		h := d[2+i]
		if n, ok := h.Static(); ok && n == 0 {
			c.SameAs(0, in)
			return nil
		}
		if pad == "valid" {
			num := sym.SubDims(h, sym.Const(rates[i]*(sizes[i]-1)+1))
			dims[2+i] = sym.MaxDims(sym.AddDims(sym.TruncDivDims(num, sym.Const(strides[i])), sym.Const(1)), sym.Const(0))
		} else {
			dims[2+i] = ceilDiv(h, strides[i])
		}
		dims[2+i], _ = dims[2+i].NonNegative()
	}
	c.Out(0, in.Type, sym.ShapeOf(dims...))
	return nil
}

// ovCol2Im: Col2Im-15: data [N, C·k0·k1, L] (or [C·k0·k1, L] without a batch) becomes
// [N, C, output_size[0], output_size[1]] for the kernel_size [k0, k1] (input 2) and output_size
// (input 1), both 1-D of 2 elements; L must be the number of blocks,
// ∏ ((output_size[i] + pads_begin[i] + pads_end[i] - dilations[i]·(k_i-1) - 1)/strides[i] + 1).
func ovCol2Im(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	data := ins[0]
	for i, what := range []string{"output_size", "kernel_size"} {
		if _, n, err := ovVector(c, i+1, what); err != nil {
			return err
		} else if n >= 0 && n != 2 {
			return c.Errorf(errcode.ErrInvalidShape, "%s (input %d) has %d elements, want 2", what, i+1, n)
		}
	}
	var attrs [4][]int64
	for k, name := range []string{"strides", "dilations", "pads_begin", "pads_end"} {
		least := int64(1) // strides and dilations; pads are at least 0
		if k >= 2 {
			least = 0
		}
		if attrs[k], err = windowInts(c, name, 2, least, least); err != nil {
			return err
		}
	}
	r, ok, err := c.RequireRank(data, 0, 2, 3)
	if err != nil || !ok {
		return err
	}
	batched := r == 3
	ch, blocks := data.Shape.Dims[r-2], data.Shape.Dims[r-1]
	out := []sym.Dim{sym.Unknown(), sym.Unknown(), sym.Unknown()}
	kernel, kok := ins[2].Ints()
	if kok {
		for i, k := range kernel {
			if k < 1 {
				return c.Errorf(errcode.ErrInvalidShape, "kernel_size[%d] = %d: want at least 1", i, k)
			}
		}
		v := kernel[0] * kernel[1]
		if err := requireMultiple(c, ch, v, "the channels a multiple of the kernel's "+itoa(int(v))+" elements"); err != nil {
			return err
		}
		out[0] = sym.QuoDims(ch, sym.Const(v))
	}
	if size := ins[1].Value; len(size) == 2 {
		n := sym.Const(1)
		for i, s := range size {
			d, err := requireNonNegative(c, s, "output_size["+itoa(i)+"]")
			if err != nil {
				return err
			}
			out[1+i] = d
			if kok {
				num := sym.SubDims(sym.AddDims(d, sym.Const(attrs[2][i]+attrs[3][i])), sym.Const(attrs[1][i]*(kernel[i]-1)+1))
				n = sym.MulDims(n, sym.AddDims(sym.FloorDivDims(num, sym.Const(attrs[0][i])), sym.Const(1)))
			}
		}
		if kok {
			if _, err := c.Unify(blocks, n, "the number of blocks L and the blocks that output_size holds"); err != nil {
				return err
			}
		}
	}
	if batched {
		out = append([]sym.Dim{data.Shape.Dims[0]}, out...)
	}
	c.Out(0, data.Type, sym.ShapeOf(out...))
	return nil
}
