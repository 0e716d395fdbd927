// Runs one ONNX model with onnxruntime-node and records the shape, element type and (for small integer
// and bool tensors) the values of every graph output. truth.py writes the plan and reads the result;
// this file only runs the model.
//
//   node ort_run.js PLAN.json RESULT.json
//
// PLAN: {"model": PATH, "max_values": N,
//        "inputs": [{"name": ..., "type": ORT type name ("float32", "int64", "bool", "string", ...),
//                    "dims": [...], "file": PATH of the raw little-endian data,
//                    or for a string input "strings": [the strings, row-major]}]}
// RESULT: {"ok": true, "outputs": {NAME: {"type": ..., "dims": [...], "values": ["1", "2"]}}}
//      or {"ok": false, "error": TEXT}. Values are decimal strings, so that int64 stays exact.
'use strict';
const fs = require('fs');
const path = require('path');

function loadOrt() {
  try {
    return require('onnxruntime-node');
  } catch (e) {
    return require(path.join(process.env.ORT_NODE_MODULES || '/work/ort/node_modules', 'onnxruntime-node'));
  }
}

const arrays = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array,
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
  bool: Uint8Array,
};
const integral = new Set(['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'bool']);

// The session options of every run: graph optimizations off, which keeps the nodes' names.
const sessionOptions = { graphOptimizationLevel: 'disabled', logSeverityLevel: 4 };

// outputsOf returns the record of a run's outputs: type, dims and, for integer and bool tensors of at
// most maxValues elements, values as decimal strings.
function outputsOf(session, out, maxValues) {
  const outputs = {};
  for (const name of session.outputNames) {
    const t = out[name];
    const rec = { type: t.type, dims: Array.from(t.dims) };
    if (integral.has(t.type) && t.size <= maxValues) {
      rec.values = Array.from(t.data, (v) => (typeof v === 'boolean' ? (v ? '1' : '0') : v.toString()));
    }
    outputs[name] = rec;
  }
  return outputs;
}

async function main() {
  const [planPath, resultPath] = process.argv.slice(2);
  const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));
  const ort = loadOrt();
  let result;
  try {
    const session = await ort.InferenceSession.create(plan.model, sessionOptions);
    const feeds = {};
    for (const inp of plan.inputs) {
      if (inp.type === 'string') {
        feeds[inp.name] = new ort.Tensor('string', inp.strings, inp.dims);
        continue;
      }
      const buf = fs.readFileSync(inp.file);
      const Arr = arrays[inp.type];
      if (!Arr) throw new Error(`input ${inp.name}: unsupported type ${inp.type}`);
      const data = new Arr(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
      feeds[inp.name] = new ort.Tensor(inp.type, data, inp.dims);
    }
    const out = await session.run(feeds);
    result = { ok: true, outputs: outputsOf(session, out, plan.max_values) };
  } catch (e) {
    result = { ok: false, error: String(e && e.message ? e.message : e) };
  }
  fs.writeFileSync(resultPath, JSON.stringify(result));
}

module.exports = { loadOrt, arrays, sessionOptions, outputsOf };

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(String(e && e.stack ? e.stack : e) + '\n');
    process.exit(1);
  });
}
