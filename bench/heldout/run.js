// Runs one ONNX model with onnxruntime-node at many feeds, one session for all of them, and records of
// each run the shape, type and (small integer) values of every output, as bench/truth/ort_run.js does
// for one feed. make_truth.py writes the plan and reads the result; this file only runs the model.
//
//   node run.js PLAN.json RESULT.json
//
// PLAN: {"model": PATH, "max_values": N, "runs": [{"inputs": [{"name", "type", "dims", "file"}]}]}
// RESULT: {"load_error": TEXT} when the session cannot be made (onnxruntime refuses the model at load),
//      else {"runs": [{"ok": true, "outputs": {NAME: {"type", "dims", "values"}}} or {"ok": false, "error"}]}
'use strict';
const fs = require('fs');
const path = require('path');
const { loadOrt, arrays, sessionOptions, outputsOf } = require(path.join(__dirname, '..', 'truth', 'ort_run.js'));

async function main() {
  const [planPath, resultPath] = process.argv.slice(2);
  const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));
  const ort = loadOrt();
  let session;
  try {
    session = await ort.InferenceSession.create(plan.model, sessionOptions);
  } catch (e) {
    fs.writeFileSync(resultPath, JSON.stringify({ load_error: String(e && e.message ? e.message : e) }));
    return;
  }
  const runs = [];
  for (const run of plan.runs) {
    try {
      const feeds = {};
      for (const inp of run.inputs) {
        const buf = fs.readFileSync(inp.file);
        const data = new arrays[inp.type](buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
        feeds[inp.name] = new ort.Tensor(inp.type, data, inp.dims);
      }
      const out = await session.run(feeds);
      runs.push({ ok: true, outputs: outputsOf(session, out, plan.max_values) });
    } catch (e) {
      runs.push({ ok: false, error: String(e && e.message ? e.message : e) });
    }
  }
  fs.writeFileSync(resultPath, JSON.stringify({ runs }));
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + '\n');
  process.exit(1);
});
