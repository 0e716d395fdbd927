// Loads the probe models gen.py wrote with onnxruntime-node and prints, per model, the operator,
// the opset and what onnxruntime's refusal says: "-" when the opset has no such operator (or
// deprecates it), "MIN..MAX" (* for no bound) for the input or output counts its schema allows,
// "?" when it refused the node for another reason first. See gen.py.
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

async function refusal(model) {
  try {
    await ort.InferenceSession.create(model, { graphOptimizationLevel: 'disabled', logSeverityLevel: 4 });
    return '';
  } catch (e) {
    return String(e.message);
  }
}

async function main() {
  const plan = JSON.parse(fs.readFileSync(process.argv[2]));
  for (const p of plan) {
    const msg = await refusal(p.model);
    const kind = p.kind === 'in' ? 'input' : 'output';
    const m = msg.match(new RegExp(`has ${kind} size \\d+ not in range \\[min=(\\d+), max=(\\d+)\\]`));
    let result = '?';
    if (/No Op registered|is deprecated in domain_version/.test(msg)) {
      result = '-';
    } else if (m) {
      result = `${m[1]}..${Number(m[2]) > 1000 ? '*' : m[2]}`;
    }
    console.log(`${p.op}\t${p.opset}\t${result}`);
  }
}

main();
