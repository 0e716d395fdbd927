#!/usr/bin/python3
"""Cross-check `reshape apply` against numpy's reshape, byte for byte.

For every .npy dtype (|b1, i1..i8, u1..u8, f2, f4, f8), both byte orders and both memory orders, it
writes an array with numpy, reshapes it with `reshape apply` and compares the output file with the
file numpy writes for a.reshape(...).copy(order="C") (C order, the byte order kept).

Usage: bench/apply_vs_numpy.py [path to the reshape binary]   (default: go run ./cmd/reshape)
Needs Debian's python3-numpy; it is a cross-check for developers, not a test dependency.
"""
import os, subprocess, sys, tempfile
import numpy as np

cmd = sys.argv[1:] or ["go", "run", "./cmd/reshape"]
dtypes = ["|b1", "|i1", "|u1", "i2", "u2", "f2", "i4", "u4", "f4", "i8", "u8", "f8"]
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
            if dt.startswith("|") and order_char == ">":
                continue
            dtype = np.dtype(dt if dt.startswith("|") else order_char + dt)
            for shape, pattern, sz, np_shape in cases:
                for mem in ("C", "F"):
                    n = int(np.prod(shape))
                    if dtype.kind == "b":
                        a = rng.integers(0, 2, n).astype(bool)
                    elif dtype.kind == "f":
                        a = rng.standard_normal(n).astype(dtype)
                    else:
                        info = np.iinfo(dtype)
                        a = rng.integers(info.min, info.max, n, dtype=np.int64 if info.min < 0 else np.uint64, endpoint=True)
                    a = np.asarray(a, dtype=dtype).reshape(shape, order=mem)
                    a = np.asfortranarray(a) if mem == "F" else np.ascontiguousarray(a)
                    src, got, want = (os.path.join(d, x) for x in ("in.npy", "got.npy", "want.npy"))
                    np.save(src, a)
                    np.save(want, a.reshape(np_shape).copy(order="C"))
                    total += 1
                    r = subprocess.run(cmd + ["apply", "--special-zero=%s" % str(sz).lower(), "--pattern", pattern, src, got],
                                       capture_output=True, text=True)
                    ok = r.returncode == 0 and open(got, "rb").read() == open(want, "rb").read()
                    if not ok:
                        failed += 1
                        print("FAIL", dtype.str, mem, shape, pattern, r.returncode, r.stderr.strip())
print("%d of %d cases agree byte for byte with numpy" % (total - failed, total))
sys.exit(1 if failed else 0)
