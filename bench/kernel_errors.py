#!/usr/bin/env python3
"""kernel_errors.py - where a whole-model error comes from, kernel by kernel.

For every run of a measured set (data/machines/<fingerprint>/ort-cpu-SET.jsonl,
written by scripts/measure_zoo.py with ORT's profiled kernels), predicts the
run with `onnxcost predict -f json`, matches the planned kernels to the
kernels ORT ran by node name, and prints per ORT operator the profiled time
and the predicted time summed over all runs (and their ratio), then the
kernels with the largest absolute misses, then what was planned but not run
and run but not planned.  Both sides are per-kernel times as the profiler
sees them (the profiler's own cost per kernel included on both sides).

    bench/kernel_errors.py [--set blind2] [--threads 1] [--top 25]
"""
import argparse
import collections
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from zoo_accuracy import add_set_args, predict_json, set_path  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    add_set_args(ap)
    ap.add_argument("--set", default="zoo")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--model", action="append", help="only these models (repeatable)")
    ap.add_argument("--target")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    machine, path = set_path(args.bin, args.machine, args.set, "kernel_errors")
    by_op = collections.defaultdict(lambda: [0.0, 0.0, 0])     # measured, predicted, n
    misses, unplanned, unrun = [], collections.Counter(), collections.Counter()
    for line in open(path):
        run = json.loads(line)
        if run["threads"] not in args.threads or (args.model and run["model"] not in args.model):
            continue
        model = os.path.join(args.models, run["model"] + ".onnx")
        if not os.path.exists(model):
            print(f"{run['model']}: {model} missing", file=sys.stderr)
            continue
        d, err = predict_json(args.bin, model, run, args.target, machine)
        if d is None:
            print(f"{run['model']}: predict failed: {err}", file=sys.stderr)
            continue
        planned = {k["name"]: k for k in d["kernels"]}
        tag = f"{run['model']} b{run['batch']} t{run['threads']}"
        for k in run["kernels"]:
            p = planned.pop(k["name"], None)
            if p is None:
                unplanned[(run["model"], k["op"])] += 1
                continue
            e = by_op[k["op"]]
            e[0] += k["median_us"]
            e[1] += p["time_us"]
            e[2] += 1
            misses.append((p["time_us"] - k["median_us"], tag, k["name"], k["op"], p["op"],
                           k["median_us"], p["time_us"]))
        for p in planned.values():
            unrun[(run["model"], p["op"])] += 1
    meas = sum(e[0] for e in by_op.values())
    print(f"machine {machine}, set {args.set}, threads {args.threads}")
    print("%-28s %6s %12s %12s %7s %7s" % ("ORT op", "kernels", "profiled ms", "predicted ms",
                                          "ratio", "share"))
    for op, (m, p, n) in sorted(by_op.items(), key=lambda x: -abs(x[1][1] - x[1][0])):
        print("%-28s %6d %12.2f %12.2f %7.2f %6.1f%%" % (op, n, m / 1e3, p / 1e3,
                                                        p / m if m else 0, 100 * m / meas))
    print(f"\nlargest misses (predicted - profiled), of {len(misses)} matched kernels:")
    for miss in sorted(misses, key=lambda x: -abs(x[0]))[:args.top]:
        print("  %+9.0f us  %-34s %-40s %-16s (planned %s) %8.0f -> %8.0f" % miss)
    if unplanned:
        print("\nran but not planned (model, ORT op: runs):")
        for (m, op), n in sorted(unplanned.items()):
            print(f"  {m} {op}: {n}")
    if unrun:
        print("\nplanned but not run (model, planned op: runs):")
        for (m, op), n in sorted(unrun.items()):
            print(f"  {m} {op}: {n}")


if __name__ == "__main__":
    main()
