"""The grid of bindings of every model that testdata/grid/ records (see README.md for the rule).

GRIDS maps a model path (relative to the repository root; the shared models are read from
../shared/realdata/onnx/ and never copied) to (fills, bindings): fills sets how the model's inputs are
filled at every binding (the SPEC of bench/truth/truth.py: uniform, zeros, ones, randint:LO:HI,
value:V0,...), and each binding is (dims, fills): the symbols bound, and the fills that binding changes
(a data input that selects an If branch, such as Silero's sample rate, or values that follow the dims).

The rule: batch 1 to 3; lengths and sizes 1, 2, odd, non-multiples of 8, 16 and 32, sizes where the
model is known to work, and large ones that still run in well under a second.
"""
import itertools

SHARED = "../shared/realdata/onnx/"
MODELS = "testdata/models/"

BATCHES = (1, 2, 3)


def product(**axes):
    """Every combination of the values of axes, as dims dicts (the order of axes, then of values)."""
    names = list(axes)
    return [(dict(zip(names, vals)), {}) for vals in itertools.product(*(axes[n] for n in names))]


def sizes(pairs, **extra):
    """Bindings of H, W from pairs, crossed with the values of the other axes in extra (batch first)."""
    out = []
    for rest in itertools.product(*extra.values()):
        for h, w in pairs:
            d = dict(zip(extra, rest))
            d.update(H=h, W=w)
            out.append((d, {}))
    return out


def silero():
    out = []
    for b in BATCHES:
        for length in (1, 64, 100, 255, 256, 288, 512, 576, 1000):
            for sr in (16000, 8000):
                out.append(({"input:0": b, "input:1": length, "state:1": b}, {"sr": f"value:{sr}"}))
    # The state's batch differs from the input's.
    for b, s in ((1, 2), (2, 1), (3, 2)):
        out.append(({"input:0": b, "input:1": 512, "state:1": s}, {"sr": "value:16000"}))
    return out


def ppocr():
    names = ("p2o.DynamicDimension.0", "p2o.DynamicDimension.1", "p2o.DynamicDimension.2")
    out = []
    for n in BATCHES:
        for h, w in ((48, 192), (32, 100)):
            out.append((dict(zip(names, (n, h, w))), {}))
    for h, w in ((1, 1), (2, 2), (16, 16), (31, 64), (33, 65), (47, 100), (64, 160), (96, 320)):
        out.append((dict(zip(names, (1, h, w))), {}))
    return out


def ops_rnn():
    # lens (int32, [B]) holds every sequence's length: the whole of T.
    return [({"T": t, "B": b}, {"lens": "value:" + ",".join([str(t)] * b)})
            for b in BATCHES for t in (1, 2, 5, 7, 33)]


def control_flow():
    return [({"N": n, "C": c}, {"flag": f"value:{f}"}) for n in (1, 2, 3, 4) for c in (1, 3) for f in (0, 1)]


def if_data_branch():
    return [({"B": b, "T": t}, {"sr": f"value:{sr}"})
            for b in (1, 2) for t in (1, 2, 3, 6, 8, 12, 16, 18, 20, 24, 25, 48, 100) for sr in (16000, 8000)]


BERT = {"input_ids": "randint:0:32", "attention_mask": "ones"}
SEQ_T = (1, 2, 7, 16, 17, 33, 64, 65, 100)
IMAGE_SIZES = ((1, 1), (2, 2), (3, 5), (7, 7), (8, 8), (16, 16), (17, 17), (16, 24), (20, 16), (31, 33),
               (32, 32), (64, 64), (96, 40))

GRIDS = {
    SHARED + "gpt2_block.onnx": ({}, product(B=BATCHES, T=SEQ_T + (257,))),
    SHARED + "transformer_encoder.onnx": ({}, product(B=BATCHES, T=SEQ_T + (257,))),
    SHARED + "vit_tiny.onnx": ({}, product(N=(1, 2, 3, 5, 8))),
    SHARED + "shufflenet_v2.onnx": ({}, product(N=(1, 2, 3, 5, 8))),
    SHARED + "pixel_shuffle.onnx": ({}, sizes(((1, 1), (2, 3), (7, 5), (8, 8), (17, 31), (33, 64)), N=BATCHES)),
    SHARED + "ppocr_mobile_v2_cls.onnx": ({}, ppocr()),
    SHARED + "silero_vad_v5.onnx": ({"state": "zeros"}, silero()),
    MODELS + "bert_tiny.onnx": (BERT, product(B=BATCHES, T=SEQ_T)),
    MODELS + "bert_deep_1x.onnx": (BERT, product(B=(1, 2), T=(1, 7, 64, 65))),
    MODELS + "bert_deep_2x.onnx": (BERT, product(B=(1, 2), T=(1, 7, 64, 65))),
    MODELS + "bert_deep_4x.onnx": (BERT, product(B=(1, 2), T=(1, 7, 64, 65))),
    MODELS + "swin_tiny.onnx": ({}, sizes(((1, 1), (2, 2), (7, 9), (8, 8), (12, 12), (16, 16), (16, 24), (20, 16),
                                           (32, 32), (64, 40)), B=BATCHES)),
    MODELS + "rnns.onnx": ({}, product(B=BATCHES, T=(1, 2, 7, 100))),
    MODELS + "control_flow.onnx": ({}, control_flow()),
    MODELS + "control_nested.onnx": ({}, [({"B": b, "T": t, "D": d}, {}) for b in BATCHES
                                          for t, d in ((1, 1), (3, 4), (5, 2))]),
    MODELS + "idioms.onnx": ({}, sizes(((1, 1), (2, 3), (5, 4), (17, 8)), N=BATCHES)),
    MODELS + "lstm_layout1.onnx": ({}, product(B=(1, 2), T=(1, 7))),
    MODELS + "ops_conv.onnx": ({}, sizes(((1, 1), (2, 2), (3, 3), (5, 4), (9, 7), (12, 16), (33, 17)), N=BATCHES)),
    MODELS + "ops_math.onnx": ({}, product(B=BATCHES, T=(1, 2, 5, 7, 33))),
    MODELS + "ops_movement.onnx": ({}, [({"N": n, "C": c, "H": h, "W": w}, {}) for n in (1, 2) for c in (1, 2, 4, 8)
                                        for h, w in ((2, 2), (3, 4), (6, 8), (5, 5))]),
    MODELS + "ops_opset11.onnx": ({}, sizes(((1, 1), (2, 3), (5, 7), (8, 6), (33, 16)), N=BATCHES)),
    MODELS + "ops_opset18.onnx": ({}, [({"N": n, "C": c, "H": h, "W": w}, {}) for n in (1, 2) for c in (1, 2, 3, 4)
                                       for h, w in ((1, 1), (5, 7), (8, 8))]),
    MODELS + "ops_rnn.onnx": ({}, ops_rnn()),
    # The models of bench/grid/gen_torch.py and bench/truth/gen_onnx.py made for the grids.
    MODELS + "yolo_head.onnx": ({}, sizes(IMAGE_SIZES + ((13, 16), (15, 15), (15, 16), (14, 12)), N=BATCHES)),
    MODELS + "channel_shuffle.onnx": ({}, sizes(((1, 1), (2, 3), (6, 6), (7, 5), (16, 16)), N=BATCHES)),
    MODELS + "swin_window.onnx": ({}, sizes(IMAGE_SIZES + ((8, 32),), B=BATCHES)),
    MODELS + "speech_fold4.onnx": ({}, product(B=BATCHES, T=(1, 2, 3, 4, 5, 7, 8, 12, 17, 33, 100))),
    MODELS + "conformer_sub.onnx": ({}, product(B=BATCHES, T=(1, 2, 3, 5, 6, 7, 8, 9, 17, 33, 100))),
    MODELS + "vit_posemb.onnx": ({}, sizes(IMAGE_SIZES + ((8, 32), (4, 64)), N=BATCHES)),
    MODELS + "cnn_stride.onnx": ({}, sizes(((1, 1), (2, 2), (7, 7), (9, 9), (10, 10), (11, 11), (12, 11), (11, 40),
                                            (15, 15), (23, 19), (64, 64)), N=BATCHES)),
    MODELS + "unet_skip.onnx": ({}, sizes(((1, 1), (2, 2), (16, 16), (31, 32), (32, 32), (33, 33), (48, 48),
                                           (64, 32), (64, 64), (96, 64), (100, 100)), N=(1, 2))),
    MODELS + "unet_pad.onnx": ({}, sizes(((1, 1), (2, 2), (8, 7), (9, 11), (16, 16), (31, 32)), N=(1, 2))),
    MODELS + "detr_queries.onnx": ({}, sizes(((4, 4), (8, 12), (16, 16), (17, 31), (3, 3)), N=(1, 2, 3, 10))),
    MODELS + "flat_matmul.onnx": ({}, product(N=(1, 2, 3, 5))),
    MODELS + "gru_state.onnx": ({}, product(B=(1, 2, 3, 4), T=(1, 5))),
    MODELS + "if_cond_batch.onnx": ({}, product(N=(1, 2, 3))),
    MODELS + "if_data_branch.onnx": ({}, if_data_branch()),
    MODELS + "const_reshape_batch.onnx": ({}, product(N=(1, 2, 3))),
}
