// Loads each probe model of a plan (gen.py writes them) with onnxruntime-node, graph optimizations
// off, and prints one line per probe: its id, the outcome and the start of onnxruntime's message.
//
//   NODE_PATH=/work/ort/node_modules node probe.js DIR/plan.json > DIR/probe.tsv
//
// Outcomes: "ok" (the session is created), "kernel OP(N)" (no kernel for the node: "Could not find
// an implementation for OP(N)", or "Failed to find kernel for OP(N)" when onnxruntime looked for a
// float kernel to run a float16 node with casts; N is the since-version of the operator's schema), "type NAME" (the
// schema's type check refuses the type of input NAME), "bound T" (two inputs of type parameter T have
// different types), "output NAME" (the model declares output NAME of a node of another type than
// the node gives), "other" (any other refusal).
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

function outcome(msg) {
  let m = msg.match(/(?:Could not find an implementation|Failed to find kernel) for (\S+)\((\d+)\)/);
  if (m) return `kernel ${m[1]}(${m[2]})`;
  m = msg.match(/Type Error: Type '[^']*' of input parameter \(([^)]*)\)/);
  if (m) return `type ${m[1]}`;
  m = msg.match(/Type Error: Type \(.*?\) of output arg \(([^)]*)\) of node/);
  if (m) return `output ${m[1]}`;
  m = msg.match(/Type Error: Type parameter \(([^)]*)\) of Optype \([^)]*\) bound to different types/);
  if (m) return `bound ${m[1]}`;
  return 'other';
}

async function main() {
  const plan = JSON.parse(fs.readFileSync(process.argv[2]));
  const dir = path.dirname(process.argv[2]);
  for (const p of plan) {
    let out = 'ok';
    let msg = '';
    try {
      const s = await ort.InferenceSession.create(path.resolve(dir, p.model), { graphOptimizationLevel: 'disabled', logSeverityLevel: 4 });
      await s.release();
    } catch (e) {
      msg = String(e.message).replace(/\s+/g, ' ');
      out = outcome(msg);
    }
    console.log(`${p.id}\t${out}\t${out === 'other' ? msg.slice(0, 120) + ' ... ' + msg.slice(-160) : ''}`);
  }
}

main();
