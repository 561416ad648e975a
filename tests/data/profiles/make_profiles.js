// make_profiles.js - regenerate the ORT profiles of tests/data/profiles/.
//   node tests/data/profiles/make_profiles.js   (from the repository root)
// One session per sample model (graph optimisation 'all', 1 intra-op thread,
// profiling on), 5 runs of a zero input of batch 1, the profile moved to
// tests/data/profiles/MODEL.ort-profile.json.
const fs = require('fs');
const path = require('path');
const ort = require(path.resolve(__dirname, '../../../collector/node_modules/onnxruntime-node'));

async function profile(model) {
  const tmp = fs.mkdtempSync('/tmp/oc-prof-');
  const s = await ort.InferenceSession.create(`samples/${model}.onnx`, {
    graphOptimizationLevel: 'all', enableProfiling: true,
    profileFilePrefix: path.join(tmp, model), intraOpNumThreads: 1 });
  const x = new ort.Tensor('float32', new Float32Array(3 * 224 * 224), [1, 3, 224, 224]);
  for (let i = 0; i < 5; i++) await s.run({ [s.inputNames[0]]: x });
  s.endProfiling();
  await s.release();
  const [f] = fs.readdirSync(tmp).filter((n) => n.endsWith('.json'));
  fs.copyFileSync(path.join(tmp, f), path.join(__dirname, `${model}.ort-profile.json`));
  fs.rmSync(tmp, { recursive: true, force: true });
}

(async () => {
  for (const m of ['squeezenet1_1', 'mobilenet_v2']) await profile(m);
})();
