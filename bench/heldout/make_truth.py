#!/usr/bin/python3
"""Run every model of a held-out set at every binding of its grid with onnxruntime-node 1.20.1 (graph
optimizations off) and write the truth: bench/heldout/truth/SET/NAME.json (committed, one binding a line;
DATA/SET/truth/NAME.json for the sets of sets.OUTSIDE, never committed)
and, for the models whose every tensor is recorded, DATA/SET/tensors/NAME.json.gz (not committed).

  cd REPO && /usr/bin/python3 bench/heldout/make_truth.py SET [--data DIR] [REGEXP]

SET is dev, test or trial (sets.py); DIR (default /work/heldout) holds the models (DIR/models/, made by
gen_torch.py, gen_types.py and fetch_npm.sh). Per model:

  1. one session (run.js), every binding of the grid: runs, or the run's error; or the session's error,
     which is onnxruntime refusing the model at load (a type it has no kernel for, a schema violation),
     and the other nodes it refuses at load once that one and what depends on it are gone ("also");
  2. at each binding it refuses at run time, bench/grid/make_grid.py's run_binding: the node it names (an
     If's taken branch inlined until the error names a node inside it), its status message, and the other
     nodes it refuses once that node and what depends on it are gone ("also");
  3. at each binding it runs: the shape of every graph output, and where a declared output's dims
     contradict it (a dim_value, or a symbol of the inputs bound to another value), "differs";
  4. for the models of sets.py with tensors=True (the default): every node output of the main graph, at
     up to TENSOR_BINDINGS bindings it runs, spread over the grid (a copy listing them as graph outputs,
     one session).

The inputs are those of make_grid.py (truth.py's fills, seed 0), so the run is deterministic. A model over
100 MB is copied once to DATA/ext/NAME/ with its weights as external data, so that the copies of step 2
and 4 hold only the graph.
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench", "grid"))
sys.path.insert(0, os.path.join(ROOT, "bench", "truth"))
import make_grid  # noqa: E402
import sets  # noqa: E402
import truth  # noqa: E402

BIG = 100e6  # bytes: models above this are run from an external-data copy
CHUNK = 256e6  # bytes of input data per run.js invocation
MAX_REFUSED = 8  # nodes recorded per refused binding (make_grid's 4 cuts a Transformer's six Reshapes short)
TENSOR_BINDINGS = 12  # every tensor is recorded at this many bindings where the model runs, spread over the grid


def load_message(error):
    """A session-creation error without the model's path, which onnxruntime puts first."""
    return re.sub(r"^Load model from \S+ failed:", "", make_grid.status_message(error))


def load_node(model, error):
    """(name, op, path) of the node a session-creation error names, or (None, None, "")."""
    m = (re.search(r"in node \(([^)]*)\)", error) or re.search(r"node with name '([^']*)'", error)
         or re.search(r"Node \(([^)]*)\)", error) or re.search(r"Node:([^ ]+) ", error))
    if not m:
        return None, None, ""
    name = m.group(1)
    path = make_grid.subgraph_path(model.graph, name) or ""
    graphs = [model.graph]
    while graphs:
        g = graphs.pop()
        for n in g.node:
            if n.name == name:
                return name, n.op_type, path
            for a in n.attribute:
                graphs += ([a.g] if a.type == onnx.AttributeProto.GRAPH else []) + list(a.graphs)
    return name, None, path


def load_also(graph, name, feeds, workdir):
    """The other nodes onnxruntime refuses at load: the node the load error names is removed with what
    depends on it, and the session made again, for at most MAX_REFUSED nodes in all (main graph only)."""
    also, work = [], graph
    with tempfile.TemporaryDirectory(prefix="heldout-") as tmp:
        while name and len(also) + 1 < MAX_REFUSED:
            node = next((n for n in work.graph.node if n.name == name), None)
            if node is None:
                break
            work, _ = truth.with_all_outputs(truth.prune(work, node))
            if not work.graph.output:
                break
            path = os.path.join(workdir or tmp, "load_pruned.onnx")
            onnx.save(work, path)
            err, _ = run_many(path, [feeds], tmp)
            os.remove(path)
            if not err:
                break
            name, op, where = load_node(work, err)
            if name is None:
                break
            also.append({"node": name, "op": op, "path": where, "error": load_message(err)})
    return also


def external_copy(path, data, name):
    """The directory and graph (weights left outside) of an external-data copy of a large model."""
    d = os.path.join(data, "ext", name)
    mpath = os.path.join(d, "model.onnx")
    if not os.path.exists(mpath) or os.path.getmtime(mpath) < os.path.getmtime(path):
        os.makedirs(d, exist_ok=True)
        m = onnx.load(path)
        onnx.save_model(m, mpath, save_as_external_data=True, all_tensors_to_one_file=True,
                        location="weights.bin", size_threshold=1024)
    return d, onnx.load(mpath, load_external_data=False)


def run_many(model_path, feeds_list, tmp):
    """run.js over feeds_list, in chunks of at most CHUNK bytes of inputs: (load error, [result per feed])."""
    out, chunk, size = [], [], 0

    def flush():
        nonlocal chunk, size
        if not chunk:
            return None
        plan = {"model": model_path, "max_values": truth.MAX_VALUES, "runs": []}
        for i, feeds in enumerate(chunk):
            ins = []
            for j, (name, (elem, arr)) in enumerate(feeds.items()):
                f = os.path.join(tmp, f"in_{i}_{j}.bin")
                arr.tofile(f)
                ins.append({"name": name, "type": truth.DTYPES[elem][1], "dims": list(arr.shape), "file": f})
            plan["runs"].append({"inputs": ins})
        ppath, rpath = os.path.join(tmp, "plan.json"), os.path.join(tmp, "result.json")
        with open(ppath, "w") as f:
            json.dump(plan, f)
        env = dict(os.environ)
        env.setdefault("NODE_PATH", "/work/ort/node_modules")
        subprocess.run(["node", os.path.join(HERE, "run.js"), ppath, rpath], check=True, env=env)
        with open(rpath) as f:
            res = json.load(f)
        for name in os.listdir(tmp):
            if name.startswith("in_"):
                os.remove(os.path.join(tmp, name))
        chunk, size = [], 0
        if "load_error" in res:
            return res["load_error"]
        out.extend(res["runs"])
        return None

    for feeds in feeds_list:
        chunk.append(feeds)
        size += sum(arr.nbytes for _, arr in feeds.values())
        if size >= CHUNK:
            err = flush()
            if err:
                return err, []
    err = flush()
    return (err, []) if err else (None, out)


def refusals(graph, items, workdir, fills_of):
    """The nodes onnxruntime refuses at each binding of items ({index: (dims, feeds, first error)}), as
    make_grid.run_binding records them, with one session per refused node for all the bindings refused
    there: {index: record}. The node the error names is removed with everything that depends on it, and
    the rest runs again with every tensor requested, for at most MAX_REFUSED nodes. An error
    inside an If (whose taken branch make_grid inlines) or a subgraph goes to run_binding, one binding at
    a time."""
    recs = {}
    pending = {i: (graph, err) for i, (_, _, err) in items.items()}
    with tempfile.TemporaryDirectory(prefix="heldout-") as tmp:
        d = workdir or tmp
        for level in range(MAX_REFUSED):
            groups = {}
            for i, (work, err) in pending.items():
                node = truth.failing_node(work, err)
                names = re.findall(r"Name:'([^']*)'", err)
                inner = node is None or (names and names[-1] != node.name)
                groups.setdefault((id(work), None if inner else node.name), []).append(i)
            current, pending = pending, {}
            for (_, name), idxs in groups.items():
                work = current[idxs[0]][0]
                if name is None:
                    for i in idxs:
                        if level == 0:
                            recs[i] = make_grid.run_binding(graph, items[i][0], fills_of(i), workdir)
                    continue
                node = next(n for n in work.graph.node if n.name == name)
                for i in idxs:
                    entry = {"node": node.name, "op": node.op_type, "path": "",
                             "error": make_grid.status_message(current[i][1])}
                    if level == 0:
                        recs[i] = dict(ok=False, **entry)
                    else:
                        recs[i].setdefault("also", []).append(entry)
                if level + 1 == MAX_REFUSED:
                    continue
                pruned, _ = truth.with_all_outputs(truth.prune(work, node))
                if not pruned.graph.output:
                    continue
                path = os.path.join(d, f"pruned_{level}_{len(os.listdir(d))}.onnx")
                onnx.save(pruned, path)
                _, res = run_many(path, [items[i][1] for i in idxs], tmp)
                os.remove(path)
                for i, r in zip(idxs, res):
                    if not r["ok"]:
                        pending[i] = (pruned, r["error"])
            if not pending:
                break
    return recs


def declared_outputs(model):
    """{output name: [dim_value int, dim_param str, or None]} of the graph outputs that declare a shape."""
    out = {}
    for o in model.graph.output:
        t = o.type.tensor_type
        if t.HasField("shape"):
            out[o.name] = [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in t.shape.dim]
    return out


def differs(declared, outputs, dims):
    """The graph outputs whose declared shape onnxruntime contradicts at the binding dims: a rank, a
    dim_value, a symbol of the inputs bound to another value, or an output symbol given two values."""
    out, seen = [], {}
    for name, decl in declared.items():
        got = outputs.get(name)
        if got is None:
            continue
        bad = len(decl) != len(got)
        for d, g in zip(decl, got) if not bad else ():
            if isinstance(d, int):
                bad |= d != g
            elif d in dims:
                bad |= dims[d] != g
            elif d is not None:
                bad |= seen.setdefault(d, g) != g
        if bad:
            out.append({"output": name, "declared": decl, "actual": got})
    return out


def run_model(m, data, out_dir, tensors_dir):
    path = os.path.join(data, m["file"])
    t0 = time.time()
    model = onnx.load(path, load_external_data=False)
    big = os.path.getsize(path) > BIG
    workdir, graph = external_copy(path, data, m["name"]) if big else (None, model)
    fills = m["fills"]
    feeds_list = [make_grid.make_feeds(model, dims, dict(fills, **extra)) for dims, extra in m["bindings"]]
    with tempfile.TemporaryDirectory(prefix="heldout-") as tmp:
        load_error, results = run_many(path, feeds_list, tmp)
    declared = declared_outputs(model)
    recs = []
    if load_error:
        name, op, where = load_node(model, load_error)
        entry = {"ok": False, "stage": "load", "node": name, "op": op, "path": where,
                 "error": load_message(load_error)}
        also = load_also(graph, name, feeds_list[0], workdir)
        if also:
            entry["also"] = also
        recs = [dict({"dims": dims}, **({"fills": extra} if extra else {}), **entry) for dims, extra in m["bindings"]]
    else:
        bad = {i: (dims, feeds_list[i], res["error"])
               for i, ((dims, _), res) in enumerate(zip(m["bindings"], results)) if not res["ok"]}
        refused = refusals(graph, bad, workdir, lambda i: dict(fills, **m["bindings"][i][1]))
        for i, ((dims, extra), res) in enumerate(zip(m["bindings"], results)):
            rec = {"dims": dims}
            if extra:
                rec["fills"] = extra
            if res["ok"]:
                outs = {k: v["dims"] for k, v in res["outputs"].items()}
                rec.update(ok=True, outputs=outs)
                dif = differs(declared, outs, dims)
                if dif:
                    rec["differs"] = dif
            else:
                slow = refused[i]
                if slow.get("ok"):
                    # The run that lists every tensor passed: keep the first run's error.
                    slow = {"ok": False, "node": None, "error": make_grid.status_message(res["error"])}
                rec.update(slow, stage="run")
            recs.append(rec)
    head = {
        "model": m["file"],
        "model_sha256": truth.sha256(path),
        "runtime": truth.ORT_VERSION + ", graph optimizations disabled",
        "seed": 0,
        "kind": m["kind"],
        "symbols": make_grid.symbols(model),
        "fills": fills,
    }
    if m.get("flag"):
        head["type_error_node"] = m["flag"]
    if m.get("twin"):
        head["twin"] = m["twin"]
    if declared:
        head["declared_outputs"] = declared
    os.makedirs(out_dir, exist_ok=True)
    make_grid.write(os.path.join(out_dir, m["name"] + ".json"), head, recs)
    secs_grid = time.time() - t0
    ntens = 0
    if m.get("tensors", True) and not load_error:
        ok = [(i, b) for i, b in enumerate(m["bindings"]) if recs[i]["ok"]]
        ok = [ok[int(k * len(ok) / TENSOR_BINDINGS)] for k in range(TENSOR_BINDINGS)] if len(ok) > TENSOR_BINDINGS else ok
        aug, _ = truth.with_all_outputs(graph)
        with tempfile.TemporaryDirectory(prefix="heldout-") as tmp:
            d = workdir or tmp
            apath = os.path.join(d, "all_outputs.onnx")
            onnx.save(aug, apath)
            err, res = run_many(apath, [feeds_list[i] for i, _ in ok], tmp)
        if not err:
            rows = []
            for (i, (dims, _)), r in zip(ok, res):
                if r["ok"]:
                    rows.append({"dims": dims, "shapes": {k: v["dims"] for k, v in r["outputs"].items()}})
            ntens = len(rows)
            os.makedirs(tensors_dir, exist_ok=True)
            with gzip.open(os.path.join(tensors_dir, m["name"] + ".json.gz"), "wt") as f:
                json.dump({"model": m["file"], "model_sha256": head["model_sha256"], "bindings": rows}, f)
    refused = [r for r in recs if not r["ok"]]
    where = {}
    for r in refused:
        key = f"{r.get('stage')}:{r.get('node')}"
        where[key] = where.get(key, 0) + 1
    print(f"{m['name']}: {len(recs)} bindings, {len(refused)} refused"
          + (f" ({', '.join(f'{k} {v}' for k, v in sorted(where.items(), key=lambda kv: -kv[1])[:3])})" if refused else "")
          + f"; tensors at {ntens}; {time.time() - t0:.0f} s (grid {secs_grid:.0f} s)", flush=True)


def table(set_name, data, out_dir):
    """The Markdown table of a set's models: kind, symbols, bindings, refused, export time and size."""
    exports = {}
    for d in sorted({os.path.dirname(m["file"]) for m in sets.SETS[set_name]}):
        index_path = os.path.join(data, d, "exports.json")
        if os.path.exists(index_path):
            exports.update(json.load(open(index_path)))
    print("| model | kind | symbols | bindings | refused (load) | export s | MB |")
    print("|---|---|---|---|---|---|---|")
    for m in sets.SETS[set_name]:
        path = os.path.join(out_dir, m["name"] + ".json")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            fx = json.load(f)
        ex = exports.get(m["name"], {})
        refused = [b for b in fx["bindings"] if not b["ok"]]
        load = sum(1 for b in refused if b.get("stage") == "load")
        mb = ex.get("mb") or round(os.path.getsize(os.path.join(data, m["file"])) / 1e6, 1)
        print(f"| {m['name']} | {m['kind']} | {', '.join(fx['symbols']) or '-'} | {len(fx['bindings'])} | "
              f"{len(refused)}{f' ({load})' if load else ''} | {ex.get('seconds', '-')} | {mb} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set", choices=sorted(sets.SETS))
    ap.add_argument("pattern", nargs="?")
    ap.add_argument("--data", default=sets.DATA)
    ap.add_argument("--table", action="store_true", help="print the table of the set's models and exit")
    a = ap.parse_args()
    out_dir = sets.truth_dir(a.set, a.data)
    if a.table:
        table(a.set, a.data, out_dir)
        return
    tensors_dir = os.path.join(a.data, a.set, "tensors")
    for m in sets.SETS[a.set]:
        if a.pattern and not re.search(a.pattern, m["name"]):
            continue
        if not os.path.exists(os.path.join(a.data, m["file"])):
            print(f"{m['name']}: {m['file']} missing, skipped", file=sys.stderr)
            continue
        run_model(m, a.data, out_dir, tensors_dir)


if __name__ == "__main__":
    main()
