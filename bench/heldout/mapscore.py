"""Score `reshape map` cell by cell against onnxruntime's run-or-refuse at the bindings of a held-out set.

For each model of the set (sets.py) with symbols, the map's axes are its defaults (`reshape map` picks
them: the spatial dims of an image, the sequence of [B,T,C]); the grid's bindings are grouped by the
values of the other symbols, and each group gets one map (`--dim` for the others, `--range` from the
least to the largest value its bindings give the axes; a strip of the first axis, the second bound by
`--dim`, where two axes would exceed 2048 values). The SVG's rectangles are read by their data-x, data-y,
data-x1, data-y1, data-runs and data-node attributes, and each binding's cell is compared with the truth
(truth/SET/NAME.json, bindings that differ only in data inputs taken as one, which runs where any runs):

  cells       the bindings compared (those of the grid's groups the map draws)
  runs agree  the cell says runs (data-runs true) where onnxruntime runs, or refuses (false) where it refuses
  map runs    the cell says runs where onnxruntime refuses
  map refuses the cell says refuses where onnxruntime runs
  node agree  of the cells both refuse, those whose data-node is the node onnxruntime refuses at or a node
              upstream of it (bench/grid's judge; a load refusal is judged at the node its error names)
  node exact  of them, data-node is the very node onnxruntime names (or one of its `also`)
  not a claim cells marked data-runs "maybe" (every stated condition holds but they may be incomplete),
              counted apart: in none of the columns above
  no map      bindings of a group `reshape map` refused to draw (its message in the details)

Run from the repository root with Debian's python3:

    /usr/bin/python3 bench/heldout/mapscore.py dev --repo /work/main [-v] [PATTERN]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "grid"))
sys.path.insert(0, HERE)

import onnx  # noqa: E402

import compare as grid  # noqa: E402  (bench/grid/compare.py)
import score  # noqa: E402
import sets  # noqa: E402

MAX_SIDE = 2048
RECT = re.compile(r"<rect\b[^>]*\bdata-runs=[^>]*>")
ATTR = re.compile(r'(data-[\w-]+)="([^"]*)"')
COLUMNS = ("cells", "runs_agree", "map_runs", "map_refuses", "node_agree", "node_exact", "both_refuse",
           "not_a_claim", "no_map")


class Cells:
    """The rectangles of one SVG map: each covers x..x1 by y..y1 with one verdict."""

    def __init__(self, svg):
        head = re.search(r"<svg\b[^>]*>", svg).group(0)
        self.x = re.search(r'data-x-symbol="([^"]*)"', head).group(1)
        self.y = re.search(r'data-y-symbol="([^"]*)"', head).group(1)
        self.rects = []
        for m in RECT.finditer(svg):
            a = dict(ATTR.findall(m.group(0)))
            self.rects.append((int(a["data-x"]), int(a["data-x1"]), int(a["data-y"]), int(a["data-y1"]),
                               a["data-runs"], a.get("data-node", "")))

    def at(self, x, y):
        for x0, x1, y0, y1, runs, node in self.rects:
            if x0 <= x <= x1 and y0 <= y <= y1:
                return runs, node
        return None


def draw(exe, path, axes, lo, hi, dims, strip=False):
    """The SVG of one map, or raises score.ToolError with the command's message."""
    args = [exe, "map", "--range", f"{lo}..{hi}", "-o", "-"]
    if axes:
        args += ["--x", axes[0]] + (["--y", axes[1]] if len(axes) > 1 and not strip else ["--strip"])
    for k, v in sorted(dims.items()):
        args += ["--dim", f"{k}={v}"]
    p = subprocess.run(args + [path], capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise score.ToolError(f"map {' '.join(args[2:-1])}: exit {p.returncode}: {p.stderr.strip()[:300]}")
    return p.stdout


def default_axes(exe, path):
    """The symbols `reshape map` shows by default: (x,) for a strip, (x, y) for a grid."""
    c = Cells(draw(exe, path, None, 1, 1, {}))
    return (c.x, c.y) if c.y else (c.x,)


def score_model(exe, fixture, data):
    path = os.path.join(data, fixture["model"])
    up = grid.Upstream(onnx.load(path, load_external_data=False))
    f = {k: 0 for k in COLUMNS}
    det = []
    axes = default_axes(exe, path)
    f["axes"] = " × ".join(axes)
    by = {}
    for g in grid.groups(fixture):
        if not all(a in g.dims for a in axes):
            f["no_map"] += 1
            det.append(f"{g.label()}: the map's axes {axes} are not all bound by the grid")
            continue
        by.setdefault(json.dumps({k: v for k, v in g.dims.items() if k not in axes}, sort_keys=True), []).append(g)
    for key, gs in by.items():
        dims = json.loads(key)
        vals = [g.dims[a] for g in gs for a in axes]
        lo, hi = min(vals), max(vals)
        strip = len(axes) == 2 and hi - lo + 1 > MAX_SIDE
        maps = {}
        try:
            if strip:  # one strip of x per value of y
                for yv in sorted({g.dims[axes[1]] for g in gs}):
                    xs = [g.dims[axes[0]] for g in gs if g.dims[axes[1]] == yv]
                    maps[yv] = Cells(draw(exe, path, axes, min(xs), max(xs), dict(dims, **{axes[1]: yv}), True))
            else:
                maps[None] = Cells(draw(exe, path, axes, lo, hi, dims))
        except score.ToolError as e:
            f["no_map"] += len(gs)
            det.append(f"{key}: {e}")
            continue
        for g in gs:
            x = g.dims[axes[0]]
            if strip:
                cell = maps[g.dims[axes[1]]].at(x, 0)
            else:
                cell = maps[None].at(x, g.dims[axes[1]] if len(axes) == 2 else 0)
            if cell is None:
                f["no_map"] += 1
                det.append(f"{g.label()}: no rectangle covers the binding")
                continue
            runs, node = cell
            if runs == "maybe":
                f["not_a_claim"] += 1
                continue
            f["cells"] += 1
            if runs == "true":
                if g.runs:
                    f["runs_agree"] += 1
                else:
                    f["map_runs"] += 1
                    det.append(f"{g.label()}: map runs; onnxruntime refuses at {truth_of(g)}")
                continue
            if g.runs:
                f["map_refuses"] += 1
                det.append(f"{g.label()}: map refuses at {node}; onnxruntime runs")
                continue
            f["runs_agree"] += 1
            f["both_refuse"] += 1
            refused = g.refused()
            if node in refused:
                f["node_exact"] += 1
            if score.agrees(up, refused, [node]):
                f["node_agree"] += 1
            else:
                det.append(f"{g.label()}: map names {node}; onnxruntime refuses at {truth_of(g)}")
    return f, det


def truth_of(g):
    v = next((v for v in g.variants if not v["ok"]), g.variants[0])
    where = grid.full_path(v) if v.get("node") is not None else "(no node)"
    return f"{where} ({v.get('stage', 'run')}: {v.get('error', '')[:120]})"


def table(figs):
    head = ["model", "axes"] + [c.replace("_", " ") for c in COLUMNS]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    tot = {k: 0 for k in COLUMNS}
    for name, f in figs.items():
        if "tool_error" in f:
            out.append(f"| {name} | error: {f['tool_error'][:80]} |" + " |" * (len(head) - 2))
            continue
        for k in COLUMNS:
            tot[k] += f[k]
        out.append(f"| {name} | {f['axes']} | " + " | ".join(str(f[k]) for k in COLUMNS) + " |")
    out.append("| **total** | | " + " | ".join(str(tot[k]) for k in COLUMNS) + " |")
    return "\n".join(out), tot


def headline(t, n):
    return (f"**maps**: {n} models, {t['cells'] + t['not_a_claim'] + t['no_map']} bindings: "
            f"{t['runs_agree']}/{t['cells']} cells agree with onnxruntime on runs ({t['map_runs']} drawn as running "
            f"where it refuses, {t['map_refuses']} as refused where it runs); of {t['both_refuse']} refused by both, "
            f"the node agrees at {t['node_agree']} ({t['node_exact']} the very node); {t['not_a_claim']} cells "
            f"not a claim; {t['no_map']} bindings without a map")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set", choices=sorted(sets.SETS))
    ap.add_argument("pattern", nargs="?", help="regexp selecting models by name")
    ap.add_argument("--repo", default=os.getcwd(), help="the tree to build reshape from (default: cwd)")
    ap.add_argument("--reshape", help="a reshape binary built already")
    ap.add_argument("--data", default=sets.DATA)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every disagreement")
    a = ap.parse_args()
    t0 = time.time()
    figs, dets = {}, {}
    ctx = score.binary(a.repo, a.reshape)
    exe, commit = ctx.__enter__()
    try:
        for m in sets.SETS[a.set]:
            if a.pattern and not re.search(a.pattern, m["name"]):
                continue
            fpath = os.path.join(sets.truth_dir(a.set, a.data), m["name"] + ".json")
            if not os.path.exists(fpath):
                continue
            with open(fpath) as fh:
                fixture = json.load(fh)
            if not fixture["symbols"] or not os.path.exists(os.path.join(a.data, fixture["model"])):
                continue
            try:
                figs[m["name"]], dets[m["name"]] = score_model(exe, fixture, a.data)
            except score.ToolError as e:
                figs[m["name"]], dets[m["name"]] = {"tool_error": str(e)}, []
    finally:
        ctx.__exit__(None, None, None)
    text, tot = table(figs)
    print(text)
    print()
    print(headline(tot, len(figs)))
    print(f"\n({a.set}, reshape at {commit or a.reshape}, {round(time.time() - t0)} s)")
    if a.verbose:
        for name, d in dets.items():
            for line in d:
                print(f"{name}: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
