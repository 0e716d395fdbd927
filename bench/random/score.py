#!/usr/bin/python3
"""Score `reshape check --json` (unbound) on the random models of gen.py against run.js's truth.

  /usr/bin/python3 bench/random/score.py OUT [--repo DIR | --reshape BIN] [--json FILE] [-v] [REGEXP]

Per model, over every binding of its box (dense: gen.py's boxes hold 480 or 1,920 bindings):

  runs           bindings where onnxruntime runs; refused, the others
  false complete refused bindings where every stated condition holds while the summary says
                 "complete": true (a promise broken); incomplete: the same with "complete": false
  wrong          conditions ("constraints", "limits" and "implied") that fail at a binding where onnxruntime runs,
                 and those bindings; error rows of unbound check on a model that runs somewhere count too
  limits         conditions of "limits": those only sizes of 2**31 or more break, conditions as those of
                 "constraints" for every figure of correctness (false complete, wrong, sizes), apart from
                 them for redundancy
  redundant      conditions of "constraints" that never fail while all the others hold; tautologies:
                 never fail at all (bench/heldout/dense.py's analyse), both over the wide box (the
                 conditions themselves, not onnxruntime, evaluated on a grid of about a million bindings
                 from the box's corner, on slabs where one symbol runs to 4,096, on draws up to
                 65,536 per symbol, and exactly at sizes about 2**31, 2**32, 2**62 and 2**63-1: see
                 dense.wide_cols); box_redundant and box_tautologies: those that look so only in the box
                 (box artefacts)
  fixed          symbols that the stated conditions leave one value in the wide box; box_fixed: those
                 fixed only in the box; unreported: fixed in the wide box, not named by "fixes" nor by
                 "sizes" with one value (box_unreported: the same in the box)
  runtime        models whose meta says a size is run-time data (seed 2's NonZero) while the summary
                 names no loss with "run_time": the count is not named
  sizes          symbols whose "sizes" record contradicts the conditions inside the box: a value it
                 refuses where some binding satisfies them, or, for a symbol not tied to others
                 (no "with"), a value it allows where the conditions on it fail (a tied symbol may
                 need another's value outside the box); box_sizes: a value of a symbol not tied
                 that it allows where the conditions on it hold and no binding of the box satisfies
                 the others (N any under W >= 29 in a box of W up to 24)
  unreadable     conditions on one symbol that hold // or min/max (a range, a remainder set or both
                 say it), and the deepest nesting of // of any condition, and the longest condition
  wrong node     refused bindings (at run, onnxruntime's message naming the node: "Name:'X'") where a
                 stated condition is broken and the first broken one ("constraints" and "implied", the
                 smallest "seq", then the first listed, a "merged" constraint last: its nodes' own
                 conditions are in "implied"; bench/heldout/score.py's rule) names no node
                 onnxruntime refuses ("node" and "nodes"); named: those bindings; wrong first: those
                 where its first node ("node") is not the one onnxruntime refuses. run.js keeps one
                 message per text with its digits masked, naming the first node of its kind a run
                 met (Conv_2 for Conv_5's "Invalid input shape"): names compare with digits masked

Prints one line per model with a defect (every model with -v) and the totals. Exit status 0.
"""
import argparse
import json
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "heldout"))
sys.path.insert(0, os.path.join(ROOT, "bench", "grid"))
import dense  # noqa: E402
import predicate  # noqa: E402
from dense import box_cols  # noqa: E402
from score import nodes_of, reported_fixed  # noqa: E402


def check(exe, path):
    p = subprocess.run([exe, "check", "--json", path], capture_output=True, text=True, timeout=600)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"exit {p.returncode}: {p.stderr[:300]}")
    return predicate.expand_records([json.loads(x) for x in p.stdout.splitlines() if x.strip()])


def depth(text):
    """The deepest nesting of // in a condition: // inside a parenthesis that holds //."""
    best, stack = 0, [0]
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "(":
            stack.append(stack[-1])
        elif ch == ")":
            inner = stack.pop()
            stack[-1] = max(stack[-1], inner)
        elif text.startswith("//", i):
            stack[-1] += 1
            best = max(best, stack[-1])
            i += 1
        i += 1
    return best


def unreadable(text):
    """A condition on one symbol written with // or min/max (a range or remainder set says it)."""
    return len(dense.names(text)) == 1 and ("//" in text or re.search(r"\b(min|max)\(", text) is not None)


def size_allows(rec, v):
    """Whether a "sizes" record allows value v: None where it does not say (unproven outside "checked")."""
    if not isinstance(rec, dict):
        return None
    if rec.get("text") == "any":
        return True
    lo, hi = rec.get("min"), rec.get("max")
    if lo is not None and v < lo or hi is not None and v > hi:
        return False
    for a, b in rec.get("ranges") or []:
        if a <= v <= b:
            return True
    frm = rec.get("from")
    if frm is not None and v >= frm:
        mod = rec.get("mod") or 1
        return (v % mod) in (rec.get("residues") or [0])
    return False if rec.get("ranges") is not None else None


def score(exe, out, m, verbose):
    with open(os.path.join(out, "truth", m["name"] + ".json")) as f:
        truth = json.load(f)
    syms, box = m["symbols"], m["box"]
    cols = box_cols(syms, box)
    n = len(cols[syms[0]])
    if "load_error" in truth:
        runs = np.zeros(n, bool)
    else:
        runs = np.array([c == "." for c in truth["runs"]])
    recs = check(exe, os.path.join(out, m["file"]))
    summ = next((r for r in recs if r.get("record") == "summary"), {})
    errs = [r for r in recs if "verdict" in r and r.get("record") not in ("summary", "file", "skipped")
            and r.get("verdict") not in ("ok", "inferred", "unknown", "stale", "note")]
    cons = summ.get("constraints") or []
    lims = summ.get("limits") or []
    impl = summ.get("implied") or []
    complete = summ.get("complete", True) is not False
    f = dict(bindings=n, runs=int(runs.sum()), false_complete=0, incomplete=0, wrong=0, wrong_bindings=0,
             conditions=len(cons), limits=len(lims), implied=len(impl), redundant=0, tautologies=0, fixed=0, unreported=0,
             box_redundant=0, box_tautologies=0, box_fixed=0, box_unreported=0,
             sizes_wrong=0, box_sizes=0, unreadable=0, depth=0, longest=0, complete=complete, error_rows=len(errs),
             unevaluable=0, runtime_unnamed=0, named=0, wrong_node=0, wrong_first=0)
    det = []
    hold = np.ones(n, bool)
    on = {s: np.ones(n, bool) for s in syms}  # the constraints that name s, alone
    wrong_at = np.zeros(n, bool)
    broken = []  # (merged, seq, list position, condition, where it fails)
    for kind, lst in (("constraint", cons), ("limit", lims), ("implied", impl)):
        for c in lst:
            try:
                v, _ = dense.evaluate(c["holds"], cols, list(range(0, n, max(1, n // 64))))
            except (predicate.Unbound, ValueError) as e:
                f["unevaluable"] += 1
                det.append(f"unevaluable {c['holds']}: {e}")
                continue
            seq = c.get("seq")
            broken.append((bool(c.get("merged")), seq if isinstance(seq, (int, float)) else 1e18, len(broken), c, ~v))
            if kind != "implied":
                hold &= v
                for s in dense.names(c["holds"]):
                    if s in on:
                        on[s] &= v
            bad = runs & ~v
            if bad.any():
                f["wrong"] += 1
                wrong_at |= bad
                i = int(np.argmax(bad))
                det.append(f"wrong {kind} {c['holds']!r} ({c.get('node')}): fails at {binding(cols, syms, i)} "
                           f"where onnxruntime runs")
    if errs and runs.any():
        f["wrong"] += 1
        wrong_at |= runs
        det.append(f"wrong error row {errs[0].get('name')}: {errs[0].get('verdict')}: {errs[0].get('message', '')[:120]}")
    f["wrong_bindings"] = int(wrong_at.sum())
    if not errs and "load_error" not in truth:
        wrong_nodes(f, det, truth, runs, broken, cols, syms)
    said = ~hold if not errs else np.ones(n, bool)
    missed = ~runs & ~said
    if missed.any():
        if complete:
            f["false_complete"] = int(missed.sum())
            i = int(np.argmax(missed))
            err = truth.get("load_error") or truth["errors"][ord(truth["runs"][i]) - 97] if truth.get("runs") else truth.get("load_error")
            det.append(f"false complete at {int(missed.sum())} bindings, first {binding(cols, syms, i)}: "
                       f"{(err or '')[:160]}")
        else:
            f["incomplete"] = int(missed.sum())
    if m.get("runtime") and not any(lo.get("run_time") for lo in summ.get("lost") or []):
        f["runtime_unnamed"] = 1
        det.append("a size only a run decides (NonZero) is not named: no \"run_time\" loss")
    if cons:
        status, fixed, _, wide, wfixed = dense.box_then_wide(
            cons, cols, list(range(0, n, max(1, n // 64))), syms, box,
            lambda status, fixed: fixed or any(st != "needed" for st in status))
        for c, st, wst in zip(cons, status, wide):
            if wst != "needed":
                det.append(f"{wst}: {c['holds']!r} ({c.get('node')})")
            elif st != "needed":
                det.append(f"in the box only, {st}: {c['holds']!r} ({c.get('node')})")
        f.update(dense.redundancy(status, wide))
        rep = reported_fixed(summ)
        f["fixed"] = len(wfixed)
        f["box_fixed"] = len(set(fixed) - set(wfixed))
        miss = [s for s in wfixed if s not in rep]
        f["unreported"] = len(miss)
        if miss:
            det.append(f"fixed, not reported: {miss}")
        bmiss = [s for s in fixed if s not in rep and s not in wfixed]
        f["box_unreported"] = len(bmiss)
        if bmiss:
            det.append(f"in the box only, fixed, not reported: {bmiss}")
    sizes = summ.get("sizes") or {} if not errs else {}
    for s in syms:
        rec = sizes.get(s)
        if rec is None:
            continue
        vals = np.arange(box[s][0], box[s][1] + 1)
        can = {int(v) for v in np.unique(cols[s][hold])}
        alone = {int(v) for v in np.unique(cols[s][on[s]])}
        for v in vals:
            a = size_allows(rec, int(v))
            if a is None or a == (int(v) in can) or a and rec.get("with"):
                continue
            if a and int(v) in alone:
                f["box_sizes"] += 1
                det.append(f"in the box only, sizes {s}: {rec.get('text')!r} allows {v}, the conditions on {s} hold "
                           f"there and the others nowhere in the box")
            else:
                f["sizes_wrong"] += 1
                det.append(f"sizes {s}: {rec.get('text')!r} {'allows' if a else 'refuses'} {v}, the conditions "
                           f"{'do not' if a else 'do'}")
            break
    for c in cons + lims:
        t = c["holds"]
        f["longest"] = max(f["longest"], len(c.get("holds_written", t)))
        f["depth"] = max(f["depth"], depth(t))
        if unreadable(t):
            f["unreadable"] += 1
            det.append(f"unreadable: {t!r}")
    return f, det


def wrong_nodes(f, det, truth, runs, broken, cols, syms):
    """Adds to f the refused bindings whose first broken condition names onnxruntime's node (named),
    those where it names no such node (wrong_node) and those where its first node is another
    (wrong_first), and a detail line for the first binding of each wrong condition."""
    first = np.full(len(runs), -1)
    for k, (_, _, _, _, bad) in sorted(enumerate(broken), key=lambda e: e[1][:3]):
        first[(first < 0) & bad] = k
    told = set()
    for i in np.nonzero(~runs & (first >= 0))[0]:
        msg = truth["errors"][ord(truth["runs"][i]) - (97 if truth["runs"][i] >= "a" else 39)]
        name = re.search(r"Name:'([^']*)'", msg)
        if not name:
            continue
        c = broken[first[i]][3]
        nodes = [masked(x.split("/")[-1]) for x in nodes_of(c)]
        f["named"] += 1
        if masked(name[1]) not in nodes:
            f["wrong_node"] += 1
            if first[i] not in told:
                told.add(first[i])
                det.append(f"wrong node at {binding(cols, syms, i)}: {c['holds']!r} names {nodes}; "
                           f"onnxruntime refuses {name[1]} or one of its kind")
        elif nodes[0] != masked(name[1]):
            f["wrong_first"] += 1


def masked(name):
    """A node's name with its digits masked, as run.js keys its messages."""
    return re.sub(r"[0-9]+", "#", name)


def binding(cols, syms, i):
    return ",".join(f"{s}={int(cols[s][i])}" for s in syms)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--repo", default=".")
    ap.add_argument("--reshape")
    ap.add_argument("--json")
    ap.add_argument("-v", action="store_true")
    ap.add_argument("regexp", nargs="?")
    a = ap.parse_intermixed_args()
    exe = a.reshape
    if not exe:
        exe = os.path.join(a.out, "reshape")
        subprocess.run(["go", "build", "-o", exe, "./cmd/reshape"], cwd=a.repo, check=True)
    with open(os.path.join(a.out, "meta.json")) as fh:
        meta = json.load(fh)
    tot, per = {}, {}
    models_with = {}
    crashed = []
    for m in meta:
        if a.regexp and not re.search(a.regexp, m["name"]):
            continue
        tpath = os.path.join(a.out, "truth", m["name"] + ".json")
        if not os.path.exists(tpath):
            continue
        with open(tpath) as fh:
            if json.load(fh).get("crashed"):
                crashed.append(m["name"])
                continue
        f, det = score(exe, a.out, m, a.v)
        per[m["name"]] = {"figures": f, "details": det, "blocks": m["blocks"]}
        for k, v in f.items():
            if isinstance(v, bool):
                continue
            tot[k] = max(tot.get(k, 0), v) if k in ("depth", "longest") else tot.get(k, 0) + v
            if v and k not in ("bindings", "runs", "conditions", "limits", "implied", "depth", "longest"):
                models_with[k] = models_with.get(k, 0) + 1
        if det and (a.v or any(not d.startswith("unevaluable") for d in det)):
            print(f"## {m['name']} ({'; '.join(m['blocks'])})")
            for d in det:
                print("  " + d)
    n = len(per)
    print()
    print(f"{n} models, {tot.get('bindings', 0)} bindings, {tot.get('runs', 0)} run by onnxruntime "
          f"({len(crashed)} more crash onnxruntime: {' '.join(crashed)})")
    for k in ("false_complete", "incomplete", "wrong", "wrong_bindings", "conditions", "limits", "implied", "redundant",
              "tautologies", "box_redundant", "box_tautologies", "fixed", "unreported", "box_fixed",
              "box_unreported", "sizes_wrong", "box_sizes", "unreadable", "error_rows", "unevaluable", "runtime_unnamed",
              "named", "wrong_node", "wrong_first"):
        print(f"  {k:15s} {tot.get(k, 0):7d}  (models: {models_with.get(k, 0)})")
    print(f"  {'longest':15s} {tot.get('longest', 0):7d}\n  {'depth of //':15s} {tot.get('depth', 0):7d}")
    complete = sum(1 for p in per.values() if p["figures"]["complete"])
    print(f"  complete models {complete} of {n}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"totals": tot, "models": per}, fh, indent=1)


if __name__ == "__main__":
    main()
