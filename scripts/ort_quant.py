#!/usr/bin/python3
"""Regenerate tests/data/ort-quant/: what ONNX Runtime runs for the small
quantized and reduced-precision models of tests/data/gen_quant.py (or, with
--set rules, tests/data/ort-rules/: the one-rule graphs of
tests/data/gen_rules.py, with no optimized graphs kept).

For each model (all of them, or those named) this builds it with
gen_quant.py, runs collector/ort_graph.js on it (onnxruntime-node, CPU
provider, optimisation level 'all', 1 thread, one run at batch 1 with
profiling on) and writes, in the format of tests/data/ort-plan/ (read by
tests/ort_plan_check.py):

  NAME.onnx.gz    the model, every initializer of more than 64 elements
                  moved to external data 'weights-not-committed.bin' (never
                  written; the plan does not read weight values), gzip -9
  NAME.ort.json   the optimized graph's nodes [name, domain, op_type] and
                  the kernels of the run [node_name, op_name]

and ORT's optimized graph itself as tests/data/ort-quant-opt/NAME.onnx.gz
(initializers external as above), which ORT runs as it is.

    /usr/bin/python3 scripts/ort_quant.py [--set quant|rules] [--out DIR] [NAME...]   # ~20 s

Needs collector/node_modules (scripts/setup.sh) and build/onnxcost (for the
machine's fingerprint).  The recorded kernels depend on the machine (the
NCHWc block, the NHWC quantized Conv); see the fingerprint in each entry.
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_io import dump_json, fingerprint, write_gz  # noqa: E402

import onnx
from onnx import TensorProto, numpy_helper

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRIVER = os.path.join(REPO, "collector", "ort_graph.js")
ONNXCOST = os.path.join(REPO, "build", "onnxcost")
EXTERNAL_FILE = "weights-not-committed.bin"
INLINE_MAX = 64


def generator(name):
    """tests/data/gen_NAME.py as a module (MODELS, build)."""
    spec = importlib.util.spec_from_file_location(
        "gen_" + name, os.path.join(REPO, "tests", "data", "gen_%s.py" % name))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def externalize(model):
    offset = 0
    for t in model.graph.initializer:
        n = 1
        for d in t.dims:
            n *= d
        if n <= INLINE_MAX or t.data_location == TensorProto.EXTERNAL:
            continue
        arr = numpy_helper.to_array(t)
        length = arr.size * arr.dtype.itemsize
        for f in ("raw_data", "float_data", "double_data", "int32_data", "int64_data"):
            t.ClearField(f)
        t.data_location = TensorProto.EXTERNAL
        del t.external_data[:]
        for k, v in (("location", EXTERNAL_FILE), ("offset", str(offset)),
                     ("length", str(length))):
            e = t.external_data.add()
            e.key, e.value = k, v
        offset += length


def nchwc_block():
    """The NCHWc block `onnxcost hw` reports for this CPU (0: none)."""
    r = subprocess.run([ONNXCOST, "hw"], capture_output=True, text=True)
    m = re.search(r"NCHWc block (\d+)", r.stdout)
    return int(m.group(1)) if m else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", choices=["quant", "rules"], default="quant")
    ap.add_argument("--out", help="default tests/data/ort-SET")
    ap.add_argument("--opt-out", help="ORT's optimized graphs (the same external-data "
                    "treatment; default tests/data/ort-quant-opt, none for rules)")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    gq = generator(args.set)
    data = os.path.join(REPO, "tests", "data")
    args.out = args.out or os.path.join(data, "ort-" + args.set)
    if args.set == "quant":
        args.opt_out = args.opt_out or os.path.join(data, "ort-quant-opt")
    names = args.names or list(gq.MODELS)
    os.makedirs(args.out, exist_ok=True)
    if args.opt_out:
        os.makedirs(args.opt_out, exist_ok=True)
    machine, block = fingerprint(ONNXCOST), nchwc_block()
    with tempfile.TemporaryDirectory() as work:
        for nm in names:
            m, specs = gq.build(nm)
            full = os.path.join(work, nm + ".onnx")
            onnx.save_model(m, full)
            spec_path = os.path.join(work, nm + ".inputs.json")
            with open(spec_path, "w") as f:
                json.dump(specs, f)
            opt = os.path.join(work, nm + ".opt.onnx")
            res = os.path.join(work, nm + ".result.json")
            r = subprocess.run(["node", DRIVER, "--model", full, "--inputs", spec_path,
                                "--optimized", opt, "--out", res, "--threads", "1"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                print("%-20s FAILED: %s" % (nm, (r.stderr.strip().splitlines() or ["?"])[-1]))
                continue
            with open(res) as f:
                rj = json.load(f)
            om = onnx.load(opt, load_external_data=False)
            info = {
                "entry": nm, "architecture": nm, "family": nm.split("_")[0],
                "opset": m.opset_import[0].version, "symbolic_batch": True,
                "ort_version": rj["ort_version"], "machine": machine, "nchwc_block": block,
                "threads": 1,
                "opt_level": "all", "inputs": rj["inputs"],
                "source_nodes": len(m.graph.node),
                "initializers": len(om.graph.initializer),
                "nodes": [[n.name, n.domain, n.op_type] for n in om.graph.node],
                "profile": [[p[0], p[1]] for p in rj["profile"]
                            if p[2] == "CPUExecutionProvider"],
            }
            externalize(m)
            write_gz(os.path.join(args.out, nm + ".onnx.gz"), m.SerializeToString())
            if args.opt_out:
                externalize(om)
                write_gz(os.path.join(args.opt_out, nm + ".onnx.gz"), om.SerializeToString())
            dump_json(info, os.path.join(args.out, nm + ".ort.json"))
            print("%-20s %3d nodes -> %3d kernels: %s" % (
                nm, len(m.graph.node), len(info["profile"]),
                " ".join(p[1] for p in info["profile"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
