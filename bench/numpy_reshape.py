#!/usr/bin/env python3
"""Times numpy on the work of bench/compare.sh and prints one line per item: name, value, unit.

view-rank1-1KiB / view-rank1-1GiB: a.reshape(16, -1) of a dense 1-D f32 array (a view), in ns per
call; view-rank4: a.reshape(2, -1, 4) of a dense [2,5,5,24] f32 array.
copy-*: a.reshape(-1) of a transposed (or sliced) 64 MiB array (a copy), in GB/s of output.
memcpy-64MiB: np.copyto of 64 MiB, in GB/s.
"""
import timeit
import numpy as np


def ns_per_call(f, n=200000):
    return min(timeit.repeat(f, number=n, repeat=5)) / n * 1e9


def gbps(f, size, n=5):
    return size / min(timeit.repeat(f, number=n, repeat=3)) * n / 1e9


def filled(dtype, shape):
    a = np.empty(shape, dtype)
    a.view(np.uint8).reshape(-1)[:] = np.arange(a.nbytes, dtype=np.uint64).astype(np.uint8)
    return a


for name, n in (("view-rank1-1KiB", 1 << 8), ("view-rank1-1GiB", 1 << 28)):
    a = np.zeros(n, np.float32)
    print(name, "%.1f" % ns_per_call(lambda: a.reshape(16, -1)), "ns")
    del a
a = np.zeros((2, 5, 5, 24), np.float32)
print("view-rank4", "%.1f" % ns_per_call(lambda: a.reshape(2, -1, 4)), "ns")

size = 64 << 20
cases = (
    ("copy-transposed-f32-64MiB", filled(np.float32, (4096, 4096)).T),
    ("copy-transposed-u8-64MiB", filled(np.uint8, (8192, 8192)).T),
    ("copy-transposed-f16-64MiB", filled(np.float16, (4096, 8192)).T),
    ("copy-transposed-f64-64MiB", filled(np.float64, (2048, 4096)).T),
    ("copy-sliced-f16-64MiB", filled(np.float16, (4096, 16384))[:, :8192]),
)
for name, a in cases:
    print(name, "%.2f" % gbps(lambda: a.reshape(-1), size), "GB/s")
src, dst = filled(np.uint8, size), np.empty(size, np.uint8)
print("memcpy-64MiB", "%.2f" % gbps(lambda: np.copyto(dst, src), size, 20), "GB/s")
