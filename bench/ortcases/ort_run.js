// Runs many small ONNX models with onnxruntime-node, in one process, and records the element type,
// shape and (for small integer and bool tensors) the values of every graph output. gen.py writes the
// jobs and reads the results; this file only runs the models, as bench/truth/ort_run.js does one (its
// loader and type tables are shared), with models as bytes, inputs inline and string tensors too.
//
//   NODE_PATH=/work/ort/node_modules node ort_run.js JOBS.json RESULTS.jsonl [FIRST]
//
// JOBS: {"max_values": N, "jobs": [{"model": base64 of the ModelProto,
//        "inputs": [{"name": ..., "type": ORT type name ("float32", "int64", "bool", "string", ...),
//                    "dims": [...], "data": base64 of the raw little-endian data, or "strings": [...]}]}]}
// RESULTS: one line per job, from the job numbered FIRST (0 by default) on, in order, each written as
//          soon as its job is done, so that a crash of onnxruntime-node names its job:
//          {"ok": true, "outputs": {NAME: {"type": ..., "dims": [...], "values": ["1", "2"]}}} or
//          {"ok": false, "error": TEXT}. Values are decimal strings, so that int64 stays exact.
'use strict';
const fs = require('fs');
const { loadOrt, arrays, sessionOptions, outputsOf } = require('../truth/ort_run.js');

async function runJob(ort, job, maxValues) {
  try {
    const session = await ort.InferenceSession.create(Buffer.from(job.model, 'base64'), sessionOptions);
    const feeds = {};
    for (const inp of job.inputs) {
      if (inp.type === 'string') {
        feeds[inp.name] = new ort.Tensor('string', inp.strings, inp.dims);
        continue;
      }
      const Arr = arrays[inp.type];
      if (!Arr) throw new Error(`input ${inp.name}: unsupported type ${inp.type}`);
      const buf = Buffer.from(inp.data, 'base64');
      const data = new Arr(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
      feeds[inp.name] = new ort.Tensor(inp.type, data, inp.dims);
    }
    return { ok: true, outputs: outputsOf(session, await session.run(feeds), maxValues) };
  } catch (e) {
    return { ok: false, error: String(e && e.message ? e.message : e) };
  }
}

async function main() {
  const [jobsPath, resultsPath, first] = process.argv.slice(2);
  const plan = JSON.parse(fs.readFileSync(jobsPath, 'utf8'));
  const ort = loadOrt();
  for (const job of plan.jobs.slice(Number(first || 0))) {
    fs.appendFileSync(resultsPath, JSON.stringify(await runJob(ort, job, plan.max_values)) + '\n');
  }
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + '\n');
  process.exit(1);
});
