"""Writes the small onnx.helper models that cmd/reshape's and check's tests run on:

  testdata/models/convnet.onnx   x [N,3,H,W] -> Conv -> MaxPool -> Conv -> MaxPool -> Flatten -> Gemm
                                 y [N,10]: at H=8 the second pool has nothing to pool (a pooled size
                                 below 1), and everything after it is unknown.
  testdata/models/baked.onnx     x [N,3,4,4] reshaped by the constant [1,48], an exporter's baked
                                 batch, then Gemm y [N,10]: at N=2 the Reshape is invalid.
  testdata/models/stale.onnx     x [N,2,3] -> Relu -> Transpose; the model's value_info declares the
                                 Relu's output [N,3,2] where it is [N,2,3], and declares no shape for
                                 the graph output.
  testdata/models/seqfirst.onnx  x [T,B,16] with the denotation DATA_BATCH on its axis 1, and s [?,8]:
                                 --batch-size binds B, and s's leading dim.
  testdata/models/absorb.onnx    x [N,4,6] reshaped by the constant [1,-1] (an exporter's baked batch
                                 of 1), then Softmax over axis 1: at N=2 the -1 absorbs the batch,
                                 [1,48], and the Softmax mixes the two samples; it runs, and its output
                                 is not that of two runs at N=1 (bench/absorb_ort.js checks it with
                                 onnxruntime).

Weights are seeded, so the files are the same at every run. Run from the repository root with
Debian's python3 (onnx 1.12):

    /usr/bin/python3 bench/gen_cli_models.py
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(11)


def weights(name, *shape):
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)


def save(graph, path, check=True):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="reshape bench/gen_cli_models.py")
    m.ir_version = 8
    if check:  # onnx.checker refuses a graph output without a shape, which stale.onnx has on purpose
        onnx.checker.check_model(m)
    onnx.save(m, path)


def convnet():
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1"),
        helper.make_node("MaxPool", ["c1"], ["p1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p1", "w2"], ["c2"], name="conv2"),
        helper.make_node("MaxPool", ["c2"], ["p2"], name="pool2", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p2"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "w3"], ["y"], name="fc", transB=1),
    ]
    g = helper.make_graph(
        nodes, "convnet",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, "H", "W"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 10])],
        [weights("w1", 8, 3, 3, 3), weights("w2", 16, 8, 3, 3), weights("w3", 10, 16 * 5 * 5)])
    save(g, "testdata/models/convnet.onnx")


def baked():
    nodes = [
        helper.make_node("Reshape", ["x", "pattern"], ["flat"], name="flatten"),
        helper.make_node("Gemm", ["flat", "w"], ["y"], name="fc", transB=1),
    ]
    g = helper.make_graph(
        nodes, "baked",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 10])],
        [helper.make_tensor("pattern", TensorProto.INT64, [2], [1, 48]), weights("w", 10, 48)])
    save(g, "testdata/models/baked.onnx")


def stale():
    nodes = [
        helper.make_node("Relu", ["x"], ["r"], name="relu"),
        helper.make_node("Transpose", ["r"], ["y"], name="transpose", perm=[0, 2, 1]),
    ]
    g = helper.make_graph(
        nodes, "stale",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        value_info=[helper.make_tensor_value_info("r", TensorProto.FLOAT, ["N", 3, 2])])
    save(g, "testdata/models/stale.onnx", check=False)


def seqfirst():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["T", "B", 16])
    x.type.tensor_type.shape.dim[1].denotation = "DATA_BATCH"
    s = helper.make_tensor_value_info("s", TensorProto.FLOAT, [None, 8])
    nodes = [
        helper.make_node("Shape", ["x"], ["xs"], name="xshape"),
        helper.make_node("Gather", ["xs", "one"], ["b"], name="batch", axis=0),
        helper.make_node("Unsqueeze", ["b", "axes"], ["b1"], name="unsqueeze"),
        helper.make_node("Concat", ["b1", "minus1"], ["pattern"], name="pattern", axis=0),
        helper.make_node("Transpose", ["x"], ["xt"], name="batch_first", perm=[1, 0, 2]),
        helper.make_node("Reshape", ["xt", "pattern"], ["flat"], name="flatten"),
        helper.make_node("Relu", ["s"], ["y2"], name="relu"),
    ]
    g = helper.make_graph(
        nodes, "seqfirst", [x, s],
        [helper.make_tensor_value_info("flat", TensorProto.FLOAT, ["B", None]),
         helper.make_tensor_value_info("y2", TensorProto.FLOAT, [None, 8])],
        [helper.make_tensor("one", TensorProto.INT64, [], [1]),
         helper.make_tensor("axes", TensorProto.INT64, [1], [0]),
         helper.make_tensor("minus1", TensorProto.INT64, [1], [-1])])
    save(g, "testdata/models/seqfirst.onnx")


def absorb():
    nodes = [
        helper.make_node("Reshape", ["x", "rows_pattern"], ["rows"], name="rows"),
        helper.make_node("Softmax", ["rows"], ["y"], name="probs", axis=1),
    ]
    g = helper.make_graph(nodes, "absorb",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4, 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, None])],
                          [numpy_helper.from_array(np.array([1, -1], dtype=np.int64), "rows_pattern")])
    save(g, "testdata/models/absorb.onnx")


if __name__ == "__main__":
    convnet()
    baked()
    stale()
    seqfirst()
    absorb()
