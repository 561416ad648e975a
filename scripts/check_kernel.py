#!/usr/bin/env python3
"""check_kernel.py - record a probe's check kernel in its calibration.

The collector times a check kernel (a 256^3 MatMul) before and after every
chunk of the probe (the samples' "calib_us").  `onnxcost calibrate` writes
its median per thread count into the calibration ("check_kernel_us") and
compares a new calibration's with the one the project ships for that
machine kind: another host, or a busy one, shows there.  This script
writes the field into a calibration made before calibrate recorded it,
from the probe it was fitted on.

    scripts/check_kernel.py CALIBRATION.json PROBE.jsonl.gz
"""
import gzip
import json
import statistics
import sys

from corpus_io import write_json


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    cal_path, probe = sys.argv[1:]
    per = {}
    with gzip.open(probe, "rt") as f:
        for line in f:
            r = json.loads(line)
            per.setdefault(r["target"]["threads"], []).extend(
                x for x in r.get("calib_us", []) if x > 0)
    with open(cal_path) as f:
        cal = json.load(f)
    for fit in cal["threads"]:
        xs = per.get(fit["threads"])
        if xs:
            fit["check_kernel_us"] = round(statistics.median(xs), 3)
            print("%d thread(s): %d timings, median %.1f us"
                  % (fit["threads"], len(xs), fit["check_kernel_us"]))
    write_json(cal_path, cal)


if __name__ == "__main__":
    main()
