#!/usr/bin/python3
"""ONNX's own backend node tests as shape-inference cases: writes graph/testdata/nodetests.jsonl.gz.

onnx 1.12 (Debian's python3-onnx) ships the generators of its node tests:
onnx.backend.test.case.node.collect_testcases(None) gives 924 cases, each a model of one node (or of
the nodes of a function's expansion, the "_expanded" cases) with the arrays of one run. The 903 whose
outputs are all tensors become fixture cases; the 21 with a sequence or optional output are left out
and listed on stderr.

Each case becomes two models, its variants:

  static    integer inputs of at most 64 elements become initializers holding the test's values, as
            models hold shape constants (removed from the graph inputs, except in IR version 3,
            which lists initializers among them); the other inputs keep the static shapes the test
            declares; the graph outputs keep their element type and lose their shape.
  symbolic  as static, and every dim of every other input becomes a symbol: the dim_param
            INPUT:AXIS ("x:0", the name the project gives an unnamed dim of a graph input), one
            per (input, axis), bound to the test's value. A dim of 0 stays 0: a symbol stands for
            a positive size. Dims inside an optional(tensor) input are named the same way; a
            sequence input keeps its declaration, and so does an input whose declaration is not
            its array's shape (the "like" input of test_castlike_*BFLOAT16*: [3,4] for an array
            of shape [1]).

A row of the fixture (JSON Lines, keys sorted, gzip with no name and no time: the same bytes every run):

  name      the test's name; a second test of the same name (onnx 1.12 has two) gets "#2"
  op        the operator tested, ops every operator of the model (subgraphs included; DOMAIN:OP
            outside the default domain), opsets the model's imports
  variant   "static" or "symbolic"; binding the symbols' values (symbolic only); consts the inputs
            made initializers
  model     the model, base64 of its ModelProto
  outputs   per graph output: name, type (the ONNX data type's name), shape (the test's), values (the
            test's, for integer and boolean outputs of at most 64 elements), data (why its shape
            depends on the data of a non-constant input, when it does), and onnx112: what onnx 1.12's
            onnx.shape_inference.infer_shapes(strict_mode=False, data_prop=True) infers for it,
            its shape ("[2,x:1,?]"), type and verdict (equal, wrong, undetermined: see below)
  onnx112_error   the exception infer_shapes raised, when it did (every output's verdict is then
            "refused")

onnx 1.12's verdict for an output: wrong when its element type, rank or a dim contradicts the test
(a dim_value that differs, a dim_param among the binding's symbols whose value differs), equal when
its type is the test's and every dim is the test's value (a dim_value, or a symbol bound to it),
undetermined otherwise (no type, no shape, a dim left empty or a fresh symbol such as "unk__0").

  cd REPO && /usr/bin/python3 bench/nodetests/gen.py      # ~6 s
"""
import base64
import gzip
import io
import json
import os
import sys
import warnings

import numpy as np

# onnx 1.12's node test generators use the aliases numpy 1.24 removed.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    for _alias, _type in (("bool", bool), ("int", int), ("float", float), ("complex", complex),
                          ("object", object), ("str", str), ("long", int), ("unicode", str)):
        setattr(np, _alias, _type)

import onnx  # noqa: E402
from onnx import TensorProto, numpy_helper, shape_inference  # noqa: E402
from onnx.backend.test.case.node import collect_testcases  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "graph", "testdata", "nodetests.jsonl.gz")

MAX_CONST = 64  # integer inputs of at most this many elements become initializers
MAX_VALUES = 64  # integer and boolean outputs of at most this many elements record their values

INTEGER = {TensorProto.INT8, TensorProto.INT16, TensorProto.INT32, TensorProto.INT64,
           TensorProto.UINT8, TensorProto.UINT16, TensorProto.UINT32, TensorProto.UINT64}


def is_tensor(x):
    return isinstance(x, (np.ndarray, np.generic))


def tensor_type(t):
    """The tensor type inside a TypeProto: itself, or the element of an optional; None otherwise."""
    if t.HasField("tensor_type"):
        return t.tensor_type
    if t.HasField("optional_type") and t.optional_type.elem_type.HasField("tensor_type"):
        return t.optional_type.elem_type.tensor_type
    return None


def all_ops(g, out):
    for n in g.node:
        out.add(n.op_type if n.domain in ("", "ai.onnx") else f"{n.domain}:{n.op_type}")
        for a in n.attribute:
            for sg in ([a.g] if a.type == onnx.AttributeProto.GRAPH else []) + list(a.graphs):
                all_ops(sg, out)
    return out


def data_dependence(op, node, consts, inputs, output):
    """Why the shape of the node's output named output depends on the data of a non-constant input, or
    None. inputs maps the node's input names to their arrays; consts holds the inputs made constants."""
    def live(i):  # input i is given and not a constant
        return i < len(node.input) and node.input[i] != "" and node.input[i] not in consts

    def floats(i):
        return live(i) and inputs[node.input[i]].dtype.kind == "f" and inputs[node.input[i]].size > 0

    k = list(node.output).index(output)
    if op == "NonZero":
        return "NonZero: the number of non-zero elements of the input"
    if op == "Unique" and k != 2:  # inverse_indices has one element per input element
        return "Unique: the number of distinct values of the input"
    if op == "NonMaxSuppression":
        return "NonMaxSuppression: the number of boxes its scores and overlaps select"
    if op == "Compress" and live(1):
        return "Compress: the number of true elements of the condition input"
    if op == "StringNormalizer":
        return "StringNormalizer: the number of strings left once the stopwords are removed"
    if op in ("Resize", "Upsample") and floats(2 if op == "Resize" else 1):
        return f"{op}: the output size is the input size times the scales input, a float graph input"
    if op == "Range" and floats(0):
        return "Range: the length is ceil((limit-start)/delta) of float graph inputs"
    if op == "OneHot" and floats(1):
        return "OneHot: depth is a float graph input"
    if op == "Loop" and live(1) and k >= len(node.input) - 2:  # a scan output, after the loop-carried ones
        return "Loop: the iteration count depends on the cond graph input and the body's cond"
    return None


def dims_text(shape):
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def onnx112(model, outputs, binding):
    """onnx 1.12's inference of each graph output: (shape text, type name, verdict), or an error."""
    try:
        im = shape_inference.infer_shapes(model, strict_mode=False, data_prop=True)
    except Exception as e:  # onnx 1.12 refuses some models outright
        return None, f"{type(e).__name__}: {e}".strip()
    res = []
    inferred = {o.name: o for o in im.graph.output}
    for want in outputs:
        vi = inferred[want["name"]]
        tt = tensor_type(vi.type)
        if tt is None or tt.elem_type == 0:
            res.append({"shape": "[...]", "type": "UNDEFINED", "verdict": "undetermined"})
            continue
        typ = TensorProto.DataType.Name(tt.elem_type)
        if not tt.HasField("shape"):
            res.append({"shape": "[...]", "type": typ, "verdict": "wrong" if typ != want["type"] else "undetermined"})
            continue
        dims, verdict = [], "equal"
        for i, d in enumerate(tt.shape.dim):
            truth = want["shape"][i] if i < len(want["shape"]) else None
            if d.HasField("dim_value"):
                dims.append(d.dim_value)
                ok = d.dim_value == truth
            elif d.HasField("dim_param") and d.dim_param:
                dims.append(d.dim_param)
                ok = binding.get(d.dim_param) == truth if d.dim_param in binding else None
            else:
                dims.append(None)
                ok = None
            if ok is False:
                verdict = "wrong"
            elif ok is None and verdict == "equal":
                verdict = "undetermined"
        if len(dims) != len(want["shape"]) or typ != want["type"]:
            verdict = "wrong"
        res.append({"shape": dims_text(dims), "type": typ, "verdict": verdict})
    return res, None


def make_variant(case, symbolic):
    """The variant's model, consts, binding and outputs of one test case."""
    m = onnx.ModelProto()
    m.CopyFrom(case.model)
    g = m.graph
    ins, outs = case.data_sets[0]
    arrays = {vi.name: np.asarray(x) if is_tensor(x) else x for vi, x in zip(g.input, ins)}
    consts, binding = [], {}
    keep = []
    for vi in g.input:
        x = arrays[vi.name]
        tt = tensor_type(vi.type)
        if vi.type.HasField("tensor_type") and tt.elem_type in INTEGER and is_tensor(x) and x.size <= MAX_CONST:
            dtype = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[tt.elem_type]
            g.initializer.append(numpy_helper.from_array(np.asarray(x, dtype=dtype), vi.name))
            consts.append(vi.name)
            if m.ir_version >= 4:
                continue
        elif symbolic and tt is not None and is_tensor(x) and [d.dim_value for d in tt.shape.dim] == list(x.shape):
            for axis, d in enumerate(tt.shape.dim):
                if x.shape[axis] == 0:
                    continue
                name = f"{vi.name}:{axis}"
                d.Clear()
                d.dim_param = name
                binding[name] = int(x.shape[axis])
        keep.append(vi)
    del g.input[:]
    g.input.extend(keep)
    outputs = []
    for vi, y in zip(g.output, outs):
        y = np.asarray(y)
        tt = tensor_type(vi.type)
        typ = TensorProto.DataType.Name(tt.elem_type)
        tt.ClearField("shape")
        o = {"name": vi.name, "type": typ, "shape": [int(d) for d in y.shape]}
        if (tt.elem_type in INTEGER or tt.elem_type == TensorProto.BOOL) and y.size <= MAX_VALUES:
            o["values"] = [int(v) for v in y.reshape(-1)]
        outputs.append(o)
    return m, consts, binding, outputs, arrays


def write_rows(path, rows):
    """Writes rows to path as JSON Lines (keys sorted) in gzip with no name and no time, the same bytes
    every run; returns the file's size."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as z:
        for r in rows:
            z.write((json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n").encode())
    with open(path, "wb") as f:
        f.write(buf.getvalue())
    return len(buf.getvalue())


def main():
    np.random.seed(0)
    cases = collect_testcases(None)
    base_op = {}
    for c in cases:
        if not c.name.endswith("_expanded"):
            base_op.setdefault(c.name, c.model.graph.node[0].op_type)
    rows, left_out, seen, data = [], [], {}, {}
    for c in cases:
        if not all(is_tensor(y) for y in c.data_sets[0][1]):
            left_out.append(c.name)
            continue
        seen[c.name] = seen.get(c.name, 0) + 1
        name = c.name if seen[c.name] == 1 else f"{c.name}#{seen[c.name]}"
        op = base_op.get(c.name.removesuffix("_expanded"), c.model.graph.node[0].op_type)
        for variant in ("static", "symbolic"):
            m, consts, binding, outputs, arrays = make_variant(c, variant == "symbolic")
            if len(c.model.graph.node) == 1:
                for o in outputs:
                    why = data_dependence(op, c.model.graph.node[0], set(consts), arrays, o["name"])
                    if why:
                        o["data"] = why
            elif c.name.endswith("_expanded"):
                # an expansion depends on the data wherever the node it expands does
                for o, why in zip(outputs, data.get((name.removesuffix("_expanded"), variant), [])):
                    if why:
                        o["data"] = why
            data[(name, variant)] = [o.get("data") for o in outputs]
            verdicts, err = onnx112(m, outputs, binding)
            for k, o in enumerate(outputs):
                o["onnx112"] = verdicts[k] if verdicts else {"verdict": "refused"}
            row = {"name": name, "op": op, "ops": sorted(all_ops(m.graph, set())),
                   "opsets": {o.domain or "": o.version for o in m.opset_import},
                   "variant": variant, "consts": consts, "outputs": outputs,
                   "model": base64.b64encode(m.SerializeToString()).decode()}
            if binding:
                row["binding"] = binding
            if err:
                row["onnx112_error"] = err
            rows.append(row)
    rows.sort(key=lambda r: (r["name"], r["variant"]))
    size = write_rows(OUT, rows)
    n = len(rows) // 2
    print(f"{OUT}: {n} cases x 2 variants, {size} bytes; left out ({len(left_out)}, "
          f"outputs not all tensors): {' '.join(left_out)}", file=sys.stderr)
    for variant in ("static", "symbolic"):
        vs = [r for r in rows if r["variant"] == variant]
        count = {}
        for r in vs:
            vv = [o["onnx112"]["verdict"] for o in r["outputs"]]
            v = next((x for x in ("refused", "wrong", "undetermined") if x in vv), "equal")
            count[v] = count.get(v, 0) + 1
        print(f"onnx 1.12 {variant}: {count}", file=sys.stderr)


if __name__ == "__main__":
    main()
