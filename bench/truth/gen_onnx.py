#!/usr/bin/python3
"""Build the hand-made ONNX models of testdata/models/ with onnx.helper.

  cd REPO && /usr/bin/python3 bench/truth/gen_onnx.py [NAME...]

Each model is small (random weights from a seeded numpy generator), has symbolic input dims, and names
every node. Most results are also flattened by a Reshape whose pattern is computed from Shape, as exporters
do, so that each op's output shape feeds a Reshape check. The docstring of each builder says what it covers.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper, shape_inference

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "testdata", "models")
FLOAT, INT64, BOOL = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class Graph:
    """A graph under construction: op() adds a named node and returns its output names."""

    def __init__(self, name, opset, prefix=""):
        self.name, self.opset, self.prefix = name, opset, prefix
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self.count = {}
        self.rng = np.random.default_rng(0)

    def _id(self, op):
        k = self.count.get(op, 0)
        self.count[op] = k + 1
        return f"{self.prefix}{op}_{k}"

    def input(self, name, elem, dims):
        self.inputs.append(helper.make_tensor_value_info(name, elem, dims))
        return name

    def output(self, name, elem=FLOAT):
        """A graph output; elem None leaves its type to inference."""
        if elem is None:
            self.outputs.append(onnx.ValueInfoProto(name=name))
        else:
            self.outputs.append(helper.make_tensor_value_info(name, elem, None))

    def op(self, op, inputs, nout=1, name=None, **attrs):
        name = name or self._id(op)
        outs = [f"{name}_out{i}" if nout > 1 else f"{name}_out" for i in range(nout)]
        self.nodes.append(helper.make_node(op, list(inputs), outs, name=name, **attrs))
        return outs if nout > 1 else outs[0]

    def const(self, value, dtype=np.int64):
        """A Constant node holding value (a scalar stays rank 0)."""
        return self.op("Constant", [], value=numpy_helper.from_array(np.array(value, dtype=dtype)))

    def weight(self, *shape):
        name = self._id("w")
        a = (self.rng.standard_normal(shape) * 0.1).astype(np.float32)
        self.inits.append(numpy_helper.from_array(a, name))
        return name

    def unsqueeze(self, x, axes):
        if self.opset < 13:
            return self.op("Unsqueeze", [x], axes=axes)
        return self.op("Unsqueeze", [x, self.const(axes)])

    def squeeze(self, x, axes=None):
        if axes is None:
            return self.op("Squeeze", [x])
        if self.opset < 13:
            return self.op("Squeeze", [x], axes=axes)
        return self.op("Squeeze", [x, self.const(axes)])

    def dim(self, x, axis):
        """Gather(Shape(x), axis): a scalar."""
        return self.op("Gather", [self.op("Shape", [x]), self.const(axis)])

    def dims(self, x, start, end):
        """Slice(Shape(x), start, end): a 1-D tensor."""
        return self.op("Slice", [self.op("Shape", [x]), self.const([start]), self.const([end])])

    def pattern(self, *parts):
        """Concat of parts: an int is a constant, a str a scalar tensor (unsqueezed) or a 1-D one (kept)."""
        items = []
        for p in parts:
            if isinstance(p, int):
                items.append(self.const([p]))
            elif isinstance(p, tuple):
                items.append(p[0])
            else:
                items.append(self.unsqueeze(p, [0]))
        return self.op("Concat", items, axis=0)

    def flat(self, x, keep=1):
        """Reshape x to [d0, ..., d(keep-1), -1] with a pattern computed from Shape(x)."""
        parts = [self.dim(x, i) for i in range(keep)] + [-1]
        return self.op("Reshape", [x, self.pattern(*parts)])

    def graph(self):
        return helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.inits)

    def save(self, file):
        model = helper.make_model(self.graph(), opset_imports=[helper.make_opsetid("", self.opset)],
                                  producer_name="reshape bench/truth/gen_onnx.py")
        model.ir_version = 8
        if declare_ranks(model):
            onnx.checker.check_model(model)
        path = os.path.join(OUT, file)
        onnx.save(model, path)
        print(f"{os.path.relpath(path, ROOT)}: {len(self.nodes)} nodes, {os.path.getsize(path)} bytes")


def declare_ranks(model):
    """Give every graph output (subgraphs included) declared without a shape its element type and rank,
    with unnamed dims, as onnx's shape inference finds them; the onnx checker requires a shape there.
    Returns whether every such output got one (onnx 1.12 cannot infer opset 18, for one)."""
    try:
        inferred = shape_inference.infer_shapes(model, strict_mode=False)
    except Exception:
        return False
    known = {}

    def collect(g):
        for v in list(g.value_info) + list(g.output):
            if v.type.tensor_type.HasField("shape"):
                known[v.name] = v.type.tensor_type
        for n in g.node:
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    collect(a.g)

    def declare(g):
        ok = True
        for o in g.output:
            if o.type.tensor_type.HasField("shape"):
                continue
            t = known.get(o.name)
            if t is None:
                ok = False
                continue
            o.type.tensor_type.elem_type = t.elem_type
            o.type.tensor_type.shape.SetInParent()
            for _ in t.shape.dim:
                o.type.tensor_type.shape.dim.add()
        for n in g.node:
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    ok = declare(a.g) and ok
        return ok

    collect(inferred.graph)
    return declare(model.graph)


def body(prefix, opset):
    return Graph(prefix.rstrip("/"), opset, prefix)


def control_flow():
    """If with a constant condition (branches of different rank), If on a bool input, If on a shape
    (Greater(N, 2)), Loop with a trip count from Shape (loop-carried value that grows by Concat, scan
    outputs, outer-scope names in the body), a while-Loop without trip count (condition from the body),
    Scan forward and reverse with scan_input_axes/scan_output_axes. opset 16. x [N,C,4], flag []."""
    g = Graph("control_flow", 16)
    x = g.input("x", FLOAT, ["N", "C", 4])
    flag = g.input("flag", BOOL, [])
    n = g.dim(x, 0)

    # If with a constant condition: then gives [N, C*4], else [N*C*4].
    t = body("if_const/then/", 16)
    t.output(t.op("Reshape", [x, g.pattern(n, -1)]))
    e = body("if_const/else/", 16)
    e.output(e.op("Reshape", [x, g.const([-1])]))
    r1 = g.op("If", [g.const(True, np.bool_)], name="if_const", then_branch=t.graph(), else_branch=e.graph())

    # If on the bool input flag: then [4, C*N] (Transpose then Reshape), else [N, C*4] (special zero).
    t = body("if_flag/then/", 16)
    t.output(t.op("Reshape", [t.op("Transpose", [x], perm=[2, 1, 0]), t.const([4, -1])]))
    e = body("if_flag/else/", 16)
    e.output(e.op("Reshape", [x, e.const([0, -1])]))
    r2 = g.op("If", [flag], name="if_flag", then_branch=t.graph(), else_branch=e.graph())

    # If on a shape: N > 2 takes the first two rows, else doubles the rows.
    t = body("if_shape/then/", 16)
    t.output(t.op("Slice", [x, t.const([0]), t.const([2]), t.const([0])]))
    e = body("if_shape/else/", 16)
    e.output(e.op("Concat", [x, x], axis=0))
    r3 = g.op("If", [g.op("Greater", [n, g.const(2)])], name="if_shape", then_branch=t.graph(),
              else_branch=e.graph())
    r3f = g.flat(r3)

    # Loop, trip count N: acc [C,4] += x[i]; grow [i, C*4] gains a row per iteration; scan out [N, C*4].
    row_pattern = g.const([-1])
    lb = body("loop/", 16)
    i = lb.input("i", INT64, [])
    cin = lb.input("cond_in", BOOL, [])
    acc = lb.input("acc", FLOAT, ["C", 4])
    grow = lb.input("grow", FLOAT, [None, None])
    acc2 = lb.op("Add", [acc, lb.op("Gather", [x, i], axis=0)])
    row = lb.op("Reshape", [acc2, row_pattern])
    grow2 = lb.op("Concat", [grow, lb.unsqueeze(row, [0])], axis=0)
    lb.outputs = [helper.make_tensor_value_info(lb.op("Identity", [cin]), BOOL, [])]
    for o in (acc2, grow2, row):
        lb.output(o)
    acc0 = g.op("Gather", [x, g.const(0)], axis=0)
    grow0 = g.op("Slice", [g.op("Reshape", [x, g.const([0, -1])]), g.const([0]), g.const([0]), g.const([0])])
    acc_n, grow_n, rows = g.op("Loop", [n, g.const(True, np.bool_), acc0, grow0], nout=3, name="loop",
                               body=lb.graph())
    back = g.op("Reshape", [rows, g.pattern(n, g.dim(x, 1), 4)])

    # While-loop without a trip count: runs while i+1 < C; scan output [C, N].
    wb = body("while/", 16)
    wi = wb.input("i", INT64, [])
    wb.input("cond_in", BOOL, [])
    nxt = wb.op("Add", [wi, wb.const(1)])
    wcond = wb.op("Less", [nxt, g.dim(x, 1)])
    wb.outputs = [helper.make_tensor_value_info(wcond, BOOL, [])]
    wb.output(wb.op("ReduceSum", [wb.op("Gather", [x, wi], axis=1), wb.const([1])], keepdims=0))
    wrows = g.op("Loop", ["", g.const(True, np.bool_)], name="while", body=wb.graph())
    wflat = g.op("Reshape", [wrows, g.const([-1])])

    # Scan over axis 0 of x (forward) and axis 2 of x (reverse), state [C,4]; outputs stacked on axis 1.
    sb = body("scan/", 16)
    s = sb.input("s", FLOAT, ["C", 4])
    xt = sb.input("xt", FLOAT, ["C", 4])
    s2 = sb.op("Add", [s, xt])
    sb.output(s2)
    sb.output(sb.op("Reshape", [s2, row_pattern]))
    s0 = g.op("Mul", [acc0, g.const(0.0, np.float32)])
    s_n, srows = g.op("Scan", [s0, x], nout=2, name="scan", body=sb.graph(), num_scan_inputs=1,
                      scan_output_axes=[1])
    rb = body("scan_rev/", 16)
    rs = rb.input("s", FLOAT, [1])
    rc = rb.input("col", FLOAT, ["N", "C"])
    rb.output(rb.op("Add", [rs, rb.op("ReduceMax", [rc], keepdims=0, axes=[0, 1])]))
    rb.output(rb.op("Reshape", [rc, rb.const([-1])]))
    r_n, rcols = g.op("Scan", [g.const([0.0], np.float32), x], nout=2, name="scan_rev", body=rb.graph(),
                      num_scan_inputs=1, scan_input_axes=[2], scan_input_directions=[1])
    for o in (r1, r2, r3f, acc_n, grow_n, back, wflat, s_n, srows, r_n, g.flat(rcols)):
        g.output(o)
    g.save("control_flow.onnx")


def control_nested():
    """Subgraphs inside subgraphs with outer-scope names: a shape-conditioned If whose then branch runs a
    Loop whose body holds an If; the innermost Reshape reads a pattern and data from the main graph and
    from the Loop body. opset 13. x [B,T,D]."""
    g = Graph("control_nested", 13)
    x = g.input("x", FLOAT, ["B", "T", "D"])
    b, t = g.dim(x, 0), g.dim(x, 1)
    outer_pattern = g.pattern(t, -1)  # [T, -1]

    inner_t = body("outer/then/loop/inner/then/", 13)
    inner_t.output(inner_t.op("Reshape", [x, outer_pattern]))  # main-graph data and pattern: [T, B*D]
    inner_e = body("outer/then/loop/inner/else/", 13)
    inner_e.output(inner_e.op("Transpose", [inner_e.op("Reshape", [x, inner_e.const([0, -1])])]))  # [T*D, B]

    lb = body("outer/then/loop/", 13)
    i = lb.input("i", INT64, [])
    cin = lb.input("cond_in", BOOL, [])
    carry = lb.input("carry", FLOAT, ["T", None])
    even = lb.op("Equal", [lb.op("Mod", [i, lb.const(2)]), lb.const(0)])
    picked = lb.op("If", [even], name="outer/then/loop/inner", then_branch=inner_t.graph(),
                   else_branch=inner_e.graph())
    flat = lb.op("Reshape", [picked, lb.const([-1])])
    lb.outputs = [helper.make_tensor_value_info(lb.op("Identity", [cin]), BOOL, [])]
    lb.output(lb.op("Add", [carry, lb.op("Reshape", [flat, outer_pattern])]))
    lb.output(lb.op("ReduceSum", [flat], keepdims=1))

    then = body("outer/then/", 13)
    carry0 = then.op("ConstantOfShape", [then.pattern(t, then.op("Mul", [b, g.dim(x, 2)]))],
                     value=numpy_helper.from_array(np.array([0.0], np.float32)))
    fin, sums = then.op("Loop", [then.const(3), then.const(True, np.bool_), carry0], nout=2,
                        name="outer/then/loop", body=lb.graph())
    then.output(then.op("Reshape", [fin, then.pattern(t, b, -1)]))
    els = body("outer/else/", 13)
    els.output(els.op("Transpose", [x], perm=[1, 0, 2]))
    out = g.op("If", [g.op("Greater", [b, g.const(1)])], name="outer", then_branch=then.graph(),
               else_branch=els.graph())
    g.output(out)
    g.output(g.flat(out, 2))
    g.save("control_nested.onnx")


def ops_movement():
    """DepthToSpace (DCR, CRD), SpaceToDepth, Flatten (axis 0, 2, -1), Tile with computed repeats, Expand
    (broadcast up and to fewer dims), Pad (constant with negative pads, reflect, edge), Split-13 with and
    without split sizes, Slice with negative steps and clamped ends, Squeeze/Unsqueeze-13, Gather with
    negative indices and a scalar index, Transpose, Concat, ConstantOfShape, Range (int and float),
    NonZero feeding Reshapes, Where with broadcasting, Size, and Reshape with special zero. opset 13.
    x [N,C,H,W] (C a multiple of 4; H, W even)."""
    g = Graph("ops_movement", 13)
    x = g.input("x", FLOAT, ["N", "C", "H", "W"])
    n, c, h, w = (g.dim(x, i) for i in range(4))
    outs = []
    d2s = g.op("DepthToSpace", [x], blocksize=2, mode="DCR")
    outs += [d2s, g.op("DepthToSpace", [x], blocksize=2, mode="CRD")]
    outs.append(g.op("SpaceToDepth", [x], blocksize=2))
    outs.append(g.op("SpaceToDepth", [d2s], blocksize=2))
    outs += [g.op("Flatten", [x], axis=0), g.op("Flatten", [x], axis=2), g.op("Flatten", [x], axis=-1)]
    outs.append(g.op("Tile", [x, g.pattern(1, 2, n, 1)]))
    outs.append(g.op("Expand", [g.weight(4, 1, 1), g.pattern(n, 1, h, w)]))
    outs.append(g.op("Expand", [x, g.const([1, 1])]))
    outs.append(g.op("Expand", [g.weight(1, 1), g.op("Shape", [x])]))
    outs.append(g.op("Pad", [x, g.const([0, 0, 1, 2, 0, 0, 3, -1])]))
    outs.append(g.op("Pad", [x, g.const([0, 0, 1, 1, 0, 0, 1, 1]), g.const(0.5, np.float32)], mode="reflect"))
    outs.append(g.op("Pad", [x, g.pattern(0, 0, 0, (g.dims(x, 0, 1),), 0, 0, 0, 2)], mode="edge"))
    one_rest = g.pattern(1, g.op("Sub", [c, g.const(1)]))
    outs += g.op("Split", [x, one_rest], nout=2, axis=1)
    outs += g.op("Split", [x], nout=2, axis=3)
    outs += g.op("Split", [x, g.pattern(2, g.op("Sub", [w, g.const(2)]))], nout=2, axis=3)
    outs.append(g.op("Slice", [x, g.const([-1]), g.const([INT64_MIN]), g.const([3]), g.const([-1])]))
    outs.append(g.op("Slice", [x, g.const([-2, 100]), g.const([0, -100]), g.const([2, 1]), g.const([-2, -3])]))
    half = g.op("Div", [h, g.const(2)])
    outs.append(g.op("Slice", [x, g.unsqueeze(half, [0]), g.const([INT64_MAX]), g.const([-2])]))
    outs.append(g.op("Slice", [x, g.const([1, 0]), g.const([1000, -1]), g.const([3, 0])]))
    u = g.unsqueeze(x, [0, 5])
    outs += [u, g.squeeze(u, [0, -1])]
    outs.append(g.squeeze(g.op("ReduceSum", [x, g.const([1, 2, 3])], keepdims=1)))
    outs.append(g.op("Gather", [x, g.const([-1, 0])], axis=1))
    outs.append(g.op("Gather", [x, g.const(-1)], axis=2))
    outs.append(g.op("Transpose", [x], perm=[0, 2, 3, 1]))
    nhwc = g.op("Transpose", [x], perm=[0, 2, 3, 1])
    outs.append(g.op("Reshape", [nhwc, g.pattern(0, -1, c)]))
    outs.append(g.op("Concat", [x, x, x], axis=-1))
    outs.append(g.op("ConstantOfShape", [g.op("Shape", [x])]))
    outs.append(g.op("ConstantOfShape", [g.pattern(n, 3)], value=numpy_helper.from_array(np.array([7], np.int64))))
    outs.append(g.op("Range", [g.const(0), h, g.const(1)]))
    outs.append(g.op("Range", [w, g.const(0), g.const(-2)]))
    hf = g.op("Cast", [h], to=FLOAT)
    outs.append(g.op("Range", [g.const(0.5, np.float32), hf, g.const(1.5, np.float32)]))
    nz = g.op("NonZero", [g.op("Greater", [x, g.const(0.0, np.float32)])])
    outs += [nz, g.op("Reshape", [nz, g.const([-1])]), g.op("Reshape", [g.op("Transpose", [nz]), g.const([-1, 2, 2])])]
    cond = g.op("Less", [g.weight(1, 1, 1, 1), g.const(0.0, np.float32)])
    col = g.op("Reshape", [g.op("Range", [g.const(0.0, np.float32), hf, g.const(1.0, np.float32)]), g.pattern(h, 1)])
    outs.append(g.op("Where", [g.op("Greater", [col, g.const(1.0, np.float32)]), g.op("ReduceMean", [x], axes=[2], keepdims=1), g.const([0.0], np.float32)]))
    outs.append(g.op("Where", [cond, x, g.const(1.0, np.float32)]))
    outs.append(g.op("Size", [x]))
    for o in outs:
        g.output(o, elem=None)
    for o in outs[:8]:
        g.output(g.flat(o), elem=None)
    g.save("ops_movement.onnx")


def ops_math():
    """Einsum (matmul, heads, ellipsis transpose, diagonal, full sum, elementwise), MatMul with
    broadcasting batch dims and 1-D operands, Gemm with transB, reductions-13 (ReduceSum axes input,
    empty axes with and without noop_with_empty_axes; other reductions with axes attributes, keepdims 0
    and 1), ArgMax/ArgMin (keepdims, select_last_index), TopK (constant and computed K, largest=0),
    GatherElements, CumSum (exclusive, reverse), Trilu, Softmax/LogSoftmax/Hardmax, variadic Sum/Max/Mean
    with broadcasting, Clip with inputs, Cast and comparisons. opset 14. a [B,T,K] (K = 6), sq [B,T,T]."""
    g = Graph("ops_math", 14)
    a = g.input("a", FLOAT, ["B", "T", 6])
    sq = g.input("sq", FLOAT, ["B", "T", "T"])
    b, t = g.dim(a, 0), g.dim(a, 1)
    outs = []
    outs.append(g.op("Einsum", [a, g.weight(6, 5)], equation="btk,km->btm"))
    heads = g.op("Reshape", [a, g.pattern(b, t, 2, 3)])
    hq = g.op("Transpose", [heads], perm=[0, 2, 1, 3])
    outs.append(g.op("Einsum", [hq, hq], equation="bhtd,bhsd->bhts"))
    outs.append(g.op("Einsum", [a], equation="...ij->...ji"))
    outs.append(g.op("Einsum", [sq], equation="bii->bi"))
    outs.append(g.op("Einsum", [a], equation="btk->"))
    outs.append(g.op("Einsum", [a, a], equation="btk,btk->bt"))
    a4 = g.unsqueeze(a, [1])
    outs.append(g.op("MatMul", [a4, g.weight(2, 6, 5)]))
    outs.append(g.op("MatMul", [a, g.weight(6)]))
    outs.append(g.op("MatMul", [g.op("ReduceMean", [a], axes=[2], keepdims=0), a]))  # [B,T] @ [B,T,6]: [B,B,6]
    outs.append(g.op("MatMul", [sq, a]))
    outs.append(g.op("Gemm", [g.op("Reshape", [a, g.const([-1, 6])]), g.weight(4, 6), g.weight(4)], transB=1))
    outs.append(g.op("ReduceSum", [a, g.const([1])], keepdims=1))
    outs.append(g.op("ReduceSum", [a, g.const(np.zeros(0, np.int64))], keepdims=0))
    outs.append(g.op("ReduceSum", [a, g.const(np.zeros(0, np.int64))], keepdims=1, noop_with_empty_axes=1))
    outs.append(g.op("ReduceSum", [a], keepdims=1))
    outs.append(g.op("ReduceMean", [a], axes=[-1], keepdims=0))
    outs.append(g.op("ReduceMax", [a], axes=[0, 2], keepdims=0))
    outs.append(g.op("ReduceL2", [a], axes=[1]))
    outs.append(g.op("ReduceLogSumExp", [a], axes=[-2, -1], keepdims=0))
    outs.append(g.op("ReduceProd", [a], keepdims=1))
    am = g.op("ArgMax", [a], axis=1, keepdims=1)
    outs += [am, g.op("ArgMax", [a], axis=1, keepdims=0)]
    outs.append(g.op("ArgMin", [a], axis=-1, keepdims=1, select_last_index=1))
    outs += g.op("TopK", [a, g.const([2])], nout=2, axis=-1)
    k = g.unsqueeze(g.op("Div", [t, g.const(2)]), [0])
    outs += g.op("TopK", [a, k], nout=2, axis=1, largest=0)
    outs.append(g.op("GatherElements", [a, am], axis=1))
    outs.append(g.op("GatherElements", [a, g.op("Slice", [am, g.const([0]), g.const([4]), g.const([2])])], axis=1))
    outs.append(g.op("CumSum", [a, g.const(1)]))
    outs.append(g.op("CumSum", [a, g.const(-1)], exclusive=1, reverse=1))
    outs.append(g.op("Trilu", [sq], upper=1))
    outs.append(g.op("Trilu", [a, g.const(-1)], upper=0))
    outs.append(g.op("Softmax", [a], axis=1))
    outs.append(g.op("LogSoftmax", [a]))
    outs.append(g.op("Hardmax", [a], axis=0))
    col = g.op("ReduceMean", [a], axes=[0, 2], keepdims=1)  # [1,T,1]
    outs.append(g.op("Sum", [a, g.weight(6), col]))
    outs.append(g.op("Max", [g.op("Reshape", [col, g.pattern(t, 1)]), g.weight(6)]))
    outs.append(g.op("Mean", [a, g.unsqueeze(g.weight(1), [0])]))
    outs.append(g.op("Clip", [a, g.const(-0.5, np.float32), g.const(0.5, np.float32)]))
    outs.append(g.op("Cast", [g.op("Equal", [am, g.const([[[0]]])])], to=INT64))
    outs.append(g.op("Not", [g.op("Greater", [sq, g.op("Transpose", [sq], perm=[0, 2, 1])])]))
    for o in outs:
        g.output(o, elem=None)
    g.output(g.flat(outs[0]))
    g.output(g.flat(outs[1], 2))
    g.save("ops_math.onnx")


def ops_conv():
    """Conv (strides, pads, dilations, group, auto_pad SAME_UPPER and VALID), ConvTranspose (strides,
    pads, output_padding, dilations, group, auto_pad SAME_UPPER), MaxPool (ceil_mode, dilations, Indices
    output, auto_pad SAME_LOWER), AveragePool (ceil_mode, count_include_pad), LpPool, GlobalMaxPool,
    GlobalAveragePool, BatchNormalization, InstanceNormalization, Resize-13 (scales: nearest, linear
    with non-integer scales; sizes computed from Shape: cubic), a flatten before Gemm. opset 13.
    x [N,3,H,W]."""
    g = Graph("ops_conv", 13)
    x = g.input("x", FLOAT, ["N", 3, "H", "W"])
    outs = []
    outs.append(g.op("Conv", [x, g.weight(4, 3, 3, 3), g.weight(4)], strides=[2, 2], pads=[1, 1, 1, 1]))
    outs.append(g.op("Conv", [x, g.weight(6, 1, 3, 3)], group=3, dilations=[2, 1], pads=[2, 0, 2, 1]))
    outs.append(g.op("Conv", [x, g.weight(4, 3, 3, 2)], strides=[2, 3], auto_pad="SAME_UPPER"))
    outs.append(g.op("Conv", [x, g.weight(2, 3, 2, 2)], auto_pad="VALID", strides=[1, 2]))
    outs.append(g.op("ConvTranspose", [x, g.weight(3, 2, 3, 3)], strides=[2, 2], pads=[1, 1, 1, 1],
                     output_padding=[1, 0]))
    outs.append(g.op("ConvTranspose", [x, g.weight(3, 1, 3, 2)], group=3, dilations=[2, 2], strides=[1, 3]))
    outs.append(g.op("ConvTranspose", [x, g.weight(3, 2, 4, 4), g.weight(2)], strides=[2, 2], auto_pad="SAME_UPPER"))
    outs.append(g.op("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1))
    outs.append(g.op("MaxPool", [x], kernel_shape=[2, 2], dilations=[2, 2], ceil_mode=1, strides=[2, 1]))
    outs += g.op("MaxPool", [x], nout=2, kernel_shape=[2, 2], strides=[2, 2])
    outs.append(g.op("MaxPool", [x], kernel_shape=[3, 2], strides=[2, 2], auto_pad="SAME_LOWER"))
    outs.append(g.op("AveragePool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1,
                     count_include_pad=0))
    outs.append(g.op("AveragePool", [x], kernel_shape=[2, 3], strides=[3, 2], ceil_mode=0, count_include_pad=1,
                     pads=[0, 1, 0, 1]))
    outs.append(g.op("LpPool", [x], kernel_shape=[2, 2], p=2, strides=[2, 2]))
    outs += [g.op("GlobalMaxPool", [x]), g.op("GlobalAveragePool", [x])]
    outs.append(g.op("BatchNormalization", [x] + [g.weight(3) for _ in range(2)] +
                     [g.const([0.0, 0.1, 0.2], np.float32), g.const([1.0, 1.0, 1.0], np.float32)]))
    outs.append(g.op("InstanceNormalization", [x, g.weight(3), g.weight(3)]))
    empty = g.const(np.zeros(0, np.float32), np.float32)
    outs.append(g.op("Resize", [x, empty, g.const([1, 1, 2, 2], np.float32)], mode="nearest"))
    outs.append(g.op("Resize", [x, empty, g.const([1, 1, 1.5, 0.5], np.float32)], mode="linear"))
    sizes = g.op("Concat", [g.dims(x, 0, 2), g.op("Mul", [g.dims(x, 2, 4), g.const([3])])], axis=0)
    outs.append(g.op("Resize", [x, empty, empty, sizes], mode="cubic"))
    outs.append(g.op("Resize", [x, empty, empty, g.pattern((g.dims(x, 0, 2),), 5, 7)], mode="nearest",
                     coordinate_transformation_mode="asymmetric", nearest_mode="floor"))
    pooled = g.op("GlobalAveragePool", [outs[0]])
    logits = g.op("Gemm", [g.op("Reshape", [pooled, g.const([0, -1])]), g.weight(4, 2)])
    for o in outs:
        g.output(o, elem=None)
    for o in outs[:8]:
        g.output(g.flat(o), elem=None)
    g.output(logits)
    g.save("ops_conv.onnx")


def ops_opset11():
    """The opset 11 forms: Squeeze/Unsqueeze with axes attributes, Split with a split attribute,
    ReduceSum with axes attribute, Resize-11 (roi, scales; sizes), Pad-11, Reshape-5 with 0 in the
    pattern, Slice-11 with negative steps, TopK-11, ArgMax-11, Range, Clip-11. x [N,3,H,W]."""
    g = Graph("ops_opset11", 11)
    x = g.input("x", FLOAT, ["N", 3, "H", "W"])
    outs = []
    u = g.unsqueeze(x, [0, 5])
    outs += [u, g.squeeze(u, [0, 5]), g.squeeze(g.op("ReduceSum", [x], axes=[0], keepdims=1), [0])]
    outs += g.op("Split", [x], nout=2, axis=1, split=[1, 2])
    outs += g.op("Split", [x], nout=3, axis=1)
    outs.append(g.op("ReduceSum", [x], axes=[2, 3], keepdims=0))
    roi = g.const(np.zeros(0, np.float32), np.float32)
    outs.append(g.op("Resize", [x, roi, g.const([1, 1, 2, 3], np.float32)], mode="nearest"))
    sizes = g.op("Concat", [g.dims(x, 0, 2), g.op("Add", [g.dims(x, 2, 4), g.const([1])])], axis=0)
    outs.append(g.op("Resize", [x, roi, g.const(np.zeros(0, np.float32), np.float32), sizes], mode="linear"))
    outs.append(g.op("Pad", [x, g.const([0, 0, 2, 0, 0, 0, 0, 1])], mode="constant"))
    outs.append(g.op("Reshape", [x, g.const([0, 0, -1])]))
    outs.append(g.op("Reshape", [x, g.pattern(g.dim(x, 0), 3, -1, 1)]))
    outs.append(g.op("Slice", [x, g.const([-1, -1]), g.const([INT64_MIN, INT64_MIN]), g.const([2, 3]),
                               g.const([-1, -2])]))
    outs += g.op("TopK", [x, g.const([2])], nout=2, axis=3)
    outs.append(g.op("ArgMax", [x], axis=2, keepdims=0))
    outs.append(g.op("Range", [g.const(1), g.dim(x, 3), g.const(2)]))
    outs.append(g.op("Clip", [x, g.const(0.0, np.float32)]))
    for o in outs:
        g.output(o, elem=None)
    g.output(g.flat(outs[0], 2))
    g.save("ops_opset11.onnx")


def ops_opset18():
    """The opset 18 forms (onnx 1.12 does not know this opset): ReduceMean/ReduceMax/ReduceProd/ReduceL1/
    ReduceSumSquare with axes as an input (including an empty axes with noop_with_empty_axes, and axes
    computed from Shape), Split-18 with num_outputs (uneven) and with split sizes, Resize-18 with axes and
    keep_aspect_ratio_policy, Pad-18 with axes, CenterCropPad-18, Reshape with allowzero=1.
    x [N,C,H,W]."""
    g = Graph("ops_opset18", 18)
    x = g.input("x", FLOAT, ["N", "C", "H", "W"])
    outs = []
    outs.append(g.op("ReduceMean", [x, g.const([2, 3])], keepdims=1))
    outs.append(g.op("ReduceMax", [x, g.const([-1])], keepdims=0))
    outs.append(g.op("ReduceProd", [x, g.const(np.zeros(0, np.int64))], noop_with_empty_axes=1))
    outs.append(g.op("ReduceL1", [x], keepdims=0))
    last = g.op("Sub", [g.op("Size", [g.op("Shape", [x])]), g.const(1)])
    outs.append(g.op("ReduceSumSquare", [x, g.unsqueeze(last, [0])], keepdims=1))
    outs += g.op("Split", [x], nout=3, axis=3, num_outputs=3)
    outs += g.op("Split", [x, g.pattern(1, g.op("Sub", [g.dim(x, 2), g.const(1)]))], nout=2, axis=2)
    outs.append(g.op("Resize", [x, "", "", g.const([10, 10])], axes=[2, 3], keep_aspect_ratio_policy="not_larger",
                     mode="nearest"))
    outs.append(g.op("Resize", [x, "", "", g.const([10, 10])], axes=[3, 2], keep_aspect_ratio_policy="not_smaller",
                     mode="linear"))
    outs.append(g.op("Resize", [x, "", g.const([2.0, 0.5], np.float32)], axes=[1, 3], mode="nearest"))
    outs.append(g.op("Pad", [x, g.const([1, 2, 3, 0]), g.const(0.0, np.float32), g.const([2, -1])]))
    outs.append(g.op("CenterCropPad", [x, g.const([3, 9])], axes=[2, 3]))
    outs.append(g.op("Reshape", [x, g.pattern(g.dim(x, 0), -1, 2)], allowzero=1))
    for o in outs:
        g.output(o, elem=None)
    g.output(g.flat(outs[0]))
    g.save("ops_opset18.onnx")


def ops_rnn():
    """Hand-built recurrent nodes in the forms torch does not write: GRU reverse with
    linear_before_reset, RNN bidirectional (Tanh, Relu) with sequence_lens and initial_h, LSTM with peepholes and all
    outputs; and, in lstm_layout1.onnx, LSTM with layout=1 (batch-first). opset 14. x [T,B,4], lens [B]
    (int32); lstm_layout1: xb [B,T,4]."""
    g = Graph("ops_rnn", 14)
    x = g.input("x", FLOAT, ["T", "B", 4])
    lens = g.input("lens", TensorProto.INT32, ["B"])
    hid = 3
    outs = []
    outs += g.op("GRU", [x, g.weight(1, 3 * hid, 4), g.weight(1, 3 * hid, hid), g.weight(1, 6 * hid)], nout=2,
                 hidden_size=hid, direction="reverse", linear_before_reset=1)
    h0 = g.op("ConstantOfShape", [g.pattern(2, g.dim(x, 1), hid)],
              value=numpy_helper.from_array(np.array([0.0], np.float32)))
    outs += g.op("RNN", [x, g.weight(2, hid, 4), g.weight(2, hid, hid), g.weight(2, 2 * hid), lens, h0], nout=2,
                 hidden_size=hid, direction="bidirectional", activations=["Tanh", "Relu"])
    outs += g.op("LSTM", [x, g.weight(1, 4 * hid, 4), g.weight(1, 4 * hid, hid), g.weight(1, 8 * hid), "", "", "",
                          g.weight(1, 3 * hid)], nout=3, hidden_size=hid)
    for o in outs:
        g.output(o)
    g.output(g.op("Reshape", [outs[2], g.pattern(g.dim(x, 0), -1)]))
    g.save("ops_rnn.onnx")

    g = Graph("lstm_layout1", 14)
    xb = g.input("xb", FLOAT, ["B", "T", 4])
    outs = g.op("LSTM", [xb, g.weight(1, 4 * hid, 4), g.weight(1, 4 * hid, hid)], nout=3, hidden_size=hid, layout=1)
    for o in outs:
        g.output(o)
    g.save("lstm_layout1.onnx")


def if_cond_batch():
    """An If whose condition has one element per batch row: Greater(ReduceMax(x, axis 1), 0), of shape [N].
    onnxruntime refuses a condition of more than one element, so the model runs only at N = 1; both
    branches are valid (each gives [N,2,2], flattened to [N,4]). opset 16. x [N,4]."""
    g = Graph("if_cond_batch", 16)
    x = g.input("x", FLOAT, ["N", 4])
    cond = g.op("Greater", [g.op("ReduceMax", [x], axes=[1], keepdims=0), g.const(0.0, np.float32)])
    t = body("if_rows/then/", 16)
    t.output(t.op("Reshape", [x, t.const([0, 2, 2])]))
    e = body("if_rows/else/", 16)
    e.output(e.op("Reshape", [e.op("Neg", [x]), e.const([0, 2, 2])]))
    r = g.op("If", [cond], name="if_rows", then_branch=t.graph(), else_branch=e.graph())
    g.output(g.flat(r))
    g.save("if_cond_batch.onnx")


def if_data_branch():
    """An If on a data input, as Silero VAD selects its branch by the sample rate: sr == 16000 folds the
    signal by 8 (Reshape [0,-1,8]: T % 8 == 0), any other rate by 6 (T % 6 == 0). Each branch fails at
    some lengths only: the model runs at T when either can (T % 8 == 0 or T % 6 == 0), and onnxruntime at
    (T, sr) when the branch sr takes can. opset 16. x [B,T], sr [] (int64)."""
    g = Graph("if_data_branch", 16)
    x = g.input("x", FLOAT, ["B", "T"])
    sr = g.input("sr", INT64, [])
    t = body("if_sr/then/", 16)
    t.output(t.op("ReduceMean", [t.op("Reshape", [x, t.const([0, -1, 8])])], axes=[2], keepdims=0))
    e = body("if_sr/else/", 16)
    e.output(e.op("ReduceMean", [e.op("Reshape", [x, e.const([0, -1, 6])])], axes=[2], keepdims=0))
    r = g.op("If", [g.op("Equal", [sr, g.const(16000)])], name="if_sr", then_branch=t.graph(),
             else_branch=e.graph())
    g.output(r)
    g.save("if_data_branch.onnx")


def const_reshape_batch():
    """The exporter's baked example size: x [N,3,4] reshaped by the constant [1,12], the output declared
    [N,12]. Runs only at N = 1. opset 14."""
    g = Graph("const_reshape_batch", 14)
    x = g.input("x", FLOAT, ["N", 3, 4])
    y = g.op("Reshape", [g.op("Relu", [x]), g.const([1, 12])], name="flatten")
    g.outputs.append(helper.make_tensor_value_info(y, FLOAT, ["N", 12]))
    g.save("const_reshape_batch.onnx")


def rcnn_transform():
    """torchvision's GeneralizedRCNNTransform as its export computes the size it resizes to, in float32:
    scale = min(320 * (1/min(H,W)), 640 * (1/max(H,W))), each side floor(side * scale), cast to int64, the
    sizes of a linear Resize; then the batch padded up to a multiple of 32 (Ceil(size / 32) * 32 in
    float32, a Pad) and a strided Conv. opset 13. image [3,H,W]."""
    g = Graph("rcnn_transform", 13)
    image = g.input("image", FLOAT, [3, "H", "W"])
    g.output(g.op("Conv", [resized_padded(g, image), g.weight(4, 3, 3, 3)], strides=[2, 2], pads=[1, 1, 1, 1]))
    g.save("rcnn_transform.onnx")


def resized_padded(g, image):
    """rcnn_transform's resize of image [3,H,W] and padding to multiples of 32: [1,3,32*a,32*b]."""
    hw = g.dims(image, -2, INT64_MAX)
    recip = [g.op("Reciprocal", [g.op("Cast", [g.op(r, [hw], keepdims=0)], to=FLOAT)]) for r in ("ReduceMin", "ReduceMax")]
    scale = g.op("Min", [g.op("Mul", [recip[0], g.const(320.0, np.float32)]),
                         g.op("Mul", [recip[1], g.const(640.0, np.float32)])])
    batch = g.unsqueeze(image, [0])
    sides = [g.op("Floor", [g.op("Mul", [g.op("Cast", [g.dim(batch, a)], to=FLOAT), scale])]) for a in (2, 3)]
    sizes = g.op("Cast", [g.op("Concat", [g.unsqueeze(s, [0]) for s in sides], axis=0)], to=INT64)
    resized = g.op("Resize", [batch, "", "", g.op("Concat", [g.dims(batch, 0, 2), sizes], axis=0)],
                   mode="linear", coordinate_transformation_mode="half_pixel")
    pads = []
    for a in (2, 3):
        d = g.dim(resized, a)
        up = g.op("Cast", [g.op("Mul", [g.op("Ceil", [g.op("Div", [g.op("Cast", [d], to=FLOAT), g.const(32.0, np.float32)])]),
                                         g.const(32.0, np.float32)])], to=INT64)
        pads.append(g.op("Sub", [up, d]))
    return g.op("Pad", [resized, g.pattern(0, 0, 0, 0, 0, 0, pads[0], pads[1])])


def rcnn_anchors():
    """The anchor bookkeeping of torchvision's retinanet and of the RPN of fasterrcnn, maskrcnn and
    keypointrcnn, after rcnn_transform's resize and padding: five levels of strides 8 to 128 (a Conv of
    stride 8, then four of stride 2), a head of 9 anchors and 2 classes per location concatenated over
    the levels; the anchors per location as the head's total over the sum of the levels' sizes (Div:
    9), each level's slice of the head's output between the sums of the counts before it (retinanet's
    split), and each level's top min(anchors, 1000) indices moved by the level's offset and
    concatenated (the RPN's). The sums repeat the same few sizes: opset 13. image [3,H,W]."""
    g = Graph("rcnn_anchors", 13)
    image = g.input("image", FLOAT, [3, "H", "W"])
    p = g.op("Conv", [resized_padded(g, image), g.weight(2, 3, 1, 1)], strides=[8, 8])
    levels = [p]
    for _ in range(4):
        p = g.op("Conv", [p, g.weight(2, 2, 3, 3)], strides=[2, 2], pads=[1, 1, 1, 1])
        levels.append(p)
    heads = [g.op("Reshape", [g.op("Transpose", [g.op("Conv", [lv, g.weight(18, 2, 3, 3)], pads=[1, 1, 1, 1])],
                                   perm=[0, 2, 3, 1]), g.const([1, -1, 2])]) for lv in levels]
    scores = g.op("Concat", heads, axis=1)
    sizes = [g.op("Mul", [g.dim(lv, 2), g.dim(lv, 3)]) for lv in levels]
    total = sizes[0]
    for s in sizes[1:]:
        total = g.op("Add", [total, s])
    per_location = g.op("Div", [g.dim(scores, 1), total])
    ends = []
    for s in sizes:
        count = g.op("Mul", [s, per_location])
        ends.append(count if not ends else g.op("Add", [ends[-1], count]))
    picked = []
    for start, end in zip([g.const(0)] + ends[:-1], ends):
        level = g.op("Slice", [scores, g.unsqueeze(start, [0]), g.unsqueeze(end, [0]), g.const([1])])
        objectness = g.op("ReduceMax", [level], axes=[2], keepdims=0)
        k = g.op("ReduceMin", [g.op("Concat", [g.const([1000]), g.unsqueeze(g.dim(objectness, 1), [0])], axis=0)],
                 keepdims=0)
        _, index = g.op("TopK", [objectness, g.unsqueeze(k, [0])], nout=2, axis=1)
        picked.append(g.op("Add", [index, start]))
    g.output(g.op("Concat", picked, axis=1), INT64)
    g.save("rcnn_anchors.onnx")


def run_order():
    """Where onnxruntime stops when several nodes refuse a binding (issue 23): its sequential executor runs
    the nodes depth first up from the last leaf, each node's producers from the last in the file first, so of
    two independent outputs the later one's nodes run first, and of two sibling branches a Concat joins, the
    one whose last node is later in the file. x [1,1,H,W]: r2 = Reshape(x, [2,-1]) (H*W even), first in the
    file; sibling Convs c1 and c2 of kernel 3 (H, W >= 3, both) joined by a Concat; last, r3 = Reshape(x,
    [3,-1]) (H*W % 3 == 0). opset 17."""
    g = Graph("run_order", 17)
    x = g.input("x", FLOAT, [1, 1, "H", "W"])
    r2 = g.op("Reshape", [x, g.const([2, -1])], name="r2")
    c1 = g.op("Conv", [x, g.weight(1, 1, 3, 3)], name="c1")
    c2 = g.op("Conv", [x, g.weight(1, 1, 3, 3)], name="c2")
    cat = g.op("Concat", [c1, c2], axis=1, name="cat")
    r3 = g.op("Reshape", [x, g.const([3, -1])], name="r3")
    for out in (r2, cat, r3):
        g.output(out)
    g.save("run_order.onnx")


def load_first():
    """An error onnx's shape inference finds when onnxruntime loads the model, which it refuses then at every
    binding, beside errors only a run meets (issue 23; torchaudio's WaveRNN export, /Unsqueeze_1): first in the
    file, u = Unsqueeze(x, [3]) of x [N,L] (axis 3 is out of range for the rank-3 output); then x through a
    sequence (SplitToSequence, ConcatFromSequence with a new axis 0: [N,1,L]) into a Split of sizes [1, 1] on
    axis 1, of size 1: an error at every binding that onnx's inference does not see, as it does not follow
    shapes through a sequence; last, ry = Reshape(y, [2,-1]) of y [B,T] (B*T even), the first a run meets.
    opset 17."""
    g = Graph("load_first", 17)
    x = g.input("x", FLOAT, ["N", "L"])
    y = g.input("y", FLOAT, ["B", "T"])
    u = g.op("Unsqueeze", [x, g.const([3])], name="u")
    seq = g.op("SplitToSequence", [x], axis=0, keepdims=1, name="to_seq")
    back = g.op("ConcatFromSequence", [seq], axis=0, new_axis=1, name="from_seq")
    parts = g.op("Split", [back, g.const([1, 1])], nout=2, axis=1, name="split")
    ry = g.op("Reshape", [y, g.const([2, -1])], name="ry")
    for out in (u, *parts, ry):
        g.output(out)
    g.save("load_first.onnx")


def never_holds():
    """A condition that no binding satisfies, found only once the conditions are minimized (issue 23; bench/random
    r0_0299): x [N,1,1,W] viewed [N,1,1,3,W//3,3] by a pattern computed from Shape, as a window partition
    exports it. Its volume needs W == 9*(W//3), which no W >= 1 satisfies: onnxruntime refuses the Reshape at
    every binding. opset 17."""
    g = Graph("never_holds", 17)
    x = g.input("x", FLOAT, ["N", 1, 1, "W"])
    third = g.unsqueeze(g.op("Div", [g.dim(x, 3), g.const(3)]), [0])
    pattern = g.op("Concat", [g.unsqueeze(g.dim(x, 0), [0]), g.const([1, 1, 3]), third, g.const([3])], axis=0)
    g.output(g.op("Reshape", [x, pattern], name="windows"))
    g.save("never_holds.onnx")


def concat_empty():
    """Concat inputs empty at a binding (issue 23): onnxruntime leaves an input with no element out of the
    comparison of the other axes, and takes the output's other dims from the first non-empty input; the
    dims along the axis still add up. x [N,1,L]; t = Tile(MaxPool(x, kernel 2, stride 2), [1,1,2]) is
    [N,1,2*(L//2)], empty at L == 1; after = Concat([x, t], axis 1) and first = Concat([t, x], axis 1) run
    exactly when L is even or L == 1 (unbound: `L == 2*(L//2) || L//2 == 0`), and give [N,2,L]. opset 17."""
    g = Graph("concat_empty", 17)
    x = g.input("x", FLOAT, ["N", 1, "L"])
    pooled = g.op("MaxPool", [x], kernel_shape=[2], strides=[2], name="pool")
    t = g.op("Tile", [pooled, g.const([1, 1, 2])], name="tile")
    after = g.op("Concat", [x, t], axis=1, name="after")
    first = g.op("Concat", [t, x], axis=1, name="first")
    for out in (after, first):
        g.output(out)
    g.save("concat_empty.onnx")


def concat_empty_load():
    """The twin of concat_empty that onnxruntime refuses at load (issue 23): x [N,1,L] beside w = Concat([s, s],
    axis 1) of s = Slice(x, from 1 on axis 2), [N,2,L-1], along axis 2: their channels, 1 and 2, are integers
    of the file, which onnx's shape inference merges and refuses when onnxruntime loads the model, at L == 1
    (w empty) as at every other L. opset 17."""
    g = Graph("concat_empty_load", 17)
    x = g.input("x", FLOAT, ["N", 1, "L"])
    s = g.op("Slice", [x, g.const([1]), g.const([INT64_MAX]), g.const([2])], name="tail")
    w = g.op("Concat", [s, s], axis=1, name="widen")
    g.output(g.op("Concat", [x, w], axis=2, name="cat"))
    g.save("concat_empty_load.onnx")


def zero_copy():
    """A computed 0 in a Reshape pattern (issue 23, bench/random r1_0168: torch's view writes H//3 from
    Shape, Gather and Div, 0 at H < 3). With allowzero 0 the 0 copies the input's dim at its index; past the
    input's rank onnxruntime refuses it; with allowzero 1 it is a 0. Each Reshape K reads its own input
    xK [N,HK,WK], so that the conditions of one do not decide another's, with q = HK//3: a0 and a1 =
    Reshape(x, [N,q,-1]) at allowzero 0 and 1; b0 and b1 = Reshape(x, [N,q,3,W]) at allowzero 0 and 1;
    c0 = Reshape(x, [N,-1,W,q]) (index 3 past x's rank 3); of e = x[:, :, 2:], [N,H,W-2], empty at W == 2,
    z0 and z1 = Reshape(e, [N,q,W-2,3]) at allowzero 0 and 1, and zm = Reshape(e, [N,q,-1]) at allowzero
    0: at W == 2 and H < 3 the copied dim H gives a valid reshape of an empty tensor. opset 14."""
    g = Graph("zero_copy", 14)

    def probe(name, allowzero, empty, parts):
        x = g.input("x" + name, FLOAT, ["N", "H" + name, "W" + name])
        if empty:
            x = g.op("Slice", [x, g.const([2]), g.const([INT64_MAX]), g.const([2])], name="e" + name)
        dims = {"N": g.dim(x, 0), "q": g.op("Div", [g.dim(x, 1), g.const(3)], name="q" + name), "W": g.dim(x, 2)}
        pattern = g.pattern(*[dims.get(p, p) for p in parts])
        g.output(g.op("Reshape", [x, pattern], name=name, allowzero=allowzero))

    for z in (0, 1):
        probe(f"a{z}", z, False, ("N", "q", -1))
        probe(f"b{z}", z, False, ("N", "q", 3, "W"))
    probe("c0", 0, False, ("N", -1, "W", "q"))
    for z in (0, 1):
        probe(f"z{z}", z, True, ("N", "q", "W", 3))
    probe("zm", 0, True, ("N", "q", -1))
    g.save("zero_copy.onnx")


def loop_iter_rank():
    """A Loop whose body declares its iteration number [1], as torch's exporter does in mvit_v1_b's
    pooling (held-out trial3): onnxruntime gives the body the rank it declares, so the starts and ends
    the body gathers by it are 1-D, as Slice takes them. Two iterations slice x [N,L] along L at
    bounds (0, 2, 4): each part [N,2], the scan output [2,N,2]; L < 4 clamps the second. opset 14."""
    g = Graph("loop_iter_rank", 14)
    x = g.input("x", FLOAT, ["N", "L"])
    lb = body("loop/", 14)
    i = lb.input("i", INT64, [1])
    cin = lb.input("cond_in", BOOL, [])
    bounds = lb.const([0, 2, 4])
    start = lb.op("Gather", [bounds, i], axis=0)
    end = lb.op("Gather", [bounds, lb.op("Add", [i, lb.const(1)])], axis=0)
    part = lb.op("Slice", [x, start, end, lb.const([1])])
    lb.outputs = [helper.make_tensor_value_info(lb.op("Identity", [cin]), BOOL, [])]
    lb.output(part)
    parts = g.op("Loop", [g.const(2), g.const(True, np.bool_)], name="loop", body=lb.graph())
    g.output(parts)
    g.save("loop_iter_rank.onnx")


def loop_scan_shape():
    """A Loop whose scan output changes shape between iterations (issue 23): x [N,L], L//2 iterations (from
    Shape), the body slicing x[:, :i+1]. onnxruntime stacks the slices only when their shapes agree
    ("Inconsistent shape in loop output"): it runs at L <= 3 (one iteration, or none at L == 1) and refuses
    from L == 4, where the second slice is [N,2]. opset 14."""
    g = Graph("loop_scan_shape", 14)
    x = g.input("x", FLOAT, ["N", "L"])
    lb = body("loop/", 14)
    i = lb.input("i", INT64, [])
    cin = lb.input("cond_in", BOOL, [])
    end = lb.op("Add", [lb.unsqueeze(i, [0]), lb.const([1])])
    part = lb.op("Slice", [x, lb.const([0]), end, lb.const([1])])
    lb.outputs = [helper.make_tensor_value_info(lb.op("Identity", [cin]), BOOL, [])]
    lb.output(part)
    trips = g.op("Div", [g.dim(x, 1), g.const(2)])
    g.output(g.op("Loop", [trips, g.const(True, np.bool_)], name="loop", body=lb.graph()))
    g.save("loop_scan_shape.onnx")


def loop_no_run():
    """A Loop that takes no iteration at some bindings (issue 23; trial5's script_chunksum_loop, torch.jit.script's
    for i in range(T//4): acc = acc + x[:, 4i:4i+4]): x [B,T,8], acc [B,4,8], T//4 iterations (from Shape). At T < 4
    the body never runs and onnxruntime returns acc, though its slice would be [B,T,8]; from T == 4 every slice is
    [B,4,8]. Runs at every binding. opset 14."""
    g = Graph("loop_no_run", 14)
    x = g.input("x", FLOAT, ["B", "T", 8])
    acc = g.input("acc", FLOAT, ["B", 4, 8])
    lb = body("loop/", 14)
    i = lb.input("i", INT64, [])
    cin = lb.input("cond_in", BOOL, [])
    a = lb.input("acc_in", FLOAT, ["B", 4, 8])
    start = lb.op("Mul", [lb.unsqueeze(i, [0]), lb.const([4])])
    part = lb.op("Slice", [x, start, lb.op("Add", [start, lb.const([4])]), lb.const([1])])
    lb.outputs = [helper.make_tensor_value_info(lb.op("Identity", [cin]), BOOL, [])]
    lb.output(lb.op("Add", [a, part]))
    trips = g.op("Div", [g.dim(x, 1), g.const(4)])
    g.output(g.op("Loop", [trips, g.const(True, np.bool_), acc], name="loop", body=lb.graph()))
    g.save("loop_no_run.onnx")


def shape_negative():
    """Shape values computed from a Shape that are negative at some bindings (issue 23), for the rules that
    take a shape from a tensor's values besides ConstantOfShape and Expand. Each probe reads its own input, so
    that the conditions of one do not decide another's; v = dim - 3 is negative at dim < 3. rs = Resize (nearest)
    of xr [N,R] to sizes [N,R-3]; mu = MaxUnpool of MaxPool(xm [N,1,M], kernel 2, stride 2) to output_shape
    [N,2,M-3]; ci = Col2Im of xc [1,1,L] (block [1,1]) to image_shape [C-3,1], from a second input zc [C]. opset 18."""
    g = Graph("shape_negative", 18)

    def less3(x, axis):
        return g.unsqueeze(g.op("Sub", [g.dim(x, axis), g.const(3)]), [0])

    xr = g.input("xr", FLOAT, ["N", "R"])
    sizes = g.op("Concat", [g.unsqueeze(g.dim(xr, 0), [0]), less3(xr, 1)], axis=0)
    g.output(g.op("Resize", [xr, "", "", sizes], name="rs", mode="nearest"))

    xm = g.input("xm", FLOAT, ["N", 1, "M"])
    pooled, idx = g.op("MaxPool", [xm], nout=2, name="pool", kernel_shape=[2], strides=[2])
    shape = g.op("Concat", [g.unsqueeze(g.dim(xm, 0), [0]), g.const([2]), less3(xm, 2)], axis=0)
    g.output(g.op("MaxUnpool", [pooled, idx, shape], name="mu", kernel_shape=[2], strides=[2]))

    xc = g.input("xc", FLOAT, [1, 1, "L"])
    zc = g.input("zc", FLOAT, ["C"])
    image = g.op("Concat", [less3(zc, 0), g.const([1])], axis=0)
    g.output(g.op("Col2Im", [xc, image, g.const([1, 1])], name="ci"))
    g.save("shape_negative.onnx")


def narrow_negative():
    """Sizes read from a tensor's values that are negative at some bindings (issue 23), for the rules that
    narrowed such a value to 0 and up without stating it: each probe reads its own input, and its value
    v = dim - 3 is negative at dim < 3. tl = Tile of xt [T] by repeats [T-3]; te = Tile of xe[2:] (E-2 long,
    empty at E <= 2) by repeats [E-4], which onnxruntime runs at an empty axis whatever the repeat, so that only
    E == 3 is refused; cc = CenterCropPad of xp [P]
    to shape [P-3]; ag = AffineGrid of a constant theta [1,2,3] to size [1,1,A-3,2]; hw = HannWindow of
    length W-3; df = DFT of a constant [1,4,1] at dft_length D-3 (input zd [D]); oh = OneHot of the
    indices [0] at depth O-3 (input xo [O]). opset 20."""
    g = Graph("narrow_negative", 20)

    def less3(x, axis):
        return g.op("Sub", [g.dim(x, axis), g.const(3)])

    xt = g.input("xt", FLOAT, ["T"])
    g.output(g.op("Tile", [xt, g.unsqueeze(less3(xt, 0), [0])], name="tl"))
    xe = g.input("xe", FLOAT, ["E"])
    tail = g.op("Slice", [xe, g.const([2]), g.const([INT64_MAX])])
    g.output(g.op("Tile", [tail, g.unsqueeze(g.op("Sub", [g.dim(xe, 0), g.const(4)]), [0])], name="te"))
    xp = g.input("xp", FLOAT, ["P"])
    g.output(g.op("CenterCropPad", [xp, g.unsqueeze(less3(xp, 0), [0])], name="cc"))
    xa = g.input("xa", FLOAT, ["A"])
    theta = g.const(np.array([[[1, 0, 0], [0, 1, 0]]]), dtype=np.float32)
    size = g.op("Concat", [g.const([1, 1]), g.unsqueeze(less3(xa, 0), [0]), g.const([2])], axis=0)
    g.output(g.op("AffineGrid", [theta, size], name="ag"))
    xw = g.input("xw", FLOAT, ["W"])
    g.output(g.op("HannWindow", [less3(xw, 0)], name="hw"))
    zd = g.input("zd", FLOAT, ["D"])
    signal = g.const(np.ones((1, 4, 1)), dtype=np.float32)
    g.output(g.op("DFT", [signal, less3(zd, 0)], name="df"))
    xo = g.input("xo", FLOAT, ["O"])
    g.output(g.op("OneHot", [g.const([0]), less3(xo, 0), g.const([0.0, 1.0], dtype=np.float32)], name="oh"))
    g.save("narrow_negative.onnx")


def unpool_empty():
    """MaxUnpool without output_shape at an empty pooled axis (issue 23): xm [N,1,M] pooled by MaxPool (kernel 2,
    stride 2) to p = M//2, 0 at M == 1, then unpooled by kernel 2, stride 2 (u2: 2*p, 0 there), kernel 3, stride 2
    (u3: 2*p+1) and kernel 3, stride 4 (u1: 4*p-1, -1 there). onnxruntime runs an output size of 0 and refuses a
    negative one. The indices are flat over the whole tensor: at an odd M with N > 1 they pass u2's output, and
    onnxruntime aborts, so the bindings keep N == 1 or M even. opset 11."""
    g = Graph("unpool_empty", 11)
    xm = g.input("xm", FLOAT, ["N", 1, "M"])
    pooled, idx = g.op("MaxPool", [xm], nout=2, name="pool", kernel_shape=[2], strides=[2])
    for name, k, stride in (("u2", 2, 2), ("u3", 3, 2), ("u1", 3, 4)):
        g.output(g.op("MaxUnpool", [pooled, idx], name=name, kernel_shape=[k], strides=[stride]))
    g.save("unpool_empty.onnx")


def plan_reuse():
    """onnxruntime's memory planner (issue 23, trialnpm's quantized ISNet): a model exported at L = 8 whose
    value_info keeps the export's static shapes, its input renamed [1,4,L]. a = Relu(x) and b = Neg(a) are
    declared [1,4,8]; rs, a Resize of b to the baked sizes [1,4,8] that y = Abs(rs) reads, is planned to take
    a's buffer, freed after b, as their declared shapes are equal. At L < 8 that buffer holds fewer elements than rs writes: onnxruntime
    fails at rs ("Shape mismatch attempting to re-use buffer"); at L > 8 it holds more, and the model runs.
    opset 13."""
    g = Graph("plan_reuse", 13)
    x = g.input("x", FLOAT, [1, 4, "L"])
    a = g.op("Relu", [x], name="a")
    b = g.op("Neg", [a], name="b")
    g.output(g.op("Abs", [g.op("Resize", [b, "", "", g.const([1, 4, 8])], name="rs", mode="nearest")], name="y"))
    declared = [helper.make_tensor_value_info(t, FLOAT, [1, 4, 8]) for t in (a, b)]
    model = helper.make_model(helper.make_graph(g.nodes, g.name, g.inputs, g.outputs, g.inits, value_info=declared),
                              opset_imports=[helper.make_opsetid("", g.opset)], producer_name="reshape bench/truth/gen_onnx.py")
    model.ir_version = 8
    path = os.path.join(OUT, "plan_reuse.onnx")
    onnx.save(model, path)
    print(f"{os.path.relpath(path, ROOT)}: {len(g.nodes)} nodes, {os.path.getsize(path)} bytes")


def copy_empty():
    """A computed 0 that copies a dim into the pattern of an empty input (issue 23, bench/random r3_0182): x
    [N,4,H,W] pooled by stride 2 on H and sliced from 1 is [N,4,h,W] with h = (H+1)//2-1, 0 at H <= 2, and
    viewed [N,h,W,4] as a Swin window partition [N,h//2,2,W//2,2,4] computed from Shape. At W == 1 pattern[3]
    is 0 and copies 4, which no non-empty input allows; at H <= 2 the input is empty, pattern[1] copies its
    0 and the copy runs: onnxruntime runs there at every W, and at even h and W. opset 14."""
    g = Graph("copy_empty", 14)
    x = g.input("x", FLOAT, ["N", 4, "H", "W"])
    pooled = g.op("MaxPool", [x], kernel_shape=[1, 1], strides=[2, 1], name="pool")
    sliced = g.op("Slice", [pooled, g.const([1]), g.const([INT64_MAX]), g.const([2])], name="slice")
    t = g.op("Transpose", [sliced], perm=[0, 2, 3, 1], name="nhwc")
    h2 = g.op("Div", [g.dim(t, 1), g.const(2)], name="h2")
    w2 = g.op("Div", [g.dim(t, 2), g.const(2)], name="w2")
    g.output(g.op("Reshape", [t, g.pattern((g.dims(t, 0, 1),), h2, 2, w2, 2, 4)], name="windows"))
    g.save("copy_empty.onnx")


def zero_copies():
    """Several computed 0s in one Reshape pattern (issue 23, bench/random seed 3's Swin windows): x
    [N,2,H,W] to [N,2,H//2,W//2,-1] from Shape, Gather and Div. At allowzero 0 each of H//2 and W//2
    is 0 at a size below 2 and copies H or W, alone or with the other; the -1 takes the rest. onnxruntime
    runs at H == 1 for W in 1..4, 6, 8 and at W == 1 for H in 1..4, where each value was stated not 0.
    opset 14."""
    g = Graph("zero_copies", 14)
    x = g.input("x", FLOAT, ["N", 2, "H", "W"])
    h2 = g.op("Div", [g.dim(x, 2), g.const(2)], name="h2")
    w2 = g.op("Div", [g.dim(x, 3), g.const(2)], name="w2")
    g.output(g.op("Reshape", [x, g.pattern((g.dims(x, 0, 2),), h2, w2, -1)], name="windows"))
    g.save("zero_copies.onnx")


GENERATORS = {
    "shape_negative": shape_negative,
    "zero_copies": zero_copies,
    "copy_empty": copy_empty,
    "never_holds": never_holds,
    "zero_copy": zero_copy,
    "loop_iter_rank": loop_iter_rank,
    "unpool_empty": unpool_empty,
    "plan_reuse": plan_reuse,
    "narrow_negative": narrow_negative,
    "loop_scan_shape": loop_scan_shape,
    "loop_no_run": loop_no_run,
    "run_order": run_order,
    "load_first": load_first,
    "concat_empty": concat_empty,
    "concat_empty_load": concat_empty_load,
    "rcnn_transform": rcnn_transform,
    "rcnn_anchors": rcnn_anchors,
    "control_flow": control_flow,
    "control_nested": control_nested,
    "ops_movement": ops_movement,
    "ops_math": ops_math,
    "ops_conv": ops_conv,
    "ops_opset11": ops_opset11,
    "ops_opset18": ops_opset18,
    "ops_rnn": ops_rnn,
    "if_cond_batch": if_cond_batch,
    "if_data_branch": if_data_branch,
    "const_reshape_batch": const_reshape_batch,
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in sys.argv[1:] or GENERATORS:
        GENERATORS[name]()


if __name__ == "__main__":
    main()
