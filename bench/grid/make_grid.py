#!/usr/bin/python3
"""Run every model of grids.py at every binding of its grid with onnxruntime-node (graph optimizations
off, so that node names are the model's own) and write testdata/grid/<model>.json.

  cd REPO && /usr/bin/python3 bench/grid/make_grid.py [REGEXP]

REGEXP selects models by path. Per binding the fixture records ok, or the node onnxruntime refuses (its
name, op, and the path of the If branch it is in), its error text, and the other nodes it refuses once
that node and everything that depends on it are removed. The machinery is bench/truth's: inputs made as
truth.py makes them (seed 0), the run by ort_run.js, and an If that fails is replaced by the branch its
condition takes, until the error names the node inside it.
"""
import contextlib
import copy
import os
import re
import sys
import tempfile

import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench", "truth"))
import grids  # noqa: E402
import truth  # noqa: E402

MAX_REFUSED = 4  # the nodes recorded per binding: the first that onnxruntime names, then those found by removing it


def status_message(error):
    """The innermost status message of an onnxruntime error, without the source location, function and
    failed condition that its checks put before the text."""
    msg = error.rsplit("Status Message: ", 1)[-1].strip()
    if " was false. " in msg:
        msg = msg.split(" was false. ", 1)[1]
    m = re.match(r"\S+\.(?:h|cc|cpp):\d+ (?:[\w:~<>]+\([^()]*\)|\S+) ", msg)
    return msg[m.end():] if m else msg


def subgraph_path(graph, name, scope=""):
    """The path of the subgraph (Loop and Scan bodies, If branches) that holds the node name, or None."""
    for n in graph.node:
        for a in n.attribute:
            subs = ([a.g] if a.type == onnx.AttributeProto.GRAPH else []) + list(a.graphs)
            for i, g in enumerate(subs):
                attr = a.name if len(subs) == 1 else f"{a.name}[{i}]"
                path = f"{scope}/{n.name}/{attr}" if scope else f"{n.name}/{attr}"
                if any(m.name == name for m in g.node):
                    return path
                found = subgraph_path(g, name, path)
                if found:
                    return found
    return None


def refused_node(work, scope, error):
    """(name, op, path) of the node the error names: innermost first, in the main graph of work (whose
    taken If branches are inlined), else in a Loop or Scan body."""
    names = re.findall(r"Name:'([^']*)'", error)
    node = truth.failing_node(work, error)
    if node is not None and names and node.name == names[-1]:
        return node.name, node.op_type, scope.get(node.output[0], "")
    if names:
        inner = names[-1]
        ops = re.findall(r"running (\S+) node\.", error)
        path = subgraph_path(work.graph, inner) or ""
        # A path through an inlined branch keeps the branch's prefix.
        if node is not None:
            outer = scope.get(node.output[0], "")
            if outer and path:
                path = f"{outer}/{path}"
        return inner, ops[-1] if ops else "", path
    return None


def make_feeds(model, dims, fills):
    """The inputs of one binding, {name: (ONNX element type, array)}: truth.py's fills, seed 0."""
    shapes = truth.input_shapes(model, dims, {})
    rng = truth.np.random.default_rng(0)
    elems = {vi.name: vi.type.tensor_type.elem_type for vi in model.graph.input}
    return {name: (elems[name], truth.make_data(elems[name], shape, fills.get(name), rng))
            for name, shape in shapes.items()}


def run_binding(model, dims, fills, workdir=None):
    """One binding: {"ok": True}, or the first refused node and the others (see the module doc). The
    copies of the model are written to workdir (a temporary directory when None): a model whose weights
    are external data is run from the directory that holds them."""
    feeds = make_feeds(model, dims, fills)
    input_values = {name: [str(int(v)) for v in arr.reshape(-1)] for name, (elem, arr) in feeds.items()
                    if elem in (6, 7, 9) and arr.size <= truth.MAX_VALUES}
    work = copy.deepcopy(model)
    scope, branches = {}, []
    rec = {}
    with contextlib.ExitStack() as stack:
        tmp = workdir or stack.enter_context(tempfile.TemporaryDirectory())
        for rnd in range(64):
            res = truth.run_ort(work, feeds, tmp, rnd)
            if res["ok"]:
                break
            error = res["error"]
            node = truth.failing_node(work, error)
            names = re.findall(r"Name:'([^']*)'", error)
            if node is not None and node.op_type == "If" and names and names[-1] != node.name:
                # The failure is inside the If: inline the branch its condition takes, then run again.
                cond = node.input[0]
                values = {cond: input_values[cond]} if cond in input_values else {}
                if not values:
                    pre = truth.prune(work, node)
                    pre.graph.output.append(onnx.ValueInfoProto(name=cond))
                    pres = truth.run_ort(pre, feeds, tmp, f"{rnd}p")
                    if pres["ok"] and "values" in pres["outputs"].get(cond, {}):
                        values = {cond: pres["outputs"][cond]["values"]}
                if values and truth.inline_ifs(work, values, scope, branches):
                    continue
            found = refused_node(work, scope, error)
            entry = {"node": found[0], "op": found[1], "path": found[2]} if found else {"node": None}
            entry["error"] = status_message(error)
            if not rec:
                rec = dict(ok=False, **entry)
            elif found:
                rec.setdefault("also", []).append(entry)
            if node is None or len(rec.get("also", [])) + 1 >= MAX_REFUSED:
                break
            # The other nodes it refuses: without this one and what depends on it, every tensor requested.
            work, _ = truth.with_all_outputs(truth.prune(work, node))
            if not work.graph.output:
                break
    return rec or {"ok": True}


def fixture_path(model):
    return os.path.join(ROOT, "testdata", "grid", os.path.splitext(os.path.basename(model))[0] + ".json")


def symbols(model):
    """The model's symbols in the order of its inputs: dim_params, and INPUT:AXIS for unnamed dims."""
    inits = {i.name for i in model.graph.initializer}
    out = []
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        for axis, d in enumerate(vi.type.tensor_type.shape.dim):
            if d.HasField("dim_value"):
                continue
            s = d.dim_param if d.HasField("dim_param") and d.dim_param else f"{vi.name}:{axis}"
            if s not in out:
                out.append(s)
    return out


def write(path, head, bindings):
    """The fixture: its fields one a line, then one binding a line, so that a diff shows which changed."""
    lines = [f"  {truth.json.dumps(k)}: {truth.json.dumps(v)}" for k, v in head.items()]
    body = ",\n".join("    " + truth.json.dumps(b, separators=(", ", ": ")) for b in bindings)
    text = "{\n" + ",\n".join(lines) + ',\n  "bindings": [\n' + body + "\n  ]\n}\n"
    truth.json.loads(text)
    with open(path, "w") as f:
        f.write(text)


def make(model_rel, fills, bindings):
    path = os.path.join(ROOT, model_rel)
    model = onnx.load(path)
    head = {
        "model": model_rel,
        "model_sha256": truth.sha256(path),
        "runtime": truth.ORT_VERSION + ", graph optimizations disabled",
        "seed": 0,
        "symbols": symbols(model),
        "fills": fills,
    }
    out = []
    for dims, extra in bindings:
        f = dict(fills)
        f.update(extra)
        rec = {"dims": dims}
        if extra:
            rec["fills"] = extra
        rec.update(run_binding(model, dims, f))
        out.append(rec)
    os.makedirs(os.path.dirname(fixture_path(model_rel)), exist_ok=True)
    write(fixture_path(model_rel), head, out)
    refused = [b for b in out if not b["ok"]]
    where = {}
    for b in refused:
        where[b.get("node")] = where.get(b.get("node"), 0) + 1
    print(f"{os.path.relpath(fixture_path(model_rel), ROOT)}: {len(out)} bindings, {len(refused)} refused"
          + (f" ({', '.join(f'{k}: {v}' for k, v in sorted(where.items(), key=lambda kv: -kv[1])[:4])})"
             if refused else ""))


def main():
    pat = re.compile(sys.argv[1]) if len(sys.argv) > 1 else None
    for model, (fills, bindings) in grids.GRIDS.items():
        if pat and not pat.search(model):
            continue
        if not os.path.exists(os.path.join(ROOT, model)):
            print(f"{model}: missing, skipped", file=sys.stderr)
            continue
        make(model, fills, bindings)


if __name__ == "__main__":
    main()
