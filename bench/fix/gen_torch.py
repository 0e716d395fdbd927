#!/usr/bin/python3
"""Export the PyTorch model that bench/fix/verify.py adds to the grids (testdata/models/):

  attn_baked  an attention block whose views take the batch from x.data.size(0) (baked: the export's
              1) and the length from x.shape[1] (traced), as exports of transformers at batch 1 do:
              q, k and v by view(bs, t, 2, 4), the heads merged back by reshape(bs, t, 8); opset 14,
              x [B,T,8]. Each of its four Reshapes forces B == 1.

  cd REPO && /usr/bin/python3 bench/fix/gen_torch.py

Tiny widths, torch.manual_seed(0): running it again gives a byte-identical file.
"""
import os
import warnings

import torch
from torch import nn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class AttnBaked(nn.Module):
    def __init__(self, d=8, heads=2):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))

    def forward(self, x):
        bs = x.data.size(0)  # baked: the export batch
        t = x.shape[1]  # traced
        q, k, v = (f(x).view(bs, t, self.h, self.dh).transpose(1, 2) for f in (self.q, self.k, self.v))
        a = torch.softmax(q @ k.transpose(-1, -2) / self.dh ** 0.5, -1) @ v
        return self.o(a.transpose(1, 2).reshape(bs, t, self.h * self.dh))


def main():
    torch.manual_seed(0)
    model = AttnBaked().eval()
    path = os.path.join(ROOT, "testdata", "models", "attn_baked.onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (torch.randn(1, 5, 8),), path, input_names=["x"], output_names=["y"],
                          dynamic_axes={"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T"}}, opset_version=14,
                          do_constant_folding=True)
    print(f"{os.path.relpath(path, ROOT)}: {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
