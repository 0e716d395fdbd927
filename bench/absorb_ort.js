// Checks with onnxruntime-node 1.20.1 (graph optimizations off) what check reports of
// testdata/models/absorb.onnx: at batch 2 it runs, and its output is not that of two runs at batch 1
// on the same samples, since the -1 of its Reshape absorbs the batch and the Softmax mixes the two.
//
//   NODE_PATH=/path/to/node_modules node bench/absorb_ort.js testdata/models/absorb.onnx
//
// It prints the largest difference between the batch-2 output and the two batch-1 outputs, and
// exits 1 when they agree (then check's report would be false).
'use strict';
const { loadOrt, sessionOptions } = require('./truth/ort_run.js');

async function main() {
  const ort = loadOrt();
  const session = await ort.InferenceSession.create(process.argv[2], sessionOptions);
  const sample = (k) => Float32Array.from({ length: 24 }, (_, i) => Math.sin(1 + i + 24 * k));
  const run = async (data, n) => (await session.run({ x: new ort.Tensor('float32', data, [n, 4, 6]) })).y;
  const both = new Float32Array(48);
  both.set(sample(0), 0);
  both.set(sample(1), 24);
  const y2 = await run(both, 2);
  const ones = [await run(sample(0), 1), await run(sample(1), 1)];
  let diff = 0;
  for (let k = 0; k < 2; k++) {
    for (let i = 0; i < 24; i++) diff = Math.max(diff, Math.abs(y2.data[24 * k + i] - ones[k].data[i]));
  }
  console.log(`batch 2: output [${y2.dims}]; two runs at batch 1: [${ones[0].dims}] each; largest difference ${diff.toExponential(3)}`);
  process.exit(diff > 1e-6 ? 0 : 1);
}
main().catch((e) => { console.error(e); process.exit(2); });
