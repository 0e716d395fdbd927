#!/usr/bin/python3
"""Cross-check `reshape apply` against numpy's reshape, byte for byte.

For every .npy dtype with an element type (|b1, i1..i8, u1..u8, f2, f4, f8) and every other kind
np.save writes without pickle (complex, bytes, unicode, void, datetimes, structured dtypes with
padding and sub-arrays), both byte orders and both memory orders, it writes an array with numpy,
reshapes it with `reshape apply` and compares the output file with the file numpy writes for
a.reshape(...).copy(order="C") (C order, the dtype and byte order kept). Each array is also
reshaped from stdin to stdout ("-" for IN and OUT). An object array (|O) must be refused. The
padding bytes of an aligned structured dtype are whatever numpy's copies leave there (reshape keeps
the input's): there the header is compared byte for byte and the data by value, field by field.

Usage: bench/apply_vs_numpy.py [path to the reshape binary]   (default: go run ./cmd/reshape)
Needs Debian's python3-numpy; it is a cross-check for developers, not a test dependency.
"""
import os, subprocess, sys, tempfile
import numpy as np

cmd = sys.argv[1:] or ["go", "run", "./cmd/reshape"]
dtypes = ["|b1", "|i1", "|u1", "i2", "u2", "f2", "i4", "u4", "f4", "i8", "u8", "f8",
          "c8", "c16", "|S10", "U2", "|V3", "M8[s]", "m8[ns]",
          [("a", "i4"), ("b", "f8", (2,))],
          np.dtype([("x", "u1"), ("y", "f8"), ("z", "S3")], align=True),  # padding fields
          [("n", [("u", "|u1"), ("v", "U1", (2, 2))]), ("w", "i2")]]
# input shape, pattern, special_zero, the numpy reshape that the pattern means
cases = [
    ((2, 3, 4), "0,-1", True, (2, 12)),
    ((2, 3, 4), "4,-1", False, (4, 6)),
    ((2, 3, 4), "-1", False, (24,)),
    ((6, 4), "2,3,2,2", False, (2, 3, 2, 2)),
    ((3, 1, 4), "1,-1,1", False, (1, 12, 1)),
    ((5,), "1,5", False, (1, 5)),
    ((0, 3), "3,0", False, (3, 0)),
    ((1,), "", False, ()),
]
rng = np.random.default_rng(7)
failed = total = 0
with tempfile.TemporaryDirectory() as d:
    for dt in dtypes:
        for order_char in ("<", ">"):
            if isinstance(dt, str):
                if dt.startswith("|") and order_char == ">":
                    continue
                dtype = np.dtype(dt if dt.startswith("|") else order_char + dt)
            else:
                dtype = np.dtype(dt)
                dtype = dtype if order_char == "<" else dtype.newbyteorder(">")
            for shape, pattern, sz, np_shape in cases:
                for mem in ("C", "F"):
                    n = int(np.prod(shape))
                    if dtype.kind == "b":
                        a = rng.integers(0, 2, n).astype(bool)
                    elif dtype.kind == "f":
                        a = rng.standard_normal(n).astype(dtype)
                    elif dtype.kind in "iu":
                        info = np.iinfo(dtype)
                        a = rng.integers(info.min, info.max, n, dtype=np.int64 if info.min < 0 else np.uint64, endpoint=True)
                    else:  # items are bytes to reshape: any bytes will do
                        a = np.frombuffer(rng.bytes(n * dtype.itemsize), dtype=dtype)
                    a = np.asarray(a, dtype=dtype).reshape(shape, order=mem)
                    a = np.asfortranarray(a) if mem == "F" else np.ascontiguousarray(a)
                    src, got, want = (os.path.join(d, x) for x in ("in.npy", "got.npy", "want.npy"))
                    np.save(src, a)
                    np.save(want, a.reshape(np_shape).copy(order="C"))
                    total += 1
                    r = subprocess.run(cmd + ["apply", "--special-zero=%s" % str(sz).lower(), "--pattern", pattern, src, got],
                                       capture_output=True, text=True)
                    want_bytes = open(want, "rb").read()
                    with open(src, "rb") as stdin:
                        p = subprocess.run(cmd + ["apply", "--special-zero=%s" % str(sz).lower(), "--pattern", pattern, "-", "-"],
                                           stdin=stdin, capture_output=True)
                    ok = r.returncode == 0 and p.returncode == 0
                    if ok and dtype.names and any(name == "" for name, *_ in dtype.descr):  # padding: fields by value
                        head = len(want_bytes) - a.nbytes
                        for out in (open(got, "rb").read(), p.stdout):
                            x, y = (np.frombuffer(b[head:], dtype=dtype) for b in (out, want_bytes))
                            ok = ok and out[:head] == want_bytes[:head] and len(out) == len(want_bytes) and \
                                all(x[f].tobytes() == y[f].tobytes() for f in dtype.names)
                    else:
                        ok = ok and open(got, "rb").read() == want_bytes and p.stdout == want_bytes
                    if not ok:
                        failed += 1
                        print("FAIL", dtype.descr, mem, shape, pattern, r.returncode, r.stderr.strip(), p.returncode, p.stderr.strip())
    # An object array needs pickle: refused, exit 2, nothing written.
    src, got = os.path.join(d, "obj.npy"), os.path.join(d, "obj_out.npy")
    np.save(src, np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    r = subprocess.run(cmd + ["apply", "--special-zero=false", "--pattern", "-1", src, got], capture_output=True, text=True)
    total += 1
    if r.returncode != 2 or "data-type" not in r.stderr or os.path.exists(got):
        failed += 1
        print("FAIL object array:", r.returncode, r.stderr.strip())
print("%d of %d cases agree byte for byte with numpy (each also through stdin and stdout)" % (total - failed, total))
sys.exit(1 if failed else 0)
