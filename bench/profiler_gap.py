#!/usr/bin/env python3
"""profiler_gap.py [--machine FP] [--tiny-us 8] [--share 0.8] - what ONNX
Runtime's profiler adds per kernel in whole-model runs of mostly tiny
kernels.

Every measured run of data/machines/<fp>/ort-cpu-*.jsonl (the zoo, the
blind sets, the corpora) holds its wall time (profiler off) and the median
of each kernel as profiled.  For the runs whose kernels are mostly tiny
(share of them profiled at tiny-us or less), prints per thread count the
gap per kernel, (profiled sum - wall) / kernels: what predict's total takes
off the profiled kernels as one figure per machine (the calibration's
chains of tiny kernels measure it), and how far runs stray from it."""
import argparse, glob, json, os, statistics

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--machine", default="cpu-AuthenticAMD-f26-m2")
    ap.add_argument("--tiny-us", type=float, default=8.0)
    ap.add_argument("--share", type=float, default=0.8)
    a = ap.parse_args()
    rows = []
    for path in sorted(glob.glob(os.path.join(ROOT, "data", "machines", a.machine, "ort-cpu-*.jsonl"))):
        for line in open(path):
            r = json.loads(line)
            ks, wall = r.get("kernels"), r.get("wall_us")
            if not isinstance(ks, list) or not isinstance(wall, dict) or len(ks) < 5:
                continue
            prof = sum(k["median_us"] for k in ks)
            tiny = sum(k["median_us"] <= a.tiny_us for k in ks) / len(ks)
            if tiny >= a.share:
                rows.append((os.path.basename(path)[8:-6], r["model"], r["batch"], r["threads"],
                             len(ks), prof, wall["median"], (prof - wall["median"]) / len(ks)))
    for t in sorted({r[3] for r in rows}):
        g = sorted((r for r in rows if r[3] == t), key=lambda r: r[7])
        gaps = [r[7] for r in g]
        q = statistics.quantiles(gaps, n=10) if len(gaps) > 1 else gaps
        print(f"{t} thread(s): {len(g)} runs; profiled - wall per kernel: median "
              f"{statistics.median(gaps):.2f} us, p10 {q[0]:.2f}, p90 {q[-1]:.2f}")
        for r in g[::max(1, len(g) // 12)]:
            print(f"  {r[0]:<8} {r[1]:<22} b{r[2]:<3} {r[4]:>5} kernels  profiled {r[5]:>8.0f} us  "
                  f"wall {r[6]:>8.0f} us  {r[7]:>6.2f} us a kernel")


if __name__ == "__main__":
    main()
