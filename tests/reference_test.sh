#!/bin/bash
# reference_test.sh ONNXCOST SRCDIR TMPDIR - reference architectures
# (tests/reference/models: graphs exported by samples/export.py, weights
# left out as external data): batch-1 MACs within 1% of the published
# figures, and every node's shapes known at batch 1 and 32.
set -u
BIN=$1 SRC=$2 TMP=$3
mkdir -p "$TMP"
exec /usr/bin/python3 - "$BIN" "$SRC" "$TMP" <<'PYEOF'
import json, subprocess, sys
bin_, src, tmp = sys.argv[1:4]
# torchvision's documented "GFLOPS" (multiply-accumulates of convolutions and
# matrix products) and BERT-base at 128 tokens, in GMACs.
published = {"resnet18": 1.814, "resnet50": 4.089, "vgg16": 15.470,
             "alexnet": 0.714, "mobilenet_v2": 0.301, "densenet121": 2.834,
             "googlenet": 1.498, "bert_base": 11.17}
hooks = {}
for line in open(f"{src}/tests/reference/expected_macs.tsv"):
    if line.startswith("#") or not line.strip():
        continue
    name, macs = line.split("\t")
    hooks[name] = int(macs)
seq = {"bert_base": 128, "gpt2_small": 128}
passed = failed = 0

def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)

def analyze(name, batch):
    args = [bin_, "analyze", "--format", "json", "--batch", str(batch)]
    if name in seq:
        args += ["--input", f"input_ids={batch}x{seq[name]}"]
    p = subprocess.run(args + [f"{src}/tests/reference/models/{name}.onnx"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()
    return json.loads(p.stdout), p.stderr.strip()

for name in sorted(hooks):
    j, err = analyze(name, 1)
    check(j is not None, f"{name}: analyze failed: {err}")
    if j is None:
        continue
    t = j["totals"]
    macs = t["macs"]
    ref = published.get(name, hooks[name] / 1e9)
    rel = abs(macs / 1e9 - ref) / ref
    src_ = "published" if name in published else "torch hooks"
    print(f"{name:16s} {macs / 1e9:8.3f} GMAC  vs {ref:8.3f} ({src_})  {100 * rel:5.2f}%")
    check(rel <= 0.01, f"{name}: {macs / 1e9:.3f} GMAC is not within 1% of {ref}")
    check(t["unknown_shape_nodes"] == 0,
          f"{name} batch 1: {t['unknown_shape_nodes']} nodes with unknown shapes")
    check(t["unsupported_nodes"] == 0, f"{name}: {t['unsupported_nodes']} unsupported nodes")
    j32, err = analyze(name, 32)
    check(j32 is not None, f"{name} batch 32: analyze failed: {err}")
    if j32 is None:
        continue
    t32 = j32["totals"]
    check(t32["unknown_shape_nodes"] == 0,
          f"{name} batch 32: {t32['unknown_shape_nodes']} nodes with unknown shapes")
    bad = [n["name"] for n in j32["nodes"] for o in n["outputs"]
           if o["name"] and (o["shape"] is None or any(not isinstance(d, int) for d in o["shape"]))]
    check(not bad, f"{name} batch 32: shapes not fully numeric at {bad[:5]}")
    check(t32["macs"] == 32 * macs or name in seq,
          f"{name}: batch-32 MACs {t32['macs']} are not 32 x {macs}")
print(f"reference_models: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PYEOF
