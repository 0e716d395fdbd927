#!/usr/bin/python3
"""Verify `reshape fix` with onnx and onnxruntime, over the grids of bindings of testdata/grid/.

For every model of bench/grid/grids.py (REGEXP selects them by path):

  1. `reshape fix --json MODEL FIXED` rewrites it (the records: rewrites, Reshapes left, the export
     binding, the constraints before and after, those that remain);
  2. onnx 1.12's checker, onnx.checker.check_model(PATH, full_check=True), on the model and the fixed one;
  3. onnxruntime-node (run.js, graph optimizations disabled) runs the fixed model at every binding of the
     model's grid, and the model itself where its grid fixture says it runs and at the export bindings,
     on the inputs make_grid.py makes (seed 0): the outputs compare bit for bit (sha256 of their bytes).
     The export bindings are the grid's bindings at which every export equation holds (predicate.py),
     and fix's own binding (its free symbols as in the grid's first binding) when the grid has none.

A model fix leaves as it is (the same bytes) is not run again: its grid fixture says where it runs.
The models of EXTRA (bench/fix/gen_torch.py's) have no grid fixture: the model is run here too.
The findings go to testdata/fix/<model>.json, which the Go test TestVerified (fix/verify_test.go)
reads: the rewrites and constraints fix must still give, and at every binding whether the fixed model
runs, which its stated constraints must predict. Then a table per model:

  rewrites   Reshapes rewritten (and of them, those that follow another)
  remaining  the conditions fix cannot remove (a Reshape's, or one that fixes a dim)
  checker    onnx.checker full_check on the model / the fixed model
  grid       bindings; those the model runs at; those the fixed model runs at; gained (refused by the
             model, run by the fixed one); lost (the reverse: must be 0)
  export     export bindings run, and at how many the outputs are equal bit for bit
  both run   bindings where both run, and at how many the outputs are equal (elsewhere than at the
             export binding the model read its data in the sizes of the export: they may differ)

  cd REPO && /usr/bin/python3 bench/fix/verify.py [--reshape BIN] [REGEXP]

Needs Debian's python3 (numpy, onnx 1.12) and node with onnxruntime-node 1.20.1 (NODE_PATH, else
/work/ort/node_modules). Deterministic: running it again gives byte-identical fixtures.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "grid"))
sys.path.insert(0, os.path.join(ROOT, "bench", "truth"))

import numpy as np  # noqa: E402
import onnx  # noqa: E402

import grids  # noqa: E402
import predicate  # noqa: E402
import truth  # noqa: E402

OUT = os.path.join(ROOT, "testdata", "fix")

# The models verify.py adds to the grids, made by bench/fix/gen_torch.py; their grids are run here, the
# model too, since testdata/grid records nothing of them.
EXTRA = {
    "testdata/models/attn_baked.onnx": ({}, grids.product(B=grids.BATCHES, T=(1, 2, 5, 17))),
    "testdata/models/mha_enc.onnx": ({}, grids.product(B=grids.BATCHES, T=(1, 2, 5, 10, 17))),
    "testdata/models/mha_encdec.onnx": ({}, grids.product(B=grids.BATCHES, S=(1, 5, 10, 17), T=(1, 7, 12))),
}
RUNTIME = "onnxruntime-node 1.20.1, graph optimizations disabled"


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def checker(path):
    """onnx's checker with full_check on the model at path, loaded into memory: given a path,
    check_model(full_check=True) runs infer_shapes_path, which writes the inferred model over the file."""
    try:
        onnx.checker.check_model(onnx.load(path), full_check=True)
        return "ok"
    except Exception as e:  # the checker's own exceptions, and shape inference's
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"


def run_fix(exe, model, fixed):
    p = subprocess.run([exe, "fix", "--json", model, fixed], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"reshape fix {model}: exit {p.returncode}: {p.stderr}")
    recs = [json.loads(line) for line in p.stdout.splitlines()]
    return recs, p.returncode


def pattern(values):
    return "[" + ",".join(str(v) for v in values) + "]"


def feeds_of(model, dims, fills, tmp, tag):
    """The inputs of one binding, as make_grid.py makes them (seed 0), written to files."""
    shapes = truth.input_shapes(model, dims, {})
    rng = np.random.default_rng(0)
    elems = {vi.name: vi.type.tensor_type.elem_type for vi in model.graph.input}
    inputs = []
    for name, shape in shapes.items():
        arr = truth.make_data(elems[name], shape, fills.get(name), rng)
        f = os.path.join(tmp, f"in_{tag}_{len(inputs)}.bin")
        arr.tofile(f)
        inputs.append({"name": name, "type": truth.DTYPES[elems[name]][1], "dims": list(arr.shape), "file": f})
    return inputs


def run_all(runs, tmp):
    ppath, rpath = os.path.join(tmp, "plan.json"), os.path.join(tmp, "result.json")
    with open(ppath, "w") as f:
        json.dump({"runs": runs}, f)
    env = dict(os.environ)
    env.setdefault("NODE_PATH", "/work/ort/node_modules")
    subprocess.run(["node", os.path.join(HERE, "run.js"), ppath, rpath], check=True, env=env)
    with open(rpath) as f:
        return json.load(f)["runs"]


def holds_all(preds, dims):
    try:
        return all(predicate.holds(p, dims) for p in preds)
    except predicate.Unbound:
        return False


def verify(exe, rel, fills, bindings, tmp):
    path = os.path.join(ROOT, rel)
    model = onnx.load(path)
    fixed = os.path.join(tmp, "fixed.onnx")
    recs, status = run_fix(exe, path, fixed)
    summary = recs[-1]
    if not summary["written"]:  # nothing rewritten: the fixed model is the model
        fixed = path
    rewrites = [r for r in recs if r["record"] == "rewrite"]
    left = [r for r in recs if r["record"] == "left"]
    grid_path = os.path.join(ROOT, "testdata", "grid", os.path.basename(rel)[:-len(".onnx")] + ".json")
    grid = {"bindings": []}  # a model of EXTRA: run here
    if os.path.exists(grid_path):
        with open(grid_path) as f:
            grid = json.load(f)
    export = [c["holds"] for c in summary["export"]]
    fx = {
        "model": rel,
        "model_sha256": sha256(path),
        "fixed_sha256": sha256(fixed),
        "runtime": RUNTIME,
        "seed": 0,
        "exit": status,
        "rewrites": [{"node": r["node"], "before": pattern(r["before"]), "after": pattern(r["after"]),
                      "follows": r.get("follows", [])} for r in rewrites],
        "left": [{"node": r["node"], "why": r["why"]} for r in left],
        "export": export,
        "binding": summary["binding"],
        "before": [f'{c["holds"]} ({c["node"]})' for c in summary["before"]],
        "after": [f'{c["holds"]} ({c["node"]})' for c in summary["after"]],
        "remaining": [f'{c["holds"]} ({c["node"]})' for c in summary["remaining"]],
        "checker": {"model": checker(path), "fixed": checker(fixed)},
    }
    same = fx["fixed_sha256"] == fx["model_sha256"]
    by_dims = {json.dumps(b["dims"], sort_keys=True) + json.dumps(b.get("fills", {}), sort_keys=True): b
               for b in grid["bindings"]}
    points = []  # (dims, fills, export) in the grid's order, then fix's binding when the grid has no export one
    for dims, bfills in bindings:
        points.append((dims, dict(fills, **bfills), bool(rewrites) and holds_all(export, dims)))
    if rewrites and not any(p[2] for p in points):
        dims = dict(points[0][0], **summary["binding"])
        points.append((dims, dict(fills), True))
    rows = []
    runs = []
    for k, (dims, f, is_export) in enumerate(points):
        key = json.dumps(dims, sort_keys=True) + json.dumps({n: v for n, v in f.items() if fills.get(n) != v}, sort_keys=True)
        g = by_dims.get(key)
        row = {"dims": dims}
        if f != fills:
            row["fills"] = {n: v for n, v in f.items() if fills.get(n) != v}
        row["export"] = is_export
        row["model"] = g["ok"] if g else None
        rows.append(row)
        if same:
            row["fixed"] = row["model"]
            continue
        inputs = feeds_of(model, dims, f, tmp, k)
        row["_fixed"] = len(runs)
        runs.append({"model": fixed, "inputs": inputs})
        if row["model"] is not False:  # runs per the grid, or not in the grid: run it
            row["_model"] = len(runs)
            runs.append({"model": path, "inputs": inputs})
    results = run_all(runs, tmp) if runs else []
    for row in rows:
        if "_fixed" not in row:
            continue
        fr = results[row.pop("_fixed")]
        row["fixed"] = fr["ok"]
        if not fr["ok"]:
            row["fixed_error"] = fr["error"].splitlines()[0][:300]
        if "_model" in row:
            mr = results[row.pop("_model")]
            if row["model"] is None:
                row["model"] = mr["ok"]
                if not mr["ok"]:
                    row["model_error"] = mr["error"].splitlines()[0][:300]
            if mr["ok"] and fr["ok"]:
                row["equal"] = mr["outputs"] == fr["outputs"]
    grid_rows = [r for r in rows if r["dims"] in [b[0] for b in bindings]]
    fx["figures"] = {
        "bindings": len(grid_rows),
        "model_runs": sum(1 for r in grid_rows if r["model"]),
        "fixed_runs": sum(1 for r in grid_rows if r["fixed"]),
        "gained": sum(1 for r in grid_rows if not r["model"] and r["fixed"]),
        "lost": sum(1 for r in grid_rows if r["model"] and not r["fixed"]),
        "export_runs": sum(1 for r in rows if r["export"]),
        "export_equal": sum(1 for r in rows if r["export"] and r.get("equal")),
        "both_run": sum(1 for r in grid_rows if r["model"] and r["fixed"]),
        "both_equal": sum(1 for r in grid_rows if r.get("equal")),
    }
    fx["bindings"] = rows
    return fx


def write(fx, path):
    """One binding a line, as the grid fixtures are written."""
    head = {k: v for k, v in fx.items() if k != "bindings"}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    lines.append('  "bindings": [')
    for i, b in enumerate(fx["bindings"]):
        lines.append("    " + json.dumps(b, ensure_ascii=False) + ("," if i + 1 < len(fx["bindings"]) else ""))
    lines.append("  ]")
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reshape", help="a reshape binary built already")
    ap.add_argument("pattern", nargs="?", default="", help="a regexp of the models' paths")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        exe = args.reshape
        if not exe:
            exe = os.path.join(tmp, "reshape")
            subprocess.run(["go", "build", "-o", exe, "./cmd/reshape"], cwd=ROOT, check=True)
        os.makedirs(OUT, exist_ok=True)
        table = []
        for rel, (fills, bindings) in list(grids.GRIDS.items()) + list(EXTRA.items()):
            if not re.search(args.pattern, rel) or not os.path.exists(os.path.join(ROOT, rel)):
                continue
            with tempfile.TemporaryDirectory(dir=tmp) as mtmp:
                fx = verify(exe, rel, fills, bindings, mtmp)
            name = os.path.basename(rel)[:-len(".onnx")]
            write(fx, os.path.join(OUT, name + ".json"))
            f = fx["figures"]
            follows = sum(1 for r in fx["rewrites"] if r["follows"])
            table.append([name, f"{len(fx['rewrites'])}" + (f" ({follows} follow)" if follows else ""),
                          str(len(fx["remaining"])), "/".join("ok" if fx["checker"][k] == "ok" else "refused" for k in ("model", "fixed")),
                          f"{f['bindings']}: {f['model_runs']} -> {f['fixed_runs']}", str(f["gained"]), str(f["lost"]),
                          f"{f['export_equal']}/{f['export_runs']}" if fx["rewrites"] else "-",
                          f"{f['both_equal']}/{f['both_run']}" if fx["rewrites"] else "-"])
    head = ["model", "rewrites", "remaining", "checker", "grid: model -> fixed", "gained", "lost", "export equal",
            "both run: equal"]
    widths = [max(len(r[i]) for r in table + [head]) for i in range(len(head))]
    for r in [head] + table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


if __name__ == "__main__":
    main()
