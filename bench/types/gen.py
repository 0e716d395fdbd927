#!/usr/bin/python3
"""Writes graph/types_onnx.go: the element types each ONNX operator accepts, by domain, operator and
since-version, and those onnxruntime 1.20.1 has CPU kernels for.

    /usr/bin/python3 bench/types/gen.py --work DIR | gofmt > graph/types_onnx.go

The type constraints of opsets 1 to 17 (ai.onnx), 1 to 3 (ai.onnx.ml) and the training domain are
those of onnx 1.12's schemas (onnx.defs.get_all_schemas_with_history(): per input its type parameter,
the types the parameter allows, whether a variadic input is homogeneous). The rest comes from
onnxruntime-node 1.20.1, whose ONNX schemas go to opset 21 (ai.onnx.ml 5): gen.py writes one-node
models to DIR, probe.js loads them (graph optimizations off) and reads onnxruntime's refusal. It takes
about two minutes.

  - Per operator and version, per type parameter of an input, per element type: the schema refuses
    it ("Type Error: Type 'tensor(int64)' of input parameter ..."), onnxruntime has no CPU kernel for
    it ("Could not find an implementation for Sqrt(13) node"), or it loads (a float16 node of a float
    kernel loads too: onnxruntime casts around it).
  - A type refused for want of a kernel is tried again with the other parameters' types (up to
    COMBOS combinations): it has no kernel only when none of them loads, since a kernel may be
    registered for some combination only.
  - Where two parameters of required inputs take several types with kernels, every combination of
    them is tried (up to PRODUCTS): onnxruntime may register kernels for some combinations only
    (MatMulInteger of u8 and i8, not of i8 and u8); the combinations that load are the signature's
    kernels, where some do not.
  - A parameter of two inputs (Add's T) is tried with two types: onnxruntime's schema must refuse
    them as bound to one type, else each input gets a parameter of its own.
  - A version of opset 18 to 21 is one where the outcomes change from the opset before; its inputs
    are the previous version's, or NEW's for an operator or input added after onnx 1.12 (and for
    GridSample-16, whose onnx 1.12 schema binds its inputs wrong). NEW's TreeEnsemble of ai.onnx.ml
    5 is probed at that opset alone (NEW_ATTRS: its required attributes); TreeEnsembleClassifier and
    TreeEnsembleRegressor, deprecated at 5 (DEPRECATED_LATER), end at 4.
  - A float16 refused for another reason than a kernel or a type, where float has no kernel, has no
    kernel: onnxruntime runs a float16 node without a float16 kernel through casts to float, and
    the node it rewrote is what fails (Relu-1, Add-1).

  - A parameter of outputs only whose type an attribute sets (OUT_ATTRS: Cast's to, ConstantOfShape's
    value, the dtype of EyeLike, RandomNormalLike, RandomUniformLike, Bernoulli and Multinomial) is probed per type through that attribute. onnxruntime does not check such
    an output's type against the schema: a type it loads is allowed whatever the schema says, and one
    it refuses (no kernel, or its kernel's constructor refuses the type) is one it has no kernel for,
    of the types the schema allows (onnx 1.12's, or NEW's list of the parameter).

Any other refusal (an attribute the probe lacks, a kernel's constructor) says nothing of the types:
the type counts as accepted, so that the table never refuses what onnxruntime loads. Operators with a
graph attribute (If, Loop, Scan, SequenceMap) are not probed. Where onnx 1.12 and onnxruntime's
schemas disagree, and what is left unchecked, go to stderr.
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
from collections import defaultdict

from onnx import TensorProto, defs, helper

HERE = os.path.dirname(os.path.abspath(__file__))

# The element types checked: ONNX's type string, TensorProto's number, the element.Type constant.
# The complex types have no element type in package element: never checked.
TYPES = [
    ("float", 1, "F32"), ("uint8", 2, "U8"), ("int8", 3, "I8"), ("uint16", 4, "U16"), ("int16", 5, "I16"),
    ("int32", 6, "I32"), ("int64", 7, "I64"), ("string", 8, "String"), ("bool", 9, "Boolean"),
    ("float16", 10, "F16"), ("double", 11, "F64"), ("uint32", 12, "U32"), ("uint64", 13, "U64"),
    ("bfloat16", 16, "BF16"), ("float8e4m3fn", 17, "F8E4M3"), ("float8e4m3fnuz", 18, "F8E4M3FNUZ"),
    ("float8e5m2", 19, "F8E5M2"), ("float8e5m2fnuz", 20, "F8E5M2FNUZ"), ("uint4", 21, "U4"), ("int4", 22, "I4"),
]
PROTO = {name: num for name, num, _ in TYPES}
GO = {name: go for name, _, go in TYPES}
# The default type of a parameter the probe does not vary: the first of these it allows.
PREFER = ["float", "int64", "int32", "bool", "uint8", "string", "double", "float16", "int8"]
COMBOS = 64
PRODUCTS = 400  # the most combinations of types probed for one operator version
OPTION = {"single": "single", "optional": "optionalIn", "variadic": "variadicIn", "hetero": "heterogeneous"}
LAST = {"": 21, "ai.onnx.ml": 5}  # the last opset of each domain in onnxruntime 1.20.1
FIRST_LATER = {"": 18, "ai.onnx.ml": 4}  # the first opset after onnx 1.12's
# Operators deprecated after onnx 1.12, which its schemas do not know, by the version that drops them:
# ai.onnx.ml 5 replaces TreeEnsembleClassifier and TreeEnsembleRegressor by TreeEnsemble (ONNX-ML's
# spec). Without them, the onnx 1.12 schema of version 3 would stand at 5 too.
DEPRECATED_LATER = {("ai.onnx.ml", "TreeEnsembleClassifier"): 5, ("ai.onnx.ml", "TreeEnsembleRegressor"): 5}
MS = "com.microsoft"
GRAPH_OPS = {"If", "Loop", "Scan", "SequenceMap"}
# The versions of ai.onnx's operators after onnx 1.12, by opset (onnx's onnx/defs/operator_sets.h):
# the since-version a message names where onnxruntime's refusals do not ("Could not find an
# implementation for Relu(14)"). An opset where onnxruntime's outcomes change and no operator's
# version does is one where it expands a function with other operators (Relu-14 of int64 loads at
# opset 18, whose Max-13 has an int64 kernel, and not at 14 or 19): a signature of its own, named by
# the operator's version.
LATER_VERSIONS = {
    18: "Pad CenterCropPad Resize Mish OptionalGetElement OptionalHasElement Split Col2Im ScatterND "
        "ScatterElements ReduceSumSquare ReduceLogSum ReduceLogSumExp ReduceL1 ReduceL2 ReduceMax ReduceMin "
        "ReduceMean ReduceProd BitwiseAnd BitwiseOr BitwiseXor BitwiseNot GroupNormalization LpPool",
    19: "Equal AveragePool Cast CastLike Constant DeformConv DequantizeLinear Identity If Loop Pad "
        "QuantizeLinear Reshape Resize Scan Shape Size",
    20: "AffineGrid ConstantOfShape DFT Gelu GridSample ImageDecoder IsInf IsNaN ReduceMax ReduceMin "
        "RegexFullMatch StringConcat StringSplit",
    21: "Cast CastLike Constant ConstantOfShape DequantizeLinear Flatten GroupNormalization Identity If Loop "
        "Pad QLinearMatMul QuantizeLinear Reshape Scan Shape Size Squeeze Transpose Unsqueeze",
}
# com.microsoft's operators with a rule in package graph that onnxruntime has no CPU kernel for at all
# (onnxruntime/contrib_ops/cpu/cpu_contrib_kernels.cc registers none: they run on CUDA), with the
# inputs of their probe, which must be refused for want of a kernel at f32 and f16: a node of one is
# refused at load whatever its types. Their schemas are not read: any input type is allowed.
MS_NO_KERNEL = {"GroupNorm": 3, "BiasAdd": 3, "BiasSplitGelu": 2, "NhwcConv": 2}
# Versions after onnx 1.12 of the operators not probed: checked up to them.
UNPROBED_VERSIONS = {("", "If"): [19, 21], ("", "Loop"): [19, 21], ("", "Scan"): [19, 21]}

# The types of ConstantOfShape-9's output, and Cast-13's; the float8 types of the later versions.
NUMBERS = "float16,float,double,int8,int16,int32,int64,uint8,uint16,uint32,uint64,bool"
CAST_TYPES = NUMBERS + ",string,bfloat16"
FLOAT8 = "float8e4m3fn,float8e4m3fnuz,float8e5m2,float8e5m2fnuz"  # ONNX 1.14's (opset 19)

# Operators and inputs added after onnx 1.12, in a small notation: "inputs -> outputs | parameters":
# an input is NAME:PARAM, with ? for an optional one and * for a variadic one; a PARAM of a tensor
# type's name (int64) is that type; a parameter's types are listed for the probe's defaults only,
# "all" for any, except a parameter of outputs only that OUT_ATTRS probes: the types the schema
# allows. The since-versions are onnxruntime's (probed); the key's version is the first opset at which
# the structure holds. A version's required attributes are those of onnx 1.12's version before it.
NEW = {
    # onnx 1.12's GridSample-16 binds grid to X's T1 and Y to T2; onnx 1.13 and onnxruntime fixed it.
    ("", "GridSample", 16): "X:T1 grid:T2 -> Y:T1 | T1=all T2=float,float16,double",
    ("", "Pad", 18): "data:T pads:int64 constant_value:T? axes:Tind? -> output:T | T=all Tind=int32,int64",
    ("", "CenterCropPad", 18): "input_data:T shape:Tind -> output_data:T | T=all Tind=int32,int64",
    ("", "Mish", 18): "X:T -> Y:T | T=float,float16,double",
    ("", "Split", 18): "input:T split:int64? -> outputs:T* | T=all",
    ("", "Col2Im", 18): "input:T image_shape:int64 block_shape:int64 -> output:T | T=all",
    ("", "BitwiseAnd", 18): "A:T B:T -> C:T | T=int32,int64,uint8,int8,int16,uint16,uint32,uint64",
    ("", "BitwiseOr", 18): "A:T B:T -> C:T | T=int32,int64,uint8,int8,int16,uint16,uint32,uint64",
    ("", "BitwiseXor", 18): "A:T B:T -> C:T | T=int32,int64,uint8,int8,int16,uint16,uint32,uint64",
    ("", "BitwiseNot", 18): "X:T -> Y:T | T=int32,int64,uint8,int8,int16,uint16,uint32,uint64",
    ("", "GroupNormalization", 18): "X:T scale:T bias:T -> Y:T | T=float,float16,double,bfloat16",
    ("", "DeformConv", 19): "X:T W:T offset:T B:T? mask:T? -> Y:T | T=float,float16,double",
    ("", "CastLike", 19): "input:T1 target_type:T2 -> output:T2 | T1=all T2=all",
    ("", "DequantizeLinear", 19): "x:T1 x_scale:T2 x_zero_point:T1? -> y:T2 | T1=int8,uint8,int32 T2=float,float16",
    ("", "QuantizeLinear", 19): "x:T1 y_scale:T1 y_zero_point:T2? -> y:T2 | T1=float,float16 T2=int8,uint8",
    ("", "AffineGrid", 20): "theta:T1 size:T2 -> grid:T1 | T1=float,float16,double T2=int64",
    ("", "DFT", 20): "input:T1 dft_length:T2? axis:int64? -> output:T1 | T1=float,float16,double T2=int32,int64",
    ("", "Gelu", 20): "X:T -> Y:T | T=float,float16,double,bfloat16",
    ("", "GridSample", 20): "X:T1 grid:T2 -> Y:T1 | T1=all T2=float,float16,double",
    ("", "ImageDecoder", 20): "encoded_stream:T1 -> image:T2 | T1=uint8",
    ("", "RegexFullMatch", 20): "X:T1 -> Y:T2 | T1=string",
    ("", "StringConcat", 20): "X:T Y:T -> Z:T | T=string",
    ("", "StringSplit", 20): "X:T1 -> Y:T2 Z:T3 | T1=string",
    ("", "DequantizeLinear", 21): "x:T1 x_scale:T2 x_zero_point:T1? -> y:T2 | T1=int8,uint8,int32 T2=float,float16",
    ("", "QuantizeLinear", 21): "x:T1 y_scale:T1 y_zero_point:T2? -> y:T2 | T1=float,float16 T2=int8,uint8",
    ("", "Cast", 19): "input:T1 -> output:T2 | T1=all T2=" + CAST_TYPES + "," + FLOAT8,
    ("", "Cast", 21): "input:T1 -> output:T2 | T1=all T2=" + CAST_TYPES + "," + FLOAT8 + ",uint4,int4",
    ("", "ConstantOfShape", 20): "input:int64 -> output:T2 | T2=" + NUMBERS + ",bfloat16," + FLOAT8,
    ("", "ConstantOfShape", 21): "input:int64 -> output:T2 | T2=" + NUMBERS + ",bfloat16," + FLOAT8 + ","
                                 "uint4,int4",
    ("", "QLinearMatMul", 21): "a:T1 a_scale:TS a_zero_point:T1 b:T2 b_scale:TS b_zero_point:T2 y_scale:TS "
                               "y_zero_point:T3 -> y:T3 | T1=int8,uint8 T2=int8,uint8 T3=int8,uint8 TS=float",
    # ai.onnx.ml 5's TreeEnsemble (onnx 1.16), which onnx 1.12 does not hold.
    ("ai.onnx.ml", "TreeEnsemble", 5): "X:T -> Y:T | T=float,double,float16",
}
for _op in ("ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp", "ReduceL1", "ReduceL2", "ReduceMax", "ReduceMin",
            "ReduceMean", "ReduceProd"):
    NEW[("", _op, 18)] = "data:T axes:int64? -> reduced:T | T=float,int32,int64,float16,double,uint32,uint64"

# The required attributes of NEW's operators that have no version in onnx 1.12 (ONNX-ML's spec for
# TreeEnsemble-5), with the probe's values: a one-element tuple stands for a one-element tensor of
# that type, or of the type the probe gives that parameter (the schema's inference refuses split
# values of another type than X's).
NEW_ATTRS = {
    ("ai.onnx.ml", "TreeEnsemble", 5): {
        "tree_roots": [0], "nodes_featureids": [0], "nodes_splits": ("T",), "nodes_modes": ("uint8",),
        "nodes_truenodeids": [0], "nodes_trueleafs": [1], "nodes_falsenodeids": [0], "nodes_falseleafs": [1],
        "leaf_targetids": [0], "leaf_weights": ("T",),
    },
}

# Required attributes the probe sets to a value other than its default for the attribute's type.
ATTRS = {
    ("Cast", "to"): 1, ("Concat", "axis"): 0, ("ConcatFromSequence", "axis"): 0, ("BitShift", "direction"): "LEFT",
    ("Einsum", "equation"): "i->i", ("Momentum", "mode"): "standard", ("TfIdfVectorizer", "mode"): "TF",
    ("TfIdfVectorizer", "max_skip_count"): 0, ("Pad", "pads"): [0, 0], ("Pad", "paddings"): [0, 0],
    ("Slice", "starts"): [0], ("Slice", "ends"): [1], ("Unsqueeze", "axes"): [0],
}
# The attribute that sets the type of an operator's output of a parameter no input has: its name and
# how it holds the type (the TensorProto number, or a one-element tensor of that type).
OUT_ATTRS = {"Cast": ("to", "number"), "ConstantOfShape": ("value", "tensor"), "EyeLike": ("dtype", "number"),
             "RandomNormalLike": ("dtype", "number"), "RandomUniformLike": ("dtype", "number"),
             "Bernoulli": ("dtype", "number"), "Multinomial": ("dtype", "number")}

# Attributes a kernel's constructor needs though the schema does not require them.
KERNEL_ATTRS = {
    "GroupNormalization": {"num_groups": 1}, "GRU": {"hidden_size": 1}, "LSTM": {"hidden_size": 1},
    "RNN": {"hidden_size": 1}, "RegexFullMatch": {"pattern": "a"}, "MaxRoiPool": {"pooled_shape": [1, 1]},
    "GroupNorm": {"activation": 0, "groups": 1, "epsilon": 1e-5},
}


class Sig:
    """One version of an operator: inputs and outputs as (name, param, option), option one of single,
    optional, variadic, hetero (a variadic list of one type each); params: name -> the type strings
    it allows; attrs: the required attributes (name, AttrType name)."""

    def __init__(self, domain, op, since, inputs, outputs, params, attrs=(), deprecated=False, source="onnx 1.12"):
        self.domain, self.op, self.since = domain, op, since
        self.inputs, self.outputs, self.params = inputs, outputs, params
        self.attrs, self.deprecated, self.source = list(attrs), deprecated, source

    def tensor_types(self, p):
        """The element types of TYPES that param p allows as tensor(T)."""
        return [t for t, _, _ in TYPES if f"tensor({t})" in self.params[p]]


def option(fp):
    o = fp.option.name
    if o == "Variadic":
        return "variadic" if fp.isHomogeneous else "hetero"
    return o.lower()


def from_schema(s):
    params = {tc.type_param_str: list(tc.allowed_type_strs) for tc in s.type_constraints}
    ports = []
    for fps in (s.inputs, s.outputs):
        ps = []
        for fp in fps:
            p = fp.typeStr
            if p not in params:  # a fixed type: an anonymous parameter of one type
                p = fp.typeStr
                params[p] = [fp.typeStr]
            ps.append((fp.name, p, option(fp)))
        ports.append(ps)
    attrs = [(a.name, a.type.name) for a in s.attributes.values() if a.required]
    return Sig(s.domain, s.name, s.since_version, ports[0], ports[1], params, attrs, s.deprecated)


def from_new(domain, op, since, text):
    body, _, ps = text.partition("|")
    ins, _, outs = body.partition("->")
    params = {}
    for spec in ps.split():
        name, _, types = spec.partition("=")
        params[name] = [f"tensor({t})" for t, _, _ in TYPES] if types == "all" else [f"tensor({t})" for t in types.split(",")]

    def ports(s):
        out = []
        for item in s.split():
            name, _, p = item.partition(":")
            opt = "single"
            if p.endswith("?"):
                opt, p = "optional", p[:-1]
            elif p.endswith("*"):
                opt, p = "variadic", p[:-1]
            if p not in params:
                params[p] = [f"tensor({p})"] if p in PROTO else [f"tensor({t})" for t, _, _ in TYPES]
            out.append((name, p, opt))
        return out

    return Sig(domain, op, since, ports(ins), ports(outs), params, source="onnxruntime 1.20.1")


def schemas():
    """Every Sig by (domain, op), ascending by since-version: onnx 1.12's, NEW's in place of one of
    the same version or after them, and a deprecated one at each version of DEPRECATED_LATER."""
    out = defaultdict(list)
    for s in defs.get_all_schemas_with_history():
        out[(s.domain, s.name)].append(from_schema(s))
    for (d, op, since), text in NEW.items():
        new = from_new(d, op, since, text)
        before = [s for s in out[(d, op)] if s.since < since and s.source == "onnx 1.12"]
        if before:
            new.attrs = max(before, key=lambda s: s.since).attrs
        out[(d, op)] = [s for s in out[(d, op)] if s.since != since] + [new]
    for (d, op), since in DEPRECATED_LATER.items():
        out[(d, op)].append(Sig(d, op, since, [], [], {}, deprecated=True, source="ONNX-ML"))
    for v in out.values():
        v.sort(key=lambda s: s.since)
    return out


def latest(history, opset):
    """The Sig of history in force at opset, None before the first."""
    base = [s for s in history if s.since <= opset]
    return base[-1] if base else None


def attr_value(op, name, kind):
    if (op, name) in ATTRS:
        return ATTRS[(op, name)]
    return {"INT": 1, "INTS": [1], "FLOAT": 1.0, "FLOATS": [1.0], "STRING": "a", "STRINGS": ["a"]}.get(kind)


def default_type(sig, p):
    ts = sig.tensor_types(p)
    for t in PREFER:
        if t in ts:
            return t
    return ts[0] if ts else None


def probe_model(sig, opset, types, include, repeat=1):
    """A one-node model of sig at opset: the inputs in include (indices), of types[param] (a
    variadic one repeat times), its required outputs untyped."""
    names, vis = [], []
    last = max(include) if include else -1
    for i, (name, p, opt) in enumerate(sig.inputs):
        if i > last:
            break
        if i not in include:
            names.append("")
            continue
        for r in range(repeat if opt in ("variadic", "hetero") else 1):
            n = f"{name}_{r}" if r else name
            names.append(n)
            vis.append(helper.make_tensor_value_info(n, PROTO[types[(p, r)] if (p, r) in types else types[p]], None))
    outs = [name for name, _, o in sig.outputs if o != "optional"] or [sig.outputs[0][0]]
    attrs = dict(KERNEL_ATTRS.get(sig.op, {}))
    for name, kind in sig.attrs:
        v = attr_value(sig.op, name, kind)
        if v is None:
            return None
        attrs[name] = v
    for name, v in NEW_ATTRS.get((sig.domain, sig.op, sig.since), {}).items():
        attrs[name] = one_element(types.get(v[0], v[0])) if isinstance(v, tuple) else v
    node = helper.make_node(sig.op, names, outs, name="n", domain=sig.domain, **attrs)
    g = helper.make_graph([node], "probe", vis, [helper.make_empty_tensor_value_info(o) for o in outs])
    imports = [helper.make_opsetid(sig.domain, opset)]
    if sig.domain:
        imports.append(helper.make_opsetid("", 17))
    m = helper.make_model(g, opset_imports=imports)
    m.ir_version = 10
    return m


class Prober:
    """Runs probe models through probe.js, and keeps each one's outcome by key."""

    def __init__(self, work, node_path):
        self.work, self.node_path = work, node_path
        self.plan, self.results, self.keys = [], {}, set()

    def add(self, key, model):
        if key in self.keys or model is None:
            return
        self.keys.add(key)
        pid = len(self.keys)
        path = f"p{pid}.onnx"
        with open(os.path.join(self.work, path), "wb") as f:
            f.write(model.SerializeToString())
        self.plan.append({"id": pid, "key": key, "model": path})

    def run(self):
        if not self.plan:
            return
        plan_path = os.path.join(self.work, "plan.json")
        with open(plan_path, "w") as f:
            json.dump([{"id": p["id"], "model": p["model"]} for p in self.plan], f)
        env = dict(os.environ, NODE_PATH=self.node_path)
        out = subprocess.run(["node", os.path.join(HERE, "probe.js"), plan_path], env=env, check=True,
                             capture_output=True, text=True).stdout
        by_id = {p["id"]: p["key"] for p in self.plan}
        for line in out.splitlines():
            pid, outcome, msg = line.split("\t")
            self.results[by_id[int(pid)]] = (outcome, msg)
        for p in self.plan:
            os.remove(os.path.join(self.work, p["model"]))
        os.remove(plan_path)
        self.plan = []


def probe_params(sig):
    """The params bound to inputs that the probe varies: those that allow a tensor type of TYPES."""
    out = []
    for _, p, _ in sig.inputs:
        if p not in out and (sig.tensor_types(p) or p in PROTO):
            out.append(p)
    return out


def assignment(sig, p, t, others=None):
    """The types of a probe of t for param p, the others at their defaults (or others'), and the
    inputs it gives: the required ones, and the optional ones of p when p has no required one (an
    optional input may change what onnxruntime runs: Clip's min makes it expand Clip's function)."""
    types = {q: default_type(sig, q) for q in sig.params}
    types.update(others or {})
    if p is None:
        return types, None
    types[p] = t
    required = any(q == p and o != "optional" for _, q, o in sig.inputs)
    include = [i for i, (_, q, o) in enumerate(sig.inputs) if o != "optional" or q == p and not required]
    if any(types[sig.inputs[i][1]] is None for i in include):
        return None, None
    return types, include


def out_params(sig):
    """The params of outputs only whose type an attribute sets (OUT_ATTRS), that the probe varies."""
    if sig.op not in OUT_ATTRS:
        return []
    bound = {q for _, q, _ in sig.inputs}
    return [p for _, p, _ in sig.outputs if p not in bound and sig.tensor_types(p)]


# The bytes of one element of each type of TYPES (a 4-bit one in a byte of its own).
WIDTH = {"float": 4, "int32": 4, "uint32": 4, "int64": 8, "uint64": 8, "double": 8, "uint16": 2, "int16": 2,
         "float16": 2, "bfloat16": 2}


def out_model(sig, opset, t):
    """A one-node model of sig at opset whose output is of type t, by the attribute OUT_ATTRS names."""
    types, include = assignment(sig, None, None)
    include = [i for i, (_, _, o) in enumerate(sig.inputs) if o != "optional"]
    if any(types[sig.inputs[i][1]] is None for i in include):
        return None
    m = probe_model(sig, opset, types, include)
    if m is None:
        return None
    name, how = OUT_ATTRS[sig.op]
    node = m.graph.node[0]
    for a in [a for a in node.attribute if a.name == name]:
        node.attribute.remove(a)
    node.attribute.append(helper.make_attribute(name, PROTO[t] if how == "number" else one_element(t)))
    return m


def one_element(t):
    """A one-element tensor of type t, its element zero (or "a")."""
    v = TensorProto(data_type=PROTO[t], dims=[1])
    if t == "string":
        v.string_data.append(b"a")
    else:
        v.raw_data = bytes(WIDTH.get(t, 1))
    return v


def combos(sig, p, include):
    """Up to COMBOS assignments of the params of include other than p, over the types they allow."""
    qs = sorted({sig.inputs[i][1] for i in include} - {p})
    lists = [sig.tensor_types(q) for q in qs]
    return [dict(zip(qs, c)) for c in itertools.islice(itertools.product(*lists), COMBOS)]


def outcome_class(res, sig, p):
    """ok, kernel, type (the schema refuses an input of p), or other."""
    out, _ = res
    if out == "ok":
        return "ok"
    if out.startswith("kernel"):
        return "kernel"
    if out.startswith("type ") and any(n == out[5:] and q == p for n, q, _ in sig.inputs):
        return "type"
    return "other"


class Probes:
    """The probes of every operator version: which Sig each opset is probed with, and what
    onnxruntime said of each param's types."""

    def __init__(self, prober, sigs, ops):
        self.prober, self.sigs, self.at = prober, sigs, {}
        for key in sorted(sigs):
            domain, op = key
            if domain not in LAST or op in GRAPH_OPS or ops and op not in ops:
                continue
            history = sigs[key]
            opsets = {s.since for s in history} | set(range(FIRST_LATER[domain], LAST[domain] + 1))
            for o in sorted(opsets):
                sig = latest(history, o)
                if sig is None or sig.deprecated:
                    continue
                self.at[(domain, op, o)] = sig
        for (domain, op, o), sig in self.at.items():
            for p in probe_params(sig):
                for t, _, _ in TYPES:
                    types, include = assignment(sig, p, t)
                    if types is not None:
                        prober.add(("r1", domain, op, o, p, t), probe_model(sig, o, types, include))
            for p in out_params(sig):
                for t, _, _ in TYPES:
                    prober.add(("out", domain, op, o, p, t), out_model(sig, o, t))
        prober.run()
        for (domain, op, o), sig in self.at.items():
            for p in probe_params(sig):
                for t, _, _ in TYPES:
                    if self.cls(domain, op, o, p, t) == "kernel":
                        types, include = assignment(sig, p, t)
                        for c in combos(sig, p, include):
                            m = probe_model(sig, o, assignment(sig, p, t, c)[0], include)
                            prober.add(("r2", domain, op, o, p, t, tuple(sorted(c.items()))), m)
                self.add_bind(domain, op, o, sig, p)
        prober.run()
        self.combos = {}
        for (domain, op, o), sig in self.at.items():
            for combo in self.products(domain, op, o, sig):
                include = [i for i, (_, _, opt) in enumerate(sig.inputs) if opt != "optional"]
                types = dict(assignment(sig, None, None)[0], **combo)
                if any(types[sig.inputs[i][1]] is None for i in include):
                    break
                prober.add(("r3", domain, op, o, tuple(sorted(combo.items()))), probe_model(sig, o, types, include))
        prober.run()

    def products(self, domain, op, o, sig):
        """The assignments of types with kernels to the params of the required inputs, when two of
        them take several: onnxruntime may register a kernel for some combinations only
        (MatMulInteger of u8 and i8, not of i8 and u8). None for more than PRODUCTS of them, or
        for a param whose inputs onnxruntime does not bind to one type."""
        required = [p for p in probe_params(sig) if any(q == p and opt != "optional" for _, q, opt in sig.inputs)]
        if any(self.unbound(domain, op, o, p) for p in required):
            return []
        lists = [[t for t, _, _ in TYPES if self.cls(domain, op, o, p, t) in ("ok", "kernel")
                  and not self.no_kernel(domain, op, o, p, t)] for p in required]
        size = 1
        for ts in lists:
            size *= len(ts)
        if sum(len(ts) > 1 for ts in lists) < 2 or size > PRODUCTS:
            return []
        return [dict(zip(required, c)) for c in itertools.product(*lists)]

    def kernels(self, domain, op, o):
        """The combinations of kernels of op at opset o as dicts param -> type, when onnxruntime
        refuses some of those products probed for want of a kernel; None when it has them all."""
        got = [(dict(k[4]), r[0]) for k, r in self.prober.results.items() if k[0] == "r3" and k[1:4] == (domain, op, o)]
        if not any(out.startswith("kernel") for _, out in got):
            return None
        return [types for types, out in got if not out.startswith("kernel")]

    def add_bind(self, domain, op, o, sig, p):
        """A probe of two inputs of param p of two types it allows: onnxruntime refuses it when its
        schema binds them to one type ("bound")."""
        ins = [i for i, (_, q, _) in enumerate(sig.inputs) if q == p]
        ok = [t for t, _, _ in TYPES if self.cls(domain, op, o, p, t) in ("ok", "kernel")]
        variadic = len(ins) == 1 and sig.inputs[ins[0]][2] == "variadic"
        if len(ok) < 2 or len(ins) < 2 and not variadic:
            return
        types, include = assignment(sig, p, ok[0])
        include = sorted(set(include) | set(ins))
        if variadic:
            types[(p, 1)] = ok[1]
            self.prober.add(("bind", domain, op, o, p), probe_model(sig, o, types, include, repeat=2))
            return
        m = probe_model(sig, o, types, include)
        names = [vi.name for vi in m.graph.input]
        for i in ins[1:]:
            m.graph.input[names.index(sig.inputs[i][0])].type.tensor_type.elem_type = PROTO[ok[1]]
        self.prober.add(("bind", domain, op, o, p), m)

    def cls(self, domain, op, o, p, t):
        r = self.prober.results.get(("r1", domain, op, o, p, t))
        return None if r is None else outcome_class(r, self.at[(domain, op, o)], p)

    def no_kernel(self, domain, op, o, p, t):
        """t of p has no kernel: the first probe refused for want of one, and no combination loads or
        fails past the kernel's lookup (another type refused says nothing of the kernels). A float16
        refused otherwise has none when float has none: onnxruntime runs a float16 node it has no
        kernel for by casts around a float kernel, and the refusal is of the node it rewrote
        (TreeEnsemble-5's float splits against a float16 input)."""
        if t == "float16" and self.cls(domain, op, o, p, t) == "other":
            return self.no_kernel(domain, op, o, p, "float")
        if self.cls(domain, op, o, p, t) != "kernel":
            return False
        return not any(k[0] == "r2" and k[1:6] == (domain, op, o, p, t) and r[0] in ("ok", "other")
                       for k, r in self.prober.results.items())

    def unbound(self, domain, op, o, p):
        """onnxruntime's schema does not bind the inputs of p to one type: its probe loads, or fails
        for want of a kernel or for another input's type, but not for their two types."""
        r = self.prober.results.get(("bind", domain, op, o, p))
        return r is not None and (r[0] == "ok" or r[0].startswith(("kernel", "type")))

    def version(self, domain, op, o):
        """The version of op at opset o that onnxruntime's refusals name, 0 when none does."""
        for k, r in self.prober.results.items():
            if k[0] in ("r1", "r2") and k[1:4] == (domain, op, o) and r[0].startswith(f"kernel {op}("):
                return int(r[0][len(f"kernel {op}("):-1])
        return 0

    def loads(self, domain, op, o, p, t):
        """The probe of output param p of type t loads: None when there is none."""
        r = self.prober.results.get(("out", domain, op, o, p, t))
        return None if r is None else r[0] == "ok"

    def vector(self, domain, op, o):
        sig = self.at[(domain, op, o)]
        return tuple((p, t, self.cls(domain, op, o, p, t), self.no_kernel(domain, op, o, p, t))
                     for p in probe_params(sig) for t, _, _ in TYPES) + tuple(
            (p, t, self.loads(domain, op, o, p, t)) for p in out_params(sig) for t, _, _ in TYPES)


def versions(key, sigs, probes):
    """The versions of op key: onnx 1.12's since-versions, and each later opset whose outcomes differ
    from the opset before; each as (opset, the operator's version there, its Sig: None for an
    operator not probed, checked no more)."""
    domain, op = key
    out = [(s.since, s.since, s) for s in sigs[key]]
    prev, version = None, 0
    for o in range(1, LAST.get(domain, 1) + 1):
        if (domain, op, o) not in probes.at:
            continue
        if any(s.since == o for s in sigs[key]) or op in LATER_VERSIONS.get(o, "").split() and domain == "":
            version = o
        version = probes.version(domain, op, o) or version
        vec = probes.vector(domain, op, o)
        if o >= FIRST_LATER[domain] and all(s.since != o for s in sigs[key]) and vec != prev:
            out.append((o, version, probes.at[(domain, op, o)]))
        prev = vec
    out += [(o, o, None) for o in UNPROBED_VERSIONS.get(key, [])]
    return sorted(out, key=lambda v: v[0])


def entry(key, since, version, sig, probes, log):
    """The table's entry of op key from opset since, its version there: its inputs, outputs and
    params with their types."""
    domain, op = key
    if sig is None or sig.deprecated:
        return dict(since=since, unchecked=True)
    probed = (domain, op, since) in probes.at
    from_probe = probed and (sig.source != "onnx 1.12" or since >= FIRST_LATER.get(domain, 99))
    params, ins = {}, list(sig.inputs)
    for p, allowed in sig.params.items():
        spec = set(sig.tensor_types(p))
        ort = None
        if probed and p in probe_params(sig):
            got = {t: probes.cls(domain, op, since, p, t) for t, _, _ in TYPES}
            if from_probe:
                spec = {t for t, c in got.items() if c not in ("type", None)}
            else:
                for t, c in got.items():
                    if c == "type" and t in spec:
                        print(f"disagree {domain or 'ai.onnx'}:{op}-{since} {p}: onnx 1.12 allows {t}, onnxruntime's schema refuses it", file=log)
                    elif c in ("ok", "kernel") and t not in spec:
                        print(f"disagree {domain or 'ai.onnx'}:{op}-{since} {p}: onnx 1.12 refuses {t}, onnxruntime's schema allows it", file=log)
            ort = {t for t in spec if got[t] != "type" and not probes.no_kernel(domain, op, since, p, t)}
        elif probed and p in out_params(sig) and any(probes.loads(domain, op, since, p, t) for t, _, _ in TYPES):
            # (a version onnxruntime loads at no type, as Cast-1 whose to is a string, says nothing)
            got = {t: probes.loads(domain, op, since, p, t) for t, _, _ in TYPES}
            spec |= {t for t, ok in got.items() if ok}
            ort = {t for t in spec if got[t]}
        params[p] = dict(spec=spec, ort=ort, other=[s for s in allowed if not s.startswith("tensor(")])
    if probed:  # a param onnxruntime's schema does not bind: a param of its own for each input
        for p in probe_params(sig):
            if not probes.unbound(domain, op, since, p):
                continue
            print(f"unbound {domain or 'ai.onnx'}:{op}-{since} {p}: onnxruntime takes its inputs of two types", file=log)
            for j, (n, q, opt) in enumerate(ins):
                if q == p:
                    params[f"{p}:{n}"] = dict(params[p])
                    ins[j] = (n, f"{p}:{n}", "hetero" if opt == "variadic" else opt)
            if not any(q == p for _, q, _ in sig.outputs):
                del params[p]
    kernels = probes.kernels(domain, op, since) if probed else None
    if kernels is not None:
        print(f"combinations {domain or 'ai.onnx'}:{op}-{since}: onnxruntime has kernels for {len(kernels)} of those probed", file=log)
    return dict(since=since, version=version, inputs=ins, outputs=list(sig.outputs), params=params, kernels=kernels)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", required=True, help="a directory for the probe models")
    ap.add_argument("--node-path", default="/work/ort/node_modules")
    ap.add_argument("--dump", help="write every probe's outcome to this file (JSON Lines)")
    ap.add_argument("--ops", help="probe only these operators (comma-separated), to try the script")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    log = sys.stderr
    sigs = schemas()
    probes = Probes(Prober(a.work, a.node_path), sigs, a.ops.split(",") if a.ops else None)
    table = {}
    for key in sorted(sigs):
        if a.ops and key[1] not in a.ops.split(","):
            continue
        table[key] = [entry(key, since, version, sig, probes, log) for since, version, sig in versions(key, sigs, probes)]
        if key[0] in LAST and not any(k[:2] == key for k in probes.at):
            print(f"unchecked {key[0] or 'ai.onnx'}:{key[1]}: kernels not probed (a graph attribute)", file=log)
    for key, vs in table.items():
        for v in vs:
            if v.get("unchecked") and v["since"] in UNPROBED_VERSIONS.get(key, []):
                print(f"unchecked {key[0] or 'ai.onnx'}:{key[1]}-{v['since']}: after onnx 1.12, not probed", file=log)
    for op, n in MS_NO_KERNEL.items():
        refused = []
        for t in ("float", "float16"):
            sig = Sig(MS, op, 1, [(f"x{i}", t, "single") for i in range(n)], [("y", t, "single")],
                      {t: [f"tensor({t})"]}, source="onnxruntime 1.20.1")
            probes.prober.add(("ms", op, t), probe_model(sig, 1, {t: t}, list(range(n))))
            probes.prober.run()
            refused.append(probes.prober.results[("ms", op, t)][0].startswith("kernel"))
        if not all(refused):
            print(f"unchecked {MS}:{op}: onnxruntime has a kernel for it, MS_NO_KERNEL is out of date", file=log)
            continue
        table[(MS, op)] = [dict(since=1, version=1, inputs=[("inputs", "T", "hetero")], outputs=[],
                                params={"T": dict(spec={t for t, _, _ in TYPES}, ort=set(), other=[])})]
    if a.dump:
        with open(a.dump, "w") as f:
            for k, r in sorted(probes.prober.results.items(), key=str):
                f.write(json.dumps([list(k), r[0], r[1]]) + "\n")
    write_go(table, sys.stdout)


def set_expr(ts, names):
    if not ts:
        return "0"
    key = tuple(sorted(ts, key=lambda t: [n for n, _, _ in TYPES].index(t)))
    if key not in names:
        names[key] = f"ts{len(names)}"
    return names[key]


KINDS = [("seq", "seq(tensor({}))"), ("optional", "optional(tensor({}))"), ("optionalSeq", "optional(seq(tensor({})))")]


def go_param(p, d, names):
    """The Go literal of a typeVar of param p whose types are d."""
    fields = []
    name = p.split(":")[0]
    if not name.startswith(("tensor(", "seq(", "map(", "optional(")) and name not in PROTO:
        fields.append(f"name: {json.dumps(name)}")
    if d["spec"]:
        fields.append(f"tensor: {set_expr(d['spec'], names)}")
    if d["ort"] is not None:
        fields.append(f"ort: {set_expr(d['ort'], names) if d['ort'] else 'ortNone'}")
    rest = list(d["other"])
    for kind, form in KINDS:
        ts = [t for t, _, _ in TYPES if form.format(t) in rest]
        rest = [r for r in rest if r not in [form.format(t) for t in ts]]
        if ts:
            fields.append(f"{kind}: {set_expr(set(ts), names)}")
    rest = [r for r in rest if "complex" not in r]
    if rest:
        fields.append("maps: []string{" + ", ".join(json.dumps(r) for r in rest) + "}")
    return "{" + ", ".join(fields) + "}"


def go_sigs(versions, names):
    """The Go literal of an operator's []typeSig, one signature a line."""
    lines = []
    for v in versions:
        if v.get("unchecked"):
            lines.append(f"\t{{since: {v['since']}}},")
            continue
        index = {p: i for i, p in enumerate(v["params"])}

        def ports(ps):
            return ", ".join(f"{{{json.dumps(n)}, {index[p]}, {OPTION[opt]}}}" for n, p, opt in ps)

        pvars = ", ".join(go_param(p, d, names) for p, d in v["params"].items())
        kernels = "nil"
        if v.get("kernels"):
            tuples = []
            for k in sorted(v["kernels"], key=lambda k: [[n for n, _, _ in TYPES].index(k[p]) for p in sorted(k)]):
                vs = ["element.Undefined"] * len(index)
                for p, t in k.items():
                    vs[index[p]] = "element." + GO[t]
                tuples.append("{" + ", ".join(vs) + "}")
            kernels = "[]kernelTypes{" + ", ".join(tuples) + "}"
        lines.append(f"\t{{{v['since']}, {v['version']}, []typeParam{{{ports(v['inputs'])}}}, []typeParam{{{ports(v['outputs'])}}}, "
                     f"[]typeVar{{{pvars}}}, {kernels}}},")
    return "[]typeSig{\n" + "\n".join(lines) + "\n}"


def write_go(table, out):
    names = {}
    sigs = {key: go_sigs(vs, names) for key, vs in sorted(table.items())}
    count = defaultdict(int)
    for text in sigs.values():
        count[text] += 1
    shared = {}  # a list of signatures several operators have, by its literal: its variable
    for key, text in sigs.items():
        if count[text] > 1 and text not in shared:
            shared[text] = f"sigs{len(shared)}"
    print("// Code generated by bench/types/gen.py from onnx 1.12's schemas and onnxruntime-node 1.20.1; DO NOT EDIT.", file=out)
    print("\npackage graph\n\nimport \"github.com/reshape-go/reshape/element\"\n", file=out)
    print("// The sets of element types of onnxTypes.\nconst (", file=out)
    for key, name in sorted(names.items(), key=lambda kv: int(kv[1][2:])):
        print(f"\t{name} typeSet = " + " | ".join(f"1<<element.{GO[t]}" for t in key), file=out)
    print(")\n", file=out)
    print("// The signatures several operators of onnxTypes have.\nvar (", file=out)
    for text, name in shared.items():
        print(f"\t{name} = " + text.replace("\n", "\n\t"), file=out)
    print(")\n", file=out)
    print("// onnxTypes holds the type signatures of ONNX's operators (typeOp), by domain and name.", file=out)
    print("var onnxTypes = []typeOp{", file=out)
    for (domain, op), text in sigs.items():
        ref = shared.get(text, text.replace("\n", "\n\t"))
        print(f"\t{{{json.dumps(domain)}, {json.dumps(op)}, {ref}}},", file=out)
    print("}", file=out)


if __name__ == "__main__":
    main()
