#!/usr/bin/python3
"""The peer figure: what onnx's own shape inference determines about every Reshape output.

For each model of cases.py this runs onnx.shape_inference.infer_shapes(model, strict_mode=False,
data_prop=True) with the installed onnx (1.12, Debian python3-onnx), after clearing the declared shapes of
the graph outputs (exporters write placeholder dim_params there, such as "Reshapeout_dim_0", which would
otherwise count as determined). For every Reshape node, subgraphs included (If branches, Loop and Scan
bodies), it records each output dim as onnx 1.12 leaves it: an integer (dim_value), a string (dim_param) or
null. A dim counts as determined when it is an integer or one of the model's own symbols (a dim_param of a
graph input); the fresh symbols that onnx makes up for unknown dims ("unk__3") are counted apart. It checks
each dim against the truth fixtures of testdata/truth/ (an integer must equal the true dim; a
dim_param that is a bound symbol must equal its binding). Writes testdata/truth/onnx112_<model>.json and
prints a summary table.

  cd REPO && /usr/bin/python3 bench/truth/onnx112.py [REGEXP]
"""
import glob
import json
import os
import re
import sys

import onnx
from onnx import numpy_helper, shape_inference

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))


def const_lengths(g, known):
    """Lengths of the 1-D constant tensors of g (initializers and Constant nodes), added to known."""
    for t in g.initializer:
        if len(t.dims) == 1:
            known[t.name] = t.dims[0]
    for n in g.node:
        if n.op_type == "Constant":
            for a in n.attribute:
                if a.name == "value" and len(a.t.dims) == 1:
                    known[n.output[0]] = a.t.dims[0]
                elif a.name == "value_ints":
                    known[n.output[0]] = len(a.ints)
    return known


def reshapes(g, path, outer_lengths, out):
    """Append (path, node, value_info of its output or None, pattern length or None) for every Reshape.
    The pattern length comes from a constant pattern or from the pattern's inferred shape."""
    lengths = const_lengths(g, dict(outer_lengths))
    vis = {v.name: v for v in list(g.value_info) + list(g.output) + list(g.input)}
    for name, v in vis.items():
        d = dims_of(v)
        if d is not None and len(d) == 1 and isinstance(d[0], int):
            lengths.setdefault(name, d[0])
    for n in g.node:
        label = n.name or f"{n.op_type}({n.output[0]})"
        if n.op_type == "Reshape":
            out.append((f"{path}{label}", n, vis.get(n.output[0]), lengths.get(n.input[1])))
        for a in n.attribute:
            subs = ([a.g] if a.type == onnx.AttributeProto.GRAPH else []) + list(a.graphs)
            for sg in subs:
                reshapes(sg, f"{path}{label}/{a.name}/", lengths, out)
    return out


def dims_of(vi):
    if vi is None or not vi.type.tensor_type.HasField("shape"):
        return None
    res = []
    for d in vi.type.tensor_type.shape.dim:
        if d.HasField("dim_value"):
            res.append(d.dim_value)
        elif d.HasField("dim_param") and d.dim_param:
            res.append(d.dim_param)
        else:
            res.append(None)
    return res


def truth_shapes(stem):
    """[(label, binding, {tensor: dims})] of the model's successful truth fixtures, branches included."""
    res = []
    for f in sorted(glob.glob(os.path.join(ROOT, "testdata", "truth", f"{stem}.*.json"))):
        fx = json.load(open(f))
        if "shapes" not in fx:
            continue
        sh = dict(fx["shapes"])
        for b in fx.get("branches", []):
            sh.update(b["shapes"])
        label = os.path.basename(f)[len(stem) + 1:-len(".json")]
        res.append((label, fx["binding"], sh))
    return res


def analyse(model_path):
    stem = os.path.splitext(os.path.basename(model_path))[0]
    m = onnx.load(model_path)
    for o in m.graph.output:
        o.type.tensor_type.ClearField("shape")
    err = None
    try:
        im = shape_inference.infer_shapes(m, strict_mode=False, data_prop=True)
    except Exception as e:  # onnx 1.12 refuses opsets it does not know, for one
        err = f"{type(e).__name__}: {e}".strip()
        im = m
    own = {d.dim_param for v in m.graph.input for d in v.type.tensor_type.shape.dim if d.dim_param}
    truths = truth_shapes(stem)
    rows = []
    tot = det_int = det_sym = fresh = wrong = no_rank = 0
    for path, node, vi, plen in reshapes(im.graph, "", {}, []):
        dims = dims_of(vi)
        true = [(label, sh[node.output[0]]) for label, _, sh in truths if node.output[0] in sh]
        rank = len(true[0][1]) if true else (len(dims) if dims is not None else plen)
        row = {"path": path, "output": node.output[0], "rank": rank, "onnx112": dims}
        if true:
            row["truth"] = {label: d for label, d in true}
        bad = []
        if dims is not None:
            for i, d in enumerate(dims):
                for label, binding, sh in truths:
                    t = sh.get(node.output[0])
                    if t is None:
                        continue
                    if len(t) != len(dims):
                        bad.append(f"{label}: rank {len(dims)}, true rank {len(t)}")
                        break
                    want = binding.get(d) if isinstance(d, str) else d
                    if want is not None and want != t[i]:
                        bad.append(f"{label}: dim {i} = {d}, true {t[i]}")
        if bad:
            row["contradicted"] = bad
            wrong += 1
        if rank is not None:
            tot += rank
        else:
            no_rank += 1
        if dims is not None:
            det_int += sum(isinstance(d, int) for d in dims)
            det_sym += sum(isinstance(d, str) and d in own for d in dims)
            fresh += sum(isinstance(d, str) and d not in own for d in dims)
        rows.append(row)
    main = sum(1 for n in m.graph.node if n.op_type == "Reshape")
    summary = {
        "model": stem,
        "onnx": onnx.__version__,
        "call": "infer_shapes(model, strict_mode=False, data_prop=True), graph output shapes cleared",
        "error": err,
        "reshape_nodes": len(rows),
        "reshape_nodes_main_graph": main,
        "reshape_nodes_in_subgraphs": len(rows) - main,
        "output_dims": tot,
        "reshapes_of_unknown_rank": no_rank,
        "determined": det_int + det_sym,
        "determined_integer": det_int,
        "determined_symbol": det_sym,
        "fresh_symbol": fresh,
        "reshapes_contradicted_by_truth": wrong,
        "truth_fixtures": [label for label, _, _ in truths],
        "reshapes": rows,
    }
    if err is None:
        del summary["error"]
    return summary


def write(summary, f):
    """JSON with one key, and one Reshape, per line."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in summary.items() if k != "reshapes"]
    rows = ",\n".join(f"    {json.dumps(r)}" for r in summary["reshapes"])
    lines.append('  "reshapes": [' + (f"\n{rows}\n  ]" if rows else "]"))
    text = "{\n" + ",\n".join(lines) + "\n}\n"
    json.loads(text)
    f.write(text)


def main():
    pat = re.compile(sys.argv[1]) if len(sys.argv) > 1 else None
    seen = []
    for model, *_ in cases.SHARED_CASES + cases.GENERATED_CASES + [(p,) for p in cases.EXTRA_MODELS]:
        if model not in seen:
            seen.append(model)
    print(f"{'model':22} {'Reshapes (main+sub)':>20} {'out dims':>9} {'onnx 1.12':>10} {'int':>5} {'sym':>5} "
          f"{'%':>5} {'unk__':>6} {'wrong':>6}")
    for model in seen:
        stem = os.path.splitext(os.path.basename(model))[0]
        if pat and not pat.search(stem):
            continue
        path = os.path.join(ROOT, model)
        if not os.path.exists(path):
            print(f"{model}: missing, skipped", file=sys.stderr)
            continue
        s = analyse(path)
        with open(os.path.join(ROOT, "testdata", "truth", f"onnx112_{stem}.json"), "w") as f:
            write(s, f)
        pct = f"{100 * s['determined'] / s['output_dims']:.0f}%" if s["output_dims"] else "-"
        n = f"{s['reshape_nodes']} ({s['reshape_nodes_main_graph']}+{s['reshape_nodes_in_subgraphs']})"
        note = "  onnx error: " + s["error"].splitlines()[0][:80] if "error" in s else ""
        if s["reshapes_of_unknown_rank"]:
            note += f"  (+{s['reshapes_of_unknown_rank']} Reshapes of unknown rank)"
        print(f"{stem:22} {n:>20} {s['output_dims']:>9} {s['determined']:>10} {s['determined_integer']:>5} "
              f"{s['determined_symbol']:>5} {pct:>5} {s['fresh_symbol']:>6} {s['reshapes_contradicted_by_truth']:>6}{note}")


if __name__ == "__main__":
    main()
