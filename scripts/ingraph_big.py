#!/usr/bin/env python3
"""ingraph_big.py IN.jsonl.gz OUT.jsonl.gz [--min-us US] [--timing-model FILE]
[--bin ONNXCOST] - in-graph samples of the kernels that are not tiny.

A kernel of a few microseconds, profiled inside a network, is mostly
ONNX Runtime's profiler: its in-graph time says more about the profiler
in that run than about the kernel, and a model that learns it predicts
every tiny kernel higher (calibrate's chains take the profiler's cost out
again, at one rate per kernel).  This keeps the lines whose kernel the
timing model predicts at US microseconds or more (default 10), decided
on the prediction, not on the measured time (which would keep a tiny
kernel's slow runs and drop its quick ones).  Writes OUT (gzip with no
name and no time: corpus_io.write_gz) through a temporary file, then
renames it.

    /usr/bin/python3 scripts/ingraph_big.py seen.jsonl.gz big.jsonl.gz \\
        --timing-model data/ort-cpu.tmodel
"""
import argparse
import gzip
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from corpus_io import write_gz  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--min-us", type=float, default=10.0)
    ap.add_argument("--timing-model", default=os.path.join(ROOT, "data", "ort-cpu.tmodel"))
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "onnxcost"))
    args = ap.parse_args()
    p = subprocess.run([args.bin, "eval", "--timing-model", args.timing_model, "--split", "all",
                        "--samples", "-f", "json", args.src], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"ingraph_big: onnxcost eval failed: {p.stderr.strip()}")
    pred = {x["id"]: x["predicted_us"] for x in json.loads(p.stdout)["predictions"]}
    kept, dropped = [], 0
    with gzip.open(args.src, "rt") as f:
        for line in f:
            q = pred.get(json.loads(line)["id"])
            if q is None:
                sys.exit(f"ingraph_big: a line eval did not predict ({args.src})")
            if q >= args.min_us:
                kept.append(line)
            else:
                dropped += 1
    tmp = args.dst + ".tmp"
    write_gz(tmp, "".join(kept).encode())
    os.replace(tmp, args.dst)
    kept = len(kept)
    print(f"kept {kept} lines, dropped {dropped} predicted under {args.min_us:g} us ({args.dst})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
