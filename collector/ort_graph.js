#!/usr/bin/env node
// ort_graph.js - what ONNX Runtime (onnxruntime-node, CPU) really runs for one model.
//
// Creates one session at graph optimisation level 'all' (1 intra-op thread,
// 1 inter-op thread, sequential), which writes the optimized model to
// --optimized, runs it ONCE on random inputs with profiling on, ends
// profiling and writes a JSON summary to --out:
//
//   {"ort_version", "input_names", "output_names",
//    "inputs": {name: dims}, "outputs": {name: dims of that run},
//    "profile": [[node_name, op_name, provider], ...]}
//
// "profile" holds the kernel events (cat "Node", name "<node>_kernel_time")
// of that run in start-time order; a node whose kernel event repeats is kept
// once (its first event).  The profile file itself is deleted.
//
//   node collector/ort_graph.js --model M.onnx --inputs SPEC.json
//        --optimized OPT.onnx --out RESULT.json [--opt-level all] [--threads 1]
//
// SPEC.json: [{"name", "dtype" (float32|int64|int32|int8|uint8|bool|float16|float64),
//              "shape": [ints], "bound": int (integers drawn in [0, bound))}, ...]
// Random values: floats uniform in [-1, 1), seeded from the model's file name.
// Used by scripts/ort_graphs.py (tests/data/ort-plan/).  Exit status 0 on
// success, 1 on any failure (message on stderr), 2 on bad arguments.
'use strict';

const fs = require('fs');
const path = require('path');

const ORT_DIR = path.join(__dirname, 'node_modules', 'onnxruntime-node');

function parseArgs(argv) {
  const o = { model: null, inputs: null, optimized: null, out: null, optLevel: 'all', threads: 1 };
  const keys = { '--model': 'model', '--inputs': 'inputs', '--optimized': 'optimized',
                 '--out': 'out', '--opt-level': 'optLevel', '--threads': 'threads' };
  for (let i = 0; i < argv.length; i++) {
    const k = keys[argv[i]];
    if (!k || i + 1 >= argv.length) return null;
    o[k] = argv[++i];
  }
  o.threads = parseInt(o.threads, 10);
  if (!o.model || !o.inputs || !o.optimized || !o.out || !(o.threads >= 1)) return null;
  return o;
}

function mulberry32(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hashString(s) {                  // FNV-1a, 32 bit
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return h >>> 0;
}

function toHalfBits(v) {
  const f = new Float32Array(1), u = new Uint32Array(f.buffer);
  f[0] = v;
  const x = u[0], sign = (x >>> 16) & 0x8000;
  let e = ((x >>> 23) & 0xff) - 127 + 15;
  const m = x & 0x7fffff;
  if (e <= 0) return sign;
  if (e >= 31) return sign | 0x7c00;
  return sign | (e << 10) | (m >>> 13);
}

function makeTensor(ort, spec, rng) {
  const n = spec.shape.reduce((a, b) => a * b, 1);
  const bound = Math.max(1, Math.floor(spec.bound || 1));
  let data;
  switch (spec.dtype || 'float32') {
    case 'float32': data = new Float32Array(n); for (let i = 0; i < n; i++) data[i] = rng() * 2 - 1; break;
    case 'float64': data = new Float64Array(n); for (let i = 0; i < n; i++) data[i] = rng() * 2 - 1; break;
    case 'float16': data = new Uint16Array(n); for (let i = 0; i < n; i++) data[i] = toHalfBits(rng() * 2 - 1); break;
    case 'int64': data = new BigInt64Array(n);
      for (let i = 0; i < n; i++) data[i] = BigInt(Math.floor(rng() * bound)); break;
    case 'int32': data = new Int32Array(n);
      for (let i = 0; i < n; i++) data[i] = Math.floor(rng() * bound); break;
    case 'int8': data = new Int8Array(n);
      for (let i = 0; i < n; i++) data[i] = Math.floor(rng() * Math.min(bound, 128)); break;
    case 'uint8': data = new Uint8Array(n);
      for (let i = 0; i < n; i++) data[i] = Math.floor(rng() * Math.min(bound, 256)); break;
    case 'bool': data = new Uint8Array(n); for (let i = 0; i < n; i++) data[i] = rng() < 0.5 ? 1 : 0; break;
    default: throw new Error(`input '${spec.name}': unsupported dtype '${spec.dtype}'`);
  }
  return new ort.Tensor(spec.dtype || 'float32', data, spec.shape);
}

function findProfile(prefix) {
  const dir = path.dirname(prefix), base = path.basename(prefix) + '_';
  const files = fs.readdirSync(dir).filter((f) => f.startsWith(base) && f.endsWith('.json'));
  if (files.length !== 1) throw new Error(`expected one profile file for ${base}*, found ${files.length}`);
  return path.join(dir, files[0]);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!o) {
    process.stderr.write('usage: node ort_graph.js --model M.onnx --inputs SPEC.json ' +
                         '--optimized OPT.onnx --out RESULT.json [--opt-level all] [--threads 1]\n');
    return 2;
  }
  const ort = require(ORT_DIR);
  const ortVersion = require(path.join(ORT_DIR, 'package.json')).version;
  const specs = JSON.parse(fs.readFileSync(o.inputs, 'utf8'));
  const prefix = o.out.replace(/\.json$/, '') + '.profile';
  const session = await ort.InferenceSession.create(o.model, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: o.optLevel,
    optimizedModelFilePath: o.optimized,
    enableProfiling: true,
    profileFilePrefix: prefix,
    intraOpNumThreads: o.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    logSeverityLevel: 3,
  });
  const rng = mulberry32(hashString(path.basename(o.model)));
  const feeds = {}, inputs = {};
  for (const spec of specs) {
    if (!session.inputNames.includes(spec.name))
      throw new Error(`model has no input '${spec.name}' (inputs: ${session.inputNames.join(', ')})`);
    feeds[spec.name] = makeTensor(ort, spec, rng);
    inputs[spec.name] = spec.shape;
  }
  for (const name of session.inputNames)
    if (!(name in feeds)) throw new Error(`no value given for model input '${name}'`);
  const fetched = await session.run(feeds);
  const outputs = {};
  for (const name of session.outputNames) outputs[name] = fetched[name].dims;
  session.endProfiling();
  const file = findProfile(prefix);
  const events = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.unlinkSync(file);
  if (!Array.isArray(events)) throw new Error('profile is not a JSON array');
  const kernels = events.filter((e) => e.cat === 'Node' && typeof e.name === 'string' &&
                                       e.name.endsWith('_kernel_time'))
    .sort((a, b) => a.ts - b.ts);
  const seen = new Set(), profile = [];
  for (const e of kernels) {
    const node = e.name.slice(0, -'_kernel_time'.length);
    if (seen.has(node)) continue;
    seen.add(node);
    profile.push([node, (e.args && e.args.op_name) || '?', (e.args && e.args.provider) || '?']);
  }
  const result = { ort_version: ortVersion, input_names: session.inputNames,
                   output_names: session.outputNames, inputs, outputs, profile,
                   kernel_events: kernels.length };
  fs.writeFileSync(o.out, JSON.stringify(result));
  if (session.release) await session.release();
  return 0;
}

main().then((rc) => { process.exitCode = rc; },
            (e) => { process.stderr.write(`ort_graph: ${(e && e.message) || e}\n`); process.exitCode = 1; });
