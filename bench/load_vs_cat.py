#!/usr/bin/env python3
"""load_vs_cat.py [BUILD_DIR] - what analysing a ~100 MB model costs next to
reading it: wall time (median over interleaved runs) and peak RSS of
`cat FILE > /dev/null`, `onnxcost info` and `onnxcost analyze`, and what
predicting (the built-in timing model) and an 8-batch sweep add to it.
Exports resnet50 with its (random) weights inline on first use."""
import os, statistics, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build")
binary = os.path.join(build, "onnxcost")
bench = os.path.join(build, "bench")
model = os.path.join(bench, "resnet50.onnx")
os.makedirs(bench, exist_ok=True)
if not os.path.exists(model):
    subprocess.run(["/usr/bin/python3", "-c",
                    "import sys; sys.path.insert(0, sys.argv[1] + '/samples'); import export as E; "
                    "E.export_group({'resnet50': E.REFERENCE_MODELS['resnet50']}, sys.argv[2], external=False)",
                    root, bench], check=True)

def run(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"{cmd} failed")
    return dt, ru.ru_maxrss / 1024.0

cmds = {"cat": ["cat", model],
        "info": [binary, "info", model],
        "analyze": [binary, "analyze", "--batch", "1", model],
        "analyze json": [binary, "analyze", "--batch", "1", "--format", "json", model],
        "predict": [binary, "predict", "--batch", "1", model],
        "sweep 8": [binary, "sweep", "--batch", "1,2,4,8,16,32,64,128", model]}
runs = {k: [] for k in cmds}
run(cmds["cat"])  # warm the page cache
for _ in range(15):  # interleaved
    for k, c in cmds.items():
        runs[k].append(run(c))
size = os.path.getsize(model)
print(f"model: {model} ({size / 2**20:.1f} MiB), 15 interleaved runs each, page cache warm")
print(f"{'command':14s} {'median ms':>10s} {'min ms':>8s} {'peak RSS MiB':>13s} {'vs cat':>7s}")
cat_ms = statistics.median(t for t, _ in runs["cat"]) * 1e3
for k, r in runs.items():
    med = statistics.median(t for t, _ in r) * 1e3
    print(f"{k:14s} {med:10.1f} {min(t for t, _ in r) * 1e3:8.1f} "
          f"{statistics.median(m for _, m in r):13.1f} {med / cat_ms:7.2f}")
med = {k: statistics.median(t for t, _ in r) * 1e3 for k, r in runs.items()}
print(f"predict - analyze: {med['predict'] - med['analyze']:.1f} ms; "
      f"sweep of 8 batches / predict: {med['sweep 8'] / med['predict']:.2f}x")
