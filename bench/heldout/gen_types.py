#!/usr/bin/python3
"""Build the type-error models of the held-out sets with onnx.helper, each with a twin that loads.

Each pair holds one node whose input has an element type that onnxruntime-node 1.20.1 refuses at session
creation: a type the operator's ONNX schema does not allow at the model's opset (what onnx.checker
applies), or one the schema allows and onnxruntime has no CPU kernel for ("Could not find an
implementation for ..."). The twin is the same graph with that input cast to a type both accept (or the
opset where the schema allows it), and loads. Every model has a symbolic batch N, so that it has bindings.

  /usr/bin/python3 bench/heldout/gen_types.py [--out DIR] [NAME...]

DIR defaults to /work/heldout/models. The models are written as NAME.onnx and NAME_twin.onnx; TYPES below
lists, per pair, the node onnxruntime refuses, which a tool must flag (sets.py reads it from here).
EXPORT_TWINS are the twins of exports with a type error (RAFT's Sqrt of int64), made from the export
in DIR when it is there.
Deterministic: running it again gives byte-identical files.
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper, numpy_helper

F32, I64, I32, I8, BOOL = T.FLOAT, T.INT64, T.INT32, T.INT8, T.BOOL


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def const(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


def model(name, nodes, inputs, outputs, inits=(), opset=14, twin=False):
    g = helper.make_graph(nodes, name + ("_twin" if twin else ""), inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="gen_types.py")
    m.ir_version = 8
    return m


def cast(src, dst, to, name):
    return helper.make_node("Cast", [src], [dst], name=name, to=to)


# --- the pairs: a function of twin -> model; the node a tool must flag --------------------------------

def sqrt_i64(twin):
    # raft_small under torch 1.13: the Sqrt of a channel count read from Shape, then cast to float.
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape"),
             helper.make_node("Gather", ["s", "one"], ["c"], name="channels", axis=0)]
    if twin:
        nodes += [cast("c", "cf", F32, "to_float"), helper.make_node("Sqrt", ["cf"], ["r"], name="sqrt")]
    else:
        nodes += [helper.make_node("Sqrt", ["c"], ["ri"], name="sqrt"), cast("ri", "r", F32, "to_float")]
    nodes.append(helper.make_node("Div", ["x", "r"], ["y"], name="scale"))
    return model("sqrt_i64", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, ["N", 4])],
                 [const("one", np.array(1, np.int64))], twin=twin)


def matmul_i8(twin):
    # MatMul has no int8 form (the schema's T: float types and 32/64-bit integers): MatMulInteger has.
    et = I32 if twin else I8
    w = np.arange(12).reshape(4, 3).astype(np.int32 if twin else np.int8)
    nodes = [cast("x", "xi", et, "quantize"), helper.make_node("MatMul", ["xi", "w"], ["y"], name="matmul")]
    return model("matmul_i8", nodes, [vi("x", F32, ["N", 4])], [vi("y", et, ["N", 3])], [const("w", w)], twin=twin)


def shape_sigmoid(twin):
    # The Shape of a float tensor (int64) fed to a float-only operator.
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape")]
    if twin:
        nodes += [cast("s", "sf", F32, "to_float"), helper.make_node("Sigmoid", ["sf"], ["y"], name="sigmoid")]
        out = vi("y", F32, [2])
    else:
        nodes += [helper.make_node("Sigmoid", ["s"], ["y"], name="sigmoid")]
        out = vi("y", I64, [2])
    return model("shape_sigmoid", nodes, [vi("x", F32, ["N", 4])], [out], twin=twin)


def conv_i64(twin):
    et = F32 if twin else I64
    w = np.ones((2, 3, 3, 3), np.float32 if twin else np.int64)
    nodes = [cast("x", "xc", et, "cast_in"),
             helper.make_node("Conv", ["xc", "w"], ["y"], name="conv", pads=[1, 1, 1, 1])]
    return model("conv_i64", nodes, [vi("x", F32, ["N", 3, "H", "W"])], [vi("y", et, ["N", 2, "H", "W"])],
                 [const("w", w)], twin=twin)


def where_float_cond(twin):
    nodes = [helper.make_node("Greater", ["x", "zero"], ["g"], name="positive")]
    if twin:
        nodes.append(helper.make_node("Where", ["g", "x", "zero"], ["y"], name="where"))
    else:
        nodes += [cast("g", "gf", F32, "mask_float"), helper.make_node("Where", ["gf", "x", "zero"], ["y"], name="where")]
    return model("where_float_cond", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, ["N", 4])],
                 [const("zero", np.array(0, np.float32))], twin=twin)


def reshape_float_shape(twin):
    # A pattern computed in floats (a size scaled and rounded) and not cast back to int64.
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape"),
             cast("s", "sf", F32, "to_float"),
             helper.make_node("Mul", ["sf", "half"], ["h"], name="halve")]
    if twin:
        nodes += [cast("h", "hi", I64, "to_int"), helper.make_node("Reshape", ["x", "hi"], ["y"], name="reshape")]
    else:
        nodes.append(helper.make_node("Reshape", ["x", "h"], ["y"], name="reshape"))
    return model("reshape_float_shape", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, None)],
                 [const("half", np.array([4, 0.25], np.float32))], twin=twin)


def resize_i64(twin):
    # The schema allows any numeric X; onnxruntime's CPU Resize has float, int32, int8 and uint8 kernels.
    et = I32 if twin else I64
    nodes = [cast("x", "xi", et, "to_int"),
             helper.make_node("Resize", ["xi", "", "scales"], ["y"], name="resize", mode="nearest")]
    return model("resize_i64", nodes, [vi("x", F32, ["N", 2, "H", "W"])],
                 [vi("y", et, ["N", 2, None, None])], [const("scales", np.array([1, 1, 2, 2], np.float32))],
                 opset=13, twin=twin)


def relu_i64_op13(twin):
    # Relu-13 takes floats only; Relu-14 adds int8, int16, int32 and int64 (the twin: Relu-14 of int32).
    et = I32 if twin else I64
    nodes = [cast("x", "xi", et, "to_int"), helper.make_node("Relu", ["xi"], ["y"], name="relu")]
    return model("relu_i64_op13", nodes, [vi("x", F32, ["N", 4])], [vi("y", et, ["N", 4])],
                 opset=14 if twin else 13, twin=twin)


def relu_i64_op14(twin):
    # Relu-14 allows int64; onnxruntime's CPU Relu-14 has no int64 kernel (it has int8 and int32).
    et = I32 if twin else I64
    nodes = [cast("x", "xi", et, "to_int"), helper.make_node("Relu", ["xi"], ["y"], name="relu")]
    return model("relu_i64_op14", nodes, [vi("x", F32, ["N", 4])], [vi("y", et, ["N", 4])], opset=14, twin=twin)


def neg_i16(twin):
    # Neg-13 allows int16; onnxruntime's CPU Neg has no int16 kernel.
    et = I32 if twin else T.INT16
    nodes = [cast("x", "xi", et, "to_int"), helper.make_node("Neg", ["xi"], ["y"], name="neg")]
    return model("neg_i16", nodes, [vi("x", F32, ["N", "C"])], [vi("y", et, ["N", "C"])], opset=13, twin=twin)


def erf_f64(twin):
    # Erf-13 allows double; onnxruntime's CPU Erf has a float kernel only.
    et = F32 if twin else T.DOUBLE
    nodes = [cast("x", "xd", et, "to_double"), helper.make_node("Erf", ["xd"], ["e"], name="erf"),
             cast("e", "y", F32, "to_float")]
    return model("erf_f64", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, ["N", 4])], opset=13, twin=twin)


def sqrt_i64_in_if(twin):
    # The Sqrt of an int64 size inside an If branch (the node path is If/then_branch/NAME).
    def branch(kind):
        if kind == "then":
            ns = [helper.make_node("Shape", ["x"], ["ts"], name="t_shape"),
                  helper.make_node("Gather", ["ts", "one"], ["tc"], name="t_channels", axis=0)]
            if twin:
                ns += [cast("tc", "tcf", F32, "t_float"), helper.make_node("Sqrt", ["tcf"], ["tr"], name="t_sqrt")]
            else:
                ns += [helper.make_node("Sqrt", ["tc"], ["tri"], name="t_sqrt"), cast("tri", "tr", F32, "t_float")]
            ns.append(helper.make_node("Div", ["x", "tr"], ["ty"], name="t_div"))
            return helper.make_graph(ns, "then", [], [vi("ty", F32, ["N", 4])])
        ns = [helper.make_node("Identity", ["x"], ["ey"], name="e_id")]
        return helper.make_graph(ns, "else", [], [vi("ey", F32, ["N", 4])])

    nodes = [helper.make_node("If", ["flag"], ["y"], name="branch", then_branch=branch("then"),
                              else_branch=branch("else"))]
    return model("sqrt_i64_in_if", nodes, [vi("x", F32, ["N", 4]), vi("flag", BOOL, [])],
                 [vi("y", F32, ["N", 4])], [const("one", np.array(1, np.int64))], opset=14, twin=twin)


def gather_float_idx(twin):
    nodes = [helper.make_node("ArgMax", ["x"], ["am"], name="argmax", axis=1, keepdims=0)]
    if twin:
        nodes.append(helper.make_node("Gather", ["table", "am"], ["y"], name="gather", axis=0))
    else:
        nodes += [cast("am", "af", F32, "to_float"), helper.make_node("Gather", ["table", "af"], ["y"], name="gather", axis=0)]
    return model("gather_float_idx", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, ["N", 3])],
                 [const("table", np.arange(12, dtype=np.float32).reshape(4, 3))], twin=twin)


def softmax_i32(twin):
    et = F32 if twin else I32
    nodes = [cast("x", "xi", et, "cast_in"), helper.make_node("Softmax", ["xi"], ["y"], name="softmax", axis=-1)]
    return model("softmax_i32", nodes, [vi("x", F32, ["N", 4])], [vi("y", et, ["N", 4])], opset=13, twin=twin)


def add_mixed(twin):
    # A float tensor plus a size read from Shape (int64): Add's inputs must share one type.
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape"),
             helper.make_node("Gather", ["s", "zero"], ["n"], name="batch", axis=0)]
    if twin:
        nodes += [cast("n", "nf", F32, "to_float"), helper.make_node("Add", ["x", "nf"], ["y"], name="add")]
    else:
        nodes.append(helper.make_node("Add", ["x", "n"], ["y"], name="add"))
    return model("add_mixed", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, ["N", 4])],
                 [const("zero", np.array(0, np.int64))], twin=twin)


def clip_i64_op11(twin):
    # Clip-11 takes floats only; Clip-12 and later add the integer types (the twin's opset 13).
    nodes = [cast("x", "xi", I64, "to_int"), helper.make_node("Clip", ["xi", "lo", "hi"], ["y"], name="clip")]
    return model("clip_i64_op11", nodes, [vi("x", F32, ["N", 4])], [vi("y", I64, ["N", 4])],
                 [const("lo", np.array(0, np.int64)), const("hi", np.array(3, np.int64))],
                 opset=13 if twin else 11, twin=twin)


def maxpool_i64(twin):
    et = I8 if twin else I64
    nodes = [cast("x", "xi", et, "to_int"),
             helper.make_node("MaxPool", ["xi"], ["y"], name="maxpool", kernel_shape=[2, 2], strides=[2, 2])]
    return model("maxpool_i64", nodes, [vi("x", F32, ["N", 2, "H", "W"])], [vi("y", et, ["N", 2, None, None])],
                 opset=12, twin=twin)


def topk_i32_k(twin):
    nodes = [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk", axis=-1)]
    k = np.array([2], np.int64 if twin else np.int32)
    return model("topk_i32_k", nodes, [vi("x", F32, ["N", 4])], [vi("v", F32, ["N", 2]), vi("i", I64, ["N", 2])],
                 [const("k", k)], opset=11, twin=twin)


def layernorm_i32(twin):
    et = F32 if twin else I32
    nodes = [cast("x", "xi", et, "cast_in"),
             helper.make_node("LayerNormalization", ["xi", "g"], ["y"], name="layernorm", axis=-1)]
    g = np.ones(4, np.float32 if twin else np.int32)
    return model("layernorm_i32", nodes, [vi("x", F32, ["N", 4])], [vi("y", et, ["N", 4])], [const("g", g)],
                 opset=17, twin=twin)


def expand_i32_shape(twin):
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape")]
    if twin:
        nodes.append(helper.make_node("Expand", ["b", "s"], ["y"], name="expand"))
    else:
        nodes += [cast("s", "s32", I32, "to_i32"), helper.make_node("Expand", ["b", "s32"], ["y"], name="expand")]
    return model("expand_i32_shape", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, ["N", 4])],
                 [const("b", np.ones((1, 4), np.float32))], twin=twin)


# name -> (builder, the node onnxruntime refuses (its path as `reshape check` prints it))
TYPES = {
    "sqrt_i64": (sqrt_i64, "sqrt"),
    "matmul_i8": (matmul_i8, "matmul"),
    "shape_sigmoid": (shape_sigmoid, "sigmoid"),
    "conv_i64": (conv_i64, "conv"),
    "where_float_cond": (where_float_cond, "where"),
    "reshape_float_shape": (reshape_float_shape, "reshape"),
    "resize_i64": (resize_i64, "resize"),
    "relu_i64_op13": (relu_i64_op13, "relu"),
    "neg_i16": (neg_i16, "neg"),
    "relu_i64_op14": (relu_i64_op14, "relu"),
    "erf_f64": (erf_f64, "erf"),
    "sqrt_i64_in_if": (sqrt_i64_in_if, "branch/then_branch/t_sqrt"),
    "gather_float_idx": (gather_float_idx, "gather"),
    "softmax_i32": (softmax_i32, "softmax"),
    "add_mixed": (add_mixed, "add"),
    "clip_i64_op11": (clip_i64_op11, "clip"),
    "maxpool_i64": (maxpool_i64, "maxpool"),
    "topk_i32_k": (topk_i32_k, "topk"),
    "layernorm_i32": (layernorm_i32, "layernorm"),
    "expand_i32_shape": (expand_i32_shape, "expand"),
}


# --- trial4's pairs (sets.TRIAL4): shape-carrying inputs of the wrong integer type, and types an
# operator's schema gains at a later opset or onnxruntime has no kernel for

def tile_i32_repeats(twin):
    # Tile's repeats are tensor(int64) only.
    et, dt = (I64, np.int64) if twin else (I32, np.int32)
    nodes = [helper.make_node("Tile", ["x", "rep"], ["y"], name="tile")]
    return model("tile_i32_repeats", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, ["N", 8])],
                 [const("rep", np.array([1, 2], dt))], opset=13, twin=twin)


def slice_mixed_idx(twin):
    # Slice's starts and ends share one type constraint (Tind): int32 starts with int64 ends is refused.
    nodes = [helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["y"], name="slice")]
    return model("slice_mixed_idx", nodes, [vi("x", F32, ["N", 8])], [vi("y", F32, ["N", 4])],
                 [const("starts", np.array([2], np.int64 if twin else np.int32)),
                  const("ends", np.array([6], np.int64)), const("axes", np.array([1], np.int64))],
                 opset=13, twin=twin)


def constantofshape_i32(twin):
    # ConstantOfShape's input is tensor(int64) only.
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape")]
    src = "s"
    if not twin:
        nodes.append(cast("s", "s32", I32, "to_i32"))
        src = "s32"
    nodes.append(helper.make_node("ConstantOfShape", [src], ["z"], name="constantofshape",
                                  value=helper.make_tensor("v", F32, [1], [1.0])))
    nodes.append(helper.make_node("Add", ["x", "z"], ["y"], name="add"))
    return model("constantofshape_i32", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, ["N", 4])], opset=12, twin=twin)


def unsqueeze_i32_axes(twin):
    # Unsqueeze-13's axes are tensor(int64) only.
    nodes = [helper.make_node("Unsqueeze", ["x", "axes"], ["y"], name="unsqueeze")]
    return model("unsqueeze_i32_axes", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, ["N", 1, 4])],
                 [const("axes", np.array([1], np.int64 if twin else np.int32))], opset=13, twin=twin)


def equal_f32_op10(twin):
    # Equal-7 compares bool, int32 and int64; Equal-11 adds the float types (the twin's opset).
    nodes = [helper.make_node("Equal", ["x", "zero"], ["y"], name="equal")]
    return model("equal_f32_op10", nodes, [vi("x", F32, ["N", 4])], [vi("y", BOOL, ["N", 4])],
                 [const("zero", np.zeros(4, np.float32))], opset=11 if twin else 10, twin=twin)


def max_i64_op11(twin):
    # Max-8 takes the float types only; Max-12 adds the integers (the twin's opset).
    nodes = [cast("x", "xi", I64, "to_int"), helper.make_node("Max", ["xi", "lo"], ["y"], name="max")]
    return model("max_i64_op11", nodes, [vi("x", F32, ["N", 4])], [vi("y", I64, ["N", 4])],
                 [const("lo", np.zeros(4, np.int64))], opset=12 if twin else 11, twin=twin)


def gemm_i32(twin):
    # Gemm-11's schema allows int32; onnxruntime's CPU kernels are float (and double) only.
    et, dt = (F32, np.float32) if twin else (I32, np.int32)
    nodes = [cast("x", "xi", et, "cast_in"), helper.make_node("Gemm", ["xi", "w"], ["y"], name="gemm")]
    return model("gemm_i32", nodes, [vi("x", F32, ["N", 4])], [vi("y", et, ["N", 3])],
                 [const("w", np.ones((4, 3), dt))], opset=13, twin=twin)


def cumsum_u32(twin):
    # CumSum's schema allows uint32; onnxruntime's CPU kernels are float, double, int32 and int64.
    et = I32 if twin else T.UINT32
    nodes = [cast("x", "xi", et, "cast_in"), helper.make_node("CumSum", ["xi", "axis"], ["y"], name="cumsum")]
    return model("cumsum_u32", nodes, [vi("x", F32, ["N", 4])], [vi("y", et, ["N", 4])],
                 [const("axis", np.array(1, np.int64))], opset=14, twin=twin)


def pad_i32_pads(twin):
    # Pad-13's pads are tensor(int64) only.
    nodes = [helper.make_node("Pad", ["x", "pads"], ["y"], name="pad")]
    return model("pad_i32_pads", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, ["N", 6])],
                 [const("pads", np.array([0, 1, 0, 1], np.int64 if twin else np.int32))], opset=13, twin=twin)


def floor_i32(twin):
    # Floor takes the float types only.
    et = F32 if twin else I32
    nodes = [cast("x", "xi", et, "cast_in"), helper.make_node("Floor", ["xi"], ["y"], name="floor")]
    return model("floor_i32", nodes, [vi("x", F32, ["N", 4])], [vi("y", et, ["N", 4])], opset=13, twin=twin)


def range_mixed(twin):
    # Range's start, limit and delta share one type: a limit read from Shape (int64) with int32 start
    # and delta is refused.
    dt = np.int64 if twin else np.int32
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape"),
             helper.make_node("Gather", ["s", "zero"], ["n"], name="batch", axis=0),
             helper.make_node("Range", ["start", "n", "delta"], ["y"], name="range")]
    return model("range_mixed", nodes, [vi("x", F32, ["N", 4])], [vi("y", T.INT64 if twin else I32, ["N"])],
                 [const("zero", np.array(0, np.int64)), const("start", np.array(0, dt)),
                  const("delta", np.array(1, dt))], opset=13, twin=twin)


def on_mask(name, twin, op, node, out, to, inputs=(), inits=(), **attrs):
    """The model NAME: op (its node named node) on the bool mask x > 0 of x [N,4], then on the mask
    cast to `to` in the twin (the Cast named to_int or to_float); the output y [N], of out's type
    (a function of twin), reduces axis 1."""
    nodes = [helper.make_node("Greater", ["x", "zero"], ["m"], name="greater")]
    src = "m"
    if twin:
        src = "mi" if to == I64 else "mf"
        nodes.append(cast("m", src, to, "to_int" if to == I64 else "to_float"))
    nodes.append(helper.make_node(op, [src, *inputs], ["y"], name=node, **attrs))
    return model(name, nodes, [vi("x", F32, ["N", 4])], [vi("y", out(twin), ["N"])],
                 [const("zero", np.zeros(4, np.float32)), *inits], opset=13, twin=twin)


def reducesum_bool(twin):
    # ReduceSum takes numeric types: a bool mask is refused (the twin casts it to int64 first).
    return on_mask("reducesum_bool", twin, "ReduceSum", "reducesum", lambda t: I64 if t else BOOL, I64, ["axes"],
                   [const("axes", np.array([1], np.int64))], keepdims=0)


TRIAL4 = {
    "tile_i32_repeats": (tile_i32_repeats, "tile"),
    "slice_mixed_idx": (slice_mixed_idx, "slice"),
    "constantofshape_i32": (constantofshape_i32, "constantofshape"),
    "unsqueeze_i32_axes": (unsqueeze_i32_axes, "unsqueeze"),
    "equal_f32_op10": (equal_f32_op10, "equal"),
    "max_i64_op11": (max_i64_op11, "max"),
    "gemm_i32": (gemm_i32, "gemm"),
    "cumsum_u32": (cumsum_u32, "cumsum"),
    "pad_i32_pads": (pad_i32_pads, "pad"),
    "floor_i32": (floor_i32, "floor"),
    "range_mixed": (range_mixed, "range"),
    "reducesum_bool": (reducesum_bool, "reducesum"),
}


# --- trial5's pairs (sets.TRIAL5): op/type combinations no other set holds

def exp_i64(twin):
    # Exp-13 takes the float types only.
    et = F32 if twin else I64
    nodes = [cast("x", "xi", et, "cast_in"), helper.make_node("Exp", ["xi"], ["y"], name="exp")]
    return model("exp_i64", nodes, [vi("x", F32, ["N", 4])], [vi("y", et, ["N", 4])], opset=13, twin=twin)


def not_f32(twin):
    # Not takes bool only: the twin casts the float input to bool first.
    nodes, src = [], "x"
    if twin:
        nodes.append(cast("x", "xb", BOOL, "to_bool"))
        src = "xb"
    nodes.append(helper.make_node("Not", [src], ["y"], name="not"))
    return model("not_f32", nodes, [vi("x", F32, ["N", 4])], [vi("y", BOOL if twin else F32, ["N", 4])], opset=13,
                 twin=twin)


def and_i32(twin):
    # And takes bool only.
    et = BOOL if twin else I32
    nodes = [cast("x", "xi", et, "cast_in"), helper.make_node("And", ["xi", "m"], ["y"], name="and")]
    return model("and_i32", nodes, [vi("x", F32, ["N", 4])], [vi("y", et, ["N", 4])],
                 [const("m", np.array([1, 0, 1, 0], np.bool_ if twin else np.int32))], opset=13, twin=twin)


def concat_mixed(twin):
    # Concat's inputs share one type: a float tensor with an int64 constant is refused.
    nodes = [helper.make_node("Concat", ["x", "c"], ["y"], name="concat", axis=0)]
    return model("concat_mixed", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, ["M", 4])],
                 [const("c", np.zeros((2, 4), np.float32 if twin else np.int64))], opset=13, twin=twin)


def pow_i64_op11(twin):
    # Pow-7 takes the float types only; Pow-12 adds int32 and int64 (the twin's opset).
    nodes = [cast("x", "xi", I64, "to_int"), helper.make_node("Pow", ["xi", "e"], ["y"], name="pow")]
    return model("pow_i64_op11", nodes, [vi("x", F32, ["N", 4])], [vi("y", I64, ["N", 4])],
                 [const("e", np.array(2, np.int64))], opset=12 if twin else 11, twin=twin)


def argmax_bool(twin):
    # ArgMax takes numeric types: a bool mask is refused (the twin casts it to float first).
    return on_mask("argmax_bool", twin, "ArgMax", "argmax", lambda t: I64, F32, axis=1, keepdims=0)


def split_i32_split(twin):
    # Split-13's split input is tensor(int64) only.
    nodes = [helper.make_node("Split", ["x", "split"], ["a", "b"], name="split", axis=1)]
    return model("split_i32_split", nodes, [vi("x", F32, ["N", 6])], [vi("a", F32, ["N", 2]), vi("b", F32, ["N", 4])],
                 [const("split", np.array([2, 4], np.int64 if twin else np.int32))], opset=13, twin=twin)


def reducemax_bool_op13(twin):
    # ReduceMax-13 takes numeric types (bool from opset 20): the twin casts the mask to float first.
    return on_mask("reducemax_bool_op13", twin, "ReduceMax", "reducemax", lambda t: F32 if t else BOOL, F32,
                   axes=[1], keepdims=0)


def mul_i8(twin):
    # Mul-14's schema allows int8; onnxruntime's CPU kernels are float, double, int32 and int64.
    et, dt = (I32, np.int32) if twin else (I8, np.int8)
    nodes = [cast("x", "xi", et, "cast_in"), helper.make_node("Mul", ["xi", "k"], ["y"], name="mul")]
    return model("mul_i8", nodes, [vi("x", F32, ["N", 4])], [vi("y", et, ["N", 4])],
                 [const("k", np.array([2], dt))], opset=14, twin=twin)


def where_mixed_xy(twin):
    # Where's X and Y share one type: an int64 X with a float Y is refused.
    nodes = [helper.make_node("Greater", ["x", "zero"], ["m"], name="greater"),
             helper.make_node("Where", ["m", "ones", "x"], ["y"], name="where")]
    return model("where_mixed_xy", nodes, [vi("x", F32, ["N", 4])], [vi("y", F32, ["N", 4])],
                 [const("zero", np.zeros(4, np.float32)), const("ones", np.ones(4, np.float32 if twin else np.int64))],
                 opset=13, twin=twin)


def gap_i64(twin):
    # GlobalAveragePool takes the float types only.
    et = F32 if twin else I64
    nodes = [cast("x", "xi", et, "cast_in"), helper.make_node("GlobalAveragePool", ["xi"], ["y"], name="gap")]
    return model("gap_i64", nodes, [vi("x", F32, ["N", 4, 3, 3])], [vi("y", et, ["N", 4, 1, 1])], opset=13, twin=twin)


TRIAL5 = {
    "exp_i64": (exp_i64, "exp"),
    "not_f32": (not_f32, "not"),
    "and_i32": (and_i32, "and"),
    "concat_mixed": (concat_mixed, "concat"),
    "pow_i64_op11": (pow_i64_op11, "pow"),
    "argmax_bool": (argmax_bool, "argmax"),
    "split_i32_split": (split_i32_split, "split"),
    "reducemax_bool_op13": (reducemax_bool_op13, "reducemax"),
    "mul_i8": (mul_i8, "mul"),
    "where_mixed_xy": (where_mixed_xy, "where"),
    "gap_i64": (gap_i64, "gap"),
}


def float_sqrt(model):
    """The twin of an export that takes the Sqrt of an int64 tensor (torchvision's RAFT under torch 1.13:
    Cast(to int64) -> Sqrt -> Cast): the Cast before each such Sqrt casts to float instead."""
    prod = {o: n for n in model.graph.node for o in n.output}
    for n in model.graph.node:
        src = prod.get(n.input[0]) if n.op_type == "Sqrt" else None
        if src is not None and src.op_type == "Cast":
            for a in src.attribute:
                if a.name == "to" and a.i == I64:
                    a.i = F32
    return model


# twin name -> the export (gen_torch.py) it is made from, and how
EXPORT_TWINS = {"raft_small_cast": ("raft_small", float_sqrt), "raft_large_cast": ("raft_large", float_sqrt),
                "raft_large_u1_cast": ("raft_large_u1", float_sqrt)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="/work/heldout/models")
    ap.add_argument("--set", choices=("dev", "trial4", "trial5"), default="dev",
                    help="dev and test's pairs (TYPES), or trial4's (TRIAL4) or trial5's (TRIAL5)")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name, (build, node) in {"trial4": TRIAL4, "trial5": TRIAL5}.get(a.set, TYPES).items():
        if a.names and name not in a.names:
            continue
        for twin in (False, True):
            path = os.path.join(a.out, f"{name}{'_twin' if twin else ''}.onnx")
            onnx.save(build(twin), path)
            print(path)
    for name, (src, fix) in EXPORT_TWINS.items():
        if (a.names and name not in a.names) or not os.path.exists(os.path.join(a.out, src + ".onnx")):
            continue
        path = os.path.join(a.out, name + ".onnx")
        onnx.save(fix(onnx.load(os.path.join(a.out, src + ".onnx"))), path)
        print(path)


if __name__ == "__main__":
    main()
