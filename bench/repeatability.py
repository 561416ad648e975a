#!/usr/bin/env python3
"""repeatability.py - how far whole-model truth moves between sessions.

Reads two or more measured sets of this machine (data/machines/<fingerprint>/
ort-cpu-SET.jsonl, scripts/measure_zoo.py) that ran the same networks,
matches their runs (network, batch, threads) and prints, per thread count,
how far each later set's median wall time is from the first set's: mean
absolute difference, share within +-10%, median ratio; then the runs that
moved most.  No prediction is made: a set held out for judging can be
measured again and checked here without being looked at.

    bench/repeatability.py blind13 blind13-rerun [--machine FP] [--top N]
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from zoo_accuracy import set_path  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(binary, machine, name):
    """The machine and the runs of set `name`, by (network, batch, threads)."""
    machine, path = set_path(binary, machine, name, "repeatability")
    with open(path) as f:
        runs = [json.loads(line) for line in f]
    return machine, {(r["model"], r["batch"], r["threads"]): r for r in runs}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--machine")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "onnxcost"))
    args = ap.parse_args()
    if len(args.sets) < 2:
        sys.exit("repeatability: give two sets or more")
    machine, first = load(args.bin, args.machine, args.sets[0])
    print(f"machine {machine}; each set against {args.sets[0]} (median wall time per run)")
    print("%-24s %7s %5s %14s %9s %12s" % ("set", "threads", "runs", "mean abs diff",
                                          "within10", "median ratio"))
    moved = []
    for name in args.sets[1:]:
        other = load(args.bin, machine, name)[1]
        for th in (1, 2):
            keys = [k for k in first if k in other and k[2] == th]
            if not keys:
                continue
            ratio = [other[k]["wall_us"]["median"] / first[k]["wall_us"]["median"] for k in keys]
            diff = [abs(x - 1) for x in ratio]
            print("%-24s %7d %5d %13.1f%% %5d/%-3d %12.2f" % (
                name, th, len(keys), 100 * statistics.mean(diff),
                sum(d <= 0.10 for d in diff), len(keys), statistics.median(ratio)))
            moved += [(abs(x - 1), name, k, first[k]["wall_us"]["median"],
                       other[k]["wall_us"]["median"]) for x, k in zip(ratio, keys)]
    print(f"\nthe {args.top} runs that moved most:")
    for d, name, (model, b, th), a, b2 in sorted(moved, reverse=True)[:args.top]:
        print("  %-24s %-24s b%-3d t%d %10.1f us -> %10.1f us (%+.0f%%)" % (
            name, model, b, th, a, b2, 100 * (b2 / a - 1)))


if __name__ == "__main__":
    main()
