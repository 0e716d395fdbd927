#!/usr/bin/python3
"""Random small ONNX models over two or three symbols, for checking the conditions of `reshape check`.

  /usr/bin/python3 bench/random/gen.py [--count 300] [--seed 0] [--out /tmp/randmodels]

Writes OUT/models/NAME.onnx and OUT/meta.json: per model its input (`x`, dims with the symbols), the
box of bindings the truth covers ({symbol: [lo, hi]}) and the blocks it was made of. Each model is a
chain of blocks over one float32 input, either `[N,C,H,W]` (2-D: N 1..2, H 1..40, W 1..24) or
`[B,C,T]` (1-D: B 1..3, T 1..160), C from 1 to 4, opset 13, made with onnx.helper:

  conv      Conv: kernel 1..5, stride 1..3, pads (sometimes uneven), dilation 1..2, or auto_pad
  convT     ConvTranspose: kernel 2..4, stride 1..3, pads, output_padding below the stride
  maxpool   MaxPool: kernel 2..3, stride, pads, dilation, ceil_mode, or auto_pad
  avgpool   AveragePool: kernel, stride, pads, ceil_mode, count_include_pad
  pad       Pad reflect, edge or constant (constant: sometimes negative, a crop) on the spatial axes
  slice     Slice of one spatial axis with a start, an end and a step (negative ones too)
  unet      a skip: MaxPool or a strided Conv, Resize back up by the stride, Concat with the input
  addbc     Add of two branches that broadcast: a ReduceMean over one axis, or a strided Conv
            brought back up by Resize
  window    Swin's window partition: the pattern [N, C, H/w, w, W/w, w] computed from Shape (Gather,
            Div, Concat), Reshape, Transpose, Reshape to [-1, C, w, w] and back to [N', C, w, w*?]
  s2d, d2s  SpaceToDepth, DepthToSpace (PixelShuffle) by 2
  resize    Resize by a constant scale (2, 3 or 1/2), nearest
  split     Split of a spatial axis in halves (no sizes) or by the sizes of the export binding
  gather    Gather of a constant index (a one-element vector) on a spatial axis
  head      last block, sometimes: GlobalAveragePool; Flatten into a MatMul whose weight has the
            export binding's size (baked); Reshape by a constant pattern [N_export, -1] into such a MatMul

From --seed 1 on, the blocks of WIDE join them (each function's docstring says what it makes): Resize
by sizes and per-axis integer scales, ConvTranspose with output_padding, Gather and GatherElements of
constant indices, Split in thirds or by computed sizes, Expand and Tile, Transpose, Reduce* with
keepdims 0 or 1, SpaceToDepth/DepthToSpace by 3, Flatten and back, Squeeze/Unsqueeze, Where, attention
(MatMul of viewed branches), Einsum and torch's view; seed 0 draws the same models as before.
From --seed 2 on, the blocks of WIDE2 join them too (patterns real exporters write: squeeze-excite,
adaptive pooling, unflatten, chunk, pixel and channel shuffles, interpolate to a branch's Shape,
'same' and grouped Conv stacks, LSTM/GRU, Range/CumSum, NonZero, TopK, If and Loop over Shape), and
a third layout, `[N,C,T,H,W]` (N 1..2, T 1..12, H 1..12, W 1..10), draws from those that keep any
rank; seeds 0 and 1 draw the same models as before.
From --seed 3 on, the blocks of WIDE3 join them too (transformer, detection and audio exporters:
multi-head attention with 0-copies and -1, Swin's windows, Transpose-Reshape round trips, Pad, Tile,
Slice and Reshape patterns from Shape arithmetic, axes as inputs, Einsum, Where on Shape values,
Resize by scales or sizes, ConvTranspose's output_shape, SpaceToDepth-DepthToSpace), and each model
is at opset 11, 13 or 17; seeds 0, 1 and 2 draw the same models as before.

The baked sizes are the shapes onnx's shape inference gives at the export binding (N 1 or 2, H and W
or T from the box). Zero-filled inputs decide nothing here: every size is a shape's. Seeded: the same
--seed gives the same files.
"""
import argparse
import json
import os
import random

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper, shape_inference

OPSET = 13
BOX2 = {"N": [1, 2], "H": [1, 40], "W": [1, 24]}
BOX1 = {"B": [1, 3], "T": [1, 160]}
BOX3 = {"N": [1, 2], "T": [1, 12], "H": [1, 12], "W": [1, 10]}
BIG = 2**62


class Builder:
    def __init__(self, rng, rank):
        self.rng = rng
        self.rank = rank  # spatial rank
        self.nodes, self.inits = [], []
        self.n = 0
        self.blocks = []
        self.opset = OPSET

    def name(self, prefix):
        self.n += 1
        return f"{prefix}_{self.n}"

    def const(self, arr, prefix="c"):
        nm = self.name(prefix)
        self.inits.append(numpy_helper.from_array(np.asarray(arr), nm))
        return nm

    def node(self, op, inputs, n_out=1, **attrs):
        nm = self.name(op)
        outs = [f"{nm}_o{i}" for i in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=nm, **attrs))
        return outs if n_out > 1 else outs[0]

    def weight(self, cout, cin, ks):
        return self.const(self.rng_np.standard_normal([cout, cin] + ks).astype(np.float32), "w")


def pick(rng, *xs):
    return rng.choice(xs)


def spatial_axes(b):
    return list(range(2, 2 + b.rank))


def kernel(rng, b, lo, hi):
    k = rng.randint(lo, hi)
    return [k if rng.random() < 0.7 else rng.randint(lo, hi) for _ in range(b.rank)]


def pads_for(rng, b, ks, limit=None):
    out = []
    for k in ks:
        hi = k // 2 if limit is None else limit(k)
        p = rng.randint(0, max(hi, 0))
        out.append(p)
    ends = [p if rng.random() < 0.7 else rng.randint(0, max(p, 1)) for p in out]
    return out + ends


def conv(rng, b, x, c):
    ks = kernel(rng, b, 1, 5)
    cout = rng.randint(1, 4)
    attrs = {"kernel_shape": ks}
    strides = [rng.choice([1, 1, 2, 2, 3]) for _ in range(b.rank)]
    attrs["strides"] = strides
    if rng.random() < 0.25:
        attrs["auto_pad"] = pick(rng, "SAME_UPPER", "SAME_LOWER", "VALID")
    else:
        attrs["pads"] = pads_for(rng, b, ks)
        if rng.random() < 0.3:
            attrs["dilations"] = [rng.randint(1, 2) for _ in range(b.rank)]
    y = b.node("Conv", [x, b.weight(cout, c, ks)], **attrs)
    b.blocks.append(f"conv {attrs}")
    return y, cout


def conv_t(rng, b, x, c):
    ks = kernel(rng, b, 2, 4)
    cout = rng.randint(1, 4)
    strides = [rng.randint(1, 3) for _ in range(b.rank)]
    attrs = {"kernel_shape": ks, "strides": strides, "pads": pads_for(rng, b, ks, lambda k: 1)}
    if rng.random() < 0.3:
        attrs["output_padding"] = [rng.randint(0, s - 1) for s in strides]
    y = b.node("ConvTranspose", [x, b.weight(c, cout, ks)], **attrs)
    b.blocks.append(f"convT {attrs}")
    return y, cout


def pool(rng, b, x, c, op):
    ks = kernel(rng, b, 2, 3)
    attrs = {"kernel_shape": ks, "strides": [rng.choice([1, 2, 2, 3]) for _ in range(b.rank)]}
    if rng.random() < 0.2:
        attrs["auto_pad"] = pick(rng, "SAME_UPPER", "SAME_LOWER", "VALID")
    else:
        attrs["pads"] = pads_for(rng, b, ks, lambda k: (k - 1) // 2 if rng.random() < 0.8 else k - 1)
        if rng.random() < 0.5:
            attrs["ceil_mode"] = 1
        if op == "MaxPool" and rng.random() < 0.2:
            attrs["dilations"] = [rng.randint(1, 2) for _ in range(b.rank)]
        if op == "AveragePool" and rng.random() < 0.5:
            attrs["count_include_pad"] = 1
    y = b.node(op, [x], **attrs)
    b.blocks.append(f"{op} {attrs}")
    return y, c


def pad(rng, b, x, c):
    mode = pick(rng, "reflect", "reflect", "edge", "constant")
    lo = -2 if mode == "constant" else 0
    pads = [0, 0] + [rng.randint(lo, 4) for _ in range(b.rank)] + [0, 0] + [rng.randint(lo, 4) for _ in range(b.rank)]
    y = b.node("Pad", [x, b.const(np.array(pads, np.int64), "pads")], mode=mode)
    b.blocks.append(f"pad {mode} {pads}")
    return y, c


def slice_(rng, b, x, c):
    ax = rng.choice(spatial_axes(b))
    step = pick(rng, 1, 2, 3, -1, -2)
    if step > 0:
        start, end = pick(rng, 0, 1, 2, -3), pick(rng, BIG, -1, -2, 10)
    else:
        start, end = pick(rng, -1, -2, BIG), pick(rng, -BIG, 0, 1)
    ins = [x] + [b.const(np.array([v], np.int64), "s") for v in (start, end, ax, step)]
    y = b.node("Slice", ins)
    b.blocks.append(f"slice axis {ax} {start}:{end}:{step}")
    return y, c


def resize(b, x, scales):
    return b.node("Resize", [x, "", b.const(np.array([1.0, 1.0] + scales, np.float32), "scales")], mode="nearest")


def unet(rng, b, x, c):
    s = rng.randint(2, 3) if rng.random() < 0.3 else 2
    if rng.random() < 0.5:
        attrs = {"kernel_shape": [s] * b.rank, "strides": [s] * b.rank}
        if rng.random() < 0.4:
            attrs["ceil_mode"] = 1
        down = b.node("MaxPool", [x], **attrs)
    else:
        down = b.node("Conv", [x, b.weight(c, c, [3] * b.rank)], kernel_shape=[3] * b.rank,
                      strides=[s] * b.rank, pads=[1] * (2 * b.rank))
        attrs = {"conv": 3}
    up = resize(b, down, [float(s)] * b.rank)
    y = b.node("Concat", [x, up], axis=1)
    b.blocks.append(f"unet down {s} {attrs}")
    return y, 2 * c


def add_bc(rng, b, x, c):
    if rng.random() < 0.4:
        ax = rng.choice(spatial_axes(b))
        br = b.node("ReduceMean", [x], axes=[ax], keepdims=1)
        b.blocks.append(f"add reducemean axis {ax}")
    else:
        s = rng.randint(2, 3)
        k = rng.choice([1, 3])
        br = b.node("Conv", [x, b.weight(c, c, [k] * b.rank)], kernel_shape=[k] * b.rank, strides=[s] * b.rank,
                    pads=[k // 2] * (2 * b.rank))
        br = resize(b, br, [float(s)] * b.rank)
        b.blocks.append(f"add conv stride {s} k {k} resize")
    y = b.node("Add", [x, br] if rng.random() < 0.5 else [br, x])
    return y, c


def window(rng, b, x, c):
    w = rng.choice([2, 3, 4])
    shp = b.node("Shape", [x])
    n = b.node("Gather", [shp, b.const(np.array([0], np.int64), "i")], axis=0)
    wc = b.const(np.array([w], np.int64), "w")
    cc = b.const(np.array([c], np.int64), "c")
    blocks = [b.node("Div", [b.node("Gather", [shp, b.const(np.array([i], np.int64), "i")], axis=0), wc])
              for i in spatial_axes(b)]
    split = [n, cc]
    for d in blocks:
        split += [d, wc]
    y = b.node("Reshape", [x, b.node("Concat", split, axis=0)])
    r = b.rank
    # [n, C, h, w, (ww, w)] -> [n, h, (ww), C, w, (w)] -> windows [-1, C, w, (w)] and back
    perm = [0] + [2 + 2 * i for i in range(r)] + [1] + [3 + 2 * i for i in range(r)]
    y = b.node("Transpose", [y], perm=perm)
    y = b.node("Reshape", [y, b.const(np.array([-1, c] + [w] * r, np.int64), "p")])
    y = b.node("Reshape", [y, b.node("Concat", [n] + blocks + [cc] + [wc] * r, axis=0)])
    inv = [0, 1 + r] + [x for i in range(r) for x in (1 + i, 2 + r + i)]
    y = b.node("Transpose", [y], perm=inv)
    y = b.node("Reshape", [y, b.node("Concat", [n, cc] + [b.node("Mul", [d, wc]) for d in blocks], axis=0)])
    b.blocks.append(f"window {w}")
    return y, c


def s2d(rng, b, x, c):
    if b.rank != 2:
        return conv(rng, b, x, c)
    y = b.node("SpaceToDepth", [x], blocksize=2)
    b.blocks.append("s2d 2")
    return y, 4 * c


def d2s(rng, b, x, c):
    if b.rank != 2:
        return conv(rng, b, x, c)
    if c % 4:
        x = b.node("Conv", [x, b.weight(4, c, [1, 1])], kernel_shape=[1, 1])
        c = 4
    y = b.node("DepthToSpace", [x], blocksize=2, mode=pick(rng, "DCR", "CRD"))
    b.blocks.append("d2s 2")
    return y, c // 4


def resize_blk(rng, b, x, c):
    s = rng.choice([2.0, 3.0, 0.5])
    y = resize(b, x, [s] * b.rank)
    b.blocks.append(f"resize {s}")
    return y, c


def split(rng, b, x, c, shape_at):
    ax = rng.choice(spatial_axes(b))
    if rng.random() < 0.6:
        outs = b.node("Split", [x], n_out=2, axis=ax)
        b.blocks.append(f"split halves axis {ax}")
    else:
        shp = shape_at(x)
        d = shp[ax] if shp else None
        if d is None or d < 2:
            return x, c
        k = rng.randint(1, d - 1)
        outs = b.node("Split", [x, b.const(np.array([k, d - k], np.int64), "sp")], n_out=2, axis=ax)
        b.blocks.append(f"split axis {ax} [{k}, {d - k}]")
    return outs[rng.randint(0, 1)], c


def gather(rng, b, x, c):
    ax = rng.choice(spatial_axes(b))
    k = pick(rng, 0, 1, 2, 3, 5, -1)
    y = b.node("Gather", [x, b.const(np.array([k], np.int64), "g")], axis=ax)
    b.blocks.append(f"gather axis {ax} [{k}]")
    return y, c


def head(rng, b, x, c, shape_at, n_export):
    r = rng.random()
    if r < 0.3:
        y = b.node("GlobalAveragePool", [x])
        b.blocks.append("head gap")
        return y
    shp = shape_at(x)
    if shp is None or None in shp or min(shp) <= 0:
        return x
    k = int(np.prod(shp[1:]))
    if r < 0.65:
        flat = b.node("Flatten", [x], axis=1)
        b.blocks.append(f"head flatten matmul K={k}")
    else:
        flat = b.node("Reshape", [x, b.const(np.array([n_export, -1], np.int64), "p")])
        b.blocks.append(f"head reshape [{n_export}, -1] matmul K={k}")
    return b.node("MatMul", [flat, b.const(b.rng_np.standard_normal([k, 3]).astype(np.float32), "fc")])


def flatten1(rng, b, x, p):
    """p (x pooled) as [N, -1], the way torch writes it: flatten(1) (Flatten) or view(N, -1) (Reshape by
    Concat of x's Shape[0] and -1); and which."""
    if rng.random() < 0.5:
        return b.node("Flatten", [p], axis=1), "flatten(1)"
    n = shape_of(b, x, [0])
    return b.node("Reshape", [p, b.node("Concat", [n, b.const(np.array([-1], np.int64), "m")], axis=0)]), "view(N,-1)"


def head2(rng, b, x, c, shape_at, n_export):
    """Seeds from 2 on: torchvision's classifier heads besides head's: adaptive pooling exported with the
    export binding's kernel (baked) then flatten(1) or view(N, -1) (Shape[0] and -1) into a Linear of
    the export's size, or GlobalAveragePool and view(N, -1) into a Linear of C."""
    r = rng.random()
    if r < 0.4:
        return head(rng, b, x, c, shape_at, n_export)
    if r < 0.7:
        p = b.node("GlobalAveragePool", [x])
        k = c
        what = "gap"
    else:
        shp = shape_at(x)
        if shp is None or None in shp or min(shp) <= 0:
            return x
        ks = [max(d // rng.randint(1, min(3, d)), 1) for d in shp[2:]]
        p = b.node("AveragePool", [x], kernel_shape=ks, strides=ks)
        k = c * int(np.prod([(d - kk) // kk + 1 for d, kk in zip(shp[2:], ks)]))
        what = f"adaptive avgpool kernel=stride {ks}"
    flat, how = flatten1(rng, b, x, p)
    b.blocks.append(f"head {what} {how} matmul K={k}")
    return b.node("MatMul", [flat, b.const(b.rng_np.standard_normal([k, 3]).astype(np.float32), "fc")])


def shape_of(b, x, idx):
    """Gather of the dims idx of x's Shape: a vector of len(idx) int64 values."""
    shp = b.node("Shape", [x])
    return b.node("Gather", [shp, b.const(np.array(idx, np.int64), "i")], axis=0)


def arith(b, v, op, k):
    return b.node(op, [v, b.const(np.array([k], np.int64), "k")])


def resize_sizes(rng, b, x, c):
    """Resize by sizes computed from Shape (each spatial dim times, or divided by, an integer)."""
    parts = [shape_of(b, x, [0, 1])]
    desc = []
    for ax in spatial_axes(b):
        op, k = pick(rng, ("Mul", 2), ("Mul", 3), ("Div", 2), ("Mul", 1))
        parts.append(arith(b, shape_of(b, x, [ax]), op, k))
        desc.append(f"{op} {k}")
    sizes = b.node("Concat", parts, axis=0)
    y = b.node("Resize", [x, "", "", sizes], mode=pick(rng, "nearest", "linear"))
    b.blocks.append(f"resize sizes {desc}")
    return y, c


def resize_int(rng, b, x, c):
    """Resize by integer scales, one per spatial axis (2 and 3, or 1 and 2)."""
    scales = [float(rng.randint(1, 3)) for _ in range(b.rank)]
    y = resize(b, x, scales)
    b.blocks.append(f"resize scales {scales}")
    return y, c


def conv_t_op(rng, b, x, c):
    """ConvTranspose with output_padding below the stride or dilation, sometimes dilated."""
    ks = kernel(rng, b, 1, 4)
    cout = rng.randint(1, 3)
    strides = [rng.randint(2, 3) for _ in range(b.rank)]
    attrs = {"kernel_shape": ks, "strides": strides, "pads": pads_for(rng, b, ks, lambda k: max(k - 1, 0))}
    if rng.random() < 0.3:
        attrs["dilations"] = [rng.randint(1, 2) for _ in range(b.rank)]
    dil = attrs.get("dilations", [1] * b.rank)
    attrs["output_padding"] = [rng.randint(0, max(s, d) - 1) for s, d in zip(strides, dil)]
    y = b.node("ConvTranspose", [x, b.weight(c, cout, ks)], **attrs)
    b.blocks.append(f"convT outpad {attrs}")
    return y, cout


def gather_many(rng, b, x, c):
    """Gather of several constant indices on a spatial axis, or GatherElements of constant indices."""
    ax = rng.choice(spatial_axes(b))
    if rng.random() < 0.5:
        idx = [rng.choice([0, 1, 2, 3, 5, -1, -2]) for _ in range(rng.randint(2, 4))]
        y = b.node("Gather", [x, b.const(np.array(idx, np.int64), "g")], axis=ax)
        b.blocks.append(f"gather axis {ax} {idx}")
        return y, c
    shape = [1, 1] + [1] * b.rank
    k = rng.randint(1, 3)
    shape[ax] = k
    idx = np.array([rng.choice([0, 1, 2, -1]) for _ in range(k)], np.int64).reshape(shape)
    y = b.node("GatherElements", [x, b.const(idx, "ge")], axis=ax)
    b.blocks.append(f"gatherelements axis {ax} {idx.reshape(-1).tolist()}")
    return y, 1


def split_more(rng, b, x, c):
    """Split in three equal parts, or by sizes computed from Shape (d//2 and d - d//2)."""
    ax = rng.choice(spatial_axes(b))
    if rng.random() < 0.5:
        outs = b.node("Split", [x], n_out=3, axis=ax)
        b.blocks.append(f"split thirds axis {ax}")
        return outs[rng.randint(0, 2)], c
    d = shape_of(b, x, [ax])
    half = arith(b, d, "Div", 2)
    rest = b.node("Sub", [d, half])
    outs = b.node("Split", [x, b.node("Concat", [half, rest], axis=0)], n_out=2, axis=ax)
    b.blocks.append(f"split computed halves axis {ax}")
    return outs[rng.randint(0, 1)], c


def expand_tile(rng, b, x, c):
    """Expand of a reduced branch back to x's Shape and Add, or Tile by constant repeats."""
    if rng.random() < 0.5:
        ax = rng.choice(spatial_axes(b))
        br = b.node("ReduceMax", [x], axes=[ax], keepdims=1)
        br = b.node("Expand", [br, b.node("Shape", [x])])
        y = b.node("Add", [x, br])
        b.blocks.append(f"expand reducemax axis {ax}")
        return y, c
    reps = [1, 1] + [rng.randint(1, 2) for _ in range(b.rank)]
    y = b.node("Tile", [x, b.const(np.array(reps, np.int64), "r")])
    b.blocks.append(f"tile {reps}")
    return y, c


def transpose(rng, b, x, c):
    """Transpose of the spatial axes (2-D: H and W swap), or (1-D) to [B, T, C], a MatMul over C, and back."""
    r = b.rank
    if r == 2:
        y = b.node("Transpose", [x], perm=[0, 1, 3, 2])
        b.blocks.append("transpose H W")
        return y, c
    cout = rng.randint(1, 3)
    y = b.node("Transpose", [x], perm=[0, 2, 1])
    y = b.node("MatMul", [y, b.const(b.rng_np.standard_normal([c, cout]).astype(np.float32), "fc")])
    y = b.node("Transpose", [y], perm=[0, 2, 1])
    b.blocks.append("transpose linear transpose")
    return y, cout


def reduce_keep(rng, b, x, c):
    """Reduce* over a spatial axis, keepdims 1 (broadcast back by Add), or keepdims 0 and Unsqueeze."""
    ax = rng.choice(spatial_axes(b))
    op = pick(rng, "ReduceSum", "ReduceMax", "ReduceMean", "ReduceL2")
    if op == "ReduceSum":  # opset 13: axes is an input
        red = lambda keep: b.node(op, [x, b.const(np.array([ax], np.int64), "ax")], keepdims=keep)
    else:
        red = lambda keep: b.node(op, [x], axes=[ax], keepdims=keep)
    if rng.random() < 0.5:
        y = b.node("Add", [red(1), x])
        b.blocks.append(f"{op} keepdims 1 axis {ax} add")
    else:
        y = b.node("Unsqueeze", [red(0), b.const(np.array([ax], np.int64), "ax")])
        y = b.node("Mul", [x, y])
        b.blocks.append(f"{op} keepdims 0 axis {ax} unsqueeze mul")
    return y, c


def d2s_s2d(rng, b, x, c):
    """SpaceToDepth by 3, or DepthToSpace by 2 or 3 after a Conv to k*k channels."""
    if b.rank != 2:
        return conv(rng, b, x, c)
    k = rng.choice([2, 3])
    if rng.random() < 0.5:
        y = b.node("SpaceToDepth", [x], blocksize=k)
        b.blocks.append(f"s2d {k}")
        return y, c * k * k
    x = b.node("Conv", [x, b.weight(k * k, c, [1, 1])], kernel_shape=[1, 1])
    y = b.node("DepthToSpace", [x], blocksize=k, mode=pick(rng, "DCR", "CRD"))
    b.blocks.append(f"d2s {k}")
    return y, 1


def flatten_back(rng, b, x, c):
    """Flatten at an axis, a Relu, and a Reshape back to x's Shape."""
    ax = rng.randint(0, 1 + b.rank)
    y = b.node("Flatten", [x], axis=ax)
    y = b.node("Relu", [y])
    y = b.node("Reshape", [y, b.node("Shape", [x])])
    b.blocks.append(f"flatten axis {ax} back")
    return y, c


def squeeze_unsqueeze(rng, b, x, c):
    """Unsqueeze a new axis and Squeeze it, or Squeeze a reduced axis of 1 and Unsqueeze it."""
    if rng.random() < 0.5:
        a = rng.randint(0, 2 + b.rank)
        y = b.node("Unsqueeze", [x, b.const(np.array([a], np.int64), "ax")])
        y = b.node("Squeeze", [y, b.const(np.array([a], np.int64), "ax")])
        b.blocks.append(f"unsqueeze squeeze {a}")
        return y, c
    ax = rng.choice(spatial_axes(b))
    y = b.node("ReduceMean", [x], axes=[ax], keepdims=1)
    y = b.node("Squeeze", [y, b.const(np.array([ax], np.int64), "ax")])
    y = b.node("Unsqueeze", [y, b.const(np.array([ax], np.int64), "ax")])
    y = b.node("Add", [x, y])
    b.blocks.append(f"squeeze reduced {ax} unsqueeze add")
    return y, c


def where_bc(rng, b, x, c):
    """Where of two branches that broadcast: x and a pooled-then-resized copy, or a reduced one."""
    cond = b.node("Greater", [x, b.const(np.array(0.0, np.float32), "z")])
    if rng.random() < 0.5:
        ax = rng.choice(spatial_axes(b))
        br = b.node("ReduceMin", [x], axes=[ax], keepdims=1)
        b.blocks.append(f"where reducemin axis {ax}")
    else:
        s = rng.randint(2, 3)
        br = b.node("AveragePool", [x], kernel_shape=[s] * b.rank, strides=[s] * b.rank)
        br = resize(b, br, [float(s)] * b.rank)
        b.blocks.append(f"where pool {s} resize")
    args = [cond, x, br] if rng.random() < 0.5 else [cond, br, x]
    return b.node("Where", args), c


def matmul_branches(rng, b, x, c):
    """Channel attention (a [N, C, C] matrix, small whatever the sizes): x viewed [N, C, L] (L the
    spatial volume, from Shape), MatMul with the transpose of a branch's view (x itself, or pooled
    by 2 and resized back: its L equals x's only for even sizes), Softmax, MatMul with x's view,
    and viewed back to x's Shape."""
    s = rng.choice([1, 2])
    br = x
    if s > 1:
        br = b.node("MaxPool", [x], kernel_shape=[s] * b.rank, strides=[s] * b.rank)
        br = resize(b, br, [float(s)] * b.rank)
    nc = shape_of(b, x, [0, 1])
    minus = b.const(np.array([-1], np.int64), "m")
    q = b.node("Reshape", [x, b.node("Concat", [nc, minus], axis=0)])  # [N, C, L]
    k = b.node("Reshape", [br, b.node("Concat", [nc, minus], axis=0)])  # [N, C, L']
    att = b.node("MatMul", [q, b.node("Transpose", [k], perm=[0, 2, 1])])  # [N, C, C]: L == L'
    att = b.node("Softmax", [att], axis=-1)
    y = b.node("MatMul", [att, q])  # [N, C, L]
    y = b.node("Reshape", [y, b.node("Shape", [x])])
    b.blocks.append(f"attention branch {s}")
    return y, c


def einsum(rng, b, x, c):
    """Einsum of x with a constant over the channels (a 1x1 Conv written as Einsum)."""
    cout = rng.randint(1, 3)
    eq = "nchw,dc->ndhw" if b.rank == 2 else "nct,dc->ndt"
    y = b.node("Einsum", [x, b.const(b.rng_np.standard_normal([cout, c]).astype(np.float32), "e")], equation=eq)
    b.blocks.append(f"einsum {eq}")
    return y, cout


def view(rng, b, x, c):
    """torch's view written as exports write it: Shape -> Gather -> Div/Mul -> Concat -> Reshape, moving
    a factor f of a spatial axis into the channels (x.view(N, C*f, H//f, ...)) and back."""
    ax = rng.choice(spatial_axes(b))
    f = rng.choice([2, 3, 4])
    n = shape_of(b, x, [0])
    parts, back = [n, b.const(np.array([c * f], np.int64), "c")], [n, b.const(np.array([c], np.int64), "c")]
    for a in spatial_axes(b):
        d = shape_of(b, x, [a])
        if a == ax:
            q = arith(b, d, "Div", f)
            parts.append(q)
            back.append(arith(b, q, "Mul", f))
        else:
            parts.append(d)
            back.append(d)
    y = b.node("Reshape", [x, b.node("Concat", parts, axis=0)])
    y = b.node("Relu", [y])
    y = b.node("Reshape", [y, b.node("Concat", back, axis=0)])
    b.blocks.append(f"view axis {ax} by {f}")
    return y, c


BLOCKS = [(conv, 6), (conv_t, 1.5), (lambda r, b, x, c: pool(r, b, x, c, "MaxPool"), 3),
          (lambda r, b, x, c: pool(r, b, x, c, "AveragePool"), 2), (pad, 2), (slice_, 1.5), (unet, 1.5),
          (add_bc, 1.5), (window, 1), (s2d, 0.7), (d2s, 0.7), (resize_blk, 1), ("split", 1), (gather, 0.7)]
# Seeds from 1 on draw from these too (seed 0 makes the models it always made).
WIDE = [(resize_sizes, 1.5), (resize_int, 1), (conv_t_op, 1.5), (gather_many, 1), (split_more, 1),
        (expand_tile, 1), (transpose, 1), (reduce_keep, 1), (d2s_s2d, 1), (flatten_back, 1),
        (squeeze_unsqueeze, 0.7), (where_bc, 1), (matmul_branches, 1.5), (einsum, 0.5), (view, 2)]


# Seeds from 2 on: patterns real exporters write (torch 1.13's symbolics, TF's SAME padding, RNNs,
# control flow over Shape). Each block keeps x's rank; b.export, b.shape_at and b.syms are set by make.

def scalar_of(b, x, ax):
    """Gather of one dim of x's Shape with a scalar index: a scalar int64 (as Range, Loop and If read)."""
    return b.node("Gather", [b.node("Shape", [x]), b.const(np.array(ax, np.int64), "i")], axis=0)


def ones_tail(b, x, keep):
    """x's Shape with the dims from keep on replaced by 1: Concat of a Slice of Shape and ones."""
    head_ = b.node("Slice", [b.node("Shape", [x]), b.const(np.array([0], np.int64), "s"),
                             b.const(np.array([keep], np.int64), "s")])
    return b.node("Concat", [head_, b.const(np.ones(2 + b.rank - keep, np.int64), "one")], axis=0)


def squeeze_excite(rng, b, x, c):
    """Squeeze-and-excitation as torch writes it: GlobalAveragePool, flatten(1) (Flatten) or view(N, -1)
    (Reshape by Concat of Shape[0] and -1), two Linear (MatMul), Sigmoid, view(N, C, 1, 1) from Shape,
    and Mul with x."""
    p = b.node("GlobalAveragePool", [x])
    f, how = flatten1(rng, b, x, p)
    mid = rng.randint(1, 3)
    h = b.node("Relu", [b.node("MatMul", [f, b.const(b.rng_np.standard_normal([c, mid]).astype(np.float32), "fc")])])
    h = b.node("Sigmoid", [b.node("MatMul", [h, b.const(b.rng_np.standard_normal([mid, c]).astype(np.float32), "fc")])])
    y = b.node("Mul", [x, b.node("Reshape", [h, ones_tail(b, x, 2)])])
    b.blocks.append(f"squeeze-excite {how}")
    return y, c


def adaptive_pool(rng, b, x, c):
    """Adaptive pooling as torch exports it: AveragePool or MaxPool whose kernel and stride are the export
    binding's size over the output size (baked), output 1..3 per axis."""
    shp = b.shape_at(x)
    if shp is None or None in shp[2:] or min(shp[2:]) < 1:
        return conv(rng, b, x, c)
    ks = []
    for d in shp[2:]:
        o = rng.randint(1, min(3, d))
        ks.append(max(d // o, 1))
    op = pick(rng, "AveragePool", "MaxPool")
    y = b.node(op, [x], kernel_shape=ks, strides=ks)
    b.blocks.append(f"adaptive {op} kernel=stride {ks}")
    return y, c


def unflatten(rng, b, x, c):
    """torch's unflatten(-1, (f, -1)): Reshape by Concat of Shape[:-1] (a Slice of Shape) and [f, -1],
    then a Reduce over the new axis f (keepdims 0)."""
    f = rng.choice([2, 3, 4])
    shp = b.node("Shape", [x])
    lead = b.node("Slice", [shp, b.const(np.array([0], np.int64), "s"), b.const(np.array([-1], np.int64), "s")])
    y = b.node("Reshape", [x, b.node("Concat", [lead, b.const(np.array([f, -1], np.int64), "u")], axis=0)])
    y = b.node(pick(rng, "ReduceMean", "ReduceMax"), [y], axes=[1 + b.rank], keepdims=0)
    b.blocks.append(f"unflatten last by ({f}, -1)")
    return y, c


def chunk(rng, b, x, c):
    """torch.chunk(x, k, dim) as torch 1.13 exports it at opset 13: Split by sizes computed from Shape,
    [s] * (k-1) and d - s*(k-1) with s = (d + k-1) // k; one chunk, or the first plus the last."""
    ax = rng.choice(spatial_axes(b))
    k = rng.randint(2, 4)
    d = shape_of(b, x, [ax])
    km1 = b.const(np.array([k - 1], np.int64), "k")
    s = b.node("Div", [b.node("Add", [d, km1]), b.const(np.array([k], np.int64), "k")])
    parts = [s] * (k - 1) + [b.node("Sub", [d, b.node("Mul", [s, km1])])]
    outs = b.node("Split", [x, b.node("Concat", parts, axis=0)], n_out=k, axis=ax)
    if rng.random() < 0.5:
        i = rng.randint(0, k - 1)
        b.blocks.append(f"chunk {k} axis {ax} [{i}]")
        return outs[i], c
    b.blocks.append(f"chunk {k} axis {ax} first + last")
    return b.node("Add", [outs[0], outs[-1]]), c


def pixel_shuffle(rng, b, x, c):
    """pixel_shuffle / pixel_unshuffle by r as Reshape-Transpose-Reshape over Shape arithmetic (torch's
    export below opset 11, and 1-D sub-pixel layers of audio models)."""
    r = rng.choice([2, 3])
    sp = spatial_axes(b)
    n = shape_of(b, x, [0])
    dims = [shape_of(b, x, [a]) for a in sp]
    rk = len(sp)
    rc = b.const(np.array([r], np.int64), "r")
    if rng.random() < 0.5:
        if c % (r ** rk):
            x = b.node("Conv", [x, b.weight(r ** rk, c, [1] * rk)], kernel_shape=[1] * rk)
            c = r ** rk
        co = c // r ** rk
        y = b.node("Reshape", [x, b.node("Concat", [n, b.const(np.array([co] + [r] * rk, np.int64), "p")] + dims,
                                          axis=0)])
        # [n, co, r.., d..] -> [n, co, d0, r, d1, r, ...]
        perm = [0, 1] + [v for i in range(rk) for v in (2 + rk + i, 2 + i)]
        y = b.node("Transpose", [y], perm=perm)
        y = b.node("Reshape", [y, b.node("Concat", [n, b.const(np.array([co], np.int64), "c")] +
                                          [b.node("Mul", [d, rc]) for d in dims], axis=0)])
        b.blocks.append(f"pixel_shuffle {r}")
        return y, co
    parts = [n, b.const(np.array([c], np.int64), "c")]
    for d in dims:
        parts += [b.node("Div", [d, rc]), rc]
    y = b.node("Reshape", [x, b.node("Concat", parts, axis=0)])
    # [n, c, d0/r, r, d1/r, r] -> [n, c, r, r, d0/r, d1/r]
    perm = [0, 1] + [3 + 2 * i for i in range(rk)] + [2 + 2 * i for i in range(rk)]
    y = b.node("Transpose", [y], perm=perm)
    y = b.node("Reshape", [y, b.node("Concat", [n, b.const(np.array([c * r ** rk], np.int64), "c")] +
                                      [b.node("Div", [d, rc]) for d in dims], axis=0)])
    b.blocks.append(f"pixel_unshuffle {r}")
    return y, c * r ** rk


def channel_shuffle(rng, b, x, c):
    """ShuffleNet's channel shuffle: Reshape to [N, g, C/g, spatial...] from Shape, Transpose the two
    channel axes, Reshape back to [N, -1, spatial...]."""
    g = rng.choice([2, 3])
    if c % g:
        x = b.node("Conv", [x, b.weight(2 * g, c, [1] * b.rank)], kernel_shape=[1] * b.rank)
        c = 2 * g
    n = shape_of(b, x, [0])
    sp = [shape_of(b, x, [a]) for a in spatial_axes(b)]
    y = b.node("Reshape", [x, b.node("Concat", [n, b.const(np.array([g, c // g], np.int64), "g")] + sp, axis=0)])
    y = b.node("Transpose", [y], perm=[0, 2, 1] + list(range(3, 3 + b.rank)))
    y = b.node("Reshape", [y, b.node("Concat", [n, b.const(np.array([-1], np.int64), "m")] + sp, axis=0)])
    b.blocks.append(f"channel shuffle {g}")
    return y, c


def interp_branch(rng, b, x, c):
    """F.interpolate(coarse, size=x.shape[2:]) of an FPN: a strided Conv or MaxPool branch, Resize by sizes
    that are Shape(coarse)[:2] and Shape(x)[2:], then Add to x or Concat with it."""
    s = rng.randint(2, 3)
    if rng.random() < 0.5:
        k = rng.choice([1, 3])
        coarse = b.node("Conv", [x, b.weight(c, c, [k] * b.rank)], kernel_shape=[k] * b.rank, strides=[s] * b.rank,
                        pads=[k // 2] * (2 * b.rank))
    else:
        coarse = b.node("MaxPool", [x], kernel_shape=[s] * b.rank, strides=[s] * b.rank)
    size = b.node("Slice", [b.node("Shape", [x]), b.const(np.array([2], np.int64), "s"),
                            b.const(np.array([BIG], np.int64), "s")])
    sizes = b.node("Concat", [shape_of(b, coarse, [0, 1]), size], axis=0)
    mode = pick(rng, "nearest", "linear") if b.rank <= 2 else "nearest"
    up = b.node("Resize", [coarse, "", "", sizes], mode=mode)
    if rng.random() < 0.6:
        y, c2 = b.node("Add", [x, up]), c
    else:
        y, c2 = b.node("Concat", [x, up], axis=1), 2 * c
    b.blocks.append(f"interpolate branch stride {s} to x's size ({mode})")
    return y, c2


def same_convs(rng, b, x, c):
    """A stack of 2..3 Convs: torch's padding='same' (stride 1, explicit pads d*(k-1) split low-first,
    kernel 1..4, dilation 1..3), auto_pad SAME_LOWER or SAME_UPPER with stride 1..3, depthwise (group
    C) and grouped Convs (group 2 after a Conv to an even count of channels)."""
    desc = []
    for _ in range(rng.randint(2, 3)):
        kind = pick(rng, "same", "same", "auto", "dw", "group")
        k = rng.randint(1, 4) if kind == "same" else rng.randint(1, 3) * 2 - 1
        ks = [k] * b.rank
        attrs = {"kernel_shape": ks}
        cout, cin, group = rng.randint(1, 4), c, 1
        if kind == "same":
            d = rng.randint(1, 3)
            tot = [d * (k - 1)] * b.rank
            attrs["pads"] = [t // 2 for t in tot] + [t - t // 2 for t in tot]
            attrs["dilations"] = [d] * b.rank
        elif kind == "auto":
            attrs["auto_pad"] = pick(rng, "SAME_LOWER", "SAME_UPPER")
            attrs["strides"] = [rng.randint(1, 3) for _ in range(b.rank)]
        else:
            if kind == "group" and c % 2:
                x = b.node("Conv", [x, b.weight(2, c, [1] * b.rank)], kernel_shape=[1] * b.rank)
                c = cin = 2
            group = c if kind == "dw" else 2
            cout = group * rng.randint(1, 2)
            cin = c // group
            attrs["group"] = group
            attrs["strides"] = [rng.choice([1, 2]) for _ in range(b.rank)]
            attrs["pads"] = [k // 2] * (2 * b.rank)
        x = b.node("Conv", [x, b.weight(cout, cin, ks)], **attrs)
        c = cout
        desc.append(f"{kind} {attrs}")
    b.blocks.append("convs " + "; ".join(desc))
    return x, c


def rnn(rng, b, x, c):
    """LSTM or GRU over T ([B, C, T] Transposed to [T, B, C]), forward or bidirectional, sequence_lens
    T for every batch row (Expand of Shape's T cast to int32 to Shape's B) or none, initial_h zeros of
    the export binding's batch (baked, as silero's state) sometimes; Y [T, D, B, h] back to [B, D*h, T]."""
    if b.rank != 1:
        return same_convs(rng, b, x, c)
    op = pick(rng, "LSTM", "GRU")
    h = rng.randint(2, 4)
    dirs = pick(rng, "forward", "bidirectional")
    nd = 2 if dirs == "bidirectional" else 1
    gates = 4 if op == "LSTM" else 3
    xs = b.node("Transpose", [x], perm=[2, 0, 1])
    w = b.const(b.rng_np.standard_normal([nd, gates * h, c]).astype(np.float32) * 0.3, "W")
    r = b.const(b.rng_np.standard_normal([nd, gates * h, h]).astype(np.float32) * 0.3, "R")
    ins = [xs, w, r, ""]
    desc = [op, dirs, f"h {h}"]
    if rng.random() < 0.6:
        t = b.node("Cast", [shape_of(b, x, [2])], to=TensorProto.INT32)
        ins.append(b.node("Expand", [t, shape_of(b, x, [0])]))
        desc.append("sequence_lens T")
    else:
        ins.append("")
    if rng.random() < 0.35:
        ins.append(b.const(np.zeros([nd, b.export[b.syms[0]], h], np.float32), "h0"))
        desc.append(f"initial_h batch {b.export[b.syms[0]]}")
    while ins[-1] == "":
        ins.pop()
    y = b.node(op, ins, n_out=1, hidden_size=h, direction=dirs)
    y = b.node("Transpose", [y], perm=[2, 1, 3, 0])  # [B, D, h, T]
    y = b.node("Reshape", [y, b.const(np.array([0, nd * h, -1], np.int64), "p")])
    b.blocks.append("rnn " + " ".join(desc))
    return y, nd * h


def range_cumsum(rng, b, x, c):
    """Positions from Shape: Range(0, d, 1) cast to float and added along an axis; ConstantOfShape(Shape)
    and CumSum (torch's ones(...).cumsum(dim)); or Range(0, d, 2) (ceil(d/2) long) added to x strided by
    a MaxPool of 2 on the last axis (floor(d/2) long)."""
    ax = rng.choice(spatial_axes(b))
    last = 1 + b.rank
    kind = pick(rng, "range", "cumsum", "range2")
    if kind == "cumsum":
        ones = b.node("ConstantOfShape", [b.node("Shape", [x])],
                      value=helper.make_tensor("v", TensorProto.FLOAT, [1], [1.0]))
        y = b.node("Add", [x, b.node("CumSum", [ones, b.const(np.array(ax, np.int64), "ax")])])
        b.blocks.append(f"constantofshape cumsum axis {ax}")
        return y, c
    step = 1 if kind == "range" else 2
    if step == 2:
        ax = last
    pos = b.node("Range", [b.const(np.array(0, np.int64), "z"), scalar_of(b, x, ax),
                           b.const(np.array(step, np.int64), "st")])
    pos = b.node("Cast", [pos], to=TensorProto.FLOAT)
    if ax != last:
        pos = b.node("Unsqueeze", [pos, b.const(np.array(list(range(1, last - ax + 1)), np.int64), "ax")])
    if step == 2:
        ks = [1] * (b.rank - 1) + [2]
        x = b.node("MaxPool", [x], kernel_shape=ks, strides=ks)
    b.blocks.append(f"range step {step} axis {ax} add" + (" to maxpool 2" if step == 2 else ""))
    return b.node("Add", [x, pos]), c


def nonzero(rng, b, x, c):
    """x[x == 0] viewed back to x's Shape (masked_select and view): NonZero's count is run-time data
    (the zero-filled inputs make it the volume, so onnxruntime runs); or TopK of the nonzero count."""
    flat = b.node("Reshape", [x, b.const(np.array([-1], np.int64), "m")])
    idx = b.node("NonZero", [b.node("Equal", [flat, b.const(np.array(0.0, np.float32), "z")])])
    g = b.node("Gather", [flat, b.node("Squeeze", [idx, b.const(np.array([0], np.int64), "ax")])], axis=0)
    y = b.node("Reshape", [g, b.node("Shape", [x])])
    b.runtime = True
    b.blocks.append("nonzero masked_select view")
    return y, c


def topk(rng, b, x, c):
    """TopK along a spatial axis with k from Shape (d // f, or d - 1), values kept."""
    ax = rng.choice(spatial_axes(b))
    d = shape_of(b, x, [ax])
    if rng.random() < 0.6:
        f = rng.randint(1, 3)
        k = arith(b, d, "Div", f)
        desc = f"d//{f}"
    else:
        k = arith(b, d, "Sub", 1)
        desc = "d-1"
    y = b.node("TopK", [x, k], n_out=2, axis=ax, largest=rng.randint(0, 1))[0]
    b.blocks.append(f"topk axis {ax} k={desc}")
    return y, c


def if_shape(rng, b, x, c):
    """If on a Shape comparison (d > t, t from the box): the then-branch pools by 2 (or pads by 2), the
    else-branch is x; the branches' outputs differ in shape."""
    ax = rng.choice(spatial_axes(b))
    shp = b.shape_at(x)
    t = rng.randint(1, max(2, shp[ax] if shp and shp[ax] else 8))
    cond = b.node("Greater", [scalar_of(b, x, ax), b.const(np.array(t, np.int64), "t")])
    out_t, out_e = b.name("then"), b.name("else")
    if rng.random() < 0.5:
        ks = [2] * b.rank
        then_n = helper.make_node("MaxPool", [x], [out_t], kernel_shape=ks, strides=ks)
        what = "maxpool 2"
    else:
        pads = [0] * (2 + b.rank) * 2
        pads[ax] = 2
        then_n = helper.make_node("Pad", [x, b.const(np.array(pads, np.int64), "pads")], [out_t], mode="reflect")
        what = "pad reflect 2"
    else_n = helper.make_node("Identity", [x], [out_e])
    gt = helper.make_graph([then_n], b.name("g"), [], [helper.make_tensor_value_info(out_t, TensorProto.FLOAT, None)])
    ge = helper.make_graph([else_n], b.name("g"), [], [helper.make_tensor_value_info(out_e, TensorProto.FLOAT, None)])
    y = b.node("If", [cond], then_branch=gt, else_branch=ge)
    b.blocks.append(f"if dim {ax} > {t} then {what} else x")
    return y, c


def loop_shape(rng, b, x, c):
    """Loop with a trip count from Shape (d // f, f 1..3): each iteration's scan output is x reduced over
    axis ax (keepdims 0), stacked to [M, ...] and Transposed so that M stands at ax."""
    ax = rng.choice(spatial_axes(b))
    f = rng.randint(1, 3)
    m = scalar_of(b, x, ax)
    if f > 1:
        m = b.node("Div", [m, b.const(np.array(f, np.int64), "f")])
    it, ci, v = b.name("it"), b.name("cond"), b.name("v")
    co, vo, so = b.name("cond_out"), b.name("v_out"), b.name("scan")
    body = helper.make_graph(
        [helper.make_node("Identity", [ci], [co]), helper.make_node("Identity", [v], [vo]),
         helper.make_node("ReduceMean", [v], [so], axes=[ax], keepdims=0)],
        b.name("body"),
        [helper.make_tensor_value_info(it, TensorProto.INT64, []), helper.make_tensor_value_info(ci, TensorProto.BOOL, []),
         helper.make_tensor_value_info(v, TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info(co, TensorProto.BOOL, []), helper.make_tensor_value_info(vo, TensorProto.FLOAT, None),
         helper.make_tensor_value_info(so, TensorProto.FLOAT, None)])
    outs = b.node("Loop", [m, b.const(np.array(True), "true"), x], n_out=2, body=body)
    perm = list(range(1, ax + 1)) + [0] + list(range(ax + 1, 2 + b.rank))
    y = b.node("Transpose", [outs[1]], perm=perm)
    b.blocks.append(f"loop trip d{ax}//{f} scan reducemean")
    return y, c


WIDE2 = [(squeeze_excite, 1), (adaptive_pool, 1), (unflatten, 1), (chunk, 1.5), (pixel_shuffle, 1.5),
         (channel_shuffle, 1), (interp_branch, 1.5), (same_convs, 1.5), (rnn, 2), (range_cumsum, 1.5),
         (nonzero, 0.6), (topk, 1), (if_shape, 1.2), (loop_shape, 1.2)]
# Blocks that write a rank-1 or rank-2 layout only, left out of the rank-3 ([N, C, T, H, W]) models.
RANK12 = {transpose, einsum}


# Seeds from 3 on: what transformer, detection and audio exporters write (HF and torchvision's
# attention, Swin's windows, shape arithmetic feeding Pad, Tile, Slice and Reshape), at opset 11, 13
# or 17 (b.opset; models are written in opset 13's forms and converted by opset11 where drawn so).

ATT_MAX = 1024  # the longest sequence of mha in the box (its scores are L*L floats per head)


def iconst(b, vals, prefix="k"):
    return b.const(np.array(vals, np.int64), prefix)


def shape3(b, x):
    """x's shape at the export binding (b.shape_at, which finds no graph input)."""
    return list(b.export_dims) if x == "x" else b.shape_at(x)


def mha(rng, b, x, c):
    """Multi-head self-attention as HF and torch exporters write it: a 1x1 Conv to 3*h*d channels split
    in q, k, v; each [N, L, C'] (Transpose of [B, C', T], or Reshape [0, C', -1] of a 2-D/3-D x), split in
    heads [N, L, h, d] by a pattern of 0-copies and -1 ([0, 0, h, -1], [0, -1, h, d], or Concat of
    Shape[0], Shape[1], h and d), Transposed to [N, h, L, d], scores by MatMul or Einsum, Softmax, the
    heads merged back ([0, 0, C'], [0, 0, -1], [0, -1, C'] or from Shape), at opset 17 sometimes a
    LayerNormalization, sometimes a position embedding of the export binding's L (baked, as ViT's),
    and back to x's layout from Shape. Where the box may make L above ATT_MAX (the scores are L*L),
    ViT's patch embedding first (a Conv whose kernel and stride are p, a power of 2)."""
    shp = shape3(b, x)
    if not shp or None in shp[2:] or min(shp[2:]) < 1:
        return transpose_roundtrip(rng, b, x, c)
    p = 1
    while np.prod([d // p for d in shp[2:]]) * 1.5 ** b.rank > ATT_MAX:
        p *= 2
    shp = shp[:2] + [d // p for d in shp[2:]]
    h, d = rng.choice([1, 2, 4]), rng.choice([2, 4])
    cp = h * d
    desc = [f"h {h} d {d}"]
    if p > 1:
        x = b.node("Conv", [x, b.weight(c, c, [p] * b.rank)], kernel_shape=[p] * b.rank, strides=[p] * b.rank)
        desc.insert(0, f"patch {p}")
    qkv = b.node("Conv", [x, b.weight(3 * cp, c, [1] * b.rank)], kernel_shape=[1] * b.rank)
    split = pick(rng, "ohead", "minus", "shape")
    merge = pick(rng, "zeros", "zeros_minus", "minus", "shape")
    score = "einsum" if b.opset >= 12 and rng.random() < 0.4 else "matmul"
    desc += [f"split {split}", f"merge {merge}", score]
    seq = []
    for t in b.node("Split", [qkv], n_out=3, axis=1):
        if b.rank == 1:
            s = b.node("Transpose", [t], perm=[0, 2, 1])
        else:
            s = b.node("Transpose", [b.node("Reshape", [t, iconst(b, [0, cp, -1], "p")])], perm=[0, 2, 1])
        if split == "ohead":
            s = b.node("Reshape", [s, iconst(b, [0, 0, h, -1], "p")])
        elif split == "minus":
            s = b.node("Reshape", [s, iconst(b, [0, -1, h, d], "p")])
        else:
            s = b.node("Reshape", [s, b.node("Concat", [shape_of(b, s, [0, 1]), iconst(b, [h, d], "p")], axis=0)])
        seq.append(b.node("Transpose", [s], perm=[0, 2, 1, 3]))
    q, k, v = seq
    if score == "einsum":
        att = b.node("Einsum", [q, k], equation="bhqd,bhkd->bhqk")
    else:
        att = b.node("MatMul", [q, b.node("Transpose", [k], perm=[0, 1, 3, 2])])
    att = b.node("Softmax", [b.node("Mul", [att, b.const(np.array(d ** -0.5, np.float32), "sc")])], axis=-1)
    o = b.node("Einsum", [att, v], equation="bhqk,bhkd->bhqd") if score == "einsum" else b.node("MatMul", [att, v])
    o = b.node("Transpose", [o], perm=[0, 2, 1, 3])
    if merge == "zeros":
        o = b.node("Reshape", [o, iconst(b, [0, 0, cp], "p")])
    elif merge == "zeros_minus":
        o = b.node("Reshape", [o, iconst(b, [0, 0, -1], "p")])
    elif merge == "minus":
        o = b.node("Reshape", [o, iconst(b, [0, -1, cp], "p")])
    else:
        o = b.node("Reshape", [o, b.node("Concat", [shape_of(b, o, [0, 1]), iconst(b, [cp], "p")], axis=0)])
    if b.opset >= 17 and rng.random() < 0.5:
        o = b.node("LayerNormalization", [o, b.const(np.ones(cp, np.float32), "ln")], axis=-1)
        desc.append("layernorm")
    if rng.random() < 0.2:
        L = int(np.prod(shp[2:]))
        if L:
            o = b.node("Add", [o, b.const(b.rng_np.standard_normal([1, L, cp]).astype(np.float32), "pos")])
            desc.append(f"pos embedding L={L}")
    o = b.node("Transpose", [o], perm=[0, 2, 1])
    if b.rank > 1:
        o = b.node("Reshape", [o, b.node("Concat", [shape_of(b, x, [0]), iconst(b, [cp], "c"),
                                                    b.node("Slice", [b.node("Shape", [x]), iconst(b, [2], "s"),
                                                                     iconst(b, [BIG], "s")])], axis=0)])
    b.blocks.append("mha " + " ".join(desc))
    return o, cp


def swin(rng, b, x, c):
    """Swin's window attention as HF and torchvision write it, over [N, H, W, C] (a Transpose of x):
    sometimes padded to a multiple of w by Pad whose pads are (w - d % w) % w from Shape; the window
    partition view(N, H//w, w, W//w, w, C) from Shape, permute, view(-1, w*w, C); a Linear; the reverse
    view(-1, H//w, W//w, w, w, C) (several values that may be 0 and copy), permute, view(-1, H, W, C),
    the padding cropped by Slice to x's Shape; back to [N, C, H, W]."""
    if b.rank != 2:
        return mha(rng, b, x, c)
    w = rng.choice([2, 3, 4, 7])
    y = b.node("Transpose", [x], perm=[0, 2, 3, 1])
    padded = rng.random() < 0.5
    desc = [f"window {w}"]
    if padded:
        wc = iconst(b, [w], "w")
        hw = shape_of(b, y, [1, 2])
        pad_ = b.node("Mod", [b.node("Sub", [wc, b.node("Mod", [hw, wc])]), wc])
        pads = b.node("Concat", [iconst(b, [0, 0, 0, 0, 0], "z"), pad_, iconst(b, [0], "z")], axis=0)
        y = b.node("Pad", [y, pads], mode="constant")
        desc.append("pad (w - d % w) % w")
    n = shape_of(b, y, [0])
    hh = shape_of(b, y, [1])
    ww = shape_of(b, y, [2])
    wc = iconst(b, [w], "w")
    hq, wq = b.node("Div", [hh, wc]), b.node("Div", [ww, wc])
    cc = iconst(b, [c], "c")
    t = b.node("Reshape", [y, b.node("Concat", [n, hq, wc, wq, wc, cc], axis=0)])
    t = b.node("Transpose", [t], perm=[0, 1, 3, 2, 4, 5])
    t = b.node("Reshape", [t, iconst(b, [-1, w * w, c], "p")])
    t = b.node("MatMul", [t, b.const(b.rng_np.standard_normal([c, c]).astype(np.float32), "fc")])
    if rng.random() < 0.5:
        rev = [iconst(b, [-1], "m"), hq, wq, wc, wc, cc]
        desc.append("reverse [-1, H//w, W//w, w, w, C]")
    else:
        rev = [n, hq, wq, wc, wc, iconst(b, [-1], "m")]
        desc.append("reverse [N, H//w, W//w, w, w, -1]")
    t = b.node("Reshape", [t, b.node("Concat", rev, axis=0)])
    t = b.node("Transpose", [t], perm=[0, 1, 3, 2, 4, 5])
    t = b.node("Reshape", [t, b.node("Concat", [iconst(b, [-1], "m"), hh, ww, cc], axis=0)])
    if padded:
        t = b.node("Slice", [t, iconst(b, [0, 0], "s"), shape_of(b, x, [2, 3]), iconst(b, [1, 2], "ax")])
    y = b.node("Transpose", [t], perm=[0, 3, 1, 2])
    b.blocks.append("swin " + " ".join(desc))
    return y, c


def transpose_roundtrip(rng, b, x, c):
    """A Transpose, a Reshape merging two adjacent axes ([0, 0, -1, ...] with 0-copies, or from Shape),
    a Relu, the Reshape back to the transposed Shape and the inverse Transpose."""
    r = 2 + b.rank
    perm = list(range(r))
    rng.shuffle(perm)
    t = b.node("Transpose", [x], perm=perm)
    a = rng.randint(0, r - 2)
    if rng.random() < 0.5:
        pat = [0] * a + [-1] + [0] * (r - a - 2)
        m = b.node("Reshape", [t, iconst(b, pat, "p")])
        desc = f"pattern {pat}"
    else:
        parts = []
        if a > 0:
            parts.append(b.node("Slice", [b.node("Shape", [t]), iconst(b, [0], "s"), iconst(b, [a], "s")]))
        parts.append(iconst(b, [-1], "m"))
        if a + 2 < r:
            parts.append(b.node("Slice", [b.node("Shape", [t]), iconst(b, [a + 2], "s"), iconst(b, [BIG], "s")]))
        m = b.node("Reshape", [t, b.node("Concat", parts, axis=0)])
        desc = f"merge {a},{a + 1} from Shape"
    m = b.node("Relu", [m])
    m = b.node("Reshape", [m, b.node("Shape", [t])])
    inv = [perm.index(i) for i in range(r)]
    b.blocks.append(f"transpose {perm} reshape {desc} back")
    return b.node("Transpose", [m], perm=inv), c


def pad_shape(rng, b, x, c):
    """Pad whose pads come from Shape arithmetic: to a multiple of m at the end ((m - d % m) % m), split
    about the middle, a crop of d % m (negative pads), or d // k - j (negative at small d); constant,
    reflect or edge."""
    ax = rng.choice(spatial_axes(b))
    m = rng.choice([2, 3, 4, 8])
    kind = pick(rng, "multiple", "split", "crop", "half")
    mode = pick(rng, "constant", "reflect", "edge")
    d = shape_of(b, x, [ax])
    mc = iconst(b, [m], "m")
    zero = iconst(b, [0], "z")
    if kind == "multiple":
        lo, hi = zero, b.node("Mod", [b.node("Sub", [mc, b.node("Mod", [d, mc])]), mc])
    elif kind == "split":
        tot = b.node("Mod", [b.node("Sub", [mc, b.node("Mod", [d, mc])]), mc])
        lo = arith(b, tot, "Div", 2)
        hi = b.node("Sub", [tot, lo])
    elif kind == "crop":
        lo, hi = zero, b.node("Neg", [b.node("Mod", [d, mc])])
    else:
        j = rng.randint(1, 3)
        lo, hi = zero, arith(b, arith(b, d, "Div", m), "Sub", j)
        kind = f"d//{m}-{j}"
    r = 2 + b.rank
    parts = [iconst(b, [0] * ax, "z")] if ax else []
    parts += [lo, iconst(b, [0] * (r - ax - 1 + ax), "z"), hi]
    if r - ax - 1:
        parts.append(iconst(b, [0] * (r - ax - 1), "z"))
    pads = b.node("Concat", parts, axis=0)
    y = b.node("Pad", [x, pads], mode=mode)
    b.blocks.append(f"pad {mode} axis {ax} {kind} {m}")
    return y, c


def tile_shape(rng, b, x, c):
    """Tile with repeats from Shape: x reduced over an axis (keepdims 1) tiled by that axis's size back
    to x's Shape and added; or x tiled by d // k along another axis then Sliced back to the size."""
    ax = rng.choice(spatial_axes(b))
    r = 2 + b.rank
    if rng.random() < 0.6:
        red = b.node("ReduceMean", [x], axes=[ax], keepdims=1)
        reps = b.node("Concat", [iconst(b, [1] * ax, "one"), shape_of(b, x, [ax])] +
                      ([iconst(b, [1] * (r - ax - 1), "one")] if r - ax - 1 else []), axis=0)
        y = b.node("Add", [x, b.node("Tile", [red, reps])])
        b.blocks.append(f"tile reduced axis {ax} by d")
        return y, c
    k = rng.randint(1, 3)
    rep = arith(b, arith(b, shape_of(b, x, [ax]), "Div", k), "Add", 1)
    reps = b.node("Concat", [iconst(b, [1] * ax, "one"), rep] +
                  ([iconst(b, [1] * (r - ax - 1), "one")] if r - ax - 1 else []), axis=0)
    y = b.node("Tile", [x, reps])
    b.blocks.append(f"tile axis {ax} by d//{k}+1")
    return y, c


def axes_inputs(rng, b, x, c):
    """Squeeze, Unsqueeze and ReduceSum with axes as inputs (opset 13's form): negative axes, axes
    computed from Shape (the rank less one), ReduceSum with empty axes and noop_with_empty_axes."""
    kind = pick(rng, "neg", "computed", "noop")
    ax = rng.choice(spatial_axes(b))
    r = 2 + b.rank
    if kind == "neg":
        red = b.node("ReduceSum", [x, iconst(b, [ax - r], "ax")], keepdims=0)
        y = b.node("Unsqueeze", [red, iconst(b, [ax - r], "ax")])
        y = b.node("Squeeze", [b.node("Unsqueeze", [y, iconst(b, [-1], "ax")]), iconst(b, [-1], "ax")])
        y = b.node("Add", [x, y])
    elif kind == "computed":
        last = b.node("Sub", [b.node("Shape", [b.node("Shape", [x])]), iconst(b, [1], "k")])
        y = b.node("ReduceSum", [x, last], keepdims=1)
        y = b.node("Add", [x, b.node("Unsqueeze", [b.node("Squeeze", [y, last]), last])])
    else:
        y = b.node("ReduceSum", [x, iconst(b, [], "ax")], keepdims=1, noop_with_empty_axes=1)
    b.blocks.append(f"axes inputs {kind} axis {ax}")
    return y, c


def slice_shape(rng, b, x, c):
    """Slice with negative steps and starts or ends from Shape: [d-k::-s] (flip from d-k), [-1:d//2:-1]
    (the upper half reversed), [d//2::-2], or [d//k:d-j] (positive steps, ends from Shape)."""
    ax = rng.choice(spatial_axes(b))
    d = shape_of(b, x, [ax])
    kind = pick(rng, "flip", "upper", "half", "window")
    if kind == "flip":
        k = rng.randint(1, 3)
        s = rng.choice([1, 2])
        st, en, step = arith(b, d, "Sub", k), iconst(b, [-BIG], "s"), iconst(b, [-s], "s")
        kind = f"[d-{k}::-{s}]"
    elif kind == "upper":
        st, en, step = iconst(b, [-1], "s"), arith(b, d, "Div", 2), iconst(b, [-1], "s")
        kind = "[-1:d//2:-1]"
    elif kind == "half":
        st, en, step = arith(b, d, "Div", 2), iconst(b, [-BIG], "s"), iconst(b, [-2], "s")
        kind = "[d//2::-2]"
    else:
        k, j = rng.randint(2, 4), rng.randint(0, 2)
        st, en, step = arith(b, d, "Div", k), arith(b, d, "Sub", j), iconst(b, [1], "s")
        kind = f"[d//{k}:d-{j}]"
    y = b.node("Slice", [x, st, en, iconst(b, [ax], "ax"), step])
    b.blocks.append(f"slice shape axis {ax} {kind}")
    return y, c


def gather_shape_neg(rng, b, x, c):
    """Gather of x's Shape with negative indices feeding a Reshape: view(-1, d[-1]) (a Gather of index
    -1), view(Shape[:-2] + [-1]) (Gather of [-2, -1]'s complement), or at opset 15+ Shape(start=-1);
    a Relu, and back to x's Shape."""
    r = 2 + b.rank
    kind = pick(rng, "last", "lead", "shape15") if b.opset >= 15 else pick(rng, "last", "lead")
    if kind == "last":
        pat = b.node("Concat", [iconst(b, [-1], "m"), shape_of(b, x, [-1])], axis=0)
    elif kind == "lead":
        lead = shape_of(b, x, [i - r for i in range(r - 2)]) if r > 2 else None
        pat = b.node("Concat", ([lead] if lead else []) + [iconst(b, [-1], "m")], axis=0)
    else:
        pat = b.node("Concat", [iconst(b, [-1], "m"), b.node("Shape", [x], start=-1)], axis=0)
    y = b.node("Relu", [b.node("Reshape", [x, pat])])
    y = b.node("Reshape", [y, b.node("Shape", [x])])
    b.blocks.append(f"gather shape negative {kind}")
    return y, c


def einsum3(rng, b, x, c):
    """Einsum as exporters write it: a transpose to channels last and back, a batched product of x
    viewed [N, C, L] with its transpose (a Gram matrix) applied back, or a contraction over a spatial
    axis with a baked length (the export binding's)."""
    if b.opset < 12:
        return transpose_roundtrip(rng, b, x, c)
    letters = "nc" + "thw"[3 - b.rank:]
    kind = pick(rng, "perm", "gram", "baked")
    if kind == "perm":
        t = b.node("Einsum", [x], equation=f"{letters}->{letters[0]}{letters[2:]}{letters[1]}")
        y = b.node("Einsum", [t], equation=f"{letters[0]}{letters[2:]}{letters[1]}->{letters}")
    elif kind == "gram":
        v = b.node("Reshape", [x, iconst(b, [0, 0, -1], "p")])
        g = b.node("Softmax", [b.node("Einsum", [v, v], equation="ncl,ndl->ncd")], axis=-1)
        y = b.node("Reshape", [b.node("Einsum", [g, v], equation="ncd,ndl->ncl"), b.node("Shape", [x])])
    else:
        shp = shape3(b, x)
        if not shp or shp[-1] is None:
            return x, c
        k = shp[-1]
        e = letters[:-1] + "z"
        y = b.node("Einsum", [x, b.const(b.rng_np.standard_normal([k, k]).astype(np.float32), "e")],
                   equation=f"{letters},{letters[-1]}z->{e}")
        kind = f"baked {k}"
    b.blocks.append(f"einsum {kind}")
    return y, c


def where_shape(rng, b, x, c):
    """Where, Equal and Greater on Shape values feeding a Reshape or an Expand: a pattern [N, C, X, -1]
    with X = d // 2 where d > t else d, or f = 2 where d % 2 == 0 else 1 and [N, C*f, d//f, ...]; or
    torch's expand (Where(Equal(shape, -1), 1, shape)), or x expanded to max(d, t) (Where of Greater)."""
    ax = rng.choice(spatial_axes(b))
    r = 2 + b.rank
    d = shape_of(b, x, [ax])
    t = rng.randint(1, 8)
    tc = iconst(b, [t], "t")
    kind = pick(rng, "gt", "even", "expand", "max")
    if kind == "gt":
        xd = b.node("Where", [b.node("Greater", [d, tc]), arith(b, d, "Div", 2), d])
        pat = b.node("Concat", [shape_of(b, x, list(range(ax))), xd, iconst(b, [-1], "m")], axis=0)
        y = b.node("Reshape", [b.node("Relu", [b.node("Reshape", [x, pat])]), b.node("Shape", [x])])
        kind = f"[.., d//2 if d > {t} else d, -1]"
    elif kind == "even":
        two, one = iconst(b, [2], "k"), iconst(b, [1], "k")
        f = b.node("Where", [b.node("Equal", [arith(b, d, "Mod", 2), iconst(b, [0], "z")]), two, one])
        lead = shape_of(b, x, list(range(ax)))
        rest = [b.node("Slice", [b.node("Shape", [x]), iconst(b, [ax + 1], "s"), iconst(b, [BIG], "s")])] \
            if ax + 1 < r else []
        pat = b.node("Concat", [lead, b.node("Div", [d, f]), f] + rest, axis=0)
        y = b.node("Reshape", [b.node("Relu", [b.node("Reshape", [x, pat])]), b.node("Shape", [x])])
        kind = "split even d by 2"
    elif kind == "expand":
        red = b.node("ReduceMax", [x], axes=[ax], keepdims=1)
        shp = b.node("Shape", [x])
        m1 = iconst(b, [-1] * r, "m")
        tgt = b.node("Where", [b.node("Equal", [shp, m1]), iconst(b, [1] * r, "one"), shp])
        y = b.node("Add", [x, b.node("Expand", [red, tgt])])
        kind = "torch expand"
    else:
        mx = b.node("Where", [b.node("Greater", [d, tc]), d, tc])
        tgt = b.node("Concat", [shape_of(b, x, list(range(ax))), mx] +
                     ([b.node("Slice", [b.node("Shape", [x]), iconst(b, [ax + 1], "s"), iconst(b, [BIG], "s")])]
                      if ax + 1 < r else []), axis=0)
        y = b.node("Expand", [x, tgt])
        kind = f"expand to max(d, {t})"
    b.blocks.append(f"where shape axis {ax} {kind}")
    return y, c


def resize_sv(rng, b, x, c):
    """Resize by non-integer scales (1.5, 0.75, 0.4, 2.5; nearest or linear, a coordinate transformation
    mode) or by sizes d*3//2 or (d+1)//2 from Shape."""
    ctm = pick(rng, "half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel")
    mode = pick(rng, "nearest", "linear")
    if rng.random() < 0.5:
        s = [rng.choice([1.5, 0.75, 0.4, 2.5, 1.0]) for _ in range(b.rank)]
        y = b.node("Resize", [x, "", b.const(np.array([1.0, 1.0] + s, np.float32), "scales")], mode=mode,
                   coordinate_transformation_mode=ctm)
        b.blocks.append(f"resize scales {s} {mode} {ctm}")
        return y, c
    parts = [shape_of(b, x, [0, 1])]
    desc = []
    for ax in spatial_axes(b):
        if rng.random() < 0.5:
            parts.append(arith(b, arith(b, shape_of(b, x, [ax]), "Mul", 3), "Div", 2))
            desc.append("d*3//2")
        else:
            parts.append(arith(b, arith(b, shape_of(b, x, [ax]), "Add", 1), "Div", 2))
            desc.append("(d+1)//2")
    y = b.node("Resize", [x, "", "", b.node("Concat", parts, axis=0)], mode=mode, coordinate_transformation_mode=ctm)
    b.blocks.append(f"resize sizes {desc} {mode} {ctm}")
    return y, c


def convt_shape(rng, b, x, c):
    """ConvTranspose with output_padding and auto_pad SAME_UPPER/SAME_LOWER, or with output_shape baked
    at the export binding (detection and audio decoders), whose pads go negative elsewhere."""
    ks = kernel(rng, b, 2, 4)
    strides = [rng.randint(1, 3) for _ in range(b.rank)]
    cout = rng.randint(1, 3)
    attrs = {"kernel_shape": ks, "strides": strides}
    if rng.random() < 0.5:
        attrs["auto_pad"] = pick(rng, "SAME_UPPER", "SAME_LOWER")
        attrs["output_padding"] = [rng.randint(0, s - 1) for s in strides]
    else:
        shp = shape3(b, x)
        if not shp or None in shp[2:]:
            return conv_t_op(rng, b, x, c)
        attrs["output_shape"] = [s * d + rng.randint(-1, 1) for s, d in zip(strides, shp[2:])]
    y = b.node("ConvTranspose", [x, b.weight(c, cout, ks)], **attrs)
    b.blocks.append(f"convT shape {attrs}")
    return y, cout


def d2s_round(rng, b, x, c):
    """SpaceToDepth then DepthToSpace by the same block (2..4; DCR or CRD): x's size only where the
    block divides it."""
    if b.rank != 2:
        return slice_shape(rng, b, x, c)
    k = rng.randint(2, 4)
    y = b.node("SpaceToDepth", [x], blocksize=k)
    y = b.node("DepthToSpace", [y], blocksize=k, mode=pick(rng, "DCR", "CRD"))
    b.blocks.append(f"s2d d2s {k}")
    return y, c


WIDE3 = [(mha, 3), (swin, 2.5), (transpose_roundtrip, 1.5), (pad_shape, 2), (tile_shape, 1.2),
         (axes_inputs, 1.2), (slice_shape, 2), (gather_shape_neg, 1.2), (einsum3, 1), (where_shape, 2),
         (resize_sv, 1.5), (convt_shape, 1.5), (d2s_round, 0.8)]
OPSETS3 = [11, 13, 17]


def opset11(m):
    """m (written in opset 13's forms) at opset 11: Squeeze, Unsqueeze, ReduceSum and Split with their
    constant axes or sizes as attributes, Resize with an empty roi (and empty scales beside sizes).
    None where that cannot be (axes or sizes computed, or an operator opset 11 lacks)."""
    inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    extra = []
    if not opset11_graph(m.graph, inits, extra):
        return None
    m.graph.initializer.extend(extra)
    m.opset_import[0].version = 11
    return m


def opset11_graph(g, inits, extra):
    """opset11's work on the nodes of g and its subgraphs, in place; False where it cannot be."""
    for n in g.node:
        if n.op_type == "Einsum" or any(a.name in ("noop_with_empty_axes",) for a in n.attribute):
            return False
        if n.op_type in ("Squeeze", "Unsqueeze", "ReduceSum", "Split") and len(n.input) > 1 and n.input[1]:
            if n.input[1] not in inits:
                return False
            vals = [int(v) for v in inits[n.input[1]].reshape(-1)]
            del n.input[1:]
            n.attribute.append(helper.make_attribute("split" if n.op_type == "Split" else "axes", vals))
        if n.op_type == "Resize":
            for i in (1, 2):
                if len(n.input) > i and n.input[i] == "":
                    nm = f"empty_{n.name}_{i}"
                    extra.append(numpy_helper.from_array(np.zeros(0, np.float32), nm))
                    n.input[i] = nm
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH and not opset11_graph(a.g, inits, extra):
                return False
    return True


def make(rng, index, seed=0):
    if seed < 2:
        rank = 2 if rng.random() < 0.6 else 1
    else:
        r = rng.random()
        rank = 2 if r < 0.5 else 1 if r < 0.8 else 3
    b = Builder(rng, rank)
    if seed >= 3:
        b.opset = rng.choice(OPSETS3)
    b.rng_np = np.random.default_rng(index)
    box = {1: BOX1, 2: BOX2, 3: BOX3}[rank]
    syms = list(box)
    c = rng.randint(1, 4)
    dims = [syms[0], c] + syms[1:]
    export = {syms[0]: rng.randint(1, 2)}
    for s in syms[1:]:
        export[s] = rng.randint(box[s][0] + (box[s][1] - box[s][0]) // 3, box[s][1])
    x = "x"
    inp = helper.make_tensor_value_info("x", TensorProto.FLOAT, dims)

    def shape_at(t):
        g = helper.make_graph(b.nodes, "g", [helper.make_tensor_value_info(
            "x", TensorProto.FLOAT, [export[d] if isinstance(d, str) else d for d in dims])],
            [helper.make_tensor_value_info(t, TensorProto.FLOAT, None)], b.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", max(b.opset, OPSET))])
        try:
            inf = shape_inference.infer_shapes(m, strict_mode=True)
        except Exception:
            return None
        for vi in list(inf.graph.value_info) + list(inf.graph.output):
            if vi.name == t and vi.type.tensor_type.HasField("shape"):
                return [d.dim_value if d.HasField("dim_value") else None for d in vi.type.tensor_type.shape.dim]
        return None

    b.shape_at, b.export, b.syms, b.runtime = shape_at, export, syms, False
    b.export_dims = [export[d] if isinstance(d, str) else d for d in dims]
    nblocks = rng.randint(2, 6)
    blocks = BLOCKS + (WIDE if seed >= 1 else []) + (WIDE2 if seed >= 2 else []) + (WIDE3 if seed >= 3 else [])
    if rank == 3:
        blocks = [(f, w) for f, w in blocks if f not in RANK12]
    weights = [w for _, w in blocks]
    for _ in range(nblocks):
        fn = rng.choices([f for f, _ in blocks], weights)[0]
        if fn == "split":
            x, c2 = split(rng, b, x, c, shape_at)
        else:
            x, c2 = fn(rng, b, x, c)
        c = c2
    if rng.random() < 0.5:
        x = (head2 if seed >= 2 else head)(rng, b, x, c, shape_at, export[syms[0]])
    out = helper.make_tensor_value_info(x, TensorProto.FLOAT, None)
    g = helper.make_graph(b.nodes, f"rand{index}", [inp], [out], b.inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", max(b.opset, OPSET))])
    m.ir_version = 8 if b.opset >= 17 else 7
    extra = {}
    if seed >= 3:
        if b.opset == 11:
            m11 = opset11(onnx.ModelProto.FromString(m.SerializeToString()))
            if m11 is None:
                b.opset = OPSET  # a form opset 11 lacks: the model stays at 13
            else:
                m = m11
        extra["opset"] = b.opset
    return m, {"symbols": syms, "box": box, "input": {"name": "x", "dims": dims}, "export": export,
               "blocks": b.blocks, **({"runtime": True} if b.runtime else {}), **extra}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="/tmp/randmodels")
    a = ap.parse_args()
    os.makedirs(os.path.join(a.out, "models"), exist_ok=True)
    meta = []
    for i in range(a.count):
        rng = random.Random(a.seed * 100003 + i)
        m, info = make(rng, i, a.seed)
        name = f"r{a.seed}_{i:04d}"
        path = os.path.join(a.out, "models", name + ".onnx")
        onnx.save(m, path)
        meta.append(dict(name=name, file=os.path.relpath(path, a.out), **info))
    with open(os.path.join(a.out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(f"{len(meta)} models in {a.out}")


if __name__ == "__main__":
    main()
