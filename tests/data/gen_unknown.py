"""Writes tests/data/unknown/ (run with Debian's python3-onnx:
/usr/bin/python3 tests/data/gen_unknown.py): a model with nodes whose
output shapes no static inference knows, for tests/unknown_test.sh.

  branches.onnx  X[N,3,16,16] -> Conv 8x3x3x3 (pad 1) -> Relu
                 -> GlobalAveragePool -> Flatten -> Y[N,8]   (all known)
                 Relu -> NonZero -> Transpose -> idx          (data-dependent)
                 Relu -> com.example.Fancy -> Sigmoid -> z    (no shape rule)
  Five nodes are predicted; NonZero, Transpose, Fancy and Sigmoid are not.
  nonzero.onnx   X[N,3,16,16] -> Relu -> NonZero -> Transpose -> idx
                 GatherND(Relu, idx) -> Sigmoid -> y[count]: every node
                 counted once --assume gives NonZero's count (nz:1)
"""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "unknown")
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(16)
g = helper.make_graph(
    [helper.make_node("Conv", ["X", "W", "B"], ["C"], name="conv", pads=[1, 1, 1, 1]),
     helper.make_node("Relu", ["C"], ["R"], name="relu"),
     helper.make_node("GlobalAveragePool", ["R"], ["P"], name="pool"),
     helper.make_node("Flatten", ["P"], ["Y"], name="flatten"),
     helper.make_node("NonZero", ["R"], ["nz"], name="nonzero"),
     helper.make_node("Transpose", ["nz"], ["idx"], name="nz_t"),
     helper.make_node("Fancy", ["R"], ["f"], name="fancy", domain="com.example"),
     helper.make_node("Sigmoid", ["f"], ["z"], name="sigmoid")],
    "branches",
    [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", 3, 16, 16])],
    [helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["N", 8]),
     helper.make_tensor_value_info("idx", TensorProto.INT64, None),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, None)],
    [numpy_helper.from_array(rng.standard_normal((8, 3, 3, 3)).astype(np.float32), "W"),
     numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "B")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13),
                                        helper.make_opsetid("com.example", 1)],
                      producer_name="onnxcost-tests")
with open(os.path.join(OUT, "branches.onnx"), "wb") as f:
    f.write(m.SerializeToString())
g = helper.make_graph(
    [helper.make_node("Relu", ["X"], ["R"], name="relu"),
     helper.make_node("NonZero", ["R"], ["nz"], name="nonzero"),
     helper.make_node("Transpose", ["nz"], ["idx"], name="nz_t"),
     helper.make_node("GatherND", ["R", "idx"], ["v"], name="gather"),
     helper.make_node("Sigmoid", ["v"], ["y"], name="sigmoid")],
    "nonzero",
    [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", 3, 16, 16])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)],
                      producer_name="onnxcost-tests")
with open(os.path.join(OUT, "nonzero.onnx"), "wb") as f:
    f.write(m.SerializeToString())
