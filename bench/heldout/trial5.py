"""The models of the trial5 set (sets.py): exports and type errors that no other set holds.

gen_torch.py exports the torch ones (`gen_torch.py --out DATA/trial5/models NAME...`), gen_types.py
builds the type-error pairs (`gen_types.py --set trial5`). Models and truth are kept in DATA/trial5
(never in the repository). Kinds:

  torchvision  classification, segmentation and detection at a dynamic-axis choice no set holds: the
               batch only (sizes baked), the sizes only (batch 1 baked), or all, at opset 11, 13 or 17;
  torchaudio   wav2vec2 variants, Tacotron2's postnet, WaveRNN at other settings, front ends
               (spectrogram, mel with decibels, MFCC) as Conv1d STFTs with and without centring;
  script       torch.jit.script modules whose control flow on a size exports to Loop and If;
  attention    nn.MultiheadAttention (batch first, kdim/vdim, key padding) and nn.Transformer with a
               causal mask, every sequence and the batch dynamic;
  baked        exports at one size, inputs renamed to symbols: the sizes stay baked in (a traced twin
               of a scripted module among them);
  types, twin  onnx.helper models onnxruntime refuses at load for an element type (gen_types.TRIAL5).
"""


def wrappers(W):
    """trial5's modules; W is gen_torch.wrappers()."""
    import torch
    from torch import nn
    import torch.nn.functional as F

    class FrontEnd(nn.Module):
        """A spectrogram front end of [B,samples]: gen_torch's Spectral STFT (a Conv1d with a Hann-
        windowed DFT basis) and its mel and DCT matrices, centred by reflection or not; power, or
        log-mel (with decibels and top_db), or MFCC."""

        def __init__(self, n_fft, hop, n_mels=None, n_mfcc=None, center=True, db=False):
            super().__init__()
            sp = W["Spectral"](n_fft, hop, n_mels or 1, n_mfcc)
            self.stft = sp.stft
            self.pad, self.freqs, self.center, self.db = sp.pad, sp.freqs, center, db
            self.mel = n_mels is not None
            if self.mel:
                self.register_buffer("fb", sp.fb)
            self.mfcc = n_mfcc is not None
            if self.mfcc:
                self.register_buffer("dct_m", sp.dct_m)

        def forward(self, x):
            x = x.unsqueeze(1)
            if self.center:
                x = F.pad(x, (self.pad, self.pad), mode="reflect")
            z = self.stft(x)
            re, im = z[:, :self.freqs], z[:, self.freqs:]
            power = re * re + im * im
            if not self.mel:
                return power
            mel = torch.matmul(power.transpose(1, 2), self.fb)
            if self.db:
                mel = 10.0 * torch.log10(torch.clamp(mel, min=1e-10))
                top = mel.amax(dim=(-2, -1), keepdim=True) - 80.0
                mel = torch.max(mel, top)
            else:
                mel = torch.log(mel + 1e-6)
            if self.mfcc:
                mel = torch.matmul(mel, self.dct_m)
            return mel.transpose(1, 2)

    class Postnet(nn.Module):
        """Tacotron2's postnet on a mel spectrogram [B,n_mels,T] (its residual, as Tacotron2 adds it)."""

        def __init__(self, m):
            super().__init__()
            self.p = m.postnet

        def forward(self, mel):
            return mel + self.p(mel)

    class TacoEncoder(nn.Module):
        """Tacotron2's text encoder on token ids [B,T] and their lengths [B]."""

        def __init__(self, m):
            super().__init__()
            self.emb, self.enc = m.embedding, m.encoder

        def forward(self, tokens, lengths):
            return self.enc(self.emb(tokens).transpose(1, 2), lengths)

    class MHACross(nn.Module):
        """Batch-first cross attention: queries [B,T,32] over a memory [B,S,48] (kdim = vdim = 48), keys
        past each row's length masked, then a residual and a LayerNorm."""

        def __init__(self):
            super().__init__()
            self.attn = nn.MultiheadAttention(32, 4, kdim=48, vdim=48, batch_first=True)
            self.norm = nn.LayerNorm(32)

        def forward(self, q, mem, lengths):
            mask = torch.arange(mem.size(1))[None, :] >= lengths[:, None]
            a, _ = self.attn(q, mem, mem, key_padding_mask=mask, need_weights=False)
            return self.norm(q + a)

    class CausalTransformer(nn.Module):
        """nn.Transformer (sequence first, 1+1 layers, d_model 32) with a causal target mask of [T,T]."""

        def __init__(self, norm_first=False, batch_first=False):
            super().__init__()
            self.t = nn.Transformer(d_model=32, nhead=4, num_encoder_layers=1, num_decoder_layers=1,
                                    dim_feedforward=64, dropout=0.0, norm_first=norm_first, batch_first=batch_first)
            self.batch_first = batch_first

        def forward(self, src, tgt):
            t = tgt.size(1 if self.batch_first else 0)
            mask = torch.triu(torch.full((t, t), float("-inf")), diagonal=1)
            return self.t(src, tgt, tgt_mask=mask)

    return {k: v for k, v in locals().items() if isinstance(v, type)}


def scripted(kind, traced=False):
    """torch.jit.script modules whose control flow depends on a size: Loop and If in the export (traced:
    the module itself, which the export traces at one size)."""
    import torch
    from torch import nn
    import torch.nn.functional as F

    class HalveUntil(nn.Module):
        """Average-pool [B,C,L] by 2 while L > 16 (a Loop whose trip count is a size), then a Conv1d."""

        def __init__(self):
            super().__init__()
            self.conv = nn.Conv1d(8, 8, 3)

        def forward(self, x):
            while x.size(2) > 16:
                x = F.avg_pool1d(x, 2)
            return self.conv(x)

    class PadToFour(nn.Module):
        """Pad [B,T,16] to a multiple of 4 frames when it is not one (an If), then stack 4 frames."""

        def forward(self, x):
            r = x.size(1) % 4
            if r != 0:
                x = F.pad(x, (0, 0, 0, 4 - r))
            return x.reshape(x.size(0), x.size(1) // 4, 64)

    class ChunkSum(nn.Module):
        """Sum [B,T,8] over chunks of 4 frames by a for loop over T // 4 (a Loop over slices)."""

        def forward(self, x):
            acc = torch.zeros(x.size(0), 4, x.size(2))
            for i in range(x.size(1) // 4):
                acc = acc + x[:, i * 4:(i + 1) * 4]
            return acc

    class ShortOrLong(nn.Module):
        """An If on a size: a sequence shorter than 8 is repeated to 8 frames, a longer one pooled by 2."""

        def forward(self, x):
            if x.size(1) < 8:
                x = x.repeat(1, 8 // x.size(1) + 1, 1)[:, :8]
            else:
                x = F.avg_pool1d(x.transpose(1, 2), 2).transpose(1, 2)
            return x

    m = {"halve": HalveUntil, "pad4": PadToFour, "chunksum": ChunkSum, "shortlong": ShortOrLong}[kind]()
    return m if traced else torch.jit.script(m)


def specs(W, classify):
    """The export specs (gen_torch.specs' format, plus fold: False for do_constant_folding=False)."""
    import torch
    r = torch.randn
    s = {}
    X = wrappers(W)

    def add(name, build, args, inputs, outputs, axes, opset, kind, fold=True, **kw):
        s[name] = dict(build=build, args=args, inputs=inputs, outputs=outputs, axes=axes, opset=opset, kind=kind,
                       fold=fold, **kw)

    def tv():
        import torchvision
        return torchvision

    # (a) torchvision classification at dynamic-axis choices no set holds
    batch = {"x": {0: "N"}, "logits": {0: "N"}}
    sizes = {"x": {2: "H", 3: "W"}}
    full = {"x": {0: "N", 2: "H", 3: "W"}, "logits": {0: "N"}}

    def cls(name, arch, axes, opset, size=224, **kw):
        add(name, classify(arch, **kw), lambda: (r(1, 3, size, size),), ["x"], ["logits"], axes, opset, "torchvision")

    cls("mnasnet0_75_b11", "mnasnet0_75", batch, 11)
    cls("shufflenet_v2_x1_5_hw13", "shufflenet_v2_x1_5", sizes, 13)
    cls("efficientnet_b2_all17", "efficientnet_b2", full, 17)
    cls("regnet_x_1_6gf_hw11", "regnet_x_1_6gf", sizes, 11)
    cls("resnet34_b17", "resnet34", batch, 17)

    # segmentation: sizes only and batch only
    def seg(name, arch, axes, opset, size=160):
        def build():
            return W["SegOut"](getattr(tv().models.segmentation, arch)(weights=None, weights_backbone=None))
        add(name, build, lambda: (r(1, 3, size, size),), ["x"], ["out"], axes, opset, "torchvision")

    seg("deeplabv3_mobilenet_hw13", "deeplabv3_mobilenet_v3_large", {"x": {2: "H", 3: "W"}, "out": {2: "H", 3: "W"}}, 13)
    seg("lraspp_b17", "lraspp_mobilenet_v3_large", {"x": {0: "N"}, "out": {0: "N"}}, 17)

    # detection: one image [3,H,W], opset 11
    def build_frcnn():
        return W["Detect"](tv().models.detection.fasterrcnn_mobilenet_v3_large_fpn(
            weights=None, weights_backbone=None, min_size=320, max_size=320))

    add("fasterrcnn_mnv3_fpn_op11", build_frcnn, lambda: (torch.rand(3, 320, 320),), ["image"],
        ["boxes", "scores", "labels"], {"image": {1: "H", 2: "W"}, "boxes": {0: "detections"},
                                        "scores": {0: "detections"}, "labels": {0: "detections"}}, 11, "torchvision")

    # (b) torchaudio
    def w2v(conv, **kw):
        import torchaudio
        return lambda: W["W2V"](torchaudio.models.wav2vec2_model(
            extractor_conv_layer_config=conv, extractor_conv_bias=False, encoder_embed_dim=48,
            encoder_projection_dropout=0.0, encoder_pos_conv_kernel=8, encoder_pos_conv_groups=4,
            encoder_num_layers=1, encoder_num_heads=4, encoder_attention_dropout=0.0, encoder_ff_interm_features=96,
            encoder_ff_interm_dropout=0.0, encoder_dropout=0.0, encoder_layer_drop=0.0, **kw))

    wave = {"waveform": {0: "B", 1: "L"}, "out": {0: "B", 1: "frames"}}
    add("w2v_gn_op13", w2v([(24, 12, 6), (24, 4, 2), (24, 3, 3)], extractor_mode="group_norm",
                           encoder_layer_norm_first=False, aux_num_out=None),
        lambda: (r(1, 3600),), ["waveform"], ["out"], wave, 13, "torchaudio")
    add("w2v_ln_ctc_op11", w2v([(24, 8, 4), (24, 5, 3), (24, 2, 2)], extractor_mode="layer_norm",
                               encoder_layer_norm_first=True, aux_num_out=20),
        lambda: (r(2, 2400),), ["waveform"], ["out"], wave, 11, "torchaudio")

    def taco():
        import torchaudio
        return torchaudio.models.Tacotron2(n_mels=20, n_symbol=30, symbol_embedding_dim=32, encoder_embedding_dim=32, encoder_n_convolution=2,
                                           encoder_kernel_size=5, decoder_rnn_dim=32, decoder_max_step=50,
                                           attention_rnn_dim=32, attention_hidden_dim=32,
                                           attention_location_n_filter=4, attention_location_kernel_size=5,
                                           prenet_dim=16, postnet_n_convolution=3, postnet_kernel_size=5,
                                           postnet_embedding_dim=32)

    add("tacotron2_postnet", lambda: X["Postnet"](taco()), lambda: (r(2, 20, 40),), ["mel"], ["refined"],
        {"mel": {0: "B", 2: "T"}, "refined": {0: "B", 2: "T"}}, 13, "torchaudio")
    add("tacotron2_encoder", lambda: X["TacoEncoder"](taco()),
        lambda: (torch.randint(0, 30, (2, 12)), torch.tensor([12, 12])), ["tokens", "lengths"], ["encoded"],
        {"tokens": {0: "B", 1: "T"}, "lengths": {0: "B"}, "encoded": {0: "B", 1: "T"}}, 13, "torchaudio")

    def wavernn():
        import torchaudio
        return torchaudio.models.WaveRNN(upsample_scales=[4, 4], n_classes=64, hop_length=16, n_res_block=1,
                                         n_rnn=32, n_fc=32, kernel_size=3, n_freq=20, n_hidden=16, n_output=16)

    add("wavernn_k3_op13", wavernn, lambda: (r(1, 1, (20 - 2) * 16), r(1, 1, 20, 20)), ["waveform", "specgram"],
        ["logits"], {"waveform": {0: "B", 2: "L"}, "specgram": {0: "B", 3: "T"}, "logits": {0: "B", 2: "L"}}, 13,
        "torchaudio")

    def front(name, opset, *a, **kw):
        add(name, lambda: X["FrontEnd"](*a, **kw), lambda: (r(2, 8000),), ["waveform"], ["features"],
            {"waveform": {0: "B", 1: "samples"}, "features": {0: "B", 2: "frames"}}, opset, "torchaudio")

    front("spec_n256_nocenter_op11", 11, 256, 100, center=False)
    front("mel_db_n1024_op17", 17, 1024, 256, n_mels=40, db=True)
    front("mfcc20_n400_op13", 13, 400, 160, n_mels=40, n_mfcc=20)

    # (c) control flow scripted to Loop and If
    add("script_halve_loop", lambda: scripted("halve"), lambda: (r(2, 8, 100),), ["x"], ["y"],
        {"x": {0: "B", 2: "L"}, "y": {0: "B", 2: "frames"}}, 13, "script")
    add("script_pad4_if", lambda: scripted("pad4"), lambda: (r(2, 10, 16),), ["x"], ["y"],
        {"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T4"}}, 13, "script")
    add("script_chunksum_loop", lambda: scripted("chunksum"), lambda: (r(2, 12, 8),), ["x"], ["y"],
        {"x": {0: "B", 1: "T"}, "y": {0: "B"}}, 13, "script")
    add("script_shortlong_if", lambda: scripted("shortlong"), lambda: (r(2, 12, 8),), ["x"], ["y"],
        {"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T2"}}, 13, "script")

    # (d) attention with a dynamic sequence
    add("mha_cross_kpm", X["MHACross"], lambda: (r(2, 5, 32), r(2, 7, 48), torch.tensor([7, 4])),
        ["q", "mem", "lengths"], ["y"], {"q": {0: "B", 1: "T"}, "mem": {0: "B", 1: "S"}, "lengths": {0: "B"},
                                         "y": {0: "B", 1: "T"}}, 14, "attention")
    add("transformer_causal", lambda: X["CausalTransformer"](), lambda: (r(9, 2, 32), r(6, 2, 32)), ["src", "tgt"],
        ["y"], {"src": {0: "S", 1: "B"}, "tgt": {0: "T", 1: "B"}, "y": {0: "T", 1: "B"}}, 14, "attention")

    # (e) baked: exported at one size, inputs and outputs renamed to symbols
    def baked(name, build, args, inputs, outputs, rename, opset):
        add(name, build, args, inputs, outputs, None, opset, "baked", rename=rename)

    baked("transformer_bf_b2s9t6", lambda: X["CausalTransformer"](norm_first=True, batch_first=True),
          lambda: (r(2, 9, 32), r(2, 6, 32)), ["src", "tgt"], ["y"],
          {"src": ["B", "S", 32], "tgt": ["B", "T", 32], "y": ["B", "T", 32]}, 14)
    baked("mha_cross_b2t5s7", X["MHACross"], lambda: (r(2, 5, 32), r(2, 7, 48), torch.tensor([7, 4])),
          ["q", "mem", "lengths"], ["y"], {"q": ["B", "T", 32], "mem": ["B", "S", 48], "lengths": ["B"],
                                           "y": ["B", "T", 32]}, 13)
    baked("pad4_traced_b2t10", lambda: scripted("pad4", traced=True), lambda: (r(2, 10, 16),), ["x"], ["y"],
          {"x": ["B", "T", 16], "y": ["B", "T4", 64]}, 13)
    baked("efficientnet_b0_static11", classify("efficientnet_b0"), lambda: (r(1, 3, 160, 160),), ["x"], ["logits"],
          {"x": ["N", 3, "H", "W"], "logits": ["N", 1000]}, 11)
    return s
