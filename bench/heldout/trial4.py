"""The models of the trial4 set (sets.py): exports, npm files and type errors that no other set holds.

gen_torch.py exports the torch ones (`gen_torch.py --out DATA/trial4/models NAME...`), gen_types.py
builds the type-error pairs (`gen_types.py --set trial4`), `npm()` copies the npm-shipped ones that
fetch_npm.sh unpacked. Models and truth are kept in DATA/trial4 (never in the repository). Kinds:

  torchvision  detection, segmentation, video and optical flow at settings the other sets lack (another
               opset, no constant folding, other sizes of the export, another head);
  torchaudio   HuBERT, Emformer, Conv-TasNet, Wav2Letter and DeepSpeech in configurations no set holds;
  npm          npm packages' own files (SOURCES in fetch_npm.sh and NPM below);
  types, twin  onnx.helper models onnxruntime refuses at load for an element type (gen_types.TRIAL4).
"""


def specs(W, classify):
    """The export specs (gen_torch.specs' format, plus fold: False for do_constant_folding=False)."""
    import torch
    r = torch.randn
    s = {}

    def add(name, build, args, inputs, outputs, axes, opset, kind, fold=True, **kw):
        s[name] = dict(build=build, args=args, inputs=inputs, outputs=outputs, axes=axes, opset=opset, kind=kind,
                       fold=fold, **kw)

    def tv():
        import torchvision
        return torchvision

    # (a) torchvision: segmentation
    def seg(name, arch, opset, fold=True, size=224, **kw):
        def build():
            return W["SegOut"](getattr(tv().models.segmentation, arch)(weights=None, weights_backbone=None, **kw))
        add(name, build, lambda: (r(1, 3, size, size),), ["x"], ["out"],
            {"x": {0: "N", 2: "H", 3: "W"}, "out": {0: "N", 2: "H", 3: "W"}}, opset, "torchvision", fold)

    seg("lraspp_mobilenet_v3_large_nf11", "lraspp_mobilenet_v3_large", 11, fold=False)
    seg("fcn_resnet50_op11", "fcn_resnet50", 11, aux_loss=False, size=160)

    # detection: one image [3,H,W]
    def det(name, arch, opset, size, fold=True, **kw):
        def build():
            return W["Detect"](getattr(tv().models.detection, arch)(weights=None, weights_backbone=None, **kw))
        add(name, build, lambda: (torch.rand(3, size, size),), ["image"], ["boxes", "scores", "labels"],
            {"image": {1: "H", 2: "W"}, "boxes": {0: "detections"}, "scores": {0: "detections"},
             "labels": {0: "detections"}}, opset, "torchvision", fold)

    det("ssdlite320_op17", "ssdlite320_mobilenet_v3_large", 17, 320, detections_per_img=50)
    det("fcos_resnet50_fpn_256", "fcos_resnet50_fpn", 13, 256, min_size=256, max_size=256)

    # video: [N,3,T,H,W]
    def video(name, arch, opset, t, size, fold=True):
        add(name, lambda: getattr(tv().models.video, arch)(weights=None), lambda: (r(1, 3, t, size, size),),
            ["clip"], ["logits"], {"clip": {0: "N", 2: "T", 3: "H", 4: "W"}, "logits": {0: "N"}}, opset,
            "torchvision", fold)

    video("r3d_18_op17", "r3d_18", 17, 4, 64)
    video("mc3_18_nf11", "mc3_18", 11, 4, 64, fold=False)
    video("r2plus1d_18_op11", "r2plus1d_18", 11, 4, 64)
    video("s3d_op17", "s3d", 17, 16, 224)

    # optical flow: RAFT at one flow update (torch 1.13's Sqrt of int64 again: its twin is made by gen_types)
    add("raft_large_u1", lambda: W["Flow"](tv().models.optical_flow.raft_large(weights=None), 1),
        lambda: (r(1, 3, 96, 128), r(1, 3, 96, 128)), ["image1", "image2"], ["flow"],
        {"image1": {0: "N", 2: "H", 3: "W"}, "image2": {0: "N", 2: "H", 3: "W"}, "flow": {0: "N", 2: "H", 3: "W"}},
        17, "torchvision")

    # quantized classification: qnnpack (torch 1.13 here has no fbgemm), random weights calibrated by one
    # random batch, as torchvision's quantize_model does
    def quant(arch, **kw):
        def build():
            from torch.ao import quantization as q
            torch.backends.quantized.engine = "qnnpack"
            m = getattr(tv().models.quantization, arch)(weights=None, quantize=False, **kw).eval()
            m.fuse_model()
            m.qconfig = q.get_default_qconfig("qnnpack")
            q.prepare(m, inplace=True)
            m(r(1, 3, 224, 224))
            return q.convert(m)
        return build

    add("mobilenet_v2_quant", quant("mobilenet_v2"), lambda: (r(1, 3, 224, 224),), ["x"], ["logits"],
        {"x": {0: "N", 2: "H", 3: "W"}, "logits": {0: "N"}}, 13, "torchvision")
    add("resnet18_quant", quant("resnet18"), lambda: (r(1, 3, 224, 224),), ["x"], ["logits"],
        {"x": {0: "N", 2: "H", 3: "W"}, "logits": {0: "N"}}, 13, "torchvision")

    # shufflenet_v2_x0_5_quant does not export with torch 1.13 (its quantized channel shuffle): out of the set
    add("shufflenet_v2_x0_5_quant", quant("shufflenet_v2_x0_5"), lambda: (r(1, 3, 224, 224),), ["x"], ["logits"],
        {"x": {0: "N", 2: "H", 3: "W"}, "logits": {0: "N"}}, 13, "torchvision")
    add("googlenet_quant", quant("googlenet", aux_logits=False, init_weights=True), lambda: (r(1, 3, 224, 224),),
        ["x"], ["logits"], {"x": {0: "N", 2: "H", 3: "W"}, "logits": {0: "N"}}, 13, "torchvision")
    det("maskrcnn_resnet50_fpn_256", "maskrcnn_resnet50_fpn", 13, 256, min_size=256, max_size=256)
    det("keypointrcnn_resnet50_fpn_256", "keypointrcnn_resnet50_fpn", 13, 256, min_size=256, max_size=256)

    # (b) torchaudio
    def hubert():
        import torchaudio
        return W["W2V"](torchaudio.models.wav2vec2_model(
            extractor_mode="layer_norm", extractor_conv_layer_config=[(32, 10, 5), (32, 3, 2), (32, 2, 2)],
            extractor_conv_bias=True, encoder_embed_dim=64, encoder_projection_dropout=0.0,
            encoder_pos_conv_kernel=16, encoder_pos_conv_groups=4, encoder_num_layers=2, encoder_num_heads=4,
            encoder_attention_dropout=0.0, encoder_ff_interm_features=128, encoder_ff_interm_dropout=0.0,
            encoder_dropout=0.0, encoder_layer_norm_first=True, encoder_layer_drop=0.0, aux_num_out=32))

    add("hubert_ctc_nf17", hubert, lambda: (r(1, 4000),), ["waveform"], ["logits"],
        {"waveform": {0: "B", 1: "L"}, "logits": {0: "B", 1: "frames"}}, 17, "torchaudio", fold=False)

    def emformer():
        import torchaudio
        return W["WithLengths"](torchaudio.models.Emformer(input_dim=32, num_heads=4, ffn_dim=64, num_layers=1,
                                                           segment_length=8, right_context_length=2,
                                                           left_context_length=4))

    add("emformer_seg8_op17", emformer, lambda: (r(1, 26, 32), torch.tensor([24])), ["features", "lengths"],
        ["output", "out_lengths"], {"features": {0: "B", 1: "T"}, "lengths": {0: "B"}, "output": {0: "B", 1: "frames"},
                                    "out_lengths": {0: "B"}}, 17, "torchaudio")

    def tasnet():
        import torchaudio
        return torchaudio.models.ConvTasNet(num_sources=3, enc_kernel_size=20, enc_num_feats=32, msk_kernel_size=3,
                                            msk_num_feats=16, msk_num_hidden_feats=32, msk_num_layers=2,
                                            msk_num_stacks=2)

    add("convtasnet_k20_op11", tasnet, lambda: (r(1, 1, 4000),), ["mixture"], ["sources"],
        {"mixture": {0: "B", 2: "L"}, "sources": {0: "B", 2: "L"}}, 11, "torchaudio")

    def wav2letter():
        import torchaudio
        return torchaudio.models.Wav2Letter(num_classes=20, input_type="power_spectrum", num_features=65)

    add("wav2letter_power_nf17", wav2letter, lambda: (r(1, 65, 200),), ["spec"], ["logits"],
        {"spec": {0: "B", 2: "T"}, "logits": {0: "B", 2: "frames"}}, 17, "torchaudio", fold=False)

    def deepspeech():
        import torchaudio
        return torchaudio.models.DeepSpeech(n_feature=20, n_hidden=32, n_class=12, dropout=0.0)

    add("deepspeech_nf11", deepspeech, lambda: (r(2, 1, 30, 20),), ["features"], ["logits"],
        {"features": {0: "B", 2: "T"}, "logits": {0: "B", 1: "T"}}, 11, "torchaudio", fold=False)
    # a DeepSpeech exported at B=1, T=30 with its input renamed [B,1,T,20] (sizes baked in)
    add("deepspeech_b1t30", deepspeech, lambda: (r(1, 1, 30, 20),), ["features"], ["logits"], None, 13, "baked",
        rename={"features": ["B", 1, "T", 20], "logits": ["B", "T", 12]})

    # exported at one size (folded), the inputs and outputs renamed to symbols: the sizes stay baked in
    # the Reshape patterns, pool windows and Resize sizes
    def static(name, build, args, inputs, outputs, rename, opset):
        add(name, build, args, inputs, outputs, None, opset, "baked", rename=rename)

    static("lraspp_static", lambda: W["SegOut"](tv().models.segmentation.lraspp_mobilenet_v3_large(
        weights=None, weights_backbone=None)), lambda: (r(1, 3, 160, 160),), ["x"], ["out"],
        {"x": ["N", 3, "H", "W"], "out": ["N", 21, "H", "W"]}, 13)
    static("r3d_18_static", lambda: tv().models.video.r3d_18(weights=None), lambda: (r(1, 3, 4, 64, 64),), ["clip"],
           ["logits"], {"clip": ["N", 3, "T", "H", "W"], "logits": ["N", 400]}, 13)
    static("convtasnet_static", tasnet, lambda: (r(1, 1, 4000),), ["mixture"], ["sources"],
           {"mixture": ["B", 1, "L"], "sources": ["B", 3, "L"]}, 14)
    static("hubert_ctc_static", hubert, lambda: (r(1, 4000),), ["waveform"], ["logits"],
           {"waveform": ["B", "L"], "logits": ["B", "F", 32]}, 14)
    static("mobilenet_v2_quant_static", quant("mobilenet_v2"), lambda: (r(1, 3, 224, 224),), ["x"], ["logits"],
           {"x": ["N", 3, "H", "W"], "logits": ["N", 1000]}, 13)
    return s


# (name, source under DATA/npm, renames): the npm-shipped models, SOURCES in fetch_npm.sh.
NPM = []
# (name, bindings, sets.M keywords)
GRIDS = []


def npm(data):
    """Copy the npm-shipped models into DATA/trial4/models, renamed where NPM says."""
    import trialnpm
    trialnpm.npm(data, NPM, "trial4")
