#!/usr/bin/python3
"""Build the ai.onnx.ml and sequence models of testdata/models/ with onnx.helper.

  cd REPO && /usr/bin/python3 bench/truth/gen_ml.py [NAME...]

skl2onnx is not available here: the ml_* models are written as skl2onnx writes scikit-learn pipelines
(a float input [N,4], Scaler, the estimator, ZipMap of the probabilities), with the trained parameters of
scikit-learn estimators fitted on iris (python3-sklearn), so that each model runs in onnxruntime. The seq_*
models are what torch exports for Python lists: SplitToSequence, a Loop that appends to a sequence,
SequenceConstruct/Insert/Erase/At/Length, ConcatFromSequence, SequenceMap and the optionals. Every sequence
is read back through tensors (SequenceLength, SequenceAt, ConcatFromSequence) so that onnxruntime-node,
which returns tensors only, shows its length and elements.
"""
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from sklearn.datasets import load_iris
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.svm import SVC, SVR
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from gen_onnx import FLOAT, INT64, OUT, Graph  # noqa: F401 (OUT: where save writes)

ML = "ai.onnx.ml"


class MLGraph(Graph):
    """A Graph whose model imports ai.onnx.ml at ml_opset beside the default domain."""

    def __init__(self, name, opset, ml_opset):
        super().__init__(name, opset)
        self.ml_opset = ml_opset

    def ml(self, op, inputs, nout=1, **attrs):
        name = self._id(op)
        outs = [f"{name}_out{i}" if nout > 1 else f"{name}_out" for i in range(nout)]
        self.nodes.append(helper.make_node(op, list(inputs), outs, name=name, domain=ML, **attrs))
        return outs if nout > 1 else outs[0]

    def save(self, file):
        import os
        # Other domains the nodes use (com.microsoft's Tokenizer) are imported at version 1.
        others = sorted({n.domain for n in self.nodes} - {"", ML})
        model = helper.make_model(self.graph(), opset_imports=[helper.make_opsetid("", self.opset),
                                                               helper.make_opsetid(ML, self.ml_opset)]
                                  + [helper.make_opsetid(d, 1) for d in others],
                                  producer_name="reshape bench/truth/gen_ml.py")
        model.ir_version = 8
        path = os.path.join(OUT, file)
        onnx.save(model, path)
        print(f"{file}: {len(self.nodes)} nodes, {os.path.getsize(path)} bytes")


def iris():
    x, y = load_iris(return_X_y=True)
    return x.astype(np.float32), y


def floats(a):
    return [float(v) for v in np.asarray(a).ravel()]


def ml_linear():
    """skl2onnx's LogisticRegression pipeline: Scaler, LinearClassifier (3 classes, 12 coefficients:
    F == 4), Normalizer, ZipMap; a LinearRegressor of 2 targets; Binarizer; ArrayFeatureExtractor."""
    x, y = iris()
    mean, scale = x.mean(0), 1 / x.std(0)
    clf = LogisticRegression(max_iter=500).fit((x - mean) * scale, y)
    reg = LinearRegression().fit(x, np.stack([y, y * 2], 1))
    g = MLGraph("ml_linear", 17, 1)
    X = g.input("X", FLOAT, ["N", 4])
    s = g.ml("Scaler", [X], offset=floats(mean), scale=floats(scale))
    label, prob = g.ml("LinearClassifier", [s], 2, coefficients=floats(clf.coef_), intercepts=floats(clf.intercept_),
                       classlabels_ints=[0, 1, 2], post_transform="SOFTMAX")
    norm = g.ml("Normalizer", [prob], norm="L1")
    g.ml("ZipMap", [norm], classlabels_int64s=[0, 1, 2])
    r = g.ml("LinearRegressor", [X], coefficients=floats(reg.coef_), intercepts=floats(reg.intercept_), targets=2)
    b = g.ml("Binarizer", [r], threshold=0.5)
    idx = g.const([0, 2])
    afe = g.ml("ArrayFeatureExtractor", [X, idx])
    g.op("Concat", [b, afe, norm], axis=1)
    g.output(label, INT64)
    g.output(g.nodes[-1].output[0])
    g.save("ml_linear.onnx")


def tree_attrs(t, prefix, classifier):
    """The attributes of TreeEnsembleClassifier/Regressor for the fitted tree t (tree id 0)."""
    tr = t.tree_
    n = tr.node_count
    leaf = tr.children_left == -1
    a = {
        "nodes_treeids": [0] * n, "nodes_nodeids": list(range(n)),
        "nodes_featureids": [int(max(f, 0)) for f in tr.feature],
        "nodes_values": floats(np.where(leaf, 0, tr.threshold)),
        "nodes_modes": ["LEAF" if lf else "BRANCH_LEQ" for lf in leaf],
        "nodes_truenodeids": [int(max(v, 0)) for v in tr.children_left],
        "nodes_falsenodeids": [int(max(v, 0)) for v in tr.children_right],
        "nodes_hitrates": [1.0] * n, "nodes_missing_value_tracks_true": [0] * n,
    }
    ids, nodes, weights = [], [], []
    for i in np.nonzero(leaf)[0]:
        vals = tr.value[i][0] if classifier else tr.value[i][:, 0]
        if classifier:
            vals = vals / vals.sum()
        for k, v in enumerate(vals):
            ids.append(int(k))
            nodes.append(int(i))
            weights.append(float(v))
    a[prefix + "_treeids"] = [0] * len(ids)
    a[prefix + "_nodeids"] = nodes
    a[prefix + "_ids"] = ids
    a[prefix + "_weights"] = weights
    return a


def ml_trees():
    """DecisionTreeClassifier and DecisionTreeRegressor as TreeEnsembleClassifier/Regressor (ml opset 3),
    fitted on the iris features 0 to 3: the trees read up to feature 3, so F >= 4."""
    x, y = iris()
    clf = DecisionTreeClassifier(max_depth=3, random_state=0).fit(x, y)
    reg = DecisionTreeRegressor(max_depth=3, random_state=0).fit(x, x[:, 0])
    g = MLGraph("ml_trees", 17, 3)
    X = g.input("X", FLOAT, ["N", 4])
    label, prob = g.ml("TreeEnsembleClassifier", [X], 2, classlabels_int64s=[0, 1, 2], **tree_attrs(clf, "class", True))
    g.ml("ZipMap", [prob], classlabels_int64s=[0, 1, 2])
    r = g.ml("TreeEnsembleRegressor", [X], n_targets=1, **tree_attrs(reg, "target", False))
    g.op("Concat", [prob, r], axis=1)
    g.output(label, INT64)
    g.output(g.nodes[-1].output[0])
    g.save("ml_trees.onnx")


def ml_svm():
    """SVC (linear kernel, 3 classes) and SVR (rbf) as SVMClassifier/SVMRegressor: support vectors of 4
    features (F == 4)."""
    x, y = iris()
    svc = SVC(kernel="linear").fit(x, y)
    svr = SVR(kernel="rbf", gamma=0.5).fit(x, x[:, 0])
    g = MLGraph("ml_svm", 17, 1)
    X = g.input("X", FLOAT, ["N", 4])
    label, scores = g.ml("SVMClassifier", [X], 2, classlabels_ints=[0, 1, 2], kernel_type="LINEAR",
                         kernel_params=[0.0, 0.0, 3.0], vectors_per_class=[int(v) for v in svc.n_support_],
                         support_vectors=floats(svc.support_vectors_), coefficients=floats(svc.dual_coef_),
                         rho=floats(svc.intercept_))
    r = g.ml("SVMRegressor", [X], kernel_type="RBF", kernel_params=[0.5, 0.0, 3.0], n_supports=len(svr.support_),
             support_vectors=floats(svr.support_vectors_), coefficients=floats(svr.dual_coef_), rho=floats(svr.intercept_))
    g.op("Concat", [scores, r], axis=1)
    g.output(label, INT64)
    g.output(g.nodes[-1].output[0])
    g.save("ml_svm.onnx")


def ml_prep():
    """skl2onnx's ColumnTransformer: Imputer of the numeric columns, OneHotEncoder of a category column
    ([N,1] -> [N,1,3], reshaped to [N,3]), LabelEncoder, FeatureVectorizer of both, Concat (issue 26's
    [N,F+3]); an input of unknown rank C."""
    g = MLGraph("ml_prep", 17, 2)
    X = g.input("X", FLOAT, ["N", "F"])
    C = g.input("C", INT64, ["N", 1])
    imp = g.ml("Imputer", [X], imputed_value_floats=[0.0], replaced_value_float=float("nan"))
    oh = g.ml("OneHotEncoder", [C], cats_int64s=[0, 1, 2], zeros=1)
    oh2 = g.op("Reshape", [oh, g.const([-1, 3])])
    le = g.ml("LabelEncoder", [C], keys_int64s=[0, 1, 2], values_int64s=[10, 11, 12], default_int64=-1)
    lef = g.op("Cast", [le], to=FLOAT)
    cat = g.op("Concat", [imp, oh2], axis=1)
    fv = g.ml("FeatureVectorizer", [cat, lef], inputdimensions=[7, 1])
    g.output(fv)
    g.save("ml_prep.onnx")


def seq_lists():
    """torch's list building: x [B,T,5] split into T steps (SplitToSequence, keepdims 0), a Loop over T
    that appends each step [B,1,5] to a list, the list stacked and concatenated, a list of two tensors
    with one inserted and one erased, split by sizes [2, T-2], SequenceMap of a Relu, optionals."""
    g = Graph("seq_lists", 17)
    x = g.input("x", FLOAT, ["B", "T", 5])
    steps = g.op("SplitToSequence", [x], axis=1, keepdims=0)
    g.op("SequenceLength", [steps])
    g.op("SequenceAt", [steps, g.const(-1)])
    g.op("ConcatFromSequence", [steps], axis=1, new_axis=1)
    # The Loop: for i in range(T): acc.append(x[:, i:i+1])
    T = g.dim(x, 1)
    b = Graph("body", 17, "body/")
    b.input("i", INT64, [])
    b.input("cond", onnx.TensorProto.BOOL, [])
    b.inputs.append(helper.make_tensor_sequence_value_info("acc", FLOAT, None))
    i1 = b.op("Unsqueeze", ["i", b.const([0])])
    end = b.op("Add", [i1, b.const([1])])
    sl = b.op("Slice", [x, i1, end, b.const([1])])
    ins = b.op("SequenceInsert", ["acc", sl])
    c = b.op("Identity", ["cond"])
    b.outputs += [helper.make_tensor_value_info(c, onnx.TensorProto.BOOL, []),
                  helper.make_tensor_sequence_value_info(ins, FLOAT, None)]
    empty = g.op("SequenceEmpty", [], dtype=FLOAT)
    loop = g.op("Loop", [T, "", empty], body=b.graph())
    g.op("SequenceLength", [loop])
    g.op("ConcatFromSequence", [loop], axis=1)
    # A list of two, one more inserted at 0, the last erased.
    y = g.op("Relu", [x])
    lst = g.op("SequenceConstruct", [x, y])
    lst = g.op("SequenceInsert", [lst, x, g.const(0)])
    lst = g.op("SequenceErase", [lst])
    g.op("SequenceLength", [lst])
    g.op("ConcatFromSequence", [lst], axis=0)
    # Split by sizes [2, T-2].
    rest = g.op("Sub", [g.unsqueeze(T, [0]), g.const([2])])
    sizes = g.op("Concat", [g.const([2]), rest], axis=0)
    parts = g.op("SplitToSequence", [x, sizes], axis=1)
    g.op("SequenceAt", [parts, g.const(0)])
    g.op("SequenceAt", [parts, g.const(1)])
    # SequenceMap of a Relu over the steps.
    mb = Graph("map", 17, "map/")
    mb.input("e", FLOAT, ["B", 5])
    r = mb.op("Relu", ["e"])
    mb.outputs.append(helper.make_tensor_value_info(r, FLOAT, None))
    mapped = g.op("SequenceMap", [steps], body=mb.graph())
    g.op("ConcatFromSequence", [mapped], axis=0)
    # Optionals.
    opt = g.op("Optional", [x])
    g.op("OptionalHasElement", [opt])
    g.op("OptionalGetElement", [opt])
    g.output(g.nodes[-1].output[0])
    g.save("seq_lists.onnx")


GENERATORS = {"ml_linear": ml_linear, "ml_trees": ml_trees, "ml_svm": ml_svm, "ml_prep": ml_prep, "seq_lists": seq_lists}


def main():
    for name in sys.argv[1:] or GENERATORS:
        GENERATORS[name]()


if __name__ == "__main__":
    main()
