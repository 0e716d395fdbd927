// Runs ONNX models with onnxruntime-node at many feeds, and records of each run the outputs' types,
// dims and the sha256 of their bytes, so that two models' outputs compare bit for bit. verify.py
// writes the plan and reads the result; this file only runs the models.
//
//   node run.js PLAN.json RESULT.json
//
// PLAN: {"runs": [{"model": PATH, "inputs": [{"name", "type" (ORT's: "float32", "int64", ...),
//                                             "dims": [...], "file": PATH of the raw data}]}]}
// RESULT: {"runs": [{"ok": true, "outputs": {NAME: {"type", "dims", "sha256"}}} or {"ok": false, "error"}]}
// A model's session is made once for all its runs, with graph optimizations disabled (bench/truth/ort_run.js).
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { loadOrt, arrays, sessionOptions } = require(path.join(__dirname, '..', 'truth', 'ort_run.js'));

async function main() {
  const [planPath, resultPath] = process.argv.slice(2);
  const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));
  const ort = loadOrt();
  const sessions = new Map();
  const runs = [];
  for (const run of plan.runs) {
    let rec;
    try {
      if (!sessions.has(run.model)) {
        sessions.set(run.model, await ort.InferenceSession.create(run.model, sessionOptions));
      }
      const session = sessions.get(run.model);
      const feeds = {};
      for (const inp of run.inputs) {
        const buf = fs.readFileSync(inp.file);
        const data = new arrays[inp.type](buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
        feeds[inp.name] = new ort.Tensor(inp.type, data, inp.dims);
      }
      const out = await session.run(feeds);
      const outputs = {};
      for (const name of session.outputNames) {
        const t = out[name];
        const bytes = Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
        outputs[name] = { type: t.type, dims: Array.from(t.dims), sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
      }
      rec = { ok: true, outputs };
    } catch (e) {
      rec = { ok: false, error: String(e && e.message ? e.message : e) };
    }
    runs.push(rec);
  }
  fs.writeFileSync(resultPath, JSON.stringify({ runs }));
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + '\n');
  process.exit(1);
});
