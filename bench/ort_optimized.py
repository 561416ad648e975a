#!/usr/bin/env python3
"""ort_optimized.py - a model as exported against the same model as ONNX
Runtime optimised and saved it (tests/data/ort-opt, written by
scripts/ort_optimized.py): kernels planned for each against the kernels ORT
ran (tests/data/ort-plan/ENTRY.ort.json), and the predicted time of each.

ORT runs its saved graph as it is, so both should come to the same kernels
and, ideally, the same time: the saved graph holds ORT's own operators
(FusedConv, NCHWc Conv, SkipLayerNormalization, ...), which onnxcost
describes as the ONNX operators the timing model measured.

    bench/ort_optimized.py [--bin BUILD/onnxcost]
"""
import argparse
import collections
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def predict(binary, model, rec):
    cmd = [binary, "predict", model, "--format", "json", "--nchwc-block", "16"]
    for name, dims in rec["inputs"].items():
        cmd += ["--input", "%s=%s" % (name, "x".join(str(d) for d in dims))]
    r = subprocess.run(cmd, capture_output=True, text=True,
                       env=dict(os.environ, ONNXCOST_MACHINE=rec["machine"]))
    if r.returncode:
        sys.exit("%s: %s" % (model, r.stderr.strip().splitlines()[-1]))
    j = json.loads(r.stdout)
    return j["totals"]["time_ms"], [k["op"] for k in j["kernels"]]


def agreement(ours, theirs):
    a, b = collections.Counter(ours), collections.Counter(theirs)
    return sum(min(a[k], b[k]) for k in a) / max(len(ours), len(theirs), 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "onnxcost"))
    args = ap.parse_args()
    opt_dir = os.path.join(ROOT, "tests", "data", "ort-opt")
    plan_dir = os.path.join(ROOT, "tests", "data", "ort-plan")
    print("%-28s %8s %14s %14s %11s %11s %8s" % (
        "entry", "ORT ran", "exported: k", "optimized: k", "exported", "optimized",
        "opt/exp"))
    ratios = []
    for f in sorted(os.listdir(opt_dir)):
        if not f.endswith(".onnx.gz"):
            continue
        e = f[:-len(".onnx.gz")]
        with open(os.path.join(plan_dir, e + ".ort.json")) as fh:
            rec = json.load(fh)
        ran = [op for _, op in rec["profile"]]
        t_exp, k_exp = predict(args.bin, os.path.join(plan_dir, f), rec)
        t_opt, k_opt = predict(args.bin, os.path.join(opt_dir, f), rec)
        ratios.append(t_opt / t_exp)
        print("%-28s %8d %5d %6.1f%% %5d %6.1f%% %8.2fms %8.2fms %8.3f" % (
            e, len(ran), len(k_exp), 100 * agreement(k_exp, ran), len(k_opt),
            100 * agreement(k_opt, ran), t_exp, t_opt, t_opt / t_exp))
    ratios.sort()
    print("\n%d models: optimized/exported predicted time median %.3f, range %.3f-%.3f"
          % (len(ratios), ratios[len(ratios) // 2], ratios[0], ratios[-1]))


if __name__ == "__main__":
    main()
