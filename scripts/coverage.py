#!/usr/bin/env python3
"""coverage.py - what a built-in timing model's training data covered.

Reads the datasets a built-in model was trained on (the files
scripts/train_default.sh gives `onnxcost train`) and writes, into the
model's data/<target>-overhead.json, "measured_ops": per operator of the
samples (node.op, as the timing model describes a kernel) the number of
samples, the range of log10(1 + FLOPs + bytes read + bytes written), the
element types of their first input and the most inputs (present, not
omitted) one had.  `onnxcost predict` marks a kernel whose operator has
no sample, whose first input's element type no sample of its operator had
(an int64 ReduceSum where every sample summed float32), which has more
inputs than any sample of its operator (a Concat of 250 pieces where the
samples joined 2 to 4), or whose work is more than 10x the largest
sample's, as an extrapolation.

    scripts/coverage.py TARGET DATASET.jsonl.gz...
"""
import gzip
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from corpus_io import write_json  # noqa: E402


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    target, files = sys.argv[1], sys.argv[2:]
    ops = {}
    for path in files:
        with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
            for line in f:
                r = json.loads(line)
                ft = r.get("features", {})
                work = ft.get("flops", 0) + ft.get("bytes_read", 0) + ft.get("bytes_written", 0)
                s = math.log10(1 + work)
                o = ops.setdefault(r["node"]["op"], [0, s, s, set(), 0])
                o[0] += 1
                o[1], o[2] = min(o[1], s), max(o[2], s)
                ins = r["node"].get("inputs") or [{}]
                if ins[0].get("dtype"):
                    o[3].add(ins[0]["dtype"])
                o[4] = max(o[4], sum(1 for i in ins if i))
    out = os.path.join(ROOT, "data", target + "-overhead.json")
    with open(out) as f:
        doc = json.load(f)
    doc["measured_ops"] = {k: dict({"samples": n, "log10_work": [round(lo, 3), round(hi, 3)],
                                    "dtypes": sorted(dts)},
                                   **({"max_inputs": mi} if mi else {}))
                           for k, (n, lo, hi, dts, mi) in sorted(ops.items())}
    write_json(out, doc)
    print("%s: %d operators, %d samples" % (out, len(ops), sum(o[0] for o in ops.values())))


if __name__ == "__main__":
    main()
