#!/usr/bin/python3
"""Record the true shape of every tensor of an ONNX model, as onnxruntime computes it.

For a model and a binding of its symbolic dims, this makes a copy of the model (in a temp dir) that lists
every node output of the main graph as a graph output, runs it with onnxruntime-node (ort_run.js) on
inputs of the bound shapes, and writes one JSON fixture (format: README.md beside this file).

The taken branch of every If whose condition the run computed is inlined into the copy and the copy is run
again, until no such If is left, so the tensors inside If branches (nested ones too) are recorded under
"branches". Loop and Scan bodies are not recorded.

  /usr/bin/python3 bench/truth/truth.py MODEL.onnx OUT.json [--dim SYM=N]... [--input NAME=D0,D1,...]...
                                       [--fill NAME=SPEC]...

SPEC: uniform (floats in [-1, 1), the default for float inputs), zeros (the default for others), ones,
randint:LO:HI (integers in [LO, HI)), value:V0,V1,... (exact values, row-major; strings for a string
input), choice:S0|S1|... (strings drawn from S0, S1, ...; the default for string inputs draws from WORDS).
"""
import argparse
import copy
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import helper

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_VERSION = "onnxruntime-node 1.20.1"
MAX_VALUES = 64  # values are recorded for integer and bool tensors of at most this many elements

# ONNX TensorProto.DataType -> (numpy dtype, onnxruntime-node type name, element type name of this repo).
DTYPES = {
    1: (np.float32, "float32", "f32"),
    2: (np.uint8, "uint8", "u8"),
    3: (np.int8, "int8", "i8"),
    4: (np.uint16, "uint16", "u16"),
    5: (np.int16, "int16", "i16"),
    6: (np.int32, "int32", "i32"),
    7: (np.int64, "int64", "i64"),
    9: (np.bool_, "bool", "boolean"),
    10: (np.float16, "float16", "f16"),
    11: (np.float64, "float64", "f64"),
    12: (np.uint32, "uint32", "u32"),
    13: (np.uint64, "uint64", "u64"),
    8: (np.object_, "string", "string"),
}
STRING = 8
# The strings a string input is drawn from when its fill is not given (choice:...).
WORDS = ("red", "green", "blue", "Red", "the cat sat", "a dog", "", "setosa", "virginica", "42")
ORT_TO_ELEMENT = {ort: elem for _, ort, elem in DTYPES.values()}

# Ops whose outputs are sequences or optionals: onnxruntime-node cannot return them as tensors.
NON_TENSOR_OPS = {
    "SequenceConstruct", "SequenceEmpty", "SequenceInsert", "SequenceErase", "SplitToSequence",
    "Optional", "SequenceMap", "ZipMap",
}


def non_tensor(n, k):
    """Whether output k of node n is a sequence, a map or an optional: n's op gives only those
    (NON_TENSOR_OPS), or n is a Loop whose body declares the output so (a loop-carried list)."""
    if n.op_type in NON_TENSOR_OPS:
        return True
    if n.op_type != "Loop":
        return False
    body = next(a.g for a in n.attribute if a.name == "body")
    return k + 1 < len(body.output) and not body.output[k + 1].type.HasField("tensor_type")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def input_shapes(model, dims, inputs):
    """Concrete shape of every graph input: --input wins; else dim_value, dim_param bound by --dim, or an
    unnamed dim bound by --dim INPUT:AXIS=N."""
    inits = {i.name for i in model.graph.initializer}
    shapes = {}
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        if vi.name in inputs:
            shapes[vi.name] = list(inputs[vi.name])
            continue
        shape = []
        for axis, d in enumerate(vi.type.tensor_type.shape.dim):
            if d.HasField("dim_value"):
                shape.append(d.dim_value)
                continue
            sym = d.dim_param if d.HasField("dim_param") and d.dim_param else f"{vi.name}:{axis}"
            if sym not in dims:
                sys.exit(f"{vi.name}[{axis}] = {sym}: not bound (use --dim {sym}=N or --input {vi.name}=...)")
            shape.append(dims[sym])
        shapes[vi.name] = shape
    return shapes


def make_data(elem, shape, spec, rng):
    dtype = DTYPES[elem][0]
    n = int(np.prod(shape, dtype=np.int64))
    if elem == STRING:
        return make_strings(shape, n, spec, rng)
    if spec is None:
        spec = default_fill(elem)
    if spec == "uniform":
        a = rng.uniform(-1, 1, size=shape)
    elif spec == "zeros":
        a = np.zeros(shape)
    elif spec == "ones":
        a = np.ones(shape)
    elif spec.startswith("randint:"):
        lo, hi = (int(v) for v in spec.split(":")[1:])
        a = rng.integers(lo, hi, size=shape)
    elif spec.startswith("value:"):
        vals = [float(v) if elem in (1, 10, 11) else int(v) for v in spec[len("value:"):].split(",")]
        if len(vals) != n:
            sys.exit(f"fill {spec}: {len(vals)} values for shape {shape}")
        a = np.array(vals).reshape(shape)
    else:
        sys.exit(f"unknown fill {spec!r}")
    # np.ascontiguousarray makes a 0-d array 1-d: reshape keeps a scalar input a scalar.
    return np.ascontiguousarray(a.astype(dtype)).astype(np.dtype(dtype).newbyteorder("<")).reshape(shape)


def make_strings(shape, n, spec, rng):
    """A string array of shape: value:S0,S1,... (exactly n strings), or choice:S0|S1|... (drawn with rng;
    the default draws from WORDS)."""
    if spec is None or spec == "choice":
        words = list(WORDS)
    elif spec.startswith("choice:"):
        words = spec[len("choice:"):].split("|")
    elif spec.startswith("value:"):
        vals = spec[len("value:"):].split(",")
        if len(vals) != n:
            sys.exit(f"fill {spec}: {len(vals)} values for shape {shape}")
        return np.array(vals, dtype=object).reshape(shape)
    else:
        sys.exit(f"fill {spec!r}: want value:... or choice:... for a string input")
    return np.array([words[i] for i in rng.integers(0, len(words), size=n)], dtype=object).reshape(shape)


def default_fill(elem):
    """The fill of an input of element type elem when none is given."""
    return {1: "uniform", 10: "uniform", 11: "uniform", STRING: "choice"}.get(elem, "zeros")


def graph_names(g):
    names = {i.name for i in g.input} | {i.name for i in g.initializer}
    for n in g.node:
        names.update(o for o in n.output if o)
    return names


def rename_uses(n, rename):
    """Rename the names that node n reads, in its inputs and its subgraphs."""
    for i, name in enumerate(n.input):
        if name in rename:
            n.input[i] = rename[name]
    for a in n.attribute:
        if a.type == onnx.AttributeProto.GRAPH:
            rename_refs(a.g, rename)
        for sg in a.graphs:
            rename_refs(sg, rename)


def rename_refs(g, rename):
    """Rename uses (node inputs, graph outputs) of outer-scope names in g and its subgraphs."""
    for n in g.node:
        rename_uses(n, rename)
    for o in g.output:
        if o.name in rename:
            o.name = rename[o.name]


def inline_ifs(model, values, scope, branches):
    """Replace every If of the main graph whose condition is in values by its taken branch.

    scope maps a tensor name of the copy to the path of the branch it came from ("" for the main graph);
    branches collects one record per inlined branch. Returns the number of Ifs inlined."""
    g = model.graph
    taken = graph_names(g)
    nodes = []
    count = 0
    for idx, node in enumerate(g.node):
        if node.op_type != "If" or node.input[0] not in values:
            nodes.append(node)
            continue
        count += 1
        cond = int(values[node.input[0]][0]) != 0
        bname = "then_branch" if cond else "else_branch"
        branch = next(a.g for a in node.attribute if a.name == bname)
        parent = scope.get(node.output[0], "")
        label = node.name or f"If({node.output[0]})"
        path = f"{parent}/{label}/{bname}" if parent else f"{label}/{bname}"
        rename = {}

        def fresh(name):
            if name not in taken:
                taken.add(name)
                return name
            k = 1
            while f"{name}__inl{k}" in taken:
                k += 1
            new = f"{name}__inl{k}"
            taken.add(new)
            rename[name] = new
            return new

        for init in branch.initializer:
            t = copy.deepcopy(init)
            t.name = fresh(init.name)
            g.initializer.append(t)
        record = {"path": path, "node": node.name, "cond": cond, "tensors": []}
        for bn in branch.node:
            nn = copy.deepcopy(bn)
            for i, o in enumerate(nn.output):
                if o:
                    new = fresh(o)
                    nn.output[i] = new
                    scope[new] = path
                    record["tensors"].append((new, o))
            rename_uses(nn, rename)
            nodes.append(nn)
        for i, bo in enumerate(branch.output):
            if i < len(node.output) and node.output[i]:
                src = rename.get(bo.name, bo.name)
                nodes.append(helper.make_node("Identity", [src], [node.output[i]], name=f"{label}__out{i}"))
        branches.append(record)
    del g.node[:]
    g.node.extend(nodes)
    return count


def failing_node(model, error):
    """The node of the main graph that the error text of onnxruntime names (innermost first)."""
    byname = {n.name: n for n in model.graph.node if n.name}
    for name in reversed(re.findall(r"Name:'([^']*)'", error)):
        if name in byname:
            return byname[name]
    return None


def prune(model, node):
    """A copy of model without node and every node that depends on its outputs."""
    m = copy.deepcopy(model)
    dead = {o for o in node.output if o}
    keep = []
    for n in m.graph.node:
        if n.name == node.name and list(n.output) == list(node.output):
            continue
        if any(i in dead for i in n.input) or any(i in dead for i in subgraph_refs(n)):
            dead.update(o for o in n.output if o)
            continue
        keep.append(n)
    del m.graph.node[:]
    m.graph.node.extend(keep)
    outs = [o for o in m.graph.output if o.name not in dead]
    del m.graph.output[:]
    m.graph.output.extend(outs)
    return m


def subgraph_refs(node):
    """Names that the subgraphs of node read (outer-scope names included)."""
    refs = set()
    for a in node.attribute:
        for g in ([a.g] if a.type == onnx.AttributeProto.GRAPH else []) + list(a.graphs):
            for n in g.node:
                refs.update(n.input)
                refs |= subgraph_refs(n)
            refs.update(o.name for o in g.output)
    return refs


def with_all_outputs(model):
    """A copy of model whose graph outputs are every node output of the main graph (except those of
    sequence and optional type); returns (copy, names skipped with the reason)."""
    m = copy.deepcopy(model)
    have = {o.name for o in m.graph.output}
    skipped = {}
    for n in m.graph.node:
        for k, o in enumerate(n.output):
            if not o or o in have:
                continue
            if non_tensor(n, k):
                skipped[o] = f"{n.op_type} output is not a tensor"
                continue
            m.graph.output.append(onnx.ValueInfoProto(name=o))
            have.add(o)
    return m, skipped


def run_ort(model, feeds, tmp, tag):
    mpath = os.path.join(tmp, f"model{tag}.onnx")
    onnx.save(model, mpath)
    plan = {"model": mpath, "max_values": MAX_VALUES, "inputs": []}
    for name, (elem, arr) in feeds.items():
        inp = {"name": name, "type": DTYPES[elem][1], "dims": list(arr.shape)}
        if elem == STRING:
            inp["strings"] = [str(v) for v in arr.reshape(-1)]
        else:
            inp["file"] = os.path.join(tmp, f"in_{len(plan['inputs'])}.bin")
            arr.tofile(inp["file"])
        plan["inputs"].append(inp)
    ppath, rpath = os.path.join(tmp, "plan.json"), os.path.join(tmp, "result.json")
    with open(ppath, "w") as f:
        json.dump(plan, f)
    env = dict(os.environ)
    env.setdefault("NODE_PATH", "/work/ort/node_modules")
    subprocess.run(["node", os.path.join(HERE, "ort_run.js"), ppath, rpath], check=True, env=env)
    with open(rpath) as f:
        return json.load(f)


def record(model_path, out_path, dims=None, inputs=None, fills=None, seed=0, model_label=None):
    """Run model_path at the binding and write the fixture to out_path; returns the fixture dict."""
    dims, inputs, fills = dims or {}, inputs or {}, fills or {}
    model = onnx.load(model_path)
    shapes = input_shapes(model, dims, inputs)
    rng = np.random.default_rng(seed)
    elems = {vi.name: vi.type.tensor_type.elem_type for vi in model.graph.input}
    feeds, in_rec = {}, {}
    for name, shape in shapes.items():
        spec = fills.get(name)
        feeds[name] = (elems[name], make_data(elems[name], shape, spec, rng))
        in_rec[name] = {"shape": shape, "type": DTYPES[elems[name]][2], "fill": spec or default_fill(elems[name])}
    fixture = {
        "model": model_label or os.path.basename(model_path),
        "model_sha256": sha256(model_path),
        "runtime": ORT_VERSION,
        "binding": dims,
        "seed": seed,
        "inputs": in_rec,
    }
    main_names = [n for n in shapes] + [o for n in model.graph.node for o in n.output if o]
    # Graph inputs can be If conditions too: their values join those of the run.
    input_values = {name: [str(int(v)) for v in arr.reshape(-1)] for name, (elem, arr) in feeds.items()
                    if elem in (6, 7, 9) and arr.size <= MAX_VALUES}
    scope, branches = {}, []
    work = copy.deepcopy(model)
    res = None
    with tempfile.TemporaryDirectory() as tmp:
        for rnd in range(256):
            aug, skipped = with_all_outputs(work)
            res = run_ort(aug, feeds, tmp, rnd)
            if res["ok"]:
                values = dict(input_values)
                values.update((k, v["values"]) for k, v in res["outputs"].items() if "values" in v)
                if inline_ifs(work, values, scope, branches) == 0:
                    break
                continue
            fixture.setdefault("ok", False)
            fixture.setdefault("error", res["error"])
            node = failing_node(work, res["error"])
            if node is None:
                break
            if node.op_type == "If":
                # Learn the condition (from the inputs, or by running the graph without this If), then
                # inline the taken branch, so that the next run names the failing node inside it.
                cond = node.input[0]
                values = {cond: input_values[cond]} if cond in input_values else {}
                if not values:
                    pre, _ = with_all_outputs(prune(work, node))
                    pres = run_ort(pre, feeds, tmp, f"{rnd}p")
                    if pres["ok"] and "values" in pres["outputs"].get(cond, {}):
                        values = {cond: pres["outputs"][cond]["values"]}
                if values and inline_ifs(work, values, scope, branches):
                    continue
            fixture.setdefault("failed_nodes", []).append(
                {"name": node.name, "op": node.op_type, "path": scope.get(node.output[0], ""),
                 "error": res["error"]})
            work = prune(work, node)
        else:
            sys.exit("If inlining did not converge")
    if not res["ok"]:
        write(fixture, out_path)
        return fixture
    outs = res["outputs"]
    for name in shapes:
        outs[name] = {"type": DTYPES[elems[name]][1], "dims": shapes[name]}
        if name in input_values:
            outs[name]["values"] = input_values[name]

    def table(pairs):
        sh, ty, va = {}, {}, {}
        for new, orig in pairs:
            if new not in outs:
                continue
            r = outs[new]
            sh[orig] = r["dims"]
            ty[orig] = ORT_TO_ELEMENT[r["type"]]
            if "values" in r:
                va[orig] = [int(v) for v in r["values"]]
        return sh, ty, va

    sh, ty, va = table((n, n) for n in main_names)
    fixture.setdefault("ok", True)
    fixture.update(shapes=sh, types=ty, values=va)
    brs = []
    for b in branches:
        bsh, bty, bva = table(b["tensors"])
        brs.append({"path": b["path"], "node": b["node"], "cond": b["cond"],
                    "shapes": bsh, "types": bty, "values": bva})
    fixture["branches"] = brs
    fixture["skipped"] = {k: v for k, v in skipped.items() if k in set(main_names)}
    write(fixture, out_path)
    return fixture


def write(fixture, path):
    """JSON with one tensor per line, so that a diff shows which tensor changed."""
    def obj(d, ind):
        if not d:
            return "{}"
        pad = " " * ind
        items = [f"{pad}  {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" for k, v in d.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"

    lines = []
    for k, v in fixture.items():
        if k in ("shapes", "types", "values", "skipped"):
            lines.append(f'  {json.dumps(k)}: {obj(v, 2)}')
        elif k == "branches":
            parts = []
            for b in v:
                inner = [f'      {json.dumps(bk)}: {json.dumps(bv)}' for bk, bv in b.items()
                         if bk not in ("shapes", "types", "values")]
                inner += [f'      {json.dumps(bk)}: {obj(b[bk], 6)}' for bk in ("shapes", "types", "values")]
                parts.append("    {\n" + ",\n".join(inner) + "\n    }")
            lines.append(f'  "branches": [' + (("\n" + ",\n".join(parts) + "\n  ]") if parts else "]"))
        else:
            lines.append(f"  {json.dumps(k)}: {json.dumps(v)}")
    text = "{\n" + ",\n".join(lines) + "\n}\n"
    json.loads(text)
    with open(path, "w") as f:
        f.write(text)


def parse_kv(items, conv):
    out = {}
    for it in items or []:
        k, _, v = it.rpartition("=")
        if not k:
            sys.exit(f"expected NAME=VALUE, got {it!r}")
        out[k] = conv(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("out")
    ap.add_argument("--dim", action="append", help="SYM=N: bind a dim_param, or INPUT:AXIS for an unnamed dim")
    ap.add_argument("--input", action="append", help="NAME=D0,D1,...: the shape of a graph input ('' = scalar)")
    ap.add_argument("--fill", action="append", help="NAME=SPEC: how to fill an input")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    fx = record(a.model, a.out,
                dims=parse_kv(a.dim, int),
                inputs=parse_kv(a.input, lambda v: [int(x) for x in v.split(",") if x]),
                fills=parse_kv(a.fill, str), seed=a.seed)
    if fx["ok"]:
        nb = sum(len(b["shapes"]) for b in fx["branches"])
        print(f"{a.out}: {len(fx['shapes'])} tensors, {len(fx['branches'])} branches ({nb} tensors)")
    else:
        print(f"{a.out}: onnxruntime failed: {fx['error']}")


if __name__ == "__main__":
    main()
