#!/usr/bin/env python3
"""hostile_scale.py [BUILD_DIR] [--reps N] [--models LIST] [--onnxcost BIN] -
what files built to be large cost onnxcost: wall time and peak RSS of
`analyze`, `predict` (the built-in timing model) and `annotate -o` on

  nodes100k    a 100,000-node graph (a chain of Relu/Add/Mul over [1, 64])
  opsets1m     10^6 opset_import entries (distinct custom domains) and a
               20,000-node graph: the opset of every node used to be found
               by scanning every import (issue 18)
  inits10k     10,000 small initializers, each read by an Add
  fanout100k   one tensor read by 10^5 identical nodes, joined by a Concat
               of 10^5 inputs (consumer lists, CSE hits, a wide node)
  cse100k      10^5 nodes alike but for an attribute value, summed (CSE
               keyed without attribute values: one hash chain, quadratic)
  attrs100k    two nodes alike with 10^5 attributes each, in opposite
               orders (attribute comparison by name lookup: quadratic)
  names4k      2,000 nodes whose node and tensor names are 4 KiB long
  outputs100k  10^5 graph outputs
  weights2g    32 MatMuls with [4096, 4096] float initializers: 2 GiB of
               raw_data (tests/gen_scale.py writes it field by field)

Models are generated with Debian's python3-onnx (/usr/bin/python3) into
BUILD_DIR/bench/ on first use (weights2g needs 2 GiB there, and 2 GiB more
while annotate's output exists; it is removed after each run).  Each figure
is the median over --reps runs (default 3); RSS is the child's ru_maxrss
(os.wait4).  --onnxcost runs another build's binary on the same models (a
before/after comparison).  Prints one line per model and command, and the
machine's fingerprint (onnxcost hw --fingerprint).
"""
import argparse, os, statistics, subprocess, sys, threading, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("build", nargs="?", default=os.path.join(root, "build"))
ap.add_argument("--reps", type=int, default=3)
ap.add_argument("--models", default="nodes100k,opsets1m,inits10k,fanout100k,cse100k,"
                "attrs100k,names4k,outputs100k,weights2g")
ap.add_argument("--commands", default="analyze,predict,annotate")
ap.add_argument("--timeout", type=float, default=300,
                help="seconds a run may take before it is killed and shown as such")
ap.add_argument("--onnxcost", help="the binary to run (default BUILD_DIR/onnxcost)")
args = ap.parse_args()
binary = args.onnxcost or os.path.join(args.build, "onnxcost")
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
elif kind == "fanout100k":
    # one tensor read by 10^5 identical nodes (CSE finds each a duplicate
    # of the first) whose outputs one Concat of 10^5 inputs joins
    nodes = [helper.make_node("Relu", ["x"], ["r%d" % i], name="r%d" % i)
             for i in range(100000)]
    nodes.append(helper.make_node("Concat", ["r%d" % i for i in range(100000)],
                                  ["y"], name="cat", axis=0))
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [100000, 64])
    m = helper.make_model(helper.make_graph(nodes, "g", [x], [y]),
                          opset_imports=[helper.make_opsetid("", 17)])
elif kind == "cse100k":
    # 10^5 nodes alike but for an attribute value: a CSE keyed on op and
    # inputs alone compares each with every earlier one
    nodes = [helper.make_node("LeakyRelu", ["x"], ["r%d" % i], name="r%d" % i,
                              alpha=0.001 * (i + 1)) for i in range(100000)]
    nodes.append(helper.make_node("Sum", ["r%d" % i for i in range(100000)],
                                  ["y"], name="sum"))
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 64])
    m = helper.make_model(helper.make_graph(nodes, "g", [x], [y]),
                          opset_imports=[helper.make_opsetid("", 17)])
elif kind == "attrs100k":
    # two nodes alike with 10^5 attributes each, the second's in reverse
    # order: comparing them looks up each attribute by name
    def big(i, names):
        n = helper.make_node("Relu", ["x"], ["r%d" % i], name="r%d" % i)
        n.attribute.extend(helper.make_attribute(a, 1) for a in names)
        return n
    names = ["a%d" % k for k in range(100000)]
    nodes = [big(0, names), big(1, names[::-1]),
             helper.make_node("Add", ["r0", "r1"], ["y"], name="add")]
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 64])
    m = helper.make_model(helper.make_graph(nodes, "g", [x], [y]),
                          opset_imports=[helper.make_opsetid("", 17)])
elif kind == "names4k":
    # 2,000 nodes whose names and tensor names are 4,096 bytes long
    nodes, prev = [], "x"
    for i in range(2000):
        t = ("t%d_" % i).ljust(4096, "n")
        nodes.append(helper.make_node("Relu", [prev], [t],
                                      name=("n%d_" % i).ljust(4096, "n")))
        prev = t
    y = helper.make_tensor_value_info(prev, TensorProto.FLOAT, [1, 64])
    m = helper.make_model(helper.make_graph(nodes, "g", [x], [y]),
                          opset_imports=[helper.make_opsetid("", 17)])
elif kind == "outputs100k":
    # 10^5 graph outputs, each a node of its own
    nodes = [helper.make_node("Neg", ["x"], ["o%d" % i], name="o%d" % i)
             for i in range(100000)]
    outs = [helper.make_tensor_value_info("o%d" % i, TensorProto.FLOAT, [1, 64])
            for i in range(100000)]
    m = helper.make_model(helper.make_graph(nodes, "g", [x], outs),
                          opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
with open(out, "wb") as f:
    f.write(m.SerializeToString())
'''


def model(kind):
    path = os.path.join(bench, kind + ".onnx")
    if not os.path.exists(path):
        if kind == "weights2g":
            gen = ["/usr/bin/python3", os.path.join(root, "tests", "gen_scale.py"),
                   "weights", path + ".part", "2048"]
        else:
            gen = ["/usr/bin/python3", "-c", GEN, kind, path + ".part"]
        subprocess.run(gen, check=True)
        os.rename(path + ".part", path)
    return path


def run(cmd):
    """(wall s, peak MB), or (None, None) when it ran past --timeout."""
    killed = []

    def kill():
        killed.append(True)
        p.kill()

    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    timer = threading.Timer(args.timeout, kill)
    timer.start()
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    timer.cancel()
    dt = time.perf_counter() - t0
    if killed:
        return None, None
    if status != 0:
        sys.exit(f"{' '.join(cmd)} failed: {err.decode(errors='replace').strip()}")
    return dt, ru.ru_maxrss / 1024.0


fp = subprocess.run([binary, "hw", "--fingerprint"], capture_output=True, text=True).stdout.strip()
print(f"machine {fp}; {binary}; median of {args.reps}")
print(f"{'model':<12} {'file MB':>8} {'command':<8} {'wall s':>8} {'peak MB':>8} {'RSS/file':>8}")
for kind in args.models.split(","):
    path = model(kind)
    size = os.path.getsize(path) / 1048576.0
    for c in args.commands.split(","):
        out = os.path.join(bench, kind + ".annotated.onnx")
        cmd = [binary, c, path] + (["-o", out] if c == "annotate" else [])
        runs = []
        for _ in range(args.reps):
            runs.append(run(cmd))
            if os.path.exists(out):
                os.unlink(out)
            if runs[-1][0] is None:
                break  # one run past the bound says enough
        if runs[-1][0] is None:
            print(f"{kind:<12} {size:8.1f} {c:<8} {'>' + str(int(args.timeout)):>8} "
                  f"{'-':>8} {'-':>8}", flush=True)
            continue
        t = statistics.median(r[0] for r in runs)
        rss = statistics.median(r[1] for r in runs)
        print(f"{kind:<12} {size:8.1f} {c:<8} {t:8.2f} {rss:8.0f} {rss / size:8.1f}", flush=True)
