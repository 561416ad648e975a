#!/usr/bin/env bash
# selftest.sh - end-to-end check of collector/ort_bench.js on tiny models.
#
# Builds tiny ONNX models with Debian's python3-onnx, writes a manifest, runs
# the driver and checks the results against the protocol in README.md.
# Needs: node (>= 18), collector/node_modules (installed here with
# `npm ci --ignore-scripts` when missing), /usr/bin/python3 with python3-onnx.
# Exits non-zero on any failure. Takes a few seconds.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PY=/usr/bin/python3
fail() { echo "selftest: FAIL: $*" >&2; exit 1; }

command -v node >/dev/null || fail "node not found"
if [ ! -d "$HERE/node_modules/onnxruntime-node" ]; then
  echo "selftest: installing onnxruntime-node (npm ci --ignore-scripts)"
  (cd "$HERE" && npm ci --ignore-scripts --no-audit --no-fund >/dev/null) || fail "npm ci failed"
fi
"$PY" -c 'import onnx' 2>/dev/null || fail "python3-onnx missing (apt-get install python3-onnx)"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/ort_selftest.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

# 1. Tiny models (the script runs from $TMP so that no local 'onnx' folder shadows the module).
cat > "$TMP/make_models.py" <<'EOF'
import sys, numpy as np, onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh
d = sys.argv[1]
def save(g, name):
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, f"{d}/{name}")
rng = np.random.default_rng(0)
W = nh.from_array((rng.random((16, 8, 3, 3)) - 0.5).astype(np.float32), "W")
B = nh.from_array(np.zeros(16, np.float32), "B")
save(h.make_graph([h.make_node("Conv", ["X", "W", "B"], ["c"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
                   h.make_node("Relu", ["c"], ["Y"])], "conv_relu",
                  [h.make_tensor_value_info("X", T.FLOAT, [1, 8, 16, 16])],
                  [h.make_tensor_value_info("Y", T.FLOAT, [1, 16, 16, 16])], [W, B]), "conv_relu.onnx")
save(h.make_graph([h.make_node("MatMul", ["A", "Bm"], ["Y"])], "matmul",
                  [h.make_tensor_value_info("A", T.FLOAT, [32, 48]), h.make_tensor_value_info("Bm", T.FLOAT, [48, 64])],
                  [h.make_tensor_value_info("Y", T.FLOAT, [32, 64])]), "matmul.onnx")
save(h.make_graph([h.make_node("Gather", ["D", "I"], ["Y"], axis=0)], "gather",
                  [h.make_tensor_value_info("D", T.FLOAT, [100, 8]), h.make_tensor_value_info("I", T.INT64, [20])],
                  [h.make_tensor_value_info("Y", T.FLOAT, [20, 8])]), "gather.onnx")
save(h.make_graph([h.make_node("MatMul", ["A", "Bm"], ["Y"])], "calib",
                  [h.make_tensor_value_info("A", T.FLOAT, [256, 256]), h.make_tensor_value_info("Bm", T.FLOAT, [256, 256])],
                  [h.make_tensor_value_info("Y", T.FLOAT, [256, 256])]), "calib.onnx")
EOF
(cd "$TMP" && "$PY" make_models.py "$TMP") || fail "building the models"

cat > "$TMP/manifest.jsonl" <<EOF
{"calibration_model": "$TMP/calib.onnx"}
{"id": "selftest/t1/Conv/s0/000000", "model": "$TMP/conv_relu.onnx", "inputs": [{"name": "X", "dtype": "float32", "shape": [1, 8, 16, 16]}]}
{"id": "selftest/t1/MatMul/s0/000001", "model": "$TMP/matmul.onnx", "inputs": [{"name": "A", "dtype": "float32", "shape": [32, 48]}, {"name": "Bm", "dtype": "float32", "shape": [48, 64]}]}
{"id": "selftest/t1/Gather/s0/000002", "model": "$TMP/gather.onnx", "inputs": [{"name": "D", "dtype": "float32", "shape": [100, 8]}, {"name": "I", "dtype": "int64", "shape": [20], "bound": 100}]}
{"id": "selftest/t1/Missing/s0/000003", "model": "$TMP/no_such_model.onnx", "inputs": []}
{"id": "selftest/t1/BadShape/s0/000004", "model": "$TMP/matmul.onnx", "inputs": [{"name": "A", "dtype": "float32", "shape": [32, 47]}, {"name": "Bm", "dtype": "float32", "shape": [48, 64]}]}
EOF

# 2. Bad arguments and I/O errors.
set +e
node "$HERE/ort_bench.js" --in "$TMP/manifest.jsonl" --out "$TMP/x.jsonl" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "missing --threads: exit $rc, want 2"
node "$HERE/ort_bench.js" --threads 1 --in "$TMP/manifest.jsonl" --out "$TMP/x.jsonl" --frobnicate 1 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "unknown argument: exit $rc, want 2"
node "$HERE/ort_bench.js" --threads 1 --in "$TMP/none.jsonl" --out "$TMP/x.jsonl" 2>/dev/null; rc=$?
[ $rc -eq 1 ] || fail "missing manifest: exit $rc, want 1"
set -e

# 3. The real run: default level 'all', and the conv once more at 'extended'.
node "$HERE/ort_bench.js" --threads 1 --repeats 3 --passes 2 \
  --in "$TMP/manifest.jsonl" --out "$TMP/results.jsonl" || fail "driver exited $?"
head -n 2 "$TMP/manifest.jsonl" > "$TMP/manifest_ext.jsonl"
node "$HERE/ort_bench.js" --threads 1 --repeats 3 --passes 2 --opt-level extended \
  --in "$TMP/manifest_ext.jsonl" --out "$TMP/results_ext.jsonl" || fail "driver (extended) exited $?"

# 4. Check the results.
cat > "$TMP/check.py" <<'EOF'
import json, sys
res, res_ext, pkg = sys.argv[1], sys.argv[2], sys.argv[3]
want_version = json.load(open(pkg))["version"]
errors = []
def check(cond, msg):
    if not cond: errors.append(msg)
def load(p):
    return [json.loads(l) for l in open(p) if l.strip()]
def stat_ok(s, n, what):
    check(isinstance(s, dict) and set(s) >= {"min", "median", "p10", "p90", "n"}, f"{what}: bad stats {s}")
    if isinstance(s, dict) and set(s) >= {"min", "median", "p10", "p90", "n"}:
        check(s["n"] == n, f"{what}: n={s['n']}, want {n}")
        check(0 < s["min"] <= s["p10"] <= s["median"] <= s["p90"], f"{what}: unordered {s}")

L = load(res)
check(len(L) == 7, f"{len(L)} result lines, want 7 (2 calibration + 5 samples)")
for line, when in ((L[0], "before"), (L[-1], "after")):
    check(line.get("calibration") is True and line.get("when") == when, f"calibration '{when}' line: {line}")
    check(isinstance(line.get("median_us"), (int, float)) and line["median_us"] > 0, f"calibration median: {line}")
    check(isinstance(line.get("spread"), (int, float)), f"calibration spread: {line}")
S = {l["id"].split("/")[2]: l for l in L[1:-1]}
check(list(S) == ["Conv", "MatMul", "Gather", "Missing", "BadShape"], f"samples out of order: {list(S)}")
for name in ("Conv", "MatMul", "Gather"):
    s = S.get(name, {})
    check(s.get("ok") is True, f"{name}: not ok: {s}")
    if s.get("ok") is not True: continue
    check(s["ort_version"] == want_version, f"{name}: ort_version {s['ort_version']}")
    check(s["threads"] == 1 and s["passes"] == 2, f"{name}: threads/passes {s['threads']}/{s['passes']}")
    stat_ok(s["wall_us"], 3, f"{name} wall_us"); stat_ok(s["kernel_us"], 3, f"{name} kernel_us")
    check(isinstance(s["spread"], (int, float)) and s["spread"] >= 0, f"{name}: spread {s['spread']}")
    check(len(s["kernels"]) >= 1 and all(set(k) >= {"name", "op", "median_us"} for k in s["kernels"]),
          f"{name}: kernels {s['kernels']}")
    # the kernels of the chosen pass add up to (about) its kernel time
    tot = sum(k["median_us"] for k in s["kernels"])
    check(abs(tot - s["kernel_us"]["median"]) <= 0.5 * s["kernel_us"]["median"] + 5,
          f"{name}: kernel medians sum {tot} vs kernel_us {s['kernel_us']['median']}")
for name in ("Missing", "BadShape"):
    s = S.get(name, {})
    check(s.get("ok") is False and isinstance(s.get("error"), str) and s["error"] and "\n" not in s["error"],
          f"{name}: want ok=false with a one-line error: {s}")

def ops(s): return [k["op"] for k in s.get("kernels", [])]
conv = S.get("Conv", {})
conv_ops = ops(conv)
# Conv+Relu is ONE kernel: Relu is fused into the conv (at 'all' the NCHWc conv,
# with layout reorders around it; at 'extended' FusedConv)
check("Relu" not in conv_ops, f"Conv+Relu: Relu not fused: {conv_ops}")
check(sum(op in ("Conv", "FusedConv") for op in conv_ops) == 1, f"Conv+Relu: want one conv kernel: {conv_ops}")
check(ops(S.get("MatMul", {})) == ["MatMul"], f"MatMul kernels: {ops(S.get('MatMul', {}))}")
check(ops(S.get("Gather", {})) == ["Gather"], f"Gather kernels: {ops(S.get('Gather', {}))}")
E = load(res_ext)
check(len(E) == 3 and E[1].get("ok") is True, f"extended run: {E}")
ext_ops = ops(E[1]) if len(E) == 3 else []
check(ext_ops == ["FusedConv"], f"Conv+Relu at 'extended': want one FusedConv kernel, got {ext_ops}")

print(f"ort_version {want_version}; calibration before {L[0].get('median_us')} us, after {L[-1].get('median_us')} us")
for name in ("Conv", "MatMul", "Gather"):
    s = S.get(name, {})
    if s.get("ok"):
        print(f"{name}: wall {s['wall_us']['median']} us, kernel {s['kernel_us']['median']} us, kernels "
              + ", ".join(f"{k['name']}:{k['op']}={k['median_us']}" for k in s["kernels"]))
print(f"Conv+Relu at 'extended': " + ", ".join(f"{k['name']}:{k['op']}" for k in E[1].get("kernels", [])) if len(E) == 3 else "")
for name in ("Missing", "BadShape"):
    print(f"{name}: error: {S.get(name, {}).get('error')}")
for e in errors: print("check failed:", e)
print(f"selftest: {len(errors) == 0 and 'OK' or 'FAILED'} ({len(errors)} failed checks)")
sys.exit(1 if errors else 0)
EOF
(cd "$TMP" && "$PY" check.py "$TMP/results.jsonl" "$TMP/results_ext.jsonl" "$HERE/node_modules/onnxruntime-node/package.json") \
  || fail "results do not match the protocol"
