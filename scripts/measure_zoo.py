#!/usr/bin/python3
"""measure_zoo.py - whole-model ONNX Runtime times of zoo architectures that
no fit has used, for scoring the plan and the timing model on them.

For each architecture (default: HELD below; or those named) it exports the
model with random weights at opset 13 with a symbolic batch (as
scripts/ort_graphs.py does) into build/zoo/, times it through
collector/ort_bench.js (which also profiles every kernel) at batch 1 with 1
intra-op thread (or --threads/--batches), and appends one JSON line per
(model, batch, threads) to data/machines/<fingerprint>/ort-cpu-zoo.jsonl:
the wall time and kernel-sum statistics, the spread, ORT's kernels, the
input dims, and the calibration kernel's time before and after.  Lines
already there are skipped.  Run on a quiet machine (no build, nothing else).

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py
    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --threads 1 2 swin_t

--corpus quant measures the quantized and reduced-precision corpus instead
(tests/data/gen_quant.py's models, rebuilt from their seeds, batch dim N
bound to each --batches), into ort-cpu-quant.jsonl unless --set says
otherwise.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "samples"))
import ort_graphs as OG  # noqa: E402  (the zoo and its export)
from corpus_io import check_kernel_line  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "tests", "data"))

# Architectures used in no fit (not in the in-graph fit, not among the
# models the timing model's overhead or the calibration was tuned on).
HELD = ["shufflenet_v2_x1_0", "mobilenet_v3_large", "mnasnet1_0", "regnet_y_400mf",
        "regnet_x_400mf", "efficientnet_b1", "convnext_tiny", "resnext50_32x4d",
        "inception_v3", "swin_t", "maxvit_t", "deeplabv3_mobilenet_v3_large",
        "lraspp_mobilenet_v3_large", "unet_small", "r3d_18", "tcn_kws", "bert_small",
        "vit_like", "swin_like", "mixer_like", "causal_gpt_tanh", "t5_small",
        "gru_tagger"]


def fingerprint(binary):
    return subprocess.run([binary, "hw", "--fingerprint"], capture_output=True, text=True,
                          check=True).stdout.strip()


class Zoo:
    """The architectures of scripts/ort_graphs.py (opset 13, symbolic batch)."""
    names = OG.ARCHS

    @staticmethod
    def family(name):
        return OG.ARCHS[name]["family"]

    @staticmethod
    def export(name, path):
        OG.onnx.save(OG.export(name, 13, True), path)

    @staticmethod
    def opset(name):
        return 13

    @staticmethod
    def inputs(name, b):
        values = OG.run_values(name)
        values["N"] = b
        specs = []
        for iname, dims, dtype, bound in OG.ARCHS[name]["inputs"]:
            s = {"name": iname, "dtype": dtype, "shape": OG.dims_of(dims, values)}
            if bound:
                s["bound"] = bound
            specs.append(s)
        return specs


class Quant:
    """tests/data/gen_quant.py's models, each rebuilt from its own seed
    (gen_quant.build) once; their specs are at batch 1, dim 0 is N."""

    def __init__(self):
        import gen_quant
        self.gq = gen_quant
        self.names = gen_quant.MODELS
        self.built = {}

    @staticmethod
    def family(name):
        return name.split("_")[0]

    def build(self, name):
        if name not in self.built:
            self.built[name] = self.gq.build(name)
        return self.built[name]

    def export(self, name, path):
        OG.onnx.save(self.build(name)[0], path)

    def opset(self, name):
        return next(o.version for o in self.build(name)[0].opset_import
                    if o.domain in ("", "ai.onnx"))

    def inputs(self, name, b):
        return [dict(s, shape=[b] + list(s["shape"][1:])) for s in self.build(name)[1]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="*")
    ap.add_argument("--threads", type=int, nargs="+", default=[1])
    ap.add_argument("--batches", type=int, nargs="+", default=[1])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "onnxcost"))
    ap.add_argument("--set", help="file ort-cpu-SET.jsonl (default zoo, or quant with --corpus "
                    "quant; 'holdout' for the final hold-out, scored once)")
    ap.add_argument("--corpus", choices=["zoo", "quant"], default="zoo")
    args = ap.parse_args()
    src = Quant() if args.corpus == "quant" else Zoo()
    names = args.models or (list(src.names) if args.corpus == "quant" else HELD)
    for n in names:
        if n not in src.names:
            sys.exit(f"measure_zoo: unknown {'model' if args.corpus == 'quant' else 'architecture'} '{n}'")
    out = os.path.join(ROOT, "data", "machines", fingerprint(args.bin),
                       f"ort-cpu-{args.set or args.corpus}.jsonl")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    done = set()
    if os.path.exists(out):
        for line in open(out):
            r = json.loads(line)
            done.add((r["model"], r["batch"], r["threads"]))
    mdir = os.path.join(ROOT, "build", "zoo")
    os.makedirs(mdir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="oc-zoo-")
    for name in names:
        path = os.path.join(mdir, name + ".onnx")
        if not os.path.exists(path):
            src.export(name, path + ".tmp")
            os.replace(path + ".tmp", path)
        for threads in args.threads:
            for b in args.batches:
                if (name, b, threads) in done:
                    continue
                specs = src.inputs(name, b)
                man, res = os.path.join(tmp, "m.jsonl"), os.path.join(tmp, "r.jsonl")
                with open(man, "w") as f:
                    f.write(check_kernel_line(tmp))
                    f.write(json.dumps({"id": f"{name}/b{b}/t{threads}", "model": path,
                                        "inputs": specs}) + "\n")
                t0 = time.time()
                p = subprocess.run(["node", os.path.join(ROOT, "collector", "ort_bench.js"),
                                    "--threads", str(threads), "--in", man, "--out", res,
                                    "--warmup", "2", "--repeats", "7", "--passes", "2",
                                    "--max-seconds", "30"] + ([] if threads == 1 else ["--no-spin"]),
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    print(f"{name} b{b} t{threads}: driver failed: {p.stderr.strip()[-300:]}")
                    continue
                lines = [json.loads(line) for line in open(res)]
                r = [x for x in lines if not x.get("calibration")][0]
                if not r.get("ok"):
                    print(f"{name} b{b} t{threads}: {r.get('error')}")
                    continue
                rec = {"model": name, "family": src.family(name),
                       "opset": src.opset(name),
                       "batch": b, "threads": threads, "spin": threads == 1,
                       "inputs": specs, "ort_version": r["ort_version"],
                       "wall_us": r["wall_us"], "kernel_us": r["kernel_us"],
                       "spread": r.get("spread"), "kernels": r["kernels"],
                       "calib_us": [x.get("median_us") for x in lines if x.get("calibration")],
                       "collected": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                with open(out, "a") as f:
                    f.write(json.dumps(rec) + "\n")
                print(f"{name} b{b} t{threads}: wall {r['wall_us']['median'] / 1e3:.2f} ms, "
                      f"{len(r['kernels'])} kernels, spread {r.get('spread')}, "
                      f"{time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
