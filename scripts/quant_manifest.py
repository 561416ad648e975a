#!/usr/bin/env python3
"""quant_manifest.py [OUT] - the expected parameter counts and output shapes
of the quantized and reduced-precision corpus (tests/data/gen_quant.py), in
the manifest form tests/corpus_test.sh reads (default
tests/data/quant-corpus.tsv).

The models are generated afresh into a temporary folder (they are
deterministic).  Parameters are counted with python3-onnx, apart from
onnxcost, as tests/data/gen_corpus.py counts them (every stored element of
the initializers and Constant nodes), except that MatMulNBits' packed B
counts as the K x N weights it holds.
Output shapes are what ONNX Runtime gives at batch 2
(collector/ort_graph.js, its "outputs").  Run with /usr/bin/python3 after
setup."""
import json, os, subprocess, sys, tempfile

import onnx
from onnx import numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "data"))
from gen_corpus import stored_params  # noqa: E402


def params(m):
    """gen_corpus.py's count of stored elements, MatMulNBits' packed B
    counted as the K x N weights it holds."""
    total = stored_params(m)
    inits = {t.name: t for t in m.graph.initializer}
    for n in m.graph.node:
        if n.op_type == "MatMulNBits" and n.domain == "com.microsoft" and len(n.input) > 1 \
                and n.input[1] in inits:
            a = {x.name: x.i for x in n.attribute}
            total += max(0, a["K"] * a["N"] - numpy_helper.to_array(inits[n.input[1]]).size)
    return total


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests", "data",
                                                             "quant-corpus.tsv")
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([sys.executable, os.path.join(ROOT, "tests", "data", "gen_quant.py"), d],
                       check=True, stdout=subprocess.DEVNULL)
        names = sorted(f[:-5] for f in os.listdir(d) if f.endswith(".onnx"))
        rows = []
        for nm in names:
            m = onnx.load(os.path.join(d, nm + ".onnx"))
            specs = json.load(open(os.path.join(d, nm + ".inputs.json")))
            for sp in specs:
                sp["shape"][0] = 2
            run = os.path.join(d, nm + ".run")
            with open(run + ".inputs.json", "w") as f:
                json.dump(specs, f)
            subprocess.run(["node", os.path.join(ROOT, "collector", "ort_graph.js"), "--model",
                            os.path.join(d, nm + ".onnx"), "--inputs", run + ".inputs.json",
                            "--optimized", run + ".opt.onnx", "--out", run + ".json"], check=True)
            got = json.load(open(run + ".json"))
            outs = ";".join("%s=%s" % (o, "x".join(map(str, got["outputs"][o])))
                            for o in got["output_names"])
            spec = {i["name"]: i["shape"] for i in specs}
            dims = {}
            for i in m.graph.input:
                for k, dm in enumerate(i.type.tensor_type.shape.dim):
                    if dm.dim_param and i.name in spec:
                        dims[dm.dim_param] = spec[i.name][k]
            b = ",".join("%s=%d" % kv for kv in sorted(dims.items())) or "-"
            rows.append("%s.onnx\t%s\t%d\t%s" % (nm, b, params(m), outs))
    with open(out + ".tmp", "w") as f:
        f.write("# written by scripts/quant_manifest.py: model, dims, params, output shapes "
                "(ONNX Runtime 1.30 at batch 2)\nmodel\tdims\tparams\toutputs\n")
        f.write("\n".join(rows) + "\n")
    os.replace(out + ".tmp", out)
    print("%s: %d models" % (out, len(rows)))


if __name__ == "__main__":
    main()
