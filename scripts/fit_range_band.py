#!/usr/bin/python3
"""fit_range_band.py - the whole-model range of a machine's calibration,
fitted on how far its measured runs strayed from their predictions.

predict's range was the ensemble's (each kernel's lowest and highest
member, summed), widened to at least a fixed factor: it held the measured
time of nearly every held-out run only by being 4-5x wide.  This fits,
per thread count, a band by regime instead: runs are put in bands by
their predicted time per kernel (networks of tiny kernels stray further),
and a band's range is [total * low, total * high], low and high the
--quantile and 1 - --quantile quantiles of measured / predicted over the
band's runs.  Truth: each run of every set named in --sets (as
fit_kernel_curve.py takes them, each run's quickest session).

Prints, per thread count and set, how often the range as `predict` gives
it now holds the measured time and its median width (high / low), and
the same for a band fitted on the other sets alone (leave one set out);
then the band fitted on all of them.  --write stores it in the machine's
calibration (overhead.range_band, through a temporary file), which the
build embeds.  Fit it after the kernel curve: the band is of the totals
predict gives.

    /usr/bin/python3 scripts/fit_range_band.py [--bin build/onnxcost] [--write]
"""
import argparse
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from corpus_io import write_json  # noqa: E402
from fit_kernel_curve import add_run_args, calibration_and_runs  # noqa: E402


def bands_of(runs, edges):
    return np.searchsorted(edges, np.array([r["total"] / max(r["kernels"], 1) for r in runs]),
                           side="right")


def fit(ratios, bands, n_bands, q):
    """Each band's (low, high) quantiles of measured / predicted."""
    out = []
    for b in range(n_bands):
        v = ratios[bands == b]
        if len(v) < 10:
            sys.exit(f"fit_range_band: {len(v)} runs in band {b} (10 or more wanted): "
                     "choose other --bands")
        out.append((float(np.quantile(v, q)), float(np.quantile(v, 1 - q))))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_run_args(ap)
    ap.add_argument("--bands", default="2 8 32",
                    help="predicted us per kernel where a band ends (default: %(default)s)")
    ap.add_argument("--quantile", type=float, default=0.035,
                    help="the share of runs left out on each side (default: %(default)s)")
    ap.add_argument("--write", action="store_true", help="store the band in the calibration")
    args = ap.parse_args()
    edges = np.array([float(v) for v in args.bands.split()])
    if len(edges) + 1 > 8 or np.any(np.diff(edges) <= 0) or (len(edges) and edges[0] <= 0):
        sys.exit("fit_range_band: --bands must rise from above 0, at most 7")
    if not 0 < args.quantile < 0.5:
        sys.exit("fit_range_band: --quantile must lie in (0, 0.5)")
    cal_path, cal, runs, sets = calibration_and_runs(
        args, f"bands end at {args.bands} us per kernel; {args.quantile:g} of runs out on "
        "each side")
    for fit_ in cal["threads"]:
        t = fit_["threads"]
        rt = [r for r in runs if r["threads"] == t]
        if not rt:
            continue
        m = np.array([r["m"] for r in rt])
        total = np.array([r["total"] for r in rt])
        ratios = m / total
        bands = bands_of(rt, edges)
        now_in = (np.array([r["low"] for r in rt]) <= m) & (m <= np.array([r["high"] for r in rt]))
        now_w = np.array([r["high"] / r["low"] for r in rt])
        lo_in = np.zeros(len(rt), bool)
        lo_w = np.zeros(len(rt))
        print(f"\n{t} thread(s)   set        runs   now: holds, width   "
              "leave-one-set-out band: holds, width")
        for s in sets:
            te = np.array([r["set"] == s for r in rt])
            if not te.any():
                continue
            band = fit(ratios[~te], bands[~te], len(edges) + 1, args.quantile)
            lo = np.array([band[b][0] for b in bands[te]])
            hi = np.array([band[b][1] for b in bands[te]])
            lo_in[te] = (lo <= ratios[te]) & (ratios[te] <= hi)
            lo_w[te] = hi / lo
            print(f"              {s:10s} {te.sum():4d}   {100 * now_in[te].mean():5.1f}%  "
                  f"{np.median(now_w[te]):5.2f}x        {100 * lo_in[te].mean():5.1f}%  "
                  f"{np.median(lo_w[te]):5.2f}x")
        print(f"              all        {len(rt):4d}   {100 * now_in.mean():5.1f}%  "
              f"{np.median(now_w):5.2f}x        {100 * lo_in.mean():5.1f}%  "
              f"{np.median(lo_w):5.2f}x")
        band = fit(ratios, bands, len(edges) + 1, args.quantile)
        print("              band (low, high) by us per kernel: " + ", ".join(
            f"{'<' + format(edges[b], 'g') if b < len(edges) else '>=' + format(edges[-1], 'g')}: "
            f"{lo:.2f}-{hi:.2f}" for b, (lo, hi) in enumerate(band)))
        fit_["overhead"]["range_band"] = {
            "per_kernel_us": [float(e) for e in edges],
            "low": [round(lo, 6) for lo, _ in band], "high": [round(hi, 6) for _, hi in band],
            "quantile": args.quantile, "runs": len(rt)}
    if args.write:
        write_json(cal_path, cal)
        print(f"\nwrote the bands into {cal_path} (rebuild to embed them)")


if __name__ == "__main__":
    main()
