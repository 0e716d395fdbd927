package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// openvinoNMS holds the rules of OpenVINO IR's box selections: the non-max suppressions and the
// proposal generators of Faster R-CNN and Detectron. How many boxes they select is run-time data:
// an anonymous dim bounded by what they may select, or the bound itself where the operation pads
// its output to it.
var openvinoNMS = table{DomainOpenVINO, []opDef{
	{"NonMaxSuppression", since(1, 3, 4), span(2, 5), fixed(1), reads(2), ovNMS},
	{"NonMaxSuppression", since(5, 9), span(2, 6), span(1, 3), reads(2), ovNMS},
	{"NMSRotated", since(13), fixed(5), span(1, 3), reads(2), ovNMS},
	{"MatrixNms", since(8), fixed(2), span(1, 3), 0, ovMulticlassNMS},
	{"MulticlassNms", since(8), fixed(2), span(1, 3), 0, ovMulticlassNMS},
	{"MulticlassNms", since(9), span(2, 3), span(1, 3), 0, ovMulticlassNMS},
	{"GenerateProposals", since(9), fixed(4), span(1, 3), 0, ovGenerateProposals},
	{"ExperimentalDetectronGenerateProposalsSingleImage", since(6), fixed(4), span(1, 2), 0, ovGenerateProposals},
	{"ExperimentalDetectronDetectionOutput", since(6), fixed(4), span(1, 3), 0, ovEDDetectionOutput},
	{"ExperimentalDetectronPriorGridGenerator", since(6), fixed(3), fixed(1), 0, ovEDPriorGrid},
	{"ExperimentalDetectronROIFeatureExtractor", since(6), span(2, many), span(1, 2), 0, ovEDROIFeatures},
	{"ExperimentalDetectronTopKROIs", since(6), fixed(2), fixed(1), 0, ovEDTopKROIs},
}}

// ovNMSBoxes checks boxes [B, N, K] (K the box's coordinates) and scores [B, C, N] and returns
// their batches, classes and boxes, unified.
func ovNMSBoxes(c *ctx, boxes, scores *Info, k int64) (b, cl, n sym.Dim, err error) {
	bx, err := rnnDims(c, boxes, 0, sym.Unknown(), sym.Unknown(), sym.Const(k))
	if err != nil {
		return b, cl, n, err
	}
	sc, err := rnnDims(c, scores, 1, bx[0], sym.Unknown(), bx[1])
	if err != nil {
		return b, cl, n, err
	}
	return sc[0], sc[1], sc[2], nil
}

// ovNMS: NonMaxSuppression-1, -3, -4 (output_type) give the selected indices
// [B·C·min(N, max_output_boxes_per_class), 3] (their count padded to the bound; without
// max_output_boxes_per_class, 0); -5, -9 and NMSRotated-13 the selected indices and scores
// [M, 3] and the valid count [1], M at most that bound (unknown without max_output_boxes_per_class),
// for boxes [B, N, 4] (NMSRotated's [B, N, 5]) and scores [B, C, N]. The scalar inputs
// max_output_boxes_per_class, iou_threshold, score_threshold (and soft_nms_sigma) are scalars
// before -5 and scalars or one element from -5 on.
func ovNMS(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	k := int64(4)
	if c.n.Op == "NMSRotated" {
		k = 5
	}
	t := element.I64
	if c.n.Op != "NonMaxSuppression" || c.Version() >= 3 {
		if t, err = ovIndexType(c, "output_type", element.I64); err != nil {
			return err
		}
	}
	padded := c.n.Op == "NonMaxSuppression" && c.Version() < 5
	for i := 2; i < c.NumIn(); i++ {
		if in := c.In(i); in != nil {
			if padded {
				_, _, err = c.RequireRank(in, i, 0, 0)
			} else {
				_, _, err = ovScalar(c, i, "input "+itoa(i))
			}
			if err != nil {
				return err
			}
		}
	}
	b, cl, n, err := ovNMSBoxes(c, ins[0], ins[1], k)
	if err != nil {
		return err
	}
	per, known := sym.Const(0), true // max_output_boxes_per_class, 0 when left out
	if m := c.In(2); m != nil {
		if v, ok := m.Ints(); ok && len(v) == 1 {
			per = sym.Const(max(v[0], 0))
		} else {
			known = false
		}
	} else if !padded {
		known = false
	}
	var count sym.Dim
	switch {
	case padded && known:
		count = sym.MulDims(sym.MulDims(b, cl), sym.MinDims(n, per))
	case known:
		_, hi := sym.MulDims(sym.MulDims(b, cl), sym.MinDims(n, per)).Bounds()
		count = c.Fresh("selected", 0, hi)
		if hi == 0 {
			count = sym.Const(0)
		}
	default:
		count = sym.Unknown()
	}
	if _, ok := count.Static(); !ok && !padded {
		c.RunTime("the count of boxes selected")
	}
	c.Out(0, t, sym.ShapeOf(count, sym.Const(3)))
	scores := ins[0].Type
	if !scores.IsFloat() {
		scores = element.F32
	}
	c.Out(1, scores, sym.ShapeOf(count, sym.Const(3)))
	c.Out(2, t, sym.ShapeOf(sym.Const(1)))
	return nil
}

// ovMulticlassNMS: MatrixNms-8, MulticlassNms-8 (boxes [B, N, 4], scores [B, C, N]) and -9 (or
// boxes [C, N, 4], scores [C, N] and roisnum [B]): the selected boxes with their class and score
// [M, 6] (the boxes' type), their indices [M, 1] and the count per image [B] (output_type), M at
// most B·min(keep_top_k, C·min(N, nms_top_k)), the limits where they are not -1 (they and
// background_class are at least -1; MulticlassNms's nms_eta is within [0, 1]).
func ovMulticlassNMS(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	t, err := ovIndexType(c, "output_type", element.I64)
	if err != nil {
		return err
	}
	var b, cl, n sym.Dim
	if rois := c.In(2); rois != nil {
		bx, err := rnnDims(c, ins[0], 0, sym.Unknown(), sym.Unknown(), sym.Const(4))
		if err != nil {
			return err
		}
		sc, err := rnnDims(c, ins[1], 1, bx[0], bx[1])
		if err != nil {
			return err
		}
		r, err := rnnDims(c, rois, 2, sym.Unknown())
		if err != nil {
			return err
		}
		b, cl, n = r[0], sc[0], sc[1]
	} else if b, cl, n, err = ovNMSBoxes(c, ins[0], ins[1], 4); err != nil {
		return err
	}
	var limits [3]int64
	for k, name := range []string{"nms_top_k", "keep_top_k", "background_class"} {
		if limits[k], err = c.Int(name, -1); err != nil {
			return err
		}
		if limits[k] < -1 {
			return c.Errorf(errcode.ErrSyntax, "%s %d: want -1 or more", name, limits[k])
		}
	}
	if c.n.Op == "MulticlassNms" {
		if eta, err := c.Float("nms_eta", 1); err != nil {
			return err
		} else if !(eta >= 0 && eta <= 1) {
			return c.Errorf(errcode.ErrSyntax, "nms_eta %v: want 0 to 1", eta)
		}
	}
	per := n
	if limits[0] > -1 {
		per = sym.MinDims(per, sym.Const(limits[0]))
	}
	per = sym.MulDims(per, cl)
	if limits[1] > -1 {
		per = sym.MinDims(per, sym.Const(limits[1]))
	}
	_, hi := sym.MulDims(per, b).Bounds()
	m := c.Fresh("selected", 0, hi)
	c.RunTime("the count of boxes selected")
	c.Out(0, ins[0].Type, sym.ShapeOf(m, sym.Const(6)))
	c.Out(1, t, sym.ShapeOf(m, sym.Const(1)))
	c.Out(2, t, sym.ShapeOf(b))
	return nil
}

// ovGenerateProposals: GenerateProposals-9 (im_info [N, 3 or 4], anchors [H, W, A, 4], deltas
// [N, 4·A, H, W], scores [N, A, H, W]) gives rois [R, 4], their scores [R] and rois_num [N] (of
// roi_num_type), R at most N·post_nms_count;
// ExperimentalDetectronGenerateProposalsSingleImage-6 (im_info [3], anchors [H·W·A, 4],
// deltas [4·A, H, W], scores [A, H, W]) gives rois [post_nms_count, 4] and their scores
// [post_nms_count].
func ovGenerateProposals(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	post, err := c.Int("post_nms_count", 0)
	if err != nil {
		return err
	}
	if post < 1 {
		return c.Errorf(errcode.ErrSyntax, "post_nms_count %d: want at least 1", post)
	}
	t := ovSharedType(c)
	if c.n.Op == "ExperimentalDetectronGenerateProposalsSingleImage" {
		if _, n, err := ovVector(c, 0, "im_info"); err != nil {
			return err
		} else if n >= 0 && n != 3 {
			return c.Errorf(errcode.ErrInvalidShape, "im_info has %d elements, want 3", n)
		}
		if _, err := rnnDims(c, ins[1], 1, sym.Unknown(), sym.Const(4)); err != nil {
			return err
		}
		sc, err := rnnDims(c, ins[3], 3, sym.Unknown(), sym.Unknown(), sym.Unknown())
		if err != nil {
			return err
		}
		if _, err := rnnDims(c, ins[2], 2, sym.MulDims(sym.Const(4), sc[0]), sc[1], sc[2]); err != nil {
			return err
		}
		c.Out(0, t, sym.ShapeOf(sym.Const(post), sym.Const(4)))
		c.Out(1, t, sym.ShapeOf(sym.Const(post)))
		return nil
	}
	rt, err := ovIndexType(c, "roi_num_type", element.I64)
	if err != nil {
		return err
	}
	info, err := rnnDims(c, ins[0], 0, sym.Unknown(), sym.Unknown())
	if err != nil {
		return err
	}
	if err := requireAtLeast(c, info[1], 3, "im_info's second dim, 3 or 4"); err != nil {
		return err
	}
	if err := requireAtMost(c, info[1], sym.Const(4), "im_info's second dim, 3 or 4"); err != nil {
		return err
	}
	anchors, err := rnnDims(c, ins[1], 1, sym.Unknown(), sym.Unknown(), sym.Unknown(), sym.Const(4))
	if err != nil {
		return err
	}
	sc, err := rnnDims(c, ins[3], 3, info[0], anchors[2], anchors[0], anchors[1])
	if err != nil {
		return err
	}
	d, err := rnnDims(c, ins[2], 2, sc[0], sym.MulDims(sym.Const(4), sc[1]), sc[2], sc[3])
	if err != nil {
		return err
	}
	n := d[0] // the batch, unified across im_info, scores and deltas
	_, hi := sym.MulDims(n, sym.Const(post)).Bounds()
	r := c.Fresh("rois", 0, hi)
	c.RunTime("the count of proposals kept")
	c.Out(0, t, sym.ShapeOf(r, sym.Const(4)))
	c.Out(1, t, sym.ShapeOf(r))
	c.Out(2, rt, sym.ShapeOf(n))
	return nil
}

// ovEDDetectionOutput: ExperimentalDetectronDetectionOutput-6: rois [R, 4], deltas
// [R, num_classes·4], scores [R, num_classes] and im_info [1, 3] give the boxes
// [max_detections_per_image, 4], their classes (i32) and scores [max_detections_per_image].
func ovEDDetectionOutput(c *ctx) error {
	ins, err := c.Inputs(4)
	if err != nil {
		return err
	}
	k, err := c.Int("max_detections_per_image", 0)
	if err != nil {
		return err
	}
	classes, err := c.Int("num_classes", 0)
	if err != nil {
		return err
	}
	if k < 0 || classes < 1 {
		return c.Errorf(errcode.ErrSyntax, "max_detections_per_image %d and num_classes %d: want at least 0 and 1", k, classes)
	}
	rois, err := rnnDims(c, ins[0], 0, sym.Unknown(), sym.Const(4))
	if err != nil {
		return err
	}
	d, err := rnnDims(c, ins[1], 1, rois[0], sym.Const(4*classes))
	if err != nil {
		return err
	}
	if _, err := rnnDims(c, ins[2], 2, d[0], sym.Const(classes)); err != nil {
		return err
	}
	if _, err := rnnDims(c, ins[3], 3, sym.Const(1), sym.Const(3)); err != nil {
		return err
	}
	t := ovSharedType(c)
	c.Out(0, t, sym.ShapeOf(sym.Const(k), sym.Const(4)))
	c.Out(1, element.I32, sym.ShapeOf(sym.Const(k)))
	c.Out(2, t, sym.ShapeOf(sym.Const(k)))
	return nil
}

// ovEDPriorGrid: ExperimentalDetectronPriorGridGenerator-6: priors [A, 4] over the feature map
// [N, C, H, W] (input 1; input 2 is the image [N, 3, Hi, Wi]) give [H·W·A, 4] with flatten (the
// default), else [H, W, A, 4].
func ovEDPriorGrid(c *ctx) error {
	ins, err := c.Inputs(3)
	if err != nil {
		return err
	}
	p, err := rnnDims(c, ins[0], 0, sym.Unknown(), sym.Const(4))
	if err != nil {
		return err
	}
	f, err := rnnDims(c, ins[1], 1, sym.Unknown(), sym.Unknown(), sym.Unknown(), sym.Unknown())
	if err != nil {
		return err
	}
	if _, err := rnnDims(c, ins[2], 2, f[0], sym.Unknown(), sym.Unknown(), sym.Unknown()); err != nil {
		return err
	}
	flatten, err := ovBool(c, "flatten", true)
	if err != nil {
		return err
	}
	t := ovSharedType(c)
	if flatten {
		c.Out(0, t, sym.ShapeOf(sym.MulDims(sym.MulDims(f[2], f[3]), p[0]), sym.Const(4)))
		return nil
	}
	c.Out(0, t, sym.ShapeOf(f[2], f[3], p[0], sym.Const(4)))
	return nil
}

// ovEDROIFeatures: ExperimentalDetectronROIFeatureExtractor-6: rois [R, 4] and the pyramid's
// feature maps [1, C, H_i, W_i] (inputs 1 on, of one C) give the features
// [R, C, output_size, output_size] and the rois [R, 4].
func ovEDROIFeatures(c *ctx) error {
	ins, err := c.Inputs(c.NumIn())
	if err != nil {
		return err
	}
	size, err := c.Int("output_size", 0)
	if err != nil {
		return err
	}
	if size < 1 {
		return c.Errorf(errcode.ErrSyntax, "output_size %d: want at least 1", size)
	}
	rois, err := rnnDims(c, ins[0], 0, sym.Unknown(), sym.Const(4))
	if err != nil {
		return err
	}
	ch := sym.Unknown()
	for i := 1; i < len(ins); i++ {
		f, err := rnnDims(c, ins[i], i, sym.Const(1), ch, sym.Unknown(), sym.Unknown())
		if err != nil {
			return err
		}
		ch = f[1]
	}
	t := ovSharedType(c)
	c.Out(0, t, sym.ShapeOf(rois[0], ch, sym.Const(size), sym.Const(size)))
	c.Out(1, t, sym.ShapeOf(rois[0], sym.Const(4)))
	return nil
}

// ovEDTopKROIs: ExperimentalDetectronTopKROIs-6: rois [R, 4] and their probabilities [R] give
// the max_rois best [max_rois, 4].
func ovEDTopKROIs(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	k, err := c.Int("max_rois", 0)
	if err != nil {
		return err
	}
	if k < 0 {
		return c.Errorf(errcode.ErrSyntax, "max_rois %d: want at least 0", k)
	}
	rois, err := rnnDims(c, ins[0], 0, sym.Unknown(), sym.Const(4))
	if err != nil {
		return err
	}
	if _, err := rnnDims(c, ins[1], 1, rois[0]); err != nil {
		return err
	}
	c.Out(0, ins[0].Type, sym.ShapeOf(sym.Const(k), sym.Const(4)))
	return nil
}
