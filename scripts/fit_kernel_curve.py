#!/usr/bin/python3
"""fit_kernel_curve.py - what one kernel adds to a whole run, fitted on a
machine's measured whole-model runs, into its calibration.

The timing model predicts each kernel's time as ONNX Runtime's profiler
measured it; a run without the profiler spends less.  A calibration takes
the profiler's cost out at one rate per kernel, measured on chains of tiny
kernels (per_kernel_us, kernel_floor_us).  On networks of hundreds of
small kernels that rate decides the whole answer, and it is not one rate:
blind15's small-kernel networks at 2 threads were predicted 2-3x too
slow.  This fits, per thread count, a piecewise-linear curve w(x): what a
kernel predicted at x microseconds adds to a run (w(0) = 0, points at
--knots, slope 1 beyond the last, never falling, never above x), by least
squares on the runs' relative error, with a ridge pull towards the
calibration's own rule (max(floor, x - g), at most x).  A run's other
terms (overheads, outputs, Loops) stay as `predict` gives them:

    predicted(run) = total - (sum of kernel times - profiler cost) + sum w(x_k)

Truth: each run of every set named in --sets, from the session where it
was quickest (a set measured in several sessions is written A+B+C).
Prints, per thread count, the mean abs. error of every set as `predict`
has it now and with a curve fitted on the other sets alone (leave one set
out), then the curve fitted on all of them (`onnxcost calibrate` fits
one the same way on the curve networks it times); --write stores that
curve in the machine's calibration (data/machines/FP/ort-cpu-inference-
calibration.json, overhead.kernel_curve, through a temporary file), which
the build embeds, or in --calibration FILE, which it fits instead.  Fit
a calibration without a curve (`onnxcost calibrate --no-curve`).

    /usr/bin/python3 scripts/fit_kernel_curve.py [--bin build/onnxcost] [--write]
"""
import argparse
import json
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from zoo_accuracy import predict_json, quickest_runs  # noqa: E402
from corpus_io import write_json  # noqa: E402

SETS = ("zoo holdout blind blind2 blind3 blind4 blind5 blind6 blind7 blind8+blind8-recheck "
        "blind9 blind10 blind11 blind12 blind13+blind13-rerun "
        "blind14+blind14-rerun+blind14-rerun2 blind15+blind15-rerun+blind15-rerun2 "
        "blind16+blind16-rerun+blind16-rerun2 blind17+blind17-rerun+blind17-rerun2")


def runs_of(binary, machine, specs, models, target=None):
    """Every run of the sets: its set, threads, measured wall time, and
    what predict gives it (with --target `target` when given: the total
    and its range, the kernels it runs, the profiler cost taken out, each
    kernel's time)."""
    out = []
    for spec in specs:
        _, runs = quickest_runs(binary, machine, spec, "fit_kernel_curve")
        for r in runs:
            path = os.path.join(models, r["model"] + ".onnx")
            d, err = predict_json(binary, path, r, target, machine) if os.path.exists(path) \
                else (None, "no graph")
            if not d:
                sys.exit(f"fit_kernel_curve: {spec} {r['model']}: {err}")
            t = d["totals"]
            xs = np.array([k["time_us"] for k in d["kernels"]], float)
            out.append({"set": spec.split("+")[0], "threads": r["threads"],
                        "m": r["wall_us"]["median"], "total": t["time_ms"] * 1e3,
                        "low": t["time_ms_low"] * 1e3, "high": t["time_ms_high"] * 1e3,
                        "kernels": t["kernels"],
                        "rest": t["time_ms"] * 1e3 - (xs.sum() - t["profiler_ms"] * 1e3),
                        "xs": xs})
    return out


def add_run_args(ap):
    """The options naming the binary, the machine, the graphs and the
    sets of runs (shared with fit_range_band.py)."""
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "onnxcost"))
    ap.add_argument("--machine", default="cpu-AuthenticAMD-f26-m2")
    ap.add_argument("--models", default=os.path.join(ROOT, "build", "zoo"))
    ap.add_argument("--sets", default=SETS, help="space-separated set specs (default: %(default)s)")
    ap.add_argument("--calibration", help="fit this calibration file (predict --target) and "
                    "--write into it; default: the machine's embedded one")


def calibration_and_runs(args, what):
    """The machine's calibration (its path and contents) and its runs
    (runs_of), with a first line saying how many; `what` ends it."""
    cal_path = args.calibration or os.path.join(ROOT, "data", "machines", args.machine,
                                                "ort-cpu-inference-calibration.json")
    with open(cal_path) as f:
        cal = json.load(f)
    runs = runs_of(args.bin, args.machine, args.sets.split(), args.models, args.calibration)
    sets = list(dict.fromkeys(r["set"] for r in runs))
    print(f"machine {args.machine}; {len(runs)} runs of {len(sets)} sets; {what}")
    return cal_path, cal, runs, sets


def design(runs, knots):
    """Per run: the sum over its kernels of each point's hat function
    (a row), and the part beyond the last point (slope 1)."""
    nodes = np.concatenate([[0.0], knots])
    rows, tails = [], []
    for r in runs:
        x = r["xs"]
        row = np.zeros(len(knots))
        beyond = x >= knots[-1]
        row[-1] += beyond.sum()
        tail = (x[beyond] - knots[-1]).sum()
        xi = x[~beyond]
        j = np.searchsorted(nodes, xi, side="right") - 1
        f = (xi - nodes[j]) / (nodes[j + 1] - nodes[j])
        np.add.at(row, j, f)              # the point above
        lo = j >= 1
        np.add.at(row, j[lo] - 1, 1 - f[lo])  # the point below (none at 0)
        rows.append(row)
        tails.append(tail)
    return np.array(rows), np.array(tails)


def fit(runs, rows, tails, knots, prior, lam):
    """The curve's values at the knots: least squares on relative error,
    ridge towards prior, then made positive, at most x, the last at least
    its prior (runs with few large kernels must not take tens of us off
    every large kernel), and rising; as calibrate's oc_calib_fit_curve."""
    m = np.array([r["m"] for r in runs])
    rest = np.array([r["rest"] for r in runs])
    a = rows / m[:, None]
    y = (m - rest - tails) / m
    scale = np.sqrt(lam * len(runs)) / np.maximum(prior, 0.2)
    a = np.vstack([a, np.diag(scale)])
    y = np.concatenate([y, scale * prior])
    w = np.minimum(np.maximum(np.linalg.lstsq(a, y, rcond=None)[0], 0.0), knots)
    w[-1] = max(w[-1], prior[-1])
    return np.maximum.accumulate(w)


def predicted(runs, rows, tails, w):
    return np.array([r["rest"] for r in runs]) + rows @ w + tails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_run_args(ap)
    ap.add_argument("--knots", default="1 2 4 8 16 32 64", help="microseconds")
    ap.add_argument("--ridge", type=float, default=0.01)
    ap.add_argument("--write", action="store_true", help="store the curve in the calibration")
    args = ap.parse_args()
    knots = np.array([float(v) for v in args.knots.split()])
    if len(knots) < 2 or np.any(np.diff(knots) <= 0) or knots[0] <= 0:
        sys.exit("fit_kernel_curve: --knots must rise from above 0, two or more")
    cal_path, cal, runs, sets = calibration_and_runs(args, f"knots {args.knots} us")
    for fit_ in cal["threads"]:
        t = fit_["threads"]
        ov = fit_["overhead"]
        if "kernel_curve" in ov:
            sys.exit(f"fit_kernel_curve: {cal_path} already has a curve at {t} threads "
                     "(fit on a calibration without one: onnxcost calibrate --no-curve)")
        rt = [r for r in runs if r["threads"] == t]
        if not rt:
            continue
        # the calibration's own rule at the knots: the chains' floor, the
        # profiler's cost per kernel taken out, never more than the kernel
        floor = ov.get("kernel_chain", {}).get("wall_us_per_kernel", 0.0)
        prior = np.minimum(knots, np.maximum(floor, knots + min(ov["per_kernel_us"], 0.0)))
        rows, tails = design(rt, knots)
        m = np.array([r["m"] for r in rt])
        now = np.abs(np.array([r["total"] for r in rt]) / m - 1)
        loso = np.zeros(len(rt))
        print(f"\n{t} thread(s)   set        runs   now    leave-one-set-out curve")
        for s in sets:
            te = np.array([r["set"] == s for r in rt])
            if not te.any():
                continue
            w = fit([r for r, x in zip(rt, te) if not x], rows[~te], tails[~te], knots,
                    prior, args.ridge)
            loso[te] = np.abs(predicted([r for r, x in zip(rt, te) if x], rows[te], tails[te], w)
                              / m[te] - 1)
            print(f"              {s:10s} {te.sum():4d}  {100 * now[te].mean():5.1f}%  "
                  f"{100 * loso[te].mean():5.1f}%")
        print(f"              all        {len(rt):4d}  {100 * now.mean():5.1f}%  "
              f"{100 * loso.mean():5.1f}%")
        w = fit(rt, rows, tails, knots, prior, args.ridge)
        print("              curve (predicted us: in a run us): " +
              ", ".join(f"{k:g}: {v:.2f}" for k, v in zip(knots, w)))
        ov["kernel_curve"] = {"predicted_us": [round(float(k), 6) for k in knots],
                              "wall_us": [round(float(v), 6) for v in w], "runs": len(rt)}
    if args.write:
        write_json(cal_path, cal)
        print(f"\nwrote the curves into {cal_path} (rebuild to embed them)")


if __name__ == "__main__":
    main()
