#!/usr/bin/env python3
"""fit_range.py - the whole-model range from errors on unseen architectures.

The ensemble's range (the spread of its members' predictions) says how much
the members disagree, not how wrong they all are together: on architectures
no fit had seen it held the measured time in 64-68% of runs.  This script
predicts every run of measured sets that no fit has used (--set, repeatable;
data/machines/<fingerprint>/ort-cpu-SET.jsonl), takes the ratios measured /
predicted, and writes into the overhead file (data/ort-cpu-overhead.json,
which scripts/train_default.sh embeds in the timing model) the central
--coverage interval of those ratios:

    "range": {"low": q((1 - c) / 2), "high": q((1 + c) / 2), ...}

predict then widens each whole-model range to at least [t * low, t * high]
(never narrower than the ensemble's).  The point predictions do not depend
on the range, so refitting it on the same runs gives the same figures.

    bench/fit_range.py --set blind4 [--coverage 0.85] [--overhead FILE] [--dry-run]

Score the range on another set afterwards (bench/zoo_accuracy.py prints its
coverage): fitted and scored on one set, it is no accuracy figure.
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from zoo_accuracy import add_set_args, predict_json, set_path  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from corpus_io import write_json  # noqa: E402


def quantile(xs, q):
    """Linear-interpolated quantile of sorted xs."""
    pos = q * (len(xs) - 1)
    i = int(pos)
    j = min(i + 1, len(xs) - 1)
    return xs[i] + (xs[j] - xs[i]) * (pos - i)


def main():
    ap = argparse.ArgumentParser()
    add_set_args(ap)
    ap.add_argument("--set", action="append", required=True,
                    help="a measured set no fit has used (repeatable)")
    ap.add_argument("--coverage", type=float, default=0.85)
    ap.add_argument("--overhead", default=os.path.join(ROOT, "data", "ort-cpu-overhead.json"))
    ap.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = ap.parse_args()
    if not 0.5 <= args.coverage < 1:
        sys.exit("fit_range: --coverage must be in [0.5, 1)")
    ratios, runs = [], 0
    for name in args.set:
        machine, path = set_path(args.bin, args.machine, name, "fit_range")
        for line in open(path):
            r = json.loads(line)
            model = os.path.join(args.models, r["model"] + ".onnx")
            if not os.path.exists(model):
                sys.exit(f"fit_range: {model} missing (scripts/measure_zoo.py exports it)")
            d, err = predict_json(args.bin, model, r, None, machine)
            if d is None:
                sys.exit(f"fit_range: {r['model']}: predict failed: {err}")
            ratios.append(r["wall_us"]["median"] / 1e3 / d["totals"]["time_ms"])
            runs += 1
    if runs < 20:
        sys.exit(f"fit_range: {runs} runs are too few for a {args.coverage:.0%} interval")
    ratios.sort()
    c = args.coverage
    low = min(1.0, quantile(ratios, (1 - c) / 2))
    high = max(1.0, quantile(ratios, (1 + c) / 2))
    doc_range = {"low": round(low, 4), "high": round(high, 4), "coverage": c,
                 "fitted_on": sorted(args.set), "runs": runs}
    print(f"{runs} runs of {', '.join(args.set)}: measured/predicted from {ratios[0]:.3f} "
          f"to {ratios[-1]:.3f}, median {quantile(ratios, 0.5):.3f}; the central {c:.0%}: "
          f"[{low:.3f}, {high:.3f}]")
    if args.dry_run:
        return
    with open(args.overhead) as f:
        doc = json.load(f)
    doc["range"] = doc_range
    write_json(args.overhead, doc)
    print(f"wrote {args.overhead}: embed it with 'onnxcost train --overhead "
          f"{args.overhead} --embed data/ort-cpu.tmodel'")


if __name__ == "__main__":
    main()
