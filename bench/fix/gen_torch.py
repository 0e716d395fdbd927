#!/usr/bin/python3
"""Export the PyTorch models that bench/fix/verify.py adds to the grids (testdata/models/):

  attn_baked  an attention block whose views take the batch from x.data.size(0) (baked: the export's
              1) and the length from x.shape[1] (traced), as exports of transformers at batch 1 do:
              q, k and v by view(bs, t, 2, 4), the heads merged back by reshape(bs, t, 8); opset 14,
              x [B,T,8]. Each of its four Reshapes forces B == 1.
  mha_enc     a post-norm encoder layer on nn.MultiheadAttention (16 wide, 4 heads of 4), exported
              at a fixed size (T=10, B=2, no dynamic axes) and its input and output renamed [T,B,16]:
              q, k and v by [10,8,4], the heads merged back by [20,16], the batch split off by
              [10,2,16] (issue 27).
  mha_encdec  nn.Transformer (16 wide, 4 heads, one encoder and one decoder layer) at S=10, T=7,
              B=2, renamed src [S,B,16], tgt [T,B,16], y [T,B,16]: self- and cross-attention.

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


class MHAEncoder(nn.Module):
    def __init__(self, d=16, heads=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, x):
        a, _ = self.attn(x, x, x, need_weights=False)
        x = self.n1(x + a)
        return self.n2(x + self.ff(x))


class EncDec(nn.Module):
    def __init__(self, d=16, heads=4):
        super().__init__()
        self.t = nn.Transformer(d_model=d, nhead=heads, num_encoder_layers=1, num_decoder_layers=1,
                                dim_feedforward=2 * d, dropout=0.0)

    def forward(self, src, tgt):
        return self.t(src, tgt)


def rename(path, dims):
    """Rewrite the declared dims of the graph inputs and outputs named in dims as the symbols given."""
    import onnx
    m = onnx.load(path)
    for vi in list(m.graph.input) + list(m.graph.output):
        for d, w in zip(vi.type.tensor_type.shape.dim, dims.get(vi.name, ())):
            if isinstance(w, str):
                d.Clear()
                d.dim_param = w
    onnx.save(m, path)


def export(name, model, args, inputs, axes=None, dims=None):
    torch.manual_seed(0)
    model = model().eval()
    path = os.path.join(ROOT, "testdata", "models", name + ".onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, args(), path, input_names=inputs, output_names=["y"], dynamic_axes=axes,
                          opset_version=14, do_constant_folding=True)
    if dims:
        rename(path, dims)
    print(f"{os.path.relpath(path, ROOT)}: {os.path.getsize(path)} bytes")


def main():
    export("attn_baked", AttnBaked, lambda: (torch.randn(1, 5, 8),), ["x"],
           axes={"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T"}})
    export("mha_enc", MHAEncoder, lambda: (torch.randn(10, 2, 16),), ["x"],
           dims={"x": ["T", "B"], "y": ["T", "B"]})
    export("mha_encdec", EncDec, lambda: (torch.randn(10, 2, 16), torch.randn(7, 2, 16)), ["src", "tgt"],
           dims={"src": ["S", "B"], "tgt": ["T", "B"], "y": ["T", "B"]})


if __name__ == "__main__":
    main()
