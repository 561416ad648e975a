#!/usr/bin/env bash
# torch_selftest.sh - end-to-end check of collector/torch_bench.py on tiny models.
#
# Builds tiny ONNX models with Debian's python3-onnx, writes a manifest, runs
# the PyTorch driver with tiny repeats and checks the results against the
# protocol in README.md ("torch-cpu"). Needs /usr/bin/python3 with Debian's
# python3-torch and python3-onnx. Exits non-zero on any failure. Takes a few
# seconds (most of it is importing torch, three times).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PY=/usr/bin/python3
DRIVER="$HERE/torch_bench.py"
fail() { echo "torch_selftest: FAIL: $*" >&2; exit 1; }

"$PY" -c 'import onnx' 2>/dev/null || fail "python3-onnx missing (apt-get install python3-onnx)"
"$PY" -c 'import torch' 2>/dev/null || fail "python3-torch missing (apt-get install python3-torch)"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/torch_selftest.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"      # so that no local 'onnx' folder (the repo has one) shadows the module

# 1. Tiny models: Conv+Add+Relu (asymmetric pads), Gemm with weights, Softmax
#    (no parameters), an unsupported op, and the calibration MatMul.
cat > make_models.py <<'EOF'
import sys, json, numpy as np, onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh
d = sys.argv[1]
def save(g, name, opset=17):
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, f"{d}/{name}")
    return f"{d}/{name}"
vi = h.make_tensor_value_info
rng = np.random.default_rng(0)
W = nh.from_array((rng.random((8, 4, 3, 3)) - 0.5).astype(np.float32), "W")
B = nh.from_array(np.zeros(8, np.float32), "B")
conv = save(h.make_graph(
    [h.make_node("Conv", ["X", "W", "B"], ["c"], kernel_shape=[3, 3], pads=[0, 1, 1, 0], strides=[2, 2]),
     h.make_node("Add", ["c", "R"], ["a"]), h.make_node("Relu", ["a"], ["Y"])], "conv_add_relu",
    [vi("X", T.FLOAT, [1, 4, 9, 9]), vi("R", T.FLOAT, [1, 8, 4, 4])],
    [vi("Y", T.FLOAT, [1, 8, 4, 4])], [W, B]), "conv_add_relu.onnx")
Wg = nh.from_array((rng.random((16, 24)) - 0.5).astype(np.float32), "Wg")
Cg = nh.from_array(np.zeros(16, np.float32), "Cg")
gemm = save(h.make_graph([h.make_node("Gemm", ["A", "Wg", "Cg"], ["Y"], transB=1)], "gemm",
                         [vi("A", T.FLOAT, [8, 24])], [vi("Y", T.FLOAT, [8, 16])], [Wg, Cg]), "gemm.onnx")
smax = save(h.make_graph([h.make_node("Softmax", ["X"], ["Y"], axis=-1)], "softmax",
                         [vi("X", T.FLOAT, [4, 32])], [vi("Y", T.FLOAT, [4, 32])]), "softmax.onnx")
bad = save(h.make_graph([h.make_node("Det", ["X"], ["Y"])], "det",
                        [vi("X", T.FLOAT, [3, 3])], [vi("Y", T.FLOAT, [])]), "det.onnx")
Bc = nh.from_array((rng.random((256, 256)) - 0.5).astype(np.float32), "Bc")
calib = save(h.make_graph([h.make_node("MatMul", ["A", "Bc"], ["Y"])], "calib",
                          [vi("A", T.FLOAT, [256, 256])], [vi("Y", T.FLOAT, [256, 256])], [Bc]), "calib.onnx")
lines = [{"calibration_model": calib},
         {"id": "torch-cpu/t1/Conv/s0/000000", "model": conv,
          "inputs": [{"name": "X", "dtype": "float32", "shape": [1, 4, 9, 9]},
                     {"name": "R", "dtype": "float32", "shape": [1, 8, 4, 4]}]},
         {"id": "torch-cpu/t1/Gemm/s0/000001", "model": gemm,
          "inputs": [{"name": "A", "dtype": "float32", "shape": [8, 24]}]},
         {"id": "torch-cpu/t1/Softmax/s0/000002", "model": smax,
          "inputs": [{"name": "X", "dtype": "float32", "shape": [4, 32]}]},
         {"id": "torch-cpu/t1/Det/s0/000003", "model": bad,
          "inputs": [{"name": "X", "dtype": "float32", "shape": [3, 3]}]}]
with open(f"{d}/manifest.jsonl", "w") as f:
    for l in lines:
        f.write(json.dumps(l) + "\n")
EOF
"$PY" make_models.py "$TMP" || fail "could not build the models"

# 2. Run the driver: SGD and Adam, tiny repeats.
run() {
  OMP_WAIT_POLICY=PASSIVE "$PY" "$DRIVER" --threads 1 --in "$TMP/manifest.jsonl" \
    --out "$1" --warmup 1 --repeats 3 --passes 2 --max-seconds 0.2 "${@:2}"
}
run "$TMP/sgd.jsonl" || fail "driver exited $? (sgd)"
run "$TMP/adam.jsonl" --optimizer adam || fail "driver exited $? (adam)"

# 3. Check the results.
cat > check.py <<'EOF'
import sys, json
path, optim = sys.argv[1], sys.argv[2]
lines = [json.loads(l) for l in open(path)]
def ok(c, msg):
    if not c:
        print("torch_selftest: FAIL: %s: %s" % (path, msg), file=sys.stderr)
        sys.exit(1)
ok(len(lines) == 6, "expected 6 lines, got %d" % len(lines))
for cal, when in ((lines[0], "before"), (lines[-1], "after")):
    ok(cal.get("calibration") is True and cal.get("when") == when, "calibration line %s" % when)
    ok(cal.get("median_us", 0) > 0 and cal.get("n") == 3 and cal.get("passes") == 2,
       "calibration %s: %s" % (when, cal))
def st(s, what):
    ok(isinstance(s, dict) and s["n"] == 3, "%s: n" % what)
    ok(0 < s["min"] <= s["p10"] <= s["median"] <= s["p90"], "%s: order %s" % (what, s))
expect = {  # id suffix -> (params, input_grad: every float input's, as in a network; layers)
    "000000": (8 * 4 * 9 + 8, True, ["F.pad+nn.Conv2d", "torch.add", "F.relu"]),
    "000001": (16 * 24 + 16, True, ["nn.Linear"]),
    "000002": (0, True, ["torch.softmax"]),
}
for r in lines[1:4]:
    sfx = r["id"].rsplit("/", 1)[1]
    ok(r.get("ok") is True, "%s not ok: %s" % (r["id"], r.get("error")))
    ok(r["runtime"] == "torch" and r["torch_version"].startswith("1.") and r["threads"] == 1,
       "%s: runtime fields" % r["id"])
    for k in ("wall_us", "kernel_us", "step_us", "forward_us"):
        st(r[k], "%s %s" % (r["id"], k))
    ok(r["wall_us"] == r["step_us"] == r["kernel_us"], "%s: step stats differ" % r["id"])
    ok(r["forward_us"]["median"] < r["step_us"]["median"], "%s: forward >= step" % r["id"])
    p, ig, layers = expect[sfx]
    ok(r["params"] == p, "%s: params %s, want %s" % (r["id"], r["params"], p))
    ok(r["input_grad"] is ig, "%s: input_grad" % r["id"])
    ok([l["torch"] for l in r["layers"]] == layers, "%s: layers %s" % (r["id"], r["layers"]))
    ok(r["optimizer"] == (optim if p else None), "%s: optimizer %s" % (r["id"], r["optimizer"]))
    ok(r["passes"] == 2 and r["loss"] == "mean" and r["mode"] == "train", "%s: fields" % r["id"])
    ok(isinstance(r["spread"], float), "%s: spread" % r["id"])
bad = lines[4]
ok(bad.get("ok") is False and "unsupported op: Det" in bad.get("error", ""), "Det line: %s" % bad)
print("%s: %d lines ok; conv+add+relu step %.0f us (forward %.0f us), calibration %.0f/%.0f us"
      % (path.rsplit("/", 1)[1], len(lines), lines[1]["step_us"]["median"],
         lines[1]["forward_us"]["median"], lines[0]["median_us"], lines[-1]["median_us"]))
EOF
"$PY" check.py "$TMP/sgd.jsonl" sgd
"$PY" check.py "$TMP/adam.jsonl" adam
ls "$TMP" | grep -q '\.tmp\.' && fail "a temporary results file was left behind"

# 4. Exit codes: bad arguments 2, unreadable manifest 1.
set +e
"$PY" "$DRIVER" --threads 0 --in x --out y 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "--threads 0 exited $rc, want 2"
"$PY" "$DRIVER" --threads 1 --in "$TMP/none.jsonl" --out "$TMP/none.out" 2>/dev/null; rc=$?
[ $rc -eq 1 ] || fail "missing manifest exited $rc, want 1"
set -e
[ ! -e "$TMP/none.out" ] || fail "results written for a missing manifest"
echo "torch_selftest: 3 passed, 0 failed"
