"""The models and bindings that testdata/truth/ records (see README.md for why these bindings).

Each case: (model, label, dims, inputs, fills). model is a path relative to the repository root: the shared
models are read from ../shared/realdata/onnx/ (never copied), the generated ones from testdata/models/.
The fixture is testdata/truth/<model stem>.<label>.json.
"""

SHARED = "../shared/realdata/onnx/"
MODELS = "testdata/models/"


def _silero(label, batch, length, sr):
    return (SHARED + "silero_vad_v5.onnx", label,
            {"input:0": batch, "input:1": length, "state:1": batch}, {}, {"sr": f"value:{sr}", "state": "zeros"})


def _ppocr(label, n, h, w):
    return (SHARED + "ppocr_mobile_v2_cls.onnx", label,
            {"p2o.DynamicDimension.0": n, "p2o.DynamicDimension.1": h, "p2o.DynamicDimension.2": w}, {}, {})


SHARED_CASES = [
    (SHARED + "gpt2_block.onnx", "B2_T7", {"B": 2, "T": 7}, {}, {}),
    (SHARED + "gpt2_block.onnx", "B3_T5", {"B": 3, "T": 5}, {}, {}),
    (SHARED + "transformer_encoder.onnx", "B2_T7", {"B": 2, "T": 7}, {}, {}),
    (SHARED + "transformer_encoder.onnx", "B3_T5", {"B": 3, "T": 5}, {}, {}),
    (SHARED + "vit_tiny.onnx", "N2", {"N": 2}, {}, {}),
    (SHARED + "vit_tiny.onnx", "N3", {"N": 3}, {}, {}),
    (SHARED + "shufflenet_v2.onnx", "N2", {"N": 2}, {}, {}),
    (SHARED + "shufflenet_v2.onnx", "N3", {"N": 3}, {}, {}),
    (SHARED + "pixel_shuffle.onnx", "N2_H7_W5", {"N": 2, "H": 7, "W": 5}, {}, {}),
    (SHARED + "pixel_shuffle.onnx", "N3_H4_W6", {"N": 3, "H": 4, "W": 6}, {}, {}),
    _ppocr("N2_H48_W192", 2, 48, 192),
    _ppocr("N3_H48_W100", 3, 48, 100),
    _ppocr("N1_H64_W160", 1, 64, 160),
    _ppocr("N2_H32_W192", 2, 32, 192),  # fails in onnxruntime: the MaxPool output height is 0
    _silero("B2_L576_sr16000", 2, 576, 16000),
    _silero("B3_L288_sr8000", 3, 288, 8000),
    _silero("B1_L512_sr16000", 1, 512, 16000),
    _silero("B1_L100_sr16000", 1, 100, 16000),  # fails in onnxruntime: the STFT Conv input is shorter than its kernel
]

def _bert(name, label, b, t):
    return (MODELS + name + ".onnx", label, {"B": b, "T": t}, {},
            {"input_ids": "randint:0:32", "attention_mask": "ones"})


GENERATED_CASES = [
    _bert("bert_tiny", "B2_T7", 2, 7),
    _bert("bert_tiny", "B3_T5", 3, 5),
    (MODELS + "swin_tiny.onnx", "B2_H16_W24", {"B": 2, "H": 16, "W": 24}, {}, {}),
    (MODELS + "swin_tiny.onnx", "B3_H32_W16", {"B": 3, "H": 32, "W": 16}, {}, {}),
    (MODELS + "swin_tiny.onnx", "B1_H20_W16", {"B": 1, "H": 20, "W": 16}, {}, {}),  # fails: 5 rows of 2-windows
    (MODELS + "rnns.onnx", "B2_T7", {"B": 2, "T": 7}, {}, {}),
    (MODELS + "rnns.onnx", "B3_T5", {"B": 3, "T": 5}, {}, {}),
    (MODELS + "control_flow.onnx", "N2_C3_flag1", {"N": 2, "C": 3}, {}, {"flag": "value:1"}),
    (MODELS + "control_flow.onnx", "N3_C5_flag0", {"N": 3, "C": 5}, {}, {"flag": "value:0"}),
    (MODELS + "control_nested.onnx", "B2_T3_D4", {"B": 2, "T": 3, "D": 4}, {}, {}),
    (MODELS + "control_nested.onnx", "B3_T5_D2", {"B": 3, "T": 5, "D": 2}, {}, {}),
    (MODELS + "control_nested.onnx", "B1_T4_D3", {"B": 1, "T": 4, "D": 3}, {}, {}),  # the else branch
    (MODELS + "ops_movement.onnx", "N2_C4_H6_W8", {"N": 2, "C": 4, "H": 6, "W": 8}, {}, {}),
    (MODELS + "ops_movement.onnx", "N3_C8_H4_W10", {"N": 3, "C": 8, "H": 4, "W": 10}, {}, {}),
    (MODELS + "ops_math.onnx", "B2_T7", {"B": 2, "T": 7}, {}, {}),
    (MODELS + "ops_math.onnx", "B3_T5", {"B": 3, "T": 5}, {}, {}),
    (MODELS + "ops_conv.onnx", "N2_H9_W7", {"N": 2, "H": 9, "W": 7}, {}, {}),
    (MODELS + "ops_conv.onnx", "N3_H12_W16", {"N": 3, "H": 12, "W": 16}, {}, {}),
    (MODELS + "ops_opset11.onnx", "N2_H5_W7", {"N": 2, "H": 5, "W": 7}, {}, {}),
    (MODELS + "ops_opset11.onnx", "N3_H8_W6", {"N": 3, "H": 8, "W": 6}, {}, {}),
    (MODELS + "ops_opset18.onnx", "N2_C4_H5_W7", {"N": 2, "C": 4, "H": 5, "W": 7}, {}, {}),
    (MODELS + "ops_opset18.onnx", "N3_C2_H8_W8", {"N": 3, "C": 2, "H": 8, "W": 8}, {}, {}),
    (MODELS + "ops_rnn.onnx", "T7_B2", {"T": 7, "B": 2}, {}, {"lens": "value:7,3"}),
    (MODELS + "ops_rnn.onnx", "T5_B3", {"T": 5, "B": 3}, {}, {"lens": "value:5,1,4"}),
    (MODELS + "lstm_layout1.onnx", "B2_T7", {"B": 2, "T": 7}, {}, {}),
    (MODELS + "lstm_layout1.onnx", "B3_T5", {"B": 3, "T": 5}, {}, {}),
    _bert("bert_deep_1x", "B2_T7", 2, 7),
    _bert("bert_deep_1x", "B3_T5", 3, 5),
]

# Sizes computed in float32 (torchvision's detection transform): where the rounding bites (H = W = 25
# gives 319, not 320; 47 by 94; 12 by 25 gives 639 for W), ratios near 2, and the unrounded ones.
GENERATED_CASES += [(MODELS + "rcnn_transform.onnx", f"H{h}_W{w}", {"H": h, "W": w}, {}, {}) for h, w in (
    (1, 1), (3, 3), (24, 24), (25, 25), (47, 94), (25, 50), (12, 25), (99, 199), (100, 300), (319, 321),
    (640, 480), (64, 512), (1000, 10))]
# The anchor sums of retinanet and the RPN after that transform (the shorter side resized to 320, the
# longer to at most 640): 1000 by 10 keeps every anchor of its last levels, 640 by 480 1000 of each level
# but the last; sizes where the rounding bites.
GENERATED_CASES += [(MODELS + "rcnn_anchors.onnx", f"H{h}_W{w}", {"H": h, "W": w}, {}, {}) for h, w in (
    (1, 1), (25, 25), (47, 94), (12, 25), (640, 480), (1000, 10))]

# issue 26: scikit-learn pipelines as skl2onnx writes them, and torch's list building (gen_ml.py).
ML_CASES = [
    (MODELS + "ml_linear.onnx", "N2", {"N": 2}, {}, {}),
    (MODELS + "ml_linear.onnx", "N5", {"N": 5}, {}, {}),
    (MODELS + "ml_trees.onnx", "N1", {"N": 1}, {}, {}),
    (MODELS + "ml_trees.onnx", "N3", {"N": 3}, {}, {}),
    (MODELS + "ml_svm.onnx", "N1", {"N": 1}, {}, {}),
    (MODELS + "ml_svm.onnx", "N3", {"N": 3}, {}, {}),
    (MODELS + "ml_prep.onnx", "N2_F4", {"N": 2, "F": 4}, {}, {"C": "randint:0:3"}),
    (MODELS + "ml_prep.onnx", "N3_F2", {"N": 3, "F": 2}, {}, {"C": "randint:0:3"}),
    (MODELS + "seq_lists.onnx", "B2_T5", {"B": 2, "T": 5}, {}, {}),
    (MODELS + "seq_lists.onnx", "B3_T3", {"B": 3, "T": 3}, {}, {}),
    (MODELS + "seq_lists.onnx", "B3_T1", {"B": 3, "T": 1}, {}, {}),  # fails: the split sizes [2, T-2]
]
GENERATED_CASES += ML_CASES
# scripted torch loops that stop early (gen_loops.py): the data decide where a run stops.
LOOP_CASES = [
    (MODELS + "loop_break.onnx", "B2_T5_ones", {"B": 2, "T": 5}, {}, {"x": "ones"}),  # stops at the first step
    (MODELS + "loop_break.onnx", "B3_T1_ones", {"B": 3, "T": 1}, {}, {"x": "ones"}),
    (MODELS + "loop_break.onnx", "B2_T5_zeros", {"B": 2, "T": 5}, {}, {"x": "zeros"}),  # fails: no stop before the last step
]
GENERATED_CASES += LOOP_CASES
# issue 23: where onnxruntime stops when several nodes refuse a binding (gen_onnx.py's run_order and
# load_first): every refusing node in the order its executor meets them, and a refusal at load.
BLAME_CASES = [(MODELS + "run_order.onnx", f"H{h}_W{w}", {"H": h, "W": w}, {}, {}) for h, w in (
    (1, 1), (2, 2), (2, 3), (3, 3), (4, 4), (3, 4))]
BLAME_CASES += [(MODELS + "load_first.onnx", f"N{n}_L{l}_B{b}_T{t}", {"N": n, "L": l, "B": b, "T": t}, {}, {})
                for n, l, b, t in ((2, 3, 1, 3), (2, 3, 2, 3))]
GENERATED_CASES += BLAME_CASES
# issue 23: a condition no binding satisfies (gen_onnx.py's never_holds): onnxruntime refuses every binding
# at the Reshape whose volume needs W == 9*(W//3).
NEVER_CASES = [(MODELS + "never_holds.onnx", f"N{n}_W{w}", {"N": n, "W": w}, {}, {}) for n, w in (
    (1, 1), (1, 3), (2, 9), (1, 27), (2, 30))]
GENERATED_CASES += NEVER_CASES
# issue 23: Concat inputs empty at a binding (gen_onnx.py's concat_empty, and its twin refused at load): onnxruntime
# runs at L == 1, where the Tile branch is empty and its dims differ from x's, and at even L; refuses odd L > 1.
EMPTY_CASES = [(MODELS + "concat_empty.onnx", f"N{n}_L{l}", {"N": n, "L": l}, {}, {})
               for n, l in ((1, 1), (2, 1), (2, 2), (1, 3), (2, 4))]
EMPTY_CASES += [(MODELS + "concat_empty_load.onnx", f"N{n}_L{l}", {"N": n, "L": l}, {}, {}) for n, l in ((1, 1), (2, 3))]
GENERATED_CASES += EMPTY_CASES
# issue 23: a computed 0 in a Reshape pattern (gen_onnx.py's zero_copy, bench/random r1_0168): at allowzero 0
# it copies the input's dim (H < 3), past the input's rank it is refused (c0), and the copy runs where the
# volume is 0 (W == 2); both sides of H == 3 and of W == 2, and a -1 that does not divide (H == 7). Each
# Reshape has its own symbols: every one at the same H and W, and "runs", each at a size where it runs, a
# copy where one runs.
_ZERO = ("a0", "a1", "b0", "b1", "c0", "z0", "z1", "zm")
ZERO_CASES = [(MODELS + "zero_copy.onnx", f"N{n}_H{h}_W{w}", {"N": n, **{s + k: v for k in _ZERO for s, v in (("H", h), ("W", w))}},
               {}, {}) for n, h, w in ((1, 1, 2), (2, 2, 2), (1, 1, 3), (1, 2, 5), (1, 3, 2), (2, 3, 4), (1, 4, 3),
                                       (1, 5, 2), (2, 6, 4), (1, 7, 3))]
ZERO_CASES.append((MODELS + "zero_copy.onnx", "runs", {"N": 2, "Ha0": 1, "Wa0": 5, "Ha1": 3, "Wa1": 2, "Hb0": 6, "Wb0": 1,
                                                       "Hb1": 3, "Wb1": 4, "Hc0": 4, "Wc0": 3, "Hz0": 2, "Wz0": 2,
                                                       "Hz1": 1, "Wz1": 2, "Hzm": 1, "Wzm": 2}, {}, {}))
GENERATED_CASES += ZERO_CASES
# the iteration number a Loop body declares [1] (gen_onnx.py's loop_iter_rank, trial3's mvit_v1_b): L at and
# above the slices' end 4. Below it onnxruntime refuses the scan output's parts of two shapes, which the Loop
# rule does not state (a loss of precision at the Slice): those bindings are not recorded.
GENERATED_CASES += [(MODELS + "loop_iter_rank.onnx", f"N{n}_L{l}", {"N": n, "L": l}, {}, {})
                    for n, l in ((1, 4), (2, 6))]
# issue 23: a Loop whose scan output changes shape between iterations (gen_onnx.py's loop_scan_shape): runs at L <= 3
# (L == 1 runs no iteration), refused from L == 4 ("Inconsistent shape in loop output").
GENERATED_CASES += [(MODELS + "loop_scan_shape.onnx", f"N{n}_L{l}", {"N": n, "L": l}, {}, {})
                    for n, l in ((1, 2), (2, 3), (1, 4), (2, 7))]
# issue 23: a Loop of T//4 iterations (gen_onnx.py's loop_no_run, trial5's script_chunksum_loop): no iteration below
# T == 4, where the body's slice would not add to acc; runs at every binding.
GENERATED_CASES += [(MODELS + "loop_no_run.onnx", f"B{b}_T{t}", {"B": b, "T": t}, {}, {})
                    for b, t in ((1, 3), (2, 1), (1, 4), (2, 13))]
# issue 23: shape values computed from a Shape, negative at dim < 3 (gen_onnx.py's shape_negative): Resize's sizes
# [N,R-3] (refused at R <= 3: a scale not above 0), MaxUnpool's output_shape [N,2,M-3] (refused where its volume,
# -1 with a negative value, is below the pooled shape's: M <= 4), Col2Im's image_shape [C-3,1] (refused at C < 3,
# runs at C == 3 with an empty output); each side of each bound, and a binding where all three run.
NEG_CASES = [(MODELS + "shape_negative.onnx", f"N{n}_R{r}_M{m}_L{l}_C{c}", {"N": n, "R": r, "M": m, "L": l, "C": c}, {}, {})
             for n, r, m, l, c in ((1, 1, 1, 1, 1), (1, 2, 2, 4, 2), (1, 3, 3, 1, 3), (2, 4, 4, 2, 4), (1, 5, 5, 3, 5),
                                   (2, 6, 6, 1, 6), (1, 4, 9, 2, 3))]
GENERATED_CASES += NEG_CASES
# issue 23: sizes read from values that are negative at dim < 3 (gen_onnx.py's narrow_negative): Tile's repeats
# (refused below 0 unless the axis is empty: te runs at E <= 2), CenterCropPad's shape (runs, cropping to 0),
# AffineGrid's size, HannWindow's length (refused below 0), DFT's dft_length and OneHot's depth (refused below 1).
NARROW_CASES = [(MODELS + "narrow_negative.onnx", f"T{t}_E{e}_P{p}_A{a}_W{w}_D{d}_O{o}",
                 {"T": t, "E": e, "P": p, "A": a, "W": w, "D": d, "O": o}, {}, {})
                for t, e, p, a, w, d, o in ((1, 1, 1, 1, 1, 1, 1), (2, 2, 2, 2, 2, 2, 2), (3, 3, 3, 3, 3, 3, 3),
                                            (4, 4, 4, 4, 4, 4, 4), (1, 5, 1, 3, 3, 4, 4), (5, 2, 2, 2, 4, 3, 5))]
GENERATED_CASES += NARROW_CASES
# issue 23: MaxUnpool without output_shape at an empty pooled axis (gen_onnx.py's unpool_empty): at M == 1 the
# pooled axis is empty; u2 and u3 unpool it to 0 and 1 and run, u1 to -1 and is refused.
GENERATED_CASES += [(MODELS + "unpool_empty.onnx", f"N{n}_M{m}", {"N": n, "M": m}, {}, {})
                    for n, m in ((1, 1), (2, 1), (1, 2), (2, 4), (1, 5))]
# issue 23: several computed 0s in one Reshape pattern (gen_onnx.py's zero_copies, bench/random seed 3): each of
# H//2 and W//2 may copy, alone or together; runs at H == 1 with W in 1..4, 6, 8 and at W == 1 with H in 1..4,
# refused at odd H*W where neither copies nor divides (H == 1, W == 5; H == 3, W == 5; H == 5, W == 1).
ZERO_COPIES_CASES = [(MODELS + "zero_copies.onnx", f"N{n}_H{h}_W{w}", {"N": n, "H": h, "W": w}, {}, {}) for n, h, w in (
    (1, 1, 1), (2, 1, 4), (1, 1, 5), (1, 1, 6), (2, 4, 1), (1, 5, 1), (1, 3, 5), (2, 2, 5), (1, 4, 8))]
GENERATED_CASES += ZERO_COPIES_CASES
# issue 23: a computed 0 that copies a dim into the pattern of an empty input (gen_onnx.py's copy_empty, bench/random
# r3_0182): runs at H <= 2 for every W (W == 1 copies 4 into an empty view), and at even h = (H+1)//2-1 and W;
# refused at W == 1 past H == 2, and at odd h.
COPY_EMPTY_CASES = [(MODELS + "copy_empty.onnx", f"N{n}_H{h}_W{w}", {"N": n, "H": h, "W": w}, {}, {}) for n, h, w in (
    (1, 1, 1), (2, 2, 1), (2, 2, 3), (1, 5, 2), (1, 6, 4), (1, 3, 2), (1, 5, 1), (2, 5, 3))]
GENERATED_CASES += COPY_EMPTY_CASES
EXTRA_MODELS = [MODELS + "bert_deep_2x.onnx", MODELS + "bert_deep_4x.onnx"]  # benchmark models without truth fixtures
# issue 26's held-out zoo: scikit-learn pipelines and torch list models, and bindings that onnxruntime
# refuses (gen_mlzoo.py holds the models and their bindings).
from gen_mlzoo import ZOO_CASES  # noqa: E402
GENERATED_CASES += ZOO_CASES
