#!/usr/bin/env python3
"""zoo_accuracy.py - whole-model error on architectures no fit has used.

Reads data/machines/<fingerprint>/ort-cpu-zoo.jsonl (scripts/measure_zoo.py:
ONNX Runtime wall time per run and its kernels), predicts each case with
`onnxcost predict` (the target it would use on that machine: the shipped or
cached calibration of the fingerprint), and prints per model the measured
and predicted time, the error, whether the measured time is inside the
predicted range, and the kernels planned against the kernels ORT ran; then
mean absolute error, the share within +-10%, and range coverage.

    bench/zoo_accuracy.py [--bin BUILD/onnxcost] [--machine FINGERPRINT]
                          [--models DIR] [--json]

Run it with two binaries (say, before and after a change to the plan) to
compare them on the same measurements.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def set_path(binary, machine, name, prog):
    """The machine (this one's fingerprint unless given) and the file of
    measured set `name`; exits with one line when it is missing."""
    machine = machine or subprocess.run([binary, "hw", "--fingerprint"], capture_output=True,
                                        text=True, check=True).stdout.strip()
    path = os.path.join(ROOT, "data", "machines", machine, f"ort-cpu-{name}.jsonl")
    if not os.path.exists(path):
        sys.exit(f"{prog}: no {path} (scripts/measure_zoo.py makes it)")
    return machine, path


def quickest_runs(binary, machine, spec, prog):
    """The machine and the runs of set spec: one set's name, or several
    joined by '+' (the same networks measured in several sessions), each
    run then taken from the session where it was quickest (what the
    machine does with nothing in its way; a session on a busy host is
    slower, never quicker); in the first set's order."""
    names = spec.split("+")
    machine, path = set_path(binary, machine, names[0], prog)
    order, best = [], {}
    for name in names:
        with open(path if name == names[0] else set_path(binary, machine, name, prog)[1]) as f:
            for line in f:
                r = json.loads(line)
                key = (r["model"], r["batch"], r["threads"])
                if key not in best:
                    if name != names[0]:
                        continue  # a run the first set lacks
                    order.append(key)
                    best[key] = r
                elif r["wall_us"]["median"] < best[key]["wall_us"]["median"]:
                    best[key] = r
    return machine, [best[k] for k in order]


def predict_cmd(binary, model, run, target):
    """predict -f json of one measured run: its threads and input shapes."""
    cmd = [binary, "predict", model, "-T", str(run["threads"]), "-f", "json"]
    if target:
        cmd += ["--target", target]
    for s in run["inputs"]:
        cmd += ["--input", s["name"] + "=" + "x".join(str(d) for d in s["shape"])]
    return cmd


def add_set_args(ap):
    """The options every script over measured sets takes: the binary, the
    machine whose sets are read, the folder of the sets' graphs."""
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "onnxcost"))
    ap.add_argument("--machine")
    ap.add_argument("--models", default=os.path.join(ROOT, "build", "zoo"))


def predict_json(binary, model, run, target, machine):
    """predict's JSON document for one measured run, predicted as on
    `machine`; (None, predict's stderr) when it fails."""
    p = subprocess.run(predict_cmd(binary, model, run, target), capture_output=True,
                       text=True, env=dict(os.environ, ONNXCOST_MACHINE=machine))
    if p.returncode != 0:
        return None, p.stderr.strip()
    return json.loads(p.stdout), None


def main():
    ap = argparse.ArgumentParser()
    add_set_args(ap)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--set", default="zoo", help="ort-cpu-SET.jsonl (zoo, holdout); "
                    "A+B+...: sets measured in several sessions, each run's truth the "
                    "quickest of them")
    ap.add_argument("--target", help="predict's --target (a calibration file, ...); default: "
                    "what predict takes on that machine")
    args = ap.parse_args()
    machine, runs = quickest_runs(args.bin, args.machine, args.set, "zoo_accuracy")
    rows = []
    for r in runs:
        model = os.path.join(args.models, r["model"] + ".onnx")
        if not os.path.exists(model):
            print(f"{r['model']}: {model} missing (scripts/measure_zoo.py exports it)",
                  file=sys.stderr)
            continue
        d, err = predict_json(args.bin, model, r, args.target, machine)
        if d is None:
            print(f"{r['model']}: predict failed: {err}", file=sys.stderr)
            continue
        t = d["totals"]
        meas = r["wall_us"]["median"] / 1e3
        pred = t["time_ms"]
        rows.append({"model": r["model"], "family": r.get("family", ""), "batch": r["batch"],
                     "threads": r["threads"], "measured_ms": meas, "predicted_ms": pred,
                     "low_ms": t["time_ms_low"], "high_ms": t["time_ms_high"],
                     "error": pred / meas - 1, "planned": t["kernels"],
                     "ran": len(r["kernels"]), "spread": r.get("spread")})
    if not rows:
        sys.exit("zoo_accuracy: nothing to score")
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"machine {machine}, {args.bin}")
    if "+" in args.set:
        print(f"truth: each run's quickest session of {args.set.replace('+', ', ')}")
    print("%-30s %-20s %3s %2s %10s %10s %8s %6s %8s %5s" % (
        "model", "family", "b", "t", "measured", "predicted", "error", "range", "kernels",
        "ran"))
    for x in sorted(rows, key=lambda x: -abs(x["error"])):
        inside = x["low_ms"] <= x["measured_ms"] <= x["high_ms"]
        print("%-30s %-20s %3d %2d %8.2fms %8.2fms %+7.1f%% %6s %8d %5d" % (
            x["model"], x["family"], x["batch"], x["threads"], x["measured_ms"],
            x["predicted_ms"], 100 * x["error"], "in" if inside else "out", x["planned"],
            x["ran"]))
    def summary(sel):
        n = len(sel)
        mae = sum(abs(x["error"]) for x in sel) / n
        within = sum(abs(x["error"]) <= 0.10 for x in sel)
        cover = sum(x["low_ms"] <= x["measured_ms"] <= x["high_ms"] for x in sel)
        return f"{100 * mae:6.1f}%  {within:3d}/{n:<3d}   {cover:3d}/{n:<3d}"

    print("\n%-22s %-24s %-24s %s" % ("family", "1 thread: MAE, ±10%, in range",
                                       "2 threads", "kernel count exact"))
    fams = sorted({x["family"] for x in rows})
    for fam in fams + ["all"]:
        sel = [x for x in rows if fam in ("all", x["family"])]
        cells = []
        for th in (1, 2):
            st = [x for x in sel if x["threads"] == th]
            cells.append(summary(st) if st else "-")
        kern = sum(x["planned"] == x["ran"] for x in sel)
        print("%-22s %-24s %-24s %d/%d" % (fam or "?", cells[0], cells[1], kern, len(sel)))
    n = len(rows)
    mae = sum(abs(x["error"]) for x in rows) / n
    within = sum(abs(x["error"]) <= 0.10 for x in rows) / n
    cover = sum(x["low_ms"] <= x["measured_ms"] <= x["high_ms"] for x in rows) / n
    kern = sum(x["planned"] == x["ran"] for x in rows)
    print(f"\n{n} cases: mean abs. error {100 * mae:.1f}%, within +-10% {100 * within:.0f}%, "
          f"range covers {100 * cover:.0f}%, kernel count exact in {kern}")


if __name__ == "__main__":
    main()
