#!/usr/bin/python3
"""Writes the type-error fixtures of graph's tests: small ONNX models (onnx.helper) of one node whose
input types onnxruntime refuses at load, each with a twin that loads, and what onnxruntime 1.20.1 says
of each.

    /usr/bin/python3 bench/types/fixtures.py [--node-path /work/ort/node_modules]

writes graph/testdata/types/NAME.onnx and graph/testdata/types/truth.tsv (one model a line: its name,
onnxruntime's outcome as probe.js gives it, the node a tool must flag and the code it must give, "-"
for a model that loads), and testdata/models/type_error.onnx, the README's example. The models are
the dev set's pairs of bench/heldout/gen_types.py (its builders), and these beside them: a type error
in a Loop body and in the branch of an If that a constant condition leaves out (onnxruntime refuses
both at load), two inputs of a variadic list of two types, types onnxruntime has no kernel for at
opsets 11 to 19, outputs of a type an attribute sets (Cast to int4 at opsets 19 and 21,
ConstantOfShape of int4 and float8, RandomNormalLike of float16, Multinomial of float), a tensor inserted into a sequence of another element type (in
the main graph, and into a sequence a Loop carries), a Loop-carried value whose body changes its element
type (a sequence, a tensor) or declares another, the FNUZ float8 types (a Cast to one at opsets 13 and
19, a Reshape-19 of one, a quantization with an FNUZ zero point at opsets 13 and 19), and models that load and guard against false alarms (GridSample-16's X and grid of
two types, which onnx 1.12's schema binds wrong; an Erf of float16, which onnxruntime runs with casts
around its float kernel; a Clip-13 of bfloat16, which onnxruntime's schema refuses for min only), and
declarations of an element type other than the one a node gives (a graph output, a value_info in an If
branch), which onnxruntime's type inference refuses at load, unless the graph's outputs declare the
tensor again; and combinations of types onnxruntime has no kernel for, though it has kernels for each
type (MatMulInteger of i8 and u8, OneHot of f32 indices and values); an operator onnxruntime has no
kernel for at all (ai.onnx.ml 5's TreeEnsemble) and a float16 node it cannot run through casts to a
float kernel, having none (Relu-1).
Deterministic: running it again gives byte-identical files.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "heldout"))
import gen_types  # noqa: E402  (bench/heldout/gen_types.py)

# The pairs of the dev set (bench/heldout/sets.py), built by gen_types.py.
DEV = ["sqrt_i64", "matmul_i8", "shape_sigmoid", "conv_i64", "where_float_cond", "reshape_float_shape",
       "resize_i64", "relu_i64_op13", "neg_i16", "layernorm_i32"]


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def model(name, nodes, inputs, outputs, inits=(), opset=14):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="fixtures.py")
    m.ir_version = 8
    return m


def unary(name, op, et, opset, out=None, **attrs):
    """x [N,4] f32 cast to et, then op: a model of one node of input type et."""
    nodes = [helper.make_node("Cast", ["x"], ["xc"], name="cast", to=et),
             helper.make_node(op, ["xc"], ["y"], name="op", **attrs)]
    return model(name, nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", out or et, ["N", 4])], opset=opset)


def loop_erf(twin):
    # An Erf of int32 in a Loop body: Erf-13 allows it, onnxruntime has float kernels only.
    et = T.FLOAT if twin else T.INT32
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="keep"),
         helper.make_node("Cast", ["v_in"], ["vc"], name="to_et", to=et),
         helper.make_node("Erf", ["vc"], ["ve"], name="erf"),
         helper.make_node("Cast", ["ve"], ["v_out"], name="back", to=T.FLOAT)],
        "body", [vi("i", T.INT64, []), vi("cond_in", T.BOOL, []), vi("v_in", T.FLOAT, ["N", 4])],
        [vi("cond_out", T.BOOL, []), vi("v_out", T.FLOAT, ["N", 4])])
    nodes = [helper.make_node("Loop", ["trips", "", "x"], ["y"], name="loop", body=body)]
    return model("loop_erf", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", T.FLOAT, ["N", 4])],
                 [numpy_helper.from_array(np.array(2, np.int64), "trips")])


def if_not_taken(twin):
    # A Sigmoid of int64 in the else branch of an If whose condition is the constant true.
    def branch(kind):
        if kind == "then":
            return helper.make_graph([helper.make_node("Identity", ["x"], ["ty"], name="t_id")], "then", [],
                                     [vi("ty", T.FLOAT, ["N", 4])])
        ns = [helper.make_node("Shape", ["x"], ["es"], name="e_shape"),
              helper.make_node("Gather", ["es", "one"], ["ec"], name="e_channels", axis=0)]
        if twin:
            ns += [helper.make_node("Cast", ["ec"], ["ecf"], name="e_float", to=T.FLOAT),
                   helper.make_node("Sigmoid", ["ecf"], ["eg"], name="e_sigmoid")]
        else:
            ns += [helper.make_node("Sigmoid", ["ec"], ["egi"], name="e_sigmoid"),
                   helper.make_node("Cast", ["egi"], ["eg"], name="e_float", to=T.FLOAT)]
        ns.append(helper.make_node("Mul", ["x", "eg"], ["ey"], name="e_mul"))
        return helper.make_graph(ns, "else", [], [vi("ey", T.FLOAT, ["N", 4])])

    nodes = [helper.make_node("If", ["yes"], ["y"], name="branch", then_branch=branch("then"),
                              else_branch=branch("else"))]
    return model("if_not_taken", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", T.FLOAT, ["N", 4])],
                 [numpy_helper.from_array(np.array(True), "yes"), numpy_helper.from_array(np.array(1, np.int64), "one")])


def concat_mixed(twin):
    # Concat's inputs are one variadic list of one type: f32 beside f16.
    nodes = [helper.make_node("Cast", ["x"], ["xh"], name="half", to=T.FLOAT if twin else T.FLOAT16),
             helper.make_node("Concat", ["x", "xh"], ["y"], name="concat", axis=1)]
    return model("concat_mixed", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", T.FLOAT, ["N", 8])], opset=13)


def clip_bf16(twin):
    # Clip-13 of bfloat16 input: onnxruntime loads it (and refuses a min of bfloat16). Loads.
    return unary("clip_bf16", "Clip", T.FLOAT if twin else T.BFLOAT16, 13)


def bitshift_u16(twin):
    # BitShift-11 allows uint16; onnxruntime has kernels for uint8, uint32 and uint64.
    et = T.UINT32 if twin else T.UINT16
    nodes = [helper.make_node("Cast", ["x"], ["xi"], name="cast", to=et),
             helper.make_node("BitShift", ["xi", "xi"], ["y"], name="shift", direction="LEFT")]
    return model("bitshift_u16", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", et, ["N", 4])], opset=11)


def pow_u32(twin):
    # Pow-15's exponent may be uint32; onnxruntime has no kernel for it.
    et = T.INT32 if twin else T.UINT32
    nodes = [helper.make_node("Cast", ["x"], ["e"], name="cast", to=et),
             helper.make_node("Pow", ["x", "e"], ["y"], name="pow")]
    return model("pow_u32", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", T.FLOAT, ["N", 4])], opset=15)


def deform_conv(twin):
    # DeformConv-19 is in onnxruntime's schemas, without a CPU kernel; the twin is a Conv.
    w = numpy_helper.from_array(np.ones((2, 3, 3, 3), np.float32), "w")
    if twin:
        nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="conv", pads=[1, 1, 1, 1])]
        inputs = [vi("x", T.FLOAT, ["N", 3, 8, 8])]
    else:
        nodes = [helper.make_node("DeformConv", ["x", "w", "offset"], ["y"], name="conv", pads=[1, 1, 1, 1])]
        inputs = [vi("x", T.FLOAT, ["N", 3, 8, 8]), vi("offset", T.FLOAT, ["N", 18, 8, 8])]
    return model("deform_conv", nodes, inputs, [vi("y", T.FLOAT, ["N", 2, 8, 8])], [w], opset=19)


def grid_sample_mixed(twin):
    # GridSample-16 of f16 data on an f32 grid: onnx 1.12 binds both to T1, onnx 1.13 and onnxruntime
    # take them of two types. Both models load.
    et = T.FLOAT16 if twin else T.FLOAT
    nodes = [helper.make_node("Cast", ["x"], ["xc"], name="cast", to=et),
             helper.make_node("GridSample", ["xc", "grid"], ["y"], name="sample")]
    return model("grid_sample_mixed", nodes, [vi("x", T.FLOAT, ["N", 1, 4, 4]), vi("grid", T.FLOAT, ["N", 4, 4, 2])],
                 [vi("y", et, ["N", 1, 4, 4])], opset=16)


def erf_f16(twin):
    # Erf-13 of float16: onnxruntime has a float kernel only, and runs it with casts around. Loads.
    return unary("erf_f16", "Erf", T.FLOAT if twin else T.FLOAT16, 13)


def output_declared(twin):
    # A graph output declared i64 that a Relu of f32 makes: onnxruntime's type inference refuses the
    # declaration at load ("Type (tensor(int64)) of output arg (y) of node (relu) does not match").
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu")]
    return model("output_declared", nodes, [vi("x", T.FLOAT, ["N", 4])],
                 [vi("y", T.FLOAT if twin else T.INT64, ["N", 4])], opset=14)


def value_info_declared(twin):
    # A value_info in an If branch that declares a Shape's output i32 (Shape gives i64).
    return declared_in_branch("value_info_declared", T.INT64 if twin else T.INT32, "thens0")


def output_over_value_info(twin):
    # A branch output that a value_info declares i32 and the branch's outputs i64: onnxruntime takes
    # the output's declaration, and loads it.
    return declared_in_branch("output_over_value_info", T.INT64 if twin else T.INT32, "thens")


def declared_in_branch(name, et, declared):
    # If(flag) of two branches whose Shape of x goes through an Identity to the branch's output (i64);
    # the then branch has a value_info of et for the tensor declared.
    def branch(kind):
        ns = [helper.make_node("Shape", ["x"], [kind + "s0"], name=kind + "_shape"),
              helper.make_node("Identity", [kind + "s0"], [kind + "s"], name=kind + "_id")]
        g = helper.make_graph(ns, kind, [], [vi(kind + "s", T.INT64, [2])])
        if kind == "then":
            g.value_info.append(vi(declared, et, [2]))
        return g

    nodes = [helper.make_node("If", ["flag"], ["y"], name="branch", then_branch=branch("then"),
                              else_branch=branch("else"))]
    return model(name, nodes, [vi("x", T.FLOAT, ["N", 4]), vi("flag", T.BOOL, [])], [vi("y", T.INT64, [2])], opset=14)


def matmul_integer_i8u8(twin):
    # MatMulInteger-10 allows i8 and u8 for A and B; onnxruntime's kernels take u8 x u8, u8 x i8 and
    # i8 x i8, not i8 x u8 (the twin: u8 x i8).
    a, b = (T.UINT8, T.INT8) if twin else (T.INT8, T.UINT8)
    nodes = [helper.make_node("Cast", ["x"], ["a"], name="cast_a", to=a),
             helper.make_node("Cast", ["w"], ["b"], name="cast_b", to=b),
             helper.make_node("MatMulInteger", ["a", "b"], ["y"], name="matmul")]
    return model("matmul_integer_i8u8", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", T.INT32, ["N", 3])],
                 [numpy_helper.from_array(np.ones((4, 3), np.float32), "w")], opset=13)


def onehot_f32_indices(twin):
    # OneHot-11 of f32 indices, an i64 depth and f32 values: onnxruntime registers its kernels for
    # some combinations of the three types only (the twin's indices are i64).
    nodes = [helper.make_node("Cast", ["x"], ["i"], name="cast", to=T.INT64 if twin else T.FLOAT),
             helper.make_node("OneHot", ["i", "depth", "values"], ["y"], name="onehot")]
    return model("onehot_f32_indices", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", T.FLOAT, ["N", 4, 3])],
                 [numpy_helper.from_array(np.array(3, np.int64), "depth"),
                  numpy_helper.from_array(np.array([0, 1], np.float32), "values")], opset=11)


# The element types after onnx 1.12 (TensorProto's numbers, which onnx 1.12 does not name).
FLOAT8E4M3FN, FLOAT8E5M2, UINT4, INT4 = 17, 19, 21, 22


def cast_to(name, et, opset):
    """x [N,4] f32 cast to et at opset (IR 10, which the types after onnx 1.12 need)."""
    nodes = [helper.make_node("Cast", ["x"], ["y"], name="cast", to=et)]
    m = model(name, nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", et, ["N", 4])], opset=opset)
    m.ir_version = 10
    return m


def cast_i4(twin):
    # Cast-21 allows int4; onnxruntime 1.20.1 has no CPU kernel that casts to it (the twin: float8).
    return cast_to("cast_i4", FLOAT8E4M3FN if twin else INT4, 21)


def cast_i4_op19(twin):
    # Cast-19 does not allow int4 (Cast-21 does); onnxruntime refuses it for want of a kernel.
    return cast_to("cast_i4_op19", FLOAT8E5M2 if twin else INT4, 19)


def constant_of_shape(name, et, opset):
    """ConstantOfShape of x's shape, its value a one-element tensor of et (IR 10)."""
    v = T(data_type=et, dims=[1], raw_data=bytes(2 if et == T.BFLOAT16 else 8 if et == T.INT64 else 1))
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape"),
             helper.make_node("ConstantOfShape", ["s"], ["y"], name="fill", value=v)]
    m = model(name, nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", et, ["N", 4])], opset=opset)
    m.ir_version = 10
    return m


def constant_of_shape_i4(twin):
    # ConstantOfShape-21 allows int4; onnxruntime has no kernel for it (the twin: int64).
    return constant_of_shape("constant_of_shape_i4", T.INT64 if twin else INT4, 21)


def constant_of_shape_f8(twin):
    # ConstantOfShape-20 allows float8; onnxruntime's kernel refuses it when the session is made (the
    # twin: bfloat16, which ConstantOfShape-20 allows too).
    return constant_of_shape("constant_of_shape_f8", T.BFLOAT16 if twin else FLOAT8E5M2, 20)


def random_like(name, op, dtype, opset=14):
    """op (RandomNormalLike, Multinomial) of x [N,4] f32, its output of the type dtype names."""
    nodes = [helper.make_node(op, ["x"], ["y"], name="random", dtype=dtype)]
    shape = ["N", 1] if op == "Multinomial" else ["N", 4]
    return model(name, nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", dtype, shape)], opset=opset)


def random_normal_like_f16(twin):
    # RandomNormalLike allows a float16 output; onnxruntime has kernels for float and double only.
    return random_like("random_normal_like_f16", "RandomNormalLike", T.DOUBLE if twin else T.FLOAT16)


def multinomial_f32(twin):
    # Multinomial's output is int32 or int64: dtype float is a type error (the twin: int64).
    return random_like("multinomial_f32", "Multinomial", T.INT64 if twin else T.FLOAT)


def relu_f16_op5(twin):
    # Relu-1 of float16: onnxruntime has no kernel for Relu-1 (float or float16), so its casts around
    # a float kernel fail; the twin is Relu-6, which it runs through casts to its float kernel.
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu")]
    return model("relu_f16_op5", nodes, [vi("x", T.FLOAT16, ["N", 4])], [vi("y", T.FLOAT16, ["N", 4])],
                 opset=6 if twin else 5)


def tree_ensemble5(twin):
    # ai.onnx.ml 5's TreeEnsemble, which onnxruntime 1.20.1 has no kernel for; the twin is the same
    # tree as ai.onnx.ml 3's TreeEnsembleRegressor (a split on feature 0 at 0.5, leaves 1 and 2).
    if twin:
        node = helper.make_node(
            "TreeEnsembleRegressor", ["x"], ["y"], name="trees", domain="ai.onnx.ml", n_targets=1,
            nodes_treeids=[0, 0, 0], nodes_nodeids=[0, 1, 2], nodes_featureids=[0, 0, 0], nodes_values=[0.5, 0, 0],
            nodes_modes=["BRANCH_LEQ", "LEAF", "LEAF"], nodes_truenodeids=[1, 0, 0], nodes_falsenodeids=[2, 0, 0],
            target_treeids=[0, 0], target_nodeids=[1, 2], target_ids=[0, 0], target_weights=[1.0, 2.0])
    else:
        node = helper.make_node(
            "TreeEnsemble", ["x"], ["y"], name="trees", domain="ai.onnx.ml", n_targets=1, tree_roots=[0],
            nodes_featureids=[0], nodes_splits=numpy_helper.from_array(np.array([0.5], np.float32)),
            nodes_modes=numpy_helper.from_array(np.zeros(1, np.uint8)), nodes_truenodeids=[0], nodes_trueleafs=[1],
            nodes_falsenodeids=[1], nodes_falseleafs=[1], leaf_targetids=[0, 0],
            leaf_weights=numpy_helper.from_array(np.array([1, 2], np.float32)))
    m = model("tree_ensemble5", [node], [vi("x", T.FLOAT, ["N", 4])], [vi("y", T.FLOAT, ["N", 1])], opset=21)
    m.opset_import.append(helper.make_opsetid("ai.onnx.ml", 3 if twin else 5))
    m.ir_version = 10
    return m


def seq_insert(twin):
    # SequenceInsert of an f32 tensor into a sequence of i64 (the twin inserts i64).
    nodes = [helper.make_node("Cast", ["x"], ["xi"], name="to_i64", to=T.INT64),
             helper.make_node("SequenceConstruct", ["xi"], ["s"], name="construct"),
             helper.make_node("Cast", ["x"], ["xe"], name="to_et", to=T.INT64 if twin else T.FLOAT),
             helper.make_node("SequenceInsert", ["s", "xe"], ["s2"], name="insert"),
             helper.make_node("ConcatFromSequence", ["s2"], ["y"], name="concat", axis=0)]
    return model("seq_insert", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", T.INT64, [None, 4])], opset=13)


def loop_seq_insert(twin):
    # A Loop that carries a sequence of i64 (SequenceEmpty's dtype) and inserts an f32 tensor into it
    # in its body (the twin inserts i64): the carried sequence keeps its element type into the body.
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="keep"),
         helper.make_node("Cast", ["x"], ["xe"], name="to_et", to=T.INT64 if twin else T.FLOAT),
         helper.make_node("SequenceInsert", ["s_in", "xe"], ["s_out"], name="insert")],
        "body", [vi("i", T.INT64, []), vi("cond_in", T.BOOL, []),
                 helper.make_tensor_sequence_value_info("s_in", T.INT64, None)],
        [vi("cond_out", T.BOOL, []), helper.make_tensor_sequence_value_info("s_out", T.INT64, None)])
    nodes = [helper.make_node("SequenceEmpty", [], ["s0"], name="empty", dtype=T.INT64),
             helper.make_node("Loop", ["trips", "", "s0"], ["s"], name="loop", body=body),
             helper.make_node("ConcatFromSequence", ["s"], ["y"], name="concat", axis=0)]
    return model("loop_seq_insert", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", T.INT64, [None, 4])],
                 [numpy_helper.from_array(np.array(2, np.int64), "trips")], opset=13)


def loop_retype(carried, body_nodes, declared=None):
    """A Loop of 2 iterations carrying carried (a node output or x) through body_nodes, which read s_in
    and give s_out; the body declares s_in as declared (None: no type)."""
    s_in = declared if declared is not None else onnx.ValueInfoProto(name="s_in")
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="keep")] + body_nodes,
        "body", [vi("i", T.INT64, []), vi("cond_in", T.BOOL, []), s_in],
        [vi("cond_out", T.BOOL, []), onnx.ValueInfoProto(name="s_out")])
    return [helper.make_node("Loop", ["trips", "", carried], ["s"], name="loop", body=body)]


def loop_seq_retype(twin):
    # A Loop that carries a sequence of f32 (SequenceEmpty's default) and whose body replaces it by a
    # sequence of i64 (a list rebuilt from a Cast); the twin rebuilds it of f32. onnxruntime refuses
    # the loop-carried value that changes its element type at load.
    nodes = [helper.make_node("SequenceEmpty", [], ["s0"], name="empty")] + loop_retype("s0", [
        helper.make_node("Cast", ["x"], ["xe"], name="to_et", to=T.FLOAT if twin else T.INT64),
        helper.make_node("SequenceConstruct", ["xe"], ["s_out"], name="construct")]) + [
        helper.make_node("SequenceLength", ["s"], ["y"], name="length")]
    return model("loop_seq_retype", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", T.INT64, [])],
                 [numpy_helper.from_array(np.array(2, np.int64), "trips")], opset=13)


def loop_tensor_retype(twin):
    # A Loop that carries x (f32) and whose body casts it to i64 (the twin to f32).
    nodes = loop_retype("x", [
        helper.make_node("Cast", ["s_in"], ["s_out"], name="to_et", to=T.FLOAT if twin else T.INT64)])
    return model("loop_tensor_retype", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("s", T.FLOAT if twin else T.INT64, None)],
                 [numpy_helper.from_array(np.array(2, np.int64), "trips")], opset=13)


def loop_declared_retype(twin):
    # A Loop that carries x cast to i64 into a body that declares its input f32 (the twin: i64).
    nodes = [helper.make_node("Cast", ["x"], ["xi"], name="to_i64", to=T.INT64)] + loop_retype(
        "xi", [helper.make_node("Identity", ["s_in"], ["s_out"], name="pass")],
        vi("s_in", T.INT64 if twin else T.FLOAT, None))
    return model("loop_declared_retype", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("s", T.INT64, None)],
                 [numpy_helper.from_array(np.array(2, np.int64), "trips")], opset=13)


FLOAT8E4M3FNUZ, FLOAT8E5M2FNUZ = 18, 20


def cast_f8fnuz(twin):
    # x cast to float8e4m3fnuz and back: Cast-13 takes no FNUZ type (onnxruntime refuses the Cast that
    # reads it), Cast-19 (the twin) does.
    nodes = [helper.make_node("Cast", ["x"], ["c"], name="to_f8", to=FLOAT8E4M3FNUZ),
             helper.make_node("Cast", ["c"], ["y"], name="back", to=T.FLOAT)]
    return model("cast_f8fnuz", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", T.FLOAT, ["N", 4])], opset=19 if twin else 13)


def reshape_f8fnuz(twin):
    # Reshape-19 allows float8e5m2fnuz; onnxruntime 1.20.1 has no CPU kernel for it (nor for any
    # float8): the twin reshapes before the Cast.
    shape = numpy_helper.from_array(np.array([-1], np.int64), "shape")
    if twin:
        nodes = [helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
                 helper.make_node("Cast", ["r"], ["c"], name="to_f8", to=FLOAT8E5M2FNUZ),
                 helper.make_node("Cast", ["c"], ["y"], name="back", to=T.FLOAT)]
    else:
        nodes = [helper.make_node("Cast", ["x"], ["c"], name="to_f8", to=FLOAT8E5M2FNUZ),
                 helper.make_node("Reshape", ["c", "shape"], ["r"], name="reshape"),
                 helper.make_node("Cast", ["r"], ["y"], name="back", to=T.FLOAT)]
    return model("reshape_f8fnuz", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", T.FLOAT, [None])], [shape], opset=19)


def quantize_f8fnuz(twin):
    # QuantizeLinear with a float8e4m3fnuz zero point: opset 19 allows it (the twin), opset 13 does
    # not.
    zp = T(name="zp", data_type=FLOAT8E4M3FNUZ, dims=[], raw_data=b"\x00")
    scale = numpy_helper.from_array(np.array(1, np.float32), "scale")
    nodes = [helper.make_node("QuantizeLinear", ["x", "scale", "zp"], ["y"], name="quantize")]
    return model("quantize_f8fnuz", nodes, [vi("x", T.FLOAT, ["N", 4])], [vi("y", FLOAT8E4M3FNUZ, ["N", 4])], [scale, zp],
                 opset=19 if twin else 13)


# name -> (builder, the node a tool must flag, its code; "-" for a model that loads, twin or not)
EXTRA = {
    "loop_erf": (loop_erf, "loop/body/erf", "no-kernel"),
    "if_not_taken": (if_not_taken, "branch/else_branch/e_sigmoid", "data-type"),
    "concat_mixed": (concat_mixed, "concat", "data-type"),
    "clip_bf16": (clip_bf16, "-", "-"),
    "bitshift_u16": (bitshift_u16, "shift", "no-kernel"),
    "pow_u32": (pow_u32, "pow", "no-kernel"),
    "deform_conv": (deform_conv, "conv", "no-kernel"),
    "grid_sample_mixed": (grid_sample_mixed, "-", "-"),
    "erf_f16": (erf_f16, "-", "-"),
    "output_declared": (output_declared, "relu", "data-type"),
    "value_info_declared": (value_info_declared, "branch/then_branch/then_shape", "data-type"),
    "output_over_value_info": (output_over_value_info, "-", "-"),
    "matmul_integer_i8u8": (matmul_integer_i8u8, "matmul", "no-kernel"),
    "onehot_f32_indices": (onehot_f32_indices, "onehot", "no-kernel"),
    "cast_i4": (cast_i4, "cast", "no-kernel"),
    "cast_i4_op19": (cast_i4_op19, "cast", "data-type"),
    "constant_of_shape_i4": (constant_of_shape_i4, "fill", "no-kernel"),
    "constant_of_shape_f8": (constant_of_shape_f8, "fill", "no-kernel"),
    "random_normal_like_f16": (random_normal_like_f16, "random", "no-kernel"),
    "multinomial_f32": (multinomial_f32, "random", "data-type"),
    "relu_f16_op5": (relu_f16_op5, "relu", "no-kernel"),
    "tree_ensemble5": (tree_ensemble5, "trees", "no-kernel"),
    "seq_insert": (seq_insert, "insert", "data-type"),
    "loop_seq_insert": (loop_seq_insert, "loop/body/insert", "data-type"),
    "loop_seq_retype": (loop_seq_retype, "loop", "data-type"),
    "loop_tensor_retype": (loop_tensor_retype, "loop", "data-type"),
    "loop_declared_retype": (loop_declared_retype, "loop", "data-type"),
    "cast_f8fnuz": (cast_f8fnuz, "back", "data-type"),
    "reshape_f8fnuz": (reshape_f8fnuz, "reshape", "no-kernel"),
    "quantize_f8fnuz": (quantize_f8fnuz, "quantize", "data-type"),
}
# The dev pairs' codes: the schema refuses them (data-type), or onnxruntime has no kernel (no-kernel).
DEV_CODES = {"resize_i64": "no-kernel", "neg_i16": "no-kernel"}


def fixtures():
    """(name, model, node, code) of every fixture, a twin's node and code "-"."""
    out = []
    for name in DEV:
        build, node = gen_types.TYPES[name]
        out.append((name, build(False), node, DEV_CODES.get(name, "data-type")))
        out.append((name + "_twin", build(True), "-", "-"))
    for name, (build, node, code) in EXTRA.items():
        out.append((name, build(False), node, code))
        out.append((name + "_twin", build(True), "-", "-"))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--node-path", default="/work/ort/node_modules")
    a = ap.parse_args()
    out = os.path.join(ROOT, "graph", "testdata", "types")
    os.makedirs(out, exist_ok=True)
    rows = fixtures()
    for name, m, _, _ in rows:
        onnx.save(m, os.path.join(out, name + ".onnx"))
    onnx.save(gen_types.TYPES["sqrt_i64"][0](False), os.path.join(ROOT, "testdata", "models", "type_error.onnx"))
    with tempfile.TemporaryDirectory() as tmp:
        plan = os.path.join(tmp, "plan.json")
        with open(plan, "w") as f:
            json.dump([{"id": i, "model": os.path.join(out, r[0] + ".onnx")} for i, r in enumerate(rows)], f)
        env = dict(os.environ, NODE_PATH=a.node_path)
        res = subprocess.run(["node", os.path.join(HERE, "probe.js"), plan], env=env, check=True,
                             capture_output=True, text=True).stdout.splitlines()
    with open(os.path.join(out, "truth.tsv"), "w") as f:
        f.write("# bench/types/fixtures.py: model, onnxruntime 1.20.1's outcome (probe.js), node to flag, code\n")
        for line, (name, _, node, code) in zip(res, rows):
            outcome = line.split("\t")[1]
            f.write(f"{name}\t{outcome}\t{node}\t{code}\n")


if __name__ == "__main__":
    main()
