#!/usr/bin/env python3
"""ort_plan_check.py - the plan's kernels against the kernels ONNX Runtime ran.

For every entry of tests/data/ort-plan/ (a model graph and what ORT 1.30 ran
for it: its optimized graph and its profile, recorded by
scripts/ort_graphs.py), run `onnxcost predict --format json` with the same
input dims and the NCHWc block of the machine that recorded it, and compare
the planned kernels with the profiled ones, op for op (as the profiler names
them).  Agreement = sum over ops of min(planned, ran) / max(planned total,
ran total).

    tests/ort_plan_check.py BIN [--dir DIR] [--graphs DIR] [--only NAME] [--verbose]
                            [--min FRACTION] [--expect FILE]

--graphs DIR plans the models of DIR instead (tests/data/ort-opt: ORT's own
optimized graphs of some entries, which ORT runs as they are), for the
entries DIR has.  An entry fails when some node is not counted in the
predicted time (an operator without a shape rule, an unknown shape).

Prints one row per entry and the totals.  Exit 1 when an entry's agreement
is below --min, or below its floor in --expect (a TSV of entry, floor: what
the plan reached when the file was last written, so that a change that loses
agreement fails), 2 on bad arguments or a failed run.  Needs no ORT.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BLOCK = {"cpu-AuthenticAMD-f26-m2": 16}   # machines the corpus was recorded on


def planned(binary, model, rec):
    cmd = [binary, "predict", model, "--format", "json", "--target", "ort-cpu",
           "--nchwc-block", str(rec.get("nchwc_block", BLOCK.get(rec["machine"], 8)))]
    for name, dims in rec["inputs"].items():
        cmd += ["--input", "%s=%s" % (name, "x".join(str(d) for d in dims))]
    env = dict(os.environ, ONNXCOST_MACHINE=rec["machine"])
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed"
    j = json.loads(r.stdout)
    if j["totals"].get("uncounted_nodes"):
        return None, "%d nodes not counted in the time" % j["totals"]["uncounted_nodes"]
    return j["kernels"], None


def agreement(plan_ops, ort_ops):
    a, b = collections.Counter(plan_ops), collections.Counter(ort_ops)
    common = sum(min(a[k], b[k]) for k in a)
    denom = max(len(plan_ops), len(ort_ops)) or 1
    return common / denom, a, b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--dir", default=os.path.join(HERE, "data", "ort-plan"))
    ap.add_argument("--only", action="append")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--min", type=float, default=0.0)
    ap.add_argument("--graphs")
    ap.add_argument("--expect")
    ap.add_argument("--write-expect")
    args = ap.parse_args()
    floors = {}
    if args.expect:
        with open(args.expect) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    name, floor = line.split()[:2]
                    floors[name] = float(floor)
    entries = sorted(e[:-len(".ort.json")] for e in os.listdir(args.dir)
                     if e.endswith(".ort.json"))
    if args.graphs:
        entries = [e for e in entries
                   if os.path.exists(os.path.join(args.graphs, e + ".onnx.gz"))]
    if args.only:
        entries = [e for e in entries if any(o in e for o in args.only)]
    if not entries:
        print("no entries in %s" % args.dir, file=sys.stderr)
        return 2
    bad, failed, rows = [], [], []
    tot_common = tot_max = 0
    print("%-36s %-20s %7s %7s %8s  %s" % ("entry", "family", "planned", "ran", "agree",
                                          "differences (planned-ran)"))
    for e in entries:
        with open(os.path.join(args.dir, e + ".ort.json")) as f:
            rec = json.load(f)
        kernels, why = planned(args.binary, os.path.join(args.graphs or args.dir,
                                                         e + ".onnx.gz"), rec)
        if kernels is None:
            print("%-36s %s" % (e, "FAILED: " + why))
            failed.append(e)
            continue
        ours = [k["op"] for k in kernels]
        theirs = [op for _, op in rec["profile"]]
        agr, a, b = agreement(ours, theirs)
        tot_common += sum(min(a[k], b[k]) for k in a)
        tot_max += max(len(ours), len(theirs))
        diff = sorted(((a[k] - b[k], k) for k in set(a) | set(b) if a[k] != b[k]),
                      key=lambda t: -abs(t[0]))
        dtxt = " ".join("%s%+d" % (k, d) for d, k in diff[:6])
        print("%-36s %-20s %7d %7d %7.1f%%  %s" % (e, rec.get("family", ""), len(ours),
                                                  len(theirs), 100 * agr, dtxt))
        rows.append((e, agr))
        if args.verbose and diff:
            for d, k in diff:
                print("    %-28s planned %4d ran %4d" % (k, a[k], b[k]))
        floor = max(args.min, floors.get(e, 0.0))
        if agr + 1e-9 < floor:
            bad.append((e, agr, floor))
    n_ok = sum(1 for _, g in rows if g >= 0.98)
    print("\n%d entries: %d at >= 98%% agreement; overall %.1f%% of kernels agree"
          % (len(rows), n_ok, 100 * tot_common / max(tot_max, 1)))
    if args.write_expect:
        with open(args.write_expect, "w") as f:
            f.write("# entry\tfloor: agreement the plan reached (tests/ort_plan_check.py)\n")
            for e, g in rows:
                f.write("%s\t%.4f\n" % (e, int(g * 10000) / 10000))
    for e, g, fl in bad:
        print("FAIL %s: agreement %.1f%% below %.1f%%" % (e, 100 * g, 100 * fl))
    if failed:
        print("FAIL: %d entries did not predict" % len(failed))
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
