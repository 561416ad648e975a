#!/usr/bin/env python3
"""quickest_runs.py SET+SET... OUT.jsonl [--machine FP] - one measured set
out of several sessions that ran the same networks: each run's line from
the session where it was quickest (bench/zoo_accuracy.py's --set A+B),
in the first set's order, written through a temporary file.  A session on a
busy host is slower, never quicker: so `onnxcost collect --from-runs` learns
the machine's kernels, not its neighbours'.

    /usr/bin/python3 scripts/quickest_runs.py blind13+blind13-rerun /tmp/b13.jsonl
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from zoo_accuracy import quickest_runs  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sets")
    ap.add_argument("out")
    ap.add_argument("--machine")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "onnxcost"))
    args = ap.parse_args()
    _, runs = quickest_runs(args.bin, args.machine, args.sets, "quickest_runs")
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        for r in runs:
            f.write(json.dumps(r) + "\n")
    os.replace(tmp, args.out)
    print(f"{len(runs)} runs ({args.out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
