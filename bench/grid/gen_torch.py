#!/usr/bin/python3
"""Export the PyTorch models of the binding grids (testdata/models/) with torch.onnx.export and dynamic axes.

Each model carries one of the patterns that make an exported model run at some input sizes only, as
users meet them (the bindings where onnxruntime refuses each are in testdata/grid/<model>.json):

  yolo_head       YOLO-style detection head, opset 14: x [N,3,H,W]. Level 1 reshapes by
                  view(bs, na, no, ny, nx) with bs, ny, nx from x.data.size() (baked to the constant
                  [1,3,7,8,8] of the export at 1x3x16x16); level 2 takes the batch and grid from x.shape
                  (traced) but adds a grid offset baked at the export size ([1,1,4,4,2]).
  channel_shuffle ShuffleNet's channel shuffle with the batch from x.data.size(0) (baked: 1) and H, W
                  traced, opset 14: x [N,8,H,W].
  swin_window     Swin-style windows with the resolution from the config (4x4 tokens, windows of 2):
                  view(-1, H*W, C) and the window partition with constant H, W; the batch from x.shape,
                  opset 14: x [B,3,H,W] (patches of 4).
  speech_fold4    a speech front end that folds time by 4: view(b, t // 4, 4 * d) with b, t traced,
                  opset 14: x [B,T,8].
  conformer_sub   Conformer's Conv2dSubsampling (two 3x3 convolutions of stride 2, no padding), then
                  view(b, t, c * f), opset 14: x [B,T,16].
  vit_posemb      a ViT with a class token and a learned position embedding of fixed length 17 (4x4
                  patches of 4 pixels, trained at 16x16), opset 14: x [N,3,H,W].
  cnn_stride      a CNN whose stride chain gives (H+1)//4-2 (conv 3 stride 2, conv 3 stride 2 pad 1,
                  conv 3), then global pooling, opset 13: x [N,1,H,W].
  unet_skip       a UNet of depth 5 (max pooling by 2, nearest upsampling by 2, a skip Concat per
                  level), opset 13: x [N,1,H,W].
  unet_pad        a UNet step whose upsampled map is padded back to the skip's size by
                  F.pad(u, [dx // 2, dx - dx // 2, dy // 2, dy - dy // 2]) (pads computed from the
                  shapes: a crop of 1 where H or W is odd), opset 13: x [N,4,H,W].
  detr_queries    a DETR-like decoder with 10 learned queries; the export declares the output boxes
                  [N,N,4] (dynamic_axes naming both axes N), where onnxruntime gives [N,10,4], opset 14:
                  x [N,3,H,W].
  flat_matmul     x.view(1, -1) (the constant pattern [1,-1]) followed by a MatMul with a [48,5] weight,
                  opset 14: x [N,3,4,4].
  gru_state       a GRU whose initial state is made with the export's batch (3) as a Python int: the
                  exporter Expands it to the traced batch (B in {1, 3}) before the GRU, which needs its
                  batch (B == 3), opset 14: x [B,T,8].

  cd REPO && /usr/bin/python3 bench/grid/gen_torch.py [NAME...]

Tiny widths, torch.manual_seed(0): running it again gives byte-identical files.
"""
import os
import sys
import warnings

import torch
import torch.nn.functional as F
from torch import nn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "testdata", "models")


class YoloHead(nn.Module):
    def __init__(self, nc=2, na=3, ch=4):
        super().__init__()
        self.na, self.no = na, nc + 5
        self.stem = nn.Conv2d(3, ch, 3, 2, 1)
        self.down = nn.Conv2d(ch, ch, 3, 2, 1)
        self.m1 = nn.Conv2d(ch, na * self.no, 1)
        self.m2 = nn.Conv2d(ch, na * self.no, 1)
        # The grid offsets of level 2, computed once for the export size (4x4), as YOLO caches them.
        yv, xv = torch.meshgrid(torch.arange(4), torch.arange(4), indexing="ij")
        self.register_buffer("grid2", torch.stack((xv, yv), 2).view(1, 1, 4, 4, 2).float())

    def forward(self, x):
        p1 = self.stem(x)
        p2 = self.down(p1)
        # Level 1: every size baked, as x.data.size() gives Python ints at trace time.
        bs, _, ny, nx = p1.data.size()
        y1 = self.m1(p1).view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
        # Level 2: batch and grid traced, the grid offsets baked.
        b2, _, ny2, nx2 = p2.shape
        y2 = self.m2(p2).view(b2, self.na, self.no, ny2, nx2).permute(0, 1, 3, 4, 2).contiguous()
        xy2 = y2[..., :2].sigmoid() + self.grid2
        y2 = torch.cat((xy2, y2[..., 2:]), -1)
        return y1.view(bs, -1, self.no), y2.view(b2, -1, self.no)


class ChannelShuffle(nn.Module):
    def __init__(self, c=8, groups=2):
        super().__init__()
        self.g = groups
        self.conv = nn.Conv2d(c, c, 1)

    def forward(self, x):
        x = self.conv(x)
        bs = x.data.size(0)  # baked: the export batch
        c, h, w = x.shape[1], x.shape[2], x.shape[3]
        x = x.view(bs, self.g, c // self.g, h, w).transpose(1, 2).contiguous()
        return x.view(bs, -1, h, w)


class SwinWindow(nn.Module):
    def __init__(self, d=8, res=4, ws=2, heads=2, classes=3):
        super().__init__()
        self.res, self.ws, self.d = res, ws, d
        self.embed = nn.Conv2d(3, d, 4, 4)
        self.norm = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.head = nn.Linear(d, classes)

    def forward(self, img):
        x = self.embed(img).flatten(2).transpose(1, 2)  # [B, h*w, d]
        b = x.shape[0]
        h = w = self.res  # the resolution of the config, not of the input
        x = self.norm(x).view(-1, h * w, self.d)
        ws = self.ws
        win = x.view(-1, h // ws, ws, w // ws, ws, self.d).permute(0, 1, 3, 2, 4, 5).reshape(-1, ws * ws, self.d)
        win, _ = self.attn(win, win, win, need_weights=False)
        x = win.view(-1, h // ws, w // ws, ws, ws, self.d).permute(0, 1, 3, 2, 4, 5).reshape(-1, h * w, self.d)
        x = x.view(b, -1, self.d)
        return self.head(x.mean(1)), x


class SpeechFold4(nn.Module):
    def __init__(self, f=8, d=4):
        super().__init__()
        self.d = d
        self.proj = nn.Linear(f, d)
        self.out = nn.Linear(4 * d, 3)

    def forward(self, x):
        b, t = x.shape[0], x.shape[1]
        y = self.proj(x).view(b, t // 4, 4 * self.d)  # four frames per step
        return self.out(y)


class ConformerSub(nn.Module):
    def __init__(self, f=16, c=2, d=4):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, c, 3, 2), nn.ReLU(), nn.Conv2d(c, c, 3, 2), nn.ReLU())
        self.out = nn.Linear(c * (((f - 1) // 2 - 1) // 2), d)

    def forward(self, x):
        x = self.conv(x.unsqueeze(1))  # [B, c, T', F']
        b, c, t, f = x.size()
        return self.out(x.transpose(1, 2).contiguous().view(b, t, c * f))


class ViTPosEmb(nn.Module):
    def __init__(self, d=8, patch=4, img=16, heads=2, classes=3):
        super().__init__()
        n = (img // patch) ** 2
        self.embed = nn.Conv2d(3, d, patch, patch)
        self.cls = nn.Parameter(torch.randn(1, 1, d) * 0.02)
        self.pos = nn.Parameter(torch.randn(1, n + 1, d) * 0.02)
        self.block = nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.0, batch_first=True)
        self.head = nn.Linear(d, classes)

    def forward(self, img):
        x = self.embed(img).flatten(2).transpose(1, 2)
        x = torch.cat((self.cls.expand(x.shape[0], -1, -1), x), 1) + self.pos
        return self.head(self.block(x)[:, 0])


class CNNStride(nn.Module):
    def __init__(self, c=2, classes=3):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(1, c, 3, 2), nn.ReLU(), nn.Conv2d(c, c, 3, 2, 1), nn.ReLU(),
                               nn.Conv2d(c, c, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(c, classes)

    def forward(self, x):
        return self.head(self.f(x).flatten(1))


class UNetSkip(nn.Module):
    def __init__(self, c=2, depth=5):
        super().__init__()
        self.inc = nn.Conv2d(1, c, 3, 1, 1)
        self.down = nn.ModuleList(nn.Conv2d(c, c, 3, 1, 1) for _ in range(depth))
        self.up = nn.ModuleList(nn.Conv2d(2 * c, c, 3, 1, 1) for _ in range(depth))
        self.outc = nn.Conv2d(c, 1, 1)

    def forward(self, x):
        x = F.relu(self.inc(x))
        skips = []
        for conv in self.down:
            skips.append(x)
            x = F.relu(conv(F.max_pool2d(x, 2)))
        for conv, skip in zip(self.up, reversed(skips)):
            x = F.interpolate(x, scale_factor=2.0, mode="nearest")
            x = F.relu(conv(torch.cat((skip, x), 1)))
        return self.outc(x)


class UNetPad(nn.Module):
    def __init__(self, c=4):
        super().__init__()
        self.down = nn.Conv2d(c, c, 3, stride=2, padding=1)
        self.up = nn.ConvTranspose2d(c, c, 2, stride=2)

    def forward(self, x):
        u = self.up(self.down(x))
        dy, dx = x.size(2) - u.size(2), x.size(3) - u.size(3)
        u = F.pad(u, [dx // 2, dx - dx // 2, dy // 2, dy - dy // 2])
        return torch.cat([x, u], dim=1)


class DETRQueries(nn.Module):
    def __init__(self, d=8, queries=10, heads=2):
        super().__init__()
        self.backbone = nn.Conv2d(3, d, 4, 4)
        self.query = nn.Parameter(torch.randn(queries, d) * 0.02)
        self.dec = nn.TransformerDecoderLayer(d, heads, 2 * d, dropout=0.0, batch_first=True)
        self.box = nn.Linear(d, 4)

    def forward(self, img):
        mem = self.backbone(img).flatten(2).transpose(1, 2)
        n = mem.shape[0]
        q = self.query.unsqueeze(0).expand(n, -1, -1)
        h = self.dec(q, mem)
        return self.box(h).sigmoid().reshape(n, -1, 4)


class FlatMatMul(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(48, 5) * 0.1)

    def forward(self, x):
        return torch.matmul(x.view(1, -1), self.w)


class GRUState(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(8, 12, batch_first=True)

    def forward(self, x):
        y, _ = self.gru(x, torch.zeros(1, 3, 12))
        return y


def export(model, args, names, dynamic, name, opset):
    torch.manual_seed(0)
    model.eval()
    path = os.path.join(OUT, f"{name}.onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, args, path, input_names=names[0], output_names=names[1],
                          dynamic_axes=dynamic, opset_version=opset, do_constant_folding=True)
    print(f"{os.path.relpath(path, ROOT)}: {os.path.getsize(path)} bytes")


def image_model(name, model, shape, names, out_axes, opset=14, dims=("N", "H", "W")):
    torch.manual_seed(0)
    m = model()
    dyn = {"x": {axis: d for axis, d in zip((0, 2, 3), dims) if d}}
    dyn.update(out_axes)
    export(m, (torch.randn(*shape),), (["x"], names), dyn, name, opset)


def sequence_model(name, model, shape, out_axes):
    torch.manual_seed(0)
    dyn = {"x": {0: "B", 1: "T"}}
    dyn.update(out_axes)
    export(model(), (torch.randn(*shape),), (["x"], ["y"]), dyn, name, 14)


GENERATORS = {
    "yolo_head": lambda: image_model("yolo_head", YoloHead, (1, 3, 16, 16), ["p1", "p2"],
                                     {"p1": {0: "N", 1: "A1"}, "p2": {0: "N", 1: "A2"}}),
    "channel_shuffle": lambda: image_model("channel_shuffle", ChannelShuffle, (1, 8, 6, 6), ["y"],
                                           {"y": {0: "N", 2: "H", 3: "W"}}),
    "swin_window": lambda: image_model("swin_window", SwinWindow, (1, 3, 16, 16), ["logits", "tokens"],
                                       {"logits": {0: "B"}, "tokens": {0: "B", 1: "L"}}, dims=("B", "H", "W")),
    "speech_fold4": lambda: sequence_model("speech_fold4", SpeechFold4, (2, 12, 8), {"y": {0: "B", 1: "T4"}}),
    "conformer_sub": lambda: sequence_model("conformer_sub", ConformerSub, (2, 20, 16), {"y": {0: "B", 1: "T4"}}),
    "vit_posemb": lambda: image_model("vit_posemb", ViTPosEmb, (2, 3, 16, 16), ["logits"], {"logits": {0: "N"}}),
    "cnn_stride": lambda: image_model("cnn_stride", CNNStride, (2, 1, 23, 19), ["logits"], {"logits": {0: "N"}},
                                      opset=13),
    "unet_skip": lambda: image_model("unet_skip", UNetSkip, (1, 1, 64, 32), ["y"], {"y": {0: "N", 2: "H", 3: "W"}},
                                     opset=13),
    "unet_pad": lambda: image_model("unet_pad", UNetPad, (1, 4, 9, 11), ["y"], {"y": {0: "N", 2: "H", 3: "W"}},
                                    opset=13),
    "detr_queries": lambda: image_model("detr_queries", DETRQueries, (2, 3, 16, 16), ["boxes"],
                                        {"boxes": {0: "N", 1: "N"}}),
    "flat_matmul": lambda: image_model("flat_matmul", FlatMatMul, (1, 3, 4, 4), ["y"], {}, dims=("N", None, None)),
    "gru_state": lambda: sequence_model("gru_state", GRUState, (3, 5, 8), {"y": {0: "B", 1: "T"}}),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in sys.argv[1:] or GENERATORS:
        GENERATORS[name]()


if __name__ == "__main__":
    main()
