// ort_shapes.js DIR NAME... - the output shapes ONNX Runtime (onnxruntime-node,
// CPU) gives each DIR/NAME.onnx, run once at batch 2 on zeros (inputs from
// DIR/NAME.inputs.json, as tests/data/gen_quant.py writes them, dim 0 set to
// 2; integer inputs count up below their bound).  Prints one line per model:
// NAME<TAB>OUTPUT=AxB;...  Used by scripts/quant_manifest.py (the quantized
// corpus' expected shapes).  Exit status 1 on any failure.
'use strict';
const path = require('path');
const ort = require(path.join(__dirname, 'node_modules', 'onnxruntime-node'));
const fs = require('fs');
(async () => {
  const dir = process.argv[2];
  for (const name of process.argv.slice(3)) {
    const spec = JSON.parse(fs.readFileSync(`${dir}/${name}.inputs.json`));
    const s = await ort.InferenceSession.create(`${dir}/${name}.onnx`);
    const feeds = {};
    for (const i of spec) {
      const dims = i.shape.slice(); dims[0] = 2;
      const n = dims.reduce((a, b) => a * b, 1);
      const T = {float32: Float32Array, int64: BigInt64Array, int32: Int32Array,
                 float16: Uint16Array, uint8: Uint8Array}[i.dtype];
      const data = new T(n);
      if (i.dtype === 'int64') for (let k = 0; k < n; k++) data[k] = BigInt(k % (i.bound || 2));
      feeds[i.name] = new ort.Tensor(i.dtype, data, dims);
    }
    const out = await s.run(feeds);
    console.log(name + '\t' + s.outputNames.map(o => `${o}=${out[o].dims.join('x')}`).join(';'));
  }
})().catch(e => { console.error(e.message); process.exit(1); });
