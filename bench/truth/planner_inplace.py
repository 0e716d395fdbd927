#!/usr/bin/python3
"""Which operators onnxruntime's memory planner lets write their output in their input's buffer, asked of
onnxruntime-node 1.20.1 itself: writes graph/testdata/planner_inplace.json, which graph's TestPlannerInplace
holds the planner simulation's operator lists (graph/planner.go) against.

  cd REPO && /usr/bin/python3 bench/truth/planner_inplace.py      # ~1 min; node 20, NODE_PATH as in README.md

Each probe is plan_reuse's model (gen_onnx.py) with the operator under test in the middle: x [1,4,L] gives
a = Relu(x), then b = OP(a) (constant inputs after the first where the operator needs them), both declared
[1,4,8], then rs = Resize(b) to the baked sizes [1,4,8] and y = Abs(rs). Where OP writes b in a's buffer
(MayInplace or Alias), a's buffer lives on as b's and rs takes a new one: the model runs at L = 4. Otherwise a's
buffer is freed after OP, rs takes it as their declared shapes are equal, and at L = 4 it holds 16 elements where
rs writes 32: "Shape mismatch attempting to re-use buffer". Every probe runs at L = 8 (checked).
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "graph", "testdata", "planner_inplace.json")
RUNNER = os.path.join(ROOT, "bench", "truth", "ort_run.js")
OPSET = 20

# (operator, attributes, constant inputs after the first)
UNARY = ["Abs", "Neg", "Relu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Reciprocal", "Floor", "Ceil", "Round", "Erf",
         "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Sign", "Elu", "Selu",
         "LeakyRelu", "HardSigmoid", "HardSwish", "Softplus", "Softsign", "ThresholdedRelu", "Celu", "Gelu", "Mish",
         "Shrink", "Clip", "Dropout", "Identity", "Softmax", "LogSoftmax", "Hardmax", "Sum", "Mean", "Max", "Min"]
PROBES = [(op, {}, []) for op in UNARY] + [
    ("Cast", {"to": TensorProto.FLOAT}, []),
    ("PRelu", {}, [np.array([0.5], np.float32)]),
    ("Add", {}, [np.array([1], np.float32)]),
    ("Sub", {}, [np.array([1], np.float32)]),
    ("Mul", {}, [np.array([2], np.float32)]),
    ("Div", {}, [np.array([2], np.float32)]),
    ("Pow", {}, [np.array([2], np.float32)]),
    ("Reshape", {}, [np.array([1, 4, -1], np.int64)]),
    ("Expand", {}, [np.array([1], np.int64)]),
    ("Transpose", {"perm": [0, 1, 2]}, []),
]


def probe_model(op, attrs, extra):
    inits = [numpy_helper.from_array(np.array([1, 4, 8], np.int64), "sizes")]
    names = ["a"]
    for i, v in enumerate(extra):
        inits.append(numpy_helper.from_array(v, f"c{i}"))
        names.append(f"c{i}")
    nodes = [helper.make_node("Relu", ["x"], ["a"], name="a"),
             helper.make_node(op, names, ["b"], name="b", **attrs),
             helper.make_node("Resize", ["b", "", "", "sizes"], ["rs"], name="rs", mode="nearest"),
             helper.make_node("Abs", ["rs"], ["y"], name="y")]
    declared = [helper.make_tensor_value_info(t, TensorProto.FLOAT, [1, 4, 8]) for t in ("a", "b")]
    g = helper.make_graph(nodes, "planner_inplace", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, "L"])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits, value_info=declared)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="bench/truth/planner_inplace.py")
    m.ir_version = 9
    return m


def run(model, length, tmp):
    path = os.path.join(tmp, "m.onnx")
    onnx.save(model, path)
    data = os.path.join(tmp, "x.bin")
    (np.arange(4 * length, dtype=np.float32) / 8).tofile(data)
    plan = {"model": path, "max_values": 0, "inputs": [{"name": "x", "type": "float32", "dims": [1, 4, length], "file": data}]}
    with open(os.path.join(tmp, "plan.json"), "w") as f:
        json.dump(plan, f)
    subprocess.run(["node", RUNNER, os.path.join(tmp, "plan.json"), os.path.join(tmp, "res.json")], check=True,
                   env=dict(os.environ, NODE_PATH=os.environ.get("NODE_PATH", "/work/ort/node_modules")))
    with open(os.path.join(tmp, "res.json")) as f:
        return json.load(f)


def main():
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for op, attrs, extra in PROBES:
            m = probe_model(op, attrs, extra)
            full = run(m, 8, tmp)
            if not full["ok"]:
                sys.exit(f"{op}: the probe fails at L = 8: {full['error']}")
            short = run(m, 4, tmp)
            if not short["ok"] and "re-use buffer" not in short["error"]:
                sys.exit(f"{op}: the probe fails at L = 4 for another reason: {short['error']}")
            cases.append({"op": op, "inplace": short["ok"]})
            print(f"{op}: {'in place' if short['ok'] else 'a buffer of its own'}")
    with open(OUT, "w") as f:
        json.dump({"runtime": "onnxruntime-node 1.20.1", "opset": OPSET, "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
