"""corpus_io.py - how scripts/ort_graphs.py and scripts/ort_quant.py write a
plan-corpus entry (tests/data/ort-plan/, tests/data/ort-quant/): the graph
gzip'd reproducibly, ORT's answer as JSON with one list element a line, and
the machine's fingerprint; the check kernel the whole-model measuring
scripts time around each run; and how the fitting scripts rewrite a JSON
file of data/ (write_json: never half-written)."""
import gzip
import json
import os
import subprocess


def write_gz(path, data):
    """data gzip'd with no name and no time in the header: the same bytes
    every time."""
    with open(path, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, compresslevel=9,
                           mtime=0) as z:
            z.write(data)


def write_json(path, doc):
    """doc as indented JSON into path, through a temporary file renamed
    over it: an interrupted write leaves the old file."""
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


def dump_json(obj, path):
    """Compact JSON, but one list element per line for nodes/profile."""
    parts = []
    for k, v in obj.items():
        if k in ("nodes", "profile"):
            inner = ",\n".join(json.dumps(x, separators=(",", ":")) for x in v)
            parts.append(f"{json.dumps(k)}:[\n{inner}\n]")
        else:
            parts.append(f"{json.dumps(k)}:{json.dumps(v, separators=(',', ':'))}")
    with open(path, "w") as f:
        f.write("{" + ",\n".join(parts) + "}\n")


def fingerprint(onnxcost):
    """`onnxcost hw --fingerprint`, or "unknown"."""
    try:
        r = subprocess.run([onnxcost, "hw", "--fingerprint"], capture_output=True,
                           text=True, timeout=120)
        if r.returncode == 0 and r.stdout.strip():
            return r.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return "unknown"


def check_kernel_line(workdir):
    """The manifest's first line for collector/ort_bench.js: the check
    kernel `onnxcost collect` times around every chunk (A[256x256] times a
    constant B[256x256], MatMul), written once into workdir.  The driver
    then reports its median before and after the runs ("calibration"
    results), which the scripts keep as calib_us: a host that slowed down
    during a run shows there."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    path = os.path.join(workdir, "check.onnx")
    if not os.path.exists(path):
        b = np.random.default_rng(0).uniform(-1, 1, (256, 256)).astype(np.float32)
        g = helper.make_graph(
            [helper.make_node("MatMul", ["A", "B"], ["Y"], name="calib")], "check",
            [helper.make_tensor_value_info("A", TensorProto.FLOAT, [256, 256])],
            [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [256, 256])],
            [numpy_helper.from_array(b, "B")])
        onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), path)
    return json.dumps({"calibration_model": path}) + "\n"
