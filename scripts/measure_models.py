#!/usr/bin/env python3
"""measure_models.py - whole reference models through ONNX Runtime, for the
whole-model evaluation of the timing model and its per-run overhead.

Exports the reference architectures with random weights (samples/export.py)
into build/models/ when missing, times each at batch 1, 4 and 16 with 1 and
2 intra-op threads through collector/ort_bench.js (which profiles every
kernel), and appends one JSON line per (model, batch, threads) to
data/machines/<fingerprint>/ort-cpu-models.jsonl.  With more than one thread the driver runs with
--no-spin, as the operator samples of the 2-thread target are collected
(collector/README.md, "Session options").  Run on a quiet machine.

    scripts/measure_models.py [THREADS...]      (default: 1 2)
    OC_MODELS_OUT=FILE scripts/measure_models.py 1   another file (a rerun
                                                 on the same machine)"""
import json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from corpus_io import check_kernel_line  # noqa: E402
MODELS = os.path.join(ROOT, "build", "models")
# Every machine's measurements in its own folder, named by its fingerprint.
FINGERPRINT = subprocess.run([os.environ.get("OC_BIN", os.path.join(ROOT, "build", "onnxcost")),
                              "hw", "--fingerprint"], capture_output=True, text=True,
                             check=True).stdout.strip()
OUT = os.environ.get("OC_MODELS_OUT") or os.path.join(ROOT, "data", "machines", FINGERPRINT,
                                                      "ort-cpu-models.jsonl")
os.makedirs(os.path.dirname(OUT), exist_ok=True)
# name -> (input name, per-sample input shape, batches)
SETS = {
    "squeezenet1_1": ("input", [3, 224, 224], [1, 4, 16]),
    "mobilenet_v2": ("input", [3, 224, 224], [1, 4, 16]),
    "resnet18": ("input", [3, 224, 224], [1, 4, 16]),
    "efficientnet_b0": ("input", [3, 224, 224], [1, 4, 16]),
    "googlenet": ("input", [3, 224, 224], [1, 4, 16]),
    "densenet121": ("input", [3, 224, 224], [1, 4, 16]),
    "resnet50": ("input", [3, 224, 224], [1, 4, 16]),
    "alexnet": ("input", [3, 224, 224], [1, 4, 16]),
    "vgg16": ("input", [3, 224, 224], [1, 4, 16]),
    "vit_b_16": ("input", [3, 224, 224], [1, 4, 16]),
    "bert_base": ("input_ids", [128], [1, 4, 16]),
    "gpt2_small": ("input_ids", [128], [1, 4, 16]),
}
VOCAB = {"bert_base": 30522, "gpt2_small": 50257}


def main():
    threads_list = [int(t) for t in (sys.argv[1:] or ["1", "2"])]
    missing = [n for n in SETS if not os.path.exists(os.path.join(MODELS, n + ".onnx"))]
    if missing:
        sys.path.insert(0, os.path.join(ROOT, "samples"))
        import export as E
        E.export_group({n: E.REFERENCE_MODELS[n] for n in missing}, MODELS, external=False)
    done = set()
    if os.path.exists(OUT):
        for line in open(OUT):
            r = json.loads(line)
            done.add((r["model"], r["batch"], r["threads"]))
    tmp = tempfile.mkdtemp(prefix="oc-models-")
    for threads in threads_list:
        for name, (inp, shape, batches) in SETS.items():
            for b in batches:
                if (name, b, threads) in done:
                    continue
                man = os.path.join(tmp, "m.jsonl")
                res = os.path.join(tmp, "r.jsonl")
                spec = {"name": inp, "dtype": "int64" if inp == "input_ids" else "float32",
                        "shape": [b] + shape}
                if inp == "input_ids":
                    spec["bound"] = VOCAB[name]
                with open(man, "w") as f:
                    f.write(check_kernel_line(tmp))
                    f.write(json.dumps({"id": f"{name}/b{b}/t{threads}",
                                        "model": os.path.join(MODELS, name + ".onnx"),
                                        "inputs": [spec]}) + "\n")
                t0 = time.time()
                spin = threads == 1
                p = subprocess.run(["node", os.path.join(ROOT, "collector", "ort_bench.js"),
                                    "--threads", str(threads), "--in", man, "--out", res,
                                    "--warmup", "1", "--repeats", "5", "--passes", "2",
                                    "--max-seconds", "40"] + ([] if spin else ["--no-spin"]),
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    print(f"{name} b{b} t{threads}: driver failed: {p.stderr.strip()[-300:]}")
                    continue
                lines = [json.loads(l) for l in open(res)]
                r = [l for l in lines if not l.get("calibration")][0]
                if not r.get("ok"):
                    print(f"{name} b{b} t{threads}: {r.get('error')}")
                    continue
                rec = {"model": name, "batch": b, "threads": threads, "spin": spin,
                       "inputs": [spec], "ort_version": r["ort_version"],
                       "wall_us": r["wall_us"], "kernel_us": r["kernel_us"],
                       "spread": r.get("spread"), "kernels": r["kernels"],
                       "calib_us": [l.get("median_us") for l in lines if l.get("calibration")],
                       "collected": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                with open(OUT, "a") as f:
                    f.write(json.dumps(rec) + "\n")
                print(f"{name} b{b} t{threads}: wall {r['wall_us']['median'] / 1e3:.1f} ms, "
                      f"{len(r['kernels'])} kernels, {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
