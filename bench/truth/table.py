#!/usr/bin/python3
"""The table of issue 9's "Done when": per model, the Reshapes found, their output dims determined (ours
next to onnx 1.12's), the tensors equal to onnxruntime's at each binding, and what stops the rest.

One Markdown table per directory of models (default: ../shared/realdata/onnx/, then testdata/models/),
one row per .onnx file, then notes (contradictions, Reshapes not found, ranks unknown). Columns: README.md
beside this file.

  cd REPO && /usr/bin/python3 bench/truth/table.py [--reshape BIN] [DIR|MODEL.onnx]...

The reshape binary is built once (go build ./cmd/reshape) into a temporary directory, unless --reshape
names one. Exit status: 0, or 2 when reshape or onnx cannot read a model.
"""
import argparse
import collections
import glob
import json
import os
import subprocess
import sys

import onnx
from google.protobuf.message import DecodeError

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
import compare  # noqa: E402

ROOT = compare.ROOT
DEFAULT_DIRS = ["../shared/realdata/onnx", "testdata/models"]


def reshape_nodes(g, scope="", onnx112_scope="", out=None):
    """[(check path, onnx112 path, scope)] of every Reshape node of g, subgraphs included. `reshape check`
    names a node by its name, else OP#INDEX, after the path of its subgraph, its scope ("If_3/then_branch");
    onnx112.py by its name, else OP(OUTPUT)."""
    out = [] if out is None else out
    for i, n in enumerate(g.node):
        c = f"{scope}/" * bool(scope) + (n.name or f"{n.op_type}#{i}")
        o = f"{onnx112_scope}/" * bool(onnx112_scope) + (n.name or f"{n.op_type}({n.output[0]})")
        if n.op_type == "Reshape" and n.domain in ("", "ai.onnx"):
            out.append((c, o, scope))
        for a in n.attribute:
            for sg in ([a.g] if a.type == onnx.AttributeProto.GRAPH else []) + list(a.graphs):
                reshape_nodes(sg, f"{c}/{a.name}", f"{o}/{a.name}", out)
    return out


def own_symbols(m):
    """The model's own symbols: the dim_params of its graph inputs, and INPUT:AXIS for their unnamed
    dynamic dims."""
    inits = {t.name for t in m.graph.initializer}
    out = set()
    for v in m.graph.input:
        if v.name in inits or not v.type.tensor_type.HasField("shape"):
            continue
        for axis, d in enumerate(v.type.tensor_type.shape.dim):
            if d.HasField("dim_param") and d.dim_param:
                out.add(d.dim_param)
            elif not d.HasField("dim_value"):
                out.add(f"{v.name}:{axis}")
    return out


def ours_determined(d, own):
    """Whether a dim of our JSON is determined: an integer, or an expression in the model's own symbols."""
    if isinstance(d, int):
        return True
    return compare.determined(d) and compare.symbols(d) <= own


def onnx112_determined(d, own):
    """Whether a dim of onnx112.py's figures is determined: an integer or one of the model's own symbols."""
    return isinstance(d, int) or (isinstance(d, str) and d in own)


def stopper(entry):
    """'Conv (no shape rule)' of a stopped_by entry 'Conv at /conv1/Conv (no shape rule)'."""
    op = entry.split(" at ", 1)[0]
    why = entry[entry.rfind(" ("):] if entry.endswith(")") else ""
    return op + why


# The figures at one fixture's binding: its label, compare.py's Results (None when onnxruntime refused the
# model), the error of a model onnxruntime refused, and the nodes it refused at this binding.
Binding = collections.namedtuple("Binding", "label bound symbolic error failed")


class Model:
    """The figures of one model file."""

    def __init__(self, path, runner, fixtures):
        self.path = path
        self.stem = os.path.splitext(os.path.basename(path))[0]
        m = onnx.load(os.path.join(ROOT, path), load_external_data=False)
        own = own_symbols(m)
        nodes = reshape_nodes(m.graph)
        self.nodes = len(nodes)
        self.nodes_sub = sum(1 for _, _, scope in nodes if scope)

        rows = {r["name"]: r for r in compare.run_json(runner.exe, "check", path) if r.get("record") == "reshape"}
        self.found = sum(1 for c, _, _ in nodes if c in rows)
        graphs = {r.get("graph", "") for r in runner.shapes(path, {}) if r.get("record") == "tensor"}
        self.not_found = [(c, why_not_found(scope, graphs)) for c, _, scope in nodes if c not in rows]

        ref = {}
        f112 = os.path.join(compare.TRUTH, f"onnx112_{self.stem}.json")
        self.has112 = os.path.exists(f112)
        if self.has112:
            with open(f112) as fh:
                ref = {r["path"]: r for r in json.load(fh)["reshapes"]}

        self.dims = self.ours = self.ours_int = self.theirs = 0
        self.unknown_rank = []
        self.stopped = collections.Counter()
        self.unnamed = 0  # Reshapes with undetermined dims and no stopped_by
        for c, o, _ in nodes:
            row, r112 = rows.get(c), ref.get(o)
            inferred = row.get("inferred") if row else None
            rank = r112.get("rank") if r112 else None
            if rank is None and inferred is not None:
                rank = len(inferred)
            if rank is None:
                self.unknown_rank.append(c)
                continue
            self.dims += rank
            if r112 and r112.get("onnx112") is not None:
                self.theirs += sum(onnx112_determined(d, own) for d in r112["onnx112"])
            det = [ours_determined(d, own) for d in inferred] if inferred is not None else [False] * rank
            self.ours += sum(det)
            self.ours_int += sum(isinstance(d, int) for d in inferred or [])
            if not all(det) and row is not None:
                if row.get("stopped_by"):
                    self.stopped.update({stopper(s) for s in row["stopped_by"]})
                else:
                    self.unnamed += 1

        self.bindings = []
        for name, fx in fixtures:
            label = name[len(self.stem) + 1:-len(".json")]
            if "shapes" not in fx:
                self.bindings.append(Binding(label, None, None, fx.get("error", ""), []))
                continue
            res = runner.fixture(fx)
            self.bindings.append(Binding(label, res["bound"], res["symbolic"], None, fx.get("failed_nodes", [])))


def why_not_found(scope, graphs):
    """Why `reshape check` has no row for a Reshape of subgraph scope, as far as `reshape shapes` tells: its
    subgraph was not inferred (the other branch of its If taken), or nothing known."""
    if scope in graphs:
        return "its subgraph is inferred"
    parent, _, branch = scope.rpartition("/")
    other = {"then_branch": "else_branch", "else_branch": "then_branch"}.get(branch)
    if other and f"{parent}/{other}" in graphs:
        return f"`{scope}` is not inferred: the If takes `{other}` (its condition is known)"
    return f"`{scope}` is not inferred"


def pct(n, d):
    return f"{n} ({100 * n / d:.0f}%)" if d else f"{n}"


def det_cell(n, ints, dims):
    return f"{pct(n, dims)}: {ints}+{n - ints}"


def equal_cell(m, mode):
    parts = []
    for b in m.bindings:
        if b.error is not None:
            parts.append(f"{b.label}: refused")
            continue
        r = b.bound if mode == "bound" else b.symbolic
        eq = r.counts[compare.EQUAL_BOUND] + r.counts[compare.EQUAL_SYMBOLIC]
        parts.append(f"{b.label}{'*' if b.failed else ''}: {eq}/{r.compared}")
    return "<br>".join(parts) or "no fixture"


def table(models, out=sys.stdout):
    head = ["model", "Reshape nodes (main+sub)", "found by check", "output dims", "determined by us (int+expr)",
            "onnx 1.12", "equal to onnxruntime, --dim", "equal to onnxruntime, symbolic", "contradicted",
            "undetermined Reshapes stopped by"]
    print("| " + " | ".join(head) + " |", file=out)
    print("|" + "|".join("---" if i in (0, 6, 7, 9) else "--:" for i in range(len(head))) + "|", file=out)
    tot = collections.Counter()
    for m in models:
        contra = sum(len(r.contradicted) for b in m.bindings if b.bound for r in (b.bound, b.symbolic))
        stopped = ", ".join(f"{k} ×{v}" for k, v in sorted(m.stopped.items(), key=lambda kv: (-kv[1], kv[0])))
        if m.unnamed:
            stopped += (", " if stopped else "") + f"none named ×{m.unnamed}"
        dims = f"{m.dims}" + (f" (+{len(m.unknown_rank)} Reshapes of unknown rank)" if m.unknown_rank else "")
        cells = [m.stem, f"{m.nodes} ({m.nodes - m.nodes_sub}+{m.nodes_sub})", f"{m.found}", dims,
                 det_cell(m.ours, m.ours_int, m.dims), pct(m.theirs, m.dims) if m.has112 else "no figures",
                 equal_cell(m, "bound"), equal_cell(m, "symbolic"), f"{contra}", stopped or "-"]
        print("| " + " | ".join(cells) + " |", file=out)
        tot.update(nodes=m.nodes, found=m.found, dims=m.dims, ours=m.ours, ours_int=m.ours_int, contra=contra)
        if m.has112:
            tot.update(theirs=m.theirs, dims112=m.dims)
    print(f"| **total** | {tot['nodes']} | {tot['found']} | {tot['dims']} | "
          f"{det_cell(tot['ours'], tot['ours_int'], tot['dims'])} | {pct(tot['theirs'], tot['dims112'])} | | | "
          f"{tot['contra']} | |", file=out)


def notes(models, out=sys.stdout):
    lines = []
    for m in models:
        for c, why in m.not_found:
            lines.append(f"- {m.stem}: Reshape `{c}` has no row in `reshape check --json`; {why}")
        for c in m.unknown_rank:
            lines.append(f"- {m.stem}: Reshape `{c}`: rank unknown to the truth, onnx 1.12 and us (not counted)")
        for b in m.bindings:
            if b.error is not None:
                lines.append(f"- {m.stem} {b.label}: onnxruntime refused the model: {compare.one_line(b.error)}")
                continue
            for node, outs in compare.refused(b.failed, b.bound):
                lines.append(f"- {m.stem} {b.label}*: onnxruntime refused `{node}`; the tensors compared are those "
                             f"computed upstream of it; `reshape shapes --dim` gives {outs or 'no record of it'}")
            for mode, r in (("--dim", b.bound), ("symbolic", b.symbolic)):
                for graph, name, shape, want, why in r.contradicted:
                    where = f"{graph}: " if graph else ""
                    lines.append(f"- **contradicted** {m.stem} {b.label} {mode}: `{where}{name}`: reshape "
                                 f"`{compare.shape_text(shape)}`, onnxruntime `{compare.shape_text(want)}` ({why})")
    if lines:
        print("", file=out)
        print("\n".join(lines), file=out)


def commit():
    """The commit measured: HEAD's short hash, '+changes' when the tree differs from it."""
    try:
        h = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        return h + (" +changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def model_files(arg):
    path = arg if os.path.isabs(arg) else os.path.join(ROOT, arg)
    if os.path.isdir(path):
        return sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(path, "*.onnx")))
    return [os.path.relpath(path, ROOT)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help="directories of .onnx models or model files "
                    "(default: ../shared/realdata/onnx testdata/models)")
    ap.add_argument("--reshape", help="the reshape binary (default: build ./cmd/reshape once)")
    args = ap.parse_args()
    try:
        with compare.reshape_binary(args.reshape) as exe:
            runner = compare.Runner(exe)
            by_model = collections.defaultdict(list)
            for name, fx in compare.fixtures():
                by_model[os.path.normpath(fx["model"])].append((name, fx))
            print(f"Measured on commit {commit()}.")
            for arg in args.paths or DEFAULT_DIRS:
                files = model_files(arg)
                if not files:
                    print(f"table.py: {arg}: no .onnx file", file=sys.stderr)
                    continue
                models = [Model(f, runner, by_model.get(os.path.normpath(f), [])) for f in files]
                print(f"\n### {arg}\n")
                table(models)
                notes(models)
            return 0
    except (compare.ToolError, subprocess.CalledProcessError, OSError, DecodeError) as e:
        print(f"table.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
