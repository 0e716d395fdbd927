r"""The constraints of `reshape check --json` evaluated over many bindings at once (numpy), for score.py's
redundancy, tautology and fixed-symbol figures.

analyse, box_then_wide and redundancy give a sample's figures: each condition's status, over the sample
and again over the wide box (wide_cols) where the sample may mislead.

bench/grid/predicate.py is the reference: `holds_many` parses a predicate with predicate.py's tokens and
evaluates it on integer columns with the same rules (exact integers; // floors, % takes the divisor's
sign, / is exact; an operation without an integer value makes the comparison that holds it false, and its
negation false too; && false when a term is false, || true when a term is true; a size computed in floating
point, int(F), on whole columns of numpy.float32 or numpy.float64, each operation rounded to its type as
predicate.py rounds it at one binding, and an integer converted as it converts one). `evaluate` checks the
result against predicate.holds at the given check points and falls back to predicate.holds on every
distinct binding of the predicate's own symbols when the two differ or the text is outside this parser's
grammar (a notation predicate.py learnt later): slower, never different.

>>> import numpy as np
>>> cols = {"H": np.arange(1, 9), "W": np.full(8, 4)}
>>> holds_many("H % 4 == 0 || H*W/8 >= 3", cols).tolist()
[False, False, False, True, False, True, False, True]
>>> holds_many("!H/2 == 1", cols).tolist()
[False, False, False, True, False, True, False, True]
>>> holds_many("min(H, W) == 4 && max(H, 2) > 6", cols).tolist()
[False, False, False, False, False, False, True, True]
>>> holds_many("H % 4 in {0, 3} || H in 5..6", cols).tolist(), names("H % 4 in {0, 3} || H in 5..6")
([False, False, True, True, True, True, True, True], ['H'])
>>> evaluate("int(floor(f32(H)*f32(0.5))) >= 2", cols, [0])
(array([False, False, False,  True,  True,  True,  True,  True]), 'vector')
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "grid"))
import predicate  # noqa: E402

FALSE, TRUE, REFUSED = 0, 1, 2


class _Num:
    """Integer values and where they are defined."""

    def __init__(self, v, ok):
        self.v, self.ok = v, ok


class _Float:
    """Floats of one type (a numpy.float32 or numpy.float64 array) and where they are defined."""

    def __init__(self, v, ok):
        self.v, self.ok = v, ok


def _to_float(v, t):
    """Integers v (int64) converted to the float type t as predicate.py converts one, t(int(n)): a Python
    integer goes to float32 through a float64, rounded twice."""
    return v.astype(np.float64).astype(t)


class _Parser:
    def __init__(self, text, cols, n):
        self.text, self.cols, self.n = text, cols, n
        self.toks, self.pos = predicate.tokens(text), 0

    def peek(self):
        return self.toks[self.pos] if self.pos < len(self.toks) else (None, None)

    def take(self):
        self.pos += 1
        return self.toks[self.pos - 1]

    def expect(self, op):
        if self.peek() != ("op", op):
            raise ValueError(f"{self.text!r}: expected {op!r}")
        self.take()

    def boolean(self, v):
        if isinstance(v, _Num):
            raise ValueError(f"{self.text!r}: a predicate must be a comparison, !, && or ||")
        return v

    def number(self, v):
        if not isinstance(v, _Num):
            raise ValueError(f"{self.text!r}: a comparison where a number is expected")
        return v

    def either(self):
        v = self.both()
        while self.peek() == ("op", "||"):
            self.take()
            a, b = self.boolean(v), self.boolean(self.both())
            v = np.where((a == TRUE) | (b == TRUE), TRUE, np.where((a == REFUSED) | (b == REFUSED), REFUSED, FALSE))
        return v

    def both(self):
        v = self.negation()
        while self.peek() == ("op", "&&"):
            self.take()
            a, b = self.boolean(v), self.boolean(self.negation())
            v = np.where((a == FALSE) | (b == FALSE), FALSE, np.where((a == REFUSED) | (b == REFUSED), REFUSED, TRUE))
        return v

    def negation(self):
        if self.peek() == ("op", "!"):
            self.take()
            v = self.boolean(self.negation())
            return np.where(v == REFUSED, REFUSED, 1 - np.minimum(v, 1))
        return self.comparison()

    def comparison(self):
        v = self.sum()
        if self.peek() == ("name", "in"):
            self.take()
            a = self.number(v)
            inside = np.zeros(self.n, bool)
            for lo, hi in predicate._Parser.members(self):
                inside |= (a.v >= lo) & (a.v <= hi)
            return np.where(a.ok, inside.astype(np.int8), REFUSED)
        kind, op = self.peek()
        if kind == "op" and op in ("==", "!=", "<", "<=", ">", ">="):
            self.take()
            a, b = self.number(v), self.number(self.sum())
            c = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
                 ">=": np.greater_equal}[op](a.v, b.v)
            v = np.where(a.ok & b.ok, c.astype(np.int8), REFUSED)
            kind, op = self.peek()
            if kind == "op" and op in ("==", "!=", "<", "<=", ">", ">="):
                raise ValueError(f"{self.text!r}: comparisons do not chain")
        return v

    def sum(self):
        v = self.unary()
        v = self.product(v)
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            a, b = self.number(v), self.number(self.product(self.unary()))
            v = _Num(a.v + b.v if op == "+" else a.v - b.v, a.ok & b.ok)
        return v

    def product(self, v):
        while self.peek() in (("op", "*"), ("op", "//"), ("op", "/"), ("op", "%")):
            op = self.take()[1]
            a, b = self.number(v), self.number(self.unary())
            if op == "*":
                v = _Num(a.v * b.v, a.ok & b.ok)
                continue
            nz = b.v != 0
            d = np.where(nz, b.v, 1)
            if op == "//":
                v = _Num(np.floor_divide(a.v, d), a.ok & b.ok & nz)
            elif op == "%":
                v = _Num(np.mod(a.v, d), a.ok & b.ok & nz)
            else:
                v = _Num(np.floor_divide(a.v, d), a.ok & b.ok & nz & (np.mod(a.v, d) == 0))
        return v

    def unary(self):
        if self.peek() == ("op", "-"):
            self.take()
            a = self.number(self.unary())
            return _Num(-a.v, a.ok)
        if self.peek() == ("op", "+"):
            self.take()
            return self.number(self.unary())
        return self.primary()

    def primary(self):
        kind, v = self.peek()
        if kind is None:
            raise ValueError(f"{self.text!r}: unexpected end")
        self.take()
        if kind == "int":
            return _Num(np.full(self.n, v, np.int64), np.ones(self.n, bool))
        if kind == "name" and v in ("min", "max") and self.peek() == ("op", "("):
            self.take()
            a = self.number(self.sum())
            self.expect(",")
            b = self.number(self.sum())
            self.expect(")")
            return _Num((np.minimum if v == "min" else np.maximum)(a.v, b.v), a.ok & b.ok)
        if kind == "name" and v == "int" and self.peek() == ("op", "("):
            self.take()
            f = self.fsum()
            self.expect(")")
            with np.errstate(all="ignore"):
                ok = f.ok & np.isfinite(f.v)
                t = np.trunc(np.where(ok, f.v, 0))
            if (np.abs(t) >= 2.0 ** 63).any():
                raise ValueError(f"{self.text!r}: int(...) past int64, one binding at a time")
            return _Num(t.astype(np.int64), ok)
        if kind == "name" and v in predicate.FUNCTIONS and self.peek() == ("op", "("):
            raise ValueError(f"{self.text!r}: {v}(...) is computed in floating point, inside int(...)")
        if kind == "name":
            if v not in self.cols:
                raise predicate.Unbound(v)
            return _Num(np.asarray(self.cols[v], np.int64), np.ones(self.n, bool))
        if (kind, v) == ("op", "("):
            x = self.either()
            self.expect(")")
            return x
        raise ValueError(f"{self.text!r}: unexpected {v!r}")

    # Floats: predicate.py's grammar and rules, each operation on a whole array of one type, rounded to
    # it; where an operand is undefined, so is the result.

    def fsum(self):
        v = self.fproduct()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            v = self.fop(v, self.fproduct(), np.add if op == "+" else np.subtract)
        return v

    def fproduct(self):
        v = self.funary()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            v = self.fop(v, self.funary(), np.multiply if op == "*" else np.divide)
        return v

    def fop(self, a, b, f):
        if a.v.dtype != b.v.dtype:
            raise ValueError(f"{self.text!r}: floats of different types")
        with np.errstate(all="ignore"):
            return _Float(f(a.v, b.v).astype(a.v.dtype), a.ok & b.ok)

    def funary(self):
        if self.peek() == ("op", "-"):
            self.take()
            v = self.funary()
            return _Float(-v.v, v.ok)
        return self.fprimary()

    def fprimary(self):
        kind, v = self.take() if self.pos < len(self.toks) else (None, None)
        if (kind, v) == ("op", "("):
            x = self.fsum()
            self.expect(")")
            return x
        if kind != "name" or self.peek() != ("op", "(") or v not in predicate._FLOAT_TYPES and v not in predicate._FLOAT_CALLS:
            raise ValueError(f"{self.text!r}: want a float: f32(...), f64(...), min, max, floor, ceil, round, sqrt")
        self.take()
        if v in predicate._FLOAT_TYPES:
            x = self.converted(predicate._FLOAT_TYPES[v])
        elif v in ("min", "max"):
            a = self.fsum()
            self.expect(",")
            x = self.fop(a, self.fsum(), predicate._FLOAT_CALLS[v])
        else:
            a = self.fsum()
            with np.errstate(all="ignore"):
                x = _Float(predicate._FLOAT_CALLS[v](a.v).astype(a.v.dtype), a.ok)
        self.expect(")")
        return x

    def converted(self, t):
        """What f32(...) or f64(...) converts: a decimal constant, a float, or an integer expression."""
        at = self.pos
        sign = 1
        if self.peek() == ("op", "-"):
            self.take()
            sign = -1
        kind, v = self.peek()
        if kind == "float":
            self.take()
            if self.peek() == ("op", ")"):
                return _Float(np.full(self.n, t(sign * float(v))), np.ones(self.n, bool))
        self.pos = at
        try:
            x = self.fsum()
            if self.peek() == ("op", ")"):
                return _Float(x.v.astype(t), x.ok)
        except ValueError:
            pass
        self.pos = at
        n = self.number(self.sum())
        return _Float(_to_float(n.v, t), n.ok)


def holds_many(text, cols):
    """A bool array: whether text holds at each binding of cols (symbol -> integer array, all of one
    length). Raises predicate.Unbound and ValueError as predicate.holds does."""
    n = len(next(iter(cols.values()))) if cols else 1
    p = _Parser(text, cols, n)
    v = p.boolean(p.either())
    if p.pos != len(p.toks):
        raise ValueError(f"{text!r}: unexpected {p.toks[p.pos][1]!r}")
    return np.asarray(v) == TRUE


def names(text):
    """The symbol names a predicate reads (predicate.py's tokens; min, max, int and the float functions
    are functions, in before a range or a set is a membership)."""
    toks = predicate.tokens(text)
    return sorted({v for i, (k, v) in enumerate(toks) if k == "name"
                   and not (v in predicate.FUNCTIONS and i + 1 < len(toks) and toks[i + 1] == ("op", "("))
                   and not (v == "in" and i + 1 < len(toks) and toks[i + 1][0] in ("int", "op") and toks[i + 1][1] != "(")})


def scalar(text, cols):
    """predicate.holds at every distinct binding of the symbols text names, spread back over cols."""
    syms = [s for s in names(text) if s in cols]
    missing = [s for s in names(text) if s not in cols]
    if missing:
        raise predicate.Unbound(missing[0])
    if not syms:
        return np.full(len(next(iter(cols.values()))), predicate.holds(text, {}))
    keys = np.stack([np.asarray(cols[s], np.int64) for s in syms], 1)
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    vals = np.array([predicate.holds(text, dict(zip(syms, map(int, row)))) for row in uniq])
    return vals[inv.reshape(-1)]


def evaluate(text, cols, check):
    """(bool array over cols, how): the vectorized result where it equals predicate.holds at every row
    index in check, else predicate.holds itself ("scalar"). Raises predicate.Unbound and ValueError."""
    try:
        v = holds_many(text, cols)
    except ValueError:
        return scalar(text, cols), "scalar"
    for i in check:
        b = {s: int(c[i]) for s, c in cols.items()}
        if predicate.holds(text, b) != bool(v[i]):
            return scalar(text, cols), "scalar"
    return v, "vector"


def box_cols(syms, box):
    """Every binding of box ({symbol: (lo, hi)}, both ends in) as columns {symbol: int64 array}, in syms' order."""
    mesh = np.meshgrid(*[np.arange(box[s][0], box[s][1] + 1) for s in syms], indexing="ij")
    return {s: a.reshape(-1).astype(np.int64) for s, a in zip(syms, mesh)}


WIDE_GRID = 1 << 20
WIDE_SLAB = 1 << 18
WIDE_LONG = 4096
WIDE_DRAWS = 4096
WIDE_MAX = 1 << 16


def wide_cols(syms, box, holding=None):
    """The wide box: every binding of a cube from each symbol's least value, as long on every axis as
    WIDE_GRID allows (never shorter than the box); per symbol, a slab where it runs to WIDE_LONG and the
    others as far as WIDE_SLAB allows (a product equal to a constant holds at a large value of one symbol
    and small ones of the others); then WIDE_DRAWS bindings drawn log-uniformly up to WIDE_MAX per symbol
    (seeded; small enough that no product of three symbols leaves int64). Returns the columns, the
    indices of the draws, which analyse checks against predicate.holds, and the bindings it evaluates
    exactly: per symbol, the values about 2**31, 2**32, 2**62 (the end of torch's open slices,
    4611686018427387904) and 2**63-1, the others 1..3, and, given holding (a binding where every
    condition holds), the others at its values: a bound at 2**31 of one symbol is redundant only where
    it never fails while the others hold, which they may not at 1..3 (a Conv's H >= 5)."""
    k = len(syms)
    side = int(round(WIDE_GRID ** (1 / k)))
    parts = [box_cols(syms, {s: (box[s][0], max(box[s][1], box[s][0] + side - 1)) for s in syms})]
    if k > 1:
        short = int(round((WIDE_SLAB / WIDE_LONG) ** (1 / (k - 1))))
        for s in syms:
            parts.append(box_cols(syms, {t: (box[t][0], max(box[t][1], box[t][0] + (WIDE_LONG if t == s else short) - 1))
                                         for t in syms}))
    rng = np.random.default_rng(0)
    parts.append({s: np.exp(rng.uniform(np.log(max(box[s][0], 1)), np.log(WIDE_MAX), size=WIDE_DRAWS)).astype(np.int64)
                  for s in syms})
    cols = {s: np.concatenate([p[s] for p in parts]) for s in syms}
    n = len(cols[syms[0]])
    huge = [v + d for v in (1 << 31, 1 << 32, 1 << 62) for d in range(-6, 7)] + [(1 << 63) - 1 - d for d in range(4)]
    small = box_cols(syms, {s: (max(box[s][0], 1), max(box[s][0], 1) + 2) for s in syms})
    others = [{t: int(small[t][i]) for t in syms} for i in range(len(small[syms[0]]))] + ([holding] if holding else [])
    exact = {s: [] for s in syms}
    for s in syms:
        for v in huge:
            for row in others:
                for t in syms:
                    exact[t].append(v if t == s else row[t])
    return cols, list(range(n - WIDE_DRAWS, n, 8)), {s: np.array(v, np.int64) for s, v in exact.items()}


def analyse(conditions, cols, check, syms, exact=None):
    """Per condition: tautology, redundant (and implied by one condition on the same symbols: "weaker"),
    needed or unevaluable; the symbols the conditions fix; whether any binding of the sample satisfies all,
    and the first that does ({symbol: value}, None where none does).
    exact: more bindings (columns like cols) that predicate.holds evaluates one by one, in Python's
    integers: sizes whose products leave int64."""
    n = len(next(iter(cols.values()))) if cols else 1
    rng = np.random.default_rng(0)
    extra = list(rng.integers(0, n, size=min(64, n)))
    evals, how = [], []
    for c in conditions:
        try:
            v, h = evaluate(c["holds"], cols, check + extra) if cols else (
                np.array([predicate.holds(c["holds"], {})]), "scalar")
            if exact:
                v = np.concatenate([v, scalar(c["holds"], exact)])
            evals.append(v)
            how.append(h)
        except (predicate.Unbound, ValueError) as e:
            evals.append(None)
            how.append(f"unevaluable: {type(e).__name__}: {e}")
    ok = [i for i, v in enumerate(evals) if v is not None]
    status = {}
    if ok:
        mat = np.stack([evals[i] for i in ok])
        nfail = (~mat).sum(0)
        for row, i in enumerate(ok):
            fails = ~mat[row]
            if not fails.any():
                status[i] = "tautology"
            elif not (fails & (nfail == 1)).any():
                weaker = [j for r2, j in enumerate(ok) if j != i and not (mat[r2] & fails).any()
                          and set(names(conditions[j]["holds"])) == set(names(conditions[i]["holds"]))]
                status[i] = f"redundant: weaker than #{weaker[0]}" if weaker else "redundant"
            else:
                status[i] = "needed"
        all_hold = nfail == 0
    else:
        all_hold = np.ones(n, bool)
    for i, v in enumerate(evals):
        if v is None:
            status[i] = how[i]
    if exact:
        cols = {k: np.concatenate([cols[k], exact[k]]) for k in cols}
        if not ok:
            all_hold = np.ones(len(next(iter(cols.values()))), bool)
    fixed = []
    satisfiable = bool(all_hold.any())
    if satisfiable:
        for s in syms:
            if len(np.unique(cols[s])) > 1 and len(np.unique(cols[s][all_hold])) == 1:
                fixed.append(s)
    first = int(np.argmax(all_hold)) if satisfiable else None
    holding = {s: int(cols[s][first]) for s in syms} if first is not None else None
    return [status[i] for i in range(len(conditions))], fixed, satisfiable, holding


def box_then_wide(conditions, cols, check, syms, box, again):
    """analyse over the sample (cols, check), then, where again(status, fixed) says the sample may mislead,
    over the wide box (wide_cols, with the sample's first binding where every condition holds): (status,
    fixed, satisfiable, wide status, wide fixed), the wide ones the sample's where it was not tried."""
    status, fixed, satisfiable, holding = analyse(conditions, cols, check, syms)
    wide, wfixed = status, fixed
    if again(status, fixed):
        wcols, draws, exact = wide_cols(syms, box, holding)
        wide, wfixed, _, _ = analyse(conditions, wcols, draws, syms, exact)
    return status, fixed, satisfiable, wide, wfixed


def redundancy(status, wide):
    """The counts of box_then_wide's statuses: tautologies and redundant (tautologies among them) over the
    wide box; box_tautologies and box_redundant, those that only the sample shows."""
    def count(sts, redundant):
        return sum(st == "tautology" or redundant and st.startswith("redundant") for st in sts)
    out = dict(tautologies=count(wide, False), redundant=count(wide, True))
    out["box_tautologies"] = count(status, False) - out["tautologies"]
    out["box_redundant"] = count(status, True) - out["redundant"]
    return out
