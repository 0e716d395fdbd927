package graph

import (
	"math"
	"slices"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoDetection holds the rules of OpenVINO IR's object detection layers: the SSD priors and
// DetectionOutput, the Faster R-CNN Proposal, the YOLO regions, and the ROI poolings. Their outputs
// follow from the attributes and the inputs' dims; each checks the ranks and the dims its
// inputs must share.
var openvinoDetection = table{DomainOpenVINO, []opDef{
	{"PriorBox", since(1, 8), fixed(2), fixed(1), reads(0), ovPriorBox},
	{"PriorBoxClustered", since(1), fixed(2), fixed(1), reads(0), ovPriorBox},
	{"DetectionOutput", since(1, 8), span(3, 5), fixed(1), 0, ovDetectionOutput},
	{"Proposal", since(1), fixed(3), fixed(1), 0, ovProposal},
	{"Proposal", since(4), fixed(3), span(1, 2), 0, ovProposal},
	{"RegionYolo", since(1), fixed(1), fixed(1), 0, ovRegionYolo},
	{"ReorgYolo", since(1), fixed(1), fixed(1), 0, ovReorgYolo},
	{"ROIAlign", since(3, 9), fixed(3), fixed(1), 0, ovROIAlign},
	{"ROIAlignRotated", since(15), fixed(3), fixed(1), 0, ovROIAlign},
	{"ROIPooling", since(1), fixed(2), fixed(1), 0, ovROIPooling},
	{"PSROIPooling", since(1), fixed(2), fixed(1), 0, ovROIPooling},
	{"DeformablePSROIPooling", since(1), span(2, 3), fixed(1), 0, ovROIPooling},
}}

// ovPriorBox: PriorBox-1, -8 and PriorBoxClustered-1: f32 [2, 4·H·W·P] for the output size [H, W]
// (input 0, 1-D of two elements, as input 1, the image size, is 1-D) and P priors per point:
// PriorBoxClustered's one per width (as many heights); PriorBox's the normalized aspect ratios
// (aspect_ratio, their inverses with flip, and 1, each once, rounded to 1e-6) times the min_size
// plus the max_size with scale_all_sizes, else the ratios and the min sizes less 1; fixed_size
// makes it the ratios times the fixed sizes; each density d adds (floor(d)²-1) times the
// fixed_ratio count, or the ratios.
func ovPriorBox(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	r0, ok0 := ins[0].Rank()
	r1, ok1 := ins[1].Rank()
	if ok0 && r0 != 1 || ok1 && r1 != 1 || ok0 && ok1 && r0 != r1 {
		return c.Errorf(errcode.ErrInvalidShape, "the output size has rank %d and the image size %d: want both 1-D", r0, r1)
	}
	p, err := ovPriors(c)
	if err != nil {
		return err
	}
	if ok0 && !ins[0].Shape.RankDynamic {
		if n, ok := ins[0].Shape.Dims[0].Static(); ok && n != 2 {
			return c.Errorf(errcode.ErrInvalidShape, "the output size has %d elements, want 2", n)
		}
	}
	n := sym.Unknown()
	if hw := ins[0].Value; len(hw) == 2 {
		n = sym.MulDims(sym.MulDims(sym.Const(4*p), hw[0]), hw[1])
	}
	c.Out(0, element.F32, sym.ShapeOf(sym.Const(2), n))
	return nil
}

// ovPriors returns the number of priors per point of a PriorBox or PriorBoxClustered (ovPriorBox).
func ovPriors(c *ctx) (int64, error) {
	floats := func(name string) ([]float64, error) {
		v, _, err := c.Floats(name)
		return v, err
	}
	if c.n.Op == "PriorBoxClustered" {
		w, err := floats("width")
		if err != nil {
			return 0, err
		}
		h, err := floats("height")
		if err != nil {
			return 0, err
		}
		if len(w) != len(h) {
			return 0, c.Errorf(errcode.ErrSyntax, "%d widths and %d heights: want one per prior", len(w), len(h))
		}
		return int64(len(w)), nil
	}
	var lists [6][]float64
	for k, name := range []string{"aspect_ratio", "min_size", "max_size", "fixed_size", "fixed_ratio", "density"} {
		var err error
		if lists[k], err = floats(name); err != nil {
			return 0, err
		}
	}
	flip, err := ovBool(c, "flip", false)
	if err != nil {
		return 0, err
	}
	all, err := ovBool(c, "scale_all_sizes", true)
	if err != nil {
		return 0, err
	}
	ratios := []float64{1}
	for _, r := range lists[0] {
		ratios = append(ratios, math.Round(r*1e6)/1e6)
		if flip {
			ratios = append(ratios, math.Round(1/r*1e6)/1e6)
		}
	}
	slices.Sort(ratios)
	a := int64(len(slices.Compact(ratios)))
	minSizes, maxSizes, fixedSizes, fixedRatios := int64(len(lists[1])), int64(len(lists[2])), int64(len(lists[3])), int64(len(lists[4]))
	n := a + minSizes - 1
	if all {
		n = a*minSizes + maxSizes
	}
	if fixedSizes > 0 {
		n = a * fixedSizes
	}
	for _, d := range lists[5] {
		d2 := int64(d)*int64(d) - 1
		if fixedRatios > 0 {
			n += fixedRatios * d2
		} else {
			n += a * d2
		}
	}
	return max(n, 0), nil
}

// ovDetectionOutput: DetectionOutput-1 (num_classes attribute) and -8 (num_classes from the
// inputs): box_logits [N, P·L·4] (L 1 with share_location, else the classes C), class_preds
// [N, P·C], proposals [1 or N, 1 with variance_encoded_in_target else 2, P·S] (S 4 when
// normalized, else 5) and the optional aux_class_preds [N, 2·P] and aux_box_preds (the shape of
// box_logits) give [1, 1, X, 7]: X is N·keep_top_k[0] when that is positive, N·top_k·C when
// keep_top_k[0] is -1 and top_k positive, N·P·C otherwise. P comes from static dims as OpenVINO
// takes it (the proposals', the aux_class_preds', or the box logits' when L is known); the dims
// that share P, N or C unify with what it gives.
func ovDetectionOutput(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	five := c.In(3) != nil && c.In(4) != nil
	for i, r := range [...]int{2, 2, 3, 2, 2} {
		if in := c.In(i); in != nil {
			if _, _, err := c.RequireRank(in, i, r, r); err != nil {
				return err
			}
		}
	}
	keep, _, err := c.Ints("keep_top_k")
	if err != nil {
		return err
	}
	topK, err := c.Int("top_k", -1)
	if err != nil {
		return err
	}
	share, err := ovBool(c, "share_location", true)
	if err != nil {
		return err
	}
	normalized, err := ovBool(c, "normalized", false)
	if err != nil {
		return err
	}
	variance, err := ovBool(c, "variance_encoded_in_target", false)
	if err != nil {
		return err
	}
	classes := int64(0) // 0: not known
	if c.Version() < 8 {
		if classes, err = c.Int("num_classes", 0); err != nil {
			return err
		}
		if classes < 1 {
			return c.Errorf(errcode.ErrSyntax, "num_classes %d: want at least 1", classes)
		}
	}
	size := int64(5)
	if normalized {
		size = 4
	}
	box, cls, prop := dimsOrUnknown(ins[0], 2), dimsOrUnknown(ins[1], 2), dimsOrUnknown(ins[2], 3)
	var auxCls []sym.Dim
	if five {
		auxCls = dimsOrUnknown(c.In(3), 2)
	}
	// The number of priors P from static dims, as OpenVINO takes it.
	priors := int64(0)
	switch {
	case isStatic(prop[2]):
		n, _ := prop[2].Static()
		if n%size != 0 || n == 0 {
			return c.Errorf(errcode.ErrInvalidShape, "the proposals' third dim %d: want a positive multiple of %d", n, size)
		}
		priors = n / size
	case five && isStatic(auxCls[1]):
		n, _ := auxCls[1].Static()
		if n%2 != 0 || n == 0 {
			return c.Errorf(errcode.ErrInvalidShape, "aux_class_preds' second dim %d: want a positive multiple of 2", n)
		}
		priors = n / 2
	}
	if classes == 0 && priors > 0 {
		switch n, ok := cls[1].Static(); {
		case ok:
			if n%priors != 0 {
				return c.Errorf(errcode.ErrInvalidShape, "class_preds' second dim %d is not a multiple of the %d priors", n, priors)
			}
			classes = n / priors
		case !share && isStatic(box[1]):
			n, _ := box[1].Static()
			if n%(4*priors) != 0 {
				return c.Errorf(errcode.ErrInvalidShape, "box_logits' second dim %d is not a multiple of 4 times the %d priors", n, priors)
			}
			classes = n / (4 * priors)
		}
	}
	loc := classes
	if share {
		loc = 1
	}
	if priors == 0 && loc > 0 && isStatic(box[1]) {
		n, _ := box[1].Static()
		if n%(4*loc) != 0 {
			return c.Errorf(errcode.ErrInvalidShape, "box_logits' second dim %d is not a multiple of 4·%d", n, loc)
		}
		priors = n / (4 * loc)
	}
	unify := func(d sym.Dim, n int64, what string) error {
		if n <= 0 {
			return nil
		}
		_, err := c.Unify(d, sym.Const(n), what)
		return err
	}
	variances := int64(2)
	if variance {
		variances = 1
	}
	if err := errOr(errOr(unify(box[1], priors*loc*4, "box_logits' second dim and priors·classes·4"),
		unify(cls[1], priors*classes, "class_preds' second dim and priors·classes")),
		errOr(unify(prop[1], variances, "the proposals' second dim"),
			unify(prop[2], priors*size, "the proposals' third dim and priors·prior box size"))); err != nil {
		return err
	}
	batch, err := c.Unify(box[0], cls[0], "the batch of box_logits and class_preds")
	if err != nil {
		return err
	}
	if !isOne(prop[0]) && !maybeOne(prop[0]) {
		if batch, err = c.Unify(prop[0], batch, "the proposals' first dim, 1 or the batch"); err != nil {
			return err
		}
	}
	if five {
		if batch, err = c.Unify(auxCls[0], batch, "the batch of aux_class_preds"); err != nil {
			return err
		}
		if err := unify(auxCls[1], 2*priors, "aux_class_preds' second dim and 2·priors"); err != nil {
			return err
		}
		if err := sameShape(c, c.In(4).Shape, ins[0].Shape, "aux_box_preds and box_logits"); err != nil {
			return err
		}
	}
	var x sym.Dim
	known := func(n int64) sym.Dim {
		if n > 0 {
			return sym.Const(n)
		}
		return sym.Unknown()
	}
	switch {
	case len(keep) > 0 && keep[0] > 0:
		x = sym.MulDims(batch, sym.Const(keep[0]))
	case len(keep) > 0 && keep[0] == -1 && topK > 0:
		x = sym.MulDims(sym.MulDims(batch, sym.Const(topK)), known(classes))
	default:
		x = sym.MulDims(sym.MulDims(batch, known(priors)), known(classes))
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(sym.Const(1), sym.Const(1), x, sym.Const(7)))
	return nil
}

// dimsOrUnknown returns the dims of in, of rank r, or r unknown dims when its rank is not known.
func dimsOrUnknown(in *Info, r int) []sym.Dim {
	if in.Shape.RankDynamic {
		return unknownDims(r).Dims
	}
	return in.Shape.Dims
}

// ovProposal: Proposal-1 and -4 (a second output): class_probs [N, 2·A, H, W] and bbox_deltas
// [N, 4·A, H, W] of one batch and spatial dims, and the 1-D image_shape of 3 or 4 elements, give
// the proposals [N·post_nms_topn, 5] and at Proposal-4 their scores [N·post_nms_topn], of the
// class_probs' type.
func ovProposal(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	probs, deltas := ins[0], ins[1]
	for i := range 2 {
		if _, _, err := c.RequireRank(ins[i], i, 4, 4); err != nil {
			return err
		}
	}
	if _, n, err := ovVector(c, 2, "image_shape"); err != nil {
		return err
	} else if n >= 0 && (n < 3 || n > 4) {
		return c.Errorf(errcode.ErrInvalidShape, "image_shape has %d elements: want 3 or 4", n)
	}
	top, err := c.Int("post_nms_topn", 0)
	if err != nil {
		return err
	}
	if top < 1 {
		return c.Errorf(errcode.ErrSyntax, "post_nms_topn %d: want at least 1", top)
	}
	batch := sym.Unknown()
	p, d := dimsOrUnknown(probs, 4), dimsOrUnknown(deltas, 4)
	if !probs.Shape.RankDynamic && !deltas.Shape.RankDynamic {
		if batch, err = c.Unify(p[0], d[0], "the batch of class_probs and bbox_deltas"); err != nil {
			return err
		}
		if _, err := c.Unify(d[1], sym.MulDims(sym.Const(2), p[1]), "bbox_deltas' anchors (4·A) and class_probs' (2·A)"); err != nil {
			return err
		}
		for i := 2; i < 4; i++ {
			if _, err := c.Unify(p[i], d[i], "dim "+itoa(i)+" of class_probs and bbox_deltas"); err != nil {
				return err
			}
		}
	} else if !probs.Shape.RankDynamic {
		batch = p[0]
	} else if !deltas.Shape.RankDynamic {
		batch = d[0]
	}
	n := sym.MulDims(batch, sym.Const(top))
	c.Out(0, probs.Type, sym.ShapeOf(n, sym.Const(5)))
	c.Out(1, probs.Type, sym.ShapeOf(n))
	return nil
}

// ovRegionYolo: RegionYolo-1 of a 4-D input: with do_softmax, the input with its axes axis to
// end_axis flattened into one (nothing when end_axis comes before axis); without,
// [N, (classes + coords + 1)·len(mask), H, W].
func ovRegionYolo(c *ctx) error {
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if r != 4 {
		return c.Errorf(errcode.ErrInvalidShape, "the input has rank %d, want 4", r)
	}
	soft, err := ovBool(c, "do_softmax", false)
	if err != nil {
		return err
	}
	if !soft {
		var n [2]int64
		for k, name := range []string{"classes", "coords"} {
			if n[k], err = c.Int(name, 0); err != nil {
				return err
			}
		}
		mask, _, err := c.Ints("mask")
		if err != nil {
			return err
		}
		ch := sym.Const((n[0] + n[1] + 1) * int64(len(mask)))
		c.Out(0, in.Type, sym.ShapeOf(withDim(in.Shape.Dims, 1, ch)...))
		return nil
	}
	var a [2]int
	for k, name := range []string{"axis", "end_axis"} {
		v, err := c.Int(name, 0)
		if err != nil {
			return err
		}
		if a[k], err = c.NormAxis(v, r); err != nil {
			return err
		}
	}
	if a[1] < a[0] {
		c.SameAs(0, in)
		return nil
	}
	d := in.Shape.Dims
	dims := slices.Concat(d[:a[0]], []sym.Dim{product(d[a[0] : a[1]+1])}, d[a[1]+1:])
	c.Out(0, in.Type, sym.ShapeOf(dims...))
	return nil
}

// ovReorgYolo: ReorgYolo-1: [N, C, H, W] becomes [N, C·s², H/s, W/s] for the stride s; H and W
// must be multiples of s, and C at least s².
func ovReorgYolo(c *ctx) error {
	s, err := c.Int("stride", 0)
	if err != nil {
		return err
	}
	if s < 1 || s > maxBlock {
		return c.Errorf(errcode.ErrSyntax, "stride %d: want a stride in [1, %d]", s, maxBlock)
	}
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, ok, err := c.RequireRank(in, 0, 4, 4); err != nil || !ok {
		return err
	}
	d := in.Shape.Dims
	if err := requireAtLeast(c, d[1], s*s, "the channels at least stride²"); err != nil {
		return err
	}
	dims := []sym.Dim{d[0], sym.MulDims(d[1], sym.Const(s*s)), sym.Unknown(), sym.Unknown()}
	for i := 2; i < 4; i++ {
		if err := requireMultiple(c, d[i], s, "dim "+itoa(i)+" a multiple of the stride "+itoa(int(s))); err != nil {
			return err
		}
		dims[i] = sym.QuoDims(d[i], sym.Const(s))
	}
	c.Out(0, in.Type, sym.ShapeOf(dims...))
	return nil
}

// ovPooled returns the pooled_h and pooled_w attributes of an ROI pooling, each at least 1.
func ovPooled(c *ctx) (pooled [2]int64, err error) {
	for k, name := range []string{"pooled_h", "pooled_w"} {
		if pooled[k], err = c.Int(name, 0); err != nil {
			return pooled, err
		}
		if pooled[k] < 1 {
			return pooled, c.Errorf(errcode.ErrSyntax, "%s %d: want at least 1", name, pooled[k])
		}
	}
	return pooled, nil
}

// ovROIAlign: ROIAlign-3, -9 and ROIAlignRotated-15: data [N, C, H, W], rois [R, 4] (5 for the
// rotated) and batch_indices [R] give [R, C, pooled_h, pooled_w].
func ovROIAlign(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	pooled, err := ovPooled(c)
	if err != nil {
		return err
	}
	coords := int64(4)
	if c.n.Op == "ROIAlignRotated" {
		coords = 5
	}
	for i, r := range [...]int{4, 2, 1} {
		if _, _, err := c.RequireRank(ins[i], i, r, r); err != nil {
			return err
		}
	}
	data, rois, idx := dimsOrUnknown(ins[0], 4), dimsOrUnknown(ins[1], 2), dimsOrUnknown(ins[2], 1)
	if _, err := c.Unify(rois[1], sym.Const(coords), "the rois' coordinates"); err != nil {
		return err
	}
	n, err := c.Unify(rois[0], idx[0], "the number of rois and of batch_indices")
	if err != nil {
		return err
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(n, data[1], sym.Const(pooled[0]), sym.Const(pooled[1])))
	return nil
}

// ovROIPooling: ROIPooling-1 (pooled_h, pooled_w; method max or bilinear; a positive
// spatial_scale): data [N, C, H, W] and rois [R, 5] give [R, C, pooled_h, pooled_w];
// PSROIPooling-1 and DeformablePSROIPooling-1 (offsets, input 2): [R, output_dim, group_size,
// group_size], where PSROIPooling's channels are output_dim·group_size² (mode average) or
// output_dim·spatial_bins_x·spatial_bins_y (bilinear).
func ovROIPooling(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	scale, err := c.Float("spatial_scale", 0)
	if err != nil {
		return err
	}
	if !(scale > 0) {
		return c.Errorf(errcode.ErrSyntax, "spatial_scale %g: want a positive scale", scale)
	}
	for i := range 2 {
		if _, _, err := c.RequireRank(ins[i], i, 4-2*i, 4-2*i); err != nil {
			return err
		}
	}
	data, rois := dimsOrUnknown(ins[0], 4), dimsOrUnknown(ins[1], 2)
	if _, err := c.Unify(rois[1], sym.Const(5), "the rois' batch index and box coordinates"); err != nil {
		return err
	}
	if c.n.Op == "ROIPooling" {
		pooled, err := ovPooled(c)
		if err != nil {
			return err
		}
		if m, err := c.String("method", "max"); err != nil {
			return err
		} else if m != "max" && m != "bilinear" {
			return c.Errorf(errcode.ErrSyntax, "method %q: want max or bilinear", m)
		}
		c.Out(0, ins[0].Type, sym.ShapeOf(rois[0], data[1], sym.Const(pooled[0]), sym.Const(pooled[1])))
		return nil
	}
	mode, err := c.String("mode", "bilinear_deformable")
	if err != nil {
		return err
	}
	var a [4]int64
	for k, name := range []string{"output_dim", "group_size", "spatial_bins_x", "spatial_bins_y"} {
		if a[k], err = c.Int(name, 1); err != nil {
			return err
		}
		if a[k] < 1 && (k < 2 || mode != "average") { // PSROIPooling's average mode has no bins
			return c.Errorf(errcode.ErrSyntax, "%s %d: want at least 1", name, a[k])
		}
	}
	if c.n.Op == "PSROIPooling" {
		var ch int64
		switch mode {
		case "average":
			ch = a[0] * a[1] * a[1]
		case "bilinear":
			ch = a[0] * a[2] * a[3]
		default:
			return c.Errorf(errcode.ErrSyntax, "mode %q: want average or bilinear", mode)
		}
		if _, err := c.Unify(data[1], sym.Const(ch), "the channels and what mode "+mode+" pools"); err != nil {
			return err
		}
	} else if off := c.In(2); off != nil {
		if r, ok, err := c.RequireRank(off, 2, 4, 4); err != nil {
			return err
		} else if ok && r == 4 {
			if rois[0], err = c.Unify(off.Shape.Dims[0], rois[0], "the offsets' first dim and the rois"); err != nil {
				return err
			}
		}
	}
	g := sym.Const(a[1])
	c.Out(0, ins[0].Type, sym.ShapeOf(rois[0], sym.Const(a[0]), g, g))
	return nil
}
