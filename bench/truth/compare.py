#!/usr/bin/python3
"""Compare `reshape shapes` with onnxruntime: every tensor of every truth fixture of testdata/truth/.

For each fixture (one model at one binding of its symbols, recorded by truth.py) this runs
`reshape shapes --json` on the fixture's model twice:

  bound     with --dim SYM=N for every symbol of the fixture's binding: every shape must equal
            onnxruntime's (a dim left undetermined is counted as such, a different one contradicts);
  symbolic  with no binding: every dim, an integer, an expression in the model's symbols or an interval,
            evaluated at the fixture's binding must give onnxruntime's dim, or stay undetermined
            ('?', an interval holding the true dim, an expression in symbols the binding lacks). The
            shapes hold under the stated conditions: where the bound run reports an error (the binding
            breaks a condition), a symbolic shape that contradicts onnxruntime's is undetermined.

Compared are the fixture's tensors of the main graph (graph inputs and node outputs) and of the If
branches onnxruntime took ("branches": the records of `reshape shapes` whose graph is the branch's path).
A tensor is equal (bound: every dim an integer, equal to onnxruntime's; symbolic: every dim an integer or
an expression that evaluates to onnxruntime's, at least one an expression), undetermined (no dim
contradicts, some dim is not determined), or contradicted: a different rank, an integer or an expression
that gives another value, an interval without the true dim. A contradiction is an engine bug.

  cd REPO && /usr/bin/python3 bench/truth/compare.py [--reshape BIN] [-v] [REGEXP]

REGEXP selects fixtures by file name. The reshape binary is built once (go build ./cmd/reshape) into a
temporary directory, unless --reshape names one. Exit status: 0 when nothing is contradicted, 1 on any
contradiction, 2 when a model cannot be run.
"""
import argparse
import contextlib
import glob
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "grid"))
import predicate  # noqa: E402  (bench/grid/predicate.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TRUTH = os.path.join(ROOT, "testdata", "truth")

EQUAL_BOUND, EQUAL_SYMBOLIC = "equal bound", "equal symbolic"
UNDETERMINED, CONTRADICTED = "undetermined", "contradicted"
KINDS = (EQUAL_BOUND, EQUAL_SYMBOLIC, UNDETERMINED, CONTRADICTED)


class ToolError(Exception):
    """reshape could not run on a model, or printed what this script cannot read."""


# --- the dim notation of `reshape shapes` (package sym): integers, names, + - * // / ( ), intervals, ? ---

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_.:]*)|(//|[-+*/(),]))")


class Unbound(Exception):
    """An expression names a symbol the binding does not give."""


def tokens(text):
    out, i = [], 0
    text = text.rstrip()
    while i < len(text):
        m = _TOKEN.match(text, i)
        if not m:
            raise ValueError(f"{text!r}: unexpected {text[i:]!r}")
        if m.group(1):
            out.append(("int", int(m.group(1))))
        else:
            out.append(("name", m.group(2)) if m.group(2) else ("op", m.group(3)))
        i = m.end()
    return out


def evaluate(text, binding):
    """The value of an expression of the notation at binding, as a Fraction (exact quotients stay exact).
    Raises Unbound for a symbol the binding lacks, ZeroDivisionError, ValueError on bad syntax. A size
    computed in floating point (int(...)) is bench/grid/predicate.py's to evaluate."""
    if "int(" in text:
        try:
            v = predicate.value(text, binding)
        except predicate.Unbound as e:
            raise Unbound(str(e)) from e
        if v is predicate.UNDEFINED:
            raise ZeroDivisionError(text)
        return v
    toks = tokens(text)
    pos = 0

    def peek():
        return toks[pos] if pos < len(toks) else (None, None)

    def take():
        nonlocal pos
        pos += 1
        return toks[pos - 1]

    def expr():
        v = term()
        while peek() in (("op", "+"), ("op", "-")):
            op = take()[1]
            v = v + term() if op == "+" else v - term()
        return v

    def term():
        v = unary()
        while peek() in (("op", "*"), ("op", "//"), ("op", "/")):
            op = take()[1]
            w = unary()
            if op == "*":
                v = v * w
            elif op == "/":
                v = v / w
            else:
                v = Fraction(math.floor(v / w))
        return v

    def unary():
        if peek() == ("op", "-"):
            take()
            return -unary()
        if peek() == ("op", "+"):
            take()
            return unary()
        return primary()

    def primary():
        kind, v = peek()
        take()
        if kind == "int":
            return Fraction(v)
        if kind == "name" and v in ("min", "max") and peek() == ("op", "("):
            take()
            args = [expr()]
            while peek() == ("op", ","):
                take()
                args.append(expr())
            if peek() != ("op", ")"):
                raise ValueError(f"{text!r}: unbalanced parentheses")
            take()
            return min(args) if v == "min" else max(args)
        if kind == "name":
            if v not in binding:
                raise Unbound(v)
            return Fraction(binding[v])
        if (kind, v) == ("op", "("):
            x = expr()
            if peek() != ("op", ")"):
                raise ValueError(f"{text!r}: unbalanced parentheses")
            take()
            return x
        raise ValueError(f"{text!r}: unexpected {v!r}")

    v = expr()
    if pos != len(toks):
        raise ValueError(f"{text!r}: unexpected {toks[pos][1]!r}")
    return v


def interval(text):
    """(lo, hi) of '?' or 'lo..hi' ('2..', '..8', '-inf..-1'; None for no bound), or None for an expression."""
    if text == "?":
        return (None, None)
    if ".." not in text:
        return None
    lo, hi = text.split("..", 1)
    return (None if lo in ("", "-inf") else int(lo), None if hi == "" else int(hi))


def symbols(text):
    """The symbol names an expression of the notation reads (min and max are functions)."""
    if "int(" in text:
        toks = predicate.tokens(text)
        return {v for i, (kind, v) in enumerate(toks) if kind == "name"
                and not (v in predicate.FUNCTIONS and i + 1 < len(toks) and toks[i + 1] == ("op", "("))}
    return {v for kind, v in tokens(text) if kind == "name" and v not in ("min", "max")}


def determined(d):
    """Whether a dim of `reshape shapes` JSON is determined: an integer or an expression (not '?', not an
    interval)."""
    return isinstance(d, int) or interval(d) is None


def compare_dim(d, want, binding):
    """EQUAL_BOUND (an integer, equal), EQUAL_SYMBOLIC (an expression that gives want at binding),
    UNDETERMINED, or (CONTRADICTED, why)."""
    if isinstance(d, int):
        return EQUAL_BOUND if d == want else (CONTRADICTED, f"{d} != {want}")
    iv = interval(d)
    if iv is not None:
        lo, hi = iv
        if (lo is not None and want < lo) or (hi is not None and want > hi):
            return CONTRADICTED, f"{d} does not hold {want}"
        return UNDETERMINED
    try:
        v = evaluate(d, binding)
    except Unbound:
        return UNDETERMINED
    except ZeroDivisionError:
        return CONTRADICTED, f"{d} divides by zero at the binding"
    if v != want:
        return CONTRADICTED, f"{d} = {v} != {want}"
    return EQUAL_SYMBOLIC


def compare_shape(shape, want, binding):
    """The kind of an inferred shape (JSON: null for a dynamic rank, else a list of dims) against the true
    one, and for CONTRADICTED the reason."""
    if shape is None:
        return UNDETERMINED, ""
    if len(shape) != len(want):
        return CONTRADICTED, f"rank {len(shape)}, true rank {len(want)}"
    kinds, why = set(), []
    for i, (d, w) in enumerate(zip(shape, want)):
        k = compare_dim(d, w, binding)
        if isinstance(k, tuple):
            why.append(f"dim {i}: {k[1]}")
            k = CONTRADICTED
        kinds.add(k)
    if why:
        return CONTRADICTED, "; ".join(why)
    if UNDETERMINED in kinds:
        return UNDETERMINED, ""
    return (EQUAL_SYMBOLIC if EQUAL_SYMBOLIC in kinds else EQUAL_BOUND), ""


# --- running reshape ---

@contextlib.contextmanager
def reshape_binary(given=None):
    """The path of the reshape binary: given, else ./cmd/reshape built once into a temporary directory,
    removed on exit."""
    if given:
        yield given
        return
    with tempfile.TemporaryDirectory(prefix="reshape-truth-") as tmp:
        exe = os.path.join(tmp, "reshape")
        subprocess.run(["go", "build", "-o", exe, "./cmd/reshape"], cwd=ROOT, check=True)
        yield exe


def run_json(exe, cmd, model, binding=None):
    """The JSON Lines records of `reshape CMD --json [--dim ...] MODEL` (run from the repository root).
    Exit status 1 (a mismatch or an error verdict) is a result, not a failure."""
    args = [exe, cmd, "--json"]
    for k, v in sorted((binding or {}).items()):
        args += ["--dim", f"{k}={v}"]
    p = subprocess.run(args + [model], cwd=ROOT, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise ToolError(f"{' '.join(args[1:])} {model}: exit {p.returncode}: {p.stderr.strip()}")
    try:
        return predicate.expand_records([json.loads(line) for line in p.stdout.splitlines() if line.strip()])
    except json.JSONDecodeError as e:
        raise ToolError(f"{' '.join(args[1:])} {model}: {e}") from e


def tensors(records):
    """{(graph path, tensor name): record} of the tensor records of `reshape shapes --json`."""
    out = {}
    for r in records:
        if r.get("record") == "tensor":
            out.setdefault((r.get("graph", ""), r["name"]), r)
    return out


# --- fixtures ---

def fixtures(pattern=None):
    """[(file name, fixture)] of testdata/truth/ (not the onnx112_ figures), sorted, selected by pattern."""
    out = []
    for f in sorted(glob.glob(os.path.join(TRUTH, "*.json"))):
        name = os.path.basename(f)
        if name.startswith("onnx112_") or (pattern and not re.search(pattern, name)):
            continue
        with open(f) as fh:
            out.append((name, json.load(fh)))
    return out


def truth_tensors(fx):
    """[(graph path, tensor name, true shape)] of a fixture: the main graph's, then the branches'."""
    out = [("", n, s) for n, s in fx.get("shapes", {}).items()]
    for b in fx.get("branches", []):
        out += [(b["path"], n, s) for n, s in b["shapes"].items()]
    return out


class Result:
    """What one mode (bound or symbolic) gives over one fixture."""

    def __init__(self):
        self.counts = dict.fromkeys(KINDS, 0)
        self.compared = 0
        self.missing = []  # tensors of the fixture that reshape does not print
        self.contradicted = []  # (graph, name, inferred, true, why)
        self.unsupported = {}
        self.records = []  # the records of reshape shapes --json

    def line(self):
        c = self.counts
        s = (f"{self.compared:5d} compared: {c[EQUAL_BOUND]:5d} equal bound, {c[EQUAL_SYMBOLIC]:5d} equal symbolic, "
             f"{c[UNDETERMINED]:5d} undetermined, {c[CONTRADICTED]:d} contradicted")
        if self.missing:
            s += f"; {len(self.missing)} not printed by reshape"
        return s


def compare(fx, recs, binding):
    """Compares the tensor records recs of one run with fixture fx, expressions evaluated at binding."""
    res = Result()
    res.records = recs
    got = tensors(recs)
    for r in recs:
        if r.get("record") == "summary":
            res.unsupported = r.get("unsupported") or {}
    for graph, name, want in truth_tensors(fx):
        rec = got.get((graph, name))
        if rec is None:
            res.missing.append((graph, name))
            continue
        res.compared += 1
        kind, why = compare_shape(rec.get("shape"), want, binding)
        res.counts[kind] += 1
        if kind == CONTRADICTED:
            res.contradicted.append((graph, name, rec.get("shape"), want, why))
    return res


# The verdicts of `reshape shapes` that are not errors.
NOT_ERRORS = {"inferred", "unknown", "declared", "ok", "mismatch", "stale"}


class Runner:
    """Runs reshape on models, once per (model, binding)."""

    def __init__(self, exe):
        self.exe = exe
        self.memo = {}

    def shapes(self, model, binding):
        key = (model, tuple(sorted(binding.items())))
        if key not in self.memo:
            self.memo[key] = run_json(self.exe, "shapes", model, binding)
        return self.memo[key]

    def fixture(self, fx):
        """{"bound": Result, "symbolic": Result} of a fixture. The symbolic shapes hold under the stated
        conditions: where the bound run reports an error (the binding breaks one), a symbolic shape
        that contradicts onnxruntime's counts as undetermined."""
        b = fx["binding"]
        bound = compare(fx, self.shapes(fx["model"], b), b)
        symbolic = compare(fx, self.shapes(fx["model"], {}), b)
        if any(r.get("record") == "tensor" and r.get("verdict") not in NOT_ERRORS for r in bound.records):
            symbolic.counts[UNDETERMINED] += symbolic.counts[CONTRADICTED]
            symbolic.counts[CONTRADICTED] = 0
            symbolic.contradicted = []
        return {"bound": bound, "symbolic": symbolic}


def one_line(text):
    """An error text on one line."""
    return " ".join((text or "").split()) or "(no error text)"


def shape_text(s):
    return "[...]" if s is None else "[" + ",".join(str(d) for d in s) + "]"


def report(name, fx, results, verbose, out=sys.stdout):
    """Prints a fixture's lines; returns its number of contradictions."""
    if "shapes" not in fx:
        print(f"{name}: no shapes (onnxruntime refused the model: {one_line(fx.get('error'))})", file=out)
        return 0
    bad = 0
    for mode, res in results.items():
        print(f"{name:42} {mode:8} {res.line()}", file=out)
        for graph, tname, shape, want, why in res.contradicted:
            where = f"{graph}: " if graph else ""
            print(f"    CONTRADICTED {where}{tname}: reshape {shape_text(shape)}, "
                  f"onnxruntime {shape_text(want)} ({why})", file=out)
        if verbose:
            for graph, tname in res.missing:
                print(f"    not printed: {graph + ': ' if graph else ''}{tname}", file=out)
        bad += len(res.contradicted)
    for node, outs in refused(fx.get("failed_nodes", []), results.get("bound")):
        print(f"    onnxruntime refused {node}; reshape --dim: {outs or 'no record of it'}", file=out)
    return bad


def refused(failed_nodes, res):
    """[(node path (op), the verdict and shape of each of its outputs in res's run)] of the nodes
    onnxruntime refused (a fixture's failed_nodes)."""
    out = []
    for n in failed_nodes:
        path = f"{n['path']}/{n['name']}" if n.get("path") else n["name"]
        recs = [r for r in (res.records if res else []) if r.get("record") == "tensor" and r.get("node") == path]
        outs = ", ".join(f"{r['name']} {r['verdict']} {shape_text(r.get('shape'))}" for r in recs)
        out.append((f"{path} ({n['op']})", outs))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pattern", nargs="?", help="regexp selecting fixtures by file name")
    ap.add_argument("--reshape", help="the reshape binary (default: build ./cmd/reshape once)")
    ap.add_argument("-v", "--verbose", action="store_true", help="also list the tensors reshape does not print")
    args = ap.parse_args()
    try:
        with reshape_binary(args.reshape) as exe:
            runner = Runner(exe)
            bad = 0
            totals = {"bound": Result(), "symbolic": Result()}
            for name, fx in fixtures(args.pattern):
                model = os.path.join(ROOT, fx["model"])
                if not os.path.exists(model):
                    print(f"{name}: skipped, model {fx['model']} missing")
                    continue
                if "shapes" not in fx:
                    report(name, fx, {}, args.verbose)
                    continue
                results = runner.fixture(fx)
                bad += report(name, fx, results, args.verbose)
                for mode, res in results.items():
                    t = totals[mode]
                    t.compared += res.compared
                    t.missing += res.missing
                    for k in KINDS:
                        t.counts[k] += res.counts[k]
            for mode, t in totals.items():
                print(f"{'total':42} {mode:8} {t.line()}")
            return 1 if bad else 0
    except (ToolError, subprocess.CalledProcessError) as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
