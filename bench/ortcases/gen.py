#!/usr/bin/python3
"""Shape-inference cases for the operators ONNX 1.12's node tests miss, with onnxruntime's answers:
writes graph/testdata/ortcases.jsonl.gz.

ONNX 1.12's node tests (bench/nodetests) stop at opset 17 and at the default domain. The cases here
are the default domain's operators and versions 18 to 21 (what onnxruntime 1.20.1 runs), the
com.microsoft contrib operators that onnxruntime's transformer optimizer and quantizer emit, string
and optional values, and ai.onnx.preview.training. Each case is a small model built with
onnx.helper (CASES below: one operator and form, sometimes with the few nodes that feed it as
exporters do); onnx 1.12's checker does not know most of these operators and is not used.

Each case is run by onnxruntime-node 1.20.1 (ort_run.js; graph optimizations off) as two models:

  static    integer inputs of static shape and at most 64 elements (shape constants, axes, pads,
            sizes) and the inputs a case marks constant (weights, Resize's scales) are initializers;
            the other inputs have the static shape of the case's first binding.
  symbolic  the same, with the case's symbols (B, S, P, ...) as dim_params, run at every binding
            of the case (at least two).

A row of the fixture (JSON Lines, keys sorted, gzip with no name and no time: the same bytes every
run) is one model at one binding; its variant says how graph infers it:

  static        the static model, inferred as it is
  symbolic@K    the symbolic model inferred without a binding, its answer evaluated at binding K
  bound@K       the symbolic model inferred with binding K (graph.Options.Dims)

  name      the case (OP-OPSET_FORM, "ms." before a com.microsoft operator, "training." before an
            ai.onnx.preview.training one); op, domain and opset its operator, ops every operator of
            the model (DOMAIN:OP outside the default domain), opsets the model's imports
  binding   the symbols' values (symbolic@K, bound@K); consts the inputs made initializers
  model     the model, base64 of its ModelProto
  outputs   per graph output: name, type (the ONNX data type's name), shape, values (for integer and
            boolean outputs of at most 64 elements), data (why the shape depends on the data of a
            non-constant input, when it does), spec (the shape the operator's documentation gives,
            when it differs from onnxruntime's)
  source    "onnxruntime" (the run's types, shapes and values) or "spec" (onnxruntime refused the
            model: the shapes are the documentation's, ContribOperators.md or the ONNX spec, and
            ort_error holds onnxruntime's refusal)

  cd REPO && /usr/bin/python3 bench/ortcases/gen.py        # ~40 s; NODE_PATH as below

onnxruntime-node is found through NODE_PATH (else /work/ort/node_modules).
"""
import base64
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import zlib

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "graph", "testdata", "ortcases.jsonl.gz")
# The bindings at which onnxruntime refuses a case's symbolic model, with its refusal (TestORTRefusals).
REFUSED = os.path.join(ROOT, "graph", "testdata", "ortrefusals.jsonl.gz")


def nodetests_gen():
    """bench/nodetests/gen.py as a module."""
    spec = importlib.util.spec_from_file_location("nodetests_gen", os.path.join(ROOT, "bench", "nodetests", "gen.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


NODETESTS = nodetests_gen()  # its all_ops (every operator of a graph) and write_rows (the fixture's format)
all_ops = NODETESTS.all_ops

MAX_CONST = 64  # integer inputs of static shape and at most this many elements become initializers
MAX_VALUES = 64  # integer and boolean outputs of at most this many elements record their values
MS = "com.microsoft"
TRAINING = "ai.onnx.preview.training"

# Data types onnx 1.12 has no name for.
FLOAT8E4M3FN, UINT4, INT4 = 17, 21, 22
TYPE_NAMES = dict(T.DataType.items())
TYPE_NAMES.update({"FLOAT8E4M3FN": 17, "FLOAT8E4M3FNUZ": 18, "FLOAT8E5M2": 19, "FLOAT8E5M2FNUZ": 20,
                   "UINT4": 21, "INT4": 22})
TYPE_NAME = {v: k for k, v in TYPE_NAMES.items()}
NP = {T.FLOAT: np.float32, T.DOUBLE: np.float64, T.FLOAT16: np.float16, T.INT8: np.int8, T.UINT8: np.uint8,
      T.INT16: np.int16, T.UINT16: np.uint16, T.INT32: np.int32, T.UINT32: np.uint32, T.INT64: np.int64,
      T.UINT64: np.uint64, T.BOOL: np.bool_}
ORT_TYPE = {T.FLOAT: "float32", T.DOUBLE: "float64", T.FLOAT16: "float16", T.INT8: "int8", T.UINT8: "uint8",
            T.INT16: "int16", T.UINT16: "uint16", T.INT32: "int32", T.UINT32: "uint32", T.INT64: "int64",
            T.UINT64: "uint64", T.BOOL: "bool", T.STRING: "string", INT4: "int4", UINT4: "uint4"}
ONNX_OF_ORT = {v: TYPE_NAME[k] for k, v in ORT_TYPE.items()}
INTEGER = {T.INT8, T.UINT8, T.INT16, T.UINT16, T.INT32, T.UINT32, T.INT64, T.UINT64}


def tensor_proto(name, dtype, a):
    """An initializer, int4 and uint4 packed two to a byte, the first in the low nibble."""
    if dtype in (INT4, UINT4):
        flat = [int(v) & 0xF for v in np.asarray(a).reshape(-1)] + [0]
        t = onnx.TensorProto(name=name, data_type=dtype, dims=list(np.shape(a)))
        t.raw_data = bytes(flat[i] | flat[i + 1] << 4 for i in range(0, len(flat) - 1, 2))
        return t
    return numpy_helper.from_array(np.asarray(a, dtype=NP[dtype]), name)


class In:
    """A graph input of a case: its name, data type, dims (ints and symbol names), and either its
    value (a constant: an initializer) or how to fill it at run time (fill(rng, shape) -> array)."""

    def __init__(self, name, dtype, dims, value=None, fill=None, const=None):
        self.name, self.dtype, self.dims, self.value, self.fill = name, dtype, list(dims), value, fill
        static = all(isinstance(d, int) for d in self.dims)
        if const is None:
            const = value is not None or (dtype in INTEGER and static and int(np.prod(self.dims)) <= MAX_CONST
                                          and fill is None)
        if const and not static:
            raise ValueError(f"input {name}: a constant needs a static shape")
        self.const = const


class Case:
    """One operator in one form: the model's nodes, inputs and outputs, the bindings of its symbols
    (the first is the static variant's), the documentation's shapes (spec(binding) -> one shape
    per output, or None where it says nothing), and why an output's shape depends on run-time
    data (data: output name -> reason)."""

    def __init__(self, name, op, domain, opset, nodes, inputs, outputs, bindings, spec=None, data=None,
                 default_opset=None, refuse=()):
        self.name, self.op, self.domain, self.opset = name, op, domain, opset
        used = {d for i in inputs if not i.const for d in i.dims if isinstance(d, str)}
        self.nodes, self.inputs, self.outputs = nodes, inputs, outputs
        # the bindings of the symbols the model has; spec reads the whole binding (T = P + S)
        self.bindings = [{k: v for k, v in sorted(b.items()) if k in used} for b in bindings]
        self.full = dict(zip(map(json.dumps, self.bindings), bindings))
        self.spec, self.data = spec, data or {}
        self.default_opset = default_opset or (opset if domain == "" else 17)
        # bindings of the symbols at which onnxruntime refuses the symbolic model (REFUSED's rows)
        self.refuse = [dict(sorted(b.items())) for b in refuse]


CASES = []


def node(op, ins, outs, domain="", **attrs):
    return helper.make_node(op, [i or "" for i in ins], [o or "" for o in outs], domain=domain, **attrs)


def add(name, op, inputs, outputs, attrs=None, domain="", opset=None, bindings=None, spec=None, data=None,
        node_inputs=None, pre=(), post=None, default_opset=None, refuse=()):
    """Adds a case of one node of op (with pre nodes before it and post nodes after it when given).
    node_inputs lists the node's inputs ("" for an absent optional one), by default the inputs' names;
    outputs are (name, type) pairs, None for an absent optional output of the node. post is (the
    node's outputs, the nodes after it, the graph's outputs) when other nodes read the node's."""
    if opset is None:
        opset = 1 if domain in (MS, TRAINING) else 21
    names = node_inputs if node_inputs is not None else [i.name for i in inputs]
    outs = [o[0] if o else "" for o in outputs]
    main = node(op, names, outs if post is None else post[0], domain=domain, **(attrs or {}))
    nodes = list(pre) + [main] + (list(post[1]) if post else [])
    graph_outputs = [o for o in outputs if o] if post is None else post[2]
    CASES.append(Case(name, op, domain, opset, nodes, inputs, graph_outputs, bindings or [{}], spec, data,
                      default_opset, refuse))


def uniform(lo=-1.0, hi=1.0, dtype=np.float32):
    return lambda rng, shape: rng.uniform(lo, hi, shape).astype(dtype)


def randint(lo, hi, dtype):
    return lambda rng, shape: rng.integers(lo, hi, shape).astype(NP[dtype])


def full(v, dtype):
    return lambda rng, shape: np.full(shape, v, dtype=NP[dtype])


def strings(words):
    return lambda rng, shape: np.array([words[i % len(words)] for i in range(int(np.prod(shape)))],
                                       dtype=object).reshape(shape)


def dims(shape, b):
    return [d if isinstance(d, int) else b[d] for d in shape]


# Bindings used by many cases. B, S: batch and sequence length; P: past sequence length; T: the total,
# P+S; L: the key's sequence length; H, W: image sizes; N: a batch of images.
BS = [{"B": 2, "S": 3}, {"B": 3, "S": 5}, {"B": 1, "S": 1}]
BSL = [{"B": 2, "S": 3, "L": 4}, {"B": 3, "S": 1, "L": 5}]
BSPT = [{"B": 2, "S": 3, "P": 4, "T": 7}, {"B": 3, "S": 1, "P": 5, "T": 6}]
NHW = [{"N": 2, "H": 5, "W": 6}, {"N": 1, "H": 8, "W": 7}]


def f32(name, shape, lo=-1.0, hi=1.0):
    return In(name, T.FLOAT, shape, fill=uniform(lo, hi))


def weight(name, shape, lo=-1.0, hi=1.0, dtype=T.FLOAT):
    """A float constant: a weight, as models hold them."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return In(name, dtype, shape, value=rng.uniform(lo, hi, shape).astype(NP[dtype]))


def const(name, values, dtype=T.INT64, shape=None):
    a = np.array(values, dtype=NP[dtype])
    if shape is not None:
        a = a.reshape(shape)
    return In(name, dtype, list(a.shape), value=a)


def same(*names):
    """spec: every output has the shape of the input dims given (a list of dims)."""
    return lambda b: [dims(n, b) for n in names]


# ---------------------------------------------------------------------------------------------------
# com.microsoft
# ---------------------------------------------------------------------------------------------------

def attention_cases():
    # Attention: input [B,S,8] projected by weights [8, 8+8+v] into Q, K, V of num_heads=2 heads.
    x, w, bias = f32("input", ["B", "S", 8]), weight("weights", [8, 24]), weight("bias", [24])
    y = ("output", T.FLOAT)
    add("ms.Attention-1_basic", "Attention", [x, w, bias], [y], dict(num_heads=2), MS, bindings=BS,
        spec=same(["B", "S", 8]))
    add("ms.Attention-1_unidirectional", "Attention", [x, w, bias], [y], dict(num_heads=2, unidirectional=1), MS,
        bindings=BS, spec=same(["B", "S", 8]))
    mask2 = In("mask_index", T.INT32, ["B", "S"], fill=full(1, T.INT32))
    add("ms.Attention-1_mask_2d", "Attention", [x, w, bias, mask2], [y], dict(num_heads=2), MS, bindings=BS,
        spec=same(["B", "S", 8]))
    mask1 = In("mask_index", T.INT32, ["B"], fill=full(1, T.INT32))
    add("ms.Attention-1_mask_1d", "Attention", [x, w, bias, mask1], [y], dict(num_heads=2), MS, bindings=BS,
        spec=same(["B", "S", 8]))
    mask3 = In("mask_index", T.INT32, ["B", "S", "S"], fill=full(1, T.INT32))
    add("ms.Attention-1_mask_3d", "Attention", [x, w, bias, mask3], [y], dict(num_heads=2), MS, bindings=BS,
        spec=same(["B", "S", 8]))
    wq, bq = weight("weights", [8, 28]), weight("bias", [28])
    add("ms.Attention-1_qkv_hidden_sizes", "Attention", [x, wq, bq], [y],
        dict(num_heads=2, qkv_hidden_sizes=[8, 8, 12]), MS, bindings=BS, spec=same(["B", "S", 12]))
    ab = f32("attention_bias", ["B", 2, "S", "S"])
    add("ms.Attention-1_attention_bias", "Attention", [x, w, bias, ab], [y], dict(num_heads=2), MS, bindings=BS,
        node_inputs=["input", "weights", "bias", "", "", "attention_bias"], spec=same(["B", "S", 8]))
    maskT = In("mask_index", T.INT32, ["B", "T"], fill=full(1, T.INT32))
    past = f32("past", [2, "B", 2, "P", 4])
    present = ("present", T.FLOAT)
    for uni in (0, 1):
        add(f"ms.Attention-1_past{'_unidirectional' if uni else ''}", "Attention", [x, w, bias, maskT, past],
            [y, present], dict(num_heads=2, unidirectional=uni), MS, bindings=BSPT,
            spec=same(["B", "S", 8], [2, "B", 2, "T", 4]))


def mha_cases():
    # MultiHeadAttention, num_heads=2: query [B,S,8]; key and value [B,L,8] (or packed, or BNSH).
    q = f32("query", ["B", "S", 8])
    k, v = f32("key", ["B", "L", 8]), f32("value", ["B", "L", 12])
    y = ("output", T.FLOAT)
    add("ms.MultiHeadAttention-1_cross", "MultiHeadAttention", [q, k, v], [y], dict(num_heads=2), MS,
        bindings=BSL, spec=same(["B", "S", 12]))
    ks, vs = f32("key", ["B", "S", 8]), f32("value", ["B", "S", 8])
    add("ms.MultiHeadAttention-1_bias", "MultiHeadAttention", [q, ks, vs, weight("bias", [24])], [y],
        dict(num_heads=2), MS, bindings=BS, spec=same(["B", "S", 8]))
    add("ms.MultiHeadAttention-1_unidirectional", "MultiHeadAttention", [q, ks, vs], [y],
        dict(num_heads=2, unidirectional=1), MS, bindings=BS, spec=same(["B", "S", 8]))
    add("ms.MultiHeadAttention-1_packed_qkv", "MultiHeadAttention", [f32("query", ["B", "S", 2, 3, 4])], [y],
        dict(num_heads=2), MS, bindings=BS, spec=same(["B", "S", 8]))
    add("ms.MultiHeadAttention-1_packed_kv", "MultiHeadAttention", [q, f32("key", ["B", "L", 2, 2, 4])], [y],
        dict(num_heads=2), MS, bindings=BSL, spec=same(["B", "S", 8]))
    kb, vb = f32("key", ["B", 2, "L", 4]), f32("value", ["B", 2, "L", 4])
    add("ms.MultiHeadAttention-1_bnsh_kv", "MultiHeadAttention", [q, kb, vb], [y], dict(num_heads=2), MS,
        bindings=BSL, spec=same(["B", "S", 8]))
    kpm = In("key_padding_mask", T.INT32, ["B", "L"], fill=full(1, T.INT32))
    add("ms.MultiHeadAttention-1_key_padding_mask", "MultiHeadAttention", [q, k, v, kpm], [y], dict(num_heads=2),
        MS, bindings=BSL, node_inputs=["query", "key", "value", "", "key_padding_mask"], spec=same(["B", "S", 12]))
    ab = f32("attention_bias", [1, 2, "S", "L"])
    add("ms.MultiHeadAttention-1_attention_bias", "MultiHeadAttention", [q, k, v, ab], [y], dict(num_heads=2), MS,
        bindings=BSL, node_inputs=["query", "key", "value", "", "", "attention_bias"], spec=same(["B", "S", 12]))
    pk, pv = f32("past_key", ["B", 2, "P", 4]), f32("past_value", ["B", 2, "P", 4])
    pres = [("present_key", T.FLOAT), ("present_value", T.FLOAT)]
    for uni in (0, 1):
        add(f"ms.MultiHeadAttention-1_past{'_unidirectional' if uni else ''}", "MultiHeadAttention",
            [q, ks, vs, pk, pv], [y] + pres, dict(num_heads=2, unidirectional=uni), MS, bindings=BSPT,
            node_inputs=["query", "key", "value", "", "", "", "past_key", "past_value"],
            spec=same(["B", "S", 8], ["B", 2, "T", 4], ["B", 2, "T", 4]))
    kpmT = In("key_padding_mask", T.INT32, ["B", "T"], fill=full(1, T.INT32))
    add("ms.MultiHeadAttention-1_past_mask", "MultiHeadAttention", [q, ks, vs, kpmT, pk, pv], [y] + pres,
        dict(num_heads=2), MS, bindings=BSPT,
        node_inputs=["query", "key", "value", "", "key_padding_mask", "", "past_key", "past_value"],
        spec=same(["B", "S", 8], ["B", 2, "T", 4], ["B", 2, "T", 4]))
    add("ms.MultiHeadAttention-1_present_without_past", "MultiHeadAttention", [q, ks, vs], [y] + pres,
        dict(num_heads=2), MS, bindings=BS, spec=same(["B", "S", 8], ["B", 2, "S", 4], ["B", 2, "S", 4]))


def gqa_pre(mask="attention_mask"):
    """The nodes onnxruntime-genai's models compute GroupQueryAttention's seqlens_k and
    total_sequence_length with, from the attention mask [B,T] (int64)."""
    return [
        node("ReduceSum", [mask, "one_axis"], ["mask_sum"], keepdims=0),
        node("Sub", ["mask_sum", "one"], ["mask_sum_1"]),
        node("Cast", ["mask_sum_1"], ["seqlens_k"], to=T.INT32),
        node("Shape", [mask], ["mask_shape"]),
        node("Gather", ["mask_shape", "one"], ["total_len"], axis=0),
        node("Cast", ["total_len"], ["total_sequence_length"], to=T.INT32),
    ]


def gqa_cases():
    # GroupQueryAttention: num_heads=4 query heads, kv_num_heads=2, head size 8 (onnxruntime's CPU kernel
    # wants a multiple of 8).
    mask = In("attention_mask", T.INT64, ["B", "T"], fill=full(1, T.INT64))
    consts = [const("one_axis", [1]), const("one", 1, shape=())]
    q, k, v = f32("query", ["B", "S", 32]), f32("key", ["B", "S", 16]), f32("value", ["B", "S", 16])
    pk, pv = f32("past_key", ["B", 2, "P", 8]), f32("past_value", ["B", 2, "P", 8])
    outs = [("output", T.FLOAT), ("present_key", T.FLOAT), ("present_value", T.FLOAT)]
    attrs = dict(num_heads=4, kv_num_heads=2)
    seq = ["seqlens_k", "total_sequence_length"]
    prompt = [{"B": 2, "S": 3, "T": 3}, {"B": 1, "S": 5, "T": 5}]
    spec_prompt = same(["B", "S", 32], ["B", 2, "T", 8], ["B", 2, "T", 8])
    add("ms.GroupQueryAttention-1_prompt", "GroupQueryAttention", [q, k, v, mask] + consts, outs, attrs, MS,
        bindings=prompt, node_inputs=["query", "key", "value", "", ""] + seq, pre=gqa_pre(), spec=spec_prompt)
    past = [{"B": 2, "S": 1, "P": 4, "T": 5}, {"B": 3, "S": 1, "P": 6, "T": 7}, {"B": 1, "S": 3, "P": 2, "T": 5}]
    spec_past = same(["B", "S", 32], ["B", 2, "T", 8], ["B", 2, "T", 8])
    add("ms.GroupQueryAttention-1_past", "GroupQueryAttention", [q, k, v, pk, pv, mask] + consts, outs, attrs,
        MS, bindings=past, node_inputs=["query", "key", "value", "past_key", "past_value"] + seq, pre=gqa_pre(),
        spec=spec_past)
    qkv = f32("query", ["B", "S", 64])
    add("ms.GroupQueryAttention-1_packed_qkv", "GroupQueryAttention", [qkv, pk, pv, mask] + consts, outs, attrs,
        MS, bindings=past, node_inputs=["query", "", "", "past_key", "past_value"] + seq, pre=gqa_pre(),
        spec=spec_past)
    # Rotary embedding: onnxruntime's CPU kernel wants a head size that is a multiple of 16: 2 query heads
    # and 1 KV head of 16.
    cos, sin = weight("cos_cache", [16, 8]), weight("sin_cache", [16, 8])
    rk, rv = f32("past_key", ["B", 1, "P", 16]), f32("past_value", ["B", 1, "P", 16])
    for inter in (0, 1):
        add(f"ms.GroupQueryAttention-1_rotary{'_interleaved' if inter else ''}", "GroupQueryAttention",
            [q, k, v, rk, rv, mask, cos, sin] + consts, outs,
            dict(num_heads=2, kv_num_heads=1, do_rotary=1, rotary_interleaved=inter), MS, bindings=past,
            pre=gqa_pre(),
            node_inputs=["query", "key", "value", "past_key", "past_value"] + seq + ["cos_cache", "sin_cache"],
            spec=same(["B", "S", 32], ["B", 1, "T", 16], ["B", 1, "T", 16]))
    # A shared KV buffer: past_key holds M >= T positions; present has the length of the buffer.
    bk, bv = f32("past_key", ["B", 2, "M", 8]), f32("past_value", ["B", 2, "M", 8])
    shared = [{"B": 2, "S": 1, "M": 8, "T": 5}, {"B": 1, "S": 1, "M": 12, "T": 3}]
    add("ms.GroupQueryAttention-1_shared_buffer", "GroupQueryAttention", [q, k, v, bk, bv, mask] + consts, outs,
        attrs, MS, bindings=shared, pre=gqa_pre(),
        node_inputs=["query", "key", "value", "past_key", "past_value"] + seq,
        spec=same(["B", "S", 32], ["B", 2, "M", 8], ["B", 2, "M", 8]))
    add("ms.GroupQueryAttention-1_local_window", "GroupQueryAttention", [q, k, v, pk, pv, mask] + consts, outs,
        dict(attrs, local_window_size=2), MS, bindings=past, pre=gqa_pre(),
        node_inputs=["query", "key", "value", "past_key", "past_value"] + seq, spec=spec_past)


def rotary_cases():
    # RotaryEmbedding: position_ids index the cos/sin caches [16, head_size/2]; the output is the input's shape.
    pos = In("position_ids", T.INT64, ["B", "S"], fill=randint(0, 16, T.INT64))
    cos, sin = weight("cos_cache", [16, 2]), weight("sin_cache", [16, 2])
    y = [("output", T.FLOAT)]
    for inter in (0, 1):
        add(f"ms.RotaryEmbedding-1_3d{'_interleaved' if inter else ''}", "RotaryEmbedding",
            [f32("input", ["B", "S", 8]), pos, cos, sin], y, dict(interleaved=inter), MS, bindings=BS,
            spec=same(["B", "S", 8]))
    add("ms.RotaryEmbedding-1_4d", "RotaryEmbedding", [f32("input", ["B", 2, "S", 4]), pos, cos, sin], y, {}, MS,
        bindings=BS, spec=same(["B", 2, "S", 4]))
    add("ms.RotaryEmbedding-1_position_offset", "RotaryEmbedding",
        [f32("input", ["B", "S", 8]), const("position_ids", [2]), cos, sin], y, {}, MS, bindings=BS,
        spec=same(["B", "S", 8]))
    c1, s1 = weight("cos_cache", [16, 1]), weight("sin_cache", [16, 1])
    add("ms.RotaryEmbedding-1_partial", "RotaryEmbedding", [f32("input", ["B", "S", 8]), pos, c1, s1], y,
        dict(num_heads=2, rotary_embedding_dim=2), MS, bindings=BS, spec=same(["B", "S", 8]))


def layernorm_cases():
    x, skip, g, beta = f32("input", ["B", "S", 8]), f32("skip", ["B", "S", 8]), weight("gamma", [8]), weight("beta", [8])
    y = ("output", T.FLOAT)
    add("ms.SkipLayerNormalization-1_basic", "SkipLayerNormalization", [x, skip, g, beta], [y], {}, MS,
        bindings=BS, spec=same(["B", "S", 8]))
    # The mean and inv_std_var outputs crash onnxruntime-node 1.20.1 (SIGSEGV) and ContribOperators.md gives
    # them no shape: no case has them.
    add("ms.SkipLayerNormalization-1_bias_sum_output", "SkipLayerNormalization", [x, skip, g, beta, weight("bias", [8])],
        [y, None, None, ("input_skip_bias_sum", T.FLOAT)], {}, MS, bindings=BS,
        spec=same(["B", "S", 8], ["B", "S", 8]))
    add("ms.SkipLayerNormalization-1_sum_output", "SkipLayerNormalization", [x, skip, g],
        [y, None, None, ("input_skip_bias_sum", T.FLOAT)], {}, MS, bindings=BS,
        spec=same(["B", "S", 8], ["B", "S", 8]))
    add("ms.SkipLayerNormalization-1_skip_broadcast", "SkipLayerNormalization", [x, f32("skip", [1, "S", 8]), g],
        [y], {}, MS, bindings=BS, spec=same(["B", "S", 8]))
    add("ms.SkipLayerNormalization-1_skip_2d", "SkipLayerNormalization", [x, f32("skip", ["S", 8]), g], [y], {}, MS,
        bindings=BS, spec=same(["B", "S", 8]))
    add("ms.SkipSimplifiedLayerNormalization-1_basic", "SkipSimplifiedLayerNormalization", [x, skip, g], [y], {}, MS,
        bindings=BS, spec=same(["B", "S", 8]))
    add("ms.SkipSimplifiedLayerNormalization-1_bias_sum_output", "SkipSimplifiedLayerNormalization",
        [x, skip, g, weight("bias", [8])], [y, None, None, ("input_skip_bias_sum", T.FLOAT)], {}, MS, bindings=BS,
        spec=same(["B", "S", 8], ["B", "S", 8]))
    add("ms.SkipSimplifiedLayerNormalization-1_2d", "SkipSimplifiedLayerNormalization",
        [f32("input", ["S", 8]), f32("skip", ["S", 8]), g], [y, None, None, ("input_skip_bias_sum", T.FLOAT)], {},
        MS, bindings=BS, spec=same(["S", 8], ["S", 8]))
    # SimplifiedLayerNormalization is onnxruntime's, registered in the default domain.
    yy = [("Y", T.FLOAT), ("inv_std_var", T.FLOAT)]
    add("SimplifiedLayerNormalization-1_last_axis", "SimplifiedLayerNormalization", [f32("X", ["B", "S", 8]),
        weight("scale", [8])], yy, dict(axis=-1), "", opset=1, default_opset=17, bindings=BS,
        spec=same(["B", "S", 8], ["B", "S", 1]))
    add("SimplifiedLayerNormalization-1_axis1", "SimplifiedLayerNormalization", [f32("X", ["B", 3, 8]),
        weight("scale", [3, 8])], yy, dict(axis=1), "", opset=1, default_opset=17, bindings=BS,
        spec=same(["B", 3, 8], ["B", 1, 1]))


def embed_cases():
    ids = In("input_ids", T.INT32, ["B", "S"], fill=randint(0, 10, T.INT32))
    seg = In("segment_ids", T.INT32, ["B", "S"], fill=randint(0, 2, T.INT32))
    we, pe, se = weight("word_embedding", [10, 8]), weight("position_embedding", [16, 8]), weight("segment_embedding", [2, 8])
    g, beta = weight("gamma", [8]), weight("beta", [8])
    mask = In("mask", T.INT32, ["B", "S"], fill=full(1, T.INT32))
    out, mi, es = ("output", T.FLOAT), ("mask_index", T.INT32), ("embedding_sum", T.FLOAT)
    add("ms.EmbedLayerNormalization-1_basic", "EmbedLayerNormalization", [ids, seg, we, pe, se, g, beta, mask],
        [out, mi], dict(epsilon=1e-5), MS, bindings=BS, spec=same(["B", "S", 8], ["B"]))
    add("ms.EmbedLayerNormalization-1_no_segment", "EmbedLayerNormalization", [ids, we, pe, g, beta, mask],
        [out, mi], {}, MS, bindings=BS,
        node_inputs=["input_ids", "", "word_embedding", "position_embedding", "", "gamma", "beta", "mask"],
        spec=same(["B", "S", 8], ["B"]))
    add("ms.EmbedLayerNormalization-1_no_mask", "EmbedLayerNormalization", [ids, seg, we, pe, se, g, beta],
        [out, mi], {}, MS, bindings=BS, spec=same(["B", "S", 8], ["B"]))
    add("ms.EmbedLayerNormalization-1_embedding_sum", "EmbedLayerNormalization", [ids, seg, we, pe, se, g, beta, mask],
        [out, mi, es], {}, MS, bindings=BS, spec=same(["B", "S", 8], ["B"], ["B", "S", 8]))
    posids = In("position_ids", T.INT32, ["B", "S"], fill=randint(0, 16, T.INT32))
    add("ms.EmbedLayerNormalization-1_position_ids", "EmbedLayerNormalization",
        [ids, seg, we, pe, se, g, beta, mask, posids], [out, mi], {}, MS, bindings=BS,
        spec=same(["B", "S", 8], ["B"]))


def gelu_cases():
    x = f32("X", ["B", "S", 8])
    y = [("Y", T.FLOAT)]
    add("ms.Gelu-1", "Gelu", [x], y, {}, MS, bindings=BS, spec=same(["B", "S", 8]))
    add("ms.FastGelu-1", "FastGelu", [x], y, {}, MS, bindings=BS, spec=same(["B", "S", 8]))
    add("ms.FastGelu-1_bias", "FastGelu", [x, weight("bias", [8])], y, {}, MS, bindings=BS, spec=same(["B", "S", 8]))
    add("ms.BiasGelu-1", "BiasGelu", [x, weight("B", [8])], [("C", T.FLOAT)], {}, MS, bindings=BS,
        spec=same(["B", "S", 8]))
    add("ms.QuickGelu-1", "QuickGelu", [x], y, dict(alpha=1.702), MS, bindings=BS, spec=same(["B", "S", 8]))
    add("ms.BiasAdd-1", "BiasAdd", [x, weight("bias", [8]), f32("skip", ["B", "S", 8])], y, {}, MS, bindings=BS,
        spec=same(["B", "S", 8]))
    add("ms.BiasSplitGelu-1", "BiasSplitGelu", [f32("X", ["B", "S", 16]), weight("bias", [16])], y, {}, MS,
        bindings=BS, spec=same(["B", "S", 8]))


def fused_matmul_cases():
    y = [("Y", T.FLOAT)]
    add("ms.FusedMatMul-1_basic", "FusedMatMul", [f32("A", ["B", "S", 8]), weight("Bw", [8, 6])], y, dict(alpha=0.5),
        MS, bindings=BS, spec=same(["B", "S", 6]))
    add("ms.FusedMatMul-1_transA_transB", "FusedMatMul", [f32("A", ["B", 8, "S"]), weight("Bw", [6, 8])], y,
        dict(transA=1, transB=1), MS, bindings=BS, spec=same(["B", "S", 6]))
    add("ms.FusedMatMul-1_transBatchA", "FusedMatMul", [f32("A", ["S", "B", 8]), f32("Bw", ["B", 8, 6])], y,
        dict(transBatchA=1), MS, bindings=BS, spec=same(["B", "S", 6]))
    add("ms.FusedMatMul-1_transBatchB", "FusedMatMul", [f32("A", ["B", "S", 8]), f32("Bw", [8, "B", 6])], y,
        dict(transBatchB=1), MS, bindings=BS, spec=same(["B", "S", 6]))
    add("ms.FusedMatMul-1_transBatchA_transA", "FusedMatMul", [f32("A", [8, "B", "S"]), f32("Bw", ["B", 8, 6])], y,
        dict(transBatchA=1, transA=1), MS, bindings=BS, spec=same(["B", "S", 6]))


def conv_norm_cases():
    y = [("Y", T.FLOAT)]
    add("ms.GroupNorm-1_nhwc", "GroupNorm", [f32("X", ["N", "H", "W", 8]), weight("gamma", [8]), weight("beta", [8])],
        y, dict(groups=2, activation=0, epsilon=1e-5), MS, bindings=NHW, spec=same(["N", "H", "W", 8]))
    add("ms.GroupNorm-1_nchw_silu", "GroupNorm", [f32("X", ["N", 8, "H", "W"]), weight("gamma", [8]),
        weight("beta", [8])], y, dict(groups=4, activation=1, channels_last=0, epsilon=1e-5), MS, bindings=NHW,
        spec=same(["N", 8, "H", "W"]))

    def conv_out(n, k, s, p):
        return (n + p - k) // s + 1
    add("ms.NhwcConv-1_strided", "NhwcConv", [f32("X", ["N", "H", "W", 2]), weight("W", [3, 2, 3, 3])], y,
        dict(pads=[1, 1, 1, 1], strides=[2, 2]), MS, bindings=NHW,
        spec=lambda b: [[b["N"], conv_out(b["H"], 3, 2, 2), conv_out(b["W"], 3, 2, 2), 3]])
    add("ms.NhwcConv-1_group_bias", "NhwcConv", [f32("X", ["N", "H", "W", 4]), weight("W", [6, 2, 2, 2]),
        weight("B", [6])], y, dict(group=2), MS, bindings=NHW,
        spec=lambda b: [[b["N"], b["H"] - 1, b["W"] - 1, 6]])


def fused_conv_gemm_cases():
    """FusedConv and FusedGemm: onnxruntime's Conv and Gemm with an activation fused after them, as its
    graph optimizer saves them (optimized_model_filepath) in models that ship pre-optimized."""
    y = [("Y", T.FLOAT)]

    def conv_out(n, k, s, p, d=1):
        return (n + p - d * (k - 1) - 1) // s + 1
    add("ms.FusedConv-1_relu", "FusedConv", [f32("X", ["N", 2, "H", "W"]), weight("W", [4, 2, 3, 3]),
        weight("B", [4])], y, dict(activation="Relu", pads=[1, 1, 1, 1]), MS, bindings=NHW,
        spec=same(["N", 4, "H", "W"]))
    add("ms.FusedConv-1_strided_leaky", "FusedConv", [f32("X", ["N", 2, "H", "W"]), weight("W", [3, 2, 3, 3])], y,
        dict(activation="LeakyRelu", activation_params=[0.1], strides=[2, 2]), MS, bindings=NHW,
        spec=lambda b: [[b["N"], 3, conv_out(b["H"], 3, 2, 0), conv_out(b["W"], 3, 2, 0)]])
    add("ms.FusedConv-1_sum_sigmoid", "FusedConv", [f32("X", ["N", 2, "H", "W"]), weight("W", [4, 2, 1, 1]),
        weight("B", [4]), f32("Z", ["N", 4, "H", "W"])], y, dict(activation="Sigmoid"), MS, bindings=NHW,
        spec=same(["N", 4, "H", "W"]))
    add("ms.FusedConv-1_same_upper_group", "FusedConv", [f32("X", ["N", 4, "H", "W"]), weight("W", [4, 2, 3, 3])],
        y, dict(activation="Tanh", auto_pad="SAME_UPPER", group=2, strides=[2, 2]), MS, bindings=NHW,
        spec=lambda b: [[b["N"], 4, -(-b["H"] // 2), -(-b["W"] // 2)]])
    add("ms.FusedConv-1_1d_clip", "FusedConv", [f32("X", ["B", 3, "S"]), weight("W", [5, 3, 2])], y,
        dict(activation="Clip", activation_params=[0.0, 6.0]), MS, bindings=BS[:2],
        spec=lambda b: [[b["B"], 5, b["S"] - 1]])
    add("ms.FusedGemm-1_relu", "FusedGemm", [f32("A", ["B", 8]), weight("Bw", [8, 6]), weight("C", [6])], y,
        dict(activation="Relu"), MS, bindings=BS, spec=same(["B", 6]))
    add("ms.FusedGemm-1_transB_leaky", "FusedGemm", [f32("A", ["B", 8]), weight("Bw", [6, 8]), weight("C", [1, 6])],
        y, dict(transB=1, alpha=0.5, beta=2.0, activation="LeakyRelu", activation_alpha=0.2), MS, bindings=BS,
        spec=same(["B", 6]))
    add("ms.FusedGemm-1_transA_noC", "FusedGemm", [f32("A", [8, "B"]), weight("Bw", [8, 6])], y,
        dict(transA=1, activation="Tanh"), MS, bindings=BS, spec=same(["B", 6]))


def matmulnbits_cases():
    def blocks(name, K, N, bits, bs, zp=None, bias=False, a_shape=("B", "S")):
        kb = -(-K // bs)
        blob = bs * bits // 8
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        ins = [f32("A", list(a_shape) + [K]),
               In("Bq", T.UINT8, [N, kb, blob], value=rng.integers(0, 256, (N, kb, blob)).astype(np.uint8)),
               In("scales", T.FLOAT, [N * kb], value=rng.uniform(0.01, 0.1, N * kb).astype(np.float32))]
        names = ["A", "Bq", "scales"]
        if zp:
            n = N * -(-kb * bits // 8)
            ins.append(In("zero_points", T.UINT8, [n], value=rng.integers(0, 256, n).astype(np.uint8)))
            names.append("zero_points")
        if bias:
            ins.append(weight("bias", [N]))
            names += [""] * (4 - len(names)) + ["", "bias"]
        add(name, "MatMulNBits", ins, [("Y", T.FLOAT)], dict(K=K, N=N, bits=bits, block_size=bs), MS,
            bindings=BS, node_inputs=names, spec=same(list(a_shape) + [N]))
    blocks("ms.MatMulNBits-1_4bit_bs16", 32, 8, 4, 16)
    blocks("ms.MatMulNBits-1_4bit_bs32_zero_points", 32, 4, 4, 32, zp=True)
    blocks("ms.MatMulNBits-1_4bit_K_not_multiple", 40, 4, 4, 16)
    blocks("ms.MatMulNBits-1_8bit", 32, 4, 8, 16)
    blocks("ms.MatMulNBits-1_bias", 32, 4, 4, 16, bias=True)
    blocks("ms.MatMulNBits-1_2d", 32, 4, 4, 16, a_shape=("S",))


def quant_cases():
    x = f32("x", ["B", "S", 8])
    for zp_type, name in ((T.UINT8, "uint8"), (T.INT8, "int8"), (T.UINT16, "uint16"), (T.INT16, "int16")):
        add(f"ms.QuantizeLinear-1_{name}", "QuantizeLinear", [x, weight("y_scale", [], 0.01, 0.1),
            const("y_zero_point", 1, zp_type, shape=())], [("y", zp_type)], {}, MS, bindings=BS,
            spec=same(["B", "S", 8]))
    add("ms.QuantizeLinear-1_axis", "QuantizeLinear", [x, weight("y_scale", [8], 0.01, 0.1),
        const("y_zero_point", [3] * 8, T.UINT8)], [("y", T.UINT8)], dict(axis=2), MS, bindings=BS,
        spec=same(["B", "S", 8]))
    add("ms.QuantizeLinear-1_int4", "QuantizeLinear", [x, weight("y_scale", [], 0.01, 0.1),
        In("y_zero_point", INT4, [], value=np.array(1, np.int8))], [("y", INT4)], {}, MS, bindings=BS,
        spec=same(["B", "S", 8]))
    add("ms.QuantizeLinear-1_int4_dequantized", "QuantizeLinear", [x, weight("y_scale", [], 0.01, 0.1),
        In("y_zero_point", INT4, [], value=np.array(1, np.int8))], [("y", T.FLOAT)], {}, MS, bindings=BS,
        post=(["q"], [node("DequantizeLinear", ["q", "y_scale", "y_zero_point"], ["y"], domain=MS)],
              [("y", T.FLOAT)]), spec=same(["B", "S", 8]))
    xq = In("x", T.UINT8, ["B", "S", 8], fill=randint(0, 256, T.UINT8))
    add("ms.DequantizeLinear-1_uint8", "DequantizeLinear", [xq, weight("x_scale", [], 0.01, 0.1),
        const("x_zero_point", 1, T.UINT8, shape=())], [("y", T.FLOAT)], {}, MS, bindings=BS, spec=same(["B", "S", 8]))
    add("ms.DequantizeLinear-1_axis", "DequantizeLinear", [xq, weight("x_scale", [8], 0.01, 0.1),
        const("x_zero_point", [3] * 8, T.UINT8)], [("y", T.FLOAT)], dict(axis=-1), MS, bindings=BS,
        spec=same(["B", "S", 8]))

    def qargs(prefix):
        return [weight(f"{prefix}_scale", [], 0.01, 0.1), const(f"{prefix}_zero_point", 128, T.UINT8, shape=())]
    a = In("A", T.UINT8, ["B", "S", 8], fill=randint(0, 256, T.UINT8))
    for op in ("QLinearAdd", "QLinearMul"):
        b1 = In("Bx", T.UINT8, [8], value=np.arange(8, dtype=np.uint8))
        add(f"ms.{op}-1_broadcast", op, [a] + qargs("A") + [b1] + qargs("B") + qargs("C"), [("C", T.UINT8)], {}, MS,
            bindings=BS, spec=same(["B", "S", 8]))
        b2 = In("Bx", T.UINT8, ["B", 1, 8], fill=randint(0, 256, T.UINT8))
        add(f"ms.{op}-1_broadcast_symbolic", op, [a] + qargs("A") + [b2] + qargs("B") + qargs("C"),
            [("C", T.UINT8)], {}, MS, bindings=BS, spec=same(["B", "S", 8]))
    x1 = In("X1", T.UINT8, ["B", "S", 4], fill=randint(0, 256, T.UINT8))
    x2 = In("X2", T.UINT8, ["B", "L", 4], fill=randint(0, 256, T.UINT8))
    add("ms.QLinearConcat-1", "QLinearConcat", qargs("Y") + [x1] + qargs("X1") + [x2] + qargs("X2"),
        [("Y", T.UINT8)], dict(axis=1), MS, bindings=BSL, spec=lambda b: [[b["B"], b["S"] + b["L"], 4]])
    add("ms.QLinearSigmoid-1", "QLinearSigmoid", [a] + qargs("X") + qargs("Y"), [("Y", T.UINT8)], {}, MS,
        bindings=BS, spec=same(["B", "S", 8]))
    add("ms.QLinearSoftmax-1_opset13", "QLinearSoftmax", [a] + qargs("X") + qargs("Y"), [("Y", T.UINT8)],
        dict(axis=-1, opset=13), MS, bindings=BS, spec=same(["B", "S", 8]))
    add("ms.QLinearSoftmax-1_opset1_axis1", "QLinearSoftmax", [a] + qargs("X") + qargs("Y"), [("Y", T.UINT8)],
        dict(axis=1, opset=1), MS, bindings=BS, spec=same(["B", "S", 8]))
    img = In("X", T.UINT8, ["N", 3, "H", "W"], fill=randint(0, 256, T.UINT8))
    img_last = In("X", T.UINT8, ["N", "H", "W", 3], fill=randint(0, 256, T.UINT8))
    add("ms.QLinearGlobalAveragePool-1_nchw", "QLinearGlobalAveragePool", [img] + qargs("X") + qargs("Y"),
        [("Y", T.UINT8)], dict(channels_last=0), MS, bindings=NHW, spec=lambda b: [[b["N"], 3, 1, 1]])
    add("ms.QLinearGlobalAveragePool-1_nhwc", "QLinearGlobalAveragePool", [img_last] + qargs("X") + qargs("Y"),
        [("Y", T.UINT8)], dict(channels_last=1), MS, bindings=NHW, spec=lambda b: [[b["N"], 1, 1, 3]])

    def pool(n, k, s, p, ceil=False):
        return -(-(n + p - k) // s) + 1 if ceil else (n + p - k) // s + 1
    add("ms.QLinearAveragePool-1_nchw", "QLinearAveragePool", [img] + qargs("X") + qargs("Y"), [("Y", T.UINT8)],
        dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]), MS, bindings=NHW,
        spec=lambda b: [[b["N"], 3, pool(b["H"], 3, 2, 2), pool(b["W"], 3, 2, 2)]])
    add("ms.QLinearAveragePool-1_nhwc_ceil", "QLinearAveragePool", [img_last] + qargs("X") + qargs("Y"),
        [("Y", T.UINT8)], dict(kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1, channels_last=1), MS,
        bindings=NHW, spec=lambda b: [[b["N"], pool(b["H"], 2, 2, 0, True), pool(b["W"], 2, 2, 0, True), 3]])


def qparams(prefix, zp_type=T.UINT8, zp=128):
    """A per-tensor scale and zero point, as the quantizer writes them."""
    return [weight(f"{prefix}_scale", [], 0.01, 0.1), const(f"{prefix}_zero_point", zp, zp_type, shape=())]


def qweight(name, shape, dtype=T.UINT8):
    """A quantized constant: a weight, as the quantizer writes it."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    lo, hi = (0, 256) if dtype == T.UINT8 else (-128, 128)
    return In(name, dtype, shape, value=rng.integers(lo, hi, shape).astype(NP[dtype]))


def with_dims(bindings, **extra):
    """bindings, each with the symbols of extra added (a symbol a case's inputs hold that must take
    one value for onnxruntime to run)."""
    return [dict(b, **extra) for b in bindings]


def quant_op_cases():
    """The quantized operators of quantize_dynamic (DynamicQuantizeMatMul, MatMulIntegerToFloat) and
    of quantize_static's QOperator form (QGemm, QLinearLeakyRelu, QLinearWhere), and the
    channels-last forms onnxruntime's layout optimizer saves (QLinearConv, NhwcMaxPool)."""
    x = f32("A", ["B", "S", "K"])
    y = [("Y", T.FLOAT)]
    add("ms.DynamicQuantizeMatMul-1", "DynamicQuantizeMatMul", [x, qweight("Bq", [8, 6]), weight("b_scale", [], 0.01, 0.1),
        const("b_zero_point", 128, T.UINT8, shape=())], y, {}, MS, bindings=with_dims(BS, K=8), spec=same(["B", "S", 6]),
        refuse=[{"B": 2, "S": 3, "K": 6}])
    add("ms.DynamicQuantizeMatMul-1_int8_per_column_bias", "DynamicQuantizeMatMul",
        [f32("A", ["B", 8]), qweight("Bq", [8, 6], T.INT8), weight("b_scale", [6], 0.01, 0.1),
         const("b_zero_point", [0] * 6, T.INT8), weight("bias", [6])], y, {}, MS, bindings=BS, spec=same(["B", 6]))
    a8 = In("A", T.UINT8, ["B", "S", 8], fill=randint(0, 256, T.UINT8))
    add("ms.MatMulIntegerToFloat-1", "MatMulIntegerToFloat", [In("A", T.UINT8, ["B", "S", "K"], fill=randint(0, 256, T.UINT8)),
        qweight("Bq", [8, 6], T.INT8), weight("a_scale", [], 0.01, 0.1), weight("b_scale", [], 0.01, 0.1),
        const("a_zero_point", 128, T.UINT8, shape=())], y, {}, MS, bindings=with_dims(BS, K=8), spec=same(["B", "S", 6]),
        refuse=[{"B": 3, "S": 5, "K": 9}])
    add("ms.MatMulIntegerToFloat-1_bias", "MatMulIntegerToFloat", [a8, qweight("Bq", [8, 6]),
        weight("a_scale", [], 0.01, 0.1), weight("b_scale", [6], 0.01, 0.1), const("a_zero_point", 128, T.UINT8, shape=()),
        const("b_zero_point", [128] * 6, T.UINT8), weight("bias", [6])], y, {}, MS, bindings=BS,
        spec=same(["B", "S", 6]))
    a16 = In("A", T.INT16, ["B", "S", 8], fill=randint(-100, 100, T.INT16))
    add("ms.MatMulInteger16-1", "MatMulInteger16", [a16, In("Bq", T.INT16, [8, 6], value=np.arange(48, dtype=np.int16).reshape(8, 6))],
        [("Y", T.INT32)], {}, MS, bindings=BS, spec=same(["B", "S", 6]))

    qa = In("A", T.UINT8, ["B", 8], fill=randint(0, 256, T.UINT8))
    qb = qweight("Bq", [8, 6], T.INT8)
    bz = qparams("b", T.INT8, 0)
    add("ms.QGemm-1_float", "QGemm", [In("A", T.UINT8, ["B", "K"], fill=randint(0, 256, T.UINT8))] + qparams("a") + [qb] + bz,
        y, {}, MS, bindings=with_dims(BS, K=8), spec=same(["B", 6]), refuse=[{"B": 2, "K": 5}])
    add("ms.QGemm-1_quantized_bias", "QGemm", [qa] + qparams("a") + [qb] + bz + [const("C", list(range(6)), T.INT32)]
        + qparams("y"), [("Y", T.UINT8)], {}, MS, bindings=BS, spec=same(["B", 6]))
    add("ms.QGemm-1_trans", "QGemm", [In("A", T.INT8, [8, "B"], fill=randint(-128, 128, T.INT8))] + qparams("a", T.INT8, 0)
        + [qweight("Bq", [6, 8], T.INT8)] + bz + [const("C", [[1] * 6], T.INT32)] + qparams("y", T.INT8, 0),
        [("Y", T.INT8)], dict(transA=1, transB=1, alpha=0.5), MS, bindings=BS, spec=same(["B", 6]))

    a = In("X", T.UINT8, ["B", "S", 8], fill=randint(0, 256, T.UINT8))
    add("ms.QLinearLeakyRelu-1", "QLinearLeakyRelu", [a] + qparams("X") + qparams("Y"), [("Y", T.UINT8)],
        dict(alpha=0.1), MS, bindings=BS, spec=same(["B", "S", 8]))
    cond = In("condition", T.BOOL, ["B", 1, "D"], fill=lambda rng, shape: rng.integers(0, 2, shape).astype(np.bool_))
    xw = In("Xq", T.INT8, ["B", "S", 1], fill=randint(-128, 128, T.INT8))
    yw = In("Yq", T.INT8, [8], value=np.arange(8, dtype=np.int8))
    add("ms.QLinearWhere-1", "QLinearWhere", [cond, xw] + qparams("x", T.INT8, 0) + [yw] + qparams("y", T.INT8, 0)
        + qparams("z", T.INT8, 0), [("Z", T.INT8)], {}, MS, bindings=with_dims(BS, D=8), spec=same(["B", "S", 8]),
        refuse=[{"B": 2, "S": 3, "D": 3}])

    def conv_out(n, k, s, p, d=1):
        return (n + p - d * (k - 1) - 1) // s + 1
    img_last = In("x", T.UINT8, ["N", "H", "W", 4], fill=randint(0, 256, T.UINT8))
    wq = qweight("w", [6, 4, 3, 3], T.INT8)
    add("ms.QLinearConv-1_channels_last", "QLinearConv", [In("x", T.UINT8, ["N", "H", "W", "C"], fill=randint(0, 256, T.UINT8))]
        + qparams("x") + [wq] + qparams("w", T.INT8, 0)
        + qparams("y") + [const("B", list(range(6)), T.INT32)], [("y", T.UINT8)],
        dict(channels_last=1, strides=[2, 2], pads=[1, 1, 1, 1]), MS, bindings=with_dims(NHW, C=4),
        refuse=[{"N": 2, "H": 5, "W": 6, "C": 3}],
        spec=lambda b: [[b["N"], conv_out(b["H"], 3, 2, 2), conv_out(b["W"], 3, 2, 2), 6]])
    img = In("x", T.UINT8, ["N", 4, "H", "W"], fill=randint(0, 256, T.UINT8))
    add("ms.QLinearConv-1_nchw_group", "QLinearConv", [img] + qparams("x") + [qweight("w", [6, 2, 3, 3], T.INT8)]
        + qparams("w", T.INT8, 0) + qparams("y"), [("y", T.UINT8)], dict(group=2, dilations=[2, 2]), MS,
        bindings=NHW, spec=lambda b: [[b["N"], 6, conv_out(b["H"], 3, 1, 0, 2), conv_out(b["W"], 3, 1, 0, 2)]])

    def pool(n, k, s, p, d=1, ceil=False):
        e = d * (k - 1) + 1
        return -(-(n + p - e) // s) + 1 if ceil else (n + p - e) // s + 1
    add("ms.NhwcMaxPool-1", "NhwcMaxPool", [img_last], [("y", T.UINT8)],
        dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]), MS, bindings=NHW,
        spec=lambda b: [[b["N"], pool(b["H"], 3, 2, 2), pool(b["W"], 3, 2, 2), 4]])
    add("ms.NhwcMaxPool-1_ceil_dilated", "NhwcMaxPool", [In("x", T.INT8, ["N", "H", "W", 4], fill=randint(-128, 128, T.INT8))],
        [("y", T.INT8)], dict(kernel_shape=[2, 2], strides=[2, 2], dilations=[2, 1], ceil_mode=1), MS, bindings=NHW,
        spec=lambda b: [[b["N"], pool(b["H"], 2, 2, 0, 2, True), pool(b["W"], 2, 2, 0, 1, True), 4]])
    add("ms.NhwcMaxPool-1_valid", "NhwcMaxPool", [img_last], [("y", T.UINT8)], dict(kernel_shape=[3, 3]), MS,
        bindings=NHW, spec=lambda b: [[b["N"], b["H"] - 2, b["W"] - 2, 4]], refuse=[{"N": 1, "H": 1, "W": 6}])
    add("ms.NhwcMaxPool-1_same_upper", "NhwcMaxPool", [img_last], [("y", T.UINT8)],
        dict(kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER"), MS, bindings=NHW,
        spec=lambda b: [[b["N"], -(-b["H"] // 2), -(-b["W"] // 2), 4]])


def quant_transformer_cases():
    """What quantize_dynamic makes of an optimized transformer's Attention and EmbedLayerNormalization
    (QAttention, QEmbedLayerNormalization) and of an LSTM (DynamicQuantizeLSTM)."""
    xq = In("input", T.UINT8, ["B", "S", 8], fill=randint(0, 256, T.UINT8))
    scales = [weight("input_scale", [], 0.01, 0.1), weight("weight_scale", [], 0.01, 0.1)]
    zps = [const("input_zero_point", 128, T.UINT8, shape=()), const("weight_zero_point", 128, T.UINT8, shape=())]
    y = ("output", T.FLOAT)
    xk = In("input", T.UINT8, ["B", "S", "K"], fill=randint(0, 256, T.UINT8))
    add("ms.QAttention-1", "QAttention", [xk, qweight("weight", [8, 24]), weight("bias", [24])] + scales + zps, [y],
        dict(num_heads=2), MS, bindings=with_dims(BS, K=8), refuse=[{"B": 2, "S": 3, "K": 4}],
        node_inputs=["input", "weight", "bias", "input_scale", "weight_scale", "", "input_zero_point", "weight_zero_point"],
        spec=same(["B", "S", 8]))
    mask = In("mask_index", T.INT32, ["B"], fill=full(1, T.INT32))
    past = f32("past", [2, "B", 2, "P", 4])
    add("ms.QAttention-1_mask_past", "QAttention", [xq, qweight("weight", [8, 24]), weight("bias", [24])] + scales
        + [mask] + zps + [past], [y, ("present", T.FLOAT)], dict(num_heads=2, unidirectional=1), MS, bindings=BSPT,
        spec=same(["B", "S", 8], [2, "B", 2, "T", 4]))

    ids = In("input_ids", T.INT32, ["B", "S"], fill=randint(0, 10, T.INT32))
    seg = In("segment_ids", T.INT32, ["B", "S"], fill=randint(0, 2, T.INT32))
    emask = In("mask", T.INT32, ["B", "M"], fill=full(1, T.INT32))
    embs = [qweight("word_embedding", [10, 8]), qweight("position_embedding", [16, 8]), qweight("segment_embedding", [2, 8]),
            qweight("gamma", [8]), qweight("beta", [8])]
    names = ["word_embedding", "position_embedding", "segment_embedding", "gamma", "beta"]
    escales = [weight(f"{n}_scale", [], 0.01, 0.1) for n in names]
    ezps = [const(f"{n}_zero_point", 128, T.UINT8, shape=()) for n in names]
    add("ms.QEmbedLayerNormalization-1", "QEmbedLayerNormalization", [ids, seg] + embs + [emask] + escales + ezps,
        [("layernorm_out", T.FLOAT), ("mask_index_out", T.INT32)], {}, MS,
        bindings=[dict(b, M=b["S"]) for b in BS], refuse=[{"B": 2, "S": 3, "M": 4}],
        spec=lambda b: [[b["B"], b["S"], 8], [b["B"]]])

    # onnxruntime runs it whatever X's input size I (W's is 4): the last binding's I is 5.
    x = f32("X", ["S", "B", "I"])
    hid = 3
    for direction, dirs in (("forward", 1), ("bidirectional", 2)):
        wq = qweight("W", [dirs, 4, 4 * hid], T.INT8)
        rq = qweight("R", [dirs, hid, 4 * hid], T.INT8)
        ins = [x, wq, rq, weight("Bias", [dirs, 8 * hid])]
        q = [weight("W_scale", [dirs], 0.01, 0.1), const("W_zero_point", [0] * dirs, T.INT8),
             weight("R_scale", [dirs], 0.01, 0.1), const("R_zero_point", [0] * dirs, T.INT8)]
        add(f"ms.DynamicQuantizeLSTM-1_{direction}", "DynamicQuantizeLSTM", ins + q,
            [("Y", T.FLOAT), ("Y_h", T.FLOAT), ("Y_c", T.FLOAT)], dict(hidden_size=hid, direction=direction), MS,
            bindings=with_dims(BS, I=4) + [{"S": 2, "B": 1, "I": 5}],
            node_inputs=["X", "W", "R", "Bias", "", "", "", "", "W_scale", "W_zero_point", "R_scale", "R_zero_point"],
            spec=same(["S", dirs, "B", hid], [dirs, "B", hid], [dirs, "B", hid]))


def contrib_misc_cases():
    """com.microsoft's contrib forms of ONNX operators and its other operators with CPU kernels that
    converted models hold."""
    # Inverse: onnxruntime refuses a non-square X of static dims at load, and runs one of symbolic dims (the
    # last binding).
    add("ms.Inverse-1", "Inverse", [f32("X", ["B", 3, "M"])], [("Y", T.FLOAT)], {}, MS,
        bindings=with_dims(BS[:2], M=3) + [{"B": 1, "M": 4}], spec=same(["B", 3, "M"]))
    add("ms.Trilu-1", "Trilu", [f32("X", ["B", "S", "S"]), const("k", 1, shape=())], [("Y", T.FLOAT)], dict(upper=0), MS,
        bindings=BS, spec=same(["B", "S", "S"]))
    # ExpandDims: onnxruntime-node 1.20.1 crashes (SIGSEGV) on an axis that is an initializer; the
    # axis here is the input's rank less a constant (Shape, Size, Sub, Cast), as a graph computes it.
    x = f32("X", ["B", "S", 4])
    for axis in (0, -1, 3, -4):
        d = ["B", "S", 4]
        d.insert(axis if axis >= 0 else len(d) + 1 + axis, 1)
        pre = [node("Shape", ["X"], ["shape"]), node("Size", ["shape"], ["rank"]), node("Sub", ["rank", "k"], ["ax"]),
               node("Cast", ["ax"], ["axis"], to=T.INT32)]
        add(f"ms.ExpandDims-1_axis{axis}", "ExpandDims", [x, const("k", 3 - axis, shape=())], [("Y", T.FLOAT)],
            {}, MS, bindings=BS, node_inputs=["X", "axis"], pre=pre, spec=same(d))
    # Unique: onnxruntime's kernel takes float only, 1-D.
    uniq = In("x", T.FLOAT, ["S"], fill=lambda rng, shape: (np.arange(shape[0]) % 2).astype(np.float32))
    add("ms.Unique-1", "Unique", [uniq], [("y", T.FLOAT), ("idx", T.INT64), ("counts", T.INT64)], {}, MS,
        bindings=BS, spec=lambda b: [[min(b["S"], 2)], [b["S"]], [min(b["S"], 2)]],
        data={"y": "the count of unique elements", "counts": "the count of unique elements"})
    add("ms.CDist-1", "CDist", [f32("A", ["S", "K"]), weight("Bm", [5, 4])], [("C", T.FLOAT)], dict(metric="euclidean"),
        MS, bindings=with_dims(BS, K=4), spec=lambda b: [[b["S"], 5]], refuse=[{"S": 3, "K": 3}])
    add("ms.Range-1", "Range", [const("start", 2, shape=()), const("limit", 11, shape=())], [("y", T.INT64)], {}, MS,
        spec=lambda b: [[9]])
    add("ms.Range-1_delta_float", "Range", [In("start", T.FLOAT, [], value=np.array(1.0, np.float32)),
        In("limit", T.FLOAT, [], value=np.array(-4.0, np.float32)), In("delta", T.FLOAT, [], value=np.array(-2.0, np.float32))],
        [("y", T.FLOAT)], {}, MS, spec=lambda b: [[3]])
    add("ms.Pad-1_constant", "Pad", [f32("X", ["B", "S", 4]), const("pads", [0, 1, 2, 0, 3, -1]),
        In("value", T.FLOAT, [], value=np.array(1.5, np.float32))], [("Y", T.FLOAT)], {}, MS, bindings=BS,
        spec=lambda b: [[b["B"], b["S"] + 4, 5]])
    add("ms.Pad-1_2d_pads_reflect", "Pad", [f32("X", ["B", "S", 4]), const("pads", [[0, 0, 1, 0, 0, 2]])],
        [("Y", T.FLOAT)], dict(mode="reflect"), MS, bindings=BS[:2], spec=lambda b: [[b["B"], b["S"], 7]])
    add("ms.GridSample-1", "GridSample", [f32("X", ["N", 3, "H", "W"]), f32("grid", ["G", 4, 5, 2])], [("Y", T.FLOAT)],
        dict(mode="bilinear", align_corners=1), MS, bindings=[dict(b, G=b["N"]) for b in NHW],
        spec=lambda b: [[b["N"], 3, 4, 5]], refuse=[{"N": 2, "H": 5, "W": 6, "G": 1}])
    rois = In("rois", T.FLOAT, ["S", 4], fill=lambda rng, shape: np.tile(np.array([0.1, 0.1, 0.8, 0.9], np.float32), (shape[0], 1)))
    bidx = In("batch_indices", T.INT32, ["R"], fill=full(0, T.INT32))
    add("ms.CropAndResize-1", "CropAndResize", [f32("X", ["B", 3, 8, 8]), rois, bidx, const("crop_size", [4, 6], T.INT32)],
        [("Y", T.FLOAT)], dict(mode="bilinear"), MS, bindings=[dict(b, R=b["S"]) for b in BS[:2]],
        spec=lambda b: [[b["S"], 3, 4, 6]], refuse=[{"B": 2, "S": 3, "R": 2}])
    keys = In("X", T.INT32, ["B", "S"], fill=randint(0, 1000, T.INT32))
    add("ms.MurmurHash3-1", "MurmurHash3", [keys], [("Y", T.UINT32)], {}, MS, bindings=BS, spec=same(["B", "S"]))
    add("ms.MurmurHash3-1_signed", "MurmurHash3", [keys], [("Y", T.INT32)], dict(positive=0, seed=7), MS, bindings=BS,
        spec=same(["B", "S"]))


def dmmha_cases():
    # DecoderMaskedMultiHeadAttention, num_heads=2, head size 4: one new token against a KV buffer of M.
    q, k, v = f32("query", ["B", 1, 8]), f32("key", ["B", 1, 8]), f32("value", ["B", 1, 8])
    pk, pv = f32("past_key", ["B", 2, "M", 4]), f32("past_value", ["B", 2, "M", 4])
    # The attention covers past_sequence_length (a value: 3) + 1 positions of the buffer.
    mask = In("mask_index", T.INT32, ["B", 4], fill=full(1, T.INT32))
    psl = const("past_sequence_length", [3], T.INT32)
    b = [{"B": 2, "M": 8}, {"B": 3, "M": 12}]
    outs = [("output", T.FLOAT), ("present_key", T.FLOAT), ("present_value", T.FLOAT)]
    add("ms.DecoderMaskedMultiHeadAttention-1_self_past", "DecoderMaskedMultiHeadAttention",
        [q, k, v, pk, pv, psl], outs, dict(num_heads=2, past_present_share_buffer=1), MS, bindings=b,
        node_inputs=["query", "key", "value", "", "", "past_key", "past_value", "past_sequence_length"],
        spec=same(["B", 1, 8], ["B", 2, "M", 4], ["B", 2, "M", 4]))
    add("ms.DecoderMaskedMultiHeadAttention-1_self_past_mask", "DecoderMaskedMultiHeadAttention",
        [q, k, v, mask, pk, pv, psl], outs, dict(num_heads=2, past_present_share_buffer=1), MS, bindings=b,
        node_inputs=["query", "key", "value", "mask_index", "", "past_key", "past_value", "past_sequence_length"],
        spec=same(["B", 1, 8], ["B", 2, "M", 4], ["B", 2, "M", 4]))
    add("ms.DecoderMaskedMultiHeadAttention-1_output_qk", "DecoderMaskedMultiHeadAttention",
        [q, k, v, pk, pv, psl], outs + [("qk", T.FLOAT)], dict(num_heads=2, past_present_share_buffer=1,
                                                                 output_qk=1), MS, bindings=b,
        node_inputs=["query", "key", "value", "", "", "past_key", "past_value", "past_sequence_length"],
        spec=same(["B", 1, 8], ["B", 2, "M", 4], ["B", 2, "M", 4], ["B", 2, 1, 4]))
    kc, vc = f32("key", ["B", 2, "L", 4]), f32("value", ["B", 2, "L", 4])
    add("ms.DecoderMaskedMultiHeadAttention-1_cross", "DecoderMaskedMultiHeadAttention", [q, kc, vc],
        [("output", T.FLOAT)], dict(num_heads=2), MS, bindings=[{"B": 2, "L": 5}, {"B": 1, "L": 7}],
        spec=same(["B", 1, 8]))


# ---------------------------------------------------------------------------------------------------
# The default domain, opsets 18 to 21
# ---------------------------------------------------------------------------------------------------

REDUCE = ["ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceL1", "ReduceL2",
          "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"]


def reduce_cases():
    x = f32("data", ["B", "S", 6], 0.5, 1.5)
    y = [("reduced", T.FLOAT)]
    for op in REDUCE:
        add(f"{op}-18_axes_input", op, [x, const("axes", [1])], y, {}, opset=18, bindings=BS,
            spec=same(["B", 1, 6]))
    add("ReduceMean-18_keepdims0", "ReduceMean", [x, const("axes", [0, 2])], y, dict(keepdims=0), opset=18,
        bindings=BS, spec=same(["S"]))
    add("ReduceMean-18_negative_axes", "ReduceMean", [x, const("axes", [-1])], y, {}, opset=18, bindings=BS,
        spec=same(["B", "S", 1]))
    add("ReduceMean-18_axes_absent", "ReduceMean", [x], y, dict(keepdims=0), opset=18, bindings=BS, spec=same([]))
    add("ReduceMean-18_axes_absent_noop", "ReduceMean", [x], y, dict(noop_with_empty_axes=1), opset=18,
        bindings=BS, spec=same(["B", "S", 6]))
    add("ReduceMean-18_axes_empty_noop", "ReduceMean", [x, In("axes", T.INT64, [0], value=np.zeros(0, np.int64))],
        y, dict(noop_with_empty_axes=1), opset=18, bindings=BS, spec=same(["B", "S", 6]))
    add("ReduceMean-18_axes_empty", "ReduceMean", [x, In("axes", T.INT64, [0], value=np.zeros(0, np.int64))], y, {},
        opset=18, bindings=BS, spec=same([1, 1, 1]))
    # axes computed from the input's shape: the last axis, rank - 1
    pre = [node("Shape", ["data"], ["shape"]), node("Shape", ["shape"], ["rank"]),
           node("Sub", ["rank", "one"], ["axes"])]
    add("ReduceMean-18_axes_computed", "ReduceMean", [x, const("one", [1])], y, {}, opset=18, bindings=BS, pre=pre,
        node_inputs=["data", "axes"], spec=same(["B", "S", 1]))
    why = "ReduceMean: the axes input is a graph input"
    axes_in = In("axes", T.INT64, [1], fill=full(1, T.INT64))
    add("ReduceMean-18_axes_runtime", "ReduceMean", [x, axes_in], y, {}, opset=18, bindings=BS,
        data={"reduced": why}, spec=same(["B", 1, 6]))
    add("ReduceMean-18_axes_runtime_keepdims0", "ReduceMean", [x, axes_in], y, dict(keepdims=0), opset=18,
        bindings=BS, data={"reduced": why}, spec=same(["B", 6]))
    xb = In("data", T.BOOL, ["B", "S"], fill=randint(0, 2, T.BOOL))
    for op in ("ReduceMax", "ReduceMin"):
        add(f"{op}-20_bool", op, [xb, const("axes", [1])], [("reduced", T.BOOL)], {}, opset=20, bindings=BS,
            spec=same(["B", 1]))


def split_pad_cases():
    add("Split-18_num_outputs_uneven", "Split", [f32("input", ["B", 7])],
        [("o1", T.FLOAT), ("o2", T.FLOAT), ("o3", T.FLOAT)], dict(axis=1, num_outputs=3), opset=18, bindings=BS,
        spec=same(["B", 3], ["B", 3], ["B", 1]))
    add("Split-18_num_outputs_even", "Split", [f32("input", ["B", 6])], [("o1", T.FLOAT), ("o2", T.FLOAT)],
        dict(axis=1, num_outputs=2), opset=18, bindings=BS, spec=same(["B", 3], ["B", 3]))
    add("Split-18_num_outputs_symbolic_axis", "Split", [f32("input", ["B", "S"])], [("o1", T.FLOAT), ("o2", T.FLOAT)],
        dict(axis=1, num_outputs=2), opset=18, bindings=[{"B": 2, "S": 7}, {"B": 3, "S": 8}, {"B": 1, "S": 3}],
        spec=lambda b: [[b["B"], -(-b["S"] // 2)], [b["B"], b["S"] - -(-b["S"] // 2)]])
    add("Split-18_split_input", "Split", [f32("input", ["B", 7]), const("split", [2, 5])],
        [("o1", T.FLOAT), ("o2", T.FLOAT)], dict(axis=-1), opset=18, bindings=BS, spec=same(["B", 2], ["B", 5]))
    x = f32("data", ["B", "S", 4])
    y = [("output", T.FLOAT)]
    add("Pad-18_axes", "Pad", [x, const("pads", [1, 2]), const("constant_value", 0.0, T.FLOAT, shape=()),
        const("axes", [1])], y, {}, opset=18, bindings=BS, spec=lambda b: [[b["B"], b["S"] + 3, 4]])
    add("Pad-18_axes_negative", "Pad", [x, const("pads", [0, 3]), const("axes", [-1])], y, {}, opset=18,
        bindings=BS, node_inputs=["data", "pads", "", "axes"], spec=same(["B", "S", 7]))
    add("Pad-18_axes_two", "Pad", [x, const("pads", [1, 0, 2, 1]), const("axes", [0, 2])], y, {}, opset=18,
        bindings=BS, node_inputs=["data", "pads", "", "axes"], spec=lambda b: [[b["B"] + 3, b["S"], 5]])
    add("Pad-18_negative_pads", "Pad", [x, const("pads", [-1, 0]), const("axes", [1])], y, {}, opset=18,
        bindings=[{"B": 2, "S": 3}, {"B": 3, "S": 5}], node_inputs=["data", "pads", "", "axes"],
        spec=lambda b: [[b["B"], b["S"] - 1, 4]])
    add("Pad-18_reflect_axes", "Pad", [x, const("pads", [1, 1]), const("axes", [2])], y, dict(mode="reflect"),
        opset=18, bindings=BS, node_inputs=["data", "pads", "", "axes"], spec=same(["B", "S", 6]))
    add("Pad-19_wrap", "Pad", [x, const("pads", [0, 1, 2, 0, 1, 2])], y, dict(mode="wrap"), opset=19,
        bindings=BS, spec=lambda b: [[b["B"], b["S"] + 2, 8]])
    add("Pad-21_edge", "Pad", [x, const("pads", [0, 0, 1, 0, 0, 1])], y, dict(mode="edge"), opset=21, bindings=BS,
        spec=same(["B", "S", 6]))


def resize_cases():
    x = f32("X", ["N", 3, "H", "W"])
    y = [("Y", T.FLOAT)]
    rsz = ["X", "", "", "sizes"]
    b = [{"N": 1, "H": 4, "W": 5}, {"N": 2, "H": 6, "W": 3}, {"N": 1, "H": 5, "W": 5}]

    def keep(policy, h, w, oh, ow):
        s = [oh / h, ow / w]
        s = min(s) if policy == "not_larger" else max(s)
        return [int(np.floor(h * s + 0.5)), int(np.floor(w * s + 0.5))]
    for policy in ("not_larger", "not_smaller"):
        add(f"Resize-18_keep_aspect_ratio_{policy}", "Resize", [x, const("sizes", [6, 4])], y,
            dict(axes=[2, 3], keep_aspect_ratio_policy=policy), opset=18, bindings=b, node_inputs=rsz,
            spec=lambda bb, p=policy: [[bb["N"], 3] + keep(p, bb["H"], bb["W"], 6, 4)])
    add("Resize-18_sizes_axes", "Resize", [x, const("sizes", [6, 4])], y, dict(axes=[2, 3]), opset=18, bindings=b,
        node_inputs=rsz, spec=same(["N", 3, 6, 4]))
    add("Resize-18_sizes_axes_negative", "Resize", [x, const("sizes", [7])], y, dict(axes=[-1]), opset=18,
        bindings=b, node_inputs=rsz, spec=same(["N", 3, "H", 7]))
    scales = In("scales", T.FLOAT, [1], value=np.array([2.0], np.float32))
    add("Resize-18_scales_axes", "Resize", [x, scales], y, dict(axes=[3]), opset=18, bindings=b,
        node_inputs=["X", "", "scales"], spec=lambda bb: [[bb["N"], 3, bb["H"], 2 * bb["W"]]])
    half = In("scales", T.FLOAT, [4], value=np.array([1, 1, 0.5, 0.5], np.float32))
    add("Resize-18_antialias", "Resize", [x, half], y, dict(antialias=1, mode="linear"), opset=18, bindings=b,
        node_inputs=["X", "", "scales"], spec=lambda bb: [[bb["N"], 3, bb["H"] // 2, bb["W"] // 2]])
    add("Resize-18_antialias_cubic_sizes", "Resize", [x, const("sizes", [2, 2])], y,
        dict(antialias=1, mode="cubic", axes=[2, 3]), opset=18, bindings=b, node_inputs=rsz,
        spec=same(["N", 3, 2, 2]))
    two = In("scales", T.FLOAT, [4], value=np.array([1, 1, 2, 1.5], np.float32))
    add("Resize-19_half_pixel_symmetric", "Resize", [x, two], y,
        dict(mode="linear", coordinate_transformation_mode="half_pixel_symmetric"), opset=19, bindings=b,
        node_inputs=["X", "", "scales"],
        spec=lambda bb: [[bb["N"], 3, 2 * bb["H"], int(np.floor(1.5 * bb["W"]))]])
    runtime = In("scales", T.FLOAT, [4], fill=lambda rng, shape: np.array([1, 1, 2, 2], np.float32))
    add("Resize-18_scales_runtime", "Resize", [x, runtime], y, {}, opset=18, bindings=b,
        node_inputs=["X", "", "scales"], data={"Y": "Resize: the scales input is a graph input"},
        spec=lambda bb: [[bb["N"], 3, 2 * bb["H"], 2 * bb["W"]]])


def image_cases():
    y = [("output", T.FLOAT)]
    # Col2Im: [N, C*2*2, L] blocks into [N, C, 5, 5]; L is the number of block positions.
    add("Col2Im-18_basic", "Col2Im", [f32("input", ["N", 8, 16]), const("image_shape", [5, 5]),
        const("block_shape", [2, 2])], y, {}, opset=18, bindings=NHW, spec=same(["N", 2, 5, 5]))
    add("Col2Im-18_strides_pads_dilations", "Col2Im", [f32("input", ["N", 4, 9]), const("image_shape", [6, 6]),
        const("block_shape", [2, 2])], y, dict(strides=[2, 2], pads=[1, 1, 1, 1], dilations=[2, 2]), opset=18,
        bindings=NHW, spec=same(["N", 1, 6, 6]))
    x = f32("input_data", ["H", "W", 3])
    add("CenterCropPad-18_axes", "CenterCropPad", [x, const("shape", [4, 4])], [("output", T.FLOAT)],
        dict(axes=[0, 1]), opset=18, bindings=[{"H": 6, "W": 3}, {"H": 2, "W": 9}], spec=same([4, 4, 3]))
    add("CenterCropPad-18_all_axes", "CenterCropPad", [x, const("shape", [4, 5, 2])], [("output", T.FLOAT)], {},
        opset=18, bindings=[{"H": 6, "W": 3}, {"H": 2, "W": 9}], spec=same([4, 5, 2]))
    add("CenterCropPad-18_negative_axes", "CenterCropPad", [x, const("shape", [5])], [("output", T.FLOAT)],
        dict(axes=[-2]), opset=18, bindings=[{"H": 6, "W": 3}, {"H": 2, "W": 9}], spec=same(["H", 5, 3]))
    # AffineGrid: the size input is computed from theta's batch, as exporters write it.
    for d, theta, rest in ((2, [2, 3], [3, 5, 6]), (3, [3, 4], [3, 2, 5, 6])):
        pre = [node("Shape", ["theta"], ["batch"], end=1), node("Concat", ["batch", "rest"], ["size"], axis=0)]
        for ac in (0, 1):
            add(f"AffineGrid-20_{d}d{'_align_corners' if ac else ''}", "AffineGrid",
                [f32("theta", ["N"] + theta), const("rest", rest)], [("grid", T.FLOAT)], dict(align_corners=ac),
                opset=20, bindings=NHW, pre=pre, node_inputs=["theta", "size"],
                spec=lambda b, r=rest, k=d: [[b["N"]] + r[1:] + [k]])
    x4 = f32("X", ["N", 4, "H", "W"])
    add("GroupNormalization-18", "GroupNormalization", [x4, weight("scale", [2]), weight("bias", [2])],
        [("Y", T.FLOAT)], dict(num_groups=2), opset=18, bindings=NHW, spec=same(["N", 4, "H", "W"]))
    add("GroupNormalization-21", "GroupNormalization", [x4, weight("scale", [4]), weight("bias", [4])],
        [("Y", T.FLOAT)], dict(num_groups=2), opset=21, bindings=NHW, spec=same(["N", 4, "H", "W"]))
    add("LpPool-18_ceil_mode", "LpPool", [x4], [("Y", T.FLOAT)], dict(kernel_shape=[3, 3], strides=[2, 2],
        ceil_mode=1), opset=18, bindings=NHW,
        spec=lambda b: [[b["N"], 4, -(-(b["H"] - 3) // 2) + 1, -(-(b["W"] - 3) // 2) + 1]])
    add("AveragePool-19_dilations", "AveragePool", [x4], [("Y", T.FLOAT)],
        dict(kernel_shape=[2, 2], dilations=[2, 2]), opset=19, bindings=NHW,
        spec=lambda b: [[b["N"], 4, b["H"] - 2, b["W"] - 2]])
    # DeformConv: offset has one (dy, dx) per kernel position and output position.
    xd = f32("X", ["N", 2, "H", "W"])
    add("DeformConv-19", "DeformConv", [xd, weight("W", [3, 2, 3, 3]), f32("offset", ["N", 18, "OH", "OW"])],
        [("Y", T.FLOAT)], {}, opset=19,
        bindings=[{"N": 2, "H": 5, "W": 6, "OH": 3, "OW": 4}, {"N": 1, "H": 8, "W": 7, "OH": 6, "OW": 5}],
        spec=lambda b: [[b["N"], 3, b["H"] - 2, b["W"] - 2]])
    grid = f32("grid", ["N", 4, 5, 2])
    add("GridSample-20_4d", "GridSample", [x4, grid], [("Y", T.FLOAT)], {}, opset=20, bindings=NHW,
        spec=same(["N", 4, 4, 5]))
    add("GridSample-20_5d", "GridSample", [f32("X", ["N", 2, 3, "H", "W"]), f32("grid", ["N", 2, 4, 5, 3])],
        [("Y", T.FLOAT)], {}, opset=20, bindings=NHW, spec=same(["N", 2, 2, 4, 5]))


def dft_cases():
    y = [("output", T.FLOAT)]
    x = f32("input", ["B", "S", 1])
    bb = [{"B": 2, "S": 6}, {"B": 1, "S": 9}]
    add("DFT-20_onesided", "DFT", [x], y, dict(onesided=1), opset=20, bindings=bb,
        spec=lambda b: [[b["B"], b["S"] // 2 + 1, 2]])
    add("DFT-20_dft_length", "DFT", [x, const("dft_length", 8, shape=())], y, {}, opset=20, bindings=bb,
        spec=same(["B", 8, 2]))
    add("DFT-20_axis_input", "DFT", [f32("input", ["B", 4, "S", 2]), const("axis", 1, shape=())], y, {}, opset=20,
        bindings=bb, node_inputs=["input", "", "axis"], spec=same(["B", 4, "S", 2]))
    add("DFT-20_inverse", "DFT", [f32("input", ["B", "S", 2])], y, dict(inverse=1), opset=20, bindings=bb,
        spec=same(["B", "S", 2]))


def elementwise_cases():
    a = In("A", T.INT32, ["B", "S"], fill=randint(-100, 100, T.INT32))
    bs = In("Bx", T.INT32, ["S"], fill=randint(-100, 100, T.INT32))
    for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor"):
        add(f"{op}-18", op, [a, bs], [("C", T.INT32)], {}, opset=18, bindings=BS, spec=same(["B", "S"]))
    add("BitwiseNot-18", "BitwiseNot", [In("X", T.UINT8, ["B", "S"], fill=randint(0, 256, T.UINT8))],
        [("Y", T.UINT8)], {}, opset=18, bindings=BS, spec=same(["B", "S"]))
    x = f32("X", ["B", "S"])
    add("Mish-18", "Mish", [x], [("Y", T.FLOAT)], {}, opset=18, bindings=BS, spec=same(["B", "S"]))
    for approx in ("none", "tanh"):
        add(f"Gelu-20_{approx}", "Gelu", [x], [("Y", T.FLOAT)], dict(approximate=approx), opset=20, bindings=BS,
            spec=same(["B", "S"]))
    for op in ("IsInf", "IsNaN"):
        add(f"{op}-20", op, [x], [("Y", T.BOOL)], {}, opset=20, bindings=BS, spec=same(["B", "S"]))
    data = f32("data", ["B", "S"])
    idx = In("indices", T.INT64, ["B", 2], fill=lambda rng, shape: np.tile(np.array([0, 1], np.int64), (shape[0], 1)))
    add("ScatterElements-18_max", "ScatterElements", [data, idx, f32("updates", ["B", 2])], [("output", T.FLOAT)],
        dict(axis=1, reduction="max"), opset=18, bindings=[{"B": 2, "S": 3}, {"B": 3, "S": 5}],
        spec=same(["B", "S"]))
    nd = In("indices", T.INT64, [2, 1], value=np.array([[0], [1]], np.int64))
    add("ScatterND-18_min", "ScatterND", [data, nd, f32("updates", [2, "S"])], [("output", T.FLOAT)],
        dict(reduction="min"), opset=18, bindings=[{"B": 2, "S": 3}, {"B": 3, "S": 5}], spec=same(["B", "S"]))


def version21_cases():
    """Operators whose version 19, 20 or 21 only adds types: their shape rule is the earlier version's."""
    x = f32("data", ["B", "S", 4])
    y = [("output", T.FLOAT)]
    add("Reshape-21", "Reshape", [x, const("shape", [0, -1])], y, {}, opset=21, bindings=BS,
        spec=lambda b: [[b["B"], 4 * b["S"]]])
    add("Reshape-19_allowzero", "Reshape", [x, const("shape", [-1, 4])], y, dict(allowzero=1), opset=19,
        bindings=BS, spec=lambda b: [[b["B"] * b["S"], 4]])
    add("Shape-21_start_end", "Shape", [x], [("output", T.INT64)], dict(start=1, end=-1), opset=21, bindings=BS,
        spec=same([1]))
    add("Size-21", "Size", [x], [("output", T.INT64)], {}, opset=21, bindings=BS, spec=same([]))
    add("Flatten-21", "Flatten", [x], y, dict(axis=2), opset=21, bindings=BS,
        spec=lambda b: [[b["B"] * b["S"], 4]])
    add("Squeeze-21", "Squeeze", [f32("data", ["B", 1, "S"]), const("axes", [1])], y, {}, opset=21, bindings=BS,
        spec=same(["B", "S"]))
    add("Unsqueeze-21", "Unsqueeze", [x, const("axes", [0, -1])], y, {}, opset=21, bindings=BS,
        spec=same([1, "B", "S", 4, 1]))
    add("Transpose-21", "Transpose", [x], y, dict(perm=[2, 0, 1]), opset=21, bindings=BS, spec=same([4, "B", "S"]))
    add("Identity-21", "Identity", [x], y, {}, opset=21, bindings=BS, spec=same(["B", "S", 4]))
    add("Cast-21", "Cast", [x], [("output", T.INT32)], dict(to=T.INT32), opset=21, bindings=BS,
        spec=same(["B", "S", 4]))
    add("CastLike-21", "CastLike", [x, const("like", [1], T.INT8)], [("output", T.INT8)], {}, opset=21,
        bindings=BS, spec=same(["B", "S", 4]))
    pre = [node("Shape", ["data"], ["shape"])]
    add("ConstantOfShape-21_computed", "ConstantOfShape", [x], [("output", T.INT64)],
        dict(value=helper.make_tensor("value", T.INT64, [1], [7])), opset=21, bindings=BS, pre=pre,
        node_inputs=["shape"], spec=same(["B", "S", 4]))
    add("ConstantOfShape-20_const", "ConstantOfShape", [const("input", [2, 3])], [("output", T.FLOAT)], {}, opset=20,
        bindings=[{}], spec=same([2, 3]))
    cond = In("cond", T.BOOL, [], fill=lambda rng, shape: np.array(True))
    then = helper.make_graph([node("Identity", ["data"], ["t"])], "then", [], [helper.make_tensor_value_info("t", T.FLOAT, None)])
    els = helper.make_graph([node("Neg", ["data"], ["e"])], "else", [], [helper.make_tensor_value_info("e", T.FLOAT, None)])
    add("If-21", "If", [cond, x], y, dict(then_branch=then, else_branch=els), opset=21, bindings=BS,
        node_inputs=["cond"], spec=same(["B", "S", 4]))
    add("Constant-21", "Constant", [], [("output", T.FLOAT)],
        dict(value=helper.make_tensor("value", T.FLOAT, [2, 3], [0.5] * 6)), opset=21, bindings=[{}],
        spec=same([2, 3]))
    vi = helper.make_tensor_value_info
    body = helper.make_graph(
        [node("Identity", ["cond_in"], ["cond_out"]), node("Add", ["v_in", "one_f"], ["v_out"]),
         node("Identity", ["v_out"], ["scan_out"])], "body",
        [vi("iter", T.INT64, []), vi("cond_in", T.BOOL, []), vi("v_in", T.FLOAT, None)],
        [vi("cond_out", T.BOOL, []), vi("v_out", T.FLOAT, None), vi("scan_out", T.FLOAT, None)])
    add("Loop-21", "Loop", [const("M", 3, shape=()), const("cond", True, T.BOOL, shape=()), f32("v", ["B", "S"]),
        const("one_f", 1.0, T.FLOAT, shape=())], [("v_final", T.FLOAT), ("scans", T.FLOAT)], dict(body=body),
        opset=21, bindings=BS, node_inputs=["M", "cond", "v"], spec=same(["B", "S"], [3, "B", "S"]))
    sbody = helper.make_graph(
        [node("Add", ["sum_in", "x_t"], ["sum_out"]), node("Identity", ["sum_out"], ["y_t"])], "scan_body",
        [vi("sum_in", T.FLOAT, None), vi("x_t", T.FLOAT, None)],
        [vi("sum_out", T.FLOAT, None), vi("y_t", T.FLOAT, None)])
    add("Scan-21", "Scan", [f32("init", [4]), f32("x", ["S", 4])], [("sum", T.FLOAT), ("ys", T.FLOAT)],
        dict(body=sbody, num_scan_inputs=1), opset=21, bindings=BS, spec=same([4], ["S", 4]))
    xq = In("a", T.UINT8, ["B", "S", 8], fill=randint(0, 256, T.UINT8))
    bq = In("b", T.UINT8, [8, 4], value=np.arange(32, dtype=np.uint8).reshape(8, 4))
    sc = [weight("a_scale", [], 0.01, 0.1), const("a_zero_point", 128, T.UINT8, shape=()),
          bq, weight("b_scale", [], 0.01, 0.1), const("b_zero_point", 3, T.UINT8, shape=()),
          weight("y_scale", [], 0.01, 0.1), const("y_zero_point", 128, T.UINT8, shape=())]
    add("QLinearMatMul-21", "QLinearMatMul", [xq] + sc, [("y", T.UINT8)], {}, opset=21, bindings=BS,
        spec=same(["B", "S", 4]))


def int4_cases():
    x = f32("x", ["B", 8])
    add("Cast-21_to_int4", "Cast", [x], [("y", INT4)], dict(to=INT4), opset=21, bindings=BS, spec=same(["B", 8]))
    add("Cast-21_to_uint4", "Cast", [f32("x", ["B", 8], 0, 10)], [("y", UINT4)], dict(to=UINT4), opset=21,
        bindings=BS, spec=same(["B", 8]))
    add("Cast-19_to_float8e4m3fn_and_back", "Cast", [x], [("y", T.FLOAT)], dict(to=FLOAT8E4M3FN, saturate=1),
        opset=19, bindings=BS, post=(["y8"], [node("Cast", ["y8"], ["y"], to=T.FLOAT)], [("y", T.FLOAT)]),
        spec=same(["B", 8]))
    scale = weight("y_scale", [], 0.05, 0.1)
    add("QuantizeLinear-21_int4", "QuantizeLinear", [x, scale], [("y", INT4)], dict(output_dtype=INT4), opset=21,
        bindings=BS, spec=same(["B", 8]))
    add("QuantizeLinear-21_int4_zero_point", "QuantizeLinear",
        [x, scale, In("y_zero_point", INT4, [], value=np.array(1, np.int8))], [("y", INT4)], {}, opset=21,
        bindings=BS, spec=same(["B", 8]))
    # onnxruntime-node 1.20.1 aborts on an int4 graph output: the int4 tensor is also dequantized
    # within the graph, and the float output compared.
    deq = (["q"], [node("DequantizeLinear", ["q", "y_scale"], ["y"])], [("y", T.FLOAT)])
    add("QuantizeLinear-21_int4_dequantized", "QuantizeLinear", [x, scale], [("y", T.FLOAT)],
        dict(output_dtype=INT4), opset=21, bindings=BS, post=deq, spec=same(["B", 8]))
    add("Transpose-21_int4_dequantized", "Transpose", [x, scale], [("y", T.FLOAT)], dict(perm=[1, 0]), opset=21,
        bindings=BS, pre=[node("QuantizeLinear", ["x", "y_scale"], ["q"], output_dtype=INT4)], node_inputs=["q"],
        post=(["qt"], [node("DequantizeLinear", ["qt", "y_scale"], ["y"])], [("y", T.FLOAT)]), spec=same([8, "B"]))
    bscale = In("y_scale", T.FLOAT, ["B", 2], fill=uniform(0.05, 0.1))
    add("QuantizeLinear-21_blocked", "QuantizeLinear", [x, bscale], [("y", T.UINT8)], dict(axis=1, block_size=4),
        opset=21, bindings=BS, spec=same(["B", 8]))
    add("QuantizeLinear-21_blocked_int4_dequantized", "QuantizeLinear", [x, bscale], [("y", T.FLOAT)],
        dict(axis=1, block_size=4, output_dtype=INT4), opset=21, bindings=BS,
        post=(["q"], [node("DequantizeLinear", ["q", "y_scale"], ["y"], axis=1, block_size=4)], [("y", T.FLOAT)]),
        spec=same(["B", 8]))
    xq = In("x", T.UINT8, ["B", 8], fill=randint(0, 256, T.UINT8))
    add("DequantizeLinear-21_blocked", "DequantizeLinear", [xq, In("x_scale", T.FLOAT, ["B", 2], fill=uniform(0.05, 0.1))],
        [("y", T.FLOAT)], dict(axis=1, block_size=4), opset=21, bindings=BS, spec=same(["B", 8]))
    add("DequantizeLinear-21_int4", "DequantizeLinear", [x, scale], [("y", T.FLOAT)], {}, opset=21, bindings=BS,
        pre=[node("QuantizeLinear", ["x", "y_scale"], ["q"], output_dtype=INT4)], node_inputs=["q", "y_scale"],
        spec=same(["B", 8]))
    add("Reshape-21_int4", "Reshape", [x, scale, const("shape", [-1, 4])], [("y", INT4)], {}, opset=21, bindings=BS,
        pre=[node("QuantizeLinear", ["x", "y_scale"], ["q"], output_dtype=INT4)], node_inputs=["q", "shape"],
        spec=lambda b: [[2 * b["B"], 4]])
    add("Transpose-21_int4", "Transpose", [x, scale], [("y", INT4)], dict(perm=[1, 0]), opset=21, bindings=BS,
        pre=[node("QuantizeLinear", ["x", "y_scale"], ["q"], output_dtype=INT4)], node_inputs=["q"],
        spec=same([8, "B"]))
    v4 = tensor_proto("value", INT4, np.array([3], np.int8))
    add("ConstantOfShape-21_int4", "ConstantOfShape", [const("input", [2, 3])], [("output", INT4)], dict(value=v4),
        opset=21, bindings=[{}], spec=same([2, 3]))


def png(h, w):
    """A PNG image of h rows of w RGB pixels, as ImageDecoder reads it."""
    import struct

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\0" + bytes(range(3 * w)) for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def image_decoder_cases():
    data = np.frombuffer(png(3, 2), np.uint8)
    why = "ImageDecoder: the image's height and width are in the encoded stream, a graph input"
    for fmt, c in (("RGB", 3), ("Grayscale", 1)):
        add(f"ImageDecoder-20_{fmt.lower()}", "ImageDecoder",
            [In("encoded_stream", T.UINT8, [len(data)], fill=lambda rng, shape: data.copy())], [("image", T.UINT8)],
            dict(pixel_format=fmt), opset=20, bindings=[{}], data={"image": why}, spec=same([3, 2, c]))


def string_optional_cases():
    xs = In("X", T.STRING, ["B", "S"], fill=strings(["ab", "cd", "a,b", "x"]))
    add("StringConcat-20", "StringConcat", [xs, In("Y", T.STRING, ["S"], fill=strings(["!", "?"]))],
        [("Z", T.STRING)], {}, opset=20, bindings=BS, spec=same(["B", "S"]))
    add("RegexFullMatch-20", "RegexFullMatch", [xs], [("Y", T.BOOL)], dict(pattern="[a-z]+"), opset=20,
        bindings=BS, spec=same(["B", "S"]))
    xs1 = In("X", T.STRING, ["B"], fill=strings(["a,b,c", "d", "e,f"]))
    why = "StringSplit: the largest number of substrings of an input string"
    add("StringSplit-20", "StringSplit", [xs1], [("Y", T.STRING), ("Z", T.INT64)], dict(delimiter=","), opset=20,
        bindings=[{"B": 3}, {"B": 2}], data={"Y": why}, spec=lambda b: [None, [b["B"]]])
    add("StringSplit-20_maxsplit", "StringSplit", [xs1], [("Y", T.STRING), ("Z", T.INT64)],
        dict(delimiter=",", maxsplit=1), opset=20, bindings=[{"B": 3}, {"B": 2}], data={"Y": why},
        spec=lambda b: [None, [b["B"]]])
    add("Equal-19_string", "Equal", [xs, In("Y", T.STRING, ["S"], fill=strings(["ab", "x"]))], [("Z", T.BOOL)], {},
        opset=19, bindings=BS, spec=same(["B", "S"]))
    x = f32("X", ["B", "S"])
    add("OptionalHasElement-18_tensor", "OptionalHasElement", [x], [("output", T.BOOL)], {}, opset=18, bindings=BS,
        spec=same([]))
    add("OptionalHasElement-18_absent", "OptionalHasElement", [], [("output", T.BOOL)], {}, opset=18,
        bindings=[{}], node_inputs=[""], spec=same([]))
    add("OptionalGetElement-18_tensor", "OptionalGetElement", [x], [("output", T.FLOAT)], {}, opset=18,
        bindings=BS, spec=same(["B", "S"]))
    opt = [node("Optional", ["X"], ["opt"])]
    add("OptionalGetElement-18_optional", "OptionalGetElement", [x], [("output", T.FLOAT)], {}, opset=18,
        bindings=BS, pre=opt, node_inputs=["opt"], spec=same(["B", "S"]))
    add("OptionalHasElement-18_optional", "OptionalHasElement", [x], [("output", T.BOOL)], {}, opset=18,
        bindings=BS, pre=opt, node_inputs=["opt"], spec=same([]))
    empty = [node("Optional", [], ["opt"], type=helper.make_tensor_type_proto(T.FLOAT, None))]
    add("OptionalHasElement-18_empty_optional", "OptionalHasElement", [x], [("output", T.BOOL)], {}, opset=18,
        bindings=BS, pre=empty, node_inputs=["opt"], spec=same([]))


def training_cases():
    r, t = const("R", 0.1, T.FLOAT, shape=()), const("T", 0, shape=())
    x, g, h = f32("X", ["B", "S"]), f32("G", ["B", "S"]), f32("H", ["B", "S"], 0, 1)
    v = f32("V", ["B", "S"])
    add("training.Adagrad-1", "Adagrad", [r, t, x, g, h], [("X_new", T.FLOAT), ("H_new", T.FLOAT)], {}, TRAINING,
        bindings=BS, spec=same(["B", "S"], ["B", "S"]))
    add("training.Momentum-1", "Momentum", [r, t, x, g, v], [("X_new", T.FLOAT), ("V_new", T.FLOAT)],
        dict(alpha=0.9, beta=1.0, mode="standard", norm_coefficient=0.0), TRAINING, bindings=BS,
        spec=same(["B", "S"], ["B", "S"]))
    add("training.Adam-1", "Adam", [r, t, x, g, v, h], [("X_new", T.FLOAT), ("V_new", T.FLOAT), ("H_new", T.FLOAT)],
        {}, TRAINING, bindings=BS, spec=same(["B", "S"], ["B", "S"], ["B", "S"]))
    add("training.Gradient-1", "Gradient", [f32("A", ["B", "S"]), f32("Bx", ["B", "S"])],
        [("dA", T.FLOAT), ("dB", T.FLOAT)], dict(xs=["A", "Bx"], y="C"), TRAINING, bindings=BS,
        pre=[node("Mul", ["A", "Bx"], ["C"])], spec=same(["B", "S"], ["B", "S"]))


for build in (attention_cases, mha_cases, gqa_cases, rotary_cases, layernorm_cases, embed_cases, gelu_cases,
              fused_matmul_cases, conv_norm_cases, fused_conv_gemm_cases, matmulnbits_cases, quant_cases, quant_op_cases, quant_transformer_cases, contrib_misc_cases, dmmha_cases, reduce_cases,
              split_pad_cases, resize_cases, image_cases, dft_cases, elementwise_cases, version21_cases,
              int4_cases, image_decoder_cases, string_optional_cases, training_cases):
    build()


# ---------------------------------------------------------------------------------------------------
# Models, runs, rows
# ---------------------------------------------------------------------------------------------------

IR_VERSION = {17: 8, 18: 8, 19: 9, 20: 9, 21: 10}


def make_model(c, symbolic, b0):
    inputs, inits = [], []
    for i in c.inputs:
        if i.const:
            inits.append(tensor_proto(i.name, i.dtype, i.value))
            continue
        shape = i.dims if symbolic else dims(i.dims, b0)
        inputs.append(helper.make_tensor_value_info(i.name, i.dtype, shape))
    outputs = [helper.make_tensor_value_info(n, t, None) for n, t in c.outputs]
    g = helper.make_graph(c.nodes, c.name, inputs, outputs, initializer=inits)
    imports = {"": c.default_opset}
    if c.domain:
        imports[c.domain] = c.opset
    m = helper.make_model(g, opset_imports=[helper.make_opsetid(d, v) for d, v in sorted(imports.items())],
                          producer_name="bench/ortcases/gen.py")
    m.ir_version = IR_VERSION[max(c.default_opset, 17)]
    return m


def feeds(c, b, rng):
    out = []
    for i in c.inputs:
        if i.const:
            continue
        shape = dims(i.dims, b)
        a = (i.fill or uniform())(rng, shape)
        if i.dtype == T.STRING:
            out.append({"name": i.name, "type": "string", "dims": shape, "strings": [str(s) for s in a.reshape(-1)]})
        else:
            out.append({"name": i.name, "type": ORT_TYPE[i.dtype], "dims": shape,
                        "data": base64.b64encode(np.ascontiguousarray(a, dtype=NP[i.dtype]).tobytes()).decode()})
    return out


def run_ort(jobs):
    """onnxruntime's result of every job. A job that crashes onnxruntime-node is a refusal, and the
    runner starts again after it."""
    results = []
    with tempfile.TemporaryDirectory() as d:
        jp, rp = os.path.join(d, "jobs.json"), os.path.join(d, "results.jsonl")
        with open(jp, "w") as f:
            json.dump({"max_values": MAX_VALUES, "jobs": jobs}, f)
        env = dict(os.environ)
        env.setdefault("NODE_PATH", "/work/ort/node_modules")
        while len(results) < len(jobs):
            p = subprocess.run(["node", os.path.join(HERE, "ort_run.js"), jp, rp, str(len(results))], env=env,
                               stderr=subprocess.PIPE, text=True)
            if os.path.exists(rp):
                with open(rp) as f:
                    results += [json.loads(line) for line in f]
                os.remove(rp)
            if p.returncode < 0:
                results.append({"ok": False, "error": f"onnxruntime-node 1.20.1 crashed (signal {-p.returncode})"})
            elif p.returncode != 0:
                sys.exit(p.stderr)
    return results


def outputs_of(c, b, result, disagree):
    """The row's outputs: onnxruntime's when it ran, the documentation's otherwise."""
    spec = c.spec(c.full[json.dumps(b)]) if c.spec else [None] * len(c.outputs)
    outs = []
    for k, (name, dtype) in enumerate(c.outputs):
        o = {"name": name, "type": TYPE_NAME[dtype]}
        if result["ok"]:
            r = result["outputs"][name]
            o["type"] = ONNX_OF_ORT.get(r["type"], r["type"])
            o["shape"] = r["dims"]
            if "values" in r:
                o["values"] = [int(v) for v in r["values"]]
            if spec[k] is not None and spec[k] != r["dims"]:
                o["spec"] = spec[k]
                disagree.append(f"{c.name} {b}: {name}: onnxruntime {r['dims']}, the documentation {spec[k]}")
        else:
            if spec[k] is None:
                sys.exit(f"{c.name}: onnxruntime refused ({result['error']}) and the case has no spec for {name}")
            o["shape"] = spec[k]
        if name in c.data:
            o["data"] = c.data[name]
        outs.append(o)
    return outs


def main():
    names = [c.name for c in CASES]
    if len(set(names)) != len(names):
        sys.exit("duplicate case names: " + " ".join(n for n in names if names.count(n) > 1))
    jobs, plan = [], []
    for c in CASES:
        symbols = any(c.bindings)
        if symbols and len(c.bindings) < 2:
            sys.exit(f"{c.name}: fewer than two bindings")
        rng = np.random.default_rng(zlib.crc32(c.name.encode()))
        b0 = c.bindings[0]
        static, symbolic = make_model(c, False, b0), make_model(c, True, b0)
        plan.append((c, "static", b0, static, len(jobs)))
        jobs.append({"model": base64.b64encode(static.SerializeToString()).decode(), "inputs": feeds(c, b0, rng)})
        for k, b in enumerate(c.bindings if symbols else []):
            plan.append((c, k + 1, b, symbolic, len(jobs)))
            jobs.append({"model": base64.b64encode(symbolic.SerializeToString()).decode(),
                         "inputs": feeds(c, b, rng)})
        for k, b in enumerate(c.refuse):
            plan.append((c, f"refused@{k + 1}", b, symbolic, len(jobs)))
            jobs.append({"model": base64.b64encode(symbolic.SerializeToString()).decode(),
                         "inputs": feeds(c, b, rng)})
    results = run_ort(jobs)
    refusals = []
    for c, k, b, m, j in [p for p in plan if str(p[1]).startswith("refused@")]:
        if results[j]["ok"]:
            sys.exit(f"{c.name}: onnxruntime runs the model at {b}, which the case says it refuses")
        refusals.append({"name": c.name, "op": c.op, "domain": c.domain, "opset": c.opset, "variant": k, "binding": b,
                         "model": base64.b64encode(m.SerializeToString()).decode(), "ort_error": results[j]["error"]})
    plan = [p for p in plan if not str(p[1]).startswith("refused@")]
    rows, disagree, refused = [], [], {}
    for c, k, b, m, j in plan:
        r = results[j]
        if not r["ok"]:
            refused.setdefault(c.name, r["error"])
        variants = ["static"] if k == "static" else [f"symbolic@{k}", f"bound@{k}"]
        outs = outputs_of(c, b, r, disagree)
        consts = [i.name for i in c.inputs if i.const]
        for v in variants:
            row = {"name": c.name, "op": c.op, "domain": c.domain, "opset": c.opset,
                   "ops": sorted(all_ops(m.graph, set())),
                   "opsets": {o.domain or "": o.version for o in m.opset_import}, "variant": v, "consts": consts,
                   "outputs": outs, "model": base64.b64encode(m.SerializeToString()).decode(),
                   "source": "onnxruntime" if r["ok"] else "spec"}
            if k != "static":
                row["binding"] = b
            if not r["ok"]:
                row["ort_error"] = r["error"]
            rows.append(row)
    order = {"static": 0}
    rows.sort(key=lambda r: (r["name"], order.get(r["variant"], 1), r["variant"]))
    size = NODETESTS.write_rows(OUT, rows)
    print(f"{OUT}: {len(CASES)} cases, {len(rows)} rows, {size} bytes", file=sys.stderr)
    size = NODETESTS.write_rows(REFUSED, refusals)
    print(f"{REFUSED}: {len(refusals)} refused bindings, {size} bytes", file=sys.stderr)
    print(f"onnxruntime refused {len(refused)} cases (their rows are the documentation's shapes):", file=sys.stderr)
    for n, e in sorted(refused.items()):
        print(f"  {n}: {e}", file=sys.stderr)
    print(f"onnxruntime and the documentation disagree ({len(disagree)}):", file=sys.stderr)
    for d in disagree:
        print("  " + d, file=sys.stderr)


if __name__ == "__main__":
    main()
