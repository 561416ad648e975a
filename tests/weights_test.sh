#!/bin/bash
# weights_test.sh ONNXCOST SRCDIR - weights are weights wherever the model
# stores them (issue 16, deliverable 1): tests/data/weights/ holds one
# network with its weights as initializers, as Constant nodes (value,
# value_floats, value_ints; a Transpose and an Identity of a Constant), and
# with an fp16 Constant Cast to float (tests/data/gen_weights.py).
set -u
BIN=$1 SRC=$2
D="$SRC/tests/data/weights"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
PY=/usr/bin/python3
for m in init constant fp16; do
    "$BIN" info --format json "$D/$m.onnx" >"$TMP/$m.info" &&
    "$BIN" analyze --format json --batch 2 "$D/$m.onnx" >"$TMP/$m.an" &&
    "$BIN" predict --format json --batch 2 --mode training "$D/$m.onnx" >"$TMP/$m.tr" 2>/dev/null &&
    "$BIN" report --batch 2 --sweep 1,2 "$D/$m.onnx" -o "$TMP/$m.html" 2>/dev/null
    ok '[ $? -eq 0 ]' "$m: info, analyze, predict, report run"
done
ok "$PY - '$TMP' <<'E'
import json, sys
t = sys.argv[1]
info = {m: json.load(open(f'{t}/{m}.info')) for m in ('init', 'constant', 'fp16')}
an = {m: json.load(open(f'{t}/{m}.an')) for m in info}
# 108 + 4 + 2 + 2560 + 10 elements; 4 bytes each but the shape's 8
for m, wb in (('init', 10744), ('constant', 10744), ('fp16', 10528)):
    assert info[m]['params'] == 2684 and info[m]['weight_bytes'] == wb, (m, info[m])
    tot = an[m]['totals']
    assert tot['params'] == 2684 and tot['weight_bytes'] == wb, (m, tot)
E" "info and analyze: the same params and weight bytes however stored"
ok "$PY - '$TMP' <<'E'
import json, sys
t = sys.argv[1]
an = {m: json.load(open(f'{t}/{m}.an')) for m in ('init', 'constant', 'fp16')}
peak = {m: an[m]['totals']['peak_activation_bytes'] for m in an}
# Constant values and their folded copies are weights, not activations
assert len(set(peak.values())) == 1, peak
# the Conv's output and the Relu's, 2x4x8x8 floats each, alive together
assert peak['init'] == 2 * (4 * 2 * 4 * 64), peak
want = {'conv': 108 + 4, 'flatten': 2, 'matmul': 2560, 'add': 10, 'relu': 0}
for m in an:
    got = {n['name']: n['params'] for n in an[m]['nodes'] if n['name'] in want}
    assert got == want, (m, got)
E" "per-node params and the activation peak the same however stored"
ok "$PY - '$TMP' <<'E'
import json, sys
t = sys.argv[1]
tr = {m: json.load(open(f'{t}/{m}.tr'))['totals']['training_memory'] for m in ('init', 'constant', 'fp16')}
for m in tr:
    assert tr[m]['weights_bytes'] == (10528 if m == 'fp16' else 10744), (m, tr[m])
# gradients of the float weights (not of the int64 shape), however stored
assert tr['init']['gradients_bytes'] == tr['constant']['gradients_bytes'] == 10728, tr
assert tr['fp16']['gradients_bytes'] == 10728 - 216, tr
E" "training memory: weights and gradients of Constant-node weights"
for m in init constant fp16; do
    ok "grep -q '<b>2.68 K</b><span>parameters</span>' '$TMP/$m.html'" "$m: the report card counts 2.68 K parameters"
done
ok "grep -q '<b>10.7 KB</b><span>weights</span>' '$TMP/constant.html'" "the report card's weights of a Constant-node model"
"$BIN" info "$D/constant.onnx" >"$TMP/ci"
ok 'grep -q "^params: *2684 " "$TMP/ci"' "info table: Constant-node params"
# a Constant inside a Loop's body is a weight too (the body's 32x32 float
# matrix and the trip count's int64 initializer)
for c in loop_const loop_constant_body; do
    "$BIN" info --format json "$SRC/tests/data/corpus/$c.onnx" >"$TMP/$c.info"
done
ok "$PY - '$TMP' <<'E'
import json, sys
for c in ('loop_const', 'loop_constant_body'):
    j = json.load(open(f'{sys.argv[1]}/{c}.info'))
    assert (j['params'], j['weight_bytes']) == (1025, 4104), (c, j['params'], j['weight_bytes'])
E" "a Constant node in a Loop's body counts in params and weight bytes"
# Identity copies of weights (PyTorch's shared weights) are weights:
# squeezenet1_1's 18 Identity copies of biases
"$BIN" analyze --format json "$SRC/samples/squeezenet1_1.onnx" >"$TMP/sq"
ok "$PY - '$TMP/sq' <<'E'
import json, sys
j = json.load(open(sys.argv[1]))
ids = [n for n in j['nodes'] if n['op'] == 'Identity']
assert len(ids) == 18 and all(n['params'] > 0 for n in ids)
# every Conv counts its weight and its bias, read through an Identity or not
import math
for n in j['nodes']:
    if n['op'] == 'Conv':
        assert n['params'] == sum(math.prod(i['shape']) for i in n['inputs'][1:]), n['name']
assert j['totals']['params'] == 1233288
# (some Conv reads its bias through an Identity copy)
out = {o['name'] for n in ids for o in n['outputs']}
assert any(i['name'] in out for n in j['nodes'] if n['op'] == 'Conv' for i in n['inputs'])
E" "Identity copies of weights: counted in their readers' params"
# 4-bit weights packed two to a byte (MatMulNBits, K 256, N 512, blocks
# of 32): params count the 131,072 weights and 4,096 scales they hold,
# weight bytes what is stored (65,536 + 16,384)
"$PY" - "$TMP/nbits.onnx" <<'E'
import sys
import numpy as np
from onnx import helper as h, TensorProto as T, numpy_helper as nh, save
b = nh.from_array(np.zeros((512, 8, 16), np.uint8), "B")
sc = nh.from_array(np.ones(4096, np.float32), "scales")
n = h.make_node("MatMulNBits", ["x", "B", "scales"], ["y"], domain="com.microsoft",
                K=256, N=512, bits=4, block_size=32)
g = h.make_graph([n], "g", [h.make_tensor_value_info("x", T.FLOAT, ["N", 256])],
                 [h.make_tensor_value_info("y", T.FLOAT, ["N", 512])], [b, sc])
save(h.make_model(g, opset_imports=[h.make_opsetid("", 17),
                                    h.make_opsetid("com.microsoft", 1)]), sys.argv[1])
E
"$BIN" info --format json "$TMP/nbits.onnx" >"$TMP/nb.info" 2>/dev/null &&
    "$BIN" analyze --format json --batch 2 "$TMP/nbits.onnx" >"$TMP/nb.an" 2>/dev/null
ok "[ \$? -eq 0 ] && $PY -c \"import json
i = json.load(open('$TMP/nb.info')); a = json.load(open('$TMP/nb.an'))
assert i['params'] == 135168 and i['weight_bytes'] == 81920, i
assert a['totals']['params'] == 135168 and a['nodes'][0]['params'] == 135168, a['totals']\"" \
    "MatMulNBits: params count the packed 4-bit weights, bytes as stored"
# a constant subgraph of any op (the square root of a scaled weight, as a
# weight-normalised layer computes it) is a weight, not an activation: ORT
# folds it at load
"$PY" - "$TMP/constsub.onnx" <<'E'
import sys
import numpy as np
from onnx import helper as h, TensorProto as T, numpy_helper as nh, save
w = nh.from_array(np.ones((512, 512), np.float32), "W")
two = nh.from_array(np.array([2.0], np.float32), "two")
nodes = [h.make_node("Mul", ["W", "two"], ["w2"]), h.make_node("Sqrt", ["w2"], ["ws"]),
         h.make_node("MatMul", ["x", "ws"], ["y"])]
g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, ["N", 512])],
                 [h.make_tensor_value_info("y", T.FLOAT, ["N", 512])], [w, two])
save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), sys.argv[1])
E
"$BIN" analyze --format json --batch 1 "$TMP/constsub.onnx" >"$TMP/cs.an" 2>/dev/null
ok "[ \$? -eq 0 ] && $PY -c \"import json
t = json.load(open('$TMP/cs.an'))['totals']
assert t['peak_activation_bytes'] == 4096 and t['params'] == 262145, t\"" \
    "a constant subgraph (Mul, Sqrt of a weight): a weight, not 2 MB of activations"
echo "weights_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
