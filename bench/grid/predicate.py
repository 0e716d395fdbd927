r"""An evaluator of the predicates that `reshape check --json` states as constraints, independent of the Go code.

The grammar: the dim notation of `reshape shapes` (integers; symbol names; + - * // / with Python's
precedence, / exact; parentheses), plus % (Python's remainder, the precedence of *), min(a, b) and
max(a, b), the comparisons == != < <= > >=, memberships (E in a..b, both ends included; E in {m, ...}
for integers and ranges m), && (binding tighter than ||), ||, and ! (applying to a whole comparison or
membership: !N == 1 is !(N == 1)). A name is a letter or _ followed by letters, digits, _, . and :;
any other name is written in double quotes (a backslash escapes " and \ inside them).

A size computed in floating point reads int(F): F is f32(E) or f64(E) (an integer expression E, a
decimal constant, or a float of the other type, converted and rounded), and + - * / min max floor ceil
round (half to even) sqrt of floats, each computed in its type and rounded, as numpy.float32 and
numpy.float64 compute them; int truncates toward zero. A float that is no finite integer makes it
undefined.

Arithmetic is on integers, exactly: / is an exact quotient, // floors, % takes the sign of the divisor,
as in Python. An operation that has no integer value at the binding (an exact quotient that does not
divide, a division or remainder by zero) makes the comparison that holds it false, and so its
negation too: the model does not run there, as Go's Pred.Eval says with its error. A conjunction with
a false term is false and a disjunction with a true term true, whatever their other terms.
Comparisons do not chain.

`reshape check` and `shapes` name each such size once (s1 = int(...)): their JSON summary gives the
names in "definitions", and expand() writes each name as its definition again.

>>> holds("N == 1", {"N": 1}), holds("N == 1", {"N": 2})
(True, False)
>>> holds("!N == 1", {"N": 2}), holds("!(N == 1 || N == 2)", {"N": 2})
(True, False)
>>> holds("T % 4 == 0", {"T": 12}), holds("T % 4 == 0", {"T": 13})
(True, False)
>>> value("-7 // 2", {}), value("-7 % 2", {}), value("7 % -2", {}), value("-8 / 2", {})
(Fraction(-4, 1), Fraction(1, 1), Fraction(-1, 1), Fraction(-4, 1))
>>> holds("N/2 == 3", {"N": 7}), holds("N/2 != 3", {"N": 7}), holds("!N/2 == 3", {"N": 7})
(False, False, False)
>>> holds("N != 9 || T >= 7+9/T", {"N": 8, "T": 2}), holds("N == 9 && T >= 7+9/T", {"N": 8, "T": 2})
(True, False)
>>> holds("N % (H - 3) == 1", {"N": 4, "H": 3}), holds("N // (H - 3) < 1 || H == 3", {"N": 4, "H": 3})
(False, True)
>>> value("2 + 3 * 4 - 10 // 3 % 2", {})
Fraction(13, 1)
>>> value("(H+1)//4-2", {"H": 11}), holds("(H+1)//4-2 >= 1", {"H": 10})
(Fraction(1, 1), False)
>>> holds("A == 1 || B == 1 && C == 1", {"A": 1, "B": 2, "C": 2})
True
>>> holds("(A == 1 || B == 1) && C == 1", {"A": 1, "B": 2, "C": 2})
False
>>> value("min(H, W) * max(2, N*T/2)", {"H": 5, "W": 4, "N": 3, "T": 4})
Fraction(24, 1)
>>> value("N*T/2", {"N": 3, "T": 3}) is UNDEFINED
True
>>> holds('"p2o.DynamicDimension.1" >= 32 && "x:0" < "a b"', {"p2o.DynamicDimension.1": 32, "x:0": 1, "a b": 2})
True
>>> holds('input:1 + "s\\"r" != 3', {"input:1": 1, 's"r': 2})
False
>>> holds("N*48 == 48", {"N": 2}), holds("3*H*W <= 2*N", {"H": 1, "W": 1, "N": 2})
(False, True)
>>> holds("H in 217..224", {"H": 224}), holds("H in 217..224", {"H": 225}), holds("!H in 1..3", {"H": 2})
(True, False, False)
>>> holds("H % 32 in {0, 29..31} || H <= 4", {"H": 61}), holds("H % 32 in {0, 29..31}", {"H": 33})
(True, False)
>>> holds("T in {1, 10}", {"T": 10}), holds("N/2 in {1, 2}", {"N": 3}), holds("!N/2 in {1, 2}", {"N": 3})
(True, False, False)
>>> [value("int(floor(f32(H)*min(f32(1)/f32(min(H,W))*f32(320),f32(1)/f32(max(H,W))*f32(640))))", {"H": h, "W": w})
...  for h, w in ((25, 25), (24, 24), (12, 25))]
[Fraction(319, 1), Fraction(320, 1), Fraction(307, 1)]
>>> value("int(round(f64(f32(N))*f64(0.5)))", {"N": 5}), value("int(-f32(N) - (f32(2) - f32(0.25)))", {"N": 1})
(Fraction(2, 1), Fraction(-2, 1))
>>> holds("int(f32(1)/f32(N - 5)) >= 0", {"N": 5})
False
>>> expand('s1 + 2*s12 >= "s1"', {"s1": "int(f32(H)*f32(0.5))", "s12": "int(f32(W))"})
'(int(f32(H)*f32(0.5))) + 2*(int(f32(W))) >= "s1"'
>>> holds(expand("s1 == 12", {"s1": "int(f32(H)*f32(0.5))"}), {"H": 25})
True
>>> holds("A < B < C", {"A": 1, "B": 2, "C": 3})
Traceback (most recent call last):
...
ValueError: 'A < B < C': comparisons do not chain
>>> holds("N + 1", {"N": 1})
Traceback (most recent call last):
...
ValueError: 'N + 1': a predicate must be a comparison, !, && or ||
>>> holds("X == 1", {})
Traceback (most recent call last):
...
predicate.Unbound: X
"""
import math
import re
from fractions import Fraction

import numpy as np

_TOKEN = re.compile(r'\s*(?:(\d+(?:\.\d+(?:[eE][-+]?\d+)?|[eE][-+]?\d+)|\d+\.(?!\.))|(\d+)|([A-Za-z_][A-Za-z0-9_.:]*)|'
                    r'"((?:[^"\\]|\\.)*)"|(//|==|!=|<=|>=|&&|\|\||\.\.|[-+*/%()<>!,{}]))')
_FLOAT_TYPES = {"f32": np.float32, "f64": np.float64}
_FLOAT_CALLS = {"min": np.minimum, "max": np.maximum, "floor": np.floor, "ceil": np.ceil, "round": np.rint,
                "sqrt": np.sqrt}
# The names that are functions before an opening parenthesis, not symbols.
FUNCTIONS = ("min", "max", "int", *_FLOAT_TYPES, *_FLOAT_CALLS)
_COMPARISONS = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


class Unbound(Exception):
    """A predicate names a symbol the binding does not give."""


class _Undefined:
    """The value of an operation that has no integer value at the binding."""

    def __repr__(self):
        return "UNDEFINED"


UNDEFINED = _Undefined()


class _Refused:
    """The value of a comparison that holds an undefined operation: false, and so is its negation."""

    def __repr__(self):
        return "REFUSED"


REFUSED = _Refused()


def tokens(text):
    """The tokens of text: ("int", n), ("name", s) (quoted names unquoted) or ("op", s)."""
    out, i = [], 0
    text = text.rstrip()
    while i < len(text):
        m = _TOKEN.match(text, i)
        if not m:
            raise ValueError(f"{text!r}: unexpected {text[i:].strip()!r}")
        if m.group(1) is not None:
            out.append(("float", m.group(1)))
        elif m.group(2) is not None:
            out.append(("int", int(m.group(2))))
        elif m.group(3) is not None:
            out.append(("name", m.group(3)))
        elif m.group(4) is not None:
            out.append(("name", re.sub(r"\\(.)", r"\1", m.group(4))))
        else:
            out.append(("op", m.group(5)))
        i = m.end()
    return out


class _Parser:
    """A recursive-descent evaluator: each method parses one level of precedence and returns its value,
    a bool for predicates and a Fraction for dims."""

    def __init__(self, text, binding):
        self.text, self.binding = text, binding
        self.toks, self.pos = tokens(text), 0

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
        if not isinstance(v, bool) and v is not REFUSED:
            raise ValueError(f"{self.text!r}: a predicate must be a comparison, !, && or ||")
        return v

    def number(self, v):
        if isinstance(v, bool) or v is REFUSED:
            raise ValueError(f"{self.text!r}: a comparison where a number is expected")
        return v

    def either(self):
        return self.chain("||", self.both, lambda a, b: True if True in (a, b) else REFUSED if REFUSED in (a, b) else False)

    def both(self):
        return self.chain("&&", self.negation, lambda a, b: False if False in (a, b) else REFUSED if REFUSED in (a, b) else True)

    def chain(self, op, operand, join):
        """Operands joined by the logical operator op; every operand is evaluated, so that an error in a
        later one is not skipped."""
        v = operand()
        while self.peek() == ("op", op):
            self.take()
            w = operand()
            v = join(self.boolean(v), self.boolean(w))
        return v

    def negation(self):
        if self.peek() == ("op", "!"):
            self.take()
            v = self.boolean(self.negation())
            return v if v is REFUSED else not v
        return self.comparison()

    def comparison(self):
        v = self.sum()
        if self.peek() == ("name", "in"):
            self.take()
            a = self.number(v)
            members = self.members()
            return REFUSED if a is UNDEFINED else any(lo <= a <= hi for lo, hi in members)
        kind, op = self.peek()
        if kind == "op" and op in _COMPARISONS:
            self.take()
            w = self.sum()
            a, b = self.number(v), self.number(w)
            v = REFUSED if UNDEFINED in (a, b) else _COMPARISONS[op](a, b)
            kind, op = self.peek()
            if kind == "op" and op in _COMPARISONS:
                raise ValueError(f"{self.text!r}: comparisons do not chain")
        return v

    def members(self):
        """The members after in: a range a..b, or a set {m, ...} of integers and ranges a..b; as a list
        of (lo, hi)."""
        def integer():
            sign = 1
            if self.peek() == ("op", "-"):
                self.take()
                sign = -1
            kind, v = self.take() if self.pos < len(self.toks) else (None, None)
            if kind != "int":
                raise ValueError(f"{self.text!r}: in takes integers")
            return sign * v

        def member(single):
            lo = integer()
            if self.peek() != ("op", ".."):
                if not single:
                    raise ValueError(f"{self.text!r}: in takes a range a..b or a set {{...}}")
                return lo, lo
            self.take()
            hi = integer()
            if hi < lo:
                raise ValueError(f"{self.text!r}: an empty range {lo}..{hi}")
            return lo, hi

        if self.peek() != ("op", "{"):
            return [member(False)]
        self.take()
        out = [member(True)]
        while self.peek() == ("op", ","):
            self.take()
            out.append(member(True))
        self.expect("}")
        return out

    def sum(self):
        v = self.product()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            a, b = self.number(v), self.number(self.product())
            if UNDEFINED in (a, b):
                v = UNDEFINED
            else:
                v = a + b if op == "+" else a - b
        return v

    def product(self):
        v = self.unary()
        while self.peek() in (("op", "*"), ("op", "//"), ("op", "/"), ("op", "%")):
            op = self.take()[1]
            a, b = self.number(v), self.number(self.unary())
            if UNDEFINED in (a, b) or op != "*" and b == 0 or op == "/" and a % b != 0:
                v = UNDEFINED
            elif op == "*":
                v = a * b
            elif op == "/":
                v = a / b
            elif op == "//":
                v = Fraction(math.floor(a / b))
            else:
                v = a - b * math.floor(a / b)
        return v

    def unary(self):
        if self.peek() == ("op", "-"):
            self.take()
            v = self.number(self.unary())
            return v if v is UNDEFINED else -v
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
            return Fraction(v)
        if kind == "name" and v == "int" and self.peek() == ("op", "("):
            self.take()
            f = self.fsum()
            self.expect(")")
            if f is UNDEFINED or not np.isfinite(f):
                return UNDEFINED
            return Fraction(int(f))
        if kind == "name" and v in ("min", "max") and self.peek() == ("op", "("):
            self.take()
            a = self.number(self.sum())
            self.expect(",")
            b = self.number(self.sum())
            self.expect(")")
            if UNDEFINED in (a, b):
                return UNDEFINED
            return min(a, b) if v == "min" else max(a, b)
        if kind == "name":
            if v not in self.binding:
                raise Unbound(v)
            return Fraction(self.binding[v])
        if (kind, v) == ("op", "("):
            x = self.either()
            self.expect(")")
            return x
        raise ValueError(f"{self.text!r}: unexpected {v!r}")

    # Floats: numpy scalars of one type, each operation rounded to it; UNDEFINED propagates.

    def fsum(self):
        v = self.fproduct()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            w = self.fproduct()
            v = UNDEFINED if UNDEFINED in (v, w) else self.fop(v, w, (lambda a, b: a + b) if op == "+" else (lambda a, b: a - b))
        return v

    def fproduct(self):
        v = self.funary()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            w = self.funary()
            v = UNDEFINED if UNDEFINED in (v, w) else self.fop(v, w, (lambda a, b: a * b) if op == "*" else (lambda a, b: a / b))
        return v

    def fop(self, a, b, f):
        if type(a) is not type(b):
            raise ValueError(f"{self.text!r}: floats of different types")
        with np.errstate(all="ignore"):
            return type(a)(f(a, b))

    def funary(self):
        if self.peek() == ("op", "-"):
            self.take()
            v = self.funary()
            return v if v is UNDEFINED else -v
        return self.fprimary()

    def fprimary(self):
        kind, v = self.take() if self.pos < len(self.toks) else (None, None)
        if (kind, v) == ("op", "("):
            x = self.fsum()
            self.expect(")")
            return x
        if kind != "name" or self.peek() != ("op", "(") or v not in _FLOAT_TYPES and v not in _FLOAT_CALLS:
            raise ValueError(f"{self.text!r}: want a float: f32(...), f64(...), min, max, floor, ceil, round, sqrt")
        self.take()
        if v in _FLOAT_TYPES:
            x = self.converted(_FLOAT_TYPES[v])
        elif v in ("min", "max"):
            a = self.fsum()
            self.expect(",")
            b = self.fsum()
            x = UNDEFINED if UNDEFINED in (a, b) else self.fop(a, b, _FLOAT_CALLS[v])
        else:
            a = self.fsum()
            with np.errstate(all="ignore"):
                x = a if a is UNDEFINED else type(a)(_FLOAT_CALLS[v](a))
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
                return t(sign * float(v))
        self.pos = at
        try:
            x = self.fsum()
            if self.peek() == ("op", ")"):
                return x if x is UNDEFINED else t(x)
        except ValueError:
            pass
        self.pos = at
        n = self.number(self.sum())
        return n if n is UNDEFINED else t(int(n))

    def parse(self, top):
        v = top()
        if self.pos != len(self.toks):
            raise ValueError(f"{self.text!r}: unexpected {self.toks[self.pos][1]!r}")
        return v


_NAME_OR_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_.:]*')


def expand(text, definitions):
    """text with each name that definitions gives (the "definitions" of a JSON summary of reshape check or
    shapes: a size computed in floating point, named once) replaced by its definition in parentheses; a
    quoted symbol name stays as it is. text itself when definitions is empty."""
    if not definitions:
        return text
    return _NAME_OR_QUOTED.sub(lambda m: f"({definitions[m.group(0)]})" if m.group(0) in definitions else m.group(0), text)


# The keys of records whose strings name things (files, nodes, tensors) or are the definitions.
_NAMES_KEYS = {"definitions", "file", "node", "nodes", "name", "tensor", "op", "graph", "record"}


def expand_records(records):
    """The records of reshape check --json or shapes --json with every string expanded (expand) by the
    definitions of their summary record: what a script that evaluates dims and conditions reads. A
    condition that changes keeps its text as written in "holds_written"."""
    defs = next((r.get("definitions") for r in records if r.get("record") == "summary"), None)
    if not defs:
        return records

    def walk(v):
        if isinstance(v, str):
            return expand(v, defs)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            out = {k: (x if k in _NAMES_KEYS else walk(x)) for k, x in v.items()}
            if isinstance(v.get("holds"), str) and out["holds"] != v["holds"]:
                out["holds_written"] = v["holds"]
            return out
        return v
    return [walk(r) for r in records]


def holds(text, binding):
    """Whether the predicate text holds at binding (symbol name -> int): False where an operation it
    needs has no integer value there. Raises Unbound for a symbol the binding lacks, and ValueError for
    text outside the grammar."""
    p = _Parser(text, binding)
    return p.boolean(p.parse(p.either)) is True


def value(text, binding):
    """The value of the dim expression text at binding, an integer as a Fraction, or UNDEFINED where an
    operation has no integer value (an exact quotient that does not divide, a division by zero)."""
    p = _Parser(text, binding)
    return p.number(p.parse(p.sum))
