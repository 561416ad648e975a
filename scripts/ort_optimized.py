#!/usr/bin/python3
"""Regenerate tests/data/ort-opt/: models as ONNX Runtime rewrote them.

For a few entries of tests/data/ort-plan/ (together they hold every
com.microsoft and com.microsoft.nchwc operator ORT 1.30 writes at graph
optimisation level 'all' on an x86 CPU: FusedConv, FusedGemm, FusedMatMul,
Gelu, BiasGelu, QuickGelu, SkipLayerNormalization, SimplifiedLayerNormalization,
LayerNormalization before opset 17, and the NCHWc Conv, pools, Upsample,
ReorderInput and ReorderOutput) this script exports the model again exactly
as scripts/ort_graphs.py does, has collector/ort_graph.js write ORT's
optimized model (`optimizedModelFilePath`), and commits that graph:

  ENTRY.onnx.gz   ORT's optimized model, float initializers of more than 64
                  elements external (in 'weights-not-committed.bin', never
                  written), gzip -9, mtime 0.

The kernels ORT runs for it are the ones in ../ort-plan/ENTRY.ort.json (ORT
does not rewrite its own output further); tests/ort_opt_check.py compares.

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/ort_optimized.py [ENTRY...]
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

import onnx

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "tests", "data", "ort-opt")
_spec = importlib.util.spec_from_file_location(
    "ort_graphs", os.path.join(REPO, "scripts", "ort_graphs.py"))
og = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(og)

ENTRIES = ["resnet18-op13-dyn", "alexnet-op13-dyn", "bert_small-op13-dyn",
           "bert_small-op13-static", "efficientnet_b0-op13-dyn", "r3d_18-op13-dyn",
           "t5_small-op13-dyn", "unet_small-op13-dyn", "inception_v3-op13-dyn",
           "resnext50_32x4d-op13-dyn", "mobilenet_v3_large-op13-dyn"]


def main():
    want = sys.argv[1:] or ENTRIES
    table = {v[0]: v for v in og.variants()}
    bad = [e for e in want if e not in table]
    if bad:
        sys.exit("unknown entries: " + ", ".join(bad))
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ort-opt-") as work:
        for entry in want:
            t0 = time.time()
            _, arch, opset, dynamic = table[entry]
            m = og.export(arch, opset, dynamic)
            full = os.path.join(work, "m.onnx")
            onnx.save_model(m, full)
            del m
            values = og.run_values(arch)
            specs = [{"name": n, "dtype": dt, "shape": og.dims_of(d, values),
                      **({"bound": b} if b else {})}
                     for n, d, dt, b in og.ZOO[arch]["inputs"]]
            spec_path = os.path.join(work, "inputs.json")
            with open(spec_path, "w") as f:
                json.dump(specs, f)
            opt_path = os.path.join(work, "opt.onnx")
            r = subprocess.run(["node", og.DRIVER, "--model", full, "--inputs", spec_path,
                                "--optimized", opt_path, "--out",
                                os.path.join(work, "r.json"), "--opt-level", "all",
                                "--threads", "1"], capture_output=True, text=True,
                               timeout=900)
            if r.returncode != 0:
                sys.exit(f"{entry}: ORT: {(r.stderr.strip().splitlines() or ['?'])[-1]}")
            opt = onnx.load(opt_path)
            og.externalize(opt)
            dst = os.path.join(OUT, entry + ".onnx.gz")
            og.write_gz(dst + ".tmp", opt.SerializeToString())
            os.replace(dst + ".tmp", dst)
            print(f"{entry:<40}{len(opt.graph.node):6d} nodes{time.time() - t0:8.1f} s",
                  flush=True)


if __name__ == "__main__":
    main()
