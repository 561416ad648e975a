#!/usr/bin/env python3
"""hostile_scale.py [BUILD_DIR] [--reps N] - what files built to be large cost
onnxcost: wall time and peak RSS of `analyze` and `predict` (the built-in
timing model) on

  nodes100k   a 100,000-node graph (a chain of Relu/Add/Mul over [1, 64])
  opsets1m    10^6 opset_import entries (distinct custom domains) and a
              20,000-node graph: the opset of every node used to be found
              by scanning every import (issue 18)
  inits10k    10,000 small initializers, each read by an Add

Models are generated with Debian's python3-onnx (/usr/bin/python3) into
BUILD_DIR/bench/ on first use.  Each figure is the median over --reps runs
(default 3); RSS is the child's ru_maxrss (os.wait4).  Prints one line per
model and command, and the machine's fingerprint (onnxcost hw --fingerprint).
"""
import argparse, os, statistics, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("build", nargs="?", default=os.path.join(root, "build"))
ap.add_argument("--reps", type=int, default=3)
ap.add_argument("--models", default="nodes100k,opsets1m,inits10k")
args = ap.parse_args()
binary = os.path.join(args.build, "onnxcost")
bench = os.path.join(args.build, "bench")
os.makedirs(bench, exist_ok=True)

GEN = r'''
import sys, onnx
from onnx import TensorProto, helper
kind, out = sys.argv[1], sys.argv[2]
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])
one = helper.make_tensor("one", TensorProto.FLOAT, [1], [1.0])
def chain(n, domain_imports=()):
    nodes, prev = [], "x"
    ops = ("Relu", "Add", "Mul")
    for i in range(n):
        op = ops[i % 3]
        ins = [prev] if op == "Relu" else [prev, "one"]
        nodes.append(helper.make_node(op, ins, ["t%d" % i], name="n%d" % i))
        prev = "t%d" % i
    y = helper.make_tensor_value_info(prev, TensorProto.FLOAT, [1, 64])
    g = helper.make_graph(nodes, "g", [x], [y], [one])
    return g
if kind == "nodes100k":
    m = helper.make_model(chain(100000), opset_imports=[helper.make_opsetid("", 17)])
elif kind == "opsets1m":
    m = helper.make_model(chain(20000), opset_imports=[helper.make_opsetid("", 17)])
    # the default domain last: a reader that scans imports in order walks
    # all of them for every node
    del m.opset_import[:]
    m.opset_import.extend(helper.make_opsetid("com.example.d%d" % i, 1)
                          for i in range(1000000))
    m.opset_import.extend([helper.make_opsetid("", 17)])
elif kind == "inits10k":
    nodes, inits, prev = [], [], "x"
    for i in range(10000):
        inits.append(helper.make_tensor("w%d" % i, TensorProto.FLOAT, [64], [0.5] * 64))
        nodes.append(helper.make_node("Add", [prev, "w%d" % i], ["t%d" % i], name="n%d" % i))
        prev = "t%d" % i
    y = helper.make_tensor_value_info(prev, TensorProto.FLOAT, [1, 64])
    m = helper.make_model(helper.make_graph(nodes, "g", [x], [y], inits),
                          opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
with open(out, "wb") as f:
    f.write(m.SerializeToString())
'''


def model(kind):
    path = os.path.join(bench, kind + ".onnx")
    if not os.path.exists(path):
        subprocess.run(["/usr/bin/python3", "-c", GEN, kind, path + ".part"], check=True)
        os.rename(path + ".part", path)
    return path


def run(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"{' '.join(cmd)} failed: {err.decode(errors='replace').strip()}")
    return dt, ru.ru_maxrss / 1024.0


fp = subprocess.run([binary, "hw", "--fingerprint"], capture_output=True, text=True).stdout.strip()
print(f"machine {fp}; {binary}; median of {args.reps}")
print(f"{'model':<10} {'file MB':>8} {'command':<8} {'wall s':>8} {'peak MB':>8} {'RSS/file':>8}")
for kind in args.models.split(","):
    path = model(kind)
    size = os.path.getsize(path) / 1048576.0
    for c in ("analyze", "predict"):
        runs = [run([binary, c, path]) for _ in range(args.reps)]
        t = statistics.median(r[0] for r in runs)
        rss = statistics.median(r[1] for r in runs)
        print(f"{kind:<10} {size:8.1f} {c:<8} {t:8.2f} {rss:8.0f} {rss / size:8.1f}", flush=True)
