#!/bin/bash
# extrapolation_test.sh ONNXCOST SRCDIR - a prediction beyond the timing
# model's data is said once and marked (issue 16, deliverable 6): kernels
# of an operator the built-in model has no sample of (LRN, which no
# measured network has either), or far beyond its largest samples
# (SqueezeNet at batch 1024), or at a thread count it never learned, are
# counted in one warning line, marked per node and kernel in JSON, and their share of
# the time is given; inside the data (SqueezeNet at batch 1) nothing is.
set -u
BIN=$1 SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
PY=/usr/bin/python3
SQ="$SRC/samples/squeezenet1_1.onnx"
# a Conv and an LRN (AlexNet's local response normalization)
$PY - "$TMP/lrn.onnx" <<'E'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
w = numpy_helper.from_array(np.full((16, 16, 3, 3), 0.01, np.float32), "w")
g = helper.make_graph(
    [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
     helper.make_node("LRN", ["c"], ["y"], size=5)], "lrn",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 32, 32])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16, 32, 32])], [w])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
E
LRN="$TMP/lrn.onnx"

"$BIN" predict "$SQ" --batch 1 -f json >"$TMP/j1" 2>"$TMP/e1"
ok '[ $? -eq 0 ] && ! grep -q extrapolat "$TMP/e1"' "inside the data: no warning"
ok "$PY -c \"import json,sys; j=json.load(open('$TMP/j1')); t=j['totals'];
assert t['extrapolated_kernels'] == 0 and t['extrapolated_ms'] == 0, t
assert not any('extrapolated' in n for n in j['nodes'] + j['kernels'])\"" \
    "inside the data: nothing marked in JSON"

"$BIN" predict "$LRN" -f json >"$TMP/j2" 2>"$TMP/e2"
ok '[ $? -eq 0 ] && [ "$(grep -c extrapolated "$TMP/e2")" -eq 1 ] &&
    grep -q "is extrapolated beyond the timing model.s data: no samples of LRN" "$TMP/e2"' \
    "an op never measured: one warning line naming it"
ok "$PY - '$TMP/j2' <<'E'
import json, sys
j = json.load(open(sys.argv[1]))
t = j['totals']
marked = {n['op']: n['extrapolated'] for n in j['nodes'] if 'extrapolated' in n}
assert marked.get('LRN') == \"no sample of LRN in the timing model's data\", marked
assert 'Conv' not in marked, marked
assert t['extrapolated_kernels'] == sum('extrapolated' in k for k in j['kernels']) >= 1, t
lrn = [k for k in j['kernels'] if k['op'] == 'LRN']
assert lrn and 'extrapolated' in lrn[0]
# the share: the marked kernels' times, as scaled in the total
share = sum(k['time_us'] for k in j['kernels'] if 'extrapolated' in k) / 1e3
assert abs(share - t['extrapolated_ms']) <= 1e-6 * max(1, share), (share, t)
E" "an op never measured: marked per node and kernel, its share of the time in totals"

"$BIN" predict "$SQ" --batch 1024 -f json >"$TMP/j3" 2>"$TMP/e3"
ok 'grep -q "extrapolated beyond the timing model.s data: [A-Za-z]*: [0-9]*x the work of the largest sample" "$TMP/e3"' \
    "far beyond the largest samples: said with the factor"
ok "$PY -c \"import json; j=json.load(open('$TMP/j3')); t=j['totals'];
assert t['extrapolated_kernels'] > 0 and 0 < t['extrapolated_ms'] <= t['time_ms'], t\"" \
    "far beyond the largest samples: counted in JSON"

# a thread count the timing model never learned (it has 1 and 2): every
# kernel the model predicts is marked, in one warning line, in JSON
"$BIN" predict "$SQ" --batch 1 --threads 2 -f json >"$TMP/j7" 2>"$TMP/e7"
ok "[ \$? -eq 0 ] && ! grep -q extrapolated '$TMP/e7' && $PY -c \"import json
assert json.load(open('$TMP/j7'))['totals']['extrapolated_kernels'] == 0\"" \
    "2 threads (learned): nothing marked"
"$BIN" predict "$SQ" --batch 1 --threads 4 -f json >"$TMP/j8" 2>"$TMP/e8"
ok '[ $? -eq 0 ] && [ "$(grep -c "extrapolat" "$TMP/e8")" -eq 1 ] &&
    grep -q "not trained at 4 threads; this is an extrapolation" "$TMP/e8"' \
    "4 threads (never learned): said once, by the target's line"
"$BIN" predict "$LRN" --threads 4 -f json >"$TMP/j9" 2>"$TMP/e9"
ok '[ $? -eq 0 ] && grep -q "^onnxcost: warning: 1 kernel (.*) is extrapolated beyond the timing model.s data: no samples of LRN$" "$TMP/e9"' \
    "4 threads and an op never measured: the note counts and names the op alone"
ok "$PY - '$TMP/j8' <<'E'
import json, sys
j = json.load(open(sys.argv[1]))
t = j['totals']
marked = [k for k in j['kernels'] if k.get('extrapolated') == 'no sample at 4 threads']
assert marked and t['extrapolated_kernels'] == len(marked), t
assert all(n['extrapolated'] == 'no sample at 4 threads'
           for n in j['nodes'] if 'extrapolated' in n)
assert t['extrapolated_ms'] > 0.5 * (t['time_ms'] - t['overhead_ms']), t
E" "4 threads: marked per kernel and node, most of the kernel time in totals"

# a Loop at 4 threads: its node carries the thread count too, unsaid twice
"$BIN" predict "$SRC/tests/data/corpus/loop_const.onnx" --threads 4 -f json \
    >"$TMP/j10" 2>"$TMP/e10"
ok "[ \$? -eq 0 ] && ! grep -q 'extrapolated beyond' '$TMP/e10' && $PY -c \"import json
j = json.load(open('$TMP/j10'))
assert [n['extrapolated'] for n in j['nodes'] if n['op'] == 'Loop'] == ['no sample at 4 threads']\"" \
    "4 threads, a Loop: its node marked with the thread count"

# an element type no sample of the operator had: an int32 ReduceSum (the
# built-in model learned float32 and, since the twenty-eighth session,
# int64 ones), beside a float32 one, unmarked; the note names the operator
# with the type
$PY - "$TMP/rs.onnx" <<'E'
import sys
from onnx import TensorProto, helper, save
g = helper.make_graph(
    [helper.make_node("ReduceSum", ["x"], ["s"], keepdims=1),
     helper.make_node("Cast", ["x"], ["xi"], to=TensorProto.INT32),
     helper.make_node("ReduceSum", ["xi"], ["si"], keepdims=1)], "rs",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [512, 256])],
    [helper.make_tensor_value_info("s", TensorProto.FLOAT, [1, 1]),
     helper.make_tensor_value_info("si", TensorProto.INT32, [1, 1])])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
E
"$BIN" predict "$TMP/rs.onnx" -f json >"$TMP/j11" 2>"$TMP/e11"
ok '[ $? -eq 0 ] && grep -q "^onnxcost: warning: 1 kernel (.*) is extrapolated beyond the timing model.s data: no samples of ReduceSum on int32$" "$TMP/e11"' \
    "an element type never measured: one warning line naming the op and the type"
ok "$PY - '$TMP/j11' <<'E'
import json, sys
j = json.load(open(sys.argv[1]))
marked = {n['name'] or n['outputs'][0]['name']: n.get('extrapolated') for n in j['nodes']
          if n['op'] == 'ReduceSum'}
assert sorted(marked.values(), key=str) == [None, \"no sample of ReduceSum on int32 in the timing model's data\"], marked
assert j['totals']['extrapolated_kernels'] == 1, j['totals']
E" "an element type never measured: that kernel alone marked in JSON"

# more inputs than any sample of the operator had: a Concat of 1000 pieces
# (the select family draws at most 512), beside one of 3,
# unmarked; the note names the count
$PY - "$TMP/cat.onnx" <<'E'
import sys
from onnx import TensorProto, helper, save
xs = ["x%d" % i for i in range(1000)]
g = helper.make_graph(
    [helper.make_node("Concat", xs, ["many"], axis=2),
     helper.make_node("Concat", xs[:3], ["few"], axis=2)], "cat",
    [helper.make_tensor_value_info(x, TensorProto.FLOAT, [16, 8, 1]) for x in xs],
    [helper.make_tensor_value_info("many", TensorProto.FLOAT, [16, 8, 1000]),
     helper.make_tensor_value_info("few", TensorProto.FLOAT, [16, 8, 3])])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
E
"$BIN" predict "$TMP/cat.onnx" -f json >"$TMP/j12" 2>"$TMP/e12"
ok '[ $? -eq 0 ] && grep -q "^onnxcost: warning: 1 kernel (.*) is extrapolated beyond the timing model.s data: Concat of 1000 inputs: its samples have at most [0-9]*$" "$TMP/e12"' \
    "more inputs than any sample: one warning line with the count"
ok "$PY - '$TMP/j12' <<'E'
import json, sys
j = json.load(open(sys.argv[1]))
marked = {len(n['inputs']): n.get('extrapolated') for n in j['nodes'] if n['op'] == 'Concat'}
assert marked[3] is None and marked[1000].startswith('Concat of 1000 inputs: its samples have at most '), marked
assert j['totals']['extrapolated_kernels'] == 1, j['totals']
E" "more inputs than any sample: that kernel alone marked in JSON"

# the same in sweep (the worst batch) and annotate, once each
"$BIN" sweep "$SQ" --batch 1,2048 >/dev/null 2>"$TMP/e4"
ok '[ "$(grep -c extrapolated "$TMP/e4")" -eq 1 ]' "sweep: one warning line"
"$BIN" annotate "$LRN" -o "$TMP/a.onnx" >/dev/null 2>"$TMP/e5"
ok '[ "$(grep -c extrapolated "$TMP/e5")" -eq 1 ]' "annotate: one warning line"

# quantized kernels: those the built-in model measured (the qconv, qmatmul,
# qelementwise families of cpu-AuthenticAMD-f26-m2's data) are predicted
# as themselves, unflagged; so are QuantizeLinear, DequantizeLinear and
# QGemm, which no sampler family times but the quantized corpus's whole
# runs did (in-graph samples).  A dynamically quantized MatMul is one
# DynamicQuantizeMatMul kernel.
Q="$SRC/tests/data/ort-quant"
"$BIN" predict "$Q/dq_matmul.onnx.gz" --input x=1x32x256 -f json >"$TMP/j6" 2>"$TMP/e6"
ok "[ \$? -eq 0 ] && ! grep -q extrapolated '$TMP/e6' && $PY -c \"import json
j = json.load(open('$TMP/j6'))
assert [k['op'] for k in j['kernels']] == ['DynamicQuantizeMatMul'], j['kernels']\"" \
    "dynamic quantization: one kernel, measured"
"$BIN" predict "$Q/qdq_resnet.onnx.gz" --input x=1x3x64x64 -f json >"$TMP/j7" 2>"$TMP/e7"
ok "$PY - '$TMP/j7' <<'E'
import json, sys
j = json.load(open(sys.argv[1]))
ks = {k['op']: k for k in j['kernels']}
for op in ('QLinearConv', 'QLinearAdd', 'QLinearGlobalAveragePool', 'QGemm',
           'QuantizeLinear', 'DequantizeLinear'):
    assert 'extrapolated' not in ks[op], op
E" "QDQ: the measured kernels unflagged, Q/DQ and QGemm too (measured in graphs)"

echo "extrapolation_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
