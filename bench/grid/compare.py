#!/usr/bin/python3
"""Compare `reshape check` with onnxruntime over the grids of bindings of testdata/grid/.

For every fixture (a model and the bindings make_grid.py ran it at) and every binding of its symbols:

  bound    `reshape check --json --dim SYM=N ...`: we agree when we report an error (a row whose verdict is
           an error code; mismatch, a disagreement with the model's declarations, is not one, nor
           avoidable, an error of an If branch whose other branch runs) exactly when
           onnxruntime refuses, and our first error names a node onnxruntime refuses or one upstream of
           it (a node its inputs come from, through any number of nodes, or the If or Loop that holds it);
  unbound  `reshape check --json` once per model, without bindings: the summary record's "constraints"
           (and its "limits", conditions that only sizes of 2**31 or more break)
           ([{"holds": PREDICATE, "node", "op", "why"}]) are evaluated at each binding (predicate.py, an
           evaluator of their grammar written apart from the Go code), and "valid" ("always", "when
           constraints hold", "never") read: we agree when some constraint is violated exactly when
           onnxruntime refuses, and the first violated names a node it refuses or one upstream. A violated
           constraint where onnxruntime runs is a false alarm. While check states no constraints, this mode
           predicts "runs" everywhere, and says so.

Bindings that differ only in the values of data inputs (Silero's sample rate, an If on a bool input) form
one binding of the symbols: the model runs there when onnxruntime runs any of them, and is refused when it
refuses all, at any of the nodes it names. A binding onnxruntime refuses at session creation (no node
named: an operator form it does not implement) is counted apart, in neither agreement nor disagreement.

  cd REPO && /usr/bin/python3 bench/grid/compare.py [--reshape BIN] [--strict] [-v] [REGEXP]
  /usr/bin/python3 bench/grid/compare.py --selftest

REGEXP selects fixtures by file name. The reshape binary is built once (go build ./cmd/reshape) into a
temporary directory, unless --reshape names one. Exit status: 0; 1 with --strict when a binding disagrees
in either mode; 2 when reshape cannot run on a model. --selftest runs predicate.py's tests.
"""
import argparse
import doctest
import glob
import importlib.util
import json
import os
import re
import sys

import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GRID = os.path.join(ROOT, "testdata", "grid")
sys.path.insert(0, HERE)
import predicate  # noqa: E402

# bench/truth/compare.py builds the binary and runs it; loaded under another name than this file's.
_spec = importlib.util.spec_from_file_location("truth_compare", os.path.join(ROOT, "bench", "truth", "compare.py"))
truth_compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(truth_compare)

AGREE, MISSED, FALSE, WRONG, SESSION, UNEVALUABLE = \
    "agree", "missed", "false error", "wrong node", "session", "unevaluable"
ERRORLESS = ("ok", "mismatch", "inferred", "unknown", "stale", "avoidable")


class Upstream:
    """The nodes of an ONNX model by path (the paths of `reshape check`: NAME, OP#INDEX for an unnamed
    node, SCOPE/NAME inside a subgraph whose SCOPE is NODEPATH/ATTRIBUTE) and what each depends on."""

    def __init__(self, model):
        self.deps = {}
        self._walk(model.graph, "", [], None)
        self._memo = {}

    def _walk(self, g, scope, outer, container):
        local = {}
        defined = {i.name for i in g.input} | {i.name for i in g.initializer}
        paths = []
        for idx, n in enumerate(g.node):
            name = n.name or f"{n.op_type}#{idx}"
            path = f"{scope}/{name}" if scope else name
            paths.append(path)
            for o in n.output:
                if o:
                    local[o] = path
        frames = [(local, defined)] + outer

        def producer(name):
            for prods, names in frames:
                if name in prods:
                    return prods[name]
                if name in names:
                    return None
            return None

        for n, path in zip(g.node, paths):
            deps = {producer(i) for i in n.input if i}
            for ref in outer_refs(n):
                deps.add(producer(ref))
            if container:
                deps.add(container)
            deps.discard(None)
            self.deps[path] = deps
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    self._walk(a.g, f"{path}/{a.name}", frames, path)

    def of(self, path):
        """The set of path and every node upstream of it."""
        if path in self._memo:
            return self._memo[path]
        seen, todo = {path}, [path]
        while todo:
            for d in self.deps.get(todo.pop(), ()):
                if d not in seen:
                    seen.add(d)
                    todo.append(d)
        self._memo[path] = seen
        return seen


def outer_refs(node):
    """The names the subgraphs of node read without defining them (from the enclosing graphs)."""
    refs = set()
    for a in node.attribute:
        if a.type != onnx.AttributeProto.GRAPH:
            continue
        g = a.g
        defined = {i.name for i in g.input} | {i.name for i in g.initializer}
        for n in g.node:
            refs.update(i for i in n.input if i and i not in defined)
            refs |= {r for r in outer_refs(n) if r not in defined}
            defined.update(o for o in n.output if o)
        refs.update(o.name for o in g.output if o.name not in defined)
    return refs


def full_path(ref):
    return f"{ref['path']}/{ref['node']}" if ref.get("path") else ref["node"]


class Group:
    """The bindings of a fixture that bind the symbols alike: what onnxruntime does at those dims."""

    def __init__(self, dims):
        self.dims, self.variants = dims, []

    @property
    def runs(self):
        return any(v["ok"] for v in self.variants)

    @property
    def session(self):
        return not self.runs and all(v.get("node") is None for v in self.variants)

    def refused(self):
        """Every node path onnxruntime names at these dims (first and others)."""
        out = []
        for v in self.variants:
            for ref in [v] + v.get("also", []):
                if ref.get("node") is not None:
                    out.append(full_path(ref))
        return out

    def label(self):
        return ",".join(f"{k}={v}" for k, v in self.dims.items())


def groups(fixture):
    by = {}
    for b in fixture["bindings"]:
        key = json.dumps(b["dims"], sort_keys=True)
        by.setdefault(key, Group(b["dims"])).variants.append(b)
    return list(by.values())


def judge(group, up, ours, our_node):
    """The verdict at one binding: ours says the model is refused (our_node names where) or runs."""
    if group.session:
        return SESSION, ""
    if group.runs:
        return (AGREE, "") if not ours else (FALSE, f"onnxruntime runs; we name {our_node}")
    refused = group.refused()
    first = group.variants[0]
    theirs = f"{full_path(first) if first.get('node') is not None else refused[0]} ({first.get('op', '')}: " \
             f"{first['error']})"
    if not ours:
        return MISSED, f"onnxruntime refuses at {theirs}"
    if any(our_node in up.of(r) for r in refused):
        return AGREE, ""
    return WRONG, f"we name {our_node}; onnxruntime refuses at {theirs}"


class Tally:
    def __init__(self):
        self.n = {k: 0 for k in (AGREE, MISSED, FALSE, WRONG, SESSION, UNEVALUABLE)}
        self.lines = []

    def add(self, kind, line):
        self.n[kind] += 1
        if kind not in (AGREE, SESSION):
            self.lines.append(line)

    def merge(self, other):
        for k, v in other.n.items():
            self.n[k] += v

    def disagreements(self):
        return self.n[MISSED] + self.n[FALSE] + self.n[WRONG] + self.n[UNEVALUABLE]


def bound_mode(exe, fx, gs, up):
    t = Tally()
    mismatches = 0
    for g in gs:
        recs = truth_compare.run_json(exe, "check", fx["model"], g.dims)
        rows = [r for r in recs if r.get("record") == "reshape"]
        errors = [r for r in rows if r.get("verdict") not in ERRORLESS]
        mismatches += sum(1 for r in rows if r.get("verdict") == "mismatch")
        our = f"{errors[0]['name']} ({errors[0]['op']}: {errors[0]['verdict']})" if errors else None
        kind, why = judge(g, up, bool(errors), errors[0]["name"] if errors else None)
        t.add(kind, f"{g.label()}: {kind}: {why}" + (f" [{our}]" if kind == WRONG else ""))
    return t, mismatches


def unbound_mode(exe, fx, gs, up):
    recs = truth_compare.run_json(exe, "check", fx["model"])
    summary = next((r for r in recs if r.get("record") == "summary"), {})
    constraints = summary.get("constraints")
    if constraints is not None:
        constraints = constraints + (summary.get("limits") or [])  # limits are conditions too
    valid = summary.get("valid")
    # "never": a row is an error without bindings, and the model runs nowhere; the first names where.
    errors = [r["name"] for r in recs if r.get("record") == "reshape" and r.get("verdict") not in ERRORLESS]
    note = None
    if constraints is None:
        note = "no constraints in check --json: unbound mode predicts runs everywhere"
        constraints = []
    t = Tally()
    for g in gs:
        violated, err = None, None
        if valid == "never":
            violated = {"node": errors[0] if errors else "", "holds": "never"}
        for c in constraints if violated is None else []:
            try:
                if not predicate.holds(c["holds"], g.dims):
                    violated = c
                    break
            except (predicate.Unbound, ValueError) as e:
                err = f"{c['holds']!r} at {c.get('node')}: {type(e).__name__}: {e}"
                break
        if err:
            t.add(UNEVALUABLE, f"{g.label()}: {UNEVALUABLE}: {err}")
            continue
        kind, why = judge(g, up, violated is not None, violated["node"] if violated else None)
        label = kind
        if kind == FALSE:
            label, why = "false alarm", f"onnxruntime runs; {violated['holds']} at {violated['node']} does not hold"
        elif kind == WRONG:
            why += f" [{violated['holds']}]"
        t.add(kind, f"{g.label()}: {label}: {why}")
    return t, note, len(constraints), valid


def fixtures(pattern):
    for path in sorted(glob.glob(os.path.join(GRID, "*.json"))):
        name = os.path.basename(path)
        if pattern and not re.search(pattern, name):
            continue
        with open(path) as f:
            yield name, json.load(f)


def row(cells, widths):
    return "  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pattern", nargs="?", help="regexp selecting fixtures by file name")
    ap.add_argument("--reshape", help="the reshape binary (default: build ./cmd/reshape once)")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a binding disagrees in either mode")
    ap.add_argument("--selftest", action="store_true", help="run the predicate evaluator's tests and exit")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every disagreement (default: 3 per model)")
    args = ap.parse_args()
    if args.selftest:
        r = doctest.testmod(predicate)
        print(f"predicate.py: {r.attempted} tests, {r.failed} failed")
        return 1 if r.failed else 0
    head = ["model", "bindings", "refused", "session", "bound agree", "b.missed", "b.false error", "b.wrong node",
            "mismatch rows", "constraints", "unbound agree", "u.missed", "u.false alarm", "u.wrong node",
            "u.unevaluable"]
    widths = [len(h) for h in head]
    widths[0] = 26
    tables, notes, details = [], [], []
    totals = {"bindings": 0, "refused": 0, "mismatch": 0, "constraints": 0}
    tb, tu = Tally(), Tally()
    try:
        with truth_compare.reshape_binary(args.reshape) as exe:
            for name, fx in fixtures(args.pattern):
                if not os.path.exists(os.path.join(ROOT, fx["model"])):
                    print(f"{name}: skipped, model {fx['model']} missing (the shared models are read from ../shared)")
                    continue
                up = Upstream(onnx.load(os.path.join(ROOT, fx["model"])))
                gs = groups(fx)
                b, mism = bound_mode(exe, fx, gs, up)
                u, note, ncons, valid = unbound_mode(exe, fx, gs, up)
                tb.merge(b)
                tu.merge(u)
                refused = sum(1 for g in gs if not g.runs)
                totals["bindings"] += len(gs)
                totals["refused"] += refused
                totals["mismatch"] += mism
                totals["constraints"] += ncons
                model = os.path.splitext(name)[0]
                tables.append([model, len(gs), refused, b.n[SESSION], b.n[AGREE], b.n[MISSED], b.n[FALSE], b.n[WRONG],
                               mism, ncons if valid is not None or ncons else "-", u.n[AGREE], u.n[MISSED], u.n[FALSE],
                               u.n[WRONG], u.n[UNEVALUABLE]])
                if note and note not in notes:
                    notes.append(note)
                for mode, tally in (("bound", b), ("unbound", u)):
                    shown = tally.lines if args.verbose else tally.lines[:3]
                    details += [f"{model} {mode}: {line}" for line in shown]
                    if len(tally.lines) > len(shown):
                        details.append(f"{model} {mode}: ... and {len(tally.lines) - len(shown)} more (-v lists them)")
    except truth_compare.ToolError as e:
        print(f"reshape failed: {e}", file=sys.stderr)
        return 2
    tables.append(["total", totals["bindings"], totals["refused"], tb.n[SESSION], tb.n[AGREE], tb.n[MISSED], tb.n[FALSE],
                   tb.n[WRONG], totals["mismatch"], totals["constraints"], tu.n[AGREE], tu.n[MISSED], tu.n[FALSE],
                   tu.n[WRONG], tu.n[UNEVALUABLE]])
    for r in tables:
        widths = [max(w, len(str(c))) for w, c in zip(widths, r)]
    print(row(head, widths))
    for r in tables:
        print(row(r, widths))
    for n in notes:
        print(f"note: {n}")
    for d in details:
        print(d)
    counted = totals["bindings"] - tb.n[SESSION]
    print(f"bound: {tb.n[AGREE]}/{counted} bindings agree; unbound: {tu.n[AGREE]}/{counted} "
          f"({tu.n[FALSE]} false alarms); {tb.n[SESSION]} refused at session creation, not counted")
    if args.strict and (tb.disagreements() or tu.disagreements()):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
