"""Lists every operator that onnx 1.12's schemas define, at each version of its domain, for package
graph's test that each has a rule (TestEveryONNX112Operator): graph/testdata/onnx112_schemas.tsv.

    /usr/bin/python3 bench/signatures/schemas.py > graph/testdata/onnx112_schemas.tsv

A row "DOMAIN OP VERSION" (the default domain written ai.onnx) says that the opset VERSION of DOMAIN has
OP: a schema of OP whose since_version is at most VERSION, the latest of them not deprecated. Versions run
from 1 to the last that onnx 1.12 knows of the domain: 17 of the default domain, 3 of ai.onnx.ml, 1 of
ai.onnx.preview.training.
"""
import collections

import onnx
from onnx import defs

DOMAINS = ("", "ai.onnx.ml", "ai.onnx.preview.training")


def main():
    history = collections.defaultdict(list)
    for s in defs.get_all_schemas_with_history():
        if s.domain in DOMAINS:
            history[(s.domain, s.name)].append(s)
    last = {d: max(s.since_version for (dom, _), ss in history.items() if dom == d for s in ss) for d in DOMAINS}
    print(f"# every operator of onnx {onnx.__version__}'s schemas at each version of its domain: DOMAIN OP VERSION")
    print("# (bench/signatures/schemas.py)")
    for (domain, op), schemas in sorted(history.items()):
        for v in range(1, last[domain] + 1):
            at = [s for s in schemas if s.since_version <= v]
            if at and not max(at, key=lambda s: s.since_version).deprecated:
                print(f"{domain or 'ai.onnx'}\t{op}\t{v}")


if __name__ == "__main__":
    main()
