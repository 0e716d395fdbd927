package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// The rules of ai.onnx.ml's tree ensembles: TreeEnsembleClassifier and TreeEnsembleRegressor
// (versions 1 and 3, deprecated from 5) and TreeEnsemble (5). Their trees are attributes, whose
// consistency (lists of one length, branches to nodes the tree has, votes for classes or targets
// the node has) is checked as a node's syntax; the features their branches read fix the least
// feature dim: F >= 1 + the largest feature id.

// treeInput returns the batch dim N and feature dim F of a tree ensemble's input X: [N,F], or a
// 1-D X of N rows of one feature each, as onnxruntime reads it; ok is false when X's rank is not
// known. Another rank is an error wrapping errcode.ErrInvalidShape.
func treeInput(c *ctx) (n, f sym.Dim, ok bool, err error) {
	in, err := c.Input(0)
	if err != nil {
		return n, f, false, err
	}
	r, ok, err := c.RequireRank(in, 0, 1, 2)
	if err != nil || !ok {
		return n, f, false, err
	}
	if r == 1 {
		return in.Shape.Dims[0], sym.Const(1), true, nil
	}
	return in.Shape.Dims[0], in.Shape.Dims[1], true, nil
}

// readFeatures requires the feature dim f to hold the largest of the feature ids ids that the
// branches read (f >= 1 + it, as onnxruntime requires); a negative id is an error wrapping
// errcode.ErrSyntax.
func readFeatures(c *ctx, f sym.Dim, ids []int64) error {
	top := int64(-1)
	for _, id := range ids {
		if id < 0 {
			return c.Errorf(errcode.ErrSyntax, "feature id %d is negative", id)
		}
		top = max(top, id)
	}
	if top < 0 {
		return nil
	}
	return requireAtMost(c, sym.Const(top+1), f, "feature "+itoa(int(top))+", the largest a branch reads, within the features")
}

// sameLengths returns an error wrapping errcode.ErrSyntax when an attribute of names that the node
// has holds another count of values than n: the lists of a tree's tuples.
func sameLengths(c *ctx, n int, names ...string) error {
	for _, name := range names {
		a, ok := c.n.Attr(name)
		if !ok {
			continue
		}
		k := max(len(a.Ints), len(a.Floats), len(a.Strings))
		if k != n {
			return c.Errorf(errcode.ErrSyntax, "%s has %d values, and the list it goes with %d", name, k, n)
		}
	}
	return nil
}

// treeNodes is the nodes of TreeEnsembleClassifier's and TreeEnsembleRegressor's trees: by tree
// and node id, each node's index, and of the branches the feature ids they read.
type treeNodes struct {
	index    map[[2]int64]int
	features []int64
}

// readTrees reads and checks the nodes_* attributes of a tree ensemble of versions 1 and 3: lists
// of one length, and branches (every mode but LEAF) to nodes of their tree. Errors wrap
// errcode.ErrSyntax.
func readTrees(c *ctx) (*treeNodes, error) {
	ids, _, err := c.Ints("nodes_nodeids")
	if err != nil {
		return nil, err
	}
	trees, _, err := c.Ints("nodes_treeids")
	if err != nil {
		return nil, err
	}
	feats, _, err := c.Ints("nodes_featureids")
	if err != nil {
		return nil, err
	}
	modes, _, err := c.Strings("nodes_modes")
	if err != nil {
		return nil, err
	}
	yes, _, err := c.Ints("nodes_truenodeids")
	if err != nil {
		return nil, err
	}
	no, _, err := c.Ints("nodes_falsenodeids")
	if err != nil {
		return nil, err
	}
	if err := sameLengths(c, len(ids), "nodes_treeids", "nodes_featureids", "nodes_modes", "nodes_values", "nodes_truenodeids",
		"nodes_falsenodeids", "nodes_hitrates", "nodes_missing_value_tracks_true"); err != nil {
		return nil, err
	}
	// The lists read here index one another: one left out has no value for a node.
	for k, n := range []int{len(trees), len(feats), len(modes), len(yes), len(no)} {
		if n != len(ids) {
			name := [...]string{"nodes_treeids", "nodes_featureids", "nodes_modes", "nodes_truenodeids", "nodes_falsenodeids"}[k]
			return nil, c.Errorf(errcode.ErrSyntax, "%s has %d values, and nodes_nodeids %d", name, n, len(ids))
		}
	}
	t := &treeNodes{index: make(map[[2]int64]int, len(ids))}
	for i, id := range ids {
		t.index[[2]int64{trees[i], id}] = i
	}
	for i, m := range modes {
		if m == "LEAF" {
			continue
		}
		for _, to := range []int64{yes[i], no[i]} {
			if _, ok := t.index[[2]int64{trees[i], to}]; !ok {
				return nil, c.Errorf(errcode.ErrSyntax, "node %d of tree %d branches to node %d, which the tree does not have", ids[i], trees[i], to)
			}
		}
		t.features = append(t.features, feats[i])
	}
	return t, nil
}

// votes checks the votes of a tree ensemble of versions 1 and 3 (prefix "class" or "target"):
// lists of one length, at nodes the trees have, for outputs (classes, targets) below k. Errors wrap
// errcode.ErrSyntax.
func (t *treeNodes) votes(c *ctx, prefix string, k int) error {
	nodes, _, err := c.Ints(prefix + "_nodeids")
	if err != nil {
		return err
	}
	trees, _, err := c.Ints(prefix + "_treeids")
	if err != nil {
		return err
	}
	ids, _, err := c.Ints(prefix + "_ids")
	if err != nil {
		return err
	}
	if err := sameLengths(c, len(nodes), prefix+"_treeids", prefix+"_ids", prefix+"_weights"); err != nil {
		return err
	}
	for i, id := range ids {
		if id < 0 || id >= int64(k) {
			return c.Errorf(errcode.ErrSyntax, "%s_ids[%d] = %d, and the node has %d %ss", prefix, i, id, k, prefix)
		}
		if _, ok := t.index[[2]int64{trees[i], nodes[i]}]; !ok {
			return c.Errorf(errcode.ErrSyntax, "%s_nodeids[%d]: tree %d has no node %d", prefix, i, trees[i], nodes[i])
		}
	}
	return nil
}

// treeEnsembleClassifier: TreeEnsembleClassifier-1, -3 (the _as_tensor attributes): X [N,F] gives
// the labels [N] (int64, or string with classlabels_strings) and the scores [N,C], f32, C the count
// of class labels (one of the two lists is required). F holds every feature a branch reads.
func treeEnsembleClassifier(c *ctx) error {
	k, t, err := labels(c, "classlabels_int64s")
	if err != nil {
		return err
	}
	if k == 0 {
		return c.Errorf(errcode.ErrSyntax, "%s has no class labels: classlabels_int64s or classlabels_strings is required", c.n.Op)
	}
	trees, err := readTrees(c)
	if err != nil {
		return err
	}
	if err := trees.votes(c, "class", k); err != nil {
		return err
	}
	n, f, ok, err := treeInput(c)
	if err != nil || !ok {
		if err == nil {
			c.Out(0, t, sym.DynamicRank())
		}
		return err
	}
	if err := readFeatures(c, f, trees.features); err != nil {
		return err
	}
	classified(c, n, t, k)
	return nil
}

// treeEnsembleRegressor: TreeEnsembleRegressor-1, -3: X [N,F] gives Y [N,n_targets], f32. F holds
// every feature a branch reads.
func treeEnsembleRegressor(c *ctx) error {
	k, err := c.Int("n_targets", 1)
	if err != nil {
		return err
	}
	trees, err := readTrees(c)
	if err != nil {
		return err
	}
	if err := trees.votes(c, "target", int(k)); err != nil {
		return err
	}
	n, f, ok, err := treeInput(c)
	if err != nil || !ok {
		return err
	}
	if err := readFeatures(c, f, trees.features); err != nil {
		return err
	}
	c.Out(0, element.F32, sym.ShapeOf(n, sym.Const(k)))
	return nil
}

// treeEnsemble: TreeEnsemble-5: X [N,F] gives Y [N,n_targets] of X's element type. Its interior
// nodes (nodes_*) and leaves (leaf_*) are lists of one length each; a node's true and false
// branches go to a node, or a leaf where nodes_trueleafs or nodes_falseleafs say so; each tree
// root is a node; each leaf votes for a target below n_targets. F holds every feature a node
// reads.
func treeEnsemble(c *ctx) error {
	k, err := c.Int("n_targets", 0)
	if err != nil {
		return err
	}
	if k < 1 {
		return c.Errorf(errcode.ErrSyntax, "n_targets = %d: TreeEnsemble takes at least 1", k)
	}
	feats, _, err := c.Ints("nodes_featureids")
	if err != nil {
		return err
	}
	if err := sameLengths(c, len(feats), "nodes_truenodeids", "nodes_falsenodeids", "nodes_trueleafs", "nodes_falseleafs",
		"nodes_missing_value_tracks_true"); err != nil {
		return err
	}
	targets, _, err := c.Ints("leaf_targetids")
	if err != nil {
		return err
	}
	for i, id := range targets {
		if id < 0 || id >= k {
			return c.Errorf(errcode.ErrSyntax, "leaf_targetids[%d] = %d, and the node has %d targets", i, id, k)
		}
	}
	roots, _, err := c.Ints("tree_roots")
	if err != nil {
		return err
	}
	for _, r := range roots {
		if r < 0 || r >= int64(len(feats)) {
			return c.Errorf(errcode.ErrSyntax, "tree root %d, and the trees have %d nodes", r, len(feats))
		}
	}
	for _, side := range []string{"true", "false"} {
		to, _, err := c.Ints("nodes_" + side + "nodeids")
		if err != nil {
			return err
		}
		leaf, _, err := c.Ints("nodes_" + side + "leafs")
		if err != nil {
			return err
		}
		for i, id := range to {
			limit, what := len(feats), "nodes"
			if i < len(leaf) && leaf[i] != 0 {
				limit, what = len(targets), "leaves"
			}
			if id < 0 || id >= int64(limit) {
				return c.Errorf(errcode.ErrSyntax, "node %d's %s branch goes to %d, and the trees have %d %s", i, side, id, limit, what)
			}
		}
	}
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, ok, err := c.RequireRank(in, 0, 2, 2); err != nil || !ok {
		if err == nil {
			c.Out(0, in.Type, sym.DynamicRank())
		}
		return err
	}
	if err := readFeatures(c, in.Shape.Dims[1], feats); err != nil {
		return err
	}
	c.Out(0, in.Type, sym.ShapeOf(in.Shape.Dims[0], sym.Const(k)))
	return nil
}
