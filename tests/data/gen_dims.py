"""Writes tests/data/dims/ (run with Debian's python3-onnx:
/usr/bin/python3 tests/data/gen_dims.py): models with named symbolic dims
for tests/dims_test.sh (--dim NAME=VALUE, the batch, unbound dims).

  detector.onnx  X[N,3,H,W] -> Conv 8x3x3x3 (pad 1) -> Relu
                 -> GlobalAveragePool -> Flatten -> Gemm 8->10 -> Y[N,10]
                 (an OCR detector's input: batch, height and width unbound)
  decoder.onnx   input_ids[batch,seq] (int64), past[batch,4,past_seq,8]:
                 Gather of an embedding 100x32 -> MatMul 32x32, and
                 past -> Concat along past_seq with a [batch,4,seq,8]
                 view of the MatMul (an LLM export's past key/value)
"""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dims")
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(16)


def save(name, graph):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                          producer_name="onnxcost-tests")
    onnx.checker.check_model(m)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(m.SerializeToString())


def t(name, a):
    return numpy_helper.from_array(a, name)


f32 = lambda *s: rng.standard_normal(s).astype(np.float32)
save("detector.onnx", helper.make_graph(
    [helper.make_node("Conv", ["X", "W", "B"], ["C"], name="conv", pads=[1, 1, 1, 1]),
     helper.make_node("Relu", ["C"], ["R"], name="relu"),
     helper.make_node("GlobalAveragePool", ["R"], ["P"], name="pool"),
     helper.make_node("Flatten", ["P"], ["F"], name="flatten"),
     helper.make_node("Gemm", ["F", "G", "g"], ["Y"], name="fc", transB=1)],
    "detector",
    [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", 3, "H", "W"])],
    [helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["N", 10])],
    [t("W", f32(8, 3, 3, 3)), t("B", f32(8)), t("G", f32(10, 8)), t("g", f32(10))]))

save("decoder.onnx", helper.make_graph(
    [helper.make_node("Gather", ["emb", "input_ids"], ["E"], name="embed"),
     helper.make_node("MatMul", ["E", "Wq"], ["Q"], name="proj"),
     helper.make_node("Reshape", ["Q", "kv_shape"], ["Qr"], name="split_heads"),
     helper.make_node("Transpose", ["Qr"], ["K"], name="heads_first", perm=[0, 2, 1, 3]),
     helper.make_node("Concat", ["past", "K"], ["present"], name="append_past", axis=2)],
    "decoder",
    [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
     helper.make_tensor_value_info("past", TensorProto.FLOAT, ["batch", 4, "past_seq", 8])],
    [helper.make_tensor_value_info("present", TensorProto.FLOAT,
                                   ["batch", 4, "total_seq", 8])],
    [t("emb", f32(100, 32)), t("Wq", f32(32, 32)),
     t("kv_shape", np.array([0, 0, 4, 8], dtype=np.int64))]))
