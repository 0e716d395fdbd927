package graph

import (
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// domainML is the domain of ONNX's traditional machine-learning operators, ai.onnx.ml: the
// operators skl2onnx converts scikit-learn models to.
const domainML = "ai.onnx.ml"

// onnxML holds the rules of ai.onnx.ml at each of its versions 1 to 5. An estimator's trained
// parameters fix the count of features it reads (a LinearClassifier of 12 coefficients for 3
// classes reads 4). Where onnxruntime checks it (Scaler, SVMRegressor), the feature dim F unifies
// with it, a constraint of the node (F == 4); where it does not (LinearClassifier,
// LinearRegressor, SVMClassifier, Imputer: it reads the parameters at another stride and runs),
// the count is a warning of the node (ctx.Warn), and the outputs have the shapes onnxruntime
// gives them. The feature dim of X is its dim 1, of a 1-D X its only dim (one row), as
// onnxruntime reads them; the trees read a 1-D X as one feature per row.
var onnxML = table{domainML, []opDef{
	{"ArrayFeatureExtractor", since(1), fixed(2), fixed(1), reads(1), arrayFeatureExtractor},
	{"Binarizer", since(1), fixed(1), fixed(1), 0, sameTypeShape},
	{"CastMap", since(1), fixed(1), fixed(1), 0, castMap},
	{"CategoryMapper", since(1), fixed(1), fixed(1), 0, categoryMapper},
	{"DictVectorizer", since(1), fixed(1), fixed(1), 0, dictVectorizer},
	{"FeatureVectorizer", since(1), span(1, many), fixed(1), 0, featureVectorizer},
	{"Imputer", since(1), fixed(1), fixed(1), 0, imputer},
	{"LabelEncoder", since(1, 2, 4), fixed(1), fixed(1), 0, labelEncoder},
	{"LinearClassifier", since(1), fixed(1), span(1, 2), 0, linearClassifier},
	{"LinearRegressor", since(1), fixed(1), fixed(1), 0, linearRegressor},
	{"Normalizer", since(1), fixed(1), fixed(1), 0, normalizer},
	{"OneHotEncoder", since(1), fixed(1), fixed(1), 0, oneHotEncoder},
	{"SVMClassifier", since(1), fixed(1), span(1, 2), 0, svmClassifier},
	{"SVMRegressor", since(1), fixed(1), fixed(1), 0, svmRegressor},
	{"Scaler", since(1), fixed(1), fixed(1), 0, scaler},
	{"TreeEnsembleClassifier", since(1, 3).until(4), fixed(1), span(1, 2), 0, treeEnsembleClassifier},
	{"TreeEnsembleRegressor", since(1, 3).until(4), fixed(1), fixed(1), 0, treeEnsembleRegressor},
	{"TreeEnsemble", since(5), fixed(1), fixed(1), 0, treeEnsemble},
	{"ZipMap", since(1), fixed(1), fixed(1), 0, zipMap},
}}

// sameTypeShape: Binarizer-1: the output has the input's type and shape.
func sameTypeShape(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	c.SameAs(0, in)
	return nil
}

// rows returns the batch dim N and feature dim F of an estimator's input of known rank r, as
// onnxruntime reads them: a 1-D input is one row of F features; otherwise N is dim 0 and F dim 1.
// A scalar is an error wrapping errcode.ErrInvalidShape.
func rows(c *ctx, in *Info, r int) (n, f sym.Dim, err error) {
	switch r {
	case 0:
		return sym.Dim{}, sym.Dim{}, c.Errorf(errcode.ErrInvalidShape, "input 0 is a scalar, want [N,F] or [F]")
	case 1:
		return sym.Const(1), in.Shape.Dims[0], nil
	}
	return in.Shape.Dims[0], in.Shape.Dims[1], nil
}

// features unifies the feature dim f with the count of features the trained parameters fix:
// count values of an attribute that holds per rows of them (support vectors for each of per
// vectors), for a node whose kernel onnxruntime refuses at another count; a count that per does
// not divide is an error wrapping errcode.ErrSyntax.
func features(c *ctx, f sym.Dim, count, per int, attr string) error {
	if per <= 0 || count%per != 0 {
		return c.Errorf(errcode.ErrSyntax, "%s has %d values, not a multiple of %d", attr, count, per)
	}
	_, err := c.Unify(f, sym.Const(int64(count/per)), "the features, "+itoa(count/per)+" by the "+itoa(count)+" "+attr)
	return err
}

// readsFeatures warns that the node reads the count values of its attribute attr as per rows of
// f features, f the feature dim of its input: its outputs are meaningful only when f is count/per
// (the ONNX-ML spec), which onnxruntime 1.20.1 does not check (ctx.Warn). A count that per does not
// divide is an error wrapping errcode.ErrSyntax.
func readsFeatures(c *ctx, f sym.Dim, count, per int, attr string) error {
	if per <= 0 || count%per != 0 {
		return c.Errorf(errcode.ErrSyntax, "%s has %d values, not a multiple of %d", attr, count, per)
	}
	warnEqual(c, f, sym.Const(int64(count/per)), "reads its "+itoa(count)+" "+attr+" as ["+itoa(per)+","+f.String()+"]")
	return nil
}

// warnEqual warns that the node's outputs are meaningful only when the dims a and b are equal, why
// saying what the node reads (ctx.Warn). A dim known only by its bounds warns of nothing.
func warnEqual(c *ctx, a, b sym.Dim, why string) {
	x, okx := a.Expr()
	y, oky := b.Expr()
	if okx && oky {
		c.Warn(sym.Eq(x, y), why)
	}
}

// labels returns the count of class labels of a classifier (classlabels_ints or
// classlabels_int64s, or classlabels_strings) and the element type of its label output: int64 or
// string.
func labels(c *ctx, ints string) (int, element.Type, error) {
	v, ok, err := c.Ints(ints)
	if err != nil || ok && len(v) > 0 {
		return len(v), element.I64, err
	}
	s, ok, err := c.Strings("classlabels_strings")
	if err != nil || ok && len(s) > 0 {
		return len(s), element.String, err
	}
	return 0, element.I64, nil
}

// classified sets a classifier's outputs: the labels [N], of type t, and the scores [N,k], f32.
func classified(c *ctx, n sym.Dim, t element.Type, k int) {
	c.Out(0, t, sym.ShapeOf(n))
	c.Out(1, element.F32, sym.ShapeOf(n, sym.Const(int64(k))))
}

// linearClassifier: LinearClassifier-1: X [N,F] (or [F], one row) gives the labels [N] (int64, or
// string with classlabels_strings) and the scores [N,C], C the count of class labels (of
// intercepts without labels). The coefficients are a [rows,F] matrix, rows the count of
// intercepts (of classes without them), as the ONNX-ML spec reads them: F is their count over
// rows. onnxruntime 1.20.1 does not check it: its Gemm reads the coefficients as [rows,F] at any
// F, past their end for a larger F and misaligned for a smaller one, and runs. So the count is a
// warning of the node (F == 4: the outputs mean nothing at another F), not a condition.
func linearClassifier(c *ctx) error {
	coef, ok, err := c.Floats("coefficients")
	if err != nil || !ok {
		return errOr(err, c.Errorf(errcode.ErrSyntax, "attribute coefficients is missing: %s takes it", c.n.Op))
	}
	intercepts, _, err := c.Floats("intercepts")
	if err != nil {
		return err
	}
	k, t, err := labels(c, "classlabels_ints")
	if err != nil {
		return err
	}
	width := k
	if width == 0 {
		width = len(intercepts)
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		if err == nil {
			c.Out(0, t, sym.DynamicRank())
		}
		return err
	}
	n, f, err := rows(c, in, r)
	if err != nil {
		return err
	}
	per := len(intercepts)
	if per == 0 {
		per = max(k, 1)
	}
	if r <= 2 {
		if err := readsFeatures(c, f, len(coef), per, "coefficients"); err != nil {
			return err
		}
	}
	classified(c, n, t, width)
	return nil
}

// linearRegressor: LinearRegressor-1: X [N,F] (or [F]) gives Y [N,targets], f32 (targets 1 by
// default); the coefficients are a [targets,F] matrix, as the ONNX-ML spec reads them: F is their
// count over targets. onnxruntime 1.20.1 does not check it and runs its Gemm at any F (as
// LinearClassifier's): the count is a warning of the node, not a condition.
func linearRegressor(c *ctx) error {
	coef, _, err := c.Floats("coefficients")
	if err != nil {
		return err
	}
	targets, err := c.Int("targets", 1)
	if err != nil {
		return err
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	n, f, err := rows(c, in, r)
	if err != nil {
		return err
	}
	if len(coef) > 0 && r <= 2 {
		if err := readsFeatures(c, f, len(coef), int(targets), "coefficients"); err != nil {
			return err
		}
	}
	c.Out(0, element.F32, sym.ShapeOf(n, sym.Const(targets)))
	return nil
}

// svmClassifier: SVMClassifier-1: X [N,F] (or [F]) gives the labels [N] and the scores [N,S]. With
// support vectors (vectors_per_class), they are vectors of F features, and the scores are, as
// onnxruntime 1.20.1 gives them, the C(C-1)/2 pairwise votes of the C class labels (2 for C <= 2),
// or with prob_a the C class probabilities; without (a linear SVM), the coefficients are a [C,F]
// matrix (one row for two classes) and the scores are C. The parameters fix F, as the ONNX-ML spec
// reads them; onnxruntime 1.20.1 does not check it and reads the support vectors or coefficients
// at another stride (a wrong F runs there, on misread parameters): the count is a warning of the
// node, not a condition.
func svmClassifier(c *ctx) error {
	k, t, err := labels(c, "classlabels_ints")
	if err != nil {
		return err
	}
	sv, _, err := c.Floats("support_vectors")
	if err != nil {
		return err
	}
	perClass, _, err := c.Ints("vectors_per_class")
	if err != nil {
		return err
	}
	coef, _, err := c.Floats("coefficients")
	if err != nil {
		return err
	}
	probA, _, err := c.Floats("prob_a")
	if err != nil {
		return err
	}
	vectors := 0
	for _, v := range perClass {
		vectors += int(v)
	}
	width := k
	if vectors > 0 && len(probA) == 0 {
		width = max(k*(k-1)/2, 2)
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		if err == nil {
			c.Out(0, t, sym.DynamicRank())
		}
		return err
	}
	n, f, err := rows(c, in, r)
	if err != nil {
		return err
	}
	if r <= 2 {
		switch {
		case vectors > 0:
			err = readsFeatures(c, f, len(sv), vectors, "support_vectors")
		case len(coef) > 0:
			per := k
			if k == 2 && len(coef)%2 != 0 {
				per = 1
			}
			err = readsFeatures(c, f, len(coef), max(per, 1), "coefficients")
		}
		if err != nil {
			return err
		}
	}
	classified(c, n, t, width)
	return nil
}

// svmRegressor: SVMRegressor-1: X [N,F] (or [F]) gives Y [N,1], f32. Its n_supports support
// vectors are vectors of F features; without them (a linear SVM) the coefficients are F weights:
// F unifies with the count they fix (onnxruntime refuses another).
func svmRegressor(c *ctx) error {
	sv, _, err := c.Floats("support_vectors")
	if err != nil {
		return err
	}
	nsv, err := c.Int("n_supports", 0)
	if err != nil {
		return err
	}
	coef, _, err := c.Floats("coefficients")
	if err != nil {
		return err
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	n, f, err := rows(c, in, r)
	if err != nil {
		return err
	}
	if r <= 2 {
		switch {
		case nsv > 0:
			err = features(c, f, len(sv), int(nsv), "support_vectors")
		case len(coef) > 0:
			err = features(c, f, len(coef), 1, "coefficients")
		}
		if err != nil {
			return err
		}
	}
	c.Out(0, element.F32, sym.ShapeOf(n, sym.Const(1)))
	return nil
}

// perFeature requires the k values of an attribute given for each feature to be one (for all of
// them) or F, the feature dim.
func perFeature(c *ctx, f sym.Dim, k int, attr string) error {
	if k <= 1 {
		return nil
	}
	_, err := c.Unify(f, sym.Const(int64(k)), "the features, one for each of the "+itoa(k)+" "+attr)
	return err
}

// scaler: Scaler-1: Y = (X - offset) * scale, f32, of X's shape; offset and scale hold one value
// for all features or one for each of the F features (dim 1 of X, its only dim when 1-D), as
// onnxruntime requires.
func scaler(c *ctx) error {
	offset, _, err := c.Floats("offset")
	if err != nil {
		return err
	}
	scale, _, err := c.Floats("scale")
	if err != nil {
		return err
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		if err == nil {
			c.Out(0, element.F32, sym.DynamicRank())
		}
		return err
	}
	if r > 0 {
		_, f, _ := rows(c, in, r)
		if err := perFeature(c, f, len(offset), "offsets"); err != nil {
			return err
		}
		if err := perFeature(c, f, len(scale), "scales"); err != nil {
			return err
		}
	}
	c.Out(0, element.F32, c.In(0).Shape)
	return nil
}

// imputer: Imputer-1: Y, of X's type and shape, with the replaced value imputed; the imputed values
// are one for all features or one for each feature of X [*,F] (its last dim), as the ONNX-ML spec
// says. onnxruntime 1.20.1 does not check their count: with another count than its dim 1 it imputes
// the first value in every column and runs. So the count is a warning of the node, not a
// condition.
func imputer(c *ctx) error {
	fv, _, err := c.Floats("imputed_value_floats")
	if err != nil {
		return err
	}
	iv, _, err := c.Ints("imputed_value_int64s")
	if err != nil {
		return err
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		return err
	}
	if r > 0 {
		if k := max(len(fv), len(iv)); k > 1 {
			warnEqual(c, in.Shape.Dims[r-1], sym.Const(int64(k)), "imputes its "+itoa(k)+" values, one a column, in the "+
				in.Shape.Dims[r-1].String()+" columns of X")
		}
	}
	c.SameAs(0, c.In(0))
	return nil
}

// normalizer: Normalizer-1: Y, f32, of X's shape; X of rank 1 or 2 (onnxruntime refuses others).
func normalizer(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	if _, _, err := c.RequireRank(in, 0, 1, 2); err != nil {
		return err
	}
	c.Out(0, element.F32, in.Shape)
	return nil
}

// oneHotEncoder: OneHotEncoder-1: Y, f32, of X's shape and one more dim, the count of categories
// (cats_int64s or cats_strings, one of which is required). With zeros 0, a value of X that is no
// category fails the node (onnxruntime: "Unknown Category and zeros = 0"): of values of the model's
// data, a condition only a run decides (ctx.RunTime).
func oneHotEncoder(c *ctx) error {
	ints, _, err := c.Ints("cats_int64s")
	if err != nil {
		return err
	}
	strs, _, err := c.Strings("cats_strings")
	if err != nil {
		return err
	}
	zeros, err := c.Int("zeros", 1)
	if err != nil {
		return err
	}
	k := max(len(ints), len(strs))
	if k == 0 {
		return c.Errorf(errcode.ErrSyntax, "OneHotEncoder has no categories: cats_int64s or cats_strings is required")
	}
	if x := c.In(0); zeros == 0 && x != nil && x.taint&taintData != 0 {
		c.RunTime("whether each value of input 0, values of the model's data, is one of the " + itoa(k) + " categories (zeros is 0)")
	}
	in, r, ok, err := c.Ranked(0)
	if err != nil || !ok {
		if err == nil {
			c.Out(0, element.F32, sym.DynamicRank())
		}
		return err
	}
	dims := make([]sym.Dim, r+1)
	copy(dims, in.Shape.Dims)
	dims[r] = sym.Const(int64(k))
	c.Out(0, element.F32, sym.ShapeOf(dims...))
	return nil
}

// labelEncoder: LabelEncoder-1 (strings to int64 and back, by classes_strings), -2 (keys_* to
// values_*), -4 (and keys_tensor to values_tensor): Y of X's shape, of the element type of the
// values (of -1: int64 for a string X, else string). From -2 on, X's element type must be the
// keys' (onnx's shape inference refuses keys_strings for an int64 X when onnxruntime loads the
// model): another is an error wrapping errcode.ErrDataType.
func labelEncoder(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	t := element.String
	switch {
	case c.Version() < 2:
		if in.Type == element.String {
			t = element.I64
		}
	default:
		keys, err := attrType(c, "keys")
		if err != nil {
			return err
		}
		if keys != element.Undefined && in.Type != element.Undefined && keys != in.Type {
			return c.Errorf(errcode.ErrDataType, "input 0 is %v, the keys %v", in.Type, keys)
		}
		if t, err = attrType(c, "values"); err != nil {
			return err
		}
	}
	c.Out(0, t, in.Shape)
	return nil
}

// attrType returns the element type of a LabelEncoder's keys or values (prefix "keys" or
// "values"): of the attribute PREFIX_strings, PREFIX_int64s or PREFIX_floats that the node has,
// or, from version 4, of its tensor PREFIX_tensor; Undefined when it has none.
func attrType(c *ctx, prefix string) (element.Type, error) {
	t := element.Undefined
	for _, a := range []struct {
		suffix string
		t      element.Type
	}{{"_strings", element.String}, {"_int64s", element.I64}, {"_floats", element.F32}} {
		if _, ok := c.n.Attr(prefix + a.suffix); ok {
			t = a.t
		}
	}
	if v, ok, err := c.Tensor(prefix + "_tensor"); err != nil {
		return t, err
	} else if ok && c.Version() >= 4 {
		t = v.Type
	}
	return t, nil
}

// categoryMapper: CategoryMapper-1: Y of X's shape, int64 for a string X, string for an int64 X.
func categoryMapper(c *ctx) error {
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	t := element.Undefined
	switch in.Type {
	case element.String:
		t = element.I64
	case element.I64:
		t = element.String
	}
	c.Out(0, t, in.Shape)
	return nil
}

// arrayFeatureExtractor: ArrayFeatureExtractor-1: the elements of X at the indices Y along its last
// axis: X's shape with the last dim the count of indices ([1,K] for a 1-D X). Each index must be
// within the last dim D: the node requires D > the largest index, known from the indices' values
// or bounds (an ArgMax's, within its axis); a negative index is an error wrapping
// errcode.ErrInvalidShape.
func arrayFeatureExtractor(c *ctx) error {
	ins, err := c.Inputs(2)
	if err != nil {
		return err
	}
	x, idx := ins[0], ins[1]
	r, ok := x.Rank()
	if !ok || idx.Shape.RankDynamic {
		c.Out(0, x.Type, sym.DynamicRank())
		return nil
	}
	if r == 0 {
		return c.Errorf(errcode.ErrInvalidShape, "input 0 is a scalar")
	}
	d := x.Shape.Dims[r-1]
	k := idx.Shape.Volume()
	bounds := idx.elems
	if len(idx.Value) > 0 {
		lo, hi := idx.Value[0], idx.Value[0]
		for _, v := range idx.Value[1:] {
			lo, hi = sym.MinDims(lo, v), sym.MaxDims(hi, v)
		}
		bounds = &[2]sym.Dim{lo, hi}
	}
	switch v, static := k.Static(); {
	case bounds == nil && static && v == 0:
	case bounds == nil && idx.taint&taintData != 0:
		c.RunTime("whether the indices, values of the model's data, lie within the last axis of size " + d.String())
	case bounds == nil:
		c.Lost("the indices within the last axis of size " + d.String() + ": their values are not known")
	}
	if bounds != nil {
		if _, h := bounds[0].Bounds(); h < 0 {
			return c.Errorf(errcode.ErrInvalidShape, "index %v is negative", bounds[0])
		}
		if err := requireAtMost(c, sym.AddDims(bounds[1], sym.Const(1)), d, "the indices, at most "+bounds[1].String()+", within the last axis"); err != nil {
			return err
		}
	}
	var dims []sym.Dim
	if r == 1 {
		dims = []sym.Dim{sym.Const(1), k}
	} else {
		dims = append(c.clone(x.Shape.Dims[:r-1]), k)
	}
	c.Out(0, x.Type, sym.ShapeOf(dims...))
	return nil
}

// featureVectorizer: FeatureVectorizer-1: the inputs' features side by side, f32 [N,S], S the sum
// of inputdimensions (onnxruntime pads or cuts each input's features to its count), N input 0's
// dim 0 (1 for a 1-D input), as onnxruntime 1.20.1 gives it. Each other input's rows (its dim 0,
// 1 for a 1-D input) are copied below each other: the node requires at most N of them (more
// overrun the output, which onnxruntime refuses); the ONNX-ML spec wants N of each, which
// onnxruntime does not check (a 1-D input beside [N,F] fills row 0 and leaves zeros below): a
// warning of the node.
func featureVectorizer(c *ctx) error {
	sizes, _, err := c.Ints("inputdimensions")
	if err != nil {
		return err
	}
	ins, err := c.Inputs(c.NumIn())
	if err != nil {
		return err
	}
	if len(sizes) != len(ins) {
		return c.Errorf(errcode.ErrSyntax, "inputdimensions has %d sizes for %d inputs", len(sizes), len(ins))
	}
	total := int64(0)
	for _, s := range sizes {
		if s < 0 {
			return c.Errorf(errcode.ErrSyntax, "inputdimensions %v has a negative size", sizes)
		}
		total += s
	}
	rowsOf := func(in *Info) (sym.Dim, bool) {
		switch r, ok := in.Rank(); {
		case !ok:
			return sym.Unknown(), false
		case r >= 2:
			return in.Shape.Dims[0], true
		}
		return sym.Const(1), true
	}
	n, known := rowsOf(ins[0])
	for k, in := range ins[1:] {
		m, ok := rowsOf(in)
		if !ok || !known {
			continue
		}
		if err := requireAtMost(c, m, n, "input "+itoa(k+1)+"'s rows, "+m.String()+", within the "+n.String()+" rows of the output"); err != nil {
			return err
		}
		warnEqual(c, m, n, "copies the rows of input "+itoa(k+1)+" ("+m.String()+") beside those of input 0 ("+n.String()+"), zeros below")
	}
	c.Out(0, element.F32, sym.ShapeOf(n, sym.Const(total)))
	return nil
}

// zipMap: ZipMap-1: X [N,C] (or [C], one row) gives a sequence of N maps, one a row, from the
// class labels (classlabels_int64s or classlabels_strings, C of them) to the row's f32 scores
// (scalars, as every map onnxruntime holds): C
// unifies with the count of labels; X of another rank is an error wrapping
// errcode.ErrInvalidShape.
func zipMap(c *ctx) error {
	ints, _, err := c.Ints("classlabels_int64s")
	if err != nil {
		return err
	}
	strs, _, err := c.Strings("classlabels_strings")
	if err != nil {
		return err
	}
	key, k := element.I64, len(ints)
	if len(strs) > 0 {
		key, k = element.String, len(strs)
	}
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	value := &Info{Type: element.F32, Shape: sym.ShapeOf()}
	elem := &Info{Shape: sym.DynamicRank(), Map: &Map{Key: key, Value: value}}
	r, ok, err := c.RequireRank(in, 0, 1, 2)
	if err != nil {
		return err
	}
	n := sym.Unknown()
	if ok {
		var f sym.Dim
		if n, f, err = rows(c, in, r); err != nil {
			return err
		}
		if _, err := c.Unify(f, sym.Const(int64(k)), "the scores, one for each of the "+itoa(k)+" class labels"); err != nil {
			return err
		}
	}
	c.Set(0, newSeq(n, elem, nil))
	return nil
}

// castMap: CastMap-1: a map of int64 keys to a tensor [1,K] of the type cast_to says (TO_FLOAT, the
// default; TO_STRING; TO_INT64), K the count of its values (DENSE, the default: known at run time)
// or max_map (SPARSE), as onnxruntime gives it.
func castMap(c *ctx) error {
	to, err := c.String("cast_to", "TO_FLOAT")
	if err != nil {
		return err
	}
	form, err := c.String("map_form", "DENSE")
	if err != nil {
		return err
	}
	maxMap, err := c.Int("max_map", 1)
	if err != nil {
		return err
	}
	t, ok := map[string]element.Type{"TO_FLOAT": element.F32, "TO_STRING": element.String, "TO_INT64": element.I64}[to]
	if !ok {
		return c.Errorf(errcode.ErrSyntax, "cast_to %q: want TO_FLOAT, TO_STRING or TO_INT64", to)
	}
	k := sym.Unknown()
	switch form {
	case "SPARSE":
		k = sym.Const(maxMap)
	case "DENSE":
	default:
		return c.Errorf(errcode.ErrSyntax, "map_form %q: want DENSE or SPARSE", form)
	}
	c.Out(0, t, sym.ShapeOf(sym.Const(1), k))
	return nil
}

// dictVectorizer: DictVectorizer-1: a map gives a tensor [1,V] of its values' element type, V the
// length of the vocabulary (int64_vocabulary or string_vocabulary), as onnxruntime gives it.
func dictVectorizer(c *ctx) error {
	ints, _, err := c.Ints("int64_vocabulary")
	if err != nil {
		return err
	}
	strs, _, err := c.Strings("string_vocabulary")
	if err != nil {
		return err
	}
	in, err := c.Input(0)
	if err != nil {
		return err
	}
	t := element.Undefined
	if in.Map != nil {
		t = in.Map.Value.Type
	}
	c.Out(0, t, sym.ShapeOf(sym.Const(1), sym.Const(int64(max(len(ints), len(strs))))))
	return nil
}
