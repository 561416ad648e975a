#!/usr/bin/env python3
"""ingraph_dedup.py IN.jsonl.gz OUT.jsonl.gz - in-graph samples, one line per
kernel a network runs alike.

`onnxcost collect --from-runs` writes one line per kernel of every measured
run.  An unrolled recurrence runs the same kernel hundreds of times per run
(graves_synthesis: 1 890 kernels, a few dozen distinct), so its lines would
outweigh every other sample in a fit.  This keeps one line per network,
thread count and kernel description (node, fused ops, batch), the first of
them, with the median of their times; the rest of the line is unchanged.
Writes OUT (gzip, mtime 0) through a temporary file, then renames it.

    /usr/bin/python3 scripts/ingraph_dedup.py in.jsonl.gz out.jsonl.gz
"""
import gzip
import json
import os
import statistics
import sys


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    src, dst = sys.argv[1:]
    groups, order = {}, []
    with gzip.open(src, "rt") as f:
        for line in f:
            r = json.loads(line)
            key = (r["target"]["threads"], r["sample"]["model"],
                   json.dumps(r["node"], sort_keys=True), json.dumps(r["fused"]))
            if key not in groups:
                groups[key] = (r, [])
                order.append(key)
            groups[key][1].append(r["time_us"])
    tmp = dst + ".tmp"
    with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        for key in order:
            r, times = groups[key]
            r["time_us"] = statistics.median(times)
            out.write((json.dumps(r, separators=(",", ":")) + "\n").encode())
    os.replace(tmp, dst)
    n = sum(len(t) for _, t in groups.values())
    print(f"{n} lines -> {len(order)} ({dst})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
