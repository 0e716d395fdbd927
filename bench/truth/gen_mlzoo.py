#!/usr/bin/python3
"""Build the held-out zoo of issue 26: scikit-learn pipelines and torch list models (testdata/models/zoo_*).

  cd REPO && /usr/bin/python3 bench/truth/gen_mlzoo.py [NAME...]

skl2onnx is not available here: each zoo_* model is written with onnx.helper in the op patterns skl2onnx
writes for a scikit-learn estimator or pipeline (Scaler for StandardScaler and MinMaxScaler, Imputer for
SimpleImputer, ArrayFeatureExtractor/Gather and Concat for ColumnTransformer, Sub/MatMul for PCA, TopK and
ArrayFeatureExtractor for KNN, ReduceSumSquare/Gemm/ArgMin for KMeans, LinearClassifier + Normalizer + ZipMap
for LogisticRegression, the SVM and tree ensemble operators), with the parameters of estimators fitted by
python3-sklearn on iris or a seeded sample. The zoo_seq_* models are what torch exports for Python lists
(SplitToSequence, Loop appending, SequenceInsert/At/Erase/Length, ConcatFromSequence, the Optional ops).

The zoo_str_* models are string pipelines fed string tensors (truth.py's value: and choice: fills):
LabelEncoder (versions 1, 2 and 4) and CategoryMapper both ways, OneHotEncoder and OrdinalEncoder of string
columns, StringNormalizer, CountVectorizer and TfidfVectorizer (StringNormalizer, com.microsoft Tokenizer,
TfIdfVectorizer), classifiers with string labels and their ZipMap, Cast to and from string, strings moved,
selected and listed like any tensor, Unique, and the string operators of opset 20.

ZOO_CASES (read by cases.py) holds every model's bindings: bindings where it runs, and bindings that
onnxruntime refuses (a wrong feature count, an index out of range, elements of mismatched ranks, an
unknown category, a string that is no number). Maps: ZipMap's outputs are in; DictVectorizer and CastMap,
which read maps, cannot be fed: onnxruntime-node cannot feed a map, and no operator makes one inside a
graph but ZipMap, whose sequence of maps no operator takes apart (SequenceAt of it is refused at load,
zoo_zipmap_at, zoo_str_zipmap_dictvec).
"""
import sys

import numpy as np
import onnx
from onnx import helper

from gen_ml import ML, MLGraph, floats
from gen_onnx import BOOL, FLOAT, INT64, Graph

M = "testdata/models/"
ZOO_CASES = []
GENERATORS = {}


def zoo(*bindings):
    """Registers a generator and its bindings: (label, dims) or (label, dims, fills)."""
    def reg(fn):
        name = fn.__name__
        GENERATORS[name] = fn
        for b in bindings:
            label, dims, fills = (b + ({},))[:3]
            ZOO_CASES.append((M + name + ".onnx", label, dims, {}, fills))
        return fn
    return reg


# The bindings of a model with an input [N,F] whose estimator reads 4 features: F=4 runs, the others
# are the wrong feature counts (F=1 broadcasts in some pipelines).
NF = (("N2_F4", {"N": 2, "F": 4}), ("N3_F4", {"N": 3, "F": 4}), ("N2_F3", {"N": 2, "F": 3}),
      ("N1_F5", {"N": 1, "F": 5}))
N_ONLY = (("N1", {"N": 1}), ("N3", {"N": 3}))


def iris():
    from sklearn.datasets import load_iris
    x, y = load_iris(return_X_y=True)
    return x.astype(np.float32), y


def new(name, ml_opset=3, opset=17):
    return MLGraph(name, opset, ml_opset)


def finish(g, *outs):
    for o in outs:
        g.output(o, None)
    g.save(g.name + ".onnx")


def trees_attrs(trees, prefix, n_out, scale=1.0, out_of=None):
    """TreeEnsemble attributes of fitted sklearn trees. out_of(k, leaf values) gives the (output id,
    weight) pairs of a leaf of tree k; by default every output of the leaf's value, scaled."""
    a = {k: [] for k in ("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_values", "nodes_modes",
                         "nodes_truenodeids", "nodes_falsenodeids", "nodes_hitrates",
                         "nodes_missing_value_tracks_true")}
    tid, nid, ids, ws = [], [], [], []
    for k, t in enumerate(trees):
        tr = t.tree_
        leaf = tr.children_left == -1
        for i in range(tr.node_count):
            a["nodes_treeids"].append(k)
            a["nodes_nodeids"].append(i)
            a["nodes_featureids"].append(int(max(tr.feature[i], 0)))
            a["nodes_values"].append(float(0 if leaf[i] else tr.threshold[i]))
            a["nodes_modes"].append("LEAF" if leaf[i] else "BRANCH_LEQ")
            a["nodes_truenodeids"].append(int(max(tr.children_left[i], 0)))
            a["nodes_falsenodeids"].append(int(max(tr.children_right[i], 0)))
            a["nodes_hitrates"].append(1.0)
            a["nodes_missing_value_tracks_true"].append(0)
            if not leaf[i]:
                continue
            vals = tr.value[i].ravel()
            pairs = out_of(k, vals) if out_of else [(j, float(v) * scale) for j, v in enumerate(vals[:n_out])]
            for j, w in pairs:
                tid.append(k)
                nid.append(i)
                ids.append(int(j))
                ws.append(float(w))
    a[prefix + "_treeids"], a[prefix + "_nodeids"], a[prefix + "_ids"], a[prefix + "_weights"] = tid, nid, ids, ws
    return a


# --- scikit-learn pipelines ---------------------------------------------------------------------------------


@zoo(*NF)
def zoo_logreg():
    """StandardScaler + LogisticRegression (3 classes): Scaler, LinearClassifier, Normalizer, ZipMap; F
    symbolic (skl2onnx with FloatTensorType([None, None])): onnxruntime runs LinearClassifier at any F."""
    from sklearn.linear_model import LogisticRegression
    x, y = iris()
    mean, scale = x.mean(0), 1 / x.std(0)
    clf = LogisticRegression(max_iter=500).fit((x - mean) * scale, y)
    g = new("zoo_logreg")
    X = g.input("X", FLOAT, ["N", "F"])
    s = g.ml("Scaler", [X], offset=floats(mean), scale=floats(scale))
    label, prob = g.ml("LinearClassifier", [s], 2, coefficients=floats(clf.coef_), intercepts=floats(clf.intercept_),
                       classlabels_ints=[0, 1, 2], post_transform="SOFTMAX")
    norm = g.ml("Normalizer", [prob], norm="L1")
    g.ml("ZipMap", [norm], classlabels_int64s=[0, 1, 2])
    finish(g, label, norm)


@zoo(*NF)
def zoo_logreg_linear():
    """LogisticRegression straight on X (no Scaler): LinearClassifier alone decides at a wrong F."""
    from sklearn.linear_model import LogisticRegression
    x, y = iris()
    clf = LogisticRegression(max_iter=1000).fit(x, y)
    g = new("zoo_logreg_linear")
    X = g.input("X", FLOAT, ["N", "F"])
    label, prob = g.ml("LinearClassifier", [X], 2, coefficients=floats(clf.coef_), intercepts=floats(clf.intercept_),
                       classlabels_ints=[0, 1, 2], post_transform="LOGISTIC")
    norm = g.ml("Normalizer", [prob], norm="L1")
    finish(g, label, norm)


@zoo(*N_ONLY)
def zoo_logreg_binary():
    """Binary LogisticRegression: one row of coefficients, two labels: scores [N,2]; strings are not fed,
    so the labels are ints; MinMaxScaler in front."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import MinMaxScaler
    x, y = iris()
    mm = MinMaxScaler().fit(x)
    clf = LogisticRegression(max_iter=500).fit(mm.transform(x), y == 2)
    g = new("zoo_logreg_binary")
    X = g.input("X", FLOAT, ["N", 4])
    s = g.ml("Scaler", [X], offset=floats(-mm.min_ / mm.scale_), scale=floats(mm.scale_))
    label, prob = g.ml("LinearClassifier", [s], 2, coefficients=floats(clf.coef_), intercepts=floats(clf.intercept_),
                       classlabels_ints=[0, 1], post_transform="LOGISTIC")
    g.ml("ZipMap", [prob], classlabels_int64s=[0, 1])
    finish(g, label, prob)


@zoo(*NF)
def zoo_linreg():
    """LinearRegression and Ridge of 2 targets as LinearRegressor; Binarizer of the first."""
    from sklearn.linear_model import LinearRegression, Ridge
    x, y = iris()
    reg = LinearRegression().fit(x, y)
    rdg = Ridge().fit(x, np.stack([y, x[:, 0]], 1))
    g = new("zoo_linreg")
    X = g.input("X", FLOAT, ["N", "F"])
    r1 = g.ml("LinearRegressor", [X], coefficients=floats(reg.coef_), intercepts=[float(reg.intercept_)])
    r2 = g.ml("LinearRegressor", [X], coefficients=floats(rdg.coef_), intercepts=floats(rdg.intercept_), targets=2)
    b = g.ml("Binarizer", [r1], threshold=1.0)
    cat = g.op("Concat", [r1, r2, b], axis=1)
    finish(g, cat)


@zoo(("N2", {"N": 2}), ("N4", {"N": 4}))
def zoo_linreg_1d():
    """LinearRegressor on a 1-D X [F] (one row) and on Flatten of [N,2,2]."""
    from sklearn.linear_model import LinearRegression
    x, y = iris()
    reg = LinearRegression().fit(x, y)
    g = new("zoo_linreg_1d")
    X = g.input("X", FLOAT, ["N", 2, 2])
    flat = g.op("Flatten", [X], axis=1)
    r = g.ml("LinearRegressor", [flat], coefficients=floats(reg.coef_), intercepts=[float(reg.intercept_)])
    row = g.op("Gather", [flat, g.const(0)], axis=0)
    r1 = g.ml("LinearRegressor", [row], coefficients=floats(reg.coef_), intercepts=[float(reg.intercept_)])
    finish(g, r, r1)


@zoo(*NF)
def zoo_imputer_scaler():
    """SimpleImputer (mean) + StandardScaler + Normalizer (L2): Imputer of 4 statistics, Scaler, Normalizer."""
    x, _ = iris()
    g = new("zoo_imputer_scaler")
    X = g.input("X", FLOAT, ["N", "F"])
    imp = g.ml("Imputer", [X], imputed_value_floats=floats(x.mean(0)), replaced_value_float=float("nan"))
    s = g.ml("Scaler", [imp], offset=floats(x.mean(0)), scale=floats(1 / x.std(0)))
    n = g.ml("Normalizer", [s], norm="L2")
    finish(g, n)


@zoo(*NF)
def zoo_imputer_only():
    """SimpleImputer alone (4 statistics): onnxruntime imputes the first statistic at another F."""
    x, _ = iris()
    g = new("zoo_imputer_only")
    X = g.input("X", FLOAT, ["N", "F"])
    imp = g.ml("Imputer", [X], imputed_value_floats=floats(np.median(x, 0)), replaced_value_float=float("nan"))
    m = g.ml("Normalizer", [imp], norm="MAX")
    finish(g, imp, m)


@zoo(("N2_F3", {"N": 2, "F": 3}), ("N1_F6", {"N": 1, "F": 6}))
def zoo_imputer_int():
    """SimpleImputer of int64 columns with one constant (any F), Cast to float, Binarizer."""
    g = new("zoo_imputer_int")
    X = g.input("X", INT64, ["N", "F"])
    imp = g.ml("Imputer", [X], imputed_value_int64s=[7], replaced_value_int64=0)
    c = g.op("Cast", [imp], to=FLOAT)
    b = g.ml("Binarizer", [c], threshold=3.0)
    finish(g, b)


@zoo(*NF, ("N2_F1", {"N": 2, "F": 1}))
def zoo_pca():
    """StandardScaler + PCA(2): Scaler, Sub(mean), MatMul(components^T): at F == 1 Sub broadcasts."""
    from sklearn.decomposition import PCA
    x, _ = iris()
    pca = PCA(2).fit(x)
    g = new("zoo_pca")
    X = g.input("X", FLOAT, ["N", "F"])
    sub = g.op("Sub", [X, g.const(pca.mean_, np.float32)])
    mm = g.op("MatMul", [sub, g.const(pca.components_.T, np.float32)])
    finish(g, mm)


@zoo(*NF)
def zoo_poly():
    """PolynomialFeatures(2) the skl2onnx way for the pairwise products: Unsqueeze/MatMul outer product
    [N,F,F], Reshape [N,F*F], MatMul with the selection matrix [16,10]; X and the products concatenated."""
    g = new("zoo_poly")
    X = g.input("X", FLOAT, ["N", "F"])
    outer = g.op("MatMul", [g.unsqueeze(X, [2]), g.unsqueeze(X, [1])])
    flat = g.op("Reshape", [outer, g.pattern(g.dim(X, 0), -1)])
    sel = np.zeros((16, 10), np.float32)
    k = 0
    for i in range(4):
        for j in range(i, 4):
            sel[i * 4 + j, k] = 1
            k += 1
    prod = g.op("MatMul", [flat, g.const(sel, np.float32)])
    cat = g.op("Concat", [X, prod], axis=1)
    finish(g, cat)


@zoo(*NF)
def zoo_poly_mul():
    """PolynomialFeatures the chain way: ArrayFeatureExtractor of each column, Mul of pairs, Concat."""
    g = new("zoo_poly_mul")
    X = g.input("X", FLOAT, ["N", "F"])
    cols = [g.ml("ArrayFeatureExtractor", [X, g.const([i])]) for i in range(4)]
    prods = [g.op("Mul", [cols[i], cols[j]]) for i in range(4) for j in range(i, 4)]
    cat = g.op("Concat", [X] + prods, axis=1)
    finish(g, cat)


@zoo(*N_ONLY, ("N5", {"N": 5}))
def zoo_svc_rbf():
    """SVC(rbf) of 3 classes without probabilities: SVMClassifier scores are the 3 pairwise votes."""
    from sklearn.svm import SVC
    x, y = iris()
    svc = SVC(kernel="rbf", gamma=0.5).fit(x, y)
    g = new("zoo_svc_rbf")
    X = g.input("X", FLOAT, ["N", 4])
    label, scores = g.ml("SVMClassifier", [X], 2, classlabels_ints=[0, 1, 2], kernel_type="RBF",
                         kernel_params=[0.5, 0.0, 3.0], vectors_per_class=[int(v) for v in svc.n_support_],
                         support_vectors=floats(svc.support_vectors_), coefficients=floats(svc.dual_coef_),
                         rho=floats(svc.intercept_))
    finish(g, label, scores)


def four_classes():
    x, _ = iris()
    y = np.digitize(x[:, 0], np.quantile(x[:, 0], [0.25, 0.5, 0.75]))
    return x, y


@zoo(*NF)
def zoo_svc4():
    """SVC(linear) of 4 classes: 6 pairwise classifiers, so the scores are [N,6]; F symbolic."""
    from sklearn.svm import SVC
    x, y = four_classes()
    svc = SVC(kernel="linear").fit(x, y)
    g = new("zoo_svc4")
    X = g.input("X", FLOAT, ["N", "F"])
    label, scores = g.ml("SVMClassifier", [X], 2, classlabels_ints=[0, 1, 2, 3], kernel_type="LINEAR",
                         kernel_params=[0.0, 0.0, 3.0], vectors_per_class=[int(v) for v in svc.n_support_],
                         support_vectors=floats(svc.support_vectors_), coefficients=floats(svc.dual_coef_),
                         rho=floats(svc.intercept_))
    finish(g, label, scores)


@zoo(*N_ONLY)
def zoo_svc_proba():
    """SVC(probability=True) of 4 classes: prob_a/prob_b give scores [N,4]."""
    from sklearn.svm import SVC
    x, y = four_classes()
    svc = SVC(kernel="rbf", gamma=0.3, probability=True, random_state=0).fit(x, y)
    g = new("zoo_svc_proba")
    X = g.input("X", FLOAT, ["N", 4])
    label, scores = g.ml("SVMClassifier", [X], 2, classlabels_ints=[0, 1, 2, 3], kernel_type="RBF",
                         kernel_params=[0.3, 0.0, 3.0], vectors_per_class=[int(v) for v in svc.n_support_],
                         support_vectors=floats(svc.support_vectors_), coefficients=floats(svc.dual_coef_),
                         rho=floats(svc.intercept_), prob_a=floats(svc.probA_), prob_b=floats(svc.probB_))
    finish(g, label, scores)


@zoo(*N_ONLY)
def zoo_svc_binary():
    """Binary SVC(rbf) without probabilities: one classifier, scores [N,2]."""
    from sklearn.svm import SVC
    x, y = iris()
    svc = SVC(kernel="rbf", gamma=0.5).fit(x, y == 1)
    g = new("zoo_svc_binary")
    X = g.input("X", FLOAT, ["N", 4])
    label, scores = g.ml("SVMClassifier", [X], 2, classlabels_ints=[0, 1], kernel_type="RBF",
                         kernel_params=[0.5, 0.0, 3.0], vectors_per_class=[int(v) for v in svc.n_support_],
                         support_vectors=floats(svc.support_vectors_), coefficients=floats(svc.dual_coef_),
                         rho=floats(svc.intercept_))
    finish(g, label, scores)


@zoo(*NF)
def zoo_linsvc():
    """LinearSVC (3 classes) as skl2onnx writes it with SVMClassifier in liblinear mode: coefficients
    [3,4], no support vectors."""
    from sklearn.svm import LinearSVC
    x, y = iris()
    svc = LinearSVC(max_iter=5000, dual=False).fit(x, y)
    g = new("zoo_linsvc")
    X = g.input("X", FLOAT, ["N", "F"])
    label, scores = g.ml("SVMClassifier", [X], 2, classlabels_ints=[0, 1, 2], kernel_type="LINEAR",
                         kernel_params=[0.0, 0.0, 3.0], coefficients=floats(svc.coef_), rho=floats(svc.intercept_))
    finish(g, label, scores)


@zoo(*NF)
def zoo_svr():
    """SVR(rbf) on 4 features, and a linear SVR without support vectors (4 coefficients)."""
    from sklearn.svm import SVR
    x, _ = iris()
    svr = SVR(kernel="rbf", gamma=0.5).fit(x[:, 1:], x[:, 0])
    lin = SVR(kernel="linear").fit(x[:, 1:], x[:, 0])
    g = new("zoo_svr")
    X = g.input("X", FLOAT, ["N", "F"])
    pad = g.op("Concat", [g.ml("ArrayFeatureExtractor", [X, g.const([1, 2, 3])]), g.ml("ArrayFeatureExtractor", [X, g.const([0])])], axis=1)
    r = g.ml("SVMRegressor", [X], kernel_type="RBF", kernel_params=[0.5, 0.0, 3.0], n_supports=len(svr.support_),
             support_vectors=floats(np.concatenate([svr.support_vectors_, np.zeros((len(svr.support_), 1))], 1)),
             coefficients=floats(svr.dual_coef_), rho=floats(svr.intercept_))
    r2 = g.ml("SVMRegressor", [pad], kernel_type="LINEAR", kernel_params=[0.0, 0.0, 3.0],
              coefficients=floats(np.append(lin.coef_, 0.0)),
              rho=floats(lin.intercept_))
    cat = g.op("Concat", [r, r2], axis=1)
    finish(g, cat)


@zoo(*N_ONLY)
def zoo_dtree():
    """DecisionTreeClassifier (depth 4) and DecisionTreeRegressor as TreeEnsembleClassifier/Regressor."""
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
    x, y = iris()
    clf = DecisionTreeClassifier(max_depth=4, random_state=0).fit(x, y)
    reg = DecisionTreeRegressor(max_depth=4, random_state=0).fit(x[:, 1:], x[:, 0])
    g = new("zoo_dtree")
    X = g.input("X", FLOAT, ["N", 4])
    label, prob = g.ml("TreeEnsembleClassifier", [X], 2, classlabels_int64s=[0, 1, 2],
                       **trees_attrs([clf], "class", 3, out_of=lambda k, v: list(enumerate(v / v.sum()))))
    g.ml("ZipMap", [prob], classlabels_int64s=[0, 1, 2])
    r = g.ml("TreeEnsembleRegressor", [X], n_targets=1, **trees_attrs([reg], "target", 1))
    finish(g, label, prob, r)


@zoo(*NF)
def zoo_forest():
    """RandomForestClassifier (4 trees) averaged: weights are proportions over the trees; F symbolic:
    the trees read features up to 3."""
    from sklearn.ensemble import RandomForestClassifier
    x, y = iris()
    rf = RandomForestClassifier(n_estimators=4, max_depth=3, random_state=0).fit(x, y)
    g = new("zoo_forest")
    X = g.input("X", FLOAT, ["N", "F"])
    label, prob = g.ml("TreeEnsembleClassifier", [X], 2, classlabels_int64s=[0, 1, 2],
                       **trees_attrs(rf.estimators_, "class", 3,
                                     out_of=lambda k, v: list(enumerate(v / v.sum() / len(rf.estimators_)))))
    finish(g, label, prob)


@zoo(*N_ONLY)
def zoo_forest_reg2():
    """RandomForestRegressor of 2 targets (3 trees, AVERAGE): Y [N,2]."""
    from sklearn.ensemble import RandomForestRegressor
    x, _ = iris()
    rf = RandomForestRegressor(n_estimators=3, max_depth=3, random_state=0).fit(x[:, 2:], x[:, :2])
    g = new("zoo_forest_reg2")
    X = g.input("X", FLOAT, ["N", 2])
    r = g.ml("TreeEnsembleRegressor", [X], n_targets=2, aggregate_function="AVERAGE",
             **trees_attrs(rf.estimators_, "target", 2))
    finish(g, r)


@zoo(*N_ONLY)
def zoo_gbc():
    """GradientBoostingClassifier (3 classes, 3 stages): a tree per class and stage, base values, SOFTMAX."""
    from sklearn.ensemble import GradientBoostingClassifier
    x, y = iris()
    gb = GradientBoostingClassifier(n_estimators=3, max_depth=2, random_state=0).fit(x, y)
    trees = [t for stage in gb.estimators_ for t in stage]
    g = new("zoo_gbc")
    X = g.input("X", FLOAT, ["N", 4])
    label, prob = g.ml("TreeEnsembleClassifier", [X], 2, classlabels_int64s=[0, 1, 2], post_transform="SOFTMAX",
                       base_values=[0.0, 0.0, 0.0],
                       **trees_attrs(trees, "class", 1, out_of=lambda k, v: [(k % 3, float(v[0]) * gb.learning_rate)]))
    finish(g, label, prob)


@zoo(*N_ONLY)
def zoo_gbc_binary():
    """Binary GradientBoostingClassifier: one tree a stage, class 0's weights only, LOGISTIC: scores [N,2]."""
    from sklearn.ensemble import GradientBoostingClassifier
    x, y = iris()
    gb = GradientBoostingClassifier(n_estimators=3, max_depth=2, random_state=0).fit(x, y == 0)
    trees = [stage[0] for stage in gb.estimators_]
    g = new("zoo_gbc_binary")
    X = g.input("X", FLOAT, ["N", 4])
    label, prob = g.ml("TreeEnsembleClassifier", [X], 2, classlabels_int64s=[0, 1], post_transform="LOGISTIC",
                       base_values=[0.0],
                       **trees_attrs(trees, "class", 1, out_of=lambda k, v: [(0, float(v[0]) * gb.learning_rate)]))
    finish(g, label, prob)


@zoo(*N_ONLY)
def zoo_gbr():
    """GradientBoostingRegressor (4 stages, SUM, a base value)."""
    from sklearn.ensemble import GradientBoostingRegressor
    x, _ = iris()
    gb = GradientBoostingRegressor(n_estimators=4, max_depth=2, random_state=0).fit(x[:, 1:], x[:, 0])
    g = new("zoo_gbr")
    X = g.input("X", FLOAT, ["N", 3])
    r = g.ml("TreeEnsembleRegressor", [X], n_targets=1, base_values=[float(x[:, 0].mean())],
             **trees_attrs([s[0] for s in gb.estimators_], "target", 1, scale=gb.learning_rate))
    finish(g, r)


@zoo(*N_ONLY)
def zoo_tree_ensemble5():
    """A DecisionTreeRegressor as ai.onnx.ml 5's TreeEnsemble (leaf weights, node splits): Y [N,1]."""
    from sklearn.tree import DecisionTreeRegressor
    x, _ = iris()
    t = DecisionTreeRegressor(max_depth=2, random_state=0).fit(x, x[:, 0]).tree_
    inner = [i for i in range(t.node_count) if t.children_left[i] != -1]
    leaves = [i for i in range(t.node_count) if t.children_left[i] == -1]
    pos = {n: k for k, n in enumerate(inner)}
    lpos = {n: k for k, n in enumerate(leaves)}

    def child(c):
        return (0, pos[c]) if c in pos else (1, lpos[c])

    tl = [child(t.children_left[i]) for i in inner]
    fl = [child(t.children_right[i]) for i in inner]
    g = new("zoo_tree_ensemble5", ml_opset=5, opset=21)
    X = g.input("X", FLOAT, ["N", 4])
    r = g.ml("TreeEnsemble", [X], n_targets=1, tree_roots=[0], aggregate_function=1, post_transform=0,
             nodes_featureids=[int(t.feature[i]) for i in inner],
             nodes_splits=onnx.numpy_helper.from_array(np.array([t.threshold[i] for i in inner], np.float32)),
             nodes_modes=onnx.numpy_helper.from_array(np.zeros(len(inner), np.uint8)),
             nodes_truenodeids=[c for _, c in tl], nodes_trueleafs=[lf for lf, _ in tl],
             nodes_falsenodeids=[c for _, c in fl], nodes_falseleafs=[lf for lf, _ in fl],
             leaf_targetids=[0] * len(leaves),
             leaf_weights=onnx.numpy_helper.from_array(np.array([t.value[i].ravel()[0] for i in leaves], np.float32)))
    finish(g, r)


@zoo(*NF)
def zoo_knn():
    """KNeighborsClassifier(k=3) as skl2onnx writes it: squared distances to the 12 training rows
    (Sub of [N,1,F] and [12,4], ReduceSumSquare), TopK of their negation, ArrayFeatureExtractor of the
    training labels, Reshape [N,3], one-hot counts by Equal/ReduceSum, ArgMax."""
    x, y = iris()
    idx = np.arange(0, 150, 13)[:12]
    train, labels = x[idx], y[idx].astype(np.int64)
    g = new("zoo_knn")
    X = g.input("X", FLOAT, ["N", "F"])
    diff = g.op("Sub", [g.unsqueeze(X, [1]), g.const(train, np.float32)])
    d = g.op("ReduceSumSquare", [diff], axes=[2], keepdims=0)
    neg = g.op("Neg", [d])
    _, ind = g.op("TopK", [neg, g.const([3])], 2, axis=1, largest=1, sorted=1)
    lab = g.ml("ArrayFeatureExtractor", [g.const(labels), ind])
    lab2 = g.op("Reshape", [lab, g.const([-1, 3])])
    eq = g.op("Equal", [g.unsqueeze(lab2, [2]), g.const([0, 1, 2])])
    cnt = g.op("ReduceSum", [g.op("Cast", [eq], to=FLOAT), g.const([1])], keepdims=0)
    am = g.op("ArgMax", [cnt], axis=1, keepdims=0)
    finish(g, am, cnt)


@zoo(("N2", {"N": 2}), ("N5", {"N": 5}), ("N12", {"N": 12}), ("N20", {"N": 20}))
def zoo_knn_rows():
    """KNeighborsRegressor(k=4) whose training rows are the batch itself: TopK(4) over N candidates
    needs N >= 4; the neighbours' targets by ArrayFeatureExtractor, ReduceMean."""
    g = new("zoo_knn_rows")
    X = g.input("X", FLOAT, ["N", 4])
    T = g.input("T", FLOAT, ["N"])
    diff = g.op("Sub", [g.unsqueeze(X, [1]), g.unsqueeze(X, [0])])
    d = g.op("ReduceSumSquare", [diff], axes=[2], keepdims=0)
    _, ind = g.op("TopK", [g.op("Neg", [d]), g.const([4])], 2, axis=1)
    t = g.ml("ArrayFeatureExtractor", [T, ind])
    t2 = g.op("Reshape", [t, g.const([-1, 4])])
    m = g.op("ReduceMean", [t2], axes=[1], keepdims=1)
    finish(g, m)


@zoo(*NF)
def zoo_kmeans():
    """KMeans(3) as skl2onnx writes it: ReduceSumSquare(X), Gemm(X, centers^T, alpha=-2), Add, Add of the
    centers' squares, ArgMin, Sqrt: Gemm needs F == 4."""
    from sklearn.cluster import KMeans
    x, _ = iris()
    km = KMeans(3, n_init=3, random_state=0).fit(x)
    c = km.cluster_centers_.astype(np.float32)
    g = new("zoo_kmeans")
    X = g.input("X", FLOAT, ["N", "F"])
    x2 = g.op("ReduceSumSquare", [X], axes=[1], keepdims=1)
    gm = g.op("Gemm", [X, g.const(c, np.float32), g.const((c * c).sum(1), np.float32)], alpha=-2.0, beta=1.0, transB=1)
    d = g.op("Add", [x2, gm])
    lab = g.op("ArgMin", [d], axis=1, keepdims=0)
    dist = g.op("Sqrt", [g.op("Relu", [d])])
    finish(g, lab, dist)


@zoo(("N2_C1", {"N": 2}, {"C": "randint:0:4"}), ("N4_C1", {"N": 4}, {"C": "randint:0:4"}))
def zoo_onehot():
    """OneHotEncoder of 2 integer columns the new skl2onnx way: ArrayFeatureExtractor of each column,
    OneHotEncoder ([N,1] -> [N,1,k]), Concat on axis 2, Reshape [N, 3+4]."""
    g = new("zoo_onehot")
    C = g.input("C", INT64, ["N", 2])
    parts = []
    for col, cats in ((0, [0, 1, 2]), (1, [0, 1, 2, 3])):
        c = g.ml("ArrayFeatureExtractor", [C, g.const([col])])
        parts.append(g.ml("OneHotEncoder", [c], cats_int64s=cats, zeros=1))
    cat = g.op("Concat", parts, axis=2)
    r = g.op("Reshape", [cat, g.const([-1, 7])])
    finish(g, r)


@zoo(("N3", {"N": 3}, {"C": "randint:0:5"}), ("N6", {"N": 6}, {"C": "randint:0:5"}))
def zoo_labelenc():
    """LabelEncoder of a label column [N] (int keys, ml opset 2), then OneHotEncoder of the codes
    ([N] -> [N,k]) and a float LabelEncoder of the codes."""
    g = new("zoo_labelenc", ml_opset=2)
    C = g.input("C", INT64, ["N"])
    le = g.ml("LabelEncoder", [C], keys_int64s=[0, 1, 2, 3], values_int64s=[3, 2, 1, 0], default_int64=0)
    oh = g.ml("OneHotEncoder", [le], cats_int64s=[0, 1, 2, 3], zeros=1)
    fl = g.ml("LabelEncoder", [g.op("Cast", [le], to=FLOAT)], keys_floats=[0.0, 1.0], values_floats=[0.5, 1.5],
              default_float=-1.0)
    finish(g, oh, fl)


@zoo(("N2_F5", {"N": 2, "F": 5}), ("N3_F3", {"N": 3, "F": 3}), ("N2_F2", {"N": 2, "F": 2}))
def zoo_coltrans():
    """ColumnTransformer: Gather of columns 0,1 (StandardScaler), ArrayFeatureExtractor of column 2 cast
    to int64 (OneHotEncoder, Reshape [-1,3]), Concat: needs F >= 3 (column 2 out of range at F=2)."""
    g = new("zoo_coltrans")
    X = g.input("X", FLOAT, ["N", "F"])
    num = g.op("Gather", [X, g.const([0, 1])], axis=1)
    s = g.ml("Scaler", [num], offset=[0.5, -0.5], scale=[2.0, 3.0])
    cat = g.op("Cast", [g.ml("ArrayFeatureExtractor", [X, g.const([2])])], to=INT64)
    oh = g.op("Reshape", [g.ml("OneHotEncoder", [cat], cats_int64s=[0, 1, 2], zeros=1), g.const([-1, 3])])
    out = g.op("Concat", [s, oh], axis=1)
    finish(g, out)


@zoo(("N2_F3", {"N": 2, "F": 3}), ("N3_F6", {"N": 3, "F": 6}), ("N1_F1", {"N": 1, "F": 1}))
def zoo_coltrans_gather():
    """ColumnTransformer with remainder: Gather of column 0 (Binarizer), Slice of columns 1: (passthrough),
    Concat; the Imputer reads any count of columns: [N,F]."""
    g = new("zoo_coltrans_gather")
    X = g.input("X", FLOAT, ["N", "F"])
    first = g.op("Gather", [X, g.const([0])], axis=1)
    b = g.ml("Binarizer", [first], threshold=0.0)
    rest = g.op("Slice", [X, g.const([1]), g.const([2**62]), g.const([1])])
    imp = g.ml("Imputer", [rest], imputed_value_floats=[0.0], replaced_value_float=float("nan"))
    out = g.op("Concat", [b, imp], axis=1)
    finish(g, out)


@zoo(*NF)
def zoo_union():
    """FeatureUnion of PCA(2) and StandardScaler then LogisticRegression: Concat [N,6] into a
    LinearClassifier of 3x6 coefficients."""
    from sklearn.decomposition import PCA
    from sklearn.linear_model import LogisticRegression
    x, y = iris()
    pca = PCA(2).fit(x)
    mean, scale = x.mean(0), 1 / x.std(0)
    feats = np.concatenate([pca.transform(x), (x - mean) * scale], 1)
    clf = LogisticRegression(max_iter=1000).fit(feats, y)
    g = new("zoo_union")
    X = g.input("X", FLOAT, ["N", "F"])
    p = g.op("MatMul", [g.op("Sub", [X, g.const(pca.mean_, np.float32)]), g.const(pca.components_.T, np.float32)])
    s = g.ml("Scaler", [X], offset=floats(mean), scale=floats(scale))
    u = g.op("Concat", [p, s], axis=1)
    label, prob = g.ml("LinearClassifier", [u], 2, coefficients=floats(clf.coef_), intercepts=floats(clf.intercept_),
                       classlabels_ints=[0, 1, 2], post_transform="SOFTMAX")
    finish(g, label, prob)


@zoo(("N2_F4", {"N": 2, "F": 4}), ("N2_F2", {"N": 2, "F": 2}), ("N3_F7", {"N": 3, "F": 7}))
def zoo_featvec():
    """FeatureVectorizer of a [N,F] block (inputdimensions 4) and a [N,1] column (1): [N,5] whatever F
    (onnxruntime pads or cuts each block to its count)."""
    g = new("zoo_featvec")
    X = g.input("X", FLOAT, ["N", "F"])
    col = g.op("ReduceSum", [X, g.const([1])], keepdims=1)
    fv = g.ml("FeatureVectorizer", [X, col], inputdimensions=[4, 1])
    n = g.ml("Normalizer", [fv], norm="L1")
    finish(g, n)


@zoo(("N1", {"N": 1}), ("N3", {"N": 3}))
def zoo_featvec_1d():
    """FeatureVectorizer of X [N,4] and a 1-D column [N]: the spec reads a 1-D input as one row (N == 1);
    onnxruntime runs at any N, the column's first value in row 0."""
    g = new("zoo_featvec_1d")
    X = g.input("X", FLOAT, ["N", 4])
    col = g.op("ReduceSum", [X, g.const([1])], keepdims=0)
    fv = g.ml("FeatureVectorizer", [X, col], inputdimensions=[4, 1])
    finish(g, fv)


@zoo(("N2_F4", {"N": 2, "F": 4}), ("N3_F2", {"N": 3, "F": 2}))
def zoo_normalizer_rank3():
    """Normalizer of Unsqueeze(X) [N,1,F]: onnxruntime refuses rank 3 at every binding; Binarizer and
    Scaler of the same keep going."""
    g = new("zoo_normalizer_rank3")
    X = g.input("X", FLOAT, ["N", "F"])
    u = g.unsqueeze(X, [1])
    b = g.ml("Binarizer", [u], threshold=0.1)
    n = g.ml("Normalizer", [u], norm="L2")
    finish(g, b, n)


@zoo(("N2_F5", {"N": 2, "F": 5}), ("N2_F4", {"N": 2, "F": 4}), ("N3_F9", {"N": 3, "F": 9}))
def zoo_afe_oob():
    """ArrayFeatureExtractor of columns [0, 4] (a selector fitted on 5 columns): index 4 is out of range
    at F <= 4; then a LinearRegressor of 2 coefficients."""
    g = new("zoo_afe_oob")
    X = g.input("X", FLOAT, ["N", "F"])
    sel = g.ml("ArrayFeatureExtractor", [X, g.const([0, 4])])
    r = g.ml("LinearRegressor", [sel], coefficients=[0.5, -1.0], intercepts=[0.25])
    finish(g, sel, r)


@zoo(("N2_K3", {"N": 2}, {"K": "value:0,2,1"}), ("N3_K3", {"N": 3}, {"K": "value:3,0,1"}))
def zoo_afe_input():
    """ArrayFeatureExtractor whose indices are an input K [3] (a column choice fed at run time): index 3
    is out of range of the 3 columns; the engine cannot know the values."""
    g = new("zoo_afe_input")
    X = g.input("X", FLOAT, ["N", 3])
    K = g.input("K", INT64, [3])
    sel = g.ml("ArrayFeatureExtractor", [X, K])
    finish(g, sel)


# --- more skl2onnx pipelines (issue 26's second zoo) --------------------------------------------------------


def nb_tail(g, jll, classes):
    """skl2onnx's tail of a naive Bayes classifier: the joint log likelihood jll [N,C] gives the label
    (ArgMax, ArrayFeatureExtractor of the classes) and the probabilities (Sub of ReduceLogSumExp, Exp),
    with a ZipMap of them."""
    am = g.op("ArgMax", [jll], axis=1, keepdims=0)
    label = g.ml("ArrayFeatureExtractor", [g.const(np.array(classes, np.int64)), am])
    norm = g.op("ReduceLogSumExp", [jll], axes=[1], keepdims=1)
    prob = g.op("Exp", [g.op("Sub", [jll, norm])])
    g.ml("ZipMap", [prob], classlabels_int64s=list(classes))
    return label, prob


@zoo(*NF)
def zoo_gaussian_nb():
    """GaussianNB (3 classes) as skl2onnx writes it: Unsqueeze X to [N,1,F], Sub theta [3,4], Pow 2,
    Div by var, ReduceSum over the features, plus the constant part, label and probabilities: F == 4
    (theta broadcasts against F: F == 1 runs too)."""
    from sklearn.naive_bayes import GaussianNB
    x, y = iris()
    nb = GaussianNB().fit(x, y)
    var = nb.var_ if hasattr(nb, "var_") else nb.sigma_
    g = new("zoo_gaussian_nb")
    X = g.input("X", FLOAT, ["N", "F"])
    d = g.op("Sub", [g.unsqueeze(X, [1]), g.const(nb.theta_, np.float32)])
    q = g.op("Div", [g.op("Pow", [d, g.const(2.0, np.float32)]), g.const(var, np.float32)])
    s = g.op("ReduceSum", [q, g.const([2])], keepdims=0)
    const = np.log(nb.class_prior_) - 0.5 * np.log(2 * np.pi * var).sum(1)
    jll = g.op("Add", [g.op("Mul", [s, g.const(-0.5, np.float32)]), g.const(const, np.float32)])
    label, prob = nb_tail(g, jll, [0, 1, 2])
    finish(g, label, prob)


@zoo(*NF)
def zoo_bernoulli_nb():
    """BernoulliNB (binarize 5.0): Binarizer, MatMul by (log p - log(1-p))^T [4,3], Add of the
    classes' log priors and sum log(1-p): MatMul needs F == 4."""
    from sklearn.naive_bayes import BernoulliNB
    x, y = iris()
    nb = BernoulliNB(binarize=5.0).fit(x, y)
    flp = nb.feature_log_prob_
    neg = np.log(1 - np.exp(flp))
    g = new("zoo_bernoulli_nb")
    X = g.input("X", FLOAT, ["N", "F"])
    b = g.ml("Binarizer", [X], threshold=5.0)
    mm = g.op("MatMul", [b, g.const((flp - neg).T, np.float32)])
    jll = g.op("Add", [mm, g.const(nb.class_log_prior_ + neg.sum(1), np.float32)])
    label, prob = nb_tail(g, jll, [0, 1, 2])
    finish(g, label, prob)


@zoo(("N3", {"N": 3}, {"C": "randint:0:4"}), ("N5", {"N": 5}, {"C": "randint:0:4"}))
def zoo_label_binarizer():
    """LabelBinarizer of 4 classes as skl2onnx writes it: Reshape the labels [N] to [N,1], Equal to the
    classes [1,4], Cast: [N,4]; then a Normalizer (L1) of the indicator rows."""
    g = new("zoo_label_binarizer")
    C = g.input("C", INT64, ["N"])
    col = g.op("Reshape", [C, g.const([-1, 1])])
    eq = g.op("Equal", [col, g.const([[0, 1, 2, 3]])])
    ind = g.op("Cast", [eq], to=INT64)
    n = g.ml("Normalizer", [g.op("Cast", [ind], to=FLOAT)], norm="L1")
    finish(g, ind, n)


@zoo(("F3", {"F": 3}), ("F6", {"F": 6}))
def zoo_normalizer_row():
    """Binarizer and Normalizer (L2, MAX) of one 1-D row X [F] (a single sample), and Scaler of it."""
    g = new("zoo_normalizer_row")
    X = g.input("X", FLOAT, ["F"])
    b = g.ml("Binarizer", [X], threshold=0.2)
    n = g.ml("Normalizer", [X], norm="L2")
    m = g.ml("Normalizer", [b], norm="MAX")
    s = g.ml("Scaler", [n], offset=[0.5], scale=[2.0])
    finish(g, m, s)


@zoo(("N3", {"N": 3}, {"X": "randint:0:6"}), ("N4", {"N": 4}, {"X": "randint:0:6"}))
def zoo_onehot_ignore():
    """OneHotEncoder(handle_unknown='ignore') of 2 int64 columns: ArrayFeatureExtractor of each column,
    OneHotEncoder (zeros=1: unknown values give zero rows) [N,1,k], Reshape [N,k], Concat [N,7]."""
    g = new("zoo_onehot_ignore")
    X = g.input("X", INT64, ["N", 2])
    parts = []
    for c, cats in enumerate([[0, 1, 2], [1, 3, 4, 5]]):
        col = g.ml("ArrayFeatureExtractor", [X, g.const([c])])
        oh = g.ml("OneHotEncoder", [col], cats_int64s=cats, zeros=1)
        parts.append(g.op("Reshape", [oh, g.const([-1, len(cats)])]))
    finish(g, g.op("Concat", parts, axis=1))


@zoo(("N3_known", {"N": 3}, {"X": "randint:0:3"}), ("N3_unknown", {"N": 3}, {"X": "value:0,1,7"}))
def zoo_onehot_error():
    """OneHotEncoder(handle_unknown='error') (zeros=0) of a column [N]: a value outside the categories
    is refused by onnxruntime, a size only a run decides."""
    g = new("zoo_onehot_error")
    X = g.input("X", INT64, ["N"])
    oh = g.ml("OneHotEncoder", [X], cats_int64s=[0, 1, 2], zeros=0)
    finish(g, oh)


@zoo(*NF)
def zoo_decision_function():
    """decision_function outputs: LinearClassifier with post_transform NONE (the raw scores [N,3]) and a
    binary one whose [N,2] scores skl2onnx slices to the positive column [N,1]; SVC's
    decision_function (SVMClassifier, NONE): 3 pairwise scores."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import SVC
    x, y = iris()
    multi = LogisticRegression(max_iter=1000).fit(x, y)
    binary = LogisticRegression(max_iter=1000).fit(x, y == 2)
    svc = SVC(kernel="linear").fit(x, y)
    g = new("zoo_decision_function")
    X = g.input("X", FLOAT, ["N", "F"])
    _, raw = g.ml("LinearClassifier", [X], 2, coefficients=floats(multi.coef_), intercepts=floats(multi.intercept_),
                  classlabels_ints=[0, 1, 2], post_transform="NONE")
    _, braw = g.ml("LinearClassifier", [X], 2, coefficients=floats(binary.coef_), intercepts=floats(binary.intercept_),
                   classlabels_ints=[0, 1], post_transform="NONE")
    pos = g.op("Slice", [braw, g.const([1]), g.const([2]), g.const([1])])
    _, votes = g.ml("SVMClassifier", [X], 2, classlabels_ints=[0, 1, 2], kernel_type="LINEAR",
                    kernel_params=[0.0, 0.0, 3.0], vectors_per_class=[int(v) for v in svc.n_support_],
                    support_vectors=floats(svc.support_vectors_), coefficients=floats(svc.dual_coef_),
                    rho=floats(svc.intercept_), post_transform="NONE")
    finish(g, raw, pos, votes)


@zoo(*N_ONLY, ("N4", {"N": 4}))
def zoo_stacking():
    """StackingClassifier of a LogisticRegression and a DecisionTree (predict_proba, 3 classes each),
    concatenated [N,6], then a final LogisticRegression of 18 coefficients, and a soft
    VotingClassifier of the same two (Sum, Div): labels and probabilities."""
    from sklearn.ensemble import StackingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.tree import DecisionTreeClassifier
    x, y = iris()
    st = StackingClassifier([("lr", LogisticRegression(max_iter=1000)), ("dt", DecisionTreeClassifier(max_depth=2, random_state=0))],
                            final_estimator=LogisticRegression(max_iter=1000), stack_method="predict_proba").fit(x, y)
    lr, dt = st.estimators_
    g = new("zoo_stacking")
    X = g.input("X", FLOAT, ["N", 4])
    _, p1 = g.ml("LinearClassifier", [X], 2, coefficients=floats(lr.coef_), intercepts=floats(lr.intercept_),
                 classlabels_ints=[0, 1, 2], post_transform="SOFTMAX")
    _, p2 = g.ml("TreeEnsembleClassifier", [X], 2, classlabels_int64s=[0, 1, 2],
                 **trees_attrs([dt], "class", 3, out_of=lambda k, v: list(enumerate(v / v.sum()))))
    stack = g.op("Concat", [p1, p2], axis=1)
    label, prob = g.ml("LinearClassifier", [stack], 2, coefficients=floats(st.final_estimator_.coef_),
                       intercepts=floats(st.final_estimator_.intercept_), classlabels_ints=[0, 1, 2], post_transform="SOFTMAX")
    vote = g.op("Div", [g.op("Sum", [p1, p2]), g.const(2.0, np.float32)])
    vlabel = g.op("ArgMax", [vote], axis=1, keepdims=0)
    finish(g, label, prob, vote, vlabel)


@zoo(*N_ONLY)
def zoo_tree_reg3():
    """A DecisionTreeRegressor of 3 targets (multi-output) as one TreeEnsembleRegressor: Y [N,3]; and
    an ExtraTreesRegressor of 2 trees, AVERAGE, of one target."""
    from sklearn.ensemble import ExtraTreesRegressor
    from sklearn.tree import DecisionTreeRegressor
    x, _ = iris()
    dt = DecisionTreeRegressor(max_depth=3, random_state=0).fit(x[:, :2], x[:, 1:])
    et = ExtraTreesRegressor(n_estimators=2, max_depth=2, random_state=0).fit(x[:, :2], x[:, 3])
    g = new("zoo_tree_reg3")
    X = g.input("X", FLOAT, ["N", 2])
    r3 = g.ml("TreeEnsembleRegressor", [X], n_targets=3, **trees_attrs([dt], "target", 3))
    r1 = g.ml("TreeEnsembleRegressor", [X], n_targets=1, aggregate_function="AVERAGE", **trees_attrs(et.estimators_, "target", 1))
    finish(g, r3, r1)


@zoo(*NF)
def zoo_svr_linear():
    """LinearSVR as SVMRegressor in liblinear mode (4 coefficients, no support vectors), X [N,F]:
    onnxruntime checks the feature count here."""
    from sklearn.svm import LinearSVR
    x, _ = iris()
    svr = LinearSVR(max_iter=5000, random_state=0).fit(x, x[:, 0] * 2)
    g = new("zoo_svr_linear")
    X = g.input("X", FLOAT, ["N", "F"])
    r = g.ml("SVMRegressor", [X], kernel_type="LINEAR", kernel_params=[0.0, 0.0, 3.0], coefficients=floats(svr.coef_),
             rho=floats(svr.intercept_))
    finish(g, r)


@zoo(("N2", {"N": 2}), ("N6", {"N": 6}))
def zoo_knn_reg():
    """KNeighborsRegressor(k=5) on 12 training rows: TopK(5) of the negated squared distances [N,12],
    ArrayFeatureExtractor of the training targets [12] by the indices [N,5], ReduceMean: [N,1]."""
    x, _ = iris()
    idx = np.arange(0, 150, 13)[:12]
    g = new("zoo_knn_reg")
    X = g.input("X", FLOAT, ["N", 4])
    diff = g.op("Sub", [g.unsqueeze(X, [1]), g.const(x[idx], np.float32)])
    d = g.op("ReduceSumSquare", [diff], axes=[2], keepdims=0)
    _, ind = g.op("TopK", [g.op("Neg", [d]), g.const([5])], 2, axis=1)
    t = g.ml("ArrayFeatureExtractor", [g.const(x[idx, 3], np.float32), ind])
    finish(g, g.op("ReduceMean", [t], axes=[1], keepdims=1))


@zoo(("N2_T6", {"N": 2, "T": 6}, {"X": "randint:0:9"}), ("N3_T4", {"N": 3, "T": 4}, {"X": "randint:0:9"}))
def zoo_tfidf():
    """CountVectorizer/TfidfVectorizer of token ids as skl2onnx writes their core: TfIdfVectorizer of
    unigrams and bigrams (pool of 7 grams, mode TFIDF with idf weights) [N,T] -> [N,7], Normalizer L2."""
    g = new("zoo_tfidf")
    X = g.input("X", INT64, ["N", "T"])
    tf = g.op("TfIdfVectorizer", [X], min_gram_length=1, max_gram_length=2, max_skip_count=0, mode="TFIDF",
              ngram_counts=[0, 4], ngram_indexes=list(range(7)), pool_int64s=[1, 2, 3, 4, 1, 2, 3, 4, 2, 3][:10],
              weights=[1.0, 1.5, 1.2, 2.0, 2.5, 2.2, 1.1])
    n = g.ml("Normalizer", [tf], norm="L2")
    finish(g, n)


@zoo(*N_ONLY)
def zoo_zipmap_out():
    """A classifier's ZipMap output as skl2onnx writes it (output_probability a sequence of maps, a
    graph output onnxruntime-node cannot return, so its run is what is compared), and a ZipMap of
    string labels."""
    from sklearn.linear_model import LogisticRegression
    x, y = iris()
    clf = LogisticRegression(max_iter=1000).fit(x, y)
    g = new("zoo_zipmap_out")
    X = g.input("X", FLOAT, ["N", 4])
    label, prob = g.ml("LinearClassifier", [X], 2, coefficients=floats(clf.coef_), intercepts=floats(clf.intercept_),
                       classlabels_ints=[0, 1, 2], post_transform="SOFTMAX")
    g.ml("ZipMap", [prob], classlabels_int64s=[0, 1, 2])
    g.ml("ZipMap", [prob], classlabels_strings=["setosa", "versicolor", "virginica"])
    finish(g, label, prob)


@zoo(("N2", {"N": 2}),)
def zoo_zipmap_at():
    """SequenceAt of ZipMap's sequence of maps: every sequence operator takes sequences of tensors, and
    onnxruntime refuses the model at load."""
    g = new("zoo_zipmap_at")
    X = g.input("X", FLOAT, ["N", 3])
    z = g.ml("ZipMap", [X], classlabels_int64s=[1, 2, 3])
    row = g.op("SequenceAt", [z, g.const(0)])
    finish(g, row)


# --- torch list building -------------------------------------------------------------------------------------


def seqg(name, opset=17):
    return Graph(name, opset)


def save(g, *outs):
    """Saves a graph of the default domain with outs as its outputs."""
    import os
    from gen_onnx import OUT
    for o in outs:
        g.output(o, None)
    model = helper.make_model(g.graph(), opset_imports=[helper.make_opsetid("", g.opset)],
                              producer_name="reshape bench/truth/gen_mlzoo.py")
    model.ir_version = 8
    path = os.path.join(OUT, g.name + ".onnx")
    onnx.save(model, path)
    print(f"{g.name}.onnx: {len(g.nodes)} nodes, {os.path.getsize(path)} bytes")


BT = (("B2_T5", {"B": 2, "T": 5}), ("B3_T2", {"B": 3, "T": 2}), ("B1_T7", {"B": 1, "T": 7}))


@zoo(*BT)
def zoo_seq_split():
    """list(x.unbind(1)) and x.split(1, 1): SplitToSequence keepdims 0 and 1, SequenceLength, SequenceAt
    0 and -1, torch.stack (ConcatFromSequence new_axis 1) and torch.cat (new_axis 0) on axes 0, 1, -1."""
    g = seqg("zoo_seq_split")
    x = g.input("x", FLOAT, ["B", "T", 4])
    s0 = g.op("SplitToSequence", [x], axis=1, keepdims=0)
    s1 = g.op("SplitToSequence", [x], axis=1, keepdims=1)
    outs = [g.op("SequenceLength", [s0]), g.op("SequenceAt", [s0, g.const(0)]), g.op("SequenceAt", [s1, g.const(-1)]),
            g.op("ConcatFromSequence", [s0], axis=1, new_axis=1), g.op("ConcatFromSequence", [s0], axis=0, new_axis=1),
            g.op("ConcatFromSequence", [s0], axis=-1, new_axis=1), g.op("ConcatFromSequence", [s1], axis=0),
            g.op("ConcatFromSequence", [s1], axis=-1)]
    save(g, *outs)


@zoo(*BT)
def zoo_seq_chunks():
    """x.split(2, 1) (SplitToSequence with a scalar split: the last chunk is T mod 2) and x.split([1, T-1])
    by sizes computed from Shape."""
    g = seqg("zoo_seq_chunks")
    x = g.input("x", FLOAT, ["B", "T", 3])
    c = g.op("SplitToSequence", [x, g.const(2)], axis=1)
    T = g.dim(x, 1)
    sizes = g.op("Concat", [g.const([1]), g.op("Sub", [g.unsqueeze(T, [0]), g.const([1])])], axis=0)
    p = g.op("SplitToSequence", [x, sizes], axis=1)
    outs = [g.op("SequenceLength", [c]), g.op("SequenceAt", [c, g.const(0)]), g.op("SequenceAt", [c, g.const(-1)]),
            g.op("ConcatFromSequence", [c], axis=1), g.op("SequenceAt", [p, g.const(1)]), g.op("SequenceLength", [p])]
    save(g, *outs)


@zoo(*BT)
def zoo_seq_at_oob():
    """steps = list(x.unbind(1)); steps[3] and steps[-4]: out of range when T <= 3."""
    g = seqg("zoo_seq_at_oob")
    x = g.input("x", FLOAT, ["B", "T", 2])
    s = g.op("SplitToSequence", [x], axis=1, keepdims=0)
    a = g.op("SequenceAt", [s, g.const(3)])
    b = g.op("SequenceAt", [s, g.const(-4)])
    save(g, g.op("Add", [a, b]))


@zoo(*BT)
def zoo_seq_erase_insert():
    """lst = [x, relu(x), x*2]; lst.insert(1, x); del lst[-1]; del lst[0]; lst.insert(len, y) (append);
    torch.cat(lst, 0) and torch.stack(lst, 2); SequenceLength; SequenceErase of position 4 of steps (out
    of range when T <= 4)."""
    g = seqg("zoo_seq_erase_insert")
    x = g.input("x", FLOAT, ["B", "T", 3])
    lst = g.op("SequenceConstruct", [x, g.op("Relu", [x]), g.op("Mul", [x, g.const(2.0, np.float32)])])
    lst = g.op("SequenceInsert", [lst, x, g.const(1)])
    lst = g.op("SequenceErase", [lst, g.const(-1)])
    lst = g.op("SequenceErase", [lst, g.const(0)])
    lst = g.op("SequenceInsert", [lst, g.op("Sigmoid", [x])])
    outs = [g.op("SequenceLength", [lst]), g.op("ConcatFromSequence", [lst], axis=0),
            g.op("ConcatFromSequence", [lst], axis=2, new_axis=1), g.op("SequenceAt", [lst, g.const(2)])]
    steps = g.op("SplitToSequence", [x], axis=1, keepdims=0)
    er = g.op("SequenceErase", [steps, g.const(4)])
    outs += [g.op("SequenceLength", [er]), g.op("ConcatFromSequence", [er], axis=1, new_axis=1)]
    save(g, *outs)


@zoo(*BT)
def zoo_seq_insert_oob():
    """steps.insert(3, x[:, 0]) on the unbound steps: a position past the length (T < 3) is refused."""
    g = seqg("zoo_seq_insert_oob")
    x = g.input("x", FLOAT, ["B", "T", 2])
    s = g.op("SplitToSequence", [x], axis=1, keepdims=0)
    first = g.op("Gather", [x, g.const(0)], axis=1)
    ins = g.op("SequenceInsert", [s, first, g.const(3)])
    save(g, g.op("SequenceLength", [ins]), g.op("ConcatFromSequence", [ins], axis=0, new_axis=1))


@zoo(("B2_T3", {"B": 2, "T": 3}), ("B3_T3", {"B": 3, "T": 3}), ("B2_T2", {"B": 2, "T": 2}))
def zoo_seq_rank_mismatch():
    """torch.cat([x, x.unsqueeze(2)]): ConcatFromSequence of elements of ranks 2 and 3 is refused at every
    binding; torch.cat([x, x.t()], 0) of [B,T] and [T,B] runs only when B == T."""
    g = seqg("zoo_seq_rank_mismatch")
    x = g.input("x", FLOAT, ["B", "T"])
    bad = g.op("SequenceConstruct", [x, g.unsqueeze(x, [2])])
    c1 = g.op("ConcatFromSequence", [bad], axis=0)
    sq = g.op("SequenceConstruct", [x, g.op("Transpose", [x], perm=[1, 0])])
    c2 = g.op("ConcatFromSequence", [sq], axis=0)
    save(g, c1, c2)


@zoo(*BT)
def zoo_seq_loop_const():
    """outs = []; for _ in range(3): outs.append(relu(x) + len(outs)): a Loop of 3 trips (a constant)
    appending [B,T] elements; torch.stack(outs, 1) and the length."""
    g = seqg("zoo_seq_loop_const")
    x = g.input("x", FLOAT, ["B", "T"])
    b = Graph("body", 17, "body/")
    b.input("i", INT64, [])
    b.input("cond", BOOL, [])
    b.inputs.append(helper.make_tensor_sequence_value_info("acc", FLOAT, None))
    n = b.op("Cast", [b.op("SequenceLength", ["acc"])], to=FLOAT)
    el = b.op("Add", [b.op("Relu", [x]), n])
    ins = b.op("SequenceInsert", ["acc", el])
    c = b.op("Identity", ["cond"])
    b.outputs += [helper.make_tensor_value_info(c, BOOL, []), helper.make_tensor_sequence_value_info(ins, FLOAT, None)]
    loop = g.op("Loop", [g.const(3), "", g.op("SequenceEmpty", [], dtype=FLOAT)], body=b.graph())
    save(g, g.op("SequenceLength", [loop]), g.op("ConcatFromSequence", [loop], axis=1, new_axis=1))


@zoo(*BT)
def zoo_seq_loop_scan():
    """for t in range(T): h = tanh(x[:, t] + h); outs.append(h): torch's scan output ([T,B,4]) and the
    carried state, then torch.stack(outs, 1) written as Transpose."""
    g = seqg("zoo_seq_loop_scan")
    x = g.input("x", FLOAT, ["B", "T", 4])
    b = Graph("body", 17, "body/")
    b.input("i", INT64, [])
    b.input("cond", BOOL, [])
    b.input("h", FLOAT, ["B", 4])
    xt = b.op("Gather", [x, "i"], axis=1)
    h = b.op("Tanh", [b.op("Add", [xt, "h"])])
    c = b.op("Identity", ["cond"])
    h2 = b.op("Identity", [h])
    b.outputs += [helper.make_tensor_value_info(c, BOOL, []), helper.make_tensor_value_info(h, FLOAT, None),
                  helper.make_tensor_value_info(h2, FLOAT, None)]
    h0 = g.op("ReduceMean", [x], axes=[1], keepdims=0)
    hT, scan = g.op("Loop", [g.dim(x, 1), "", h0], 2, body=b.graph())
    save(g, hT, g.op("Transpose", [scan], perm=[1, 0, 2]))


@zoo(*BT)
def zoo_seq_map():
    """[t.reshape(B, 2, 2).transpose(1, 2) for t in x.unbind(1)] as SequenceMap, and a SequenceMap over two
    sequences (zip); torch.cat of the results."""
    g = seqg("zoo_seq_map")
    x = g.input("x", FLOAT, ["B", "T", 4])
    s = g.op("SplitToSequence", [x], axis=1, keepdims=0)
    mb = Graph("map", 17, "map/")
    mb.input("e", FLOAT, ["B", 4])
    r = mb.op("Transpose", [mb.op("Reshape", ["e", mb.const([0, 2, 2])])], perm=[0, 2, 1])
    mb.outputs.append(helper.make_tensor_value_info(r, FLOAT, None))
    m = g.op("SequenceMap", [s], body=mb.graph())
    zb = Graph("zip", 17, "zip/")
    zb.input("a", FLOAT, ["B", 4])
    zb.input("c", FLOAT, ["B", 4])
    z = zb.op("Concat", ["a", "c"], axis=1)
    zb.outputs.append(helper.make_tensor_value_info(z, FLOAT, None))
    zz = g.op("SequenceMap", [s, s], body=zb.graph())
    save(g, g.op("ConcatFromSequence", [m], axis=0), g.op("SequenceAt", [m, g.const(-1)]),
         g.op("ConcatFromSequence", [zz], axis=1, new_axis=1), g.op("SequenceLength", [zz]))


@zoo(("B2", {"B": 2}), ("B4", {"B": 4}))
def zoo_seq_optional():
    """Optional[Tensor] and Optional[List[Tensor]]: Optional of x and of a list, an empty optional (type
    attribute), OptionalHasElement of each, OptionalGetElement of x's (opset 18; onnxruntime-node returns
    no optional nor sequence, so the optional list is not read back)."""
    g = seqg("zoo_seq_optional", 18)
    x = g.input("x", FLOAT, ["B", 3])
    o = g.op("Optional", [x])
    lst = g.op("SequenceConstruct", [x, x])
    ol = g.op("Optional", [lst])
    empty = g.op("Optional", [], type=helper.make_tensor_type_proto(FLOAT, None))
    outs = [g.op("OptionalHasElement", [o]), g.op("OptionalHasElement", [ol]), g.op("OptionalHasElement", [empty]),
            g.op("OptionalGetElement", [o]), g.op("OptionalHasElement", [x])]
    save(g, *outs)


@zoo(*BT)
def zoo_seq_split_sizes_input():
    """x.split([2, 3], 1): split sizes that sum to 5, refused at every T but 5; the second part's shape."""
    g = seqg("zoo_seq_split_sizes_input")
    x = g.input("x", FLOAT, ["B", "T", 2])
    p = g.op("SplitToSequence", [x, g.const([2, 3])], axis=1)
    save(g, g.op("SequenceAt", [p, g.const(1)]), g.op("SequenceLength", [p]))


# --- string pipelines: string inputs fed to onnxruntime-node (truth.py's choice:/value: fills) --------------

STRING = onnx.TensorProto.STRING
SPECIES = ["setosa", "versicolor", "virginica"]
COLORS = "choice:red|green|blue|Red"
# StringNormalizer's locale: its default, en_US.UTF-8, is not installed here (onnxruntime refuses to load
# the model without it); C.UTF-8 is built into glibc and changes no shape.
LOCALE = "C.UTF-8"
DOCS = ("choice:The cat sat on the mat|a dog and a cat|Dogs bark loudly|the end|Blue green red|"
        "cat cat dog|An apple a day")


def strs(values):
    """A string Constant node's value (rank kept)."""
    return np.array(values, dtype=object)


def species():
    """A choice: fill of iris species names and one unknown label."""
    return "choice:" + "|".join(SPECIES + ["rose"])


def col(g, x, i):
    """Column i of x [N,C] as [N,1], as skl2onnx's ColumnTransformer and encoders take it (Gather axis 1)."""
    return g.op("Gather", [x, g.const([i])], axis=1)


def fitted_species_classifier():
    """LogisticRegression fitted on iris with string labels, and the labels."""
    from sklearn.linear_model import LogisticRegression
    x, y = iris()
    names = np.array(SPECIES)[y]
    return LogisticRegression(max_iter=1000).fit(x, names), x


@zoo(("N1", {"N": 1}, {"X": species()}), ("N4", {"N": 4}, {"X": species()}))
def zoo_str_labelenc():
    """sklearn LabelEncoder of string labels as skl2onnx writes it (LabelEncoder-2 of a 1-D string input,
    keys_strings to values_int64s, default -1 for an unknown label) and its inverse_transform (int64 keys
    to values_strings, default "_Unused")."""
    from sklearn.preprocessing import LabelEncoder
    le = LabelEncoder().fit(SPECIES)
    g = new("zoo_str_labelenc", ml_opset=2)
    X = g.input("X", STRING, ["N"])
    enc = g.ml("LabelEncoder", [X], keys_strings=list(le.classes_), values_int64s=list(range(len(le.classes_))),
               default_int64=-1)
    dec = g.ml("LabelEncoder", [enc], keys_int64s=list(range(len(le.classes_))), values_strings=list(le.classes_),
               default_string="_Unused")
    finish(g, enc, dec)


@zoo(("N2", {"N": 2}),)
def zoo_str_labelenc_type():
    """LabelEncoder-2 of keys_strings fed int64 codes (a pipeline that encodes twice): onnx's shape inference
    refuses it when onnxruntime loads the model."""
    g = new("zoo_str_labelenc_type", ml_opset=2)
    X = g.input("X", INT64, ["N"])
    finish(g, g.ml("LabelEncoder", [X], keys_strings=SPECIES, values_int64s=[0, 1, 2]))


@zoo(("N2", {"N": 2}, {"X": COLORS}), ("N3", {"N": 3}, {"X": COLORS}))
def zoo_str_labelenc_v1():
    """LabelEncoder-1 (classes_strings) both ways on a [N,2] string input: strings to int64 (default_int64
    for an unknown), back to strings (default_string), and a Reshape of the codes to [2N]."""
    g = new("zoo_str_labelenc_v1", ml_opset=1)
    X = g.input("X", STRING, ["N", 2])
    enc = g.ml("LabelEncoder", [X], classes_strings=["blue", "green", "red"], default_int64=-1)
    dec = g.ml("LabelEncoder", [enc], classes_strings=["blue", "green", "red"], default_string="none")
    flat = g.op("Reshape", [enc, g.const([-1])])
    finish(g, enc, dec, flat)


@zoo(("N2_C3", {"N": 2, "C": 3}, {"X": COLORS}), ("N1_C1", {"N": 1, "C": 1}, {"X": COLORS}),
     ("N3_C2", {"N": 3, "C": 2}, {"X": COLORS}))
def zoo_str_labelenc4():
    """LabelEncoder-4 (ai.onnx.ml 4): keys_tensor of strings to values_tensor of floats with default_tensor,
    on [N,C]; a LabelEncoder-4 of keys_strings to values_int64s; their Concat on axis 1 [N,2C]."""
    g = new("zoo_str_labelenc4", ml_opset=4)
    X = g.input("X", STRING, ["N", "C"])
    from onnx import numpy_helper
    f = g.ml("LabelEncoder", [X], keys_tensor=numpy_helper.from_array(strs(["red", "green", "blue"]), "keys"),
             values_tensor=numpy_helper.from_array(np.array([0.5, 1.5, 2.5], np.float32), "values"),
             default_tensor=numpy_helper.from_array(np.array([-1.0], np.float32), "default"))
    i = g.ml("LabelEncoder", [X], keys_strings=["red", "green"], values_int64s=[1, 2], default_int64=0)
    cat = g.op("Concat", [f, g.op("Cast", [i], to=FLOAT)], axis=1)
    finish(g, f, i, cat)


def str_onehot(g, x, cats, zeros, drop=None):
    """skl2onnx's OneHotEncoder of the string columns of x [N,len(cats)]: per column Gather (axis 1),
    OneHotEncoder [N,1,K], Concat on the last axis, a Gather of the kept columns (drop), Reshape [-1,total]."""
    outs, total = [], 0
    for i, c in enumerate(cats):
        o = g.ml("OneHotEncoder", [col(g, x, i)], cats_strings=list(c), zeros=zeros)
        k = len(c)
        if drop is not None:
            keep = [j for j in range(k) if j != drop[i]]
            o, k = g.op("Gather", [o, g.const(keep)], axis=-1), len(keep)
        outs.append(o)
        total += k
    cat = g.op("Concat", outs, axis=-1)
    return g.op("Reshape", [cat, g.const([-1, total])])


def fitted_onehot(**kw):
    from sklearn.preprocessing import OneHotEncoder
    data = np.array([["red", "S"], ["green", "M"], ["blue", "L"], ["red", "XL"], ["green", "S"]], dtype=object)
    return OneHotEncoder(**kw).fit(data)


SIZES = "choice:red|green|blue|S|M|L|XL"


@zoo(("N2", {"N": 2}, {"X": SIZES}), ("N5", {"N": 5}, {"X": SIZES}))
def zoo_str_onehot():
    """OneHotEncoder(handle_unknown='ignore') of 2 string columns (3 and 4 categories) as skl2onnx writes it:
    [N,2] -> [N,7]; an unknown string gives zeros."""
    ohe = fitted_onehot(handle_unknown="ignore")
    g = new("zoo_str_onehot")
    X = g.input("X", STRING, ["N", 2])
    finish(g, str_onehot(g, X, ohe.categories_, zeros=1))


@zoo(("N3_known", {"N": 3}, {"X": "value:red,S,green,M,blue,XL"}),
     ("N2_unknown", {"N": 2}, {"X": "value:red,S,pink,M"}))
def zoo_str_onehot_drop():
    """OneHotEncoder(drop='first', handle_unknown='error'): zeros=0 and a Gather of the kept categories;
    an unknown string is refused by onnxruntime (only a run decides)."""
    ohe = fitted_onehot(drop="first")
    g = new("zoo_str_onehot_drop")
    X = g.input("X", STRING, ["N", 2])
    finish(g, str_onehot(g, X, ohe.categories_, zeros=0, drop=[int(d) for d in ohe.drop_idx_]))


@zoo(("N2", {"N": 2}, {"X": SIZES}), ("N4", {"N": 4}, {"X": SIZES}))
def zoo_str_ordinal():
    """OrdinalEncoder of 2 string columns as skl2onnx writes it (per column Gather, LabelEncoder keys_strings
    to values_int64s, Cast float, Concat axis 1 [N,2]), then a LinearRegressor."""
    from sklearn.preprocessing import OrdinalEncoder
    data = np.array([["red", "S"], ["green", "M"], ["blue", "L"], ["red", "XL"]], dtype=object)
    oe = OrdinalEncoder().fit(data)
    g = new("zoo_str_ordinal", ml_opset=2)
    X = g.input("X", STRING, ["N", 2])
    cols = []
    for i, c in enumerate(oe.categories_):
        e = g.ml("LabelEncoder", [col(g, X, i)], keys_strings=list(c), values_int64s=list(range(len(c))),
                 default_int64=-1)
        cols.append(g.op("Cast", [e], to=FLOAT))
    codes = g.op("Concat", cols, axis=1)
    r = g.ml("LinearRegressor", [codes], coefficients=[0.5, -0.25], intercepts=[1.0])
    finish(g, codes, r)


@zoo(("N2_C3", {"N": 2, "C": 3}, {"X": COLORS, "K": "randint:0:5"}),
     ("N1_C4", {"N": 1, "C": 4}, {"X": COLORS, "K": "randint:0:5"}))
def zoo_str_catmap():
    """CategoryMapper both ways: strings [N,C] to int64 (cats_strings, default_int64 -1) and int64 [N] to
    strings (default_string), and the strings of the codes mapped back."""
    g = new("zoo_str_catmap", ml_opset=1)
    X = g.input("X", STRING, ["N", "C"])
    K = g.input("K", INT64, ["N"])
    cats = dict(cats_strings=["red", "green", "blue"], cats_int64s=[1, 2, 3])
    codes = g.ml("CategoryMapper", [X], default_int64=-1, **cats)
    names = g.ml("CategoryMapper", [K], default_string="other", **cats)
    back = g.ml("CategoryMapper", [codes], default_string="other", **cats)
    finish(g, codes, names, back)


@zoo(("C3", {"C": 3}, {"X": COLORS, "Y": COLORS}), ("C5", {"C": 5}, {"X": "value:The,cat,the,A,dog", "Y": COLORS}))
def zoo_str_normalizer():
    """StringNormalizer-10: LOWER of [C] (no stopwords: [C]), UPPER of [1,C], and LOWER with
    case-insensitive stopwords of [C] (the count left is the data's)."""
    g = new("zoo_str_normalizer")
    X = g.input("X", STRING, ["C"])
    Y = g.input("Y", STRING, [1, "C"])
    lo = g.op("StringNormalizer", [X], locale=LOCALE, case_change_action="LOWER")
    up = g.op("StringNormalizer", [Y], locale=LOCALE, case_change_action="UPPER")
    sw = g.op("StringNormalizer", [X], locale=LOCALE, case_change_action="LOWER", is_case_sensitive=0,
              stopwords=["the", "a"])
    finish(g, lo, up, sw, g.op("Shape", [sw]))


@zoo(("R1_C3", {"R": 1, "C": 3}, {"Y": COLORS}), ("R2_C2", {"R": 2, "C": 2}, {"Y": COLORS}))
def zoo_str_normalizer_batch():
    """StringNormalizer of a [R,C] input: onnx's shape inference, which onnxruntime runs at load, refuses a
    rank-2 input whose first dim is not declared 1, so the model is refused at every binding, R = 1 too."""
    g = new("zoo_str_normalizer_batch")
    Y = g.input("Y", STRING, ["R", "C"])
    finish(g, g.op("StringNormalizer", [Y], locale=LOCALE, case_change_action="UPPER"))


def fitted_count_vectorizer(**kw):
    from sklearn.feature_extraction.text import CountVectorizer
    docs = [d for d in DOCS[len("choice:"):].split("|")]
    return CountVectorizer(**kw).fit(docs)


def text_vectorizer(g, x, cv, tokenizer):
    """skl2onnx's CountVectorizer/TfidfVectorizer: Reshape [-1], StringNormalizer (LOWER, the stopwords),
    com.microsoft Tokenizer, Flatten, TfIdfVectorizer of the fitted vocabulary (n-grams sorted by n)."""
    flat = g.op("Reshape", [x, g.const([-1])])
    attrs = dict(case_change_action="LOWER", is_case_sensitive=0, locale=LOCALE)
    if cv.stop_words:
        attrs["stopwords"] = sorted(cv.stop_words)
    norm = g.op("StringNormalizer", [flat], **attrs)
    tok = g.op("Tokenizer", [norm], domain="com.microsoft", pad_value="#", mark=0, mincharnum=1, **tokenizer)
    tok = g.op("Flatten", [tok])
    grams = sorted((len(w.split(" ")), w.split(" "), i) for w, i in cv.vocabulary_.items())
    pool, counts = [], [0] * cv.ngram_range[0]
    for k, (n, words, _) in enumerate(grams):
        if k > 0 and grams[k - 1][0] != n:
            counts.append(len(pool))
        pool += words
    return g.op("TfIdfVectorizer", [tok], min_gram_length=cv.ngram_range[0], max_gram_length=cv.ngram_range[1],
                mode="TF", max_skip_count=0, pool_strings=pool, ngram_indexes=[i for _, _, i in grams],
                ngram_counts=counts, weights=[1.0] * len(grams))


@zoo(("N2", {"N": 2}, {"X": DOCS}), ("N4", {"N": 4}, {"X": DOCS}))
def zoo_str_countvec():
    """CountVectorizer as skl2onnx writes it: X [N,1] strings, Reshape, StringNormalizer, Tokenizer
    (tokenexp [a-zA-Z0-9_]+), Flatten, TfIdfVectorizer (TF of the fitted unigrams) [N,V]."""
    cv = fitted_count_vectorizer()
    g = new("zoo_str_countvec")
    X = g.input("X", STRING, ["N", 1])
    finish(g, text_vectorizer(g, X, cv, dict(tokenexp="[a-zA-Z0-9_]+")))


@zoo(("N2", {"N": 2}, {"X": DOCS}), ("N3", {"N": 3}, {"X": DOCS}))
def zoo_str_tfidf_lr():
    """TfidfVectorizer(ngram_range=(1, 2), stop_words) + LogisticRegression of string labels: Tokenizer on
    separators, TfIdfVectorizer of unigrams and bigrams, Mul by idf, Normalizer L2, LinearClassifier with
    classlabels_strings, ZipMap. The stopwords make the count of documents the data's."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    docs = [d for d in DOCS[len("choice:"):].split("|")]
    tv = TfidfVectorizer(ngram_range=(1, 2), stop_words=["the", "a", "an", "and"]).fit(docs)
    labels = ["cat" if "cat" in d.lower() else "other" for d in docs]
    clf = LogisticRegression(max_iter=1000).fit(tv.transform(docs), labels)
    g = new("zoo_str_tfidf_lr")
    X = g.input("X", STRING, ["N", 1])
    tf = text_vectorizer(g, X, tv, dict(separators=[" "]))
    tfidf = g.op("Mul", [tf, g.const(tv.idf_, np.float32)])
    norm = g.ml("Normalizer", [tfidf], norm="L2")
    coef = np.concatenate([-clf.coef_, clf.coef_]) if len(clf.classes_) == 2 else clf.coef_
    icpt = np.concatenate([-clf.intercept_, clf.intercept_]) if len(clf.classes_) == 2 else clf.intercept_
    label, prob = g.ml("LinearClassifier", [norm], 2, coefficients=floats(coef), intercepts=floats(icpt),
                       classlabels_strings=list(clf.classes_), post_transform="SOFTMAX")
    g.ml("ZipMap", [prob], classlabels_strings=list(clf.classes_))
    finish(g, label, prob)


@zoo(("N2_C3", {"N": 2, "C": 3}, {"X": DOCS, "Y": DOCS}), ("N1_C1", {"N": 1, "C": 1}, {"X": DOCS, "Y": DOCS}),
     ("N2_C2_empty", {"N": 2, "C": 2}, {"X": "value:,,,", "Y": "value:,"}))
def zoo_str_tokenizer():
    """com.microsoft Tokenizer alone: characters (separators [""]) of [N,C] with marks, separators of [C],
    a tokenexp of [N,C]; empty strings give no tokens ([N,C,0], marks or not)."""
    g = new("zoo_str_tokenizer")
    X = g.input("X", STRING, ["N", "C"])
    Y = g.input("Y", STRING, ["C"])
    ms = dict(domain="com.microsoft", pad_value="#", mincharnum=1)
    chars = g.op("Tokenizer", [X], mark=1, separators=[""], **ms)
    words = g.op("Tokenizer", [Y], mark=0, separators=[" ", "a"], **ms)
    rx = g.op("Tokenizer", [X], mark=0, tokenexp="[a-z]+", **ms)
    finish(g, chars, words, rx)


@zoo(("N1", {"N": 1}), ("N3", {"N": 3}))
def zoo_str_classifier():
    """LogisticRegression fitted on string labels: LinearClassifier with classlabels_strings (labels [N]
    strings), Normalizer, ZipMap of string labels; the labels encoded back to int64 (LabelEncoder-2)."""
    clf, _ = fitted_species_classifier()
    g = new("zoo_str_classifier", ml_opset=2)
    X = g.input("X", FLOAT, ["N", 4])
    label, prob = g.ml("LinearClassifier", [X], 2, coefficients=floats(clf.coef_), intercepts=floats(clf.intercept_),
                       classlabels_strings=list(clf.classes_), post_transform="SOFTMAX")
    norm = g.ml("Normalizer", [prob], norm="L1")
    g.ml("ZipMap", [norm], classlabels_strings=list(clf.classes_))
    code = g.ml("LabelEncoder", [label], keys_strings=list(clf.classes_), values_int64s=[0, 1, 2], default_int64=-1)
    finish(g, label, norm, code)


@zoo(("N1", {"N": 1}), ("N4", {"N": 4}))
def zoo_str_svm_tree():
    """SVC and DecisionTreeClassifier fitted on string labels: SVMClassifier and TreeEnsembleClassifier with
    classlabels_strings, their labels compared (Equal of strings, opset 19) and Where between them."""
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier
    x, y = iris()
    names = np.array(SPECIES)[y]
    svc = SVC(kernel="linear").fit(x, names)
    dt = DecisionTreeClassifier(max_depth=3, random_state=0).fit(x, names)
    g = new("zoo_str_svm_tree", opset=19)
    X = g.input("X", FLOAT, ["N", 4])
    sl, ss = g.ml("SVMClassifier", [X], 2, kernel_type="LINEAR", kernel_params=[0.0, 0.0, 3.0],
                  support_vectors=floats(svc.support_vectors_),
                  vectors_per_class=[int(v) for v in svc.n_support_], coefficients=floats(svc.dual_coef_),
                  rho=floats(svc.intercept_), classlabels_strings=list(svc.classes_))
    ta = trees_attrs([dt], "class", 3, out_of=lambda k, v: [(j, float(w) / v.sum()) for j, w in enumerate(v)])
    tl, tp = g.ml("TreeEnsembleClassifier", [X], 2, classlabels_strings=list(dt.classes_), **ta)
    same = g.op("Equal", [sl, tl])
    pick = g.op("Where", [same, sl, g.const(strs(["disagree"]), object)])
    finish(g, sl, ss, tl, tp, same, pick)


@zoo(("N2", {"N": 2}), ("N5", {"N": 5}))
def zoo_str_argmax_labels():
    """skl2onnx's label output of a classifier with string classes computed by ops (GaussianNB, MLP, KNN):
    ArgMax of the probabilities (axis 1, keepdims) -> ArrayFeatureExtractor of the string classes [3] ->
    Reshape [-1]: labels [N]."""
    clf, _ = fitted_species_classifier()
    g = new("zoo_str_argmax_labels")
    X = g.input("X", FLOAT, ["N", 4])
    z = g.op("Gemm", [X, g.const(clf.coef_.T, np.float32), g.const(clf.intercept_, np.float32)])
    prob = g.op("Softmax", [z], axis=1)
    am = g.op("ArgMax", [prob], axis=1)
    lab = g.ml("ArrayFeatureExtractor", [g.const(strs(list(clf.classes_)), object), am])
    finish(g, prob, lab, g.op("Reshape", [lab, g.const([-1])]))


@zoo(("N2", {"N": 2}, {"S": "choice:1.5|-2|0.25|42"}), ("N3", {"N": 3}, {"S": "choice:1.5|-2|0.25|42"}),
     ("N2_text", {"N": 2}, {"S": "value:1.5,abc"}))
def zoo_str_cast():
    """Cast to and from string: float [N,2] -> string, string [N] of numbers -> float and -> int64 (of the
    floats' strings cast back), int64 -> string; Concat of the strings on axis 1. A string that is no
    number is refused as the Cast runs (N2_text)."""
    g = new("zoo_str_cast")
    X = g.input("X", FLOAT, ["N", 2])
    S = g.input("S", STRING, ["N"])
    xs = g.op("Cast", [X], to=STRING)
    sf = g.op("Cast", [S], to=FLOAT)
    back = g.op("Cast", [xs], to=FLOAT)
    si = g.op("Cast", [g.op("Cast", [sf], to=INT64)], to=STRING)
    both = g.op("Concat", [xs, g.unsqueeze(si, [1])], axis=1)
    finish(g, xs, sf, back, si, both)


@zoo(("N2_C3", {"N": 2, "C": 3}, {"X": COLORS, "M": "randint:0:2"}),
     ("N3_C1", {"N": 3, "C": 1}, {"X": COLORS, "M": "randint:0:2"}))
def zoo_str_movement():
    """Strings moved like any tensor: Identity, Transpose, Unsqueeze/Squeeze, Flatten, Reshape, Concat with
    a constant column, Gather, Slice, Split, Expand, Tile, Where of a broadcast constant, Shape and Size."""
    g = new("zoo_str_movement")
    X = g.input("X", STRING, ["N", "C"])
    M = g.input("M", BOOL, ["N", 1])
    outs = [g.op("Identity", [X]), g.op("Transpose", [X], perm=[1, 0])]
    u = g.unsqueeze(X, [0, 3])
    outs += [u, g.squeeze(u, [0]), g.op("Flatten", [u], axis=2), g.op("Reshape", [X, g.const([-1])])]
    cat = g.op("Concat", [X, g.op("Expand", [g.const(strs([["pad"]]), object), g.op("Shape", [M])])], axis=1)
    outs += [cat, g.op("Gather", [cat, g.const([0, -1])], axis=1), g.op("Slice", [cat, g.const([1]), g.const([100]),
                                                                                g.const([1])])]
    outs += g.op("Split", [cat], 2, axis=1)
    outs += [g.op("Tile", [X, g.const([1, 2])]), g.op("Where", [M, X, g.const(strs(["none"]), object)]),
             g.op("Shape", [cat]), g.op("Size", [X])]
    finish(g, *outs)


@zoo(("N2_M2_C4", {"N": 2, "M": 2, "C": 4}, {"X": COLORS, "Y": COLORS}),
     ("N2_M3_C4", {"N": 2, "M": 3, "C": 4}, {"X": COLORS, "Y": COLORS}),
     ("N3_M3_C3", {"N": 3, "M": 3, "C": 3}, {"X": COLORS, "Y": COLORS}),
     ("N1_M1_C6", {"N": 1, "M": 1, "C": 6}, {"X": COLORS, "Y": COLORS}))
def zoo_str_movement_bad():
    """String tensors at refused sizes: Concat of [N,C] and [M,C] on axis 1 (N != M refused), Gather of
    column 3 (C <= 3 refused), Reshape of [N,C] to [-1,4] (N*C not a multiple of 4 refused)."""
    g = new("zoo_str_movement_bad")
    X = g.input("X", STRING, ["N", "C"])
    Y = g.input("Y", STRING, ["M", "C"])
    finish(g, g.op("Concat", [X, Y], axis=1), g.op("Gather", [X, g.const(3)], axis=1),
           g.op("Reshape", [X, g.const([-1, 4])]))


@zoo(("N2_C3", {"N": 2, "C": 3}, {"X": COLORS}), ("N1_C4", {"N": 1, "C": 4}, {"X": COLORS}))
def zoo_str_seq():
    """Lists of strings: SplitToSequence of [N,C] along axis 1, SequenceLength, SequenceAt(-1),
    ConcatFromSequence (new axis), SequenceConstruct of X and its upper case, SequenceInsert, ConcatFromSequence
    on axis 0."""
    g = seqg("zoo_str_seq")
    X = g.input("X", STRING, ["N", "C"])
    s = g.op("SplitToSequence", [X], axis=1, keepdims=0)
    lst = g.op("SequenceConstruct", [X, g.op("StringNormalizer", [g.op("Reshape", [X, g.const([-1])])],
                                             locale=LOCALE, case_change_action="UPPER")])
    lst2 = g.op("SequenceConstruct", [X, g.op("Identity", [X])])
    lst2 = g.op("SequenceInsert", [lst2, X])
    save(g, g.op("SequenceLength", [s]), g.op("SequenceAt", [s, g.const(-1)]),
         g.op("ConcatFromSequence", [s], axis=1, new_axis=1), g.op("SequenceLength", [lst]),
         g.op("ConcatFromSequence", [lst2], axis=0))


@zoo(("N2_F4", {"N": 2, "M": 2, "F": 4}, {"C": COLORS}), ("N3_F4", {"N": 3, "M": 3, "F": 4}, {"C": COLORS}),
     ("N2_M3_F4", {"N": 2, "M": 3, "F": 4}, {"C": COLORS}), ("N2_F3", {"N": 2, "M": 2, "F": 3}, {"C": COLORS}))
def zoo_str_coltrans():
    """ColumnTransformer of a numeric [N,F] (StandardScaler: Scaler) and a string column [M,1]
    (OneHotEncoder of 3 colors, ignore), Concat axis 1 [N,F+3], then LogisticRegression with string labels
    (LinearClassifier, ZipMap). M != N is refused at the Concat; F != 4 at the Scaler."""
    from sklearn.linear_model import LogisticRegression
    x, y = iris()
    rng = np.random.default_rng(0)
    c = rng.integers(0, 3, len(x))
    feats = np.concatenate([(x - x.mean(0)) / x.std(0), np.eye(3)[c]], 1)
    clf = LogisticRegression(max_iter=1000).fit(feats, np.array(SPECIES)[y])
    g = new("zoo_str_coltrans")
    X = g.input("X", FLOAT, ["N", "F"])
    C = g.input("C", STRING, ["M", 1])
    s = g.ml("Scaler", [X], offset=floats(x.mean(0)), scale=floats(1 / x.std(0)))
    o = str_onehot(g, C, [["blue", "green", "red"]], zeros=1)
    cat = g.op("Concat", [s, o], axis=1)
    label, prob = g.ml("LinearClassifier", [cat], 2, coefficients=floats(clf.coef_), intercepts=floats(clf.intercept_),
                       classlabels_strings=list(clf.classes_), post_transform="SOFTMAX")
    g.ml("ZipMap", [prob], classlabels_strings=list(clf.classes_))
    finish(g, cat, label, prob)


@zoo(("N4", {"N": 4}, {"X": COLORS}), ("N7", {"N": 7}, {"X": COLORS}))
def zoo_str_unique():
    """Unique of strings (sorted): the values, first indices, inverse and counts; the count of distinct
    strings is the data's."""
    g = new("zoo_str_unique")
    X = g.input("X", STRING, ["N"])
    outs = g.op("Unique", [X], 4, sorted=1)
    finish(g, *outs)


@zoo(("N2_C3", {"N": 2, "C": 3}, {"X": DOCS}), ("N1_C2", {"N": 1, "C": 2}, {"X": DOCS}))
def zoo_str_opset20():
    """The string operators of opset 20: StringSplit (by " ", maxsplit 2, and unbounded), StringConcat of X
    and a broadcast suffix, RegexFullMatch."""
    g = new("zoo_str_opset20", opset=20)
    X = g.input("X", STRING, ["N", "C"])
    y, z = g.op("StringSplit", [X], 2, delimiter=" ", maxsplit=2)
    y2, z2 = g.op("StringSplit", [X], 2, delimiter=" ")
    cat = g.op("StringConcat", [X, g.const(strs(["!"]), object)])
    m = g.op("RegexFullMatch", [X], pattern="[a-z ]+")
    finish(g, y, z, y2, z2, cat, m)


@zoo(("N2", {"N": 2}),)
def zoo_str_zipmap_dictvec():
    """A map for DictVectorizer and CastMap inside a graph: the only operator that makes a map is ZipMap
    (a sequence of maps), and SequenceAt of it is refused at load by onnxruntime, so no graph feeds them."""
    g = new("zoo_str_zipmap_dictvec")
    X = g.input("X", FLOAT, ["N", 3])
    zs = g.ml("ZipMap", [X], classlabels_strings=SPECIES)
    zi = g.ml("ZipMap", [X], classlabels_int64s=[0, 1, 2])
    dv = g.ml("DictVectorizer", [g.op("SequenceAt", [zs, g.const(0)])], string_vocabulary=SPECIES)
    cm = g.ml("CastMap", [g.op("SequenceAt", [zi, g.const(-1)])], cast_to="TO_FLOAT", map_form="DENSE")
    finish(g, dv, cm)


def main():
    for name in sys.argv[1:] or GENERATORS:
        GENERATORS[name]()


if __name__ == "__main__":
    main()
