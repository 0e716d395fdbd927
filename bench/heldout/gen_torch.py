#!/usr/bin/python3
"""Export the PyTorch models of the held-out sets (torchvision 0.14, torchaudio 0.13, torch 1.13).

Every model is built with random weights (torch.manual_seed(0); nothing is downloaded) in eval mode and
exported by torch.onnx.export, each in its own process with a time limit, into DIR/NAME.onnx. Kinds:

  dynamic   dynamic_axes name the batch and the sizes (N, H, W; batch, height, width; B, T, L; ...);
  static    exported at one size, then the graph input's dims renamed to symbols and the output's batch
            renamed alike, as a user who edits a model's declared sizes does (issue 23, item 5): the
            exported graph keeps the sizes it was traced at;
  baked     a module whose sizes the export bakes in (nn.MultiheadAttention, TransformerEncoder at a fixed
            size, a state of fixed batch), exported at one size with its inputs renamed to symbols.

  /usr/bin/python3 bench/heldout/gen_torch.py [--out DIR] [--timeout S] [NAME...]

DIR defaults to /work/heldout/models. DIR/exports.json records per model its export time (s), size,
sha256, opset and the error of an export that failed. Exports of the same name are deterministic (seeded
weights): running one again gives a byte-identical file.
"""
import argparse
import json
import os
import subprocess
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import trialseq  # noqa: E402
import trial3  # noqa: E402
import trial4  # noqa: E402
import trial5  # noqa: E402


def _tv():
    import torchvision
    return torchvision


def classify(arch, **kw):
    return lambda: getattr(_tv().models, arch)(weights=None, **kw)


# --- wrappers -------------------------------------------------------------------------------------------

def wrappers():
    import torch
    from torch import nn
    import torch.nn.functional as F

    class SegOut(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            return self.m(x)["out"]

    class Detect(nn.Module):
        """One image [3,H,W] in, the first image's boxes, scores and labels out."""

        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            d = self.m([x])[0]
            return d["boxes"], d["scores"], d["labels"]

    class Flow(nn.Module):
        def __init__(self, m, updates):
            super().__init__()
            self.m, self.updates = m, updates

        def forward(self, a, b):
            return self.m(a, b, num_flow_updates=self.updates)[-1]

    class MHAEncoder(nn.Module):
        """A post-norm encoder layer on a sequence-first [T,B,64] input, nn.MultiheadAttention (4 heads)."""

        def __init__(self):
            super().__init__()
            self.attn = nn.MultiheadAttention(64, 4)
            self.ff = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64))
            self.n1, self.n2 = nn.LayerNorm(64), nn.LayerNorm(64)

        def forward(self, x):
            a, _ = self.attn(x, x, x, need_weights=False)
            x = self.n1(x + a)
            return self.n2(x + self.ff(x))

    class EncDec(nn.Module):
        def __init__(self):
            super().__init__()
            self.t = nn.Transformer(d_model=64, nhead=4, num_encoder_layers=1, num_decoder_layers=1,
                                    dim_feedforward=128, dropout=0.0)

        def forward(self, src, tgt):
            return self.t(src, tgt)

    class ReflectStack(nn.Module):
        """1-D: reflection pads before each strided Conv, and a Concat of a Conv path and a pooled path."""

        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv1d(1, 8, 7, stride=2)
            self.c2 = nn.Conv1d(8, 8, 5, stride=2)
            self.c3 = nn.Conv1d(8, 8, 3, stride=2)
            self.c4 = nn.Conv1d(16, 8, 17)

        def forward(self, x):
            a = torch.relu(self.c1(F.pad(x, (3, 3), mode="reflect")))
            b = torch.relu(self.c2(F.pad(a, (2, 2), mode="reflect")))
            c = self.c3(F.pad(b, (1, 1), mode="reflect"))
            p = F.avg_pool1d(b, 2, 2)
            y = torch.cat([c, p], 1)
            return self.c4(F.pad(y, (8, 8), mode="reflect"))

    class ReflectStack2d(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(3, 8, 5, stride=2)
            self.c2 = nn.Conv2d(8, 8, 3, stride=2)
            self.c3 = nn.Conv2d(16, 8, 7)

        def forward(self, x):
            a = torch.relu(self.c1(F.pad(x, (2, 2, 2, 2), mode="reflect")))
            b = self.c2(F.pad(a, (1, 1, 1, 1), mode="reflect"))
            p = F.max_pool2d(a, 2, 2)
            y = torch.cat([b, p], 1)
            return self.c3(F.pad(y, (3, 3, 3, 3), mode="reflect"))

    class SpeechFlatten(nn.Module):
        """A Conv1d front end on [B,40,T], flattened after the batch into a Linear made for T = 50."""

        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv1d(40, 16, 5, stride=2)
            self.c2 = nn.Conv1d(16, 8, 3, stride=2)
            self.fc = nn.Linear(8 * 11, 10)

        def forward(self, x):
            y = self.c2(torch.relu(self.c1(x)))
            return self.fc(y.reshape(y.size(0), -1))

    class GRUState(nn.Module):
        """A GRU whose initial state is made with the export's batch (2) as a Python int."""

        def __init__(self):
            super().__init__()
            self.gru = nn.GRU(16, 32, batch_first=True)
            self.batch = 2

        def forward(self, x):
            h0 = torch.zeros(1, self.batch, 32)
            y, _ = self.gru(x, h0)
            return y

    class Spectral(nn.Module):
        """A log-mel spectrogram (and MFCC with n_mfcc) of [B,1,samples], the STFT as a Conv1d with a Hann-
        windowed DFT basis (torch 1.13 exports no aten::stft), the frames centred by reflection padding
        as torchaudio's MelSpectrogram does; the mel and DCT matrices are torchaudio's."""

        def __init__(self, n_fft, hop, n_mels, n_mfcc=None):
            super().__init__()
            import math
            import torchaudio
            freqs = n_fft // 2 + 1
            t = torch.arange(n_fft).float()
            k = torch.arange(freqs).float()[:, None]
            win = torch.hann_window(n_fft)
            basis = torch.cat([torch.cos(2 * math.pi * k * t / n_fft), -torch.sin(2 * math.pi * k * t / n_fft)]) * win
            self.stft = nn.Conv1d(1, 2 * freqs, n_fft, stride=hop, bias=False)
            self.stft.weight.data = basis[:, None, :]
            self.pad, self.freqs = n_fft // 2, freqs
            self.register_buffer("fb", torchaudio.functional.melscale_fbanks(freqs, 0.0, 8000.0, n_mels, 16000))
            self.dct = None
            if n_mfcc:
                self.register_buffer("dct_m", torchaudio.functional.create_dct(n_mfcc, n_mels, "ortho"))
                self.dct = True

        def forward(self, x):
            z = self.stft(F.pad(x, (self.pad, self.pad), mode="reflect"))
            re, im = z[:, :self.freqs], z[:, self.freqs:]
            power = (re * re + im * im).transpose(1, 2)
            mel = torch.log(torch.matmul(power, self.fb) + 1e-6)
            if self.dct:
                mel = torch.matmul(mel, self.dct_m)
            return mel.transpose(1, 2)

    class WithLengths(nn.Module):
        """torchaudio models whose forward takes (input, lengths) and returns (output, lengths)."""

        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x, lengths):
            return self.m(x, lengths)

    class W2V(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            return self.m(x)[0]

    return {k: v for k, v in locals().items() if isinstance(v, type)}


# --- the exports ---------------------------------------------------------------------------------------
# name -> dict(build: () -> module, args: () -> example inputs, inputs, outputs, axes (dynamic_axes),
#              opset, rename: {input or output: [dims]} applied after the export, kind)

def specs():
    import torch
    W = wrappers()
    r = torch.randn
    img = lambda n, h, w: (lambda: (r(n, 3, h, w),))  # noqa: E731
    nhw = {"x": {0: "N", 2: "H", 3: "W"}, "logits": {0: "N"}}
    bhw = {"x": {0: "batch", 2: "height", 3: "width"}, "logits": {0: "batch"}}
    s = {}

    def cls(name, arch, axes, opset=14, size=224, **kw):
        s[name] = dict(build=classify(arch, **kw), args=img(1, size, size), inputs=["x"], outputs=["logits"],
                       axes=axes, opset=opset, kind="dynamic")

    def static(name, arch, opset=14, size=224, **kw):
        s[name] = dict(build=classify(arch, **kw), args=img(1, size, size), inputs=["x"], outputs=["logits"],
                       axes=None, opset=opset, kind="static",
                       rename={"x": ["N", 3, "H", "W"], "logits": ["N", 1000]})

    # classification, dynamic N, H, W
    cls("swin_t", "swin_t", bhw, opset=14)
    cls("vit_b_16", "vit_b_16", nhw, opset=14)
    cls("convnext_tiny", "convnext_tiny", nhw, opset=14)
    cls("efficientnet_b0", "efficientnet_b0", bhw, opset=13)
    cls("googlenet", "googlenet", nhw, opset=13, init_weights=True, aux_logits=False)
    cls("mobilenet_v3_small", "mobilenet_v3_small", bhw, opset=17)
    cls("shufflenet_v2_x0_5", "shufflenet_v2_x0_5", nhw, opset=14)
    cls("swin_v2_t", "swin_v2_t", nhw, opset=14)
    # torchvision's Swin V2 zeroes the key bias in place (qkv_bias[n:2n].zero_()): aten::zero has no
    # exporter symbolic in torch 1.13; x - x is its value (the bias is finite).
    s["swin_v2_t"]["setup"] = lambda: torch.onnx.register_custom_op_symbolic(
        "aten::zero", lambda g, x: g.op("Sub", x, x), 14)
    cls("maxvit_t", "maxvit_t", nhw, opset=14)
    cls("regnet_y_400mf", "regnet_y_400mf", bhw, opset=14)
    cls("inception_v3", "inception_v3", nhw, opset=13, size=299, init_weights=True, aux_logits=False)
    cls("mobilenet_v2", "mobilenet_v2", nhw, opset=17)
    cls("shufflenet_v2_x1_0", "shufflenet_v2_x1_0", bhw, opset=13)
    cls("mnasnet0_5", "mnasnet0_5", nhw, opset=14)
    cls("squeezenet1_1", "squeezenet1_1", nhw, opset=13)
    cls("resnet18", "resnet18", nhw, opset=17)
    cls("densenet121", "densenet121", nhw, opset=14)
    cls("mobilenet_v3_large", "mobilenet_v3_large", bhw, opset=13)
    # classification, static, input renamed [N,3,H,W]
    static("shufflenet_v2_x1_0_static", "shufflenet_v2_x1_0")
    static("resnet18_static", "resnet18", opset=13)
    static("shufflenet_v2_x0_5_static", "shufflenet_v2_x0_5", opset=13)
    static("mobilenet_v3_small_static", "mobilenet_v3_small", opset=14)
    # the trial set: architectures in neither dev nor test
    for arch, axes, opset in (("alexnet", nhw, 13), ("vgg11_bn", bhw, 14), ("mnasnet1_0", nhw, 17),
                              ("regnet_x_400mf", bhw, 13), ("efficientnet_v2_s", nhw, 14),
                              ("resnext50_32x4d", nhw, 15), ("wide_resnet50_2", bhw, 13), ("vit_b_32", nhw, 14),
                              ("swin_s", bhw, 14), ("shufflenet_v2_x2_0", nhw, 16)):
        cls(arch, arch, axes, opset=opset)
    static("alexnet_static", "alexnet", opset=14)

    # segmentation
    def seg(name, arch, opset, **kw):
        def build():
            return W["SegOut"](getattr(_tv().models.segmentation, arch)(weights=None, weights_backbone=None, **kw))
        s[name] = dict(build=build, args=img(1, 224, 224), inputs=["x"], outputs=["out"],
                       axes={"x": {0: "N", 2: "H", 3: "W"}, "out": {0: "N", 2: "H", 3: "W"}}, opset=opset,
                       kind="dynamic")

    seg("deeplabv3_mobilenet_v3_large", "deeplabv3_mobilenet_v3_large", 14, aux_loss=False)
    seg("lraspp_mobilenet_v3_large", "lraspp_mobilenet_v3_large", 13)
    seg("fcn_resnet50", "fcn_resnet50", 13, aux_loss=False)
    seg("deeplabv3_resnet50", "deeplabv3_resnet50", 14, aux_loss=False)
    seg("fcn_resnet101", "fcn_resnet101", 14, aux_loss=False)

    # detection: one image [3,H,W]
    def det(name, arch, opset, size, **kw):
        def build():
            return W["Detect"](getattr(_tv().models.detection, arch)(weights=None, weights_backbone=None, **kw))
        s[name] = dict(build=build, args=lambda: (torch.rand(3, size, size),), inputs=["image"],
                       outputs=["boxes", "scores", "labels"],
                       axes={"image": {1: "H", 2: "W"}, "boxes": {0: "detections"}, "scores": {0: "detections"},
                             "labels": {0: "detections"}}, opset=opset, kind="dynamic")

    det("ssdlite320_mobilenet_v3_large", "ssdlite320_mobilenet_v3_large", 13, 320)
    det("fasterrcnn_mobilenet_v3_large_320_fpn", "fasterrcnn_mobilenet_v3_large_320_fpn", 13, 320)
    small = dict(min_size=320, max_size=640)
    det("retinanet_resnet50_fpn", "retinanet_resnet50_fpn", 14, 320, **small)
    det("fcos_resnet50_fpn", "fcos_resnet50_fpn", 13, 320, **small)
    det("ssd300_vgg16", "ssd300_vgg16", 14, 300)
    det("maskrcnn_resnet50_fpn", "maskrcnn_resnet50_fpn", 13, 320, **small)
    det("keypointrcnn_resnet50_fpn", "keypointrcnn_resnet50_fpn", 13, 320, **small)

    # video: [N,3,T,H,W]
    def video(name, arch, opset, t, size):
        s[name] = dict(build=lambda: getattr(_tv().models.video, arch)(weights=None),
                       args=lambda: (r(1, 3, t, size, size),), inputs=["clip"], outputs=["logits"],
                       axes={"clip": {0: "N", 2: "T", 3: "H", 4: "W"}, "logits": {0: "N"}}, opset=opset,
                       kind="dynamic")

    video("r3d_18", "r3d_18", 13, 8, 112)
    video("s3d", "s3d", 14, 16, 224)
    video("r2plus1d_18", "r2plus1d_18", 14, 8, 112)
    video("mc3_18", "mc3_18", 13, 8, 112)
    video("mvit_v2_s", "mvit_v2_s", 14, 16, 224)

    # optical flow: two images [N,3,H,W]
    def flow(name, arch, opset, updates):
        s[name] = dict(build=lambda: W["Flow"](getattr(_tv().models.optical_flow, arch)(weights=None), updates),
                       args=lambda: (r(1, 3, 128, 128), r(1, 3, 128, 128)), inputs=["image1", "image2"],
                       outputs=["flow"], axes={"image1": {0: "N", 2: "H", 3: "W"}, "image2": {0: "N", 2: "H", 3: "W"},
                                               "flow": {0: "N", 2: "H", 3: "W"}}, opset=opset, kind="dynamic")

    flow("raft_small", "raft_small", 16, 4)
    flow("raft_large", "raft_large", 16, 2)

    # torchaudio
    def audio(name, build, args, inputs, outputs, axes, opset=14, kind="dynamic"):
        s[name] = dict(build=build, args=args, inputs=inputs, outputs=outputs, axes=axes, opset=opset, kind=kind)

    def w2v(**kw):
        import torchaudio
        return lambda: W["W2V"](torchaudio.models.wav2vec2_model(
            extractor_conv_layer_config=None, extractor_conv_bias=False, encoder_embed_dim=128,
            encoder_projection_dropout=0.0, encoder_pos_conv_kernel=32, encoder_pos_conv_groups=4,
            encoder_num_layers=2, encoder_num_heads=4, encoder_attention_dropout=0.0, encoder_ff_interm_features=256,
            encoder_ff_interm_dropout=0.0, encoder_dropout=0.0, encoder_layer_drop=0.0, aux_num_out=None, **kw))

    audio("wav2vec2_small", w2v(extractor_mode="group_norm", encoder_layer_norm_first=False),
          lambda: (r(1, 16000),), ["waveform"], ["features"],
          {"waveform": {0: "N", 1: "L"}, "features": {0: "N", 1: "frames"}})
    audio("hubert_small", w2v(extractor_mode="layer_norm", encoder_layer_norm_first=True),
          lambda: (r(1, 16000),), ["waveform"], ["features"],
          {"waveform": {0: "batch", 1: "samples"}, "features": {0: "batch", 1: "frames"}})

    def conformer():
        import torchaudio
        return W["WithLengths"](torchaudio.models.Conformer(input_dim=80, num_heads=4, ffn_dim=128, num_layers=2,
                                                            depthwise_conv_kernel_size=31))

    audio("conformer", conformer, lambda: (r(2, 50, 80), torch.tensor([50, 50])), ["features", "lengths"],
          ["output", "out_lengths"], {"features": {0: "B", 1: "T"}, "lengths": {0: "B"}, "output": {0: "B", 1: "T"},
                                      "out_lengths": {0: "B"}})

    def emformer():
        import torchaudio
        return W["WithLengths"](torchaudio.models.Emformer(input_dim=64, num_heads=4, ffn_dim=128, num_layers=2,
                                                           segment_length=4, right_context_length=1))

    audio("emformer", emformer, lambda: (r(2, 17, 64), torch.tensor([16, 16])), ["features", "lengths"],
          ["output", "out_lengths"], {"features": {0: "B", 1: "T"}, "lengths": {0: "B"}, "output": {0: "B", 1: "frames"},
                                      "out_lengths": {0: "B"}})

    def wavernn():
        import torchaudio
        return torchaudio.models.WaveRNN(upsample_scales=[5, 5, 8], n_classes=256, hop_length=200, n_res_block=2,
                                         n_rnn=64, n_fc=64, kernel_size=5, n_freq=80, n_hidden=32, n_output=32)

    audio("wavernn", wavernn, lambda: (r(1, 1, (20 - 4) * 200), r(1, 1, 80, 20)), ["waveform", "specgram"], ["logits"],
          {"waveform": {0: "B", 2: "L"}, "specgram": {0: "B", 3: "T"}, "logits": {0: "B", 2: "L"}})

    audio("melspectrogram", lambda: W["Spectral"](400, 160, 32), lambda: (r(2, 1, 16000),), ["waveform"], ["mel"],
          {"waveform": {0: "B", 2: "samples"}, "mel": {0: "B", 2: "frames"}}, opset=14)
    audio("mfcc", lambda: W["Spectral"](512, 128, 40, n_mfcc=13), lambda: (r(2, 1, 8000),), ["waveform"], ["mfcc"],
          {"waveform": {0: "B", 2: "samples"}, "mfcc": {0: "B", 2: "frames"}}, opset=13)

    def deepspeech():
        import torchaudio
        return torchaudio.models.DeepSpeech(n_feature=40, n_hidden=64, n_class=29)

    audio("deepspeech", deepspeech, lambda: (r(2, 1, 50, 40),), ["features"], ["logits"],
          {"features": {0: "B", 2: "T"}, "logits": {0: "B", 1: "T"}})

    def wav2letter():
        import torchaudio
        return torchaudio.models.Wav2Letter(num_classes=29, input_type="mfcc", num_features=40)

    audio("wav2letter", wav2letter, lambda: (r(2, 40, 300),), ["features"], ["logits"],
          {"features": {0: "B", 2: "T"}, "logits": {0: "B", 2: "frames"}})

    def convtasnet():
        import torchaudio
        return torchaudio.models.ConvTasNet(num_sources=2, enc_kernel_size=16, enc_num_feats=64, msk_kernel_size=3,
                                            msk_num_feats=32, msk_num_hidden_feats=64, msk_num_layers=3, msk_num_stacks=1)

    audio("convtasnet", convtasnet, lambda: (r(1, 1, 8000),), ["mixture"], ["sources"],
          {"mixture": {0: "B", 2: "L"}, "sources": {0: "B", 2: "L"}})

    # sizes baked in: exported at one size, the inputs renamed to symbols
    def baked(name, build, args, inputs, outputs, rename, opset=14, axes=None):
        s[name] = dict(build=build, args=args, inputs=inputs, outputs=outputs, axes=axes, opset=opset,
                       kind="baked", rename=rename)

    def encoder(norm_first):
        from torch import nn
        layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, dropout=0.0, batch_first=True,
                                           norm_first=norm_first)
        return nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)

    baked("transformer_encoder_b2t10", lambda: encoder(False), lambda: (r(2, 10, 64),), ["x"], ["y"],
          {"x": ["B", "T", 64], "y": ["B", "T", 64]})
    baked("transformer_encoder_b3t7_nf", lambda: encoder(True), lambda: (r(3, 7, 64),), ["x"], ["y"],
          {"x": ["B", "T", 64], "y": ["B", "T", 64]})
    baked("mha_encoder", W["MHAEncoder"], lambda: (r(10, 2, 64),), ["x"], ["y"],
          {"x": ["T", "B", 64], "y": ["T", "B", 64]})
    baked("mha_encdec", W["EncDec"], lambda: (r(10, 2, 64), r(7, 2, 64)), ["src", "tgt"], ["y"],
          {"src": ["S", "B", 64], "tgt": ["T", "B", 64], "y": ["T", "B", 64]})
    baked("gru_state_b2", W["GRUState"], lambda: (r(2, 9, 16),), ["x"], ["y"], {},
          axes={"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T"}})
    baked("speech_flatten_t50", W["SpeechFlatten"], lambda: (r(2, 40, 50),), ["x"], ["y"], {},
          axes={"x": {0: "B", 2: "T"}, "y": {0: "B"}})
    audio("reflect_stack", W["ReflectStack"], lambda: (r(1, 1, 400),), ["x"], ["y"],
          {"x": {0: "B", 2: "L"}, "y": {0: "B", 2: "frames"}})
    audio("reflect_stack2d", W["ReflectStack2d"], lambda: (r(1, 3, 64, 64),), ["x"], ["y"],
          {"x": {0: "N", 2: "H", 3: "W"}, "y": {0: "N", 2: "h", 3: "w"}})
    s.update(trialseq.specs())
    s.update(trial3.specs(W, classify))
    s.update(trial4.specs(W, classify))
    s.update(trial5.specs(W, classify))
    return s


def rename(path, dims):
    """Rewrite the declared dims of the graph inputs and outputs named in dims (int: dim_value, str:
    dim_param)."""
    import onnx
    m = onnx.load(path)
    for vi in list(m.graph.input) + list(m.graph.output):
        if vi.name not in dims:
            continue
        shape = vi.type.tensor_type.shape
        want = dims[vi.name]
        if len(shape.dim) != len(want):
            raise SystemExit(f"{vi.name}: rank {len(shape.dim)}, rename gives {len(want)} dims")
        for d, w in zip(shape.dim, want):
            d.Clear()
            if isinstance(w, int):
                d.dim_value = w
            else:
                d.dim_param = w
    onnx.save(m, path)


def export_one(name, out):
    import torch
    torch.manual_seed(0)
    torch.set_num_threads(1)
    warnings.filterwarnings("ignore")
    sp = specs()[name]
    if sp.get("setup"):
        sp["setup"]()
    m = sp["build"]().eval()
    args = sp["args"]()
    path = os.path.join(out, name + ".onnx")
    # Not under no_grad: nn.TransformerEncoder would take its fused fast path, which has no ONNX export.
    torch.onnx.export(m, args, path, input_names=sp["inputs"], output_names=sp["outputs"],
                      dynamic_axes=sp["axes"], opset_version=sp["opset"],
                      do_constant_folding=sp.get("fold", True))
    if sp.get("rename"):
        rename(path, sp["rename"])
    return path, sp


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="/work/heldout/models")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.one:
        path, sp = export_one(a.one, a.out)
        print(json.dumps({"opset": sp["opset"], "kind": sp["kind"]}))
        return
    import hashlib
    index_path = os.path.join(a.out, "exports.json")
    names = a.names or list(specs())
    for name in names:
        t0 = time.time()
        try:
            p = subprocess.run([sys.executable, __file__, "--out", a.out, "--one", name], capture_output=True,
                               text=True, timeout=a.timeout)
            secs = round(time.time() - t0, 1)
            if p.returncode == 0:
                path = os.path.join(a.out, name + ".onnx")
                with open(path, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                rec = dict(json.loads(p.stdout.strip().splitlines()[-1]), seconds=secs,
                           mb=round(os.path.getsize(path) / 1e6, 1), sha256=digest)
            else:
                rec = {"seconds": secs, "error": (p.stderr.strip().splitlines() or ["?"])[-1][:300]}
        except subprocess.TimeoutExpired:
            rec = {"seconds": a.timeout, "error": "timeout"}
        # another run may have written the index meanwhile: keep its records
        index = json.load(open(index_path)) if os.path.exists(index_path) else {}
        index[name] = rec
        print(name, json.dumps(rec), flush=True)
        with open(index_path, "w") as f:
            json.dump(index, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
