#!/usr/bin/env node
// ort_bench.js - the ONNX Runtime (Node.js, CPU) timing driver of `onnxcost collect`.
//
// Reads a chunk manifest (JSON Lines), times every model in it with
// onnxruntime-node and writes one result line per sample (JSON Lines).
// See collector/README.md for the protocol and for what exactly is measured.
//
//   node collector/ort_bench.js --threads T --in MANIFEST --out RESULTS
//        [--warmup W] [--repeats R] [--passes P] [--max-seconds S] [--opt-level L]
//        [--no-spin]
//
// --no-spin turns off the spinning of ORT's intra-op pool workers
// (session.intra_op.allow_spinning = 0).  Every session owns a pool whose
// workers spin for a while after each run; with 2 threads on 2 cores the
// still-spinning workers of the sessions run just before take a core from
// the one being timed.  On a 24-sample Conv chunk at 2 threads this took
// the median spread from 56% to 4% and the kernel sum down 15%.
//
// Exit status: 0 when RESULTS was written (samples that fail are reported in
// it as {"ok": false}), 2 on bad arguments, 1 on I/O errors (unreadable or
// malformed manifest, unwritable results).
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');

const USAGE =
  'usage: node ort_bench.js --threads T --in MANIFEST --out RESULTS\n' +
  '       [--warmup W (3)] [--repeats R (10)] [--passes P (3)] [--max-seconds S (2)]\n' +
  '       [--opt-level disabled|basic|extended|layout|all (all)] [--no-spin]\n';

class UsageError extends Error {}

function parseArgs(argv) {
  const o = { threads: null, in: null, out: null, warmup: 3, repeats: 10, passes: 3,
              maxSeconds: 2, optLevel: 'all', spin: true };
  const ints = { '--threads': 'threads', '--warmup': 'warmup', '--repeats': 'repeats',
                 '--passes': 'passes' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') { process.stdout.write(USAGE); process.exit(0); }
    if (a === '--no-spin') { o.spin = false; continue; }
    const eq = a.indexOf('=');
    const key = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    if (!ints[key] && !['--in', '--out', '--max-seconds', '--opt-level'].includes(key))
      throw new UsageError(`unknown argument '${a}'`);
    let val;
    if (a.startsWith('--') && eq > 0) val = a.slice(eq + 1);
    else {
      if (i + 1 >= argv.length) throw new UsageError(`missing value for ${a}`);
      val = argv[++i];
    }
    if (ints[key]) {
      if (!/^\d+$/.test(val)) throw new UsageError(`${key} wants a non-negative integer, got '${val}'`);
      o[ints[key]] = parseInt(val, 10);
    } else if (key === '--in') o.in = val;
    else if (key === '--out') o.out = val;
    else if (key === '--max-seconds') {
      const v = Number(val);
      if (!(v > 0) || !isFinite(v)) throw new UsageError(`--max-seconds wants a positive number, got '${val}'`);
      o.maxSeconds = v;
    } else if (key === '--opt-level') {
      if (!['disabled', 'basic', 'extended', 'layout', 'all'].includes(val))
        throw new UsageError(`bad --opt-level '${val}'`);
      o.optLevel = val;
    } else throw new UsageError(`unknown argument '${a}'`);
  }
  if (o.threads === null) throw new UsageError('--threads is required');
  if (o.threads < 1) throw new UsageError('--threads must be >= 1');
  if (!o.in) throw new UsageError('--in is required');
  if (!o.out) throw new UsageError('--out is required');
  if (o.repeats < 3) throw new UsageError('--repeats must be >= 3');
  if (o.passes < 1) throw new UsageError('--passes must be >= 1');
  return o;
}

// ---------------------------------------------------------------- statistics

function quantile(sorted, q) {            // linear interpolation (numpy's default)
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos), hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function round3(x) { return x === null ? null : Math.round(x * 1000) / 1000; }

function stats(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  return { min: round3(s[0]), median: round3(quantile(s, 0.5)), p10: round3(quantile(s, 0.1)),
           p90: round3(quantile(s, 0.9)), n: s.length };
}

function spreadOf(st) {
  return st.median > 0 ? round3((st.p90 - st.p10) / st.median) : null;
}

// Of several passes (each an array of times) keep the one with the lowest median.
function quickestPass(passes) {
  let best = -1, bestMed = Infinity;
  passes.forEach((xs, i) => {
    if (xs.length === 0) return;
    const m = stats(xs).median;
    if (m < bestMed) { bestMed = m; best = i; }
  });
  return best;
}

// ---------------------------------------------------------------- inputs

function hashString(s) {                  // FNV-1a, 32 bit
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return h >>> 0;
}

function mulberry32(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const F32 = new Float32Array(1), U32 = new Uint32Array(F32.buffer);
function toHalfBits(v) {                  // float -> IEEE half (round toward zero; fine for noise)
  F32[0] = v;
  const x = U32[0], sign = (x >>> 16) & 0x8000, e = ((x >>> 23) & 0xff) - 127 + 15;
  const m = x & 0x7fffff;
  if (e <= 0) return sign;                // flush tiny values to zero
  if (e >= 31) return sign | 0x7c00;
  return sign | (e << 10) | (m >>> 13);
}

// Make one input tensor: floats uniform in [-1, 1), integers in [0, bound).
function makeTensor(ort, spec, rng) {
  const dtype = spec.dtype || 'float32';
  if (!Array.isArray(spec.shape) || !spec.shape.every((d) => Number.isInteger(d) && d >= 0))
    throw new Error(`input '${spec.name}': shape must be a list of non-negative integers`);
  const n = spec.shape.reduce((a, b) => a * b, 1);
  const bound = spec.bound === undefined ? null : Number(spec.bound);
  const intBound = (def) => {
    const b = bound === null ? def : bound;
    if (!(b >= 1)) throw new Error(`input '${spec.name}': bound must be >= 1`);
    return Math.floor(b);
  };
  let data;
  switch (dtype) {
    case 'float32': data = new Float32Array(n); for (let i = 0; i < n; i++) data[i] = rng() * 2 - 1; break;
    case 'float64': data = new Float64Array(n); for (let i = 0; i < n; i++) data[i] = rng() * 2 - 1; break;
    case 'float16': data = new Uint16Array(n); for (let i = 0; i < n; i++) data[i] = toHalfBits(rng() * 2 - 1); break;
    case 'int64': { const b = intBound(1); data = new BigInt64Array(n);
      for (let i = 0; i < n; i++) data[i] = BigInt(Math.floor(rng() * b)); break; }
    case 'int32': { const b = intBound(1); data = new Int32Array(n);
      for (let i = 0; i < n; i++) data[i] = Math.floor(rng() * b); break; }
    case 'int8': { const b = Math.min(intBound(1), 128); data = new Int8Array(n);
      for (let i = 0; i < n; i++) data[i] = Math.floor(rng() * b); break; }
    case 'uint8': { const b = Math.min(intBound(1), 256); data = new Uint8Array(n);
      for (let i = 0; i < n; i++) data[i] = Math.floor(rng() * b); break; }
    case 'bool': data = new Uint8Array(n); for (let i = 0; i < n; i++) data[i] = rng() < 0.5 ? 1 : 0; break;
    default: throw new Error(`input '${spec.name}': unsupported dtype '${dtype}'`);
  }
  return new ort.Tensor(dtype, data, spec.shape);
}

function makeFeeds(ort, session, inputs, seedKey) {
  if (!Array.isArray(inputs)) throw new Error('"inputs" must be a list');
  const rng = mulberry32(hashString(seedKey));
  const feeds = {};
  for (const spec of inputs) {
    if (!spec || typeof spec.name !== 'string') throw new Error('every input needs a "name"');
    if (!session.inputNames.includes(spec.name))
      throw new Error(`model has no input '${spec.name}' (inputs: ${session.inputNames.join(', ')})`);
    feeds[spec.name] = makeTensor(ort, spec, rng);
  }
  for (const name of session.inputNames)
    if (!(name in feeds)) throw new Error(`manifest gives no value for model input '${name}'`);
  return feeds;
}

// ---------------------------------------------------------------- profiles

// ORT's profile is a Chrome-trace JSON array of complete ("ph": "X") events,
// ts/dur in microseconds. Per run: one {"cat": "Node", "name": "<node>_kernel_time",
// "args": {"op_name", "provider", ...}} per executed kernel, then
// "SequentialExecutor::Execute" and "model_run" ({"cat": "Session"}) enclosing them.
// Runs are separated by the model_run events: the k-th model_run (by ts) is the
// k-th call of session.run(), and a kernel belongs to the run whose window holds it.
function readProfileRuns(file) {
  const events = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(events)) throw new Error('profile is not a JSON array');
  const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run')
    .sort((a, b) => a.ts - b.ts)
    .map((e) => ({ ts: e.ts, dur: e.dur, kernels: [] }));
  const nodes = events.filter((e) => e.cat === 'Node' && typeof e.name === 'string' &&
                                     e.name.endsWith('_kernel_time'))
    .sort((a, b) => a.ts - b.ts);
  let r = 0;
  for (const e of nodes) {
    while (r < runs.length && e.ts > runs[r].ts + runs[r].dur) r++;
    if (r >= runs.length) break;
    if (e.ts < runs[r].ts) continue;      // outside every run window (should not happen)
    runs[r].kernels.push({ name: e.name.slice(0, -'_kernel_time'.length),
                           op: (e.args && e.args.op_name) || '?', dur: e.dur });
  }
  return runs;
}

// ---------------------------------------------------------------- timing

async function timedRun(session, feeds) {
  const t0 = process.hrtime.bigint();
  await session.run(feeds);
  return Number(process.hrtime.bigint() - t0) / 1000;
}

function oneLine(err) {
  const s = (err && (err.message || String(err))) || 'unknown error';
  return s.replace(/\s+/g, ' ').trim().slice(0, 500);
}

// Decide warmups/repeats for a sample from one probe run time (us) so that all
// timed runs of the sample (all passes, both sessions) fit in the budget.
function planRuns(opt, probeUs, sessionsPerSample) {
  const budgetUs = opt.maxSeconds * 1e6;
  const perPass = budgetUs / (opt.passes * sessionsPerSample);   // for W + R runs
  let warmup = opt.warmup, repeats = opt.repeats;
  if ((warmup + repeats) * probeUs > perPass) {
    warmup = Math.min(opt.warmup, 1);
    repeats = Math.max(3, Math.min(opt.repeats, Math.floor(perPass / probeUs) - warmup));
  }
  return { warmup, repeats };
}

function sessionOptions(opt, profilePrefix) {
  const so = {
    executionProviders: ['cpu'],
    intraOpNumThreads: opt.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: opt.optLevel,
    logSeverityLevel: 3,
  };
  if (!opt.spin) so.extra = { session: { intra_op: { allow_spinning: '0' } } };
  if (profilePrefix) { so.enableProfiling = true; so.profileFilePrefix = profilePrefix; }
  return so;
}

// ---------------------------------------------------------------- main

async function main() {
  let opt;
  try { opt = parseArgs(process.argv.slice(2)); }
  catch (e) {
    if (e instanceof UsageError) { process.stderr.write(`ort_bench: ${e.message}\n${USAGE}`); return 2; }
    throw e;
  }

  // Read the manifest (I/O or format errors here are fatal: exit 1).
  let lines;
  try { lines = fs.readFileSync(opt.in, 'utf8').split('\n'); }
  catch (e) { process.stderr.write(`ort_bench: cannot read manifest: ${oneLine(e)}\n`); return 1; }
  let calibModel = null;
  const samples = [];
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    if (!t) continue;
    let obj;
    try { obj = JSON.parse(t); }
    catch (e) { process.stderr.write(`ort_bench: ${opt.in}:${i + 1}: bad JSON: ${oneLine(e)}\n`); return 1; }
    if (obj && typeof obj === 'object' && 'calibration_model' in obj) {
      if (samples.length > 0 || calibModel !== null) {
        process.stderr.write(`ort_bench: ${opt.in}:${i + 1}: calibration_model must be the first line\n`);
        return 1;
      }
      calibModel = String(obj.calibration_model);
      continue;
    }
    if (!obj || typeof obj !== 'object' || obj.id === undefined) {
      process.stderr.write(`ort_bench: ${opt.in}:${i + 1}: a sample line needs an "id"\n`);
      return 1;
    }
    samples.push(obj);
  }

  const ort = require('onnxruntime-node');
  let ortVersion;
  try { ortVersion = require('onnxruntime-node/package.json').version; }
  catch (e) { ortVersion = (ort.env && ort.env.versions && ort.env.versions.node) || 'unknown'; }

  const profDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ort_bench-'));
  const results = [];                      // in manifest order
  const calLines = [];

  try {
    // 1. Create every session of the chunk first (calibration included), so
    //    that the timing loops below only run models.
    let calib = null;
    if (calibModel !== null) {
      try {
        calib = { session: await ort.InferenceSession.create(calibModel, sessionOptions(opt, null)) };
        calib.feeds = makeFeeds(ort, calib.session, calibInputs(calib.session), 'calibration');
      } catch (e) {
        calib = { error: `calibration model: ${oneLine(e)}` };
      }
    }
    const work = [];
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i];
      const w = { id: s.id, error: null, plain: null, prof: null, feeds: null, prefix: null,
                  wall: [], profWall: [], profTags: [], plan: null };
      results.push(w);
      try {
        if (typeof s.model !== 'string') throw new Error('"model" must be a path');
        w.plain = await ort.InferenceSession.create(s.model, sessionOptions(opt, null));
        w.prefix = path.join(profDir, `s${i}`);
        w.prof = await ort.InferenceSession.create(s.model, sessionOptions(opt, w.prefix));
        w.feeds = makeFeeds(ort, w.plain, s.inputs, String(s.id));
      } catch (e) {
        w.error = oneLine(e);
      }
      work.push(w);
    }

    // 2. Calibration before the chunk.
    if (calib) calLines.push(await timeCalibration(opt, calib, 'before'));

    // 3. Interleaved passes: every pass visits every sample.
    for (let p = 0; p < opt.passes; p++) {
      for (const w of work) {
        if (w.error) continue;
        try {
          if (!w.plan) {
            // probe: warm the session up, then take the quicker of the last two runs
            const perPass = opt.maxSeconds * 1e6 / (opt.passes * 2), t = [];
            let sum = 0;
            while (t.length < Math.max(opt.warmup, 2)) {
              const x = await timedRun(w.plain, w.feeds);
              t.push(x); sum += x;
              if (t.length >= 2 && sum > perPass) break;
            }
            w.plan = planRuns(opt, Math.min(...t.slice(-2)), 2);
          }
          const { warmup, repeats } = w.plan;
          // wall time: the session without profiling
          for (let k = 0; k < warmup; k++) await w.plain.run(w.feeds);
          const wall = [];
          for (let k = 0; k < repeats; k++) wall.push(await timedRun(w.plain, w.feeds));
          w.wall.push(wall);
          // kernel times: the profiled session; remember which call is which
          for (let k = 0; k < warmup; k++) { await w.prof.run(w.feeds); w.profTags.push(-1); }
          const pw = [];
          for (let k = 0; k < repeats; k++) { pw.push(await timedRun(w.prof, w.feeds)); w.profTags.push(p); }
          w.profWall.push(pw);
        } catch (e) {
          w.error = oneLine(e);
        }
      }
    }

    // 4. Calibration after the chunk (before the sample sessions are freed,
    //    so that the machine is in the same state as before).
    if (calib) calLines.push(await timeCalibration(opt, calib, 'after'));

    // 5. Collect profiles, free sessions, build result lines.
    const out = [];
    if (calLines.length) out.push(calLines[0]);
    for (const w of work) {
      let line;
      try { line = w.error ? null : summarize(opt, w, ortVersion); }
      catch (e) { w.error = oneLine(e); }
      if (!line) line = { id: w.id, ok: false, error: w.error };
      out.push(line);
      for (const s of [w.plain, w.prof]) {
        if (s) { try { await s.release(); } catch (e) { /* ignore */ } }
      }
      w.plain = w.prof = w.feeds = null;
    }
    if (calib && calib.session) { try { await calib.session.release(); } catch (e) { /* ignore */ } }
    if (calLines.length) out.push(calLines[1]);

    // 6. Write atomically: a results file is complete or absent.
    const tmp = `${opt.out}.tmp.${process.pid}`;
    try {
      fs.writeFileSync(tmp, out.map((o) => JSON.stringify(o)).join('\n') + '\n');
      fs.renameSync(tmp, opt.out);
    } catch (e) {
      try { fs.unlinkSync(tmp); } catch (e2) { /* ignore */ }
      process.stderr.write(`ort_bench: cannot write results: ${oneLine(e)}\n`);
      return 1;
    }
    return 0;
  } finally {
    fs.rmSync(profDir, { recursive: true, force: true });
  }
}

// The calibration model's inputs come from its own metadata (float32, fixed shape).
function calibInputs(session) {
  return session.inputMetadata.map((m) => {
    if (!m.isTensor || !m.shape.every((d) => Number.isInteger(d) && d >= 0))
      throw new Error(`input '${m.name}' needs a fixed shape`);
    return { name: m.name, dtype: m.type, shape: m.shape };
  });
}

async function timeCalibration(opt, calib, when) {
  if (calib.error) return { calibration: true, when, ok: false, error: calib.error };
  try {
    // A fresh process runs its first stretch slow (thread pool start, clock
    // ramp, page faults): without this the 'before' figure read up to 2x
    // the 'after' one and every chunk was re-measured.  300 ms was not
    // always enough: on cpu-AuthenticAMD-f26-m2 the 256^3 check MatMul
    // timed 855-925 us after 0 or 300 ms of this loop in 5 of 6 fresh
    // processes and 185-192 us after 1 s in all three (it read ~840 us in
    // 1 of 8 driver runs with 300 ms), so it runs 1 s.
    if (when === 'before') {
      const t0 = process.hrtime.bigint();
      while (process.hrtime.bigint() - t0 < 1000000000n) await calib.session.run(calib.feeds);
    }
    const passes = [];
    for (let p = 0; p < opt.passes; p++) {
      for (let k = 0; k < opt.warmup; k++) await calib.session.run(calib.feeds);
      const xs = [];
      for (let k = 0; k < opt.repeats; k++) xs.push(await timedRun(calib.session, calib.feeds));
      passes.push(xs);
    }
    const st = stats(passes[quickestPass(passes)]);
    return { calibration: true, when, median_us: st.median, spread: spreadOf(st), n: st.n,
             passes: opt.passes };
  } catch (e) {
    return { calibration: true, when, ok: false, error: `calibration model: ${oneLine(e)}` };
  }
}

function findProfile(prefix) {
  const dir = path.dirname(prefix), base = path.basename(prefix) + '_';
  const files = fs.readdirSync(dir).filter((f) => f.startsWith(base) && f.endsWith('.json'));
  if (files.length !== 1) throw new Error(`expected one profile file for ${base}*, found ${files.length}`);
  return path.join(dir, files[0]);
}

function summarize(opt, w, ortVersion) {
  w.prof.endProfiling();
  const file = findProfile(w.prefix);
  const runs = readProfileRuns(file);
  fs.unlinkSync(file);
  if (runs.length !== w.profTags.length)
    throw new Error(`profile holds ${runs.length} runs, expected ${w.profTags.length}`);

  // Per pass: kernel sums, model_run durations, per-kernel durations.
  const kPass = [], runPass = [], perKernel = [];
  for (let p = 0; p < opt.passes; p++) { kPass.push([]); runPass.push([]); perKernel.push(new Map()); }
  runs.forEach((r, i) => {
    const p = w.profTags[i];
    if (p < 0) return;
    kPass[p].push(r.kernels.reduce((a, k) => a + k.dur, 0));
    runPass[p].push(r.dur);
    for (const k of r.kernels) {
      const m = perKernel[p];
      if (!m.has(k.name)) m.set(k.name, { name: k.name, op: k.op, durs: [] });
      m.get(k.name).durs.push(k.dur);
    }
  });
  const kp = quickestPass(kPass), wp = quickestPass(w.wall);
  if (kp < 0 || wp < 0) throw new Error('no timed runs');
  const kernelSt = stats(kPass[kp]), wallSt = stats(w.wall[wp]);
  return {
    id: w.id, ok: true, ort_version: ortVersion, threads: opt.threads,
    wall_us: wallSt,
    kernel_us: kernelSt,
    kernels: [...perKernel[kp].values()].map((k) => ({ name: k.name, op: k.op,
                                                       median_us: stats(k.durs).median })),
    passes: opt.passes,
    spread: spreadOf(kernelSt),
    wall_spread: spreadOf(wallSt),
    run_us: stats(runPass[kp]),            // ORT's own model_run time, profiled session
    prof_wall_us: stats(w.profWall[kp]),   // session.run() of the profiled session
  };
}

main().then((rc) => { process.exitCode = rc; }, (e) => {
  process.stderr.write(`ort_bench: ${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 1;
});
