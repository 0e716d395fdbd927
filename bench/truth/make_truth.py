#!/usr/bin/python3
"""Write testdata/truth/<model>.<label>.json for every case of cases.py (or those matching a regexp).

  cd REPO && /usr/bin/python3 bench/truth/make_truth.py [REGEXP]
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402
import truth  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))


def fixture_path(model, label):
    stem = os.path.splitext(os.path.basename(model))[0]
    return os.path.join(ROOT, "testdata", "truth", f"{stem}.{label}.json")


def main():
    pat = re.compile(sys.argv[1]) if len(sys.argv) > 1 else None
    for model, label, dims, inputs, fills in cases.SHARED_CASES + cases.GENERATED_CASES:
        out = fixture_path(model, label)
        if pat and not pat.search(os.path.basename(out)):
            continue
        path = os.path.join(ROOT, model)
        if not os.path.exists(path):
            print(f"{model}: missing, skipped", file=sys.stderr)
            continue
        fx = truth.record(path, out, dims=dims, inputs=inputs, fills=fills, model_label=model)
        rel = os.path.relpath(out, ROOT)
        if fx["ok"]:
            nb = sum(len(b["shapes"]) for b in fx["branches"])
            print(f"{rel}: {len(fx['shapes'])} tensors, {len(fx['branches'])} branches ({nb} tensors)")
        else:
            where = ", ".join(f["name"] for f in fx.get("failed_nodes", [])) or "load"
            print(f"{rel}: onnxruntime fails at {where}: {fx['error'].splitlines()[0][:160]}")


if __name__ == "__main__":
    main()
