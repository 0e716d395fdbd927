"""Writes the small OpenVINO IR networks (IR v11, .xml and .bin) that the tests of graph, check,
fix and cmd/reshape run on:

  graph/testdata/ir/ti_rnn.xml       a TensorIterator over x [2,?,16] sliced along axis 1 (a part
                                     of 1 per iteration), with a hidden state h [2,32] that a back
                                     edge carries: its outputs are the states of every iteration
                                     concatenated along axis 1, [2,T,32], and the last state [2,32].
  graph/testdata/ir/ti_reverse.xml   the same, iterating from the end (start=-1, end=0, stride=-1).
  graph/testdata/ir/loop_rows.xml    a Loop whose trip count is x's row count, read from its shape
                                     (ShapeOf, Gather), over x [?,8] sliced along axis 0: it sums the
                                     rows into acc [1,8] (a back edge) and stacks each row, [N,8]; its
                                     body counts the iterations (current_iteration) and says go on
                                     (a true execution_condition).
  graph/testdata/ir/if_branches.xml  an If on a boolean input whose then_body reshapes x [B,T] by
                                     [0,-1,8] and whose else_body by [0,-1,6].
  testdata/ir/baked_flatten.xml      image [1,3,8,8] -> Convolution -> ReLU -> Reshape by the
                                     constant [1,256] -> MatMul by a [256,10] weight: the Reshape's
                                     pattern bakes the batch of 1.
  testdata/ir/baked_merge.xml        x [1,3,?,?,5,?,?] (exported at 1x3x4x4x5x4x4) reshaped by the
                                     constant [1,3,16,5,16], merging the two pairs of dynamic dims,
                                     then SoftMax along axis 1: the pattern bakes the batch of 1 and
                                     both products of 16.
  testdata/ir/absorb_batch.xml       x [1,4,6] reshaped by [1,-1] (the 1 the batch, baked) to [1,24],
                                     then SoftMax along axis 1: at a batch of N the -1 absorbs it,
                                     [1,24*N], and the SoftMax mixes the samples.
  testdata/ir/global_pool_fc.xml     image [1,3,7,7] -> Convolution -> AvgPool of kernel 7x7 (a global
                                     pool at 7x7 only) -> Reshape by [1,-1] -> MatMul by an [8,5]
                                     weight: at batch N the weight's 8 rows fix N == 1 (a MatMul
                                     of a constant operand), at H x W the pool's window fixes 7x7.

Every port declares its dims, as OpenVINO writes them at the export; constants are in the .bin.
Run from the repository root: python3 bench/gen_ir_models.py
"""
import struct
from xml.sax.saxutils import quoteattr

PRECISION = {"f32": "FP32", "i64": "I64", "i32": "I32", "boolean": "BOOL"}
PACK = {"f32": "f", "i64": "q", "i32": "i", "boolean": "?"}


class Bin:
    def __init__(self):
        self.data = bytearray()

    def add(self, et, values):
        while len(self.data) % 8:
            self.data.append(0)
        offset = len(self.data)
        self.data += struct.pack("<%d%s" % (len(values), PACK[et]), *values)
        return offset, len(self.data) - offset


class Net:
    """A network or a body: layers with ports, and edges."""

    def __init__(self, bin_):
        self.bin = bin_
        self.layers = []  # (id, xml text)
        self.edges = []
        self.ports = {}  # (layer id, port id) -> (element type, dims)

    def _add(self, type_, name, inputs, outputs, data=None, version="opset1", extra=""):
        lid = len(self.layers)
        lines = ['<layer id="%d" name=%s type="%s" version="%s">' % (lid, quoteattr(name), type_, version)]
        if data is not None:
            lines.append("<data %s/>" % " ".join("%s=%s" % (k, quoteattr(str(v))) for k, v in data.items()))
        if inputs:
            lines.append("<input>")
            for k, src in enumerate(inputs):
                _, dims = self.ports[src]
                lines.append('<port id="%d">%s</port>' % (k, dims_xml(dims)))
                self.edges.append((src[0], src[1], lid, k))
            lines.append("</input>")
        outs = []
        if outputs:
            lines.append("<output>")
            for k, (et, dims) in enumerate(outputs):
                pid = len(inputs) + k
                lines.append('<port id="%d" precision="%s">%s</port>' % (pid, PRECISION[et], dims_xml(dims)))
                self.ports[(lid, pid)] = (et, dims)
                outs.append((lid, pid))
            lines.append("</output>")
        lines.append(extra)
        lines.append("</layer>")
        self.layers.append((lid, "\n".join(l for l in lines if l)))
        return outs

    def param(self, name, et, dims):
        shape = ",".join("?" if d == -1 else str(d) for d in dims)
        return self._add("Parameter", name, [], [(et, dims)], {"shape": shape, "element_type": et})[0]

    def const(self, name, et, dims, values):
        offset, size = self.bin.add(et, values)
        data = {"element_type": et, "shape": ",".join(map(str, dims)), "offset": offset, "size": size}
        return self._add("Const", name, [], [(et, dims)], data)[0]

    def op(self, type_, name, inputs, outputs, data=None, version="opset1", extra=""):
        return self._add(type_, name, inputs, outputs, data, version, extra)

    def result(self, name, src):
        return self._add("Result", name, [src], [])

    def xml(self):
        layers = "\n".join(t for _, t in self.layers)
        edges = "\n".join('<edge from-layer="%d" from-port="%d" to-layer="%d" to-port="%d"/>' % e for e in self.edges)
        return "<layers>\n%s\n</layers>\n<edges>\n%s\n</edges>" % (layers, edges)


def dims_xml(dims):
    return "".join("<dim>%s</dim>" % (-1 if d == -1 else d) for d in dims)


def body_xml(tag, body):
    return "<%s>\n%s\n</%s>" % (tag, body.xml(), tag)


def port_map(tag, inputs, outputs):
    """inputs and outputs: (external port, internal layer id, extra attributes)."""
    lines = ["<%s>" % tag]
    for ext, lid, attrs in inputs:
        lines.append('<input external_port_id="%d" internal_layer_id="%d"%s/>' % (ext, lid, attrs_xml(attrs)))
    for ext, lid, attrs in outputs:
        lines.append('<output external_port_id="%d" internal_layer_id="%d"%s/>' % (ext, lid, attrs_xml(attrs)))
    lines.append("</%s>" % tag)
    return "\n".join(lines)


def attrs_xml(attrs):
    return "".join(" %s=%s" % (k, quoteattr(str(v))) for k, v in (attrs or {}).items())


def back_edges(edges):
    return "<back_edges>\n%s\n</back_edges>" % "\n".join(
        '<edge from-layer="%d" from-port="0" to-layer="%d" to-port="0"/>' % e for e in edges)


def save(path, name, net):
    text = '<?xml version="1.0"?>\n<net name="%s" version="11">\n%s\n</net>\n' % (name, net.xml())
    with open(path + ".xml", "w") as f:
        f.write(text)
    with open(path + ".bin", "wb") as f:
        f.write(net.bin.data)


def step_body(b, state, dims):
    """The body of a TensorIterator over the steps of x [2,T,16]: its part x_t [2,1,16] (id 0), a
    state of the given dims (id 1), and x_t flattened to [2,16] (ids 2 and 3)."""
    body = Net(b)
    xt = body.param("x_t", "f32", [2, 1, 16])
    st = body.param(state, "f32", dims)
    pat = body.const("flat", "i64", [2], [0, 16])
    flat = body.op("Reshape", "x_t/flat", [xt, pat], [("f32", [2, 16])], {"special_zero": "true"})[0]
    return body, st, flat


def ti(path, reverse):
    b = Bin()
    net = Net(b)
    x = net.param("x", "f32", [2, -1, 16])
    h0 = net.param("h0", "f32", [2, 32])
    body, h, flat = step_body(b, "h", [2, 32])
    w = body.const("w", "f32", [16, 32], [0.0] * 512)
    mm = body.op("MatMul", "x_t/w", [flat, w], [("f32", [2, 32])], {"transpose_a": "false", "transpose_b": "false"})[0]
    add = body.op("Add", "h_next", [mm, h], [("f32", [2, 32])], {"auto_broadcast": "numpy"})[0]
    body.result("h_next/result", add)  # id 7
    axes = body.const("axes", "i64", [1], [1])
    y = body.op("Unsqueeze", "y_t", [add, axes], [("f32", [2, 1, 32])])[0]
    body.result("y_t/result", y)  # id 10
    slicing = {"axis": 1, "start": 0, "end": -1, "stride": 1, "part_size": 1}
    if reverse:
        slicing = {"axis": 1, "start": -1, "end": 0, "stride": -1, "part_size": 1}
    extra = "\n".join([
        port_map("port_map", [(0, 0, slicing), (1, 1, None)], [(2, 10, slicing), (3, 7, None)]),
        back_edges([(7, 1)]),
        body_xml("body", body),
    ])
    outs = net.op("TensorIterator", "rnn", [x, h0], [("f32", [2, -1, 32]), ("f32", [2, 32])], extra=extra)
    net.result("ys", outs[0])
    net.result("h_last", outs[1])
    save(path, "ti_rnn", net)


def loop(path):
    b = Bin()
    net = Net(b)
    x = net.param("x", "f32", [-1, 8])
    shape = net.op("ShapeOf", "rows/shape", [x], [("i64", [2])], {"output_type": "i64"}, "opset3")[0]
    idx = net.const("rows/index", "i64", [], [0])
    ax = net.const("rows/axis", "i64", [], [0])
    rows = net.op("Gather", "rows", [shape, idx, ax], [("i64", [])], {"batch_dims": 0}, "opset8")[0]
    cond = net.const("go", "boolean", [], [True])
    acc0 = net.const("acc0", "f32", [1, 8], [0.0] * 8)
    body = Net(b)
    body.param("i", "i64", [])  # id 0: current_iteration
    row = body.param("row", "f32", [1, 8])  # id 1
    acc = body.param("acc", "f32", [1, 8])  # id 2
    s = body.op("Add", "acc_next", [acc, row], [("f32", [1, 8])], {"auto_broadcast": "numpy"})[0]
    body.result("acc_next/result", s)  # id 4
    body.result("row/result", row)  # id 5
    true = body.const("more", "boolean", [], [True])
    body.result("more/result", true)  # id 7
    extra = "\n".join([
        port_map("port_map",
                 [(2, 1, {"axis": 0}), (3, 2, None), (-1, 0, {"purpose": "current_iteration"})],
                 [(4, 4, None), (5, 5, {"axis": 0}), (-1, 7, {"purpose": "execution_condition"})]),
        back_edges([(4, 2)]),
        body_xml("body", body),
    ])
    outs = net.op("Loop", "sum_rows", [rows, cond, x, acc0], [("f32", [1, 8]), ("f32", [-1, 8])], version="opset5", extra=extra)
    net.result("sum", outs[0])
    net.result("stacked", outs[1])
    save(path, "loop_rows", net)


def if_branches(path):
    b = Bin()
    net = Net(b)
    x = net.param("x", "f32", [-1, -1])
    flag = net.param("flag", "boolean", [])
    bodies = []
    for tag, group in (("then_body", 8), ("else_body", 6)):
        body = Net(b)
        a = body.param("a", "f32", [-1, -1])
        pat = body.const("pattern", "i64", [3], [0, -1, group])
        r = body.op("Reshape", "split%d" % group, [a, pat], [("f32", [-1, -1, group])], {"special_zero": "true"})[0]
        body.result("out", r)
        bodies.append((tag, body))
    extra = "\n".join([
        port_map("then_port_map", [(1, 0, None)], [(0, 3, None)]),
        port_map("else_port_map", [(1, 0, None)], [(0, 3, None)]),
        body_xml(*bodies[0]),
        body_xml(*bodies[1]),
    ])
    out = net.op("If", "pick", [flag, x], [("f32", [-1, -1, -1])], version="opset8", extra=extra)[0]
    net.result("y", out)
    save(path, "if_branches", net)


def baked_flatten(path):
    b = Bin()
    net = Net(b)
    x = net.param("image", "f32", [1, 3, 8, 8])
    w = net.const("conv/w", "f32", [4, 3, 3, 3], [0.01 * (i % 7) for i in range(108)])
    conv = net.op("Convolution", "conv", [x, w], [("f32", [1, 4, 8, 8])],
                  {"strides": "1,1", "dilations": "1,1", "pads_begin": "1,1", "pads_end": "1,1", "auto_pad": "explicit"})[0]
    relu = net.op("ReLU", "relu", [conv], [("f32", [1, 4, 8, 8])])[0]
    pat = net.const("flatten/pattern", "i64", [2], [1, 256])
    flat = net.op("Reshape", "flatten", [relu, pat], [("f32", [1, 256])], {"special_zero": "false"})[0]
    fc = net.const("fc/w", "f32", [256, 10], [0.001 * (i % 13) for i in range(2560)])
    logits = net.op("MatMul", "fc", [flat, fc], [("f32", [1, 10])], {"transpose_a": "false", "transpose_b": "false"})[0]
    net.result("logits", logits)
    save(path, "baked_flatten", net)


def baked_merge(path):
    b = Bin()
    net = Net(b)
    x = net.param("x", "f32", [1, 3, -1, -1, 5, -1, -1])
    pat = net.const("merge/pattern", "i64", [5], [1, 3, 16, 5, 16])
    merged = net.op("Reshape", "merge", [x, pat], [("f32", [1, 3, 16, 5, 16])], {"special_zero": "false"})[0]
    sm = net.op("SoftMax", "probs", [merged], [("f32", [1, 3, 16, 5, 16])], {"axis": 1}, version="opset8")[0]
    net.result("probs", sm)
    save(path, "baked_merge", net)


def absorb(path):
    b = Bin()
    net = Net(b)
    x = net.param("x", "f32", [1, 4, 6])
    pat = net.const("rows/pattern", "i64", [2], [1, -1])
    flat = net.op("Reshape", "rows", [x, pat], [("f32", [1, 24])], {"special_zero": "false"})[0]
    sm = net.op("SoftMax", "probs", [flat], [("f32", [1, 24])], {"axis": 1})[0]
    net.result("probs", sm)
    save(path, "absorb_batch", net)


def global_pool_fc(path):
    b = Bin()
    net = Net(b)
    x = net.param("image", "f32", [1, 3, 7, 7])
    w = net.const("conv/w", "f32", [8, 3, 3, 3], [0.01 * (i % 5) for i in range(216)])
    conv = net.op("Convolution", "conv", [x, w], [("f32", [1, 8, 7, 7])],
                  {"strides": "1,1", "dilations": "1,1", "pads_begin": "1,1", "pads_end": "1,1", "auto_pad": "explicit"})[0]
    pool = net.op("AvgPool", "pool", [conv], [("f32", [1, 8, 1, 1])],
                  {"strides": "1,1", "pads_begin": "0,0", "pads_end": "0,0", "kernel": "7,7", "exclude-pad": "true",
                   "rounding_type": "floor", "auto_pad": "explicit"})[0]
    pat = net.const("flatten/pattern", "i64", [2], [1, -1])
    flat = net.op("Reshape", "flatten", [pool, pat], [("f32", [1, 8])], {"special_zero": "false"})[0]
    fc = net.const("fc/w", "f32", [8, 5], [0.1 * (i % 3) for i in range(40)])
    logits = net.op("MatMul", "fc", [flat, fc], [("f32", [1, 5])], {"transpose_a": "false", "transpose_b": "false"})[0]
    net.result("logits", logits)
    save(path, "global_pool_fc", net)


def loop_iter(path, until):
    """A Loop over the rows of x [2,T,8] (trip count T from ShapeOf) whose body gathers row i of x
    (Gather-7 at its current_iteration i, which needs i <= T-1) and appends it to a carried [2,i,8]
    (Concat), and stacks the rows (a concatenated output), as OpenVINO's type_prop loop.cpp builds
    its loops. With until, it gathers row i+1 too (which the last iteration cannot) and its
    execution_condition is ReduceSum(row i) > 0, a value of the data: a run stops before the last
    row, or fails there."""
    b = Bin()
    net = Net(b)
    x = net.param("x", "f32", [2, -1, 8])
    acc0 = net.param("acc0", "f32", [2, 0, 8])
    shape = net.op("ShapeOf", "rows/shape", [x], [("i64", [3])], {"output_type": "i64"}, "opset3")[0]
    idx = net.const("rows/index", "i64", [], [1])
    ax = net.const("rows/axis", "i64", [], [0])
    rows = net.op("Gather", "rows", [shape, idx, ax], [("i64", [])], {"batch_dims": 0}, "opset8")[0]
    cond = net.const("go", "boolean", [], [True])
    body = Net(b)
    i = body.param("i", "i64", [1])  # id 0: current_iteration
    xb = body.param("x_b", "f32", [2, -1, 8])  # id 1
    acc = body.param("acc", "f32", [2, -1, 8])  # id 2
    axis = body.const("axis", "i64", [], [1])
    row = body.op("Gather", "row", [xb, i, axis], [("f32", [2, 1, 8])], {"batch_dims": 0}, "opset7")[0]
    grown = body.op("Concat", "acc_next", [acc, row], [("f32", [2, -1, 8])], {"axis": 1})[0]
    acc_id = len(body.layers)
    body.result("acc_next/result", grown)
    row_id = len(body.layers)
    body.result("row/result", row)
    if until:
        one = body.const("one", "i64", [1], [1])
        i1 = body.op("Add", "i+1", [i, one], [("i64", [1])], {"auto_broadcast": "numpy"})[0]
        nxt = body.op("Gather", "next", [xb, i1, axis], [("f32", [2, 1, 8])], {"batch_dims": 0}, "opset7")[0]
        body.result("next/result", nxt)
        axes = body.const("all", "i64", [3], [0, 1, 2])
        total = body.op("ReduceSum", "row/sum", [row, axes], [("f32", [])], {"keep_dims": "false"})[0]
        zero = body.const("zero", "f32", [], [0.0])
        more = body.op("Greater", "more", [total, zero], [("boolean", [])], {"auto_broadcast": "numpy"})[0]
    else:
        more = body.const("more", "boolean", [], [True])
    cond_id = len(body.layers)
    body.result("more/result", more)
    extra = "\n".join([
        port_map("port_map",
                 [(2, 1, None), (3, 2, None), (-1, 0, {"purpose": "current_iteration"})],
                 [(4, acc_id, None), (5, row_id, {"axis": 1}), (-1, cond_id, {"purpose": "execution_condition"})]),
        back_edges([(acc_id, 2)]),
        body_xml("body", body),
    ])
    outs = net.op("Loop", "rows_loop", [rows, cond, x, acc0], [("f32", [2, -1, 8]), ("f32", [2, -1, 8])],
                  version="opset5", extra=extra)
    net.result("acc", outs[0])
    net.result("stacked", outs[1])
    save(path, "loop_until" if until else "loop_iter", net)


def ti_grow(path):
    """A TensorIterator over the time steps of x [2,T,16] (sliced along axis 1) whose body appends
    each step, flattened to [2,16], to a carried [2,16*i] (Concat along axis 1): the carried value
    grows by 16 per iteration, to [2,16*T], as in OpenVINO's type_prop tensor_iterator.cpp."""
    b = Bin()
    net = Net(b)
    x = net.param("x", "f32", [2, -1, 16])
    acc0 = net.param("acc0", "f32", [2, 0])
    body, acc, flat = step_body(b, "acc", [2, -1])
    grown = body.op("Concat", "acc_next", [acc, flat], [("f32", [2, -1])], {"axis": 1})[0]
    body.result("acc_next/result", grown)  # id 5: the layers above are 0 to 4
    slicing = {"axis": 1, "start": 0, "end": -1, "stride": 1, "part_size": 1}
    extra = "\n".join([
        port_map("port_map", [(0, 0, slicing), (1, 1, None)], [(2, 5, None)]),
        back_edges([(5, 1)]),
        body_xml("body", body),
    ])
    out = net.op("TensorIterator", "steps", [x, acc0], [("f32", [2, -1])], extra=extra)[0]
    net.result("all", out)
    save(path, "ti_grow", net)


if __name__ == "__main__":
    ti("graph/testdata/ir/ti_rnn", False)
    ti("graph/testdata/ir/ti_reverse", True)
    loop("graph/testdata/ir/loop_rows")
    loop_iter("graph/testdata/ir/loop_iter", False)
    loop_iter("graph/testdata/ir/loop_until", True)
    ti_grow("graph/testdata/ir/ti_grow")
    if_branches("graph/testdata/ir/if_branches")
    baked_flatten("testdata/ir/baked_flatten")
    baked_merge("testdata/ir/baked_merge")
    absorb("testdata/ir/absorb_batch")
    global_pool_fc("testdata/ir/global_pool_fc")
