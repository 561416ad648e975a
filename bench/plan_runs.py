#!/usr/bin/env python3
"""plan_runs.py [--bin BIN] [--against OLD_BIN] [--list] - the ort-cpu plan
against what ONNX Runtime ran, over every measured 1-thread whole-model run
of every machine (data/machines/*/ort-cpu-*.jsonl: the zoo, the hold-out,
the blind sets, the corpora), each model planned once per machine and input
shape as that machine (ONNXCOST_MACHINE: its NCHWc block) with the run's
inputs.  Prints how many runs the plan matches as an op multiset (each op
as often as ORT ran it) and as a kernel count.  With --against, plans with
both binaries and prints the runs whose plans differ: closer to ORT's
kernels, further off, or neither (the summed difference of op counts).

Needs the graphs in build/zoo (scripts/measure_zoo.py or
scripts/ort_graphs.py exports them; the real-world corpus's, whose names
the quantized corpus reuses, are tests/data/corpus, and the reference
networks' of ort-cpu-models*.jsonl tests/reference/models, as the zoo's
exports of the same names differ); runs whose graph is not there are left
out and counted.  About a minute on two cores."""
import argparse
import collections
import glob
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "tests", "data", "corpus")
REFERENCE = os.path.join(ROOT, "tests", "reference", "models")


def graph_dir(base, models):
    """Where the graphs of the runs in measured file `base` are."""
    if base.startswith("ort-cpu-real"):
        return CORPUS
    return REFERENCE if base.startswith("ort-cpu-models") else models
sys.path.insert(0, os.path.join(ROOT, "bench"))
from zoo_accuracy import predict_json  # noqa: E402


def measured_runs(models):
    """{(machine, model, inputs, graph dir): (graph, Counter of ORT's ops,
    file, the run)} and the number of runs without a graph."""
    runs, missing = {}, 0
    for mdir in sorted(glob.glob(os.path.join(ROOT, "data", "machines", "*", ""))):
        machine = os.path.basename(os.path.dirname(mdir))
        for path in sorted(glob.glob(os.path.join(mdir, "ort-cpu-*.jsonl"))):
            base = os.path.basename(path)
            if any(s in base for s in ("anchors", "probe", "calibration")):
                continue
            gdir = graph_dir(base, models)
            for line in open(path):
                r = json.loads(line)
                if r.get("threads") != 1 or "kernels" not in r or "model" not in r:
                    continue
                graph = os.path.join(gdir, r["model"] + ".onnx")
                if not os.path.exists(graph):
                    missing += 1
                    continue
                spec = tuple("%s=%s" % (s["name"], "x".join(map(str, s["shape"])))
                             for s in r["inputs"])
                runs.setdefault((machine, r["model"], spec, gdir),
                                (graph, collections.Counter(k["op"] for k in r["kernels"]),
                                 base, r))
    return runs, missing


def planned(binary, machine, graph, run):
    """Counter of the planned kernels' ops, or None when predict fails."""
    d, _ = predict_json(binary, graph, run, None, machine)
    return collections.Counter(k["op"] for k in d["kernels"]) if d else None


def distance(plan, ran):
    if plan is None:
        return None
    return sum(abs(plan[op] - ran[op]) for op in set(plan) | set(ran))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "onnxcost"))
    ap.add_argument("--against", help="another build's binary: list the runs planned "
                    "differently")
    ap.add_argument("--models", default=os.path.join(ROOT, "build", "zoo"))
    ap.add_argument("--list", action="store_true", help="every run the plan does not match")
    a = ap.parse_args()
    runs, missing = measured_runs(a.models)
    keys = sorted(runs)
    bins = [a.bin] + ([a.against] if a.against else [])
    plans = {}
    with ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        for b in bins:
            plans[b] = list(ex.map(lambda k, b=b: planned(b, k[0], runs[k][0], runs[k][3]),
                                   keys))
    print("%d measured 1-thread runs (%d lines left out: no graph in %s)" % (len(keys), missing,
                                                                      a.models))
    for b in bins:
        same = sum(1 for k, p in zip(keys, plans[b]) if p == runs[k][1])
        count = sum(1 for k, p in zip(keys, plans[b])
                    if p is not None and sum(p.values()) == sum(runs[k][1].values()))
        failed = sum(1 for p in plans[b] if p is None)
        print("%s: op multiset as ORT ran it in %d, kernel count in %d, predict failed on %d"
              % (b, same, count, failed))
    if a.list:
        for k, p in zip(keys, plans[a.bin]):
            if p != runs[k][1]:
                ran = runs[k][1]
                diff = {op: p[op] - ran[op] for op in set(p or {}) | set(ran)
                        if p is not None and p[op] != ran[op]}
                print("  %-26s %-28s %-22s %s" % (k[0], k[1], " ".join(k[2]),
                                                  diff if p is not None else "predict failed"))
    if a.against:
        closer = further = 0
        for k, new, old in zip(keys, plans[a.bin], plans[a.against]):
            if new == old:
                continue
            dn, do = distance(new, runs[k][1]), distance(old, runs[k][1])
            tag = ("closer" if dn is not None and (do is None or dn < do) else
                   "further" if do is not None and (dn is None or dn > do) else "neither")
            closer += tag == "closer"
            further += tag == "further"
            print("  %-7s %-26s %-28s %s (%s)" % (tag, k[0], k[1], " ".join(k[2]), runs[k][2]))
        print("%s against %s: %d runs closer to ORT's kernels, %d further off"
              % (a.bin, a.against, closer, further))
    return 0


if __name__ == "__main__":
    sys.exit(main())
