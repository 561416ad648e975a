#!/bin/bash
# quant_kernel_test.sh ONNXCOST SRCDIR - a quantized group ORT fuses into one
# kernel is predicted as that kernel's own node would be (issue 16): the
# MatMulInteger, DynamicQuantizeLinear, Cast, Mul and Add of a dynamically
# quantized Linear (tests/data/ort-quant/dq_matmul) run as one
# DynamicQuantizeMatMul, described like the samples of that op (its
# com.microsoft domain, A, B, B's scale and zero point, the bias, a float
# output, its own cost), so it is predicted within a few percent of a
# model holding that one node; before, it was 2-3x that.  The same for a
# QDQ Conv (tests/data/ort-quant/qdq_conv_relu: DequantizeLinear of the
# uint8 input and the int8 weight, Conv, Relu, QuantizeLinear), which ORT
# runs as one QLinearConv reading the integers: before, it was described
# with float operands and predicted 1.7x the QLinearConv node.  And a
# MaxPool between a DequantizeLinear and a QuantizeLinear of the same scale
# and zero point, which ORT runs on the uint8 tensor (DropQDQNodesRules): it
# is described and predicted as a uint8 MaxPool (the qmaxpool samples), not
# as the float MaxPool it was (qdq_move at batch 8: 34 us against the
# 1.9 ms ORT profiled).
set -u
BIN=$1 SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
PY=/usr/bin/python3
gunzip -c "$SRC/tests/data/ort-quant/dq_matmul.onnx.gz" >"$TMP/group.onnx"
$PY - "$TMP/single.onnx" <<'E'
import sys
import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh
k, n = 256, 512
inits = [nh.from_array(np.zeros((k, n), np.int8), "B"),
         nh.from_array(np.array(0.004, np.float32), "b_s"),
         nh.from_array(np.array(0, np.int8), "b_z"),
         nh.from_array(np.zeros(n, np.float32), "bias")]
node = h.make_node("DynamicQuantizeMatMul", ["x", "B", "b_s", "b_z", "bias"], ["y"],
                   domain="com.microsoft")
g = h.make_graph([node], "single", [h.make_tensor_value_info("x", T.FLOAT, ["N", 32, k])],
                 [h.make_tensor_value_info("y", T.FLOAT, ["N", 32, n])], inits)
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13),
                                          h.make_opsetid("com.microsoft", 1)]), sys.argv[1])
E
gunzip -c "$SRC/tests/data/ort-quant/qdq_conv_relu.onnx.gz" >"$TMP/qgroup.onnx"
$PY - "$TMP/qsingle.onnx" <<'E'
import sys
import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh
f, u8, i8 = np.float32, np.uint8, np.int8
inits = [nh.from_array(np.array(0.05, f), "x_s"), nh.from_array(np.array(128, u8), "x_z"),
         nh.from_array(np.zeros((32, 16, 3, 3), i8), "w"),
         nh.from_array(np.array(0.004, f), "w_s"), nh.from_array(np.array(0, i8), "w_z"),
         nh.from_array(np.array(0.05, f), "y_s"), nh.from_array(np.array(0, u8), "y_z"),
         nh.from_array(np.zeros(32, np.int32), "b")]
node = h.make_node("QLinearConv", ["x", "x_s", "x_z", "w", "w_s", "w_z", "y_s", "y_z", "b"],
                   ["y"], pads=[1, 1, 1, 1], kernel_shape=[3, 3])
g = h.make_graph([node], "single", [h.make_tensor_value_info("x", T.UINT8, ["N", 16, 32, 32])],
                 [h.make_tensor_value_info("y", T.UINT8, ["N", 32, 32, 32])], inits)
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), sys.argv[1])
E
$PY - "$TMP/pgroup.onnx" "$TMP/psingle.onnx" <<'E'
import sys
import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh
qp = [nh.from_array(np.array(0.05, np.float32), "s"), nh.from_array(np.array(128, np.uint8), "z")]
pool = dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
nodes = [h.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"]),
         h.make_node("DequantizeLinear", ["xq", "s", "z"], ["xd"]),
         h.make_node("MaxPool", ["xd"], ["p"], **pool),
         h.make_node("QuantizeLinear", ["p", "s", "z"], ["pq"]),
         h.make_node("DequantizeLinear", ["pq", "s", "z"], ["y"])]
g = h.make_graph(nodes, "group", [h.make_tensor_value_info("x", T.FLOAT, ["N", 64, 32, 32])],
                 [h.make_tensor_value_info("y", T.FLOAT, ["N", 64, 16, 16])], qp)
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), sys.argv[1])
g = h.make_graph([h.make_node("MaxPool", ["x"], ["y"], **pool)], "single",
                 [h.make_tensor_value_info("x", T.UINT8, ["N", 64, 32, 32])],
                 [h.make_tensor_value_info("y", T.UINT8, ["N", 64, 16, 16])])
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), sys.argv[2])
E
# same GROUP SINGLE DIMS OP WHAT: at batch 1 and 8, 1 and 2 threads, the one
# OP kernel of GROUP is predicted within 5% of SINGLE's (x bound to BATCHxDIMS).
same() {
    local group=$1 single=$2 dims=$3 op=$4 what=$5 b t
    for b in 1 8; do
        for t in 1 2; do
            "$BIN" predict "$group" --input x=${b}x$dims -T $t -f json >"$TMP/g.json" 2>/dev/null
            "$BIN" predict "$single" --input x=${b}x$dims -T $t -f json >"$TMP/s.json" 2>/dev/null
            ok "$PY - '$TMP/g.json' '$TMP/s.json' '$op' <<'E'
import json, sys
g, s = (json.load(open(p))['kernels'] for p in sys.argv[1:3])
q = [[k for k in ks if k['op'] == sys.argv[3]] for ks in (g, s)]
assert len(q[0]) == 1 and len(q[1]) == 1, (g, s)
assert abs(q[0][0]['time_us'] / q[1][0]['time_us'] - 1) < 0.05, (q[0][0], q[1][0])
E" "batch $b, $t threads: $what"
        done
    done
}
same "$TMP/qgroup.onnx" "$TMP/qsingle.onnx" 16x32x32 QLinearConv \
    "a QDQ Conv is predicted as its QLinearConv node"
same "$TMP/pgroup.onnx" "$TMP/psingle.onnx" 64x32x32 MaxPool \
    "a MaxPool whose QDQ pair ORT drops is predicted as a uint8 MaxPool"
same "$TMP/group.onnx" "$TMP/single.onnx" 32x256 DynamicQuantizeMatMul \
    "the fused group is predicted as its one node"
echo "quant_kernel: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
