#!/usr/bin/python3
"""Hold the valid sizes `reshape check --json` states against its own conditions, value by value.

  /usr/bin/python3 bench/sizes/claims.py [--repo DIR | --reshape BIN] [--limit N] [--box B] [-v] PATH...

PATH is a model file or a directory (its *.onnx and *.xml, recursively: bench/random's OUT/models, the
held-out sets' DATA/models). Each model is checked unbound; its summary's "constraints" and "limits" (their
"definitions" expanded) and "sizes" are read. For each symbol with a "sizes" record, each value v it
says something about is evaluated (bench/heldout/dense.py, numpy; predicate.py where they differ):

  the values        from 1 (or the record's "checked" start) to the record's "checked" end when it is not
                    proven, else to --limit (default 4096); then, when the record says values past it,
                    the first --limit values from its "from" and "min" on, so that a periodic rule is
                    checked where it starts
  untied symbol     (no "with"): the record allows v exactly when every condition that names the symbol
                    holds at v. A value it allows where one fails, or refuses where all hold, is "wrong"
  tied symbol       ("with": other symbols): a value it refuses where some binding of the others within
                    1..--box (default 64; 16 for two others, 6 for more), or at their values in the
                    smallest binding or the starts of their own ranges, satisfies every condition of the
                    group is "wrong"; one it allows with no such binding in the box is "unconfirmed" (the
                    binding may lie outside the box, or the value be wrongly allowed), and "wrong" when
                    each of the others is proven to take one value

  past checked      a record not proven is evaluated on the --limit values past its "checked" end too: a
                    value its guess gets wrong there is "guessed wrong" (a guess, not a claim)
  undecided         a value of a record's "undecided" ranges (within "checked": no search decided it) is
                    no claim either way: counted apart, as "undecided"

With --truth DIR (bench/heldout's truth of a set, NAME.json per model), each binding onnxruntime ran is held
against the sizes too (against_truth): a size that refuses a value where onnxruntime runs is wrong, and so
is a binding onnxruntime refuses where every symbol's value is claimed (allowed, or the smallest binding's).
A model whose conditions the evaluator cannot read (predicate.Unbound) is counted "not evaluated".
A model that runs at no binding ("valid": "never") must have every symbol "none". Prints a line per model
with a wrong or unconfirmed value (every model with -v) and the totals: models, symbols, values, wrong,
unconfirmed, undecided. Exit status 0 when nothing is wrong, 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "heldout"))
sys.path.insert(0, os.path.join(ROOT, "bench", "grid"))
import dense  # noqa: E402
import predicate  # noqa: E402


def allows(rec, v):
    """Whether the "sizes" record rec allows the values v (an int64 array): its ranges, and from "from" on
    those whose remainder modulo "mod" is in "residues", up to "max"."""
    out = np.zeros(len(v), bool)
    for a, b in rec.get("ranges") or []:
        out |= (v >= a) & (v <= b)
    frm, mod = rec.get("from"), rec.get("mod")
    if frm is not None and mod:
        per = np.isin(v % mod, rec.get("residues") or [0]) & (v >= frm)
        if rec.get("max") is not None:
            per &= v <= rec["max"]
        out |= per
    return out


def values(rec, limit):
    """The values of a record to evaluate (see the module's doc), and whether each is past what it
    says it checked."""
    if not rec.get("proven") and rec.get("checked"):
        lo, hi = rec["checked"]
        lo = max(lo, 1)
        v = np.arange(lo, min(hi, lo + limit - 1) + 1, dtype=np.int64)
        if hi < 2**62:
            v = np.concatenate([v, np.arange(hi + 1, hi + 1 + limit, dtype=np.int64)])
        return v, v > hi
    vals = [np.arange(1, limit + 1, dtype=np.int64)]
    for start in (rec.get("from"), rec.get("min")):
        if start is not None and start > limit and start < 2**62:
            vals.append(np.arange(start, start + limit, dtype=np.int64))
    if rec.get("max") is not None:
        vals = [v[v <= rec["max"]] for v in vals]
    v = np.unique(np.concatenate(vals))
    return v, np.zeros(len(v), bool)


def undecided(rec, v):
    """Whether each of the values v is in one of the record's "undecided" ranges."""
    out = np.zeros(len(v), bool)
    for a, b in rec.get("undecided") or []:
        out |= (v >= a) & (v <= b)
    return out


def short(rec):
    """The text of a record, cut to 80 characters."""
    t = rec.get("text", "")
    return repr(t if len(t) <= 80 else t[:40] + " ... " + t[-35:])


def holds_all(conds, cols, n):
    ok = np.ones(n, bool)
    for text in conds:
        v, _ = dense.evaluate(text, cols, range(min(n, 8)))
        ok &= v
    return ok


def candidates(summ, name, side):
    """The values of the symbol name tried in a binding of the others: 1..side, its value in the smallest
    binding, and the first value of each of its first 8 ranges (a symbol whose values start at 4000)."""
    rec = (summ.get("sizes") or {}).get(name) or {}
    extra = [(summ.get("smallest") or {}).get(name), rec.get("min")] + [r[0] for r in (rec.get("ranges") or [])[:8]]
    extra = [x for x in extra if x is not None and side < x < 2**62]
    return np.unique(np.concatenate([np.arange(1, side + 1), np.array(extra, dtype=np.int64)]).astype(np.int64))


def check(exe, path):
    p = subprocess.run([exe, "check", "--json", "--quiet", path], capture_output=True, text=True)
    recs = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    return predicate.expand_records(recs)


def judge(summ, limit, box):
    """(symbols, values, wrong, unconfirmed, guessed wrong, undecided, details) of one model's summary."""
    sizes = summ.get("sizes") or {}
    conds = [c["holds"] for c in (summ.get("constraints") or []) + (summ.get("limits") or [])]
    out = [0, 0, 0, 0, 0, 0, []]
    for name, rec in sorted(sizes.items()):
        out[0] += 1
        if summ.get("valid") == "never":
            if rec.get("text") != "none":
                out[2] += 1
                out[6].append(f"{name}: {short(rec)} where the model runs at no binding")
            continue
        mine = [c for c in conds if name in dense.names(c)]
        with_ = rec.get("with") or []
        group = [c for c in conds if set(dense.names(c)) & ({name} | set(with_))]
        v, past = values(rec, limit)
        open_ = undecided(rec, v) & ~past
        claimed = ~past & ~open_  # checked and decided: what the record claims
        out[5] += np.count_nonzero(open_)
        out[1] += np.count_nonzero(claimed)
        claim = allows(rec, v)
        if not with_:
            truth = holds_all(mine, {name: v}, len(v))
            guessed = np.nonzero((claim != truth) & past)[0]
            out[4] += len(guessed)
            if len(guessed):
                i = guessed[0]
                out[6].append(f"{name}: past what it checked, {short(rec)} {'allows' if claim[i] else 'refuses'} "
                              f"{v[i]}, where the conditions on it {'fail' if claim[i] else 'hold'}")
            bad = np.nonzero((claim != truth) & claimed)[0]
            if len(bad):
                out[2] += len(bad)
                i = bad[0]
                out[6].append(f"{name}: {short(rec)} {'allows' if claim[i] else 'refuses'} {v[i]}, "
                              f"where the conditions on it {'fail' if claim[i] else 'hold'} ({len(bad)} values)")
            continue
        side = {1: box, 2: 16}.get(len(with_), 6)
        tried = f"in 1..{side} or at the smallest binding's values and their ranges' starts"
        grid = np.meshgrid(*[candidates(summ, o, side) for o in with_], indexing="ij")
        others = [g.reshape(-1) for g in grid]
        m = len(others[0])
        truth = np.zeros(len(v), bool)
        step = max(1, (1 << 18) // m)
        for k in range(0, len(v), step):
            chunk = v[k:k + step]
            cols = {name: np.repeat(chunk, m)}
            for s, o in zip(with_, others):
                cols[s] = np.tile(o, len(chunk))
            truth[k:k + step] = holds_all(group, cols, len(cols[name])).reshape(len(chunk), m).any(1)
        out[4] += np.count_nonzero(~claim & truth & past)
        wrong = np.nonzero(~claim & truth & claimed)[0]
        unconf = np.nonzero(claim & ~truth & claimed)[0]
        out[2] += len(wrong)
        out[3] += len(unconf)
        if len(wrong):
            out[6].append(f"{name}: {short(rec)} refuses {v[wrong[0]]}, where a binding of {with_} "
                          f"{tried} satisfies the conditions ({len(wrong)} values)")
        if len(unconf) and all(fixed(sizes.get(o)) for o in with_):
            # The others take one value each, which the box holds: no binding at all.
            out[2] += len(unconf)
            out[3] -= len(unconf)
            out[6].append(f"{name}: {short(rec)} allows {v[unconf[0]]}, where the conditions fail at the one "
                          f"value of {with_} ({len(unconf)} values)")
        elif len(unconf):
            out[6].append(f"{name}: {short(rec)} allows {v[unconf[0]]} with no binding of {with_} "
                          f"{tried} ({len(unconf)} values unconfirmed)")
    return out


def claims(rec, v):
    """What the record claims of the value v: True (allowed, proven or checked), False (refused, proven or
    checked), None (past what it checked, or undecided)."""
    if not rec.get("proven"):
        lo, hi = rec.get("checked") or (1, 0)
        if not lo <= v <= hi or any(a <= v <= b for a, b in rec.get("undecided") or []):
            return None
    return bool(allows(rec, np.array([v], dtype=np.int64))[0])


def fixed(rec):
    """Whether the record proves one value."""
    return bool(rec and rec.get("fixed") and rec.get("proven"))


def against_truth(summ, truth):
    """(bindings judged, wrong, refused where incomplete, details) of one model's sizes against onnxruntime's
    truth: a binding that runs where a size refuses its value is wrong; so is one onnxruntime refuses where
    every symbol's value is claimed (one that no condition ties to others, or only to symbols of one proven
    value: allowed; one tied to others: its value in the smallest binding, with the others at theirs), unless the summary says the conditions may
    be incomplete (counted apart)."""
    sizes = summ.get("sizes") or {}
    small = summ.get("smallest") or {}
    out = [0, 0, 0, []]
    if not sizes or summ.get("valid") == "never":
        return out
    for b in truth.get("bindings") or []:
        d = b.get("dims") or {}
        if set(d) - set(sizes):
            continue
        out[0] += 1
        if b.get("ok"):
            no = [s for s in d if claims(sizes[s], d[s]) is False]
            if no:
                out[1] += 1
                out[3].append(f"{no[0]}: {short(sizes[no[0]])} refuses {d[no[0]]}, where onnxruntime runs at {d}")
            continue
        runs = all(claims(sizes[s], d[s]) if all(fixed(sizes.get(o)) for o in sizes[s].get("with") or [])
                   else all(small.get(o) == d.get(o) for o in [s] + sizes[s]["with"]) for s in d)
        if not runs:
            continue
        if summ.get("complete") is False:
            out[2] += 1
            continue
        out[1] += 1
        out[3].append(f"sizes and smallest binding claim {d} runs, onnxruntime refuses at {b.get('node')}: "
                      f"{(b.get('error') or '')[:80]}")
    return out


def models(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for d, _, files in sorted(os.walk(p)):
            for f in sorted(files):
                if f.endswith((".onnx", ".xml")):
                    yield os.path.join(d, f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--repo", default=ROOT)
    ap.add_argument("--reshape")
    ap.add_argument("--limit", type=int, default=4096)
    ap.add_argument("--box", type=int, default=64)
    ap.add_argument("--truth", action="append", default=[],
                    help="a directory of onnxruntime's truth, NAME.json per model (bench/heldout); repeatable")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        exe = a.reshape
        if not exe:
            exe = os.path.join(tmp, "reshape")
            subprocess.run(["go", "build", "-o", exe, "./cmd/reshape"], cwd=a.repo, check=True)
        tot = [0, 0, 0, 0, 0, 0, 0]
        truth_tot = [0, 0, 0]
        skipped = 0
        for path in models(a.paths):
            summ = next((r for r in check(exe, path) if r.get("record") == "summary"), None)
            if summ is None:
                continue
            try:
                syms, vals, wrong, unconf, guessed, und, det = judge(summ, a.limit, a.box)
            except predicate.Unbound as e:
                skipped += 1
                print(f"{path}: not evaluated: a condition reads {e}, which the evaluator cannot")
                continue
            name = os.path.splitext(os.path.basename(path))[0]
            tf = next((os.path.join(t, name + ".json") for t in a.truth if os.path.exists(os.path.join(t, name + ".json"))), None)
            if tf:
                with open(tf) as f:
                    nb, tw, tinc, tdet = against_truth(summ, json.load(f))
                truth_tot = [x + y for x, y in zip(truth_tot, [nb, tw, tinc])]
                wrong += tw
                det += tdet
            tot = [x + y for x, y in zip(tot, [1, syms, vals, wrong, unconf, guessed, und])]
            if det or a.v:
                print(f"{path}: {syms} symbols, {vals} values, {wrong} wrong, {unconf} unconfirmed, "
                      f"{guessed} guessed wrong, {und} undecided")
                for d in det:
                    print("  " + d)
        print(f"total: {tot[0]} models, {tot[1]} symbols with sizes, {tot[2]} values, {tot[3]} wrong, "
              f"{tot[4]} unconfirmed, {tot[5]} guessed wrong past what was checked, {tot[6]} undecided, "
              f"{skipped} models not evaluated")
        if a.truth:
            print(f"truth: {truth_tot[0]} bindings judged, {truth_tot[1]} wrong (in the wrong above), "
                  f"{truth_tot[2]} refused where the conditions say they may be incomplete")
    sys.exit(1 if tot[3] else 0)


if __name__ == "__main__":
    main()
