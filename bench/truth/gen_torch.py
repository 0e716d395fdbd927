#!/usr/bin/python3
"""Export the PyTorch models of testdata/models/ with torch.onnx.export and dynamic axes.

  cd REPO && /usr/bin/python3 bench/truth/gen_torch.py [NAME...]

Models (tiny random weights, torch.manual_seed(0); names of the symbolic dims in brackets):
  bert_tiny        BERT-like encoder, opset 17 (LayerNormalization): input_ids, attention_mask [B,T]
  swin_tiny        Swin-like, opset 14: window partition/reverse, relative position bias, shifted windows
                   (torch.roll) with the attention mask computed from H and W, patch merging: x [B,3,H,W]
  rnns             LSTM (forward; 2-layer bidirectional), GRU and RNN (forward; bidirectional), opset 14: x [B,T,6]
  bert_deep_1x     bert_tiny's architecture, hidden size 4, 24 layers (thousands of nodes) for benchmarks,
  bert_deep_2x     and the same at 48 layers
  bert_deep_4x     and at 96 layers (not committed when over 2 MB: see README.md)
"""
import math
import os
import sys
import warnings

import torch
import torch.nn.functional as F
from torch import nn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "testdata", "models")


class BertSelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.o = nn.Linear(d, d)

    def split_heads(self, x):
        # Hugging Face's transpose_for_scores: the pattern is Concat(Slice(Shape(x)), constants).
        new_shape = x.size()[:-1] + (self.h, self.dh)
        return x.view(new_shape).permute(0, 2, 1, 3)

    def forward(self, x, bias):
        q, k, v = self.split_heads(self.q(x)), self.split_heads(self.k(x)), self.split_heads(self.v(x))
        att = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dh) + bias
        y = torch.matmul(att.softmax(-1), v).permute(0, 2, 1, 3).contiguous()
        y = y.view(y.size()[:-2] + (self.h * self.dh,))
        return self.o(y)


class BertLayer(nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.att = BertSelfAttention(d, heads)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff1, self.ff2 = nn.Linear(d, ff), nn.Linear(ff, d)

    def forward(self, x, bias):
        x = self.ln1(x + self.att(x, bias))
        return self.ln2(x + self.ff2(F.gelu(self.ff1(x))))


class Bert(nn.Module):
    def __init__(self, vocab=32, d=16, heads=2, ff=32, layers=2, max_pos=64):
        super().__init__()
        self.word = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_pos, d)
        self.ln = nn.LayerNorm(d)
        self.layers = nn.ModuleList(BertLayer(d, heads, ff) for _ in range(layers))
        self.pool = nn.Linear(d, d)
        self.cls = nn.Linear(d, 3)

    def forward(self, input_ids, attention_mask):
        t = input_ids.shape[1]
        pos = torch.arange(t, dtype=torch.long, device=input_ids.device).unsqueeze(0).expand_as(input_ids)
        x = self.ln(self.word(input_ids) + self.pos(pos))
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, bias)
        pooled = torch.tanh(self.pool(x[:, 0]))
        return self.cls(pooled), x.reshape(-1, x.shape[-1])


def window_partition(x, ws):
    b, h, w, c = x.shape
    x = x.view(b, h // ws, ws, w // ws, ws, c)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, c)


def window_reverse(windows, ws, h, w):
    b = windows.shape[0] // ((h // ws) * (w // ws))
    x = windows.view(b, h // ws, w // ws, ws, ws, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(b, h, w, -1)


class WindowAttention(nn.Module):
    def __init__(self, d, ws, heads):
        super().__init__()
        self.ws, self.h = ws, heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.table = nn.Parameter(torch.randn((2 * ws - 1) ** 2, heads) * 0.02)
        coords = torch.stack(torch.meshgrid(torch.arange(ws), torch.arange(ws), indexing="ij")).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0).contiguous()
        rel[:, :, 0] += ws - 1
        rel[:, :, 1] += ws - 1
        rel[:, :, 0] *= 2 * ws - 1
        self.register_buffer("index", rel.sum(-1))

    def forward(self, x, mask):
        bw, n, c = x.shape
        qkv = self.qkv(x).reshape(bw, n, 3, self.h, c // self.h).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        att = (q * (c // self.h) ** -0.5) @ k.transpose(-2, -1)
        bias = self.table[self.index.view(-1)].view(self.ws * self.ws, self.ws * self.ws, -1)
        att = att + bias.permute(2, 0, 1).contiguous().unsqueeze(0)
        if mask is not None:
            nw = mask.shape[0]
            att = att.view(bw // nw, nw, self.h, n, n) + mask.unsqueeze(1).unsqueeze(0)
            att = att.view(-1, self.h, n, n)
        y = (att.softmax(-1) @ v).transpose(1, 2).reshape(bw, n, c)
        return self.proj(y)


class SwinBlock(nn.Module):
    def __init__(self, d, heads, ws, shift):
        super().__init__()
        self.ws, self.shift = ws, shift
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = WindowAttention(d, ws, heads)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def shift_mask(self, h, w):
        # Region ids of the shifted layout from comparisons on Range, so that H and W stay symbolic.
        ws, s = self.ws, self.shift
        hid = (torch.arange(h) >= h - ws).long() + (torch.arange(h) >= h - s).long()
        wid = (torch.arange(w) >= w - ws).long() + (torch.arange(w) >= w - s).long()
        img = (hid[:, None] * 3 + wid[None, :]).to(torch.float32)
        mw = window_partition(img[None, :, :, None], ws).view(-1, ws * ws)
        diff = mw.unsqueeze(1) - mw.unsqueeze(2)
        return torch.where(diff != 0, torch.full_like(diff, -100.0), torch.zeros_like(diff))

    def forward(self, x, h, w):
        b, l, c = x.shape
        y = self.n1(x).view(b, h, w, c)
        mask = None
        if self.shift:
            y = torch.roll(y, shifts=(-self.shift, -self.shift), dims=(1, 2))
            mask = self.shift_mask(h, w)
        win = window_partition(y, self.ws).view(-1, self.ws * self.ws, c)
        win = self.attn(win, mask).view(-1, self.ws, self.ws, c)
        y = window_reverse(win, self.ws, h, w)
        if self.shift:
            y = torch.roll(y, shifts=(self.shift, self.shift), dims=(1, 2))
        x = x + y.view(b, h * w, c)
        return x + self.mlp(self.n2(x))


class PatchMerging(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(4 * d)
        self.red = nn.Linear(4 * d, 2 * d, bias=False)

    def forward(self, x, h, w):
        b, l, c = x.shape
        x = x.view(b, h, w, c)
        x = torch.cat([x[:, 0::2, 0::2], x[:, 1::2, 0::2], x[:, 0::2, 1::2], x[:, 1::2, 1::2]], -1)
        return self.red(self.norm(x.view(b, -1, 4 * c)))


class Swin(nn.Module):
    def __init__(self, d=8, heads=2, ws=2, patch=2, classes=5):
        super().__init__()
        self.embed = nn.Conv2d(3, d, patch, patch)
        self.s1 = nn.ModuleList([SwinBlock(d, heads, ws, 0), SwinBlock(d, heads, ws, 1)])
        self.merge = PatchMerging(d)
        self.s2 = nn.ModuleList([SwinBlock(2 * d, heads, ws, 0), SwinBlock(2 * d, heads, ws, 1)])
        self.norm = nn.LayerNorm(2 * d)
        self.head = nn.Linear(2 * d, classes)

    def forward(self, img):
        x = self.embed(img)
        h, w = x.shape[2], x.shape[3]
        x = x.flatten(2).transpose(1, 2)
        for blk in self.s1:
            x = blk(x, h, w)
        x = self.merge(x, h, w)
        h, w = h // 2, w // 2
        for blk in self.s2:
            x = blk(x, h, w)
        x = self.norm(x)
        return self.head(x.mean(1)), x


class RNNs(nn.Module):
    def __init__(self, f=6, hid=5):
        super().__init__()
        self.lstm = nn.LSTM(f, hid, batch_first=True)
        self.lstm_bi = nn.LSTM(f, hid, num_layers=2, batch_first=True, bidirectional=True)
        self.gru = nn.GRU(f, hid, batch_first=True)
        self.gru_bi = nn.GRU(f, hid, batch_first=True, bidirectional=True)
        self.rnn = nn.RNN(f, hid, batch_first=True)
        self.rnn_bi = nn.RNN(f, hid, nonlinearity="relu", bidirectional=True)  # time-major

    def forward(self, x):
        a, (ha, ca) = self.lstm(x)
        b, (hb, cb) = self.lstm_bi(x)
        h0 = torch.zeros(1, x.shape[0], 5)
        c, hc = self.gru(x, h0)
        d, hd = self.gru_bi(x)
        e, he = self.rnn(x)
        f, hf = self.rnn_bi(x.transpose(0, 1))
        seq = torch.cat([a, b, c, d, e, f.transpose(0, 1)], -1)
        states = torch.cat([ha, ca, hb, cb, hc, hd, he, hf], 0)
        return seq.reshape(seq.shape[0], -1), states.permute(1, 0, 2).reshape(x.shape[0], -1)


def export(model, args, names, dynamic, path, opset):
    torch.manual_seed(0)
    model.eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, args, path, input_names=names[0], output_names=names[1],
                          dynamic_axes=dynamic, opset_version=opset, do_constant_folding=True)
    print(f"{os.path.relpath(path, ROOT)}: {os.path.getsize(path)} bytes")


def bert(name, **kw):
    torch.manual_seed(0)
    m = Bert(**kw)
    ids = torch.randint(0, 32, (2, 7))
    mask = torch.ones(2, 7, dtype=torch.long)
    export(m, (ids, mask), (["input_ids", "attention_mask"], ["logits", "hidden"]),
           {"input_ids": {0: "B", 1: "T"}, "attention_mask": {0: "B", 1: "T"}},
           os.path.join(OUT, f"{name}.onnx"), 17)


def swin():
    torch.manual_seed(0)
    export(Swin(), (torch.randn(2, 3, 24, 16),), (["x"], ["logits", "features"]),
           {"x": {0: "B", 2: "H", 3: "W"}}, os.path.join(OUT, "swin_tiny.onnx"), 14)


def rnns():
    torch.manual_seed(0)
    export(RNNs(), (torch.randn(2, 7, 6),), (["x"], ["seq", "states"]), {"x": {0: "B", 1: "T"}},
           os.path.join(OUT, "rnns.onnx"), 14)


GENERATORS = {
    "bert_tiny": lambda: bert("bert_tiny"),
    "swin_tiny": swin,
    "rnns": rnns,
    "bert_deep_1x": lambda: bert("bert_deep_1x", d=4, heads=2, ff=8, layers=24),
    "bert_deep_2x": lambda: bert("bert_deep_2x", d=4, heads=2, ff=8, layers=48),
    "bert_deep_4x": lambda: bert("bert_deep_4x", d=4, heads=2, ff=8, layers=96),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in sys.argv[1:] or GENERATORS:
        GENERATORS[name]()


if __name__ == "__main__":
    main()
