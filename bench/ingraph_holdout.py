#!/usr/bin/python3
"""ingraph_holdout.py - what learning in-graph samples does for a measured
set that none of them came from.

    bench/ingraph_holdout.py --leave-out blind3 [--workdir DIR]

Makes cpu-AuthenticAMD-f26-m2's in-graph samples (onnxcost collect
--from-runs) from every measured set but the one left out (and never from
blind4), trains the ort-cpu timing model as scripts/train_default.sh does
on the operator samples plus those, refits the machine's calibration on it
(the command of data/machines/<fingerprint>/README.md), and scores the left
out set with it (bench/zoo_accuracy.py --target), beside the shipped
target.  Training takes about 35 minutes on one core.  Needs the sets'
graphs in build/zoo (scripts/measure_zoo.py exports them).
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FP = "cpu-AuthenticAMD-f26-m2"
SETS = ["zoo", "holdout", "blind", "blind2", "blind3", "quant", "recheck"]
REFERENCE = ["models", "models-rerun"]


def run(cmd, **kw):
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--leave-out", required=True, choices=SETS)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "onnxcost"))
    ap.add_argument("--workdir", default="/tmp/ingraph-holdout")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    mdir = os.path.join(ROOT, "data", "machines", FP)
    udir = os.path.join(ROOT, "data", "machines", "cpu-AuthenticAMD-unrecorded")
    data = os.path.join(args.workdir, "f26-ingraph.jsonl.gz")
    if os.path.exists(data):
        os.remove(data)
    runs = [a for s in SETS if s != args.leave_out
            for a in ("--from-runs", os.path.join(mdir, f"ort-cpu-{s}.jsonl"))]
    run([args.bin, "collect", "--quiet", *runs, "--models", os.path.join(ROOT, "build", "zoo"),
         "-d", data])
    runs = [a for s in REFERENCE for a in ("--from-runs", os.path.join(mdir, f"ort-cpu-{s}.jsonl"))]
    run([args.bin, "collect", "--quiet", *runs, "--models",
         os.path.join(ROOT, "tests", "reference", "models"), "-d", data])
    tmodel = os.path.join(args.workdir, "ort-cpu.tmodel")
    run([args.bin, "train", "--hw", os.path.join(udir, "hw.json"), "--hw",
         os.path.join(mdir, "hw.json"), "--seed", "1", "--ensemble", "10", "-q", "-o", tmodel,
         *[os.path.join(udir, f) for f in ("ort-cpu-t1.jsonl.gz", "ort-cpu-t2.jsonl.gz",
                                           "ort-cpu-ingraph.jsonl.gz")],
         *[os.path.join(mdir, f) for f in ("ort-cpu-t1.jsonl.gz", "ort-cpu-t2.jsonl.gz")],
         data])
    cal = os.path.join(args.workdir, "calibration.json")
    run([args.bin, "calibrate", "--no-measure", "--timing-model", tmodel,
         "--probe", os.path.join(mdir, "ort-cpu-probe.jsonl.gz"),
         "--anchors", os.path.join(mdir, "ort-cpu-kernel-chains.jsonl"),
         "--anchors", os.path.join(mdir, "ort-cpu-models.jsonl"),
         "--hw", os.path.join(mdir, "hw.json"), "-o", cal], stdout=subprocess.DEVNULL)
    score = [sys.executable, os.path.join(ROOT, "bench", "zoo_accuracy.py"), "--bin", args.bin,
             "--machine", FP, "--set", args.leave_out]
    for label, extra in (("left out of the in-graph samples", ["--target", cal]),
                         ("the shipped target, which learned them", [])):
        out = subprocess.run(score + extra, capture_output=True, text=True, check=True).stdout
        tail = [l for l in out.splitlines() if l.startswith("all ") or "cases:" in l]
        print(f"{args.leave_out}, {label}:")
        for line in tail:
            print("  " + line)


if __name__ == "__main__":
    main()
