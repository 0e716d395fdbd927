#!/usr/bin/python3
"""The figures of issue 26's held-out zoo (gen_mlzoo.py): every fixture testdata/truth/zoo_* against reshape.

  cd REPO && /usr/bin/python3 bench/truth/zoo_score.py [--reshape BIN] [-v] [REGEXP]

Per fixture (one model at one binding), with compare.py's judge:

  tensors        the fixture's tensors (onnxruntime's shapes: sequences are read back through SequenceLength,
                 SequenceAt and ConcatFromSequence, which are tensors)
  wrong          tensors that `reshape shapes --json` contradicts: bound, and symbolic (every expression
                 evaluated at the binding) where onnxruntime runs, as bench/heldout/score.py counts them
  undetermined   tensors that the bound run leaves undetermined where onnxruntime gives a shape; "of them by
                 the data": those of a node where reshape names a size only a run decides (a `lost` record
                 with run_time: Unique's count, a Tokenizer's tokens, the strings stopwords leave), or
                 downstream of one
  seq lengths    each SequenceLength's value (onnxruntime's) against the length the bound run gives its
                 input sequence
  run/refuse     `reshape check --json --dim ...` reports an error row exactly when onnxruntime refuses, at
                 a node it refuses or upstream of one; a refusal at load (no node named) agrees with any
                 error row. A refusal that reshape names as a size only a run decides (a `lost` record
                 with run_time at a node refused, or upstream of one: indices that are values of the
                 model's data) and reports no error for agrees too, counted as "decided by a run".
                 Disagreements are listed: "false alarm" (onnxruntime runs, reshape reports an error),
                 "missed" (onnxruntime refuses, reshape reports none), "wrong node".
  warnings       the warnings reshape reports at the binding (relations the ONNX-ML spec implies and
                 onnxruntime does not check: LinearClassifier's feature count), counted; they are no
                 refusal.

Exit status 1 when a tensor is contradicted or run-or-refuse disagrees.
"""
import argparse
import os
import sys

import onnx

from compare import CONTRADICTED, NOT_ERRORS, ROOT, UNDETERMINED, compare, compare_dim, compare_shape, fixtures, reshape_binary, run_json, \
    tensors, truth_tensors


def upstream(model_path):
    """{node name: the names of it and every node upstream of it} of the main graph (subgraphs' reads of
    outer names count as inputs of the node that holds them)."""
    m = onnx.load(model_path)
    producer = {o: n.name for n in m.graph.node for o in n.output if o}

    def reads(n):
        out = set(n.input)
        for a in n.attribute:
            for g in ([a.g] if a.type == onnx.AttributeProto.GRAPH else []) + list(a.graphs):
                for sn in g.node:
                    out |= reads(sn)
        return out

    ins = {n.name: {producer[i] for i in reads(n) if i in producer} for n in m.graph.node}
    memo = {}

    def up(name):
        if name not in memo:
            memo[name] = {name}
            for p in ins.get(name, ()):
                memo[name] |= up(p)
        return memo[name]

    return {n.name: up(n.name) for n in m.graph.node}, {n.name: n.op_type for n in m.graph.node}


def seq_lengths(model_path, fx, recs):
    """(compared, equal, wrong) over the SequenceLength nodes of the model whose length onnxruntime gave
    (the fixture's values): reshape's "length" of the input sequence (records recs), at the binding."""
    m = onnx.load(model_path)
    got = tensors(recs)
    compared = equal = wrong = 0
    for n in m.graph.node:
        if n.op_type != "SequenceLength" or n.output[0] not in fx.get("values", {}):
            continue
        compared += 1
        length = got.get(("", n.input[0]), {}).get("length")
        if length is None:
            continue
        kind = compare_dim(length, fx["values"][n.output[0]][0], fx["binding"])
        if isinstance(kind, tuple):
            wrong += 1
        elif kind != UNDETERMINED:
            equal += 1
    return compared, equal, wrong


def by_data(res, run_time, up):
    """The undetermined tensors of res (a compare Result) whose node is, or is downstream of, one of the
    nodes run_time, where reshape names a size only a run decides."""
    got = tensors(res.records)
    n = 0
    for g, t, want in truth_tensors(res.fixture):
        rec = got.get((g, t))
        if rec is None or compare_shape(rec.get("shape"), want, res.fixture["binding"])[0] != UNDETERMINED:
            continue
        node = rec.get("node") or ""
        n += any(r in up.get(node, {node}) for r in run_time)
    return n


def error_nodes(recs):
    """The nodes of the error rows of `reshape check --json` (reshape and tensor records)."""
    out = []
    for r in recs:
        if r.get("record") in ("reshape", "tensor") and r.get("verdict") not in NOT_ERRORS and r.get("name"):
            out.append(r.get("node") or r.get("name"))
    return out


def summary(recs):
    """The summary record of `reshape check --json`."""
    return next((r for r in recs if r.get("record") == "summary"), {})


def judge(fx, errs, run_time, up):
    """'agree', 'decided by a run', 'false alarm', 'missed' or 'wrong node'; run_time holds the nodes
    where reshape names a size only a run decides."""
    refused = [f["name"] for f in fx.get("failed_nodes", [])]
    if fx.get("ok", True):
        return "false alarm" if errs else "agree"
    if not errs and any(n in up.get(r, {r}) for r in refused for n in run_time):
        return "decided by a run"
    if not errs:
        return "missed"
    if not refused:  # refused at load
        return "agree"
    if any(e in up.get(r, {r}) for r in refused for e in errs):
        return "agree"
    return "wrong node"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pattern", nargs="?", default="^zoo_")
    ap.add_argument("--reshape")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    tot = dict(models=set(), bindings=0, tensors=0, wrong=0, undetermined=0, by_data=0, agree=0, by_run=0, warned=0, warnings=0, other=0,
               seq=0, seq_equal=0, seq_wrong=0)
    bad = []
    with reshape_binary(a.reshape) as exe:
        for name, fx in fixtures(a.pattern):
            model = os.path.join(ROOT, fx["model"])
            b = fx["binding"]
            tot["models"].add(fx["model"])
            tot["bindings"] += 1
            bound = compare(fx, run_json(exe, "shapes", fx["model"], b), b)
            bound.fixture = fx
            sym = compare(fx, run_json(exe, "shapes", fx["model"], {}), b)
            tot["tensors"] += bound.compared
            tot["undetermined"] += bound.counts[UNDETERMINED]
            if a.verbose:
                for g, t in bound.missing:
                    print(f"{name}: not printed: {t}")
            for k, v in zip(("seq", "seq_equal", "seq_wrong"), seq_lengths(model, fx, bound.records)):
                tot[k] += v
            up, _ = upstream(model)
            recs = run_json(exe, "check", fx["model"], b)
            errs = error_nodes(recs)
            run_time = [x["node"] for x in summary(recs).get("lost", []) if x.get("run_time")]
            tot["by_data"] += by_data(bound, run_time, up)
            warnings = summary(recs).get("warnings", [])
            tot["warnings"] += len(warnings)
            tot["warned"] += bool(warnings)
            v = judge(fx, errs, run_time, up)
            # The symbolic shapes hold under the stated conditions: they are judged where onnxruntime runs.
            modes = (bound, sym) if fx.get("ok", True) else (bound,)
            wrong = sum(res.counts[CONTRADICTED] for res in modes)
            tot["wrong"] += wrong
            for res in modes:
                for g, t, shape, want, why in res.contradicted:
                    bad.append(f"{name}: WRONG {t}: reshape {shape}, onnxruntime {want} ({why})")
            if a.verbose:
                for g, t, shape, want in ((g, t, r.get("shape"), w) for g, t, w in truth_tensors(fx)
                                          for r in [tensors(bound.records).get((g, t), {})]):
                    if compare_shape(shape, want, b)[0] == UNDETERMINED:
                        print(f"{name}: undetermined {t}: reshape {shape}, onnxruntime {want}")
            if a.verbose:
                for w in warnings:
                    print(f"{name}: warning: {w['node']} ({w['op']}) {w['why']}: meaningful only when {w['holds']}")
            if v in ("agree", "decided by a run"):
                tot["agree"] += 1
                tot["by_run"] += v == "decided by a run"
            else:
                tot["other"] += 1
                refused = [f["name"] for f in fx.get("failed_nodes", [])] or ["load" if not fx.get("ok", True) else "-"]
                bad.append(f"{name}: {v}: reshape errors at {errs or '-'}, onnxruntime refuses at {refused}")
            if a.verbose:
                und = bound.counts[UNDETERMINED]
                print(f"{name:44} {bound.compared:3d} tensors, {wrong} wrong, {und} undetermined, {v}")
    for line in bad:
        print(line)
    t = tot
    print(f"zoo: {len(t['models'])} models, {t['bindings']} bindings, {t['tensors']} tensors: {t['wrong']} wrong, "
          f"{t['undetermined']} undetermined (bound; {t['by_data']} of them by the data); sequence lengths {t['seq_equal']}/{t['seq']} equal, "
          f"{t['seq_wrong']} wrong; run-or-refuse agrees at {t['agree']}/{t['bindings']} ({t['by_run']} decided by a "
          f"run, named), {t['other']} disagreements; {t['warnings']} warnings at {t['warned']} bindings")
    return 1 if t["wrong"] or t["seq_wrong"] or t["other"] else 0


if __name__ == "__main__":
    sys.exit(main())
