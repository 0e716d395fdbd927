"""Writes testdata/models/idioms.onnx, the small model the README's examples run on.

x [N,3,H,W] is flattened after the batch by a pattern computed from its own shape (the
Shape -> Gather -> Unsqueeze -> Concat idiom of exported models), and every other row of x is taken
(Slice with step 2) and flattened the same way. Run from the repository root:

    /usr/bin/python3 bench/truth/gen_readme.py
"""
import onnx
from onnx import TensorProto, helper


def main():
    i64 = lambda name, vals: helper.make_tensor(name, TensorProto.INT64, [len(vals)], vals)
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"], name="shape"),
        helper.make_node("Gather", ["shape", "zero"], ["n"], name="batch", axis=0),
        helper.make_node("Unsqueeze", ["n", "axes"], ["n1"], name="unsqueeze"),
        helper.make_node("Concat", ["n1", "minus1"], ["pattern"], name="pattern", axis=0),
        helper.make_node("Reshape", ["x", "pattern"], ["flat"], name="flatten"),
        helper.make_node("Slice", ["x", "start", "end", "axes2", "step"], ["rows"], name="every_other_row"),
        helper.make_node("Shape", ["rows"], ["rows_shape"], name="rows_shape"),
        helper.make_node("Slice", ["rows_shape", "s0", "s2"], ["head"], name="head"),
        helper.make_node("Concat", ["head", "minus1"], ["pattern2"], name="pattern2", axis=0),
        helper.make_node("Reshape", ["rows", "pattern2"], ["rows_flat"], name="flatten_rows"),
    ]
    inits = [
        helper.make_tensor("zero", TensorProto.INT64, [], [0]),
        i64("axes", [0]), i64("minus1", [-1]), i64("start", [0]), i64("end", [2**63 - 1]),
        i64("axes2", [2]), i64("step", [2]), i64("s0", [0]), i64("s2", [2]),
    ]
    g = helper.make_graph(
        nodes, "idioms",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, "H", "W"])],
        [helper.make_tensor_value_info("flat", TensorProto.FLOAT, ["N", None]),
         helper.make_tensor_value_info("rows_flat", TensorProto.FLOAT, ["N", 3, None])],
        inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], producer_name="reshape bench/truth/gen_readme.py")
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, "testdata/models/idioms.onnx")


if __name__ == "__main__":
    main()
