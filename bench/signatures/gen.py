"""Cross-checks the operator signatures of package graph's registry against onnxruntime 1.20.1:
writes the one-node ONNX models that probe.js loads, and the fixture graph/testdata/ort_signatures.tsv
from what onnxruntime said. The models are never committed.

    /usr/bin/python3 gen.py models DIR OP,OP,...          # DIR/in: 30 inputs, one output
    NODE_PATH=/work/ort/node_modules node probe.js DIR/in/plan.json > in.txt
    /usr/bin/python3 gen.py models DIR OP,OP,... in.txt   # DIR/out: the least inputs, 30 outputs
    NODE_PATH=/work/ort/node_modules node probe.js DIR/out/plan.json > out.txt
    /usr/bin/python3 gen.py table in.txt out.txt > graph/testdata/ort_signatures.tsv

onnxruntime refuses each probe with a message that says whether the opset has the operator ("No
Op registered", "is deprecated") and, when it has, the range of input (or output) counts of its
schema.
"""
import json
import os
import sys

from onnx import TensorProto, helper


def model(op, opset, n_in, n_out):
    ins = ["x%d" % i for i in range(n_in)]
    outs = ["y%d" % i for i in range(n_out)]
    node = helper.make_node(op, ins, outs, name="n")
    g = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info(i, TensorProto.FLOAT, None) for i in ins],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def read(path):
    """Reads probe.js's lines: op, opset, result ("-", "MIN..MAX" with * for no bound, "?")."""
    rows = {}
    with open(path) as f:
        for line in f:
            op, opset, result = line.rstrip("\n").split("\t")
            rows[(op, int(opset))] = result
    return rows


def models(out, ops, inputs):
    kind = "out" if inputs else "in"
    d = os.path.join(out, kind)
    os.makedirs(d, exist_ok=True)
    plan = []
    for op in ops:
        for opset in range(1, 22):
            n_in, n_out = 30, 1
            if inputs:
                r = inputs.get((op, opset), "?")
                if r == "-":
                    continue
                n_in, n_out = (int(r.split("..")[0]) if ".." in r else 1), 30
            path = os.path.join(d, "%s_%d.onnx" % (op, opset))
            with open(path, "wb") as f:
                f.write(model(op, opset, n_in, n_out).SerializeToString())
            plan.append({"op": op, "opset": opset, "kind": kind, "model": path})
    with open(os.path.join(d, "plan.json"), "w") as f:
        json.dump(plan, f)


def table(ins, outs):
    print("# onnxruntime 1.20.1 (bench/signatures): op, opset, input counts, output counts;")
    print("# - for no such operator at that opset, ? where onnxruntime refused the probe before it said")
    for (op, opset), r in sorted(ins.items()):
        print("%s\t%d\t%s\t%s" % (op, opset, r, "-" if r == "-" else outs.get((op, opset), "?")))


def main():
    if sys.argv[1] == "models":
        inputs = read(sys.argv[4]) if len(sys.argv) > 4 else None
        models(sys.argv[2], sys.argv[3].split(","), inputs)
    else:
        table(read(sys.argv[2]), read(sys.argv[3]))


main()
