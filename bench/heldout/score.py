#!/usr/bin/python3
"""Score `reshape` on a held-out set: the figures of issue 23, per model and in total.

  /usr/bin/python3 bench/heldout/score.py SET [--repo DIR] [--reshape BIN] [--data DIR] [--json OUT]
                                          [--budget N] [-v] [REGEXP]

SET is dev, test or trial (sets.py). The reshape binary is built from DIR (`go build ./cmd/reshape`;
default: the current directory) unless --reshape names one. The truth is bench/heldout/truth/SET/*.json
(DATA/SET/truth/*.json for sets.OUTSIDE, trial3)
(make_truth.py); the models and every tensor's truth are read from DATA (default /work/heldout). Per
model, reshape runs:

  check --json MODEL                 unbound: the conditions (the summary's "constraints", "limits"), "valid",
                                     "complete", "lost", "implied", "fixes", "sizes", and the error rows;
  check --json --dim S=V ... MODEL   bound, at every binding of the grid;
  shapes --json MODEL                unbound: every tensor's dims, evaluated at each binding onnxruntime runs.

Bindings that bind the symbols alike and differ in data inputs (Silero's sample rate) are one binding:
onnxruntime runs it when it runs any of them (bench/grid/compare.py's rule). The figures:

  bindings         the grid's bindings; refused: those onnxruntime refuses (load: at session creation)
  predicted        refused bindings where, without a binding, a stated condition (constraints, limits or
                   implied) is broken there, or check reports an error row (the model runs nowhere)
  wrong node       of those, the first broken condition (the smallest "seq" where given, else the first
                   listed; a "merged" constraint last: its nodes' own conditions are in "implied")
                   names no node onnxruntime refuses nor one upstream of them
  runs, no doubt   refused bindings where no condition is broken and the summary does not say
                   "complete": false (a summary without "complete" counts as complete)
  said incomplete  refused bindings where no condition is broken and "complete" is false
  false alarm      bindings onnxruntime runs where a stated condition is broken (or an error row)
  bound agree      check --dim at the binding reports an error exactly when onnxruntime refuses, at a node
                   it refuses or upstream of one (compare.py's judge); load refusals are judged at the node
                   the load error names
  conditions       the conditions of the summary's "constraints" (the minimal list; "implied" apart)
  limits           the conditions of the summary's "limits": those only sizes of 2**31 or more break, apart
                   from "constraints"; conditions for every figure of correctness (predicted, runs no
                   doubt, false alarm), never counted redundant
  redundant        conditions that never fail, over the sample, while all the others hold; the sample is
                   the grid's bindings and every integer binding in a box (sets.py's box, else 1 to the
                   grid's largest value up to 512), or where the box holds more than --budget bindings,
                   every binding of its lower corner and as many drawn from the whole box (sample());
                   tautologies: never fail at all. A condition that looks so is tried again over
                   bench/random's wide box (dense.wide_cols: a grid from the box's corner, slabs, draws up
                   to 65,536 and sizes about 2**31 to 2**63-1); what fails there is needed, counted
                   apart as box_redundant (an artefact of the box: a float32 bound 2**24, a Resize at
                   W = 641)
  fixed            symbols that the conditions leave one value over the sample (the box holds several);
                   reported: named in a condition's "fixes" (or the summary's "fixes", or "sizes" giving
                   one value). ORT-fixed: symbols onnxruntime runs at one value only, of several tried
  declared         (binding, output) pairs where onnxruntime's output contradicts the declared shape, and
                   of them, those where check --dim reports a row "mismatch" for that output (a row whose
                   name, tensor or output is the output, or whose node makes it)
  type             type-error models: flagged when unbound check has an error row at the node onnxruntime
                   refuses; "fa N" on a model onnxruntime runs at some binding: N error rows of unbound
                   check (false alarms)
  longest          the longest condition, in characters, as written (a size computed in floating point
                   by its name)
  wrong dims       (tensor, axis) pairs of shapes --json whose dim, an integer or an expression, evaluates
                   at a binding onnxruntime runs to another value (or the rank differs); undetermined: pairs
                   left '?', an interval, or in symbols no input binds, where onnxruntime gives a value.
                   Compared: the graph outputs at every binding, and every main-graph tensor where DATA
                   holds its truth

Prints a Markdown table (per model and total) and, with --json, writes the figures with the details
(every condition and what the sample says of it, the refusals predicted "runs", the wrong dims with their
binding). Exit status 0; 2 when reshape cannot be built.
"""
import argparse
import contextlib
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench", "grid"))
import compare as grid  # noqa: E402  (bench/grid/compare.py)
import dense  # noqa: E402
import predicate  # noqa: E402
import sets  # noqa: E402

truth_compare = grid.truth_compare
TYPE_CODES = ("data-type", "type")
SEED = 0


class ToolError(Exception):
    pass


def reshape(exe, cmd, model, dims=None, timeout=600):
    args = [exe, cmd, "--json"]
    for k, v in sorted((dims or {}).items()):
        args += ["--dim", f"{k}={v}"]
    try:
        p = subprocess.run(args + [model], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise ToolError(f"{cmd} timed out after {timeout} s") from e
    if p.returncode not in (0, 1):
        raise ToolError(f"{cmd} {' '.join(args[3:])}: exit {p.returncode}: {p.stderr.strip()[:300]}")
    try:
        return predicate.expand_records([json.loads(line) for line in p.stdout.splitlines() if line.strip()])
    except json.JSONDecodeError as e:
        raise ToolError(f"{cmd}: {e}") from e


def rows(recs):
    """The rows of check --json: records with a verdict, other than the summary."""
    return [r for r in recs if "verdict" in r and r.get("record") not in ("summary", "file", "skipped")]


def error_rows(recs):
    return [r for r in rows(recs) if r.get("verdict") not in grid.ERRORLESS]


def summary_of(recs):
    return next((r for r in recs if r.get("record") == "summary"), {})


def nodes_of(c):
    """The node paths a condition names: "node" (a string or a list) and "nodes"."""
    out = []
    for key in ("node", "nodes"):
        v = c.get(key)
        out += v if isinstance(v, list) else [v] if v else []
    return out


def holds(text, dims):
    """True, False, or None where the predicate cannot be evaluated at dims."""
    try:
        return predicate.holds(text, dims)
    except (predicate.Unbound, ValueError):
        return None


def agrees(up, refused, nodes):
    return any(n in up.of(r) for r in refused for n in nodes)


# --- the dense sample ------------------------------------------------------------------------------------

def sample(m, fixture, groups, budget):
    """(columns {symbol: int array}, indices of the grid's bindings in them, box {symbol: (lo, hi)}): the
    grid's bindings, then every integer binding of the box when it holds at most budget of them, else
    every binding of the box's lower corner (its ranges halved from the top until budget/2 fit) and
    budget/2 bindings drawn uniformly from the whole box (seeded), so that the sample reaches the large
    sizes where a model with a high lower bound runs."""
    syms = list(fixture["symbols"])
    box = {}
    for s in syms:
        vals = [g.dims[s] for g in groups if s in g.dims]
        box[s] = tuple(m.get("box", {}).get(s, (1, min(max(vals or [1]), 512))))
    size = np.prod([hi - lo + 1 for lo, hi in box.values()], dtype=float)
    parts = [np.array([[g.dims.get(s, 1) for s in syms] for g in groups], np.int64).reshape(len(groups), len(syms))]
    if syms:
        corner = {s: list(v) for s, v in box.items()}
        limit = budget if size <= budget else budget // 2
        while np.prod([hi - lo + 1 for lo, hi in corner.values()], dtype=float) > limit:
            s = max(corner, key=lambda k: corner[k][1] - corner[k][0])
            corner[s][1] = corner[s][0] + (corner[s][1] - corner[s][0]) // 2
        mesh = np.meshgrid(*[np.arange(lo, hi + 1) for lo, hi in corner.values()], indexing="ij")
        parts.append(np.stack([a.reshape(-1) for a in mesh], 1))
        if size > budget:
            rng = np.random.default_rng(SEED)
            parts.append(np.stack([rng.integers(lo, hi + 1, size=budget // 2) for lo, hi in box.values()], 1))
    else:
        parts.append(np.zeros((1, 0), np.int64))
    allpts = np.concatenate(parts, 0)
    cols = {s: allpts[:, i] for i, s in enumerate(syms)}
    return cols, list(range(len(groups))), box


def reported_fixed(summary):
    out = set()
    for c in (summary.get("constraints") or []) + (summary.get("limits") or []) + (summary.get("implied") or []):
        out.update(c.get("fixes") or [])
    fx = summary.get("fixes")
    if isinstance(fx, list):
        out.update(x for x in fx if isinstance(x, str))
    elif isinstance(fx, dict):
        out.update(fx)
    sizes = summary.get("sizes")
    if isinstance(sizes, dict):
        for s, v in sizes.items():
            vals = v.get("values") if isinstance(v, dict) else None
            if (isinstance(v, dict) and (v.get("fixed") or (isinstance(vals, list) and len(vals) == 1))) or \
                    (isinstance(v, str) and "only" in v):
                out.add(s)
    return out


# --- dims ------------------------------------------------------------------------------------------------

def dim_kind(d, want, binding):
    """"equal", "undetermined" or "wrong" for one dim of shapes --json against onnxruntime's."""
    try:
        k = truth_compare.compare_dim(d, want, binding)
    except (ValueError, ZeroDivisionError):
        try:
            v = predicate.value(str(d), binding)
        except predicate.Unbound:
            return "undetermined"
        except ValueError:
            return "undetermined"
        return "equal" if v == want else "wrong"
    if isinstance(k, tuple):
        return "wrong"
    return "undetermined" if k == truth_compare.UNDETERMINED else "equal"


def compare_dims(shapes, truths):
    """{(tensor, axis): kind} over truths [(binding, {tensor: true shape})]; wrong wins over undetermined,
    undetermined over equal; and the first wrong binding of each."""
    kinds, first = {}, {}
    rank = {"equal": 0, "undetermined": 1, "wrong": 2}
    for binding, tensors in truths:
        for name, want in tensors.items():
            rec = shapes.get(name)
            if rec is None:
                continue
            shape = rec.get("shape")
            if shape is None or len(shape) != len(want):
                key, k = (name, "rank"), "undetermined" if shape is None else "wrong"
                if rank[k] > rank.get(kinds.get(key), -1):
                    kinds[key] = k
                    if k == "wrong":
                        first[key] = (binding, shape, want)
                continue
            for axis, (d, w) in enumerate(zip(shape, want)):
                k = dim_kind(d, w, binding)
                key = (name, axis)
                if rank[k] > rank.get(kinds.get(key), -1):
                    kinds[key] = k
                    if k == "wrong":
                        first[key] = (binding, shape, want)
    return kinds, first


# --- one model -------------------------------------------------------------------------------------------

def producers(model):
    out = {}
    for i, n in enumerate(model.graph.node):
        for o in n.output:
            out[o] = n.name or f"{n.op_type}#{i}"
    return out


def caught(recs, output, producer):
    for r in rows(recs):
        if r.get("verdict") != "mismatch":
            continue
        if output in (r.get("name"), r.get("tensor"), r.get("output")) or r.get("name") == producer \
                or output in (r.get("outputs") or []):
            return True
    return False


def score_model(exe, m, fixture, data, budget):
    path = os.path.join(data, fixture["model"])
    model = onnx.load(path, load_external_data=False)
    up = grid.Upstream(model)
    prod = producers(model)
    groups = grid.groups(fixture)
    f = dict(bindings=len(groups), refused=0, refused_load=0, predicted=0, wrong_node=0, runs_no_doubt=0,
             said_incomplete=0, false_alarm=0, bound_agree=0, bound_compared=0, conditions=0, limits=0, implied=0,
             redundant=0, box_redundant=0, tautologies=0, unevaluable=0, fixed_found=0, fixed_reported=0, ort_fixed=0,
             ort_fixed_reported=0, declared_differ=0, declared_caught=0, type_error=bool(m.get("flag")),
             type_flagged=None, false_alarm_rows=0, longest=0, wrong_dims=0, undetermined_dims=0,
             dims_compared=0, complete=None, lost=0)
    det = {"missed": [], "false_alarms": [], "wrong_node": [], "bound": [], "conditions": [], "wrong_dims": [],
           "undetermined_dims": [], "declared_missed": [], "error_rows": []}

    un = reshape(exe, "check", path)
    summ = summary_of(un)
    conditions = summ.get("constraints") or []
    limits = summ.get("limits") or []
    implied = summ.get("implied") or []
    errs = error_rows(un)
    f["conditions"], f["limits"], f["implied"] = len(conditions), len(limits), len(implied)
    f["complete"] = summ.get("complete")
    f["lost"] = len(summ.get("lost") or [])
    f["longest"] = max((len(c.get("holds_written", c["holds"])) for c in conditions + limits), default=0)
    # Error rows are false alarms only on a model onnxruntime runs at some binding: one it refuses at
    # every binding (at load or at run) has an error, which the rows state.
    if any(g.runs for g in groups):
        f["false_alarm_rows"] = len(errs)
        det["error_rows"] = [f"{r.get('name')} ({r.get('op')}): {r.get('verdict')}: {r.get('message', '')[:200]}"
                             for r in errs]
    if m.get("flag"):
        flag = m["flag"]
        f["type_flagged"] = any(r.get("name") == flag or str(r.get("name", "")).split("/")[-1] == flag.split("/")[-1]
                                for r in errs)
    complete = summ.get("complete", True) is not False
    every = conditions + limits + implied

    def first_broken(dims):
        broken, unevaluable = [], False
        for i, c in enumerate(every):
            h = holds(c["holds"], dims)
            if h is None:
                unevaluable = True
            elif not h:
                broken.append((c.get("seq", i), i, c))
        if not broken:
            return None, unevaluable
        # A merged constraint's nodes' own conditions are in "implied": it names where a run stops
        # only when no other is broken.
        return min(broken, key=lambda b: (bool(b[2].get("merged")), b[0] if isinstance(b[0], (int, float)) else 1e18,
                                          b[1]))[2], unevaluable

    for g in groups:
        load = not g.runs and all(v.get("stage") == "load" for v in g.variants)
        refused = g.refused()
        # unbound
        if errs or summ.get("valid") == "never":
            said, nodes = True, [errs[0].get("name")] if errs else []
        else:
            c, _ = first_broken(g.dims)
            said, nodes = c is not None, nodes_of(c) if c else []
        label = g.label()
        if g.runs:
            if said:
                f["false_alarm"] += 1
                det["false_alarms"].append(f"{label}: {nodes}")
        else:
            f["refused"] += 1
            f["refused_load"] += load
            if said:
                f["predicted"] += 1
                if refused and not agrees(up, refused, nodes):
                    f["wrong_node"] += 1
                    det["wrong_node"].append(f"{label}: we name {nodes}; onnxruntime refuses {refused[:3]}")
            elif complete:
                f["runs_no_doubt"] += 1
                v = g.variants[0]
                det["missed"].append(f"{label}: onnxruntime refuses at {v.get('stage')} "
                                     f"{grid.full_path(v) if v.get('node') else '?'}: {v.get('error', '')[:160]}")
            else:
                f["said_incomplete"] += 1
        # bound
        bound = reshape(exe, "check", path, g.dims)
        berrs = error_rows(bound)
        if g.session:
            pass
        else:
            f["bound_compared"] += 1
            kind, why = grid.judge(g, up, bool(berrs), berrs[0].get("name") if berrs else None)
            if kind == grid.AGREE:
                f["bound_agree"] += 1
            else:
                det["bound"].append(f"{label}: {kind}: {why}")
        # declared outputs
        okv = next((v for v in g.variants if v["ok"]), None)
        for d in (okv or {}).get("differs", []):
            f["declared_differ"] += 1
            if caught(bound, d["output"], prod.get(d["output"])):
                f["declared_caught"] += 1
            else:
                det["declared_missed"].append(f"{label}: {d['output']} declared {d['declared']}, onnxruntime {d['actual']}")

    # conditions over the dense sample
    cols, check, box = sample(m, fixture, groups, budget)
    syms = list(fixture["symbols"])
    status, fixed, satisfiable, wide, _ = dense.box_then_wide(
        conditions, cols, check, syms, box,
        lambda status, fixed: syms and any(st == "tautology" or st.startswith("redundant") for st in status))
    for c, st, wst in zip(conditions, status, wide):
        det["conditions"].append({"holds": c["holds"], "node": c.get("node"),
                                  "status": wst if wst != "needed" or st == "needed" else f"in the box only, {st}"})
    counts = dense.redundancy(status, wide)
    for k in ("tautologies", "redundant", "box_redundant"):
        f[k] = counts[k]
    f["unevaluable"] = sum(st.startswith("unevaluable") for st in status)
    rep = reported_fixed(summ)
    f["fixed_found"], f["fixed_reported"] = len(fixed), len(set(fixed) & rep)
    det["fixed"] = {"found": fixed, "reported": sorted(rep), "satisfiable": satisfiable, "box": box,
                    "points": int(len(next(iter(cols.values())))) if cols else 1}
    ort_fixed = []
    for s in fixture["symbols"]:
        tried = {g.dims.get(s) for g in groups}
        ran = {g.dims.get(s) for g in groups if g.runs}
        if len(tried) > 1 and len(ran) == 1:
            ort_fixed.append(s)
    f["ort_fixed"], f["ort_fixed_reported"] = len(ort_fixed), len(set(ort_fixed) & rep)
    det["ort_fixed"] = ort_fixed

    # dims
    shp = reshape(exe, "shapes", path)
    tensors = {r["name"]: r for r in shp if r.get("record") == "tensor" and not r.get("graph")}
    truths = []
    for g in groups:
        okv = next((v for v in g.variants if v["ok"]), None)
        if okv:
            truths.append((g.dims, okv.get("outputs", {})))
    tpath = os.path.join(data, m["set"], "tensors", m["name"] + ".json.gz")
    if os.path.exists(tpath):
        with gzip.open(tpath, "rt") as fh:
            for b in json.load(fh)["bindings"]:
                truths.append((b["dims"], b["shapes"]))
    kinds, first = compare_dims(tensors, truths)
    f["dims_compared"] = len(kinds)
    f["wrong_dims"] = sum(k == "wrong" for k in kinds.values())
    f["undetermined_dims"] = sum(k == "undetermined" for k in kinds.values())
    for key, (b, ours, want) in sorted(first.items(), key=lambda kv: str(kv[0])):
        det["wrong_dims"].append({"tensor": key[0], "axis": key[1], "binding": b, "ours": ours, "onnxruntime": want})
    det["undetermined_dims"] = sorted(f"{t}[{a}]" for (t, a), k in kinds.items() if k == "undetermined")[:200]
    det["summary"] = {k: summ.get(k) for k in ("valid", "complete", "lost", "fixed", "sizes") if k in summ}
    return f, det


# --- the table -------------------------------------------------------------------------------------------

COLUMNS = [
    ("model", None), ("bindings", "bindings"), ("refused (load)", None), ("predicted", "predicted"),
    ("wrong node", "wrong_node"), ("runs, no doubt", "runs_no_doubt"), ("said incomplete", "said_incomplete"),
    ("false alarm", "false_alarm"), ("bound agree", None), ("conditions", "conditions"), ("limits", "limits"),
    ("redundant", "redundant"),
    ("tautologies", "tautologies"), ("fixed reported", None), ("ORT-fixed reported", None), ("declared caught", None),
    ("type", None), ("longest", "longest"), ("wrong dims", "wrong_dims"), ("undetermined dims", "undetermined_dims"),
]


def cells(name, f):
    if "tool_error" in f:
        return [name] + ["tool error"] + [""] * (len(COLUMNS) - 2)
    out = []
    for head, key in COLUMNS:
        if head == "model":
            out.append(name)
        elif head == "refused (load)":
            out.append(f"{f['refused']} ({f['refused_load']})" if f["refused_load"] else str(f["refused"]))
        elif head == "bound agree":
            out.append(f"{f['bound_agree']}/{f['bound_compared']}")
        elif head == "fixed reported":
            out.append(f"{f['fixed_reported']}/{f['fixed_found']}")
        elif head == "ORT-fixed reported":
            out.append(f"{f['ort_fixed_reported']}/{f['ort_fixed']}")
        elif head == "declared caught":
            out.append(f"{f['declared_caught']}/{f['declared_differ']}")
        elif head == "type":
            if f.get("type_error"):
                out.append("flagged" if f["type_flagged"] else "missed")
            else:
                out.append(f"fa {f['false_alarm_rows']}" if f["false_alarm_rows"] else "-")
        else:
            out.append(str(f[key]))
    return out


SUMMED = ("bindings", "refused", "refused_load", "predicted", "wrong_node", "runs_no_doubt", "said_incomplete",
          "false_alarm", "bound_agree", "bound_compared", "conditions", "limits", "implied", "redundant", "box_redundant",
          "tautologies", "unevaluable", "fixed_found", "fixed_reported", "ort_fixed", "ort_fixed_reported",
          "declared_differ", "declared_caught", "false_alarm_rows", "wrong_dims", "undetermined_dims", "dims_compared", "lost")


def totals(figs):
    t = {k: sum(f.get(k, 0) for f in figs.values() if "tool_error" not in f) for k in SUMMED}
    t["longest"] = max((f.get("longest", 0) for f in figs.values() if "tool_error" not in f), default=0)
    tm = [f for f in figs.values() if f.get("type_error")]
    t["type_models"], t["type_flagged"] = len(tm), sum(1 for f in tm if f.get("type_flagged"))
    t["loading_models_with_false_alarm_rows"] = sum(1 for f in figs.values() if f.get("false_alarm_rows"))
    t["incomplete_models"] = sum(1 for f in figs.values() if f.get("complete") is False)
    t["tool_errors"] = sum(1 for f in figs.values() if "tool_error" in f)
    t["models"] = len(figs)
    return t


def markdown(figs, t):
    lines = ["| " + " | ".join(h for h, _ in COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for name, f in figs.items():
        lines.append("| " + " | ".join(cells(name, f)) + " |")
    tf = dict(t, type_error=False, type_flagged=None)
    tot = cells("**total**", tf)
    tot[[h for h, _ in COLUMNS].index("type")] = f"{t['type_flagged']}/{t['type_models']} flagged; " \
                                                  f"fa {t['false_alarm_rows']}"
    lines.append("| " + " | ".join(tot) + " |")
    return "\n".join(lines)


def headline(t):
    return (f"{t['models']} models, {t['bindings']} bindings, {t['refused']} refused by onnxruntime "
            f"({t['refused_load']} at load): {t['predicted']} predicted without a binding "
            f"({t['wrong_node']} at a wrong node), {t['runs_no_doubt']} predicted \"runs\" with no word of doubt, "
            f"{t['said_incomplete']} where the conditions say they are incomplete; {t['false_alarm']} false alarms; "
            f"bound agreement {t['bound_agree']}/{t['bound_compared']}; {t['conditions']} conditions stated "
            f"(and {t['limits']} limits), "
            f"{t['redundant']} redundant ({t['tautologies']} always true; {t['box_redundant']} more in the box only); "
            f"fixed symbols reported "
            f"{t['fixed_reported']}/{t['fixed_found']} (by onnxruntime {t['ort_fixed_reported']}/{t['ort_fixed']}); "
            f"declared outputs contradicted caught by check {t['declared_caught']}/{t['declared_differ']}; "
            f"type errors flagged {t['type_flagged']}/{t['type_models']}, false-alarm rows {t['false_alarm_rows']} "
            f"(in {t['loading_models_with_false_alarm_rows']} loading models); longest condition {t['longest']} "
            f"characters; wrong dims {t['wrong_dims']}, undetermined {t['undetermined_dims']} of "
            f"{t['dims_compared']} (tensor, axis) pairs")


@contextlib.contextmanager
def binary(repo, given):
    if given:
        yield given, None
        return
    with tempfile.TemporaryDirectory(prefix="heldout-score-") as tmp:
        exe = os.path.join(tmp, "reshape")
        subprocess.run(["go", "build", "-o", exe, "./cmd/reshape"], cwd=repo, check=True)
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True)
        yield exe, head.stdout.strip() or None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set", choices=sorted(sets.SETS))
    ap.add_argument("pattern", nargs="?", help="regexp selecting models by name")
    ap.add_argument("--repo", default=os.getcwd(), help="the tree to build reshape from (default: cwd)")
    ap.add_argument("--reshape", help="a reshape binary built already")
    ap.add_argument("--data", default=sets.DATA)
    ap.add_argument("--json", help="write the figures and details here")
    ap.add_argument("--budget", type=int, default=400_000, help="points of the dense sample per model")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every model's details")
    a = ap.parse_args()
    t0 = time.time()
    figs, dets = {}, {}
    try:
        ctx = binary(a.repo, a.reshape)
        exe, commit = ctx.__enter__()
    except subprocess.CalledProcessError as e:
        print(f"score.py: go build failed: {e}", file=sys.stderr)
        return 2
    try:
        for m in sets.SETS[a.set]:
            if a.pattern and not re.search(a.pattern, m["name"]):
                continue
            fpath = os.path.join(sets.truth_dir(a.set, a.data), m["name"] + ".json")
            if not os.path.exists(fpath):
                print(f"{m['name']}: no truth fixture, skipped", file=sys.stderr)
                continue
            with open(fpath) as fh:
                fixture = json.load(fh)
            if not os.path.exists(os.path.join(a.data, fixture["model"])):
                print(f"{m['name']}: {fixture['model']} missing under {a.data}, skipped", file=sys.stderr)
                continue
            t1 = time.time()
            try:
                f, d = score_model(exe, dict(m, set=a.set), fixture, a.data, a.budget)
            except ToolError as e:
                f, d = {"tool_error": str(e)}, {}
            f["seconds"] = round(time.time() - t1, 1)
            figs[m["name"]], dets[m["name"]] = f, d
            print(f"{m['name']}: {f['seconds']} s", file=sys.stderr, flush=True)
    finally:
        ctx.__exit__(None, None, None)
    t = totals(figs)
    print(markdown(figs, t))
    print()
    print(headline(t))
    if a.verbose:
        for name, d in dets.items():
            print(f"\n## {name}")
            for key in ("missed", "wrong_node", "false_alarms", "bound", "declared_missed", "error_rows"):
                for line in d.get(key, [])[:10]:
                    print(f"{key}: {line}")
            for c in d.get("conditions", []):
                print(f"condition: {c['holds']}  ({c['node']}): {c['status']}")
            if d.get("fixed"):
                print(f"fixed: {d['fixed']}; by onnxruntime: {d.get('ort_fixed')}")
            for w in d.get("wrong_dims", [])[:10]:
                print(f"WRONG DIM: {w}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"set": a.set, "repo": os.path.abspath(a.repo), "commit": commit, "seconds": round(time.time() - t0),
                       "totals": t, "models": figs, "details": dets}, fh, indent=1, sort_keys=True, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
