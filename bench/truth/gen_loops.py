#!/usr/bin/python3
"""Export the scripted torch loops of testdata/models/loop_*.onnx (torch 1.13, torch.jit.script).

  cd REPO && /usr/bin/python3 bench/truth/gen_loops.py

torch scripts `for i in range(n)` with a `break` as an ONNX Loop of trip count INT64_MAX whose
condition input is n > 0 and whose body's condition is (i+1 < n) and not broken, the counter i a
loop-carried value; the statements after the `break` sit in an If on the break's condition.

  loop_break   x [B,T,5]: for each step i, stop when x[0, i, 0] > 0 (a value of the data), else add
               x[:, i:i+2] reshaped to [B,10] to a sum: the last step has one row, so a run that does not
               stop before it fails there (onnxruntime refuses at x filled with zeros, runs at ones)
"""
import torch


class Break(torch.nn.Module):
    def forward(self, x):
        acc = torch.zeros(x.shape[0], 10)
        for i in range(x.shape[1]):
            if bool(x[0, i, 0] > 0):
                break
            acc = acc + x[:, i:i + 2].reshape(x.shape[0], 10)
        return acc


def main():
    x = -torch.ones(2, 7, 5)
    x[0, 3, 0] = 1
    torch.onnx.export(torch.jit.script(Break()), (x,), "testdata/models/loop_break.onnx", input_names=["x"],
                      output_names=["y"], dynamic_axes={"x": {0: "B", 1: "T"}}, opset_version=14)


if __name__ == "__main__":
    main()
