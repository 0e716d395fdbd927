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


def make(rng, index, seed=0):
    if seed < 2:
        rank = 2 if rng.random() < 0.6 else 1
    else:
        r = rng.random()
        rank = 2 if r < 0.5 else 1 if r < 0.8 else 3
    b = Builder(rng, rank)
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
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)])
        try:
            inf = shape_inference.infer_shapes(m, strict_mode=True)
        except Exception:
            return None
        for vi in list(inf.graph.value_info) + list(inf.graph.output):
            if vi.name == t and vi.type.tensor_type.HasField("shape"):
                return [d.dim_value if d.HasField("dim_value") else None for d in vi.type.tensor_type.shape.dim]
        return None

    b.shape_at, b.export, b.syms, b.runtime = shape_at, export, syms, False
    nblocks = rng.randint(2, 6)
    blocks = BLOCKS + (WIDE if seed >= 1 else []) + (WIDE2 if seed >= 2 else [])
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
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)])
    m.ir_version = 7
    return m, {"symbols": syms, "box": box, "input": {"name": "x", "dims": dims}, "export": export,
               "blocks": b.blocks, **({"runtime": True} if b.runtime else {})}


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
