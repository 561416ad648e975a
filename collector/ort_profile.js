#!/usr/bin/env node
// ort_profile.js - write an ONNX Runtime profile of a model, for
// `onnxcost compare MODEL PROFILE` and `onnxcost calibrate --profile
// MODEL=PROFILE`.
//
//   node collector/ort_profile.js MODEL OUT.json [--threads T] [--runs N]
//        [--input NAME=DIMS[:int64[:BOUND]]]...
//
// One session (graph optimisation 'all', T intra-op threads, sequential,
// profiling on); N runs (default 10) of zero float inputs, or random
// integers below BOUND for int64 inputs; symbolic dims not given by --input
// are 1.  Exit 0 when OUT was written, 2 on bad arguments, 1 on errors.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');

function usage(msg) {
  if (msg) process.stderr.write(`ort_profile: ${msg}\n`);
  process.stderr.write('usage: node ort_profile.js MODEL OUT.json [--threads T] [--runs N] ' +
                       '[--input NAME=DIMS[:int64[:BOUND]]]...\n');
  process.exit(2);
}

function parse(argv) {
  const o = { model: null, out: null, threads: 1, runs: 10, inputs: {} };
  const pos = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--threads' || a === '--runs') {
      const v = argv[++i];
      if (!/^\d+$/.test(v || '') || Number(v) < 1) usage(`${a} wants a positive integer`);
      o[a.slice(2)] = Number(v);
    } else if (a === '--input') {
      const m = /^([^=]+)=([0-9x]+)(?::(int64|float32)(?::(\d+))?)?$/.exec(argv[++i] || '');
      if (!m) usage(`bad --input '${argv[i]}'`);
      o.inputs[m[1]] = { dims: m[2].split('x').map(Number), dtype: m[3] || 'float32',
                         bound: m[4] ? Number(m[4]) : 2 };
    } else if (a.startsWith('-')) {
      usage(`unknown option '${a}'`);
    } else {
      pos.push(a);
    }
  }
  if (pos.length !== 2) usage('expected MODEL and OUT.json');
  [o.model, o.out] = pos;
  return o;
}

function tensor(ort, meta, spec) {
  let dims = spec ? spec.dims : (meta && meta.shape ? meta.shape : [1]).map((d) =>
    (typeof d === 'number' && d > 0 ? d : 1));
  const n = dims.reduce((a, b) => a * b, 1);
  const type = spec ? spec.dtype : (meta && meta.type === 'int64' ? 'int64' : 'float32');
  if (type === 'int64') {
    const v = new BigInt64Array(n);
    const bound = spec ? spec.bound : 2;
    for (let i = 0; i < n; i++) v[i] = BigInt(Math.floor(Math.random() * bound));
    return new ort.Tensor('int64', v, dims);
  }
  return new ort.Tensor('float32', new Float32Array(n), dims);
}

(async () => {
  const o = parse(process.argv.slice(2));
  const ort = require(path.join(__dirname, 'node_modules', 'onnxruntime-node'));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oc-profile-'));
  try {
    const s = await ort.InferenceSession.create(o.model, {
      graphOptimizationLevel: 'all', executionMode: 'sequential', enableProfiling: true,
      profileFilePrefix: path.join(tmp, 'p'), intraOpNumThreads: o.threads,
      interOpNumThreads: 1 });
    const feeds = {};
    s.inputNames.forEach((name, i) => {
      const meta = s.inputMetadata ? s.inputMetadata[i] : null;
      feeds[name] = tensor(ort, meta, o.inputs[name]);
    });
    for (let i = 0; i < o.runs; i++) await s.run(feeds);
    s.endProfiling();
    await s.release();
    const files = fs.readdirSync(tmp).filter((n) => n.endsWith('.json'));
    if (files.length !== 1) throw new Error(`expected one profile, found ${files.length}`);
    fs.copyFileSync(path.join(tmp, files[0]), o.out + '.tmp');
    fs.renameSync(o.out + '.tmp', o.out);
  } catch (e) {
    process.stderr.write(`ort_profile: ${e.message}\n`);
    process.exitCode = 1;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
})();
