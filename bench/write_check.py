#!/usr/bin/python3
"""Checks what `reshape shapes --write` writes against onnx 1.12's own shape inference.

For every model given (default: ../shared/realdata/onnx/*.onnx and testdata/models/*.onnx), it runs
`reshape shapes --write OUT.onnx MODEL.onnx`, then
  - onnx.checker.check_model(OUT, full_check=True) must accept OUT (full_check runs onnx's strict
    shape inference over it, so every written shape must agree with onnx's);
  - counts the shaped names of OUT: the graph inputs, outputs and value_info entries, of the main
    graph and of every subgraph, whose tensor type has a shape; and the same count in what
    onnx.shape_inference.infer_shapes makes of MODEL (what MODEL declares, where onnx refuses it).
    Ours must be at least onnx's.
With --dim/--input arguments after "--", they are passed to `reshape shapes` (the bound model is
then compared with onnx's inference of the original, whose input shapes are the unbound ones).

Usage: bench/write_check.py [--reshape BIN] [MODEL.onnx...] [-- reshape shapes flags]
Needs Debian's python3 with onnx 1.12; a cross-check for developers, not a test dependency.
"""
import os, subprocess, sys, tempfile, glob
import onnx
from onnx import shape_inference


def shaped(graph):
    """The shaped names of a graph and its subgraphs."""
    n = 0
    for vi in list(graph.input) + list(graph.output) + list(graph.value_info):
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape"):
            n += 1
    for node in graph.node:
        for a in node.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                n += shaped(a.g)
            elif a.type == onnx.AttributeProto.GRAPHS:
                n += sum(shaped(g) for g in a.graphs)
    return n


def main(argv):
    cmd = ["go", "run", "./cmd/reshape"]
    flags = []
    if "--" in argv:
        i = argv.index("--")
        argv, flags = argv[:i], argv[i + 1:]
    if argv[:1] == ["--reshape"]:
        cmd, argv = [argv[1]], argv[2:]
    models = argv or sorted(glob.glob("../shared/realdata/onnx/*.onnx")) + sorted(glob.glob("testdata/models/*.onnx"))
    failed = 0
    print("%-32s %8s %8s  %s" % ("model", "ours", "onnx", "checker (full_check)"))
    with tempfile.TemporaryDirectory() as d:
        for path in models:
            out = os.path.join(d, os.path.basename(path))
            r = subprocess.run(cmd + ["shapes", "--quiet", "--write", out] + flags + [path], capture_output=True, text=True)
            if not os.path.exists(out):
                failed += 1
                print("%-32s %8s %8s  not written: exit %d %s" % (os.path.basename(path), "-", "-", r.returncode, r.stderr.strip()))
                continue
            try:
                theirs = shaped(shape_inference.infer_shapes(onnx.load(path)).graph)
            except Exception:  # onnx refuses the model (stale.onnx): count what it declares
                theirs = shaped(onnx.load(path).graph)
            ours = shaped(onnx.load(out).graph)
            try:
                onnx.checker.check_model(out, full_check=True)
                verdict = "ok"
            except Exception as e:  # the checker's own exception types vary by version
                verdict = "FAIL " + str(e).splitlines()[0][:160]
            ok = verdict == "ok" and ours >= theirs
            failed += not ok
            print("%-32s %8d %8d  %s%s" % (os.path.basename(path), ours, theirs, verdict, "" if ours >= theirs else "  FEWER SHAPES"))
    print("%d of %d models written, accepted by onnx.checker (full_check) and with at least onnx's shapes" % (len(models) - failed, len(models)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
