#!/usr/bin/env python3
"""check_drift.py - how fast the machine was while each measured set ran,
by the check kernel scripts/measure_zoo.py times before and after every
run (calib_us), and what the sets' whole-model error becomes when each
run's measured time is scaled to the reference sets' speed.

    bench/check_drift.py [--bin BUILD/onnxcost] [--machine FINGERPRINT]
                         [--models DIR] --ref SET[,SET...] SET...

Per set (one session each, not the quickest of several) and thread count:
when it was measured, the median of its runs' check kernel against the
reference sets' median at that thread count, and the mean abs. error of
`predict` against the measured times as they are and scaled by that run's
ratio (reference check / its check).  A host whose speed moves between
sessions shows here; whether the check kernel tracks the networks' own
slowdown is what the second column tests.
"""
import argparse
import os
import statistics as st
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from zoo_accuracy import add_set_args, predict_json, quickest_runs  # noqa: E402


def check_us(run):
    """The run's check kernel: the mean of its before and after times."""
    c = [x for x in run.get("calib_us") or [] if x]
    return st.mean(c) if c else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_set_args(ap)
    ap.add_argument("--ref", required=True, help="the sets whose speed is the reference")
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    ref = {}
    for name in a.ref.split(","):
        a.machine, runs = quickest_runs(a.bin, a.machine, name, "check_drift")
        for r in runs:
            if check_us(r):
                ref.setdefault(r["threads"], []).append(check_us(r))
    ref = {t: st.median(v) for t, v in ref.items()}
    print("machine %s; reference check kernel (%s): %s" % (
        a.machine, a.ref, ", ".join("%.0f us at %d thread(s)" % (v, t) for t, v in sorted(ref.items()))))
    print("%-18s %-17s %s" % ("set", "measured", "per thread count: check kernel against the "
                              "reference, error as measured -> scaled"))
    for name in a.sets:
        _, runs = quickest_runs(a.bin, a.machine, name, "check_drift")
        when = min((r.get("collected", "") for r in runs), default="")
        cols = []
        for t in sorted(ref):
            ratio, raw, scaled = [], [], []
            for r in runs:
                c = check_us(r)
                model = os.path.join(a.models, r["model"] + ".onnx")
                if r["threads"] != t or not c or not os.path.exists(model):
                    continue
                d, _ = predict_json(a.bin, model, r, None, a.machine)
                if d is None:
                    continue
                pred, meas = d["totals"]["time_ms"], r["wall_us"]["median"] / 1e3
                ratio.append(c / ref[t])
                raw.append(abs(pred / meas - 1))
                scaled.append(abs(pred / (meas * ref[t] / c) - 1))
            if ratio:
                cols.append("t%d x%.2f %5.1f%% -> %5.1f%%" % (
                    t, st.median(ratio), 100 * st.mean(raw), 100 * st.mean(scaled)))
        print("%-18s %-17s %s" % (name, when[:16], " | ".join(cols)))


if __name__ == "__main__":
    main()
