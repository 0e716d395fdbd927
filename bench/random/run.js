// Runs the random models of gen.py with onnxruntime-node 1.20.1 (graph optimizations off) at every
// binding of each model's box: one session per model, zero-filled float32 inputs.
//
//   NODE_PATH=/work/ort/node_modules node bench/random/run.js OUT [NAME_REGEXP]
//
// Reads OUT/meta.json and writes OUT/truth/NAME.json: {"symbols", "box", "load_error" or "runs": a
// string with one character per binding of the box (the symbols' ranges nested in order, the last
// fastest): "." where it runs, else a letter indexing "errors" (a: the first message, b: the next...)}.
// onnxruntime 1.20.1 crashes on some models (a Pad with negative pads that leave a negative size):
// the work is done in a child process that writes {"crashed": true} before each model and skips the
// models done already, and the parent starts it again until it finishes.
'use strict';
const fs = require('fs');
const path = require('path');
const { loadOrt, sessionOptions } = require(path.join(__dirname, '..', 'truth', 'ort_run.js'));

function* bindings(syms, box) {
  const cur = syms.map((s) => box[s][0]);
  for (;;) {
    yield Object.fromEntries(syms.map((s, i) => [s, cur[i]]));
    let i = syms.length - 1;
    while (i >= 0 && cur[i] === box[syms[i]][1]) {
      cur[i] = box[syms[i]][0];
      i--;
    }
    if (i < 0) return;
    cur[i]++;
  }
}

async function runModel(ort, dir, m) {
  const out = { symbols: m.symbols, box: m.box };
  let session;
  try {
    session = await ort.InferenceSession.create(path.join(dir, m.file), sessionOptions);
  } catch (e) {
    out.load_error = String(e && e.message ? e.message : e);
    return out;
  }
  const errors = [];
  const keys = [];
  let runs = '';
  for (const b of bindings(m.symbols, m.box)) {
    const dims = m.input.dims.map((d) => (typeof d === 'string' ? b[d] : d));
    const n = dims.reduce((a, v) => a * v, 1);
    try {
      await session.run({ [m.input.name]: new ort.Tensor('float32', new Float32Array(n), dims) });
      runs += '.';
    } catch (e) {
      // The message without the sizes, so that bindings refused alike share one entry.
      const msg = String(e && e.message ? e.message : e);
      const key = msg.replace(/[0-9]+/g, '#');
      let i = keys.indexOf(key);
      if (i < 0) {
        if (errors.length >= 52) i = 51;
        else {
          errors.push(msg);
          keys.push(key);
          i = errors.length - 1;
        }
      }
      runs += String.fromCharCode(i < 26 ? 97 + i : 65 + i - 26);
    }
  }
  await session.release();
  out.runs = runs;
  out.errors = errors;
  return out;
}

async function child(dir, re) {
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8'));
  const ort = loadOrt();
  fs.mkdirSync(path.join(dir, 'truth'), { recursive: true });
  for (const m of meta) {
    if (re && !new RegExp(re).test(m.name)) continue;
    const file = path.join(dir, 'truth', m.name + '.json');
    if (fs.existsSync(file)) continue;
    fs.writeFileSync(file, JSON.stringify({ symbols: m.symbols, box: m.box, crashed: true }));
    const res = await runModel(ort, dir, m);
    fs.writeFileSync(file, JSON.stringify(res));
  }
}

async function main() {
  const [dir, re] = process.argv.slice(2);
  if (process.env.RANDOM_RUN_CHILD) {
    await child(dir, re);
    return;
  }
  const { spawnSync } = require('child_process');
  for (;;) {
    const r = spawnSync(process.execPath, [__filename, ...process.argv.slice(2)], {
      stdio: 'inherit', env: { ...process.env, RANDOM_RUN_CHILD: '1' },
    });
    if (r.status === 0) return;
    if (r.signal === null && r.status !== 0 && r.status !== null && r.status < 128) process.exit(r.status);
  }
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + '\n');
  process.exit(1);
});
