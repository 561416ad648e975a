#!/usr/bin/python3
"""lofo_calibration.py - the in-graph fit of a machine's calibration on its
whole measured architectures, scored leave-one-family-out.

    bench/lofo_calibration.py [--sets zoo,holdout,blind,blind2] [--machine FP]
                              [--score-only blind3] [-o CALIBRATION]

A calibration's in-graph fit (the scale from kernel sums to wall time, and
the per-group factors from the runs' kernel lists; docs/calibration.md) is
fitted on whole networks.  The shipped calibration of a machine fits it on
the reference networks (data/machines/FP/ort-cpu-models.jsonl); this fits it
on those plus every run of the named sets, and scores it honestly: for each
family, a calibration fitted without that family's runs predicts them.
Printed per family and overall, at 1 and 2 threads, beside the calibration
fitted on the reference networks only (the same probe, chains and hw.json:
data/machines/FP/README.md's command).  --score-only SETS scores sets that
are in no fit with both calibrations (a blind set).  -o writes the
calibration fitted on everything named in --sets.

Needs the sets' graphs in build/zoo (scripts/measure_zoo.py exports them).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from zoo_accuracy import add_set_args, predict_json, set_path  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def calibrate(binary, mdir, anchors_dir, extra, out):
    """calibrate --no-measure on the machine's probe, chains and reference
    runs plus the anchor files `extra`, into `out`."""
    cmd = [binary, "calibrate", "--no-measure",
           "--probe", os.path.join(mdir, "ort-cpu-probe.jsonl.gz"),
           "--anchors", os.path.join(mdir, "ort-cpu-kernel-chains.jsonl"),
           "--anchors", os.path.join(mdir, "ort-cpu-models.jsonl"),
           "--hw", os.path.join(mdir, "hw.json"), "-o", out]
    for f in extra:
        cmd += ["--anchors", f]
    p = subprocess.run(cmd, capture_output=True, text=True,
                       env=dict(os.environ, ONNXCOST_ANCHORS=anchors_dir))
    if p.returncode != 0:
        sys.exit(f"lofo_calibration: calibrate failed: {p.stderr.strip()}")


def predict(binary, models, run, target, machine):
    d, err = predict_json(binary, os.path.join(models, run["model"] + ".onnx"), run, target,
                          machine)
    if d is None:
        sys.exit(f"lofo_calibration: predict {run['model']} failed: {err}")
    return d["totals"]["time_ms"]


def score(rows, key, threads):
    sel = [r for r in rows if r["threads"] == threads and key in r]
    if not sel:
        return "-"
    errs = [abs(r[key] / r["measured_ms"] - 1) for r in sel]
    return "%5.1f%% %3d/%-3d" % (100 * sum(errs) / len(errs),
                                  sum(e <= 0.10 for e in errs), len(errs))


def main():
    ap = argparse.ArgumentParser()
    add_set_args(ap)
    ap.add_argument("--sets", default="zoo,holdout,blind,blind2")
    ap.add_argument("--score-only", default="", help="sets scored, in no fit")
    ap.add_argument("-o", "--output", help="write the calibration fitted on all of --sets")
    args = ap.parse_args()
    machine, _ = set_path(args.bin, args.machine, args.sets.split(",")[0], "lofo_calibration")
    mdir = os.path.join(ROOT, "data", "machines", machine)
    runs, blind = [], []
    for name in args.sets.split(","):
        for line in open(set_path(args.bin, machine, name, "lofo_calibration")[1]):
            r = json.loads(line)
            r["set"] = name
            runs.append(r)
    for name in filter(None, args.score_only.split(",")):
        for line in open(set_path(args.bin, machine, name, "lofo_calibration")[1]):
            r = json.loads(line)
            r["set"] = name
            blind.append(r)
    for r in runs + blind:
        if not os.path.exists(os.path.join(args.models, r["model"] + ".onnx")):
            sys.exit(f"lofo_calibration: {r['model']}.onnx missing in {args.models} "
                     "(scripts/measure_zoo.py exports it)")
    with tempfile.TemporaryDirectory() as tmp:
        # the anchors' folder: the reference networks and the sets' graphs
        adir = os.path.join(tmp, "graphs")
        os.mkdir(adir)
        for d in (os.path.join(ROOT, "tests", "reference", "models"), args.models):
            for f in os.listdir(d):
                if f.endswith(".onnx") and not os.path.exists(os.path.join(adir, f)):
                    os.symlink(os.path.join(d, f), os.path.join(adir, f))

        def fit(sel, name):
            path = os.path.join(tmp, name + ".jsonl")
            with open(path, "w") as f:
                for r in sel:
                    f.write(json.dumps({k: v for k, v in r.items() if k != "set"}) + "\n")
            cal = os.path.join(tmp, name + ".json")
            calibrate(args.bin, mdir, adir, [path], cal)
            return cal

        ref = os.path.join(tmp, "reference.json")
        calibrate(args.bin, mdir, adir, [], ref)
        families = sorted({r["family"] for r in runs})
        for fam in families:
            cal = fit([r for r in runs if r["family"] != fam], "without-" + fam.replace("/", "_"))
            for r in runs:
                if r["family"] == fam:
                    r["lofo_ms"] = predict(args.bin, args.models, r, cal, machine)
        whole = fit(runs, "all")
        for r in runs + blind:
            r["measured_ms"] = r["wall_us"]["median"] / 1e3
            r["reference_ms"] = predict(args.bin, args.models, r, ref, machine)
        for r in blind:
            r["all_ms"] = predict(args.bin, args.models, r, whole, machine)
        if args.output:
            with open(whole) as src, open(args.output + ".tmp", "w") as dst:
                dst.write(src.read())
            os.replace(args.output + ".tmp", args.output)

    print(f"machine {machine}; in-graph fit on the reference networks (reference) or on them "
          f"and the runs of {args.sets} less the family scored (left out)")
    print("%-24s %-22s %-22s %-22s %-22s" % ("family", "left out, 1 thread", "2 threads",
                                            "reference, 1 thread", "2 threads"))
    for fam in families + ["all"]:
        sel = [r for r in runs if fam in ("all", r["family"])]
        print("%-24s %-22s %-22s %-22s %-22s" % (
            fam, score(sel, "lofo_ms", 1), score(sel, "lofo_ms", 2),
            score(sel, "reference_ms", 1), score(sel, "reference_ms", 2)))
    n = len(runs)
    lo = sum(abs(r["lofo_ms"] / r["measured_ms"] - 1) for r in runs) / n
    re = sum(abs(r["reference_ms"] / r["measured_ms"] - 1) for r in runs) / n
    print(f"\n{n} runs of {len(families)} families: mean abs. error left out {100 * lo:.1f}%, "
          f"reference {100 * re:.1f}%")
    if blind:
        print(f"\nin no fit ({args.score_only}): fitted on all of {args.sets} / reference")
        for th in (1, 2):
            print("  %d thread%s: %s / %s" % (th, "s" if th > 1 else "", score(blind, "all_ms", th),
                                            score(blind, "reference_ms", th)))
        nb = len(blind)
        a = sum(abs(r["all_ms"] / r["measured_ms"] - 1) for r in blind) / nb
        b = sum(abs(r["reference_ms"] / r["measured_ms"] - 1) for r in blind) / nb
        print(f"  {nb} runs: {100 * a:.1f}% / {100 * b:.1f}%")


if __name__ == "__main__":
    main()
