"""corpus_io.py - how scripts/ort_graphs.py and scripts/ort_quant.py write a
plan-corpus entry (tests/data/ort-plan/, tests/data/ort-quant/): the graph
gzip'd reproducibly, ORT's answer as JSON with one list element a line, and
the machine's fingerprint."""
import gzip
import json
import subprocess


def write_gz(path, data):
    """data gzip'd with no name and no time in the header: the same bytes
    every time."""
    with open(path, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, compresslevel=9,
                           mtime=0) as z:
            z.write(data)


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
