#!/usr/bin/python3
"""node_tests_predict.py ONNXCOST [NODE_DIR] [--max-refused N] - how many
ONNX backend node tests (Debian libonnx-testdata) `onnxcost predict`
refuses, and why.

Prints one line per refusal reason (the error line with node names and
numbers stripped), then the totals: models tried, predicted, refused, and
predicted with some nodes left uncounted (totals.uncounted_nodes > 0).
With --max-refused N (the ctest node_tests_predict: 0) it exits 1 when more
are refused, or when NODE_DIR holds no model.
"""
import argparse, json, os, re, subprocess, sys
from collections import Counter

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("onnxcost")
ap.add_argument("node_dir", nargs="?", default="/usr/share/libonnx-testdata/data/node")
ap.add_argument("--max-refused", type=int)
a = ap.parse_args()
bin_, root, max_refused = a.onnxcost, a.node_dir, a.max_refused
tried = ok = partial = 0
refused = Counter()
examples = {}
for name in sorted(os.listdir(root)):
    path = os.path.join(root, name, "model.onnx")
    if not os.path.isfile(path):
        continue
    tried += 1
    p = subprocess.run([bin_, "predict", "--format", "json", path],
                       capture_output=True, text=True)
    if p.returncode == 0:
        ok += 1
        t = json.loads(p.stdout)["totals"]
        if t.get("uncounted_nodes", 0):
            partial += 1
        continue
    line = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
    why = re.sub(r"^onnxcost: \S+: ", "", line)
    why = re.sub(r"node '[^']*' \(([^)]*)\)", r"node (\1)", why)
    why = re.sub(r"'[^']*'", "'...'", why)
    why = re.sub(r"\d+", "N", why)
    refused[f"exit {p.returncode}: {why}"] += 1
    examples.setdefault(f"exit {p.returncode}: {why}", name)
for why, n in refused.most_common():
    print(f"{n:5d}  {why}  (e.g. {examples[why]})")
print(f"models {tried}, predicted {ok} ({partial} with nodes not counted), "
      f"refused {sum(refused.values())}")
if max_refused is not None and not tried:
    sys.exit(f"node_tests_predict: no model.onnx under {root}")
if max_refused is not None and sum(refused.values()) > max_refused:
    sys.exit(f"node_tests_predict: {sum(refused.values())} of {tried} models refused "
             f"(at most {max_refused} expected)")
